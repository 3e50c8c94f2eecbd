//! LevelDB's `Hash(data, n, seed)` (util/hash.cc, docs/leveldb-filter.md §1): murmur-like,
//! 32-bit, little-endian words. The Bloom policy calls it as `BloomHash` with one fixed seed.

/// Seed of `BloomHash` (util/bloom.cc).
pub const BLOOM_SEED: u32 = 0xbc9f_1d34;

/// LevelDB's `Hash(data, n, seed)`: tail bytes unsigned (LevelDB >= 1.18).
pub fn hash(data: &[u8], seed: u32) -> u32 {
    hash_impl(data, seed, false)
}

/// The pre-1.18 hash: tail bytes went through signed `char` (sign-extended on x86), the bug
/// that renamed the policy (§1, History).
pub fn hash_legacy_signed(data: &[u8], seed: u32) -> u32 {
    hash_impl(data, seed, true)
}

fn hash_impl(data: &[u8], seed: u32, signed_tail: bool) -> u32 {
    const M: u32 = 0xc6a4_a793;
    const R: u32 = 24;
    let mut h = seed ^ (data.len() as u32).wrapping_mul(M);
    let mut words = data.chunks_exact(4);
    for w in &mut words {
        h = h.wrapping_add(u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
        h = h.wrapping_mul(M);
        h ^= h >> 16;
    }
    let tail = words.remainder();
    let b = |i: usize| -> u32 {
        if signed_tail {
            tail[i] as i8 as i32 as u32
        } else {
            tail[i] as u32
        }
    };
    // The final mix runs only when 1-3 bytes are left over.
    if !tail.is_empty() {
        if tail.len() >= 3 {
            h = h.wrapping_add(b(2) << 16);
        }
        if tail.len() >= 2 {
            h = h.wrapping_add(b(1) << 8);
        }
        h = h.wrapping_add(b(0));
        h = h.wrapping_mul(M);
        h ^= h >> R;
    }
    h
}

/// `BloomHash(key)` = `Hash(key, n, 0xbc9f1d34)`.
pub fn bloom_hash(key: &[u8]) -> u32 {
    hash(key, BLOOM_SEED)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_upstream_vectors() {
        // google/leveldb util/hash_test.cc (SignedUnsignedIssue), via docs/leveldb-filter.md §1.
        assert_eq!(hash(&[], 0xbc9f1d34), 0xbc9f1d34);
        assert_eq!(hash(&[0x62], 0xbc9f1d34), 0xef1345c4);
        assert_eq!(hash(&[0xc3, 0x97], 0xbc9f1d34), 0x5b663814);
        assert_eq!(hash(&[0xe2, 0x99, 0xa5], 0xbc9f1d34), 0x323c078f);
        assert_eq!(hash(&[0xe1, 0x80, 0xb9, 0x32], 0xbc9f1d34), 0xed21633a);
    }
}

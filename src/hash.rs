//! TsFile's `Murmur128Hash`: MurmurHash3 x64-128 folded to a signed 32-bit value
//! (spec.md §4, tsfile-format.md §11).
//!
//! The only deviation from the reference algorithm is how the tail bytes
//! (`len mod 16`) are widened before they are XORed into `k1`/`k2`: Java widens
//! a signed `byte` (sign extension), the C++ writer in tsfile 2.5.0 widens a
//! `uint8_t` (zero extension). Both matter, so both are implemented.

/// The seeds of TsFile's `BloomFilter`, in order; a filter uses the first
/// `hash_function_count` of them.
pub const SEEDS: [u32; 8] = [5, 7, 11, 19, 31, 37, 43, 59];

/// How the tail bytes of the key are widened to 64 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TailVariant {
    /// Sign-extended (`(long) byte` in Java): the Java writer and reader.
    Java,
    /// Zero-extended (`uint8_t`): the C++ writer in PyPI tsfile 2.5.0 and C++ builds on ARM.
    ZeroExtended,
}

impl TailVariant {
    pub const ALL: [TailVariant; 2] = [TailVariant::Java, TailVariant::ZeroExtended];

    /// The stable name used in the JS API, the CLI and JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            TailVariant::Java => "java",
            TailVariant::ZeroExtended => "zero-extended",
        }
    }

    pub fn from_name(name: &str) -> Option<TailVariant> {
        match name.to_ascii_lowercase().as_str() {
            "java" | "sign-extended" | "signed" => Some(TailVariant::Java),
            "zero-extended" | "zero" | "unsigned" | "cpp" | "c++" => Some(TailVariant::ZeroExtended),
            _ => None,
        }
    }
}

const C1: u64 = 0x87c3_7b91_1142_53d5;
const C2: u64 = 0x4cf5_ad43_2745_937f;

#[inline]
fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^= k >> 33;
    k
}

#[inline]
fn mix_k1(k1: u64) -> u64 {
    k1.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2)
}

#[inline]
fn mix_k2(k2: u64) -> u64 {
    k2.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1)
}

/// The 128-bit state `(h1, h2)` after finalisation, with the seed widened to 64 bits
/// for both halves as Java does.
pub fn murmur128(key: &[u8], seed: u32, variant: TailVariant) -> (u64, u64) {
    let mut h1 = seed as u64;
    let mut h2 = seed as u64;
    let mut blocks = key.chunks_exact(16);
    for block in &mut blocks {
        // copy_from_slice rather than try_into().unwrap(): the unwrap's Debug formatting
        // costs ~0.5 KiB of wasm.
        let mut k1 = [0u8; 8];
        k1.copy_from_slice(&block[..8]);
        let k1 = u64::from_le_bytes(k1);
        let mut k2 = [0u8; 8];
        k2.copy_from_slice(&block[8..]);
        let k2 = u64::from_le_bytes(k2);
        h1 ^= mix_k1(k1);
        h1 = h1.rotate_left(27).wrapping_add(h2).wrapping_mul(5).wrapping_add(0x52dc_e729);
        h2 ^= mix_k2(k2);
        h2 = h2.rotate_left(31).wrapping_add(h1).wrapping_mul(5).wrapping_add(0x3849_5ab5);
    }

    let tail = blocks.remainder();
    let widen = |b: u8| -> u64 {
        match variant {
            TailVariant::Java => b as i8 as i64 as u64,
            TailVariant::ZeroExtended => b as u64,
        }
    };
    // XOR, not OR: with sign extension the high bits of one byte overlap the next ones.
    let mut k1 = 0u64;
    let mut k2 = 0u64;
    for (j, &b) in tail.iter().enumerate() {
        if j < 8 {
            k1 ^= widen(b) << (8 * j);
        } else {
            k2 ^= widen(b) << (8 * (j - 8));
        }
    }
    if tail.len() > 8 {
        h2 ^= mix_k2(k2);
    }
    if !tail.is_empty() {
        h1 ^= mix_k1(k1);
    }

    let len = key.len() as u64;
    h1 ^= len;
    h2 ^= len;
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    (h1, h2)
}

/// `(int) (h1 + h2)`: the value TsFile's `BloomFilter` turns into a bit index.
pub fn hash32(key: &[u8], seed: u32, variant: TailVariant) -> i32 {
    let (h1, h2) = murmur128(key, seed, variant);
    h1.wrapping_add(h2) as i32
}

/// `(hash == Integer.MIN_VALUE ? 0 : Math.abs(hash)) % bit_count`.
/// `bit_count` must be positive (the decoder guarantees it).
pub fn bit_index(hash32: i32, bit_count: u32) -> u32 {
    debug_assert!(bit_count > 0);
    let magnitude = if hash32 == i32::MIN { 0 } else { hash32.unsigned_abs() };
    magnitude % bit_count
}

/// True when the two tail variants can disagree for this key: some byte of the
/// `len mod 16` tail is >= 0x80. For every other key they hash identically.
pub fn variants_can_differ(key: &[u8]) -> bool {
    let tail_len = key.len() % 16;
    key[key.len() - tail_len..].iter().any(|&b| b >= 0x80)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_table_seed5_m256() {
        // spec.md §4, first table.
        for (path, h, bit) in [
            ("root.sg.d.s1", -1267668613, 133),
            ("root.设备.s1", 1697017247, 159),
            ("root.abcdefghijklmnop.设备.s1", 866805081, 89),
        ] {
            let got = hash32(path.as_bytes(), 5, TailVariant::Java);
            assert_eq!(got, h, "{path}");
            assert_eq!(bit_index(got, 256), bit, "{path}");
        }
    }

    #[test]
    fn stock_murmur_differs_on_signed_tail() {
        // spec.md §4: a stock MurmurHash3 gives 1978455175 → bit 135 for this path.
        let h = hash32("root.设备.s1".as_bytes(), 5, TailVariant::ZeroExtended);
        assert_eq!(h, 1978455175);
        assert_eq!(bit_index(h, 256), 135);
    }

    #[test]
    fn min_value_maps_to_bit_zero() {
        assert_eq!(bit_index(i32::MIN, 7), 0);
        assert_eq!(bit_index(-7, 5), 2);
        assert_eq!(bit_index(i32::MAX, 256), (i32::MAX as u32) % 256);
    }

    #[test]
    fn tail_check() {
        assert!(!variants_can_differ(b"root.sg.d1.s1"));
        assert!(variants_can_differ("root.sg.d1.温度".as_bytes()));
        // 16 bytes of non-ASCII then an ASCII tail: the blocks are unsigned in both variants.
        let mut k = "设备设备设".as_bytes().to_vec(); // 15 bytes
        k.push(b'x');
        k.extend_from_slice(b"abc");
        assert!(!variants_can_differ(&k));
    }
}

//! TsFile's `Murmur128Hash`: MurmurHash3 x64-128 folded to a signed 32-bit value
//! (docs/bloom-filter.md §4), and the bit test of its `BloomFilter`.
//!
//! The hot path of tsfile-bloom, in its own crate so that the wasm profile can compile it at
//! opt-level 3 while the rest of the module stays at "z" (the root Cargo.toml).
//!
//! The only deviation from the reference algorithm is how the tail bytes
//! (`len mod 16`) are widened before they are XORed into `k1`/`k2`: Java widens
//! a signed `byte` (sign extension), the C++ writer in tsfile 2.5.0 widens a
//! `uint8_t` (zero extension). Both matter, so both are implemented.

/// The crate's README (its crates.io page): its example runs as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct Readme;

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

    /// The variant of a name (case-insensitive). A writer's name is none: the C++ writer's tail
    /// depends on its build (zero-extended since tsfile 2.5 and on ARM, sign-extended as Java's
    /// in older x86-64 builds, docs/writers.md §2), so `cpp` names no variant.
    pub fn from_name(name: &str) -> Option<TailVariant> {
        match name.to_ascii_lowercase().as_str() {
            "java" | "sign-extended" | "signed" => Some(TailVariant::Java),
            "zero-extended" | "zero" | "unsigned" => Some(TailVariant::ZeroExtended),
            _ => None,
        }
    }
}

const C1: u64 = 0x87c3_7b91_1142_53d5;
const C2: u64 = 0x4cf5_ad43_2745_937f;

#[inline(always)]
fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^= k >> 33;
    k
}

#[inline(always)]
fn mix_k1(k1: u64) -> u64 {
    k1.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2)
}

#[inline(always)]
fn mix_k2(k2: u64) -> u64 {
    k2.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1)
}

/// Reads 8 little-endian bytes at `at`; callers guarantee `at + 8 <= bytes.len()` (the full
/// 16-byte blocks below `len & !15`, or the last 16 bytes of a key of 16 bytes or more), so
/// the hot loops carry no bounds checks.
#[inline(always)]
fn le64(bytes: &[u8], at: usize) -> u64 {
    debug_assert!(at + 8 <= bytes.len());
    // SAFETY: `at + 8 <= bytes.len()` (see above); an unaligned read of initialised bytes.
    u64::from_le(unsafe { core::ptr::read_unaligned(bytes.as_ptr().add(at) as *const u64) })
}

/// The seed-independent part of a key: its full 16-byte blocks and the tail's mixed words.
/// Built once per key; each seed then costs only the `h1`/`h2` chain and the finalisation.
#[derive(Clone, Copy)]
struct Blocks<'a> {
    /// The key's full blocks: `16 * n` bytes.
    body: &'a [u8],
    /// `mix_k1(tail k1)`, `mix_k2(tail k2)`; 0 when that half of the tail is empty (XOR
    /// with 0 is the reference's "skip").
    t1: u64,
    t2: u64,
    len: u64,
}

impl<'a> Blocks<'a> {
    /// Once per key; out of line (its callers are the batch loops and the single-key calls,
    /// and one copy is smaller than six for the cost of a call per key).
    #[inline(never)]
    fn new(key: &'a [u8], variant: TailVariant) -> Blocks<'a> {
        let len = key.len();
        let body_len = len & !15;
        let r = len & 15;
        // The tail as a zero-padded 128-bit little-endian word, without a copy: the last 16
        // bytes of the key shifted down past the bytes of the last block (a memcpy of the
        // tail into a buffer is a runtime call in wasm); short keys byte by byte.
        let w: u128 = if r == 0 {
            0
        } else if len >= 16 {
            let last = (le64(key, len - 16) as u128) | ((le64(key, len - 8) as u128) << 64);
            last >> (8 * (16 - r))
        } else {
            key.iter().rev().fold(0u128, |w, &b| (w << 8) | b as u128)
        };
        let (mut k1, mut k2) = (w as u64, (w >> 64) as u64);
        if variant == TailVariant::Java {
            k1 ^= sign_fill(k1);
            k2 ^= sign_fill(k2);
        }
        let t2 = if r > 8 { mix_k2(k2) } else { 0 };
        let t1 = if r > 0 { mix_k1(k1) } else { 0 };
        Blocks { body: &key[..body_len], t1, t2, len: len as u64 }
    }

    /// Tail, length and finalisation, from the chain state after the blocks.
    #[inline(always)]
    fn finish(&self, mut h1: u64, mut h2: u64) -> (u64, u64) {
        h2 ^= self.t2;
        h1 ^= self.t1;
        h1 ^= self.len;
        h2 ^= self.len;
        h1 = h1.wrapping_add(h2);
        h2 = h2.wrapping_add(h1);
        h1 = fmix64(h1);
        h2 = fmix64(h2);
        h1 = h1.wrapping_add(h2);
        h2 = h2.wrapping_add(h1);
        (h1, h2)
    }
}

/// One block step of the chain, with the block's words already mixed.
#[inline(always)]
fn step(h1: &mut u64, h2: &mut u64, m1: u64, m2: u64) {
    *h1 ^= m1;
    *h1 = h1.rotate_left(27).wrapping_add(*h2).wrapping_mul(5).wrapping_add(0x52dc_e729);
    *h2 ^= m2;
    *h2 = h2.rotate_left(31).wrapping_add(*h1).wrapping_mul(5).wrapping_add(0x3849_5ab5);
}

/// Java widens each tail byte as a signed `byte`: a byte >= 0x80 also sets every higher
/// byte of its 64-bit word to 0xff, XOR-combined. This is that difference for the word `w`
/// of zero-extended bytes: 0xff in each byte above an odd number of bytes >= 0x80.
#[inline(always)]
fn sign_fill(w: u64) -> u64 {
    let mut p = ((w >> 7) & 0x0101_0101_0101_0101) << 8; // 1 in the byte above each byte >= 0x80
    p ^= p << 8;
    p ^= p << 16;
    p ^= p << 32; // prefix XOR: parity per byte
    p.wrapping_mul(0xff) // 0/1 per byte → 0x00/0xff (no carries)
}

/// The most seeds [`hash32_seeds`] handles (TsFile filters use at most 8).
pub const MAX_SEEDS: usize = 8;

/// One seed over prepared blocks, mixing each block as it goes.
#[inline(never)]
fn murmur128_blocks(b: Blocks<'_>, seed: u32) -> (u64, u64) {
    let (mut h1, mut h2) = (seed as u64, seed as u64);
    for i in 0..b.body.len() / 16 {
        step(&mut h1, &mut h2, mix_k1(le64(b.body, 16 * i)), mix_k2(le64(b.body, 16 * i + 8)));
    }
    b.finish(h1, h2)
}

/// The 128-bit state `(h1, h2)` after finalisation, with the seed widened to 64 bits
/// for both halves as Java does.
pub fn murmur128(key: &[u8], seed: u32, variant: TailVariant) -> (u64, u64) {
    murmur128_blocks(Blocks::new(key, variant), seed)
}

/// `(int) (h1 + h2)`: the value TsFile's `BloomFilter` turns into a bit index.
pub fn hash32(key: &[u8], seed: u32, variant: TailVariant) -> i32 {
    let (h1, h2) = murmur128(key, seed, variant);
    h1.wrapping_add(h2) as i32
}

/// How many seeds [`lanes`] hashes side by side: TsFile's usual k (5, a 5 % filter); filters
/// with more seeds take a second round.
const LANES: usize = 5;

/// `hash32` of one prepared key under up to `K` seeds at once (`seeds.len() <= K`; lanes past
/// it run on seed 0 and are ignored). Each seed's `h1`/`h2` chain is a serial run of
/// multiplies, so hashing one seed at a time leaves the CPU waiting on each multiply; the
/// chains of different seeds are independent, and stepping them side by side, block by block,
/// lets them overlap. Each block is read and mixed once for all of them (the mixing does not
/// depend on the seed).
#[inline(never)]
fn lanes<const K: usize>(b: &Blocks<'_>, seeds: &[u32]) -> [i32; K] {
    let mut h1 = [0u64; K];
    for (h, &seed) in h1.iter_mut().zip(seeds) {
        *h = seed as u64;
    }
    let mut h2 = h1;
    for i in 0..b.body.len() / 16 {
        let (m1, m2) = (mix_k1(le64(b.body, 16 * i)), mix_k2(le64(b.body, 16 * i + 8)));
        for j in 0..K {
            step(&mut h1[j], &mut h2[j], m1, m2);
        }
    }
    let mut out = [0i32; K];
    for j in 0..K {
        let (a, c) = b.finish(h1[j], h2[j]);
        out[j] = a.wrapping_add(c) as i32;
    }
    out
}

/// Calls `each` with the hash32 values of `key` under `seeds` (at most [`MAX_SEEDS`]), [`LANES`]
/// seeds at a time, in order, while it returns true; returns whether it always did.
#[inline(always)]
fn hash_rounds(key: &[u8], seeds: &[u32], variant: TailVariant, mut each: impl FnMut(&[i32]) -> bool) -> bool {
    let b = Blocks::new(key, variant);
    seeds[..seeds.len().min(MAX_SEEDS)].chunks(LANES).all(|round| each(&lanes::<LANES>(&b, round)[..round.len()]))
}

/// `hash32(key, seeds[j], variant)` for j < `seeds.len()` (at most [`MAX_SEEDS`] are used;
/// the rest of the array is 0). The key is read and its blocks mixed once for all seeds, and
/// the seeds' chains run side by side (five at a time).
#[inline(never)]
pub fn hash32_seeds(key: &[u8], seeds: &[u32], variant: TailVariant) -> [i32; MAX_SEEDS] {
    let mut out = [0i32; MAX_SEEDS];
    let mut at = 0;
    hash_rounds(key, seeds, variant, |hs| {
        out[at..at + hs.len()].copy_from_slice(hs);
        at += hs.len();
        true
    });
    out
}

/// Every bit of `hashes` set in `bits` (missing bytes are zero), tested in order up to the first clear one.
#[inline(always)]
fn all_set(bits: &[u8], bit_count: u32, hashes: &[i32]) -> bool {
    hashes.iter().all(|&h| {
        let bit = bit_index(h, bit_count);
        bits.get((bit / 8) as usize).is_some_and(|b| (b >> (bit % 8)) & 1 != 0)
    })
}

/// Java's `BloomFilter.contains` on a bit vector (`bits`: LSB-first, possibly shorter than
/// `ceil(bit_count / 8)`; missing bytes are zero): the verdict is Java's (every seed's bit set),
/// bits tested in seed order up to the first clear one. The seeds are hashed five at a
/// time, side by side: that costs less than Java's seed-by-seed hashing that stops
/// early (BENCHMARKS.md, "What was built"). `bit_count` must be positive.
#[inline(never)]
pub fn contains(bits: &[u8], bit_count: u32, seeds: &[u32], key: &[u8], variant: TailVariant) -> bool {
    hash_rounds(key, seeds, variant, |hs| all_set(bits, bit_count, hs))
}

/// [`contains`] for many keys laid back to back in `keys` (key i is `keys[ends[i-1]..ends[i]]`,
/// the first starting at 0), one verdict byte each (1 = maybe) appended to `out`. The whole
/// loop lives here so that it is compiled with this crate's opt-level. `Err(i)`: `ends[i]` is
/// before the previous end or past `keys` (nothing is appended for it or after it).
#[inline(never)]
pub fn contains_many(
    bits: &[u8],
    bit_count: u32,
    seeds: &[u32],
    keys: &[u8],
    ends: &[u32],
    variant: TailVariant,
    out: &mut Vec<u8>,
) -> Result<(), usize> {
    out.reserve(ends.len());
    let mut start = 0usize;
    for (i, &end) in ends.iter().enumerate() {
        let key = keys.get(start..end as usize).ok_or(i)?;
        out.push(contains(bits, bit_count, seeds, key, variant) as u8);
        start = end as usize;
    }
    Ok(())
}

/// The per-seed detail of many keys laid back to back (as in [`contains_many`]): for key i,
/// `rows[i * (1 + 2k) ..]` gets the mask of the seeds whose bit is set (bit j for seed j), then
/// `(hash32, bit)` per seed; k = `seeds.len()` (at most [`MAX_SEEDS`]). Stops at the end of
/// `ends` or of `rows`, whichever comes first. `Err(i)`: `ends[i]` is out of order or past `keys`.
#[inline(never)]
pub fn probe_many(
    bits: &[u8],
    bit_count: u32,
    seeds: &[u32],
    keys: &[u8],
    ends: &[u32],
    variant: TailVariant,
    rows: &mut [i32],
) -> Result<(), usize> {
    let k = seeds.len().min(MAX_SEEDS);
    let mut start = 0usize;
    for (i, (&end, row)) in ends.iter().zip(rows.chunks_exact_mut(1 + 2 * k)).enumerate() {
        let key = keys.get(start..end as usize).ok_or(i)?;
        let (mut mask, mut j) = (0i32, 0usize);
        hash_rounds(key, seeds, variant, |hs| {
            for &h in hs {
                let bit = bit_index(h, bit_count);
                let set = bits.get((bit / 8) as usize).is_some_and(|b| (b >> (bit % 8)) & 1 != 0);
                mask |= (set as i32) << j;
                row[1 + 2 * j] = h;
                row[2 + 2 * j] = bit as i32;
                j += 1;
            }
            true
        });
        row[0] = mask;
        start = end as usize;
    }
    Ok(())
}

/// Java's `add` for many keys laid back to back (as in [`contains_many`]): sets each key's bit
/// for every seed in `bits`, which holds at least `ceil(bit_count / 8)` bytes. `Err(i)`:
/// `ends[i]` is out of order or past `keys` (the keys before it are added).
#[inline(never)]
pub fn add_many(
    bits: &mut [u8],
    bit_count: u32,
    seeds: &[u32],
    keys: &[u8],
    ends: &[u32],
    variant: TailVariant,
) -> Result<(), usize> {
    let mut start = 0usize;
    for (i, &end) in ends.iter().enumerate() {
        let key = keys.get(start..end as usize).ok_or(i)?;
        hash_rounds(key, seeds, variant, |hs| {
            for &h in hs {
                let bit = bit_index(h, bit_count);
                if let Some(b) = bits.get_mut((bit / 8) as usize) {
                    *b |= 1 << (bit % 8);
                }
            }
            true
        });
        start = end as usize;
    }
    Ok(())
}

/// `(hash == Integer.MIN_VALUE ? 0 : Math.abs(hash)) % bit_count`.
/// `bit_count` must be positive (the decoder guarantees it).
#[inline(always)]
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
        // docs/bloom-filter.md §8, first table.
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
        // docs/bloom-filter.md §8: a stock MurmurHash3 gives 1978455175 → bit 135 for this path.
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

    /// The reference algorithm, byte by byte (the first implementation).
    fn reference_murmur128(key: &[u8], seed: u32, variant: TailVariant) -> (u64, u64) {
        let (mut h1, mut h2) = (seed as u64, seed as u64);
        let mut blocks = key.chunks_exact(16);
        for block in &mut blocks {
            let k1 = u64::from_le_bytes(block[..8].try_into().unwrap());
            let k2 = u64::from_le_bytes(block[8..].try_into().unwrap());
            h1 ^= mix_k1(k1);
            h1 = h1.rotate_left(27).wrapping_add(h2).wrapping_mul(5).wrapping_add(0x52dc_e729);
            h2 ^= mix_k2(k2);
            h2 = h2.rotate_left(31).wrapping_add(h1).wrapping_mul(5).wrapping_add(0x3849_5ab5);
        }
        let tail = blocks.remainder();
        let widen = |b: u8| match variant {
            TailVariant::Java => b as i8 as i64 as u64,
            TailVariant::ZeroExtended => b as u64,
        };
        let (mut k1, mut k2) = (0u64, 0u64);
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
        (h1.wrapping_add(h2), h2.wrapping_add(h1.wrapping_add(h2)))
    }

    #[test]
    fn matches_reference_every_length_and_tail() {
        // Lengths 0..=300 (up to 18 blocks), bytes covering 0x00-0xff in every tail position.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for len in 0..=300usize {
            for round in 0..4 {
                let key: Vec<u8> = (0..len)
                    .map(|i| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        match round {
                            0 => (x >> 24) as u8,
                            1 => 0x80 | (x >> 24) as u8,
                            2 => (i * 37 + len) as u8,
                            _ => {
                                if i % 3 == 0 {
                                    0xe5
                                } else {
                                    b'a' + (i % 26) as u8
                                }
                            }
                        }
                    })
                    .collect();
                for v in TailVariant::ALL {
                    let all = hash32_seeds(&key, &SEEDS, v);
                    for (j, &seed) in SEEDS.iter().enumerate() {
                        let want = reference_murmur128(&key, seed, v);
                        assert_eq!(murmur128(&key, seed, v), want, "len {len} round {round} {v:?} seed {seed}");
                        assert_eq!(all[j], want.0.wrapping_add(want.1) as i32, "len {len} {v:?} seed {seed}");
                    }
                }
            }
        }
    }

    #[test]
    fn contains_stops_at_the_first_clear_bit_and_agrees_with_the_reference() {
        // A 997-bit vector with every third bit set; the verdict is "every seed's bit set",
        // computed here from the byte-by-byte reference hash.
        let m = 997u32;
        let mut bits = vec![0u8; m.div_ceil(8) as usize];
        for b in (0..m).step_by(3) {
            bits[(b / 8) as usize] |= 1 << (b % 8);
        }
        let mut maybe = 0;
        for i in 0..3000 {
            let key = format!("root.设备{i}.s{}", i % 7).into_bytes();
            for v in TailVariant::ALL {
                for k in 1..=8 {
                    let want = SEEDS[..k].iter().all(|&s| {
                        let (h1, h2) = reference_murmur128(&key, s, v);
                        let bit = bit_index(h1.wrapping_add(h2) as i32, m);
                        bits[(bit / 8) as usize] >> (bit % 8) & 1 == 1
                    });
                    maybe += want as usize;
                    assert_eq!(contains(&bits, m, &SEEDS[..k], &key, v), want, "{i} {v:?} k {k}");
                    // A trimmed vector (trailing bytes missing) reads as zeros there.
                    let short = &bits[..bits.len() / 2];
                    let want_short = SEEDS[..k].iter().all(|&s| {
                        let (h1, h2) = reference_murmur128(&key, s, v);
                        let bit = bit_index(h1.wrapping_add(h2) as i32, m);
                        short.get((bit / 8) as usize).is_some_and(|b| b >> (bit % 8) & 1 == 1)
                    });
                    assert_eq!(contains(short, m, &SEEDS[..k], &key, v), want_short);
                }
            }
        }
        assert!(maybe > 100, "the vector must let some keys through ({maybe})");
    }

    #[test]
    fn contains_many_is_contains_per_key_and_rejects_bad_ends() {
        let m = 1000u32;
        let bits: Vec<u8> = (0..125u32).map(|i| (i * 37 % 251) as u8).collect();
        let keys: Vec<Vec<u8>> = (0..500).map(|i| format!("root.d{i}.温度{}", i % 13).into_bytes()).collect();
        let mut flat = Vec::new();
        let mut ends = Vec::new();
        for k in &keys {
            flat.extend_from_slice(k);
            ends.push(flat.len() as u32);
        }
        for v in TailVariant::ALL {
            let mut out = Vec::new();
            contains_many(&bits, m, &SEEDS[..5], &flat, &ends, v, &mut out).unwrap();
            let want: Vec<u8> = keys.iter().map(|k| contains(&bits, m, &SEEDS[..5], k, v) as u8).collect();
            assert_eq!(out, want);
            assert!(want.contains(&0) && want.contains(&1));
        }
        let mut out = Vec::new();
        assert_eq!(contains_many(&bits, m, &SEEDS[..5], &flat, &[3, 2], TailVariant::Java, &mut out), Err(1));
        assert_eq!(out.len(), 1);
        // add_many sets exactly the bits of every seed of every key.
        let mut added = vec![0u8; 125];
        add_many(&mut added, m, &SEEDS[..5], &flat, &ends, TailVariant::Java).unwrap();
        let mut want = vec![0u8; 125];
        for k in &keys {
            for &seed in &SEEDS[..5] {
                let (h1, h2) = reference_murmur128(k, seed, TailVariant::Java);
                let bit = bit_index(h1.wrapping_add(h2) as i32, m);
                want[(bit / 8) as usize] |= 1 << (bit % 8);
            }
        }
        assert_eq!(added, want);
        // probe_many's rows: the mask and (hash32, bit) of every seed, from the reference hash.
        for k in [1usize, 5, 8] {
            let stride = 1 + 2 * k;
            let mut rows = vec![0i32; keys.len() * stride];
            probe_many(&bits, m, &SEEDS[..k], &flat, &ends, TailVariant::Java, &mut rows).unwrap();
            for (key, row) in keys.iter().zip(rows.chunks_exact(stride)) {
                let mut mask = 0;
                for (j, &seed) in SEEDS[..k].iter().enumerate() {
                    let (h1, h2) = reference_murmur128(key, seed, TailVariant::Java);
                    let h = h1.wrapping_add(h2) as i32;
                    let bit = bit_index(h, m);
                    mask |= ((bits[(bit / 8) as usize] >> (bit % 8) & 1) as i32) << j;
                    assert_eq!((row[1 + 2 * j], row[2 + 2 * j]), (h, bit as i32));
                }
                assert_eq!(row[0], mask);
            }
        }
        let past = flat.len() as u32 + 1;
        assert_eq!(contains_many(&bits, m, &SEEDS[..5], &flat, &[past], TailVariant::Java, &mut Vec::new()), Err(0));
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

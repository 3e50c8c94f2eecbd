//! The serialized `BloomFilter` of TsFileMetadata (docs/bloom-filter.md §2, §5–7):
//!
//! ```text
//! UVarInt byte_length
//! byte    bits[byte_length]        LSB-first, trailing zero bytes trimmed
//! UVarInt bit_count                present when byte_length > 0
//! UVarInt hash_function_count      present when byte_length > 0
//! ```
//!
//! A filter of the experimental cheap hash ([`FilterHash::Cheap`]) has the marker 2^31−1 (or
//! 2^31) in the place of k, and k after it.

use crate::bytes::{write_uvarint, Cursor};
use crate::charset::Charset;
use crate::error::{Argument, Error, ErrorKind, Result};
use crate::hash::{bit_index, hash32_seeds, TailVariant, SEEDS};
// The hash a filter's bits are set by belongs with the hashes; named here too, where it is read.
pub use crate::hash::FilterHash;

/// Java `BloomFilter` limits (TSFileConfig / BloomFilter.java).
pub const MIN_ERROR_RATE: f64 = 0.01;
pub const MAX_ERROR_RATE: f64 = 0.1;
pub const DEFAULT_ERROR_RATE: f64 = 0.05;
pub const MINIMAL_SIZE: u32 = 256;
pub const MAXIMAL_HASH_FUNCTION_SIZE: u32 = 8;

/// [`BloomFilter::add_many`] works on the whole vector up to this size (16 MiB, 134M bits).
const ADD_MANY_MAX_BYTES: usize = 16 << 20;

/// The marker Apache TsFile's experimental cheap-hash filters write before k: Java's
/// `Integer.MAX_VALUE` (docs/writers.md §7).
pub const CHEAP_HASH_MARKER: u32 = i32::MAX as u32;
/// The marker an early reader of that mode tested instead: `Integer.MIN_VALUE` as an unsigned
/// varint. No writer we know writes it; a filter carrying it is read as the reader meant it.
pub const CHEAP_HASH_MARKER_MIN: u32 = 1 << 31;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BloomFilter {
    /// The stored bytes; may be shorter than `ceil(bit_count / 8)` (missing bytes are zero).
    bits: Vec<u8>,
    bit_count: u32,
    hash_function_count: u8,
    hash: FilterHash,
}

/// Where the fields of a decoded filter sit in the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FilterLayout {
    /// Offset of the `byte_length` varint.
    pub offset: u64,
    /// Offset of `bits[0]`.
    pub bits_offset: u64,
    /// `byte_length` as stored.
    pub byte_length: u32,
    /// Total encoded size in bytes.
    pub encoded_len: u64,
    /// `bit_count` and `hash_function_count` as stored, also when the vector is empty
    /// (v3 and the legacy C++ v4 form always carry them); `None` when not stored.
    pub stored_geometry: Option<(u32, u32)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SeedProbe {
    pub seed: u32,
    pub hash32: i32,
    pub bit: u32,
    pub set: bool,
}

impl SeedProbe {
    /// A place for a probe not made yet.
    pub const NONE: SeedProbe = SeedProbe { seed: 0, hash32: 0, bit: 0, set: false };
}

closed_set! {
    pub enum Verdict {
        /// At least one probed bit is 0: the path was never added (under this hash variant and charset).
        Absent => "absent",
        /// Every probed bit is 1.
        Maybe => "maybe",
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    pub verdict: Verdict,
    pub probes: Vec<SeedProbe>,
}

/// A probe as the API shows it: the verdict, the hash used and each seed's bit.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "ProbeResult"))]
pub struct ProbeInfo {
    pub verdict: Verdict,
    #[serde(serialize_with = "crate::hash::serialize_variant")]
    #[cfg_attr(test, ts(as = "crate::ts::Variant"))]
    pub variant: TailVariant,
    /// The charset the key bytes were made in, or None for bytes hashed as given (serialized
    /// as the charset's name, or `"bytes"`).
    #[serde(serialize_with = "serialize_key_charset")]
    #[cfg_attr(test, ts(type = "JvmCharset | \"bytes\""))]
    pub charset: Option<Charset>,
    pub probes: Vec<SeedProbe>,
}

fn serialize_key_charset<S: serde::Serializer>(c: &Option<Charset>, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(c.map_or("bytes", Charset::as_str))
}

impl Probe {
    /// The probe with the hash it was made with: `charset` is the one the key bytes were
    /// encoded in, None for bytes hashed as given.
    pub fn info(self, variant: TailVariant, charset: Option<Charset>) -> ProbeInfo {
        ProbeInfo { verdict: self.verdict, variant, charset, probes: self.probes }
    }
}

/// Why a probe of a filter built here says what it says (the page's synthetic filter): a filter
/// with no file has no index to list the path, and only the hash it was `built` with, whose
/// `verdict` this is, answers; a probe `shown` under another hash shows bits that say nothing.
pub fn built_filter_reason(built: (TailVariant, Charset), verdict: Verdict, shown: (TailVariant, Charset)) -> String {
    let name = |(v, cs): (TailVariant, Charset)| format!("{} / {}", v.as_str(), cs.as_str());
    let bits = match verdict {
        Verdict::Maybe => "every probed bit is set",
        Verdict::Absent => "a probed bit is clear",
    };
    let mut s = format!("{bits} under the {} hash, which this filter was built with here", name(built));
    if shown != built {
        s += &format!("; the bits shown are the {} hash\u{2019}s, which say nothing about this filter", name(shown));
    }
    s + "; it has no index to look the path up in"
}

#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "BloomStats"))]
pub struct Stats {
    pub bit_count: u32,
    pub hash_function_count: u32,
    pub set_bits: u64,
    /// set_bits / bit_count.
    pub fill_ratio: f64,
    /// `-(m/k) ln(1 - X/m)` (Swamidass & Baldi); infinite when every bit is set.
    pub estimated_items: f64,
    /// `fill^k`: false-positive probability implied by the actual fill.
    pub fpp_from_fill: f64,
    /// `(1 - e^(-kn/m))^k` with n = `estimated_items` unless the caller gives one.
    pub fpp_formula: f64,
    /// The n used for `fpp_formula` and `optimal_k`.
    pub items: f64,
    /// `(m/n) ln 2`.
    pub optimal_k: f64,
}

impl BloomFilter {
    /// An empty filter with explicit geometry, held to a decoded one's bounds (a bad argument).
    pub fn new(bit_count: u32, hash_function_count: u32) -> Result<BloomFilter> {
        check_geometry(bit_count, hash_function_count)?;
        Ok(BloomFilter {
            bits: Vec::new(),
            bit_count,
            hash_function_count: hash_function_count as u8,
            hash: FilterHash::Murmur128,
        })
    }

    /// Java `BloomFilter.getEmptyBloomFilter(errorRate, numOfString)`, bit for bit:
    /// `m = max(256, (int)(-n·ln p / ln2 / ln2) + 1)`, `k = min(8, (int)(-ln p / ln2) + 1)`,
    /// p clamped to [0.01, 0.1]. Java's int arithmetic is reproduced (saturating cast,
    /// wrapping `+ 1`), so absurd n land where Java lands.
    pub fn with_capacity(n: i32, error_rate: f64) -> BloomFilter {
        let (m, k) = java_sizing(n, error_rate);
        BloomFilter { bits: Vec::new(), bit_count: m, hash_function_count: k as u8, hash: FilterHash::Murmur128 }
    }

    /// Decodes the structure at the start of `input`. `base` is the absolute offset of
    /// `input[0]`, used in errors. Returns `None` for the "no filter" encoding (byte_length 0).
    pub fn decode(input: &[u8], base: u64) -> Result<(Option<BloomFilter>, FilterLayout)> {
        Self::decode_from(&mut Cursor::with_base(input, base), false)
    }

    /// Decodes a whole serialized filter: None for the "no filter" encoding; bytes after the
    /// structure are an error (`trailing_bytes`, at the first of them).
    pub fn decode_whole(bytes: &[u8]) -> Result<Option<BloomFilter>> {
        let (filter, layout) = Self::decode(bytes, 0)?;
        if layout.encoded_len as usize != bytes.len() {
            return Err(Error::new(
                ErrorKind::TrailingBytes,
                layout.encoded_len,
                format!("{} bytes follow the end of the filter structure", bytes.len() as u64 - layout.encoded_len),
            ));
        }
        Ok(filter)
    }

    /// Decodes from a cursor. `always_geometry`: bit_count and k follow even an empty
    /// vector (TsFile v3 and the legacy C++ v4 encoding, docs/tsfile-format.md §4).
    pub fn decode_from(c: &mut Cursor<'_>, always_geometry: bool) -> Result<(Option<BloomFilter>, FilterLayout)> {
        let offset = c.offset();
        let byte_length = c.uvarint("bloom filter byte_length")?;
        if byte_length > i32::MAX as u32 {
            return Err(Error::new(
                ErrorKind::BadCount,
                offset,
                format!("bloom filter byte_length {byte_length} exceeds 2^31-1"),
            ));
        }
        let bits_offset = c.offset();
        if byte_length as usize > c.remaining() {
            return Err(Error::new(
                ErrorKind::Truncated,
                bits_offset,
                format!(
                    "bloom filter bit vector of {byte_length} bytes runs past the end of the input ({} bytes remain)",
                    c.remaining()
                ),
            ));
        }
        let bits = c.take(byte_length as u64, "bloom filter bits")?;
        let mut layout =
            FilterLayout { offset, bits_offset, byte_length, encoded_len: c.offset() - offset, stored_geometry: None };
        if byte_length == 0 && !always_geometry {
            return Ok((None, layout));
        }
        let m_offset = c.offset();
        let bit_count = c.uvarint("bloom filter bit_count")?;
        let mut k_offset = c.offset();
        let mut k = c.uvarint("bloom filter hash_function_count")?;
        let mut hash = FilterHash::Murmur128;
        if byte_length > 0 && (k == CHEAP_HASH_MARKER || k == CHEAP_HASH_MARKER_MIN) {
            // The cheap hash's marker, then k (docs/writers.md §7).
            hash = FilterHash::Cheap;
            k_offset = c.offset();
            k = c.uvarint("bloom filter hash_function_count")?;
        }
        layout.encoded_len = c.offset() - offset;
        layout.stored_geometry = Some((bit_count, k));
        if byte_length == 0 {
            // Empty v3/legacy filter: the geometry is informational only.
            return Ok((None, layout));
        }
        if bit_count == 0 || bit_count > i32::MAX as u32 {
            return Err(Error::new(
                ErrorKind::BloomBadBitCount,
                m_offset,
                format!("the filter's bit count is {bit_count}; a filter has 1 to 2,147,483,647 bits"),
            ));
        }
        if k == 0 || k > MAXIMAL_HASH_FUNCTION_SIZE {
            return Err(Error::new(
                ErrorKind::BloomBadHashFunctionCount,
                k_offset,
                format!("the filter's hash function count is {k}; a filter has 1 to 8"),
            ));
        }
        let max_bytes = bit_count.div_ceil(8);
        if byte_length > max_bytes {
            return Err(Error::new(
                ErrorKind::BloomOverflow,
                bits_offset + max_bytes as u64,
                format!(
                    "bloom filter has {byte_length} bytes of bits but bit_count {bit_count} needs at most {max_bytes}"
                ),
            ));
        }
        if byte_length == max_bytes && bit_count % 8 != 0 {
            let last = bits[byte_length as usize - 1];
            let stray = last >> (bit_count % 8);
            if stray != 0 {
                let first = bit_count + stray.trailing_zeros();
                return Err(Error::new(
                    ErrorKind::BloomStrayBits,
                    bits_offset + byte_length as u64 - 1,
                    format!("bit {first} is set but bit_count is {bit_count}"),
                ));
            }
        }
        let filter = BloomFilter { bits: bits.to_vec(), bit_count, hash_function_count: k as u8, hash };
        Ok((Some(filter), layout))
    }

    /// The v4 encoding, byte-identical to Java's `serializeBloomFilter`: trimmed bytes,
    /// and just `00` when no bit is set. A cheap-hash filter is written as its writer writes it,
    /// with the marker 2^31−1 before k (whichever marker it was read with).
    pub fn encode(&self) -> Vec<u8> {
        let trimmed = self.trimmed_bits();
        let mut out = Vec::with_capacity(trimmed.len() + 17);
        write_uvarint(&mut out, trimmed.len() as u32);
        out.extend_from_slice(trimmed);
        if !trimmed.is_empty() {
            write_uvarint(&mut out, self.bit_count);
            if self.hash == FilterHash::Cheap {
                write_uvarint(&mut out, CHEAP_HASH_MARKER);
            }
            write_uvarint(&mut out, self.hash_function_count as u32);
        }
        out
    }

    /// The hash that set the bits: Murmur128, or the cheap hash this reader does not evaluate.
    pub fn hash(&self) -> FilterHash {
        self.hash
    }

    /// The filter, when its bits were set by Murmur128, which this crate's hashing evaluates;
    /// else an `unsupported_hash` error. The probing and adding methods evaluate Murmur128
    /// whatever the filter's hash: callers that take a filter from a file ask this first.
    pub fn murmur(&self) -> Result<&BloomFilter> {
        match self.hash {
            FilterHash::Murmur128 => Ok(self),
            FilterHash::Cheap => Err(Error::without_offset(
                ErrorKind::UnsupportedHash,
                "this filter uses TsFile's experimental cheap hash, which this reader does not evaluate: it \
                 cannot be probed or added to",
            )),
        }
    }

    /// `BitSet.toByteArray()`: the stored bytes without trailing zeros.
    pub fn trimmed_bits(&self) -> &[u8] {
        let end = self.bits.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
        &self.bits[..end]
    }

    /// The logical vector, `ceil(bit_count / 8)` bytes, LSB-first.
    pub fn logical_bits(&self) -> Vec<u8> {
        let mut v = vec![0u8; self.bit_count.div_ceil(8) as usize];
        v[..self.bits.len()].copy_from_slice(&self.bits);
        v
    }

    pub fn bit_count(&self) -> u32 {
        self.bit_count
    }

    pub fn hash_function_count(&self) -> u32 {
        self.hash_function_count as u32
    }

    pub fn seeds(&self) -> &'static [u32] {
        &SEEDS[..self.hash_function_count as usize]
    }

    /// Length of the encoded bit vector (`byte_length` as a writer would store it now).
    pub fn byte_length(&self) -> u32 {
        self.trimmed_bits().len() as u32
    }

    #[inline(always)]
    pub fn get(&self, bit: u32) -> bool {
        self.bits.get((bit / 8) as usize).is_some_and(|b| b & (1 << (bit % 8)) != 0)
    }

    fn set(&mut self, bit: u32) {
        let byte = (bit / 8) as usize;
        if byte >= self.bits.len() {
            // Grow only to what is needed: bits past this are zero anyway.
            self.bits.resize(byte + 1, 0);
        }
        self.bits[byte] |= 1 << (bit % 8);
    }

    pub fn add(&mut self, key: &[u8], variant: TailVariant) {
        // The key is read and mixed once for all seeds (hash::hash32_seeds).
        let hs = hash32_seeds(key, self.seeds(), variant);
        for &h in &hs[..self.hash_function_count as usize] {
            self.set(bit_index(h, self.bit_count));
        }
    }

    pub fn probe(&self, key: &[u8], variant: TailVariant) -> Probe {
        let mut probes = vec![SeedProbe::NONE; self.hash_function_count as usize];
        let verdict = self.probe_into(key, variant, &mut probes);
        Probe { verdict, probes }
    }

    /// The probes of seeds 0..k into `out`, and the verdict: [`probe`](Self::probe) without
    /// allocating (a single probe's record is written so: allocating a [`Probe`] was a quarter
    /// of its time), one body for every caller (the wasm module's size). `out` is k long; a
    /// shorter one gets the first seeds only, and the verdict is theirs.
    pub fn probe_into(&self, key: &[u8], variant: TailVariant, out: &mut [SeedProbe]) -> Verdict {
        let seeds = self.seeds();
        let hs = hash32_seeds(key, seeds, variant);
        let mut verdict = Verdict::Maybe;
        for ((o, &seed), &h) in out.iter_mut().zip(seeds).zip(&hs) {
            let bit = bit_index(h, self.bit_count);
            let set = self.get(bit);
            if !set {
                verdict = Verdict::Absent;
            }
            *o = SeedProbe { seed, hash32: h, bit, set };
        }
        verdict
    }

    /// The verdict alone, as Java's `contains`: seed by seed, stopping at the first clear bit
    /// (the key is still read and its blocks mixed only once).
    pub fn might_contain(&self, key: &[u8], variant: TailVariant) -> bool {
        crate::hash::contains(&self.bits, self.bit_count, self.seeds(), key, variant)
    }

    /// [`might_contain`](Self::might_contain) for keys back to back in `keys` (key i ends at
    /// `ends[i]`), one byte each (1 = maybe) appended to `out`; `Err(i)`: `ends[i]` is out of order
    /// or past `keys`.
    pub fn might_contain_many(
        &self,
        keys: &[u8],
        ends: &[u32],
        variant: TailVariant,
        out: &mut Vec<u8>,
    ) -> std::result::Result<(), usize> {
        crate::hash::contains_many(&self.bits, self.bit_count, self.seeds(), keys, ends, variant, out)
    }

    /// The per-seed detail of [`probe`](Self::probe) for keys back to back in `keys` (key i ends
    /// at `ends[i]`): per key a row of `1 + 2k` numbers in `rows`, the mask of the seeds whose bit
    /// is set, then `(hash32, bit)` per seed. `Err(i)`: `ends[i]` is out of order or past `keys`.
    pub fn probe_many(
        &self,
        keys: &[u8],
        ends: &[u32],
        variant: TailVariant,
        rows: &mut [i32],
    ) -> std::result::Result<(), usize> {
        crate::hash::probe_many(&self.bits, self.bit_count, self.seeds(), keys, ends, variant, rows)
    }

    /// [`add`](Self::add) for keys back to back in `keys` (key i ends at `ends[i]`); `Err(i)`:
    /// `ends[i]` is out of order or past `keys` (the keys before it are added). The stored
    /// vector ends up exactly as long as `add` one by one leaves it.
    pub fn add_many(&mut self, keys: &[u8], ends: &[u32], variant: TailVariant) -> std::result::Result<(), usize> {
        let full = self.bit_count.div_ceil(8) as usize;
        if full > ADD_MANY_MAX_BYTES && self.bits.len() < full {
            // A huge geometry with few bits stored: grow only as far as the keys need.
            for key in crate::staged::keys(keys, ends) {
                self.add(key?, variant);
            }
            return Ok(());
        }
        let before = self.bits.len();
        self.bits.resize(full, 0);
        let seeds = &SEEDS[..self.hash_function_count as usize];
        let r = crate::hash::add_many(&mut self.bits, self.bit_count, seeds, keys, ends, variant);
        let used = self.bits.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1).max(before);
        self.bits.truncate(used);
        r
    }

    pub fn set_bits(&self) -> u64 {
        // A word at a time: one `count_ones` per 8 bytes (`i64.popcnt` in wasm), not per byte.
        let words = self.bits.chunks_exact(8);
        let rest: u64 = words.remainder().iter().map(|b| b.count_ones() as u64).sum();
        words.map(|w| u64::from_le_bytes(crate::bytes::array(w)).count_ones() as u64).sum::<u64>() + rest
    }

    /// Statistics; `items` overrides the n used for the formula FPP and optimal k
    /// (default: the n estimated from the fill).
    pub fn stats(&self, items: Option<f64>) -> Stats {
        let m = self.bit_count as f64;
        let k = self.hash_function_count as f64;
        let x = self.set_bits();
        let fill = x as f64 / m;
        let estimated = if x as f64 >= m { f64::INFINITY } else { -(m / k) * (1.0 - fill).ln() };
        let n = items.unwrap_or(estimated);
        Stats {
            bit_count: self.bit_count,
            hash_function_count: self.hash_function_count as u32,
            set_bits: x,
            fill_ratio: fill,
            estimated_items: estimated,
            fpp_from_fill: fpp_from_fill(fill, self.hash_function_count as u32),
            fpp_formula: false_positive_probability(n, self.bit_count, self.hash_function_count as u32),
            items: n,
            optimal_k: optimal_k(n, self.bit_count),
        }
    }
}

/// `fill^k`: the false-positive probability a filter whose bits are set in the ratio `fill`
/// gives a key never added (each of its k bits is set by chance).
pub fn fpp_from_fill(fill: f64, k: u32) -> f64 {
    // powi, not powf: k is a small integer, and libm's pow is 2 KB of wasm.
    fill.powi(k.min(i32::MAX as u32) as i32)
}

/// `(1 - e^(-kn/m))^k`.
pub fn false_positive_probability(n: f64, bit_count: u32, k: u32) -> f64 {
    (1.0 - (-(k as f64) * n / bit_count as f64).exp()).powi(k.min(i32::MAX as u32) as i32)
}

/// `(m/n) ln 2`.
pub fn optimal_k(n: f64, bit_count: u32) -> f64 {
    bit_count as f64 / n * std::f64::consts::LN_2
}

/// A capacity from a caller's number (a JS number is a double): Java's `int numOfString` takes
/// integers in `0..=i32::MAX`; anything else is a bad argument rather than a silent cast.
pub fn capacity(n: f64) -> Result<i32> {
    if !(n.fract() == 0.0 && (0.0..=i32::MAX as f64).contains(&n)) {
        return Err(Error::bad_argument(
            Argument::Capacity,
            "the capacity must be a whole number from 0 to 2,147,483,647",
        ));
    }
    Ok(n as i32)
}

/// [`bit_index`] for a caller's bit count, which must be positive (a decoded filter's always is).
pub fn bit_index_of(hash32: i32, bit_count: u32) -> Result<u32> {
    if bit_count == 0 {
        return Err(Error::bad_argument(Argument::BitCount, "the bit count must be positive, not 0"));
    }
    Ok(bit_index(hash32, bit_count))
}

/// Java `getEmptyBloomFilter` sizing → `(bit_count, hash_function_count)`.
pub fn java_sizing(n: i32, error_rate: f64) -> (u32, u32) {
    let e = if error_rate.is_nan() {
        // Java: NaN < MIN is false, NaN > MAX is false → NaN stays, and (int) NaN is 0.
        f64::NAN
    } else {
        error_rate.clamp(MIN_ERROR_RATE, MAX_ERROR_RATE)
    };
    let ln2 = 2f64.ln();
    // Same operation order as Java: ((-n * ln e) / ln2) / ln2, with int negation first.
    let size = ((n.wrapping_neg() as f64 * e.ln() / ln2 / ln2) as i32).wrapping_add(1);
    let k = ((-e.ln() / ln2) as i32).wrapping_add(1);
    let m = size.max(MINIMAL_SIZE as i32) as u32;
    // k is in 4..=7 for every clamped rate; a NaN rate gives Java's k = 1.
    let k = k.clamp(1, MAXIMAL_HASH_FUNCTION_SIZE as i32) as u32;
    (m, k)
}

fn check_geometry(bit_count: u32, k: u32) -> Result<()> {
    if bit_count == 0 || bit_count > i32::MAX as u32 {
        return Err(Error::bad_argument(
            Argument::BitCount,
            format!("the bit count must be between 1 and 2,147,483,647, not {bit_count}"),
        ));
    }
    if k == 0 || k > MAXIMAL_HASH_FUNCTION_SIZE {
        return Err(Error::bad_argument(
            Argument::HashFunctionCount,
            format!("the hash function count must be between 1 and 8, not {k}"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_built_filter_says_which_hash_answers_and_that_it_has_no_index() {
        let java = (TailVariant::Java, Charset::Utf8);
        let zero = (TailVariant::ZeroExtended, Charset::Utf8);
        let same = built_filter_reason(java, Verdict::Absent, java);
        assert_eq!(same, "a probed bit is clear under the java / UTF-8 hash, which this filter was built with here; it has no index to look the path up in");
        let forced = built_filter_reason(java, Verdict::Maybe, zero);
        assert!(forced.starts_with("every probed bit is set under the java / UTF-8 hash, which this filter was built with here; the bits shown are the zero-extended / UTF-8 hash\u{2019}s, which say nothing about this filter"), "{forced}");
    }

    #[test]
    fn caller_numbers_are_checked_not_cast() {
        assert_eq!(capacity(0.0).unwrap(), 0);
        assert_eq!(capacity(2147483647.0).unwrap(), i32::MAX);
        for bad in [-1.0, 0.5, 2147483648.0, f64::NAN, f64::INFINITY] {
            assert_eq!(capacity(bad).unwrap_err().kind, ErrorKind::InvalidArgument, "{bad}");
        }
        assert_eq!(bit_index_of(-7, 5).unwrap(), 2); // |-7| % 5
        assert_eq!(bit_index_of(i32::MIN, 5).unwrap(), 0); // Java: MIN_VALUE → 0
        assert_eq!(bit_index_of(1, 0).unwrap_err().kind, ErrorKind::InvalidArgument);
    }

    #[test]
    fn sizing_matches_documented_values() {
        // docs/bloom-filter.md §8 (measured on real files, e = 0.05).
        assert_eq!(java_sizing(10000, 0.05), (62353, 5));
        assert_eq!(java_sizing(10399, 0.05), (64841, 5));
        assert_eq!(java_sizing(262, 0.05), (1634, 5));
        assert_eq!(java_sizing(220, 0.05), (1372, 5));
        assert_eq!(java_sizing(1, 0.05), (256, 5));
        assert_eq!(java_sizing(1, 0.1).1, 4);
        assert_eq!(java_sizing(1, 0.01).1, 7);
        assert_eq!(java_sizing(1, 0.5).1, 4); // clamped to 0.1
        assert_eq!(java_sizing(1, 0.0001).1, 7); // clamped to 0.01
    }

    #[test]
    fn decode_rejects_bad_geometry() {
        let cases: [(&[u8], ErrorKind); 6] = [
            (&[0x01, 0x01, 0x00, 0x05], ErrorKind::BloomBadBitCount),
            (&[0x01, 0x01, 0x80, 0x02, 0x00], ErrorKind::BloomBadHashFunctionCount),
            (&[0x01, 0x01, 0x80, 0x02, 0x09], ErrorKind::BloomBadHashFunctionCount),
            (&[0x02, 0x01, 0x01, 0x08, 0x05], ErrorKind::BloomOverflow),
            (&[0x01, 0x80, 0x07, 0x05], ErrorKind::BloomStrayBits),
            (&[0x05, 0x01], ErrorKind::Truncated),
        ];
        for (bytes, kind) in cases {
            let err = BloomFilter::decode(bytes, 0).unwrap_err();
            assert_eq!(err.kind, kind, "{bytes:?}: {err}");
        }
    }

    #[test]
    fn empty_encodings() {
        let (f, layout) = BloomFilter::decode(&[0x00], 0).unwrap();
        assert!(f.is_none());
        assert_eq!(layout.encoded_len, 1);
        // v3 / legacy C++: 00 80 02 05
        let mut c = Cursor::new(&[0x00, 0x80, 0x02, 0x05]);
        let (f, layout) = BloomFilter::decode_from(&mut c, true).unwrap();
        assert!(f.is_none());
        assert_eq!(layout.encoded_len, 4);
    }

    #[test]
    fn add_many_and_might_contain_many_equal_one_by_one() {
        let keys: Vec<Vec<u8>> =
            (0..3000).map(|i| format!("root.sg{}.设备{i}.s{}", i % 9, i % 5).into_bytes()).collect();
        let (mut flat, mut ends) = (Vec::new(), Vec::new());
        for k in &keys {
            flat.extend_from_slice(k);
            ends.push(flat.len() as u32);
        }
        for v in TailVariant::ALL {
            for (n, e) in [(3000, 0.05), (3, 0.1), (100_000, 0.01)] {
                let mut one = BloomFilter::with_capacity(n, e);
                let mut many = one.clone();
                for k in &keys[..1000] {
                    one.add(k, v);
                }
                many.add_many(&flat, &ends[..1000], v).unwrap();
                assert_eq!(many, one, "{v:?} n {n}"); // the same stored vector, length included
                let mut out = Vec::new();
                many.might_contain_many(&flat, &ends, v, &mut out).unwrap();
                let want: Vec<u8> = keys.iter().map(|k| one.might_contain(k, v) as u8).collect();
                assert_eq!(out, want);
                assert!(out[..1000].iter().all(|&m| m == 1));
            }
        }
        let mut f = BloomFilter::with_capacity(10, 0.05);
        assert_eq!(f.add_many(b"abc", &[2, 1], TailVariant::Java), Err(1));
        assert_eq!(f, {
            let mut g = BloomFilter::with_capacity(10, 0.05);
            g.add(b"ab", TailVariant::Java);
            g
        });
    }

    #[test]
    fn add_probe_encode_round_trip() {
        let mut f = BloomFilter::with_capacity(3, 0.05);
        for p in ["root.sg1.d1.s1", "root.sg1.d1.s2", "root.sg.d1.温度"] {
            f.add(p.as_bytes(), TailVariant::Java);
        }
        let bytes = f.encode();
        let (g, layout) = BloomFilter::decode(&bytes, 0).unwrap();
        let g = g.unwrap();
        assert_eq!(layout.encoded_len as usize, bytes.len());
        assert_eq!(g.encode(), bytes);
        for p in ["root.sg1.d1.s1", "root.sg1.d1.s2", "root.sg.d1.温度"] {
            assert_eq!(g.probe(p.as_bytes(), TailVariant::Java).verdict, Verdict::Maybe);
        }
        assert_eq!(g.set_bits(), f.set_bits());
    }
}

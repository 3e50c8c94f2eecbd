//! `BloomFilterPolicy` (util/bloom.cc, docs/leveldb-filter.md §2): k from bits_per_key,
//! `CreateFilter` and `KeyMayMatch`. A filter is its bit bytes followed by one byte of k;
//! the bit count is implied by the length.

use super::hash::bloom_hash;
use crate::filter::Verdict;

/// Name of the builtin policy since LevelDB 1.18 (unsigned tail bytes).
pub const POLICY_NAME: &str = "leveldb.BuiltinBloomFilter2";
/// Name before 1.18, whose hash sign-extended tail bytes >= 0x80 (x86 `char`).
pub const LEGACY_POLICY_NAME: &str = "leveldb.BuiltinBloomFilter";
/// Largest k the reader probes; bigger values are reserved and read as "may match".
pub const MAX_K: u32 = 30;

/// k for a bits_per_key, as the C++ constructor computes it: `(size_t)(bits_per_key * 0.69)`
/// (truncating, to save probes), clamped to [1, 30].
pub fn k_for_bits_per_key(bits_per_key: u32) -> u32 {
    ((bits_per_key as f64 * 0.69) as u64).clamp(1, MAX_K as u64) as u32
}

/// The filter size CreateFilter gives `n` keys: `n × bits_per_key` bits, at least 64, rounded
/// up to whole bytes (the k byte that follows is not counted).
pub fn filter_bits(n: u64, bits_per_key: u32) -> u64 {
    n.saturating_mul(bits_per_key as u64).max(64).div_ceil(8) * 8
}

/// The step of LevelDB's double hashing: the key's `BloomHash` rotated right by 17 bits (§2).
pub fn delta(h: u32) -> u32 {
    h.rotate_right(17)
}

/// The hashes of a key's k probes, in probe order: `h + j·δ` (mod 2³²) for j in 0..k, from its
/// `BloomHash` `h` ([`delta`]); a probe's bit is its hash mod the filter's bit count. Every
/// LevelDB filter route (create, probe, and whatever shows them) takes its positions from here.
pub fn probe_hashes(h: u32, k: u32) -> impl Iterator<Item = u32> {
    let delta = delta(h);
    (0..k).scan(h, move |h, _| {
        let now = *h;
        *h = h.wrapping_add(delta);
        Some(now)
    })
}

/// `NewBloomFilterPolicy(bits_per_key)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BloomFilterPolicy {
    bits_per_key: u32,
    k: u32,
}

impl BloomFilterPolicy {
    pub fn new(bits_per_key: u32) -> BloomFilterPolicy {
        BloomFilterPolicy { bits_per_key, k: k_for_bits_per_key(bits_per_key) }
    }

    pub fn name(&self) -> &'static str {
        POLICY_NAME
    }

    pub fn bits_per_key(&self) -> u32 {
        self.bits_per_key
    }

    pub fn k(&self) -> u32 {
        self.k
    }

    /// `CreateFilter`: one filter for `keys` (duplicates count): `max(64, n * bits_per_key)` bits
    /// rounded up to bytes, then one byte of k.
    pub fn create_filter<K: AsRef<[u8]>>(&self, keys: &[K]) -> Vec<u8> {
        let bits = filter_bits(keys.len() as u64, self.bits_per_key);
        let mut filter = vec![0; bits as usize / 8];
        for key in keys {
            for h in probe_hashes(bloom_hash(key.as_ref()), self.k) {
                let bitpos = (h as u64 % bits) as usize;
                filter[bitpos / 8] |= 1 << (bitpos % 8);
            }
        }
        filter.push(self.k as u8);
        filter
    }
}

/// One probed bit of a LevelDB filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "LevelDbProbeBit"))]
pub struct ProbeBit {
    pub bit: u64,
    pub set: bool,
}

closed_set! {
    /// Why a probe answered the way it did: the filter's own rules (`Bits`, `EmptyFilter`,
    /// `ReservedK`) and the table's (the rest, decided before any filter is read).
    pub enum ProbeReason as LevelDbProbeReason {
        /// The probed bits decided (absent at the first clear bit; maybe when all are set).
        Bits => "bits",
        /// The filter is shorter than 2 bytes (an empty filter): LevelDB answers "no match".
        EmptyFilter => "empty_filter",
        /// The stored k is above 30: reserved for future encodings, LevelDB answers "may match".
        ReservedK => "reserved_k",
        /// The key sorts after the table's last index separator: LevelDB finds no data block.
        PastLastBlock => "past_last_block",
        /// The table has no filter block (no policy, or one this reader does not know).
        NoFilter => "no_filter",
        /// The data block's filter index is past the filter block's offset array: LevelDB treats
        /// that as an error and answers "may match".
        FilterMissing => "filter_missing",
    }
}

impl ProbeReason {
    /// The verdict for this reason in words: what LevelDB does and why (the page shows it).
    pub fn sentence(self, verdict: Verdict) -> &'static str {
        match (self, verdict) {
            (ProbeReason::Bits, Verdict::Absent) => {
                "definitely absent: a probed bit is clear, so LevelDB skips reading the data block"
            }
            (ProbeReason::Bits, Verdict::Maybe) => {
                "maybe present: every probed bit is set, so LevelDB reads the data block"
            }
            (ProbeReason::EmptyFilter, _) => "definitely absent: the block’s filter is empty",
            (ProbeReason::ReservedK, _) => "maybe present: k > 30 is reserved, so LevelDB treats it as a match",
            (ProbeReason::PastLastBlock, _) => {
                "definitely absent: the key sorts after the table’s last key, so no data block is read"
            }
            (ProbeReason::NoFilter, _) => {
                "maybe present: the table has no filter, so LevelDB always reads the data block"
            }
            (ProbeReason::FilterMissing, _) => {
                "maybe present: the block’s filter is missing, which LevelDB treats as a match"
            }
        }
    }
}

/// A probe of one filter (`KeyMayMatch` with every probe position shown), as the JS API shows
/// it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "LevelDbFilterProbe"))]
pub struct FilterProbe {
    pub verdict: Verdict,
    pub reason: ProbeReason,
    /// The verdict and its reason in words ([`ProbeReason::sentence`]).
    pub sentence: &'static str,
    /// The hash probed (`BloomHash` of the key, or the legacy policy's hash).
    pub hash: u32,
    /// The k double-hashing positions, in probe order. LevelDB stops at the first clear bit;
    /// all k are listed here (`verdict` is what LevelDB answers).
    pub probes: Vec<ProbeBit>,
}

impl FilterProbe {
    /// A verdict given without probing bits (by the filter's own rules or the table's).
    pub(crate) fn without_bits(hash: u32, verdict: Verdict, reason: ProbeReason) -> FilterProbe {
        FilterProbe { verdict, reason, sentence: reason.sentence(verdict), hash, probes: Vec::new() }
    }
}

/// `KeyMayMatch(key, filter)` with LevelDB's read rules: length < 2 → no match; k (the last
/// byte) > 30 → match; else probe `h + i*delta mod bits` for i in 0..k.
pub fn probe_filter(key: &[u8], filter: &[u8]) -> FilterProbe {
    probe_filter_with(bloom_hash(key), filter)
}

/// `KeyMayMatch` for a key already hashed (the table picks the hash by policy name).
pub(crate) fn probe_filter_with(hash: u32, filter: &[u8]) -> FilterProbe {
    let (k, array) = match filter.split_last() {
        Some((&k, array)) if !array.is_empty() => (k as u32, array),
        _ => return FilterProbe::without_bits(hash, Verdict::Absent, ProbeReason::EmptyFilter),
    };
    if k > MAX_K {
        return FilterProbe::without_bits(hash, Verdict::Maybe, ProbeReason::ReservedK);
    }
    let bits = array.len() as u64 * 8;
    let probes: Vec<ProbeBit> = probe_hashes(hash, k)
        .map(|h| {
            let bit = h as u64 % bits;
            // bit < 8 * array.len(), so the byte is always there.
            ProbeBit { bit, set: array[(bit / 8) as usize] & (1 << (bit % 8)) != 0 }
        })
        .collect();
    let verdict = if probes.iter().all(|b| b.set) { Verdict::Maybe } else { Verdict::Absent };
    FilterProbe { probes, ..FilterProbe::without_bits(hash, verdict, ProbeReason::Bits) }
}

/// `KeyMayMatch` as a boolean.
pub fn key_may_match(key: &[u8], filter: &[u8]) -> bool {
    probe_filter(key, filter).verdict == Verdict::Maybe
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_formula() {
        for (bpk, k) in [(1, 1), (2, 1), (3, 2), (4, 2), (10, 6), (20, 13), (43, 29), (44, 30), (100, 30)] {
            assert_eq!(k_for_bits_per_key(bpk), k, "bpk {bpk}");
        }
    }

    #[test]
    fn create_then_match() {
        let p = BloomFilterPolicy::new(10);
        let keys: Vec<Vec<u8>> = (0..100u32).map(|i| i.to_le_bytes().to_vec()).collect();
        let f = p.create_filter(&keys);
        assert_eq!(f.len(), 125 + 1);
        assert_eq!(*f.last().unwrap(), 6);
        for k in &keys {
            assert!(key_may_match(k, &f));
        }
        // LevelDB's read rules.
        assert!(!key_may_match(b"x", &[]));
        assert!(!key_may_match(b"x", &[0xff]));
        assert!(key_may_match(b"x", &[0, 0, 0, 0, 0, 0, 0, 0, 31]));
        assert_eq!(probe_filter(b"x", &[0; 9]).probes.len(), 0);
        // Tiny filters get 64 bits.
        assert_eq!(p.create_filter(&[b"a"]).len(), 9);
    }

    #[test]
    fn probe_hashes_step_by_the_rotated_hash() {
        // BloomHash("hello") and its k = 6 probes as util/bloom.cc computes them by hand.
        let h = bloom_hash(b"hello");
        let d = h.rotate_right(17);
        let want: Vec<u32> = (0..6u32).map(|j| h.wrapping_add(d.wrapping_mul(j))).collect();
        assert_eq!(probe_hashes(h, 6).collect::<Vec<_>>(), want);
        assert_eq!(probe_hashes(h, 0).count(), 0);
        // The positions a probe reports are these hashes mod the filter's bits.
        let f = BloomFilterPolicy::new(10).create_filter(&[b"hello"]);
        let bits = (f.len() as u64 - 1) * 8;
        let got: Vec<u64> = probe_filter(b"hello", &f).probes.iter().map(|p| p.bit).collect();
        assert_eq!(got, want.iter().map(|&h| h as u64 % bits).collect::<Vec<_>>());
    }
}

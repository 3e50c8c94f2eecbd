//! A filter's design: how many keys its stored geometry (bit count m, k hash functions) was
//! sized for, and whether it holds more than that ("filled past its design": sized for fewer
//! keys than it holds).
//!
//! Every TsFile writer sizes the filter the same way (docs/writers.md §5; Java's
//! `BloomFilter.getEmptyBloomFilter`, [`java_sizing`]): `m = max(256, (int)(-n·ln p / ln²2) + 1)`
//! and `k = (int)(-ln p / ln 2) + 1`, with the error rate p clamped to [0.01, 0.1] — so k is 4..=7.
//! The error rate the writer was configured with is not stored, but k narrows it to an interval,
//! and the fewer bits per key a rate asks for, the more keys the same m is sized for. The design
//! capacity is therefore the most keys the sizing gives at most m bits for at the **largest** rate
//! that yields k: whatever rate the writer used, it planned for no more keys than that. (The C++
//! writer takes ln p from a table of ln 0.01 … ln 0.10, the largest entry ≤ p: its rates for each
//! k are never larger than Java's largest, so the bound holds for it too.) A filter whose writer
//! inserted more keys than its design capacity (the index's count, after the audit) was sized for
//! fewer keys than it holds — e.g. the C++ writer's count of measurement-name changes, which is 1
//! for any number of devices that share one measurement name.
//!
//! A geometry no such sizing produces (m < 256, or k outside 4..=7) has no known design: `None`.

use crate::filter::{java_sizing, MAX_ERROR_RATE, MINIMAL_SIZE};

/// Java's int arithmetic in the sizing saturates past n·ln(1/p)/ln²2 = 2^31; below this n it
/// never does (ln(1/p)/ln²2 < 9.6 for every clamped rate).
const LIMIT: i32 = i32::MAX / 10;

/// The largest error rate Java's sizing turns into `k` hash functions (4..=7), None for other k:
/// `k = (int)(-ln p / ln 2) + 1` is k for p in (2^-k, 2^(1-k)] (to a few ulps of rounding in ln),
/// cut at the clamp's 0.1 for k = 4.
pub fn largest_rate_for_k(k: u32) -> Option<f64> {
    [MAX_ERROR_RATE, 1.0 / 16.0, 1.0 / 32.0, 1.0 / 64.0].get(k.wrapping_sub(4) as usize).copied()
}

/// The most keys the writers' sizing plans `bit_count` bits and `k` hash functions for, at any
/// error rate (module docs); None for a geometry that sizing never produces.
pub fn design_capacity(bit_count: u32, k: u32) -> Option<u64> {
    let p = largest_rate_for_k(k)?;
    if bit_count < MINIMAL_SIZE {
        return None;
    }
    // m grows with n up to LIMIT: the largest n whose m is at most bit_count, by bisection. A
    // capacity at that limit (a filter of a billion bits) is not known: None.
    let (mut lo, mut hi) = (0i32, LIMIT);
    while lo < hi {
        let mid = lo + (hi - lo) / 2 + 1;
        if java_sizing(mid, p).0 <= bit_count {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    (lo < LIMIT).then_some(lo as u64)
}

/// Whether a filter holding `inserted` keys (the index's count of what the writer inserted) is
/// filled past its design: more keys than [`design_capacity`] — equivalently (m grows with n),
/// the sizing for `inserted` keys at the largest rate that gives k asks for more than
/// `bit_count` bits. None when either is unknown (or past Java's int arithmetic).
pub fn filled_past_design(bit_count: u32, k: u32, inserted: Option<u64>) -> Option<bool> {
    let p = largest_rate_for_k(k)?;
    let n = inserted.filter(|&n| n <= LIMIT as u64)?;
    (bit_count >= MINIMAL_SIZE).then(|| java_sizing(n as i32, p).0 > bit_count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_rate_gives_k_and_the_next_larger_does_not() {
        for k in 4..=7 {
            let p = largest_rate_for_k(k).unwrap();
            assert_eq!(java_sizing(1, p).1, k, "k = {k}");
            if k > 4 {
                assert_eq!(java_sizing(1, p * (1.0 + 1e-12)).1, k - 1, "just above {p}");
            }
        }
        assert_eq!(largest_rate_for_k(3), None);
        assert_eq!(largest_rate_for_k(8), None);
    }

    #[test]
    fn capacity_is_the_most_keys_the_sizing_gives_at_most_m_bits_for() {
        // The bound is Java's own sizing: one key more asks for more bits.
        for (m, k) in [(256, 5), (1634, 5), (62353, 5), (64841, 5), (256, 4), (4000, 6), (9000, 7)] {
            let p = largest_rate_for_k(k).unwrap();
            let n = design_capacity(m, k).unwrap();
            assert!(java_sizing(n as i32, p).0 <= m, "{m} {k}");
            assert!(java_sizing(n as i32 + 1, p).0 > m, "{m} {k}");
        }
        // A filter Java sized at the default 5 % for n keys is sized for at least n.
        for n in [1, 40, 220, 262, 10000, 10399] {
            let (m, k) = java_sizing(n, 0.05);
            assert!(design_capacity(m, k).unwrap() >= n as u64, "{n}");
        }
        // 256 bits, k = 5: 256 / (4 / ln 2) = 44.36 keys at p = 1/16 (40 at 5 %).
        assert_eq!(design_capacity(256, 5), Some(44));
        assert_eq!(design_capacity(255, 5), None);
        assert_eq!(design_capacity(256, 8), None);
        assert_eq!(design_capacity(256, 3), None);
        // The largest bit count Java stores still has a known design; past the int limit, none.
        assert!(design_capacity(i32::MAX as u32 / 3, 4).is_some());
        assert_eq!(design_capacity(i32::MAX as u32, 4), None);
    }

    #[test]
    fn past_design_is_more_keys_than_the_capacity() {
        for (m, k) in [(256, 4), (256, 5), (1634, 5), (4000, 6), (9000, 7), (64841, 5)] {
            let n = design_capacity(m, k).unwrap();
            assert_eq!(filled_past_design(m, k, Some(n)), Some(false), "{m} {k}");
            assert_eq!(filled_past_design(m, k, Some(n + 1)), Some(true), "{m} {k}");
            assert_eq!(filled_past_design(m, k, Some(0)), Some(false), "{m} {k}");
        }
    }

    #[test]
    fn past_design_needs_both_counts() {
        assert_eq!(filled_past_design(256, 5, Some(44)), Some(false));
        assert_eq!(filled_past_design(256, 5, Some(45)), Some(true));
        assert_eq!(filled_past_design(256, 5, None), None);
        assert_eq!(filled_past_design(100, 5, Some(1000)), None);
    }
}

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
//!
//! Beside that bound, one writer's rule can be recognised from the same facts, the stored m and k
//! and the index: the C++ writer's ([`cpp_sizing_for`]), which sizes for its count of
//! measurement-name changes ([`cpp_path_count`]) rather than for the keys it inserts.

use crate::filter::{java_sizing, MAXIMAL_HASH_FUNCTION_SIZE, MAX_ERROR_RATE, MINIMAL_SIZE};

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

/// ln p as the C++ writer takes it (`cpp/src/reader/bloom_filter.cc` `math_log`): a table of
/// ln 0.01 … ln 0.10 to 11 decimals, the entry of the largest rate not above p. Its digits, not
/// the exact logarithms (ln 0.1 is −ln 10 only to 11 places).
#[allow(clippy::approx_constant)]
const CPP_LN: [f64; 10] = [
    -4.60517018599,
    -3.91202300543,
    -3.50655789732,
    -3.21887582487,
    -2.99573227355,
    -2.81341071676,
    -2.65926003693,
    -2.52572864431,
    -2.40794560865,
    -2.30258509299,
];

/// The C++ writer's `BloomFilter::init(p, n)` for the rate whose ln is `ln_p`:
/// `m = max(256, -(int)(n·ln p / ln2 / ln2) + 1)`, `k = min(8, (int)(-ln p / ln2 + 1))`.
pub fn cpp_sizing(n: i32, ln_p: f64) -> (u32, u32) {
    let ln2 = std::f64::consts::LN_2;
    // C++'s int cast truncates toward zero, as Rust's `as` (which saturates where C++ is undefined).
    let m = ((n as f64 * ln_p / ln2 / ln2) as i32).wrapping_neg().wrapping_add(1);
    let k = (-ln_p / ln2 + 1.0) as i32;
    (m.max(MINIMAL_SIZE as i32) as u32, k.min(MAXIMAL_HASH_FUNCTION_SIZE as i32) as u32)
}

/// The n the C++ writer sizes for (`TsFileIOWriter::get_path_count`): how often the measurement
/// name changes, walking the chunks' names in order from the empty name — 1 for any number of
/// devices that share one measurement name, and a leading time column (named "") not counted.
/// Given the index's records in order, it is the writer's count when its chunks were written in
/// that order (one chunk per series, as the C++ writer in PyPI tsfile 2.5.0 writes them).
pub fn cpp_path_count<'a>(names: impl IntoIterator<Item = &'a [u8]>) -> u64 {
    let mut previous: &[u8] = b"";
    let mut count = 0;
    for name in names {
        count += u64::from(name != previous);
        previous = name;
    }
    count
}

/// The C++ writer's sizing recognised: `names` (its count, [`cpp_path_count`]) is fewer than the
/// keys the filter holds, its sizing for `names` at one of its table's rates gives exactly this m
/// and k, and its sizing for the keys held would not. Some(`names`) then: the filter was sized
/// for that many measurement names. None otherwise (also when both counts give the same geometry,
/// as the 256-bit floor does for small files: the rule cannot be told from the geometry).
pub fn cpp_sizing_for(bit_count: u32, k: u32, names: u64, holds: u64) -> Option<u64> {
    if names >= holds || holds > LIMIT as u64 {
        return None;
    }
    let sizes = |n: u64, ln: f64| cpp_sizing(n as i32, ln) == (bit_count, k);
    CPP_LN.iter().any(|&ln| sizes(names, ln) && !sizes(holds, ln)).then_some(names)
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
    fn cpp_sizing_is_java_s_formula_with_the_table_s_ln() {
        // docs/bloom-filter.md §8's measured C++ filters (p = 0.05: the table's ln 0.05).
        let ln5 = CPP_LN[4];
        for (n, m) in [(1, 256), (220, 1372), (262, 1634), (10000, 62353), (10399, 64841)] {
            assert_eq!(cpp_sizing(n, ln5), (m, 5), "{n}");
        }
        assert_eq!(cpp_sizing(1, CPP_LN[0]).1, 7);
        assert_eq!(cpp_sizing(1, CPP_LN[9]).1, 4);
    }

    #[test]
    fn cpp_counts_name_changes_from_the_empty_name() {
        let names = |v: &[&'static str]| cpp_path_count(v.iter().map(|s| s.as_bytes()));
        assert_eq!(names(&[]), 0);
        assert_eq!(names(&["s1"; 100]), 1);
        assert_eq!(names(&["", "a", "b", "", "a", "b"]), 5);
        assert_eq!(names(&["a", "b", "a"]), 3);
    }

    #[test]
    fn the_cpp_rule_is_recognised_only_where_the_geometry_tells_it() {
        // 100 devices sharing one name: sized for 1 at 5 %, 256 bits; 100 keys would ask for 624.
        assert_eq!(cpp_sizing_for(256, 5, 1, 100), Some(1));
        // A leading time column the count skips: 10399 names for 10400 keys, m = 64841.
        assert_eq!(cpp_sizing_for(64841, 5, 10399, 10400), Some(10399));
        // Small files: 256 bits for either count, so the rule cannot be told.
        assert_eq!(cpp_sizing_for(256, 5, 5, 10), None);
        // No fewer names than keys, or a geometry the names do not give: nothing to recognise.
        assert_eq!(cpp_sizing_for(62353, 5, 10000, 10000), None);
        assert_eq!(cpp_sizing_for(64847, 5, 10399, 10400), None);
        assert_eq!(cpp_sizing_for(256, 3, 1, 100), None);
    }

    #[test]
    fn past_design_needs_both_counts() {
        assert_eq!(filled_past_design(256, 5, Some(44)), Some(false));
        assert_eq!(filled_past_design(256, 5, Some(45)), Some(true));
        assert_eq!(filled_past_design(256, 5, None), None);
        assert_eq!(filled_past_design(100, 5, Some(1000)), None);
    }
}

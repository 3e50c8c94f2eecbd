//! The false-positive rate of filters built the Java writer's way, measured over
//! 100,000 random absent paths, lies within a binomial confidence bound of the
//! formula (1 - e^(-kn/m))^k (docs/bloom-filter.md §6).

#![cfg(not(target_arch = "wasm32"))]

use tsfile_bloom::filter::false_positive_probability;
use tsfile_bloom::{BloomFilter, TailVariant};

/// SplitMix64: a fixed, seedable stream for reproducible random paths.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

fn path(prefix: &str, rng: &mut Rng) -> Vec<u8> {
    let r = rng.next();
    format!("root.{prefix}.d{}.温度{}.s{}", r % 997, (r >> 20) % 10_007, r >> 40).into_bytes()
}

#[test]
fn measured_false_positive_rate_matches_the_formula() {
    const ABSENT: usize = 100_000;
    for (n, rate, variant) in [
        (1_000, 0.05, TailVariant::Java),
        (10_000, 0.05, TailVariant::ZeroExtended),
        (5_000, 0.01, TailVariant::Java),
        (2_000, 0.1, TailVariant::Java),
        (40, 0.05, TailVariant::ZeroExtended), // the 256-bit minimum, well under capacity
    ] {
        let mut rng = Rng(n as u64 * 31 + (rate * 1000.0) as u64);
        let mut f = BloomFilter::with_capacity(n, rate);
        for _ in 0..n {
            f.add(&path("in", &mut rng), variant);
        }
        // Absent paths live under another prefix, so none was inserted.
        let fp = (0..ABSENT).filter(|_| f.might_contain(&path("out", &mut rng), variant)).count();
        let measured = fp as f64 / ABSENT as f64;
        let p = false_positive_probability(n as f64, f.bit_count(), f.hash_function_count());
        // 5 standard deviations of a binomial(ABSENT, p) proportion, plus 0.5 % of p for
        // the formula's own approximation.
        let bound = 5.0 * (p * (1.0 - p) / ABSENT as f64).sqrt() + 0.005 * p;
        assert!(
            (measured - p).abs() <= bound,
            "n={n} rate={rate}: measured {measured:.5} vs formula {p:.5} (bound ±{bound:.5})"
        );
    }
}

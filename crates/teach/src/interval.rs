//! Confidence intervals for measured rates: the Wilson score interval (Wilson 1927), which
//! stays inside [0, 1] and is still informative when nothing was counted (0 false positives
//! in 10,000 probes gives [0, 0.038 %], not the normal approximation's [0, 0]), and how the
//! sentences print a probability ([`pct`]) and a count ([`grouped`]).

use serde::Serialize;

/// The two-sided 95 % normal quantile, Φ⁻¹(0.975).
pub const Z95: f64 = 1.959_963_984_540_054;

/// A measured proportion: `hits` of `trials`, with its 95 % Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rate {
    pub hits: u64,
    pub trials: u64,
    /// hits / trials (0 when there were no trials).
    pub rate: f64,
    /// The interval's ends; [0, 1] when there were no trials.
    pub low: f64,
    pub high: f64,
}

impl Rate {
    /// Whether `x` lies inside the interval.
    pub fn covers(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }
}

/// `hits` of `trials` with the 95 % Wilson score interval:
/// `(p̂ + z²/2n ± z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n)`.
pub fn wilson(hits: u64, trials: u64) -> Rate {
    wilson_z(hits, trials, Z95)
}

/// [`wilson`] at another normal quantile `z`.
pub fn wilson_z(hits: u64, trials: u64, z: f64) -> Rate {
    let hits = hits.min(trials);
    if trials == 0 {
        return Rate { hits, trials, rate: 0.0, low: 0.0, high: 1.0 };
    }
    let n = trials as f64;
    let p = hits as f64 / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    // At 0 (or all) hits the end is exactly 0 (or 1); the subtraction only rounds near it.
    let low = if hits == 0 { 0.0 } else { (centre - half).max(0.0) };
    let high = if hits == trials { 1.0 } else { (centre + half).min(1.0) };
    Rate { hits, trials, rate: p, low, high }
}

/// A probability as the sentences print it: 3 significant digits, in percent; below 0.01 % as
/// odds ("1 in 370 million"), which a reader takes in where "0.000000 %" says nothing.
pub fn pct(x: f64) -> String {
    if !x.is_finite() {
        return "–".into();
    }
    let v = x * 100.0;
    if v == 0.0 {
        return "0 %".into();
    }
    if x < 1e-4 {
        return format!("1 in {}", people(1.0 / x));
    }
    let digits = (2 - v.abs().log10().floor() as i32).clamp(0, 6) as usize;
    format!("{v:.digits$} %")
}

/// A large number rounded for people: 3 significant digits, millions and up in words ("7.42 million").
pub fn people(x: f64) -> String {
    let (v, word) = [(1e12, " trillion"), (1e9, " billion"), (1e6, " million")]
        .into_iter()
        .find(|(scale, _)| x >= *scale)
        .map_or((x, ""), |(scale, word)| (x / scale, word));
    let digits = if v >= 100.0 {
        0
    } else if v >= 10.0 {
        1
    } else {
        2
    };
    format!("{v:.digits$}{word}")
}

/// `n` with a comma between groups of three digits, as the page prints counts ("10,000").
pub fn grouped(n: u64) -> String {
    if n < 1000 {
        n.to_string()
    } else {
        format!("{},{:03}", grouped(n / 1000), n % 1000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_probabilities_as_odds() {
        assert_eq!(pct(2.7e-9), "1 in 370 million");
        assert_eq!(pct(5e-5), "1 in 20000");
        assert_eq!(people(7_424_212.9), "7.42 million");
        assert_eq!(people(3.7e15), "3700 trillion");
    }

    #[test]
    fn pct_formats() {
        assert_eq!(pct(0.00819), "0.819 %");
        assert_eq!(pct(0.05), "5.00 %");
        assert_eq!(pct(0.5), "50.0 %");
        assert_eq!(pct(0.0), "0 %");
    }

    #[test]
    fn newcombe_1998_table_i() {
        // Newcombe, "Two-sided confidence intervals for the single proportion: comparison of
        // seven methods", Statistics in Medicine 17 (1998) 857–872, Table I, method 3 (score
        // interval without continuity correction), to the 4 decimals printed there.
        for (x, n, lo, hi) in
            [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611), (1, 29, 0.0061, 0.1718)]
        {
            let r = wilson(x, n);
            assert!((r.low - lo).abs() < 5e-5 && (r.high - hi).abs() < 5e-5, "{x}/{n}: {r:?}");
        }
    }

    #[test]
    fn edges() {
        let r = wilson(0, 0);
        assert_eq!((r.low, r.high), (0.0, 1.0));
        let r = wilson(10, 10);
        assert_eq!(r.high, 1.0);
        assert!(r.low > 0.6 && r.low < 0.75);
        assert!(wilson(5, 100).covers(0.05));
    }
}

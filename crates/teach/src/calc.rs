//! The calculator: any three of n (keys), p (false-positive rate), m (bits) and k (hash
//! functions) give the fourth by the formula `p = (1 − e^(−kn/m))^k`, with bits per key
//! b = m/n standing in for m. Beside the ideal: what TsFile's Java writer
//! (`getEmptyBloomFilter`, docs/bloom-filter.md §6) and LevelDB's `BloomFilterPolicy`
//! (docs/leveldb-filter.md §2) would really build for the same keys and rate.
//!
//! p depends on n and m only through b, so the formula has three unknowns (b, p, k):
//! - b and k → p;  b and p → the best whole k (and every whole k that reaches p);
//! - p and k → the b that reaches p exactly, hence m = ⌈n·b⌉ for a given n, or n = ⌊m/b⌋ for a
//!   given m;
//! - n and p alone → m and k at the optimum, the classic sizing
//!   (m = −n ln p / (ln 2)², k = (m/n) ln 2);
//! - b alone (or n and m) → the best whole k and its p.

use serde::Serialize;

use super::interval::pct;
use tsfile_bloom::error::{Error, Result};
use tsfile_bloom::filter::{false_positive_probability, java_sizing, MAX_ERROR_RATE, MIN_ERROR_RATE};
use tsfile_bloom::leveldb::{filter_bits, k_for_bits_per_key};

/// The largest k the calculator considers (LevelDB probes at most 30; TsFile uses at most 8).
pub const K_MAX: u32 = 64;

/// What the learner typed; `None` for an empty box.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CalcInput {
    pub n: Option<f64>,
    pub p: Option<f64>,
    pub m: Option<f64>,
    pub k: Option<f64>,
    pub bits_per_key: Option<f64>,
}

/// TsFile's Java writer for these n and p.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JavaRow {
    /// The error rate Java used: p clamped to [0.01, 0.1].
    pub error_rate: f64,
    pub clamped: bool,
    pub bit_count: u32,
    pub k: u32,
    pub bits_per_key: f64,
    /// The formula's p for n keys in Java's geometry.
    pub p: f64,
    /// Bytes of the bit vector (`⌈m/8⌉`, the most a writer stores).
    pub bytes: f64,
}

/// LevelDB's policy at one whole `bits_per_key`, for n keys in one filter.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LevelDbRow {
    pub bits_per_key: u32,
    /// `max(64, n·b)` rounded up to whole bytes.
    pub bit_count: f64,
    /// `⌊0.69·b⌋` clamped to 1..=30.
    pub k: u32,
    pub p: f64,
    /// Bytes stored: the bit bytes and the k byte.
    pub bytes: f64,
}

/// The calculator's answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Solution {
    /// What was solved: "p", "k", "m", "n", "bitsPerKey", "m+k" (n and p only), "k+p" (only the
    /// size: n and m, or bits per key) or "none" (all four given: the typed p is checked).
    pub solved: &'static str,
    pub n: Option<f64>,
    pub m: Option<f64>,
    pub bits_per_key: f64,
    pub k: u32,
    /// The formula's p at the answer's b and k (for "m" and "n" at the rounded m or n).
    pub p: f64,
    /// The p typed, when one was.
    pub p_target: Option<f64>,
    /// The unrounded value solved for (b·n for m, m/b for n, k* for k, b for bitsPerKey).
    pub exact: f64,
    /// `(m/n) ln 2`.
    pub k_star: f64,
    /// The whole k with the lowest p at this b, and that p.
    pub k_best: u32,
    pub p_best: f64,
    /// Every whole k whose p is at most the typed p (`[lo, hi]`), when a p was typed and some k reaches it.
    pub k_range: Option<[u32; 2]>,
    /// `1 − e^(−kn/m)`: the fill the formula expects.
    pub expected_fill: f64,
    /// Bytes of m bits, ⌈m/8⌉.
    pub bytes: Option<f64>,
    pub java: Option<JavaRow>,
    /// The smallest whole bits_per_key whose LevelDB filter reaches the p (n keys in one filter).
    pub leveldb: Option<LevelDbRow>,
    /// LevelDB at the answer's bits per key, when that is a whole number.
    pub leveldb_at_b: Option<LevelDbRow>,
    /// Plain sentences: what was solved and anything worth a word (a clamp, an unreachable p).
    pub notes: Vec<String>,
}

fn arg(name: &str, v: Option<f64>, ok: impl Fn(f64) -> bool, rule: &str) -> Result<Option<f64>> {
    match v {
        Some(x) if !x.is_finite() || !ok(x) => {
            Err(Error::invalid_argument(format!("{name}: {x} is not allowed ({name} must be {rule})")))
        }
        v => Ok(v),
    }
}

/// `(1 − e^(−k/b))^k`: the formula with b = m/n.
pub fn fpp_at(b: f64, k: u32) -> f64 {
    if b == f64::INFINITY {
        return 0.0;
    }
    (1.0 - (-(k as f64) / b).exp()).powi(k as i32)
}

/// The bits per key at which k hash functions give exactly p: `−k / ln(1 − p^(1/k))`.
pub fn bits_per_key_for(p: f64, k: u32) -> f64 {
    -(k as f64) / (-p.powf(1.0 / k as f64)).ln_1p()
}

/// The whole k in 1..=K_MAX with the lowest p at b (the first, if two tie).
pub fn best_k(b: f64) -> (u32, f64) {
    let mut best = (1, fpp_at(b, 1));
    for k in 2..=K_MAX {
        let p = fpp_at(b, k);
        if p < best.1 {
            best = (k, p);
        }
    }
    best
}

/// Every whole k whose p at b is at most `p`: `[lo, hi]` (p is unimodal in k, so it is one run).
pub fn k_range(b: f64, p: f64) -> Option<[u32; 2]> {
    let ok: Vec<u32> = (1..=K_MAX).filter(|&k| fpp_at(b, k) <= p).collect();
    Some([*ok.first()?, *ok.last()?])
}

/// Java's `getEmptyBloomFilter(p, n)` beside the ideal, for a whole n in Java's int range.
pub fn java_row(n: f64, p: f64) -> Option<JavaRow> {
    if !(n >= 0.0 && n <= i32::MAX as f64 && n.fract() == 0.0) {
        return None;
    }
    let (m, k) = java_sizing(n as i32, p);
    let error_rate = p.clamp(MIN_ERROR_RATE, MAX_ERROR_RATE);
    Some(JavaRow {
        error_rate,
        clamped: error_rate != p,
        bit_count: m,
        k,
        bits_per_key: m as f64 / n,
        p: false_positive_probability(n, m, k),
        bytes: (m as f64 / 8.0).ceil(),
    })
}

/// LevelDB's policy at `b` bits per key for `n` keys in one filter.
pub fn leveldb_row(n: f64, b: u32) -> LevelDbRow {
    let bits = filter_bits(n as u64, b) as f64;
    let k = k_for_bits_per_key(b);
    LevelDbRow { bits_per_key: b, bit_count: bits, k, p: fpp_at(bits / n, k), bytes: bits / 8.0 + 1.0 }
}

/// The smallest whole bits_per_key (1..=1000) whose LevelDB filter over n keys reaches p.
pub fn leveldb_for(n: f64, p: f64) -> Option<LevelDbRow> {
    if !(n >= 1.0 && n.fract() == 0.0) {
        return None;
    }
    (1..=1000).map(|b| leveldb_row(n, b)).find(|r| r.p <= p)
}

/// The formula at one geometry, as the panel's curves and facts show it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Point {
    pub n: f64,
    pub m: u32,
    pub k: u32,
    /// `(1 − e^(−kn/m))^k` (0 without keys).
    pub fpp: f64,
    /// `(m/n) ln 2` (infinite without keys).
    pub k_star: f64,
    /// `1 − e^(−kn/m)`: the fill the formula expects.
    pub expected_fill: f64,
    /// m/n (infinite without keys).
    pub bits_per_key: f64,
    /// The formula at k = 1 ..= 32 (`samples[k − 1]`), when there are keys.
    pub samples: Option<Vec<f64>>,
}

/// The formula for n keys in m bits with k hash functions; with `curve`, at every k in 1..=32 too.
pub fn point(n: f64, m: u32, k: u32, curve: bool) -> Point {
    let some = n > 0.0 && m > 0;
    let kn_m = k as f64 * n / m.max(1) as f64;
    Point {
        n,
        m,
        k,
        fpp: if some { false_positive_probability(n, m, k) } else { 0.0 },
        k_star: if n > 0.0 { tsfile_bloom::filter::optimal_k(n, m) } else { f64::INFINITY },
        expected_fill: if some { 1.0 - (-kn_m).exp() } else { 0.0 },
        bits_per_key: if n > 0.0 { m as f64 / n } else { f64::INFINITY },
        samples: (some && curve).then(|| (1..=32).map(|j| false_positive_probability(n, m, j)).collect()),
    }
}

/// Solves for the one empty box (see the module's rules). Errors name the box: `n`, `p`, `m`,
/// `k` or `bits per key`.
pub fn solve(input: CalcInput) -> Result<Solution> {
    let n = arg("n", input.n, |x| x > 0.0, "a positive number of keys")?;
    let p = arg("p", input.p, |x| x > 0.0 && x < 1.0, "between 0 and 1, e.g. 0.01 for 1 %")?;
    let m = arg("m", input.m, |x| x >= 1.0, "at least 1 bit")?;
    let b = arg("bits per key", input.bits_per_key, |x| x > 0.0, "positive")?;
    let k = arg("k", input.k, |x| x >= 1.0 && x <= K_MAX as f64 && x.fract() == 0.0, "a whole number from 1 to 64")?
        .map(|x| x as u32);
    let mut given = Given { n, m, ratio: None, p, k };
    given.ratio = given.ratio_from(b)?;
    let mut notes = Vec::new();
    let unknown = given.solve_unknown(&mut notes)?;
    Ok(given.solution(unknown, notes))
}

/// The boxes as solving fills them in: `ratio` is b = m/n once two of n, m, b are known.
struct Given {
    n: Option<f64>,
    m: Option<f64>,
    ratio: Option<f64>,
    p: Option<f64>,
    k: Option<u32>,
}

/// What was solved for (the Solution's `solved`), the ratio and k, and the exact (unrounded) answer.
struct Unknown {
    solved: &'static str,
    r: f64,
    k: u32,
    exact: f64,
}

impl Given {
    /// The ratio b = m/n, from whichever two of n, m, b are given (all three must agree); fills in
    /// n or m from the other two.
    fn ratio_from(&mut self, b: Option<f64>) -> Result<Option<f64>> {
        Ok(match (self.n, self.m, b) {
            (Some(n), Some(m), Some(b)) => {
                if ((m / n) - b).abs() > 1e-9 * b.max(1.0) {
                    return Err(Error::invalid_argument(format!(
                        "bits per key: {b} is not m/n = {} (leave one of n, m, bits per key empty)",
                        m / n
                    )));
                }
                Some(b)
            }
            (Some(n), Some(m), None) => Some(m / n),
            (Some(nv), None, Some(b)) => {
                self.m = Some(nv * b);
                Some(b)
            }
            (None, Some(mv), Some(b)) => {
                self.n = Some(mv / b);
                Some(b)
            }
            (_, _, b) => b,
        })
    }

    fn solve_unknown(&mut self, notes: &mut Vec<String>) -> Result<Unknown> {
        let ln2 = std::f64::consts::LN_2;
        let unknown = |solved, r, k, exact| Ok(Unknown { solved, r, k, exact });
        match (self.ratio, self.p, self.k) {
            (Some(r), p, Some(k)) => unknown(if p.is_some() { "none" } else { "p" }, r, k, fpp_at(r, k)),
            (Some(r), Some(p), None) => {
                let (kb, pb) = best_k(r);
                if pb > p {
                    notes.push(format!(
                        "p = {} cannot be reached with {r} bits per key: the best whole k, {kb}, gives {}",
                        pct(p),
                        pct(pb)
                    ));
                }
                unknown("k", r, kb, r * ln2)
            }
            (None, Some(p), Some(k)) => self.size_for(p, k),
            (Some(r), None, None) => {
                // b alone: the best whole k and its p.
                notes.push("only the size given: k is the best whole k for it, and p the formula's at that k".into());
                unknown("k+p", r, best_k(r).0, r * ln2)
            }
            (None, Some(p), None) if self.n.is_some() && self.m.is_none() => {
                // n and p: the classic sizing at the optimum k.
                let nv = self.n.unwrap_or(0.0);
                let mv = (-nv * p.ln() / (ln2 * ln2)).ceil();
                let kv = ((mv / nv) * ln2).round().max(1.0) as u32;
                self.m = Some(mv);
                notes.push(
                    "n and p only: m and k sized together at the optimum, m = −n ln p / (ln 2)², k = (m/n) ln 2 rounded"
                        .into(),
                );
                unknown("m+k", mv / nv, kv, -nv * p.ln() / (ln2 * ln2))
            }
            _ => Err(self.too_few()),
        }
    }

    /// p and k given: m for n keys, n for m bits, or bits per key when neither is given.
    fn size_for(&mut self, p: f64, k: u32) -> Result<Unknown> {
        let need = bits_per_key_for(p, k);
        let (solved, r, exact) = match (self.n, self.m) {
            (Some(nv), None) => {
                let mv = (nv * need).ceil();
                self.m = Some(mv);
                ("m", mv / nv, nv * need)
            }
            (None, Some(mv)) => {
                let nv = (mv / need).floor();
                if nv < 1.0 {
                    return Err(Error::invalid_argument(format!(
                        "m: {mv} bits hold no key at p = {p} with k = {k} ({need} bits per key are needed)"
                    )));
                }
                self.n = Some(nv);
                ("n", mv / nv, mv / need)
            }
            _ => ("bitsPerKey", need, need),
        };
        Ok(Unknown { solved, r, k, exact })
    }

    /// The error for fewer than three boxes, naming the empty ones.
    fn too_few(&self) -> Error {
        let mut empty = Vec::new();
        if self.ratio.is_none() {
            empty.push(match (self.n, self.m) {
                (None, None) => "n and m (or bits per key)",
                (None, _) => "n (or bits per key)",
                _ => "m (or bits per key)",
            });
        }
        if self.p.is_none() {
            empty.push("p");
        }
        if self.k.is_none() {
            empty.push("k");
        }
        Error::invalid_argument(format!(
            "enter three of n, p, m, k (bits per key can stand for m): {} {} empty",
            empty.join(" and "),
            if empty.len() == 1 && !empty[0].contains(" and ") { "is" } else { "are" }
        ))
    }

    /// The solution around the solved box: the formula's p, the best k, and the real writers' sizing.
    fn solution(&self, u: Unknown, mut notes: Vec<String>) -> Solution {
        let Unknown { solved, r, k, exact } = u;
        let (n, m, p) = (self.n, self.m, self.p);
        let p_formula = fpp_at(r, k);
        let (k_best, p_best) = best_k(r);
        if let (true, Some(pt)) = (solved == "none", p) {
            if (p_formula - pt).abs() > 1e-12_f64.max(1e-9 * pt) {
                notes.push(format!(
                    "all four given: the formula gives p = {} for these n, m, k, not {}",
                    pct(p_formula),
                    pct(pt)
                ));
            }
        }
        let p_for_sizing = p.unwrap_or(p_formula);
        let java = n.and_then(|nv| java_row(nv, p_for_sizing));
        if let Some(j) = java.as_ref().filter(|j| j.clamped) {
            notes.push(format!(
                "TsFile's Java writer clamps the error rate to [0.01, 0.1]: it sizes for {} instead of {}",
                pct(j.error_rate),
                pct(p_for_sizing)
            ));
        }
        let whole_b = (r.fract() == 0.0 && r <= u32::MAX as f64).then_some(r as u32);
        let leveldb_at_b = match (n, whole_b) {
            (Some(nv), Some(bv)) if nv >= 1.0 => Some(leveldb_row(nv.floor(), bv)),
            _ => None,
        };
        Solution {
            solved,
            n,
            m,
            bits_per_key: r,
            k,
            p: p_formula,
            p_target: p,
            exact,
            k_star: r * std::f64::consts::LN_2,
            k_best,
            p_best,
            k_range: p.and_then(|pt| k_range(r, pt)),
            expected_fill: 1.0 - (-(k as f64) / r).exp(),
            bytes: m.map(|mv| (mv / 8.0).ceil()),
            java,
            leveldb: n.and_then(|nv| leveldb_for(nv, p_for_sizing)),
            leveldb_at_b,
            notes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(n: Option<f64>, p: Option<f64>, m: Option<f64>, k: Option<f64>) -> CalcInput {
        CalcInput { n, p, m, k, bits_per_key: None }
    }

    #[test]
    fn published_anchors() {
        // Fan, Cao, Almeida, Broder, "Summary Cache" (1998/2000), the false-positive table
        // (pages.cs.wisc.edu/~cao/papers/summary-cache/node8.html): m/n = 4, k = 3 → 0.147;
        // m/n = 8, k = 6 → 0.0216; m/n = 10, k = 7 → 0.00819; m/n = 16, k = 11 → 0.000459.
        for (b, k, p) in [(4.0, 3, 0.147), (8.0, 6, 0.0216), (10.0, 7, 0.00819), (16.0, 11, 0.000459)] {
            let s = solve(CalcInput { bits_per_key: Some(b), k: Some(k as f64), ..Default::default() }).unwrap();
            assert_eq!(s.solved, "p");
            assert!((s.p - p).abs() / p < 0.002, "b {b} k {k}: {}", s.p);
        }
        // hur.st/bloomfilter's opening example: n = 4000, p = 1.0E-7 → m = 134,191 bits, k = 23.
        let s = solve(input(Some(4000.0), Some(1e-7), None, None)).unwrap();
        assert_eq!((s.solved, s.m, s.k), ("m+k", Some(134_191.0), 23));
    }

    #[test]
    fn each_unknown_round_trips() {
        let p = solve(input(Some(1000.0), None, Some(10_000.0), Some(7.0))).unwrap().p;
        let k = solve(input(Some(1000.0), Some(p), Some(10_000.0), None)).unwrap();
        assert_eq!((k.solved, k.k), ("k", 7));
        let m = solve(input(Some(1000.0), Some(p), None, Some(7.0))).unwrap();
        assert_eq!(m.solved, "m");
        assert!((m.exact - 10_000.0).abs() < 1e-6 && m.m == Some(10_000.0), "{m:?}");
        let n = solve(input(None, Some(p), Some(10_000.0), Some(7.0))).unwrap();
        assert_eq!(n.solved, "n");
        assert!((n.exact - 1000.0).abs() < 1e-6, "{n:?}");
        let b = solve(CalcInput { p: Some(p), k: Some(7.0), ..Default::default() }).unwrap();
        assert_eq!(b.solved, "bitsPerKey");
        assert!((b.bits_per_key - 10.0).abs() < 1e-9);
    }

    #[test]
    fn point_is_the_formula() {
        let p = point(1000.0, 10_000, 7, true);
        assert!((p.fpp - 0.008193722065862417).abs() < 1e-15, "bloom_calc.py's value");
        assert!((p.k_star - 10.0 * std::f64::consts::LN_2).abs() < 1e-12);
        assert_eq!(p.samples.as_ref().map(|s| s.len()), Some(32));
        assert_eq!(p.samples.unwrap()[6], p.fpp);
        let empty = point(0.0, 256, 5, true);
        assert_eq!((empty.fpp, empty.samples), (0.0, None));
        assert!(empty.k_star.is_infinite());
    }

    #[test]
    fn errors_name_the_box() {
        let e = solve(input(Some(1000.0), None, None, Some(3.0))).unwrap_err();
        assert!(e.message.contains("m (or bits per key) and p are empty"), "{}", e.message);
        let e = solve(input(Some(1000.0), Some(1.5), None, Some(3.0))).unwrap_err();
        assert!(e.message.starts_with("p: 1.5"), "{}", e.message);
        let e = solve(input(Some(1000.0), None, Some(100.0), Some(2.5))).unwrap_err();
        assert!(e.message.starts_with("k: 2.5"), "{}", e.message);
        let e = solve(input(None, Some(0.01), Some(3.0), Some(7.0))).unwrap_err();
        assert!(e.message.starts_with("m: 3 bits hold no key"), "{}", e.message);
        assert_eq!(e.kind.as_str(), "invalid_argument");
    }

    #[test]
    fn unreachable_p_and_clamp_are_said() {
        let s = solve(CalcInput { bits_per_key: Some(2.0), p: Some(0.01), ..Default::default() }).unwrap();
        assert!(s.k_range.is_none() && s.notes[0].contains("cannot be reached"));
        let s = solve(input(Some(1000.0), Some(0.001), None, Some(10.0))).unwrap();
        let j = s.java.unwrap();
        assert!(j.clamped && j.error_rate == 0.01 && s.notes.iter().any(|t| t.contains("clamps")));
    }
}

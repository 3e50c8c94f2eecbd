//! Claim 12: "10 bits per key is about 125 MB for 100 million keys", worked out by the
//! calculator ([`solve`]) at the claim's numbers, with what LevelDB's policy and TsFile's Java
//! writer would really build for the same keys beside it, and the open file's filter when one is
//! given. Nothing is generated or measured: the formula and the writers' sizing rules alone.

use serde::Serialize;

use super::calc::{solve, CalcInput};
use super::interval::{grouped, pct};
use tsfile_bloom::error::Result;
use tsfile_bloom::filter::false_positive_probability;

/// The claim's numbers: 100 million keys at 10 bits per key, said to be about 125 MB.
const KEYS: f64 = 100_000_000.0;
const BITS_PER_KEY: f64 = 10.0;
const CLAIMED_MB: f64 = 125.0;

/// Claim 12 as the page shows it: the calculator filled with `n` and `bits_per_key`, the answer,
/// and the sizes in sentences.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Size {
    pub claim: u32,
    pub n: f64,
    pub bits_per_key: f64,
    /// The bit vector's bytes, ⌈n·b / 8⌉.
    pub bytes: f64,
    /// The size in one sentence, said after the answer's badge.
    pub headline: String,
    /// The best k and its p, LevelDB's and Java's sizes, the open file's.
    pub findings: Vec<String>,
    /// "holds" when the bytes are the claimed 125 MB to the megabyte, else "fails".
    pub answer: &'static str,
}

/// Claim 12; `file`: the open file's listed paths (0: none listed), m and k.
pub fn claim12(file: Option<(f64, u32, u32)>) -> Result<Size> {
    let s = solve(CalcInput { n: Some(KEYS), bits_per_key: Some(BITS_PER_KEY), ..CalcInput::default() })?;
    let (m, bytes) = (s.m.unwrap_or(KEYS * BITS_PER_KEY), s.bytes.unwrap_or(0.0));
    let headline = format!(
        "{} bits per key × {} keys = {} bits = {} bytes: {:.1} MB ({:.1} MiB).",
        s.bits_per_key,
        grouped(KEYS as u64),
        grouped(m as u64),
        grouped(bytes as u64),
        bytes / 1e6,
        bytes / f64::from(1 << 20)
    );
    let mut findings = vec![format!("At the best whole k, {}, p = {}.", s.k, pct(s.p))];
    if let Some(l) = s.leveldb_at_b {
        findings.push(format!(
            "LevelDB at bits_per_key = {} (k = {}): {} bits, p = {} — in real tables spread over one filter per 2 KiB window.",
            l.bits_per_key,
            l.k,
            grouped(l.bit_count as u64),
            pct(l.p)
        ));
    }
    if let Some(j) = s.java {
        let clamp = if j.clamped { format!(" (clamped to {})", pct(j.error_rate)) } else { String::new() };
        findings.push(format!(
            "TsFile’s Java writer for the same p{clamp}: {} bits = {:.1} MB, k = {}.",
            grouped(u64::from(j.bit_count)),
            j.bytes / 1e6,
            j.k
        ));
    }
    if let Some((n, m, k)) = file.filter(|&(_, m, _)| m > 0) {
        let per_path = if n > 0.0 {
            format!(
                " for {} paths — {:.2} bits per path, p = {}",
                grouped(n as u64),
                f64::from(m) / n,
                pct(false_positive_probability(n, m, k))
            )
        } else {
            String::new()
        };
        findings.push(format!(
            "The open file: {} bits = {} bytes at most{per_path}.",
            grouped(m.into()),
            grouped(m.div_ceil(8).into())
        ));
    }
    let answer = if (bytes / 1e6).round() == CLAIMED_MB { "holds" } else { "fails" };
    Ok(Size { claim: 12, n: KEYS, bits_per_key: s.bits_per_key, bytes, headline, findings, answer })
}

//! The fast scan of one file (`scanTsFiles` without an audit, one wasm call per file): from what
//! opening reads — the head and the tail window ([`super::TAIL_WINDOW`]) — the version, the
//! filter's figures as [`BloomInfo`] gives them before any index is read, and each path's
//! verdict under the soundness rule for a file whose index is not read. Numbers only, because
//! building a JS object key by key costs more than the rest of a small file.
//!
//! The figures: [`FIGURE_NAMES`] in order ([`FIGURES`] numbers, NaN where [`BloomInfo`] has
//! None; `present` 0/1; `encoding`, `hash` and `health.state` their codes (`code()`: their index
//! in `ALL`); `health.*` its fields), then one verdict code per path ([`FileVerdict::code`]).
//! js/wire.js decodes them into the object `bloomInfo()` gives.

use crate::encoder::PathEncoder;
use crate::error::{Error, Result};
use crate::filter::BloomFilter;
use crate::probe::VerdictRule;
use crate::tsfile::view::BloomInfo;
use crate::tsfile::{parse_metadata, Envelope};
use crate::verdict::FileVerdict;

/// The figures before the verdicts: the version, then [`BloomInfo`]'s fields but those the index
/// gives (`indexedItems`, `filledPastDesign`, `cppSizedFor`: no index is read), by their names in the API.
pub const FIGURE_NAMES: [&str; FIGURES] = [
    "version",
    "present",
    "encoding",
    "offset",
    "bitsOffset",
    "byteLength",
    "bitCount",
    "hashFunctionCount",
    "setBits",
    "fillRatio",
    "estimatedItems",
    "fppFormula",
    "fppFromFill",
    "optimalK",
    "hash",
    "health.state",
    "health.errorRate",
    "health.sizedForItems",
    "health.designFill",
];
/// How many figures precede the verdicts.
pub const FIGURES: usize = 19;

/// One file's fast scan: its figures, then the verdicts pushed path by path.
pub struct TailScan {
    out: Vec<f64>,
    filter: Option<BloomFilter>,
    /// As `probeMany`'s on a file whose index is not read: no audit, every candidate variant.
    rule: VerdictRule,
}

impl TailScan {
    /// From the file's size, its first bytes (at least the head) and its last `window.len()`
    /// bytes. None when TsFileMetadata does not lie in the window (the file is then opened the
    /// usual way); errors as opening gives them.
    pub fn read(file_size: u64, head: &[u8], window: &[u8]) -> Result<Option<TailScan>> {
        let env = Envelope::from_parts(file_size, head, &window[window.len().saturating_sub(10)..])?;
        let window_start = env.file_size.saturating_sub(window.len() as u64);
        if env.metadata_offset < window_start {
            return Ok(None);
        }
        let at = (env.metadata_offset - window_start) as usize;
        let metadata = window
            .get(at..at + env.metadata_size as usize)
            .ok_or_else(|| Error::invalid_argument("metadata bytes do not match the envelope's size"))?;
        let version = env.version;
        let meta = parse_metadata(env, metadata)?;
        let mut out = Vec::with_capacity(FIGURES + 8);
        out.push(f64::from(version));
        figures(&BloomInfo::of(&meta.bloom, None, None), &mut out);
        Ok(Some(TailScan { out, filter: meta.bloom.filter, rule: VerdictRule::new(None, None, None) }))
    }

    /// Appends the verdict for `path` (UTF-8, as stored in an index): as `probeMany` gives it for
    /// a file whose index is not read — no audit, every candidate variant; "unknown" without a filter.
    pub fn push_verdict(&mut self, path: &[u8], encoder: &dyn PathEncoder) -> Result<()> {
        let v = match &self.filter {
            None => FileVerdict::Unknown,
            Some(f) => self.rule.verdict(f, path, encoder)?,
        };
        self.out.push(f64::from(v.code()));
        Ok(())
    }

    /// The figures and the verdicts pushed.
    pub fn into_figures(self) -> Vec<f64> {
        self.out
    }
}

/// Appends `b`'s figures but the version, in [`FIGURE_NAMES`] order.
fn figures(b: &BloomInfo, out: &mut Vec<f64>) {
    let num = |v: Option<f64>| v.unwrap_or(f64::NAN);
    out.extend_from_slice(&[
        f64::from(u8::from(b.present)),
        f64::from(b.encoding.code()),
        b.offset as f64,
        num(b.bits_offset.map(|x| x as f64)),
        num(b.byte_length.map(f64::from)),
        num(b.bit_count.map(f64::from)),
        num(b.hash_function_count.map(f64::from)),
        num(b.set_bits.map(|x| x as f64)),
        num(b.fill_ratio),
        num(b.estimated_items),
        num(b.fpp_formula),
        num(b.fpp_from_fill),
        num(b.optimal_k),
        num(b.hash.map(|h| f64::from(h.code()))),
    ]);
    // The health's fields, NaN for a filter without one (the state by its code).
    let h = b.health;
    out.extend_from_slice(&[
        num(h.map(|h| f64::from(h.state.code()))),
        num(h.map(|h| h.error_rate)),
        num(h.map(|h| h.sized_for_items as f64)),
        num(h.map(|h| h.design_fill)),
    ]);
}

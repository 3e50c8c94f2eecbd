//! A single probe's result as a record of numbers (i32), which JS reads in place from wasm
//! memory: a few hundred ns less per call than an object built field by field (BENCHMARKS.md,
//! "Boundary"). js/wire.js decodes both records.
//!
//! A file probe ([`file_probe`], `TsFile#probe`): the fields [`FILE_FIELDS`] — verdict
//! ([`super::verdict_code`]), variant and charset (their codes, [`super::NONE`] without a filter;
//! the variant [`super::CHEAP`] for a filter of the cheap hash, which is not probed),
//! confirmed (0/1), indexed (0, 1, or [`super::NONE`] when the index cannot tell: not read, or
//! not among the series listed before the walk's error), k, the number of other hashes — then
//! k seed probes ([`SEED_FIELDS`]), then per other hash [`OTHER_FIELDS`] and its k seed probes;
//! last, the reason ([`REASON_FIELDS`]: the template of its words and the values that fill it,
//! which js/reasons.js fills).
//!
//! A filter probe ([`filter_probe`], `BloomFilter#probe`): [`FILTER_FIELDS`] (verdict, k), then
//! k seed probes.

use crate::error::Result;
use crate::filter::{BloomFilter, SeedProbe, MAXIMAL_HASH_FUNCTION_SIZE};
use crate::hash::TailVariant;
use crate::probe::FileProbe;
use crate::tsfile::words::Phrase;
use crate::verdict::{FileVerdict, Listed, Reason};

use super::{charset_code, filter_verdict_code, variant_code, verdict_code, CHEAP, NONE};

/// The fields a file probe's record starts with.
pub const FILE_FIELDS: [&str; 7] = ["verdict", "variant", "charset", "confirmed", "indexed", "k", "others"];
/// The fields a filter probe's record starts with.
pub const FILTER_FIELDS: [&str; 2] = ["verdict", "k"];
/// One seed's probe.
pub const SEED_FIELDS: [&str; 4] = ["seed", "hash32", "bit", "set"];
/// What precedes each other candidate's seed probes.
pub const OTHER_FIELDS: [&str; 3] = ["variant", "charset", "verdict"];
/// The reason at a file probe's end ([`Reason::phrase`]), as js/reasons.js fills its template:
/// the template's code, the code of what the index says ([`crate::tsfile::words::Text`]), the hash used
/// (its charset [`NONE`] where the words name the variant alone), the other hash, the clear
/// seeds' first text, mask and last text, the count.
pub const REASON_FIELDS: [&str; 10] = [
    "template",
    "listed",
    "usedVariant",
    "usedCharset",
    "otherVariant",
    "otherCharset",
    "seedsFirst",
    "seedsClear",
    "seedsLast",
    "count",
];

/// [`REASON_FIELDS`]' numbers of a phrase.
pub fn reason(p: &Phrase) -> [i32; 10] {
    let (first, clear, last) = p.seeds;
    [
        p.template as i32,
        p.listed as i32,
        variant_code(p.used.0),
        p.used.1.map_or(NONE, charset_code),
        variant_code(p.other.0),
        charset_code(p.other.1),
        first as i32,
        i32::from(clear),
        last as i32,
        p.count as i32,
    ]
}

/// The longest record: 7 + 8·4 numbers, 24 other candidates (2 variants × 12 charsets) of
/// 3 + 8·4, and the reason's 10, rounded up. A record area this large never grows.
pub const CAPACITY: usize = 1024;

/// The one record JS reads in place: reserved at [`CAPACITY`] before each write, so that it
/// never moves while it is read.
#[derive(Default)]
pub struct Area(Vec<i32>);

impl Area {
    /// An empty area (`const`: the bindings keep one in a `static`).
    pub const fn new() -> Area {
        Area(Vec::new())
    }

    /// Where the record starts.
    pub fn as_ptr(&self) -> *const i32 {
        self.0.as_ptr()
    }

    /// Replaces the record by what `f` appends: its address.
    pub fn write(&mut self, f: impl FnOnce(&mut Vec<i32>) -> Result<()>) -> Result<u32> {
        self.0.clear();
        self.0.reserve(CAPACITY);
        f(&mut self.0)?;
        Ok(self.0.as_ptr() as u32)
    }
}

fn push_seeds(out: &mut Vec<i32>, probes: &[SeedProbe]) {
    for s in probes {
        out.extend_from_slice(&[s.seed as i32, s.hash32, s.bit as i32, i32::from(s.set)]);
    }
}

/// Appends a file probe's record: `probe` is None when the file's filter was not probed (verdict
/// unknown), and `unprobed` then says why ([`Reason::NoFilter`], or [`Reason::CheapHash`]: the
/// variant is then [`CHEAP`]); `listed`, what the index says of the path; `has_audit`, whether
/// the file has an audit ([`Reason::phrase`]).
pub fn file_probe(
    out: &mut Vec<i32>,
    listed: Listed,
    has_audit: bool,
    probe: Option<&(FileProbe, Reason)>,
    unprobed: Reason,
) {
    let indexed = listed.indexed().map_or(NONE, i32::from);
    let Some((p, reason)) = probe else {
        let variant = if unprobed == Reason::CheapHash { CHEAP } else { NONE };
        out.extend_from_slice(&[verdict_code(FileVerdict::Unknown), variant, NONE, 0, indexed, 0, 0]);
        push_reason(out, &unprobed, listed, has_audit);
        return;
    };
    out.extend_from_slice(&[
        verdict_code(p.verdict),
        variant_code(p.variant),
        charset_code(p.charset),
        i32::from(p.confirmed),
        indexed,
        p.probe.probes.len() as i32,
        p.others.len() as i32,
    ]);
    push_seeds(out, &p.probe.probes);
    for (v, cs, o) in &p.others {
        out.extend_from_slice(&[variant_code(*v), charset_code(*cs), filter_verdict_code(o.verdict)]);
        push_seeds(out, &o.probes);
    }
    push_reason(out, reason, listed, has_audit);
}

fn push_reason(out: &mut Vec<i32>, reason: &Reason, listed: Listed, has_audit: bool) {
    out.extend_from_slice(&self::reason(&reason.phrase(listed, has_audit)));
}

/// Appends the record of `f`'s probe of `key`: its verdict and k, then each seed's probe, from
/// [`BloomFilter::probe_into`] on the stack (allocating a [`Probe`](crate::Probe) for it was a
/// quarter of a single probe's time).
pub fn filter_probe(out: &mut Vec<i32>, f: &BloomFilter, key: &[u8], variant: TailVariant) {
    let mut probes = [SeedProbe::NONE; MAXIMAL_HASH_FUNCTION_SIZE as usize];
    let probes = &mut probes[..f.hash_function_count() as usize];
    let verdict = f.probe_into(key, variant, probes);
    out.extend_from_slice(&[filter_verdict_code(verdict), probes.len() as i32]);
    push_seeds(out, probes);
}

//! A single probe's result as a record of numbers (i32), which JS reads in place from wasm
//! memory, its reason's sentence returned beside it as a string: a TsFile#probe crossed as an
//! object built field by field (serde-wasm-bindgen) measured 8.3 µs, as JSON text 13 µs, this
//! record ~1.5 µs (BENCHMARKS.md, "Boundary"). js/wire.js decodes both records.
//!
//! A file probe ([`file_probe`], `TsFile#probe`): the fields [`FILE_FIELDS`] — verdict
//! ([`FileVerdict::code`]), variant and charset (their codes, [`super::NONE`] without a filter;
//! the variant [`super::CHEAP`] for a filter of the cheap hash, which is not probed),
//! confirmed (0/1), indexed (0, 1, or [`super::NONE`] when the index cannot tell: not read, or
//! not among the series listed before the walk's error), k, the number of other hashes, the
//! decision ([`Decision::code`], [`Decision::of`] the verdict and `indexed`) — then
//! k seed probes ([`SEED_FIELDS`]), then per other hash [`OTHER_FIELDS`] and its k seed probes.
//!
//! A filter probe ([`filter_probe`], `BloomFilter#probe`): [`FILTER_FIELDS`] (verdict, k), then
//! k seed probes.

use crate::error::Result;
use crate::filter::{BloomFilter, SeedProbe, MAXIMAL_HASH_FUNCTION_SIZE};
use crate::hash::TailVariant;
use crate::probe::FileProbe;
use crate::verdict::{Decision, FileVerdict, Listed};

use super::{variant_code, CHEAP, NONE};

/// The fields a file probe's record starts with.
pub const FILE_FIELDS: [&str; 8] = ["verdict", "variant", "charset", "confirmed", "indexed", "k", "others", "decision"];
/// The fields a filter probe's record starts with.
pub const FILTER_FIELDS: [&str; 2] = ["verdict", "k"];
/// One seed's probe.
pub const SEED_FIELDS: [&str; 4] = ["seed", "hash32", "bit", "set"];
/// What precedes each other candidate's seed probes.
pub const OTHER_FIELDS: [&str; 3] = ["variant", "charset", "verdict"];
/// The longest record: 8 + 8·4 numbers and 24 other candidates (2 variants × 12 charsets) of
/// 3 + 8·4, rounded up. A record area this large never grows.
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

    /// Replaces the record by what `f` appends (at [`Area::as_ptr`]); returns what `f` answers.
    pub fn write<R>(&mut self, f: impl FnOnce(&mut Vec<i32>) -> Result<R>) -> Result<R> {
        self.0.clear();
        self.0.reserve(CAPACITY);
        f(&mut self.0)
    }
}

fn push_seeds(out: &mut Vec<i32>, probes: &[SeedProbe]) {
    for s in probes {
        out.extend_from_slice(&[s.seed as i32, s.hash32, s.bit as i32, i32::from(s.set)]);
    }
}

/// Appends a file probe's record: `probe` is None when the file's filter was not probed (verdict
/// unknown; the variant [`CHEAP`] for a filter of the cheap hash); `listed`, what the index says
/// of the path.
pub fn file_probe(out: &mut Vec<i32>, listed: Listed, probe: Option<&FileProbe>, cheap: bool) {
    let indexed = listed.indexed().map_or(NONE, i32::from);
    let Some(p) = probe else {
        let variant = if cheap { CHEAP } else { NONE };
        let decision = Decision::of(FileVerdict::Unknown, listed).code();
        out.extend_from_slice(&[FileVerdict::Unknown.code(), variant, NONE, 0, indexed, 0, 0, decision]);
        return;
    };
    out.extend_from_slice(&[
        p.verdict.code(),
        variant_code(p.variant),
        p.charset.code(),
        i32::from(p.confirmed),
        indexed,
        p.probe.probes.len() as i32,
        p.others.len() as i32,
        Decision::of(p.verdict, listed).code(),
    ]);
    push_seeds(out, &p.probe.probes);
    for (v, cs, o) in &p.others {
        out.extend_from_slice(&[variant_code(*v), cs.code(), o.verdict.code()]);
        push_seeds(out, &o.probes);
    }
}

/// Appends the record of `f`'s probe of `key`: its verdict and k, then each seed's probe, from
/// [`BloomFilter::probe_into`] on the stack (allocating a [`Probe`](crate::Probe) for it was a
/// quarter of a single probe's time).
pub fn filter_probe(out: &mut Vec<i32>, f: &BloomFilter, key: &[u8], variant: TailVariant) {
    let mut probes = [SeedProbe::NONE; MAXIMAL_HASH_FUNCTION_SIZE as usize];
    let probes = &mut probes[..f.hash_function_count() as usize];
    let verdict = f.probe_into(key, variant, probes);
    out.extend_from_slice(&[verdict.code(), probes.len() as i32]);
    push_seeds(out, probes);
}

//! The teaching panel's module (`dist/web/teach`, scripts/build.sh): the teach crate's
//! calculator, step-through, intervals and lesson demonstrations (which one runs with which
//! parameters is `teach::plan`'s) as `#[wasm_bindgen]` exports. Page-only: loaded by the
//! teaching panel's worker ops (www/worker/teach-ops.js), not shipped in the npm package.
//! Converters only; keys arrive back to back in one byte array with their end offsets (so
//! any charset's bytes pass unchanged).
#![cfg(target_arch = "wasm32")]

use teach::lesson;
use teach::model::Bits;
use teach::plan::{self, OpenFile, Request, Sandbox, SandboxMode};
use teach::trace::{self, Op};
use teach::{read_path, CalcInput};
use tsfile_bloom::error::Error;
use tsfile_bloom::hash::TailVariant;
use tsfile_bloom::leveldb::LevelDbTable;
use wasm_bindgen::prelude::*;
use wasm_common::{js_error, to_js};

type JsResult = Result<JsValue, JsValue>;

fn err(e: Error) -> JsValue {
    js_error(&e)
}

fn variant(name: &str) -> Result<TailVariant, JsValue> {
    tsfile_bloom::hash::variant_named(name).map_err(err)
}

fn op(name: &str) -> Result<Op, JsValue> {
    Op::named(name).map_err(err)
}

/// Solves the calculator for its one empty box (`undefined` for empty): `Solution`.
#[wasm_bindgen]
pub fn calc(n: Option<f64>, p: Option<f64>, m: Option<f64>, k: Option<f64>, bits_per_key: Option<f64>) -> JsResult {
    to_js(&teach::solve(CalcInput { n, p, m, k, bits_per_key }).map_err(err)?)
}

/// The formula for n keys in m bits with k hashes (`curve`: at every k in 1..=32 too): `Point`.
#[wasm_bindgen]
pub fn formula(n: f64, m: u32, k: u32, curve: bool) -> JsResult {
    to_js(&teach::calc::point(n, m, k, curve))
}

/// `hits` of `trials` with its 95 % Wilson interval: `{hits, trials, rate, low, high}`.
#[wasm_bindgen]
pub fn wilson(hits: f64, trials: f64) -> JsResult {
    to_js(&teach::wilson(hits.max(0.0) as u64, trials.max(0.0) as u64))
}

/// Steps `key` through a TsFile filter (`bits` LSB-first, m, k, tail variant): `Trace`.
#[wasm_bindgen(js_name = traceTsFile)]
pub fn trace_tsfile(op_name: &str, key: &[u8], bits: &[u8], m: u32, k: u32, v: &str) -> JsResult {
    to_js(&trace::tsfile(op(op_name)?, key, bits, m, k, variant(v)?).map_err(err)?)
}

/// Steps `key` through a LevelDB filter (`bits`: the array without its k byte): `Trace`.
#[wasm_bindgen(js_name = traceLevelDb)]
pub fn trace_leveldb(op_name: &str, key: &[u8], bits: &[u8], m: u32, k: u32) -> JsResult {
    to_js(&trace::leveldb(op(op_name)?, key, bits, m, k).map_err(err)?)
}

/// The sandbox's design-n chart and warning: `Overfill`.
#[wasm_bindgen]
pub fn overfill(m: u32, k: u32, design: u32, now: u32) -> JsResult {
    to_js(&lesson::overfill(m, k, design as u64, now as u64).map_err(err)?)
}

/// Claim `claim`'s demonstration as the lesson plans it (`plan::run`): on `file` when given
/// (consumed), else on the sandbox's paths (`keys`/`ends`, UTF-8; its `mode`, `m`, `k`) or
/// generated keys. `plannedN`, `victim` (negative: none) and `windowKeys` may be `undefined`.
/// `Shown`: the demonstration's fields with `source`, `label` (claim 10) and `seed`.
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn claim(
    claim: u32,
    seed: u32,
    file: Option<TeachFile>,
    keys: &[u8],
    ends: &[u32],
    mode: &str,
    m: u32,
    k: u32,
    planned_n: Option<f64>,
    victim: Option<i32>,
    window_keys: Option<f64>,
) -> JsResult {
    let sandbox = Sandbox {
        keys: tsfile_bloom::staged::key_list(keys, ends).map_err(err)?,
        mode: SandboxMode::named(mode).map_err(err)?,
        m,
        k,
    };
    let request = Request {
        claim,
        seed,
        file: file.as_ref().map(|f| &f.0),
        sandbox: Some(&sandbox),
        planned_n: planned_n.map(|n| n as u64),
        victim: victim.and_then(|v| usize::try_from(v).ok()),
        window_keys: window_keys.map(|w| w.round() as u64),
    };
    // The object `Shown` serializes to (its two flattened halves, crates/teach/tests/teach_plan.rs), merged
    // here: serde's flatten through serde-wasm-bindgen costs 589 B gzipped more.
    let shown = plan::run(&request).map_err(err)?;
    let out = to_js(&shown.measured)?;
    js_sys::Object::assign(out.unchecked_ref::<js_sys::Object>(), to_js(&shown.origin)?.unchecked_ref());
    Ok(out)
}

/// The sandbox's geometry until the page sets one: `{m, k, bitsPerKey}`.
#[wasm_bindgen(js_name = sandboxDefaults)]
pub fn sandbox_defaults() -> JsResult {
    to_js(&plan::SANDBOX_DEFAULTS)
}

/// The claims that run on the open file when one is given (`plan::ON_FILE`): `number[]`.
#[wasm_bindgen(js_name = claimsOnFile)]
pub fn claims_on_file() -> JsResult {
    to_js(&plan::ON_FILE)
}

/// The demo filter's paths, the sandbox's first keys: `string[]`.
#[wasm_bindgen(js_name = demoPaths)]
pub fn demo_paths() -> JsResult {
    to_js(&plan::demo_paths())
}

/// The open file for the demonstrations that may run on it (`plan::OpenFile`): its listed
/// paths in the writer's charset, its filter's bits, m, k and tail variant.
#[wasm_bindgen]
pub struct TeachFile(OpenFile);

#[wasm_bindgen]
impl TeachFile {
    #[wasm_bindgen(constructor)]
    pub fn new(keys: Vec<u8>, ends: Vec<u32>, bits: Vec<u8>, m: u32, k: u32, v: &str) -> Result<TeachFile, JsValue> {
        Ok(TeachFile(OpenFile { keys, ends, bits, m, k, variant: variant(v)? }))
    }
}

/// A LevelDB table held for the read-path and range-scan demonstrations (claims 6 and 7).
#[wasm_bindgen]
pub struct TeachTable {
    bytes: Vec<u8>,
    table: LevelDbTable,
}

#[wasm_bindgen]
impl TeachTable {
    pub fn open(bytes: Vec<u8>) -> Result<TeachTable, JsValue> {
        let table = LevelDbTable::open(&bytes[..]).map_err(err)?;
        Ok(TeachTable { bytes, table })
    }

    /// `TableSummary`.
    pub fn summary(&self) -> JsResult {
        to_js(&read_path::TableSummary::of(&self.table))
    }

    /// A point lookup's read path: `PointRead`.
    pub fn read(&self, key: &[u8]) -> JsResult {
        to_js(&read_path::point_read(&self.table, &self.bytes[..], key).map_err(err)?)
    }

    /// A present key, an absent key the filter stops and a false positive: `Examples`.
    pub fn examples(&self, tries: u32) -> JsResult {
        to_js(&read_path::examples(&self.table, &self.bytes[..], tries as u64).map_err(err)?)
    }

    /// A range scan `[lo, hi]`: `RangeScan`.
    pub fn range(&self, lo: &[u8], hi: &[u8]) -> JsResult {
        to_js(&read_path::range_scan(&self.table, &self.bytes[..], lo, hi).map_err(err)?)
    }
}

/// Whether the two tail variants can hash `key` differently (`hash::variants_can_differ`: a
/// byte of its `len mod 16` tail is >= 0x80).
#[wasm_bindgen(js_name = variantsCanDiffer)]
pub fn variants_can_differ(key: &[u8]) -> bool {
    tsfile_bloom::hash::variants_can_differ(key)
}

/// The fill of a filter's bits (LSB-first, ⌈m/8⌉ bytes) of `m` bits and `k` probes per key:
/// `{setBits, fill, fppFromFill}`.
#[wasm_bindgen]
pub fn fill(bits: &[u8], m: u32, k: u32) -> JsResult {
    to_js(&teach::model::Fill::of(&Bits::from_bytes(bits, m), k))
}

/// `model::leveldb_bits`.
#[wasm_bindgen(js_name = levelDbBits)]
pub fn leveldb_bits(keys: &[u8], ends: &[u32], m: u32, k: u32) -> Result<Vec<u8>, JsValue> {
    teach::model::leveldb_bits(&tsfile_bloom::staged::key_list(keys, ends).map_err(err)?, m, k).map_err(err)
}

//! The teaching module's `#[wasm_bindgen]` surface (feature `wasm-teach`): the calculator,
//! the step-through, intervals and the lesson's demonstrations (`crate::teach`). Page-only:
//! loaded by the teaching panel's worker ops (www/worker/teach-ops.js), not shipped in the npm package.
//! Converters only; keys arrive back to back in one byte array with their end offsets (so
//! any charset's bytes pass unchanged).

use super::common::{js_error, to_js};
use crate::error::Error;
use crate::hash::TailVariant;
use crate::leveldb::LevelDbTable;
use crate::teach::lesson::{self, Given, OpenFile};
use crate::teach::model::{Bits, Hashing, Model};
use crate::teach::trace::{self, Op};
use crate::teach::{counting, read_path, CalcInput};
use wasm_bindgen::prelude::*;

type JsResult = Result<JsValue, JsValue>;

fn err(e: Error) -> JsValue {
    js_error(&e)
}

fn given<'a>(keys: &'a [u8], ends: &[u32], label: &str) -> Result<Option<Given<'a>>, JsValue> {
    Given::staged(keys, ends, label).map_err(err)
}

fn variant(name: &str) -> Result<TailVariant, JsValue> {
    crate::hash::variant_named(name).map_err(err)
}

fn op(name: &str) -> Result<Op, JsValue> {
    Op::named(name).map_err(err)
}

/// Solves the calculator for its one empty box (`undefined` for empty): `Solution`.
#[wasm_bindgen]
pub fn calc(n: Option<f64>, p: Option<f64>, m: Option<f64>, k: Option<f64>, bits_per_key: Option<f64>) -> JsResult {
    to_js(&crate::teach::solve(CalcInput { n, p, m, k, bits_per_key }).map_err(err)?)
}

/// The formula for n keys in m bits with k hashes (`curve`: at every k in 1..=32 too): `Point`.
#[wasm_bindgen]
pub fn formula(n: f64, m: u32, k: u32, curve: bool) -> JsResult {
    to_js(&crate::teach::calc::point(n, m, k, curve))
}

/// `hits` of `trials` with its 95 % Wilson interval: `{hits, trials, rate, low, high}`.
#[wasm_bindgen]
pub fn wilson(hits: f64, trials: f64) -> JsResult {
    to_js(&crate::teach::wilson(hits.max(0.0) as u64, trials.max(0.0) as u64))
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

/// Claim 2 over the given keys (none: `n` generated paths) in `m` bits.
#[wasm_bindgen]
pub fn claim2(m: u32, n: u32, keys: &[u8], ends: &[u32], label: &str, probes: u32, seed: u32) -> JsResult {
    let g = given(keys, ends, label)?;
    to_js(&lesson::claim2(m, n as u64, g.as_ref(), probes as u64, seed as u64).map_err(err)?)
}

/// Claim 3; `fileN/fileM/fileK` (fileM 0: none) add the open file's row.
#[wasm_bindgen]
pub fn claim3(n: u32, probes: u32, seed: u32, file_n: f64, file_m: u32, file_k: u32) -> JsResult {
    let file = (file_m > 0 && file_n > 0.0).then_some((file_n, file_m, file_k));
    to_js(&lesson::claim3(n as u64, probes as u64, seed as u64, file).map_err(err)?)
}

/// Claim 5 at `bitsPerKey` and `k`, one row pair per size in `sizes`.
#[wasm_bindgen]
pub fn claim5(bits_per_key: u32, k: u32, sizes: &[u32], filters: u32, probes: u32, seed: u32) -> JsResult {
    let sizes: Vec<u64> = sizes.iter().map(|&s| s as u64).collect();
    to_js(&lesson::claim5(bits_per_key, k, &sizes, filters, probes as u64, seed as u64).map_err(err)?)
}

/// Claim 7's `bits_per_key = 0` measurement.
#[wasm_bindgen(js_name = claim7ZeroBits)]
pub fn claim7_zero_bits(window_keys: u32, probes: u32, seed: u32) -> JsResult {
    to_js(&lesson::claim7_zero_bits(window_keys as u64, probes as u64, seed as u64).map_err(err)?)
}

/// Claim 10: removes key `victim` (-1: the first whose removal hurts another) from a standard
/// and a counting filter over `keys` (TsFile hashing, m, k, variant).
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn deletion(keys: &[u8], ends: &[u32], m: u32, k: u32, v: &str, victim: i32, trials: u32) -> JsResult {
    let keys = crate::bytes::key_list(keys, ends).map_err(err)?;
    let model = Model::new(Hashing::TsFile(variant(v)?), m, k).map_err(err)?;
    let victim = (victim >= 0).then_some(victim as usize);
    to_js(&counting::deletion(&keys, model, victim, trials as usize).map_err(err)?)
}

/// Claim 11.
#[wasm_bindgen]
pub fn claim11(files: u32, per_file: u32, lookups: u32, seed: u32) -> JsResult {
    to_js(&lesson::claim11(files, per_file as u64, lookups as u64, seed as u64).map_err(err)?)
}

/// The open file for the demonstrations that may run on it (`lesson::OpenFile`); without
/// keys, none: the claims then run on generated keys.
#[wasm_bindgen]
pub struct TeachFile(OpenFile);

#[wasm_bindgen]
impl TeachFile {
    #[wasm_bindgen(constructor)]
    pub fn new(
        keys: Vec<u8>,
        ends: Vec<u32>,
        label: String,
        bits: Vec<u8>,
        m: u32,
        k: u32,
        v: &str,
    ) -> Result<TeachFile, JsValue> {
        Ok(TeachFile(OpenFile { keys, ends, label, bits, m, k, variant: variant(v)? }))
    }

    /// Claim 4; with keys, also the open file's listed paths against its bits.
    pub fn claim4(&self, n: u32, probes: u32, seed: u32) -> JsResult {
        self.with(|f| lesson::claim4(f, n as u64, probes as u64, seed as u64))
    }

    /// Claim 8; with keys, on a copy of the open file's bits.
    pub fn claim8(&self, design: u32, factors: &[f64], probes: u32, seed: u32) -> JsResult {
        self.with(|f| lesson::claim8(design as u64, factors, probes as u64, seed as u64, f))
    }

    /// Claim 9; with keys, the open file's filter and its listed paths as the present lookups.
    pub fn claim9(&self, n: u32, lookups: u32, shares: &[f64], seed: u32) -> JsResult {
        self.with(|f| lesson::claim9(n as u64, lookups as u64, shares, seed as u64, f))
    }

    /// Claim 13; with keys, the open file's own filter too.
    pub fn claim13(&self, n: u32, filters: u32, probes: u32, seed: u32) -> JsResult {
        self.with(|f| lesson::claim13(n as u64, filters, probes as u64, seed as u64, f))
    }
}

impl TeachFile {
    fn with<T: serde::Serialize>(
        &self,
        claim: impl FnOnce(Option<(&Given, &Bits, Model)>) -> crate::Result<T>,
    ) -> JsResult {
        let file = self.0.given().map_err(err)?;
        to_js(&claim(file.as_ref().map(|(g, b, model)| (g, b, *model))).map_err(err)?)
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
    crate::hash::variants_can_differ(key)
}

/// The fill of a filter's bits (LSB-first, ⌈m/8⌉ bytes) of `m` bits and `k` probes per key:
/// `{setBits, fill, fppFromFill}`.
#[wasm_bindgen]
pub fn fill(bits: &[u8], m: u32, k: u32) -> JsResult {
    to_js(&crate::teach::model::Fill::of(&Bits::from_bytes(bits, m), k))
}

/// `model::leveldb_bits`.
#[wasm_bindgen(js_name = levelDbBits)]
pub fn leveldb_bits(keys: &[u8], ends: &[u32], m: u32, k: u32) -> Result<Vec<u8>, JsValue> {
    crate::teach::model::leveldb_bits(&crate::bytes::key_list(keys, ends).map_err(err)?, m, k).map_err(err)
}

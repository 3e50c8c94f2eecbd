//! The TsFile module's `#[wasm_bindgen]` surface for a file (the hash's and the filter's are in
//! filter.rs): converters only. Every answer comes from the core's [`TsFileReader`] and crosses
//! as its `Serialize` type through [`to_js`] (js/index.d.ts declares each shape), or — the hot
//! paths — in the core's numeric layouts ([`crate::tsfile::wire`]: the listing's columns, probe
//! records, the fast scan's figures), which js/wire.js decodes. Variants and charsets cross as
//! their wire codes (`-1`: automatic).

use super::common::{for_each_staged, js, js_error, staged, to_js};
use super::filter::{to_charset, write_record, WasmBloomFilter};
use crate::encoder::{CharsetModule, WithModule};
use crate::path::Charset;
use crate::tsfile::wire::{self, listing, record, scan::TailScan};
use crate::tsfile::{audit::FileVerdict, Envelope, TsFileReader};
use wasm_bindgen::prelude::*;

// The JS side fetches byte ranges (Blob.slice, positional reads) and hands them over;
// parsing and every decision happen in the core's TsFileReader.

/// Step 1: from the file size, its first bytes and its last 10, where TsFileMetadata is:
/// `[version, metadataOffset, metadataSize]`.
#[wasm_bindgen(js_name = tsfileEnvelope)]
pub fn tsfile_envelope(file_size: f64, head: &[u8], tail: &[u8]) -> Result<Vec<f64>, JsValue> {
    let env = js(Envelope::from_parts(file_size as u64, head, tail))?;
    Ok(vec![env.version as f64, env.metadata_offset as f64, env.metadata_size as f64])
}

/// Fleet scans, one call per file (`wire::scan`): from the head and the tail window (the
/// file's last `window.len()` bytes), the figures and the verdicts of the `count` staged paths.
/// Empty when TsFileMetadata lies outside the window; errors as `open`'s.
#[wasm_bindgen(js_name = scanTail)]
pub fn scan_tail(file_size: f64, head: &[u8], window: &[u8], count: usize) -> Result<Vec<f64>, JsValue> {
    let Some(mut scan) = js(TailScan::read(file_size as u64, head, window))? else { return Ok(Vec::new()) };
    let encoder: JsEncoder = WithModule(None);
    for_each_staged(count, |key| js(scan.push_verdict(key, &encoder)))?;
    Ok(scan.into_figures())
}

#[wasm_bindgen]
pub struct WasmTsFile {
    reader: TsFileReader<JsEncoder>,
}

/// The charsets module's `(utf8Bytes, charsetName) → Uint8Array`, which JS hands over once it is
/// loaded (`encoder::WithModule` decides what reaches it).
struct JsCharsets(js_sys::Function);

impl CharsetModule for JsCharsets {
    fn encode(&self, utf8: &[u8], cs: Charset) -> Option<Vec<u8>> {
        let bytes = self.0.call2(&JsValue::NULL, &js_sys::Uint8Array::from(utf8), &JsValue::from_str(cs.as_str()));
        Some(js_sys::Uint8Array::new(&bytes.ok()?).to_vec())
    }
}

type JsEncoder = WithModule<JsCharsets>;

#[wasm_bindgen]
impl WasmTsFile {
    /// Step 2: parse TsFileMetadata from its bytes.
    pub fn open(file_size: f64, head: &[u8], tail: &[u8], metadata: &[u8]) -> Result<WasmTsFile, JsValue> {
        Ok(WasmTsFile {
            reader: js(TsFileReader::from_parts(file_size as u64, head, tail, metadata, WithModule(None)))?,
        })
    }

    #[wasm_bindgen(getter)]
    pub fn version(&self) -> u8 {
        self.reader.metadata().envelope.version
    }

    /// `[offset, length]` of the index region that `attachIndex` needs.
    #[wasm_bindgen(js_name = indexRange)]
    pub fn index_range(&self) -> Vec<f64> {
        let (o, n) = self.reader.index_range();
        vec![o as f64, n as f64]
    }

    /// Step 3: walk the index region and audit the filter against it. Returns the
    /// error that stopped the walk (partial series are kept), or null.
    #[wasm_bindgen(js_name = attachIndex)]
    pub fn attach_index(&mut self, region: &[u8]) -> JsValue {
        self.reader.attach_index(region).map(js_error).unwrap_or(JsValue::NULL)
    }

    /// Hands over the charsets module's encoder; returns whether the file was audited again.
    #[wasm_bindgen(js_name = setEncoder)]
    pub fn set_encoder(&mut self, encode: js_sys::Function) -> bool {
        self.reader.set_encoder(WithModule(Some(JsCharsets(encode))))
    }

    /// The decoded filter (a copy), or undefined.
    #[wasm_bindgen(js_name = bloomFilter)]
    pub fn bloom_filter(&self) -> Option<WasmBloomFilter> {
        self.reader.filter().cloned().map(|inner| WasmBloomFilter { inner })
    }

    /// `FileInfo`: metadata, filter info, properties, schemas, warnings, audit, index error.
    pub fn info(&self) -> Result<JsValue, JsValue> {
        to_js(&self.reader.file_info())
    }

    /// The listing as columns (`wire::listing`): `[text, bounds, numbers]`.
    #[wasm_bindgen(js_name = listingColumns)]
    pub fn listing_columns(&self) -> js_sys::Array {
        let c = listing::columns(&self.reader);
        let out = js_sys::Array::new();
        out.push(&js_sys::Uint8Array::from(&c.text[..]));
        out.push(&js_sys::Uint32Array::from(&c.bounds[..]));
        out.push(&js_sys::Uint32Array::from(&c.numbers[..]));
        out
    }

    /// The keys the writer inserted under a hypothesis (for per-bit provenance): the series,
    /// then the time columns when `timeColumns`, joined as the writer joins them and encoded in
    /// the charset: `[bytes, ends, seriesCount]`.
    #[wasm_bindgen(js_name = writerKeys)]
    pub fn writer_keys(
        &self,
        time_columns: bool,
        trailing_nulls_kept: bool,
        charset: i32,
    ) -> Result<js_sys::Array, JsValue> {
        let (bytes, ends, series) = self.reader.writer_keys(time_columns, trailing_nulls_kept, to_charset(charset)?);
        let out = js_sys::Array::new();
        out.push(&js_sys::Uint8Array::from(&bytes[..]));
        out.push(&js_sys::Uint32Array::from(&ends[..]));
        out.push(&JsValue::from_f64(series as f64));
        Ok(out)
    }

    /// Probes one path (UTF-8 bytes as stored in the index) with the file's soundness rules
    /// into the probe record (`wire::record::file_probe`), and returns the record's address.
    /// The path is the first `len` bytes of the key area (`keyArea`).
    pub fn probe(&self, len: usize, variant: i32, charset: i32) -> Result<u32, JsValue> {
        let (v, cs) = (js(wire::variant_of(variant))?, js(wire::charset_of(charset))?);
        let (listed, p) = staged(|s| {
            let path = js(s.key(len))?;
            Ok((self.reader.listed(path), js(self.reader.probe_filter_reasoned(path, v, cs))?))
        })?;
        Ok(write_record(|r| record::file_probe(r, listed, p.as_ref())))
    }

    /// Verdict codes for the `count` UTF-8 paths staged with `stageKeys`, one byte each
    /// (no filter: unknown). Arguments as for [`WasmTsFile::probe`].
    #[wasm_bindgen(js_name = probeStaged)]
    pub fn probe_staged(&self, count: usize, variant: i32, charset: i32) -> Result<Vec<u8>, JsValue> {
        self.verdicts(count, variant, charset, |v| wire::verdict_code(v) as u8)
    }

    /// For the `count` UTF-8 paths staged with `stageKeys`: 0 where `probe` says absent,
    /// else 1 (maybe or unknown). Arguments as for [`WasmTsFile::probe`].
    #[wasm_bindgen(js_name = mightContainStaged)]
    pub fn might_contain_staged(&self, count: usize, variant: i32, charset: i32) -> Result<Vec<u8>, JsValue> {
        self.verdicts(count, variant, charset, |v| u8::from(v != FileVerdict::Absent))
    }
}

impl WasmTsFile {
    fn verdicts(
        &self,
        count: usize,
        variant: i32,
        charset: i32,
        byte: impl Fn(FileVerdict) -> u8,
    ) -> Result<Vec<u8>, JsValue> {
        let rule = self.reader.verdict_rule(js(wire::variant_of(variant))?, js(wire::charset_of(charset))?);
        let mut out = Vec::with_capacity(staged(|s| Ok(s.count()))?.min(count));
        for_each_staged(count, |key| {
            // No filter: "unknown", so the file may contain the path.
            out.push(byte(js(self.reader.verdict(&rule, key))?.unwrap_or(FileVerdict::Unknown)));
            Ok(())
        })?;
        Ok(out)
    }
}

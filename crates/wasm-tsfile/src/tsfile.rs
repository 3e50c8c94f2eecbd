//! The TsFile module's `#[wasm_bindgen]` surface for a file (the hash's and the filter's are in
//! filter.rs): converters of the core's [`TsFileReader`]. Answers cross as its `Serialize`
//! types through [`to_js`], or — where volume needs it — in
//! [`tsfile_bloom::tsfile::wire`]'s packed layouts, which js/wire.js decodes. The JS side fetches the byte
//! ranges (Blob.slice, positional reads) and hands them over.

use crate::encoder::{JsCharsets, JsEncoder};
use crate::filter::WasmBloomFilter;
use crate::stage::write_record;
use tsfile_bloom::encoder::WithModule;
use tsfile_bloom::tsfile::wire::{self, batch, listing};
use tsfile_bloom::tsfile::{Envelope, TsFileReader};
use wasm_bindgen::prelude::*;
use wasm_common::stage::staged;
use wasm_common::{js, js_error, to_js};

/// Step 1: from the file size, its first bytes and its last 10, where TsFileMetadata is:
/// `[version, metadataOffset, metadataSize]`.
#[wasm_bindgen(js_name = tsfileEnvelope)]
pub fn tsfile_envelope(file_size: f64, head: &[u8], tail: &[u8]) -> Result<Vec<f64>, JsValue> {
    let env = js(Envelope::from_parts(file_size as u64, head, tail))?;
    Ok(vec![env.version as f64, env.metadata_offset as f64, env.metadata_size as f64])
}

/// Fleet scans, one call per file: `wire::batch::scan_figures` of the `count` staged paths.
#[wasm_bindgen(js_name = scanTail)]
pub fn scan_tail(file_size: f64, head: &[u8], window: &[u8], count: usize) -> Result<Vec<f64>, JsValue> {
    staged(|s| batch::scan_figures(file_size as u64, head, window, s, count, &JsEncoder::default()))
}

#[wasm_bindgen]
pub struct WasmTsFile {
    reader: TsFileReader<JsEncoder>,
}

/// Paths are UTF-8 as stored in the index, variants and charsets their wire codes (`-1`:
/// automatic); batches are the `count` paths staged with `stageKeys`, a single path the key
/// area's first `len` bytes (`keyArea`).
#[wasm_bindgen]
impl WasmTsFile {
    /// Step 2: parse TsFileMetadata from its bytes.
    pub fn open(file_size: f64, head: &[u8], tail: &[u8], metadata: &[u8]) -> Result<WasmTsFile, JsValue> {
        let reader = js(TsFileReader::from_parts(file_size as u64, head, tail, metadata, JsEncoder::default()))?;
        Ok(WasmTsFile { reader })
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
        let (text, bounds, numbers) = (&c.text[..], &c.bounds[..], &c.numbers[..]);
        js_sys::Array::of3(
            &js_sys::Uint8Array::from(text),
            &js_sys::Uint32Array::from(bounds),
            &js_sys::Uint32Array::from(numbers),
        )
    }

    /// The keys the writer inserted under a hypothesis (for per-bit provenance): the series,
    /// then the time columns when `timeColumns`, joined as the writer joins them and encoded in
    /// the charset (automatic: UTF-8): `[bytes, ends, seriesCount]`.
    #[wasm_bindgen(js_name = writerKeys)]
    pub fn writer_keys(&self, time_columns: bool, nulls_kept: bool, charset: i32) -> Result<js_sys::Array, JsValue> {
        let (bytes, ends, series) =
            self.reader.writer_keys(time_columns, nulls_kept, js(wire::filter_charset(charset))?);
        let ends = js_sys::Uint32Array::from(&ends[..]);
        Ok(js_sys::Array::of3(&js_sys::Uint8Array::from(&bytes[..]), &ends, &(series as f64).into()))
    }

    /// One path with the file's soundness rules into the probe record (`wire::record::file_probe`):
    /// its reason's sentence.
    pub fn probe(&self, len: usize, variant: i32, charset: i32) -> Result<String, JsValue> {
        write_record(len, |r, path| batch::file_probe(r, &self.reader, path, variant, charset))
    }

    /// One verdict code per path, then with `decisions` a decision and an indexed code per path
    /// (`wire::batch::file_verdicts`).
    #[wasm_bindgen(js_name = probeStaged)]
    pub fn probe_staged(&self, count: usize, variant: i32, charset: i32, decisions: bool) -> Result<Vec<u8>, JsValue> {
        staged(|s| batch::file_verdicts(&self.reader, s, count, variant, charset, decisions))
    }
}

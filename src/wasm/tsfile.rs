//! The TsFile module's `#[wasm_bindgen]` surface for a file (the hash's and the filter's are in
//! filter.rs): converters only. Every answer comes from the core's [`TsFileReader`] and crosses
//! as its `Serialize` type through [`to_js`] (js/index.d.ts declares each shape), or — the hot
//! paths — in the core's numeric layouts ([`crate::tsfile::wire`]: the listing's columns, probe
//! records, the fast scan's figures), which js/wire.js decodes. Variants and charsets cross as
//! their wire codes (`-1`: automatic).

use super::common::{for_each_staged, js, js_error, staged_count, to_js, with_key};
use super::filter::{charset, write_record, WasmBloomFilter};
use crate::encoder::PathEncoder;
use crate::error::Error;
use crate::path::{transcode, Charset};
use crate::tsfile::wire::{self, listing, record, scan::TailScan};
use crate::tsfile::{audit::FileVerdict, parse_metadata, Envelope, TsFileReader};
use wasm_bindgen::prelude::*;

// The JS side fetches byte ranges (Blob.slice, positional reads) and hands them over;
// parsing and every decision happen in the core's TsFileReader.

fn envelope(file_size: f64, head: &[u8], tail: &[u8]) -> Result<Envelope, JsValue> {
    js(Envelope::from_parts(file_size as u64, head, tail))
}

/// Step 1: from the file size, its first bytes and its last 10, where TsFileMetadata is:
/// `[version, metadataOffset, metadataSize]`.
#[wasm_bindgen(js_name = tsfileEnvelope)]
pub fn tsfile_envelope(file_size: f64, head: &[u8], tail: &[u8]) -> Result<Vec<f64>, JsValue> {
    let env = envelope(file_size, head, tail)?;
    Ok(vec![env.version as f64, env.metadata_offset as f64, env.metadata_size as f64])
}

/// Fleet scans, one call per file (`wire::scan`): from the head and the tail window (the
/// file's last `window.len()` bytes), the figures and the verdicts of the `count` staged paths.
/// Empty when TsFileMetadata lies outside the window; errors as `open`'s.
#[wasm_bindgen(js_name = scanTail)]
pub fn scan_tail(file_size: f64, head: &[u8], window: &[u8], count: usize) -> Result<Vec<f64>, JsValue> {
    let Some(mut scan) = js(TailScan::read(file_size as u64, head, window))? else { return Ok(Vec::new()) };
    let encoder = JsEncoder(None);
    for_each_staged(count, |key| js(scan.push_verdict(key, &encoder)))?;
    Ok(scan.into_figures())
}

#[wasm_bindgen]
pub struct WasmTsFile {
    reader: TsFileReader<JsEncoder>,
}

/// The multi-byte JVM charsets live in the separately loaded charsets module; JS
/// hands over its `(utf8Bytes, charsetName) → Uint8Array` function once loaded.
/// Single-byte charsets and ASCII paths never cross.
struct JsEncoder(Option<js_sys::Function>);

impl PathEncoder for JsEncoder {
    fn has(&self, cs: Charset) -> bool {
        cs.is_available() || self.0.is_some()
    }
    fn encode<'a>(&self, utf8: &'a [u8], cs: Charset) -> crate::Result<std::borrow::Cow<'a, [u8]>> {
        if utf8.is_ascii() {
            return Ok(std::borrow::Cow::Borrowed(utf8)); // every JVM charset here is an ASCII superset
        }
        if cs.is_available() {
            return transcode(utf8, cs);
        }
        let Some(f) = &self.0 else {
            return Err(Error::invalid_argument(format!(
                "charset {} needs the charsets module: call await loadCharsets() first",
                cs.as_str()
            )));
        };
        let bytes = f.call2(&JsValue::NULL, &js_sys::Uint8Array::from(utf8), &JsValue::from_str(cs.as_str())).map_err(
            |_| Error::invalid_argument(format!("the charsets module could not encode a path in {}", cs.as_str())),
        )?;
        Ok(std::borrow::Cow::Owned(js_sys::Uint8Array::new(&bytes).to_vec()))
    }
}

#[wasm_bindgen]
impl WasmTsFile {
    /// Step 2: parse TsFileMetadata from its bytes.
    pub fn open(file_size: f64, head: &[u8], tail: &[u8], metadata: &[u8]) -> Result<WasmTsFile, JsValue> {
        let env = envelope(file_size, head, tail)?;
        if metadata.len() != env.metadata_size as usize {
            return Err(js_error(&Error::invalid_argument("metadata bytes do not match the envelope's size")));
        }
        let meta = js(parse_metadata(env, metadata))?;
        Ok(WasmTsFile { reader: TsFileReader::from_metadata(meta, JsEncoder(None)) })
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
        self.reader.set_encoder(JsEncoder(Some(encode)))
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
        charset_code: i32,
    ) -> Result<js_sys::Array, JsValue> {
        let (bytes, ends, series) = self.reader.writer_keys(time_columns, trailing_nulls_kept, charset(charset_code)?);
        let out = js_sys::Array::new();
        out.push(&js_sys::Uint8Array::from(&bytes[..]));
        out.push(&js_sys::Uint32Array::from(&ends[..]));
        out.push(&JsValue::from_f64(series as f64));
        Ok(out)
    }

    /// Probes one path (UTF-8 bytes as stored in the index) with the file's soundness rules
    /// into the probe record (`wire::record::file_probe`), and returns the record's address.
    /// The path is the first `len` bytes of the key area (`keyArea`).
    pub fn probe(&self, len: usize, variant_code: i32, charset_code: i32) -> Result<u32, JsValue> {
        let (v, cs) = (js(wire::variant_of(variant_code))?, js(wire::charset_of(charset_code))?);
        let (listed, p) =
            with_key(len, |path| Ok((self.reader.listed(path), js(self.reader.probe_filter_reasoned(path, v, cs))?)))?;
        Ok(write_record(|r| record::file_probe(r, listed, p.as_ref())))
    }

    /// Verdict codes for the `count` UTF-8 paths staged with `stageKeys`, one byte each
    /// (no filter: unknown). Arguments as for [`WasmTsFile::probe`].
    #[wasm_bindgen(js_name = probeStaged)]
    pub fn probe_staged(&self, count: usize, variant_code: i32, charset_code: i32) -> Result<Vec<u8>, JsValue> {
        self.verdicts(count, variant_code, charset_code, |v| wire::verdict_code(v) as u8)
    }

    /// For the `count` UTF-8 paths staged with `stageKeys`: 0 where `probe` says absent,
    /// else 1 (maybe or unknown). Arguments as for [`WasmTsFile::probe`].
    #[wasm_bindgen(js_name = mightContainStaged)]
    pub fn might_contain_staged(&self, count: usize, variant_code: i32, charset_code: i32) -> Result<Vec<u8>, JsValue> {
        self.verdicts(count, variant_code, charset_code, |v| u8::from(v != FileVerdict::Absent))
    }
}

impl WasmTsFile {
    fn verdicts(
        &self,
        count: usize,
        variant_code: i32,
        charset_code: i32,
        byte: impl Fn(FileVerdict) -> u8,
    ) -> Result<Vec<u8>, JsValue> {
        let rule = self.reader.verdict_rule(js(wire::variant_of(variant_code))?, js(wire::charset_of(charset_code))?);
        let mut out = Vec::with_capacity(staged_count().min(count));
        for_each_staged(count, |key| {
            // No filter: "unknown", so the file may contain the path.
            out.push(byte(js(self.reader.verdict(&rule, key))?.unwrap_or(FileVerdict::Unknown)));
            Ok(())
        })?;
        Ok(out)
    }
}

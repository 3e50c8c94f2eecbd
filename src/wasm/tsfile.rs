//! The TsFile module's `#[wasm_bindgen]` surface: converters only. Every answer comes from
//! the core ([`TsFileReader`], [`BloomFilter`]) and crosses as the core's `Serialize` type
//! through [`to_js`] (js/index.d.ts declares each shape), or — the hot paths — in the core's
//! numeric layouts ([`crate::tsfile::wire`]: the listing's columns, probe records, the fast
//! scan's figures), which js/wire.js decodes. Variants and charsets cross as their wire codes
//! (`-1`: automatic).

use super::common::{bad_ends, for_each_staged, js, js_error, staged_count, to_js, with_key, with_staged, Global};
use crate::encoder::PathEncoder;
use crate::error::Error;
use crate::filter::BloomFilter;
use crate::hash::{self, TailVariant};
use crate::path::{transcode, Charset};
use crate::tsfile::wire::{self, listing, record, scan::TailScan};
use crate::tsfile::{audit::FileVerdict, parse_metadata, Envelope, TsFileReader};
use wasm_bindgen::prelude::*;

/// A filter's variant code (0 java, 1 zero-extended; automatic is Java's).
fn variant(code: i32) -> Result<TailVariant, JsValue> {
    Ok(js(wire::variant_of(code))?.unwrap_or(TailVariant::Java))
}

/// A filter's charset code (automatic is UTF-8).
fn charset(code: i32) -> Result<Charset, JsValue> {
    Ok(js(wire::charset_of(code))?.unwrap_or(Charset::Utf8))
}

/// The code of a charset name or alias (its index in `Charset::ALL`, JS's `CHARSETS` order).
#[wasm_bindgen(js_name = charsetIndex)]
pub fn charset_index(name: &str) -> Result<i32, JsValue> {
    Ok(wire::charset_code(js(Charset::from_name(name))?))
}

// The last probe's record (crate::tsfile::wire::record), which JS reads in place from wasm
// memory; allocated once, by the first probe.
static RECORD: Global<core::cell::RefCell<Vec<i32>>> = Global(core::cell::RefCell::new(Vec::new()));

/// Where the last probe's record starts in wasm memory (`Int32Array` index = address / 4).
#[wasm_bindgen(js_name = probeRecord)]
pub fn probe_record() -> u32 {
    RECORD.with(|r| r.borrow().as_ptr() as u32)
}

fn write_record(f: impl FnOnce(&mut Vec<i32>)) -> u32 {
    RECORD.with(|r| {
        let mut r = r.borrow_mut();
        r.clear();
        r.reserve(record::CAPACITY);
        f(&mut r);
        r.as_ptr() as u32
    })
}

/// `text`: the key is UTF-8 from a JS string and is re-encoded in `charset`;
/// otherwise the caller's bytes are hashed as they are.
fn key_bytes<'a>(key: &'a [u8], text: bool, charset: Charset) -> Result<std::borrow::Cow<'a, [u8]>, JsValue> {
    if text {
        js(transcode(key, charset))
    } else {
        Ok(std::borrow::Cow::Borrowed(key))
    }
}

/// The `count` staged keys as one buffer and their end offsets, for the hash crate's batch
/// loops (`f`): as staged, or — UTF-8 of JS strings to be hashed in a single-byte charset
/// (windows-1252, ISO-8859-1) — re-encoded first. `f`'s `Err(i)`: `ends[i]` is out of order.
fn with_filter_keys<R>(
    count: usize,
    text: bool,
    charset_code: i32,
    f: impl FnOnce(&[u8], &[u32]) -> Result<R, usize>,
) -> Result<R, JsValue> {
    let cs = charset(charset_code)?;
    with_staged(count, |keys, ends| {
        if !text || cs == Charset::Utf8 {
            return f(keys, ends).map_err(bad_ends);
        }
        let (mut bytes, mut encoded_ends) = (Vec::with_capacity(keys.len()), Vec::with_capacity(ends.len()));
        for key in crate::bytes::keys(keys, ends) {
            bytes.extend_from_slice(&key_bytes(key.map_err(bad_ends)?, true, cs)?);
            encoded_ends.push(bytes.len() as u32);
        }
        f(&bytes, &encoded_ends).map_err(bad_ends)
    })
}

#[wasm_bindgen(js_name = hash32)]
pub fn hash32_js(key: &[u8], seed: u32, variant_code: i32) -> Result<i32, JsValue> {
    Ok(hash::hash32(key, seed, variant(variant_code)?))
}

#[wasm_bindgen(js_name = bitIndex)]
pub fn bit_index_js(hash32: i32, bit_count: u32) -> Result<u32, JsValue> {
    if bit_count == 0 {
        return Err(js_error(&Error::invalid_argument("bit_count must be positive")));
    }
    Ok(hash::bit_index(hash32, bit_count))
}

/// `(1 - e^(-kn/m))^k`: the false-positive probability of `items` keys in `bitCount` bits.
#[wasm_bindgen(js_name = fppFormula)]
pub fn fpp_formula(items: f64, bit_count: u32, hash_function_count: u32) -> f64 {
    crate::filter::false_positive_probability(items, bit_count, hash_function_count)
}

/// `(m/n) ln 2`: the k that minimises the formula for `items` keys in `bitCount` bits.
#[wasm_bindgen(js_name = optimalK)]
pub fn optimal_k_js(items: f64, bit_count: u32) -> f64 {
    crate::filter::optimal_k(items, bit_count)
}

/// A capacity as the core takes it: an integer in `0..=i32::MAX`.
fn capacity(n: f64) -> Result<i32, JsValue> {
    if !(n.fract() == 0.0 && (0.0..=i32::MAX as f64).contains(&n)) {
        return Err(js_error(&Error::invalid_argument("capacity must be an integer in 0..=2147483647")));
    }
    Ok(n as i32)
}

/// Java's `getEmptyBloomFilter(errorRate, capacity)` sizing: `[bitCount, hashFunctionCount]`.
#[wasm_bindgen(js_name = javaSizing)]
pub fn java_sizing_js(n: f64, error_rate: f64) -> Result<Vec<u32>, JsValue> {
    let (m, k) = crate::filter::java_sizing(capacity(n)?, error_rate);
    Ok(vec![m, k])
}

/// A JS string's UTF-8 bytes re-encoded in a single-byte charset (UTF-8, windows-1252, ISO-8859-1).
#[wasm_bindgen(js_name = encodeText)]
pub fn encode_text(utf8: &[u8], charset_name: &str) -> Result<Vec<u8>, JsValue> {
    Ok(js(transcode(utf8, js(Charset::from_name(charset_name))?))?.into_owned())
}

#[wasm_bindgen]
pub struct WasmBloomFilter {
    inner: BloomFilter,
}

#[wasm_bindgen]
impl WasmBloomFilter {
    /// Decodes a whole serialized filter; `undefined` for the "no filter" encoding.
    pub fn decode(bytes: &[u8]) -> Result<Option<WasmBloomFilter>, JsValue> {
        Ok(js(BloomFilter::decode_whole(bytes))?.map(|inner| WasmBloomFilter { inner }))
    }

    #[wasm_bindgen(js_name = withCapacity)]
    pub fn with_capacity(n: f64, error_rate: f64) -> Result<WasmBloomFilter, JsValue> {
        Ok(WasmBloomFilter { inner: BloomFilter::with_capacity(capacity(n)?, error_rate) })
    }

    #[wasm_bindgen(js_name = withGeometry)]
    pub fn with_geometry(bit_count: u32, hash_function_count: u32) -> Result<WasmBloomFilter, JsValue> {
        Ok(WasmBloomFilter { inner: js(BloomFilter::new(bit_count, hash_function_count))? })
    }

    pub fn add(&mut self, key: &[u8], text: bool, variant_code: i32, charset_code: i32) -> Result<(), JsValue> {
        let key = key_bytes(key, text, charset(charset_code)?)?;
        self.inner.add(&key, variant(variant_code)?);
        Ok(())
    }

    /// Probes one key into the probe record (`wire::record::filter_probe`). `text`: `key` is
    /// UTF-8 of a JS string, re-encoded in the charset; otherwise its bytes are hashed as given.
    /// The key is the first `len` bytes of the key area (`keyArea`).
    pub fn probe(&self, len: usize, text: bool, variant_code: i32, charset_code: i32) -> Result<(), JsValue> {
        let (v, cs) = (variant(variant_code)?, charset(charset_code)?);
        let p = with_key(len, |key| Ok(self.inner.probe(&key_bytes(key, text, cs)?, v)))?;
        write_record(|r| record::filter_probe(r, &p));
        Ok(())
    }

    /// Probes the `count` keys staged with `stageKeys` in one call. Returns `1 + 2k`
    /// numbers per key: a bit mask of the seeds whose bit is set, then `(hash32, bit)` per seed.
    #[wasm_bindgen(js_name = probeStaged)]
    pub fn probe_staged(
        &self,
        count: usize,
        text: bool,
        variant_code: i32,
        charset_code: i32,
    ) -> Result<Vec<i32>, JsValue> {
        let v = variant(variant_code)?;
        let stride = 1 + 2 * self.inner.hash_function_count() as usize;
        // Sized by what was staged (not by the caller's count), written in place: no pushes.
        let mut out = vec![0i32; staged_count().min(count) * stride];
        with_filter_keys(count, text, charset_code, |keys, ends| self.inner.probe_many(keys, ends, v, &mut out))?;
        Ok(out)
    }

    /// Verdicts for the `count` keys staged with `stageKeys`, one byte each (1 = maybe):
    /// Java's `contains`; no per-seed records.
    #[wasm_bindgen(js_name = mightContainStaged)]
    pub fn might_contain_staged(
        &self,
        count: usize,
        text: bool,
        variant_code: i32,
        charset_code: i32,
    ) -> Result<Vec<u8>, JsValue> {
        let v = variant(variant_code)?;
        let mut out = Vec::with_capacity(staged_count().min(count));
        with_filter_keys(count, text, charset_code, |keys, ends| {
            self.inner.might_contain_many(keys, ends, v, &mut out)
        })?;
        Ok(out)
    }

    /// Adds the `count` keys staged with `stageKeys`.
    #[wasm_bindgen(js_name = addStaged)]
    pub fn add_staged(
        &mut self,
        count: usize,
        text: bool,
        variant_code: i32,
        charset_code: i32,
    ) -> Result<(), JsValue> {
        let (v, inner) = (variant(variant_code)?, &mut self.inner);
        with_filter_keys(count, text, charset_code, |keys, ends| inner.add_many(keys, ends, v))
    }

    pub fn encode(&self) -> Vec<u8> {
        self.inner.encode()
    }

    /// The logical `ceil(bitCount / 8)`-byte vector, LSB-first.
    pub fn bits(&self) -> Vec<u8> {
        self.inner.logical_bits()
    }

    #[wasm_bindgen(getter, js_name = bitCount)]
    pub fn bit_count(&self) -> u32 {
        self.inner.bit_count()
    }

    #[wasm_bindgen(getter, js_name = hashFunctionCount)]
    pub fn hash_function_count(&self) -> u32 {
        self.inner.hash_function_count()
    }

    #[wasm_bindgen(getter, js_name = byteLength)]
    pub fn byte_length(&self) -> u32 {
        self.inner.byte_length()
    }

    #[wasm_bindgen(getter, js_name = setBits)]
    pub fn set_bits(&self) -> f64 {
        self.inner.set_bits() as f64
    }

    pub fn stats(&self, items: Option<f64>) -> Result<JsValue, JsValue> {
        to_js(&self.inner.stats(items))
    }
}

// ---------------------------------------------------------------------------
// TsFile: the JS side fetches byte ranges (Blob.slice, positional reads) and
// hands them over; parsing and every decision happen in the core's TsFileReader.

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

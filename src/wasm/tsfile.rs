//! The TsFile module's `#[wasm_bindgen]` surface: thin adapters from the core to JS. The public
//! JS API (argument parsing, strings → bytes, result objects) lives in `js/`;
//! these functions take bytes and names and return plain data.
//!
//! Size matters here (the shipped module has a gzip budget): result objects are
//! built field by field with `Reflect.set` (the [`Obj`] helper) instead of a
//! serializer, whose per-type code was inlined into every export.

use super::common::{array, for_each_staged, js_error, staged_count, with_staged, Obj};
use crate::error::Error;
use crate::filter::{BloomFilter, Probe};
use crate::hash::{self, TailVariant};
use crate::path::{transcode, Charset};
use wasm_bindgen::prelude::*;

/// The tail variant as JS passes it (js/core.js checks the name): `zero_extended` or Java's.
/// A flag rather than the name keeps string handling out of every probing export.
fn variant(zero_extended: bool) -> TailVariant {
    if zero_extended {
        TailVariant::ZeroExtended
    } else {
        TailVariant::Java
    }
}

fn charset(name: &str) -> Result<Charset, JsValue> {
    Charset::from_name(name).map_err(|e| js_error(&e))
}

/// `text`: the key is UTF-8 from a JS string and is re-encoded in `charset`;
/// otherwise the caller's bytes are hashed as they are.
fn key_bytes<'a>(key: &'a [u8], text: bool, charset: Charset) -> Result<std::borrow::Cow<'a, [u8]>, JsValue> {
    if text {
        transcode(key, charset).map_err(|e| js_error(&e))
    } else {
        Ok(std::borrow::Cow::Borrowed(key))
    }
}

#[wasm_bindgen(js_name = hash32)]
pub fn hash32_js(key: &[u8], seed: u32, zero_extended: bool) -> i32 {
    hash::hash32(key, seed, variant(zero_extended))
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

/// Java's `getEmptyBloomFilter(errorRate, capacity)` sizing: `[bitCount, hashFunctionCount]`.
#[wasm_bindgen(js_name = javaSizing)]
pub fn java_sizing_js(capacity: f64, error_rate: f64) -> Result<Vec<u32>, JsValue> {
    if !(capacity.fract() == 0.0 && (0.0..=i32::MAX as f64).contains(&capacity)) {
        return Err(js_error(&Error::invalid_argument("capacity must be an integer in 0..=2147483647")));
    }
    let (m, k) = crate::filter::java_sizing(capacity as i32, error_rate);
    Ok(vec![m, k])
}

/// A JS string's UTF-8 bytes re-encoded in a single-byte charset (UTF-8, windows-1252, ISO-8859-1).
#[wasm_bindgen(js_name = encodeText)]
pub fn encode_text(utf8: &[u8], charset_name: &str) -> Result<Vec<u8>, JsValue> {
    Ok(transcode(utf8, charset(charset_name)?).map_err(|e| js_error(&e))?.into_owned())
}

/// `[{seed, hash32, bit, set}]`.
fn seeds_js(p: &Probe) -> JsValue {
    array(&p.probes, |s| {
        Obj::new().num("seed", s.seed as f64).num("hash32", s.hash32 as f64).num("bit", s.bit as f64).bool("set", s.set).done()
    })
}

#[wasm_bindgen]
pub struct WasmBloomFilter {
    inner: BloomFilter,
}

#[wasm_bindgen]
impl WasmBloomFilter {
    /// Decodes a whole serialized filter; `undefined` for the "no filter" encoding.
    pub fn decode(bytes: &[u8]) -> Result<Option<WasmBloomFilter>, JsValue> {
        let (filter, layout) = BloomFilter::decode(bytes, 0).map_err(|e| js_error(&e))?;
        if layout.encoded_len as usize != bytes.len() {
            return Err(js_error(&Error::new(
                crate::ErrorKind::TrailingBytes,
                layout.encoded_len,
                format!("{} bytes follow the end of the filter structure", bytes.len() as u64 - layout.encoded_len),
            )));
        }
        Ok(filter.map(|inner| WasmBloomFilter { inner }))
    }

    #[wasm_bindgen(js_name = withCapacity)]
    pub fn with_capacity(n: f64, error_rate: f64) -> Result<WasmBloomFilter, JsValue> {
        if !(n.fract() == 0.0 && (0.0..=i32::MAX as f64).contains(&n)) {
            return Err(js_error(&Error::invalid_argument("capacity must be an integer in 0..=2147483647")));
        }
        Ok(WasmBloomFilter { inner: BloomFilter::with_capacity(n as i32, error_rate) })
    }

    #[wasm_bindgen(js_name = withGeometry)]
    pub fn with_geometry(bit_count: u32, hash_function_count: u32) -> Result<WasmBloomFilter, JsValue> {
        Ok(WasmBloomFilter { inner: BloomFilter::new(bit_count, hash_function_count).map_err(|e| js_error(&e))? })
    }

    pub fn add(&mut self, key: &[u8], text: bool, zero_extended: bool, charset_name: &str) -> Result<(), JsValue> {
        let cs = charset(charset_name)?;
        self.inner.add(&key_bytes(key, text, cs)?, variant(zero_extended));
        Ok(())
    }

    pub fn probe(&self, key: &[u8], text: bool, zero_extended: bool, charset_name: &str) -> Result<JsValue, JsValue> {
        let v = variant(zero_extended);
        let cs = charset(charset_name)?;
        let p = self.inner.probe(&key_bytes(key, text, cs)?, v);
        Ok(Obj::new()
            .str("verdict", Some(p.verdict.as_str()))
            .str("variant", Some(v.as_str()))
            .str("charset", Some(if text { cs.as_str() } else { "bytes" }))
            .val("probes", &seeds_js(&p))
            .done())
    }

    /// Probes the `count` keys staged with [`stage_keys`] in one call. Returns `1 + 2k`
    /// numbers per key: a bit mask of the seeds whose bit is set, then `(hash32, bit)` per seed.
    #[wasm_bindgen(js_name = probeStaged)]
    pub fn probe_staged(&self, count: usize, text: bool, zero_extended: bool, charset_name: &str) -> Result<Vec<i32>, JsValue> {
        let v = variant(zero_extended);
        let cs = charset(charset_name)?;
        let stride = 1 + 2 * self.inner.hash_function_count() as usize;
        // Sized by what was staged (not by the caller's count), written in place: no pushes.
        let mut out = vec![0i32; staged_count().min(count) * stride];
        let mut rows = out.chunks_exact_mut(stride);
        for_each_staged(count, |key| {
            let key = key_bytes(key, text, cs)?;
            let Some(row) = rows.next() else { return Ok(()) };
            let mut mask = 0i32;
            self.inner.for_each_probe(&key, v, |j, s| {
                mask |= (s.set as i32) << j;
                row[1 + 2 * j] = s.hash32;
                row[2 + 2 * j] = s.bit as i32;
            });
            row[0] = mask;
            Ok(())
        })?;
        Ok(out)
    }

    /// Verdicts for the `count` keys staged with [`stage_keys`], one byte each (1 = maybe):
    /// Java's `contains`, stopping at the first clear bit; no per-seed records.
    #[wasm_bindgen(js_name = mightContainStaged)]
    pub fn might_contain_staged(&self, count: usize, text: bool, zero_extended: bool, charset_name: &str) -> Result<Vec<u8>, JsValue> {
        let v = variant(zero_extended);
        let cs = charset(charset_name)?;
        let mut out = Vec::with_capacity(staged_count().min(count));
        if text && cs != Charset::Utf8 {
            // Re-encoded key by key (windows-1252, ISO-8859-1).
            for_each_staged(count, |key| {
                out.push(self.inner.might_contain(&key_bytes(key, text, cs)?, v) as u8);
                Ok(())
            })?;
            return Ok(out);
        }
        // The keys are hashed as staged: the whole loop runs in the hash crate.
        with_staged(count, |keys, ends| {
            self.inner.might_contain_many(keys, ends, v, &mut out).map_err(|_| {
                js_error(&Error::invalid_argument("staged key ends are not increasing within the staged bytes"))
            })
        })?;
        Ok(out)
    }

    /// Adds the `count` keys staged with [`stage_keys`].
    #[wasm_bindgen(js_name = addStaged)]
    pub fn add_staged(&mut self, count: usize, text: bool, zero_extended: bool, charset_name: &str) -> Result<(), JsValue> {
        let v = variant(zero_extended);
        let cs = charset(charset_name)?;
        let inner = &mut self.inner;
        if text && cs != Charset::Utf8 {
            // Re-encoded key by key (windows-1252, ISO-8859-1).
            return for_each_staged(count, |key| {
                inner.add(&key_bytes(key, text, cs)?, v);
                Ok(())
            });
        }
        // The keys are hashed as staged: the whole loop runs in the hash crate.
        with_staged(count, |keys, ends| {
            inner.add_many(keys, ends, v).map_err(|_| {
                js_error(&Error::invalid_argument("staged key ends are not increasing within the staged bytes"))
            })
        })
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

    pub fn stats(&self, items: Option<f64>) -> JsValue {
        let s = self.inner.stats(items);
        Obj::new()
            .num("bitCount", s.bit_count as f64)
            .num("hashFunctionCount", s.hash_function_count as f64)
            .num("setBits", s.set_bits as f64)
            .num("fillRatio", s.fill_ratio)
            .num("estimatedItems", s.estimated_items)
            .num("items", s.items)
            .num("fppFormula", s.fpp_formula)
            .num("fppFromFill", s.fpp_from_fill)
            .num("optimalK", s.optimal_k)
            .done()
    }
}

// ---------------------------------------------------------------------------
// TsFile: the JS side fetches byte ranges (Blob.slice, positional reads) and
// hands them over; parsing happens here.

use crate::audit::{self, Audit, AuditStatus, FileVerdict, VerdictRule};
use crate::encoder::PathEncoder;
use crate::source::Ranges;
use crate::tsfile::{self, Envelope, IndexWalk, Series, TsFileMetadata};

#[wasm_bindgen]
extern "C" {
    type TextDecoder;
    #[wasm_bindgen(constructor)]
    fn new(label: &str, options: &JsValue) -> TextDecoder;
    #[wasm_bindgen(method)]
    fn decode(this: &TextDecoder, bytes: &[u8]) -> JsValue;
}

/// Stored names to JS strings, invalid UTF-8 replaced by U+FFFD exactly as
/// `String::from_utf8_lossy` does (both follow WHATWG's maximal-subpart rule), by the
/// platform's decoder: smaller than Rust's in wasm, and no copy through a Rust String.
struct Lossy(TextDecoder);

impl Lossy {
    fn new() -> Lossy {
        // A leading BOM is part of the name, not a marker to drop.
        Lossy(TextDecoder::new("utf-8", &Obj::new().bool("ignoreBOM", true).done()))
    }
    fn str(&self, b: &[u8]) -> JsValue {
        self.0.decode(b)
    }
    fn opt(&self, b: &Option<Vec<u8>>) -> JsValue {
        b.as_deref().map_or(JsValue::UNDEFINED, |b| self.str(b))
    }
}

fn error_js(e: &Error) -> JsValue {
    Obj::new()
        .str("kind", Some(e.kind.as_str()))
        .str("message", Some(&e.to_string()))
        .num("offset", e.offset as f64)
        .done()
}

/// Step 1: from the file size, its first 7 bytes and its last 10, where TsFileMetadata is.
#[wasm_bindgen(js_name = tsfileEnvelope)]
pub fn tsfile_envelope(file_size: f64, head: Vec<u8>, tail: Vec<u8>) -> Result<JsValue, JsValue> {
    let env = envelope_from(file_size, head, tail).map_err(|e| js_error(&e))?;
    Ok(Obj::new()
        .num("file_size", env.file_size as f64)
        .num("version", env.version as f64)
        .num("metadata_offset", env.metadata_offset as f64)
        .num("metadata_size", env.metadata_size as f64)
        .done())
}

/// Fleet scans, one call per file: from what opening reads (the head, and the tail window: the
/// file's last `window.len()` bytes), the version, the filter's figures as `bloom()` gives them
/// before any index is read, and `probe`'s verdict (0 absent, 1 maybe, 2 unknown) for each of
/// the `count` staged paths — numbers only, because building a JS object key by key costs more
/// than the rest of a small file. Layout: `[version, present, encoding (BloomEncoding's order),
/// offset, bits_offset, byte_length, bit_count, hash_function_count, set_bits, fill_ratio,
/// estimated_items, fpp_formula, fpp_from_fill, optimal_k, verdicts...]`, NaN where `bloom()`
/// has undefined. Empty when TsFileMetadata lies outside the window; errors as `open`'s
/// (callers open such files the usual way for the full story).
#[wasm_bindgen(js_name = scanTail)]
pub fn scan_tail(file_size: f64, head: Vec<u8>, window: &[u8], count: usize) -> Result<Vec<f64>, JsValue> {
    let tail = window[window.len().saturating_sub(10)..].to_vec();
    let env = envelope_from(file_size, head, tail).map_err(|e| js_error(&e))?;
    let window_start = env.file_size.saturating_sub(window.len() as u64);
    if env.metadata_offset < window_start {
        return Ok(Vec::new());
    }
    let at = (env.metadata_offset - window_start) as usize;
    let metadata = window
        .get(at..at + env.metadata_size as usize)
        .ok_or_else(|| js_error(&Error::invalid_argument("metadata bytes do not match the envelope's size")))?;
    let version = env.version;
    let meta = tsfile::parse_metadata(env, metadata).map_err(|e| js_error(&e))?;
    let b = &meta.bloom;
    let f = b.filter.as_ref();
    let stats = f.map(|f| f.stats(None));
    let empty_geometry = if f.is_none() { b.layout.and_then(|l| l.stored_geometry) } else { None };
    let num = |v: Option<f64>| v.unwrap_or(f64::NAN);
    let mut out = vec![
        version as f64,
        f.is_some() as u8 as f64,
        b.encoding as u8 as f64,
        b.offset as f64,
        num(b.layout.map(|l| l.bits_offset as f64)),
        num(b.layout.map(|l| l.byte_length as f64)),
        num(f.map(|f| f.bit_count()).or(empty_geometry.map(|g| g.0)).map(f64::from)),
        num(f.map(|f| f.hash_function_count()).or(empty_geometry.map(|g| g.1)).map(f64::from)),
        num(stats.map(|s| s.set_bits as f64).or(empty_geometry.map(|_| 0.0))),
        num(stats.map(|s| s.fill_ratio)),
        num(stats.map(|s| s.estimated_items)),
        num(stats.map(|s| s.fpp_formula)),
        num(stats.map(|s| s.fpp_from_fill)),
        num(stats.map(|s| s.optimal_k)),
    ];
    // As probeStaged on a file whose index is not read: no audit, every candidate variant.
    let rule = VerdictRule::new(None, None, None);
    let encoder = JsEncoder(None);
    for_each_staged(count, |key| {
        out.push(match f {
            None => 2.0,
            Some(f) => match rule.verdict(f, key, &encoder).map_err(|e| js_error(&e))? {
                FileVerdict::Absent => 0.0,
                FileVerdict::Maybe => 1.0,
                FileVerdict::Unknown => 2.0,
            },
        });
        Ok(())
    })?;
    Ok(out)
}

fn envelope_from(file_size: f64, head: Vec<u8>, tail: Vec<u8>) -> crate::Result<Envelope> {
    let size = file_size as u64;
    let mut r = Ranges::new(size);
    let tail_len = tail.len() as u64;
    r.insert(0, head);
    r.insert(size.saturating_sub(tail_len), tail);
    tsfile::read_envelope(&r)
}

#[wasm_bindgen]
pub struct WasmTsFile {
    meta: TsFileMetadata,
    walk: Option<IndexWalk>,
    audit: Option<Audit>,
    /// Paths of the indexed series (not time columns), sorted, for `probe`'s `indexed`.
    indexed: Vec<Vec<u8>>,
    encoder: JsEncoder,
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
        let bytes = f
            .call2(&JsValue::NULL, &js_sys::Uint8Array::from(utf8), &JsValue::from_str(cs.as_str()))
            .map_err(|_| Error::invalid_argument(format!("the charsets module could not encode a path in {}", cs.as_str())))?;
        Ok(std::borrow::Cow::Owned(js_sys::Uint8Array::new(&bytes).to_vec()))
    }
}

fn category_name(c: i32) -> &'static str {
    match c {
        0 => "TAG",
        1 => "FIELD",
        2 => "ATTRIBUTE",
        3 => "TIME",
        _ => "UNKNOWN",
    }
}

fn data_type_name(b: u8) -> String {
    tsfile::DataType::from_byte(b).map(|d| d.as_str().to_string()).unwrap_or_else(|| format!("UNKNOWN({b})"))
}

fn audit_js(a: &Audit) -> JsValue {
    let writer = (a.status == AuditStatus::Established).then(|| a.matching().next().map(|h| h.writer(a.time_column_count > 0))).flatten();
    Obj::new()
        .str("status", Some(a.status.as_str()))
        .str("summary", Some(&a.summary))
        .str("variant", a.variant.map(|v| v.as_str()))
        .str("charset", a.charset.map(|c| c.as_str()))
        .val("charsets", &array(&a.charsets, |c| JsValue::from_str(c.as_str())))
        .val("charsets_unavailable", &array(&a.charsets_unavailable, |c| JsValue::from_str(c.as_str())))
        .str("writer", writer.as_deref())
        .num("series_count", a.series_count as f64)
        .num("time_column_count", a.time_column_count as f64)
        .num("non_ascii_tail_paths", a.non_ascii_tail_paths as f64)
        .val(
            "hypotheses",
            &array(&a.results, |r| {
                let h = &r.hypothesis;
                Obj::new()
                    .str("variant", Some(h.variant.as_str()))
                    .bool("time_columns", h.time_columns)
                    .str("trailing_null_tags", Some(if h.trailing_nulls_kept { "kept" } else { "dropped" }))
                    .str("charset", Some(h.charset.as_str()))
                    .str("writer", Some(&h.writer(a.time_column_count > 0)))
                    .bool("reproduces", r.reproduces)
                    .num("differing_bits", r.differing_bits as f64)
                    .num("indexed_absent", r.indexed_absent as f64)
                    .done()
            }),
        )
        .done()
}

#[wasm_bindgen]
impl WasmTsFile {
    /// Step 2: parse TsFileMetadata from its bytes.
    pub fn open(file_size: f64, head: Vec<u8>, tail: Vec<u8>, metadata: Vec<u8>) -> Result<WasmTsFile, JsValue> {
        let env = envelope_from(file_size, head, tail).map_err(|e| js_error(&e))?;
        if metadata.len() != env.metadata_size as usize {
            return Err(js_error(&Error::invalid_argument("metadata bytes do not match the envelope's size")));
        }
        let meta = tsfile::parse_metadata(env, &metadata).map_err(|e| js_error(&e))?;
        Ok(WasmTsFile { meta, walk: None, audit: None, indexed: Vec::new(), encoder: JsEncoder(None) })
    }

    #[wasm_bindgen(getter)]
    pub fn version(&self) -> u8 {
        self.meta.envelope.version
    }

    /// `[offset, length]` of the index region that `attachIndex` needs.
    #[wasm_bindgen(js_name = indexRange)]
    pub fn index_range(&self) -> Vec<f64> {
        vec![self.meta.meta_offset as f64, (self.meta.envelope.metadata_offset - self.meta.meta_offset) as f64]
    }

    /// Step 3: walk the index region and audit the filter against it. Returns the
    /// error that stopped the walk (partial series are kept), or undefined.
    #[wasm_bindgen(js_name = attachIndex)]
    pub fn attach_index(&mut self, region: &[u8]) -> JsValue {
        let walk = tsfile::walk_index_region(&self.meta, region);
        let audit = if walk.error.is_none() {
            Some(audit::audit_with(self.meta.bloom.filter.as_ref(), &walk.series, &self.encoder))
        } else {
            None
        };
        // A heap sort (BinaryHeap) is much smaller in wasm than slice::sort's quicksort.
        let indexed: std::collections::BinaryHeap<Vec<u8>> =
            walk.series.iter().filter(|s| !s.is_time_column()).map(Series::path).collect();
        self.indexed = indexed.into_sorted_vec();
        let err = walk.error.as_ref().map(js_error).unwrap_or(JsValue::UNDEFINED);
        self.walk = Some(walk);
        self.audit = audit;
        err
    }

    /// Hands over the charsets module's encoder; audits again when the last audit
    /// wanted charsets it could not have. Returns whether it audited again.
    #[wasm_bindgen(js_name = setEncoder)]
    pub fn set_encoder(&mut self, encode: js_sys::Function) -> bool {
        self.encoder = JsEncoder(Some(encode));
        let again = self.audit.as_ref().is_some_and(|a| !a.charsets_unavailable.is_empty());
        if again {
            if let Some(walk) = &self.walk {
                self.audit = Some(audit::audit_with(self.meta.bloom.filter.as_ref(), &walk.series, &self.encoder));
            }
        }
        again
    }

    /// The decoded filter (a copy), or undefined.
    #[wasm_bindgen(js_name = bloomFilter)]
    pub fn bloom_filter(&self) -> Option<WasmBloomFilter> {
        self.meta.bloom.filter.clone().map(|inner| WasmBloomFilter { inner })
    }

    pub fn metadata(&self) -> JsValue {
        Obj::new()
            .num("offset", self.meta.envelope.metadata_offset as f64)
            .num("size", self.meta.envelope.metadata_size as f64)
            .num("meta_offset", self.meta.meta_offset as f64)
            .done()
    }

    pub fn bloom(&self) -> JsValue {
        let b = &self.meta.bloom;
        let f = b.filter.as_ref();
        let indexed_items = self.audit.as_ref().and_then(|a| {
            let inserted = a.matching().next().is_none_or(|h| h.time_columns);
            f.map(|_| (a.series_count + if inserted { a.time_column_count } else { 0 }) as f64)
        });
        let stats = f.map(|f| f.stats(indexed_items));
        let empty_geometry = if f.is_none() { b.layout.and_then(|l| l.stored_geometry) } else { None };
        Obj::new()
            .bool("present", f.is_some())
            .str("encoding", Some(b.encoding.as_str()))
            .num("offset", b.offset as f64)
            .num("bits_offset", b.layout.map(|l| l.bits_offset as f64))
            .num("byte_length", b.layout.map(|l| l.byte_length as f64))
            // An empty v3 (or legacy C++) filter still stores its geometry: reported, with 0 bits set.
            .num("bit_count", f.map(|f| f.bit_count()).or(empty_geometry.map(|g| g.0)).map(f64::from))
            .num("hash_function_count", f.map(|f| f.hash_function_count()).or(empty_geometry.map(|g| g.1)).map(f64::from))
            .num("set_bits", stats.map(|s| s.set_bits as f64).or(empty_geometry.map(|_| 0.0)))
            .num("fill_ratio", stats.map(|s| s.fill_ratio))
            .num("estimated_items", stats.map(|s| s.estimated_items))
            .num("indexed_items", indexed_items)
            .num("fpp_formula", stats.map(|s| s.fpp_formula))
            .num("fpp_from_fill", stats.map(|s| s.fpp_from_fill))
            .num("optimal_k", stats.map(|s| s.optimal_k))
            .done()
    }

    /// `[{key, value, value_hex}]`: `value_hex` is the hex of a value that is not UTF-8.
    pub fn properties(&self) -> JsValue {
        let utf8 = Lossy::new();
        array(&self.meta.properties, |(k, v)| {
            let text = v.as_deref().map(|b| std::str::from_utf8(b).ok());
            let hex = match text {
                Some(None) => Some(hex(v.as_deref().unwrap_or_default())),
                _ => None,
            };
            Obj::new()
                .val("key", &utf8.opt(k))
                .str("value", text.flatten())
                .str("value_hex", hex.as_deref())
                .done()
        })
    }

    #[wasm_bindgen(js_name = tableSchemas)]
    pub fn table_schemas(&self) -> JsValue {
        let utf8 = Lossy::new();
        array(&self.meta.table_schemas, |t| {
            Obj::new()
                .val("table", &utf8.opt(&t.table_name))
                .val(
                    "columns",
                    &array(&t.columns, |c| {
                        Obj::new()
                            .val("name", &utf8.opt(&c.name))
                            .str("data_type", Some(&data_type_name(c.data_type)))
                            .str("category", Some(category_name(c.category)))
                            .num("encoding", c.encoding as f64)
                            .num("compression", c.compression as f64)
                            .done()
                    }),
                )
                .done()
        })
    }

    #[wasm_bindgen(js_name = tableNames)]
    pub fn table_names(&self) -> JsValue {
        let utf8 = Lossy::new();
        array(&self.meta.table_roots, |(n, _)| utf8.opt(n))
    }

    pub fn warnings(&self) -> JsValue {
        let walk_warnings = self.walk.as_ref().map(|w| &w.warnings[..]).unwrap_or_default();
        array(self.meta.warnings.iter().chain(walk_warnings), error_js)
    }

    pub fn audit(&self) -> JsValue {
        match &self.audit {
            Some(a) => audit_js(a),
            None => JsValue::NULL,
        }
    }

    /// `{series, time_columns}` as listed by the index (requires attachIndex).
    pub fn series(&self) -> JsValue {
        let series = js_sys::Array::new();
        let time_columns = js_sys::Array::new();
        let utf8 = Lossy::new();
        let rule = VerdictRule::new(self.audit.as_ref(), None, None);
        // What the filter says of an indexed series, under the file's soundness rules:
        // true (maybe), false (a sound "absent": the filter is inconsistent), or null
        // (no filter, or bits that cannot be trusted).
        let maybe_present = |path: &[u8]| -> Option<bool> {
            let f = self.meta.bloom.filter.as_ref()?;
            match rule.verdict(f, path, &self.encoder) {
                Ok(FileVerdict::Maybe) => Some(true),
                Ok(FileVerdict::Absent) => Some(false),
                Ok(FileVerdict::Unknown) | Err(_) => None,
            }
        };
        for s in self.walk.iter().flat_map(|w| &w.series) {
            let path = s.path();
            let item = Obj::new()
                .val("path", &utf8.str(&path))
                .val("table", &utf8.opt(&s.table))
                .val("device", &array(&s.device.segments, |d| utf8.opt(d)))
                .val("measurement", &utf8.str(&s.measurement))
                .str("data_type", Some(s.data_type.as_str()))
                .num("offset", s.offset as f64)
                .bool("maybe_present", maybe_present(&path))
                .done();
            (if s.is_time_column() { &time_columns } else { &series }).push(&item);
        }
        Obj::new().val("series", &series).val("time_columns", &time_columns).done()
    }

    /// Probes one path (UTF-8 bytes as stored in the index) with soundness rules.
    /// `variant`: 0 automatic, 1 Java, 2 zero-extended; `charset`: "" for automatic.
    pub fn probe(&self, path: &[u8], variant_code: u8, charset_name: &str) -> Result<JsValue, JsValue> {
        let v = match variant_code {
            0 => None,
            code => Some(variant(code == 2)),
        };
        let cs = if charset_name.is_empty() { None } else { Some(charset(charset_name)?) };
        let indexed = self.walk.as_ref().map(|_| self.indexed.binary_search_by(|p| p[..].cmp(path)).is_ok());
        let result = |verdict: &str, variant: Option<&str>, charset: Option<&str>, confirmed: bool, reason: &str| {
            Obj::new()
                .val("path", &Lossy::new().str(path))
                .str("verdict", Some(verdict))
                .str("variant", variant)
                .str("charset", charset)
                .bool("confirmed", confirmed)
                .str("reason", Some(reason))
                .bool("indexed", indexed)
        };
        let Some(filter) = self.meta.bloom.filter.as_ref() else {
            let empty: JsValue = js_sys::Array::new().into();
            return Ok(result("unknown", None, None, false, "the file has no Bloom filter; look the path up in the index")
                .val("probes", &empty)
                .val("others", &js_sys::Array::new())
                .done());
        };
        let fp = audit::probe_file_with(filter, self.audit.as_ref(), path, v, cs, &self.encoder).map_err(|e| js_error(&e))?;
        let others = array(&fp.others, |(v, c, p)| {
            Obj::new()
                .str("variant", Some(v.as_str()))
                .str("charset", Some(c.as_str()))
                .str("verdict", Some(p.verdict.as_str()))
                .val("probes", &seeds_js(p))
                .done()
        });
        Ok(result(fp.verdict.as_str(), Some(fp.variant.as_str()), Some(fp.charset.as_str()), fp.confirmed, &fp.reason)
            .val("probes", &seeds_js(&fp.probe))
            .val("others", &others)
            .done())
    }

    /// Verdicts for the `count` UTF-8 paths staged with [`stage_keys`]: one byte each,
    /// 0 absent, 1 maybe, 2 unknown.
    #[wasm_bindgen(js_name = probeStaged)]
    /// `variant_code`/`charset_name` as in [`WasmTsFile::probe`].
    pub fn probe_staged(&self, count: usize, variant_code: u8, charset_name: &str) -> Result<Vec<u8>, JsValue> {
        let v = match variant_code {
            0 => None,
            code => Some(variant(code == 2)),
        };
        let cs = if charset_name.is_empty() { None } else { Some(charset(charset_name)?) };
        let mut out = Vec::with_capacity(staged_count().min(count));
        let rule = VerdictRule::new(self.audit.as_ref(), v, cs);
        for_each_staged(count, |key| {
            out.push(match self.meta.bloom.filter.as_ref() {
                None => 2,
                Some(f) => match rule.verdict(f, key, &self.encoder).map_err(|e| js_error(&e))? {
                    FileVerdict::Absent => 0,
                    FileVerdict::Maybe => 1,
                    FileVerdict::Unknown => 2,
                },
            });
            Ok(())
        })?;
        Ok(out)
    }

    /// For the `count` UTF-8 paths staged with [`stage_keys`]: 0 where `probe` says absent,
    /// else 1 (maybe or unknown). Same arguments as `probe` (crate::batch).
    #[wasm_bindgen(js_name = mightContainStaged)]
    pub fn might_contain_staged(&self, count: usize, variant_code: u8, charset_name: &str) -> Result<Vec<u8>, JsValue> {
        let v = if variant_code == 0 { None } else { Some(variant(variant_code == 2)) };
        let cs = if charset_name.is_empty() { None } else { Some(charset(charset_name)?) };
        let rule = VerdictRule::new(self.audit.as_ref(), v, cs);
        let mut out = Vec::with_capacity(staged_count().min(count));
        for_each_staged(count, |key| {
            out.push(match self.meta.bloom.filter.as_ref() {
                None => 1, // no filter: "unknown", so the file may contain the path
                Some(f) => (rule.verdict(f, key, &self.encoder).map_err(|e| js_error(&e))? != FileVerdict::Absent) as u8,
            });
            Ok(())
        })?;
        Ok(out)
    }
}

/// Lowercase hex, two digits a byte.
fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    crate::error::push_hex(&mut s, bytes, false);
    s
}

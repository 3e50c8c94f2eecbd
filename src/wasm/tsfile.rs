//! The TsFile module's `#[wasm_bindgen]` surface: converters only. Every answer comes from
//! the core ([`TsFileReader`], [`BloomFilter`]) and crosses as the core's `Serialize` type
//! through [`to_js`] (js/index.d.ts declares each shape), except the listing, whose
//! 100,000 rows cross as columns (`listingColumns`, BENCHMARKS.md "Boundary").

use super::common::{for_each_staged, js_error, staged_count, to_js, with_key, with_staged, Global};
use crate::error::Error;
use crate::filter::{BloomFilter, Verdict};
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

fn charset_at(index: usize) -> Result<Charset, JsValue> {
    Charset::ALL.get(index).copied().ok_or_else(|| js_error(&Error::invalid_argument("charset index out of range")))
}

/// The index in `Charset::ALL` (JS's `CHARSETS` order) of a charset name or alias.
#[wasm_bindgen(js_name = charsetIndex)]
pub fn charset_index(name: &str) -> Result<usize, JsValue> {
    let cs = charset(name)?;
    Ok(charset_code(cs) as usize)
}

// One probe's result crosses as numbers in this record, which JS reads in place from wasm
// memory (a few hundred ns less per call than an object built field by field;
// BENCHMARKS.md "Boundary"). At most 8 + 8·4 + 24·(3 + 8·4) values: allocated once, by
// the first probe.
const RECORD_CAP: usize = 1024;
static RECORD: Global<core::cell::RefCell<Vec<i32>>> = Global(core::cell::RefCell::new(Vec::new()));

/// Where the last probe's record starts in wasm memory (`Int32Array` index = address / 4).
#[wasm_bindgen(js_name = probeRecord)]
pub fn probe_record() -> u32 {
    RECORD.with(|r| r.borrow().as_ptr() as u32)
}

fn write_record(f: impl FnOnce(&mut Vec<i32>)) {
    RECORD.with(|r| {
        let mut r = r.borrow_mut();
        r.clear();
        r.reserve(RECORD_CAP);
        f(&mut r);
    })
}

fn charset_code(cs: Charset) -> i32 {
    Charset::ALL.iter().position(|&c| c == cs).map_or(-1, |i| i as i32)
}

fn push_seeds(r: &mut Vec<i32>, probes: &[crate::filter::SeedProbe]) {
    for s in probes {
        r.extend_from_slice(&[s.seed as i32, s.hash32, s.bit as i32, s.set as i32]);
    }
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

/// The `count` staged keys as one buffer and their end offsets, for the hash crate's batch
/// loops (`f`): as staged, or — UTF-8 of JS strings to be hashed in a single-byte charset
/// (windows-1252, ISO-8859-1) — re-encoded first. `f`'s `Err(i)`: `ends[i]` is out of order.
fn with_filter_keys<R>(
    count: usize,
    text: bool,
    charset_name: &str,
    f: impl FnOnce(&[u8], &[u32]) -> Result<R, usize>,
) -> Result<R, JsValue> {
    let cs = charset(charset_name)?;
    let bad_ends = |_| js_error(&Error::invalid_argument("staged key ends are not increasing within the staged bytes"));
    with_staged(count, |keys, ends| {
        if !text || cs == Charset::Utf8 {
            return f(keys, ends).map_err(bad_ends);
        }
        let (mut bytes, mut encoded_ends) = (Vec::with_capacity(keys.len()), Vec::with_capacity(ends.len()));
        let mut start = 0usize;
        for (i, &end) in ends.iter().enumerate() {
            bytes.extend_from_slice(&key_bytes(keys.get(start..end as usize).ok_or(i).map_err(bad_ends)?, true, cs)?);
            encoded_ends.push(bytes.len() as u32);
            start = end as usize;
        }
        f(&bytes, &encoded_ends).map_err(bad_ends)
    })
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

    /// Probes one key into the probe record (see [`probe_record`]): verdict (0 absent,
    /// 1 maybe), k, then (seed, hash32, bit, set) per seed. `text`: `key` is UTF-8 of a JS
    /// string, re-encoded in charset `charset_index`; otherwise its bytes are hashed as given.
    /// The key is the first `len` bytes of the key area (`keyArea`).
    pub fn probe(&self, len: usize, text: bool, zero_extended: bool, charset_index: usize) -> Result<(), JsValue> {
        let cs = charset_at(charset_index)?;
        let p = with_key(len, |key| Ok(self.inner.probe(&key_bytes(key, text, cs)?, variant(zero_extended))))?;
        write_record(|r| {
            r.extend_from_slice(&[(p.verdict == Verdict::Maybe) as i32, p.probes.len() as i32]);
            push_seeds(r, &p.probes);
        });
        Ok(())
    }

    /// Probes the `count` keys staged with [`stage_keys`] in one call. Returns `1 + 2k`
    /// numbers per key: a bit mask of the seeds whose bit is set, then `(hash32, bit)` per seed.
    #[wasm_bindgen(js_name = probeStaged)]
    pub fn probe_staged(
        &self,
        count: usize,
        text: bool,
        zero_extended: bool,
        charset_name: &str,
    ) -> Result<Vec<i32>, JsValue> {
        let stride = 1 + 2 * self.inner.hash_function_count() as usize;
        // Sized by what was staged (not by the caller's count), written in place: no pushes.
        let mut out = vec![0i32; staged_count().min(count) * stride];
        with_filter_keys(count, text, charset_name, |keys, ends| {
            self.inner.probe_many(keys, ends, variant(zero_extended), &mut out)
        })?;
        Ok(out)
    }

    /// Verdicts for the `count` keys staged with [`stage_keys`], one byte each (1 = maybe):
    /// Java's `contains`; no per-seed records.
    #[wasm_bindgen(js_name = mightContainStaged)]
    pub fn might_contain_staged(
        &self,
        count: usize,
        text: bool,
        zero_extended: bool,
        charset_name: &str,
    ) -> Result<Vec<u8>, JsValue> {
        let mut out = Vec::with_capacity(staged_count().min(count));
        with_filter_keys(count, text, charset_name, |keys, ends| {
            self.inner.might_contain_many(keys, ends, variant(zero_extended), &mut out)
        })?;
        Ok(out)
    }

    /// Adds the `count` keys staged with [`stage_keys`].
    #[wasm_bindgen(js_name = addStaged)]
    pub fn add_staged(
        &mut self,
        count: usize,
        text: bool,
        zero_extended: bool,
        charset_name: &str,
    ) -> Result<(), JsValue> {
        let inner = &mut self.inner;
        with_filter_keys(count, text, charset_name, |keys, ends| inner.add_many(keys, ends, variant(zero_extended)))
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

use crate::encoder::PathEncoder;
use crate::source::Ranges;
use crate::tsfile::{
    self,
    audit::{FileVerdict, Reason, VerdictRule},
    DataType, Envelope, TsFileReader,
};

/// Step 1: from the file size, its first bytes and its last 10, where TsFileMetadata is:
/// `[version, metadataOffset, metadataSize]`.
#[wasm_bindgen(js_name = tsfileEnvelope)]
pub fn tsfile_envelope(file_size: f64, head: Vec<u8>, tail: Vec<u8>) -> Result<Vec<f64>, JsValue> {
    let env = envelope_from(file_size, head, tail).map_err(|e| js_error(&e))?;
    Ok(vec![env.version as f64, env.metadata_offset as f64, env.metadata_size as f64])
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

/// `variant_code`: 0 automatic (the audit's), 1 Java, 2 zero-extended; `charset_name`: "" for automatic.
fn overrides(variant_code: u8, charset_name: &str) -> Result<(Option<TailVariant>, Option<Charset>), JsValue> {
    let v = if variant_code == 0 { None } else { Some(variant(variant_code == 2)) };
    let cs = if charset_name.is_empty() { None } else { Some(charset(charset_name)?) };
    Ok((v, cs))
}

/// Appends `s` (invalid UTF-8 replaced by U+FFFD) to the listing's text and returns its `(start, end)`
/// in bytes; `u32::MAX` twice for null.
fn push_text(text: &mut Vec<u8>, s: Option<&[u8]>) -> [u32; 2] {
    let Some(b) = s else { return [u32::MAX, u32::MAX] };
    let start = text.len() as u32;
    text.extend_from_slice(String::from_utf8_lossy(b).as_bytes());
    [start, text.len() as u32]
}

/// [`WasmTsFile::listing_columns`] as it is written, record by record.
struct ListingColumns<'a> {
    text: Vec<u8>,
    bounds: Vec<u32>,
    numbers: Vec<u32>,
    names: MeasurementNames<'a>,
    /// The device of the record before.
    previous: Option<&'a std::sync::Arc<tsfile::DeviceId>>,
    /// Its path prefix (empty: none).
    prefix: &'a [u8],
}

impl<'a> ListingColumns<'a> {
    /// One record. Out of line on purpose: called once per record, it is compiled optimised
    /// after a few calls, while a loop inside the one long call would run in the engine's
    /// baseline code to its end (wasm has no on-stack replacement; `inspect --json` lists once).
    #[inline(never)]
    fn record(&mut self, s: &'a tsfile::Series, maybe: Option<bool>, path: &'a [u8]) {
        let (text, bounds) = (&mut self.text, &mut self.bounds);
        let m = &s.measurement[..];
        // The walk shares one device between its records (and a device belongs to one
        // table): a device met again under another index entry is just listed anew.
        let same = self.previous.is_some_and(|d| std::sync::Arc::ptr_eq(d, &s.device));
        if !same {
            // A path is its device's segments joined, a '.' and the measurement
            // (path::extend_series_path), so the records of one device share the prefix.
            // The '.' ends it: lossy decoding splits there, so the prefix's text followed by
            // the measurement's is the path's text.
            let cut = path.len().wrapping_sub(m.len());
            self.prefix = match path.get(..cut) {
                Some(p) if p.last() == Some(&b'.') => p,
                _ => &[],
            };
            bounds.extend_from_slice(&push_text(text, Some(self.prefix).filter(|p| !p.is_empty())));
            bounds.extend_from_slice(&push_text(text, s.table.as_deref()));
            for seg in &s.device.segments {
                bounds.extend_from_slice(&push_text(text, seg.as_deref()));
            }
        }
        let (id, new_name) = self.names.number(m);
        if new_name {
            bounds.extend_from_slice(&push_text(text, Some(m)));
        }
        let whole = self.prefix.is_empty() || path.len() != self.prefix.len() + m.len();
        if whole {
            bounds.extend_from_slice(&push_text(text, Some(path)));
        }
        let flags = u8::from(s.is_time_column())
            | match maybe {
                Some(false) => 2,
                Some(true) => 4,
                None => 0,
            }
            | if same { 8 } else { 0 }
            | if new_name { 16 } else { 0 }
            | if whole { 32 } else { 0 };
        let type_flags = u32::from(flags) | u32::from(s.data_type.to_byte()) << 8;
        self.numbers.extend_from_slice(&[
            type_flags,
            s.device.segments.len() as u32,
            id,
            s.offset as u32,
            (s.offset >> 32) as u32,
        ]);
        self.previous = Some(&s.device);
    }
}

/// Numbers the measurement names of a listing in order of first use: an open-addressing table
/// of `(FNV-1a hash, number + 1)` (0: an empty slot), at most half full.
#[derive(Default)]
struct MeasurementNames<'a> {
    slots: Vec<(u32, u32)>,
    names: Vec<&'a [u8]>,
}

impl<'a> MeasurementNames<'a> {
    /// The number of `name`, and whether it is new.
    fn number(&mut self, name: &'a [u8]) -> (u32, bool) {
        if 2 * (self.names.len() + 1) > self.slots.len() {
            let size = (2 * self.slots.len()).max(64);
            let old = std::mem::replace(&mut self.slots, vec![(0, 0); size]);
            for &(h, n) in &old {
                if n != 0 {
                    let at = self.find(h, |_| false);
                    self.slots[at] = (h, n);
                }
            }
        }
        let h = name.iter().fold(0x811c_9dc5u32, |h, &b| (h ^ b as u32).wrapping_mul(0x0100_0193));
        let at = self.find(h, |n| self.names[n as usize - 1] == name);
        match self.slots[at].1 {
            0 => {
                self.names.push(name);
                self.slots[at] = (h, self.names.len() as u32);
                (self.names.len() as u32 - 1, true)
            }
            n => (n - 1, false),
        }
    }

    /// The slot holding hash `h` whose number `is` the one, or the empty slot where it goes.
    fn find(&self, h: u32, is: impl Fn(u32) -> bool) -> usize {
        let mask = self.slots.len() - 1;
        let mut at = h as usize & mask;
        while let (sh, n @ 1..) = self.slots[at] {
            if sh == h && is(n) {
                break;
            }
            at = (at + 1) & mask;
        }
        at
    }
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

    /// The listing as columns, for js/tsfile.js to build `SeriesInfo` objects from (and
    /// js/report.js to write `inspect --json` from): `[text, bounds, numbers, typeNames]`.
    /// `text` is UTF-8 (names decoded lossily, as the API shows them); `bounds` holds (start,
    /// end) pairs in `text`, in bytes (`0xffffffff` twice for null). Per record in index order,
    /// `numbers` (u32) holds the flags plus 256 × the data type byte, the device's segment
    /// count, the measurement's number (names numbered in order of first use) and the offset's
    /// low and high 32 bits, and `bounds` holds:
    /// unless flag 8 (same table and device as the record before), the device's path prefix
    /// (its path up to and including the '.' before the measurement), the table and each
    /// segment; with flag 16 (a measurement name not seen before), that name; with flag 32 (the
    /// path is not the prefix followed by the measurement), the path. Flags 1: time column; 2
    /// and 4: maybePresent false and true. Each device's and each measurement's names cross
    /// once: the paths of a 100,000-series file are ~5 MB of text, its names ~0.1 MB, and every
    /// string JS makes is an allocation the garbage collector then copies (BENCHMARKS.md,
    /// "Boundary").
    #[wasm_bindgen(js_name = listingColumns)]
    pub fn listing_columns(&self) -> js_sys::Array {
        let rows = self.reader.entries().count();
        let mut c = ListingColumns {
            text: Vec::new(),
            bounds: Vec::with_capacity(rows),
            numbers: Vec::with_capacity(rows * 5),
            names: MeasurementNames::default(),
            previous: None,
            prefix: &[],
        };
        for (i, (s, maybe)) in self.reader.entries().enumerate() {
            c.record(s, maybe, self.reader.paths().get(i));
        }
        let ListingColumns { text, bounds, numbers, .. } = c;
        let names = js_sys::Array::new();
        for b in 0..=11u8 {
            names.push(&JsValue::from_str(DataType::from_byte(b).map_or("", DataType::as_str)));
        }
        let out = js_sys::Array::new();
        out.push(&js_sys::Uint8Array::from(&text[..]));
        out.push(&js_sys::Uint32Array::from(&bounds[..]));
        out.push(&js_sys::Uint32Array::from(&numbers[..]));
        out.push(&names);
        out
    }

    /// The keys the writer inserted under a hypothesis (for per-bit provenance): the series,
    /// then the time columns when `timeColumns`, joined as the writer joins them and encoded in
    /// `charset`: `[bytes, ends, seriesCount]`.
    #[wasm_bindgen(js_name = writerKeys)]
    pub fn writer_keys(
        &self,
        time_columns: bool,
        trailing_nulls_kept: bool,
        charset_name: &str,
    ) -> Result<js_sys::Array, JsValue> {
        let (bytes, ends, series) = self.reader.writer_keys(time_columns, trailing_nulls_kept, charset(charset_name)?);
        let out = js_sys::Array::new();
        out.push(&js_sys::Uint8Array::from(&bytes[..]));
        out.push(&js_sys::Uint32Array::from(&ends[..]));
        out.push(&JsValue::from_f64(series as f64));
        Ok(out)
    }

    /// Probes one path (UTF-8 bytes as stored in the index) with the file's soundness rules
    /// (TsFileReader::probe) into the probe record, and returns the record's address. The
    /// record: verdict (0 absent, 1 maybe, 2 unknown), variant (-1 none, 0 java, 1
    /// zero-extended), charset (-1 none, else its index), confirmed, indexed (-1 cannot tell:
    /// not read, or not among the series listed before the walk's error; 0, 1), k, the number
    /// of other hashes, k × (seed, hash32, bit, set), then per other hash: variant, charset,
    /// verdict, k × (seed, hash32, bit, set); last, the reason's four codes ([`Reason::codes`]; js/reasons.js words them).
    /// `variant_code`: 0 the audit's, 1 Java, 2 zero-extended; `charset_index`: -1 for the audit's.
    /// The path is the first `len` bytes of the key area (`keyArea`).
    pub fn probe(&self, len: usize, variant_code: u8, charset_index: i32) -> Result<u32, JsValue> {
        let v = if variant_code == 0 { None } else { Some(variant(variant_code == 2)) };
        let cs = if charset_index < 0 { None } else { Some(charset_at(charset_index as usize)?) };
        let (listed, p) = with_key(len, |path| {
            Ok((self.reader.listed(path), self.reader.probe_filter_reasoned(path, v, cs).map_err(|e| js_error(&e))?))
        })?;
        let indexed = listed.indexed().map_or(-1, i32::from);
        let Some((p, reason)) = p else {
            write_record(|r| {
                r.extend_from_slice(&[2, -1, -1, 0, indexed, 0, 0]);
                r.extend_from_slice(&Reason::NoFilter.codes(listed));
            });
            return Ok(probe_record());
        };
        let code = |v: TailVariant, cs: Charset| [(v == TailVariant::ZeroExtended) as i32, charset_code(cs)];
        write_record(|r| {
            let [v, cs] = code(p.variant, p.charset);
            let verdict = match p.verdict {
                FileVerdict::Absent => 0,
                FileVerdict::Maybe => 1,
                FileVerdict::Unknown => 2,
            };
            r.extend_from_slice(&[
                verdict,
                v,
                cs,
                p.confirmed as i32,
                indexed,
                p.probe.probes.len() as i32,
                p.others.len() as i32,
            ]);
            push_seeds(r, &p.probe.probes);
            for (v, cs, o) in &p.others {
                let [v, cs] = code(*v, *cs);
                r.extend_from_slice(&[v, cs, (o.verdict == Verdict::Maybe) as i32]);
                push_seeds(r, &o.probes);
            }
            r.extend_from_slice(&reason.codes(listed));
        });
        Ok(probe_record())
    }

    /// Verdicts for the `count` UTF-8 paths staged with [`stage_keys`]: one byte each,
    /// 0 absent, 1 maybe, 2 unknown. Arguments as for [`WasmTsFile::probe`].
    #[wasm_bindgen(js_name = probeStaged)]
    pub fn probe_staged(&self, count: usize, variant_code: u8, charset_name: &str) -> Result<Vec<u8>, JsValue> {
        let (v, cs) = overrides(variant_code, charset_name)?;
        let rule = self.reader.verdict_rule(v, cs);
        let mut out = Vec::with_capacity(staged_count().min(count));
        for_each_staged(count, |key| {
            out.push(match self.reader.verdict(&rule, key).map_err(|e| js_error(&e))? {
                Some(FileVerdict::Absent) => 0,
                Some(FileVerdict::Maybe) => 1,
                Some(FileVerdict::Unknown) | None => 2,
            });
            Ok(())
        })?;
        Ok(out)
    }

    /// For the `count` UTF-8 paths staged with [`stage_keys`]: 0 where `probe` says absent,
    /// else 1 (maybe or unknown). Arguments as for [`WasmTsFile::probe`].
    #[wasm_bindgen(js_name = mightContainStaged)]
    pub fn might_contain_staged(&self, count: usize, variant_code: u8, charset_name: &str) -> Result<Vec<u8>, JsValue> {
        let (v, cs) = overrides(variant_code, charset_name)?;
        let rule = self.reader.verdict_rule(v, cs);
        let mut out = Vec::with_capacity(staged_count().min(count));
        for_each_staged(count, |key| {
            // No filter: "unknown", so the file may contain the path.
            out.push(u8::from(self.reader.verdict(&rule, key).map_err(|e| js_error(&e))? != Some(FileVerdict::Absent)));
            Ok(())
        })?;
        Ok(out)
    }
}

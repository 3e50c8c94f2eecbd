//! The TsFile module's `#[wasm_bindgen]` surface for the hash and the filter (the file's is in
//! tsfile.rs): converters only. Every answer is the core's ([`BloomFilter`], `crate::hash`),
//! crossing as its `Serialize` type through [`to_js`] or — a single probe — as the core's probe
//! record ([`crate::tsfile::wire::record`]), which js/wire.js decodes. Variants and charsets
//! cross as their wire codes (`-1`: automatic).

use super::common::{bad_ends, js, js_error, staged_count, to_js, with_key, with_staged, Global};
use crate::error::Error;
use crate::filter::BloomFilter;
use crate::hash::{self, TailVariant};
use crate::path::{transcode, Charset};
use crate::tsfile::wire::{self, record};
use wasm_bindgen::prelude::*;

/// A filter's variant code (0 java, 1 zero-extended; automatic is Java's).
fn variant(code: i32) -> Result<TailVariant, JsValue> {
    Ok(js(wire::variant_of(code))?.unwrap_or(TailVariant::Java))
}

/// A filter's charset code (automatic is UTF-8).
pub(super) fn charset(code: i32) -> Result<Charset, JsValue> {
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

pub(super) fn write_record(f: impl FnOnce(&mut Vec<i32>)) -> u32 {
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
    pub(super) inner: BloomFilter,
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

//! The TsFile module's `#[wasm_bindgen]` surface for the hash and the filter (the file's is in
//! tsfile.rs): converters only. Every answer is the core's ([`BloomFilter`], `crate::hash`),
//! crossing as its `Serialize` type through [`to_js`] or — a single probe — as the core's probe
//! record ([`crate::tsfile::wire::record`]), which js/wire.js decodes. Variants and charsets
//! cross as their wire codes (`-1`: automatic).

use super::common::{js, js_error, staged, to_js, Global};
use crate::bytes::Staged;
use crate::filter::{self, BloomFilter};
use crate::hash::{self, TailVariant};
use crate::path::{key_bytes, keys_bytes, transcode, Charset};
use crate::tsfile::wire::{self, record};
use wasm_bindgen::prelude::*;

/// A filter's variant code (0 java, 1 zero-extended; automatic is Java's).
fn to_variant(code: i32) -> Result<TailVariant, JsValue> {
    Ok(js(wire::variant_of(code))?.unwrap_or(TailVariant::Java))
}

/// A filter's charset code (automatic is UTF-8).
pub(super) fn to_charset(code: i32) -> Result<Charset, JsValue> {
    Ok(js(wire::charset_of(code))?.unwrap_or(Charset::Utf8))
}

/// The code of a charset name or alias.
#[wasm_bindgen(js_name = charsetIndex)]
pub fn charset_index(name: &str) -> Result<i32, JsValue> {
    Ok(wire::charset_code(js(Charset::from_name(name))?))
}

// The last probe's record (crate::tsfile::wire::record), read by JS in place in wasm memory.
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

/// The first `count` staged keys as the hash crate's batch loops take them (`path::keys_bytes`).
fn with_filter_keys<R>(
    count: usize,
    text: bool,
    charset: i32,
    f: impl FnOnce(&[u8], &[u32]) -> Result<R, usize>,
) -> Result<R, JsValue> {
    let cs = to_charset(charset)?;
    staged(|s| {
        let (keys, ends) = js(s.batch(count))?;
        let (keys, ends) = js(keys_bytes(keys, ends, text, cs))?;
        f(&keys, &ends).map_err(|_| js_error(&Staged::bad_ends()))
    })
}

#[wasm_bindgen(js_name = hash32)]
pub fn hash32_js(key: &[u8], seed: u32, variant: i32) -> Result<i32, JsValue> {
    Ok(hash::hash32(key, seed, to_variant(variant)?))
}

#[wasm_bindgen(js_name = bitIndex)]
pub fn bit_index_js(hash32: i32, bit_count: u32) -> Result<u32, JsValue> {
    js(filter::bit_index_of(hash32, bit_count))
}

#[wasm_bindgen(js_name = fppFormula)]
pub fn fpp_formula(items: f64, bit_count: u32, hash_function_count: u32) -> f64 {
    filter::false_positive_probability(items, bit_count, hash_function_count)
}

#[wasm_bindgen(js_name = optimalK)]
pub fn optimal_k_js(items: f64, bit_count: u32) -> f64 {
    filter::optimal_k(items, bit_count)
}

/// `[bitCount, hashFunctionCount]` (`filter::java_sizing`).
#[wasm_bindgen(js_name = javaSizing)]
pub fn java_sizing_js(n: f64, error_rate: f64) -> Result<Vec<u32>, JsValue> {
    let (m, k) = filter::java_sizing(js(filter::capacity(n))?, error_rate);
    Ok(vec![m, k])
}

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
    /// `undefined` for the "no filter" encoding.
    pub fn decode(bytes: &[u8]) -> Result<Option<WasmBloomFilter>, JsValue> {
        Ok(js(BloomFilter::decode_whole(bytes))?.map(|inner| WasmBloomFilter { inner }))
    }

    #[wasm_bindgen(js_name = withCapacity)]
    pub fn with_capacity(n: f64, error_rate: f64) -> Result<WasmBloomFilter, JsValue> {
        Ok(WasmBloomFilter { inner: BloomFilter::with_capacity(js(filter::capacity(n))?, error_rate) })
    }

    #[wasm_bindgen(js_name = withGeometry)]
    pub fn with_geometry(bit_count: u32, hash_function_count: u32) -> Result<WasmBloomFilter, JsValue> {
        Ok(WasmBloomFilter { inner: js(BloomFilter::new(bit_count, hash_function_count))? })
    }

    pub fn add(&mut self, key: &[u8], text: bool, variant: i32, charset: i32) -> Result<(), JsValue> {
        let key = js(key_bytes(key, text, to_charset(charset)?))?;
        self.inner.add(&key, to_variant(variant)?);
        Ok(())
    }

    /// Probes the key in the key area's first `len` bytes into the probe record
    /// (`wire::record::filter_probe`).
    pub fn probe(&self, len: usize, text: bool, variant: i32, charset: i32) -> Result<(), JsValue> {
        let (v, cs) = (to_variant(variant)?, to_charset(charset)?);
        let p = staged(|s| Ok(self.inner.probe(&js(key_bytes(js(s.key(len))?, text, cs))?, v)))?;
        write_record(|r| record::filter_probe(r, &p));
        Ok(())
    }

    /// Probes the `count` keys staged with `stageKeys` in one call. Returns `1 + 2k`
    /// numbers per key: a bit mask of the seeds whose bit is set, then `(hash32, bit)` per seed.
    #[wasm_bindgen(js_name = probeStaged)]
    pub fn probe_staged(&self, count: usize, text: bool, variant: i32, charset: i32) -> Result<Vec<i32>, JsValue> {
        let (v, stride) = (to_variant(variant)?, 1 + 2 * self.inner.hash_function_count() as usize);
        // Sized by the keys staged (checked against the caller's count), written in place.
        with_filter_keys(count, text, charset, |keys, ends| {
            let mut out = vec![0i32; ends.len() * stride];
            self.inner.probe_many(keys, ends, v, &mut out).map(|_| out)
        })
    }

    /// Verdicts for the `count` keys staged with `stageKeys`, one byte each (1 = maybe):
    /// Java's `contains`; no per-seed records.
    #[wasm_bindgen(js_name = mightContainStaged)]
    pub fn might_contain_staged(
        &self,
        count: usize,
        text: bool,
        variant: i32,
        charset: i32,
    ) -> Result<Vec<u8>, JsValue> {
        let v = to_variant(variant)?;
        with_filter_keys(count, text, charset, |keys, ends| {
            let mut out = Vec::with_capacity(ends.len());
            self.inner.might_contain_many(keys, ends, v, &mut out).map(|_| out)
        })
    }

    /// Adds the `count` keys staged with `stageKeys`.
    #[wasm_bindgen(js_name = addStaged)]
    pub fn add_staged(&mut self, count: usize, text: bool, variant: i32, charset: i32) -> Result<(), JsValue> {
        let (v, inner) = (to_variant(variant)?, &mut self.inner);
        with_filter_keys(count, text, charset, |keys, ends| inner.add_many(keys, ends, v))
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

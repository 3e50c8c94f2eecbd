//! The TsFile module's `#[wasm_bindgen]` surface for the hash and the filter (a file's is in
//! tsfile.rs): converters of the core's [`BloomFilter`], `tsfile_bloom::hash` and `tsfile_bloom::filter`'s
//! formulas. Keys and codes go to [`tsfile_bloom::tsfile::wire`]'s calls, which answer in its layouts
//! (js/wire.js decodes them); result objects cross through [`to_js`].

use crate::encoder::JsEncoder;
use crate::stage::write_record;
use tsfile_bloom::encoder::PathEncoder;
use tsfile_bloom::filter::{self, BloomFilter};
use tsfile_bloom::path::Charset;
use tsfile_bloom::tsfile::verdict::{Decision, FileVerdict, Listed};
use tsfile_bloom::tsfile::view::BloomInfo;
use tsfile_bloom::tsfile::wire::{self, batch, batch::KeyCoding};
use wasm_bindgen::prelude::*;
use wasm_common::stage::staged;
use wasm_common::{js, to_js};

/// The code of a charset name or alias.
#[wasm_bindgen(js_name = charsetIndex)]
pub fn charset_index(name: &str) -> Result<i32, JsValue> {
    Ok(js(Charset::from_name(name))?.code())
}

#[wasm_bindgen(js_name = hash32)]
pub fn hash32_js(key: &[u8], seed: u32, variant: i32) -> Result<i32, JsValue> {
    Ok(tsfile_bloom::hash::hash32(key, seed, js(wire::filter_variant(variant))?))
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

/// A JVM's bytes for UTF-8 text in the charset of a code: single-byte charsets, and ASCII in
/// any; other text in a multi-byte charset is the core's error that the charsets module is
/// needed (`WithModule`).
#[wasm_bindgen(js_name = encodeText)]
pub fn encode_text(utf8: &[u8], charset: i32) -> Result<Vec<u8>, JsValue> {
    Ok(js(JsEncoder::default().encode(utf8, js(wire::filter_charset(charset))?))?.into_owned())
}

/// A probe of a filter built here (the page's synthetic filter), from the hash it was built with
/// (codes), whether every bit is set under it, and the hash whose bits are shown:
/// `[reason, decision]`, [`filter::built_filter_reason`] and the decision's code
/// ([`Decision::of`] its verdict, with no index to read).
#[wasm_bindgen(js_name = builtFilterProbe)]
pub fn built_filter_probe(
    variant: i32,
    charset: i32,
    maybe: bool,
    shown_variant: i32,
    shown_charset: i32,
) -> Result<js_sys::Array, JsValue> {
    let hash = |v, cs| Ok::<_, JsValue>((js(wire::filter_variant(v))?, js(wire::filter_charset(cs))?));
    let (verdict, decided) = match maybe {
        true => (filter::Verdict::Maybe, FileVerdict::Maybe),
        false => (filter::Verdict::Absent, FileVerdict::Absent),
    };
    let reason = filter::built_filter_reason(hash(variant, charset)?, verdict, hash(shown_variant, shown_charset)?);
    let decision = Decision::of(decided, Listed::NotRead).code();
    Ok(js_sys::Array::of2(&reason.into(), &decision.into()))
}

#[wasm_bindgen]
pub struct WasmBloomFilter {
    pub(crate) inner: BloomFilter,
}

/// Keys arrive as [`KeyCoding`]'s codes; batches are the `count` keys staged with `stageKeys`,
/// a single key the key area's first `len` bytes (`keyArea`).
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

    /// Into the probe record (`wire::record::filter_probe`).
    pub fn probe(&self, len: usize, text: bool, variant: i32, charset: i32) -> Result<(), JsValue> {
        let c = js(KeyCoding::of(text, variant, charset))?;
        write_record(len, |r, key| batch::filter_probe(r, &self.inner, key, c))
    }

    /// Per key `1 + 2k` numbers (`wire::batch::filter_probes`).
    #[wasm_bindgen(js_name = probeStaged)]
    pub fn probe_staged(&self, count: usize, text: bool, variant: i32, charset: i32) -> Result<Vec<i32>, JsValue> {
        let c = js(KeyCoding::of(text, variant, charset))?;
        staged(|s| batch::filter_probes(&self.inner, s, count, c))
    }

    /// One byte per key, 1 = maybe: Java's `contains`.
    #[wasm_bindgen(js_name = mightContainStaged)]
    pub fn might_contain_staged(
        &self,
        count: usize,
        text: bool,
        variant: i32,
        charset: i32,
    ) -> Result<Vec<u8>, JsValue> {
        let c = js(KeyCoding::of(text, variant, charset))?;
        staged(|s| batch::filter_verdicts(&self.inner, s, count, c))
    }

    #[wasm_bindgen(js_name = addStaged)]
    pub fn add_staged(&mut self, count: usize, text: bool, variant: i32, charset: i32) -> Result<(), JsValue> {
        let c = js(KeyCoding::of(text, variant, charset))?;
        staged(|s| batch::filter_add(&mut self.inner, s, count, c))
    }

    pub fn encode(&self) -> Vec<u8> {
        self.inner.encode()
    }

    /// The logical `ceil(bitCount / 8)`-byte vector, LSB-first.
    pub fn bits(&self) -> Vec<u8> {
        self.inner.logical_bits()
    }

    /// `wire::geometry`: `[bitCount, hashFunctionCount, byteLength, setBits]`.
    pub fn geometry(&self) -> Vec<f64> {
        wire::geometry(&self.inner).to_vec()
    }

    /// [`BloomInfo::of_filter`]: the filter, holding `items` keys, as a file's `bloomInfo()` shows one.
    pub fn info(&self, items: f64) -> Result<JsValue, JsValue> {
        to_js(&js(BloomInfo::of_filter(&self.inner, items as u64))?)
    }

    pub fn stats(&self, items: Option<f64>) -> Result<JsValue, JsValue> {
        to_js(&self.inner.stats(items))
    }
}

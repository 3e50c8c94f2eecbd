//! The `#[wasm_bindgen]` surface: thin adapters from the core to JS. The public
//! JS API (argument parsing, strings → bytes, result objects) lives in `js/`;
//! these functions take bytes and names and return plain data.

use crate::error::Error;
use crate::filter::{BloomFilter, Verdict};
use crate::hash::{self, TailVariant};
use crate::path::{transcode, Charset};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// A JS `Error` with `kind` and `offset` properties.
fn js_error(e: &Error) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    let _ = js_sys::Reflect::set(&err, &"kind".into(), &e.kind.as_str().into());
    let _ = js_sys::Reflect::set(&err, &"offset".into(), &JsValue::from_f64(e.offset as f64));
    err.into()
}

fn variant(name: &str) -> Result<TailVariant, JsValue> {
    TailVariant::from_name(name).ok_or_else(|| {
        js_error(&Error::invalid_argument(format!("unknown hash variant {name:?}; expected \"java\" or \"zero-extended\"")))
    })
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
pub fn hash32_js(key: &[u8], seed: u32, variant_name: &str) -> Result<i32, JsValue> {
    Ok(hash::hash32(key, seed, variant(variant_name)?))
}

#[wasm_bindgen(js_name = bitIndex)]
pub fn bit_index_js(hash32: i32, bit_count: u32) -> Result<u32, JsValue> {
    if bit_count == 0 {
        return Err(js_error(&Error::invalid_argument("bit_count must be positive")));
    }
    Ok(hash::bit_index(hash32, bit_count))
}

/// A JS string's UTF-8 bytes re-encoded in a single-byte charset (UTF-8, windows-1252, ISO-8859-1).
#[wasm_bindgen(js_name = encodeText)]
pub fn encode_text(utf8: &[u8], charset_name: &str) -> Result<Vec<u8>, JsValue> {
    Ok(transcode(utf8, charset(charset_name)?).map_err(|e| js_error(&e))?.into_owned())
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SeedProbeJs {
    seed: u32,
    hash32: i32,
    bit: u32,
    set: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ProbeJs {
    verdict: &'static str,
    variant: &'static str,
    charset: &'static str,
    probes: Vec<SeedProbeJs>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StatsJs {
    bit_count: u32,
    hash_function_count: u32,
    set_bits: f64,
    fill_ratio: f64,
    estimated_items: f64,
    items: f64,
    fpp_formula: f64,
    fpp_from_fill: f64,
    optimal_k: f64,
}

fn to_js<T: Serialize>(v: &T) -> Result<JsValue, JsValue> {
    // Plain objects, not Maps; non-finite floats stay numbers (Infinity).
    v.serialize(&serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true))
        .map_err(|e| JsValue::from(js_sys::Error::new(&e.to_string())))
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

    pub fn add(&mut self, key: &[u8], text: bool, variant_name: &str, charset_name: &str) -> Result<(), JsValue> {
        let cs = charset(charset_name)?;
        self.inner.add(&key_bytes(key, text, cs)?, variant(variant_name)?);
        Ok(())
    }

    pub fn probe(&self, key: &[u8], text: bool, variant_name: &str, charset_name: &str) -> Result<JsValue, JsValue> {
        let v = variant(variant_name)?;
        let cs = charset(charset_name)?;
        let p = self.inner.probe(&key_bytes(key, text, cs)?, v);
        to_js(&ProbeJs {
            verdict: p.verdict.as_str(),
            variant: v.as_str(),
            charset: if text { cs.as_str() } else { "bytes" },
            probes: p.probes.iter().map(|s| SeedProbeJs { seed: s.seed, hash32: s.hash32, bit: s.bit, set: s.set }).collect(),
        })
    }

    /// Probes many keys in one call. `packed` holds the keys back to back; `ends[i]` is
    /// the end of key i. Returns `1 + 2k` numbers per key: a bit mask of the seeds whose
    /// bit is set, then `(hash32, bit)` per seed.
    #[wasm_bindgen(js_name = probeMany)]
    pub fn probe_many(
        &self,
        packed: &[u8],
        ends: &[u32],
        text: bool,
        variant_name: &str,
        charset_name: &str,
    ) -> Result<Vec<i32>, JsValue> {
        let v = variant(variant_name)?;
        let cs = charset(charset_name)?;
        let k = self.inner.hash_function_count() as usize;
        let mut out = Vec::with_capacity(ends.len() * (1 + 2 * k));
        let mut start = 0usize;
        for &end in ends {
            let end = end as usize;
            let key = packed.get(start..end).ok_or_else(|| {
                js_error(&Error::invalid_argument(format!("key range {start}..{end} is outside the packed buffer")))
            })?;
            let p = self.inner.probe(&key_bytes(key, text, cs)?, v);
            let mask = p.probes.iter().enumerate().fold(0i32, |m, (j, s)| m | ((s.set as i32) << j));
            out.push(mask);
            for s in &p.probes {
                out.push(s.hash32);
                out.push(s.bit as i32);
            }
            debug_assert_eq!(p.verdict == Verdict::Maybe, mask == (1 << k) - 1);
            start = end;
        }
        Ok(out)
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
        let s = self.inner.stats(items);
        to_js(&StatsJs {
            bit_count: s.bit_count,
            hash_function_count: s.hash_function_count,
            set_bits: s.set_bits as f64,
            fill_ratio: s.fill_ratio,
            estimated_items: s.estimated_items,
            items: s.items,
            fpp_formula: s.fpp_formula,
            fpp_from_fill: s.fpp_from_fill,
            optimal_k: s.optimal_k,
        })
    }
}

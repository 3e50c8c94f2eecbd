//! The TsFile module's path encoder: the core's `encoder::WithModule` over the charsets
//! module, which JS loads only when a multi-byte JVM charset is needed (js/charsets.js).

use tsfile_bloom::encoder::{CharsetModule, WithModule};
use tsfile_bloom::path::Charset;
use wasm_bindgen::prelude::*;

/// The charsets module's `(utf8Bytes, charsetName) → Uint8Array`, which JS hands over once it is
/// loaded (`encoder::WithModule` decides what reaches it).
pub(crate) struct JsCharsets(pub(crate) js_sys::Function);

impl CharsetModule for JsCharsets {
    fn encode(&self, utf8: &[u8], cs: Charset) -> Option<Vec<u8>> {
        let bytes = self.0.call2(&JsValue::NULL, &js_sys::Uint8Array::from(utf8), &JsValue::from_str(cs.as_str()));
        Some(js_sys::Uint8Array::new(&bytes.ok()?).to_vec())
    }
}

pub(crate) type JsEncoder = WithModule<JsCharsets>;

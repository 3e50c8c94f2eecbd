//! The npm package's charsets module (`dist/web/charsets`, scripts/build.sh):
//! `String.getBytes(charset)` for every JVM charset of `tsfile_bloom::charset` (with its
//! `jvm-charsets` feature: JDK 17's tables), loaded by the package only when a multi-byte
//! charset is used (js/charsets.js).
#![cfg(target_arch = "wasm32")]

use tsfile_bloom::charset::Charset;
use wasm_bindgen::prelude::*;
use wasm_common::js;

/// The bytes a JVM whose default charset is `charset` hashes for `text`: one `?`
/// per unmappable code point. An unknown name throws `kind: 'invalid_argument'`.
#[wasm_bindgen]
pub fn encode(text: &str, charset: &str) -> Result<Vec<u8>, JsValue> {
    let cs = js(Charset::from_name(charset))?;
    Ok(cs.encode(text).into_owned())
}

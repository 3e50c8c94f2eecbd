//! The charsets module's `#[wasm_bindgen]` surface (built with the `wasm-charsets`
//! feature): `String.getBytes(charset)` for every JVM charset of `crate::charset`,
//! loaded by the package only when a multi-byte charset is used (js/charsets.js).

use super::common::js;
use crate::charset::Charset;
use wasm_bindgen::prelude::*;

/// The bytes a JVM whose default charset is `charset` hashes for `text`: one `?`
/// per unmappable code point. An unknown name throws `kind: 'invalid_argument'`.
#[wasm_bindgen]
pub fn encode(text: &str, charset: &str) -> Result<Vec<u8>, JsValue> {
    let cs = js(Charset::from_name(charset))?;
    Ok(cs.encode(text).into_owned())
}

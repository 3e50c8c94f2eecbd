//! What every wasm module of the package shares: the allocator, the one serializer that
//! carries result objects to JS, JS errors with `kind`/`offset`, module state, and the staging
//! area the TsFile and LevelDB modules take keys through (`stage`). Each module is its own
//! crate (crates/wasm-tsfile, wasm-leveldb, wasm-charsets, teach) depending on this one.
#![cfg(target_arch = "wasm32")]

pub mod stage;

use tsfile_bloom::Error;
use wasm_bindgen::prelude::*;

// A smaller allocator than std's dlmalloc (single-threaded wasm only).
#[cfg(not(target_feature = "atomics"))]
#[global_allocator]
static ALLOC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// A core result type as a plain JS object: camelCase keys from its `Serialize` derive,
/// `None` as `null` (the json-compatible serializer), maps as plain objects.
pub fn to_js<T: serde::Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| js_error(&Error::invalid_argument(e.to_string())))
}

/// A JS `Error` whose message is the plain sentence, with `kind` and `offset` properties;
/// `offset` is null for an error that has none (a bad argument concerns no byte of a file).
pub fn js_error(e: &Error) -> JsValue {
    let err: JsValue = js_sys::Error::new(&e.message).into();
    let _ = js_sys::Reflect::set(&err, &JsValue::from_str("kind"), &JsValue::from_str(e.kind.as_str()));
    let offset = e.offset().map_or(JsValue::NULL, |at| JsValue::from_f64(at as f64));
    let _ = js_sys::Reflect::set(&err, &JsValue::from_str("offset"), &offset);
    err
}

/// A core result as JS takes it: its error as [`js_error`]'s `Error`.
pub fn js<T>(r: tsfile_bloom::Result<T>) -> Result<T, JsValue> {
    r.map_err(into_js)
}

// Not inlined: the error's conversion and drop once, not in every `js::<T>`.
#[inline(never)]
fn into_js(e: Error) -> JsValue {
    js_error(&e)
}

/// Module state in a plain `static`: these modules run on one thread (no atomics), and a
/// `thread_local!` costs a liveness check and its panic path in every access (~750 B
/// gzipped on the TsFile module; scripts/check-size.mjs). `with` as `LocalKey::with`.
pub struct Global<T>(pub T);

// Sound: without the atomics feature there is no second thread to share it with.
#[cfg(not(target_feature = "atomics"))]
unsafe impl<T> Sync for Global<T> {}

impl<T> Global<T> {
    pub fn with<R>(&'static self, f: impl FnOnce(&T) -> R) -> R {
        f(&self.0)
    }
}

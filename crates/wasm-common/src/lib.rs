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

// The package's error class (js/errors.js), imported by the glue from beside it: the package
// and the page keep js/ and dist/web/ side by side. The wasm-level tests run the glue from
// elsewhere (feature `test-glue`, their dev-dependency's), so they make the same fields on a
// plain Error.
#[cfg_attr(not(feature = "test-glue"), wasm_bindgen(raw_module = "../../js/errors.js"))]
#[cfg_attr(
    feature = "test-glue",
    wasm_bindgen(
        inline_js = "export function coreError(kind, message, offset, argument) { return Object.assign(new Error(message), { kind, offset, argument }); }"
    )
)]
extern "C" {
    #[wasm_bindgen(js_name = coreError)]
    fn core_error(kind: &str, message: &str, offset: Option<f64>, argument: Option<&str>) -> JsValue;
}

/// A `TsFileBloomError` whose message is the plain sentence, with `kind`, `offset` (null for an
/// error that has none: a bad argument concerns no byte of a file) and a bad argument's `argument`.
pub fn js_error(e: &Error) -> JsValue {
    core_error(e.kind.as_str(), &e.message, e.offset().map(|at| at as f64), e.argument().map(|a| a.as_str()))
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

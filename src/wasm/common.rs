//! What every wasm module of the package shares: the allocator, the one serializer that
//! carries result objects to JS, JS errors with `kind`/`offset`, and the batch staging area.

// The charsets module uses only js from here; the teaching module to_js and js_error.
#![cfg_attr(any(feature = "wasm-charsets", feature = "wasm-teach"), allow(dead_code))]

use crate::error::Error;
use wasm_bindgen::prelude::*;

// A smaller allocator than std's dlmalloc (single-threaded wasm only).
#[cfg(not(target_feature = "atomics"))]
#[global_allocator]
static ALLOC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// A core result type as a plain JS object: camelCase keys from its `Serialize` derive,
/// `None` as `null` (the json-compatible serializer), maps as plain objects.
pub(crate) fn to_js<T: serde::Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| js_error(&Error::invalid_argument(e.to_string())))
}

/// A JS `Error` whose message is the plain sentence, with `kind` and `offset` properties;
/// `offset` is null for an error that has none (a bad argument concerns no byte of a file).
pub(crate) fn js_error(e: &Error) -> JsValue {
    let err: JsValue = js_sys::Error::new(&e.message).into();
    let _ = js_sys::Reflect::set(&err, &JsValue::from_str("kind"), &JsValue::from_str(e.kind.as_str()));
    let offset = e.offset().map_or(JsValue::NULL, |at| JsValue::from_f64(at as f64));
    let _ = js_sys::Reflect::set(&err, &JsValue::from_str("offset"), &offset);
    err
}

/// A core result as JS takes it: its error as [`js_error`]'s `Error`.
pub(crate) fn js<T>(r: crate::Result<T>) -> Result<T, JsValue> {
    r.map_err(|e| js_error(&e))
}

/// Module state in a plain `static`: these modules run on one thread (no atomics), and a
/// `thread_local!` costs a liveness check and its panic path in every access (~750 B
/// gzipped on the TsFile module; scripts/check-size.mjs). `with` as `LocalKey::with`.
pub(crate) struct Global<T>(pub T);

// Sound: without the atomics feature there is no second thread to share it with.
#[cfg(not(target_feature = "atomics"))]
unsafe impl<T> Sync for Global<T> {}

impl<T> Global<T> {
    pub(crate) fn with<R>(&'static self, f: impl FnOnce(&T) -> R) -> R {
        f(&self.0)
    }
}

// Batches: JS writes the keys straight into wasm memory (one native call per string) in a
// staging area this module owns, then one call processes them all. The charsets
// module has no batch calls.
#[cfg(not(any(feature = "wasm-charsets", feature = "wasm-teach")))]
static STAGE: Global<core::cell::RefCell<(Vec<u8>, Vec<u32>)>> =
    Global(core::cell::RefCell::new((Vec::new(), Vec::new())));

/// Makes room for `count` keys of at most `bytes` bytes in all and returns their
/// addresses in wasm memory: `[keys, ends]` (`ends[i]` = end offset of key i).
#[cfg(not(any(feature = "wasm-charsets", feature = "wasm-teach")))]
#[wasm_bindgen(js_name = stageKeys)]
pub fn stage_keys(bytes: usize, count: usize) -> Vec<u32> {
    STAGE.with(|s| {
        let mut s = s.borrow_mut();
        // Exactly `bytes` and `count` long (the ends are checked against that); zero-filled
        // only where the area grows, since JS overwrites what it uses.
        s.0.resize(bytes, 0);
        s.1.resize(count, 0);
        vec![s.0.as_ptr() as u32, s.1.as_ptr() as u32]
    })
}

/// Makes room for one key of at most `bytes` bytes and returns its address: single-key calls
/// (`probe`) read the first `len` bytes there, written by JS straight into wasm memory
/// (no copy through a JS array and the glue's allocation).
#[cfg(not(any(feature = "wasm-charsets", feature = "wasm-leveldb", feature = "wasm-teach")))]
#[wasm_bindgen(js_name = keyArea)]
pub fn key_area(bytes: usize) -> u32 {
    STAGE.with(|s| {
        let mut s = s.borrow_mut();
        if s.0.len() < bytes {
            s.0.resize(bytes, 0);
        }
        s.0.as_ptr() as u32
    })
}

/// The first `len` bytes of the key area, for `f`.
#[cfg(not(any(feature = "wasm-charsets", feature = "wasm-leveldb", feature = "wasm-teach")))]
pub(crate) fn with_key<R>(len: usize, f: impl FnOnce(&[u8]) -> Result<R, JsValue>) -> Result<R, JsValue> {
    STAGE.with(|s| {
        let s = s.borrow();
        let key =
            s.0.get(..len).ok_or_else(|| js_error(&Error::invalid_argument("the key is longer than its area")))?;
        f(key)
    })
}

/// The error for staged key `i` whose end is out of order.
pub(crate) fn bad_ends(_i: usize) -> JsValue {
    js_error(&Error::invalid_argument("staged key ends are not increasing within the staged bytes"))
}

/// The module's memory, for writing staged keys.
#[cfg(not(any(feature = "wasm-charsets", feature = "wasm-teach")))]
#[wasm_bindgen(js_name = wasmMemory)]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// The staged `(bytes, ends)` of the first `count` keys, for kernels that walk them themselves.
#[cfg(not(any(feature = "wasm-charsets", feature = "wasm-teach")))]
#[cfg_attr(feature = "wasm-leveldb", allow(dead_code))]
pub(crate) fn with_staged<R>(count: usize, f: impl FnOnce(&[u8], &[u32]) -> Result<R, JsValue>) -> Result<R, JsValue> {
    STAGE.with(|s| {
        let s = s.borrow();
        let ends = s.1.get(..count).ok_or_else(|| js_error(&Error::invalid_argument("more keys than were staged")))?;
        f(&s.0, ends)
    })
}

/// How many keys are staged (what output buffers may be sized by).
#[cfg(not(any(feature = "wasm-charsets", feature = "wasm-teach")))]
#[cfg_attr(feature = "wasm-leveldb", allow(dead_code))]
pub(crate) fn staged_count() -> usize {
    STAGE.with(|s| s.borrow().1.len())
}

#[cfg(not(any(feature = "wasm-charsets", feature = "wasm-teach")))]
pub(crate) fn for_each_staged(count: usize, mut f: impl FnMut(&[u8]) -> Result<(), JsValue>) -> Result<(), JsValue> {
    STAGE.with(|s| {
        let s = s.borrow();
        let ends = s.1.get(..count).ok_or_else(|| js_error(&Error::invalid_argument("more keys than were staged")))?;
        for key in crate::bytes::keys(&s.0, ends) {
            f(key.map_err(bad_ends)?)?;
        }
        Ok(())
    })
}

//! What every wasm module of the package shares: the allocator, building plain JS
//! objects, JS errors with `kind`/`offset`, and the batch staging area.
//!
//! Size matters here (each shipped module has a gzip budget): result objects are
//! built field by field with `Reflect.set` (the [`Obj`] helper) instead of a
//! serializer, whose per-type code was inlined into every export.

// The charsets module uses only js_error from here.
#![cfg_attr(feature = "wasm-charsets", allow(dead_code))]

use crate::error::Error;
use wasm_bindgen::prelude::*;

// A smaller allocator than std's dlmalloc (single-threaded wasm only).
#[cfg(not(target_feature = "atomics"))]
#[global_allocator]
static ALLOC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = Reflect, js_name = set)]
    fn set_val(target: &JsValue, key: &str, value: &JsValue);
    #[wasm_bindgen(js_namespace = Reflect, js_name = set)]
    fn set_num(target: &JsValue, key: &str, value: Option<f64>);
    #[wasm_bindgen(js_namespace = Reflect, js_name = set)]
    fn set_str(target: &JsValue, key: &str, value: Option<&str>);
    #[wasm_bindgen(js_namespace = Reflect, js_name = set)]
    fn set_bool(target: &JsValue, key: &str, value: Option<bool>);
}

/// A plain JS object under construction. `None` values become `undefined`
/// properties (the key is present), as the serializer used to produce.
pub(crate) struct Obj(pub(crate) JsValue);

impl Obj {
    pub(crate) fn new() -> Obj {
        Obj(js_sys::Object::new().into())
    }
    pub(crate) fn num(self, key: &str, v: impl Into<Option<f64>>) -> Obj {
        set_num(&self.0, key, v.into());
        self
    }
    pub(crate) fn str(self, key: &str, v: Option<&str>) -> Obj {
        set_str(&self.0, key, v);
        self
    }
    pub(crate) fn bool(self, key: &str, v: impl Into<Option<bool>>) -> Obj {
        set_bool(&self.0, key, v.into());
        self
    }
    pub(crate) fn val(self, key: &str, v: &JsValue) -> Obj {
        set_val(&self.0, key, v);
        self
    }
    pub(crate) fn done(self) -> JsValue {
        self.0
    }
}

/// A JS array of `f(item)` for each item.
pub(crate) fn array<T>(items: impl IntoIterator<Item = T>, mut f: impl FnMut(T) -> JsValue) -> JsValue {
    let a = js_sys::Array::new();
    for i in items {
        a.push(&f(i));
    }
    a.into()
}

/// A JS `Error` with `kind` and `offset` properties.
pub(crate) fn js_error(e: &Error) -> JsValue {
    let err: JsValue = js_sys::Error::new(&e.to_string()).into();
    Obj(err).str("kind", Some(e.kind.as_str())).num("offset", e.offset as f64).done()
}

// Batches: JS writes the keys straight into wasm memory (TextEncoder.encodeInto) in a
// staging area this module owns, then one call processes them all. The charsets
// module has no batch calls.
#[cfg(not(feature = "wasm-charsets"))]
thread_local! {
    static STAGE: core::cell::RefCell<(Vec<u8>, Vec<u32>)> = const { core::cell::RefCell::new((Vec::new(), Vec::new())) };
}

/// Makes room for `count` keys of at most `bytes` bytes in all and returns their
/// addresses in wasm memory: `[keys, ends]` (`ends[i]` = end offset of key i).
#[cfg(not(feature = "wasm-charsets"))]
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

/// The module's memory, for writing staged keys.
#[cfg(not(feature = "wasm-charsets"))]
#[wasm_bindgen(js_name = wasmMemory)]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// The staged `(bytes, ends)` of the first `count` keys, for kernels that walk them themselves.
#[cfg(not(feature = "wasm-charsets"))]
#[cfg_attr(feature = "wasm-leveldb", allow(dead_code))]
pub(crate) fn with_staged<R>(count: usize, f: impl FnOnce(&[u8], &[u32]) -> Result<R, JsValue>) -> Result<R, JsValue> {
    STAGE.with(|s| {
        let s = s.borrow();
        let ends = s.1.get(..count).ok_or_else(|| js_error(&Error::invalid_argument("more keys than were staged")))?;
        f(&s.0, ends)
    })
}

/// How many keys are staged (what output buffers may be sized by).
#[cfg(not(feature = "wasm-charsets"))]
#[cfg_attr(feature = "wasm-leveldb", allow(dead_code))]
pub(crate) fn staged_count() -> usize {
    STAGE.with(|s| s.borrow().1.len())
}

#[cfg(not(feature = "wasm-charsets"))]
pub(crate) fn for_each_staged(count: usize, mut f: impl FnMut(&[u8]) -> Result<(), JsValue>) -> Result<(), JsValue> {
    STAGE.with(|s| {
        let s = s.borrow();
        let (bytes, ends) = (&s.0, &s.1);
        if count > ends.len() {
            return Err(js_error(&Error::invalid_argument("more keys than were staged")));
        }
        let mut start = 0usize;
        for &end in &ends[..count] {
            let key = bytes
                .get(start..end as usize)
                .ok_or_else(|| js_error(&Error::invalid_argument("staged key ends are not increasing within the staged bytes")))?;
            f(key)?;
            start = end as usize;
        }
        Ok(())
    })
}


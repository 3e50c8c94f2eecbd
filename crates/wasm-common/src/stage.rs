//! The wasm memory JS writes keys into (the TsFile and LevelDB modules): batches are staged in
//! the core's [`Staged`] (its layout and checks) with one native call per string, then one call
//! processes them all. A module that stages keys invokes [`staging_exports!`] once for the two
//! exports JS writes through (an export here would be in every module that uses this crate).

use crate::{js, Global};
use core::cell::RefCell;
use tsfile_bloom::staged::Staged;

static STAGE: Global<RefCell<Staged>> = Global(RefCell::new(Staged::new()));

/// Room for `count` keys of `bytes` bytes in all: their addresses in wasm memory, `[keys, ends]`.
pub fn stage_keys(bytes: usize, count: usize) -> Vec<u32> {
    STAGE.with(|s| {
        let mut s = s.borrow_mut();
        let (keys, ends) = s.make_room(bytes, count);
        vec![keys.as_ptr() as u32, ends.as_ptr() as u32]
    })
}

/// Room for one key of `bytes` bytes (single-key calls such as `probe`): its address.
pub fn key_area(bytes: usize) -> u32 {
    STAGE.with(|s| s.borrow_mut().key_room(bytes).as_ptr() as u32)
}

/// The staging area, for the core's call `f`.
pub fn staged<R>(f: impl FnOnce(&Staged) -> tsfile_bloom::Result<R>) -> Result<R, wasm_bindgen::JsValue> {
    STAGE.with(|s| js(f(&s.borrow())))
}

/// The module's `stageKeys` ([`stage_keys`]) and `wasmMemory` (its memory, for writing staged
/// keys) exports.
#[macro_export]
macro_rules! staging_exports {
    () => {
        /// Room for `count` keys of `bytes` bytes in all: their addresses in wasm memory, `[keys, ends]`.
        #[wasm_bindgen::prelude::wasm_bindgen(js_name = stageKeys)]
        pub fn stage_keys(bytes: usize, count: usize) -> Vec<u32> {
            $crate::stage::stage_keys(bytes, count)
        }

        /// The module's memory, for writing staged keys.
        #[wasm_bindgen::prelude::wasm_bindgen(js_name = wasmMemory)]
        pub fn wasm_memory() -> wasm_bindgen::JsValue {
            wasm_bindgen::memory()
        }
    };
}

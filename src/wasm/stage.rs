//! The wasm memory JS writes keys into and reads probe records from in place (the TsFile and
//! LevelDB modules): batches are staged in the core's [`Staged`] (its layout and checks) with one
//! native call per string, then one call processes them all; a probe leaves its numbers in the
//! record area ([`record::Area`]).

use super::common::{js, Global};
use crate::bytes::Staged;
#[cfg(not(feature = "wasm-leveldb"))]
use crate::tsfile::wire::record;
use core::cell::RefCell;
use wasm_bindgen::prelude::*;

static STAGE: Global<RefCell<Staged>> = Global(RefCell::new(Staged::new()));

/// Room for `count` keys of `bytes` bytes in all: their addresses in wasm memory, `[keys, ends]`.
#[wasm_bindgen(js_name = stageKeys)]
pub fn stage_keys(bytes: usize, count: usize) -> Vec<u32> {
    STAGE.with(|s| {
        let mut s = s.borrow_mut();
        let (keys, ends) = s.make_room(bytes, count);
        vec![keys.as_ptr() as u32, ends.as_ptr() as u32]
    })
}

/// The module's memory, for writing staged keys.
#[wasm_bindgen(js_name = wasmMemory)]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// The staging area, for the core's call `f`.
pub(crate) fn staged<R>(f: impl FnOnce(&Staged) -> crate::Result<R>) -> Result<R, JsValue> {
    STAGE.with(|s| js(f(&s.borrow())))
}

// The TsFile module's single-key calls: the key area and the record area.
#[cfg(not(feature = "wasm-leveldb"))]
static RECORD: Global<RefCell<record::Area>> = Global(RefCell::new(record::Area::new()));

/// Room for one key of `bytes` bytes (single-key calls such as `probe`): its address.
#[cfg(not(feature = "wasm-leveldb"))]
#[wasm_bindgen(js_name = keyArea)]
pub fn key_area(bytes: usize) -> u32 {
    STAGE.with(|s| s.borrow_mut().key_room(bytes).as_ptr() as u32)
}

/// Where the last probe's record starts in wasm memory (`Int32Array` index = address / 4).
#[cfg(not(feature = "wasm-leveldb"))]
#[wasm_bindgen(js_name = probeRecord)]
pub fn probe_record() -> u32 {
    RECORD.with(|r| r.borrow().as_ptr() as u32)
}

/// The probe `f` of the key in the key area's first `len` bytes, into the record area: its address.
#[cfg(not(feature = "wasm-leveldb"))]
pub(crate) fn write_record(
    len: usize,
    f: impl FnOnce(&mut Vec<i32>, &[u8]) -> crate::Result<()>,
) -> Result<u32, JsValue> {
    RECORD.with(|r| staged(|s| r.borrow_mut().write(|out| f(out, s.key(len)?))))
}

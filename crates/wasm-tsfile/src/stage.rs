//! The TsFile module's areas in wasm memory: the staging area's exports (`wasm_common::stage`)
//! and single-key calls' key area, and the record area a probe leaves its numbers in
//! ([`record::Area`]), which JS reads in place.

use core::cell::RefCell;
use tsfile_bloom::tsfile::wire::record;
use wasm_bindgen::prelude::*;
use wasm_common::stage::staged;
use wasm_common::Global;

wasm_common::staging_exports!();

static RECORD: Global<RefCell<record::Area>> = Global(RefCell::new(record::Area::new()));

/// Room for one key of `bytes` bytes (single-key calls such as `probe`): its address.
#[wasm_bindgen(js_name = keyArea)]
pub fn key_area(bytes: usize) -> u32 {
    wasm_common::stage::key_area(bytes)
}

/// Where the last probe's record starts in wasm memory (`Int32Array` index = address / 4).
#[wasm_bindgen(js_name = probeRecord)]
pub fn probe_record() -> u32 {
    RECORD.with(|r| r.borrow().as_ptr() as u32)
}

/// The probe `f` of the key in the key area's first `len` bytes, into the record area
/// ([`probe_record`]): what `f` answers besides.
pub(crate) fn write_record<R>(
    len: usize,
    f: impl FnOnce(&mut Vec<i32>, &[u8]) -> tsfile_bloom::Result<R>,
) -> Result<R, JsValue> {
    RECORD.with(|r| staged(|s| r.borrow_mut().write(|out| f(out, s.key(len)?))))
}

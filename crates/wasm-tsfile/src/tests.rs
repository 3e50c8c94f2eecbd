//! Wasm-level tests (`wasm-pack test --node`): the exports as JS sees them, on a real file
//! from the C++ writer (tests/fixtures/tsfile/tree_10series.tsfile; expected values from
//! its manifest, written by the fixture generator and checked with the writer's own reader).

use crate::stage::probe_record;
use crate::tsfile::{tsfile_envelope, WasmTsFile};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

const FILE: &[u8] = include_bytes!("../../../tests/fixtures/tsfile/tree_10series.tsfile");

fn get(v: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(v, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn open() -> WasmTsFile {
    let size = FILE.len();
    let env = tsfile_envelope(size as f64, &FILE[..12], &FILE[size - 10..]).ok().unwrap_or_default();
    let (offset, len) = (env[1] as usize, env[2] as usize);
    WasmTsFile::open(size as f64, &FILE[..12], &FILE[size - 10..], &FILE[offset..offset + len])
        .ok()
        .expect("the fixture opens")
}

#[wasm_bindgen_test]
fn info_is_camel_case_with_null_for_absent_values() {
    let mut file = open();
    let info = file.info().ok().expect("info");
    let bloom = get(&info, "bloom");
    assert_eq!(get(&bloom, "bitCount").as_f64(), Some(256.0));
    assert_eq!(get(&bloom, "hashFunctionCount").as_f64(), Some(5.0));
    assert!(get(&bloom, "bit_count").is_undefined());
    // Before the index is read nothing says how many paths were inserted: null, not undefined.
    assert!(get(&bloom, "indexedItems").is_null());
    assert!(get(&info, "audit").is_null());
    assert_eq!(get(&get(&info, "metadata"), "metaOffset").as_f64(), Some(657.0));

    let (o, n) = {
        let r = file.index_range();
        (r[0] as usize, r[1] as usize)
    };
    assert!(file.attach_index(&FILE[o..o + n]).is_null());
    let info = file.info().ok().expect("info");
    // 10 series, no aligned devices: the manifest's n_cpp_path_count.
    assert_eq!(get(&get(&info, "bloom"), "indexedItems").as_f64(), Some(10.0));
    assert_eq!(get(&get(&info, "audit"), "seriesCount").as_f64(), Some(10.0));
}

#[wasm_bindgen_test]
fn errors_carry_kind_offset_and_a_plain_message() {
    let mut garbage = FILE.to_vec();
    garbage[0] = b'X';
    let size = garbage.len() as f64;
    let err = tsfile_envelope(size, &garbage[..12], &garbage[garbage.len() - 10..]).err().expect("an error");
    let e: js_sys::Error = err.clone().dyn_into().expect("a JS Error");
    assert_eq!(get(&err, "kind").as_string().as_deref(), Some("bad_head_magic"));
    assert_eq!(get(&err, "offset").as_f64(), Some(0.0));
    let message = String::from(e.message());
    assert!(message.starts_with("file starts with ["), "{message}");
}

#[wasm_bindgen_test]
fn listing_columns_and_probe_record_are_the_cores_layouts_copied() {
    // The layouts are built and tested natively (src/tsfile/wire/, tests/wire.rs); here, that the
    // exports hand them over unchanged: the same columns, the same record where JS reads it, and
    // the core's sentence.
    let mut file = open();
    let (o, n) = {
        let r = file.index_range();
        (r[0] as usize, r[1] as usize)
    };
    file.attach_index(&FILE[o..o + n]);
    let mut reader = tsfile_bloom::tsfile::TsFileReader::from_metadata(
        tsfile_bloom::tsfile::read_metadata(FILE).expect("metadata"),
        tsfile_bloom::encoder::BuiltIn,
    );
    assert!(reader.attach_index(&FILE[o..o + n]).is_none());
    let want = tsfile_bloom::tsfile::wire::listing::columns(&reader);
    let cols = file.listing_columns();
    assert_eq!(js_sys::Uint8Array::from(cols.get(0)).to_vec(), want.text);
    assert_eq!(js_sys::Uint32Array::from(cols.get(1)).to_vec(), want.bounds);
    assert_eq!(js_sys::Uint32Array::from(cols.get(2)).to_vec(), want.numbers);
    assert_eq!(want.numbers.len(), 5 * 10, "the manifest's 10 series");

    let key = b"root.sg1.d1.s_bool";
    let at = crate::stage::key_area(key.len()) as usize;
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    js_sys::Uint8Array::new(&memory.buffer()).subarray(at as u32, (at + key.len()) as u32).copy_from(key);
    let reason = file.probe(key.len(), -1, -1).ok().expect("probe");
    let at = probe_record();
    let mut want = Vec::new();
    let p = reader.probe_filter_reasoned(key, None, None).expect("probe");
    tsfile_bloom::tsfile::wire::record::file_probe(&mut want, reader.listed(key), p.as_ref().map(|p| &p.0), false);
    let record = js_sys::Int32Array::new(&memory.buffer()).subarray(at / 4, at / 4 + want.len() as u32).to_vec();
    assert_eq!(record, want);
    assert_eq!((record[0], record[4]), (1, 1), "maybe, and indexed");
    assert_eq!(reason, reader.probe(key, None, None).expect("probe").reason, "the core's sentence, whole");
}

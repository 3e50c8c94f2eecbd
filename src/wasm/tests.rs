//! Wasm-level tests (`wasm-pack test --node`): the exports as JS sees them, on a real file
//! from the C++ writer (tests/fixtures/tsfile/tree_10series.tsfile; expected values from
//! its manifest, written by the fixture generator and checked with the writer's own reader).

use super::tsfile::{probe_record, tsfile_envelope, WasmTsFile};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

const FILE: &[u8] = include_bytes!("../../tests/fixtures/tsfile/tree_10series.tsfile");

fn get(v: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(v, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn open() -> WasmTsFile {
    let size = FILE.len();
    let env = tsfile_envelope(size as f64, FILE[..12].to_vec(), FILE[size - 10..].to_vec()).ok().unwrap_or_default();
    let (offset, len) = (env[1] as usize, env[2] as usize);
    WasmTsFile::open(size as f64, FILE[..12].to_vec(), FILE[size - 10..].to_vec(), FILE[offset..offset + len].to_vec())
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
    let err =
        tsfile_envelope(size, garbage[..12].to_vec(), garbage[garbage.len() - 10..].to_vec()).err().expect("an error");
    let e: js_sys::Error = err.clone().dyn_into().expect("a JS Error");
    assert_eq!(get(&err, "kind").as_string().as_deref(), Some("bad_head_magic"));
    assert_eq!(get(&err, "offset").as_f64(), Some(0.0));
    let message = String::from(e.message());
    assert!(message.starts_with("file starts with ["), "{message}");
}

#[wasm_bindgen_test]
fn listing_columns_and_probe_record() {
    let mut file = open();
    let (o, n) = {
        let r = file.index_range();
        (r[0] as usize, r[1] as usize)
    };
    file.attach_index(&FILE[o..o + n]);
    let cols = file.listing_columns();
    let text = String::from_utf8(js_sys::Uint8Array::from(cols.get(0)).to_vec()).expect("UTF-8 names");
    let bounds = js_sys::Uint32Array::from(cols.get(1)).to_vec();
    let numbers = js_sys::Uint32Array::from(cols.get(2)).to_vec();
    assert_eq!(numbers.len(), 5 * 10, "five numbers per listed series");
    // The manifest's series (as written, sorted); a path is its device's prefix and its
    // measurement (names numbered in order of first use), or given whole (flag 32).
    let want = [
        "root.sg1.d1.s_bool",
        "root.sg1.d1.s_float",
        "root.sg1.d1.s_int32",
        "root.sg1.d1.s_int64",
        "root.sg1.d2.S_String",
        "root.sg1.d2.s_double",
        "root.sg1.d2.s_text",
        "root.sg2.a.b.s_date",
        "root.sg2.a.b.s_ts",
        "root.top.s_blob",
    ];
    let name = |b: usize| &text[bounds[b] as usize..bounds[b + 1] as usize];
    let mut paths = Vec::new();
    let (mut b, mut prefix, mut names) = (0, "", Vec::new());
    for row in numbers.chunks(5) {
        let flags = row[0] & 0xff;
        if flags & 8 == 0 {
            prefix = name(b);
            b += 4 + 2 * row[1] as usize;
        }
        if flags & 16 != 0 {
            names.push(name(b));
            b += 2;
        }
        if flags & 32 != 0 {
            paths.push(name(b).to_string());
            b += 2;
        } else {
            paths.push(format!("{prefix}{}", names[row[2] as usize]));
        }
    }
    assert_eq!(b, bounds.len(), "every bound read");
    assert_eq!(names.len(), 10, "ten measurement names, each crossing once");
    paths.sort();
    assert_eq!(paths, want);
    // Every series of a consistent file tests "maybe" (flag 4).
    assert!(numbers.chunks(5).all(|r| r[0] & 7 == 4));

    let key = b"root.sg1.d1.s_bool";
    let at = super::common::key_area(key.len()) as usize;
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    js_sys::Uint8Array::new(&memory.buffer()).subarray(at as u32, (at + key.len()) as u32).copy_from(key);
    let at = file.probe(key.len(), 0, -1).ok().expect("probe");
    assert_eq!(at, probe_record());
    let at = at / 4;
    let record = js_sys::Int32Array::new(&memory.buffer());
    assert_eq!(record.get_index(at), 1, "verdict maybe");
    assert_eq!(record.get_index(at + 4), 1, "indexed");
    assert_eq!(record.get_index(at + 5), 5, "k seeds");
    // The reason's codes end the record (js/reasons.js words them): every bit set (kind 1),
    // the index lists the path (1). Each other candidate takes 3 + 4k numbers.
    let end = at + 7 + 4 * 5 + record.get_index(at + 6) as u32 * (3 + 4 * 5);
    assert_eq!(record.get_index(end), 1, "kind: every probed bit is set");
    assert_eq!(record.get_index(end + 3), 1, "listed");
}

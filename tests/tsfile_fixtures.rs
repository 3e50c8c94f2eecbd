//! The reader against real files written by PyPI tsfile 2.5.0 (C++), synthetic
//! variants and hostile files (tests/fixtures/gen_tsfiles.py). Expected values come
//! from the generator's manifest: the data it wrote, checked with the writer's reader.

#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;
use tsfile_bloom::audit::{self, AuditStatus};
use tsfile_bloom::probe;
use tsfile_bloom::source::{CountingSource, FileSource, ReadAt};
use tsfile_bloom::tsfile::{self, Series};
use tsfile_bloom::verdict::FileVerdict;
use tsfile_bloom::TailVariant;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tsfile")
}

fn manifest() -> Vec<Value> {
    let text = std::fs::read_to_string(dir().join("manifest.json")).expect("run tests/fixtures/gen_tsfiles.py");
    let v: Value = serde_json::from_str(&text).unwrap();
    match v {
        Value::Array(a) => a,
        Value::Object(o) => o["files"].as_array().cloned().unwrap_or_default(),
        _ => panic!("manifest must be a list"),
    }
}

fn entries(kind: &str) -> Vec<Value> {
    manifest().into_iter().filter(|e| e["kind"] == kind).collect()
}

fn key(device: &Value, measurement: &str, data_type: &str) -> String {
    let segs: Vec<String> = device
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().map(str::to_string).unwrap_or_else(|| "null".into()))
        .collect();
    format!("{}.{}|{}", segs.join("."), measurement, data_type)
}

fn multiset<I: IntoIterator<Item = String>>(items: I) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for i in items {
        *m.entry(i).or_insert(0) += 1;
    }
    m
}

fn open(entry: &Value) -> (FileSource, tsfile::TsFileMetadata, Vec<Series>) {
    let name = entry["file"].as_str().unwrap();
    let src = FileSource::open(dir().join(name)).unwrap();
    let meta = tsfile::read_metadata(&src).unwrap_or_else(|e| panic!("{name}: {e}"));
    let walk = tsfile::walk_index(&src, &meta);
    assert!(walk.error.is_none(), "{name}: {:?}", walk.error);
    (src, meta, walk.series)
}

fn valid_entries() -> Vec<Value> {
    let mut v = entries("real");
    v.extend(entries("synthetic"));
    assert!(v.len() >= 10, "expected the real and synthetic fixtures");
    v
}

#[test]
fn header_fields_and_exact_series_multiset() {
    for e in valid_entries() {
        let name = e["name"].as_str().unwrap();
        let (src, meta, series) = open(&e);
        assert_eq!(meta.envelope.version as u64, e["version"].as_u64().unwrap(), "{name} version");
        let size = src.size().unwrap();
        assert_eq!(size, e["file_size"].as_u64().unwrap_or(size), "{name} size");
        let bloom = &e["bloom"];
        assert_eq!(meta.bloom.filter.is_some(), bloom["present"].as_bool().unwrap(), "{name} bloom present");
        if let Some(f) = &meta.bloom.filter {
            assert_eq!(f.bit_count() as u64, bloom["bit_count"].as_u64().unwrap(), "{name} bit_count");
            assert_eq!(f.hash_function_count() as u64, bloom["hash_function_count"].as_u64().unwrap(), "{name} k");
        }
        let got = multiset(
            series
                .iter()
                .filter(|s| !s.is_time_column())
                .map(|s| format!("{}|{}", String::from_utf8_lossy(&s.path()), s.data_type.as_str())),
        );
        let want = multiset(
            e["series"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| key(&s["device"], s["measurement"].as_str().unwrap(), s["data_type"].as_str().unwrap())),
        );
        assert_eq!(got, want, "{name}: series multiset");
        let got_tc = multiset(
            series.iter().filter(|s| s.is_time_column()).map(|s| String::from_utf8_lossy(&s.path()).into_owned()),
        );
        let want_tc = multiset(
            e["time_columns"]
                .as_array()
                .map(|a| a.to_vec())
                .unwrap_or_default()
                .iter()
                .map(|t| key(&t["device"], "", "x").replace("|x", "")),
        );
        assert_eq!(got_tc, want_tc, "{name}: time columns");
    }
}

#[test]
fn every_indexed_series_is_maybe_present_and_audit_names_the_writer() {
    for e in valid_entries() {
        let name = e["name"].as_str().unwrap();
        let (_, meta, series) = open(&e);
        let Some(filter) = meta.bloom.filter.as_ref() else { continue };
        let a = audit::audit(Some(filter), &series);
        for s in series.iter().filter(|s| !s.is_time_column()) {
            let p = probe::probe_file(filter, Some(&a), &s.path(), None, None).unwrap();
            assert_eq!(p.verdict, FileVerdict::Maybe, "{name}: {} ({})", String::from_utf8_lossy(&s.path()), p.reason);
        }
        let variant = match e["hash_variant"].as_str() {
            Some("java") => Some(TailVariant::Java),
            Some("zero-extended") => Some(TailVariant::ZeroExtended),
            _ => None,
        };
        assert!(a.reproduced(), "{name}: {}", a.summary);
        if let Some(v) = variant {
            if a.non_ascii_tail_paths > 0 {
                assert_eq!(a.status, AuditStatus::Established, "{name}: {}", a.summary);
                assert_eq!(a.variant, Some(v), "{name}: {}", a.summary);
            } else {
                assert!(a.matching().any(|h| h.variant == v), "{name}");
            }
        }
        if let (Some(tc), true) = (e["time_columns_in_filter"].as_bool(), a.time_column_count > 0) {
            assert!(a.matching().all(|h| h.time_columns == tc), "{name}: time columns {tc}: {}", a.summary);
        }
    }
}

#[test]
fn hostile_files_get_the_expected_typed_error() {
    let hostile = entries("hostile");
    assert!(hostile.len() >= 20, "expected the hostile fixtures");
    let mut wrong = Vec::new();
    for e in hostile {
        let name = e["name"].as_str().unwrap().to_string();
        let want = e["error_kind"].as_str().unwrap();
        let src = FileSource::open(dir().join(e["file"].as_str().unwrap())).unwrap();
        let got = match tsfile::read_metadata(&src) {
            Err(err) => Some(err),
            Ok(meta) => tsfile::walk_index(&src, &meta).error,
        };
        match got {
            Some(err) if err.kind.as_str() == want => {
                assert!(err.offset().is_some_and(|o| o <= src.size().unwrap()), "{name}: offset {:?}", err.offset())
            }
            other => wrong.push(format!("{name}: want {want}, got {:?}", other.map(|e| e.to_string()))),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Bytes read through `src` so far: the sum of its reads' lengths.
fn bytes_read<R: ReadAt>(src: &CountingSource<R>) -> u64 {
    src.reads.borrow().iter().map(|&(_, len)| len as u64).sum()
}

#[test]
fn opening_reads_only_the_tail_and_listing_only_the_index() {
    let src = CountingSource::new(FileSource::open(dir().join("tree_10k_series.tsfile")).unwrap());
    let meta = tsfile::read_metadata(&src).unwrap();
    let size = src.size().unwrap();
    let start = meta.envelope.metadata_offset;
    let expected = 7 + 10 + meta.envelope.metadata_size as u64;
    assert_eq!(bytes_read(&src), expected);
    for &(off, len) in src.reads.borrow().iter() {
        assert!(off == 0 && len <= 7 || off >= start, "read {off}+{len} outside head/tail");
    }
    let before = bytes_read(&src);
    let walk = tsfile::walk_index(&src, &meta);
    assert!(walk.error.is_none());
    assert_eq!(bytes_read(&src) - before, start - meta.meta_offset);
    // The data area (everything before meta_offset but the head) is never read.
    assert!(meta.meta_offset > size / 4, "fixture should have a real data area");
    for &(off, len) in src.reads.borrow().iter() {
        assert!(off + len as u64 <= 7 || off >= meta.meta_offset, "read {off}+{len} touches the data area");
    }
}

/// The writer an established audit names never equates the C++ writer with a zero-extended tail:
/// a sign-extended filter is Java's or, without time columns to tell, an older C++ build's on
/// x86-64 (signed `char`); a zero-extended one without time columns is C++ 2.5 or an older ARM
/// build (docs/writers.md §1, §6).
#[test]
fn the_named_writer_leaves_older_cpp_builds_their_own_tail() {
    for (name, want) in [
        ("synthetic_java_hash_tree", "Java writer, or a C++ tsfile writer up to 2025-02 on x86-64"),
        ("synthetic_java_hash", "Java writer"),
        (
            "synthetic_v3_tail_unicode",
            "C++ tsfile writer with a zero-extended tail (tsfile >= 2.5, or an older build for ARM)",
        ),
        ("synthetic_cpp_legacy_no_time_columns", "C++ tsfile writer up to 2025-02 built for ARM"),
        ("table_unicode", "C++ tsfile >= 2.5 writer"),
    ] {
        let e = manifest().into_iter().find(|e| e["name"] == name).unwrap();
        let r =
            tsfile::TsFileReader::read(&FileSource::open(dir().join(e["file"].as_str().unwrap())).unwrap()).unwrap();
        let a = r.audit_info().unwrap();
        assert_eq!(a.status, AuditStatus::Established, "{name}: {}", a.summary);
        assert_eq!(a.writer.as_deref(), Some(want), "{name}");
        assert!(a.summary.contains(want), "{name}: {}", a.summary);
    }
}

//! The reader against files written by Apache TsFile's own Java writer, built from source
//! (scripts/java/gen-java-fixtures.sh), once on a JVM whose default charset is UTF-8 and once
//! under GBK. Expected values come from Java itself (tests/fixtures/java/manifest.json):
//! `TsFileSequenceReader`'s listing, the `BloomFilter` it reads, and `BloomFilter.contains`
//! for every present path and ~50 absent ones, run under the writer's charset. Under GBK,
//! Java's reader mis-decodes the stored UTF-8 names, so those files carry the generator's
//! names (checked by ReadFixtures against that exact mis-decoding).
//!
//! The GBK files use only common CJK characters (GB2312 range) on purpose: for those, the
//! JDK's GBK table and encoding_rs agree, so the GBK checks do not depend on which charset
//! tables the crate uses.

#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;
use tsfile_bloom::audit::{self, AuditStatus};
use tsfile_bloom::path::transcode;
use tsfile_bloom::probe;
use tsfile_bloom::source::{FileSource, ReadAt};
use tsfile_bloom::tsfile::{self, Series};
use tsfile_bloom::verdict::FileVerdict;
use tsfile_bloom::{Charset, TailVariant, Verdict};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/java")
}

fn manifest() -> Value {
    let text = std::fs::read_to_string(dir().join("manifest.json")).expect("run scripts/java/gen-java-fixtures.sh");
    serde_json::from_str(&text).unwrap()
}

fn files() -> Vec<Value> {
    let v = manifest()["files"].as_array().cloned().unwrap();
    assert_eq!(v.len(), 26, "13 fixtures under each of UTF-8 and GBK");
    v
}

fn name(e: &Value) -> &str {
    e["file"].as_str().unwrap()
}

fn charset(e: &Value) -> Charset {
    Charset::from_name(e["charset"].as_str().unwrap()).unwrap()
}

fn open(e: &Value) -> (tsfile::TsFileMetadata, Vec<Series>) {
    let src = FileSource::open(dir().join(name(e))).unwrap();
    assert_eq!(src.size().unwrap(), e["file_size"].as_u64().unwrap(), "{}: size", name(e));
    let meta = tsfile::read_metadata(&src).unwrap_or_else(|err| panic!("{}: {err}", name(e)));
    let walk = tsfile::walk_index(&src, &meta);
    assert!(walk.error.is_none(), "{}: {:?}", name(e), walk.error);
    (meta, walk.series)
}

/// A path string as the JVM hashed it: `String.getBytes()` in the file's charset.
fn java_bytes(path: &str, cs: Charset) -> Vec<u8> {
    transcode(path.as_bytes(), cs).unwrap().into_owned()
}

fn segments(v: &Value) -> Vec<Option<Vec<u8>>> {
    v.as_array().unwrap().iter().map(|s| s.as_str().map(|s| s.as_bytes().to_vec())).collect()
}

fn multiset<I: IntoIterator<Item = String>>(items: I) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for i in items {
        *m.entry(i).or_insert(0) += 1;
    }
    m
}

/// (device segments, measurement, data type, path) — everything Java's listing gives.
fn key(device: &[Option<Vec<u8>>], measurement: &[u8], data_type: &str, path: &[u8]) -> String {
    let segs: Vec<String> = device
        .iter()
        .map(|s| s.as_ref().map(|b| format!("{:?}", String::from_utf8_lossy(b))).unwrap_or("null".into()))
        .collect();
    format!(
        "[{}] {:?} {data_type} {:?}",
        segs.join(","),
        String::from_utf8_lossy(measurement),
        String::from_utf8_lossy(path)
    )
}

/// Java's present verdicts: every series, then every time column, as (path, contains).
fn java_present(e: &Value) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for d in e["devices"].as_array().unwrap() {
        for s in d["series"].as_array().unwrap() {
            out.push((s[2].as_str().unwrap().to_string(), s[3].as_bool().unwrap()));
        }
        if let Some(t) = d.get("time_column").filter(|t| !t.is_null()) {
            out.push((t["path"].as_str().unwrap().to_string(), t["java_contains"].as_bool().unwrap()));
        }
    }
    out
}

/// Whether the two tail variants can hash these bytes differently (a byte >= 0x80 in the
/// last `len mod 16` bytes) — computed here from the manifest, not by the crate.
fn non_ascii_tail(bytes: &[u8]) -> bool {
    bytes[bytes.len() - bytes.len() % 16..].iter().any(|&b| b >= 0x80)
}

#[test]
fn series_and_time_columns_equal_javas_listing() {
    for e in files() {
        let (_, series) = open(&e);
        // Our walk gives the stored bytes; the manifest names encoded as UTF-8 must equal them
        // (under GBK too: the writer stores names in UTF-8 whatever the JVM default).
        let got =
            multiset(series.iter().map(|s| key(&s.device.segments, &s.measurement, s.data_type.as_str(), &s.path())));
        let mut want = Vec::new();
        for d in e["devices"].as_array().unwrap() {
            let segs = segments(&d["segments"]);
            for s in d["series"].as_array().unwrap() {
                let path = s[2].as_str().unwrap();
                want.push(key(&segs, s[0].as_str().unwrap().as_bytes(), s[1].as_str().unwrap(), path.as_bytes()));
            }
            if let Some(t) = d.get("time_column").filter(|t| !t.is_null()) {
                want.push(key(&segs, b"", "VECTOR", t["path"].as_str().unwrap().as_bytes()));
            }
        }
        assert_eq!(got, multiset(want), "{}: series", name(&e));
        let tc = series.iter().filter(|s| s.is_time_column()).count() as u64;
        assert_eq!(tc, e["time_column_count"].as_u64().unwrap(), "{}", name(&e));
        assert_eq!(series.len() as u64 - tc, e["series_count"].as_u64().unwrap(), "{}", name(&e));
    }
}

#[test]
fn filter_geometry_and_bits_equal_javas() {
    for e in files() {
        let (meta, _) = open(&e);
        let b = &e["bloom"];
        let Some(f) = meta.bloom.filter.as_ref() else {
            assert!(!b["present"].as_bool().unwrap(), "{}: Java read a filter, we did not", name(&e));
            // Java's empty-file encoding: byte_length 0 and nothing else (then the properties).
            let layout = meta.bloom.layout.as_ref().expect("the field is there");
            assert_eq!((layout.byte_length, layout.encoded_len), (0, 1), "{}", name(&e));
            assert_eq!(meta.properties.len(), 3, "{}: properties follow the single 00", name(&e));
            continue;
        };
        assert!(b["present"].as_bool().unwrap(), "{}", name(&e));
        assert_eq!(f.bit_count() as u64, b["bit_count"].as_u64().unwrap(), "{}: bit_count", name(&e));
        assert_eq!(f.hash_function_count() as u64, b["hash_function_count"].as_u64().unwrap(), "{}: k", name(&e));
        assert_eq!(f.byte_length() as u64, b["byte_length"].as_u64().unwrap(), "{}: byte_length", name(&e));
        assert_eq!(f.set_bits(), b["set_bits"].as_u64().unwrap(), "{}: set bits", name(&e));
    }
}

#[test]
fn probe_verdicts_equal_javas_contains() {
    let mut charset_mattered = 0;
    for e in files() {
        let (meta, _) = open(&e);
        let Some(f) = meta.bloom.filter.as_ref() else { continue };
        let cs = charset(&e);
        let absent = e["absent"].as_array().unwrap();
        assert!(absent.len() >= 40, "{}: ~50 absent paths", name(&e));
        let mut checked = 0;
        for a in
            absent.iter().map(|a| (a[0].as_str().unwrap().to_string(), a[1].as_bool().unwrap())).chain(java_present(&e))
        {
            let (path, java) = a;
            let ours = f.probe(&java_bytes(&path, cs), TailVariant::Java).verdict == Verdict::Maybe;
            assert_eq!(ours, java, "{}: {path:?} under java / {}", name(&e), cs.as_str());
            checked += 1;
            if cs != Charset::Utf8 && !path.is_ascii() && f.might_contain(path.as_bytes(), TailVariant::Java) != java {
                charset_mattered += 1;
            }
        }
        assert!(checked > absent.len(), "{}", name(&e));
    }
    // The GBK set would not test the charset if UTF-8 bytes gave the same answers.
    assert!(charset_mattered > 0, "GBK and UTF-8 verdicts never differed");
}

#[test]
fn every_series_maybe_present_and_audit_names_java() {
    for e in files() {
        let (meta, series) = open(&e);
        let Some(f) = meta.bloom.filter.as_ref() else {
            assert_eq!(audit::audit(None, &series).status, AuditStatus::NoFilter);
            continue;
        };
        let a = audit::audit(Some(f), &series);
        for s in &series {
            let p = probe::probe_file(f, Some(&a), &s.path(), None, None).unwrap();
            assert_eq!(
                p.verdict,
                FileVerdict::Maybe,
                "{}: {} ({})",
                name(&e),
                String::from_utf8_lossy(&s.path()),
                p.reason
            );
        }
        // Expected status, reasoned from the manifest: the Java writer inserts every series
        // and every time column, with the sign-extended tail and the file's charset. The two
        // tail variants can only be told apart by a path whose hashed bytes end (last
        // len mod 16 bytes) in a byte >= 0x80; without one the audit must stay ambiguous.
        let cs = charset(&e);
        let hashed: Vec<Vec<u8>> = java_present(&e).iter().map(|(p, _)| java_bytes(p, cs)).collect();
        let distinguishing = hashed.iter().any(|b| non_ascii_tail(b));
        let any_non_ascii = hashed.iter().any(|b| !b.is_ascii());
        if !distinguishing {
            assert_eq!(a.status, AuditStatus::Ambiguous, "{}: {}", name(&e), a.summary);
            continue;
        }
        assert_eq!(a.status, AuditStatus::Established, "{}: {}", name(&e), a.summary);
        assert_eq!(a.variant, Some(TailVariant::Java), "{}: {}", name(&e), a.summary);
        assert!(a.matching().all(|h| h.time_columns || a.time_column_count == 0), "{}: {}", name(&e), a.summary);
        if cs == Charset::Utf8 || !any_non_ascii {
            assert_eq!(a.charset, Some(Charset::Utf8), "{}: {}", name(&e), a.summary);
        } else {
            // GBK must be among the reproducing charsets. GB18030 extends GBK and encodes
            // these common characters with the same bytes, so it reproduces the bits too and
            // cannot be told apart from GBK by this file; any other match must be such a twin.
            let cands = a.candidates();
            assert!(cands.contains(&(TailVariant::Java, Charset::Gbk)), "{}: {}", name(&e), a.summary);
            for (_, other) in cands {
                let twin = java_present(&e).iter().all(|(p, _)| java_bytes(p, other) == java_bytes(p, Charset::Gbk));
                assert!(twin, "{}: {} reproduces but encodes differently from GBK", name(&e), other.as_str());
            }
            assert!(!a.candidates().iter().any(|c| c.1 == Charset::Utf8), "{}", name(&e));
        }
    }
}

#[test]
fn javas_recorded_facts_hold() {
    let m = manifest();
    let facts = m["facts"].as_object().unwrap();
    for key in [
        "time_columns",
        "null_tags",
        "null_tag_paths",
        "back_quotes",
        "sized_by_chunk_metadata",
        "error_rate_clamped",
        "empty_file_filter",
        "default_charset",
    ] {
        assert_eq!(facts[key]["holds"], Value::Bool(true), "{key}: {}", facts[key]);
    }
    assert_eq!(m["tsfile_commit"].as_str().unwrap().len(), 40);
}

//! Files whose filter was written in Apache TsFile's experimental cheap-hash mode (docs/writers.md
//! §7): built to the upstream source's byte layout by tests/fixtures/gen_cheap_hash.py, whose
//! manifest gives the filter's figures and, from the Java-shaped reference
//! (tests/reference/java_bloom.py), the indexed series a reader ignoring the marker would call
//! absent. Every probe of such a file is "unknown", by every route; the audit says it cannot
//! rebuild the bits; a filter-level probe is an `unsupported_hash` error.

#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;
use std::path::PathBuf;
use tsfile_bloom::audit::AuditStatus;
use tsfile_bloom::encoder::BuiltIn;
use tsfile_bloom::filter::FilterHash;
use tsfile_bloom::hash::NamedHash;
use tsfile_bloom::staged::Staged;
use tsfile_bloom::tsfile::wire::{self, batch, scan};
use tsfile_bloom::tsfile::{read_metadata, BloomEncoding, TsFileReader};
use tsfile_bloom::verdict::{Decision, FileVerdict, Reason};
use tsfile_bloom::{Charset, ErrorKind, TailVariant};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cheap_hash")
}

fn manifest() -> Vec<Value> {
    let text = std::fs::read_to_string(dir().join("manifest.json")).expect("run tests/fixtures/gen_cheap_hash.py");
    serde_json::from_str(&text).unwrap()
}

fn bytes_of(e: &Value) -> Vec<u8> {
    std::fs::read(dir().join(e["file"].as_str().unwrap())).unwrap()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect()
}

/// Every path the tests ask about: the indexed series, the time columns, and paths no index lists.
fn paths(e: &Value) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = strings(&e["series"]).into_iter().map(String::into_bytes).collect();
    out.extend(strings(&e["time_columns"]).into_iter().map(String::into_bytes));
    out.extend([b"root.not.there".to_vec(), "能耗表🔥.无.x.temp".as_bytes().to_vec(), Vec::new()]);
    out
}

const OVERRIDES: [(Option<TailVariant>, Option<Charset>); 5] = [
    (None, None),
    (Some(TailVariant::Java), None),
    (Some(TailVariant::ZeroExtended), None),
    (None, Some(Charset::Utf8)),
    (Some(TailVariant::Java), Some(Charset::Windows1252)),
];

#[test]
fn the_filter_is_decoded_with_its_own_hash_and_figures() {
    let entries = manifest();
    assert_eq!(entries.len(), 2);
    for e in &entries {
        let name = e["name"].as_str().unwrap();
        let r = TsFileReader::read(&bytes_of(e)[..]).unwrap_or_else(|err| panic!("{name}: {err}"));
        let b = r.bloom_info();
        let want = &e["bloom"];
        assert_eq!(b.encoding, BloomEncoding::Standard, "{name}");
        assert_eq!(b.hash, Some(FilterHash::Cheap), "{name}");
        assert_eq!(b.offset, want["offset"].as_u64().unwrap(), "{name}");
        assert_eq!(b.bits_offset, want["bits_offset"].as_u64(), "{name}");
        assert_eq!(b.byte_length.map(u64::from), want["byte_length"].as_u64(), "{name}");
        assert_eq!(b.bit_count.map(u64::from), want["bit_count"].as_u64(), "{name}");
        assert_eq!(b.hash_function_count.map(u64::from), want["hash_function_count"].as_u64(), "{name}");
        assert_eq!(b.set_bits, want["set_bits"].as_u64(), "{name}");
        // The properties after the filter parse: the field ends where the layout says.
        assert!(r.warnings().is_empty(), "{name}: {:?}", r.warnings());
        assert_eq!(r.file_info().properties.len(), 3, "{name}");
        // Written back as the writer writes it (the MIN_VALUE marker becomes MAX_VALUE's).
        let f = r.filter().unwrap();
        let stored = want["encoded_hex"].as_str().unwrap();
        let written = stored.replace(e["marker_hex"].as_str().unwrap(), "ffffffff07");
        assert_eq!(hex(&f.encode()), written, "{name}");
        let json = serde_json::to_value(&b).unwrap();
        assert_eq!(json["hash"], "cheap", "{name}");
    }
}

#[test]
fn every_probe_is_unknown_with_the_cheap_hash_named_and_why() {
    for e in manifest() {
        let name = e["name"].as_str().unwrap();
        let bytes = bytes_of(&e);
        let r = TsFileReader::read(&bytes[..]).unwrap();
        // What a reader ignoring the marker would do: call indexed series absent (the reference's).
        let murmur_absent = strings(&e["murmur_absent_series"]);
        assert!(!murmur_absent.is_empty(), "{name}: the case is the false 'absent' of a Murmur128 reading");
        let series = strings(&e["series"]);
        for path in paths(&e) {
            for (v, cs) in OVERRIDES {
                let p = r.probe(&path, v, cs).unwrap();
                let ctx = format!("{name} {:?} {v:?} {cs:?}", String::from_utf8_lossy(&path));
                assert_eq!(p.verdict, FileVerdict::Unknown, "{ctx}");
                assert_eq!((p.variant, p.charset, p.confirmed), (Some(NamedHash::Cheap), None, false), "{ctx}");
                assert!(p.probes.is_empty() && p.others.is_empty(), "{ctx}");
                assert!(p.reason.starts_with("the filter was written with TsFile's experimental cheap hash"), "{ctx}");
                assert!(p.reason.contains("which this reader does not evaluate"), "{ctx}");
                let indexed = series.iter().any(|s| s.as_bytes() == &path[..]);
                assert_eq!(p.indexed, Some(indexed), "{ctx}");
                assert_eq!(serde_json::to_value(&p).unwrap()["variant"], "cheap", "{ctx}");
            }
        }
        // The listing has no verdict to give (maybePresent null), series and time columns alike.
        let listing = r.listing();
        assert_eq!(listing.series.len(), series.len(), "{name}");
        assert_eq!(listing.time_columns.len(), e["time_columns"].as_array().unwrap().len(), "{name}");
        assert!(listing.series.iter().chain(&listing.time_columns).all(|s| s.maybe_present.is_none()), "{name}");
    }
}

#[test]
fn the_audit_says_it_cannot_rebuild_the_bits_rather_than_calling_them_inconsistent() {
    for e in manifest() {
        let name = e["name"].as_str().unwrap();
        let r = TsFileReader::read(&bytes_of(&e)[..]).unwrap();
        let a = r.audit_info().expect("the index is read");
        assert_eq!(a.status, AuditStatus::UnsupportedHash, "{name}");
        assert_eq!(a.variant, Some(NamedHash::Cheap), "{name}");
        assert_eq!((a.charset, a.charsets.len()), (None, 0), "{name}");
        assert!(a.hypotheses.is_empty() && a.writer_hypothesis.is_none(), "{name}");
        assert!(a.writer.as_deref().is_some_and(|w| w.contains("cheap hash")), "{name}: {:?}", a.writer);
        assert!(
            a.summary.contains("cannot be rebuilt") && !a.summary.contains("no hypothesis"),
            "{name}: {}",
            a.summary
        );
        assert_eq!(a.series_count as usize, e["series"].as_array().unwrap().len(), "{name}");
        let json = serde_json::to_value(&a).unwrap();
        assert_eq!((&json["status"], &json["variant"]), (&Value::from("unsupported_hash"), &Value::from("cheap")));
        // The design rule still applies: the sizing is Java's, the keys are the index's.
        let b = r.bloom_info();
        assert_eq!(
            b.indexed_items,
            Some((e["series"].as_array().unwrap().len() + a.time_column_count as usize) as u64)
        );
        assert_eq!(b.filled_past_design, Some(false), "{name}");
    }
}

#[test]
fn batches_records_and_the_fast_scan_say_unknown_too() {
    for e in manifest() {
        let name = e["name"].as_str().unwrap();
        let bytes = bytes_of(&e);
        let read = TsFileReader::read(&bytes[..]).unwrap();
        // Before the index is read, as after.
        let unread = TsFileReader::from_metadata(read_metadata(&bytes[..]).unwrap(), BuiltIn);
        let paths = paths(&e);
        let staged = Staged::of(&paths.iter().map(Vec::as_slice).collect::<Vec<_>>());
        for r in [&read, &unread] {
            for (v, cs) in [(-1, -1), (0, -1), (1, 0), (-1, 10)] {
                let codes = batch::file_verdicts(r, &staged, paths.len(), v, cs, false).unwrap();
                assert!(codes.iter().all(|&c| i32::from(c) == FileVerdict::Unknown.code()), "{name}");
                let mut m = Vec::new();
                let reason = batch::file_probe(&mut m, r, &paths[0], v, cs).unwrap();
                assert_eq!(&m[..3], [FileVerdict::Unknown.code(), wire::CHEAP, wire::NONE], "{name}");
                assert_eq!(m[5..7], [0, 0], "{name}: no seed probes, no other hashes");
                let decision = Decision::of(FileVerdict::Unknown, r.listed(&paths[0]));
                assert_eq!(m[7..], [decision.code()], "{name}: the index decides where it was read");
                assert_eq!(reason, Reason::CheapHash.sentence(r.audit(), r.listed(&paths[0])), "{name}");
            }
        }
        let window = &bytes[bytes.len().saturating_sub(wire::TAIL_WINDOW)..];
        let figures =
            batch::scan_figures(bytes.len() as u64, &bytes[..12], window, &staged, paths.len(), &BuiltIn).unwrap();
        let at = scan::FIGURE_NAMES.iter().position(|&n| n == "hash").unwrap();
        assert_eq!(figures[at], f64::from(FilterHash::Cheap.code()), "{name}");
        assert!(figures[scan::FIGURES..].iter().all(|&v| v == f64::from(FileVerdict::Unknown.code())));
        assert_eq!(figures.len(), scan::FIGURES + paths.len());
    }
}

#[test]
fn a_filter_level_probe_or_add_is_an_unsupported_hash_error() {
    let e = &manifest()[0];
    let r = TsFileReader::read(&bytes_of(e)[..]).unwrap();
    let mut f = r.filter().unwrap().clone();
    let keys = [b"root.sg1.d1.s1".to_vec()];
    let staged = Staged::of(&[&keys[0][..]]);
    let c = batch::KeyCoding::of(false, -1, -1).unwrap();
    let errors = [
        batch::filter_probe(&mut Vec::new(), &f, &keys[0], c).unwrap_err(),
        batch::filter_probes(&f, &staged, 1, c).map(drop).unwrap_err(),
        batch::filter_verdicts(&f, &staged, 1, c).map(drop).unwrap_err(),
        batch::filter_add(&mut f, &staged, 1, c).unwrap_err(),
        tsfile_bloom::probe::probe_file(&f, None, &keys[0], None, None).map(drop).unwrap_err(),
    ];
    for err in errors {
        assert_eq!((err.kind, err.offset()), (ErrorKind::UnsupportedHash, None), "{err}");
        assert!(err.message.contains("cheap hash"), "{err}");
    }
    assert_eq!(&f, r.filter().unwrap(), "nothing was added");
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

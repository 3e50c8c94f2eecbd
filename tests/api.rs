//! The Rust API as a crate user meets it: `std::io::Error` converts into the crate's `Error`,
//! a `std::fs::File` is a source that threads can share, and the result types hold the
//! crate's enums, which serialize as the names of the JS contract (js/types.generated.d.ts, README).
//! Expected values come from std itself, the fixture manifests (the writer's data) and
//! those documents, never from the crate's own output.

#![cfg(any(unix, windows))]

use serde_json::Value;
use std::collections::BTreeSet;
use std::fs::File;
use std::path::{Path, PathBuf};
use tsfile_bloom::audit::AuditStatus;
use tsfile_bloom::filter::FilterHash;
use tsfile_bloom::hash::NamedHash;
use tsfile_bloom::leveldb::{Compression, KeyFormat, LevelDbTable, ProbeReason};
use tsfile_bloom::source::{FileSource, ReadAt};
use tsfile_bloom::tsfile::view::OtherProbe;
use tsfile_bloom::tsfile::{BloomEncoding, DataType, TsFileReader};
use tsfile_bloom::verdict::FileVerdict;
use tsfile_bloom::{BloomFilter, Charset, Error, ErrorKind, TailVariant, Verdict};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tsfile(name: &str) -> PathBuf {
    root().join("tests/fixtures/tsfile").join(name)
}

fn manifest_of(name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(tsfile(&format!("{name}.json"))).unwrap()).unwrap()
}

/// What a user writes: `?` on `File::open` in a function returning the crate's `Result`.
fn read(path: &Path) -> tsfile_bloom::Result<TsFileReader> {
    let file = File::open(path)?;
    TsFileReader::read(&file)
}

fn read_via_file_source(path: &Path) -> tsfile_bloom::Result<TsFileReader> {
    let file = FileSource::open(path)?;
    TsFileReader::read(&file)
}

#[test]
fn io_errors_convert_with_kind_io_no_offset_and_std_s_sentence() {
    let missing = root().join("tests/fixtures/tsfile/no-such-file.tsfile");
    let from_std = File::open(&missing).unwrap_err();
    for e in [read(&missing).err().unwrap(), read_via_file_source(&missing).err().unwrap()] {
        assert_eq!((e.kind, e.offset()), (ErrorKind::Io, None));
        assert_eq!(e.message, from_std.to_string());
        assert_eq!(e.to_string(), format!("io: {from_std}"));
    }
    let e = Error::from(std::io::Error::other("the disk went away"));
    assert_eq!((e.kind, e.offset(), e.message.as_str()), (ErrorKind::Io, None, "the disk went away"));
    // A std::error::Error, so that it also goes into Box<dyn Error> with `?`.
    let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(e);
    assert_eq!(boxed.to_string(), "io: the disk went away");
}

#[test]
fn errors_from_the_bytes_have_an_offset_and_argument_errors_have_none() {
    for name in ["hostile_bad_tail_magic", "hostile_bloom_k_9", "hostile_bloom_stray_bits"] {
        let m = manifest_of(name);
        let e = read(&tsfile(m["file"].as_str().unwrap())).err().unwrap();
        assert_eq!(e.kind.as_str(), m["error_kind"].as_str().unwrap(), "{name}");
        let offset = e.offset().unwrap_or_else(|| panic!("{name}: no offset"));
        assert!(offset < m["file_size"].as_u64().unwrap(), "{name}: {offset}");
        assert_eq!(e.to_string(), format!("{} at byte {offset}: {}", m["error_kind"].as_str().unwrap(), e.message));
    }
    let e = Charset::from_name("klingon").unwrap_err();
    assert_eq!((e.kind, e.offset()), (ErrorKind::InvalidArgument, None));
    assert_eq!(e.to_string(), format!("invalid_argument: {}", e.message));
    let e = Error::without_offset(ErrorKind::Io, "no size");
    assert_eq!((e.offset(), format!("{e:?}").contains("offset: None")), (None, true));
    assert_eq!(Error::new(ErrorKind::Truncated, 0, "x").offset(), Some(0));
}

#[test]
fn a_file_reads_the_bytes_std_reads_and_opens_as_the_bytes_in_memory_do() {
    for name in ["tree_10series", "table_unicode", "synthetic_v3_tail_unicode"] {
        let path = tsfile(&format!("{name}.tsfile"));
        let bytes = std::fs::read(&path).unwrap();
        let file = File::open(&path).unwrap();
        assert_eq!(file.size().unwrap(), bytes.len() as u64, "{name}");
        assert_eq!(file.size().unwrap(), manifest_of(name)["file_size"].as_u64().unwrap(), "{name}");
        let n = bytes.len();
        for (offset, len) in [(0, 7), (n - 10, 10), (n / 3, n / 2), (n - 1, 1), (n, 0), (0, n)] {
            assert_eq!(
                file.read_at(offset as u64, len).unwrap(),
                &bytes[offset..offset + len],
                "{name} {offset}+{len}"
            );
        }
        // Past the end: kind io at the offset asked for, not a short read.
        let e = file.read_at(n as u64 - 3, 4).unwrap_err();
        assert_eq!((e.kind, e.offset()), (ErrorKind::Io, Some(n as u64 - 3)), "{name}: {e}");

        let (from_file, from_bytes) = (TsFileReader::read(&file).unwrap(), TsFileReader::read(&bytes[..]).unwrap());
        assert_eq!(from_file.file_info(), from_bytes.file_info(), "{name}");
        assert_eq!(from_file.listing(), from_bytes.listing(), "{name}");
        let want = &manifest_of(name)["bloom"];
        let bloom = from_file.bloom_info();
        assert_eq!(bloom.bit_count.map(u64::from), want["bit_count"].as_u64(), "{name}");
        assert_eq!(bloom.hash_function_count.map(u64::from), want["hash_function_count"].as_u64(), "{name}");
    }
}

#[test]
fn one_file_serves_many_threads_at_once() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<File>();
    send_sync::<FileSource>();
    send_sync::<TsFileReader>();
    send_sync::<LevelDbTable>();
    send_sync::<BloomFilter>();
    send_sync::<Error>();

    let path = tsfile("tree_10k_series.tsfile");
    let bytes = std::fs::read(&path).unwrap();
    let file = File::open(&path).unwrap();
    let n = bytes.len();
    let want = TsFileReader::read(&bytes[..]).unwrap().listing();
    // Positional reads never move a shared cursor: every thread reads its own ranges while the
    // others read theirs (a seek-then-read source would hand threads each other's bytes).
    std::thread::scope(|s| {
        for t in 0..4usize {
            let (file, bytes) = (&file, &bytes);
            s.spawn(move || {
                for i in 0..500usize {
                    let offset = (i * 7919 + t * 104_729) % (n - 64);
                    let len = 1 + (i + t) % 64;
                    assert_eq!(file.read_at(offset as u64, len).unwrap(), &bytes[offset..offset + len]);
                }
            });
        }
        // And whole readers over the same File, concurrently.
        for _ in 0..2 {
            let (file, want) = (&file, &want);
            s.spawn(move || assert_eq!(&TsFileReader::read(file).unwrap().listing(), want));
        }
    });
}

/// The quoted names in the statement of `file` that starts with `marker`: a TypeScript union
/// through its `;` (it may span lines), a `/** … */` comment through its line, a Markdown
/// paragraph through its blank line.
fn names_in(file: &str, marker: &str) -> BTreeSet<String> {
    let text = std::fs::read_to_string(root().join(file)).unwrap();
    let at = text.find(marker).unwrap_or_else(|| panic!("{file}: no {marker:?}"));
    let rest = &text[at..];
    let (end, quote) = if file.ends_with(".md") {
        (marker.len() + rest[marker.len()..].find("\n\n").unwrap(), '`')
    } else if marker.starts_with("/**") {
        (rest.find('\n').unwrap(), '\'')
    } else {
        // The generated declarations quote as JSON does.
        (rest.find(';').unwrap(), if file.ends_with(".generated.d.ts") { '"' } else { '\'' })
    };
    rest[..end].split(quote).skip(1).step_by(2).map(str::to_string).collect()
}

/// Each value as JSON, which must be a string.
fn serialized<T: serde::Serialize>(values: &[T]) -> BTreeSet<String> {
    values.iter().map(|v| serde_json::to_value(v).unwrap().as_str().expect("a string").to_string()).collect()
}

#[test]
fn result_enums_serialize_as_the_names_of_the_js_contract() {
    let dts = "js/types.generated.d.ts";
    // TailVariant lives in the hash crate (no serde there): through a result that holds it.
    let variants: Vec<_> = TailVariant::ALL
        .iter()
        .map(|&variant| OtherProbe { variant, charset: Charset::Utf8, verdict: Verdict::Maybe, probes: Vec::new() })
        .map(|p| serde_json::to_value(p).unwrap()["variant"].clone())
        .collect();
    assert_eq!(serialized(&variants), names_in(dts, "export type Variant ="));
    assert_eq!(serialized(&Charset::ALL), names_in(dts, "export type JvmCharset ="));
    let statuses = [
        AuditStatus::Established,
        AuditStatus::Ambiguous,
        AuditStatus::NotReproduced,
        AuditStatus::NoFilter,
        AuditStatus::UnsupportedHash,
    ];
    assert_eq!(serialized(&statuses), names_in(dts, "export type AuditStatus ="));
    let file_verdicts = [FileVerdict::Absent, FileVerdict::Maybe, FileVerdict::Unknown];
    assert_eq!(serialized(&file_verdicts), names_in(dts, "export type FileVerdict ="));
    assert_eq!(serialized(&[Verdict::Absent, Verdict::Maybe]), names_in(dts, "export type Verdict ="));
    let encodings = [
        BloomEncoding::Missing,
        BloomEncoding::Standard,
        BloomEncoding::Empty,
        BloomEncoding::V3,
        BloomEncoding::LegacyCppEmpty,
        BloomEncoding::JavaNull,
    ];
    assert_eq!(serialized(&encodings), names_in(dts, "export type BloomEncoding ="));
    assert_eq!(serialized(&FilterHash::ALL), names_in(dts, "export type FilterHash ="));
    let named = [NamedHash::Murmur(TailVariant::Java), NamedHash::Murmur(TailVariant::ZeroExtended), NamedHash::Cheap];
    assert_eq!(
        serialized(&named),
        names_in(dts, "export type Variant =").into_iter().chain(["cheap".into()]).collect()
    );
    let reasons = [
        ProbeReason::Bits,
        ProbeReason::EmptyFilter,
        ProbeReason::ReservedK,
        ProbeReason::PastLastBlock,
        ProbeReason::NoFilter,
        ProbeReason::FilterMissing,
    ];
    assert_eq!(serialized(&reasons), names_in(dts, "export type LevelDbProbeReason ="));
    assert_eq!(serialized(&[KeyFormat::Internal, KeyFormat::User]), names_in(dts, "export type LevelDbKeyFormat ="));
    assert_eq!(serialized(&[Compression::None, Compression::Snappy]), ["none", "snappy"].map(String::from).into());

    // Every kind a Rust error can have is one docs/errors.md documents for the JS API.
    let kinds = [
        ErrorKind::TooShort,
        ErrorKind::BadHeadMagic,
        ErrorKind::UnsupportedVersion,
        ErrorKind::BadTailMagic,
        ErrorKind::BadMetadataSize,
        ErrorKind::BadString,
        ErrorKind::BadMetaOffset,
        ErrorKind::BadIndexNode,
        ErrorKind::BadIndexOffset,
        ErrorKind::UnknownDataType,
        ErrorKind::BadRegion,
        ErrorKind::Io,
        ErrorKind::Truncated,
        ErrorKind::BadVarint,
        ErrorKind::BadCount,
        ErrorKind::BloomOverflow,
        ErrorKind::BloomStrayBits,
        ErrorKind::BloomBadBitCount,
        ErrorKind::BloomBadHashFunctionCount,
        ErrorKind::TrailingBytes,
        ErrorKind::InvalidArgument,
        ErrorKind::UnsupportedHash,
        ErrorKind::BadFooterMagic,
        ErrorKind::BadBlockHandle,
        ErrorKind::BadChecksum,
        ErrorKind::BadBlock,
        ErrorKind::UnsupportedCompression,
        ErrorKind::BadFilterBlock,
    ];
    let documented = names_in("docs/errors.md", "## Error kinds\n\n");
    let names = serialized(&kinds);
    assert_eq!(names.len(), kinds.len());
    assert!(names.is_subset(&documented), "undocumented: {:?}", names.difference(&documented));
}

#[test]
fn results_hold_the_enums_with_the_writer_s_values() {
    // The C++ writer of tsfile 2.5.0 on Unicode names: its manifest gives the tail variant
    // and the data types it wrote.
    let m = manifest_of("table_unicode");
    let reader = read(&tsfile("table_unicode.tsfile")).unwrap();
    let audit = reader.audit_info().unwrap();
    assert_eq!(audit.status, AuditStatus::Established);
    assert_eq!(audit.variant, TailVariant::from_name(m["hash_variant"].as_str().unwrap()).map(NamedHash::from));
    assert_eq!(audit.variant, Some(NamedHash::Murmur(TailVariant::ZeroExtended)));
    assert_eq!((audit.charset, &audit.charsets[..]), (Some(Charset::Utf8), &[Charset::Utf8][..]));
    let reproducing: Vec<_> = audit.hypotheses.iter().filter(|h| h.reproduces).collect();
    assert_eq!(reproducing.len(), 1);
    assert_eq!((reproducing[0].variant, reproducing[0].charset), (TailVariant::ZeroExtended, Charset::Utf8));
    assert!(reproducing[0].trailing_nulls_kept);
    assert_eq!(m["trailing_null_tags"], "kept");
    assert_eq!(reader.bloom_info().encoding, BloomEncoding::Standard);

    let listing = reader.listing();
    let mut got: Vec<DataType> = listing.series.iter().map(|s| s.data_type).collect();
    let mut want: Vec<DataType> = m["series"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let name = s["data_type"].as_str().unwrap();
            (0..=u8::MAX).filter_map(DataType::from_byte).find(|d| d.as_str() == name).unwrap()
        })
        .collect();
    got.sort_by_key(|d| d.to_byte());
    want.sort_by_key(|d| d.to_byte());
    assert_eq!(got, want);

    // A listed series is "maybe" under the established hash; the JSON shows the names.
    let first = &listing.series[0];
    let probe = reader.probe(first.path.as_bytes(), None, None).unwrap();
    assert_eq!((probe.verdict, probe.variant, probe.charset), (FileVerdict::Maybe, audit.variant, Some(Charset::Utf8)));
    assert!(probe.confirmed);
    let json = serde_json::to_value(&probe).unwrap();
    assert_eq!(
        (&json["verdict"], &json["variant"], &json["charset"]),
        (&Value::from("maybe"), &Value::from("zero-extended"), &Value::from("UTF-8"))
    );
    // A path the file does not hold: every probed bit under the writer's hash is checked here,
    // independently of the verdict, with the filter's own bits.
    let absent = reader.probe(b"root.not.in.this.file", None, None).unwrap();
    let clear = absent.probes.iter().any(|p| !p.set);
    assert_eq!(absent.verdict == FileVerdict::Absent, clear);
    assert_eq!(serde_json::to_value(&absent).unwrap()["verdict"], Value::from(absent.verdict.as_str()));
    for other in &absent.others {
        assert_eq!(other.verdict == Verdict::Absent, other.probes.iter().any(|p| !p.set));
    }

    // The warnings and errors of the walk carry an ErrorKind.
    let hostile = read(&tsfile("hostile_chunk_list_len_past_region.tsfile"));
    let m = manifest_of("hostile_chunk_list_len_past_region");
    let kind = match hostile {
        Err(e) => e.kind,
        Ok(r) => r.file_info().index_error.expect("the walk stops").kind,
    };
    assert_eq!(kind.as_str(), m["error_kind"].as_str().unwrap());
}

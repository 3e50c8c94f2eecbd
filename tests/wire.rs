//! The wire between the core and the JS bindings (src/tsfile/wire/): each packed layout decoded here,
//! independently of the encoder, on every fixture, and compared with the values the core's API
//! gives for the same file (`TsFileReader::listing`, `probe`, `bloom_info`). (js/wire.js, the
//! package's decoder, reads the code tables from js/core-tables.js: tests/generated.rs.)

#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::reason_kind;
use serde_json::Value;
use std::path::{Path, PathBuf};
use tsfile_bloom::encoder::BuiltIn;
use tsfile_bloom::tsfile::view::SeriesInfo;
use tsfile_bloom::tsfile::wire::{self, listing, record, scan};
use tsfile_bloom::tsfile::{read_metadata, DataType, TsFileReader};
use tsfile_bloom::verdict::{Decision, FileVerdict, Listed, Reason};
use tsfile_bloom::{BloomFilter, Charset, TailVariant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.tsfile` under tests/fixtures, with its bytes.
fn fixtures() -> Vec<(String, Vec<u8>)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "tsfile") {
                out.push(p);
            }
        }
    }
    let mut paths = Vec::new();
    walk(&root().join("tests/fixtures"), &mut paths);
    paths.sort();
    assert!(paths.len() > 50, "the fixtures are there");
    paths
        .into_iter()
        .map(|p| (p.strip_prefix(root()).unwrap().display().to_string(), std::fs::read(&p).unwrap()))
        .collect()
}

/// The fixtures that open (their index may still stop at an error: the listing is then partial).
fn readers() -> Vec<(String, TsFileReader, Vec<u8>)> {
    fixtures()
        .into_iter()
        .filter_map(|(name, bytes)| TsFileReader::read(&bytes[..]).ok().map(|r| (name, r, bytes)))
        .collect()
}

/// The listing decoded from its columns, as the module's documentation describes them.
fn decode_listing(c: &listing::Columns) -> Vec<(bool, SeriesInfo)> {
    let text = std::str::from_utf8(&c.text).expect("the text is UTF-8");
    let name = |b: usize| -> Option<String> {
        (c.bounds[b] != listing::NULL).then(|| text[c.bounds[b] as usize..c.bounds[b + 1] as usize].to_string())
    };
    let (mut out, mut b, mut names) = (Vec::new(), 0usize, Vec::new());
    let (mut prefix, mut table, mut device) = (None, None, Vec::new());
    for row in c.numbers.chunks(listing::STRIDE) {
        let flags = row[0] & 0xff;
        if flags & listing::SAME_DEVICE == 0 {
            prefix = name(b);
            table = name(b + 2);
            device = (0..row[1] as usize).map(|j| name(b + 4 + 2 * j)).collect();
            b += 4 + 2 * row[1] as usize;
        }
        if flags & listing::NEW_NAME != 0 {
            names.push(name(b).expect("a measurement name"));
            b += 2;
        }
        let measurement: String = names[row[2] as usize].clone();
        let path = if flags & listing::WHOLE_PATH != 0 {
            b += 2;
            name(b - 2).expect("a path")
        } else {
            format!("{}{measurement}", prefix.as_deref().expect("a prefix when the path is not whole"))
        };
        let maybe_present = match flags & (listing::ABSENT | listing::MAYBE) {
            0 => None,
            listing::ABSENT => Some(false),
            listing::MAYBE => Some(true),
            _ => panic!("both maybePresent flags"),
        };
        let info = SeriesInfo {
            path,
            table: table.clone(),
            device: device.clone(),
            measurement,
            data_type: DataType::from_byte((row[0] >> 8) as u8).expect("a data type byte"),
            offset: u64::from(row[3]) | u64::from(row[4]) << 32,
            maybe_present,
        };
        out.push((flags & listing::TIME != 0, info));
    }
    assert_eq!(b, c.bounds.len(), "every bound read");
    out
}

#[test]
fn the_listing_columns_decode_to_the_readers_listing_on_every_fixture() {
    let (mut files, mut records, mut shared) = (0, 0, 0);
    for (name, r, _) in readers() {
        let c = listing::columns(&r);
        let decoded = decode_listing(&c);
        let listing = r.listing();
        let series: Vec<&SeriesInfo> = decoded.iter().filter(|(t, _)| !t).map(|(_, s)| s).collect();
        let times: Vec<&SeriesInfo> = decoded.iter().filter(|(t, _)| *t).map(|(_, s)| s).collect();
        assert_eq!(series, listing.series.iter().collect::<Vec<_>>(), "{name}");
        assert_eq!(times, listing.time_columns.iter().collect::<Vec<_>>(), "{name}");
        // Each device's names and each measurement name cross once.
        let distinct: std::collections::HashSet<&str> = decoded.iter().map(|(_, s)| s.measurement.as_str()).collect();
        let new_names = c.numbers.chunks(listing::STRIDE).filter(|r| r[0] & listing::NEW_NAME != 0).count();
        assert_eq!(new_names, distinct.len(), "{name}");
        shared += c.numbers.chunks(listing::STRIDE).filter(|r| r[0] & listing::SAME_DEVICE != 0).count();
        files += 1;
        records += decoded.len();
    }
    assert!(files > 40 && records > 10_000 && shared > 5_000, "{files} files, {records} records, {shared} shared");
}

/// Paths a reader of `r` may ask for: its first series, absent ones, non-ASCII ones.
fn paths_of(r: &TsFileReader) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = (0..r.paths().len().min(12)).map(|i| r.paths().get(i).to_vec()).collect();
    for p in ["root.absent.d1.s1", "root.缺失.设备.温度_9", "root.sg1.d1.s1", "root.x", ""] {
        out.push(p.as_bytes().to_vec());
    }
    out
}

/// `k` seed probes from `m[at..]`: `(seed, hash32, bit, set)`.
fn seeds(m: &[i32], at: usize, k: usize) -> Vec<(u32, i32, u32, bool)> {
    (0..k).map(|j| &m[at + 4 * j..at + 4 * j + 4]).map(|s| (s[0] as u32, s[1], s[2] as u32, s[3] == 1)).collect()
}

#[test]
fn a_file_probe_record_holds_what_the_readers_probe_says() {
    let verdicts = FileVerdict::ALL;
    let mut seen = std::collections::HashSet::new();
    for (name, r, _) in readers() {
        for variant in [None, Some(TailVariant::Java), Some(TailVariant::ZeroExtended)] {
            for charset in [None, Some(Charset::Utf8), Some(Charset::Gbk)] {
                for path in paths_of(&r) {
                    let listed = r.listed(&path);
                    let p = r.probe_filter_reasoned(&path, variant, charset).unwrap();
                    let mut m = Vec::new();
                    let cheap = r.unprobed_reason() == Reason::CheapHash;
                    record::file_probe(&mut m, listed, p.as_ref().map(|p| &p.0), cheap);
                    assert!(m.len() <= record::CAPACITY);
                    let want = r.probe(&path, variant, charset).unwrap();
                    let ctx = format!("{name} {:?} {variant:?} {charset:?}", String::from_utf8_lossy(&path));
                    assert_eq!(verdicts[m[0] as usize], want.verdict, "{ctx}");
                    assert_eq!(m[1], want.variant.map_or(wire::NONE, wire::named_hash_code), "{ctx}");
                    assert_eq!(m[2], want.charset.map_or(wire::NONE, Charset::code), "{ctx}");
                    assert_eq!(m[3] == 1, want.confirmed, "{ctx}");
                    assert_eq!(m[4], want.indexed.map_or(wire::NONE, i32::from), "{ctx}");
                    let (k, others) = (m[5] as usize, m[6] as usize);
                    let probes: Vec<_> = want.probes.iter().map(|s| (s.seed, s.hash32, s.bit, s.set)).collect();
                    assert_eq!(Decision::ALL[m[7] as usize], want.decision, "{ctx}");
                    assert_eq!(seeds(&m, 8, k), probes, "{ctx}");
                    assert_eq!(others, want.others.len(), "{ctx}");
                    let mut at = 8 + 4 * k;
                    for o in &want.others {
                        assert_eq!(TailVariant::ALL[m[at] as usize], o.variant, "{ctx}");
                        assert_eq!(Charset::ALL[m[at + 1] as usize], o.charset, "{ctx}");
                        assert_eq!(m[at + 2], i32::from(o.verdict == tsfile_bloom::Verdict::Maybe), "{ctx}");
                        let probes: Vec<_> = o.probes.iter().map(|s| (s.seed, s.hash32, s.bit, s.set)).collect();
                        assert_eq!(seeds(&m, at + 3, k), probes, "{ctx}");
                        at += 3 + 4 * k;
                    }
                    // The record ends there; the reason's sentence crosses beside it.
                    let reason = p.as_ref().map_or(r.unprobed_reason(), |(_, r)| *r);
                    assert_eq!(m.len(), at, "{ctx}");
                    assert_eq!(reason.sentence(r.audit(), listed), want.reason, "{ctx}");
                    seen.insert((m[0], reason_kind(&reason)));
                }
            }
        }
    }
    // Every verdict and every reason kind came up but "the audit reproduced nothing" (no fixture
    // is written by a writer we do not model; tests/reasons.rs says the same).
    for v in 0..3 {
        assert!(seen.iter().any(|&(x, _)| x == v), "verdict {v}: {seen:?}");
    }
    for kind in [0, 1, 3, 4, 5, 6, 7, 8] {
        assert!(seen.iter().any(|&(_, x)| x == kind), "reason kind {kind}: {seen:?}");
    }
}

#[test]
fn a_filter_probe_record_holds_the_filters_probe() {
    let mut f = BloomFilter::with_capacity(100, 0.05);
    f.add(b"root.sg1.d1.s1", TailVariant::Java);
    for key in [&b"root.sg1.d1.s1"[..], b"root.sg1.d1.s2", "温度".as_bytes()] {
        for v in TailVariant::ALL {
            let p = f.probe(key, v);
            let mut m = Vec::new();
            record::filter_probe(&mut m, &f, key, v);
            assert_eq!(m[0], i32::from(p.verdict == tsfile_bloom::Verdict::Maybe));
            let probes: Vec<_> = p.probes.iter().map(|s| (s.seed, s.hash32, s.bit, s.set)).collect();
            assert_eq!(m[1] as usize, probes.len());
            assert_eq!(seeds(&m, 2, probes.len()), probes);
            assert_eq!(m.len(), 2 + 4 * probes.len());
        }
    }
}

#[test]
fn the_fast_scan_gives_bloom_info_and_probe_many_as_before_the_index_is_read() {
    let (mut scanned, mut outside) = (0, 0);
    for (name, bytes) in fixtures() {
        let size = bytes.len();
        let window = &bytes[size.saturating_sub(wire::TAIL_WINDOW)..];
        let head = &bytes[..size.min(12)];
        let Ok(meta) = read_metadata(&bytes[..]) else {
            // A file that does not open does not scan either (its error is opening's).
            assert!(scan::TailScan::read(size as u64, head, window).is_err(), "{name}");
            continue;
        };
        let Some(mut s) = scan::TailScan::read(size as u64, head, window).unwrap() else {
            assert!(meta.envelope.metadata_offset < (size - window.len()) as u64, "{name}");
            outside += 1;
            continue;
        };
        let r = TsFileReader::from_metadata(meta, BuiltIn);
        let paths = paths_of(
            &TsFileReader::read(&bytes[..])
                .unwrap_or_else(|_| TsFileReader::from_metadata(read_metadata(&bytes[..]).unwrap(), BuiltIn)),
        );
        for p in &paths {
            s.push_verdict(p, &BuiltIn).unwrap();
        }
        let f = s.into_figures();
        assert_eq!(f.len(), scan::FIGURES + paths.len());
        assert_eq!(f[0], f64::from(r.metadata().envelope.version), "{name}");
        let info = serde_json::to_value(r.bloom_info()).unwrap();
        for (i, key) in scan::FIGURE_NAMES.iter().enumerate().skip(1) {
            // `health.state` is `info.health.state`, null where `info.health` is.
            let want = key.split('.').fold(&info, |v, k| if v.is_null() { v } else { &v[k] });
            let got = f[i];
            match want {
                Value::Null => assert!(got.is_nan(), "{name} {key}: {got}"),
                Value::Bool(b) => assert_eq!(got, f64::from(u8::from(*b)), "{name} {key}"),
                Value::String(e) if *key == "health.state" => {
                    assert_eq!(tsfile_bloom::health::HealthState::ALL[got as usize].as_str(), e, "{name} {key}")
                }
                Value::String(e) if *key == "hash" => {
                    assert_eq!(tsfile_bloom::filter::FilterHash::ALL[got as usize].as_str(), e, "{name} {key}")
                }
                Value::String(e) => {
                    assert_eq!(tsfile_bloom::tsfile::BloomEncoding::ALL[got as usize].as_str(), e, "{name} {key}")
                }
                Value::Number(n) => assert_eq!(got, n.as_f64().unwrap(), "{name} {key}"),
                _ => panic!("{key}: {want}"),
            }
        }
        // The figures name every key of bloomInfo() but those the index gives (not read here).
        let keys: Vec<&str> = info
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .filter(|k| !["indexedItems", "filledPastDesign", "cppSizedFor", "health"].contains(k))
            .chain(["health.state", "health.errorRate", "health.sizedForItems", "health.designFill"])
            .collect();
        let mut names = scan::FIGURE_NAMES[1..].to_vec();
        names.sort_unstable();
        let mut keys = keys;
        keys.sort_unstable();
        assert_eq!(names, keys);
        let rule = r.verdict_rule(None, None);
        for (i, p) in paths.iter().enumerate() {
            let want = r.verdict(&rule, p).unwrap().unwrap_or(FileVerdict::Unknown);
            assert_eq!(f[scan::FIGURES + i], f64::from(want.code()), "{name}");
        }
        scanned += 1;
    }
    assert!(scanned > 40 && outside > 0, "{scanned} scanned, {outside} with TsFileMetadata outside the window");
}

#[test]
fn a_reader_from_the_parts_the_bindings_fetch_is_the_whole_files_reader() {
    let mut checked = 0;
    for (name, _, bytes) in readers() {
        // Before the index is read, as the bindings open a file.
        let whole = TsFileReader::from_metadata(read_metadata(&bytes[..]).unwrap(), BuiltIn);
        let (size, head, tail) = (bytes.len() as u64, &bytes[..bytes.len().min(64)], &bytes[bytes.len() - 10..]);
        let meta = read_metadata(&bytes[..]).unwrap();
        let (at, len) = (meta.envelope.metadata_offset as usize, meta.envelope.metadata_size as usize);
        let parts = TsFileReader::from_parts(size, head, tail, &bytes[at..at + len], BuiltIn).unwrap();
        assert_eq!(parts.bloom_info(), whole.bloom_info(), "{name}");
        assert_eq!(parts.index_range(), whole.index_range(), "{name}");
        // TsFileMetadata's bytes one short, or one long: a bad argument, not a parse of other bytes.
        for metadata in [&bytes[at..at + len - 1], &bytes[at..(at + len + 1).min(bytes.len())]] {
            if metadata.len() != len {
                let e = TsFileReader::from_parts(size, head, tail, metadata, BuiltIn).err().expect(&name);
                assert_eq!(e.kind.as_str(), "invalid_argument", "{name}");
            }
        }
        checked += 1;
    }
    assert!(checked > 50);
}

#[test]
fn staged_batches_answer_as_the_reader_and_the_filter_do_key_by_key() {
    use tsfile_bloom::staged::Staged;
    use wire::batch::{self, KeyCoding};
    for (name, r, bytes) in readers() {
        let paths = paths_of(&r);
        let staged = Staged::of(&paths.iter().map(Vec::as_slice).collect::<Vec<_>>());
        for (variant, charset) in [(-1, -1), (0, -1), (1, 0), (-1, 10)] {
            let rule = r.verdict_rule(wire::variant_of(variant).unwrap(), wire::charset_of(charset).unwrap());
            let want: Vec<u8> = paths
                .iter()
                .map(|p| (r.verdict(&rule, p).unwrap().unwrap_or(FileVerdict::Unknown)).code() as u8)
                .collect();
            assert_eq!(
                batch::file_verdicts(&r, &staged, paths.len(), variant, charset, false).unwrap(),
                want,
                "{name}"
            );
            // The first keys only, when fewer are asked for.
            assert_eq!(batch::file_verdicts(&r, &staged, 2, variant, charset, false).unwrap(), want[..2], "{name}");
            // With decisions: each path's decision and indexed as its single probe's record says them.
            let decided = batch::file_verdicts(&r, &staged, paths.len(), variant, charset, true).unwrap();
            let n = paths.len();
            assert_eq!((decided.len(), &decided[..n]), (3 * n, &want[..]), "{name}");
            for (i, p) in paths.iter().enumerate() {
                let mut m = Vec::new();
                batch::file_probe(&mut m, &r, p, variant, charset).unwrap();
                assert_eq!(i32::from(decided[n + i]), m[7], "{name}: decision of path {i}");
                let indexed = batch::INDEXED[usize::from(decided[2 * n + i])];
                assert_eq!(indexed.map_or(wire::NONE, i32::from), m[4], "{name}: indexed of path {i}");
            }
            let mut one = Vec::new();
            let reason = batch::file_probe(&mut one, &r, &paths[0], variant, charset).unwrap();
            let mut want = Vec::new();
            let (v, cs) = rule_args(variant, charset);
            let p = r.probe_filter_reasoned(&paths[0], v, cs).unwrap();
            let cheap = r.unprobed_reason() == Reason::CheapHash;
            record::file_probe(&mut want, r.listed(&paths[0]), p.as_ref().map(|p| &p.0), cheap);
            assert_eq!(one, want, "{name}");
            assert_eq!(reason, r.probe(&paths[0], v, cs).unwrap().reason, "{name}");
        }
        // The fast scan over staged paths is TailScan's, path by path.
        let window = &bytes[bytes.len().saturating_sub(wire::TAIL_WINDOW)..];
        let head = &bytes[..bytes.len().min(12)];
        let got = batch::scan_figures(bytes.len() as u64, head, window, &staged, paths.len(), &BuiltIn).unwrap();
        match scan::TailScan::read(bytes.len() as u64, head, window).unwrap() {
            None => assert!(got.is_empty(), "{name}"),
            Some(mut s) => {
                paths.iter().for_each(|p| s.push_verdict(p, &BuiltIn).unwrap());
                let want = s.into_figures();
                assert_eq!(got.len(), want.len(), "{name}");
                assert!(got.iter().zip(&want).all(|(a, b)| a == b || (a.is_nan() && b.is_nan())), "{name}");
            }
        }
    }

    // A filter: text re-encoded in windows-1252 (code 10) is the transcoded bytes; bytes as given.
    let keys: [&[u8]; 4] = [b"root.sg1.d1.s1", "root.café.d1.s1".as_bytes(), "root.温度".as_bytes(), b""];
    let staged = Staged::of(&keys);
    for coding in [(false, -1, -1), (true, 1, 10), (true, 0, -1)] {
        let c = KeyCoding::of(coding.0, coding.1, coding.2).unwrap();
        let mut f = BloomFilter::with_capacity(10, 0.05);
        batch::filter_add(&mut f, &staged, 2, c).unwrap();
        let mut one_by_one = BloomFilter::with_capacity(10, 0.05);
        for k in &keys[..2] {
            one_by_one.add(&tsfile_bloom::path::key_bytes(k, c.text, c.charset).unwrap(), c.variant);
        }
        assert_eq!(f.encode(), one_by_one.encode(), "{coding:?}");
        let verdicts = batch::filter_verdicts(&f, &staged, keys.len(), c).unwrap();
        let rows = batch::filter_probes(&f, &staged, keys.len(), c).unwrap();
        let stride = 1 + 2 * f.hash_function_count() as usize;
        assert_eq!(rows.len(), keys.len() * stride);
        for (i, k) in keys.iter().enumerate() {
            let p = f.probe(&c.key(k).unwrap(), c.variant);
            assert_eq!(verdicts[i], u8::from(p.verdict == tsfile_bloom::Verdict::Maybe), "{coding:?} {i}");
            let mask = p.probes.iter().enumerate().fold(0, |m, (j, s)| m | (i32::from(s.set) << j));
            assert_eq!(rows[i * stride], mask);
            for (j, s) in p.probes.iter().enumerate() {
                assert_eq!((rows[i * stride + 1 + 2 * j], rows[i * stride + 2 + 2 * j] as u32), (s.hash32, s.bit));
            }
            let mut one = Vec::new();
            batch::filter_probe(&mut one, &f, k, c).unwrap();
            assert_eq!(one[..2], [i32::from(p.verdict == tsfile_bloom::Verdict::Maybe), p.probes.len() as i32]);
            let probes: Vec<_> = p.probes.iter().map(|s| (s.seed, s.hash32, s.bit, s.set)).collect();
            assert_eq!((seeds(&one, 2, probes.len()), one.len()), (probes, 2 + 4 * p.probes.len()));
        }
        let g = wire::geometry(&f);
        assert_eq!(g[..3], [f.bit_count(), f.hash_function_count(), f.byte_length()].map(f64::from));
        assert_eq!(g[3], f.set_bits() as f64);
        assert_eq!(wire::GEOMETRY.len(), g.len());
    }
}

/// The reader's arguments for a variant and a charset code.
fn rule_args(variant: i32, charset: i32) -> (Option<TailVariant>, Option<Charset>) {
    (wire::variant_of(variant).unwrap(), wire::charset_of(charset).unwrap())
}

#[test]
fn staged_batches_refuse_bad_codes_counts_and_ends_with_a_typed_error() {
    use tsfile_bloom::staged::Staged;
    use tsfile_bloom::ErrorKind;
    use wire::batch::{self, KeyCoding};
    let (name, r, bytes) = readers().into_iter().find(|(_, _, b)| b.len() <= wire::TAIL_WINDOW).unwrap();
    let staged = Staged::of(&[b"root.a", b"root.b"]);
    for (variant, charset) in [(2, -1), (-2, -1), (0, 12), (0, -7)] {
        let e = batch::file_verdicts(&r, &staged, 2, variant, charset, false).unwrap_err();
        assert_eq!((e.kind, e.offset()), (ErrorKind::InvalidArgument, None), "{variant} {charset}");
        assert_eq!(KeyCoding::of(true, variant, charset).unwrap_err().kind, ErrorKind::InvalidArgument);
    }
    // More keys than were staged, for every batch call.
    let c = KeyCoding::of(false, -1, -1).unwrap();
    let mut f = BloomFilter::with_capacity(10, 0.05);
    let kinds = [
        batch::file_verdicts(&r, &staged, 3, -1, -1, false).map(drop).unwrap_err().kind,
        batch::filter_verdicts(&f, &staged, 3, c).map(drop).unwrap_err().kind,
        batch::filter_probes(&f, &staged, 3, c).map(drop).unwrap_err().kind,
        batch::filter_add(&mut f, &staged, 3, c).unwrap_err().kind,
        batch::scan_figures(bytes.len() as u64, &bytes[..12], &bytes, &staged, 3, &BuiltIn).map(drop).unwrap_err().kind,
    ];
    assert_eq!(kinds, [ErrorKind::InvalidArgument; 5], "{name}");
}

#[test]
fn the_record_area_keeps_its_address_across_records() {
    let mut area = record::Area::new();
    area.write(|out| {
        out.extend_from_slice(&[1, 2, 3]);
        Ok(())
    })
    .unwrap();
    let first = area.as_ptr();
    // The longest record fits the reserved capacity: the address JS holds stays valid.
    let answer = area.write(|out| {
        out.resize(record::CAPACITY, 7);
        Ok("the sentence")
    });
    assert_eq!((answer.unwrap(), area.as_ptr()), ("the sentence", first));
    let e = area.write(|_| Err::<(), _>(tsfile_bloom::Error::invalid_argument("no"))).unwrap_err();
    assert_eq!(e.kind, tsfile_bloom::ErrorKind::InvalidArgument);
}

#[test]
fn a_reader_skips_a_file_only_when_it_does_not_hold_the_path() {
    let read: Vec<&str> = Decision::ALL.iter().filter(|d| d.must_read()).map(|d| d.as_str()).collect();
    assert_eq!(read, ["indexed", "maybe", "unknown"]);
    // A listed series is read whatever the filter says; an unread index adds nothing.
    for v in FileVerdict::ALL {
        assert!(Decision::of(v, Listed::Yes).must_read());
        assert_eq!(Decision::of(v, Listed::NotRead).as_str(), v.as_str());
    }
    assert!(!Decision::of(FileVerdict::Maybe, Listed::No).must_read());
    assert!(!Decision::of(FileVerdict::Unknown, Listed::No).must_read());
    assert!(Decision::of(FileVerdict::Unknown, Listed::Unreadable).must_read());
}

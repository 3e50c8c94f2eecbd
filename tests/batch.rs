//! The verdict-only rule (`probe::VerdictRule`, behind `mightContainMany`, `probeMany` and the
//! listing's maybe-present) against `probe::probe_file`, path by path, on
//! every TsFile fixture that opens: before and after the index is read, for every variant
//! choice and every charset, over the file's own paths and paths that are not in it.

#![cfg(not(target_arch = "wasm32"))]

use tsfile_bloom::audit;
use tsfile_bloom::encoder::BuiltIn;
use tsfile_bloom::probe::{self, VerdictRule};
use tsfile_bloom::source::FileSource;
use tsfile_bloom::tsfile;
use tsfile_bloom::verdict::FileVerdict;
use tsfile_bloom::{BloomFilter, Charset, TailVariant};

fn paths_for(series: &[tsfile::Series]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    for s in series.iter().take(100) {
        let p = s.path();
        out.push(p.clone());
        // Not in the file: one byte more, a changed last byte, a non-ASCII tail.
        let mut q = p.clone();
        q.push(b'x');
        out.push(q);
        let mut q = p.clone();
        if let Some(last) = q.last_mut() {
            *last ^= 1;
        }
        out.push(q);
        let mut q = p;
        q.extend_from_slice("_温度".as_bytes());
        out.push(q);
    }
    for i in 0..60 {
        out.push(format!("root.absent_{i}.设备.s{i}").into_bytes());
        out.push(format!("root.sg{i}.d{}.s{}", i % 7, i % 3).into_bytes());
    }
    out.push(Vec::new());
    out.push(vec![0xff, 0xfe, b'a']); // not UTF-8: probe_file hashes the bytes as they are
    out.push("root.".repeat(60).into_bytes()); // past the mixed-once block limit
    out
}

#[test]
fn batch_verdicts_equal_probe_file_on_every_fixture() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tsfile");
    let mut files = 0;
    let mut compared = [0usize; 3];
    let mut unreproduced = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries.into_iter().filter(|p| p.extension().is_some_and(|e| e == "tsfile")) {
        let src = FileSource::open(&path).unwrap();
        let Ok(meta) = tsfile::read_metadata(&src) else { continue };
        let walk = tsfile::walk_index(&src, &meta);
        files += 1;
        // The stored filter, and the same filter with its first non-zero byte cleared: indexed
        // paths then test absent, no hypothesis reproduces the bits, and a clear bit must come
        // back as "unknown" (may contain), not "absent".
        let damaged = meta.bloom.filter.as_ref().map(|f| {
            let mut bytes = f.encode();
            let (_, layout) = BloomFilter::decode(&bytes, 0).unwrap();
            let at = layout.bits_offset as usize;
            if let Some(b) = bytes[at..].iter_mut().find(|b| **b != 0) {
                *b = 0;
            }
            BloomFilter::decode(&bytes, 0).unwrap().0.unwrap()
        });
        for filter in [meta.bloom.filter.as_ref(), damaged.as_ref()] {
            let Some(f) = filter else { continue };
            let audited = walk.error.is_none().then(|| audit::audit(filter, &walk.series));
            if audited.as_ref().is_some_and(|a| !a.reproduced()) {
                unreproduced += 1;
            }
            let paths = paths_for(&walk.series);
            for a in [None, audited.as_ref()] {
                for variant in [None, Some(TailVariant::Java), Some(TailVariant::ZeroExtended)] {
                    for charset in std::iter::once(None).chain(Charset::ALL.map(Some)) {
                        let rule = VerdictRule::new(a, variant, charset);
                        for p in &paths {
                            let got = rule.verdict(f, p, &BuiltIn).map_err(|e| e.kind);
                            let want =
                                probe::probe_file(f, a, p, variant, charset).map(|fp| fp.verdict).map_err(|e| e.kind);
                            assert_eq!(
                                got,
                                want,
                                "{}: {:?} audit {} {variant:?} {charset:?}",
                                path.display(),
                                String::from_utf8_lossy(p),
                                a.is_some()
                            );
                            if let Ok(v) = want {
                                compared[v as usize] += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(unreproduced >= 10, "damaged filters must give not-reproduced audits ({unreproduced})");
    assert!(files >= 20, "expected the fixtures ({files})");
    // Every verdict occurs often, so a rule stuck on one answer fails.
    assert!(compared.iter().all(|&c| c > 1_000), "{compared:?}");
}

/// Every `.tsfile` under `dir`, its subdirectories included, sorted.
fn tsfiles(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(tsfiles(&p));
        } else if p.extension().is_some_and(|e| e == "tsfile") {
            out.push(p);
        }
    }
    out.sort();
    out
}

#[test]
fn listing_verdicts_and_index_lookups_equal_probe_file_on_every_fixture() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut records = [0usize; 3]; // maybePresent true, false, null
    let mut files = 0;
    for path in tsfiles(&dir) {
        let src = FileSource::open(&path).unwrap();
        let Ok(r) = tsfile::TsFileReader::read(&src) else { continue };
        files += 1;
        for (s, maybe) in r.entries() {
            let p = s.path();
            let want =
                r.filter().and_then(|f| match probe::probe_file(f, r.audit(), &p, None, None).map(|fp| fp.verdict) {
                    Ok(FileVerdict::Maybe) => Some(true),
                    Ok(FileVerdict::Absent) => Some(false),
                    _ => None,
                });
            assert_eq!(maybe, want, "{}: {}", path.display(), String::from_utf8_lossy(&p));
            records[match maybe {
                Some(true) => 0,
                Some(false) => 1,
                None => 2,
            }] += 1;
            // The index lists every series (not the time columns) and nothing one byte longer.
            assert_eq!(
                r.is_indexed(&p),
                Some(!s.is_time_column()),
                "{}: {}",
                path.display(),
                String::from_utf8_lossy(&p)
            );
            let mut q = p.clone();
            q.push(b'x');
            assert_eq!(r.is_indexed(&q), Some(false), "{}", path.display());
        }
    }
    assert!(files >= 40, "expected the C++ and Java fixtures ({files})");
    assert!(records[0] > 1_000 && records[2] > 0, "{records:?}");
}

/// Multi-byte charsets by the crate's tables, as the package's charsets module gives them.
struct Tables;
impl tsfile_bloom::encoder::CharsetModule for Tables {
    fn encode(&self, utf8: &[u8], charset: Charset) -> Option<Vec<u8>> {
        use tsfile_bloom::encoder::PathEncoder;
        BuiltIn.encode(utf8, charset).ok().map(std::borrow::Cow::into_owned)
    }
}

/// A reader keeps its file's rule for probes without overrides, chosen again with each audit:
/// its single probes equal `probe_file_reasoned`, which chooses the rule afresh, before the index
/// is read, after it, and after a charsets module arrives and the file is audited again (as the
/// wasm module's reader is: the GBK-written Java fixtures reproduce only then).
#[test]
fn reader_probes_follow_the_rule_of_the_current_audit() {
    use tsfile_bloom::encoder::WithModule;
    type Reader = tsfile::TsFileReader<WithModule<Tables>>;
    fn same_as_fresh(r: &Reader, paths: &[Vec<u8>], compared: &mut usize) {
        let Some(f) = r.filter() else { return };
        if f.hash() == tsfile_bloom::filter::FilterHash::Cheap {
            // Not probed: the reader says so with None, a probe of the filter with unsupported_hash.
            for p in paths {
                assert!(r.probe_filter_reasoned(p, None, None).unwrap().is_none());
                let fresh = probe::probe_file_reasoned(f, r.audit(), p, None, None, r.encoder());
                assert_eq!(fresh.map(drop).unwrap_err().kind, tsfile_bloom::ErrorKind::UnsupportedHash);
            }
            return;
        }
        let hashes = [
            (None, None),
            (Some(TailVariant::ZeroExtended), None),
            (None, Some(Charset::Gbk)),
            (Some(TailVariant::Java), Some(Charset::Utf8)),
        ];
        for p in paths {
            for (v, cs) in hashes {
                let got = r.probe_filter_reasoned(p, v, cs).map(Option::unwrap).map_err(|e| e.kind);
                let fresh = probe::probe_file_reasoned(f, r.audit(), p, v, cs, r.encoder()).map_err(|e| e.kind);
                assert_eq!(got, fresh, "{} {v:?} {cs:?}", String::from_utf8_lossy(p));
                *compared += 1;
            }
        }
    }
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let (mut files, mut audited_again, mut compared) = (0, 0, 0);
    for path in tsfiles(&dir) {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(meta) = tsfile::read_metadata(&bytes[..]) else { continue };
        let mut r = Reader::from_metadata(meta, WithModule(None));
        let walk = tsfile::walk_index(&bytes[..], r.metadata());
        let paths = paths_for(&walk.series);
        files += 1;
        same_as_fresh(&r, &paths, &mut compared);
        let (at, len) = r.index_range();
        r.attach_index(&bytes[at as usize..(at + len) as usize]);
        same_as_fresh(&r, &paths, &mut compared);
        let before = r.audit().map(|a| a.status);
        if r.set_encoder(WithModule(Some(Tables))) {
            audited_again += 1;
            assert_ne!(r.audit().map(|a| a.status), before, "{}", path.display());
            same_as_fresh(&r, &paths, &mut compared);
        }
    }
    assert!(files >= 40 && audited_again >= 1, "{files} files, {audited_again} audited again");
    assert!(compared > 10_000, "{compared}");
}

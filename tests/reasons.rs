//! A probe's reason: the facts it rests on (`Reason`, `Listed`) on real files, and its words.
//! The JS package fills a reason's sentence form in js/reasons.js from the numbers the wasm
//! module passes (`Reason::phrase`, `record::reason`); the last test runs that module under Node on every
//! probe here and checks it says exactly what `Reason::text_listed` says.

#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::reason_kind;
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use tsfile_bloom::source::FileSource;
use tsfile_bloom::tsfile::wire::record;
use tsfile_bloom::tsfile::TsFileReader;
use tsfile_bloom::verdict::{FileVerdict, Listed, Reason};
use tsfile_bloom::{Charset, TailVariant};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn read(rel: &str) -> TsFileReader {
    TsFileReader::read(&FileSource::open(fixtures().join(rel)).unwrap()).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Paths a reader of `r` may ask for: its first series, others of its listing, absent ones.
fn paths_of(r: &TsFileReader) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = (0..r.paths().len().min(40)).map(|i| r.paths().get(i).to_vec()).collect();
    for p in ["root.absent.d1.s1", "root.缺失.设备.温度_9", "root.sg.d1.温度", "root.sg1.d1.s1", "root.x"] {
        out.push(p.as_bytes().to_vec());
    }
    if let Some(first) = out.first().cloned() {
        let mut longer = first;
        longer.push(b'x');
        out.push(longer);
    }
    out
}

#[test]
fn a_charset_forced_off_the_writers_names_the_clear_seeds_and_the_wrong_conclusion() {
    // A Java writer on a GBK JVM: the audit establishes GBK. Probing a listed CJK path as
    // UTF-8 finds clear bits, so a reader hashing as UTF-8 would skip a file that holds it.
    let r = read("java/gbk/tree_nonaligned.tsfile");
    assert_eq!(r.audit().unwrap().charset, Some(Charset::Gbk));
    let path = "root.工厂.车间.风机.一号.功率".as_bytes();
    assert_eq!(r.listed(path), Listed::Yes);
    let (p, reason) = r.probe_filter_reasoned(path, None, Some(Charset::Utf8)).unwrap().unwrap();
    assert_eq!(p.verdict, FileVerdict::Maybe);
    let clear: Vec<u32> = p.probe.probes.iter().filter(|s| !s.set).map(|s| s.seed).collect();
    assert!(!clear.is_empty(), "some of its bits are clear under UTF-8");
    let Reason::AllSetUnderOther { used, other, wrong, clear: mask } = reason else { panic!("{reason:?}") };
    assert_eq!(used, (TailVariant::Java, Charset::Utf8));
    assert_eq!(other, (TailVariant::Java, Charset::Gbk));
    assert!(wrong, "the index reproduces GBK, not UTF-8");
    let from_mask: Vec<u32> = (0..8).filter(|j| mask >> j & 1 == 1).map(|j| tsfile_bloom::SEEDS[j]).collect();
    assert_eq!(from_mask, clear);
    let text = r.probe(path, None, Some(Charset::Utf8)).unwrap().reason;
    let seeds: Vec<String> = clear.iter().map(u32::to_string).collect();
    assert!(text.contains(&format!("seeds {} are clear under the java / UTF-8 hash", seeds.join(", "))), "{text}");
    assert!(
        text.contains("a reader hashing as java / UTF-8 would wrongly conclude “definitely absent” and skip this file"),
        "{text}"
    );
    assert!(text.ends_with("; the index lists this series"), "{text}");
    // Unforced, the writer's hash: every bit set, confirmed, no talk of a wrong conclusion.
    let text = r.probe(path, None, None).unwrap().reason;
    assert!(
        text.starts_with("every probed bit is set under the java / GBK hash (confirmed by the file's index)"),
        "{text}"
    );
    assert!(!text.contains("wrongly"), "{text}");
}

#[test]
fn a_forced_hash_that_finds_every_bit_set_where_the_writers_finds_one_clear_says_so() {
    // Paths the GBK writer never added, probed as UTF-8: where UTF-8 finds every bit set (a
    // chance hit) but GBK, which the index reproduces, finds a clear bit, the words name GBK's
    // clear seeds; the verdict stays "maybe" (forcing never yields an unsound "absent").
    let r = read("java/gbk/tree_10k_series.tsfile");
    let mut met = 0;
    for i in 0..20_000 {
        let path = format!("root.不存在.设备{i}.温度");
        let Some((p, reason)) = r.probe_filter_reasoned(path.as_bytes(), None, Some(Charset::Utf8)).unwrap() else {
            panic!("the file has a filter")
        };
        let Reason::AllSet { writer: Some((writer, clear)), .. } = reason else { continue };
        met += 1;
        assert_eq!(p.verdict, FileVerdict::Maybe);
        assert_eq!(writer, (TailVariant::Java, Charset::Gbk));
        let gbk = &p.others.iter().find(|o| (o.0, o.1) == writer).unwrap().2;
        assert_eq!(gbk.verdict, tsfile_bloom::Verdict::Absent);
        let want = gbk.probes.iter().enumerate().fold(0u8, |m, (j, s)| m | u8::from(!s.set) << j);
        assert_eq!(clear, want);
        let text = r.probe(path.as_bytes(), None, Some(Charset::Utf8)).unwrap().reason;
        assert!(text.contains("the writer never added this path"), "{text}");
        assert!(text.ends_with("; the index does not list this series: a false positive"), "{text}");
    }
    assert!(met > 0, "a UTF-8 hit among 20,000 paths the writer never added");
}

#[test]
fn an_index_that_cannot_be_read_is_not_said_to_list_or_not_list_a_path() {
    let r = read("tsfile/hostile_chunk_list_len_past_region.tsfile");
    assert!(r.index_error().is_some(), "the walk stops at an error");
    assert!(r.audit().is_none());
    for path in ["root.absent.d1.s1", "root.设备.湿度"] {
        assert_eq!(r.listed(path.as_bytes()), Listed::Unreadable, "{path}");
        let info = r.probe(path.as_bytes(), None, None).unwrap();
        assert_eq!(info.indexed, None, "{path}");
        assert!(!info.reason.contains("does not list"), "{path}: {}", info.reason);
        assert!(info.reason.contains("the index could not be read to its end"), "{path}: {}", info.reason);
        assert!(!info.reason.contains("has not been read"), "{path}: {}", info.reason);
    }
    // The ASCII path: clear under both tail variants (they agree on it), so absent is sound
    // as before any index is read; the non-ASCII one: no audit established the charset.
    assert_eq!(r.probe(b"root.absent.d1.s1", None, None).unwrap().verdict, FileVerdict::Absent);
    assert_eq!(r.probe("root.设备.湿度".as_bytes(), None, None).unwrap().verdict, FileVerdict::Unknown);
}

#[test]
fn a_listed_path_and_an_unlisted_one_say_so() {
    let r = read("java/utf8/tree_nonaligned.tsfile");
    let listed = r.paths().get(0).to_vec();
    let info = r.probe(&listed, None, None).unwrap();
    assert_eq!((info.verdict, info.indexed), (FileVerdict::Maybe, Some(true)));
    assert!(info.reason.ends_with("; the index lists this series"), "{}", info.reason);
    let info = r.probe(b"root.absent.d1.s1", None, None).unwrap();
    assert_eq!((info.verdict, info.indexed), (FileVerdict::Absent, Some(false)));
    assert!(info.reason.ends_with("; the index does not list this series"), "{}", info.reason);
}

/// A forced hash's two cases: all set where the writer's finds a clear bit (1), the reverse (3).
fn flag(r: &Reason) -> bool {
    matches!(r, Reason::AllSet { writer: Some(_), .. } | Reason::AllSetUnderOther { wrong: true, .. })
}

/// Every probe of every fixture (some paths, each hash forced or not), as js/reasons.js takes it.
fn cases() -> Vec<Value> {
    let mut files = Vec::new();
    for sub in ["tsfile", "java/utf8", "java/gbk", "cheap_hash"] {
        for e in std::fs::read_dir(fixtures().join(sub)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "tsfile") {
                files.push(format!("{sub}/{}", p.file_name().unwrap().to_str().unwrap()));
            }
        }
    }
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let Ok(r) = TsFileReader::read(&FileSource::open(fixtures().join(&f)).unwrap()) else { continue };
        let summary = r.audit().map(|a| a.summary.clone());
        for path in paths_of(&r) {
            for (v, cs) in [
                (None, None),
                (Some(TailVariant::Java), None),
                (Some(TailVariant::ZeroExtended), None),
                (None, Some(Charset::Utf8)),
                (None, Some(Charset::Gbk)),
            ] {
                let info = r.probe(&path, v, cs).unwrap();
                let listed = r.listed(&path);
                let reason = match r.probe_filter_reasoned(&path, v, cs).unwrap() {
                    Some((_, reason)) => reason,
                    None => r.unprobed_reason(),
                };
                let numbers = record::reason(&reason.phrase(listed, r.audit().is_some()));
                out.push(
                    json!({"file": f, "kind": reason_kind(&reason), "flag": flag(&reason), "listed": listed as u8,
                    "numbers": numbers, "summary": summary, "want": info.reason}),
                );
            }
        }
    }
    out
}

#[test]
fn js_reasons_word_every_reason_as_the_core_does() {
    let cases = cases();
    let kinds: std::collections::BTreeSet<i64> = cases.iter().map(|c| c["kind"].as_i64().unwrap()).collect();
    let listed: std::collections::BTreeSet<i64> = cases.iter().map(|c| c["listed"].as_i64().unwrap()).collect();
    // Every kind but "the audit reproduced nothing" (no fixture is written by a writer we do
    // not model), every state of the index.
    assert_eq!(kinds.into_iter().collect::<Vec<_>>(), vec![0, 1, 3, 4, 5, 6, 7, 8], "reason kinds met");
    assert_eq!(listed.into_iter().collect::<Vec<_>>(), vec![1, 2, 3], "index states met");
    // The words for a hash forced off the writer's, both ways: it says absent where the
    // writer's says maybe (kind 3), and maybe where every hash the index reproduces says absent.
    for kind in [1, 3] {
        assert!(cases.iter().any(|c| c["kind"] == kind && c["flag"] == true), "kind {kind} with its flag met");
    }
    let module = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("js/reasons.js");
    let script = format!(
        "import {{ reasonText }} from {module:?};\n\
         let input = ''; process.stdin.setEncoding('utf8');\n\
         process.stdin.on('data', (d) => (input += d)).on('end', () => {{\n\
           const text = (c) => reasonText(c.numbers, 0, () => c.summary);\n\
           const bad = JSON.parse(input).filter((c) => text(c) !== c.want).map((c) => ({{ ...c, got: text(c) }}));\n\
           process.stdout.write(JSON.stringify(bad.slice(0, 5)));\n\
         }});",
        module = module.to_str().unwrap()
    );
    let mut node = Command::new("node")
        .args(["--input-type=module", "-e", &script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node runs js/reasons.js (the package's tests need Node too)");
    node.stdin.take().unwrap().write_all(serde_json::to_string(&cases).unwrap().as_bytes()).unwrap();
    let out = node.wait_with_output().unwrap();
    assert!(out.status.success(), "node failed: {}", String::from_utf8_lossy(&out.stderr));
    let bad: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert!(bad.is_empty(), "{} cases; js/reasons.js words these differently: {:#}", cases.len(), Value::Array(bad));
}

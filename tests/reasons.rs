//! A probe's reason: the facts it rests on (`Reason`, `Listed`) on real files, and its words
//! (`Reason::sentence`, which the package shows as the core makes it).

#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::reason_kind;
use std::collections::BTreeSet;
use std::path::PathBuf;
use tsfile_bloom::source::FileSource;
use tsfile_bloom::tsfile::TsFileReader;
use tsfile_bloom::verdict::{Decision, FileVerdict, Listed, Reason};
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

#[test]
fn the_fixtures_meet_every_reason_and_every_state_of_the_index() {
    let (mut kinds, mut states, mut flags) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    for sub in ["tsfile", "java/utf8", "java/gbk", "cheap_hash"] {
        for e in std::fs::read_dir(fixtures().join(sub)).unwrap() {
            let p = e.unwrap().path();
            let Ok(r) = TsFileReader::read(&FileSource::open(&p).unwrap()) else { continue };
            for path in paths_of(&r) {
                for (v, cs) in HASHES {
                    let reason = r.probe_filter_reasoned(&path, v, cs).unwrap().map_or(r.unprobed_reason(), |p| p.1);
                    kinds.insert(reason_kind(&reason));
                    states.insert(r.listed(&path) as u8);
                    flags.insert((reason_kind(&reason), flag(&reason)));
                    assert_eq!(r.probe(&path, v, cs).unwrap().reason, reason.sentence(r.audit(), r.listed(&path)));
                }
            }
        }
    }
    // Every kind but "the audit reproduced nothing" (no fixture is written by a writer we do
    // not model; the_words_of_every_reason words it), every state of the index once read.
    assert_eq!(kinds.into_iter().collect::<Vec<_>>(), vec![0, 1, 3, 4, 5, 6, 7, 8], "reason kinds met");
    assert_eq!(states.into_iter().collect::<Vec<_>>(), vec![1, 2, 3], "index states met");
    // A hash forced off the writer's, both ways.
    assert!(flags.contains(&(1, true)) && flags.contains(&(3, true)), "{flags:?}");
}

#[test]
fn a_probes_decision_is_its_verdict_and_what_the_index_says() {
    // Over the fixtures: every decision met, each from its facts; no series the index lists is
    // ever skipped, and "false positive" only where every bit is set and the index says no.
    let mut met = BTreeSet::new();
    for sub in ["tsfile", "java/utf8", "java/gbk", "cheap_hash"] {
        for e in std::fs::read_dir(fixtures().join(sub)).unwrap() {
            let Ok(r) = TsFileReader::read(&FileSource::open(e.unwrap().path()).unwrap()) else { continue };
            for path in paths_of(&r) {
                let (info, listed) = (r.probe(&path, None, None).unwrap(), r.listed(&path));
                let expected = match (listed, info.verdict) {
                    (Listed::Yes, _) => Decision::Indexed,
                    (Listed::No, FileVerdict::Maybe) => Decision::FalsePositive,
                    (Listed::No, _) | (_, FileVerdict::Absent) => Decision::Absent,
                    (_, FileVerdict::Maybe) => Decision::Maybe,
                    (_, FileVerdict::Unknown) => Decision::Unknown,
                };
                assert_eq!(info.decision, expected, "{}: {}", String::from_utf8_lossy(&path), info.reason);
                met.insert(info.decision.as_str());
            }
        }
    }
    assert_eq!(met.len(), 5, "met: {met:?}");
    // Before the index is read, a decision is its verdict.
    let full = read("java/utf8/tree_nonaligned.tsfile");
    let unread = TsFileReader::from_metadata(full.metadata().clone(), tsfile_bloom::encoder::BuiltIn);
    let info = unread.probe(full.paths().get(0), None, None).unwrap();
    assert_eq!((info.verdict, info.decision), (FileVerdict::Maybe, Decision::Maybe));
}

const HASHES: [(Option<TailVariant>, Option<Charset>); 5] = [
    (None, None),
    (Some(TailVariant::Java), None),
    (Some(TailVariant::ZeroExtended), None),
    (None, Some(Charset::Utf8)),
    (None, Some(Charset::Gbk)),
];

#[test]
fn the_words_of_every_reason() {
    use Charset::{Gbk, Utf8};
    use TailVariant::{Java, ZeroExtended as Zero};
    let say = |r: Reason, listed| r.sentence(None, listed);
    let not_read = Listed::NotRead;
    let cases: [(Reason, Listed, &str); 16] = [
        (Reason::NoFilter, Listed::No, "the file has no Bloom filter; look the path up in the index; the index does not list this series"),
        (Reason::CheapHash, not_read, "the filter was written with TsFile's experimental cheap hash (Java's Objects.hash of the path object and the seed), which this reader does not evaluate, so its bits cannot show the path absent; look the path up in the index; the index has not been read"),
        (Reason::AllSet { used: (Java, Utf8), confirmed: false, writer: None, unsettled: false }, Listed::Yes, "every probed bit is set under the java hash; the path may be present; the index lists this series"),
        (Reason::AllSet { used: (Zero, Gbk), confirmed: true, writer: None, unsettled: false }, Listed::No, "every probed bit is set under the zero-extended / GBK hash (confirmed by the file's index); the path may be present; the index does not list this series: a false positive"),
        (Reason::AllSet { used: (Java, Utf8), confirmed: false, writer: None, unsettled: true }, not_read, "every probed bit is set under the java hash; the path may be present; the index has not been read: its audit may establish the writer's hash and show the path absent"),
        (Reason::AllSet { used: (Java, Utf8), confirmed: false, writer: Some(((Java, Gbk), 0b101)), unsettled: false }, Listed::No, "every probed bit is set under the java / UTF-8 hash, so the path may be present; but under java / GBK, the hash the file's index reproduces, the bits of seeds 5, 11 are clear: the writer never added this path, and a reader hashing as java / UTF-8 would read the index for nothing; the index does not list this series: a false positive"),
        (Reason::AuditReproducedNothing, not_read, "a probed bit is clear, but the audit reproduced nothing; the index has not been read"),
        (Reason::AllSetUnderOther { used: (Java, Utf8), other: (Zero, Utf8), wrong: false, clear: 0b10 }, not_read, "the bit of seed 7 is clear under the java / UTF-8 hash, but every bit is set under zero-extended / UTF-8, which may be the writer's; the path may be present; the index has not been read: its audit may establish the writer's hash and show the path absent"),
        (Reason::AllSetUnderOther { used: (Java, Utf8), other: (Java, Gbk), wrong: true, clear: 0b1000_0001 }, Listed::Yes, "the bits of seeds 5, 59 are clear under the java / UTF-8 hash, but every bit is set under java / GBK, the hash the file's index reproduces: a reader hashing as java / UTF-8 would wrongly conclude “definitely absent” and skip this file; the path may be present; the index lists this series"),
        (Reason::CharsetNotEstablished, Listed::Unreadable, "a probed bit is clear under both UTF-8 tail variants, but this path is not ASCII and no audit established the file's charset: a Java writer hashes its JVM's default charset; the index could not be read to its end, so no audit checked the writer's hash, and the series listed before the error do not include this one"),
        (Reason::ClearConfirmed { used: (Java, Utf8) }, Listed::No, "a probed bit is clear under the java hash, which the file's index confirms; the index does not list this series"),
        (Reason::ClearConfirmed { used: (Java, Gbk) }, Listed::Yes, "a probed bit is clear under the java / GBK hash, which the file's index confirms; yet the index lists this series: the filter disagrees with the index"),
        (Reason::ClearAsciiTail, not_read, "a probed bit is clear; this path's tail is ASCII, so every tail variant hashes it the same way; the index has not been read"),
        (Reason::ClearUnderEvery { consulted: 2 }, not_read, "a probed bit is clear under every candidate hash (2 consulted); the index has not been read"),
        (Reason::ClearUnderEvery { consulted: 24 }, Listed::No, "a probed bit is clear under every candidate hash (24 consulted); the index does not list this series"),
        (Reason::NoFilter, not_read, "the file has no Bloom filter; look the path up in the index; the index has not been read"),
    ];
    for (reason, listed, want) in cases {
        assert_eq!(say(reason, listed), want, "{reason:?} {listed:?}");
    }
    // With an audit that reproduced nothing, the sentence quotes its summary.
    let r = read("java/utf8/tree_nonaligned.tsfile");
    let audit = r.audit().unwrap();
    let s = Reason::AuditReproducedNothing.sentence(Some(audit), Listed::No);
    assert_eq!(s, format!("a probed bit is clear, but {}; the index does not list this series", audit.summary));
}

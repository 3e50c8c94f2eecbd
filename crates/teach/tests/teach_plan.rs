//! The lesson plan (crates/teach/src/plan.rs): for each claim, `plan::run` gives what the lesson's
//! function gives when called directly with the parameters the page used before the plan moved
//! into the core (www/worker/teach-ops.js's `teach.claim`): on generated keys, on the sandbox's
//! paths and on an open file read from a real fixture (tests/fixtures/tsfile, written by the C++
//! tsfile 2.5 writer). And the rules the page shows: the source, the labels, the claims with no
//! measured demonstration, the JSON shape.

#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;
use std::path::PathBuf;
use teach::counting;
use teach::lesson::{self, Given};
use teach::plan::{self, Measured, OpenFile, Request, Sandbox, SandboxMode, Shown, Source};
use teach::size;
use teach::{Bits, Hashing, Model};
use tsfile_bloom::audit;
use tsfile_bloom::source::FileSource;
use tsfile_bloom::{tsfile, ErrorKind, TailVariant};

const SEED: u32 = 7;

fn run(req: &Request) -> Shown {
    plan::run(req).unwrap_or_else(|e| panic!("claim {}: {e}", req.claim))
}

fn demo(s: &Shown) -> &lesson::Demo {
    match &s.measured {
        Measured::Demo(d) => d,
        m => panic!("not a demo: {m:?}"),
    }
}

fn size(s: &Shown) -> &size::Size {
    match &s.measured {
        Measured::Size(d) => d,
        m => panic!("not a size: {m:?}"),
    }
}

fn deletion(s: &Shown) -> &counting::Deletion {
    match &s.measured {
        Measured::Deletion(d) => d,
        m => panic!("not a deletion: {m:?}"),
    }
}

/// `paths` back to back with their end offsets, as the page stages keys.
fn staged(paths: &[Vec<u8>]) -> (Vec<u8>, Vec<u32>) {
    let mut keys = Vec::new();
    let mut ends = Vec::new();
    for p in paths {
        keys.extend_from_slice(p);
        ends.push(keys.len() as u32);
    }
    (keys, ends)
}

/// A fixture as the page opens it: the listed paths under the audit's writer hypothesis (time
/// columns when it inserts them), the filter's bits, m and k, the writer's tail variant.
fn open_file(name: &str) -> OpenFile {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/tsfile").join(name);
    let src = FileSource::open(path).unwrap();
    let meta = tsfile::read_metadata(&src).unwrap();
    let walk = tsfile::walk_index(&src, &meta);
    assert!(walk.error.is_none(), "{name}: {:?}", walk.error);
    let filter = meta.bloom.filter.as_ref().expect("a filter");
    let a = audit::audit(Some(filter), &walk.series);
    let h = a.results[a.writer_hypothesis().expect("the audit reproduces the bits")].hypothesis;
    let paths: Vec<Vec<u8>> =
        walk.series.iter().filter(|s| h.time_columns || !s.is_time_column()).map(|s| s.path()).collect();
    let (keys, ends) = staged(&paths);
    OpenFile {
        keys,
        ends,
        bits: filter.logical_bits(),
        m: filter.bit_count(),
        k: filter.hash_function_count(),
        variant: h.variant,
    }
}

/// The open file as the lesson's functions take it, built here by hand, named `label`.
fn by_hand<'a>(f: &'a OpenFile, label: &str) -> (Given<'a>, Bits, Model) {
    let keys = f.ends.iter().scan(0, |at, &end| Some(&f.keys[std::mem::replace(at, end as usize)..end as usize]));
    let g = Given { keys: keys.collect(), label: label.to_string() };
    (g, Bits::from_bytes(&f.bits, f.m), Model::new(Hashing::TsFile(f.variant), f.m, f.k).unwrap())
}

fn sandbox(keys: &[Vec<u8>], mode: SandboxMode, m: u32, k: u32) -> Sandbox<'_> {
    Sandbox { keys: keys.iter().map(|k| k.as_slice()).collect(), mode, m, k }
}

fn paths(n: usize) -> Vec<Vec<u8>> {
    (0..n).map(|i| format!("root.sb.d{}.s{}", i / 10, i % 10).into_bytes()).collect()
}

fn demo_keys() -> Vec<Vec<u8>> {
    plan::demo_paths().into_iter().map(String::into_bytes).collect()
}

#[test]
fn on_generated_keys_each_claim_runs_its_lesson_function_with_the_plans_parameters() {
    let seed = SEED as u64;
    let req = |claim| Request { claim, seed: SEED, ..Request::default() };
    let cases: Vec<(u32, lesson::Demo)> = vec![
        (3, lesson::claim3(10_000, 100_000, seed, None).unwrap()),
        (4, lesson::claim4(None, 1000, 20_000, seed).unwrap()),
        (5, lesson::claim5(10, 6, &[20, 200, 5000], 10, 20_000, seed).unwrap()),
        (7, lesson::claim7_zero_bits(40, 20_000, seed).unwrap()),
        (8, lesson::claim8(1000, &[0.5, 1.0, 1.5, 2.0, 3.0, 4.0], 20_000, seed, None).unwrap()),
        (9, lesson::claim9(1000, 10_000, &[0.0, 0.5, 0.9, 0.99], seed, None).unwrap()),
        (11, lesson::claim11(8, 500, 5000, seed).unwrap()),
        (13, lesson::claim13(1000, 10, 20_000, seed, None).unwrap()),
    ];
    for (claim, want) in cases {
        let got = run(&req(claim));
        assert_eq!(demo(&got), &want, "claim {claim}");
        assert_eq!(
            (got.origin.source, got.origin.label.as_deref(), got.origin.seed),
            (Source::Generated, None, SEED),
            "claim {claim}"
        );
    }
}

#[test]
fn claim7_and_claim8_take_the_pages_window_and_planned_n() {
    let seed = SEED as u64;
    let got = run(&Request { claim: 7, seed: SEED, window_keys: Some(90), ..Request::default() });
    assert_eq!(demo(&got), &lesson::claim7_zero_bits(90, 20_000, seed).unwrap());
    // At least one key per window.
    let got = run(&Request { claim: 7, seed: SEED, window_keys: Some(0), ..Request::default() });
    assert_eq!(demo(&got), &lesson::claim7_zero_bits(1, 20_000, seed).unwrap());
    let got = run(&Request { claim: 8, seed: SEED, planned_n: Some(300), ..Request::default() });
    assert_eq!(demo(&got), &lesson::claim8(300, &[0.5, 1.0, 1.5, 2.0, 3.0, 4.0], 20_000, seed, None).unwrap());
    assert!(demo(&got).setup.starts_with("a filter sized like Java's getEmptyBloomFilter(0.05, 300)"));
    let got = run(&Request { claim: 8, seed: SEED, planned_n: Some(0), ..Request::default() });
    assert!(demo(&got).setup.starts_with("a filter sized like Java's getEmptyBloomFilter(0.05, 1)"));
}

#[test]
fn claim2_runs_on_the_sandbox_or_on_the_demo_filter_while_it_holds_fewer_than_two_paths() {
    let seed = SEED as u64;
    // One path, not built yet (m 0): the demo filter's 24 paths in the default 256 bits.
    let one = paths(1);
    let sb = sandbox(&one, SandboxMode::TsFile, 0, 0);
    let got = run(&Request { claim: 2, seed: SEED, sandbox: Some(&sb), ..Request::default() });
    let demo_keys = demo_keys();
    let g = Given { keys: demo_keys.iter().map(|k| k.as_slice()).collect(), label: "the demo filter’s paths".into() };
    assert_eq!(demo(&got), &lesson::claim2(256, 24, Some(&g), 20_000, seed).unwrap());
    assert!(demo(&got).setup.starts_with("the demo filter’s paths (24 keys) in m = 256 bits"), "{}", demo(&got).setup);
    assert_eq!((got.origin.source, got.origin.label.as_deref()), (Source::Sandbox, None));
    // No sandbox at all: the same.
    let none = run(&Request { claim: 2, seed: SEED, ..Request::default() });
    assert_eq!(none, got);

    // 1,234 paths in a LevelDB-mode sandbox: its own m, whatever the mode.
    let many = paths(1234);
    let sb = sandbox(&many, SandboxMode::LevelDb, 12_000, 8);
    let got = run(&Request { claim: 2, seed: SEED, sandbox: Some(&sb), ..Request::default() });
    let g = Given { keys: many.iter().map(|k| k.as_slice()).collect(), label: "the sandbox’s 1,234 paths".into() };
    assert_eq!(demo(&got), &lesson::claim2(12_000, 1234, Some(&g), 20_000, seed).unwrap());
    assert!(demo(&got).setup.starts_with("the sandbox’s 1,234 paths (1234 keys) in m = 12000 bits"));
    assert_eq!(got.origin.source, Source::Sandbox);
}

#[test]
fn claim10_takes_the_sandboxs_geometry_in_tsfile_mode_only() {
    let keys = paths(30);
    let java = |m, k| Model::new(Hashing::TsFile(TailVariant::Java), m, k).unwrap();
    let cases = [
        (sandbox(&keys, SandboxMode::TsFile, 512, 4), java(512, 4)),
        (sandbox(&keys, SandboxMode::LevelDb, 999, 3), java(256, 5)),
    ];
    for (sb, model) in &cases {
        for victim in [None, Some(3)] {
            let got = run(&Request { claim: 10, seed: SEED, sandbox: Some(sb), victim, ..Request::default() });
            assert_eq!(deletion(&got), &counting::deletion(&keys, *model, victim, 2000).unwrap(), "{:?}", sb.mode);
            assert_eq!(
                (got.origin.source, got.origin.label.as_deref()),
                (Source::Sandbox, Some("the sandbox’s 30 paths"))
            );
        }
    }
    let got = run(&Request { claim: 10, seed: SEED, ..Request::default() });
    assert_eq!(deletion(&got), &counting::deletion(&demo_keys(), java(256, 5), None, 2000).unwrap());
    assert_eq!((got.origin.source, got.origin.label.as_deref()), (Source::Sandbox, Some("the demo filter’s paths")));
}

#[test]
fn claims_without_a_measured_demonstration_are_a_typed_error() {
    for claim in [0, 1, 6, 14] {
        let e = plan::run(&Request { claim, ..Request::default() }).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArgument, "claim {claim}");
        assert_eq!(
            e.message,
            format!("claim: {claim} has no measured demonstration here (1 is the step-through, 6 the read path)")
        );
    }
}

#[test]
fn claim12_is_the_calculator_at_the_claims_numbers_with_its_verdict() {
    let got = run(&Request { claim: 12, seed: SEED, ..Request::default() });
    let d = size(&got);
    // 100 million keys × 10 bits = 10^9 bits; 10^9 / 8 = 125,000,000 bytes: the claim's 125 MB.
    assert_eq!((d.claim, d.n, d.bits_per_key, d.bytes), (12, 100_000_000.0, 10.0, 125_000_000.0));
    assert_eq!(d.answer, "holds");
    assert_eq!(
        d.headline,
        "10 bits per key × 100,000,000 keys = 1,000,000,000 bits = 125,000,000 bytes: 125.0 MB (119.2 MiB)."
    );
    assert!(!d.findings.contains(&d.headline));
    // At 10 bits per key the best whole k is 7 (k* = 10 ln 2 ≈ 6.93); LevelDB's policy takes ⌊6.9⌋ = 6.
    assert!(d.findings.iter().any(|f| f.starts_with("At the best whole k, 7, p = ")), "{:?}", d.findings);
    assert!(d.findings.iter().any(|f| f.starts_with("LevelDB at bits_per_key = 10 (k = 6): 1,000,000,000 bits")));
    // p ≈ 0.82 % is under Java's lowest rate, 1 %.
    assert!(d.findings.iter().any(|f| f.starts_with("TsFile’s Java writer for the same p (clamped to 1.00 %)")));
    // Nothing was generated or measured: the formula and the writers' rules alone.
    assert_eq!((got.origin.source, got.origin.label.as_deref()), (Source::Formula, None));
    assert_eq!(serde_json::to_value(&got).unwrap()["bytes"], Value::from(125_000_000.0));
}

#[test]
fn claim12_puts_the_open_files_size_beside_the_claims() {
    // Only the file's listed-path count, m and k are read.
    let f = |paths: usize, m| OpenFile {
        keys: Vec::new(),
        ends: vec![0; paths],
        bits: Vec::new(),
        m,
        k: 7,
        variant: TailVariant::Java,
    };
    let file_line = |f: &OpenFile| {
        let got = run(&Request { claim: 12, file: Some(f), ..Request::default() });
        assert_eq!(got.origin.source, Source::Formula);
        size(&got).findings.iter().find(|l| l.starts_with("The open file")).cloned()
    };
    // 9,586 bits: ⌈9586 / 8⌉ = 1,199 bytes; 9586 / 1000 = 9.586 bits per path.
    let line = file_line(&f(1000, 9586)).unwrap();
    assert!(
        line.starts_with("The open file: 9,586 bits = 1,199 bytes at most for 1,000 paths — 9.59 bits per path, p = "),
        "{line}"
    );
    // No listed paths: its size only.
    assert_eq!(file_line(&f(0, 9586)).as_deref(), Some("The open file: 9,586 bits = 1,199 bytes at most."));
    // No bits: nothing to say about it.
    assert_eq!(file_line(&f(1000, 0)), None);
}

#[test]
fn on_an_open_file_the_claims_that_can_use_it_run_on_its_paths_and_filter() {
    let f = open_file("tree_unicode.tsfile");
    assert_eq!(f.variant, TailVariant::ZeroExtended, "the C++ 2.5 writer's");
    let n = f.ends.len();
    assert!(n >= 7, "{n}");
    let label = format!("the open file's {n} listed paths");
    assert_eq!(f.label(), label);
    let (g, bits, model) = by_hand(&f, &label);
    let given = Some((&g, &bits, model));
    let seed = SEED as u64;
    // The sandbox is ignored while a file is open.
    let other = paths(50);
    let sb = sandbox(&other, SandboxMode::TsFile, 512, 4);
    let req = |claim| Request { claim, seed: SEED, file: Some(&f), sandbox: Some(&sb), ..Request::default() };
    let on_file: Vec<(u32, lesson::Demo)> = vec![
        (2, lesson::claim2(f.m, n as u64, Some(&g), 20_000, seed).unwrap()),
        (3, lesson::claim3(10_000, 100_000, seed, Some((n as f64, f.m, f.k))).unwrap()),
        (4, lesson::claim4(given, 1000, 20_000, seed).unwrap()),
        (8, lesson::claim8(n as u64, &[1.0, 1.25, 1.5, 2.0, 3.0, 4.0], 20_000, seed, given).unwrap()),
        (9, lesson::claim9(1000, 10_000, &[0.0, 0.5, 0.9, 0.99], seed, given).unwrap()),
        (13, lesson::claim13(1000, 10, 20_000, seed, given).unwrap()),
    ];
    for (claim, want) in on_file {
        let got = run(&req(claim));
        assert_eq!(demo(&got), &want, "claim {claim}");
        assert_eq!(
            (got.origin.source, got.origin.label.as_deref(), got.origin.seed),
            (Source::File, None, SEED),
            "claim {claim}"
        );
    }
    // The file's rows are there: its own paths never test absent under the writer's hash, and
    // some of these non-ASCII tails do under the other variant.
    let d4 = run(&req(4));
    let d4 = demo(&d4);
    let file_rows: Vec<&Vec<lesson::Cell>> = d4
        .rows
        .iter()
        .filter(|r| matches!(&r[0], lesson::Cell::Text { text } if text.starts_with(label.as_str())))
        .collect();
    assert_eq!(file_rows.len(), 2);
    let hits = |c: &lesson::Cell| match c {
        lesson::Cell::Rate { rate } => rate.hits,
        c => panic!("{c:?}"),
    };
    assert_eq!(hits(&file_rows[0][2]), 0);
    assert!(hits(&file_rows[1][2]) > 0);

    // Claim 10 on the file's paths under the writer's hash.
    let got = run(&Request { victim: Some(2), ..req(10) });
    assert_eq!(deletion(&got), &counting::deletion(&g.keys, model, Some(2), 2000).unwrap());
    assert_eq!((got.origin.source, got.origin.label.as_deref()), (Source::File, Some(label.as_str())));

    // plan::ON_FILE (the page's "Run this on my file") names exactly the claims that run on it.
    for claim in [2, 3, 4, 5, 7, 8, 9, 10, 11, 13] {
        assert_eq!(run(&req(claim)).origin.source == Source::File, plan::ON_FILE.contains(&claim), "claim {claim}");
    }
    // The demonstrations that never use a file say so, file or not.
    for claim in [5, 7, 11] {
        let got = run(&req(claim));
        assert_eq!(got.origin.source, Source::Generated, "claim {claim}");
        assert_eq!(got, run(&Request { claim, seed: SEED, ..Request::default() }), "claim {claim}");
    }
}

#[test]
fn an_open_file_without_listed_paths_is_still_the_source_and_claim3_has_no_file_row() {
    let f = open_file("tree_unicode.tsfile");
    let empty = OpenFile { keys: Vec::new(), ends: Vec::new(), bits: f.bits.clone(), ..f };
    assert_eq!(empty.label(), "the open file's 0 listed paths");
    let req = |claim| Request { claim, seed: SEED, file: Some(&empty), ..Request::default() };
    let seed = SEED as u64;
    let got = run(&req(3));
    assert_eq!(demo(&got), &lesson::claim3(10_000, 100_000, seed, None).unwrap());
    assert_eq!(got.origin.source, Source::File);
    let got = run(&req(9));
    assert_eq!(demo(&got), &lesson::claim9(1000, 10_000, &[0.0, 0.5, 0.9, 0.99], seed, None).unwrap());
    assert_eq!(got.origin.source, Source::File);
    // Claims 2, 8 and 10 need the file's paths.
    for claim in [2, 8, 10] {
        assert_eq!(plan::run(&req(claim)).unwrap_err().kind, ErrorKind::InvalidArgument, "claim {claim}");
    }
}

#[test]
fn a_large_files_label_groups_its_digits() {
    let f = open_file("tree_10k_series.tsfile");
    assert!(f.ends.len() >= 10_000);
    let label = f.label();
    let n = f.ends.len().to_string();
    assert_eq!(label, format!("the open file's {},{} listed paths", &n[..n.len() - 3], &n[n.len() - 3..]));
    let big = OpenFile { ends: vec![0; 1_234_567], keys: Vec::new(), bits: Vec::new(), ..f };
    assert_eq!(big.label(), "the open file's 1,234,567 listed paths");
}

#[test]
fn the_page_receives_the_measurements_fields_then_source_label_and_seed() {
    let keys = paths(12);
    let sb = sandbox(&keys, SandboxMode::TsFile, 256, 5);
    let shown = run(&Request { claim: 10, seed: SEED, sandbox: Some(&sb), ..Request::default() });
    let json = serde_json::to_value(&shown).unwrap();
    let mut want = serde_json::to_value(deletion(&shown)).unwrap();
    let o = want.as_object_mut().unwrap();
    assert!(o.contains_key("victimBits") && o.contains_key("standardFalseNegatives"), "camelCase");
    o.insert("source".into(), "sandbox".into());
    o.insert("label".into(), "the sandbox’s 12 paths".into());
    o.insert("seed".into(), SEED.into());
    assert_eq!(json, want);

    let shown = run(&Request { claim: 7, seed: SEED, ..Request::default() });
    let json = serde_json::to_value(&shown).unwrap();
    let mut want = serde_json::to_value(demo(&shown)).unwrap();
    let o = want.as_object_mut().unwrap();
    for key in ["claim", "setup", "columns", "rows", "findings", "answer"] {
        assert!(o.contains_key(key), "{key}");
    }
    o.insert("source".into(), "generated".into());
    o.insert("seed".into(), SEED.into());
    // No label: the demonstration names its keys in its setup.
    assert_eq!(json, want);
    assert_eq!(json["source"], Value::from("generated"));

    let f = open_file("tree_unicode.tsfile");
    let shown = run(&Request { claim: 3, seed: SEED, file: Some(&f), ..Request::default() });
    assert_eq!(serde_json::to_value(&shown).unwrap()["source"], Value::from("file"));
}

#[test]
fn the_demo_filter_is_six_devices_of_four_sensors() {
    let p = plan::demo_paths();
    assert_eq!(p.len(), 24);
    assert_eq!(p[0], "root.demo.d1.temperature");
    assert_eq!(p[3], "root.demo.d1.status");
    assert_eq!(p[23], "root.demo.d6.status");
}

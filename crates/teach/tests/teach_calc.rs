//! The teaching calculator (crates/teach/src/calc.rs) against tests/reference/calc_cases.json: answers
//! computed by tests/reference/bloom_calc.py from the published rules (the formula and its
//! inverses at 50 digits, TsFile's Java getEmptyBloomFilter via java_bloom.py, LevelDB's
//! util/bloom.cc), not from our code.

#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;
use teach::{solve, CalcInput};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1e-300)
}

#[test]
fn calculator_matches_the_reference_table() {
    let text = std::fs::read_to_string("../../tests/reference/calc_cases.json").unwrap();
    let table: Value = serde_json::from_str(&text).unwrap();
    let cases = table["cases"].as_array().unwrap();
    assert!(cases.len() >= 20);
    for c in cases {
        let i = &c["input"];
        let input = CalcInput {
            n: i["n"].as_f64(),
            p: i["p"].as_f64(),
            m: i["m"].as_f64(),
            k: i["k"].as_f64(),
            bits_per_key: i["bitsPerKey"].as_f64(),
        };
        let s = solve(input).unwrap_or_else(|e| panic!("{i}: {e}"));
        assert_eq!(s.solved, c["solved"].as_str().unwrap(), "{i}");
        assert_eq!(s.k as u64, c["k"].as_u64().unwrap(), "{i}: k");
        if let Some(p) = c["p"].as_f64() {
            assert!(close(s.p, p), "{i}: p {} vs {p}", s.p);
        }
        if let Some(m) = c["m"].as_f64() {
            assert_eq!(s.m, Some(m), "{i}: m");
        }
        if let Some(n) = c["n"].as_f64() {
            assert_eq!(s.n, Some(n), "{i}: n");
        }
        if let Some(b) = c["bitsPerKey"].as_f64() {
            assert!(close(s.bits_per_key, b), "{i}: bits per key {} vs {b}", s.bits_per_key);
        }
        if c.get("kRange").is_some() {
            let want = c["kRange"].as_array().map(|r| [r[0].as_u64().unwrap() as u32, r[1].as_u64().unwrap() as u32]);
            assert_eq!(s.k_range, want, "{i}: k range");
        }
        match (&s.java, c.get("java")) {
            (Some(j), Some(w)) if !w.is_null() => {
                assert_eq!(j.bit_count as u64, w["bitCount"].as_u64().unwrap(), "{i}: Java m");
                assert_eq!(j.k as u64, w["k"].as_u64().unwrap(), "{i}: Java k");
                assert!(close(j.p, w["p"].as_f64().unwrap()), "{i}: Java p");
                assert_eq!(j.clamped, w["clamped"].as_bool().unwrap(), "{i}: Java clamp");
            }
            (None, None) => {}
            (None, Some(w)) if w.is_null() => {}
            (got, want) => panic!("{i}: Java row {got:?} vs {want:?}"),
        }
        match (&s.leveldb, c.get("leveldb")) {
            (Some(l), Some(w)) if !w.is_null() => {
                assert_eq!(l.bits_per_key as u64, w["bitsPerKey"].as_u64().unwrap(), "{i}: LevelDB bits per key");
                assert_eq!(l.bit_count, w["bitCount"].as_f64().unwrap(), "{i}: LevelDB m");
                assert_eq!(l.k as u64, w["k"].as_u64().unwrap(), "{i}: LevelDB k");
                assert!(close(l.p, w["p"].as_f64().unwrap()), "{i}: LevelDB p");
            }
            (None, None) => {}
            (None, Some(w)) if w.is_null() => {}
            (got, want) => panic!("{i}: LevelDB row {got:?} vs {want:?}"),
        }
    }
}

#[test]
fn claim_12_ten_bits_per_key_for_100_million_keys() {
    // The textbook's figure: 10 bits per key × 100 M keys = 10⁹ bits = 125 MB.
    let s = solve(CalcInput { n: Some(1e8), bits_per_key: Some(10.0), k: Some(6.0), ..Default::default() }).unwrap();
    assert_eq!(s.m, Some(1e9));
    assert_eq!(s.bytes, Some(125_000_000.0));
}

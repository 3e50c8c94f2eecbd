//! "Filled past its design" (src/design.rs) on the real writers' fixtures: expected values from
//! the manifests (what the generator wrote: series, time columns, the stored m and k) and Java's
//! sizing formula written out here (docs/bloom-filter.md §6), never from the crate's output.

#![cfg(any(unix, windows))]

use serde_json::Value;
use std::path::PathBuf;
use tsfile_bloom::tsfile::TsFileReader;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tsfile")
}

/// Java's `getEmptyBloomFilter` bit count for n keys at error rate p (small n: no int overflow).
fn java_m(n: u64, p: f64) -> u64 {
    let ln2 = std::f64::consts::LN_2;
    ((n as f64 * -p.ln() / ln2 / ln2) as u64 + 1).max(256)
}

/// The largest error rate whose Java k is `k`: k = (int)(-ln p / ln 2) + 1, p clamped to [0.01, 0.1].
fn top_rate(k: u64) -> f64 {
    match k {
        4 => 0.1,
        5..=7 => 2f64.powi(1 - k as i32),
        _ => unreachable!("every writer's k is 4..=7"),
    }
}

/// The C++ writer's sizing rule (src/design.rs `cpp_sizing_for`) on the real writer's files: the
/// generator's own count of measurement-name changes in the writer's chunk order
/// (`n_cpp_path_count`) and its C++ sizing of that count (`sizing_formula`, gen_tsfiles.py
/// `cpp_sizing`) decide; the rule is recognised where that sizing gives the stored m and k, the
/// count is below the keys held, and sizing for the keys held would give another m.
#[test]
fn the_cpp_sizing_rule_names_what_the_filter_was_sized_for_and_what_it_holds() {
    let manifest: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(fixtures().join("manifest.json")).unwrap()).unwrap();
    let mut recognised = Vec::new();
    for e in manifest.iter().filter(|e| e["kind"] == "real" && e["bloom"]["present"] == true) {
        let name = e["name"].as_str().unwrap();
        let b = &e["bloom"];
        let (m, k) = (b["bit_count"].as_u64().unwrap(), b["hash_function_count"].as_u64().unwrap());
        let names = b["n_cpp_path_count"].as_u64().unwrap();
        let time_columns =
            if e["time_columns_in_filter"] == true { e["time_columns"].as_array().unwrap().len() } else { 0 };
        let holds = e["series_count"].as_u64().unwrap() + time_columns as u64;
        let cpp = (&b["sizing_formula"]["bit_count"], &b["sizing_formula"]["hash_function_count"]);
        let want = names < holds && cpp == (&Value::from(m), &Value::from(k)) && java_m(holds, 0.05) != m;
        let reader =
            TsFileReader::read(&std::fs::read(fixtures().join(e["file"].as_str().unwrap())).unwrap()[..]).unwrap();
        let info = reader.bloom_info();
        assert_eq!(info.cpp_sized_for.is_some(), want, "{name}: {names} names, {holds} keys, m = {m}");
        if let Some(n) = info.cpp_sized_for {
            assert_eq!((n, info.indexed_items), (names, Some(holds)), "{name}");
            assert_eq!(serde_json::to_value(&info).unwrap()["cppSizedFor"], names, "{name}");
            recognised.push((name, names, holds));
        }
    }
    // 100 devices sharing one name (sized for 1); the table files, whose leading time column the
    // C++ count skips (one name fewer than keys, and m one key's worth short).
    assert_eq!(
        recognised,
        [("table_10k_series", 10399, 10400), ("table_deep_index_degree3", 155, 156), ("tree_past_design", 1, 100)]
    );
    // Before the index is read the rule has nothing to count.
    let bytes = std::fs::read(fixtures().join("tree_past_design.tsfile")).unwrap();
    let meta = tsfile_bloom::tsfile::read_metadata(&bytes[..]).unwrap();
    let unread = TsFileReader::from_metadata(meta, tsfile_bloom::encoder::BuiltIn);
    assert_eq!(unread.bloom_info().cpp_sized_for, None);
}

#[test]
fn real_filters_are_past_design_exactly_when_they_hold_more_keys_than_any_rate_sizes_m_for() {
    let manifest: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(fixtures().join("manifest.json")).unwrap()).unwrap();
    let mut past = Vec::new();
    for e in manifest.iter().filter(|e| e["kind"] == "real" && e["bloom"]["present"] == true) {
        let name = e["name"].as_str().unwrap();
        let (m, k) = (e["bloom"]["bit_count"].as_u64().unwrap(), e["bloom"]["hash_function_count"].as_u64().unwrap());
        let time_columns =
            if e["time_columns_in_filter"] == true { e["time_columns"].as_array().unwrap().len() } else { 0 };
        let inserted = e["series_count"].as_u64().unwrap() + time_columns as u64;
        let bytes = std::fs::read(fixtures().join(e["file"].as_str().unwrap())).unwrap();
        let reader = TsFileReader::read(&bytes[..]).unwrap();
        let info = reader.bloom_info();
        assert_eq!(info.indexed_items, Some(inserted), "{name}: the keys the writer inserted");
        let want = java_m(inserted, top_rate(k)) > m;
        assert_eq!(info.filled_past_design, Some(want), "{name}: {inserted} keys in m = {m}, k = {k}");
        if want {
            past.push(name);
        }
    }
    // The one real filter sized for fewer keys than it holds (tests/fixtures/gen_tsfiles.py
    // gen_past_design): the C++ writer counted 1 path for 100 devices sharing "s1".
    assert_eq!(past, ["tree_past_design"]);
    let e = manifest.iter().find(|e| e["name"] == "tree_past_design").unwrap();
    assert_eq!(e["bloom"]["n_cpp_path_count"], 1);
    assert_eq!(e["filled_past_design"]["capacity_any_rate_for_k5"], 44);
    assert!(java_m(44, 1.0 / 16.0) <= 256 && java_m(45, 1.0 / 16.0) > 256);
}

#[test]
fn before_the_index_is_read_nothing_is_said() {
    let bytes = std::fs::read(fixtures().join("tree_past_design.tsfile")).unwrap();
    let full = TsFileReader::read(&bytes[..]).unwrap();
    let tail_only = TsFileReader::from_metadata(full.metadata().clone(), tsfile_bloom::tsfile::encoder::BuiltIn);
    let info = tail_only.bloom_info();
    assert_eq!((info.indexed_items, info.filled_past_design), (None, None));
    assert_eq!(full.bloom_info().filled_past_design, Some(true));
}

/// The filter's health (src/health.rs) on every real filter: its design from Java's sizing
/// written out here, its state from the manifest's counts and the stored bits.
#[test]
fn health_compares_each_real_filter_with_its_design() {
    let manifest: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(fixtures().join("manifest.json")).unwrap()).unwrap();
    let mut states = std::collections::BTreeMap::<String, Vec<String>>::new();
    for e in manifest.iter().filter(|e| e["kind"] == "real" && e["bloom"]["present"] == true) {
        let name = e["name"].as_str().unwrap();
        let (m, k) = (e["bloom"]["bit_count"].as_u64().unwrap(), e["bloom"]["hash_function_count"].as_u64().unwrap());
        let time_columns =
            if e["time_columns_in_filter"] == true { e["time_columns"].as_array().unwrap().len() } else { 0 };
        let holds = e["series_count"].as_u64().unwrap() + time_columns as u64;
        let info = TsFileReader::read(&std::fs::read(fixtures().join(e["file"].as_str().unwrap())).unwrap()[..])
            .unwrap()
            .bloom_info();
        let h = serde_json::to_value(info.health.expect(name)).unwrap();
        // The most keys Java's sizing gives at most m bits for, at the largest rate for k.
        let sized_for = (0..).take_while(|&n| java_m(n + 1, top_rate(k)) <= m).count() as u64;
        let rate = if k == 5 { 0.05 } else { top_rate(k) };
        let fill = info.set_bits.unwrap() as f64 / m as f64;
        let state = if holds > sized_for {
            "over_filled"
        } else if fill.powi(k as i32) > 2.0 * rate {
            "high_fp"
        } else {
            "healthy"
        };
        assert_eq!(h["sizedForItems"], sized_for, "{name}");
        assert_eq!(h["errorRate"], rate, "{name}");
        let design_fill = 1.0 - (-(k as f64) * sized_for as f64 / m as f64).exp();
        assert!((h["designFill"].as_f64().unwrap() - design_fill).abs() < 1e-12, "{name}");
        assert_eq!(h["state"], state, "{name}");
        states.entry(state.to_string()).or_default().push(name.to_string());
    }
    assert_eq!(states["over_filled"], ["tree_past_design"]);
    assert!(!states.contains_key("high_fp"), "{states:?}");
}

/// tree_past_design (m = 256, k = 5, 220 bits set, 100 keys): python3 -c "import math;
/// print(1-math.exp(-5*44/256), (220/256)**5)" → 0.5766 design fill, fill^k 0.4687 > 2 × 5 %.
#[test]
fn an_unread_index_leaves_the_bits_to_speak() {
    let bytes = std::fs::read(fixtures().join("tree_past_design.tsfile")).unwrap();
    let full = TsFileReader::read(&bytes[..]).unwrap();
    let tail_only = TsFileReader::from_metadata(full.metadata().clone(), tsfile_bloom::tsfile::encoder::BuiltIn);
    let unread = serde_json::to_value(tail_only.bloom_info().health).unwrap();
    let read = serde_json::to_value(full.bloom_info().health).unwrap();
    assert_eq!((&unread["state"], &read["state"]), (&Value::from("high_fp"), &Value::from("over_filled")));
    assert_eq!(read["sizedForItems"], 44);
    assert!((read["designFill"].as_f64().unwrap() - 0.5765733587147372).abs() < 1e-12);
    assert!((full.bloom_info().fpp_from_fill.unwrap() - 0.46872009988874197).abs() < 1e-12);
}

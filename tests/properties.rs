//! Property tests: no false negatives for any inserted path under either tail variant
//! and any charset, and probes equal an independent reference (the `murmur3` crate's
//! standard MurmurHash3 x64-128, which is exactly the zero-extended variant).

#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use tsfile_bloom::path::{series_path_bytes, transcode, Charset};
use tsfile_bloom::{BloomFilter, TailVariant, Verdict, SEEDS};

fn reference_bits(key: &[u8], k: usize, m: u32) -> Vec<u32> {
    SEEDS[..k]
        .iter()
        .map(|&seed| {
            let v = murmur3::murmur3_x64_128(&mut std::io::Cursor::new(key), seed).unwrap();
            let h = ((v as u64).wrapping_add((v >> 64) as u64)) as i32;
            (if h == i32::MIN { 0 } else { h.unsigned_abs() }) % m
        })
        .collect()
}

fn segment() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        4 => "[a-z0-9_]{1,8}".prop_map(Some),
        2 => "[温度设备北京泵能耗表éüßΩλ한글日本🔥🚀]{1,4}".prop_map(Some),
        1 => Just(None),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn no_false_negatives_any_variant_any_charset(
        devices in proptest::collection::vec((proptest::collection::vec(segment(), 1..5), "[a-z温度℃]{0,6}"), 1..40),
        rate in 0.01f64..0.1,
        charset_index in 0usize..Charset::ALL.len(),
    ) {
        let charset = Charset::ALL[charset_index];
        for variant in TailVariant::ALL {
            let paths: Vec<Vec<u8>> = devices
                .iter()
                .map(|(segs, m)| {
                    let segs: Vec<Option<&[u8]>> = segs.iter().map(|s| s.as_deref().map(str::as_bytes)).collect();
                    let utf8 = series_path_bytes(&segs, m.as_bytes());
                    transcode(&utf8, charset).unwrap().into_owned()
                })
                .collect();
            let mut f = BloomFilter::with_capacity(paths.len() as i32, rate);
            for p in &paths {
                f.add(p, variant);
            }
            let (g, _) = BloomFilter::decode(&f.encode(), 0).unwrap();
            let g = g.unwrap();
            for p in &paths {
                prop_assert_eq!(g.probe(p, variant).verdict, Verdict::Maybe);
            }
        }
    }

    #[test]
    fn zero_extended_probe_equals_reference(
        inserted in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..70), 0..30),
        queries in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..70), 1..30),
        m in 1u32..100_000,
        k in 1u32..=8,
    ) {
        let mut f = BloomFilter::new(m, k).unwrap();
        let mut set = std::collections::BTreeSet::new();
        for key in &inserted {
            f.add(key, TailVariant::ZeroExtended);
            set.extend(reference_bits(key, k as usize, m));
        }
        for q in queries.iter().chain(&inserted) {
            let p = f.probe(q, TailVariant::ZeroExtended);
            let want = reference_bits(q, k as usize, m);
            prop_assert_eq!(p.probes.iter().map(|s| s.bit).collect::<Vec<_>>(), want.clone());
            let maybe = want.iter().all(|b| set.contains(b));
            prop_assert_eq!(p.verdict == Verdict::Maybe, maybe);
        }
    }
}

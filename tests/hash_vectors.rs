//! Hash vectors from docs/bloom-filter.md §8 and an independent oracle: the `murmur3` crate's
//! standard MurmurHash3 x64-128 (unsigned tail) folded as TsFile folds it.

#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use tsfile_bloom::hash::{bit_index, hash32, variants_can_differ, TailVariant, SEEDS};

fn stock_hash32(key: &[u8], seed: u32) -> i32 {
    let v = murmur3::murmur3_x64_128(&mut std::io::Cursor::new(key), seed).unwrap();
    // TsFile folds (int)(h1 + h2); the sum does not depend on which half is which.
    ((v as u64).wrapping_add((v >> 64) as u64)) as i32
}

#[test]
fn spec_k5_vectors_java() {
    // docs/bloom-filter.md §8, second table (k = 5, m = 256).
    let table: [(&str, [i32; 5], [u32; 5]); 3] = [
        ("root.sg1.d1.s1", [-575222460, 1097775904, 15867706, -1201631927, 511072268], [188, 32, 58, 183, 12]),
        (
            "root.ln.wf01.wt01.temperature",
            [1810530763, 227411532, -1468158001, 1431228893, 879762377],
            [203, 76, 49, 221, 201],
        ),
        ("root.sg.d1.温度", [1225016292, -978465665, -86175877, 1602773399, 662830983], [228, 129, 133, 151, 135]),
    ];
    for (path, hashes, bits) in table {
        for i in 0..5 {
            let h = hash32(path.as_bytes(), SEEDS[i], TailVariant::Java);
            assert_eq!(h, hashes[i], "{path} seed {}", SEEDS[i]);
            assert_eq!(bit_index(h, 256), bits[i], "{path} seed {}", SEEDS[i]);
        }
    }
}

#[test]
fn spec_zero_extended_vector() {
    let bits: Vec<u32> = SEEDS[..5]
        .iter()
        .map(|&s| bit_index(hash32("root.sg.d1.温度".as_bytes(), s, TailVariant::ZeroExtended), 256))
        .collect();
    assert_eq!(bits, [82, 191, 216, 118, 38]);
}

#[test]
fn zero_extended_equals_stock_on_spec_paths() {
    for p in ["root.sg.d.s1", "root.设备.s1", "root.abcdefghijklmnop.设备.s1", "root.sg.d1.温度"] {
        for s in SEEDS {
            assert_eq!(hash32(p.as_bytes(), s, TailVariant::ZeroExtended), stock_hash32(p.as_bytes(), s));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn zero_extended_matches_standard_murmur3(key in proptest::collection::vec(any::<u8>(), 0..80), seed in any::<u32>()) {
        prop_assert_eq!(hash32(&key, seed, TailVariant::ZeroExtended), stock_hash32(&key, seed));
    }

    #[test]
    fn variants_agree_when_tail_is_below_0x80(
        blocks in proptest::collection::vec(any::<u8>(), 0..4).prop_map(|v| v.len()),
        body in proptest::collection::vec(any::<u8>(), 64),
        tail in proptest::collection::vec(0u8..0x80, 0..16),
        seed in any::<u32>(),
    ) {
        // Full blocks may hold any byte; only the tail bytes differ between variants.
        let mut key = body[..blocks * 16].to_vec();
        key.extend_from_slice(&tail);
        prop_assert!(!variants_can_differ(&key));
        prop_assert_eq!(hash32(&key, seed, TailVariant::Java), hash32(&key, seed, TailVariant::ZeroExtended));
    }

    #[test]
    fn bit_index_in_range(h in any::<i32>(), m in 1u32..=i32::MAX as u32) {
        prop_assert!(bit_index(h, m) < m);
    }
}

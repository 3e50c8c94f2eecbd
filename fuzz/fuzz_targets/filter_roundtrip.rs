//! Structured round trip: paths derived from the input go into a Java-sized filter under
//! both tail variants; after encode/decode every one of them is still maybe-present.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tsfile_bloom::{BloomFilter, TailVariant};

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let n = u16::from_le_bytes([data[0], data[1]]) as i32;
    let rate = 0.005 + (data[2] as f64) / 1000.0;
    let keys: Vec<&[u8]> = data[3..].split(|&b| b == b'\n').collect();
    for variant in TailVariant::ALL {
        let mut f = BloomFilter::with_capacity(n, rate);
        for k in &keys {
            f.add(k, variant);
        }
        let bytes = f.encode();
        match BloomFilter::decode(&bytes, 0).expect("our encoding decodes") {
            (Some(g), _) => {
                for k in &keys {
                    assert!(g.might_contain(k, variant));
                }
                assert_eq!(g.encode(), bytes);
            }
            (None, _) => assert!(f.set_bits() == 0),
        }
    }
});

//! Arbitrary bytes as a serialized BloomFilter: decode must return a filter or a typed
//! error, and a decoded filter must re-encode to bytes that decode to the same filter.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tsfile_bloom::{BloomFilter, TailVariant};

fuzz_target!(|data: &[u8]| {
    match BloomFilter::decode(data, 0) {
        Ok((Some(f), layout)) => {
            assert!(layout.encoded_len as usize <= data.len());
            let bytes = f.encode();
            let (g, _) = BloomFilter::decode(&bytes, 0).expect("our own encoding decodes");
            match g {
                Some(g) => {
                    assert_eq!(g.encode(), bytes);
                    assert_eq!(g.set_bits(), f.set_bits());
                }
                // A stored vector of zero bytes is not canonical: like Java's writer, we
                // encode a filter with no set bit as `00` ("no filter").
                None => assert_eq!(f.set_bits(), 0),
            }
            let p = f.probe(data, TailVariant::Java);
            assert_eq!(p.probes.len(), f.hash_function_count() as usize);
            assert!(p.probes.iter().all(|s| s.bit < f.bit_count()));
        }
        Ok((None, layout)) => assert!(layout.encoded_len as usize <= data.len()),
        Err(e) => assert!(e.offset().is_some_and(|o| o <= data.len() as u64)),
    }
});

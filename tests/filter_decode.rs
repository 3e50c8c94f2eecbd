//! Structural validation of the serialized filter (docs/bloom-filter.md §7) on hostile bytes.

#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use tsfile_bloom::filter::FilterHash;
use tsfile_bloom::{BloomFilter, ErrorKind, TailVariant, Verdict};

fn err(bytes: &[u8]) -> tsfile_bloom::Error {
    BloomFilter::decode(bytes, 1000).expect_err("hostile bytes must be rejected")
}

#[test]
fn hostile_filters_name_kind_and_offset() {
    // bit_count 0 (the varint after one bit byte sits at base + 2).
    let e = err(&[0x01, 0x01, 0x00, 0x05]);
    assert_eq!((e.kind, e.offset()), (ErrorKind::BloomBadBitCount, Some(1002)));
    // k = 0 and k = 9 at base + 4.
    for k in [0u8, 9] {
        let e = err(&[0x01, 0x01, 0x80, 0x02, k]);
        assert_eq!((e.kind, e.offset()), (ErrorKind::BloomBadHashFunctionCount, Some(1004)));
    }
    // After the cheap hash's marker (2^31-1 at base + 4, docs/writers.md §7), k is checked at base + 9,
    // and a k missing is a truncated field.
    for k in [0u8, 9] {
        let e = err(&[0x01, 0x01, 0x80, 0x02, 0xff, 0xff, 0xff, 0xff, 0x07, k]);
        assert_eq!((e.kind, e.offset()), (ErrorKind::BloomBadHashFunctionCount, Some(1009)));
    }
    let e = err(&[0x01, 0x01, 0x80, 0x02, 0xff, 0xff, 0xff, 0xff, 0x07]);
    assert_eq!((e.kind, e.offset()), (ErrorKind::Truncated, Some(1009)));
    // byte_length past the input: 200 bytes announced, 3 present.
    let e = err(&[0xc8, 0x01, 1, 2, 3]);
    assert_eq!((e.kind, e.offset()), (ErrorKind::Truncated, Some(1002)));
    // byte_length 2^31 is rejected before anything is allocated.
    let e = err(&[0x80, 0x80, 0x80, 0x80, 0x08]);
    assert_eq!((e.kind, e.offset()), (ErrorKind::BadCount, Some(1000)));
    // byte_length > ceil(bit_count / 8): 40 bytes for 256 bits.
    let mut b = vec![40u8];
    b.extend(std::iter::repeat_n(0xffu8, 40));
    b.extend_from_slice(&[0x80, 0x02, 0x05]);
    let e = err(&b);
    assert_eq!((e.kind, e.offset()), (ErrorKind::BloomOverflow, Some(1001 + 32)));
    // A set bit beyond bit_count (bit_count 10, byte 1 has bit 10 set).
    let e = err(&[0x02, 0x00, 0x04, 0x0a, 0x05]);
    assert_eq!((e.kind, e.offset()), (ErrorKind::BloomStrayBits, Some(1002)));
    // Over-long and unterminated varints.
    let e = err(&[0x81, 0x80, 0x80, 0x80, 0x80, 0x00]);
    assert_eq!((e.kind, e.offset()), (ErrorKind::BadVarint, Some(1000)));
    let e = err(&[0x01, 0x01, 0x80, 0x82]);
    assert_eq!((e.kind, e.offset()), (ErrorKind::Truncated, Some(1004)));
    let e = err(&[]);
    assert_eq!(e.kind, ErrorKind::Truncated);
}

/// The cheap-hash layout of apache/tsfile's BloomFilter.serialize (the branch of 2025, at
/// 39a43a46): byte_length, bits, bit_count, the varint of Integer.MAX_VALUE, then k. Its reader
/// tested Integer.MIN_VALUE instead (`80 80 80 80 08`); both are read as the marker.
#[test]
fn both_cheap_hash_markers_decode_with_their_k_and_no_probe() {
    for marker in [[0xff, 0xff, 0xff, 0xff, 0x07], [0x80, 0x80, 0x80, 0x80, 0x08]] {
        let mut bytes = vec![0x02, 0x21, 0x40, 0x80, 0x02];
        bytes.extend_from_slice(&marker);
        bytes.push(0x05);
        let (f, layout) = BloomFilter::decode(&bytes, 0).unwrap();
        let f = f.expect("a filter");
        assert_eq!((f.hash(), f.bit_count(), f.hash_function_count(), f.set_bits()), (FilterHash::Cheap, 256, 5, 3));
        assert_eq!(layout.encoded_len as usize, bytes.len());
        assert_eq!(layout.stored_geometry, Some((256, 5)));
        // Written back as the writer writes it: with Integer.MAX_VALUE.
        assert_eq!(f.encode(), [&[0x02, 0x21, 0x40, 0x80, 0x02, 0xff, 0xff, 0xff, 0xff, 0x07, 0x05][..]].concat());
        let e = f.murmur().unwrap_err();
        assert_eq!((e.kind, e.offset()), (ErrorKind::UnsupportedHash, None));
    }
    // A Murmur128 filter is itself.
    let (f, _) = BloomFilter::decode(&[0x01, 0x01, 0x80, 0x02, 0x05], 0).unwrap();
    assert_eq!(f.as_ref().unwrap().hash(), FilterHash::Murmur128);
    assert!(f.as_ref().unwrap().murmur().is_ok());
}

#[test]
fn missing_trailing_bytes_read_as_zero() {
    // One stored byte, bit_count 1024: bits 8.. are zero, not out of range.
    let (f, _) = BloomFilter::decode(&[0x01, 0xff, 0x80, 0x08, 0x05], 0).unwrap();
    let f = f.unwrap();
    assert_eq!(f.bit_count(), 1024);
    assert_eq!(f.set_bits(), 8);
    assert_eq!(f.logical_bits().len(), 128);
    assert!(f.get(7) && !f.get(8) && !f.get(1023));
}

#[test]
fn absent_when_any_bit_clear() {
    let (f, _) = BloomFilter::decode(&[0x01, 0xff, 0x80, 0x08, 0x05], 0).unwrap();
    let p = f.unwrap().probe(b"root.sg1.d1.s1", TailVariant::Java);
    assert_eq!(p.probes.len(), 5);
    let all_set = p.probes.iter().all(|s| s.set);
    assert_eq!(p.verdict == Verdict::Maybe, all_set);
    assert!(p.probes.iter().all(|s| s.set == (s.bit < 8)));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn decode_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        if let Ok((Some(f), layout)) = BloomFilter::decode(&bytes, 0) {
            prop_assert!(layout.encoded_len as usize <= bytes.len());
            prop_assert!(f.byte_length() <= f.bit_count().div_ceil(8));
        }
    }

    #[test]
    fn encode_decode_round_trip(paths in proptest::collection::vec("[a-z.温度🔥]{1,30}", 0..50), n in 1i32..5000, p in 0.001f64..0.2) {
        let mut f = BloomFilter::with_capacity(n, p);
        for path in &paths {
            f.add(path.as_bytes(), TailVariant::Java);
        }
        let bytes = f.encode();
        let (g, layout) = BloomFilter::decode(&bytes, 0).unwrap();
        prop_assert_eq!(layout.encoded_len as usize, bytes.len());
        match g {
            None => prop_assert!(paths.is_empty()),
            Some(g) => {
                prop_assert_eq!(g.encode(), bytes);
                for path in &paths {
                    prop_assert!(g.might_contain(path.as_bytes(), TailVariant::Java));
                }
            }
        }
    }
}

#[test]
fn all_zero_stored_vector_reencodes_as_no_filter() {
    // Fuzz finding (RELIABILITY.md): a non-canonical vector of zero bytes decodes to a filter
    // with no set bit, which re-encodes canonically as `00`, as Java's writer would write it.
    let (f, layout) = BloomFilter::decode(&[0x01, 0x00, 0x80, 0x02, 0x05], 0).unwrap();
    let f = f.expect("byte_length > 0 is a filter");
    assert_eq!(layout.encoded_len, 5);
    assert_eq!(f.set_bits(), 0);
    assert_eq!(f.probe(b"root.sg1.d1.s1", TailVariant::Java).verdict, Verdict::Absent);
    assert_eq!(f.encode(), [0x00]);
    assert!(BloomFilter::decode(&f.encode(), 0).unwrap().0.is_none());
}

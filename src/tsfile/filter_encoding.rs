//! How TsFileMetadata stores its Bloom filter field (docs/tsfile-format.md, "The Bloom
//! filter field"): the standard v4 form, v4's `00` for no filter, v3's always-present
//! geometry, and the legacy empty forms older C++ and Java writers left behind.

use crate::bytes::Cursor;
use crate::filter::{BloomFilter, FilterLayout};

/// How the Bloom filter field was encoded (docs/tsfile-format.md §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BloomEncoding {
    /// No bytes left after meta_offset: no filter field at all.
    Missing,
    /// v4: byte_length, bits, bit_count, k.
    Standard,
    /// v4: just `00` (no filter).
    Empty,
    /// v3: bit_count and k always present.
    V3,
    /// v4 by C++ writers up to 2025-02: `00` followed by bit_count and k.
    LegacyCppEmpty,
    /// v4 by Java with a null filter object: an i32 0 (four zero bytes).
    JavaNull,
}

serialize_as_str!(BloomEncoding);

impl BloomEncoding {
    /// Every encoding, in the order of its code (src/tsfile/wire/).
    pub const ALL: [BloomEncoding; 6] = [
        BloomEncoding::Missing,
        BloomEncoding::Standard,
        BloomEncoding::Empty,
        BloomEncoding::V3,
        BloomEncoding::LegacyCppEmpty,
        BloomEncoding::JavaNull,
    ];

    /// The encoding's name (`standard`, `v3`, `legacy_cpp_empty`, …), as serialized.
    pub fn as_str(self) -> &'static str {
        match self {
            BloomEncoding::Missing => "missing",
            BloomEncoding::Standard => "standard",
            BloomEncoding::Empty => "empty",
            BloomEncoding::V3 => "v3",
            BloomEncoding::LegacyCppEmpty => "legacy_cpp_empty",
            BloomEncoding::JavaNull => "java_null",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct BloomField {
    /// Offset of the field (its byte_length varint).
    pub offset: u64,
    pub encoding: BloomEncoding,
    pub filter: Option<BloomFilter>,
    pub layout: Option<FilterLayout>,
}

/// After a `00` byte_length: Java's null filter is an i32 0 (three more zero bytes);
/// the legacy C++ form carries two more uvarints (bit_count, k). Returns the encoding
/// and how many bytes to skip when the properties then parse exactly.
pub(super) fn legacy_empty_filter(c: &Cursor<'_>) -> Option<(BloomEncoding, usize)> {
    let mut java = c.clone();
    if java.take(3, "i32 zero").ok() == Some(&[0u8, 0, 0][..]) && super::metadata::parse_properties(&mut java).is_ok() {
        return Some((BloomEncoding::JavaNull, 3));
    }
    let mut cpp = c.clone();
    let start = cpp.position();
    if cpp.uvarint("legacy bit_count").is_ok() && cpp.uvarint("legacy hash_function_count").is_ok() {
        let skip = cpp.position() - start;
        if super::metadata::parse_properties(&mut cpp).is_ok() {
            return Some((BloomEncoding::LegacyCppEmpty, skip));
        }
    }
    None
}

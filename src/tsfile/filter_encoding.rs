//! How TsFileMetadata stores its Bloom filter field (docs/tsfile-format.md, "The Bloom
//! filter field"): the standard v4 form, v4's `00` for no filter, v3's always-present
//! geometry, and the legacy empty forms older C++ and Java writers left behind.

use super::properties::{parse_properties, Property};
use crate::bytes::Cursor;
use crate::error::{Error, ErrorKind, Result};
use crate::filter::{BloomFilter, FilterLayout};

closed_set! {
    /// How the Bloom filter field was encoded (docs/tsfile-format.md §4).
    pub enum BloomEncoding {
        /// No bytes left after meta_offset: no filter field at all.
        Missing => "missing",
        /// v4: byte_length, bits, bit_count, k.
        Standard => "standard",
        /// v4: just `00` (no filter).
        Empty => "empty",
        /// v3: bit_count and k always present.
        V3 => "v3",
        /// v4 by C++ writers up to 2025-02: `00` followed by bit_count and k.
        LegacyCppEmpty => "legacy_cpp_empty",
        /// v4 by Java with a null filter object: an i32 0 (four zero bytes).
        JavaNull => "java_null",
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

impl BloomField {
    /// The field at `c` (after meta_offset) to the end of TsFileMetadata: the field, then the
    /// properties that follow it in v4 and the problems that do not stop the filter from being
    /// used (bytes after a v3 filter, unreadable properties). Where a v4 "no filter" ends is told
    /// by the properties: they must then parse exactly.
    pub(super) fn parse(c: &mut Cursor<'_>, v4: bool) -> Result<(BloomField, Vec<Property>, Vec<Error>)> {
        let mut warnings = Vec::new();
        let bloom_at = c.offset();
        let mut properties = Vec::new();
        let bloom = if c.is_empty() {
            BloomField { offset: bloom_at, encoding: BloomEncoding::Missing, filter: None, layout: None }
        } else if !v4 {
            let (filter, layout) = BloomFilter::decode_from(c, true)?;
            if !c.is_empty() {
                warnings.push(Error::new(
                    ErrorKind::TrailingBytes,
                    c.offset(),
                    format!("{} bytes follow the v3 Bloom filter", c.remaining()),
                ));
            }
            BloomField { offset: bloom_at, encoding: BloomEncoding::V3, filter, layout: Some(layout) }
        } else {
            let (filter, layout) = BloomFilter::decode_from(c, false)?;
            let mut encoding = if filter.is_some() { BloomEncoding::Standard } else { BloomEncoding::Empty };
            let mut layout = layout;
            let mut props = parse_properties(&mut c.clone());
            if filter.is_none() && props.is_err() {
                // Legacy encodings of "no filter" (docs/tsfile-format.md §4): try each and keep
                // the one after which the properties parse exactly.
                if let Some((enc, skip)) = legacy_empty_filter(c) {
                    let mut alt = c.clone();
                    if enc == BloomEncoding::LegacyCppEmpty {
                        // Informational geometry of the empty filter, as in v3.
                        let mut g = c.clone();
                        layout.stored_geometry =
                            g.uvarint("legacy bit_count").ok().zip(g.uvarint("legacy hash_function_count").ok());
                    }
                    alt.skip(skip as u64, "legacy empty filter")?;
                    encoding = enc;
                    layout.encoded_len += skip as u64;
                    props = parse_properties(&mut alt);
                }
            }
            match props {
                Ok(p) => properties = p,
                Err(e) => warnings.push(Error::new(e.kind, e.at(), format!("properties unreadable: {}", e.message))),
            }
            BloomField { offset: bloom_at, encoding, filter, layout: Some(layout) }
        };
        Ok((bloom, properties, warnings))
    }
}

/// After a `00` byte_length: Java's null filter is an i32 0 (three more zero bytes);
/// the legacy C++ form carries two more uvarints (bit_count, k). Returns the encoding
/// and how many bytes to skip when the properties then parse exactly.
fn legacy_empty_filter(c: &Cursor<'_>) -> Option<(BloomEncoding, usize)> {
    let mut java = c.clone();
    if java.take(3, "i32 zero").ok() == Some(&[0u8, 0, 0][..]) && parse_properties(&mut java).is_ok() {
        return Some((BloomEncoding::JavaNull, 3));
    }
    let mut cpp = c.clone();
    let start = cpp.position();
    if cpp.uvarint("legacy bit_count").is_ok() && cpp.uvarint("legacy hash_function_count").is_ok() {
        let skip = cpp.position() - start;
        if parse_properties(&mut cpp).is_ok() {
            return Some((BloomEncoding::LegacyCppEmpty, skip));
        }
    }
    None
}

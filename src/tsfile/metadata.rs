//! TsFileMetadata (docs/tsfile-format.md, "TsFileMetadata"): the table index roots and
//! schemas (v4), meta_offset, the Bloom filter field and the properties.

use super::filter_encoding::legacy_empty_filter;
use super::index::parse_node;
use super::schema::parse_columns;
use super::{BloomEncoding, BloomField, Envelope, IndexNode, TableSchema, HEAD_LEN};
use crate::bytes::Cursor;
use crate::error::{Error, ErrorKind, Result};
use crate::filter::BloomFilter;
use crate::source::ReadAt;

pub type Property = (Option<Vec<u8>>, Option<Vec<u8>>);

#[derive(Clone, Debug, PartialEq)]
pub struct TsFileMetadata {
    pub envelope: Envelope,
    /// v4: one root per table name; v3: a single root with no name.
    pub table_roots: Vec<(Option<Vec<u8>>, IndexNode)>,
    pub table_schemas: Vec<TableSchema>,
    pub meta_offset: u64,
    pub bloom: BloomField,
    pub properties: Vec<Property>,
    /// Problems that do not stop the filter or the index from being used.
    pub warnings: Vec<Error>,
}

/// Opens a TsFile: envelope, then TsFileMetadata in full.
pub fn read_metadata<R: ReadAt + ?Sized>(src: &R) -> Result<TsFileMetadata> {
    let envelope = super::read_envelope(src)?;
    let bytes = src.read_at(envelope.metadata_offset, envelope.metadata_size as usize)?;
    parse_metadata(envelope, &bytes)
}

/// Parses TsFileMetadata from its bytes (`bytes` starts at `envelope.metadata_offset`).
pub fn parse_metadata(envelope: Envelope, bytes: &[u8]) -> Result<TsFileMetadata> {
    let mut c = Cursor::with_base(bytes, envelope.metadata_offset);
    let v4 = envelope.version == 4;
    let mut table_roots = Vec::new();
    let mut table_schemas = Vec::new();
    if v4 {
        // Each table needs at least a name varint and an 11-byte empty node.
        let n = c.count("table index count", 12)?;
        for _ in 0..n {
            let name = c.vstr("table name")?.map(<[u8]>::to_vec);
            let node = parse_node(&mut c, true, v4)?;
            table_roots.push((name, node));
        }
        let n = c.count("table schema count", 2)?;
        for _ in 0..n {
            let table_name = c.vstr("table schema name")?.map(<[u8]>::to_vec);
            let columns = parse_columns(&mut c)?;
            table_schemas.push(TableSchema { table_name, columns });
        }
    } else {
        let node = parse_node(&mut c, true, v4)?;
        table_roots.push((None, node));
    }
    for (_, root) in &table_roots {
        if !root.node_type.is_device_level() {
            return Err(Error::new(
                ErrorKind::BadIndexNode,
                root.offset,
                format!("root index node has type {}, expected a device-level node", root.node_type.as_str()),
            ));
        }
    }
    let meta_at = c.offset();
    let meta_offset = c.i64_be("meta_offset")?;
    if meta_offset < HEAD_LEN as i64 || meta_offset as u64 >= envelope.metadata_offset {
        return Err(Error::new(
            ErrorKind::BadMetaOffset,
            meta_at,
            format!(
                "meta_offset {meta_offset} must lie in {HEAD_LEN}..{} (before TsFileMetadata)",
                envelope.metadata_offset
            ),
        ));
    }
    let mut warnings = Vec::new();
    let bloom_at = c.offset();
    let mut properties = Vec::new();
    let bloom = if c.is_empty() {
        BloomField { offset: bloom_at, encoding: BloomEncoding::Missing, filter: None, layout: None }
    } else if !v4 {
        let (filter, layout) = BloomFilter::decode_from(&mut c, true)?;
        if !c.is_empty() {
            warnings.push(Error::new(
                ErrorKind::TrailingBytes,
                c.offset(),
                format!("{} bytes follow the v3 Bloom filter", c.remaining()),
            ));
        }
        BloomField { offset: bloom_at, encoding: BloomEncoding::V3, filter, layout: Some(layout) }
    } else {
        let (filter, layout) = BloomFilter::decode_from(&mut c, false)?;
        let mut encoding = if filter.is_some() { BloomEncoding::Standard } else { BloomEncoding::Empty };
        let mut layout = layout;
        let mut props = parse_properties(&mut c.clone());
        if filter.is_none() && props.is_err() {
            // Legacy encodings of "no filter" (docs/tsfile-format.md §4): try each and keep
            // the one after which the properties parse exactly.
            if let Some((enc, skip)) = legacy_empty_filter(&c) {
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
    Ok(TsFileMetadata {
        envelope,
        table_roots,
        table_schemas,
        meta_offset: meta_offset as u64,
        bloom,
        properties,
        warnings,
    })
}

/// Properties (v4): zigzag count, then (vstr key, vstr value) pairs, filling the rest exactly.
pub(super) fn parse_properties(c: &mut Cursor<'_>) -> Result<Vec<Property>> {
    if c.is_empty() {
        return Ok(Vec::new());
    }
    let at = c.offset();
    let n = c.varint("property count")?;
    if n < 0 || n as u64 * 2 > c.remaining() as u64 {
        return Err(Error::new(ErrorKind::BadCount, at, format!("property count {n} is impossible here")));
    }
    let mut out = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let k = c.vstr("property key")?.map(<[u8]>::to_vec);
        let v = c.vstr("property value")?.map(<[u8]>::to_vec);
        out.push((k, v));
    }
    if !c.is_empty() {
        return Err(Error::new(
            ErrorKind::TrailingBytes,
            c.offset(),
            format!("{} bytes follow the properties", c.remaining()),
        ));
    }
    Ok(out)
}

//! TsFileMetadata (docs/tsfile-format.md, "TsFileMetadata"): the table index roots and
//! schemas (v4), meta_offset, the Bloom filter field and the properties.

use super::index::parse_node;
use super::schema::parse_columns;
use super::{BloomField, Envelope, IndexNode, Property, TableSchema, HEAD_LEN};
use crate::bytes::Cursor;
use crate::error::{Error, ErrorKind, Result};
use crate::source::ReadAt;

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
    // The filter field, then (v4) the properties: where the field ends is told by them.
    let (bloom, properties, warnings) = BloomField::parse(&mut c, v4)?;
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

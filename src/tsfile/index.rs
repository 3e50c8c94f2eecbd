//! The metadata index (docs/tsfile-format.md, "The metadata index"): MetadataIndexNode
//! trees, one per table, walked from TsFileMetadata's roots down to the runs of
//! TimeseriesMetadata, reading the index region `[meta_offset, start of TsFileMetadata)` once.

use super::{DataType, DeviceId, Series, TsFileMetadata};
use crate::bytes::Cursor;
use crate::error::{Error, ErrorKind, Result};
use crate::source::ReadAt;
use std::sync::Arc;

/// Deepest index tree we follow (real trees are a handful of levels).
pub const MAX_INDEX_DEPTH: usize = 64;

closed_set! {
    /// A MetadataIndexNode's type: its trailing byte is its code.
    pub enum NodeType {
        InternalDevice => "INTERNAL_DEVICE",
        LeafDevice => "LEAF_DEVICE",
        InternalMeasurement => "INTERNAL_MEASUREMENT",
        LeafMeasurement => "LEAF_MEASUREMENT",
    }
}

impl NodeType {
    pub(crate) fn is_device_level(self) -> bool {
        matches!(self, NodeType::InternalDevice | NodeType::LeafDevice)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryKey {
    Device(DeviceId),
    Name(Vec<u8>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexEntry {
    pub key: EntryKey,
    /// File offset of the child region.
    pub offset: i64,
    /// Where this entry's offset field sits (for errors).
    pub at: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexNode {
    pub entries: Vec<IndexEntry>,
    pub end_offset: i64,
    pub node_type: NodeType,
    /// File offset where the node was read.
    pub offset: u64,
}

fn parse_device_id(c: &mut Cursor<'_>, v4: bool) -> Result<DeviceId> {
    if !v4 {
        let at = c.offset();
        let s = c.vstr("v3 device")?.ok_or_else(|| Error::new(ErrorKind::BadString, at, "v3 device path is null"))?;
        return Ok(DeviceId { segments: vec![Some(s.to_vec())] });
    }
    let n = c.count("device segment count", 1)?;
    if n == 0 {
        // Java decodes an empty segment list as a single empty segment.
        return Ok(DeviceId { segments: vec![Some(Vec::new())] });
    }
    let mut segments = Vec::with_capacity(n);
    for _ in 0..n {
        segments.push(c.vstr("device segment")?.map(<[u8]>::to_vec));
    }
    Ok(DeviceId { segments })
}

/// MetadataIndexNode (docs/tsfile-format.md §5.1). `device_level` decides the entry encoding, which the
/// node itself does not record until its trailing type byte.
pub(super) fn parse_node(c: &mut Cursor<'_>, device_level: bool, v4: bool) -> Result<IndexNode> {
    let offset = c.offset();
    // key (>= 1 byte) + i64 offset.
    let n = c.count("index node child count", 9)?;
    let mut entries = Vec::with_capacity(n);
    for _ in 0..n {
        let key = if device_level {
            EntryKey::Device(parse_device_id(c, v4)?)
        } else {
            let at = c.offset();
            EntryKey::Name(
                c.vstr("measurement index key")?
                    .ok_or_else(|| Error::new(ErrorKind::BadString, at, "measurement index key is null"))?
                    .to_vec(),
            )
        };
        let at = c.offset();
        let child = c.i64_be("index entry offset")?;
        entries.push(IndexEntry { key, offset: child, at });
    }
    let end_offset = c.i64_be("index node end offset")?;
    let type_at = c.offset();
    let t = c.u8("index node type")?;
    let node_type = NodeType::ALL
        .get(usize::from(t))
        .copied()
        .ok_or_else(|| Error::new(ErrorKind::BadIndexNode, type_at, format!("index node type {t} is not 0-3")))?;
    if node_type.is_device_level() != device_level {
        return Err(Error::new(
            ErrorKind::BadIndexNode,
            type_at,
            format!(
                "{} node found where a {} node belongs",
                node_type.as_str(),
                if device_level { "device-level" } else { "measurement-level" }
            ),
        ));
    }
    Ok(IndexNode { entries, end_offset, node_type, offset })
}

/// The result of walking the index: every record found, and the error that stopped
/// the walk early, if any (the records before it are kept as partial results).
#[derive(Clone, Debug, Default)]
pub struct IndexWalk {
    pub series: Vec<Series>,
    pub error: Option<Error>,
    pub warnings: Vec<Error>,
    /// Bytes read from the source for the walk.
    pub bytes_read: u64,
}

/// Reads the index region once and walks every table's tree.
pub fn walk_index<R: ReadAt + ?Sized>(src: &R, meta: &TsFileMetadata) -> IndexWalk {
    let start = meta.envelope.metadata_offset;
    let len = start - meta.meta_offset;
    let region = match src.read_at(meta.meta_offset, len as usize) {
        Ok(r) => r,
        Err(e) => return IndexWalk { error: Some(e), ..Default::default() },
    };
    let mut walk = walk_index_region(meta, &region);
    walk.bytes_read = len;
    walk
}

/// Walks the index given the bytes `[meta_offset, start of TsFileMetadata)`.
pub fn walk_index_region(meta: &TsFileMetadata, region: &[u8]) -> IndexWalk {
    let mut walk = IndexWalk::default();
    if region.first() != Some(&0x02) {
        walk.warnings.push(Error::new(
            ErrorKind::BadMetaOffset,
            meta.meta_offset,
            "the byte at meta_offset is not the 0x02 separator marker",
        ));
    }
    if let Err(e) = walk_all(meta, region, &mut walk.series) {
        walk.error = Some(e);
    }
    walk
}

fn walk_all(meta: &TsFileMetadata, region: &[u8], out: &mut Vec<Series>) -> Result<()> {
    let v4 = meta.envelope.version == 4;
    let lo = meta.meta_offset;
    let hi = meta.envelope.metadata_offset;
    // One bit per region offset: a child region referenced twice (a cycle or a shared
    // subtree in a hostile file) is an error. A bitmap instead of a hash set keeps the
    // wasm build small and costs 1/8 of the region, which is in memory anyway.
    let mut visited = vec![0u8; ((hi - lo) / 8 + 1) as usize];
    for (table, root) in &meta.table_roots {
        // (node, device it belongs to, depth)
        let mut stack: Vec<(IndexNode, Option<Arc<DeviceId>>, usize)> = vec![(root.clone(), None, 0)];
        while let Some((node, device, depth)) = stack.pop() {
            if depth > MAX_INDEX_DEPTH {
                return Err(Error::new(
                    ErrorKind::BadIndexNode,
                    node.offset,
                    format!("index deeper than {MAX_INDEX_DEPTH} levels"),
                ));
            }
            let n = node.entries.len();
            let mut children = Vec::new();
            for i in 0..n {
                let entry = &node.entries[i];
                let off = entry.offset;
                let end = if i + 1 < n { node.entries[i + 1].offset } else { node.end_offset };
                if !(off > lo as i64 && off < end && end <= hi as i64) {
                    return Err(Error::new(
                        ErrorKind::BadIndexOffset,
                        entry.at,
                        format!(
                            "child region {off}..{end} of the {} node at {} must be increasing and inside the index region {}..{hi}",
                            node.node_type.as_str(),
                            node.offset,
                            lo + 1
                        ),
                    ));
                }
                let (off, end) = (off as u64, end as u64);
                let (byte, bit) = (((off - lo) / 8) as usize, 1u8 << ((off - lo) % 8));
                if visited[byte] & bit != 0 {
                    return Err(Error::new(
                        ErrorKind::BadIndexOffset,
                        entry.at,
                        format!("region at {off} is referenced twice"),
                    ));
                }
                visited[byte] |= bit;
                // The region a caller supplies may be shorter than TsFileMetadata says.
                let bytes = region.get((off - lo) as usize..(end - lo) as usize).ok_or_else(|| {
                    Error::new(ErrorKind::Truncated, off, format!("the index region ends before {end}"))
                })?;
                let mut c = Cursor::with_base(bytes, off);
                match node.node_type {
                    NodeType::LeafMeasurement => {
                        let dev = device.clone().ok_or_else(|| {
                            Error::new(ErrorKind::BadIndexNode, node.offset, "measurement node outside any device")
                        })?;
                        parse_timeseries_run(&mut c, table, &dev, out)?;
                    }
                    NodeType::InternalDevice | NodeType::LeafDevice | NodeType::InternalMeasurement => {
                        let device_level = node.node_type == NodeType::InternalDevice;
                        let child = parse_node(&mut c, device_level, v4)?;
                        if !c.is_empty() {
                            return Err(Error::new(
                                ErrorKind::BadRegion,
                                c.offset(),
                                format!("{} bytes left in region {off}..{end} after its index node", c.remaining()),
                            ));
                        }
                        let child_device = match (&node.node_type, &entry.key) {
                            (NodeType::LeafDevice, EntryKey::Device(d)) => Some(Arc::new(d.clone())),
                            _ => device.clone(),
                        };
                        children.push((child, child_device, depth + 1));
                    }
                }
            }
            // Keep file order: process children first-to-last.
            stack.extend(children.into_iter().rev());
        }
    }
    Ok(())
}

// Out of line: called once per device run, it is compiled optimised after a few calls,
// while a loop inside the one long walk would run in baseline code to its end (wasm has no
// on-stack replacement).
#[inline(never)]
fn parse_timeseries_run(
    c: &mut Cursor<'_>,
    table: &Option<Vec<u8>>,
    device: &Arc<DeviceId>,
    out: &mut Vec<Series>,
) -> Result<()> {
    while !c.is_empty() {
        let offset = c.offset();
        let _ts_type = c.u8("timeseries metadata type")?;
        let at = c.offset();
        let measurement = c
            .vstr("measurement name")?
            .ok_or_else(|| Error::new(ErrorKind::BadString, at, "measurement name is null"))?
            .to_vec();
        let type_at = c.offset();
        let t = c.u8("data type")?;
        let data_type = DataType::from_byte(t)
            .ok_or_else(|| Error::new(ErrorKind::UnknownDataType, type_at, format!("data type {t} is unknown")))?;
        let chunk_at = c.offset();
        let chunk_list_len = c.uvarint("chunk metadata list size")? as u64;
        c.uvarint("statistics count")?;
        c.i64_be("statistics start time")?;
        c.i64_be("statistics end time")?;
        match data_type.fixed_statistics_len() {
            Some(n) => c.skip(n, "statistics")?,
            None => {
                let binaries = if data_type == DataType::Text { 2 } else { 4 };
                for _ in 0..binaries {
                    c.istr("statistics value")?;
                }
            }
        }
        if chunk_list_len > c.remaining() as u64 {
            return Err(Error::new(
                ErrorKind::BadRegion,
                chunk_at,
                format!(
                    "chunk metadata list of {chunk_list_len} bytes runs past its region ({} bytes remain)",
                    c.remaining()
                ),
            ));
        }
        c.skip(chunk_list_len, "chunk metadata list")?;
        out.push(Series { table: table.clone(), device: device.clone(), measurement, data_type, offset });
    }
    Ok(())
}

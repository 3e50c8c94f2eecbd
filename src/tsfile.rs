//! The TsFile tail (tsfile-format.md §2-9): head magic and version, the
//! TsFileMetadata located from the tail, its Bloom filter in every encoding real
//! writers produce, and the metadata index walked to list every series.
//!
//! Opening reads the head (7 bytes), the tail size and magic (10 bytes) and
//! TsFileMetadata; listing series reads the index region `[meta_offset, start)`
//! once. Nothing else of the file is touched.

use crate::bytes::Cursor;
use crate::error::{Error, ErrorKind, Result};
use crate::filter::{BloomFilter, FilterLayout};
use crate::source::ReadAt;

pub const MAGIC: &[u8; 6] = b"TsFile";
/// `"TsFile"` + version byte.
pub const HEAD_LEN: u64 = 7;
/// i32 size + `"TsFile"`.
pub const TAIL_LEN: u64 = 10;
pub const MIN_FILE_LEN: u64 = HEAD_LEN + TAIL_LEN;
/// Deepest index tree we follow (real trees are a handful of levels).
pub const MAX_INDEX_DEPTH: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataType {
    Boolean,
    Int32,
    Int64,
    Float,
    Double,
    Text,
    /// The time column of an aligned device.
    Vector,
    Timestamp,
    Date,
    Blob,
    String,
}

impl DataType {
    pub fn from_byte(b: u8) -> Option<DataType> {
        Some(match b {
            0 => DataType::Boolean,
            1 => DataType::Int32,
            2 => DataType::Int64,
            3 => DataType::Float,
            4 => DataType::Double,
            5 => DataType::Text,
            6 => DataType::Vector,
            8 => DataType::Timestamp,
            9 => DataType::Date,
            10 => DataType::Blob,
            11 => DataType::String,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            DataType::Boolean => "BOOLEAN",
            DataType::Int32 => "INT32",
            DataType::Int64 => "INT64",
            DataType::Float => "FLOAT",
            DataType::Double => "DOUBLE",
            DataType::Text => "TEXT",
            DataType::Vector => "VECTOR",
            DataType::Timestamp => "TIMESTAMP",
            DataType::Date => "DATE",
            DataType::Blob => "BLOB",
            DataType::String => "STRING",
        }
    }

    /// Bytes of the typed part of Statistics after count/start/end, when fixed.
    fn fixed_statistics_len(self) -> Option<u64> {
        match self {
            DataType::Boolean => Some(10),
            DataType::Int32 | DataType::Date | DataType::Float => Some(24),
            DataType::Int64 | DataType::Timestamp | DataType::Double => Some(40),
            DataType::Blob | DataType::Vector => Some(0),
            DataType::Text | DataType::String => None,
        }
    }
}

/// A device as stored: v4 `StringArrayDeviceID` segments (null allowed), or the
/// v3 device string as a single segment.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DeviceId {
    pub segments: Vec<Option<Vec<u8>>>,
}

impl DeviceId {
    fn segment_refs(&self, drop_trailing_nulls: bool) -> Vec<Option<&[u8]>> {
        let mut segs: Vec<Option<&[u8]>> = self.segments.iter().map(|s| s.as_deref()).collect();
        if drop_trailing_nulls {
            while segs.len() > 1 && segs.last() == Some(&None) {
                segs.pop();
            }
        }
        segs
    }

    /// The device string (segments joined with `.`, null → `null`).
    pub fn to_bytes(&self) -> Vec<u8> {
        crate::path::device_bytes(&self.segment_refs(false))
    }

    /// `device.measurement` as a writer hashes it; `drop_trailing_nulls` models Java's
    /// `StringArrayDeviceID.formalize`.
    pub fn series_path(&self, measurement: &[u8], drop_trailing_nulls: bool) -> Vec<u8> {
        crate::path::series_path_bytes(&self.segment_refs(drop_trailing_nulls), measurement)
    }

    pub fn has_trailing_null(&self) -> bool {
        self.segments.len() > 1 && self.segments.last().is_some_and(|s| s.is_none())
    }

    pub fn to_string_lossy(&self) -> String {
        String::from_utf8_lossy(&self.to_bytes()).into_owned()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeType {
    InternalDevice,
    LeafDevice,
    InternalMeasurement,
    LeafMeasurement,
}

impl NodeType {
    fn from_byte(b: u8) -> Option<NodeType> {
        Some(match b {
            0 => NodeType::InternalDevice,
            1 => NodeType::LeafDevice,
            2 => NodeType::InternalMeasurement,
            3 => NodeType::LeafMeasurement,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            NodeType::InternalDevice => "INTERNAL_DEVICE",
            NodeType::LeafDevice => "LEAF_DEVICE",
            NodeType::InternalMeasurement => "INTERNAL_MEASUREMENT",
            NodeType::LeafMeasurement => "LEAF_MEASUREMENT",
        }
    }

    fn is_device_level(self) -> bool {
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

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnSchema {
    pub name: Option<Vec<u8>>,
    pub data_type: u8,
    pub encoding: u8,
    pub compression: u8,
    pub props: Vec<(Option<Vec<u8>>, Option<Vec<u8>>)>,
    /// 0 TAG, 1 FIELD, 2 ATTRIBUTE, 3 TIME.
    pub category: i32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSchema {
    pub table_name: Option<Vec<u8>>,
    pub columns: Vec<ColumnSchema>,
}

/// How the Bloom filter field was encoded (tsfile-format.md §4, Q7, Q8).
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

impl BloomEncoding {
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

/// What the head and tail say, before TsFileMetadata is parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Envelope {
    pub file_size: u64,
    pub version: u8,
    /// Start of TsFileMetadata.
    pub metadata_offset: u64,
    pub metadata_size: u32,
}

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

/// Checks head and tail and locates TsFileMetadata (tsfile-format.md §2).
pub fn read_envelope<R: ReadAt + ?Sized>(src: &R) -> Result<Envelope> {
    let size = src.size();
    if size < MIN_FILE_LEN {
        return Err(Error::new(
            ErrorKind::TooShort,
            0,
            format!("{size} bytes is shorter than the smallest TsFile ({MIN_FILE_LEN} bytes)"),
        ));
    }
    let head = src.read_at(0, HEAD_LEN as usize)?;
    if &head[..6] != MAGIC {
        // The bytes as `{:02x?}` would print them: [54, 73, ...].
        let mut m = String::from("file starts with [");
        for (i, b) in head[..6].iter().enumerate() {
            if i > 0 {
                m.push_str(", ");
            }
            crate::error::push_hex(&mut m, &[*b], false);
        }
        m.push_str("], not \"TsFile\"");
        return Err(Error::new(ErrorKind::BadHeadMagic, 0, m));
    }
    let version = head[6];
    if version != 3 && version != 4 {
        let what = if version == b'0' && size >= 12 && src.read_at(6, 6)? == b"000002" {
            "version \"000002\" (TsFile v2, IoTDB 0.10/0.11)".to_string()
        } else {
            format!("version byte {version}")
        };
        return Err(Error::new(ErrorKind::UnsupportedVersion, 6, format!("{what} is not supported; versions 3 and 4 are")));
    }
    let tail = src.read_at(size - TAIL_LEN, TAIL_LEN as usize)?;
    if &tail[4..] != MAGIC {
        return Err(Error::new(
            ErrorKind::BadTailMagic,
            size - 6,
            "file does not end with \"TsFile\" (incomplete file, or not a TsFile)",
        ));
    }
    let s = i32::from_be_bytes(crate::bytes::array(&tail));
    let available = size - MIN_FILE_LEN;
    if s <= 0 || s as u64 > available {
        return Err(Error::new(
            ErrorKind::BadMetadataSize,
            size - TAIL_LEN,
            format!("TsFileMetadata size {s} must be in 1..={available} for a {size}-byte file"),
        ));
    }
    Ok(Envelope { file_size: size, version, metadata_offset: size - TAIL_LEN - s as u64, metadata_size: s as u32 })
}

/// Opens a TsFile: envelope, then TsFileMetadata in full.
pub fn read_metadata<R: ReadAt + ?Sized>(src: &R) -> Result<TsFileMetadata> {
    let envelope = read_envelope(src)?;
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
            // Legacy encodings of "no filter" (tsfile-format.md §4.1): try each and keep
            // the one after which the properties parse exactly.
            if let Some((enc, skip)) = legacy_empty_filter(&c) {
                let mut alt = c.clone();
                if enc == BloomEncoding::LegacyCppEmpty {
                    // Informational geometry of the empty filter, as in v3.
                    let mut g = c.clone();
                    layout.stored_geometry = g.uvarint("legacy bit_count").ok().zip(g.uvarint("legacy hash_function_count").ok());
                }
                alt.skip(skip as u64, "legacy empty filter")?;
                encoding = enc;
                layout.encoded_len += skip as u64;
                props = parse_properties(&mut alt);
            }
        }
        match props {
            Ok(p) => properties = p,
            Err(e) => warnings.push(Error::new(e.kind, e.offset, format!("properties unreadable: {}", e.message))),
        }
        BloomField { offset: bloom_at, encoding, filter, layout: Some(layout) }
    };
    Ok(TsFileMetadata { envelope, table_roots, table_schemas, meta_offset: meta_offset as u64, bloom, properties, warnings })
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

/// Properties (v4): zigzag count, then (vstr key, vstr value) pairs, filling the rest exactly.
fn parse_properties(c: &mut Cursor<'_>) -> Result<Vec<Property>> {
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
        return Err(Error::new(ErrorKind::TrailingBytes, c.offset(), format!("{} bytes follow the properties", c.remaining())));
    }
    Ok(out)
}

fn parse_columns(c: &mut Cursor<'_>) -> Result<Vec<ColumnSchema>> {
    // name (4) + 3 type bytes + props count (4) + category (4).
    let n = c.count("column count", 15)?;
    let mut columns = Vec::with_capacity(n);
    for _ in 0..n {
        let name = c.istr("column name")?.map(<[u8]>::to_vec);
        let data_type = c.u8("column data type")?;
        let encoding = c.u8("column encoding")?;
        let compression = c.u8("column compression")?;
        let at = c.offset();
        let props_count = c.i32_be("column props count")?;
        if props_count < 0 || props_count as u64 * 8 > c.remaining() as u64 {
            return Err(Error::new(ErrorKind::BadCount, at, format!("column props count {props_count} is impossible here")));
        }
        let mut props = Vec::new();
        for _ in 0..props_count {
            let k = c.istr("column prop key")?.map(<[u8]>::to_vec);
            let v = c.istr("column prop value")?.map(<[u8]>::to_vec);
            props.push((k, v));
        }
        let category = c.i32_be("column category")?;
        columns.push(ColumnSchema { name, data_type, encoding, compression, props, category });
    }
    Ok(columns)
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

/// MetadataIndexNode (§5.1). `device_level` decides the entry encoding, which the
/// node itself does not record until its trailing type byte.
fn parse_node(c: &mut Cursor<'_>, device_level: bool, v4: bool) -> Result<IndexNode> {
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
    let node_type = NodeType::from_byte(t)
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

/// One TimeseriesMetadata record: an indexed series, or the time column of an aligned device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Series {
    pub table: Option<Vec<u8>>,
    pub device: DeviceId,
    /// Empty for a time column.
    pub measurement: Vec<u8>,
    pub data_type: DataType,
    /// File offset of the record.
    pub offset: u64,
}

impl Series {
    /// The time column of an aligned device (measurement `""`, type VECTOR).
    pub fn is_time_column(&self) -> bool {
        self.measurement.is_empty() && self.data_type == DataType::Vector
    }

    /// The path bytes the writer hashed: `device.measurement` (`device.` for a time column).
    pub fn path(&self) -> Vec<u8> {
        self.device.series_path(&self.measurement, false)
    }
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
        let mut stack: Vec<(IndexNode, Option<DeviceId>, usize)> = vec![(root.clone(), None, 0)];
        while let Some((node, device, depth)) = stack.pop() {
            if depth > MAX_INDEX_DEPTH {
                return Err(Error::new(ErrorKind::BadIndexNode, node.offset, format!("index deeper than {MAX_INDEX_DEPTH} levels")));
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
                    return Err(Error::new(ErrorKind::BadIndexOffset, entry.at, format!("region at {off} is referenced twice")));
                }
                visited[byte] |= bit;
                let bytes = &region[(off - lo) as usize..(end - lo) as usize];
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
                            (NodeType::LeafDevice, EntryKey::Device(d)) => Some(d.clone()),
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

fn parse_timeseries_run(c: &mut Cursor<'_>, table: &Option<Vec<u8>>, device: &DeviceId, out: &mut Vec<Series>) -> Result<()> {
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
                format!("chunk metadata list of {chunk_list_len} bytes runs past its region ({} bytes remain)", c.remaining()),
            ));
        }
        c.skip(chunk_list_len, "chunk metadata list")?;
        out.push(Series { table: table.clone(), device: device.clone(), measurement, data_type, offset });
    }
    Ok(())
}

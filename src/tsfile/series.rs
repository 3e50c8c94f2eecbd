//! What the index lists: one record per series (or aligned time column), with its
//! device, measurement and data type, and the path a writer hashes for it.

use std::sync::Arc;

closed_set! {
    pub enum DataType {
        Boolean => "BOOLEAN",
        Int32 => "INT32",
        Int64 => "INT64",
        Float => "FLOAT",
        Double => "DOUBLE",
        Text => "TEXT",
        /// The time column of an aligned device.
        Vector => "VECTOR",
        Timestamp => "TIMESTAMP",
        Date => "DATE",
        Blob => "BLOB",
        String => "STRING",
    }
}

impl DataType {
    /// The type of the byte TimeseriesMetadata stores (7 and above 11 name none).
    pub fn from_byte(b: u8) -> Option<DataType> {
        DataType::ALL.into_iter().find(|t| t.to_byte() == b)
    }

    /// The byte TimeseriesMetadata stores.
    pub fn to_byte(self) -> u8 {
        match self {
            DataType::Boolean => 0,
            DataType::Int32 => 1,
            DataType::Int64 => 2,
            DataType::Float => 3,
            DataType::Double => 4,
            DataType::Text => 5,
            DataType::Vector => 6,
            DataType::Timestamp => 8,
            DataType::Date => 9,
            DataType::Blob => 10,
            DataType::String => 11,
        }
    }

    /// Bytes of the typed part of Statistics after count/start/end, when fixed.
    pub(crate) fn fixed_statistics_len(self) -> Option<u64> {
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
    pub(crate) fn segment_refs(&self, drop_trailing_nulls: bool) -> Vec<Option<&[u8]>> {
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
}

/// One TimeseriesMetadata record: an indexed series, or the time column of an aligned device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Series {
    pub table: Option<Vec<u8>>,
    /// Shared by the records of one device (the walk makes it once): the listing tells
    /// devices apart by pointer, and a record costs no copy of its segments.
    pub device: Arc<DeviceId>,
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

    /// [`Series::path`] appended to `out`. Out of line: called once per record by the walk's
    /// consumers (see [`Paths`]).
    #[inline(never)]
    pub fn extend_path(&self, out: &mut Vec<u8>) {
        crate::path::extend_series_path(out, self.device.segments.iter().map(|s| s.as_deref()), &self.measurement)
    }
}

/// Every record's path as stored ([`Series::path`]), back to back: built once per walk and
/// shared by the audit, the listing's verdicts and the index lookup. (A path allocated per
/// series and per use was most of the wasm module's time to read a large index.)
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Paths {
    bytes: Vec<u8>,
    /// Record i's path is `bytes[bounds[i]..bounds[i + 1]]`.
    bounds: Vec<usize>,
}

impl Paths {
    pub fn new(series: &[Series]) -> Paths {
        let mut p =
            Paths { bytes: Vec::with_capacity(series.len() * 32), bounds: Vec::with_capacity(series.len() + 1) };
        p.bounds.push(0);
        for s in series {
            s.extend_path(&mut p.bytes);
            p.bounds.push(p.bytes.len());
        }
        p
    }

    pub fn len(&self) -> usize {
        self.bounds.len().saturating_sub(1)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Record `i`'s path.
    pub fn get(&self, i: usize) -> &[u8] {
        &self.bytes[self.bounds[i]..self.bounds[i + 1]]
    }

    /// Whether every path is ASCII. Path by path: a call per path is compiled optimised
    /// after a few calls, while one long loop would run in the engine's baseline code to the
    /// end (wasm has no on-stack replacement).
    pub fn is_ascii(&self) -> bool {
        (0..self.len()).all(|i| self.get(i).is_ascii())
    }
}

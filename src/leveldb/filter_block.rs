//! The filter block (table/filter_block.cc, docs/leveldb-filter.md §3): the filters one
//! after another, a fixed32 offset of each, the fixed32 offset of that array, and base_lg.
//! Filter i holds the keys of every data block whose start offset lies in
//! `[i << base_lg, (i + 1) << base_lg)`.

use std::ops::Range;

use super::BlockHandle;
use crate::bytes::Cursor;
use crate::error::{Error, ErrorKind, Result};

/// `kFilterBaseLg`: one filter per 2 KiB of data-block offsets.
pub const FILTER_BASE_LG: u8 = 11;

/// One filter of the filter block (serialized as the JS API's LevelDB filter objects).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "LevelDbFilterInfo"))]
pub struct FilterInfo {
    pub index: usize,
    /// Absolute file offset of the filter's first byte.
    pub offset: u64,
    /// Bytes, including the trailing k byte (0 for an empty filter).
    pub length: u64,
    /// The last byte (None for an empty filter). Above 30 means "reserved: may match".
    pub k: Option<u32>,
    /// `(length - 1) * 8`.
    pub bit_count: u64,
    pub set_bits: u64,
    /// Start offsets of the data blocks whose `offset >> base_lg` is this filter's index.
    pub data_block_offsets: Vec<u64>,
}

/// A validated filter block: its policy name and handle, its bytes, base_lg and where each
/// filter lies in them.
#[derive(Clone, Debug)]
pub struct FilterBlock {
    /// The policy name after `filter.` in the metaindex.
    pub policy: String,
    pub handle: BlockHandle,
    /// The last byte: filters cover `2^base_lg` bytes of data-block offsets each (11 from every
    /// LevelDB writer).
    pub base_lg: u8,
    data: Vec<u8>,
    filters: Vec<Range<usize>>,
}

impl FilterBlock {
    /// Validates a filter block. Stricter than LevelDB's `FilterBlockReader`, which quietly
    /// treats a bad block as "no filter" and bad offsets as "may match": an inspector reports
    /// them. `handle` says where the block is; `exact` as for `Block::parse` (writers store
    /// the filter block raw, but a compressed one is read, its positions then uncompressed).
    pub(crate) fn parse(data: Vec<u8>, handle: BlockHandle, policy: String, exact: bool) -> Result<FilterBlock> {
        let base = handle.offset;
        let at = |pos: u64| if exact { base + pos } else { base };
        let bad = |pos: u64, m: String| Error::new(ErrorKind::BadFilterBlock, at(pos), m);
        let n = data.len();
        // Cursor offsets are positions within the block; `at` maps them into the file.
        let mut c = Cursor::new(&data);
        let mut tail = c
            .take_last(5, "filter block trailer")
            .map_err(|_| bad(0, format!("a filter block needs at least 5 bytes, this one has {n}")))?;
        let array_at = tail.offset();
        let array_start = tail.u32_le("offset array start").map_err(|e| bad(e.at(), e.message))?;
        let lg_at = tail.offset();
        let lg = tail.u8("base_lg").map_err(|e| bad(e.at(), e.message))?;
        if lg >= 64 {
            return Err(bad(lg_at, format!("base_lg {lg} is not a usable shift")));
        }
        let data_len = c.remaining() as u64; // n - 5: filters and offset array
        if array_start as u64 > data_len {
            return Err(bad(
                array_at,
                format!("offset array starts at {array_start}, past the {data_len}-byte filter data"),
            ));
        }
        c.skip(array_start as u64, "filter data").map_err(|e| bad(e.at(), e.message))?;
        let array_len = c.remaining();
        if array_len % 4 != 0 {
            return Err(bad(array_start as u64, format!("offset array of {array_len} bytes is not whole fixed32s")));
        }
        let num = array_len / 4;
        if num == 0 && array_start != 0 {
            return Err(bad(array_at, format!("{array_start} bytes of filter data but no filter offsets")));
        }
        // Words w[0..num] are the filters' starts; filter i spans w[i]..w[i+1], the last one
        // ending where the array starts (the "offset of the offset array" word doubles as its
        // limit).
        let mut starts: Vec<u32> = Vec::with_capacity(num); // num <= n / 4: bounded by the block
        for i in 0..num {
            let pos = c.offset();
            let w = c.u32_le("filter offset").map_err(|e| bad(e.at(), e.message))?;
            if w > array_start {
                return Err(bad(pos, format!("filter {i} starts at {w}, past the {array_start} bytes of filter data")));
            }
            if i == 0 && w != 0 {
                return Err(bad(pos, format!("filter 0 starts at {w}, not 0")));
            }
            if let Some(&prev) = starts.last() {
                if w < prev {
                    return Err(bad(pos, format!("filter {i} starts at {w}, before filter {} ({prev})", i - 1)));
                }
            }
            starts.push(w);
        }
        let ends = starts.iter().skip(1).chain([&array_start]);
        let filters = starts.iter().zip(ends).map(|(&s, &e)| s as usize..e as usize).collect();
        Ok(FilterBlock { policy, handle, base_lg: lg, data, filters })
    }

    /// The whole block as stored.
    pub fn bytes(&self) -> &[u8] {
        &self.data
    }

    /// Each filter's position (start, end) within the block.
    pub(crate) fn ranges(&self) -> impl Iterator<Item = &Range<usize>> {
        self.filters.iter()
    }

    /// Filter `i` (bit bytes then k); None past the offset array.
    pub(crate) fn filter(&self, i: usize) -> Option<&[u8]> {
        self.data.get(self.filters.get(i)?.clone())
    }

    /// `FilterBlockReader::KeyMayMatch`'s choice: the filter for the data block that starts at
    /// `block_offset`.
    pub(crate) fn filter_index(&self, block_offset: u64) -> usize {
        (block_offset >> self.base_lg) as usize
    }
}

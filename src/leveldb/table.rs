//! The table (table/table.cc, table/format.cc, docs/leveldb-filter.md §4): the footer
//! points at the metaindex and index blocks; the metaindex names the filter block; the
//! index routes a key to its data block, and the block's offset picks its filter.

use std::cmp::Ordering;

use super::block::{read_block, Block, BlockHandle, Compression, BLOCK_TRAILER_LEN};
use super::filter_block::{FilterBlock, FilterInfo};
use super::hash::{bloom_hash, hash_legacy_signed, BLOOM_SEED};
use super::internal_key::{lookup_key, KeyFormat};
use super::policy::{probe_filter_with, FilterProbe, ProbeBit, ProbeReason, LEGACY_POLICY_NAME, POLICY_NAME};
use crate::bytes::Cursor;
use crate::error::{hex, Error, ErrorKind, Result};
use crate::filter::Verdict;
use crate::source::ReadAt;

/// Metaindex key prefix of a filter block: `"filter." + policy name`.
pub const FILTER_META_PREFIX: &[u8] = b"filter.";
/// fixed64 LE at the end of every table (first 64 bits of sha1 of LevelDB's old home page).
pub const TABLE_MAGIC: u64 = 0xdb47_7524_8b80_fb57;
pub const FOOTER_LEN: u64 = 48;

/// The footer (`Footer`): the metaindex and index handles, zero padding to 40 bytes, then
/// the magic.
struct Footer {
    metaindex_handle: BlockHandle,
    index_handle: BlockHandle,
}

impl Footer {
    /// Reads and checks the footer at the end of the file: magic first, then both handles,
    /// each of which must end before the footer.
    fn read<R: ReadAt + ?Sized>(src: &R, file_size: u64) -> Result<Footer> {
        if file_size < FOOTER_LEN {
            return Err(Error::new(
                ErrorKind::TooShort,
                0,
                format!("{file_size} bytes cannot hold a LevelDB table's 48-byte footer"),
            ));
        }
        let footer_at = file_size - FOOTER_LEN;
        let footer = src.read_at(footer_at, FOOTER_LEN as usize)?;
        if footer.len() as u64 != FOOTER_LEN {
            return Err(Error::new(ErrorKind::Io, footer_at, "short read of the footer"));
        }
        let mut c = Cursor::with_base(&footer, footer_at);
        let mut magic = c.take_last(8, "table magic")?;
        let magic_at = magic.offset();
        let magic = magic.u64_le("table magic")?;
        if magic != TABLE_MAGIC {
            return Err(Error::new(
                ErrorKind::BadFooterMagic,
                magic_at,
                format!("table magic is {magic:#018x}, not {TABLE_MAGIC:#018x}"),
            ));
        }
        let mut handle = |what: &str| -> Result<BlockHandle> {
            let at = c.offset();
            let h = BlockHandle::decode(&mut c, what).map_err(|mut e| {
                e.kind = ErrorKind::BadBlockHandle;
                e.message = format!("{what}: {}", e.message);
                e
            })?;
            h.check(footer_at, at, what)?;
            Ok(h)
        };
        let metaindex_handle = handle("metaindex handle")?;
        let index_handle = handle("index handle")?;
        Ok(Footer { metaindex_handle, index_handle })
    }
}

/// One data block, as the index block lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataBlock {
    /// The index separator: >= every key in this block, < every key of the next one.
    pub separator: Vec<u8>,
    pub handle: BlockHandle,
    /// `handle.offset >> base_lg` (None without a filter block).
    pub filter_index: Option<usize>,
}

/// One metaindex entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetaEntry {
    pub key: Vec<u8>,
    pub handle: BlockHandle,
}

/// One entry of a data block, as `LevelDbTable::data_block_entries` reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockEntry {
    /// The user key (the stored key without its 8-byte tag in a DB table).
    pub user_key: Vec<u8>,
    /// The tag's sequence number and type (1 = value, 0 = deletion) in a DB table; `None` for
    /// a table of user keys.
    pub sequence: Option<u64>,
    pub value_type: Option<u8>,
}

/// Result of routing a user key through the index to its filter (serialized as the JS API's
/// LevelDB probe result, camelCase keys).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "LevelDbProbeResult"))]
pub struct LevelDbProbe {
    /// What LevelDB's `Table::InternalGet` would conclude before reading the data block:
    /// `Absent` means it never reads the block.
    pub verdict: Verdict,
    pub reason: ProbeReason,
    /// The verdict and its reason in words ([`ProbeReason::sentence`]).
    pub sentence: &'static str,
    /// Index of the data block in `LevelDbTable::data_blocks`.
    pub block_index: Option<usize>,
    /// The data block's handle.
    pub data_block: Option<BlockHandle>,
    pub filter_index: Option<usize>,
    /// The hash probed (`BloomHash` of the user key, or the legacy policy's hash).
    pub hash: u32,
    /// The k double-hashing positions (empty without a filter to probe).
    pub probes: Vec<ProbeBit>,
}

#[derive(Clone, Debug)]
pub struct LevelDbTable {
    pub file_size: u64,
    pub metaindex_handle: BlockHandle,
    pub index_handle: BlockHandle,
    pub metaindex_compression: Compression,
    pub index_compression: Compression,
    pub meta_entries: Vec<MetaEntry>,
    /// The filter block with its policy name and handle (None when the table has no filter).
    pub filter_block: Option<FilterBlock>,
    pub filters: Vec<FilterInfo>,
    pub data_blocks: Vec<DataBlock>,
    pub key_format: KeyFormat,
}

impl LevelDbTable {
    /// Reads the footer, metaindex, filter block and index block. The key format is detected
    /// from the index separators (every one >= 8 bytes with a type byte of 0 or 1 → internal).
    pub fn open<R: ReadAt + ?Sized>(src: &R) -> Result<LevelDbTable> {
        let file_size = src.size()?;
        let Footer { metaindex_handle, index_handle } = Footer::read(src, file_size)?;
        let footer_at = file_size - FOOTER_LEN;
        let (meta_entries, metaindex_compression) = read_metaindex(src, metaindex_handle)?;
        let filter_block = read_filter_block(src, &meta_entries, footer_at, metaindex_handle.offset)?;
        // Data blocks come first in the file, so each must end before the first of the other blocks.
        let data_end = filter_block
            .as_ref()
            .map(|f| f.handle.offset)
            .into_iter()
            .chain(meta_entries.iter().map(|m| m.handle.offset))
            .chain([metaindex_handle.offset, index_handle.offset])
            .min()
            .unwrap_or(footer_at);
        let index = read_index(src, index_handle, data_end, filter_block.as_ref())?;
        let filters = filter_block.as_ref().map_or_else(Vec::new, |fb| filter_infos(fb, &index.data_blocks));
        Ok(LevelDbTable {
            file_size,
            metaindex_handle,
            index_handle,
            metaindex_compression,
            index_compression: index.compression,
            meta_entries,
            filter_block,
            filters,
            data_blocks: index.data_blocks,
            key_format: index.key_format,
        })
    }

    /// The bytes of filter `i` (bit bytes then the k byte), as stored.
    pub fn filter_bytes(&self, i: usize) -> Option<&[u8]> {
        self.filter_block.as_ref()?.filter(i)
    }

    /// The policy name after `filter.` in the metaindex (None when the table has no filter).
    pub fn filter_policy(&self) -> Option<&str> {
        Some(&self.filter_block.as_ref()?.policy)
    }

    /// Whether this reader knows how to probe the table's filter policy.
    pub fn policy_supported(&self) -> bool {
        matches!(self.filter_policy(), Some(POLICY_NAME) | Some(LEGACY_POLICY_NAME))
    }

    /// Index of the data block `Table::InternalGet` would read for `user_key`: the first
    /// whose separator >= the lookup key.
    pub fn route(&self, user_key: &[u8]) -> Option<usize> {
        let target = match self.key_format {
            KeyFormat::Internal => lookup_key(user_key),
            KeyFormat::User => user_key.to_vec(),
        };
        let i = self.data_blocks.partition_point(|d| self.key_format.compare(&d.separator, &target) == Ordering::Less);
        (i < self.data_blocks.len()).then_some(i)
    }

    /// Routes `user_key` through the index to its data block and probes that block's filter,
    /// as `Table::InternalGet` → `FilterBlockReader::KeyMayMatch` → `BloomFilterPolicy` do.
    pub fn probe(&self, user_key: &[u8]) -> LevelDbProbe {
        let legacy = self.filter_policy() == Some(LEGACY_POLICY_NAME);
        let h = if legacy { hash_legacy_signed(user_key, BLOOM_SEED) } else { bloom_hash(user_key) };
        let block_index = self.route(user_key);
        let block = block_index.and_then(|i| self.data_blocks.get(i));
        let filter_index = block.and_then(|b| b.filter_index).filter(|_| self.policy_supported());
        let fp = match (block, filter_index) {
            (None, _) => FilterProbe::without_bits(h, Verdict::Absent, ProbeReason::PastLastBlock),
            (Some(_), None) => FilterProbe::without_bits(h, Verdict::Maybe, ProbeReason::NoFilter),
            (Some(_), Some(fi)) => match self.filter_bytes(fi) {
                Some(bytes) => probe_filter_with(h, bytes),
                None => FilterProbe::without_bits(h, Verdict::Maybe, ProbeReason::FilterMissing),
            },
        };
        LevelDbProbe {
            verdict: fp.verdict,
            reason: fp.reason,
            sentence: fp.sentence,
            block_index,
            data_block: block.map(|b| b.handle),
            filter_index,
            hash: h,
            probes: fp.probes,
        }
    }

    /// Reads data block `i` from `src` (the table it was opened from), checksum checked and
    /// Snappy undone, and lists its entries in order: what `Table::InternalGet` searches after
    /// the filter said "may match".
    pub fn data_block_entries<R: ReadAt + ?Sized>(&self, src: &R, i: usize) -> Result<Vec<BlockEntry>> {
        let Some(d) = self.data_blocks.get(i) else {
            return Err(Error::invalid_argument(format!(
                "data block {i} does not exist (the table has {})",
                self.data_blocks.len()
            )));
        };
        let (raw, comp) = read_block(src, d.handle, "data block")?;
        let block = Block::parse(raw, d.handle.offset, comp == Compression::None, "data block")?;
        Ok(block
            .entries()
            .map(|e| match (self.key_format, super::internal_key::parse_internal_key(e.key)) {
                (KeyFormat::Internal, Some(p)) => BlockEntry {
                    user_key: p.user_key.to_vec(),
                    sequence: Some(p.sequence),
                    value_type: Some(p.value_type),
                },
                _ => BlockEntry { user_key: e.key.to_vec(), sequence: None, value_type: None },
            })
            .collect())
    }

    /// The number of filters LevelDB's FilterBlockBuilder emits for this table's data blocks:
    /// max(floor(end_of_data / 2^base_lg), index of the last block's window + 1) (§3).
    pub fn expected_filter_count(&self) -> Option<usize> {
        let lg = self.filter_block.as_ref()?.base_lg;
        let last = self.data_blocks.last()?;
        let end = last.handle.offset + last.handle.size + BLOCK_TRAILER_LEN;
        Some(((end >> lg) as usize).max((last.handle.offset >> lg) as usize + 1))
    }
}

/// The metaindex (`Table::ReadMeta`): one entry per meta block, key → block handle.
fn read_metaindex<R: ReadAt + ?Sized>(src: &R, handle: BlockHandle) -> Result<(Vec<MetaEntry>, Compression)> {
    let (raw, compression) = read_block(src, handle, "metaindex block")?;
    let meta = Block::parse(raw, handle.offset, compression == Compression::None, "metaindex block")?;
    let mut entries = Vec::with_capacity(meta.len());
    for e in meta.entries() {
        let mut vc = Cursor::with_base(e.value, handle.offset + e.value_at as u64);
        let h = BlockHandle::decode(&mut vc, "meta block handle").map_err(|mut e| {
            e.kind = ErrorKind::BadBlockHandle;
            e
        })?;
        entries.push(MetaEntry { key: e.key.to_vec(), handle: h });
    }
    Ok((entries, compression))
}

/// The filter block: the first `filter.` entry's, with its policy name and handle. LevelDB
/// loads it only under its own policy's name; we read any, and `policy_supported` says whether
/// we can probe it.
fn read_filter_block<R: ReadAt + ?Sized>(
    src: &R,
    meta_entries: &[MetaEntry],
    footer_at: u64,
    metaindex_at: u64,
) -> Result<Option<FilterBlock>> {
    let Some(m) = meta_entries.iter().find(|m| m.key.starts_with(FILTER_META_PREFIX)) else { return Ok(None) };
    let h = m.handle;
    h.check(footer_at, metaindex_at, "filter block handle")?;
    let name = m.key.get(FILTER_META_PREFIX.len()..).unwrap_or_default();
    let (bytes, comp) = read_block(src, h, "filter block")?;
    let policy = String::from_utf8_lossy(name).into_owned();
    FilterBlock::parse(bytes, h, policy, comp == Compression::None).map(Some)
}

/// The index block as [`read_index`] reads it.
struct Index {
    data_blocks: Vec<DataBlock>,
    key_format: KeyFormat,
    compression: Compression,
}

/// The index block: one entry per data block, separator → handle; each block must end by
/// `data_end`, start after the previous one, and its separator sort after the previous one.
fn read_index<R: ReadAt + ?Sized>(
    src: &R,
    handle: BlockHandle,
    data_end: u64,
    filter_block: Option<&FilterBlock>,
) -> Result<Index> {
    let (raw, compression) = read_block(src, handle, "index block")?;
    let exact = compression == Compression::None;
    let index = Block::parse(raw, handle.offset, exact, "index block")?;
    let key_format = KeyFormat::detect(index.entries().map(|e| e.key));
    let mut data_blocks: Vec<DataBlock> = Vec::with_capacity(index.len());
    for (i, e) in index.entries().enumerate() {
        let vbase = handle.offset + e.value_at as u64;
        let at = if exact { vbase } else { handle.offset };
        let mut vc = Cursor::with_base(e.value, vbase);
        let h = BlockHandle::decode(&mut vc, "data block handle")
            .map_err(|e| Error::new(ErrorKind::BadBlockHandle, at, e.message))?;
        h.check(data_end, at, "data block handle")?;
        if let Some(prev) = data_blocks.last() {
            // Checked against data_end above, so this cannot overflow.
            let prev_end = prev.handle.offset + prev.handle.size + BLOCK_TRAILER_LEN;
            if h.offset < prev_end {
                return Err(Error::new(
                    ErrorKind::BadBlockHandle,
                    at,
                    format!("data block {i} at {} overlaps or precedes block {} (ends at {prev_end})", h.offset, i - 1),
                ));
            }
            if key_format.compare(&prev.separator, e.key) != Ordering::Less {
                return Err(Error::new(
                    ErrorKind::BadBlock,
                    at,
                    format!("index key {i} ({}) does not sort after the previous one", hex(e.key)),
                ));
            }
        }
        let filter_index = filter_block.map(|f| f.filter_index(h.offset));
        data_blocks.push(DataBlock { separator: e.key.to_vec(), handle: h, filter_index });
    }
    Ok(Index { data_blocks, key_format, compression })
}

/// Each filter of the filter block: where it is, its k, bits and set bits, and the data
/// blocks whose offsets pick it.
fn filter_infos(fb: &FilterBlock, data_blocks: &[DataBlock]) -> Vec<FilterInfo> {
    let lg = fb.base_lg;
    fb.ranges()
        .enumerate()
        .map(|(i, r)| {
            let f = fb.filter(i).unwrap_or_default();
            let set_bits = match f.split_last() {
                Some((_, bits)) if !bits.is_empty() => bits.iter().map(|b| b.count_ones() as u64).sum(),
                _ => 0,
            };
            FilterInfo {
                index: i,
                offset: fb.handle.offset + r.start as u64,
                length: (r.end - r.start) as u64,
                k: f.last().map(|&k| k as u32),
                bit_count: (f.len().saturating_sub(1) as u64) * 8,
                set_bits,
                data_block_offsets: data_blocks
                    .iter()
                    .filter(|d| d.handle.offset >> lg == i as u64)
                    .map(|d| d.handle.offset)
                    .collect(),
            }
        })
        .collect()
}

//! Blocks (table/format.cc, table/block.cc, docs/leveldb-filter.md §4): a `BlockHandle`
//! says where a block is; after its stored bytes come a 5-byte trailer (compression type,
//! masked CRC32C); the contents are prefix-compressed entries followed by a restart array.

use std::ops::Range;

use crate::bytes::Cursor;
use crate::error::{Error, ErrorKind, Result};
use crate::source::ReadAt;

/// Compression type byte + masked CRC32C after every block.
pub const BLOCK_TRAILER_LEN: u64 = 5;

const CRC32C: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI);
const CRC_MASK_DELTA: u32 = 0xa282_ead8;

/// A `BlockHandle`: where a block's stored bytes start and how many there are (the 5-byte
/// trailer follows and is not counted).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "BlockHandleInfo"))]
pub struct BlockHandle {
    pub offset: u64,
    pub size: u64,
}

impl BlockHandle {
    /// `BlockHandle::DecodeFrom`: varint64 offset, then varint64 size.
    pub(crate) fn decode(c: &mut Cursor<'_>, what: &str) -> Result<BlockHandle> {
        let offset = c.varint64(what)?;
        let size = c.varint64(what)?;
        Ok(BlockHandle { offset, size })
    }

    /// The file offset just past the block's trailer (None when it overflows).
    pub(crate) fn end(&self) -> Option<u64> {
        self.offset.checked_add(self.size)?.checked_add(BLOCK_TRAILER_LEN)
    }

    /// Checks that the block and its trailer end at or before `limit`, so that reading it
    /// (and allocating for it) is bounded by the file.
    pub(crate) fn check(&self, limit: u64, at: u64, what: &str) -> Result<()> {
        match self.end() {
            Some(end) if end <= limit => Ok(()),
            _ => Err(Error::new(
                ErrorKind::BadBlockHandle,
                at,
                format!(
                    "{what}: block at {} of {} bytes (+5 trailer) does not end by byte {limit}",
                    self.offset, self.size
                ),
            )),
        }
    }
}

closed_set! {
    /// Compression of a stored block (the trailer's type byte).
    pub enum Compression as LevelDbCompression {
        None => "none",
        Snappy => "snappy",
    }
}

/// `crc32c::Unmask`.
pub fn unmask_crc(masked: u32) -> u32 {
    masked.wrapping_sub(CRC_MASK_DELTA).rotate_left(15)
}

/// `crc32c::Mask`: stored CRCs are masked because CRCs of data that embeds CRCs are weak.
pub fn mask_crc(crc: u32) -> u32 {
    crc.rotate_right(15).wrapping_add(CRC_MASK_DELTA)
}

/// CRC32C (Castagnoli) of `data` then `more`.
pub fn crc32c(data: &[u8], more: &[u8]) -> u32 {
    let mut d = CRC32C.digest();
    d.update(data);
    d.update(more);
    d.finalize()
}

/// Snappy's largest expansion: a 3-byte copy-2 element yields at most 64 bytes.
const SNAPPY_MAX_RATIO: u64 = 22;

/// `ReadBlock`: reads a block and its trailer, checks the CRC (over the stored bytes and the
/// type byte), and returns the uncompressed contents. The caller has checked `h` against the
/// file size, so the read is bounded by the file.
pub(crate) fn read_block<R: ReadAt + ?Sized>(src: &R, h: BlockHandle, what: &str) -> Result<(Vec<u8>, Compression)> {
    let len = h.size + BLOCK_TRAILER_LEN;
    let mut raw = src.read_at(h.offset, len as usize)?;
    if raw.len() as u64 != len {
        return Err(Error::new(ErrorKind::Io, h.offset, format!("{what}: short read")));
    }
    let mut c = Cursor::with_base(&raw, h.offset);
    let mut trailer = c.take_last(BLOCK_TRAILER_LEN, what)?;
    let stored_bytes = c.take(h.size, what)?;
    let type_byte = trailer.u8("compression type")?;
    let stored = unmask_crc(trailer.u32_le("block CRC")?);
    let actual = crc32c(stored_bytes, &[type_byte]);
    if stored != actual {
        return Err(Error::new(
            ErrorKind::BadChecksum,
            h.offset + h.size + 1,
            format!("{what}: block CRC32C is {actual:#010x} but the trailer says {stored:#010x}"),
        ));
    }
    match type_byte {
        0 => {
            raw.truncate(h.size as usize);
            Ok((raw, Compression::None))
        }
        1 => {
            let bad = |m: String| Error::new(ErrorKind::BadBlock, h.offset, format!("{what}: {m}"));
            let out_len =
                snap::raw::decompress_len(stored_bytes).map_err(|e| bad(format!("bad Snappy header: {e}")))?;
            // Bound the allocation by what the stored bytes can expand to.
            if out_len as u64 > h.size.saturating_mul(SNAPPY_MAX_RATIO) {
                return Err(bad(format!(
                    "Snappy claims {out_len} bytes from {}, more than the format can expand",
                    h.size
                )));
            }
            let mut out = vec![0u8; out_len];
            let got = snap::raw::Decoder::new()
                .decompress(stored_bytes, &mut out)
                .map_err(|e| bad(format!("bad Snappy data: {e}")))?;
            out.truncate(got);
            Ok((out, Compression::Snappy))
        }
        t => Err(Error::new(
            ErrorKind::UnsupportedCompression,
            h.offset + h.size,
            format!("{what}: compression type {t} (0 = none and 1 = Snappy are supported; 2 is zstd)"),
        )),
    }
}

/// One entry of a block, with its key's shared prefix restored.
pub(crate) struct Entry<'a> {
    pub key: &'a [u8],
    pub value: &'a [u8],
    /// Position of the value within the block contents.
    pub value_at: usize,
}

/// A parsed block (table/block.cc): `(key, value)` entries with prefix compression undone.
pub(crate) struct Block {
    data: Vec<u8>,
    entries: Vec<(Vec<u8>, Range<usize>)>,
}

impl Block {
    /// Parses block contents. `base` is the file offset of the stored block, used for error
    /// offsets: exact for uncompressed blocks (`exact`), the block's start for Snappy ones,
    /// whose positions are in the uncompressed bytes.
    pub(crate) fn parse(data: Vec<u8>, base: u64, exact: bool, what: &str) -> Result<Block> {
        let at = |pos: u64| if exact { base + pos } else { base };
        let bad = |pos: u64, m: String| Error::new(ErrorKind::BadBlock, at(pos), format!("{what}: {m}"));
        let n = data.len();
        // Cursor offsets are positions within the contents; `at` maps them into the file.
        let mut c = Cursor::new(&data);

        // The end of the block: fixed32 restart offsets, then their count (fixed32).
        let num_restarts = c
            .take_last(4, "restart count")
            .and_then(|mut t| t.u32_le("restart count"))
            .map_err(|_| bad(0, format!("a block needs at least 4 bytes, this one has {n}")))?;
        if num_restarts as u64 > c.remaining() as u64 / 4 {
            return Err(bad(n as u64 - 4, format!("{num_restarts} restart points cannot fit in {n} bytes")));
        }
        let mut array = c.take_last(4 * num_restarts as u64, "restart array").map_err(|e| bad(e.at(), e.message))?;
        let restart_offset = array.offset();

        // Entries: varint32 shared, varint32 non_shared, varint32 value_len (`uvarint`: the same LEB128),
        // key delta, value.
        // Materialized keys may repeat shared prefixes; bound their total so a hostile block
        // cannot make us build far more than it holds.
        let key_budget = (n as u64).saturating_mul(16).saturating_add(1 << 16);
        let mut key_bytes: u64 = 0;
        let mut entries: Vec<(Vec<u8>, Range<usize>)> = Vec::new();
        let mut full_key_starts: Vec<u64> = Vec::new(); // entries stored with shared == 0
        let mut prev: Vec<u8> = Vec::new();
        while !c.is_empty() {
            let start = c.offset();
            let field = |e: Error| bad(start, format!("entry at block byte {start}: {}", e.message));
            let shared = c.uvarint("shared key length").map_err(field)? as usize;
            let non_shared = c.uvarint("unshared key length").map_err(field)? as u64;
            let value_len = c.uvarint("value length").map_err(field)? as u64;
            let Some(prefix) = prev.get(..shared) else {
                return Err(bad(start, format!("entry shares {shared} bytes with a {}-byte previous key", prev.len())));
            };
            if non_shared.saturating_add(value_len) > c.remaining() as u64 {
                return Err(bad(
                    start,
                    format!("entry of {non_shared}+{value_len} bytes overruns the block ({} remain)", c.remaining()),
                ));
            }
            let delta = c.take(non_shared, "key").map_err(field)?;
            let value_at = c.position();
            c.skip(value_len, "value").map_err(field)?;
            let mut key = Vec::with_capacity(shared + delta.len());
            key.extend_from_slice(prefix);
            key.extend_from_slice(delta);
            key_bytes += key.len() as u64;
            if key_bytes > key_budget {
                return Err(bad(start, "prefix-shared keys expand far beyond the block's size".into()));
            }
            if shared == 0 {
                full_key_starts.push(start);
            }
            prev.clone_from(&key);
            entries.push((key, value_at..c.position()));
        }

        // Restart points: increasing, each the start of an entry stored without a shared
        // prefix (an empty block has the single restart 0).
        let (mut first, mut last): (Option<u32>, Option<u32>) = (None, None);
        for i in 0..num_restarts {
            let pos = array.offset();
            let r = array.u32_le("restart point").map_err(|e| bad(e.at(), e.message))?;
            let ok = (entries.is_empty() && r == 0) || full_key_starts.binary_search(&(r as u64)).is_ok();
            if !ok || last.is_some_and(|l| r <= l) {
                return Err(bad(pos, format!("restart point {i} ({r}) is not the start of a full key")));
            }
            first = first.or(Some(r));
            last = Some(r);
        }
        if !entries.is_empty() && first != Some(0) {
            return Err(bad(restart_offset, "the first restart point is not 0".into()));
        }
        Ok(Block { data, entries })
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    pub(crate) fn entries(&self) -> impl Iterator<Item = Entry<'_>> {
        self.entries.iter().map(|(key, v)| Entry {
            key,
            // The range was cut from `data` by `parse`; empty would only fail the handle decode.
            value: self.data.get(v.clone()).unwrap_or_default(),
            value_at: v.start,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_mask_round_trip() {
        // crc32c of "123456789" is 0xe3069283 (the Castagnoli check value).
        assert_eq!(crc32c(b"123456789", &[]), 0xe3069283);
        for v in [0u32, 1, 0xe3069283, u32::MAX] {
            assert_eq!(unmask_crc(mask_crc(v)), v);
            assert_ne!(mask_crc(v), v);
        }
    }
}

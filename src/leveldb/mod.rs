//! LevelDB's Bloom filter (`leveldb.BuiltinBloomFilter2`) and just enough of its
//! table format (`.ldb`/`.sst`) to find and probe the filters: footer → metaindex →
//! filter block, and the index block that routes a key to a data block and so to a
//! filter. Byte-level facts: docs leveldb-filter.md (sections cited as §n).
//!
//! Every structure is checked against the bytes present before it is used: errors are
//! typed with an absolute file offset, nothing panics on hostile input, and no
//! allocation is sized by a stored length before that length is checked against the
//! file (Snappy output is bounded by the format's maximum expansion first).

use crate::bytes::Cursor;
use crate::error::{push_hex, Error, ErrorKind, Result};
use crate::filter::Verdict;
use crate::source::ReadAt;

/// Seed of `BloomHash` (util/bloom.cc).
pub const BLOOM_SEED: u32 = 0xbc9f_1d34;
/// Name of the builtin policy since LevelDB 1.18 (unsigned tail bytes).
pub const POLICY_NAME: &str = "leveldb.BuiltinBloomFilter2";
/// Name before 1.18, whose hash sign-extended tail bytes >= 0x80 (x86 `char`).
pub const LEGACY_POLICY_NAME: &str = "leveldb.BuiltinBloomFilter";
/// Metaindex key prefix of a filter block: `"filter." + policy name`.
pub const FILTER_META_PREFIX: &[u8] = b"filter.";
/// fixed64 LE at the end of every table (first 64 bits of sha1 of LevelDB's old home page).
pub const TABLE_MAGIC: u64 = 0xdb47_7524_8b80_fb57;
pub const FOOTER_LEN: u64 = 48;
/// Compression type byte + masked CRC32C after every block.
pub const BLOCK_TRAILER_LEN: u64 = 5;
/// `kFilterBaseLg`: one filter per 2 KiB of data-block offsets.
pub const FILTER_BASE_LG: u8 = 11;
/// `kMaxSequenceNumber` (2^56 - 1).
pub const MAX_SEQUENCE: u64 = (1 << 56) - 1;
/// `kValueTypeForSeek` (= kTypeValue).
pub const VALUE_TYPE_FOR_SEEK: u8 = 1;
/// Largest k the reader probes; bigger values are reserved and read as "may match".
pub const MAX_K: u32 = 30;

const CRC32C: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI);
const CRC_MASK_DELTA: u32 = 0xa282_ead8;

// ---------------------------------------------------------------------------------------
// Hash and Bloom policy (§1, §2)
// ---------------------------------------------------------------------------------------

/// LevelDB's `Hash(data, n, seed)` (util/hash.cc): murmur-like, little-endian words,
/// tail bytes unsigned (LevelDB >= 1.18).
pub fn hash(data: &[u8], seed: u32) -> u32 {
    hash_impl(data, seed, false)
}

/// The pre-1.18 hash: tail bytes went through signed `char` (sign-extended on x86).
pub fn hash_legacy_signed(data: &[u8], seed: u32) -> u32 {
    hash_impl(data, seed, true)
}

fn hash_impl(data: &[u8], seed: u32, signed_tail: bool) -> u32 {
    const M: u32 = 0xc6a4_a793;
    const R: u32 = 24;
    let mut h = seed ^ (data.len() as u32).wrapping_mul(M);
    let mut words = data.chunks_exact(4);
    for w in &mut words {
        h = h.wrapping_add(u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
        h = h.wrapping_mul(M);
        h ^= h >> 16;
    }
    let tail = words.remainder();
    let b = |i: usize| -> u32 {
        if signed_tail {
            tail[i] as i8 as i32 as u32
        } else {
            tail[i] as u32
        }
    };
    if !tail.is_empty() {
        if tail.len() >= 3 {
            h = h.wrapping_add(b(2) << 16);
        }
        if tail.len() >= 2 {
            h = h.wrapping_add(b(1) << 8);
        }
        h = h.wrapping_add(b(0));
        h = h.wrapping_mul(M);
        h ^= h >> R;
    }
    h
}

/// `BloomHash(key)` = `Hash(key, n, 0xbc9f1d34)`.
pub fn bloom_hash(key: &[u8]) -> u32 {
    hash(key, BLOOM_SEED)
}

/// k for a bits_per_key, as the C++ constructor computes it: `(size_t)(bits_per_key * 0.69)`
/// (truncating), clamped to [1, 30].
pub fn k_for_bits_per_key(bits_per_key: u32) -> u32 {
    ((bits_per_key as f64 * 0.69) as u64).clamp(1, MAX_K as u64) as u32
}

/// `NewBloomFilterPolicy(bits_per_key)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BloomFilterPolicy {
    bits_per_key: u32,
    k: u32,
}

impl BloomFilterPolicy {
    pub fn new(bits_per_key: u32) -> BloomFilterPolicy {
        BloomFilterPolicy { bits_per_key, k: k_for_bits_per_key(bits_per_key) }
    }

    pub fn name(&self) -> &'static str {
        POLICY_NAME
    }

    pub fn bits_per_key(&self) -> u32 {
        self.bits_per_key
    }

    pub fn k(&self) -> u32 {
        self.k
    }

    /// `CreateFilter`: appends one filter for `keys` (duplicates count) to `dst`:
    /// `max(64, n * bits_per_key)` bits rounded up to bytes, then one byte of k.
    pub fn create_filter_into<K: AsRef<[u8]>>(&self, keys: &[K], dst: &mut Vec<u8>) {
        let bits = (keys.len() as u64).saturating_mul(self.bits_per_key as u64).max(64);
        let bytes = bits.div_ceil(8);
        let bits = bytes * 8;
        let start = dst.len();
        dst.resize(start + bytes as usize, 0);
        dst.push(self.k as u8);
        let array = &mut dst[start..start + bytes as usize];
        for key in keys {
            let mut h = bloom_hash(key.as_ref());
            let delta = h.rotate_right(17);
            for _ in 0..self.k {
                let bitpos = (h as u64 % bits) as usize;
                array[bitpos / 8] |= 1 << (bitpos % 8);
                h = h.wrapping_add(delta);
            }
        }
    }

    pub fn create_filter<K: AsRef<[u8]>>(&self, keys: &[K]) -> Vec<u8> {
        let mut v = Vec::new();
        self.create_filter_into(keys, &mut v);
        v
    }
}

/// One probed bit of a LevelDB filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbeBit {
    pub bit: u64,
    pub set: bool,
}

/// Why a probe answered the way it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeReason {
    /// The probed bits decided (absent at the first clear bit; maybe when all are set).
    Bits,
    /// The filter is shorter than 2 bytes (an empty filter): LevelDB answers "no match".
    EmptyFilter,
    /// The stored k is above 30: reserved for future encodings, LevelDB answers "may match".
    ReservedK,
    /// The key sorts after the table's last index separator: LevelDB finds no data block.
    PastLastBlock,
    /// The table has no filter block (no policy, or one this reader does not know).
    NoFilter,
    /// The data block's filter index is past the filter block's offset array: LevelDB treats
    /// that as an error and answers "may match".
    FilterMissing,
}

impl ProbeReason {
    pub fn as_str(self) -> &'static str {
        match self {
            ProbeReason::Bits => "bits",
            ProbeReason::EmptyFilter => "empty_filter",
            ProbeReason::ReservedK => "reserved_k",
            ProbeReason::PastLastBlock => "past_last_block",
            ProbeReason::NoFilter => "no_filter",
            ProbeReason::FilterMissing => "filter_missing",
        }
    }
}

/// A probe of one filter (`KeyMayMatch` with every probe position shown).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilterProbe {
    pub verdict: Verdict,
    pub reason: ProbeReason,
    /// The k double-hashing positions, in probe order. LevelDB stops at the first clear bit;
    /// all k are listed here (`verdict` is what LevelDB answers).
    pub probes: Vec<ProbeBit>,
}

/// `KeyMayMatch(key, filter)` with LevelDB's read rules: length < 2 → no match; k (the last
/// byte) > 30 → match; else probe `h + i*delta mod bits` for i in 0..k.
pub fn probe_filter(key: &[u8], filter: &[u8]) -> FilterProbe {
    probe_filter_with(bloom_hash(key), filter)
}

fn probe_filter_with(h: u32, filter: &[u8]) -> FilterProbe {
    let len = filter.len();
    if len < 2 {
        return FilterProbe { verdict: Verdict::Absent, reason: ProbeReason::EmptyFilter, probes: Vec::new() };
    }
    let bits = (len as u64 - 1) * 8;
    let k = filter[len - 1] as u32;
    if k > MAX_K {
        return FilterProbe { verdict: Verdict::Maybe, reason: ProbeReason::ReservedK, probes: Vec::new() };
    }
    let mut h = h;
    let delta = h.rotate_right(17);
    let mut probes = Vec::with_capacity(k as usize);
    let mut verdict = Verdict::Maybe;
    for _ in 0..k {
        let bit = h as u64 % bits;
        let set = filter[(bit / 8) as usize] & (1 << (bit % 8)) != 0;
        if !set {
            verdict = Verdict::Absent;
        }
        probes.push(ProbeBit { bit, set });
        h = h.wrapping_add(delta);
    }
    FilterProbe { verdict, reason: ProbeReason::Bits, probes }
}

/// `KeyMayMatch` as a boolean.
pub fn key_may_match(key: &[u8], filter: &[u8]) -> bool {
    probe_filter(key, filter).verdict == Verdict::Maybe
}

// ---------------------------------------------------------------------------------------
// Primitive encodings (util/coding.h)
// ---------------------------------------------------------------------------------------

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// varint64: at most 10 bytes; values above 2^64-1 are rejected.
fn varint64(c: &mut Cursor<'_>, what: &str) -> Result<u64> {
    let start = c.offset();
    let mut v: u64 = 0;
    for i in 0..10 {
        let b = c.u8(what)?;
        let part = (b & 0x7f) as u64;
        if i == 9 && part > 1 {
            return Err(Error::new(ErrorKind::BadVarint, start, format!("{what}: varint64 exceeds 2^64-1")));
        }
        v |= part << (7 * i);
        if b & 0x80 == 0 {
            return Ok(v);
        }
    }
    Err(Error::new(ErrorKind::BadVarint, start, format!("{what}: varint64 longer than 10 bytes")))
}

fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    push_hex(&mut s, bytes, false);
    s
}

// ---------------------------------------------------------------------------------------
// Blocks (table/format.cc, table/block.cc)
// ---------------------------------------------------------------------------------------

/// A `BlockHandle`: where a block's stored bytes start and how many there are (the 5-byte
/// trailer follows and is not counted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockHandle {
    pub offset: u64,
    pub size: u64,
}

impl BlockHandle {
    fn decode(c: &mut Cursor<'_>, what: &str) -> Result<BlockHandle> {
        let offset = varint64(c, what)?;
        let size = varint64(c, what)?;
        Ok(BlockHandle { offset, size })
    }

    /// Checks that the block and its trailer end at or before `limit`.
    fn check(&self, limit: u64, at: u64, what: &str) -> Result<()> {
        let end = self.offset.checked_add(self.size).and_then(|e| e.checked_add(BLOCK_TRAILER_LEN));
        match end {
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

/// Compression of a stored block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    None,
    Snappy,
}

impl Compression {
    pub fn as_str(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Snappy => "snappy",
        }
    }
}

/// `crc32c::Unmask`.
pub fn unmask_crc(masked: u32) -> u32 {
    masked.wrapping_sub(CRC_MASK_DELTA).rotate_left(15)
}

/// `crc32c::Mask`.
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

/// Reads a block and its trailer, checks the CRC, and returns the uncompressed contents.
fn read_block<R: ReadAt + ?Sized>(src: &R, h: BlockHandle, what: &str) -> Result<(Vec<u8>, Compression)> {
    let len = h.size + BLOCK_TRAILER_LEN; // checked against the file size by the caller
    let raw = src.read_at(h.offset, len as usize)?;
    if raw.len() as u64 != len {
        return Err(Error::new(ErrorKind::Io, h.offset, format!("{what}: short read")));
    }
    let n = h.size as usize;
    let type_byte = raw[n];
    let stored = unmask_crc(le32(&raw, n + 1));
    let actual = crc32c(&raw[..n], &raw[n..n + 1]);
    if stored != actual {
        return Err(Error::new(
            ErrorKind::BadChecksum,
            h.offset + h.size + 1,
            format!("{what}: block CRC32C is {actual:#010x} but the trailer says {stored:#010x}"),
        ));
    }
    match type_byte {
        0 => {
            let mut raw = raw;
            raw.truncate(n);
            Ok((raw, Compression::None))
        }
        1 => {
            let data = &raw[..n];
            let bad = |m: String| Error::new(ErrorKind::BadBlock, h.offset, format!("{what}: {m}"));
            let out_len = snap::raw::decompress_len(data).map_err(|e| bad(format!("bad Snappy header: {e}")))?;
            if out_len as u64 > (n as u64).saturating_mul(SNAPPY_MAX_RATIO) {
                return Err(bad(format!("Snappy claims {out_len} bytes from {n}, more than the format can expand")));
            }
            let mut out = vec![0u8; out_len];
            let got = snap::raw::Decoder::new()
                .decompress(data, &mut out)
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

/// A parsed block: `(key, value)` entries with prefix compression undone.
struct Block {
    entries: Vec<(Vec<u8>, std::ops::Range<usize>)>,
    data: Vec<u8>,
}

/// Parses block contents (table/block.cc). `base` is the file offset of the stored block, used
/// for error offsets (exact for uncompressed blocks; the block's start for Snappy ones).
fn parse_block(data: Vec<u8>, base: u64, exact: bool, what: &str) -> Result<Block> {
    let at = |pos: usize| if exact { base + pos as u64 } else { base };
    let bad = |pos: usize, m: String| Error::new(ErrorKind::BadBlock, at(pos), format!("{what}: {m}"));
    let n = data.len();
    if n < 4 {
        return Err(bad(0, format!("a block needs at least 4 bytes, this one has {n}")));
    }
    let num_restarts = le32(&data, n - 4) as usize;
    let max_restarts = (n - 4) / 4;
    if num_restarts > max_restarts {
        return Err(bad(n - 4, format!("{num_restarts} restart points cannot fit in {n} bytes")));
    }
    let restart_offset = n - (1 + num_restarts) * 4;
    let restarts: Vec<usize> = (0..num_restarts).map(|i| le32(&data, restart_offset + 4 * i) as usize).collect();

    // Materialized keys may repeat shared prefixes; bound their total so a hostile block cannot
    // make us build far more than it holds.
    let key_budget = (n as u64).saturating_mul(16).saturating_add(1 << 16);
    let mut key_bytes: u64 = 0;
    let mut entries: Vec<(Vec<u8>, std::ops::Range<usize>)> = Vec::new();
    let mut starts: Vec<(usize, bool)> = Vec::new(); // (entry start, shared == 0)
    let mut c = Cursor::with_base(&data[..restart_offset], 0);
    let mut prev: Vec<u8> = Vec::new();
    while !c.is_empty() {
        let start = c.position();
        let field = |e: Error| bad(start, format!("entry at block byte {start}: {}", e.message));
        let shared = c.uvarint("shared key length").map_err(field)? as usize;
        let non_shared = c.uvarint("unshared key length").map_err(field)? as u64;
        let value_len = c.uvarint("value length").map_err(field)? as u64;
        if shared > prev.len() {
            return Err(bad(start, format!("entry shares {shared} bytes with a {}-byte previous key", prev.len())));
        }
        if non_shared.saturating_add(value_len) > c.remaining() as u64 {
            return Err(bad(
                start,
                format!("entry of {non_shared}+{value_len} bytes overruns the block ({} remain)", c.remaining()),
            ));
        }
        let delta = c.take(non_shared, "key").map_err(field)?;
        let vstart = c.position();
        c.skip(value_len, "value").map_err(field)?;
        let mut key = Vec::with_capacity(shared + delta.len());
        key.extend_from_slice(&prev[..shared]);
        key.extend_from_slice(delta);
        key_bytes += key.len() as u64;
        if key_bytes > key_budget {
            return Err(bad(start, "prefix-shared keys expand far beyond the block's size".into()));
        }
        starts.push((start, shared == 0));
        prev.clone_from(&key);
        entries.push((key, vstart..vstart + value_len as usize));
    }
    // Restart points: increasing, each the start of an entry stored without a shared prefix
    // (an empty block has the single restart 0).
    let mut last: Option<usize> = None;
    for (i, &r) in restarts.iter().enumerate() {
        let ok_empty = entries.is_empty() && r == 0;
        let ok = ok_empty || starts.binary_search_by_key(&r, |s| s.0).map(|j| starts[j].1).unwrap_or(false);
        if !ok || last.is_some_and(|l| r <= l) {
            return Err(bad(restart_offset + 4 * i, format!("restart point {i} ({r}) is not the start of a full key")));
        }
        last = Some(r);
    }
    if !entries.is_empty() && restarts.first() != Some(&0) {
        return Err(bad(restart_offset, "the first restart point is not 0".into()));
    }
    Ok(Block { entries, data })
}

// ---------------------------------------------------------------------------------------
// Keys (db/dbformat.h)
// ---------------------------------------------------------------------------------------

/// How the table's keys are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyFormat {
    /// A DB table: internal keys (user key + fixed64 `(sequence << 8) | type`); the filter is
    /// over user keys (InternalFilterPolicy strips the 8 bytes).
    Internal,
    /// A table written with `TableBuilder` outside a DB: keys are stored (and filtered) as given.
    User,
}

impl KeyFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            KeyFormat::Internal => "internal",
            KeyFormat::User => "user",
        }
    }
}

/// An internal key split into its parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParsedInternalKey<'a> {
    pub user_key: &'a [u8],
    pub sequence: u64,
    /// 1 = value, 0 = deletion.
    pub value_type: u8,
}

pub fn parse_internal_key(key: &[u8]) -> Option<ParsedInternalKey<'_>> {
    if key.len() < 8 {
        return None;
    }
    let (user_key, tag) = key.split_at(key.len() - 8);
    let tag = u64::from_le_bytes(tag.try_into().unwrap());
    Some(ParsedInternalKey { user_key, sequence: tag >> 8, value_type: tag as u8 })
}

/// The key `Table::InternalGet` seeks with when asking whether `user_key` may be in a table:
/// `user_key` + fixed64((kMaxSequenceNumber << 8) | kValueTypeForSeek), which sorts before
/// every stored version of `user_key`.
pub fn lookup_key(user_key: &[u8]) -> Vec<u8> {
    let mut k = Vec::with_capacity(user_key.len() + 8);
    k.extend_from_slice(user_key);
    k.extend_from_slice(&((MAX_SEQUENCE << 8) | VALUE_TYPE_FOR_SEEK as u64).to_le_bytes());
    k
}

/// InternalKeyComparator over BytewiseComparator: user keys ascending, then tag descending.
/// Keys shorter than 8 bytes (not internal keys) compare bytewise whole, after internal ones
/// would; callers only compare keys of one format.
pub fn compare_internal(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    match (parse_internal_key(a), parse_internal_key(b)) {
        (Some(x), Some(y)) => {
            let tx = (x.sequence << 8) | x.value_type as u64;
            let ty = (y.sequence << 8) | y.value_type as u64;
            x.user_key.cmp(y.user_key).then(ty.cmp(&tx))
        }
        _ => a.cmp(b),
    }
}

fn compare(format: KeyFormat, a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    match format {
        KeyFormat::Internal => compare_internal(a, b),
        KeyFormat::User => a.cmp(b),
    }
}

// ---------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------

/// One data block, as the index block lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataBlock {
    /// The index separator: >= every key in this block, < every key of the next one.
    pub separator: Vec<u8>,
    pub handle: BlockHandle,
    /// `handle.offset >> base_lg` (None without a filter block).
    pub filter_index: Option<usize>,
}

/// One filter of the filter block.
#[derive(Clone, Debug, PartialEq, Eq)]
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

/// One metaindex entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetaEntry {
    pub key: Vec<u8>,
    pub handle: BlockHandle,
}

/// Result of routing a user key through the index to its filter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelDbProbe {
    /// What LevelDB's `Table::InternalGet` would conclude before reading the data block:
    /// `Absent` means it never reads the block.
    pub verdict: Verdict,
    pub reason: ProbeReason,
    /// Index of the data block in `LevelDbTable::data_blocks`.
    pub block_index: Option<usize>,
    /// The data block's handle as (offset, size).
    pub data_block: Option<(u64, u64)>,
    pub filter_index: Option<usize>,
    /// The k double-hashing positions (empty without a filter to probe).
    pub probes: Vec<ProbeBit>,
    /// `BloomHash` of the user key.
    pub hash: u32,
}

#[derive(Clone, Debug)]
pub struct LevelDbTable {
    pub file_size: u64,
    pub metaindex_handle: BlockHandle,
    pub index_handle: BlockHandle,
    pub metaindex_compression: Compression,
    pub index_compression: Compression,
    pub meta_entries: Vec<MetaEntry>,
    /// The policy name after `filter.` in the metaindex (None when the table has no filter).
    pub filter_policy: Option<String>,
    pub filter_handle: Option<BlockHandle>,
    /// Last byte of the filter block (11 from every LevelDB writer).
    pub base_lg: Option<u8>,
    pub filters: Vec<FilterInfo>,
    pub data_blocks: Vec<DataBlock>,
    pub key_format: KeyFormat,
    filter_block: Vec<u8>,
}

impl LevelDbTable {
    /// Reads the footer, metaindex, filter block and index block. The key format is detected
    /// from the index separators (every one >= 8 bytes with a type byte of 0 or 1 → internal).
    pub fn open<R: ReadAt + ?Sized>(src: &R) -> Result<LevelDbTable> {
        Self::open_inner(src, None)
    }

    /// As `open`, with the key format given instead of detected.
    pub fn open_with_format<R: ReadAt + ?Sized>(src: &R, format: KeyFormat) -> Result<LevelDbTable> {
        Self::open_inner(src, Some(format))
    }

    fn open_inner<R: ReadAt + ?Sized>(src: &R, format: Option<KeyFormat>) -> Result<LevelDbTable> {
        let file_size = src.size();
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
        let magic = u64::from_le_bytes(footer[40..48].try_into().unwrap());
        if magic != TABLE_MAGIC {
            return Err(Error::new(
                ErrorKind::BadFooterMagic,
                footer_at + 40,
                format!("table magic is {magic:#018x}, not {TABLE_MAGIC:#018x}"),
            ));
        }
        let mut c = Cursor::with_base(&footer[..40], footer_at);
        let handle = |c: &mut Cursor<'_>, what: &str| -> Result<BlockHandle> {
            let at = c.offset();
            let h = BlockHandle::decode(c, what).map_err(|e| {
                Error::new(ErrorKind::BadBlockHandle, e.offset, format!("{what}: {}", e.message))
            })?;
            h.check(footer_at, at, what)?;
            Ok(h)
        };
        let metaindex_handle = handle(&mut c, "metaindex handle")?;
        let index_handle = handle(&mut c, "index handle")?;

        // Metaindex.
        let (meta_raw, metaindex_compression) = read_block(src, metaindex_handle, "metaindex block")?;
        let meta = parse_block(
            meta_raw,
            metaindex_handle.offset,
            metaindex_compression == Compression::None,
            "metaindex block",
        )?;
        let mut meta_entries = Vec::with_capacity(meta.entries.len());
        for (key, v) in &meta.entries {
            let vbase = metaindex_handle.offset + v.start as u64;
            let mut vc = Cursor::with_base(&meta.data[v.clone()], vbase);
            let h = BlockHandle::decode(&mut vc, "meta block handle")
                .map_err(|e| Error::new(ErrorKind::BadBlockHandle, e.offset, e.message))?;
            meta_entries.push(MetaEntry { key: key.clone(), handle: h });
        }

        // Filter block: the first `filter.` entry.
        let mut filter_policy = None;
        let mut filter_handle = None;
        let mut base_lg = None;
        let mut filter_block = Vec::new();
        let mut ranges: Vec<(u64, u64)> = Vec::new();
        if let Some(m) = meta_entries.iter().find(|m| m.key.starts_with(FILTER_META_PREFIX)) {
            let h = m.handle;
            h.check(footer_at, metaindex_handle.offset, "filter block handle")?;
            let name = String::from_utf8_lossy(&m.key[FILTER_META_PREFIX.len()..]).into_owned();
            let (bytes, comp) = read_block(src, h, "filter block")?;
            // Writers store the filter block raw; a compressed one is read but offsets are then
            // relative to the uncompressed bytes.
            let base = h.offset;
            let exact = comp == Compression::None;
            let (lg, r) = parse_filter_block(&bytes, base, exact)?;
            filter_policy = Some(name);
            filter_handle = Some(h);
            base_lg = Some(lg);
            ranges = r;
            filter_block = bytes;
        }

        // Index block.
        let (index_raw, index_compression) = read_block(src, index_handle, "index block")?;
        let index = parse_block(index_raw, index_handle.offset, index_compression == Compression::None, "index block")?;
        let key_format = format.unwrap_or_else(|| detect_format(index.entries.iter().map(|e| e.0.as_slice())));
        let data_end = filter_handle
            .map(|h| h.offset)
            .into_iter()
            .chain(meta_entries.iter().map(|m| m.handle.offset))
            .chain([metaindex_handle.offset, index_handle.offset])
            .min()
            .unwrap_or(footer_at);
        let mut data_blocks: Vec<DataBlock> = Vec::with_capacity(index.entries.len());
        for (i, (key, v)) in index.entries.iter().enumerate() {
            let vbase = index_handle.offset + v.start as u64;
            let at = if index_compression == Compression::None { vbase } else { index_handle.offset };
            let mut vc = Cursor::with_base(&index.data[v.clone()], vbase);
            let h = BlockHandle::decode(&mut vc, "data block handle")
                .map_err(|e| Error::new(ErrorKind::BadBlockHandle, at, e.message))?;
            h.check(data_end, at, "data block handle")?;
            if let Some(prev) = data_blocks.last() {
                let prev_end = prev.handle.offset + prev.handle.size + BLOCK_TRAILER_LEN;
                if h.offset < prev_end {
                    return Err(Error::new(
                        ErrorKind::BadBlockHandle,
                        at,
                        format!("data block {i} at {} overlaps or precedes block {} (ends at {prev_end})", h.offset, i - 1),
                    ));
                }
                if compare(key_format, &prev.separator, key) != std::cmp::Ordering::Less {
                    return Err(Error::new(
                        ErrorKind::BadBlock,
                        at,
                        format!("index key {i} ({}) does not sort after the previous one", hex(key)),
                    ));
                }
            }
            let filter_index = base_lg.map(|lg| (h.offset >> lg) as usize);
            data_blocks.push(DataBlock { separator: key.clone(), handle: h, filter_index });
        }

        let filters = match (filter_handle, base_lg) {
            (Some(fh), Some(lg)) => {
                ranges
                    .iter()
                    .enumerate()
                    .map(|(i, &(s, e))| {
                        let f = &filter_block[s as usize..e as usize];
                        let set_bits = if f.len() >= 2 {
                            f[..f.len() - 1].iter().map(|b| b.count_ones() as u64).sum()
                        } else {
                            0
                        };
                        FilterInfo {
                            index: i,
                            offset: fh.offset + s,
                            length: e - s,
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
            _ => Vec::new(),
        };

        Ok(LevelDbTable {
            file_size,
            metaindex_handle,
            index_handle,
            metaindex_compression,
            index_compression,
            meta_entries,
            filter_policy,
            filter_handle,
            base_lg,
            filters,
            data_blocks,
            key_format,
            filter_block,
        })
    }

    /// The bytes of filter `i` (bit bytes then the k byte), as stored.
    pub fn filter_bytes(&self, i: usize) -> Option<&[u8]> {
        let f = self.filters.get(i)?;
        let start = (f.offset - self.filter_handle?.offset) as usize;
        self.filter_block.get(start..start + f.length as usize)
    }

    /// The whole filter block as stored (empty without one).
    pub fn filter_block(&self) -> &[u8] {
        &self.filter_block
    }

    /// Whether this reader knows how to probe the table's filter policy.
    pub fn policy_supported(&self) -> bool {
        matches!(self.filter_policy.as_deref(), Some(POLICY_NAME) | Some(LEGACY_POLICY_NAME))
    }

    /// Index of the data block `Table::InternalGet` would read for `user_key`: the first
    /// whose separator >= the lookup key.
    pub fn route(&self, user_key: &[u8]) -> Option<usize> {
        let target = match self.key_format {
            KeyFormat::Internal => lookup_key(user_key),
            KeyFormat::User => user_key.to_vec(),
        };
        let i = self
            .data_blocks
            .partition_point(|d| compare(self.key_format, &d.separator, &target) == std::cmp::Ordering::Less);
        (i < self.data_blocks.len()).then_some(i)
    }

    /// Routes `user_key` through the index to its data block and probes that block's filter,
    /// as `Table::InternalGet` → `FilterBlockReader::KeyMayMatch` → `BloomFilterPolicy` do.
    pub fn probe(&self, user_key: &[u8]) -> LevelDbProbe {
        let legacy = self.filter_policy.as_deref() == Some(LEGACY_POLICY_NAME);
        let h = if legacy { hash_legacy_signed(user_key, BLOOM_SEED) } else { bloom_hash(user_key) };
        let mut p = LevelDbProbe {
            verdict: Verdict::Maybe,
            reason: ProbeReason::NoFilter,
            block_index: None,
            data_block: None,
            filter_index: None,
            probes: Vec::new(),
            hash: h,
        };
        let Some(bi) = self.route(user_key) else {
            p.verdict = Verdict::Absent;
            p.reason = ProbeReason::PastLastBlock;
            return p;
        };
        let block = &self.data_blocks[bi];
        p.block_index = Some(bi);
        p.data_block = Some((block.handle.offset, block.handle.size));
        if !self.policy_supported() {
            return p;
        }
        let Some(fi) = block.filter_index else { return p };
        p.filter_index = Some(fi);
        let Some(bytes) = self.filter_bytes(fi) else {
            p.reason = ProbeReason::FilterMissing;
            return p;
        };
        let fp = probe_filter_with(h, bytes);
        p.verdict = fp.verdict;
        p.reason = fp.reason;
        p.probes = fp.probes;
        p
    }

    /// The number of filters LevelDB's FilterBlockBuilder emits for this table's data blocks:
    /// max(floor(end_of_data / 2^base_lg), index of the last block's window + 1) (§3).
    pub fn expected_filter_count(&self) -> Option<usize> {
        let lg = self.base_lg?;
        let last = self.data_blocks.last()?;
        let end = last.handle.offset + last.handle.size + BLOCK_TRAILER_LEN;
        Some(((end >> lg) as usize).max((last.handle.offset >> lg) as usize + 1))
    }
}

fn detect_format<'a>(mut keys: impl Iterator<Item = &'a [u8]>) -> KeyFormat {
    let internal = keys.all(|k| parse_internal_key(k).is_some_and(|p| p.value_type <= 1));
    if internal {
        KeyFormat::Internal
    } else {
        KeyFormat::User
    }
}

/// Validates a filter block (table/filter_block.cc) and returns base_lg and each filter's
/// (start, end) within it. Stricter than LevelDB's reader, which quietly treats a bad block as
/// "no filter" and bad offsets as "may match": an inspector reports them.
fn parse_filter_block(b: &[u8], base: u64, exact: bool) -> Result<(u8, Vec<(u64, u64)>)> {
    let at = |pos: usize| if exact { base + pos as u64 } else { base };
    let bad = |pos: usize, m: String| Error::new(ErrorKind::BadFilterBlock, at(pos), m);
    let n = b.len();
    if n < 5 {
        return Err(bad(0, format!("a filter block needs at least 5 bytes, this one has {n}")));
    }
    let lg = b[n - 1];
    if lg >= 64 {
        return Err(bad(n - 1, format!("base_lg {lg} is not a usable shift")));
    }
    let array_start = le32(b, n - 5) as usize;
    if array_start > n - 5 {
        return Err(bad(n - 5, format!("offset array starts at {array_start}, past the {}-byte filter data", n - 5)));
    }
    if (n - 5 - array_start) % 4 != 0 {
        return Err(bad(array_start, format!("offset array of {} bytes is not whole fixed32s", n - 5 - array_start)));
    }
    let num = (n - 5 - array_start) / 4;
    // Words w[0..num] are the filters' starts; filter i spans w[i]..w[i+1], the last one
    // ending where the array starts (the "offset of the offset array" word doubles as its limit).
    let mut starts = Vec::with_capacity(num);
    for i in 0..num {
        let pos = array_start + 4 * i;
        let w = le32(b, pos) as usize;
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
    if num == 0 && array_start != 0 {
        return Err(bad(n - 5, format!("{array_start} bytes of filter data but no filter offsets")));
    }
    let out = (0..num)
        .map(|i| (starts[i] as u64, starts.get(i + 1).copied().unwrap_or(array_start) as u64))
        .collect();
    Ok((lg, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_upstream_vectors() {
        // google/leveldb util/hash_test.cc (SignedUnsignedIssue), via leveldb-filter.md §1.
        assert_eq!(hash(&[], 0xbc9f1d34), 0xbc9f1d34);
        assert_eq!(hash(&[0x62], 0xbc9f1d34), 0xef1345c4);
        assert_eq!(hash(&[0xc3, 0x97], 0xbc9f1d34), 0x5b663814);
        assert_eq!(hash(&[0xe2, 0x99, 0xa5], 0xbc9f1d34), 0x323c078f);
        assert_eq!(hash(&[0xe1, 0x80, 0xb9, 0x32], 0xbc9f1d34), 0xed21633a);
    }

    #[test]
    fn k_formula() {
        for (bpk, k) in [(1, 1), (2, 1), (3, 2), (4, 2), (10, 6), (20, 13), (43, 29), (44, 30), (100, 30)] {
            assert_eq!(k_for_bits_per_key(bpk), k, "bpk {bpk}");
        }
    }

    #[test]
    fn create_then_match() {
        let p = BloomFilterPolicy::new(10);
        let keys: Vec<Vec<u8>> = (0..100u32).map(|i| i.to_le_bytes().to_vec()).collect();
        let f = p.create_filter(&keys);
        assert_eq!(f.len(), 125 + 1);
        assert_eq!(*f.last().unwrap(), 6);
        for k in &keys {
            assert!(key_may_match(k, &f));
        }
        // LevelDB's read rules.
        assert!(!key_may_match(b"x", &[]));
        assert!(!key_may_match(b"x", &[0xff]));
        assert!(key_may_match(b"x", &[0, 0, 0, 0, 0, 0, 0, 0, 31]));
        assert_eq!(probe_filter(b"x", &[0; 9]).probes.len(), 0);
        // Tiny filters get 64 bits.
        assert_eq!(p.create_filter(&[b"a"]).len(), 9);
    }

    #[test]
    fn crc_mask_round_trip() {
        // crc32c of "123456789" is 0xe3069283 (the Castagnoli check value).
        assert_eq!(crc32c(b"123456789", &[]), 0xe3069283);
        for v in [0u32, 1, 0xe3069283, u32::MAX] {
            assert_eq!(unmask_crc(mask_crc(v)), v);
            assert_ne!(mask_crc(v), v);
        }
    }

    #[test]
    fn internal_order() {
        let a = lookup_key(b"abc");
        let mut b = b"abc".to_vec();
        b.extend_from_slice(&((5u64 << 8) | 1).to_le_bytes());
        assert_eq!(compare_internal(&a, &b), std::cmp::Ordering::Less);
        let mut c = b"abd".to_vec();
        c.extend_from_slice(&((MAX_SEQUENCE << 8) | 1).to_le_bytes());
        assert_eq!(compare_internal(&b, &c), std::cmp::Ordering::Less);
    }

    #[test]
    fn varint64_limits() {
        let mut c = Cursor::new(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
        assert_eq!(varint64(&mut c, "v").unwrap(), u64::MAX);
        let mut c = Cursor::new(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02]);
        assert_eq!(varint64(&mut c, "v").unwrap_err().kind, ErrorKind::BadVarint);
        let mut c = Cursor::new(&[0x80; 11]);
        assert_eq!(varint64(&mut c, "v").unwrap_err().kind, ErrorKind::BadVarint);
    }
}

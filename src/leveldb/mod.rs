//! LevelDB's Bloom filter (`leveldb.BuiltinBloomFilter2`) and just enough of its table
//! format (`.ldb`/`.sst`) to find and probe the filters. Byte-level facts are in
//! docs/leveldb-filter.md (sections cited as §n).
//!
//! Reading order follows the format, from the filter outwards:
//! - `hash`: LevelDB's `Hash` and `BloomHash` (§1);
//! - `policy`: `BloomFilterPolicy`: k from bits_per_key, `CreateFilter`, `KeyMayMatch` (§2);
//! - `filter_block`: the filter block, one filter per 2 KiB window of data-block offsets (§3);
//! - `block`: block handles, the block trailer (CRC32C, Snappy), entries and restarts (§4);
//! - `internal_key`: the keys a DB stores and the keys its filters see (§5);
//! - `table`: footer → metaindex → filter block, and the index that routes a key to a data
//!   block and so to a filter (§4).
//!
//! Every structure is read through [`crate::bytes::Cursor`] and checked against the bytes
//! present before it is used: errors are typed with an absolute file offset, nothing panics
//! on hostile input, and no allocation is sized by a stored length before that length is
//! checked against the file (Snappy output is bounded by the format's maximum expansion).
//!
//! Opening a table written by LevelDB 1.22 and asking about a key it holds:
//!
//! ```
//! use tsfile_bloom::leveldb::{LevelDbTable, ProbeReason};
//! use tsfile_bloom::source::FileSource;
//! use tsfile_bloom::Verdict;
//!
//! let file = FileSource::open("tests/fixtures/leveldb/big_blocks_bits20-000008.ldb")?;
//! let table = LevelDbTable::open(&file)?;
//! assert_eq!(table.filter_policy(), Some("leveldb.BuiltinBloomFilter2"));
//! let p = table.probe(b"row/00000");
//! assert_eq!((p.verdict, p.reason), (Verdict::Maybe, ProbeReason::Bits));
//! // Past the last index separator LevelDB reads no block at all.
//! assert_eq!(table.probe(b"zzz").reason, ProbeReason::PastLastBlock);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod block;
mod filter_block;
mod hash;
mod internal_key;
mod policy;
mod table;
pub mod view;

pub use block::{crc32c, mask_crc, unmask_crc, BlockHandle, Compression, BLOCK_TRAILER_LEN};
pub use filter_block::{FilterBlock, FilterInfo, FILTER_BASE_LG};
pub use hash::{bloom_hash, hash, hash_legacy_signed, BLOOM_SEED};
pub use internal_key::{
    compare_internal, lookup_key, parse_internal_key, KeyFormat, ParsedInternalKey, MAX_SEQUENCE, VALUE_TYPE_FOR_SEEK,
};
pub use policy::{
    delta, filter_bits, k_for_bits_per_key, key_may_match, probe_filter, probe_hashes, BloomFilterPolicy, FilterProbe,
    ProbeBit, ProbeReason, LEGACY_POLICY_NAME, MAX_K, POLICY_NAME,
};
pub use table::{
    BlockEntry, DataBlock, LevelDbProbe, LevelDbTable, MetaEntry, FILTER_META_PREFIX, FOOTER_LEN, TABLE_MAGIC,
};

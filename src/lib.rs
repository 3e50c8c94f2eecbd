//! tsfile-bloom: decode, probe and audit the Bloom filter stored in Apache
//! TsFile's `TsFileMetadata`, bit-exact with the Java and C++ writers.
//!
//! Reading order follows the format (docs/ for the bytes, ARCHITECTURE.md for the flow):
//! 1. [`hash`]: Murmur128 and its two tail variants, the bit index (docs/bloom-filter.md §4);
//! 2. [`filter`]: the serialized filter, its probes and statistics (docs/bloom-filter.md §2, §5–7);
//! 3. [`path`] and [`charset`]: the bytes a writer hashes for a series (docs/writers.md §3–4);
//! 4. [`bytes`] and [`source`]: the one byte cursor every parser reads through, and random access;
//! 5. [`tsfile`]: envelope → TsFileMetadata → index walk → audit, and [`tsfile::TsFileReader`],
//!    which answers everything the JS API shows;
//! 6. [`leveldb`]: LevelDB's filter policy and just enough of its tables to probe them;
//! 7. [`teach`]: the teaching panel's calculator, step-throughs and measured demonstrations
//!    (the page-only `teach` wasm module);
//! 8. `wasm` (wasm32 only): converters from these types to JS, nothing more.
//!
//! Opening a file the C++ writer wrote (10 series; the expected values are its manifest's):
//!
//! ```
//! use tsfile_bloom::source::FileSource;
//! use tsfile_bloom::tsfile::TsFileReader;
//!
//! let file = FileSource::open("tests/fixtures/tsfile/tree_10series.tsfile")?;
//! let reader = TsFileReader::read(&file)?;
//! let bloom = reader.bloom_info();
//! assert_eq!((bloom.bit_count, bloom.hash_function_count), (Some(256), Some(5)));
//! assert_eq!(bloom.indexed_items, Some(10));
//! let listing = reader.listing();
//! assert_eq!(listing.series.len(), 10);
//! // A consistent file: every indexed series tests "maybe present".
//! assert!(listing.series.iter().all(|s| s.maybe_present == Some(true)));
//! let probe = reader.probe(b"root.sg1.d1.s_bool", None, None)?;
//! assert_eq!((probe.verdict, probe.indexed), ("maybe", Some(true)));
//! assert_eq!(reader.audit_info().map(|a| a.status), Some("ambiguous"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod bytes;
pub mod charset;
pub mod error;
pub mod filter;
pub mod hash;
pub mod leveldb;
pub mod path;
pub mod source;
// Compiled natively (tests, docs) and into the page's teaching module only: the package's wasm
// modules stay byte-identical without it (scripts/check-size.mjs).
#[cfg(any(not(target_arch = "wasm32"), feature = "wasm-teach"))]
pub mod teach;
pub mod tsfile;

// The audit and the charset bridge belong to the TsFile reader; kept at the root too.
pub use tsfile::{audit, encoder};

#[cfg(target_arch = "wasm32")]
mod wasm;

pub use charset::Charset;
pub use error::{Error, ErrorKind, Result};
pub use filter::{BloomFilter, Probe, SeedProbe, Stats, Verdict};
pub use hash::{bit_index, hash32, TailVariant, SEEDS};

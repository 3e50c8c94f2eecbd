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
//! 6. [`leveldb`]: LevelDB's filter policy and just enough of its tables to probe them.
//!
//! The npm package's wasm modules and the page's teaching panel are crates of their own in the
//! repository's workspace (crates/), which depend on this one: it has no wasm code.
//!
//! Opening a file the C++ writer wrote (10 series; the expected values are its manifest's):
//!
//! ```
//! use tsfile_bloom::audit::AuditStatus;
//! use tsfile_bloom::verdict::FileVerdict;
//! use tsfile_bloom::tsfile::TsFileReader;
//!
//! // A `std::fs::File` is a source (positional reads); its `std::io::Error` converts into
//! // the crate's `Error` (kind `io`) with `?`.
//! let file = std::fs::File::open("tests/fixtures/tsfile/tree_10series.tsfile")?;
//! let reader = TsFileReader::read(&file)?;
//! let bloom = reader.bloom_info();
//! assert_eq!((bloom.bit_count, bloom.hash_function_count), (Some(256), Some(5)));
//! assert_eq!(bloom.indexed_items, Some(10));
//! let listing = reader.listing();
//! assert_eq!(listing.series.len(), 10);
//! // A consistent file: every indexed series tests "maybe present".
//! assert!(listing.series.iter().all(|s| s.maybe_present == Some(true)));
//! let probe = reader.probe(b"root.sg1.d1.s_bool", None, None)?;
//! assert_eq!((probe.verdict, probe.indexed), (FileVerdict::Maybe, Some(true)));
//! assert_eq!(reader.audit_info().map(|a| a.status), Some(AuditStatus::Ambiguous));
//! # Ok::<(), tsfile_bloom::Error>(())
//! ```

// docs.rs (nightly) marks the items that need a feature or a platform (Cargo.toml's
// package.metadata.docs.rs).
#![cfg_attr(docsrs, feature(doc_cfg))]

/// The crate's README (docs/crate.md, its crates.io page): its examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/crate.md")]
struct CrateReadme;

/// A closed set of names, each value declared with its name: the enum (`Copy`, `Eq`, `Hash`),
/// `ALL` in order, `code` (its index in `ALL`: src/tsfile/wire/ numbers values so), `as_str`,
/// the one place each name is spelled (the JS API, the CLI's JSON reports and the docs use it),
/// `impl serde::Serialize` as that name, and in tests the TypeScript union of the same names
/// (`as` another name there: src/ts.rs writes them to js/types.generated.d.ts). A type that is
/// not a plain list, `closed_set!(T)`, gets only the serialization as its own `as_str`.
macro_rules! closed_set {
    (
        $(#[$attr:meta])*
        pub enum $t:ident $(as $ts:ident)? {
            $($(#[$vattr:meta])* $v:ident => $name:literal),+ $(,)?
        }
    ) => {
        $(#[$attr])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $t {
            $($(#[$vattr])* $v),+
        }
        impl $t {
            /// Every value, in the order declared.
            pub const ALL: [$t; [$($name),+].len()] = [$($t::$v),+];

            /// The value's code on the wire: its index in [`ALL`](Self::ALL).
            pub fn code(self) -> i32 {
                self as i32
            }

            /// The stable name, as serialized.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($t::$v => $name),+
                }
            }
        }
        closed_set!($t);
        #[cfg(test)]
        crate::ts::named!($t $(as $ts)?, crate::ts::union([$($name),+]));
    };
    ($t:ty) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
    };
}

pub mod bytes;
pub mod charset;
pub mod design;
pub mod error;
pub mod filter;
pub mod hash;
pub mod health;
pub mod leveldb;
pub mod path;
pub mod source;
pub mod staged;
#[cfg(test)]
mod ts;
pub mod tsfile;

// The audit, the probe rule, its verdicts and the charset bridge belong to the TsFile reader;
// kept at the root too.
pub use tsfile::{audit, encoder, probe, verdict};

pub use charset::Charset;
pub use error::{Argument, Error, ErrorKind, Result};
pub use filter::{BloomFilter, Probe, SeedProbe, Stats, Verdict};
pub use hash::{bit_index, hash32, TailVariant, SEEDS};

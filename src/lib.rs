//! tsfile-bloom: decode, probe and audit the Bloom filter stored in Apache
//! TsFile's `TsFileMetadata`, bit-exact with the Java and C++ writers.
//!
//! Reading order follows the format: [`hash`] (Murmur128 variants) →
//! [`filter`] (the serialized filter) → [`path`] (the bytes a writer hashes).

pub mod audit;
pub mod batch;
pub mod bytes;
pub mod error;
pub mod filter;
pub mod hash;
pub mod leveldb;
pub mod path;
pub mod source;
pub mod tsfile;

#[cfg(target_arch = "wasm32")]
mod wasm;

pub use error::{Error, ErrorKind, Result};
pub use filter::{BloomFilter, Probe, SeedProbe, Stats, Verdict};
pub use hash::{bit_index, hash32, TailVariant, SEEDS};
pub use path::Charset;

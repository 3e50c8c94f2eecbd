//! tsfile-bloom: decode, probe and audit the Bloom filter stored in Apache
//! TsFile's `TsFileMetadata`, bit-exact with the Java and C++ writers.
//!
//! Reading order follows the format: [`hash`] (Murmur128 variants) →
//! [`filter`] (the serialized filter) → [`path`] (the bytes a writer hashes).

pub mod bytes;
pub mod charset;
pub mod error;
pub mod filter;
pub mod hash;
pub mod leveldb;
pub mod path;
pub mod source;
pub mod tsfile;

// The audit and the charset bridge belong to the TsFile reader; kept at the root too.
pub use tsfile::{audit, encoder};

#[cfg(target_arch = "wasm32")]
mod wasm;

pub use error::{Error, ErrorKind, Result};
pub use filter::{BloomFilter, Probe, SeedProbe, Stats, Verdict};
pub use hash::{bit_index, hash32, TailVariant, SEEDS};
pub use charset::Charset;

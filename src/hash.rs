//! TsFile's `Murmur128Hash` and the bit test (docs/bloom-filter.md §4).
//!
//! The code lives in the `tsfile-bloom-hash` crate (crates/hash): it is the hot path, and
//! the wasm profile compiles that one crate at opt-level 3 while the rest of the module
//! stays at "z" (Cargo.toml, `[profile.wasm.package.tsfile-bloom-hash]`).

pub use tsfile_bloom_hash::*;

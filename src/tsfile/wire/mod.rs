//! The wire between the core and its JS bindings where volume or speed needs packed arrays
//! instead of objects (BENCHMARKS.md, "Boundary"), built and tested here as plain Rust, so that
//! crates/wasm-tsfile only copies them into typed arrays and js/wire.js is their one decoder.
//! Everything else crosses as the core's `Serialize` values.
//!
//! - [`listing`]: the listing as columns (each device's names and each measurement name once);
//! - [`record`]: a single probe's result as a record of numbers, read in place in wasm memory;
//! - [`scan`]: the fast scan of one file from its head and tail window, as figures;
//! - [`batch`]: the calls over keys the bindings stage, in the codes JS passes.
//!
//! Every code those layouts hold is numbered here, once: a verdict, a tail variant, a charset,
//! a filter encoding and a data type (its byte) (`-1` where there is none, or for "automatic" in
//! an argument). JS needs the names and constants at import, before any wasm is initialised
//! (`SEEDS` and `VARIANTS` are public constants): js/core-tables.js holds them as generated from
//! the core by tests/generated.rs, which fails when that file is not what the core says.

pub mod batch;
pub mod listing;
pub mod record;
pub mod scan;

use super::audit::DEFAULT_HASH;
use super::verdict::{Decision, FileVerdict};
use super::BloomEncoding;
use crate::error::{Error, Result};
use crate::filter::{BloomFilter, FilterHash, Verdict};
use crate::hash::{NamedHash, TailVariant};
use crate::health::HealthState;
use crate::path::Charset;

/// What a code of "none" is, and an argument of "automatic" (the audit's choice).
pub const NONE: i32 = -1;

/// A decision's code: its index in [`Decision::ALL`] (js/core-tables.js `DECISIONS`).
pub fn decision_code(d: Decision) -> i32 {
    Decision::ALL.iter().position(|&x| x == d).unwrap() as i32
}

/// A file verdict's code: 0 absent, 1 maybe, 2 unknown (a filter's [`Verdict`] has the first two).
pub fn verdict_code(v: FileVerdict) -> i32 {
    match v {
        FileVerdict::Absent => 0,
        FileVerdict::Maybe => 1,
        FileVerdict::Unknown => 2,
    }
}

/// A filter verdict's code, as [`verdict_code`] numbers the same words.
pub fn filter_verdict_code(v: Verdict) -> i32 {
    i32::from(v == Verdict::Maybe)
}

/// A tail variant's code: its index in [`TailVariant::ALL`] (0 java, 1 zero-extended).
pub fn variant_code(v: TailVariant) -> i32 {
    v as i32 // declared in the order of ALL (the tests check it)
}

/// The variant of a code; None for [`NONE`] (automatic); an unknown code is a bad argument.
pub fn variant_of(code: i32) -> Result<Option<TailVariant>> {
    of(code, &TailVariant::ALL, "variant code out of range")
}

/// A filter's variant of a code: automatic ([`NONE`]) is [`DEFAULT_HASH`]'s, Java's.
pub fn filter_variant(code: i32) -> Result<TailVariant> {
    Ok(variant_of(code)?.unwrap_or(DEFAULT_HASH.0))
}

/// The code of the hash a result names ([`NamedHash`]): a tail variant's code, or [`CHEAP`].
pub fn named_hash_code(h: NamedHash) -> i32 {
    match h {
        NamedHash::Murmur(v) => variant_code(v),
        NamedHash::Cheap => CHEAP,
    }
}

/// A result's hash code for the cheap hash: after the tail variants' codes.
pub const CHEAP: i32 = TailVariant::ALL.len() as i32;

/// The names of the hashes a result names, by their codes ([`named_hash_code`]).
pub const NAMED_HASHES: [&str; 3] = ["java", "zero-extended", "cheap"];

/// A filter hash's code: its index in [`FilterHash::ALL`].
pub fn filter_hash_code(h: FilterHash) -> i32 {
    h as i32 // declared in the order of ALL (the tests check it)
}

/// A charset's code: its index in [`Charset::ALL`].
pub fn charset_code(cs: Charset) -> i32 {
    cs as i32 // declared in the order of ALL (the tests check it)
}

/// The charset of a code; None for [`NONE`] (automatic); an unknown code is a bad argument.
pub fn charset_of(code: i32) -> Result<Option<Charset>> {
    of(code, &Charset::ALL, "charset code out of range")
}

/// A filter's charset of a code: automatic ([`NONE`]) is [`DEFAULT_HASH`]'s, UTF-8.
pub fn filter_charset(code: i32) -> Result<Charset> {
    Ok(charset_of(code)?.unwrap_or(DEFAULT_HASH.1))
}

/// A filter health's state's code: its index in [`HealthState::ALL`].
pub fn health_code(h: HealthState) -> i32 {
    h as i32 // declared in the order of ALL (the tests check it)
}

/// A filter field encoding's code: its index in [`BloomEncoding::ALL`].
pub fn encoding_code(e: BloomEncoding) -> i32 {
    e as i32 // declared in the order of ALL (the tests check it)
}

fn of<T: Copy>(code: i32, all: &[T], what: &'static str) -> Result<Option<T>> {
    if code == NONE {
        return Ok(None);
    }
    usize::try_from(code).ok().and_then(|i| all.get(i)).map(|&t| Some(t)).ok_or_else(|| Error::invalid_argument(what))
}

/// A filter's geometry and fill as the bindings hand it over at once, in this order (`hash`:
/// its code, [`filter_hash_code`]).
pub const GEOMETRY: [&str; 5] = ["bitCount", "hashFunctionCount", "byteLength", "setBits", "hash"];

/// [`GEOMETRY`]'s figures of `f`.
pub fn geometry(f: &BloomFilter) -> [f64; 5] {
    [
        f64::from(f.bit_count()),
        f64::from(f.hash_function_count()),
        f64::from(f.byte_length()),
        f.set_bits() as f64,
        f64::from(filter_hash_code(f.hash())),
    ]
}

/// Bytes from a file's end that the bindings read first when opening it, and all that the fast
/// scan reads ([`scan`]; a file no larger is read whole): most TsFileMetadata fit in it.
pub const TAIL_WINDOW: usize = 4096;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_names_one_value_and_back() {
        for (i, &v) in FileVerdict::ALL.iter().enumerate() {
            assert_eq!(verdict_code(v), i as i32);
        }
        assert_eq!(filter_verdict_code(Verdict::Absent), verdict_code(FileVerdict::Absent));
        assert_eq!(filter_verdict_code(Verdict::Maybe), verdict_code(FileVerdict::Maybe));
        for (i, &v) in TailVariant::ALL.iter().enumerate() {
            assert_eq!(variant_code(v), i as i32);
            assert_eq!(variant_of(i as i32).unwrap(), Some(v));
        }
        for (i, &c) in Charset::ALL.iter().enumerate() {
            assert_eq!(charset_code(c), i as i32);
            assert_eq!(charset_of(i as i32).unwrap(), Some(c));
        }
        for (i, &e) in BloomEncoding::ALL.iter().enumerate() {
            assert_eq!(encoding_code(e), i as i32);
        }
        for (i, &h) in FilterHash::ALL.iter().enumerate() {
            assert_eq!(filter_hash_code(h), i as i32);
        }
        for (i, &h) in HealthState::ALL.iter().enumerate() {
            assert_eq!(health_code(h), i as i32);
        }
        let named = TailVariant::ALL.map(NamedHash::Murmur);
        for h in named.into_iter().chain([NamedHash::Cheap]) {
            assert_eq!(NAMED_HASHES[named_hash_code(h) as usize], h.as_str());
        }
        // A result's cheap code is no variant an argument may name.
        assert_eq!(variant_of(CHEAP).unwrap_err().kind, crate::ErrorKind::InvalidArgument);
        assert_eq!(variant_of(NONE).unwrap(), None);
        assert_eq!(charset_of(NONE).unwrap(), None);
        for bad in [2, -2, i32::MAX] {
            assert_eq!(variant_of(bad).unwrap_err().kind, crate::ErrorKind::InvalidArgument);
        }
        assert_eq!(charset_of(12).unwrap_err().kind, crate::ErrorKind::InvalidArgument);
    }
}

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
//! Every code those layouts hold is a value's index in its closed set's `ALL` (`code()`, from
//! `closed_set!`; a tail variant's and a named hash's numbered here), or a data type's byte
//! (`-1` where there is none, or for "automatic" in an argument). JS needs the names and constants at import, before any wasm is initialised
//! (`SEEDS` and `VARIANTS` are public constants): js/core-tables.js holds them as generated from
//! the core by tests/generated.rs, which fails when that file is not what the core says.

pub mod batch;
pub mod listing;
pub mod record;
pub mod scan;

use super::audit::DEFAULT_HASH;
use crate::error::{Error, Result};
use crate::filter::BloomFilter;
use crate::hash::{NamedHash, TailVariant};
use crate::path::Charset;

/// What a code of "none" is, and an argument of "automatic" (the audit's choice).
pub const NONE: i32 = -1;

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

/// The charset of a code; None for [`NONE`] (automatic); an unknown code is a bad argument.
pub fn charset_of(code: i32) -> Result<Option<Charset>> {
    of(code, &Charset::ALL, "charset code out of range")
}

/// A filter's charset of a code: automatic ([`NONE`]) is [`DEFAULT_HASH`]'s, UTF-8.
pub fn filter_charset(code: i32) -> Result<Charset> {
    Ok(charset_of(code)?.unwrap_or(DEFAULT_HASH.1))
}

fn of<T: Copy>(code: i32, all: &[T], what: &'static str) -> Result<Option<T>> {
    if code == NONE {
        return Ok(None);
    }
    usize::try_from(code).ok().and_then(|i| all.get(i)).map(|&t| Some(t)).ok_or_else(|| Error::invalid_argument(what))
}

/// A filter's geometry and fill as the bindings hand it over at once, in this order (`hash`:
/// its code, [`FilterHash::code`](crate::filter::FilterHash::code)).
pub const GEOMETRY: [&str; 5] = ["bitCount", "hashFunctionCount", "byteLength", "setBits", "hash"];

/// [`GEOMETRY`]'s figures of `f`.
pub fn geometry(f: &BloomFilter) -> [f64; 5] {
    [
        f64::from(f.bit_count()),
        f64::from(f.hash_function_count()),
        f64::from(f.byte_length()),
        f.set_bits() as f64,
        f64::from(f.hash().code()),
    ]
}

/// Bytes from a file's end that the bindings read first when opening it, and all that the fast
/// scan reads ([`scan`]; a file no larger is read whole): most TsFileMetadata fit in it.
pub const TAIL_WINDOW: usize = 4096;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filter::{FilterHash, Verdict};
    use crate::health::HealthState;
    use crate::tsfile::verdict::FileVerdict;
    use crate::tsfile::BloomEncoding;

    #[test]
    fn every_code_names_one_value_and_back() {
        for (i, &v) in FileVerdict::ALL.iter().enumerate() {
            assert_eq!(v.code(), i as i32);
        }
        assert_eq!(Verdict::Absent.code(), FileVerdict::Absent.code());
        assert_eq!(Verdict::Maybe.code(), FileVerdict::Maybe.code());
        for (i, &v) in TailVariant::ALL.iter().enumerate() {
            assert_eq!(variant_code(v), i as i32);
            assert_eq!(variant_of(i as i32).unwrap(), Some(v));
        }
        for (i, &c) in Charset::ALL.iter().enumerate() {
            assert_eq!(c.code(), i as i32);
            assert_eq!(charset_of(i as i32).unwrap(), Some(c));
        }
        for (i, &e) in BloomEncoding::ALL.iter().enumerate() {
            assert_eq!(e.code(), i as i32);
        }
        for (i, &h) in FilterHash::ALL.iter().enumerate() {
            assert_eq!(h.code(), i as i32);
        }
        for (i, &h) in HealthState::ALL.iter().enumerate() {
            assert_eq!(h.code(), i as i32);
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

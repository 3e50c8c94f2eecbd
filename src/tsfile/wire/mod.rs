//! The wire between the core and its JS bindings: the numeric layouts the hot paths cross in
//! instead of objects (BENCHMARKS.md, "Boundary"), built and tested here as plain Rust, so that
//! `src/wasm/` only copies them into typed arrays and js/wire.js is their one decoder.
//!
//! - [`listing`]: the listing as columns (each device's names and each measurement name once);
//! - [`record`]: a single probe's result as a record of numbers, read in place in wasm memory;
//! - [`scan`]: the fast scan of one file from its head and tail window, as figures;
//! - [`batch`]: the calls over keys the bindings stage, in the codes JS passes.
//!
//! Every code those layouts hold is numbered here, once: a verdict, a tail variant, a charset,
//! a filter encoding and a data type (its byte) (`-1` where there is none, or for "automatic" in an argument). JS needs
//! the names and constants at import, before any wasm is initialised (`SEEDS` and `VARIANTS` are
//! public constants), so js/wire.js states them and tests/wire.rs checks that module against
//! [`tables`] entry for entry — as js/reasons.js is checked against the core's sentences.

pub mod batch;
pub mod listing;
pub mod record;
pub mod scan;

use super::verdict::FileVerdict;
use super::{BloomEncoding, DataType};
use crate::error::{Error, Result};
use crate::filter::{BloomFilter, Verdict};
use crate::hash::{TailVariant, SEEDS};
use crate::path::Charset;

/// What a code of "none" is, and an argument of "automatic" (the audit's choice).
pub const NONE: i32 = -1;

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
    i32::from(v == TailVariant::ZeroExtended)
}

/// The variant of a code; None for [`NONE`] (automatic); an unknown code is a bad argument.
pub fn variant_of(code: i32) -> Result<Option<TailVariant>> {
    of(code, &TailVariant::ALL, "variant code out of range")
}

/// A filter's variant of a code: automatic ([`NONE`]) is Java's, as a filter of any file's is.
pub fn filter_variant(code: i32) -> Result<TailVariant> {
    Ok(variant_of(code)?.unwrap_or(TailVariant::Java))
}

/// A charset's code: its index in [`Charset::ALL`].
pub fn charset_code(cs: Charset) -> i32 {
    Charset::ALL.iter().position(|&c| c == cs).map_or(NONE, |i| i as i32)
}

/// The charset of a code; None for [`NONE`] (automatic); an unknown code is a bad argument.
pub fn charset_of(code: i32) -> Result<Option<Charset>> {
    of(code, &Charset::ALL, "charset code out of range")
}

/// A filter's charset of a code: automatic ([`NONE`]) is UTF-8, the text JS hands over.
pub fn filter_charset(code: i32) -> Result<Charset> {
    Ok(charset_of(code)?.unwrap_or(Charset::Utf8))
}

/// A filter field encoding's code: its index in [`BloomEncoding::ALL`].
pub fn encoding_code(e: BloomEncoding) -> i32 {
    BloomEncoding::ALL.iter().position(|&x| x == e).map_or(NONE, |i| i as i32)
}

fn of<T: Copy>(code: i32, all: &[T], what: &'static str) -> Result<Option<T>> {
    if code == NONE {
        return Ok(None);
    }
    usize::try_from(code).ok().and_then(|i| all.get(i)).map(|&t| Some(t)).ok_or_else(|| Error::invalid_argument(what))
}

/// A filter's geometry and fill as the bindings hand it over at once, in this order.
pub const GEOMETRY: [&str; 4] = ["bitCount", "hashFunctionCount", "byteLength", "setBits"];

/// [`GEOMETRY`]'s figures of `f`.
pub fn geometry(f: &BloomFilter) -> [f64; 4] {
    [f64::from(f.bit_count()), f64::from(f.hash_function_count()), f64::from(f.byte_length()), f.set_bits() as f64]
}

/// Bytes from a file's end that the bindings read first when opening it, and all that the fast
/// scan reads ([`scan`]; a file no larger is read whole): most TsFileMetadata fit in it.
pub const TAIL_WINDOW: usize = 4096;

/// The code tables and layout constants, one line each: the table's name, then its entries
/// (names in code order, or numbers). js/wire.js states the same (tests/wire.rs checks it).
pub fn tables() -> String {
    let mut out = String::new();
    let mut line = |name: &str, items: &mut dyn Iterator<Item = String>| {
        out.push_str(name);
        for i in items {
            out.push(' ');
            out.push_str(&i);
        }
        out.push('\n');
    };
    let s = |x: &str| x.to_string();
    line("verdict", &mut FileVerdict::ALL.iter().map(|v| s(v.as_str())));
    line("variant", &mut TailVariant::ALL.iter().map(|v| s(v.as_str())));
    line("charset", &mut Charset::ALL.iter().map(|c| s(c.as_str())));
    line("single_byte", &mut Charset::ALL.iter().filter(|c| !c.is_multibyte()).map(|c| s(c.as_str())));
    line("encoding", &mut BloomEncoding::ALL.iter().map(|e| s(e.as_str())));
    // A data type's code is its byte (docs/tsfile-format.md); 7 names none ("-").
    line("data_type", &mut (0..=11).map(|b| s(DataType::from_byte(b).map_or("-", DataType::as_str))));
    line("seed", &mut SEEDS.iter().map(u32::to_string));
    line("none", &mut std::iter::once(NONE.to_string()));
    line("tail_window", &mut std::iter::once(TAIL_WINDOW.to_string()));
    line("listing_stride", &mut std::iter::once(listing::STRIDE.to_string()));
    line("listing_null", &mut std::iter::once(listing::NULL.to_string()));
    line("listing_flag", &mut listing::FLAGS.iter().map(|&(name, bit)| format!("{name}={bit}")));
    line("figures", &mut scan::FIGURE_NAMES.iter().map(|&n| s(n)));
    line("geometry", &mut GEOMETRY.iter().map(|&n| s(n)));
    line("probe_record", &mut record::FILE_FIELDS.iter().map(|&n| s(n)));
    line("filter_record", &mut record::FILTER_FIELDS.iter().map(|&n| s(n)));
    line("seed_probe", &mut record::SEED_FIELDS.iter().map(|&n| s(n)));
    line("other_probe", &mut record::OTHER_FIELDS.iter().map(|&n| s(n)));
    line("reason", &mut record::REASON_FIELDS.iter().map(|&n| s(n)));
    out
}

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
        assert_eq!(variant_of(NONE).unwrap(), None);
        assert_eq!(charset_of(NONE).unwrap(), None);
        for bad in [2, -2, i32::MAX] {
            assert_eq!(variant_of(bad).unwrap_err().kind, crate::ErrorKind::InvalidArgument);
        }
        assert_eq!(charset_of(12).unwrap_err().kind, crate::ErrorKind::InvalidArgument);
    }

    #[test]
    fn the_tables_list_every_code_in_order() {
        let t = tables();
        let line = |name: &str| t.lines().find(|l| l.split(' ').next() == Some(name)).unwrap().to_string();
        assert_eq!(line("verdict"), "verdict absent maybe unknown");
        assert_eq!(line("variant"), "variant java zero-extended");
        assert_eq!(line("encoding"), "encoding missing standard empty v3 legacy_cpp_empty java_null");
        assert_eq!(line("seed"), "seed 5 7 11 19 31 37 43 59");
        assert!(line("charset").starts_with("charset UTF-8 GBK "), "{t}");
        assert_eq!(
            line("listing_flag"),
            "listing_flag time=1 absent=2 maybe=4 same_device=8 new_name=16 whole_path=32"
        );
        assert_eq!(
            line("data_type"),
            "data_type BOOLEAN INT32 INT64 FLOAT DOUBLE TEXT VECTOR - TIMESTAMP DATE BLOB STRING"
        );
        assert_eq!(line("single_byte"), "single_byte UTF-8 windows-1252 ISO-8859-1");
        assert_eq!(line("geometry"), "geometry bitCount hashFunctionCount byteLength setBits");
        assert_eq!(t.lines().count(), 19);
    }
}

//! js/core-tables.js: the core's code tables, layout constants and defaults, as the JS package
//! reads them. The package needs them at import, before any wasm is initialised (`SEEDS` and
//! `VARIANTS` are public constants), so the file is generated from the core here rather than
//! asked of the module. The test fails when the file is not what the core says;
//! `npm run generate` (this test with TSFILE_BLOOM_GENERATE=1) writes it.

#![cfg(not(target_arch = "wasm32"))]

use std::fmt::Write;
use std::path::PathBuf;
use tsfile_bloom::audit::{DEFAULT_HASH, DEFAULT_HYPOTHESIS};
use tsfile_bloom::filter::{FilterHash, DEFAULT_ERROR_RATE, MAX_ERROR_RATE, MIN_ERROR_RATE};
use tsfile_bloom::health::HealthState;
use tsfile_bloom::tsfile::wire::{self, batch, listing, record, scan};
use tsfile_bloom::tsfile::{BloomEncoding, DataType, HEAD_READ, TAIL_LEN};
use tsfile_bloom::verdict::{Decision, FileVerdict};
use tsfile_bloom::{Charset, TailVariant, SEEDS};

const PATH: &str = "js/core-tables.js";

/// A JS string literal (JSON's is one).
fn lit(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

fn names<'a>(items: impl IntoIterator<Item = &'a str>) -> String {
    let items: Vec<String> = items.into_iter().map(lit).collect();
    let one_line = items.join(", ");
    if one_line.len() <= 160 {
        format!("Object.freeze([{one_line}])")
    } else {
        format!("Object.freeze([\n{}])", items.iter().map(|i| format!("  {i},\n")).collect::<String>())
    }
}

fn render() -> String {
    let mut out = String::from(
        "// Generated from the Rust core by tests/generated.rs (`npm run generate`); do not edit.\n\
         // The core's code tables, layout constants and defaults (src/tsfile/wire/, src/filter.rs,\n\
         // src/tsfile/envelope.rs, src/tsfile/audit.rs), for js/wire.js and js/core.js.\n\
         // `cargo test` fails when this file differs.\n",
    );
    let mut item = |doc: &str, name: &str, value: String| {
        write!(out, "\n/** {doc} */\nexport const {name} = {value};\n").unwrap();
    };
    item(
        "A verdict's code is its index (`FileVerdict::code`).",
        "VERDICTS",
        names(FileVerdict::ALL.iter().map(|v| v.as_str())),
    );
    item(
        "A decision's code is its index (`Decision::code`).",
        "DECISIONS",
        names(Decision::ALL.iter().map(|d| d.as_str())),
    );
    item(
        "The decisions that send a reader to the file for the path (`Decision::must_read`): not absent, not a false positive.",
        "MUST_READ",
        names(Decision::ALL.iter().filter(|d| d.must_read()).map(|d| d.as_str())),
    );
    let words: Vec<String> = Decision::ALL
        .iter()
        .map(|d| format!("{}: {}", d.as_str(), serde_json::to_string(d.words()).unwrap()))
        .collect();
    item(
        "Each decision in words, as the CLI's text and the page say it (`Decision::words`).",
        "DECISION_WORDS",
        format!("Object.freeze({{ {} }})", words.join(", ")),
    );
    let indexed: Vec<String> = batch::INDEXED.iter().map(|i| serde_json::to_string(i).unwrap()).collect();
    item(
        "What a batch's decisions say the index says of a path (`batch::INDEXED`); a code is its index.",
        "BATCH_INDEXED",
        format!("Object.freeze([{}])", indexed.join(", ")),
    );
    item(
        "A tail variant's code is its index (`variant_code`).",
        "VARIANTS",
        names(TailVariant::ALL.map(TailVariant::as_str)),
    );
    item(
        "The hash a result names as its variant; its code is its index (`named_hash_code`): the tail variants, then the cheap hash.",
        "NAMED_HASHES",
        names(wire::NAMED_HASHES),
    );
    item(
        "The hash that set a filter's bits; its code is its index (`FilterHash::code`).",
        "FILTER_HASHES",
        names(FilterHash::ALL.map(FilterHash::as_str)),
    );
    item(
        "Java's canonical names of the supported charsets; a charset's code is its index (`Charset::code`).",
        "CHARSETS",
        names(Charset::ALL.map(Charset::as_str)),
    );
    item(
        "The charsets the TsFile module encodes itself; the rest need the charsets module (`Charset::is_multibyte`).",
        "SINGLE_BYTE_CHARSETS",
        names(Charset::ALL.iter().filter(|c| !c.is_multibyte()).map(|c| c.as_str())),
    );
    item(
        "How TsFileMetadata stores the filter field; an encoding's code is its index (`BloomEncoding::code`).",
        "ENCODINGS",
        names(BloomEncoding::ALL.map(BloomEncoding::as_str)),
    );
    item(
        "A filter's health in one word; a state's code is its index (`HealthState::code`).",
        "HEALTH_STATES",
        names(HealthState::ALL.map(HealthState::as_str)),
    );
    let types: Vec<String> =
        (0..=11).map(|b| DataType::from_byte(b).map_or("null".to_string(), |t| lit(t.as_str()))).collect();
    item(
        "TsFile's data types; a type's code is its byte in the file (7 names none).",
        "DATA_TYPES",
        format!("Object.freeze([{}])", types.join(", ")),
    );
    let seeds: Vec<String> = SEEDS.iter().map(u32::to_string).collect();
    item(
        "TsFile's hash seeds, in order: a filter of k hash functions uses the first k.",
        "SEEDS",
        format!("Object.freeze([{}])", seeds.join(", ")),
    );
    item(
        "A code of \"none\" in a record, and \"automatic\" (the audit's choice) in an argument.",
        "NONE",
        wire::NONE.to_string(),
    );
    item(
        "Bytes from a file's end read first when opening it, and all the fast scan reads (a file no larger is read whole).",
        "TAIL_WINDOW",
        wire::TAIL_WINDOW.to_string(),
    );
    item(
        "The head a file is opened with: magic and version, and enough to recognise a v2 head (`envelope::HEAD_READ`).",
        "HEAD_LENGTH",
        HEAD_READ.to_string(),
    );
    item(
        "The tail that locates TsFileMetadata: its i32 size and the magic (`envelope::TAIL_LEN`).",
        "TAIL_LENGTH",
        TAIL_LEN.to_string(),
    );
    let magic: Vec<String> =
        tsfile_bloom::leveldb::TABLE_MAGIC.to_le_bytes().iter().map(|b| format!("0x{b:02x}")).collect();
    item(
        "LevelDB's table magic as the last 8 bytes of a table (`leveldb::TABLE_MAGIC`, little-endian).",
        "LEVELDB_TABLE_MAGIC",
        format!("Object.freeze([{}])", magic.join(", ")),
    );
    item(
        "Numbers per record of the listing's columns (src/tsfile/wire/listing.rs).",
        "LISTING_STRIDE",
        listing::STRIDE.to_string(),
    );
    item("A null name's bounds in the listing's columns.", "LISTING_NULL", format!("0x{:x}", listing::NULL));
    let flags: Vec<String> = listing::FLAGS.iter().map(|(name, bit)| format!("{name}: {bit}")).collect();
    item("The listing's flags.", "LISTING_FLAGS", format!("Object.freeze({{ {} }})", flags.join(", ")));
    item(
        "The fast scan's figures before its verdicts (src/tsfile/wire/scan.rs): the version, then bloomInfo()'s keys.",
        "FIGURES",
        names(scan::FIGURE_NAMES),
    );
    item(
        "A filter's geometry and fill, handed over at once (`wire::geometry`), in order.",
        "GEOMETRY",
        names(wire::GEOMETRY),
    );
    item(
        "The fields a file probe's record starts with (src/tsfile/wire/record.rs).",
        "PROBE_RECORD",
        names(record::FILE_FIELDS),
    );
    item("The fields a filter probe's record starts with.", "FILTER_RECORD", names(record::FILTER_FIELDS));
    item("One seed's probe in a record.", "SEED_PROBE", names(record::SEED_FIELDS));
    item("What precedes each other candidate's seed probes.", "OTHER_PROBE", names(record::OTHER_FIELDS));
    item(
        "The hash a filter's keys and a file's probes use when none is given or established (`audit::DEFAULT_HASH`).",
        "DEFAULT_HASH",
        format!(
            "Object.freeze({{ variant: {}, charset: {} }})",
            lit(DEFAULT_HASH.0.as_str()),
            lit(DEFAULT_HASH.1.as_str())
        ),
    );
    let h = DEFAULT_HYPOTHESIS;
    item(
        "The writer assumed where no hypothesis reproduces the stored bits, or there is no audit (`audit::DEFAULT_HYPOTHESIS`).",
        "DEFAULT_WRITER",
        format!(
            "Object.freeze({{ variant: {}, charset: {}, timeColumns: {}, trailingNullsKept: {} }})",
            lit(h.variant.as_str()),
            lit(h.charset.as_str()),
            h.time_columns,
            h.trailing_nulls_kept
        ),
    );
    item(
        "Java's getEmptyBloomFilter: the error rate it is given by default, and the range it clamps one to (src/filter.rs).",
        "ERROR_RATE",
        format!("Object.freeze({{ default: {DEFAULT_ERROR_RATE}, min: {MIN_ERROR_RATE}, max: {MAX_ERROR_RATE} }})"),
    );
    out
}

#[test]
fn js_core_tables_is_what_the_core_says() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(PATH);
    let want = render();
    if std::env::var_os("TSFILE_BLOOM_GENERATE").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(have == want, "{PATH} is not what the core says: run `npm run generate` and commit it");
}

#[test]
fn the_tables_hold_the_specs_values() {
    // Independent of the core: spec.md's seeds and the names JS users pass.
    let t = render();
    assert!(t.contains("export const SEEDS = Object.freeze([5, 7, 11, 19, 31, 37, 43, 59]);"), "{t}");
    assert!(t.contains(r#"export const VERDICTS = Object.freeze(["absent", "maybe", "unknown"]);"#), "{t}");
    // A reader skips a file only where it does not hold the path (docs/verdicts.md).
    assert!(
        t.contains(r#"false_positive: "false positive: the filter says maybe, the index does not list it""#),
        "{t}"
    );
    assert!(t.contains(r#"export const MUST_READ = Object.freeze(["indexed", "maybe", "unknown"]);"#), "{t}");
    assert!(t.contains("export const BATCH_INDEXED = Object.freeze([false, true, null]);"), "{t}");
    assert!(t.contains(r#"export const VARIANTS = Object.freeze(["java", "zero-extended"]);"#), "{t}");
    assert!(t.contains(r#"export const CHARSETS = Object.freeze(["UTF-8", "GBK", "#), "{t}");
    assert!(
        t.contains(r#"export const SINGLE_BYTE_CHARSETS = Object.freeze(["UTF-8", "windows-1252", "ISO-8859-1"]);"#)
    );
    assert!(t.contains(
        r#"export const ENCODINGS = Object.freeze(["missing", "standard", "empty", "v3", "legacy_cpp_empty", "java_null"]);"#
    ));
    assert!(t.contains(
        r#"DATA_TYPES = Object.freeze(["BOOLEAN", "INT32", "INT64", "FLOAT", "DOUBLE", "TEXT", "VECTOR", null, "TIMESTAMP", "DATE", "BLOB", "STRING"]);"#
    ));
    assert!(t.contains("LISTING_FLAGS = Object.freeze({ time: 1, absent: 2, maybe: 4, same_device: 8, new_name: 16, whole_path: 32 });"));
    // The format's: "TsFile" + version (and "000002" after it in a v2 head), i32 size + "TsFile".
    assert!(t.contains("export const HEAD_LENGTH = 12;"), "{t}");
    assert!(t.contains("export const TAIL_LENGTH = 10;"), "{t}");
    assert!(t.contains("ERROR_RATE = Object.freeze({ default: 0.05, min: 0.01, max: 0.1 });"), "{t}");
}

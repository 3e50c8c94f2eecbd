// Generated from the Rust core by tests/generated.rs (`npm run generate`); do not edit.
// The core's code tables, layout constants and defaults (src/tsfile/wire/, src/filter.rs,
// src/tsfile/envelope.rs, src/tsfile/audit.rs), for js/wire.js and js/core.js.
// `cargo test` fails when this file differs.

/** A verdict's code is its index (`FileVerdict::code`). */
export const VERDICTS = Object.freeze(["absent", "maybe", "unknown"]);

/** A decision's code is its index (`Decision::code`). */
export const DECISIONS = Object.freeze(["absent", "indexed", "false_positive", "maybe", "unknown"]);

/** The decisions that send a reader to the file for the path (`Decision::must_read`): not absent, not a false positive. */
export const MUST_READ = Object.freeze(["indexed", "maybe", "unknown"]);

/** Each decision in words, as the CLI's text and the page say it (`Decision::words`). */
export const DECISION_WORDS = Object.freeze({ absent: "absent: skip this file", indexed: "in the index: read this file", false_positive: "false positive: the filter says maybe, the index does not list it", maybe: "maybe: read the file to know", unknown: "unknown: the filter cannot answer, read the file" });

/** What a batch's decisions say the index says of a path (`batch::INDEXED`); a code is its index. */
export const BATCH_INDEXED = Object.freeze([false, true, null]);

/** A tail variant's code is its index (`variant_code`). */
export const VARIANTS = Object.freeze(["java", "zero-extended"]);

/** The hash a result names as its variant; its code is its index (`named_hash_code`): the tail variants, then the cheap hash. */
export const NAMED_HASHES = Object.freeze(["java", "zero-extended", "cheap"]);

/** The hash that set a filter's bits; its code is its index (`FilterHash::code`). */
export const FILTER_HASHES = Object.freeze(["murmur128", "cheap"]);

/** Java's canonical names of the supported charsets; a charset's code is its index (`Charset::code`). */
export const CHARSETS = Object.freeze(["UTF-8", "GBK", "GB18030", "Big5", "x-windows-950", "Shift_JIS", "windows-31j", "EUC-JP", "EUC-KR", "x-windows-949", "windows-1252", "ISO-8859-1"]);

/** The charsets the TsFile module encodes itself; the rest need the charsets module (`Charset::is_multibyte`). */
export const SINGLE_BYTE_CHARSETS = Object.freeze(["UTF-8", "windows-1252", "ISO-8859-1"]);

/** How TsFileMetadata stores the filter field; an encoding's code is its index (`BloomEncoding::code`). */
export const ENCODINGS = Object.freeze(["missing", "standard", "empty", "v3", "legacy_cpp_empty", "java_null"]);

/** A filter's health in one word; a state's code is its index (`HealthState::code`). */
export const HEALTH_STATES = Object.freeze(["healthy", "over_filled", "high_fp", "unknown"]);

/** TsFile's data types; a type's code is its byte in the file (7 names none). */
export const DATA_TYPES = Object.freeze(["BOOLEAN", "INT32", "INT64", "FLOAT", "DOUBLE", "TEXT", "VECTOR", null, "TIMESTAMP", "DATE", "BLOB", "STRING"]);

/** TsFile's hash seeds, in order: a filter of k hash functions uses the first k. */
export const SEEDS = Object.freeze([5, 7, 11, 19, 31, 37, 43, 59]);

/** A code of "none" in a record, and "automatic" (the audit's choice) in an argument. */
export const NONE = -1;

/** Bytes from a file's end read first when opening it, and all the fast scan reads (a file no larger is read whole). */
export const TAIL_WINDOW = 4096;

/** The head a file is opened with: magic and version, and enough to recognise a v2 head (`envelope::HEAD_READ`). */
export const HEAD_LENGTH = 12;

/** The tail that locates TsFileMetadata: its i32 size and the magic (`envelope::TAIL_LEN`). */
export const TAIL_LENGTH = 10;

/** LevelDB's table magic as the last 8 bytes of a table (`leveldb::TABLE_MAGIC`, little-endian). */
export const LEVELDB_TABLE_MAGIC = Object.freeze([0x57, 0xfb, 0x80, 0x8b, 0x24, 0x75, 0x47, 0xdb]);

/** Numbers per record of the listing's columns (src/tsfile/wire/listing.rs). */
export const LISTING_STRIDE = 5;

/** A null name's bounds in the listing's columns. */
export const LISTING_NULL = 0xffffffff;

/** The listing's flags. */
export const LISTING_FLAGS = Object.freeze({ time: 1, absent: 2, maybe: 4, same_device: 8, new_name: 16, whole_path: 32 });

/** The fast scan's figures before its verdicts (src/tsfile/wire/scan.rs): the version, then bloomInfo()'s keys. */
export const FIGURES = Object.freeze([
  "version",
  "present",
  "encoding",
  "offset",
  "bitsOffset",
  "byteLength",
  "bitCount",
  "hashFunctionCount",
  "setBits",
  "fillRatio",
  "estimatedItems",
  "fppFormula",
  "fppFromFill",
  "optimalK",
  "hash",
  "health.state",
  "health.errorRate",
  "health.sizedForItems",
  "health.designFill",
]);

/** A filter's geometry and fill, handed over at once (`wire::geometry`), in order. */
export const GEOMETRY = Object.freeze(["bitCount", "hashFunctionCount", "byteLength", "setBits", "hash"]);

/** The fields a file probe's record starts with (src/tsfile/wire/record.rs). */
export const PROBE_RECORD = Object.freeze(["verdict", "variant", "charset", "confirmed", "indexed", "k", "others", "decision"]);

/** The fields a filter probe's record starts with. */
export const FILTER_RECORD = Object.freeze(["verdict", "k"]);

/** One seed's probe in a record. */
export const SEED_PROBE = Object.freeze(["seed", "hash32", "bit", "set"]);

/** What precedes each other candidate's seed probes. */
export const OTHER_PROBE = Object.freeze(["variant", "charset", "verdict"]);

/** The hash a filter's keys and a file's probes use when none is given or established (`audit::DEFAULT_HASH`). */
export const DEFAULT_HASH = Object.freeze({ variant: "java", charset: "UTF-8" });

/** The writer assumed where no hypothesis reproduces the stored bits, or there is no audit (`audit::DEFAULT_HYPOTHESIS`). */
export const DEFAULT_WRITER = Object.freeze({ variant: "java", charset: "UTF-8", timeColumns: true, trailingNullsKept: true });

/** Java's getEmptyBloomFilter: the error rate it is given by default, and the range it clamps one to (src/filter.rs). */
export const ERROR_RATE = Object.freeze({ default: 0.05, min: 0.01, max: 0.1 });

// Generated from the Rust core's types by src/ts.rs (`npm run generate`); do not edit.
// The records the wasm modules return, as serde-wasm-bindgen hands them to JS (camelCase,
// None as null, integers as numbers), and the closed sets they name.

/** Every `kind` of this package's errors (docs/errors.md): the core's, then the JS layers'. */
export type ErrorKind = "too_short" | "bad_head_magic" | "unsupported_version" | "bad_tail_magic" | "bad_metadata_size" | "bad_string" | "bad_meta_offset" | "bad_index_node" | "bad_index_offset" | "unknown_data_type" | "bad_region" | "io" | "truncated" | "bad_varint" | "bad_count" | "bloom_overflow" | "bloom_stray_bits" | "bloom_bad_bit_count" | "bloom_bad_hash_function_count" | "trailing_bytes" | "invalid_argument" | "unsupported_hash" | "bad_footer_magic" | "bad_block_handle" | "bad_checksum" | "bad_block" | "unsupported_compression" | "bad_filter_block" | "changed" | "too_large" | "cancelled" | "manifest" | "worker" | "internal";
export type Variant = "java" | "zero-extended";
export type NamedHash = Variant | "cheap";
export type FilterHash = "murmur128" | "cheap";
export type JvmCharset = "UTF-8" | "GBK" | "GB18030" | "Big5" | "x-windows-950" | "Shift_JIS" | "windows-31j" | "EUC-JP" | "EUC-KR" | "x-windows-949" | "windows-1252" | "ISO-8859-1";
export type Verdict = "absent" | "maybe";
export type FileVerdict = "absent" | "maybe" | "unknown";
export type Decision = "absent" | "indexed" | "false_positive" | "maybe" | "unknown";
export type AuditStatus = "no_filter" | "established" | "ambiguous" | "not_reproduced" | "unsupported_hash";
export type BloomEncoding = "missing" | "standard" | "empty" | "v3" | "legacy_cpp_empty" | "java_null";
export type DataType = "BOOLEAN" | "INT32" | "INT64" | "FLOAT" | "DOUBLE" | "TEXT" | "VECTOR" | "TIMESTAMP" | "DATE" | "BLOB" | "STRING";
export type ColumnCategory = "TAG" | "FIELD" | "ATTRIBUTE" | "TIME" | "UNKNOWN";
export type ColumnDataType = DataType | `UNKNOWN(${number})`;
export type SeedProbe = {
  seed: number,
  hash32: number,
  bit: number,
  set: boolean,
};
/**
 * A probe as the API shows it: the verdict, the hash used and each seed's bit.
 */
export type ProbeResult = {
  verdict: Verdict,
  variant: Variant,
  /**
   * The charset the key bytes were made in, or None for bytes hashed as given (serialized
   * as the charset's name, or `"bytes"`).
   */
  charset: JvmCharset | "bytes",
  probes: Array<SeedProbe>,
};
export type BloomStats = {
  bitCount: number,
  hashFunctionCount: number,
  setBits: number,
  /**
   * set_bits / bit_count.
   */
  fillRatio: number,
  /**
   * `-(m/k) ln(1 - X/m)` (Swamidass & Baldi); infinite when every bit is set.
   */
  estimatedItems: number,
  /**
   * `fill^k`: false-positive probability implied by the actual fill.
   */
  fppFromFill: number,
  /**
   * `(1 - e^(-kn/m))^k` with n = `estimated_items` unless the caller gives one.
   */
  fppFormula: number,
  /**
   * The n used for `fpp_formula` and `optimal_k`.
   */
  items: number,
  /**
   * `(m/n) ln 2`.
   */
  optimalK: number,
};
/**
 * Where TsFileMetadata sits.
 */
export type TsFileMetadataInfo = {
  /**
   * Offset of TsFileMetadata in the file.
   */
  offset: number,
  size: number,
  /**
   * Offset of the index region (the 0x02 separator).
   */
  metaOffset: number,
};
export type HealthState = "healthy" | "over_filled" | "high_fp" | "unknown";
/**
 * A filter's design and how its bits and the index compare with it.
 */
export type FilterHealth = {
  state: HealthState,
  /**
   * The rate the writer is taken to have sized for (module docs).
   */
  errorRate: number,
  /**
   * The most keys the writers' sizing plans this m and k for ([`design_capacity`]).
   */
  sizedForItems: number,
  /**
   * The fill that many keys leave: 1 − e^(−k·n/m).
   */
  designFill: number,
};
/**
 * Where and how the filter is stored, with fill statistics.
 */
export type BloomInfo = {
  present: boolean,
  encoding: BloomEncoding,
  offset: number,
  bitsOffset: number | null,
  byteLength: number | null,
  /**
   * Also reported for an empty v3 (or legacy C++) filter, which stores its geometry.
   */
  bitCount: number | null,
  hashFunctionCount: number | null,
  /**
   * The hash that set the bits (None without a filter): Murmur128, or the experimental
   * cheap hash, which this reader does not evaluate.
   */
  hash: FilterHash | null,
  setBits: number | null,
  fillRatio: number | null,
  estimatedItems: number | null,
  /**
   * Paths the writer inserted according to the index (series, plus time columns when
   * the audit says they were inserted).
   */
  indexedItems: number | null,
  fppFormula: number | null,
  fppFromFill: number | null,
  optimalK: number | null,
  /**
   * More `indexed_items` than the most keys the writers' sizing plans this m and k for
   * ([`crate::design`]): sized for fewer keys than it holds. None: unknown.
   */
  filledPastDesign: boolean | null,
  /**
   * The C++ writer's sizing recognised in m and k ([`crate::design::cpp_sizing_for`]): the count
   * of measurement names it sized for, fewer than the `indexed_items` the filter holds. None:
   * the geometry does not tell that rule, or the index is not read.
   */
  cppSizedFor: number | null,
  /**
   * Its fill and fill^k against its design and the writer's error rate ([`crate::health`]).
   * None: no geometry any writer's sizing produces (or none at all).
   */
  health: FilterHealth | null,
};
/**
 * One listed series (or aligned time column).
 */
export type SeriesInfo = {
  path: string,
  table: string | null,
  /**
   * DeviceID segments; null segments stay null.
   */
  device: Array<string | null>,
  measurement: string,
  dataType: DataType,
  offset: number,
  /**
   * Under the file's soundness rules: true (maybe), false (a sound "absent": the filter
   * is inconsistent with the index), null (no filter, or bits that cannot be trusted).
   */
  maybePresent: boolean | null,
};
export type Hypothesis = {
  variant: Variant,
  timeColumns: boolean,
  /**
   * Trailing null tags kept in the path (C++ 2.5.0) or dropped (Java).
   */
  trailingNullsKept: boolean,
  charset: JvmCharset,
  writer: string,
  reproduces: boolean,
  differingBits: number,
  indexedAbsent: number,
};
export type AuditResult = {
  status: AuditStatus,
  /**
   * [`AuditStatus::consistent`]: the filter agrees with the index (`verify` passes).
   */
  consistent: boolean,
  summary: string,
  /**
   * The established tail variant, or `cheap` for a filter of the cheap hash.
   */
  variant: NamedHash | null,
  charset: JvmCharset | null,
  charsets: Array<JvmCharset>,
  charsetsUnavailable: Array<JvmCharset>,
  writer: string | null,
  /**
   * The index in `hypotheses` of the one taken as the writer's ([`Audit::writer_hypothesis`]).
   */
  writerHypothesis: number | null,
  seriesCount: number,
  timeColumnCount: number,
  nonAsciiTailPaths: number,
  hypotheses: Array<Hypothesis>,
};
/**
 * A probe under one more candidate hash.
 */
export type OtherProbe = {
  variant: Variant,
  charset: JvmCharset,
  verdict: Verdict,
  probes: Array<SeedProbe>,
};
/**
 * One path probed with the file's soundness rules.
 */
export type FileProbeResult = {
  path: string,
  verdict: FileVerdict,
  /**
   * What the verdict and the index's answer mean together for a reader ([`Decision::of`]).
   */
  decision: Decision,
  /**
   * The hash whose bits are reported: a tail variant, or `cheap` for a filter of the cheap
   * hash (not probed); None without a filter.
   */
  variant: NamedHash | null,
  charset: JvmCharset | null,
  confirmed: boolean,
  reason: string,
  /**
   * Whether the index lists this exact series (None before the index is read).
   */
  indexed: boolean | null,
  probes: Array<SeedProbe>,
  others: Array<OtherProbe>,
};
export type PropertyInfo = {
  key: string | null,
  value: string | null,
  /**
   * Hex of the value when it is not UTF-8.
   */
  valueHex: string | null,
};
export type ColumnInfo = {
  name: string | null,
  dataType: ColumnDataType,
  category: ColumnCategory,
  encoding: number,
  compression: number,
};
export type TableSchemaInfo = {
  table: string | null,
  columns: Array<ColumnInfo>,
};
/**
 * A non-fatal problem, or the error that stopped the index walk.
 */
export type WarningInfo = {
  kind: ErrorKind,
  message: string,
  /**
   * Always known for these errors, which come from the file's bytes.
   */
  offset: number,
};
export type LevelDbCompression = "none" | "snappy";
export type LevelDbKeyFormat = "internal" | "user";
export type LevelDbProbeReason = "bits" | "empty_filter" | "reserved_k" | "past_last_block" | "no_filter" | "filter_missing";
/**
 * A `BlockHandle`: where a block's stored bytes start and how many there are (the 5-byte
 * trailer follows and is not counted).
 */
export type BlockHandleInfo = {
  offset: number,
  size: number,
};
export type LevelDbMetaEntry = {
  key: string,
  offset: number,
  size: number,
};
export type LevelDbTableInfo = {
  fileSize: number,
  filterPolicy: string | null,
  policySupported: boolean,
  baseLg: number | null,
  keyFormat: LevelDbKeyFormat,
  filterBlock: BlockHandleInfo | null,
  metaindex: BlockHandleInfo,
  index: BlockHandleInfo,
  indexCompression: LevelDbCompression,
  metaEntries: Array<LevelDbMetaEntry>,
};
export type LevelDbDataBlock = {
  index: number,
  offset: number,
  size: number,
  separatorHex: string,
  filterIndex: number | null,
};
/**
 * One filter of the filter block (serialized as the JS API's LevelDB filter objects).
 */
export type LevelDbFilterInfo = {
  index: number,
  /**
   * Absolute file offset of the filter's first byte.
   */
  offset: number,
  /**
   * Bytes, including the trailing k byte (0 for an empty filter).
   */
  length: number,
  /**
   * The last byte (None for an empty filter). Above 30 means "reserved: may match".
   */
  k: number | null,
  /**
   * `(length - 1) * 8`.
   */
  bitCount: number,
  setBits: number,
  /**
   * Start offsets of the data blocks whose `offset >> base_lg` is this filter's index.
   */
  dataBlockOffsets: Array<number>,
};
/**
 * One probed bit of a LevelDB filter.
 */
export type LevelDbProbeBit = {
  bit: number,
  set: boolean,
};
/**
 * Result of routing a user key through the index to its filter (serialized as the JS API's
 * LevelDB probe result, camelCase keys).
 */
export type LevelDbProbeResult = {
  /**
   * What LevelDB's `Table::InternalGet` would conclude before reading the data block:
   * `Absent` means it never reads the block.
   */
  verdict: Verdict,
  reason: LevelDbProbeReason,
  /**
   * The verdict and its reason in words ([`ProbeReason::sentence`]).
   */
  sentence: string,
  /**
   * Index of the data block in `LevelDbTable::data_blocks`.
   */
  blockIndex: number | null,
  /**
   * The data block's handle.
   */
  dataBlock: BlockHandleInfo | null,
  filterIndex: number | null,
  /**
   * The hash probed (`BloomHash` of the user key, or the legacy policy's hash).
   */
  hash: number,
  /**
   * The k double-hashing positions (empty without a filter to probe).
   */
  probes: Array<LevelDbProbeBit>,
};
/**
 * A probe of one filter (`KeyMayMatch` with every probe position shown), as the JS API shows
 * it.
 */
export type LevelDbFilterProbe = {
  verdict: Verdict,
  reason: LevelDbProbeReason,
  /**
   * The verdict and its reason in words ([`ProbeReason::sentence`]).
   */
  sentence: string,
  /**
   * The hash probed (`BloomHash` of the key, or the legacy policy's hash).
   */
  hash: number,
  /**
   * The k double-hashing positions, in probe order. LevelDB stops at the first clear bit;
   * all k are listed here (`verdict` is what LevelDB answers).
   */
  probes: Array<LevelDbProbeBit>,
};

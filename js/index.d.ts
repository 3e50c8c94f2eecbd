// Browser and Node globals (Blob, URL, AbortSignal, FileList, fetch, ...) are named through
// `Global<K>`: the global's instance type where the program's libs declare it (lib "dom",
// "webworker" or @types/node), else `never` — so these declarations compile under any `lib`,
// with or without DOM and @types/node, and accept exactly what the runtime checks accept.
// The records the core returns and the closed sets they name are generated from its Rust types
// (js/types.generated.d.ts); what is declared here is the JS API around them.
import type { AuditResult, Hypothesis, AuditStatus, BloomInfo, BloomStats, Decision, ErrorKind, FileProbeResult, FileVerdict, FilterHash, JvmCharset, LevelDbDataBlock, LevelDbFilterInfo, LevelDbFilterProbe, LevelDbProbeResult, LevelDbTableInfo, NamedHash, ProbeResult, PropertyInfo, SeriesInfo, TableSchemaInfo, TsFileMetadataInfo, Variant, WarningInfo } from './types.generated.js';
export * from './types.generated.js';

/** The instance type of the global constructor `K` where this program's libs declare it, else never. */
type Global<K extends string> = typeof globalThis extends { [P in K]: { prototype: infer T } } ? T : never;
/** The global function `K` where this program's libs declare it, else never. */
type GlobalFunction<K extends string> = typeof globalThis extends { [P in K]: infer F extends (...args: never[]) => unknown } ? F : never;
/** A compiled WebAssembly module where this program's libs declare WebAssembly, else never. */
export type WasmModule = typeof globalThis extends { WebAssembly: { Module: { prototype: infer M } } } ? M : never;

/** A Blob or File (browsers, Node >= 20, Deno, Bun, Workers). */
export type BlobInput = Global<'Blob'>;
/** A WHATWG URL object. */
export type UrlInput = Global<'URL'>;
/** An AbortSignal. */
export type Signal = Global<'AbortSignal'>;
/** Request headers: a record, name-value pairs, or a Headers object. */
export type HeadersInput = Record<string, string> | [string, string][] | Global<'Headers'>;

// `using` / `await using` (explicit resource management): the well-known symbols, declared here
// for projects whose lib predates them (ES2022); lib "esnext" and @types/node declare the same.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
    readonly asyncDispose: unique symbol;
  }
}

/** A JVM charset by its Java name or alias, case-insensitive (e.g. 'utf8', 'cp936', 'MS932', 'latin1'). */
export type Charset = JvmCharset | (string & {});

/** A series path as text (encoded in the chosen charset) or as the exact bytes to hash. */
export type PathInput = string | Uint8Array;

/**
 * Keys already encoded, back to back: key i is `bytes.subarray(i ? ends[i - 1] : 0, ends[i])`.
 * Hashed as given (like Uint8Array paths); `ends` must be non-decreasing and within `bytes`.
 */
export interface EncodedPaths {
  bytes: Uint8Array;
  ends: Uint32Array;
}

export interface ProbeOptions {
  /** Default 'java'. */
  variant?: Variant;
  /** Default 'UTF-8'. Ignored for Uint8Array paths. */
  charset?: Charset;
}

export interface BatchProbeResult extends ProbeResult {
  path: PathInput;
}

export interface CompactProbeResults {
  k: number;
  /** Numbers per path in `data`: 1 + 2k. */
  stride: number;
  seeds: number[];
  /** Per path: set-bit mask (bit j = seed j's bit is set), then (hash32, bit) for each seed. */
  data: Int32Array;
  /** 1 where every probed bit is set ('maybe'), 0 for 'absent'. */
  maybe: Uint8Array;
  variant: Variant;
  charset: ProbeResult['charset'];
}

/** Why a read of a URL or an S3 object failed: `reason` of kinds 'io', 'changed' and 'cancelled' (docs/remote.md, docs/object-storage.md). */
export type IoReason = 'denied' | 'no_such_bucket' | 'no_such_key' | 'expired_credentials' | 's3_error' | 'dot_segment_key' | 'bad_listing' | 'listing_loop'
  | 'listing_empty' | 'redirect_hidden' | 'range_ignored' | 'too_large' | 'http_status' | 'short_body' | 'long_body' | 'bad_content_range' | 'encoded' | 'timeout'
  | 'deadline' | 'redirect_loop' | 'network' | 'out_of_range' | 'no_fetch' | 'cors' | 'csp' | 'presigned_truncated' | 'precondition_failed' | 'etag' | 'last_modified' | 'size' | 'cancelled';

/** Why a scan's manifest file cannot be used: `reason` of kind 'manifest' (docs/fleet.md). */
export type ManifestReason = 'foreign' | 'not_a_file' | 'truncated' | 'corrupt' | 'future_version' | 'old_version' | 'unreadable' | 'unwritable';

/**
 * Every error this package throws or rejects with: a stable `kind`, the byte `offset` it concerns
 * (null when it concerns none: a bad argument, a changed file), the plain sentence as `message`
 * (no kind or offset prefix), and the fields its kind names.
 */
export class TsFileBloomError extends Error {
  constructor(kind: ErrorKind, message: string, fields?: Partial<Omit<TsFileBloomError, 'kind' | 'message'>> & { cause?: unknown });
  kind: ErrorKind;
  offset: number | null;
  /** Kind 'invalid_argument' (and a CLI list's too_large line): the parameter's name ('this' for a closed or freed object). */
  argument?: string;
  /** Kinds 'io', 'changed', 'cancelled' of a remote source, and 'manifest': the stable cause. */
  reason?: IoReason | ManifestReason;
  /** A remote file, its secrets shown as REDACTED (as in the message). */
  url?: string;
  /** The HTTP status, when there was a response. */
  status?: number | null;
  /** A local file (or 'stdin'): an io or changed error's, a manifest's, a CLI list's. */
  path?: string;
  /** Kind 'manifest', reason 'corrupt' from a check rather than a checksum: the field that failed it ('verdicts', 'targets', …). */
  field?: string;
  /** A CLI list file's line number. */
  line?: number;
  /** A local file's io error: the system's code (ENOENT, EACCES, …). */
  code?: string;
  /** The Worker client's rejections: the op that failed (null for the worker itself). */
  op?: string | null;
}

export const SEEDS: readonly number[];
export const VARIANTS: readonly Variant[];
/** The twelve JVM charsets, by Java's canonical names. */
export const CHARSETS: readonly JvmCharset[];

/** Java's canonical name for a charset name or alias (case-insensitive), or null when unknown. */
export function canonicalCharsetName(name: string): JvmCharset | null;
/**
 * Loads the `charsets` wasm module (JDK 17's tables for the multi-byte charsets: all but UTF-8,
 * windows-1252 and ISO-8859-1) once; later calls return the same promise. Browsers must await it
 * before using a multi-byte charset; Node loads the module synchronously on first use.
 */
export function loadCharsets(options?: { module_or_path?: WasmInput | Promise<WasmInput> }): Promise<void>;

/**
 * Where a wasm module may come from: a URL (string or object), a fetch `Response` or `Request`,
 * its bytes, or a compiled module.
 */
export type WasmInput = string | UrlInput | Global<'Request'> | Global<'Response'> | ArrayBuffer | ArrayBufferView | WasmModule;

/** TsFile's Murmur128Hash folded to a signed 32-bit integer. Strings are hashed as UTF-8. */
export function hash32(path: PathInput, seed: number, variant?: Variant): number;

/**
 * The bytes a JVM whose default charset is `charset` hashes for `text`: `text.getBytes(charset)` as
 * on JDK 17, one '?' per unmappable code point (and per lone surrogate). Throws a TsFileBloomError
 * with kind 'invalid_argument' for an unknown name, or for a multi-byte charset before
 * loadCharsets() has resolved (browsers).
 */
export function encodePath(text: string, charset?: Charset): Uint8Array;

/** `(1 - e^(-kn/m))^k` for `items` keys in `bitCount` bits with k hash functions. */
export function fppFormula(items: number, bitCount: number, hashFunctionCount: number): number;
/** `(m/n) ln 2`: the hash-function count that minimises the formula (Infinity for 0 items). */
export function optimalK(items: number, bitCount: number): number;
/** Java's `getEmptyBloomFilter(errorRate, capacity)` sizing (errorRate clamped to [0.01, 0.1]). */
export function javaSizing(capacity: number, errorRate?: number): { bitCount: number; hashFunctionCount: number };

export class BloomFilter {
  /** Frees the filter at the end of a `using` block. */
  [Symbol.dispose](): void;
  /** An empty filter with explicit geometry. */
  constructor(bitCount: number, hashFunctionCount: number);
  /** Decodes the serialized structure; null for the "no filter" encoding (`00`). Throws TsFileBloomError. */
  static decode(bytes: Uint8Array): BloomFilter | null;
  /** Sized exactly as Java's `BloomFilter.getEmptyBloomFilter(errorRate, n)` (rate clamped to [0.01, 0.1]). */
  static withCapacity(n: number, errorRate?: number): BloomFilter;
  add(path: PathInput, options?: ProbeOptions): this;
  /** Adds many paths with one call into wasm. */
  addMany(paths: PathInput[] | EncodedPaths, options?: ProbeOptions): this;
  probe(path: PathInput, options?: ProbeOptions): ProbeResult;
  probeMany(paths: PathInput[] | EncodedPaths, options?: ProbeOptions & { compact?: false }): BatchProbeResult[];
  probeMany(paths: PathInput[] | EncodedPaths, options: ProbeOptions & { compact: true }): CompactProbeResults;
  /**
   * Verdicts only, like Java's `BloomFilter.contains` (each path stops at its first clear bit):
   * 1 where the path may have been added, 0 where it was not.
   */
  mightContainMany(paths: PathInput[] | EncodedPaths, options?: ProbeOptions): Uint8Array;
  /** The serialized structure, byte-identical to the Java writer (trailing zero bytes trimmed). */
  encode(): Uint8Array;
  /** Logical bit vector, ceil(bitCount / 8) bytes, LSB-first. */
  bits(): Uint8Array;
  readonly bitCount: number;
  readonly hashFunctionCount: number;
  /** Length of the stored (trimmed) bit vector. */
  readonly byteLength: number;
  readonly setBits: number;
  /** 'cheap': the experimental cheap hash set the bits; probe, add and their batches throw `unsupported_hash`. */
  readonly hash: FilterHash;
  stats(items?: number): BloomStats;
  /** Releases wasm memory now; otherwise a FinalizationRegistry releases it eventually. */
  free(): void;
}

/** A byte source: what openTsFile reads through (only the head, the tail and the index region). */
export interface ByteSource {
  size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
  close?(): Promise<void>;
  name?: string | null;
}

/** A Node path string or URL, a Node `FileHandle`, bytes, a Blob/File, or a ByteSource. */
export type TsFileInput = string | UrlInput | Uint8Array | ArrayBuffer | BlobInput | ByteSource | { fd: number; read: Function; stat: Function };

/** The keys a writer inserted, pre-encoded (see TsFile.writerKeys). */
export interface WriterKeys extends EncodedPaths {
  /** Keys before this index are series; the rest are time columns. */
  seriesCount: number;
}

/** For the members that answer from a TsFile's index. */
export interface IndexOptions {
  /** Resolve with what was read before an index error (audit: null) instead of rejecting with it. */
  partial?: boolean;
}

export class TsFile {
  private constructor();
  readonly version: 3 | 4;
  readonly size: number;
  readonly name: string | null;
  readonly metadata: TsFileMetadataInfo;
  readonly bloomFilter: BloomFilter | null;
  readonly properties: PropertyInfo[];
  readonly tableSchemas: TableSchemaInfo[];
  readonly tableNames: (string | null)[];
  readonly warnings: WarningInfo[];
  readonly indexError: TsFileBloomError | null;
  /** Closes the file at the end of an `await using` block. */
  [Symbol.asyncDispose](): Promise<void>;
  /** Reads made so far by opening and loadIndex() — for a URL, HTTP requests. */
  readonly reads: number;
  /** Bytes those reads brought — for a URL, response body bytes. */
  readonly bytesRead: number;
  bloomInfo(): BloomInfo;
  /** Reads the index region once; returns the error that stopped the walk (partial series kept), or null. */
  loadIndex(): Promise<TsFileBloomError | null>;
  /**
   * series, timeColumns, audit and writerKeys answer from the index (read on first use):
   * when it could not be read to its end they reject with its error — the TsFileBloomError
   * loadIndex() returns. With `{ partial: true }` they resolve with what was read before it (an
   * audit: null); `indexError` says why.
   */
  series(options?: IndexOptions): Promise<SeriesInfo[]>;
  /** The time columns of aligned devices (measurement ''). */
  timeColumns(options?: IndexOptions): Promise<SeriesInfo[]>;
  audit(options?: { partial?: false }): Promise<AuditResult>;
  audit(options: IndexOptions): Promise<AuditResult | null>;
  /**
   * The keys the writer inserted under a hypothesis (from writerHypothesis): every series, then
   * the time columns when `timeColumns`, each path joined as the writer joins it and encoded in
   * `charset`. Rejects with the index's error when it could not be read to its end.
   */
  writerKeys(hypothesis?: { timeColumns?: boolean; trailingNullsKept?: boolean; charset?: Charset }): Promise<WriterKeys>;
  /**
   * Synchronous, from the filter: before loadIndex() its verdict follows the rules for an unread
   * index, and a verdict reading the index may change says so at the end of its `reason`.
   */
  probe(path: string | Uint8Array, options?: ProbeOptions): FileProbeResult;
  probeMany(paths: (string | Uint8Array)[] | EncodedPaths, options?: ProbeOptions & { decisions?: false }): { path: string | Uint8Array; verdict: FileVerdict }[];
  /** With `decisions: true`, each path's `decision` and `indexed` too, as probe() gives them. */
  probeMany(paths: (string | Uint8Array)[] | EncodedPaths, options: ProbeOptions & { decisions: true }): DecidedProbe[];
  /**
   * Verdicts only, with probe()'s soundness rules: 0 exactly where `probe(path, options).verdict`
   * is 'absent', 1 where it is 'maybe' or 'unknown'. Paths are UTF-8 as stored in the index.
   */
  mightContainMany(paths: (string | Uint8Array)[] | EncodedPaths, options?: ProbeOptions): Uint8Array;
  close(): Promise<void>;
}

/** A row of TsFile#probeMany with `decisions: true`. */
export interface DecidedProbe { path: string | Uint8Array; verdict: FileVerdict; decision: Decision; indexed: boolean | null }

/** Opens a TsFile reading only its head and tail. Rejects with a TsFileBloomError. */
export function openTsFile(source: TsFileInput, options?: RemoteOptions): Promise<TsFile>;

export class LevelDbTable {
  /** Closes the table at the end of a `using` block. */
  [Symbol.dispose](): void;
  private constructor();
  readonly name: string | null;
  readonly size: number;
  /** In file order, empty filters included. */
  readonly filters: LevelDbFilterInfo[];
  readonly info: LevelDbTableInfo;
  dataBlocks(): LevelDbDataBlock[];
  /** Filter `index` as stored: bit bytes then the k byte. */
  filterBytes(index: number): Uint8Array | null;
  /** Routes a user key to its data block and filter and probes it. */
  probe(key: string | Uint8Array): LevelDbProbeResult;
  close(): void;
}

/** Opens a LevelDB table (.ldb/.sst); loads the LevelDB wasm module on first use. */
export function openLevelDbTable(source: TsFileInput): Promise<LevelDbTable>;

export interface LevelDbHelpers {
  /** LevelDB's BloomHash (seed 0xbc9f1d34). */
  hash(key: string | Uint8Array): number;
  /** floor(bitsPerKey × 0.69) clamped to 1..30. */
  k(bitsPerKey: number): number;
  /** The bit count CreateFilter gives `n` keys: n × bitsPerKey, at least 64, whole bytes. */
  filterBits(n: number, bitsPerKey: number): number;
  /** BloomFilterPolicy(bitsPerKey).CreateFilter(keys). */
  buildFilter(keys: (string | Uint8Array)[], bitsPerKey?: number): { bytes: Uint8Array; k: number; bitCount: number };
  /** KeyMayMatch with every probe position. */
  probeFilter(key: string | Uint8Array, filterBytes: Uint8Array): LevelDbFilterProbe;
}

/**
 * Loads the LevelDB wasm module (once) and resolves to its synchronous helpers; `module_or_path`
 * says where it comes from (by default the .wasm beside the package's glue, or the entry's own).
 */
export function loadLevelDb(options?: { module_or_path?: WasmInput | Promise<WasmInput> }): Promise<LevelDbHelpers>;
/** True when the 8 bytes end a LevelDB table (its magic). */
export function isLevelDbFooter(last8: Uint8Array): boolean;

export type WriterHypothesis = Pick<Hypothesis, 'variant' | 'charset' | 'timeColumns' | 'trailingNullsKept'> & { established: boolean; reproduced: boolean };

/** From an audit: the hash the writer used (Java when the audit cannot tell) and how sure that is. */
export function writerHypothesis(audit: AuditResult | null): WriterHypothesis;

// ---- Remote sources and fleet scans ----------------------------------------------------------

/**
 * Options for an http(s) URL given to openTsFile (a string starting with http:// or https://,
 * or a URL). Opening costs 2 Range requests (head and tail window, in parallel; the size comes
 * from the tail's Content-Range); loadIndex() one more when the index lies outside the window.
 */
export interface RemoteOptions extends OpenOptions {
  /** Extra request headers (e.g. Authorization), sent to the URL's origin only (a redirect to another origin carries none of them). */
  headers?: HeadersInput;
  /** Aborts every request of the file; the open rejects with kind 'cancelled'. */
  signal?: Signal;
  /** A request that receives nothing for this long fails (reason 'timeout'). Default 20000. */
  timeoutMs?: number;
  /** The whole open, and each later read (loadIndex), fails after this long (reason 'deadline'). Default 60000. */
  deadlineMs?: number;
  /** Read the whole body when a server ignores Range (200); refused otherwise (reason 'range_ignored'). */
  allowFullDownload?: boolean;
  /** The largest whole body allowFullDownload reads. Default 64 MiB. */
  maxFullDownloadBytes?: number;
  /** A fetch implementation (default globalThis.fetch; in Node, node:http(s) with kept-alive connections), called as a plain function. */
  fetch?: GlobalFunction<'fetch'>;
  /** For s3:// URLs: credentials and where the store is (Node falls back to the AWS_* variables and ~/.aws). */
  s3?: S3Options;
}

/** Settings for s3:// targets; without credentials requests go unsigned (public buckets). */
export interface S3Options {
  accessKeyId?: string; secretAccessKey?: string; sessionToken?: string;
  /** Default us-east-1. */
  region?: string;
  /** An S3-compatible store's endpoint, e.g. 'http://127.0.0.1:9000' (addressing is then path-style). */
  endpoint?: string;
  /** Path-style addressing (https://host/bucket/key); default: with an endpoint. */
  forcePathStyle?: boolean;
  /** Objects per ListObjectsV2 page (default the store's: 1,000 on AWS). */
  pageSize?: number;
}

/** Options of every open. */
export interface OpenOptions {
  /** The largest TsFileMetadata or index region read whole; beyond it, kind 'too_large'. Default 64 MiB. */
  maxIndexBytes?: number;
}

/** What scanTsFiles reads: Node paths/directories, http(s) URLs, s3://bucket/key and s3://bucket/prefix/; in browsers Files, FileList, handles, URLs and S3 ListObjectsV2 URLs (bucket listings: `…?list-type=2&prefix=…`). */
export type ScanTarget = string | UrlInput | BlobInput | Global<'FileList'> | Global<'FileSystemDirectoryHandle'> | Global<'FileSystemFileHandle'>;

export interface ScanOptions extends Omit<RemoteOptions, 'signal'> {
  /** Series paths to test in every file. */
  paths?: string[];
  /** Node: worker threads for local files (default: the core count) and files read at once over HTTP or S3 (default 64); browsers: files read at once (default 64). */
  concurrency?: number;
  /** Read each index too and let the writer-variant audit decide the verdicts. */
  audit?: boolean;
  /** Stops the scan and every read promptly; iteration and `summary` reject with kind 'cancelled'. */
  signal?: Signal;
  onProgress?(progress: { done: number; found: number; total: number | null; bytesRead: number; elapsedMs: number }): void;
  /**
   * Node: the path of a manifest file (docs/fleet.md). Unchanged local files are answered
   * from it (records with `reads: 0`), new or changed ones read, and it is rewritten (atomically)
   * with what this scan saw. A bad manifest rejects the scan with kind 'manifest'.
   */
  manifest?: string;
}

/** One file of a scan. `bloomFilter` is TsFile#bloomInfo(); `results` as TsFile#probeMany(). */
export interface ScanRecord {
  /**
   * The path (as found under the target), the URL (its secrets shown as REDACTED: docs/remote.md), or the File's relative path. A name that is not UTF-8 (a Linux file name is bytes)
   * shows its bytes from 0x80 as `\xNN` here: for display.
   */
  file: string;
  /** Node: the exact bytes of a path that is not UTF-8, in hex (what names the file); null for every other. */
  fileHex: string | null;
  /** Opened (and, with `audit`, its index walked) without error. */
  ok: boolean;
  size: number | null; version: number | null;
  bloomFilter: BloomInfo | null;
  /** With `audit`, also `indexed` (the index lists the path; null: it cannot tell) and `severalHashes` (the verdict consulted hashes that put the path on different bits). */
  results: { path: string; verdict: FileVerdict; indexed?: boolean | null; severalHashes?: boolean }[] | null;
  audit: { status: AuditStatus; variant: NamedHash | null; charset: JvmCharset | null; writer: string | null; summary: string } | null;
  /** Bytes read (HTTP: body bytes received) and reads (HTTP: requests). */
  bytesRead: number; reads: number;
  /** `reason` and `status`: a remote source's stable cause (`timeout`, `http_status`, …) and HTTP status, when it names them. */
  error: { kind: ErrorKind; message: string; offset: number | null; reason?: IoReason | ManifestReason; status?: number } | null;
}

export interface ScanSummary {
  files: number; ok: number; errors: number;
  errorsByKind: Partial<Record<ErrorKind, number>>;
  bytesRead: number; bytesOnDisk: number; reads: number; readsPerFile: number;
  versions: Record<string, number>;
  /** Files whose index was read and audited (`audit`); 0 without it, when nothing below that needs the index is known. */
  audited: number;
  /** filledPastDesign / withinDesign: filters by bloomInfo().filledPastDesign (the first LIST_CAP = 100 file names by name). */
  filters: { filledPastDesign: number; withinDesign: number; filledPastDesignFiles: string[]; withFilter: number; withoutFilter: number; fillDeciles: number[]; fppBands: { below: number | null; files: number }[] };
  /** Files by audit status (and variant), with `audit`. */
  audits: Record<string, number>;
  /** Per path: skippable (absent), mayHold (maybe + unknown), unreadable; skipRatio = skippable / files. */
  paths: {
    path: string; skippable: number; mayHold: number; maybe: number; unknown: number; unreadable: number; skipRatio: number;
    /** With `audit` (else 0 / null / []): files whose index lists the path, or proves it absent; of the latter, the filter said maybe (falsePositives), absent (filterAbsent) or unknown (noAnswer). */
    indexListed: number; indexAbsent: number; falsePositives: number; filterAbsent: number; noAnswer: number;
    /** falsePositives / (falsePositives + filterAbsent); predicted: the mean fill^k (fppFromFill) of those files, expected: its sum. */
    measuredFpRate: number | null; predictedFpRate: number | null; expectedFalsePositives: number | null;
    severalHashes: number; falsePositivesPastDesign: number; falsePositiveFiles: string[];
  }[];
  elapsedMs: number; filesPerSecond: number | null;
  /** With the `manifest` option: files answered from it, read, and dropped (gone since). */
  manifest?: { file: string; answered: number; read: number; dropped: number };
}

/** A running scan: iterate for the records (in walk order); `summary` resolves at the end. */
export interface Scan extends AsyncIterable<ScanRecord> {
  /** Awaited without iterating, the scan runs and drops the records (Node's threads send none). */
  readonly summary: Promise<ScanSummary>;
}

/** Scans a fleet of TsFiles: each file's filter and its verdicts for `paths`. */
export function scanTsFiles(targets: ScanTarget | ScanTarget[], options?: ScanOptions): Scan;

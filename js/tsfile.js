// Opening TsFiles from any source by reading only what is needed: the head
// (7 bytes), a tail window holding TsFileMetadata, and — to list series or
// audit — the index region. Sources: Uint8Array, ArrayBuffer, Blob/File, and
// (in Node) a path or a FileHandle.

import { WasmTsFile, tsfileEnvelope } from '../dist/web/tsfile_bloom.js';
import { argumentError, wrapRaw, stagePaths, stageBatch, charsetIndex, recordView, seedProbes, putKey, VARIANTS } from './core.js';
import { CHARSETS, charsetsLoaded, encodeJvm, isMultiByte, loadCharsets, loadCharsetsSync, wellFormed } from './charsets.js';
import { documentUrl, httpSource, isHttpUrl } from './http-source.js';
import { isS3Url, s3Source } from './s3.js';
import { reasonText } from './reasons.js';

/** First read from the end: most TsFileMetadata (and small index regions) fit in it. */
const TAIL_WINDOW = 4 * 1024;
/**
 * The largest TsFileMetadata or index region read (each is read whole): a 1,000,000-series
 * file's index is ~45 MB. Beyond it, a typed 'too_large' error instead of an allocation sized
 * by the file's own offsets (the `maxIndexBytes` option raises it).
 */
const DEFAULT_MAX_INDEX_BYTES = 64 * 1024 * 1024;

/** A 'too_large' error: `what` at `offset` is `length` bytes, more than `max`. */
function tooLarge(what, offset, length, max) {
  return Object.assign(new RangeError(`${what} is ${length} bytes, more than maxIndexBytes (${max}): raise the option to read it`), { kind: 'too_large', offset });
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();
// Stored names as JS strings: invalid UTF-8 becomes U+FFFD (as Rust's from_utf8_lossy), a BOM stays.
const lossyDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

// The multi-byte JVM charsets for the wasm audit and probes: stored UTF-8 path bytes in,
// the bytes a JVM with that default charset hashes out.
const charsetBridge = (bytes, charset) => encodeJvm(utf8Decoder.decode(bytes), charset);

/** A source of bytes: `size` and `read(offset, length) → Promise<Uint8Array>`; http(s) URLs resolve to one. */
export function toSource(source, options = {}) {
  if (isHttpUrl(source)) return httpSource(source, options);
  if (isS3Url(source)) return s3Source(source, options);
  const relative = documentUrl(source);
  if (relative) return httpSource(relative, options);
  if (source instanceof Uint8Array) {
    if (source.length === 0 && isDetached(source.buffer)) throw argumentError('the Uint8Array views a detached (transferred) buffer: it holds no bytes', 'source');
    return { size: source.length, read: async (o, n) => source.subarray(o, o + n), close: async () => {}, name: null };
  }
  if (source instanceof ArrayBuffer) {
    // A transferred (detached) buffer has no bytes any more: say so rather than read 0 of them.
    if (source.detached === true || (source.byteLength === 0 && isDetached(source))) throw argumentError('the ArrayBuffer is detached (it was transferred): it holds no bytes', 'source');
    return toSource(new Uint8Array(source));
  }
  if (typeof Blob !== 'undefined' && source instanceof Blob) {
    return {
      size: source.size,
      read: async (o, n) => new Uint8Array(await source.slice(o, o + n).arrayBuffer()),
      close: async () => {},
      name: source.name ?? null,
    };
  }
  if (source && typeof source.size === 'number' && typeof source.read === 'function') return source;
  throw argumentError('source must be a Uint8Array, ArrayBuffer, Blob/File, an http(s) URL (in a page, also one relative to it), or (in Node) a path or FileHandle', 'source');
}

/** Whether `buffer` is detached, where ArrayBuffer#detached is missing (Node 20): a view of it cannot be made. */
function isDetached(buffer) {
  try {
    new Uint8Array(buffer);
    return false;
  } catch {
    return true;
  }
}

/** Counts what is read (tests use it to show opening touches only the tail). */
export function countingSource(source) {
  const inner = toSource(source);
  const counted = { ...inner, bytesRead: 0, reads: [] };
  counted.read = async (o, n) => {
    counted.bytesRead += n;
    counted.reads.push([o, n]);
    return inner.read(o, n);
  };
  return counted;
}

/** WasmTsFile.listingColumns of a TsFile (for listingColumns). */
let columnsOf;

const registry = typeof FinalizationRegistry === 'undefined' ? null : new FinalizationRegistry((raw) => raw.free());

export class TsFile {
  #raw;
  #source;
  #indexError = null;
  #indexLoaded = false;
  #bloom = undefined;
  #encoderSet = false;
  /** The core's FileInfo (metadata, filter info, properties, schemas, warnings, audit), cached. */
  #info = null;
  /** The listing, built once from the wasm module's columns. */
  #listing = null;
  /** The words of the last probe's reason (js/reasons.js) and what they depend on. */
  #reason = '';
  #reasonKey = null;

  /** Use openTsFile(). */
  #window;

  static {
    columnsOf = (t) => t.#file.listingColumns();
  }

  /** The largest index region loadIndex reads. */
  #maxIndexBytes;

  constructor(raw, source, token, window = null, maxIndexBytes = DEFAULT_MAX_INDEX_BYTES) {
    if (token !== OPEN) throw new TypeError('use openTsFile()');
    this.#raw = raw;
    this.#source = source;
    this.#window = window; // { start, bytes }: the tail already read when opening
    this.#maxIndexBytes = maxIndexBytes;
    registry?.register(this, raw, this);
    if (charsetsLoaded()) this.#setEncoder();
  }

  // A multi-byte charset asked for by name: hand the charsets module over if it is loaded or
  // loads synchronously (Node); otherwise the wasm side says to call loadCharsets() first.
  #encoderFor(charset) {
    if (!this.#encoderSet && charset != null && isMultiByte(charset) && loadCharsetsSync()) this.#setEncoder();
  }

  // Hands the charsets module to the wasm side; when it audits again, cached answers go.
  #setEncoder() {
    this.#encoderSet = true;
    if (this.#file.setEncoder(charsetBridge)) this.#forget();
  }

  #forget() {
    this.#info = null;
    this.#listing = null;
    this.#reasonKey = null; // a reason may quote the audit's summary
  }

  get #file() {
    if (!this.#raw) throw argumentError('this TsFile is closed', 'this');
    return this.#raw;
  }

  get #fileInfo() {
    this.#info ??= this.#file.info();
    return this.#info;
  }

  /** 3 or 4. */
  get version() {
    return this.#file.version;
  }

  get size() {
    return this.#source.size;
  }

  get name() {
    return this.#source.name ?? null;
  }

  /** Reads made so far by opening and loadIndex() (for a URL: HTTP requests). */
  get reads() {
    return this.#source.ioCount;
  }

  /** Bytes those reads brought (for a URL: response body bytes). */
  get bytesRead() {
    return this.#source.ioBytes;
  }

  /** `{offset, size, metaOffset}` of TsFileMetadata. */
  get metadata() {
    return this.#fileInfo.metadata;
  }

  /** The stored filter as a BloomFilter, or null when the file has none. */
  get bloomFilter() {
    if (this.#bloom === undefined) {
      const raw = this.#file.bloomFilter();
      this.#bloom = raw ? wrapRaw(raw) : null;
    }
    return this.#bloom;
  }

  /** Where and how the filter is stored, with fill statistics (`indexedItems` once the index is read). */
  bloomInfo() {
    return this.#fileInfo.bloom;
  }

  /** `[{key, value, valueHex}]` — values that are not UTF-8 come as hex. */
  get properties() {
    return this.#fileInfo.properties;
  }

  get tableSchemas() {
    return this.#fileInfo.tableSchemas;
  }

  get tableNames() {
    return this.#fileInfo.tableNames;
  }

  /** Non-fatal problems (unreadable properties, a missing 0x02 marker, ...). */
  get warnings() {
    return this.#fileInfo.warnings;
  }

  /** Reads the index region (once) and audits the filter against it. */
  async loadIndex() {
    if (this.#indexLoaded) return this.#indexError;
    const [offset, length] = this.#file.indexRange();
    if (length > this.#maxIndexBytes) {
      // Not read: the filter still answers, under the rules for a file whose index is unread.
      this.#indexLoaded = true;
      this.#indexError = tooLarge(`the index region (from meta_offset ${offset} to TsFileMetadata)`, offset, length, this.#maxIndexBytes);
      this.#window = null;
      return this.#indexError;
    }
    // Small files: the index region often lies inside the tail window read at open.
    const w = this.#window;
    let region;
    try {
      if (w && offset >= w.start) region = w.bytes.subarray(offset - w.start, offset - w.start + length);
      else if (w && offset + length > w.start) {
        // Read only the part before the window and join it to the part already held.
        const before = await this.#source.read(offset, w.start - offset);
        region = new Uint8Array(length);
        region.set(before);
        region.set(w.bytes.subarray(0, offset + length - w.start), before.length);
      } else region = await this.#source.read(offset, length);
    } finally {
      await this.#source.release();
    }
    this.#window = null;
    this.#indexError = this.#file.attachIndex(region) ?? null;
    this.#indexLoaded = true;
    this.#forget();
    // No UTF-8 hypothesis reproduced the bits and some path is non-ASCII: the writer's JVM
    // may have had a multi-byte default charset. Fetch those tables only now.
    if (!this.#encoderSet && this.#fileInfo.audit?.charsetsUnavailable.length) {
      await loadCharsets();
      this.#setEncoder();
    }
    return this.#indexError;
  }

  /** The error that stopped the index walk, if any (series found before it are still listed). */
  get indexError() {
    return this.#indexError;
  }

  /** Every indexed series: `{series: [...], timeColumns: [...]}` (reads the index on first use). */
  async listing() {
    await this.loadIndex();
    this.#listing ??= listingFrom(this.#file.listingColumns());
    return this.#listing;
  }

  /** Every indexed series `{path, table, device, measurement, dataType, offset, maybePresent}`. */
  async series() {
    return (await this.listing()).series;
  }

  async timeColumns() {
    return (await this.listing()).timeColumns;
  }

  /** Which writer variant made the filter (reads the index on first use); null if the walk failed. */
  async audit() {
    await this.loadIndex();
    return this.#fileInfo.audit;
  }

  /**
   * The keys the writer inserted under a hypothesis (see writerHypothesis): every series,
   * then the time columns when `timeColumns`, joined as the writer joins them and encoded in
   * `charset`, as pre-encoded `{bytes, ends}` plus `seriesCount`.
   */
  async writerKeys({ timeColumns = true, trailingNullsKept = true, charset = 'UTF-8' } = {}) {
    await this.loadIndex();
    this.#encoderFor(charset);
    const [bytes, ends, seriesCount] = this.#file.writerKeys(timeColumns, trailingNullsKept, charset);
    return { bytes, ends, seriesCount };
  }

  /**
   * Probes one path with the file's soundness rules: `absent` only when the writer's hash
   * variant is established by the index or every candidate variant agrees; else `maybe` or
   * `unknown`, with the reason. Call after `audit()`/`loadIndex()` to use the index's verdict.
   */
  probe(path, { variant, charset } = {}) {
    const text = typeof path === 'string';
    if (!text && !(path instanceof Uint8Array)) throw argumentError('a path must be a string or a Uint8Array');
    this.#encoderFor(charset);
    const code = variantCode(variant);
    const index = charset == null || charset === '' ? -1 : charsetIndex(charset);
    const len = putKey(path);
    const at = this.#file.probe(len, code, index) >>> 2;
    const m = recordView();
    const k = m[at + 5];
    const otherCount = m[at + 6];
    let p = at + 7 + 4 * k;
    const others = new Array(otherCount);
    for (let i = 0; i < otherCount; i++) {
      others[i] = { variant: VARIANTS[m[p]], charset: CHARSETS[m[p + 1]], verdict: m[p + 2] === 1 ? 'maybe' : 'absent', probes: seedProbes(m, p + 3, k) };
      p += 3 + 4 * k;
    }
    const out = {
      // As hashed: an ASCII string as it is, lone surrogates as '?'.
      path: text ? (len === path.length ? path : wellFormed(path)) : lossyDecoder.decode(path),
      verdict: VERDICTS[m[at]],
      variant: m[at + 1] < 0 ? null : VARIANTS[m[at + 1]],
      charset: m[at + 2] < 0 ? null : CHARSETS[m[at + 2]],
      confirmed: m[at + 3] === 1,
      reason: '',
      indexed: m[at + 4] < 0 ? null : m[at + 4] === 1,
      probes: seedProbes(m, at + 7, k),
      others,
    };
    // The reason's codes end the record (WasmTsFile.probe); the probes of one file share a
    // handful of reasons, so its words are made again only when what they say changes.
    const codes = [m[p], m[p + 1], m[p + 2], m[p + 3]];
    // One number for all of it: kind (3 bits), wrong, listed (2), variant and charset (+1: 2 and
    // 5), confirmed, consulted (6); for kind 3 the clear seeds (8) and the other candidate (at 2^28).
    let key = codes[0] + 8 * codes[1] + 16 * codes[3] + 64 * (m[at + 1] + 1) + 256 * (m[at + 2] + 1) + 8192 * m[at + 3] + 16384 * codes[2];
    if (codes[0] === 3 || (codes[0] === 1 && codes[1])) {
      // The words name clear seeds: the hash used's (kind 3), or the writer's (kind 1 with its flag).
      const named = codes[0] === 3 ? out.probes : others[0].probes;
      let clear = 0;
      for (let j = 0; j < k; j++) if (!named[j].set) clear += 2 ** j;
      key += 2 ** 20 * clear + 2 ** 28 * (codes[0] === 3 ? others.findIndex((o) => o.verdict === 'maybe') : 0);
    }
    if (key !== this.#reasonKey) {
      this.#reasonKey = key;
      this.#reason = reasonText(codes, out, codes[0] === 2 ? this.#fileInfo.audit?.summary : null);
    }
    out.reason = this.#reason;
    return out;
  }

  /**
   * `[{path, verdict}]` for many paths in one call into wasm, with `probe`'s soundness rules;
   * `variant`/`charset` as in `probe`. `paths`: strings / Uint8Arrays, or pre-encoded
   * `{bytes, ends}` (each `path` is then its Uint8Array slice).
   */
  probeMany(paths, { variant, charset } = {}) {
    const code = variantCode(variant);
    this.#encoderFor(charset);
    const { count } = stageBatch(paths, undefined, 'probeMany');
    const codes = this.#file.probeStaged(count, code, charset ?? '');
    if (Array.isArray(paths)) return paths.map((path, i) => ({ path, verdict: VERDICTS[codes[i]] }));
    const out = new Array(count);
    for (let i = 0; i < count; i++) out[i] = { path: paths.bytes.subarray(i ? paths.ends[i - 1] : 0, paths.ends[i]), verdict: VERDICTS[codes[i]] };
    return out;
  }

  /**
   * Verdicts only, for many paths in one call into wasm: a Uint8Array with 0 where
   * `probe(path, options)` says 'absent' and 1 where it says 'maybe' or 'unknown' (same
   * soundness rules). `paths`: strings / Uint8Arrays (UTF-8, as stored in the index), or
   * pre-encoded `{bytes: Uint8Array, ends: Uint32Array}`.
   */
  mightContainMany(paths, { variant, charset } = {}) {
    this.#encoderFor(charset);
    const { count } = stageBatch(paths, undefined, 'mightContainMany');
    return this.#file.mightContainStaged(count, variantCode(variant), charset ?? '');
  }

  /** `await using t = await openTsFile(…)` closes it at the end of the block. */
  [Symbol.asyncDispose ?? Symbol.for('Symbol.asyncDispose')]() {
    return this.close();
  }

  /** Releases the wasm memory and the source (Node file handles opened by path). */
  async close() {
    if (!this.#raw) return;
    registry?.unregister(this);
    this.#bloom?.free();
    this.#raw.free();
    this.#raw = null;
    await this.#source.close?.();
  }
}

const VERDICTS = ['absent', 'maybe', 'unknown'];
const NOT_NULL = 0xffffffff;

/**
 * SeriesInfo objects from WasmTsFile.listingColumns (src/wasm/tsfile.rs says the layout): each
 * device's names and each measurement name cross once, as UTF-8 with byte bounds, and a path
 * is its device's prefix joined to its measurement. The records of one device share one
 * frozen `device` array; a string or an array per record would be garbage-collector work that
 * costs more than the rest of the listing (BENCHMARKS.md, "Boundary").
 */
function listingFrom([bytes, byteBounds, numbers, typeNames]) {
  const series = [];
  const timeColumns = [];
  const text = lossyDecoder.decode(bytes); // valid UTF-8: the wasm side decoded names lossily
  // Only ASCII text has as many UTF-16 units as bytes; otherwise count them once.
  const bounds = text.length === bytes.length ? byteBounds : utf16Bounds(bytes, byteBounds);
  const str = (b) => (bounds[b] === NOT_NULL ? null : text.slice(bounds[b], bounds[b + 1]));
  const measurements = [];
  let prefix = null;
  let table = null;
  let device = null;
  for (let n = 0, b = 0; n < numbers.length; n += 5) {
    const flags = numbers[n] & 0xff;
    if (!(flags & 8)) {
      prefix = str(b);
      table = str(b + 2);
      const segments = numbers[n + 1];
      device = new Array(segments);
      for (let j = 0; j < segments; j++) device[j] = str(b + 4 + 2 * j);
      Object.freeze(device);
      b += 4 + 2 * segments;
    }
    if (flags & 16) {
      measurements.push(str(b));
      b += 2;
    }
    const measurement = measurements[numbers[n + 2]];
    let path;
    if (flags & 32) {
      path = str(b);
      b += 2;
    } else path = prefix + measurement;
    const item = {
      path,
      table,
      device,
      measurement,
      dataType: typeNames[numbers[n] >>> 8],
      offset: numbers[n + 4] * 2 ** 32 + numbers[n + 3],
      maybePresent: flags & 4 ? true : flags & 2 ? false : null,
    };
    (flags & 1 ? timeColumns : series).push(item);
  }
  return { series, timeColumns };
}

/** UTF-16 units (what String.prototype.slice counts) of valid UTF-8 `bytes[from, to)`. */
function utf16Units(bytes, from, to) {
  let units = 0;
  for (let i = from; i < to; i++) {
    const c = bytes[i];
    // One unit per character (a byte that is not a continuation byte), two for 4-byte ones.
    if ((c & 0xc0) !== 0x80) units += c >= 0xf0 ? 2 : 1;
  }
  return units;
}

/** Byte bounds into `bytes` (increasing, NOT_NULL aside) as UTF-16 units of its text. */
function utf16Bounds(bytes, byteBounds) {
  const out = new Uint32Array(byteBounds.length);
  let at = 0;
  let units = 0;
  for (let i = 0; i < byteBounds.length; i++) {
    const b = byteBounds[i];
    if (b === NOT_NULL) out[i] = NOT_NULL;
    else {
      units += utf16Units(bytes, at, b);
      at = b;
      out[i] = units;
    }
  }
  return out;
}

/**
 * WasmTsFile.listingColumns of a TsFile (see listingFrom), its index read: for reports
 * written straight from the columns, without SeriesInfo objects (js/report.js).
 */
export async function listingColumns(file) {
  await file.loadIndex();
  return columnsOf(file);
}

const OPEN = Symbol('open');

/**
 * The source an open reads through: its size checked, every read checked to return exactly the
 * bytes asked for (a custom source's mistake is a typed io error, not a TypeError deep inside),
 * and `ioCount`/`ioBytes` — the source's own (an HTTP source counts requests), else counted here.
 */
function checkedSource(source) {
  const { size } = source;
  if (!Number.isSafeInteger(size) || size < 0) throw argumentError(`a byte source's size must be a non-negative integer, not ${String(size)}`, 'source');
  const counts = typeof source.ioCount === 'number';
  const checked = {
    size,
    name: source.name ?? null,
    ioCount: 0,
    ioBytes: 0,
    async read(offset, length) {
      if (!counts) {
        checked.ioCount++;
        checked.ioBytes += length;
      }
      const bytes = await source.read(offset, length);
      if (!(bytes instanceof Uint8Array) || bytes.length !== length) {
        const got = bytes instanceof Uint8Array ? `${bytes.length} bytes` : bytes === null ? 'null' : typeof bytes;
        throw Object.assign(new Error(`the byte source's read(${offset}, ${length}) returned ${got}, not ${length} bytes`), { kind: 'io', offset });
      }
      return bytes;
    },
    close: () => source.close?.(),
    release: () => source.release?.(),
  };
  if (counts) {
    Object.defineProperty(checked, 'ioCount', { get: () => source.ioCount });
    Object.defineProperty(checked, 'ioBytes', { get: () => source.ioBytes });
  }
  return checked;
}

// WasmTsFile.probe takes the variant as 0 (automatic), 1 (java) or 2 (zero-extended). A bad
// name throws the same Error the wasm side throws for a bad charset name.
function variantCode(variant) {
  if (variant === undefined || variant === null || variant === '') return 0;
  if (variant === 'java') return 1;
  if (variant === 'zero-extended') return 2;
  throw argumentError(`unknown hash variant ${JSON.stringify(String(variant))}; expected "java" or "zero-extended"`, 'variant');
}

/** Opens a TsFile, reading only its head and tail. Errors carry `kind` and `offset`. */
export async function openTsFile(input, options = {}) {
  const { source: makeSource = toSource, maxIndexBytes = DEFAULT_MAX_INDEX_BYTES } = options;
  if (!Number.isSafeInteger(maxIndexBytes) || maxIndexBytes < 0) throw argumentError(`maxIndexBytes must be a non-negative integer, not ${String(maxIndexBytes)}`, 'maxIndexBytes');
  const opened = await makeSource(input, options);
  let source;
  try {
    source = checkedSource(opened);
  } catch (e) {
    await opened?.close?.();
    throw e;
  }
  try {
    const size = source.size;
    // 12 bytes: 7 for magic + version, 12 to recognise a v2 head ("TsFile000002").
    const head = await source.read(0, Math.min(size, 12));
    const windowLen = Math.min(size, TAIL_WINDOW);
    const windowStart = size - windowLen;
    const window = await source.read(windowStart, windowLen);
    const tail = window.subarray(Math.max(0, windowLen - 10));
    const [, metadataOffset, metadataSize] = tsfileEnvelope(size, head, tail);
    if (metadataSize > maxIndexBytes) throw tooLarge('TsFileMetadata', metadataOffset, metadataSize, maxIndexBytes);
    const metadata =
      metadataOffset >= windowStart
        ? window.subarray(metadataOffset - windowStart, metadataOffset - windowStart + metadataSize)
        : await source.read(metadataOffset, metadataSize);
    const raw = WasmTsFile.open(size, head, tail, metadata);
    const file = new TsFile(raw, source, OPEN, { start: windowStart, bytes: window }, maxIndexBytes);
    // A file opened by path holds no descriptor between reads (js/node-source.js).
    await source.release();
    return file;
  } catch (e) {
    await source.close?.();
    throw e;
  }
}

// Opening TsFiles from any source by reading only what is needed: the head
// (7 bytes), a tail window holding TsFileMetadata, and — to list series or
// audit — the index region. Sources: Uint8Array, ArrayBuffer, Blob/File, and
// (in Node) a path or a FileHandle.

import { WasmTsFile, tsfileEnvelope } from '../dist/web/tsfile_bloom.js';
import { notAPath, wrapRaw, stageBatch, charsetOption, lastRecord, putKey, variantCode } from './core.js';
import { charsetsWasm, encodeJvm, isMultiByte, loadCharsets, wellFormed } from './charsets.js';
import { checkedSource, toSource } from './source.js';
import { invalidArgument, TsFileBloomError } from './errors.js';
import { decidedFrom, fileProbeFrom, HEAD_LENGTH, listingFrom, TAIL_LENGTH, TAIL_WINDOW, VERDICTS } from './wire.js';

const ABSENT = VERDICTS.indexOf('absent');
/**
 * The largest TsFileMetadata or index region read (each is read whole): a 1,000,000-series
 * file's index is ~45 MB. Beyond it, a typed 'too_large' error instead of an allocation sized
 * by the file's own offsets (the `maxIndexBytes` option raises it).
 */
const DEFAULT_MAX_INDEX_BYTES = 64 * 1024 * 1024;

/** A 'too_large' error: `what` at `offset` is `length` bytes, more than `max`. */
function tooLarge(what, offset, length, max) {
  return new TsFileBloomError('too_large', `${what} is ${length} bytes, more than maxIndexBytes (${max}): raise the option to read it`, { offset });
}

const utf8Decoder = new TextDecoder();
// Stored names as JS strings: invalid UTF-8 becomes U+FFFD (as Rust's from_utf8_lossy), a BOM stays.
const lossyDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

// The multi-byte JVM charsets for the wasm audit and probes: stored UTF-8 path bytes in,
// the bytes a JVM with that default charset hashes out.
const charsetBridge = (bytes, charset) => encodeJvm(utf8Decoder.decode(bytes), charset);

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

  /** Use openTsFile(). */
  #window;

  /** The largest index region loadIndex reads. */
  #maxIndexBytes;

  /** 3 or 4, from the envelope (step 1 of the open). */
  #version;

  constructor(raw, source, token, version, window = null, maxIndexBytes = DEFAULT_MAX_INDEX_BYTES) {
    if (token !== OPEN) throw invalidArgument('this', 'a TsFile is made by openTsFile(), not by its constructor');
    this.#raw = raw;
    this.#version = version;
    this.#source = source;
    this.#window = window; // { start, bytes }: the tail already read when opening
    this.#maxIndexBytes = maxIndexBytes;
    registry?.register(this, raw, this);
    if (charsetsWasm.loaded()) this.#setEncoder();
  }

  // A multi-byte charset asked for by name: hand the charsets module over if it is loaded or
  // loads synchronously (Node); otherwise the wasm side says to call loadCharsets() first.
  #encoderFor(charset) {
    if (!this.#encoderSet && charset != null && isMultiByte(charset) && charsetsWasm.loadSync()) this.#setEncoder();
  }

  // Hands the charsets module to the wasm side; when it audits again, cached answers go.
  #setEncoder() {
    this.#encoderSet = true;
    if (this.#file.setEncoder(charsetBridge)) this.#forget();
  }

  #forget() {
    this.#info = null;
    this.#listing = null;
  }

  // Every member goes through #file or #open: after close() each throws this one typed error,
  // whatever it had cached.
  get #file() {
    if (!this.#raw) throw invalidArgument('this', 'this TsFile is closed');
    return this.#raw;
  }

  get #open() {
    return this.#file && this.#source;
  }

  get #fileInfo() {
    const file = this.#file;
    this.#info ??= file.info();
    return this.#info;
  }

  /** 3 or 4. */
  get version() {
    return this.#file && this.#version;
  }

  get size() {
    return this.#open.size;
  }

  get name() {
    return this.#open.name ?? null;
  }

  /** Reads made so far by opening and loadIndex() (for a URL: HTTP requests). */
  get reads() {
    return this.#open.ioCount;
  }

  /** Bytes those reads brought (for a URL: response body bytes). */
  get bytesRead() {
    return this.#open.ioBytes;
  }

  /** `{offset, size, metaOffset}` of TsFileMetadata. */
  get metadata() {
    return this.#fileInfo.metadata;
  }

  /** The stored filter as a BloomFilter, or null when the file has none. */
  get bloomFilter() {
    const file = this.#file;
    if (this.#bloom === undefined) {
      const raw = file.bloomFilter();
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
    const file = this.#file;
    if (this.#indexLoaded) return this.#indexError;
    const [offset, length] = file.indexRange();
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
    return this.#file && this.#indexError;
  }

  // The members whose answer is the index (series, timeColumns, audit, writerKeys) read
  // it on first use and reject with its error when it could not be read to its end — the same
  // typed error loadIndex() returns — never an empty or partial answer that looks whole. With
  // `{partial: true}` the listing is what was read before the error, and the audit null.
  async #index(partial, member) {
    if (partial !== undefined && typeof partial !== 'boolean') throw invalidArgument('partial', `${member}'s partial must be true or false, not ${String(partial)}`);
    const error = await this.loadIndex();
    if (error && !partial) throw error;
  }

  /** The index's listing `{series, timeColumns}`, built once (reads the index on first use). */
  async #listed(options, member) {
    await this.#index(options?.partial, member);
    this.#listing ??= listingFrom(this.#file.listingColumns());
    return this.#listing;
  }

  /** Every indexed series `{path, table, device, measurement, dataType, offset, maybePresent}`. */
  async series(options) {
    return (await this.#listed(options, 'series')).series;
  }

  /** The time columns the index lists (table model), as series records. */
  async timeColumns(options) {
    return (await this.#listed(options, 'timeColumns')).timeColumns;
  }

  /** Which writer variant made the filter (reads the index on first use); with `partial`, null if the walk failed. */
  async audit(options) {
    await this.#index(options?.partial, 'audit');
    return this.#fileInfo.audit;
  }

  /**
   * The keys the writer inserted under a hypothesis (see writerHypothesis): every series,
   * then the time columns when `timeColumns`, joined as the writer joins them and encoded in
   * `charset`, as pre-encoded `{bytes, ends}` plus `seriesCount`.
   */
  async writerKeys({ timeColumns = true, trailingNullsKept = true, charset = 'UTF-8' } = {}) {
    await this.#index(undefined, 'writerKeys');
    this.#encoderFor(charset);
    const [bytes, ends, seriesCount] = this.#file.writerKeys(timeColumns, trailingNullsKept, charsetOption(charset));
    return { bytes, ends, seriesCount };
  }

  /**
   * Probes one path with the file's soundness rules: `absent` only when the writer's hash
   * variant is established by the index or every candidate variant agrees; else `maybe` or
   * `unknown`, with the reason. Call after `audit()`/`loadIndex()` to use the index's verdict.
   */
  probe(path, { variant, charset } = {}) {
    if (typeof path !== 'string' && !(path instanceof Uint8Array)) throw notAPath();
    this.#encoderFor(charset);
    const v = variantCode(variant);
    const cs = charsetOption(charset);
    const len = putKey(path);
    const reason = this.#file.probe(len, v, cs);
    const out = lastRecord(fileProbeFrom);
    // As hashed: an ASCII string as it is, lone surrogates as '?'; bytes as UTF-8 (lossy).
    out.path = typeof path !== 'string' ? lossyDecoder.decode(path) : len === path.length ? path : wellFormed(path);
    out.reason = reason;
    return out;
  }

  /**
   * `[{path, verdict}]` for many paths in one call into wasm, with `probe`'s soundness rules;
   * `variant`/`charset` as in `probe`; `decisions: true` adds each path's `decision` and
   * `indexed`, as `probe` gives them. `paths`: strings / Uint8Arrays, or pre-encoded
   * `{bytes, ends}` (each `path` is then its Uint8Array slice).
   */
  probeMany(paths, { variant, charset, decisions = false } = {}) {
    const code = variantCode(variant);
    this.#encoderFor(charset);
    const { count } = stageBatch(paths, undefined, 'probeMany');
    const codes = this.#file.probeStaged(count, code, charsetOption(charset), decisions === true);
    const pathAt = Array.isArray(paths) ? (i) => paths[i] : (i) => paths.bytes.subarray(i ? paths.ends[i - 1] : 0, paths.ends[i]);
    if (decisions === true) return decidedFrom(codes, count, pathAt);
    if (Array.isArray(paths)) return paths.map((path, i) => ({ path, verdict: VERDICTS[codes[i]] }));
    const out = new Array(count);
    for (let i = 0; i < count; i++) out[i] = { path: pathAt(i), verdict: VERDICTS[codes[i]] };
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
    const codes = this.#file.probeStaged(count, variantCode(variant), charsetOption(charset));
    for (let i = 0; i < codes.length; i++) codes[i] = codes[i] === ABSENT ? 0 : 1;
    return codes;
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

const OPEN = Symbol('open');


/** Opens a TsFile, reading only its head and tail. Errors carry `kind` and `offset`. */
export async function openTsFile(input, options = {}) {
  const { source: makeSource = toSource, maxIndexBytes = DEFAULT_MAX_INDEX_BYTES } = options;
  if (!Number.isSafeInteger(maxIndexBytes) || maxIndexBytes < 0) throw invalidArgument('maxIndexBytes', `maxIndexBytes must be a non-negative integer, not ${String(maxIndexBytes)}`);
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
    const head = await source.read(0, Math.min(size, HEAD_LENGTH));
    const windowLen = Math.min(size, TAIL_WINDOW);
    const windowStart = size - windowLen;
    const window = await source.read(windowStart, windowLen);
    const tail = window.subarray(Math.max(0, windowLen - TAIL_LENGTH));
    const [version, metadataOffset, metadataSize] = tsfileEnvelope(size, head, tail);
    if (metadataSize > maxIndexBytes) throw tooLarge('TsFileMetadata', metadataOffset, metadataSize, maxIndexBytes);
    const metadata =
      metadataOffset >= windowStart
        ? window.subarray(metadataOffset - windowStart, metadataOffset - windowStart + metadataSize)
        : await source.read(metadataOffset, metadataSize);
    const raw = WasmTsFile.open(size, head, tail, metadata);
    const file = new TsFile(raw, source, OPEN, version, { start: windowStart, bytes: window }, maxIndexBytes);
    // A file opened by path holds no descriptor between reads (js/node-source.js).
    await source.release();
    return file;
  } catch (e) {
    await source.close?.();
    throw e;
  }
}

// The public JS API over the wasm module. Every entry point (node.js, browser.js,
// web.js) re-exports this module after making sure the wasm is initialised.

import {
  WasmBloomFilter, hash32 as rawHash32, stageKeys, wasmMemory, javaSizing as rawJavaSizing, probeRecord, keyArea, builtFilterProbe as rawBuiltProbe,
} from '../dist/web/tsfile_bloom.js';
import { CHARSETS, canonicalCharsetName, charsetCode, encodeJvm, isMultiByte, wellFormed } from './charsets.js';
import { invalidArgument } from './errors.js';
import { compactProbes, compactRow, DECISIONS, FILTER_HASHES, filterProbeFrom, GEOMETRY, NONE, VARIANTS, VERDICTS } from './wire.js';
import { DEFAULT_HASH, DEFAULT_WRITER, ERROR_RATE } from './core-tables.js';

const [BIT_COUNT, HASH_FUNCTION_COUNT, BYTE_LENGTH, SET_BITS, HASH] = ['bitCount', 'hashFunctionCount', 'byteLength', 'setBits', 'hash'].map((f) => GEOMETRY.indexOf(f));

export { CHARSETS, canonicalCharsetName, loadCharsets } from './charsets.js';
export { SEEDS, VARIANTS } from './wire.js';

const utf8 = new TextEncoder();

/**
 * A `variant` option as the wasm exports take it: its code (js/wire.js), or NONE when it is not
 * given — the core then hashes as the file's audit says, or for a filter as DEFAULT_HASH. An
 * unknown name is a typed error.
 */
export function variantCode(variant) {
  if (variant === undefined || variant === null || variant === '') return NONE;
  const code = VARIANTS.indexOf(variant);
  if (code < 0) {
    throw invalidArgument('variant', `unknown hash variant ${JSON.stringify(String(variant))}; expected ${VARIANTS.map((v) => JSON.stringify(v)).join(' or ')}`);
  }
  return code;
}
/** A filter's variant name for a code (NONE: DEFAULT_HASH's). */
const filterVariant = (code) => (code === NONE ? DEFAULT_HASH.variant : VARIANTS[code]);
/** The code of a batch's charset for the filter exports: automatic (UTF-8) unless the text is re-encoded. */
const keyCharset = (packed) => (packed.text ? charsetCode(packed.charset) : NONE);

/** The error for a path that is neither a string nor bytes. */
export const notAPath = (argument = 'path') => invalidArgument(argument, 'a path must be a string or a Uint8Array');

/** A `charset` option as the wasm exports take it: its code, or NONE when it is not given (the core then hashes as the file's audit says). */
export const charsetOption = (charset) => (charset === undefined || charset === null || charset === '' ? NONE : charsetCode(charset));

// The module's WebAssembly.Memory, asked for once (the object stays; its buffer is replaced
// when memory grows, and views of the old one detach).
let memoryObject = null;
const moduleMemory = () => (memoryObject ??= wasmMemory());

// A single probe's numbers cross in the wasm module's probe record (src/tsfile/wire/record.rs),
// read in place by js/wire.js; the view is remade when wasm memory has grown.
let record32 = null;

/** `decode(memory as an Int32Array, index of the last probe's record)`. */
export function lastRecord(decode) {
  // A view of memory that has grown since is detached: its length reads 0.
  if (record32 === null || record32.length === 0) record32 = new Int32Array(moduleMemory().buffer);
  return decode(record32, probeRecord() >>> 2);
}

// Node's own Buffer#utf8Write (not a bundler's Buffer polyfill: only under Node).
const nodeUtf8Write =
  typeof globalThis.process?.versions?.node === 'string' && typeof Buffer === 'function' && typeof Buffer.prototype.utf8Write === 'function';

// A view of a module's memory and `write(string, at) → bytes written`, UTF-8 into it by one
// native call: kept until the memory is another buffer (it grew, detaching the old one, or it
// is the other module's).
let into = { memory: null, bytes: null, write: null };
function memoryWriter(memory) {
  if (into.memory === memory) return into;
  const bytes = new Uint8Array(memory);
  // workerd's Buffer (its Node compatibility) reads an omitted length as the whole buffer's
  // and refuses any write past offset 0: the length is explicit.
  const { byteLength } = memory;
  const buffer = nodeUtf8Write ? Buffer.from(memory) : null;
  const write = buffer ? (s, at) => buffer.utf8Write(s, at, byteLength - at) : (s, at) => utf8.encodeInto(s, bytes.subarray(at)).written;
  into = { memory, bytes, write };
  return into;
}

// Single-key calls read their key from the wasm module's key area, written here in place
// (a string by one native call, as in stagePaths): no JS array and no copy by the glue. A
// string's lone surrogates become '?', as Java's getBytes writes them. Returns its length in
// bytes (a string's length in UTF-16 units only when it is ASCII).
export function putKey(key) {
  if (typeof key !== 'string') checkBytes(key);
  const at = keyArea(typeof key === 'string' ? key.length * 3 : key.length);
  const { bytes, write } = memoryWriter(moduleMemory().buffer);
  if (typeof key !== 'string') {
    bytes.set(key, at);
    return key.length;
  }
  return writeText(write, key, at);
}

/**
 * Writes `s` with a memoryWriter's `write` at `at`; returns the bytes written. Lone surrogates
 * become '?' (Java's getBytes; the encoders write U+FFFD): only a non-ASCII string can hold
 * one, so ASCII ones, most paths, skip the check.
 */
function writeText(write, s, at) {
  const written = write(s, at);
  return written === s.length || s.isWellFormed() ? written : write(wellFormed(s), at);
}

/** TsFile's Murmur128 folded to a signed 32-bit int, for one seed. Strings are hashed as UTF-8. */
export function hash32(path, seed, variant) {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw invalidArgument('seed', `seed must be an integer from 0 to 4,294,967,295 (2^32 - 1), not ${String(seed)}`);
  if (typeof path === 'string') return rawHash32(utf8.encode(wellFormed(path)), seed, variantCode(variant));
  if (path instanceof Uint8Array) return rawHash32(path, seed, variantCode(variant));
  throw notAPath();
}

/** The bytes a JVM with default charset `charset` hashes for `text` (unmappable characters → '?'). */
export function encodePath(text, charset = 'UTF-8') {
  if (typeof text !== 'string') throw invalidArgument('text', 'encodePath expects a string');
  return encodeJvm(text, charset);
}

/** The canonical name when `charset` is a multi-byte charset, else null (unknown names go to wasm's error). */
function multiByteName(charset) {
  return charset !== undefined && isMultiByte(charset) ? canonicalCharsetName(charset) : null;
}

// The core's figures as the module exports them: `fppFormula(items, bitCount,
// hashFunctionCount)` = `(1 - e^(-kn/m))^k`; `optimalK(items, bitCount)` = `(m/n) ln 2`, the
// hash-function count that minimises it (Infinity for 0 items); `bitIndex(hash32, bitCount)` =
// `(hash32 == -2^31 ? 0 : |hash32|) mod bitCount` (the page's teaching panel).
export { fppFormula, optimalK, bitIndex } from '../dist/web/tsfile_bloom.js';

/** Java's `BloomFilter.getEmptyBloomFilter(errorRate, capacity)` sizing: errorRate clamped to [ERROR_RATE.min, ERROR_RATE.max]. */
export function javaSizing(capacity, errorRate = ERROR_RATE.default) {
  const [bitCount, hashFunctionCount] = rawJavaSizing(capacity, errorRate);
  return { bitCount, hashFunctionCount };
}

/**
 * Whether `buffer` was transferred away (postMessage, structuredClone): a view of it then reads
 * as empty and copying from it throws an untyped TypeError. Only an empty buffer can be; where
 * ArrayBuffer#detached is missing (Node 20) no view of it can be made.
 */
export function isDetached(buffer) {
  if (buffer.byteLength !== 0) return false;
  if (typeof buffer.detached === 'boolean') return buffer.detached;
  try {
    new Uint8Array(buffer);
    return false;
  } catch {
    return true;
  }
}

/** A path that is not a string: bytes whose buffer is still there, else the typed error naming `path`. */
function checkBytes(path) {
  if (!(path instanceof Uint8Array)) throw notAPath();
  if (path.length === 0 && isDetached(path.buffer)) throw detachedError('the path (a Uint8Array)', 'path');
}

/** The typed error for bytes whose buffer was transferred: `what` names them, `argument` the parameter. */
const detachedError = (what, argument) => invalidArgument(argument, `${what} cannot be read: its ArrayBuffer was transferred (detached), by postMessage or structuredClone; pass a copy`);

function isEncoded(paths) {
  return paths !== null && typeof paths === 'object' && !Array.isArray(paths) && 'bytes' in paths && 'ends' in paths;
}

/**
 * Copies pre-encoded keys `{bytes: Uint8Array, ends: Uint32Array}` into the staging area with
 * two bulk copies. The wasm side checks the ends (non-decreasing, within `bytes`).
 */
export function stageEncoded(input, module = { stageKeys, wasmMemory: moduleMemory }) {
  const { bytes, ends } = input;
  if (!(bytes instanceof Uint8Array)) throw invalidArgument('paths', 'pre-encoded paths need `bytes` as a Uint8Array');
  if (!(ends instanceof Uint32Array)) throw invalidArgument('paths', 'pre-encoded paths need `ends` as a Uint32Array of end offsets');
  if (isDetached(bytes.buffer)) throw detachedError('the pre-encoded paths’ `bytes`', 'paths');
  if (isDetached(ends.buffer)) throw detachedError('the pre-encoded paths’ `ends`', 'paths');
  const [keysPtr, endsPtr] = module.stageKeys(bytes.length, ends.length);
  const memory = module.wasmMemory().buffer;
  new Uint8Array(memory, keysPtr, bytes.length).set(bytes);
  new Uint32Array(memory, endsPtr, ends.length).set(ends);
  return { count: ends.length, text: false, charset: 'bytes' };
}

/**
 * Writes paths back to back into the wasm module's staging area (strings straight into wasm
 * memory as UTF-8) for one batch call; `{bytes, ends}` (pre-encoded) is copied as it is.
 * Returns `{count, text, charset}`; `text`: the bytes are UTF-8 of JS strings.
 */
export function stagePaths(paths, charset, module = { stageKeys, wasmMemory: moduleMemory }) {
  if (isEncoded(paths)) return stageEncoded(paths, module);
  const multi = multiByteName(charset);
  let capacity = 0;
  let strings = 0;
  const encoded = multi ? new Array(paths.length) : null;
  for (let i = 0; i < paths.length; i++) {
    const p = paths[i];
    if (typeof p === 'string') {
      strings++;
      if (multi) {
        encoded[i] = encodeJvm(p, multi);
        capacity += encoded[i].length;
      } else capacity += p.length * 3; // UTF-8 takes at most 3 bytes per UTF-16 unit
    } else if (p instanceof Uint8Array) {
      if (p.length === 0 && isDetached(p.buffer)) throw detachedError(`path ${i} (a Uint8Array)`, 'paths');
      capacity += p.length;
      if (multi) encoded[i] = p;
    } else throw notAPath('paths');
  }
  const mixed = strings > 0 && strings < paths.length;
  const plainUtf8 = charset === undefined || /^utf-?8$/i.test(charset);
  if (mixed && !plainUtf8 && !multi) {
    throw invalidArgument('charset', 'mixing string and Uint8Array paths needs charset UTF-8 or a multi-byte charset');
  }
  const [keysPtr, endsPtr] = module.stageKeys(capacity, paths.length);
  // Views are made after staging: growing wasm memory detaches older ones.
  const memory = module.wasmMemory().buffer;
  const ends = new Uint32Array(memory, endsPtr, paths.length);
  // Each string is written as UTF-8 straight into wasm memory, one native call per string:
  // under Node by Buffer's utf8Write (~20 % faster than encodeInto, which needs a subarray
  // and returns an object per call), elsewhere by TextEncoder.encodeInto (BENCHMARKS.md,
  // "Staging"; one call for the joined batch costs more). Lone surrogates become '?', as in Java.
  const { bytes, write } = memoryWriter(memory);
  let pos = keysPtr;
  for (let i = 0; i < paths.length; i++) {
    const p = multi ? encoded[i] : paths[i];
    if (typeof p === 'string') {
      pos += writeText(write, p, pos);
    } else {
      bytes.set(p, pos);
      pos += p.length;
    }
    ends[i] = pos - keysPtr;
  }
  const text = strings === paths.length && !multi;
  return { count: paths.length, text, charset: multi ?? (text ? (charset ?? 'UTF-8') : strings ? 'UTF-8' : 'bytes') };
}

/**
 * The hash the filter was written with, from an audit: the hypothesis the core takes as the
 * writer's (`audit.writerHypothesis`, the index of one of `audit.hypotheses`), or — when none
 * reproduces the bits, or there is no audit — the core's default (Java's writer with UTF-8).
 */
export function writerHypothesis(audit) {
  const h = audit?.hypotheses[audit.writerHypothesis] ?? null;
  const { variant, charset, timeColumns, trailingNullsKept } = h ?? DEFAULT_WRITER;
  return { variant, charset, timeColumns, trailingNullsKept, established: audit?.status === 'established', reproduced: h !== null };
}

/** Stages an array of paths or pre-encoded `{bytes, ends}` for one batch call. */
export function stageBatch(paths, charset, method) {
  if (!Array.isArray(paths) && !isEncoded(paths)) throw invalidArgument('paths', `${method} expects an array of paths or {bytes, ends}`);
  return stagePaths(paths, charset);
}

const RAW = Symbol('raw');

/** The filter's wasm object; a freed filter (free(), or its TsFile closed) is a typed error. */
// A filter built here (the page's synthetic filter, js/worker-synthetic.js) in the core's words.
/** Its record as a file's bloomInfo() shows one, holding `items` keys. */
export const builtFilterInfo = (filter, items) => live(filter).info(items);
/** A probe `shown` (a probe() result) of a filter built with `built`'s hash: why it says what it says, and its decision. */
export function builtFilterProbe(built, shown) {
  const [reason, decision] = rawBuiltProbe(variantCode(built.variant), charsetCode(built.charset), built.verdict === 'maybe', variantCode(shown.variant), charsetCode(shown.charset));
  return { reason, decision: DECISIONS[decision] };
}

function live(filter) {
  const raw = filter[RAW];
  if (!raw) throw invalidArgument('this', 'this BloomFilter has been freed (by free(), or by closing the TsFile it came from)');
  return raw;
}

/** The Bloom filter of a TsFile (or one you build): bit-exact with TsFile's Java writer. */
export class BloomFilter {
  /** An empty filter with the given geometry (bitCount >= 1, 1 <= hashFunctionCount <= 8). */
  constructor(bitCount, hashFunctionCount, raw) {
    this[RAW] = raw === RAW_TOKEN ? bitCount : WasmBloomFilter.withGeometry(bitCount, hashFunctionCount);
  }

  /** Decodes the serialized structure (docs/bloom-filter.md §2). Returns null for the "no filter" encoding `00`. */
  static decode(bytes) {
    if (!(bytes instanceof Uint8Array)) throw invalidArgument('bytes', 'decode expects a Uint8Array');
    const raw = WasmBloomFilter.decode(bytes);
    return raw ? wrapRaw(raw) : null;
  }

  /** Sized exactly like Java's BloomFilter.getEmptyBloomFilter(errorRate, n). */
  static withCapacity(n, errorRate = ERROR_RATE.default) {
    if (!Number.isInteger(n) || n < 0 || n > 0x7fffffff) throw invalidArgument('n', `n (the number of paths) must be an integer from 0 to 2,147,483,647, not ${String(n)}`);
    // Java clamps a rate to [ERROR_RATE.min, ERROR_RATE.max] (docs/bloom-filter.md); one that is no rate at all is refused.
    if (typeof errorRate !== 'number' || !(errorRate > 0 && errorRate < 1)) throw invalidArgument('errorRate', `errorRate must be a number between 0 and 1 (Java then clamps it to between ${ERROR_RATE.min} and ${ERROR_RATE.max}), not ${String(errorRate)}`);
    return wrapRaw(WasmBloomFilter.withCapacity(n, errorRate));
  }

  /** Sets the bits of one path. Options: `variant` ('java'), `charset` ('UTF-8'). */
  add(path, options) {
    return this.addMany([path], options);
  }

  /** `{verdict: 'absent' | 'maybe', variant, charset, probes: [{seed, hash32, bit, set}]}`; a `charset` of '' is UTF-8, as for TsFile#probe. */
  probe(path, { variant, charset } = {}) {
    const v = variantCode(variant);
    // Strings in UTF-8 or a single-byte charset go in as UTF-8 (wasm re-encodes); the rest as bytes.
    const multi = typeof path === 'string' ? multiByteName(charset) : null;
    const text = typeof path === 'string' && !multi;
    const index = text ? charsetCode(charset || 'UTF-8') : NONE;
    const len = putKey(multi ? encodeJvm(path, multi) : path);
    live(this).probe(len, text, v, index);
    const { verdict, probes } = lastRecord(filterProbeFrom);
    return { verdict, variant: filterVariant(v), charset: text ? CHARSETS[index] : (multi ?? 'bytes'), probes };
  }

  /**
   * Adds many paths with one call into wasm (same options as `add`). `paths`: an array of
   * strings / Uint8Arrays, or pre-encoded keys `{bytes: Uint8Array, ends: Uint32Array}`.
   */
  addMany(paths, { variant, charset } = {}) {
    const v = variantCode(variant);
    const packed = stageBatch(paths, charset, 'addMany');
    live(this).addStaged(packed.count, packed.text, v, keyCharset(packed));
    return this;
  }

  /**
   * Verdicts only, like Java's `contains` (stops at the first clear bit): a Uint8Array with
   * 1 where the path may be present, 0 where it is absent. `paths` as for `addMany`.
   */
  mightContainMany(paths, { variant, charset } = {}) {
    const v = variantCode(variant);
    const packed = stageBatch(paths, charset, 'mightContainMany');
    return live(this).mightContainStaged(packed.count, packed.text, v, keyCharset(packed));
  }

  /**
   * Probes many paths with one call into wasm. Returns one `{path, verdict, probes}` per
   * path, or with `{compact: true}` the raw form `{k, stride, data: Int32Array, maybe: Uint8Array}`
   * where each path has `stride = 1 + 2k` numbers: set-bit mask, then (hash32, bit) per seed.
   */
  probeMany(paths, { variant, charset, compact = false } = {}) {
    const v = variantCode(variant);
    const packed = stageBatch(paths, charset, 'probeMany');
    const count = packed.count;
    const data = live(this).probeStaged(packed.count, packed.text, v, keyCharset(packed));
    // k from the rows' length: the geometry would count the set bits, a pass over the bit vector.
    const rows = compactProbes(data, count, count ? (data.length / count - 1) / 2 : this.hashFunctionCount);
    const variantName = filterVariant(v);
    if (compact) return { ...rows, variant: variantName, charset: packed.charset };
    const out = new Array(count);
    const encoded = isEncoded(paths);
    for (let i = 0; i < count; i++) {
      const path = encoded ? paths.bytes.subarray(i === 0 ? 0 : paths.ends[i - 1], paths.ends[i]) : paths[i];
      out[i] = { path, verdict: VERDICTS[rows.maybe[i]], variant: variantName, charset: packed.charset, probes: compactRow(rows, i) };
    }
    return out;
  }

  /** The serialized structure (docs/bloom-filter.md §2), byte-identical to Java's writer. */
  encode() {
    return live(this).encode();
  }

  /** The logical bit vector: ceil(bitCount / 8) bytes, bit i in byte i >> 3 at position i & 7. */
  bits() {
    return live(this).bits();
  }

  get bitCount() {
    return live(this).geometry()[BIT_COUNT];
  }

  get hashFunctionCount() {
    return live(this).geometry()[HASH_FUNCTION_COUNT];
  }

  /** Bytes of the stored (trimmed) bit vector, as `encode()` would write `byte_length`. */
  get byteLength() {
    return live(this).geometry()[BYTE_LENGTH];
  }

  get setBits() {
    return live(this).geometry()[SET_BITS];
  }

  /**
   * The hash that set the bits: 'murmur128', or 'cheap' (TsFile's experimental cheap hash, which
   * this reader does not evaluate: probing or adding to such a filter throws `unsupported_hash`).
   */
  get hash() {
    return FILTER_HASHES[live(this).geometry()[HASH]];
  }

  /** Fill and false-positive figures; `items` sets the n used for the formula FPP and optimal k. */
  stats(items) {
    if (items !== undefined && !(typeof items === 'number' && items >= 0)) throw invalidArgument('items', `items must be a non-negative number, not ${String(items)}`);
    return live(this).stats(items);
  }

  /** `using f = BloomFilter.withCapacity(…)` frees it at the end of the block. */
  [Symbol.dispose ?? Symbol.for('Symbol.dispose')]() {
    this.free();
  }

  /** Releases the wasm memory now (a FinalizationRegistry does it eventually otherwise). */
  free() {
    this[RAW]?.free();
    this[RAW] = null;
  }
}

const RAW_TOKEN = Symbol('wrap');

/** Wraps a WasmBloomFilter handed out by another part of the wasm API. */
export function wrapRaw(raw) {
  return new BloomFilter(raw, undefined, RAW_TOKEN);
}

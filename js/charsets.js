// The JVM charsets a Java writer may hash paths in (String.getBytes in the JVM default
// charset, docs/writers.md §4), encoded exactly as JDK 17 does: one '?' per
// unmappable code point. UTF-8, windows-1252 and ISO-8859-1 go through the main wasm
// module; the multi-byte charsets through the `charsets` wasm module (JDK 17's tables,
// src/charset/), which is fetched only when one of them is first used. Node's entry
// registers a synchronous loader, so Node callers never need to await loadCharsets().

import { invalidArgument } from './errors.js';
import initCharsets, { initSync as initCharsetsSync, encode as wasmEncode } from '../dist/web/charsets.js';
import { lazyWasm } from './lazy-wasm.js';
import { charsetIndex, encodeText } from '../dist/web/tsfile_bloom.js';
import { CHARSETS, SINGLE_BYTE_CHARSETS } from './wire.js';

/** Java's canonical names of the supported charsets, in the order of their codes (js/wire.js). */
export { CHARSETS };

// Names resolve in the core (Charset::from_name: Java's names and aliases, checked against the
// JVM's), asked of the TsFile module once per name; an unknown name's error is the core's.
const codes = new Map();

/** A charset name's or alias's code (its index in CHARSETS); throws the core's typed error for an unknown one. */
export function charsetCode(name) {
  let code = codes.get(name);
  if (code === undefined) {
    code = charsetIndex(name);
    codes.set(name, code);
  }
  return code;
}

/** Java's canonical name for a charset name or alias (case-insensitive), or null when unknown. */
export function canonicalCharsetName(name) {
  if (typeof name !== 'string') return null;
  try {
    return CHARSETS[charsetCode(name)];
  } catch (e) {
    if (e.kind === 'invalid_argument') return null;
    throw e; // not a name the core refused (the module not initialised, say)
  }
}

const SINGLE_BYTE = new Set(SINGLE_BYTE_CHARSETS);

/** True for the charsets that need the `charsets` wasm module (all but UTF-8, windows-1252, ISO-8859-1). */
export function isMultiByte(name) {
  const cs = canonicalCharsetName(name);
  return cs !== null && !SINGLE_BYTE.has(cs);
}

// The `charsets` module, loaded on first use (js/lazy-wasm.js). The literal
// `new URL(…, import.meta.url)` is what bundlers look for to copy the asset.
export const charsetsWasm = lazyWasm(initCharsets, initCharsetsSync, () => new URL('../dist/web/charsets_bg.wasm', import.meta.url));

/**
 * Loads the `charsets` wasm module once; later calls return the same promise. `module_or_path`
 * (a URL, Response, bytes or WebAssembly.Module, as the main init takes) overrides where it
 * comes from — by default the .wasm beside the package's glue (or the entry's own provider:
 * Node, Deno and Workers never need to call this).
 */
export const loadCharsets = (options) => charsetsWasm.load(options);

const utf8 = new TextEncoder();

/** A lone surrogate is no code point: Java's getBytes writes '?' for it, where TextEncoder
 * writes U+FFFD. Well-formed strings (all but pathological ones) pass through untouched. */
export const wellFormed = (s) => (s.isWellFormed() ? s : s.replace(/\p{Cs}/gu, '?'));

/**
 * The bytes `text.getBytes(charset)` gives on JDK 17: one '?' per unmappable code point.
 * Multi-byte charsets need the charsets module (see loadCharsets); an unknown name
 * throws an Error with `kind: 'invalid_argument'`.
 */
export function encodeJvm(text, charset = 'UTF-8') {
  if (typeof text !== 'string') throw invalidArgument('text', 'encodeJvm expects a string');
  const code = charsetCode(String(charset));
  const cs = CHARSETS[code];
  // A lone surrogate is no code point: Java writes '?' where TextEncoder would write U+FFFD.
  const s = wellFormed(text);
  if (cs === 'UTF-8') return utf8.encode(s);
  // The TsFile module encodes the single-byte charsets, and ASCII text in any (each is an ASCII
  // superset); other text in a multi-byte charset needs the charsets module, and without it the
  // core's error says to load it (encoder::WithModule).
  if (SINGLE_BYTE.has(cs) || !charsetsWasm.loadSync()) return encodeText(utf8.encode(s), code);
  return wasmEncode(s, cs);
}

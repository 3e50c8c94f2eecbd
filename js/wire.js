// The wire between the TsFile wasm module and the package where volume or speed needs packed
// arrays instead of objects (BENCHMARKS.md, "Boundary"): the listing's columns, the probe
// records, a batch's decisions, a filter's batch probes, the fast scan's figures are the core's
// layouts (src/tsfile/wire/, built and tested there natively); this module is their one decoder.
// Every other result crosses as an object.
// The codes and constants they hold are the core's too: js/core-tables.js, generated from it
// (tests/generated.rs), which the package reads at import, before any wasm is initialised
// (SEEDS and VARIANTS are public constants). Nothing here imports the wasm module.

import {
  VERDICTS, DECISIONS, SEEDS, NAMED_HASHES, FILTER_HASHES, CHARSETS, DATA_TYPES, ENCODINGS, HEALTH_STATES, FIGURES, LISTING_STRIDE, LISTING_NULL, LISTING_FLAGS, NONE,
  PROBE_RECORD, SEED_PROBE, OTHER_PROBE, FILTER_RECORD, BATCH_INDEXED,
} from './core-tables.js';

export {
  VERDICTS, DECISIONS, VARIANTS, FILTER_HASHES, CHARSETS, SINGLE_BYTE_CHARSETS, ENCODINGS, DATA_TYPES, SEEDS, NONE, TAIL_WINDOW, HEAD_LENGTH, TAIL_LENGTH,
  FIGURES, GEOMETRY,
} from './core-tables.js';

const { time: TIME, absent: ABSENT, maybe: MAYBE, same_device: SAME_DEVICE, new_name: NEW_NAME, whole_path: WHOLE_PATH } = LISTING_FLAGS;

// ---- Probe records (read in place from wasm memory). ----------------------------------------

const SEED = SEED_PROBE.length;
const OTHER = OTHER_PROBE.length;
const [VERDICT, VARIANT, CHARSET, CONFIRMED, INDEXED, K, OTHERS, DECISION] = PROBE_RECORD.map((_, i) => i);
const name = (names, code) => (code === NONE ? null : names[code]);

/** `k` seed probes from `at` of `m`: `[{seed, hash32, bit, set}]`. */
function seedProbes(m, at, k) {
  const probes = new Array(k);
  for (let j = 0; j < k; j++, at += SEED) probes[j] = { seed: m[at], hash32: m[at + 1], bit: m[at + 2], set: m[at + 3] === 1 };
  return probes;
}

/** A filter probe's record at `at` of `m` (an Int32Array of wasm memory): `{verdict, probes}`. */
export function filterProbeFrom(m, at) {
  return { verdict: VERDICTS[m[at]], probes: seedProbes(m, at + FILTER_RECORD.length, m[at + 1]) };
}

/** A file probe's record at `at` of `m`: TsFile#probe's object, its path and reason left for the caller. */
export function fileProbeFrom(m, at) {
  const k = m[at + K];
  const others = new Array(m[at + OTHERS]);
  for (let i = 0, p = at + PROBE_RECORD.length + SEED * k; i < others.length; i++, p += OTHER + SEED * k) {
    others[i] = { variant: NAMED_HASHES[m[p]], charset: CHARSETS[m[p + 1]], verdict: VERDICTS[m[p + 2]], probes: seedProbes(m, p + OTHER, k) };
  }
  return {
    path: '',
    verdict: VERDICTS[m[at + VERDICT]],
    decision: DECISIONS[m[at + DECISION]],
    variant: name(NAMED_HASHES, m[at + VARIANT]),
    charset: name(CHARSETS, m[at + CHARSET]),
    confirmed: m[at + CONFIRMED] === 1,
    reason: '',
    indexed: m[at + INDEXED] === NONE ? null : m[at + INDEXED] === 1,
    probes: seedProbes(m, at + PROBE_RECORD.length, k),
    others,
  };
}

// ---- A batch's decisions. ----------------------------------------------------------------------

/**
 * probeMany's rows with decisions from wasm probeStaged's `codes` (src/tsfile/wire/batch.rs):
 * `count` verdicts, then as many decisions, then as many `indexed`; `pathAt(i)`: path i.
 */
export function decidedFrom(codes, count, pathAt) {
  const out = new Array(count);
  for (let i = 0; i < count; i++) {
    out[i] = { path: pathAt(i), verdict: VERDICTS[codes[i]], decision: DECISIONS[codes[count + i]], indexed: BATCH_INDEXED[codes[2 * count + i]] };
  }
  return out;
}

// ---- A filter's batch probe. ---------------------------------------------------------------------

/**
 * BloomFilter#probeMany's compact form from wasm probeStaged's rows (wire::batch::filter_probes):
 * per path `stride = 1 + 2k` numbers, the mask of its set bits, then hash32 and bit per seed.
 */
export function compactProbes(data, count, k) {
  const stride = 1 + 2 * k;
  const full = (1 << k) - 1;
  const maybe = new Uint8Array(count);
  for (let i = 0; i < count; i++) maybe[i] = data[i * stride] === full ? 1 : 0;
  return { k, stride, seeds: SEEDS.slice(0, k), data, maybe };
}

/** Path i's probes in a compact form: `[{seed, hash32, bit, set}]`. */
export function compactRow({ k, stride, data }, i) {
  const base = i * stride;
  const probes = new Array(k);
  for (let j = 0; j < k; j++) probes[j] = { seed: SEEDS[j], hash32: data[base + 1 + 2 * j], bit: data[base + 2 + 2 * j], set: ((data[base] >> j) & 1) === 1 };
  return probes;
}

// ---- The fast scan's figures. ------------------------------------------------------------------

const orNull = (x) => (Number.isNaN(x) ? null : x);

/**
 * The figures `f` of wasm scanTail → the object bloomInfo() gives for a file whose index is not
 * read (the scan tests check the two are equal).
 */
export function bloomFromFigures(f) {
  return {
    present: f[1] === 1,
    encoding: ENCODINGS[f[2]],
    offset: f[3],
    bitsOffset: orNull(f[4]),
    byteLength: orNull(f[5]),
    bitCount: orNull(f[6]),
    hashFunctionCount: orNull(f[7]),
    hash: Number.isNaN(f[14]) ? null : FILTER_HASHES[f[14]],
    setBits: orNull(f[8]),
    fillRatio: orNull(f[9]),
    estimatedItems: orNull(f[10]),
    indexedItems: null,
    fppFormula: orNull(f[11]),
    fppFromFill: orNull(f[12]),
    optimalK: orNull(f[13]),
    // Known once the index is read (src/design.rs), like indexedItems.
    filledPastDesign: null,
    cppSizedFor: null,
    health: Number.isNaN(f[15]) ? null : { state: HEALTH_STATES[f[15]], errorRate: f[16], sizedForItems: f[17], designFill: f[18] },
  };
}

/** Path `i`'s verdict in the figures `f`. */
export const figureVerdict = (f, i) => VERDICTS[f[FIGURES.length + i]];

// ---- The listing's columns. --------------------------------------------------------------------

// Stored names as JS strings: the text is valid UTF-8 (the core decoded names lossily); a BOM stays.
const lossyDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * SeriesInfo objects from the listing's columns (`WasmTsFile.listingColumns`): each device's
 * names and each measurement name cross once, as UTF-8 with byte bounds, and a path is its
 * device's prefix joined to its measurement. The records of one device share one frozen
 * `device` array; a string or an array per record would be garbage-collector work that costs
 * more than the rest of the listing (BENCHMARKS.md, "Boundary").
 */
export function listingFrom([bytes, byteBounds, numbers]) {
  const series = [];
  const timeColumns = [];
  const text = lossyDecoder.decode(bytes);
  // Only ASCII text has as many UTF-16 units as bytes; otherwise count them once.
  const bounds = text.length === bytes.length ? byteBounds : utf16Bounds(bytes, byteBounds);
  const str = (b) => (bounds[b] === LISTING_NULL ? null : text.slice(bounds[b], bounds[b + 1]));
  const measurements = [];
  let prefix = null;
  let table = null;
  let device = null;
  for (let n = 0, b = 0; n < numbers.length; n += LISTING_STRIDE) {
    const flags = numbers[n] & 0xff;
    if (!(flags & SAME_DEVICE)) {
      prefix = str(b);
      table = str(b + 2);
      const segments = numbers[n + 1];
      device = new Array(segments);
      for (let j = 0; j < segments; j++) device[j] = str(b + 4 + 2 * j);
      Object.freeze(device);
      b += 4 + 2 * segments;
    }
    if (flags & NEW_NAME) {
      measurements.push(str(b));
      b += 2;
    }
    const measurement = measurements[numbers[n + 2]];
    let path;
    if (flags & WHOLE_PATH) {
      path = str(b);
      b += 2;
    } else path = prefix + measurement;
    const item = {
      path,
      table,
      device,
      measurement,
      dataType: DATA_TYPES[numbers[n] >>> 8],
      offset: numbers[n + 4] * 2 ** 32 + numbers[n + 3],
      maybePresent: flags & MAYBE ? true : flags & ABSENT ? false : null,
    };
    (flags & TIME ? timeColumns : series).push(item);
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

/** Byte bounds into `bytes` (increasing, LISTING_NULL aside) as UTF-16 units of its text. */
function utf16Bounds(bytes, byteBounds) {
  const out = new Uint32Array(byteBounds.length);
  let at = 0;
  let units = 0;
  for (let i = 0; i < byteBounds.length; i++) {
    const b = byteBounds[i];
    if (b === LISTING_NULL) out[i] = LISTING_NULL;
    else {
      units += utf16Units(bytes, at, b);
      at = b;
      out[i] = units;
    }
  }
  return out;
}

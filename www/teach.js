// The teaching panel: the false-positive curve for the loaded file (with a measured rate), a
// sandbox filter (TsFile or LevelDB geometry) whose bits flip as paths are added, the
// signed-vs-zero-extended tail pitfall on a real non-ASCII path, and TsFile vs LevelDB.
// Plain ES module, SVG + canvas. app.js calls setFile(state) when a file is ready (null on reset).
//
// The wasm package is imported lazily on the main thread (./pkg/js/browser.js): the file's own
// filter is rebuilt here from the bits the worker already sent, so the measured false-positive
// rate and the pitfall probes need no new worker op.
import { SEEDS, writerHypothesis } from './pkg/js/core.js';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
// Same palette as app.js (seed i → colour i); LevelDB's probes beyond 8 cycle through it.
export const SEED_COLORS = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#42d4f4', '#f032e6', '#bfef45'];
const fmt = (n) => (n == null ? '–' : Number(n).toLocaleString('en'));
const utf8 = new TextEncoder();
const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

let libPromise = null;
/** The package with its wasm initialised (fetched from this origin once, on first use). */
export function lib() {
  libPromise ??= import('./pkg/js/browser.js');
  return libPromise;
}

// ---------------------------------------------------------------- maths (pure)

/** (1 − e^(−kn/m))^k; 0 when n = 0. */
export function fpp(n, m, k) {
  if (!(n > 0)) return 0;
  return (1 - Math.exp((-k * n) / m)) ** k;
}

/** k* = (m/n) ln 2. */
export function optimalK(n, m) {
  return n > 0 ? (m / n) * Math.LN2 : Infinity;
}

/** Expected fraction of set bits after n insertions: 1 − e^(−kn/m). */
export function expectedFill(n, m, k) {
  return 1 - Math.exp((-k * n) / m);
}

/** Java's BloomFilter.getEmptyBloomFilter(p, n) sizing (spec §6). */
export function javaSizing(n, p = 0.05) {
  const q = Math.min(0.1, Math.max(0.01, p));
  return { m: Math.max(256, Math.floor((-n * Math.log(q)) / Math.LN2 ** 2) + 1), k: Math.min(8, Math.floor(-Math.log(q) / Math.LN2) + 1) };
}

/** LevelDB's BloomFilterPolicy: k = floor(bpk × 0.69) clamped to 1..30. */
export function levelDbK(bitsPerKey) {
  return Math.min(30, Math.max(1, Math.floor(bitsPerKey * 0.69)));
}

/** LevelDB's CreateFilter size: bits = max(64, n × bpk), rounded up to whole bytes. */
export function levelDbBits(n, bitsPerKey) {
  return Math.ceil(Math.max(64, n * bitsPerKey) / 8) * 8;
}

/**
 * LevelDB's util/hash.cc Hash (seed 0xbc9f1d34 as BloomHash uses): little-endian 4-byte
 * groups, unsigned tail bytes (LevelDB ≥ 1.18). Unsigned 32-bit result.
 */
export function levelDbHash(bytes, seed = 0xbc9f1d34) {
  const M = 0xc6a4a793;
  const n = bytes.length;
  let h = (seed ^ Math.imul(n, M)) >>> 0;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const w = (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24)) >>> 0;
    h = (h + w) >>> 0;
    h = Math.imul(h, M) >>> 0;
    h = (h ^ (h >>> 16)) >>> 0;
  }
  const rest = n - i;
  if (rest > 0) {
    if (rest >= 3) h = (h + (bytes[i + 2] << 16)) >>> 0;
    if (rest >= 2) h = (h + (bytes[i + 1] << 8)) >>> 0;
    h = (h + bytes[i]) >>> 0;
    h = Math.imul(h, M) >>> 0;
    h = (h ^ (h >>> 24)) >>> 0;
  }
  return h;
}

/** The k bit positions LevelDB probes for a key: h, h + δ, h + 2δ, … mod bits (δ = h rotated right 17). */
export function levelDbPositions(bytes, k, bits) {
  let h = levelDbHash(bytes);
  const delta = ((h >>> 17) | (h << 15)) >>> 0;
  const out = new Array(k);
  for (let j = 0; j < k; j++) {
    out[j] = h % bits;
    h = (h + delta) >>> 0;
  }
  return out;
}

// ==================================================================================================
// LevelDB's filter: the package's (loadLevelDb().buildFilter, the real BloomFilterPolicy in
// wasm). The JS version below, written from leveldb-filter.md §1–2, is kept as the fallback
// when the LevelDB module cannot load, and as an independent check in the tests.
// `document.getElementById('teach').dataset.leveldb` says which one is in use ('package' | 'js').
// ==================================================================================================

/** Interim LevelDB filter in JS, CreateFilter semantics: sized from the keys it is built over. */
export function buildLevelDbFilterJs(keys, bitsPerKey) {
  const bits = levelDbBits(keys.length, bitsPerKey);
  const k = levelDbK(bitsPerKey);
  const out = new Uint8Array(bits / 8 + 1);
  out[bits / 8] = k;
  for (const key of keys) {
    for (const b of levelDbPositions(toBytes(key), k, bits)) out[b >> 3] |= 1 << (b & 7);
  }
  return out;
}

let levelDbImpl = null; // { name, build(keys, bpk) → Uint8Array (bits… + k byte) }
async function levelDbBuilder() {
  if (levelDbImpl) return levelDbImpl;
  let mod = null;
  try {
    mod = await lib();
  } catch {
    mod = null;
  }
  const ldb = await mod?.loadLevelDb?.().catch(() => null);
  if (ldb) {
    levelDbImpl = { name: 'package', build: (keys, bpk) => ldb.buildFilter(keys, bpk).bytes };
  } else levelDbImpl = { name: 'js', build: buildLevelDbFilterJs };
  $('teach').dataset.leveldb = levelDbImpl.name;
  return levelDbImpl;
}

/** A LevelDB filter's verdict for a key: 'maybe' if every probed bit is set. */
function levelDbProbe(filter, key) {
  const k = filter[filter.length - 1];
  const bits = (filter.length - 1) * 8;
  const positions = levelDbPositions(toBytes(key), k, bits);
  const probes = positions.map((bit) => ({ bit, set: ((filter[bit >> 3] >> (bit & 7)) & 1) === 1 }));
  return { verdict: probes.every((p) => p.set) ? 'maybe' : 'absent', probes };
}

function toBytes(key) {
  return typeof key === 'string' ? utf8.encode(key) : key;
}

// ---------------------------------------------------------------- small helpers

export function pct(x) {
  if (x == null || Number.isNaN(x)) return '–';
  if (x === 0) return '0%';
  if (x < 1e-4) return `${(x * 100).toExponential(1)}%`;
  return `${(x * 100).toFixed(x < 0.001 ? 4 : x < 0.1 ? 3 : 2)}%`;
}

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

function svg(tag, attrs = {}, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text != null) e.textContent = text;
  return e;
}

const cssVar = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

/** A fast PRNG (xorshift128+ in 32-bit halves), seeded from crypto: random paths need volume, not secrecy. */
function rng() {
  const s = crypto.getRandomValues(new Uint32Array(4));
  let [a, b, c, d] = s;
  if (!(a | b | c | d)) a = 1;
  return () => {
    const t = a ^ (a << 11);
    a = b;
    b = c;
    c = d;
    d = (d ^ (d >>> 19) ^ (t ^ (t >>> 8))) >>> 0;
    return d;
  };
}

const ALPHA = 'abcdefghijklmnopqrstuvwxyz0123456789';
const PAIRS = Array.from({ length: 1296 }, (_, i) => ALPHA[i % 36] + ALPHA[(i / 36) | 0]);
/** `count` random ASCII series paths of varied length (~20–40 bytes, so every tail length occurs), none in `exclude`. */
export function randomPaths(count, exclude = null, prefix = 'root.absent') {
  const next = rng();
  const out = [];
  while (out.length < count) {
    const a = next();
    const b = next();
    const c = next();
    let p = `${prefix}_${PAIRS[a % 1296]}${b & 3 ? PAIRS[(a >>> 11) % 1296] : ''}.d${b % 100000}.${PAIRS[c % 1296]}`;
    for (let i = a % 4; i > 0; i--) p += PAIRS[(c >>> (i * 8)) % 1296];
    if (a & 1) p += `_${PAIRS[(b >>> 17) % 1296]}`;
    if (!exclude?.has(p)) out.push(p);
  }
  return out;
}

// ---------------------------------------------------------------- FP curve (SVG)

/**
 * Draws (1 − e^(−kn/m))^k against k on a log scale into `host` (an <svg>): the optimum k* and
 * the point (k, FPP) marked, and (TsFile) the region beyond the 8-seed cap shaded.
 */
export function drawCurve(host, { n, m, k, kCap = null, label = 'k' }) {
  host.replaceChildren();
  const W = 520;
  const H = 250;
  const L = 58;
  const R = 14;
  const T = 16;
  const B = 40;
  host.setAttribute('viewBox', `0 0 ${W} ${H}`);
  if (!(n > 0) || !(m > 0)) {
    host.append(svg('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle', class: 'c-note' }, 'No items: every probe says absent.'));
    host.setAttribute('aria-label', 'False-positive curve: no items.');
    return;
  }
  const kStar = optimalK(n, m);
  const kMax = Math.max(8, Math.min(kCap ? 16 : 32, Math.ceil(Math.max(k, kStar) * 1.6) + 1));
  const minF = Math.min(fpp(n, m, Math.max(1, Math.min(kMax, kStar))), fpp(n, m, k), fpp(n, m, 1));
  let lo = Math.floor(Math.log10(Math.max(minF, 1e-300)));
  lo = Math.max(lo, -15);
  if (lo > -1) lo = -1;
  const x = (kk) => L + ((kk - 1) / (kMax - 1)) * (W - L - R);
  const y = (f) => T + ((0 - Math.log10(Math.max(f, 10 ** lo))) / (0 - lo)) * (H - T - B);
  host.append(svg('title', {}, `False-positive probability against ${label}`));
  // grid + y axis (powers of ten)
  const stepY = lo < -8 ? 2 : 1;
  for (let e = 0; e >= lo; e -= stepY) {
    host.append(svg('line', { x1: L, x2: W - R, y1: y(10 ** e), y2: y(10 ** e), class: 'c-grid' }));
    host.append(svg('text', { x: L - 6, y: y(10 ** e) + 4, 'text-anchor': 'end', class: 'c-tick' }, e === 0 ? '1' : e >= -2 ? `${10 ** (e + 2)}%` : `1e${e}`));
  }
  if (lo >= -2) {
    // one or two decades: label 2× and 5× too
    for (let e = -1; e >= lo; e--) {
      for (const f of [5, 2]) {
        const v = f * 10 ** e;
        host.append(svg('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'c-grid minor' }));
        host.append(svg('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'c-tick' }, `${+(v * 100).toPrecision(2)}%`));
      }
    }
  }
  const stepX = kMax > 20 ? 4 : kMax > 12 ? 2 : 1;
  for (let kk = 1; kk <= kMax; kk += kk === 1 && stepX > 1 ? stepX - 1 : stepX) {
    host.append(svg('line', { x1: x(kk), x2: x(kk), y1: H - B, y2: H - B + 4, class: 'c-axis' }));
    host.append(svg('text', { x: x(kk), y: H - B + 16, 'text-anchor': 'middle', class: 'c-tick' }, String(kk)));
  }
  host.append(svg('line', { x1: L, x2: W - R, y1: H - B, y2: H - B, class: 'c-axis' }));
  host.append(svg('line', { x1: L, x2: L, y1: T, y2: H - B, class: 'c-axis' }));
  host.append(svg('text', { x: (L + W - R) / 2, y: H - 6, 'text-anchor': 'middle', class: 'c-label' }, `${label} (hash functions per key)`));
  host.append(svg('text', { x: 12, y: (T + H - B) / 2, 'text-anchor': 'middle', class: 'c-label', transform: `rotate(-90 12 ${(T + H - B) / 2})` }, 'false positives (log)'));
  if (kCap && kCap < kMax) {
    host.append(svg('rect', { x: x(kCap), y: T, width: W - R - x(kCap), height: H - B - T, class: 'c-cap' }));
    const roomy = W - R - x(kCap) > 120;
    host.append(svg('text', { x: roomy ? x(kCap) + 6 : W - R - 4, y: T + 14, 'text-anchor': roomy ? 'start' : 'end', class: 'c-tick' }, roomy ? `TsFile allows k ≤ ${kCap}` : `k ≤ ${kCap}`));
  }
  // the curve
  let d = '';
  let pen = false;
  for (let i = 0; i <= 240; i++) {
    const kk = 1 + ((kMax - 1) * i) / 240;
    const f = fpp(n, m, kk);
    if (f < 10 ** lo) {
      pen = false; // below the chart's floor: leave a gap rather than a flat line
      continue;
    }
    d += `${pen ? 'L' : 'M'}${x(kk).toFixed(1)},${y(f).toFixed(1)}`;
    pen = true;
  }
  host.append(svg('path', { d, class: 'c-curve' }));
  // k*
  if (kStar <= kMax) {
    host.append(svg('line', { x1: x(kStar), x2: x(kStar), y1: T, y2: H - B, class: 'c-opt', 'data-k-star': kStar.toFixed(3) }));
    const right = x(kStar) < W - 140;
    host.append(svg('text', { x: x(kStar) + (right ? 5 : -5), y: H - B - 8, 'text-anchor': right ? 'start' : 'end', class: 'c-opt-label' }, `k* = (m/n)·ln 2 = ${kStar.toFixed(2)}`));
  } else {
    host.append(svg('text', { x: W - R - 4, y: H - B - 8, 'text-anchor': 'end', class: 'c-opt-label' }, `k* = ${kStar.toFixed(1)} → (off the chart)`));
  }
  // the point
  const f = fpp(n, m, k);
  const px = x(Math.min(k, kMax));
  const py = y(f);
  host.append(svg('circle', { cx: px, cy: py, r: 6, class: 'c-point', 'data-k': k }));
  const right = px < W - 170;
  host.append(svg('text', { x: px + (right ? 10 : -10), y: py - 10, 'text-anchor': right ? 'start' : 'end', class: 'c-point-label' }, `k = ${k}: ${pct(f)}`));
  host.setAttribute(
    'aria-label',
    `False-positive probability against k for n = ${fmt(n)} items in m = ${fmt(m)} bits: ${pct(f)} at k = ${k}; the optimum k* = ${kStar.toFixed(2)} gives ${pct(fpp(n, m, kStar))}.`,
  );
}

// ---------------------------------------------------------------- the loaded file

const file = { state: null, filter: null, filterFor: null, indexed: null, measureSeq: 0 };


/** n for the formula: the index's count under the writer's hypothesis, else the filter's own estimate. */
function itemsOf(st) {
  const b = st.info?.bloom ?? {};
  if (b.indexed_items != null) return { n: b.indexed_items, source: st.info?.synthetic ? 'paths added' : 'paths in the index' };
  if (st.audit && (st.series.length || st.timeColumns.length)) {
    const w = writerHypothesis(st.audit);
    return { n: st.series.length + (w.timeColumns ? st.timeColumns.length : 0), source: `paths in the index${w.timeColumns && st.timeColumns.length ? ' (series + time columns)' : ''}` };
  }
  if (Number.isFinite(b.estimated_items)) return { n: Math.round(b.estimated_items), source: 'estimated from the fill (index unavailable)' };
  return { n: null, source: '' };
}

/** Serializes the logical bit vector as TsFile stores it (spec §2) so BloomFilter.decode can rebuild it. */
function encodeFilter(bits, m, k) {
  let len = bits.length;
  while (len > 0 && bits[len - 1] === 0) len--;
  if (!len) return null;
  const out = [];
  const varint = (v) => {
    while (v >= 0x80) {
      out.push((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    out.push(v);
  };
  varint(len);
  const head = Uint8Array.from(out);
  out.length = 0;
  varint(m);
  varint(k);
  const res = new Uint8Array(head.length + len + out.length);
  res.set(head);
  res.set(bits.subarray(0, len), head.length);
  res.set(out, head.length + len);
  return res;
}

async function fileFilter() {
  const st = file.state;
  if (!st?.bits) return null;
  if (file.filterFor === st) return file.filter;
  const { BloomFilter } = await lib();
  if (file.state !== st) return null;
  file.filter?.free();
  const bytes = encodeFilter(st.bits, st.bitCount, st.info.bloom.hash_function_count);
  file.filter = bytes ? BloomFilter.decode(bytes) : new BloomFilter(st.bitCount, st.info.bloom.hash_function_count);
  file.filterFor = st;
  return file.filter;
}

function indexedSet(st) {
  if (file.indexed?.st === st) return file.indexed.set;
  const set = new Set();
  for (const s of st.series) set.add(s.path);
  for (const s of st.timeColumns) set.add(s.path);
  file.indexed = { st, set };
  return set;
}

/** Called by app.js: the file's state once it is ready, or null while loading / on error. */
export function setFile(st) {
  file.state = st?.info?.bloom?.present && st.bits ? st : null;
  file.measureSeq++;
  file.indexed = null;
  if (file.filterFor && file.filterFor !== file.state) {
    file.filter?.free();
    file.filter = null;
    file.filterFor = null;
  }
  renderFile(st);
  renderPitfall().catch((e) => ($('pf-fn').textContent = `The demo could not run: ${e.message}`));
}

function renderFile(st) {
  const box = $('teach-file');
  const none = $('teach-file-none');
  const f = file.state;
  $('teach-measure').disabled = !f;
  $('teach-measure-out').textContent = '';
  $('teach-file').dataset.measured = '';
  if (!f) {
    box.hidden = true;
    none.hidden = false;
    none.textContent = st && !st.info?.bloom?.present ? 'This file stores no Bloom filter, so there is no curve to place it on. The sandbox below works without a file.' : 'Open a file (or load the sample) to place its own n, m and k on the curve. The sandbox below works without a file.';
    return;
  }
  box.hidden = false;
  none.hidden = true;
  const b = f.info.bloom;
  const m = b.bit_count;
  const k = b.hash_function_count;
  const { n, source } = itemsOf(f);
  drawCurve($('teach-curve'), { n, m, k, kCap: 8 });
  const kStar = optimalK(n, m);
  const best = Math.max(1, Math.min(8, Math.round(kStar)));
  const dl = $('teach-file-facts');
  const row = (dt, dd, testid) => {
    const d = el('dd', testid ? { 'data-testid': testid } : {});
    d.append(dd);
    return [el('dt', { text: dt }), d];
  };
  dl.replaceChildren(
    ...row('n', `${fmt(n)} ${source}`, 'teach-n'),
    ...row('m', `${fmt(m)} bits (stored) · ${n ? (m / n).toFixed(2) : '–'} bits per item`, 'teach-m'),
    ...row('k', `${k} (stored) · k* = (m/n) ln 2 = ${Number.isFinite(kStar) ? kStar.toFixed(2) : '∞'}${Number.isFinite(kStar) && best !== k ? ` — k = ${best} would give ${pct(fpp(n, m, best))}` : ''}`, 'teach-k'),
    ...row('Formula', `(1 − e^(−kn/m))^k = ${pct(fpp(n, m, k))}`, 'teach-formula'),
    ...row('From the fill', `fill^k = ${pct(b.fill_ratio ** k)} (fill ${pct(b.fill_ratio)}; the formula expects ${pct(expectedFill(n, m, k))})`),
  );
}

/** Probes `count` random paths that are not in the index against the file's filter, in chunks. */
export async function measureFile(count = 100_000) {
  const st = file.state;
  if (!st) return null;
  const seq = ++file.measureSeq;
  const out = $('teach-measure-out');
  out.textContent = 'Measuring…';
  $('teach-measure').disabled = true;
  try {
    const filter = await fileFilter();
    if (!filter || seq !== file.measureSeq) return null;
    const w = st.info.synthetic ? { variant: 'java', charset: 'UTF-8' } : writerHypothesis(st.audit);
    const exclude = indexedSet(st);
    const CH = 20_000;
    let maybe = 0;
    let done = 0;
    const t0 = performance.now();
    while (done < count) {
      const part = randomPaths(Math.min(CH, count - done), exclude);
      const r = filter.probeMany(part, { variant: w.variant, charset: w.charset === 'UTF-8' ? undefined : w.charset, compact: true });
      for (let i = 0; i < r.maybe.length; i++) maybe += r.maybe[i];
      done += part.length;
      out.textContent = `Measuring… ${fmt(done)} of ${fmt(count)} paths`;
      await new Promise((res) => setTimeout(res, 0));
      if (seq !== file.measureSeq) return null;
    }
    const p = maybe / count;
    const half = 1.96 * Math.sqrt(Math.max(p * (1 - p), 1 / count) / count);
    const { n } = itemsOf(st);
    const b = st.info.bloom;
    out.textContent = '';
    out.append(
      el('b', { text: `Measured: ${fmt(maybe)} of ${fmt(count)} → ${pct(p)}` }),
      ` (95% interval ≈ ${pct(Math.max(0, p - half))} – ${pct(p + half)}) against ${pct(fpp(n, b.bit_count, b.hash_function_count))} by the formula. `,
      el('span', { class: 'muted', text: `Random ASCII paths not in the index, probed with the ${w.variant} hash${w.charset !== 'UTF-8' ? ` (${w.charset})` : ''}${st.audit?.status === 'ambiguous' ? ' (the audit could not tell the tail variants apart; on ASCII paths they agree)' : w.established ? ', the writer’s as the audit established' : ''} in ${((performance.now() - t0) / 1000).toFixed(2)} s. Every “maybe” here is a false positive.` }),
    );
    $('teach-file').dataset.measured = String(p);
    $('teach-file').dataset.maybe = String(maybe);
    return { maybe, count, rate: p };
  } catch (e) {
    out.textContent = `Could not measure: ${e.message}`;
    return null;
  } finally {
    if (seq === file.measureSeq) $('teach-measure').disabled = !file.state;
  }
}

// ---------------------------------------------------------------- sandbox

const box = {
  mode: 'tsfile', // or 'leveldb'
  paths: [], // added, in order
  set: new Set(),
  tsf: null, // BloomFilter (TsFile)
  ldb: null, // Uint8Array (LevelDB filter bytes + k byte)
  bits: null, // Uint8Array view of the current bits
  m: 0,
  k: 0,
  flash: null, // { probes: [{bit, color, flipped}], t0, kind: 'add' | 'test' }
  cursor: -1,
  owners: null, // bit → [path indices]
};

const slider = (id) => Number($(id).value);

function sandboxGeometry() {
  if (box.mode === 'tsfile') return { m: slider('sb-m'), k: slider('sb-k') };
  const bpk = slider('sb-bpk');
  return { m: levelDbBits(box.paths.length, bpk), k: levelDbK(bpk) };
}

/** Rebuilds the sandbox filter from the added paths (geometry change or LevelDB's rebuild-per-add). */
async function rebuildSandbox() {
  const { m, k } = sandboxGeometry();
  box.m = m;
  box.k = k;
  if (box.mode === 'tsfile') {
    box.ldb = null;
    const { BloomFilter } = await lib();
    box.tsf?.free();
    box.tsf = new BloomFilter(m, k);
    if (box.paths.length) box.tsf.addMany(box.paths);
    box.bits = box.tsf.bits();
  } else {
    box.tsf?.free();
    box.tsf = null;
    const impl = await levelDbBuilder();
    box.ldb = impl.build(box.paths, slider('sb-bpk'));
    box.bits = box.ldb.subarray(0, box.ldb.length - 1);
  }
  box.owners = null;
  if (box.cursor >= box.m) box.cursor = box.m - 1;
}

/** The sandbox's k probes for a path, with which bits are set now. */
function sandboxProbe(path) {
  if (box.mode === 'tsfile') {
    const r = box.tsf.probe(path);
    return { verdict: r.verdict, probes: r.probes.map((p) => ({ bit: p.bit, set: p.set, seed: p.seed })) };
  }
  return levelDbProbe(box.ldb, path);
}

function probeColor(j) {
  return SEED_COLORS[j % SEED_COLORS.length];
}

async function addPaths(paths, { animate = true } = {}) {
  paths = paths.map((p) => p.trim()).filter((p) => p && !box.set.has(p));
  if (!paths.length) return;
  const last = paths[paths.length - 1];
  let before = null;
  if (box.mode === 'tsfile') {
    await rebuildIfNeeded();
    before = paths.length === 1 ? sandboxProbe(last) : null;
    box.tsf.addMany(paths);
    box.bits = box.tsf.bits();
  }
  const start = box.paths.length;
  for (const p of paths) {
    box.paths.push(p);
    box.set.add(p);
  }
  if (box.mode === 'leveldb') {
    // LevelDB builds a filter once over its keys (CreateFilter): a new key means a new, larger filter.
    const prev = box.ldb;
    const prevM = box.m;
    await rebuildSandbox();
    before = paths.length === 1 && prev && prevM === box.m ? levelDbProbe(prev, last) : null;
  }
  box.owners = null;
  const now = sandboxProbe(last);
  const probes = now.probes.map((p, j) => ({ bit: p.bit, color: probeColor(j), flipped: before ? !before.probes[j].set : null, label: p.seed != null ? `seed ${p.seed}` : `probe ${j + 1}` }));
  box.flash = { probes, t0: animate ? performance.now() : -1e9, kind: 'add', path: last };
  const flipped = probes.filter((p) => p.flipped).length;
  const desc =
    paths.length === 1
      ? `Added ${last}: ${probes.map((p) => `${p.label} → bit ${p.bit}${p.flipped === true ? ' (flipped 0→1)' : p.flipped === false ? ' (already set)' : ''}`).join(', ')}.${before ? ` ${flipped} of ${probes.length} bits flipped.` : box.mode === 'leveldb' && start ? ' The filter grew (m = max(64, n × bits_per_key)), so LevelDB rebuilt it and every key’s bits moved.' : ''}`
      : `Added ${fmt(paths.length)} paths; the last, ${last}, set bits ${probes.map((p) => p.bit).join(', ')}.`;
  $('sb-log').textContent = desc;
  $('sb-verdict').textContent = '';
  renderSandbox();
}

async function rebuildIfNeeded() {
  const { m, k } = sandboxGeometry();
  if (!box.tsf || box.m !== m || box.k !== k || box.mode !== 'tsfile') await rebuildSandbox();
}

async function testPath(path) {
  path = path.trim();
  if (!path) return;
  if (box.mode === 'tsfile') await rebuildIfNeeded();
  else if (!box.ldb) await rebuildSandbox();
  const r = sandboxProbe(path);
  const probes = r.probes.map((p, j) => ({ bit: p.bit, color: probeColor(j), set: p.set, label: p.seed != null ? `seed ${p.seed}` : `probe ${j + 1}` }));
  box.flash = { probes, t0: performance.now(), kind: 'test', path };
  const added = box.set.has(path);
  const v = $('sb-verdict');
  v.className = `verdict ${r.verdict}`;
  v.textContent = r.verdict === 'absent' ? 'definitely absent' : added ? 'maybe present (it was added)' : 'maybe present — a false positive';
  v.dataset.verdict = r.verdict;
  $('sb-log').textContent = `Tested ${path}: ${probes.map((p) => `${p.label} → bit ${p.bit} ${p.set ? 'set' : 'clear'}`).join(', ')}.${r.verdict === 'absent' ? ' A clear bit proves it was never added.' : added ? '' : ' Every probed bit was set by other paths.'}`;
  drawGrid();
}

function sandboxStats() {
  let set = 0;
  for (let i = 0; i < box.bits.length; i++) {
    let b = box.bits[i];
    while (b) {
      b &= b - 1;
      set++;
    }
  }
  return { set, fill: box.m ? set / box.m : 0 };
}

function renderSandbox() {
  const isTs = box.mode === 'tsfile';
  $('sb-m').disabled = !isTs;
  $('sb-k').disabled = !isTs;
  $('sb-size').disabled = !isTs;
  $('sb-bpk-row').hidden = isTs;
  const nPlan = slider('sb-n');
  const bpk = slider('sb-bpk');
  const mPlan = isTs ? slider('sb-m') : levelDbBits(nPlan, bpk);
  const k = isTs ? slider('sb-k') : levelDbK(bpk);
  $('sb-n-out').value = fmt(nPlan);
  $('sb-m-out').value = isTs ? fmt(slider('sb-m')) : `${fmt(box.m)} (derived)`;
  $('sb-k-out').value = isTs ? String(slider('sb-k')) : `${k} (derived)`;
  $('sb-bpk-out').value = String(bpk);
  const nNow = box.paths.length;
  const { set, fill } = box.bits ? sandboxStats() : { set: 0, fill: 0 };
  const facts = [];
  if (isTs) {
    facts.push(['Planned', `n = ${fmt(nPlan)}, m = ${fmt(mPlan)}, k = ${k}: formula FPP ${pct(fpp(nPlan, mPlan, k))} · k* = ${optimalK(nPlan, mPlan).toFixed(2)} · ${(mPlan / nPlan).toFixed(2)} bits per path`]);
  } else {
    facts.push(['Planned', `n = ${fmt(nPlan)} keys × ${bpk} bits_per_key → m = max(64, n·bpk) rounded to bytes = ${fmt(mPlan)}, k = floor(${bpk} × 0.69) = ${k}: formula FPP ${pct(fpp(nPlan, mPlan, k))}`]);
  }
  facts.push([
    'Now',
    `${fmt(nNow)} path${nNow === 1 ? '' : 's'} added into m = ${fmt(box.m)}, k = ${box.k}: formula FPP ${pct(fpp(nNow, box.m, box.k))}; expected fill ${pct(nNow ? expectedFill(nNow, box.m, box.k) : 0)}`,
  ]);
  facts.push(['Measured fill', `${fmt(set)} of ${fmt(box.m)} bits set = ${pct(fill)} → fill^k = ${pct(fill ** box.k)}`]);
  $('sb-facts').replaceChildren(...facts.flatMap(([dt, dd], i) => [el('dt', { text: dt }), el('dd', { text: dd, 'data-testid': ['sb-planned', 'sb-now', 'sb-fill'][i] })]));
  $('teach-sandbox').dataset.m = String(box.m);
  $('teach-sandbox').dataset.k = String(box.k);
  $('teach-sandbox').dataset.set = String(set);
  $('teach-sandbox').dataset.n = String(nNow);
  $('sb-measure-out').textContent = '';
  drawCurve($('sb-curve'), { n: nNow || nPlan, m: nNow ? box.m : mPlan, k, kCap: isTs ? 8 : null });
  $('sb-curve-note').textContent = nNow ? `Curve for the ${fmt(nNow)} added path${nNow === 1 ? '' : 's'} in m = ${fmt(box.m)} bits.` : `Curve for the planned n = ${fmt(nPlan)} in m = ${fmt(mPlan)} bits (nothing added yet).`;
  drawGrid();
}

async function measureSandbox(count = 10_000) {
  if (!box.paths.length) {
    $('sb-measure-out').textContent = 'Add some paths first: an empty filter answers “absent” to everything.';
    return null;
  }
  if (box.mode === 'tsfile') await rebuildIfNeeded();
  const paths = randomPaths(count, box.set, 'root.probe');
  let maybe = 0;
  if (box.mode === 'tsfile') {
    const r = box.tsf.probeMany(paths, { compact: true });
    for (let i = 0; i < r.maybe.length; i++) maybe += r.maybe[i];
  } else for (const p of paths) if (levelDbProbe(box.ldb, p).verdict === 'maybe') maybe++;
  const p = maybe / count;
  $('sb-measure-out').textContent = `${fmt(maybe)} of ${fmt(count)} random absent paths said “maybe”: ${pct(p)} measured vs ${pct(fpp(box.paths.length, box.m, box.k))} by the formula.${box.mode === 'leveldb' && p > 1.3 * fpp(box.paths.length, box.m, box.k) ? ' (LevelDB’s double hashing from one 32-bit hash makes some keys test fewer than k distinct bits, so small filters run above the formula.)' : ''}`;
  $('teach-sandbox').dataset.measured = String(p);
  return { maybe, count, rate: p };
}

// The bit grid: one cell per bit; the k bits of the last added or tested path in seed colours.
const grid = { cols: 32, cell: 12, pad: 1 };

function layoutGrid() {
  const canvas = $('sb-grid');
  const width = Math.max(200, Math.floor(canvas.parentElement.clientWidth || 480));
  const m = Math.max(1, box.m);
  let cols = 2 ** Math.ceil(Math.log2(Math.sqrt(m * 2)));
  cols = Math.max(16, Math.min(cols, 128));
  let cell = Math.floor(width / cols);
  while (cell < 4 && cols > 16) {
    cols /= 2;
    cell = Math.floor(width / cols);
  }
  cell = Math.max(2, Math.min(cell, 22));
  grid.cols = cols;
  grid.cell = cell;
  grid.pad = cell >= 6 ? 1 : 0;
  const rows = Math.ceil(m / cols);
  const dpr = devicePixelRatio || 1;
  canvas.style.width = `${cols * cell}px`;
  canvas.style.height = `${rows * cell}px`;
  canvas.width = Math.round(cols * cell * dpr);
  canvas.height = Math.round(rows * cell * dpr);
}

let raf = 0;
function drawGrid() {
  const canvas = $('sb-grid');
  if (!box.bits) return;
  layoutGrid();
  const ctx = canvas.getContext('2d');
  const dpr = devicePixelRatio || 1;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const { cols, cell, pad } = grid;
  const clear = cssVar('--map-clear') || '#2a3140';
  const setC = cssVar('--map-set') || '#ffc233';
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  for (let i = 0; i < box.m; i++) {
    const on = (box.bits[i >> 3] >> (i & 7)) & 1;
    ctx.fillStyle = on ? setC : clear;
    ctx.fillRect((i % cols) * cell + pad, Math.floor(i / cols) * cell + pad, cell - 2 * pad, cell - 2 * pad);
  }
  const fl = box.flash;
  let again = false;
  if (fl) {
    const age = performance.now() - fl.t0;
    const still = reducedMotion.matches || age > 1600;
    const t = still ? 1 : age / 1600;
    again = !still;
    fl.probes.forEach((p) => {
      if (p.bit >= box.m) return;
      const x0 = (p.bit % cols) * cell;
      const y0 = Math.floor(p.bit / cols) * cell;
      // a pulse: seed colour fills the cell, then settles into a ring around it
      const fillAlpha = still ? (p.flipped === false || p.set === false ? 0 : 0.85) : 1 - 0.15 * t;
      if (fillAlpha > 0) {
        ctx.globalAlpha = fillAlpha;
        ctx.fillStyle = p.color;
        ctx.fillRect(x0 + pad, y0 + pad, cell - 2 * pad, cell - 2 * pad);
        ctx.globalAlpha = 1;
      }
      const grow = still ? 0 : Math.max(0, (1 - t) * cell * 0.8);
      ctx.strokeStyle = p.color;
      ctx.lineWidth = Math.max(1.5, cell / 6);
      ctx.strokeRect(x0 - grow + 0.5, y0 - grow + 0.5, cell + 2 * grow - 1, cell + 2 * grow - 1);
      if (fl.kind === 'test' && p.set === false && cell >= 6) {
        ctx.strokeStyle = p.color;
        ctx.beginPath();
        ctx.moveTo(x0 + 2, y0 + 2);
        ctx.lineTo(x0 + cell - 2, y0 + cell - 2);
        ctx.stroke();
      }
    });
  }
  if (box.cursor >= 0 && document.activeElement === canvas) {
    const x0 = (box.cursor % cols) * cell;
    const y0 = Math.floor(box.cursor / cols) * cell;
    ctx.strokeStyle = cssVar('--fg') || '#000';
    ctx.lineWidth = 2;
    ctx.setLineDash([3, 2]);
    ctx.strokeRect(x0 + 1, y0 + 1, cell - 2, cell - 2);
    ctx.setLineDash([]);
  }
  canvas.setAttribute('aria-label', `Sandbox bit vector: ${fmt(box.m)} bits in rows of ${cols}. Arrow keys move a cursor; the line below reads the bit under it.`);
  cancelAnimationFrame(raf);
  if (again) raf = requestAnimationFrame(drawGrid);
}

function ownersOf(bit) {
  if (!box.owners) {
    box.owners = new Map();
    const all = box.mode === 'tsfile' ? box.tsf.probeMany(box.paths, { compact: true }) : null;
    box.paths.forEach((p, i) => {
      const bits = all ? Array.from({ length: all.k }, (_, j) => all.data[i * all.stride + 2 + 2 * j]) : levelDbProbe(box.ldb, p).probes.map((q) => q.bit);
      for (const b of new Set(bits)) {
        if (!box.owners.has(b)) box.owners.set(b, []);
        box.owners.get(b).push(i);
      }
    });
  }
  return box.owners.get(bit) ?? [];
}

function describeCell(bit) {
  if (bit < 0 || bit >= box.m) return;
  const on = (box.bits[bit >> 3] >> (bit & 7)) & 1;
  const who = ownersOf(bit);
  $('sb-cell').textContent = `bit ${fmt(bit)}: ${on ? 'set' : 'clear'}${who.length ? ` · set by ${who.slice(0, 4).map((i) => box.paths[i]).join(', ')}${who.length > 4 ? ` (+${who.length - 4})` : ''}` : ''}`;
}

function gridBitAt(ev) {
  const r = $('sb-grid').getBoundingClientRect();
  const c = Math.floor((ev.clientX - r.left) / grid.cell);
  const row = Math.floor((ev.clientY - r.top) / grid.cell);
  if (c < 0 || c >= grid.cols || row < 0) return -1;
  const b = row * grid.cols + c;
  return b < box.m ? b : -1;
}

// ---------------------------------------------------------------- the tail pitfall

const DEFAULT_PITFALL = 'root.sg.d1.温度';

function hex(b) {
  return b.toString(16).padStart(2, '0');
}

/** The pitfall path: the file's own path with non-ASCII tail bytes if it has one, else the spec's example. */
function pitfallSource() {
  const st = file.state;
  if (st && !st.info.synthetic) {
    const w = writerHypothesis(st.audit);
    const listed = w.timeColumns ? st.series.concat(st.timeColumns) : st.series;
    for (const s of listed) {
      const bytes = utf8.encode(s.path);
      const tail = bytes.subarray(bytes.length - (bytes.length % 16));
      if (tail.some((x) => x >= 0x80)) return { path: s.path, fromFile: true };
    }
  }
  return { path: DEFAULT_PITFALL, fromFile: false };
}

let pitfallSeq = 0;
export async function renderPitfall(custom) {
  const seq = ++pitfallSeq;
  const input = $('pf-path');
  if (custom == null) {
    const src = pitfallSource();
    input.value = src.path;
    $('pf-source').textContent = src.fromFile ? 'A path from the loaded file whose last bytes are non-ASCII.' : file.state ? 'The loaded file has no path with a non-ASCII tail; this is an example path with one.' : 'An example path with a non-ASCII tail; open a file with non-ASCII names to use one of its own.';
  }
  const path = input.value;
  const lb = await lib();
  if (seq !== pitfallSeq) return;
  const st = file.state;
  const w = st && !st.info.synthetic ? writerHypothesis(st.audit) : { variant: 'java', charset: 'UTF-8', established: true };
  const charset = w.charset ?? 'UTF-8';
  const m = st ? st.bitCount : 256;
  const k = st ? st.info.bloom.hash_function_count : 5;
  const bytes = charset === 'UTF-8' ? utf8.encode(path) : lb.encodePath(path, charset);
  const tailLen = bytes.length % 16;
  const tail = bytes.subarray(bytes.length - tailLen);
  const high = [...tail].some((b) => b >= 0x80);
  // bytes
  const bytesEl = $('pf-bytes');
  bytesEl.replaceChildren();
  const blocks = el('p', { class: 'pf-bytes-line' });
  for (let i = 0; i < bytes.length; i++) {
    const inTail = i >= bytes.length - tailLen;
    blocks.append(el('span', { class: `byte${inTail ? ' tail' : ''}${inTail && bytes[i] >= 0x80 ? ' high' : ''}`, text: hex(bytes[i]) }));
    if ((i + 1) % 16 === 0 && i + 1 < bytes.length) blocks.append(el('span', { class: 'sep', 'aria-hidden': 'true', text: '|' }));
  }
  bytesEl.append(
    el('p', { class: 'small', text: `${bytes.length} bytes in ${charset}: ${Math.floor(bytes.length / 16)} full 16-byte block${Math.floor(bytes.length / 16) === 1 ? '' : 's'}, then a tail of ${tailLen} byte${tailLen === 1 ? '' : 's'} (highlighted). Full blocks are read as unsigned words by both; only tail bytes ≥ 0x80 are treated differently.` }),
    blocks,
  );
  if (high) {
    const ul = el('ul', { class: 'pf-ext small' });
    for (let j = 0; j < tail.length; j++) {
      if (tail[j] < 0x80) continue;
      const signed = tail[j] - 256;
      ul.append(el('li', {}, el('code', { text: `0x${hex(tail[j])}` }), ` → Java (sign-extended): `, el('code', { text: `0x${'ff'.repeat(7)}${hex(tail[j])}` }), ` (${signed}); C++ 2.5 (zero-extended): `, el('code', { text: `0x${'00'.repeat(7)}${hex(tail[j])}` }), ` (${tail[j]}); tail byte ${j} goes into ${j < 8 ? 'k1' : 'k2'} shifted ${8 * (j % 8)} bits`));
    }
    bytesEl.append(ul);
  }
  // the k bits under each variant
  const tbody = $('pf-table').tBodies[0];
  tbody.replaceChildren();
  let differ = 0;
  const javaBits = [];
  const zeroBits = [];
  for (let j = 0; j < k; j++) {
    const hj = lb.hash32(bytes, SEEDS[j], 'java');
    const hz = lb.hash32(bytes, SEEDS[j], 'zero-extended');
    const bj = lb.bitIndex(hj, m);
    const bz = lb.bitIndex(hz, m);
    javaBits.push(bj);
    zeroBits.push(bz);
    const d = bj !== bz;
    if (d) differ++;
    const sw = el('span', { class: 'swatch' });
    sw.style.background = SEED_COLORS[j];
    const tr = el('tr', { class: d ? 'differ' : '', 'data-testid': 'pf-row' }, el('td', {}, sw), el('td', { text: String(SEEDS[j]) }), el('td', { text: String(hj) }), el('td', { text: fmt(bj) }), el('td', { text: String(hz) }), el('td', { text: fmt(bz) }), el('td', { text: d ? 'differs' : 'same' }));
    tbody.append(tr);
  }
  $('pf-table').dataset.java = javaBits.join(',');
  $('pf-table').dataset.zero = zeroBits.join(',');
  $('pf-geometry').textContent = `m = ${fmt(m)}, k = ${k}${st ? ' (the loaded file’s)' : ' (a small example filter)'}; ${differ} of ${k} bits differ.`;
  // the false negative it causes
  const out = $('pf-fn');
  out.replaceChildren();
  const f = new lb.BloomFilter(m, k);
  const cs = charset === 'UTF-8' ? undefined : charset;
  f.add(path, { variant: 'java', charset: cs });
  const cross1 = f.probe(path, { variant: 'zero-extended', charset: cs }).verdict;
  const self1 = f.probe(path, { variant: 'java', charset: cs }).verdict;
  f.free();
  const g = new lb.BloomFilter(m, k);
  g.add(path, { variant: 'zero-extended', charset: cs });
  const cross2 = g.probe(path, { variant: 'java', charset: cs }).verdict;
  g.free();
  const verdictSpan = (v) => el('b', { class: `verdict-inline ${v}`, text: v === 'absent' ? 'absent' : 'maybe' });
  out.append(
    el('li', { 'data-testid': 'pf-java-zero' }, 'A filter holding only this path, written by Java (sign-extended), probed by a zero-extending reader → ', verdictSpan(cross1), cross1 === 'absent' ? ' — a false negative: the path is there, the reader skips the file' : ' (every differing bit happens to be set)', `. Probed with the writer’s own hash → ${self1}.`),
    el('li', { 'data-testid': 'pf-zero-java' }, 'Written by the C++ writer of tsfile 2.5 (zero-extended), probed by a Java reader → ', verdictSpan(cross2), cross2 === 'absent' ? ' — the same false negative the other way round.' : '.'),
  );
  out.dataset.cross = `${cross1},${cross2}`;
  if (st) {
    const filter = await fileFilter();
    if (seq !== pitfallSeq || !filter) return;
    const own = filter.probe(path, { variant: w.variant, charset: cs }).verdict;
    const other = w.variant === 'java' ? 'zero-extended' : 'java';
    const wrong = filter.probe(path, { variant: other, charset: cs }).verdict;
    const listed = indexedSet(st).has(path);
    out.append(
      el(
        'li',
        { 'data-testid': 'pf-file' },
        `In the loaded file${listed ? ', which lists this path' : ''}: under the writer’s ${w.variant} hash${st.audit?.status === 'established' ? ' (established by the audit)' : ''} → `,
        verdictSpan(own),
        `; under the ${other} hash → `,
        verdictSpan(wrong),
        listed && own === 'maybe' && wrong === 'absent' ? ' — a reader with the wrong hash would wrongly skip this file.' : '.',
      ),
    );
    out.dataset.file = `${own},${wrong}`;
  }
  if (!high) out.prepend(el('li', { class: 'muted', text: 'This path’s tail is ASCII: both hashes read the same values, so the bits agree and there is no pitfall for it. Try a path ending in a non-ASCII character.' }));
}

// ---------------------------------------------------------------- wiring

function initSandboxControls() {
  const onGeometry = async () => {
    if (box.mode === 'tsfile') await rebuildIfNeeded();
    else await rebuildSandbox();
    box.flash = null;
    renderSandbox();
  };
  for (const id of ['sb-m', 'sb-k', 'sb-bpk']) $(id).addEventListener('input', onGeometry);
  $('sb-n').addEventListener('input', renderSandbox);
  for (const r of document.querySelectorAll('input[name=sb-mode]')) {
    r.addEventListener('change', async () => {
      box.mode = document.querySelector('input[name=sb-mode]:checked').value;
      $('teach-sandbox').dataset.mode = box.mode;
      await rebuildSandbox();
      box.flash = null;
      $('sb-log').textContent = box.mode === 'leveldb' ? 'LevelDB geometry: k and m follow bits_per_key and the number of keys; the filter is rebuilt over all keys, as LevelDB builds one per 2 KiB window.' : 'TsFile geometry: m and k are fixed; added paths fill the same bits.';
      renderSandbox();
    });
  }
  $('sb-size').addEventListener('click', async () => {
    const { m, k } = javaSizing(slider('sb-n'));
    $('sb-m').value = String(Math.min(Number($('sb-m').max), m));
    $('sb-k').value = String(k);
    await onGeometry();
    $('sb-log').textContent = `Java's getEmptyBloomFilter(0.05, ${fmt(slider('sb-n'))}): m = ${fmt(m)}${m > Number($('sb-m').max) ? ` (capped at ${$('sb-m').max} here)` : ''}, k = ${k}.`;
  });
  $('sb-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const action = ev.submitter?.value ?? 'add';
    const v = $('sb-path').value;
    if (action === 'test') await testPath(v);
    else {
      await addPaths(v.split(/\r?\n|,\s*/));
      $('sb-path').select();
    }
  });
  $('sb-random').addEventListener('click', () => addPaths(randomPaths(100, box.set, 'root.rnd')));
  $('sb-clear').addEventListener('click', async () => {
    box.paths = [];
    box.set = new Set();
    box.flash = null;
    await rebuildSandbox();
    $('sb-log').textContent = 'Cleared.';
    $('sb-verdict').textContent = '';
    renderSandbox();
  });
  $('sb-measure').addEventListener('click', () => measureSandbox());
  const canvas = $('sb-grid');
  canvas.addEventListener('mousemove', (ev) => {
    const b = gridBitAt(ev);
    if (b >= 0) describeCell(b);
  });
  canvas.addEventListener('focus', () => {
    if (box.cursor < 0) box.cursor = box.flash?.probes[0]?.bit ?? 0;
    describeCell(box.cursor);
    drawGrid();
  });
  canvas.addEventListener('blur', drawGrid);
  canvas.addEventListener('keydown', (ev) => {
    const d = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -grid.cols, ArrowDown: grid.cols, Home: -Infinity, End: Infinity }[ev.key];
    if (d === undefined) return;
    ev.preventDefault();
    box.cursor = Math.max(0, Math.min(box.m - 1, (box.cursor < 0 ? 0 : box.cursor) + d));
    describeCell(box.cursor);
    drawGrid();
  });
  new ResizeObserver(() => drawGrid()).observe(canvas.parentElement);
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', drawGrid);
}

function init() {
  if (!$('teach')) return;
  $('teach-measure').addEventListener('click', () => measureFile());
  const pitfall = (custom) => renderPitfall(custom).catch((e) => ($('pf-fn').textContent = `The demo could not run: ${e.message}`));
  $('pf-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    pitfall($('pf-path').value);
  });
  $('pf-reset').addEventListener('click', () => pitfall());
  initSandboxControls();
  $('teach-sandbox').dataset.mode = box.mode;
  renderFile(null);
  // The sandbox needs the wasm: start it now, render when ready.
  rebuildSandbox()
    .then(() => {
      renderSandbox();
      $('teach').dataset.ready = 'true';
      return Promise.all([renderPitfall(), levelDbBuilder()]);
    })
    .catch((e) => {
      $('sb-log').textContent = `The sandbox could not start: ${e.message}`;
    });
}

init();

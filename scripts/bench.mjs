#!/usr/bin/env node
// Times the public JS API (wasm under Node) and puts the figures side by side with a
// pure-JS BigInt Murmur128 baseline and, when given, the native criterion results of
// the same run (scripts/bench.sh passes them).
//
//   node scripts/bench.mjs [--json] [--time=MS] [--native=DIR] [--native-since=EPOCH_MS]
//
//   --json          print the results as JSON instead of tables
//   --time=MS       measuring time per benchmark (default 1000; warm-up is a third of it)
//   --native=DIR    criterion output directory (e.g. target/criterion) for the wasm-vs-native table
//   --native-since  ignore criterion results older than this (so a table never mixes runs)
//
// Needs `bash scripts/build.sh` first. Imports the package by name (self-reference).

import { hash32, BloomFilter } from 'tsfile-bloom';
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';
import { workloads } from './bench-workloads.mjs';
import { boundary } from './bench-boundary.mjs';

const args = process.argv.slice(2);
const opt = (name) => {
  const a = args.find((x) => x === `--${name}` || x.startsWith(`--${name}=`));
  if (a === undefined) return undefined;
  return a.includes('=') ? a.slice(a.indexOf('=') + 1) : true;
};
const JSON_OUT = opt('json') === true;
const MEASURE_MS = Number(opt('time') ?? 1000);
const NATIVE_DIR = opt('native');
const NATIVE_SINCE = Number(opt('native-since') ?? 0);
// --only=workloads: just the realistic workloads (realistic paths, 1M build, big files, audit).
const ONLY = opt('only');
// --report=FILE: write the whole report (BENCHMARKS.md) there; the rest feed it.
const REPORT = opt('report');
const NATIVE_FACTS = opt('native-facts');
const BROWSER = opt('browser');
const LOAD_BEFORE = opt('load-before');
const STARTED = opt('started');

// ---------------------------------------------------------------------------------------
// Workload: the same path generators as benches/bloom.rs.

const SERIES = 10_000;
const HASH_BATCH = 1000;
const CITIES = ['北京', '上海', '广州', '深圳'];
const MEASUREMENTS = ['温度℃', '压力', '流量', '转速'];
const asciiPath = (i, sg) => `root.sg${sg + Math.floor(i / 2500)}.d${Math.floor(i / 50) % 50}.s${i % 50}`;
const nonAsciiPath = (i, t) => `t${t}.${CITIES[i % 4]}.泵${Math.floor(i / 16)}.${MEASUREMENTS[Math.floor(i / 4) % 4]}`;
const range = (n) => Array.from({ length: n }, (_, i) => i);

const utf8 = new TextEncoder();
const sets = {
  ascii: { present: range(SERIES).map((i) => asciiPath(i, 1)), absent: range(SERIES).map((i) => asciiPath(i, 9)) },
  'non-ascii': { present: range(SERIES).map((i) => nonAsciiPath(i, 1)), absent: range(SERIES).map((i) => nonAsciiPath(i, 2)) },
};
for (const s of Object.values(sets)) s.presentBytes = s.present.map((p) => utf8.encode(p));

// ---------------------------------------------------------------------------------------
// Pure-JS baseline: TsFile's Murmur128 written the straightforward way with BigInt.

const M64 = (1n << 64n) - 1n;
const C1 = 0x87c37b91114253d5n;
const C2 = 0x4cf5ad432745937fn;
const rotl64 = (x, r) => ((x << r) | (x >> (64n - r))) & M64;
const mul64 = (a, b) => (a * b) & M64;
function fmix64(k) {
  k ^= k >> 33n;
  k = mul64(k, 0xff51afd7ed558ccdn);
  k ^= k >> 33n;
  k = mul64(k, 0xc4ceb9fe1a85ec53n);
  k ^= k >> 33n;
  return k;
}
/** hash32 of `bytes` (Uint8Array); `java`: sign-extend the tail bytes like Java does. */
function bigintHash32(bytes, seed, java = true) {
  let h1 = BigInt(seed);
  let h2 = h1;
  const n = bytes.length;
  const blocks = n >> 4;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < blocks; i++) {
    const k1 = dv.getBigUint64(i * 16, true);
    const k2 = dv.getBigUint64(i * 16 + 8, true);
    h1 ^= mul64(rotl64(mul64(k1, C1), 31n), C2);
    h1 = (mul64(rotl64(h1, 27n) + h2, 5n) + 0x52dce729n) & M64;
    h2 ^= mul64(rotl64(mul64(k2, C2), 33n), C1);
    h2 = (mul64(rotl64(h2, 31n) + h1, 5n) + 0x38495ab5n) & M64;
  }
  let k1 = 0n;
  let k2 = 0n;
  const tail = blocks * 16;
  for (let j = 0; j < n - tail; j++) {
    const b = bytes[tail + j];
    const w = java && b >= 0x80 ? BigInt(b) | 0xffffffffffffff00n : BigInt(b);
    if (j < 8) k1 ^= (w << BigInt(8 * j)) & M64;
    else k2 ^= (w << BigInt(8 * (j - 8))) & M64;
  }
  if (n - tail > 8) h2 ^= mul64(rotl64(mul64(k2, C2), 33n), C1);
  if (n - tail > 0) h1 ^= mul64(rotl64(mul64(k1, C1), 31n), C2);
  const len = BigInt(n);
  h1 ^= len;
  h2 ^= len;
  h1 = (h1 + h2) & M64;
  h2 = (h2 + h1) & M64;
  h1 = fmix64(h1);
  h2 = fmix64(h2);
  h1 = (h1 + h2) & M64;
  h2 = (h2 + h1) & M64;
  return Number(BigInt.asIntN(32, h1 + h2));
}
const SEEDS = [5, 7, 11, 19, 31, 37, 43, 59];
/** The verdicts of a pure-JS probe over the logical bit vector (compact form: 1 = maybe). */
function bigintProbeMany(bits, bitCount, k, keys) {
  const maybe = new Uint8Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    let all = 1;
    for (let j = 0; j < k; j++) {
      const h = bigintHash32(keys[i], SEEDS[j]);
      const bit = (h === -2147483648 ? 0 : Math.abs(h)) % bitCount;
      if (((bits[bit >> 3] >> (bit & 7)) & 1) === 0) all = 0;
    }
    maybe[i] = all;
  }
  return maybe;
}

// ---------------------------------------------------------------------------------------
// Sanity (not timing): the baseline and the wasm agree on every path and both variants.

for (const s of Object.values(sets)) {
  for (const b of s.presentBytes.slice(0, 500)) {
    for (const v of ['java', 'zero-extended']) {
      const want = hash32(b, 5, v);
      const got = bigintHash32(b, 5, v === 'java');
      if (want !== got) throw new Error(`BigInt baseline disagrees with wasm on ${new TextDecoder().decode(b)} (${v}): ${got} != ${want}`);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Timing.

let sink = 0;
const consume = (x) => {
  sink ^= typeof x === 'number' ? x : x == null ? 0 : 1;
};

/**
 * Warms `fn` (which performs `ops` operations per call) up for MEASURE_MS / 3 and returns a
 * sampler: each call of it times one sample of ~MEASURE_MS / 10 and returns its ns/op.
 */
function sampler(fn, ops) {
  const now = process.hrtime.bigint;
  const warmNs = BigInt(Math.round((MEASURE_MS / 3) * 1e6));
  let calls = 0;
  const w0 = now();
  while (calls < 3 || now() - w0 < warmNs) {
    consume(fn());
    calls++;
  }
  const perCallNs = Number(now() - w0) / calls;
  const callsPerSample = Math.max(1, Math.round(((MEASURE_MS / 10) * 1e6) / perCallNs));
  return () => {
    const t0 = now();
    for (let i = 0; i < callsPerSample; i++) consume(fn());
    return Number(now() - t0) / (callsPerSample * ops);
  };
}

/** The median (the figure), the best and the worst of `samples`, in ns/op. */
function summary(samples) {
  samples.sort((a, b) => a - b);
  const median = samples[samples.length >> 1];
  return { nsPerOp: median, opsPerSec: 1e9 / median, min: samples[0], max: samples[samples.length - 1], samples: samples.length };
}

/** Samples of ~MEASURE_MS / 10 each for MEASURE_MS after the warm-up; the median in ns/op. */
function time(fn, ops) {
  const sample = sampler(fn, ops);
  const samples = [];
  const m0 = process.hrtime.bigint();
  while (samples.length < 5 || (Number(process.hrtime.bigint() - m0) < MEASURE_MS * 1e6 && samples.length < 50)) {
    samples.push(sample());
  }
  return summary(samples);
}

/**
 * The rows' samples taken in rounds, one sample of each row per round (the order reversed
 * every other round), for as long as `time` gives each row. On this shared machine the load
 * comes in bursts of a second or more: timed one after the other, a burst could spoil every
 * sample of one row and none of the next, which a ratio between them then shows as a real
 * difference. In rounds, a burst reaches every row alike.
 */
function timeInRounds(rows) {
  const samplers = rows.map(([, , fn, ops]) => sampler(fn, ops));
  const samples = rows.map(() => []);
  const m0 = process.hrtime.bigint();
  const budgetNs = MEASURE_MS * 1e6 * rows.length;
  for (let round = 0; round < 50 && (round < 5 || Number(process.hrtime.bigint() - m0) < budgetNs); round++) {
    const order = samplers.map((_, i) => i);
    if (round % 2) order.reverse();
    for (const i of order) samples[i].push(samplers[i]());
  }
  return samples.map(summary);
}

const results = {};
const sections = [];
/**
 * A table; ratios are against the first row. Rows are timed one after the other, or with
 * `{ rounds: true }` in rounds (`timeInRounds`: the rows compared by a goal).
 */
function section(title, note, rows, { rounds = false } = {}) {
  const out = { title, note, rows: [] };
  const timed = rounds ? timeInRounds(rows.filter((r) => !r[4])) : null;
  let next = 0;
  for (const [id, label, fn, ops, done] of rows) {
    const r = done ?? { id, label, ops, ...(timed ? timed[next++] : time(fn, ops)) };
    results[id] = r;
    out.rows.push(r);
    if (!JSON_OUT) process.stderr.write(`  ${id}: ${fmtNs(r.nsPerOp)}/op\n`);
  }
  sections.push(out);
}

// ---------------------------------------------------------------------------------------
// The benchmarks.

const started = Date.now();
if (!JSON_OUT) process.stderr.write(`[bench.mjs] timing (${MEASURE_MS} ms per benchmark)…\n`);
const facts = await workloads({ section, time });
// The wasm/JS boundary against its goals, in the same run (scripts/bench-boundary.mjs).
if (!JSON_OUT) process.stderr.write('[bench.mjs] boundary…\n');
facts.boundary = await boundary();
if (ONLY !== 'workloads') {

for (const shape of ['ascii', 'non-ascii']) {
  const s = sets[shape];
  const strs = s.present.slice(0, HASH_BATCH);
  const bytes = s.presentBytes.slice(0, HASH_BATCH);
  const loop = (f) => () => {
    let acc = 0;
    for (let i = 0; i < HASH_BATCH; i++) acc ^= f(i);
    return acc;
  };
  section(`hash32, ${shape} paths (per path, one seed)`, 'ratio = pure-JS BigInt time / this row', [
    [`hash32/bigint/java/${shape}`, 'pure-JS BigInt, Uint8Array', loop((i) => bigintHash32(bytes[i], 5, true)), HASH_BATCH],
    [`hash32/wasm-bytes/java/${shape}`, 'wasm hash32(Uint8Array), java', loop((i) => hash32(bytes[i], 5, 'java')), HASH_BATCH],
    [`hash32/wasm-bytes/zero-extended/${shape}`, 'wasm hash32(Uint8Array), zero-extended', loop((i) => hash32(bytes[i], 5, 'zero-extended')), HASH_BATCH],
    [`hash32/wasm-string/java/${shape}`, 'wasm hash32(string), java (UTF-8 encode included)', loop((i) => hash32(strs[i], 5, 'java')), HASH_BATCH],
  ]);
}

const filters = {};
for (const shape of ['ascii', 'non-ascii']) {
  const f = BloomFilter.withCapacity(SERIES);
  for (const p of sets[shape].present) f.add(p);
  if (f.bitCount !== 62353 || f.hashFunctionCount !== 5) throw new Error(`unexpected geometry ${f.bitCount}/${f.hashFunctionCount}`);
  filters[shape] = f;
}

for (const shape of ['ascii', 'non-ascii']) {
  const f = filters[shape];
  const present = sets[shape].present;
  const absent = sets[shape].absent;
  // Sanity: every present path is "maybe" in both forms.
  if (f.probeMany(present, { compact: true }).maybe.some((m) => m !== 1)) throw new Error('probeMany lost a path');
  const perCall = (paths) => () => {
    let n = 0;
    for (let i = 0; i < paths.length; i++) n += f.probe(paths[i]).verdict === 'maybe' ? 1 : 0;
    return n;
  };
  const rows = [
    [`probe/per-call/${shape}/hit`, 'probe() in a loop, 10,000 present paths', perCall(present), SERIES],
    [`probe/many-object/${shape}/hit`, 'probeMany(10,000), objects', () => f.probeMany(present).length, SERIES],
    [`probe/many-compact/${shape}/hit`, 'probeMany(10,000, {compact})', () => f.probeMany(present, { compact: true }).maybe.length, SERIES],
    [`probe/many-compact/${shape}/miss`, 'probeMany(10,000, {compact}), absent paths', () => f.probeMany(absent, { compact: true }).maybe.length, SERIES],
    [`probe/many-compact-zero/${shape}/hit`, 'probeMany(10,000, {compact, zero-extended})', () => f.probeMany(present, { compact: true, variant: 'zero-extended' }).maybe.length, SERIES],
  ];
  if (shape === 'ascii') {
    const bits = f.bits();
    const keys = sets[shape].presentBytes;
    if (bigintProbeMany(bits, f.bitCount, 5, keys).some((m) => m !== 1)) throw new Error('BigInt probe lost a path');
    rows.push([`probe/bigint/${shape}/hit`, 'pure-JS BigInt probe loop, 10,000 (Uint8Array)', () => bigintProbeMany(bits, f.bitCount, 5, keys).length, SERIES]);
  }
  section(`probe, ${shape} paths, 62,353-bit filter (per path)`, 'ratio = probe()-per-call time / this row', rows);
}

for (const shape of ['ascii', 'non-ascii']) {
  const paths = sets[shape].present;
  const fill = (variant) => () => {
    const f = BloomFilter.withCapacity(SERIES);
    for (let i = 0; i < paths.length; i++) f.add(paths[i], { variant });
    const n = f.setBits;
    f.free();
    return n;
  };
  section(`add, ${shape} paths (withCapacity(10000) + 10,000 add(), per path)`, 'ratio = first row / this row', [
    [`add/java/${shape}`, 'add(), java', fill('java'), SERIES],
    [`add/zero-extended/${shape}`, 'add(), zero-extended', fill('zero-extended'), SERIES],
  ]);
}

const small = BloomFilter.withCapacity(20);
for (const p of sets.ascii.present.slice(0, 20)) small.add(p);
if (small.bitCount !== 256) throw new Error('small filter is not 256 bits');
const encoded = { '62353-bit': filters.ascii.encode(), '256-bit': small.encode() };
section('decode / encode / withCapacity (per call)', 'ratio = first row / this row', [
  ['decode/62353-bit', `decode(), 62,353-bit filter (${encoded['62353-bit'].length} B) + free()`, () => {
    const f = BloomFilter.decode(encoded['62353-bit']);
    const n = f.bitCount;
    f.free();
    return n;
  }, 1],
  ['decode/256-bit', `decode(), 256-bit filter (${encoded['256-bit'].length} B) + free()`, () => {
    const f = BloomFilter.decode(encoded['256-bit']);
    const n = f.bitCount;
    f.free();
    return n;
  }, 1],
  ['encode/62353-bit', 'encode(), 62,353-bit filter', () => filters.ascii.encode().length, 1],
  ['encode/256-bit', 'encode(), 256-bit filter', () => small.encode().length, 1],
  ['with_capacity/10000', 'withCapacity(10000) + free()', () => {
    const f = BloomFilter.withCapacity(10000);
    const n = f.bitCount;
    f.free();
    return n;
  }, 1],
]);

}

// ---------------------------------------------------------------------------------------
// Native results of the same run (criterion), if asked for.

function readNative(dir) {
  const out = {};
  if (!dir || !existsSync(dir)) return out;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (e.name === 'new' && existsSync(join(p, 'benchmark.json')) && existsSync(join(p, 'estimates.json'))) {
          if (statSync(join(p, 'estimates.json')).mtimeMs < NATIVE_SINCE) continue;
          const b = JSON.parse(readFileSync(join(p, 'benchmark.json'), 'utf8'));
          const est = JSON.parse(readFileSync(join(p, 'estimates.json'), 'utf8'));
          const perIter = (est.slope ?? est.mean).point_estimate;
          const elems = b.throughput?.Elements ?? 1;
          out[b.full_id] = perIter / elems;
        } else walk(p);
      }
    }
  };
  walk(dir);
  return out;
}
const native = readNative(NATIVE_DIR);
const nativeRows = [
  // [label, criterion id, wasm result id]
  ['hash32 java, ascii (Uint8Array)', 'hash32/java/ascii', 'hash32/wasm-bytes/java/ascii'],
  ['hash32 java, ascii (string)', 'hash32/java/ascii', 'hash32/wasm-string/java/ascii'],
  ['hash32 java, non-ascii (Uint8Array)', 'hash32/java/non-ascii', 'hash32/wasm-bytes/java/non-ascii'],
  ['hash32 zero-ext., non-ascii (Uint8Array)', 'hash32/zero-extended/non-ascii', 'hash32/wasm-bytes/zero-extended/non-ascii'],
  ['probe, ascii hit: probeMany compact', 'probe/probe/ascii/java/hit', 'probe/many-compact/ascii/hit'],
  ['probe, ascii hit: probe() per call', 'probe/probe/ascii/java/hit', 'probe/per-call/ascii/hit'],
  ['probe, non-ascii hit: probeMany compact', 'probe/probe/non-ascii/java/hit', 'probe/many-compact/non-ascii/hit'],
  ['probe, ascii miss: probeMany compact', 'probe/probe/ascii/java/miss', 'probe/many-compact/ascii/miss'],
  ['add java, ascii', 'add/java/ascii', 'add/java/ascii'],
  ['add java, non-ascii', 'add/java/non-ascii', 'add/java/non-ascii'],
  ['decode 62,353-bit', 'decode/62353-bit', 'decode/62353-bit'],
  ['decode 256-bit', 'decode/256-bit', 'decode/256-bit'],
  ['encode 62,353-bit', 'encode/62353-bit', 'encode/62353-bit'],
  ['encode 256-bit', 'encode/256-bit', 'encode/256-bit'],
  ['with_capacity(10000)', 'with_capacity/10000', 'with_capacity/10000'],
].filter(([, n, w]) => native[n] !== undefined && results[w] !== undefined);

// ---------------------------------------------------------------------------------------
// Output.

function fmtNs(ns) {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${ns.toFixed(1)} ns`;
}
function fmtOps(ops) {
  if (ops >= 1e6) return `${(ops / 1e6).toFixed(2)} M/s`;
  if (ops >= 1e3) return `${(ops / 1e3).toFixed(1)} k/s`;
  return `${ops.toFixed(0)} /s`;
}
const fmtRatio = (r) => `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}×`;

function table(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join(' | ')} |`;
  return [line(headers), `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|')}|`, ...rows.map(line)].join('\n');
}

const env = {
  node: process.version,
  v8: process.versions.v8,
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cpus: os.cpus().length,
  measureMs: MEASURE_MS,
  seconds: (Date.now() - started) / 1000,
};

const printed = [];
const print = (...a) => {
  const line = a.join(' ');
  printed.push(line);
  if (!REPORT) console.log(line);
};
if (JSON_OUT) {
  console.log(JSON.stringify({ env, results, facts, native: Object.keys(native).length ? native : undefined, sink }, null, 2));
} else {
  print(`\n## JS API (wasm) under Node ${env.node}, ${env.cpus} × ${env.cpu}; ${MEASURE_MS} ms per benchmark, median of samples\n`);
  for (const s of sections) {
    const base = s.rows[0].nsPerOp;
    print(`### ${s.title}\n(${s.note})\n`);
    print(table(['operation', 'ns/op', 'ops/s', 'ratio'], s.rows.map((r) => [r.label, fmtNs(r.nsPerOp), fmtOps(r.opsPerSec), fmtRatio(base / r.nsPerOp)])));
    print();
  }
  if (Object.keys(native).length) {
    const nat = (id) => native[id];
    const present = (ids) => ids.every((id) => nat(id) !== undefined);
    const natTable = (title, note, groups) => {
      const rows = [];
      for (const [label, ids] of groups) {
        if (!present(ids.map((x) => x[1]))) continue;
        const base = nat(ids[0][1]);
        for (const [col, id] of ids) rows.push([`${label}: ${col}`, fmtNs(nat(id)), fmtOps(1e9 / nat(id)), fmtRatio(nat(id) / base)]);
      }
      if (!rows.length) return;
      print(`### ${title}\n(${note})\n`);
      print(table(['native (criterion)', 'time/op', 'ops/s', 'time ratio'], rows));
      print();
    };
    natTable('Native, realistic paths (per path; 623,523-bit filter of 100,000 paths, k = 5; batch of 10,000, half absent)', 'time ratio = this row / the probeMany-equivalent flat buffer', [
      ['real', [['flat buffer as probeStaged (mask + hash32, bit per seed)', 'real/probe_flat/java'], ['might_contain()', 'real/might_contain/java'], ['probe() (a Vec per path)', 'real/probe/java'], ['hash32() × 5 seeds (one call per seed)', 'real/hash32x5/java']]],
    ]);
    natTable('Native build and index (per path for add; per call for the others)', 'time ratio = this row / the first of its group', [
      ['build', [['with_capacity(1e6) + 1,000,000 add()', 'build/add_1m/java']]],
      ['open', [['read_metadata(big_1g)', 'open/big_1g'], ['read_metadata(small_1m)', 'open/small_1m']]],
      ['series_100k', [['walk the index region', 'index/walk'], ['audit::audit', 'index/audit'], ['walk + audit', 'index/walk+audit'], ['audit, limit (paths once, one hash per variant)', 'index/audit-limit']]],
    ]);
    natTable('Native hash32 (per path, one seed)', 'time ratio = this row / the Java variant of the same paths', [
      ['ascii', [['java', 'hash32/java/ascii'], ['zero-extended', 'hash32/zero-extended/ascii'], ['murmur3 crate x64_128', 'hash32/murmur3-crate/ascii']]],
      ['non-ascii', [['java', 'hash32/java/non-ascii'], ['zero-extended', 'hash32/zero-extended/non-ascii'], ['murmur3 crate x64_128', 'hash32/murmur3-crate/non-ascii']]],
    ]);
    natTable('Native probe (per path, 62,353-bit filter, k = 5)', 'time ratio = this row / probe() of the same case', [
      ...['ascii/java/hit', 'ascii/java/miss', 'ascii/zero-extended/hit', 'non-ascii/java/hit', 'non-ascii/zero-extended/hit', 'non-ascii/java/miss'].map((c) => [c, [['probe()', `probe/probe/${c}`], ['might_contain()', `probe/might_contain/${c}`]]]),
    ]);
    natTable('Native add (per path, into a fresh 62,353-bit filter)', 'time ratio = this row / java on ASCII', [
      ['add', [['java ascii', 'add/java/ascii'], ['java non-ascii', 'add/java/non-ascii'], ['zero-extended non-ascii', 'add/zero-extended/non-ascii']]],
    ]);
  }
  if (nativeRows.length) {
    print('### wasm (JS API) vs native Rust (criterion, same run), per op\n(ratio = wasm time / native time: how many times slower through wasm + JS)\n');
    print(table(['operation', 'native', 'wasm', 'wasm / native'], nativeRows.map(([label, n, w]) => [label, fmtNs(native[n]), fmtNs(results[w].nsPerOp), fmtRatio(results[w].nsPerOp / native[n])])));
    print();
  } else if (NATIVE_DIR) {
    print(`(no criterion results newer than the start of this run under ${NATIVE_DIR}: wasm-vs-native table skipped)\n`);
  }
  print(`[bench.mjs] done in ${env.seconds.toFixed(1)} s`);
}

if (REPORT) {
  const { writeReport } = await import('./bench-report.mjs');
  const file = writeReport({
    path: REPORT, env, results, native, facts, printed,
    nativeFacts: NATIVE_FACTS && existsSync(NATIVE_FACTS) ? readFileSync(NATIVE_FACTS, 'utf8') : '',
    browser: BROWSER && existsSync(BROWSER) ? JSON.parse(readFileSync(BROWSER, 'utf8')) : null,
    loadBefore: LOAD_BEFORE, started: STARTED ? Number(STARTED) : null,
  });
  console.log(file);
  console.error(`[bench.mjs] wrote ${REPORT}`);
}

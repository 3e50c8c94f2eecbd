// Realistic workloads through the JS API (wasm under Node), used by scripts/bench.mjs:
// realistic batch probe (vs the murmurhash3js-revisited route), a 1M-path build, opening
// a ~1 GB and a ~1 MB TsFile (bytes read and reads counted by the TsFile: bytesRead, reads), and the audit
// of a 100,000-series file. The same path shape as benches/bloom.rs (`real_path`) and
// scripts/gen-bench-fixtures.py.

import { BloomFilter, hash32, openTsFile } from 'tsfile-bloom';
import { stagePaths } from '../js/core.js';
import { javaBaseline } from './bench-java.mjs';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const MurmurHash3 = require('murmurhash3js-revisited');

const MEAS_EN = ['temperature', 'pressure', 'flow_rate', 'rotation_speed', 'vibration_x', 'vibration_y', 'voltage', 'current'];
const MEAS_CN = ['温度', '压力', '流量', '转速', '振动X', '振动Y', '电压', '电流'];
const pad = (n, w) => String(n).padStart(w, '0');

/** Series path `i`: device i / 40, measurement i % 40, every 4th device non-ASCII (42-52 bytes). */
export function realPath(i) {
  const d = Math.floor(i / 40);
  const m = i % 40;
  if (d % 4 === 3) return `root.华东.工厂${pad(d % 16, 2)}.风机_${pad(d, 5)}.${MEAS_CN[m % 8]}_${m}`;
  return `root.plant_${pad(d % 16, 2)}.line_${d % 5}.turbine_${pad(d, 5)}.${MEAS_EN[m % 8]}_${m}`;
}

export const REAL_SERIES = 100_000;
export const REAL_BATCH = 10_000;
export const BUILD_N = 1_000_000;

/** Half indexed paths, half absent ones (as benches/bloom.rs `real_batch`). */
export function realBatch() {
  const out = new Array(REAL_BATCH);
  for (let i = 0; i < REAL_BATCH; i++) out[i] = i % 2 === 0 ? realPath((i * 7919) % REAL_SERIES) : realPath(REAL_SERIES + i);
  return out;
}

const SEEDS = [5, 7, 11, 19, 31, 37, 43, 59];
const utf8 = new TextEncoder();

/**
 * The route a JS developer has today: murmurhash3js-revisited's x64.hash128 (a stock
 * MurmurHash3, i.e. zero-extended tail: right for paths whose `len mod 16` tail is ASCII),
 * folded the TsFile way, plus a bit test. The package returns the 128-bit state as hex
 * `h1 (16 digits) | h2 (16 digits)`; hash32 = low 32 bits of h1 + h2 as a signed int.
 */
export function murmurJsHash32(bytes, seed) {
  const hex = MurmurHash3.x64.hash128(bytes, seed);
  return (parseInt(hex.slice(8, 16), 16) + parseInt(hex.slice(24, 32), 16)) | 0;
}
export function murmurJsProbeMany(bits, bitCount, k, paths) {
  const maybe = new Uint8Array(paths.length);
  for (let i = 0; i < paths.length; i++) {
    const bytes = utf8.encode(paths[i]); // encoded once for all seeds
    let all = 1;
    for (let j = 0; j < k; j++) {
      const h = murmurJsHash32(bytes, SEEDS[j]);
      const bit = (h === -2147483648 ? 0 : Math.abs(h)) % bitCount;
      if (((bits[bit >> 3] >> (bit & 7)) & 1) === 0) all = 0;
    }
    maybe[i] = all;
  }
  return maybe;
}

/** True when every tail byte (`len mod 16`) of the UTF-8 path is ASCII (both variants agree). */
const asciiTail = (bytes) => bytes.subarray(bytes.length - (bytes.length % 16)).every((b) => b < 0x80);

/**
 * Adds the realistic-workload sections through `section(title, note, rows, options)` from bench.mjs and returns
 * extra facts (bytes read, path stats) for the report.
 */
export async function workloads({ section, time, fixtures = 'bench-data' }) {
  const facts = {};
  // ---- batch probe, realistic paths
  const all = Array.from({ length: REAL_SERIES }, (_, i) => realPath(i));
  const lens = all.map((p) => utf8.encode(p).length);
  facts.pathBytes = [Math.min(...lens), Math.max(...lens)];
  facts.nonAscii = all.filter((p) => /[^\x00-\x7f]/.test(p)).length / all.length;
  const f = BloomFilter.withCapacity(REAL_SERIES).addMany(all);
  if (f.bitCount !== 623523 || f.hashFunctionCount !== 5) throw new Error(`unexpected geometry ${f.bitCount}/${f.hashFunctionCount}`);
  const batch = realBatch();
  const compact = f.probeMany(batch, { compact: true });
  for (let i = 0; i < batch.length; i += 2) if (compact.maybe[i] !== 1) throw new Error(`probeMany lost ${batch[i]}`);
  // Sanity: the JS route agrees with the wasm on every path whose tail is ASCII, and its
  // hash equals our zero-extended hash32 on every path.
  const bits = f.bits();
  const route = murmurJsProbeMany(bits, f.bitCount, 5, batch);
  let asciiTails = 0;
  let routeWrong = 0;
  for (let i = 0; i < batch.length; i++) {
    const b = utf8.encode(batch[i]);
    if (i < 300 && murmurJsHash32(b, 5) !== hash32(b, 5, 'zero-extended')) throw new Error('murmurhash3js fold disagrees with hash32 zero-extended');
    if (asciiTail(b)) {
      asciiTails++;
      if (route[i] !== compact.maybe[i]) throw new Error(`JS route disagrees on ASCII-tail path ${batch[i]}`);
    } else if (route[i] !== compact.maybe[i]) routeWrong++;
  }
  facts.batchAsciiTail = asciiTails / batch.length;
  facts.routeWrongVerdicts = routeWrong;
  // The wasm object behind the BloomFilter (a private symbol), for the split below.
  const raw = f[Object.getOwnPropertySymbols(f).find((x) => String(x) === 'Symbol(raw)')];
  // The same batch pre-encoded, as a caller holding bytes passes it: one buffer + end offsets.
  const parts = batch.map((p) => utf8.encode(p));
  const ends = new Uint32Array(parts.length);
  parts.reduce((pos, b, i) => (ends[i] = pos + b.length), 0);
  const encoded = { bytes: new Uint8Array(ends[ends.length - 1]), ends };
  parts.forEach((b, i) => encoded.bytes.set(b, i ? ends[i - 1] : 0));
  const verdicts = f.mightContainMany(batch);
  if (verdicts.some((m, i) => m !== compact.maybe[i])) throw new Error('mightContainMany disagrees with probeMany');
  if (f.mightContainMany(encoded).some((m, i) => m !== verdicts[i])) throw new Error('pre-encoded verdicts disagree');
  facts.batchMaybe = verdicts.reduce((a, b) => a + b, 0);
  stagePaths(batch);
  section(`batch probe, realistic paths (${facts.pathBytes[0]}-${facts.pathBytes[1]} B, ${Math.round(facts.nonAscii * 100)} % non-ASCII), 623,523-bit filter of 100,000 paths, k = 5 (per path)`,
    'ratio = murmurhash3js-revisited route time / this row', [
      ['real/js-murmurhash3js', 'npm murmurhash3js-revisited x64.hash128 ×5 + bit test (TextEncoder once per path)', () => murmurJsProbeMany(bits, f.bitCount, 5, batch).length, REAL_BATCH],
      ['real/mightContainMany', 'mightContainMany(10,000 strings): verdicts only', () => f.mightContainMany(batch).length, REAL_BATCH],
      ['real/mightContainMany-encoded', 'mightContainMany({bytes, ends}): pre-encoded, verdicts only', () => f.mightContainMany(encoded).length, REAL_BATCH],
      ['real/probeMany-compact', 'probeMany(10,000, {compact}): per-seed detail', () => f.probeMany(batch, { compact: true }).maybe.length, REAL_BATCH],
      ['real/probeMany-objects', 'probeMany(10,000), objects', () => f.probeMany(batch).length, REAL_BATCH],
      // The halves of the batch calls: writing the keys into wasm memory, and the wasm call
      // on the staged keys.
      ['real/stage-only', '… of which: stagePaths (strings into wasm memory)', () => stagePaths(batch).count, REAL_BATCH],
      ['real/stage-encoded', '… of which: staging {bytes, ends} (two bulk copies)', () => stagePaths(encoded).count, REAL_BATCH],
      ['real/wasm-might-only', '… of which: the wasm mightContainStaged call on staged keys', () => raw.mightContainStaged(REAL_BATCH, true, 0, -1).length, REAL_BATCH],
      ['real/wasm-only', '… of which: the wasm probeStaged call on staged keys', () => raw.probeStaged(REAL_BATCH, true, 0, -1).length, REAL_BATCH],
    ], { rounds: true }); // every staging row leaves this batch's keys staged for the wasm-only rows
  f.free();

  // ---- 1M-path build
  const million = Array.from({ length: BUILD_N }, (_, i) => realPath(i));
  const g1 = BloomFilter.withCapacity(BUILD_N);
  const rawG = g1[Object.getOwnPropertySymbols(g1).find((x) => String(x) === 'Symbol(raw)')];
  section('build a filter of 1,000,000 realistic paths (per path)', 'ratio = first row / this row', [
    ['build/addMany-1m', 'withCapacity(1e6).addMany(1,000,000 paths) + free()', () => {
      const g = BloomFilter.withCapacity(BUILD_N).addMany(million);
      const n = g.bitCount;
      g.free();
      return n;
    }, BUILD_N],
    ['build/stage-only', '… of which: stagePaths (strings into wasm memory)', () => stagePaths(million).count, BUILD_N],
    ['build/wasm-only', '… of which: the wasm addStaged call on staged keys', () => {
      rawG.addStaged(BUILD_N, true, false, 'UTF-8');
      return 1;
    }, BUILD_N],
  ], { rounds: true });
  g1.free();

  // ---- Apache TsFile's Java BloomFilter on the same workload, in this run (scripts/bench-java.mjs)
  facts.java = javaBaseline({ paths: million, batch, capacity: REAL_SERIES, fpp: 0.05, present: REAL_SERIES, addCapacity: BUILD_N });
  if (!facts.java.skipped) {
    const j = facts.java;
    // Independent check that it is the same workload: Java's verdicts count equals ours.
    if (j.bitCount !== 623523 || j.k !== 5 || j.addBitCount !== 6235225) throw new Error(`Java filter geometry differs: ${JSON.stringify(j)}`);
    if (j.maybe !== facts.batchMaybe) throw new Error(`Java contains() found ${j.maybe} of the batch, mightContainMany ${facts.batchMaybe}`);
    const row = (id, label, ns, best) => [id, label, null, 1, { id, label, ops: 1, nsPerOp: ns, opsPerSec: 1e9 / ns, min: best, max: ns, samples: j.rounds }];
    section(`Apache TsFile Java BloomFilter (${j.jdk}, tsfile ${j.tsfileCommit.slice(0, 10)}; JIT warm-up: ${j.warmup} rounds; median of ${j.rounds} rounds for contains, ${j.addRounds} for add) (per path)`,
      'ratio = first row / this row', [
        row('java/contains', 'BloomFilter.contains(String), the same 10,000-path batch', j.containsNsPerPath, j.containsBestNsPerPath),
        row('java/add', 'BloomFilter.add(String), 1,000,000 paths into getEmptyBloomFilter(0.05, 1e6)', j.addNsPerPath, j.addBestNsPerPath),
      ]);
  } else process.stderr.write(`  java: skipped (${facts.java.skipped})\n`);

  // ---- opening: ~1 GB vs ~1 MB (real files from the C++ writer)
  const file = (n) => `${fixtures}/${n}.tsfile`;
  if (existsSync(file('big_1g')) && existsSync(file('small_1m'))) {
    facts.open = {};
    for (const name of ['big_1g', 'small_1m']) {
      const t = await openTsFile(file(name));
      const m = t.metadata;
      const openRead = { bytes: t.bytesRead, reads: t.reads };
      await t.loadIndex();
      facts.open[name] = {
        size: t.size, metadataSize: m.size, indexRegion: m.offset - m.metaOffset,
        openBytes: openRead.bytes, openReads: openRead.reads, withIndexBytes: t.bytesRead, withIndexReads: t.reads,
      };
      await t.close();
    }
    // Async, so timed here; the two files alternate call by call (60 each, median) so that
    // load drifts on this shared machine hit both alike.
    const openOnce = async (name) => {
      const t0 = process.hrtime.bigint();
      const t = await openTsFile(file(name));
      const v = t.version;
      await t.close();
      return [Number(process.hrtime.bigint() - t0), v];
    };
    const samples = { big_1g: [], small_1m: [] };
    for (let i = 0; i < 64; i++) {
      for (const name of i % 2 ? ['big_1g', 'small_1m'] : ['small_1m', 'big_1g']) {
        const [ns] = await openOnce(name);
        if (i >= 4) samples[name].push(ns);
      }
    }
    const openRows = ['big_1g', 'small_1m'].map((name) => {
      const xs = samples[name].sort((a, b) => a - b);
      const median = xs[xs.length >> 1];
      return { id: `open/${name}`, label: `openTsFile(${name}.tsfile) + close()`, ops: 1, nsPerOp: median, opsPerSec: 1e9 / median, min: xs[0], max: xs[xs.length - 1], samples: xs.length };
    });
    section('opening a TsFile by path in Node (per open)', 'ratio = first row / this row', openRows.map((r) => [r.id, r.label, null, 1, r]));
  } else facts.open = null;

  // ---- audit of 100,000 series
  if (existsSync(file('series_100k'))) {
    const rows = [];
    rows.push(await timeAsync('audit/open+loadIndex', 'open + loadIndex() (read 8 MB region, walk, audit) + close()', async () => {
      const t = await openTsFile(file('series_100k'));
      await t.loadIndex();
      await t.close();
      return 1;
    }, 6));
    rows.push(await timeAsync('audit/open+audit', 'open + audit() + close()', async () => {
      const t = await openTsFile(file('series_100k'));
      const a = await t.audit();
      await t.close();
      return a.status === 'established' ? 1 : 0;
    }, 6));
    rows.push(await timeAsync('audit/open+series', 'open + series() (the listing as 100,000 JS objects) + close()', async () => {
      const t = await openTsFile(file('series_100k'));
      const s = await t.series();
      await t.close();
      return s.length;
    }, 6));
    section('100,000-series file (per call)', 'ratio = first row / this row', rows.map((r) => [r.id, r.label, null, 1, r]));
  }
  return facts;
}

/** Times an async function: 2 warm-up calls, then `n` calls; median in ns. */
async function timeAsync(id, label, fn, n = 30) {
  for (let i = 0; i < 2; i++) await fn();
  const samples = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - t0));
  }
  samples.sort((a, b) => a - b);
  const median = samples[samples.length >> 1];
  return { id, label, ops: 1, nsPerOp: median, opsPerSec: 1e9 / median, min: samples[0], max: samples[samples.length - 1], samples: n };
}

// The teaching panel's ops, run in the page's workers (page-worker.js spreads them into the package worker's ops
// table): every formula, hash and filter the panel shows comes from the package here, so the
// page's main thread creates no wasm instance and holds no copy of the maths. The page's
// LevelDB table view has its ops here too ('leveldb.*'), for the same reason.
//
// Each op takes the message object and a progress callback, like the ops in worker.js. State
// kept here: the sandbox filter, a copy of the open file's filter (re-opened from the same Blob,
// or rebuilt from the synthetic paths) which the lesson probes, and the sample LevelDB table;
// what needs none is one generic op, teach.call.
import * as pkg from '../pkg/js/web.js';
import { BloomFilter, SEEDS, TsFileBloomError, encodePath, hash32, loadCharsets, loadLevelDb, openLevelDbTable, openTsFile, writerHypothesis } from '../pkg/js/web.js';
import { bitIndex } from '../pkg/js/core.js';
import { isMultiByte } from '../pkg/js/charsets.js';

const utf8 = new TextEncoder();
const badArgument = (argument, message) => new TsFileBloomError('invalid_argument', message, { argument });

let levelDb = null;
const leveldb = () => (levelDb ??= loadLevelDb());
/** What `teach.call` may call into, by its `fn`'s prefix (none: the teaching module). */
const MODULES = { teach: teachCore, leveldb, package: () => pkg };

async function needCharset(charset) {
  if (charset && isMultiByte(charset)) await loadCharsets();
}

// ---------------------------------------------------------------- the teaching module

// The calculator, the step-through, intervals and the lesson's demonstrations come from the
// page's own wasm module (crates/wasm-teach), fetched on first use. It is built
// for the page (scripts/build.sh) and not shipped in the npm package, so its URL is a runtime
// value (bundlers leave it alone) and its absence is a typed error, not a broken import.
const TEACH_GLUE = '../pkg/dist/web/teach.js';
let teachModule = null;
function teachCore() {
  teachModule ??= (async () => {
    const url = new URL(TEACH_GLUE, import.meta.url).href;
    let mod;
    try {
      mod = await import(/* @vite-ignore */ /* webpackIgnore: true */ url);
    } catch (e) {
      teachModule = null;
      throw new TsFileBloomError('io', `the teaching module (${TEACH_GLUE}) could not be loaded: it is built for the page by scripts/build.sh, not shipped in the npm package (${e.message})`, { cause: e });
    }
    await mod.default();
    return mod;
  })();
  return teachModule;
}

/** A path's bytes in the writer's charset (a multi-byte one's tables loaded: needCharset). */
const encode = (path, charset) => (charset === 'UTF-8' ? utf8.encode(path) : encodePath(path, charset));

/** Paths back to back in the writer's charset: `{bytes, ends}` (what the teach module takes). */
function pack(paths, charset = 'UTF-8') {
  const parts = paths.map((p) => encode(p, charset));
  const ends = new Uint32Array(parts.length);
  let total = 0;
  for (let i = 0; i < parts.length; i++) ends[i] = total += parts[i].length;
  const bytes = new Uint8Array(total);
  for (let i = 0, at = 0; i < parts.length; at += parts[i].length, i++) bytes.set(parts[i], at);
  return { bytes, ends };
}

/** A fresh seed for a demonstration (shown in its setup, so a run can be repeated). */
const freshSeed = () => crypto.getRandomValues(new Uint32Array(1))[0];

/** The open file as the demonstrations take it: its listed paths in its charset, bits, geometry, hash. */
async function fileContext() {
  if (!file.filter) return null;
  const { variant, charset } = file.hypothesis;
  await needCharset(charset);
  const { bytes, ends } = pack(file.listed, charset);
  return { keys: bytes, ends, bits: file.filter.bits(), m: file.filter.bitCount, k: file.filter.hashFunctionCount, variant };
}

// ---------------------------------------------------------------- random absent paths

/** `count` random ASCII series paths of varied length (~20–40 bytes, so every tail length occurs), none in `exclude`. */
function randomPaths(count, exclude, prefix) {
  const out = [];
  while (out.length < count) {
    const [a, b] = crypto.getRandomValues(new Uint32Array(2));
    const p = `${prefix}_${a.toString(36)}.d${b % 100000}.${(b >>> 17).toString(36).repeat(1 + (a % 3))}`;
    if (!exclude.has(p)) out.push(p);
  }
  return out;
}

// ---------------------------------------------------------------- the open file's filter

const file = { generation: 0, tsfile: null, filter: null, hypothesis: null, listed: [], indexed: new Set() };

/** A TsFile's filter lives as long as the file: close the file, or free the built one. */
function release({ tsfile, filter }) {
  if (tsfile) tsfile.close();
  else filter?.free();
}

/** A synthetic file's writer: its filter is built here (teach.setFile) with the Java hash over UTF-8. */
const SYNTHETIC_WRITER = { variant: 'java', charset: 'UTF-8', timeColumns: false, established: false, synthetic: true };

function dropFile() {
  file.generation++;
  release(file);
  Object.assign(file, { tsfile: null, filter: null, hypothesis: null, listed: [], indexed: new Set() });
}

// ---------------------------------------------------------------- the sandbox

// `keys`: the added paths, in the order added.
const sandbox = { mode: 'tsfile', m: 0, k: 0, bitsPerKey: null, keys: new Set(), tsf: null, ldb: null };

/** The geometry the controls ask for: TsFile's fixed (m, k), or LevelDB's derived from bits_per_key and the keys. */
async function geometry(c, n) {
  if (c.mode !== 'leveldb') return { m: c.m, k: c.k };
  const ldb = await leveldb();
  return { m: ldb.filterBits(n, c.bitsPerKey), k: ldb.k(c.bitsPerKey) };
}

async function rebuild(c) {
  const { m, k } = await geometry(c, sandbox.keys.size);
  sandbox.tsf?.free();
  sandbox.tsf = null;
  sandbox.ldb = null;
  if (c.mode === 'leveldb') sandbox.ldb = (await leveldb()).buildFilter([...sandbox.keys], c.bitsPerKey);
  else {
    sandbox.tsf = new BloomFilter(m, k);
    if (sandbox.keys.size) sandbox.tsf.addMany([...sandbox.keys]);
  }
  Object.assign(sandbox, { mode: c.mode === 'leveldb' ? 'leveldb' : 'tsfile', m, k, bitsPerKey: c.bitsPerKey });
}

/** Brings the sandbox to the controls' mode and geometry (rebuilding over the same paths); what they leave out is the teaching module's default. */
async function sync(c = {}) {
  const d = (await teachCore()).sandboxDefaults();
  const want = { mode: c.mode ?? sandbox.mode, m: c.m ?? d.m, k: c.k ?? d.k, bitsPerKey: c.bitsPerKey ?? sandbox.bitsPerKey ?? d.bitsPerKey };
  const bad = ['m', 'k', 'bitsPerKey'].find((f) => !Number.isInteger(want[f]));
  if (bad) throw badArgument(bad, `${bad} must be an integer, not ${String(want[bad])}`);
  const stale =
    (!sandbox.tsf && !sandbox.ldb) ||
    want.mode !== sandbox.mode ||
    (want.mode === 'tsfile' ? want.m !== sandbox.m || want.k !== sandbox.k : want.bitsPerKey !== sandbox.bitsPerKey);
  if (stale) await rebuild(want);
  return { ...want, plannedN: c.plannedN };
}

function sandboxBits() {
  return sandbox.tsf ? sandbox.tsf.bits() : sandbox.ldb.bytes.slice(0, sandbox.ldb.bytes.length - 1);
}

/** The k probes of a path in the sandbox filter, with which bits are set. */
async function probeSandbox(path) {
  if (sandbox.tsf) {
    const r = sandbox.tsf.probe(path);
    return { verdict: r.verdict, probes: r.probes.map((p) => ({ bit: p.bit, set: p.set, seed: p.seed })) };
  }
  const r = (await leveldb()).probeFilter(path, sandbox.ldb.bytes);
  return { verdict: r.verdict, probes: r.probes.map((p) => ({ bit: p.bit, set: p.set, seed: null })) };
}

/**
 * An op's `result` with the sandbox's `view` (the bits transferred): everything the view draws,
 * the bits, the planned and current formula figures, the curve.
 */
async function withView(c, result = {}) {
  const t = await teachCore();
  const bits = sandboxBits();
  const { m, k, mode, bitsPerKey } = sandbox;
  const n = sandbox.keys.size;
  // The measured figures are the core's (fill^k), as every other figure here.
  const { setBits, fill, fppFromFill } = t.fill(bits, m, k);
  const planN = c.plannedN ?? n;
  const plan = await geometry(c, planN);
  const curve = n ? t.formula(n, m, plan.k, true) : t.formula(planN, plan.m, plan.k, true);
  // TsFile's m and k are fixed: past the planned n the rate climbs (LevelDB rebuilds to fit).
  const overfill = mode === 'tsfile' && planN >= 1 ? t.overfill(m, k, planN, n) : null;
  const now = t.formula(n, m, k);
  const planned = t.formula(planN, plan.m, plan.k);
  const view = { mode, m, k, n, bits, setBits, fill, fppFromFill, now, plan: planned, bitsPerKey, curve, overfill };
  return { value: { ...result, view }, transfer: [bits.buffer] };
}

// ---------------------------------------------------------------- the ops

export const teachOps = {
  /**
   * A function called as it is, with `args`: `fn` the teaching module's (`calc`, `formula`,
   * `claimsOnFile`, …), `leveldb.fn` the LevelDB module's, `package.fn` the package's (`javaSizing`).
   */
  async 'teach.call'({ fn, args = [] }) {
    const [from, name] = String(fn).includes('.') ? String(fn).split('.') : ['teach', fn];
    // Own keys only: a name such as 'constructor' or '__proto__' is not one of the modules' functions.
    const mod = Object.hasOwn(MODULES, from) ? await MODULES[from]() : null;
    if (typeof mod?.[name] !== 'function' || name in Object.prototype) throw badArgument('fn', `fn: ${fn} is not a function of the teaching module, LevelDB's or the package`);
    return mod[name](...args);
  },

  /**
   * The open file for the panel, or none: `{blob}` re-opens a TsFile, `{synthetic: {bitCount,
   * hashFunctionCount, paths}}` rebuilds a filter built with the Java hash. `indexed`: the
   * listed paths (series, then time columns; `seriesCount` of them series), `audit` the file's.
   * Returns the writer hypothesis the panel probes with.
   */
  async 'teach.setFile'({ blob = null, synthetic = null, indexed = [], seriesCount = indexed.length, audit = null }) {
    dropFile();
    const generation = file.generation;
    if (!blob && !synthetic) return null;
    const tsfile = synthetic ? null : await openTsFile(blob);
    const filter = tsfile ? (tsfile.bloomFilter ?? null) : new BloomFilter(synthetic.bitCount, synthetic.hashFunctionCount).addMany(synthetic.paths);
    const hypothesis = tsfile ? { ...writerHypothesis(audit), synthetic: false } : SYNTHETIC_WRITER;
    if (generation !== file.generation || !filter) {
      release({ tsfile, filter });
      return null;
    }
    const listed = hypothesis.timeColumns ? indexed : indexed.slice(0, seriesCount);
    Object.assign(file, { tsfile, filter, hypothesis, listed, indexed: new Set(indexed) });
    return hypothesis;
  },

  /**
   * The tail pitfall for `path` (null: the file's first listed path with a non-ASCII tail, else
   * the spec's example): the bytes in the writer's charset, the k bits under each tail variant,
   * and the verdicts a one-path filter written with one variant gives when probed with the other.
   */
  async 'teach.pitfall'({ path = null }) {
    const { variant = 'java', synthetic, established } = file.hypothesis ?? {};
    const charset = file.hypothesis?.charset ?? 'UTF-8';
    await needCharset(charset);
    const cs = charset === 'UTF-8' ? undefined : charset;
    const core = await teachCore();
    const found = path == null && !synthetic ? file.listed.find((p) => core.variantsCanDiffer(encode(p, charset))) : undefined;
    path = path ?? found ?? 'root.sg.d1.温度';
    const { bitCount: m = 256, hashFunctionCount: k = 5 } = file.filter ?? {};
    const bytes = encode(path, charset);
    const rows = SEEDS.slice(0, k).map((seed) => {
      const javaHash = hash32(bytes, seed, 'java');
      const zeroHash = hash32(bytes, seed, 'zero-extended');
      return { seed, javaHash, javaBit: bitIndex(javaHash, m), zeroHash, zeroBit: bitIndex(zeroHash, m) };
    });
    const probe = (filter, v) => filter.probe(path, { variant: v, charset: cs }).verdict;
    const [f, g] = ['java', 'zero-extended'].map((v) => new BloomFilter(m, k).add(path, { variant: v, charset: cs }));
    const cross = [probe(f, 'zero-extended'), probe(g, 'java')];
    const self = probe(f, 'java');
    f.free();
    g.free();
    const other = variant === 'java' ? 'zero-extended' : 'java';
    const inFile = file.filter && { variant, other, own: probe(file.filter, variant), wrong: probe(file.filter, other), established: !!established };
    const differ = rows.filter((r) => r.javaBit !== r.zeroBit).length;
    return { value: { path, fromFile: found != null, listed: file.indexed.has(path), charset, bytes, m, k, fileLoaded: !!file.filter, rows, differ, cross, self, file: inFile }, transfer: [bytes.buffer] };
  },

  // The sandbox. `controls`: `{mode: 'tsfile' | 'leveldb', m, k, bitsPerKey, plannedN}` as the
  // sliders say; every op brings the filter to them first and answers with `view`.

  /** The sandbox as it is (rebuilt if the controls changed); the first call starts the demo filter. */
  async 'teach.sandboxView'({ controls }) {
    // The demo filter the page opens with (the lesson plan's: plan::demo_paths); sync builds it.
    const demo = !sandbox.tsf && !sandbox.ldb ? (await teachCore()).demoPaths() : null;
    if (demo) sandbox.keys = new Set(demo);
    return withView(await sync(controls), { demo });
  },
  /** Every added path gone: an empty filter. */
  async 'teach.sandboxClear'({ controls }) {
    sandbox.keys.clear();
    const c = await sync(controls);
    await rebuild(c);
    return withView(c);
  },
  /**
   * Adds paths (blank and already-added ones skipped; `random: count` adds that many random
   * ones). For one path: its probes with which bits it flipped (`flipped` null when LevelDB had
   * to rebuild a larger filter and every key's bits moved).
   */
  async 'teach.sandboxAdd'({ controls, paths = [], random = 0 }) {
    const c = await sync(controls);
    if (random) paths = randomPaths(random, sandbox.keys, 'root.rnd');
    paths = paths.map((p) => String(p).trim()).filter((p, i, all) => p && !sandbox.keys.has(p) && all.indexOf(p) === i);
    if (!paths.length) return withView(c, { added: [] });
    const last = paths[paths.length - 1];
    const prevM = sandbox.m;
    const before = paths.length === 1 ? await probeSandbox(last) : null;
    const start = sandbox.keys.size;
    for (const p of paths) sandbox.keys.add(p);
    // LevelDB builds a filter once over its keys (CreateFilter): a new key means a new, larger filter.
    if (sandbox.tsf) sandbox.tsf.addMany(paths);
    else await rebuild(c);
    // Which bits flipped is known while m stays (a rebuilt LevelDB filter moves every key's bits).
    const known = before && prevM === sandbox.m;
    const now = await probeSandbox(last);
    const probes = now.probes.map((p, j) => ({ bit: p.bit, seed: p.seed, flipped: known ? !before.probes[j].set : null }));
    return withView(c, { added: paths, last, probes, rebuilt: !known && sandbox.mode === 'leveldb' && start > 0 });
  },
  /** `{verdict, probes: [{bit, set, seed}], added}` for one path. */
  async 'teach.sandboxTest'({ controls, path }) {
    const c = await sync(controls);
    path = String(path ?? '').trim();
    const r = await probeSandbox(path);
    return withView(c, { path, verdict: r.verdict, probes: r.probes, added: sandbox.keys.has(path) });
  },
  /** `count` random absent paths probed: `{maybe, count, rate, fpp}` (fpp by the formula). */
  async 'teach.sandboxMeasure'({ controls, count = 10_000 }) {
    const c = await sync(controls);
    const paths = randomPaths(count, sandbox.keys, 'root.probe');
    let maybe = 0;
    for (const p of paths) if ((await probeSandbox(p)).verdict === 'maybe') maybe++;
    const interval = (await teachCore()).wilson(maybe, count);
    const n = sandbox.keys.size;
    return { maybe, count, rate: maybe / count, interval, fpp: (await teachCore()).formula(n, sandbox.m, sandbox.k).fpp, mode: sandbox.mode, n };
  },
  /** Which added paths set `bit`: `{bit, set, paths (first `limit`), total}`. */
  async 'teach.sandboxOwners'({ bit, limit = 4 }) {
    const who = [];
    for (const p of sandbox.keys) if ((await probeSandbox(p)).probes.some((q) => q.bit === bit)) who.push(p);
    const bits = sandboxBits();
    return { bit, set: ((bits[bit >> 3] >> (bit & 7)) & 1) === 1, paths: who.slice(0, limit), total: who.length };
  },

  // The lesson (the teaching module): the calculator, the step-through, the demonstrations.

  /**
   * One insert or lookup (`action`) of `path`, hash by hash (`Trace`), in the sandbox (`target:
   * 'sandbox'`, its geometry from `controls`) or in the open file's filter (`'file'`: the
   * writer's hash and charset; an insert there is a preview, the file is not changed).
   */
  async 'teach.trace'({ target = 'sandbox', action = 'query', path, controls }) {
    const t = await teachCore();
    path = String(path ?? '').trim();
    if (!path) throw badArgument('path', 'path: type a path to step through');
    if (target === 'file') {
      if (!file.filter) throw badArgument('target', 'target: no file with a filter is open');
      const { variant, charset } = file.hypothesis;
      await needCharset(charset);
      const tr = t.traceTsFile(action, encode(path, charset), file.filter.bits(), file.filter.bitCount, file.filter.hashFunctionCount, variant);
      return { ...tr, target, path, charset, listed: file.indexed.has(path) };
    }
    const c = await sync(controls);
    const bytes = utf8.encode(path);
    const about = { target, path, charset: 'UTF-8', added: sandbox.keys.has(path) };
    if (sandbox.tsf) return { ...t.traceTsFile(action, bytes, sandboxBits(), sandbox.m, sandbox.k, 'java'), ...about };
    if (action === 'query') return { ...t.traceLevelDb(action, bytes, sandboxBits(), sandbox.m, sandbox.k), ...about };
    // LevelDB builds a filter once over its keys: the insert goes into the filter it would build
    // with this key added, whose m is one key larger.
    const others = [...sandbox.keys].filter((p) => p !== path);
    const { m, k } = await geometry(c, others.length + 1);
    const { bytes: kb, ends } = pack(others);
    return { ...t.traceLevelDb(action, bytes, t.levelDbBits(kb, ends, m, k), m, k), ...about, rebuiltM: m };
  },
  /**
   * Claim `claim`'s demonstration, as the teaching module's lesson plan runs it: on the open
   * file when there is one (unless `useFile: false`), else on the sandbox's paths or generated
   * keys. `seed` repeats a run; `plannedN` is the sandbox's design n, `victim` the key to remove
   * (claim 10), `windowKeys` LevelDB's keys per filter (claim 7).
   */
  async 'teach.claim'({ claim, seed = null, useFile = true, plannedN = null, victim = null, windowKeys = null }) {
    const t = await teachCore();
    seed = Number.isInteger(seed) ? seed >>> 0 : freshSeed();
    const f = useFile ? await fileContext() : null;
    const { bytes, ends } = pack([...sandbox.keys]);
    // Consumed by the call (the core frees it).
    const tf = f && new t.TeachFile(f.keys, f.ends, f.bits, f.m, f.k, f.variant);
    return t.claim(claim, seed, tf, bytes, ends, sandbox.mode, sandbox.m, sandbox.k, plannedN ?? undefined, victim ?? undefined, windowKeys ?? undefined);
  },
  /** Loads a LevelDB table (the page's sample) for the read-path and range demos: `{summary, examples}`. */
  async 'teach.table'({ url }) {
    const t = await teachCore();
    const res = await fetch(url);
    if (!res.ok) throw new TsFileBloomError('io', `the sample table could not be fetched (HTTP ${res.status})`, { reason: 'http_status', url, status: res.status });
    const bytes = new Uint8Array(await res.arrayBuffer());
    const next = t.TeachTable.open(bytes);
    teachTable?.free();
    teachTable = next;
    return { summary: teachTable.summary(), examples: teachTable.examples(5000) };
  },
  /** A point lookup's read path through the loaded table: `PointRead`. */
  'teach.read'({ key }) {
    if (!teachTable) throw badArgument('this', 'no sample table is loaded');
    return teachTable.read(utf8.encode(String(key ?? '')));
  },
  /** A range scan `[lo, hi]` through the loaded table: `RangeScan`. */
  'teach.range'({ lo, hi }) {
    if (!teachTable) throw badArgument('this', 'no sample table is loaded');
    return teachTable.range(utf8.encode(String(lo ?? '')), utf8.encode(String(hi ?? '')));
  },

  // The page's LevelDB view: one table open at a time, read whole (LevelDB writes a few MiB).

  /**
   * Opens a table: `{info, filters, dataBlocks, filterBytes: [Uint8Array | null per filter],
   * bitsPerKey: {[k]: {values, more}}}` (for each k of its filters, the bits_per_key that give it).
   */
  async 'leveldb.open'({ blob }) {
    closeTable();
    const t = await openLevelDbTable(blob);
    table = t;
    const filterBytes = t.filters.map((f) => (f.length ? t.filterBytes(f.index) : null));
    const ldb = await leveldb();
    const bitsPerKey = Object.fromEntries(t.filters.filter((f) => f.length).map((f) => [f.k, bitsPerKeyFor(ldb, f.k)]));
    return {
      value: { name: t.name, size: t.size, info: t.info, filters: t.filters, dataBlocks: t.dataBlocks(), filterBytes, bitsPerKey },
      transfer: filterBytes.filter(Boolean).map((b) => b.buffer),
    };
  },
  /** A user key (UTF-8 string or bytes) routed through the table: LevelDbTable.probe's answer. */
  'leveldb.probe'({ key }) {
    if (!table) throw badArgument('this', 'no LevelDB table is open');
    return table.probe(key);
  },
  'leveldb.close'() {
    closeTable();
    return true;
  },
};

/** The bits_per_key values (1 to 200) for which LevelDB's policy gives `k`, as the core computes k; `more`: so do all above. */
function bitsPerKeyFor(ldb, k) {
  const values = [];
  for (let b = 1; b <= 200; b++) if (ldb.k(b) === k) values.push(b);
  return { values, more: values.at(-1) === 200 };
}

let table = null;
let teachTable = null;
function closeTable() {
  table?.close();
  table = null;
}

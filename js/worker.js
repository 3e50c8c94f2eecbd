// A module Worker that opens a TsFile and answers questions about it off the main thread:
//   new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })
// Messages in:  {id, op, ...args}        ops: open, info, bits, audit, series, probe, probeMany,
//                                          provenance, synthetic, close, cancel
// Messages out: {id, result} | {id, error: {kind, message, offset, …}} | {id, progress: {done, total}}
// Errors cross the boundary as plain objects (structured clone drops `kind`/`offset` of Errors);
// worker-client.js makes them TsFileBloomErrors again.
// worker-client.js wraps this in promises. Importing this module outside a worker only
// exports createHandler() (used as an in-thread fallback) and installs nothing.

// web.js (explicit init, no top-level await) so the message listener below is installed at
// once: messages that arrive while a module worker is still in a top-level await are lost.
import init, { openTsFile, BloomFilter, SEEDS, writerHypothesis, isMultiByte, loadCharsets } from './web.js';
import { scanOps } from './worker-scan.js';
import { invalidArgument, plainError, TsFileBloomError, wireError } from './errors.js';
import { DEFAULT_HASH } from './core-tables.js';

export { plainError };

const throwNoFile = () => {
  throw invalidArgument('this', 'no file is open: open one (or make a synthetic filter) first');
};

let wasmReady = null;
/** Instantiates the wasm once (idempotent; safe to call from the main thread too). */
export function ready() {
  wasmReady ??= init({ module_or_path: new URL('../dist/web/tsfile_bloom_bg.wasm', import.meta.url) });
  return wasmReady;
}

/** Paths per chunk of a long batch: a progress message and a chance to cancel between chunks. */
export const CHUNK = 20000;

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Error → `{kind, message, offset}` (anything thrown, including non-Errors). */
/**
 * Per-bit provenance: for every probed bit of every path, which paths set it. Returns
 * `{bits: Uint32Array, items: Uint32Array}` sorted by bit (binary-search `bits`; `items`
 * holds path indices), built by a counting sort over the bit vector.
 */
// In a compact probe record at `base`, whether seed j's bit was already probed by an earlier seed.
function repeatsEarlierSeed(data, base, j) {
  const bit = data[base + 2 + 2 * j];
  for (let q = 0; q < j; q++) if (data[base + 2 + 2 * q] === bit) return true;
  return false;
}

export function provenance(filter, paths, { variant, charset } = {}) {
  const r = filter.probeMany(paths, { variant, charset: charset === 'UTF-8' ? undefined : charset, compact: true });
  const { k, stride, data } = r;
  const m = filter.bitCount;
  const n = Array.isArray(paths) ? paths.length : paths.ends.length;
  const counts = new Uint32Array(m + 1);
  for (let i = 0; i < n; i++) {
    const base = i * stride;
    for (let j = 0; j < k; j++) {
      // The same path can hit one bit with two seeds: count it once.
      if (!repeatsEarlierSeed(data, base, j)) counts[data[base + 2 + 2 * j] + 1]++;
    }
  }
  for (let b = 0; b < m; b++) counts[b + 1] += counts[b];
  const total = counts[m];
  const bits = new Uint32Array(total);
  const items = new Uint32Array(total);
  const pos = counts; // reused as write cursors: pos[b] = next slot for bit b
  for (let i = 0; i < n; i++) {
    const base = i * stride;
    for (let j = 0; j < k; j++) {
      if (repeatsEarlierSeed(data, base, j)) continue;
      const bit = data[base + 2 + 2 * j];
      const at = pos[bit]++;
      bits[at] = bit;
      items[at] = i;
    }
  }
  return { bits, items, k, seeds: SEEDS.slice(0, k) };
}

function syntheticPath(i) {
  return `root.synthetic.g${Math.floor(i / 100000)}.d${Math.floor(i / 1000) % 100}.s${i % 1000}`;
}

/**
 * The message handler, independent of the transport: `handle(msg, post)` where `post(reply,
 * transfer)` sends replies. Keeps one open file (or synthetic filter) at a time.
 */
export function createHandler(extraOps = {}) {
  let file = null; // TsFile
  let synthetic = null; // { filter, items }
  let name = null;
  const cancelled = new Set();

  // An op on the open file without one is the caller's mistake, like a closed TsFile's.
  const opened = () => file ?? throwNoFile();
  const filterOf = () => synthetic?.filter ?? opened().bloomFilter;

  async function closeCurrent() {
    const f = file;
    file = null;
    synthetic?.filter.free();
    synthetic = null;
    if (f) await f.close();
  }

  function info() {
    if (synthetic) {
      const f = synthetic.filter;
      const stats = f.stats(synthetic.items);
      return {
        synthetic: true, name, size: null, version: null, metadata: null, properties: [], tableSchemas: [], tableNames: [], warnings: [],
        bloom: {
          present: true, encoding: 'synthetic (BloomFilter.withCapacity)', offset: null, bitsOffset: null, byteLength: f.byteLength,
          bitCount: f.bitCount, hashFunctionCount: f.hashFunctionCount, setBits: f.setBits, fillRatio: stats.fillRatio,
          estimatedItems: stats.estimatedItems, indexedItems: synthetic.items, fppFormula: stats.fppFormula,
          fppFromFill: stats.fppFromFill, optimalK: stats.optimalK,
        },
      };
    }
    const f = file;
    return {
      synthetic: false, name: f.name ?? name, size: f.size, version: f.version, metadata: f.metadata, bloom: f.bloomInfo(),
      properties: f.properties, tableSchemas: f.tableSchemas, tableNames: f.tableNames, warnings: f.warnings,
    };
  }

  // A worker script of one's own may add ops (the page adds its teaching and LevelDB view ops:
  // www/worker/page-worker.js).
  const ops = {
    ...extraOps,
    ...scanOps,
    async open({ blob, name: given }) {
      await closeCurrent();
      name = given ?? blob?.name ?? null;
      file = await openTsFile(blob);
      return info();
    },
    info() {
      if (!synthetic) opened();
      return info();
    },
    /** `{bitCount, hashFunctionCount, bits: Uint8Array}` (transferred), or null without a filter. */
    bits() {
      const f = filterOf();
      if (!f) return null;
      const bits = f.bits();
      return { value: { bitCount: f.bitCount, hashFunctionCount: f.hashFunctionCount, bits }, transfer: [bits.buffer] };
    },
    // audit and series as TsFile's: an index that could not be read to its end rejects with its
    // error; with `partial`, what was read comes back with the error (`indexError`).
    async audit({ partial = false }) {
      if (synthetic) return { audit: null, indexError: null, synthetic: true };
      const indexError = await opened().loadIndex();
      // With the filter's facts as the index gives them (indexedItems, the formula's n).
      return { audit: await file.audit({ partial }), indexError: plainError(indexError), bloom: file.bloomInfo() };
    },
    async series({ partial = false }) {
      if (synthetic) {
        const series = Array.from({ length: synthetic.items }, (_, i) => ({
          path: syntheticPath(i), table: null, device: [], measurement: null, dataType: 'synthetic', offset: null, maybePresent: true,
        }));
        return { series, timeColumns: [], indexError: null, synthetic: true };
      }
      const indexError = await opened().loadIndex();
      const { series, timeColumns } = await file.listing({ partial });
      return { series, timeColumns, indexError: plainError(indexError) };
    },
    async probe({ path, variant, charset }) {
      if (synthetic) {
        const r = synthetic.filter.probe(path, { variant: variant || undefined, charset: charset || undefined });
        // Built here with the filters' default hash: its answer is sound under that hash (the words say which).
        const built = DEFAULT_HASH.variant;
        const same = r.variant === built;
        return {
          path, verdict: r.verdict, variant: r.variant, charset: r.charset, confirmed: same,
          reason: `${r.verdict === 'maybe' ? 'every probed bit is set' : 'a probed bit is clear'} under the ${r.variant} hash; this synthetic filter was built here with the ${built} hash${same ? '' : ', so the other variant’s bits say nothing about it'}`,
          indexed: null, probes: r.probes, others: [],
        };
      }
      await opened().loadIndex();
      return file.probe(path, { variant: variant || undefined, charset: charset || undefined });
    },
    /**
     * `[{path, verdict}]` for many paths, `CHUNK` at a time with progress. With no variant and
     * charset the file's soundness rules decide (TsFile.probeMany); with either, each path is
     * probed with that override (TsFile.probe), the verdict still following the file's rules.
     */
    async probeMany({ id, paths, variant, charset }, progress) {
      if (!Array.isArray(paths)) throw invalidArgument('paths', 'paths must be an array');
      if (!synthetic) await opened().loadIndex();
      const out = new Array(paths.length);
      for (let start = 0; start < paths.length; start += CHUNK) {
        if (cancelled.has(id)) {
          cancelled.delete(id);
          throw new TsFileBloomError('cancelled', `cancelled after ${start} of ${paths.length} paths`);
        }
        const part = paths.slice(start, start + CHUNK);
        let res;
        if (synthetic) {
          res = synthetic.filter.probeMany(part, { variant: variant || undefined, charset: charset || undefined }).map((r) => ({ path: r.path, verdict: r.verdict }));
        } else if (variant || charset) {
          res = part.map((p) => {
            const r = file.probe(p, { variant: variant || undefined, charset: charset || undefined });
            return { path: p, verdict: r.verdict };
          });
        } else {
          res = file.probeMany(part);
        }
        for (let i = 0; i < res.length; i++) out[start + i] = res[i];
        progress({ done: Math.min(paths.length, start + CHUNK), total: paths.length });
        await tick();
      }
      return out;
    },
    /**
     * Which indexed paths set each bit, under the writer's hash as the audit establishes it
     * (Java if ambiguous). Paths are the series, then the time columns when they were inserted.
     */
    async provenance() {
      const filter = filterOf();
      if (!filter) return null;
      if (synthetic) {
        const paths = Array.from({ length: synthetic.items }, (_, i) => syntheticPath(i));
        const p = provenance(filter, paths, {});
        return { value: { ...p, count: paths.length, seriesCount: paths.length, ...DEFAULT_HASH, timeColumns: false }, transfer: [p.bits.buffer, p.items.buffer] };
      }
      await file.loadIndex();
      const audit = await file.audit();
      const h = writerHypothesis(audit);
      // The writer's keys (its path join, its charset) come from the core, pre-encoded.
      const { bytes, ends, seriesCount } = await file.writerKeys(h);
      const p = provenance(filter, { bytes, ends }, { variant: h.variant });
      return {
        value: { ...p, count: ends.length, seriesCount, variant: h.variant, charset: h.charset, timeColumns: h.timeColumns, established: h.established },
        transfer: [p.bits.buffer, p.items.buffer],
      };
    },
    /** Builds a filter sized by Java's getEmptyBloomFilter(errorRate, capacity) and adds `items` paths. */
    async synthetic({ capacity = 1_000_000, items = capacity, errorRate }, progress) {
      await closeCurrent();
      const filter = BloomFilter.withCapacity(capacity, errorRate);
      synthetic = { filter, items: 0 };
      name = `synthetic filter (capacity ${capacity.toLocaleString('en')}, ${items.toLocaleString('en')} paths)`;
      for (let start = 0; start < items; start += CHUNK) {
        const end = Math.min(items, start + CHUNK);
        filter.addMany(Array.from({ length: end - start }, (_, j) => syntheticPath(start + j)));
        synthetic.items = end;
        progress({ done: end, total: items });
        await tick();
      }
      return info();
    },
    async close() {
      await closeCurrent();
      return true;
    },
    cancel({ target }) {
      cancelled.add(target);
      return true;
    },
  };

  return async function handle(msg, post) {
    const { id, op } = msg ?? {};
    const fn = Object.hasOwn(ops, op) ? ops[op] : null;
    if (!fn) {
      post({ id, error: wireError(invalidArgument('op', `unknown op ${JSON.stringify(op)}`)) });
      return;
    }
    try {
      await ready();
      // The multi-byte JVM charsets live in their own wasm module, fetched on first use.
      if (typeof msg.charset === 'string' && isMultiByte(msg.charset)) await loadCharsets();
      const out = await fn(msg, (progress) => post({ id, progress }));
      if (out && typeof out === 'object' && 'transfer' in out && 'value' in out) post({ id, result: out.value }, out.transfer);
      else post({ id, result: out });
    } catch (e) {
      post({ id, error: wireError(e) });
    }
  };
}

/**
 * Installs the handler (with `extraOps`) as this module Worker's message listener. A worker
 * script of one's own calls it after importing this module; this module calls it itself when it
 * is the worker's own script. Does nothing outside a Worker.
 */
export function installWorker(extraOps = {}) {
  if (!(typeof WorkerGlobalScope !== 'undefined' && globalThis instanceof WorkerGlobalScope)) return;
  ready().catch(() => {}); // start compiling the wasm before the first message
  const handle = createHandler(extraOps);
  // Ops run one after another, except cancel which must overtake a running batch.
  let queue = Promise.resolve();
  globalThis.addEventListener('message', (ev) => {
    const msg = ev.data;
    const post = (reply, transfer = []) => globalThis.postMessage(reply, transfer);
    if (msg?.op === 'cancel') handle(msg, post);
    else queue = queue.then(() => handle(msg, post));
  });
  globalThis.postMessage({ id: 0, ready: true });
}

// Installs itself when it is the worker's own script (synchronously: see the import above).
if (globalThis.location?.href === import.meta.url) installWorker();

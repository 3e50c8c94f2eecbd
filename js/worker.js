// A module Worker that opens a TsFile and answers questions about it off the main thread:
//   new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })
// Messages in:  {id, op, ...args}        ops: open, info, bits, loadIndex, audit, series,
//                                          timeColumns, probe, probeMany, provenance, synthetic,
//                                          close, cancel
// Messages out: {id, result} | {id, error: {kind, message, offset, …}} | {id, progress: {done, total}}
// Errors cross the boundary as plain objects (structured clone drops `kind`/`offset` of Errors);
// worker-client.js makes them TsFileBloomErrors again.
// worker-client.js wraps this in promises. In a worker this module installs itself when it is
// the worker's script or the worker is named 'tsfile-bloom' (as worker-client.js names its own,
// bundled or not); a script of one's own calls installWorker() (docs/bundlers.md). Imported
// outside a worker it only exports createHandler() (the in-thread fallback) and installs nothing.

// web.js (explicit init, no top-level await) so the message listener below is installed at
// once: messages that arrive while a module worker is still in a top-level await are lost.
import init, { loadCharsets } from './web.js';
import { isMultiByte } from './charsets.js';
import { scanOps } from './worker-scan.js';
import { invalidArgument, TsFileBloomError, wireError } from './errors.js';
import { openFile } from './worker-file.js';
import { buildSynthetic } from './worker-synthetic.js';

let wasmReady = null;
/** Instantiates the wasm once (idempotent; safe to call from the main thread too). */
function ready() {
  wasmReady ??= init({ module_or_path: new URL('../dist/web/tsfile_bloom_bg.wasm', import.meta.url) });
  return wasmReady;
}

/** Paths per chunk of a long batch: a progress message and a chance to cancel between chunks. */
const CHUNK = 20000;

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The ops on the open file or synthetic filter (`held()`), each its answer or the typed error. */
function heldOps(held, cancelled) {
  return {
    info: () => held().info(),
    /** `{bitCount, hashFunctionCount, bits: Uint8Array}` (transferred), or null without a filter. */
    bits() {
      const f = held().filter();
      if (!f) return null;
      const bits = f.bits();
      return { value: { bitCount: f.bitCount, hashFunctionCount: f.hashFunctionCount, bits }, transfer: [bits.buffer] };
    },
    // As TsFile's members: the index's error as a value (loadIndex), or the rejection.
    loadIndex: async () => wireError(await held().loadIndex()),
    audit: ({ partial }) => held().audit({ partial }),
    series: ({ partial }) => held().series({ partial }),
    timeColumns: ({ partial }) => held().timeColumns({ partial }),
    probe: ({ path, variant, charset }) => held().probe(path, { variant, charset }),
    /** As TsFile.probeMany for many paths, `CHUNK` at a time with progress. */
    async probeMany({ id, paths, variant, charset, decisions }, progress) {
      if (!Array.isArray(paths)) throw invalidArgument('paths', 'paths must be an array');
      const h = held();
      await h.prepare();
      const out = new Array(paths.length);
      for (let start = 0; start < paths.length; start += CHUNK) {
        if (cancelled.delete(id)) throw new TsFileBloomError('cancelled', `cancelled after ${start} of ${paths.length} paths`);
        const res = h.verdicts(paths.slice(start, start + CHUNK), { variant, charset, decisions });
        for (let i = 0; i < res.length; i++) out[start + i] = res[i];
        progress({ done: Math.min(paths.length, start + CHUNK), total: paths.length });
        await tick();
      }
      return out;
    },
    /** Which indexed paths set each bit (worker-provenance.js), or null without a filter. */
    provenance: () => (held().filter() ? held().provenance() : null),
  };
}

/**
 * The message handler, independent of the transport: `handle(msg, post)` where `post(reply,
 * transfer)` sends replies. Keeps one open file (or synthetic filter) at a time.
 */
export function createHandler(extraOps = {}) {
  let current = null; // worker-file.js's or worker-synthetic.js's answers
  const cancelled = new Set();
  function held() {
    // An op on the open file without one is the caller's mistake, like a closed TsFile's.
    if (!current) throw invalidArgument('this', 'no file is open: open one (or make a synthetic filter) first');
    return current;
  }
  async function drop() {
    const was = current;
    current = null;
    await was?.close();
  }
  async function replace(next) {
    await drop();
    current = await next();
    return current.info();
  }

  // A worker script of one's own may add ops (the page adds its teaching and LevelDB view ops:
  // www/worker/page-worker.js).
  const ops = {
    ...extraOps,
    ...scanOps,
    ...heldOps(held, cancelled),
    open: ({ blob, name }) => replace(() => openFile(blob, name)),
    /** Builds a filter sized by Java's getEmptyBloomFilter(errorRate, capacity) and adds `items` paths. */
    synthetic(options, progress) {
      const step = (done, total) => {
        progress({ done, total });
        return tick();
      };
      return replace(() => buildSynthetic(options, CHUNK, step));
    },
    async close() {
      await drop();
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

/** The message listener once installed: `handle` answers (a later installWorker sets its ops). */
let installed = null;

const inWorker = () => typeof WorkerGlobalScope !== 'undefined' && globalThis instanceof WorkerGlobalScope;

/**
 * Installs the handler (with `extraOps`) as this module Worker's message listener. A worker
 * script of one's own calls it after importing this module; this module calls it itself when it
 * is the worker's script or the worker is the client's (named 'tsfile-bloom'). Called again, it
 * sets the ops of the one listener (call it at the top of the script, before any message is
 * answered). Does nothing outside a Worker.
 */
export function installWorker(extraOps = {}) {
  if (!inWorker()) return;
  const first = installed === null;
  installed ??= { handle: null };
  installed.handle = createHandler(extraOps);
  if (first) listen(installed);
}

/** The one message listener on this worker: ops queued, answered by `current.handle`. */
function listen(current) {
  // Start compiling the wasm before the first message, but after this script's own code has
  // run: a script that initialises the package itself (docs/bundlers.md, esbuild) goes first.
  setTimeout(() => ready().catch(() => {}), 0);
  // Ops run one after another, except cancel which must overtake a running batch.
  let queue = Promise.resolve();
  globalThis.addEventListener('message', (ev) => {
    const msg = ev.data;
    const post = (reply, transfer = []) => globalThis.postMessage(reply, transfer);
    if (msg?.op === 'cancel') current.handle(msg, post);
    else queue = queue.then(() => current.handle(msg, post));
  });
  globalThis.postMessage({ id: 0, ready: true });
}

// Installs itself (synchronously: see the import above) when it is the worker's own script, or
// is bundled into the client's worker: a bundler may rewrite import.meta.url (webpack makes it
// the source file's file: URL), but the worker's name is the client's.
if (inWorker() && (globalThis.location?.href === import.meta.url || globalThis.name === 'tsfile-bloom')) installWorker();

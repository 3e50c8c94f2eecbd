// Main-thread promise wrapper around worker.js:
//   const w = createWorker();                 // or createWorker(new URL('…/worker.js', location))
//   w.onprogress = ({ op, id, done, total }) => …;
//   const info = await w.open(file);          // File/Blob: only its tail (and index) are read
//   const audit = await w.audit();           // as TsFile#audit()
//   const rows = await w.probeMany(paths);    // [{path, verdict}], in chunks with progress
//   w.terminate();
// Rejections are TsFileBloomErrors, as the package throws them, with the `op` that failed.
import { fromWire as toError } from './errors.js';

export { TsFileBloomError } from './errors.js';

/**
 * Starts worker.js as a module Worker. If module workers are unavailable, `fallback: true`
 * (the default) runs the same handler on the main thread instead, with the same API.
 */
export function createWorker(url = new URL('./worker.js', import.meta.url), { fallback = true } = {}) {
  let nextId = 1;
  const pending = new Map(); // id → {resolve, reject, op}
  let send;
  let terminateImpl;
  let failure = null;

  const client = {
    /** Called with `{op, id, done, total}` while a long op (probeMany, synthetic) runs. */
    onprogress: null,
    /** Called with an Error when the worker itself fails (script error, crash). */
    onerror: null,
    /** 'worker' or 'inline'. */
    mode: 'worker',

    /** Any op by name, e.g. the teaching panel's `call('teach.pitfall', {path})` (the page's www/worker/teach-ops.js). */
    call: (op, args = {}, onprogress) => call(op, args, onprogress),
    open: (blob, name) => call('open', { blob, name }),
    info: () => call('info'),
    /** `{bitCount, hashFunctionCount, bits: Uint8Array}` or null when the file has no filter. */
    bits: () => call('bits'),
    /** As TsFile#loadIndex(): the error that stopped the index walk (a TsFileBloomError), or null. */
    loadIndex: () => call('loadIndex').then((e) => e && toError(e, 'loadIndex')),
    // As TsFile's (the index read on first use): an index that could not be read to its end
    // rejects with its error; `{partial: true}` resolves with what was read before it.
    audit: (options) => call('audit', { partial: options?.partial }),
    series: (options) => call('series', { partial: options?.partial }),
    timeColumns: (options) => call('timeColumns', { partial: options?.partial }),
    probe: (path, { variant, charset } = {}) => call('probe', { path, variant, charset }),
    /** `[{path, verdict}]`; `options.onprogress` overrides `client.onprogress` for this call. */
    probeMany: (paths, { variant, charset, onprogress } = {}) => call('probeMany', { paths, variant, charset }, onprogress),
    /** `{bits, items, k, count, seriesCount, variant, charset, timeColumns}`: bit → path indices, sorted by bit. */
    provenance: () => call('provenance'),
    synthetic: (options = {}, onprogress) => call('synthetic', options, onprogress),
    close: () => call('close'),
    /** Stops a running probeMany (its promise rejects with kind 'cancelled'). */
    cancel: (promiseOrId) => {
      const target = typeof promiseOrId === 'number' ? promiseOrId : promiseOrId?.id;
      if (target) send({ id: nextId++, op: 'cancel', target });
    },
    terminate() {
      terminateImpl?.();
      for (const p of pending.values()) p.reject(toError({ kind: 'cancelled', message: 'the worker was terminated' }, p.op));
      pending.clear();
    },
  };

  function call(op, args = {}, onprogress) {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    let entry;
    const promise = new Promise((resolve, reject) => {
      entry = { resolve, reject, op, onprogress };
      pending.set(id, entry);
    });
    promise.id = id;
    try {
      send({ id, op, ...args });
    } catch (e) {
      pending.delete(id);
      // postMessage refused them: a value the structured clone cannot copy (a function, say).
      entry.reject(toError({ kind: 'invalid_argument', argument: 'args', message: `the arguments of ${op} cannot be sent to the worker: ${e?.message ?? e}` }, op));
    }
    return promise;
  }

  function receive(msg) {
    if (!msg || msg.ready) return;
    const p = pending.get(msg.id);
    if (!p) return;
    if (msg.progress) {
      const cb = p.onprogress ?? client.onprogress;
      cb?.({ op: p.op, id: msg.id, ...msg.progress });
      return;
    }
    pending.delete(msg.id);
    if (msg.error) p.reject(toError(msg.error, p.op));
    else p.resolve(msg.result);
  }

  function failAll(err) {
    failure = err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
    client.onerror?.(err);
  }

  function inline() {
    client.mode = 'inline';
    const ready = import(url.href ?? String(url)).then((mod) => mod.createHandler());
    let queue = Promise.resolve();
    send = (msg) => {
      const run = () => ready.then((handle) => handle(msg, (reply) => receive(structuredClone(reply))));
      if (msg.op === 'cancel') run();
      else queue = queue.then(run, run);
    };
    terminateImpl = () => {};
  }

  let worker = null;
  try {
    worker = new Worker(url, { type: 'module', name: 'tsfile-bloom' });
  } catch (e) {
    if (!fallback) throw toError({ kind: 'worker', message: `the worker could not be started: ${e?.message ?? e}` });
  }
  if (worker) {
    send = (msg) => worker.postMessage(msg);
    terminateImpl = () => worker.terminate();
    worker.addEventListener('message', (ev) => receive(ev.data));
    worker.addEventListener('error', (ev) => {
      ev.preventDefault?.();
      failAll(toError({ kind: 'worker', message: ev.message || 'the worker failed to start' }, null));
    });
    worker.addEventListener('messageerror', () => failAll(toError({ kind: 'worker', message: 'a message could not be decoded' }, null)));
  } else {
    inline();
  }
  return client;
}

// Main-thread promise wrapper around worker.js:
//   const w = createWorker();                 // the package's worker (a bundler bundles it: see below)
//   const w = createWorker(new Worker(new URL('./my-worker.js', import.meta.url), { type: 'module' }));
//   w.onprogress = ({ op, id, done, total }) => …;
//   const info = await w.open(file);          // File/Blob: only its tail (and index) are read
//   const audit = await w.audit();           // as TsFile#audit()
//   const rows = await w.probeMany(paths);    // [{path, verdict}], in chunks with progress
//   w.terminate();
// Rejections are TsFileBloomErrors, as the package throws them, with the `op` that failed.
import { fromWire as toError, invalidArgument } from './errors.js';

export { TsFileBloomError } from './errors.js';

/** The name the package's workers run under; worker.js installs itself in a worker of this name. */
const NAME = 'tsfile-bloom';

/**
 * Starts the package's worker, or talks to `target`: a Worker you made (anything with
 * postMessage, addEventListener and terminate), or the URL of a worker script (worker.js, or one
 * calling its installWorker). With the package's worker or a URL, where module workers are
 * unavailable `fallback: true` (the default) runs the same handler on the main thread instead.
 */
export function createWorker(target, { fallback = true } = {}) {
  const kind = targetKind(target);
  const requests = createRequests();
  const client = clientOf(requests);
  requests.client = client;
  const transport = startTransport(kind, target, requests) ?? (fallback && kind !== 'worker' ? startInline(kind, target, requests) : null);
  if (!transport) throw toError({ kind: 'worker', message: `the worker could not be started: ${requests.startError}` });
  client.mode = transport.mode;
  requests.transport = transport;
  return client;
}

/** 'default' (none given), 'worker' (a Worker or the like) or 'url'; anything else is refused. */
function targetKind(target) {
  if (target === undefined || target === null) return 'default';
  const has = (m) => typeof target[m] === 'function';
  if (typeof target === 'object' && has('postMessage') && has('addEventListener') && has('terminate')) return 'worker';
  if (typeof target === 'string' || target instanceof URL || typeof target?.href === 'string') return 'url';
  throw invalidArgument('worker', 'createWorker takes a Worker (or anything with postMessage, addEventListener and terminate), the URL of a worker script, or nothing (the package\'s own worker)');
}

/**
 * The ops that are members, by the names of their leading arguments: `w.probeMany(paths, options,
 * onprogress)` sends `{paths, ...options}` (an `onprogress` among the options is kept here, and
 * overrides `client.onprogress` for that call). TsFile's members answer as TsFile's do (worker.js).
 */
const MEMBERS = { open: ['blob', 'name'], info: [], bits: [], audit: [], series: [], timeColumns: [], probe: ['path'], probeMany: ['paths'], provenance: [], synthetic: [], close: [] };

/** The client: a member per op of MEMBERS, `call` for any op by name, and the controls. */
function clientOf(requests) {
  const call = (op, args, onprogress) => requests.call(op, args, onprogress);
  const client = {
    /** Called with `{op, id, done, total}` while a long op (probeMany, synthetic) runs. */
    onprogress: null,
    /** Called with an Error when the worker itself fails (script error, crash). */
    onerror: null,
    /** 'worker' or 'inline'. */
    mode: 'worker',
    /** Any op by name, e.g. the teaching panel's `call('teach.pitfall', {path})` (the page's www/worker/teach-ops.js). */
    call,
    /** Stops a running probeMany (its promise rejects with kind 'cancelled'). */
    cancel: (promiseOrId) => requests.cancel(typeof promiseOrId === 'number' ? promiseOrId : promiseOrId?.id),
    terminate: () => requests.terminate(),
  };
  for (const [op, names] of Object.entries(MEMBERS)) {
    client[op] = (...args) => {
      const { onprogress, ...options } = args[names.length] ?? {};
      const leading = Object.fromEntries(names.map((name, i) => [name, args[i]]));
      return call(op, { ...leading, ...options }, args[names.length + 1] ?? onprogress);
    };
  }
  /** As TsFile#loadIndex(): the error that stopped the index walk (a TsFileBloomError), or null. */
  client.loadIndex = () => call('loadIndex').then((e) => e && toError(e, 'loadIndex'));
  return client;
}

/** The requests in flight: ids, their promises, and the replies that settle them. */
function createRequests() {
  let nextId = 1;
  const pending = new Map(); // id → {resolve, reject, op, onprogress}
  let failure = null;
  const r = {
    client: null,
    transport: null,
    startError: null,
    call(op, args = {}, onprogress) {
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      let entry;
      const promise = new Promise((resolve, reject) => {
        entry = { resolve, reject, op, onprogress };
        pending.set(id, entry);
      });
      promise.id = id;
      try {
        r.transport.send({ id, op, ...args });
      } catch (e) {
        pending.delete(id);
        // postMessage refused them: a value the structured clone cannot copy (a function, say).
        entry.reject(toError({ kind: 'invalid_argument', argument: 'args', message: `the arguments of ${op} cannot be sent to the worker: ${e?.message ?? e}` }, op));
      }
      return promise;
    },
    receive(msg) {
      const p = msg && !msg.ready ? pending.get(msg.id) : null;
      if (!p) return;
      if (msg.progress) {
        (p.onprogress ?? r.client.onprogress)?.({ op: p.op, id: msg.id, ...msg.progress });
        return;
      }
      pending.delete(msg.id);
      if (msg.error) p.reject(toError(msg.error, p.op));
      else p.resolve(msg.result);
    },
    cancel(target) {
      if (target) r.transport.send({ id: nextId++, op: 'cancel', target });
    },
    /** Every pending request rejects with `err`, and so does every later one. */
    failAll(err) {
      failure = err;
      for (const p of pending.values()) p.reject(err);
      pending.clear();
      r.client.onerror?.(err);
    },
    terminate() {
      r.transport.terminate();
      for (const p of pending.values()) p.reject(toError({ kind: 'cancelled', message: 'the worker was terminated' }, p.op));
      pending.clear();
    },
  };
  return r;
}

/** The worker's transport, or null (with `requests.startError`) where no module Worker can start. */
function startTransport(kind, target, requests) {
  try {
    if (kind === 'worker') return listen(target, requests);
    if (kind === 'url') return listen(new Worker(target, { type: 'module', name: NAME }), requests);
    // This literal expression (static options: no NAME) is what bundlers follow to bundle
    // worker.js and its imports as a worker of its own (docs/bundlers.md).
    return listen(new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'tsfile-bloom' }), requests);
  } catch (e) {
    requests.startError = e?.message ?? e;
    return null;
  }
}

/** Replies and failures of `worker` settle the requests. */
function listen(worker, requests) {
  worker.addEventListener('message', (ev) => requests.receive(ev.data));
  worker.addEventListener('error', (ev) => {
    ev.preventDefault?.();
    requests.failAll(toError({ kind: 'worker', message: ev.message || 'the worker failed to start' }, null));
  });
  worker.addEventListener('messageerror', () => requests.failAll(toError({ kind: 'worker', message: 'a message could not be decoded' }, null)));
  worker.start?.(); // a MessagePort delivers nothing before start()
  return { mode: 'worker', send: (msg) => worker.postMessage(msg), terminate: () => worker.terminate() };
}

/** The same handler on this thread, one request at a time (a cancel at once), replies cloned as postMessage would. */
function startInline(kind, url, requests) {
  // A URL of the caller's is imported as it is; the package's own worker by a path a bundler can follow.
  const module = kind === 'url' ? import(/* webpackIgnore: true */ /* @vite-ignore */ url.href ?? String(url)) : import('./worker.js');
  const ready = module.then((mod) => mod.createHandler());
  let queue = Promise.resolve();
  const send = (msg) => {
    const run = () => ready.then((handle) => handle(msg, (reply) => requests.receive(structuredClone(reply))));
    if (msg.op === 'cancel') run();
    else queue = queue.then(run, run);
  };
  return { mode: 'inline', send, terminate: () => {} };
}

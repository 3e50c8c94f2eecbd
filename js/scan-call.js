// A scan call before any file is read, shared by the Node and browser scanners: its targets and
// options, checked at the call (a bad one is a typed error before anything is read), and the
// object it returns. Apart from the scanners so that importing the package loads none of them:
// Node's (js/scan.js) is loaded by the first scan.

import { invalidArgument } from './errors.js';

// The entry module a worker thread imports to initialise the wasm as its parent did: Node's
// reads the .wasm from disk, Deno's imports it (and so needs no --allow-read for it).
let workerEntry = null;

/** Called by an entry (js/node.js, js/deno.js) with its own module URL. */
export function setScanWorkerEntry(url) {
  workerEntry = url;
}

/** The URL js/node.js or js/deno.js gave, or null. */
export const scanWorkerEntry = () => workerEntry;

// ---- Arguments. ----------------------------------------------------------------------------

/**
 * A scan's targets as a list: a single target (`isOne(t)`, or a string — which must not be
 * taken for a list of its characters) is a list of one; an array or other iterable is itself.
 */
export function targetList(targets, isOne, what) {
  if (typeof targets === 'string' || (targets != null && isOne(targets))) return [targets];
  if (targets != null && typeof targets !== 'function' && typeof targets[Symbol.iterator] === 'function') return targets;
  throw invalidArgument('targets', `scanTsFiles expects ${what}, or a list of them; got ${targets === null ? 'null' : typeof targets}`);
}

/** The options every scanner takes, checked: a bad one is a typed error before anything is read. */
export function checkScanOptions(options) {
  if (options == null || typeof options !== 'object') throw invalidArgument('options', 'scanTsFiles options must be an object');
  const { paths, concurrency, audit, onProgress } = options;
  if (paths !== undefined && !(Array.isArray(paths) && paths.every((p) => typeof p === 'string' || p instanceof Uint8Array))) {
    throw invalidArgument('paths', 'paths must be an array of series paths (strings or Uint8Arrays)');
  }
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency >= 1)) throw invalidArgument('concurrency', `concurrency must be a positive integer, not ${String(concurrency)}`);
  if (audit !== undefined && typeof audit !== 'boolean') throw invalidArgument('audit', 'audit must be true or false');
  if (onProgress !== undefined && typeof onProgress !== 'function') throw invalidArgument('onProgress', 'onProgress must be a function');
  return options;
}

/**
 * The options a scan call hands its scanner: the documented ones (js/index.d.ts ScanOptions) and
 * no others, so that a caller's `format`, `flagWords` or the tests' knobs (runScan's own) do
 * nothing, as any other option the scan does not know.
 */
export const scanOptions = ({ paths, concurrency, audit, signal, onProgress, manifest, headers, timeoutMs, deadlineMs, allowFullDownload, maxFullDownloadBytes, fetch, s3, maxIndexBytes }) =>
  ({ paths, concurrency, audit, signal, onProgress, manifest, headers, timeoutMs, deadlineMs, allowFullDownload, maxFullDownloadBytes, fetch, s3, maxIndexBytes });

// ---- The API's result object. ---------------------------------------------------------------

/**
 * Wraps `run(emit, signal, records) → Promise<summary>` as `scanTsFiles`' result: an async
 * iterable of records with a `summary` promise. Iterate to get every record (the scan pauses
 * while the consumer is behind); or await `summary` without iterating, and the scan runs with
 * `records` false: no one reads them, so a scanner need not hand them on.
 */
export function scanResult(run, { signal } = {}) {
  const HIGH_WATER = 2048;
  // Breaking out of the loop stops the scan too.
  const inner = new AbortController();
  if (signal?.aborted) inner.abort();
  else signal?.addEventListener('abort', () => inner.abort(), { once: true });
  let mode = null;
  let ran = null; // the scan's promise of its summary, once started
  let done = false; // the scan ended, or the loop was left
  const queue = [];
  // Whoever is behind waits: the consumer on an empty queue, or the scan on a full one (never both).
  let waiting = null;
  const wait = () => new Promise((resolve) => (waiting = resolve));
  const wake = () => {
    waiting?.();
    waiting = null;
  };
  const start = () => {
    ran ??= run(async (records) => {
      if (mode !== 'iterate') return;
      queue.push(...records);
      wake();
      while (queue.length > HIGH_WATER && !done) await wait();
    }, inner.signal, mode === 'iterate').finally(() => {
      done = true;
      wake();
    });
    ran.catch(() => {}); // surfaced by the iterator or by awaiting summary
    return ran;
  };
  return {
    get summary() {
      mode ??= 'summary';
      return start();
    },
    [Symbol.asyncIterator]() {
      if (mode === 'summary') {
        throw invalidArgument('this', 'iterate a scan before awaiting its summary: awaited alone, the summary runs the scan and drops the records');
      }
      mode ??= 'iterate';
      start();
      return {
        async next() {
          while (!queue.length && !done) await wait();
          if (queue.length) {
            const value = queue.shift();
            if (queue.length <= HIGH_WATER / 2) wake();
            return { value, done: false };
          }
          await ran; // the scan's failure, after every record it gave
          return { value: undefined, done: true };
        },
        async return() {
          if (!done) inner.abort();
          done = true;
          wake();
          return { value: undefined, done: true };
        },
      };
    },
  };
}

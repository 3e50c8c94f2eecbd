// Node's scan worker threads (js/scan-worker.js) as runScan's pool (js/scan-run.js): local files
// go to them a batch at a time. Worker k (k ≥ 1) starts only once the scan has found k ×
// `perExtraWorker` files to read: a thread's start and warm-up (its module graph, compiling the
// wasm, the JIT) cost more than it saves on a smaller fleet (BENCHMARKS.md).
import { Worker } from 'node:worker_threads';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TsFileBloomError } from './errors.js';

/** The files per extra worker (tests lower it: scanTsFiles' `filesPerExtraWorker`). */
export const FILES_PER_EXTRA_WORKER = 16384;

// By path, as js/node.js reads its .wasm: Vitest rewrites `new URL(…, import.meta.url)` to an http:
// URL when it inlines the package in a DOM environment.
const SCAN_WORKER = join(dirname(fileURLToPath(import.meta.url)), 'scan-worker.js');

/**
 * A pool maker for runScan: at most `jobs` workers, each started with `workerData`. runScan
 * gives it `files()` (files found to read), `answer(msg)` (a batch's answer), `fail(e)` and
 * `failed()`.
 */
export function workerPool({ workerData, jobs, perExtraWorker = FILES_PER_EXTRA_WORKER }) {
  return ({ files, answer, fail, failed }) => {
    const workers = [];
    const spawn = () => {
      const worker = new Worker(SCAN_WORKER, { workerData });
      const w = { worker, busy: 0, stopping: false };
      worker.on('message', (msg) => {
        w.busy--;
        answer(msg);
      });
      worker.on('error', (e) => fail(new TsFileBloomError('internal', `a scan worker failed: ${e?.message ?? e}`, { cause: e })));
      worker.on('exit', (code) => {
        if (!failed() && (w.busy > 0 || code !== 0) && !w.stopping) fail(new TsFileBloomError('internal', `a scan worker exited (code ${code})`));
      });
      workers.push(w);
      return w;
    };
    return {
      // Local files (and what their walk could not read: the worker makes its record).
      takes: (item) => item.url === undefined,
      /** A worker to send a batch to (an idle one, a new one, or one with a batch only), or null: wait. */
      idle() {
        const w = workers.reduce((a, b) => (b.busy < (a?.busy ?? Infinity) ? b : a), null);
        if (w && w.busy === 0) return w;
        if (workers.length < jobs && (workers.length === 0 || files() >= workers.length * perExtraWorker)) return spawn();
        return w && w.busy < 2 ? w : null;
      },
      post(w, message) {
        w.busy++;
        w.worker.postMessage(message);
      },
      stop() {
        for (const w of workers) w.stopping = true;
        return Promise.all(workers.map((w) => w.worker.terminate()));
      },
    };
  };
}

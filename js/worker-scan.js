// The page's folder view runs its fleet scan here (js/worker.js spreads these ops into its
// table): every File, directory handle and URL is read, and every filter decoded, in the
// worker, so a folder of 10,000 TsFiles never blocks the page.
//
//   {id, op: 'scan', targets, paths, audit, concurrency}
//     progress: {records: [...], done, found, bytesRead}   records as scanTsFiles yields them,
//               sent in chunks (at most every CHUNK_MS, or CHUNK_RECORDS records)
//     result:   the scan's summary (scanTsFiles' `summary`)
//   {op: 'cancel', target: id}   aborts that scan through its AbortSignal: the scan rejects with
//                                kind 'cancelled' and every read in flight is dropped.
import { scanTsFiles } from './web.js';
import { invalidArgument } from './errors.js';

/** Records per progress message at most, and the longest a finished record waits to be sent. */
const CHUNK_RECORDS = 256;
const CHUNK_MS = 100;

/** Running scans: message id → AbortController. */
const running = new Map();
/** Cancels that arrived before their scan started (bounded: a stray id cannot grow it). */
const early = new Set();

/** Aborts the scan started by message `target`; true when one was running. */
export function cancelScan(target) {
  const c = running.get(target);
  if (c) {
    c.abort();
    return true;
  }
  if (early.size > 64) early.clear();
  early.add(target);
  return false;
}


export const scanOps = {
  async scan({ id, targets, paths = [], audit = false, concurrency }, progress) {
    if (targets == null) throw invalidArgument('targets', 'scan: give targets (Files, a FileList, a directory handle or URLs)');
    if (!Array.isArray(paths) || paths.some((p) => typeof p !== 'string')) throw invalidArgument('paths', 'scan: paths must be an array of strings');
    const controller = new AbortController();
    if (early.delete(id)) controller.abort();
    running.set(id, controller);
    let batch = [];
    let last = performance.now();
    let state = { done: 0, found: 0, bytesRead: 0 };
    const flush = () => {
      progress({ records: batch, ...state });
      batch = [];
      last = performance.now();
    };
    try {
      const scan = scanTsFiles(targets, {
        paths,
        audit: audit === true,
        concurrency,
        signal: controller.signal,
        onProgress: (p) => (state = { done: p.done, found: p.found, bytesRead: p.bytesRead }),
      });
      for await (const record of scan) {
        batch.push(record);
        if (batch.length >= CHUNK_RECORDS || performance.now() - last >= CHUNK_MS) flush();
      }
      const summary = await scan.summary;
      state = { done: summary.files, found: summary.files, bytesRead: summary.bytesRead };
      if (batch.length) flush();
      return summary;
    } finally {
      running.delete(id);
    }
  },
};

// worker.js lets a 'cancel' message overtake its queue (a scan holds the queue while it runs);
// its own cancel op marks batches. The same message aborts a scan here.
if (typeof WorkerGlobalScope !== 'undefined' && globalThis instanceof WorkerGlobalScope) {
  globalThis.addEventListener('message', (ev) => {
    if (ev.data?.op === 'cancel' && typeof ev.data.target === 'number') cancelScan(ev.data.target);
  });
}

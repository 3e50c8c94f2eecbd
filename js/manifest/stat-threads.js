// The stat threads of a rescan (STAT_THREAD), started by js/manifest.js's openManifest.
//
// A replayed tree's files are statted by small threads of their own (node:fs only: each starts
// in a few milliseconds), STAT_THREADS of them, ahead of the main thread: each takes the next
// chunk of files not yet taken and hands back its stats, and the main thread answers the chunks
// in order (js/manifest.js: answerRun), statting one itself only when it reaches a chunk no
// thread has taken yet (at the start, or when it catches up). Each chunk is claimed once (an
// atomic compare-exchange in shared memory), so every file is statted once, during this scan. A
// stat of a path is most of what a rescan costs per file; made in a small thread, its Stats
// object is cheap garbage. Per file a thread gives back size, mtime, ctime, inode, device and
// what it is (0 nothing there, 1 a regular file, 2 something else). Where the threads cannot
// start or one fails, the chunks not handed back are statted by the main thread.
import { Buffer } from 'node:buffer';
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';

const STAT_THREAD = `
const { parentPort } = require('node:worker_threads');
const { statSync } = require('node:fs');
const opts = { throwIfNoEntry: false };
let dirs, dirOf, names, starts;
// Entry r's name: names[starts[r], starts[r + 1] - 1) (the names are NUL-separated UTF-8).
const nameOf = (r) => {
  if (!starts) {
    starts = new Int32Array(dirOf.length + 1);
    let k = 0;
    for (let i = 0; i < names.length; i++) if (names[i] === 0) starts[++k] = i + 1;
    starts[dirOf.length] = names.length + 1;
  }
  return names.toString('utf8', starts[r], starts[r + 1] - 1);
};
parentPort.on('message', (m) => {
  if (m.dirs) {
    dirs = m.dirs;
    dirOf = m.dirOf;
    names = Buffer.from(m.names.buffer, m.names.byteOffset, m.names.byteLength);
    return;
  }
  const { id, refs, extra, chunk, claims } = m;
  const claim = new Int32Array(claims);
  for (let k = 0; k < claim.length; k++) {
    if (Atomics.compareExchange(claim, k, 0, 2) !== 0) continue;
    const from = k * chunk;
    const to = Math.min(refs.length, from + chunk);
    const out = new Float64Array(6 * (to - from));
    for (let i = from; i < to; i++) {
      const r = refs[i];
      let st;
      try { st = statSync(r >= 0 ? dirs[dirOf[r]] + nameOf(r) : extra[-r - 1], opts); } catch { st = undefined; }
      if (st === undefined) continue;
      const j = 6 * (i - from);
      out[j] = st.size; out[j + 1] = st.mtimeMs; out[j + 2] = st.ctimeMs; out[j + 3] = st.ino; out[j + 4] = st.dev; out[j + 5] = st.isFile() ? 1 : 2;
    }
    parentPort.postMessage({ id: id + k, out }, [out.buffer]);
  }
});`;
/** Files per chunk of stats; a tree of fewer files than STAT_THREAD_FILES is statted by the main thread alone (tests lower both). */
export const STAT_CHUNK = 1024;
export const STAT_THREAD_FILES = 8192;
/** Stat threads: one per core, up to 4 (a stat is mostly the kernel's path walk). */
export const STAT_THREADS = Math.min(4, availableParallelism());

/** A copy of a typed array in shared memory (read by the stat threads, copied to none). */
export function sharedCopy(a) {
  const out = new (Buffer.isBuffer(a) ? Uint8Array : a.constructor)(new SharedArrayBuffer(a.byteLength));
  out.set(a);
  return out;
}
/**
 * `count` STAT_THREAD `workers`: `post(message)` to all (first the names, then each tree), `chunks` (id → chunk
 * waiting for its stats), `close()`. When one fails, `onFail()` is called, every chunk not yet
 * handed back is settled with false (statted by the main thread) and all are ended.
 */
export function startStatThreads(count, onFail) {
  const workers = [];
  const chunks = new Map();
  let live = true;
  const close = () => {
    live = false;
    for (const w of workers) w.terminate();
  };
  const fail = () => {
    if (!live) return;
    close();
    onFail();
    for (const q of chunks.values()) q.settle(false);
    chunks.clear();
  };
  try {
    for (let i = 0; i < count; i++) {
      const worker = new Worker(STAT_THREAD, { eval: true });
      worker.unref();
      worker.on('message', ({ id, out }) => {
        const q = chunks.get(id);
        if (!q) return;
        chunks.delete(id);
        q.settle(out);
      });
      worker.on('error', fail);
      worker.on('exit', fail);
      workers.push(worker);
    }
  } catch (e) {
    close();
    throw e;
  }
  const post = (message) => {
    for (const w of workers) w.postMessage(message);
  };
  return { workers, chunks, post, close };
}

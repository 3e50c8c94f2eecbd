// The one scan pipeline, runScan, behind Node's scanner (js/scan.js: its walk, its worker
// threads, its manifest) and the browsers' (js/scan-browser.js): the walk's items gathered into
// batches; each batch read — local files by a pool of worker threads when the scanner has one
// (js/scan-pool.js), anything else on this thread, each file by scanFile (js/scan-file.js),
// `lanes` at once — and the records handed to the sink in walk order, the summary counted as
// they go. With a manifest, a file it answers (unchanged since) is answered as the walk finds it,
// on this thread, and is read by no one. At most `2 × jobs + 2` batches are in flight: a sink
// that falls behind holds the walk.
import { addToSummary, finishSummary, mergeSummary, newSummary } from './scan-summary.js';
import { formatRecords } from './scan-output.js';
import { TsFileBloomError } from './errors.js';

/** Local files per message to a worker (one message per file would cost more than the file). */
const BATCH = 256;
/** Files per batch read on this thread (URLs, a browser's Files). */
export const HERE_BATCH = 128;
/** Records per batch answered from a manifest (their output made at once). */
const ANSWERED_BATCH = 1024;
// Where a batch's items go: a worker of the pool, this thread's reads, or nowhere (answered).
const POOL = 0;
const HERE = 1;
const ANSWERED = 2;
const BATCH_SIZE = [BATCH, HERE_BATCH, ANSWERED_BATCH];
/**
 * Files read on this thread at once unless `concurrency` says otherwise: a remote scan is bound
 * by round trips, so files/s ≈ this ÷ the round-trip time (BENCHMARKS.md, "Remote scan"); a
 * browser's Blob reads are round trips too, which overlap well.
 */
export const LANES = 64;

/**
 * Scans what `walk(signal)` yields (an async iterable of item batches: `{file, error}` for
 * what cannot be read, else an item to read) and returns the finished summary. The scanner:
 * `readHere(item, child)` reads an item on this thread into its record (`child`: the file's
 * AbortSignal, fanOut); `pool` (optional) starts the worker threads that read the
 * items `pool.takes(item)` says are theirs; `manifest` (optional, Node) answers files it holds.
 * `opts`: `paths`, `format` ('records' | 'ndjson' | 'csv' | 'text': what the sink gets; 'summary':
 * null, the records being counted and dropped),
 * `lanes` (files read here at once), `jobs` (worker threads at most), `signal`, `onProgress`.
 */
export async function runScan(scanner, opts, sink) {
  const run = new Run(scanner, opts, sink);
  try {
    await run.walk();
  } catch (e) {
    run.fail(e); // (the first failure is the scan's: a walk stopped by it throws too)
  } finally {
    await run.stop();
  }
  if (run.failed) throw run.failed;
  await run.manifest?.finish(run.summary.files);
  const finished = finishSummary(run.summary, performance.now() - run.t0);
  if (run.manifest) finished.manifest = run.manifest.stats;
  return finished;
}

class Run {
  constructor({ walk, readHere, pool = null, manifest = null }, opts, sink) {
    this.t0 = performance.now();
    Object.assign(this, { walker: walk, readHere, manifest, sink, onProgress: opts.onProgress, signal: opts.signal });
    this.paths = opts.paths ?? [];
    this.format = opts.format ?? 'records';
    this.summary = newSummary(this.paths);
    this.child = fanOut(opts.signal);
    this.here = limiter(opts.lanes ?? LANES);
    this.maxAhead = opts.jobs * 2 + 2;
    Object.assign(this, { seq: 0, nextEmit: 0, found: 0, done: 0, walked: false, failed: null });
    this.pending = new Map();
    this.emitting = Promise.resolve();
    this.waiter = null;
    this.batch = [];
    this.batchKind = POOL;
    // The walk's listings stop with the scan (cancelled, or failed): a page may be in flight.
    this.walking = new AbortController();
    this.onAbort = () => {
      this.fail(new TsFileBloomError('cancelled', 'the scan was cancelled', { name: 'AbortError' }));
      this.pool?.stop();
    };
    this.pool = pool?.({
      files: () => this.found,
      answer: (msg) => this.deliver(msg.seq, msg),
      fail: (e) => this.fail(e),
      failed: () => this.failed !== null,
    });
    if (opts.signal?.aborted) this.onAbort();
    opts.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  fail(e) {
    this.failed ??= e;
    this.walking.abort();
    this.wakeUp();
  }

  wakeUp() {
    const w = this.waiter;
    this.waiter = null;
    w?.();
  }

  waitForSlot() {
    return new Promise((resolve) => (this.waiter = resolve));
  }

  /** Walks the targets, handing their items on in batches; settles when every batch is delivered. */
  async walk() {
    const takes = (item) => this.pool?.takes(item) === true;
    const batches = this.walker(this.walking.signal);
    walk: for await (const items of this.manifest ? this.manifest.walkAhead(batches) : batches) {
      await this.manifest?.ready(items); // (opened on its own thread; these files' stats come from there)
      for (const item of items) {
        if (this.failed) break walk;
        this.found++;
        const answered = this.manifest?.answer(item) ?? null;
        const kind = answered ? ANSWERED : takes(item) ? POOL : HERE;
        if (this.batch.length && kind !== this.batchKind) await this.flush();
        this.batchKind = kind;
        this.batch.push(answered ?? item);
        if (this.batch.length >= BATCH_SIZE[kind]) await this.flush();
      }
    }
    this.walked = true;
    await this.flush();
    while (!this.failed && this.nextEmit < this.seq) await this.waitForSlot();
    await this.emitting;
  }

  stop() {
    this.signal?.removeEventListener('abort', this.onAbort);
    return this.pool?.stop();
  }

  /** Batch `n`'s result (`{output, summary, kept}`): handed on in walk order. */
  deliver(n, result) {
    this.pending.set(n, result);
    this.emitting = this.emitting
      .then(async () => {
        while (this.pending.has(this.nextEmit) && !this.failed) {
          const r = this.pending.get(this.nextEmit);
          this.pending.delete(this.nextEmit);
          this.nextEmit++;
          mergeSummary(this.summary, r.summary);
          this.done += r.summary.files;
          this.manifest?.took(r.kept);
          await this.sink(r.output);
          this.onProgress?.({ done: this.done, found: this.found, total: this.walked ? this.found : null, bytesRead: this.summary.bytesRead, elapsedMs: performance.now() - this.t0 });
        }
        this.wakeUp();
      })
      .catch((e) => this.fail(e));
  }

  /** Sends batch `items` of `kind` on once a slot is free: to an idle worker, to be read here, or (answered) to the sink. */
  async send(items, kind) {
    let w = null;
    while (!this.failed && (this.seq - this.nextEmit >= this.maxAhead || (kind === POOL && !(w = this.pool.idle())))) await this.waitForSlot();
    if (this.failed) return;
    const n = this.seq++;
    if (kind === POOL) this.pool.post(w, { seq: n, items });
    else if (kind === HERE) this.readBatch(n, items);
    else this.deliver(n, this.answers(items));
  }

  /** A batch answered by the manifest (`{record, line}`s) → its output and its part of the summary. */
  answers(items) {
    const records = items.map((a) => a.record);
    return { output: this.format === 'records' || this.format === 'summary' ? this.output(records) : this.manifest.lines(items), summary: this.summed(records) };
  }

  /** Reads batch `n` on this thread, `lanes` files at once across batches. */
  async readBatch(n, items) {
    try {
      const records = new Array(items.length);
      const kept = this.manifest ? new Array(items.length).fill(null) : undefined;
      await Promise.all(items.map(async (item, i) => {
        await this.here.acquire();
        try {
          if (this.failed) return;
          const read = (keep) => this.readHere(item, this.child, keep);
          if (this.manifest) [records[i], kept[i]] = await this.manifest.object(item, read);
          else records[i] = await read();
        } finally {
          this.here.release();
        }
      }));
      if (this.failed) return;
      this.deliver(n, { output: this.output(records), summary: this.summed(records), kept });
    } catch (e) {
      this.fail(e);
    }
  }

  output(records) {
    return this.format === 'records' ? records : this.format === 'summary' ? null : formatRecords(records, this.format, this.paths);
  }

  summed(records, part = newSummary(this.paths)) {
    for (const r of records) addToSummary(part, r);
    return part;
  }

  async flush() {
    if (!this.batch.length) return;
    const items = this.batch;
    this.batch = [];
    return this.send(items, this.batchKind);
  }
}

/** A counting semaphore: `acquire()` resolves when one of `n` slots is free; `release()` frees it. */
function limiter(n) {
  let free = n;
  const queue = [];
  return {
    acquire: () => (free > 0 ? (free--, Promise.resolve()) : new Promise((resolve) => queue.push(resolve))),
    release() {
      const next = queue.shift();
      if (next) next();
      else free++;
    },
  };
}

/**
 * Per-file AbortSignals under one scan's signal, which gets a single listener however many
 * files are read at once (an EventTarget warns past 10 listeners): `child()` gives a signal
 * and its `done()`.
 */
function fanOut(signal) {
  const live = new Set();
  signal?.addEventListener('abort', () => live.forEach((c) => c.abort()), { once: true });
  return () => {
    const c = new AbortController();
    if (signal?.aborted) c.abort();
    live.add(c);
    return { signal: c.signal, done: () => live.delete(c) };
  };
}

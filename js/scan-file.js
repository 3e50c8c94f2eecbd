// One file of a scan → its record, by one of two routes:
//
// - the fast route (without an audit): the head and the tail window — which the byte source
//   holds once opened: a URL's open reads them in one round trip, a local file and a Blob are
//   read ahead by their scanner — and one wasm call, scanTail, for the version, the filter's
//   figures and the verdicts;
// - the full route (an audit, a failure, TsFileMetadata outside the window): openTsFile over
//   the same source, which serves again nothing read already, for the full typed story.
//
// The verdicts follow `probe`'s soundness rules on both routes, being the core's: without an
// audit the index is not read (the tail alone decides: 'absent' only when every candidate hash
// variant agrees); with one loadIndex() runs first and the writer-variant audit decides.
import { openTsFile } from './tsfile.js';
import { stagePaths } from './core.js';
import { scanTail } from '../dist/web/tsfile_bloom.js';
import { bloomFromFigures, figureVerdict, HEAD_LENGTH, TAIL_WINDOW } from './wire.js';
import { auditedResults } from './scan-fp.js';
import { plainError } from './errors.js';

/**
 * The fast route over bytes in hand: `head` (the file's first bytes) and `window` (its last,
 * holding TsFileMetadata) → the record (`reads` reads of `bytesRead` bytes), or null when
 * TsFileMetadata lies before the window. Throws the core's error for bytes it cannot read.
 */
export function tailScan(file, size, head, window, paths, reads, bytesRead, staged = undefined) {
  // Staged right before the call (synchronously: nothing else can stage in between), unless
  // the caller holds them staged (`staged`: their count).
  const f = scanTail(size, head, window, staged ?? stagePaths(paths).count);
  return f.length ? tailRecord(file, size, f, paths, reads, bytesRead) : null;
}

/**
 * Scans one file. `open(input, options, ahead)` opens its byte source (`ahead`: the fast route
 * will read the head and the tail window: a scanner reads them ahead, or marks the source
 * `ahead: false` when it could not). Errors are part of the record; only a cancelled scan
 * rejects. Returns the record — or a promise of it when anything on the way is asynchronous:
 * a local file read ahead costs no promise (a fleet of small files makes 10,000 of them).
 * `child` gives the file its own AbortSignal (js/scan-run.js fanOut). `staged`: the count of
 * `paths` a thread that stages nothing else holds staged (a scan worker stages them once a batch).
 */
export function scanFile(file, input, { open, paths = [], audit = false, openOptions = {}, child = null, staged }) {
  const own = child?.();
  const options = own ? { ...openOptions, signal: own.signal } : openOptions;
  const route = { file, input, paths, audit, options, staged };
  let record;
  // The fast route answers neither an audit nor a scan whose maxIndexBytes is below the tail
  // window (it takes any TsFileMetadata that lies in the window).
  if (audit || options.maxIndexBytes < TAIL_WINDOW) record = fullRecord(route, open);
  else {
    let opening;
    try {
      opening = open(input, options, true);
    } catch (e) {
      opening = Promise.reject(e);
    }
    record = opening instanceof Promise ? opening.then((source) => fastRecord(route, source), () => null) : fastRecord(route, opening);
    // The full route when the fast one cannot answer, over the same source.
    if (record === null) record = fullRecord(route, sameSource(opening));
    else if (record instanceof Promise) record = record.then((r) => r ?? fullRecord(route, sameSource(opening)));
  }
  if (!own) return record;
  if (record instanceof Promise) return record.finally(own.done);
  own.done();
  return record;
}

const sameSource = (opening) => () => opening;

/** The fast route over `source` (closed when it answers): the record, null, or a promise of either. */
function fastRecord(route, source) {
  if (source.ahead === false) return null;
  const size = source.size;
  try {
    const head = source.read(0, Math.min(size, HEAD_LENGTH));
    const window = source.read(size - Math.min(size, TAIL_WINDOW), Math.min(size, TAIL_WINDOW));
    if (!(head instanceof Promise || window instanceof Promise)) return tailAnswer(route, source, head, window);
    return Promise.all([head, window]).then(([h, w]) => tailAnswer(route, source, h, w)).catch(() => null);
  } catch {
    return null; // the full route tells
  }
}

function tailAnswer({ file, paths, staged }, source, head, window) {
  const record = tailScan(file, source.size, head, window, paths, source.ioCount, source.ioBytes, staged);
  if (record === null) return null;
  const closing = source.close?.();
  return closing instanceof Promise ? closing.then(() => record) : record;
}

/** The full route: openTsFile over `open`'s source (the audit, then bloomInfo() and the verdicts). */
async function fullRecord({ file, input, paths, audit, options }, open) {
  const counter = { reads: 0, bytes: 0, source: null };
  const record = emptyRecord(file);
  let t = null;
  try {
    t = await openTsFile(input, { ...options, source: async (i, o) => countReads(await open(i, o, false), counter) });
    record.size = t.size;
    record.version = t.version;
    let indexError = null;
    if (audit) {
      indexError = await t.loadIndex();
      record.audit = auditOf(await t.audit({ partial: true })); // (null when the walk failed: the record's error says why)
    }
    record.bloomFilter = t.bloomInfo();
    // With the index read, each result also says whether the index lists the path (js/scan-fp.js).
    record.results = !paths.length ? [] : audit ? auditedResults(t, paths) : t.probeMany(paths);
    record.error = plainError(indexError);
    record.ok = indexError == null;
  } catch (e) {
    if (e?.kind === 'cancelled' || e?.name === 'AbortError') throw e;
    record.error = plainError(e);
    if (record.size == null && counter.source) record.size = counter.source.size;
  } finally {
    await t?.close();
  }
  // A source that counts its own I/O (HTTP requests, reads that serve several calls) is believed.
  const s = counter.source;
  record.reads = s && typeof s.ioCount === 'number' ? s.ioCount : counter.reads;
  record.bytesRead = s && typeof s.ioBytes === 'number' ? s.ioBytes : counter.bytes;
  return record;
}

/** Wraps a byte source to count reads and bytes (sources with `ioCount`/`ioBytes` count their own). */
function countReads(source, counter) {
  counter.source = source;
  const read = source.read.bind(source);
  return {
    ...source,
    size: source.size,
    read(offset, length) {
      counter.reads++;
      counter.bytes += length;
      return read(offset, length);
    },
    close: source.close?.bind(source),
  };
}

/**
 * A byte source over bytes read ahead (`blocks`: `[{start, bytes}]`, `reads` reads of
 * `bytesRead` bytes): what they hold is served from memory, counted once; the rest is read by
 * `miss(offset, length)`, which a scanner's source defines.
 */
export class HeldSource {
  constructor(size, blocks, reads, bytesRead) {
    this.size = size;
    this.name = null;
    this.blocks = blocks;
    this.ioCount = reads;
    this.ioBytes = bytesRead;
  }

  read(offset, length) {
    for (const b of this.blocks) {
      if (offset === b.start && length === b.bytes.length) return b.bytes;
      if (offset >= b.start && offset + length <= b.start + b.bytes.length) return b.bytes.subarray(offset - b.start, offset - b.start + length);
    }
    this.ioCount++;
    this.ioBytes += length;
    return this.miss(offset, length);
  }
}

// A scan record: what a fleet scan says about one file, the API's per-file result (docs/fleet.md):
// `{file, fileHex, ok, size, version, bloomFilter, results, audit, bytesRead, reads, error}`.
// Made here, by the scanners for what their walk could not read, and by js/manifest.js from its entries.

/** A record before anything is known of its file. */
export const emptyRecord = (file) => ({ file, fileHex: null, ok: false, size: null, version: null, bloomFilter: null, results: null, audit: null, bytesRead: 0, reads: 0, error: null });

/**
 * A record from the fast route's figures `f` (wasm scanTail, decoded by js/wire.js) over what
 * the scan read: `reads` reads of `bytesRead` bytes (a file whose index is not read).
 */
export function tailRecord(file, size, f, paths, reads, bytesRead) {
  const results = paths.map((path, i) => ({ path, verdict: figureVerdict(f, i) }));
  return { ...emptyRecord(file), ok: true, size, version: f[0], bloomFilter: bloomFromFigures(f), results, bytesRead, reads };
}

/** A record for something that was found but could not be opened as a file (a FIFO, a loop). */
export function failedRecord(file, error, size = null) {
  return { ...emptyRecord(file), size, error: plainError(error) };
}

/** TsFile#audit() → the compact audit a record carries. */
export function auditOf(a) {
  return a ? { status: a.status, variant: a.variant ?? null, charset: a.charset ?? null, writer: a.writer ?? null, summary: a.summary } : null;
}

/** A record of a file whose name is not UTF-8 carries its bytes (the walk's `hex`). */
export function named(record, item) {
  if (item.hex !== undefined) record.fileHex = item.hex;
  return record;
}

// A worker_threads worker of the Node scanner (js/scan.js): takes batches of local files,
// scans each with synchronous reads (open, fstat, one read of the head, one of the tail
// window, close: the system-call floor), and answers with the batch's records — or their
// text, when the CLI asks for NDJSON/CSV/text — and the batch's part of the summary.
import { parentPort, workerData } from 'node:worker_threads';
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { ioError } from './node-source.js';
import { TsFileBloomError } from './errors.js';
import { stagePaths } from './core.js';
import { scanTail } from '../dist/web/tsfile_bloom.js';
import { addToSummary, failedRecord, formatRecords, newSummary, scanOne, tailRecord } from './scan-core.js';
import { TAIL_WINDOW } from './wire.js';

// `keep`: a scan with a manifest (js/manifest/keep.js, loaded only then): of a file read, what
// the manifest keeps goes back beside its record (files it answers never come here: the main
// thread answers them).
const { paths, audit, format, entry, maxIndexBytes, keep, racyMs } = workerData;
const { keepByReading, keepFromWindow, keptFacts, packKept, unpackBatch } = keep ? await import('./manifest/keep.js') : {};
// openTsFile's options for the usual way; a maxIndexBytes below the tail window also turns the
// fast route off (it takes any TsFileMetadata that lies in the window).
const openOptions = maxIndexBytes === undefined ? {} : { maxIndexBytes };
const fastRoute = !audit && !(maxIndexBytes < TAIL_WINDOW);
// A path that is not UTF-8 comes as its bytes (a Uint8Array, once posted): fs takes a Buffer.
const fsPath = (p) => (typeof p === 'string' ? p : Buffer.from(p.buffer, p.byteOffset, p.byteLength));
// The parent's entry (js/node.js or js/deno.js) initialises the wasm before anything here uses it.
const { openTsFile } = await import(entry);

// O_NONBLOCK: opening a FIFO must not wait for a writer (it is then refused by fstat).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

// `held`: what the fast route already read (`{blocks: [{start, bytes}], reads, bytesRead}`):
// served from memory and counted once.
function fileSource(path, held = null, shown = path) {
  let fd;
  let size;
  try {
    fd = openSync(fsPath(path), OPEN_FLAGS);
    const st = fstatSync(fd);
    if (!st.isFile()) throw Object.assign(new Error('not a regular file'), { code: st.isDirectory() ? 'EISDIR' : 'ENOTREG' });
    size = st.size;
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    throw ioError(e, shown);
  }
  // A file no larger than the tail window (TAIL_WINDOW) is read whole by the first read (the
  // head): the window is then that same buffer, so a small file costs one read.
  let whole = null;
  return {
    size,
    name: null,
    ioCount: held?.reads ?? 0, // read system calls, and their bytes (the scan reports these)
    ioBytes: held?.bytesRead ?? 0,
    read(offset, length) {
      if (whole) return whole.subarray(offset, offset + length);
      for (const b of held?.blocks ?? []) {
        if (offset >= b.start && offset + length <= b.start + b.bytes.length) return b.bytes.subarray(offset - b.start, offset - b.start + length);
      }
      if (offset === 0 && size <= TAIL_WINDOW && length < size) {
        whole = this.read(0, size);
        return whole.subarray(0, length);
      }
      this.ioCount++;
      this.ioBytes += length;
      const buf = new Uint8Array(length);
      let done = 0;
      while (done < length) {
        const n = readSync(fd, buf, done, length - done, offset + done);
        if (n === 0) throw new TsFileBloomError('io', `unexpected end of file at byte ${offset + done}: ${shown}`, { offset: offset + done, path: shown });
        done += n;
      }
      return buf;
    },
    close() {
      closeSync(fd);
    },
  };
}

const utf8 = new TextEncoder();

// The fast route, without --audit: the same two reads as openTsFile (head, tail window; one for
// a small file), then one call into wasm for the version, the filter's figures and the
// verdicts. Anything unusual — an I/O error, a format error, TsFileMetadata outside the
// window — goes the usual way (scanOne), which gives the full, typed story.
// The first read asks for one byte more than the window from the start: a file that small
// (most of a fleet of small files) comes whole, its size is what was read, and neither fstat
// nor a second read is needed. A larger file costs fstat and a read of its tail window.
const FIRST_READ = TAIL_WINDOW + 1;

/** `{record, keep}` (keep: what a manifest keeps of the file, or null), `{held}` (the bytes read, for the usual way) or null. */
function scanFast(item, count) {
  let fd;
  try {
    fd = openSync(fsPath(item.path), OPEN_FLAGS);
  } catch {
    return null;
  }
  try {
    // With a manifest, the file's identity before its bytes are read (js/manifest/keep.js).
    const st = keep ? fstatSync(fd) : null;
    const first = new Uint8Array(FIRST_READ);
    const got = readSync(fd, first, 0, FIRST_READ, 0);
    let size = got;
    let reads = 1;
    let bytesRead = got;
    let window = first.subarray(0, got);
    if (got === FIRST_READ) {
      size = fstatSync(fd).size;
      if (size < FIRST_READ) return null; // the file changed under us: the usual way tells
      window = new Uint8Array(TAIL_WINDOW);
      if (readSync(fd, window, 0, TAIL_WINDOW, size - TAIL_WINDOW) !== TAIL_WINDOW) return null;
      reads++;
      bytesRead += TAIL_WINDOW;
    }
    const f = scanTail(size, first.subarray(0, Math.min(size, 12)), window, count);
    // TsFileMetadata outside the window: the usual way, reusing what was read.
    if (f.length === 0) return { held: { blocks: [{ start: 0, bytes: first }, { start: size - window.length, bytes: window }], reads, bytesRead } };
    const record = tailRecord(item.file, size, f, paths, reads, bytesRead);
    return { record, keep: st && st.size === size ? keepFromWindow(st, first.subarray(0, Math.min(size, 12)), window, Date.now(), racyMs) : null };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** A record of a file whose name is not UTF-8 carries its bytes (the walk's `hex`). */
const named = (record, item) => {
  if (item.hex !== undefined) record.fileHex = item.hex;
  return record;
};

async function scanBatch({ seq, items, packed, records: asRecords }) {
  items ??= unpackBatch(packed);
  const records = [];
  // The paths are staged once per batch (scanOne's probeMany stages the same bytes again).
  const count = audit ? 0 : stagePaths(paths).count;
  const kept = keep ? new Array(items.length).fill(null) : null;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item.error) {
      records.push(named(failedRecord(item.file, item.error), item));
      continue;
    }
    let before;
    const fast = fastRoute ? scanFast(item, count) : null;
    if (fast?.record) {
      if (keep) kept[i] = keptFacts(fast.record, fast.keep);
      records.push(named(fast.record, item));
    } else {
      if (keep && before === undefined) {
        try {
          before = statSync(fsPath(item.path));
        } catch {
          before = null; // scanOne reports it
        }
      }
      const record = await scanOne(item.file, item.path, { open: openTsFile, makeSource: (p) => fileSource(p, fast?.held, item.file), paths, audit, openOptions });
      if (keep && record.ok) kept[i] = keptFacts(record, keepByReading(fsPath(item.path), before, Date.now(), racyMs));
      records.push(named(record, item));
    }
  }
  const keptPacked = kept && packKept(kept);
  const transfer = keptPacked ? [keptPacked.bytes.buffer] : [];
  // `asRecords`: the main thread puts them between a manifest's answered runs (and sums them there).
  if (asRecords) return parentPort.postMessage({ seq, output: records, summary: null, kept: keptPacked }, transfer);
  const part = newSummary(paths);
  for (const r of records) addToSummary(part, r);
  if (format === 'records') parentPort.postMessage({ seq, output: records, summary: part, kept: keptPacked }, transfer);
  else {
    // Text goes as UTF-8 bytes, transferred: no copy, and the main thread writes them as they are.
    const bytes = utf8.encode(formatRecords(records, format, paths));
    parentPort.postMessage({ seq, output: bytes, summary: part, kept: keptPacked }, [bytes.buffer, ...transfer]);
  }
}

// One batch at a time, in arrival order.
let chain = Promise.resolve();
parentPort.on('message', (msg) => {
  chain = chain.then(() => scanBatch(msg));
});

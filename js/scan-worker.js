// A worker_threads worker of the Node scanner (js/scan.js): takes batches of local files,
// scans each (js/scan-file.js) with synchronous reads — for the fast route open, one read of
// the head and one of the tail window, close: the system-call floor — and answers with the
// batch's records — or their text, when the CLI asks for NDJSON/CSV/text — and the batch's part
// of the summary.
import { parentPort, workerData } from 'node:worker_threads';
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { ioError } from './node-source.js';
import { heldSource, HEAD, scanFile } from './scan-file.js';
import { failedRecord, named } from './scan-record.js';
import { addToSummary, newSummary } from './scan-summary.js';
import { formatRecords } from './scan-output.js';
import { TAIL_WINDOW } from './wire.js';

// `keep`: a scan with a manifest (js/manifest/keep.js, loaded only then): of a file read, what
// the manifest keeps goes back beside its record (files it answers never come here: the main
// thread answers them).
const { paths, audit, format, entry, maxIndexBytes, keep, racyMs } = workerData;
const { keepByReading, keepFromWindow, keptFacts, packKept, unpackBatch } = keep ? await import('./manifest/keep.js') : {};
const openOptions = maxIndexBytes === undefined ? {} : { maxIndexBytes };
// A path that is not UTF-8 comes as its bytes (a Uint8Array, once posted): fs takes a Buffer.
const fsPath = (p) => (typeof p === 'string' ? p : Buffer.from(p.buffer, p.byteOffset, p.byteLength));
// The parent's entry (js/node.js or js/deno.js) initialises the wasm before anything here uses it.
await import(entry);

// O_NONBLOCK: opening a FIFO must not wait for a writer (it is then refused by fstat).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** A descriptor of a regular file and its size; a typed io error naming `shown` else. */
function openFile(path, shown) {
  let fd;
  try {
    fd = openSync(fsPath(path), OPEN_FLAGS);
    const st = fstatSync(fd);
    if (!st.isFile()) throw Object.assign(new Error('not a regular file'), { code: st.isDirectory() ? 'EISDIR' : 'ENOTREG' });
    return { fd, size: st.size };
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    throw ioError(e, shown);
  }
}

function readFully(fd, length, offset, shown) {
  const buf = new Uint8Array(length);
  for (let done = 0; done < length; ) {
    const n = readSync(fd, buf, done, length - done, offset + done);
    if (n === 0) throw Object.assign(new Error(`unexpected end of file at byte ${offset + done}: ${shown}`), { kind: 'io', offset: offset + done });
    done += n;
  }
  return buf;
}

/**
 * The byte source of a local file for the full route: opened now (its errors are typed), or —
 * `held`, what was read ahead — by the first read that is not served from memory.
 */
function fileSource(path, shown, held = null) {
  let file = held ? null : openFile(path, shown);
  const size = held ? held.size : file.size;
  // A file no larger than the tail window is read whole by its first read (the head): the
  // window is then that same buffer, so a small file costs one read.
  const first = held ?? { size, blocks: [], reads: 0, bytesRead: 0 };
  const source = heldSource(first, (offset, length) => {
    file ??= openFile(path, shown);
    if (offset === 0 && size <= TAIL_WINDOW && length < size) {
      const whole = readFully(file.fd, size, 0, shown);
      first.blocks.push({ start: 0, bytes: whole });
      source.ioBytes += size - length;
      return whole.subarray(0, length);
    }
    return readFully(file.fd, length, offset, shown);
  }, () => file && closeSync(file.fd));
  return source;
}

// The first read asks for one byte more than the window from the start: a file that small
// (most of a fleet of small files) comes whole, its size is what was read, and neither fstat
// nor a second read is needed. A larger file costs fstat and a read of its tail window.
const FIRST_READ = TAIL_WINDOW + 1;

/**
 * The head and the tail window read ahead for the fast route (`{size, blocks, reads, bytesRead,
 * head, window, st}`; `st`: with a manifest, the file's identity before its bytes are read), or
 * null when they could not be read this way (the full route then opens the file, and tells).
 */
function readAhead(path) {
  let fd;
  try {
    fd = openSync(fsPath(path), OPEN_FLAGS);
  } catch {
    return null;
  }
  try {
    const st = keep ? fstatSync(fd) : null;
    const first = new Uint8Array(FIRST_READ);
    const got = readSync(fd, first, 0, FIRST_READ, 0);
    if (got < FIRST_READ) {
      const whole = first.subarray(0, got);
      return { size: got, blocks: [{ start: 0, bytes: whole }], reads: 1, bytesRead: got, head: whole.subarray(0, HEAD), window: whole, st };
    }
    const size = fstatSync(fd).size;
    if (size < FIRST_READ) return null; // the file changed under us: the full route tells
    const window = new Uint8Array(TAIL_WINDOW);
    if (readSync(fd, window, 0, TAIL_WINDOW, size - TAIL_WINDOW) !== TAIL_WINDOW) return null;
    const blocks = [{ start: 0, bytes: first }, { start: size - TAIL_WINDOW, bytes: window }];
    return { size, blocks, reads: 2, bytesRead: FIRST_READ + TAIL_WINDOW, head: first.subarray(0, HEAD), window, st };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** One local file → its record, and (`kept[i]`, with a manifest) what the manifest keeps of it. */
async function scanLocal(item, kept, i) {
  let ahead = null;
  let before = null; // with a manifest, the file's identity before it is read
  const open = (path, options, readFirst) => {
    if (readFirst) ahead = readAhead(path);
    if (keep && !ahead && before === null) before = statOrNull(path);
    if (!readFirst || ahead) return fileSource(path, item.file, ahead);
    return Object.assign(fileSource(path, item.file), { ahead: false });
  };
  const record = named(await scanFile(item.file, item.path, { open, paths, audit, openOptions }), item);
  if (!keep || !record.ok) return record;
  // Made from the bytes read ahead alone (the fast route): kept from them; else read for it.
  const st = ahead?.st;
  if (st && record.reads === ahead.reads) kept[i] = keptFacts(record, st.size === record.size ? keepFromWindow(st, ahead.head, ahead.window, Date.now(), racyMs) : null);
  else kept[i] = keptFacts(record, keepByReading(fsPath(item.path), st ?? before, Date.now(), racyMs));
  return record;
}

function statOrNull(path) {
  try {
    return statSync(fsPath(path));
  } catch {
    return null; // the scan reports it
  }
}

async function scanBatch({ seq, items, packed, records: asRecords }) {
  items ??= unpackBatch(packed);
  const records = new Array(items.length);
  const kept = keep ? new Array(items.length).fill(null) : null;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    records[i] = item.error ? named(failedRecord(item.file, item.error), item) : await scanLocal(item, kept, i);
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

const utf8 = new TextEncoder();

// One batch at a time, in arrival order.
let chain = Promise.resolve();
parentPort.on('message', (msg) => {
  chain = chain.then(() => scanBatch(msg));
});

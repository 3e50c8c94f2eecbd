// A worker_threads worker of the Node scanner (js/scan.js): takes batches of local files,
// scans each (js/scan-file.js) with synchronous reads — for the fast route open, one read of
// the head and one of the tail window, close: the system-call floor — and answers with the
// batch's records — their text, when the CLI asks for NDJSON/CSV/text; none for a summary-only
// scan — and the batch's part of the summary.
import { parentPort, workerData } from 'node:worker_threads';
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { ioError } from './node-source.js';
import { TsFileBloomError } from './errors.js';
import { stagePaths } from './core.js';
import { failedRecord, HeldSource, named, scanFile } from './scan-file.js';
import { addToSummary, newSummary } from './scan-summary.js';
import { formatRecords } from './scan-output.js';
import { HEAD_LENGTH, TAIL_WINDOW } from './wire.js';

// `keep`: a scan with a manifest (js/manifest/keep.js, loaded only then): of each file read,
// what the manifest keeps goes back beside its record. (A file the manifest answers never comes here.)
const { paths, audit, format, flagWords, entry, maxIndexBytes, keep, racyMs } = workerData;
const { keepByReading, keepFromWindow, keptFacts } = keep ? await import('./manifest/keep.js') : {};
// The CLI's scan: each record's error names the CLI's flags (js/flag-words.js).
const { inFlagWords = (e) => e } = flagWords ? await import('./flag-words.js') : {};
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
    if (n === 0) throw new TsFileBloomError('io', `unexpected end of file at byte ${offset + done}: ${shown}`, { offset: offset + done, path: shown });
    done += n;
  }
  return buf;
}

/**
 * A local file's byte source: `blocks` read ahead (readAhead), served from memory; the file is
 * opened (and checked to be a regular file) by the first read they do not serve.
 */
class FileSource extends HeldSource {
  constructor(path, shown, size, blocks = [], reads = 0, bytesRead = 0) {
    super(size, blocks, reads, bytesRead);
    this.path = path;
    this.shown = shown;
    this.file = null;
    this.st = null; // with a manifest, the file's identity before it was read ahead
    this.readsAhead = 0; // the reads that did
  }

  /** Opened now, its errors typed (the full route without bytes read ahead). */
  static open(path, shown) {
    const file = openFile(path, shown);
    return Object.assign(new FileSource(path, shown, file.size), { file });
  }

  miss(offset, length) {
    this.file ??= openFile(this.path, this.shown);
    return readFully(this.file.fd, length, offset, this.shown);
  }

  close() {
    if (this.file) closeSync(this.file.fd);
  }
}

// The first read asks for one byte more than the window from the start: a file that small
// (most of a fleet of small files) comes whole, its size is what was read, and neither fstat
// nor a second read is needed. A larger file costs fstat and a read of its tail window.
const FIRST_READ = TAIL_WINDOW + 1;
// No file's bytes outlive its record (the files are scanned one at a time, scanTail copies what
// it reads, and a manifest keeps copies: keepFromWindow): one buffer of each size serves every
// file, sparing a 4 KiB allocation per file (two for a larger one).
const shared = { first: new Uint8Array(FIRST_READ), window: new Uint8Array(TAIL_WINDOW) };

/**
 * The file's source with its head and tail window read ahead for the fast route, or null when
 * they could not be read this way (the full route then opens the file, and tells).
 */
function readAhead(path, shown) {
  let fd;
  try {
    fd = openSync(fsPath(path), OPEN_FLAGS);
  } catch {
    return null;
  }
  try {
    const st = keep ? fstatSync(fd) : null;
    const first = shared.first;
    const got = readSync(fd, first, 0, FIRST_READ, 0);
    let source;
    if (got < FIRST_READ) source = new FileSource(path, shown, got, [{ start: 0, bytes: first.subarray(0, got) }], 1, got);
    else {
      const size = fstatSync(fd).size;
      if (size < FIRST_READ) return null; // the file changed under us: the full route tells
      const window = shared.window;
      if (readSync(fd, window, 0, TAIL_WINDOW, size - TAIL_WINDOW) !== TAIL_WINDOW) return null;
      source = new FileSource(path, shown, size, [{ start: 0, bytes: first }, { start: size - TAIL_WINDOW, bytes: window }], 2, FIRST_READ + TAIL_WINDOW);
    }
    source.st = st;
    source.readsAhead = source.ioCount;
    return source;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

// The file being scanned (one at a time in this thread): its source as read ahead, and with a
// manifest its identity before it was read.
const current = { item: null, ahead: null, before: null };

/** scanFile's `open` for a local file (`readFirst`: read its head and tail window ahead). */
function openLocal(path, options, readFirst) {
  if (readFirst) current.ahead = readAhead(path, current.item.file);
  if (keep && !current.ahead && current.before === null) current.before = statOrNull(path);
  if (current.ahead) return current.ahead;
  return readFirst ? Object.assign(FileSource.open(path, current.item.file), { ahead: false }) : FileSource.open(path, current.item.file);
}

/** One local file → its record (or a promise of it), and (`kept[i]`, with a manifest) what the manifest keeps of it. */
function scanLocal(item, kept, i, staged) {
  current.item = item;
  current.ahead = null;
  current.before = null;
  const record = scanFile(item.file, item.path, { open: openLocal, paths, audit, openOptions, staged });
  return record instanceof Promise ? record.then((r) => scanned(r, kept, i)) : scanned(record, kept, i);
}

function scanned(record, kept, i) {
  const { item, ahead, before } = current;
  named(record, item);
  if (keep && record.ok) kept[i] = keptFacts(record, keptOf(item, record, ahead, before));
  return record;
}

// Made from the bytes read ahead alone (the fast route): kept from them; else read for it.
function keptOf(item, record, ahead, before) {
  const st = ahead?.st;
  if (!st || record.reads !== ahead.readsAhead) return keepByReading(fsPath(item.path), st ?? before, Date.now(), racyMs);
  const window = ahead.blocks.at(-1).bytes;
  return st.size === record.size ? keepFromWindow(st, ahead.blocks[0].bytes.subarray(0, HEAD_LENGTH), window, Date.now(), racyMs) : null;
}

function statOrNull(path) {
  try {
    return statSync(fsPath(path));
  } catch {
    return null; // the scan reports it
  }
}

async function scanBatch({ seq, items }) {
  const records = new Array(items.length);
  const kept = keep ? new Array(items.length).fill(null) : null;
  // The paths, staged once a batch: this thread stages nothing else (the full route's
  // probeMany stages the same paths again; an audit takes no fast route).
  const staged = audit ? undefined : stagePaths(paths).count;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const record = item.error ? named(failedRecord(item.file, item.error), item) : scanLocal(item, kept, i, staged);
    records[i] = record instanceof Promise ? await record : record;
    inFlagWords(records[i].error);
  }
  const part = newSummary(paths);
  for (const r of records) addToSummary(part, r);
  // A summary-only scan posts no records: cloning them would cost more than reading the file.
  if (format === 'records' || format === 'summary') parentPort.postMessage({ seq, output: format === 'records' ? records : null, summary: part, kept });
  else {
    // Text goes as UTF-8 bytes, transferred: no copy, and the main thread writes them as they are.
    const bytes = utf8.encode(formatRecords(records, format, paths));
    parentPort.postMessage({ seq, output: bytes, summary: part, kept }, [bytes.buffer]);
  }
}

const utf8 = new TextEncoder();

// One batch at a time, in arrival order.
let chain = Promise.resolve();
parentPort.on('message', (msg) => {
  chain = chain.then(() => scanBatch(msg));
});

// A worker_threads worker of the Node scanner (js/scan.js): takes batches of local files,
// scans each with synchronous reads (open, fstat, one read of the head, one of the tail
// window, close: the system-call floor), and answers with the batch's records — or their
// text, when the CLI asks for NDJSON/CSV/text — and the batch's part of the summary.
import { parentPort, workerData } from 'node:worker_threads';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { openTsFile } from './node.js';
import { ioError } from './node-source.js';
import { stagePaths } from './core.js';
import { scanTail } from '../dist/web/tsfile_bloom.js';
import { addToSummary, bloomFromFigures, failedRecord, formatRecords, newSummary, scanOne } from './scan-core.js';

const { paths, audit, format } = workerData;

// O_NONBLOCK: opening a FIFO must not wait for a writer (it is then refused by fstat).
/** tsfile.js's tail window: files up to this size are read whole, in one read. */
const WHOLE_FILE_BELOW = 4096;

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

function fileSource(path) {
  let fd;
  let size;
  try {
    fd = openSync(path, OPEN_FLAGS);
    const st = fstatSync(fd);
    if (!st.isFile()) throw Object.assign(new Error('not a regular file'), { code: st.isDirectory() ? 'EISDIR' : 'ENOTREG' });
    size = st.size;
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    throw ioError(e, path);
  }
  // A file no larger than the tail window is read whole by the first read (the head): the
  // window is then that same buffer, so a small file costs one read.
  let whole = null;
  return {
    size,
    name: null,
    ioCount: 0, // read system calls' worth of reads, and their bytes (the scan reports these)
    ioBytes: 0,
    read(offset, length) {
      if (whole) return whole.subarray(offset, offset + length);
      if (offset === 0 && size <= WHOLE_FILE_BELOW && length < size) {
        whole = this.read(0, size);
        return whole.subarray(0, length);
      }
      this.ioCount++;
      this.ioBytes += length;
      const buf = new Uint8Array(length);
      let done = 0;
      while (done < length) {
        const n = readSync(fd, buf, done, length - done, offset + done);
        if (n === 0) throw Object.assign(new Error(`unexpected end of file at byte ${offset + done}: ${path}`), { kind: 'io', offset: offset + done });
        done += n;
      }
      return buf;
    },
    close() {
      closeSync(fd);
    },
  };
}

const VERDICTS = ['absent', 'maybe', 'unknown'];
const utf8 = new TextEncoder();
const FIGURES = 14; // scanTail's numbers before the verdicts

// The fast route, without --audit: the same two reads as openTsFile (head, tail window; one for
// a small file), then one call into wasm for the version, the filter's figures and the
// verdicts. Anything unusual — an I/O error, a format error, TsFileMetadata outside the
// window — goes the usual way (scanOne), which gives the full, typed story.
function scanFast(item, count) {
  let src;
  try {
    src = fileSource(item.path);
  } catch {
    return null;
  }
  try {
    const { size } = src;
    const head = src.read(0, Math.min(size, 12));
    const windowLength = Math.min(size, 4096);
    const window = src.read(size - windowLength, windowLength);
    const f = scanTail(size, head, window, count);
    if (f.length === 0) return null;
    return {
      file: item.file,
      ok: true,
      size,
      version: f[0],
      bloomFilter: bloomFromFigures(f),
      results: paths.map((path, i) => ({ path, verdict: VERDICTS[f[FIGURES + i]] })),
      audit: null,
      bytesRead: src.ioBytes,
      reads: src.ioCount,
      error: null,
    };
  } catch {
    return null;
  } finally {
    src.close();
  }
}

async function scanBatch({ seq, items }) {
  const records = [];
  // The paths are staged once per batch (scanOne's probeMany stages the same bytes again).
  const count = audit ? 0 : stagePaths(paths).count;
  for (const item of items) {
    if (item.error) {
      records.push(failedRecord(item.file, item.error));
      continue;
    }
    const fast = audit ? null : scanFast(item, count);
    records.push(fast ?? (await scanOne(item.file, item.path, { open: openTsFile, makeSource: fileSource, paths, audit })));
  }
  const part = newSummary(paths);
  for (const r of records) addToSummary(part, r);
  if (format === 'records') parentPort.postMessage({ seq, output: records, summary: part });
  else {
    // Text goes as UTF-8 bytes, transferred: no copy, and the main thread writes them as they are.
    const bytes = utf8.encode(formatRecords(records, format, paths));
    parentPort.postMessage({ seq, output: bytes, summary: part }, [bytes.buffer]);
  }
}

// One batch at a time, in arrival order.
let chain = Promise.resolve();
parentPort.on('message', (msg) => {
  chain = chain.then(() => scanBatch(msg));
});

// A worker_threads worker of the Node scanner (js/scan.js): takes batches of local files,
// scans each with synchronous reads (open, fstat, one read of the head, one of the tail
// window, close: the system-call floor), and answers with the batch's records — or their
// text, when the CLI asks for NDJSON/CSV/text — and the batch's part of the summary.
import { parentPort, workerData } from 'node:worker_threads';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { openTsFile } from './node.js';
import { ioError } from './node-source.js';
import { addToSummary, failedRecord, formatRecords, newSummary, scanOne } from './scan-core.js';

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

async function scanBatch({ seq, items }) {
  const records = [];
  for (const item of items) {
    records.push(item.error ? failedRecord(item.file, item.error) : await scanOne(item.file, item.path, { open: openTsFile, makeSource: fileSource, paths, audit }));
  }
  const part = newSummary(paths);
  for (const r of records) addToSummary(part, r);
  parentPort.postMessage({ seq, output: format === 'records' ? records : formatRecords(records, format, paths), summary: part });
}

// One batch at a time, in arrival order.
let chain = Promise.resolve();
parentPort.on('message', (msg) => {
  chain = chain.then(() => scanBatch(msg));
});

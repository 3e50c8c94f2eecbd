// scanTsFiles in browsers (call it from a Worker so that 10,000 files do not freeze a page):
// targets are Files, a FileList, FileSystemFileHandles, a FileSystemDirectoryHandle (walked
// recursively; files named *.tsfile) and http(s) URLs — or an array of any of these. Files are
// read a few at a time on this thread; records come out in the order the targets were walked.
import { openTsFile, toSource } from './tsfile.js';
import { documentUrl, isHttpUrl } from './http-source.js';
import { addToSummary, checkScanOptions, failedRecord, fanOut, finishSummary, newSummary, scanOne, scanResult, targetList } from './scan-core.js';
import { invalidArgument } from './errors.js';

const TSFILE_NAME = /\.tsfile$/i;
const DEFAULT_CONCURRENCY = 4;

const argumentError = (message) => invalidArgument('targets', message);

const isDirectoryHandle = (t) => t && t.kind === 'directory' && typeof t.entries === 'function';
const isFileHandle = (t) => t && t.kind === 'file' && typeof t.getFile === 'function';
const isBlob = (t) => typeof Blob !== 'undefined' && t instanceof Blob;
const isList = (t) => Array.isArray(t) || (typeof FileList !== 'undefined' && t instanceof FileList);

/** Walks the targets: `{input, file}` to scan, or `{file, error}`. */
async function* walkTargets(targets, prefix = '') {
  for (const t of isList(targets) ? Array.from(targets) : [targets]) {
    if (isHttpUrl(t)) yield { input: t, file: String(t) };
    else if (documentUrl(t)) yield { input: documentUrl(t), file: t };
    else if (isBlob(t)) yield { input: t, file: prefix + (t.webkitRelativePath || t.name || 'blob') };
    else if (isFileHandle(t)) {
      try {
        yield { input: await t.getFile(), file: prefix + t.name };
      } catch (e) {
        yield { file: prefix + t.name, error: e };
      }
    } else if (isDirectoryHandle(t)) yield* walkDirectory(t, `${prefix}${t.name}/`);
    else yield { file: String(t), error: argumentError('a scan target must be a File, a FileList, a FileSystemDirectoryHandle, a FileSystemFileHandle or an http(s) URL') };
  }
}

async function* walkDirectory(dir, prefix) {
  const entries = [];
  try {
    for await (const [name, handle] of dir.entries()) entries.push([name, handle]);
  } catch (e) {
    yield { file: prefix, error: e };
    return;
  }
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [name, handle] of entries) {
    if (handle.kind === 'directory') yield* walkDirectory(handle, `${prefix}${name}/`);
    else if (TSFILE_NAME.test(name)) yield* walkTargets(handle, prefix);
  }
}

/**
 * Scans `targets`: an async iterable of per-file records with a `summary` promise (as in Node).
 * Options: `paths`, `concurrency` (files read at once, default 4), `audit`, `signal`,
 * `onProgress`, and for URLs `headers`, `timeoutMs`, `allowFullDownload`, `maxFullDownloadBytes`.
 */
export function scanTsFiles(targets, options = {}) {
  const one = (t) => isBlob(t) || isFileHandle(t) || isDirectoryHandle(t) || (typeof URL !== 'undefined' && t instanceof URL);
  const list = typeof FileList !== 'undefined' && targets instanceof FileList ? targets : targetList(targets, one, 'Files, a FileList, file system handles or http(s) URLs');
  checkScanOptions(options);
  return scanResult((emit, signal) => runScan(list, { ...options, signal }, emit), { signal: options.signal });
}

async function runScan(targets, opts, emit) {
  const t0 = performance.now();
  const paths = opts.paths ?? [];
  const lanes = Math.max(1, Math.floor(opts.concurrency ?? DEFAULT_CONCURRENCY));
  const { signal, onProgress } = opts;
  const openOptions = { headers: opts.headers, timeoutMs: opts.timeoutMs, deadlineMs: opts.deadlineMs, allowFullDownload: opts.allowFullDownload, maxFullDownloadBytes: opts.maxFullDownloadBytes, maxIndexBytes: opts.maxIndexBytes, fetch: opts.fetch };
  const child = fanOut(signal);
  const summary = newSummary(paths);
  const cancelled = () => {
    const err = new Error('the scan was cancelled');
    err.name = 'AbortError';
    err.kind = 'cancelled';
    err.offset = null;
    return err;
  };
  const scan = (item) =>
    item.error
      ? failedRecord(item.file, item.error)
      : scanOne(item.file, item.input, { open: openTsFile, makeSource: toSource, paths, audit: opts.audit === true, openOptions, child });
  let found = 0;
  let chunk = [];
  const runChunk = async () => {
    const records = new Array(chunk.length);
    let next = 0;
    const lane = async () => {
      while (next < chunk.length) {
        if (signal?.aborted) throw cancelled();
        const i = next++;
        records[i] = await scan(chunk[i]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(lanes, chunk.length) }, lane));
    chunk = [];
    for (const r of records) addToSummary(summary, r);
    await emit(records);
    onProgress?.({ done: summary.files, found, total: null, bytesRead: summary.bytesRead, elapsedMs: performance.now() - t0 });
  };
  for await (const item of walkTargets(targets)) {
    if (signal?.aborted) throw cancelled();
    found++;
    chunk.push(item);
    if (chunk.length >= lanes * 16) await runChunk();
  }
  if (chunk.length) await runChunk();
  if (signal?.aborted) throw cancelled();
  return finishSummary(summary, performance.now() - t0);
}

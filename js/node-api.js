// The API of the server-side entries (Node, Deno): the shared API plus file paths and
// FileHandles as sources, and the worker-thread scanner (loaded by the first scan). Each entry
// initialises the wasm its own way, then re-exports this.
import { openTsFile as openAny } from './tsfile.js';
import { nodeSource } from './node-source.js';
import { openLevelDbTable as openTable } from './leveldb.js';
import { checkScanOptions, scanOptions, scanResult, targetList } from './scan-call.js';

export * from './api.js';
export { TsFile } from './tsfile.js';
export { LevelDbTable, loadLevelDb, isLevelDbFooter } from './leveldb.js';

/** Opens a TsFile from a path, FileHandle, URL, Uint8Array, ArrayBuffer or Blob, reading only its tail. */
export function openTsFile(source, options = {}) {
  return openAny(source, { source: nodeSource, ...options });
}

/** Opens a LevelDB table (.ldb/.sst) from a path, FileHandle, bytes or Blob. */
export function openLevelDbTable(source, options = {}) {
  return openTable(source, { source: nodeSource, ...options });
}

/**
 * Scans `targets` (paths, directories, http(s) URLs): an async iterable of per-file records
 * with a `summary` promise. Options: `paths` (series paths to probe), `concurrency` (worker
 * threads; default the core count), `audit`, `signal`, `onProgress({done, found, total,
 * bytesRead, elapsedMs})`, `maxIndexBytes` (every file), and for URLs `headers`, `timeoutMs`,
 * `deadlineMs`, `allowFullDownload`, `maxFullDownloadBytes`.
 * The scanner (js/scan.js) is loaded by the first scan, not by importing the package.
 */
export function scanTsFiles(targets, options = {}) {
  const list = targetList(targets, (t) => t instanceof URL, 'a path, a directory, an http(s) URL or an s3:// URL');
  checkScanOptions(options);
  const run = (emit, signal, records) => import('./scan.js').then((scan) => scan.runScan(list, { ...scanOptions(options), signal, format: records ? 'records' : 'summary' }, emit));
  return scanResult(run, { signal: options.signal });
}

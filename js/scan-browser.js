// scanTsFiles in browsers (call it from a Worker so that 10,000 files do not freeze a page):
// targets are Files, a FileList, FileSystemFileHandles, a FileSystemDirectoryHandle (walked
// recursively; files named *.tsfile), http(s) URLs and S3 ListObjectsV2 URLs (a public or
// presigned bucket listing, `…?list-type=2&prefix=…`: its *.tsfile objects, page by page; s3.js
// listingTsFiles) — or an array of any of these. Records come out in the order the targets were
// walked; a listing that fails is one record with its error, after the objects listed before.
//
// A browser pays most of a small file's cost in its own Blob reads (each slice is a round trip
// to the process that holds the file), so for the fast route (js/scan-file.js) a File is read
// ahead as the Node scanner's worker reads a path: one slice for a file no larger than the tail
// window (its head lies in that window), else the head and the window, `concurrency` files in
// flight (default 64). BENCHMARKS.md ("Folder scan in Chromium") measures it against a bare
// read loop.
import { toSource } from './source.js';
import { documentUrl, isHttpUrl } from './http-source.js';
import { redactUrl } from './redact.js';
import { isListingUrl, listingTsFiles } from './s3.js';
import { failedRecord, HeldSource, scanFile } from './scan-file.js';
import { LANES, runScan as pipeline } from './scan-run.js';
import { checkScanOptions, scanResult, targetList } from './scan-call.js';
import { invalidArgument, TsFileBloomError } from './errors.js';
import { HEAD_LENGTH, TAIL_WINDOW } from './wire.js';

const TSFILE_NAME = /\.tsfile$/i;


const isDirectoryHandle = (t) => t && t.kind === 'directory' && typeof t.entries === 'function';
const isFileHandle = (t) => t && t.kind === 'file' && typeof t.getFile === 'function';
const isBlob = (t) => typeof Blob !== 'undefined' && t instanceof Blob;
const isList = (t) => Array.isArray(t) || (typeof FileList !== 'undefined' && t instanceof FileList);

/** Walks the targets: `{input, file}` to scan, or `{file, error}`. `options`: a listing's `fetch`, `signal`, `timeoutMs`, `deadlineMs` (each page's). */
async function* walkTargets(targets, prefix = '', options = {}) {
  for (const t of isList(targets) ? Array.from(targets) : [targets]) {
    if (isListingUrl(t)) yield* walkListing(t, options);
    // A URL's record names it as redactUrl shows it: no signature or token in a record.
    else if (isHttpUrl(t)) yield { input: t, file: redactUrl(t) };
    else if (documentUrl(t)) yield { input: documentUrl(t), file: redactUrl(t) };
    else if (isBlob(t)) yield { input: t, file: prefix + (t.webkitRelativePath || t.name || 'blob') };
    else if (isFileHandle(t)) {
      try {
        yield { input: await t.getFile(), file: prefix + t.name };
      } catch (e) {
        yield { file: prefix + t.name, error: e };
      }
    } else if (isDirectoryHandle(t)) yield* walkDirectory(t, `${prefix}${t.name}/`);
    else yield { file: String(t), error: invalidArgument('targets', 'a scan target must be a File, a FileList, a FileSystemDirectoryHandle, a FileSystemFileHandle or an http(s) URL') };
  }
}

/**
 * A bucket listing's objects, then its error (if any) as one more item. An object is read as the
 * version the listing names (its size, ETag, Last-Modified: else the typed 'changed'); one the
 * listing gets wrong, or whose key fetch would rewrite, is its error.
 */
async function* walkListing(url, options) {
  try {
    for await (const o of listingTsFiles(url, options)) {
      yield o.error ? { file: o.url, error: o.error } : { input: o.url, file: o.url, listed: { listedSize: o.size, listedEtag: o.etag, listedLastModified: o.lastModified } };
    }
  } catch (e) {
    if (e?.kind === 'cancelled') throw e;
    yield { file: redactUrl(url), error: e };
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
 * Options: `paths`, `concurrency` (files read at once, default 64), `audit`, `signal`,
 * `onProgress`, and for URLs `headers`, `timeoutMs`, `allowFullDownload`, `maxFullDownloadBytes`.
 */
export function scanTsFiles(targets, options = {}) {
  const one = (t) => isBlob(t) || isFileHandle(t) || isDirectoryHandle(t) || (typeof URL !== 'undefined' && t instanceof URL);
  const list = typeof FileList !== 'undefined' && targets instanceof FileList ? targets : targetList(targets, one, 'Files, a FileList, file system handles or http(s) URLs');
  checkScanOptions(options);
  return scanResult((emit, signal) => runScan(list, { ...options, signal }, emit), { signal: options.signal });
}

const blobBytes = async (blob, start, end) => new Uint8Array(await blob.slice(start, end).arrayBuffer());

/**
 * A Blob's byte source. For the fast route (`ahead`) its head and tail window are read ahead:
 * one slice for a Blob no larger than the window, else two at once; served from memory then.
 */
async function openBlob(blob, options, ahead) {
  if (!ahead) return toSource(blob);
  const size = blob.size;
  let blocks;
  try {
    if (size <= TAIL_WINDOW) blocks = [{ start: 0, bytes: await blobBytes(blob, 0, size) }];
    else {
      const [head, window] = await Promise.all([blobBytes(blob, 0, HEAD_LENGTH), blobBytes(blob, size - TAIL_WINDOW, size)]);
      blocks = [{ start: 0, bytes: head }, { start: size - TAIL_WINDOW, bytes: window }];
    }
  } catch {
    return Object.assign(toSource(blob), { ahead: false }); // the full route reads again and tells
  }
  return new BlobSource(blob, blocks);
}

/** A Blob's blocks read ahead; a read outside them is a slice of its own (arrayBuffer() worked ahead). */
class BlobSource extends HeldSource {
  constructor(blob, blocks) {
    super(blob.size, blocks, blocks.length, blocks.reduce((n, b) => n + b.bytes.length, 0));
    this.blob = blob;
  }

  miss(offset, length) {
    return blobBytes(this.blob, offset, offset + length);
  }
}

/** The browser's scanner: its walk, and every file read on this thread, in the one pipeline (js/scan-run.js). */
function runScan(targets, opts, emit) {
  const paths = opts.paths ?? [];
  const audit = opts.audit === true;
  const openOptions = { headers: opts.headers, timeoutMs: opts.timeoutMs, deadlineMs: opts.deadlineMs, allowFullDownload: opts.allowFullDownload, maxFullDownloadBytes: opts.maxFullDownloadBytes, maxIndexBytes: opts.maxIndexBytes, fetch: opts.fetch };
  const scanner = {
    async *walk(signal) {
      for await (const item of walkTargets(targets, '', { fetch: opts.fetch, signal, timeoutMs: opts.timeoutMs, deadlineMs: opts.deadlineMs })) yield [item];
    },
    readHere(item, child) {
      if (item.error) return failedRecord(item.file, item.error);
      const open = isBlob(item.input) ? openBlob : toSource;
      return scanFile(item.file, item.input, { open, paths, audit, openOptions: item.listed ? { ...openOptions, ...item.listed } : openOptions, child });
    },
  };
  const lanes = Math.max(1, Math.floor(opts.concurrency ?? LANES));
  return pipeline(scanner, { paths, format: 'records', lanes, jobs: 1, signal: opts.signal, onProgress: opts.onProgress }, emit);
}

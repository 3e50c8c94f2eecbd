// Node's scanner (scanTsFiles, in js/node-api.js, loads it on first use; the CLI's scan): asks every TsFile of a fleet — files, directory trees (IoTDB keeps
// data/sequence|unsequence/<database>/<region>/<partition>/*.tsfile) and http(s) URLs —
// for its filter and its verdicts on some series paths.
//
// The main thread walks the targets and hands local files in batches to worker_threads
// (js/scan-worker.js), which read with synchronous system calls and answer a batch at a
// time; URLs are read here (fetch is asynchronous anyway). Records come out in the order
// the targets were walked.
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isHttpUrl } from './http-source.js';
import { redactUrl } from './redact.js';
import { isS3Url, s3TsFiles } from './s3.js';
import { s3ConfigFromEnvironment } from './s3-config.js';
import { ioError, nodeSource } from './node-source.js';
import { NODE_S3 } from './node-s3.js';
import { scanFile } from './scan-file.js';
import { HERE_BATCH, LANES, runScan as pipeline } from './scan-run.js';
import { workerPool } from './scan-pool.js';
import { scanWorkerEntry } from './scan-call.js';
import { invalidArgument, plainError } from './errors.js';

/** Files read at once over HTTP or S3 (unless `concurrency` says otherwise): js/scan-run.js. */
export { LANES as REMOTE_CONCURRENCY };
/** In directory walks only these are TsFiles (IoTDB keeps .resource and .mods files beside them). */
const TSFILE_NAME = /\.tsfile$/i;

function fsError(e, path, what) {
  const err = ioError(e, path);
  if (what) err.message = `${what}: ${path}`;
  return plainError(err);
}

const keyOf = (st) => `${st.dev}:${st.ino}`;

/**
 * Walks the targets, in batches: `{path, file}` (a regular file), `{url, file}` (an http(s) or
 * s3:// object), or `{file, error}`. An s3:// prefix is listed (ListObjectsV2) for its
 * `*.tsfile` objects; `options` holds the S3 configuration (`s3`, else the environment's).
 */
export async function* walkTargetBatches(targets, options = {}) {
  const visited = new Set();
  let batch = [];
  for (const target of targets) {
    if (isS3Url(target) && /^s3:\/\/[^/]+\/?(.*\/)?$/i.test(String(target))) {
      // A bucket or a prefix ending in '/': every TsFile below it.
      if (batch.length) yield batch;
      batch = [];
      try {
        for await (const o of s3TsFiles(target, options, options.s3Defaults ?? s3ConfigFromEnvironment, NODE_S3)) {
          // The object by its location (bucket and key), never by its name parsed again.
          if (o.error) batch.push({ file: o.target, error: plainError(o.error) });
          else batch.push({ url: o.location, file: o.target, version: { size: o.size, etag: o.etag, lastModified: o.lastModified } });
          // A read batch's worth at a time: the scan reads a page's first objects while the
          // listing goes on (a page is up to 1,000 objects, and the next is already asked for).
          if (batch.length >= HERE_BATCH) {
            yield batch;
            batch = [];
          }
        }
      } catch (e) {
        batch.push({ file: String(target), error: plainError(e) });
      }
      continue;
    }
    for (const item of walkTargets([target], visited)) {
      batch.push(item);
      if (batch.length >= 1024) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length) yield batch;
}

/**
 * Walks local and http(s) targets: `{path, file}` (a regular file), `{url, file}`, or `{file,
 * error}`; a local item whose path is not UTF-8 also has `hex`, its bytes. A target is a
 * string, a file: URL, or (the CLI's @LIST lines that are not UTF-8) a Buffer. A URL's record
 * names it as redactUrl shows it (a presigned URL's signature is no part of the file's name, and
 * no record holds it); an s3:// location as it is.
 *
 * Each file once, however the targets overlap (`scan tree tree/s1`, a file given twice or
 * inside a directory given too): a directory by its device and inode, a file given by its
 * device and inode, and a file found in a walk by its directory's and its own name.
 */
export function* walkTargets(targets, visited = new Set()) {
  for (const target of targets) {
    if (isHttpUrl(target) || isS3Url(target)) {
      const url = String(target);
      yield { url, file: isHttpUrl(target) ? redactUrl(url) : url };
      continue;
    }
    const bytes = Buffer.isBuffer(target);
    if ((typeof target !== 'string' && !(target instanceof URL) && !bytes) || (target instanceof URL && target.protocol !== 'file:')) {
      yield { file: String(target), error: plainError(invalidArgument('targets', `a scan target must be a path, a file: URL or an http(s) URL, not ${target instanceof URL ? target.protocol : target === null ? 'null' : typeof target}`)) };
      continue;
    }
    // A file: URL string is a path too, as openTsFile takes it.
    let p = target;
    try {
      if (target instanceof URL || /^file:\/\//i.test(target)) p = fileURLToPath(target);
    } catch (e) {
      yield { file: String(target), error: plainError(invalidArgument('targets', `${String(target)} names no file of this machine: ${e.message}`)) };
      continue;
    }
    const shown = bytes ? escapedName(p) : p;
    let st;
    try {
      st = statSync(p);
    } catch (e) {
      yield located(p, { file: shown, error: fsError(e, shown) });
      continue;
    }
    if (st.isDirectory()) {
      if (visited.has(keyOf(st))) continue; // walked already (a target inside another)
      visited.add(keyOf(st));
      yield* walkDirectory(p, [keyOf(st)], visited, shown);
    } else if (st.isFile()) {
      if (givenBefore(p, st, visited)) continue;
      yield located(p, { path: p, file: shown });
    } else yield located(p, { file: shown, error: fsError(null, shown, 'not a regular file') });
  }
}

// A name that is not UTF-8 (a Linux file name is bytes) is kept as its bytes for opening and
// shown with its other bytes as \xNN: a lossy string would name no file at all. Its item (and
// so its record) also carries the bytes as hex, for output that must name it exactly.
const utf8Name = (bytes) => (isUtf8(bytes) ? bytes.toString('utf8') : null);
const escapedName = (bytes) => Array.from(bytes, (c) => (c < 0x80 ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, '0')}`)).join('');
const located = (p, item) => (typeof p === 'string' ? item : Object.assign(item, { hex: p.toString('hex') }));
const SLASH = Buffer.from('/');
const ASCII_NAME = /^[\x01-\x7f]*$/;
// What join(dir, name) puts before a name (a name holds no separator and is never . or ..), made
// once per directory: join normalizes the whole path at every call.
const joinPrefix = (dir) => join(dir, 'x').slice(0, -1);

// Files given as targets, by their device and inode and as a directory entry (their directory's
// device and inode, and their name), on the walk's `visited` set: a walk passes a file given
// already, and a file given after a directory walked already is passed too.
function givenBefore(p, st, visited) {
  const given = (visited.given ??= { files: new Set(), entries: new Set() });
  if (given.files.has(keyOf(st))) return true;
  given.files.add(keyOf(st));
  let dir;
  let name;
  try {
    // As a walk would name it: its real directory, and its name as walkDirectory shows it.
    const real = realpathSync(p, { encoding: 'buffer' });
    const slash = real.lastIndexOf(SLASH);
    name = real.subarray(slash + 1);
    name = utf8Name(name) ?? escapedName(name);
    dir = keyOf(statSync(real.subarray(0, Math.max(slash, 1))));
  } catch {
    return false;
  }
  given.entries.add(`${dir}/${name}`);
  return TSFILE_NAME.test(name) && visited.has(dir);
}

// `dir` is a path (a string, or bytes); `shown` is how records name it.
function* walkDirectory(dir, ancestors, visited, shown = dir) {
  let entries;
  let ascii = false;
  try {
    // The names as strings when every one is ASCII (most trees; half the cost of names as
    // bytes): none was decoded lossily, and a string sorts as its bytes do. Else as bytes.
    if (typeof dir === 'string') {
      entries = readdirSync(dir, { withFileTypes: true });
      ascii = entries.every((d) => ASCII_NAME.test(d.name));
    }
    if (!ascii) entries = readdirSync(dir, { withFileTypes: true, encoding: 'buffer' });
  } catch (e) {
    yield located(dir, { file: shown, error: fsError(e, shown) });
    return;
  }
  if (ascii) entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  else entries.sort((a, b) => Buffer.compare(a.name, b.name));
  // An entry's path is a string, or its bytes when the directory or its name is not UTF-8.
  const prefix = typeof dir === 'string' ? joinPrefix(dir) : null;
  // Files given as targets too (rare: most scans give none) are passed here.
  const given = visited.given?.entries.size ? visited.given : null;
  const here = ancestors.at(-1);
  let shownPrefix = null;
  for (const d of entries) {
    const text = ascii ? d.name : utf8Name(d.name);
    const p = prefix === null ? Buffer.concat([dir, SLASH, d.name]) : text !== null ? prefix + text : Buffer.concat([Buffer.from(prefix), d.name]);
    const shownText = text ?? escapedName(d.name);
    const file = typeof p === 'string' ? p : (shownPrefix ??= joinPrefix(shown)) + shownText;
    const named = TSFILE_NAME.test(shownText);
    if (d.isFile()) {
      if (named && !given?.entries.has(`${here}/${shownText}`)) yield located(p, { path: p, file });
      continue;
    }
    if (!d.isDirectory() && !d.isSymbolicLink()) {
      // A FIFO, socket or device named like a TsFile: reported, never opened (a FIFO blocks).
      if (named) yield located(p, { file, error: fsError(null, file, 'not a regular file') });
      continue;
    }
    let st;
    try {
      st = statSync(p); // follows a symbolic link
    } catch (e) {
      if (e.code === 'ENOENT') {
        if (named) yield located(p, { file, error: fsError(e, file, 'dangling symbolic link (its target does not exist)') });
      } else yield located(p, { file, error: fsError(e, file, e.code === 'ELOOP' ? 'symbolic link loop' : null) });
      continue;
    }
    if (st.isDirectory()) {
      const key = keyOf(st);
      // A link back to a directory above: a loop (reported); one reached twice another way: once.
      if (ancestors.includes(key)) yield located(p, { file, error: fsError(null, file, 'symbolic link loop (it leads back to a directory above it)') });
      else if (!visited.has(key)) {
        visited.add(key);
        yield* walkDirectory(p, [...ancestors, key], visited, file);
      }
    } else if (named && !given?.files.has(keyOf(st))) {
      yield located(p, st.isFile() ? { path: p, file } : { file, error: fsError(null, file, 'not a regular file') });
    }
  }
}

/**
 * Node's scanner, behind scanTsFiles and the CLI: its walk, its worker threads for local files
 * and its manifest, in the one pipeline (js/scan-run.js). `format`: 'records' (sink gets arrays
 * of records), 'ndjson' | 'csv' | 'text' (sink gets text: a string, or UTF-8 bytes from the
 * workers) or 'summary' (sink gets null: no one reads the records, so no worker posts them).
 * Returns the finished summary.
 */
export async function runScan(targets, opts, sink) {
  const paths = opts.paths ?? [];
  const format = opts.format ?? 'records';
  const audit = opts.audit === true;
  const jobs = Math.max(1, Math.floor(opts.concurrency ?? availableParallelism()));
  const httpOptions = { headers: opts.headers, timeoutMs: opts.timeoutMs, deadlineMs: opts.deadlineMs, allowFullDownload: opts.allowFullDownload, maxFullDownloadBytes: opts.maxFullDownloadBytes, maxIndexBytes: opts.maxIndexBytes, fetch: opts.fetch, s3: opts.s3 };
  // The environment's S3 settings (AWS_* variables, the shared files), read once for the scan's
  // listings and objects rather than once per object.
  let s3Environment = null;
  const s3Defaults = () => (s3Environment ??= s3ConfigFromEnvironment());
  const openRemote = (url, options) => nodeSource(url, options, s3Defaults);
  // With a manifest (js/manifest.js): a file it holds unchanged (a stat; an object: its listing)
  // is answered from it as the walk finds it, and only the rest is read. Its code (js/manifest.js
  // and js/manifest/) is loaded by the first scan that has one.
  const manifest = opts.manifest != null ? (await import('./manifest.js')).openManifest(opts.manifest, { paths, audit, format: format === 'summary' ? 'records' : format, maxIndexBytes: opts.maxIndexBytes, racyMs: opts.manifestRacyMs }) : null;
  // The CLI's scan (`flagWords`): each record's error names the CLI's flags (js/flag-words.js).
  const { inFlagWords = (e) => e } = opts.flagWords ? await import('./flag-words.js') : {};
  const workerData = { paths, audit, format, flagWords: opts.flagWords === true, keep: manifest !== null, racyMs: opts.manifestRacyMs, maxIndexBytes: opts.maxIndexBytes, entry: scanWorkerEntry() ?? new URL('./node.js', import.meta.url).href };
  // A listing's pages have the limits of a file's reads, and stop with the scan.
  const walkOptions = { s3: opts.s3, fetch: opts.fetch, timeoutMs: opts.timeoutMs, deadlineMs: opts.deadlineMs, s3Defaults };
  const scanner = {
    walk: (signal) => walkTargetBatches(targets, { ...walkOptions, signal }),
    // An http(s) or s3:// object (`keep`: the manifest keeps what is read of it): the source's
    // open holds the head and the tail window (one round trip) for the fast route. An S3
    // listing's size lets the open choose its ranges up front (js/http-source.js); the object
    // read must be the version listed (its ETag, else its Last-Modified, and its size).
    async readHere(item, child, keep) {
      const v = item.version;
      const openOptions = v ? { ...httpOptions, listedSize: v.size, listedEtag: v.etag, listedLastModified: v.lastModified } : httpOptions;
      const open = keep ? async (url, options) => keep(await openRemote(url, options)) : openRemote;
      const record = await scanFile(item.file, item.url, { open, paths, audit, openOptions, child });
      inFlagWords(record.error);
      return record;
    },
    pool: workerPool({ workerData, jobs, perExtraWorker: opts.filesPerExtraWorker }), // (tests lower it)
    manifest,
  };
  const lanes = Math.max(1, Math.floor(opts.concurrency ?? LANES));
  return pipeline(scanner, { paths, format, lanes, jobs, signal: opts.signal, onProgress: opts.onProgress }, sink);
}

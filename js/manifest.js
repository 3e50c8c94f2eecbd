// Repeat scans from a manifest (`scan --manifest FILE`, scanTsFiles' `manifest` option): what a
// scan learnt of each local file — its identity (size, mtime, ctime, inode, device), the
// record's facts (version, bloomInfo(), the audit), the verdicts of the paths asked, and the
// bytes a verdict is made from (the head and the file from TsFileMetadata to its end) — kept
// in one file, so that the next scan reads only the files that are new or changed and answers
// for the rest from the manifest.
//
// Soundness: an entry is used only when the file's identity is exactly the recorded one. ctime
// is in it because it cannot be set back (utimes restores mtime, never ctime): a write at equal
// size whose mtime was restored still changes ctime. A file modified within RACY_MS of the
// moment it was read is not recorded (its timestamps may not move on a second write in the
// same clock tick: "racy git"). Verdicts for paths the manifest already holds are the core's
// verdicts of that file; a path it does not hold is asked of the core again, from the recorded
// bytes (wasm scanTail: the fast scan's own rule), or — for a file recorded with --audit, whose
// rule needs the file's audit — the file is read again. Errors are never recorded: a file that
// could not be read is read again. An object of an s3:// listing is identified by the listing's
// ETag, size and Last-Modified (without an ETag, recorded only once its Last-Modified is
// OBJECT_RACY_MS past); a URL without a listing is read every time.
//
// Where the work is: the main thread reads the manifest and replays unchanged directory trees;
// each local file goes to a scan worker with its entry's index (the entries are cloned into
// each worker once, as columns), which stats it and answers it (answerFromEntry) or reads it
// and hands back what the manifest keeps (keptFacts); objects are answered on the main thread.
//
// The file: one header line (JSON: format, version, the lengths and SHA-256 of its two parts),
// the tables (JSON), then the kept bytes. Rewritten only when something changed, to a temporary
// file beside it renamed over it, so an interrupted scan leaves the previous manifest whole. A
// manifest that is not one (foreign), is cut short (truncated), does not match its checksums
// (corrupt: the tables' when read, the bytes' when first used) or is of a later version
// (future_version) is a typed error: kind 'manifest', `reason`, `path`.
import { closeSync, fstatSync, openSync, readFileSync, readSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, basename, join } from 'node:path';
import { stagePaths } from './core.js';
import { scanTail, tsfileEnvelope } from '../dist/web/tsfile_bloom.js';
import { ENCODINGS, FIGURES, VERDICTS, bloomFromFigures, figureVerdict } from './wire.js';
import { invalidArgument } from './errors.js';

export const MANIFEST_FORMAT = 'tsfile-bloom-manifest';
export const MANIFEST_VERSION = 1;
/** A file modified less than this before it was read is not recorded (timestamps move in clock ticks). */
export const RACY_MS = 2000;

/** A typed error about the manifest file: kind 'manifest', `reason`, `path`. */
export function manifestError(path, reason, message) {
  const err = new Error(`${message}: ${path}`);
  err.kind = 'manifest';
  err.reason = reason;
  err.path = path;
  err.offset = null;
  return err;
}

/** What identifies one version of a local file: size, mtime, ctime, inode, device. */
export const identityOf = (st) => [st.size, st.mtimeMs, st.ctimeMs, st.ino, st.dev];
const sameIdentity = (a, b) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3] && a[4] === b[4];

// ---- Capture (in the scan's worker threads, where the bytes are). ------------------------------

/**
 * What the manifest keeps of a file read with the fast route: `st` (its fstat before the read),
 * `head` (its first bytes) and `window` (its last bytes, holding TsFileMetadata). Null when the
 * file was modified too recently to be trusted (RACY_MS), or its envelope cannot be read.
 */
export function keepFromWindow(st, head, window, now = Date.now(), racyMs = RACY_MS) {
  racyMs ??= RACY_MS;
  if (now - Math.max(st.mtimeMs, st.ctimeMs) < racyMs) return null;
  try {
    const [, metadataOffset] = tsfileEnvelope(st.size, head, window.subarray(Math.max(0, window.length - 10)));
    const start = st.size - window.length;
    if (metadataOffset < start) return null;
    return { id: identityOf(st), head: head.slice(0, 12), tail: window.slice(metadataOffset - start) };
  } catch {
    return null;
  }
}

/**
 * The same for a file read the usual way (openTsFile): it is opened again, and kept only when
 * its identity is still `before` (its stat before it was read). Sync, like the worker's reads.
 */
export function keepByReading(path, before, now = Date.now(), racyMs = RACY_MS) {
  racyMs ??= RACY_MS;
  let fd;
  try {
    fd = openSync(path, 'r');
    const st = fstatSync(fd);
    if (!before || !sameIdentity(identityOf(st), identityOf(before))) return null;
    const read = (offset, length) => {
      const buf = new Uint8Array(length);
      let done = 0;
      while (done < length) {
        const n = readSync(fd, buf, done, length - done, offset + done);
        if (n === 0) throw new Error('short read');
        done += n;
      }
      return buf;
    };
    const head = read(0, Math.min(st.size, 12));
    const tail10 = read(Math.max(0, st.size - 10), Math.min(st.size, 10));
    const [, metadataOffset] = tsfileEnvelope(st.size, head, tail10);
    const tail = read(metadataOffset, st.size - metadataOffset);
    if (!sameIdentity(identityOf(fstatSync(fd)), identityOf(st))) return null;
    return keepFromWindow(st, head, tail, now, racyMs);
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

// ---- The manifest file. ------------------------------------------------------------------------

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * Reads and checks a manifest file: `{body, blobs}` (the JSON body; the bytes section, whose
 * checksum `blobsOk()` checks when first needed), or null when there is none yet.
 */
export function readManifest(path) {
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    if (e.code === 'ENOENT') return null;
    throw Object.assign(manifestError(path, 'unreadable', `the manifest cannot be read (${e.code ?? e.message})`), { cause: e });
  }
  const nl = bytes.indexOf(10);
  let header = null;
  try {
    header = JSON.parse(bytes.subarray(0, nl < 0 ? Math.min(bytes.length, 4096) : nl).toString('utf8'));
  } catch {
    // not a manifest: below
  }
  if (header === null || typeof header !== 'object' || header.format !== MANIFEST_FORMAT) {
    throw manifestError(path, 'foreign', 'not a tsfile-bloom manifest (its first line is not a manifest header)');
  }
  if (!Number.isInteger(header.version) || header.version > MANIFEST_VERSION || header.version < 1) {
    throw manifestError(path, 'future_version', `a manifest of version ${header.version}; this tsfile-bloom reads version ${MANIFEST_VERSION} (scan with a new manifest file, or without --manifest)`);
  }
  const rest = bytes.subarray(nl + 1);
  if (!Number.isInteger(header.json) || !Number.isInteger(header.blobs) || rest.length !== header.json + header.blobs) {
    throw manifestError(path, 'truncated', `the manifest holds ${rest.length} bytes after its header, not the ${header.json} + ${header.blobs} it says (cut short?)`);
  }
  const json = rest.subarray(0, header.json);
  if (sha256(json) !== header.sha256) throw manifestError(path, 'corrupt', 'the manifest does not match its checksum (SHA-256)');
  let body;
  try {
    body = JSON.parse(json.toString('utf8'));
  } catch {
    body = null;
  }
  if (!body || !Array.isArray(body.entries) || !Array.isArray(body.pathSets) || !Array.isArray(body.audits) || !Array.isArray(body.targets) || !Array.isArray(body.dirs) || !Array.isArray(body.figures)) {
    throw manifestError(path, 'corrupt', 'the manifest body lacks its tables');
  }
  const blobs = rest.subarray(header.json);
  let checked = false;
  const blobsOk = () => {
    if (!checked && sha256(blobs) !== header.blobsSha256) throw manifestError(path, 'corrupt', 'the manifest bytes do not match their checksum (SHA-256)');
    checked = true;
  };
  return { body, blobs, blobsOk };
}

/** Writes a manifest at `path` (its JSON body and its bytes): a temporary file beside it, renamed over it. */
export function writeManifest(path, body, blobs) {
  const json = Buffer.from(JSON.stringify(body));
  const header = `${JSON.stringify({ format: MANIFEST_FORMAT, version: MANIFEST_VERSION, json: json.length, blobs: blobs.length, sha256: sha256(json), blobsSha256: sha256(blobs) })}\n`;
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, Buffer.concat([Buffer.from(header), json, blobs]));
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // nothing to remove
    }
    throw Object.assign(manifestError(path, 'unwritable', `the manifest cannot be written (${e.code ?? e.message})`), { cause: e });
  }
}

// An entry (arrays: a manifest of 100,000 files is parsed on every rescan):
// [dir, name, identity, figures, offset, bitsOffset, indexedItems, pathSet, verdicts, audit, blob, head, tail, past]
// the file is dirs[dir] + name; figures: index into the table of the fast scan's FIGURES
// (js/wire.js; null for NaN), whose offset and bitsOffset are the entry's own; verdicts: one code
// character per path of pathSets[pathSet] (`codes`: the verdict and what the index says of the
// path); audit: index into audits, -1 none; blob, head, tail: where the file's head and its bytes
// from TsFileMetadata to the end are in the bytes section; past: bloomInfo()'s filledPastDesign.
const E_DIR = 0;
const E_NAME = 1;
const E_ID = 2;
const E_FIGURES = 3;
const E_OFFSET = 4;
const E_BITS_OFFSET = 5;
const E_INDEXED = 6;
const E_PATHS = 7;
const E_VERDICTS = 8;
const E_AUDIT = 9;
const E_BLOB = 10;
const E_HEAD = 11;
const E_TAIL = 12;
/** bloomInfo()'s filledPastDesign: true, false or null (known only once the index was read). */
const E_PAST = 13;
const OFFSET = FIGURES.indexOf('offset');
const BITS_OFFSET = FIGURES.indexOf('bitsOffset');

/** bloomInfo() (and the version) → the fast scan's figures, so that bloomFromFigures gives it back. */
function figuresOf(version, info) {
  return FIGURES.map((k) => (k === 'version' ? version : k === 'present' ? (info.present ? 1 : 0) : k === 'encoding' ? ENCODINGS.indexOf(info.encoding) : info[k] ?? null));
}
const fromJson = (f) => f.map((x) => (x === null ? NaN : x));
const splitFile = (file) => {
  const at = file.lastIndexOf('/') + 1;
  return [file.slice(0, at), file.slice(at)];
};

const dirIdentity = (st) => [st.mtimeMs, st.ctimeMs, st.ino, st.dev];
const sameDir = (a, b) => a[1] === b[0] && a[2] === b[1] && a[3] === b[2] && a[4] === b[3];

// ---- Answers (in the scan's worker threads). ------------------------------------------------

/**
 * What a worker needs to answer from entries: the old manifest's figure sets and audits, and per
 * recorded path set how this scan's paths map onto it (`maps`: each path's place, -1 not asked
 * then), whether every path is there (`complete`) and whether it is this scan's set (`same`),
 * and `current` (this scan's set).
 */
function workerTables(body, paths, current) {
  const maps = body ? body.pathSets.map((set) => paths.map((p) => set.indexOf(p))) : [];
  // The entries as columns, cloned once into each worker (an entry per item costs more to post).
  const list = body ? body.entries : [];
  const n = list.length;
  const columns = { id: new Float64Array(5 * n), figures: new Int32Array(n), offset: new Float64Array(n), bitsOffset: new Float64Array(n), indexed: new Float64Array(n), past: new Int8Array(n), set: new Int32Array(n), audit: new Int32Array(n), verdicts: new Array(n) };
  const versions = new Map(); // an object's entry → its [kind, size, etag, lastModified] (the main thread's)
  for (let i = 0; i < n; i++) {
    const e = list[i];
    if (typeof e[E_ID][0] === 'string') {
      versions.set(i, e[E_ID]);
      columns.id.fill(NaN, 5 * i, 5 * i + 5);
    } else columns.id.set(e[E_ID], 5 * i);
    columns.figures[i] = e[E_FIGURES];
    columns.offset[i] = e[E_OFFSET] ?? NaN;
    columns.bitsOffset[i] = e[E_BITS_OFFSET] ?? NaN;
    columns.indexed[i] = e[E_INDEXED] ?? NaN;
    columns.past[i] = e[E_PAST] == null ? -1 : Number(e[E_PAST]);
    columns.set[i] = e[E_PATHS];
    columns.audit[i] = e[E_AUDIT];
    columns.verdicts[i] = e[E_VERDICTS];
  }
  return {
    versions,
    columns,
    figures: body ? body.figures : [],
    audits: body ? body.audits : [],
    maps,
    complete: maps.map((m) => m.every((i) => i >= 0)),
    same: maps.map((m, i) => i === current && m.length === body.pathSets[i].length),
    current,
  };
}

// A path's code in an entry: its verdict and, for an audited file, what the index says of it
// (scan-fp.js's `indexed` and `severalHashes`), as one character: 48 + 6 verdict + 2 indexed +
// severalHashes, indexed 0 not known, 1 listed, 2 not listed.
const codes = (results) =>
  results.map((r) => String.fromCharCode(48 + 6 * VERDICTS.indexOf(r.verdict) + (r.indexed == null ? 0 : r.indexed ? 2 : 4) + (r.indexed != null && r.severalHashes ? 1 : 0))).join('');
/** The result of path `path` from its code (codes). */
function fromCode(path, code) {
  const n = code - 48;
  const r = { path, verdict: VERDICTS[Math.floor(n / 6)] };
  const indexed = Math.floor(n / 2) % 3;
  if (indexed) {
    r.indexed = indexed === 1;
    r.severalHashes = (n & 1) === 1;
  }
  return r;
}

/**
 * The record of `item` (`{path, file, entry, blob?}`) from its manifest entry when the file's
 * identity is the recorded one: `{record, kept: {answered: true, verdicts}}` (verdicts: null when
 * the entry's stand, else this scan's codes), or `{st}` (its stat, or null: read it). `tables`
 * from workerTables (with a `templates` cache), `staged()` the count of this scan's paths staged
 * for scanTail. A path not asked before is asked of the core from the kept bytes (`item.blob`).
 */
export function answerFromEntry(item, tables, paths, staged) {
  const c = tables.columns;
  const at = item.at;
  let st;
  if (item.version) {
    // An object from a listing: its ETag, size and Last-Modified there are its identity.
    const v = tables.versions.get(at);
    if (!v || !sameVersion(v, objectIdentity(item.version))) return { st: null };
    st = { size: item.version.size };
  } else {
    try {
      st = statSync(item.path, { throwIfNoEntry: false });
    } catch {
      return { st: null };
    }
    const id = 5 * at;
    if (!st || !st.isFile() || st.size !== c.id[id] || st.mtimeMs !== c.id[id + 1] || st.ctimeMs !== c.id[id + 2] || st.ino !== c.id[id + 3] || st.dev !== c.id[id + 4]) return { st: st ?? null };
  }
  const set = c.set[at];
  const results = new Array(paths.length);
  let verdicts = null;
  if (tables.complete[set]) {
    const m = tables.maps[set];
    const v = c.verdicts[at];
    for (let i = 0; i < paths.length; i++) results[i] = fromCode(paths[i], v.charCodeAt(m[i]));
    if (!tables.same[set]) verdicts = codes(results);
  } else {
    if (!item.blob) return { st };
    let f;
    try {
      f = scanTail(st.size, item.blob.head, item.blob.tail, staged());
    } catch {
      return { st };
    }
    if (f.length === 0) return { st };
    for (let i = 0; i < paths.length; i++) results[i] = { path: paths[i], verdict: figureVerdict(f, i) };
    verdicts = codes(results);
  }
  tables.templates ??= [];
  const fig = c.figures[at];
  const t = (tables.templates[fig] ??= bloomFromFigures(fromJson(tables.figures[fig])));
  const orNull = (x) => (Number.isNaN(x) ? null : x);
  const bloomFilter = { ...t, offset: orNull(c.offset[at]), bitsOffset: orNull(c.bitsOffset[at]), indexedItems: orNull(c.indexed[at]), filledPastDesign: c.past[at] < 0 ? null : c.past[at] === 1 };
  const audit = c.audit[at] >= 0 ? { ...tables.audits[c.audit[at]] } : null;
  const record = { file: item.file, ok: true, size: st.size, version: tables.figures[fig][0], bloomFilter, results, audit, bytesRead: 0, reads: 0, error: null };
  return { record, kept: { answered: true, verdicts } };
}

/**
 * An object's identity from its listing (`{size, etag, lastModified}`): its ETag, size and
 * Last-Modified; null when it has neither ETag nor Last-Modified.
 */
export const objectIdentity = (v) => (v && ((typeof v.etag === 'string' && v.etag !== '') || typeof v.lastModified === 'string') ? ['object', v.size, v.etag || null, v.lastModified ?? null, 0] : null);
/**
 * An object listed without an ETag is recorded only when its Last-Modified is this long past
 * (stores keep it to the second, and the store's clock is not ours).
 */
export const OBJECT_RACY_MS = 60_000;
const recordable = (id, now, racyMs) => id !== null && (id[2] !== null || now - Date.parse(id[3]) >= racyMs);
const sameVersion = (a, b) => b !== null && a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];

/**
 * A byte source that keeps what it read (`reads`: [offset, bytes]), for an object read over
 * HTTP: what the manifest keeps of it comes from those reads, not from more requests.
 */
export function keepingReads(source, reads) {
  const read = source.read.bind(source);
  source.read = async (offset, length) => {
    const bytes = await read(offset, length);
    reads.push([offset, bytes]);
    return bytes;
  };
  return source;
}

/** What the manifest keeps of an object read through keepingReads: `id` its listing's identity. */
export function keepFromReads(id, size, reads) {
  if (!id || id[1] !== size) return null;
  // Bytes [offset, offset + length) from the reads (one, or several that cover them together).
  const at = (offset, length) => {
    for (const [o, b] of reads) if (offset >= o && offset + length <= o + b.length) return b.subarray(offset - o, offset - o + length);
    const out = new Uint8Array(length);
    const covered = new Uint8Array(length);
    for (const [o, b] of reads) {
      const from = Math.max(offset, o);
      const to = Math.min(offset + length, o + b.length);
      if (from >= to) continue;
      out.set(b.subarray(from - o, to - o), from - offset);
      covered.fill(1, from - offset, to - offset);
    }
    return covered.every((x) => x === 1) ? out : null;
  };
  try {
    const head = at(0, Math.min(size, 12));
    const last = at(Math.max(0, size - 10), Math.min(size, 10));
    if (!head || !last) return null;
    const [, metadataOffset] = tsfileEnvelope(size, head, last);
    const tail = at(metadataOffset, size - metadataOffset);
    return tail ? { id, head: head.slice(), tail: tail.slice() } : null;
  } catch {
    return null;
  }
}

/** A record read now and what was kept of it (keepFromWindow, keepByReading) → what the manifest records. */
export function keptFacts(record, keep) {
  if (!keep || !record.ok || !record.bloomFilter || !record.results) return null;
  return { id: keep.id, figures: figuresOf(record.version, record.bloomFilter), indexed: record.bloomFilter.indexedItems ?? null, past: record.bloomFilter.filledPastDesign ?? null, verdicts: codes(record.results), audit: record.audit, head: keep.head, tail: keep.tail };
}

/** A packed batch (openManifest's `sent`) → its items. */
export function unpackBatch({ files, at }) {
  return files.split('\0').map((f, i) => (at[i] < 0 ? { path: f, file: f } : { path: f, file: f, at: at[i] }));
}

// ---- The manifest of one scan (the main thread). -------------------------------------------------

/**
 * The manifest of one scan: `file` (its path; read now: a bad one throws here), the scan's
 * `paths`, `audit` and `maxIndexBytes`. `attach(item)` gives a local file its entry (for the
 * worker that stats it, answerFromEntry), `sent(n, items)` and `took(n, kept)` follow each
 * batch to its answer, `walkHooks` lets it replay an unchanged directory tree without reading
 * its directories, `finish(files)` writes what this scan saw (when anything changed); `stats`
 * counts answered, read and dropped files; `tables` go to the workers.
 */
export function openManifest(file, { paths = [], audit = false, maxIndexBytes, racyMs } = {}) {
  const objectRacyMs = racyMs ?? OBJECT_RACY_MS;
  racyMs ??= RACY_MS;
  if (typeof file !== 'string' || file === '') throw invalidArgument('manifest', 'manifest must be the path of a manifest file');
  if (!paths.every((p) => typeof p === 'string')) throw invalidArgument('paths', 'a scan with a manifest takes its paths as strings');
  const read = readManifest(file);
  // A manifest written with another --max-index-bytes answers nothing (that limit changes records).
  const old = read && read.body.maxIndexBytes === (maxIndexBytes ?? null) ? read : null;
  const body = old?.body;
  const dirs = body ? body.dirs : [];
  // A file → its entry's index, made on first need (a replayed tree names its entries itself).
  let byFile = null;
  const entryOf = (f) => {
    if (!byFile) {
      byFile = new Map();
      if (body) body.entries.forEach((e, i) => byFile.set(dirs[e[E_DIR]] + e[E_NAME], i));
    }
    return byFile.get(f);
  };
  const seen = new Uint8Array(body ? body.entries.length : 0);
  let seenCount = 0;
  const pathSets = body ? body.pathSets.map((x) => JSON.stringify(x)) : [];
  const audits = body ? body.audits.map((x) => JSON.stringify(x)) : [];
  const figures = body ? body.figures.map((x) => JSON.stringify(x)) : [];
  const intern = (table, value, index = null) => {
    const text = JSON.stringify(value);
    let i = index ? index.get(text) : table.indexOf(text);
    if (i === undefined || i < 0) {
      i = table.push(text) - 1;
      index?.set(text, i);
    }
    return i;
  };
  const figureIndex = new Map(figures.map((f, i) => [f, i]));
  const dirIndex = new Map(dirs.map((d, i) => [d, i]));
  const internDir = (d) => {
    let i = dirIndex.get(d);
    if (i === undefined) {
      i = dirs.push(d) - 1;
      dirIndex.set(d, i);
    }
    return i;
  };
  const current = intern(pathSets, paths);
  const tables = workerTables(body, paths, current);
  const carried = []; // entries answered (with this scan's verdicts where they changed)
  const added = []; // [entry, head, tail]
  const targets = [];
  const inFlight = new Map();
  const stats = { file, answered: 0, read: 0, dropped: 0 };
  let changed = old === null;

  /** Gives `item` ({path, file}, or {url, file, version} from a listing) its entry when it has one the scan may answer from. */
  function attach(item) {
    const at = item.at ?? entryOf(item.file);
    item.at = undefined;
    if (at === undefined || at < 0 || seen[at]) return;
    seen[at] = 1;
    seenCount++;
    const e = body.entries[at];
    const wasAudited = e[E_AUDIT] >= 0;
    // With --audit a file recorded without it is read again; recorded with it, a path not asked
    // then needs its audit (read it again too).
    if ((audit && !wasAudited) || (wasAudited && !tables.complete[e[E_PATHS]])) return;
    item.at = at;
    if (!tables.complete[e[E_PATHS]]) {
      old.blobsOk();
      const at = e[E_BLOB];
      item.blob = { head: old.blobs.slice(at, at + e[E_HEAD]), tail: old.blobs.slice(at + e[E_HEAD], at + e[E_HEAD] + e[E_TAIL]) };
    }
  }

  /** Batch `n` for a worker: its message (plain items packed: names in one string, entries in one array). */
  function sent(n, items) {
    inFlight.set(n, items);
    // (A path string holds no NUL: the file system refuses one, and the walk reports it as an error.)
    if (!items.every((x) => typeof x.path === 'string' && x.path === x.file && !x.error && !x.blob)) return { seq: n, items };
    const at = new Int32Array(items.length);
    for (let i = 0; i < items.length; i++) at[i] = items[i].at ?? -1;
    return { seq: n, packed: { files: items.map((x) => x.file).join('\0'), at } };
  }

  function took(n, kept) {
    const items = inFlight.get(n);
    inFlight.delete(n);
    if (!items || !kept) return;
    for (let i = 0; i < items.length; i++) {
      const k = kept[i];
      if (!k) continue;
      if (k.answered) {
        stats.answered++;
        const e = body.entries[items[i].at];
        if (k.verdicts === null) carried.push(e);
        else {
          changed = true;
          carried.push([...e.slice(0, E_PATHS), current, k.verdicts, ...e.slice(E_AUDIT)]);
        }
        continue;
      }
      changed = true;
      const f = k.figures;
      const at = [f[OFFSET], f[BITS_OFFSET]];
      f[OFFSET] = null;
      f[BITS_OFFSET] = null;
      const [dir, name] = splitFile(items[i].file);
      const a = k.audit ? intern(audits, k.audit) : -1;
      added.push([[internDir(dir), name, k.id, intern(figures, f, figureIndex), at[0], at[1], k.indexed, current, k.verdicts, a, 0, k.head.length, k.tail.length, k.past], k.head, k.tail]);
    }
  }

  // ---- Directory trees: replayed when no directory in them changed. ----
  const oldTargets = new Map((body?.targets ?? []).map((t) => [t.target, t]));
  let watching = null; // the target being walked: {target, dirs, files, ok}
  const walkHooks = {
    replay(target, visited) {
      watching = null;
      if (typeof target !== 'string') return null;
      const t = oldTargets.get(target);
      oldTargets.delete(target);
      if (t) {
        let same = true;
        for (const d of t.dirs) {
          let st;
          try {
            st = statSync(d[0], { throwIfNoEntry: false });
          } catch {
            st = null;
          }
          if (!st || !st.isDirectory() || !sameDir(d, dirIdentity(st))) {
            same = false;
            break;
          }
        }
        if (same) {
          targets.push(t);
          for (const d of t.dirs) visited.add(`${d[4]}:${d[3]}`);
          // [dir, name, entry] per file: the entry's index in this manifest (-1: none).
          const items = new Array(t.files.length / 3);
          for (let i = 0, j = 0; i < items.length; i++, j += 3) {
            const f = dirs[t.files[j]] + t.files[j + 1];
            items[i] = { path: f, file: f, at: t.files[j + 2] };
          }
          return items;
        }
        changed = true;
      }
      watching = { target, dirs: [], files: [], ok: true };
      targets.push(watching);
      return null;
    },
    onDirectory(dir) {
      if (!watching) return;
      let st;
      try {
        st = typeof dir === 'string' ? statSync(dir) : null;
      } catch {
        st = null;
      }
      if (!st || Date.now() - Math.max(st.mtimeMs, st.ctimeMs) < racyMs) watching.ok = false;
      else watching.dirs.push([dir, ...dirIdentity(st)]);
    },
    walked(item) {
      if (!watching) return;
      if (item.error || typeof item.path !== 'string' || item.path !== item.file) watching.ok = false;
      else {
        const [dir, name] = splitFile(item.file);
        watching.files.push(internDir(dir), name, item.file);
      }
    },
  };

  /** At the end of a scan of `files` files: writes the manifest when this scan changed anything (files read, gone, other paths). */
  function finish(files) {
    const dropped = seen.length - seenCount;
    stats.dropped = dropped;
    stats.read = files - stats.answered;
    const live = targets.filter((t) => t.ok !== false && t.dirs.length > 0);
    if (!changed && dropped === 0 && oldTargets.size === 0 && live.length === body.targets.length && carried.length === seenCount) return;
    // Bytes carried over are checked first: a corrupt manifest's bytes never get a new checksum.
    if (carried.length) old.blobsOk();
    const parts = [];
    let at = 0;
    const moved = new Map(); // an old blob's offset → its new one
    const entries = carried.map((e) => {
      let to = moved.get(e[E_BLOB]);
      if (to === undefined) {
        to = at;
        moved.set(e[E_BLOB], to);
        parts.push(old.blobs.subarray(e[E_BLOB], e[E_BLOB] + e[E_HEAD] + e[E_TAIL]));
        at += e[E_HEAD] + e[E_TAIL];
      }
      return to === e[E_BLOB] ? e : [...e.slice(0, E_BLOB), to, ...e.slice(E_HEAD)];
    });
    for (const [e, head, tail] of added) {
      e[E_BLOB] = at;
      parts.push(head, tail);
      at += head.length + tail.length;
      entries.push(e);
    }
    // Each tree's files with their entries' places in this manifest.
    const place = new Map(entries.map((e, i) => [dirs[e[E_DIR]] + e[E_NAME], i]));
    const trees = live.map(({ target, dirs: d, files: f }) => {
      const out = new Array(f.length);
      for (let j = 0; j < f.length; j += 3) {
        out[j] = f[j];
        out[j + 1] = f[j + 1];
        // A replayed tree holds its old places; a walked one its files' names.
        const file = typeof f[j + 2] === 'string' ? f[j + 2] : dirs[f[j]] + f[j + 1];
        out[j + 2] = place.get(file) ?? -1;
      }
      return { target, dirs: d, files: out };
    });
    writeManifest(file, {
      maxIndexBytes: maxIndexBytes ?? null,
      dirs,
      figures: figures.map((x) => JSON.parse(x)),
      pathSets: pathSets.map((x) => JSON.parse(x)),
      audits: audits.map((x) => JSON.parse(x)),
      targets: trees,
      entries,
    }, Buffer.concat(parts));
  }

  /**
   * An object (http(s), s3://) of batch `kept`'s scan: answered from its entry when its listing
   * says it is the one recorded, else read by `read(makeSource)` with its reads kept.
   * Returns `[record, kept]`.
   */
  async function object(item, makeSource, read) {
    if (item.at !== undefined) {
      const a = answerFromEntry(item, tables, paths, () => stagePaths(paths).count);
      if (a.record) return [a.record, a.kept];
    }
    const reads = [];
    const record = await read(async (input, options) => keepingReads(await makeSource(input, options), reads));
    const id = objectIdentity(item.version);
    return [record, recordable(id, Date.now(), objectRacyMs) && record.ok ? keptFacts(record, keepFromReads(id, record.size, reads)) : null];
  }

  return { attach, sent, took, finish, object, stats, walkHooks, tables: { ...tables, versions: undefined }, mainTables: tables };
}

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
// Where the work is: the main thread reads the manifest, replays unchanged directory trees and
// answers every file whose entry stands (answerLocal: a stat, and its output made from a
// template of its entry's group: same figures, verdicts and audit; the stats of a large replayed
// tree made ahead of it by small threads, STAT_THREAD); only files that are new or changed go to the
// scan workers — started when the first such file is found, so a rescan of an unchanged tree
// starts none — which read them and hand back what the manifest keeps (keptFacts). Objects are
// answered on the main thread.
//
// The file (version 2): one header line (JSON: format, version, the lengths and SHA-256 of its
// parts), the tables (JSON: directories, figure sets, path sets, verdict strings, audits, trees),
// the entries as binary columns (little-endian: a rescan copies them, it does not parse them),
// then the kept bytes, read only when a path not asked before needs them. Rewritten only when
// something changed, to a temporary file beside it renamed over it, so an interrupted scan
// leaves the previous manifest whole. A manifest that is not one (foreign), is cut short
// (truncated), does not match its checksums (corrupt: the tables' and columns' when read, the
// bytes' when first used), is of a later version (future_version) or of version 1, before the
// columns (old_version: delete it to scan afresh) is a typed error: kind 'manifest', `reason`,
// `path`.
import { Buffer } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { availableParallelism, endianness } from 'node:os';
import { dirname, basename, join } from 'node:path';
import { stagePaths } from './core.js';
import { scanTail, tsfileEnvelope } from '../dist/web/tsfile_bloom.js';
import { ENCODINGS, FIGURES, VERDICTS, bloomFromFigures, figureVerdict } from './wire.js';
import { invalidArgument } from './errors.js';
import { addToSummary, formatRecords, mergeSummary, newSummary } from './scan-core.js';

export const MANIFEST_FORMAT = 'tsfile-bloom-manifest';
export const MANIFEST_VERSION = 2;
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
 * file was modified too recently to be trusted (RACY_MS), or its envelope cannot be read. Its
 * bytes are views of `head` and `window` (the batch's packKept copies them).
 */
export function keepFromWindow(st, head, window, now = Date.now(), racyMs = RACY_MS) {
  racyMs ??= RACY_MS;
  if (now - Math.max(st.mtimeMs, st.ctimeMs) < racyMs) return null;
  try {
    const [, metadataOffset] = tsfileEnvelope(st.size, head, window.subarray(Math.max(0, window.length - 10)));
    const start = st.size - window.length;
    if (metadataOffset < start) return null;
    return { id: identityOf(st), head: head.subarray(0, 12), tail: window.subarray(metadataOffset - start) };
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

// node:crypto is loaded with the first manifest read or written: a process that imports the
// package, runs another command or is a scan worker does not pay its start (~12 ms).
const require = createRequire(import.meta.url);
const newSha256 = () => require('node:crypto').createHash('sha256');
const sha256 = (bytes) => newSha256().update(bytes).digest('hex');

// The entries' columns, in this order in the file: per entry one float64 of each F64 column,
// then one int32 of each I32 column (then the trees' file lists, `refs`), one int8 of each I8
// column, then the names (UTF-8, NUL-separated: a file name holds no NUL).
//   size, mtime, ctime, ino, dev: the identity (an object's: its size; ETag and Last-Modified in
//     the tables' `objects`); offset, bitsOffset, indexed: bloomInfo()'s offset, bitsOffset and
//     indexedItems (NaN for null); blob: where the entry's bytes start in the bytes section
//   dir: index into `dirs` (the file is dirs[dir] + name); fig: into `figures` (the fast scan's
//     FIGURES of js/wire.js, offset and bitsOffset left out: they are the entry's own); set: into
//     `pathSets`; verd: into `verdicts` (one code character per path of the set: `codes`);
//     audit: into `audits`, -1 none; head, tail: the lengths of its head and of its bytes from
//     TsFileMetadata to the end
//   past: bloomInfo()'s filledPastDesign (-1 null, 0, 1); kind: 0 a local file, 1 an object
const F64 = ['size', 'mtime', 'ctime', 'ino', 'dev', 'offset', 'bitsOffset', 'indexed', 'blob'];
const I32 = ['dir', 'fig', 'set', 'verd', 'audit', 'head', 'tail'];
const I8 = ['past', 'kind'];
const ALL = [...F64, ...I32, ...I8];

/** The columns of `n` entries and `r` refs in `bytes` (its buffer of its own: aligned), and where the names start. */
function columnsOf(bytes, n, r) {
  const c = {};
  let at = 0;
  for (const k of F64) {
    c[k] = new Float64Array(bytes.buffer, bytes.byteOffset + at, n);
    at += 8 * n;
  }
  for (const k of I32) {
    c[k] = new Int32Array(bytes.buffer, bytes.byteOffset + at, n);
    at += 4 * n;
  }
  c.refs = new Int32Array(bytes.buffer, bytes.byteOffset + at, r);
  at += 4 * r;
  for (const k of I8) {
    c[k] = new Int8Array(bytes.buffer, bytes.byteOffset + at, n);
    at += n;
  }
  return { c, namesAt: at };
}

const LITTLE_ENDIAN = endianness() === 'LE';

function readAt(fd, length, position) {
  const buf = Buffer.allocUnsafeSlow(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, buf, done, length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  return done === length ? buf : buf.subarray(0, done);
}

/**
 * Reads and checks a manifest file: null when there is none yet, else `{body, c, names,
 * nameBytes, blobs()}` (the tables, the columns, the names, also as their UTF-8; `blobs()`
 * reads the bytes section and checks its checksum, once).
 */
export function readManifest(path) {
  let fd;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    if (e.code === 'ENOENT') return null;
    throw Object.assign(manifestError(path, 'unreadable', `the manifest cannot be read (${e.code ?? e.message})`), { cause: e });
  }
  try {
    const size = fstatSync(fd).size;
    const first = readAt(fd, Math.min(size, 4096), 0);
    const nl = first.indexOf(10);
    let header = null;
    try {
      header = JSON.parse(first.subarray(0, nl < 0 ? first.length : nl).toString('utf8'));
    } catch {
      // not a manifest: below
    }
    if (header === null || typeof header !== 'object' || header.format !== MANIFEST_FORMAT) {
      throw manifestError(path, 'foreign', 'not a tsfile-bloom manifest (its first line is not a manifest header)');
    }
    if (!Number.isInteger(header.version) || header.version > MANIFEST_VERSION || header.version < 1) {
      throw manifestError(path, 'future_version', `a manifest of version ${header.version}; this tsfile-bloom reads version ${MANIFEST_VERSION} (scan with a new manifest file, or without --manifest)`);
    }
    if (header.version < MANIFEST_VERSION) {
      // Not read as empty: a silent full rescan of a large or remote fleet is not taken unasked.
      throw manifestError(path, 'old_version', `a manifest of version ${header.version}, written by an earlier tsfile-bloom; this one reads version ${MANIFEST_VERSION} (delete it, and the next scan writes a new one)`);
    }
    const start = nl + 1;
    const parts = [header.json, header.columns, header.blobs];
    if (!parts.every((x) => Number.isInteger(x) && x >= 0) || size - start !== parts[0] + parts[1] + parts[2]) {
      throw manifestError(path, 'truncated', `the manifest holds ${size - start} bytes after its header, not the ${parts.join(' + ')} it says (cut short?)`);
    }
    // The JSON and the columns read apart: the columns' buffer starts aligned, so typed arrays
    // are made over it, not over a copy.
    const json = readAt(fd, parts[0], start);
    const columns = readAt(fd, parts[1], start + parts[0]);
    if (json.length !== parts[0] || columns.length !== parts[1]) throw manifestError(path, 'truncated', 'the manifest was cut short while it was read');
    if (newSha256().update(json).update(columns).digest('hex') !== header.sha256) throw manifestError(path, 'corrupt', 'the manifest does not match its checksum (SHA-256)');
    let body;
    try {
      body = JSON.parse(json.toString('utf8'));
    } catch {
      body = null;
    }
    const tablesOk = body && ['dirs', 'figures', 'pathSets', 'verdicts', 'audits', 'objects', 'targets'].every((k) => Array.isArray(body[k])) && Number.isInteger(body.count) && Number.isInteger(body.refs);
    const n = tablesOk ? body.count : 0;
    if (!tablesOk || !LITTLE_ENDIAN || parts[1] < n * (8 * F64.length + 4 * I32.length + I8.length) + 4 * body.refs) {
      throw manifestError(path, 'corrupt', 'the manifest body lacks its tables');
    }
    const { c, namesAt } = columnsOf(columns, n, body.refs);
    const nameBytes = columns.subarray(namesAt);
    const names = n ? nameBytes.toString('utf8').split('\0') : [];
    if (names.length !== n) throw manifestError(path, 'corrupt', 'the manifest body lacks its tables');
    let blobs = null;
    const blobsAt = start + parts[0] + parts[1];
    const readBlobs = () => {
      if (blobs) return blobs;
      let fd2;
      try {
        fd2 = openSync(path, 'r');
        blobs = readAt(fd2, parts[2], blobsAt);
      } catch (e) {
        throw Object.assign(manifestError(path, 'unreadable', `the manifest cannot be read (${e.code ?? e.message})`), { cause: e });
      } finally {
        if (fd2 !== undefined) closeSync(fd2);
      }
      if (blobs.length !== parts[2] || sha256(blobs) !== header.blobsSha256) {
        blobs = null;
        throw manifestError(path, 'corrupt', 'the manifest bytes do not match their checksum (SHA-256)');
      }
      return blobs;
    };
    return { body, c, names, nameBytes, blobs: readBlobs };
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes a manifest at `path` (its JSON body, its columns and its bytes, each a list of typed
 * arrays, written as they are): a temporary file beside it, renamed over it.
 */
export function writeManifest(path, body, columns, blobs) {
  const json = Buffer.from(JSON.stringify(body));
  const length = (parts) => parts.reduce((a, p) => a + p.byteLength, 0);
  const headerOf = (sha256, blobsSha256) => Buffer.from(`${JSON.stringify({ format: MANIFEST_FORMAT, version: MANIFEST_VERSION, json: json.length, columns: length(columns), blobs: length(blobs), sha256, blobsSha256 })}\n`);
  // The parts are hashed and written in one pass after the header's place (a digest's hex is
  // always 64 characters, so its length is known before them), then the header.
  const headerLength = headerOf(NO_DIGEST, NO_DIGEST).length;
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  let fd;
  try {
    if (!LITTLE_ENDIAN) throw new Error('the manifest columns are little-endian; this machine is not');
    fd = openSync(tmp, 'w');
    const out = partWriter(fd, headerLength);
    const sha256 = out.section([json, ...columns]);
    const blobsSha256 = out.section(blobs);
    const header = headerOf(sha256, blobsSha256);
    if (header.length !== headerLength) throw new Error('the header changed length');
    out.write(header, 0);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
  } catch (e) {
    try {
      if (fd !== undefined) closeSync(fd);
      unlinkSync(tmp);
    } catch {
      // nothing to remove
    }
    throw Object.assign(manifestError(path, 'unwritable', `the manifest cannot be written (${e.code ?? e.message})`), { cause: e });
  }
}
const NO_DIGEST = '0'.repeat(64);
/** Parts of less than this are gathered into one buffer before they are hashed and written. */
const SMALL_PART = 1 << 16;

/**
 * Writes sections of parts to `fd` from `position` on: `section(parts)` writes them and returns
 * their SHA-256 (hex); small parts go out together (a first scan's kept bytes are two small
 * parts per file: 200,000 writes and hash updates for 100,000 files took 0.7 s, one per MiB
 * a tenth of that).
 */
function partWriter(fd, position) {
  const gather = Buffer.allocUnsafe(1 << 20);
  let gathered = 0;
  const write = (bytes, at) => {
    for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, at + done);
  };
  return {
    write,
    section(parts) {
      const hash = newSha256();
      const flush = () => {
        if (gathered === 0) return;
        const bytes = gather.subarray(0, gathered);
        hash.update(bytes);
        write(bytes, position);
        position += gathered;
        gathered = 0;
      };
      for (const part of parts) {
        const bytes = part instanceof Uint8Array ? part : new Uint8Array(part.buffer, part.byteOffset, part.byteLength);
        if (bytes.length >= SMALL_PART) {
          flush();
          hash.update(bytes);
          write(bytes, position);
          position += bytes.length;
          continue;
        }
        if (gathered + bytes.length > gather.length) flush();
        gather.set(bytes, gathered);
        gathered += bytes.length;
      }
      flush();
      return hash.digest('hex');
    },
  };
}

const OFFSET = FIGURES.indexOf('offset');
const BITS_OFFSET = FIGURES.indexOf('bitsOffset');

/** bloomInfo() (and the version) → the fast scan's figures, so that bloomFromFigures gives it back. */
function figuresOf(version, info) {
  return FIGURES.map((k) => (k === 'version' ? version : k === 'present' ? (info.present ? 1 : 0) : k === 'encoding' ? ENCODINGS.indexOf(info.encoding) : info[k] ?? null));
}
const fromJson = (f) => f.map((x) => (x === null ? NaN : x));
const orNull = (x) => (Number.isNaN(x) ? null : x);
const splitFile = (file) => {
  const at = file.lastIndexOf('/') + 1;
  return [file.slice(0, at), file.slice(at)];
};

const dirIdentity = (st) => [st.mtimeMs, st.ctimeMs, st.ino, st.dev];
const sameDir = (a, b) => a[1] === b[0] && a[2] === b[1] && a[3] === b[2] && a[4] === b[3];

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

/**
 * A scan worker's kept facts of a batch (keptFacts, or null per file) as they cross to the main
 * thread: their bytes in one buffer (transfer it), each head and tail `[start, length]` in it —
 * two typed arrays per file were 200,000 buffers cloned for 100,000 files. took() unpacks them.
 */
export function packKept(kept) {
  let size = 0;
  for (const k of kept) if (k) size += k.head.length + k.tail.length;
  const bytes = new Uint8Array(size);
  let at = 0;
  const facts = kept.map((k) => {
    if (!k) return null;
    const head = [at, k.head.length];
    bytes.set(k.head, at);
    at += k.head.length;
    const tail = [at, k.tail.length];
    bytes.set(k.tail, at);
    at += k.tail.length;
    return { ...k, head, tail };
  });
  return { facts, bytes };
}
const unpackKept = ({ facts, bytes }) => {
  for (const k of facts) {
    if (!k) continue;
    k.head = bytes.subarray(k.head[0], k.head[0] + k.head[1]);
    k.tail = bytes.subarray(k.tail[0], k.tail[0] + k.tail[1]);
  }
  return facts;
};

/** A packed batch (openManifest's `sent`) → its items. */
export function unpackBatch({ files }) {
  return files.split('\0').map((f) => ({ path: f, file: f }));
}

// ---- Output made from templates. ------------------------------------------------------------

// A group's line in a text format is made once from a record whose per-file facts are these
// stand-ins (formatRecords, so the line is the formatter's own), split where they stand; each
// file's line is the pieces with its own facts put back. A stand-in found other than exactly
// once (a constant that happens to hold one) leaves the group without a template: its files
// are formatted one by one. (A formatter that printed a figure derived from one of them would
// print the stand-in's: tests/js/manifest.test.mjs compares rescans' lines with fresh scans'.)
const STAND_IN_FILE = '\u0001tsfile-bloom-file\u0001';
const STAND_INS = [1.2345e-301, 2.3456e-302, 3.4567e-303, 4.5678e-304]; // size, offset, bitsOffset, indexed

function countOf(text, s) {
  let n = 0;
  for (let i = text.indexOf(s); i >= 0; i = text.indexOf(s, i + s.length)) n++;
  return n;
}

/** `[pieces, slots]` for `record` (its file and numbers the stand-ins) in `format`, or null. */
function templateOf(record, format, paths) {
  const text = formatRecords([record], format, paths);
  const found = [];
  const wants = [[fileText(format, STAND_IN_FILE), 0], ...STAND_INS.map((x, i) => [String(x), i + 1])];
  for (const [s, slot] of wants) {
    const n = countOf(text, s);
    if (n > 1) return null;
    if (n === 1) found.push([text.indexOf(s), s.length, slot]);
  }
  if (!found.some((f) => f[2] === 0)) return null;
  found.sort((a, b) => a[0] - b[0]);
  const pieces = [];
  const slots = [];
  let at = 0;
  for (const [pos, len, slot] of found) {
    pieces.push(text.slice(at, pos));
    slots.push(slot);
    at = pos + len;
  }
  pieces.push(text.slice(at));
  return [pieces, slots];
}

/**
 * Output written straight into one growing buffer: a template's pieces as bytes, a file name
 * as UTF-8, a number's digits (a string of many pieces costs more to flatten and encode).
 */
class TextChunk {
  constructor(lines) {
    this.buf = Buffer.allocUnsafe(Math.max(1 << 16, Math.min(lines * 768, 1 << 24)));
    this.at = 0;
  }
  /** Room for `n` more bytes. */
  room(n) {
    if (this.buf.length - this.at >= n) return;
    const more = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.at + n));
    this.buf.copy(more, 0, 0, this.at);
    this.buf = more;
  }
  add(text) {
    this.room(3 * text.length); // UTF-8 takes at most 3 bytes per UTF-16 unit
    this.at += this.buf.utf8Write(text, this.at, this.buf.length - this.at);
  }
  // (The writes below trust an earlier room() for them.)
  put(bytes) {
    this.buf.set(bytes, this.at);
    this.at += bytes.length;
  }
  /** A number as String(x) writes it (the digits by hand for a whole number below 2^32). */
  number(x) {
    if (!(x >= 0 && x < 4294967296 && x === Math.floor(x))) {
      this.at += this.buf.latin1Write(String(x), this.at);
      return;
    }
    let end = this.at + 1;
    for (let y = x; y >= 10; y = Math.floor(y / 10)) end++;
    for (let i = end - 1, y = x; i >= this.at; i--, y = Math.floor(y / 10)) this.buf[i] = 48 + (y % 10);
    this.at = end;
  }
  /** The bytes written since `from` (later writes leave them as they are: a buffer outgrown is copied, not changed). */
  bytes(from = 0) {
    return this.buf.subarray(from, this.at);
  }
}
/** Bytes a template's numbers take at most (String(x) of a float64: under 25 characters). */
const NUMBER_ROOM = 25;

const csvQuoted = /[",\r\n]/;
const JSON_ESCAPED = /[\u0000-\u001f"\\\ud800-\udfff]/;
/** A file's name as `format` writes it (JSON string, CSV cell, as it is). */
const fileText = (format, file) => (format === 'ndjson' ? JSON.stringify(file) : format === 'csv' && csvQuoted.test(file) ? `"${file.replace(/"/g, '""')}"` : file);

// ---- The manifest of one scan (the main thread). -------------------------------------------------

const NO_THROW = { throwIfNoEntry: false };

// A replayed tree's files are statted by small threads of their own (node:fs only: each starts
// in a few milliseconds), STAT_THREADS of them, ahead of this one: each takes the next chunk
// of files not yet taken and hands back its stats, and this thread answers the chunks in order,
// statting one itself only when it reaches a chunk no thread has taken yet (at the start, or
// when it catches up). Each chunk is claimed once (an atomic compare-exchange in shared
// memory), so every file is statted once, during this scan. A stat of a path is most of what
// a rescan costs per file; made in a small thread, its Stats object is cheap garbage. Per file
// a thread gives back size, mtime, ctime, inode, device and what it is (0 nothing there, 1 a
// regular file, 2 something else). Where the threads cannot start or one fails, the chunks not
// handed back are statted here.
const STAT_THREAD = `
const { parentPort } = require('node:worker_threads');
const { statSync } = require('node:fs');
const opts = { throwIfNoEntry: false };
let dirs, dirOf, names, starts;
// Entry r's name: names[starts[r], starts[r + 1] - 1) (the names are NUL-separated UTF-8).
const nameOf = (r) => {
  if (!starts) {
    starts = new Int32Array(dirOf.length + 1);
    let k = 0;
    for (let i = 0; i < names.length; i++) if (names[i] === 0) starts[++k] = i + 1;
    starts[dirOf.length] = names.length + 1;
  }
  return names.toString('utf8', starts[r], starts[r + 1] - 1);
};
parentPort.on('message', (m) => {
  if (m.dirs) {
    dirs = m.dirs;
    dirOf = m.dirOf;
    names = Buffer.from(m.names.buffer, m.names.byteOffset, m.names.byteLength);
    return;
  }
  const { id, refs, extra, chunk, claims } = m;
  const claim = new Int32Array(claims);
  for (let k = 0; k < claim.length; k++) {
    if (Atomics.compareExchange(claim, k, 0, 2) !== 0) continue;
    const from = k * chunk;
    const to = Math.min(refs.length, from + chunk);
    const out = new Float64Array(6 * (to - from));
    for (let i = from; i < to; i++) {
      const r = refs[i];
      let st;
      try { st = statSync(r >= 0 ? dirs[dirOf[r]] + nameOf(r) : extra[-r - 1], opts); } catch { st = undefined; }
      if (st === undefined) continue;
      const j = 6 * (i - from);
      out[j] = st.size; out[j + 1] = st.mtimeMs; out[j + 2] = st.ctimeMs; out[j + 3] = st.ino; out[j + 4] = st.dev; out[j + 5] = st.isFile() ? 1 : 2;
    }
    parentPort.postMessage({ id: id + k, out }, [out.buffer]);
  }
});`;
/** Files per chunk of stats; a tree of fewer files than STAT_THREAD_FILES is statted here alone (tests lower both). */
const STAT_CHUNK = 1024;
export const STAT_THREAD_FILES = 8192;
/** Items of a replayed tree per batch the walk hands on. */
const REPLAY_BATCH = 1024;
/** Stat threads: one per core, up to 4 (a stat is mostly the kernel's path walk). */
const STAT_THREADS = Math.min(4, availableParallelism());

/** Bytes a manifest's columns take per entry (a manifest smaller than this times the entries of a tree does not hold it). */
const ENTRY_BYTES = 8 * F64.length + 4 * I32.length + I8.length;
/** A copy of a typed array in shared memory (read by the stat threads, copied to none). */
function sharedCopy(a) {
  const out = new (Buffer.isBuffer(a) ? Uint8Array : a.constructor)(new SharedArrayBuffer(a.byteLength));
  out.set(a);
  return out;
}
/**
 * `count` STAT_THREAD `workers`: `post(message)` to all (first the names, then each tree), `chunks` (id → chunk
 * waiting for its stats), `close()`. When one fails, `onFail()` is called, every chunk not yet
 * handed back is settled with false (statted by the main thread) and all are ended.
 */
function startStatThreads(count, onFail) {
  const workers = [];
  const chunks = new Map();
  let live = true;
  const close = () => {
    live = false;
    for (const w of workers) w.terminate();
  };
  const fail = () => {
    if (!live) return;
    close();
    onFail();
    for (const q of chunks.values()) q.settle(false);
    chunks.clear();
  };
  try {
    for (let i = 0; i < count; i++) {
      const worker = new Worker(STAT_THREAD, { eval: true });
      worker.unref();
      worker.on('message', ({ id, out }) => {
        const q = chunks.get(id);
        if (!q) return;
        chunks.delete(id);
        q.settle(out);
      });
      worker.on('error', fail);
      worker.on('exit', fail);
      workers.push(worker);
    }
  } catch (e) {
    close();
    throw e;
  }
  const post = (message) => {
    for (const w of workers) w.postMessage(message);
  };
  return { workers, chunks, post, close };
}

/**
 * The manifest of one scan: `file` (its path; read now: a bad one throws here), the scan's
 * `targets`, `paths`, `audit`, `maxIndexBytes` and output `format`. `attach(item)` gives a local file its
 * entry, `answerLocal(items)` answers the files whose entries stand and leaves the rest to be
 * read, `sent(n, items)` and `took(n, kept)` follow each batch read to its answer, `walkHooks`
 * lets it replay an unchanged directory tree without reading its directories, `finish(files)`
 * writes what this scan saw (when anything changed), `close()` ends the stat threads; `stats`
 * counts answered, read and dropped files.
 */
export function openManifest(file, { paths = [], audit = false, maxIndexBytes, racyMs, format = 'records', statThreadFiles = STAT_THREAD_FILES, statChunk = STAT_CHUNK, statThreads = STAT_THREADS, statHere = null, statThreadsStarted = null, targets: scanTargets = [] } = {}) {
  const objectRacyMs = racyMs ?? OBJECT_RACY_MS;
  racyMs ??= RACY_MS;
  if (typeof file !== 'string' || file === '') throw invalidArgument('manifest', 'manifest must be the path of a manifest file');
  if (!paths.every((p) => typeof p === 'string')) throw invalidArgument('paths', 'a scan with a manifest takes its paths as strings');
  // The stat threads start before the manifest is read when it is large enough to hold a tree
  // they would share (statThreadFiles entries): they start up while it is read.
  let statter = null; // {workers, chunks: Map id → chunk}, or false: none (stat here)
  try {
    if (statThreads > 0 && statSync(file, NO_THROW)?.size >= statThreadFiles * ENTRY_BYTES) statter = startStatThreads(statThreads, () => (statter = false));
    if (statter) statThreadsStarted?.(statter.workers); // (tests: to make one fail)
  } catch {
    statter = null;
  }
  let read;
  try {
    read = readManifest(file);
  } catch (e) {
    statter?.close();
    throw e;
  }
  // A manifest written with another --max-index-bytes answers nothing (that limit changes records).
  const old = read && read.body.maxIndexBytes === (maxIndexBytes ?? null) ? read : null;
  const body = old?.body;
  const n = old ? body.count : 0;
  const c = old?.c;
  const names = old?.names ?? [];
  const dirs = body ? body.dirs.slice() : [];
  const oldFile = (at) => dirs[c.dir[at]] + names[at];
  // A file → its entry's index, made on first need (a replayed tree names its entries itself).
  let byFile = null;
  const entryOf = (f) => {
    if (n === 0) return undefined;
    if (!byFile) {
      byFile = new Map();
      for (let i = 0; i < n; i++) byFile.set(oldFile(i), i);
    }
    return byFile.get(f);
  };
  // An object's entry → its [kind, size, etag, lastModified].
  const versions = new Map((body?.objects ?? []).map(([i, etag, lastModified]) => [i, ['object', c.size[i], etag, lastModified]]));
  const seen = new Uint8Array(n);
  let seenCount = 0;

  // The tables, as JSON text (so that equal values are one entry); the old ones keep their places.
  const table = (list) => {
    const texts = list.map((x) => JSON.stringify(x));
    return { texts, index: new Map(texts.map((t, i) => [t, i])) };
  };
  const pathSets = table(body ? body.pathSets : []);
  const audits = table(body ? body.audits : []);
  const figures = table(body ? body.figures : []);
  const verdictTable = table(body ? body.verdicts : []);
  const intern = (t, value) => {
    const text = JSON.stringify(value);
    let i = t.index.get(text);
    if (i === undefined) {
      i = t.texts.push(text) - 1;
      t.index.set(text, i);
    }
    return i;
  };
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
  // Per recorded path set: each of this scan's paths' place in it (-1: not asked then), whether
  // every one is there (complete) and whether it is this scan's set (same).
  const oldSets = body ? body.pathSets : [];
  const maps = oldSets.map((set) => paths.map((p) => set.indexOf(p)));
  const complete = maps.map((m) => m.every((i) => i >= 0));
  const same = maps.map((m, i) => i === current && m.length === oldSets[i].length);
  const oldFigures = body ? body.figures : [];
  const oldAudits = body ? body.audits : [];
  const oldVerdicts = body ? body.verdicts : [];

  const carried = []; // old entries answered
  const carriedVerd = []; // their verdicts in this scan's path set (index into verdictTable), -1 unchanged
  const added = []; // {file, k} (keptFacts)
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
    const wasAudited = c.audit[at] >= 0;
    // With --audit a file recorded without it is read again; recorded with it, a path not asked
    // then needs its audit (read it again too).
    if ((audit && !wasAudited) || (wasAudited && !complete[c.set[at]])) return;
    item.at = at;
  }

  function carry(at, verd) {
    carried.push(at);
    carriedVerd.push(verd);
    if (verd >= 0) changed = true;
    stats.answered++;
  }

  // ---- Groups: entries with the same figures, verdicts (for this scan's paths), audit and
  // filledPastDesign make the same record but for the file, its size and its offsets. ----
  const groups = new Map();
  const mapped = new Map(); // `${set},${verd}` → this scan's codes
  function groupOf(at) {
    const set = c.set[at];
    const verd = c.verd[at];
    const mask = (Number.isNaN(c.offset[at]) ? 1 : 0) | (Number.isNaN(c.bitsOffset[at]) ? 2 : 0) | (Number.isNaN(c.indexed[at]) ? 4 : 0);
    // Keyed by small integers (two maps), not by a string made per file.
    const k1 = c.fig[at] * oldVerdicts.length + verd;
    const k2 = ((set * (oldAudits.length + 1) + c.audit[at] + 1) * 3 + c.past[at] + 1) * 8 + mask;
    let inner = groups.get(k1);
    if (inner === undefined) groups.set(k1, (inner = new Map()));
    let g = inner.get(k2);
    if (g !== undefined) return g;
    let codeText;
    if (same[set]) codeText = oldVerdicts[verd];
    else {
      const k = `${set},${verd}`;
      codeText = mapped.get(k);
      if (codeText === undefined) {
        const m = maps[set];
        const v = oldVerdicts[verd];
        codeText = paths.map((_, i) => v[m[i]]).join('');
        mapped.set(k, codeText);
      }
    }
    g = {
      ...factsOf(at),
      results: paths.map((p, i) => fromCode(p, codeText.charCodeAt(i))),
      verd: same[set] ? -1 : intern(verdictTable, codeText),
      template: undefined, // its output's template (templateFor), made with its first file
      light: null, // its record but for the file (a summary's stand-in)
      summary: null, // summaryOf, or null
      in: null, // the run of answered files it was last counted in, and how many of its files
      count: 0,
    };
    inner.set(k2, g);
    return g;
  }
  /** What an entry's record takes from its figures, audit and filledPastDesign. */
  function factsOf(at) {
    const fig = oldFigures[c.fig[at]];
    const a = c.audit[at];
    return { version: fig[0], base: bloomFromFigures(fromJson(fig)), past: c.past[at] < 0 ? null : c.past[at] === 1, audit: a >= 0 ? oldAudits[a] : null };
  }
  const recordOf = (g, file, size, at) => ({
    file,
    ok: true,
    size,
    version: g.version,
    bloomFilter: { ...g.base, offset: orNull(c.offset[at]), bitsOffset: orNull(c.bitsOffset[at]), indexedItems: orNull(c.indexed[at]), filledPastDesign: g.past },
    results: g.results.map((r) => ({ ...r })),
    audit: g.audit ? { ...g.audit } : null,
    bytesRead: 0,
    reads: 0,
    error: null,
  });
  function templateFor(g, at) {
    const s = STAND_INS;
    const r = recordOf(g, STAND_IN_FILE, s[0], at);
    const b = r.bloomFilter;
    if (b.offset !== null) b.offset = s[1];
    if (b.bitsOffset !== null) b.bitsOffset = s[2];
    if (b.indexedItems !== null) b.indexedItems = s[3];
    const t = templateOf(r, format, paths);
    if (t === null) return null;
    const bytes = t[0].map((x) => Buffer.from(x));
    return { bytes, slots: t[1], room: bytes.reduce((a, b) => a + b.length, 0) + NUMBER_ROOM * t[1].length };
  }
  // A group's summary, the same for each of its files but for its size; null when that summary
  // names the file (a false positive, a filter filled past its design): then added file by file.
  function summaryOf(g) {
    const d = newSummary(paths);
    addToSummary(d, g.light);
    d.bytesOnDisk = 0;
    return d.truth.pastDesignFiles.length || d.paths.some((p) => p.truth.falsePositiveFiles.length) ? null : d;
  }
  // This file's line from its group's template `t` into `out`. In NDJSON its name is a JSON
  // string: its directory's part made once (the name's own escaped only when it holds a
  // character JSON escapes; a surrogate too, then the whole is JSON.stringify's).
  const dirJsonBytes = [];
  function putLine(out, t, at, file, size) {
    const { bytes, slots } = t;
    // The name escaped (JSON: \uXXXX) or quoted (CSV: quotes doubled, in quotes): at most 6 bytes per UTF-16 unit, and 8.
    out.room(t.room + 6 * file.length + 8);
    out.put(bytes[0]);
    for (let j = 0; j < slots.length; j++) {
      const s = slots[j];
      if (s === 0) {
        const name = names[at];
        if (format !== 'ndjson') out.add(fileText(format, file));
        else if (JSON_ESCAPED.test(name)) out.add(JSON.stringify(file));
        else {
          const d = c.dir[at];
          out.put((dirJsonBytes[d] ??= Buffer.from(JSON.stringify(dirs[d]).slice(0, -1))));
          out.add(name);
          out.buf[out.at++] = 34; // "
        }
      } else out.number(s === 1 ? size : s === 2 ? c.offset[at] : s === 3 ? c.bitsOffset[at] : c.indexed[at]);
      out.put(bytes[j + 1]);
    }
  }

  /**
   * The record of the entry `at` for a path set it does not hold (not audited): the core asked
   * again from the kept bytes, or null (read the file).
   */
  function recordFromBytes(at, file, size) {
    if (!(c.head[at] + c.tail[at] > 0)) return null;
    const blobs = old.blobs();
    const from = c.blob[at];
    const head = blobs.subarray(from, from + c.head[at]);
    const tail = blobs.subarray(from + c.head[at], from + c.head[at] + c.tail[at]);
    let f;
    try {
      // Staged right before the call (synchronously: nothing else can stage in between).
      f = scanTail(size, head, tail, stagePaths(paths).count);
    } catch {
      return null;
    }
    if (f.length === 0) return null;
    const results = paths.map((path, i) => ({ path, verdict: figureVerdict(f, i) }));
    const record = recordOf({ ...factsOf(at), results }, file, size, at);
    return { record, verd: intern(verdictTable, codes(results)) };
  }

  // ---- Stats made by threads of their own (STAT_THREAD). ----
  let chunkId = 0;
  // Shared with the threads: the stats of each large recorded tree this scan walks.
  const shared = (body?.targets ?? []).filter((t) => t.to - t.from >= statThreadFiles && scanTargets.includes(t.target));
  if (statter && !shared.length) {
    statter.close();
    statter = false;
  }
  if (statter) statter.post({ dirs, dirOf: sharedCopy(c.dir), names: sharedCopy(old.nameBytes) });
  function shareStats(refs, t) {
    if (!statter) return null;
    const n = refs.length;
    const count = Math.ceil(n / statChunk);
    const claims = new Int32Array(new SharedArrayBuffer(4 * count));
    const base = chunkId;
    chunkId += count;
    const chunks = new Array(count);
    for (let k = 0; k < count; k++) {
      const q = { k, claims, mine: undefined, values: null, settle: null, promise: null };
      q.promise = new Promise((resolve) => {
        q.settle = (v) => {
          q.values = v;
          resolve();
        };
      });
      // (Tests: `statHere(k)` says which chunks this thread takes; it waits for the threads' others.)
      if (statHere) q.mine = statHere(k) && Atomics.compareExchange(claims, k, 0, 1) === 0;
      statter.chunks.set(base + k, q);
      chunks[k] = q;
    }
    const extra = t.extra.map(([d, name]) => dirs[d] + name);
    const message = { id: base, refs: refs.slice(), extra, chunk: statChunk, claims: claims.buffer };
    statter.post(message);
    return chunks;
  }
  // They start now, before the walk comes to a tree: one it does not replay (a directory in it
  // changed) leaves its stats unused.
  const earlyStats = new Map(shared.map((t) => [t.target, shareStats(c.refs.subarray(t.from, t.to), t)]));
  /** Ends the stat threads (the scan is over). */
  function close() {
    if (statter) statter.close();
    statter = false;
  }

  /**
   * Local files (`{path, file, at?}`, in walk order) → segments in the same order: `{output,
   * summary, noErrors: true}` for a run of files answered here (output in the scan's `format`),
   * `{items}` for a run to be read (by the workers).
   */
  async function answerLocal(items) {
    const run = { items, i: 0, segs: [], hits: null, misses: null, text: null };
    for (let wait; (wait = answerRun(run)) !== null; ) await wait;
    if (run.hits) run.segs.push(ranHits(run.hits));
    if (run.misses) run.segs.push({ items: run.misses });
    return run.segs;
  }
  // A run of answered files, closed: each group's files' summary at once (its summary times its files).
  function ranHits(h) {
    for (const g of h.groups) mergeSummary(h.summary, g.summary, g.count);
    return { output: format === 'records' ? h.output : h.output.bytes(h.from), summary: h.summary, noErrors: true };
  }
  function hitsOf(run) {
    if (run.misses) run.segs.push({ items: run.misses });
    run.misses = null;
    if (run.hits) return run.hits;
    // The runs of one call share one buffer, each its own part of it (one per run: a tree
    // with a changed file in every hundred allocated a whole batch's buffer per run).
    const output = format === 'records' ? [] : (run.text ??= new TextChunk(run.items.length - run.i));
    return (run.hits = { output, from: format === 'records' ? 0 : output.at, summary: newSummary(paths), noErrors: true, groups: [] });
  }
  function missed(run, item) {
    if (run.hits) run.segs.push(ranHits(run.hits));
    run.hits = null;
    item.at = undefined;
    item.sq = undefined;
    (run.misses ??= []).push(item);
  }
  // answerLocal's loop, synchronous (compiled apart from its awaits): from `run.i` on, to the
  // end (null) or to a chunk whose stats a thread has not handed back yet (its promise).
  function answerRun(run) {
    const { items } = run;
    for (; run.i < items.length; run.i++) {
      const item = items[run.i];
      const at = item.at;
      if (at === undefined) {
        missed(run, item);
        continue;
      }
      const q = item.sq;
      if (q !== undefined) {
        // The first file of a chunk: this thread's to stat, unless a stat thread took it.
        q.mine ??= Atomics.compareExchange(q.claims, q.k, 0, 1) === 0;
        if (!q.mine && q.values === null) return q.promise;
      }
      if (!(q !== undefined && !q.mine && q.values ? sameInChunk(q.values, 6 * item.si, at) : sameHere(item.path, at)) || c.kind[at] !== 0) {
        missed(run, item);
        continue;
      }
      const size = c.size[at];
      if (!complete[c.set[at]]) {
        answerFromBytes(run, item, at, size);
        continue;
      }
      const g = groupOf(at);
      const h = hitsOf(run);
      if (g.template === undefined) {
        g.light = recordOf(g, '', 0, at);
        g.template = format === 'records' ? null : templateFor(g, at);
        g.summary = summaryOf(g);
      }
      if (g.template !== null) putLine(h.output, g.template, at, item.file, size);
      else if (format === 'records') h.output.push(recordOf(g, item.file, size, at));
      else h.output.add(formatRecords([recordOf(g, item.file, size, at)], format, paths));
      if (g.summary === null) {
        const l = g.light;
        l.file = item.file;
        l.size = size;
        addToSummary(h.summary, l);
      } else {
        if (g.in !== h) {
          g.in = h;
          g.count = 0;
          h.groups.push(g);
        }
        g.count++;
        h.summary.bytesOnDisk += size;
      }
      carry(at, g.verd);
    }
    return null;
  }
  // Whether the file of entry `at` is the one recorded: by a stat thread's figures `v` from `j` on, or by a stat here.
  const sameInChunk = (v, j, at) => v[j + 5] === 1 && v[j] === c.size[at] && v[j + 1] === c.mtime[at] && v[j + 2] === c.ctime[at] && v[j + 3] === c.ino[at] && v[j + 4] === c.dev[at];
  function sameHere(path, at) {
    let st;
    try {
      st = statSync(path, NO_THROW);
    } catch {
      return false;
    }
    return st !== undefined && st.isFile() && st.size === c.size[at] && st.mtimeMs === c.mtime[at] && st.ctimeMs === c.ctime[at] && st.ino === c.ino[at] && st.dev === c.dev[at];
  }
  // An entry whose path set lacks one of this scan's paths: answered from its kept bytes, or read.
  function answerFromBytes(run, item, at, size) {
    const a = recordFromBytes(at, item.file, size);
    if (!a) return missed(run, item);
    const h = hitsOf(run);
    if (format === 'records') h.output.push(a.record);
    else h.output.add(formatRecords([a.record], format, paths));
    addToSummary(h.summary, a.record);
    carry(at, a.verd);
  }

  /** Batch `n` for a worker (files to read): its message (plain items packed: names in one string). */
  function sent(n, items) {
    inFlight.set(n, items);
    // (A path string holds no NUL: the file system refuses one, and the walk reports it as an error.)
    if (!items.every((x) => typeof x.path === 'string' && x.path === x.file && !x.error)) return { seq: n, items: items.map(({ at, sq, si, ...x }) => x) };
    return { seq: n, packed: { files: items.map((x) => x.file).join('\0') } };
  }

  // `kept`: per item its keptFacts or null (a scan worker's as packKept made them).
  function took(n, kept) {
    const items = inFlight.get(n);
    inFlight.delete(n);
    if (!items || !kept) return;
    if (!Array.isArray(kept)) kept = unpackKept(kept);
    for (let i = 0; i < items.length; i++) {
      const k = kept[i];
      if (!k || k.answered) continue;
      changed = true;
      added.push({ file: items[i].file, k });
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
            st = statSync(d[0], NO_THROW);
          } catch {
            st = null;
          }
          if (!st || !st.isDirectory() || !sameDir(d, dirIdentity(st))) {
            same = false;
            break;
          }
        }
        if (same) {
          const refs = c.refs.subarray(t.from, t.to);
          targets.push({ target, dirs: t.dirs, refs, extra: t.extra });
          for (const d of t.dirs) visited.add(`${d[4]}:${d[3]}`);
          // A ref: the entry's index, or (negative) a file without one (extra: [dir, name]).
          // Made a batch at a time, as the walk takes them: 100,000 items made at once would
          // outlive many a young-generation GC, each copying them.
          const chunks = earlyStats.get(target) ?? null;
          return (function* batches() {
            for (let from = 0; from < refs.length; from += REPLAY_BATCH) {
              const to = Math.min(refs.length, from + REPLAY_BATCH);
              const items = new Array(to - from);
              for (let i = from; i < to; i++) {
                const r = refs[i];
                let item;
                if (r >= 0) {
                  const f = oldFile(r);
                  item = { path: f, file: f, at: r, sq: undefined, si: 0 };
                } else {
                  const [d, name] = t.extra[-r - 1];
                  const f = dirs[d] + name;
                  item = { path: f, file: f, at: -1, sq: undefined, si: 0 };
                }
                if (chunks) {
                  item.sq = chunks[Math.floor(i / statChunk)];
                  item.si = i % statChunk;
                }
                items[i - from] = item;
              }
              yield items;
            }
          })();
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
      else watching.files.push(item.file);
    },
  };

  /** At the end of a scan of `files` files: writes the manifest when this scan changed anything (files read, gone, other paths). */
  function finish(files) {
    const dropped = n - seenCount;
    stats.dropped = dropped;
    stats.read = files - stats.answered;
    const live = targets.filter((t) => t.ok !== false && t.dirs.length > 0);
    if (!changed && dropped === 0 && oldTargets.size === 0 && live.length === body.targets.length && carried.length === seenCount) return;
    // Bytes carried over are checked first: a corrupt manifest's bytes never get a new checksum.
    const oldBlobs = carried.some((at) => c.head[at] + c.tail[at] > 0) ? old.blobs() : null;
    const N = carried.length + added.length;
    const out = {};
    for (const k of F64) out[k] = new Float64Array(N);
    for (const k of I32) out[k] = new Int32Array(N);
    for (const k of I8) out[k] = new Int8Array(N);
    const newNames = new Array(N);
    const remap = new Int32Array(n).fill(-1);
    const objects = [];
    // The carried entries column by column, their bytes as runs of the old section (entries
    // whose bytes lie one after another there are copied as one).
    for (const k of carried.length ? ALL : []) {
      const from = c[k];
      const to = out[k];
      for (let i = 0; i < carried.length; i++) to[i] = from[carried[i]];
    }
    const blobs = [];
    let blobAt = 0;
    let runFrom = 0;
    let runTo = 0;
    for (let i = 0; i < carried.length; i++) {
      const at = carried[i];
      remap[at] = i;
      if (carriedVerd[i] >= 0) {
        out.set[i] = current;
        out.verd[i] = carriedVerd[i];
      }
      newNames[i] = names[at];
      out.blob[i] = blobAt;
      if (!oldBlobs) {
        out.head[i] = 0;
        out.tail[i] = 0;
      } else if (c.head[at] + c.tail[at] > 0) {
        const from = c.blob[at];
        if (from !== runTo) {
          if (runTo > runFrom) blobs.push(oldBlobs.subarray(runFrom, runTo));
          runFrom = from;
          runTo = from;
        }
        runTo += c.head[at] + c.tail[at];
        blobAt += c.head[at] + c.tail[at];
      }
      const v = versions.get(at);
      if (v) objects.push([i, v[2], v[3]]);
    }
    if (runTo > runFrom) blobs.push(oldBlobs.subarray(runFrom, runTo));
    const putBytes = (i, head, tail) => {
      out.blob[i] = blobAt;
      out.head[i] = head.length;
      out.tail[i] = tail.length;
      blobs.push(head, tail);
      blobAt += head.length + tail.length;
    };
    added.forEach(({ file: f, k }, j) => {
      const i = carried.length + j;
      const [dir, name] = splitFile(f);
      out.dir[i] = internDir(dir);
      newNames[i] = name;
      if (k.id[0] === 'object') {
        out.kind[i] = 1;
        out.size[i] = k.id[1];
        objects.push([i, k.id[2], k.id[3]]);
        for (const x of ['mtime', 'ctime', 'ino', 'dev']) out[x][i] = NaN;
      } else [out.size[i], out.mtime[i], out.ctime[i], out.ino[i], out.dev[i]] = k.id;
      const fg = k.figures.slice();
      out.offset[i] = fg[OFFSET] ?? NaN;
      out.bitsOffset[i] = fg[BITS_OFFSET] ?? NaN;
      fg[OFFSET] = null;
      fg[BITS_OFFSET] = null;
      out.fig[i] = intern(figures, fg);
      out.indexed[i] = k.indexed ?? NaN;
      out.past[i] = k.past == null ? -1 : Number(k.past);
      out.set[i] = current;
      out.verd[i] = intern(verdictTable, k.verdicts);
      out.audit[i] = k.audit ? intern(audits, k.audit) : -1;
      putBytes(i, k.head, k.tail);
    });
    // Each tree's files: their entries' places in this manifest, or a name (extra) for a file
    // without one. A file read this time is looked up among those read (few, when few changed),
    // one answered through its old entry.
    let addedPlace = null;
    let nextAdded = carried.length;
    const placeOf = (f) => {
      // Files are read in walk order: the next one read is most often this one.
      if (nextAdded < N && added[nextAdded - carried.length].file === f) return nextAdded++;
      if (!addedPlace) {
        addedPlace = new Map();
        for (let i = carried.length; i < N; i++) addedPlace.set(dirs[out.dir[i]] + newNames[i], i);
      }
      const i = addedPlace.get(f);
      if (i !== undefined) return i;
      const at = entryOf(f);
      return at !== undefined && remap[at] >= 0 ? remap[at] : undefined;
    };
    const allRefs = [];
    const trees = live.map((t) => {
      const extra = [];
      const ref = (f) => {
        const i = placeOf(f);
        if (i !== undefined) return i;
        const [dir, name] = splitFile(f);
        extra.push([internDir(dir), name]);
        return -extra.length;
      };
      const from = allRefs.length;
      if (t.refs) {
        for (const r of t.refs) {
          if (r >= 0 && remap[r] >= 0) allRefs.push(remap[r]);
          else if (r >= 0) allRefs.push(ref(oldFile(r)));
          else {
            const [d, name] = t.extra[-r - 1];
            allRefs.push(ref(dirs[d] + name));
          }
        }
      } else for (const f of t.files) allRefs.push(ref(f));
      return { target: t.target, dirs: t.dirs, from, to: allRefs.length, extra };
    });
    const refs = Int32Array.from(allRefs);
    const nameBytes = Buffer.from(newNames.join('\0'));
    const columns = [...F64.map((k) => out[k]), ...I32.map((k) => out[k]), refs, ...I8.map((k) => out[k]), nameBytes];
    writeManifest(file, {
      maxIndexBytes: maxIndexBytes ?? null,
      count: N,
      refs: refs.length,
      dirs,
      figures: figures.texts.map((x) => JSON.parse(x)),
      pathSets: pathSets.texts.map((x) => JSON.parse(x)),
      verdicts: verdictTable.texts.map((x) => JSON.parse(x)),
      audits: audits.texts.map((x) => JSON.parse(x)),
      objects,
      targets: trees,
    }, columns, blobs);
  }

  /**
   * An object (http(s), s3://) of batch `kept`'s scan: answered from its entry when its listing
   * says it is the one recorded, else read by `read(makeSource)` with its reads kept.
   * Returns `[record, kept]`.
   */
  async function object(item, makeSource, read) {
    const at = item.at;
    if (at !== undefined) {
      const v = versions.get(at);
      if (v && sameVersion(v, objectIdentity(item.version))) {
        const size = item.version.size;
        if (complete[c.set[at]]) {
          const g = groupOf(at);
          carry(at, g.verd);
          return [recordOf(g, item.file, size, at), { answered: true }];
        }
        const a = recordFromBytes(at, item.file, size);
        if (a) {
          carry(at, a.verd);
          return [a.record, { answered: true }];
        }
      }
    }
    const reads = [];
    const record = await read(async (input, options) => keepingReads(await makeSource(input, options), reads));
    const id = objectIdentity(item.version);
    return [record, recordable(id, Date.now(), objectRacyMs) && record.ok ? keptFacts(record, keepFromReads(id, record.size, reads)) : null];
  }

  return { attach, answerLocal, sent, took, finish, object, close, stats, walkHooks };
}

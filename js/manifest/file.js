// The file (version 2): one header line (JSON: format, version, the lengths and SHA-256 of its
// parts), the tables (JSON: directories, figure sets, path sets, verdict strings, audits, trees),
// the entries as binary columns (little-endian: a rescan copies them, it does not parse them),
// then the kept bytes (used when a path not asked before needs them, copied into the next
// manifest). Checked whole when it is opened — lengths, checksums, every field
// (js/manifest/check.js) — before any answer from it; the kept bytes are held only when used. Rewritten only when something changed, to
// a temporary file beside it renamed over it, so an interrupted scan leaves the previous
// manifest whole; a writer removes the temporary files of writers no longer running. A manifest
// that is not one (foreign), is not a regular file (not_a_file), is cut short (truncated), does
// not match its checksums or fails a check (corrupt, with `field`), is of a later version
// (future_version) or of version 1, before the columns (old_version: delete it to scan afresh),
// or cannot be read or written where it is (unreadable, unwritable) is a typed error: kind
// 'manifest', `reason`, `path`. Also here: how the tables hold a record's figures (figuresOf,
// fromJson, orNull) and its verdicts, one code per path (codes, fromCode).
import { Buffer, constants as bufferConstants } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readSync, readdirSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { endianness } from 'node:os';
import { dirname, basename, join, sep } from 'node:path';
import { ENCODINGS, FIGURES, FILTER_HASHES, VERDICTS } from '../wire.js';
import { Corrupt, checkCounts, checkEntries, checkTables } from './check.js';
import { TsFileBloomError } from '../errors.js';

export const MANIFEST_FORMAT = 'tsfile-bloom-manifest';
export const MANIFEST_VERSION = 3;

/** A typed error about the manifest file: kind 'manifest', `reason`, `path` (and `field`, `cause`). */
export function manifestError(path, reason, message, more = {}) {
  return new TsFileBloomError('manifest', `${message}: ${path}`, { reason, path, ...more });
}

// node:crypto is loaded with the first manifest read or written: a process that imports the
// package, runs another command or is a scan worker does not pay its start (~12 ms).
const require = createRequire(import.meta.url);
const newSha256 = () => require('node:crypto').createHash('sha256');

// The entries' columns, in this order in the file: per entry one float64 of each F64 column,
// then one int32 of each I32 column (then the trees' file lists, `refs`), one int8 of each I8
// column, then the names (UTF-8, NUL-separated: a file name holds no NUL).
//   size, mtime, ctime, ino, dev: the identity (an object's: its size; ETag and Last-Modified in
//     the tables' `objects`); offset, bitsOffset, indexed: bloomInfo()'s offset, bitsOffset and
//     indexedItems (NaN for null); cpp: its cppSizedFor (NaN for null); blob: where the entry's bytes start in the bytes section
//   dir: index into `dirs` (the file is dirs[dir] + name); fig: into `figures` (the fast scan's
//     FIGURES of js/wire.js, offset and bitsOffset left out: they are the entry's own); set: into
//     `pathSets`; verd: into `verdicts` (one code character per path of the set: `codes`);
//     audit: into `audits`, -1 none; head, tail: the lengths of its head and of its bytes from
//     TsFileMetadata to the end
//   past: bloomInfo()'s filledPastDesign (-1 null, 0, 1); kind: 0 a local file, 1 an object
export const F64 = ['size', 'mtime', 'ctime', 'ino', 'dev', 'offset', 'bitsOffset', 'indexed', 'cpp', 'blob'];
export const I32 = ['dir', 'fig', 'set', 'verd', 'audit', 'head', 'tail'];
export const I8 = ['past', 'kind'];
export const ALL = [...F64, ...I32, ...I8];
/** Bytes a manifest's columns take per entry (a manifest smaller than this times the entries of a tree does not hold it). */
export const ENTRY_BYTES = 8 * F64.length + 4 * I32.length + I8.length;

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
const { MAX_LENGTH, MAX_STRING_LENGTH } = bufferConstants;
/** Bytes one read asks for at most (a read of 2 GiB or more is refused). */
const READ_CHUNK = 1 << 30;

function readAt(fd, length, position) {
  const buf = Buffer.allocUnsafeSlow(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, buf, done, Math.min(length - done, READ_CHUNK), position + done);
    if (n === 0) break;
    done += n;
  }
  return done === length ? buf : buf.subarray(0, done);
}

/**
 * Reads and checks a manifest file: null when there is none yet, else `{body, c, names,
 * nameBytes, verify(), blobs()}` (the tables, the columns, the names, also as their UTF-8).
 * The tables and the columns' checksum are checked here; `verify()` checks every entry and the
 * kept bytes against their checksum, and must be called before any answer from it (openManifest
 * calls it once the stat threads have their work); `blobs()` reads the kept bytes (checked
 * again: they are read when used).
 *
 * Nothing is read before it is known to fit: the file is opened without waiting (a FIFO does
 * not block) and must be a regular file; the header's lengths must add up to its size; the
 * tables may not exceed what one string holds; and the columns must be the length the tables'
 * counts make (entries, refs, names), so a sparse file that claims gigabytes is refused
 * before a byte of them is read. Then the checksums, then every field (js/manifest/check.js).
 */
export function readManifest(path) {
  let fd;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (e) {
    // None yet (ENOTDIR: nor can there be; openManifest's checkWritable says so).
    if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return null;
    throw manifestError(path, 'unreadable', `the manifest cannot be read (${e.code ?? e.message})`, { cause: e });
  }
  try {
    return readOpen(fd, path);
  } catch (e) {
    throw asManifestError(path, e);
  } finally {
    closeSync(fd);
  }
}

/** `e`, thrown while the manifest at `path` was read or checked, as a manifest error. */
function asManifestError(path, e) {
  if (e instanceof Corrupt) return manifestError(path, 'corrupt', `the manifest does not hold together (edited?): ${e.message}`, { field: e.field });
  if (e.kind === 'manifest') return e;
  return manifestError(path, 'unreadable', `the manifest cannot be read (${e.code ?? e.message})`, { cause: e });
}

/**
 * The kept bytes (`length` at `position`) checked against their checksum `digest`, and returned
 * when `keep` (else read through a small buffer: 31 MB held for a check cost a rescan of 100,000
 * files more than the hash).
 */
function readBlobs(path, length, position, digest, keep) {
  let fd;
  const hash = newSha256();
  const bytes = Buffer.allocUnsafeSlow(keep ? length : Math.min(length, 1 << 20));
  try {
    fd = openSync(path, OPEN_FLAGS);
    if (!fstatSync(fd).isFile()) throw manifestError(path, 'not_a_file', 'the manifest is no longer a regular file');
    for (let done = 0; done < length; ) {
      const at = keep ? done : 0;
      const n = readSync(fd, bytes, at, Math.min(length - done, bytes.length - at, READ_CHUNK), position + done);
      if (n === 0) throw manifestError(path, 'truncated', 'the manifest was cut short while it was read');
      hash.update(bytes.subarray(at, at + n));
      done += n;
    }
  } catch (e) {
    throw asManifestError(path, e);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (hash.digest('hex') !== digest) throw manifestError(path, 'corrupt', 'the manifest bytes do not match their checksum (SHA-256)');
  return keep ? bytes : null;
}

// O_NONBLOCK: opening a FIFO must not wait for a writer (fstat then refuses it).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const typeOf = (st) => (st.isDirectory() ? 'a directory' : st.isFIFO() ? 'a FIFO' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : st.isSocket() ? 'a socket' : 'not a regular file');
const HEX64 = /^[0-9a-f]{64}$/;

function readOpen(fd, path) {
  const st = fstatSync(fd);
  if (!st.isFile()) throw manifestError(path, 'not_a_file', `the manifest is ${typeOf(st)}, not a regular file`);
  const size = st.size;
  const first = readAt(fd, Math.min(size, 4096), 0);
  const nl = first.indexOf(10);
  const header = readHeader(path, first, nl);
  const start = nl + 1;
  const parts = [header.json, header.columns, header.blobs];
  if (size - start !== parts[0] + parts[1] + parts[2]) {
    throw manifestError(path, 'truncated', `the manifest holds ${size - start} bytes after its header, not the ${parts.join(' + ')} it says (cut short?)`);
  }
  // The tables first: their counts say how long the columns are.
  if (parts[0] > MAX_STRING_LENGTH) throw new Corrupt('json', `is ${parts[0]} bytes long, more than tables can be (one string: ${MAX_STRING_LENGTH})`);
  const json = readAt(fd, parts[0], start);
  let body;
  try {
    body = JSON.parse(json.toString('utf8'));
  } catch {
    throw new Corrupt('tables', 'are not JSON');
  }
  // (The rest of the tables once their checksum holds: an accident is told as one.)
  checkCounts(body);
  const n = body.count;
  const least = n * ENTRY_BYTES + 4 * body.refs + Math.max(0, n - 1);
  if (parts[1] < least || parts[1] > least + n * MAX_NAME_BYTES || parts[1] > MAX_LENGTH) throw new Corrupt('columns', `are ${parts[1]} bytes long; ${n} entries and ${body.refs} tree files take ${least} to ${least + n * MAX_NAME_BYTES}`);
  if (parts[2] > MAX_LENGTH) throw new Corrupt('blobs', `are ${parts[2]} bytes long, more than one buffer holds`);
  // The columns read apart: their buffer starts aligned, so typed arrays are made over it, not over a copy.
  const columns = readAt(fd, parts[1], start + parts[0]);
  if (json.length !== parts[0] || columns.length !== parts[1]) throw manifestError(path, 'truncated', 'the manifest was cut short while it was read');
  if (newSha256().update(json).update(columns).digest('hex') !== header.sha256) throw manifestError(path, 'corrupt', 'the manifest does not match its checksum (SHA-256)');
  if (!LITTLE_ENDIAN) throw manifestError(path, 'unreadable', 'the manifest columns are little-endian; this machine is not');
  checkTables(body);
  const { c, namesAt } = columnsOf(columns, n, body.refs);
  const nameBytes = columns.subarray(namesAt);
  const names = n ? nameBytes.toString('utf8').split('\0') : [];
  if (names.length !== n || (n === 0 && nameBytes.length > 0)) throw new Corrupt('names', `are ${names.length}, for ${n} entries`);
  const blobsAt = [parts[2], start + parts[0] + parts[1], header.blobsSha256];
  let blobs = null;
  return {
    body,
    c,
    names,
    nameBytes,
    // The rest of the checks, when the caller is ready for them: every entry, then the kept
    // bytes against their checksum (streamed through the hash: they are held only when used).
    verify() {
      try {
        checkEntries(body, c, parts[2], names);
      } catch (e) {
        throw asManifestError(path, e);
      }
      readBlobs(path, ...blobsAt, false);
    },
    blobs: () => (blobs ??= readBlobs(path, ...blobsAt, true)),
  };
}

/** The header line (`first`'s bytes up to `nl`): what the rest of the file is. */
function readHeader(path, first, nl) {
  let header = null;
  try {
    header = JSON.parse(first.subarray(0, nl < 0 ? first.length : nl).toString('utf8'));
  } catch {
    // not a manifest: below
  }
  if (header === null || typeof header !== 'object' || header.format !== MANIFEST_FORMAT) {
    throw manifestError(path, 'foreign', 'not a tsfile-bloom manifest (its first line is not a manifest header)');
  }
  const v = header.version;
  if (!Number.isInteger(v) || v < 1) throw new Corrupt('version', `is ${JSON.stringify(v)}, not a version number`);
  if (v > MANIFEST_VERSION) throw manifestError(path, 'future_version', `a manifest of version ${v}, written by a later tsfile-bloom; this one reads version ${MANIFEST_VERSION} (scan with a new manifest file, or without --manifest)`);
  if (v < MANIFEST_VERSION) {
    // Not read as empty: a silent full rescan of a large or remote fleet is not taken unasked.
    throw manifestError(path, 'old_version', `a manifest of version ${v}, written by an earlier tsfile-bloom; this one reads version ${MANIFEST_VERSION} (delete it, and the next scan writes a new one)`);
  }
  for (const k of ['json', 'columns', 'blobs']) if (!Number.isSafeInteger(header[k]) || header[k] < 0) throw new Corrupt(k, `is ${JSON.stringify(header[k])}, not a length in bytes`);
  for (const k of ['sha256', 'blobsSha256']) if (typeof header[k] !== 'string' || !HEX64.test(header[k])) throw new Corrupt(k, 'is not a SHA-256 digest');
  return header;
}
/**
 * A name's UTF-8 bytes at most, with its NUL, for the columns' bound: a file name is at most 255
 * (NAME_MAX), an object key 1,024 in all; 4 KiB leaves room and still refuses gigabytes.
 */
const MAX_NAME_BYTES = 4096;

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
  const tmp = tempOf(path);
  removeDeadTemps(path);
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
    throw manifestError(path, 'unwritable', `the manifest cannot be written (${e.code ?? e.message})`, { cause: e });
  }
}
const NO_DIGEST = '0'.repeat(64);

// A writer's temporary file: `.NAME.PID.tmp` beside the manifest NAME.
const tempOf = (path) => join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);

/**
 * Before a scan: the manifest can be written where it is (its directory exists and a file can
 * be made in it), so a scan is not run to its end only to find it cannot keep what it saw.
 */
export function checkWritable(path) {
  const tmp = tempOf(path);
  try {
    // A name ending in a separator is a directory's: no file can be renamed onto it.
    if (path.endsWith('/') || path.endsWith(sep)) throw Object.assign(new Error("the name is a directory's"), { code: 'ENOTDIR' });
    closeSync(openSync(tmp, 'w'));
    unlinkSync(tmp);
  } catch (e) {
    throw manifestError(path, 'unwritable', `the manifest cannot be written in its directory (${e.code ?? e.message})`, { cause: e });
  }
}

/**
 * Removes the temporary files beside the manifest at `path` of writers no longer running (a
 * scan killed while it wrote): `.NAME.PID.tmp` whose PID is not a live process. (A PID taken
 * again by another process keeps its file until that process ends; a writer on another host
 * sharing the directory is not seen, and must not share the manifest.)
 */
function removeDeadTemps(path) {
  const dir = dirname(path);
  const prefix = `.${basename(path)}.`;
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = name.slice(prefix.length, -4);
    if (!/^[1-9][0-9]{0,9}$/.test(pid) || Number(pid) === process.pid || alive(Number(pid))) continue;
    try {
      unlinkSync(join(dir, name));
    } catch {
      // gone already, or not ours to remove
    }
  }
}
/** Whether process `pid` exists (EPERM: it does, another user's). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}
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

export const OFFSET = FIGURES.indexOf('offset');
export const BITS_OFFSET = FIGURES.indexOf('bitsOffset');

/** bloomInfo() (and the version) → the fast scan's figures, so that bloomFromFigures gives it back. */
export function figuresOf(version, info) {
  return FIGURES.map((k) => (k === 'version' ? version : k === 'present' ? (info.present ? 1 : 0) : k === 'encoding' ? ENCODINGS.indexOf(info.encoding) : k === 'hash' ? (info.hash == null ? null : FILTER_HASHES.indexOf(info.hash)) : info[k] ?? null));
}
export const fromJson = (f) => f.map((x) => (x === null ? NaN : x));
export const orNull = (x) => (Number.isNaN(x) ? null : x);

// A path's code in an entry: its verdict and, for an audited file, what the index says of it
// (scan-fp.js's `indexed` and `severalHashes`), as one character: 48 + 6 verdict + 2 indexed +
// severalHashes, indexed 0 not known, 1 listed, 2 not listed.
export const codes = (results) =>
  results.map((r) => String.fromCharCode(48 + 6 * VERDICTS.indexOf(r.verdict) + (r.indexed == null ? 0 : r.indexed ? 2 : 4) + (r.indexed != null && r.severalHashes ? 1 : 0))).join('');
/** The result of path `path` from its code (codes). */
export function fromCode(path, code) {
  const n = code - 48;
  const r = { path, verdict: VERDICTS[Math.floor(n / 6)] };
  const indexed = Math.floor(n / 2) % 3;
  if (indexed) {
    r.indexed = indexed === 1;
    r.severalHashes = (n & 1) === 1;
  }
  return r;
}

// The manifest file (version 6: an audited result carries its decision): one header line (JSON: format, version, the lengths and SHA-256
// of the two parts), the body (JSON: what each file's record said, js/manifest/check.js), then the
// kept bytes (each entry's head and its bytes from TsFileMetadata to the end, one after another).
// Nothing is read before it is known to fit: the file is opened without waiting (a FIFO does not
// block) and must be a regular file, the header's lengths must add up to its size, the body may
// not exceed what one string holds, and the kept bytes must be as long as the body's entries say
// before a byte of them is read. Rewritten only when something changed, to a temporary file
// beside it (`.NAME.PID.tmp`) renamed over it, so an interrupted scan leaves the previous one
// whole; a writer removes the temporary files of writers no longer running. A manifest that is
// not one (foreign), not a regular file (not_a_file), cut short (truncated), off its checksums or
// its checks (corrupt, with `field`), of a later version (future_version) or an earlier one
// (old_version: delete it to scan afresh), or that cannot be read or written where it is
// (unreadable, unwritable) is a typed error: kind 'manifest', `reason`, `path`.
import { Buffer, constants as bufferConstants } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readSync, readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, sep } from 'node:path';
import { TsFileBloomError } from '../errors.js';
import { Corrupt, checkBody } from './check.js';

export const MANIFEST_FORMAT = 'tsfile-bloom-manifest';
export const MANIFEST_VERSION = 6;

/** A typed error about the manifest file: kind 'manifest', `reason`, `path` (and `field`, `cause`). */
export function manifestError(path, reason, message, more = {}) {
  return new TsFileBloomError('manifest', `${message}: ${path}`, { reason, path, ...more });
}

// node:crypto is loaded with the first manifest read or written: a process that imports the
// package, runs another command or is a scan worker does not pay its start.
const require = createRequire(import.meta.url);
const sha256 = (bytes) => require('node:crypto').createHash('sha256').update(bytes).digest('hex');

// O_NONBLOCK: opening a FIFO must not wait for a writer (fstat then refuses it).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const HEX64 = /^[0-9a-f]{64}$/;
const typeOf = (st) => (st.isDirectory() ? 'a directory' : st.isFIFO() ? 'a FIFO' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : st.isSocket() ? 'a socket' : 'not a regular file');

/** Reads and checks the manifest at `path`: null when there is none yet, else `{body, bytes, index}` (index: each file's entry). */
export function readManifest(path) {
  let fd;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (e) {
    // None yet (ENOTDIR: nor can there be; checkWritable says so).
    if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return null;
    throw manifestError(path, 'unreadable', `the manifest cannot be read (${e.code ?? e.message})`, { cause: e });
  }
  try {
    return readOpen(fd, path);
  } catch (e) {
    if (e.truncated) throw manifestError(path, 'truncated', 'the manifest was cut short while it was read');
    if (e instanceof Corrupt) throw manifestError(path, 'corrupt', `the manifest does not hold together (edited?): ${e.message}`, { field: e.field });
    if (e.kind === 'manifest') throw e;
    throw manifestError(path, 'unreadable', `the manifest cannot be read (${e.code ?? e.message})`, { cause: e });
  } finally {
    closeSync(fd);
  }
}

function readOpen(fd, path) {
  const st = fstatSync(fd);
  if (!st.isFile()) throw manifestError(path, 'not_a_file', `the manifest is ${typeOf(st)}, not a regular file`);
  const first = readAt(fd, Math.min(st.size, 4096), 0);
  const nl = first.indexOf(10);
  const header = readHeader(path, first.subarray(0, nl < 0 ? first.length : nl));
  const start = nl + 1;
  if (st.size - start !== header.json + header.bytes) throw manifestError(path, 'truncated', `the manifest holds ${st.size - start} bytes after its header, not the ${header.json} + ${header.bytes} it says (cut short?)`);
  if (header.json > bufferConstants.MAX_STRING_LENGTH) throw new Corrupt('json', `is ${header.json} bytes long, more than one string holds (${bufferConstants.MAX_STRING_LENGTH})`);
  const json = readAt(fd, header.json, start);
  if (sha256(json) !== header.sha256) throw manifestError(path, 'corrupt', 'the manifest does not match its checksum (SHA-256)');
  let body;
  try {
    body = JSON.parse(json.toString('utf8'));
  } catch {
    throw new Corrupt('body', 'is not JSON');
  }
  // Every field checked, and the kept bytes' length against the entries', before they are read.
  const index = checkBody(body, header.bytes);
  const bytes = readAt(fd, header.bytes, start + header.json);
  if (sha256(bytes) !== header.bytesSha256) throw manifestError(path, 'corrupt', 'the manifest bytes do not match their checksum (SHA-256)');
  return { body, bytes, index };
}

/** `length` bytes of open file `fd` at `position` (a read cut short throws). */
export function readAt(fd, length, position) {
  const buf = Buffer.allocUnsafeSlow(length);
  for (let done = 0; done < length; ) {
    const n = readSync(fd, buf, done, Math.min(length - done, 1 << 30), position + done);
    if (n === 0) throw Object.assign(new Error('cut short'), { truncated: true });
    done += n;
  }
  return buf;
}

/** The header line: what the rest of the file is. */
function readHeader(path, line) {
  let header = null;
  try {
    header = JSON.parse(line.toString('utf8'));
  } catch {
    // not a manifest: below
  }
  if (header === null || typeof header !== 'object' || header.format !== MANIFEST_FORMAT) throw manifestError(path, 'foreign', 'not a tsfile-bloom manifest (its first line is not a manifest header)');
  const v = header.version;
  if (!Number.isInteger(v) || v < 1) throw new Corrupt('version', `is ${JSON.stringify(v)}, not a version number`);
  if (v > MANIFEST_VERSION) throw manifestError(path, 'future_version', `a manifest of version ${v}, written by a later tsfile-bloom; this one reads version ${MANIFEST_VERSION} (scan with a new manifest file, or without --manifest)`);
  // Not read as empty: a silent full rescan of a large or remote fleet is not taken unasked.
  if (v < MANIFEST_VERSION) throw manifestError(path, 'old_version', `a manifest of version ${v}, written by an earlier tsfile-bloom; this one reads version ${MANIFEST_VERSION} (delete it, and the next scan writes a new one)`);
  for (const k of ['json', 'bytes']) if (!Number.isSafeInteger(header[k]) || header[k] < 0) throw new Corrupt(k, `is ${JSON.stringify(header[k])}, not a length in bytes`);
  for (const k of ['sha256', 'bytesSha256']) if (typeof header[k] !== 'string' || !HEX64.test(header[k])) throw new Corrupt(k, 'is not a SHA-256 digest');
  return header;
}

/** Writes a manifest at `path` (its body and its kept bytes): a temporary file beside it, renamed over it. */
export function writeManifest(path, body, bytes) {
  const json = Buffer.from(JSON.stringify(body));
  const header = { format: MANIFEST_FORMAT, version: MANIFEST_VERSION, json: json.length, bytes: bytes.length, sha256: sha256(json), bytesSha256: sha256(bytes) };
  const tmp = tempOf(path);
  removeDeadTemps(path);
  try {
    writeFileSync(tmp, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), json, bytes]));
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // nothing to remove
    }
    throw manifestError(path, 'unwritable', `the manifest cannot be written (${e.code ?? e.message})`, { cause: e });
  }
}

// A writer's temporary file: `.NAME.PID.tmp` beside the manifest NAME.
const tempOf = (path) => join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);

/** Before a scan: a file can be made where the manifest is (so no scan runs to its end only to find it cannot keep what it saw). */
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
 * Removes the temporary files beside the manifest of writers no longer running (a scan killed
 * while it wrote): `.NAME.PID.tmp` whose PID is no live process. (A PID taken again keeps its
 * file until that process ends; a writer on another host sharing the directory is not seen.)
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
    const pid = name.startsWith(prefix) && name.endsWith('.tmp') ? name.slice(prefix.length, -4) : '';
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

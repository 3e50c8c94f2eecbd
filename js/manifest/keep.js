// What the manifest keeps of a file read now: its identity, what its record said (keptFacts:
// version, bloomInfo(), audit, and the verdicts without their paths) and the bytes a verdict is
// made from (its head, and the file from TsFileMetadata to its end). A local file is kept in the
// scan's worker threads, where its bytes are (keepFromWindow, keepByReading), and a batch's kept
// facts cross to the main thread beside its records; an object read over HTTP is kept
// on the main thread, from the reads the scan made of it (keepingReads, keepFromReads). What may
// be kept at all: js/manifest/identity.js.
import { closeSync, fstatSync, openSync } from 'node:fs';
import { tsfileEnvelope } from '../../dist/web/tsfile_bloom.js';
import { HEAD_LENGTH as HEAD, TAIL_LENGTH as ENVELOPE_END } from '../wire.js';
import { readAt } from './file.js';
import { RACY_MS, identityOf, sameIdentity } from './identity.js';

/**
 * What the manifest keeps of a file read with the fast route: `st` (its fstat before the read),
 * `head` (its first bytes) and `window` (its last bytes, holding TsFileMetadata). Null when the
 * file was modified too recently to be trusted (RACY_MS), or its envelope cannot be read. Its
 * bytes are copies (the scan worker reads every file into the same buffers).
 */
export function keepFromWindow(st, head, window, now = Date.now(), racyMs = RACY_MS) {
  racyMs ??= RACY_MS;
  if (now - Math.max(st.mtimeMs, st.ctimeMs) < racyMs) return null;
  try {
    const [, metadataOffset] = tsfileEnvelope(st.size, head, window.subarray(Math.max(0, window.length - ENVELOPE_END)));
    const start = st.size - window.length;
    if (metadataOffset < start) return null;
    return { id: identityOf(st), head: head.slice(0, HEAD), tail: window.slice(metadataOffset - start) };
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
    const read = (offset, length) => readAt(fd, length, offset);
    const head = read(0, Math.min(st.size, HEAD));
    const end = read(Math.max(0, st.size - ENVELOPE_END), Math.min(st.size, ENVELOPE_END));
    const [, metadataOffset] = tsfileEnvelope(st.size, head, end);
    const tail = read(metadataOffset, st.size - metadataOffset);
    if (!sameIdentity(identityOf(fstatSync(fd)), identityOf(st))) return null;
    return keepFromWindow(st, head, tail, now, racyMs);
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

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
  if (!id || id[0] !== size) return null;
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
    const head = at(0, Math.min(size, HEAD));
    const last = at(Math.max(0, size - ENVELOPE_END), Math.min(size, ENVELOPE_END));
    if (!head || !last) return null;
    const [, metadataOffset] = tsfileEnvelope(size, head, last);
    const tail = at(metadataOffset, size - metadataOffset);
    return tail ? { id, head: head.slice(), tail: tail.slice() } : null;
  } catch {
    return null;
  }
}

/** A record read now and what was kept of it (keepFromWindow, keepByReading, keepFromReads) → what the manifest records. */
export function keptFacts(record, keep) {
  // A name that is not UTF-8 is read each time (its record carries its bytes, no entry does).
  if (!keep || !record.ok || !record.bloomFilter || !record.results || record.fileHex != null) return null;
  const { version, bloomFilter, audit } = record;
  return { file: record.file, id: keep.id, fact: { version, bloomFilter, audit }, results: record.results.map(({ path, ...x }) => x), head: keep.head, tail: keep.tail };
}

// Byte sources: what the readers (TsFile, LevelDB tables, the scanners) read through. A source
// is `{size, read(offset, length) → Promise<Uint8Array>, close?, release?, name?}`; this module
// makes one from a Uint8Array, an ArrayBuffer, a Blob/File or an http(s) URL (in Node,
// node-source.js adds paths and FileHandles), and checks a source's answers as a reader uses it.

import { documentUrl, httpSource, isHttpUrl } from './http-source.js';
import { isS3Url, s3Source } from './s3.js';
import { invalidArgument, TsFileBloomError } from './errors.js';
import { explainFetchFailure } from './fetch-failure.js';
import { isDetached } from './core.js';

// A page's request that fetch refused: a CORS refusal, a CSP block or a network failure, told apart
// as far as the browser allows (fetch-failure.js; elsewhere the error is left as it is).
const explained = (url, options, open) => open.catch(async (e) => Promise.reject(await explainFetchFailure(url, e, options)));

/** A source of bytes: `size` and `read(offset, length) → Promise<Uint8Array>`; http(s) and s3:// URLs resolve to one. */
export function toSource(source, options = {}) {
  if (isHttpUrl(source)) return explained(String(source instanceof URL ? source.href : source), options, httpSource(source, options));
  if (isS3Url(source)) return s3Source(source, options);
  const relative = documentUrl(source);
  if (relative) return explained(relative, options, httpSource(relative, options));
  if (ArrayBuffer.isView(source) && typeOf(source) === 'Uint8Array') {
    if (source.length === 0 && isDetached(source.buffer)) throw invalidArgument('source', 'the Uint8Array views a detached (transferred) buffer: it holds no bytes');
    const bytes = source instanceof Uint8Array ? source : new Uint8Array(source.buffer, source.byteOffset, source.length);
    return { size: bytes.length, read: async (o, n) => bytes.subarray(o, o + n), close: async () => {}, name: null };
  }
  if (typeOf(source) === 'ArrayBuffer') {
    // A transferred (detached) buffer has no bytes any more: say so rather than read 0 of them.
    if (isDetached(source)) throw invalidArgument('source', 'the ArrayBuffer is detached (it was transferred): it holds no bytes');
    return toSource(new Uint8Array(source));
  }
  if (typeof Blob !== 'undefined' && source instanceof Blob) return blobSource(source);
  if (source && typeof source.size === 'number' && typeof source.read === 'function') return source;
  throw invalidArgument('source', 'source must be a Uint8Array, ArrayBuffer, Blob/File, an http(s) URL (in a page, also one relative to it), or (in Node) a path or FileHandle');
}

/** A Blob's bytes, read a slice at a time. */
function blobSource(blob) {
  const read = blobReader(blob);
  return { size: blob.size, read: async (o, n) => read(blob.slice(o, o + n)), close: async () => {}, name: blob.name ?? null };
}

/**
 * How a Blob's slice is read: `arrayBuffer()`, else a FileReader — jsdom's Blob (Jest's jsdom
 * environment) has no `arrayBuffer()`, jsdom has FileReader. With neither the Blob is refused at
 * the door, naming what is missing.
 */
function blobReader(blob) {
  const slice = typeof blob.slice === 'function' ? blob.slice(0, 0) : null;
  if (typeof slice?.arrayBuffer === 'function') return async (part) => new Uint8Array(await part.arrayBuffer());
  if (slice && typeof FileReader === 'function') return readWithFileReader;
  const missing = slice ? 'Blob#arrayBuffer()' : 'Blob#slice()';
  throw invalidArgument('source', `this Blob has no ${missing} (and there is no FileReader), so its bytes cannot be read: pass them as a Uint8Array, or use an environment whose Blob has ${missing}`);
}

/** A Blob's bytes through FileReader: its error (a file changed on disk, say) as arrayBuffer() would reject. */
function readWithFileReader(part) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(part);
  });
}

/**
 * The built-in type of `value` ('Uint8Array', 'ArrayBuffer'), of any realm: a Node Buffer in Jest's
 * jsdom environment is another realm's Uint8Array, which `instanceof` would refuse (toSource views
 * its bytes through a Uint8Array of this realm).
 */
const typeOf = (value) => Object.prototype.toString.call(value).slice(8, -1);

/**
 * The source a reader reads through: its size checked, every read checked to return exactly the
 * bytes asked for (a custom source's mistake is a typed io error, not a TypeError deep inside),
 * and `ioCount`/`ioBytes` — the source's own (an HTTP source counts requests), else counted here.
 */
export function checkedSource(source) {
  const { size } = source;
  if (!Number.isSafeInteger(size) || size < 0) throw invalidArgument('source', `a byte source's size must be a non-negative integer, not ${String(size)}`);
  const counts = typeof source.ioCount === 'number';
  const checked = {
    size,
    name: source.name ?? null,
    ioCount: 0,
    ioBytes: 0,
    async read(offset, length) {
      if (!counts) {
        checked.ioCount++;
        checked.ioBytes += length;
      }
      const bytes = await source.read(offset, length);
      if (!(bytes instanceof Uint8Array) || bytes.length !== length) {
        const got = bytes instanceof Uint8Array ? `${bytes.length} bytes` : bytes === null ? 'null' : typeof bytes;
        throw new TsFileBloomError('io', `the byte source's read(${offset}, ${length}) returned ${got}, not ${length} bytes`, { offset });
      }
      return bytes;
    },
    close: () => source.close?.(),
    release: () => source.release?.(),
  };
  if (counts) {
    Object.defineProperty(checked, 'ioCount', { get: () => source.ioCount });
    Object.defineProperty(checked, 'ioBytes', { get: () => source.ioBytes });
  }
  return checked;
}

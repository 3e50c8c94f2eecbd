// Node sources: a path or a FileHandle, read with positional reads.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { invalidArgument, TsFileBloomError } from './errors.js';
import { toSource } from './source.js';
import { httpSource, isHttpUrl } from './http-source.js';
import { isS3Url, s3Source } from './s3.js';

// Node's own wording ("ENOENT: no such file or directory, open 'x'") becomes a plain
// sentence naming the file, with kind 'io'.
const IO_SENTENCES = {
  ENOENT: 'no such file',
  EISDIR: 'is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a parent of this path is not a directory',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
};

export function ioError(e, path) {
  const sentence = IO_SENTENCES[e?.code];
  return new TsFileBloomError('io', sentence ? `${sentence}: ${path}` : `cannot read ${path}: ${e?.message ?? e}`, { code: e?.code, path });
}

// URLs are read with node:http(s) in Node itself (js/node-http.js), s3:// objects too (signed by
// js/node-s3.js); Deno and Bun keep their fetch. Those modules, and the S3 settings' reader, are
// loaded by the first URL: a local file needs none of them. `s3Defaults`: the S3 settings
// `options.s3` does not give (a scan reads the environment's once for all its objects; by default
// the environment's).
export async function nodeSource(input, options = {}, s3Defaults = null) {
  if (isHttpUrl(input)) {
    if (options.fetch) return httpSource(input, options);
    const { NODE_HTTP, nodeHttpFetch } = await import('./node-http.js');
    return httpSource(input, NODE_HTTP ? { ...options, fetch: nodeHttpFetch } : options);
  }
  if (isS3Url(input)) {
    const environment = () => import('./s3-config.js').then((config) => config.s3ConfigFromEnvironment);
    const [{ NODE_S3 }, defaults] = await Promise.all([import('./node-s3.js'), s3Defaults ?? environment()]);
    return s3Source(input, options, defaults, NODE_S3);
  }
  // A file: URL is a path, given as a URL object or as its string ('file:///data/x.tsfile').
  if (typeof input === 'string' && FILE_URL.test(input)) input = new URL(input);
  if (typeof input === 'string' || input instanceof URL) {
    const name = input instanceof URL ? urlPath(input) : input;
    let handle;
    try {
      handle = await open(input, OPEN_FLAGS);
      const stat = await handle.stat();
      refuseNotRegular(stat, name);
      return pathSource(input, name, handle, stat);
    } catch (e) {
      await handle?.close();
      throw e.kind ? e : ioError(e, name);
    }
  }
  if (input && typeof input.read === 'function' && typeof input.stat === 'function' && typeof input.fd === 'number') {
    const stat = await input.stat();
    refuseNotRegular(stat, 'the FileHandle');
    return { ...handleSource(input, stat.size), close: async () => {}, name: null };
  }
  return toSource(input);
}

// A TsFile is a regular file. Anything else is refused by its type before a byte is read: a
// FIFO would block the read (and, opened without O_NONBLOCK, the open itself, holding one of
// libuv's four threads until a writer comes: four such opens stop every other file operation of
// the process), a device has no size (/dev/zero reads as 0 bytes, then forever). O_NONBLOCK makes
// the open of a FIFO return at once (a regular file's reads ignore it).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

const TYPES = [
  ['isFIFO', 'a FIFO'],
  ['isSocket', 'a socket'],
  ['isCharacterDevice', 'a character device'],
  ['isBlockDevice', 'a block device'],
];

/** Throws the typed `io` error for a `stat` that is not a regular file, naming `path`. */
function refuseNotRegular(stat, path) {
  if (stat.isFile()) return;
  if (stat.isDirectory()) throw ioError({ code: 'EISDIR' }, path);
  const what = TYPES.find(([is]) => stat[is]())?.[1] ?? 'not a file of any known type';
  throw new TsFileBloomError('io', `not a regular file (${what}): ${path}`, { code: 'ENOTREG', path });
}

const FILE_URL = /^file:\/\//i;

/** A URL's file path (its pathname, percent-decoded), or the typed error of a file: URL that names none. */
function urlPath(url) {
  if (url.protocol !== 'file:') return url.pathname;
  try {
    return fileURLToPath(url);
  } catch (e) {
    throw invalidArgument('source', `${url.href} names no file of this machine: ${e.message}`);
  }
}

/** The file is not the one that was opened: kind 'changed', naming the file. */
function changedError(path, sentence) {
  return new TsFileBloomError('changed', `the file changed while it was read (${sentence}): ${path}`, { path });
}

// A file opened by path holds its descriptor only while it is read: openTsFile releases it
// after opening, loadIndex after its read, so a TsFile left open holds none. Each later read
// reopens the file and checks it is the one that was opened (same inode, size and mtime); so
// does every read, after it, against a change while it ran.
function pathSource(input, name, handle, opened) {
  const same = (st) => st.ino === opened.ino && st.dev === opened.dev && st.size === opened.size && st.mtimeMs === opened.mtimeMs;
  const describe = (st) =>
    st.ino !== opened.ino || st.dev !== opened.dev
      ? 'another file now has its name'
      : st.size !== opened.size
        ? `it was ${opened.size} bytes, now ${st.size}`
        : `modified at ${new Date(st.mtimeMs).toISOString()}, after ${new Date(opened.mtimeMs).toISOString()}`;
  let current = handle;
  /** Closes the descriptor until the next read. */
  const release = async () => {
    const h = current;
    current = null;
    await h?.close();
  };
  const check = async (h) => {
    const st = await h.stat();
    if (!same(st)) throw changedError(name, describe(st));
  };
  const reader = (h) => handleSource(h, opened.size);
  return {
    size: opened.size,
    name: basename(name),
    async read(offset, length) {
      let h = current;
      if (!h) {
        try {
          // (Without waiting on a FIFO that now has the name: check() then says it changed.)
          h = current = await open(input, OPEN_FLAGS);
        } catch (e) {
          if (e?.code === 'ENOENT') throw changedError(name, 'it was removed');
          throw ioError(e, name);
        }
        await check(h);
      }
      const bytes = await reader(h).read(offset, length);
      await check(h);
      return bytes;
    },
    release,
    close: release,
  };
}

/** Positional reads through `handle.read(buffer, offset, length, position)` (a FileHandle's, or fs.read's promised); `path` names it in an error. */
export function handleSource(handle, size, path) {
  return {
    size,
    async read(offset, length) {
      const buf = new Uint8Array(length);
      let done = 0;
      while (done < length) {
        const { bytesRead } = await handle.read(buf, done, length - done, offset + done);
        if (bytesRead === 0) throw new TsFileBloomError('io', `unexpected end of file at byte ${offset + done}${path ? `: ${path}` : ''}`, { offset: offset + done, ...(path && { path }) });
        done += bytesRead;
      }
      return buf;
    },
  };
}

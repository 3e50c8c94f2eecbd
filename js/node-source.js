// Node sources: a path or a FileHandle, read with positional reads.
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { toSource } from './tsfile.js';
import { httpSource, isHttpUrl } from './http-source.js';

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
  const err = new Error(sentence ? `${sentence}: ${path}` : `cannot read ${path}: ${e?.message ?? e}`);
  err.kind = 'io';
  err.offset = null;
  err.code = e?.code;
  err.path = path;
  return err;
}

export async function nodeSource(input, options = {}) {
  if (isHttpUrl(input)) return httpSource(input, options);
  if (typeof input === 'string' || input instanceof URL) {
    const name = input instanceof URL ? input.pathname : input;
    let handle;
    try {
      handle = await open(input, 'r');
      const stat = await handle.stat();
      if (stat.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
      return { ...handleSource(handle, stat.size), close: () => handle.close(), name: basename(name) };
    } catch (e) {
      await handle?.close();
      throw ioError(e, name);
    }
  }
  if (input && typeof input.read === 'function' && typeof input.stat === 'function' && typeof input.fd === 'number') {
    const { size } = await input.stat();
    return { ...handleSource(input, size), close: async () => {}, name: null };
  }
  return toSource(input);
}

function handleSource(handle, size) {
  return {
    size,
    async read(offset, length) {
      const buf = new Uint8Array(length);
      let done = 0;
      while (done < length) {
        const { bytesRead } = await handle.read(buf, done, length - done, offset + done);
        if (bytesRead === 0) throw Object.assign(new Error(`unexpected end of file at byte ${offset + done}`), { kind: 'io', offset: offset + done });
        done += bytesRead;
      }
      return buf;
    },
  };
}

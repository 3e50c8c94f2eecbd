// Node sources: a path or a FileHandle, read with positional reads.
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { toSource } from './tsfile.js';

export async function nodeSource(input) {
  if (typeof input === 'string' || input instanceof URL) {
    const handle = await open(input, 'r');
    const { size } = await handle.stat();
    return { ...handleSource(handle, size), close: () => handle.close(), name: basename(String(input)) };
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

// Node entry: loads the wasm synchronously from the package, then exposes the API.
import { readFileSync } from 'node:fs';
import { initSync } from '../dist/web/tsfile_bloom.js';
import { openTsFile as openAny } from './tsfile.js';
import { nodeSource } from './node-source.js';
import { openLevelDbTable as openTable, setWasmBytesLoader } from './leveldb.js';
import { setCharsetsWasmReader } from './charsets.js';

initSync({ module: readFileSync(new URL('../dist/web/tsfile_bloom_bg.wasm', import.meta.url)) });
setWasmBytesLoader((url) => readFileSync(url));
// The charsets module is read (synchronously) on the first multi-byte encode.
setCharsetsWasmReader((url) => readFileSync(url));

export * from './core.js';
export { TsFile, countingSource } from './tsfile.js';
export { scanTsFiles } from './scan.js';

/** Opens a TsFile from a path, FileHandle, Uint8Array, ArrayBuffer or Blob, reading only its tail. */
export function openTsFile(source, options = {}) {
  return openAny(source, { source: nodeSource, ...options });
}
export { LevelDbTable, loadLevelDb, levelDbHelpers, isLevelDbFooter, LEVELDB_MAGIC } from './leveldb.js';

/** Opens a LevelDB table (.ldb/.sst) from a path, FileHandle, bytes or Blob. */
export function openLevelDbTable(source, options = {}) {
  return openTable(source, { source: nodeSource, ...options });
}

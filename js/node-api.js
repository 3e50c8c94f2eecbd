// The API of the server-side entries (Node, Deno): the shared API plus file paths and
// FileHandles as sources, and the worker-thread scanner. Each entry initialises the wasm
// its own way, then re-exports this.
import { openTsFile as openAny } from './tsfile.js';
import { nodeSource } from './node-source.js';
import { openLevelDbTable as openTable } from './leveldb.js';

export * from './api.js';
export { TsFile } from './tsfile.js';
export { countingSource } from './source.js';
export { scanTsFiles } from './scan.js';
export { LevelDbTable, loadLevelDb, levelDbHelpers, isLevelDbFooter, LEVELDB_MAGIC } from './leveldb.js';

/** Opens a TsFile from a path, FileHandle, URL, Uint8Array, ArrayBuffer or Blob, reading only its tail. */
export function openTsFile(source, options = {}) {
  return openAny(source, { source: nodeSource, ...options });
}

/** Opens a LevelDB table (.ldb/.sst) from a path, FileHandle, bytes or Blob. */
export function openLevelDbTable(source, options = {}) {
  return openTable(source, { source: nodeSource, ...options });
}

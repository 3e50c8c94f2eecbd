// Explicit-initialisation entry for custom loading (bundlers that do not copy
// `new URL(…, import.meta.url)` assets, CDNs, a strict CSP, workers):
//   import init, { openTsFile } from 'tsfile-bloom/web';
//   await init();                      // or init({ module_or_path: url | Response | bytes | Module })
//   await init({ module_or_path, charsets, leveldb }); // where the two lazily loaded modules are
//   initSync({ module, charsets, leveldb }); // synchronous, from bytes or compiled modules
import initTsFile, { initSync as initTsFileSync } from '../dist/web/tsfile_bloom.js';
import { charsetsWasm } from './charsets.js';
import { levelDbWasm } from './leveldb.js';

// `charsets` and `leveldb` say where those modules come from when first needed; nothing more
// is fetched now.
function locateLazy({ charsets, leveldb }) {
  if (charsets !== undefined) charsetsWasm.locate(charsets);
  if (leveldb !== undefined) levelDbWasm.locate(leveldb);
}

/**
 * Fetches and instantiates the TsFile module (by default the .wasm beside the glue). Options:
 * `module_or_path` (a URL, string, Response, bytes or WebAssembly.Module, or a promise of one),
 * and `charsets` / `leveldb`: where the two modules loaded on first use come from (same types).
 */
export default async function init(options) {
  const plain = options != null && Object.getPrototypeOf(options) === Object.prototype;
  if (plain) locateLazy(options);
  return initTsFile(plain ? { module_or_path: options.module_or_path } : options === undefined ? undefined : { module_or_path: options });
}

/** Synchronous initialisation: `module` (bytes or a WebAssembly.Module); `charsets`, `leveldb` likewise (optional). */
export function initSync(options) {
  const plain = options != null && Object.getPrototypeOf(options) === Object.prototype;
  const { module, charsets, leveldb } = plain ? options : { module: options };
  // Bytes or modules given here are compiled only when first needed.
  if (charsets !== undefined) charsetsWasm.provide(() => charsets);
  if (leveldb !== undefined) levelDbWasm.provide(() => leveldb);
  return initTsFileSync({ module });
}

export * from './api.js';
export { openTsFile, TsFile } from './tsfile.js';
export { scanTsFiles } from './scan-browser.js';
export { openLevelDbTable, LevelDbTable, loadLevelDb, isLevelDbFooter } from './leveldb.js';

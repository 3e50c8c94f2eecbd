// Browser / bundler entry: fetches and instantiates the wasm before the API is used.
import init from '../dist/web/tsfile_bloom.js';

await init({ module_or_path: new URL('../dist/web/tsfile_bloom_bg.wasm', import.meta.url) });

export * from './core.js';
export { openTsFile, TsFile, countingSource } from './tsfile.js';
export { scanTsFiles } from './scan-browser.js';
export { openLevelDbTable, LevelDbTable, loadLevelDb, levelDbHelpers, isLevelDbFooter, LEVELDB_MAGIC } from './leveldb.js';

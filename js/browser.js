// Browser / bundler entry: fetches and instantiates the wasm before the API is used. The glue's
// own default is the .wasm beside it, named as `new URL('tsfile_bloom_bg.wasm', import.meta.url)`,
// the pattern bundlers copy as an asset; nothing is computed here at import.
import init from '../dist/web/tsfile_bloom.js';

await init();

export * from './api.js';
export { openTsFile, TsFile } from './tsfile.js';
export { scanTsFiles } from './scan-browser.js';
export { openLevelDbTable, LevelDbTable, loadLevelDb, isLevelDbFooter } from './leveldb.js';

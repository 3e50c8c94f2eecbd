// Explicit-initialisation entry for custom loading (CDNs, CSP, workers):
//   import { init, BloomFilter } from 'tsfile-bloom/web';
//   await init();                       // or init({ module_or_path: url | Response | bytes })
//   initSync({ module: bytesOrModule }); // synchronous alternative
export { default, default as init, initSync } from '../dist/web/tsfile_bloom.js';
export * from './core.js';
export { openTsFile, TsFile, countingSource } from './tsfile.js';
export { scanTsFiles } from './scan-browser.js';
export { openLevelDbTable, LevelDbTable, loadLevelDb, levelDbHelpers, isLevelDbFooter, LEVELDB_MAGIC } from './leveldb.js';

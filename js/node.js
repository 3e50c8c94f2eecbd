// Node entry: loads the wasm synchronously from the package's files, then exposes the API.
import { readFileSync } from 'node:fs';
import { initSync } from '../dist/web/tsfile_bloom.js';
import { setWasmBytesLoader } from './leveldb.js';
import { setCharsetsWasmReader } from './charsets.js';
import { setScanWorkerEntry } from './scan-call.js';

initSync({ module: readFileSync(new URL('../dist/web/tsfile_bloom_bg.wasm', import.meta.url)) });
// The other two modules are read when first needed: the LevelDB one when a table is opened,
// the charsets one (synchronously) on the first multi-byte encode.
setWasmBytesLoader(() => readFileSync(new URL('../dist/web/leveldb_bg.wasm', import.meta.url)));
setCharsetsWasmReader(() => readFileSync(new URL('../dist/web/charsets_bg.wasm', import.meta.url)));
setScanWorkerEntry(import.meta.url);

export * from './node-api.js';

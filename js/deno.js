// Deno entry (the "deno" export condition): the Node entry's API, with the wasm modules
// imported as modules (`import source`, Deno >= 2.6) rather than read from disk, so bytes,
// Blobs and URLs need no --allow-read (paths need it for the files they name).
import source tsfileModule from '../dist/web/tsfile_bloom_bg.wasm';
import source leveldbModule from '../dist/web/leveldb_bg.wasm';
import source charsetsModule from '../dist/web/charsets_bg.wasm';
import { initSync } from '../dist/web/tsfile_bloom.js';
import { levelDbWasm } from './leveldb.js';
import { charsetsWasm } from './charsets.js';
import { setScanWorkerEntry } from './scan-call.js';

initSync({ module: tsfileModule });
levelDbWasm.provide(() => leveldbModule);
charsetsWasm.provide(() => charsetsModule);
setScanWorkerEntry(import.meta.url);

export * from './node-api.js';

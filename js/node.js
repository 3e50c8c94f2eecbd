// Node entry: loads the wasm synchronously from the package's files, then exposes the API.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initSync } from '../dist/web/tsfile_bloom.js';
import { levelDbWasm } from './leveldb.js';
import { charsetsWasm } from './charsets.js';
import { setScanWorkerEntry } from './scan-call.js';

// By path, not `new URL(…, import.meta.url)`: Vitest rewrites that pattern to an http: URL when it
// inlines the package in a DOM environment (jsdom, happy-dom).
const wasm = (name) => readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../dist/web', name));

initSync({ module: wasm('tsfile_bloom_bg.wasm') });
// The other two modules are read when first needed: the LevelDB one when a table is opened,
// the charsets one (synchronously) on the first multi-byte encode.
levelDbWasm.provide(() => wasm('leveldb_bg.wasm'));
charsetsWasm.provide(() => wasm('charsets_bg.wasm'));
setScanWorkerEntry(import.meta.url);

export * from './node-api.js';

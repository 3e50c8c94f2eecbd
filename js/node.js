// Node entry: loads the wasm synchronously from the package, then exposes the API.
import { readFileSync } from 'node:fs';
import { initSync } from '../dist/web/tsfile_bloom.js';

initSync({ module: readFileSync(new URL('../dist/web/tsfile_bloom_bg.wasm', import.meta.url)) });

export * from './core.js';

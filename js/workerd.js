// Cloudflare Workers entry (the "workerd" export condition, which wrangler resolves): a
// Worker imports .wasm files as compiled WebAssembly.Modules, so the three modules are
// instantiated synchronously — the TsFile one now, the other two when first needed — with
// no fetch and no import.meta.url. The API is the browser one (bytes, Blobs, URLs).
import tsfileWasm from '../dist/web/tsfile_bloom_bg.wasm';
import leveldbWasm from '../dist/web/leveldb_bg.wasm';
import charsetsWasm from '../dist/web/charsets_bg.wasm';
import { initSync } from './web.js';

initSync({ module: tsfileWasm, charsets: charsetsWasm, leveldb: leveldbWasm });

export * from './web.js';

#!/usr/bin/env node
// Drops the closure shims wasm-bindgen leaves in a module's function table, before wasm-opt.
//
// js-sys describes every closure-taking import it declares, and each description takes the
// address of an `invoke` shim (wasm_bindgen::convert::closures), so the linker puts ~40 of
// them in the indirect-function table. wasm-bindgen runs the descriptions and removes them,
// but the table entries stay; wasm-opt cannot drop a function that sits in a table, since a
// `call_indirect` might reach it. Nothing does here: JS reaches such a shim only through an
// exported table, which these modules do not have (they pass no closures to JS), and Rust
// code never calls a shim by index. Each entry is pointed at one `unreachable` function
// instead, so wasm-opt removes the shims and what only they use (~470 B gzipped on the
// TsFile module; scripts/check-size.mjs). Reads the name section wasm-bindgen keeps; a
// module without names, or without such entries, is written back unchanged.
//
//   node scripts/drop-closure-shims.mjs IN.wasm OUT.wasm FEATURE_FLAGS...

import binaryen from 'binaryen';
import { readFileSync, writeFileSync } from 'node:fs';

const [input, output, ...flags] = process.argv.slice(2);
// The same feature set wasm-opt is given (--enable-...; like wasm-opt, bulk-memory and
// reference-types imply the features binaryen split off them), so that writing the module
// back changes nothing else.
const FEATURES = {
  'bulk-memory': binaryen.Features.BulkMemory | binaryen.Features.BulkMemoryOpt,
  'nontrapping-float-to-int': binaryen.Features.NontrappingFPToInt,
  'sign-ext': binaryen.Features.SignExt,
  'mutable-globals': binaryen.Features.MutableGlobals,
  'reference-types': binaryen.Features.ReferenceTypes | binaryen.Features.CallIndirectOverlong,
  multivalue: binaryen.Features.Multivalue,
};
let features = binaryen.Features.MVP;
for (const flag of flags) {
  const f = FEATURES[flag.replace(/^--enable-/, '')];
  if (f === undefined) throw new Error(`drop-closure-shims: unknown feature flag ${flag}`);
  features |= f;
}

// Legacy or v0 symbol names (v0 adds the crate hash: `wasm_bindgen[0123abcd]::`).
const SHIM = /^wasm_bindgen(\[[0-9a-f]+\])?::convert::closures::.*::invoke(::|$)/;
const m = binaryen.readBinary(readFileSync(input));
m.setFeatures(features);
const segments = [];
for (let i = 0; i < m.getNumElementSegments(); i++) {
  segments.push(binaryen.getElementSegmentInfo(m.getElementSegmentByIndex(i)));
}
let dropped = 0;
const DEAD = 'closure_shim_dropped';
for (const seg of segments) {
  if (!seg.data.some((f) => SHIM.test(f))) continue;
  if (!m.getFunction(DEAD)) m.addFunction(DEAD, binaryen.none, binaryen.none, [], m.unreachable());
  const data = seg.data.map((f) => (SHIM.test(f) ? (dropped++, DEAD) : f));
  const offset = binaryen.getExpressionInfo(seg.offset);
  if (offset.id !== binaryen.ConstId) throw new Error('drop-closure-shims: element segment offset is not a constant');
  m.removeElementSegment(seg.name);
  m.addActiveElementSegment(seg.table, seg.name, data, m.i32.const(offset.value));
}
if (!m.validate()) throw new Error('drop-closure-shims: the rewritten module does not validate');
// Names kept (wasm-opt strips them later), so that a module built with them stays readable.
binaryen.setDebugInfo(true);
writeFileSync(output, m.emitBinary());
console.error(`[drop-closure-shims] ${input}: ${dropped} table entries of closure shims dropped`);

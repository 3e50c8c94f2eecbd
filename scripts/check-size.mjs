#!/usr/bin/env node
// Size budget for the shipped WebAssembly: every dist/web/*.wasm and dist/site/**/*.wasm
// must be at most 48 KiB (49152 bytes) after gzip -9 (Node's zlib, level 9), except the
// charsets module (JDK 17's encode tables for nine multi-byte charsets; fetched only when such
// a charset is used): 164 KiB, just above the ~159 KiB it measures; and the teaching panel's
// module (page-only, fetched by the teaching worker when the panel first needs it, not in the
// npm package): 88 KiB. It measured 81,119 B at its start: the lesson's sentences and their
// number formatting, Murmur128 at opt-level 3, LevelDB's table reader for the read-path demo,
// serde-wasm-bindgen. In the LevelDB module instead it measured 84,310 B (from 27,193): over
// that module's 48 KiB, and shipped to every npm user who opens a table. 75,720 B since the
// modules are crates of their own (below: 84,894 before; LevelDB 28,199 → 24,073, charsets
// 160,497 → 159,715).
//
// The TsFile module grew past 48 KiB when its result objects moved to serde-wasm-bindgen
// (0.2.0) and the fleet scan's one-call route (scanTail) came: 53,427 B. Measured then:
// serializing the file's info ~3 KB (info() alone is 4.1 KB of the module), serde-wasm-bindgen's
// key cache ~1 KB, the columnar listing and indexed lookup ~1.5 KB, scanTail ~1 KB (wasm-opt
// -ocimfs=0 had won back 2.5 KB). Paid back since, gzipped (gzip -9 figures):
//   52,983  the closure shims js-sys's descriptions leave in the function table dropped
//           before wasm-opt (scripts/drop-closure-shims.mjs)                       -444
//   52,219  module state in plain statics, not thread_local! (crates/wasm-common/src/lib.rs) -764
//   51,918  names joined by hand, not [&str]::join (charset, audit)                 -299
//   +354    the multi-seed hash (crates/hash: lanes, probe_many), then -717 for
//           Blocks::new out of line; the boundary's speed work about even
//   47,909  std rebuilt with the modules for size: -Zbuild-std with optimize_for_size and
//           -Cpanic=immediate-abort (scripts/build.sh; docs/toolchain.md "std for size"),
//           measured on the final tree against the same build without it (51,455)  -3,546
// Node's zlib figures from here (what this script checks; gzip -9 gives ~400 B less):
//   48,352  the start of the boundary's second round
//   49,117  the listing by device and measurement name (ListingColumns, MeasurementNames),
//           probe reasons as values formatted only on change (verdict::Reason, reason()),
//           per-record work out of line for cold runs; paid back in part by u32 listing
//           numbers, records written with extend_from_slice, and only the device shared
//           (Arc<[u8]> tables cost ~200 B of Arc code)                              +765
//   48,491  probe sentences out of the module: the reason crosses as four codes and
//           reasons.js (gone since) worded it (the core's Reason::text_listed natively; tests/reasons.rs
//           checks the two agree), with what the index says of the path and the
//           hash a forced one is measured against added                        -624
//   49,088  (the session's start)
//   49,297  every choice of a reason's words made in the core (Reason::phrase: the sentence
//           form, the charset named or not, "seed … is" / "seeds … are"; ten numbers at the
//           record's end, which reasons.js filled the form with)                      +209
//   49,132  paid back: encodeText takes a charset's code, not its name; BloomFilter#add reads
//           its key from the key area, as probe does (no slice argument)                 -162
//   49,150  the reader keeps its file's verdict rule for single probes (TsFileReader's rule:
//           choosing it per probe cost ~125 ns of a TsFile.probe())                       +18
//   49,041  BloomFilter#add is addMany of one path: the single-key add export gone        -109
//   49,008  the staged verdicts take the filter and encoder once per batch (file_verdicts) -33
//   49,120  a filter probe's record written as it is hashed (no Probe allocated), with
//           BloomFilter::for_each_probe's one body behind a dyn FnMut: each caller's own
//           inlined copy of the hashing loop was +169                                     +112
//   49,107  that body as BloomFilter::probe_into (probes into a slice, no call per seed):
//           the file probes' filter probes ~8 ns faster each                                -13
//   49,596  the experimental cheap-hash filter (issue 39): its marker decoded, FilterHash in
//           bloomInfo(), BloomFilter#hash, the scan's figures and the geometry, every probe
//           route's "unknown" with its reason and the `cheap` variant code, the audit's
//           unsupported_hash, the filter calls' unsupported_hash error; its sentences shortened
//           (-38)                                                                           +489
//   49,962  the C++ writer's sizing recognised (src/design.rs cpp_sizing_for: its ln table and
//           count of measurement-name changes; bloomInfo().cppSizedFor)                     +366
//           The budget raised to 49 KiB (50,176) for these two (issue 39)
//   50,012  the core's errors made as the package's TsFileBloomError (one import of the glue's
//           in place of Error::new and two Reflect.set: -114), a bad argument's name (one
//           byte in the error's padding; as a &'static str it was +715) (issue 40)          +50
//   44,089  each module built from a crate of its own (crates/wasm-*, issue 40): the core had
//           been every module's crate, an rlib and a cdylib at once, and cargo gives such a crate
//           no LTO, so the wasm profile's `lto = true` never applied; a module's crate is a
//           cdylib only now (tests/workspace.rs checks it)                                 -5,923
//           The budget back to 48 KiB
//   44,151  a verdict that reading the index may change says so before it is read (a phrase
//           choice, Reason::AllSet's `unsettled`; issue 40)                                  +62
//   45,328  a probe's sentence made in the core (Reason::sentence) and returned as a string
//           beside the probe record: the template engine, its tables and reasons.js gone
//           (issue 40). Tried and not kept: the probe as a serde-wasm-bindgen object (46,019 B,
//           8.3 µs a TsFile#probe against 1.1), as serde_json text (48,858 B, 13 µs)      +1,177
//   47,065  probeMany's decisions (two byte columns after the verdicts, probeStaged's flag) and the
//           synthetic filter's decision (builtFilterProbe, in place of builtFilterReason), both
//           built in one session against 0c5789c's 46,846 (issue 40)                        +219
// Tried for the phrase and not kept: its words emitted one by one through a closure
// (Reason::words) +372 to +482; the same from data templates walked in the module +486.
// Tried and not kept (gzipped): format! replaced by a hand-written text+integer writer
// +283 (core::fmt stays for serde-wasm-bindgen's paths anyway, and each message grew),
// scanTail through TsFileReader::bloom_info +37, iterator collects as plain loops +51, other
// wasm-opt flags (-Os, -O3/-O4 -s2, --gufa, --closed-world, --reorder-functions*,
// --const-hoisting, inlining limits) 0 to +1,800, opt-level "s"/2 for the crate +2,500/+3,200,
// LLVM inline thresholds +130 or more, the hash's lanes inlined at each caller +700, a probe's
// candidate hashes in a stack list instead of a Vec +153, a word-at-a-time ASCII check and bit
// positions in the hash crate (opt-level 3 unrolls them) +238.
// Prints each size; exits 1 when any module is over budget, or when there is no module to
// check (run scripts/build.sh first).
//
//   node scripts/check-size.mjs            check the built dist/
//   node scripts/check-size.mjs FILE...    check the given .wasm files instead

import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { gzipSync, constants } from 'node:zlib';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BUDGET = 48 * 1024;
/** Budgets by file name where they differ from BUDGET. */
export const BUDGETS = { 'charsets_bg.wasm': 164 * 1024, 'teach_bg.wasm': 88 * 1024 };

function wasmFiles(dir, recursive) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && recursive) out.push(...wasmFiles(path, true));
    else if (entry.isFile() && entry.name.endsWith('.wasm')) out.push(path);
  }
  return out.sort();
}

const files = process.argv.length > 2
  ? process.argv.slice(2)
  : [...wasmFiles(join(ROOT, 'dist/web'), false), ...wasmFiles(join(ROOT, 'dist/site'), true)];

if (files.length === 0) {
  console.error('check-size: no .wasm under dist/web or dist/site; run scripts/build.sh first');
  process.exit(1);
}

let over = 0;
for (const file of files) {
  const bytes = readFileSync(file);
  const gz = gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION }).length;
  const budget = BUDGETS[basename(file)] ?? BUDGET;
  const ok = gz <= budget;
  if (!ok) over++;
  const pct = ((100 * gz) / budget).toFixed(1);
  console.log(
    `${ok ? 'ok  ' : 'OVER'} ${relative(ROOT, file) || file}: ${bytes.length} bytes, ${gz} gzipped (${pct}% of ${budget})`,
  );
}
if (over) {
  console.error(`check-size: ${over} module(s) over their gzip budget`);
  process.exit(1);
}

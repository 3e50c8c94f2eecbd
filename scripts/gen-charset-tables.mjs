#!/usr/bin/env node
// Regenerates src/charset/jvm_tables.bin, the JDK's encode tables for the multi-byte
// JVM charsets, from a real JVM (needs `javac` and `java`, JDK 17):
//
//   node scripts/gen-charset-tables.mjs
//
// tests/reference/JvmCharsetMap.java prints what String.getBytes(charset) gives for every
// code point; this script compacts that into runs of code points (src/charset/mod.rs
// reads the format; it is described there too). Nothing here knows a charset's layout:
// the tables are whatever the JVM printed. The tests check the result against
// tests/fixtures/java_charsets.json (another JVM program, tests/reference/JavaCharsets.java).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'src/charset/jvm_tables.bin');

// Same order as the multi-byte charsets in src/charset/mod.rs (`Charset::table_index`).
// A charset with a base stores only the code points where it differs from the base.
const TABLES = [
  { name: 'GBK' },
  { name: 'GB18030', base: 'GBK' },
  { name: 'Big5' },
  { name: 'x-windows-950', base: 'Big5' },
  { name: 'Shift_JIS' },
  { name: 'windows-31j', base: 'Shift_JIS' },
  { name: 'EUC-JP' },
  { name: 'EUC-KR' },
  { name: 'x-windows-949', base: 'EUC-KR' },
];

// Run kinds (mod.rs has the same constants).
const LINEAR2 = 0; // code = value + i: one byte below 0x100, else two
const TABLE2 = 1; // code = codes[value + i]
const LINEAR_GB4 = 2; // GB18030 four-byte form with linear pointer value + i
const UNMAPPED = 3; // every code point of the run becomes '?' (overrides a base)
// Table sentinels: 0xFF is no lead byte in these charsets. (Not zero: wasm-opt's memory
// packing would cut zero runs out of the data segment, which then gzips worse.)
const HOLE = 0xffff; // in a table: not in this table (use the base, else '?')
const NONE = 0xfffe; // in a table: unmappable even if the base maps it

// A run costs 12 bytes, a table entry 2: linear stretches shorter than MIN_LINEAR
// stay inside a table, and a table bridges gaps of up to MAX_GAP holes (runs of zero
// compress well). Tried 4-16 × 3-96: this pair is near the smallest gzipped module
// for a raw size that stays close to the smallest.
const MIN_LINEAR = 6;
const MAX_GAP = 12;

function dumpJvm() {
  const dir = mkdtempSync(join(tmpdir(), 'jvm-charsets-'));
  try {
    execFileSync('javac', ['-d', dir, join(ROOT, 'tests/reference/JvmCharsetMap.java')]);
    return execFileSync('java', ['-cp', dir, 'JvmCharsetMap'], { maxBuffer: 256 << 20, encoding: 'latin1' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Entry: [class, code] with class 'c2' (a u16 code), 'g4' (GB18030 pointer), 'x' (unmappable).
// EUC-JP's three-byte JIS X 0212 codes 8F xx yy (xx, yy >= 0xA1) are packed into a u16
// as xx, yy - 0x80: no two-byte EUC-JP code has a second byte below 0x80.
function classify(hex, cs) {
  const b = Buffer.from(hex, 'hex');
  if (b.length === 1) return ['c2', b[0]];
  if (b.length === 2) {
    if (cs === 'EUC-JP' && b[1] < 0x80) throw new Error(`EUC-JP code ${hex} collides with the three-byte packing`);
    return ['c2', (b[0] << 8) | b[1]];
  }
  if (b.length === 3 && cs === 'EUC-JP' && b[0] === 0x8f && b[1] >= 0xa1 && b[2] >= 0xa1) return ['c2', (b[1] << 8) | (b[2] - 0x80)];
  if (b.length === 4) {
    const ok = b[0] >= 0x81 && b[0] <= 0xfe && b[1] >= 0x30 && b[1] <= 0x39 && b[2] >= 0x81 && b[2] <= 0xfe && b[3] >= 0x30 && b[3] <= 0x39;
    if (!ok) throw new Error(`unexpected four-byte code ${hex}`);
    return ['g4', (((b[0] - 0x81) * 10 + (b[1] - 0x30)) * 126 + (b[2] - 0x81)) * 10 + (b[3] - 0x30)];
  }
  throw new Error(`unexpected code ${hex}`);
}

const jvmText = dumpJvm();
const [header] = jvmText.split('\n', 1);
const maps = new Map(TABLES.map((t) => [t.name, new Map()]));
for (const line of jvmText.split('\n')) {
  if (!line || line.startsWith('#')) continue;
  const [cs, cpHex, hex] = line.split(' ');
  const cp = parseInt(cpHex, 16);
  if (cp < 0x80) {
    // Every table charset is an ASCII superset; mod.rs relies on it.
    if (hex !== cp.toString(16).padStart(2, '0')) throw new Error(`${cs} maps ASCII U+${cpHex} to ${hex}`);
    continue;
  }
  if (hex.length === 2 && hex < '80' && hex !== '5c' && hex !== '7e') throw new Error(`${cs} U+${cpHex} → ${hex}`);
  maps.get(cs).set(cp, hex);
}

/** The entries a table stores: all of them, or where it differs from its base. */
function layer({ name, base }) {
  const own = maps.get(name);
  const entries = [];
  if (!base) {
    for (const [cp, hex] of own) entries.push([cp, ...classify(hex, name)]);
  } else {
    const b = maps.get(base);
    const cps = new Set([...own.keys(), ...b.keys()]);
    for (const cp of cps) {
      const mine = own.get(cp);
      if (mine === b.get(cp)) continue;
      entries.push(mine === undefined ? [cp, 'x', NONE] : [cp, ...classify(mine, name)]);
    }
  }
  return entries.sort((a, b) => a[0] - b[0]);
}

/** Compacts sorted entries into runs [start, kind, len, value] plus a u16 code table. */
function compact(entries, codes) {
  const runs = [];
  // 1. Maximal linear stretches: consecutive code points with consecutive codes of one class.
  const stretches = [];
  for (const [cp, cls, code] of entries) {
    const s = stretches.at(-1);
    if (s && s.cls === cls && s.start + s.len === cp && (cls === 'x' || s.code + s.len === code)) s.len++;
    else stretches.push({ start: cp, cls, code, len: 1 });
  }
  // 2. Long stretches (and every GB18030 four-byte or unmappable one) become linear runs;
  //    the rest go into tables, one table run per close-enough group of the same class.
  let table = null; // {start, values: []}
  const flush = () => {
    if (!table) return;
    runs.push([table.start, TABLE2, table.values.length, codes.length]);
    codes.push(...table.values);
    table = null;
  };
  for (const s of stretches) {
    const linear = s.cls === 'g4' || (s.cls === 'x' && s.len >= MIN_LINEAR / 2) || s.len >= MIN_LINEAR;
    if (linear) {
      flush();
      const kind = { c2: LINEAR2, g4: LINEAR_GB4, x: UNMAPPED }[s.cls];
      runs.push([s.start, kind, s.len, s.cls === 'x' ? 0 : s.code]);
      continue;
    }
    const values = s.cls === 'x' ? Array(s.len).fill(NONE) : Array.from({ length: s.len }, (_, i) => s.code + i);
    const end = table ? table.start + table.values.length : 0;
    if (table && s.start - end <= MAX_GAP) {
      for (let cp = end; cp < s.start; cp++) table.values.push(HOLE);
      table.values.push(...values);
    } else {
      flush();
      table = { start: s.start, values };
    }
  }
  flush();
  for (const v of codes) if (v < 0 || v > 0xffff) throw new Error('code out of range');
  for (const [, cls, code] of entries) if (cls === 'c2' && code >= NONE) throw new Error(`code ${code} collides with a sentinel`);
  return runs;
}

// Layout (little-endian): "JVMC", version 1, table count, 2 zero bytes; a 36-byte
// directory entry per table (name NUL-padded to 16, base index or 0xFF, flags (1: EUC-JP
// three-byte packing), 2 zero bytes,
// runs offset, run count, codes offset, code count); then the runs (12 bytes each:
// first code point, kind << 24 | length, value) and the u16 codes.
const built = TABLES.map((t) => {
  const codes = [];
  const runs = compact(layer(t), codes);
  return { ...t, runs, codes };
});
const dirSize = 8 + 36 * built.length;
let size = dirSize;
for (const t of built) {
  t.runsOffset = size;
  size += 12 * t.runs.length;
  t.codesOffset = size;
  size += 2 * t.codes.length;
}
const out = Buffer.alloc(size);
out.write('JVMC', 0, 'latin1');
out[4] = 1;
out[5] = built.length;
built.forEach((t, i) => {
  const at = 8 + 36 * i;
  out.write(t.name, at, 16, 'latin1');
  out[at + 16] = t.base ? TABLES.findIndex((b) => b.name === t.base) : 0xff;
  out[at + 17] = t.name === 'EUC-JP' ? 1 : 0;
  out.writeUInt32LE(t.runsOffset, at + 20);
  out.writeUInt32LE(t.runs.length, at + 24);
  out.writeUInt32LE(t.codesOffset, at + 28);
  out.writeUInt32LE(t.codes.length, at + 32);
  t.runs.forEach(([start, kind, len, value], j) => {
    const r = t.runsOffset + 12 * j;
    if (len >= 1 << 24) throw new Error('run too long');
    out.writeUInt32LE(start, r);
    out.writeUInt32LE(((kind << 24) | len) >>> 0, r + 4);
    out.writeUInt32LE(value, r + 8);
  });
  t.codes.forEach((c, j) => out.writeUInt16LE(c, t.codesOffset + 2 * j));
});
writeFileSync(OUT, out);
for (const t of built) console.log(`${t.name}: ${t.runs.length} runs, ${t.codes.length} codes${t.base ? ` (over ${t.base})` : ''}`);
console.log(`${OUT}: ${size} bytes from ${header.slice(2)}`);

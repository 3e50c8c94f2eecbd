// The verdict-only batches (BloomFilter#mightContainMany, TsFile#mightContainMany) and the
// staging routes (strings written into wasm memory, pre-encoded {bytes, ends}) against
// probe() one path at a time, on every TsFile fixture, both tail variants and every charset.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openTsFile, BloomFilter, CHARSETS, VARIANTS, encodePath } from 'tsfile-bloom';

const DIR = new URL('../fixtures/tsfile/', import.meta.url);
const FIXTURES = readdirSync(DIR).filter((n) => n.endsWith('.tsfile')).sort();
// Apache TsFile's Java writer under UTF-8 and GBK JVMs (scripts/java/gen-java-fixtures.sh).
const JAVA_FIXTURES = ['utf8', 'gbk'].flatMap((set) =>
  readdirSync(new URL(`../fixtures/java/${set}/`, import.meta.url)).filter((n) => n.endsWith('.tsfile')).sort().map((n) => `../java/${set}/${n}`));
const utf8 = new TextEncoder();

/** `{bytes, ends}` of the given byte strings, back to back. */
function packed(list) {
  const ends = new Uint32Array(list.length);
  let pos = 0;
  list.forEach((b, i) => {
    pos += b.length;
    ends[i] = pos;
  });
  const bytes = new Uint8Array(pos);
  pos = 0;
  for (const b of list) {
    bytes.set(b, pos);
    pos += b.length;
  }
  return { bytes, ends };
}

/** The file's own paths, paths next to them that are not in it, and awkward strings. */
function pathsOf(series) {
  const out = [];
  for (const s of series.slice(0, 40)) {
    out.push(s.path, `${s.path}x`, `${s.path.slice(0, -1)}${String.fromCharCode(s.path.charCodeAt(s.path.length - 1) ^ 1)}`, `${s.path}_温度`);
  }
  for (let i = 0; i < 40; i++) out.push(`root.absent_${i}.设备.s${i}`, `root.sg${i}.d${i % 7}.s${i % 3}`, `root.é${i}.ü`);
  out.push('', '\uD800', 'root.a\uDC00b', 'root.sg.d1.\uD83D', 'root.🚀.s1', 'root.'.repeat(40));
  // Neighbours whose surrogates must stay two paths' ('?' each, never one pair across the
  // boundary: a route that joins the batch must transcode path by path), pairs at the ends of
  // the range, reversed pairs, empty strings between, long and mixed ASCII/CJK strings.
  out.push('root.a\uD83D', '\uDE80.b', '', '\uDBFF', '\uDFFF', 'root.\uD800\uDC00.\uDBFF\uDFFF', 'root.\uDC00\uD800.s', '');
  out.push('root.🚀🚀.\uD83D\uDE80', `root.${'x'.repeat(300)}.温度`, '设备'.repeat(200), `root.${'a'.repeat(7)}华${'b'.repeat(9)}.s`);
  out.push('root.华东.工厂03.风机_00003.温度_3', 'root.plant_01.line_1.turbine_00001.temperature_1', 'root.é.ü.ß.\u07FF.\u0800.\uFFFF');
  return out;
}

/** probe()'s answer as a number (0 absent, 1 maybe/unknown), or the error kind it throws. */
function expected(probe, paths) {
  try {
    return Uint8Array.from(paths, (p) => (probe(p).verdict === 'absent' ? 0 : 1));
  } catch (e) {
    return e.kind;
  }
}

function batchOrKind(fn) {
  try {
    return fn();
  } catch (e) {
    assert.ok(e.kind, `an error without a kind: ${e}`);
    return e.kind;
  }
}

test('TsFile#mightContainMany equals probe() path by path on every fixture, before and after the index', async () => {
  let opened = 0;
  const seen = [0, 0];
  for (const name of [...FIXTURES, ...JAVA_FIXTURES]) {
    let t;
    try {
      t = await openTsFile(fileURLToPath(new URL(name, DIR)));
    } catch {
      continue; // hostile files that do not open
    }
    opened++;
    let series = [];
    try {
      series = await t.series();
    } catch {
      // a broken index: the paths below still probe
    }
    // The series listing reads the index; a second, fresh handle probes before it is read.
    const fresh = await openTsFile(fileURLToPath(new URL(name, DIR)));
    const paths = pathsOf(series);
    // Pre-encoded as Java's getBytes would ('?' for a lone surrogate), the bytes a string becomes.
    const asBytes = paths.map((p) => utf8.encode(p.replace(/\p{Cs}/gu, '?')));
    for (const file of [fresh, t]) {
      for (const variant of [undefined, ...VARIANTS]) {
        for (const charset of [undefined, ...CHARSETS]) {
          const opts = { variant, charset };
          const want = expected((p) => file.probe(p, opts), paths);
          const label = `${name} index=${file === t} ${variant} ${charset}`;
          assert.deepEqual(batchOrKind(() => file.mightContainMany(paths, opts)), want, `${label}: strings`);
          assert.deepEqual(batchOrKind(() => file.mightContainMany(packed(asBytes), opts)), want, `${label}: pre-encoded`);
          assert.deepEqual(batchOrKind(() => file.mightContainMany(asBytes, opts)), want, `${label}: Uint8Arrays`);
          if (typeof want !== 'string') for (const m of want) seen[m]++;
        }
      }
    }
    await fresh.close();
    await t.close();
  }
  assert.ok(opened >= 20 + JAVA_FIXTURES.length, `expected the fixtures to open (${opened})`);
  assert.ok(seen[0] > 1000 && seen[1] > 1000, `both verdicts occur: ${seen}`);
});

test('BloomFilter#mightContainMany equals probe() on every fixture filter, both variants, every charset', async () => {
  let filters = 0;
  const seen = [0, 0];
  for (const name of [...FIXTURES, ...JAVA_FIXTURES]) {
    let t;
    try {
      t = await openTsFile(fileURLToPath(new URL(name, DIR)));
    } catch {
      continue;
    }
    const f = t.bloomFilter;
    let series = [];
    try {
      series = await t.series();
    } catch {}
    if (!f) {
      await t.close();
      continue;
    }
    filters++;
    const paths = pathsOf(series);
    for (const variant of VARIANTS) {
      for (const charset of CHARSETS) {
        const opts = { variant, charset };
        const one = paths.map((p) => f.probe(p, opts));
        const want = Uint8Array.from(one, (r) => (r.verdict === 'maybe' ? 1 : 0));
        const label = `${name} ${variant} ${charset}`;
        assert.deepEqual(f.mightContainMany(paths, opts), want, `${label}: strings`);
        assert.deepEqual(f.probeMany(paths, { ...opts, compact: true }).maybe, want, `${label}: probeMany compact`);
        // The per-seed detail (seed, hash32, bit, set) too, path by path.
        const many = f.probeMany(paths, opts);
        many.forEach((r, i) => assert.deepEqual(r.probes, one[i].probes, `${label}: probeMany ${paths[i]}`));
        // addMany sets exactly the bits add() one by one sets, in this charset too.
        const added = BloomFilter.withCapacity(paths.length + 1).addMany(paths, opts);
        const single = BloomFilter.withCapacity(paths.length + 1);
        for (const p of paths) single.add(p, opts);
        assert.deepEqual(added.encode(), single.encode(), `${label}: addMany`);
        added.free();
        single.free();
        // Pre-encoded keys are hashed as given: the charset's bytes, encoded by the caller.
        const encoded = paths.map((p) => encodePath(p, charset));
        assert.deepEqual(f.mightContainMany(packed(encoded), { variant }), want, `${label}: pre-encoded`);
        assert.deepEqual(f.mightContainMany(encoded, { variant }), want, `${label}: Uint8Arrays`);
        for (const m of want) seen[m]++;
      }
    }
    await t.close(); // frees the filter too
  }
  assert.ok(filters >= 15, `expected fixture filters (${filters})`);
  assert.ok(seen[0] > 1000 && seen[1] > 1000, `both verdicts occur: ${seen}`);
});

test('strings staged in one batch hash exactly as add() one by one (lone surrogates, astral, long, empty)', () => {
  const paths = ['', 'a', '\uD800', '\uDFFF', 'x\uD800y', 'root.sg.d1.\uD83D', '\uDE80root', 'root.🚀.s1', 'root.华东.工厂03.风机_00003.电流_7',
    'é'.repeat(3000), 'root.'.repeat(20000), '\u0000', 'root.sg.d1.s1'];
  for (const variant of VARIANTS) {
    const one = BloomFilter.withCapacity(paths.length);
    for (const p of paths) one.add(p, { variant });
    const many = BloomFilter.withCapacity(paths.length).addMany(paths, { variant });
    assert.deepEqual(many.encode(), one.encode(), variant);
    assert.deepEqual(many.mightContainMany(paths, { variant }), new Uint8Array(paths.length).fill(1));
    // The same bytes pre-encoded the way Java's getBytes does ('?' for a lone surrogate).
    const javaBytes = paths.map((p) => utf8.encode(p.replace(/\p{Cs}/gu, '?')));
    assert.deepEqual(many.mightContainMany(packed(javaBytes), { variant }), new Uint8Array(paths.length).fill(1));
    const pre = BloomFilter.withCapacity(paths.length).addMany(packed(javaBytes), { variant });
    assert.deepEqual(pre.encode(), one.encode());
  }
});

test('batches larger than the last staging area, then smaller again, give the same verdicts', () => {
  const f = BloomFilter.withCapacity(1000);
  const present = Array.from({ length: 1000 }, (_, i) => `root.sg${i % 10}.设备${i}.s${i % 7}`);
  f.addMany(present);
  const small = f.mightContainMany(present.slice(0, 3));
  assert.deepEqual(small, Uint8Array.of(1, 1, 1));
  // ~4 MB of keys: the staging area grows.
  const big = Array.from({ length: 40_000 }, (_, i) => (i % 2 ? present[i % 1000] : `${'root.long.'.repeat(10)}${i}`));
  const got = f.mightContainMany(big);
  const want = Uint8Array.from(big, (p) => (f.probe(p).verdict === 'maybe' ? 1 : 0));
  assert.deepEqual(got, want);
  for (let i = 1; i < big.length; i += 2) assert.equal(got[i], 1);
  assert.ok(got.some((m) => m === 0));
  assert.deepEqual(f.mightContainMany(present.slice(0, 3)), small);
});

test('empty batches and bad pre-encoded input', async () => {
  const f = BloomFilter.withCapacity(10).add('root.a');
  assert.deepEqual(f.mightContainMany([]), new Uint8Array(0));
  assert.deepEqual(f.mightContainMany({ bytes: new Uint8Array(0), ends: new Uint32Array(0) }), new Uint8Array(0));
  assert.deepEqual(f.mightContainMany({ bytes: new Uint8Array(0), ends: Uint32Array.of(0) }), Uint8Array.of(f.probe('').verdict === 'maybe' ? 1 : 0));
  const bad = [
    { bytes: utf8.encode('root.a'), ends: Uint32Array.of(7) }, // past the bytes
    { bytes: utf8.encode('root.aroot.b'), ends: Uint32Array.of(6, 3) }, // decreasing
    { bytes: utf8.encode('root.a'), ends: [6] }, // not a Uint32Array
    { bytes: 'root.a', ends: Uint32Array.of(6) },
    'root.a',
    null,
    ['root.a', 42],
  ];
  const t = await openTsFile(fileURLToPath(new URL('tree_10series.tsfile', DIR)));
  for (const input of bad) {
    for (const call of [() => f.mightContainMany(input), () => f.addMany(input), () => f.probeMany(input), () => t.mightContainMany(input)]) {
      // An argument error concerns no byte of a file: no offset.
      assert.throws(call, (e) => e.kind === 'invalid_argument' && e.offset === null, JSON.stringify(input));
    }
  }
  assert.deepEqual(t.mightContainMany([]), new Uint8Array(0));
  const ok = { bytes: utf8.encode('root.aroot.b'), ends: Uint32Array.of(6, 12) };
  assert.deepEqual(f.mightContainMany(ok), Uint8Array.of(1, f.probe('root.b').verdict === 'maybe' ? 1 : 0));
  assert.deepEqual(f.probeMany(ok).map((r) => [r.path, r.verdict]), [[utf8.encode('root.a'), 'maybe'], [utf8.encode('root.b'), f.probe('root.b').verdict]]);
  await t.close();
});

test('TsFile#probeMany with decisions: the fixtures\' manifest says which paths each file holds', async () => {
  const manifest = JSON.parse(readFileSync(new URL('manifest.json', DIR), 'utf8')).filter((e) => e.kind !== 'hostile');
  // The manifest's series, as the index names them (a null tag is "null"), and paths no file holds.
  const seriesPath = (s) => `${s.device.map((x) => (x == null ? 'null' : x)).join('.')}.${s.measurement}`;
  const strangers = Array.from({ length: 300 }, (_, i) => `root.nowhere_${i}.d${i % 13}.s${i % 7}`);
  let falsePositives = 0;
  for (const e of manifest) {
    const held = e.series.slice(0, 200).map(seriesPath);
    const paths = [...held, ...strangers];
    const t = await openTsFile(fileURLToPath(new URL(e.file, DIR)));
    try {
      // Before the index is read it adds nothing: each decision is the path's verdict.
      for (const r of t.probeMany(paths, { decisions: true })) {
        assert.deepEqual([r.decision, r.indexed], [r.verdict, null], `${e.name} ${r.path}`);
      }
      assert.equal(await t.loadIndex(), null, e.name);
      const rows = t.probeMany(paths, { decisions: true });
      assert.deepEqual(rows.map((r) => r.path), paths);
      rows.forEach((r, i) => {
        const ctx = `${e.name} ${r.path}`;
        if (i < held.length) assert.deepEqual([r.decision, r.indexed], ['indexed', true], ctx);
        else {
          // Not in the file: skipped, as the filter says or as the index refutes its maybe.
          assert.deepEqual([r.decision, r.indexed], [r.verdict === 'maybe' ? 'false_positive' : 'absent', false], ctx);
          falsePositives += r.decision === 'false_positive';
        }
        // The same as probe() path by path, and the verdicts those of probeMany without decisions.
        const p = t.probe(r.path);
        assert.deepEqual([r.verdict, r.decision, r.indexed], [p.verdict, p.decision, p.indexed], ctx);
      });
      assert.deepEqual(t.probeMany(paths).map((r) => r.verdict), rows.map((r) => r.verdict), e.name);
      // Pre-encoded paths decide alike.
      const encoded = packed(paths.map((p) => utf8.encode(p)));
      assert.deepEqual(t.probeMany(encoded, { decisions: true }).map((r) => r.decision), rows.map((r) => r.decision), e.name);
    } finally {
      await t.close();
    }
  }
  assert.ok(falsePositives > 0, 'some stranger is a false positive somewhere');
});

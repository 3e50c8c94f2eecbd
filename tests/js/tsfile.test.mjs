// TsFile reading through the npm API and the CLI, against the real-writer fixtures.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { open } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openTsFile, TsFileBloomError } from 'tsfile-bloom';

const DIR = new URL('../fixtures/tsfile/', import.meta.url);
const raw = JSON.parse(readFileSync(new URL('manifest.json', DIR), 'utf8'));
const MANIFEST = Array.isArray(raw) ? raw : raw.files;
const byName = (n) => MANIFEST.find((e) => e.name === n);
const filePath = (e) => fileURLToPath(new URL(e.file, DIR));
const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
const cli = (...args) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

/** A byte source over `bytes` that records every read, `[offset, length]`, and the bytes they asked for. */
function countingSource(bytes) {
  const src = {
    size: bytes.length,
    reads: [],
    bytesRead: 0,
    async read(offset, length) {
      src.reads.push([offset, length]);
      src.bytesRead += length;
      return bytes.subarray(offset, offset + length);
    },
  };
  return src;
}

test('10,000-series file from every source kind: bit count, all series, probeMany verdicts', async () => {
  const e = byName('tree_10k_series');
  const bytes = new Uint8Array(readFileSync(filePath(e)));
  const handle = await open(filePath(e));
  const sources = {
    path: filePath(e),
    fileHandle: handle,
    uint8array: bytes,
    arraybuffer: bytes.slice().buffer,
    blob: new Blob([bytes]),
  };
  try {
    for (const [kind, source] of Object.entries(sources)) {
      const t = await openTsFile(source);
      assert.equal(t.version, 4, kind);
      assert.equal(t.bloomFilter.bitCount, e.bloom.bit_count, kind);
      const series = await t.series();
      assert.equal(series.length, 10000, kind);
      assert.equal(new Set(series.map((s) => s.path)).size, 10000, kind);
      const sample = series.slice(0, 500).map((s) => s.path);
      // A path whose bits are clear under every hash variant: search a few candidates with the raw filter.
      const absentPath = Array.from({ length: 200 }, (_, i) => `root.nowhere.d${i}.s${i}`).find(
        (p) => t.bloomFilter.probe(p).verdict === 'absent' && t.bloomFilter.probe(p, { variant: 'zero-extended' }).verdict === 'absent',
      );
      const verdicts = t.probeMany([...sample, absentPath]);
      assert.ok(verdicts.slice(0, 500).every((v) => v.verdict === 'maybe'), kind);
      assert.equal(verdicts[500].verdict, 'absent', kind);
      const one = t.probe(sample[0]);
      assert.equal(one.verdict, 'maybe');
      assert.equal(one.indexed, true);
      assert.equal(one.probes.length, e.bloom.hash_function_count);
      await t.close();
    }
  } finally {
    await handle.close();
  }
});

test('every real and synthetic file lists its exact series and keeps them maybe-present', async () => {
  for (const e of MANIFEST.filter((x) => x.kind !== 'hostile')) {
    const t = await openTsFile(filePath(e));
    const [series, timeColumns] = [await t.series(), await t.timeColumns()];
    const key = (device, m, dt) => `${device.map((s) => s ?? 'null').join('.')}.${m}|${dt}`;
    const got = series.map((s) => `${s.path}|${s.dataType}`).sort();
    const want = e.series.map((s) => key(s.device, s.measurement, s.data_type)).sort();
    assert.deepEqual(got, want, e.name);
    // Each record's own fields, as the writer wrote them (the path crosses built from its
    // device's prefix and its measurement).
    // (v3 stores a device as one string: its one segment is the manifest's segments joined.)
    const v3 = t.version === 3;
    const fields = (device, m, dt) => JSON.stringify([v3 ? [device.map((x) => x ?? 'null').join('.')] : device, m, dt]);
    assert.deepEqual(
      series.map((s) => fields(s.device, s.measurement, s.dataType)).sort(),
      e.series.map((s) => fields(s.device, s.measurement, s.data_type)).sort(),
      e.name,
    );
    for (const s of series) assert.equal(s.path, key(s.device, s.measurement, '').slice(0, -1), e.name);
    // The records of one device share one frozen device array.
    for (const [i, s] of [...series, ...timeColumns].entries()) {
      assert.ok(Object.isFrozen(s.device), e.name);
      const before = (i ? [...series, ...timeColumns][i - 1] : null)?.device;
      if (before && JSON.stringify(before) === JSON.stringify(s.device) && i < series.length) assert.equal(before, s.device, `${e.name} ${s.path}`);
    }
    assert.equal(timeColumns.length, (e.time_columns ?? []).length, e.name);
    if (t.bloomFilter) {
      assert.ok(series.every((s) => s.maybePresent === true), e.name);
      for (const v of t.probeMany(series.map((s) => s.path))) assert.equal(v.verdict, 'maybe', `${e.name} ${v.path}`);
    }
    await t.close();
  }
});

test('TsFile.probe gives each path its own reason, whatever was probed before it', async () => {
  // The reason's text crosses from wasm only when it changes (WasmTsFile.probe): probing the
  // same cases in two orders, before and after the index is read, must give the same answers,
  // and each reason must say what its verdict says.
  const family = { maybe: /every (probed )?bit is set/, absent: /^a probed bit is clear/, unknown: /no Bloom filter|^a probed bit is clear/ };
  let confirmedSeen = false;
  for (const e of MANIFEST.filter((x) => x.kind !== 'hostile')) {
    const t = await openTsFile(filePath(e));
    const listed = e.series.slice(0, 3).map((s) => `${s.device.map((x) => x ?? 'null').join('.')}.${s.measurement}`);
    const paths = [...listed, 'root.absent.d1.s1', 'root.缺失.设备.温度_9', `${listed[0] ?? 'root'}.x`];
    const cases = [];
    for (const p of paths) for (const o of [{}, { variant: 'java' }, { variant: 'zero-extended' }]) cases.push([p, o]);
    const run = (list) => new Map(list.map(([p, o]) => [`${p}|${o.variant}`, t.probe(p, o)]));
    for (const stage of ['before the index', 'after the index']) {
      const forward = run(cases);
      const backward = run([...cases].reverse());
      for (const [key, r] of forward) {
        assert.deepEqual(backward.get(key), r, `${e.name} ${stage} ${key}`);
        assert.match(r.reason, family[r.verdict], `${e.name} ${stage} ${key}: ${r.verdict}`);
        if (r.confirmed) confirmedSeen = true;
      }
      await t.loadIndex();
    }
    await t.close();
  }
  assert.ok(confirmedSeen, 'some probe rests on a variant the index confirms');
});

test('probe() before the index is read says when reading it may change the verdict (no hidden state)', async () => {
  // The words a verdict that reading the index may change ends in, before it is read.
  const SETTLE = /; the index has not been read: its audit may establish the writer's hash and show the path absent$/;
  const nonAscii = Array.from({ length: 300 }, (_, i) => `root.数据.d${i}.温度é`);
  const ascii = Array.from({ length: 60 }, (_, i) => `root.sg.d${i}.s${i}`);
  let changed = 0;
  for (const e of MANIFEST.filter((x) => x.kind !== 'hostile')) {
    const t = await openTsFile(filePath(e));
    try {
      const before = [...nonAscii, ...ascii].map((p) => t.probe(p));
      await t.loadIndex();
      before.forEach((b, i) => {
        const path = i < nonAscii.length ? nonAscii[i] : ascii[i - nonAscii.length];
        const after = t.probe(path);
        if (after.verdict !== b.verdict) {
          changed++;
          assert.match(b.reason, SETTLE, `${e.name} ${path}: ${b.verdict} before the index, ${after.verdict} after, and the reason did not say it may change`);
        }
        // Every candidate hash agrees on an ASCII path: reading the index cannot change its verdict.
        if (i >= nonAscii.length) assert.doesNotMatch(b.reason, SETTLE, `${e.name} ${path}`);
      });
    } finally {
      await t.close();
    }
  }
  assert.ok(changed > 0, 'some verdict changes once the index is read');
  // The case the issue names: 'unknown' right after opening, 'absent' once the index is read.
  const t = await openTsFile(filePath(byName('tree_unicode')));
  const first = t.probe(nonAscii[0]);
  assert.equal(first.verdict, 'unknown');
  assert.match(first.reason, SETTLE);
  await t.loadIndex();
  assert.equal(t.probe(nonAscii[0]).verdict, 'absent');
  await t.close();
});

test('the audit names the writer variant', async () => {
  const cases = MANIFEST.filter((x) => x.kind !== 'hostile' && x.bloom?.present);
  for (const e of cases) {
    const t = await openTsFile(filePath(e));
    const a = await t.audit();
    assert.ok(['established', 'ambiguous'].includes(a.status), `${e.name}: ${a.summary}`);
    if (a.nonAsciiTailPaths > 0 && e.hash_variant) {
      assert.equal(a.variant, e.hash_variant, `${e.name}: ${a.summary}`);
      assert.match(a.summary, /^bits reproduced exactly/);
    }
    if (e.hash_variant === 'zero-extended' && e.time_columns_in_filter && a.status === 'established' && a.timeColumnCount > 0) {
      assert.match(a.writer, /C\+\+ tsfile >= 2\.5/, e.name);
    }
    await t.close();
  }
});

test('opening reads only the head and the tail; listing reads only the index region', async () => {
  for (const name of ['tree_10k_series', 'tree_1series']) {
    const e = byName(name);
    const src = countingSource(new Uint8Array(readFileSync(filePath(e))));
    const t = await openTsFile(src);
    const { offset: metaStart, size: metaSize, metaOffset } = t.metadata;
    // The head (12 bytes: enough to recognise a v2 head) and reads that end at the file's end.
    assert.ok(src.reads.every(([o, n]) => (o === 0 && n <= 12) || o + n === t.size || o === metaStart), name);
    // One tail read of 4 KiB, plus one read of TsFileMetadata when it is larger.
    assert.ok(src.bytesRead <= 12 + 4096 + (metaSize + 10 > 4096 ? metaSize : 0), `${name}: ${src.bytesRead} bytes read`);
    assert.ok(src.reads.length <= 3, `${name}: ${src.reads.length} reads`);
    await t.series();
    // Nothing before the index region (the data area) is read, beyond the head — unless the
    // whole file is smaller than the 4 KiB tail window, which is then the one read.
    if (t.size > 4096) assert.ok(src.reads.every(([o, n]) => o + n <= 12 || o >= metaOffset), `${name}: ${JSON.stringify(src.reads)}`);
    else assert.equal(src.reads.length, 2, name);
    // The index region is read once: only its part before the tail window.
    assert.ok(src.bytesRead <= 12 + Math.max(4096, t.size - metaOffset) + (metaSize + 10 > 4096 ? metaSize : 0), name);
    await t.close();
  }
});

test('hostile files reject with typed Errors; the process survives', async () => {
  const hostile = MANIFEST.filter((x) => x.kind === 'hostile');
  assert.ok(hostile.length >= 20);
  for (const e of hostile) {
    let err = null;
    try {
      const t = await openTsFile(filePath(e));
      err = await t.loadIndex();
      await t.close();
    } catch (x) {
      err = x;
    }
    assert.ok(err instanceof TsFileBloomError, `${e.name}: no error`);
    assert.equal(err.kind, e.error_kind, `${e.name}: ${err.message}`);
    assert.equal(typeof err.offset, 'number');
  }
  await assert.rejects(openTsFile(new Uint8Array(3)), (x) => x.kind === 'too_short');
  await assert.rejects(openTsFile(42), (x) => x.kind === 'invalid_argument');
});

test('CLI: inspect --json schema, probe, verify and exit codes', () => {
  const e = byName('table_unicode') ?? byName('tree_unicode');
  const r = cli('inspect', filePath(e), '--json');
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.ok, true);
  assert.equal(j.error, null);
  assert.equal(j.version, 4);
  for (const k of ['offset', 'size', 'meta_offset']) assert.equal(typeof j.metadata[k], 'number');
  for (const k of ['present', 'offset', 'byte_length', 'bit_count', 'hash_function_count', 'set_bits', 'fill_ratio', 'estimated_items']) {
    assert.ok(k in j.bloom_filter, k);
  }
  assert.equal(j.bloom_filter.bit_count, e.bloom.bit_count);
  assert.equal(j.series.length, e.series.length);
  for (const s of j.series) {
    assert.deepEqual(Object.keys(s).sort(), ['data_type', 'device', 'maybe_present', 'measurement', 'offset', 'path', 'table']);
    assert.equal(s.maybe_present, true);
  }
  assert.ok(Array.isArray(j.time_columns));
  assert.equal(typeof j.audit.summary, 'string');

  const p = cli('probe', filePath(e), j.series[0].path, 'root.not.there.x', '--json');
  assert.equal(p.status, 0, p.stderr);
  const pj = JSON.parse(p.stdout);
  assert.equal(pj.results[0].verdict, 'maybe');
  assert.ok(['absent', 'maybe'].includes(pj.results[1].verdict));

  assert.equal(cli('verify', filePath(e)).status, 0);
  const human = cli('inspect', filePath(e));
  assert.equal(human.status, 0);
  assert.match(human.stdout, /bloom +\d+ bits, k=\d/);

  const bad = MANIFEST.find((x) => x.kind === 'hostile' && x.error_kind === 'bad_tail_magic');
  const b = cli('inspect', filePath(bad), '--json');
  assert.equal(b.status, 1);
  assert.equal(JSON.parse(b.stdout).error.kind, 'bad_tail_magic');
  assert.equal(cli('inspect', '/nonexistent/file.tsfile').status, 2);
  assert.equal(cli('frobnicate', filePath(e)).status, 2);
  assert.equal(cli('probe', filePath(e), 'x', '--variant', 'md5').status, 2);
});

test("the C++ writer's sizing: bloomInfo().cppSizedFor and the CLI name the measurement names a filter was sized for", async () => {
  // The generator's count of the writer's measurement-name changes (gen_tsfiles.py cpp_path_count)
  // and the keys it inserted: 100 devices sharing "s1" counted as 1.
  const e = byName('tree_past_design');
  assert.equal(e.bloom.n_cpp_path_count, 1);
  const t = await openTsFile(filePath(e));
  try {
    assert.equal(t.bloomInfo().cppSizedFor, null, 'nothing to count before the index is read');
    await t.loadIndex();
    const b = t.bloomInfo();
    assert.deepEqual([b.cppSizedFor, b.indexedItems, b.filledPastDesign], [e.bloom.n_cpp_path_count, e.series.length, true]);
  } finally {
    await t.close();
  }
  const j = JSON.parse(cli('inspect', filePath(e), '--json').stdout);
  assert.equal(j.bloom_filter.cpp_sized_for, 1);
  assert.match(cli('inspect', filePath(e)).stdout, /\n {11}sized for 1 measurement name \(the C\+\+ writer's count\), holds 100 keys: filled past its design\n/);
  // A small file's 256 bits are the sizing of either count: no rule is claimed.
  const small = byName('table_multi_tables');
  const s = await openTsFile(filePath(small));
  try {
    await s.loadIndex();
    assert.ok(small.bloom.n_cpp_path_count < s.bloomInfo().indexedItems);
    assert.equal(s.bloomInfo().cppSizedFor, null);
  } finally {
    await s.close();
  }
  assert.equal(JSON.parse(cli('inspect', filePath(small), '--json').stdout).bloom_filter.cpp_sized_for, null);
});

/** A Blob whose slices have no arrayBuffer() (as jsdom's), where there is no FileReader either (Node). */
class SlicesWithoutArrayBuffer extends Blob {
  slice(...range) {
    return new SlicesWithoutArrayBuffer([super.slice(...range)]);
  }
}
Object.defineProperty(SlicesWithoutArrayBuffer.prototype, 'arrayBuffer', { value: undefined });

test('a Blob whose slices have no arrayBuffer() is refused with a typed error naming the method, not a TypeError', async () => {
  const bytes = readFileSync(filePath(byName('tree_10k_series')));
  const refused = (e) => e instanceof TsFileBloomError && e.kind === 'invalid_argument' && e.argument === 'source' && e.offset === null && /Blob#arrayBuffer\(\)/.test(e.message);
  await assert.rejects(openTsFile(new SlicesWithoutArrayBuffer([bytes])), refused);
  // The same bytes through a Blob that has it open as ever.
  const t = await openTsFile(new Blob([bytes]));
  await t.close();
});

test('filter health: bloomInfo().health and inspect say the fill against the design, and over-filled once the index is read', async () => {
  // Independent of the core: Java's sizing at the largest rate that gives k = 5 (1/16) sizes
  // 256 bits for 44 keys (python3 -c "import math; print(int(44*math.log(16)/math.log(2)**2)+1, int(45*math.log(16)/math.log(2)**2)+1)"
  // → 254 260), whose fill is 1 − e^(−5·44/256) = 0.5766; 220 bits set → fill^5 = 0.4687.
  const e = byName('tree_past_design');
  const t = await openTsFile(filePath(e));
  try {
    const unread = t.bloomInfo().health;
    assert.equal(unread.state, 'high_fp', 'the bits alone show fill^k past twice the error rate');
    await t.loadIndex();
    const h = t.bloomInfo().health;
    assert.equal(h.state, 'over_filled');
    assert.deepEqual([h.sizedForItems, h.errorRate], [44, 0.05]);
    assert.ok(Math.abs(h.designFill - (1 - Math.exp((-5 * 44) / 256))) < 1e-12);
  } finally {
    await t.close();
  }
  const j = JSON.parse(cli('inspect', filePath(e), '--json').stdout).bloom_filter.health;
  assert.deepEqual(Object.keys(j), ['state', 'error_rate', 'sized_for_items', 'design_fill']);
  assert.equal(j.state, 'over_filled');
  assert.match(cli('inspect', filePath(e)).stdout, /\nhealth {5}OVER-FILLED: .*; fill 85\.94% \(sized for 57\.66% at 44 keys\), FP 46\.87% by fill \(error rate 5\.00%\)\n/);
  // A Java file at the default rate: within its design.
  const ok = byName('table_multi_tables');
  assert.match(cli('inspect', filePath(ok)).stdout, /\nhealth {5}healthy; fill /);
});

test("another realm's Uint8Array and ArrayBuffer (a Buffer in Jest's jsdom environment) are read as bytes", async () => {
  const bytes = readFileSync(filePath(byName('tree_10k_series')));
  const realm = vm.createContext({ bytes });
  const foreign = { view: vm.runInContext('new Uint8Array(bytes)', realm), buffer: vm.runInContext('new Uint8Array(bytes).buffer', realm) };
  assert.equal(foreign.view instanceof Uint8Array, false, 'the view is of another realm');
  const expected = await openTsFile(bytes);
  for (const [what, source] of Object.entries(foreign)) {
    const t = await openTsFile(source);
    assert.deepEqual([t.size, t.bloomInfo(), t.probe('root.sg1.d1.s1')], [expected.size, expected.bloomInfo(), expected.probe('root.sg1.d1.s1')], what);
    await t.close();
  }
  await expected.close();
});

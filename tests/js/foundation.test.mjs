// The foundation contract through the npm API (docs/bloom-filter.md §8 vectors, Java-exact
// construction, hostile filter bytes, probes and stats.
import test from 'node:test';
import assert from 'node:assert/strict';
import { hash32, BloomFilter, SEEDS, fppFormula, optimalK, javaSizing, loadLevelDb, TsFileBloomError } from 'tsfile-bloom';
import { bitIndex } from '../../js/core.js'; // the page's teaching panel's
import { javaReference, hex, fromHex, rng } from './helpers.mjs';

const SPEC_SEED5 = [
  ['root.sg.d.s1', -1267668613, 133],
  ['root.设备.s1', 1697017247, 159],
  ['root.abcdefghijklmnop.设备.s1', 866805081, 89],
];

const SPEC_K5 = [
  ['root.sg1.d1.s1', [-575222460, 1097775904, 15867706, -1201631927, 511072268], [188, 32, 58, 183, 12]],
  ['root.ln.wf01.wt01.temperature', [1810530763, 227411532, -1468158001, 1431228893, 879762377], [203, 76, 49, 221, 201]],
  ['root.sg.d1.温度', [1225016292, -978465665, -86175877, 1602773399, 662830983], [228, 129, 133, 151, 135]],
];

test('bloom-filter.md §8 vectors, java variant (string and byte input)', () => {
  for (const [path, h, bit] of SPEC_SEED5) {
    assert.equal(hash32(path, 5), h, path);
    assert.equal(hash32(new TextEncoder().encode(path), 5, 'java'), h, path);
    assert.equal(bitIndex(h, 256), bit, path);
  }
  for (const [path, hashes, bits] of SPEC_K5) {
    assert.deepEqual(SEEDS.slice(0, 5).map((s) => hash32(path, s)), hashes, path);
    assert.deepEqual(hashes.map((h) => bitIndex(h, 256)), bits, path);
  }
});

test('bloom-filter.md §8 vectors, zero-extended variant', () => {
  assert.equal(hash32('root.设备.s1', 5, 'zero-extended'), 1978455175);
  assert.equal(bitIndex(1978455175, 256), 135);
  const bits = SEEDS.slice(0, 5).map((s) => bitIndex(hash32('root.sg.d1.温度', s, 'zero-extended'), 256));
  assert.deepEqual(bits, [82, 191, 216, 118, 38]);
  // ASCII paths hash identically under both variants.
  for (const [path, h] of SPEC_SEED5.slice(0, 1)) assert.equal(hash32(path, 5, 'zero-extended'), h);
});

test('probe on a filter holding exactly the spec bits gives the spec verdicts', () => {
  // A 256-bit, k = 5 filter with only root.sg1.d1.s1's bits set, built by hand from the spec table.
  const vec = new Uint8Array(32);
  for (const b of SPEC_K5[0][2]) vec[b >> 3] |= 1 << (b & 7);
  const last = vec.findLastIndex((x) => x !== 0) + 1;
  const f = BloomFilter.decode(Uint8Array.from([last, ...vec.subarray(0, last), 0x80, 0x02, 0x05]));
  const p = f.probe('root.sg1.d1.s1');
  assert.equal(p.verdict, 'maybe');
  assert.deepEqual(p.probes.map((x) => x.bit), SPEC_K5[0][2]);
  assert.deepEqual(p.probes.map((x) => x.hash32), SPEC_K5[0][1]);
  assert.deepEqual(p.probes.map((x) => x.seed), [5, 7, 11, 19, 31]);
  assert.ok(p.probes.every((x) => x.set));
  const q = f.probe('root.ln.wf01.wt01.temperature');
  assert.equal(q.verdict, 'absent');
  assert.deepEqual(q.probes.map((x) => x.set), SPEC_K5[1][2].map((b) => SPEC_K5[0][2].includes(b)));
  assert.equal(f.setBits, 5);
  assert.deepEqual([...f.bits()], [...vec]);
});

function randomPath(next) {
  const alphabet = ['root', 'sg', 'd1', 'wt01', '温度', '设备', 'é', 'ñ', '🔥', 's1', 'temperature', 'x', 'null', ''];
  const parts = ['root'];
  const n = 1 + Math.floor(next() * 6);
  for (let i = 0; i < n; i++) parts.push(alphabet[Math.floor(next() * alphabet.length)] + Math.floor(next() * 100));
  return parts.join('.');
}

test('withCapacity + add + encode is byte-identical to the Java algorithm (independent Python reference)', () => {
  const next = rng(42);
  const cases = [];
  for (const [n, p] of [[1, 0.05], [3, 0.05], [10, 0.1], [100, 0.01], [1000, 0.05], [50, 0.5], [20, 0.001], [0, 0.05], [400, 0.07]]) {
    const paths = Array.from({ length: n }, () => randomPath(next));
    cases.push({ n, error_rate: p, paths });
  }
  cases.push({ n: 3, error_rate: 0.05, paths: ['root.sg1.d1.s1', 'root.ln.wf01.wt01.temperature', 'root.sg.d1.温度'] });
  const expected = javaReference({ filters: cases }).filters;
  for (let i = 0; i < cases.length; i++) {
    const { n, error_rate: p, paths } = cases[i];
    const f = BloomFilter.withCapacity(n, p);
    for (const path of paths) f.add(path);
    assert.equal(f.bitCount, expected[i].bit_count, `case ${i} bit count`);
    assert.equal(f.hashFunctionCount, expected[i].hash_function_count, `case ${i} k`);
    assert.equal(hex(f.encode()), expected[i].encoded, `case ${i} bytes`);
    for (const path of paths) assert.equal(f.probe(path).verdict, 'maybe');
    // decode(encode()) restores the same filter.
    const g = BloomFilter.decode(f.encode());
    if (paths.length) assert.equal(hex(g.encode()), expected[i].encoded);
    else assert.equal(g, null);
  }
});

test('zero-extended construction matches the reference with the unsigned tail', () => {
  const paths = ['能耗表🔥.北京.泵🚀1.温度℃', 't1.d1.温度', 'root.sg.d1.温度', 'root.a.b'];
  const [expected] = javaReference({ filters: [{ n: 4, error_rate: 0.05, paths, signed: false }] }).filters;
  const f = BloomFilter.withCapacity(4);
  for (const p of paths) f.add(p, { variant: 'zero-extended' });
  assert.equal(hex(f.encode()), expected.encoded);
  // The Java variant does not see these non-ASCII-tail paths (at least one of them).
  assert.ok(paths.some((p) => f.probe(p).verdict === 'absent'));
});

test('sizing follows getEmptyBloomFilter across rates and sizes', () => {
  const req = [];
  for (const n of [0, 1, 10, 41, 42, 1000, 10000, 10399, 123456, 2 ** 31 - 1]) {
    for (const e of [0.0001, 0.009, 0.01, 0.02, 0.05, 0.0999, 0.1, 0.3]) req.push([n, e]);
  }
  const expected = javaReference({ sizing: req }).sizing;
  req.forEach(([n, e], i) => {
    const f = BloomFilter.withCapacity(n, e);
    assert.deepEqual([f.bitCount, f.hashFunctionCount], expected[i], `n=${n} e=${e}`);
  });
});

test('withCapacity refuses what is not a rate or a count, naming the argument', () => {
  // Java clamps any rate to [0.01, 0.1]; 0, a negative, 1 or more and NaN are no rate at all.
  for (const e of [0, -0.05, 1, 2, NaN, Infinity, '0.05', null]) {
    assert.throws(() => BloomFilter.withCapacity(10, e), (x) => x.kind === 'invalid_argument' && x.argument === 'errorRate' && x.offset === null, String(e));
  }
  for (const n of [-1, 1.5, NaN, 2 ** 31, '10']) {
    assert.throws(() => BloomFilter.withCapacity(n), (x) => x.kind === 'invalid_argument' && x.argument === 'n', String(n));
  }
});

test('hash32 matches the reference on random bytes, both variants', () => {
  const next = rng(7);
  const req = [];
  const keys = [];
  for (let i = 0; i < 300; i++) {
    const key = Uint8Array.from({ length: Math.floor(next() * 70) }, () => Math.floor(next() * 256));
    const seed = SEEDS[i % 8];
    keys.push([key, seed]);
    req.push({ hex: hex(key), seed, signed: true }, { hex: hex(key), seed, signed: false });
  }
  const expected = javaReference({ hashes: req }).hashes;
  keys.forEach(([key, seed], i) => {
    assert.equal(hash32(key, seed, 'java'), expected[2 * i]);
    assert.equal(hash32(key, seed, 'zero-extended'), expected[2 * i + 1]);
  });
});

test('hostile filter bytes throw typed errors with offsets', () => {
  const cases = [
    ['bit_count 0', [1, 1, 0x00, 5], 'bloom_bad_bit_count', 2],
    ['k 0', [1, 1, 0x80, 2, 0], 'bloom_bad_hash_function_count', 4],
    ['k 9', [1, 1, 0x80, 2, 9], 'bloom_bad_hash_function_count', 4],
    ['byte_length past the input', [0x90, 0x01, 1, 2, 3], 'truncated', 2],
    ['bits beyond bit_count (bytes)', [3, 1, 1, 1, 8, 5], 'bloom_overflow', 2],
    ['bits beyond bit_count (in the last byte)', [2, 0, 0x08, 11, 5], 'bloom_stray_bits', 2],
    ['truncated varint', [1, 1, 0x80], 'truncated', 3],
    ['over-long varint', [0x80, 0x80, 0x80, 0x80, 0x80, 0x00], 'bad_varint', 0],
    ['varint above 2^32-1', [0xff, 0xff, 0xff, 0xff, 0x7f], 'bad_varint', 0],
    ['empty input', [], 'truncated', 0],
    ['trailing bytes', [1, 1, 0x80, 2, 5, 0], 'trailing_bytes', 5],
  ];
  for (const [name, bytes, kind, offset] of cases) {
    assert.throws(
      () => BloomFilter.decode(Uint8Array.from(bytes)),
      // The message is the plain sentence: kind and offset are properties, not a prefix.
      (e) => e instanceof TsFileBloomError && e.kind === kind && e.offset === offset && e.message.length > 0 && !e.message.startsWith(kind) && !/at byte \d+:/.test(e.message),
      name,
    );
  }
  // A storm of random garbage never crashes the process: each input decodes or throws a typed error.
  const next = rng(99);
  const kinds = new Set();
  for (let i = 0; i < 5000; i++) {
    const bytes = Uint8Array.from({ length: Math.floor(next() * 24) }, () => Math.floor(next() * 256));
    try {
      BloomFilter.decode(bytes);
    } catch (e) {
      assert.ok(e instanceof TsFileBloomError && typeof e.kind === 'string' && Number.isInteger(e.offset), String(e));
      assert.ok(e.offset <= bytes.length, `offset ${e.offset} beyond input of ${bytes.length}`);
      kinds.add(e.kind);
    }
  }
  // Random bytes reach several distinct validation rules, not one catch-all.
  assert.ok(kinds.has('truncated') && kinds.has('trailing_bytes') && kinds.size >= 4, [...kinds].join());
});

test('argument errors are typed too', () => {
  assert.throws(() => hash32('x', 5, 'murmur'), (e) => e.kind === 'invalid_argument');
  assert.throws(() => hash32(42, 5), (e) => e.kind === 'invalid_argument');
  assert.throws(() => BloomFilter.withCapacity(-1), (e) => e.kind === 'invalid_argument');
  assert.throws(() => new BloomFilter(0, 5), (e) => e.kind === 'invalid_argument' && e.argument === 'bitCount');
  assert.throws(() => new BloomFilter(256, 9), (e) => e.kind === 'invalid_argument' && e.argument === 'hashFunctionCount');
  const f = new BloomFilter(256, 5);
  assert.throws(() => f.probe('x', { charset: 'klingon' }), (e) => e.kind === 'invalid_argument');
});

test("BloomFilter#probe takes empty options as absent ones, as TsFile#probe does", () => {
  const f = BloomFilter.withCapacity(10);
  f.add('root.a.温度');
  for (const path of ['root.a.温度', 'root.b.温度']) assert.deepEqual(f.probe(path, { variant: '', charset: '' }), f.probe(path));
});

test('probeMany equals probe, in object and compact form', () => {
  const next = rng(3);
  const f = BloomFilter.withCapacity(200);
  const inserted = Array.from({ length: 200 }, () => randomPath(next));
  inserted.forEach((p) => f.add(p));
  const queries = [...inserted, ...Array.from({ length: 300 }, () => randomPath(next)), new TextEncoder().encode('root.sg1.d1.s1')];
  const many = f.probeMany(queries);
  const compact = f.probeMany(queries, { compact: true });
  assert.equal(many.length, queries.length);
  queries.forEach((q, i) => {
    const one = f.probe(q);
    assert.equal(many[i].verdict, one.verdict);
    assert.deepEqual(many[i].probes, one.probes);
    assert.equal(compact.maybe[i], one.verdict === 'maybe' ? 1 : 0);
    assert.equal(compact.data[i * compact.stride + 1], one.probes[0].hash32);
  });
  assert.ok(many.slice(0, 200).every((r) => r.verdict === 'maybe'));
  assert.ok(many.slice(200, 500).some((r) => r.verdict === 'absent'));
  assert.deepEqual(f.probeMany([]), []);
});

test('stats follow the formulas', () => {
  const f = BloomFilter.withCapacity(1000, 0.05);
  const next = rng(5);
  for (let i = 0; i < 1000; i++) f.add(randomPath(next) + i);
  const s = f.stats();
  const m = f.bitCount;
  const k = f.hashFunctionCount;
  let set = 0;
  for (const byte of f.bits()) for (let b = 0; b < 8; b++) set += (byte >> b) & 1;
  assert.equal(s.setBits, set);
  assert.equal(f.setBits, set);
  assert.equal(s.fillRatio, set / m);
  assert.ok(Math.abs(s.estimatedItems - -(m / k) * Math.log(1 - set / m)) < 1e-9);
  assert.ok(Math.abs(s.estimatedItems - 1000) < 60, `estimated ${s.estimatedItems}`);
  assert.ok(Math.abs(s.fppFromFill - (set / m) ** k) < 1e-15);
  const s1000 = f.stats(1000);
  assert.ok(Math.abs(s1000.fppFormula - (1 - Math.exp((-k * 1000) / m)) ** k) < 1e-12);
  assert.ok(Math.abs(s1000.fppFormula - 0.05) < 0.01, `fpp ${s1000.fppFormula}`);
  assert.ok(Math.abs(s1000.optimalK - (m / 1000) * Math.LN2) < 1e-12);
  f.free();
});

test('decode keeps omitted trailing bytes as zero and re-encodes byte-identically', () => {
  const bytes = fromHex('03ff00018008' + '05');
  const f = BloomFilter.decode(bytes);
  assert.equal(f.bitCount, 1024);
  assert.equal(f.byteLength, 3);
  assert.equal(f.bits().length, 128);
  assert.equal(f.setBits, 9);
  assert.equal(hex(f.encode()), hex(bytes));
});

test('addMany equals add one by one, and matches the Java reference', () => {
  const next = rng(11);
  const paths = Array.from({ length: 3000 }, () => randomPath(next));
  const [expected] = javaReference({ filters: [{ n: paths.length, error_rate: 0.05, paths }] }).filters;
  const batch = BloomFilter.withCapacity(paths.length).addMany(paths);
  const single = BloomFilter.withCapacity(paths.length);
  for (const p of paths) single.add(p);
  assert.equal(hex(batch.encode()), expected.encoded);
  assert.equal(hex(single.encode()), expected.encoded);
  // Non-UTF-8 charsets and byte keys go through the same staging.
  const gbk = BloomFilter.withCapacity(10).addMany(['root.温度', 'root.设备'], { charset: 'GBK' });
  assert.equal(gbk.probe('root.温度', { charset: 'GBK' }).verdict, 'maybe');
  const bytes = BloomFilter.withCapacity(10).addMany([new TextEncoder().encode('root.a.b')]);
  assert.equal(bytes.probe('root.a.b').verdict, 'maybe');
});

test('a batch large enough to grow wasm memory while staging still probes correctly', () => {
  const f = BloomFilter.withCapacity(50);
  const inserted = Array.from({ length: 50 }, (_, i) => `root.sg.d${i}.s${i}`);
  f.addMany(inserted);
  // ~30 MB of staged keys forces memory.grow between batches.
  const big = Array.from({ length: 200000 }, (_, i) => (i < 50 ? inserted[i] : `root.nowhere.device_${i}.sensor_with_a_long_name_${i}`));
  const r = f.probeMany(big, { compact: true });
  for (let i = 0; i < 50; i++) assert.equal(r.maybe[i], 1);
  const again = f.probeMany(inserted.slice(0, 5));
  assert.ok(again.every((x) => x.verdict === 'maybe'));
});

test('filter maths exported from the core: FPP formula, optimal k, Java sizing, LevelDB k and size', async () => {
  // Independent: the formula by hand, and Java's sizing from the Java-shaped Python reference.
  const close = (a, b) => assert.ok(Math.abs(a - b) <= 1e-12 * Math.abs(b), `${a} vs ${b}`);
  close(fppFormula(1000, 6236, 5), (1 - Math.exp((-5 * 1000) / 6236)) ** 5);
  close(fppFormula(100000, 623523, 5), (1 - Math.exp((-5 * 100000) / 623523)) ** 5);
  close(optimalK(1000, 6236), (6236 / 1000) * Math.LN2);
  assert.equal(optimalK(0, 256), Infinity);
  const cases = [[1000, 0.05], [100000, 0.05], [1, 0.001], [50, 0.5], [0, 0.05]];
  const ref = javaReference({ sizing: cases }).sizing;
  cases.forEach(([n, e], i) => assert.deepEqual(javaSizing(n, e), { bitCount: ref[i][0], hashFunctionCount: ref[i][1] }, `${n} @ ${e}`));
  const ldb = await loadLevelDb();
  // LevelDB's constructor: k = (size_t)(bits_per_key * 0.69), clamped to [1, 30].
  for (const bpk of [0, 1, 2, 10, 20, 44, 100]) assert.equal(ldb.k(bpk), Math.min(30, Math.max(1, Math.trunc(bpk * 0.69))));
  // CreateFilter (util/bloom.cc): n × bits_per_key bits, at least 64, rounded up to whole bytes.
  for (const [n, bpk] of [[1, 10], [3, 10], [100, 10], [7, 3], [9, 9]]) {
    assert.equal(ldb.filterBits(n, bpk), Math.ceil(Math.max(64, n * bpk) / 8) * 8);
    const keys = Array.from({ length: n }, (_, i) => `k${i}`);
    assert.equal(ldb.buildFilter(keys, bpk).bitCount, ldb.filterBits(n, bpk));
  }
});

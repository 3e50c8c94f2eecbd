// The teaching panel (www/teach.js) in headless Chromium. Expected values come from outside our
// code: the spec's test vectors (§4), leveldb-filter.md's hash vectors and k table (checked there
// against google/leveldb and real plyvel files), and the fixtures' manifest (the real writer).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suite, tsfileFixtures, openFile, countMainThreadWasm } from './harness.mjs';

const { byName, fixture } = tsfileFixtures();

let harness;
let page;
suite(async (h) => {
  harness = h;
  page = await newPage();
});

async function newPage(options = {}) {
  const p = await harness.newPage(options);
  await p.waitForFunction(() => document.getElementById('teach').dataset.ready === 'true', null, { timeout: 20000 });
  return p;
}

async function open(p, name) {
  await openFile(p, fixture(name));
}

const close = (a, b, rel = 1e-9) => Math.abs(a - b) <= rel * Math.max(Math.abs(b), 1e-300);
const data = (p, sel, key) => p.evaluate(([s, k]) => document.querySelector(s).dataset[k], [sel, key]);

/** An op of the teaching panel's worker (www/worker/teach-ops.js), as the panel calls it. */
const op = (p, name, args) => p.evaluate(([n, a]) => globalThis.inspector.teachWorker().call(n, a), [name, args]);
/** A function of the worker's modules by its generic op (teach.call: `leveldb.hash`, `package.javaSizing`, `formula`). */
const fn = (p, name, ...args) => op(p, 'teach.call', { fn: name, args });

// LevelDB's filter written from leveldb-filter.md §1–2 (util/hash.cc Hash with seed 0xbc9f1d34,
// unsigned tail bytes; k = floor(bits_per_key × 0.69) in 1..30; bits = max(64, n × bpk) in whole
// bytes; probes h, h + δ, … with δ = h rotated right by 17): an independent check of the package's.
function referenceLevelDbFilter(keys, bitsPerKey) {
  const hash = (bytes) => {
    const M = 0xc6a4a793;
    const n = bytes.length;
    let h = (0xbc9f1d34 ^ Math.imul(n, M)) >>> 0;
    let i = 0;
    for (; i + 4 <= n; i += 4) {
      h = (h + ((bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24)) >>> 0)) >>> 0;
      h = Math.imul(h, M) >>> 0;
      h = (h ^ (h >>> 16)) >>> 0;
    }
    const rest = n - i;
    if (rest > 0) {
      if (rest >= 3) h = (h + (bytes[i + 2] << 16)) >>> 0;
      if (rest >= 2) h = (h + (bytes[i + 1] << 8)) >>> 0;
      h = (h + bytes[i]) >>> 0;
      h = Math.imul(h, M) >>> 0;
      h = (h ^ (h >>> 24)) >>> 0;
    }
    return h;
  };
  const bits = Math.ceil(Math.max(64, keys.length * bitsPerKey) / 8) * 8;
  const k = Math.min(30, Math.max(1, Math.floor(bitsPerKey * 0.69)));
  const out = new Uint8Array(bits / 8 + 1);
  out[bits / 8] = k;
  for (const key of keys) {
    let h = hash(new TextEncoder().encode(key));
    const delta = ((h >>> 17) | (h << 15)) >>> 0;
    for (let j = 0; j < k; j++) {
      const b = h % bits;
      out[b >> 3] |= 1 << (b & 7);
      h = (h + delta) >>> 0;
    }
  }
  return out;
}

test('maths and LevelDB hash (the worker’s ops): the documented vectors and sizing rules', async () => {
  const hex = (s) => Array.from(s.match(/../g) ?? [], (h) => parseInt(h, 16));
  const enc = (s) => Array.from(new TextEncoder().encode(s));
  const keys = ['', '62', 'c397', 'e299a5', 'e180b932'].map(hex).concat([enc('key000'), enc('a'), hex('ff'), hex('808182'), enc('ключ')]);
  const hashes = await page.evaluate(([ks]) => Promise.all(ks.map((k) => globalThis.inspector.teachWorker().call('teach.call', { fn: 'leveldb.hash', args: [Uint8Array.from(k)] }))), [keys]);
  // leveldb-filter.md §1 (upstream util/hash_test.cc vectors, then the doc's own ref_ldb.py vectors)
  assert.deepEqual(hashes, [0xbc9f1d34, 0xef1345c4, 0x5b663814, 0x323c078f, 0xed21633a, 0x83f95c11, 0x286e9db0, 0xc20e0a90, 0xce6519b9, 0x172b2459]);
  // §2 table: bpk 1 → 1, 4 → 2, 10 → 6, 20 → 13, ≥ 44 → 30
  const ks = [];
  for (const bpk of [1, 4, 10, 20, 44, 60]) ks.push(await fn(page, 'leveldb.k', bpk));
  assert.deepEqual(ks, [1, 2, 6, 13, 30, 30]);
  // small.ldb: n = 10 at 10 bits/key → 100 bits → 13 bytes → m = 104; the 64-bit floor; versions.ldb m = 1960
  const bits = [];
  for (const [n, bpk] of [[10, 10], [1, 10], [196, 10], [3, 7]]) bits.push(await fn(page, 'leveldb.filterBits', n, bpk));
  assert.deepEqual(bits, [104, 64, 1960, 64]);
  assert.equal((await fn(page, 'leveldb.buildFilter', ['a'], 10)).bytes.length, 9, '64 bits = 8 bytes, then the k byte');
  // README: withCapacity(1000, 0.05) → 6236 bits, k = 5; spec §6 floor 256 and Java's default
  // rate 0.05 when none is given (k = 5, where 0.01 gives 7); p = 0.01 → k = 7
  const java = [];
  for (const args of [[1000, 0.05], [10], [100, 0.01]]) java.push(await fn(page, 'package.javaSizing', ...args));
  assert.deepEqual(java, [
    { bitCount: 6236, hashFunctionCount: 5 },
    { bitCount: 256, hashFunctionCount: 5 },
    { bitCount: 959, hashFunctionCount: 7 },
  ]);
  const f = await fn(page, 'formula', 1000, 10000, 6, false);
  assert.ok(Math.abs(f.fpp - 0.00843) < 0.0001, `10 bits/key, k = 6 → ≈ 0.84 % (anchors §5), got ${f.fpp}`);
  assert.ok(Math.abs(f.kStar - 6.931) < 0.001);
});

test('teach.call calls only the modules\' own functions: anything else is invalid_argument fn', async () => {
  for (const name of ['nope', 'constructor', 'toString', '__proto__.constructor', 'hasOwnProperty.x', 'leveldb.constructor', 'package.nope']) {
    const e = await page.evaluate(
      (n) => globalThis.inspector.teachWorker().call('teach.call', { fn: n, args: [] }).then(() => null, (x) => ({ kind: x.kind, argument: x.argument })),
      name,
    );
    assert.deepEqual(e, { kind: 'invalid_argument', argument: 'fn' }, name);
  }
});

test('the sandbox’s LevelDB filter (the package’s) is byte-identical to one written from leveldb-filter.md', async () => {
  const keys = Array.from({ length: 300 }, (_, i) => `k_${(i * 2654435761 >>> 0).toString(36)}.d${i % 97}.${'x'.repeat(i % 23)}`);
  for (const [some, bpk] of [[keys, 10], [keys.slice(0, 7), 20]]) {
    const r = await fn(page, 'leveldb.buildFilter', some, bpk);
    assert.deepEqual(Array.from(r.bytes), Array.from(referenceLevelDbFilter(some, bpk)));
  }
});

test('the landing page is alive before any file: demo sandbox bits drawn, FP curve drawn, pitfall filled', async () => {
  const p = await newPage({ initScript: countMainThreadWasm });
  const sb = '#teach-sandbox';
  assert.equal(await p.evaluate(() => document.body.dataset.state ?? ''), '', 'no file opened');
  assert.ok(Number(await data(p, sb, 'n')) > 0, 'the sandbox starts with demo paths');
  const set = Number(await data(p, sb, 'set'));
  assert.ok(set > 0, 'the demo filter has set bits');
  // The grid shows exactly `set` cells in the set colour (sampled at each cell's centre).
  const drawn = await p.evaluate(() => {
    const c = document.getElementById('sb-grid');
    const ctx = c.getContext('2d');
    const m = Number(document.getElementById('teach-sandbox').dataset.m);
    const setColour = getComputedStyle(c).getPropertyValue('--map-set').trim();
    const want = [1, 3, 5].map((i) => parseInt(setColour.slice(i, i + 2), 16));
    const cols = Number(c.dataset.cols);
    const cell = c.width / cols;
    let n = 0;
    for (let i = 0; i < m; i++) {
      const d = ctx.getImageData(Math.floor(((i % cols) + 0.5) * cell), Math.floor((Math.floor(i / cols) + 0.5) * cell), 1, 1).data;
      if (Math.abs(d[0] - want[0]) + Math.abs(d[1] - want[1]) + Math.abs(d[2] - want[2]) < 12) n++;
    }
    return { n, w: c.width, h: c.height };
  });
  assert.ok(drawn.w > 0 && drawn.h > 0);
  assert.equal(drawn.n, set, 'each set bit, and only those, is drawn in the set colour');
  const d = await p.getAttribute('#sb-curve .c-curve', 'd');
  assert.ok(d && d.split('L').length >= 8, 'the sandbox FP curve is drawn through k = 1 … 8 at least');
  assert.ok(await p.getAttribute('#sb-curve .c-point', 'data-k'));
  assert.equal(await p.inputValue('[data-testid=pf-path]'), 'root.sg.d1.温度');
  assert.equal(await data(p, '#pf-table', 'java'), '228,129,133,151,135');
  assert.equal(await p.locator('[data-testid=pf-row]').count(), 5);
  assert.deepEqual(await p.evaluate(() => globalThis.__wasmOnMain), [], 'no wasm compiled or instantiated on the main thread');
  await p.context().close();
});

test('the teaching panel creates no wasm instance on the main thread (file, pitfall, both sandboxes)', async () => {
  const p = await newPage({ initScript: countMainThreadWasm });
  await open(p, 'table_unicode');
  await p.waitForFunction(() => document.getElementById('pf-fn').dataset.file);
  await p.click('[data-testid=sb-random]');
  await p.waitForFunction(() => Number(document.getElementById('teach-sandbox').dataset.n) > 100);
  await p.check('[data-testid=sb-mode-leveldb]');
  await p.waitForFunction(() => document.getElementById('teach-sandbox').dataset.k === '6');
  await p.click('[data-testid=sb-measure]');
  await p.waitForFunction(() => document.getElementById('teach-sandbox').dataset.measured);
  assert.deepEqual(await p.evaluate(() => globalThis.__wasmOnMain), []);
  await p.context().close();
});

test('tail pitfall without a file: the spec vectors for root.sg.d1.温度 and the false negatives', async () => {
  assert.equal(await page.inputValue('[data-testid=pf-path]'), 'root.sg.d1.温度');
  // spec §4: k = 5, m = 256 — Java 228, 129, 133, 151, 135; zero-extended 82, 191, 216, 118, 38
  assert.equal(await data(page, '#pf-table', 'java'), '228,129,133,151,135');
  assert.equal(await data(page, '#pf-table', 'zero'), '82,191,216,118,38');
  assert.equal(await page.locator('#pf-table tr.differ').count(), 5);
  assert.equal(await data(page, '#pf-fn', 'cross'), 'absent,absent');
  // The one tail byte (17 bytes: 1 block + 1) is 0xa6, the last byte of 度, shown both ways.
  assert.deepEqual(await page.locator('#pf-bytes .byte.tail').allTextContents(), ['a6']);
  assert.match(await page.textContent('#pf-bytes'), /0xffffffffffffffa6 \(-90\)/);
  // An ASCII tail: no pitfall, the bits agree.
  await page.fill('[data-testid=pf-path]', 'root.sg1.d1.s1');
  await page.press('[data-testid=pf-path]', 'Enter');
  await page.waitForFunction(() => document.getElementById('pf-table').dataset.java === '188,32,58,183,12');
  assert.equal(await data(page, '#pf-table', 'zero'), '188,32,58,183,12');
  assert.equal(await page.locator('#pf-table tr.differ').count(), 0);
  assert.equal(await data(page, '#pf-fn', 'cross'), 'maybe,maybe');
  await page.click('#pf-reset');
  await page.waitForFunction(() => document.getElementById('pf-table').dataset.java === '228,129,133,151,135');
});

test('claim 2 on the loaded file: its n paths in its m bits, the formula at each k, measured near it', async () => {
  const e = byName.table_10k_series;
  await open(page, 'table_10k_series');
  await page.waitForFunction(() => /my file/.test(document.querySelector('[data-testid=claim-2-show]').textContent));
  await page.click('[data-testid=claim-2-show]');
  await page.waitForFunction(() => document.getElementById('teach-claim-2').dataset.state === 'done', null, { timeout: 60000 });
  assert.equal(await data(page, '#teach-claim-2', 'source'), 'file');
  const rows = await page.evaluate(() => [...document.querySelectorAll('[data-testid=claim-2-table] tbody tr')].slice(0, 8).map((tr) => [...[...tr.querySelectorAll('td[data-value]')].map((td) => +td.dataset.value), +tr.querySelector('td[data-rate]').dataset.rate]));
  const n = e.series_count + (e.time_columns_in_filter ? e.time_columns.length : 0);
  const m = e.bloom.bit_count;
  for (const [j, [rn, rm, k, , formula, measured]] of rows.entries()) {
    assert.deepEqual([rn, rm, k], [n, m, j + 1]);
    assert.ok(close(formula, (1 - Math.exp((-k * n) / m)) ** k), `k = ${k}: formula ${formula}`);
    // 20,000 absent paths: σ ≤ 0.4 points; the formula is an approximation, so allow 1.
    assert.ok(Math.abs(measured - formula) < 0.01, `k = ${k}: measured ${measured} vs formula ${formula}`);
  }
});

test('the pitfall on the loaded file: its own non-ASCII-tail path is absent under the other hash', async () => {
  const e = byName.table_unicode;
  await open(page, 'table_unicode');
  await page.waitForFunction(() => document.getElementById('pf-fn').dataset.file);
  const path = await page.inputValue('[data-testid=pf-path]');
  assert.ok(e.paths_with_high_tail_bytes.includes(path), `${path} is one of the file's non-ASCII-tail paths`);
  // The writer (C++ 2.5) zero-extends: present under its hash, a false negative under Java's.
  assert.equal(e.hash_variant, 'zero-extended');
  assert.equal(await data(page, '#pf-fn', 'file'), 'maybe,absent');
  assert.match(await page.textContent('[data-testid=pf-file]'), /wrongly skip this file/);
});

test('sandbox (TsFile): adding a path flips its k bits (spec vectors); sliders by keyboard; test and clear', async () => {
  const p = await newPage();
  const sb = '#teach-sandbox';
  assert.equal(await data(p, sb, 'm'), '256');
  assert.equal(await data(p, sb, 'k'), '5');
  // The demo paths go first: the spec vectors below are for a filter holding one path.
  await p.click('#sb-clear');
  await p.waitForFunction(() => document.getElementById('teach-sandbox').dataset.n === '0');
  assert.equal(await data(p, sb, 'set'), '0');
  // Enter in the text box adds (the form's default button).
  await p.fill('[data-testid=sb-path]', 'root.sg1.d1.s1');
  await p.press('[data-testid=sb-path]', 'Enter');
  await p.waitForFunction(() => document.getElementById('teach-sandbox').dataset.n === '1');
  const log = await p.textContent('[data-testid=sb-log]');
  for (const [seed, bit] of [[5, 188], [7, 32], [11, 58], [19, 183], [31, 12]]) assert.match(log, new RegExp(`seed ${seed} → bit ${bit} \\(flipped 0→1\\)`));
  assert.equal(await data(p, sb, 'set'), '5');
  assert.match(await p.textContent('[data-testid=sb-fill]'), /^5 of 256 bits set/);
  // The same path again is not added twice; an added path tests "maybe".
  await p.click('[data-testid=sb-test]');
  await p.waitForFunction(() => document.querySelector('[data-testid=sb-verdict]').dataset.verdict);
  assert.equal(await data(p, '[data-testid=sb-verdict]', 'verdict'), 'maybe');
  await p.click('[data-testid=sb-random]');
  await p.waitForFunction(() => document.getElementById('teach-sandbox').dataset.n === '101');
  const set = Number(await data(p, sb, 'set'));
  assert.ok(set > 5 && set <= 101 * 5);
  // k by keyboard: the filter is rebuilt from the same paths with 4 hashes.
  await p.focus('[data-testid=sb-k]');
  await p.keyboard.press('ArrowLeft');
  await p.waitForFunction(() => document.getElementById('teach-sandbox').dataset.k === '4');
  assert.equal(await data(p, sb, 'n'), '101');
  await p.focus('[data-testid=sb-m]');
  await p.keyboard.press('ArrowRight');
  await p.waitForFunction(() => document.getElementById('teach-sandbox').dataset.m === '264');
  assert.equal(await p.getAttribute('#sb-curve .c-point', 'data-k'), '4');
  // Measured FP in the sandbox.
  await p.click('[data-testid=sb-measure]');
  await p.waitForFunction(() => document.getElementById('teach-sandbox').dataset.measured);
  assert.match(await p.textContent('[data-testid=sb-measure-out]'), /of 10,000 random absent paths/);
  // The grid reads bits by keyboard.
  await p.focus('[data-testid=sb-grid]');
  await p.keyboard.press('Home');
  await p.keyboard.press('ArrowRight');
  assert.match(await p.textContent('#sb-cell'), /^bit 1: (set|clear)/);
  // Clear: everything is absent again.
  await p.click('#sb-clear');
  await p.waitForFunction(() => document.getElementById('teach-sandbox').dataset.n === '0');
  await p.fill('[data-testid=sb-path]', 'root.sg1.d1.s1');
  await p.click('[data-testid=sb-test]');
  await p.waitForFunction(() => document.querySelector('[data-testid=sb-verdict]').dataset.verdict === 'absent');
  await p.context().close();
});

test('sandbox (LevelDB): k and m follow bits_per_key and the key count', async () => {
  const p = await newPage();
  const sb = '#teach-sandbox';
  await p.check('[data-testid=sb-mode-leveldb]');
  await p.waitForFunction(() => document.getElementById('teach-sandbox').dataset.mode === 'leveldb');
  await p.click('#sb-clear');
  await p.waitForFunction(() => document.getElementById('teach-sandbox').dataset.n === '0');
  assert.equal(await p.isDisabled('[data-testid=sb-m]'), true);
  assert.equal(await data(p, sb, 'k'), '6'); // bits_per_key 10
  await p.fill('[data-testid=sb-path]', 'key000');
  await p.click('[data-testid=sb-add]');
  await p.waitForFunction(() => document.getElementById('teach-sandbox').dataset.n === '1');
  assert.equal(await data(p, sb, 'm'), '64'); // the 64-bit floor
  await p.click('[data-testid=sb-random]');
  await p.waitForFunction(() => document.getElementById('teach-sandbox').dataset.n === '101');
  assert.equal(await data(p, sb, 'm'), '1016'); // 101 × 10 = 1010 bits → 127 bytes
  // bits_per_key 20 → k = 13 (leveldb-filter.md §2), m = 2020 bits → 253 bytes.
  await p.evaluate(() => {
    const s = document.getElementById('sb-bpk');
    s.value = '20';
    s.dispatchEvent(new Event('input'));
  });
  await p.waitForFunction(() => document.getElementById('teach-sandbox').dataset.k === '13');
  assert.equal(await data(p, sb, 'm'), '2024');
  await p.click('[data-testid=sb-measure]');
  await p.waitForFunction(() => document.getElementById('teach-sandbox').dataset.measured);
  assert.ok(Number(await data(p, sb, 'measured')) < 0.02);
  // Every added key tests "maybe" (no false negatives).
  await p.fill('[data-testid=sb-path]', 'key000');
  await p.click('[data-testid=sb-test]');
  await p.waitForFunction(() => document.querySelector('[data-testid=sb-verdict]').dataset.verdict === 'maybe');
  await p.context().close();
});

test('dark mode: the panel follows the colour scheme', async () => {
  const p = await newPage({ colorScheme: 'dark' });
  const stroke = await p.evaluate(() => getComputedStyle(document.querySelector('#sb-curve .c-curve')).stroke);
  assert.equal(stroke, 'rgb(106, 167, 255)'); // --accent in dark mode
  await p.context().close();
});

test('no console errors, no requests beyond the origin', () => {
  assert.deepEqual(harness.problems, []);
});

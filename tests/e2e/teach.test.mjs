// The teaching panel (www/teach.js) in headless Chromium. Expected values come from outside our
// code: the spec's test vectors (§4), leveldb-filter.md's hash vectors and k table (checked there
// against google/leveldb and real plyvel files), and the fixtures' manifest (the real writer).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startHarness, openFile } from './harness.mjs';

const FIXTURES = fileURLToPath(new URL('../fixtures/tsfile/', import.meta.url));
const manifest = JSON.parse(readFileSync(`${FIXTURES}manifest.json`, 'utf8'));
const byName = Object.fromEntries(manifest.map((e) => [e.name, e]));
const fixture = (name) => FIXTURES + byName[name].file;

let harness;
let origin;
let page;
let problems; // console errors, page errors, requests leaving the origin

before(async () => {
  harness = await startHarness();
  ({ origin, problems } = harness);
  page = await newPage();
});

after(async () => {
  await harness?.close();
});

async function newPage(options = {}) {
  const p = await harness.newPage(options);
  await p.waitForFunction(() => document.getElementById('teach').dataset.ready === 'true', null, { timeout: 20000 });
  return p;
}

async function open(p, name) {
  await openFile(p, fixture(name));
}

const data = (p, sel, key) => p.evaluate(([s, k]) => document.querySelector(s).dataset[k], [sel, key]);

test('maths and LevelDB hash: the documented vectors and sizing rules', async () => {
  const r = await page.evaluate(async () => {
    const t = await import('/teach.js');
    const hex = (s) => Uint8Array.from(s.match(/../g) ?? [], (h) => parseInt(h, 16));
    const enc = new TextEncoder();
    return {
      hashes: [
        t.levelDbHash(new Uint8Array(0)),
        t.levelDbHash(hex('62')),
        t.levelDbHash(hex('c397')),
        t.levelDbHash(hex('e299a5')),
        t.levelDbHash(hex('e180b932')),
        t.levelDbHash(enc.encode('key000')),
        t.levelDbHash(enc.encode('a')),
        t.levelDbHash(hex('ff')),
        t.levelDbHash(hex('808182')),
        t.levelDbHash(enc.encode('ключ')),
      ],
      ks: [1, 4, 10, 20, 44, 60].map(t.levelDbK),
      bits: [t.levelDbBits(10, 10), t.levelDbBits(1, 10), t.levelDbBits(196, 10), t.levelDbBits(3, 7)],
      small: t.buildLevelDbFilterJs(['a'], 10).length,
      java: [t.javaSizing(1000, 0.05), t.javaSizing(10), t.javaSizing(100, 0.01)],
      fpp: t.fpp(1000, 10000, 6),
      kStar: t.optimalK(1000, 10000),
    };
  });
  // leveldb-filter.md §1 (upstream util/hash_test.cc vectors, then the doc's own ref_ldb.py vectors)
  assert.deepEqual(r.hashes, [0xbc9f1d34, 0xef1345c4, 0x5b663814, 0x323c078f, 0xed21633a, 0x83f95c11, 0x286e9db0, 0xc20e0a90, 0xce6519b9, 0x172b2459]);
  // §2 table: bpk 1 → 1, 4 → 2, 10 → 6, 20 → 13, ≥ 44 → 30
  assert.deepEqual(r.ks, [1, 2, 6, 13, 30, 30]);
  // small.ldb: n = 10 at 10 bits/key → 100 bits → 13 bytes → m = 104; the 64-bit floor; versions.ldb m = 1960
  assert.deepEqual(r.bits, [104, 64, 1960, 64]);
  assert.equal(r.small, 9, '64 bits = 8 bytes, then the k byte');
  // README: withCapacity(1000, 0.05) → 6236 bits, k = 5; spec §6 floor 256; p = 0.01 → k = 7
  assert.deepEqual(r.java, [{ m: 6236, k: 5 }, { m: 256, k: 5 }, { m: 959, k: 7 }]);
  assert.ok(Math.abs(r.fpp - 0.00843) < 0.0001, `10 bits/key, k = 6 → ≈ 0.84 % (anchors §5), got ${r.fpp}`);
  assert.ok(Math.abs(r.kStar - 6.931) < 0.001);
});

test('the sandbox uses the package LevelDB filter, byte-identical to the JS one written from leveldb-filter.md', async () => {
  const r = await page.evaluate(async () => {
    const t = await import('/teach.js');
    const lib = await t.lib();
    const ldb = await lib.loadLevelDb();
    const keys = t.randomPaths(300, null, 'k');
    return {
      a: Array.from(t.buildLevelDbFilterJs(keys, 10)),
      b: Array.from(ldb.buildFilter(keys, 10).bytes),
      a20: Array.from(t.buildLevelDbFilterJs(keys.slice(0, 7), 20)),
      b20: Array.from(ldb.buildFilter(keys.slice(0, 7), 20).bytes),
    };
  });
  assert.deepEqual(r.b, r.a);
  assert.deepEqual(r.b20, r.a20);
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

test('the loaded file: its n, m, k on the curve; measured FP from 100,000 absent paths near the formula', async () => {
  const e = byName.table_10k_series;
  await open(page, 'table_10k_series');
  assert.equal(await page.isVisible('#teach-file'), true);
  const n = e.series_count + (e.time_columns_in_filter ? e.time_columns.length : 0);
  const m = e.bloom.bit_count;
  const k = e.bloom.hash_function_count;
  assert.match(await page.textContent('[data-testid=teach-n]'), new RegExp(`^${n.toLocaleString('en')} `));
  assert.match(await page.textContent('[data-testid=teach-m]'), new RegExp(`^${m.toLocaleString('en')} bits`));
  assert.equal(await page.getAttribute('#teach-curve .c-point', 'data-k'), String(k));
  const kStar = Number(await page.getAttribute('#teach-curve .c-opt', 'data-k-star'));
  assert.ok(Math.abs(kStar - (m / n) * Math.LN2) < 0.001, `k* ${kStar}`);
  const formula = (1 - Math.exp((-k * n) / m)) ** k;
  assert.match(await page.textContent('[data-testid=teach-formula]'), new RegExp(`${(formula * 100).toFixed(3)}%`));
  await page.click('[data-testid=teach-measure]');
  await page.waitForFunction(() => document.getElementById('teach-file').dataset.measured, null, { timeout: 60000 });
  const measured = Number(await data(page, '#teach-file', 'measured'));
  // 100,000 trials: σ ≈ 0.07 %; the formula is an approximation, so allow 0.6 points.
  assert.ok(Math.abs(measured - formula) < 0.006, `measured ${measured} vs formula ${formula}`);
  assert.match(await page.textContent('[data-testid=teach-measure-out]'), /of 100,000/);
  // All-ASCII paths: the audit cannot tell the variants apart, and says that both agree here.
  assert.match(await page.textContent('[data-testid=teach-measure-out]'), /probed with the (java|zero-extended) hash \(the audit could not tell/);
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

test('a file without a filter: the curve says so', async () => {
  await open(page, 'table_empty');
  assert.equal(await page.isVisible('#teach-file'), false);
  assert.match(await page.textContent('#teach-file-none'), /no Bloom filter/);
});

test('sandbox (TsFile): adding a path flips its k bits (spec vectors); sliders by keyboard; test and clear', async () => {
  const p = await newPage();
  const sb = '#teach-sandbox';
  assert.equal(await data(p, sb, 'm'), '256');
  assert.equal(await data(p, sb, 'k'), '5');
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
  assert.deepEqual(problems, []);
});

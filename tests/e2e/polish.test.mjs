// The smaller things of issue 24, each as a user meets it: rings at Fit zoom, the zoom factor, numbers as numbers, the skip link, and the LevelDB view (its key
// input, counts, its table's own note, bits to hover and to walk by keyboard, empty filters).
// Expected figures from the manifests (the Java writer's own reader, LevelDB's policy formula).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { suite, tsfileFixtures, openFile } from './harness.mjs';

const JAVA = fileURLToPath(new URL('../fixtures/java/', import.meta.url));
const javaManifest = JSON.parse(readFileSync(`${JAVA}manifest.json`, 'utf8'));
const LEVELDB = fileURLToPath(new URL('../fixtures/leveldb/', import.meta.url));
const { tables } = JSON.parse(readFileSync(`${LEVELDB}manifest.json`, 'utf8'));
const { fixture } = tsfileFixtures();

let harness;
let page;
suite(async (h) => {
  harness = h;
  page = await h.newPage();
});

const text = (sel) => page.textContent(sel).then((t) => t.trim());

test('before a file, the skip link leads to opening one; with a file, to path testing — never to a hidden section', async () => {
  for (const stage of ['no file', 'file']) {
    if (stage === 'file') await openFile(page, fixture('tree_10series'));
    const href = await page.getAttribute('#skip-link', 'href');
    assert.equal(href, stage === 'file' ? '#probe' : '#load');
    assert.equal(await page.isVisible(href), true, `${stage}: ${href} is visible`);
  }
});

test('numbers are grouped: stored bytes, bit count, set bits, items', async () => {
  const e = javaManifest.files.find((f) => f.file === 'gbk/tree_10k_series.tsfile');
  await openFile(page, `${JAVA}${e.file}`);
  const b = e.bloom;
  assert.equal(await text('[data-testid=byte-length]'), b.byte_length.toLocaleString('en'));
  assert.equal(await text('#byte-length-note'), `of ${Math.ceil(b.bit_count / 8).toLocaleString('en')} (trailing zero bytes are not stored)`);
  assert.equal(await text('[data-testid=bit-count]'), b.bit_count.toLocaleString('en'));
  assert.equal(await text('[data-testid=set-bits]'), b.set_bits.toLocaleString('en'));
  assert.match(await text('#items'), /^≈ \d{1,3}(,\d{3})*\.\d estimated from the fill · 10,000 paths in the index$/);
});

test('at Fit zoom of a 62,353-bit filter each seed ring is at least 16 px across, with a light halo', async () => {
  const e = javaManifest.files.find((f) => f.file === 'gbk/tree_10k_series.tsfile');
  await page.fill('[data-testid=path-input]', e.devices[0].series[0][2]);
  await page.press('[data-testid=path-input]', 'Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=verdict]').textContent !== '');
  await page.click('#zoom-fit');
  const rings = await page.evaluate(async () => {
    const m = globalThis.inspector.map;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const dpr = devicePixelRatio;
    const cell = m.view.s / dpr;
    const last = m.highlights[m.highlights.length - 1];
    const [x, y, side] = m.ringBox(last.bit);
    // The halo runs one line width outside the coloured ring: sample its top edge's middle.
    const w = 2.5 * dpr;
    const px = m.ctx.getImageData(Math.round(x + side / 2), Math.round(y - w), 1, 1).data;
    return { cell, sides: m.highlights.map((h) => m.ringBox(h.bit)[2] / dpr), halo: [...px.slice(0, 3)] };
  });
  assert.ok(rings.cell < 4, `a cell is ${rings.cell} px at Fit`);
  assert.ok(rings.sides.every((s) => s >= 16), `ring sides ${rings.sides}`);
  assert.ok(rings.halo.every((c) => c >= 180), `the halo pixel is light: ${rings.halo}`);
});

test('the zoom factor is shown', async () => {
  await page.click('#zoom-fit');
  await page.waitForFunction(() => /zoom Fit \(×1\)/.test(document.getElementById('zoom-info').textContent));
  await page.click('#zoom-in');
  await page.waitForFunction(() => /zoom ×2 of Fit/.test(document.getElementById('zoom-info').textContent));
  await page.click('#zoom-in');
  await page.waitForFunction(() => /zoom ×4 of Fit/.test(document.getElementById('zoom-info').textContent));
});

test('LevelDB: a styled key input, counts in words, the table’s own k and bits per key, bits to hover and walk, empty filters drawn as empty', async () => {
  const t = tables.find((x) => x.bits_per_key === 20); // 4 KiB blocks: some 2 KiB windows start no block
  await openFile(page, LEVELDB + t.file);
  assert.equal(await page.getAttribute('[data-testid=ldb-key-input]', 'type'), 'text');
  const style = await page.$eval('[data-testid=ldb-key-input]', (el) => ({ radius: getComputedStyle(el).borderRadius, font: getComputedStyle(el).fontFamily }));
  assert.equal(style.radius, '6px');
  assert.match(style.font, /monospace/);
  const summary = await text('#ldb-summary');
  assert.doesNotMatch(summary, /\b1 (filters|data blocks)\b/);
  assert.match(summary, /\d+ filters? in a [\d,]+-byte filter block/);
  // The note: this table's k (the manifest: LevelDB's formula for its bits_per_key), and a range
  // of bits_per_key that holds the one it was written with.
  const note = await text('[data-testid=ldb-note]');
  assert.match(note, new RegExp(`k = ${t.expected_k}:`), note);
  const [, lo, hi] = /written with (\d+)(?: or | to )?(\d+)? bits per key/.exec(note);
  assert.ok(t.bits_per_key >= Number(lo) && t.bits_per_key <= Number(hi ?? lo), `${t.bits_per_key} in ${lo}–${hi}`);
  assert.doesNotMatch(note, /0\.2 %|8 keys/);
  // Empty filters: no canvas (no black bar), the word instead.
  const figures = await page.$$eval('[data-testid=ldb-filter]', (fs) => fs.map((f) => ({ empty: f.classList.contains('empty'), canvas: !!f.querySelector('canvas'), text: f.textContent })));
  assert.ok(figures.some((f) => f.empty) && figures.some((f) => !f.empty), 'both kinds');
  assert.ok(figures.every((f) => f.empty !== f.canvas), 'empty filters have no canvas, the others have one');
  assert.ok(figures.filter((f) => f.empty).every((f) => /empty/.test(f.text)));
  // Hover a filter's first bit, then walk its bits by keyboard.
  const canvas = page.locator('[data-testid=ldb-filter]:not(.empty) canvas').first();
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + 1, box.y + 1);
  assert.match(await text('[data-testid=ldb-hover]'), /^filter #\d+, bit 0 of [\d,]+: (set|clear)$/);
  await canvas.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.match(await text('[data-testid=ldb-hover]'), /^filter #\d+, bit 2 of [\d,]+: (set|clear)$/);
  await page.keyboard.press('End');
  const bits = Number(/of ([\d,]+)/.exec(await text('[data-testid=ldb-hover]'))[1].replace(/,/g, ''));
  assert.match(await text('[data-testid=ldb-hover]'), new RegExp(`bit ${(bits - 1).toLocaleString('en')} of`));
  // The strip itself is reachable by keyboard.
  assert.equal(await page.getAttribute('#ldb-strip', 'tabindex'), '0');
});

test('no console errors and no request outside the page origin', () => {
  assert.deepEqual(harness.problems, []);
});


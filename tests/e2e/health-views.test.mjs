// Filter health beyond the gauge, in headless Chromium: the folder's outliers (the table's "Show"
// menu, views/fleet-table.js) and the PNG export's caption (views/heatmap.js). Expected values are computed here — states from
// the fixtures' manifest — never read from the view.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHarness, tsfileFixtures, openFile } from './harness.mjs';

const { manifest, byName, fixture } = tsfileFixtures();
const AXE = readFileSync(fileURLToPath(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url)), 'utf8');
const SHOTS = process.env.HEALTH_SHOTS; // a directory: screenshots to look at
const VIEWPORTS = [['desktop', { width: 1440, height: 900 }], ['phone', { width: 390, height: 844 }]];

let harness;
let tmp;
before(async () => {
  harness = await startHarness();
  tmp = mkdtempSync(join(tmpdir(), 'health-views-'));
});
after(async () => {
  await harness?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** A folder of copies of the named fixtures. */
function folder(name, names) {
  const dir = join(tmp, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  for (const n of names) copyFileSync(fixture(n), join(dir, byName[n].file));
  return dir;
}

async function seriousViolations(p, selector) {
  await p.evaluate(AXE);
  return p.evaluate(async (sel) => {
    const r = await globalThis.axe.run({ include: [[sel]] }, { resultTypes: ['violations'] });
    return r.violations.filter((v) => ['critical', 'serious'].includes(v.impact)).map((v) => v.id);
  }, selector);
}

const percent = (x) => `${(x * 100).toFixed(2)}%`;

/** The folder view's outliers after a scan of `dir` (audited or not): the rows "Show" picks out as past their design. */
async function outliers(p, dir, audit) {
  await p.evaluate((on) => (document.getElementById('fleet-audit').checked = on), audit); // hidden before the first scan
  await p.evaluate(() => (document.body.dataset.fleet = 'picking'));
  await p.setInputFiles('[data-testid=folder-input]', dir);
  await p.waitForFunction(() => document.body.dataset.fleet === 'done', null, { timeout: 60000 });
  await p.selectOption('[data-testid=fleet-show]', 'health');
  return p.evaluate(() => ({
    shown: document.querySelector('[data-testid=fleet-shown]').textContent,
    items: [...document.querySelectorAll('#fleet-rows .vlist-row')].map((row) => ({ ...row.dataset, cells: [...row.querySelectorAll('.cell')].map((c) => c.textContent) })),
  }));
}

for (const [device, viewport] of VIEWPORTS) {
  test(`across a folder of fixtures, "Show" picks out the over-filled file with its figures (${device})`, { timeout: 120000 }, async () => {
    const real = manifest.filter((e) => e.kind === 'real').map((e) => e.name);
    const hostile = manifest.filter((e) => e.name.startsWith('hostile_')).map((e) => e.name).slice(0, 8);
    const dir = folder(`all-${device}`, [...real, ...hostile]);
    const p = await harness.newPage({ viewport });
    const e = byName.tree_past_design;
    const fill = e.bloom.set_bits / e.bloom.bit_count; // 220 / 256
    const audited = await outliers(p, dir, true);
    // Named as the folder input names it: the folder, then the file.
    assert.deepEqual(audited.items.map((i) => [i.file, i.health]), [[`all-${device}/${e.file}`, 'over_filled']]);
    // Its fill and its false-positive rate (fill^k) in the table's columns.
    assert.deepEqual(audited.items[0].cells.slice(4, 6), [percent(fill), percent(fill ** 5)]);
    assert.match(audited.shown, new RegExp(`^1 of ${real.length + hostile.length} files shown$`));
    if (SHOTS) await p.locator('#fleet').screenshot({ path: `${SHOTS}/fleet-health-${device}.png` });
    assert.equal(await p.evaluate(() => document.scrollingElement.scrollWidth <= innerWidth), true, 'no sideways scroll');
    assert.deepEqual(await seriousViolations(p, '#fleet'), []);
    // Without the index its keys are not counted: the bits alone tell a high false-positive rate.
    const bitsOnly = await outliers(p, dir, false);
    assert.deepEqual(bitsOnly.items.map((i) => [i.file, i.health]), [[`all-${device}/${e.file}`, 'high_fp']]);
    await p.close();
  });
}

test('a folder whose filters are all within their design has no file past it, audited or not', { timeout: 90000 }, async () => {
  const dir = folder('healthy', ['tree_10series', 'table_multi_tables', 'tree_unicode']);
  const p = await harness.newPage({ viewport: { width: 1440, height: 900 } });
  const audited = await outliers(p, dir, true);
  assert.deepEqual(audited.items, []);
  assert.equal(audited.shown, '0 of 3 files shown');
  const bitsOnly = await outliers(p, dir, false);
  assert.deepEqual(bitsOnly.items, []);
  await p.close();
});

/** Width and height from a PNG's IHDR (bytes 16..23, big-endian). */
const pngSize = (buf) => ({ width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) });

for (const [device, viewport] of VIEWPORTS) {
  test(`the exported PNG is the map with a caption and the legend drawn under it (${device})`, { timeout: 90000 }, async () => {
    const p = await harness.newPage({ viewport });
    const e = byName.tree_past_design;
    const path = `${e.series[0].device.join('.')}.${e.series[0].measurement}`;
    await openFile(p, fixture('tree_past_design'));
    await p.waitForFunction(() => document.querySelector('[data-testid=health]')?.dataset.state === 'over_filled', null, { timeout: 20000 });
    await p.fill('[data-testid=path-input]', path);
    await p.press('[data-testid=path-input]', 'Enter');
    await p.waitForSelector('[data-testid=verdict]:not(:empty)');
    const [download] = await Promise.all([p.waitForEvent('download'), p.click('#export-png')]);
    assert.equal(download.suggestedFilename(), 'tree_past_design-bloom.png');
    const png = readFileSync(await download.path());
    if (SHOTS) copyFileSync(await download.path(), `${SHOTS}/export-${device}.png`);
    const canvas = await p.evaluate(() => ({ width: document.getElementById('heatmap').width, height: document.getElementById('heatmap').height }));
    const size = pngSize(png);
    assert.equal(size.width, canvas.width);
    assert.ok(size.height > canvas.height + 40, `${size.height} px tall, the map ${canvas.height}`);
    const caption = await p.getAttribute('#export-png', 'data-caption');
    assert.deepEqual(caption.split('\n'), [e.file, `path probed: ${path}`, `m = 256 bits · k = 5 · fill ${percent(220 / 256)} · health: Over-filled`]);
    // Drawn, not only said: under the map, pixels of the text's colour, the first seed's ring and the set colour.
    const drawn = await p.evaluate(async ({ bytes, top }) => {
      const img = await createImageBitmap(new Blob([new Uint8Array(bytes)], { type: 'image/png' }));
      const c = new OffscreenCanvas(img.width, img.height);
      const g = c.getContext('2d');
      g.drawImage(img, 0, 0);
      const d = g.getImageData(0, top, img.width, img.height - top).data;
      const css = (v) => v.match(/\d+/g).slice(0, 3).map(Number);
      const has = ([r, gr, b]) => {
        for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - r) + Math.abs(d[i + 1] - gr) + Math.abs(d[i + 2] - b) < 12) return true;
        return false;
      };
      const set = getComputedStyle(document.getElementById('heatmap')).getPropertyValue('--map-set').trim();
      return { text: has(css(getComputedStyle(document.body).color)), seed: has([0xe6, 0x19, 0x4b]), set: has([1, 3, 5].map((i) => parseInt(set.slice(i, i + 2), 16))) };
    }, { bytes: [...png], top: canvas.height });
    assert.deepEqual(drawn, { text: true, seed: true, set: true });
    await p.close();
  });
}

// The page on every screen (issue 41): a phone (390 × 844) never pans sideways, whatever is shown;
// the wheel over the heat-map scrolls the page (ctrl + wheel zooms); rings are never cut at the
// map's edges; the words say "tap" on a touch screen; "Open from the web" refuses what is no
// http(s) URL before any request; a focus ring shows on the focused control only; a file without a
// filter has no map controls to press and no empty seed table. Chromium through playwright-core.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suiteWithFleet, seriesPath, tsfileFixtures, openFile, probeOnPage, waitFleet } from './harness.mjs';

const { byName, fixture } = tsfileFixtures();
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

const suite = suiteWithFleet('screens');

const probe = probeOnPage;
const scrollWidth = (page) => page.evaluate(() => document.scrollingElement.scrollWidth);
/** The elements matching `selector` whose box ends past the viewport's right edge, as text. */
const pastRight = (page, selector) =>
  page.evaluate((sel) => [...document.querySelectorAll(sel)].filter((e) => e.getBoundingClientRect().right > innerWidth).map((e) => e.textContent.trim().slice(0, 40)), selector);

test('a phone never pans sideways: a file and its probe, the folder view, the teaching panel', { timeout: 120000 }, async () => {
  const page = await suite.harness.newPage(PHONE);
  assert.ok((await scrollWidth(page)) <= 390, 'landing');
  const e = byName.table_unicode;
  await openFile(page, fixture(e.name));
  await probe(page, seriesPath(e.series[0]));
  await page.click('#hypotheses-box summary');
  assert.ok((await scrollWidth(page)) <= 390, `a file and its probe: scrollWidth ${await scrollWidth(page)}`);
  // Each seed is a card: its "set by" and its "show" button on screen.
  assert.deepEqual(await pastRight(page, '[data-testid=probe-setters], [data-testid=probe-row] button'), []);
  assert.equal(await page.locator('[data-testid=probe-row] button').count(), e.bloom.hash_function_count);
  // A table that scrolls inside itself keeps each header on one line.
  const wrapped = await page.evaluate(() => [...document.querySelectorAll('#hypotheses th')].filter((th) => th.getBoundingClientRect().height > 2 * parseFloat(getComputedStyle(th).lineHeight || '20')).map((th) => th.textContent));
  assert.deepEqual(wrapped, []);
  // The folder view with two paths: the file and the first verdict in view, the figures scrolled to.
  await page.setInputFiles('[data-testid=folder-input]', suite.folder);
  await waitFleet(page);
  await page.fill('[data-testid=fleet-paths]', 'root.sg1.d1.s1 root.plant.area_north.line_07.machine_12.sensor_block.temperature');
  await page.click('#fleet-rescan');
  await waitFleet(page);
  assert.ok((await scrollWidth(page)) <= 390, `the folder view: scrollWidth ${await scrollWidth(page)}`);
  await page.locator('#fleet-rows').scrollIntoViewIfNeeded();
  assert.deepEqual(await pastRight(page, '#fleet-rows .vlist-row .fleet-verdict:first-of-type, #fleet-head button[data-key=v0]'), []);
  // The teaching panel, its sandbox filled and its tables shown.
  await page.click('[data-testid=sb-random]');
  await page.locator('#teach-compare').scrollIntoViewIfNeeded();
  assert.ok((await scrollWidth(page)) <= 390, `the teaching panel: scrollWidth ${await scrollWidth(page)}`);
  await page.context().close();
});

test('the words say "tap" on a touch screen and "hover" with a mouse; every mark has its legend', async () => {
  const phone = await suite.harness.newPage(PHONE);
  await openFile(phone, fixture('tree_10series'));
  assert.match(await phone.innerText('#hover'), /^Tap or focus the map/);
  assert.match(await phone.innerText('#sb-cell'), /^Tap or focus the grid/);
  await phone.context().close();
  const desk = await suite.harness.newPage({ viewport: { width: 1440, height: 900 } });
  await openFile(desk, fixture('tree_10series'));
  assert.match(await desk.innerText('#hover'), /^Hover or focus the map/);
  for (const legend of ['map-legend', 'sb-legend']) {
    const text = await desk.innerText(`[data-testid=${legend}]`);
    assert.match(text, /set/, legend);
    assert.match(text, /clear/, legend);
  }
  // The dashed ring's key is drawn dashed, the solid one's solid.
  const dashes = await desk.evaluate(() => [...document.querySelectorAll('[data-testid=map-legend] .mark rect')].map((r) => r.getAttribute('stroke-dasharray')));
  assert.equal(dashes[0], null);
  assert.ok(dashes[1]);
  await desk.context().close();
});

test('the wheel over the heat-map scrolls the page; ctrl + wheel zooms', async () => {
  const page = await suite.harness.newPage({ viewport: { width: 1440, height: 900 } });
  await openFile(page, fixture('tree_10k_series'));
  await page.evaluate(() => document.getElementById('heatmap').scrollIntoView({ block: 'center' }));
  const box = await page.locator('#heatmap').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const y0 = await page.evaluate(() => scrollY);
  await page.mouse.wheel(0, 400);
  await page.waitForFunction((y) => scrollY > y, y0, { timeout: 10000 });
  assert.match(await page.textContent('#zoom-info'), /Fit \(×1\)/, 'a plain wheel does not zoom');
  const b = await page.locator('#heatmap').boundingBox();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -400);
  await page.keyboard.up('Control');
  await page.waitForFunction(() => !/Fit \(×1\)/.test(document.getElementById('zoom-info').textContent), null, { timeout: 10000 });
  await page.context().close();
});

test('a two-finger pinch on a touch screen zooms the map', async () => {
  const page = await suite.harness.newPage(PHONE);
  await openFile(page, fixture('tree_10k_series'));
  await page.evaluate(() => document.getElementById('heatmap').scrollIntoView({ block: 'center' }));
  const b = await page.locator('#heatmap').boundingBox();
  const cx = b.x + b.width / 2;
  const cy = b.y + b.height / 2;
  const cdp = await page.context().newCDPSession(page);
  const touch = (type, d) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x: cx - d, y: cy, id: 1 }, { x: cx + d, y: cy, id: 2 }] });
  await touch('touchStart', 20);
  for (const d of [30, 45, 60, 80]) await touch('touchMove', d);
  await touch('touchEnd');
  await page.waitForFunction(() => !/Fit \(×1\)/.test(document.getElementById('zoom-info').textContent), null, { timeout: 10000 });
  await page.context().close();
});

/**
 * The box of the pixels of colour `rgb` on canvas `id` (its bitmap as drawn), or null:
 * `{left, top, right, bottom}` in canvas pixels.
 */
const colourBox = (page, id, rgb) =>
  page.evaluate(
    ({ id, rgb }) => {
      const c = document.getElementById(id);
      const copy = document.createElement('canvas');
      copy.width = c.width;
      copy.height = c.height;
      const ctx = copy.getContext('2d');
      ctx.drawImage(c, 0, 0);
      const d = ctx.getImageData(0, 0, c.width, c.height).data;
      let box = null;
      for (let y = 0; y < c.height; y++) {
        for (let x = 0; x < c.width; x++) {
          const o = (y * c.width + x) * 4;
          if (d[o] !== rgb[0] || d[o + 1] !== rgb[1] || d[o + 2] !== rgb[2]) continue;
          box ??= { left: x, top: y, right: x, bottom: y, width: c.width, height: c.height };
          box.left = Math.min(box.left, x);
          box.right = Math.max(box.right, x);
          box.top = Math.min(box.top, y);
          box.bottom = Math.max(box.bottom, y);
        }
      }
      return box;
    },
    { id, rgb },
  );

/** Whether the ring's box is square (not cut by an edge) and inside the canvas. */
function assertWholeRing(box, what) {
  assert.ok(box, `${what}: the ring is drawn`);
  assert.ok(box.left > 0 && box.top > 0 && box.right < box.width - 1 && box.bottom < box.height - 1, `${what}: inside the canvas ${JSON.stringify(box)}`);
  // Square within a pixel (a dashed ring's dashes may miss a corner); a cut ring is short by its cut.
  assert.ok(Math.abs(box.right - box.left - (box.bottom - box.top)) <= 1, `${what}: a whole square ring ${JSON.stringify(box)}`);
}

test('a ring at the edge of the heat-map or the sandbox grid is whole (row 0, the first and last column)', async () => {
  const page = await suite.harness.newPage({ viewport: { width: 1440, height: 900 } });
  await openFile(page, fixture('tree_10series'));
  const cols = await page.evaluate(() => globalThis.inspector.map.cols);
  const bitCount = byName.tree_10series.bloom.bit_count;
  for (const bit of [0, cols - 1, bitCount - 1]) {
    await page.evaluate((bit) => globalThis.inspector.map.setHighlights([{ bit, color: '#ff00ff', set: bit !== 0 }]), bit);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assertWholeRing(await colourBox(page, 'heatmap', [255, 0, 255]), `heat-map bit ${bit}`);
  }
  // The sandbox's layout: a canvas sized to its cells (BitGrid.layoutCells), 10 px a bit.
  await page.evaluate(async () => {
    const { BitGrid } = await import('./shared/bitgrid.js');
    const c = document.createElement('canvas');
    c.id = 'ring-test';
    document.body.append(c);
    const g = new BitGrid(c);
    g.setBits(new Uint8Array(32), 256, 16);
    g.layoutCells(16, 10);
    globalThis.ringTest = g;
  });
  for (const bit of [0, 15, 255]) {
    await page.evaluate((bit) => {
      globalThis.ringTest.highlights = [{ bit, color: '#ff00ff', set: true }];
      globalThis.ringTest.draw();
    }, bit);
    assertWholeRing(await colourBox(page, 'ring-test', [255, 0, 255]), `sandbox grid bit ${bit}`);
  }
  await page.context().close();
});

test('"Open from the web" takes only http(s) URLs: anything else is said in a sentence, and nothing is requested', async () => {
  const page = await suite.harness.newPage();
  await page.waitForLoadState('networkidle');
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  for (const [typed, said] of [
    ['not a url', /invalid_argument.*“not”, “a”, “url” are not an http\(s\) URL: give a file’s whole address/s],
    ['root.sg1.d1.s1', /“root\.sg1\.d1\.s1” is not an http\(s\) URL.*A series path is tested under “Test a series path”/s],
    ['samples/sample.tsfile', /“samples\/sample\.tsfile” is not an http\(s\) URL/],
  ]) {
    await page.fill('[data-testid=remote-urls]', typed);
    await page.click('[data-testid=remote-open]');
    await page.waitForSelector('[data-testid=error]:not([hidden])');
    assert.match(await page.textContent('[data-testid=error]'), said, typed);
    assert.equal(await page.evaluate(() => document.getElementById('fleet').hidden), true, `${typed}: no folder scan`);
  }
  await page.waitForLoadState('networkidle');
  assert.deepEqual(requests, []);
  await page.context().close();
});

test('"Open from the web" on a 390 px phone: the placeholder fits its box, and the hint for several URLs and a listing is in view', async () => {
  const page = await suite.harness.newPage(PHONE);
  const box = await page.evaluate(() => {
    const t = document.querySelector('[data-testid=remote-urls]');
    const s = getComputedStyle(t);
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = `${s.fontSize} ${s.fontFamily}`;
    return { text: ctx.measureText(t.placeholder).width, room: t.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) };
  });
  assert.ok(box.text <= box.room, `the placeholder (${box.text.toFixed(0)} px) fits its box (${box.room.toFixed(0)} px)`);
  const hint = page.locator('[data-testid=remote-hint]');
  assert.ok(await hint.isVisible());
  assert.match(await hint.innerText(), /one a line: Shift\+Enter.*list-type=2&prefix=/s);
  assert.deepEqual(await pastRight(page, '[data-testid=remote-hint], [data-testid=remote-urls]'), []);
  await page.context().close();
});

test('focus: the hidden file input rings its own button only', async () => {
  const page = await suite.harness.newPage();
  await page.keyboard.press('Tab'); // the skip link
  await page.keyboard.press('Tab'); // the file input (visually hidden), drawn as its label
  assert.equal(await page.evaluate(() => document.activeElement.id), 'file-input');
  const rings = await page.evaluate(() => Object.fromEntries(['label[for=file-input]', '#folder-open', '#sample'].map((s) => [s, getComputedStyle(document.querySelector(s)).outlineStyle])));
  assert.deepEqual(rings, { 'label[for=file-input]': 'solid', '#folder-open': 'none', '#sample': 'none' });
  await page.context().close();
});

test('a file without a filter: no map control to press and no empty seed table', async () => {
  const page = await suite.harness.newPage();
  await openFile(page, fixture('tree_10series'));
  const ids = ['zoom-out', 'zoom-in', 'zoom-fit', 'goto', 'goto-submit', 'export-png'];
  const disabled = () => page.evaluate((ids) => ids.filter((id) => document.getElementById(id).disabled), ids);
  assert.deepEqual(await disabled(), []);
  await openFile(page, fixture('table_empty'));
  assert.deepEqual(await disabled(), ids);
  await probe(page, 'root.sg1.d1.s1');
  assert.equal(await page.isVisible('#probes'), false);
  // A file with a filter again: the controls come back.
  await openFile(page, fixture('tree_10series'));
  assert.deepEqual(await disabled(), []);
  await probe(page, seriesPath(byName.tree_10series.series[0]));
  assert.equal(await page.isVisible('#probes'), true);
  await page.context().close();
});

test('no console errors and no request outside the page origin', () => {
  assert.deepEqual(suite.harness.problems, []);
});

// The inspector page in headless Chromium (Debian's /usr/bin/chromium through playwright-core),
// served from dist/site by scripts/serve.mjs. Expected values come from the fixtures' manifest
// (written by the generator from the real writer and its reader), never from our own code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { suite, tsfileFixtures, openFile, seriesPath } from './harness.mjs';

const { manifest, byName, fixture } = tsfileFixtures();

let harness;
let page;
suite(async (h) => {
  harness = h;
  page = await h.newPage();
});

/** Loads a file through the file input and waits until the page settles (ready or error). */
async function open(p, name) {
  await openFile(p, fixture(name));
}

/** Drops a file on the page as a user would (a DragEvent carrying a File). */
async function drop(p, name) {
  const bytes = [...readFileSync(fixture(name))];
  await p.evaluate(() => (document.body.dataset.state = 'picking'));
  await p.evaluate(({ bytes, file }) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(bytes)], file));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  }, { bytes, file: byName[name].file });
  await p.waitForFunction(() => ['ready', 'error'].includes(document.body.dataset.state), null, { timeout: 20000 });
}

async function probe(p, path) {
  await p.fill('[data-testid=path-input]', path);
  await p.evaluate(() => (document.querySelector('[data-testid=verdict]').textContent = ''));
  await p.press('[data-testid=path-input]', 'Enter');
  await p.waitForFunction(() => document.querySelector('[data-testid=verdict]').textContent !== '', null, { timeout: 10000 });
  return {
    verdict: await p.textContent('[data-testid=verdict]'),
    rows: await p.locator('[data-testid=probe-row]').count(),
    states: await p.locator('[data-testid=probe-row] td:nth-child(5)').allTextContents(),
  };
}

const text = async (p, id) => (await p.textContent(`[data-testid=${id}]`)).trim();

test('the summary of real files matches the manifest', async () => {
  const names = ['tree_1series', 'tree_10series', 'tree_unicode', 'table_unicode', 'table_multi_tables', 'tree_deep_index_degree3', 'table_10k_series', 'synthetic_java_hash', 'synthetic_v3_tail', 'mixed'];
  for (const name of names) {
    const e = byName[name];
    await open(page, name);
    assert.equal(await page.getAttribute('body', 'data-state'), 'ready', name);
    assert.equal(await page.isVisible('[data-testid=error]'), false, `${name}: no error`);
    assert.equal(await text(page, 'version'), String(e.version), `${name}: version`);
    assert.equal(await text(page, 'bit-count'), e.bloom.bit_count.toLocaleString('en'), `${name}: bit_count`);
    assert.equal(await text(page, 'hash-function-count'), String(e.bloom.hash_function_count), `${name}: hash_function_count`);
    if (e.bloom.byte_length != null) assert.equal(await text(page, 'byte-length'), e.bloom.byte_length.toLocaleString('en'), `${name}: byte_length`);
    assert.match(await text(page, 'set-bits'), /^\d{1,3}(,\d{3})*$/);
    assert.match(await page.textContent('#series-count'), new RegExp(`\\(${e.series_count.toLocaleString('en')}`), `${name}: series count`);
  }
});

test('a file without a filter says so', async () => {
  await open(page, 'table_empty');
  assert.equal(await page.getAttribute('body', 'data-state'), 'ready');
  assert.equal(await text(page, 'version'), String(byName.table_empty.version));
  assert.match(await page.textContent('#audit'), /no filter/i);
});

test('probing: an indexed series is maybe, with one row per seed; an unindexed path with a clear bit is absent', async () => {
  const e = byName.tree_10series;
  await open(page, 'tree_10series');
  const hit = await probe(page, seriesPath(e.series[1]));
  assert.match(hit.verdict, /maybe/);
  assert.equal(hit.rows, e.bloom.hash_function_count);
  assert.ok(hit.states.every((s) => s === 'set'));

  const e1 = byName.tree_1series;
  await open(page, 'tree_1series');
  const miss = await probe(page, 'root.sg1.d1.not_written');
  assert.match(miss.verdict, /absent/);
  assert.equal(miss.rows, e1.bloom.hash_function_count);
  assert.ok(miss.states.includes('clear'), 'an absent verdict shows a clear bit');
  // Unicode table model: the indexed path with non-ASCII tail bytes is found under the writer's hash.
  const u = byName.table_unicode;
  await open(page, 'table_unicode');
  const uni = await probe(page, u.paths_with_high_tail_bytes[0]);
  assert.match(uni.verdict, /maybe/);
  assert.equal(uni.rows, u.bloom.hash_function_count);
});

test('autocomplete offers the indexed series that match what is typed, in the field’s datalist', async () => {
  const e = byName.tree_10series;
  await open(page, 'tree_10series');
  await page.fill('[data-testid=path-input]', 'root.sg1.d2.s_d');
  await page.waitForSelector('#suggest option', { state: 'attached' });
  assert.deepEqual(await page.$$eval('#suggest option', (os) => os.map((o) => o.value)), [seriesPath(e.series[4])]);
  assert.equal(await page.getAttribute('[data-testid=path-input]', 'list'), 'suggest');
  // A prefix of every series (in any case): each of the ten is offered.
  assert.equal(e.series.length, 10);
  await page.fill('[data-testid=path-input]', 'ROOT.');
  const offered = await page.$$eval('#suggest option', (os) => os.map((o) => o.value));
  assert.deepEqual(offered.sort(), e.series.map(seriesPath).sort());
});

test('the heat-map is drawn, zooms to a probed bit, and hover names the series that set a bit', async () => {
  await open(page, 'tree_1series');
  const e = byName.tree_1series;
  const pixels = await page.evaluate(() => {
    const c = document.querySelector('[data-testid=heatmap]');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    for (let i = 0; i < d.length; i += 16) colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return { w: c.width, h: c.height, colours: colours.size };
  });
  assert.ok(pixels.w > 100 && pixels.h > 100, 'canvas has a size');
  assert.ok(pixels.colours >= 3, `canvas shows set bits, clear bits and background (${pixels.colours} colours)`);
  // Probe the one series, then hover its first bit: the provenance names it.
  const path = seriesPath(e.series[0]);
  await probe(page, path);
  const bit = Number((await page.textContent('[data-testid=probe-row] td:nth-child(4)')).replace(/,/g, ''));
  await page.click('[data-testid=probe-row] button');
  const pos = await page.evaluate((b) => {
    const m = inspector.map;
    const v = m.view;
    const r = m.canvas.getBoundingClientRect();
    const k = r.width / m.canvas.width;
    return { x: ((b % m.cols) + 0.5 - v.ox) * v.s * k, y: (Math.floor(b / m.cols) + 0.5 - v.oy) * v.s * k };
  }, bit);
  await page.hover('[data-testid=heatmap]', { position: pos });
  await page.waitForFunction((b) => document.querySelector('#hover').textContent.startsWith(`bit ${b.toLocaleString('en')} `), bit);
  const hover = await page.textContent('#hover');
  assert.match(hover, /SET/);
  assert.ok(hover.includes(path), `hover names ${path}: ${hover}`);
  // Keyboard: arrows move the cursor, 0 fits the whole vector.
  await page.focus('[data-testid=heatmap]');
  await page.keyboard.press('ArrowRight');
  assert.ok((await page.textContent('#hover')).startsWith(`bit ${(bit + 1).toLocaleString('en')} `) || bit + 1 >= e.bloom.bit_count);
  await page.keyboard.press('0');
  // PNG export is a download of an image.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-png')]);
  assert.match(download.suggestedFilename(), /\.png$/);
});

test('hostile files show the error kind and the page keeps working', async () => {
  const hostile = manifest.filter((e) => e.kind === 'hostile');
  assert.ok(hostile.length >= 10);
  for (const [i, e] of hostile.entries()) {
    // Half through the file input, half dropped on the page.
    if (i % 2) await drop(page, e.name);
    else await open(page, e.name);
    assert.equal(await page.isVisible('[data-testid=error]'), true, `${e.name}: error box shown`);
    const box = await page.textContent('[data-testid=error]');
    assert.ok(box.includes(e.error_kind), `${e.name}: expected ${e.error_kind} in "${box}"`);
    // The manifest's offset is a hint (the reader may stop a byte or two further): check one is shown.
    assert.match(box, /at byte \d/, `${e.name}: a byte offset in "${box}"`);
  }
  // Partial results: an index error keeps the summary from TsFileMetadata.
  await open(page, 'hostile_unknown_data_type_7');
  assert.equal(await page.isVisible('#summary'), true);
  assert.equal(await text(page, 'bit-count'), byName.tree_1series.bloom.bit_count.toLocaleString('en'));
  // And a good file after all of them works.
  await open(page, 'tree_10series');
  assert.equal(await page.isVisible('[data-testid=error]'), false);
  assert.equal(await text(page, 'bit-count'), byName.tree_10series.bloom.bit_count.toLocaleString('en'));
  assert.match((await probe(page, seriesPath(byName.tree_10series.series[0]))).verdict, /maybe/);
});

test('series list (virtualised) and a batch in the worker with CSV export', async () => {
  const e = byName.table_10k_series;
  await open(page, 'table_10k_series');
  const rendered = await page.locator('#series .vlist-row').count();
  assert.ok(rendered > 0 && rendered < 200, `only visible rows are in the DOM (${rendered})`);
  const target = seriesPath(e.series[1234]);
  await page.fill('#series-filter', target);
  await page.waitForFunction(() => document.querySelectorAll('#series .vlist-row').length === 1);
  await page.evaluate(() => (document.querySelector('[data-testid=verdict]').textContent = ''));
  await page.click('#series .vlist-row');
  await page.waitForFunction(() => document.querySelector('[data-testid=verdict]').textContent !== '');
  assert.equal(await page.inputValue('[data-testid=path-input]'), target);
  assert.match(await text(page, 'verdict'), /maybe/);

  const indexed = e.series.slice(0, 3000).map(seriesPath);
  const others = Array.from({ length: 500 }, (_, i) => `nowhere.x${i}.y`);
  await page.$eval('#batch-input', (el, v) => (el.value = v), indexed.concat(others).join('\n'));
  await page.click('#batch-run');
  await page.waitForFunction(() => !document.querySelector('#batch-results-box').hidden, null, { timeout: 20000 });
  const summary = await page.textContent('#batch-summary');
  assert.match(summary, /^3,500 paths/);
  const maybe = Number(/([\d,]+) maybe present/.exec(summary)[1].replace(/,/g, ''));
  assert.ok(maybe >= 3000, `every indexed path is maybe (${summary})`);
  // False positives: maybe-present paths the manifest's series list does not hold — marked on
  // their rows, and a filter of their own.
  const listed = new Set(e.series.map(seriesPath));
  const fp = maybe - 3000;
  // A filter sized for ~5 % false positives: some of 500 unlisted paths are among them.
  assert.ok(fp > 0, summary);
  await page.selectOption('[data-testid=batch-show]', 'fp');
  assert.equal(await page.textContent('[data-testid=batch-shown]'), `${fp} of 3,500 shown`);
  if (fp) {
    const rows = await page.$$eval('#batch-results .vlist-row', (rs) => rs.map((r) => ({ path: r.querySelector('.path').textContent, fp: r.dataset.falsePositive, badge: r.textContent, decision: r.querySelector('.badge').className })));
    // Each row's badge is its decision: a false positive's is not the colour of a listed path's.
    assert.ok(rows.every((r) => r.decision === 'badge decision false_positive'), JSON.stringify(rows.slice(0, 3)));
    assert.ok(rows.length > 0 && rows.every((r) => !listed.has(r.path) && r.fp === 'true' && /false positive/.test(r.badge)), JSON.stringify(rows.slice(0, 3)));
  }
  assert.match(summary, fp ? new RegExp(`\\(${fp} of them not in the index: false positives, marked\\)`) : /^(?!.*false positives)/);
  await page.selectOption('[data-testid=batch-show]', 'maybe');
  const maybeRows = await page.$$eval('#batch-results .vlist-row', (rs) => rs.map((r) => ({ path: r.querySelector('.path').textContent, decision: r.querySelector('.badge').className })));
  assert.ok(maybeRows.some((r) => listed.has(r.path)), 'some listed paths are shown');
  for (const r of maybeRows) assert.equal(r.decision, `badge decision ${listed.has(r.path) ? 'indexed' : 'false_positive'}`, r.path);
  await page.selectOption('[data-testid=batch-show]', 'absent');
  const absent = Number(/([\d,]+) definitely absent/.exec(summary)[1].replace(/,/g, ''));
  assert.equal(await page.textContent('[data-testid=batch-shown]'), `${absent.toLocaleString('en')} of 3,500 shown`);
  assert.ok((await page.$$eval('#batch-results .vlist-row', (rs) => rs.map((r) => r.dataset.verdict))).every((v) => v === 'absent'));
  await page.selectOption('[data-testid=batch-show]', 'all');
  // The exports say which hash and charset the verdicts rest on, and the audit's status.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  const csv = readFileSync(await download.path(), 'utf8').trim().split(/\r?\n/);
  assert.equal(csv[0], 'path,verdict,indexed,false_positive,hash_variant,charset,hash_chosen_by,audit_status');
  assert.equal(csv.length, 3501);
  // The audit can tell the writer's tail variant only from a path whose tail is not ASCII.
  const ascii = [...listed].every((p) => /^[\x00-\x7f]*$/.test(p)) && (e.time_columns ?? []).every((t) => /^[\x00-\x7f]*$/.test(t.device.join('.')));
  const [status, variant] = ascii ? ['ambiguous', 'java or zero-extended'] : ['established', e.hash_variant];
  const cells = csv.slice(1).map((l) => l.split(','));
  assert.ok(cells.every((c) => c[4] === variant && c[5] === 'UTF-8' && c[6] === 'audit' && c[7] === status), csv[1]);
  assert.equal(cells.filter((c) => c[3] === 'true').length, fp);
  const [json] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
  const out = JSON.parse(readFileSync(await json.path(), 'utf8'));
  assert.deepEqual(out.hash, { variant, charset: 'UTF-8', chosen: 'audit' });
  assert.equal(out.audit.status, status);
  assert.equal(out.results.filter((r) => r.falsePositive).length, fp);
});

test('an 8-Mbit filter renders at every zoom (the time a frame takes is reported, not asserted)', async () => {
  const p = await harness.newPage();
  const capacity = 1_300_000;
  await p.goto(`${harness.origin}/?synthetic=${capacity}&items=20000`);
  await p.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 30000 });
  // Java's getEmptyBloomFilter(0.05, n) sizing (spec §6), computed here independently.
  const m = Math.max(256, Math.floor((-capacity * Math.log(0.05)) / Math.LN2 ** 2) + 1);
  assert.equal(await text(p, 'bit-count'), m.toLocaleString('en'));
  const frames = await p.evaluate(() => {
    const map = inspector.map;
    const out = [];
    for (const f of [1, 3, 20, 400]) {
      map.fit();
      map.zoomBy(f);
      const t = performance.now();
      map.draw();
      const ms = performance.now() - t;
      // Something was drawn: the canvas holds pixels other than the background's.
      const c = map.canvas;
      const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let colours = new Set();
      for (let i = 0; i < px.length && colours.size < 3; i += 4 * 97) colours.add(`${px[i]},${px[i + 1]},${px[i + 2]}`);
      out.push({ f, zoom: map.describe().zoom, ms, colours: colours.size });
    }
    return out;
  });
  // Each zoom goes further in (up to the map's limit) and shows the bits.
  frames.forEach(({ f, zoom, colours }, i) => {
    if (i > 0) assert.ok(zoom > frames[i - 1].zoom || zoom === frames[i - 1].zoom, `zoom ${f}: ${zoom}`);
    assert.ok(f === 1 || zoom > 1, `zoomed by ${f}: ${zoom}`);
    assert.ok(colours >= 2, `zoom ${f}: the canvas shows the bits (${colours} colours sampled)`);
  });
  console.log(`# 8-Mbit filter: slowest frame ${Math.max(...frames.map((x) => x.ms)).toFixed(1)} ms`);
  await p.context().close();
});

test('dark mode and a narrow screen lay out without horizontal scrolling', async () => {
  const p = await harness.newPage({ colorScheme: 'dark', viewport: { width: 390, height: 800 } });
  await open(p, 'table_unicode');
  const bg = await p.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.notEqual(bg, 'rgb(255, 255, 255)');
  assert.equal(await p.evaluate(() => document.documentElement.scrollWidth <= innerWidth), true);
  await p.context().close();
});

test('no console errors and no request outside the page origin', () => {
  assert.deepEqual(harness.problems, []);
});

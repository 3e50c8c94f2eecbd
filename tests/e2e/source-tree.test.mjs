// The page served as it stands in the source tree (www/, scripts/serve.mjs --source): its
// imports of the package (pkg/js → js/, pkg/dist/web → dist/web/) and its samples are links in
// www/, so the page, its workers and the teaching module load without the build's copy
// (dist/site). Expected values are the sample's manifest entry (tests/fixtures/tsfile).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startHarness, tsfileFixtures } from './harness.mjs';
import { SOURCE_ROOT } from '../../scripts/serve.mjs';

const { byName } = tsfileFixtures();
const SAMPLE = byName.table_unicode;

let harness;
let page;
const served = [];

before(async () => {
  harness = await startHarness({ root: SOURCE_ROOT });
  page = await harness.browser.newPage();
  page.on('console', (m) => m.type() === 'error' && harness.problems.push(`console.error: ${m.text()}`));
  page.on('pageerror', (e) => harness.problems.push(`pageerror: ${e.message}`));
  page.on('response', (r) => served.push([new URL(r.url()).pathname, r.status()]));
  await page.goto(`${harness.origin}/`);
});

after(async () => {
  await harness?.close();
});

test('the source tree’s www/ opens the sample, probes it and loads its workers and the teaching module', async () => {
  await page.evaluate(() => (document.body.dataset.state = 'picking'));
  await page.click('#sample');
  await page.waitForFunction(() => ['ready', 'error'].includes(document.body.dataset.state), null, { timeout: 30000 });
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'ready');
  assert.equal(await page.textContent('[data-testid=bit-count]'), String(SAMPLE.bloom.bit_count));
  assert.equal(await page.textContent('[data-testid=hash-function-count]'), String(SAMPLE.bloom.hash_function_count));
  assert.match(await page.textContent('#series-count'), new RegExp(`\\(${SAMPLE.series_count}`));
  // A series the manifest lists: every bit set (the filter never misses a series it holds).
  const s = SAMPLE.series[0];
  await page.fill('[data-testid=path-input]', `${s.device.join('.')}.${s.measurement}`);
  await page.press('[data-testid=path-input]', 'Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=verdict]').textContent !== '', null, { timeout: 10000 });
  assert.match(await page.textContent('[data-testid=verdict]'), /maybe/i);
  const ldb = await page.evaluate(async () => new Uint8Array(await (await fetch('samples/sample.ldb')).arrayBuffer()).length);
  assert.equal(ldb, readFileSync(new URL('../fixtures/leveldb/ascii_bits4_snappy-000008.ldb', import.meta.url)).length);
  // What the page fetched came through the links: the package's modules and the wasm.
  const paths = served.map(([p]) => p);
  const wanted = ['/pkg/js/worker-client.js', '/worker/page-worker.js', '/pkg/js/worker.js', '/pkg/dist/web/tsfile_bloom_bg.wasm', '/pkg/dist/web/teach_bg.wasm', '/samples/sample.tsfile'];
  for (const want of wanted) {
    assert.ok(paths.includes(want), `${want} served (${paths.length} responses)`);
  }
  assert.deepEqual(served.filter(([, status]) => status >= 400), []);
  assert.deepEqual(harness.problems, []);
});

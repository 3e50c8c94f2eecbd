// Dropping a LevelDB table on the page: the filter strip, and a key routed to its data
// block and filter with the k probes. Tables and keys come from real LevelDB 1.22 (plyvel).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startHarness, openFile, countMainThreadWasm } from './harness.mjs';

const DIR = fileURLToPath(new URL('../fixtures/leveldb/', import.meta.url));
const { tables } = JSON.parse(readFileSync(`${DIR}manifest.json`, 'utf8'));

let harness;
let page;

before(async () => {
  harness = await startHarness();
  page = await harness.newPage({ initScript: countMainThreadWasm });
});

after(async () => {
  await harness?.close();
});

const open = (file) => openFile(page, DIR + file);

test('a table with a filter: strip of filters, a live key routed and maybe-present', async () => {
  const t = tables.find((x) => x.bits_per_key === 10);
  await open(t.file);
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'ready');
  assert.ok(await page.isVisible('#leveldb'));
  assert.ok(!(await page.isVisible('#content')));
  assert.match(await page.textContent('#ldb-summary'), new RegExp(t.filter_policy.replace('.', '\\.')));
  const filters = await page.locator('[data-testid=ldb-filter]').count();
  assert.ok(filters >= 2, `${filters} filters shown`);
  await page.check('#ldb-hex');
  await page.fill('[data-testid=ldb-key-input]', t.live_keys[0]);
  await page.press('[data-testid=ldb-key-input]', 'Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=ldb-verdict]').textContent.length > 0);
  assert.match(await page.textContent('[data-testid=ldb-verdict]'), /^Maybe present/);
  assert.equal(await page.locator('.ldb-filter.hit').count(), 1);
  assert.equal(await page.locator('.ldb-block.hit').count(), 1);
  assert.match(await page.textContent('#ldb-probes'), new RegExp(`(\\d+ (set|clear)( · )?){${t.expected_k}}`));
  // The table was read and probed in the worker.
  assert.deepEqual(await page.evaluate(() => globalThis.__wasmOnMain), []);
});

test('a table without a filter, then a corrupted table, then a TsFile again', async () => {
  const none = tables.find((x) => !x.bits_per_key);
  await open(none.file);
  assert.match(await page.textContent('#ldb-summary'), /no filter block/);
  assert.equal(await page.locator('[data-testid=ldb-filter]').count(), 0);
  // A table whose filter block CRC is broken: the error box names the kind and offset.
  const t = tables.find((x) => x.bits_per_key === 4);
  const bytes = readFileSync(DIR + t.file);
  bytes[bytes.length - 60] ^= 0x01; // inside the index block or its trailer near the footer
  await page.evaluate(() => (document.body.dataset.state = 'picking'));
  await page.setInputFiles('[data-testid=file-input]', { name: 'broken.ldb', mimeType: 'application/octet-stream', buffer: bytes });
  await page.waitForFunction(() => ['ready', 'error'].includes(document.body.dataset.state), null, { timeout: 20000 });
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'error');
  assert.match(await page.textContent('[data-testid=error]'), /bad_checksum|bad_block|bad_block_handle|bad_filter_block/);
  await openFile(page, fileURLToPath(new URL('../fixtures/tsfile/tree_1series.tsfile', import.meta.url)));
  assert.equal(await page.textContent('[data-testid=bit-count]'), '256');
  assert.ok(!(await page.isVisible('#leveldb')));
  assert.deepEqual(harness.problems, []);
});

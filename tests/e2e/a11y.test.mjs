// Accessibility: axe-core 4.14 (devDependency; node_modules/axe-core/axe.min.js injected into the
// page) over every inspector, folder-view and LevelDB panel in each state a user reaches — no
// file, a file with its probe (maybe, absent, unknown), the series list and a batch, the
// hypotheses open, a hostile file's error, an unreadable index, a folder scanned with several
// paths, a LevelDB table probed — in light and dark mode, at 1440 × 900 and on a 390 × 844 phone.
// Critical and serious violations fail the test. The teaching panel (#teach) is checked here as
// a newcomer lands on it, the whole page; its demonstrations are its own suite's (teach-lesson).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { suiteWithFleet, seriesPath, tsfileFixtures, openFile, probeOnPage, waitFleet } from './harness.mjs';

const AXE = readFileSync(fileURLToPath(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url)), 'utf8');
const LEVELDB = fileURLToPath(new URL('../fixtures/leveldb/', import.meta.url));
const { tables } = JSON.parse(readFileSync(`${LEVELDB}manifest.json`, 'utf8'));
const { byName, fixture } = tsfileFixtures();

const suite = suiteWithFleet('a11y');

/** axe's critical and serious violations on the page (the teaching panel excluded unless `whole`), as lines. */
async function violations(page, whole = false) {
  if (!(await page.evaluate(() => typeof globalThis.axe === 'object'))) await page.evaluate(AXE);
  // What a user sees once it settles: a load's dimming fades (style.css) before axe measures colours.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => {}))));
  const found = await page.evaluate(async (whole) => {
    const r = await globalThis.axe.run(whole ? document : { exclude: [['#teach']] }, { resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1, 3).join(' ')}`) }));
  }, whole);
  return found.map((v) => `${v.impact} ${v.id} (${v.help}): ${v.nodes.join(' | ')}`);
}

const probe = probeOnPage;

for (const colorScheme of ['light', 'dark']) {
  for (const [device, viewport] of [['desktop', { width: 1440, height: 900 }], ['phone', { width: 390, height: 844 }]]) {
    test(`axe: no critical or serious violation in any panel or state (${colorScheme}, ${device})`, { timeout: 120000 }, async () => {
      const page = await suite.harness.newPage({ colorScheme, viewport, bypassCSP: true });
      const found = [];
      const check = async (state, whole = false) => {
        for (const v of await violations(page, whole)) found.push(`[${state}] ${v}`);
      };
      await check('landing, the whole page', true);
      // A C++ file with Unicode names and time columns: probes maybe (listed) and absent.
      const e = byName.table_unicode ?? byName.tree_10series;
      await openFile(page, fixture(e.name));
      await check('file open');
      await probe(page, seriesPath(e.series[0]));
      await check('probe: maybe');
      await probe(page, 'root.absent.d1.s1');
      await check('probe: absent');
      await page.click('#hypotheses-box summary');
      await page.click('#schemas-box summary');
      await page.click('#properties-box summary');
      await check('details open');
      await page.fill('[data-testid=path-input]', seriesPath(e.series[0]).slice(0, 2));
      await page.waitForSelector('#suggest option', { state: 'attached' });
      await check('suggestions offered');
      await page.click('#batch-indexed');
      await page.click('#batch-run');
      await page.waitForSelector('#batch-results-box:not([hidden])');
      await check('batch results');
      await page.selectOption('#series-status', 'time');
      await check('series list: time columns');
      await page.selectOption('#series-status', 'all');
      // Errors: a hostile file, then a file whose index cannot be read (partial results).
      await openFile(page, fixture('hostile_bad_tail_magic'));
      await check('hostile file');
      await openFile(page, fixture('hostile_chunk_list_len_past_region'));
      await probe(page, 'root.设备.湿度');
      await check('unreadable index, probe unknown');
      // The folder view: scanned, with two paths, then a row opened.
      await page.setInputFiles('[data-testid=folder-input]', suite.folder);
      await waitFleet(page);
      await check('folder scanned');
      await page.fill('[data-testid=fleet-paths]', 'root.sg1.d1.s1 root.plant.area_north.line_07.machine_12.sensor_block.temperature');
      await page.check('[data-testid=fleet-audit]');
      await page.click('#fleet-rescan');
      await waitFleet(page);
      await page.click('#fleet-head button[data-key=fill]');
      await check('folder with paths, sorted');
      await page.evaluate(() => (document.body.dataset.state = 'picking'));
      await page.click('#fleet-rows .vlist-row >> nth=0');
      await page.waitForFunction(() => ['ready', 'error'].includes(document.body.dataset.state), null, { timeout: 20000 });
      await check('file opened from the folder');
      // LevelDB: a table with a filter, a key probed.
      const t = tables.find((x) => x.bits_per_key === 10);
      await openFile(page, LEVELDB + t.file);
      await check('LevelDB table');
      await page.check('#ldb-hex');
      await page.fill('[data-testid=ldb-key-input]', t.live_keys[0]);
      await page.press('[data-testid=ldb-key-input]', 'Enter');
      await page.waitForFunction(() => document.querySelector('[data-testid=ldb-verdict]').textContent.length > 0);
      await check('LevelDB probe');
      await page.context().close();
      assert.deepEqual(found, []);
    });
  }
}

test('no console errors and no request outside the page origin', () => {
  assert.deepEqual(suite.harness.problems, []);
});

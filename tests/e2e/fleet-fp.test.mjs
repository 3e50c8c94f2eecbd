// The folder view's "what the filters really do" lines (www/views/fleet-fp.js): a folder of the C++
// writer's fixtures — among them tree_past_design, a real filter sized for fewer keys than it holds —
// scanned in the page's worker. Without the audit the page says the index is needed and claims
// nothing; with it, per path the measured false positives, their rate beside the fills' prediction,
// and the filters filled past their design. Expected values from the fixtures' manifests
// (tests/js/fleet-fp-facts.mjs: what each writer inserted, what each filter answers, set bits).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { startHarness } from './harness.mjs';
import { buildFleet } from '../js/fleet.mjs';
import { expected, PATHS, POOL } from '../js/fleet-fp-facts.mjs';

let harness;
let page;
let tmp;
let want;

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'tsfile-bloom-folder-fp-'));
  const root = join(tmp, 'fleet');
  const entries = buildFleet(root, { count: 45, pool: POOL, hostile: false });
  // The page names a file by its path in the folder picked.
  want = expected(entries, (e) => `fleet/${relative(root, e.file)}`);
  harness = await startHarness();
  page = await harness.newPage();
});

after(async () => {
  await harness?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const waitDone = () => page.waitForFunction(() => document.body.dataset.fleet === 'done', null, { timeout: 60000 });
const en = (n) => n.toLocaleString('en');

test('without the audit the folder view claims no false-positive rate and no design verdict', async () => {
  await page.setInputFiles('[data-testid=folder-input]', join(tmp, 'fleet'));
  await waitDone();
  await page.fill('[data-testid=fleet-paths]', PATHS.join(' '));
  await page.press('[data-testid=fleet-paths]', 'Enter');
  await waitDone();
  assert.equal(await page.locator('[data-testid=fleet-fp]').count(), 0);
  assert.equal(await page.locator('[data-testid=fleet-past-design]').count(), 0);
  assert.match(await page.textContent('[data-testid=fleet-fp-unknown]'), /need each file’s index/);
  assert.doesNotMatch(await page.textContent('[data-testid=fleet-summary]'), /false-positive rate \d/);
});

test('with the audit: per path the measured false positives beside the prediction, and the overfilled filters', async () => {
  await page.check('[data-testid=fleet-audit]');
  await page.click('#fleet-rescan');
  await waitDone();
  assert.equal(await page.locator('[data-testid=fleet-fp-unknown]').count(), 0);
  assert.ok(want.paths.some((p) => p.falsePositives > 0) && want.fleet.pastDesign > 0, 'the folder holds false positives and an overfilled filter');
  for (const w of want.paths) {
    const line = page.locator(`[data-testid=fleet-fp][data-path="${w.path}"]`);
    const answered = w.falsePositives + w.filterAbsent;
    assert.equal(await line.getAttribute('data-false-positives'), String(w.falsePositives), w.path);
    assert.equal(await line.getAttribute('data-answered'), String(answered), w.path);
    const text = await line.textContent();
    // The CLI's words (js/scan-fp.js pathTruthWords), in the page's number formats.
    assert.ok(text.startsWith(`${w.path}: the index lists it in ${en(w.indexListed)} ${w.indexListed === 1 ? 'file' : 'files'} and proves it absent in ${en(w.indexAbsent)}`), text);
    if (answered) {
      assert.ok(text.includes(`; there the filter said maybe in ${en(w.falsePositives)} (measured false-positive rate `), text);
      assert.ok(text.includes(` of ${en(answered)}), absent in ${en(w.filterAbsent)}; the fills predict `), text);
      assert.ok(text.includes(`(${w.fppSum.toFixed(2)} false positives expected)`), text);
    } else assert.ok(text.includes('; no filter there answered'), text);
  }
  // The false positives' files, by name (the first 8 shown; here one list per path that has any).
  const lists = await page.locator('[data-testid=fleet-fp-files]').evaluateAll((uls) => uls.map((ul) => [...ul.querySelectorAll('li')].map((li) => li.textContent)));
  const withFp = want.paths.filter((p) => p.falsePositives);
  assert.equal(lists.length, withFp.length);
  lists.forEach((items, i) => {
    const w = withFp[i];
    const shown = w.fpFiles.slice(0, 8);
    assert.deepEqual(items.slice(0, shown.length), shown, w.path);
    if (w.falsePositives > 8) assert.equal(items[8], `… and ${en(w.falsePositives - 8)} more`);
  });
  const past = page.locator('[data-testid=fleet-past-design]');
  assert.equal(await past.getAttribute('data-count'), String(want.fleet.pastDesign));
  assert.ok((await past.textContent()).startsWith(`Filled past design (more keys than any error rate sizes its m and k for): ${en(want.fleet.pastDesign)} of ${en(want.fleet.withFilter)} filters`));
  const pastFiles = await page.locator('[data-testid=fleet-past-design-files] li').allTextContents();
  assert.deepEqual(pastFiles.slice(0, Math.min(8, want.fleet.pastDesign)), want.fleet.pastFiles.slice(0, 8));
  assert.deepEqual(harness.problems, []);
});

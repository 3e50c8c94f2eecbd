// `npm run screenshots`: the built page (dist/site, served as the e2e tests serve it) in headless
// Chromium at a desktop's and a phone's viewport — the landing page, a probe that meets a false
// positive, the folder view after an audited scan, a claim of the Learn section — as PNGs in
// docs/images/ (the README shows them through their raw.githubusercontent.com URLs). Each shot
// waits for the page's own state (data attributes the page sets when it is done), never a delay,
// so the script is re-run as the page changes: `npm run build && npm run screenshots`.
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openTsFile } from '../js/node.js';
import { startHarness } from '../tests/e2e/harness.mjs';
import { buildFleet } from '../tests/js/fleet.mjs';
import { PATHS, POOL } from '../tests/js/fleet-fp-facts.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = join(ROOT, 'docs/images');
// An ASCII-named fixture of the C++ writer (a machine without CJK fonts draws the sample's names as boxes).
const FILE = join(ROOT, 'tests/fixtures/tsfile/tree_10series.tsfile');
const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844, mobile: true },
];
const LONG = { timeout: 120_000 };

/** A path of FILE that its index does not list but its filter says maybe for: a false positive. */
async function falsePositive() {
  const t = await openTsFile(FILE);
  try {
    await t.loadIndex();
    const device = (await t.series())[0].path.split('.').slice(0, -1).join('.');
    for (let i = 0; i < 100_000; i++) {
      const r = t.probe(`${device}.s${i}`);
      if (r.verdict === 'maybe' && r.indexed === false) return r.path;
    }
    throw new Error(`no false positive among 100,000 paths of ${FILE}`);
  } finally {
    await t.close();
  }
}

async function shoot(page, name, { width }) {
  const file = join(OUT, `${name}-${width}.png`);
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: file, type: 'png' }); // the viewport only
  console.log(`${file.slice(ROOT.length)}: ${statSync(file).size.toLocaleString('en')} B`);
}

/** The page as it opens, once its teaching panel (the last part to start) is ready. */
async function openPage(harness, { width, height, mobile }) {
  const page = await harness.newPage({ viewport: { width, height }, deviceScaleFactor: 1, isMobile: !!mobile, hasTouch: !!mobile });
  await page.waitForFunction(() => document.getElementById('teach')?.dataset.ready === 'true', null, LONG);
  return page;
}

async function landing(harness, viewport) {
  const page = await openPage(harness, viewport);
  await shoot(page, 'landing', viewport);
  await page.context().close();
}

async function probe(harness, viewport, path) {
  const page = await openPage(harness, viewport);
  await page.setInputFiles('[data-testid=file-input]', FILE);
  await page.waitForFunction(() => document.body.dataset.state === 'ready', null, LONG);
  await page.fill('[data-testid=path-input]', path);
  await page.press('[data-testid=path-input]', 'Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=verdict]')?.textContent !== '', null, LONG);
  await page.locator('#probe').evaluate((e) => e.scrollIntoView({ block: 'start' }));
  await shoot(page, 'probe-fp', viewport);
  await page.context().close();
}

async function folder(harness, viewport, dir) {
  const page = await openPage(harness, viewport);
  const done = () => page.waitForFunction(() => document.body.dataset.fleet === 'done', null, LONG);
  await page.setInputFiles('[data-testid=folder-input]', dir);
  await done();
  await page.check('[data-testid=fleet-audit]');
  await page.fill('[data-testid=fleet-paths]', PATHS.slice(0, 2).join(' '));
  await page.press('[data-testid=fleet-paths]', 'Enter');
  await done();
  await page.waitForSelector('[data-testid=fleet-must-read]', LONG);
  await page.locator('[data-testid=fleet-summary]').evaluate((e) => e.scrollIntoView({ block: 'start' }));
  await shoot(page, 'folder', viewport);
  await page.context().close();
}

async function learn(harness, viewport, claim = 2) {
  const page = await openPage(harness, viewport);
  await page.click(`[data-testid=claim-${claim}-show]`);
  await page.waitForFunction((c) => document.getElementById(`teach-claim-${c}`)?.dataset.state === 'done', claim, LONG);
  await page.locator(`#teach-claim-${claim}`).evaluate((e) => e.scrollIntoView({ block: 'start' }));
  await shoot(page, 'learn', viewport);
  await page.context().close();
}

mkdirSync(OUT, { recursive: true });
const tmp = mkdtempSync(join(tmpdir(), 'tsfile-bloom-screenshots-'));
const harness = await startHarness();
try {
  const dir = join(tmp, 'fleet');
  buildFleet(dir, { count: 45, pool: POOL, hostile: false });
  const path = await falsePositive();
  for (const viewport of VIEWPORTS) {
    await landing(harness, viewport);
    await probe(harness, viewport, path);
    await folder(harness, viewport, dir);
    await learn(harness, viewport);
  }
  if (harness.problems.length) throw new Error(`the page reported problems:\n${harness.problems.join('\n')}`);
} finally {
  await harness.close();
  rmSync(tmp, { recursive: true, force: true });
}

// The filter's health gauge above the heat-map (www/views/health.js, the core's bloomInfo().health)
// in headless Chromium. Expected values from the fixtures' manifest and Java's sizing written out
// here (docs/bloom-filter.md §6), never from the page's or the core's own output.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startHarness, tsfileFixtures, openFile } from './harness.mjs';

const { byName, fixture } = tsfileFixtures();
const AXE = readFileSync(fileURLToPath(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url)), 'utf8');
const SHOTS = process.env.HEALTH_SHOTS; // a directory: screenshots to look at

let harness;
before(async () => {
  harness = await startHarness();
});
after(async () => {
  await harness?.close();
});

/** Java's bit count for n keys at rate p (getEmptyBloomFilter, small n). */
const javaM = (n, p) => Math.max(256, Math.floor((-n * Math.log(p)) / Math.LN2 / Math.LN2) + 1);
/** The most keys Java's sizing gives at most m bits for at the largest rate giving k = 5 (1/16). */
const sizedFor = (m) => {
  let n = 0;
  while (javaM(n + 1, 1 / 16) <= m) n++;
  return n;
};

/** The gauge once the audit has read the index (its state no longer "unknown" for these files). */
async function gauge(p, name, state) {
  await openFile(p, fixture(name));
  await p.waitForFunction((s) => document.querySelector('[data-testid=health]')?.dataset.state === s, state, { timeout: 20000 });
  return p.evaluate(() => {
    const box = document.querySelector('[data-testid=health]');
    const map = document.querySelector('[data-testid=heatmap]');
    return { ...box.dataset, hidden: box.hidden, above: box.getBoundingClientRect().bottom <= map.getBoundingClientRect().top, text: box.textContent };
  });
}

for (const [device, viewport] of [['desktop', { width: 1440, height: 900 }], ['phone', { width: 390, height: 844 }]]) {
  test(`the gauge shows an over-filled file's fill and FP against its design, above the map (${device})`, { timeout: 90000 }, async () => {
    const p = await harness.newPage({ viewport });
    const e = byName.tree_past_design;
    const m = e.bloom.bit_count;
    assert.deepEqual([m, e.bloom.hash_function_count, e.series.length], [256, 5, 100]);
    const g = await gauge(p, 'tree_past_design', 'over_filled');
    assert.equal(g.hidden, false);
    assert.ok(g.above, 'the gauge comes before the heat-map');
    const n = sizedFor(m); // 44
    assert.equal(Number(g.sizedFor), n);
    assert.ok(Math.abs(Number(g.designFill) - (1 - Math.exp((-5 * n) / m))) < 1e-12);
    assert.equal(Number(g.fill), e.bloom.set_bits / m);
    assert.ok(Math.abs(Number(g.fpp) - (e.bloom.set_bits / m) ** 5) < 1e-12);
    assert.equal(Number(g.errorRate), 0.05);
    assert.match(g.text, /Over-filled/);
    assert.match(g.text, /holds 100 keys/);
    if (SHOTS) await p.screenshot({ path: `${SHOTS}/health-over-${device}.png`, fullPage: false });
    assert.equal(await p.evaluate(() => document.scrollingElement.scrollWidth <= innerWidth), true, 'no sideways scroll');
    await p.evaluate(AXE);
    await p.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => {}))));
    const serious = await p.evaluate(async () => {
      const r = await globalThis.axe.run({ include: [['#map']] }, { resultTypes: ['violations'] });
      return r.violations.filter((v) => ['critical', 'serious'].includes(v.impact)).map((v) => v.id);
    });
    assert.deepEqual(serious, []);
    await p.close();
  });
}

test('a Java file at the default rate reads healthy, with the default error rate', { timeout: 60000 }, async () => {
  const p = await harness.newPage({ viewport: { width: 1440, height: 900 } });
  const e = byName.table_multi_tables;
  const g = await gauge(p, 'table_multi_tables', 'healthy');
  assert.equal(Number(g.sizedFor), sizedFor(e.bloom.bit_count));
  assert.equal(Number(g.errorRate), 0.05);
  assert.match(g.text, /Healthy/);
  await p.close();
});

// A TsFile written by Apache TsFile's Java writer on a GBK JVM, opened on the page: the worker
// fetches the charsets module, the summary says the file was hashed in GBK, and probes of its
// series (automatic, and with the charset picked by hand) are 'maybe' as Java's contains() says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { suite, openFile } from './harness.mjs';

const DIR = fileURLToPath(new URL('../fixtures/java/', import.meta.url));
const manifest = JSON.parse(readFileSync(`${DIR}manifest.json`, 'utf8'));
const entry = manifest.files.find((e) => e.charset === 'GBK' && e.name === 'tree_nonaligned');
const present = entry.devices.flatMap((d) => d.series.filter((s) => s[3]).map((s) => s[2]));
const absent = entry.absent.filter(([, javaSays]) => !javaSays).map(([p]) => p);

let harness;
let page;
suite(async (h) => {
  harness = h;
  page = await h.newPage();
});

async function probe(path) {
  await page.fill('[data-testid=path-input]', path);
  await page.evaluate(() => (document.querySelector('[data-testid=verdict]').textContent = ''));
  await page.press('[data-testid=path-input]', 'Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=verdict]').textContent !== '', null, { timeout: 10000 });
  return (await page.textContent('[data-testid=verdict]')).trim().toLowerCase();
}

test('a GBK-hashed Java file: summary names GBK, probes agree with Java', async () => {
  await openFile(page, `${DIR}${entry.file}`);
  assert.equal(await page.getAttribute('body', 'data-state'), 'ready');
  await page.waitForFunction(() => /GBK/.test(document.querySelector('[data-testid=hash-used]').textContent), null, { timeout: 10000 });
  assert.match(await page.textContent('[data-testid=hash-used]'), /java.*GBK/i);
  const cjk = present.find((p) => /[^\x00-\x7f]/.test(p));
  assert.ok(cjk);
  assert.match(await probe(cjk), /maybe/);
  await page.selectOption('[data-testid=charset]', 'GBK').catch(() => page.selectOption('#charset', 'GBK'));
  for (const p of present) assert.match(await probe(p), /maybe/, p);
  // Java's contains() said false for these: with the writer's charset established they are absent.
  const nonAsciiAbsent = absent.find((p) => /[^\x00-\x7f]/.test(p));
  assert.match(await probe(nonAsciiAbsent), /absent/, nonAsciiAbsent);
  assert.deepEqual(harness.problems, []);
});

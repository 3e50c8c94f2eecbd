// "Words that contradict the bits" (issue 24): every sentence the probe panel shows about a
// verdict is the core's reason, and must agree with the facts the test establishes on its
// own — the manifests (which files' indexes cannot be read, which series a file lists) and the
// independent Python reference of Java's BloomFilter (tests/reference/java_bloom.py: the
// filter a Java writer on a GBK JVM builds, and where a UTF-8 reader's bits fall).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { suite, tsfileFixtures, openFile, seriesPath } from './harness.mjs';
import { javaReference } from '../js/helpers.mjs';

const { byName, fixture } = tsfileFixtures();
const JAVA = fileURLToPath(new URL('../fixtures/java/', import.meta.url));
const javaManifest = JSON.parse(readFileSync(`${JAVA}manifest.json`, 'utf8'));

let harness;
let page;
suite(async (h) => {
  harness = h;
  page = await h.newPage();
});

async function probe(path, { charset = '', variant = '' } = {}) {
  await page.selectOption('#charset', charset);
  await page.selectOption('#variant', variant);
  await page.fill('[data-testid=path-input]', path);
  await page.evaluate(() => (document.querySelector('[data-testid=verdict]').textContent = ''));
  await page.press('[data-testid=path-input]', 'Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=verdict]').textContent !== '', null, { timeout: 10000 });
  return page.evaluate(() => ({
    verdict: document.querySelector('[data-testid=verdict]').textContent,
    box: document.getElementById('verdict-box').innerText,
    reason: document.getElementById('verdict-reason').textContent,
    // As the page renders it: the core's clause as a sentence (a capital, a full stop).
    shown: { first: getComputedStyle(document.getElementById('verdict-reason'), '::first-letter').textTransform, end: getComputedStyle(document.getElementById('verdict-reason'), '::after').content },
    clear: [...document.querySelectorAll('[data-testid=probe-row].clear')].map((r) => Number(r.dataset.seed)),
    set: [...document.querySelectorAll('[data-testid=probe-row].set')].map((r) => Number(r.dataset.seed)),
  }));
}

test('an index that cannot be read: no probe says the index lists or does not list the path, and the banner promises no verdict', async () => {
  const e = byName.hostile_chunk_list_len_past_region;
  assert.equal(e.error_kind, 'bad_region', 'the manifest: the index walk fails');
  await openFile(page, fixture(e.name));
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'ready');
  const banner = await page.textContent('[data-testid=error]');
  assert.ok(banner.includes(e.error_kind), banner);
  // The page's old banner promised "unknown" or "maybe" while an ASCII path's probe said "absent".
  assert.doesNotMatch(banner, /answer “unknown” or “maybe”|rather than a possibly unsound/, banner);
  // A path the source file (before the damage) lists, and one it does not: neither is said to
  // be listed or unlisted — the index was not read to its end.
  const listed = seriesPath(byName[e.derived_from].series[0]);
  for (const path of [listed, 'root.absent.d1.s1', 'root.设备.湿度']) {
    const r = await probe(path);
    assert.doesNotMatch(r.box, /does not list|lists this series|has not been read/, `${path}: ${r.box}`);
    assert.match(r.reason, /the index could not be read to its end/, `${path}: ${r.reason}`);
    assert.deepEqual(r.shown, { first: 'uppercase', end: '"."' }, path);
    if (r.verdict === 'definitely absent') {
      // Absent before any audit only when both tail variants agree on the path's bytes (ASCII).
      assert.match(path, /^[\x00-\x7f]*$/, path);
      assert.match(r.reason, /^a probed bit is clear/, r.reason);
    }
    if (/[^\x00-\x7f]/.test(path) && r.clear.length) assert.equal(r.verdict, 'unknown — the filter cannot answer soundly', path);
  }
});

test('a GBK-JVM Java file probed with the charset forced to UTF-8: the clear seeds named, and the wrong conclusion a UTF-8 reader would draw', async () => {
  const entry = javaManifest.files.find((f) => f.file === 'gbk/tree_nonaligned.tsfile');
  const paths = entry.devices.flatMap((d) => d.series.map((s) => s[2]));
  // The independent reference: the filter a Java writer with GBK path bytes builds from this
  // file's series, and a UTF-8 reader's bit for each seed.
  const [ref] = javaReference({ filters: [{ n: entry.series_count, error_rate: entry.error_rate, paths, charset: 'gbk' }] }).filters;
  assert.equal(ref.bit_count, entry.bloom.bit_count);
  const encoded = Buffer.from(ref.encoded, 'hex');
  const byteLength = encoded[0]; // < 128: a one-byte varint
  const stored = encoded.subarray(1, 1 + byteLength);
  const isSet = (bit) => bit >> 3 < stored.length && (stored[bit >> 3] >> (bit & 7)) & 1;
  const seeds = [5, 7, 11, 19, 31, 37, 43, 59].slice(0, ref.hash_function_count);
  const bitFor = (h) => (h === -2147483648 ? 0 : Math.abs(h)) % ref.bit_count;
  // A listed CJK series with some of its UTF-8 bits clear in the writer's filter.
  const pick = paths.map((path) => {
    const hex = Buffer.from(path, 'utf8').toString('hex');
    const hashes = javaReference({ hashes: seeds.map((seed) => ({ hex, seed })) }).hashes;
    return { path, clear: seeds.filter((_, j) => !isSet(bitFor(hashes[j]))) };
  }).find((c) => c.clear.length > 0 && /[^\x00-\x7f]/.test(c.path));
  assert.ok(pick, 'some listed path has clear bits under UTF-8');

  await openFile(page, `${JAVA}${entry.file}`);
  await page.waitForFunction(() => /GBK/.test(document.querySelector('[data-testid=hash-used]').textContent), null, { timeout: 10000 });
  const r = await probe(pick.path, { charset: 'UTF-8' });
  assert.deepEqual(r.clear, pick.clear, 'the rows marked clear are the seeds the reference finds clear');
  assert.equal(r.verdict, 'maybe present', 'GBK, which the index reproduces, sets every bit');
  // The words: which seeds are clear under the forced hash, what a UTF-8 reader would wrongly conclude.
  const seedWords = pick.clear.length === 1 ? `the bit of seed ${pick.clear[0]} is` : `the bits of seeds ${pick.clear.join(', ')} are`;
  assert.ok(r.reason.toLowerCase().startsWith(`${seedWords} clear under the java / utf-8 hash`), r.reason);
  assert.match(r.reason, /every bit is set under java \/ GBK, the hash the file's index reproduces/, r.reason);
  assert.match(r.reason, /a reader hashing as java \/ UTF-8 would wrongly conclude “definitely absent” and skip this file/, r.reason);
  assert.match(r.reason, /the index lists this series$/, r.reason);
  // Nothing on the panel says all the bits are set.
  assert.doesNotMatch(r.box, /all probed bits are set/i, r.box);
  // Unforced: the writer's hash, every bit set, and no word of a wrong conclusion.
  const w = await probe(pick.path);
  assert.deepEqual(w.clear, []);
  assert.match(w.reason, /^every probed bit is set under the java \/ GBK hash \(confirmed by the file's index\)/, w.reason);
  assert.doesNotMatch(w.box, /wrongly/);
});

test('a false positive, in place: each probed bit beside the series that set it, and "why maybe" naming them', async () => {
  const e = byName.table_10k_series;
  await openFile(page, fixture(e.name));
  await page.waitForFunction(() => globalThis.inspector.current && !globalThis.inspector.current.provPending, null, { timeout: 20000 });
  const listed = new Set([...e.series.map(seriesPath), ...(e.time_columns ?? []).map((t) => `${t.device.map((x) => (x == null ? 'null' : x)).join('.')}.`)]);
  // Unlisted paths through the batch panel: its false positives (maybe, yet not listed).
  const unlisted = Array.from({ length: 400 }, (_, i) => `nowhere.x${i}.y`);
  await page.$eval('#batch-input', (el, v) => (el.value = v), unlisted.join('\n'));
  await page.click('#batch-run');
  await page.waitForFunction(() => !document.querySelector('#batch-results-box').hidden, null, { timeout: 20000 });
  await page.selectOption('[data-testid=batch-show]', 'fp');
  const fpPath = await page.$eval('#batch-results .vlist-row .path', (el) => el.textContent).catch(() => null);
  assert.ok(fpPath && !listed.has(fpPath), `a false positive among 400 unlisted paths: ${fpPath}`);
  const r = await probe(fpPath);
  assert.equal(r.verdict, 'maybe present');
  assert.match(r.reason, /the index does not list this series: a false positive$/, r.reason);
  const why = await page.textContent('[data-testid=why-maybe]');
  assert.match(why, /^Why maybe: every bit was set by other series: /, why);
  const named = [...why.matchAll(/([^\s,:]+) \(seeds? ([\d, ]+)\)/g)].map((m) => ({ path: m[1], seeds: m[2].split(', ').map(Number) }));
  const rows = await page.$$eval('[data-testid=probe-row]', (rs) => rs.map((r) => ({ seed: Number(r.dataset.seed), bit: Number(r.children[3].textContent.replace(/,/g, '')), setters: r.querySelector('[data-testid=probe-setters]').textContent })));
  // Every seed is covered once, each by a listed series that, by the independent reference of
  // the hash (the writer's tail variant, from the manifest), sets the bit that seed probes.
  assert.deepEqual(named.flatMap((n) => n.seeds).sort((a, b) => a - b), rows.map((x) => x.seed).sort((a, b) => a - b));
  const signed = e.hash_variant === 'java';
  const seeds = [5, 7, 11, 19, 31, 37, 43, 59].slice(0, e.bloom.hash_function_count);
  for (const n of named) {
    assert.ok(listed.has(n.path), `${n.path} is listed`);
    const hex = Buffer.from(n.path, 'utf8').toString('hex');
    const bits = javaReference({ hashes: seeds.map((seed) => ({ hex, seed, signed })) }).hashes.map((h) => (h === -2147483648 ? 0 : Math.abs(h)) % e.bloom.bit_count);
    for (const seed of n.seeds) {
      const row = rows.find((x) => x.seed === seed);
      assert.ok(bits.includes(row.bit), `${n.path} (bits ${bits}) sets bit ${row.bit}, which seed ${seed} probes`);
      assert.ok(row.setters.includes(n.path) || /in all/.test(row.setters), `the row of seed ${seed} names its setters: ${row.setters}`);
    }
  }
});

test('no console errors and no request outside the page origin', () => {
  assert.deepEqual(harness.problems, []);
});

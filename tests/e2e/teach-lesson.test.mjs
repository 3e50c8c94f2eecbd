// The teaching panel's lesson (issue 25) in headless Chromium: the step-through, the calculator,
// the 13 claims' demonstrations, the sandbox's overfill warning, the pitfall's words (issue 24)
// and an axe-core run. Expected values come from outside the teaching module: the spec's test
// vectors (docs/bloom-filter.md §8), the package's own TsFile module (the inspector worker's
// probe and the panel's pitfall op, which hash with tsfile_bloom, not the teaching module), the
// fixtures' manifests (the real writers), tests/reference/calc_cases.json (bloom_calc.py, from
// the published rules) and formulas evaluated here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { suite, tsfileFixtures, openFile } from './harness.mjs';

const { byName, fixture } = tsfileFixtures();
const CALC = JSON.parse(readFileSync(fileURLToPath(new URL('../reference/calc_cases.json', import.meta.url)), 'utf8')).cases;
const LDB = JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/leveldb/manifest.json', import.meta.url)), 'utf8'));
const SAMPLE_LDB = LDB.tables.find((t) => t.file === 'ascii_bits4_snappy-000008.ldb');
const fromHex = (h) => Buffer.from(h, 'hex').toString('latin1');
const AXE = fileURLToPath(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url));

let harness;
suite((h) => (harness = h));

async function newPage(options = {}) {
  const p = await harness.newPage(options);
  await p.waitForFunction(() => document.getElementById('teach').dataset.ready === 'true', null, { timeout: 30000 });
  return p;
}

const data = (p, sel, key) => p.evaluate(([s, k]) => document.querySelector(s)?.dataset[k], [sel, key]);
const teachOp = (p, name, args) => p.evaluate(([n, a]) => globalThis.inspector.teachWorker().call(n, a), [name, args]);
const close = (a, b, rel = 1e-9) => Math.abs(a - b) <= rel * Math.max(Math.abs(b), 1e-300);

/** The 95 % Wilson score interval, written here from Wilson (1927). */
function wilson(x, n) {
  const z = 1.959963984540054;
  const p = x / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [x === 0 ? 0 : Math.max(0, c - h), x === n ? 1 : Math.min(1, c + h)];
}

/** Every measured rate cell in `sel`: its hits, trials and interval as the page shows them. */
const rateCells = (p, sel) =>
  p.evaluate((s) => [...document.querySelectorAll(`${s} td[data-rate]`)].map((td) => ({ hits: +td.dataset.hits, trials: +td.dataset.trials, rate: +td.dataset.rate, low: +td.dataset.low, high: +td.dataset.high, text: td.textContent })), sel);

function checkIntervals(cells) {
  assert.ok(cells.length > 0);
  for (const c of cells) {
    if (c.trials === 0) {
      assert.deepEqual([c.hits, c.low, c.high], [0, 0, 1], 'nothing counted: the whole of [0, 1]');
      continue;
    }
    const [lo, hi] = wilson(c.hits, c.trials);
    assert.ok(close(c.rate, c.hits / c.trials, 1e-12) && close(c.low, lo, 1e-9) && close(c.high, hi, 1e-9), JSON.stringify(c));
  }
}

/** The step-through's shown steps. */
const shownSteps = (p) => p.evaluate(() => [...document.querySelectorAll('[data-testid=st-step]')].map((li) => ({ seed: li.dataset.seed, hash: li.dataset.hash, bit: li.dataset.bit, action: li.dataset.action })));

async function walkToEnd(p) {
  const max = Number(await data(p, '#teach-step', 'max'));
  for (let i = 0; i < max; i++) {
    const before = Number(await data(p, '#teach-step', 'cursor'));
    await p.click('[data-testid=st-next]');
    await p.waitForFunction((b) => Number(document.getElementById('teach-step').dataset.cursor) === b + 1, before);
    assert.equal((await shownSteps(p)).filter((s) => s.action !== 'not-computed').length, before + 1);
  }
  return max;
}

test('step-through on the sandbox: an insertion and two lookups, each step’s hash and bit against the spec and the package', async () => {
  const p = await newPage();
  await p.click('#sb-clear');
  await p.waitForFunction(() => document.getElementById('teach-sandbox').dataset.n === '0');
  await p.fill('[data-testid=st-path]', 'root.sg1.d1.s1');
  await p.click('[data-testid=st-insert]');
  await p.waitForFunction(() => document.getElementById('teach-step').dataset.action === 'insert');
  assert.equal(await data(p, '#teach-step', 'cursor'), '0');
  assert.equal((await shownSteps(p)).length, 0, 'nothing is computed before Next');
  assert.match(await p.textContent('[data-testid=st-key]'), /14 bytes in UTF-8 — 72 6f 6f 74 2e 73 67 31 2e 64 31 2e 73 31\. Murmur128 reads 0 full 16-byte blocks and a tail of 14 bytes/);
  const max = await walkToEnd(p);
  assert.equal(max, 5);
  const steps = await shownSteps(p);
  // docs/bloom-filter.md §8, k = 5, m = 256: seeds 5, 7, 11, 19, 31.
  assert.deepEqual(steps.map((s) => [+s.seed, +s.hash, +s.bit, s.action]), [
    [5, -575222460, 188, 'set'],
    [7, 1097775904, 32, 'set'],
    [11, 15867706, 58, 'set'],
    [19, -1201631927, 183, 'set'],
    [31, 511072268, 12, 'set'],
  ]);
  // The same hashes from the package's TsFile module (the pitfall op hashes with tsfile_bloom).
  const pf = await teachOp(p, 'teach.pitfall', { path: 'root.sg1.d1.s1' });
  assert.deepEqual(steps.map((s) => [+s.hash, +s.bit]), pf.rows.map((r) => [r.javaHash, r.javaBit]));
  // Back and forth.
  await p.click('[data-testid=st-back]');
  await p.waitForFunction(() => document.getElementById('teach-step').dataset.cursor === '4');
  assert.equal((await shownSteps(p)).length, 4);
  await p.click('[data-testid=st-next]');
  await p.waitForFunction(() => document.getElementById('teach-step').dataset.cursor === '5');
  assert.match(await p.textContent('[data-testid=st-summary]'), /Inserted: 5 of 5 bits went from 0 to 1/);
  // Commit: the sandbox now holds the path, with exactly those five bits.
  await p.click('[data-testid=st-commit]');
  await p.waitForFunction(() => document.getElementById('teach-sandbox').dataset.n === '1');
  assert.equal(await data(p, '#teach-sandbox', 'set'), '5');
  // A lookup of it, played at the fastest speed: every bit found set, "maybe".
  await p.fill('[data-testid=st-path]', 'root.sg1.d1.s1');
  await p.click('[data-testid=st-query]');
  await p.waitForFunction(() => document.getElementById('teach-step').dataset.action === 'query' && document.getElementById('teach-step').dataset.cursor === '0');
  await p.evaluate(() => {
    const s = document.getElementById('st-speed');
    s.value = '5';
    s.dispatchEvent(new Event('input'));
  });
  await p.click('[data-testid=st-play]');
  await p.waitForFunction(() => document.getElementById('teach-step').dataset.verdict, null, { timeout: 20000 });
  assert.equal(await data(p, '#teach-step', 'verdict'), 'maybe');
  assert.deepEqual((await shownSteps(p)).map((s) => s.action), ['found-set', 'found-set', 'found-set', 'found-set', 'found-set']);
  // A path never added (spec vectors: bits 203, 76, 49, 221, 201; none of them is set): the
  // lookup stops at the first step, the other four hashes are never computed.
  await p.fill('[data-testid=st-path]', 'root.ln.wf01.wt01.temperature');
  await p.click('[data-testid=st-query]');
  await p.waitForFunction(() => document.getElementById('teach-step').dataset.max === '1');
  await walkToEnd(p);
  assert.equal(await data(p, '#teach-step', 'verdict'), 'absent');
  const absent = await shownSteps(p);
  assert.deepEqual(absent.map((s) => [s.seed, s.bit, s.action]), [['5', '203', 'found-clear'], ['7', '', 'not-computed'], ['11', '', 'not-computed'], ['19', '', 'not-computed'], ['31', '', 'not-computed']]);
  // The package's BloomFilter agrees: bit 203 is clear in the sandbox.
  const probe = await teachOp(p, 'teach.sandboxTest', { path: 'root.ln.wf01.wt01.temperature', controls: { mode: 'tsfile', m: 256, k: 5, bitsPerKey: 10, plannedN: 50 } });
  assert.deepEqual([probe.verdict, probe.probes[0].bit, probe.probes[0].set], ['absent', 203, false]);
  assert.match(await p.textContent('[data-testid=st-summary]'), /the remaining 4 hashes are never computed/);
  await p.context().close();
});

test('step-through on the LevelDB sandbox: one BloomHash and its double-hashing probes, against the LevelDB module', async () => {
  const p = await newPage();
  await p.check('[data-testid=sb-mode-leveldb]');
  await p.waitForFunction(() => document.getElementById('teach-sandbox').dataset.mode === 'leveldb' && document.getElementById('teach-sandbox').dataset.k === '6');
  const controls = { mode: 'leveldb', m: 256, k: 5, bitsPerKey: 10, plannedN: 50 };
  const path = 'root.demo.d3.humidity'; // one of the demo filter's paths
  await p.fill('[data-testid=st-path]', path);
  await p.click('[data-testid=st-query]');
  await p.waitForFunction(() => document.getElementById('teach-step').dataset.scheme === 'leveldb');
  assert.match(await p.textContent('[data-testid=st-key]'), /BloomHash\(key\) = \d+; δ = h rotated right by 17 = \d+/);
  await walkToEnd(p);
  assert.equal(await data(p, '#teach-step', 'verdict'), 'maybe');
  const steps = await shownSteps(p);
  // The LevelDB module's KeyMayMatch (the sandbox's own probe) on the same filter.
  const r = await teachOp(p, 'teach.sandboxTest', { path, controls });
  assert.deepEqual(steps.map((s) => +s.bit), r.probes.map((q) => q.bit));
  const h = await teachOp(p, 'teach.call', { fn: 'leveldb.hash', args: [path] });
  const delta = ((h >>> 17) | (h << 15)) >>> 0;
  assert.deepEqual(steps.map((s) => +s.hash), steps.map((_, j) => (h + j * delta) >>> 0), 'h + j·δ mod 2³² (leveldb-filter.md §2)');
  // An insert goes into the filter LevelDB would build one key larger; committing it builds exactly that.
  await p.fill('[data-testid=st-path]', 'root.new.key');
  await p.click('[data-testid=st-insert]');
  await p.waitForFunction(() => document.getElementById('teach-step').dataset.action === 'insert');
  await walkToEnd(p);
  const ins = await shownSteps(p);
  await p.click('[data-testid=st-commit]');
  await p.waitForFunction(() => document.getElementById('teach-sandbox').dataset.n === '25');
  const after = await teachOp(p, 'teach.sandboxTest', { path: 'root.new.key', controls });
  assert.deepEqual(ins.map((s) => +s.bit), after.probes.map((q) => q.bit));
  assert.equal(after.verdict, 'maybe');
  assert.equal(Number(await data(p, '#teach-sandbox', 'm')), Number(await data(p, '#teach-step', 'm')));
  await p.context().close();
});

test('step-through on a real file: the file’s own series and a typed path, each step against the inspector’s probe', async () => {
  const p = await newPage();
  const e = byName.table_unicode;
  await openFile(p, fixture('table_unicode'));
  await p.waitForFunction(() => !document.querySelector('[data-testid=st-target] option[value=file]').disabled);
  for (const path of [e.paths_with_high_tail_bytes[0], e.paths_with_high_tail_bytes[3], 'root.not.in.this.file']) {
    await p.selectOption('[data-testid=st-target]', 'file');
    await p.fill('[data-testid=st-path]', path);
    await p.click('[data-testid=st-query]');
    await p.waitForFunction((want) => document.getElementById('teach-step').dataset.target === 'file' && document.getElementById('st-key').textContent.startsWith(want), path);
    await walkToEnd(p);
    const steps = (await shownSteps(p)).filter((s) => s.action !== 'not-computed');
    // The inspector's worker probes with the package's TsFile module under the audit's hash.
    const r = await p.evaluate((q) => globalThis.inspector.worker().call('probe', { path: q }), path);
    assert.equal(r.variant, e.hash_variant, 'the C++ writer zero-extends (its manifest)');
    for (let j = 0; j < steps.length; j++) {
      assert.deepEqual([+steps[j].seed, +steps[j].hash, +steps[j].bit, steps[j].action === 'found-set'], [r.probes[j].seed, r.probes[j].hash32, r.probes[j].bit, r.probes[j].set], `${path} seed ${r.probes[j].seed}`);
    }
    const verdict = await data(p, '#teach-step', 'verdict');
    assert.equal(verdict, r.probes.every((q) => q.set) ? 'maybe' : 'absent');
    if (path.startsWith('root.not')) assert.equal(verdict, 'absent');
    else assert.equal(verdict, 'maybe', 'a listed series is never absent under the writer’s hash');
  }
  // An insert on the file is a preview: the file's filter does not change.
  await p.fill('[data-testid=st-path]', 'root.new.series');
  await p.click('[data-testid=st-insert]');
  await p.waitForFunction(() => document.getElementById('teach-step').dataset.action === 'insert' && document.getElementById('teach-step').dataset.target === 'file');
  await walkToEnd(p);
  assert.match(await p.textContent('[data-testid=st-summary]'), /A preview: the file is not changed/);
  assert.equal(await p.isVisible('[data-testid=st-commit]'), false);
  await p.context().close();
});

test('calculator: every case of the reference table (formula, Java getEmptyBloomFilter, LevelDB bloom.cc)', async () => {
  const p = await newPage();
  const boxes = { n: 'calc-n', p: 'calc-p', m: 'calc-m', bitsPerKey: 'calc-b', k: 'calc-k' };
  assert.equal(await p.locator('[data-testid=teach-calc]').count(), 1);
  for (const c of CALC) {
    await p.click('#calc-clear');
    for (const [name, id] of Object.entries(boxes)) await p.fill(`[data-testid=${id}]`, c.input[name] == null ? '' : String(c.input[name]));
    await p.evaluate(() => delete document.getElementById('calc-out').dataset.solved);
    await p.click('[data-testid=calc-solve]');
    await p.waitForFunction(() => document.getElementById('calc-out').dataset.solved || document.getElementById('calc-out').dataset.error);
    const d = await p.evaluate(() => ({ ...document.getElementById('calc-out').dataset }));
    const what = JSON.stringify(c.input);
    assert.equal(d.error, undefined, what);
    assert.equal(d.solved, c.solved, what);
    assert.equal(Number(d.k), c.k, `${what}: k`);
    if (c.p != null) assert.ok(close(Number(d.p), c.p), `${what}: p ${d.p} vs ${c.p}`);
    if (c.m != null) assert.equal(Number(d.m), c.m, `${what}: m`);
    if (c.n != null) assert.equal(Number(d.n), c.n, `${what}: n`);
    if (c.bitsPerKey != null) assert.ok(close(Number(d.bitsPerKey), c.bitsPerKey), `${what}: bits per key`);
    if ('kRange' in c) assert.equal(d.kRange, c.kRange ? c.kRange.join('-') : '', `${what}: k range`);
    assert.equal(d.javaM, c.java ? String(c.java.bitCount) : '', `${what}: Java m`);
    assert.equal(d.javaK, c.java ? String(c.java.k) : '', `${what}: Java k`);
    assert.equal(d.leveldbBpk, c.leveldb ? String(c.leveldb.bitsPerKey) : '', `${what}: LevelDB bits per key`);
    assert.equal(d.leveldbM, c.leveldb ? String(c.leveldb.bitCount) : '', `${what}: LevelDB m`);
    assert.equal(d.leveldbK, c.leveldb ? String(c.leveldb.k) : '', `${what}: LevelDB k`);
  }
  // The solved box shows its answer; solving again with it untouched treats it as empty.
  await p.click('#calc-clear');
  await p.fill('[data-testid=calc-n]', '1,000');
  await p.fill('[data-testid=calc-m]', '10k');
  await p.fill('[data-testid=calc-k]', '7');
  await p.click('[data-testid=calc-solve]');
  await p.waitForFunction(() => document.getElementById('calc-out').dataset.solved === 'p');
  assert.equal(await p.inputValue('[data-testid=calc-p]'), '0.8194%');
  await p.fill('[data-testid=calc-k]', '6');
  await p.click('[data-testid=calc-solve]');
  await p.waitForFunction(() => document.getElementById('calc-out').dataset.k === '6');
  assert.ok(close(Number(await data(p, '#calc-out', 'p')), (1 - Math.exp(-6 / 10)) ** 6));
  // Bad input: a typed error naming the box.
  await p.fill('[data-testid=calc-n]', 'lots');
  await p.click('[data-testid=calc-solve]');
  await p.waitForFunction(() => document.getElementById('calc-out').dataset.error);
  assert.match(await data(p, '#calc-out', 'error'), /^n: “lots” is not a number/);
  await p.click('#calc-clear');
  await p.fill('[data-testid=calc-n]', '1000');
  await p.click('[data-testid=calc-solve]');
  await p.waitForFunction(() => document.getElementById('calc-out').dataset.error);
  assert.match(await data(p, '#calc-out', 'error'), /enter three of n, p, m, k .*: m \(or bits per key\) and p and k are empty/);
  await p.context().close();
});

test('calculator: the open file’s numbers in one click', async () => {
  const p = await newPage();
  const e = byName.table_10k_series;
  await openFile(p, fixture('table_10k_series'));
  await p.waitForFunction(() => !document.getElementById('calc-file').disabled);
  await p.click('[data-testid=calc-file]');
  await p.waitForFunction(() => document.getElementById('calc-out').dataset.solved === 'p');
  const n = e.series_count + (e.time_columns_in_filter ? e.time_columns.length : 0);
  const { bit_count: m, hash_function_count: k } = e.bloom;
  assert.equal(await p.inputValue('[data-testid=calc-n]'), String(n));
  assert.ok(close(Number(await data(p, '#calc-out', 'p')), (1 - Math.exp((-k * n) / m)) ** k));
  await p.context().close();
});

test('the 13 claims: each reachable, each demonstration runs, intervals are Wilson’s, the numbers check out', async () => {
  const p = await newPage();
  for (let n = 1; n <= 13; n++) {
    assert.equal(await p.locator(`[data-testid=teach-claim-${n}]`).count(), 1, `claim ${n}`);
    assert.ok((await p.textContent(`[data-testid=teach-claim-${n}] .claim-text`)).length > 30);
  }
  const run = async (n, testid = `claim-${n}-show`) => {
    await p.click(`[data-testid=${testid}]`);
    await p.waitForFunction((c) => document.getElementById(`teach-claim-${c}`).dataset.state === 'done', n, { timeout: 60000 });
    const err = await p.evaluate((c) => document.querySelector(`#teach-claim-${c} .calc-error`)?.textContent ?? null, n);
    assert.equal(err, null, `claim ${n}`);
  };
  // 1: the step-through, on the sandbox.
  await run(1, 'claim-1-query');
  assert.equal(await data(p, '#teach-step', 'action'), 'query');
  // The measured ones: every rate cell carries its Wilson interval.
  for (const n of [2, 3, 4, 5, 8, 9, 11, 13]) {
    await run(n);
    checkIntervals(await rateCells(p, `#teach-claim-${n}`));
    assert.ok(['holds', 'fails', 'depends'].includes(await data(p, `#teach-claim-${n}`, 'answer')), `claim ${n}`);
  }
  // 11: a global filter's "maybe" sends a present key to all 8 files' indexes.
  const c11 = await p.evaluate(() => [...document.querySelectorAll('[data-testid=claim-11-table] tbody tr')].map((tr) => [...tr.querySelectorAll('td[data-value]')].map((td) => +td.dataset.value)));
  assert.equal(c11[0][2], 8);
  assert.ok(c11[0][1] >= 1 && c11[0][1] < 2, 'a filter per file: the holder plus a few false positives');
  // 2: the formula column is the formula, evaluated here, for k = 1 … 8.
  const c2 = await p.evaluate(() => [...document.querySelectorAll('[data-testid=claim-2-table] tbody tr')].slice(0, 8).map((tr) => [...tr.querySelectorAll('td[data-value]')].map((td) => +td.dataset.value)));
  for (const [j, [n, m, k, , formula]] of c2.entries()) {
    assert.equal(k, j + 1);
    assert.ok(close(formula, (1 - Math.exp((-k * n) / m)) ** k), `k = ${k}`);
  }
  // 3: LevelDB at 10 bits/key (its m rule, k = 6): the formula's 0.843 %, measured under 1.1 %.
  const c3 = await rateCells(p, '[data-testid=claim-3-table]');
  assert.ok(c3[0].rate < 0.011 && c3[0].rate > 0.006, c3[0].text);
  // 4: no false negatives under the writer's hash; most under the other tail variant.
  const c4 = await rateCells(p, '[data-testid=claim-4-table]');
  assert.equal(c4[0].hits, 0);
  assert.ok(c4[1].rate > 0.5);
  // 13: the prefix-key measurement states its result with intervals, for both hashes.
  const f13 = await p.textContent('#teach-claim-13 .findings');
  assert.match(f13, /TsFile's Murmur128: prefix-heavy paths [\d.]+ % \(95 % interval [\d.]+ % – [\d.]+ %\)/);
  assert.match(f13, /LevelDB's hash: prefix-heavy paths [\d.]+ % \(95 % interval/);
  assert.equal((await rateCells(p, '[data-testid=claim-13-table]')).length, 6);
  // 6: the read path through the bundled LevelDB table, its keys checked against the manifest.
  await run(6);
  const live = new Set(SAMPLE_LDB.live_keys.map(fromHex));
  const keys = await p.evaluate(() => [...document.querySelectorAll('#teach-claim-6 button[data-key]')].map((b) => b.dataset.key));
  assert.equal(keys.length, 3);
  const outcomes = [];
  for (const k of keys) {
    await p.click(`#teach-claim-6 button[data-key="${k}"]`);
    await p.waitForFunction((key) => document.querySelector('[data-testid=claim-6-outcome]')?.textContent.startsWith(`${key}:`), k);
    outcomes.push([k, await data(p, '[data-testid=claim-6-outcome]', 'outcome'), Number(await data(p, '[data-testid=claim-6-outcome]', 'dataBytes'))]);
  }
  assert.deepEqual(outcomes.map(([, o]) => o), ['found', 'skipped', 'false-positive']);
  assert.ok(live.has(outcomes[0][0]) && !live.has(outcomes[1][0]) && !live.has(outcomes[2][0]));
  assert.equal(outcomes[1][2], 0, 'the filter spared the data-block read');
  assert.ok(outcomes[2][2] > 0, 'a false positive costs one data-block read');
  // 7: a range scan finds the manifest's live keys in the range and probes no filter.
  await run(7);
  const inRange = [...live].filter((k) => k >= 'key00100' && k <= 'key00140').length;
  assert.equal(Number(await data(p, '[data-testid=claim-7-scan]', 'keys')), inRange);
  assert.equal(await data(p, '[data-testid=claim-7-scan]', 'filterProbes'), '0');
  checkIntervals(await rateCells(p, '#teach-claim-7'));
  assert.match(await p.evaluate(() => [...document.querySelectorAll('#teach-claim-7 .findings')].map((f) => f.textContent).join(' ')), /bits_per_key = 0 still builds a filter/);
  // 10: clearing creates false negatives, the counting filter none.
  await run(10);
  assert.ok(Number(await data(p, '[data-testid=claim-10-standard]', 'falseNegatives')) > 0);
  assert.equal(await data(p, '[data-testid=claim-10-counting]', 'falseNegatives'), '0');
  // 12: 10 bits per key × 100 M keys = 10⁹ bits = 125,000,000 bytes.
  await run(12);
  assert.equal(await data(p, '[data-testid=claim-12-size]', 'bytes'), '125000000');
  assert.equal(await data(p, '#teach-claim-12', 'answer'), 'holds');
  await p.context().close();
});

test('with a file open, the demonstrations use it', async () => {
  const p = await newPage();
  await openFile(p, fixture('table_unicode'));
  await p.waitForFunction(() => document.getElementById('pf-fn').dataset.file);
  for (const n of [4, 9, 13]) {
    await p.click(`[data-testid=claim-${n}-show]`);
    await p.waitForFunction((c) => document.getElementById(`teach-claim-${c}`).dataset.state === 'done', n, { timeout: 60000 });
    assert.equal(await data(p, `#teach-claim-${n}`, 'source'), 'file', `claim ${n}`);
  }
  // Claim 4 on the file: its listed paths (series + time columns, the C++ writer's) never test
  // absent under its hash; its non-ASCII-tail paths do under Java's.
  const c4 = await rateCells(p, '[data-testid=claim-4-table]');
  const e = byName.table_unicode;
  assert.equal(c4[3].trials, e.series_count + e.time_columns.length);
  assert.equal(c4[3].hits, 0);
  assert.ok(c4[4].hits > 0);
  await p.context().close();
});

test('sandbox: filled past its design n, it warns, with p climbing (the formula, evaluated here)', async () => {
  const p = await newPage();
  assert.equal(await p.isVisible('[data-testid=sb-overfill]'), false, 'the 24 demo paths fit the planned 50');
  await p.click('[data-testid=sb-random]');
  await p.waitForFunction(() => document.getElementById('teach-sandbox').dataset.overfilled === 'true');
  const n = Number(await data(p, '#teach-sandbox', 'n'));
  const text = await p.textContent('[data-testid=sb-overfill]');
  const f = (x) => (1 - Math.exp((-5 * x) / 256)) ** 5;
  const pc = (x) => `${(x * 100).toFixed(2 - Math.floor(Math.log10(x * 100)))} %`;
  assert.ok(text.includes(`${n} keys in a filter planned for 50`), text);
  assert.ok(text.includes(`from ${pc(f(50))} to ${pc(f(n))}`), `${text} / ${pc(f(50))} ${pc(f(n))}`);
  assert.equal(await p.getAttribute('#sb-growth .c-point', 'data-n'), String(n));
  // Planned for more than m can hold: it says so before any key is added, with Java's sizing
  // for that n (README: withCapacity(1000, 0.05) → 6,236 bits, k = 5).
  await p.evaluate(() => {
    const s = document.getElementById('sb-n');
    s.value = '1000';
    s.dispatchEvent(new Event('input'));
  });
  await p.waitForFunction(() => /Too small for its own design/.test(document.getElementById('sb-overfill').textContent));
  assert.match(await p.textContent('[data-testid=sb-overfill]'), /1000 planned keys in m = 256 bits .*m = 6236, k = 5/);
  // Measured in the sandbox: with its Wilson interval.
  await p.click('[data-testid=sb-measure]');
  await p.waitForFunction(() => document.getElementById('teach-sandbox').dataset.low);
  const rate = Number(await data(p, '#teach-sandbox', 'measured'));
  const [lo, hi] = wilson(Math.round(rate * 10000), 10000);
  assert.ok(close(Number(await data(p, '#teach-sandbox', 'low')), lo) && close(Number(await data(p, '#teach-sandbox', 'high')), hi));
  await p.context().close();
});

test('the landing leads with the sandbox', async () => {
  const p = await newPage();
  const order = await p.evaluate(() => [...document.querySelectorAll('#teach .teach-block')].map((b) => b.id));
  assert.equal(order[0], 'teach-sandbox');
  assert.match(await p.textContent('#teach-lead'), /^A Bloom filter is .*the sandbox below/s);
  await p.context().close();
});

test('pitfall words (issue 24): 0 differing bits are not "every differing bit happens to be set"; a typed path is not "an example"', async () => {
  const p = await newPage();
  assert.match(await p.textContent('#pf-source'), /^An example path/);
  await p.fill('[data-testid=pf-path]', 'root.sg1.d1.s1');
  await p.press('[data-testid=pf-path]', 'Enter');
  await p.waitForFunction(() => document.getElementById('pf-table').dataset.java === '188,32,58,183,12');
  assert.equal(await p.locator('#pf-table tr.differ').count(), 0);
  const words = await p.textContent('#pf-fn');
  assert.doesNotMatch(words, /every differing bit happens to be set/);
  assert.match(await p.textContent('[data-testid=pf-java-zero]'), /no bit differs/);
  assert.match(await p.textContent('[data-testid=pf-zero-java]'), /no bit differs/);
  assert.equal(await data(p, '#pf-source', 'source'), 'typed');
  assert.doesNotMatch(await p.textContent('#pf-source'), /example/);
  assert.match(await p.textContent('#pf-source'), /^The path you typed\.$/);
  // With a file: whether it lists the typed path.
  const e = byName.table_unicode;
  await openFile(p, fixture('table_unicode'));
  await p.waitForFunction(() => document.getElementById('pf-fn').dataset.file);
  await p.fill('[data-testid=pf-path]', e.paths_with_high_tail_bytes[1]);
  await p.press('[data-testid=pf-path]', 'Enter');
  await p.waitForFunction(() => /you typed/.test(document.getElementById('pf-source').textContent));
  assert.match(await p.textContent('#pf-source'), /which the loaded file lists/);
  await p.click('#pf-reset');
  await p.waitForFunction(() => document.getElementById('pf-source').dataset.source === 'file');
  await p.context().close();
});

test('axe-core over the teaching panel with every demonstration shown: 0 serious or critical findings (light and dark)', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const p = await newPage({ colorScheme, bypassCSP: true }); // axe is injected as an inline script
    await openFile(p, fixture('table_unicode'));
    await p.waitForFunction(() => document.getElementById('pf-fn').dataset.file);
    await p.fill('[data-testid=st-path]', 'root.sg1.d1.s1');
    await p.click('[data-testid=st-query]');
    await p.waitForFunction(() => document.getElementById('teach-step').dataset.action === 'query');
    await p.click('[data-testid=st-next]');
    for (let n = 2; n <= 13; n++) {
      await p.click(`#teach-claim-${n} .claim-actions button`);
      await p.waitForFunction((c) => document.getElementById(`teach-claim-${c}`).dataset.state === 'done', n, { timeout: 60000 });
    }
    await p.click('[data-testid=sb-random]');
    await p.waitForFunction(() => document.getElementById('teach-sandbox').dataset.overfilled === 'true');
    await p.addScriptTag({ content: readFileSync(AXE, 'utf8') });
    const r = await p.evaluate(async () => {
      const res = await globalThis.axe.run('#teach', { resultTypes: ['violations'] });
      return res.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
    });
    const bad = r.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(bad, [], `${colorScheme}: ${JSON.stringify(bad, null, 1)}`);
    await p.context().close();
  }
});

test('axe-core on a phone-sized screen: the panel’s wide tables scroll in keyboard-reachable regions', async () => {
  const p = await newPage({ viewport: { width: 390, height: 800 }, isMobile: true, hasTouch: true, bypassCSP: true });
  for (const n of [5, 13]) {
    await p.click(`[data-testid=claim-${n}-show]`);
    await p.waitForFunction((c) => document.getElementById(`teach-claim-${c}`).dataset.state === 'done', n, { timeout: 60000 });
  }
  assert.equal(await p.evaluate(() => document.documentElement.scrollWidth), 390, 'nothing widens the page');
  await p.addScriptTag({ content: readFileSync(AXE, 'utf8') });
  const r = await p.evaluate(async () => (await globalThis.axe.run('#teach', { resultTypes: ['violations'] })).violations.map((v) => ({ id: v.id, impact: v.impact })));
  assert.deepEqual(r.filter((v) => v.impact === 'serious' || v.impact === 'critical'), []);
  await p.context().close();
});

test('no page errors, console errors or requests beyond the origin', () => {
  assert.deepEqual(harness.problems, []);
});

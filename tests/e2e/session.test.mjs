// A seeded random session on the inspector page: valid, hostile and LevelDB files, the bundled
// sample and the 8-Mbit demo, opened through the file input or dropped on the page, mixed with
// probes, zooms, series-list scrolling, batches (also cut short by the next file) and hash
// choices. Over the whole session no page error and no console error may appear, and after
// each file the page names that file (its summary, or its error). Expected facts per file come
// from the fixtures' manifests (written by the generators from the real writers).
//
//   SESSION_SEED=1234 node --test tests/e2e/session.test.mjs     # replay a session
//   SESSION_ACTIONS=400 …                                          # a longer one
//   SESSION_VERBOSE=1 …                                            # each action and its time
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHarness, tsfileFixtures, seriesPath } from './harness.mjs';

const { dir: TSFILES, manifest, byName } = tsfileFixtures();
const LEVELDB = fileURLToPath(new URL('../fixtures/leveldb/', import.meta.url));
const { tables } = JSON.parse(readFileSync(`${LEVELDB}manifest.json`, 'utf8'));
const JAVA = fileURLToPath(new URL('../fixtures/java/', import.meta.url));
const javaFiles = JSON.parse(readFileSync(`${JAVA}manifest.json`, 'utf8')).files;

// The JVM charsets the page's menu offers, in order.
const JVM_CHARSETS = ['UTF-8', 'GBK', 'GB18030', 'Big5', 'x-windows-950', 'Shift_JIS', 'windows-31j', 'EUC-JP', 'EUC-KR', 'x-windows-949', 'windows-1252', 'ISO-8859-1'];
// The ones the session chooses from ('' is the menu's "as the writer").
const SESSION_CHARSETS = ['', ...JVM_CHARSETS];
const VARIANTS = ['', 'java', 'zero-extended'];

const SEED = Number(process.env.SESSION_SEED ?? (Date.now() % 2 ** 31));
const ACTIONS = Math.max(200, Number(process.env.SESSION_ACTIONS ?? 220));

/** mulberry32: a small seeded PRNG, so a failing session can be replayed from its seed. */
function mulberry32(a) {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
const rand = mulberry32(SEED);
const int = (n) => Math.floor(rand() * n);
const pick = (a) => a[int(a.length)];


// Every fixture the page can be given as a file.
const files = [
  ...manifest.map((e) => ({ path: TSFILES + e.file, kind: e.kind === 'hostile' ? 'hostile' : 'tsfile', entry: e })),
  ...tables.map((t) => ({ path: LEVELDB + t.file, kind: 'leveldb', table: t })),
  // Written by Apache TsFile's Java writer under UTF-8 and GBK JVMs (tests/fixtures/java/).
  ...javaFiles.map((e) => ({ path: JAVA + e.file, kind: 'java', entry: e })),
];
/** Files in a seeded shuffled deck, so that every fixture is opened once before any twice. */
const opened = new Set();
let deck = [];
function nextFile() {
  if (!deck.length) {
    deck = files.slice();
    for (let i = deck.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [deck[i], deck[j]] = [deck[j], deck[i]];
    }
  }
  return deck.pop();
}
const base64 = new Map();
const bytesOf = (f) => base64.get(f.path) ?? base64.set(f.path, readFileSync(f.path).toString('base64')).get(f.path);

const interrupted = { batches: 0, probes: 0 };
let harness;
let page;
/** What the page should show: the last file opened, and how. */
let expected = null;
const log = [];

before(async () => {
  harness = await startHarness();
  page = await harness.newPage();
  console.log(`session seed ${SEED} (replay with SESSION_SEED=${SEED}), ${ACTIONS} actions`);
});

after(async () => {
  await harness?.close();
});

const state = () => page.evaluate(() => document.body.dataset.state);
const visible = (sel) => page.isVisible(sel);
const settle = () => page.waitForFunction(() => ['ready', 'error'].includes(document.body.dataset.state), null, { timeout: 30000 });
const markPicking = () => page.evaluate(() => (document.body.dataset.state = 'picking'));

async function viaInput(f) {
  await page.setInputFiles('[data-testid=file-input]', f.path);
}

async function viaDrop(f, { probeFirst = false } = {}) {
  await page.evaluate(({ b64, name, probeFirst }) => {
    // In the same task as the drop: the probe's answer can only arrive after the new file began.
    if (probeFirst) document.querySelector('#probe-form').requestSubmit();
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], name));
    for (const type of ['dragenter', 'dragover', 'drop']) document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, { b64: bytesOf(f), name: basename(f.path), probeFirst });
}

/** Starts opening a fixture (input or drop); returns what the page must then show. */
async function startOpen(f) {
  opened.add(f.path);
  await markPicking();
  const how = rand() < 0.5 ? 'input' : 'drop';
  if (how === 'input') await viaInput(f);
  else await viaDrop(f);
  return { ...f, name: basename(f.path), how };
}

/** After a file settles: the page names it, and shows the view its kind calls for. */
async function checkShown() {
  const e = expected;
  const st = await state();
  const where = `${e.name} (${e.how})`;
  const error = (await visible('[data-testid=error]')) ? await page.textContent('[data-testid=error]') : '';
  if (e.kind === 'leveldb') {
    assert.equal(st, 'ready', `${where}: a LevelDB table opens`);
    assert.ok(await visible('#leveldb'), `${where}: the LevelDB view is shown`);
    assert.ok((await page.textContent('#ldb-name')).startsWith(e.name), `${where}: the LevelDB view names the table`);
    assert.ok(!(await visible('#content')), `${where}: no TsFile view beside the table`);
    const strip = await page.locator('[data-testid=ldb-filter]').count();
    assert.ok(e.table.bits_per_key ? strip > 0 : strip === 0, `${where}: ${strip} filters shown`);
    return;
  }
  assert.ok(!(await visible('#leveldb')), `${where}: no LevelDB view left over`);
  if (st === 'error') {
    assert.ok(e.kind === 'hostile', `${where}: only a hostile file may fail (${error})`);
    assert.ok(error.includes(e.name), `${where}: the error names the file: ${error}`);
    assert.ok(error.includes(e.entry.error_kind), `${where}: the error shows ${e.entry.error_kind}: ${error}`);
    assert.ok(!(await visible('#content')), `${where}: no summary of an earlier file`);
    return;
  }
  assert.equal(st, 'ready', where);
  assert.ok(await visible('#content'), `${where}: the summary is shown`);
  const title = await page.textContent('#file-name');
  if (e.kind === 'demo') {
    assert.match(title, /^synthetic filter/, where);
    return;
  }
  assert.ok(title.startsWith(`${e.name} · `), `${where}: the summary names the file: ${title}`);
  const bits = (await page.textContent('[data-testid=bit-count]')).trim();
  if (e.kind === 'hostile') {
    // Read past TsFileMetadata, failed in the index: partial results and the index error.
    assert.ok(error.includes(e.entry.error_kind), `${where}: the index error shows ${e.entry.error_kind}: ${error}`);
    return;
  }
  assert.equal(error, '', `${where}: no error`);
  if (e.kind === 'java') {
    const b = e.entry.bloom;
    assert.equal(bits, b.present ? b.bit_count.toLocaleString('en') : '–', `${where}: bit count`);
    assert.ok((await page.textContent('#series-count')).startsWith(`(${e.entry.series_count.toLocaleString('en')}`), `${where}: series count`);
    const hash = await page.textContent('[data-testid=hash-used]');
    // Java's tail; the JVM's charset whenever some hashed path is not ASCII.
    const ascii = e.entry.devices.every((d) => d.series.every((x) => /^[\x00-\x7f]*$/.test(x[2])));
    if (!b.present) assert.match(hash, /no filter/, `${where}: ${hash}`);
    else if (!ascii) assert.match(hash, new RegExp(`java.*· ${e.entry.charset}$`), `${where}: ${hash}`);
    return;
  }
  const b = e.entry.bloom;
  assert.equal(bits, b.byte_length ? b.bit_count.toLocaleString('en') : '–', `${where}: bit count`);
  assert.equal((await page.textContent('#series-count')).startsWith(`(${e.entry.series_count.toLocaleString('en')}`), true, `${where}: series count`);
  // The hash the page says the file was written with agrees with the writer (the manifest).
  const hash = await page.textContent('[data-testid=hash-used]');
  if (!b.byte_length) assert.match(hash, /no filter/, `${where}: ${hash}`);
  else if (!hash.startsWith('java or zero-extended')) assert.ok(hash.startsWith(`${e.entry.hash_variant} (`), `${where}: ${hash} vs the writer's ${e.entry.hash_variant}`);
  if (b.byte_length) assert.match(hash, /UTF-8/, `${where}: ${hash}`);
}

async function openAndCheck(f) {
  expected = await startOpen(f);
  await settle();
  await checkShown();
}

const tsfileReady = async () => (await state()) === 'ready' && (await visible('#content'));
const current = () => page.evaluate(() => {
  const c = globalThis.inspector?.current;
  return c ? { series: c.series.slice(0, 400).map((s) => s.path), count: c.series.length, bits: c.bitCount } : null;
});

async function somePath() {
  const c = await current();
  const r = rand();
  if (c?.series.length && r < 0.5) return pick(c.series);
  if (r < 0.7) return `root.sg${int(9)}.d${int(99)}.s${int(999)}`;
  if (r < 0.85) return `root.能耗.泵${int(9)}.温度℃`;
  return pick(['a', 'root', 'root.café.dévice.naïve', 'root.emoji.🎉.😀', 'x'.repeat(1 + int(40))]);
}

async function probe() {
  await page.fill('[data-testid=path-input]', await somePath());
  await page.evaluate(() => (document.querySelector('[data-testid=verdict]').textContent = ''));
  await page.press('[data-testid=path-input]', 'Enter');
  // A verdict, or the probe's error (a charset that cannot encode the path), as a plain message.
  await page.waitForFunction(() => document.querySelector('[data-testid=verdict]').textContent !== '' || !document.querySelector('[data-testid=error]').hidden, null, { timeout: 10000 });
}

/** Autocomplete: a prefix of an indexed path, then a suggestion by keyboard. */
async function suggest() {
  const c = await current();
  const path = c?.series.length ? pick(c.series) : 'root.';
  await page.fill('[data-testid=path-input]', path.slice(0, 1 + int(path.length)));
  await page.waitForTimeout(int(30));
  for (let i = int(3); i >= 0; i--) await page.press('[data-testid=path-input]', pick(['ArrowDown', 'ArrowUp', 'ArrowDown']));
  await page.press('[data-testid=path-input]', pick(['Enter', 'Escape']));
}

/** A key on the LevelDB view: a live key (hex), text, or bad hex (a plain message). */
async function probeLevelDb() {
  const t = expected.table;
  const r = rand();
  const hex = r < 0.6;
  await page.setChecked('#ldb-hex', hex);
  const key = r < 0.45 && t.live_keys?.length ? pick(t.live_keys) : r < 0.6 ? 'zz' : pick(['', 'a', 'key0001', '能耗', 'x'.repeat(int(300))]);
  await page.fill('[data-testid=ldb-key-input]', key);
  await page.evaluate(() => (document.querySelector('[data-testid=ldb-verdict]').textContent = ''));
  await page.press('[data-testid=ldb-key-input]', 'Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=ldb-verdict]').textContent !== '', null, { timeout: 10000 });
  const verdict = await page.textContent('[data-testid=ldb-verdict]');
  if (hex && key === 'zz') assert.match(verdict, /^invalid_argument/, `bad hex: ${verdict}`);
  else assert.match(verdict, /^(Maybe present|Definitely absent)/, `${key}: ${verdict}`);
}

async function chooseHash() {
  const which = rand() < 0.6 ? 'charset' : 'variant';
  await page.selectOption(`#${which}`, which === 'charset' ? pick(SESSION_CHARSETS) : pick(VARIANTS));
  await page.waitForTimeout(int(40));
}

async function zoom() {
  // A file without a filter has no map controls to press (they are disabled).
  if (await page.isDisabled('#zoom-fit')) return;
  const r = rand();
  if (r < 0.25) await page.click(pick(['#zoom-in', '#zoom-out', '#zoom-fit']));
  else if (r < 0.45) {
    const c = await current();
    await page.fill('#goto', String(c?.bits ? int(c.bits) : int(1000)));
    await page.press('#goto', 'Enter');
  } else if (r < 0.7) {
    await page.focus('[data-testid=heatmap]');
    for (let i = int(6); i >= 0; i--) await page.keyboard.press(pick(['ArrowRight', 'ArrowDown', '+', '-', '0', 'Enter']));
  } else {
    const box = await page.locator('[data-testid=heatmap]').boundingBox();
    if (box) await page.mouse.move(box.x + rand() * box.width, box.y + rand() * box.height);
    // A plain wheel scrolls the page; with ctrl it zooms the map.
    const ctrl = rand() < 0.5;
    if (ctrl) await page.keyboard.down('Control');
    if (box && rand() < 0.3) await page.mouse.wheel(0, rand() < 0.5 ? -200 : 200);
    if (ctrl) await page.keyboard.up('Control');
  }
}

async function scrollSeries() {
  const r = rand();
  if (r < 0.4) await page.$eval('#series', (el, f) => (el.scrollTop = f * el.scrollHeight), rand());
  else if (r < 0.6) {
    await page.focus('#series');
    for (let i = int(5); i >= 0; i--) await page.keyboard.press(pick(['ArrowDown', 'PageDown', 'End', 'Home', 'ArrowUp']));
  } else if (r < 0.8) {
    await page.fill('#series-filter', pick(['', 's', 'd1', 'temp', '温', 'zzz']));
    await page.selectOption('#series-status', pick(['all', 'time', 'missing']));
  } else if (rand() < 0.5 && (await visible('#batch-results-box')) && (await page.locator('#batch-results .vlist-row').count())) {
    // A row of the last batch's results probes its path.
    await page.evaluate(() => (document.querySelector('[data-testid=verdict]').textContent = ''));
    await page.locator('#batch-results .vlist-row').first().click();
    await page.waitForFunction(() => document.querySelector('[data-testid=verdict]').textContent !== '' || !document.querySelector('[data-testid=error]').hidden, null, { timeout: 10000 });
  } else if (await page.locator('#series .vlist-row').count()) {
    await page.evaluate(() => (document.querySelector('[data-testid=verdict]').textContent = ''));
    await page.locator('#series .vlist-row').first().click();
    await page.waitForFunction(() => document.querySelector('[data-testid=verdict]').textContent !== '' || !document.querySelector('[data-testid=error]').hidden, null, { timeout: 10000 });
  }
}

/** Starts a batch of `n` paths; returns the path count. */
async function startBatch(n) {
  const c = await current();
  const paths = Array.from({ length: n }, (_, i) => (c?.series.length && i % 3 === 0 ? c.series[i % c.series.length] : `root.batch.d${i % 97}.s${i}`));
  await page.$eval('#batch-input', (el, v) => (el.value = v), paths.join('\n'));
  await page.click('#batch-run');
  // A textarea of many thousand lines costs Chromium a long layout each time it is shown again.
  if (n > 5000) await page.$eval('#batch-input', (el) => (el.value = ''));
  return n;
}

async function batch() {
  const r = rand();
  if (r < 0.6) {
    const n = await startBatch(1 + int(3000));
    await page.waitForFunction(() => !document.querySelector('#batch-run').disabled, null, { timeout: 20000 });
    const summary = (await visible('#batch-results-box')) ? await page.textContent('#batch-summary') : '';
    const shown = await page.textContent('#batch-status');
    assert.ok(summary.startsWith(`${n.toLocaleString('en')} paths`) || /Cancelled/.test(shown) || (await visible('[data-testid=error]')), `a finished batch reports its ${n} paths: ${summary} / ${shown}`);
  } else if (r < 0.75) {
    await startBatch(25001 + int(20000));
    await page.waitForTimeout(int(100));
    // In one step: the batch may finish (and hide the button) between a check and a click.
    await page.evaluate(() => document.querySelector('#batch-cancel:not([hidden])')?.click());
    await page.waitForFunction(() => !document.querySelector('#batch-run').disabled, null, { timeout: 20000 });
  } else {
    // A new file while a long batch runs: its late answer must not land on the new file.
    await startBatch(25001 + int(20000));
    await page.waitForTimeout(int(100));
    if (await page.isDisabled('#batch-run')) interrupted.batches++;
    await openAndCheck(nextFile());
    assert.ok(!(await visible('#batch-results-box')), 'no batch results carried over to the new file');
    assert.doesNotMatch(await page.textContent('#batch-status'), /Done|tested/, 'no batch status carried over');
    return 'batch, then a new file';
  }
  return 'batch';
}

async function openSample() {
  await markPicking();
  expected = { kind: 'tsfile', name: 'sample.tsfile', how: 'sample', entry: byName.table_unicode };
  await page.click('#sample');
  await settle();
  await checkShown();
}

async function openDemo() {
  await markPicking();
  expected = { kind: 'demo', name: 'synthetic', how: 'demo' };
  await page.click('#synthetic');
  await settle();
  await checkShown();
}

/** A probe, and a new file before its answer: the answer must not land on the new file. */
async function probeThenOpen() {
  await page.fill('[data-testid=path-input]', await somePath());
  const f = nextFile();
  opened.add(f.path);
  await markPicking();
  await viaDrop(f, { probeFirst: true });
  interrupted.probes++;
  expected = { ...f, name: basename(f.path), how: 'drop after a probe' };
  await settle();
  await checkShown();
  await page.waitForTimeout(50);
  assert.ok(!(await visible('#verdict-box')), 'no verdict carried over to the new file');
}

/** Two files in quick succession: only the second may be shown. */
async function rapid() {
  await startOpen(nextFile());
  await page.waitForTimeout(int(30));
  await openAndCheck(nextFile());
}

/** A measured lesson on the open file (claim 2; the file panel's measurement before it merged into the claim). */
async function measure() {
  if (await page.isEnabled('[data-testid=claim-2-show]')) {
    await page.click('[data-testid=claim-2-show]');
    await page.waitForTimeout(int(200));
  }
}

test(`a random session of ${ACTIONS} actions over every fixture leaves no page or console error`, { timeout: 170000 }, async () => {
  const t0 = Date.now();
  let demos = 0;
  for (let i = 0; i < ACTIONS; i++) {
    const ta = Date.now();
    const ready = await tsfileReady();
    const r = rand();
    let what;
    if (!expected || r < 0.3) {
      const f = nextFile();
      what = `open ${basename(f.path)}`;
      log.push(what);
      await openAndCheck(f);
    } else if (r < 0.34) {
      what = 'sample';
      log.push(what);
      await openSample();
    } else if (r < 0.36 && !demos) {
      demos++;
      what = '8-Mbit demo';
      log.push(what);
      await openDemo();
    } else if (r < 0.41) {
      what = 'two files in quick succession';
      log.push(what);
      await rapid();
    } else if (!ready && expected.kind === 'leveldb' && (await state()) === 'ready' && r < 0.8) {
      log.push((what = 'LevelDB key'));
      await probeLevelDb();
    } else if (!ready) {
      what = 'open (nothing else to do on this view)';
      log.push(what);
      await openAndCheck(nextFile());
    } else if (r < 0.51) {
      log.push((what = 'probe'));
      await probe();
    } else if (r < 0.53) {
      log.push((what = 'probe, then a new file'));
      await probeThenOpen();
    } else if (r < 0.55) {
      log.push((what = 'autocomplete'));
      await suggest();
    } else if (r < 0.65) {
      log.push((what = 'hash choice'));
      await chooseHash();
    } else if (r < 0.75) {
      log.push((what = 'zoom'));
      await zoom();
    } else if (r < 0.85) {
      log.push((what = 'series list'));
      await scrollSeries();
    } else if (r < 0.97) {
      log.push((what = 'batch'));
      log[log.length - 1] = await batch();
    } else {
      log.push((what = 'measure'));
      await measure();
    }
    if (process.env.SESSION_VERBOSE) console.log(`${i + 1} ${log[log.length - 1]} ${Date.now() - ta} ms`);
    assert.deepEqual(harness.problems, [], `after action ${i + 1} (${what}); seed ${SEED}; last actions: ${log.slice(-12).join(' → ')}`);
  }
  // Every fixture, the sample and the demo at least once.
  for (const f of files.filter((x) => !opened.has(x.path))) {
    log.push(`open ${basename(f.path)} (not drawn yet)`);
    await openAndCheck(f);
  }
  if (!log.includes('sample')) await openSample();
  if (!demos) await openDemo();
  console.log(`${log.length} actions (${opened.size} fixtures opened; ${interrupted.batches} batches and ${interrupted.probes} probes sent in the same task as a new file) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  assert.deepEqual(harness.problems, []);
});

test('the charset menu offers the JVM charsets in order, and each gives a verdict under that charset', async () => {
  const offered = await page.$$eval('#charset option', (os) => os.map((o) => o.value));
  assert.deepEqual(offered.slice(0, JVM_CHARSETS.length + 1), ['', ...JVM_CHARSETS]);
  expected = { ...files.find((f) => f.entry?.name === 'tree_unicode'), name: 'tree_unicode.tsfile', how: 'input' };
  await viaInput(expected);
  await settle();
  await checkShown();
  await page.fill('[data-testid=path-input]', 'root.café.dévice.naïve');
  for (const cs of JVM_CHARSETS) {
    await page.evaluate(() => {
      document.querySelector('[data-testid=verdict]').textContent = '';
      document.querySelector('[data-testid=error]').hidden = true;
    });
    await page.selectOption('#charset', cs);
    await page.waitForFunction(() => document.querySelector('[data-testid=verdict]').textContent !== '' || !document.querySelector('[data-testid=error]').hidden, null, { timeout: 10000 });
    const error = (await visible('[data-testid=error]')) ? await page.textContent('[data-testid=error]') : '';
    // Every JVM charset in the menu gives a verdict under that charset (the worker fetches the
    // charsets module for the multi-byte ones).
    assert.equal(error, '', `${cs}: ${error}`);
    assert.match(await page.textContent('#verdict-sound'), new RegExp(` · ${cs} \\(chosen in the menus above\\)\\.$`), cs);
  }
  assert.deepEqual(harness.problems, []);
});

// The page's folder view: a folder of real-writer TsFiles (copies of the C++ writer's and the
// Java writer's fixtures in IoTDB's layout), hostile files and a non-TsFile, opened through the
// folder input and scanned in a worker with the audit on. Expected verdicts come from the CLI's
// `probe --json` run on each source file (it reads the index and audits first), checked
// against the manifests' series lists (a file that lists the path is never skipped); error
// kinds come from the hostile fixtures' manifests.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHarness, countMainThreadWasm } from './harness.mjs';
import { addHostileFixtures, buildFleet, FIXTURES, HOSTILE_FIXTURES } from '../js/fleet.mjs';

const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
// An ASCII path (every hash variant and charset agree on its bytes) that some fixtures hold.
const PATH = 'root.sg.e1.v0';

/** The sources whose writer's own listing holds PATH (the manifests' series lists). */
function holders() {
  const out = new Set();
  for (const f of JSON.parse(readFileSync(`${FIXTURES}tsfile/manifest.json`, 'utf8'))) {
    for (const s of f.series ?? []) if (`${s.device.map((x) => (x == null ? 'null' : x)).join('.')}.${s.measurement}` === PATH) out.add(`${FIXTURES}tsfile/${f.file}`);
  }
  for (const f of JSON.parse(readFileSync(`${FIXTURES}java/manifest.json`, 'utf8')).files) {
    for (const d of f.devices) for (const s of d.series) if (s[2] === PATH) out.add(`${FIXTURES}java/${f.file}`);
  }
  return out;
}

// probe's verdict, or null when probe cannot open the file (a file hostile only in its index
// opens from the tail: its verdict follows the rules for an unreadable index, and counts).
const probed = new Map();
function cliVerdict(sourcePath) {
  if (!probed.has(sourcePath)) {
    const r = spawnSync(process.execPath, [CLI, 'probe', sourcePath, PATH, '--json'], { encoding: 'utf8' });
    const out = JSON.parse(r.stdout);
    if (r.status !== 0) assert.equal(typeof out.error?.kind, 'string', `${sourcePath}: ${r.stdout}${r.stderr}`);
    probed.set(sourcePath, r.status === 0 ? out.results[0].verdict : null);
  }
  return probed.get(sourcePath);
}

let harness;
let page;
let tmp;
let root;
/** name as the page shows it → {verdict, errorKind, size} expected. */
const expected = new Map();

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'tsfile-bloom-folder-'));
  root = join(tmp, 'fleet');
  const entries = buildFleet(root, { count: 240, withLarge: false, hostile: false });
  const bad = addHostileFixtures(root, '2009', entries);
  const notes = join(bad, '0-notes-0-0.tsfile');
  writeFileSync(notes, 'these are notes, not a TsFile\n'.repeat(20));
  entries.push({ file: notes, source: null, expect: 'hostile' });
  const hold = holders();
  for (const e of entries) {
    const name = `fleet/${relative(root, e.file)}`;
    if (e.expect === 'valid') {
      const verdict = cliVerdict(e.source.path);
      if (hold.has(e.source.path)) assert.equal(verdict, 'maybe', `${e.source.name} lists ${PATH}: never skipped`);
      expected.set(name, { verdict, errorKind: null, size: statSync(e.file).size });
    } else expected.set(name, { verdict: cliVerdict(e.file), errorKind: e.source?.errorKind ?? 'any', size: statSync(e.file).size });
  }
  harness = await startHarness();
  page = await harness.newPage({ initScript: countMainThreadWasm });
});

after(async () => {
  await harness?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** Every row of the virtual list, scrolled through: name → {size, errorKind, verdicts}. */
async function allRows() {
  return page.evaluate(async () => {
    const box = document.getElementById('fleet-rows');
    const out = {};
    const order = [];
    for (let top = 0; ; top += box.clientHeight / 2) {
      box.scrollTop = top;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      for (const row of box.querySelectorAll('.vlist-row')) {
        const { file, size, errorKind, verdicts } = row.dataset;
        if (!(file in out)) order[Number(row.dataset.index)] = file;
        out[file] = { size: size === '' ? null : Number(size), errorKind: errorKind || null, verdicts };
      }
      if (top + box.clientHeight >= box.scrollHeight) break;
    }
    box.scrollTop = 0;
    return { rows: out, order };
  });
}

const shownText = () => page.textContent('[data-testid=fleet-shown]');
const waitDone = () => page.waitForFunction(() => document.body.dataset.fleet === 'done', null, { timeout: 60000 });

test('a folder of real-writer files: every file listed, the summary as probe says, bad files with their kinds', async () => {
  assert.ok(expected.size >= 200 + HOSTILE_FIXTURES.length, `${expected.size} files`);
  // The folder first (a health report: no path yet), then the path, audited: a rescan.
  await page.setInputFiles('[data-testid=folder-input]', root);
  await waitDone();
  assert.equal(await page.locator('[data-testid=fleet-skip]').count(), 0);
  await page.fill('[data-testid=fleet-paths]', PATH);
  await page.check('[data-testid=fleet-audit]');
  await page.press('[data-testid=fleet-paths]', 'Enter');
  await waitDone();
  const files = [...expected.values()];
  const skippable = files.filter((e) => e.verdict === 'absent').length;
  const mayHold = files.filter((e) => e.verdict === 'maybe' || e.verdict === 'unknown').length;
  assert.ok(skippable > 0 && mayHold > 0, `${skippable} skippable, ${mayHold} may hold: the path must split the folder`);
  const skipLine = await page.textContent('[data-testid=fleet-skip]');
  assert.ok(skipLine.startsWith(`${skippable.toLocaleString('en')} of ${expected.size.toLocaleString('en')} files can be skipped for ${PATH}`), skipLine);
  assert.match(skipLine, new RegExp(`; ${mayHold.toLocaleString('en')} may hold it`));
  const errors = files.filter((e) => e.errorKind).length;
  assert.match(await page.textContent('[data-testid=fleet-errors]'), new RegExp(`^${expected.size.toLocaleString('en')} files, ${errors} with errors`));
  assert.equal(await shownText(), `${expected.size.toLocaleString('en')} of ${expected.size.toLocaleString('en')} files shown`);
  // Every file, each once, with its size, its verdict or its error kind; the .resource files passed by.
  const { rows } = await allRows();
  assert.deepEqual(Object.keys(rows).sort(), [...expected.keys()].sort());
  for (const [name, e] of expected) {
    const r = rows[name];
    assert.equal(r.size, e.size, name);
    if (e.errorKind === 'any') assert.ok(r.errorKind && r.errorKind !== 'io', `${name}: ${r.errorKind}`);
    else assert.equal(r.errorKind, e.errorKind, name);
    assert.equal(r.verdicts, e.verdict ?? '', name);
  }
  assert.match(await page.textContent('#fleet-name'), /^fleet \(\d+ TsFiles; \d+ other files passed by\)$/);
  // The scan ran in the worker: the main thread compiled no wasm.
  assert.deepEqual(await page.evaluate(() => globalThis.__wasmOnMain), []);
});

test('sorting by size and by verdict, filtering by name and by what a reader can skip', async () => {
  const sizes = [...expected.values()].map((e) => e.size).sort((a, b) => a - b);
  await page.click('#fleet-head button[data-key=size]');
  let { order, rows } = await allRows();
  let got = order.map((f) => rows[f].size);
  assert.deepEqual(got, sizes, 'ascending sizes');
  await page.click('#fleet-head button[data-key=size]');
  ({ order, rows } = await allRows());
  got = order.map((f) => rows[f].size);
  assert.deepEqual(got, sizes.slice().reverse(), 'descending sizes');
  assert.equal(await page.getAttribute('#fleet-head button[data-key=size]', 'aria-sort'), 'descending');
  // The verdict column: absent first, then maybe, then files without a verdict.
  await page.click('#fleet-head button[data-key=v0]');
  ({ order, rows } = await allRows());
  const rank = { absent: 0, maybe: 1, unknown: 2, '': 3 };
  const ranks = order.map((f) => rank[rows[f].verdicts]);
  assert.deepEqual(ranks, ranks.slice().sort((a, b) => a - b));

  const total = expected.size.toLocaleString('en');
  await page.fill('[data-testid=fleet-filter]', 'hostile_bloom_k_');
  assert.equal(await shownText(), `3 of ${total} files shown`);
  ({ rows } = await allRows());
  assert.deepEqual(Object.values(rows).map((r) => r.errorKind).sort(), ['bloom_bad_hash_function_count', 'bloom_bad_hash_function_count', 'bloom_bad_hash_function_count']);
  await page.fill('[data-testid=fleet-filter]', '');
  const count = (pred) => [...expected.values()].filter(pred).length.toLocaleString('en');
  await page.selectOption('[data-testid=fleet-show]', 'skip');
  assert.equal(await shownText(), `${count((e) => e.verdict === 'absent')} of ${total} files shown`);
  await page.selectOption('[data-testid=fleet-show]', 'hold');
  assert.equal(await shownText(), `${count((e) => e.verdict === 'maybe' || e.verdict === 'unknown')} of ${total} files shown`);
  await page.selectOption('[data-testid=fleet-show]', 'error');
  assert.equal(await shownText(), `${count((e) => e.errorKind)} of ${total} files shown`);
  await page.selectOption('[data-testid=fleet-show]', 'all');
});

test('a click on a row opens that file in the inspector', async () => {
  // A copy that holds the path, and a hostile file.
  const [name] = [...expected].find(([, e]) => e.verdict === 'maybe');
  await page.fill('[data-testid=fleet-filter]', basename(name));
  assert.equal(await shownText(), `1 of ${expected.size.toLocaleString('en')} files shown`);
  await page.evaluate(() => (document.body.dataset.state = 'picking'));
  await page.click(`#fleet-rows .vlist-row[data-file="${name}"]`);
  await page.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 20000 });
  assert.ok((await page.textContent('#file-name')).includes(basename(name)), await page.textContent('#file-name'));
  await page.fill('[data-testid=path-input]', PATH);
  await page.press('[data-testid=path-input]', 'Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=verdict]').textContent.length > 0);
  assert.match(await page.textContent('[data-testid=verdict]'), /maybe/i);

  const [bad] = [...expected].find(([, e]) => e.errorKind === 'bad_tail_magic');
  await page.fill('[data-testid=fleet-filter]', basename(bad));
  await page.evaluate(() => (document.body.dataset.state = 'picking'));
  await page.click(`#fleet-rows .vlist-row[data-file="${bad}"]`);
  await page.waitForFunction(() => document.body.dataset.state === 'error', null, { timeout: 20000 });
  const err = await page.textContent('[data-testid=error]');
  assert.ok(err.includes(basename(bad)) && err.includes('bad_tail_magic'), err);
  await page.fill('[data-testid=fleet-filter]', '');
});

test('cancel stops a scan; a rescan lists the folder again', async () => {
  await page.evaluate(() => {
    document.getElementById('fleet-rescan').click();
    document.getElementById('fleet-cancel').click();
  });
  await waitDone();
  assert.match(await page.textContent('[data-testid=fleet-status]'), /^Cancelled after \d+ files/);
  const shown = Number((await shownText()).split(' ')[0].replace(/,/g, ''));
  assert.ok(shown < expected.size, `${shown} files after a cancel`);
  await page.click('#fleet-rescan');
  await waitDone();
  assert.equal(await shownText(), `${expected.size.toLocaleString('en')} of ${expected.size.toLocaleString('en')} files shown`);
  assert.deepEqual(harness.problems, []);
});

test('a directory handle (showDirectoryPicker; here the origin-private file system): scanned in the worker, a row opens', async () => {
  // 30 files of the folder — some that may hold the path, some a reader can skip, some bad — in
  // two subfolders, with what they must say.
  const all = [...expected];
  const chosen = [
    ...all.filter(([, e]) => e.verdict === 'maybe').slice(0, 10),
    ...all.filter(([, e]) => e.verdict === 'absent' && !e.errorKind).slice(0, 15),
    ...all.filter(([, e]) => e.errorKind && !e.verdict).slice(0, 5),
  ];
  assert.equal(chosen.length, 30);
  const files = chosen.map(([name], i) => ({ dir: i % 2 ? 'a' : 'b', name: basename(name), bytes: [...readFileSync(join(tmp, name))] }));
  await page.evaluate(async (files) => {
    const opfs = await navigator.storage.getDirectory();
    const top = await opfs.getDirectoryHandle('picked', { create: true });
    for (const f of files) {
      const dir = await top.getDirectoryHandle(f.dir, { create: true });
      const w = await (await dir.getFileHandle(f.name, { create: true })).createWritable();
      await w.write(new Uint8Array(f.bytes));
      await w.close();
    }
    await (await top.getFileHandle('notes.txt', { create: true })).createWritable().then(async (w) => (await w.write('not a TsFile'), w.close()));
    globalThis.showDirectoryPicker = async () => top;
    document.getElementById('fleet-filter').value = '';
    document.getElementById('fleet-show').value = 'all';
  }, files);
  await page.click('[data-testid=folder-open]');
  await page.waitForFunction(() => document.body.dataset.fleet === 'scanning' || document.getElementById('fleet-name').textContent === 'picked');
  await waitDone();
  assert.equal(await page.textContent('#fleet-name'), 'picked');
  const skippable = chosen.filter(([, e]) => e.verdict === 'absent').length;
  const skipLine = await page.textContent('[data-testid=fleet-skip]');
  assert.ok(skipLine.startsWith(`${skippable} of ${chosen.length} files can be skipped for ${PATH}`), skipLine);
  const { rows } = await allRows();
  const want = Object.fromEntries(chosen.map(([name, e], i) => [`picked/${files[i].dir}/${files[i].name}`, e]));
  assert.deepEqual(Object.keys(rows).sort(), Object.keys(want).sort());
  for (const [name, e] of Object.entries(want)) {
    assert.equal(rows[name].verdicts, e.verdict ?? '', name);
    if (e.errorKind && e.errorKind !== 'any') assert.equal(rows[name].errorKind, e.errorKind, name);
  }
  const [name] = Object.entries(want).find(([, e]) => e.verdict === 'maybe');
  await page.fill('[data-testid=fleet-filter]', basename(name));
  assert.equal(await shownText(), '1 of 30 files shown');
  await page.evaluate(() => (document.body.dataset.state = 'picking'));
  await page.click(`#fleet-rows .vlist-row[data-file="${name}"]`);
  await page.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 20000 });
  assert.ok((await page.textContent('#file-name')).includes(basename(name)));
  await page.fill('[data-testid=fleet-filter]', '');
  assert.deepEqual(harness.problems, []);
});

test('10,000 files: results arrive in chunks and the page keeps drawing', async () => {
  const r = await page.evaluate(async (path) => {
    const bytes = await (await fetch('samples/sample.tsfile')).arrayBuffer();
    const files = Array.from({ length: 10000 }, (_, i) => new File([bytes], `f${String(i).padStart(5, '0')}.tsfile`));
    document.getElementById('fleet-paths').value = path;
    document.getElementById('fleet-audit').checked = false;
    document.getElementById('fleet-filter').value = '';
    // Making the Files is this test's work, not the page's: it ends before the page's is measured.
    await new Promise((res) => setTimeout(res, 100));
    const longTasks = [];
    const obs = new PerformanceObserver((list) => longTasks.push(...list.getEntries().map((e) => e.duration)));
    obs.observe({ type: 'longtask' });
    // The longest gap between two animation frames while the scan runs.
    let maxGap = 0;
    let frames = 0;
    let last = performance.now();
    let on = true;
    const frame = (t) => {
      maxGap = Math.max(maxGap, t - last);
      last = t;
      frames++;
      if (on) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    const seen = [];
    const t0 = performance.now();
    const done = globalThis.inspector.fleet.scanFiles(files, { name: 'ten-thousand' });
    while (document.body.dataset.fleet !== 'done') {
      seen.push(globalThis.inspector.fleet.state.rows);
      await new Promise((res) => setTimeout(res, 50));
    }
    await done;
    on = false;
    obs.disconnect();
    return { ms: performance.now() - t0, maxGap, frames, longTasks, seen, state: globalThis.inspector.fleet.state };
  }, PATH);
  assert.equal(r.state.rows, 10000);
  assert.equal(r.state.shown, 10000);
  assert.ok(new Set(r.seen).size > 3, `rows arrived in chunks: ${[...new Set(r.seen)].join(', ')}`);
  assert.ok(r.maxGap < 250 && Math.max(0, ...r.longTasks) < 250, `longest frame gap ${r.maxGap.toFixed(0)} ms, long tasks ${r.longTasks.map((x) => x.toFixed(0)).join(', ')} in ${r.ms.toFixed(0)} ms`);
  console.log(`# 10,000 files in ${r.ms.toFixed(0)} ms; longest frame gap ${r.maxGap.toFixed(0)} ms; ${r.longTasks.length} long tasks`);
  assert.match(await page.textContent('[data-testid=fleet-skip]'), new RegExp(`^10,000 of 10,000 files can be skipped for ${PATH.replace(/\./g, '\\.')}|^0 of 10,000 files`));
  assert.deepEqual(harness.problems, []);
});

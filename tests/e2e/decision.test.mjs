// The decision first (issue 41): a probe shows what it means for the reader — its own badge per
// decision, a false positive not green like a series the index lists — with the filter's answer
// and the index's side by side; the writer check in plain words. Expected values come from the
// fixtures' manifest (tests/fixtures/gen_tsfiles.py), never from the page's own code.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { suite, tsfileFixtures, openFile } from './harness.mjs';

const { byName, fixture } = tsfileFixtures();
// A filter filled past its design: root.sg1.d1.s1 sets every bit, yet its writer never added it.
const PAST = 'tree_past_design';
const seriesPath = (s) => [...s.device, s.measurement].join('.');

let harness;
let page;
suite(async (h) => {
  harness = h;
  page = await h.newPage();
});
after(() => assert.deepEqual(harness?.problems ?? [], []));

/** Probes `path` in the open file: the decision badge, the filter's answer and the index's. */
async function probe(path) {
  await page.fill('[data-testid=path-input]', path);
  await page.evaluate(() => (document.querySelector('[data-testid=decision]').textContent = ''));
  await page.press('[data-testid=path-input]', 'Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=decision]').textContent !== '', null, { timeout: 10000 });
  return page.evaluate(() => {
    const d = document.querySelector('[data-testid=decision]');
    return {
      words: d.textContent,
      class: d.className,
      background: getComputedStyle(d).backgroundColor,
      filter: document.querySelector('[data-testid=verdict]').textContent,
      index: document.querySelector('[data-testid=verdict-index]').textContent,
    };
  });
}

test('a false positive has its own badge: not the green of a series the index lists, and says why', async () => {
  const e = byName[PAST];
  const listed = seriesPath(e.series[1]);
  assert.ok(!e.series.some((s) => seriesPath(s) === 'root.sg1.d1.s1'), 'root.sg1.d1.s1 is not written');
  await openFile(page, fixture(PAST));
  const indexed = await probe(listed);
  const fp = await probe('root.sg1.d1.s1');
  const absent = await probe('root.nowhere.d1.s1');
  assert.deepEqual(indexed, { ...indexed, words: 'in the index: read this file', class: 'decision indexed', filter: 'maybe present', index: 'lists this series' });
  assert.deepEqual(fp, { ...fp, words: 'false positive: the filter says maybe, the index does not list it', class: 'decision false_positive', filter: 'maybe present', index: 'does not list this series' });
  assert.deepEqual(absent, { ...absent, words: 'absent: skip this file', class: 'decision absent', index: 'does not list this series' });
  // Each its own colour: the false positive's is neither the indexed one's green nor the skip's.
  assert.equal(new Set([indexed.background, fp.background, absent.background]).size, 3, JSON.stringify([indexed, fp, absent]));
});

/** The writer check's plain words, its status badge's class, and whether the hypotheses are folded. */
const writerCheck = () =>
  page.evaluate(() => ({
    plain: document.querySelector('[data-testid=audit-plain]')?.textContent,
    badge: document.querySelector('[data-testid=audit-status]')?.className,
    folded: !document.getElementById('hypotheses-box').open,
  }));

test('the writer check in plain words first: a Java file matches; an ambiguous tail that reproduces is a match, not a warning', async () => {
  await openFile(page, fixture('tree_past_design').replace('tsfile/tree_past_design.tsfile', 'java/utf8/table_multi.tsfile'));
  await page.waitForFunction(() => document.querySelector('[data-testid=audit-plain]'), null, { timeout: 10000 });
  assert.deepEqual(await writerCheck(), { plain: 'Filter matches the index ✓ — written by a Java writer, UTF-8', badge: 'badge ok', folded: true });
  // Every indexed path's tail is ASCII: both tail variants rebuild the bits (the manifest's writer is one of them).
  assert.equal(byName.tree_10series.series.every((s) => /^[\x20-\x7e]*$/.test(s.measurement)), true);
  await openFile(page, fixture('tree_10series'));
  await page.waitForFunction(() => document.querySelector('[data-testid=audit-plain]'), null, { timeout: 10000 });
  const ambiguous = await writerCheck();
  assert.match(ambiguous.plain, /^Filter matches the index ✓ — written by a Java writer, .* or a C\+\+ tsfile writer with a zero-extended tail .*, UTF-8$/);
  assert.deepEqual({ ...ambiguous, plain: '' }, { plain: '', badge: 'badge ok', folded: true });
});

test('counts are plural-correct: one time column', async () => {
  assert.equal(byName.table_1series.time_columns.length, 1);
  await openFile(page, fixture('table_1series'));
  await page.waitForFunction(() => /time column/.test(document.getElementById('status').textContent), null, { timeout: 10000 });
  assert.match(await page.textContent('#status'), /, 1 time column\.$/);
  assert.match(await page.textContent('#series-count'), /\+ 1 time column\)$/);
});

// A small folder whose files answer root.sg1.d1.s1 each in their own way (the fixtures' facts:
// tree_1series lists it, tree_past_design's filter says maybe of it without listing it, tree_10series
// clears a bit, table_empty has no filter, the cheap hash is not evaluated, and the hostile file's
// index cannot be read). Names chosen so that the order by name is not the list's order.
const FOLDER_PATH = 'root.sg1.d1.s1';
const FOLDER = {
  'a-empty.tsfile': 'tsfile/table_empty.tsfile',
  'b-cheap.tsfile': 'cheap_hash/cheap_tree_10series_min_marker.tsfile',
  'c-past.tsfile': 'tsfile/tree_past_design.tsfile',
  'd-one.tsfile': 'tsfile/tree_1series.tsfile',
  'e-ten.tsfile': 'tsfile/tree_10series.tsfile',
  'f-hostile.tsfile': 'tsfile/hostile_chunk_list_len_past_region.tsfile',
};

async function scanFolder(p, dir, audit) {
  await p.setInputFiles('[data-testid=folder-input]', dir);
  await p.waitForFunction(() => document.body.dataset.fleet === 'done', null, { timeout: 60000 });
  await p.fill('[data-testid=fleet-paths]', FOLDER_PATH);
  await p.setChecked('[data-testid=fleet-audit]', audit);
  await p.click('#fleet-rescan');
  await p.waitForFunction(() => document.body.dataset.fleet === 'done' && document.querySelector('[data-testid=fleet-must-read]'), null, { timeout: 60000 });
  return p.evaluate(() => {
    const skip = document.querySelector('[data-testid=fleet-skip]');
    const list = document.querySelector('[data-testid=fleet-must-read]');
    return {
      counts: { skip: +skip.dataset.skip, read: +skip.dataset.read, errors: +skip.dataset.errors },
      sentence: skip.textContent,
      errorsLine: document.querySelector('[data-testid=fleet-errors]').textContent,
      list: [...list.querySelectorAll('li[data-why]')].map((li) => `${li.dataset.why} ${li.querySelector('code').textContent}`),
      command: list.querySelector('[data-testid=fleet-command]').textContent,
    };
  });
}

test('the folder view answers: counts that add up, the files to read sorted confirmed → maybe → unknown, the CLI command, a copy of the list', async () => {
  const { mkdtempSync, mkdirSync, copyFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { spawnSync } = await import('node:child_process');
  const tmp = mkdtempSync(join(tmpdir(), 'tsfile-bloom-decide-'));
  const dir = join(tmp, 'picked');
  mkdirSync(dir);
  const fixtures = fixture(PAST).replace('tsfile/tree_past_design.tsfile', '');
  for (const [name, from] of Object.entries(FOLDER)) copyFileSync(fixtures + from, join(dir, name));
  const p = await harness.newPage({ permissions: ['clipboard-read', 'clipboard-write'] });
  try {
    // Without the audit no index is read: maybe, then unknown (no filter, a hash not evaluated).
    const fast = await scanFolder(p, dir, false);
    assert.deepEqual(fast.list, ['maybe picked/c-past.tsfile', 'maybe picked/d-one.tsfile', 'maybe picked/f-hostile.tsfile', 'unknown picked/a-empty.tsfile', 'unknown picked/b-cheap.tsfile']);
    assert.deepEqual(fast.counts, { skip: 1, read: 5, errors: 0 });
    assert.match(fast.sentence, /^1 of 6 files can be skipped for root\.sg1\.d1\.s1 \(16\.67%: 1 absent\); 5 must be read \(0 in the index, 3 maybe, 2 unknown\)\.$/);
    assert.equal(fast.command, `npx tsfile-bloom scan picked --path ${FOLDER_PATH} --list maybe`);
    // With it: the index confirms one, proves a false positive and rules out the filterless ones; the
    // unreadable index is an error the reader must look at. The same numbers in every line.
    const audited = await scanFolder(p, dir, true);
    assert.deepEqual(audited.list, ['indexed picked/d-one.tsfile', 'error picked/f-hostile.tsfile']);
    assert.deepEqual(audited.counts, { skip: 4, read: 1, errors: 1 });
    assert.match(audited.sentence, /^4 of 6 files can be skipped for root\.sg1\.d1\.s1 \(66\.67%: 3 absent, 1 false positive\); 1 must be read \(1 in the index, 0 maybe, 0 unknown\); 1 file with errors must be read too\.$/);
    assert.match(audited.errorsLine, /^6 files, 1 with errors/);
    assert.equal(audited.command, `npx tsfile-bloom scan picked --path ${FOLDER_PATH} --audit --list maybe`);
    // The command says what the page says: the CLI's list is the page's (in the walk's order).
    const cli = spawnSync(process.execPath, [new URL('../../js/cli.js', import.meta.url).pathname, 'scan', 'picked', '--path', FOLDER_PATH, '--audit', '--list', 'maybe'], { cwd: tmp, encoding: 'utf8' });
    assert.deepEqual(cli.stdout.trim().split('\n').sort(), audited.list.map((x) => x.split(' ')[1]).sort());
    // The copy button copies the list, a name a line.
    await p.click('[data-testid=fleet-copy]');
    await p.waitForFunction(() => /Copied/.test(document.querySelector('[data-testid=fleet-must-read] [role=status]').textContent));
    assert.equal(await p.evaluate(() => navigator.clipboard.readText()), 'picked/d-one.tsfile\npicked/f-hostile.tsfile');
    // A browser that refuses the clipboard: the list selected in a box, for the reader's own copy.
    await p.evaluate(() => (navigator.clipboard.writeText = () => Promise.reject(new DOMException('denied', 'NotAllowedError'))));
    await p.click('[data-testid=fleet-copy]');
    const fallback = await p.evaluate(() => {
      const area = document.querySelector('.fleet-copy-area');
      return { shown: !area.hidden, selected: area.value.slice(area.selectionStart, area.selectionEnd), focused: document.activeElement === area };
    });
    assert.deepEqual(fallback, { shown: true, selected: 'picked/d-one.tsfile\npicked/f-hostile.tsfile', focused: true });
  } finally {
    await p.context().close();
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('a file without a filter: the index decides, no empty seed table, and the map controls that cannot act are disabled', async () => {
  assert.equal(byName.table_empty.bloom.present, false);
  await openFile(page, fixture('table_empty'));
  const r = await probe('root.sg1.d1.s1');
  assert.deepEqual({ ...r, background: '' }, { words: 'absent: skip this file', class: 'decision absent', background: '', filter: 'unknown — the filter cannot answer soundly', index: 'does not list this series' });
  const state = await page.evaluate(() => ({
    table: !document.getElementById('probes').closest('.scroll-x').hidden,
    enabled: ['zoom-out', 'zoom-in', 'zoom-fit', 'goto-submit', 'export-png'].filter((id) => !document.getElementById(id).disabled),
  }));
  assert.deepEqual(state, { table: false, enabled: [] });
});

// What the fleet's filters really do (`scan --audit`, js/scan-fp.js): per path the measured false
// positives (the filter said maybe, the index does not list the path), the measured rate beside
// the rate the fills predict, and the filters filled past their design — in the API's summary,
// the CLI's text, --json and --csv. Expected values come from the fixtures' manifests only: which
// paths each file's writer inserted and what its filter answers for them (computed by
// tests/fixtures/gen_tsfiles.py with the independent reference hash, tests/reference/java_bloom.py),
// each filter's set bits, m and k (fill^k computed here), and the one real filter whose writer
// sized it for fewer keys than it holds (tree_past_design, written by PyPI tsfile's C++ writer).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scanTsFiles } from '../../js/node.js';
import { buildFleet } from './fleet.mjs';
import { expected, FACTS, PATHS, POOL } from './fleet-fp-facts.mjs';

const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));

let root;
let fleet;
let want;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'tsfile-bloom-fleetfp-'));
  // 60 copies of the pool, then the hostile files and the unreadable ones (no verdict, no index).
  fleet = buildFleet(root, { count: 60, pool: POOL, hostile: true });
  want = expected(fleet);
});
after(() => rmSync(root, { recursive: true, force: true }));

const close = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

function scanCli(args) {
  return spawnSync(process.execPath, [CLI, 'scan', root, ...PATHS.flatMap((p) => ['--path', p]), ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
}

test('the fleet holds what the test needs: false positives, an overfilled filter, a filterless file', () => {
  const some = (f) => want.paths.some(f);
  assert.ok(some((p) => p.falsePositives > 0), 'some filter says maybe for a path its index does not list');
  assert.ok(some((p) => p.filterAbsent > 0 && p.indexListed > 0), 'a path listed in some files');
  assert.ok(want.fleet.pastDesign > 0 && want.fleet.withinDesign > 0);
  assert.ok(some((p) => p.noAnswer > 0), 'the filterless file gives no answer');
  assert.ok(some((p) => p.fpPast > 0), 'false positives of the overfilled filter');
});

test('scan --audit --json: per path the measured false positives and rate beside the fills\' prediction; filters past design', () => {
  const r = scanCli(['--audit', '--json']);
  assert.equal(r.status, 1, r.stderr); // the hostile files are errors
  const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  const { summary } = lines.pop();
  assert.equal(summary.audited, want.fleet.audited);
  assert.equal(summary.filters.filled_past_design, want.fleet.pastDesign);
  assert.equal(summary.filters.within_design, want.fleet.withinDesign);
  assert.deepEqual(summary.filters.filled_past_design_files, want.fleet.pastFiles);
  summary.paths.forEach((got, i) => {
    const w = want.paths[i];
    assert.equal(got.path, w.path);
    assert.deepEqual(
      [got.index_listed, got.index_absent, got.false_positives, got.filter_absent, got.no_answer, got.false_positives_past_design],
      [w.indexListed, w.indexAbsent, w.falsePositives, w.filterAbsent, w.noAnswer, w.fpPast],
      w.path,
    );
    assert.deepEqual(got.false_positive_files, w.fpFiles, w.path);
    const answered = w.falsePositives + w.filterAbsent;
    assert.equal(got.measured_fp_rate, answered ? w.falsePositives / answered : null, w.path);
    close(got.predicted_fp_rate, w.fppSum / answered, `${w.path} predicted`);
    close(got.expected_false_positives, w.fppSum, `${w.path} expected count`);
    // Every path is ASCII: each file's candidate hashes put it on the same bits.
    assert.equal(got.several_hashes, 0);
  });
  // Per record: `indexed` is what the manifest says the writer listed; the filter's flag is the core's rule.
  const byFile = new Map(fleet.map((e) => [e.file, e]));
  for (const rec of lines) {
    const e = byFile.get(rec.file);
    if (e.expect !== 'valid') {
      assert.ok(rec.results == null || rec.results.every((x) => x.indexed == null), rec.file);
      continue;
    }
    const f = FACTS.get(e.source.name);
    assert.deepEqual(rec.results.map((x) => x.indexed), PATHS.map((p) => f.per.get(p).listed), rec.file);
    if (f.fppFromFill != null) assert.equal(rec.bloom_filter.filled_past_design, f.pastDesign, rec.file);
  }
});

test('the API\'s summary has the same figures (camelCase), and the text summary words them', async () => {
  const s = await scanTsFiles(root, { paths: PATHS, audit: true }).summary;
  assert.equal(s.filters.filledPastDesign, want.fleet.pastDesign);
  s.paths.forEach((got, i) => {
    const w = want.paths[i];
    assert.deepEqual([got.falsePositives, got.filterAbsent, got.indexAbsent, got.noAnswer], [w.falsePositives, w.filterAbsent, w.indexAbsent, w.noAnswer]);
    assert.deepEqual(got.falsePositiveFiles, w.fpFiles);
  });
  const text = scanCli(['--audit']).stdout;
  for (const w of want.paths) {
    const answered = w.falsePositives + w.filterAbsent;
    const line = text.split('\n').find((l) => l.startsWith(`  ${w.path}: the index lists it in ${w.indexListed} ${w.indexListed === 1 ? 'file' : 'files'} and proves it absent in ${w.indexAbsent}`));
    assert.ok(line, `${w.path}: its line in\n${text}`);
    assert.match(line, new RegExp(`filter said maybe in ${w.falsePositives} \\(measured false-positive rate [0-9.]+% of ${answered}\\), absent in ${w.filterAbsent}`));
    assert.ok(line.includes(`(${w.fppSum.toFixed(2)} false positives expected)`), line);
    if (w.noAnswer) assert.ok(line.endsWith(`; ${w.noAnswer} gave no answer (unknown)`), line);
  }
  assert.ok(text.includes(`filled past design (more keys than any error rate sizes its m and k for): ${want.fleet.pastDesign} of `), text);
});

test('--csv: filled_past_design and `indexed <path>` columns after the verdicts', () => {
  const r = scanCli(['--audit', '--csv']);
  const [header, ...rows] = r.stdout.trim().split('\n');
  const cols = header.split(',');
  const at = cols.indexOf('filled_past_design');
  assert.equal(at, cols.indexOf(`verdict ${PATHS[PATHS.length - 1]}`) + 1);
  assert.deepEqual(cols.slice(at + 1), [...PATHS.map((p) => `indexed ${p}`), 'file_hex']);
  const byFile = new Map(fleet.map((e) => [e.file, e]));
  let checked = 0;
  for (const row of rows) {
    const cells = row.split(',');
    const e = byFile.get(cells[0]);
    if (e?.expect !== 'valid') continue;
    const f = FACTS.get(e.source.name);
    assert.equal(cells.length, cols.length, row);
    assert.equal(cells[at], f.fppFromFill == null ? '' : String(f.pastDesign), cells[0]);
    assert.deepEqual(cells.slice(at + 1), [...PATHS.map((p) => String(f.per.get(p).listed)), ''], cells[0]);
    checked++;
  }
  assert.equal(checked, want.fleet.audited);
  // The summary on stderr words the same figures.
  assert.ok(r.stderr.includes(`filled past design (more keys than any error rate sizes its m and k for): ${want.fleet.pastDesign} of `), r.stderr);
});

test('without --audit nothing that needs the index is claimed, and the summary says so', () => {
  const r = scanCli(['--json']);
  const { summary } = JSON.parse(r.stdout.trim().split('\n').pop());
  assert.equal(summary.audited, 0);
  assert.equal(summary.filters.filled_past_design, 0);
  assert.equal(summary.filters.within_design, 0);
  for (const p of summary.paths) {
    assert.deepEqual([p.index_listed, p.index_absent, p.false_positives, p.measured_fp_rate, p.predicted_fp_rate, p.expected_false_positives], [0, 0, 0, null, null, null]);
  }
  const text = scanCli([]).stdout;
  for (const p of PATHS) assert.ok(text.includes(`  ${p}: no measured false-positive rate without --audit (the index, which proves a path absent, is not read)`), p);
  assert.ok(text.includes('filled past design: not known without --audit'));
  assert.ok(!/measured false-positive rate [0-9]/.test(text));
  const csv = scanCli(['--csv']).stdout.trim().split('\n');
  const at = csv[0].split(',').indexOf('filled_past_design');
  assert.ok(at > 0);
  // From the end: an error message may hold commas (quoted), so cells are counted from the right.
  for (const row of csv.slice(1)) assert.deepEqual(row.split(',').slice(-(PATHS.length + 1)), ['', ...PATHS.map(() => '')], row);
});

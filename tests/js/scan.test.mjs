// `tsfile-bloom scan` and scanTsFiles over a fleet made at test time in IoTDB's layout
// (tests/js/fleet.mjs): every file is reported, bad ones with typed errors, the scan never
// stops early, verdicts equal what probe says file by file, and the summary's counts are
// the per-file verdicts added up.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openTsFile, scanTsFiles } from '../../js/node.js';
import { buildFleet } from './fleet.mjs';
import { scanWithKnobs } from './helpers.mjs';
import { jsonOf } from '../../js/json.js';

const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
const PATHS = ['root.sg1.d1.s1', 'root.sg.d1.s1', 'root.工厂.车间.风机.一号.功率', 'table1.beijing.A1.temperature', 'root.nowhere.d9.s9'];

let root;
let fleet;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'tsfile-bloom-fleet-'));
  fleet = buildFleet(root, { count: 1000 });
});
after(() => rmSync(root, { recursive: true, force: true }));

function scanCli(args) {
  const r = spawnSync(process.execPath, [CLI, 'scan', ...args], { encoding: 'utf8', maxBuffer: 1 << 28, timeout: 120_000 });
  return r;
}

function ndjson(stdout) {
  const lines = stdout.trim().split('\n').map((l) => JSON.parse(l));
  const last = lines.pop();
  assert.ok(last.summary, 'the last line is the summary');
  return { records: lines, summary: last.summary };
}

// What probe says about a file: the API's probe on the tail alone (no index read), or — with
// the audit — the CLI's `probe --json`, which reads the index first. Copies of one fixture
// are the same bytes, so the CLI is asked once per source.
async function probeWithoutIndex(file, facts) {
  const t = await openTsFile(file);
  try {
    // What inspect would print before the index is read (JSON drops undefined fields).
    if (facts) facts.push({ version: t.version, bloom_filter: JSON.parse(JSON.stringify(jsonOf(t.bloomInfo()))) }); // inspect --json's keys
    return PATHS.map((p) => t.probe(p).verdict);
  } finally {
    await t.close();
  }
}
const cliProbe = new Map();
function probeWithIndex(entry) {
  const key = entry.source.path;
  if (!cliProbe.has(key)) {
    const r = spawnSync(process.execPath, [CLI, 'probe', entry.file, ...PATHS, '--json'], { encoding: 'utf8' });
    const verdicts = JSON.parse(r.stdout).results.map((x) => x.verdict);
    assert.equal(r.status, verdicts.every((v) => v === 'absent') ? 1 : 0, r.stderr); // probe's exit is its verdict
    cliProbe.set(key, verdicts);
  }
  return cliProbe.get(key);
}

function checkReported(records) {
  assert.ok(fleet.length >= 1000 + 50, `${fleet.length} entries`);
  const seen = new Map();
  for (const r of records) {
    assert.ok(!seen.has(r.file), `${r.file} reported twice`);
    seen.set(r.file, r);
  }
  assert.deepEqual([...seen.keys()].sort(), fleet.map((e) => e.file).sort(), 'every file and nothing else (.resource files are passed by)');
  return seen;
}

function checkSummary(summary, records) {
  assert.equal(summary.files, records.length);
  assert.equal(summary.ok, records.filter((r) => r.ok).length);
  assert.equal(summary.errors, records.filter((r) => !r.ok).length);
  const ondisk = records.reduce((a, r) => a + (r.size ?? 0), 0);
  assert.equal(summary.bytes_on_disk, ondisk);
  PATHS.forEach((p, i) => {
    const s = summary.paths[i];
    assert.equal(s.path, p);
    const verdicts = records.map((r) => r.results?.find((x) => x.path === p)?.verdict);
    const absent = verdicts.filter((v) => v === 'absent').length;
    assert.equal(s.skippable, absent, p);
    assert.equal(s.may_hold, verdicts.filter((v) => v === 'maybe' || v === 'unknown').length, p);
    assert.equal(s.unreadable, verdicts.filter((v) => v === undefined).length, p);
    assert.equal(s.skip_ratio, absent / records.length, p);
  });
}

test('scan --json: every file of a 1,000-file IoTDB tree reported, verdicts equal probe (tail only)', async () => {
  const r = scanCli([root, ...PATHS.flatMap((p) => ['--path', p]), '--json', '--jobs', '2']);
  assert.equal(r.status, 1, `format errors are reported and exit 1: ${r.stderr}`);
  assert.equal(r.stderr, '', 'no progress line when stderr is not a terminal');
  const { records, summary } = ndjson(r.stdout);
  const byFile = checkReported(records);
  let skippable = 0;
  for (const e of fleet) {
    const rec = byFile.get(e.file);
    assert.deepEqual(Object.keys(rec), ['format_version', 'file', 'file_hex', 'ok', 'size', 'version', 'bloom_filter', 'results', 'audit', 'bytes_read', 'reads', 'error']);
    if (e.expect === 'valid') {
      assert.equal(rec.ok, true, `${e.file}: ${JSON.stringify(rec.error)}`);
      assert.equal(rec.size, statSync(e.file).size);
      assert.deepEqual(rec.results.map((x) => x.path), PATHS);
      const facts = [];
      assert.deepEqual(rec.results.map((x) => x.verdict), await probeWithoutIndex(e.file, facts), e.file);
      assert.deepEqual({ version: rec.version, bloom_filter: rec.bloom_filter }, facts[0], e.file);
      // One read of a file up to 4 KiB; else the first 4 KiB + 1 and the tail window; a third
      // only when TsFileMetadata lies outside the window.
      assert.ok(rec.reads === (rec.size <= 4096 ? 1 : rec.reads === 3 ? 3 : 2), `${e.file}: ${rec.reads} reads`);
      const twoReads = 4097 + 4096;
      assert.ok(rec.reads === 3 ? rec.bytes_read > twoReads && rec.bytes_read < twoReads + rec.size : rec.bytes_read === (rec.size <= 4096 ? rec.size : twoReads), `${e.file}: ${rec.bytes_read} bytes`);
      assert.equal(rec.audit, null);
      skippable += rec.results[0].verdict === 'absent';
    } else {
      if (e.expect === 'io') assert.equal(rec.error.kind, 'io', e.file);
      else if (!rec.ok) assert.notEqual(rec.error.kind, 'io', e.file);
      if (!rec.ok) assert.match(rec.error.message, /\S/);
      else {
        // A file hostile only in its index opens from the tail alone: its verdicts count too.
        assert.deepEqual(rec.results.map((x) => x.verdict), await probeWithoutIndex(e.file), e.file);
        skippable += rec.results[0].verdict === 'absent';
      }
    }
  }
  // The kinds of the unreadable entries, by cause.
  const io = fleet.filter((e) => e.expect === 'io').map((e) => byFile.get(e.file).error.message);
  assert.ok(io.some((m) => /^not a regular file/.test(m)), 'the FIFO');
  assert.ok(io.some((m) => /^dangling symbolic link/.test(m)));
  assert.ok(io.some((m) => /^symbolic link loop: /.test(m)), 'the self-link');
  assert.ok(io.some((m) => /^symbolic link loop \(it leads back/.test(m)), 'the directory loop');
  checkSummary(summary, records);
  assert.equal(summary.paths[0].skippable, skippable);
  assert.ok(summary.reads_per_file <= 2.05, `${summary.reads_per_file} reads per file`);
});

test('scan --audit: the index decides; verdicts equal `probe`, hostile files give their manifest kinds', () => {
  const r = scanCli([root, ...PATHS.flatMap((p) => ['--path', p]), '--json', '--audit', '--jobs', '2']);
  assert.equal(r.status, 1, r.stderr);
  const { records, summary } = ndjson(r.stdout);
  const byFile = checkReported(records);
  for (const e of fleet) {
    const rec = byFile.get(e.file);
    if (e.expect === 'valid') {
      assert.equal(rec.ok, true, e.file);
      assert.deepEqual(rec.results.map((x) => x.verdict), probeWithIndex(e), e.file);
      assert.ok(rec.audit && typeof rec.audit.status === 'string');
    } else if (e.source?.errorKind) {
      assert.equal(rec.ok, false, e.file);
      assert.equal(rec.error.kind, e.source.errorKind, `${e.file}: ${rec.error.message}`);
      assert.equal(typeof rec.error.offset, 'number');
    } else assert.equal(rec.ok, false, e.file);
  }
  checkSummary(summary, records);
  const audited = Object.values(summary.audits).reduce((a, b) => a + b, 0);
  assert.equal(audited, records.filter((r) => r.audit).length);
});

test('scanTsFiles: the records of the CLI, a summary, progress, and --jobs 1 gives the same', async () => {
  const progress = [];
  const scan = scanTsFiles([root], { paths: PATHS, concurrency: 2, onProgress: (p) => progress.push(p) });
  const records = [];
  for await (const rec of scan) records.push(rec);
  const summary = await scan.summary;
  checkReported(records);
  assert.equal(summary.files, records.length);
  assert.equal(summary.paths[0].skippable, records.filter((r) => r.results?.[0].verdict === 'absent').length);
  assert.ok(progress.length >= 2 && progress.at(-1).done === records.length && progress.at(-1).total === records.length);
  const cli = ndjson(scanCli([root, ...PATHS.flatMap((p) => ['--path', p]), '--json', '--jobs', '1']).stdout).records;
  assert.deepEqual(records.map((r) => [r.file, r.ok, r.size, r.version, r.error?.kind ?? null, r.results?.map((x) => x.verdict) ?? null]),
    cli.map((r) => [r.file, r.ok, r.size, r.version, r.error?.kind ?? null, r.results?.map((x) => x.verdict) ?? null]));
  // Several workers (forced on this small fleet) give the same records in the same order.
  const three = [];
  for await (const rec of await scanWithKnobs([root], { paths: PATHS, concurrency: 3, filesPerExtraWorker: 64 })) three.push(rec);
  assert.deepEqual(three, records);
  // Awaiting only the summary runs the scan too (and iterating after that is refused).
  const alone = scanTsFiles([root], { paths: PATHS.slice(0, 1), concurrency: 1 });
  const only = await alone.summary;
  assert.throws(() => alone[Symbol.asyncIterator](), (e) => e.kind === 'invalid_argument');
  assert.equal(only.files, records.length);
  assert.equal(only.paths[0].skippable, summary.paths[0].skippable);
});

test('a summary-only scan hands on no records and sums what an iterated scan sums, read or answered by a manifest', async () => {
  const { runScan } = await import('../../js/scan.js');
  const timeless = ({ elapsedMs, filesPerSecond, manifest, ...s }) => s;
  const iterated = scanTsFiles([root], { paths: PATHS, concurrency: 1 });
  for await (const rec of iterated) assert.ok(rec.file);
  const want = timeless(await iterated.summary);
  const manifest = join(root, 'summary-only.manifest');
  try {
    // A first scan reads every file (workers), a second answers them from the manifest.
    for (const pass of ['read', 'answered']) {
      const outputs = [];
      const got = await runScan([root], { paths: PATHS, concurrency: 1, manifest, manifestRacyMs: 0, format: 'summary' }, (o) => outputs.push(o));
      assert.ok(outputs.length > 0 && outputs.every((o) => o === null), `${pass}: the sink gets no records`);
      if (pass === 'read') assert.deepEqual(timeless(got), want);
      else {
        // What a file answered by the manifest costs is no read (its facts are the same).
        const unread = ({ bytesRead, reads, readsPerFile, ...s }) => s;
        assert.deepEqual(unread(timeless(got)), unread(want));
        assert.equal(got.manifest.answered, got.files - got.errors);
      }
    }
  } finally {
    rmSync(manifest, { force: true });
  }
  assert.deepEqual(timeless(await scanTsFiles([root], { paths: PATHS, concurrency: 1 }).summary), want);
});

test('an AbortSignal stops the scan promptly; breaking out of the loop stops it too', async () => {
  const controller = new AbortController();
  const scan = scanTsFiles([root], { paths: PATHS, concurrency: 2, signal: controller.signal });
  let n = 0;
  const t0 = performance.now();
  await assert.rejects(
    (async () => {
      for await (const rec of scan) {
        if (++n === 10) controller.abort();
      }
    })(),
    (e) => e.kind === 'cancelled',
  );
  assert.ok(performance.now() - t0 < 5000);
  await assert.rejects(scan.summary, (e) => e.kind === 'cancelled');
  const second = scanTsFiles([root], { paths: PATHS, concurrency: 2 });
  for await (const rec of second) break;
  await assert.rejects(second.summary, (e) => e.kind === 'cancelled');
});

test('scan --csv, @LIST, exit codes 0 and 2', () => {
  const valid = fleet.filter((e) => e.expect === 'valid').slice(0, 5).map((e) => e.file);
  const list = join(root, 'list.txt');
  writeFileSync(list, `${valid.join('\n')}\n\n`);
  const csv = scanCli([`@${list}`, '--path', PATHS[0], '--path', 'a,"quoted"', '--csv']);
  assert.equal(csv.status, 0, csv.stderr);
  const rows = csv.stdout.trim().split('\n');
  assert.equal(rows.length, 1 + valid.length);
  // The verdicts, then the columns added after them (js/scan-fp.js: empty without --audit), and
  // file_hex (empty: every name here is UTF-8).
  assert.match(rows[0], /^file,ok,size,version,.*,verdict root\.sg1\.d1\.s1,"verdict a,""quoted""",filled_past_design,indexed root\.sg1\.d1\.s1,"indexed a,""quoted""",file_hex$/);
  assert.ok(rows.slice(1).every((row) => row.endsWith(',')));
  assert.ok(rows.slice(1).every((row, i) => row.startsWith(`${valid[i]},true,${statSync(valid[i]).size},`)));
  assert.match(csv.stderr, /of 5 files can be skipped for root\.sg1\.d1\.s1/);

  const nothing = scanCli([join(root, 'data', 'sequence', 'root.db', '0', '2000', '0-fifo-0-0.tsfile')]);
  assert.equal(nothing.status, 2, 'nothing could be read');
  const empty = mkdtempSync(join(tmpdir(), 'tsfile-bloom-empty-'));
  try {
    const none = scanCli([empty, '--json']);
    assert.equal(none.status, 2);
    assert.match(none.stderr, /no TsFiles found/);
  } finally {
    rmSync(empty, { recursive: true });
  }
  assert.equal(scanCli([]).status, 2);
  assert.equal(scanCli([root, '--jobs', 'two']).status, 2);
  assert.equal(scanCli([root, '--json', '--csv']).status, 2);
  assert.equal(scanCli([`@${join(root, 'no-such-list')}`]).status, 2);
});

// Repeat scans from a manifest (js/manifest.js): a rescan's records and summary equal a fresh
// scan's (on the real-writer fleet of tests/js/fleet.mjs, hostile files included, and on
// tests/fixtures as they are); a changed file — by size, by mtime, by content at equal size with
// its mtime restored, by a new inode — is read again; files that vanished are dropped; a bad
// manifest is a typed error and is left as it was; an interrupted scan leaves the old one.
// The fleet is written by the test, so its files are "racy" (modified just now) under the
// default rule; the scans here pass manifestRacyMs: 0, and one test checks the default.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openTsFile, scanTsFiles } from '../../js/node.js';
import { scanWithKnobs } from './helpers.mjs';
import { buildFleet, FIXTURES } from './fleet.mjs';
import { MANIFEST_FORMAT, MANIFEST_VERSION } from '../../js/manifest/file.js';
import { RACY_MS } from '../../js/manifest/identity.js';
import { runScan } from '../../js/scan.js';
import { formatRecords } from '../../js/scan-output.js';
import { answerer } from '../../js/manifest/answer.js';
import { linesBytes } from '../../js/manifest/lines.js';
import { keepByReading } from '../../js/manifest/keep.js';

const require = createRequire(import.meta.url);
const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
const PATHS = ['root.sg1.d1.s1', 'root.sg.d1.s1', 'root.工厂.车间.风机.一号.功率', 'root.sg.d1.温度', 'table1.beijing.A1.temperature', 'root.nowhere.d9.s9'];

let root;
let work;
before(() => {
  work = mkdtempSync(join(tmpdir(), 'tsfile-bloom-manifest-'));
  root = join(work, 'fleet');
  buildFleet(root, { count: 300 });
});
after(() => rmSync(work, { recursive: true, force: true }));

async function scan(targets, options) {
  // With a manifest, the scan's NDJSON too, from a copy of it (the same entries answer): each
  // answered line is written from what its combination shares (js/manifest/lines.js), and must be the
  // line formatRecords writes for the record itself.
  const ndjson = options?.manifest && existsSync(options.manifest) ? await scanNdjson(targets, options) : null;
  const s = await scanWithKnobs(targets, { manifestRacyMs: 0, ...options });
  const records = [];
  for await (const r of s) records.push(r);
  if (ndjson !== null) assert.equal(ndjson, formatRecords(records, 'ndjson', options.paths ?? []), 'NDJSON from the manifest = formatRecords of its records');
  return { records, summary: await s.summary };
}

async function scanNdjson(targets, options) {
  const copy = `${options.manifest}.ndjson`;
  copyFileSync(options.manifest, copy);
  let text = '';
  try {
    await runScan(Array.isArray(targets) ? targets : [targets], { manifestRacyMs: 0, ...options, manifest: copy, format: 'ndjson' }, (out) => {
      text += typeof out === 'string' ? out : Buffer.from(out).toString('utf8');
    });
  } catch (e) {
    if (e.kind === 'manifest') return null; // (a bad one: the test's own scan says how)
    throw e;
  } finally {
    rmSync(copy, { force: true });
  }
  return text;
}

// What a rescan may differ in: the I/O it did (none for a file answered) and its timing.
const recordFacts = (r) => ({ ...r, bytesRead: undefined, reads: undefined });
function summaryFacts(s) {
  const { elapsedMs, filesPerSecond, bytesRead, reads, readsPerFile, manifest, ...rest } = s;
  return rest;
}
function assertSameScan(got, want, what) {
  assert.equal(got.records.length, want.records.length, `${what}: as many records`);
  got.records.forEach((r, i) => assert.deepEqual(recordFacts(r), recordFacts(want.records[i]), `${what}: record ${r.file}`));
  assert.deepEqual(summaryFacts(got.summary), summaryFacts(want.summary), `${what}: summary`);
}

describe('a rescan equals a fresh scan', () => {
  for (const audit of [false, true]) {
    test(`on the fleet, ${audit ? 'with' : 'without'} --audit`, async () => {
      const manifest = join(work, `fleet-${audit}.manifest`);
      const first = await scan(root, { paths: PATHS, audit, manifest });
      const fresh = await scan(root, { paths: PATHS, audit });
      assertSameScan(first, fresh, 'the first scan');
      assert.deepEqual(first.summary.manifest, { file: manifest, answered: 0, read: fresh.summary.files, dropped: 0 });
      const again = await scan(root, { paths: PATHS, audit, manifest });
      assertSameScan(again, fresh, 'the rescan');
      // Every readable file answered from the manifest, without a read; every other one read again.
      assert.equal(again.summary.manifest.answered, fresh.summary.ok);
      assert.ok(fresh.summary.ok > 250 && fresh.summary.errors > 10, 'the fleet has readable files and bad ones');
      for (const r of again.records.filter((x) => x.ok)) assert.equal(r.reads, 0, `${r.file}: answered without a read`);
      assert.equal(again.summary.reads, fresh.summary.reads - first.records.filter((r) => r.ok).reduce((a, r) => a + r.reads, 0));
    });
  }

  test('files changed near the start, the middle and the end of a tree', async () => {
    const dir = join(work, 'shared');
    const entries = buildFleet(dir, { count: 200, hostile: false });
    const manifest = join(work, 'shared.manifest');
    await scan(dir, { paths: PATHS, manifest });
    // Files changed near the start, the middle and the end (by mtime; one by content at equal size).
    const changed = [entries[3], entries[100], entries[196]].map((e) => e.file);
    for (const f of changed.slice(0, 2)) utimesSync(f, new Date(statSync(f).mtimeMs - 10_000), new Date(statSync(f).mtimeMs - 10_000));
    const st = statSync(changed[2]);
    const bytes = readFileSync(changed[2]);
    bytes[bytes.length - 60] ^= 0x10;
    writeFileSync(changed[2], bytes);
    utimesSync(changed[2], st.mtimeMs / 1000, st.mtimeMs / 1000);
    const fresh = await scan(dir, { paths: PATHS });
    const again = await scan(dir, { paths: PATHS, manifest });
    assertSameScan(again, fresh, 'the rescan after the changes');
    for (const f of changed) assert.ok(again.records.find((r) => r.file === f).reads > 0, `${f} was read again`);
    assert.equal(again.summary.manifest.answered, fresh.summary.ok - changed.length);
    const third = await scan(dir, { paths: PATHS, manifest });
    assertSameScan(third, fresh, 'the next rescan');
    assert.equal(third.summary.manifest.answered, fresh.summary.ok);
  });

  test('on tests/fixtures as they are (C++, Java, synthetic, hostile)', async () => {
    const manifest = join(work, 'fixtures.manifest');
    const targets = [join(FIXTURES, 'tsfile'), join(FIXTURES, 'java')];
    for (const audit of [false, true]) {
      rmSync(manifest, { force: true });
      await scan(targets, { paths: PATHS, audit, manifest });
      const fresh = await scan(targets, { paths: PATHS, audit });
      const again = await scan(targets, { paths: PATHS, audit, manifest });
      assertSameScan(again, fresh, `fixtures, audit ${audit}`);
      assert.equal(again.summary.manifest.answered, fresh.summary.ok);
    }
  });

  test('NDJSON lines of a rescan whose directory names JSON escapes (control characters: 6 bytes each) equal a fresh scan', async () => {
    // Lines several times their names' length once escaped, more of them than the first output
    // buffer holds: the room asked for each line must be what its escapes take.
    const controls = (from) => Array.from({ length: 200 }, (_, i) => String.fromCharCode(1 + ((from + i) % 31))).join('');
    const dir = join(work, 'escaped', controls(0), controls(7));
    mkdirSync(dir, { recursive: true });
    const fixture = join(FIXTURES, 'tsfile', 'tree_1series.tsfile');
    for (let i = 0; i < 600; i++) copyFileSync(fixture, join(dir, `${i}.tsfile`));
    const manifest = join(work, 'escaped.manifest');
    const lines = async (options) => {
      const chunks = [];
      const summary = await runScan([join(work, 'escaped')], { paths: PATHS, format: 'ndjson', manifestRacyMs: 0, ...options }, (out) => {
        chunks.push(Buffer.from(typeof out === 'string' ? out : Buffer.from(out.buffer, out.byteOffset, out.byteLength)));
      });
      return { lines: Buffer.concat(chunks).toString('utf8').trimEnd().split('\n'), summary };
    };
    await lines({ manifest });
    const fresh = await lines({});
    const again = await lines({ manifest });
    assert.equal(again.summary.manifest.answered, 600);
    const facts = (l) => ({ ...JSON.parse(l), bytes_read: undefined, reads: undefined });
    assert.deepEqual(again.lines.map(facts), fresh.lines.map(facts));
    assert.ok(again.lines[0].includes('\\u0001'), 'the names are escaped');
  });

  test('the CLI: --json records and summary of a rescan equal a fresh scan', () => {
    const manifest = join(work, 'cli.manifest');
    const run = (...extra) => {
      const r = spawnSync(process.execPath, [CLI, 'scan', join(FIXTURES, 'java'), ...PATHS.flatMap((p) => ['--path', p]), '--json', ...extra], { encoding: 'utf8', maxBuffer: 1 << 26 });
      assert.equal(r.status, 0, r.stderr);
      const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
      return { records: lines.slice(0, -1), summary: lines.at(-1).summary };
    };
    // The fixtures were written before this test: no racy rule to lift.
    const first = run('--manifest', manifest);
    const fresh = run();
    const again = run('--manifest', manifest);
    const facts = (r) => ({ ...r, bytes_read: undefined, reads: undefined });
    assert.deepEqual(again.records.map(facts), fresh.records.map(facts));
    assert.equal(first.summary.manifest.answered, 0);
    assert.equal(again.summary.manifest.answered, fresh.summary.ok);
    assert.equal(again.summary.reads, 0);
    const { elapsed_ms, files_per_second, bytes_read, reads, reads_per_file, manifest: m, ...rest } = again.summary;
    const { elapsed_ms: e2, files_per_second: f2, bytes_read: b2, reads: r2, reads_per_file: rp2, manifest: none, ...freshRest } = fresh.summary;
    assert.equal(none, null); // a scan without --manifest says so: null, not left out
    assert.deepEqual(rest, freshRest);
  });
});

// A name and a path holding the words the CLI's error sentences are reworded by (js/flag-words.js).
const FLAGGY_NAME = 'maxIndexBytes (1) the allowFullDownload option.tsfile';
const FLAGGY_PATH = 'root.(deadlineMs).maxFullDownloadBytes (2).maxIndexBytes (3)';

describe('the CLI output of a rescan, made from its entries, equals a fresh scan', () => {
  // Names a writer of JSON and CSV must escape or quote, and a non-ASCII one; the fleet's files
  // (the fixtures of every writer, several filter figures) beside them.
  let dir;
  before(async () => {
    dir = join(work, 'names');
    const entries = buildFleet(dir, { count: 40, hostile: false });
    const odd = ['quote".tsfile', 'back\\slash.tsfile', 'comma,name.tsfile', 'ünïcode-名前.tsfile', 'tab\tname.tsfile', FLAGGY_NAME];
    odd.forEach((name, i) => copyFileSync(entries[i].file, join(dir, name)));
    // Whole seconds, an hour ago: no file of this tree is "racy" under the default rule.
    const then = Math.floor(Date.now() / 1000) - 3600;
    for (const e of entries) utimesSync(e.file, then, then);
    for (const name of odd) utimesSync(join(dir, name), then, then);
    // utimes set their ctimes to now: the CLI keeps the default racy rule, so let them age.
    await new Promise((resolve) => setTimeout(resolve, RACY_MS + 200));
  });
  const cli = (...args) => {
    const r = spawnSync(process.execPath, [CLI, 'scan', dir, ...PATHS.slice(0, 4).flatMap((p) => ['--path', p]), ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
    assert.ok(r.status === 0 || r.status === 1, r.stderr);
    return { out: r.stdout, err: r.stderr };
  };
  // What a rescan may differ in: the reads (0 for a file answered) and the timing in the summary.
  const masks = {
    json: (out) => out.replace(/"bytes_read":\d+,"reads":\d+/g, '').split('\n').slice(0, -2).join('\n'),
    // bytes_read and reads are the 13th and 14th cells (the file's may be quoted; no other is here).
    csv: (out) =>
      out
        .split('\n')
        .map((line) => {
          const [file] = line.match(/^("(?:[^"]|"")*"|[^,]*)/);
          const cells = line.slice(file.length + 1).split(',');
          if (cells.length > 13) cells.splice(11, 2, '', '');
          return [file, ...cells].join(',');
        })
        .join('\n'),
    text: (out) => out.slice(0, out.lastIndexOf('\n\n')),
  };
  for (const [flag, mask] of Object.entries(masks)) {
    test(`${flag}: line for line`, () => {
      const manifest = join(work, `names-${flag}.manifest`);
      const extra = flag === 'text' ? [] : [`--${flag}`];
      cli(...extra, '--manifest', manifest);
      const fresh = cli(...extra).out;
      const again = cli(...extra, '--manifest', manifest);
      assert.ok(fresh.includes('ünïcode-名前') && fresh.includes('comma,name'), 'the odd names are in the scan');
      assert.equal(mask(again.out), mask(fresh));
      // Every file answered from the manifest (the summary: the last line, or stderr for CSV).
      const files = fresh.trim().split('\n').length - (flag === 'json' ? 1 : flag === 'csv' ? 1 : 0);
      const said = flag === 'json' ? JSON.parse(again.out.trim().split('\n').at(-1)).summary.manifest.answered : Number((flag === 'csv' ? again.err : again.out).match(/: (\d+) files answered from it, 0 read/)?.[1]);
      assert.ok(files >= 45, `${files} files`);
      if (flag !== 'text') assert.equal(said, files, 'every file answered');
      else assert.ok(said >= 45, 'every file answered');
    });
  }
  // The CLI words its errors' sentences by its flags (js/flag-words.js); a name or a series path
  // that holds an option's name is printed as it is, whether read or answered from the manifest.
  test('a file name and a series path holding an option\'s words are printed unchanged (json and text, read and answered)', () => {
    const manifest = join(work, 'flaggy.manifest');
    for (const extra of [['--json'], []]) {
      const runs = [cli('--path', FLAGGY_PATH, ...extra, '--manifest', manifest), cli('--path', FLAGGY_PATH, ...extra, '--manifest', manifest)];
      for (const [i, { out }] of runs.entries()) {
        const what = `${extra.join('') || 'text'}, ${i ? 'answered' : 'read'}`;
        assert.ok(out.includes(join(dir, FLAGGY_NAME)), `${what}: the name as it is`);
        assert.ok(out.includes(`${FLAGGY_PATH}${extra.length ? '","verdict":"' : ': '}`), `${what}: the path as it is`);
        assert.doesNotMatch(out, /--max-index-bytes|--timeout|--allow-full-download/, what);
      }
      assert.match(runs[1].out, /"answered":[1-9]|: [1-9]\d* files answered from it/, 'the rescan answered from the manifest');
      rmSync(manifest);
    }
    // An error's sentence still names the flag; the file's name beside it is its own.
    const r = spawnSync(process.execPath, [CLI, 'scan', join(dir, FLAGGY_NAME), '--json', '--max-index-bytes', '1'], { encoding: 'utf8' });
    const record = JSON.parse(r.stdout.split('\n')[0]);
    assert.equal(record.file, join(dir, FLAGGY_NAME));
    assert.match(record.error.message, /more than --max-index-bytes \(1\)/);
  });
  // (Last: it changes files of the tree.) Changed files scattered through one batch are read
  // together and their lines put back in walk order between the answered runs.
  test('json, csv and text after a change in every fourth file: line for line', () => {
    const flags = Object.keys(masks);
    const extraOf = (flag) => (flag === 'text' ? [] : [`--${flag}`]);
    for (const flag of flags) cli(...extraOf(flag), '--manifest', join(work, `scattered-${flag}.manifest`));
    const files = readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.tsfile')).sort();
    const changed = files.filter((_, i) => i % 4 === 1);
    const then = Math.floor(Date.now() / 1000) - 1800;
    for (const f of changed) utimesSync(join(dir, f), then, then);
    for (const flag of flags) {
      const fresh = cli(...extraOf(flag)).out;
      const again = cli(...extraOf(flag), '--manifest', join(work, `scattered-${flag}.manifest`));
      assert.equal(masks[flag](again.out), masks[flag](fresh), flag);
      const said = (flag === 'json' ? again.out : flag === 'csv' ? again.err : again.out).match(flag === 'json' ? /"answered":(\d+),"read":(\d+)/ : /: (\d+) files answered from it, (\d+) read/);
      assert.ok(said, `${flag}: the summary names the manifest`);
      assert.equal(Number(said[2]), changed.length, `${flag}: the ${changed.length} changed files read again`);
    }
  });
});


describe('what a rescan answers', () => {
  test('after --audit, a rescan without it answers as the audit does (non-ASCII paths from the recorded recipe)', async () => {
    const manifest = join(work, 'recipe.manifest');
    const java = join(FIXTURES, 'java');
    await scan(java, { paths: PATHS, audit: true, manifest });
    const audited = await scan(java, { paths: PATHS, audit: true });
    const plain = await scan(java, { paths: PATHS });
    const again = await scan(java, { paths: PATHS, manifest });
    assertSameScan(again, audited, 'the rescan without --audit');
    // The point of it: a non-ASCII path that only the audit can rule out (the JVM charset).
    const skip = (s, p) => s.summary.paths.find((x) => x.path === p).skippable;
    assert.ok(skip(again, 'root.sg.d1.温度') > skip(plain, 'root.sg.d1.温度'), 'more files skippable than before the index is read');
  });

  test('the NDJSON line of an answer is formatRecords\' line for its record: files alike but for their name, size and results (recorded, or made from their own bytes)', async () => {
    const files = ['tree_10series', 'tree_1series'].map((f) => join(FIXTURES, 'tsfile', `${f}.tsfile`));
    const t = await openTsFile(files[0]);
    const fact = { version: t.version, bloomFilter: t.bloomInfo(), audit: null };
    const kept = files.map((f) => keepByReading(f, statSync(f), Date.now(), 0));
    const paths = ['root.sg1.d1.s_int32', 'root.sg1.d1.s1'];
    // Set 0 asked both paths (results 0 recorded), set 1 only the first: then every path from each file's kept bytes.
    const body = { pathSets: [paths, paths.slice(0, 1)], facts: [fact], results: [[{ verdict: 'maybe' }, { verdict: 'absent' }], [{ verdict: 'maybe' }]], files: [], ids: [], entries: [] };
    const bytes = Buffer.concat(kept.flatMap((k) => [k.head, k.tail]));
    const at = [0, kept[0].head.length + kept[0].tail.length];
    // An entry in the body's columns (js/manifest/check.js): its size (the rest of its identity unread here), fact 0, path set and results `set`, its kept bytes.
    const entry = (k, size, set) => {
      body.files.push('-');
      body.ids.push(size, 0, 0, 0, 0);
      body.entries.push(0, set, set, at[k], kept[k].head.length, kept[k].tail.length);
      return body.files.length - 1;
    };
    const answer = answerer(body, bytes, paths, false, 'ndjson');
    const lines = [];
    for (const [name, e] of [['a.tsfile', entry(0, 1627, 0)], ['b "q".tsfile', entry(0, 9000, 0)], ['c.tsfile', entry(0, 1627, 1)], ['d\u0001.tsfile', entry(1, 356, 1)]]) {
      const a = answer(e, name);
      const line = linesBytes([a]).toString('utf8');
      assert.equal(line, formatRecords([a.record], 'ndjson', paths), name);
      lines.push(JSON.parse(line));
    }
    const facts = lines.map((l) => [l.file, l.size, l.results.map((r) => r.verdict).join()]);
    assert.deepEqual(facts, [['a.tsfile', 1627, 'maybe,absent'], ['b "q".tsfile', 9000, 'maybe,absent'], ['c.tsfile', 1627, 'maybe,absent'], ['d\u0001.tsfile', 356, 'absent,maybe']]);
  });

  test('paths not asked before: from the recorded bytes, or (recorded with --audit) by reading the file again', async () => {
    const more = [...PATHS, 'root.sg1.d2.s3', 'root.ln.wf01.wt01.temperature', 'root.设备.s1'];
    for (const audit of [false, true]) {
      const manifest = join(work, `paths-${audit}.manifest`);
      await scan(root, { paths: PATHS, audit, manifest });
      const fresh = await scan(root, { paths: more, audit });
      const again = await scan(root, { paths: more, audit, manifest });
      assertSameScan(again, fresh, `new paths, audit ${audit}`);
      assert.equal(again.summary.manifest.answered, audit ? 0 : fresh.summary.ok);
      // A subset of the paths asked is answered by every entry, and the manifest now holds `more`.
      const subset = await scan(root, { paths: more.slice(2, 5), audit, manifest });
      assertSameScan(subset, await scan(root, { paths: more.slice(2, 5), audit }), 'a subset');
      assert.equal(subset.summary.manifest.answered, fresh.summary.ok);
    }
  });
});

describe('a changed file is read again', () => {
  // One file of the fleet, its record in a fresh scan, and the rescan's.
  async function rescanAfter(change) {
    const dir = join(work, `change-${Math.random().toString(36).slice(2)}`);
    const entries = buildFleet(dir, { count: 20, hostile: false });
    const manifest = join(dir, 'm');
    const target = entries.find((e) => e.source.name.startsWith('java/') || e.source.size > 1000) ?? entries[0];
    // Whole seconds, an hour ago: a time utimes can put back exactly.
    const then = Math.floor(Date.now() / 1000) - 3600;
    utimesSync(target.file, then, then);
    await scan(dir, { paths: PATHS, manifest });
    change(target.file);
    const fresh = await scan(dir, { paths: PATHS });
    const again = await scan(dir, { paths: PATHS, manifest });
    assertSameScan(again, fresh, 'after the change');
    const r = again.records.find((x) => x.file === target.file);
    assert.ok(r.reads > 0, `${target.file} was read again`);
    assert.equal(again.summary.manifest.answered, fresh.records.filter((x) => x.ok && x.file !== target.file).length, 'every other file answered');
    rmSync(dir, { recursive: true, force: true });
    return { record: r, fresh };
  }
  const later = (file) => new Date(statSync(file).mtimeMs + 10_000);

  test('several, scattered through the tree: each read again, the records in walk order', async () => {
    const dir = join(work, 'scattered');
    const entries = buildFleet(dir, { count: 40, hostile: false });
    const then = Math.floor(Date.now() / 1000) - 3600;
    for (const e of entries) utimesSync(e.file, then, then);
    const manifest = join(dir, 'm');
    await scan(dir, { paths: PATHS, manifest });
    const changed = entries.filter((_, i) => i % 3 === 1);
    for (const e of changed) utimesSync(e.file, then + 60, then + 60);
    const fresh = await scan(dir, { paths: PATHS });
    const again = await scan(dir, { paths: PATHS, manifest });
    assertSameScan(again, fresh, 'after the changes');
    assert.equal(again.summary.manifest.read, changed.length);
    for (const e of changed) assert.ok(again.records.find((r) => r.file === e.file).reads > 0, `${e.file} was read again`);
    rmSync(dir, { recursive: true, force: true });
  });
  test('by size', async () => {
    await rescanAfter((f) => writeFileSync(f, Buffer.concat([readFileSync(f), Buffer.from('x')])));
  });
  test('by mtime alone', async () => {
    await rescanAfter((f) => utimesSync(f, later(f), later(f)));
  });
  test('by content at equal size, its mtime restored by utimes (ctime tells)', async () => {
    let before;
    const { record } = await rescanAfter((f) => {
      const st = statSync(f);
      const bytes = readFileSync(f);
      // A byte near the end changed (TsFileMetadata lies there): the same size, other bytes.
      bytes[bytes.length - 60] ^= 0x10;
      writeFileSync(f, bytes);
      utimesSync(f, st.mtimeMs / 1000, st.mtimeMs / 1000);
      assert.equal(statSync(f).mtimeMs, st.mtimeMs, 'mtime restored');
      assert.equal(statSync(f).size, st.size, 'size unchanged');
      before = st;
    });
    assert.equal(record.size, before.size);
  });
  test('by a new inode with the same bytes and times (replaced by rename)', async () => {
    await rescanAfter((f) => {
      const st = statSync(f);
      copyFileSync(f, `${f}.new`);
      utimesSync(`${f}.new`, st.mtimeMs / 1000, st.mtimeMs / 1000);
      renameSync(`${f}.new`, f);
    });
  });
  test('a new file in an unchanged tree is found (its directory changed)', async () => {
    const dir = join(work, 'grow');
    buildFleet(dir, { count: 10, hostile: false });
    const manifest = join(work, 'grow.manifest');
    await scan(dir, { paths: PATHS, manifest });
    const added = join(dir, 'data', 'sequence', 'root.db', '0', '2000', '1800000000000-99-0-0.tsfile');
    copyFileSync(join(FIXTURES, 'java', readFileSync(join(FIXTURES, 'java', 'manifest.json'), 'utf8').match(/"file":\s*"([^"]+)"/)[1]), added);
    const again = await scan(dir, { paths: PATHS, manifest });
    assertSameScan(again, await scan(dir, { paths: PATHS }), 'with a new file');
    assert.ok(again.records.some((r) => r.file === added && r.reads > 0));
  });
});

test('an unchanged file is answered where the walk finds it: a rescan of an unchanged tree starts no scan worker', async () => {
  const dir = join(work, 'no-worker');
  const entries = buildFleet(dir, { count: 30, hostile: false });
  const manifest = join(work, 'no-worker.manifest');
  // Each scan Worker this process makes, counted (the real class, wrapped; ESM importers see it
  // too), and apart from them the manifest's own thread (js/manifest/thread.js: it opens the
  // manifest and stats its files; it reads no TsFile).
  const threads = require('node:worker_threads');
  const Real = threads.Worker;
  let started = 0;
  let manifestThreads = 0;
  threads.Worker = class extends Real {
    constructor(...args) {
      super(...args);
      if (String(args[0]).endsWith('/manifest/thread.js')) manifestThreads++;
      else started++;
    }
  };
  syncBuiltinESMExports();
  try {
    await scan(dir, { paths: PATHS, manifest });
    assert.ok(started > 0, 'a scan that reads files starts a worker (the count sees them)');
    started = 0;
    manifestThreads = 0;
    const again = await scan(dir, { paths: PATHS, manifest });
    assert.equal(again.summary.manifest.answered, entries.length);
    assert.equal(started, 0, 'no scan worker started');
    assert.equal(manifestThreads, 2, "the manifest's thread, once a scan (scan() here runs two: records and NDJSON)");
  } finally {
    threads.Worker = Real;
    syncBuiltinESMExports();
  }
});

test("a manifest thread that ends before it has said everything: a typed error, and the scan settles", async () => {
  const dir = join(work, 'thread-ends');
  buildFleet(dir, { count: 6, hostile: false });
  const manifest = join(work, 'thread-ends.manifest');
  await scan(dir, { paths: PATHS, manifest });
  // The manifest's thread started from a script that ends at once, saying nothing.
  const threads = require('node:worker_threads');
  const Real = threads.Worker;
  threads.Worker = class extends Real {
    constructor(entry, options) {
      super(String(entry).endsWith('/manifest/thread.js') ? 'process.exit(0)' : entry, String(entry).endsWith('/manifest/thread.js') ? { ...options, eval: true } : options);
    }
  };
  syncBuiltinESMExports();
  try {
    const records = [];
    await assert.rejects(runScan([dir], { paths: PATHS, manifest, format: 'records' }, (batch) => records.push(...batch)), (e) => e.kind === 'manifest' && e.reason === 'unreadable');
    assert.equal(records.length, 0, 'no record before the manifest is open');
  } finally {
    threads.Worker = Real;
    syncBuiltinESMExports();
  }
});

test('files that vanished are dropped from the manifest', async () => {
  const dir = join(work, 'vanish');
  const entries = buildFleet(dir, { count: 12, hostile: false });
  const manifest = join(work, 'vanish.manifest');
  const first = await scan(dir, { paths: PATHS, manifest });
  const ok = first.summary.ok;
  assert.equal(ok, entries.length);
  unlinkSync(entries[3].file);
  unlinkSync(entries[7].file);
  const again = await scan(dir, { paths: PATHS, manifest });
  assert.equal(again.records.length, entries.length - 2);
  assert.equal(again.summary.manifest.dropped, 2);
  assert.equal(again.summary.manifest.answered, entries.length - 2);
  const third = await scan(dir, { paths: PATHS, manifest });
  assert.deepEqual(third.summary.manifest, { file: manifest, answered: entries.length - 2, read: 0, dropped: 0 });
});

describe('a bad manifest', () => {
  let good;
  let manifest;
  before(async () => {
    manifest = join(work, 'bad.manifest');
    await scan(join(FIXTURES, 'java'), { paths: PATHS, manifest });
    good = readFileSync(manifest);
  });
  const cases = {
    truncated: (b) => b.subarray(0, b.length - 100),
    corrupt: (b) => {
      const c = Buffer.from(b);
      c[c.indexOf(10) + 40] ^= 1; // a byte of the JSON body
      return c;
    },
    'corrupt ': (b) => {
      const c = Buffer.from(b);
      c[c.length - 5] ^= 1; // a byte of the recorded file bytes
      return c;
    },
    foreign: () => Buffer.from('{"entries": []}\n'),
    'foreign ': () => Buffer.from('\x00\x01 not text at all'),
    future_version: (b) => Buffer.from(b.toString('latin1').replace(`"version":${MANIFEST_VERSION}`, `"version":${MANIFEST_VERSION + 1}`), 'latin1'),
    // Version 1 (the layout before the columns): refused, not read as empty.
    old_version: () => Buffer.from(`${JSON.stringify({ format: MANIFEST_FORMAT, version: 1, json: 2, blobs: 0, sha256: '', blobsSha256: '' })}\n{}`),
  };
  for (const [reason, spoil] of Object.entries(cases)) {
    test(`${reason.trim()} (${spoil.toString().length} B spoiler): a typed error naming the file; the file is left as it is`, async () => {
      const bad = spoil(good);
      writeFileSync(manifest, bad);
      if (reason === 'corrupt ') {
        // The bytes are checked when first used: a path not asked before needs them.
        await assert.rejects(scan(join(FIXTURES, 'java'), { paths: [...PATHS, 'root.new.path'], manifest }), (e) => e.kind === 'manifest' && e.reason === 'corrupt' && e.path === manifest && e.message.includes(manifest));
      } else {
        await assert.rejects(scan(join(FIXTURES, 'java'), { paths: PATHS, manifest }), (e) => e.kind === 'manifest' && e.reason === reason.trim() && e.path === manifest && e.message.includes(manifest));
      }
      assert.deepEqual(readFileSync(manifest), bad);
    });
  }
  test('the CLI: exit 2, "manifest: …" on stderr', () => {
    writeFileSync(manifest, 'hello');
    const r = spawnSync(process.execPath, [CLI, 'scan', join(FIXTURES, 'java'), '--path', PATHS[0], '--manifest', manifest], { encoding: 'utf8' });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /manifest/);
    assert.match(r.stderr, /not a tsfile-bloom manifest/);
  });
});

test('an interrupted scan leaves the previous manifest whole', async () => {
  const manifest = join(work, 'abort.manifest');
  await scan(root, { paths: PATHS.slice(0, 1), manifest });
  const before = readFileSync(manifest);
  const ac = new AbortController();
  // Cancelled when the first batch of records is out: after files were read, before the end.
  const s = await scanWithKnobs(root, { paths: PATHS, manifest, manifestRacyMs: 0, signal: ac.signal, concurrency: 1, onProgress: () => ac.abort() });
  await assert.rejects(async () => {
    for await (const r of s) void r;
  }, (e) => e.kind === 'cancelled');
  assert.deepEqual(readFileSync(manifest), before);
  assert.ok(readFileSync(manifest, 'latin1').startsWith(`{"format":"${MANIFEST_FORMAT}"`));
});

test('a file modified just now is not recorded (its timestamps may not move on a second write in the same tick)', async () => {
  const dir = join(work, 'racy');
  buildFleet(dir, { count: 5, hostile: false });
  const manifest = join(work, 'racy.manifest');
  const s = scanTsFiles(dir, { paths: PATHS, manifest });
  for await (const r of s) void r;
  await s.summary;
  const again = scanTsFiles(dir, { paths: PATHS, manifest });
  for await (const r of again) void r;
  assert.equal((await again.summary).manifest.answered, 0);
});

test('a record answered from the manifest equals the file opened now', async () => {
  const manifest = join(work, 'open.manifest');
  const java = join(FIXTURES, 'java');
  await scan(java, { paths: PATHS, manifest });
  const again = await scan(java, { paths: PATHS, manifest });
  for (const r of again.records.filter((x) => x.ok).slice(0, 10)) {
    const t = await openTsFile(r.file);
    try {
      assert.deepEqual(r.bloomFilter, t.bloomInfo());
      assert.deepEqual(r.results.map((x) => x.verdict), PATHS.map((p) => t.probe(p).verdict));
    } finally {
      await t.close();
    }
  }
  assert.ok(existsSync(manifest));
});

// probe's exit status by verdict, as grep's by match (issue 42): 0 some PATH may be in the file
// (maybe, or unknown: never read as absent), 1 every PATH is absent, 2 a usage error, 3 a format
// error, 4 an I/O error or a limit; -q prints nothing. And an HTML page served in place of a
// TsFile (a static host's fallback page, through real nginx) said in words.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNginx, NGINX } from './servers.mjs';

const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const tsManifest = JSON.parse(readFileSync(`${FIXTURES}tsfile/manifest.json`, 'utf8'));
const levelDb = JSON.parse(readFileSync(`${FIXTURES}leveldb/manifest.json`, 'utf8')).tables.find((t) => t.file.startsWith('big_blocks'));
const TABLE = `${FIXTURES}leveldb/${levelDb.file}`;
const SMALL = tsManifest.find((e) => e.name === 'tree_10series');
const SMALL_FILE = `${FIXTURES}tsfile/${SMALL.file}`;
const HELD = SMALL.series.map((s) => [...s.device, s.measurement].join('.'))[0];
// The experimental cheap hash: every probe is unknown (bits this reader does not evaluate).
const CHEAP = `${FIXTURES}cheap_hash/cheap_tree_10series_min_marker.tsfile`;

const run = (args, options = {}) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000, ...options });

/** probe's verdicts as its JSON says them, and its exit status. */
function probed(file, paths) {
  const r = run(['probe', file, ...paths, '--json']);
  return { status: r.status, verdicts: JSON.parse(r.stdout).results.map((x) => x.verdict) };
}

/** An absent path of `file` (a stranger whose bits are clear). */
function absentPath(file) {
  for (let i = 0; i < 200; i++) {
    const p = `root.nowhere.d${i}.s`;
    if (probed(file, [p]).verdicts[0] === 'absent') return p;
  }
  throw new Error('no absent path found');
}

describe('probe: the exit status is the verdict', () => {
  let absent;
  before(() => {
    absent = absentPath(SMALL_FILE);
  });

  test('0 when a path may be in the file, 1 when every path is absent: text, --json and -q alike', () => {
    for (const [paths, verdicts, status] of [
      [[HELD], ['maybe'], 0],
      [[absent], ['absent'], 1],
      [[absent, HELD], ['absent', 'maybe'], 0],
      [[absent, absent], ['absent', 'absent'], 1],
    ]) {
      assert.deepEqual(probed(SMALL_FILE, paths), { status, verdicts }, paths.join(' '));
      const text = run(['probe', SMALL_FILE, ...paths]);
      assert.equal(text.status, status, text.stderr);
      assert.match(text.stdout, status ? /^ABSENT / : /\nMAYBE |^MAYBE /);
      for (const q of ['-q', '--quiet']) {
        const quiet = run(['probe', q, SMALL_FILE, ...paths]);
        assert.deepEqual([quiet.status, quiet.stdout, quiet.stderr], [status, '', ''], `${q} ${paths}`);
      }
    }
  });

  test('unknown is never read as absent: exit 0', () => {
    assert.deepEqual(probed(CHEAP, ['root.nowhere.d0.s', 'root.nowhere.d1.s']), { status: 0, verdicts: ['unknown', 'unknown'] });
    assert.equal(run(['probe', '-q', CHEAP, 'root.nowhere.d0.s']).status, 0);
  });

  test('a LevelDB table: 0 for a live key, 1 for keys all absent', () => {
    const live = levelDb.live_keys[0];
    assert.deepEqual([run(['probe', '-q', TABLE, live, '--hex']).status, run(['probe', TABLE, live, '--hex']).status], [0, 0]);
    // Keys the table does not hold whose filter says so (a false positive would say maybe).
    const strangers = Array.from({ length: 40 }, (_, i) => Buffer.from(`no-such-key-${i}`).toString('hex'));
    const verdicts = JSON.parse(run(['probe', TABLE, ...strangers, '--hex', '--json']).stdout).results.map((r) => r.verdict);
    const absent = strangers.filter((_, i) => verdicts[i] === 'absent');
    assert.ok(absent.length >= 2, verdicts.join());
    assert.equal(run(['probe', TABLE, ...absent, '--hex']).status, 1);
    assert.equal(run(['probe', '-q', TABLE, absent[0], live, '--hex']).status, 0);
  });

  test('errors are never a verdict: 2 a usage error, 3 a format error, 4 an I/O error or a limit', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsfile-bloom-verdict-'));
    try {
      writeFileSync(join(dir, 'not.tsfile'), 'x'.repeat(64));
      for (const [args, status, line] of [
        [['probe', SMALL_FILE], 2, /^tsfile-bloom probe: give at least one PATH/],
        [['probe', '-q', '--json', SMALL_FILE, HELD], 2, /^tsfile-bloom probe: --quiet and --json exclude each other/],
        [['probe', SMALL_FILE, HELD, '--charset', 'nope'], 2, /^tsfile-bloom probe: unknown --charset/],
        [['probe', join(dir, 'not.tsfile'), HELD], 3, /^error: bad_head_magic at byte 0: /],
        [['probe', '-q', join(dir, 'not.tsfile'), HELD], 3, /^error: bad_head_magic at byte 0: /],
        [['probe', join(dir, 'missing.tsfile'), HELD], 4, /^error: io: /],
        [['probe', SMALL_FILE, HELD, '--max-index-bytes', '1'], 4, /^error: too_large/],
      ]) {
        const r = run(args);
        assert.equal(r.status, status, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, line);
      }
      // With --json the error is the report on stdout, with the same status.
      const j = run(['probe', join(dir, 'not.tsfile'), HELD, '--json']);
      assert.deepEqual([j.status, JSON.parse(j.stdout).error.kind], [3, 'bad_head_magic']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the other verbs keep theirs: inspect and verify 1 for a format error, 2 for an I/O error', () => {
    for (const verb of ['inspect', 'verify']) {
      assert.equal(run([verb, README]).status, 1);
      assert.equal(run([verb, '/nonexistent/x.tsfile']).status, 2);
    }
  });
});

const README = fileURLToPath(new URL('../../README.md', import.meta.url));

describe('an HTML page where a TsFile was expected', () => {
  const PAGE = '<!DOCTYPE html>\n<html lang="en"><head><title>Not found</title></head><body>No such page</body></html>\n';
  const SENTENCE = 'bad_head_magic at byte 0: this is an HTML page (it starts with "<!DOCTYPE"), not a TsFile — did the server answer with an error page?';
  let dir;
  let server;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tsfile-bloom-html-'));
    mkdirSync(join(dir, 'www'));
    writeFileSync(join(dir, 'www', 'index.html'), PAGE);
    writeFileSync(join(dir, 'saved.tsfile'), `\uFEFF${PAGE}`);
    // A static host's single-page-app fallback: every unknown path answers index.html, 200.
    if (NGINX) server = await startNginx(join(dir, 'www'), { location: 'try_files $uri /index.html;' });
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a file that is a saved HTML page: said in words, kind bad_head_magic, offset 0', () => {
    const r = run(['inspect', join(dir, 'saved.tsfile')]);
    assert.deepEqual([r.status, r.stderr], [1, `error: ${SENTENCE}\n`]);
    const j = JSON.parse(run(['inspect', join(dir, 'saved.tsfile'), '--json']).stdout);
    // The JSON's message is the plain sentence: its kind and offset beside it, not before it.
    assert.deepEqual(j.error, { kind: 'bad_head_magic', message: SENTENCE.slice('bad_head_magic at byte 0: '.length), offset: 0, reason: null, status: null });
  });

  test('a URL a server answers with its HTML fallback page (200): the same sentence, from every verb', { skip: !NGINX && 'nginx is not installed' }, () => {
    const url = `${server.origin}/data/root.sg/1700000000000-1-0-0.tsfile`;
    assert.equal(run(['inspect', url]).stderr, `error: ${SENTENCE}\n`);
    assert.equal(run(['verify', url]).stderr, `error: ${SENTENCE}\n`);
    const probe = run(['probe', url, HELD]);
    assert.deepEqual([probe.status, probe.stderr], [3, `error: ${SENTENCE}\n`]);
    const scan = run(['scan', url, '--path', HELD, '--json']);
    const record = JSON.parse(scan.stdout.split('\n')[0]);
    assert.equal(record.error.kind, 'bad_head_magic');
    assert.match(record.error.message, /^this is an HTML page \(it starts with "<!DOCTYPE"\), not a TsFile/);
    const log = server.accessLog();
    assert.ok(log.some((l) => l.uri === '/index.html' && l.status === 206), JSON.stringify(log));
  });
});

describe('the decision in words: probe and scan say what a reader does with the file', () => {
  // A filter filled past its design (tests/fixtures/gen_tsfiles.py): root.sg1.d1.s1 sets every
  // bit yet its writer never added it — a false positive once the index is read.
  const PAST = `${FIXTURES}tsfile/tree_past_design.tsfile`;
  const [LISTED, FP, NOWHERE] = ['root.fleet.d001.s1', 'root.sg1.d1.s1', 'root.nowhere.d1.s1'];
  const heads = (stdout) => stdout.split('\n').filter((l) => /^(ABSENT|MAYBE|UNKNOWN) /.test(l));

  test('probe: in the index, false positive, absent; where the filter cannot answer, the index decides when read', () => {
    const r = run(['probe', PAST, LISTED, FP, NOWHERE]);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(heads(r.stdout), [
      `MAYBE   ${LISTED}  in the index: read this file`,
      `MAYBE   ${FP}  false positive: the filter says maybe, the index does not list it`,
      `ABSENT  ${NOWHERE}  absent: skip this file`,
    ]);
    assert.deepEqual(JSON.parse(run(['probe', PAST, LISTED, FP, NOWHERE, '--json']).stdout).results.map((x) => x.decision), ['indexed', 'false_positive', 'absent']);
    // A filter that cannot answer: the index read to its end decides; one that could not be read leaves it unknown.
    assert.deepEqual(heads(run(['probe', CHEAP, HELD, NOWHERE]).stdout), [`UNKNOWN ${HELD}  in the index: read this file`, `UNKNOWN ${NOWHERE}  absent: skip this file`]);
    const broken = run(['probe', `${FIXTURES}tsfile/hostile_chunk_list_len_past_region.tsfile`, 'root.设备.湿度']);
    assert.deepEqual(heads(broken.stdout), ['UNKNOWN root.设备.湿度  unknown: the filter cannot answer, read the file (index unreadable)']);
  });

  test('scan: the same words on each text line; without --audit the index is not read, so a maybe is a maybe', () => {
    const audited = run(['scan', PAST, '--path', FP, '--path', NOWHERE, '--audit']);
    assert.match(audited.stdout, new RegExp(`  ${FP.replaceAll('.', '\\.')}: false positive: the filter says maybe, the index does not list it  ${NOWHERE.replaceAll('.', '\\.')}: absent: skip this file\n`));
    const fast = run(['scan', PAST, '--path', FP]);
    assert.match(fast.stdout, new RegExp(`  ${FP.replaceAll('.', '\\.')}: maybe: read the file to know\n`));
  });

  test('scan --list: a false positive the audit proves is skipped like an absent path; without --audit it must be read', () => {
    const list = (...args) => run(['scan', PAST, '--path', FP, ...args]).stdout;
    assert.equal(list('--audit', '--list', 'maybe'), '');
    assert.equal(list('--audit', '--list', 'absent'), `${PAST}\n`);
    assert.equal(list('--list', 'maybe'), `${PAST}\n`);
    assert.equal(run(['scan', PAST, '--path', LISTED, '--audit', '--list', 'maybe']).stdout, `${PAST}\n`);
  });
});

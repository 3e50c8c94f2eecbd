// The CLI's grammar, as a user meets it: `VERB --help` for every verb; a usage error is one
// plain line on stderr with a suggestion for a near miss, nothing on stdout, exit 2; every verb
// ends quietly with exit 0 when its reader goes away (`| head -c 10`, through a real pipe); a
// command that never settles does not exit 0 (the watchdog), whatever the verb; probe says the
// index is unreadable when it could not be read.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNginx, NGINX } from './servers.mjs';

const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const tsManifest = JSON.parse(readFileSync(`${FIXTURES}tsfile/manifest.json`, 'utf8'));
const levelDb = JSON.parse(readFileSync(`${FIXTURES}leveldb/manifest.json`, 'utf8')).tables.find((t) => t.file.startsWith('big_blocks'));
const TEN_K = tsManifest.find((e) => e.name === 'tree_10k_series');
const TEN_K_FILE = `${FIXTURES}tsfile/${TEN_K.file}`;
const SMALL = `${FIXTURES}tsfile/tree_10series.tsfile`;
const TABLE = `${FIXTURES}leveldb/${levelDb.file}`;
const TEN_K_PATHS = TEN_K.series.map((s) => [...s.device, s.measurement].join('.'));

const run = (args, options = {}) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', ...options });

let tmp;
before(() => {
  tmp = mkdtempSync(join(tmpdir(), 'tsfile-bloom-grammar-'));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

// Each verb's flags, listed here from the issue and the README (not from the CLI's own tables).
const SOURCE_FLAGS = ['--header', '-H', '--allow-full-download', '--timeout', '--max-index-bytes'];
const HELP = {
  inspect: ['--json', '--all', ...SOURCE_FLAGS, '--max-stdin-bytes', 'FILE', 'TABLE.ldb'],
  probe: ['--json', '--variant', '--charset', '--hex', ...SOURCE_FLAGS, '--max-stdin-bytes', 'PATH', 'KEY', 'index unreadable'],
  verify: ['--json', ...SOURCE_FLAGS, '--max-stdin-bytes'],
  build: ['--capacity', '--fpp', '--variant', '--charset', '--out', '--hex', '--json'],
  scan: ['--path', '--paths-file', '--jobs', '--audit', '--json', '--csv', ...SOURCE_FLAGS, '@-'],
  help: ['VERB'],
};

describe('help', () => {
  for (const [verb, words] of Object.entries(HELP)) {
    test(`${verb} --help, ${verb} -h and help ${verb}: its usage and flags on stdout, exit 0`, () => {
      const outputs = [];
      for (const args of [[verb, '--help'], [verb, '-h'], ['help', verb], [verb, SMALL, '--josn', '--help']]) {
        const r = run(args);
        assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
        assert.equal(r.stderr, '');
        assert.match(r.stdout, new RegExp(`^usage:\\n  tsfile-bloom ${verb} `));
        for (const w of words) assert.ok(r.stdout.includes(w), `${args.join(' ')} mentions ${w}`);
        if (verb !== 'help') assert.match(r.stdout, /\nexit +0 /, 'the verb\'s exit codes');
        outputs.push(r.stdout);
      }
      assert.equal(new Set(outputs).size, 1, 'the same help every way');
    });
  }

  test('--help (or help) prints every verb and the exit codes', () => {
    const r = run(['--help']);
    assert.equal(r.status, 0);
    for (const verb of Object.keys(HELP)) assert.match(r.stdout, new RegExp(`tsfile-bloom ${verb} `));
    assert.match(r.stdout, /exit codes: 0 ok, 1 a format error \(or a failed verify\), 2 a usage or I\/O error/);
    assert.equal(run(['help']).stdout, r.stdout);
  });
});

describe('usage errors: one line on stderr, nothing on stdout, exit 2', () => {
  const cases = [
    // [args, what the line says]
    [['inspct', SMALL], 'tsfile-bloom: unknown verb "inspct"; did you mean inspect?'],
    [['porbe', SMALL, 'a.b'], 'tsfile-bloom: unknown verb "porbe"; did you mean probe?'],
    [['verfy', SMALL], 'tsfile-bloom: unknown verb "verfy"; did you mean verify?'],
    [['scna', SMALL], 'tsfile-bloom: unknown verb "scna"; did you mean scan?'],
    [['frobnicate', SMALL], 'tsfile-bloom: unknown verb "frobnicate" (verbs: inspect, probe, verify, build, scan, version, completions, help); see tsfile-bloom --help'],
    [['help', 'biuld'], 'tsfile-bloom help: unknown verb "biuld"; did you mean build?'],
    [['--jsn'], 'tsfile-bloom: give a verb first (inspect, probe, verify, build, scan, version, completions, help), not --jsn; see tsfile-bloom --help'],
    [['inspect', SMALL, '--josn'], 'tsfile-bloom inspect: unknown flag --josn; did you mean --json?'],
    [['inspect', SMALL, '--al'], 'tsfile-bloom inspect: unknown flag --al; did you mean --all?'],
    [['inspect', SMALL, '--timout', '3'], 'tsfile-bloom inspect: unknown flag --timout; did you mean --timeout?'],
    [['inspect', SMALL, '--allow-full'], 'tsfile-bloom inspect: unknown flag --allow-full; did you mean --allow-full-download?'],
    [['inspect', SMALL, '--frobnicate'], 'tsfile-bloom inspect: unknown flag --frobnicate; see tsfile-bloom inspect --help'],
    [['inspect', SMALL, '-x'], 'tsfile-bloom inspect: unknown flag -x; see tsfile-bloom inspect --help'],
    // Short flags group as POSIX has them: -hx is -h -x, and -x is the unknown one.
    [['inspect', SMALL, '-hx'], 'tsfile-bloom inspect: unknown flag -x; see tsfile-bloom inspect --help'],
    [['inspect', SMALL, '-H', '--json'], 'tsfile-bloom inspect: -H needs a value; see tsfile-bloom inspect --help'],
    [['scan', SMALL, '--pth', 'a.b'], 'tsfile-bloom scan: unknown flag --pth; did you mean --path?'],
    [['inspect', SMALL, '--variant', 'java'], 'tsfile-bloom inspect: --variant is not a flag of inspect (probe and build take it); see tsfile-bloom inspect --help'],
    [['verify', SMALL, '--audit'], 'tsfile-bloom verify: --audit is not a flag of verify (scan takes it); see tsfile-bloom verify --help'],
    [['inspect', SMALL, '--json=yes'], 'tsfile-bloom inspect: --json takes no value; see tsfile-bloom inspect --help'],
    [['probe', SMALL, 'a.b', '--charset'], 'tsfile-bloom probe: --charset needs a value; see tsfile-bloom probe --help'],
    [['probe', SMALL, 'a.b', '--charset', 'gbkk'], 'tsfile-bloom probe: unknown --charset "gbkk"; did you mean GBK? (charsets: UTF-8, GBK, GB18030, Big5, x-windows-950, Shift_JIS, windows-31j, EUC-JP, EUC-KR, x-windows-949, windows-1252, ISO-8859-1)'],
    [['build', '--charset', 'utf-9'], 'tsfile-bloom build: unknown --charset "utf-9"; did you mean UTF-8? (charsets: UTF-8, GBK, GB18030, Big5, x-windows-950, Shift_JIS, windows-31j, EUC-JP, EUC-KR, x-windows-949, windows-1252, ISO-8859-1)'],
    [['probe', SMALL, 'a.b', '--variant', 'jav'], 'tsfile-bloom probe: unknown --variant "jav"; did you mean java? (java or zero-extended)'],
    [['inspect'], 'tsfile-bloom inspect: missing FILE (a path, an http(s) URL, or - for the file on stdin); see tsfile-bloom inspect --help'],
    [['inspect', SMALL, 'extra'], 'tsfile-bloom inspect: give one FILE, not 2 arguments (probe tests paths); see tsfile-bloom inspect --help'],
    [['probe', SMALL], 'tsfile-bloom probe: give at least one PATH (or KEY, for a LevelDB table) after FILE; see tsfile-bloom probe --help'],
    [['probe', SMALL, 'zz', '--hex'], 'tsfile-bloom probe: --hex keys must be pairs of hex digits; see tsfile-bloom probe --help'],
    [['inspect', SMALL, '--timeout', '0'], 'tsfile-bloom inspect: --timeout must be a positive number of seconds, not "0"; see tsfile-bloom inspect --help'],
    [['verify', SMALL, '--timeout', 'soon'], 'tsfile-bloom verify: --timeout must be a positive number of seconds, not "soon"; see tsfile-bloom verify --help'],
    // A header may hold a secret: named, never quoted.
    [['inspect', SMALL, '--header', 'no colon'], "tsfile-bloom inspect: --header must be 'NAME: VALUE' (the argument given has no NAME before a ':'; it is not shown, as it may hold a secret); see tsfile-bloom inspect --help"],
    [['inspect', SMALL, '-H', 'bad name: x'], "tsfile-bloom inspect: --header's NAME is not a valid HTTP header name (a name is letters, digits and !#$%&'*+-.^_`|~; it is not shown); see tsfile-bloom inspect --help"],
    [['inspect', SMALL, '-H', 'X-Key: a\rb'], 'tsfile-bloom inspect: --header X-Key: its value holds a line break or a control character (the value is not shown); see tsfile-bloom inspect --help'],
    [['inspect', SMALL, '--allow-full-download=lots'], 'tsfile-bloom inspect: --allow-full-download must be a positive number of bytes (an integer, or with K, M or G: 64M), not "lots"; see tsfile-bloom inspect --help'],
    [['inspect', SMALL, '--max-index-bytes', '-1'], 'tsfile-bloom inspect: --max-index-bytes must be a number of bytes (an integer, or with K, M or G: 64M), not "-1"; see tsfile-bloom inspect --help'],
    [['inspect', '-', '--max-stdin-bytes', '0'], 'tsfile-bloom inspect: --max-stdin-bytes must be a positive number of bytes (an integer, or with K, M or G: 64M), not "0"; see tsfile-bloom inspect --help'],
    [['scan'], 'tsfile-bloom scan: give at least one TARGET (a file, a directory, a URL or @LIST); see tsfile-bloom scan --help'],
    [['scan', '-'], 'tsfile-bloom scan: - is not a scan target (scan reads files by path or URL): give @- for a list of targets on stdin, or inspect - / probe - for one file; see tsfile-bloom scan --help'],
    [['scan', SMALL, '--json', '--csv'], 'tsfile-bloom scan: --json and --csv exclude each other; see tsfile-bloom scan --help'],
    [['scan', SMALL, '--jobs', '0'], 'tsfile-bloom scan: --jobs must be a positive integer, not "0"; see tsfile-bloom scan --help'],
    [['build', '--capacity', '-3'], 'tsfile-bloom build: --capacity must be a non-negative integer, not "-3"; see tsfile-bloom build --help'],
  ];
  test(`${cases.length} cases, with --json too (a usage error is not a report)`, () => {
    for (const [args, line] of cases) {
      for (const extra of [[], ['--json']]) {
        if (extra.length && (args.includes('--json') || args.includes('--json=yes') || args[0] === '--jsn' || args[0] === 'help' || args.includes('--csv'))) continue;
        const all = [...args, ...extra];
        const r = run(all, { input: '' });
        assert.equal(r.status, 2, `${all.join(' ')}: exit ${r.status}: ${r.stderr}`);
        assert.equal(r.stdout, '', all.join(' '));
        assert.equal(r.stderr, `${line}\n`, all.join(' '));
        assert.doesNotMatch(r.stderr, /at byte|usage:/);
      }
    }
  });

  test('run bare: the whole usage on stderr, exit 2', () => {
    const r = run([]);
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^usage:\n/);
  });

  test('a byte count beyond what can be counted exactly is a usage error; an I/O error is not one', () => {
    const r = run(['probe', SMALL, 'a.b', '--max-index-bytes', '9007199254740993']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^tsfile-bloom probe: --max-index-bytes must be a number of bytes[^\n]+\n$/);
    const dir = run(['inspect', tmp, '--json']);
    assert.equal(dir.status, 2);
    assert.deepEqual(JSON.parse(dir.stdout).error, { kind: 'io', message: `is a directory: ${tmp}`, offset: null, reason: null, status: null });
  });
});

describe('a reader that goes away: every verb ends with exit 0 and nothing on stderr', () => {
  let ng;
  let paths;
  let list;
  before(async () => {
    paths = join(tmp, 'paths.txt');
    writeFileSync(paths, Array.from({ length: 100_000 }, (_, i) => `root.sg.d${i % 97}.s${i}`).join('\n'));
    // 2,000 scan targets, all readable (so the scan's own exit code is 0 too): its output is
    // far larger than a pipe holds.
    list = join(tmp, 'targets.txt');
    writeFileSync(list, Array.from({ length: 2000 }, () => TEN_K_FILE).join('\n'));
    if (NGINX) ng = await startNginx(FIXTURES);
  });
  after(async () => {
    await ng?.stop();
  });

  // Each verb with output larger than a pipe's buffer where it can have it, so that writes
  // still come after the reader has gone; each would exit 0 had its reader stayed (a command
  // whose whole output fits the pipe ends with its own code).
  const commands = () => [
    ['inspect', TEN_K_FILE, '--all', '--json'],
    ['inspect', TEN_K_FILE, '--all'],
    ['inspect', TEN_K_FILE],
    ['inspect', TABLE, '--all', '--json'],
    ['inspect', TABLE],
    ['probe', TEN_K_FILE, ...TEN_K_PATHS.slice(0, 2000), '--json'],
    ['probe', TEN_K_FILE, ...TEN_K_PATHS.slice(0, 2000)],
    ['probe', TABLE, '--hex', ...levelDb.live_keys.slice(0, 500)],
    ['verify', TEN_K_FILE, '--json'],
    ['verify', TEN_K_FILE],
    ['build', paths],
    ['build', paths, '--hex'],
    ['build', paths, '--json'],
    ['scan', `@${list}`, '--json', '--path', 'root.sg1.d1.s1'],
    ['scan', `@${list}`, '--csv'],
    ['scan', `@${list}`, '--audit'],
    ['help', 'scan'],
    ['scan', '--help'],
    ['--help'],
    ['--version'],
    ...(ng ? [['inspect', `${ng.origin}/tsfile/${TEN_K.file}`, '--all', '--json'], ['scan', ...Array.from({ length: 40 }, (_, i) => `${ng.origin}/tsfile/${TEN_K.file}?${i}`), '--json']] : []),
  ];

  test('| head -c 10, spawned through a real pipe by bash (and stdin redirected for -)', () => {
    const list = [...commands(), ['inspect', '-', '--all', '--json', '<', TEN_K_FILE]];
    for (const args of list) {
      const quoted = args.map((a) => (a === '<' ? a : `'${a.replaceAll("'", "'\\''")}'`)).join(' ');
      const r = spawnSync('bash', ['-c', `"$0" "$1" ${quoted} 2>"$2" | head -c 10 >/dev/null; echo "\${PIPESTATUS[0]}"`, process.execPath, CLI, join(tmp, 'stderr')], { encoding: 'utf8' });
      const stderr = readFileSync(join(tmp, 'stderr'), 'utf8');
      assert.equal(r.stdout.trim(), '0', `${args.slice(0, 4).join(' ')}: exit ${r.stdout.trim()}: ${stderr}`);
      assert.equal(stderr, '', args.slice(0, 4).join(' '));
    }
  });

  test('a reader closed before the first write (every write fails with EPIPE)', async () => {
    for (const args of commands()) {
      const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.destroy(); // our end of the pipe closes now, long before the CLI writes
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const status = await new Promise((resolve) => child.on('close', resolve));
      assert.equal(status, 0, `${args.slice(0, 4).join(' ')}: exit ${status}: ${stderr}`);
      assert.equal(stderr, '', args.slice(0, 4).join(' '));
    }
  });
});

describe('the watchdog: a command that never settles does not exit 0, whatever the verb', () => {
  // Loaded before the CLI: every open or read of a fixture, and every scan worker, waits forever
  // with nothing left in the event loop (what a promise that never settles looks like).
  const HANG = `
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import wt from 'node:worker_threads';
import { Readable } from 'node:stream';
import { syncBuiltinESMExports } from 'node:module';
const never = () => new Promise(() => {});
const { open, readFile } = fsp;
const { createReadStream } = fs;
fsp.open = (p, ...rest) => (String(p).includes('fixtures') ? never() : open(p, ...rest));
fsp.readFile = (p, ...rest) => (String(p).includes('fixtures') ? never() : readFile(p, ...rest));
// (build reads its PATHS as a stream: one that never gives a chunk.)
fs.createReadStream = (p, ...rest) => (String(p).includes('fixtures') ? new Readable({ read() {} }) : createReadStream(p, ...rest));
wt.Worker = class { on() {} once() {} postMessage() {} terminate() { return Promise.resolve(0); } };
syncBuiltinESMExports();
`;
  for (const args of [['inspect', SMALL], ['inspect', SMALL, '--json'], ['probe', SMALL, 'root.a.b'], ['verify', SMALL], ['inspect', TABLE], ['build', SMALL], ['scan', SMALL, '--json']]) {
    test(args.join(' ').replace(FIXTURES, ''), () => {
      const hang = join(tmp, 'hang.mjs');
      writeFileSync(hang, HANG);
      const r = spawnSync(process.execPath, ['--import', hang, CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, args[0] === 'probe' ? 4 : 2, r.stderr); // probe: 4, as its other errors
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, 'error: internal: the command stopped before it finished (an operation never settled); its output is incomplete\n');
    });
  }
});

describe('probe and what the index says', () => {
  // Hostile files whose index walk fails (the manifest says where), and the 10,000-series file
  // with its index region above --max-index-bytes.
  const broken = tsManifest.filter((e) => e.kind === 'hostile' && /^hostile_(index_child|chunk_list|measurement_node)/.test(e.name));

  test('"index unreadable" (and index_error) when the index could not be read; the decision says "in the index" / "skip" / "false positive" when it was', () => {
    assert.ok(broken.length >= 4, `${broken.length} hostile files`);
    for (const e of broken) {
      const file = `${FIXTURES}tsfile/${e.file}`;
      const inspect = JSON.parse(run(['inspect', file, '--json']).stdout);
      assert.equal(inspect.ok, false, e.name);
      assert.equal(inspect.error.kind, e.error_kind, e.name);
      const listed = inspect.series.map((s) => s.path);
      const paths = [...listed, 'root.sg1.d1.s_bool', 'root.nowhere.x'];
      const text = run(['probe', file, ...paths]);
      const heads = text.stdout.split('\n').filter((l) => /^(ABSENT|MAYBE|UNKNOWN) /.test(l));
      assert.equal(heads.length, paths.length);
      // An unreadable index is no error: the exit is the verdicts' (1 only when all are absent).
      assert.equal(text.status, heads.every((l) => l.startsWith('ABSENT ')) ? 1 : 0, text.stderr);
      heads.forEach((l, i) => {
        assert.ok(l.endsWith(listed.includes(paths[i]) ? '  in the index: read this file' : ' (index unreadable)'), `${e.name}: ${l}`);
        assert.doesNotMatch(l, /does not list|false positive/);
      });
      assert.match(text.stdout, new RegExp(`\\nindex      unreadable: ${e.error_kind} at byte ${inspect.error.offset}: `));
      const j = JSON.parse(run(['probe', file, ...paths, '--json']).stdout);
      assert.deepEqual(j.index_error, inspect.error, e.name);
      for (const r of j.results) assert.equal(r.indexed, listed.includes(r.path) ? true : null, `${e.name}: ${r.path}`);
    }
    // A readable index: indexed or not, and index_error null.
    const ok = run(['probe', TEN_K_FILE, TEN_K_PATHS[0], 'root.nowhere.x']);
    const heads = ok.stdout.split('\n').filter((l) => /^(ABSENT|MAYBE|UNKNOWN) /.test(l));
    assert.ok(heads[0].endsWith('  in the index: read this file'), heads[0]);
    assert.match(heads[1], /^ABSENT  root\.nowhere\.x  absent: skip this file$/);
    assert.equal(JSON.parse(run(['probe', TEN_K_FILE, 'root.nowhere.x', '--json']).stdout).index_error, null);
  });
});

// File names are bytes, and text output goes to terminals (issue 39). `--list` and `--print0`
// write each location's own bytes, so `| xargs -0` reads the file the scan read (a name that is
// not UTF-8 and a literal name that escapes alike are two files); `--json` and `--csv` carry
// the bytes of such a name as hex; the text listing, and every sentence the CLI prints, escape
// what a terminal would act on (file names, a server's <Message>, a file's series paths).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { openTsFile } from '../../js/node.js';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/tsfile/', import.meta.url));
const HOLDS = `${FIXTURES}tree_1series.tsfile`; // root.sg1.d1.s1: maybe
const LACKS = `${FIXTURES}table_1series.tsfile`; // root.sg1.d1.s1: absent
const PATH = 'root.sg1.d1.s1';
const ESC = '\x1b';

/** The CLI in `cwd`, its output as bytes. */
const cli = (cwd, args, opts = {}) => spawnSync(process.execPath, [CLI, ...args], { cwd, ...opts });

/** A directory with the two names `bad\xff.tsfile` (its bytes; holds PATH) and `bad\\xff.tsfile` (literally; lacks it). */
function twoNames() {
  const dir = mkdtempSync(join(tmpdir(), 'tsfile-bloom-bytes-'));
  const raw = Buffer.concat([Buffer.from('bad'), Buffer.from([0xff]), Buffer.from('.tsfile')]);
  copyFileSync(HOLDS, Buffer.concat([Buffer.from(`${dir}/`), raw]));
  copyFileSync(LACKS, join(dir, 'bad\\xff.tsfile'));
  return { dir, raw, done: () => rmSync(dir, { recursive: true, force: true }) };
}

const split = (buf, sep) => {
  const out = [];
  for (let at = 0, i; (i = buf.indexOf(sep, at)) >= 0; at = i + 1) out.push(buf.subarray(at, i));
  return out;
};

test('--list --print0 and --list write the location’s own bytes: the file that may hold the path is the one named', () => {
  const { dir, raw, done } = twoNames();
  try {
    for (const [flags, sep] of [[['--print0'], 0], [[], 10]]) {
      const maybe = cli(dir, ['scan', '.', '--path', PATH, '--list', 'maybe', ...flags]);
      assert.equal(maybe.status, 0, maybe.stderr.toString());
      assert.deepEqual(split(maybe.stdout, sep), [raw], `maybe ${flags}`);
      const absent = cli(dir, ['scan', '.', '--path', PATH, '--list', 'absent', ...flags]);
      assert.deepEqual(split(absent.stdout, sep), [Buffer.from('bad\\xff.tsfile')], `absent ${flags}`);
    }
    // Through xargs -0, as the README composes it: the bytes read are the file that holds the path.
    const piped = spawnSync('sh', ['-c', `node ${JSON.stringify(CLI)} scan . --path ${PATH} --list maybe --print0 | xargs -0 cat`], { cwd: dir });
    assert.deepEqual(piped.stdout, spawnSync('cat', [HOLDS]).stdout);
  } finally {
    done();
  }
});

test('--json and --csv keep the name as data, with the bytes of a name that is not UTF-8 in hex; the text listing escapes as ls -b', () => {
  const { dir, raw, done } = twoNames();
  try {
    const json = cli(dir, ['scan', '.', '--path', PATH, '--json'], { encoding: 'utf8' });
    const records = json.stdout.trim().split('\n').slice(0, -1).map((l) => JSON.parse(l));
    const byVerdict = Object.fromEntries(records.map((r) => [r.results[0].verdict, r]));
    assert.equal(byVerdict.maybe.file_hex, raw.toString('hex'));
    assert.equal(byVerdict.absent.file, 'bad\\xff.tsfile');
    assert.equal(byVerdict.absent.file_hex, null);
    const csv = cli(dir, ['scan', '.', '--path', PATH, '--csv'], { encoding: 'utf8' }).stdout.trim().split('\n');
    assert.equal(csv[0].split(',').at(-1), 'file_hex');
    assert.ok(csv.some((l) => l.includes(',maybe,') && l.endsWith(`,${raw.toString('hex')}`)), csv.join('\n'));
    const text = cli(dir, ['scan', '.', '--path', PATH], { encoding: 'utf8' }).stdout;
    assert.match(text, /^bad\\xff\.tsfile .*: maybe: read the file to know$/m); // the byte 0xff
    assert.match(text, /^bad\\\\xff\.tsfile .*: absent: skip this file$/m); // a backslash, then xff
  } finally {
    done();
  }
});

test('a location holding a newline: written escaped to a list of lines, reported, exit 1; --print0 writes it as it is', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsfile-bloom-bytes-'));
  try {
    copyFileSync(HOLDS, join(dir, 'a\nb.tsfile'));
    const lines = cli(dir, ['scan', '.', '--path', PATH, '--list', 'maybe']);
    assert.equal(lines.stdout.toString(), 'a\\nb.tsfile\n');
    assert.equal(lines.status, 1);
    assert.match(lines.stderr.toString(), /a\\nb\.tsfile: the location holds a newline.*--print0/);
    const nul = cli(dir, ['scan', '.', '--path', PATH, '--list', 'maybe', '--print0']);
    assert.equal(nul.stdout.toString(), 'a\nb.tsfile\0');
    assert.equal(nul.status, 0, nul.stderr.toString());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('on a terminal --list shows each location escaped, as the text listing does', { skip: spawnSync('script', ['--version']).status !== 0 && 'no script(1)' }, () => {
  const { dir, done } = twoNames();
  try {
    copyFileSync(HOLDS, join(dir, `${ESC}[2J.tsfile`));
    const onTerminal = (list) => {
      const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} scan . --path ${PATH} --list ${list} 2>/dev/null`;
      return spawnSync('script', ['-qec', cmd, '/dev/null'], { cwd: dir, encoding: 'latin1' }).stdout.replace(/\r/g, '');
    };
    assert.equal(onTerminal('maybe'), '\\x1b[2J.tsfile\nbad\\xff.tsfile\n');
    assert.equal(onTerminal('absent'), 'bad\\\\xff.tsfile\n');
  } finally {
    done();
  }
});

test('no control character of a name, a series path or an error sentence reaches the terminal as it is', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsfile-bloom-bytes-'));
  try {
    const name = `${ESC}]0;owned${ESC}\\${ESC}[2J.tsfile`;
    copyFileSync(HOLDS, join(dir, name));
    const scan = cli(dir, ['scan', '.', '--path', `root.sg1.d1.${ESC}[31m`], { encoding: 'utf8' });
    assert.ok(!scan.stdout.includes(ESC) && !scan.stderr.includes(ESC), JSON.stringify(scan.stdout));
    assert.ok(scan.stdout.includes('\\x1b]0;owned\\x1b\\\\\\x1b[2J.tsfile'), scan.stdout);
    assert.ok(scan.stdout.includes('root.sg1.d1.\\x1b[31m'), scan.stdout);
    // An error sentence that names the file, from every verb.
    for (const verb of [['inspect'], ['verify'], ['probe', '-', PATH]]) {
      const args = verb[0] === 'probe' ? ['probe', `missing${name}`, PATH] : [...verb, `missing${name}`];
      const r = cli(dir, args, { encoding: 'utf8' });
      assert.equal(r.status, verb[0] === 'probe' ? 4 : 2); // probe's I/O error is 4 (its 1 is "absent")
      assert.ok(!r.stderr.includes(ESC), JSON.stringify(r.stderr));
      assert.match(r.stderr, /no such file: missing\\x1b\]0;owned/);
    }
    // A usage error quoting the argument.
    const usage = cli(dir, ['inspect', `--${ESC}[2J`], { encoding: 'utf8' });
    assert.equal(usage.status, 2);
    assert.ok(!usage.stderr.includes(ESC), JSON.stringify(usage.stderr));
    // JSON stays JSON (its own escape, \u001b).
    const json = cli(dir, ['scan', '.', '--path', PATH, '--json'], { encoding: 'utf8' });
    assert.equal(JSON.parse(json.stdout.split('\n')[0]).file, name);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a series path holding ESC, read from a file, is escaped in inspect’s, probe’s and verify’s text', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsfile-bloom-bytes-'));
  try {
    // The measurement name in the index: 's1' → ESC '1' (the index has no checksum).
    const bytes = readFileSync(HOLDS);
    const { metaOffset } = (await openTsFile(HOLDS)).metadata;
    bytes[bytes.indexOf('s1', metaOffset)] = 0x1b;
    const file = join(dir, 'esc.tsfile');
    writeFileSync(file, bytes);
    const t = await openTsFile(file);
    assert.deepEqual((await t.series()).map((x) => x.path), [`root.sg1.d1.${ESC}1`]);
    await t.close();
    for (const args of [['inspect', file], ['verify', file], ['probe', file, `root.sg1.d1.${ESC}1`]]) {
      const r = cli(dir, args, { encoding: 'utf8' });
      assert.ok(!r.stdout.includes(ESC) && !r.stderr.includes(ESC), `${args[0]}: ${JSON.stringify(r.stdout)}`);
      if (args[0] !== 'verify') assert.ok(r.stdout.includes('root.sg1.d1.\\x1b1'), `${args[0]}: ${r.stdout}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a server’s <Message> with an escape sequence is escaped in the scan listing and the error line', async () => {
  const body = `<?xml version="1.0"?><Error><Code>SlowDown2</Code><Message>${ESC}]0;pwned${ESC}\\ now</Message></Error>`;
  const server = createServer((req, res) => {
    res.writeHead(400, { 'content-type': 'application/xml' });
    res.end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  try {
    const env = { ...process.env, AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${server.address().port}`, AWS_ACCESS_KEY_ID: 'k', AWS_SECRET_ACCESS_KEY: 's', AWS_REGION: 'us-east-1' };
    const run = (args) =>
      new Promise((resolve) => {
        // Asynchronous: the server answers on this thread.
        const child = spawn(process.execPath, [CLI, ...args], { env });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (err += d));
        child.on('close', (status) => resolve({ status, out, err }));
      });
    const scan = await run(['scan', 's3://bucket/x.tsfile', '--path', PATH]);
    assert.ok(!scan.out.includes(ESC), JSON.stringify(scan.out));
    assert.match(scan.out, /\\x1b\]0;pwned\\x1b\\ now/);
    const inspect = await run(['inspect', 's3://bucket/x.tsfile']);
    assert.equal(inspect.status, 2);
    assert.ok(!inspect.err.includes(ESC), JSON.stringify(inspect.err));
    assert.match(inspect.err, /\\x1b\]0;pwned/);
  } finally {
    server.close();
  }
});

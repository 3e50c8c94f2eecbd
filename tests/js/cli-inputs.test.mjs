// The CLI's lists (issue 39): one rule for every input of paths — a line is its bytes up to \n
// or \r\n, as an argument is what was typed — read a bounded line at a time, so a huge line is
// a typed error naming the argument and the line, and `build`'s memory follows the filter it
// makes, not the text it reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BloomFilter, openTsFile } from '../../js/node.js';

const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
const FILE = fileURLToPath(new URL('../fixtures/tsfile/tree_1series.tsfile', import.meta.url)); // root.sg1.d1.s1
const cli = (args, opts = {}) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', ...opts });
const tmp = () => mkdtempSync(join(tmpdir(), 'tsfile-bloom-inputs-'));

// The CLI in a child that reports its own peak RSS (KiB) on stderr, as tests/js/reliability.test.mjs
// does — from a module file, not `-e` (a scan's worker threads inherit the child's flags).
const WRAPPER = join(mkdtempSync(join(tmpdir(), 'tsfile-bloom-rss-')), 'cli-rss.mjs');
writeFileSync(WRAPPER, `process.on('exit', () => process.stderr.write('\\nMAXRSS ' + process.resourceUsage().maxRSS + '\\n'));
await import(${JSON.stringify(pathToFileURL(CLI).href)});
`);
process.on('exit', () => rmSync(dirname(WRAPPER), { recursive: true, force: true }));

/** `shell` with CLI standing for the CLI (measured), and its peak RSS. */
function measured(shell, args, nodeFlags = []) {
  const node = `${JSON.stringify(process.execPath)} ${nodeFlags.join(' ')} ${JSON.stringify(WRAPPER)} ${args.map((a) => `'${a}'`).join(' ')}`;
  const r = spawnSync('sh', ['-c', shell.replace('CLI', () => node)], { encoding: 'utf8', maxBuffer: 1 << 26 });
  return { ...r, rss: Number(/MAXRSS (\d+)/.exec(r.stderr)?.[1]) };
}

/** A scan --json's first record's verdicts, `[path, verdict]`. */
const verdicts = (r) => JSON.parse(r.stdout.split('\n')[0]).results.map((x) => [x.path, x.verdict]);

test('--paths-file keeps each line as --path keeps its value: spaces, NBSP and U+3000 are part of a path', async () => {
  const dir = tmp();
  try {
    const t = await openTsFile(FILE);
    const odd = ['root.sg1.d1.s1 ', ' root.sg1.d1.s1', 'root.sg1.d1.s1\u00a0', '\u3000root.sg1.d1.s1', 'root.sg1.d1.s1\t'];
    const expected = t.probeMany(['root.sg1.d1.s1', ...odd]).map((r) => [r.path, r.verdict]);
    await t.close();
    // A space changes the path: the filter says no 'maybe' for these (absent, or unknown for a non-ASCII one).
    assert.ok(expected.slice(1).every(([, v]) => v !== 'maybe'), JSON.stringify(expected));
    // A BOM opening the file, a CRLF line and an empty line: not part of any path.
    const list = join(dir, 'paths.txt');
    writeFileSync(list, `\ufeffroot.sg1.d1.s1\r\n\n${odd.join('\n')}\n`);
    const fromFile = cli(['scan', FILE, '--paths-file', list, '--json']);
    const fromArgs = cli(['scan', FILE, '--path', 'root.sg1.d1.s1', ...odd.flatMap((p) => ['--path', p]), '--json']);
    assert.equal(fromFile.status, 0, fromFile.stderr);
    assert.deepEqual(verdicts(fromFile), expected);
    assert.deepEqual(verdicts(fromArgs), expected);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a list line that is not UTF-8 is a typed error naming the argument and the line (no U+FFFD path is probed)', () => {
  const dir = tmp();
  try {
    const list = join(dir, 'paths.txt');
    writeFileSync(list, Buffer.concat([Buffer.from('root.sg1.d1.s1\nroot.sg1.d1.'), Buffer.from([0xff]), Buffer.from('\n')]));
    for (const args of [['scan', FILE, '--paths-file', list], ['build', list, '--hex']]) {
      const r = cli(args);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, /^error: invalid_argument: line 2 of .*paths\.txt \((--paths-file|PATHS)\) is not UTF-8/);
      assert.equal(r.stdout, '');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('one 256 MiB line: --paths-file, @- and build stop at the line limit with a typed error, in bounded memory', () => {
  const small = measured('CLI', ['scan', FILE, '--path', 'root.sg1.d1.s1', '--json']);
  assert.equal(small.status, 0, small.stderr);
  const huge = "head -c 268435456 /dev/zero | tr '\\0' a";
  for (const [args, argument] of [
    [['scan', FILE, '--paths-file', '-'], '--paths-file'],
    [['scan', '@-', '--path', 'root.sg1.d1.s1'], '@-'],
    [['build', '-', '--hex'], 'PATHS'],
  ]) {
    const r = measured(`${huge} | CLI`, args);
    assert.equal(r.status, 2, `${args}: ${r.stderr.slice(0, 500)}`);
    assert.match(r.stderr, new RegExp(`error: too_large at byte 0: line 1 of stdin \\(${argument}\\) is longer than 65536 bytes`));
    assert.ok(r.rss < small.rss * 1.5, `${args}: peak ${r.rss} KiB against ${small.rss} KiB for a small scan`);
  }
});

test('build of 2,000,000 paths holds a line at a time: peak RSS near a one-path build’s, from a file (two passes) or stdin (a spool)', async () => {
  const dir = tmp();
  try {
    const list = join(dir, 'paths.txt');
    const out = createWriteStream(list);
    for (let i = 0; i < 2_000_000; i += 10_000) {
      let chunk = '';
      for (let j = i; j < i + 10_000; j++) chunk += `root.sg.device_${String(j).padStart(8, '0')}.s1\n`;
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
    const one = join(dir, 'one.txt');
    writeFileSync(one, 'root.sg.d.s\n');
    const small = measured('CLI', ['build', one, '--json']);
    assert.equal(small.status, 0, small.stderr);
    // In a JS heap of 32 MiB, less than the 60 MB of text (a build that held the lines, as before
    // issue 39, dies of it: 467 MB peak without the limit). What else the process holds (the
    // young generation, whose size differs between Node versions, code, the wasm memory) is in
    // RSS: bounded loosely.
    const HEAP = ['--max-old-space-size=32'];
    const fromFile = measured('CLI', ['build', list, '--json'], HEAP);
    const fromStdin = measured(`cat ${JSON.stringify(list)} | CLI`, ['build', '--json'], HEAP);
    for (const [how, r] of [['file', fromFile], ['stdin', fromStdin]]) {
      assert.equal(r.status, 0, `${how}: ${r.stderr}`);
      assert.equal(JSON.parse(r.stdout).paths, 2_000_000, how);
      // The filter itself is ~1.6 MB (Java's sizing at 5 %).
      assert.ok(r.rss < small.rss + 128 * 1024, `${how}: peak ${r.rss} KiB against ${small.rss} KiB for one path`);
      console.log(`build of 2,000,000 paths from ${how}: peak RSS ${r.rss} KiB (one path: ${small.rss} KiB)`);
    }
    // The same filter either way, and the one the API builds.
    const hex = (args, input) => cli(['build', ...args, '--hex'], { input, maxBuffer: 1 << 26 }).stdout;
    const few = Array.from({ length: 1000 }, (_, i) => `root.sg.d${i}.s`);
    const fewFile = join(dir, 'few.txt');
    writeFileSync(fewFile, `${few.join('\n')}\n`);
    const api = Buffer.from(BloomFilter.withCapacity(few.length).addMany(few).encode()).toString('hex');
    assert.equal(hex([fewFile]).trim(), api);
    assert.equal(hex(['-'], few.join('\n')).trim(), api);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('lists from a pipe or a process substitution still work (streams, not TsFiles)', () => {
  const r = spawnSync('bash', ['-c', `node ${JSON.stringify(CLI)} scan ${JSON.stringify(FILE)} --paths-file <(printf 'root.sg1.d1.s1\\n') --json`], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(verdicts(r), [['root.sg1.d1.s1', 'maybe']]);
  const targets = spawnSync('bash', ['-c', `node ${JSON.stringify(CLI)} scan @<(printf '%s\\n' ${JSON.stringify(FILE)}) --path root.sg1.d1.s1 --list maybe`], { encoding: 'utf8' });
  assert.equal(targets.stdout, `${FILE}\n`, targets.stderr);
  const build = spawnSync('bash', ['-c', `node ${JSON.stringify(CLI)} build <(printf 'root.sg1.d1.s1\\n') --json`], { encoding: 'utf8' });
  assert.equal(JSON.parse(build.stdout).paths, 1, build.stderr);
});

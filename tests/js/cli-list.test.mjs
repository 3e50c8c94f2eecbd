// `scan --list maybe|absent [--print0]` prints only file locations, for the next tool in a
// pipeline (`find … | tsfile-bloom scan @- --list maybe --path P | xargs …`): the two lists split
// the files exactly, each as the API's verdicts say (absent for every path: skippable; else, or
// unreadable: to be read), separated by newlines or NULs, with the summary on stderr.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scanTsFiles } from '../../js/node.js';

const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
const DIR = fileURLToPath(new URL('../fixtures/tsfile/', import.meta.url));
const PATHS = ['root.sg1.d1.s1', 'root.nowhere.d.s'];
const cli = (args, input) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', input });

test('--list maybe and --list absent split the scanned files as the API’s verdicts do', async () => {
  const records = [];
  for await (const r of scanTsFiles(DIR, { paths: PATHS, concurrency: 1 })) records.push(r);
  const skippable = records.filter((r) => r.ok && r.results.every((p) => p.verdict === 'absent')).map((r) => r.file);
  const toRead = records.filter((r) => !skippable.includes(r.file)).map((r) => r.file);
  assert.ok(skippable.length > 0 && toRead.length > 0, `${skippable.length} skippable, ${toRead.length} to read`);
  const args = ['scan', DIR, ...PATHS.flatMap((p) => ['--path', p]), '--jobs', '1'];
  const maybe = cli([...args, '--list', 'maybe']);
  const absent = cli([...args, '--list', 'absent']);
  assert.deepEqual(maybe.stdout.split('\n').filter(Boolean), toRead);
  assert.deepEqual(absent.stdout.split('\n').filter(Boolean), skippable);
  // The summary goes to stderr; the exit code is scan's (some files are hostile: 1).
  assert.match(maybe.stderr, /files/);
  assert.equal(maybe.status, 1);
  const nul = cli([...args, '--list', 'absent', '--print0']);
  assert.deepEqual(nul.stdout.split('\0').slice(0, -1), skippable);
  assert.ok(nul.stdout.endsWith('\0'));
});

test('@- reads the targets from stdin, so `find … | scan @- --list maybe` composes', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.tsfile') && f.startsWith('tree_')).map((f) => join(DIR, f));
  const viaStdin = cli(['scan', '@-', '--path', PATHS[0], '--list', 'maybe'], files.join('\n'));
  const direct = cli(['scan', ...files, '--path', PATHS[0], '--list', 'maybe']);
  assert.equal(viaStdin.status, direct.status, viaStdin.stderr);
  assert.equal(viaStdin.stdout, direct.stdout);
});

test('--list is checked at the door', () => {
  for (const [args, words] of [
    [['scan', DIR, '--list', 'maybe'], /needs the series paths/],
    [['scan', DIR, '--path', 'p', '--list', 'sometimes'], /--list takes maybe or absent/],
    [['scan', DIR, '--path', 'p', '--list', 'maybe', '--json'], /excludes --json/],
    [['scan', DIR, '--path', 'p', '--print0'], /--print0 goes with --list/],
  ]) {
    const r = cli(args);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, words);
    assert.equal(r.stdout, '');
  }
});

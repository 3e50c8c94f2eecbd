// Every hostile fixture through the CLI: exit code 1, a JSON error with the manifest's
// kind, and peak memory close to that of opening a small valid file.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const DIR = new URL('../fixtures/tsfile/', import.meta.url);
const raw = JSON.parse(readFileSync(new URL('manifest.json', DIR), 'utf8'));
const MANIFEST = Array.isArray(raw) ? raw : raw.files;
const CLI = pathToFileURL(fileURLToPath(new URL('../../js/cli.js', import.meta.url))).href;

/** Runs the CLI in a child Node and reports its exit code, stdout and peak RSS (KiB). */
function runCli(args) {
  const script = `process.argv = [process.argv[0], 'cli', ...JSON.parse(process.env.ARGS)];
process.on('exit', () => process.stderr.write('\\nMAXRSS ' + process.resourceUsage().maxRSS + '\\n'));
await import(${JSON.stringify(CLI)});`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, ARGS: JSON.stringify(args) } });
  const rss = Number(/MAXRSS (\d+)/.exec(r.stderr)?.[1]);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, rss };
}

test('every hostile fixture: CLI exit 1, JSON error with its kind, bounded memory', () => {
  const small = runCli(['inspect', fileURLToPath(new URL('tree_1series.tsfile', DIR)), '--json']);
  assert.equal(small.status, 0, small.stderr);
  assert.ok(small.rss > 0);
  const hostile = MANIFEST.filter((e) => e.kind === 'hostile');
  assert.ok(hostile.length >= 40);
  let worst = 0;
  for (const e of hostile) {
    const r = runCli(['inspect', fileURLToPath(new URL(e.file, DIR)), '--json']);
    assert.equal(r.status, 1, `${e.name}: ${r.stderr}`);
    const j = JSON.parse(r.stdout);
    assert.equal(j.ok, false, e.name);
    assert.equal(j.error.kind, e.error_kind, e.name);
    assert.equal(typeof j.error.offset, 'number', e.name);
    assert.doesNotMatch(r.stderr, /RuntimeError|unreachable|panicked|Uncaught/, e.name);
    worst = Math.max(worst, r.rss / small.rss);
    assert.ok(r.rss <= small.rss * 1.5, `${e.name}: peak ${r.rss} KiB vs ${small.rss} KiB for a valid file`);
  }
  console.log(`worst hostile/valid peak RSS ratio: ${worst.toFixed(3)}`);
});

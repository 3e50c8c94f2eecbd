// A release from a clean clone: `git clone` of this repository's HEAD (no dist/, no
// node_modules), then `npm pack`, whose `prepack` sets up and builds what `files` lists. The
// tarball must hold the same files as the one the other suites test, byte for byte, and pass the
// consumer suite itself; `npm publish --dry-run` must be clean. (Uncommitted changes are not in
// the clone: run it on a committed tree, as CI does.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, tarball } from './packed.mjs';

let work;
let clone;
let cleanTarball;

const isRepository = spawnSync('git', ['-C', ROOT, 'rev-parse', '--verify', 'HEAD'], { stdio: 'ignore' }).status === 0;
if (!isRepository) test('a clean clone', { skip: 'this tree is not a git repository: nothing to clone' }, () => {});

before(() => {
  if (!isRepository) return;
  work = mkdtempSync(join(tmpdir(), 'tsfile-bloom-clean-clone-'));
  clone = join(work, 'repo');
  execFileSync('git', ['clone', '--quiet', ROOT, clone]);
  assert.ok(!existsSync(join(clone, 'dist')), 'a clean clone has no dist/');
  // The compiled dependencies of this tree are reused (CARGO_TARGET_DIR): the crate itself is
  // built again from the clone's sources.
  const env = { ...process.env, CARGO_TARGET_DIR: join(ROOT, 'target') };
  const out = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: clone, env, encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'pipe'] }));
  cleanTarball = join(work, out[0].filename);
});

after(() => work && rmSync(work, { recursive: true, force: true }));

const unpack = (file) => {
  const dir = mkdtempSync(join(work, 'x-'));
  execFileSync('tar', ['-xzf', file, '-C', dir]);
  const root = join(dir, 'package');
  const hashes = {};
  const walk = (d, rel = '') => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p, `${rel}${e.name}/`);
      else hashes[`${rel}${e.name}`] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(root);
  return hashes;
};

test("npm pack on a clean clone builds the package: the same files, byte for byte, as the tree's own pack", { skip: !isRepository }, () => {
  const clean = unpack(cleanTarball);
  const tree = unpack(tarball().file);
  assert.deepEqual(Object.keys(clean).sort(), Object.keys(tree).sort());
  for (const f of Object.keys(tree)) assert.equal(clean[f], tree[f], `${f} differs`);
});

test("the consumer suite passes on the clean clone's tarball", { skip: !isRepository }, () => {
  const r = spawnSync(process.execPath, ['--test', join(ROOT, 'tests/consumer/consumer.test.mjs')], {
    // Not reporting to this runner (NODE_TEST_CONTEXT): its own TAP on stdout.
    env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_TEST_CONTEXT')), TSFILE_BLOOM_TARBALL: cleanTarball },
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /# fail 0/);
});

test('npm publish --dry-run is clean: no warning (none corrected away, such as the bin), the CLI among its files', { skip: !isRepository }, () => {
  const r = spawnSync('npm', ['publish', '--dry-run', '--ignore-scripts', '--json'], { cwd: clone, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  // Not logged in is what a dry run on a machine without credentials says; nothing else may be.
  const warnings = r.stderr.split('\n').filter((l) => /npm warn/i.test(l) && !/requires you to be logged in/i.test(l));
  assert.deepEqual(warnings, []);
  const pkg = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8'));
  assert.deepEqual(pkg.bin, { 'tsfile-bloom': 'js/cli.js' });
});

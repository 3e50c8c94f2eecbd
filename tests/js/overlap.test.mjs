// Targets that overlap (issue 39): `scan tree tree/s1` reported tree/s1's files twice (and a
// fleet's counts with them). Each file is read and reported once however the targets name it:
// a directory inside another, a file inside a directory given too (before or after it), the
// same file twice or through a symbolic link — with and without a manifest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scanTsFiles } from '../../js/node.js';

const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
const FILE = fileURLToPath(new URL('../fixtures/tsfile/tree_1series.tsfile', import.meta.url));

function tree() {
  const dir = mkdtempSync(join(tmpdir(), 'tsfile-bloom-overlap-'));
  for (const sub of ['s1', 's2']) {
    mkdirSync(join(dir, 'tree', sub), { recursive: true });
    for (const n of ['a', 'b']) copyFileSync(FILE, join(dir, 'tree', sub, `${n}.tsfile`));
  }
  symlinkSync(join(dir, 'tree', 's1', 'a.tsfile'), join(dir, 'link.tsfile'));
  return dir;
}

const files = async (targets) => {
  const out = [];
  for await (const r of scanTsFiles(targets, { concurrency: 1 })) out.push(r.file);
  return out;
};

test('scanTsFiles reports each file once, whichever way the targets overlap', async () => {
  const dir = tree();
  const t = (p) => join(dir, p);
  try {
    const all = ['tree/s1/a.tsfile', 'tree/s1/b.tsfile', 'tree/s2/a.tsfile', 'tree/s2/b.tsfile'].map(t);
    assert.deepEqual(await files([t('tree'), t('tree/s1')]), all);
    assert.deepEqual(await files([t('tree/s1'), t('tree')]), all);
    assert.deepEqual(await files([t('tree'), t('tree/s2/b.tsfile')]), all);
    assert.deepEqual(await files([t('tree/s2/b.tsfile'), t('tree')]), [all[3], ...all.slice(0, 3)]);
    assert.deepEqual(await files([t('tree/s1/a.tsfile'), t('tree/s1/a.tsfile'), t('link.tsfile')]), [all[0]]);
    assert.deepEqual(await files([t('tree/s1/../s1'), t('tree/s1/')]), all.slice(0, 2)); // (a walk's names are joined, so normalized)
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the CLI: a summary that counts each file once, with a manifest too (a first scan and a rescan)', () => {
  const dir = tree();
  try {
    const manifest = join(dir, 'm.manifest');
    for (const extra of [[], ['--manifest', manifest], ['--manifest', manifest]]) {
      const r = spawnSync(process.execPath, [CLI, 'scan', 'tree', 'tree/s1', 'tree/s2/a.tsfile', '--path', 'root.sg1.d1.s1', '--json', ...extra], { cwd: dir, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
      assert.deepEqual(lines.slice(0, -1).map((l) => l.file), ['tree/s1/a.tsfile', 'tree/s1/b.tsfile', 'tree/s2/a.tsfile', 'tree/s2/b.tsfile'], extra.join(' '));
      assert.equal(lines.at(-1).summary.files, 4, extra.join(' '));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

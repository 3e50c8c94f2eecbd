// The README's Spark recipe, run as it stands: PySpark in local mode (PyPI, into .tools/spark by
// scripts/setup.sh --spark; Java 17 from Debian) pipes each partition of a file list through the
// CLI of the packed tarball, and the files it says a query must read are exactly those a local
// scan of the same files says may hold the path (or could not be read).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, installedApp, readmeRecipe } from './packed.mjs';
import { scanTsFiles } from '../../js/node.js';
import { buildFleet } from '../js/fleet.mjs';

const SPARK = join(ROOT, '.tools/spark/bin');
const PATH = 'root.sg1.d1.s1';
const ready = existsSync(join(SPARK, 'spark-submit')) && spawnSync('java', ['-version']).status === 0;

let app;
let fleet;
before(() => {
  if (!ready) return;
  app = installedApp('spark');
  fleet = mkdtempSync(join(tmpdir(), 'tsfile-bloom-spark-fleet-'));
});
after(() => {
  app?.cleanup();
  if (fleet) rmSync(fleet, { recursive: true, force: true });
});

test('the Spark recipe prunes a fleet as a local scan does', { skip: ready ? false : 'PySpark or Java is not installed (bash scripts/setup.sh --spark)' }, async () => {
  const entries = buildFleet(fleet, { count: 200, hostile: true });
  const files = entries.filter((e) => e.file.endsWith('.tsfile')).map((e) => e.file);
  const list = join(app.dir, 'files.txt');
  writeFileSync(list, `${files.join('\n')}\n`);
  const recipe = readmeRecipe('spark');
  for (const [file, text] of Object.entries(recipe.files)) writeFileSync(join(app.dir, file), text);
  const [command] = recipe.commands;
  const r = spawnSync('bash', ['-c', command.replace('files.txt', list).replace('root.sg1.d1.s1', PATH)], {
    cwd: app.dir,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    // tsfile-bloom on the PATH as `npm i tsfile-bloom` puts it; Spark's own scripts beside it.
    env: { ...process.env, PATH: `${join(app.dir, 'node_modules/.bin')}:${SPARK}:${process.env.PATH}`, PYSPARK_PYTHON: join(SPARK, 'python') },
  });
  assert.equal(r.status, 0, r.stderr.slice(-4000));
  const out = JSON.parse(r.stdout.trim().split('\n').at(-1));
  const local = [];
  for await (const rec of scanTsFiles(files, { paths: [PATH] })) if (!(rec.ok && rec.results.every((x) => x.verdict === 'absent'))) local.push(rec.file);
  assert.equal(out.files, files.length);
  assert.deepEqual([...out.to_read].sort(), [...local].sort());
  assert.ok(local.length > 0 && local.length < files.length, `${local.length} of ${files.length} to read`);
});

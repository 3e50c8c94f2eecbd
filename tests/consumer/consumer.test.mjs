// The package as a user gets it: `npm pack`, install the tarball into a scratch
// project, then ESM import, CJS require, the CLI, a TypeScript type-check and a
// Vite-built page in headless Chromium. Expected values come from the fixture
// manifest (the C++ writer's data), not from our code.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(ROOT, 'tests/fixtures/tsfile');
const manifest = JSON.parse(readFileSync(join(FIXTURES, 'manifest.json'), 'utf8'));
const entries = Array.isArray(manifest) ? manifest : manifest.files;
const TEN_K = entries.find((e) => e.name === 'tree_10k_series');
const BIN = (name) => join(ROOT, 'node_modules/.bin', name);
const LDB = JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/leveldb/manifest.json'), 'utf8')).tables.find((t) => t.bits_per_key === 10);

const work = mkdtempSync(join(tmpdir(), 'tsfile-bloom-consumer-'));
const app = join(work, 'app');
let tarball;

test.before(() => {
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' }));
  tarball = join(work, packed[0].filename);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer-app', private: true, type: 'module' }));
  execFileSync('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline'], { cwd: app, stdio: 'pipe' });
  cpSync(join(FIXTURES, 'tree_10k_series.tsfile'), join(app, 'tree_10k_series.tsfile'));
  cpSync(join(ROOT, 'tests/fixtures/leveldb', LDB.file), join(app, 'table.ldb'));
});

test.after(() => rmSync(work, { recursive: true, force: true }));

test('the tarball ships the package and nothing else', () => {
  const files = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: ROOT, encoding: 'utf8' }))[0].files.map((f) => f.path);
  for (const f of ['js/node.js', 'js/browser.js', 'js/web.js', 'js/index.d.ts', 'js/cli.js', 'dist/cjs/index.cjs', 'dist/cjs/index.d.cts', 'dist/web/tsfile_bloom_bg.wasm', 'dist/web/leveldb_bg.wasm', 'dist/web/leveldb.js', 'package.json', 'README.md', 'LICENSE']) {
    assert.ok(files.includes(f), `missing ${f}`);
  }
  assert.ok(!files.some((f) => /^(src|tests|www|scripts|target|benches)\//.test(f)), files.join(' '));
  const pkg = JSON.parse(readFileSync(join(app, 'node_modules/tsfile-bloom/package.json'), 'utf8'));
  assert.equal(pkg.dependencies, undefined, 'no runtime dependencies');
});

const USE = `
const file = './tree_10k_series.tsfile';
const bytes = new Uint8Array(fs.readFileSync(file));
const out = {};
for (const [kind, src] of Object.entries({ path: file, uint8array: bytes, arraybuffer: bytes.slice().buffer, blob: new Blob([bytes]) })) {
  const t = await openTsFile(src);
  const series = await t.series();
  const paths = series.map((s) => s.path);
  const absent = Array.from({ length: 300 }, (_, i) => 'root.nowhere.d' + i + '.s' + i)
    .find((p) => t.bloomFilter.probe(p).verdict === 'absent' && t.bloomFilter.probe(p, { variant: 'zero-extended' }).verdict === 'absent');
  const verdicts = t.probeMany([...paths, absent]).map((v) => v.verdict);
  out[kind] = { bitCount: t.bloomFilter.bitCount, k: t.bloomFilter.hashFunctionCount, series: series.length,
    distinct: new Set(paths).size, maybe: verdicts.slice(0, -1).every((v) => v === 'maybe'), absent: verdicts.at(-1) };
  await t.close();
}
try { await openTsFile(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18])); } catch (e) {
  out.garbage = { isError: e instanceof Error, kind: e.kind, offset: e.offset };
}
out.hash = hash32('root.sg.d.s1', 5);
const table = await openLevelDbTable('./table.ldb');
out.leveldb = { policy: table.filterPolicy, k: table.filters.find((f) => f.length > 0).k,
  firstKey: table.probe(Uint8Array.from(Buffer.from(process.env.LDB_KEY, 'hex'))).verdict };
table.close();
console.log(JSON.stringify(out));
`;

function checkUse(stdout) {
  const out = JSON.parse(stdout);
  for (const kind of ['path', 'uint8array', 'arraybuffer', 'blob']) {
    assert.deepEqual(out[kind], {
      bitCount: TEN_K.bloom.bit_count, k: TEN_K.bloom.hash_function_count, series: 10000, distinct: 10000, maybe: true, absent: 'absent',
    }, kind);
  }
  assert.deepEqual(out.garbage, { isError: true, kind: 'bad_head_magic', offset: 0 });
  assert.equal(out.hash, -1267668613); // docs/bloom-filter.md §8
  assert.deepEqual(out.leveldb, { policy: LDB.filter_policy, k: LDB.expected_k, firstKey: 'maybe' });
}

test('ESM import in Node', () => {
  writeFileSync(join(app, 'use.mjs'), `import fs from 'node:fs';\nimport { openTsFile, openLevelDbTable, hash32 } from 'tsfile-bloom';\n${USE}`);
  checkUse(execFileSync(process.execPath, ['use.mjs'], { cwd: app, encoding: 'utf8', env: { ...process.env, LDB_KEY: LDB.live_keys[0] } }));
});

test('CJS require in Node', () => {
  writeFileSync(join(app, 'use.cjs'), `const fs = require('node:fs');\nconst { openTsFile, openLevelDbTable, hash32 } = require('tsfile-bloom');\n(async () => {${USE}})();`);
  checkUse(execFileSync(process.execPath, ['use.cjs'], { cwd: app, encoding: 'utf8', env: { ...process.env, LDB_KEY: LDB.live_keys[0] } }));
});

test('the CLI from the installed package', () => {
  const r = spawnSync(join(app, 'node_modules/.bin/tsfile-bloom'), ['inspect', 'tree_10k_series.tsfile', '--json'], { cwd: app, encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.bloom_filter.bit_count, TEN_K.bloom.bit_count);
  assert.equal(j.series.length, 10000);
});

test('TypeScript type-checks a user program (ESM and CJS)', () => {
  writeFileSync(join(app, 'example.mts'), `
import { openTsFile, BloomFilter, hash32, type FileProbeResult, type TsFileBloomError } from 'tsfile-bloom';
const h: number = hash32('root.a.b', 5, 'zero-extended');
const f: BloomFilter = BloomFilter.withCapacity(10, 0.05).add('root.a.b');
const verdict: 'absent' | 'maybe' = f.probe('root.a.b', { charset: 'GBK' }).verdict;
const compact = f.probeMany(['x'], { compact: true });
const data: Int32Array = compact.data;
const t = await openTsFile('x.tsfile');
const p: FileProbeResult = t.probe('root.a.b');
const audit = await t.audit();
const status: string | undefined = audit?.status;
try { BloomFilter.decode(new Uint8Array([0])); } catch (e) { const k: string = (e as TsFileBloomError).kind; }
await t.close();
export { h, verdict, data, p, status };
`);
  writeFileSync(join(app, 'example.cts'), `
import tb = require('tsfile-bloom');
const n: number = tb.hash32('root.a.b', 5);
export = n;
`);
  writeFileSync(join(app, 'bad.mts'), `import { hash32 } from 'tsfile-bloom';\nconst s: string = hash32('x', 5);\nexport { s };\n`);
  const tsconfig = { compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, lib: ['es2022', 'dom'] } };
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ ...tsconfig, files: ['example.mts', 'example.cts'] }));
  const ok = spawnSync(BIN('tsc'), ['-p', 'tsconfig.json'], { cwd: app, encoding: 'utf8' });
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  // And the declarations really constrain: a wrong type is caught.
  writeFileSync(join(app, 'tsconfig.bad.json'), JSON.stringify({ ...tsconfig, files: ['bad.mts'] }));
  const bad = spawnSync(BIN('tsc'), ['-p', 'tsconfig.bad.json'], { cwd: app, encoding: 'utf8' });
  assert.notEqual(bad.status, 0);
  assert.match(bad.stdout, /TS2322/);
});

test('a Vite-built app runs in headless Chromium', async () => {
  mkdirSync(join(app, 'public'), { recursive: true });
  cpSync(join(FIXTURES, 'tree_10k_series.tsfile'), join(app, 'public/sample.tsfile'));
  writeFileSync(join(app, 'index.html'), `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><pre id="out"></pre><script type="module" src="/main.js"></script></body></html>`);
  writeFileSync(join(app, 'main.js'), `
import { openTsFile, hash32, BloomFilter } from 'tsfile-bloom';
const blob = await (await fetch('/sample.tsfile')).blob();
const t = await openTsFile(blob);
const series = await t.series();
const verdicts = t.probeMany(series.slice(0, 100).map((s) => s.path));
const out = { hash: hash32('root.sg.d.s1', 5), bitCount: t.bloomFilter.bitCount, series: series.length,
  maybe: verdicts.every((v) => v.verdict === 'maybe'), k: BloomFilter.withCapacity(1000).hashFunctionCount };
document.getElementById('out').textContent = JSON.stringify(out);
`);
  const build = spawnSync(BIN('vite'), ['build', '--logLevel', 'warn'], { cwd: app, encoding: 'utf8' });
  assert.equal(build.status, 0, build.stdout + build.stderr);
  const { startServer } = await import(join(ROOT, 'scripts/serve.mjs'));
  const server = await startServer({ port: 0, root: join(app, 'dist') + '/' });
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => document.getElementById('out').textContent.length > 0, null, { timeout: 20000 });
    const out = JSON.parse(await page.textContent('#out'));
    assert.deepEqual(out, { hash: -1267668613, bitCount: TEN_K.bloom.bit_count, series: 10000, maybe: true, k: 5 });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.close();
  }
});

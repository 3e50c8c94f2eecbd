// The packed tarball bundled for browsers by each bundler the README has a recipe for (Vite,
// webpack, Rollup, esbuild, `bun build`), exactly as the recipe says, and the bundle run in
// headless Chromium: every file opened from its URL with default options and from its bytes,
// the URLs scanned, the lazily loaded charsets and LevelDB modules used. The one bundle is then
// served by each server users run (nginx, npm's http-server, Vite's dev and preview servers,
// Python's http.server). Every result must equal the local open of the same file in Node
// (tests/consumer/checks.js is the code both run), whose own figures are held to the fixture
// manifests (the writers' values).
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../e2e/harness.mjs';
import { SERVERS, NGINX } from '../js/servers.mjs';
import { ROOT, installedApp, readmeRecipe } from './packed.mjs';
import { everything } from './checks.js';
import * as local from '../../js/node.js';

const FIXTURES = join(ROOT, 'tests/fixtures');
const tsManifest = JSON.parse(readFileSync(join(FIXTURES, 'tsfile/manifest.json'), 'utf8'));
const javaManifest = JSON.parse(readFileSync(join(FIXTURES, 'java/manifest.json'), 'utf8'));
const LDB = JSON.parse(readFileSync(join(FIXTURES, 'leveldb/manifest.json'), 'utf8')).tables.find((t) => t.bits_per_key === 10);
// JDK 17's own bytes for a GBK string (tests/reference/JavaCharsets.java dumped them).
const GBK_CASE = JSON.parse(readFileSync(join(FIXTURES, 'java_charsets.json'), 'utf8')).cases.find((c) => c.charset === 'GBK' && /[^\x00-\x7f]/.test(c.text));

// A C++ file whose TsFileMetadata lies beyond the tail window, a small one, Java files from a
// UTF-8 and a GBK JVM (the GBK one needs the charsets module after its index is read), and two
// hostile ones (typed errors).
const FILES = [
  'tsfile/tree_10k_series.tsfile',
  'tsfile/table_unicode.tsfile',
  'java/utf8/tree_quoted_unicode.tsfile',
  'java/gbk/tree_quoted_unicode.tsfile',
  'tsfile/hostile_truncated_in_metadata.tsfile',
  'tsfile/hostile_bad_head_magic.tsfile',
];
const SCAN_PATHS = ['root.sg1.d1.s1', 'root.nowhere.d.s'];

// What main.js imports the API from: the package itself where the bundler copies
// `new URL('…', import.meta.url)` assets, else the recipe's tsfile.js (the web entry, initialised
// with the .wasm files the bundler emits).
const BUNDLERS = {
  vite: { tools: ['vite'], api: 'tsfile-bloom' },
  webpack: { tools: ['webpack', 'webpack-cli'], api: 'tsfile-bloom' },
  rollup: { tools: ['rollup', '@rollup/plugin-node-resolve', '@web/rollup-plugin-import-meta-assets'], api: 'tsfile-bloom' },
  esbuild: { tools: ['esbuild'], api: './tsfile.js' },
  'bun build': { tools: ['bun'], api: './tsfile.js' },
};

const MAIN = (api) => `
import * as api from '${api}';
import { runChecks } from './checks.js';
const bytesOf = async (url) => new Uint8Array(await (await fetch(url)).arrayBuffer());
try {
  const files = ${JSON.stringify(FILES)}.map((f) => new URL('files/' + f, location.href).href);
  window.__result = await runChecks(api, { files, bytesOf, leveldb: await bytesOf('files/table.ldb'), scanPaths: ${JSON.stringify(SCAN_PATHS)}, gbkText: ${JSON.stringify(GBK_CASE.text)} });
} catch (e) {
  window.__result = { failed: String(e && e.stack || e) };
}
document.body.dataset.done = '1';
`;
const INDEX = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><script type="module" src="main.js"></script></body></html>`;

let app;
let browser;
/** The local expectation, per fixture: the same checks in Node on the file itself. */
const expected = {};

before(async () => {
  const tools = [...new Set(Object.values(BUNDLERS).flatMap((b) => b.tools))];
  app = installedApp('bundlers', { tools });
  for (const rel of FILES) {
    const t = await local.openTsFile(join(FIXTURES, rel)).catch((e) => e);
    expected[rel] = t instanceof Error ? { error: { kind: t.kind, offset: t.offset, message: t.message } } : await everything(t).finally(() => t.close());
  }
  const records = [];
  const scan = local.scanTsFiles(FILES.map((f) => join(FIXTURES, f)), { paths: SCAN_PATHS, concurrency: 1 });
  for await (const r of scan) records.push(r);
  expected.scan = records.map(({ file, bytesRead, reads, ...rest }) => rest);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  if (!process.env.KEEP_APPS) app?.cleanup();
});

test('the local expectations hold the writers’ own figures (manifests)', () => {
  const tenK = tsManifest.find((e) => e.file === 'tree_10k_series.tsfile');
  assert.equal(expected['tsfile/tree_10k_series.tsfile'].bloomInfo.bitCount, tenK.bloom.bit_count);
  assert.equal(expected['tsfile/tree_10k_series.tsfile'].series, 10000);
  const gbk = javaManifest.files.find((e) => e.file === 'gbk/tree_quoted_unicode.tsfile');
  assert.equal(expected['java/gbk/tree_quoted_unicode.tsfile'].bloomInfo.bitCount, gbk.bloom.bit_count);
  assert.equal(expected['java/gbk/tree_quoted_unicode.tsfile'].series, gbk.series_count);
  assert.equal(expected['java/gbk/tree_quoted_unicode.tsfile'].audit.charset, 'GBK');
  assert.equal(expected['tsfile/hostile_bad_head_magic.tsfile'].error.kind, 'bad_head_magic');
});

/** Writes the recipe's files and main.js into `dir`, runs its commands there. */
function buildWithRecipe(name, dir) {
  const recipe = readmeRecipe(name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(recipe.files)) writeFileSync(join(dir, file), text);
  writeFileSync(join(dir, 'main.js'), MAIN(BUNDLERS[name].api));
  cpSync(join(ROOT, 'tests/consumer/checks.js'), join(dir, 'checks.js'));
  if (name === 'vite') writeFileSync(join(dir, 'index.html'), INDEX);
  assert.ok(recipe.commands.length > 0, `the ${name} recipe has a command`);
  for (const command of recipe.commands) {
    const r = spawnSync('bash', ['-c', command], { cwd: dir, encoding: 'utf8', env: { ...process.env, PATH: `${join(ROOT, 'node_modules/.bin')}:${process.env.PATH}` } });
    assert.equal(r.status, 0, `${name}: ${command}\n${r.stdout}${r.stderr}`);
  }
  return recipe;
}

/** The files a page needs beside the bundle: its index.html (unless the bundler wrote one) and the fixtures. */
function addPageFiles(out, { index = true } = {}) {
  if (index) writeFileSync(join(out, 'index.html'), INDEX);
  for (const rel of FILES) cpSync(join(FIXTURES, rel), join(out, 'files', rel));
  cpSync(join(FIXTURES, 'leveldb', LDB.file), join(out, 'files/table.ldb'));
}

async function runPage(origin, path = '/') {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console.error: ${m.text()}`));
  page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()} ${r.url()}`));
  try {
    await page.goto(`${origin}${path}`);
    await page.waitForFunction(() => document.body?.dataset.done === '1', null, { timeout: 60_000 });
    return { result: await page.evaluate(() => window.__result), problems };
  } finally {
    await context.close();
  }
}

/** The page's results against the local expectations; `urlResult(rel)` overrides what a URL open must give. */
function assertMatches({ result, problems }, where, { urlResult = () => undefined, allowedProblems = () => false } = {}) {
  assert.equal(result.failed, undefined, `${where}: ${result.failed}`);
  assert.deepEqual(problems.filter((p) => !allowedProblems(p)), [], where);
  for (const rel of FILES) {
    const url = Object.keys(result.fromUrl).find((u) => u.endsWith(`/files/${rel}`));
    assert.ok(url, `${where}: ${rel} was opened`);
    assert.deepEqual(result.fromBytes[url], expected[rel], `${where}: ${rel} from bytes`);
    assert.deepEqual(result.fromUrl[url], urlResult(rel) ?? expected[rel], `${where}: ${rel} from its URL`);
  }
  assert.equal(Buffer.from(result.gbk).toString('hex'), GBK_CASE.bytes, `${where}: GBK`);
  assert.deepEqual(result.leveldb, { policy: LDB.filter_policy, filters: result.leveldb.filters }, `${where}: LevelDB`);
  assert.ok(result.leveldb.filters > 0);
}

const built = {};

describe('bundlers, each by its README recipe, in Chromium (served by nginx)', { skip: NGINX ? false : 'nginx is not installed (bash scripts/setup.sh --nginx)' }, () => {
  for (const name of Object.keys(BUNDLERS)) {
    test(name, async () => {
      const dir = join(app.dir, name.replace(' ', '-'));
      buildWithRecipe(name, dir);
      const out = join(dir, 'dist');
      addPageFiles(out, { index: name !== 'vite' });
      built[name] = { dir, out };
      const server = await SERVERS.nginx(out);
      try {
        const run = await runPage(server.origin);
        assertMatches(run, name);
        // nginx honours suffix ranges: every URL opened in 2 requests, 3 when TsFileMetadata
        // lies beyond the tail window (tree_10k_series), before loadIndex.
        assert.ok(Object.values(run.result.requests).every((n) => n == null || n <= 4), JSON.stringify(run.result.requests));
        const strip = ({ file, ...rest }) => rest;
        assert.deepEqual(run.result.scan.records.map(strip), expected.scan, `${name}: scanTsFiles(urls)`);
      } finally {
        await server.stop();
      }
    });
  }
});

describe('one bundle served by the servers users run, in Chromium', () => {
  for (const name of ['http-server', 'vite preview', 'python http.server']) {
    test(name, async (t) => {
      if (!built.vite) return t.skip('the Vite bundle was not built');
      const server = await SERVERS[name](built.vite.out);
      try {
        const run = await runPage(server.origin);
        if (name === 'python http.server') {
          // No Range support: a file larger than the tail window is refused with the typed
          // range_ignored error (a 200 the page did not ask for is not read); smaller ones are
          // their own whole body.
          const big = (rel) => readFileSync(join(FIXTURES, rel)).length > 4096;
          assertMatches(run, name, {
            urlResult: (rel) => (big(rel) ? { error: run.result.fromUrl[Object.keys(run.result.fromUrl).find((u) => u.endsWith(rel))].error } : undefined),
          });
          for (const rel of FILES.filter(big)) {
            const err = run.result.fromUrl[Object.keys(run.result.fromUrl).find((u) => u.endsWith(rel))].error;
            assert.equal(err.kind, 'io', rel);
            assert.match(err.message, /ignored the Range request.*allowFullDownload/, rel);
          }
        } else {
          // http-server answers the first suffix range with 416 (which the browser logs as a failed
          // load); the open then asks with explicit ranges, and so does every later one: once per page.
          const refusal = (p) => name === 'http-server' && /\b416\b/.test(p);
          assert.ok(run.problems.filter((p) => p.startsWith('HTTP') && refusal(p)).length <= 1, run.problems.join('\n'));
          assertMatches(run, name, { allowedProblems: refusal });
          const strip = ({ file, ...rest }) => rest;
          assert.deepEqual(run.result.scan.records.map(strip), expected.scan, `${name}: scanTsFiles(urls)`);
        }
      } finally {
        await server.stop();
      }
    });
  }

  test('vite dev (the app served from source)', async (t) => {
    if (!built.vite) return t.skip('the Vite bundle was not built');
    // The dev server serves the source and public/: the fixtures go there.
    addPageFiles(join(built.vite.dir, 'public'), { index: false });
    const server = await startViteDev(built.vite.dir);
    try {
      const run = await runPage(server.origin);
      assertMatches(run, 'vite dev');
      const strip = ({ file, ...rest }) => rest;
      assert.deepEqual(run.result.scan.records.map(strip), expected.scan, 'vite dev: scanTsFiles(urls)');
    } finally {
      await server.stop();
    }
  });
});

/** `vite` (the dev server) in the app's directory, with the app's own config, on a free port. */
async function startViteDev(dir) {
  const { freePort } = await import('../js/servers.mjs');
  const { spawn } = await import('node:child_process');
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), '--host', '127.0.0.1', '--port', String(port), '--strictPort'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 400; i++) {
    if (await fetch(origin).then((r) => r.ok, () => false)) break;
    if (child.exitCode != null) throw new Error(`vite exited: ${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { origin, stop: () => new Promise((r) => (child.exitCode != null ? r() : (child.once('exit', r), child.kill('SIGTERM')))) };
}

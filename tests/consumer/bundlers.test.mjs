// The packed tarball bundled for browsers by each bundler docs/bundlers.md has a recipe for (Vite,
// webpack, rspack, Rollup, esbuild, `bun build`), exactly as the recipe says, and the bundle run in
// headless Chromium: every file opened from its URL with default options and from its bytes,
// the URLs scanned, the lazily loaded charsets and LevelDB modules used, and the package's Worker
// (worker-client) started as the recipe says, opening a file and probing it in the bundled
// worker, with no request failing (a worker copied without its imports 404s them). The one bundle is then
// served by each server users run (nginx, npm's http-server, Vite's dev and preview servers,
// Python's http.server). Every result must equal the local open of the same file in Node
// (tests/consumer/checks.js is the code both run), whose own figures are held to the fixture
// manifests (the writers' values).
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../e2e/harness.mjs';
import { SERVERS, NGINX, freePort } from '../js/servers.mjs';
import { ROOT, installedApp, readmeRecipe } from './packed.mjs';
import { FIXTURES, WORKER_FILE, assertMatches, checksArguments, copyFiles, localExpectations, workerExpectation } from './matrix.mjs';

// What main.js imports the API from: the package itself where the bundler copies
// `new URL('…', import.meta.url)` assets, else the recipe's tsfile.js (the web entry, initialised
// with the .wasm files the bundler emits). How it starts the Worker: the package's own where the
// bundler follows `new Worker(new URL(…, import.meta.url))` (DEFAULT_WORKER), else the recipe's
// tsfile-worker.js, built as an entry of its own (OWN_WORKER; the recipe says so in these words).
const DEFAULT_WORKER = 'createWorker()';
const OWN_WORKER = "createWorker(new Worker(new URL('./tsfile-worker.js', import.meta.url), { type: 'module' }))";
const BUNDLERS = {
  vite: { tools: ['vite'], api: 'tsfile-bloom', worker: DEFAULT_WORKER },
  webpack: { tools: ['webpack', 'webpack-cli'], api: 'tsfile-bloom', worker: DEFAULT_WORKER },
  rspack: { tools: ['@rspack/core', '@rspack/cli'], api: 'tsfile-bloom', worker: DEFAULT_WORKER },
  rollup: { tools: ['rollup', '@rollup/plugin-node-resolve', '@web/rollup-plugin-import-meta-assets'], api: 'tsfile-bloom', worker: OWN_WORKER },
  esbuild: { tools: ['esbuild'], api: './tsfile.js', worker: OWN_WORKER },
  'bun build': { tools: ['bun'], api: './tsfile.js', worker: OWN_WORKER },
};

const MAIN = ({ api, worker }, workerPaths) => `
import * as api from '${api}';
import { createWorker } from 'tsfile-bloom/worker-client';
import { runChecks, workerAnswers } from './checks.js';
const bytesOf = async (url) => new Uint8Array(await (await fetch(url)).arrayBuffer());
try {
  window.__result = await runChecks(api, ${checksArguments('location.href')});
  window.__result.worker = await workerAnswers(${worker}, await bytesOf(new URL('files/${WORKER_FILE}', location.href).href), ${JSON.stringify(workerPaths)});
} catch (e) {
  window.__result = { failed: String(e && e.stack || e) };
}
document.body.dataset.done = '1';
`;
const INDEX = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><script type="module" src="main.js"></script></body></html>`;

let app;
let browser;
/** The local expectation (matrix.mjs), and the worker's. */
let expected;
let worker;

before(async () => {
  const tools = [...new Set(Object.values(BUNDLERS).flatMap((b) => b.tools))];
  app = installedApp('bundlers', { tools });
  expected = await localExpectations();
  worker = await workerExpectation();
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  if (!process.env.KEEP_APPS) app?.cleanup();
});

/** Writes the recipe's files and main.js into `dir`, runs its commands there. */
function buildWithRecipe(name, dir) {
  const recipe = readmeRecipe(name, 'docs/bundlers.md');
  if (BUNDLERS[name].worker === OWN_WORKER) assert.ok(recipe.text.includes(OWN_WORKER) && recipe.files['tsfile-worker.js'], `the ${name} recipe starts its own tsfile-worker.js`);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(recipe.files)) writeFileSync(join(dir, file), text);
  writeFileSync(join(dir, 'main.js'), MAIN(BUNDLERS[name], worker.paths));
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
  copyFiles(out);
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

const built = {};

describe('bundlers, each by its recipe (docs/bundlers.md), in Chromium (served by nginx)', { skip: NGINX ? false : 'nginx is not installed (bash scripts/setup.sh --nginx)' }, () => {
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
        assert.deepEqual(run.problems, [], name);
        assertMatches(run.result, expected, name);
        assert.deepEqual(run.result.worker, worker.answers, `${name}: the bundled worker`);
        // nginx honours suffix ranges: 2 requests to open, one more when TsFileMetadata lies
        // beyond the tail window, one for the index region outside it (loadIndex).
        for (const [url, n] of Object.entries(run.result.requests)) assert.ok(n == null || n <= 4, `${url}: ${n} requests`);
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
          assert.deepEqual(run.problems, [], name);
          const refused = [];
          assertMatches(run.result, expected, name, {
            scan: false,
            urlResult: (rel, got) => {
              if (!big(rel)) return undefined;
              refused.push(rel);
              assert.equal(got.error?.kind, 'io', rel);
              assert.match(got.error.message, /ignored the Range request.*allowFullDownload/, rel);
              return got;
            },
          });
          assert.deepEqual(refused, ['tsfile/tree_10k_series.tsfile']);
          assert.deepEqual(run.result.worker, worker.answers, `${name}: the bundled worker`);
        } else {
          // http-server answers the first suffix range with 416 (which the browser logs as a failed
          // load); the open then asks with explicit ranges, and so does every later one: once per page.
          const refusal = (p) => name === 'http-server' && /\b416\b/.test(p);
          assert.ok(run.problems.filter((p) => p.startsWith('HTTP') && refusal(p)).length <= 1, run.problems.join('\n'));
          assert.deepEqual(run.problems.filter((p) => !refusal(p)), [], name);
          assertMatches(run.result, expected, name);
          assert.deepEqual(run.result.worker, worker.answers, `${name}: the bundled worker`);
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
      assert.deepEqual(run.problems, [], 'vite dev');
      assertMatches(run.result, expected, 'vite dev');
      assert.deepEqual(run.result.worker, worker.answers, 'vite dev: the worker');
    } finally {
      await server.stop();
    }
  });
});

/** `vite` (the dev server) in the app's directory, with the app's own config, on a free port. */
async function startViteDev(dir) {
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

// Shared by the e2e suites: serve dist/site from inside the test, drive Debian's Chromium
// through playwright-core, and record every console error, page error and request that
// leaves the page's origin (the suites assert the list stays empty).
import { before, after } from 'node:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/**
 * The C++ writer's fixtures (tests/fixtures/tsfile): `{dir, manifest, byName, fixture}`, where
 * `fixture(name)` is the path of the file the manifest names `name`.
 */
export function tsfileFixtures() {
  const dir = fileURLToPath(new URL('../fixtures/tsfile/', import.meta.url));
  const manifest = JSON.parse(readFileSync(`${dir}manifest.json`, 'utf8'));
  const byName = Object.fromEntries(manifest.map((e) => [e.name, e]));
  return { dir, manifest, byName, fixture: (name) => dir + byName[name].file };
}

/** A series' path as the manifest gives its parts: DeviceID segments (null → `null`) and the measurement. */
export const seriesPath = (s) => `${s.device.map((x) => (x == null ? 'null' : x)).join('.')}.${s.measurement}`;

/**
 * The set-up every page suite shares: before its tests the harness starts and `ready(harness)`
 * runs (where a suite keeps the harness and opens its first page); after them the harness closes.
 */
export function suite(ready) {
  let harness = null;
  before(async () => {
    harness = await startHarness();
    await ready(harness);
  });
  after(() => harness?.close());
}

/**
 * The set-up of a suite that needs the page and a folder: the harness, and 30 fixture files (hostile
 * ones among them) in a temporary folder, made before the suite's tests and removed after them.
 * Returns `{harness, folder}`, filled in by the time a test runs.
 */
export function suiteWithFleet(name) {
  const s = { harness: null, folder: null };
  let tmp = null;
  suite(async (harness) => {
    const { buildFleet } = await import('../js/fleet.mjs');
    s.harness = harness;
    tmp = mkdtempSync(join(tmpdir(), `tsfile-bloom-${name}-`));
    s.folder = join(tmp, 'fleet');
    buildFleet(s.folder, { count: 30, withLarge: false, hostile: true });
  });
  after(() => tmp && rmSync(tmp, { recursive: true, force: true }));
  return s;
}

/** Probes `path` in the inspector and waits for its verdict. */
export async function probeOnPage(page, path) {
  await page.fill('[data-testid=path-input]', path);
  await page.evaluate(() => (document.querySelector('[data-testid=verdict]').textContent = ''));
  await page.press('[data-testid=path-input]', 'Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=verdict]').textContent !== '', null, { timeout: 10000 });
}

/** Waits until the folder view's scan is done. */
export const waitFleet = (page) => page.waitForFunction(() => document.body.dataset.fleet === 'done', null, { timeout: 60000 });

/** `root`: what the server serves (dist/site by default; scripts/serve.mjs SOURCE_ROOT for the source tree's www/). */
export async function startHarness({ root } = {}) {
  const server = await startServer({ port: 0, host: '127.0.0.1', root });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const problems = [];
  return {
    origin,
    browser,
    problems,
    /**
     * A page in a fresh context, watched for problems, at the site's root (or `path`).
     * `initScript` (a function) runs in the page before its own scripts.
     */
    async newPage({ initScript, ...options } = {}, path = '/') {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true, ...options });
      if (initScript) await context.addInitScript(initScript);
      const p = await context.newPage();
      p.on('console', (m) => m.type() === 'error' && problems.push(`console.error: ${m.text()}`));
      p.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      p.on('request', (r) => {
        const url = r.url();
        if (!url.startsWith(`${origin}/`) && !url.startsWith('blob:') && !url.startsWith('data:')) problems.push(`request left the origin: ${url}`);
      });
      await p.goto(`${origin}${path}`);
      return p;
    },
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Sets a file on the page's file input and waits until the page settles (ready or error). */
export async function openFile(p, file) {
  await p.evaluate(() => (document.body.dataset.state = 'picking'));
  await p.setInputFiles('[data-testid=file-input]', file);
  await p.waitForFunction(() => ['ready', 'error'].includes(document.body.dataset.state), null, { timeout: 20000 });
}

/**
 * An init script: records in `globalThis.__wasmOnMain` every way the page's main thread could
 * compile or instantiate wasm (a worker has its own global scope, which this does not reach).
 */
export function countMainThreadWasm() {
  globalThis.__wasmOnMain = [];
  const W = globalThis.WebAssembly;
  for (const name of ['instantiate', 'instantiateStreaming', 'compile', 'compileStreaming']) {
    const orig = W[name];
    W[name] = function (...args) {
      globalThis.__wasmOnMain.push(name);
      return orig.apply(this, args);
    };
  }
  for (const name of ['Module', 'Instance']) {
    const Orig = W[name];
    W[name] = new Proxy(Orig, {
      construct(target, args) {
        globalThis.__wasmOnMain.push(`new ${name}`);
        return Reflect.construct(target, args);
      },
    });
  }
}

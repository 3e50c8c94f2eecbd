// The README's three quick starts run as a new user runs them, in one fresh project (`npm init`'s
// CommonJS package.json, the packed tarball installed, `npm i -D vite`): the CLI block's lines as
// written (data.tsfile a fixture, the folder and the s3:// prefix real ones), the Node block as a
// file of its own, and the browser block's main.js with the index.html the text describes, built
// and previewed by Vite and served by its dev server, a fixture set on the file input in
// Chromium. Each block is read from the README (its `<!-- recipe: quickstart-… -->`), so what is
// tested is what the README says. What each must print is the API's own answer in Node for the
// same file and path: one fixture that lists the README's path (maybe), one that does not (absent).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../e2e/harness.mjs';
import { S3S, freePort, startS3s } from '../js/servers.mjs';
import { installedApp, readmeRecipe } from './packed.mjs';
import { FIXTURES } from './matrix.mjs';
import * as local from '../../js/node.js';

const PATH = 'root.sg1.d1.s1';
const FILES = { maybe: 'tsfile/tree_1series.tsfile', absent: 'tsfile/tree_10series.tsfile' };
const KEYS = { accessKeyId: 'AKIATSFILEBLOOMQUICK', secretAccessKey: 'tsfile-bloom-quick-start' };

let app;
/** Per fixture: the API's answer in Node ({verdict, reason}), its series and its bit count. */
const expected = {};

before(async () => {
  app = installedApp('quickstart', { packageJson: { type: 'commonjs' }, tools: ['vite'] });
  for (const [want, rel] of Object.entries(FILES)) {
    const t = await local.openTsFile(join(FIXTURES, rel));
    await t.loadIndex();
    const { verdict, reason } = t.probe(PATH);
    expected[rel] = { verdict, reason, series: (await t.series()).map((s) => s.path), bitCount: t.bloomFilter.bitCount };
    await t.close();
    // The fixture's manifest (the writer's own list) says whether it holds the path.
    const manifest = JSON.parse(readFileSync(join(FIXTURES, rel.replace(/\.tsfile$/, '.json')), 'utf8'));
    const listed = manifest.series.some((s) => [...s.device, s.measurement].join('.') === PATH);
    assert.equal(listed, want === 'maybe', `${rel} lists ${PATH}`);
    assert.equal(verdict, want, `${rel}: the API's verdict`);
  }
});

after(() => {
  if (!process.env.KEEP_APPS) app?.cleanup();
});

const run = (command, args, options = {}) => spawnSync(command, args, { cwd: app.dir, encoding: 'utf8', ...options });

test('Quick start: the CLI, each line as written, for a file that may hold the path and one that cannot', async (t) => {
  let lines = readmeRecipe('quickstart-cli', 'README.md').commands;
  if (!S3S) {
    t.diagnostic('s3s-fs is not installed (bash scripts/setup.sh --s3): the s3:// line is not run');
    lines = lines.filter((l) => !l.includes('s3://'));
  }
  const folder = join(app.dir, 'iotdb-data');
  const store = join(app.dir, 's3-store');
  for (const dir of [folder, join(store, 'bucket/data')]) {
    mkdirSync(dir, { recursive: true });
    for (const rel of Object.values(FILES)) copyFileSync(join(FIXTURES, rel), join(dir, basename(rel)));
  }
  const s3 = S3S ? await startS3s(store, KEYS) : { origin: '', stop: async () => {} };
  const env = { ...process.env, AWS_ACCESS_KEY_ID: KEYS.accessKeyId, AWS_SECRET_ACCESS_KEY: KEYS.secretAccessKey, AWS_REGION: 'us-east-1', AWS_ENDPOINT_URL_S3: s3.origin };
  try {
    for (const [want, rel] of Object.entries(FILES)) {
      copyFileSync(join(FIXTURES, rel), join(app.dir, 'data.tsfile'));
      // The probe lines for each file (their exit status is the verdict), the others once.
      for (const line of lines.filter((l) => want === 'maybe' || / probe /.test(l))) {
        const r = run('bash', ['-c', line.replaceAll('/data/iotdb/data', folder)], { env });
        cliLineHolds(line, r, expected[rel], want);
      }
    }
  } finally {
    await s3.stop();
  }
});

/** What a README CLI line must print and its exit status (docs/cli.md's table). */
function cliLineHolds(line, r, exp, want) {
  const verb = / tsfile-bloom (\w+)/.exec(line)[1];
  const said = `${line}\n(data.tsfile: ${want})\n${r.stdout}${r.stderr}`;
  if (/ -q /.test(line)) {
    // Nothing printed but the status the line echoes.
    assert.equal(`${r.stdout}${r.stderr}`, `${want === 'maybe' ? 0 : 1}\n`, said);
    return;
  }
  assert.equal(r.status, verb === 'probe' && want === 'absent' ? 1 : 0, said);
  assert.equal(r.stderr, '', said);
  if (verb === 'inspect') {
    assert.match(r.stdout, new RegExp(`\\b${exp.bitCount}\\b`), said);
    for (const s of exp.series) assert.ok(r.stdout.includes(s), `${said}: lists ${s}`);
  } else if (verb === 'probe') {
    assert.ok(r.stdout.includes(`${exp.verdict.toUpperCase()} `) && r.stdout.includes(exp.reason), said);
  } else if (verb === 'verify') {
    assert.match(r.stdout, /^verify: ok$/m, said);
  } else if (line.includes('--json')) {
    const records = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    const verdicts = Object.fromEntries(records.filter((x) => x.file).map((x) => [basename(x.file), x.results?.[0]?.verdict]));
    assert.deepEqual(verdicts, Object.fromEntries(Object.entries(FILES).map(([v, f]) => [basename(f), v])), said);
  } else {
    // Each file's line ends with its decision in words, which begins with the verdict (no index read).
    for (const [v, f] of Object.entries(FILES)) assert.match(r.stdout, new RegExp(`/${basename(f)} .* ${PATH}: ${v}: [a-z ]+$`, 'm'), said);
  }
}

test('Quick start: Node, the block as a file of its own, run with node', () => {
  const files = Object.entries(readmeRecipe('quickstart-node', 'README.md').files);
  assert.equal(files.length, 1, 'the Node quick start names the file it is');
  const [[name, text]] = files;
  writeFileSync(join(app.dir, name), text);
  for (const rel of Object.values(FILES)) {
    copyFileSync(join(FIXTURES, rel), join(app.dir, 'data.tsfile'));
    const r = run(process.execPath, [name]);
    assert.equal(r.status, 0, `node ${name} (${rel})\n${r.stdout}${r.stderr}`);
    assert.equal(r.stderr, '', `node ${name} (${rel})`);
    // The probe's result, the last thing logged (util.inspect: its own keys indented by two).
    const probe = r.stdout.slice(r.stdout.lastIndexOf('\n{\n'));
    assert.match(probe, new RegExp(`^  verdict: '${expected[rel].verdict}',$`, 'm'), `${rel}: the probe line\n${r.stdout}`);
    assert.ok(probe.includes(`\n  reason: '${expected[rel].reason}',\n`), `${rel}: the probe's reason\n${r.stdout}`);
    for (const s of expected[rel].series) assert.ok(r.stdout.includes(`${s} `), `${rel}: lists ${s}`);
  }
});

test('Quick start: a browser, main.js as written, built and previewed by Vite and served by its dev server, in Chromium', async () => {
  const recipe = readmeRecipe('quickstart-browser', 'README.md');
  assert.ok(recipe.files['main.js'], 'the browser quick start is main.js');
  writeFileSync(join(app.dir, 'main.js'), recipe.files['main.js']);
  // "an index.html holding <script type="module" src="main.js"></script>"
  const tag = '<script type="module" src="main.js"></script>';
  assert.ok(recipe.text.replace(/\s+/g, ' ').includes(tag), 'the text says what index.html holds');
  writeFileSync(join(app.dir, 'index.html'), `${tag}\n`);
  const build = run('npx', ['vite', 'build']);
  assert.equal(build.status, 0, `npx vite build\n${build.stdout}${build.stderr}`);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    for (const args of [['preview'], []]) {
      const server = await startVite(args);
      try {
        for (const rel of Object.values(FILES)) {
          const exp = expected[rel];
          assert.equal(await pageAnswer(browser, server.origin, join(FIXTURES, rel)), `${exp.verdict}: ${exp.reason}`, `npx vite ${args.join(' ')}: ${rel}`);
        }
      } finally {
        await server.stop();
      }
    }
  } finally {
    await browser.close();
  }
});

/** The page's <output> once a file is set on its file input (with nothing failing on the way). */
async function pageAnswer(browser, origin, file) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console.error: ${m.text()}`));
  page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()} ${r.url()}`));
  // No favicon in the quick start's page: the browser's request for one is not the page's.
  await context.route('**/favicon.ico', (r) => r.fulfill({ status: 204 }));
  try {
    await page.goto(origin);
    await page.locator('input[type=file]').setInputFiles(file);
    await page.waitForFunction(() => document.querySelector('output')?.textContent, null, { timeout: 60_000 });
    assert.deepEqual(problems, []);
    return await page.locator('output').textContent();
  } finally {
    await context.close();
  }
}

/** `npx vite ARGS` (the dev server, or `preview`) in the project, on a free port. */
async function startVite(args) {
  const port = await freePort();
  const child = spawn('npx', ['vite', ...args, '--host', '127.0.0.1', '--port', String(port), '--strictPort'], { cwd: app.dir, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 1200 && !(await fetch(origin).then((r) => r.ok, () => false)); i++) {
    if (child.exitCode != null) throw new Error(`npx vite ${args.join(' ')} exited: ${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  // npx runs vite as its child: the group is stopped.
  const stop = () => new Promise((r) => (child.exitCode != null ? r() : (child.once('exit', r), process.kill(-child.pid, 'SIGTERM'))));
  return { origin, stop };
}

// The packed tarball in each JavaScript runtime the README lists: Node (the machine's and the
// current LTS, ESM and CommonJS), Bun, Deno (with only the permissions the README names) and
// Cloudflare's workerd (a Worker run by `wrangler dev --local`). Each runs tests/consumer/checks.js:
// the files opened from URLs (served by nginx) with default options and from bytes, the URLs
// scanned, the lazily loaded charsets and LevelDB modules — and must equal the local open in
// Node of the same files (matrix.mjs).
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVERS, NGINX, freePort } from '../js/servers.mjs';
import { BIN, NODE_LTS, ROOT, installedApp, readmeRecipe } from './packed.mjs';
import { FIXTURES, LDB, assertMatches, checksArguments, copyFiles, localExpectations } from './matrix.mjs';

let app;
let files; // the nginx serving the fixtures
let expected;

// The program each runtime runs: the origin of the files comes as the first argument.
const RUN_ESM = `
import * as api from 'tsfile-bloom';
import { runChecks } from './checks.js';
const origin = (globalThis.Deno ? Deno.args : process.argv.slice(2))[0];
const bytesOf = async (url) => new Uint8Array(await (await fetch(url)).arrayBuffer());
const base = origin + '/';
console.log(JSON.stringify(await runChecks(api, ${checksArguments('base')})));
`;
const RUN_CJS = `
const api = require('tsfile-bloom');
(async () => {
  const { runChecks } = await import('./checks.js');
  const bytesOf = async (url) => new Uint8Array(await (await fetch(url)).arrayBuffer());
  const base = process.argv[2] + '/';
  console.log(JSON.stringify(await runChecks(api, ${checksArguments('base')})));
})();
`;

before(async () => {
  if (!NGINX) return;
  app = installedApp('runtimes', { tools: ['wrangler'] });
  cpSync(join(ROOT, 'tests/consumer/checks.js'), join(app.dir, 'checks.js'));
  writeFileSync(join(app.dir, 'run.mjs'), RUN_ESM);
  writeFileSync(join(app.dir, 'run.cjs'), RUN_CJS);
  const root = join(app.dir, 'served');
  mkdirSync(root);
  copyFiles(root);
  files = await SERVERS.nginx(root);
  expected = await localExpectations();
});

after(async () => {
  await files?.stop();
  app?.cleanup();
});

function runJson(command, args, where) {
  const r = spawnSync(command, args, { cwd: app.dir, encoding: 'utf8', maxBuffer: 256 << 20, env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 0, `${where}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

describe('runtimes', { skip: NGINX ? false : 'nginx is not installed (bash scripts/setup.sh --nginx)' }, () => {
  test(`Node ${process.version}, ESM and CommonJS`, () => {
    assertMatches(runJson(process.execPath, ['run.mjs', files.origin], 'node esm'), expected, 'Node ESM');
    assertMatches(runJson(process.execPath, ['run.cjs', files.origin], 'node cjs'), expected, 'Node CJS');
  });

  test('Node LTS, ESM and CommonJS', { skip: NODE_LTS ? false : 'no Node LTS build in .tools/node-lts (scripts/setup.sh --node-lts)' }, () => {
    assertMatches(runJson(NODE_LTS, ['run.mjs', files.origin], 'node lts esm'), expected, 'Node LTS ESM');
    assertMatches(runJson(NODE_LTS, ['run.cjs', files.origin], 'node lts cjs'), expected, 'Node LTS CJS');
  });

  test('Bun, ESM and CommonJS', () => {
    assertMatches(runJson(BIN('bun'), ['run.mjs', files.origin], 'bun esm'), expected, 'Bun ESM');
    assertMatches(runJson(BIN('bun'), ['run.cjs', files.origin], 'bun cjs'), expected, 'Bun CJS');
  });

  test('Deno with network access to the file host only (no --allow-read: the wasm comes in as modules)', () => {
    const host = new URL(files.origin).host;
    assertMatches(runJson(BIN('deno'), ['run', `--allow-net=${host}`, 'run.mjs', files.origin], 'deno'), expected, 'Deno');
  });

  test('Deno: bytes with no permission at all; paths and a directory scan with read access to that directory only', () => {
    const ldbHex = readFileSync(join(FIXTURES, 'leveldb', LDB.file)).toString('hex');
    writeFileSync(
      join(app.dir, 'deno-local.mjs'),
      `
import { openTsFile, scanTsFiles, openLevelDbTable, encodePath } from 'tsfile-bloom';
const [mode, arg] = Deno.args;
const out = {};
if (mode === 'bytes') {
  // A file's bytes and a LevelDB table's, from the command line: no file is read.
  const bytes = Uint8Array.from(arg.match(/../g), (h) => parseInt(h, 16));
  const t = await openLevelDbTable(bytes);
  out.leveldb = t.info.filterPolicy;
  out.gbk = Array.from(encodePath('设备', 'GBK'));
} else {
  const t = await openTsFile('served/files/tsfile/tree_10k_series.tsfile');
  out.series = (await t.series()).length;
  await t.close();
  const records = [];
  for await (const r of scanTsFiles('served/files/java'.split(','), { paths: ['root.sg1.d1.s1'], audit: true })) records.push([r.file, r.ok, r.audit?.charset]);
  out.records = records;
}
console.log(JSON.stringify(out));
`,
    );
    const bytes = runJson(BIN('deno'), ['run', 'deno-local.mjs', 'bytes', ldbHex], 'deno bytes');
    assert.deepEqual(bytes, { leveldb: LDB.filter_policy, gbk: [0xc9, 0xe8, 0xb1, 0xb8] });
    const local = runJson(BIN('deno'), ['run', '--allow-read=served', 'deno-local.mjs', 'paths'], 'deno paths');
    assert.equal(local.series, 10000);
    assert.deepEqual(local.records, [
      ['served/files/java/gbk/tree_quoted_unicode.tsfile', true, 'GBK'],
      ['served/files/java/utf8/tree_quoted_unicode.tsfile', true, 'UTF-8'],
    ]);
  });

  test('Cloudflare workerd: a Worker run by wrangler dev --local, per the README recipe', { skip: NODE_LTS ? false : 'wrangler needs Node >= 22 (scripts/setup.sh --node-lts)' }, async () => {
    const dir = join(app.dir, 'worker');
    mkdirSync(dir);
    const recipe = readmeRecipe('workerd');
    for (const [file, text] of Object.entries(recipe.files)) writeFileSync(join(dir, file), text);
    assert.ok(recipe.files['wrangler.toml'], 'the recipe has a wrangler.toml');
    cpSync(join(ROOT, 'tests/consumer/checks.js'), join(dir, 'checks.js'));
    writeFileSync(
      join(dir, 'worker.js'),
      `
import * as api from 'tsfile-bloom';
import { runChecks } from './checks.js';
export default {
  async fetch(request) {
    const base = new URL(request.url).searchParams.get('files') + '/';
    const bytesOf = async (url) => new Uint8Array(await (await fetch(url)).arrayBuffer());
    try {
      return Response.json(await runChecks(api, ${checksArguments('base')}));
    } catch (e) {
      return Response.json({ failed: String(e && e.stack || e) });
    }
  },
};
`,
    );
    const port = await freePort();
    const [command, ...args] = recipe.commands[0].split(' ');
    assert.equal(command, 'wrangler');
    const child = spawn(NODE_LTS, [BIN('wrangler'), ...args, '--port', String(port), '--ip', '127.0.0.1'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1', NO_COLOR: '1' },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    try {
      const origin = `http://127.0.0.1:${port}`;
      let result = null;
      for (let i = 0; i < 600 && !result; i++) {
        if (child.exitCode != null) assert.fail(`wrangler exited: ${output}`);
        result = await fetch(`${origin}/?files=${encodeURIComponent(files.origin)}`).then((r) => (r.ok ? r.json() : null), () => null);
        if (!result) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(result, `no answer from the Worker: ${output}`);
      assertMatches(result, expected, 'workerd');
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode != null ? r() : child.once('exit', r)));
    }
  });
});

// The packed tarball under the test runners a JS developer runs (docs/bundlers.md "Test runners"):
// Jest (CommonJS, Jest's default, in its node and jsdom environments; native ESM in node, and in
// jsdom as the docs' recipe configures it) and Vitest (node, jsdom and happy-dom, each with and
// without server.deps.inline). One fresh project per runner; in it one test file, run in every
// environment (a row), opens a GBK Java file as a File, a Blob, bytes and by path and probes it,
// and scans a folder holding it (in a worker thread), each answer equal to Node's own, and refuses
// a Blob the environment cannot read with a typed error. The runner's JSON report says which tests ran where.
import { test, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installedApp, readmeRecipe } from './packed.mjs';
import { FIXTURES, WORKER_FILE, workerExpectation } from './matrix.mjs';
import * as local from '../../js/node.js';

/** The tests of a row, by title, after the one that names the row and its environment. */
const TESTS = ['a File', 'a Blob', 'bytes (a Buffer)', 'a path', 'a folder scanned (a worker thread)', 'a Blob it cannot read: invalid_argument naming Blob#arrayBuffer()'];

// The test file's body; `api`, `readFileSync` and `ROW` come from the runner's header.
const BODY = `
const expected = JSON.parse(readFileSync('expected.json', 'utf8'));
const bytes = readFileSync(expected.file);
const ua = typeof navigator === 'undefined' ? '' : navigator.userAgent;
const environment = typeof document === 'undefined' ? 'node' : /jsdom/.test(ua) ? 'jsdom' : /HappyDOM/.test(ua) ? 'happy-dom' : ua;

async function probes(source) {
  const t = await api.openTsFile(source);
  try {
    await t.loadIndex();
    return expected.paths.map((p) => t.probe(p));
  } finally {
    await t.close();
  }
}

test('row ' + ROW + ' runs in ' + environment, () => {});
test(${JSON.stringify(TESTS[0])}, async () => expect(await probes(new File([bytes], 'f.tsfile'))).toEqual(expected.probes));
test(${JSON.stringify(TESTS[1])}, async () => expect(await probes(new Blob([bytes]))).toEqual(expected.probes));
test(${JSON.stringify(TESTS[2])}, async () => expect(await probes(bytes)).toEqual(expected.probes));
test(${JSON.stringify(TESTS[3])}, async () => expect(await probes(expected.file)).toEqual(expected.probes));
test(${JSON.stringify(TESTS[4])}, async () => {
  const records = [];
  for await (const { file, bytesRead, reads, ...record } of api.scanTsFiles(['scan'], { paths: expected.paths })) records.push(record);
  expect(records).toEqual(expected.scan);
});
test(${JSON.stringify(TESTS[5])}, async () => {
  class Unreadable extends Blob {
    slice(...range) {
      return new Unreadable([super.slice(...range)]);
    }
  }
  Object.defineProperty(Unreadable.prototype, 'arrayBuffer', { value: undefined });
  const reader = globalThis.FileReader;
  delete globalThis.FileReader;
  try {
    const e = await api.openTsFile(new Unreadable([bytes])).then(() => null, (e) => e);
    expect(e instanceof api.TsFileBloomError).toBe(true);
    expect({ kind: e.kind, argument: e.argument, offset: e.offset }).toEqual({ kind: 'invalid_argument', argument: 'source', offset: null });
    expect(e.message).toContain('Blob#arrayBuffer()');
  } finally {
    if (reader) globalThis.FileReader = reader;
  }
});
`;

const JEST_CJS = `const { readFileSync } = require('node:fs');\nconst api = require('tsfile-bloom');\nconst ROW = globalThis.TSFILE_ROW;\n${BODY}`;
const JEST_ESM = `import { readFileSync } from 'node:fs';\nimport * as api from 'tsfile-bloom';\nconst ROW = globalThis.TSFILE_ROW;\n${BODY}`;
const VITEST = `import { readFileSync } from 'node:fs';\nimport { test, expect } from 'vitest';\nimport * as api from 'tsfile-bloom';\nconst ROW = process.env.TSFILE_ROW;\n${BODY}`;

// Jest's projects: a row's name, environment and test file; the ESM jsdom row adds the recipe's
// jest.config.cjs (which names its setup file).
const jestProject = (row, environment, file, extra = '') =>
  `{ ${extra}displayName: '${row}', testEnvironment: '${environment}', testMatch: ['<rootDir>/${file}'], globals: { TSFILE_ROW: '${row}' } }`;
const JEST_CJS_CONFIG = `module.exports = { projects: [${jestProject('cjs node', 'node', 'runner.test.cjs')}, ${jestProject('cjs jsdom', 'jsdom', 'runner.test.cjs')}] };`;
const JEST_ESM_CONFIG = `module.exports = { projects: [${jestProject('esm node', 'node', 'runner.test.mjs')}, ${jestProject('esm jsdom', 'jsdom', 'runner.test.mjs', "...require('./jest.config.cjs'), ")}] };`;

const VITEST_ENVIRONMENTS = ['node', 'jsdom', 'happy-dom'];
const VITEST_CONFIG = `import { defineConfig } from 'vitest/config';
const project = (environment, inline) => {
  const name = environment + (inline ? ' inline' : '');
  const server = inline ? { deps: { inline: ['tsfile-bloom'] } } : undefined;
  return { test: { name, environment, include: ['runner.test.js'], env: { TSFILE_ROW: name }, server } };
};
export default defineConfig({ test: { projects: ${JSON.stringify(VITEST_ENVIRONMENTS)}.flatMap((e) => [project(e, false), project(e, true)]) } });
`;

let expected;

before(async () => {
  const { paths, answers } = await workerExpectation();
  const scan = [];
  for await (const { file, bytesRead, reads, ...record } of local.scanTsFiles([join(FIXTURES, WORKER_FILE)], { paths })) scan.push(record);
  expected = { file: 'f.tsfile', paths, probes: answers.probes, scan };
});

/** A fresh project with `tools` linked, the fixture and the expectation in it. */
function project(name, tools) {
  const app = installedApp(name, { tools });
  cpSync(join(FIXTURES, WORKER_FILE), join(app.dir, expected.file));
  cpSync(join(FIXTURES, WORKER_FILE), join(app.dir, 'scan', expected.file));
  writeFileSync(join(app.dir, 'expected.json'), JSON.stringify(expected));
  return app;
}

/** Runs a runner's command in `dir`, returns its JSON report (written to report.json). */
function report(dir, args, env = {}) {
  // The bound only keeps a broken build from hanging the suite.
  const r = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', timeout: 300_000, env: { ...process.env, CI: '1', NO_COLOR: '1', ...env } });
  try {
    return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
  } catch {
    assert.fail(`no report from ${args.join(' ')} (exit ${r.status}): ${r.stderr}`);
  }
}

/** Each row ran in its environment and passed every test. */
function assertRows(result, rows, where) {
  const failures = result.testResults.map((f) => [f.message, ...f.assertionResults.flatMap((a) => a.failureMessages)].filter(Boolean).join('\n')).join('\n');
  for (const [row, environment] of rows) {
    const file = result.testResults.find((f) => f.assertionResults.some((a) => a.title.startsWith(`row ${row} runs in `)));
    assert.ok(file, `${where} ${row}: the row did not run:\n${failures}`);
    const got = file.assertionResults.map((a) => [a.title, a.status]);
    assert.deepEqual(got, [`row ${row} runs in ${environment}`, ...TESTS].map((t) => [t, 'passed']), `${where} ${row}:\n${failures}`);
  }
  assert.equal(result.numTotalTests, rows.length * (TESTS.length + 1), `${where}: no test more or less`);
}

describe('test runners', () => {
  test('Jest: CommonJS in node and jsdom (no configuration); native ESM in node, and in jsdom per the recipe', () => {
    const app = project('jest', ['jest', 'jest-environment-jsdom']);
    try {
      const recipe = readmeRecipe('jest-esm', 'docs/bundlers.md');
      for (const [file, text] of Object.entries(recipe.files)) writeFileSync(join(app.dir, file), text);
      assert.deepEqual(recipe.commands, ['NODE_OPTIONS=--experimental-vm-modules jest'], 'the recipe runs Jest with native ESM');
      writeFileSync(join(app.dir, 'runner.test.cjs'), JEST_CJS);
      writeFileSync(join(app.dir, 'runner.test.mjs'), JEST_ESM);
      writeFileSync(join(app.dir, 'jest.cjs.config.cjs'), JEST_CJS_CONFIG);
      writeFileSync(join(app.dir, 'jest.esm.config.cjs'), JEST_ESM_CONFIG);
      const jest = (config, env) => report(app.dir, ['node_modules/jest/bin/jest.js', '--config', config, '--ci', '--json', '--outputFile=report.json'], env);
      assertRows(jest('jest.cjs.config.cjs'), [['cjs node', 'node'], ['cjs jsdom', 'jsdom']], 'Jest');
      assertRows(jest('jest.esm.config.cjs', { NODE_OPTIONS: '--experimental-vm-modules' }), [['esm node', 'node'], ['esm jsdom', 'jsdom']], 'Jest');
    } finally {
      app.cleanup();
    }
  });

  test('Vitest: node, jsdom and happy-dom, each with and without server.deps.inline (no configuration)', () => {
    const app = project('vitest', ['vitest', 'jsdom', 'happy-dom']);
    try {
      writeFileSync(join(app.dir, 'runner.test.js'), VITEST);
      writeFileSync(join(app.dir, 'vitest.config.js'), VITEST_CONFIG);
      const rows = VITEST_ENVIRONMENTS.flatMap((e) => [[e, e], [`${e} inline`, e]]);
      assertRows(report(app.dir, ['node_modules/vitest/vitest.mjs', 'run', '--reporter=json', '--outputFile=report.json']), rows, 'Vitest');
    } finally {
      app.cleanup();
    }
  });
});

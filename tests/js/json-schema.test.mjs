// The JSON Schemas shipped in schemas/ (docs/json.md) against the real CLI's output: every
// report and NDJSON line, over files with and without a filter, an index error, a bad file, a
// LevelDB table, a scan of a folder and its rescan answered from a manifest. The schemas close
// every object (additionalProperties: false) and require every key, so a renamed key or a null
// left out fails — the last tests show that they do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import { RACY_MS } from '../../js/manifest/identity.js';

const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
const TSFILES = fileURLToPath(new URL('../fixtures/tsfile/', import.meta.url));
const LDB = fileURLToPath(new URL('../fixtures/leveldb/ascii_bits4_snappy-000008.ldb', import.meta.url));
const SCHEMAS = fileURLToPath(new URL('../../schemas/', import.meta.url));

const ajv = new Ajv2020({ allErrors: true, strict: true });
for (const name of readdirSync(SCHEMAS)) ajv.addSchema(JSON.parse(readFileSync(join(SCHEMAS, name), 'utf8')));
const schema = (name) => ajv.getSchema(`https://unpkg.com/tsfile-bloom/schemas/${name}.schema.json`);

const run = (args, input) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', input, timeout: 120_000 });
/** `args`' stdout parsed, after checking that the CLI exited with `status`. */
function json(args, status = 0, input) {
  const r = run(args, input);
  assert.equal(r.status, status, `${args.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}
function valid(name, value) {
  const check = schema(name);
  assert.ok(check(value), `${name}: ${JSON.stringify(check.errors, null, 1)}`);
}

const WITH_FILTER = join(TSFILES, 'table_null_tags.tsfile'); // null tags: null device segments
const NO_FILTER = join(TSFILES, 'synthetic_java_null_filter_v4.tsfile');
const V3 = join(TSFILES, 'synthetic_v3_tail.tsfile');
const INDEX_ERROR = join(TSFILES, 'hostile_index_child_offset_before_meta.tsfile');
const BAD = join(TSFILES, 'hostile_bad_tail_magic.tsfile');

test('inspect --json: files with and without a filter, v3, an index error', () => {
  for (const file of [WITH_FILTER, NO_FILTER, V3, join(TSFILES, 'table_multi_tables.tsfile')]) valid('inspect', json(['inspect', file, '--json']));
  const partial = json(['inspect', INDEX_ERROR, '--json'], 1);
  assert.equal(partial.ok, false);
  assert.equal(partial.error.kind, 'bad_index_offset');
  valid('inspect', partial);
});

test('probe --json: with a filter, without one, an index error; LevelDB tables', () => {
  valid('probe', json(['probe', WITH_FILTER, 'nope.d1.s1', '--json'], 1));
  valid('probe', json(['probe', NO_FILTER, 'root.sg.d1.s1', '--json']));
  const unread = json(['probe', INDEX_ERROR, 'root.sg.d1.s1', '--json'], 1);
  assert.equal(unread.index_error.kind, 'bad_index_offset');
  valid('probe', unread);
  valid('leveldb-probe', json(['probe', LDB, 'key00002', 'zzz-past-the-last-key', '--json']));
  valid('leveldb-inspect', json(['inspect', LDB, '--json']));
  valid('leveldb-inspect', json(['verify', LDB, '--json']));
});

test('verify --json, build --json, and a failure before any report', () => {
  valid('verify', json(['verify', WITH_FILTER, '--json']));
  valid('verify', json(['verify', NO_FILTER, '--json']));
  valid('verify', json(['verify', INDEX_ERROR, '--json'], 1));
  valid('build', json(['build', '-', '--json'], 0, 'root.a.b\nroot.a.c\n'));
  for (const [args, status] of [[['inspect', BAD, '--json'], 1], [['probe', join(TSFILES, 'nope.tsfile'), 'x', '--json'], 4]]) {
    const failed = json(args, status);
    assert.equal(failed.ok, false);
    valid('error', failed);
  }
});

/** A scan's NDJSON: each record line valid, and the summary line last. */
function scanLines(args) {
  const r = run(['scan', ...args, '--json']);
  assert.equal(r.status, 1, r.stderr); // the bad file: exit 1, the rest reported
  const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
  const summary = lines.pop();
  for (const record of lines) valid('scan-record', record);
  valid('scan-summary', summary);
  return { records: lines, summary: summary.summary };
}

test('scan --json of a folder (with --audit too) and its rescan answered from a manifest', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsfile-bloom-schema-'));
  const then = Math.floor(Date.now() / 1000) - 3600;
  for (const f of [WITH_FILTER, NO_FILTER, V3, INDEX_ERROR, BAD]) {
    copyFileSync(f, join(dir, f.slice(TSFILES.length)));
    utimesSync(join(dir, f.slice(TSFILES.length)), then, then);
  }
  // Their ctimes are now: past the manifest's racy window, a rescan trusts them (docs/fleet.md).
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 200));
  const paths = ['--path', 'root.sg.d1.s1', '--path', 'nope.d1.s1'];
  const audited = scanLines([dir, ...paths, '--audit']);
  assert.ok(audited.records.some((r) => r.results?.[0].several_hashes != null));
  const manifest = join(dir, 'scan.manifest');
  const first = scanLines([dir, ...paths, '--manifest', manifest]);
  assert.equal(first.summary.manifest.read, 5);
  const again = scanLines([dir, ...paths, '--manifest', manifest]);
  assert.ok(again.summary.manifest.answered > 0, 'the rescan answers from the manifest');
  // A path not asked before: answered from the manifest's kept bytes.
  const more = scanLines([dir, ...paths, '--path', 'root.sg.d2.s1', '--manifest', manifest]);
  assert.ok(more.summary.manifest.answered > 0);
});

test('the schemas fail a renamed key, a null left out, and an unknown key', () => {
  const report = json(['inspect', NO_FILTER, '--json']);
  valid('inspect', report);
  const check = schema('inspect');
  const { bit_count: bitCount, ...omitted } = report.bloom_filter;
  assert.equal(bitCount, null);
  assert.equal(check({ ...report, bloom_filter: omitted }), false, 'a null left out');
  assert.equal(check({ ...report, bloom_filter: { ...omitted, bitCount } }), false, 'a key in camelCase');
  const { audit, ...rest } = report;
  assert.equal(check(rest), false, 'audit left out');
  assert.equal(check({ ...rest, audit, extra: 1 }), false, 'an unknown key');
  const line = run(['scan', NO_FILTER, '--path', 'a.b', '--json']).stdout.split('\n')[0];
  const record = JSON.parse(line);
  valid('scan-record', record);
  const { several_hashes: severalHashes, ...result } = record.results[0];
  assert.equal(schema('scan-record')({ ...record, results: [{ ...result, severalHashes }] }), false, 'results[].severalHashes');
});

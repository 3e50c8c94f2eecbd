// The CLI as a user runs it: help, version, usage errors, plain I/O errors, the `build`
// verb against the independent Java-shaped reference, and empty v3 filters in reports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { javaReference, hex } from './helpers.mjs';

const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/tsfile/', import.meta.url));
const PKG = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const run = (args, input) => spawnSync(process.execPath, [CLI, ...args], { input: input === undefined ? undefined : Buffer.from(input) });
const text = (b) => b.toString('utf8');
const tmp = mkdtempSync(join(tmpdir(), 'tsfile-bloom-cli-'));

test('--help prints the usage on stdout and exits 0; --version prints the package version', () => {
  const h = run(['--help']);
  assert.equal(h.status, 0);
  assert.match(text(h.stdout), /^usage:\n/);
  assert.match(text(h.stdout), /tsfile-bloom build/);
  const v = run(['--version']);
  assert.equal(v.status, 0);
  assert.equal(text(v.stdout).trim(), PKG.version);
});

test('no arguments: usage on stderr, nothing on stdout, exit 2', () => {
  const r = run([]);
  assert.equal(r.status, 2);
  assert.equal(text(r.stdout), '');
  assert.match(text(r.stderr), /^usage:\n/);
});

test('I/O errors are plain sentences with kind io (exit 2)', () => {
  const missing = join(tmp, 'nope.tsfile');
  let r = run(['inspect', missing]);
  assert.equal(r.status, 2);
  assert.equal(text(r.stderr).trim(), `error: io: no such file: ${missing}`);
  r = run(['inspect', tmp, '--json']);
  assert.equal(r.status, 2);
  assert.deepEqual(JSON.parse(text(r.stdout)).error, { kind: 'io', message: `is a directory: ${tmp}`, offset: null, reason: null, status: null });
  r = run(['build', missing, '--json']);
  assert.equal(r.status, 2);
  assert.equal(JSON.parse(text(r.stdout)).error.message, `no such file: ${missing}`);
});

const PATHS = ['root.sg1.d1.s1', 'root.sg1.d1.s2', 'root.sg1.d2.温度', 'root.ln.wf01.wt01.status', 'root.设备.传感器.湿度', 'table1.beijing.null.temp'];

test('build: the serialized filter equals the Java-shaped reference, from a file and from stdin', () => {
  const file = join(tmp, 'paths.txt');
  writeFileSync(file, `${PATHS.join('\r\n')}\n\n`); // CRLF and a blank line: both ignored
  const [expected] = javaReference({ filters: [{ n: PATHS.length, error_rate: 0.05, paths: PATHS }] }).filters;
  const fromFile = run(['build', file]);
  assert.equal(fromFile.status, 0, text(fromFile.stderr));
  assert.equal(hex(fromFile.stdout), expected.encoded);
  const fromStdin = run(['build', '-', '--hex'], PATHS.join('\n'));
  assert.equal(text(fromStdin.stdout).trim(), expected.encoded);
  const out = join(tmp, 'filter.bin');
  assert.equal(run(['build', file, '--out', out]).status, 0);
  assert.equal(hex(readFileSync(out)), expected.encoded);
});

test('build: --capacity, --fpp (clamped like Java), --variant, --charset and --json statistics', () => {
  const file = join(tmp, 'paths2.txt');
  writeFileSync(file, PATHS.join('\n'));
  const cases = [
    { args: ['--capacity', '1000', '--fpp', '0.01'], ref: { n: 1000, error_rate: 0.01, paths: PATHS } },
    { args: ['--fpp', '0.5'], ref: { n: PATHS.length, error_rate: 0.5, paths: PATHS } },
    { args: ['--variant', 'zero-extended'], ref: { n: PATHS.length, error_rate: 0.05, paths: PATHS, signed: false } },
    { args: ['--charset', 'GBK'], ref: { n: PATHS.length, error_rate: 0.05, paths: PATHS, charset: 'gbk' } },
  ];
  const expected = javaReference({ filters: cases.map((c) => c.ref) }).filters;
  cases.forEach((c, i) => {
    const r = run(['build', file, '--hex', ...c.args]);
    assert.equal(r.status, 0, text(r.stderr));
    assert.equal(text(r.stdout).trim(), expected[i].encoded, c.args.join(' '));
    const j = JSON.parse(text(run(['build', file, '--json', ...c.args]).stdout));
    assert.equal(j.bit_count, expected[i].bit_count);
    assert.equal(j.hash_function_count, expected[i].hash_function_count);
    assert.equal(j.paths, PATHS.length);
    assert.equal(j.encoded_length, expected[i].encoded.length / 2);
  });
});

test('build: bad options are usage errors (exit 2): one line naming the flag, nothing on stdout', () => {
  const file = join(tmp, 'paths3.txt');
  writeFileSync(file, 'root.a.b\n');
  for (const [args, says] of [
    [['--capacity', '-3'], /^tsfile-bloom build: --capacity must be a non-negative integer, not "-3"/],
    [['--capacity', 'x'], /--capacity must be a non-negative integer, not "x"/],
    [['--fpp', ''], /--fpp must be a number, not ""/],
    [['--variant', 'nope'], /unknown --variant "nope"/],
    [['--charset', 'nope'], /unknown --charset "nope"/],
    [['--out', join(tmp, 'x'), '--hex'], /--out and --hex exclude each other/],
  ]) {
    const r = run(['build', file, ...args]);
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(text(r.stdout), '');
    assert.match(text(r.stderr), says);
    assert.match(text(r.stderr), /^[^\n]+\n$/, `one line: ${text(r.stderr)}`);
  }
});

test('an empty v3 filter reports its stored geometry with present false', () => {
  const manifest = JSON.parse(readFileSync(join(FIXTURES, 'synthetic_v3_empty_filter.json'), 'utf8'));
  // The generator wrote 00 | uvarint bit_count | uvarint k: decode them here, independently.
  const bytes = Buffer.from(manifest.bloom.encoding_hex, 'hex');
  assert.equal(bytes[0], 0);
  let pos = 1;
  const uvarint = () => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      const b = bytes[pos++];
      v |= (b & 0x7f) << shift;
      if (b < 0x80) return v;
    }
  };
  const m = uvarint();
  const k = uvarint();
  const r = run(['inspect', join(FIXTURES, manifest.file), '--json']);
  const b = JSON.parse(text(r.stdout)).bloom_filter;
  assert.equal(b.present, false);
  assert.equal(b.encoding, 'v3');
  assert.equal(b.byte_length, 0);
  assert.equal(b.bit_count, m);
  assert.equal(b.hash_function_count, k);
  assert.equal(b.set_bits, 0);
  assert.match(text(run(['inspect', join(FIXTURES, manifest.file)]).stdout), new RegExp(`stores bit_count ${m}, k=${k}`));
});

test('inspect --json is report format 2: the documented keys, snake_case, absent statistics null', () => {
  const run = (file) => JSON.parse(spawnSync(process.execPath, [CLI, 'inspect', join(FIXTURES, file), '--json'], { encoding: 'utf8' }).stdout);
  const r = run('table_null_tags.tsfile');
  assert.equal(r.format_version, 2);
  assert.deepEqual(Object.keys(r), [
    'format_version', 'ok', 'error', 'file', 'version', 'metadata', 'bloom_filter', 'audit', 'tables', 'table_schemas',
    'properties', 'series', 'time_columns', 'warnings',
  ]);
  assert.deepEqual(Object.keys(r.metadata), ['offset', 'size', 'meta_offset']);
  assert.deepEqual(Object.keys(r.bloom_filter), [
    'present', 'encoding', 'offset', 'bits_offset', 'byte_length', 'bit_count', 'hash_function_count', 'hash', 'set_bits', 'fill_ratio',
    'estimated_items', 'indexed_items', 'fpp_formula', 'fpp_from_fill', 'optimal_k', 'filled_past_design', 'cpp_sized_for', 'health',
  ]);
  assert.equal(r.bloom_filter.cpp_sized_for, null);
  assert.deepEqual(Object.keys(r.audit.hypotheses[0]), [
    'variant', 'time_columns', 'trailing_nulls_kept', 'charset', 'writer', 'reproduces', 'differing_bits', 'indexed_absent',
  ]);
  assert.deepEqual(Object.keys(r.table_schemas[0].columns[0]), ['name', 'data_type', 'category', 'encoding', 'compression']);
  // A file whose filter field is Java's null filter: no statistics, each of their keys null.
  const none = run('synthetic_java_null_filter_v4.tsfile');
  assert.deepEqual(Object.keys(none.bloom_filter), Object.keys(r.bloom_filter));
  assert.deepEqual(Object.entries(none.bloom_filter).filter(([, v]) => v !== null).map(([k]) => k), ['present', 'encoding', 'offset', 'bits_offset', 'byte_length']);
  assert.ok(none.series.length > 0 && none.series.every((s) => s.maybe_present === null));
  assert.equal(none.audit.variant, null);
  assert.equal(none.audit.writer, null);
});

test("verify passes exactly when the core's audit finds the filter consistent: a stray bit set or a set bit cleared fails it", () => {
  const good = readFileSync(join(FIXTURES, 'tree_10series.tsfile'));
  const { bloom_filter: b } = JSON.parse(text(run(['inspect', join(FIXTURES, 'tree_10series.tsfile'), '--json']).stdout));
  const stored = good.subarray(b.bits_offset, b.bits_offset + b.byte_length);
  // One bit of each kind in the stored bit vector (LSB-first within a byte).
  const bitOf = (want) => {
    for (let i = 0; i < b.bit_count; i++) if (((stored[i >> 3] >> (i & 7)) & 1) === want) return i;
    throw new Error(`no ${want} bit`);
  };
  const flipped = (bit) => {
    const bytes = Buffer.from(good);
    bytes[b.bits_offset + (bit >> 3)] ^= 1 << (bit & 7);
    const file = join(tmp, `flipped-${bit}.tsfile`);
    writeFileSync(file, bytes);
    return file;
  };
  const verify = (file) => {
    const r = run(['verify', file, '--json']);
    return { status: r.status, report: JSON.parse(text(r.stdout)) };
  };
  const ok = verify(join(FIXTURES, 'tree_10series.tsfile'));
  assert.deepEqual([ok.status, ok.report.ok, ok.report.audit.status], [0, true, 'ambiguous']); // ASCII paths: both tails rebuild the bits
  for (const file of [flipped(bitOf(0)), flipped(bitOf(1))]) {
    const r = verify(file);
    assert.deepEqual([r.status, r.report.ok, r.report.audit.status], [1, false, 'not_reproduced'], file);
    const t = run(['verify', file]);
    assert.match(text(t.stdout), /verify: FAILED\n$/);
  }
});

// Files whose filter Apache TsFile's experimental cheap-hash mode wrote (docs/writers.md §7),
// built to the upstream byte layout by tests/fixtures/gen_cheap_hash.py: through the npm API, the
// fast scan and the CLI (a child process), every probe is 'unknown' naming the hash, the audit says
// it cannot rebuild the bits, and a filter-level probe is a typed `unsupported_hash` error. The
// manifest lists, from the Java-shaped reference, the indexed series a Murmur128 reading would call
// absent: the false "absent" these answers avoid.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BloomFilter, openTsFile, scanTsFiles } from 'tsfile-bloom';
import { fromHex, hex } from './helpers.mjs';

const DIR = new URL('../fixtures/cheap_hash/', import.meta.url);
const MANIFEST = JSON.parse(readFileSync(new URL('manifest.json', DIR), 'utf8'));
const filePath = (e) => fileURLToPath(new URL(e.file, DIR));
const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
const cli = (...args) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
const CHEAP_REASON = /^the filter was written with TsFile's experimental cheap hash .* which this reader does not evaluate/;
/** Every path asked about: the series (each a false "absent" under Murmur128), time columns, strangers. */
const pathsOf = (e) => [...e.series, ...e.time_columns, 'root.not.there', '能耗表🔥.无.x.temp'];

test('the manifest holds the case: indexed series a Murmur128 reading of the bits calls absent', () => {
  assert.equal(MANIFEST.length, 2);
  for (const e of MANIFEST) {
    assert.ok(e.murmur_absent_series.length > 0, e.name);
    assert.equal(e.upstream.commit, '39a43a46e5cdc9c7ecb96f963393b46b74186720');
  }
  assert.deepEqual(MANIFEST.map((e) => e.marker_hex).sort(), ['8080808008', 'ffffffff07']);
});

test('TsFile: bloomInfo names the cheap hash; every probe is unknown before and after the index', async () => {
  for (const e of MANIFEST) {
    const t = await openTsFile(filePath(e));
    try {
      const b = t.bloomInfo();
      assert.equal(b.hash, 'cheap', e.name);
      assert.deepEqual([b.bitCount, b.hashFunctionCount, b.byteLength, b.setBits, b.bitsOffset], [e.bloom.bit_count, e.bloom.hash_function_count, e.bloom.byte_length, e.bloom.set_bits, e.bloom.bits_offset], e.name);
      for (const phase of ['before', 'after']) {
        if (phase === 'after') await t.loadIndex();
        for (const path of pathsOf(e)) {
          for (const options of [{}, { variant: 'java' }, { variant: 'zero-extended', charset: 'UTF-8' }]) {
            const p = t.probe(path, options);
            const ctx = `${e.name} ${phase} ${path} ${JSON.stringify(options)}`;
            assert.equal(p.verdict, 'unknown', ctx);
            assert.equal(p.variant, 'cheap', ctx);
            assert.equal(p.charset, null, ctx);
            assert.deepEqual([p.probes, p.others, p.confirmed], [[], [], false], ctx);
            assert.match(p.reason, CHEAP_REASON, ctx);
            if (phase === 'after') assert.equal(p.indexed, e.series.includes(path), ctx);
          }
        }
        const paths = pathsOf(e);
        assert.deepEqual(t.probeMany(paths).map((r) => r.verdict), paths.map(() => 'unknown'), `${e.name} ${phase}`);
        assert.deepEqual([...t.mightContainMany(paths)], paths.map(() => 1), `${e.name} ${phase}`);
      }
      const audit = await t.audit();
      assert.equal(audit.status, 'unsupported_hash', e.name);
      assert.equal(audit.variant, 'cheap', e.name);
      assert.deepEqual(audit.hypotheses, [], e.name);
      assert.match(audit.summary, /cannot be rebuilt/, e.name);
      assert.match(audit.writer, /cheap hash/, e.name);
      const listing = { series: await t.series(), timeColumns: await t.timeColumns() };
      assert.equal(listing.series.length, e.series.length, e.name);
      assert.ok([...listing.series, ...listing.timeColumns].every((s) => s.maybePresent === null), e.name);
      assert.equal(t.bloomInfo().filledPastDesign, false, e.name);
    } finally {
      await t.close();
    }
  }
});

test('BloomFilter: the cheap filter decodes with its hash and round-trips; probing or adding throws unsupported_hash', async () => {
  for (const e of MANIFEST) {
    const f = BloomFilter.decode(fromHex(e.bloom.encoded_hex));
    assert.equal(f.hash, 'cheap', e.name);
    assert.deepEqual([f.bitCount, f.hashFunctionCount, f.setBits], [e.bloom.bit_count, e.bloom.hash_function_count, e.bloom.set_bits]);
    // Written back as the writer writes it: Integer.MAX_VALUE before k.
    assert.equal(hex(f.encode()), e.bloom.encoded_hex.replace(e.marker_hex, 'ffffffff07'), e.name);
    const calls = {
      probe: () => f.probe(e.series[0]),
      probeMany: () => f.probeMany(e.series),
      mightContainMany: () => f.mightContainMany(e.series),
      add: () => f.add('root.x.y'),
      addMany: () => f.addMany(['root.x.y']),
    };
    for (const [name, call] of Object.entries(calls)) {
      assert.throws(call, (err) => err instanceof Error && err.kind === 'unsupported_hash' && err.offset === null && /cheap hash/.test(err.message), `${e.name} ${name}`);
    }
    assert.equal(f.setBits, e.bloom.set_bits, `${e.name}: nothing was added`);
    f.free();
    // The file's own filter object says the same.
    const t = await openTsFile(filePath(e));
    try {
      assert.equal(t.bloomFilter.hash, 'cheap');
      assert.throws(() => t.bloomFilter.probe(e.series[0]), { kind: 'unsupported_hash' });
    } finally {
      await t.close();
    }
  }
  assert.equal(BloomFilter.withCapacity(10).hash, 'murmur128');
});

test('scanTsFiles: the fast scan and the audited scan answer unknown for every path', async () => {
  const paths = MANIFEST.flatMap((e) => e.series);
  for (const audit of [false, true]) {
    const records = [];
    for await (const r of scanTsFiles(fileURLToPath(DIR), { paths, audit, concurrency: 1 })) records.push(r);
    assert.equal(records.length, MANIFEST.length);
    for (const r of records) {
      assert.equal(r.ok, true, r.file);
      assert.equal(r.bloomFilter.hash, 'cheap', r.file);
      assert.ok(r.results.every((x) => x.verdict === 'unknown'), `${r.file} audit ${audit}`);
      if (audit) assert.deepEqual([r.audit.status, r.audit.variant], ['unsupported_hash', 'cheap']);
    }
  }
});

test('CLI: inspect and probe name the cheap hash, probe says UNKNOWN, verify does not claim consistency', () => {
  for (const e of MANIFEST) {
    const file = filePath(e);
    const inspect = cli('inspect', file, '--json');
    assert.equal(inspect.status, 0, inspect.stderr);
    const j = JSON.parse(inspect.stdout);
    assert.deepEqual([j.bloom_filter.hash, j.audit.status, j.audit.variant], ['cheap', 'unsupported_hash', 'cheap'], e.name);
    const text = cli('inspect', file);
    assert.match(text.stdout, /cheap hash/, e.name);
    assert.doesNotMatch(text.stdout, /ABSENT|cheap tail/, e.name);
    const probe = cli('probe', file, ...e.murmur_absent_series);
    assert.equal(probe.status, 0, probe.stderr);
    const verdicts = probe.stdout.split('\n').filter((l) => /^[A-Z]+ /.test(l)).map((l) => l.split(' ')[0]);
    assert.deepEqual(verdicts, e.murmur_absent_series.map(() => 'UNKNOWN'), e.name);
    const pj = JSON.parse(cli('probe', file, e.series[0], '--json').stdout);
    assert.equal(JSON.stringify(pj).includes('"absent"'), false, e.name);
    const verify = cli('verify', file, '--json');
    assert.equal(verify.status, 1, e.name);
    assert.equal(JSON.parse(verify.stdout).ok, false, e.name);
  }
});

// TsFiles written by Apache TsFile's Java writer (built from source; scripts/java/), once
// under a UTF-8 JVM and once under a GBK JVM, read through the npm package and the CLI.
// Expectations come from tests/fixtures/java/manifest.json: Java's own reader and
// BloomFilter.contains, or the data the generator wrote where Java's reader is wrong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openTsFile, BloomFilter } from '../../js/node.js';

const DIR = fileURLToPath(new URL('../fixtures/java/', import.meta.url));
const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
const manifest = JSON.parse(readFileSync(`${DIR}manifest.json`, 'utf8'));
const utf8 = new TextEncoder();

/** Whether the last `len mod 16` bytes (the Murmur128 tail) hold a byte >= 0x80: only then can
 * the sign-extended and the zero-extended hash differ (docs/bloom-filter.md §4). */
const nonAsciiTail = (bytes) => bytes.subarray(bytes.length - (bytes.length % 16)).some((b) => b >= 0x80);

function expectedPaths(entry) {
  const series = [];
  const timeColumns = [];
  for (const d of entry.devices) {
    for (const [, type, path] of d.series) series.push({ path, type });
    if (d.time_column) timeColumns.push({ path: d.time_column.path, type: 'TIMESTAMP' });
  }
  return { series, timeColumns };
}

for (const entry of manifest.files) {
  test(`java ${entry.file}: listing, audit and verdicts`, async () => {
    const t = await openTsFile(`${DIR}${entry.file}`);
    try {
      assert.equal(await t.loadIndex(), null);
      const info = t.bloomInfo();
      assert.equal(info.present, entry.bloom.present);
      const [series, timeColumns] = [await t.series(), await t.timeColumns()];
      const want = expectedPaths(entry);
      assert.deepEqual(series.map((s) => s.path).sort(), want.series.map((s) => s.path).sort());
      assert.deepEqual(timeColumns.map((s) => s.path).sort(), want.timeColumns.map((s) => s.path).sort());
      const audit = await t.audit();
      if (!entry.bloom.present) {
        assert.equal(audit.status, 'no_filter');
        return;
      }
      assert.equal(info.bitCount, entry.bloom.bit_count);
      assert.equal(info.hashFunctionCount, entry.bloom.hash_function_count);
      assert.equal(info.setBits, entry.bloom.set_bits);

      // Every indexed series (and time column: Java inserts them) is maybe-present.
      for (const s of [...series, ...timeColumns]) assert.equal(s.maybePresent, true, s.path);

      // The audit names the JVM's charset: GBK for the GBK set, UTF-8 otherwise; the variant is
      // established when some hashed path has a non-ASCII tail (else both variants agree).
      const hashed = [...want.series, ...want.timeColumns].map((s) => s.path);
      const allAscii = hashed.every((p) => /^[\x00-\x7f]*$/.test(p));
      if (allAscii) {
        // Every JVM charset encodes ASCII alike: nothing tells the writer's charset (nor the
        // tail variant), and none is needed, since every indexed path hashes the same anyway.
        assert.equal(audit.status, 'ambiguous', audit.summary);
        assert.deepEqual(audit.charsets, ['UTF-8']);
      } else {
        assert.equal(audit.charset, entry.charset, audit.summary);
        assert.ok(audit.charsets.includes(entry.charset));
      }
      if (allAscii) {
        // checked above
      } else if (entry.charset === 'UTF-8') {
        const tails = [...want.series, ...want.timeColumns].some((s) => nonAsciiTail(utf8.encode(s.path)));
        assert.equal(audit.status, tails ? 'established' : 'ambiguous', audit.summary);
      } else {
        assert.equal(audit.status, 'established', audit.summary);
        assert.equal(audit.variant, 'java');
        assert.match(audit.summary, new RegExp(`Java writer on a JVM whose default charset is ${entry.charset}`));
      }

      // Java's BloomFilter.contains, path by path, equals the stored filter probed the Java way.
      const filter = t.bloomFilter;
      const probes = [...want.series, ...want.timeColumns].map((s) => [s.path, true]).concat(entry.absent);
      const checked = entry.devices
        .flatMap((d) => d.series.map((s) => [s[2], s[3]]).concat(d.time_column ? [[d.time_column.path, d.time_column.java_contains]] : []))
        .concat(entry.absent);
      for (const [path, javaSays] of checked) {
        const mine = filter.probe(path, { variant: 'java', charset: entry.charset }).verdict === 'maybe';
        // (For an all-ASCII file the JVM's charset still decides the bytes of a non-ASCII probe.)
        assert.equal(mine, javaSays, `${path}: Java contains() = ${javaSays}`);
      }
      // The file probe: sound verdicts under the established charset, also when asked by name.
      const paths = probes.map((p) => p[0]);
      const many = t.probeMany(paths);
      const manyNamed = t.probeMany(paths, { charset: entry.charset });
      probes.forEach(([path, present], i) => {
        const r = t.probe(path);
        assert.equal(many[i].verdict, r.verdict, path);
        const named = t.probe(path, { charset: entry.charset });
        assert.equal(named.charset, entry.charset);
        assert.equal(manyNamed[i].verdict, named.verdict, path);
        if (present) assert.equal(r.verdict, 'maybe', path);
        else assert.notEqual(r.verdict, 'unknown', path);
      });
      for (const [path, javaSays] of entry.absent) {
        if (!javaSays && audit.charsets.length === 1 && audit.status === 'established') assert.equal(t.probe(path).verdict, 'absent', path);
      }
    } finally {
      await t.close();
    }
  });
}

test('CLI on a GBK-hashed file: every series maybe, audit established java/GBK, probe --charset GBK', () => {
  const entry = manifest.files.find((e) => e.charset === 'GBK' && e.name === 'tree_nonaligned');
  const file = `${DIR}${entry.file}`;
  const r = JSON.parse(spawnSync(process.execPath, [CLI, 'inspect', file, '--json'], { encoding: 'utf8' }).stdout);
  assert.equal(r.ok, true);
  assert.ok(r.series.length > 0);
  assert.ok(r.series.every((s) => s.maybe_present === true));
  assert.equal(r.audit.status, 'established');
  assert.equal(r.audit.variant, 'java');
  assert.equal(r.audit.charset, 'GBK');
  const text = spawnSync(process.execPath, [CLI, 'inspect', file], { encoding: 'utf8' }).stdout;
  assert.match(text, /hashed +java tail, path bytes in GBK/);
  const present = entry.devices.flatMap((d) => d.series.map((s) => s[2]));
  const p = spawnSync(process.execPath, [CLI, 'probe', file, ...present, '--charset', 'GBK', '--json'], { encoding: 'utf8' });
  assert.equal(p.status, 0, p.stderr);
  const results = JSON.parse(p.stdout).results;
  assert.deepEqual(results.map((x) => [x.verdict, x.charset]), present.map(() => ['maybe', 'GBK']));
  assert.ok(results.every((x) => x.confirmed));
});

test('build reproduces a Java-written filter byte for byte from the paths Java hashed', async () => {
  for (const entry of manifest.files.filter((e) => e.bloom.present)) {
    const t = await openTsFile(`${DIR}${entry.file}`);
    try {
      const stored = t.bloomFilter.encode();
      // Java sizes by the number of chunk metadata at the configured error rate.
      const f = BloomFilter.withCapacity(entry.chunk_metadata_count, entry.error_rate);
      f.addMany(entry.devices.flatMap((d) => d.series.map((s) => s[2]).concat(d.time_column ? [d.time_column.path] : [])), { charset: entry.charset });
      assert.deepEqual(f.encode(), stored, entry.file);
      f.free();
    } finally {
      await t.close();
    }
  }
});

// What every environment of the matrix (bundlers in Chromium, runtimes) is held to: the same
// files, the same checks (checks.js), and the local open of those files in Node as the
// expectation — itself held to the fixture manifests (the writers' own values).
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './packed.mjs';
import { everything } from './checks.js';
import * as local from '../../js/node.js';

export const FIXTURES = join(ROOT, 'tests/fixtures');
const tsManifest = JSON.parse(readFileSync(join(FIXTURES, 'tsfile/manifest.json'), 'utf8'));
const javaManifest = JSON.parse(readFileSync(join(FIXTURES, 'java/manifest.json'), 'utf8'));
export const LDB = JSON.parse(readFileSync(join(FIXTURES, 'leveldb/manifest.json'), 'utf8')).tables.find((t) => t.bits_per_key === 10);
// JDK 17's own bytes for a GBK string (tests/reference/JavaCharsets.java dumped them).
export const GBK_CASE = JSON.parse(readFileSync(join(FIXTURES, 'java_charsets.json'), 'utf8')).cases.find((c) => c.charset === 'GBK' && /[^\x00-\x7f]/.test(c.text));

// A C++ file whose TsFileMetadata lies beyond the tail window, a small one, Java files from a
// UTF-8 and a GBK JVM (the GBK one needs the charsets module after its index is read), and two
// hostile ones (typed errors).
export const FILES = [
  'tsfile/tree_10k_series.tsfile',
  'tsfile/table_unicode.tsfile',
  'java/utf8/tree_quoted_unicode.tsfile',
  'java/gbk/tree_quoted_unicode.tsfile',
  'tsfile/hostile_truncated_in_metadata.tsfile',
  'tsfile/hostile_bad_head_magic.tsfile',
];
export const SCAN_PATHS = ['root.sg1.d1.s1', 'root.nowhere.d.s'];

/** Copies the files (under files/) and the LevelDB table (files/table.ldb) into `dir`. */
export function copyFiles(dir) {
  for (const rel of FILES) cpSync(join(FIXTURES, rel), join(dir, 'files', rel));
  mkdirSync(join(dir, 'files'), { recursive: true });
  cpSync(join(FIXTURES, 'leveldb', LDB.file), join(dir, 'files/table.ldb'));
}

/** The local expectation, per file (`everything`, or the typed error) and the scan's records. */
export async function localExpectations() {
  const expected = {};
  for (const rel of FILES) {
    const t = await local.openTsFile(join(FIXTURES, rel)).catch((e) => e);
    expected[rel] = t instanceof Error ? { error: { kind: t.kind, offset: t.offset, message: t.message } } : await everything(t).finally(() => t.close());
  }
  const records = [];
  const scan = local.scanTsFiles(FILES.map((f) => join(FIXTURES, f)), { paths: SCAN_PATHS, concurrency: 1 });
  for await (const r of scan) records.push(r);
  expected.scan = records.map(({ file, bytesRead, reads, ...rest }) => rest);
  // Held to the writers' figures.
  const tenK = tsManifest.find((e) => e.file === 'tree_10k_series.tsfile');
  assert.equal(expected['tsfile/tree_10k_series.tsfile'].bloomInfo.bitCount, tenK.bloom.bit_count);
  assert.equal(expected['tsfile/tree_10k_series.tsfile'].series, 10000);
  const gbk = javaManifest.files.find((e) => e.file === 'gbk/tree_quoted_unicode.tsfile');
  assert.equal(expected['java/gbk/tree_quoted_unicode.tsfile'].bloomInfo.bitCount, gbk.bloom.bit_count);
  assert.equal(expected['java/gbk/tree_quoted_unicode.tsfile'].series, gbk.series_count);
  assert.equal(expected['java/gbk/tree_quoted_unicode.tsfile'].audit.charset, 'GBK');
  assert.equal(expected['tsfile/hostile_bad_head_magic.tsfile'].error.kind, 'bad_head_magic');
  return expected;
}

// The file the bundled worker opens (its probes need the index and the charsets module, both
// read in the worker) and the paths it probes: an indexed series and one that is not.
export const WORKER_FILE = 'java/gbk/tree_quoted_unicode.tsfile';
const WORKER_ABSENT = 'root.nowhere.d1.s1';

/** The worker's expected answers (checks.js workerAnswers), from the local open in Node: `{paths, answers}`. */
export async function workerExpectation() {
  const t = await local.openTsFile(join(FIXTURES, WORKER_FILE));
  try {
    const bloom = t.bloomInfo();
    await t.loadIndex();
    const paths = [(await t.series())[0].path, WORKER_ABSENT];
    const probes = paths.map((p) => t.probe(p));
    assert.deepEqual(probes.map((p) => p.verdict), ['maybe', 'absent'], 'the local verdicts the worker is held to');
    return { paths, answers: { mode: 'worker', bloom, probes } };
  } finally {
    await t.close();
  }
}

/** The arguments of runChecks for files served at `base` (a URL ending in '/'), as source text. */
export const checksArguments = (base, bytesOf = 'bytesOf') =>
  `{ files: ${JSON.stringify(FILES)}.map((f) => new URL('files/' + f, ${base}).href), bytesOf: ${bytesOf}, leveldb: await ${bytesOf}(new URL('files/table.ldb', ${base}).href), scanPaths: ${JSON.stringify(SCAN_PATHS)}, gbkText: ${JSON.stringify(GBK_CASE.text)} }`;

/**
 * A run's result against the local expectations. `urlResult(rel, got)` may say what a URL open
 * must give instead (a server without Range); `scan: false` skips the scan's records.
 */
export function assertMatches(result, expected, where, { urlResult = () => undefined, scan = true } = {}) {
  assert.equal(result.failed, undefined, `${where}: ${result.failed}`);
  for (const rel of FILES) {
    const url = Object.keys(result.fromUrl).find((u) => u.endsWith(`/files/${rel}`));
    assert.ok(url, `${where}: ${rel} was opened`);
    assert.deepEqual(result.fromBytes[url], expected[rel], `${where}: ${rel} from bytes`);
    assert.deepEqual(result.fromUrl[url], urlResult(rel, result.fromUrl[url]) ?? expected[rel], `${where}: ${rel} from its URL`);
  }
  if (scan) assert.deepEqual(result.scan.records.map(({ file, ...rest }) => rest), expected.scan, `${where}: scanTsFiles(urls)`);
  assert.equal(Buffer.from(result.gbk).toString('hex'), GBK_CASE.bytes, `${where}: GBK`);
  assert.equal(result.leveldb?.policy, LDB.filter_policy, `${where}: LevelDB`);
  assert.ok(result.leveldb.filters > 0);
}

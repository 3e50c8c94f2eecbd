// One convention for an index that cannot be read to its end (issue 39): every member of TsFile
// and of the Worker client whose answer is the index rejects with the typed error loadIndex()
// returns — never `[]` or `null` that look like an answer — unless asked for the partial answer
// with `{partial: true}`. The filter still answers probes (under the rules for an unread index).
// Also: a file: URL given as a string is a path, and bytes whose buffer was transferred are a
// typed invalid_argument.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BloomFilter, openTsFile, scanTsFiles, TsFileBloomError, writerHypothesis } from '../../js/node.js';
import { createWorker } from '../../js/worker-client.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/tsfile/', import.meta.url));
const DAMAGED = `${FIXTURES}hostile_index_child_offset_past_end.tsfile`; // the walk stops: bad_index_offset
const GOOD = `${FIXTURES}tree_10series.tsfile`;

const sameError = (expected) => (e) => {
  assert.equal(e, expected, 'the very error loadIndex() returns');
  assert.equal(typeof e.kind, 'string');
  return true;
};

test('TsFile: series, timeColumns, audit and writerKeys reject with the index’s typed error; {partial: true} gives what was read', async () => {
  const t = await openTsFile(DAMAGED);
  try {
    const error = await t.loadIndex();
    assert.equal(error.kind, 'bad_index_offset');
    assert.equal(typeof error.offset, 'number');
    for (const member of ['series', 'timeColumns', 'audit']) await assert.rejects(t[member](), sameError(error), member);
    await assert.rejects(t.writerKeys(writerHypothesis(null)), sameError(error), 'writerKeys');
    assert.deepEqual(await t.series({ partial: true }), []);
    assert.deepEqual(await t.timeColumns({ partial: true }), []);
    assert.equal(await t.audit({ partial: true }), null);
    assert.equal(t.indexError, error);
    // The filter answers without the index, as its rules for an unread index say.
    assert.equal(t.probe('root.sg1.d1.s1').indexed, null);
    await assert.rejects(t.series({ partial: 'yes' }), (e) => e.kind === 'invalid_argument' && e.argument === 'partial');
  } finally {
    await t.close();
  }
});

test('an index region above maxIndexBytes is not read: series() rejects with too_large, not []', async () => {
  const t = await openTsFile(GOOD, { maxIndexBytes: 500 }) // TsFileMetadata 261 bytes, the index region 699;
  try {
    await assert.rejects(t.series(), (e) => e.kind === 'too_large' && typeof e.offset === 'number');
    assert.deepEqual(await t.series({ partial: true }), []);
  } finally {
    await t.close();
  }
  // A file whose index reads whole answers as before.
  const ok = await openTsFile(GOOD);
  assert.equal((await ok.series()).length, 10);
  assert.equal(typeof (await ok.audit()).status, 'string');
  await ok.close();
});

test('the Worker client: audit, series, timeColumns and provenance reject with the typed index error (and the op); {partial: true} resolves as TsFile', async () => {
  const w = createWorker(new URL('../../js/worker.js', import.meta.url)); // in-thread in Node (no module Worker)
  try {
    await w.open(new Blob([await import('node:fs').then((fs) => fs.readFileSync(DAMAGED))]));
    for (const op of ['audit', 'series', 'timeColumns', 'provenance']) await assert.rejects(w[op](), (e) => e.kind === 'bad_index_offset' && typeof e.offset === 'number' && e.op === op, op);
    assert.equal(await w.audit({ partial: true }), null);
    assert.deepEqual(await w.series({ partial: true }), []);
    assert.deepEqual(await w.timeColumns({ partial: true }), []);
    const indexError = await w.loadIndex();
    assert.ok(indexError instanceof TsFileBloomError);
    assert.equal(indexError.kind, 'bad_index_offset');
    await assert.rejects(w.series({ partial: 'yes' }), (e) => e.kind === 'invalid_argument' && e.argument === 'partial');
    assert.equal((await w.probe('root.sg1.d1.s1')).indexed, null);
  } finally {
    w.terminate();
  }
});

test('openTsFile and scanTsFiles take a file: URL string as the path it names', async () => {
  const url = pathToFileURL(GOOD).href;
  const t = await openTsFile(url);
  assert.equal(t.name, 'tree_10series.tsfile');
  await t.close();
  const s = await scanTsFiles(url).summary;
  assert.deepEqual([s.files, s.ok], [1, 1]);
  await assert.rejects(openTsFile('file://elsewhere/x.tsfile'), (e) => e.kind === 'invalid_argument' && e.argument === 'source' && e.offset === null);
});

test('bytes whose ArrayBuffer was transferred are a typed invalid_argument naming the argument, in every batch and probe', async () => {
  const transferred = (bytes) => {
    structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
    return bytes;
  };
  const key = () => new TextEncoder().encode('root.sg1.d1.s1');
  const encoded = () => {
    const bytes = key();
    return { bytes: transferred(bytes), ends: Uint32Array.of(14) };
  };
  const endsGone = () => ({ bytes: key(), ends: transferred(Uint32Array.of(14)) });
  const f = BloomFilter.withCapacity(10);
  const t = await openTsFile(GOOD);
  try {
    const calls = [
      ['paths', () => f.addMany(encoded())], ['paths', () => f.probeMany(encoded())], ['paths', () => f.mightContainMany(endsGone())],
      ['paths', () => f.addMany([transferred(key())])], ['path', () => f.probe(transferred(key()))],
      ['paths', () => t.probeMany(encoded())], ['paths', () => t.mightContainMany([transferred(key())])], ['path', () => t.probe(transferred(key()))],
    ];
    for (const [argument, call] of calls) {
      assert.throws(call, (e) => e.kind === 'invalid_argument' && e.argument === argument && e.offset === null && /transferred/.test(e.message), String(call));
    }
    // An empty key that was never transferred is a key.
    assert.equal(f.probe(new Uint8Array(0)).verdict, 'absent');
  } finally {
    f.free();
    await t.close();
  }
});

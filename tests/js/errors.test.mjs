// One error class: every error the package throws or rejects with is a TsFileBloomError with a
// documented kind, `offset` null where no byte is concerned, and `argument` naming the parameter
// of every invalid_argument — from the wasm core, the argument checks, HTTP and S3 sources, local
// files, the manifest, the scan, the Worker client (rebuilt from the plain object that crosses),
// and the page's worker ops. Real components throughout: the package's entries, fixtures, a
// local HTTP server, the fake S3 endpoint, the in-thread worker handler.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import * as api from 'tsfile-bloom';
import { createWorker } from '../../js/worker-client.js';
import { createHandler } from '../../js/worker.js';
import { bitIndex } from '../../js/core.js'; // the page's teaching panel's
import { listenLocal } from './servers.mjs';
import { startFakeS3 } from './fake-s3.mjs';

const { TsFileBloomError, BloomFilter, TsFile, LevelDbTable, hash32, openTsFile, openLevelDbTable, scanTsFiles, encodePath, javaSizing } = api;
const fixture = (dir, name) => fileURLToPath(new URL(`../fixtures/${dir}/${name}`, import.meta.url));
const GOOD = fixture('tsfile', 'tree_10series.tsfile');
const TABLE = fixture('leveldb', 'ascii_bits4_snappy-000008.ldb');

/** An assertion on a caught error: the class, the kind, and the fields given. */
function typed(kind, fields = {}) {
  return (e) => {
    assert.ok(e instanceof TsFileBloomError, `${e?.constructor?.name}: ${e?.message}`);
    assert.ok(e instanceof Error);
    assert.equal(e.kind, kind, e.message);
    for (const [k, v] of Object.entries(fields)) assert.deepEqual(e[k], v, `${k} of ${kind}: ${e.message}`);
    return true;
  };
}
const badArgument = (argument) => typed('invalid_argument', { argument, offset: null });

test('TsFileBloomError is one class, exported by the ESM entries and the Worker client; CommonJS has its own', async () => {
  const web = await import('../../js/web.js');
  const client = await import('../../js/worker-client.js');
  assert.equal(typeof TsFileBloomError, 'function');
  assert.equal(web.TsFileBloomError, TsFileBloomError);
  assert.equal(client.TsFileBloomError, TsFileBloomError);
  const cjs = createRequire(import.meta.url)('../../dist/cjs/index.cjs');
  assert.throws(() => new cjs.BloomFilter(0, 5), (e) => e instanceof cjs.TsFileBloomError && e.kind === 'invalid_argument' && e.name === 'TsFileBloomError');
});

test("the core's errors (wasm) are the class, with kind and offset; bad bytes are located", async () => {
  await assert.rejects(openTsFile(new Uint8Array(100)), typed('bad_head_magic', { offset: 0 }));
  await assert.rejects(openLevelDbTable(new Uint8Array(100)), typed('bad_footer_magic'));
  const garbage = new Uint8Array(readFileSync(TABLE)).subarray(0, 10);
  await assert.rejects(openLevelDbTable(garbage), typed('too_short'));
});

test('new BloomFilter with a bad geometry: invalid_argument naming it, in plain words', () => {
  for (const [m, k, argument, words] of [
    [0, 0, 'bitCount', 'the bit count must be between 1 and 2,147,483,647, not 0'],
    [2 ** 31, 5, 'bitCount', 'the bit count must be between 1 and 2,147,483,647, not 2147483648'],
    [256, 9, 'hashFunctionCount', 'the hash function count must be between 1 and 8, not 9'],
  ]) {
    assert.throws(() => new BloomFilter(m, k), (e) => badArgument(argument)(e) && e.message === words);
  }
});

test('argument errors name their parameter, the core\'s as well as the checks at the door', async () => {
  const t = await openTsFile(GOOD);
  try {
    assert.throws(() => t.probe(42), badArgument('path'));
    assert.throws(() => t.probe('root.a', { variant: 'murmur' }), badArgument('variant'));
    assert.throws(() => t.probe('root.a', { charset: 'klingon' }), badArgument('charset'));
    assert.throws(() => t.probeMany('root.a'), badArgument('paths'));
  } finally {
    await t.close();
  }
  assert.throws(() => hash32('x'), badArgument('seed'));
  assert.throws(() => hash32('x', 5, 'murmur'), badArgument('variant'));
  assert.throws(() => encodePath('x', 'klingon'), badArgument('charset'));
  assert.throws(() => encodePath(42), badArgument('text'));
  assert.throws(() => javaSizing(-1), badArgument('capacity'));
  assert.throws(() => bitIndex(5, 0), badArgument('bitCount'));
  const f = new BloomFilter(256, 5);
  assert.throws(() => f.probe({}), badArgument('path'));
  assert.throws(() => f.addMany([1]), badArgument('paths'));
  assert.throws(() => f.addMany({ bytes: new Uint8Array(4), ends: Uint32Array.of(3, 1) }), badArgument('paths'));
  assert.throws(() => f.stats(-1), badArgument('items'));
  f.free();
  assert.throws(() => f.bits(), badArgument('this'));
});

test("no message of an argument error reads like Rust or names a snake_case field", () => {
  const calls = [
    () => new BloomFilter(0, 0), () => new BloomFilter(8, 0), () => javaSizing(1.5), () => bitIndex(1, 0),
    () => BloomFilter.withCapacity(-1), () => BloomFilter.withCapacity(1, 2), () => hash32('x', -1), () => encodePath('x', 'no'),
  ];
  for (const call of calls) {
    assert.throws(call, (e) => {
      assert.ok(e instanceof TsFileBloomError && e.kind === 'invalid_argument', e.message);
      assert.doesNotMatch(e.message, /\.\.=?|\b[a-z]+_[a-z_]+\b/, e.message);
      return true;
    });
  }
});

test('after close() every member of a TsFile throws the same typed error', async () => {
  const t = await openTsFile(GOOD);
  // Cached answers before the close: the file info, the audit, the listing, the filter.
  await t.audit();
  t.bloomInfo();
  const filter = t.bloomFilter;
  await t.close();
  await t.close(); // closing twice is fine
  const proto = TsFile.prototype;
  const members = Object.getOwnPropertyNames(proto).filter((n) => n !== 'constructor' && n !== 'close');
  assert.ok(members.length >= 20, members.join());
  for (const name of members) {
    const d = Object.getOwnPropertyDescriptor(proto, name);
    const call = d.get ? () => t[name] : () => t[name](/many/i.test(name) ? ['root.sg1.d1.s1'] : 'root.sg1.d1.s1');
    let outcome;
    try {
      outcome = call();
    } catch (e) {
      outcome = Promise.reject(e);
    }
    await assert.rejects(Promise.resolve(outcome), (e) => badArgument('this')(e) && e.message === 'this TsFile is closed', name);
  }
  assert.throws(() => filter.probe('x'), badArgument('this'));
});

test('after close() every member of a LevelDbTable throws the same typed error', async () => {
  const table = await openLevelDbTable(TABLE);
  table.info;
  table.filters;
  table.close();
  const proto = LevelDbTable.prototype;
  // The prototype's members and the instance's own (name and size were plain fields, answering after the close).
  const members = [...new Set([...Object.getOwnPropertyNames(proto), ...Object.keys(table)])].filter((n) => !['constructor', 'close', 'free'].includes(n));
  assert.ok(['name', 'size', 'info', 'probe'].every((n) => members.includes(n)), members.join());
  for (const name of members) {
    const d = Object.getOwnPropertyDescriptor(proto, name);
    assert.throws(() => (typeof d?.value === 'function' ? table[name](name === 'probe' ? 'k' : 0) : table[name]), (e) => badArgument('this')(e) && e.message === 'this table is closed', name);
  }
});

test('io errors: a local file, an HTTP status, an S3 key are the class with path / url, reason, status', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsfile-bloom-errors-'));
  try {
    await assert.rejects(openTsFile(join(dir, 'missing.tsfile')), typed('io', { offset: null, path: join(dir, 'missing.tsfile'), code: 'ENOENT' }));
  } finally {
    rmSync(dir, { recursive: true });
  }
  const server = await listenLocal(createServer((req, res) => res.writeHead(404).end()));
  try {
    await assert.rejects(openTsFile(`${server.origin}/x.tsfile`), typed('io', { reason: 'http_status', status: 404, url: `${server.origin}/x.tsfile`, offset: null }));
  } finally {
    await server.close();
  }
  const keys = { accessKeyId: 'AKIAFAKES3TEST', secretAccessKey: 'fake-s3-secret/key+1' };
  const store = await startFakeS3({ b: { 'a.tsfile': readFileSync(GOOD) } }, { credentials: keys });
  try {
    const s3 = { ...keys, endpoint: store.origin, region: 'us-east-1' };
    await assert.rejects(openTsFile('s3://b/none.tsfile', { s3 }), typed('io', { reason: 'no_such_key', offset: null }));
  } finally {
    await store.close();
  }
});

test("a scan's errors: a bad manifest, a cancelled scan, a bad option, a misused scan object all reject with the class", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsfile-bloom-errors-'));
  try {
    const manifest = join(dir, 'scan.manifest');
    writeFileSync(manifest, 'not a manifest\n');
    await assert.rejects(scanTsFiles([GOOD], { manifest }).summary, typed('manifest', { reason: 'foreign', path: manifest, offset: null }));
    await assert.rejects(scanTsFiles([GOOD], { signal: AbortSignal.abort() }).summary, typed('cancelled', { offset: null }));
    assert.throws(() => scanTsFiles([GOOD], { concurrency: 0 }), badArgument('concurrency'));
    const scan = scanTsFiles([GOOD]);
    await scan.summary;
    assert.throws(() => scan[Symbol.asyncIterator](), badArgument('this'));
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test('the Worker client rejects with the class rebuilt from the plain error, every field kept, and the op', async () => {
  const w = createWorker(new URL('../../js/worker.js', import.meta.url)); // in-thread in Node (no module Worker)
  try {
    await assert.rejects(w.probe('root.a'), typed('invalid_argument', { argument: 'this', offset: null, op: 'probe' }));
    await assert.rejects(w.audit(), typed('invalid_argument', { argument: 'this', offset: null, op: 'audit' }));
    await assert.rejects(w.probeMany('root.a'), typed('invalid_argument', { argument: 'paths', offset: null, op: 'probeMany' }));
    await assert.rejects(w.call('nonsense'), typed('invalid_argument', { argument: 'op', offset: null }));
    await assert.rejects(w.call('scan', { targets: null }), typed('invalid_argument', { argument: 'targets', offset: null, op: 'scan' }));
    await assert.rejects(w.open(new Blob([new Uint8Array(100)])), typed('bad_head_magic', { offset: 0, op: 'open' }));
    await w.open(new Blob([readFileSync(GOOD)]));
    await assert.rejects(w.probe('root.a', { charset: 'klingon' }), typed('invalid_argument', { argument: 'charset', offset: null }));
  } finally {
    w.terminate();
  }
});

test("the page's worker ops (www/worker/teach-ops.js): a bad argument has offset null and names it", async () => {
  const { teachOps } = await import('../../www/worker/teach-ops.js');
  const handle = createHandler(teachOps);
  const reply = (msg) => new Promise((resolve) => handle(msg, resolve));
  const { error } = await reply({ id: 1, op: 'leveldb.probe', key: 'k' });
  assert.deepEqual({ kind: error.kind, offset: error.offset, argument: error.argument }, { kind: 'invalid_argument', offset: null, argument: 'this' });
});

test('ErrorKind (js/types.generated.d.ts) lists every kind of the core (src/error.rs) and the package, as docs/errors.md documents them', () => {
  const dts = ts.createSourceFile('types.generated.d.ts', readFileSync(new URL('../../js/types.generated.d.ts', import.meta.url), 'utf8'), ts.ScriptTarget.Latest, true);
  const alias = dts.statements.find((s) => ts.isTypeAliasDeclaration(s) && s.name.text === 'ErrorKind');
  const declared = new Set(alias.type.types.map((t) => t.literal.text));
  const rust = readFileSync(new URL('../../src/error.rs', import.meta.url), 'utf8');
  const list = rust.slice(rust.indexOf('pub enum ErrorKind {'), rust.indexOf('\n    }\n', rust.indexOf('pub enum ErrorKind {')));
  const core = [...list.matchAll(/\w+ => "(\w+)"/g)].map((m) => m[1]);
  assert.ok(core.length >= 28);
  const page = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const section = page.slice(page.indexOf('## Error kinds'));
  const documented = new Set([...section.matchAll(/`([a-z]+(?:_[a-z]+)*)`/g)].map((m) => m[1]).filter((k) => declared.has(k) || core.includes(k)));
  for (const k of core) assert.ok(declared.has(k), `ErrorKind lacks the core's ${k}`);
  assert.deepEqual([...declared].filter((k) => !documented.has(k)), [], 'kinds docs/errors.md does not document');
});

test('a LevelDB table larger than any table is too_large with offset null (the size, no byte), before any read', async () => {
  let reads = 0;
  const huge = { size: 2 ** 30, read: async () => (reads++, new Uint8Array(0)) };
  await assert.rejects(openLevelDbTable(huge), typed('too_large', { offset: null }));
  assert.equal(reads, 0);
});

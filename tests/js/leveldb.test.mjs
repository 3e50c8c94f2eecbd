// LevelDB tables written by the real LevelDB 1.22 (PyPI plyvel), through the npm API and the CLI.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openLevelDbTable, loadLevelDb, TsFileBloomError } from 'tsfile-bloom';

const DIR = new URL('../fixtures/leveldb/', import.meta.url);
const { tables } = JSON.parse(readFileSync(new URL('manifest.json', DIR), 'utf8'));
const path = (t) => fileURLToPath(new URL(t.file, DIR));
const fromHex = (h) => Uint8Array.from(Buffer.from(h, 'hex'));
const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));

test('policy, filters and k match what LevelDB wrote; every live key is maybe-present', async () => {
  for (const t of tables) {
    const table = await openLevelDbTable(path(t));
    assert.equal(table.info.filterPolicy, t.filter_policy ?? null, t.file);
    if (!t.bits_per_key) {
      assert.deepEqual(table.filters, [], t.file);
      assert.equal(table.probe(fromHex(t.live_keys[0])).reason, 'no_filter');
      table.close();
      continue;
    }
    // One filter per 2 KiB window of data-block offsets, up to the last block's window.
    const blocks = table.dataBlocks();
    const lastWindow = Math.floor(blocks.at(-1).offset / 2048);
    assert.equal(table.filters.length, lastWindow + 1, t.file);
    for (const f of table.filters) {
      const expectedOffsets = blocks.filter((b) => Math.floor(b.offset / 2048) === f.index).map((b) => b.offset);
      assert.deepEqual(f.dataBlockOffsets, expectedOffsets, `${t.file} filter ${f.index}`);
      if (expectedOffsets.length) assert.equal(f.k, t.expected_k, `${t.file} filter ${f.index}`);
      else assert.equal(f.length, 0, 'a window without data blocks has an empty filter');
    }
    for (const hex of t.live_keys) {
      const p = table.probe(fromHex(hex));
      assert.equal(p.verdict, 'maybe', `${t.file} key ${hex}`);
      assert.equal(p.probes.length, t.expected_k);
    }
    table.close();
  }
});

test('from bytes, ArrayBuffer and Blob too; hostile bytes reject with typed Errors', async () => {
  const t = tables.find((x) => x.bits_per_key === 10);
  const bytes = new Uint8Array(readFileSync(path(t)));
  for (const src of [bytes, bytes.slice().buffer, new Blob([bytes])]) {
    const table = await openLevelDbTable(src);
    assert.equal(table.filters.length > 0, true);
    table.close();
  }
  const bad = bytes.slice();
  bad[bad.length - 1] ^= 0xff;
  await assert.rejects(openLevelDbTable(bad), (e) => e instanceof TsFileBloomError && e.kind === 'bad_footer_magic' && typeof e.offset === 'number');
  const crc = bytes.slice();
  const table = await openLevelDbTable(bytes);
  const f = table.filters.find((x) => x.length > 0);
  crc[f.offset] ^= 0x01; // one bit of the filter block: its CRC no longer matches
  await assert.rejects(openLevelDbTable(crc), (e) => e.kind === 'bad_checksum');
  await assert.rejects(openLevelDbTable(new Uint8Array(10)), (e) => e.kind === 'too_short');
});

test('LevelDB filter maths: k from bits_per_key, CreateFilter and KeyMayMatch', async () => {
  const ldb = await loadLevelDb();
  assert.deepEqual([4, 10, 20, 50].map(ldb.k), [2, 6, 13, 30]);
  const keys = Array.from({ length: 1000 }, (_, i) => `key-${i}`);
  const f = ldb.buildFilter(keys, 10);
  assert.equal(f.k, 6);
  assert.equal(f.bitCount, 10000);
  assert.ok(keys.every((k) => ldb.probeFilter(k, f.bytes).verdict === 'maybe'));
  // False positives near the ~1 % LevelDB documents for 10 bits per key.
  let fp = 0;
  for (let i = 0; i < 20000; i++) if (ldb.probeFilter(`other-${i}`, f.bytes).verdict === 'maybe') fp++;
  assert.ok(fp / 20000 < 0.03, `fp rate ${fp / 20000}`);
  // Tiny key sets still get the 64-bit minimum.
  assert.equal(ldb.buildFilter(['a'], 10).bitCount, 64);
});

test('CLI auto-detects LevelDB tables', () => {
  const t = tables.find((x) => x.bits_per_key === 10);
  const r = spawnSync(process.execPath, [CLI, 'inspect', path(t), '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.format, 'leveldb');
  assert.equal(j.filter_policy, 'leveldb.BuiltinBloomFilter2');
  assert.ok(j.filters.length > 0);
  for (const k of ['index', 'offset', 'length', 'k', 'bit_count', 'set_bits', 'data_block_offsets']) assert.ok(k in j.filters[0], k);
  const key = Buffer.from(t.live_keys.find((h) => /^[0-9a-f]+$/.test(h) && Buffer.from(h, 'hex').toString('utf8').match(/^[\x20-\x7e]+$/)) ?? t.live_keys[0], 'hex');
  const p = spawnSync(process.execPath, [CLI, 'probe', path(t), '--hex', key.toString('hex'), '--json'], { encoding: 'utf8' });
  assert.equal(p.status, 0, p.stderr);
  assert.equal(JSON.parse(p.stdout).results[0].verdict, 'maybe');
  const none = tables.find((x) => !x.bits_per_key);
  const n = JSON.parse(spawnSync(process.execPath, [CLI, 'inspect', path(none), '--json'], { encoding: 'utf8' }).stdout);
  assert.equal(n.filter_policy, null);
  assert.deepEqual(n.filters, []);
});

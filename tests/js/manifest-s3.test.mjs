// Repeat scans of an s3:// prefix from a manifest, against a real S3 protocol server started here
// on 127.0.0.1 (s3s-fs, as tests/js/s3.test.mjs): an object is answered from the manifest when its
// listing (ListObjectsV2: ETag, size, LastModified) says it is the one recorded, and read again
// when it changed; the rescan's records and summary equal a fresh scan's and the local scan's.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scanWithKnobs } from './helpers.mjs';
import '../../js/node.js'; // initialises the wasm the scanner uses
import { IOTDB_LAYOUT } from './fleet.mjs';
import { startS3s } from './servers.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const S3S = join(ROOT, '.tools/s3s/bin/s3s-fs');
const FIXTURES = join(ROOT, 'tests/fixtures');
const KEYS = { accessKeyId: 'AKIATSFILEBLOOMTEST', secretAccessKey: 'tsfile-bloom-test-secret/key+2' };
const LAYOUT = IOTDB_LAYOUT;
const PATHS = ['root.sg1.d1.s1', 'root.设备.湿度', 'root.sg.d1.温度', 'root.nowhere.d.s'];

let dir;
let server;
let s3;

before(async () => {
  if (!existsSync(S3S)) return;
  dir = mkdtempSync(join(tmpdir(), 'tsfile-bloom-manifest-s3-'));
  for (const [key, fixture] of Object.entries(LAYOUT)) {
    cpSync(join(FIXTURES, fixture), join(dir, 'store/iotdb', key));
    cpSync(join(FIXTURES, fixture), join(dir, 'local', key));
  }
  server = await startS3s(join(dir, 'store'), KEYS);
  s3 = { ...KEYS, endpoint: server.origin, region: 'us-east-1' };
});

after(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function scan(target, options) {
  const s = await scanWithKnobs(target, { paths: PATHS, s3, manifestRacyMs: 0, ...options });
  const records = [];
  for await (const r of s) records.push(r);
  return { records, summary: await s.summary };
}
const facts = ({ bytesRead, reads, ...rest }) => rest;
const local = ({ file, bytesRead, reads, ...rest }) => rest;
function summaryFacts(s) {
  const { elapsedMs, filesPerSecond, bytesRead, reads, readsPerFile, manifest, ...rest } = s;
  return rest;
}

describe('an s3:// prefix rescanned from a manifest', { skip: existsSync(S3S) ? false : 's3s-fs is not installed (bash scripts/setup.sh --s3)' }, () => {
  for (const audit of [false, true]) {
    test(`equals a fresh scan and the local scan, objects answered by their listing${audit ? ', with --audit' : ''}`, async () => {
      const manifest = join(dir, `s3-${audit}.manifest`);
      const first = await scan('s3://iotdb/data/', { audit, manifest });
      const fresh = await scan('s3://iotdb/data/', { audit });
      const again = await scan('s3://iotdb/data/', { audit, manifest });
      const disk = await scan(join(dir, 'local/data'), { audit });
      assert.deepEqual(again.records.map(facts), fresh.records.map(facts));
      assert.deepEqual(again.records.map(local), disk.records.map(local));
      assert.deepEqual(summaryFacts(again.summary), summaryFacts(fresh.summary));
      assert.equal(first.summary.manifest.answered, 0);
      assert.equal(again.summary.manifest.answered, fresh.summary.ok);
      assert.equal(fresh.summary.ok, 5);
      for (const r of again.records) assert.equal(r.reads === 0, r.ok, `${r.file}: answered without a request iff readable`);
    });
  }

  test('a changed object (its listing: ETag, size, Last-Modified — s3s-fs lists no ETag) is read again; new paths come from the kept bytes', async () => {
    const manifest = join(dir, 'change.manifest');
    await scan('s3://iotdb/data/', { manifest });
    const key = 'data/sequence/root.sg1/0/0/1700000000001-2-0-0.tsfile';
    const store = join(dir, 'store/iotdb', key);
    const bytes = readFileSync(store);
    bytes[bytes.length - 60] ^= 0x10; // same size, other bytes: another ETag (where listed) and Last-Modified
    writeFileSync(store, bytes);
    const more = [...PATHS, 'root.sg1.d2.s3'];
    const fresh = await scan('s3://iotdb/data/', { paths: more });
    const again = await scan('s3://iotdb/data/', { paths: more, manifest });
    assert.deepEqual(again.records.map(facts), fresh.records.map(facts));
    const changed = again.records.find((r) => r.file === `s3://iotdb/${key}`);
    assert.ok(changed.reads > 0, 'the changed object was read');
    assert.equal(again.summary.manifest.answered, fresh.summary.ok - (changed.ok ? 1 : 0));
  });
});

// s3:// targets against a real S3 protocol server started here on 127.0.0.1: s3s-fs (crates.io,
// installed by scripts/setup.sh --s3), which verifies every request's AWS Signature V4. A bucket
// holds real-writer TsFiles in IoTDB's layout (data/sequence/<database>/<region>/<partition>/);
// opening and scanning them must equal the local open and scan of the same files, with the
// settings given as the `s3` option, by the AWS_* environment variables, or by a profile in the
// shared credentials file; a wrong key is the typed 'denied', a missing bucket or object theirs.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openTsFile, scanTsFiles } from '../../js/node.js';
import { s3ConfigFromEnvironment } from '../../js/s3-config.js';
import { s3Source } from '../../js/s3.js';
import { NODE_S3 } from '../../js/node-s3.js';
import { freePort } from './servers.mjs';
import { IOTDB_LAYOUT } from './fleet.mjs';
import { everything } from '../consumer/checks.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const S3S = join(ROOT, '.tools/s3s/bin/s3s-fs');
const CLI = join(ROOT, 'js/cli.js');
const FIXTURES = join(ROOT, 'tests/fixtures');
const KEYS = { accessKeyId: 'AKIATSFILEBLOOMTEST', secretAccessKey: 'tsfile-bloom-test-secret/key+1' };
const LAYOUT = IOTDB_LAYOUT;
const PATHS = ['root.sg1.d1.s1', 'root.设备.湿度', 'root.nowhere.d.s'];

let dir;
let local; // the same files on disk, under the same names
let server;
let endpoint;
let s3;

before(async () => {
  if (!existsSync(S3S)) return;
  dir = mkdtempSync(join(tmpdir(), 'tsfile-bloom-s3-'));
  local = join(dir, 'local');
  for (const [key, fixture] of Object.entries(LAYOUT)) {
    cpSync(join(FIXTURES, fixture), join(dir, 'store/iotdb', key));
    cpSync(join(FIXTURES, fixture), join(local, key));
  }
  mkdirSync(join(dir, 'store/empty'));
  const port = await freePort();
  server = spawn(S3S, ['--host', '127.0.0.1', '--port', String(port), '--access-key', KEYS.accessKeyId, '--secret-key', KEYS.secretAccessKey, join(dir, 'store')], { stdio: 'ignore' });
  endpoint = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (await fetch(endpoint).then(() => true, () => false)) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  s3 = { ...KEYS, endpoint, region: 'us-east-1' };
});

after(async () => {
  server?.kill('SIGTERM');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const strip = ({ file, bytesRead, reads, ...rest }) => rest;

async function scanAll(target, options) {
  const records = [];
  const scan = scanTsFiles(target, { paths: PATHS, audit: true, ...options });
  for await (const r of scan) records.push(r);
  return { records, summary: await scan.summary };
}

describe('s3:// against s3s-fs (signatures verified)', { skip: existsSync(S3S) ? false : 's3s-fs is not installed (bash scripts/setup.sh --s3)' }, () => {
  test('opening an object equals opening the file: every field, listing, audit and probes', async () => {
    for (const key of Object.keys(LAYOUT).filter((k) => k.endsWith('.tsfile'))) {
      const fromS3 = await openTsFile(`s3://iotdb/${key}`, { s3 }).then((t) => everything(t, { fullListing: true }).finally(() => t.close()), (e) => ({ kind: e.kind, offset: e.offset, message: e.message }));
      const fromDisk = await openTsFile(join(local, key)).then((t) => everything(t, { fullListing: true }).finally(() => t.close()), (e) => ({ kind: e.kind, offset: e.offset, message: e.message }));
      assert.deepEqual(fromS3, fromDisk, key);
    }
  });

  test('Node’s transport (node:http, signed by aws4) and every other runtime’s (fetch, signed by aws4fetch) read the same bytes; both are refused a wrong key', async () => {
    assert.equal(NODE_S3?.name, 'node', 'Node reads s3:// with its own transport');
    let opened = 0;
    for (const key of Object.keys(LAYOUT).filter((k) => k.endsWith('.tsfile'))) {
      const [node, web] = await Promise.all([NODE_S3, null].map(async (runtime) => {
        const source = await s3Source(`s3://iotdb/${key}`, { s3 }, null, runtime);
        return openTsFile(source).then((t) => everything(t, { fullListing: true }).finally(() => t.close()), (e) => ({ kind: e.kind, offset: e.offset, message: e.message }));
      }));
      assert.deepEqual(node, web, key);
      if (node.kind === undefined) opened++;
    }
    assert.ok(opened >= 4, `${opened} objects opened by both transports`);
    const wrong = { ...s3, secretAccessKey: 'not-the-key' };
    for (const runtime of [NODE_S3, null]) {
      await assert.rejects(s3Source(`s3://iotdb/${Object.keys(LAYOUT)[0]}`, { s3: wrong }, null, runtime), (e) => e.kind === 'io' && e.reason === 'denied', runtime?.name ?? 'web');
    }
  });

  test('a fetch option is the one used, also after another fetch opened with the same settings', async () => {
    const key = Object.keys(LAYOUT).find((k) => k.endsWith('.tsfile'));
    const calls = [0, 0];
    for (const i of [0, 1]) {
      const counting = (url, init) => (calls[i]++, globalThis.fetch(url, init));
      const t = await openTsFile(`s3://iotdb/${key}`, { s3, fetch: counting });
      await t.close();
    }
    assert.ok(calls[0] > 0 && calls[1] > 0, `requests per fetch: ${calls}`);
  });

  test('scanning a prefix lists it (ListObjectsV2, page by page) and gives the local scan’s records', async () => {
    const remote = await scanAll('s3://iotdb/data/', { s3: { ...s3, pageSize: 2 } });
    const disk = await scanAll(join(local, 'data'));
    assert.deepEqual(remote.records.map((r) => r.file), Object.keys(LAYOUT).filter((k) => k.endsWith('.tsfile')).sort().map((k) => `s3://iotdb/${k}`));
    assert.deepEqual(remote.records.map(strip), disk.records.map(strip));
    assert.equal(remote.summary.files, 6);
    assert.deepEqual(remote.summary.paths.map((p) => p.skippable), disk.summary.paths.map((p) => p.skippable));
  });

  test('a listed object opens with the ranges its listed size calls for: 1 request when the tail window holds it, else the head and the window at once', async () => {
    // Without audit, a record's reads are its requests. The listing gave each object's size, so
    // the open asks explicitly — the whole object, or its head and tail window together — and
    // s3s-fs's refusal of a suffix range on a small object (500) costs nothing.
    const remote = await scanAll('s3://iotdb/data/', { s3, audit: false });
    const disk = await scanAll(join(local, 'data'), { audit: false });
    assert.deepEqual(remote.records.map(strip), disk.records.map(strip));
    const want = remote.records.map((r) => {
      const bytes = readFileSync(join(local, r.file.slice('s3://iotdb/'.length)));
      // TsFileMetadata beyond the window (its length is the int32 before the 6-byte magic) costs
      // one more — when the file holds it (a truncated one is refused unread).
      const metadata = bytes.length >= 10 ? new DataView(bytes.buffer, bytes.byteOffset).getInt32(bytes.length - 10) : 0;
      return (bytes.length > 4096 ? 2 : 1) + (metadata + 10 > 4096 && metadata + 10 <= bytes.length ? 1 : 0);
    });
    assert.deepEqual(remote.records.map((r) => r.reads), want);
    assert.ok(want.includes(1) && want.some((n) => n > 1), JSON.stringify(want));
  });

  test('a wrong key is denied, a missing bucket or object is named: typed errors, the scan goes on', async () => {
    const key = 's3://iotdb/data/sequence/root.sg1/0/0/1700000000000-1-0-0.tsfile';
    const denied = await openTsFile(key, { s3: { ...s3, secretAccessKey: 'not-the-key' } }).then(() => null, (e) => e);
    assert.deepEqual([denied?.kind, denied?.reason], ['io', 'denied'], denied?.message);
    assert.match(denied.message, /SignatureDoesNotMatch/);
    assert.ok(denied.message.endsWith(key));
    const unknownKey = await openTsFile(key, { s3: { ...s3, accessKeyId: 'AKIAUNKNOWN' } }).then(() => null, (e) => e);
    assert.deepEqual([unknownKey?.kind, unknownKey?.reason], ['io', 'denied'], unknownKey?.message);
    const missing = await openTsFile('s3://iotdb/data/none.tsfile', { s3 }).then(() => null, (e) => e);
    assert.deepEqual([missing?.kind, missing?.reason], ['io', 'no_such_key'], missing?.message);
    const scan = await scanAll(['s3://no-such-bucket/', 's3://iotdb/data/unsequence/'], { s3 });
    assert.deepEqual(scan.records.map((r) => [r.file, r.error?.kind ?? null]), [
      ['s3://no-such-bucket/', 'io'],
      ['s3://iotdb/data/unsequence/root.sg1/0/0/1700000000004-5-0-0.tsfile', 'bad_tail_magic'],
      ['s3://iotdb/data/unsequence/root.sg1/0/0/1700000000005-6-0-0.tsfile', null],
    ]);
    assert.match(scan.records[0].error.message, /no such bucket/i);
    const empty = await scanAll('s3://empty/', { s3 });
    assert.equal(empty.summary.files, 0);
  });

  test('the CLI scans s3:// with the AWS_* environment variables, and with a profile from the shared credentials file', () => {
    const target = 's3://iotdb/data/sequence/';
    const run = (env) => spawnSync(process.execPath, [CLI, 'scan', target, '--json', '--audit', '--path', PATHS[0]], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: dir, ...env } });
    const fromEnv = run({ AWS_ACCESS_KEY_ID: KEYS.accessKeyId, AWS_SECRET_ACCESS_KEY: KEYS.secretAccessKey, AWS_REGION: 'us-east-1', AWS_ENDPOINT_URL_S3: endpoint });
    assert.equal(fromEnv.status, 0, fromEnv.stderr);
    const lines = (r) => r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    const records = lines(fromEnv).filter((l) => l.file?.startsWith('s3://'));
    assert.equal(records.length, 4);
    assert.ok(records.every((r) => r.ok), JSON.stringify(records));
    writeFileSync(join(dir, 'credentials'), `[default]\naws_access_key_id = wrong\naws_secret_access_key = wrong\n\n[tsfiles]\naws_access_key_id = ${KEYS.accessKeyId}\naws_secret_access_key = ${KEYS.secretAccessKey}\n`);
    writeFileSync(join(dir, 'config'), `[profile tsfiles]\nregion = us-east-1\nendpoint_url = ${endpoint}\n`);
    const fromProfile = run({ AWS_PROFILE: 'tsfiles', AWS_SHARED_CREDENTIALS_FILE: join(dir, 'credentials'), AWS_CONFIG_FILE: join(dir, 'config') });
    assert.equal(fromProfile.status, 0, fromProfile.stderr);
    assert.deepEqual(lines(fromProfile).filter((l) => l.file?.startsWith('s3://')), records);
    const wrong = run({ AWS_SHARED_CREDENTIALS_FILE: join(dir, 'credentials'), AWS_CONFIG_FILE: join(dir, 'config'), AWS_ENDPOINT_URL: endpoint });
    const failed = lines(wrong).find((l) => l.file === target);
    assert.equal(failed?.error?.kind, 'io', wrong.stdout);
    assert.match(failed.error.message, /access denied|InvalidAccessKeyId/);
  });
});

test('the environment conventions: variables over the profile, the profile from AWS_PROFILE, endpoints', () => {
  const home = mkdtempSync(join(tmpdir(), 'tsfile-bloom-aws-'));
  try {
    mkdirSync(join(home, '.aws'));
    writeFileSync(join(home, '.aws/credentials'), '[default]\naws_access_key_id = AKD\naws_secret_access_key = SKD\n[p]\naws_access_key_id = AKP\naws_secret_access_key = SKP\naws_session_token = TKP\n');
    writeFileSync(join(home, '.aws/config'), '[default]\nregion = eu-west-1\n[profile p]\nregion = ap-south-1\nendpoint_url = http://minio.local:9000\n');
    assert.deepEqual(s3ConfigFromEnvironment({ HOME: home }), { accessKeyId: 'AKD', secretAccessKey: 'SKD', sessionToken: undefined, region: 'eu-west-1', endpoint: undefined, profile: 'default' });
    assert.deepEqual(s3ConfigFromEnvironment({ HOME: home, AWS_PROFILE: 'p' }), { accessKeyId: 'AKP', secretAccessKey: 'SKP', sessionToken: 'TKP', region: 'ap-south-1', endpoint: 'http://minio.local:9000', profile: 'p' });
    const env = s3ConfigFromEnvironment({ HOME: home, AWS_PROFILE: 'p', AWS_ACCESS_KEY_ID: 'AKE', AWS_SECRET_ACCESS_KEY: 'SKE', AWS_SESSION_TOKEN: 'TKE', AWS_DEFAULT_REGION: 'us-west-2', AWS_ENDPOINT_URL: 'http://a', AWS_ENDPOINT_URL_S3: 'http://b' });
    assert.deepEqual(env, { accessKeyId: 'AKE', secretAccessKey: 'SKE', sessionToken: 'TKE', region: 'us-west-2', endpoint: 'http://b', profile: 'p' });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

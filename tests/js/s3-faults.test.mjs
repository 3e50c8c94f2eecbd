// s3:// against a store that misbehaves, or holds keys a URL parser would rewrite: the suite's
// own S3 endpoint (tests/js/fake-s3.mjs, verifying every request's signature over the path as
// sent), through the API (scanTsFiles, openTsFile) and the real CLI as a child process (scan,
// inspect; --timeout, --list maybe, --manifest).
//
// - Keys are keys: a listed object is read by exactly its key ('.', '..', '%2f', '?', '#', '%',
//   '&'), never by its name parsed again; where only fetch is there (a `fetch` option, other
//   runtimes) a key fetch would rewrite is a typed error before any request.
// - The version read is the version listed: a GET that serves another ETag (a stale cache) is
//   the typed 'changed', which a scan lists as must-read and a manifest never records.
// - Every request and every wait is bounded: a silent, dripping or looping listing, empty
//   truncated pages, a refused connection, a bad endpoint — each a typed error on its target's
//   row, under --timeout, timeoutMs/deadlineMs and an AbortSignal.
// - Secrets stay secret: a redirect to another origin carries no signature, token or header of
//   the caller's; a bad setting or header is named, its value never shown.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openTsFile, scanTsFiles } from '../../js/node.js';
import { startFakeS3, startRecorder } from './fake-s3.mjs';
import { freePort } from './servers.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'js/cli.js');
const P = 'root.sg1.d1.s1';
// A TsFile holding P, and one of the same size whose filter has no bit set (P absent).
const HOLDS = readFileSync(join(ROOT, 'tests/fixtures/tsfile/tree_1series.tsfile'));
const LACKS = Buffer.from(HOLDS);
LACKS.fill(0, 241, 241 + 24); // the filter's bits (bloomInfo: bitsOffset 241, byteLength 24)
const KEYS = { accessKeyId: 'AKIAFAKES3TEST', secretAccessKey: 'fake-s3-secret/key+1', sessionToken: 'FAKE-SESSION-TOKEN-0123456789' };
const SECRET_HEADERS = ['authorization', 'x-amz-security-token', 'x-amz-date', 'x-amz-content-sha256', 'proxy-authorization', 'x-api-key', 'cookie'];

let home;
before(() => {
  home = mkdtempSync(join(tmpdir(), 'tsfile-bloom-s3-faults-'));
});
after(() => rmSync(home, { recursive: true, force: true }));

/** The CLI as a child process (asynchronous: the store answers from this process). Killed after `bound` ms, only to keep a broken build from hanging the suite. */
function cli(args, { env = {}, bound = 20_000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, HOME: home, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), bound);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    });
  });
}
const awsEnv = (store, extra = {}) => ({ AWS_ACCESS_KEY_ID: KEYS.accessKeyId, AWS_SECRET_ACCESS_KEY: KEYS.secretAccessKey, AWS_SESSION_TOKEN: KEYS.sessionToken, AWS_REGION: 'us-east-1', AWS_ENDPOINT_URL_S3: store.origin, ...extra });
const lines = (text) => text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));

async function scanAll(targets, options) {
  const scan = scanTsFiles(targets, { paths: [P], ...options });
  const records = [];
  for await (const r of scan) records.push(r);
  return { records, summary: await scan.summary };
}
const verdicts = (records) => Object.fromEntries(records.map((r) => [r.file, r.ok ? r.results[0].verdict : `${r.error.kind}/${r.error.reason ?? ''}`]));
/** A promise that must settle: rejects the test (not hangs it) past `ms`. */
const bounded = (promise, ms = 15_000) => Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms).unref())]);

describe('keys are keys', () => {
  let store;
  let s3;
  // Keys a URL parser would rewrite, each next to the object it would be taken for.
  const TWIN = {
    'same/./x.tsfile': HOLDS,
    'same/x.tsfile': LACKS,
    'd/../../good/a.tsfile': HOLDS,
    'a%2fb.tsfile': HOLDS,
    'a/b.tsfile': LACKS,
    'q?x.tsfile': HOLDS,
    'h#x.tsfile': HOLDS,
    'lt&#60;.tsfile': HOLDS,
    '100%.tsfile': HOLDS,
    'amp&x=1.tsfile': HOLDS,
    'sp ace+plus.tsfile': HOLDS,
  };
  before(async () => {
    store = await startFakeS3({ twin: TWIN, good: { 'a.tsfile': LACKS } }, { credentials: KEYS });
    s3 = { ...KEYS, endpoint: store.origin, region: 'us-east-1' };
  });
  after(() => store.close());

  test('a scan reads every listed object by exactly its key (signed over that path), never another object or bucket', async () => {
    store.requests.length = 0;
    const { records } = await scanAll('s3://twin/', { s3, concurrency: 2 });
    const want = Object.fromEntries(Object.entries(TWIN).map(([k, bytes]) => [`s3://twin/${k}`, bytes === HOLDS ? 'maybe' : 'absent']));
    assert.deepEqual(verdicts(records), want);
    const paths = store.requests.map((r) => r.url.split('?')[0]);
    assert.ok(paths.every((p) => p.startsWith('/twin/')), `every request in the listed bucket: ${paths.join(' ')}`);
    assert.ok(paths.includes('/twin/same/./x.tsfile') && paths.includes('/twin/d/../../good/a.tsfile'), 'dot segments sent as they are');
  });

  test('scan --list maybe names the object that holds the path (its dot segment kept); nothing is read twice or from another bucket', async () => {
    store.requests.length = 0;
    const r = await cli(['scan', 's3://twin/', '--path', P, '--list', 'maybe'], { env: awsEnv(store) });
    assert.equal(r.status, 0, r.stderr);
    const listed = r.stdout.split('\n').filter(Boolean).sort();
    assert.deepEqual(listed, Object.keys(TWIN).filter((k) => TWIN[k] === HOLDS).map((k) => `s3://twin/${k}`).sort());
    assert.ok(store.requests.every((q) => q.url.startsWith('/twin/') || q.url.startsWith('/twin?')), store.requests.map((q) => q.url).join(' '));
  });

  test('a location given as a string is taken literally, as the AWS CLI takes it: ?, #, % and dot segments are the key', async () => {
    for (const key of ['100%.tsfile', 'q?x.tsfile', 'h#x.tsfile', 'same/./x.tsfile', 'a%2fb.tsfile']) {
      const t = await openTsFile(`s3://twin/${key}`, { s3 });
      assert.equal(t.probe(P).verdict, 'maybe', key);
      await t.close();
    }
    const r = await cli(['inspect', 's3://twin/same/./x.tsfile', '--json'], { env: awsEnv(store) });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).bloom_filter.set_bits, 5);
    const bad = await openTsFile('s3://no/such/bucket?/x', { s3 }).then(() => null, (e) => e);
    assert.equal(bad?.kind, 'io', bad?.message);
    const notOne = await openTsFile('s3:///x.tsfile', { s3 }).then(() => null, (e) => e);
    assert.deepEqual([notOne?.kind, notOne?.argument], ['invalid_argument', 'source'], notOne?.message);
  });

  test('where only fetch is there (a fetch option), a key fetch would rewrite is the typed dot_segment_key before any request for it', async () => {
    store.requests.length = 0;
    const { records } = await scanAll('s3://twin/same/', { s3, fetch: (url, init) => globalThis.fetch(url, init) });
    assert.deepEqual(verdicts(records), { 's3://twin/same/./x.tsfile': 'io/dot_segment_key', 's3://twin/same/x.tsfile': 'absent' });
    assert.equal(store.requests.filter((q) => q.url === '/twin/same/x.tsfile').length, 1, 'same/x.tsfile read once: for itself');
    const direct = await openTsFile('s3://twin/d/../../good/a.tsfile', { s3, fetch: globalThis.fetch }).then(() => null, (e) => e);
    assert.deepEqual([direct?.kind, direct?.reason], ['io', 'dot_segment_key'], direct?.message);
  });

  test('a key listed again on a later page is reported once', async () => {
    store.mode.listing = 'repeat';
    try {
      const { records } = await scanAll('s3://twin/', { s3: { ...s3, pageSize: 3 } });
      assert.deepEqual(records.map((r) => r.file).sort(), Object.keys(TWIN).map((k) => `s3://twin/${k}`).sort());
    } finally {
      store.mode.listing = undefined;
    }
  });

  test('an entry listed with Size -1 is its own typed row (bad_listing); the others are read', async () => {
    store.mode.listing = 'negative-size';
    try {
      const { records } = await scanAll('s3://twin/same/', { s3 });
      assert.deepEqual(verdicts(records), { 's3://twin/same/./x.tsfile': 'io/bad_listing', 's3://twin/same/x.tsfile': 'absent' });
      assert.doesNotMatch(records[0].error.message, /listedSize/);
    } finally {
      store.mode.listing = undefined;
    }
  });
});

describe('the version read is the version listed', () => {
  test('a cache that serves older bytes under another ETag: changed, listed as must-read, never recorded by a manifest', async () => {
    const store = await startFakeS3({ cache: { 'x.tsfile': { bytes: HOLDS, etag: '"new"' } } }, { credentials: KEYS });
    const manifest = join(home, 'stale.manifest');
    try {
      // The cache in front of the store still has the old version: same size, P absent from it.
      store.mode.stale = { 'x.tsfile': { bytes: LACKS, etag: '"old"' } };
      const s3 = { ...KEYS, endpoint: store.origin };
      const { records } = await scanAll('s3://cache/', { s3 });
      assert.deepEqual([records[0].error?.kind, records[0].error?.reason], ['changed', 'etag'], JSON.stringify(records[0]));
      const env = awsEnv(store);
      const first = await cli(['scan', 's3://cache/', '--path', P, '--list', 'maybe', '--manifest', manifest], { env });
      assert.equal(first.stdout, 's3://cache/x.tsfile\n', first.stderr);
      // The cache is fixed: the rescan reads the object (nothing was recorded) and says maybe.
      store.mode.stale = undefined;
      const again = await cli(['scan', 's3://cache/', '--path', P, '--json', '--manifest', manifest], { env });
      const record = lines(again.stdout).find((l) => l.file === 's3://cache/x.tsfile');
      assert.equal(record?.results?.[0]?.verdict, 'maybe', again.stdout + again.stderr);
    } finally {
      await store.close();
    }
  });
});

describe('every request and every wait is bounded', () => {
  let store;
  let s3;
  before(async () => {
    store = await startFakeS3({ b: { 'p/one.tsfile': HOLDS, 'p/two.tsfile': LACKS, 'p/three.tsfile': HOLDS } }, { credentials: KEYS });
    s3 = { ...KEYS, endpoint: store.origin };
  });
  after(() => store.close());
  const listingRow = (records) => records.find((r) => r.file === 's3://b/p/');

  for (const [fault, reason] of [['silent', 'timeout'], ['drip', 'deadline'], ['half-close', 'network']]) {
    test(`a ${fault} listing ends in the typed ${reason} on its target's row, through the API and under the CLI's --timeout`, async () => {
      store.mode.listing = fault;
      try {
        const { records } = await bounded(scanAll('s3://b/p/', { s3, timeoutMs: 500, deadlineMs: 1500 }));
        assert.deepEqual(records.map((r) => [r.file, r.error?.kind, r.error?.reason]), [['s3://b/p/', 'io', reason]]);
        const r = await cli(['scan', 's3://b/p/', '--path', P, '--json', '--timeout', '1'], { env: awsEnv(store) });
        assert.equal(r.status, 2, r.stderr);
        const row = lines(r.stdout).find((l) => l.file === 's3://b/p/');
        assert.deepEqual([row?.error?.kind, row?.error?.reason], ['io', reason], r.stdout);
      } finally {
        store.mode.listing = undefined;
      }
    });
  }

  test('a scan cancelled by its AbortSignal while a listing page hangs settles, cancelled', async () => {
    store.mode.listing = 'silent';
    try {
      const controller = new AbortController();
      const scan = scanAll('s3://b/p/', { s3, signal: controller.signal });
      setTimeout(() => controller.abort(), 200);
      const err = await bounded(scan.then(() => null, (e) => e));
      assert.equal(err?.kind, 'cancelled', err?.message);
    } finally {
      store.mode.listing = undefined;
    }
  });

  test('continuation tokens that loop (t1 → t2 → t1) end in listing_loop after each object once', async () => {
    store.mode.listing = 'loop';
    try {
      const { records } = await bounded(scanAll('s3://b/p/', { s3: { ...s3, pageSize: 1 } }));
      assert.deepEqual(records.slice(0, -1).map((r) => r.file).sort(), ['s3://b/p/one.tsfile', 's3://b/p/three.tsfile', 's3://b/p/two.tsfile']);
      assert.deepEqual([listingRow(records)?.error?.kind, listingRow(records)?.error?.reason], ['io', 'listing_loop']);
    } finally {
      store.mode.listing = undefined;
    }
  });

  test('empty truncated pages end the listing: one token repeated (listing_loop), or new tokens without end (listing_empty)', async () => {
    for (const [fault, reason] of [['empty', 'listing_loop'], ['empty-fresh', 'listing_empty']]) {
      store.mode.listing = fault;
      try {
        const { records } = await bounded(scanAll('s3://b/p/', { s3 }));
        assert.deepEqual(records.map((r) => [r.file, r.error?.kind, r.error?.reason]), [['s3://b/p/', 'io', reason]], fault);
      } finally {
        store.mode.listing = undefined;
      }
    }
  });

  test('a refused connection, an ftp:// endpoint and one that is no URL: typed, on the target’s row, the scan goes on', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const cases = [
      [{ ...s3, endpoint: closed }, 'io', 'network', undefined],
      [{ ...s3, endpoint: 'ftp://127.0.0.1/' }, 'invalid_argument', undefined, 's3.endpoint'],
      [{ ...s3, endpoint: 'not a url' }, 'invalid_argument', undefined, 's3.endpoint'],
    ];
    for (const [config, kind, reason] of cases) {
      const { records } = await bounded(scanAll(['s3://b/p/', 's3://b/p/one.tsfile'], { s3: config }));
      assert.equal(records.length, 2);
      for (const r of records) assert.deepEqual([r.error?.kind, r.error?.reason], [kind, reason], `${config.endpoint}: ${r.error?.message}`);
    }
    const err = await openTsFile('s3://b/p/one.tsfile', { s3: cases[1][0] }).then(() => null, (e) => e);
    assert.equal(err?.argument, 's3.endpoint');
  });

  test('a single s3:// object that never answers honours --timeout (inspect and scan) and timeoutMs', async () => {
    store.mode.object = 'silent';
    try {
      const err = await bounded(openTsFile('s3://b/p/one.tsfile', { s3, timeoutMs: 300 }).then(() => null, (e) => e));
      assert.deepEqual([err?.kind, err?.reason], ['io', 'timeout'], err?.message);
      const inspect = await cli(['inspect', 's3://b/p/one.tsfile', '--timeout', '1', '--json'], { env: awsEnv(store), bound: 15_000 });
      assert.equal(inspect.signal, null, 'settled before the bound');
      assert.match(inspect.stderr + inspect.stdout, /sent nothing for 1000 ms|opening took longer than 1000 ms/);
      const scan = await cli(['scan', 's3://b/p/one.tsfile', '--path', P, '--json', '--timeout', '1'], { env: awsEnv(store), bound: 15_000 });
      assert.match(lines(scan.stdout)[0]?.error?.reason, /^(timeout|deadline)$/, scan.stdout);
    } finally {
      store.mode.object = undefined;
    }
  });
});

describe('secrets stay secret', () => {
  let store;
  let other;
  before(async () => {
    store = await startFakeS3({ b: { 'k.tsfile': HOLDS } }, { credentials: KEYS });
    other = await startRecorder();
  });
  after(async () => {
    await store.close();
    await other.close();
  });
  const leaked = () => other.requests.flatMap((r) => SECRET_HEADERS.filter((h) => h in r.headers));

  test('a redirect to another origin carries no signature, token or caller header: Node’s transport, a fetch option, a plain https URL', async () => {
    store.mode.redirect = other.origin;
    try {
      const s3 = { ...KEYS, endpoint: store.origin };
      const headers = { 'X-Api-Key': 'CALLER-SECRET', 'Proxy-Authorization': 'Basic c2VjcmV0' };
      for (const fetch of [undefined, (u, i) => globalThis.fetch(u, i)]) {
        other.requests.length = 0;
        const object = await openTsFile('s3://b/k.tsfile', { s3, headers, fetch }).then(() => null, (e) => e);
        assert.equal(object?.kind, 'io', object?.message);
        const { records } = await scanAll('s3://b/', { s3, headers, fetch });
        assert.equal(records[0].error?.kind, 'io');
        assert.ok(other.requests.length >= 2, 'the redirects were followed');
        assert.deepEqual(leaked(), [], fetch ? 'fetch option' : 'node:http');
      }
      // A plain URL with the caller's headers: the same rule.
      other.requests.length = 0;
      await openTsFile(`${store.origin}/b/k.tsfile`, { headers }).catch(() => null);
      assert.ok(other.requests.length >= 1);
      assert.deepEqual(leaked(), []);
      const r = await cli(['inspect', 's3://b/k.tsfile', '--header', 'X-Api-Key: CALLER-SECRET'], { env: awsEnv(store) });
      assert.notEqual(r.status, 0, r.stderr);
      assert.ok(other.requests.length >= 1);
      assert.deepEqual(leaked(), []);
    } finally {
      store.mode.redirect = undefined;
    }
  });

  test('a session token or region with a line break: named, never printed (API, scan record, inspect)', async () => {
    const token = 'TOKEN-SECRET-1234\nrest';
    const err = await openTsFile('s3://b/k.tsfile', { s3: { ...KEYS, sessionToken: token, endpoint: store.origin } }).then(() => null, (e) => e);
    assert.deepEqual([err?.kind, err?.argument], ['invalid_argument', 's3.sessionToken'], err?.message);
    assert.doesNotMatch(err.message, /TOKEN-SECRET/);
    for (const [extra, setting] of [[{ AWS_SESSION_TOKEN: token }, 'AWS_SESSION_TOKEN'], [{ AWS_REGION: 'us-east-1\nx' }, 'AWS_REGION']]) {
      const env = awsEnv(store, extra);
      const scan = await cli(['scan', 's3://b/', 's3://b/k.tsfile', '--path', P, '--json'], { env });
      const inspect = await cli(['inspect', 's3://b/k.tsfile'], { env });
      for (const out of [scan.stdout + scan.stderr, inspect.stdout + inspect.stderr]) {
        assert.doesNotMatch(out, /TOKEN-SECRET|Signature=|AWS4-HMAC|fake-s3-secret/, out);
        assert.match(out, new RegExp(setting), out);
      }
      assert.equal(lines(scan.stdout).filter((l) => l.error?.kind === 'invalid_argument').length, 2, scan.stdout);
    }
  });

  test('a header value with a line break is named, never printed: the headers option and --header', async () => {
    const err = await openTsFile(`${store.origin}/b/k.tsfile`, { headers: { 'X-Api-Key': 'HEADER-SECRET\nx' } }).then(() => null, (e) => e);
    assert.deepEqual([err?.kind, err?.argument], ['invalid_argument', 'headers'], err?.message);
    assert.doesNotMatch(err.message, /HEADER-SECRET/);
    assert.match(err.message, /X-Api-Key/);
    for (const header of ['X-Api-Key: HEADER-SECRET\rx', 'Authorization Bearer HEADER-SECRET']) {
      const r = await cli(['inspect', `${store.origin}/b/k.tsfile`, '--header', header]);
      assert.equal(r.status, 2, r.stderr);
      assert.doesNotMatch(r.stdout + r.stderr, /HEADER-SECRET/);
    }
  });
});

// Listing URLs (the browsers' scanTsFiles, js/s3.js listingTsFiles) follow the same rules.
test('a bucket listing URL: bounded pages, looping tokens, keys fetch would rewrite refused before any request, the version listed read', async () => {
  const { listingTsFiles } = await import('../../js/s3.js');
  const store = await startFakeS3({ pub: { 'same/./x.tsfile': HOLDS, 'same/x.tsfile': LACKS, 'z.tsfile': HOLDS } });
  const all = async (url, options) => {
    const out = [];
    try {
      for await (const o of listingTsFiles(url, options)) out.push(o.error ? `${o.key}: ${o.error.reason}` : o.key);
    } catch (e) {
      out.push(`${e.kind}/${e.reason}`);
    }
    return out;
  };
  try {
    assert.deepEqual(await all(`${store.origin}/pub?list-type=2`), ['same/./x.tsfile: dot_segment_key', 'same/x.tsfile', 'z.tsfile']);
    store.mode.listing = 'loop';
    assert.deepEqual(await bounded(all(`${store.origin}/pub?list-type=2&max-keys=1`)), ['same/./x.tsfile: dot_segment_key', 'same/x.tsfile', 'z.tsfile', 'io/listing_loop']);
    store.mode.listing = 'silent';
    assert.deepEqual(await bounded(all(`${store.origin}/pub?list-type=2`, { timeoutMs: 300 })), ['io/timeout']);
    store.mode.listing = 'drip';
    assert.deepEqual(await bounded(all(`${store.origin}/pub?list-type=2`, { timeoutMs: 300, deadlineMs: 800 })), ['io/deadline']);
    // The browsers' scanner: such a key is its error, and an object is read as the version listed.
    store.mode.listing = undefined;
    store.mode.stale = { 'z.tsfile': { bytes: LACKS, etag: '"old"' } };
    const { scanTsFiles: scanInBrowser } = await import('../../js/scan-browser.js');
    const scan = scanInBrowser(`${store.origin}/pub?list-type=2`, { paths: [P] });
    const records = [];
    for await (const r of scan) records.push(r);
    assert.deepEqual(verdicts(records), {
      [`${store.origin}/pub/same/./x.tsfile`]: 'io/dot_segment_key',
      [`${store.origin}/pub/same/x.tsfile`]: 'absent',
      [`${store.origin}/pub/z.tsfile`]: 'changed/etag',
    });
  } finally {
    await store.close();
  }
});

// Fault injection (RELIABILITY.md): every fault a server can commit, on the opening requests
// or on the index read, × openTsFile / loadIndex / scanTsFiles, must end in a typed error (or,
// where the fault is recoverable, in the local result) within a stated time; the CLI never exits
// 0 without its output; a file that changes between reads — remote or local — is the typed
// 'changed' error; a sparse multi-GB file with a far meta_offset is refused with a typed error
// in bounded memory; descriptors are not held by open files; bad arguments are typed errors.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, ftruncateSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openTsFile, scanTsFiles, BloomFilter } from '../../js/node.js';
import { startFaultServer } from './fault-server.mjs';

const FIXTURES = fileURLToPath(new URL('../fixtures/tsfile/', import.meta.url));
const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
const manifest = JSON.parse(readFileSync(`${FIXTURES}manifest.json`, 'utf8'));
const TEN_K = manifest.find((e) => e.name === 'tree_10k_series');
const TEN_K_BYTES = readFileSync(FIXTURES + TEN_K.file);
// A file the 4 KiB tail window holds whole (its open is one request).
const SMALL = manifest.find((e) => e.name === 'tree_10series');
const SMALL_BYTES = readFileSync(FIXTURES + SMALL.file);
// Tight limits, so that every case settles fast: a stall of 700 ms (the drip sends a byte every
// 50 ms), a whole open (or read) of 1.5 s.
const LIMITS = { timeoutMs: 700, deadlineMs: 1500 };
/** How long any case may take to settle: the deadline, a retry's wait (1 s) and a margin. */
const SETTLES_WITHIN_MS = 1500 + 1000 + 1500;

let srv;
let tokens = 0;
const url = (mode, phase) => `${srv.origin}/${mode}/${phase}/t${++tokens}/${TEN_K.file}`;

before(async () => {
  // The manifest's meta_offset (the writer's own) tells the server where the index region starts.
  srv = await startFaultServer({ [TEN_K.file]: { bytes: TEN_K_BYTES, metaOffset: TEN_K.meta_offset }, [SMALL.file]: { bytes: SMALL_BYTES, metaOffset: SMALL.meta_offset } });
});
after(async () => {
  await srv?.close();
});

const plain = (e) => (e ? { kind: e.kind, reason: e.reason ?? null } : null);

async function timed(run) {
  const t0 = performance.now();
  const out = await run();
  const ms = performance.now() - t0;
  assert.ok(ms < SETTLES_WITHIN_MS, `settled after ${ms.toFixed(0)} ms`);
  return out;
}

/** The open of the fixture from disk: what a recoverable fault must still give. */
async function localResult() {
  const t = await openTsFile(FIXTURES + TEN_K.file);
  await t.loadIndex();
  const r = { size: t.size, bloom: t.bloomInfo(), series: (await t.series()).length, verdict: t.probe('root.sg1.d1.s1').verdict };
  await t.close();
  return r;
}

async function remoteResult(u, options = {}) {
  const t = await openTsFile(u, { ...LIMITS, ...options });
  try {
    const indexError = await t.loadIndex();
    assert.equal(indexError, null);
    return { size: t.size, bloom: t.bloomInfo(), series: (await t.series()).length, verdict: t.probe('root.sg1.d1.s1').verdict };
  } finally {
    await t.close();
  }
}

// [mode, phase, what openTsFile + loadIndex must end in]: a typed error {kind, reason}, or 'ok'.
const CASES = [
  ['gzip', 'head', { kind: 'io', reason: 'encoded' }],
  ['gzip', 'tail', { kind: 'io', reason: 'encoded' }],
  ['gzip', 'index', { kind: 'io', reason: 'encoded' }],
  ['gzip-real', 'index', { kind: 'io', reason: 'encoded' }],
  ['drip', 'tail', { kind: 'io', reason: 'deadline' }],
  ['drip', 'index', { kind: 'io', reason: 'deadline' }],
  ['stall', 'tail', { kind: 'io', reason: 'timeout' }],
  ['stall', 'index', { kind: 'io', reason: 'timeout' }],
  ['reset', 'head', { kind: 'io', reason: 'short_body' }],
  ['reset', 'index', { kind: 'io', reason: 'short_body' }],
  ['short', 'index', { kind: 'io', reason: 'short_body' }],
  ['long', 'index', { kind: 'io', reason: 'long_body' }],
  ['wrong-range', 'head', { kind: 'io', reason: 'bad_content_range' }],
  ['wrong-range', 'index', { kind: 'io', reason: 'bad_content_range' }],
  ['416', 'head', { kind: 'io', reason: 'http_status' }],
  ['416', 'index', { kind: 'io', reason: 'http_status' }],
  ['429-once', 'all', 'ok'],
  ['429-once', 'index', 'ok'],
  ['503', 'all', { kind: 'io', reason: 'http_status' }],
  ['503', 'index', { kind: 'io', reason: 'http_status' }],
  ['redirect-loop', 'all', { kind: 'io', reason: 'redirect_loop' }],
  ['redirect', 'all', 'ok'],
  ['replace', 'all', { kind: 'changed', reason: 'precondition_failed' }],
  ['replace-weak', 'all', { kind: 'changed', reason: 'etag' }],
  ['replace-lastmod', 'all', { kind: 'changed', reason: 'last_modified' }],
  ['replace-size', 'all', { kind: 'changed', reason: 'size' }],
  ['full', 'all', { kind: 'io', reason: 'range_ignored' }],
];

// FAULT_RUNS=N repeats every case N times (RELIABILITY.md records a soak run); the slowest
// settle of each case is printed.
const RUNS = Math.max(1, Number(process.env.FAULT_RUNS ?? 1));

// Node reads URLs with node:http(s) (js/node-http.js); a `fetch` option (and Deno, Bun, browsers)
// goes through fetch: every case runs over both.
const TRANSPORTS = [
  ['node:http', {}],
  ['fetch', { fetch: (u, init) => fetch(u, init) }],
];

for (const [transport, via] of TRANSPORTS) {
  describe(`every fault × openTsFile + loadIndex over ${transport}: a typed error or the right result, in bounded time`, () => {
    for (const [mode, phase, want] of CASES) {
      test(`${mode} on ${phase}: ${want === 'ok' ? 'the local result' : `${want.kind}/${want.reason}`}`, async () => {
        let slowest = 0;
        for (let run = 1; run < RUNS; run++) {
          const t0 = performance.now();
          const again = await timed(() => remoteResult(url(mode, phase), via).then((r) => ({ r }), (e) => ({ e })));
          slowest = Math.max(slowest, performance.now() - t0);
          assert.deepEqual(want === 'ok' ? again.e : plain(again.e), want === 'ok' ? undefined : want, `run ${run}`);
        }
        const u = url(mode, phase);
        const t0 = performance.now();
        const got = await timed(() => remoteResult(u, via).then((r) => ({ r }), (e) => ({ e })));
        console.log(`# ${mode} on ${phase}: slowest of ${RUNS} ${Math.max(slowest, performance.now() - t0).toFixed(0)} ms`);
        if (want === 'ok') {
          assert.equal(got.e, undefined, got.e?.message);
          assert.deepEqual(got.r, await localResult());
        } else {
          assert.deepEqual(plain(got.e), want, got.e?.message ?? 'it succeeded');
          assert.ok(got.e.message.endsWith(u) || got.e.message.includes(u), got.e.message);
        }
      });
    }

    test('a full body is read with allowFullDownload, up to maxFullDownloadBytes', async () => {
      assert.deepEqual(await remoteResult(url('full', 'all'), { ...via, allowFullDownload: true }), await localResult());
      const e = await remoteResult(url('full', 'all'), { ...via, allowFullDownload: true, maxFullDownloadBytes: 1000 }).then(() => null, (x) => x);
      assert.deepEqual(plain(e), { kind: 'io', reason: 'too_large' });
    });

    test('the one retry waits the Retry-After and says so when it fails again', async () => {
      const u = url('503', 'all');
      const t0 = performance.now();
      const e = await openTsFile(u, { ...LIMITS, ...via }).then(() => null, (x) => x);
      assert.ok(performance.now() - t0 >= 900, 'waited about a second');
      assert.match(e.message, /HTTP 503 .*also after one retry 1000 ms later/);
      assert.equal(srv.requests(u.split('/')[5]).length >= 2, true);
    });

    test('later requests are pinned to the first version (If-Match) and send Accept-Encoding once; the head waits for the suffix only after a small file', async () => {
      // A small file, twice: after the first (whatever the origin's last open found: a large
      // file's open sends head and suffix at once), the second's suffix alone answers with the
      // whole file, and leaves the origin sending the suffix alone. Then the 10,000-series file
      // twice: the first open's head waits for the suffix's answer — so it is pinned —, the
      // second sends both at once.
      const smallUrl = () => `${srv.origin}/ok/all/t${++tokens}/${SMALL.file}`;
      let small;
      for (const u of [smallUrl(), (small = smallUrl())]) {
        const t = await openTsFile(u, { ...LIMITS, ...via });
        assert.equal(t.size, SMALL_BYTES.length);
        await t.close();
      }
      const [u1, u2] = [url('ok', 'all'), url('ok', 'all')];
      await remoteResult(u1, via);
      await remoteResult(u2, via);
      const logs = [small, u1, u2].map((u) => srv.requests(u.split('/')[5]));
      assert.deepEqual(logs[0].map((r) => [r.range, r.ifMatch]), [['bytes=-4096', null]]);
      const [after, together] = logs.slice(1);
      assert.deepEqual(after.slice(0, 2).map((r) => [r.range, r.ifMatch]), [['bytes=-4096', null], ['bytes=0-11', '"v1"']]);
      assert.deepEqual(new Set(together.slice(0, 2).map((r) => r.range)), new Set(['bytes=-4096', 'bytes=0-11']));
      assert.deepEqual(together.slice(0, 2).map((r) => r.ifMatch), [null, null], 'sent before any answer');
      for (const log of [after, together]) {
        assert.ok(log.length >= 3);
        assert.ok(log.slice(2).every((r) => r.ifMatch === '"v1"'), JSON.stringify(log));
      }
      const all = logs.flat();
      assert.ok(all.every((r) => r.encoding === 'identity'), JSON.stringify(all.map((r) => r.encoding)));
      // Which transport ran: fetch sends the Fetch standard's Sec-Fetch-Mode, node:http does not.
      assert.deepEqual(new Set(all.map((r) => r.fetchMode)), new Set([transport === 'fetch' ? 'cors' : null]));
    });
  });
}

describe('every fault × scanTsFiles with audit: the file is reported with its typed error, the scan goes on', () => {
  test('one record per URL, each with the case’s error (or none), and a summary that adds up', async () => {
    const cases = CASES;
    const urls = cases.map(([mode, phase]) => url(mode, phase));
    const records = [];
    const scan = scanTsFiles(urls, { ...LIMITS, audit: true, paths: ['root.sg1.d1.s1'], concurrency: 8 });
    for await (const r of scan) records.push(r);
    const summary = await scan.summary;
    assert.equal(records.length, cases.length);
    records.forEach((r, i) => {
      const want = cases[i][2];
      assert.equal(r.file, urls[i]);
      if (want === 'ok') assert.equal(r.error, null, `${cases[i][0]}: ${r.error?.message}`);
      else {
        // The record keeps the cause (what a caller retries on), and a status answer's HTTP status.
        assert.deepEqual([r.error?.kind, r.error?.reason], [want.kind, want.reason], `${cases[i][0]} on ${cases[i][1]}: ${r.error?.message}`);
        if (want.reason === 'http_status') assert.equal(r.error.status, Number(cases[i][0]), cases[i][0]);
      }
    });
    assert.equal(summary.files, cases.length);
    assert.equal(summary.ok + summary.errors, cases.length);
  });
});

describe('many URLs under one signal', () => {
  test('scanning 24 URLs at once adds one listener to the caller’s AbortSignal, not one per request (no MaxListenersExceededWarning)', async () => {
    const warnings = [];
    const onWarning = (w) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const controller = new AbortController();
      const urls = Array.from({ length: 24 }, () => url('ok', 'all'));
      const summary = await scanTsFiles(urls, { ...LIMITS, signal: controller.signal, concurrency: 24, paths: ['root.sg1.d1.s1'] }).summary;
      assert.equal(summary.ok, 24);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(warnings.filter((w) => w === 'MaxListenersExceededWarning'), []);
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('the CLI never exits 0 without its output', () => {
  // The CLI runs as a child process while this process serves it: spawned asynchronously (a
  // synchronous spawn would stop the server until the child gave up).
  const runCli = (args) =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });

  test('scan URL --json against gzip lies on either response, 6 runs each: a record and a summary every time', async () => {
    for (let run = 0; run < 6; run++) {
      for (const phase of ['head', 'tail', 'index']) {
        const u = url('gzip', phase);
        const r = await timed(() => runCli(['scan', u, '--json', '--audit']));
        const lines = r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
        assert.ok(lines.some((l) => l.file === u), `${phase}: no record for the URL (exit ${r.status}): ${r.stdout}${r.stderr}`);
        assert.ok(lines.some((l) => l.summary), `${phase}: no summary: ${r.stdout}`);
        // Every file failed: exit 2 (nothing could be read), and no complaint but the records'.
        assert.equal(r.status, 2, r.stderr);
        assert.equal(r.stderr, '');
      }
    }
  });
});

describe('a local file that changes between reads', () => {
  let dir;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tsfile-bloom-changed-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const [what, change] of [
    ['grows', (p) => writeFileSync(p, Buffer.alloc(1), { flag: 'a' })],
    ['is rewritten at the same size', (p) => writeFileSync(p, Buffer.from(TEN_K_BYTES).fill(0, 400_000, 400_100))],
    ['is replaced by another file', (p) => {
      rmSync(p);
      copyFileSync(FIXTURES + TEN_K.file, p);
    }],
  ]) {
    test(`${what}: loadIndex rejects with kind 'changed' naming the file`, async () => {
      const p = join(dir, `${what.replace(/\W/g, '_')}.tsfile`);
      copyFileSync(FIXTURES + TEN_K.file, p);
      const t = await openTsFile(p);
      await new Promise((r) => setTimeout(r, 20)); // a later mtime
      change(p);
      const e = await t.loadIndex().then(() => null, (x) => x);
      assert.equal(e?.kind, 'changed', e?.message ?? 'loadIndex succeeded');
      assert.equal(e.path, p);
      assert.ok(e.message.endsWith(p));
      await t.close();
    });
  }

  test('an open file holds no descriptor: 300 files opened and left open under `ulimit -n 64`', () => {
    const program = `
import { openTsFile } from ${JSON.stringify(new URL('../../js/node.js', import.meta.url).href)};
const files = [];
for (let i = 0; i < 300; i++) files.push(await openTsFile(${JSON.stringify(FIXTURES + TEN_K.file)}));
let series = 0;
for (const t of files.slice(0, 50)) series += (await t.series()).length;
console.log(JSON.stringify({ opened: files.length, series }));
`;
    const script = join(dir, 'hold.mjs');
    writeFileSync(script, program);
    const r = spawnSync('bash', ['-c', 'ulimit -n 64 && exec "$0" "$1"', process.execPath, script], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { opened: 300, series: 50 * 10000 });
    assert.doesNotMatch(r.stderr, /DEP0137|Closing file descriptor/);
  });
});

describe('a sparse multi-GB file whose meta_offset lies far before TsFileMetadata', () => {
  let dir;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tsfile-bloom-sparse-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  // The 10,000-series file's head and last 200 kB around a hole: meta_offset (371,524) now lies
  // gigabytes before TsFileMetadata, and the index region spans the hole.
  function sparse(gib) {
    const p = join(dir, `sparse-${gib}g.tsfile`);
    const fd = openSync(p, 'w');
    ftruncateSync(fd, gib * 2 ** 30);
    writeSync(fd, TEN_K_BYTES, 0, 4096, 0);
    writeSync(fd, TEN_K_BYTES, TEN_K_BYTES.length - 200_000, 200_000, gib * 2 ** 30 - 200_000);
    closeSync(fd);
    return p;
  }

  const MEASURE = `
import { openTsFile } from ${JSON.stringify(new URL('../../js/node.js', import.meta.url).href)};
const t = await openTsFile(process.argv[1]);
const e = await t.loadIndex();
const probe = t.probe('root.sg1.d1.s1');
console.log(JSON.stringify({ error: e && { kind: e.kind, offset: e.offset }, series: (await t.series({ partial: true })).length, verdict: probe.verdict, maxRssKiB: process.resourceUsage().maxRSS }));
`;
  const measure = (p) => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', MEASURE, p], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  };

  test('1, 2 and 20 GiB: a typed too_large error at meta_offset, the filter still answers, peak RSS within 2× a small file’s', () => {
    const small = measure(FIXTURES + TEN_K.file);
    assert.equal(small.error, null);
    assert.equal(small.series, 10000);
    for (const gib of [1, 2, 20]) {
      const r = measure(sparse(gib));
      assert.deepEqual(r.error, { kind: 'too_large', offset: TEN_K.meta_offset }, `${gib} GiB`);
      assert.equal(r.series, 0);
      // An ASCII path: both tail variants agree, so the filter's answer is sound unread.
      assert.notEqual(r.verdict, undefined);
      assert.ok(r.maxRssKiB < 2 * small.maxRssKiB, `${gib} GiB: ${r.maxRssKiB} KiB against ${small.maxRssKiB} KiB`);
    }
  });

  test('the CLI reports the file and the index error, exit 1, with partial output', () => {
    const r = spawnSync(process.execPath, [CLI, 'inspect', sparse(1), '--json'], { encoding: 'utf8' });
    assert.equal(r.status, 1, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.bloom_filter.bit_count, TEN_K.bloom.bit_count);
    assert.equal(j.error.kind, 'too_large');
  });
});

describe('smaller untruths', () => {
  test('a file whose name is not UTF-8 is scanned under its own bytes and shown with them escaped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsfile-bloom-names-'));
    try {
      const name = Buffer.concat([Buffer.from('f'), Buffer.from([0xff, 0xfe]), Buffer.from('.tsfile')]);
      copyFileSync(FIXTURES + TEN_K.file, Buffer.concat([Buffer.from(`${dir}/`), name]));
      copyFileSync(FIXTURES + TEN_K.file, join(dir, 'ü.tsfile'));
      const records = [];
      for await (const r of scanTsFiles(dir, { paths: ['root.sg1.d1.s1'] })) records.push([r.file, r.ok, r.error]);
      assert.deepEqual(records, [
        [join(dir, 'f\\xff\\xfe.tsfile'), true, null],
        [join(dir, 'ü.tsfile'), true, null],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('TsFile#probeMany takes pre-encoded {bytes, ends} as the README says, with the verdicts of the strings', async () => {
    const t = await openTsFile(FIXTURES + TEN_K.file);
    const paths = [...(await t.series()).slice(0, 20).map((s) => s.path), 'root.nowhere.d.s', 'root.sg1.d1.s1'];
    const enc = new TextEncoder();
    const keys = paths.map((p) => enc.encode(p));
    const ends = new Uint32Array(keys.length);
    let at = 0;
    keys.forEach((k, i) => (ends[i] = at += k.length));
    const bytes = new Uint8Array(at);
    keys.forEach((k, i) => bytes.set(k, i ? ends[i - 1] : 0));
    const fromEncoded = t.probeMany({ bytes, ends });
    assert.deepEqual(fromEncoded.map((r) => r.verdict), t.probeMany(paths).map((r) => r.verdict));
    assert.deepEqual(fromEncoded.map((r) => new TextDecoder().decode(r.path)), paths);
    await t.close();
  });

  test('a lone surrogate is hashed as "?", as the README now says (JDK 17 getBytes)', async () => {
    const f = BloomFilter.withCapacity(10).add('root.a.?');
    assert.equal(f.probe('root.a.\ud800').verdict, 'maybe');
    assert.deepEqual(f.probe('root.a.\ud800').probes, f.probe('root.a.?').probes);
  });
});

describe('arguments checked at the door', () => {
  test('scanTsFiles: one target is a list of one; null, numbers and bad options are typed errors naming the argument', async () => {
    const one = await scanTsFiles(FIXTURES + TEN_K.file).summary;
    assert.equal(one.files, 1);
    const url1 = await scanTsFiles(new URL(`file://${FIXTURES}${TEN_K.file}`)).summary;
    assert.equal(url1.files, 1);
    for (const [args, argument] of [
      [[null], 'targets'],
      [[42], 'targets'],
      [[undefined], 'targets'],
      [['x', { paths: 'root.a.b' }], 'paths'],
      [['x', { concurrency: 0 }], 'concurrency'],
      [['x', null], 'options'],
    ]) {
      assert.throws(() => scanTsFiles(...args), (e) => e.kind === 'invalid_argument' && e.argument === argument && e.offset === null, JSON.stringify(args));
    }
  });

  test('closed and freed objects, a detached buffer, a source that lies, a bad rate: typed errors', async () => {
    const t = await openTsFile(FIXTURES + TEN_K.file);
    const f = t.bloomFilter;
    await t.close();
    assert.throws(() => f.probe('root.a.b'), (e) => e.kind === 'invalid_argument' && e.argument === 'this');
    assert.throws(() => t.probe('root.a.b'), (e) => e.kind === 'invalid_argument' && e.argument === 'this');
    const g = BloomFilter.withCapacity(10);
    g.free();
    assert.throws(() => g.probe('x'), (e) => e.kind === 'invalid_argument');
    const buffer = new ArrayBuffer(16);
    structuredClone(buffer, { transfer: [buffer] });
    await assert.rejects(openTsFile(buffer), (e) => e.kind === 'invalid_argument' && e.argument === 'source');
    await assert.rejects(openTsFile({ size: 100, read: async () => null }), (e) => e.kind === 'io' && /returned null/.test(e.message));
    await assert.rejects(openTsFile({ size: -1, read: async () => null }), (e) => e.kind === 'invalid_argument');
    assert.throws(() => BloomFilter.withCapacity(10, NaN), (e) => e.kind === 'invalid_argument' && e.argument === 'errorRate');
    assert.throws(() => BloomFilter.withCapacity(10, 0), (e) => e.kind === 'invalid_argument' && e.argument === 'errorRate');
    await assert.rejects(openTsFile(`${srv.origin}/ok/all/x/${TEN_K.file}`, { timeoutMs: -5 }), (e) => e.kind === 'invalid_argument' && e.argument === 'timeoutMs');
  });
});

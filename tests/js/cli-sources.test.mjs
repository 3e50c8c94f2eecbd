// The CLI's verbs read a TsFile (or a LevelDB table) from a path, an http(s) URL or `-` (stdin,
// piped or redirected) and say the same thing about it: every fixture served by a real nginx
// and fed on stdin gives the local path's output byte for byte, the file's name aside, with the
// same exit code. The source flags do what they say against real servers: --allow-full-download
// against Python's http.server (no Range at all), --header through a server that demands it,
// --timeout against one that stalls, --max-index-bytes and --max-stdin-bytes at the sizes the
// fixtures' manifest gives.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { startNginx, startPythonHttp, NGINX } from './servers.mjs';
import { startFaultServer } from './fault-server.mjs';

const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const tsManifest = JSON.parse(readFileSync(`${FIXTURES}tsfile/manifest.json`, 'utf8'));
const javaManifest = JSON.parse(readFileSync(`${FIXTURES}java/manifest.json`, 'utf8'));
const levelDbManifest = JSON.parse(readFileSync(`${FIXTURES}leveldb/manifest.json`, 'utf8'));
const TEN_K = tsManifest.find((e) => e.name === 'tree_10k_series');
const TEN_K_FIRST = [...TEN_K.series[0].device, TEN_K.series[0].measurement].join('.');

// Every TsFile fixture (valid and hostile, the Java writer's too) and every LevelDB table.
const TSFILES = [...tsManifest.map((f) => `tsfile/${f.file}`), ...javaManifest.files.map((f) => `java/${f.file}`)];
const TABLES = levelDbManifest.tables.map((t) => `leveldb/${t.file}`);

/** Runs the CLI: `{status, stdout (Buffer), stderr}`. `stdin`: a Buffer piped in, or {file} redirected. */
function cli(args, { stdin } = {}) {
  return new Promise((resolve, reject) => {
    const fd = stdin?.file ? openSync(stdin.file, 'r') : null;
    const child = spawn(process.execPath, [CLI, ...args], { stdio: [fd ?? 'pipe', 'pipe', 'pipe'] });
    if (fd !== null) closeSync(fd);
    const out = [];
    let err = '';
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout: Buffer.concat(out), stderr: err }));
    if (fd === null) {
      child.stdin.on('error', () => {}); // a CLI that refuses a large stdin stops reading it
      child.stdin.end(stdin ?? undefined);
    }
  });
}

/** Runs `jobs` (functions returning promises) two at a time (the machine has 2 cores). */
async function pool(jobs, width = 2) {
  const results = new Array(jobs.length);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  }));
  return results;
}

/**
 * The output with the file's name replaced by FILE: `{text, count}`. `quote`: `json` (each
 * occurrence of the name as a JSON string) or `plain` (text, where only inspect's first line
 * starts with the name: `-` would match every hyphen).
 */
function unnamed(buf, name, quote) {
  const text = buf.toString('utf8');
  if (quote === plain) return text.startsWith(`${name}  `) ? { text: `<FILE>${text.slice(name.length)}`, count: 1 } : { text, count: 0 };
  const parts = text.split(quote(name));
  return { text: parts.join('<FILE>'), count: parts.length - 1 };
}

/** Asserts the outputs are byte for byte the local one's, the file's name aside. */
function assertSame(what, local, localName, other, otherName, quote) {
  assert.equal(other.status, local.status, `${what}: exit ${other.status}, local ${local.status}: ${other.stderr}`);
  const a = unnamed(local.stdout, localName, quote);
  const b = unnamed(other.stdout, otherName, quote);
  assert.equal(b.count, a.count, `${what}: the name appears ${b.count} times, locally ${a.count}`);
  assert.equal(b.text, a.text, what);
  assert.equal(other.stderr, local.stderr, `${what}: stderr`);
}

const json = JSON.stringify;
function plain() {}

describe('inspect, probe and verify of a URL and of stdin equal the local path', { skip: NGINX ? false : 'nginx is not installed (bash scripts/setup.sh --nginx)' }, () => {
  let ng;
  before(async () => {
    ng = await startNginx(FIXTURES);
  });
  after(async () => {
    await ng?.stop();
  });

  // For each file: the local path's run, then the URL's, the pipe's and the redirect's.
  async function compare(rel, args, quote) {
    const path = FIXTURES + rel;
    const url = `${ng.origin}/${rel}`;
    const [local, remote, piped, redirected] = await Promise.all([
      cli(args(path)),
      cli(args(url)),
      cli(args('-'), { stdin: readFileSync(path) }),
      cli(args('-'), { stdin: { file: path } }),
    ]);
    const what = `${args('FILE').join(' ')} on ${rel}`;
    assertSame(`${what} (URL)`, local, path, remote, url, quote);
    assertSame(`${what} (stdin, piped)`, local, path, piped, '-', quote);
    assertSame(`${what} (stdin, redirected)`, local, path, redirected, '-', quote);
    return local;
  }

  test('inspect --json: every TsFile fixture, valid and hostile, and every LevelDB table', async () => {
    assert.ok(TSFILES.length >= 70, `${TSFILES.length} TsFiles`);
    assert.ok(TABLES.length >= 4, `${TABLES.length} tables`);
    const locals = await pool([...TSFILES, ...TABLES].map((rel) => () => compare(rel, (f) => ['inspect', f, '--json'], json)));
    // The fixtures cover each exit code of inspect: a full report, a format error, a partial report.
    const codes = new Set(locals.map((r) => r.status));
    assert.deepEqual([...codes].sort(), [0, 1]);
    const reports = locals.map((r) => JSON.parse(r.stdout));
    assert.ok(reports.some((r) => r.ok === false && r.file), 'some report is partial (the index unreadable)');
    assert.ok(reports.some((r) => r.ok === false && !r.file), 'some file fails to open');
  });

  // The richest fixtures: the largest indexes, non-ASCII paths, the Java writer's GBK file, a v3
  // file, an empty v3 filter, hostile indexes, a LevelDB table with its keys in hex.
  const SOME = ['tsfile/tree_10k_series.tsfile', 'tsfile/table_10k_series.tsfile', 'tsfile/table_unicode.tsfile', 'tsfile/synthetic_v3_tail_unicode.tsfile', 'tsfile/synthetic_v3_empty_filter.tsfile', 'tsfile/hostile_index_child_offset_past_end.tsfile', 'tsfile/hostile_bad_tail_magic.tsfile', 'java/gbk/tree_quoted_unicode.tsfile', 'java/gbk/tree_10k_series.tsfile'];

  test('probe (--json and text), verify (--json and text) and inspect --all (text) on a range of fixtures', async () => {
    const jobs = [];
    for (const rel of SOME) {
      const local = JSON.parse((await cli(['inspect', FIXTURES + rel, '--json'])).stdout);
      const paths = [...(local.series ?? []).slice(0, 40).map((s) => s.path), 'root.nowhere.d1.s1', 'root.sg1.d1.s1', 'root.设备.温度'];
      jobs.push(
        () => compare(rel, (f) => ['probe', f, ...paths, '--json'], json),
        () => compare(rel, (f) => ['probe', f, ...paths], plain),
        () => compare(rel, (f) => ['verify', f, '--json'], json),
        () => compare(rel, (f) => ['verify', f], plain),
        () => compare(rel, (f) => ['inspect', f, '--all'], plain),
      );
    }
    const t = levelDbManifest.tables.find((x) => x.file.startsWith('binary'));
    const table = `leveldb/${t.file}`;
    const keys = [...t.live_keys.slice(0, 5), ...t.deleted_keys.slice(0, 2)];
    jobs.push(
      () => compare(table, (f) => ['probe', f, '--hex', ...keys, 'ffff00', '--json'], json),
      () => compare(table, (f) => ['inspect', f, '--all'], plain),
    );
    const results = await pool(jobs);
    assert.ok(results.some((r) => r.status === 1), 'a failed verify or a format error is among them');
  });
});

describe('the source flags', () => {
  const tenK = FIXTURES + `tsfile/${TEN_K.file}`;
  const tenKBytes = readFileSync(tenK);

  test('--allow-full-download[=BYTES] against a server without Range (Python http.server)', async () => {
    const py = await startPythonHttp(FIXTURES);
    try {
      const url = `${py.origin}/tsfile/${TEN_K.file}`;
      const refused = await cli(['inspect', url]);
      assert.equal(refused.status, 2);
      assert.equal(refused.stdout.length, 0);
      // The sentence names the flag that permits it (the package's names its option).
      assert.match(refused.stderr, /^error: io: the server ignored the Range request and sent the whole file \(200, 803843 bytes\); refusing a full download \(--allow-full-download permits one\): http:\/\/\S+\n$/);
      const local = await cli(['inspect', tenK, '--json']);
      const allowed = await cli(['inspect', url, '--json', '--allow-full-download']);
      assertSame('--allow-full-download', local, tenK, allowed, url, json);
      const enough = await cli(['inspect', url, '--json', `--allow-full-download=${tenKBytes.length}`]);
      assertSame('--allow-full-download=size', local, tenK, enough, url, json);
      const small = await cli(['inspect', url, '--json', '--allow-full-download=100K']);
      assert.equal(small.status, 2);
      const e = JSON.parse(small.stdout).error;
      assert.equal(e.kind, 'io');
      assert.equal(e.message, `the server ignored the Range request and the whole file (${tenKBytes.length} bytes) exceeds --allow-full-download=BYTES (102400): ${url}`);
      // scan takes it too.
      const scanned = (await cli(['scan', url, '--json', '--allow-full-download'])).stdout.toString().trim().split('\n').map((l) => JSON.parse(l));
      assert.equal(scanned[0].ok, true);
      assert.equal(scanned[0].size, tenKBytes.length);
    } finally {
      await py.stop();
    }
  });

  test('--header NAME: VALUE (repeatable, also -H) is sent with every request, by every verb', async () => {
    // A server that serves the file with Range only to a request carrying both headers.
    const seen = [];
    const server = createServer((req, res) => {
      seen.push({ auth: req.headers.authorization, trace: req.headers['x-trace'] });
      if (req.headers.authorization !== 'Bearer t0k3n: x' || req.headers['x-trace'] !== 'a, b') {
        res.writeHead(401, { 'content-length': 0 });
        return res.end();
      }
      const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
      const size = tenKBytes.length;
      const start = m[1] === '' ? size - Number(m[2]) : Number(m[1]);
      const end = m[1] === '' || m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
      res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1 });
      res.end(tenKBytes.subarray(start, end + 1));
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${server.address().port}/${TEN_K.file}`;
      const without = await cli(['inspect', url]);
      assert.equal(without.status, 2);
      assert.equal(without.stderr, `error: io: HTTP 401 Unauthorized: ${url}\n`);
      const headers = ['--header', 'Authorization: Bearer t0k3n: x', '-H', 'X-Trace: a', '--header=X-Trace:b'];
      const local = await cli(['inspect', tenK, '--json']);
      seen.length = 0;
      assertSame('inspect --header', local, tenK, await cli(['inspect', url, '--json', ...headers]), url, json);
      assert.ok(seen.length >= 3, 'the open and the index read');
      assert.ok(seen.every((s) => s.auth === 'Bearer t0k3n: x' && s.trace === 'a, b'), JSON.stringify(seen));
      for (const verb of [['probe', 'root.sg1.d1.s1'], ['verify']]) {
        const [name, ...rest] = verb;
        assertSame(`${name} --header`, await cli([name, tenK, ...rest, '--json']), tenK, await cli([name, url, ...rest, '--json', ...headers]), url, json);
      }
      const scanned = (await cli(['scan', url, '--json', '--audit', ...headers])).stdout.toString().trim().split('\n').map((l) => JSON.parse(l));
      assert.equal(scanned[0].ok, true, JSON.stringify(scanned[0].error));
      assert.equal(scanned[0].audit.status, JSON.parse(local.stdout).audit.status);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  test('--timeout SECONDS ends a read from a server that stalls, with the typed error naming the flag', async () => {
    const srv = await startFaultServer({ [TEN_K.file]: { bytes: tenKBytes, metaOffset: TEN_K.meta_offset } });
    try {
      const opening = `${srv.origin}/stall/all/t1/${TEN_K.file}`;
      const r = await cli(['inspect', opening, '--timeout', '0.5', '--json']);
      assert.equal(r.status, 2);
      const e = JSON.parse(r.stdout).error;
      assert.deepEqual({ kind: e.kind, message: e.message }, { kind: 'io', message: `opening took longer than 500 ms (--timeout): ${opening}` });
      // The index read is a read of its own, under its own deadline.
      const index = `${srv.origin}/stall/index/t2/${TEN_K.file}`;
      const p = await cli(['verify', index, '--timeout', '0.5']);
      assert.equal(p.status, 2);
      assert.equal(p.stderr, `error: io: reading bytes ${TEN_K.meta_offset}..${TEN_K.file_size - TEN_K.metadata_size - 10} took longer than 500 ms (--timeout): ${index}\n`);
      const scanned = JSON.parse((await cli(['scan', `${srv.origin}/stall/all/t3/${TEN_K.file}`, '--json', '--timeout', '0.5'])).stdout.toString().split('\n')[0]);
      assert.equal(scanned.ok, false);
      assert.match(scanned.error.message, /^opening took longer than 500 ms \(--timeout\)/);
    } finally {
      await srv.close();
    }
  });

  test('--max-index-bytes: the manifest\'s sizes decide — a partial report above the index region, no open above TsFileMetadata', async () => {
    const region = TEN_K.file_size - TEN_K.metadata_size - 10 - TEN_K.meta_offset;
    assert.ok(region > TEN_K.metadata_size);
    const partial = await cli(['inspect', tenK, '--json', '--max-index-bytes', String(region - 1)]);
    assert.equal(partial.status, 1);
    const report = JSON.parse(partial.stdout);
    assert.equal(report.ok, false);
    assert.equal(report.series.length, 0);
    assert.equal(report.bloom_filter.bit_count, TEN_K.bloom.bit_count);
    assert.deepEqual({ kind: report.error.kind, offset: report.error.offset }, { kind: 'too_large', offset: TEN_K.meta_offset });
    assert.match(report.error.message, new RegExp(`is ${region} bytes, more than --max-index-bytes \\(${region - 1}\\)`));
    assert.equal((await cli(['inspect', tenK, '--json', '--max-index-bytes', String(region)])).status, 0);
    // probe still answers from the filter, and says the index is unreadable.
    const probe = await cli(['probe', tenK, TEN_K_FIRST, '--max-index-bytes', String(region - 1)]);
    assert.equal(probe.status, 0);
    assert.match(probe.stdout.toString(), new RegExp(`^MAYBE +${TEN_K_FIRST.replaceAll('.', '\\.')}  maybe: read the file to know \\(index unreadable\\)\n`));
    assert.equal((await cli(['verify', tenK, '--max-index-bytes', `${Math.floor((region - 1) / 1024)}K`])).status, 1);
    // Below TsFileMetadata's size the file does not open: a limit, exit 2.
    const none = await cli(['inspect', tenK, '--max-index-bytes', String(TEN_K.metadata_size - 1)]);
    assert.equal(none.status, 2);
    assert.equal(none.stderr, `error: too_large at byte ${TEN_K.file_size - TEN_K.metadata_size - 10}: TsFileMetadata is ${TEN_K.metadata_size} bytes, more than --max-index-bytes (${TEN_K.metadata_size - 1}): raise the option to read it\n`);
    // scan: local files (in its workers) and the audit's index read alike.
    const scanned = JSON.parse((await cli(['scan', tenK, '--json', '--audit', '--max-index-bytes', String(region - 1)])).stdout.toString().split('\n')[0]);
    assert.deepEqual({ kind: scanned.error.kind, offset: scanned.error.offset }, { kind: 'too_large', offset: TEN_K.meta_offset });
    const outside = JSON.parse((await cli(['scan', tenK, '--json', '--max-index-bytes', String(TEN_K.metadata_size - 1)])).stdout.toString().split('\n')[0]);
    assert.equal(outside.error.kind, 'too_large');
    // A small file, whose TsFileMetadata lies in the tail window the scan's fast route reads.
    const small = tsManifest.find((e) => e.name === 'tree_10series');
    const smallFile = `${FIXTURES}tsfile/${small.file}`;
    const refused = JSON.parse((await cli(['scan', smallFile, '--json', '--max-index-bytes', String(small.metadata_size - 1)])).stdout.toString().split('\n')[0]);
    assert.deepEqual({ kind: refused.error?.kind, offset: refused.error?.offset }, { kind: 'too_large', offset: small.file_size - small.metadata_size - 10 });
    const read = JSON.parse((await cli(['scan', smallFile, '--json', '--max-index-bytes', String(small.metadata_size)])).stdout.toString().split('\n')[0]);
    assert.equal(read.ok, true);
  });

  test('--max-stdin-bytes bounds a pipe (a typed too_large error, no offset); a redirected file is read in place', async () => {
    const size = tenKBytes.length;
    const over = await cli(['inspect', '-', '--max-stdin-bytes', String(size - 1)], { stdin: tenKBytes });
    assert.equal(over.status, 2);
    assert.equal(over.stdout.length, 0);
    assert.equal(over.stderr, `error: too_large: the file on stdin is larger than --max-stdin-bytes (${size - 1} bytes): raise the limit, or give the file's path or URL\n`);
    const overJson = await cli(['probe', '-', 'root.a.b', '--json', '--max-stdin-bytes', '700K'], { stdin: tenKBytes });
    assert.equal(overJson.status, 4); // probe's limit: 4 (its 1 is "absent", 2 a usage error)
    assert.deepEqual(JSON.parse(overJson.stdout).error, { kind: 'too_large', message: `the file on stdin is larger than --max-stdin-bytes (${700 * 1024} bytes): raise the limit, or give the file's path or URL`, offset: null, reason: null, status: null });
    assert.equal((await cli(['inspect', '-', '--max-stdin-bytes', String(size)], { stdin: tenKBytes })).status, 0);
    assert.equal((await cli(['inspect', '-', '--max-stdin-bytes', '1'], { stdin: { file: tenK } })).status, 0);
  });
});

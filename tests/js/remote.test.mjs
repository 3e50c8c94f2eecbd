// openTsFile(url): a real nginx (Debian's, started here on 127.0.0.1) serving the fixtures must
// give what the local open gives, field for field, in 1 request for a file the 4 KiB tail window
// holds and 2 for a larger one (its access log says which ranges, and whether the head waited for
// the suffix's answer); so must the servers users run in development (npm's http-server and
// Vite's dev and preview servers, which get suffix ranges wrong, each in its own way), in one
// request more the first time; Python's http.server, which ignores Range, gives the typed
// range_ignored error, and with allowFullDownload the local result, in one request; a server of
// our own that misbehaves (ignores Range, 404/403, truncates, stalls) gives typed 'io' errors
// within the stated time.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openTsFile, scanTsFiles } from '../../js/node.js';
import { startNginx, NGINX, SERVERS, listenLocal } from './servers.mjs';
import { everything as readAll } from '../consumer/checks.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const tsManifest = JSON.parse(readFileSync(`${FIXTURES}tsfile/manifest.json`, 'utf8'));
const javaManifest = JSON.parse(readFileSync(`${FIXTURES}java/manifest.json`, 'utf8'));
const VALID = [
  ...tsManifest.filter((f) => f.kind !== 'hostile').map((f) => `tsfile/${f.file}`),
  ...javaManifest.files.map((f) => `java/${f.file}`),
];
const HOSTILE = tsManifest.filter((f) => f.kind === 'hostile').map((f) => `tsfile/${f.file}`);

// Where TsFileMetadata lies, from the format (tsfile-format.md): the file ends with its size
// (int32, big-endian) and the 6-byte magic. It fits the 4 KiB tail window or needs a read.
function metadataFitsWindow(bytes) {
  const size = new DataView(bytes.buffer, bytes.byteOffset).getInt32(bytes.length - 10);
  return size + 10 <= 4096;
}

/** The tail window (4 KiB): a file no larger is read whole by its first request. */
const WINDOW = 4096;

// What a TsFile says, listing in full (tests/consumer/checks.js, as every environment of the matrix reads it).
const everything = (t) => readAll(t, { fullListing: true });

describe('nginx (Debian) serving the fixtures', { skip: NGINX ? false : 'nginx is not installed (bash scripts/setup.sh --nginx)' }, () => {
  let ng;
  before(async () => {
    ng = await startNginx(FIXTURES);
  });
  after(async () => {
    await ng?.stop();
  });

  test('every valid fixture opens over HTTP exactly as from disk: 1 request when the window holds the file, else the head after it; after a file that needed the head, both at once', async () => {
    assert.ok(VALID.length >= 30, `${VALID.length} fixtures`);
    // A new origin: its first open sends the suffix alone. An open whose window does not reach
    // byte 0 asks for the head after it — a second round trip, pinned (If-Match) to the version
    // the suffix's answer named — and the origin's next open sends head and suffix at once (one
    // round trip, both unpinned: nothing has answered yet), until the window holds a file whole.
    let previousNeededHead = false;
    const seen = { whole: 0, headAfter: 0, together: 0 };
    for (const rel of VALID) {
      const bytes = readFileSync(FIXTURES + rel);
      const local = await openTsFile(FIXTURES + rel);
      const remote = await openTsFile(`${ng.origin}/${rel}`);
      try {
        const uri = `/${rel}`;
        const needsHead = bytes.length > WINDOW;
        const way = previousNeededHead ? 'together' : needsHead ? 'headAfter' : 'whole';
        // TsFileMetadata beyond the tail window costs one more.
        const want = (way === 'whole' ? 1 : 2) + (metadataFitsWindow(bytes) ? 0 : 1);
        const log = await ng.settledLog((l) => l.uri === uri, want);
        assert.equal(log.length, want, `${rel} (${way}): ${JSON.stringify(log)}`);
        assert.equal(remote.reads, want, rel);
        assert.ok(log.every((l) => l.status === 206 && l.range.startsWith('bytes=')), rel);
        const suffix = log.filter((l) => l.range === `bytes=-${WINDOW}`);
        const head = log.filter((l) => l.range === 'bytes=0-11');
        assert.equal(suffix.length, 1, rel);
        assert.equal(suffix[0].ifMatch, null, rel);
        assert.equal(head.length, way === 'whole' ? 0 : 1, rel);
        if (way !== 'whole') assert.equal(head[0].ifMatch !== null, way === 'headAfter', `${rel} (${way}): ${JSON.stringify(head[0])}`);
        seen[way]++;
        previousNeededHead = needsHead;
        assert.deepEqual(await everything(remote), await everything(local), rel);
        assert.equal(remote.name, rel.split('/').pop());
      } finally {
        await local.close();
        await remote.close();
      }
    }
    // Each way was taken: the fixtures hold files of both kinds, in runs.
    assert.ok(seen.whole > 0 && seen.headAfter > 0 && seen.together > 0, JSON.stringify(seen));
  });

  test('a size known before the open (listedSize, as a scan passes an S3 listing’s) chooses explicit ranges up front; a wrong one is the typed changed error', async () => {
    for (const rel of ['tsfile/table_unicode.tsfile', 'tsfile/tree_10k_series.tsfile']) {
      const bytes = readFileSync(FIXTURES + rel);
      const uri = `/${rel}`;
      const before = ng.accessLog().filter((l) => l.uri === uri).length;
      const local = await openTsFile(FIXTURES + rel);
      const remote = await openTsFile(`${ng.origin}/${rel}`, { listedSize: bytes.length });
      try {
        const small = bytes.length <= WINDOW;
        const want = small ? [`bytes=0-${bytes.length - 1}`] : ['bytes=0-11', `bytes=${bytes.length - WINDOW}-${bytes.length - 1}`];
        const metadataRead = metadataFitsWindow(bytes) ? 0 : 1;
        const log = (await ng.settledLog((l) => l.uri === uri, before + want.length + metadataRead)).slice(before);
        assert.equal(log.length, want.length + metadataRead, JSON.stringify(log));
        assert.deepEqual(new Set(log.slice(0, want.length).map((l) => l.range)), new Set(want));
        // Both sent before any answer: neither is pinned.
        assert.ok(log.slice(0, want.length).every((l) => l.ifMatch === null), JSON.stringify(log));
        assert.deepEqual(await everything(remote), await everything(local), rel);
      } finally {
        await local.close();
        await remote.close();
      }
      for (const wrong of [bytes.length - 1, bytes.length + 1, 5000]) {
        const e = await openTsFile(`${ng.origin}/${rel}`, { listedSize: wrong }).then(() => null, (x) => x);
        assert.deepEqual([e?.kind, e?.reason], ['changed', 'size'], `${rel} listed as ${wrong}: ${e?.message}`);
        assert.match(e.message, new RegExp(`it was ${wrong} bytes, now ${bytes.length}`));
      }
    }
    for (const bad of [-1, 1.5, '100', Number.NaN]) {
      await assert.rejects(openTsFile(`${ng.origin}/tsfile/table_unicode.tsfile`, { listedSize: bad }), (e) => e.kind === 'invalid_argument' && e.argument === 'listedSize', String(bad));
    }
  });

  test('hostile fixtures fail over HTTP with the same typed error as from disk', async () => {
    for (const rel of HOSTILE) {
      const fromDisk = await openTsFile(FIXTURES + rel).then(everything, (e) => ({ kind: e.kind, offset: e.offset, message: e.message }));
      const overHttp = await openTsFile(new URL(`${ng.origin}/${rel}`)).then(everything, (e) => ({ kind: e.kind, offset: e.offset, message: e.message }));
      assert.deepEqual(overHttp, fromDisk, rel);
    }
  });

  test('scanTsFiles over URLs gives the local records: without audit, 1 request for a file the window holds, 2 for a larger one or after one', async () => {
    const fits = (rel) => {
      const bytes = readFileSync(FIXTURES + rel);
      return bytes.length < 10 || metadataFitsWindow(bytes);
    };
    const rels = [...VALID, ...HOSTILE].filter(fits);
    const paths = ['root.sg1.d1.s1', 'root.工厂.车间.风机.一号.功率', 'root.nowhere.d.s'];
    const collect = async (targets) => {
      const out = [];
      const scan = scanTsFiles(targets, { paths, concurrency: 1 });
      for await (const r of scan) out.push(r);
      return { records: out, summary: await scan.summary };
    };
    // One file at a time, so each open follows the one before (the previous test's last file,
    // hostile and small, left the origin sending the suffix alone).
    let previousNeededHead = false;
    const want = rels.map((rel) => {
      const needsHead = readFileSync(FIXTURES + rel).length > WINDOW;
      const n = previousNeededHead || needsHead ? 2 : 1;
      previousNeededHead = needsHead;
      return n;
    });
    const before = ng.accessLog().length;
    const remote = await collect(rels.map((r) => `${ng.origin}/${r}`));
    const total = want.reduce((a, b) => a + b, 0);
    const requests = (await ng.settledLog(() => true, before + total)).length - before;
    const local = await collect(rels.map((r) => FIXTURES + r));
    assert.equal(remote.records.length, rels.length);
    assert.ok(want.includes(1) && want.includes(2));
    assert.equal(requests, total);
    remote.records.forEach((r, i) => {
      const l = local.records[i];
      assert.equal(r.reads, want[i], r.file);
      const strip = ({ file, bytesRead, reads, ...rest }) => rest;
      assert.deepEqual(strip(r), strip(l), rels[i]);
    });
    assert.equal(remote.summary.reads, requests);
  });
});

// ---- The servers users run in development. -------------------------------------------------

for (const name of ['http-server', 'vite dev', 'vite preview']) {
  describe(`${name} serving the fixtures`, () => {
    let srv;
    before(async () => {
      srv = await SERVERS[name](FIXTURES);
    });
    after(async () => {
      await srv?.stop();
    });

    test('every valid fixture opens over HTTP exactly as from disk: explicit ranges once the server got a suffix wrong, at one request more that once', async () => {
      let learning = 0;
      let explicit = false;
      for (const rel of VALID) {
        const bytes = readFileSync(FIXTURES + rel);
        const local = await openTsFile(FIXTURES + rel);
        const remote = await openTsFile(`${srv.origin}/${rel}`);
        try {
          // http-server answers every suffix with 416; Vite's servers answer it rightly for a
          // file the window holds and wrongly (the first 4097 bytes) for a larger one. The open
          // that finds out asks again with explicit ranges: the first 4 KiB (all of a small
          // file), then the window of a larger one; later opens on the origin start there. So
          // every open costs 1 request for a small file, 2 for a larger one (TsFileMetadata
          // beyond the tail window: one more), and the one that finds out one more still.
          const base = (bytes.length > WINDOW ? 2 : 1) + (metadataFitsWindow(bytes) ? 0 : 1);
          const findsOut = !explicit && (name === 'http-server' || bytes.length > WINDOW);
          if (findsOut) {
            explicit = true;
            learning++;
          }
          assert.equal(remote.reads, base + (findsOut ? 1 : 0), `${rel}: ${remote.reads} requests`);
          assert.deepEqual(await everything(remote), await everything(local), rel);
        } finally {
          await local.close();
          await remote.close();
        }
      }
      assert.equal(learning, 1);
    });

    test('hostile fixtures fail over HTTP with the same typed error as from disk', async () => {
      for (const rel of HOSTILE) {
        const fromDisk = await openTsFile(FIXTURES + rel).then(everything, (e) => ({ kind: e.kind, offset: e.offset, message: e.message }));
        const overHttp = await openTsFile(`${srv.origin}/${rel}`).then(everything, (e) => ({ kind: e.kind, offset: e.offset, message: e.message }));
        // An empty file has no satisfiable range; http-server answers 416 with no Content-Range,
        // which does not say the file is empty: an io error naming the status, not a format error.
        if (name === 'http-server' && readFileSync(FIXTURES + rel).length === 0) {
          assert.equal(overHttp.kind, 'io', rel);
          assert.match(overHttp.message, /HTTP 416/);
          continue;
        }
        assert.deepEqual(overHttp, fromDisk, rel);
      }
    });

    test('scanTsFiles over URLs gives the local records', async () => {
      const rels = VALID.slice(0, 20);
      const paths = ['root.sg1.d1.s1', 'root.nowhere.d.s'];
      const collect = async (targets) => {
        const out = [];
        const scan = scanTsFiles(targets, { paths, audit: true });
        for await (const r of scan) out.push(r);
        return out;
      };
      const strip = ({ file, bytesRead, reads, ...rest }) => rest;
      const remote = (await collect(rels.map((r) => `${srv.origin}/${r}`))).map(strip);
      const local = (await collect(rels.map((r) => FIXTURES + r))).map(strip);
      assert.deepEqual(remote, local);
    });
  });
}

describe("Python's http.server (no Range support)", () => {
  let srv;
  before(async () => {
    srv = await SERVERS['python http.server'](FIXTURES);
  });
  after(async () => {
    await srv?.stop();
  });

  test('a file larger than the tail window is refused with range_ignored; allowFullDownload reads it as from disk', async () => {
    const rel = 'tsfile/tree_10k_series.tsfile';
    const url = `${srv.origin}/${rel}`;
    const err = await openTsFile(url).then(() => null, (e) => e);
    assert.equal(err?.kind, 'io');
    assert.equal(err.reason, 'range_ignored');
    assert.equal(err.status, 200);
    assert.match(err.message, /allowFullDownload/);
    const local = await openTsFile(FIXTURES + rel);
    const remote = await openTsFile(url, { allowFullDownload: true });
    try {
      // The suffix's answer is the whole file: one request, one download.
      assert.equal(remote.reads, 1);
      assert.equal(remote.bytesRead, readFileSync(FIXTURES + rel).length);
      assert.deepEqual(await everything(remote), await everything(local));
    } finally {
      await local.close();
      await remote.close();
    }
  });

  test('a file no larger than the tail window is its own whole body: it opens without the option', async () => {
    const rel = 'tsfile/table_unicode.tsfile';
    assert.ok(readFileSync(FIXTURES + rel).length <= 4096);
    const local = await openTsFile(FIXTURES + rel);
    const remote = await openTsFile(`${srv.origin}/${rel}`);
    try {
      assert.equal(remote.reads, 1);
      assert.deepEqual(await everything(remote), await everything(local));
    } finally {
      await local.close();
      await remote.close();
    }
  });
});

// ---- A server that misbehaves on purpose. --------------------------------------------------

const BIG = new Uint8Array(64 * 1024).map((_, i) => i & 0xff); // more than the tail window

function misbehavingServer() {
  const server = createServer((req, res) => {
    const [, mode] = req.url.split('/');
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    const slice = () => {
      const size = BIG.length;
      let start = Number(range[1]);
      let end = range[2] === '' ? size - 1 : Math.min(Number(range[2]), size - 1);
      if (range[1] === '') {
        start = Math.max(0, size - Number(range[2]));
        end = size - 1;
      }
      return { start, end, size };
    };
    switch (mode) {
      case 'no-range': // the whole body, 200, Range ignored
        res.writeHead(200, { 'content-length': BIG.length });
        res.end(BIG);
        return;
      case 'huge-no-range': {
        // 200 and a 1 GiB body trickling out: the client must not wait for it.
        res.writeHead(200, { 'content-length': 1 << 30 });
        const chunk = new Uint8Array(64 * 1024);
        const timer = setInterval(() => res.write(chunk), 5);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case 'missing':
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
        return;
      case 'forbidden':
        res.writeHead(403);
        res.end('forbidden');
        return;
      case 'short': {
        // Content-Range promises the range; the body (chunked) stops short and ends cleanly.
        const { start, end, size } = slice();
        res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${size}` });
        res.end(BIG.subarray(start, Math.min(end + 1, start + 5)));
        return;
      }
      case 'cut': {
        // Content-Length and Content-Range promise the range; the connection drops midway.
        const { start, end, size } = slice();
        res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1 });
        res.write(BIG.subarray(start, start + 5), () => res.socket.destroy());
        return;
      }
      case 'stall-body': {
        const { start, end, size } = slice();
        res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1 });
        res.flushHeaders();
        return; // and nothing more
      }
      case 'stall':
        return; // no status line at all
      case 'wrong-range': {
        const { end, size } = slice();
        res.writeHead(206, { 'content-range': `bytes 0-${end}/${size}` });
        res.end(BIG.subarray(0, end + 1));
        return;
      }
      case 'no-content-range':
        res.writeHead(206);
        res.end(BIG.subarray(0, 12));
        return;
      default:
        res.writeHead(500);
        res.end();
    }
  });
  return listenLocal(server);
}

describe('a misbehaving server', () => {
  let srv;
  before(async () => {
    srv = await misbehavingServer();
  });
  after(async () => {
    await srv?.close();
  });

  // Each case: the error's reason, the words its message must hold, and the time allowed.
  const CASES = [
    ['no-range', 'range_ignored', /ignored the Range request/, 2000],
    ['huge-no-range', 'range_ignored', /ignored the Range request.*1073741824 bytes/, 2000],
    ['missing', 'http_status', /HTTP 404/, 2000],
    ['forbidden', 'http_status', /HTTP 403/, 2000],
    ['short', 'short_body', /ended after 5 of the/, 2000],
    ['cut', 'short_body', /connection broke after 5 of the/, 2000],
    ['stall-body', 'timeout', /sent nothing for 300 ms/, 300 + 1500],
    ['stall', 'timeout', /sent nothing for 300 ms/, 300 + 1500],
    // The suffix range answered from byte 0 is taken for a server without suffix ranges; the
    // explicit range that follows is answered wrongly too.
    ['wrong-range', 'bad_content_range', /answered bytes=61440-65535 with bytes 0-65535\/65536/, 2000],
    ['no-content-range', 'bad_content_range', /without a usable Content-Range/, 2000],
  ];
  for (const [mode, reason, words, withinMs] of CASES) {
    test(`${mode}: a typed io error (${reason}) within ${withinMs} ms`, async () => {
      const url = `${srv.origin}/${mode}/x.tsfile`;
      const t0 = performance.now();
      const err = await openTsFile(url, { timeoutMs: 300 }).then(
        () => assert.fail('opened'),
        (e) => e,
      );
      const ms = performance.now() - t0;
      assert.equal(err.kind, 'io', err.message);
      assert.equal(err.reason, reason, err.message);
      assert.equal(err.url, url);
      assert.match(err.message, words);
      assert.ok(err.message.endsWith(url), err.message);
      assert.ok(ms < withinMs, `${ms} ms`);
    });
  }

  test('allowFullDownload reads a server that ignores Range, up to maxFullDownloadBytes', async () => {
    // BIG is not a TsFile: it downloads, then fails as a format error, not an io error.
    const err = await openTsFile(`${srv.origin}/no-range/x.tsfile`, { allowFullDownload: true }).then(() => null, (e) => e);
    assert.notEqual(err?.kind, 'io', err?.message);
    const limited = await openTsFile(`${srv.origin}/no-range/x.tsfile`, { allowFullDownload: true, maxFullDownloadBytes: 1000 }).then(() => null, (e) => e);
    assert.equal(limited.reason, 'too_large');
    assert.match(limited.message, /65536 bytes\) exceeds maxFullDownloadBytes \(1000\)/);
  });

  test('a malformed escape in the path: the file opens, named by the undecoded segment', async () => {
    const bytes = readFileSync(`${FIXTURES}tsfile/table_unicode.tsfile`);
    // A fetch of our own serving the file whole for the suffix range (all it is asked for).
    const fetch = async (url, init) => {
      assert.equal(new Headers(init.headers).get('range'), `bytes=-${WINDOW}`);
      return new Response(bytes, { status: 206, headers: { 'content-range': `bytes 0-${bytes.length - 1}/${bytes.length}` } });
    };
    const t = await openTsFile('https://data.example/d/a%E0%A4%A.tsfile', { fetch });
    try {
      assert.equal(t.name, 'a%E0%A4%A.tsfile');
      assert.equal(t.reads, 1);
      assert.equal(t.size, bytes.length);
    } finally {
      await t.close();
    }
  });

  test('a closed port is a network error naming the URL', async () => {
    const { freePort } = await import('./servers.mjs');
    const url = `http://127.0.0.1:${await freePort()}/x.tsfile`;
    const err = await openTsFile(url).then(() => null, (e) => e);
    assert.equal(err.kind, 'io');
    assert.equal(err.reason, 'network');
    assert.match(err.message, /ECONNREFUSED/);
  });

  test("a browser's CORS refusal (fetch rejects with a bare TypeError) is a network error", async () => {
    const url = 'https://elsewhere.example/x.tsfile';
    const fetch = () => Promise.reject(new TypeError('Failed to fetch'));
    const err = await openTsFile(url, { fetch }).then(() => null, (e) => e);
    assert.equal(err.kind, 'io');
    assert.equal(err.reason, 'network');
    assert.match(err.message, /CORS/);
    assert.equal(err.url, url);
  });

  test('an AbortSignal stops a stalled open promptly', async () => {
    const controller = new AbortController();
    const t0 = performance.now();
    setTimeout(() => controller.abort(), 50);
    const err = await openTsFile(`${srv.origin}/stall/x.tsfile`, { signal: controller.signal, timeoutMs: 10_000 }).then(() => null, (e) => e);
    assert.equal(err.kind, 'cancelled');
    assert.ok(performance.now() - t0 < 1000);
  });
});

// The page opens remote files ("Open from the web", www/views/remote.js): one URL in the
// inspector, a list of URLs and a bucket listing in the folder view, each against real servers
// started here on 127.0.0.1 — other origins than the page's:
// - nginx serving the files with the CORS headers www/README.md gives;
// - nginx serving them without (the browser refuses: each such file's error says CORS);
// - s3s-fs (crates.io: a real S3 protocol server) holding the files as a bucket in IoTDB's layout,
//   behind nginx as its CORS layer (s3s-fs answers no preflight and sends no CORS headers; a real
//   bucket's CORS configuration does this part): a public ListObjectsV2 listing, page by page
//   through continuation tokens, and a listing presigned with aws4fetch (the package's own signer)
//   for a store that verifies signatures, its objects public (nginx routes an unsigned request to
//   an s3s-fs without keys over the same directory, as a bucket policy allowing GetObject would).
// What the page shows for remote files must equal what it shows for the same files opened as a
// local folder (the folder input), and the worker's records must equal Node's local scan.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AwsClient } from 'aws4fetch';
import { startHarness } from './harness.mjs';
import { freePort, NGINX, S3S, startNginx, startS3s } from '../js/servers.mjs';
import { IOTDB_LAYOUT } from '../js/fleet.mjs';
import { openTsFile, scanTsFiles } from '../../js/node.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(ROOT, 'tests/fixtures');
const KEYS = { accessKeyId: 'AKIATSFILEBLOOMPAGE', secretAccessKey: 'tsfile-bloom-page-secret/key+1' };
// IoTDB's layout (tests/js/fleet.mjs), and a file without a filter.
const LAYOUT = { ...IOTDB_LAYOUT, 'data/unsequence/root.sg1/0/0/1700000000006-7-0-0.tsfile': 'tsfile/synthetic_java_null_filter_v4.tsfile' };
const KEYS_TSFILE = Object.keys(LAYOUT).filter((k) => k.endsWith('.tsfile')).sort();
const PATHS = ['root.sg1.d1.s1', 'root.设备.湿度', 'root.nowhere.d.s'];
const CORS = `
  add_header Access-Control-Allow-Origin $http_origin always;
  add_header Access-Control-Allow-Methods "GET, HEAD" always;
  add_header Access-Control-Allow-Headers "Range, If-Match, If-Unmodified-Since" always;
  add_header Access-Control-Expose-Headers "Content-Range, Content-Length, ETag, Last-Modified, Content-Encoding, Retry-After" always;
  add_header Access-Control-Max-Age 600 always;
  add_header Vary Origin always;
  if ($request_method = OPTIONS) { return 204; }`;
// The Host as the client sent it: a presigned URL's signature covers it.
const PROXY = 'proxy_set_header Host $http_host; proxy_http_version 1.1; proxy_set_header Connection "";';
const proxyTo = (origin) => `proxy_pass ${origin};`;

const skip = !NGINX ? 'nginx is not installed (bash scripts/setup.sh --nginx)' : !S3S ? 's3s-fs is not installed (bash scripts/setup.sh --s3)' : false;

let tmp;
let local; // the files on disk: local/<key>
let withCors;
let without;
let bucket; // nginx (CORS) → s3s-fs without keys: a public bucket
let signedBucket; // nginx (CORS) → s3s-fs with keys for signed requests, the keyless one for the rest
const stores = [];
let harness;
let page;
let nodeRecords; // Node's scan of the local files: key → record
let gone; // an origin nobody listens on

before(async () => {
  if (skip) return;
  tmp = mkdtempSync(join(tmpdir(), 'tsfile-bloom-remote-page-'));
  local = join(tmp, 'local');
  for (const [key, fixture] of Object.entries(LAYOUT)) {
    cpSync(join(FIXTURES, fixture), join(local, key));
    cpSync(join(FIXTURES, fixture), join(tmp, 'store/iotdb', key));
  }
  mkdirSync(join(tmp, 'store/empty'));
  withCors = await startNginx(local, { location: CORS });
  without = await startNginx(local);
  const open = await startS3s(join(tmp, 'store'));
  const signing = await startS3s(join(tmp, 'store'), KEYS);
  stores.push(open, signing);
  bucket = await startNginx(local, { location: `${CORS} ${PROXY} ${proxyTo(open.origin)}` });
  signedBucket = await startNginx(local, { location: `${CORS} ${PROXY} if ($args ~ "X-Amz-Signature=") { ${proxyTo(signing.origin)} } ${proxyTo(open.origin)}` });
  nodeRecords = new Map();
  const scan = scanTsFiles(join(local, 'data'), { paths: PATHS, audit: true });
  for await (const r of scan) nodeRecords.set(r.file.slice(local.length + 1), r);
  harness = await startHarness();
  page = await harness.newPage();
  await page.waitForFunction(() => globalThis.inspector);
});

after(async () => {
  await harness?.close();
  for (const s of [withCors, without, bucket, signedBucket]) await s?.stop();
  for (const s of stores) await s.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const waitDone = () => page.waitForFunction(() => document.body.dataset.fleet === 'done', null, { timeout: 60000 });
const strip = ({ file, bytesRead, reads, ...rest }) => rest;

/** Every row of the folder view (scrolled through): file → what its cells and data say. */
function allRows() {
  return page.evaluate(async () => {
    const box = document.getElementById('fleet-rows');
    const out = {};
    for (let top = 0; ; top += box.clientHeight / 2) {
      box.scrollTop = top;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      for (const row of box.querySelectorAll('.vlist-row')) {
        const d = row.dataset;
        const badge = row.querySelector('.cell:nth-child(7) .badge');
        out[d.file] = { size: d.size, errorKind: d.errorKind, verdicts: d.verdicts, fill: d.fill, audit: d.audit, cells: [...row.querySelectorAll('.cell')].slice(1).map((c) => c.textContent), message: badge?.title ?? null };
      }
      if (top + box.clientHeight >= box.scrollHeight) break;
    }
    box.scrollTop = 0;
    return out;
  });
}

/**
 * The folder view's summary lines, the bytes read left out (what a file costs to read depends
 * on the server: s3s-fs refuses a suffix range on a small file, costing one request more).
 */
const summaryText = () =>
  page.evaluate(() => [...document.querySelectorAll('[data-testid=fleet-skip], [data-testid=fleet-errors]')].map((p) => p.textContent.replace(/ Read [\d,]+ of ([\d,]+) bytes\.$/, ' Read … of $1 bytes.')));

/** Opens `urls` (one a line) from the "Open from the web" form. */
async function openUrls(urls) {
  await page.evaluate(() => (document.body.dataset.state = 'picking'));
  await page.fill('[data-testid=remote-urls]', urls.join('\n'));
  await page.click('[data-testid=remote-open]');
}

/** Rows keyed by the file's key in the layout: `of(file)` gives it. */
const byKey = (rows, of) => Object.fromEntries(Object.entries(rows).map(([file, r]) => [of(file), r]));

let localRows;
let localSummary;

/** A presigned URL as the page names it: its signature and credential REDACTED. */
const redacted = (url) => url.replace(/(X-Amz-(?:Signature|Credential)=)[^&]*/g, '$1REDACTED');
/** No row of `rows` (their files, cells and messages) holds the signature or the credential of `url`. */
function assertNoSecret(rows, url) {
  const text = JSON.stringify(rows);
  for (const name of ['X-Amz-Signature', 'X-Amz-Credential']) {
    const value = new URL(url).searchParams.get(name);
    for (const form of [value, encodeURIComponent(value)]) assert.ok(!text.includes(form), `${name}'s value shown: ${text.slice(0, 300)}`);
  }
}

test('the page: every file of the local folder, as the reference', { skip }, async () => {
  await page.setInputFiles('[data-testid=folder-input]', local);
  await waitDone();
  // The paths and the audit, asked for in the folder view's form (later scans keep them).
  await page.fill('[data-testid=fleet-paths]', PATHS.join(' '));
  await page.check('[data-testid=fleet-audit]');
  await page.press('[data-testid=fleet-paths]', 'Enter');
  await waitDone();
  localRows = byKey(await allRows(), (f) => f.slice('local/'.length));
  localSummary = await summaryText();
  assert.deepEqual(Object.keys(localRows).sort(), KEYS_TSFILE);
  // The paths split the folder: some files skipped, some not, one error.
  assert.match(localSummary.join('\n'), /\b[1-9]\d* of 7 files can be skipped for root\.nowhere\.d\.s/);
  assert.match(localSummary.join('\n'), /7 files, 1 with errors/);
});

test('a list of URLs on a CORS host: the same rows and summary as the local folder; the worker’s records equal Node’s local scan', { skip }, async () => {
  const urls = KEYS_TSFILE.map((k) => `${withCors.origin}/${k}`);
  await openUrls(urls);
  await waitDone();
  const rows = byKey(await allRows(), (f) => f.slice(withCors.origin.length + 1));
  assert.deepEqual(rows, localRows);
  assert.deepEqual(await summaryText(), localSummary);
  assert.equal(await page.textContent('#fleet-name'), '7 URLs');
  // The records themselves, as the folder view's worker op gives them, against Node's scan of the files on disk.
  const records = await page.evaluate(async ({ urls, paths }) => {
    const out = [];
    await globalThis.inspector.worker().call('scan', { targets: urls, paths, audit: true }, (p) => out.push(...p.records));
    return out;
  }, { urls, paths: PATHS });
  assert.deepEqual(records.map((r) => r.file), urls);
  assert.deepEqual(records.map(strip), KEYS_TSFILE.map((k) => strip(nodeRecords.get(k))));
  // Read with Range requests only: every GET a 206 (a preflight OPTIONS for the suffix range).
  const log = await withCors.settledLog((l) => l.method === 'GET', 2 * urls.length);
  assert.ok(log.length >= 2 * urls.length, `${log.length} GETs`);
  assert.deepEqual([...new Set(log.map((l) => l.status))], [206]);
});

test('a row opens the remote file in the inspector, the scanned paths probed', { skip }, async () => {
  const url = `${withCors.origin}/${KEYS_TSFILE[0]}`;
  await page.evaluate(() => (document.body.dataset.state = 'picking'));
  await page.click(`#fleet-rows .vlist-row[data-file="${url}"]`);
  await page.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 20000 });
  // Named as a dropped file is: by its name (the URL's last segment).
  assert.ok((await page.textContent('#file-name')).includes('1700000000000-1-0-0.tsfile'), await page.textContent('#file-name'));
  assert.equal(await page.evaluate(() => globalThis.inspector.current.info.size), nodeRecords.get(KEYS_TSFILE[0]).size);
  await page.waitForFunction(() => document.querySelector('[data-testid=verdict]').textContent.length > 0, null, { timeout: 10000 });
  assert.equal(await page.inputValue('[data-testid=path-input]'), PATHS[0]);
  const expected = nodeRecords.get(KEYS_TSFILE[0]).results[0].verdict;
  assert.equal(await page.textContent('[data-testid=verdict]'), { absent: 'definitely absent', maybe: 'maybe present', unknown: 'unknown' }[expected] ?? expected);
  assert.equal(await page.isVisible('[data-testid=fleet-back]'), true);
});

test('one URL opens in the inspector as the same file dropped would', { skip }, async () => {
  const key = KEYS_TSFILE[2]; // the GBK Java file: the audit establishes its charset from the index
  const facts = () => page.evaluate(() => {
    const c = globalThis.inspector.current;
    return { info: { ...c.info, name: null }, series: c.series.length, audit: c.audit, bits: Array.from(c.bits ?? []) };
  });
  await page.evaluate(() => (document.body.dataset.state = 'picking'));
  await page.setInputFiles('[data-testid=file-input]', join(local, key));
  await page.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 20000 });
  const dropped = await facts();
  const summaryDropped = await page.textContent('#summary');
  await openUrls([`${withCors.origin}/${key}`]);
  await page.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 20000 });
  assert.deepEqual(await facts(), dropped);
  assert.ok(dropped.series > 0 && dropped.audit?.status === 'established', JSON.stringify(dropped.audit));
  assert.equal((await page.textContent('#summary')).replace(/1700000000002-3-0-0\.tsfile( \([^)]*\))?/g, 'F'), summaryDropped.replace(/1700000000002-3-0-0\.tsfile( \([^)]*\))?/g, 'F'));
  assert.equal(await page.isVisible('[data-testid=fleet-back]'), false);
});

test('a link dropped on the page opens as the URL typed would', { skip }, async () => {
  const url = `${withCors.origin}/${KEYS_TSFILE[1]}`;
  await page.evaluate(() => (document.body.dataset.state = 'picking'));
  const dt = await page.evaluateHandle((u) => {
    const d = new DataTransfer();
    d.setData('text/uri-list', `# a comment line, as text/uri-list allows\r\n${u}`);
    return d;
  }, url);
  await page.dispatchEvent('body', 'drop', { dataTransfer: dt });
  await page.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 20000 });
  assert.ok((await page.textContent('#file-name')).includes('1700000000001-2-0-0.tsfile'));
  assert.equal(await page.evaluate(() => globalThis.inspector.current.info.size), nodeRecords.get(KEYS_TSFILE[1]).size);
});

test('errors per file: a 404, a host without CORS (said to be CORS), a host that is not there; the other files go on', { skip }, async () => {
  gone = `http://127.0.0.1:${await freePort()}`;
  const urls = [
    `${withCors.origin}/${KEYS_TSFILE[5]}`,
    `${withCors.origin}/data/none.tsfile`,
    `${without.origin}/${KEYS_TSFILE[5]}`,
    `${gone}/${KEYS_TSFILE[5]}`,
    `${withCors.origin}/${KEYS_TSFILE[6]}`,
  ];
  await openUrls(urls);
  await waitDone();
  const rows = await allRows();
  assert.deepEqual(Object.keys(rows).sort(), [...urls].sort());
  assert.deepEqual(rows[urls[0]].verdicts, localRows[KEYS_TSFILE[5]].verdicts);
  assert.deepEqual(rows[urls[4]].cells, localRows[KEYS_TSFILE[6]].cells);
  for (const u of urls.slice(1, 4)) assert.equal(rows[u].errorKind, 'io', u);
  assert.match(rows[urls[1]].message, /^HTTP 404/);
  assert.match(rows[urls[2]].message, /the server answered, but not with the CORS headers that let this page read the file \(cross-origin refusal/);
  assert.ok(rows[urls[2]].message.includes(`: ${urls[2]}`), rows[urls[2]].message);
  assert.match(rows[urls[3]].message, /^network error: the server could not be reached/);
  assert.match((await summaryText()).join('\n'), /5 files, 3 with errors: io 3\./);
  // One URL from the host without CORS: the inspector says why.
  await openUrls([urls[2]]);
  await page.waitForFunction(() => document.body.dataset.state === 'error', null, { timeout: 20000 });
  const err = await page.textContent('[data-testid=error]');
  assert.match(err, /is not a readable TsFile/);
  assert.match(err, /io.*CORS headers/s);
  // An entry that is no URL is named; the rest are opened.
  await openUrls(['ftp://example.invalid/x.tsfile', `${withCors.origin}/${KEYS_TSFILE[5]}`]);
  await page.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 20000 });
  assert.match(await page.textContent('[data-testid=error]'), /invalid_argument.*“ftp:\/\/example\.invalid\/x\.tsfile” is not an http\(s\) URL; the others are opened/s);
});

test('a public bucket listing (s3s-fs, ListObjectsV2 page by page): the same rows and summary as the local folder', { skip }, async () => {
  const listing = `${bucket.origin}/iotdb?list-type=2&prefix=data/&max-keys=2`;
  await openUrls([listing]);
  await waitDone();
  const rows = byKey(await allRows(), (f) => f.slice(`${bucket.origin}/iotdb/`.length));
  assert.deepEqual(rows, localRows);
  assert.deepEqual(await summaryText(), localSummary);
  assert.equal(await page.textContent('#fleet-name'), `bucket listing ${bucket.origin.slice('http://'.length)}/iotdb prefix data/`);
  // 8 objects, 2 a page: 4 pages, the later 3 asked for with the previous page's continuation token.
  const lists = (await bucket.settledLog((l) => l.method === 'GET' && l.uri === '/iotdb', 4)).filter((l) => l.uri === '/iotdb');
  assert.equal(lists.length, 4);
  // A row opens its object in the inspector.
  const url = `${bucket.origin}/iotdb/${KEYS_TSFILE[1]}`;
  await page.evaluate(() => (document.body.dataset.state = 'picking'));
  await page.click(`#fleet-rows .vlist-row[data-file="${url}"]`);
  await page.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 20000 });
  const t = await openTsFile(join(local, KEYS_TSFILE[1]));
  try {
    assert.equal(await page.evaluate(() => globalThis.inspector.current.info.size), t.size);
  } finally {
    await t.close();
  }
  // A missing bucket: one row, its S3 error.
  await openUrls([`${bucket.origin}/no-such-bucket?list-type=2`, `${bucket.origin}/empty?list-type=2`]);
  await waitDone();
  const bad = await allRows();
  assert.deepEqual(Object.keys(bad), [`${bucket.origin}/no-such-bucket?list-type=2`]);
  assert.match(bad[`${bucket.origin}/no-such-bucket?list-type=2`].message, /^no such bucket \[NoSuchBucket\]/);
});

test('a presigned listing (signed by aws4fetch, verified by s3s-fs): its page scanned; more pages than one is the typed presigned_truncated', { skip }, async () => {
  const signer = new AwsClient({ ...KEYS, service: 's3', region: 'us-east-1' });
  const presign = async (maxKeys) => (await signer.sign(`${signedBucket.origin}/iotdb?list-type=2&prefix=data/&max-keys=${maxKeys}`, { method: 'GET', aws: { signQuery: true } })).url;
  // The store verifies signatures: a listing signed with another secret is denied.
  const forged = new AwsClient({ ...KEYS, secretAccessKey: 'not-the-secret', service: 's3', region: 'us-east-1' });
  const forgedUrl = (await forged.sign(`${signedBucket.origin}/iotdb?list-type=2&prefix=data/`, { method: 'GET', aws: { signQuery: true } })).url;
  await openUrls([forgedUrl]);
  await waitDone();
  const deniedRows = await allRows();
  const denied = Object.values(deniedRows);
  assert.equal(denied.length, 1);
  assert.match(denied[0].message, /^access denied/);
  // The row names the listing, its signature and credential REDACTED (issue 39): in its file and its message.
  assert.deepEqual(Object.keys(deniedRows), [redacted(forgedUrl)]);
  assertNoSecret(deniedRows, forgedUrl);
  await openUrls([await presign(1000)]);
  await waitDone();
  const rows = byKey(await allRows(), (f) => f.slice(`${signedBucket.origin}/iotdb/`.length));
  assert.deepEqual(rows, localRows);
  const truncated = await presign(3);
  await openUrls([truncated]);
  await waitDone();
  const some = await allRows();
  // The first page's 3 objects (notes.txt is not among the first 3 keys), then the listing's error.
  assert.deepEqual(Object.keys(some), [...KEYS_TSFILE.slice(0, 3).map((k) => `${signedBucket.origin}/iotdb/${k}`), redacted(truncated)]);
  assert.equal(some[redacted(truncated)].errorKind, 'io');
  assert.match(some[redacted(truncated)].message, /^the listing has more pages, but it is presigned/);
  assertNoSecret(some, truncated);
});

test('no console error, no page error; requests left the page only for the servers asked', { skip }, () => {
  const asked = [withCors.origin, without.origin, bucket.origin, signedBucket.origin, gone];
  assert.deepEqual(harness.problems.filter((p) => !asked.some((o) => p.startsWith(`request left the origin: ${o}/`))), []);
});

test('the page’s host sets the policy: a CSP connect-src without the file host is said to be the CSP; with it, the file opens', { skip }, async () => {
  const site = fileURLToPath(new URL('../../dist/site/', import.meta.url));
  const policy = (connect) => `default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src ${connect}; object-src 'none'; base-uri 'none'; form-action 'none'`;
  const url = `${withCors.origin}/${KEYS_TSFILE[5]}`;
  for (const [connect, opens] of [["'self'", false], [`'self' ${withCors.origin}`, true]]) {
    // The README's recipe: the header on every response, the worker scripts' included.
    const host = await startNginx(site, { location: `add_header Content-Security-Policy "${policy(connect)}" always;` });
    const context = await harness.browser.newContext();
    try {
      const p = await context.newPage();
      const errors = [];
      p.on('pageerror', (e) => errors.push(e.message));
      await p.goto(`${host.origin}/`);
      await p.waitForFunction(() => globalThis.inspector);
      await p.fill('[data-testid=remote-urls]', url);
      await p.click('[data-testid=remote-open]');
      await p.waitForFunction(() => ['ready', 'error'].includes(document.body.dataset.state), null, { timeout: 20000 });
      if (opens) {
        assert.equal(await p.evaluate(() => document.body.dataset.state), 'ready', await p.textContent('[data-testid=error]'));
        assert.equal(await p.evaluate(() => globalThis.inspector.current.info.size), nodeRecords.get(KEYS_TSFILE[5]).size);
      } else {
        const err = await p.textContent('[data-testid=error]');
        assert.match(err, new RegExp(`this page's Content-Security-Policy does not allow connecting to ${withCors.origin} \\(its connect-src must list that origin`), err);
      }
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
      await host.stop();
    }
  }
});

// Bucket listings as scan targets (js/s3.js listingTsFiles, walked by js/scan-browser.js): an S3
// ListObjectsV2 URL, read page by page, against s3s-fs (a real S3 protocol server started here),
// once without keys (a public bucket) and once verifying signatures (a listing presigned by
// aws4fetch); keys with spaces, '&' and non-ASCII characters, which the listing escapes in XML and
// the object URL must percent-encode. Records equal Node's scan of the same files on disk.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AwsClient } from 'aws4fetch';
import { scanTsFiles as scanInNode } from '../../js/node.js';
import { scanTsFiles as scanInBrowser } from '../../js/scan-browser.js';
import { isListingUrl, listingTsFiles, parseListing } from '../../js/s3.js';
import { createServer } from 'node:http';
import { listenLocal, S3S, startS3s } from './servers.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KEYS = { accessKeyId: 'AKIATSFILEBLOOMLIST', secretAccessKey: 'tsfile-bloom-list-secret/key+1' };
const LAYOUT = {
  'data/sequence/root.sg1/0/0/1700000000000-1-0-0.tsfile': 'tsfile/tree_10series.tsfile',
  'data/sequence/root.sg1/0/0/1700000000001-2-0-0.tsfile': 'tsfile/table_unicode.tsfile',
  'data/sequence/设备 & co/0/1700000000002-3-0-0.tsfile': 'java/gbk/tree_quoted_unicode.tsfile',
  'data/unsequence/root.sg1/0/0/1700000000003-4-0-0.tsfile': 'tsfile/hostile_bad_tail_magic.tsfile',
  'data/unsequence/root.sg1/0/0/1700000000003-4-0-0.tsfile.resource': 'tsfile/manifest.json',
};
const PATHS = ['root.sg1.d1.s1', 'root.nowhere.d.s'];
const strip = ({ file, bytesRead, reads, ...rest }) => rest;

let dir;
const stores = [];
let open; // origin of the keyless s3s-fs
let signing; // origin of the one verifying signatures

before(async () => {
  if (!S3S) return;
  dir = mkdtempSync(join(tmpdir(), 'tsfile-bloom-listing-'));
  for (const [key, fixture] of Object.entries(LAYOUT)) {
    cpSync(join(ROOT, 'tests/fixtures', fixture), join(dir, 'store/iotdb', key));
    cpSync(join(ROOT, 'tests/fixtures', fixture), join(dir, 'local', key));
  }
  stores.push(await startS3s(join(dir, 'store')), await startS3s(join(dir, 'store'), KEYS));
  [open, signing] = stores.map((s) => s.origin);
});

after(async () => {
  for (const s of stores) await s.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function records(scan) {
  const out = [];
  for await (const r of scan) out.push(r);
  return { records: out, summary: await scan.summary };
}

test('isListingUrl: http(s) with list-type=2, nothing else', () => {
  assert.equal(isListingUrl('https://b.s3.eu-west-1.amazonaws.com/?list-type=2&prefix=data/'), true);
  assert.equal(isListingUrl(new URL('http://127.0.0.1:9000/b?prefix=x&list-type=2')), true);
  assert.equal(isListingUrl('https://b.s3.amazonaws.com/?list-type=1'), false);
  assert.equal(isListingUrl('https://b.s3.amazonaws.com/data/x.tsfile'), false);
  assert.equal(isListingUrl('s3://b/?list-type=2'), false);
  assert.equal(isListingUrl('/b?list-type=2'), false);
  assert.equal(isListingUrl('http://[::1?list-type=2'), false);
});

test('parseListing reads the fields S3 documents, XML escapes undone; anything else is no listing', () => {
  // The shape of the ListObjectsV2 response in the S3 API reference.
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Name>bucket</Name><Prefix/><KeyCount>2</KeyCount><MaxKeys>2</MaxKeys><IsTruncated>true</IsTruncated>
  <NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=&amp;x</NextContinuationToken>
  <Contents><Key>a &amp; b/&lt;c&gt;.tsfile</Key><LastModified>2014-11-21T19:40:05.000Z</LastModified><ETag>&quot;70ee1738b6b21e2c8a43f3a5ab0eee71&quot;</ETag><Size>1111</Size><StorageClass>STANDARD</StorageClass></Contents>
  <Contents><Key>my-image.jpg</Key><LastModified>2013-09-17T18:07:53.000Z</LastModified><ETag>"9c8af9a76df052144598c115ef33e511"</ETag><Size>434234</Size><StorageClass>STANDARD</StorageClass></Contents>
</ListBucketResult>`;
  assert.deepEqual(parseListing(xml), {
    objects: [
      { key: 'a & b/<c>.tsfile', size: 1111, etag: '"70ee1738b6b21e2c8a43f3a5ab0eee71"', lastModified: '2014-11-21T19:40:05.000Z' },
      { key: 'my-image.jpg', size: 434234, etag: '"9c8af9a76df052144598c115ef33e511"', lastModified: '2013-09-17T18:07:53.000Z' },
    ],
    truncated: true,
    nextToken: '1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=&x',
  });
  assert.equal(parseListing('<html><body>Index of /</body></html>'), null);
  assert.equal(parseListing('<Error><Code>AccessDenied</Code></Error>'), null);
});

test('a listing that stalls ends in the typed deadline; one past any listing’s length is refused; an HTML page is no listing', async () => {
  const server = await listenLocal(
    createServer((req, res) => {
      if (req.url.startsWith('/stall')) return res.writeHead(200, { 'content-type': 'application/xml' }) && res.write('<ListBucketResult>'); // and nothing more
      if (req.url.startsWith('/huge')) {
        res.writeHead(200, { 'content-type': 'application/xml' });
        const chunk = `<Contents><Key>${'k'.repeat(1000)}</Key><Size>1</Size></Contents>`.repeat(1000);
        const more = () => {
          while (res.write(chunk)) if (res.writableLength > 1 << 20) break;
        };
        res.on('drain', more);
        res.write('<ListBucketResult>');
        return more();
      }
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Index of /</body></html>');
    }),
  );
  const failure = async (url, options) => {
    try {
      for await (const o of listingTsFiles(url, options)) void o;
      return null;
    } catch (e) {
      return e;
    }
  };
  try {
    const stalled = await failure(`${server.origin}/stall?list-type=2`, { deadlineMs: 300 });
    assert.deepEqual([stalled?.kind, stalled?.reason], ['io', 'deadline'], stalled?.message);
    const huge = await failure(`${server.origin}/huge?list-type=2`);
    assert.deepEqual([huge?.kind, huge?.reason], ['io', 's3_error'], huge?.message);
    assert.match(huge.message, /^the listing page is longer than 16 MiB/);
    const html = await failure(`${server.origin}/?list-type=2`);
    assert.deepEqual([html?.kind, html?.reason], ['io', 's3_error'], html?.message);
    assert.match(html.message, /is not a ListObjectsV2 listing/);
  } finally {
    await server.close();
  }
});

describe('listings against s3s-fs', { skip: S3S ? false : 's3s-fs is not installed (bash scripts/setup.sh --s3)' }, () => {
  test('a public listing, one object a page: the objects by their URLs (keys percent-encoded), records equal the local scan', async () => {
    const listing = `${open}/iotdb?list-type=2&prefix=data/&max-keys=1`;
    const listed = [];
    for await (const o of listingTsFiles(listing)) listed.push(o.url);
    // The keys in S3's order (by their UTF-8 bytes), each segment percent-encoded.
    assert.deepEqual(listed, [
      `${open}/iotdb/data/sequence/root.sg1/0/0/1700000000000-1-0-0.tsfile`,
      `${open}/iotdb/data/sequence/root.sg1/0/0/1700000000001-2-0-0.tsfile`,
      `${open}/iotdb/data/sequence/%E8%AE%BE%E5%A4%87%20%26%20co/0/1700000000002-3-0-0.tsfile`,
      `${open}/iotdb/data/unsequence/root.sg1/0/0/1700000000003-4-0-0.tsfile`,
    ]);
    const remote = await records(scanInBrowser(listing, { paths: PATHS, audit: true }));
    const disk = await records(scanInNode(join(dir, 'local/data'), { paths: PATHS, audit: true }));
    assert.deepEqual(remote.records.map((r) => r.file), listed);
    assert.deepEqual(remote.records.map(strip), disk.records.map(strip));
    assert.deepEqual(remote.summary.paths, disk.summary.paths);
    assert.equal(remote.records[3].error?.kind, 'bad_tail_magic');
  });

  test('a listing URL among other targets; a missing bucket is one record with its typed error, the scan goes on', async () => {
    const good = `${open}/iotdb/data/sequence/root.sg1/0/0/1700000000000-1-0-0.tsfile`;
    const { records: got } = await records(scanInBrowser([`${open}/none?list-type=2`, good, `${open}/iotdb?list-type=2&prefix=data/unsequence/`], { paths: PATHS }));
    assert.deepEqual(got.map((r) => [r.file, r.error?.kind ?? null]), [
      [`${open}/none?list-type=2`, 'io'],
      [good, null],
      [`${open}/iotdb/data/unsequence/root.sg1/0/0/1700000000003-4-0-0.tsfile`, 'bad_tail_magic'],
    ]);
    assert.match(got[0].error.message, /^no such bucket \[NoSuchBucket\]/);
  });

  test('a presigned listing (aws4fetch, verified by s3s-fs): its one page; more pages is presigned_truncated after that page’s objects', async () => {
    const signer = new AwsClient({ ...KEYS, service: 's3', region: 'us-east-1' });
    const presign = async (query) => (await signer.sign(`${signing}/iotdb?${query}`, { method: 'GET', aws: { signQuery: true } })).url;
    const all = [];
    for await (const o of listingTsFiles(await presign('list-type=2&prefix=data/'))) all.push(o.key);
    assert.deepEqual(all, Object.keys(LAYOUT).filter((k) => k.endsWith('.tsfile')));
    const two = await presign('list-type=2&prefix=data/&max-keys=2');
    const some = [];
    const err = await (async () => {
      for await (const o of listingTsFiles(two)) some.push(o.key);
    })().then(() => null, (e) => e);
    assert.deepEqual(some, all.slice(0, 2));
    assert.deepEqual([err?.kind, err?.reason], ['io', 'presigned_truncated'], err?.message);
    // The listing named, its signature and credential not (issue 39): REDACTED, the names kept.
    const shown = two.replace(/(X-Amz-(?:Signature|Credential)=)[^&]*/g, '$1REDACTED');
    assert.ok(err.message.endsWith(`: ${shown}`), err.message);
    assert.equal(err.url, shown);
    assert.ok(!err.message.includes(new URL(two).searchParams.get('X-Amz-Signature')));
    // Unsigned, the same store refuses: denied.
    const denied = await (async () => {
      for await (const o of listingTsFiles(`${signing}/iotdb?list-type=2`)) some.push(o.key);
    })().then(() => null, (e) => e);
    assert.deepEqual([denied?.kind, denied?.reason], ['io', 'denied'], denied?.message);
  });
});

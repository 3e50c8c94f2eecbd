// An S3 endpoint of the suite's own, in memory, for what a real store (s3s-fs keeps keys as file
// names: `a/./b` and `a/b` are one file there) cannot show and for stores that misbehave on
// purpose. Path-style: `/<bucket>/<key>` (GetObject with Range, ETag, Last-Modified) and
// `/<bucket>?list-type=2` (ListObjectsV2: prefix, max-keys, continuation-token). The key is the
// request path as sent (req.url, never normalised), each segment percent-decoded once — as S3
// reads it — and with `credentials` every request's AWS Signature V4 is verified here, from
// the AWS specification (node:crypto; not the package's signers), over that same path: a
// request signed for another path than it was sent with is refused (403 SignatureDoesNotMatch).
//
// `store.mode` (mutable) asks for a fault: `listing` — 'silent' (accepts, never answers), 'drip'
// (a byte every 50 ms, never done), 'loop' (continuation tokens t1 → t2 → t1: pages 1, 2, 3, 2 …), 'empty' (every
// page empty and truncated, one token for ever), 'empty-fresh' (empty truncated pages with a new
// token each), 'half-close' (the connection closed with no answer), 'repeat' (the second page
// repeats the first page's objects under a new token), 'negative-size' (the first object's Size
// is -1); `object` — 'silent' for GetObject; `redirect` — an origin every request is sent to
// (307), path and query kept; `stale` — `{key: {bytes, etag}}` served by GetObject in place of
// the object (a cache in front of the store) while the listing names the object's own.
import { createServer } from 'node:http';
import { createHash, createHmac } from 'node:crypto';
import { listenLocal } from './servers.mjs';

const sha256 = (data) => createHash('sha256').update(data).digest('hex');
const hmac = (key, data) => createHmac('sha256', key).update(data).digest();
// The specification's UriEncode: every byte but A-Z a-z 0-9 - . _ ~ as %XX (upper case).
const uriEncode = (s) => Array.from(Buffer.from(s, 'utf8'), (b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
const xml = (s) => s.replace(/[&<>"']|[\0-\x08\x0b\x0c\x0e-\x1f]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? `&#${c.charCodeAt(0)};`);
const md5Etag = (bytes) => `"${createHash('md5').update(bytes).digest('hex')}"`;

/** The query of a raw request target as decoded pairs (`+` is a space, as S3 reads a query). */
function queryPairs(raw) {
  if (!raw) return [];
  return raw.split('&').filter(Boolean).map((p) => {
    const eq = p.indexOf('=');
    const [k, v] = eq < 0 ? [p, ''] : [p.slice(0, eq), p.slice(eq + 1)];
    return [decodeURIComponent(k.replace(/\+/g, ' ')), decodeURIComponent(v.replace(/\+/g, ' '))];
  });
}

/** Whether the request's SigV4 Authorization is right for `rawPath` and `pairs` (the spec's canonical request). */
function signatureHolds(req, rawPath, pairs, { accessKeyId, secretAccessKey, sessionToken }) {
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(req.headers.authorization ?? '');
  if (!m || m[1] !== accessKeyId) return false;
  if (sessionToken && req.headers['x-amz-security-token'] !== sessionToken) return false;
  const [, , date, region, signedHeaders, signature] = m;
  // S3's canonical URI: the path's segments, each decoded and encoded once; never normalised.
  const uri = rawPath.split('/').map((s) => uriEncode(decodeURIComponent(s))).join('/');
  const query = pairs.map(([k, v]) => [uriEncode(k), uriEncode(v)]).sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0)).map(([k, v]) => `${k}=${v}`).join('&');
  const headers = signedHeaders.split(';').map((h) => `${h}:${String(req.headers[h] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const request = ['GET', uri, query, headers, signedHeaders, req.headers['x-amz-content-sha256'] ?? sha256('')].join('\n');
  const toSign = ['AWS4-HMAC-SHA256', req.headers['x-amz-date'], `${date}/${region}/s3/aws4_request`, sha256(request)].join('\n');
  const key = ['s3', 'aws4_request'].reduce((k, part) => hmac(k, part), hmac(hmac(`AWS4${secretAccessKey}`, date), region));
  return createHmac('sha256', key).update(toSign).digest('hex') === signature;
}

/**
 * Starts the store: `buckets` is `{bucket: {key: bytes, or {bytes, etag}}}` (the ETag by default
 * the bytes' MD5, quoted, as S3's of a single-part upload). Resolves to `{origin, requests,
 * mode, close()}`; `requests` lists every request as received: `{method, url, headers}`.
 */
export async function startFakeS3(buckets, { credentials = null, pageSize = 1000 } = {}) {
  const objects = {};
  const lastModified = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
  for (const [bucket, keys] of Object.entries(buckets)) {
    objects[bucket] = new Map(Object.entries(keys).map(([key, o]) => [key, o.bytes ? { bytes: Buffer.from(o.bytes), etag: o.etag ?? md5Etag(o.bytes) } : { bytes: Buffer.from(o), etag: md5Etag(o) }]));
  }
  const requests = [];
  const mode = {};
  const error = (res, status, code, message) => {
    res.writeHead(status, { 'content-type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${xml(message)}</Message></Error>`);
  };
  const server = createServer((req, res) => {
    requests.push({ method: req.method, url: req.url, headers: { ...req.headers } });
    if (mode.redirect) {
      res.writeHead(307, { location: `${mode.redirect}${req.url}`, 'content-length': 0 });
      return res.end();
    }
    const q = req.url.indexOf('?');
    const rawPath = q < 0 ? req.url : req.url.slice(0, q);
    let pairs;
    let segments;
    try {
      pairs = queryPairs(q < 0 ? '' : req.url.slice(q + 1));
      segments = rawPath.slice(1).split('/').map((s) => decodeURIComponent(s));
    } catch {
      return error(res, 400, 'InvalidURI', 'Could not parse the specified URI.');
    }
    if (credentials && !signatureHolds(req, rawPath, pairs, credentials)) return error(res, 403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
    const [bucket, ...rest] = segments;
    const store = objects[bucket];
    if (!store) return error(res, 404, 'NoSuchBucket', 'The specified bucket does not exist');
    const query = Object.fromEntries(pairs);
    if (rest.length === 0 || (rest.length === 1 && rest[0] === '')) {
      if (query['list-type'] !== '2') return error(res, 400, 'InvalidRequest', 'only ListObjectsV2 here');
      return list(req, res, store, query);
    }
    return getObject(req, res, store, rest.join('/'));
  });

  function list(req, res, store, query) {
    const fault = mode.listing;
    if (fault === 'silent') return; // never answered
    if (fault === 'half-close') return req.socket.destroy();
    const token = query['continuation-token'] ?? null;
    const keys = [...store.keys()].filter((k) => k.startsWith(query.prefix ?? '')).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    const max = Number(query['max-keys'] ?? pageSize);
    let page;
    let next = null;
    if (fault === 'loop') {
      // The first page names t1, t1's page names t2, t2's names t1 again.
      const at = token === 't1' ? max : token === 't2' ? 2 * max : 0;
      page = keys.slice(at, at + max);
      next = token === 't1' ? 't2' : 't1';
    } else if (fault === 'empty') {
      page = [];
      next = 'same';
    } else if (fault === 'empty-fresh') {
      page = [];
      next = `e${Number(token?.slice(1) ?? 0) + 1}`;
    } else {
      const from = token ? Number(token.slice(1)) : 0;
      page = keys.slice(from, from + max);
      if (from + max < keys.length) next = `p${from + max}`;
      if (fault === 'repeat' && token) page = keys.slice(0, from + max); // the first page's again
    }
    const contents = page.map((key, i) => {
      const o = store.get(key);
      const size = fault === 'negative-size' && i === 0 && !token ? -1 : o.bytes.length;
      return `<Contents><Key>${xml(key)}</Key><LastModified>${lastModified.toISOString()}</LastModified><ETag>${xml(o.etag)}</ETag><Size>${size}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
    });
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><KeyCount>${page.length}</KeyCount><MaxKeys>${max}</MaxKeys><IsTruncated>${next !== null}</IsTruncated>${next ? `<NextContinuationToken>${next}</NextContinuationToken>` : ''}${contents.join('')}</ListBucketResult>`;
    if (fault === 'drip') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      let at = 0;
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(body[at++ % body.length])), 50);
      res.on('close', () => clearInterval(timer));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  }

  function getObject(req, res, store, key) {
    if (mode.object === 'silent') return;
    const o = mode.stale?.[key] ?? store.get(key);
    if (!o) return error(res, 404, 'NoSuchKey', 'The specified key does not exist.');
    const bytes = o.bytes;
    const headers = { etag: o.etag, 'last-modified': lastModified.toUTCString(), 'accept-ranges': 'bytes' };
    if (req.headers['if-match'] && req.headers['if-match'] !== o.etag) return error(res, 412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
    const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    if (!m) {
      res.writeHead(200, { ...headers, 'content-length': bytes.length });
      return res.end(bytes);
    }
    const start = m[1] === '' ? Math.max(0, bytes.length - Number(m[2])) : Number(m[1]);
    const end = m[1] === '' || m[2] === '' ? bytes.length - 1 : Math.min(Number(m[2]), bytes.length - 1);
    if (start > end) return error(res, 416, 'InvalidRange', 'The requested range is not satisfiable');
    res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${bytes.length}`, 'content-length': end - start + 1 });
    res.end(bytes.subarray(start, end + 1));
  }

  const listening = await listenLocal(server);
  return {
    ...listening,
    requests,
    mode,
    /** Replaces an object (its ETag follows its bytes). */
    put(bucket, key, bytes) {
      objects[bucket].set(key, { bytes: Buffer.from(bytes), etag: md5Etag(bytes) });
    },
    /** Object `key` as GetObject serves it: `{bytes, etag}`. */
    object: (bucket, key) => objects[bucket].get(key),
  };
}

/** A server that records what reaches it and answers 404: the other origin of a redirect. */
export async function startRecorder() {
  const requests = [];
  const listening = await listenLocal(
    createServer((req, res) => {
      requests.push({ url: req.url, headers: { ...req.headers } });
      res.writeHead(404, { 'content-length': 0 });
      res.end();
    }),
  );
  return { ...listening, requests };
}

// TsFiles in S3 and S3-compatible object stores: `s3://bucket/key` opened with signed Range
// requests (the http source does the reading: js/http-source.js), and `s3://bucket/prefix`
// listed with ListObjectsV2 for a scan. Requests are signed with AWS Signature V4 by aws4fetch
// (small, no dependencies, WebCrypto: the same in browsers, Deno, Bun and Workers), loaded only
// when an s3:// target is first used; Node signs with aws4 and sends over node:http
// (js/node-s3.js: less CPU per request). A presigned https:// URL needs none of this:
// it is an ordinary URL.
//
// Configuration (`options.s3`, else in Node the conventions AWS tools use: js/s3-config.js):
// `{ accessKeyId, secretAccessKey, sessionToken, region, endpoint, forcePathStyle, pageSize }`
// (pageSize: objects per ListObjectsV2 page, default the store's, 1,000 on AWS). Without
// credentials requests go unsigned (public buckets). With an `endpoint` (an S3-compatible store)
// addressing is path-style unless `forcePathStyle: false`; on AWS it is virtual-hosted.

/** Whether `input` is an s3:// URL (a string or a URL object). */
export function isS3Url(input) {
  if (typeof URL !== 'undefined' && input instanceof URL) return input.protocol === 's3:';
  return typeof input === 'string' && /^s3:\/\//i.test(input);
}

/** `s3://bucket/key` → `{bucket, key}` (the key without its leading slash, percent-decoded). */
export function parseS3Url(input) {
  const text = String(input instanceof URL ? input.href : input);
  const m = /^s3:\/\/([^/?#]+)\/?([^?#]*)$/i.exec(text);
  if (!m || !m[1]) throw Object.assign(new TypeError(`not an s3://bucket/key URL: ${text}`), { kind: 'invalid_argument', argument: 'source', offset: null });
  return { bucket: m[1], key: decodeURIComponent(m[2]) };
}

/** An 'io' error about an S3 object: `reason` denied, no_such_bucket, no_such_key, expired_credentials or s3_error. */
export function s3Error(target, reason, sentence, { status = null, code = null } = {}) {
  return Object.assign(new Error(`${sentence}: ${target}`), { kind: 'io', reason, url: target, status, code, offset: null });
}

// S3's error codes (the <Code> of an error response) by what a user can do about them.
const REASONS = {
  AccessDenied: 'denied',
  InvalidAccessKeyId: 'denied',
  SignatureDoesNotMatch: 'denied',
  AllAccessDisabled: 'denied',
  NoSuchBucket: 'no_such_bucket',
  NoSuchKey: 'no_such_key',
  ExpiredToken: 'expired_credentials',
  TokenRefreshRequired: 'expired_credentials',
  InvalidToken: 'expired_credentials',
};

const SENTENCES = {
  denied: 'access denied (the credentials are wrong, or not allowed to read this)',
  no_such_bucket: 'no such bucket',
  no_such_key: 'no such object',
  expired_credentials: 'the credentials have expired (a session token past its time)',
};

/** An S3 error response → the typed error (its XML <Code> read from a bounded body). */
async function errorFrom(res, target) {
  let code = null;
  let message = null;
  try {
    const text = (await boundedText(res, target)).slice(0, 16384);
    code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? null;
    message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1] ?? null;
  } catch {
    // no readable body: the status says what it can
  }
  const reason = REASONS[code] ?? (res.status === 403 ? 'denied' : res.status === 404 ? 'no_such_key' : 's3_error');
  const sentence = SENTENCES[reason] ?? `S3 error ${code ?? res.status}${message ? ` (${unescape(message)})` : ''}`;
  return s3Error(target, reason, `${sentence}${code ? ` [${code}]` : ''}`, { status: res.status, code });
}

const unescape = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

// A key in a URL path: each segment percent-encoded as S3 expects (RFC 3986 unreserved kept).
const encodeKey = (key) => key.split('/').map((s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)).join('/');

/** A ListObjectsV2 answer → `{objects: [{key, size, etag, lastModified}], truncated, nextToken}`, or null when it is none. */
export function parseListing(xml) {
  if (!/<ListBucketResult[\s>]/.test(xml)) return null;
  const objects = [];
  for (const [, body] of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
    const field = (name) => {
      const m = new RegExp(`<${name}>([^<]*)</${name}>`).exec(body);
      return m ? unescape(m[1]) : null;
    };
    objects.push({ key: field('Key'), size: Number(field('Size')), etag: field('ETag'), lastModified: field('LastModified') });
  }
  const token = /<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1];
  return { objects, truncated: /<IsTruncated>true<\/IsTruncated>/.test(xml), nextToken: token == null ? null : unescape(token) };
}

/** A listing page's body, at most 16 MiB (1,000 keys of 1 KiB are 1.5 MB). */
async function boundedText(res, target) {
  const decoder = new TextDecoder();
  const reader = res.body?.getReader();
  let text = '';
  for (let got = 0, step; reader && !(step = await reader.read()).done; ) {
    if ((got += step.value.length) > 1 << 24) {
      reader.cancel().catch(() => {});
      throw s3Error(target, 's3_error', 'the listing page is longer than 16 MiB: no ListObjectsV2 answer', { status: res.status });
    }
    text += decoder.decode(step.value, { stream: true });
  }
  return text + decoder.decode();
}

/**
 * Every object of a listing, page by page: `pageUrl(token)` the page after `token` (null: the
 * first), `fetchPage(url)` its response. The next page is asked for as soon as a page names it,
 * before that page's objects are handed on: its round trip passes while they are read (one page
 * ahead at most).
 */
async function* listPages(pageUrl, fetchPage, target) {
  const pageAfter = async (token) => {
    const res = await fetchPage(pageUrl(token));
    if (res.status < 200 || res.status > 299) throw await errorFrom(res, target);
    const page = parseListing(await boundedText(res, target));
    if (!page) throw s3Error(target, 's3_error', `the answer (HTTP ${res.status}) is not a ListObjectsV2 listing`, { status: res.status });
    if (page.truncated && !page.nextToken) throw s3Error(target, 's3_error', 'a truncated listing without a continuation token');
    return page;
  };
  let next = pageAfter(null);
  for (;;) {
    const page = await next;
    // Asked for now; a failure of it is thrown where it is awaited, after this page's objects.
    next = page.truncated ? pageAfter(page.nextToken) : null;
    next?.catch(() => {});
    yield* page.objects;
    if (!next) return;
  }
}

/** Whether `input` is a ListObjectsV2 URL (a bucket listing, public or presigned): http(s), `list-type=2` in its query. */
export const isListingUrl = (input) => isHttpUrl(input) && URL.canParse(String(input)) && new URL(String(input)).searchParams.get('list-type') === '2';

/**
 * The `*.tsfile` objects of a ListObjectsV2 URL, `{url, key, size, etag, lastModified}`, page by
 * page (a continuation token added to the query); an object's URL is the listing's without its
 * query, the key below it. A presigned listing cannot be continued (the token would break its
 * signature): more than a page is `presigned_truncated` after that page. Each page within
 * `deadlineMs` (default 60 s). Options: `fetch`, `signal`, `deadlineMs`.
 */
export async function* listingTsFiles(input, { fetch: fetchImpl = globalThis.fetch, signal, deadlineMs = 60_000 } = {}) {
  const target = new URL(String(input)).href;
  const { origin, pathname, searchParams } = new URL(target);
  const pageUrl = (token) => {
    if (!token) return target;
    if (searchParams.has('X-Amz-Signature') || searchParams.has('Signature')) {
      throw s3Error(target, 'presigned_truncated', 'the listing has more pages, but it is presigned and a continuation token would break its signature (presign a larger max-keys, one per page, or make the listing public); the objects of its first page were scanned');
    }
    const u = new URL(target);
    u.searchParams.set('continuation-token', token);
    return u.href;
  };
  const fetchPage = async (url) => {
    const limit = AbortSignal.timeout(deadlineMs);
    try {
      const res = await fetchImpl(url, { signal: signal ? AbortSignal.any([signal, limit]) : limit, cache: 'no-store', credentials: 'omit' });
      // Read here, under the deadline; listPages reads the copy.
      const text = await boundedText(res, target);
      return new Response(res.status === 204 || res.status === 304 ? null : text, { status: res.status, headers: res.headers });
    } catch (e) {
      if (e?.kind) throw e;
      if (signal?.aborted) throw Object.assign(new Error(`cancelled: ${target}`), { name: 'AbortError', kind: 'cancelled', offset: null });
      if (limit.aborted) throw httpError(target, 'deadline', `a page of the listing took longer than ${deadlineMs} ms`);
      throw await explainFetchFailure(url, httpError(target, 'network', `network error or cross-origin (CORS) refusal (${e?.message ?? e})`), { signal });
    }
  };
  for await (const o of listPages(pageUrl, fetchPage, target)) {
    if (/\.tsfile$/i.test(o.key)) yield { ...o, url: `${origin}${pathname.replace(/\/+$/, '')}/${encodeKey(o.key)}` };
  }
}

import { httpError, httpSource, isHttpUrl } from './http-source.js';
import { explainFetchFailure } from './fetch-failure.js';

/**
 * The signer of every runtime but Node: `(credentials, region)` → `sign(url, headers)`, the
 * headers of a signed GET of `url`, by aws4fetch's AwsV4Signer (loaded on first use).
 */
let aws4fetch = null;
async function webSigner(credentials, region) {
  const { AwsV4Signer } = await (aws4fetch ??= import('aws4fetch'));
  const cache = new Map(); // the day's signing key
  return async (url, headers) => (await new AwsV4Signer({ ...credentials, service: 's3', region, cache, method: 'GET', url, headers }).sign()).headers;
}

/**
 * A client for one configuration: `objectUrl(bucket, key)`, `fetchFor(target)` (a signed fetch; an
 * error response becomes the typed error), `list(bucket, prefix)` (async iterable of objects).
 * `runtime`: `{fetch, signer}` of a runtime with its own transport (js/node-s3.js), else fetch
 * and aws4fetch; a `fetch` in `config` (the `fetch` option) is used over either.
 */
export async function s3Client(config = {}, runtime = null) {
  const region = config.region || 'us-east-1';
  const endpoint = config.endpoint ? String(config.endpoint).replace(/\/+$/, '') : null;
  const pathStyle = config.forcePathStyle ?? endpoint != null;
  const baseFetch = config.fetch ?? runtime?.fetch ?? globalThis.fetch;
  let signed = (url, init) => baseFetch(url, init);
  if (config.accessKeyId && config.secretAccessKey) {
    const credentials = { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey, sessionToken: config.sessionToken || undefined };
    const sign = await (runtime?.signer ?? webSigner)(credentials, region);
    signed = async (url, init = {}) => baseFetch(url, { ...init, headers: await sign(url, init.headers) });
  }
  const base = (bucket) => {
    if (pathStyle) return `${endpoint ?? `https://s3.${region}.amazonaws.com`}/${bucket}`;
    if (endpoint) {
      const u = new URL(endpoint);
      return `${u.protocol}//${bucket}.${u.host}${u.pathname === '/' ? '' : u.pathname}`;
    }
    return `https://${bucket}.s3.${region}.amazonaws.com`;
  };
  const objectUrl = (bucket, key) => `${base(bucket)}/${encodeKey(key)}`;
  return {
    region,
    objectUrl,
    /** Signed fetch for the object at `target` (s3://…, named in errors). */
    fetchFor(target) {
      return async (url, init) => {
        const res = await signed(url, init);
        // Range answers are 206 (or 200, 416): the http source judges them. S3's own refusals
        // carry an XML body that says why.
        if (res.status === 403 || res.status === 404 || res.status === 400 || res.status === 401) throw await errorFrom(res, target);
        return res;
      };
    },
    /** Every object under `prefix` (ListObjectsV2, page by page): `{key, size, etag, lastModified}`. */
    list(bucket, prefix = '') {
      return listPages(
        (token) => {
          const q = new URLSearchParams({ 'list-type': '2', prefix });
          if (config.pageSize) q.set('max-keys', String(config.pageSize));
          if (token) q.set('continuation-token', token);
          return `${base(bucket)}/?${q}`;
        },
        (url) => signed(url, {}),
        `s3://${bucket}/${prefix}`,
      );
    },
  };
}

// One client per configuration and transport, reused by every file of a scan (its signing keys
// are cached). A `fetch` of the caller's makes a client of its own (held by the function itself).
const clients = new Map();
const callersFetch = new WeakMap();
function clientFor(config, runtime) {
  const key = JSON.stringify([config.accessKeyId, config.secretAccessKey, config.sessionToken, config.region, config.endpoint, config.forcePathStyle, config.pageSize, runtime?.name ?? 'web']);
  const cache = config.fetch ? (callersFetch.get(config.fetch) ?? callersFetch.set(config.fetch, new Map()).get(config.fetch)) : clients;
  let c = cache.get(key);
  if (!c) {
    c = s3Client(config, runtime);
    c.catch(() => cache.delete(key));
    cache.set(key, c);
    if (cache.size > 16) cache.delete(cache.keys().next().value);
  }
  return c;
}

/** The configuration an s3:// open uses: `options.s3` over `defaults()` (Node: the environment). */
const configOf = (options, defaults) => ({ ...(defaults ? defaults() : {}), ...(options.s3 ?? {}), ...(options.fetch ? { fetch: options.fetch } : {}) });

/**
 * Opens `s3://bucket/key` as a byte source: the http source over the object's URL, with signed
 * requests. `defaults` supplies the configuration `options.s3` does not (Node's environment);
 * `runtime` the transport (see s3Client).
 */
export async function s3Source(input, options = {}, defaults = null, runtime = null) {
  const { bucket, key } = parseS3Url(input);
  const target = `s3://${bucket}/${key}`;
  const client = await clientFor(configOf(options, defaults), runtime);
  const source = await httpSource(client.objectUrl(bucket, key), { ...options, fetch: client.fetchFor(target) });
  source.target = target;
  return source;
}

/** Every object under `s3://bucket/prefix` whose key ends in `.tsfile`: `{target, key, size, etag, lastModified}`. */
export async function* s3TsFiles(input, options = {}, defaults = null, runtime = null) {
  const { bucket, key: prefix } = parseS3Url(input);
  const client = await clientFor(configOf(options, defaults), runtime);
  for await (const o of client.list(bucket, prefix)) {
    if (/\.tsfile$/i.test(o.key)) yield { ...o, target: `s3://${bucket}/${o.key}` };
  }
}

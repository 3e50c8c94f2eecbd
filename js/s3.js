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
//
// Keys are keys: an object is read by exactly its key. A key from a listing travels as an
// S3Location (bucket and key), never as text parsed again; a location given as a string is
// taken literally, as the AWS CLI takes it (`s3://b/100%` is the key `100%`, `?` and `#` are
// characters of the key). The request path is the key percent-encoded segment by segment (S3's
// canonical URI) and never normalised: a '.' or '..' segment, which WHATWG URL parsing (and so
// fetch) would remove, is sent as it is by Node's own transport and refused, before any
// request, where only fetch is there (dot_segment_key). An object read for a listing must be
// the version the listing named (its ETag, size, and without an ETag its Last-Modified), else
// the typed 'changed': a scan never reports, and a manifest never records, bytes under another
// object's identity.

import { invalidArgument } from './errors.js';
import { cancelledError, causeOf, DEFAULT_DEADLINE_MS, DEFAULT_TIMEOUT_MS, fetchFailure, httpError, httpSource, isHttpUrl, pause, positive, retryAfterMs, retryWait, watchdog } from './http-source.js';
import { redactUrlsIn } from './redact.js';
import { explainFetchFailure } from './fetch-failure.js';
import { fetchFollowing } from './redirect.js';

// ---- Locations. --------------------------------------------------------------------------------

/** One object's location: its bucket and its key exactly (the key is never parsed again). */
class S3Location {
  constructor(bucket, key) {
    this.bucket = bucket;
    this.key = key;
    Object.freeze(this);
  }
  toString() {
    return `s3://${this.bucket}/${this.key}`;
  }
}

/** Whether `input` is an s3:// location: a string, a URL object, or a listing's S3Location. */
export function isS3Url(input) {
  if (input instanceof S3Location) return true;
  if (typeof URL !== 'undefined' && input instanceof URL) return input.protocol === 's3:';
  return typeof input === 'string' && /^s3:\/\//i.test(input);
}

// A bucket name: S3's rules, with the capitals and '_' of legacy names and other stores.
const BUCKET = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const notALocation = (sentence) => invalidArgument('source', sentence);

/**
 * `s3://bucket/key` → `{bucket, key}`. A string's key is everything after the bucket's '/',
 * taken literally (no percent-decoding: the AWS CLI's reading); a URL object is a URL, its path
 * percent-decoded (its parser has already removed '.' and '..' segments: give such a key as a
 * string).
 */
export function parseS3Url(input) {
  if (input instanceof S3Location) return input;
  if (typeof URL !== 'undefined' && input instanceof URL) return fromUrlObject(input);
  const text = String(input);
  const m = /^s3:\/\/([^/]*)(?:\/([\s\S]*))?$/i.exec(text);
  if (!m || !BUCKET.test(m[1])) throw notALocation(`not an s3://bucket/key location (a bucket is letters, digits, '.', '-' and '_'): ${JSON.stringify(text)}`);
  return new S3Location(m[1], m[2] ?? '');
}

function fromUrlObject(url) {
  if (url.protocol !== 's3:' || !BUCKET.test(url.host)) throw notALocation(`not an s3://bucket/key location: ${url.href}`);
  if (url.search || url.hash) throw notALocation(`an s3:// URL object with a query or fragment (${url.href}) names no one key: give the location as a string, whose key is taken literally`);
  try {
    return new S3Location(url.host, decodeURIComponent(url.pathname.slice(1)));
  } catch {
    throw notALocation(`the path of the s3:// URL object ${url.href} is not valid percent-encoding: give the location as a string, whose key is taken literally`);
  }
}

/**
 * An 'io' error about an S3 object or listing: `reason` denied, no_such_bucket, no_such_key,
 * expired_credentials, s3_error, …; a listing URL (presigned, perhaps) named as redactUrl shows it.
 */
export const s3Error = (target, reason, sentence, { status = null, code = null } = {}) => httpError(target, reason, sentence, { status, code });

// A key in a URL path: each segment percent-encoded as S3's canonical URI has it (RFC 3986's
// unreserved characters kept, '/' between segments), so the path is the key exactly.
const encodeKey = (key) => key.split('/').map((s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)).join('/');

/** Whether WHATWG URL parsing (fetch) would change the key's path: a '.' or '..' segment, which it removes. */
const hasDotSegment = (key) => key.split('/').some((s) => s === '.' || s === '..');

const dotSegmentError = (target) =>
  s3Error(target, 'dot_segment_key', "the key has a '.' or '..' segment, which fetch() removes from a URL (the request would read another object); only Node's own transport, without a fetch option, requests such a key as it is");

// ---- S3's answers. -----------------------------------------------------------------------------

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

/** An S3 error response (its status and body) → the typed error, by its XML <Code>. */
function errorOf(status, text, target) {
  const body = (text ?? '').slice(0, 16384);
  const code = /<Code>([^<]*)<\/Code>/.exec(body)?.[1] ?? null;
  const message = /<Message>([^<]*)<\/Message>/.exec(body)?.[1] ?? null;
  const reason = REASONS[code] ?? (status === 403 ? 'denied' : status === 404 ? 'no_such_key' : 's3_error');
  const sentence = SENTENCES[reason] ?? `S3 error ${code ?? status}${message ? ` (${unescapeXml(message)})` : ''}`;
  return s3Error(target, reason, `${sentence}${code ? ` [${code}]` : ''}`, { status, code });
}

// XML's escapes, undone in one pass (so `&amp;lt;` stays `&lt;`): the five named entities and
// character references, which S3 uses for characters XML text cannot hold as they are.
const NAMED = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };
const unescapeXml = (s) =>
  s.replace(/&(?:#(\d{1,7})|#x([0-9a-fA-F]{1,6})|(lt|gt|quot|apos|amp));/g, (whole, dec, hex, name) => {
    if (name) return NAMED[name];
    const cp = dec !== undefined ? Number(dec) : parseInt(hex, 16);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
  });

/**
 * A ListObjectsV2 answer → `{objects: [{key, size, etag, lastModified}], truncated, nextToken}`, or
 * null when it is none. An entry the listing gets wrong (no key, a size that is not a byte count)
 * has `problem` (a sentence) instead of being trusted.
 */
export function parseListing(xml) {
  if (!/<ListBucketResult[\s>]/.test(xml)) return null;
  const objects = [];
  for (const [, body] of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
    const field = (name) => {
      const m = new RegExp(`<${name}>([^<]*)</${name}>`).exec(body);
      return m ? unescapeXml(m[1]) : null;
    };
    const key = field('Key');
    const size = field('Size');
    const o = { key, size: /^\d{1,15}$/.test(size ?? '') ? Number(size) : null, etag: field('ETag'), lastModified: field('LastModified') };
    if (!key) o.problem = 'an entry of the listing has no key';
    else if (o.size === null) o.problem = `the listing gives the object a size of ${JSON.stringify(size)}, not a number of bytes`;
    objects.push(o);
  }
  const token = /<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1];
  return { objects, truncated: /<IsTruncated>true<\/IsTruncated>/.test(xml), nextToken: token == null ? null : unescapeXml(token) };
}

/** A body, at most 16 MiB (a page of 1,000 keys of 1 KiB is 1.5 MB); `read(step)` wraps each read (a request's timers). */
async function boundedText(res, target, read = (p) => p) {
  const decoder = new TextDecoder();
  const reader = res.body?.getReader();
  let text = '';
  for (let got = 0, step; reader && !(step = await read(reader.read())).done; ) {
    if ((got += step.value.length) > 1 << 24) {
      reader.cancel().catch(() => {});
      throw s3Error(target, 's3_error', 'the listing page is longer than 16 MiB: no ListObjectsV2 answer', { status: res.status });
    }
    text += decoder.decode(step.value, { stream: true });
  }
  return text + decoder.decode();
}

// ---- Listing requests: each page bounded. ------------------------------------------------------

/** Truncated pages without an object, in a row, after which a listing is taken to be going nowhere. */
const MAX_EMPTY_PAGES = 16;

/**
 * One page of a listing: `send(url, {signal})` its request, whose answer's status and body
 * (`{status, text, retryAfter}`) must come within the limits — `timeoutMs` without a byte,
 * `deadlineMs` for the page — or the typed timeout, deadline or cancelled error.
 */
async function pageRequest(send, url, target, limits = {}) {
  const timeoutMs = positive('timeoutMs', limits.timeoutMs, DEFAULT_TIMEOUT_MS);
  const deadlineMs = positive('deadlineMs', limits.deadlineMs, DEFAULT_DEADLINE_MS);
  const signal = limits.signal ?? null;
  if (signal?.aborted) throw cancelledError(target);
  const dog = watchdog(
    timeoutMs,
    () => s3Error(target, 'timeout', `the listing sent nothing for ${timeoutMs} ms (stalled)`),
    deadlineMs,
    () => s3Error(target, 'deadline', `a page of the listing took longer than ${deadlineMs} ms (deadlineMs)`),
    true,
  );
  const { arm, guard } = dog;
  const onAbort = () => dog.fail(cancelledError(target));
  signal?.addEventListener('abort', onAbort, { once: true });
  let res = null;
  try {
    try {
      res = await guard(send(url, { signal: dog.signal }));
    } catch (e) {
      throw fetchFailure(e, (reason, sentence) => s3Error(target, reason, sentence));
    }
    const read = async (p) => {
      try {
        const step = await guard(p);
        arm();
        return step;
      } catch (e) {
        if (e?.kind) throw e;
        throw s3Error(target, 'network', `the connection broke while the listing was sent (${causeOf(e)})`, { status: res.status });
      }
    };
    return { status: res.status, text: await boundedText(res, target, read), retryAfter: res.headers.get('retry-after') };
  } catch (e) {
    res?.body?.cancel?.().catch(() => {});
    dog.abort();
    throw e;
  } finally {
    dog.clear();
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * Every object of a listing, page by page: `pageUrl(token)` the page after `token` (null: the
 * first), `send(url, init)` its request, `limits` `{timeoutMs, deadlineMs, signal}` each page's.
 * The next page is asked for as soon as a page names it, before that page's objects are handed
 * on: its round trip passes while they are read (one page ahead at most). A listing that repeats
 * a continuation token (a loop), or goes on with empty truncated pages, ends in a typed error; a
 * key listed twice is handed on once.
 */
async function* listPages(pageUrl, send, target, limits = {}) {
  const pageAfter = async (token) => {
    const url = pageUrl(token);
    let answer = await pageRequest(send, url, target, limits);
    if (answer.status === 429 || answer.status === 503) {
      // Throttled: one retry, after Retry-After (capped), as an object's request is retried.
      const wait = retryWait(retryAfterMs(answer.retryAfter));
      await pause(wait, () => cancelledError(target), (stop) => {
        if (limits.signal?.aborted) stop();
        limits.signal?.addEventListener('abort', stop, { once: true });
        return () => limits.signal?.removeEventListener('abort', stop);
      });
      answer = await pageRequest(send, url, target, limits);
    }
    const { status, text } = answer;
    if (status < 200 || status > 299) throw errorOf(status, text, target);
    const page = parseListing(text);
    if (!page) throw s3Error(target, 's3_error', `the answer (HTTP ${status}) is not a ListObjectsV2 listing`, { status });
    if (page.truncated && !page.nextToken) throw s3Error(target, 's3_error', 'a truncated listing without a continuation token');
    return page;
  };
  const tokens = new Set();
  const keys = new Set();
  let empty = 0;
  let next = pageAfter(null);
  for (;;) {
    const page = await next;
    next = null;
    let end = null; // the listing's end in an error, after this page's objects
    if (page.truncated) {
      empty = page.objects.length ? 0 : empty + 1;
      if (tokens.has(page.nextToken)) end = `the listing gave a continuation token it had given before: it goes round in a loop`;
      else if (empty >= MAX_EMPTY_PAGES) end = `the listing sent ${empty} truncated pages in a row without an object: it goes nowhere`;
      else {
        tokens.add(page.nextToken);
        // Asked for now; a failure of it is thrown where it is awaited, after this page's objects.
        next = pageAfter(page.nextToken);
        next.catch(() => {});
      }
    }
    for (const o of page.objects) {
      if (o.key && keys.has(o.key)) continue;
      if (o.key) keys.add(o.key);
      yield o;
    }
    if (end) throw s3Error(target, empty >= MAX_EMPTY_PAGES ? 'listing_empty' : 'listing_loop', `${end} (after ${keys.size} objects)`);
    if (!next) return;
  }
}

// ---- Bucket listing URLs (browsers). -----------------------------------------------------------

/** Whether `input` is a ListObjectsV2 URL (a bucket listing, public or presigned): http(s), `list-type=2` in its query. */
export const isListingUrl = (input) => isHttpUrl(input) && URL.canParse(String(input)) && new URL(String(input)).searchParams.get('list-type') === '2';

/**
 * The `*.tsfile` objects of a ListObjectsV2 URL, `{url, key, size, etag, lastModified}`, page by
 * page (a continuation token added to the query); an object's URL is the listing's without its
 * query, the key below it. An object the listing gets wrong, or whose key fetch cannot request
 * as it is (a '.' or '..' segment), comes with `error` (typed) and is not to be read. A presigned
 * listing cannot be continued (the token would break its signature): more than a page is
 * `presigned_truncated` after that page. Each page within `timeoutMs` without a byte (default
 * 20 s) and `deadlineMs` (default 60 s). Options: `fetch`, `signal`, `timeoutMs`, `deadlineMs`.
 */
export async function* listingTsFiles(input, { fetch: fetchImpl = globalThis.fetch, signal, timeoutMs, deadlineMs } = {}) {
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
  const send = async (url, init) => {
    try {
      return await fetchImpl(url, { ...init, cache: 'no-store', credentials: 'omit' });
    } catch (e) {
      if (e?.kind || init.signal.aborted) throw e;
      throw await explainFetchFailure(url, httpError(target, 'network', `network error or cross-origin (CORS) refusal (${redactUrlsIn(e?.message ?? e)})`), { signal });
    }
  };
  for await (const o of listPages(pageUrl, send, target, { timeoutMs, deadlineMs, signal })) {
    if (!o.key) yield { ...o, url: target, error: s3Error(target, 'bad_listing', o.problem) };
    if (!o.key || !/\.tsfile$/i.test(o.key)) continue;
    const url = `${origin}${pathname.replace(/\/+$/, '')}/${encodeKey(o.key)}`;
    const error = o.problem ? s3Error(url, 'bad_listing', o.problem) : hasDotSegment(o.key) ? dotSegmentError(url) : null;
    yield error ? { ...o, url, error } : { ...o, url };
  }
}

// ---- Signed requests. --------------------------------------------------------------------------

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

// What a setting may hold: it goes into a request header (a credential or token as it is, the
// region inside Authorization), where a line break or a control character would be refused by
// the transport with an error quoting the header — the secret with it. A bad one is refused
// here, by the setting's name, its value never shown.
const SETTINGS = {
  accessKeyId: [/^[\x21-\x7e]+$/, 'printable ASCII without spaces'],
  sessionToken: [/^[\x21-\x7e]+$/, 'printable ASCII without spaces'],
  secretAccessKey: [/^[^\0-\x1f\x7f]+$/, 'text without control characters'],
  region: [/^[A-Za-z0-9._-]+$/, "letters, digits, '-', '_' and '.'"],
};

/**
 * The configuration checked before any request: its credentials and region hold only what a
 * header may (see SETTINGS), its endpoint is an http(s) URL, its pageSize a count. `named(field)`
 * names where a setting came from (`s3.sessionToken`, `AWS_SESSION_TOKEN`, …).
 */
function checkConfig(config, named) {
  for (const [field, [allowed, what]] of Object.entries(SETTINGS)) {
    const value = config[field];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string' || !allowed.test(value)) throw invalidArgument(named(field), `${named(field)} must be ${what}; it holds a line break, a control character or another character it cannot have (its value is not shown)`);
  }
  if (config.endpoint) {
    const text = String(config.endpoint);
    if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) throw invalidArgument(named('endpoint'), `${named('endpoint')} must be an http(s) URL, such as http://127.0.0.1:9000, not ${JSON.stringify(text)}`);
  }
  if (config.pageSize != null && !(Number.isInteger(config.pageSize) && config.pageSize >= 1)) throw invalidArgument(named('pageSize'), `${named('pageSize')} must be a positive integer, not ${String(config.pageSize)}`);
}

/**
 * A client for one configuration: `objectUrl(bucket, key)`, `fetchFor(target)` (a signed fetch; an
 * error response becomes the typed error), `list(bucket, prefix, limits)` (async iterable of
 * objects), `exactPaths` (whether a key with a '.' or '..' segment can be requested).
 * `runtime`: `{fetch, signer, exactPaths}` of a runtime with its own transport (js/node-s3.js),
 * else fetch and aws4fetch; a `fetch` in `config` (the `fetch` option) is used over either.
 * Every request follows redirects by js/redirect.js: to another origin without its signature.
 */
export async function s3Client(config = {}, runtime = null) {
  const region = config.region || 'us-east-1';
  const endpoint = config.endpoint ? String(config.endpoint).replace(/\/+$/, '') : null;
  const pathStyle = config.forcePathStyle ?? endpoint != null;
  const baseFetch = config.fetch ?? runtime?.fetch ?? globalThis.fetch;
  const exactPaths = !config.fetch && runtime?.exactPaths === true;
  let sign = null;
  if (config.accessKeyId && config.secretAccessKey) {
    const credentials = { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey, sessionToken: config.sessionToken || undefined };
    sign = await (runtime?.signer ?? webSigner)(credentials, region);
  }
  const send = (url, init, named, exactPath = false) => fetchFollowing((u, i) => baseFetch(u, i), url, init, { sign, exactPath: exactPath && exactPaths, named });
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
    objectUrl,
    exactPaths,
    /** Signed fetch for the object at `target` (an S3Location, named in errors). */
    fetchFor(target) {
      const named = String(target);
      return async (url, init) => {
        const res = await send(url, init, named, true);
        // Range answers are 206 (or 200, 416): the http source judges them. S3's own refusals
        // carry an XML body that says why (read within the request's own limits); without a
        // readable one the status says what it can.
        if ([400, 401, 403, 404].includes(res.status)) throw errorOf(res.status, await boundedText(res, named).catch(() => null), named);
        return res;
      };
    },
    /** Every object under `prefix` (ListObjectsV2, page by page): `{key, size, etag, lastModified}`. */
    list(bucket, prefix = '', limits = {}) {
      const target = `s3://${bucket}/${prefix}`;
      return listPages(
        (token) => {
          const q = new URLSearchParams({ 'list-type': '2', prefix });
          if (config.pageSize) q.set('max-keys', String(config.pageSize));
          if (token) q.set('continuation-token', token);
          return `${base(bucket)}/?${q}`;
        },
        (url, init) => send(url, init, target),
        target,
        limits,
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

/**
 * The configuration an s3:// open uses, checked (checkConfig): `options.s3` over `defaults()`
 * (Node: the environment, whose `sources` name where each setting came from).
 */
function configOf(options, defaults) {
  const fallback = defaults ? defaults() : {};
  const given = options.s3 ?? {};
  const config = { ...fallback, ...given, ...(options.fetch ? { fetch: options.fetch } : {}) };
  checkConfig(config, (field) => (given[field] !== undefined ? `s3.${field}` : (fallback.sources?.[field] ?? `s3.${field}`)));
  return config;
}

/**
 * Opens `s3://bucket/key` (a string, a URL object, or a listing's S3Location) as a byte source:
 * the http source over the object's URL, with signed requests. `defaults` supplies the
 * configuration `options.s3` does not (Node's environment); `runtime` the transport (see
 * s3Client). Internally `listedSize` and `listedEtag`, `listedLastModified`: the version a
 * listing named, which the object read must be.
 */
export async function s3Source(input, options = {}, defaults = null, runtime = null) {
  const location = parseS3Url(input);
  const client = await clientFor(configOf(options, defaults), runtime);
  if (hasDotSegment(location.key) && !client.exactPaths) throw dotSegmentError(location);
  const source = await httpSource(client.objectUrl(location.bucket, location.key), { ...options, fetch: client.fetchFor(location), followsRedirects: true });
  source.target = String(location);
  return source;
}

/**
 * Every object under `s3://bucket/prefix` whose key ends in `.tsfile`: `{target, location, key,
 * size, etag, lastModified}`, or `{target, error}` for an entry the listing gets wrong.
 * `options`: the S3 configuration and each page's limits (`timeoutMs`, `deadlineMs`, `signal`).
 */
export async function* s3TsFiles(input, options = {}, defaults = null, runtime = null) {
  const { bucket, key: prefix } = parseS3Url(input);
  const client = await clientFor(configOf(options, defaults), runtime);
  const limits = { timeoutMs: options.timeoutMs, deadlineMs: options.deadlineMs, signal: options.signal };
  for await (const o of client.list(bucket, prefix, limits)) {
    if (o.problem && (!o.key || /\.tsfile$/i.test(o.key))) {
      const location = o.key ? new S3Location(bucket, o.key) : null;
      yield { target: String(location ?? `s3://${bucket}/${prefix}`), error: s3Error(location ?? `s3://${bucket}/${prefix}`, 'bad_listing', o.problem) };
    } else if (/\.tsfile$/i.test(o.key)) {
      const location = new S3Location(bucket, o.key);
      yield { ...o, location, target: String(location) };
    }
  }
}

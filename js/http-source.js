// A TsFile on a web server, read with HTTP Range requests (Node >= 20's fetch, browsers, Bun,
// Deno, Workers).
//
// Opening needs the head (12 bytes) and the tail window (4 KiB, TsFileMetadata and usually
// the index of a small file). The first request is the tail alone, as a suffix range
// (`bytes=-4096`): its Content-Range gives the file's size, and for a file no larger than the
// window (or a server that ignores Range and sends a small file whole) it is the whole file —
// 1 request, 1 round trip, no HEAD. Only when the window does not reach byte 0 is the head asked
// for (a 2nd round trip); the origin then remembers, and its next open sends the head and the
// suffix together (2 requests, 1 round trip) until an open finds a file the window holds whole
// again — so a fleet of small files costs 1 request each and a fleet of large ones 1 round trip
// each, after the first few. When the size is known before the open (an S3 listing's, passed as
// `listedSize`), the ranges are chosen up front and explicitly: the whole file in 1 request,
// or the head and the window together.
// Some servers get suffix ranges wrong: npm's http-server answers 416, Vite's servers (sirv) send
// the first 4097 bytes of a file larger than the window, s3s-fs fails with 500 on a file smaller
// than the suffix. Then the first 4 KiB (all of a small file) are asked for explicitly, and the
// window after them when the file is larger; that origin's later opens do so from the start.
// Later reads (loadIndex() outside the window) are one Range request each.
//
// Whatever a server does, every promise settles: each request races its own timers — a stall
// limit between bytes (`timeoutMs`) and a deadline for the whole open or read (`deadlineMs`) —
// so a body that never ends, or a fetch that never settles after an abort (a lying
// Content-Encoding), still ends in a typed error. Every fault is an Error with `kind` ('io',
// 'changed' or 'cancelled'), `url`, a stable `reason` and a sentence naming the cause and the
// URL; nothing is downloaded whole unless `allowFullDownload` says so, and then only up to
// `maxFullDownloadBytes`. One version of the file: the first response's validators (ETag,
// else Last-Modified) pin every later request, and a response from another version is the
// typed 'changed' error. 429 and 503 are retried once, after Retry-After (capped). The caller's
// `headers` are checked before any request (a bad one is named, its value never shown) and go to
// the URL's origin only: with them, redirects are followed by js/redirect.js.

import { invalidArgument, TsFileBloomError } from './errors.js';
import { TAIL_WINDOW } from './wire.js';
import { fetchFollowing } from './redirect.js';
import { redactUrl, redactUrlsIn } from './redact.js';

const HEAD = 12; // as tsfile.js reads: magic + version, and enough to recognise a v2 head
const TAIL = TAIL_WINDOW; // tsfile.js's tail window
/** A 200 (Range ignored) this small is the file itself and costs no more than the window. */
const SMALL_BODY = TAIL;
/** The stall limit and the deadline when the options give none (an s3:// listing page's too). */
export const DEFAULT_TIMEOUT_MS = 20_000;
export const DEFAULT_DEADLINE_MS = 60_000;
const DEFAULT_MAX_FULL = 64 * 1024 * 1024;

/** The wait before the one retry of a 429 or 503 (an s3:// listing page's too): its Retry-After, at most 5 s; 500 ms when it names none. */
export const retryWait = (retryAfter) => Math.min(retryAfter ?? 500, 5_000);

// What the last opens on an origin found, which decides how the next open there asks (the file
// comment says how): EXPLICIT once the origin has answered a suffix range wrongly (for good),
// TOGETHER after an open whose window did not reach byte 0 (the head was needed), and — after one
// that the window held whole, or on an origin not seen yet — the suffix alone. Bounded: the
// oldest origin is forgotten first.
const EXPLICIT = 'explicit';
const TOGETHER = 'together';
const SUFFIX = 'suffix';
const openingWays = new Map();
const ORIGIN_MEMORY = 256;

function rememberWay(origin, way) {
  if (openingWays.get(origin) === EXPLICIT && way !== EXPLICIT) return; // a server's lasting trait
  openingWays.delete(origin);
  openingWays.set(origin, way);
  if (openingWays.size > ORIGIN_MEMORY) openingWays.delete(openingWays.keys().next().value);
}

// A browser's HTTP cache may answer a Range request from a whole response it holds — and when
// that response was compressed (Vite's preview server gzips a 200 but not a 206, under one
// weak ETag), with bytes that are not the range. Pages and their Workers therefore bypass the
// cache; other runtimes have none (and Workers' fetch rejects the option).
const BYPASS_CACHE = typeof document !== 'undefined' || typeof importScripts === 'function';

// The Fetch standard has a Range request ask for `Accept-Encoding: identity` by itself, and
// Node's fetch does (adding ours would send "identity, identity"); Bun's and Workers' send
// "gzip, …" unless told: there the header is set. Browsers never let a page set it.
const FETCH_ADDS_IDENTITY = typeof globalThis.process?.versions?.undici === 'string' && typeof globalThis.process?.versions?.bun !== 'string';

/** Internal: a suffix range the server did not honour (never reaches a caller). */
class SuffixRefused extends Error {}

/** Whether `input` is an http: or https: URL (a string or a URL object). */
export function isHttpUrl(input) {
  if (typeof URL !== 'undefined' && input instanceof URL) return input.protocol === 'http:' || input.protocol === 'https:';
  return typeof input === 'string' && /^https?:\/\//i.test(input);
}

/**
 * In a page or a Worker served over http(s), a string that is not an absolute URL is a URL
 * relative to the document (as fetch takes it): the absolute URL, or null elsewhere (Node,
 * Deno and Workers without a location, where a string is a path or nothing).
 */
export function documentUrl(input) {
  const base = globalThis.location?.href;
  if (typeof input !== 'string' || typeof base !== 'string' || !/^https?:/i.test(base) || !URL.canParse(input, base)) return null;
  const url = new URL(input, base);
  return isHttpUrl(url) ? url.href : null;
}

// URLs are named as js/redact.js shows them (their secrets REDACTED).

/** Why a request failed, in a runtime's words (a fetch error's cause), quotable: its URLs redacted. */
export const causeOf = (e) => redactUrlsIn(e?.cause?.code ?? e?.cause?.message ?? e?.message ?? e);

/**
 * An error about `url`: kind 'io' (or `kind`), `reason` stable (range_ignored, http_status, …),
 * `status`, `offset` and any other `fields`; the URL named (in the sentence and `url`) as
 * redactUrl shows it. Also the s3:// errors' (js/s3.js s3Error).
 */
export function httpError(url, reason, sentence, { status = null, kind = 'io', ...fields } = {}) {
  const shown = redactUrl(url);
  return new TsFileBloomError(kind, `${sentence}: ${shown}`, { reason, url: shown, status, ...fields });
}

/** The file is not the one that was opened: kind 'changed'. */
const changedError = (url, reason, sentence, extra = {}) => httpError(url, reason, `the file changed while it was read (${sentence})`, { ...extra, kind: 'changed' });

/** A request stopped by a signal or close(): kind 'cancelled', an AbortError (also the s3:// listings'). */
export const cancelledError = (url) => httpError(url, 'cancelled', 'cancelled', { kind: 'cancelled', name: 'AbortError' });

// `bytes a-b/n` → {start, end, total}; `bytes */n` (unsatisfiable) → {start: null, end: null, total}; else null.
function parseContentRange(value) {
  const m = /^\s*bytes\s+(?:(\d+)-(\d+)|\*)\/(\d+)\s*$/i.exec(value ?? '');
  const [start, end, total] = (m ?? []).slice(1).map((n) => (n === undefined ? null : Number(n)));
  if (!m || !Number.isSafeInteger(total) || (start !== null && !(start <= end && end < total))) return null;
  return { start, end, total };
}

/** A Retry-After value (seconds, or an HTTP date) in milliseconds from now; null when absent or unreadable. */
export function retryAfterMs(value) {
  if (value == null || value.trim() === '') return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** A positive number option (milliseconds or bytes), or `fallback` when it is not given. */
export const positive = (name, value, fallback) => {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0)) throw invalidArgument(name, `${name} must be a positive number of ${name.endsWith('Bytes') ? 'bytes' : 'milliseconds'}, not ${String(value)}`);
  return value;
};

// The scheme, host and port of an http(s) URL, lower-cased and without credentials: the key of
// what the opens on an origin found (a key, never shown; no URL parse per file).
function originOf(url) {
  const m = /^(https?:\/\/)(?:[^/?#]*@)?([^/?#]*)/i.exec(url);
  return m ? (m[1] + m[2]).toLowerCase() : url;
}

/** The file's name: the percent-decoded URL path's last segment (undecoded when it does not decode), or null. */
function nameOf(url) {
  let path = new URL(url).pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // a malformed escape: the path as it stands
  }
  return path.slice(path.lastIndexOf('/') + 1) || null;
}

// A header name (an RFC 9110 token), and a value fetch and node:http both accept (no line break,
// no control character but tab, nothing above U+00FF).
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * The `headers` option as Headers, each checked first: a bad one is the typed invalid_argument
 * naming it — never quoting its value, which may be a secret (fetch's own error quotes it).
 */
function checkedHeaders(given) {
  if (given == null) return new Headers();
  if (given instanceof Headers) return new Headers(given);
  if (typeof given !== 'object') throw invalidArgument('headers', 'headers must be an object, an array of [name, value] pairs or a Headers');
  const pairs = typeof given[Symbol.iterator] === 'function' ? Array.from(given, (p) => (Array.isArray(p) && p.length === 2 ? p : [null, null])) : Object.entries(given);
  pairs.forEach(([name, value], i) => {
    if (typeof name !== 'string' || !HEADER_NAME.test(name)) throw invalidArgument('headers', `header ${i + 1} of the headers option has no valid name (a name is letters, digits and !#$%&'*+-.^_\`|~; it is not shown)`);
    if (!HEADER_VALUE.test(String(value))) throw invalidArgument('headers', `the value of the header ${name} (headers option) holds a line break or a control character (the value is not shown)`);
  });
  return new Headers(pairs.map(([name, value]) => [name, String(value)]));
}

// Two ETags alike but for quoting and weakness (a listing and a GET may quote them differently).
const bareEtag = (etag) => etag.replace(/^W\//, '').replace(/^"|"$/g, '');
function sameSecond(a, b) {
  const [x, y] = [Date.parse(a), Date.parse(b)];
  return Number.isNaN(x) || Number.isNaN(y) || Math.floor(x / 1000) === Math.floor(y / 1000);
}

function listedSizeOf(value) {
  if (value === undefined || value === null) return null;
  if (!Number.isSafeInteger(value) || value < 0) throw invalidArgument('listedSize', `listedSize must be a non-negative integer number of bytes, not ${String(value)}`);
  return value > 0 ? value : null; // an empty object: the usual way (its answers differ by server)
}

/**
 * Opens `input` (an http(s) URL) as a byte source for openTsFile: resolves once it holds the
 * tail window and the head (one block when the window holds the whole file; the file comment
 * says which requests that takes). Options: `headers` (e.g. for auth), `signal`, `timeoutMs` (a
 * stall limit: no byte for this long), `deadlineMs` (the whole open, and each later read),
 * `allowFullDownload`, `maxFullDownloadBytes`, `fetch`; internally `listedSize`, `listedEtag`
 * and `listedLastModified` (the version a listing named, which every response must be) and
 * `followsRedirects` (the fetch given follows redirects itself, as an S3 source's does).
 */
export async function httpSource(input, options = {}) {
  const ctx = contextOf(input instanceof URL ? input.href : String(input), options);
  const signal = options.signal ?? null;
  if (signal?.aborted) throw cancelledError(ctx.url);
  // One listener on the caller's signal per source, however many requests it makes.
  const onAbort = () => stopAll(ctx);
  signal?.addEventListener('abort', onAbort, { once: true });
  const detach = () => signal?.removeEventListener('abort', onAbort);
  try {
    return openedSource(ctx, await openingBlocks(ctx, operation(ctx, 'opening')), detach);
  } catch (e) {
    stopAll(ctx);
    detach();
    throw e;
  }
}

/** A source's state: its options checked, its fetch, its counters (the file comment says what each is for). */
function contextOf(url, options) {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (options.fetch !== undefined && typeof options.fetch !== 'function') throw invalidArgument('fetch', 'the fetch option must be a function');
  if (options.signal != null && typeof options.signal.aborted !== 'boolean') throw invalidArgument('signal', 'signal must be an AbortSignal');
  const ctx = {
    url,
    // Called as a plain function: browsers refuse fetch called as a method of another
    // object ("Illegal invocation"), and a user's fetch may be a bound method too.
    fetch: typeof fetchImpl === 'function' ? (resource, init) => fetchImpl(resource, init) : null,
    headers: checkedHeaders(options.headers),
    timeoutMs: positive('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS),
    deadlineMs: positive('deadlineMs', options.deadlineMs, DEFAULT_DEADLINE_MS),
    allowFull: options.allowFullDownload === true,
    maxFull: positive('maxFullDownloadBytes', options.maxFullDownloadBytes, DEFAULT_MAX_FULL),
    // The size a listing gave (internal: scans pass an S3 listing's), which lets the open choose
    // its ranges up front; the server's answers must agree (else the typed 'changed' error).
    listedSize: listedSizeOf(options.listedSize),
    // The ETag (and, without one, the Last-Modified) the listing gave: every response must carry
    // the same (internal, as listedSize), or the object read is not the one listed.
    listed: { etag: options.listedEtag || null, lastModified: options.listedEtag ? null : options.listedLastModified || null },
    full: null, // the one whole-body download, when a server ignores Range and it is allowed
    // The stop of every request in flight (and of a retry's wait), which close, a failed open and
    // the caller's signal call; `stopped` once they have (later requests fail at once). A set, not
    // an AbortController whose signal each request would listen on: that costs a remote scan
    // CPU per file (BENCHMARKS.md, "Remote scan bound by latency").
    active: new Set(),
    stopped: false,
    // The version read: the first response's validators, which every later response must carry.
    version: null,
    requests: 0,
    inFlight: 0,
    bytesReceived: 0,
  };
  if (!ctx.fetch) throw httpError(url, 'no_fetch', 'this runtime has no fetch()');
  // The caller's headers may hold a secret: their redirects are followed by js/redirect.js,
  // which sends none of them to another origin (an S3 source's fetch follows its own).
  if (!options.followsRedirects && [...ctx.headers].length > 0) {
    const plain = ctx.fetch;
    ctx.fetch = (resource, init) => fetchFollowing(plain, resource, init, { named: url });
  }
  return ctx;
}

/** The byte source over the opening's blocks: reads they hold are served from memory, others are one Range request each. */
function openedSource(ctx, blocks, detach) {
  const { url } = ctx;
  const size = blocks[0].total;
  const held = blocks.filter((b) => b.bytes.length > 0);
  let name;
  return {
    size,
    url,
    // Worked out when asked for (a scan's fast route never asks: a URL parse per file saved).
    get name() {
      return name === undefined ? (name = nameOf(url)) : name;
    },
    // As a fleet scan counts I/O: requests, and the bytes of their bodies.
    get ioCount() {
      return ctx.requests;
    },
    get ioBytes() {
      return ctx.bytesReceived;
    },
    async read(offset, length) {
      if (length === 0) return new Uint8Array(0);
      for (const b of held) {
        if (offset >= b.start && offset + length <= b.start + b.bytes.length) return b.bytes.subarray(offset - b.start, offset - b.start + length);
      }
      if (offset < 0 || offset + length > size) throw httpError(url, 'out_of_range', `bytes ${offset}..${offset + length} lie outside the file (${size} bytes)`, { offset });
      // Of another size, the typed 'changed' (answerOf); a whole body (a server that ignored
      // Range, allowed by allowFullDownload) holds the range.
      const got = await request(ctx, { start: offset, end: offset + length - 1 }, size, operation(ctx, `reading bytes ${offset}..${offset + length}`));
      return got.bytes.subarray(offset - got.start, offset - got.start + length);
    },
    async close() {
      // Only requests still in flight need stopping (an abort costs an AbortError's stack).
      if (ctx.inFlight > 0) stopAll(ctx);
      detach();
    },
  };
}

// One operation (the open, or one later read) under one deadline, which every request made for
// it races.
const operation = (ctx, what) => ({ what, deadlineAt: Date.now() + ctx.deadlineMs });

// The blocks an open needs — the head and the tail window, each {start, bytes, total}, or one
// block holding the whole file — in as few requests and round trips as the server allows (the
// file comment says how).
async function openingBlocks(ctx, op) {
  if (ctx.listedSize != null) return listedBlocks(ctx, ctx.listedSize, op);
  const origin = originOf(ctx.url);
  const way = openingWays.get(origin);
  if (way === EXPLICIT) return explicitBlocks(ctx, op);
  if (way === TOGETHER) return togetherBlocks(ctx, origin, op);
  let tail;
  try {
    tail = await request(ctx, { suffix: TAIL }, null, op);
  } catch (e) {
    if (!(e instanceof SuffixRefused)) throw e;
    rememberWay(origin, EXPLICIT);
    return explicitBlocks(ctx, op);
  }
  // The window reached byte 0 (a file no larger than it, or a whole body): it is the file.
  if (tail.start === 0) {
    rememberWay(origin, SUFFIX);
    return [tail];
  }
  rememberWay(origin, TOGETHER);
  return [await request(ctx, { start: 0, end: HEAD - 1 }, tail.total, op), tail];
}

// The head and the suffix at once: one round trip, two requests.
async function togetherBlocks(ctx, origin, op) {
  const [head, tail] = await Promise.allSettled([request(ctx, { start: 0, end: HEAD - 1 }, null, op), request(ctx, { suffix: TAIL }, null, op)]);
  if (head.status === 'rejected') throw head.reason;
  if (tail.status === 'fulfilled') {
    if (head.value.total !== tail.value.total) {
      throw changedError(ctx.url, 'size', `the two opening responses give ${head.value.total} and ${tail.value.total} bytes`);
    }
    rememberWay(origin, tail.value.start === 0 ? SUFFIX : TOGETHER);
    return [head.value, tail.value];
  }
  if (!(tail.reason instanceof SuffixRefused)) throw tail.reason;
  rememberWay(origin, EXPLICIT);
  // The head's Content-Range has told the size.
  const size = head.value.total;
  if (size <= head.value.bytes.length) return [head.value];
  return [head.value, await windowOf(ctx, size, op)];
}

// Explicit ranges only: the first TAIL bytes (all of a small file), then the window if the file
// is larger (its size known from the first answer).
async function explicitBlocks(ctx, op) {
  const first = await request(ctx, { start: 0, end: TAIL - 1 }, null, op);
  if (first.total <= first.bytes.length) return [first];
  return [first, await windowOf(ctx, first.total, op)];
}

// The size is known before the open (an S3 listing's): explicit ranges, chosen up front — the
// whole file in one request when the window holds it, else the head and the window at once.
async function listedBlocks(ctx, size, op) {
  if (size <= TAIL) return [await request(ctx, { start: 0, end: size - 1 }, size, op)];
  const [head, tail] = await Promise.allSettled([request(ctx, { start: 0, end: HEAD - 1 }, size, op), windowOf(ctx, size, op)]);
  if (head.status === 'rejected') throw head.reason;
  if (tail.status === 'rejected') throw tail.reason;
  return [head.value, tail.value];
}

/** The tail window of a file of `size` bytes, asked for with an explicit range. */
const windowOf = (ctx, size, op) => request(ctx, { start: Math.max(0, size - TAIL), end: size - 1 }, size, op);

// One Range request, retried once after a 429 or 503: resolves to {start, bytes, total}
// holding exactly the bytes asked for (a suffix: the last min(total, suffix) bytes).
async function request(ctx, want, knownSize, op) {
  try {
    return await attempt(ctx, want, knownSize, op);
  } catch (e) {
    if (!(e?.reason === 'http_status' && (e.status === 429 || e.status === 503))) throw e;
    const wait = retryWait(e.retryAfterMs);
    if (Date.now() + wait >= op.deadlineAt) throw e;
    await pause(wait, () => cancelledError(ctx.url), (stop) => {
      if (ctx.stopped) stop();
      ctx.active.add(stop);
      return () => ctx.active.delete(stop);
    });
    try {
      return await attempt(ctx, want, knownSize, op);
    } catch (again) {
      const shown = redactUrl(ctx.url);
      if (again?.reason === 'http_status' && again.status === e.status && again.message.endsWith(`: ${shown}`)) {
        again.message = `${again.message.slice(0, -shown.length - 2)} (also after one retry ${wait} ms later): ${shown}`;
      }
      throw again;
    }
  }
}

/**
 * Waits `ms` (a retry's pause; an s3:// listing page's too): `watch(stop)` has `stop` called
 * when the wait is to end at once (a close, a signal), then rejecting with `cancelled()`, and
 * returns what forgets it.
 */
export function pause(ms, cancelled, watch) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      forget();
      resolve();
    }, ms);
    const forget = watch(() => {
      clearTimeout(timer);
      reject(cancelled());
    });
  });
}

/** Stops every request of the source still in flight, and any made later. */
function stopAll(ctx) {
  ctx.stopped = true;
  for (const stop of [...ctx.active]) stop();
  ctx.active.clear();
}

// Whether a conditional header may be sent: in a page, only to its own origin (a cross-origin
// If-Match would need the host's CORS preflight to allow it; the validators are still compared).
function mayPin(url) {
  const here = globalThis.location?.origin;
  return typeof document === 'undefined' || !here || new URL(url).origin === here;
}

// A response of another version than the first that carried validators: the typed 'changed'
// error, else null (and the first validators seen become the pin).
function versionChange(ctx, got, offset) {
  const { listed } = ctx;
  if (listed.etag && got.etag && bareEtag(listed.etag) !== bareEtag(got.etag)) {
    return changedError(ctx.url, 'etag', `the listing gave ETag ${listed.etag}, the server sent ${got.etag}: another version than the one listed`, { offset });
  }
  if (listed.lastModified && got.lastModified && !sameSecond(listed.lastModified, got.lastModified)) {
    return changedError(ctx.url, 'last_modified', `the listing gave Last-Modified ${listed.lastModified}, the server sent ${got.lastModified}: another version than the one listed`, { offset });
  }
  const pinned = ctx.version;
  if (pinned?.etag && got.etag && pinned.etag !== got.etag) return changedError(ctx.url, 'etag', `ETag ${pinned.etag}, now ${got.etag}`, { offset });
  if (pinned?.lastModified && got.lastModified && pinned.lastModified !== got.lastModified) {
    return changedError(ctx.url, 'last_modified', `Last-Modified ${pinned.lastModified}, now ${got.lastModified}`, { offset });
  }
  if (got.etag || got.lastModified) ctx.version = { etag: pinned?.etag ?? got.etag, lastModified: pinned?.lastModified ?? got.lastModified };
  return null;
}

// One request: its own stall timer and the operation's deadline race every step (fetch, each
// body chunk), so it settles even when the runtime's fetch never does after an abort.
async function attempt(ctx, want, knownSize, op) {
  const { url } = ctx;
  const offset = want.suffix != null ? null : want.start;
  const headers = requestHeaders(ctx, want);
  if (ctx.stopped) throw cancelledError(url);
  const dog = watchdog(
    ctx.timeoutMs,
    () => httpError(url, 'timeout', `the server sent nothing for ${ctx.timeoutMs} ms (stalled)`, { offset }),
    Math.max(0, op.deadlineAt - Date.now()),
    () => httpError(url, 'deadline', `${op.what} took longer than ${ctx.deadlineMs} ms (deadlineMs)`, { offset }),
  );
  const onClose = () => dog.fail(cancelledError(url));
  ctx.active.add(onClose);
  ctx.requests++;
  ctx.inFlight++;
  let res;
  try {
    try {
      res = await dog.guard(ctx.fetch(url, { headers, signal: dog.signal, redirect: 'follow', ...(BYPASS_CACHE ? { cache: 'no-store' } : {}) }));
    } catch (e) {
      throw fetchFailure(e, (reason, sentence) => httpError(url, reason, sentence, { offset }));
    }
    return await answerOf(ctx, res, want, knownSize, { ...dog, offset, range: headers.get('Range') });
  } catch (e) {
    // The body is not read: release the connection (never waiting on it: it may hang too), and
    // abort the request (a fetch still pending). A request that succeeded is left alone: an abort
    // costs an AbortError's stack, which a remote scan would pay twice per file.
    res?.body?.cancel().catch(() => {});
    dog.abort();
    throw e;
  } finally {
    ctx.inFlight--;
    dog.clear();
    ctx.active.delete(onClose);
  }
}

/** A request's headers: the caller's, the Range, and the version it must be (once one is pinned). */
function requestHeaders(ctx, want) {
  const headers = new Headers(ctx.headers);
  headers.set('Range', want.suffix != null ? `bytes=-${want.suffix}` : `bytes=${want.start}-${want.end}`);
  // Ranges of a compressed representation would be of the wrong bytes (see FETCH_ADDS_IDENTITY).
  if (!FETCH_ADDS_IDENTITY) headers.set('Accept-Encoding', 'identity');
  const pin = ctx.version;
  if (pin && mayPin(ctx.url)) {
    if (pin.etag && !pin.etag.startsWith('W/')) headers.set('If-Match', pin.etag);
    else if (pin.lastModified) headers.set('If-Unmodified-Since', pin.lastModified);
  }
  return headers;
}

/**
 * A response to a Range request → `{start, bytes, total}` (its body read under the request's
 * timers, `limits`: the watchdog's `arm` and `guard`, the request's `offset` and `range`), or the
 * typed error that says what is wrong with it; SuffixRefused where a suffix range was not honoured.
 */
async function answerOf(ctx, res, want, knownSize, limits) {
  const { url } = ctx;
  const { offset, range } = limits;
  const pin = ctx.version;
  if (res.status === 412 && pin) throw changedError(url, 'precondition_failed', `the server says the file no longer matches ${pin.etag ?? pin.lastModified} (412)`, { status: 412, offset });
  const changed = versionChange(ctx, { etag: res.headers.get('etag'), lastModified: res.headers.get('last-modified') }, offset);
  if (changed) throw changed;
  const sameSize = (total) => {
    if (knownSize != null && total !== knownSize) throw changedError(url, 'size', `it was ${knownSize} bytes, now ${total}`, { status: res.status, offset });
  };
  const encoding = res.headers.get('content-encoding');
  const encoded = encoding != null && !/^\s*identity\s*$/i.test(encoding);
  if (res.status === 206) {
    const cr = parseContentRange(res.headers.get('content-range'));
    if (!cr || cr.start == null) {
      throw httpError(url, 'bad_content_range', `a 206 response without a usable Content-Range (${res.headers.get('content-range') ?? 'none; a cross-origin server must list it in Access-Control-Expose-Headers'})`, { status: 206, offset });
    }
    const start = want.suffix != null ? Math.max(0, cr.total - want.suffix) : want.start;
    const end = want.suffix != null ? cr.total - 1 : Math.min(want.end, cr.total - 1);
    if (want.suffix != null && (cr.start !== start || cr.end !== end)) throw new SuffixRefused();
    sameSize(cr.total);
    if (cr.start !== start || cr.end !== end) {
      throw httpError(url, 'bad_content_range', `the server answered ${range} with bytes ${cr.start}-${cr.end}/${cr.total}`, { status: 206, offset });
    }
    // A compressed range is a range of the compressed bytes: what it decodes to is not the file's.
    if (encoded) throw httpError(url, 'encoded', `the server sent the range compressed (Content-Encoding: ${encoding}), so its bytes are not the file's`, { status: 206, offset });
    return { start, bytes: await readBody(ctx, res, end - start + 1, limits), total: cr.total };
  }
  if (res.status === 416) {
    // An empty file has no satisfiable range: `Content-Range: bytes */0`.
    const cr = parseContentRange(res.headers.get('content-range'));
    if (cr && cr.start == null && cr.total === 0 && knownSize == null) {
      res.body?.cancel().catch(() => {}); // its connection is released
      return { start: 0, bytes: new Uint8Array(0), total: 0 };
    }
    if (want.suffix != null) throw new SuffixRefused();
    if (cr && cr.start == null) sameSize(cr.total);
    throw httpError(url, 'http_status', `HTTP 416 Range Not Satisfiable for ${range}`, { status: 416, offset });
  }
  if (res.status === 200) {
    const whole = await wholeBody(ctx, res, { ...limits, encoded });
    sameSize(whole.total);
    return whole;
  }
  // A server that fails on the suffix range itself (s3s-fs answers 500 when the file is smaller
  // than the suffix) while it serves explicit ranges: the head's answer decides (openingBlocks).
  if ((res.status === 500 || res.status === 501) && want.suffix != null) throw new SuffixRefused();
  const err = httpError(url, 'http_status', `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`, { status: res.status, offset });
  if (res.status === 429 || res.status === 503) err.retryAfterMs = retryAfterMs(res.headers.get('retry-after'));
  throw err;
}

/**
 * A request's limits: `arm()` (re)starts the stall timer — `stalled()` is the error after
 * `timeoutMs` without a byte — and `late()` is the error after `deadlineMs`; `guard(p)` races `p`
 * against both, `fail(e)` ends the request with `e` and aborts `signal`, `clear()` stops the
 * timers. Both start at once; where the two limits are equal (the CLI's --timeout) the one set
 * first fires first: the deadline, unless `stallFirst` (an s3:// listing page names the stall).
 * Also the s3:// listings' (js/s3.js).
 */
export function watchdog(timeoutMs, stalled, deadlineMs, late, stallFirst = false) {
  const controller = new AbortController();
  let stop;
  const stopped = new Promise((_, reject) => (stop = reject));
  stopped.catch(() => {}); // raced by guard; unobserved when nothing is pending
  const fail = (err) => {
    stop(err);
    controller.abort();
  };
  let stall = null;
  const arm = () => {
    clearTimeout(stall);
    stall = setTimeout(() => fail(stalled()), timeoutMs);
  };
  if (stallFirst) arm();
  const deadline = setTimeout(() => fail(late()), deadlineMs);
  if (!stallFirst) arm();
  return {
    signal: controller.signal,
    arm,
    fail,
    guard: (promise) => Promise.race([promise, stopped]),
    abort: () => controller.abort(),
    clear() {
      clearTimeout(stall);
      clearTimeout(deadline);
    },
  };
}

// A fetch that rejected: a redirect loop, a network failure or (in browsers, indistinguishably)
// a CORS refusal, as `error(reason, sentence)` makes it (an s3:// listing page's too); our own
// timers' and aborts' errors pass as they are.
export function fetchFailure(e, error) {
  if (e?.kind) return e;
  const cause = causeOf(e);
  if (/redirect/i.test(`${e?.cause?.message ?? ''} ${e?.message ?? ''}`)) {
    return error('redirect_loop', `the server redirected too many times, in a loop or a chain too long to follow (${cause})`);
  }
  // Browsers give a bare TypeError for network failures and CORS refusals alike.
  return error('network', `network error or cross-origin (CORS) refusal (${cause})`);
}

// A 200 to a Range request: the server ignored Range and is sending the whole file.
function wholeBody(ctx, res, { arm, guard, offset, encoded }) {
  const { url } = ctx;
  const declared = res.headers.get('content-length');
  // A compressed body's Content-Length counts the compressed bytes: the file's length is unknown.
  const length = declared == null || encoded ? null : Number(declared);
  const small = length != null && length <= SMALL_BODY;
  if (!small && !ctx.allowFull) {
    throw httpError(url, 'range_ignored', `the server ignored the Range request and sent the whole file (200${length != null ? `, ${length} bytes` : ''}); refusing a full download (the allowFullDownload option permits one)`, { status: 200, offset });
  }
  if (length != null && length > ctx.maxFull) {
    throw httpError(url, 'too_large', `the server ignored the Range request and the whole file (${length} bytes) exceeds maxFullDownloadBytes (${ctx.maxFull})`, { status: 200, offset });
  }
  if (ctx.full) {
    // Both opening requests got the whole file: read it once.
    res.body?.cancel().catch(() => {});
    return ctx.full;
  }
  ctx.full = (async () => {
    const bytes = await readBody(ctx, res, length ?? ctx.maxFull, { arm, guard, offset, upTo: length == null });
    return { start: 0, bytes, total: bytes.length };
  })();
  ctx.full.catch(() => {}); // awaited by whoever shares it
  return ctx.full;
}

// Reads exactly `length` bytes (or, `upTo`, at most `length`), each chunk under the request's
// timers; a body that ends early or runs long is an error. Allocation is bounded by the range
// asked for (or maxFullDownloadBytes), never by a header.
async function readBody(ctx, res, length, { arm, guard, offset, upTo = false }) {
  const { url } = ctx;
  if (!res.body) {
    if (length === 0 || upTo) return new Uint8Array(0);
    throw httpError(url, 'short_body', `the response has no body (expected ${length} bytes)`, { offset });
  }
  const reader = res.body.getReader();
  const chunks = [];
  let got = 0;
  for (;;) {
    let step;
    try {
      step = await guard(reader.read());
    } catch (e) {
      if (e?.kind) throw e; // our own timers and aborts
      throw httpError(url, 'short_body', `the connection broke after ${got} of the ${upTo ? 'expected' : length} bytes (${causeOf(e)})`, { status: res.status, offset: offset == null ? null : offset + got });
    }
    const { done, value } = step;
    if (done) break;
    arm();
    got += value.length;
    ctx.bytesReceived += value.length;
    if (got > length) {
      reader.cancel().catch(() => {});
      throw upTo
        ? httpError(url, 'too_large', `the server ignored the Range request and the whole file exceeds maxFullDownloadBytes (${ctx.maxFull})`, { status: res.status, offset })
        : httpError(url, 'long_body', `the body is longer than the ${length} bytes its Content-Range promises`, { status: res.status, offset });
    }
    chunks.push(value);
  }
  if (got < length && !upTo) {
    throw httpError(url, 'short_body', `the body ended after ${got} of the ${length} bytes its headers promise`, { status: res.status, offset: offset == null ? null : offset + got });
  }
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(got);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

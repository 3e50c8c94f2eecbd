// A TsFile on a web server, read with HTTP Range requests (Node >= 20's fetch, browsers, Bun,
// Deno, Workers).
//
// Opening needs the head (12 bytes) and the tail window (4 KiB, TsFileMetadata and usually
// the index of a small file). Both are asked for at once — the head with an explicit range,
// the tail with a suffix range (`bytes=-4096`) — and the file's size comes from either
// response's Content-Range, so there is no HEAD request: 2 requests, 1 round trip. Some
// servers get suffix ranges wrong: npm's http-server answers 416, Vite's servers (sirv) send
// the first 4097 bytes. Then the head's Content-Range has told the size, and the window is
// asked for with an explicit range (a 3rd request); later opens on that origin skip the
// suffix and ask for the first 4 KiB (all of a small file) and then the window, explicitly.
// Later reads (loadIndex() outside the window) are one Range request each.
//
// Whatever a server does wrong ends in an Error with kind 'io', `url`, `reason` and a
// sentence naming the cause and the URL — never a hang (a stall timeout per request) and
// never a silent download of a whole file (a 200 to a Range request is refused unless
// `allowFullDownload` is set, and then only up to `maxFullDownloadBytes`).

const HEAD = 12; // as tsfile.js reads: magic + version, and enough to recognise a v2 head
const TAIL = 4 * 1024; // tsfile.js's tail window
/** A 200 (Range ignored) this small is the file itself and costs no more than the window. */
const SMALL_BODY = TAIL;
const DEFAULT_TIMEOUT_MS = 20_000;
const DEFAULT_MAX_FULL = 64 * 1024 * 1024;

/** Origins seen to answer a suffix range wrongly; bounded (the oldest is forgotten first). */
const noSuffixRanges = new Set();
const NO_SUFFIX_MEMORY = 256;

function rememberNoSuffix(origin) {
  noSuffixRanges.delete(origin);
  noSuffixRanges.add(origin);
  if (noSuffixRanges.size > NO_SUFFIX_MEMORY) noSuffixRanges.delete(noSuffixRanges.values().next().value);
}

// A browser's HTTP cache may answer a Range request from a whole response it holds — and when
// that response was compressed (Vite's preview server gzips a 200 but not a 206, under one
// weak ETag), with bytes that are not the range. Pages and their Workers therefore bypass the
// cache; other runtimes have none (and Workers' fetch rejects the option).
const BYPASS_CACHE = typeof document !== 'undefined' || typeof importScripts === 'function';

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
  if (typeof input !== 'string' || typeof base !== 'string' || !/^https?:/i.test(base)) return null;
  try {
    const url = new URL(input, base);
    return isHttpUrl(url) ? url.href : null;
  } catch {
    return null;
  }
}

/** An 'io' error about `url`: `reason` is stable (range_ignored, http_status, short_body, ...). */
export function httpError(url, reason, sentence, { status = null, offset = null } = {}) {
  const err = new Error(`${sentence}: ${url}`);
  err.kind = 'io';
  err.reason = reason;
  err.offset = offset;
  err.url = url;
  err.status = status;
  return err;
}

function cancelledError(url) {
  const err = new Error(`cancelled: ${url}`);
  err.name = 'AbortError';
  err.kind = 'cancelled';
  err.offset = null;
  err.url = url;
  return err;
}

// `bytes a-b/n` → {start, end, total}; `bytes */n` (unsatisfiable) → {total}; else null.
export function parseContentRange(value) {
  if (!value) return null;
  let m = /^\s*bytes\s+(\d+)-(\d+)\/(\d+)\s*$/i.exec(value);
  if (m) {
    const [start, end, total] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (!(start <= end && end < total && Number.isSafeInteger(total))) return null;
    return { start, end, total };
  }
  m = /^\s*bytes\s+\*\/(\d+)\s*$/i.exec(value);
  return m && Number.isSafeInteger(Number(m[1])) ? { start: null, end: null, total: Number(m[1]) } : null;
}

/**
 * Opens `input` (an http(s) URL) as a byte source for openTsFile: issues the head and the
 * tail request in parallel and resolves once both are in. Options: `headers` (e.g. for
 * auth), `signal`, `timeoutMs` (per request, restarted by every chunk received: a stall
 * limit), `allowFullDownload`, `maxFullDownloadBytes`, `fetch` (a fetch implementation).
 */
export async function httpSource(input, options = {}) {
  const url = input instanceof URL ? input.href : String(input);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const ctx = {
    url,
    // Called as a plain function: browsers refuse fetch called as a method of another
    // object ("Illegal invocation"), and a user's fetch may be a bound method too.
    fetch: typeof fetchImpl === 'function' ? (resource, init) => fetchImpl(resource, init) : null,
    headers: options.headers,
    signal: options.signal ?? null,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    allowFull: options.allowFullDownload === true,
    maxFull: options.maxFullDownloadBytes ?? DEFAULT_MAX_FULL,
    full: null, // the one whole-body download, when a server ignores Range and it is allowed
    closer: new AbortController(), // aborts every request of this source (close, failed open)
    requests: 0,
    bytesReceived: 0,
  };
  if (!ctx.fetch) throw httpError(url, 'no_fetch', 'this runtime has no fetch()');
  if (ctx.signal?.aborted) throw cancelledError(url);
  let blocks;
  try {
    blocks = await openingBlocks(ctx);
  } catch (e) {
    ctx.closer.abort();
    throw e;
  }
  const size = blocks[0].total;
  const held = blocks.filter((b) => b.bytes.length > 0);
  const path = decodeURIComponent(new URL(url).pathname);
  return {
    size,
    url,
    name: path.slice(path.lastIndexOf('/') + 1) || null,
    get requests() {
      return ctx.requests;
    },
    get bytesReceived() {
      return ctx.bytesReceived;
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
      const got = await request(ctx, { start: offset, end: offset + length - 1 }, size);
      return got.bytes;
    },
    async close() {
      ctx.closer.abort();
    },
  };
}

// The blocks an open needs — the head and the tail window, each {start, bytes, total} — in
// as few requests and round trips as the server allows (the file comment says how).
async function openingBlocks(ctx) {
  const origin = new URL(ctx.url).origin;
  if (noSuffixRanges.has(origin)) {
    const first = await request(ctx, { start: 0, end: TAIL - 1 });
    if (first.total <= first.bytes.length) return [first];
    return [first, await windowOf(ctx, first.total)];
  }
  const [head, tail] = await Promise.allSettled([request(ctx, { start: 0, end: HEAD - 1 }), request(ctx, { suffix: TAIL })]);
  if (head.status === 'rejected') throw head.reason;
  if (tail.status === 'fulfilled') {
    if (head.value.total !== tail.value.total) {
      throw httpError(ctx.url, 'size_changed', `the two responses disagree on the file size (${head.value.total} and ${tail.value.total} bytes)`);
    }
    return [head.value, tail.value];
  }
  if (!(tail.reason instanceof SuffixRefused)) throw tail.reason;
  rememberNoSuffix(origin);
  const size = head.value.total;
  if (size <= head.value.bytes.length) return [head.value];
  return [head.value, await windowOf(ctx, size)];
}

/** The tail window of a file of `size` bytes, asked for with an explicit range. */
const windowOf = (ctx, size) => request(ctx, { start: Math.max(0, size - TAIL), end: size - 1 }, size);

// One Range request: resolves to {start, bytes, total} holding exactly the bytes asked for
// (a suffix: the last min(total, suffix) bytes). A suffix range the server answers with 416 or
// with other bytes rejects with SuffixRefused (openingBlocks then asks explicitly).
async function request(ctx, want, knownSize = null) {
  const { url } = ctx;
  const range = want.suffix != null ? `bytes=-${want.suffix}` : `bytes=${want.start}-${want.end}`;
  const offset = want.suffix != null ? null : want.start;
  const headers = new Headers(ctx.headers ?? undefined);
  headers.set('Range', range);
  // Ranges of a compressed representation would be of the wrong bytes (browsers drop this
  // forbidden header and never compress ranges anyway).
  headers.set('Accept-Encoding', 'identity');

  const controller = new AbortController();
  let timedOut = false;
  let timer = null;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, ctx.timeoutMs);
  };
  const onAbort = () => controller.abort();
  ctx.signal?.addEventListener('abort', onAbort, { once: true });
  ctx.closer.signal.addEventListener('abort', onAbort, { once: true });
  const failure = (e) => {
    if (e?.kind || e instanceof SuffixRefused) return e;
    if (timedOut) return httpError(url, 'timeout', `the server sent nothing for ${ctx.timeoutMs} ms (stalled)`, { offset });
    if (ctx.signal?.aborted || ctx.closer.signal.aborted) return cancelledError(url);
    // Browsers give a bare TypeError for network failures and CORS refusals alike.
    const cause = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(e);
    return httpError(url, 'network', `network error or cross-origin (CORS) refusal (${cause})`, { offset });
  };
  arm();
  ctx.requests++;
  let res;
  try {
    res = await ctx.fetch(url, { headers, signal: controller.signal, redirect: 'follow', ...(BYPASS_CACHE ? { cache: 'no-store' } : {}) });
    if (res.status === 206) {
      const cr = parseContentRange(res.headers.get('content-range'));
      if (!cr || cr.start == null) {
        throw httpError(url, 'bad_content_range', `a 206 response without a usable Content-Range (${res.headers.get('content-range') ?? 'none; a cross-origin server must list it in Access-Control-Expose-Headers'})`, { status: 206, offset });
      }
      const start = want.suffix != null ? Math.max(0, cr.total - want.suffix) : want.start;
      const end = want.suffix != null ? cr.total - 1 : Math.min(want.end, cr.total - 1);
      if (want.suffix != null && (cr.start !== start || cr.end !== end)) throw new SuffixRefused();
      if (cr.start !== start || cr.end !== end || (knownSize != null && cr.total !== knownSize)) {
        throw httpError(url, 'bad_content_range', `the server answered ${range} with bytes ${cr.start}-${cr.end}/${cr.total}`, { status: 206, offset });
      }
      const bytes = await readBody(ctx, res, end - start + 1, arm, offset);
      return { start, bytes, total: cr.total };
    }
    if (res.status === 416) {
      // An empty file has no satisfiable range: `Content-Range: bytes */0`.
      const cr = parseContentRange(res.headers.get('content-range'));
      await res.body?.cancel();
      if (cr && cr.start == null && cr.total === 0 && knownSize == null) return { start: 0, bytes: new Uint8Array(0), total: 0 };
      if (want.suffix != null) throw new SuffixRefused();
      throw httpError(url, 'http_status', `HTTP 416 Range Not Satisfiable for ${range}`, { status: 416, offset });
    }
    if (res.status === 200) return await wholeBody(ctx, res, arm, offset);
    await res.body?.cancel();
    throw httpError(url, 'http_status', `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`, { status: res.status, offset });
  } catch (e) {
    try {
      await res?.body?.cancel();
    } catch {
      // the body is already broken or consumed
    }
    throw failure(e);
  } finally {
    clearTimeout(timer);
    ctx.signal?.removeEventListener('abort', onAbort);
    ctx.closer.signal.removeEventListener('abort', onAbort);
  }
}

// A 200 to a Range request: the server ignored Range and is sending the whole file.
function wholeBody(ctx, res, arm, offset) {
  const { url } = ctx;
  const declared = res.headers.get('content-length');
  const length = declared == null ? null : Number(declared);
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
    const bytes = await readBody(ctx, res, length ?? ctx.maxFull, arm, offset, length == null);
    return { start: 0, bytes, total: bytes.length };
  })();
  return ctx.full;
}

// Reads exactly `length` bytes (or, `upTo`, at most `length`), restarting the stall timer on
// every chunk; a body that ends early or runs long is an error. Allocation is bounded by
// the range we asked for (or maxFullDownloadBytes), never by a header.
async function readBody(ctx, res, length, arm, offset, upTo = false) {
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
      step = await reader.read();
    } catch (e) {
      // Our own abort (stall timer, signal, close) is told apart by the caller.
      if (ctx.closer.signal.aborted || ctx.signal?.aborted || e?.name === 'AbortError') throw e;
      throw httpError(url, 'short_body', `the connection broke after ${got} of the ${upTo ? 'expected' : length} bytes (${e?.cause?.code ?? e?.cause?.message ?? e?.message ?? e})`, { status: res.status, offset: offset == null ? null : offset + got });
    }
    const { done, value } = step;
    if (done) break;
    arm();
    got += value.length;
    ctx.bytesReceived += value.length;
    if (got > length) {
      await reader.cancel();
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

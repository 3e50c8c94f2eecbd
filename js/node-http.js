// Node's transport for the http source (js/http-source.js): the part of fetch() that source
// uses — GET with headers, an AbortSignal, redirects followed — made with node:http(s) over
// kept-alive connections. Node's fetch (undici) costs ~0.2 ms of CPU per small request, this
// ~0.05 ms; a remote scan makes a request or two per file, so on a few cores fetch's cost, not the
// round trip, was what bounded it (BENCHMARKS.md, "Remote scan bound by latency").
//
// What it answers is what fetch would: `{status, statusText, headers.get(name), body}` with a
// body read through `getReader()` (chunks as Uint8Arrays) or dropped with `cancel()`; a
// Range request asks for `Accept-Encoding: identity` (as fetch does), and a body sent encoded
// anyway is decoded (gzip, deflate, br), as fetch decodes it. Failures are fetch's: a TypeError
// whose `cause` is the network error (`code`: ECONNREFUSED, …) or "redirect count exceeded";
// an abort rejects with an AbortError. The http source's timers and typed errors stay its own.
// Only Node uses it (Deno and Bun keep their fetch); a `fetch` option replaces it.
import { createRequire } from 'node:module';
import { urlToHttpOptions } from 'node:url';
import { fetchFollowing } from './redirect.js';

/** Whether this is Node itself (Deno and Bun, which also run the Node entry, keep their fetch). */
export const NODE_HTTP = typeof globalThis.Deno === 'undefined' && typeof globalThis.process?.versions?.bun !== 'string';

// node:http(s) and node:zlib are loaded with the first request: a process that reads only local
// files (a scan of a tree, an inspect) does not pay their start-up (~10 ms).
const require = createRequire(import.meta.url);
let transport = null;
function loaded() {
  if (transport) return transport;
  const http = require('node:http');
  const https = require('node:https');
  const zlib = require('node:zlib');
  transport = {
    // Kept-alive connections, reused most-recent-first so idle ones time out (their sockets are
    // unref'd while idle: they keep no process alive).
    agents: { 'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo' }), 'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo' }) },
    requests: { 'http:': http.request, 'https:': https.request },
    decoders: { gzip: zlib.createGunzip, 'x-gzip': zlib.createGunzip, deflate: zlib.createInflate, br: zlib.createBrotliDecompress },
  };
  return transport;
}

function abortError(signal) {
  const reason = signal?.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new DOMException('This operation was aborted', 'AbortError');
}

const failed = (cause) => new TypeError('fetch failed', { cause });

/** The path and query of a URL as written (no dot segment removed): `/a/./b?x`. */
export const writtenPath = (url) => /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^#]*)/i.exec(url)?.[1] || '/';

/**
 * `fetch(url, {headers, signal, redirect})` for GET requests (see the file comment). Redirects
 * are followed by js/redirect.js (a redirect to another origin carries only the reader's own
 * headers), each hop one request here. `exactPath` (not fetch's): the request path is `url`'s as
 * written, printable ASCII, with its '.' and '..' segments (an S3 key's: WHATWG URL parsing would
 * remove them).
 */
export async function nodeHttpFetch(url, init = {}) {
  if (init.redirect !== 'manual') return fetchFollowing(nodeHttpFetch, url, init);
  const target = new URL(url);
  const path = init.exactPath ? writtenPath(String(url)) : null;
  if (path !== null && !/^\/[\x21-\x7e]*$/.test(path)) throw failed(new Error('the request path is not percent-encoded'));
  const headers = {};
  for (const [name, value] of new Headers(init.headers ?? undefined)) headers[name] = value;
  if (headers.range !== undefined && headers['accept-encoding'] === undefined) headers['accept-encoding'] = 'identity';
  return response(await once(target, path, headers, init.signal ?? null), init.signal ?? null);
}

// One request, retried once (GET is idempotent) when a kept-alive connection turns out to have
// been closed by the server before it answered.
function once(target, path, headers, signal, retried = false) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const protocol = target.protocol;
    const { requests, agents } = loaded();
    if (!(protocol in requests)) return reject(failed(new Error(`URL scheme ${protocol} is not supported`)));
    const options = { method: 'GET', headers, agent: agents[protocol] };
    const req = path === null ? requests[protocol](target, options) : requests[protocol]({ ...urlToHttpOptions(target), ...options, path });
    let settled = false;
    const onAbort = () => req.destroy(abortError(signal));
    signal?.addEventListener('abort', onAbort, { once: true });
    const detach = () => signal?.removeEventListener('abort', onAbort);
    req.once('response', (res) => {
      settled = true;
      res.detach = detach; // the abort listener stays while the body is read
      res.once('close', detach);
      // Failures of a body are its reader's (bodyOf); one nobody reads must not throw.
      res.on('error', () => {});
      resolve(res);
    });
    req.on('error', (e) => {
      if (settled) return; // a body's failure reaches its reader
      detach();
      if (e?.name === 'AbortError') return reject(e);
      if (!retried && req.reusedSocket && (e.code === 'ECONNRESET' || e.code === 'EPIPE')) return resolve(once(target, path, headers, signal, true));
      reject(failed(e));
    });
    req.end();
  });
}

// The IncomingMessage as the subset of a fetch Response the http source reads.
function response(res, signal) {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  let stream = res;
  const decoder = loaded().decoders[encoding];
  let body = null;
  return {
    status: res.statusCode,
    statusText: res.statusMessage ?? '',
    headers: {
      get(name) {
        const v = res.headers[name.toLowerCase()];
        return v === undefined ? null : Array.isArray(v) ? v.join(', ') : String(v);
      },
    },
    get body() {
      if (!body) {
        if (decoder && res.statusCode !== 206) {
          stream = res.pipe(decoder());
          stream.on('error', () => {}); // its reader's (bodyOf)
          res.once('error', (e) => stream.destroy(e));
        }
        body = bodyOf(res, stream, signal);
      }
      return body;
    },
  };
}

// A reader over the response's chunks (the stream's own async iterator, started by the first
// read): one read() pending at most, as the http source reads.
function bodyOf(res, stream, signal) {
  let chunks = null;
  const read = async () => {
    chunks ??= stream[Symbol.asyncIterator]();
    let step;
    try {
      step = await chunks.next();
    } catch (e) {
      // As fetch fails: an AbortError once aborted; a connection closed early as undici says it.
      if (signal?.aborted) throw abortError(signal);
      throw e?.code === 'ERR_STREAM_PREMATURE_CLOSE' ? failed(new Error('other side closed')) : e;
    }
    const { done, value } = step;
    return done ? { done, value: undefined } : { done, value: new Uint8Array(value.buffer, value.byteOffset, value.byteLength) };
  };
  const cancel = () => {
    res.detach();
    // A body already in whole is drained (its connection is reused); one still coming is cut off.
    if (res.complete) res.resume();
    else res.destroy();
    if (stream !== res) stream.destroy();
    return Promise.resolve();
  };
  return { getReader: () => ({ read, cancel }), cancel };
}

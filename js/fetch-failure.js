// What a failed fetch in a browser was, as far as the browser lets a page know. `fetch` rejects
// with a bare TypeError for a network failure, a CORS refusal and a Content-Security-Policy block
// alike (the reason is only in the console, which a page cannot read). Two things it can observe:
// - a `securitypolicyviolation` event on the global (a window or a worker) for a blocked
//   connection: the page's (or the worker script's) CSP `connect-src` does not allow the URL;
// - a `no-cors` HEAD request to the URL: an opaque answer means the server is there and answered,
//   so the CORS request was refused for want of CORS headers (or of a preflight allowing Range);
//   a rejection means the server could not be reached at all.
// Outside browsers (Node, Deno, Bun, workerd) there is no CORS: an error is left as it is.
import { httpError } from './http-source.js';

/** The longest the no-cors probe may take. */
const PROBE_MS = 10_000;
/** The URLs (and origins) recently blocked by the CSP, newest last; bounded. */
const blocked = [];
const BLOCKED_MEMORY = 64;

const inBrowser = typeof document !== 'undefined' || (typeof WorkerGlobalScope !== 'undefined' && globalThis instanceof WorkerGlobalScope);

if (inBrowser && typeof globalThis.addEventListener === 'function') {
  globalThis.addEventListener('securitypolicyviolation', (ev) => {
    if (ev.effectiveDirective !== 'connect-src' && ev.violatedDirective !== 'connect-src') return;
    blocked.push(String(ev.blockedURI ?? ''));
    if (blocked.length > BLOCKED_MEMORY) blocked.shift();
  });
}

const originOf = (url) => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

// Chromium reports the full URL; a browser may report only the origin (or the origin of a redirect).
const wasBlocked = (url) => blocked.some((b) => b === url || b === originOf(url) || originOf(b) === originOf(url));

/** The violation events of a fetch are queued tasks: they arrive after its rejection. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

const cspError = (url, origin, error) =>
  httpError(url, 'csp', `this page's Content-Security-Policy does not allow connecting to ${origin} (its connect-src must list that origin; the page's host sets it)`, { offset: error.offset });

/** Probes in flight by origin: the files of one host that fail together share one probe. */
const probing = new Map();

/** Whether the server at `url` answers a no-cors HEAD: true, false, or null when the CSP blocked it. */
function probeOrigin(url, origin, signal) {
  let p = probing.get(origin);
  if (!p) {
    p = (async () => {
      try {
        const limit = AbortSignal.timeout(PROBE_MS);
        await fetch(url, { method: 'HEAD', mode: 'no-cors', cache: 'no-store', credentials: 'omit', signal: signal ? AbortSignal.any([signal, limit]) : limit });
        return true;
      } catch {
        await nextTask();
        return wasBlocked(url) ? null : false;
      }
    })().finally(() => probing.delete(origin));
    probing.set(origin, p);
  }
  return p;
}

/**
 * `error` (a failed request for `url`: kind 'io', reason 'network') explained: reason `csp` (this
 * page's Content-Security-Policy `connect-src` blocks the URL), `cors` (the server answered but
 * without CORS headers that let this page read it), or `network` (nothing answered), each with
 * its sentence; any other error, or outside a browser, is returned as it is. Options: `signal`.
 */
export async function explainFetchFailure(url, error, { signal } = {}) {
  if (!inBrowser || error?.kind !== 'io' || error.reason !== 'network') return error;
  const origin = originOf(url);
  if (!origin || origin === globalThis.location?.origin) return error;
  await nextTask();
  if (wasBlocked(url)) return cspError(url, origin, error);
  const answered = await probeOrigin(url, origin, signal);
  if (signal?.aborted) return error; // cancelled meanwhile: the probe proved nothing
  if (answered == null) return cspError(url, origin, error);
  if (answered) {
    return httpError(
      url,
      'cors',
      `the server answered, but not with the CORS headers that let this page read the file (cross-origin refusal: ${origin} must send Access-Control-Allow-Origin for this page, allow the Range request header in its preflight and expose Content-Range)`,
      { offset: error.offset },
    );
  }
  return httpError(url, 'network', 'network error: the server could not be reached (no answer even to a request that needs no CORS)', { offset: error.offset });
}

// A fetch refused in a page or a Worker (a bare TypeError for a network failure, a CORS refusal
// and a CSP block alike), told apart as far as the browser lets a page know: a
// `securitypolicyviolation` event naming the URL is the CSP; an answered `no-cors` HEAD means
// the server is there, so CORS refused; else nothing answered. Elsewhere errors are left as they are.
import { httpError } from './http-source.js';

const inBrowser = typeof document !== 'undefined' || (typeof WorkerGlobalScope !== 'undefined' && globalThis instanceof WorkerGlobalScope);
/** The URLs the CSP blocked lately (a few). */
const blocked = [];
if (inBrowser) {
  globalThis.addEventListener?.('securitypolicyviolation', (ev) => {
    if (ev.effectiveDirective === 'connect-src' && blocked.push(String(ev.blockedURI)) > 64) blocked.shift();
  });
}

const originOf = (url) => URL.canParse?.(url) && new URL(url).origin;
// Chromium names the URL; a browser may name only its origin.
const wasBlocked = (url) => blocked.some((b) => b === url || originOf(b) === originOf(url));
// Violation events are queued tasks: they come after the rejection.
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Probes in flight by origin: the files of one host that fail together share one. */
const probing = new Map();

/** Whether a no-cors HEAD to `url` is answered: true, false, or null when the CSP blocked it. */
function probe(url, origin, signal) {
  let p = probing.get(origin);
  if (!p) {
    const limit = AbortSignal.timeout(10_000);
    p = fetch(url, { method: 'HEAD', mode: 'no-cors', cache: 'no-store', credentials: 'omit', signal: signal ? AbortSignal.any([signal, limit]) : limit })
      .then(
        () => true,
        () => nextTask().then(() => (wasBlocked(url) ? null : false)),
      )
      .finally(() => probing.delete(origin));
    probing.set(origin, p);
  }
  return p;
}

/**
 * `error` (kind 'io', reason 'network', of a request for `url`) explained: reason `csp` (this
 * page's CSP `connect-src` blocks the URL), `cors` (the server answered, without CORS headers for
 * this page) or `network` (nothing answered); any other error, or outside a browser, as it is.
 */
export async function explainFetchFailure(url, error, { signal } = {}) {
  const origin = originOf(url);
  if (!inBrowser || error?.reason !== 'network' || !origin || origin === globalThis.location?.origin) return error;
  await nextTask();
  const answered = wasBlocked(url) ? null : await probe(url, origin, signal);
  if (signal?.aborted) return error; // cancelled meanwhile: nothing proved
  const [reason, sentence] =
    answered == null
      ? ['csp', `this page's Content-Security-Policy does not allow connecting to ${origin} (its connect-src must list that origin; the page's host sets it)`]
      : answered
        ? ['cors', `the server answered, but not with the CORS headers that let this page read the file (cross-origin refusal: ${origin} must send Access-Control-Allow-Origin for this page, allow the Range request header in its preflight and expose Content-Range)`]
        : ['network', 'network error: the server could not be reached (no answer even to a request that needs no CORS)'];
  return httpError(url, reason, sentence, { offset: error.offset });
}

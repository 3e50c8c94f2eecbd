// Redirects of a request that carries something secret — an S3 signature (Authorization,
// X-Amz-Date, X-Amz-Content-Sha256, X-Amz-Security-Token) or the caller's `headers` — followed
// here rather than by fetch: fetch (the Fetch standard; browsers, Deno, Bun, undici) drops only
// Authorization when a redirect leaves the origin and forwards every other header, a session
// token or an API key included. Here a redirect to another origin carries only the reader's own
// headers (Range, Accept-Encoding and the If-* pins of one version); within the origin every
// header follows, and a signed request is signed again for its new URL. Where a runtime hides a
// redirect's Location (a page's fetch answers `redirect: 'manual'` with an opaque response) the
// redirect is not followed at all: the typed `redirect_hidden`. A request with nothing secret is
// left to fetch's own redirects.
import { TsFileBloomError } from './errors.js';
import { redactUrl } from './redact.js';

/** The request headers that may follow a redirect to another origin: the reader's own. */
const CARRIED = new Set(['range', 'accept-encoding', 'if-match', 'if-unmodified-since']);
const REDIRECT = new Set([301, 302, 303, 307, 308]);
/** fetch's limit (the Fetch standard's 20). */
const MAX_REDIRECTS = 20;

const failed = (message) => new TypeError('fetch failed', { cause: new Error(message) });

/** The headers of `init` that may go to another origin. */
function carried(headers) {
  const out = new Headers();
  for (const [name, value] of new Headers(headers ?? undefined)) if (CARRIED.has(name)) out.set(name, value);
  return out;
}

/**
 * `fetchImpl(url, init)` with redirects followed as the file comment says. `sign(url, headers)`
 * (optional) gives a request's headers for `url` (an S3 signature); `exactPath` asks the first
 * request's transport to send the URL's path as it is written (js/node-http.js); `named` is the
 * location errors name (as redactUrl shows it). A redirect loop or a bad Location fails as fetch fails (a TypeError).
 */
export async function fetchFollowing(fetchImpl, url, init = {}, { sign = null, exactPath = false, named = url } = {}) {
  const origin = new URL(url).origin;
  const own = carried(init.headers);
  let current = url;
  let crossed = false;
  for (let hop = 0; ; hop++) {
    const headers = crossed ? own : sign ? await sign(current, init.headers) : init.headers;
    const res = await fetchImpl(current, { ...init, headers, redirect: 'manual', ...(exactPath && hop === 0 ? { exactPath: true } : {}) });
    if (res.type === 'opaqueredirect') {
      const shown = redactUrl(named);
      const sentence = "the server redirected the request, and this runtime (a page's fetch) does not say where to; a request with credentials or the headers option is not sent on blindly";
      throw new TsFileBloomError('io', `${sentence}: ${shown}`, { reason: 'redirect_hidden', url: shown, status: null });
    }
    const location = REDIRECT.has(res.status) ? res.headers.get('location') : null;
    if (location == null) return res;
    res.body?.cancel?.().catch(() => {}); // the redirect's own body
    if (hop >= MAX_REDIRECTS) throw failed('redirect count exceeded');
    let next;
    try {
      next = new URL(location, current);
    } catch {
      throw failed('the Location header is not a URL');
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') throw failed(`URL scheme ${next.protocol} is not supported`);
    crossed ||= next.origin !== origin;
    current = next.href;
  }
}

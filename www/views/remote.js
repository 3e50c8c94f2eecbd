// Remote files: the "Open from the web" form. One URL opens in the inspector as a dropped file
// does; several URLs, or a bucket listing (an S3 ListObjectsV2 URL, public or presigned:
// `…?list-type=2&prefix=…`), go to the folder view, which scans them in its worker as it scans a
// folder (the package's scanTsFiles: Range requests, listings page by page, typed errors per
// file). Nothing here fetches: the workers do (their CSP is their scripts', see www/README.md), and this thread's own policy keeps `connect-src 'self'`.
import { TsFileBloomError } from '../pkg/js/errors.js';
import { isListingUrl as isListing } from '../pkg/js/s3.js';
import { $ } from '../shared/dom.js';
import { fmt } from '../shared/format.js';

/**
 * The form's text → `{urls, rejected}`: entries separated by white space (URLs hold none), each
 * a whole http(s) URL — a file's or a bucket listing's — kept once, in order; `rejected` the
 * entries that are not. Nothing is resolved against the page: "not a url" is three words, not
 * three of this site's files, and a series path typed here is no file either.
 */
export function parseUrls(text) {
  const urls = [];
  const rejected = [];
  for (const entry of String(text).split(/\s+/).filter(Boolean)) {
    let url = null;
    try {
      url = new URL(entry);
    } catch {
      // not a whole URL
    }
    if (url && (url.protocol === 'http:' || url.protocol === 'https:')) {
      if (!urls.includes(url.href)) urls.push(url.href);
    } else rejected.push(entry);
  }
  return { urls, rejected };
}

/** A file's name for the inspector: the last path segment (decoded) and the host. */
export function urlName(url) {
  const u = new URL(url);
  let last = u.pathname.slice(u.pathname.lastIndexOf('/') + 1);
  try {
    last = decodeURIComponent(last);
  } catch {
    // a malformed escape: shown as it is
  }
  return `${last || u.pathname} (${u.host})`;
}

/** A series path (root.…) typed where a URL goes. */
const looksLikeSeriesPath = (entry) => /^root\.[^/:]+$/i.test(entry);

/** The `invalid_argument` error naming the entries that are no http(s) URL, and what the box takes. */
function rejectedError(rejected, othersOpened) {
  const names = rejected.map((r) => `“${r}”`).join(', ');
  const what = othersOpened
    ? '; the others are opened'
    : ': give a file’s whole address (https://host/data/file.tsfile) or a bucket listing (https://bucket.host/?list-type=2&prefix=data/)';
  const series = rejected.some(looksLikeSeriesPath) ? '. A series path is tested under “Test a series path” once a file is open' : '';
  return new TsFileBloomError('invalid_argument', `${names} ${rejected.length > 1 ? 'are' : 'is'} not an http(s) URL${what}${series}`, { argument: 'url' });
}

/** The folder view's title for a scan of `urls`. */
function scanName(urls) {
  const listings = urls.filter(isListing);
  if (urls.length === 1) {
    const u = new URL(urls[0]);
    const prefix = u.searchParams.get('prefix');
    return `bucket listing ${u.host}${u.pathname}${prefix ? ` prefix ${prefix}` : ''}`;
  }
  return `${fmt(urls.length)} URLs${listings.length ? ` (${fmt(listings.length)} bucket listing${listings.length > 1 ? 's' : ''})` : ''}`;
}

/**
 * `ctx`: `{openUrl(url, name), scanUrls(urls, {name, count, resolve}), showError}`. Returns
 * `{openText(text)}` (the form's action, also a dropped link's).
 */
export function createRemoteInput(ctx) {
  const origin = $('remote-origin');
  if (origin) origin.textContent = globalThis.location?.origin ?? '';

  function openText(text) {
    const { urls, rejected } = parseUrls(text);
    const done = urls.length ? open(urls) : null;
    // After the open has started (a load clears the error box when it starts); with no URL
    // at all, instead of any request.
    if (rejected.length) ctx.showError(rejectedError(rejected, urls.length > 0), 'Open from the web:');
    return done;
  }

  function open(urls) {
    if (urls.length === 1 && !isListing(urls[0])) return ctx.openUrl(urls[0], urlName(urls[0]));
    const listings = new Set(urls.filter(isListing));
    return ctx.scanUrls(urls, {
      name: scanName(urls),
      // A listing's objects are known only once it is read.
      count: listings.size ? null : urls.length,
      // A row is its object's URL; a listing's own row (its error) is no file to open.
      async resolve(r) {
        if (listings.has(r.file)) throw new TsFileBloomError('invalid_argument', `this row is the bucket listing itself (${r.error?.message ?? 'it could not be read'}), not a file`, { argument: 'file' });
        return r.file;
      },
    });
  }

  $('remote-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    openText($('remote-urls').value);
  });
  // Enter opens; Shift+Enter starts a new line of the list.
  $('remote-urls').addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && !ev.shiftKey && !ev.isComposing) {
      ev.preventDefault();
      $('remote-form').requestSubmit();
    }
  });
  return { openText };
}

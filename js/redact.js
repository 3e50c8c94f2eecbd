// URLs as they are shown. A presigned URL carries its credentials in its query — S3's Signature V4 (X-Amz-Signature,
// X-Amz-Credential, X-Amz-Security-Token) and V2 (Signature, AWSAccessKeyId,
// x-amz-security-token), Google Cloud Storage's V4 (X-Goog-Signature, X-Goog-Credential), an
// Azure SAS (sig) — and a URL may carry a password (or a token) in its userinfo. Whatever names
// a URL (an error's message and `url`, a scan record's `file`, a report, a line of the CLI) names
// it as redactUrl shows it: those values replaced by REDACTED, their names kept (a reader sees
// the URL was presigned), the rest of the URL exactly as written.

/** What a secret of a URL is shown as. */
const REDACTED = 'REDACTED';
/** The query parameters whose values are secrets (names compared case-insensitively). */
const SECRET_PARAMETERS = new Set(['x-amz-signature', 'x-amz-credential', 'x-amz-security-token', 'signature', 'awsaccesskeyid', 'x-goog-signature', 'x-goog-credential', 'sig']);

/** A query parameter's name, percent-decoded (`+` a space) as URLSearchParams decodes it, and lower-cased. */
const parameterName = (name) => new URLSearchParams(`${name}=`).keys().next().value.toLowerCase();

/** `name=value` → `name=REDACTED` when the name is a secret's. */
const redactPair = (pair) => {
  const eq = pair.indexOf('=');
  return eq >= 0 && SECRET_PARAMETERS.has(parameterName(pair.slice(0, eq))) ? `${pair.slice(0, eq + 1)}${REDACTED}` : pair;
};

/**
 * `location` (an http(s) URL, a string or a URL object; in a page also a URL relative to it) as it
 * may be shown: the values of its secret query parameters REDACTED, and a userinfo's password
 * (a userinfo without one: all of it, a token's usual place) — never parsed or normalised, so a
 * URL without secrets is shown exactly as given. Another scheme is returned as it is: an s3://
 * location's key is taken literally (`?` is a character of the key) and holds no credential.
 */
export function redactUrl(location) {
  const text = location instanceof URL ? location.href : String(location);
  if (!text.includes('?') && !text.includes('@')) return text; // most URLs: nothing to look for
  if (/^[a-z][a-z0-9+.-]*:/i.test(text) && !/^https?:/i.test(text)) return text;
  const hash = text.indexOf('#');
  const [before, fragment] = hash < 0 ? [text, ''] : [text.slice(0, hash), text.slice(hash)];
  const q = before.indexOf('?');
  const [head, query] = q < 0 ? [before, null] : [before.slice(0, q), before.slice(q + 1)];
  // The userinfo: up to the authority's last '@' (WHATWG URL's reading).
  const shownHead = head.replace(/^(https?:\/\/)([^/\\]*)@/i, (_, scheme, info) => {
    const colon = info.indexOf(':');
    return `${scheme}${colon < 0 ? REDACTED : `${info.slice(0, colon)}:${REDACTED}`}@`;
  });
  const shownQuery = query === null ? '' : `?${query.split('&').map(redactPair).join('&')}`;
  return shownHead + shownQuery + fragment;
}

/**
 * `text` (another's sentence: a runtime's fetch error, which may quote the URL — Node's fetch
 * refusing a URL with a password does) with every http(s) URL in it as redactUrl shows it.
 */
export const redactUrlsIn = (text) => String(text).replace(/\bhttps?:\/\/[^\s"'<>()]+/gi, (url) => redactUrl(url));


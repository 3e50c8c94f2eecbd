// The CLI's JSON vocabulary (docs/json.md): the API's records with each key in snake_case by
// one rule (`trailingNullsKept` → `trailing_nulls_kept`) and each value present (undefined as
// null). A map whose keys are data — errors_by_kind, versions, audits — is keyed by error
// kinds, version numbers and audit words, which hold no capital: the rule leaves them as they are.

/** The version of the JSON's vocabulary, in every report and NDJSON line (docs/json.md). */
export const FORMAT_VERSION = 2;

const names = new Map();

/** `fooBar` → `foo_bar` (remembered: a scan names the same few keys per file). */
function snakeCase(key) {
  let name = names.get(key);
  if (name === undefined) names.set(key, (name = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)));
  return name;
}

/** An API value (record, array or scalar) → the same value in the JSON's keys. */
export function jsonOf(v) {
  if (v === undefined) return null;
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(jsonOf);
  const out = {};
  for (const k in v) {
    const x = v[k]; // a scalar written as it is: most values, without a call
    out[snakeCase(k)] = x === undefined ? null : x === null || typeof x !== 'object' ? x : jsonOf(x);
  }
  return out;
}

/** An error (the API's, or a record's `{kind, message, offset}`) → the JSON's error object. */
export const errorJson = (e) => e && { kind: e.kind, message: e.message, offset: e.offset ?? null, reason: e.reason ?? null, status: e.status ?? null };

// The package's one error class, and errors as plain data for crossing a thread or a process.

/**
 * The kinds the JS layers make (the core's are its `ErrorKind`; docs/errors.md): a file
 * that changed while read, a region past a size limit, a cancelled read or scan, a bad manifest,
 * a Worker that failed, and a bug. js/types.generated.d.ts's `ErrorKind` is made from this list.
 */
export const JS_KINDS = Object.freeze(['changed', 'too_large', 'cancelled', 'manifest', 'worker', 'internal']);

/** The fields an error may carry besides `kind`, `message` and `offset` (docs/errors.md). */
const FIELDS = ['argument', 'reason', 'url', 'status', 'path', 'field', 'line'];

/**
 * Every error the package throws or rejects with: a stable `kind`, the byte `offset` it concerns
 * (null when it concerns none), a plain sentence as `message`, and the fields its kind names:
 * `argument` (invalid_argument), `reason` and `url` / `path` (io, changed, manifest), `status`
 * (HTTP), `field` (a corrupt manifest), `line` (a list file's line).
 */
export class TsFileBloomError extends Error {
  constructor(kind, message, { offset = null, cause, ...fields } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.kind = kind;
    this.offset = offset;
    Object.assign(this, fields);
  }
}
TsFileBloomError.prototype.name = 'TsFileBloomError';

/** The core's errors, made by the wasm modules (crates/wasm-common/src/lib.rs imports this). */
export function coreError(kind, message, offset, argument) {
  return new TsFileBloomError(kind, message, argument === undefined ? { offset } : { offset, argument });
}

/**
 * A bad argument, caught at the door: `kind` 'invalid_argument', `argument` the parameter's
 * name (or 'this' for a freed or closed object), a plain sentence, and no byte offset.
 */
export function invalidArgument(argument, message) {
  return new TsFileBloomError('invalid_argument', message, { argument });
}

/**
 * An error (thrown by the reader, a source, or anything) → `{kind, message, offset}`, and the
 * cause a remote source or a manifest names when it has one: `reason` (timeout, http_status,
 * range_ignored, …) and an HTTP `status`. What a scan record carries.
 */
export function plainError(e) {
  if (e == null) return null;
  const out = {
    kind: typeof e.kind === 'string' ? e.kind : e.name === 'AbortError' ? 'cancelled' : 'internal',
    message: String(e.message ?? e),
    offset: typeof e.offset === 'number' ? e.offset : null,
  };
  if (typeof e.reason === 'string') out.reason = e.reason;
  if (typeof e.status === 'number') out.status = e.status;
  return out;
}

/** `plainError` with every field the error carries: what crosses to the Worker client. */
export function wireError(e) {
  const out = plainError(e);
  for (const f of FIELDS) if (e?.[f] != null && typeof e[f] !== 'object') out[f] = e[f];
  return out;
}

/** A `wireError` made an error again (on the other side of the worker boundary), with `op`. */
export function fromWire({ kind = 'internal', message = 'the worker failed', ...fields } = {}, op = null) {
  return new TsFileBloomError(kind, message, { ...fields, op });
}

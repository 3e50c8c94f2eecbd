// Errors as plain data for crossing a thread or a process: a worker reply, a scan record.

/**
 * An error (thrown by the reader, a source, or anything) → `{kind, message, offset}`, and the
 * cause a remote source or a manifest names when it has one: `reason` (timeout, http_status,
 * range_ignored, …) and an HTTP `status`.
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

/**
 * A bad argument, caught at the door: `kind` 'invalid_argument', `argument` the parameter's
 * name (or 'this' for a freed or closed object), a plain sentence, and no byte offset.
 */
export function invalidArgument(argument, message) {
  const err = new TypeError(message);
  err.kind = 'invalid_argument';
  err.argument = argument;
  err.offset = null;
  return err;
}

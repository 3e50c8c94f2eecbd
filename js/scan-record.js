// A scan record: what a fleet scan says about one file, the API's per-file result (docs/fleet.md): `{file, fileHex, ok, size, version, bloomFilter, results, audit,
// bytesRead, reads, error}`. Made by js/scan-file.js, and by js/manifest.js from its entries.
import { plainError } from './errors.js';
import { bloomFromFigures, figureVerdict } from './wire.js';

/** A record before anything is known of its file. */
export const emptyRecord = (file) => ({ file, fileHex: null, ok: false, size: null, version: null, bloomFilter: null, results: null, audit: null, bytesRead: 0, reads: 0, error: null });

/**
 * A record from the fast route's figures `f` (wasm scanTail, decoded by js/wire.js) over what
 * the scan read: `reads` reads of `bytesRead` bytes (a file whose index is not read).
 */
export function tailRecord(file, size, f, paths, reads, bytesRead) {
  const results = paths.map((path, i) => ({ path, verdict: figureVerdict(f, i) }));
  return { ...emptyRecord(file), ok: true, size, version: f[0], bloomFilter: bloomFromFigures(f), results, bytesRead, reads };
}

/** A record for something that was found but could not be opened as a file (a FIFO, a loop). */
export function failedRecord(file, error, size = null) {
  return { ...emptyRecord(file), size, error: plainError(error) };
}

/** TsFile#audit() → the compact audit a record carries. */
export function auditOf(a) {
  return a ? { status: a.status, variant: a.variant ?? null, charset: a.charset ?? null, writer: a.writer ?? null, summary: a.summary } : null;
}

/** A record of a file whose name is not UTF-8 carries its bytes (the walk's `hex`). */
export function named(record, item) {
  if (item.hex !== undefined) record.fileHex = item.hex;
  return record;
}

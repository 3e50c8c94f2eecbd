// What a fleet scan says about one file, and the summary over all of them. Shared by the
// Node scanner (its main thread and its worker_threads) and the browser scanner; no I/O here.
//
// A file's verdicts follow `probe`'s soundness rules because they come from the same call
// (TsFile#probeMany): without `audit` the index is not read (the tail alone decides: 'absent'
// only when every candidate hash variant agrees); with `audit` loadIndex() runs first and
// the writer-variant audit decides.

import { bloomReport } from './report.js';
import { plainError } from './errors.js';
import { bloomFromFigures, figureVerdict } from './wire.js';
import { pct } from './format.js';
import { locationText, terminalText } from './escape.js';
import { addTruth, auditedResults, finishFleetTruth, finishPathTruth, fleetTruthJson, fleetTruthText, mergeTruth, newFleetTruth, newPathTruth, pathTruthJson, pathTruthText } from './scan-fp.js';

// ---- Adapters: the only places that read fields of API results. -----------------------

/** The file's filter facts as the API gives them (TsFile#bloomInfo()). */
export const bloomOf = (t) => t.bloomInfo();

/** What the summary needs from a bloomInfo() object. */
function bloomFacts(info) {
  return {
    present: info.present === true,
    fill: info.fillRatio ?? null,
    fpp: info.fppFromFill ?? null,
  };
}

/**
 * A scan record from the fast route's figures `f` (wasm scanTail, decoded by js/wire.js, over what the scanner read:
 * `reads` reads of `bytesRead` bytes), as scanOne makes it for a file whose index is not read.
 * Shared by the Node scanner's workers (js/scan-worker.js) and the browser scanner.
 */
export function tailRecord(file, size, f, paths, reads, bytesRead) {
  return {
    file,
    fileHex: null,
    ok: true,
    size,
    version: f[0],
    bloomFilter: bloomFromFigures(f),
    results: paths.map((path, i) => ({ path, verdict: figureVerdict(f, i) })),
    audit: null,
    bytesRead,
    reads,
    error: null,
  };
}

/** bloomInfo() → `bloom_filter` of `inspect --json` (the same keys: js/report.js). */
const bloomJson = (info) => bloomReport(info);

/** TsFile#audit() → the compact audit a scan record carries. */
function auditOf(a) {
  return a ? { status: a.status, variant: a.variant ?? null, charset: a.charset ?? null, writer: a.writer ?? null, summary: a.summary } : null;
}

/** An error (thrown by the reader, a source, or anything) → `{kind, message, offset}`. */
export const errorOf = plainError;

// ---- Cancellation. -------------------------------------------------------------------------

/**
 * Per-file AbortSignals under one scan's signal, which gets a single listener however many
 * files are read at once (an EventTarget warns past 10 listeners): `child()` gives a signal
 * and its `done()`.
 */
export function fanOut(signal) {
  const live = new Set();
  signal?.addEventListener('abort', () => live.forEach((c) => c.abort()), { once: true });
  return () => {
    const c = new AbortController();
    if (signal?.aborted) c.abort();
    live.add(c);
    return { signal: c.signal, done: () => live.delete(c) };
  };
}

// ---- One file. ----------------------------------------------------------------------------

/** Wraps a byte source to count reads and bytes (sources with `ioCount`/`ioBytes` count their own). */
export function countReads(source, counter) {
  counter.source = source;
  const read = source.read.bind(source);
  return {
    ...source,
    size: source.size,
    read(offset, length) {
      counter.reads++;
      counter.bytes += length;
      return read(offset, length);
    },
    close: source.close?.bind(source),
  };
}

/**
 * Scans one file: `open(input, options)` is openTsFile with a source maker, and
 * `makeSource(input, options)` yields the file's byte source. Never throws: errors are
 * part of the record. Record (the API's per-file result):
 * `{file, ok, size, version, bloomFilter, results, audit, bytesRead, reads, error}`.
 */
export async function scanOne(file, input, { open, makeSource, paths = [], audit = false, openOptions = {}, child = null }) {
  const counter = { reads: 0, bytes: 0, source: null };
  const own = child?.();
  if (own) openOptions = { ...openOptions, signal: own.signal };
  const record = { file, fileHex: null, ok: false, size: null, version: null, bloomFilter: null, results: null, audit: null, bytesRead: 0, reads: 0, error: null };
  let t = null;
  try {
    t = await open(input, { ...openOptions, source: async (i, o) => countReads(await makeSource(i, o), counter) });
    record.size = t.size;
    record.version = t.version;
    let indexError = null;
    if (audit) {
      indexError = await t.loadIndex();
      record.audit = auditOf(await t.audit({ partial: true })); // (null when the walk failed: the record's error says why)
    }
    record.bloomFilter = bloomOf(t);
    // With the index read, each result also says whether the index lists the path (js/scan-fp.js).
    record.results = !paths.length ? [] : audit ? auditedResults(t, paths) : t.probeMany(paths);
    record.error = errorOf(indexError);
    record.ok = indexError == null;
  } catch (e) {
    if (e?.kind === 'cancelled' || e?.name === 'AbortError') throw e;
    record.error = errorOf(e);
    if (record.size == null && counter.source) record.size = counter.source.size;
  } finally {
    await t?.close();
    own?.done();
  }
  // A source that counts its own I/O (HTTP requests, reads that serve several calls) is believed.
  const s = counter.source;
  record.reads = s && typeof s.ioCount === 'number' ? s.ioCount : counter.reads;
  record.bytesRead = s && typeof s.ioBytes === 'number' ? s.ioBytes : counter.bytes;
  return record;
}

/** A record for something that was found but could not be opened as a file (a FIFO, a loop). */
export function failedRecord(file, error, size = null) {
  return { file, fileHex: null, ok: false, size, version: null, bloomFilter: null, results: null, audit: null, bytesRead: 0, reads: 0, error: errorOf(error) };
}

// ---- Output vocabularies. -----------------------------------------------------------------

/** A record → one NDJSON object, in the vocabulary of `inspect --json` and `probe --json`. */
export function recordJson(r) {
  const out = { file: r.file };
  // A name that is not UTF-8: `file` shows it, `file_hex` is its bytes (as properties' value_hex).
  if (r.fileHex != null) out.file_hex = r.fileHex;
  return Object.assign(out, {
    ok: r.ok,
    size: r.size,
    version: r.version,
    bloom_filter: r.bloomFilter && bloomJson(r.bloomFilter),
    results: r.results,
    audit: r.audit,
    bytes_read: r.bytesRead,
    reads: r.reads,
    error: r.error,
  });
}

/**
 * One line of the human-readable listing. What the scan does not control is escaped for a
 * terminal (js/escape.js): the location as `ls -b` shows a name, series paths and error sentences.
 */
export function recordText(r) {
  const file = locationText(r.file, r.fileHex);
  if (r.error && r.size == null && r.version == null) return `${file}  ERROR ${r.error.kind}: ${terminalText(r.error.message)}`;
  const b = r.bloomFilter;
  const parts = [file, r.size == null ? '-' : `${r.size} B`];
  if (r.version != null) parts.push(`v${r.version}`);
  if (b) parts.push(b.present ? `m=${b.bitCount} k=${b.hashFunctionCount} fill ${pct(b.fillRatio)} fpp ${pct(b.fppFromFill)}` : 'no filter');
  if (r.audit) parts.push(`audit ${r.audit.status}${r.audit.variant ? ` (${r.audit.variant})` : ''}`);
  if (b?.filledPastDesign) parts.push('filled past design');
  for (const v of r.results ?? []) parts.push(`${terminalText(v.path)}: ${v.verdict}${v.indexed === false && v.verdict === 'maybe' ? ' (false positive: the index does not list it)' : ''}`);
  if (r.error) parts.push(`ERROR ${r.error.kind}${r.error.offset != null ? ` at byte ${r.error.offset}` : ''}: ${terminalText(r.error.message)}`);
  return parts.join('  ');
}

const csvCell = (v) => {
  if (v == null) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The CSV header: fixed columns, then one verdict column per path. */
export function csvHeader(paths) {
  const cols = ['file', 'ok', 'size', 'version', 'bloom_present', 'bit_count', 'hash_function_count', 'set_bits', 'fill_ratio', 'fpp_from_fill', 'audit_status', 'audit_variant', 'bytes_read', 'reads', 'error_kind', 'error_offset', 'error_message'];
  // Added after the verdicts (existing columns keep their places): the design rule and, per
  // path, whether the index lists it (empty without --audit); then the bytes of a name that is
  // not UTF-8, in hex (empty for any other).
  return [...cols, ...paths.map((p) => `verdict ${p}`), 'filled_past_design', ...paths.map((p) => `indexed ${p}`), 'file_hex'].map(csvCell).join(',');
}

export function recordCsv(r, paths) {
  const b = r.bloomFilter;
  const verdicts = new Map((r.results ?? []).map((v) => [v.path, v.verdict]));
  const indexed = new Map((r.results ?? []).map((v) => [v.path, v.indexed]));
  return [
    r.file, r.ok, r.size, r.version, b ? b.present : null, b?.bitCount, b?.hashFunctionCount, b?.setBits, b?.fillRatio, b?.fppFromFill,
    r.audit?.status, r.audit?.variant, r.bytesRead, r.reads, r.error?.kind, r.error?.offset, r.error?.message,
    ...paths.map((p) => verdicts.get(p)),
    b?.filledPastDesign,
    ...paths.map((p) => indexed.get(p)),
    r.fileHex,
  ].map(csvCell).join(',');
}

/** Records → one chunk of output text in `format` ('ndjson' | 'csv' | 'text'). */
export function formatRecords(records, format, paths) {
  let out = '';
  for (const r of records) {
    out += format === 'ndjson' ? JSON.stringify(recordJson(r)) : format === 'csv' ? recordCsv(r, paths) : recordText(r);
    out += '\n';
  }
  return out;
}

// ---- The summary. -------------------------------------------------------------------------

/** Upper bounds of the FPP bands the health report counts files in. */
const FPP_BANDS = [0.0001, 0.001, 0.01, 0.05, 0.1, Infinity];

/** An empty summary for `paths` (mergeable: workers fill parts, the main thread adds them). */
export function newSummary(paths = []) {
  return {
    files: 0,
    ok: 0,
    errors: 0,
    errorsByKind: {},
    bytesRead: 0,
    reads: 0,
    bytesOnDisk: 0,
    versions: {},
    withFilter: 0,
    withoutFilter: 0,
    fillDeciles: new Array(10).fill(0),
    fppBands: new Array(FPP_BANDS.length).fill(0),
    audits: {},
    paths: paths.map((path) => ({ path, absent: 0, maybe: 0, unknown: 0, noVerdict: 0, truth: newPathTruth() })),
    truth: newFleetTruth(),
  };
}

export function addToSummary(s, r) {
  s.files++;
  if (r.ok) s.ok++;
  else {
    s.errors++;
    const kind = r.error?.kind ?? 'internal';
    s.errorsByKind[kind] = (s.errorsByKind[kind] ?? 0) + 1;
  }
  s.bytesRead += r.bytesRead;
  s.reads += r.reads;
  if (r.size != null) s.bytesOnDisk += r.size;
  if (r.version != null) s.versions[r.version] = (s.versions[r.version] ?? 0) + 1;
  if (r.bloomFilter) {
    const f = bloomFacts(r.bloomFilter);
    if (f.present) {
      s.withFilter++;
      if (f.fill != null) s.fillDeciles[Math.min(9, Math.floor(f.fill * 10))]++;
      if (f.fpp != null) s.fppBands[FPP_BANDS.findIndex((x) => f.fpp < x)]++;
    } else s.withoutFilter++;
  }
  if (r.audit) {
    const key = r.audit.variant ? `${r.audit.status} (${r.audit.variant})` : r.audit.status;
    s.audits[key] = (s.audits[key] ?? 0) + 1;
  }
  addTruth(s.truth, s.paths.map((p) => p.truth), r);
  // Results come in the order of the paths asked for.
  s.paths.forEach((p, i) => {
    const v = r.results?.[i]?.path === p.path ? r.results[i].verdict : r.results?.find((x) => x.path === p.path)?.verdict;
    if (v === 'absent' || v === 'maybe' || v === 'unknown') p[v]++;
    else p.noVerdict++;
  });
}

/**
 * Adds summary `part` to `into`, `times` times over (a group of alike files added at once:
 * js/manifest.js; its file lists, which name files, are added once).
 */
export function mergeSummary(into, part, times = 1) {
  for (const k of ['files', 'ok', 'errors', 'bytesRead', 'reads', 'bytesOnDisk', 'withFilter', 'withoutFilter']) into[k] += times * part[k];
  for (const [k, n] of Object.entries(part.errorsByKind)) into.errorsByKind[k] = (into.errorsByKind[k] ?? 0) + times * n;
  for (const [k, n] of Object.entries(part.versions)) into.versions[k] = (into.versions[k] ?? 0) + times * n;
  for (const [k, n] of Object.entries(part.audits)) into.audits[k] = (into.audits[k] ?? 0) + times * n;
  part.fillDeciles.forEach((n, i) => (into.fillDeciles[i] += times * n));
  part.fppBands.forEach((n, i) => (into.fppBands[i] += times * n));
  part.paths.forEach((p, i) => {
    for (const k of ['absent', 'maybe', 'unknown', 'noVerdict']) into.paths[i][k] += times * p[k];
  });
  mergeTruth(into.truth, into.paths.map((p) => p.truth), part.truth, part.paths.map((p) => p.truth), times);
  return into;
}

/**
 * The final summary (the API's): per path, `skippable` files (the filter says absent),
 * `mayHold` (maybe or unknown), `unreadable` (no verdict: the file could not be opened), and
 * `skipRatio` = skippable / files — a file that could not be read cannot be skipped.
 */
export function finishSummary(s, elapsedMs) {
  const truth = finishFleetTruth(s.truth);
  return {
    files: s.files,
    ok: s.ok,
    errors: s.errors,
    errorsByKind: s.errorsByKind,
    bytesRead: s.bytesRead,
    bytesOnDisk: s.bytesOnDisk,
    reads: s.reads,
    readsPerFile: s.files ? s.reads / s.files : 0,
    versions: s.versions,
    audited: truth.audited,
    filters: {
      filledPastDesign: truth.filledPastDesign,
      withinDesign: truth.withinDesign,
      filledPastDesignFiles: truth.filledPastDesignFiles,
      withFilter: s.withFilter,
      withoutFilter: s.withoutFilter,
      fillDeciles: s.fillDeciles,
      fppBands: FPP_BANDS.map((upTo, i) => ({ below: Number.isFinite(upTo) ? upTo : null, files: s.fppBands[i] })),
    },
    audits: s.audits,
    paths: s.paths.map((p) => ({
      path: p.path,
      skippable: p.absent,
      mayHold: p.maybe + p.unknown,
      maybe: p.maybe,
      unknown: p.unknown,
      unreadable: p.noVerdict,
      skipRatio: s.files ? p.absent / s.files : 0,
      ...finishPathTruth(p.truth),
    })),
    elapsedMs,
    filesPerSecond: elapsedMs > 0 ? (s.files * 1000) / elapsedMs : null,
  };
}

/** The final summary → the `{"summary": …}` NDJSON line's object (snake_case, as `--json`). */
export function summaryJson(s) {
  return {
    files: s.files,
    ok: s.ok,
    errors: s.errors,
    errors_by_kind: s.errorsByKind,
    bytes_read: s.bytesRead,
    bytes_on_disk: s.bytesOnDisk,
    reads: s.reads,
    reads_per_file: s.readsPerFile,
    versions: s.versions,
    filters: {
      with_filter: s.filters.withFilter,
      without_filter: s.filters.withoutFilter,
      fill_deciles: s.filters.fillDeciles,
      fpp_bands: s.filters.fppBands,
      ...fleetTruthJson(s.filters),
    },
    audits: s.audits,
    audited: s.audited,
    paths: s.paths.map((p) => ({ path: p.path, skippable: p.skippable, may_hold: p.mayHold, maybe: p.maybe, unknown: p.unknown, unreadable: p.unreadable, skip_ratio: p.skipRatio, ...pathTruthJson(p) })),
    elapsed_ms: s.elapsedMs,
    files_per_second: s.filesPerSecond,
    // With --manifest only (js/manifest.js): files answered from it, read, and dropped (gone).
    ...(s.manifest ? { manifest: { file: s.manifest.file, answered: s.manifest.answered, read: s.manifest.read, dropped: s.manifest.dropped } } : {}),
  };
}

/** The summary in words (the text listing's end; stderr with --csv). */
export function summaryText(s) {
  const out = [`${s.files} files: ${s.ok} ok, ${s.errors} with errors${s.errors ? ` (${Object.entries(s.errorsByKind).map(([k, n]) => `${k} ${n}`).join(', ')})` : ''}`];
  out.push(`read ${s.bytesRead} bytes of ${s.bytesOnDisk} on disk in ${s.reads} reads (${s.readsPerFile.toFixed(2)} per file), ${(s.elapsedMs / 1000).toFixed(2)} s, ${Math.round(s.filesPerSecond ?? 0)} files/s`);
  out.push(`filters: ${s.filters.withFilter} present, ${s.filters.withoutFilter} files without one; by FPP (from fill): ${s.filters.fppBands.map((b) => `${b.below == null ? '≥10%' : `<${pct(b.below)}`} ${b.files}`).join(', ')}`);
  if (s.manifest) out.push(`manifest ${s.manifest.file}: ${s.manifest.answered} files answered from it, ${s.manifest.read} read, ${s.manifest.dropped} gone`);
  if (Object.keys(s.audits).length) out.push(`audits: ${Object.entries(s.audits).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  for (const p of s.paths) {
    out.push(`${p.skippable} of ${s.files} files can be skipped for ${p.path} (${(p.skipRatio * 100).toFixed(1)}%); ${p.mayHold} may hold it (${p.maybe} maybe, ${p.unknown} unknown), ${p.unreadable} unreadable`);
    out.push(...pathTruthText(s, p));
  }
  out.push(...fleetTruthText(s));
  // One element a line: a path or a file name that holds a control character stays on its line.
  return out.map(terminalText).join('\n');
}

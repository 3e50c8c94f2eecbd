// A scan's output formats: each record as an NDJSON object (in the vocabulary of `inspect
// --json` and `probe --json`), a CSV row or a line of text, and the summary as JSON or words.
import { FORMAT_VERSION, errorJson, jsonOf } from './json.js';
import { count, decisionWords, pct } from './format.js';
import { locationText, terminalText } from './escape.js';
import { fleetTruthText, pathTruthText } from './scan-fp.js';

/**
 * A record's fields as its NDJSON object holds them, named as the API names them: a result
 * without --audit has `decision`, `indexed` and `severalHashes` null (not known), as with it when unread.
 */
function recordFields(r) {
  // A name that is not UTF-8: `file` shows it, `file_hex` is its bytes (as properties' value_hex).
  const { file, fileHex, ok, size, version, bloomFilter, audit, bytesRead, reads } = r;
  const results = r.results && r.results.map(({ path, verdict, decision = null, indexed = null, severalHashes = null }) => ({ path, verdict, decision, indexed, severalHashes }));
  return { file, fileHex, ok, size, version, bloomFilter, results, audit, bytesRead, reads, error: errorJson(r.error) };
}

/** A record → one NDJSON object, in the vocabulary of `inspect --json` and `probe --json`. */
export const recordJson = (r) => ({ format_version: FORMAT_VERSION, ...jsonOf(recordFields(r)) });

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
  for (const v of r.results ?? []) parts.push(`${terminalText(v.path)}: ${decisionWords(v)}`);
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

/** A record's CSV row (its results come in the order of `paths`, as every scan makes them). */
export function recordCsv(r, paths) {
  const b = r.bloomFilter;
  return [
    r.file, r.ok, r.size, r.version, b ? b.present : null, b?.bitCount, b?.hashFunctionCount, b?.setBits, b?.fillRatio, b?.fppFromFill,
    r.audit?.status, r.audit?.variant, r.bytesRead, r.reads, r.error?.kind, r.error?.offset, r.error?.message,
    ...paths.map((_, i) => r.results?.[i]?.verdict),
    b?.filledPastDesign,
    ...paths.map((_, i) => r.results?.[i]?.indexed),
    r.fileHex,
  ].map(csvCell).join(',');
}

/** A record's line in `format` ('ndjson' | 'csv' | 'text'). */
const lineOf = (format, paths) => (format === 'ndjson' ? (r) => JSON.stringify(recordJson(r)) : format === 'csv' ? (r) => recordCsv(r, paths) : recordText);

/** Records → one chunk of output text in `format` ('ndjson' | 'csv' | 'text'). */
export function formatRecords(records, format, paths) {
  // Joined, the text is one flat string (made by `+=`, a rope each reader flattens first).
  return `${records.map(lineOf(format, paths)).join('\n')}\n`;
}

/**
 * The final summary → the NDJSON line `{"format_version": 2, "summary": …}` (in finishSummary's order);
 * `manifest` (null without --manifest): the files answered from it, read, and dropped (gone).
 */
export function summaryJson(s) {
  const { manifest, ...rest } = s;
  const summary = jsonOf({ ...rest, manifest: manifest ? { file: manifest.file, answered: manifest.answered, read: manifest.read, dropped: manifest.dropped } : null });
  return { format_version: FORMAT_VERSION, summary };
}

/** The summary in words (the text listing's end; stderr with --csv). */
export function summaryText(s) {
  const out = [`${count(s.files, 'file')}: ${s.ok} ok, ${s.errors} with errors${s.errors ? ` (${Object.entries(s.errorsByKind).map(([k, n]) => `${k} ${n}`).join(', ')})` : ''}`];
  out.push(`read ${count(s.bytesRead, 'byte')} of ${s.bytesOnDisk} on disk in ${count(s.reads, 'read')} (${s.readsPerFile.toFixed(2)} per file), ${(s.elapsedMs / 1000).toFixed(2)} s, ${Math.round(s.filesPerSecond ?? 0)} files/s`);
  out.push(`filters: ${s.filters.withFilter} present, ${count(s.filters.withoutFilter, 'file')} without one; by FPP (from fill): ${s.filters.fppBands.map((b) => `${b.below == null ? '≥10%' : `<${pct(b.below)}`} ${b.files}`).join(', ')}`);
  if (s.manifest) out.push(`manifest ${s.manifest.file}: ${count(s.manifest.answered, 'file')} answered from it, ${s.manifest.read} read, ${s.manifest.dropped} gone`);
  if (Object.keys(s.audits).length) out.push(`audits: ${Object.entries(s.audits).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  for (const p of s.paths) {
    out.push(`${p.skippable} of ${count(s.files, 'file')} can be skipped for ${p.path} (${(p.skipRatio * 100).toFixed(1)}%); ${p.mayHold} may hold it (${p.maybe} maybe, ${p.unknown} unknown), ${p.unreadable} unreadable`);
    out.push(...pathTruthText(s, p));
  }
  out.push(...fleetTruthText(s));
  // One element a line: a path or a file name that holds a control character stays on its line.
  return out.map(terminalText).join('\n');
}

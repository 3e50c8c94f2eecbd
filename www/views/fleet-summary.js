// The folder view's summary: per path one sentence whose counts add up to the files scanned
// (skipped, to read, with errors: from the rows' decisions, while a scan runs and after) and the
// files to read (fleet-answer.js); the filters' measured false positives, folded (fleet-fp.js);
// the errors by kind (the scan's own summary once it ends).
import { el } from '../shared/dom.js';
import { count, fmt, pct } from '../shared/format.js';
import { answerLines } from './fleet-answer.js';
import { filterTruthLines } from './fleet-fp.js';
import { byText } from './fleet-table.js';

/** Path `j`'s counts from the rows, by decision; a file with an error counts once, as such. */
function pathCounts(rows, j) {
  const c = { absent: 0, false_positive: 0, indexed: 0, maybe: 0, unknown: 0, error: 0 };
  for (const r of rows) c[r.error ? 'error' : (r.decisions[j] ?? 'error')]++;
  return c;
}

/** For each path one sentence whose counts add up to the files scanned: skipped, to read, with errors. */
function skipLine(rows, path, j) {
  const c = pathCounts(rows, j);
  const [skip, read, files] = [c.absent + c.false_positive, c.indexed + c.maybe + c.unknown, rows.length];
  return el('p', { 'data-testid': 'fleet-skip', 'data-path': path, 'data-skip': skip, 'data-read': read, 'data-errors': c.error },
    el('b', { text: fmt(skip) }), ` of ${count(files, 'file')} can be skipped for `, el('code', { text: path }),
    ` (${files ? pct(skip / files) : '–'}: ${fmt(c.absent)} absent${c.false_positive ? `, ${count(c.false_positive, 'false positive')}` : ''}); `,
    el('b', { text: fmt(read) }), ` must be read (${fmt(c.indexed)} in the index, ${fmt(c.maybe)} maybe, ${fmt(c.unknown)} unknown)`,
    c.error ? `; ${count(c.error, 'file')} with errors must be read too.` : '.');
}

/** The errors of the rows that have arrived, while a scan runs. */
function liveErrors(rows) {
  const s = { files: rows.length, errors: 0, errorsByKind: {} };
  for (const r of rows.filter((x) => x.error)) {
    s.errors++;
    s.errorsByKind[r.error.kind] = (s.errorsByKind[r.error.kind] ?? 0) + 1;
  }
  return s;
}

/** The summary's lines: `summary` the finished scan's (null while it runs: counted from `rows`). */
export function summaryLines(t) {
  const { rows, paths, summary } = t;
  const s = summary ?? liveErrors(rows);
  const lines = [];
  if (!paths.length) lines.push(el('p', { class: 'muted', text: 'Enter a series path and press Scan to see which files a reader could skip.' }));
  paths.forEach((path, j) => lines.push(skipLine(rows, path, j), answerLines(t, j)));
  const truth = filterTruthLines(summary);
  if (truth.length) lines.push(el('details', { class: 'fleet-truth' }, el('summary', { text: 'What the filters really did (measured against each index)' }), ...truth));
  const kinds = Object.entries(s.errorsByKind).sort(([a], [b]) => byText(a, b));
  lines.push(
    el('p', { class: 'muted small', 'data-testid': 'fleet-errors' }, `${count(s.files, 'file')}, ${fmt(s.errors)} with errors${kinds.length ? `: ${kinds.map(([k, n]) => `${k} ${n}`).join(', ')}` : ''}.`,
      summary ? ` Read ${fmt(summary.bytesRead)} of ${fmt(summary.bytesOnDisk)} bytes.` : ''),
  );
  return lines;
}

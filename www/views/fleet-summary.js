// The folder view's summary: per path "N of M files can be skipped", the filters' measured
// false positives (fleet-fp.js) and the errors by kind. Live counts from the rows while a scan
// runs; the scan's own summary once it ends.
import { el } from '../shared/dom.js';
import { fmt, pct } from '../shared/format.js';
import { filterTruthLines } from './fleet-fp.js';
import { byText } from './fleet-table.js';

/** The summary's counts from the rows that have arrived (`paths`: the scan's). */
function liveSummary(rows, paths) {
  const s = { files: rows.length, errors: 0, errorsByKind: {}, paths: paths.map((path) => ({ path, skippable: 0, mayHold: 0, unreadable: 0 })) };
  for (const r of rows) {
    if (r.error) {
      s.errors++;
      s.errorsByKind[r.error.kind] = (s.errorsByKind[r.error.kind] ?? 0) + 1;
    }
    r.verdicts.forEach((v, j) => {
      const p = s.paths[j];
      if (v === 'absent') p.skippable++;
      else if (v == null) p.unreadable++;
      else p.mayHold++;
    });
  }
  return s;
}

/** "N of M files can be skipped for P" */
function skipLine(p, files) {
  return el('p', { 'data-testid': 'fleet-skip', 'data-path': p.path }, el('b', { text: fmt(p.skippable) }), ` of ${fmt(files)} files can be skipped for `, el('code', { text: p.path }),
    ` (${files ? pct(p.skippable / files) : '–'}); ${fmt(p.mayHold)} may hold it${p.unreadable ? `, ${fmt(p.unreadable)} could not be read` : ''}.`);
}

/** The summary's lines: `summary` the finished scan's (null while it runs: counted from `rows`). */
export function summaryLines({ rows, paths, summary }) {
  const s = summary ?? liveSummary(rows, paths);
  const lines = [];
  if (!paths.length) lines.push(el('p', { class: 'muted', text: 'Enter a series path and press Scan to see which files a reader could skip.' }));
  lines.push(...s.paths.map((p) => skipLine(p, s.files)), ...filterTruthLines(summary));
  const kinds = Object.entries(s.errorsByKind).sort(([a], [b]) => byText(a, b));
  lines.push(
    el('p', { class: 'muted small', 'data-testid': 'fleet-errors' }, `${fmt(s.files)} files, ${fmt(s.errors)} with errors${kinds.length ? `: ${kinds.map(([k, n]) => `${k} ${n}`).join(', ')}` : ''}.`,
      summary ? ` Read ${fmt(summary.bytesRead)} of ${fmt(summary.bytesOnDisk)} bytes.` : ''),
  );
  return lines;
}

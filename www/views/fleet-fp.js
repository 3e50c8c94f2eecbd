// The folder view's "what the filters really do" lines (issue 26, item 4): after a scan that
// audited (the index of every file read), per path the measured false positives — files whose
// filter said maybe while the index does not list the path — with the measured rate beside the
// rate the fills predict, and the filters filled past their design (the core's rule,
// src/design.rs). Every figure is the scan summary's (js/scan-fp.js), and so are the words (the
// CLI's text summary says the same); nothing is computed here. Without the audit none of it is known, and the lines say only that.
import { designWords, pathTruthWords } from '../pkg/js/scan-fp.js';
import { el } from '../shared/dom.js';
import { fmt, pct, sentence } from '../shared/format.js';

const PAGE = { n: fmt, pct };

/** How many file names a line shows (the summary keeps the first 100 by name; counts are exact). */
const SHOWN = 8;

/** A folded list of file names under `label` (the first SHOWN of `files`, `count` in all). */
function fileList(label, files, count, testid) {
  const shown = files.slice(0, SHOWN);
  const more = count - shown.length;
  const list = el(
    'ul',
    { class: 'fleet-fp-files small', 'data-testid': testid },
    ...shown.map((f) => el('li', {}, el('code', { text: f }))),
    ...(more > 0 ? [el('li', { class: 'muted', text: `… and ${fmt(more)} more` })] : []),
  );
  return el('details', { class: 'small' }, el('summary', { text: label }), list);
}

/**
 * The lines for a finished scan's summary `s` (scanTsFiles'), or none before it ends
 * (a live count has no index facts) or when no path was asked for.
 */
export function filterTruthLines(s) {
  if (!s?.paths.length) return [];
  const t = s.filters;
  if (!s.audited) {
    return [
      el('p', { class: 'muted small', 'data-testid': 'fleet-fp-unknown' },
        'Measured false positives and filters filled past their design need each file’s index (it proves a path absent and counts the keys a filter holds): tick “audit each filter” and scan again.'),
    ];
  }
  const out = [];
  for (const q of s.paths) {
    const w = pathTruthWords(q, PAGE);
    out.push(el('p', { 'data-testid': 'fleet-fp', 'data-path': q.path, 'data-false-positives': q.falsePositives, 'data-answered': q.falsePositives + q.filterAbsent },
      el('code', { text: q.path }), `: ${w.line}.`, w.severalHashes ? ` ${sentence(w.severalHashes)}` : ''));
    if (w.falsePositives) out.push(fileList(sentence(w.falsePositives), q.falsePositiveFiles, q.falsePositives, 'fleet-fp-files'));
  }
  out.push(el('p', { 'data-testid': 'fleet-past-design', 'data-count': t.filledPastDesign }, sentence(designWords(t, PAGE))));
  if (t.filledPastDesign) out.push(fileList('The filters filled past their design', t.filledPastDesignFiles, t.filledPastDesign, 'fleet-past-design-files'));
  return out;
}

// The folder view's "what the filters really do" lines (issue 26, item 4): after a scan that
// audited (the index of every file read), per path the measured false positives — files whose
// filter said maybe while the index does not list the path — with the measured rate beside the
// rate the fills predict, and the filters filled past their design (the core's rule,
// src/design.rs). Every figure is the scan summary's (js/scan-fp.js, through shared/api.js's
// scanSummaryOf); nothing is computed here. Without the audit none of it is known, and the
// lines say only that.
import { el } from '../shared/dom.js';
import { fmt, pct } from '../shared/format.js';

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
 * The lines for a finished scan's summary `s` (scanSummaryOf's shape), or none before it ends
 * (a live count has no index facts) or when no path was asked for.
 */
export function filterTruthLines(s) {
  if (!s?.truth || !s.paths.length) return [];
  const t = s.truth;
  if (!t.audited) {
    return [
      el('p', { class: 'muted small', 'data-testid': 'fleet-fp-unknown' },
        'Measured false positives and filters filled past their design need each file’s index (it proves a path absent and counts the keys a filter holds): tick “audit each filter” and scan again.'),
    ];
  }
  const out = [];
  for (const p of s.paths) {
    const q = p.truth;
    const answered = q.falsePositives + q.filterAbsent;
    const parts = [el('code', { text: p.path }), `: the index proves it absent in ${fmt(q.indexAbsent)} file${q.indexAbsent === 1 ? '' : 's'} (and lists it in ${fmt(q.indexListed)}). `];
    if (answered) {
      parts.push(
        'There the filter said maybe in ', el('b', { text: fmt(q.falsePositives) }),
        ` — measured false-positive rate ${pct(q.measuredFpRate)} of ${fmt(answered)} — and absent in ${fmt(q.filterAbsent)}; the fills predict ${pct(q.predictedFpRate)} (${q.expectedFalsePositives.toFixed(2)} false positives expected).`,
      );
    } else parts.push('No filter there answered.');
    if (q.noAnswer) parts.push(` ${fmt(q.noAnswer)} gave no answer (unknown: no filter, or bits that cannot be trusted).`);
    if (q.severalHashes) parts.push(` ${fmt(q.severalHashes)} were probed under several candidate hashes, so fill^k understates their chance of a maybe.`);
    out.push(el('p', { 'data-testid': 'fleet-fp', 'data-path': p.path, 'data-false-positives': q.falsePositives, 'data-answered': answered }, ...parts));
    if (q.falsePositives) {
      const label = `The ${fmt(q.falsePositives)} false positive${q.falsePositives === 1 ? '' : 's'}${q.falsePositivesPastDesign ? ` (${fmt(q.falsePositivesPastDesign)} in filters filled past their design)` : ''}`;
      out.push(fileList(label, q.falsePositiveFiles, q.falsePositives, 'fleet-fp-files'));
    }
  }
  const unknown = t.withFilter - t.filledPastDesign - t.withinDesign;
  out.push(
    el('p', { 'data-testid': 'fleet-past-design', 'data-count': t.filledPastDesign },
      el('b', { text: fmt(t.filledPastDesign) }), ` of ${fmt(t.withFilter)} filters are filled past their design: they hold more keys than their m and k are sized for at any error rate.`,
      `${t.withinDesign ? ` ${fmt(t.withinDesign)} are within it.` : ''}${unknown > 0 ? ` For ${fmt(unknown)} it is not known.` : ''}`),
  );
  if (t.filledPastDesign) out.push(fileList('The filters filled past their design', t.filledPastDesignFiles, t.filledPastDesign, 'fleet-past-design-files'));
  return out;
}

// The folder's outliers: the files whose filter is past its design — over-filled (the index
// lists more keys than its m and k were sized for: known only when the scan read the index, with
// "audit each filter") or a false-positive rate (fill^k) past twice the writer's error rate —
// each with its figures. The states are the core's (bloomInfo().health, src/health.rs), on every
// scan record: counted and listed here, never judged again.
import { el } from '../shared/dom.js';
import { fmt, pct } from '../shared/format.js';

/** The outliers listed before "and N more". */
const SHOWN = 20;
const WORDS = { over_filled: 'over-filled', high_fp: 'high false-positive rate' };

/** Over-filled first, then by how far the false-positive rate is past the error rate. */
const concern = (r) => (r.health.state === 'over_filled' ? 1e9 : 0) + r.fpp / r.health.errorRate;

/** One outlier: the file, its state, fill against the design's, fill^k against the error rate. */
function item(r) {
  const h = r.health;
  return el('li', { 'data-file': r.file, 'data-state': h.state }, el('code', { text: r.file }),
    ` — ${WORDS[h.state]}: fill ${pct(r.fill)} (sized for ${pct(h.designFill)}, ${fmt(h.sizedForItems)} keys); false positives ${pct(r.fpp)} (error rate ${pct(h.errorRate)}).`);
}

/** With no outlier: what the states say, and no more (unknown: the keys were not counted). */
function noneLine(judged) {
  const unknown = judged.filter((r) => r.health.state === 'unknown').length;
  const counted = judged.length - unknown;
  const parts = [];
  if (counted) parts.push(`${fmt(counted)} with the index read are healthy (no more keys than they were sized for, false positives within twice the error rate)`);
  if (unknown) parts.push(`${fmt(unknown)} have a false-positive rate within twice the error rate by their bits, their keys not counted (“audit each filter” reads the index)`);
  return `No filter is over-filled or has a high false-positive rate: ${parts.join('; ')}.`;
}

/** The folder's health lines: the outliers listed, or one line saying none was found. `rows`: fleet.js's. */
export function healthLines(rows) {
  const judged = rows.filter((r) => r.health);
  if (!judged.length) return [];
  const out = judged.filter((r) => r.health.state in WORDS).sort((a, b) => concern(b) - concern(a));
  if (!out.length) return [el('p', { class: 'muted small', 'data-testid': 'fleet-health', text: noneLine(judged) })];
  const more = out.length > SHOWN ? [el('p', { class: 'muted small', text: `… and ${fmt(out.length - SHOWN)} more.` })] : [];
  return [
    el('div', { class: 'fleet-health', 'data-testid': 'fleet-health' },
      el('p', {}, el('b', { text: fmt(out.length) }), ` of ${fmt(judged.length)} filters ${out.length === 1 ? 'is' : 'are'} over-filled or ${out.length === 1 ? 'has' : 'have'} a high false-positive rate:`),
      el('ul', {}, ...out.slice(0, SHOWN).map(item)), ...more),
  ];
}

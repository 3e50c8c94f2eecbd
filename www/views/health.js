// The filter's health gauge, above the heat-map and before any sentence: the fill it has against
// the fill its m and k were sized for, and fill^k against the writer's error rate — the core's
// bloomInfo().health (src/health.rs), drawn, never recomputed here.
import { $, el } from '../shared/dom.js';
import { fmt, pct } from '../shared/format.js';

/** Each state's badge class and words. */
const STATES = {
  healthy: ['ok', 'Healthy', 'holds no more keys than its m and k were sized for'],
  over_filled: ['warn', 'Over-filled', 'the index lists more keys than its m and k were sized for'],
  high_fp: ['warn', 'High false-positive rate', 'fill^k is more than twice the error rate'],
  unknown: ['info', 'Within its design by the fill', 'the keys it holds are not known until the index is read'],
};

/** One bar: `now` against `design` on a 0..1 scale, the design as a tick. */
function meter(label, now, design, words, over) {
  // Widths through the CSSOM: the page's CSP allows no style attributes.
  const fill = el('span', { class: 'gauge-now' });
  fill.style.width = `${Math.min(100, now * 100)}%`;
  const tick = el('span', { class: 'gauge-design' });
  tick.style.left = `${Math.min(100, design * 100)}%`;
  const bar = el('span', { class: `gauge-bar${over ? ' over' : ''}`, 'aria-hidden': 'true' }, fill, tick);
  return el('div', { class: 'gauge-row' }, el('span', { class: 'gauge-label', text: label }), bar, el('span', { class: 'gauge-text', text: words }));
}

/** Shows `b.health` (bloomInfo()) in #health; hidden without one. */
export function renderHealth(b) {
  const box = $('health');
  const h = b.present ? b.health : null;
  box.hidden = !h;
  if (!h) {
    delete box.dataset.state;
    return box.replaceChildren();
  }
  const [cls, word, why] = STATES[h.state];
  const fpp = b.fppFromFill;
  Object.assign(box.dataset, { state: h.state, fill: b.fillRatio, designFill: h.designFill, fpp, errorRate: h.errorRate, sizedFor: h.sizedForItems });
  const holds = b.indexedItems != null ? `holds ${fmt(b.indexedItems)} keys` : 'keys held not known yet';
  box.replaceChildren(
    el('p', { class: 'gauge-head' }, el('span', { class: `badge ${cls}`, 'data-testid': 'health-state', text: word }), el('span', { class: 'muted small', text: ` ${why}.` })),
    meter('Fill', b.fillRatio, h.designFill, `${pct(b.fillRatio)} now · ${pct(h.designFill)} sized for (${fmt(h.sizedForItems)} keys; ${holds})`, b.fillRatio > h.designFill),
    meter('False positives', fpp, h.errorRate, `${pct(fpp)} now (fill^k) · ${pct(h.errorRate)} error rate`, h.state === 'high_fp'),
  );
}

/** The gauge's state in words, '' when it shows none (the PNG's caption). */
export const healthWord = () => STATES[$('health').dataset.state]?.[1] ?? '';

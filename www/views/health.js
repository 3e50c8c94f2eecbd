// The filter's health, above the heat-map and before any sentence: its state, the fill it has
// against the fill its m and k were sized for, and fill^k against the writer's error rate — the
// core's bloomInfo().health (src/health.rs), said, never recomputed here.
import { $, el } from '../shared/dom.js';
import { fmt, pct } from '../shared/format.js';

/** Each state's badge class and words. */
const STATES = {
  healthy: ['ok', 'Healthy', 'holds no more keys than its m and k were sized for'],
  over_filled: ['warn', 'Over-filled', 'the index lists more keys than its m and k were sized for'],
  high_fp: ['warn', 'High false-positive rate', 'fill^k is more than twice the error rate'],
  unknown: ['info', 'Within its design by the fill', 'the keys it holds are not known until the index is read'],
};

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
  const figures = `Fill ${pct(b.fillRatio)} now, ${pct(h.designFill)} sized for (${fmt(h.sizedForItems)} keys; ${holds}); false positives ${pct(fpp)} now (fill^k), ${pct(h.errorRate)} error rate.`;
  box.replaceChildren(el('span', { class: `badge ${cls}`, 'data-testid': 'health-state', text: word }), ` ${why}. `, el('span', { class: 'muted', text: figures }));
}

/** The health state in words, '' when none is shown (the PNG's caption). */
export const healthWord = () => STATES[$('health').dataset.state]?.[1] ?? '';

// A claim's measurements as a chart: one line per measured rate, its point and 95 % interval on
// a log scale of probability, the formula's value marked beside it where the demonstration has
// one (its "formula p" column). Drawn from the demonstration the core returned (teach.claim); the
// numbers themselves stay in the table under the chart.
import { svg } from '../../shared/dom.js';
import { decade } from './numbers.js';

const W = 360;
const L = 8;
const R = 12;
const ROW = 30;

/** A row's label cut to fit the chart's width (the whole of it is the row's <title>). */
const fit = (s) => (s.length > 58 ? `${s.slice(0, 57)}…` : s);

/** Every measured rate of demonstration `d`: `{label, rate, formula}` (formula: null when the row has none). */
export function chartPoints(d) {
  const formulaCol = d.columns.indexOf('formula p');
  const rates = d.columns.map((_, i) => i).filter((i) => d.rows.some((r) => r[i]?.type === 'rate'));
  return d.rows.flatMap((row) => {
    const label = row.filter((c) => c.type === 'text').map((c) => c.text).join(' · ');
    const formula = formulaCol >= 0 && row[formulaCol]?.type === 'percent' ? row[formulaCol].value : null;
    return rates
      .filter((i) => row[i]?.type === 'rate' && row[i].rate.trials > 0)
      .map((i) => ({ label: rates.length > 1 ? `${label} — ${d.columns[i]}` : label, rate: row[i].rate, formula }));
  });
}

/** The log scale's decades covering `points` (a rate of 0 sits on the floor, said "0"). */
function decades(points) {
  const values = points.flatMap((p) => [p.rate.low, p.rate.high, p.formula ?? 1]).filter((v) => v > 0);
  const lo = Math.max(-6, Math.floor(Math.log10(Math.min(...values, 0.5))));
  return { lo, hi: 0 };
}

/** The `<svg>` chart of demonstration `d`, or null when it measured no rate. */
export function claimChart(d) {
  const points = chartPoints(d);
  if (!points.length) return null;
  const { lo, hi } = decades(points);
  const H = 40 + points.length * ROW;
  const x = (v) => L + ((Math.log10(Math.max(v, 10 ** lo)) - lo) / (hi - lo)) * (W - L - R);
  const host = svg('svg', { class: 'claim-chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'data-testid': `claim-${d.claim}-chart` });
  for (let e = lo; e <= hi; e++) {
    host.append(svg('line', { x1: x(10 ** e), x2: x(10 ** e), y1: 4, y2: H - 34, class: 'c-grid' }));
    host.append(svg('text', { x: x(10 ** e), y: H - 4, 'text-anchor': e === hi ? 'end' : e === lo ? 'start' : 'middle', class: 'c-tick' }, decade(e)));
  }
  points.forEach((p, i) => {
    const y = 8 + i * ROW;
    const cy = y + 16;
    const label = svg('text', { x: L, y: y + 4, class: 'c-tick' }, fit(p.label));
    label.append(svg('title', {}, p.label));
    host.append(label);
    host.append(svg('line', { x1: x(p.rate.low), x2: x(p.rate.high), y1: cy, y2: cy, class: 'ch-ci' }));
    if (p.formula != null) host.append(svg('path', { d: `M${x(p.formula)},${cy - 6}l5,6l-5,6l-5,-6z`, class: 'ch-formula', 'data-formula': p.formula }));
    host.append(svg('circle', { cx: x(p.rate.rate), cy, r: 4, class: 'ch-point', 'data-rate': p.rate.rate, 'data-low': p.rate.low, 'data-high': p.rate.high }));
  });
  const withFormula = points.some((p) => p.formula != null);
  host.append(svg('text', { x: L, y: H - 22, class: 'c-tick' }, `● measured, the line its 95 % interval${withFormula ? ' · ◇ the formula' : ''}`));
  host.setAttribute('aria-label', `Claim ${d.claim}: ${points.length} measured rate${points.length === 1 ? '' : 's'}, each a dot on its 95 % interval${withFormula ? ', the formula’s value a diamond beside it' : ''}, on a log scale of false positives; the numbers are in the table below.`);
  return host;
}

// A claim's measurements as a chart, drawn from the demonstration the core returned
// (teach.claim); the numbers themselves stay in the table under the chart. A claim whose rows run
// along a parameter (its `curve`: k or n) plots the formula's curve over it, the core's points,
// with each measurement and its 95 % interval on it; any other plots one line per measured rate,
// its point and interval on a log scale, the formula's value marked beside it where the row has
// one (its "formula p" column).
import { svg } from '../../shared/dom.js';
import { fmt } from '../../shared/format.js';
import { decade } from './numbers.js';
import { drawAtWidth } from './width.js';

const L = 8;
const R = 12;
const ROW = 30;
/** A 12 px label's average character width (style.css: .claim-chart .c-tick), for fitting text. */
const CHAR = 7;
const LINE = 16;

/** A row's label cut to fit `width` px (the whole of it is the row's <title>). */
const fit = (s, width) => {
  const max = Math.floor(width / CHAR);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};

/** The ticks of `ticks` (ascending) whose labels do not run into the one before at scale `x`. */
function spaced(ticks, x, label) {
  let right = -Infinity;
  return ticks.filter((t) => {
    const half = (label(t).length * CHAR) / 2;
    if (x(t) - half < right + 6) return false;
    right = x(t) + half;
    return true;
  });
}

/** The legend's lines under the plot, from `top` down, one a line so that a phone's width holds them. */
const legend = (host, top, lines) => lines.forEach((t, i) => host.append(svg('text', { x: L, y: top + LINE * i, class: 'c-tick' }, t)));

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

/** The x axis's ticks: every measured k or bits_per_key, or five evenly spaced n. */
const xTicks = (c, top) => (c.axis === 'n' ? [0, 1, 2, 3, 4].map((i) => Math.round((top * i) / 4)) : c.measured.map((p) => p.x));

/** What each curve's x axis is. */
const AXES = { k: 'k, the number of hashes', n: 'n, the keys added', bits_per_key: 'bits_per_key, LevelDB’s setting' };

/** Draws the formula's curve over `d.curve`'s parameter, the measurements on it with their intervals, `W` px wide. */
function drawCurveChart(host, d, W) {
  const c = d.curve;
  const [CH, CL, CB] = [214, 54, 64];
  const top = Math.max(...c.formula.map(([x]) => x), ...c.measured.map((p) => p.x));
  const left = c.axis === 'k' ? 1 : 0;
  // The scale is the measurements'; the formula below its floor is left out, not drawn flat on it.
  const { lo, hi } = decades(c.measured.map((p) => ({ rate: p.rate, formula: null })));
  const x = (v) => CL + ((v - left) / Math.max(top - left, 1)) * (W - CL - R);
  const y = (p) => 8 + (1 - (Math.log10(Math.max(p, 10 ** lo)) - lo) / (hi - lo)) * (CH - CB - 8);
  host.replaceChildren();
  host.setAttribute('viewBox', `0 0 ${W} ${CH}`);
  for (let e = lo; e <= hi; e++) host.append(svg('line', { x1: CL, x2: W - R, y1: y(10 ** e), y2: y(10 ** e), class: 'c-grid' }), svg('text', { x: CL - 4, y: y(10 ** e) + 4, 'text-anchor': 'end', class: 'c-tick' }, decade(e)));
  for (const t of spaced(xTicks(c, top), x, fmt)) host.append(svg('text', { x: x(t), y: CH - CB + 16, 'text-anchor': 'middle', class: 'c-tick' }, fmt(t)));
  const line = c.formula.filter(([, f]) => f >= 10 ** lo).map(([a, f], i) => `${i ? 'L' : 'M'}${x(a).toFixed(1)},${y(f).toFixed(1)}`).join('');
  host.append(svg('path', { d: line, class: 'ch-curve' }));
  for (const p of c.measured) {
    host.append(svg('line', { x1: x(p.x), x2: x(p.x), y1: y(p.rate.low), y2: y(p.rate.high), class: 'ch-ci' }));
    host.append(svg('circle', { cx: x(p.x), cy: y(p.rate.rate), r: 4, class: 'ch-point', 'data-x': p.x, 'data-rate': p.rate.rate, 'data-low': p.rate.low, 'data-high': p.rate.high }));
  }
  host.append(svg('text', { x: (CL + W - R) / 2, y: CH - CB + 32, 'text-anchor': 'middle', class: 'c-tick' }, AXES[c.axis]));
  legend(host, CH - CB + 32 + LINE, ['● measured, the line its 95 % interval', '— the formula']);
}

/** Draws one line per measured rate in `points`, its point and interval on a log scale, `W` px wide. */
function drawRates(host, points, W) {
  const { lo, hi } = decades(points);
  const withFormula = points.some((p) => p.formula != null);
  const bottom = 8 + points.length * ROW;
  const H = bottom + 16 + LINE * (withFormula ? 2 : 1);
  const x = (v) => L + ((Math.log10(Math.max(v, 10 ** lo)) - lo) / (hi - lo)) * (W - L - R);
  host.replaceChildren();
  host.setAttribute('viewBox', `0 0 ${W} ${H}`);
  const labelled = spaced(Array.from({ length: hi - lo + 1 }, (_, i) => lo + i), (e) => x(10 ** e), decade);
  for (let e = lo; e <= hi; e++) {
    host.append(svg('line', { x1: x(10 ** e), x2: x(10 ** e), y1: 4, y2: bottom, class: 'c-grid' }));
    if (labelled.includes(e)) host.append(svg('text', { x: x(10 ** e), y: bottom + 12, 'text-anchor': e === hi ? 'end' : e === lo ? 'start' : 'middle', class: 'c-tick' }, decade(e)));
  }
  points.forEach((p, i) => {
    const y = 8 + i * ROW;
    const cy = y + 16;
    const label = svg('text', { x: L, y: y + 4, class: 'c-tick' }, fit(p.label, W - L - R));
    label.append(svg('title', {}, p.label));
    host.append(label);
    host.append(svg('line', { x1: x(p.rate.low), x2: x(p.rate.high), y1: cy, y2: cy, class: 'ch-ci' }));
    if (p.formula != null) host.append(svg('path', { d: `M${x(p.formula)},${cy - 6}l5,6l-5,6l-5,-6z`, class: 'ch-formula', 'data-formula': p.formula }));
    host.append(svg('circle', { cx: x(p.rate.rate), cy, r: 4, class: 'ch-point', 'data-rate': p.rate.rate, 'data-low': p.rate.low, 'data-high': p.rate.high }));
  });
  legend(host, bottom + 12 + LINE, ['● measured, the line its 95 % interval', ...(withFormula ? ['◇ the formula'] : [])]);
}

/** The `<svg>` chart of demonstration `d`, drawn at its width, or null when it measured no rate. */
export function claimChart(d) {
  const c = d.curve;
  const points = c ? null : chartPoints(d);
  if (points && !points.length) return null;
  const host = svg('svg', { class: 'claim-chart', role: 'img', 'data-testid': `claim-${d.claim}-chart`, ...(c ? { 'data-axis': c.axis } : {}) });
  if (c) {
    host.setAttribute('aria-label', `Claim ${d.claim}: the formula’s false-positive rate as a curve over ${AXES[c.axis]}, with ${c.measured.length} measured rates on it, each a dot on its 95 % interval, on a log scale; the numbers are in the table below.`);
    drawAtWidth(host, (W) => drawCurveChart(host, d, W), 360);
  } else {
    const withFormula = points.some((p) => p.formula != null);
    host.setAttribute('aria-label', `Claim ${d.claim}: ${points.length} measured rate${points.length === 1 ? '' : 's'}, each a dot on its 95 % interval${withFormula ? ', the formula’s value a diamond beside it' : ''}, on a log scale of false positives; the numbers are in the table below.`);
    drawAtWidth(host, (W) => drawRates(host, points, W), 360);
  }
  return host;
}

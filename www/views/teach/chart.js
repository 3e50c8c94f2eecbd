// The lesson's charts. One curve chart (drawCurve): the formula's false-positive rate over k or
// n on a log scale, with marks and points on it; the sandbox draws its own two with it.
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

/** The lowest decade of the log scale covering `points` up to 10^0 (a rate of 0 sits on the floor, said "0"). */
function lowDecade(points) {
  const values = points.flatMap((p) => [p.rate.low, p.rate.high, p.formula ?? 1]).filter((v) => v > 0);
  return Math.max(-6, Math.floor(Math.log10(Math.min(...values, 0.5))));
}

/** Five evenly spaced ticks from 0 to `top`. */
export const fifths = (top) => [0, 1, 2, 3, 4].map((i) => Math.round((top * i) / 4));

/** What each curve's x axis is. */
const AXES = { k: 'k, the number of hashes', n: 'n, the keys added', bits_per_key: 'bits_per_key, LevelDB’s setting' };

/**
 * Draws a curve chart `W` px wide into `host`: the formula's `line` ([x, p] pairs, in `lineClass`, c-curve unless given)
 * against x from `x0`, on a log scale of false positives down to the decade of `lowest` (the
 * line below it left out, not drawn flat on it); dashed `marks` (`{x, text, ...attrs}`), `points`
 * (`{x, p, r, cls, text?, low?, high?, ...attrs}`, an interval drawn as a line through its point),
 * TsFile's `cap` on k shaded beyond, the x axis's `ticks` and `label`, and `legend` lines under it.
 */
export function drawCurve(host, W, { line, lineClass = 'c-curve', x0, lowest, ticks, label, marks = [], points = [], cap = null, legend: lines = [] }) {
  const [T, CL, BOTTOM] = [8, 54, 150];
  const H = BOTTOM + 40 + LINE * lines.length;
  const lo = Math.max(-12, Math.min(-1, Math.floor(Math.log10(lowest > 0 ? lowest : 1e-12))));
  const top = Math.max(...line.map(([v]) => v), ...points.map((q) => q.x));
  const x = (v) => CL + ((v - x0) / Math.max(top - x0, 1)) * (W - CL - R);
  const y = (p) => T + (Math.log10(Math.max(p, 10 ** lo)) / lo) * (BOTTOM - T);
  host.replaceChildren();
  host.setAttribute('viewBox', `0 0 ${W} ${H}`);
  for (let e = 0; e >= lo; e -= Math.ceil(-lo / 6)) host.append(svg('line', { x1: CL, x2: W - R, y1: y(10 ** e), y2: y(10 ** e), class: 'c-grid' }), svg('text', { x: CL - 4, y: y(10 ** e) + 4, 'text-anchor': 'end', class: 'c-tick' }, decade(e)));
  for (const t of spaced(ticks, x, fmt)) host.append(svg('text', { x: x(t), y: BOTTOM + 16, 'text-anchor': 'middle', class: 'c-tick' }, fmt(t)));
  host.append(svg('text', { x: (CL + W - R) / 2, y: BOTTOM + 32, 'text-anchor': 'middle', class: 'c-tick' }, label));
  if (cap != null && cap < top) host.append(svg('rect', { x: x(cap), y: T, width: W - R - x(cap), height: BOTTOM - T, class: 'c-cap' }), svg('text', { x: W - R - 4, y: BOTTOM - 6, 'text-anchor': 'end', class: 'c-tick' }, W - R - x(cap) > 120 ? `TsFile allows k ≤ ${cap}` : `k ≤ ${cap}`));
  // A gap where the formula falls below the scale's floor.
  const path = line.map(([a, p], i) => (p < 10 ** lo ? '' : `${i && line[i - 1][1] >= 10 ** lo ? 'L' : 'M'}${x(a).toFixed(1)},${y(p).toFixed(1)}`));
  host.append(svg('path', { d: path.join(''), class: lineClass }));
  const side = (at) => (at < W * 0.6 ? { dx: 6, anchor: 'start' } : { dx: -6, anchor: 'end' });
  for (const { x: at, text, ...attrs } of marks) {
    host.append(svg('line', { x1: x(at), x2: x(at), y1: T, y2: BOTTOM, class: 'c-opt', ...attrs }));
    host.append(svg('text', { x: x(at) + side(x(at)).dx, y: BOTTOM - 6, 'text-anchor': side(x(at)).anchor, class: 'c-opt-label' }, text));
  }
  for (const { x: at, p, r, cls, text, low, high, ...attrs } of points) {
    if (low != null) host.append(svg('line', { x1: x(at), x2: x(at), y1: y(low), y2: y(high), class: 'ch-ci' }));
    host.append(svg('circle', { cx: x(at), cy: y(p), r, class: cls, ...attrs }));
    // Above its point, below one at the top (the marks' labels are at the bottom).
    if (text) host.append(svg('text', { x: x(at) + 2 * side(x(at)).dx, y: y(p) + (y(p) < T + 24 ? 20 : -10), 'text-anchor': side(x(at)).anchor, class: 'c-point-label' }, text));
  }
  legend(host, BOTTOM + 48, lines);
}

/** A claim's curve `c`: the formula over its parameter, each measurement on it with its interval. */
function drawClaimCurve(host, c, W) {
  drawCurve(host, W, {
    line: c.formula,
    lineClass: 'ch-curve',
    x0: c.axis === 'k' ? 1 : 0,
    lowest: Math.min(...c.measured.map((q) => q.rate.low).filter((v) => v > 0), 0.5),
    ticks: c.axis === 'n' ? fifths(Math.max(...c.formula.map(([v]) => v))) : c.measured.map((q) => q.x),
    label: AXES[c.axis],
    points: c.measured.map(({ x, rate: m }) => ({ x, p: m.rate, low: m.low, high: m.high, r: 4, cls: 'ch-point', 'data-x': x, 'data-rate': m.rate, 'data-low': m.low, 'data-high': m.high })),
    legend: ['● measured, the line its 95 % interval', '— the formula'],
  });
}

/** Draws one line per measured rate in `points`, its point and interval on a log scale, `W` px wide. */
function drawRates(host, points, W) {
  const lo = lowDecade(points);
  const withFormula = points.some((p) => p.formula != null);
  const bottom = 8 + points.length * ROW;
  const H = bottom + 16 + LINE * (withFormula ? 2 : 1);
  const x = (v) => L + ((Math.log10(Math.max(v, 10 ** lo)) - lo) / -lo) * (W - L - R);
  host.replaceChildren();
  host.setAttribute('viewBox', `0 0 ${W} ${H}`);
  const labelled = spaced(Array.from({ length: 1 - lo }, (_, i) => lo + i), (e) => x(10 ** e), decade);
  for (let e = lo; e <= 0; e++) {
    host.append(svg('line', { x1: x(10 ** e), x2: x(10 ** e), y1: 4, y2: bottom, class: 'c-grid' }));
    if (labelled.includes(e)) host.append(svg('text', { x: x(10 ** e), y: bottom + 12, 'text-anchor': e === 0 ? 'end' : e === lo ? 'start' : 'middle', class: 'c-tick' }, decade(e)));
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
    drawAtWidth(host, (W) => drawClaimCurve(host, c, W), 360);
  } else {
    const withFormula = points.some((p) => p.formula != null);
    host.setAttribute('aria-label', `Claim ${d.claim}: ${points.length} measured rate${points.length === 1 ? '' : 's'}, each a dot on its 95 % interval${withFormula ? ', the formula’s value a diamond beside it' : ''}, on a log scale of false positives; the numbers are in the table below.`);
    drawAtWidth(host, (W) => drawRates(host, points, W), 360);
  }
  return host;
}

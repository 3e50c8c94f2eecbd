// The false-positive curve: FPP against k on a log scale (SVG), through the formula's values at
// each whole k. The figures come from the worker (teach.fpCurve: the package's formula); this
// module only draws them.
import { svg } from '../../shared/dom.js';
import { fmt } from '../../shared/format.js';
import { about, decade, pct } from './numbers.js';
import { drawAtWidth } from './width.js';

/** The formula at a whole k (1 ≤ k ≤ 32). */
export const fppAt = (c, k) => c.samples[Math.max(1, Math.min(c.samples.length, Math.round(k))) - 1];

/** The lowest FPP at a whole k ≤ kMax: `{k, fpp}`. */
function bestUpTo(c, kMax) {
  let best = { k: 1, fpp: c.samples[0] };
  for (let k = 2; k <= kMax && k <= c.samples.length; k++) if (c.samples[k - 1] < best.fpp) best = { k, fpp: c.samples[k - 1] };
  return best;
}

/**
 * Draws curve `c` (`{n, m, k, kStar, fpp, samples}`) into `host` (an <svg>) at its width: the
 * optimum k* and the point (k, FPP) marked, and (TsFile) the region beyond the 8-seed cap `kCap`
 * shaded.
 */
export function drawCurve(host, c, options = {}) {
  drawAtWidth(host, (W) => drawCurveAt(host, c, options, W), 520);
}

/** drawCurve, `W` px wide. */
function drawCurveAt(host, c, { kCap = null, label = 'k' }, W) {
  host.replaceChildren();
  const H = 250;
  const L = 58;
  const R = 14;
  const T = 16;
  const B = 40;
  host.setAttribute('viewBox', `0 0 ${W} ${H}`);
  const { n, m, k, kStar } = c;
  if (!c.samples) {
    host.append(svg('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle', class: 'c-note' }, 'No items: every probe says absent.'));
    host.setAttribute('aria-label', 'False-positive curve: no items.');
    return;
  }
  const kMax = Math.max(8, Math.min(kCap ? 16 : 32, Math.ceil(Math.max(k, kStar) * 1.6) + 1));
  const best = bestUpTo(c, kMax);
  const minF = Math.min(best.fpp, c.fpp, c.samples[0]);
  let lo = Math.floor(Math.log10(Math.max(minF, 1e-300)));
  lo = Math.max(lo, -15);
  if (lo > -1) lo = -1;
  const x = (kk) => L + ((kk - 1) / (kMax - 1)) * (W - L - R);
  const y = (f) => T + ((0 - Math.log10(Math.max(f, 10 ** lo))) / (0 - lo)) * (H - T - B);
  host.append(svg('title', {}, `False-positive probability against ${label}`));
  // grid + y axis (powers of ten)
  const stepY = lo < -8 ? 2 : 1;
  for (let e = 0; e >= lo; e -= stepY) {
    host.append(svg('line', { x1: L, x2: W - R, y1: y(10 ** e), y2: y(10 ** e), class: 'c-grid' }));
    host.append(svg('text', { x: L - 6, y: y(10 ** e) + 4, 'text-anchor': 'end', class: 'c-tick' }, e === 0 ? '1' : decade(e)));
  }
  if (lo >= -2) {
    // one or two decades: label 2× and 5× too
    for (let e = -1; e >= lo; e--) {
      for (const f of [5, 2]) {
        const v = f * 10 ** e;
        host.append(svg('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'c-grid minor' }));
        host.append(svg('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'c-tick' }, `${+(v * 100).toPrecision(2)}%`));
      }
    }
  }
  const stepX = kMax > 20 ? 4 : kMax > 12 ? 2 : 1;
  for (let kk = 1; kk <= kMax; kk += kk === 1 && stepX > 1 ? stepX - 1 : stepX) {
    host.append(svg('line', { x1: x(kk), x2: x(kk), y1: H - B, y2: H - B + 4, class: 'c-axis' }));
    host.append(svg('text', { x: x(kk), y: H - B + 16, 'text-anchor': 'middle', class: 'c-tick' }, String(kk)));
  }
  host.append(svg('line', { x1: L, x2: W - R, y1: H - B, y2: H - B, class: 'c-axis' }));
  host.append(svg('line', { x1: L, x2: L, y1: T, y2: H - B, class: 'c-axis' }));
  host.append(svg('text', { x: (L + W - R) / 2, y: H - 6, 'text-anchor': 'middle', class: 'c-label' }, `${label} (hash functions per key)`));
  host.append(svg('text', { x: 12, y: (T + H - B) / 2, 'text-anchor': 'middle', class: 'c-label', transform: `rotate(-90 12 ${(T + H - B) / 2})` }, 'false positives (log)'));
  if (kCap && kCap < kMax) {
    host.append(svg('rect', { x: x(kCap), y: T, width: W - R - x(kCap), height: H - B - T, class: 'c-cap' }));
    const roomy = W - R - x(kCap) > 120;
    host.append(svg('text', { x: roomy ? x(kCap) + 6 : W - R - 4, y: T + 14, 'text-anchor': roomy ? 'start' : 'end', class: 'c-tick' }, roomy ? `TsFile allows k ≤ ${kCap}` : `k ≤ ${kCap}`));
  }
  // the curve through each whole k up to kMax
  let d = '';
  let pen = false;
  for (let kk = 1; kk <= kMax && kk <= c.samples.length; kk++) {
    const f = c.samples[kk - 1];
    if (f < 10 ** lo) {
      pen = false; // below the chart's floor: leave a gap rather than a flat line
      continue;
    }
    d += `${pen ? 'L' : 'M'}${x(kk).toFixed(1)},${y(f).toFixed(1)}`;
    pen = true;
  }
  host.append(svg('path', { d, class: 'c-curve' }));
  // k*
  if (kStar <= kMax) {
    host.append(svg('line', { x1: x(kStar), x2: x(kStar), y1: T, y2: H - B, class: 'c-opt', 'data-k-star': kStar.toFixed(3) }));
    // The formula beside k* where a side has room for it (~140 px), the bare value on a phone.
    const [roomRight, roomLeft] = [W - R - x(kStar), x(kStar) - L];
    const text = Math.max(roomRight, roomLeft) > 150 ? `k* = (m/n)·ln 2 = ${about(kStar)}` : `k* = ${about(kStar)}`;
    const right = roomRight > 150 || (roomRight > 70 && roomLeft <= 150);
    host.append(svg('text', { x: x(kStar) + (right ? 5 : -5), y: H - B - 8, 'text-anchor': right ? 'start' : 'end', class: 'c-opt-label' }, text));
  } else {
    host.append(svg('text', { x: W - R - 4, y: H - B - 8, 'text-anchor': 'end', class: 'c-opt-label' }, `best k ≈ ${Math.round(kStar)}: far right, off this chart`));
  }
  // the point
  const px = x(Math.min(k, kMax));
  const py = y(c.fpp);
  host.append(svg('circle', { cx: px, cy: py, r: 6, class: 'c-point', 'data-k': k }));
  const right = px < W - 170;
  host.append(svg('text', { x: px + (right ? 10 : -10), y: py - 10, 'text-anchor': right ? 'start' : 'end', class: 'c-point-label' }, `k = ${k}: ${pct(c.fpp)}`));
  host.setAttribute(
    'aria-label',
    `False-positive probability against k for n = ${fmt(n)} items in m = ${fmt(m)} bits: ${pct(c.fpp)} at k = ${k}; the optimum k* = ${about(kStar)}; the best whole k here, ${best.k}, gives ${pct(best.fpp)}.`,
  );
}

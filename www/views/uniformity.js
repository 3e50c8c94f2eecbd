// Fill per block, for a filter whose bits are under MIN_CELL CSS px each at Fit (the 8-Mbit
// demo, a 100k-series file): the bits cut into equal runs, each run's fill drawn as a bar
// against the overall fill, over the map until the reader zooms, probes or presses the toggle.
// A view of the bits the page has, no rule of the format: a good hash spreads the keys evenly,
// so every block is near the overall fill; chance alone moves a block of B bits about
// 3·√(f(1−f)/B) (binomial), and a block past that is counted, never judged.
import { $ } from '../shared/dom.js';
import { fmt, pct } from '../shared/format.js';

/** Below this many CSS px per bit at Fit, the map is noise and the blocks are shown first. */
export const MIN_CELL = 3;
/** About this many blocks, each a whole number of bytes. */
const BLOCKS = 256;

const POPCOUNT = Uint8Array.from({ length: 256 }, (_, b) => b.toString(2).replace(/0/g, '').length);

/** Set bits per block: `{size, counts}`, runs of `size` bits (a multiple of 8; the last may be shorter). */
export function blockCounts(bits, m) {
  const size = Math.max(8, Math.ceil(m / BLOCKS / 8) * 8);
  const counts = new Uint32Array(Math.ceil(m / size));
  const bytes = Math.min(bits.length, Math.ceil(m / 8));
  for (let i = 0; i < bytes; i++) counts[Math.floor((i * 8) / size)] += POPCOUNT[bits[i]];
  return { size, counts };
}

/** The figures the caption states: overall fill, the blocks' range and the chance band. */
function figures(m, { size, counts }) {
  let set = 0;
  const fills = Array.from(counts, (c, j) => {
    set += c;
    return c / Math.min(size, m - j * size);
  });
  const fill = set / m;
  const band = 3 * Math.sqrt((fill * (1 - fill)) / size);
  const outside = fills.filter((f) => Math.abs(f - fill) > band).length;
  return { fills, fill, band, outside, min: Math.min(...fills), max: Math.max(...fills) };
}

/**
 * The bars on `canvas`: each block's fill above or below the overall fill (the line across), on
 * a scale that shows the chance band (shaded) and the farthest block; past the band in --warn.
 */
function drawBars(canvas, f) {
  const dpr = devicePixelRatio || 1;
  const r = canvas.getBoundingClientRect();
  canvas.width = Math.max(1, Math.round(r.width * dpr));
  canvas.height = Math.max(1, Math.round(r.height * dpr));
  const g = canvas.getContext('2d');
  const { width: W, height: H } = canvas;
  const reach = 1.25 * Math.max(f.band, f.max - f.fill, f.fill - f.min) || 0.01;
  const y = (v) => H / 2 - ((v - f.fill) / reach) * (H / 2);
  const w = W / f.fills.length;
  const cs = getComputedStyle(canvas);
  g.clearRect(0, 0, W, H);
  g.fillStyle = 'rgba(127,127,127,.3)';
  g.fillRect(0, y(f.fill + f.band), W, y(f.fill - f.band) - y(f.fill + f.band));
  f.fills.forEach((v, j) => {
    g.fillStyle = cs.getPropertyValue(Math.abs(v - f.fill) > f.band ? '--warn' : '--ok');
    g.fillRect(j * w, Math.min(y(v), H / 2), Math.max(1, w - (w > 3 ? 1 : 0)), Math.max(dpr, Math.abs(y(v) - H / 2)));
  });
  g.fillStyle = cs.color;
  g.fillRect(0, H / 2 - dpr / 2, W, dpr);
  g.font = `${11 * dpr}px system-ui, sans-serif`;
  g.textBaseline = 'top';
  g.fillText(`${pct(f.fill + reach)}`, 4 * dpr, 4 * dpr);
  g.textBaseline = 'bottom';
  g.fillText(`${pct(Math.max(0, f.fill - reach))}`, 4 * dpr, H - 4 * dpr);
}

/** What the chart shows, in words: the caption and the chart's label. */
function words(m, size, f) {
  const chance = f.outside
    ? `${fmt(f.outside)} ${f.outside === 1 ? 'block strays' : 'blocks stray'} past chance's ±${pct(f.band)} (shaded)`
    : `every block within chance's ±${pct(f.band)} (shaded)`;
  return `Fill per block (${fmt(f.fills.length)} of ${fmt(size)} bits): ${pct(f.min)} to ${pct(f.max)} against ${pct(f.fill)} overall; ${chance}. Uniform means each block near the overall fill (the line across): the hash spreads keys evenly. The ${fmt(m)} bits are under ${MIN_CELL} px each at Fit: “Blocks” toggles the bit map.`;
}

/** CSS px per bit at Fit: the map's grid keeps about its canvas's aspect ratio. */
function cellAtFit(m) {
  const r = $('heatmap').getBoundingClientRect();
  return Math.sqrt((r.width * r.height) / Math.max(1, m));
}

/**
 * The blocks view over `map` (the HeatMap): `show(on)`, `setData(bits, m)` (shown first when a
 * bit is under MIN_CELL px at Fit; the toggle hidden otherwise), `shown`.
 */
export function createUniformity(map) {
  const box = $('blocks');
  const chart = $('blocks-chart');
  const toggle = $('blocks-toggle');
  let data = null;
  const view = {
    shown: false,
    show(on) {
      view.shown = on && !!data;
      box.hidden = !view.shown;
      toggle.setAttribute('aria-pressed', String(view.shown));
      if (view.shown) drawBars(chart, data.f);
    },
    setData(bits, m) {
      const counts = bits && cellAtFit(m) < MIN_CELL ? blockCounts(bits, m) : null;
      data = counts && { ...counts, f: figures(m, counts) };
      toggle.hidden = !data;
      if (data) {
        const text = words(m, data.size, data.f);
        $('blocks-caption').textContent = text;
        chart.setAttribute('aria-label', text);
        Object.assign(box.dataset, { blockBits: data.size, counts: data.counts.join(','), outside: data.f.outside });
      }
      view.show(!!data);
    },
  };
  toggle.addEventListener('click', () => {
    map.fit();
    view.show(!view.shown);
  });
  new ResizeObserver(() => view.shown && drawBars(chart, data.f)).observe(chart);
  return view;
}

// The bit grid: a bit vector (LSB-first bytes) laid out row-major on `cols` columns and drawn on
// a canvas through a camera (scale in device pixels per bit, origin in grid cells). Zoomed out,
// each pixel shows the fill of the block of bits under it (a mip pyramid of fill ratios keeps a
// frame O(pixels)); zoomed in, one square cell per bit, with gaps once cells are large.
// Highlights (probed bits) are rings in their seed colour, dashed where the bit is clear.
// One component for every bit picture on the page: the inspector's heat-map (views/heatmap.js
// adds zoom and pan), the teaching sandbox and the LevelDB filter strip.

/** The smallest ring around a highlighted bit, in CSS px. */
const RING_MIN = 16;

export class BitGrid {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d', { alpha: false });
    this.bits = null;
    this.bitCount = 0;
    this.cols = 1;
    this.rows = 1;
    this.mips = [];
    this.view = { s: 1, ox: 0, oy: 0 };
    this.highlights = []; // [{bit, color, set, fill?: alpha, grow?: CSS px}]
    this.cursor = null; // keyboard cursor bit
    this.hover = null;
    this.dirty = false;
    this.theme();
  }

  /** Colours from CSS custom properties (#rrggbb): --map-clear, --map-set, --map-bg (also the gaps between large cells), --map-mid. */
  theme() {
    const cs = getComputedStyle(this.canvas);
    const rgb = (name, fallback) => parseColor(cs.getPropertyValue(name).trim() || fallback);
    this.colors = { clear: rgb('--map-clear', '#1d2430'), set: rgb('--map-set', '#ffb000'), bg: rgb('--map-bg', '#0d1117'), mid: rgb('--map-mid', '#c0392b') };
    // 256-entry ramp: clear → mid → set (ABGR words for a little-endian Uint32 view).
    const lut = new Uint32Array(257);
    const { clear, mid, set } = this.colors;
    for (let i = 0; i <= 256; i++) {
      const t = i / 256;
      const [a, b, u] = t < 0.5 ? [clear, mid, t * 2] : [mid, set, (t - 0.5) * 2];
      lut[i] = packABGR(a.map((c, j) => Math.round(c + (b[j] - c) * u)));
    }
    this.lut = lut;
    this.bgWord = packABGR(this.colors.bg);
  }

  /** New bits (`bitCount` of them) on `cols` columns; null clears. */
  setBits(bits, bitCount, cols = this.cols) {
    this.bits = bits;
    this.bitCount = bits ? bitCount : 0;
    this.cols = Math.max(1, cols);
    this.rows = Math.max(1, Math.ceil(this.bitCount / this.cols));
    this.mips = bits ? buildMips(bits, this.bitCount, this.cols, this.rows) : [];
  }

  /**
   * A fixed layout: `cols` columns of `cell` CSS px per bit, the canvas sized to the grid (the
   * sandbox and the LevelDB strip; the heat-map moves its camera instead).
   */
  layoutCells(cols, cell) {
    const dpr = devicePixelRatio || 1;
    if (this.bits) this.setBits(this.bits, this.bitCount, cols);
    else this.cols = cols;
    this.canvas.style.width = `${this.cols * cell}px`;
    this.canvas.style.height = `${this.rows * cell}px`;
    this.canvas.width = Math.max(1, Math.round(this.cols * cell * dpr));
    this.canvas.height = Math.max(1, Math.round(this.rows * cell * dpr));
    this.view = { s: cell * dpr, ox: 0, oy: 0 };
  }

  /** The ramp's colour for a fill in 0..1, as CSS: the same palette as the map's blocks. */
  colorOf(fill) {
    const w = this.lut[Math.round(Math.min(1, Math.max(0, fill)) * 256)];
    return `rgb(${w & 255},${(w >> 8) & 255},${(w >> 16) & 255})`;
  }

  bit(i) {
    return (this.bits[i >> 3] >> (i & 7)) & 1;
  }

  setHighlights(list) {
    this.highlights = list;
    this.redraw();
  }

  gridAt(px, py) {
    return { gx: this.view.ox + px / this.view.s, gy: this.view.oy + py / this.view.s };
  }

  /** The bit under canvas pixel (px, py), or null. */
  bitAt(px, py) {
    const { gx, gy } = this.gridAt(px, py);
    const x = Math.floor(gx);
    const y = Math.floor(gy);
    if (x < 0 || y < 0 || x >= this.cols || y >= this.rows) return null;
    const i = y * this.cols + x;
    return i < this.bitCount ? i : null;
  }

  /** A pointer event's place in canvas pixels: `[px, py]`. */
  pixelsOf(ev) {
    const r = this.canvas.getBoundingClientRect();
    return [((ev.clientX - r.left) / r.width) * this.canvas.width, ((ev.clientY - r.top) / r.height) * this.canvas.height];
  }

  /** The bit under a pointer event (client coordinates), or null. */
  bitAtEvent(ev) {
    return this.bitAt(...this.pixelsOf(ev));
  }

  /**
   * Where a cursor key takes a keyboard cursor at bit `from`: the arrows by `step` bits or rows,
   * Home and End to the ends; null for another key. Every bit picture's keys.
   */
  cursorMove(key, from, step = 1) {
    const d = { ArrowLeft: -step, ArrowRight: step, ArrowUp: -step * this.cols, ArrowDown: step * this.cols, Home: -Infinity, End: Infinity }[key];
    return d === undefined ? null : Math.max(0, Math.min(this.bitCount - 1, from + d));
  }

  /** Bits per pixel side at the current zoom (1 when single bits are visible). */
  blockAt() {
    return this.view.s >= 1 ? 1 : 2 ** Math.ceil(Math.log2(1 / this.view.s));
  }

  /** Fill of the block of bits drawn at pixel (px, py) when zoomed out. */
  fillAt(px, py) {
    const L = Math.min(this.mips.length - 1, Math.log2(this.blockAt()));
    if (L <= 0) return null;
    const { gx, gy } = this.gridAt(px, py);
    const lv = this.mips[L];
    const x = Math.floor(gx / 2 ** L);
    const y = Math.floor(gy / 2 ** L);
    if (x < 0 || y < 0 || x >= lv.w || y >= lv.h) return null;
    return { fill: lv.fill[y * lv.w + x], side: 2 ** L };
  }

  redraw() {
    if (this.dirty) return;
    this.dirty = true;
    requestAnimationFrame(() => {
      this.dirty = false;
      this.draw();
    });
  }

  /** Draws the bits with `view` into an ImageData of W × H. */
  paint(W, H, view, img) {
    const out = new Uint32Array(img.data.buffer);
    out.fill(this.bgWord);
    if (!this.bits) return;
    const { s, ox, oy } = view;
    const C = this.cols;
    const m = this.bitCount;
    const lut = this.lut;
    const L = s >= 1 ? 0 : Math.min(this.mips.length - 1, Math.ceil(Math.log2(1 / s)));
    const size = 2 ** L;
    const gaps = L === 0 && s >= 6;
    // Per column / row: the cell index at level L (or -1 outside), and whether it is a gap.
    const lw = L === 0 ? C : this.mips[L].w;
    const lh = L === 0 ? this.rows : this.mips[L].h;
    const xs = new Int32Array(W);
    const xg = new Uint8Array(W);
    for (let px = 0; px < W; px++) {
      const g = ox + (px + 0.5) / s;
      const c = Math.floor(g / size);
      xs[px] = g < 0 || c >= lw ? -1 : c;
      if (gaps) xg[px] = (g - Math.floor(g)) * s < 1 ? 1 : 0;
    }
    for (let py = 0; py < H; py++) {
      const g = oy + (py + 0.5) / s;
      const r = Math.floor(g / size);
      if (g < 0 || r >= lh) continue;
      const rowGap = gaps && (g - Math.floor(g)) * s < 1;
      const o = py * W;
      if (L === 0) {
        const base = r * C;
        for (let px = 0; px < W; px++) {
          const c = xs[px];
          if (c < 0) continue;
          const i = base + c;
          if (i >= m) continue;
          if (rowGap || xg[px]) out[o + px] = this.bgWord;
          else out[o + px] = lut[((this.bits[i >> 3] >> (i & 7)) & 1) * 256];
        }
      } else {
        const fill = this.mips[L].fill;
        const base = r * lw;
        for (let px = 0; px < W; px++) {
          const c = xs[px];
          if (c < 0) continue;
          const f = fill[base + c];
          if (f === f) out[o + px] = lut[Math.round(f * 256)];
        }
      }
    }
  }

  /** Canvas rectangle `[x, y, side]` of bit i under the current view. */
  cellRect(i) {
    const v = this.view;
    return [((i % this.cols) - v.ox) * v.s, (Math.floor(i / this.cols) - v.oy) * v.s, v.s];
  }

  draw() {
    const { canvas, ctx } = this;
    const W = canvas.width;
    const H = canvas.height;
    if (!this.img || this.img.width !== W || this.img.height !== H) this.img = ctx.createImageData(W, H);
    this.paint(W, H, this.view, this.img);
    ctx.putImageData(this.img, 0, 0);
    if (!this.bits) return;
    const dpr = devicePixelRatio || 1;
    const v = this.view;
    // Bit numbers in cells when they are large enough.
    if (v.s >= 40 * dpr) {
      ctx.font = `${Math.round(10 * dpr)}px ui-monospace, monospace`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      const x0 = Math.max(0, Math.floor(v.ox));
      const y0 = Math.max(0, Math.floor(v.oy));
      const x1 = Math.min(this.cols, Math.ceil(v.ox + W / v.s));
      const y1 = Math.min(this.rows, Math.ceil(v.oy + H / v.s));
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          const i = y * this.cols + x;
          if (i >= this.bitCount) break;
          ctx.fillStyle = this.bit(i) ? 'rgba(0,0,0,.65)' : 'rgba(255,255,255,.45)';
          ctx.fillText(String(i), (x - v.ox + 0.5) * v.s, (y - v.oy + 0.5) * v.s);
        }
      }
    }
    for (const h of this.highlights) {
      if (h.bit >= this.bitCount) continue;
      if (h.fill > 0) {
        const [x, y, s] = this.cellRect(h.bit);
        ctx.globalAlpha = h.fill;
        ctx.fillStyle = h.color;
        ctx.fillRect(x, y, s, s);
        ctx.globalAlpha = 1;
      }
      this.ring(h.bit, h.color, 2.5, h.set === false, (h.grow ?? 0) * dpr);
    }
    if (this.cursor != null) this.ring(this.cursor, cursorColor(this.canvas), 1.5, true);
    if (this.hover != null && v.s >= 4) this.ring(this.hover, 'rgba(255,255,255,.7)', 1, false);
    ctx.setLineDash([]);
  }

  /**
   * Where the ring around bit i goes: `[x, y, side]` in canvas pixels, at least RING_MIN CSS
   * px across however small the cell (a bit at Fit zoom of a large filter is under a pixel).
   * A bit on screen keeps its whole ring, `margin` px of outline included, on the canvas: at an
   * edge (row 0, the last column) the ring moves inward, still around the bit, never cut.
   */
  ringBox(i, grow = 0, margin = 0) {
    const dpr = devicePixelRatio || 1;
    const [x, y, s] = this.cellRect(i);
    const pad = Math.max(grow, (RING_MIN * dpr - s) / 2);
    const side = s + 2 * pad;
    const { width: W, height: H } = this.canvas;
    const onScreen = x < W && y < H && x + s > 0 && y + s > 0;
    const inward = (at, size) => (onScreen && side + 2 * margin <= size ? Math.min(Math.max(at, margin), size - side - margin) : at);
    return [inward(x - pad, W), inward(y - pad, H), side];
  }

  /**
   * A ring around bit i (ringBox), in `color` between a dark outline and a light halo, so that
   * every seed colour — the blue and purple too — stands out on dark and light cells alike.
   */
  ring(i, color, width, dashed, grow = 0) {
    const { ctx } = this;
    const dpr = devicePixelRatio || 1;
    const w = width * dpr;
    // The outline drawn farthest out: 2w beyond the ring, half its width more.
    const [x, y, side] = this.ringBox(i, grow, 2.5 * w);
    ctx.setLineDash(dashed ? [4 * dpr, 3 * dpr] : []);
    ctx.lineWidth = w;
    ctx.strokeStyle = 'rgba(0,0,0,.85)';
    ctx.strokeRect(x - 2 * w, y - 2 * w, side + 4 * w, side + 4 * w);
    ctx.strokeStyle = 'rgba(255,255,255,.9)';
    ctx.strokeRect(x - w, y - w, side + 2 * w, side + 2 * w);
    ctx.strokeStyle = color;
    ctx.strokeRect(x, y, side, side);
  }
}

/** The ring of the keyboard cursor: the page's text colour where it sets one. */
function cursorColor(canvas) {
  return getComputedStyle(canvas).getPropertyValue('--cursor').trim() || '#ffffff';
}

// Level L: fill ratio of each 2^L × 2^L block (NaN where the block has no bits).
function buildMips(bits, m, C, R) {
  const mips = [null];
  const w = Math.ceil(C / 2);
  const h = Math.ceil(R / 2);
  // Level 1 from the bits: counts and valid cells, then ratio.
  const cnt = new Float32Array(w * h);
  const val = new Float32Array(w * h);
  for (let y = 0; y < R; y++) {
    const row = (y >> 1) * w;
    const base = y * C;
    const end = Math.min(C, m - base);
    for (let x = 0; x < end; x++) {
      const i = base + x;
      const j = row + (x >> 1);
      cnt[j] += (bits[i >> 3] >> (i & 7)) & 1;
      val[j] += 1;
    }
  }
  let level = { w, h, cnt, val, fill: ratio(cnt, val) };
  mips.push(level);
  while (level.w > 1 || level.h > 1) {
    const nw = Math.ceil(level.w / 2);
    const nh = Math.ceil(level.h / 2);
    const ncnt = new Float32Array(nw * nh);
    const nval = new Float32Array(nw * nh);
    for (let y = 0; y < level.h; y++) {
      for (let x = 0; x < level.w; x++) {
        const j = (y >> 1) * nw + (x >> 1);
        ncnt[j] += level.cnt[y * level.w + x];
        nval[j] += level.val[y * level.w + x];
      }
    }
    level.cnt = null; // keep only the ratios of finished levels
    level.val = null;
    level = { w: nw, h: nh, cnt: ncnt, val: nval, fill: ratio(ncnt, nval) };
    mips.push(level);
  }
  return mips;
}

function ratio(cnt, val) {
  const out = new Float32Array(cnt.length);
  for (let i = 0; i < cnt.length; i++) out[i] = val[i] ? cnt[i] / val[i] : NaN;
  return out;
}

function parseColor(text) {
  const m = /^#([0-9a-f]{6})$/i.exec(text);
  if (m) {
    const n = parseInt(m[1], 16);
    return [n >> 16, (n >> 8) & 255, n & 255];
  }
  return [128, 128, 128];
}

function packABGR([r, g, b]) {
  return ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
}

// The bit-vector heat-map: the filter's bits laid out row-major on a grid of `cols` columns,
// drawn on a canvas through a camera (scale in device pixels per bit, origin in grid cells).
// Zoomed out, each pixel shows the fill of the block of bits under it (a mip pyramid of
// fill ratios keeps every frame O(pixels)); zoomed in, one square cell per bit.

const MAX_CELL_CSS = 64; // largest zoom, CSS px per bit

export class HeatMap {
  constructor(canvas, minimap, { onhover, oncursor, onview } = {}) {
    this.canvas = canvas;
    this.minimap = minimap;
    this.ctx = canvas.getContext('2d', { alpha: false });
    this.mctx = minimap.getContext('2d', { alpha: false });
    this.onhover = onhover ?? (() => {});
    this.oncursor = oncursor ?? (() => {});
    this.onview = onview ?? (() => {});
    this.bits = null;
    this.bitCount = 0;
    this.cols = 1;
    this.rows = 1;
    this.mips = [];
    this.view = { s: 1, ox: 0, oy: 0 };
    this.highlights = [];
    this.cursor = null; // keyboard cursor bit
    this.hover = null;
    this.dirty = false;
    this.minimapBase = null;
    this.theme();
    this.#bind();
    new ResizeObserver(() => this.resize()).observe(canvas);
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
      this.theme();
      this.minimapBase = null;
      this.redraw();
    });
  }

  /** Colours from CSS custom properties: --map-clear, --map-set, --map-bg, --map-gap. */
  theme() {
    const cs = getComputedStyle(this.canvas);
    const rgb = (name, fallback) => parseColor(cs.getPropertyValue(name).trim() || fallback);
    this.colors = { clear: rgb('--map-clear', '#1d2430'), set: rgb('--map-set', '#ffb000'), bg: rgb('--map-bg', '#0d1117'), gap: rgb('--map-gap', '#0d1117'), mid: rgb('--map-mid', '#c0392b') };
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
    this.gapWord = packABGR(this.colors.gap);
  }

  /** New data: `bits` (LSB-first bytes) of `bitCount` bits. */
  setData(bits, bitCount) {
    this.bits = bits;
    this.bitCount = bitCount;
    this.highlights = [];
    this.cursor = null;
    this.hover = null;
    this.#layout(true);
  }

  clear() {
    this.bits = null;
    this.bitCount = 0;
    this.mips = [];
    this.redraw();
  }

  bit(i) {
    return (this.bits[i >> 3] >> (i & 7)) & 1;
  }

  setHighlights(list) {
    this.highlights = list;
    this.redraw();
  }

  // Columns so that the grid has about the canvas's aspect ratio (a multiple of 8 when large).
  #idealCols() {
    const W = Math.max(1, this.canvas.width);
    const H = Math.max(1, this.canvas.height);
    let c = Math.max(1, Math.round(Math.sqrt((this.bitCount * W) / H)));
    if (c >= 16) c = Math.round(c / 8) * 8;
    return Math.min(c, this.bitCount || 1);
  }

  #layout(force) {
    if (!this.bits) return;
    const c = this.#idealCols();
    if (!force && Math.abs(c - this.cols) / this.cols < 0.3) {
      this.#clampView();
      this.redraw();
      return;
    }
    this.cols = c;
    this.rows = Math.ceil(this.bitCount / c);
    this.#buildMips();
    this.minimapBase = null;
    this.fit();
  }

  // Level L: fill ratio of each 2^L × 2^L block (NaN where the block has no bits).
  #buildMips() {
    const C = this.cols;
    const R = this.rows;
    const m = this.bitCount;
    const mips = [null];
    let w = Math.ceil(C / 2);
    let h = Math.ceil(R / 2);
    // Level 1 from the bits: counts and valid cells, then ratio.
    let cnt = new Float32Array(w * h);
    let val = new Float32Array(w * h);
    for (let y = 0; y < R; y++) {
      const row = (y >> 1) * w;
      const base = y * C;
      const end = Math.min(C, m - base);
      for (let x = 0; x < end; x++) {
        const i = base + x;
        const j = row + (x >> 1);
        cnt[j] += (this.bits[i >> 3] >> (i & 7)) & 1;
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
    this.mips = mips;
  }

  resize() {
    const dpr = devicePixelRatio || 1;
    const r = this.canvas.getBoundingClientRect();
    const W = Math.max(1, Math.round(r.width * dpr));
    const H = Math.max(1, Math.round(r.height * dpr));
    if (W === this.canvas.width && H === this.canvas.height) return;
    // Keep the centre bit in the centre.
    const centre = this.bits ? this.#gridAt(this.canvas.width / 2, this.canvas.height / 2) : null;
    const ratio0 = this.bits ? this.view.s / this.fitScale() : 1;
    this.canvas.width = W;
    this.canvas.height = H;
    if (!this.bits) return this.redraw();
    const oldCols = this.cols;
    this.#layout(false);
    if (this.cols === oldCols && centre) {
      this.view.s = Math.max(this.fitScale(), this.fitScale() * ratio0);
      this.centerOn(centre.gx, centre.gy);
    }
  }

  fitScale() {
    return Math.min(this.canvas.width / this.cols, this.canvas.height / this.rows, this.maxScale());
  }

  maxScale() {
    return MAX_CELL_CSS * (devicePixelRatio || 1);
  }

  fit() {
    this.view.s = this.fitScale();
    this.#clampView();
    this.redraw();
  }

  #clampView() {
    const v = this.view;
    const W = this.canvas.width / v.s;
    const H = this.canvas.height / v.s;
    v.ox = W >= this.cols ? (this.cols - W) / 2 : Math.min(Math.max(0, v.ox), this.cols - W);
    v.oy = H >= this.rows ? (this.rows - H) / 2 : Math.min(Math.max(0, v.oy), this.rows - H);
  }

  centerOn(gx, gy) {
    const v = this.view;
    v.ox = gx - this.canvas.width / v.s / 2;
    v.oy = gy - this.canvas.height / v.s / 2;
    this.#clampView();
    this.redraw();
  }

  /** Zooms by `factor` keeping the grid point under canvas pixel (px, py) fixed. */
  zoomBy(factor, px = this.canvas.width / 2, py = this.canvas.height / 2) {
    const v = this.view;
    const gx = v.ox + px / v.s;
    const gy = v.oy + py / v.s;
    v.s = Math.min(this.maxScale(), Math.max(this.fitScale(), v.s * factor));
    v.ox = gx - px / v.s;
    v.oy = gy - py / v.s;
    this.#clampView();
    this.redraw();
  }

  /** Centres bit `i` at a zoom where single bits are visible (at least `cssCell` CSS px each). */
  zoomToBit(i, cssCell = 18) {
    if (!this.bits || i < 0 || i >= this.bitCount) return;
    const s = Math.min(this.maxScale(), Math.max(this.fitScale(), cssCell * (devicePixelRatio || 1)));
    this.view.s = Math.max(this.view.s, s);
    this.setCursor(i, false);
    this.centerOn((i % this.cols) + 0.5, Math.floor(i / this.cols) + 0.5);
  }

  setCursor(i, follow = true) {
    if (!this.bits) return;
    this.cursor = Math.min(this.bitCount - 1, Math.max(0, i));
    if (follow) this.#follow(this.cursor);
    this.redraw();
    this.oncursor(this.cursor);
  }

  // Pans just enough to keep bit i on screen.
  #follow(i) {
    const v = this.view;
    const x = i % this.cols;
    const y = Math.floor(i / this.cols);
    const W = this.canvas.width / v.s;
    const H = this.canvas.height / v.s;
    if (x < v.ox) v.ox = x;
    else if (x + 1 > v.ox + W) v.ox = x + 1 - W;
    if (y < v.oy) v.oy = y;
    else if (y + 1 > v.oy + H) v.oy = y + 1 - H;
    this.#clampView();
  }

  #gridAt(px, py) {
    return { gx: this.view.ox + px / this.view.s, gy: this.view.oy + py / this.view.s };
  }

  /** The bit under canvas pixel (px, py), or null. */
  bitAt(px, py) {
    const { gx, gy } = this.#gridAt(px, py);
    const x = Math.floor(gx);
    const y = Math.floor(gy);
    if (x < 0 || y < 0 || x >= this.cols || y >= this.rows) return null;
    const i = y * this.cols + x;
    return i < this.bitCount ? i : null;
  }

  /** Bits per pixel side at the current zoom (1 when single bits are visible). */
  blockAt() {
    return this.view.s >= 1 ? 1 : 2 ** Math.ceil(Math.log2(1 / this.view.s));
  }

  /** Fill of the block of bits drawn at pixel (px, py) when zoomed out. */
  fillAt(px, py) {
    const L = Math.min(this.mips.length - 1, Math.log2(this.blockAt()));
    if (L <= 0) return null;
    const { gx, gy } = this.#gridAt(px, py);
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

  /** Draws the bits with the current view into an ImageData of W × H. */
  #paint(W, H, view, img) {
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
          if (rowGap || xg[px]) out[o + px] = this.gapWord;
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

  draw() {
    const { canvas, ctx } = this;
    const W = canvas.width;
    const H = canvas.height;
    if (!this.img || this.img.width !== W || this.img.height !== H) this.img = ctx.createImageData(W, H);
    this.#paint(W, H, this.view, this.img);
    ctx.putImageData(this.img, 0, 0);
    if (!this.bits) return;
    const dpr = devicePixelRatio || 1;
    const v = this.view;
    const cellRect = (i) => {
      const x = (i % this.cols - v.ox) * v.s;
      const y = (Math.floor(i / this.cols) - v.oy) * v.s;
      return [x, y, v.s];
    };
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
    const ring = (i, color, width, dashed) => {
      const [x, y, s] = cellRect(i);
      const pad = Math.max(0, (9 * dpr - s) / 2); // at least a 9 px ring when zoomed out
      ctx.setLineDash(dashed ? [4 * dpr, 3 * dpr] : []);
      ctx.lineWidth = width * dpr;
      ctx.strokeStyle = 'rgba(0,0,0,.8)';
      ctx.strokeRect(x - pad - 1.5 * dpr, y - pad - 1.5 * dpr, s + 2 * pad + 3 * dpr, s + 2 * pad + 3 * dpr);
      ctx.strokeStyle = color;
      ctx.strokeRect(x - pad, y - pad, s + 2 * pad, s + 2 * pad);
    };
    for (const h of this.highlights) ring(h.bit, h.color, 2.5, !h.set);
    if (this.cursor != null) ring(this.cursor, '#ffffff', 1.5, true);
    if (this.hover != null && v.s >= 4) ring(this.hover, 'rgba(255,255,255,.7)', 1, false);
    ctx.setLineDash([]);
    this.#drawMinimap();
    this.onview(this.describe());
  }

  describe() {
    const block = this.blockAt();
    return { block, cols: this.cols, rows: this.rows, scale: this.view.s / (devicePixelRatio || 1), fit: this.view.s <= this.fitScale() + 1e-9 };
  }

  #drawMinimap() {
    const mm = this.minimap;
    const W = mm.width;
    const H = mm.height;
    const s = Math.min(W / this.cols, H / this.rows);
    const view = { s, ox: (this.cols - W / s) / 2, oy: (this.rows - H / s) / 2 };
    if (!this.minimapBase) {
      const img = this.mctx.createImageData(W, H);
      this.#paint(W, H, view, img);
      this.minimapBase = img;
    }
    this.minimapView = view;
    this.mctx.putImageData(this.minimapBase, 0, 0);
    const v = this.view;
    const x = (v.ox - view.ox) * s;
    const y = (v.oy - view.oy) * s;
    const w = (this.canvas.width / v.s) * s;
    const h = (this.canvas.height / v.s) * s;
    this.mctx.lineWidth = 2;
    this.mctx.strokeStyle = '#000';
    this.mctx.strokeRect(x - 1, y - 1, Math.max(3, w) + 2, Math.max(3, h) + 2);
    this.mctx.strokeStyle = '#fff';
    this.mctx.strokeRect(x, y, Math.max(3, w), Math.max(3, h));
    for (const hl of this.highlights) {
      this.mctx.fillStyle = hl.color;
      this.mctx.fillRect((hl.bit % this.cols - view.ox) * s - 2, (Math.floor(hl.bit / this.cols) - view.oy) * s - 2, 4, 4);
    }
  }

  #bind() {
    const c = this.canvas;
    const toPx = (ev) => {
      const r = c.getBoundingClientRect();
      return [((ev.clientX - r.left) / r.width) * c.width, ((ev.clientY - r.top) / r.height) * c.height];
    };
    c.addEventListener(
      'wheel',
      (ev) => {
        if (!this.bits) return;
        ev.preventDefault();
        const [px, py] = toPx(ev);
        const dy = ev.deltaMode === 1 ? ev.deltaY * 16 : ev.deltaY;
        this.zoomBy(Math.exp(-dy * 0.0025), px, py);
      },
      { passive: false },
    );
    let drag = null;
    c.addEventListener('pointerdown', (ev) => {
      if (!this.bits || ev.button !== 0) return;
      drag = { x: ev.clientX, y: ev.clientY, ox: this.view.ox, oy: this.view.oy, moved: false };
      c.setPointerCapture(ev.pointerId);
    });
    c.addEventListener('pointermove', (ev) => {
      if (!this.bits) return;
      const [px, py] = toPx(ev);
      if (drag) {
        const r = c.getBoundingClientRect();
        const k = c.width / r.width / this.view.s;
        const dx = ev.clientX - drag.x;
        const dy = ev.clientY - drag.y;
        if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
        this.view.ox = drag.ox - dx * k;
        this.view.oy = drag.oy - dy * k;
        this.#clampView();
        this.redraw();
      }
      const i = this.bitAt(px, py);
      if (i !== this.hover) {
        this.hover = i;
        this.redraw();
      }
      this.onhover(i, this.fillAt(px, py));
    });
    c.addEventListener('pointerup', (ev) => {
      if (drag && !drag.moved) {
        const [px, py] = toPx(ev);
        const i = this.bitAt(px, py);
        if (i != null) this.setCursor(i, false);
      }
      drag = null;
    });
    c.addEventListener('pointerleave', () => {
      this.hover = null;
      this.redraw();
      this.onhover(null, null);
    });
    c.addEventListener('keydown', (ev) => {
      if (!this.bits) return;
      const step = Math.max(1, this.blockAt());
      const cur = this.cursor ?? this.bitAt(c.width / 2, c.height / 2) ?? 0;
      const keys = {
        ArrowLeft: () => this.setCursor(cur - step),
        ArrowRight: () => this.setCursor(cur + step),
        ArrowUp: () => this.setCursor(cur - step * this.cols),
        ArrowDown: () => this.setCursor(cur + step * this.cols),
        Home: () => this.setCursor(0),
        End: () => this.setCursor(this.bitCount - 1),
        '+': () => this.zoomAround(cur, 1.5),
        '=': () => this.zoomAround(cur, 1.5),
        '-': () => this.zoomAround(cur, 1 / 1.5),
        0: () => this.fit(),
        Enter: () => this.zoomToBit(cur),
      };
      const fn = keys[ev.key];
      if (fn) {
        ev.preventDefault();
        fn();
      }
    });
    const mm = this.minimap;
    let mdrag = false;
    const jump = (ev) => {
      const r = mm.getBoundingClientRect();
      const mv = this.minimapView;
      if (!mv) return;
      const gx = mv.ox + (((ev.clientX - r.left) / r.width) * mm.width) / mv.s;
      const gy = mv.oy + (((ev.clientY - r.top) / r.height) * mm.height) / mv.s;
      this.centerOn(gx, gy);
    };
    mm.addEventListener('pointerdown', (ev) => {
      if (!this.bits) return;
      mdrag = true;
      mm.setPointerCapture(ev.pointerId);
      jump(ev);
    });
    mm.addEventListener('pointermove', (ev) => mdrag && jump(ev));
    mm.addEventListener('pointerup', () => (mdrag = false));
  }

  /** Zooms keeping bit `i` where it is on screen (or centred when off screen). */
  zoomAround(i, factor) {
    const v = this.view;
    const px = ((i % this.cols) + 0.5 - v.ox) * v.s;
    const py = (Math.floor(i / this.cols) + 0.5 - v.oy) * v.s;
    const on = px >= 0 && py >= 0 && px < this.canvas.width && py < this.canvas.height;
    this.zoomBy(factor, on ? px : undefined, on ? py : undefined);
  }

  /** The current view as a PNG Blob. */
  toBlob() {
    return new Promise((resolve) => this.canvas.toBlob(resolve, 'image/png'));
  }
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
  const r = /rgba?\(([^)]+)\)/.exec(text);
  if (r) return r[1].split(/[ ,/]+/).slice(0, 3).map(Number);
  return [128, 128, 128];
}

function packABGR([r, g, b]) {
  return ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
}

// The inspector's heat-map: the filter's bits on a BitGrid (shared/bitgrid.js) whose camera
// the reader moves: the buttons, keys, ctrl/⌘ + wheel (a trackpad's pinch) and a two-finger
// pinch zoom; drag pans; a tap or click puts the cursor on a bit; a plain wheel scrolls the page,
// never trapped by the map. The grid has about the canvas's aspect ratio; zoomed out, each pixel
// shows a block's fill.
import { BitGrid } from '../shared/bitgrid.js';
import { onSchemeChange } from '../shared/dom.js';
import { seedColor } from '../shared/format.js';

const MAX_CELL_CSS = 64; // largest zoom, CSS px per bit

export class HeatMap extends BitGrid {
  constructor(canvas, { onhover, oncursor, onview } = {}) {
    super(canvas);
    this.onhover = onhover ?? (() => {});
    this.oncursor = oncursor ?? (() => {});
    this.onview = onview ?? (() => {});
    this.#bindWheel();
    this.#bindPointer();
    this.#bindKeys();
    new ResizeObserver(() => this.resize()).observe(canvas);
    onSchemeChange(() => {
      this.theme();
      this.redraw();
    });
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
    this.setBits(null, 0);
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
    this.setBits(this.bits, this.bitCount, c);
    this.fit();
  }

  resize() {
    const dpr = devicePixelRatio || 1;
    const r = this.canvas.getBoundingClientRect();
    const W = Math.max(1, Math.round(r.width * dpr));
    const H = Math.max(1, Math.round(r.height * dpr));
    if (W === this.canvas.width && H === this.canvas.height) return;
    // Keep the centre bit in the centre.
    const centre = this.bits ? this.gridAt(this.canvas.width / 2, this.canvas.height / 2) : null;
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

  draw() {
    super.draw();
    if (this.bits) this.onview(this.describe());
  }

  describe() {
    const block = this.blockAt();
    return { block, cols: this.cols, zoom: this.view.s / this.fitScale(), fit: this.view.s <= this.fitScale() + 1e-9 };
  }

  /** A plain wheel is the page's; ctrl/⌘ + wheel (and a trackpad's pinch, which the browser sends as a ctrl + wheel) zooms the map. */
  #bindWheel() {
    this.canvas.addEventListener(
      'wheel',
      (ev) => {
        if (!this.bits || !(ev.ctrlKey || ev.metaKey)) return;
        ev.preventDefault();
        const [px, py] = this.pixelsOf(ev);
        const dy = ev.deltaMode === 1 ? ev.deltaY * 16 : ev.deltaY;
        this.zoomBy(Math.exp(-dy * 0.0025), px, py);
      },
      { passive: false },
    );
  }

  /** A drag pans, two fingers pinch-zoom, a click or tap puts the cursor on a bit, hovering names one. */
  #bindPointer() {
    const c = this.canvas;
    let drag = null;
    const pinch = new Pinch();
    c.addEventListener('pointerdown', (ev) => {
      if (!this.bits || ev.button !== 0) return;
      c.setPointerCapture(ev.pointerId);
      // A second finger turns the drag into a pinch.
      if (pinch.down(ev)) drag = null;
      else drag = { x: ev.clientX, y: ev.clientY, ox: this.view.ox, oy: this.view.oy, moved: false };
    });
    const lift = (ev) => pinch.up(ev);
    c.addEventListener('pointercancel', (ev) => {
      lift(ev);
      drag = null;
    });
    c.addEventListener('pointermove', (ev) => {
      if (!this.bits) return;
      const [px, py] = this.pixelsOf(ev);
      const zoom = pinch.move(ev);
      if (zoom) {
        const [mx, my] = this.pixelsOf(zoom.centre);
        this.zoomBy(zoom.factor, mx, my);
        return;
      }
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
      lift(ev);
      if (drag && !drag.moved) {
        const [px, py] = this.pixelsOf(ev);
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
  }

  /** Arrow keys move the cursor; + and − zoom around it, 0 fits, Enter zooms to it. */
  #bindKeys() {
    const c = this.canvas;
    c.addEventListener('keydown', (ev) => {
      if (!this.bits) return;
      const cur = this.cursor ?? this.bitAt(c.width / 2, c.height / 2) ?? 0;
      const to = this.cursorMove(ev.key, cur, Math.max(1, this.blockAt()));
      const keys = {
        '+': () => this.zoomAround(cur, 1.5),
        '=': () => this.zoomAround(cur, 1.5),
        '-': () => this.zoomAround(cur, 1 / 1.5),
        0: () => this.fit(),
        Enter: () => this.zoomToBit(cur),
      };
      const fn = to == null ? keys[ev.key] : () => this.setCursor(to);
      if (fn) {
        ev.preventDefault();
        fn();
      }
    });
  }

  /** Zooms keeping bit `i` where it is on screen (or centred when off screen). */
  zoomAround(i, factor) {
    const v = this.view;
    const px = ((i % this.cols) + 0.5 - v.ox) * v.s;
    const py = (Math.floor(i / this.cols) + 0.5 - v.oy) * v.s;
    const on = px >= 0 && py >= 0 && px < this.canvas.width && py < this.canvas.height;
    this.zoomBy(factor, on ? px : undefined, on ? py : undefined);
  }

  /** The current view with `lines` of caption and the legend drawn under it, as a PNG Blob. */
  toBlob(lines) {
    const out = captioned(this.canvas, lines, this.colorOf(1), this.colorOf(0));
    return new Promise((resolve) => out.toBlob(resolve, 'image/png'));
  }
}

/** A copy of `canvas` with the caption under it, in the page's colours (text wrapped to the width). */
function captioned(canvas, lines, set, clear) {
  const dpr = devicePixelRatio || 1;
  const pad = 10 * dpr;
  const lh = 18 * dpr;
  const out = document.createElement('canvas');
  const g = out.getContext('2d');
  const font = `${13 * dpr}px system-ui, sans-serif`;
  g.font = font;
  const wrapped = lines.flatMap((t) => wrap(g, t, canvas.width - 2 * pad));
  const keyRows = legend(g, pad, 0, lh, canvas.width - 2 * pad, null);
  out.width = canvas.width;
  out.height = canvas.height + 2 * pad + lh * (wrapped.length + keyRows);
  const page = getComputedStyle(document.body);
  g.fillStyle = page.backgroundColor;
  g.fillRect(0, 0, out.width, out.height);
  g.drawImage(canvas, 0, 0);
  g.font = font; // resizing the canvas reset it
  g.textBaseline = 'middle';
  g.fillStyle = page.color;
  wrapped.forEach((t, i) => g.fillText(t, pad, canvas.height + pad + lh * (i + 0.5)));
  legend(g, pad, canvas.height + pad + lh * wrapped.length, lh, out.width - 2 * pad, { set, clear, text: page.color });
  return out;
}

/** `text` cut at spaces into lines at most `width` px wide (a word wider than that on its own line). */
function wrap(g, text, width) {
  const out = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (line && g.measureText(next).width > width) {
      out.push(line);
      line = word;
    } else line = next;
  }
  return [...out, line];
}

/**
 * The map's legend from (x, y), rows of `lh` within `width`: set and clear swatches; a seed's
 * ring solid (set) and dashed (clear). Returns the rows it takes; `c` (colours) null: draws nothing.
 */
function legend(g, x, y, lh, width, c) {
  const side = lh * 0.6;
  const keys = [
    [(at, mid) => swatch(g, at, mid, side, c.set), 'set bit'],
    [(at, mid) => swatch(g, at, mid, side, c.clear), 'clear bit'],
    [(at, mid) => ring(g, at, mid, side, []), 'probed bit, set (seed colour)'],
    [(at, mid) => ring(g, at, mid, side, [3, 2.5]), 'probed bit, clear'],
  ];
  let at = x;
  let row = 0;
  for (const [draw, words] of keys) {
    const w = side + 6 + g.measureText(words).width + 16;
    if (at > x && at + w > x + width) [at, row] = [x, row + 1];
    const mid = y + lh * (row + 0.5);
    if (c) {
      draw(at, mid);
      g.fillStyle = c.text;
      g.fillText(words, at + side + 6, mid);
    }
    at += w;
  }
  return row + 1;
}

function swatch(g, x, mid, side, color) {
  g.fillStyle = color;
  g.fillRect(x, mid - side / 2, side, side);
}

function ring(g, x, mid, side, dash) {
  const dpr = devicePixelRatio || 1;
  g.setLineDash(dash.map((d) => d * dpr));
  g.lineWidth = 2 * dpr;
  g.strokeStyle = seedColor(0);
  g.strokeRect(x + dpr, mid - side / 2 + dpr, side - 2 * dpr, side - 2 * dpr);
  g.setLineDash([]);
}


/**
 * Two fingers on the map: `down` and `up` track the pointers (down says whether a pinch began),
 * `move` gives the zoom factor since the last move and the fingers' centre (client coordinates),
 * or null when fewer than two fingers are down.
 */
class Pinch {
  #at = new Map();

  down(ev) {
    this.#at.set(ev.pointerId, [ev.clientX, ev.clientY]);
    return this.#at.size === 2;
  }

  up(ev) {
    this.#at.delete(ev.pointerId);
  }

  move(ev) {
    if (this.#at.size !== 2 || !this.#at.has(ev.pointerId)) return null;
    const before = this.#spread();
    this.#at.set(ev.pointerId, [ev.clientX, ev.clientY]);
    const after = this.#spread();
    const [[ax, ay], [bx, by]] = this.#at.values();
    return { factor: before > 0 ? after / before : 1, centre: { clientX: (ax + bx) / 2, clientY: (ay + by) / 2 } };
  }

  #spread() {
    const [[ax, ay], [bx, by]] = this.#at.values();
    return Math.hypot(ax - bx, ay - by);
  }
}

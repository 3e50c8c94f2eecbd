// The sandbox's bit vector on a BitGrid: the probes of the last add or test pulsing into rings,
// the step-through's rings, a keyboard cursor, and the hover line naming the paths that set a bit
// (asked of the worker: teach.sandboxOwners).
import { BitGrid } from '../../shared/bitgrid.js';
import { $, onSchemeChange, reducedMotion } from '../../shared/dom.js';
import { fmt, seedColor } from '../../shared/format.js';

const FLASH_MS = 1600;
const label = (p, j) => (p.seed != null ? `seed ${p.seed}` : `probe ${j + 1}`);

/** The grid's columns and cell size for m bits in `width` px: about twice as wide as tall, 16–128 columns (a power of two), cells of 2–22 px. */
function geometry(m, width) {
  let cols = Math.max(16, Math.min(2 ** Math.ceil(Math.log2(Math.sqrt(Math.max(1, m) * 2))), 128));
  let cell = Math.floor(width / cols);
  while (cell < 4 && cols > 16) {
    cols /= 2;
    cell = Math.floor(width / cols);
  }
  return { cols, cell: Math.max(2, Math.min(cell, 22)) };
}

/** The highlights of flash `fl` at time `now`, and whether it still moves. */
function flashFrame(fl, now, cell) {
  if (fl?.kind === 'step') return { again: false, highlights: fl.probes.map((p) => ({ bit: p.bit, color: p.color, set: p.set, fill: p.set ? 0.85 : 0, grow: 0 })) };
  if (!fl) return { again: false, highlights: [] };
  const age = now - fl.t0;
  const still = reducedMotion.matches || age > FLASH_MS;
  const t = still ? 1 : age / FLASH_MS;
  // a pulse: the seed colour fills the cell, then settles into a ring around it
  const highlights = fl.probes.map((p) => ({
    bit: p.bit,
    color: p.color,
    set: fl.kind === 'test' ? p.set : true,
    fill: still ? (p.flipped === false || p.set === false ? 0 : 0.85) : 1 - 0.15 * t,
    grow: still ? 0 : (1 - t) * cell * 0.8,
  }));
  return { again: !still, highlights };
}

/**
 * Marks dropping onto `probes`' cells (a CSS animation over the canvas: `.sb-land`), so the eye
 * follows each hash to its bit; none under reduced motion, where the canvas rings say it alone.
 */
function land(grid, probes) {
  const layer = grid.canvas.parentElement.querySelector('.sb-land');
  if (!layer || reducedMotion.matches) return;
  const dpr = devicePixelRatio || 1;
  for (const p of probes) {
    const [x, y, s] = grid.cellRect(p.bit);
    const mark = document.createElement('span');
    mark.className = 'sb-drop';
    Object.assign(mark.style, { left: `${grid.canvas.offsetLeft + x / dpr}px`, top: `${grid.canvas.offsetTop + y / dpr}px`, width: `${s / dpr}px`, height: `${s / dpr}px`, background: p.color });
    mark.addEventListener('animationend', () => mark.remove());
    layer.append(mark);
  }
}

/** `box.view` (the worker's sandbox view) drawn on `#sb-grid`. Returns `{draw, flash(kind, probes), highlight(list)}`. */
export function createSandboxGrid(call, box) {
  const canvas = $('sb-grid');
  const grid = new BitGrid(canvas);
  let flash = null;
  let cursor = -1;
  let raf = 0;
  let cellSeq = 0;

  function draw() {
    if (!box.view) return;
    const { cols, cell } = geometry(box.view.m, Math.max(200, Math.floor(canvas.parentElement.clientWidth || 480)));
    grid.setBits(box.view.bits, box.view.m, cols);
    grid.layoutCells(cols, cell);
    canvas.dataset.cols = String(cols);
    if (cursor >= box.view.m) cursor = box.view.m - 1;
    const { again, highlights } = flashFrame(flash, performance.now(), cell);
    grid.highlights = highlights;
    grid.cursor = cursor >= 0 && document.activeElement === canvas ? cursor : null;
    grid.draw();
    canvas.setAttribute('aria-label', `Sandbox bit vector: ${fmt(box.view.m)} bits in rows of ${grid.cols}. Arrow keys move a cursor; the line below reads the bit under it.`);
    cancelAnimationFrame(raf);
    if (again) raf = requestAnimationFrame(draw);
  }

  /** The bit's state at once (from the drawn bits), then which paths set it (from the worker). */
  function describeCell(bit) {
    if (!box.view || bit < 0 || bit >= box.view.m) return;
    const on = (box.view.bits[bit >> 3] >> (bit & 7)) & 1;
    const head = `bit ${fmt(bit)}: ${on ? 'set' : 'clear'}`;
    $('sb-cell').textContent = head;
    const mine = ++cellSeq;
    call('teach.sandboxOwners', { bit }).then((r) => {
      if (mine !== cellSeq || !r.total) return;
      $('sb-cell').textContent = `${head} · set by ${r.paths.join(', ')}${r.total > r.paths.length ? ` (+${r.total - r.paths.length})` : ''}`;
    });
  }

  // A mouse reads as it moves; a finger where it taps.
  for (const type of ['pointermove', 'pointerdown']) {
    canvas.addEventListener(type, (ev) => {
      const b = grid.bitAtEvent(ev);
      if (b != null) describeCell(b);
    });
  }
  canvas.addEventListener('focus', () => {
    if (cursor < 0) cursor = flash?.probes[0]?.bit ?? 0;
    describeCell(cursor);
    draw();
  });
  canvas.addEventListener('blur', draw);
  canvas.addEventListener('keydown', (ev) => {
    const to = box.view ? grid.cursorMove(ev.key, Math.max(0, cursor)) : null;
    if (to == null) return;
    ev.preventDefault();
    cursor = to;
    describeCell(cursor);
    draw();
  });
  new ResizeObserver(() => draw()).observe(canvas.parentElement);
  onSchemeChange(() => {
    grid.theme();
    draw();
  });

  return {
    draw,
    /** Pulses `probes` of an 'add' or a 'test' (none: stops); returns them with their colours and labels. */
    flash(kind, probes = null) {
      flash = probes && { kind, t0: performance.now(), probes: probes.map((p, j) => ({ ...p, color: seedColor(j), label: label(p, j) })) };
      if (flash) land(grid, flash.probes);
      return flash?.probes;
    },
    /** Rings on the grid for the step-through: `[{bit, color, set}]` (empty: none). */
    highlight(list) {
      // the step just taken lands on its bit
      if (list.length > (flash?.kind === 'step' ? flash.probes.length : 0)) land(grid, list.slice(-1));
      flash = list.length ? { kind: 'step', t0: 0, probes: list } : flash?.kind === 'step' ? null : flash;
      draw();
    },
  };
}

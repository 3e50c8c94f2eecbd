// The LevelDB view: a dropped .ldb/.sst table's filter block as a strip of per-2 KiB
// filters, each a BitGrid of its real bits; probing a key routes it through the index to its
// data block and that block's filter, and marks the k double-hashing probes. The table is
// opened and probed in the page's worker ('leveldb.*' ops in www/worker/teach-ops.js); the LevelDB
// wasm module (26 KiB gz) is fetched there only when a table is opened.
import { TsFileBloomError } from '../pkg/js/errors.js';
import { isLevelDbFooter } from '../pkg/js/leveldb.js';
import { BitGrid } from '../shared/bitgrid.js';
import { $, el, pointWord } from '../shared/dom.js';
import { count, fmt, seedColor, sentence } from '../shared/format.js';

/** True when the Blob ends with LevelDB's table magic. */
export async function isLevelDbBlob(blob) {
  if (blob.size < 48) return false;
  return isLevelDbFooter(new Uint8Array(await blob.slice(blob.size - 8).arrayBuffer()));
}

/** One filter of the strip on a BitGrid: about twice as wide as tall, at most 160 px, the probes ringed. */
function drawFilter(canvas, bytes, probes = canvas.grid?.probes ?? []) {
  const bits = (bytes.length - 1) * 8;
  const cols = Math.max(8, Math.ceil(Math.sqrt(bits * 2)));
  const grid = (canvas.grid ??= new BitGrid(canvas));
  if (grid.bits !== bytes) {
    grid.setBits(bytes, bits, cols);
    grid.layoutCells(cols, Math.max(2, Math.min(8, Math.floor(160 / cols))));
  }
  grid.probes = probes;
  grid.highlights = probes.map((p) => ({ bit: p.bit, set: p.set, color: seedColor(0) }));
  grid.draw();
}

/** The bits_per_key values LevelDB gives a k: "9 or 10", "19 to 20", "44 or more" (`{values, more}`: the worker's, by the core's rule). */
function bitsPerKeyText({ values: bs, more } = { values: [] }) {
  if (!bs.length) return '?';
  if (more) return `${bs[0]} or more`;
  return bs.length === 1 ? String(bs[0]) : bs.length === 2 ? `${bs[0]} or ${bs[1]}` : `${bs[0]} to ${bs[bs.length - 1]}`;
}

/** The hover line: one bit of filter `f` (hovered, or the keyboard cursor), and whether the last probe hit it. */
function describe(f, bit) {
  const grid = $('ldb-strip').querySelector(`figure[data-index="${f.index}"] canvas`)?.grid;
  if (!grid || bit == null) return;
  const probed = (grid.probes ?? []).filter((p) => p.bit === bit).length;
  $('ldb-hover').textContent = `filter #${fmt(f.index)}, bit ${fmt(bit)} of ${fmt(f.bitCount)}: ${grid.bit(bit) ? 'set' : 'clear'}${probed ? ` · probed by the last key${probed > 1 ? ` (${probed} of its probes)` : ''}` : ''}`;
}

/** Filter `f`'s canvas (its `bytes` drawn), read by hovering or by a keyboard cursor. */
function filterCanvas(f, bytes) {
  const canvas = el('canvas', { role: 'img', tabindex: '0', 'aria-describedby': 'ldb-hover', 'aria-label': `filter ${f.index}: ${fmt(f.bitCount)} bits, k=${f.k}, ${fmt(f.setBits)} set; arrow keys move along its bits` });
  drawFilter(canvas, bytes);
  // A mouse reads as it moves; a finger where it taps.
  for (const type of ['pointermove', 'pointerdown']) canvas.addEventListener(type, (ev) => describe(f, canvas.grid.bitAtEvent(ev)));
  canvas.addEventListener('focus', () => {
    canvas.grid.cursor ??= 0;
    canvas.grid.draw();
    describe(f, canvas.grid.cursor);
  });
  canvas.addEventListener('blur', () => {
    canvas.grid.cursor = null;
    canvas.grid.draw();
  });
  canvas.addEventListener('keydown', (ev) => {
    const g = canvas.grid;
    const to = g.cursorMove(ev.key, g.cursor ?? 0);
    if (to == null) return;
    ev.preventDefault();
    g.cursor = to;
    g.draw();
    describe(f, g.cursor);
  });
  return canvas;
}

/** One filter of the strip: its canvas and caption, or "empty" for a window where no data block starts. */
function filterFigure(f, table) {
  const fig = el('figure', { class: `ldb-filter${f.length ? '' : ' empty'}`, 'data-testid': 'ldb-filter', 'data-index': String(f.index) });
  if (!f.length) {
    fig.append(el('div', { class: 'ldb-empty', text: 'empty' }), el('figcaption', { text: `#${fmt(f.index)} · no data block starts in this 2 KiB window` }));
    return fig;
  }
  const caption = `#${fmt(f.index)} · ${fmt(f.bitCount)} bits · k=${f.k} · ${((100 * f.setBits) / f.bitCount).toFixed(0)}% set · ${count(f.dataBlockOffsets.length, 'block')}`;
  fig.append(filterCanvas(f, table.filterBytes[f.index]), el('figcaption', { text: caption }));
  return fig;
}

function renderBlocks(table, highlight = null) {
  $('ldb-blocks').replaceChildren(
    ...table.dataBlocks.map((b) => {
      const span = el('span', { class: `ldb-block${b.index === highlight ? ' hit' : ''}`, title: `data block ${b.index}: offset ${b.offset}, ${b.size} bytes, filter #${b.filterIndex ?? '-'}` });
      span.style.flexGrow = String(Math.max(1, b.size));
      return span;
    }),
  );
}

/** The table's facts: its filter block, and the k its filters were written with. */
function renderFacts({ info, filters, dataBlocks, bitsPerKey }, name, size) {
  $('ldb-name').textContent = `${name} — ${fmt(size)} bytes, LevelDB table`;
  $('ldb-summary').textContent = info.filterPolicy
    ? `Filter policy ${info.filterPolicy}: ${count(filters.length, 'filter')} in a ${fmt(info.filterBlock.size)}-byte filter block at offset ${fmt(info.filterBlock.offset)}, one per ${fmt(2 ** info.baseLg)} bytes of data-block offsets; ${count(dataBlocks.length, 'data block')}; ${info.keyFormat} keys.`
    : `This table has no filter block (written without a filter policy): every point lookup reads a data block. ${count(dataBlocks.length, 'data block')}.`;
  // This table's own k (the last byte of each filter), and the bits_per_key that give it.
  const ks = [...new Set(filters.filter((f) => f.length).map((f) => f.k))];
  $('ldb-note').textContent = ks.length
    ? `This table's filters use k = ${ks.join(', ')}${ks.length === 1 ? '' : ' (they differ)'}: written with ${ks.map((k) => bitsPerKeyText(bitsPerKey[k])).join(' or ')} bits per key (LevelDB sets k = ⌊0.69 × bits_per_key⌋, at most 30). All k probes of a key come from one 32-bit hash (h, then h += h rotated right by 17), so small filters with a high k run above the textbook false-positive rate.`
    : '';
  $('ldb-hover').textContent = ks.length ? `${pointWord() === 'tap' ? 'Tap' : 'Hover'} or focus a filter (arrow keys) to read its bits.` : '';
}

/** The key box's key: its text, or with "hex" ticked the bytes its hex digits spell. */
function keyBytes() {
  const text = $('ldb-key-input').value;
  if (!$('ldb-hex').checked) return text;
  const hex = text.replace(/\s+/g, '');
  if (!/^([0-9a-fA-F]{2})*$/.test(hex)) throw new TsFileBloomError('invalid_argument', 'hex keys are pairs of hex digits', { argument: 'key' });
  return Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
}

/** A probe's answer `r` (LevelDbTable.probe's): the core's words, the block and filter it routed to, the probed bits ringed. */
function renderProbe(r, table) {
  // The words are the core's (ProbeReason::sentence).
  $('ldb-verdict').textContent =
    `${sentence(r.sentence)} BloomHash ${r.hash >>> 0}` + (r.blockIndex != null ? `; routed to data block ${r.blockIndex}${r.filterIndex != null ? ` and filter #${r.filterIndex}` : ''}` : '');
  renderBlocks(table, r.blockIndex ?? null);
  for (const fig of $('ldb-strip').children) {
    const i = Number(fig.dataset.index);
    const hit = i === r.filterIndex;
    fig.classList.toggle('hit', hit);
    const canvas = fig.querySelector('canvas');
    if (canvas) drawFilter(canvas, table.filterBytes[i], hit ? r.probes : []);
    if (hit) fig.scrollIntoView({ block: 'nearest', inline: 'center' });
  }
  $('ldb-probes').textContent = r.probes.length ? `probes (h, h + δ, h + 2δ, … with δ = h rotated right by 17): ${r.probes.map((p) => `${fmt(p.bit)} ${p.set ? 'set' : 'clear'}`).join(' · ')}` : '';
}

/** `worker`: the page's worker-client. Returns `{show, hide}`. */
export function createLevelDbView(worker) {
  let table = null; // what leveldb.open returned, while shown
  let probeSeq = 0;

  function hide() {
    probeSeq++;
    if (table) worker.call('leveldb.close').catch(() => {});
    table = null;
    $('leveldb').hidden = true;
  }

  /**
   * Shows a LevelDB table; errors are thrown to the caller (the page's error box). Returns false,
   * showing nothing, when `isStale()` says another file was opened while this one was read.
   */
  async function show(blob, name, isStale = () => false) {
    hide();
    const opened = await worker.call('leveldb.open', { blob });
    if (isStale()) return false;
    table = opened;
    renderFacts(table, name, blob.size);
    $('ldb-strip').replaceChildren(...table.filters.map((f) => filterFigure(f, table)));
    renderBlocks(table);
    $('ldb-verdict').textContent = '';
    $('ldb-probes').textContent = '';
    $('leveldb').hidden = false;
    return true;
  }

  async function probe() {
    if (!table) return;
    const mine = ++probeSeq;
    const shown = table;
    let r;
    try {
      r = await worker.call('leveldb.probe', { key: keyBytes() });
    } catch (e) {
      if (mine === probeSeq) $('ldb-verdict').textContent = `${e.kind ?? 'error'}: ${e.message}`;
      return;
    }
    if (mine === probeSeq && table === shown) renderProbe(r, table);
  }

  $('ldb-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    probe();
  });
  return { show, hide };
}

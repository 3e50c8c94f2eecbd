// The LevelDB view: a dropped .ldb/.sst table's filter block as a strip of per-2 KiB
// filters, each a mini heat-map of its real bits; probing a key routes it through the
// index to its data block and that block's filter, and marks the k double-hashing probes.
// LevelDB tables are a few MiB, so they are read whole on the main thread; the LevelDB
// wasm module (26 KiB gz) is fetched only when a table is opened.

import { openLevelDbTable, isLevelDbFooter } from '../pkg/js/leveldb.js';
import { BitGrid } from '../shared/bitgrid.js';
import { $ } from '../shared/dom.js';
import { fmt, seedColor } from '../shared/format.js';

let table = null;

/** True when the Blob ends with LevelDB's table magic. */
export async function isLevelDbBlob(blob) {
  if (blob.size < 48) return false;
  return isLevelDbFooter(new Uint8Array(await blob.slice(blob.size - 8).arrayBuffer()));
}

/** Closes the current table and hides the view. */
export function hideLevelDb() {
  table?.close();
  table = null;
  $('leveldb').hidden = true;
}

/** One filter of the strip on a BitGrid: about twice as wide as tall, at most 160 px, the probes ringed. */
function drawFilter(canvas, bytes, probes = []) {
  const bits = bytes ? (bytes.length - 1) * 8 : 0;
  const cols = Math.max(8, Math.ceil(Math.sqrt(bits * 2)));
  const grid = (canvas.grid ??= new BitGrid(canvas));
  grid.setBits(bytes, bits, cols);
  grid.layoutCells(cols, Math.max(2, Math.min(8, Math.floor(160 / cols))));
  grid.highlights = probes.map((p) => ({ bit: p.bit, set: p.set, color: seedColor(0) }));
  grid.draw();
}

function renderStrip() {
  const strip = $('ldb-strip');
  strip.replaceChildren(
    ...table.filters.map((f) => {
      const fig = document.createElement('figure');
      fig.className = 'ldb-filter';
      fig.dataset.testid = 'ldb-filter';
      fig.setAttribute('data-testid', 'ldb-filter');
      fig.dataset.index = String(f.index);
      const canvas = document.createElement('canvas');
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', `filter ${f.index}: ${f.length ? `${f.bitCount} bits, k=${f.k}, ${f.setBits} set` : 'empty'}`);
      drawFilter(canvas, f.length ? table.filterBytes(f.index) : null);
      const cap = document.createElement('figcaption');
      cap.textContent = f.length
        ? `#${f.index} · ${fmt(f.bitCount)} bits · k=${f.k} · ${((100 * f.setBits) / f.bitCount).toFixed(0)}% set · ${f.dataBlockOffsets.length} block${f.dataBlockOffsets.length === 1 ? '' : 's'}`
        : `#${f.index} · empty (no data block starts in this 2 KiB window)`;
      fig.append(canvas, cap);
      return fig;
    }),
  );
}

function renderBlocks(highlight = null) {
  const blocks = table.dataBlocks();
  $('ldb-blocks').replaceChildren(
    ...blocks.map((b) => {
      const span = document.createElement('span');
      span.className = 'ldb-block' + (b.index === highlight ? ' hit' : '');
      span.title = `data block ${b.index}: offset ${b.offset}, ${b.size} bytes, filter #${b.filterIndex ?? '-'}`;
      span.style.flexGrow = String(Math.max(1, b.size));
      return span;
    }),
  );
}

/**
 * Shows a LevelDB table; errors are thrown to the caller (the page's error box). Returns false,
 * showing nothing, when `isStale()` says another file was opened while this one was read.
 */
export async function showLevelDb(blob, name, isStale = () => false) {
  hideLevelDb();
  const opened = await openLevelDbTable(blob);
  if (isStale()) {
    opened.close();
    return false;
  }
  table = opened;
  const info = table.info;
  $('ldb-name').textContent = `${name} — ${fmt(blob.size)} bytes, LevelDB table`;
  $('ldb-summary').textContent = info.filterPolicy
    ? `Filter policy ${info.filterPolicy}: ${table.filters.length} filters in a ${fmt(info.filterBlock.size)}-byte filter block at ${fmt(info.filterBlock.offset)}, one per ${2 ** info.baseLg} bytes of data-block offsets; ${table.dataBlocks().length} data blocks; ${info.keyFormat} keys.`
    : `This table has no filter block (written without a filter policy): every point lookup reads a data block. ${table.dataBlocks().length} data blocks.`;
  renderStrip();
  renderBlocks();
  $('ldb-verdict').textContent = '';
  $('ldb-probes').textContent = '';
  $('leveldb').hidden = false;
  return true;
}

function keyBytes() {
  const text = $('ldb-key-input').value;
  if (!$('ldb-hex').checked) return text;
  const hex = text.replace(/\s+/g, '');
  if (!/^([0-9a-fA-F]{2})*$/.test(hex)) throw Object.assign(new Error('hex keys are pairs of hex digits'), { kind: 'invalid_argument', offset: 0 });
  return Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
}

function probe() {
  if (!table) return;
  let r;
  try {
    r = table.probe(keyBytes());
  } catch (e) {
    $('ldb-verdict').textContent = `${e.kind ?? 'error'}: ${e.message}`;
    return;
  }
  const words = {
    bits: r.verdict === 'absent' ? 'definitely absent: a probed bit is clear, so LevelDB skips reading the data block' : 'maybe present: every probed bit is set, so LevelDB reads the data block',
    empty_filter: 'definitely absent: the block’s filter is empty',
    reserved_k: 'maybe present: k > 30 is reserved, so LevelDB treats it as a match',
    past_last_block: 'definitely absent: the key sorts after the table’s last key, so no data block is read',
    no_filter: 'maybe present: the table has no filter, so LevelDB always reads the data block',
    filter_missing: 'maybe present: the block’s filter is missing, which LevelDB treats as a match',
  };
  const said = words[r.reason] ?? `${r.verdict} (${r.reason})`;
  $('ldb-verdict').textContent = `${said[0].toUpperCase()}${said.slice(1)}. BloomHash ${r.hash >>> 0}` +
    (r.blockIndex != null ? `; routed to data block ${r.blockIndex}${r.filterIndex != null ? ` and filter #${r.filterIndex}` : ''}` : '');
  renderBlocks(r.blockIndex ?? null);
  for (const fig of $('ldb-strip').children) {
    const i = Number(fig.dataset.index);
    const hit = i === r.filterIndex;
    fig.classList.toggle('hit', hit);
    const f = table.filters[i];
    drawFilter(fig.querySelector('canvas'), f.length ? table.filterBytes(i) : null, hit ? r.probes : []);
    if (hit) fig.scrollIntoView({ block: 'nearest', inline: 'center' });
  }
  $('ldb-probes').textContent = r.probes.length
    ? `probes (h, h + δ, h + 2δ, … with δ = h rotated right by 17): ${r.probes.map((p) => `${p.bit} ${p.set ? 'set' : 'clear'}`).join(' · ')}`
    : '';
}

$('ldb-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  probe();
});

// The inspector page: open a TsFile (only its tail is read), show its Bloom filter's
// real bits, and test paths seed by seed. Plain ES modules and a canvas.
import { openTsFile, CHARSETS } from './pkg/js/browser.js';

const $ = (id) => document.getElementById(id);
const SEED_COLORS = ['#e6194b', '#3cb44b', '#ffe119', '#4363d8', '#f58231', '#911eb4', '#46f0f0', '#f032e6'];
let current = null; // { file, bits, bitCount, series }
let highlight = [];

for (const cs of CHARSETS.slice(1)) $('charset').add(new Option(cs, cs));

function showError(e, partial = '') {
  const box = $('error');
  box.hidden = false;
  box.textContent = `${e.kind ?? 'error'}${e.offset != null ? ` at byte ${e.offset}` : ''}: ${e.message}${partial}`;
}

function fmtPct(x) {
  return x == null ? '–' : x < 1e-4 ? `${(x * 100).toExponential(2)}%` : `${(x * 100).toFixed(3)}%`;
}

async function load(blob, name) {
  $('error').hidden = true;
  if (current) await current.file.close();
  current = null;
  let file;
  try {
    file = await openTsFile(blob);
  } catch (e) {
    for (const id of ['summary', 'map', 'probe', 'series-section']) $(id).hidden = true;
    showError(e);
    return;
  }
  const indexError = await file.loadIndex();
  const { series } = await file.listing();
  const audit = await file.audit();
  const bloom = file.bloomInfo();
  const filter = file.bloomFilter;
  current = { file, bits: filter?.bits() ?? new Uint8Array(0), bitCount: filter?.bitCount ?? 0, series };
  $('file-name').textContent = `${name} — ${blob.size.toLocaleString()} bytes`;
  $('version').textContent = String(file.version);
  const m = file.metadata;
  $('metadata').textContent = `offset ${m.offset}, size ${m.size} bytes, meta_offset ${m.metaOffset}`;
  $('bit-count').textContent = filter ? String(filter.bitCount) : 'no filter';
  $('hash-function-count').textContent = filter ? String(filter.hashFunctionCount) : '–';
  $('byte-length').textContent = bloom.byte_length != null ? `${bloom.byte_length} (${bloom.encoding})` : bloom.encoding;
  $('set-bits').textContent = filter ? String(bloom.set_bits) : '–';
  $('fill').textContent = filter ? `${fmtPct(bloom.fill_ratio)} · n ≈ ${bloom.estimated_items.toFixed(1)}${bloom.indexed_items != null ? ` (index: ${bloom.indexed_items})` : ''}` : '–';
  $('fpp').textContent = filter ? `${fmtPct(bloom.fpp_formula)} by formula · ${fmtPct(bloom.fpp_from_fill)} from the fill` : '–';
  $('audit').textContent = audit ? audit.summary : `index unreadable: ${indexError?.message}`;
  $('tables').textContent = file.tableNames.filter(Boolean).join(', ') || '–';
  $('properties').textContent = file.properties.map((p) => `${p.key}=${p.value ?? (p.value_hex ? `0x${p.value_hex}` : 'null')}`).join(', ') || '–';
  if (indexError) showError(indexError, '\n(partial results shown)');
  $('series-count').textContent = `(${series.length})`;
  const list = $('paths');
  list.replaceChildren(...series.slice(0, 2000).map((s) => new Option(s.path)));
  renderSeries('');
  highlight = [];
  for (const id of ['summary', 'map', 'probe', 'series-section']) $(id).hidden = false;
  drawMap();
}

function renderSeries(filterText) {
  const items = current.series.filter((s) => s.path.includes(filterText)).slice(0, 1000);
  $('series').replaceChildren(
    ...items.map((s) => {
      const li = document.createElement('li');
      li.tabIndex = 0;
      li.textContent = `${s.path}  ${s.data_type}  ${s.maybe_present === false ? 'ABSENT' : 'maybe'}`;
      const go = () => {
        $('path-input').value = s.path;
        probe();
      };
      li.addEventListener('click', go);
      li.addEventListener('keydown', (ev) => ev.key === 'Enter' && go());
      return li;
    }),
  );
}

// Layout: one square cell per bit while they fit (at least 4 px each), else density
// colouring with several bits per pixel.
function layout(bitCount, width) {
  const cols = Math.min(width, Math.max(16, Math.ceil(Math.sqrt(bitCount * 4))));
  const cell = Math.floor(width / cols);
  if (cell >= 4) return { cols, cell, perCell: 1, rows: Math.ceil(bitCount / cols) };
  const perCell = Math.max(1, Math.ceil(bitCount / (width * 256)));
  return { cols: width, cell: 1, perCell, rows: Math.ceil(bitCount / perCell / width) };
}

function drawMap() {
  const canvas = $('heatmap');
  const { bits, bitCount } = current;
  const L = layout(bitCount, 1024);
  canvas.width = L.cols * L.cell;
  canvas.height = Math.max(1, L.rows * L.cell);
  const ctx = canvas.getContext('2d');
  const img = ctx.createImageData(L.cols, Math.max(1, L.rows));
  for (let c = 0; c * L.perCell < bitCount; c++) {
    let set = 0;
    const end = Math.min(bitCount, (c + 1) * L.perCell);
    for (let b = c * L.perCell; b < end; b++) set += (bits[b >> 3] >> (b & 7)) & 1;
    const v = Math.round((255 * set) / (end - c * L.perCell));
    const i = c * 4;
    img.data[i] = v;
    img.data[i + 1] = Math.round(v * 0.8);
    img.data[i + 2] = 60 + Math.round(v * 0.3);
    img.data[i + 3] = 255;
  }
  // Draw one pixel per cell, then scale up without smoothing.
  const small = new OffscreenCanvas(L.cols, Math.max(1, L.rows));
  small.getContext('2d').putImageData(img, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(small, 0, 0, canvas.width, canvas.height);
  for (const { bit, color } of highlight) {
    const c = Math.floor(bit / L.perCell);
    const x = (c % L.cols) * L.cell;
    const y = Math.floor(c / L.cols) * L.cell;
    ctx.strokeStyle = color;
    ctx.lineWidth = 3;
    ctx.strokeRect(x - 2, y - 2, L.cell + 4, L.cell + 4);
  }
  canvas.dataset.layout = JSON.stringify(L);
}

$('heatmap').addEventListener('mousemove', (ev) => {
  if (!current) return;
  const canvas = ev.currentTarget;
  const r = canvas.getBoundingClientRect();
  const L = JSON.parse(canvas.dataset.layout);
  const perCell = L.perCell;
  const x = Math.floor((((ev.clientX - r.left) / r.width) * canvas.width) / L.cell);
  const y = Math.floor((((ev.clientY - r.top) / r.height) * canvas.height) / L.cell);
  const bit = (y * L.cols + x) * perCell;
  if (bit >= current.bitCount) return;
  const state = (current.bits[bit >> 3] >> (bit & 7)) & 1;
  $('hover').textContent = perCell === 1 ? `bit ${bit}: ${state ? 'set' : 'clear'}` : `bits ${bit}–${bit + perCell - 1}`;
});

function probe() {
  if (!current) return;
  const path = $('path-input').value.trim();
  if (!path) return;
  let r;
  try {
    r = current.file.probe(path, { variant: $('variant').value || undefined, charset: $('charset').value || undefined });
  } catch (e) {
    showError(e);
    return;
  }
  $('verdict').textContent = `${r.verdict}: ${r.reason}${r.indexed === true ? ' — the index lists this series' : r.indexed === false ? ' — not in the index' : ''}`;
  highlight = r.probes.map((p, i) => ({ bit: p.bit, color: SEED_COLORS[i] }));
  $('probes').tBodies[0].replaceChildren(
    ...r.probes.map((p, i) => {
      const tr = document.createElement('tr');
      tr.dataset.testid = 'probe-row';
      tr.setAttribute('data-testid', 'probe-row');
      tr.style.color = SEED_COLORS[i];
      for (const v of [p.seed, p.hash32, p.bit, p.set ? 'set' : 'clear']) {
        const td = document.createElement('td');
        td.textContent = String(v);
        tr.append(td);
      }
      return tr;
    }),
  );
  drawMap();
}

$('probe-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  probe();
});
$('series-filter').addEventListener('input', (ev) => current && renderSeries(ev.target.value));
$('file-input').addEventListener('change', (ev) => {
  const f = ev.target.files[0];
  if (f) load(f, f.name);
});
$('sample').addEventListener('click', async () => {
  const res = await fetch('samples/sample.tsfile');
  load(await res.blob(), 'sample.tsfile (PyPI tsfile 2.5.0, table model, Unicode names)');
});
addEventListener('dragover', (ev) => {
  ev.preventDefault();
  document.body.classList.add('dragging');
});
addEventListener('dragleave', () => document.body.classList.remove('dragging'));
addEventListener('drop', (ev) => {
  ev.preventDefault();
  document.body.classList.remove('dragging');
  const f = ev.dataTransfer.files[0];
  if (f) load(f, f.name);
});
if (new URLSearchParams(location.search).has('sample')) $('sample').click();

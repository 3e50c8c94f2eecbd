// The inspector page. All TsFile work happens in a module Worker (pkg/js/worker.js): the main
// thread only draws. Plain ES modules and canvas; nothing is sent anywhere.
import { CHARSETS, VARIANTS, SEEDS } from './pkg/js/core.js';
import { createWorker } from './pkg/js/worker-client.js';
import { $, download } from './shared/dom.js';
import { fmt, pct, seedColor } from './shared/format.js';
import { VirtualList } from './shared/vlist.js';
import { HeatMap } from './views/heatmap.js';
import { isLevelDbBlob, showLevelDb, hideLevelDb } from './views/leveldb.js';
import { initTeach } from './teach.js';

let worker = createWorker();
worker.onerror = (e) => showError(e, 'The background worker failed; reload the page.');
const teach = initTeach(worker);

/** Everything known about the open file. */
let cur = null;
let loadSeq = 0;

// The JVM charsets a writer may have encoded paths in, as Java's Charset.forName names them, in
// the menu's order. A name the package does not know yet fails its probe with invalid_argument,
// which the page shows as a message; any charset the package adds later is offered too.
const MENU_CHARSETS = ['UTF-8', 'GBK', 'GB18030', 'Big5', 'x-windows-950', 'Shift_JIS', 'windows-31j', 'EUC-JP', 'EUC-KR', 'x-windows-949', 'windows-1252', 'ISO-8859-1'];

const VARIANT_LABELS = { java: 'java (sign-extended tail)', 'zero-extended': 'zero-extended (C++ 2.5)' };
for (const v of VARIANTS) $('variant').add(new Option(VARIANT_LABELS[v] ?? v, v));
for (const cs of MENU_CHARSETS.concat(CHARSETS.filter((c) => !MENU_CHARSETS.includes(c)))) $('charset').add(new Option(cs, cs));

// ---------------------------------------------------------------- errors and status

function showError(e, context = '', partial = '') {
  const box = $('error');
  box.hidden = false;
  box.replaceChildren();
  const h = document.createElement('strong');
  h.textContent = context || 'Error';
  const kind = document.createElement('code');
  kind.className = 'kind';
  kind.textContent = e?.kind ?? 'error';
  const p = document.createElement('p');
  p.append(h, ' ', kind);
  // A bad argument (an unknown charset, say) has no place in the file.
  if (e?.offset != null && e.kind !== 'invalid_argument') p.append(` at byte ${fmt(e.offset)}`);
  const msg = document.createElement('p');
  // The package's messages start with "kind at byte N: "; that is shown above already.
  msg.textContent = String(e?.message ?? e).replace(/^[a-z_]+ at byte \d+: /, '');
  box.append(p, msg);
  if (partial) {
    const q = document.createElement('p');
    q.className = 'muted';
    q.textContent = partial;
    box.append(q);
  }
}

function clearError() {
  $('error').hidden = true;
  $('error').replaceChildren();
}

function status(text) {
  $('status').textContent = text;
}

// ---------------------------------------------------------------- heat-map

const map = new HeatMap($('heatmap'), $('minimap'), {
  onhover: (bit, block) => (bit == null ? null : describeBit(bit, block)),
  oncursor: (bit) => describeBit(bit, null),
  onview: (d) => {
    $('map').classList.toggle('fit', d.fit);
    $('zoom-info').textContent = d.block > 1 ? `· 1 pixel ≈ ${d.block}×${d.block} bits` : `· 1 cell = 1 bit (${d.cols} per row)`;
  },
});

function provenanceOf(bit) {
  const p = cur?.prov;
  if (!p) return null;
  let lo = 0;
  let hi = p.bits.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (p.bits[mid] < bit) lo = mid + 1;
    else hi = mid;
  }
  const out = [];
  for (let i = lo; i < p.bits.length && p.bits[i] === bit; i++) out.push(p.items[i]);
  return out;
}

function pathOf(index) {
  const list = cur.provPaths;
  return list?.[index]?.path ?? `#${index}`;
}

const HOVER_HINT = $('hover').textContent;

function describeBit(bit, block) {
  if (!cur?.bits) return;
  const set = map.bit(bit);
  let text = `bit ${fmt(bit)} (row ${fmt(Math.floor(bit / map.cols))}, column ${fmt(bit % map.cols)}): ${set ? 'SET' : 'clear'}`;
  if (block && block.side > 1 && block.fill === block.fill) text += ` · this pixel: ${block.side}×${block.side} bits, ${(block.fill * 100).toFixed(0)}% set`;
  const setters = provenanceOf(bit);
  if (setters) {
    if (setters.length) {
      const names = setters.slice(0, 3).map(pathOf);
      text += ` · set by ${setters.length} path${setters.length > 1 ? 's' : ''}: ${names.join(', ')}${setters.length > 3 ? `, … (+${setters.length - 3})` : ''}`;
    } else if (set) text += ' · set by no indexed path (under the audited hash)';
  } else if (cur.provPending) text += ' · (computing which series set it…)';
  const hl = cur.highlights?.filter((h) => h.bit === bit) ?? [];
  if (hl.length) text += ` · probed by seed ${hl.map((h) => h.seed).join(', ')}`;
  $('hover').textContent = text;
}

$('zoom-in').addEventListener('click', () => map.zoomBy(2));
$('zoom-out').addEventListener('click', () => map.zoomBy(0.5));
$('zoom-fit').addEventListener('click', () => map.fit());
$('goto-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const i = Number($('goto').value);
  if (Number.isInteger(i) && cur?.bits && i >= 0 && i < cur.bitCount) map.zoomToBit(i);
});
$('export-png').addEventListener('click', async () => {
  const blob = await map.toBlob();
  if (blob) download(blob, `${baseName()}-bloom.png`);
});

function baseName() {
  return (cur?.name ?? 'tsfile').replace(/\.tsfile$/i, '').replace(/[^\w.-]+/g, '_').slice(0, 60) || 'tsfile';
}

// For tests and the console: the heat-map and the current file's state.
globalThis.inspector = { map, worker: () => worker, get current() { return cur; } };

// ---------------------------------------------------------------- loading

/**
 * Every view back to "no file": a load starts (and may fail, or turn out to be a LevelDB table),
 * so nothing may keep showing, or reading, the previous file's state — the series list's and
 * batch list's rows, the heat-map, the probe, a running batch, the teaching panel. The TsFile
 * panels stay laid out (dimmed while loading) until the new file turns out not to be one.
 */
function resetViews() {
  cur = null;
  map.clear();
  $('hover').textContent = HOVER_HINT;
  resetProbe();
  closeSuggestions();
  lowerPaths = null;
  seriesView = [];
  seriesList.setCount(0);
  resetBatch();
  teach.setFile(null);
  hideLevelDb();
}

async function load(blob, name, { synthetic = null } = {}) {
  const seq = ++loadSeq;
  // A later load (or a LevelDB table) took over: this one's answers are dropped.
  const stale = () => seq !== loadSeq;
  document.body.dataset.state = 'loading';
  clearError();
  resetViews();
  if (blob && (await isLevelDbBlob(blob))) {
    if (stale()) return;
    // A LevelDB table: its own view (js/leveldb.js, loaded on demand).
    $('content').hidden = true;
    try {
      if (!(await showLevelDb(blob, name, stale))) return;
      status(`${name}: LevelDB table.`);
      document.body.dataset.state = 'ready';
    } catch (e) {
      if (stale()) return;
      status('');
      showError(e, `${name} (${fmt(blob.size)} bytes) is not a readable LevelDB table:`, 'The page is ready for another file.');
      document.body.dataset.state = 'error';
    }
    return;
  }
  if (stale()) return;
  status(synthetic ? 'Building the filter…' : `Reading ${name}…`);
  let info;
  try {
    info = synthetic
      ? await worker.synthetic(synthetic, (p) => !stale() && status(`Building the filter: ${fmt(p.done)} of ${fmt(p.total)} paths added…`))
      : await worker.open(blob, name);
  } catch (e) {
    if (stale()) return;
    $('content').hidden = true;
    status('');
    const size = blob ? ` (${fmt(blob.size)} bytes)` : '';
    showError(e, `${name}${size} is not a readable TsFile:`, 'Nothing could be read from this file. The page is ready for another file.');
    document.body.dataset.state = 'error';
    return;
  }
  if (stale()) return;
  cur = { name: info.name ?? name, info, blob, bits: null, bitCount: 0, series: [], timeColumns: [], prov: null, provPending: true, audit: null, highlights: [] };
  renderSummary(info);
  $('content').hidden = false;
  // The filter's bits: first paint of the map right away.
  let bits = null;
  try {
    bits = await worker.bits();
  } catch (e) {
    if (stale()) return;
    showError(e, 'The filter could not be read:');
  }
  if (stale()) return;
  if (bits) {
    cur.bits = bits.bits;
    cur.bitCount = bits.bitCount;
    map.setData(bits.bits, bits.bitCount);
  } else map.clear();
  $('map').classList.toggle('empty', !bits);
  status(synthetic ? '' : 'Reading the metadata index and auditing the filter…');
  // Index, audit and series list (may be large: done in the worker).
  let audit = null;
  let indexError = null;
  try {
    ({ audit, indexError } = await worker.audit());
    const listing = await worker.series();
    if (stale()) return;
    cur.series = listing.series;
    cur.timeColumns = listing.time_columns;
    cur.audit = audit;
    indexError = indexError ?? listing.indexError;
  } catch (e) {
    indexError = e;
  }
  if (stale()) return;
  renderAudit(audit, info);
  renderSeries();
  if (indexError) {
    showError(
      indexError,
      "The file's metadata index could not be read:",
      `Partial results: the summary and the filter's bits come from TsFileMetadata, which was read. ${fmt(cur.series.length)} series were listed before the error; probes of this file answer “unknown” or “maybe” rather than a possibly unsound “absent”.`,
    );
  }
  status(synthetic ? `${cur.name}.` : `${cur.name}: ${fmt(cur.series.length)} series indexed${cur.timeColumns.length ? `, ${fmt(cur.timeColumns.length)} time columns` : ''}.`);
  // Per-bit provenance for the hover (after everything else is on screen).
  if (bits && (cur.series.length || synthetic)) {
    try {
      const prov = await worker.provenance();
      if (stale()) return;
      cur.prov = prov;
      cur.provPaths = prov && prov.timeColumns && !synthetic ? cur.series.concat(cur.timeColumns) : cur.series;
    } catch (e) {
      if (stale()) return;
      console.warn('provenance unavailable:', e.message);
    }
  }
  cur.provPending = false;
  // The teaching panel places the file on its curve (in the worker) before the page is ready.
  await teach.setFile(cur);
  if (stale()) return;
  document.body.dataset.state = 'ready';
}

function renderSummary(info) {
  const b = info.bloom ?? {};
  $('file-name').textContent = info.synthetic ? info.name : `${info.name ?? 'file'} · ${fmt(info.size)} bytes${info.size > 1e6 ? ` (${(info.size / 2 ** 20).toFixed(1)} MiB)` : ''}`;
  $('version').textContent = info.version == null ? '–' : String(info.version);
  const m = info.metadata;
  $('metadata').textContent = m ? `${fmt(m.size)} bytes at offset ${fmt(m.offset)}; index from offset ${fmt(m.metaOffset)}` : '–';
  $('encoding').textContent = b.present ? b.encoding : `no filter (${b.encoding ?? 'absent'})`;
  const present = !!b.present;
  $('byte-length').textContent = b.byte_length != null ? String(b.byte_length) : '0';
  $('byte-length-note').textContent = present && b.bit_count ? `of ${fmt(Math.ceil(b.bit_count / 8))} (trailing zero bytes are not stored)` : '';
  $('bit-count').textContent = present ? String(b.bit_count) : '–';
  $('bit-count-note').textContent = present && b.bit_count >= 1e4 ? `(${b.bit_count >= 1e6 ? `${(b.bit_count / 2 ** 20).toFixed(2)} Mbit` : `${(b.bit_count / 1024).toFixed(1)} kbit`})` : '';
  $('hash-function-count').textContent = present ? String(b.hash_function_count) : '–';
  $('seeds').textContent = present ? `seeds ${SEEDS.slice(0, b.hash_function_count).join(', ')}` : '';
  $('set-bits').textContent = present ? String(b.set_bits) : '–';
  $('fill').textContent = present ? `fill ${pct(b.fill_ratio)}` : '';
  renderItems(b, null);
  $('audit').textContent = info.synthetic ? 'Built on this page with the Java hash (sign-extended tail): every verdict is sound.' : 'Auditing…';
  $('hash-used').textContent = !present ? 'none (no filter)' : info.synthetic ? `${VARIANT_LABELS.java} · UTF-8 (built here)` : 'auditing…';
  $('hypotheses-box').hidden = true;
  // Tables
  const schemas = info.tableSchemas ?? [];
  const names = (info.tableNames ?? []).filter((t) => t != null);
  $('tables-count').textContent = `(${names.length}${schemas.length ? `, ${schemas.length} with schema` : ''})`;
  const box = $('schemas');
  box.replaceChildren();
  if (!names.length && !schemas.length) box.textContent = 'none';
  for (const s of schemas) {
    const d = document.createElement('div');
    d.className = 'schema';
    const h = document.createElement('b');
    h.textContent = s.table;
    const ul = document.createElement('ul');
    for (const c of s.columns ?? []) {
      const li = document.createElement('li');
      li.textContent = `${c.name} — ${c.data_type}${c.category ? ` · ${c.category}` : ''}`;
      ul.append(li);
    }
    d.append(h, ul);
    box.append(d);
  }
  const plain = names.filter((n) => !schemas.some((s) => s.table === n));
  if (plain.length) {
    const p = document.createElement('p');
    p.className = 'small';
    p.textContent = `Index roots without a schema (tree model devices): ${plain.join(', ')}`;
    box.append(p);
  }
  // Properties
  const props = info.properties ?? [];
  $('properties-count').textContent = `(${props.length})`;
  $('properties').replaceChildren(
    ...props.flatMap((p) => {
      const dt = document.createElement('dt');
      dt.textContent = p.key;
      const dd = document.createElement('dd');
      dd.textContent = p.value ?? (p.value_hex ? `0x${p.value_hex} (not UTF-8)` : 'null');
      return [dt, dd];
    }),
  );
  $('warnings').textContent = (info.warnings ?? []).length ? `Warnings: ${info.warnings.join('; ')}` : '';
}

function renderItems(b, indexed) {
  if (!b.present) {
    $('items').textContent = '–';
    $('fpp').textContent = '–';
    return;
  }
  const est = b.estimated_items;
  const n = indexed ?? b.indexed_items ?? null;
  $('items').textContent = `≈ ${Number.isFinite(est) ? est.toFixed(1) : '∞'} estimated from the fill${n != null ? ` · ${fmt(n)} paths ${cur?.info?.synthetic ? 'added' : 'in the index'}` : ''}`;
  const m = b.bit_count;
  const k = b.hash_function_count;
  const nn = n ?? est;
  const file = cur;
  const shown = (formula, kStar) => {
    if (cur !== file) return;
    $('fpp').textContent = `${pct(formula)} by formula (1 − e^(−kn/m))^k with n = ${Number.isFinite(nn) ? (n != null ? fmt(n) : nn.toFixed(1)) : '?'} · ${pct(b.fpp_from_fill)} from the fill (fill^k)`;
    $('fpp').title = Number.isFinite(kStar) ? `optimal k for this m and n ≈ ${kStar.toFixed(1)}` : '';
  };
  if (!Number.isFinite(nn)) return shown(b.fpp_formula, Infinity);
  // The package's formula, in the worker.
  worker.call('teach.formula', { items: nn, bitCount: m, k }).then((f) => shown(f.fpp, f.kStar), () => shown(b.fpp_formula, Infinity));
}

function renderAudit(audit, info) {
  if (info.synthetic) return;
  const el = $('audit');
  el.replaceChildren();
  const badge = document.createElement('span');
  const st = audit?.status ?? 'unreadable';
  badge.className = `badge ${st === 'established' ? 'ok' : st === 'ambiguous' ? 'info' : st === 'no_filter' ? 'muted' : 'warn'}`;
  badge.textContent = { established: 'established', ambiguous: 'reproduced (variant ambiguous)', not_reproduced: 'not reproduced', no_filter: 'no filter', unreadable: 'index unreadable' }[st] ?? st;
  const words = {
    established: `The stored bits were rebuilt exactly from the index with the ${audit?.variant} hash${audit?.charset && audit.charset !== 'UTF-8' ? ` in ${audit.charset}` : ''} — the writer is known, so “definitely absent” is sound for every path.`,
    ambiguous: 'The stored bits were rebuilt exactly, but every indexed path ends in ASCII, where the Java and C++ hashes agree, so the writer cannot be told apart. “Absent” is sound for paths both hashes agree on; other paths answer “unknown”.',
    not_reproduced: 'No writer hypothesis rebuilds these bits, so “definitely absent” cannot be trusted for this file; probes answer “unknown” instead.',
    no_filter: 'This file stores no Bloom filter; readers must look every path up in the index.',
    unreadable: 'The index could not be read, so the writer could not be checked.',
  }[st];
  const p = document.createElement('span');
  p.textContent = ` ${words ?? ''}`;
  el.append(badge, p);
  $('hash-used').textContent = hashUsed(audit, st);
  if (audit?.summary) {
    const s = document.createElement('span');
    s.className = 'muted small block';
    s.textContent = `Audit: ${audit.summary}.`;
    el.append(s);
  }
  const hyps = audit?.hypotheses ?? [];
  $('hypotheses-box').hidden = !hyps.length;
  $('hypotheses').tBodies[0].replaceChildren(
    ...hyps.map((h) => {
      const tr = document.createElement('tr');
      if (h.reproduces) tr.className = 'good';
      for (const v of [h.variant, h.time_columns ? 'inserted' : 'not inserted', h.trailing_null_tags, h.charset, h.writer, h.reproduces ? 'yes' : 'no', fmt(h.differing_bits)]) {
        const td = document.createElement('td');
        td.textContent = v;
        tr.append(td);
      }
      return tr;
    }),
  );
  const insertedTime = hyps.find((h) => h.reproduces)?.time_columns;
  const n = cur.series.length + (insertedTime ? cur.timeColumns.length : 0);
  if (info.bloom?.present && (cur.series.length || cur.timeColumns.length)) renderItems(info.bloom, n);
}

/** The tail variant and charset the file was hashed in, as far as the audit tells. */
function hashUsed(audit, st) {
  const charset = audit?.charset ?? 'UTF-8';
  if (st === 'established') return `${VARIANT_LABELS[audit.variant] ?? audit.variant} · ${charset}`;
  if (st === 'ambiguous') return `java or zero-extended (they agree on every indexed path) · ${charset}`;
  if (st === 'no_filter') return 'none (no filter)';
  if (st === 'not_reproduced') return 'not established: no tail variant and charset tried rebuilds the bits';
  return 'unknown: the index could not be read';
}

// ---------------------------------------------------------------- series list

let seriesView = []; // indices into cur.series (and time columns, offset by series.length)
const seriesList = new VirtualList($('series'), {
  rowHeight: 28,
  label: 'Indexed series',
  render(i, row) {
    const s = seriesAt(seriesView[i]);
    row.replaceChildren();
    const path = document.createElement('span');
    path.className = 'path';
    path.textContent = s.path;
    path.title = s.path;
    const type = document.createElement('span');
    type.className = 'type';
    type.textContent = s.time ? 'time column' : s.data_type ?? '';
    const st = document.createElement('span');
    st.className = `badge ${s.maybe_present === false ? 'warn' : 'ok'}`;
    st.textContent = s.maybe_present === false ? 'not in filter' : 'in filter';
    st.title = s.maybe_present === false ? 'the index lists this series but some of its bits are clear: a reader trusting the filter would miss it' : 'all its bits are set';
    row.append(st, path, type);
  },
  onactivate(i) {
    const s = seriesAt(seriesView[i]);
    $('path-input').value = s.path;
    runProbe().then(() => $('probe').scrollIntoView({ block: 'nearest', behavior: 'smooth' }));
  },
});

function seriesAt(j) {
  const n = cur.series.length;
  return j < n ? cur.series[j] : { ...cur.timeColumns[j - n], time: true };
}

let lowerPaths = null;
function renderSeries() {
  lowerPaths = null;
  $('series-count').textContent = `(${fmt(cur.series.length)}${cur.timeColumns.length ? ` + ${fmt(cur.timeColumns.length)} time columns` : ''})`;
  $('series-filter').value = '';
  filterSeries();
}

function filterSeries() {
  if (!cur) return;
  const q = $('series-filter').value.trim().toLowerCase();
  const mode = $('series-status').value;
  const n = cur.series.length;
  const total = n + cur.timeColumns.length;
  lowerPaths ??= Array.from({ length: total }, (_, j) => seriesAt(j).path.toLowerCase());
  const out = [];
  for (let j = 0; j < total; j++) {
    if (mode === 'time' && j < n) continue;
    if (mode === 'all' && j >= n) continue; // time columns only on request: they are not queryable series
    if (mode === 'missing' && seriesAt(j).maybe_present !== false) continue;
    if (q && !lowerPaths[j].includes(q)) continue;
    out.push(j);
  }
  seriesView = out;
  seriesList.setCount(out.length);
  $('series-shown').textContent = q || mode !== 'all' ? `${fmt(out.length)} shown` : '';
}

let filterTimer = 0;
$('series-filter').addEventListener('input', () => {
  clearTimeout(filterTimer);
  filterTimer = setTimeout(filterSeries, cur && cur.series.length > 20000 ? 150 : 30);
});
$('series-status').addEventListener('change', filterSeries);

// ---------------------------------------------------------------- autocomplete

const suggest = { items: [], active: -1 };

function updateSuggestions() {
  const input = $('path-input');
  const q = input.value.trim().toLowerCase();
  const list = $('suggest');
  suggest.items = [];
  suggest.active = -1;
  if (q && cur?.series.length) {
    lowerPaths ??= Array.from({ length: cur.series.length + cur.timeColumns.length }, (_, j) => seriesAt(j).path.toLowerCase());
    const prefix = [];
    const inner = [];
    for (let j = 0; j < cur.series.length && prefix.length < 12; j++) {
      const p = lowerPaths[j];
      if (p === q) continue;
      if (p.startsWith(q)) prefix.push(j);
      else if (inner.length < 12 && p.includes(q)) inner.push(j);
    }
    suggest.items = prefix.concat(inner).slice(0, 12);
  }
  list.replaceChildren(
    ...suggest.items.map((j, i) => {
      const li = document.createElement('li');
      li.id = `sug-${i}`;
      li.setAttribute('role', 'option');
      li.textContent = cur.series[j].path;
      li.addEventListener('mousedown', (ev) => {
        ev.preventDefault();
        chooseSuggestion(i);
      });
      return li;
    }),
  );
  const open = suggest.items.length > 0;
  list.hidden = !open;
  input.setAttribute('aria-expanded', String(open));
  input.removeAttribute('aria-activedescendant');
}

function closeSuggestions() {
  $('suggest').hidden = true;
  $('path-input').setAttribute('aria-expanded', 'false');
  $('path-input').removeAttribute('aria-activedescendant');
  suggest.active = -1;
}

function chooseSuggestion(i) {
  $('path-input').value = cur.series[suggest.items[i]].path;
  closeSuggestions();
  runProbe();
}

function moveSuggestion(d) {
  if ($('suggest').hidden || !suggest.items.length) return false;
  const n = suggest.items.length + 1; // the options, plus "none" (-1)
  suggest.active = ((((suggest.active + 1 + d) % n) + n) % n) - 1;
  const lis = $('suggest').children;
  for (let i = 0; i < lis.length; i++) lis[i].setAttribute('aria-selected', String(i === suggest.active));
  if (suggest.active >= 0) {
    $('path-input').setAttribute('aria-activedescendant', `sug-${suggest.active}`);
    lis[suggest.active].scrollIntoView({ block: 'nearest' });
  } else $('path-input').removeAttribute('aria-activedescendant');
  return true;
}

$('path-input').addEventListener('input', updateSuggestions);
$('path-input').addEventListener('blur', () => setTimeout(closeSuggestions, 100));
$('path-input').addEventListener('keydown', (ev) => {
  if (ev.key === 'ArrowDown' && moveSuggestion(1)) ev.preventDefault();
  else if (ev.key === 'ArrowUp' && moveSuggestion(-1)) ev.preventDefault();
  else if (ev.key === 'Escape') closeSuggestions();
  else if (ev.key === 'Enter' && suggest.active >= 0 && !$('suggest').hidden) {
    ev.preventDefault();
    chooseSuggestion(suggest.active);
  }
});

// ---------------------------------------------------------------- probing

function resetProbe() {
  probeSeq++; // a probe still in the worker answers for the previous file
  $('verdict-box').hidden = true;
  $('verdict').textContent = '';
  $('probes').tBodies[0].replaceChildren();
  map.setHighlights([]);
}

let probeSeq = 0;
async function runProbe() {
  closeSuggestions();
  if (!cur) return;
  const path = $('path-input').value;
  if (!path.trim()) return;
  const seq = ++probeSeq;
  const file = cur;
  let r;
  try {
    r = await worker.probe(path, { variant: $('variant').value || undefined, charset: $('charset').value || undefined });
  } catch (e) {
    if (seq === probeSeq && cur === file) showError(e, 'The probe failed:');
    return;
  }
  if (seq !== probeSeq || cur !== file) return;
  renderProbe(path, r);
}

function renderProbe(path, r) {
  const box = $('verdict-box');
  box.hidden = false;
  const v = $('verdict');
  v.className = `verdict ${r.verdict}`;
  v.textContent = { absent: 'definitely absent', maybe: 'maybe present', unknown: 'unknown — the filter cannot answer soundly' }[r.verdict] ?? r.verdict;
  const reason = (r.reason ?? '').replace(/^./, (c) => c.toUpperCase());
  $('verdict-reason').textContent = `${reason}${reason && !/[.!?]$/.test(reason) ? '.' : ''}${r.indexed === true ? ' The index lists this series.' : r.indexed === false ? ' The index does not list this series.' : ''}`;
  const sound =
    r.verdict === 'absent'
      ? r.confirmed
        ? 'Sound: the hash and charset used are the writer’s, as the audit established — a reader may skip this file for this path.'
        : 'Sound for this file: every hash the writer may have used agrees that a bit is clear.'
      : r.verdict === 'maybe'
        ? r.indexed === false
          ? 'A false positive: every probed bit is set (by other paths), yet the index does not list this series.'
          : 'All probed bits are set; a reader must still check the index.'
        : 'The bits under this hash say absent, but this file’s writer could not be established, so a reader must check the index.';
  $('verdict-sound').textContent = `${sound} Hash: ${r.variant}, charset ${r.charset}.`;
  cur.highlights = r.probes.map((p, i) => ({ bit: p.bit, color: seedColor(i), set: p.set, seed: p.seed }));
  map.setHighlights(cur.highlights);
  $('probes').tBodies[0].replaceChildren(
    ...r.probes.map((p, i) => {
      const tr = document.createElement('tr');
      tr.setAttribute('data-testid', 'probe-row');
      tr.className = p.set ? 'set' : 'clear';
      const sw = document.createElement('td');
      const dot = document.createElement('span');
      dot.className = 'swatch';
      dot.style.background = seedColor(i);
      sw.append(dot);
      const cells = [p.seed, p.hash32, fmt(p.bit), p.set ? 'set' : 'clear'].map((x) => {
        const td = document.createElement('td');
        td.textContent = String(x);
        return td;
      });
      cells[3].className = p.set ? 'state-set' : 'state-clear';
      const act = document.createElement('td');
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'small';
      b.textContent = 'show';
      b.setAttribute('aria-label', `Show bit ${p.bit} (seed ${p.seed}) on the heat-map`);
      b.addEventListener('click', () => {
        map.zoomToBit(p.bit);
        $('heatmap').focus({ preventScroll: true });
        $('map').scrollIntoView({ block: 'nearest', behavior: 'smooth' });
      });
      act.append(b);
      tr.append(sw, ...cells, act);
      return tr;
    }),
  );
  const others = (r.others ?? []).map((o) => `${o.variant}${o.charset ? ` / ${o.charset}` : ''}: ${o.verdict}`);
  $('others').textContent = others.length ? `Other candidate hashes: ${others.join('; ')}.` : '';
}

$('probe-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  runProbe();
});
$('variant').addEventListener('change', () => $('path-input').value.trim() && runProbe());
$('charset').addEventListener('change', () => $('path-input').value.trim() && runProbe());

// ---------------------------------------------------------------- batch

let batch = null; // { rows: [{path, verdict, indexed}], counts }
const batchList = new VirtualList($('batch-results'), {
  rowHeight: 28,
  label: 'Batch results',
  render(i, row) {
    const r = batch.rows[i];
    row.replaceChildren();
    const v = document.createElement('span');
    v.className = `badge ${r.verdict === 'absent' ? 'muted' : r.verdict === 'maybe' ? 'ok' : 'warn'}`;
    v.textContent = r.verdict;
    const p = document.createElement('span');
    p.className = 'path';
    p.textContent = r.path;
    p.title = r.path;
    const ix = document.createElement('span');
    ix.className = 'type';
    ix.textContent = r.indexed ? 'indexed' : '';
    row.append(v, p, ix);
  },
  onactivate(i) {
    $('path-input').value = batch.rows[i].path;
    runProbe().then(() => $('probe').scrollIntoView({ block: 'nearest', behavior: 'smooth' }));
  },
});

let running = null; // the batch in the worker (its probeMany promise), for this file only

/** No batch results, and a running batch cancelled: the next file starts with an empty panel. */
function resetBatch() {
  if (running) worker.cancel(running);
  running = null;
  batch = null;
  batchList.setCount(0);
  $('batch-results-box').hidden = true;
  $('batch-summary').textContent = '';
  $('batch-status').textContent = '';
  $('batch-progress').hidden = true;
  $('batch-cancel').hidden = true;
  $('batch-run').disabled = false;
}

async function runBatch() {
  if (!cur || running) return;
  const paths = $('batch-input').value.split(/\r?\n/).map((l) => l.replace(/^\uFEFF/, '').trim()).filter(Boolean);
  if (!paths.length) {
    $('batch-status').textContent = 'Nothing to test: enter one path per line.';
    return;
  }
  const indexed = new Set(cur.series.map((s) => s.path));
  const t0 = performance.now();
  $('batch-progress').hidden = false;
  $('batch-progress').value = 0;
  $('batch-cancel').hidden = false;
  $('batch-run').disabled = true;
  $('batch-status').textContent = `Testing ${fmt(paths.length)} paths…`;
  const job = worker.probeMany(paths, {
    variant: $('variant').value || undefined,
    charset: $('charset').value || undefined,
    onprogress: (p) => {
      if (running !== job) return;
      $('batch-progress').value = p.done / p.total;
      $('batch-status').textContent = `${fmt(p.done)} of ${fmt(p.total)} paths tested…`;
    },
  });
  running = job;
  try {
    const res = await job;
    if (running !== job) return; // a new file replaced the one this batch was for
    const counts = { absent: 0, maybe: 0, unknown: 0 };
    const rows = res.map((r) => {
      counts[r.verdict] = (counts[r.verdict] ?? 0) + 1;
      return { path: r.path, verdict: r.verdict, indexed: indexed.has(r.path) };
    });
    const fp = rows.filter((r) => r.verdict === 'maybe' && !r.indexed).length;
    batch = { rows, counts };
    $('batch-results-box').hidden = false;
    $('batch-summary').textContent = `${fmt(rows.length)} paths: ${fmt(counts.absent)} definitely absent, ${fmt(counts.maybe)} maybe present${fp ? ` (${fmt(fp)} of them not in the index: false positives)` : ''}${counts.unknown ? `, ${fmt(counts.unknown)} unknown` : ''}.`;
    batchList.setCount(rows.length);
    $('batch-status').textContent = `Done in ${((performance.now() - t0) / 1000).toFixed(2)} s (in a background worker).`;
  } catch (e) {
    if (running !== job) return;
    $('batch-status').textContent = e.kind === 'cancelled' ? `Cancelled (${e.message}).` : '';
    if (e.kind !== 'cancelled') showError(e, 'The batch failed:');
  } finally {
    if (running === job) {
      running = null;
      $('batch-progress').hidden = true;
      $('batch-cancel').hidden = true;
      $('batch-run').disabled = false;
    }
  }
}

$('batch-run').addEventListener('click', runBatch);
$('batch-cancel').addEventListener('click', () => running && worker.cancel(running));
$('batch-indexed').addEventListener('click', () => {
  if (cur) $('batch-input').value = cur.series.map((s) => s.path).join('\n');
});
$('batch-file').addEventListener('change', async (ev) => {
  const f = ev.target.files[0];
  ev.target.value = '';
  if (!f) return;
  const text = await f.text();
  // CSV: take the first column (a quoted path may contain commas).
  const lines = f.name.toLowerCase().endsWith('.csv')
    ? text.split(/\r?\n/).map((l) => (l.startsWith('"') ? l.slice(1, l.indexOf('"', 1) > 0 ? l.indexOf('"', 1) : undefined) : l.split(',')[0])).filter((l) => l && l !== 'path')
    : text.split(/\r?\n/);
  $('batch-input').value = lines.join('\n');
  runBatch();
});

function csvCell(s) {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
$('export-csv').addEventListener('click', () => {
  if (!batch) return;
  const text = `path,verdict,indexed\r\n${batch.rows.map((r) => `${csvCell(r.path)},${r.verdict},${r.indexed}`).join('\r\n')}\r\n`;
  download(new Blob([text], { type: 'text/csv' }), `${baseName()}-probes.csv`);
});
$('export-json').addEventListener('click', () => {
  if (!batch) return;
  download(new Blob([JSON.stringify({ file: cur?.name, results: batch.rows }, null, 1)], { type: 'application/json' }), `${baseName()}-probes.json`);
});

// ---------------------------------------------------------------- file input, drop, sample

$('file-input').addEventListener('change', (ev) => {
  const f = ev.target.files[0];
  if (f) load(f, f.name);
  ev.target.value = '';
});
$('sample').addEventListener('click', async () => {
  try {
    const res = await fetch('samples/sample.tsfile');
    if (!res.ok) throw Object.assign(new Error(`the sample could not be fetched (HTTP ${res.status})`), { kind: 'io' });
    await load(await res.blob(), 'sample.tsfile');
  } catch (e) {
    showError(e, 'Load sample:');
  }
});
$('synthetic').addEventListener('click', () => load(null, 'synthetic', { synthetic: { capacity: 1_300_000, items: 300_000 } }));

let dragDepth = 0;
addEventListener('dragenter', (ev) => {
  if (![...(ev.dataTransfer?.types ?? [])].includes('Files')) return;
  dragDepth++;
  document.body.classList.add('dragging');
});
addEventListener('dragover', (ev) => ev.preventDefault());
addEventListener('dragleave', () => {
  if (--dragDepth <= 0) {
    dragDepth = 0;
    document.body.classList.remove('dragging');
  }
});
addEventListener('drop', (ev) => {
  ev.preventDefault();
  dragDepth = 0;
  document.body.classList.remove('dragging');
  const f = ev.dataTransfer?.files?.[0];
  if (f) load(f, f.name);
});

// ?sample loads the bundled file; ?synthetic=CAPACITY[&items=N] builds a demo filter.
const params = new URLSearchParams(location.search);
if (params.has('sample')) $('sample').click();
else if (params.has('synthetic')) {
  const capacity = Math.min(5_000_000, Math.max(1, Number(params.get('synthetic')) || 1_300_000));
  const items = Math.min(capacity, Math.max(0, Number(params.get('items') ?? Math.min(capacity, 300_000))));
  load(null, 'synthetic', { synthetic: { capacity, items } });
}

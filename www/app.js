// The inspector page. All wasm work happens in module Workers (pkg/js/worker.js; the teaching
// panel's and the LevelDB view's ops from worker/teach-ops.js): the main thread only draws. Plain ES modules
// and canvas; nothing is sent anywhere. This module loads files and wires the views:
//   views/summary.js  the file, its metadata, the filter's figures, the audit
//   views/bits.js     the heat-map of the filter's bits (on shared/bitgrid.js)
//   views/probe.js    one path: verdict and probes     views/series.js  the listing
//   views/batch.js    many paths in the worker          views/leveldb.js a LevelDB table
//   views/fleet.js    a folder of TsFiles scanned in a worker (its own), one row per file
//   views/remote.js   "Open from the web": a URL (the inspector), URLs or a bucket listing (the folder view)
//   teach.js          the teaching panel (views/teach/)
// shared/ holds what every view uses: dom.js, format.js, words.js, bitgrid.js, vlist.js.
import { createWorker, TsFileBloomError } from './pkg/js/worker-client.js';
import { $ } from './shared/dom.js';
import { count, fmt } from './shared/format.js';
import { createBatchView } from './views/batch.js';
import { createBitsView } from './views/bits.js';
import { createFleetView } from './views/fleet.js';
import { createLevelDbView, isLevelDbBlob } from './views/leveldb.js';
import { createProbeView } from './views/probe.js';
import { createRemoteInput } from './views/remote.js';
import { createSeriesView } from './views/series.js';
import { clearError, showError, status } from './views/status.js';
import { createSummary } from './views/summary.js';
import { initTeach } from './teach.js';

// The page's workers: the package's Worker plus the page's own ops (worker/page-worker.js).
const PAGE_WORKER = new URL('./worker/page-worker.js', import.meta.url);
const worker = createWorker(PAGE_WORKER);
worker.onerror = (e) => showError(e, 'The background worker failed; reload the page.');

/** Everything known about the open file. */
let cur = null;
let loadSeq = 0;

/** What the views share: the worker, the open file, the heat-map, cross-view actions. */
const ctx = {
  worker,
  get cur() {
    return cur;
  },
  showError,
  probePath: (path) => probe.probePath(path),
  baseName() {
    return (cur?.name ?? 'tsfile').replace(/\.tsfile$/i, '').replace(/[^\w.-]+/g, '_').slice(0, 60) || 'tsfile';
  },
};
const bits = createBitsView(ctx);
ctx.map = bits.map;
ctx.settersOf = bits.settersOf;
ctx.pathOf = bits.pathOf;
const summary = createSummary(ctx);
const probe = createProbeView(ctx);
const series = createSeriesView(ctx);
const batch = createBatchView(ctx);
// The teaching panel has a worker of its own (the same script): its sandbox stays live while a
// large file is read, listed or batch-probed in the inspector's.
const teachWorker = createWorker(PAGE_WORKER);
teachWorker.onerror = (e) => showError(e, 'The teaching panel’s worker failed; reload the page.');
const teach = initTeach(teachWorker);
const leveldb = createLevelDbView(worker);
// The folder view scans in a third worker: a click on a row opens that file in the inspector's
// worker while the scan goes on.
const fleetWorker = createWorker(PAGE_WORKER);
fleetWorker.onerror = (e) => showError(e, 'The folder scan’s worker failed; reload the page.');
const fleet = createFleetView({
  worker: fleetWorker,
  showError,
  /** A row of the folder view: the file, the scanned path(s) probed, the map on the first probed bit. */
  async open(blob, name, { paths = [] } = {}) {
    // A history entry, so that the browser's Back returns to the folder view too.
    if (history.state?.view !== 'file') history.pushState({ view: 'file' }, '');
    const seq = await load(blob, name, { fromFolder: true });
    if (seq !== loadSeq || !cur) return;
    $('summary').scrollIntoView({ block: 'start' });
    if (paths.length > 1) batch.runPaths(paths);
    if (paths.length) {
      const r = await probe.probePath(paths[0], { scroll: false });
      if (seq === loadSeq && r?.probes?.length) bits.map.zoomToBit(r.probes[0].bit);
    }
  },
});
// A URL opens in the inspector (its worker reads it with Range requests); URLs and listings in the folder view.
const remote = createRemoteInput({ openUrl: (url, name) => load(url, name), scanUrls: fleet.scanUrls, showError });

// Back to the folder view scrolls to it (fleet.back); the browser's own restoring would undo that.
history.scrollRestoration = 'manual';
$('fleet-back').addEventListener('click', () => (history.state?.view === 'file' ? history.back() : fleet.back()));
addEventListener('popstate', () => {
  if (!$('fleet').hidden) fleet.back();
});

// For tests and the console: the heat-map, the worker and the current file's state.
globalThis.inspector = { map: bits.map, worker: () => worker, teachWorker: () => teachWorker, fleet, get current() { return cur; } };

// ---------------------------------------------------------------- loading

/** Where "Skip to …" leads: path testing once a TsFile is open, else opening one (never a hidden section). */
function skipTo(id) {
  const [href, text] = { probe: ['#probe', 'Skip to path testing'], leveldb: ['#ldb-form', 'Skip to the LevelDB key probe'], load: ['#load', 'Skip to opening a file'] }[id];
  $('skip-link').href = href;
  $('skip-link').textContent = text;
}

/**
 * Every view back to "no file": a load starts (and may fail, or turn out to be a LevelDB table),
 * so nothing may keep showing, or reading, the previous file's state — the series list's and
 * batch list's rows, the heat-map, the probe, a running batch, the teaching panel. The TsFile
 * panels stay laid out (dimmed while loading) until the new file turns out not to be one.
 */
function resetViews() {
  cur = null;
  skipTo('load');
  bits.reset();
  probe.reset();
  series.reset();
  batch.reset();
  teach.setFile(null);
  leveldb.hide();
}

/** A LevelDB table: its own view, the table read in the worker. */
async function showLevelDb(blob, name, stale) {
  $('content').hidden = true;
  try {
    if (!(await leveldb.show(blob, name, stale))) return;
    status(`${name}: LevelDB table.`);
    skipTo('leveldb');
    document.body.dataset.state = 'ready';
  } catch (e) {
    if (stale()) return;
    status('');
    showError(e, `${name} (${fmt(blob.size)} bytes) is not a readable LevelDB table:`, 'The page is ready for another file.');
    document.body.dataset.state = 'error';
  }
}

/** The file opened (or the synthetic filter built) in the worker: its info, or null once its error is shown. */
async function openInWorker(blob, name, synthetic, stale) {
  status(synthetic ? 'Building the filter…' : `Reading ${name}…`);
  try {
    return synthetic
      ? await worker.synthetic(synthetic, (p) => !stale() && status(`Building the filter: ${fmt(p.done)} of ${fmt(p.total)} paths added…`))
      : await worker.open(blob, name);
  } catch (e) {
    if (stale()) return null;
    $('content').hidden = true;
    status('');
    const size = blob && typeof blob !== 'string' ? ` (${fmt(blob.size)} bytes)` : '';
    showError(e, `${name}${size} is not a readable TsFile:`, 'Nothing could be read from this file. The page is ready for another file.');
    document.body.dataset.state = 'error';
    return null;
  }
}

/** The filter's bits on the map right away (`{bits, bitCount}`), or null when there is no filter to read. */
async function paintBits(stale) {
  let filterBits = null;
  try {
    filterBits = await worker.bits();
  } catch (e) {
    if (stale()) return null;
    showError(e, 'The filter could not be read:');
  }
  if (stale()) return null;
  if (filterBits) {
    cur.bits = filterBits.bits;
    cur.bitCount = filterBits.bitCount;
    bits.map.setData(filterBits.bits, filterBits.bitCount);
  } else bits.map.clear();
  $('map').classList.toggle('empty', !filterBits);
  bits.enable(!!filterBits);
  return filterBits;
}

/**
 * The metadata index, the audit and the series list (may be large: done in the worker), with what
 * was read before an index error too (shown as partial results): `{audit, bloom, indexError,
 * listed}`, `listed` (`{series, timeColumns, audit}`) null when a step threw.
 */
async function readIndex() {
  const read = { audit: null, bloom: null, indexError: null, listed: null };
  try {
    read.indexError = await worker.loadIndex();
    read.audit = await worker.audit({ partial: true });
    const series = await worker.series({ partial: true });
    const timeColumns = await worker.timeColumns({ partial: true });
    read.bloom = (await worker.info()).bloom; // the filter's facts as the index gives them (indexedItems)
    read.listed = { series, timeColumns, audit: read.audit };
  } catch (e) {
    read.indexError = e;
  }
  return read;
}

/** Per-bit provenance for the hover (after everything else is on screen); false when a later load took over. */
async function readProvenance(synthetic, stale) {
  try {
    const prov = await worker.provenance();
    if (stale()) return false;
    cur.prov = prov;
    cur.provPaths = prov && prov.timeColumns && !synthetic ? cur.series.concat(cur.timeColumns) : cur.series;
  } catch (e) {
    if (stale()) return false;
    console.warn('provenance unavailable:', e.message);
  }
  return true;
}

/** `blob`: a Blob/File, or an http(s) URL (a string: a TsFile read remotely; no LevelDB detection). */
async function load(blob, name, { synthetic = null, fromFolder = false } = {}) {
  const seq = ++loadSeq;
  $('fleet-back').hidden = !fromFolder;
  // A later load (or a LevelDB table) took over: this one's answers are dropped.
  const stale = () => seq !== loadSeq;
  document.body.dataset.state = 'loading';
  clearError();
  resetViews();
  if (blob && typeof blob !== 'string' && (await isLevelDbBlob(blob))) {
    if (!stale()) await showLevelDb(blob, name, stale);
    return;
  }
  if (stale()) return;
  const info = await openInWorker(blob, name, synthetic, stale);
  if (!info || stale()) return;
  cur = { name: info.name ?? name, info, blob, bits: null, bitCount: 0, series: [], timeColumns: [], prov: null, provPending: true, audit: null, highlights: [] };
  summary.renderSummary(info);
  $('content').hidden = false;
  skipTo('probe');
  const filterBits = await paintBits(stale);
  if (stale()) return;
  status(synthetic ? '' : 'Reading the metadata index and auditing the filter…');
  const { audit, bloom, indexError, listed } = await readIndex();
  if (stale()) return;
  Object.assign(cur, listed);
  summary.renderAudit(audit, bloom ? { ...info, bloom } : info);
  series.render();
  if (indexError) {
    showError(
      indexError,
      "The file's metadata index could not be read:",
      `Partial results: the summary and the filter's bits come from TsFileMetadata, which was read. ${fmt(cur.series.length)} series were listed before the error, and no audit could check the writer's hash; each probe's reason says what the filter alone can tell.`,
    );
  }
  status(synthetic ? `${cur.name}.` : `${cur.name}: ${fmt(cur.series.length)} series indexed${cur.timeColumns.length ? `, ${count(cur.timeColumns.length, 'time column')}` : ''}.`);
  if (filterBits && (cur.series.length || synthetic) && !(await readProvenance(synthetic, stale))) return;
  cur.provPending = false;
  probe.refresh(); // a probe made meanwhile: its bits' series
  // The teaching panel places the file on its curve (in the worker) before the page is ready.
  await teach.setFile(cur);
  if (stale()) return;
  document.body.dataset.state = 'ready';
  return seq;
}

// ---------------------------------------------------------------- file input, drop, sample

$('file-input').addEventListener('change', (ev) => {
  const f = ev.target.files[0];
  if (f) load(f, f.name);
  ev.target.value = '';
});
$('sample').addEventListener('click', async () => {
  try {
    const res = await fetch('samples/sample.tsfile');
    if (!res.ok) throw new TsFileBloomError('io', `the sample could not be fetched (HTTP ${res.status})`, { reason: 'http_status', url: res.url, status: res.status });
    await load(await res.blob(), 'sample.tsfile');
  } catch (e) {
    showError(e, 'Load sample:');
  }
});
$('synthetic').addEventListener('click', () => load(null, 'synthetic', { synthetic: { capacity: 1_300_000, items: 300_000 } }));

addEventListener('dragover', (ev) => ev.preventDefault());
addEventListener('drop', (ev) => {
  ev.preventDefault();
  // A folder: the folder view scans it; a file: the inspector opens it.
  if (fleet.handleDrop(ev.dataTransfer)) return;
  const f = ev.dataTransfer?.files?.[0];
  if (f) load(f, f.name);
  // A dropped link (or links): opened from the web.
  else if (ev.dataTransfer?.types?.includes('text/uri-list')) {
    remote.openText(ev.dataTransfer.getData('text/uri-list').split(/\r?\n/).filter((l) => l && !l.startsWith('#')).join('\n'));
  }
});

// ?sample loads the bundled file; ?synthetic=CAPACITY[&items=N] builds a demo filter.
const params = new URLSearchParams(location.search);
if (params.has('sample')) $('sample').click();
else if (params.has('synthetic')) {
  const capacity = Math.min(5_000_000, Math.max(1, Number(params.get('synthetic')) || 1_300_000));
  const items = Math.min(capacity, Math.max(0, Number(params.get('items') ?? Math.min(capacity, 300_000))));
  load(null, 'synthetic', { synthetic: { capacity, items } });
}

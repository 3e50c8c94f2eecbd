// The folder view: every TsFile of a folder scanned in a worker (the `scan` op, js/worker-scan.js),
// one row per file in a virtualised table — sortable, filterable (fleet-table.js) — with the
// decision for the current path(s), and above it per path the answer: what can be skipped and the
// files to read (fleet-summary.js, fleet-answer.js). Results arrive in chunks, so 10,000 files never block the page. A click on
// a row opens the file in the inspector. What is scanned and what a row opens: fleet-sources.js.
import { $ } from '../shared/dom.js';
import { fmt } from '../shared/format.js';
import { decisionOf } from '../shared/words.js';
import { directorySource, droppedFolder, filesSource, urlsSource } from './fleet-sources.js';
import { summaryLines } from './fleet-summary.js';
import { createFleetTable } from './fleet-table.js';

/** How often the table and the summary are redrawn while a scan runs. */
const REDRAW_MS = 250;

/**
 * One record of a fleet scan (scanTsFiles' per-file result) → a table row: `{file, ok, size,
 * version, hasFilter, bitCount, k, fill, fpp, audit, verdicts, decisions, error}`, with `verdicts[i]`
 * and `decisions[i]` the verdict and decision for the i-th path asked (null when the file could not be read).
 */
function rowOf(r, paths) {
  const b = r.bloomFilter;
  const byPath = new Map((r.results ?? []).map((x) => [x.path, x]));
  return {
    file: r.file,
    ok: r.ok,
    size: r.size,
    version: r.version,
    hasFilter: b ? b.present : null,
    bitCount: b?.bitCount ?? null,
    k: b?.hashFunctionCount ?? null,
    fill: b?.fillRatio ?? null,
    fpp: b?.fppFromFill ?? null,
    health: b?.health ?? null,
    audit: r.audit,
    verdicts: paths.map((p) => byPath.get(p)?.verdict ?? null),
    decisions: paths.map((p) => (byPath.has(p) ? decisionOf(byPath.get(p)) : null)),
    error: r.error,
  };
}

/** Splits the path field: paths separated by white space (a path with a space is rare in IoTDB). */
const parsePaths = (text) => [...new Set(text.split(/\s+/).filter(Boolean))];

function setRunning(on) {
  $('fleet-progress').hidden = !on;
  $('fleet-cancel').hidden = !on;
  $('fleet-rescan').disabled = on;
  document.body.dataset.fleet = on ? 'scanning' : 'done';
}

/**
 * A chunk of records into `t.rows` from the scan `scan` (`{source, found, replaced, replace(),
 * schedule()}`: its first records replace the last result); shown at the next redraw.
 */
function received(t, scan, msg) {
  if (!scan.replaced && msg.records.length) scan.replace();
  for (const rec of msg.records) {
    const row = rowOf(rec, t.paths);
    row.index = t.rows.length;
    // Files walked from a dropped entry carry no relative path: the page names them.
    if (scan.source.names && scan.source.targets[row.index]?.name === row.file) row.file = scan.source.names[row.index];
    t.rows.push(row);
  }
  scan.found = Math.max(scan.found, msg.found);
  scan.schedule();
}

/** The progress bar and line for the records received so far. */
function showProgress(t, scan) {
  const total = scan.source.count ?? scan.found;
  const done = scan.replaced ? t.rows.length : 0;
  if (total) $('fleet-progress').value = Math.min(1, done / total);
  $('fleet-status').textContent = `${fmt(done)}${scan.source.count != null ? ` of ${fmt(scan.source.count)}` : ''} files scanned…`;
}

/** How a scan ended, when it did not end in a summary. */
function failed(t, scan, e, showError) {
  if (e.kind === 'cancelled') {
    $('fleet-status').textContent = scan.replaced
      ? `Cancelled after ${fmt(t.rows.length)} files; the table shows those.`
      : `Rescan cancelled before any file was read; the table still shows the last complete scan (${fmt(t.rows.length)} files).`;
    return;
  }
  if (!scan.replaced) Object.assign(t, scan.kept);
  $('fleet-status').textContent = '';
  showError(e, 'The folder could not be scanned:');
}

/**
 * A drop that holds a folder: scanned here, and true returned; otherwise false (the page opens
 * a dropped file as before). Must run during the drop event: its items expire after it.
 */
function handleDrop(dt, scanSource, showError) {
  const folder = droppedFolder(dt);
  if (!folder) return false;
  $('fleet').hidden = false;
  $('fleet-status').textContent = `Listing ${folder.name}…`;
  folder.source.then(scanSource, (e) => showError(e, `The folder ${folder.name} could not be listed:`));
  return true;
}

async function pickFolder(scanSource, showError) {
  if (typeof globalThis.showDirectoryPicker !== 'function') return $('folder-input').click();
  try {
    await scanSource(directorySource(await globalThis.showDirectoryPicker({ id: 'tsfile-folder', mode: 'read' })));
  } catch (e) {
    if (e?.name !== 'AbortError') showError(e, 'The folder could not be opened:');
  }
}

/**
 * `ctx`: `{worker, open(blob, name), showError}` — `worker` runs the scans (a worker of the
 * page's own, so the inspector's stays free to open a file while a scan runs).
 * Returns `{scanFiles(files, {name}), scanUrls(urls, options), handleDrop(dataTransfer), back(), state}`.
 */
export function createFleetView(ctx) {
  let source = null; // fleet-sources.js: { name, targets, names, count, resolve(row) → Promise<Blob> }
  const t = { rows: [], paths: [], summary: null }; // the table's: page rows (rowOf) in arrival order
  let running = null; // the scan promise (its id cancels it)
  let redraw = 0;
  /** The row opened last, for back(): `{file}`. */
  let opened = null;
  const table = createFleetTable(t, openRow);

  const renderSummary = () => $('fleet-summary').replaceChildren(...summaryLines(t));
  /**
   * Redraws the progress, the filtered and sorted view and the summary a few times a second while
   * chunks arrive, all in one task (a chunk may come far faster than the page is worth painting,
   * and every paint takes a core from the worker's reads).
   */
  function schedule(scan) {
    if (redraw) return;
    redraw = setTimeout(() => {
      redraw = 0;
      showProgress(t, scan);
      table.applyView();
      renderSummary();
    }, REDRAW_MS);
  }

  async function run() {
    if (!source) return;
    if (running) ctx.worker.cancel(running);
    const paths = parsePaths($('fleet-paths').value);
    // The table keeps showing the last complete result (its rows, paths and summary) until
    // this scan's first records replace it; a scan cancelled before any keeps it.
    const scan = { source, found: 0, kept: t.rows.length && t.summary ? { ...t } : null, replaced: false };
    scan.schedule = () => schedule(scan);
    scan.replace = () => {
      scan.replaced = true;
      Object.assign(t, { rows: [], paths, summary: null, audit: $('fleet-audit').checked });
      table.renderHead();
    };
    if (!scan.kept) scan.replace();
    $('fleet').hidden = false;
    $('fleet-name').textContent = source.name;
    table.applyView();
    renderSummary();
    setRunning(true);
    const t0 = performance.now();
    $('fleet-status').textContent = `Scanning ${source.name}…`;
    $('fleet-progress').removeAttribute('value');
    const job = ctx.worker.call('scan', { targets: source.targets, paths, audit: $('fleet-audit').checked }, (msg) => running === job && received(t, scan, msg));
    running = job;
    try {
      const s = await job;
      if (running !== job) return;
      if (!scan.replaced) scan.replace(); // an empty folder: its (empty) result replaces the last
      t.summary = s;
      $('fleet-status').textContent = `${fmt(t.summary.files)} files scanned in ${((performance.now() - t0) / 1000).toFixed(2)} s (in a background worker).`;
    } catch (e) {
      if (running === job) failed(t, scan, e, ctx.showError);
    } finally {
      if (running === job) {
        running = null;
        clearTimeout(redraw);
        redraw = 0;
        setRunning(false);
        table.applyView();
        renderSummary();
      }
    }
  }

  async function openRow(r) {
    if (!source || !r) return;
    try {
      const blob = await source.resolve(r);
      opened = { file: r.file };
      // The paths this table's verdicts are for: the inspector probes them.
      await ctx.open(blob, r.file, { paths: [...t.paths] });
    } catch (e) {
      ctx.showError(e, `${r.file} could not be opened:`);
    }
  }

  function scanSource(next) {
    source = next;
    return run();
  }

  $('folder-open').addEventListener('click', () => pickFolder(scanSource, ctx.showError));
  $('folder-input').addEventListener('change', (ev) => {
    const files = ev.target.files;
    if (files?.length) scanSource(filesSource(files));
    ev.target.value = '';
  });
  $('fleet-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    run();
  });
  $('fleet-cancel').addEventListener('click', () => running && ctx.worker.cancel(running));

  return {
    /** A FileList or File array (the folder input, a dropped folder walked by entries). */
    scanFiles: (files, options) => scanSource(filesSource(files, options)),
    /** URLs and bucket listings (views/remote.js); `options`: `{name, count, resolve(row)}`. */
    scanUrls: (urls, options) => scanSource(urlsSource(urls, options)),
    /** A drop that holds a folder is scanned (true); else false. Call it during the drop event. */
    handleDrop: (dt) => handleDrop(dt, scanSource, ctx.showError),
    /**
     * Back to the folder view as it was: its sort, filter and scroll are untouched by opening a
     * file; the row opened last gets the focus.
     */
    back() {
      $('fleet').scrollIntoView({ block: 'start' });
      if (opened) table.focusFile(opened.file);
      $('fleet-rows').focus({ preventScroll: true });
    },
    /** For tests and the console. */
    get state() {
      return { rows: t.rows.length, shown: table.shown, paths: t.paths, running: !!running, summary: t.summary, sort: table.sort, scrollTop: $('fleet-rows').scrollTop, active: table.list.active };
    },
  };
}

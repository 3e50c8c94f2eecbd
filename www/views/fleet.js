// The folder view: every TsFile of a folder scanned in a worker (the `scan` op, js/worker-scan.js),
// one row per file in a virtualised table — sortable, filterable — with the verdict for the
// current path(s) and the summary "N of M files can be skipped for P". Results arrive in
// chunks, so 10,000 files never block the page. A click on a row opens the file in the inspector.
import { scanProgressOf, scanRowOf, scanSummaryOf } from '../shared/api.js';
import { $, el } from '../shared/dom.js';
import { auditLabel, fmt, pct } from '../shared/format.js';
import { VirtualList } from '../shared/vlist.js';
import { filterTruthLines } from './fleet-fp.js';

const TSFILE_NAME = /\.tsfile$/i;
/** How often the table and the summary are redrawn while a scan runs. */
const REDRAW_MS = 250;

const byText = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const byNumber = (a, b) => a - b;
const VERDICT_ORDER = { absent: 0, maybe: 1, unknown: 2 };

/**
 * The order of two rows' values `a`, `b` for a sort in direction `dir` (1 or -1): missing
 * values (null: a file that could not be read, a figure a file does not have) last both ways.
 */
export function sortOrder(compare, a, b, dir) {
  if (a == null || b == null) return a == null ? (b == null ? 0 : 1) : -1;
  return dir * compare(a, b);
}

/** The columns: label, the row's value, how values compare. Verdict columns are added per path. */
const COLUMNS = [
  { key: 'file', label: 'File', value: (r) => r.file, compare: byText },
  { key: 'size', label: 'Size (B)', value: (r) => r.size, compare: byNumber, num: true },
  { key: 'm', label: 'm (bits)', value: (r) => r.bitCount, compare: byNumber, num: true },
  { key: 'k', label: 'k', value: (r) => r.k, compare: byNumber, num: true },
  { key: 'fill', label: 'Fill', value: (r) => r.fill, compare: byNumber, num: true },
  { key: 'fpp', label: 'FPP', value: (r) => r.fpp, compare: byNumber, num: true },
  { key: 'audit', label: 'Audit / error', value: (r) => (r.error ? `~${r.error.kind}` : auditText(r)), compare: byText },
];

/** A row's audit in the page's words (shared/format.js's one table), or null when the scan did not audit it. */
function auditText(r) {
  if (r.audit) return `${auditLabel(r.audit.status)}${r.audit.variant ? ` (${r.audit.variant})` : ''}`;
  return r.hasFilter === false ? auditLabel('no_filter') : null;
}

/** Splits the path field: paths separated by white space (a path with a space is rare in IoTDB). */
export const parsePaths = (text) => [...new Set(text.split(/\s+/).filter(Boolean))];

/**
 * `ctx`: `{worker, open(blob, name), showError}` — `worker` runs the scans (a worker of the
 * page's own, so the inspector's stays free to open a file while a scan runs).
 * Returns `{scanFiles(files, name), scanDirectory(handle), scanUrls(urls, options), handleDrop(dataTransfer), state}`.
 */
export function createFleetView(ctx) {
  let source = null; // { name, targets, resolve(row) → Promise<Blob> }
  let rows = []; // page rows (scanRowOf), in arrival order
  let paths = [];
  let view = []; // indices into rows, filtered and sorted
  let sort = { key: null, dir: 1 };
  let running = null; // the scan promise (its id cancels it)
  let summary = null;
  let found = 0;
  let redraw = 0;

  const list = new VirtualList($('fleet-rows'), {
    rowHeight: 28,
    label: 'Files of the folder; Enter opens the file in the inspector',
    render(i, row) {
      const r = rows[view[i]];
      row.classList.add('fleet-cols');
      row.dataset.file = r.file;
      row.dataset.size = r.size ?? '';
      row.dataset.errorKind = r.error?.kind ?? '';
      row.dataset.verdicts = r.verdicts.join(' ');
      row.dataset.fill = r.fill ?? '';
      row.dataset.audit = auditText(r) ?? '';
      const auditCell = r.error
        ? el('span', { class: 'cell' }, el('span', { class: 'badge warn', text: r.error.kind, title: `${r.error.message}${r.error.offset != null ? ` (at byte ${r.error.offset})` : ''}` }))
        : el('span', { class: 'cell', text: auditText(r) ?? '–' });
      row.replaceChildren(
        el('span', { class: 'cell path', text: r.file, title: r.file }),
        el('span', { class: 'cell num', text: fmt(r.size) }),
        el('span', { class: 'cell num', text: fmt(r.bitCount) }),
        el('span', { class: 'cell num', text: fmt(r.k) }),
        el('span', { class: 'cell num', text: pct(r.fill) }),
        el('span', { class: 'cell num', text: pct(r.fpp) }),
        auditCell,
        ...r.verdicts.map((v) => el('span', { class: 'cell' }, el('span', { class: `badge ${v === 'absent' ? 'muted' : v === 'maybe' ? 'ok' : v === 'unknown' ? 'info' : 'warn'}`, text: v ?? 'unread' }))),
      );
    },
    onactivate(i) {
      openRow(rows[view[i]]);
    },
  });

  function columns() {
    return [
      ...COLUMNS,
      ...paths.map((p, j) => ({ key: `v${j}`, label: p, value: (r) => VERDICT_ORDER[r.verdicts[j]] ?? null, compare: byNumber })),
    ];
  }

  function renderHead() {
    const head = $('fleet-head');
    head.replaceChildren(
      ...columns().map((c) => {
        const state = sort.key === c.key ? (sort.dir > 0 ? 'ascending' : 'descending') : 'none';
        const verdict = c.key.startsWith('v');
        // A path is cut from its start (paths of one folder share their prefix): the
        // isolated left-to-right run in a right-to-left box keeps its end in view.
        const label = verdict ? el('span', { class: 'cut-start' }, el('bdi', { dir: 'ltr', text: c.label })) : c.label;
        return el(
          'button',
          {
            type: 'button',
            'data-key': c.key,
            'data-sort': state,
            title: verdict ? `Verdict for ${c.label}; click to sort` : `Sort by ${c.label.toLowerCase()}`,
            class: c.num ? 'num' : null,
          },
          label,
          el('span', { class: 'visually-hidden', text: state === 'none' ? '' : ` (sorted ${state})` }),
        );
      }),
    );
    const verdictCols = paths.length ? `repeat(${paths.length}, 7em)` : '0';
    head.style.setProperty('--fleet-verdicts', verdictCols);
    $('fleet-rows').style.setProperty('--fleet-verdicts', verdictCols);
  }

  /**
   * Recomputes the filtered, sorted view and the summary a few times a second while chunks
   * arrive (they may come far faster than a table is worth redrawing).
   */
  function schedule() {
    if (redraw) return;
    redraw = setTimeout(() => {
      redraw = 0;
      applyView();
      renderSummary();
    }, REDRAW_MS);
  }

  function matches(r, needle, show) {
    if (show === 'error' && !r.error) return false;
    if (show === 'skip' && !(r.verdicts.length && r.verdicts.every((v) => v === 'absent'))) return false;
    if (show === 'hold' && !(r.verdicts.length && r.verdicts.some((v) => v === 'maybe' || v === 'unknown'))) return false;
    if (!needle) return true;
    return r.file.toLowerCase().includes(needle) || (r.error != null && r.error.kind.includes(needle));
  }

  function applyView() {
    const needle = $('fleet-filter').value.trim().toLowerCase();
    const show = $('fleet-show').value;
    view = [];
    for (let i = 0; i < rows.length; i++) if (matches(rows[i], needle, show)) view.push(i);
    const col = columns().find((c) => c.key === sort.key);
    if (col) {
      // Stable: ties keep arrival (walk) order.
      const keys = rows.map(col.value);
      view.sort((a, b) => sortOrder(col.compare, keys[a], keys[b], sort.dir) || a - b);
    }
    list.setCount(view.length);
    $('fleet-shown').textContent = `${fmt(view.length)} of ${fmt(rows.length)} files shown`;
  }

  /** The summary: per path "N of M files can be skipped", errors by kind. Live counts while scanning. */
  function renderSummary() {
    const box = $('fleet-summary');
    const s = summary ?? liveSummary();
    const lines = [];
    if (!paths.length) lines.push(el('p', { class: 'muted', text: 'Enter a series path and press Scan to see which files a reader could skip.' }));
    s.paths.forEach((p) => {
      lines.push(
        el('p', { 'data-testid': 'fleet-skip', 'data-path': p.path }, el('b', { text: fmt(p.skippable) }), ` of ${fmt(s.files)} files can be skipped for `, el('code', { text: p.path }),
          ` (${s.files ? pct(p.skippable / s.files) : '–'}); ${fmt(p.mayHold)} may hold it${p.unreadable ? `, ${fmt(p.unreadable)} could not be read` : ''}.`),
      );
    });
    lines.push(...filterTruthLines(summary));
    const kinds = Object.entries(s.errorsByKind).sort(([a], [b]) => byText(a, b));
    lines.push(
      el('p', { class: 'muted small', 'data-testid': 'fleet-errors' }, `${fmt(s.files)} files, ${fmt(s.errors)} with errors${kinds.length ? `: ${kinds.map(([k, n]) => `${k} ${n}`).join(', ')}` : ''}.`,
        summary ? ` Read ${fmt(summary.bytesRead)} of ${fmt(summary.bytesOnDisk)} bytes.` : ''),
    );
    box.replaceChildren(...lines);
  }

  function liveSummary() {
    const s = { files: rows.length, errors: 0, errorsByKind: {}, paths: paths.map((path) => ({ path, skippable: 0, mayHold: 0, unreadable: 0 })) };
    for (const r of rows) {
      if (r.error) {
        s.errors++;
        s.errorsByKind[r.error.kind] = (s.errorsByKind[r.error.kind] ?? 0) + 1;
      }
      r.verdicts.forEach((v, j) => {
        const p = s.paths[j];
        if (v === 'absent') p.skippable++;
        else if (v == null) p.unreadable++;
        else p.mayHold++;
      });
    }
    return s;
  }

  function setRunning(on) {
    $('fleet-progress').hidden = !on;
    $('fleet-cancel').hidden = !on;
    $('fleet-rescan').disabled = on;
    document.body.dataset.fleet = on ? 'scanning' : 'done';
  }

  async function run() {
    if (!source) return;
    if (running) ctx.worker.cancel(running);
    const scanPaths = parsePaths($('fleet-paths').value);
    // The table keeps showing the last complete result (its rows, paths and summary) until
    // this scan's first records replace it; a scan cancelled before any keeps it.
    const kept = rows.length && summary ? { rows, paths, summary } : null;
    let replaced = !kept;
    const replace = () => {
      replaced = true;
      rows = [];
      paths = scanPaths;
      summary = null;
      renderHead();
    };
    if (replaced) replace();
    found = 0;
    $('fleet').hidden = false;
    $('fleet-name').textContent = source.name;
    applyView();
    renderSummary();
    setRunning(true);
    const t0 = performance.now();
    const scanSource = source;
    $('fleet-status').textContent = `Scanning ${source.name}…`;
    $('fleet-progress').removeAttribute('value');
    const job = ctx.worker.call('scan', { targets: source.targets, paths: scanPaths, audit: $('fleet-audit').checked }, (msg) => {
      if (running !== job) return;
      const p = scanProgressOf(msg);
      if (!replaced && p.records.length) replace();
      for (const rec of p.records) {
        const row = scanRowOf(rec, paths);
        row.index = rows.length;
        // Files walked from a dropped entry carry no relative path: the page names them.
        if (scanSource.names && scanSource.targets[row.index]?.name === row.file) row.file = scanSource.names[row.index];
        rows.push(row);
      }
      found = Math.max(found, p.found);
      const total = scanSource.count ?? found;
      if (total) $('fleet-progress').value = Math.min(1, (replaced ? rows.length : 0) / total);
      $('fleet-status').textContent = `${fmt(replaced ? rows.length : 0)}${scanSource.count != null ? ` of ${fmt(scanSource.count)}` : ''} files scanned…`;
      schedule();
    });
    running = job;
    try {
      const s = await job;
      if (running !== job) return;
      if (!replaced) replace(); // an empty folder: its (empty) result replaces the last
      summary = scanSummaryOf(s);
      $('fleet-status').textContent = `${fmt(summary.files)} files scanned in ${((performance.now() - t0) / 1000).toFixed(2)} s (in a background worker).`;
    } catch (e) {
      if (running !== job) return;
      if (e.kind === 'cancelled') {
        $('fleet-status').textContent = replaced
          ? `Cancelled after ${fmt(rows.length)} files; the table shows those.`
          : `Rescan cancelled before any file was read; the table still shows the last complete scan (${fmt(rows.length)} files).`;
      } else {
        if (!replaced) ({ rows, paths, summary } = kept);
        $('fleet-status').textContent = '';
        ctx.showError(e, 'The folder could not be scanned:');
      }
    } finally {
      if (running === job) {
        running = null;
        clearTimeout(redraw);
        redraw = 0;
        setRunning(false);
        applyView();
        renderSummary();
      }
    }
  }

  /** The row opened last, for back(): `{file}`. */
  let opened = null;

  async function openRow(r) {
    if (!source || !r) return;
    try {
      const blob = await source.resolve(r);
      opened = { file: r.file };
      // The paths this table's verdicts are for: the inspector probes them.
      await ctx.open(blob, r.file, { paths: [...paths] });
    } catch (e) {
      ctx.showError(e, `${r.file} could not be opened:`);
    }
  }

  /**
   * Back to the folder view as it was: its sort, filter and scroll are untouched by opening a
   * file; the row opened last gets the focus.
   */
  function back() {
    $('fleet').scrollIntoView({ block: 'start' });
    const at = opened ? view.findIndex((i) => rows[i].file === opened.file) : -1;
    if (at >= 0 && list.active !== at) list.setActive(at, false);
    $('fleet-rows').focus({ preventScroll: true });
  }

  /** A FileList or File array (the folder input, a dropped folder walked by entries). */
  function scanFiles(fileList, { name, names } = {}) {
    const all = Array.from(fileList);
    const picked = [];
    const pickedNames = [];
    all.forEach((f, i) => {
      // Files from entries have no webkitRelativePath: their paths come in `names`.
      const n = names?.[i] ?? (f.webkitRelativePath || f.name);
      if (TSFILE_NAME.test(n)) {
        picked.push(f);
        pickedNames.push(n);
      }
    });
    const root = name ?? (pickedNames[0]?.split('/')[0] || 'folder');
    source = {
      name: `${root} (${fmt(picked.length)} TsFiles${all.length > picked.length ? `; ${fmt(all.length - picked.length)} other files passed by` : ''})`,
      targets: picked,
      names: names ? pickedNames : null,
      count: picked.length,
      // Records come in the order of the targets (scanTsFiles walks a list in order): row i is File i.
      resolve: async (r) => picked[r.index],
    };
    return run();
  }

  /** A FileSystemDirectoryHandle (showDirectoryPicker, or a folder dropped in Chromium): walked in the worker. */
  function scanDirectory(handle) {
    source = {
      name: handle.name,
      targets: handle,
      count: null,
      // The worker names files "<dir>/<sub>/…/<file>"; the same walk from the handle finds it.
      async resolve(r) {
        const parts = r.file.split('/').slice(1);
        let dir = handle;
        for (const p of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(p);
        return (await dir.getFileHandle(parts[parts.length - 1])).getFile();
      },
    };
    return run();
  }

  /**
   * http(s) URLs and bucket listings (views/remote.js): read in the worker, as a folder's files
   * are. `name` titles the view, `count` is the number of files when known, `resolve(row)` what a
   * row opens (an object's URL, which the inspector reads as it reads a dropped file).
   */
  function scanUrls(urls, { name, count = null, resolve = async (r) => r.file } = {}) {
    source = { name: name ?? `${fmt(urls.length)} URLs`, targets: [...urls], count, resolve };
    return run();
  }

  /**
   * A drop that holds a folder: scanned here, and true returned; otherwise false (the page opens
   * a dropped file as before). Must run during the drop event: its items expire after it.
   */
  function handleDrop(dt) {
    const items = [...(dt?.items ?? [])].filter((it) => it.kind === 'file');
    const entries = items.map((it) => it.webkitGetAsEntry?.() ?? null);
    const dirIndex = entries.findIndex((e) => e?.isDirectory);
    if (dirIndex < 0) return false;
    const item = items[dirIndex];
    const handle = item.getAsFileSystemHandle?.();
    if (handle) {
      handle.then((h) => (h?.kind === 'directory' ? scanDirectory(h) : walkEntry(entries[dirIndex]))).catch(() => walkEntry(entries[dirIndex]));
    } else walkEntry(entries[dirIndex]);
    return true;
  }

  /** The older entries API: the tree walked here (names only, no reading), files scanned in the worker. */
  async function walkEntry(root) {
    const files = [];
    const names = [];
    const walk = async (entry, prefix) => {
      if (entry.isFile) {
        if (!TSFILE_NAME.test(entry.name)) return;
        files.push(await new Promise((res, rej) => entry.file(res, rej)));
        names.push(`${prefix}${entry.name}`);
        return;
      }
      const reader = entry.createReader();
      const children = [];
      // readEntries returns the children in batches until an empty one.
      for (;;) {
        const batch = await new Promise((res, rej) => reader.readEntries(res, rej));
        if (!batch.length) break;
        children.push(...batch);
      }
      children.sort((a, b) => byText(a.name, b.name));
      for (const c of children) await walk(c, `${prefix}${entry.name}/`);
    };
    try {
      $('fleet').hidden = false;
      $('fleet-status').textContent = `Listing ${root.name}…`;
      await walk(root, '');
      await scanFiles(files, { name: root.name, names });
    } catch (e) {
      ctx.showError(e, `The folder ${root.name} could not be listed:`);
    }
  }

  async function pickFolder() {
    if (typeof globalThis.showDirectoryPicker === 'function') {
      try {
        await scanDirectory(await globalThis.showDirectoryPicker({ id: 'tsfile-folder', mode: 'read' }));
      } catch (e) {
        if (e?.name !== 'AbortError') ctx.showError(e, 'The folder could not be opened:');
      }
    } else $('folder-input').click();
  }

  $('folder-open').addEventListener('click', pickFolder);
  $('folder-input').addEventListener('change', (ev) => {
    const files = ev.target.files;
    if (files?.length) scanFiles(files);
    ev.target.value = '';
  });
  $('fleet-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    run();
  });
  $('fleet-cancel').addEventListener('click', () => running && ctx.worker.cancel(running));
  $('fleet-filter').addEventListener('input', applyView);
  $('fleet-show').addEventListener('change', applyView);
  $('fleet-head').addEventListener('click', (ev) => {
    const key = ev.target.closest('button')?.dataset.key;
    if (!key) return;
    sort = sort.key === key ? { key, dir: -sort.dir } : { key, dir: 1 };
    renderHead();
    applyView();
  });

  return {
    scanFiles,
    scanDirectory,
    scanUrls,
    handleDrop,
    back,
    /** For tests and the console. */
    get state() {
      return { rows: rows.length, shown: view.length, paths, running: !!running, summary, sort: { ...sort }, scrollTop: $('fleet-rows').scrollTop, active: list.active };
    },
  };
}

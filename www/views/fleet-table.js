// The folder view's table: one row per scanned file in a virtualised list, sortable by any
// column (a verdict column per path), filtered by name, error kind or what a row says.
import { $, el } from '../shared/dom.js';
import { fmt, pct } from '../shared/format.js';
import { MUST_READ } from '../pkg/js/core-tables.js';
import { auditLabel, DECISION_SHORT, VERDICT_ORDER } from '../shared/words.js';
import { VirtualList } from '../shared/vlist.js';

/** The health states the "show" menu picks out. */
const PAST_DESIGN = ['over_filled', 'high_fp'];

export const byText = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const byNumber = (a, b) => a - b;

/**
 * The order of two rows' values `a`, `b` for a sort in direction `dir` (1 or -1): missing
 * values (null: a file that could not be read, a figure a file does not have) last both ways.
 */
function sortOrder(compare, a, b, dir) {
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

/** Fills the list's `row` element with the page row `r`. */
function renderRow(row, r) {
  row.classList.add('fleet-cols');
  row.dataset.file = r.file;
  row.dataset.size = r.size ?? '';
  row.dataset.errorKind = r.error?.kind ?? '';
  row.dataset.verdicts = r.verdicts.join(' ');
  row.dataset.fill = r.fill ?? '';
  row.dataset.audit = auditText(r) ?? '';
  row.dataset.health = r.health?.state ?? '';
  const auditCell = r.error
    ? el('span', { class: 'cell' }, el('span', { class: 'badge warn', text: r.error.kind, title: `${r.error.message}${r.error.offset != null ? ` (at byte ${r.error.offset})` : ''}` }))
    : el('span', { class: 'cell', text: auditText(r) ?? '–' });
  row.replaceChildren(
    // An isolated left-to-right run in the right-to-left cell (style.css: cut from its start).
    el('span', { class: 'cell path', title: r.file }, el('bdi', { dir: 'ltr', text: r.file })),
    el('span', { class: 'cell num', text: fmt(r.size) }),
    el('span', { class: 'cell num', text: fmt(r.bitCount) }),
    el('span', { class: 'cell num', text: fmt(r.k) }),
    el('span', { class: 'cell num', text: pct(r.fill) }),
    el('span', { class: 'cell num', text: pct(r.fpp) }),
    auditCell,
    ...r.decisions.map((d) => el('span', { class: 'cell fleet-verdict' }, el('span', { class: `badge decision ${d ?? 'unread'}`, text: DECISION_SHORT[d] ?? 'unread' }))),
  );
}

/** A column's header button, its sort state told to screen readers. */
function headButton(c, sort) {
  const state = sort.key === c.key ? (sort.dir > 0 ? 'ascending' : 'descending') : 'none';
  const verdict = c.key.startsWith('v');
  // A path is cut from its start (paths of one folder share their prefix): the
  // isolated left-to-right run in a right-to-left box keeps its end in view.
  const label = verdict ? el('span', { class: 'cut-start' }, el('bdi', { dir: 'ltr', text: c.label })) : c.label;
  const title = verdict ? `Verdict for ${c.label}; click to sort` : `Sort by ${c.label.toLowerCase()}`;
  return el(
    'button',
    { type: 'button', 'data-key': c.key, 'data-sort': state, title, class: verdict ? 'fleet-verdict' : c.num ? 'num' : null },
    label,
    el('span', { class: 'visually-hidden', text: state === 'none' ? '' : ` (sorted ${state})` }),
  );
}

/** Whether row `r` passes the filter box (`needle`) and the "show" menu. */
function matches(r, needle, show) {
  if (show === 'error' && !r.error) return false;
  // The core's states (bloomInfo().health): over-filled is known only when the scan read the index.
  if (show === 'health' && !PAST_DESIGN.includes(r.health?.state)) return false;
  // By decision, as the summary counts: a file with an error is neither skipped nor held.
  if (show === 'skip' && (r.error || !r.decisions.length || r.decisions.some((d) => MUST_READ.includes(d)))) return false;
  if (show === 'hold' && (r.error || !r.decisions.some((d) => MUST_READ.includes(d)))) return false;
  if (!needle) return true;
  return r.file.toLowerCase().includes(needle) || (r.error != null && r.error.kind.includes(needle));
}

/**
 * The table over `t` (`{rows, paths}`, which the view replaces as scans go); `open(row)` on
 * Enter or a click. Returns `{list, renderHead, applyView, focusFile(file), get shown, get sort}`.
 */
export function createFleetTable(t, open) {
  let view = []; // indices into t.rows, filtered and sorted
  let sort = { key: null, dir: 1 };
  const list = new VirtualList($('fleet-rows'), {
    rowHeight: 28,
    label: 'Files of the folder; Enter opens the file in the inspector',
    render: (i, row) => renderRow(row, t.rows[view[i]]),
    onactivate: (i) => open(t.rows[view[i]]),
  });
  const columns = () => [
    ...COLUMNS,
    ...t.paths.map((p, j) => ({ key: `v${j}`, label: p, value: (r) => VERDICT_ORDER[r.verdicts[j]] ?? null, compare: byNumber })),
  ];

  function renderHead() {
    $('fleet-head').replaceChildren(...columns().map((c) => headButton(c, sort)));
    // No path asked: no verdict column (style.css's empty fallback).
    for (const id of ['fleet-head', 'fleet-rows']) {
      if (t.paths.length) $(id).style.setProperty('--fleet-verdicts', `repeat(${t.paths.length}, 7rem)`);
      else $(id).style.removeProperty('--fleet-verdicts');
    }
  }

  function applyView() {
    const needle = $('fleet-filter').value.trim().toLowerCase();
    const show = $('fleet-show').value;
    view = [];
    for (let i = 0; i < t.rows.length; i++) if (matches(t.rows[i], needle, show)) view.push(i);
    const col = columns().find((c) => c.key === sort.key);
    if (col) {
      // Stable: ties keep arrival (walk) order.
      const keys = t.rows.map(col.value);
      view.sort((a, b) => sortOrder(col.compare, keys[a], keys[b], sort.dir) || a - b);
    }
    list.setCount(view.length);
    $('fleet-shown').textContent = `${fmt(view.length)} of ${fmt(t.rows.length)} files shown`;
  }

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
    list,
    renderHead,
    applyView,
    /** The row of `file` active (without scrolling the page), if it is shown. */
    focusFile(file) {
      const at = view.findIndex((i) => t.rows[i].file === file);
      if (at >= 0 && list.active !== at) list.setActive(at, false);
    },
    get shown() {
      return view.length;
    },
    get sort() {
      return { ...sort };
    },
  };
}

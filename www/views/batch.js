// The batch: many paths tested in the worker (in chunks, with progress and cancel), the
// verdicts in a virtual list, exported as CSV or JSON.
import { $, download, el } from '../shared/dom.js';
import { fmt } from '../shared/format.js';
import { DECISION_SHORT, EITHER_TAIL, VERDICT_LABELS } from '../shared/words.js';
import { VirtualList } from '../shared/vlist.js';
import { probeOptions } from './probe.js';

const csvCell = (v) => {
  const s = v == null ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The CSV export: every row carries the hash and the audit its verdict rests on. */
function csvOf({ rows, hash, audit }) {
  const fixed = [hash.variant, hash.charset, hash.chosen, audit.status].map(csvCell).join(',');
  const lines = rows.map((r) => `${csvCell(r.path)},${r.verdict},${r.indexed ?? ''},${r.falsePositive},${fixed}`);
  return `path,verdict,indexed,false_positive,hash_variant,charset,hash_chosen_by,audit_status\r\n${lines.join('\r\n')}\r\n`;
}

/** A result row of the list; its badge is its decision's colour and words (style.css `.decision.*`). */
function renderRow(row, r) {
  row.dataset.verdict = r.verdict;
  row.dataset.falsePositive = String(r.falsePositive);
  const d = r.decision;
  row.replaceChildren(
    el('span', { class: `badge decision ${d}`, text: DECISION_SHORT[d], title: `verdict: ${r.verdict}` }),
    el('span', { class: 'path', text: r.path, title: r.path }),
    el('span', { class: 'type', text: r.indexed ? 'indexed' : r.indexed === false ? 'not indexed' : '' }),
  );
}

/**
 * The batch of the worker's decisions `res` for the file `cur` probed with `options`: `{rows:
 * [{path, verdict, decision, indexed, falsePositive}], counts, hash, audit}`.
 */
function batchOf(res, cur, options) {
  const counts = { absent: 0, maybe: 0, unknown: 0 };
  const rows = res.map((r) => {
    counts[r.verdict] = (counts[r.verdict] ?? 0) + 1;
    return { path: r.path, verdict: r.verdict, decision: r.decision, indexed: r.indexed, falsePositive: r.decision === 'false_positive' };
  });
  // What the verdicts rest on, for the exports: the hash chosen (the menus, or the writer's
  // as the audit establishes it) and the audit.
  const a = cur.audit;
  const hash = {
    // Ambiguous: every indexed path's tail is ASCII, where both tail variants agree.
    variant: options.variant ?? a?.variant ?? (a?.status === 'ambiguous' ? EITHER_TAIL : null),
    charset: options.charset ?? a?.charset ?? null,
    chosen: options.variant || options.charset ? 'menus' : 'audit',
  };
  return { rows, counts, hash, audit: { status: a?.status ?? 'unreadable', variant: a?.variant ?? null, charset: a?.charset ?? null } };
}

function summaryText({ rows, counts }) {
  const fp = rows.filter((r) => r.falsePositive).length;
  return `${fmt(rows.length)} paths: ${fmt(counts.absent)} ${VERDICT_LABELS.absent}, ${fmt(counts.maybe)} ${VERDICT_LABELS.maybe}${fp ? ` (${fmt(fp)} of them not in the index: false positives, marked)` : ''}${counts.unknown ? `, ${fmt(counts.unknown)} unknown` : ''}.`;
}

/** The run controls: a batch running (progress and Cancel shown) or not. */
function setRunning(on) {
  $('batch-progress').hidden = !on;
  $('batch-cancel').hidden = !on;
  $('batch-run').disabled = on;
}

/** `ctx`: `{worker, cur, showError, probePath(path), baseName()}`. Returns `{reset, runPaths(paths)}`. */
export function createBatchView(ctx) {
  let batch = null; // batchOf's
  let view = []; // indices into batch.rows, as filtered
  let running = null; // the batch in the worker (its probeMany promise), for this file only
  const list = new VirtualList($('batch-results'), {
    rowHeight: 28,
    label: 'Batch results; Enter probes the path',
    render: (i, row) => renderRow(row, batch.rows[view[i]]),
    onactivate: (i) => ctx.probePath(batch.rows[view[i]].path),
  });

  /** The rows the verdict filter lets through. */
  function applyFilter() {
    if (!batch) return;
    const show = $('batch-show').value;
    view = [];
    batch.rows.forEach((r, i) => {
      if (show === 'all' || (show === 'fp' ? r.falsePositive : r.verdict === show)) view.push(i);
    });
    list.setCount(view.length);
    $('batch-shown').textContent = show === 'all' ? '' : `${fmt(view.length)} of ${fmt(batch.rows.length)} shown`;
  }

  /** No batch results, and a running batch cancelled: the next file starts with an empty panel. */
  function reset() {
    if (running) ctx.worker.cancel(running);
    running = null;
    batch = null;
    view = [];
    list.setCount(0);
    $('batch-show').value = 'all';
    $('batch-shown').textContent = '';
    $('batch-results-box').hidden = true;
    $('batch-summary').textContent = '';
    $('batch-status').textContent = '';
    setRunning(false);
  }

  async function run() {
    const cur = ctx.cur;
    if (!cur || running) return;
    const paths = $('batch-input').value.split(/\r?\n/).map((l) => l.replace(/^\uFEFF/, '').trim()).filter(Boolean);
    if (!paths.length) {
      $('batch-status').textContent = 'Nothing to test: enter one path per line.';
      return;
    }
    const options = probeOptions();
    const t0 = performance.now();
    setRunning(true);
    $('batch-progress').value = 0;
    $('batch-status').textContent = `Testing ${fmt(paths.length)} paths…`;
    const onprogress = (p) => {
      if (running !== job) return;
      $('batch-progress').value = p.done / p.total;
      $('batch-status').textContent = `${fmt(p.done)} of ${fmt(p.total)} paths tested…`;
    };
    const job = ctx.worker.probeMany(paths, { ...options, decisions: true, onprogress });
    running = job;
    try {
      const res = await job;
      if (running !== job) return; // a new file replaced the one this batch was for
      batch = batchOf(res, cur, options);
      $('batch-results-box').hidden = false;
      $('batch-summary').textContent = summaryText(batch);
      applyFilter();
      $('batch-status').textContent = `Done in ${((performance.now() - t0) / 1000).toFixed(2)} s (in a background worker).`;
    } catch (e) {
      if (running !== job) return;
      $('batch-status').textContent = e.kind === 'cancelled' ? `Cancelled (${e.message}).` : '';
      if (e.kind !== 'cancelled') ctx.showError(e, 'The batch failed:');
    } finally {
      if (running === job) {
        running = null;
        setRunning(false);
      }
    }
  }

  $('batch-run').addEventListener('click', run);
  $('batch-cancel').addEventListener('click', () => running && ctx.worker.cancel(running));
  $('batch-indexed').addEventListener('click', () => {
    if (ctx.cur) $('batch-input').value = ctx.cur.series.map((s) => s.path).join('\n');
  });
  $('batch-file').addEventListener('change', async (ev) => {
    const f = ev.target.files[0];
    ev.target.value = '';
    if (!f) return;
    $('batch-input').value = await f.text();
    run();
  });
  $('export-csv').addEventListener('click', () => batch && download(new Blob([csvOf(batch)], { type: 'text/csv' }), `${ctx.baseName()}-probes.csv`));
  $('export-json').addEventListener('click', () => {
    if (!batch) return;
    const out = { file: ctx.cur?.name, hash: batch.hash, audit: batch.audit, results: batch.rows };
    download(new Blob([JSON.stringify(out, null, 1)], { type: 'application/json' }), `${ctx.baseName()}-probes.json`);
  });
  $('batch-show').addEventListener('change', applyFilter);

  return {
    reset,
    /** Tests `paths` as a batch (the folder view's paths, when a row opens its file). */
    runPaths(paths) {
      $('batch-input').value = paths.join('\n');
      return run();
    },
  };
}

// The batch: many paths tested in the worker (in chunks, with progress and cancel), the
// verdicts in a virtual list, exported as CSV or JSON.
import { entryOf } from '../shared/api.js';
import { $, download, el } from '../shared/dom.js';
import { fmt } from '../shared/format.js';
import { VirtualList } from '../shared/vlist.js';
import { probeOptions } from './probe.js';

/** `ctx`: `{worker, cur, showError, probePath(path), baseName()}`. Returns `{reset, runPaths(paths)}`. */
export function createBatchView(ctx) {
  let batch = null; // { rows: [{path, verdict, indexed}], counts }
  let running = null; // the batch in the worker (its probeMany promise), for this file only
  const list = new VirtualList($('batch-results'), {
    rowHeight: 28,
    label: 'Batch results',
    render(i, row) {
      const r = batch.rows[i];
      row.replaceChildren(
        el('span', { class: `badge ${r.verdict === 'absent' ? 'muted' : r.verdict === 'maybe' ? 'ok' : 'warn'}`, text: r.verdict }),
        el('span', { class: 'path', text: r.path, title: r.path }),
        el('span', { class: 'type', text: r.indexed ? 'indexed' : '' }),
      );
    },
    onactivate(i) {
      ctx.probePath(batch.rows[i].path);
    },
  });

  /** No batch results, and a running batch cancelled: the next file starts with an empty panel. */
  function reset() {
    if (running) ctx.worker.cancel(running);
    running = null;
    batch = null;
    list.setCount(0);
    $('batch-results-box').hidden = true;
    $('batch-summary').textContent = '';
    $('batch-status').textContent = '';
    $('batch-progress').hidden = true;
    $('batch-cancel').hidden = true;
    $('batch-run').disabled = false;
  }

  async function run() {
    const cur = ctx.cur;
    if (!cur || running) return;
    const paths = $('batch-input').value.split(/\r?\n/).map((l) => l.replace(/^\uFEFF/, '').trim()).filter(Boolean);
    if (!paths.length) {
      $('batch-status').textContent = 'Nothing to test: enter one path per line.';
      return;
    }
    const indexed = new Set(cur.series.map((s) => entryOf(s).path));
    const t0 = performance.now();
    $('batch-progress').hidden = false;
    $('batch-progress').value = 0;
    $('batch-cancel').hidden = false;
    $('batch-run').disabled = true;
    $('batch-status').textContent = `Testing ${fmt(paths.length)} paths…`;
    const job = ctx.worker.probeMany(paths, {
      ...probeOptions(),
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
      list.setCount(rows.length);
      $('batch-status').textContent = `Done in ${((performance.now() - t0) / 1000).toFixed(2)} s (in a background worker).`;
    } catch (e) {
      if (running !== job) return;
      $('batch-status').textContent = e.kind === 'cancelled' ? `Cancelled (${e.message}).` : '';
      if (e.kind !== 'cancelled') ctx.showError(e, 'The batch failed:');
    } finally {
      if (running === job) {
        running = null;
        $('batch-progress').hidden = true;
        $('batch-cancel').hidden = true;
        $('batch-run').disabled = false;
      }
    }
  }

  $('batch-run').addEventListener('click', run);
  $('batch-cancel').addEventListener('click', () => running && ctx.worker.cancel(running));
  $('batch-indexed').addEventListener('click', () => {
    if (ctx.cur) $('batch-input').value = ctx.cur.series.map((s) => entryOf(s).path).join('\n');
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
    run();
  });

  const csvCell = (s) => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  $('export-csv').addEventListener('click', () => {
    if (!batch) return;
    const text = `path,verdict,indexed\r\n${batch.rows.map((r) => `${csvCell(r.path)},${r.verdict},${r.indexed}`).join('\r\n')}\r\n`;
    download(new Blob([text], { type: 'text/csv' }), `${ctx.baseName()}-probes.csv`);
  });
  $('export-json').addEventListener('click', () => {
    if (!batch) return;
    download(new Blob([JSON.stringify({ file: ctx.cur?.name, results: batch.rows }, null, 1)], { type: 'application/json' }), `${ctx.baseName()}-probes.json`);
  });

  return {
    reset,
    /** Tests `paths` as a batch (the folder view's paths, when a row opens its file). */
    runPaths(paths) {
      $('batch-input').value = paths.join('\n');
      return run();
    },
  };
}

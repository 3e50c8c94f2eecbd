// The series list: every indexed series (and, on request, the time columns) in a virtual
// list, filtered by text and by whether the filter misses it. Activating a row probes it.
import { $, el } from '../shared/dom.js';
import { count, fmt } from '../shared/format.js';
import { VirtualList } from '../shared/vlist.js';

/** Entry j of the file's listing: series first, then time columns. */
export function entryAt(cur, j) {
  const n = cur.series.length;
  return j < n ? { ...cur.series[j], time: false } : { ...cur.timeColumns[j - n], time: true };
}

/** Lower-cased paths of the listing (series, then time columns), computed once per file. */
export function lowerPaths(cur) {
  cur.lowerPaths ??= cur.series.concat(cur.timeColumns).map((s) => s.path.toLowerCase());
  return cur.lowerPaths;
}

/** `ctx`: `{cur, probePath(path)}`. */
export function createSeriesView(ctx) {
  let view = []; // indices into the listing
  const list = new VirtualList($('series'), {
    rowHeight: 28,
    label: 'Indexed series',
    render(i, row) {
      const s = entryAt(ctx.cur, view[i]);
      const missed = s.maybePresent === false;
      row.replaceChildren(
        el('span', { class: `badge ${missed ? 'warn' : 'ok'}`, text: missed ? 'not in filter' : 'in filter', title: missed ? 'the index lists this series but some of its bits are clear: a reader trusting the filter would miss it' : 'all its bits are set' }),
        el('span', { class: 'path', text: s.path, title: s.path }),
        el('span', { class: 'type', text: s.time ? 'time column' : (s.dataType ?? '') }),
      );
    },
    onactivate(i) {
      ctx.probePath(entryAt(ctx.cur, view[i]).path);
    },
  });

  function filter() {
    const cur = ctx.cur;
    if (!cur) return;
    const q = $('series-filter').value.trim().toLowerCase();
    const mode = $('series-status').value;
    const n = cur.series.length;
    const total = n + cur.timeColumns.length;
    const lower = lowerPaths(cur);
    const out = [];
    for (let j = 0; j < total; j++) {
      if (mode === 'time' && j < n) continue;
      if (mode === 'all' && j >= n) continue; // time columns only on request: they are not queryable series
      if (mode === 'missing' && (j < n ? cur.series[j] : cur.timeColumns[j - n]).maybePresent !== false) continue;
      if (q && !lower[j].includes(q)) continue;
      out.push(j);
    }
    view = out;
    list.setCount(out.length);
    $('series-shown').textContent = q || mode !== 'all' ? `${fmt(out.length)} shown` : '';
  }

  let timer = 0;
  $('series-filter').addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(filter, ctx.cur && ctx.cur.series.length > 20000 ? 150 : 30);
  });
  $('series-status').addEventListener('change', filter);

  return {
    /** The open file's listing is in `ctx.cur`. */
    render() {
      const cur = ctx.cur;
      cur.lowerPaths = null;
      $('series-count').textContent = `(${fmt(cur.series.length)}${cur.timeColumns.length ? ` + ${count(cur.timeColumns.length, 'time column')}` : ''})`;
      $('series-filter').value = '';
      filter();
    },
    reset() {
      view = [];
      list.setCount(0);
    },
  };
}

// The teaching panel: the false-positive curve for the loaded file (with a measured rate), a
// sandbox filter (TsFile or LevelDB geometry) whose bits flip as paths are added, the
// signed-vs-zero-extended tail pitfall on a real non-ASCII path, and TsFile vs LevelDB (static).
// Every formula, hash and filter comes from the package in the page's worker (js/worker-teach.js,
// ops 'teach.*'): this thread creates no wasm instance. The views are in views/teach/.
import { $ } from './shared/dom.js';
import { createFileView } from './views/teach/file.js';
import { createPitfall } from './views/teach/pitfall.js';
import { createSandbox } from './views/teach/sandbox.js';

/** The API's result objects, read in one place: the open file as the panel's views see it. */
function fileFacts(st) {
  const info = st?.info;
  if (!info) return null;
  const b = info.bloom ?? {};
  return {
    present: !!(b.present && st.bits),
    synthetic: !!info.synthetic,
    blob: st.blob ?? null,
    m: b.bit_count,
    k: b.hash_function_count,
    indexedItems: b.indexed_items ?? null,
    estimatedItems: b.estimated_items,
    fillRatio: b.fill_ratio,
    fppFromFill: b.fpp_from_fill,
    audit: st.audit ?? null,
    auditStatus: st.audit?.status ?? null,
    series: st.series.map((s) => s.path),
    timeColumns: st.timeColumns.map((s) => s.path),
  };
}

/** What the worker needs to hold its own copy of the file's filter (teach.setFile). */
function fileSource(f) {
  if (!f?.present) return {};
  if (f.synthetic) return { synthetic: { bitCount: f.m, hashFunctionCount: f.k, paths: f.series }, indexed: f.series };
  return { blob: f.blob, indexed: f.series.concat(f.timeColumns), seriesCount: f.series.length, audit: f.audit };
}

/**
 * Starts the panel on `worker` (a worker-client): the sandbox's demo filter, the default
 * pitfall path and the curves are drawn before any file is opened. Returns `{setFile}`.
 */
export function initTeach(worker) {
  if (!$('teach')) return { setFile() {} };
  const call = (op, args, onprogress) => worker.call(op, args, onprogress);
  const fileView = createFileView(call);
  const pitfall = createPitfall(call);
  const startSandbox = createSandbox(call);
  const showPitfall = (custom) => pitfall(custom).catch((e) => ($('pf-fn').textContent = `The demo could not run: ${e.message}`));
  $('pf-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    showPitfall($('pf-path').value);
  });
  $('pf-reset').addEventListener('click', () => showPitfall());
  fileView.show(null);
  Promise.all([startSandbox(), showPitfall()])
    .then(() => ($('teach').dataset.ready = 'true'))
    .catch((e) => ($('sb-log').textContent = `The sandbox could not start: ${e.message}`));

  let seq = 0;
  /** The file's state once it is ready (app.js), or null while loading / on error. */
  async function setFile(st) {
    const mine = ++seq;
    const f = fileFacts(st);
    try {
      await fileView.show(null);
      const hypothesis = await call('teach.setFile', fileSource(f));
      if (mine !== seq) return;
      await fileView.show(f, hypothesis);
      if (mine === seq) await showPitfall();
    } catch (e) {
      if (mine === seq) $('teach-file-none').textContent = `The panel could not read this file: ${e.message}`;
    }
  }
  return { setFile };
}

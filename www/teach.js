// The teaching panel: the false-positive curve for the loaded file (with a measured rate), a
// sandbox filter (TsFile or LevelDB geometry) whose bits flip as paths are added, the
// signed-vs-zero-extended tail pitfall on a real non-ASCII path, and TsFile vs LevelDB (static).
// Every formula, hash and filter comes from the package in the page's worker (js/worker-teach.js,
// ops 'teach.*'): this thread creates no wasm instance. The views are in views/teach/.
import { bloomOf, entryOf } from './shared/api.js';
import { $ } from './shared/dom.js';
import { createFileView } from './views/teach/file.js';
import { createPitfall } from './views/teach/pitfall.js';
import { createSandbox } from './views/teach/sandbox.js';

/** The open file as the panel's views see it (the API's objects are read in shared/api.js). */
function fileFacts(st) {
  const info = st?.info;
  if (!info) return null;
  const b = bloomOf(info);
  return {
    present: !!(b.present && st.bits),
    synthetic: !!info.synthetic,
    blob: st.blob ?? null,
    m: b.bitCount,
    k: b.hashFunctionCount,
    indexedItems: b.indexedItems,
    estimatedItems: b.estimatedItems,
    fillRatio: b.fillRatio,
    fppFromFill: b.fppFromFill,
    audit: st.audit ?? null,
    auditStatus: st.audit?.status ?? null,
    series: st.series.map((s) => entryOf(s).path),
    timeColumns: st.timeColumns.map((s) => entryOf(s).path),
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

// The teaching panel: the sandbox (a real filter whose bits flip as paths are added, warning
// when it is filled past its design n), the step-through of one insert or lookup, the
// calculator, the textbook's lesson claim by claim with a measured demonstration for each,
// the open file on its false-positive curve, and the signed-vs-zero-extended tail pitfall.
// Every formula, hash, filter and measurement comes from the worker (www/worker/teach-ops.js, ops
// 'teach.*': the package and the page's teaching module): this thread creates no wasm instance.
// The views are in views/teach/.
import { $ } from './shared/dom.js';
import { createCalc } from './views/teach/calc.js';
import { createLesson } from './views/teach/lesson.js';
import { createPitfall } from './views/teach/pitfall.js';
import { createSandbox } from './views/teach/sandbox.js';
import { createStep } from './views/teach/step.js';

/** The open file as the panel's views see it. */
function fileFacts(st) {
  const info = st?.info;
  if (!info) return null;
  const b = info.bloom;
  return {
    name: st.name ?? info.name ?? 'the open file',
    present: !!(b.present && st.bits),
    synthetic: !!info.synthetic,
    blob: st.blob ?? null,
    m: b.bitCount,
    k: b.hashFunctionCount,
    indexedItems: b.indexedItems,
    estimatedItems: b.estimatedItems,
    audit: st.audit ?? null,
    series: st.series.map((s) => s.path),
    timeColumns: st.timeColumns.map((s) => s.path),
  };
}

/** n for the formula: the index's count under the writer's hypothesis, else the filter's own estimate (null: neither). */
function itemsOf(f, hypothesis) {
  if (f.indexedItems != null) return f.indexedItems;
  if (f.audit && (f.series.length || f.timeColumns.length)) return f.series.length + (hypothesis?.timeColumns ? f.timeColumns.length : 0);
  return Number.isFinite(f.estimatedItems) ? Math.round(f.estimatedItems) : null;
}

/** What the worker needs to hold its own copy of the file's filter (teach.setFile). */
function fileSource(f) {
  if (!f?.present) return {};
  if (f.synthetic) return { synthetic: { bitCount: f.m, hashFunctionCount: f.k, paths: f.series }, indexed: f.series };
  return { blob: f.blob, indexed: f.series.concat(f.timeColumns), seriesCount: f.series.length, audit: f.audit };
}

/**
 * Starts the panel on `worker` (a worker-client): the sandbox's demo filter, the default
 * pitfall path, the curves and the lesson are drawn before any file is opened. Returns `{setFile}`.
 */
export function initTeach(worker) {
  if (!$('teach')) return { setFile() {} };
  const call = (op, args, onprogress) => worker.call(op, args, onprogress);
  const pitfall = createPitfall(call);
  const sandbox = createSandbox(call);
  const step = createStep(call, sandbox);
  const calc = createCalc(call);
  const lesson = createLesson(call, { step, calc, sandbox });
  const showPitfall = (custom) => pitfall(custom).catch((e) => ($('pf-fn').textContent = `The demo could not run: ${e.message}`));
  $('pf-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    showPitfall($('pf-path').value);
  });
  $('pf-reset').addEventListener('click', () => showPitfall());
  Promise.all([sandbox.start(), showPitfall()])
    .then(() => {
      $('teach').dataset.ready = 'true';
      // A shared link: the calculator's setting (#calc:…) or a claim (#teach-claim-N) shown on load.
      if (!calc.restore()) lesson.show(Number(/^#teach-claim-(\d+)$/.exec(location.hash)?.[1]));
    })
    .catch((e) => ($('sb-log').textContent = `The sandbox could not start: ${e.message}`));

  let seq = 0;
  /** The file's state once it is ready (app.js), or null while loading / on error. */
  async function setFile(st) {
    const mine = ++seq;
    const f = fileFacts(st);
    try {
      $('teach-file-error').hidden = true;
      step.setFile(null);
      calc.setFile(null);
      lesson.setFile(null);
      const hypothesis = await call('teach.setFile', fileSource(f));
      if (mine !== seq) return;
      if (f?.present) {
        const n = itemsOf(f, hypothesis);
        step.setFile(f);
        calc.setFile({ n, m: f.m, k: f.k });
        await lesson.setFile({ ...f, itemsN: n });
      }
      if (mine === seq) await showPitfall();
    } catch (e) {
      if (mine === seq) {
        $('teach-file-error').hidden = false;
        $('teach-file-error').textContent = `The panel could not read this file: ${e.message}`;
      }
    }
  }
  return { setFile };
}

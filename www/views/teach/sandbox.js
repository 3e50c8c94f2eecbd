// The sandbox: a small filter (TsFile's fixed m and k, or LevelDB's geometry derived from
// bits_per_key and the keys) whose bits flip as paths are added. The filter lives in the
// worker (teach.sandbox*); this view sends the controls and draws the answers (its bits:
// sandbox-grid.js).
import { $, el, pointWord } from '../../shared/dom.js';
import { fmt } from '../../shared/format.js';
import { about, pct } from './numbers.js';
import { VERDICT_LABELS } from '../../shared/words.js';
import { ERROR_RATE } from '../../pkg/js/core-tables.js';
import { drawCurve, fifths } from './chart.js';
import { drawAtWidth } from './width.js';
import { createSandboxGrid } from './sandbox-grid.js';

const slider = (id) => Number($(id).value);

/** The facts beside the grid for the worker's view `v`: planned, now, the measured fill. */
function facts(v, isTs) {
  const { plan, now } = v;
  const bpk = slider('sb-bpk');
  const planned = isTs
    ? `n = ${fmt(plan.n)}, m = ${fmt(plan.m)}, k = ${plan.k}: formula FPP ${pct(plan.fpp)} · k* = ${about(plan.kStar)} · ${about(plan.bitsPerKey)} bits per path`
    : `n = ${fmt(plan.n)} keys × ${bpk} bits_per_key → m = max(64, n·bpk) rounded to bytes = ${fmt(plan.m)}, k = floor(${bpk} × 69/100) = ${plan.k}: formula FPP ${pct(plan.fpp)}`;
  return [
    ['Planned', planned],
    ['Now', `${fmt(v.n)} path${v.n === 1 ? '' : 's'} added into m = ${fmt(v.m)}, k = ${v.k}: formula FPP ${pct(now.fpp)}; expected fill ${pct(now.expectedFill)}`],
    ['Measured fill', `${fmt(v.setBits)} of ${fmt(v.m)} bits set = ${pct(v.fill)} → fill^k = ${pct(v.fppFromFill)}`],
  ];
}

/** Everything but the grid for the worker's view `v` in `mode`: the controls' read-outs, the facts, the curves, the overfill warning. */
function renderView(v, mode) {
  const isTs = mode === 'tsfile';
  for (const id of ['sb-m', 'sb-k', 'sb-size']) $(id).disabled = !isTs;
  $('sb-bpk-row').hidden = isTs;
  $('sb-n-out').value = fmt(v.plan.n);
  $('sb-m-out').value = isTs ? fmt(slider('sb-m')) : `${fmt(v.m)} (derived)`;
  $('sb-k-out').value = isTs ? String(slider('sb-k')) : `${v.plan.k} (derived)`;
  $('sb-bpk-out').value = String(slider('sb-bpk'));
  $('sb-facts').replaceChildren(...facts(v, isTs).flatMap(([dt, dd], i) => [el('dt', { text: dt }), el('dd', { text: dd, 'data-testid': ['sb-planned', 'sb-now', 'sb-fill'][i] })]));
  const ds = $('teach-sandbox').dataset;
  Object.assign(ds, { m: String(v.m), k: String(v.k), set: String(v.setBits), n: String(v.n) });
  delete ds.measured;
  $('sb-measure-out').textContent = '';
  drawKCurve($('sb-curve'), v.curve, isTs ? 8 : null);
  const over = $('sb-overfill');
  over.hidden = !v.overfill?.warning;
  over.textContent = v.overfill?.warning ?? '';
  ds.overfilled = v.overfill?.warning ? 'true' : 'false';
  $('sb-growth').toggleAttribute('hidden', !v.overfill); // an SVG element has no .hidden
  if (v.overfill) drawGrowth($('sb-growth'), v.overfill);
  $('sb-curve-note').textContent = v.n ? `Curve for the ${fmt(v.n)} added path${v.n === 1 ? '' : 's'} in m = ${fmt(v.m)} bits.` : `Curve for the planned n = ${fmt(v.plan.n)} in m = ${fmt(v.plan.m)} bits (nothing added yet).`;
}

/** The log line after teach.sandboxAdd's answer `r` (`probes`: flashed). */
function addedLog(r, probes) {
  if (r.added.length !== 1) return `Added ${fmt(r.added.length)} paths; the last, ${r.last}, set bits ${probes.map((p) => p.bit).join(', ')}.`;
  const flipped = probes.filter((p) => p.flipped).length;
  const known = probes.length && probes[0].flipped != null;
  const each = probes.map((p) => `${p.label} → bit ${p.bit}${p.flipped === true ? ' (flipped 0→1)' : p.flipped === false ? ' (already set)' : ''}`).join(', ');
  return `Added ${r.last}: ${each}.${known ? ` ${flipped} of ${probes.length} bits flipped.` : r.rebuilt ? ' The filter grew (m = max(64, n × bits_per_key)), so LevelDB rebuilt it and every key’s bits moved.' : ''}`;
}

/** The verdict and log line after teach.sandboxTest's answer `r`. */
function showTested(r, probes) {
  const v = $('sb-verdict');
  v.className = `verdict ${r.verdict}`;
  v.textContent = `${VERDICT_LABELS[r.verdict]}${r.verdict === 'absent' ? '' : r.added ? ' (it was added)' : ' — a false positive'}`;
  v.dataset.verdict = r.verdict;
  $('sb-log').textContent = `Tested ${r.path}: ${probes.map((p) => `${p.label} → bit ${p.bit} ${p.set ? 'set' : 'clear'}`).join(', ')}.${r.verdict === 'absent' ? ' A clear bit proves it was never added.' : r.added ? '' : ' Every probed bit was set by other paths.'}`;
}

/** `call(op, args)` reaches the worker. Returns `{start(), controls(), highlight(list), add(path), plannedN()}`; start() shows the demo filter. */
export function createSandbox(call) {
  const box = { mode: 'tsfile', view: null };
  const grid = createSandboxGrid(call, box);
  const controls = () => ({ mode: box.mode, m: slider('sb-m'), k: slider('sb-k'), bitsPerKey: slider('sb-bpk'), plannedN: slider('sb-n') });
  const op = async (name, args = {}) => {
    const r = await call(name, { ...args, controls: controls() });
    box.view = r.view;
    return r;
  };
  function render() {
    renderView(box.view, box.mode);
    grid.draw();
  }

  async function addPaths(paths, random = 0) {
    const r = await op('teach.sandboxAdd', { paths, random });
    if (!r.added.length) return;
    $('sb-log').textContent = addedLog(r, grid.flash('add', r.probes));
    $('sb-verdict').textContent = '';
    render();
  }

  async function testPath(path) {
    if (!path.trim()) return;
    const r = await op('teach.sandboxTest', { path });
    showTested(r, grid.flash('test', r.probes));
    render();
  }

  async function measure() {
    if (!box.view?.n) {
      $('sb-measure-out').textContent = 'Add some paths first: an empty filter answers “absent” to everything.';
      return;
    }
    const r = await call('teach.sandboxMeasure', { controls: controls() });
    $('sb-measure-out').textContent = `${fmt(r.maybe)} of ${fmt(r.count)} random absent paths said “maybe”: ${pct(r.rate)} measured (95% interval ${pct(r.interval.low)} – ${pct(r.interval.high)}) vs ${pct(r.fpp)} by the formula.${r.mode === 'leveldb' && r.rate > 1.3 * r.fpp ? ' (LevelDB’s double hashing from one 32-bit hash makes some keys test fewer than k distinct bits, so small filters run above the formula.)' : ''}`;
    Object.assign($('teach-sandbox').dataset, { measured: String(r.rate), low: String(r.interval.low), high: String(r.interval.high) });
  }

  const refresh = async () => {
    await op('teach.sandboxView');
    grid.flash(null);
    render();
  };
  const failed = (e) => ($('sb-log').textContent = `The sandbox could not run: ${e.message}`);
  const guard = (fn) => (...args) => fn(...args).catch(failed);

  async function setMode() {
    box.mode = document.querySelector('input[name=sb-mode]:checked').value;
    $('teach-sandbox').dataset.mode = box.mode;
    await refresh();
    $('sb-log').textContent = box.mode === 'leveldb' ? 'LevelDB geometry: k and m follow bits_per_key and the number of keys; the filter is rebuilt over all keys, as LevelDB builds one per 2 KiB window.' : 'TsFile geometry: m and k are fixed; added paths fill the same bits.';
  }

  async function javaSize() {
    const n = slider('sb-n');
    const { bitCount: m, hashFunctionCount: k } = await call('teach.call', { fn: 'package.javaSizing', args: [n] });
    $('sb-m').value = String(Math.min(Number($('sb-m').max), m));
    $('sb-k').value = String(k);
    await refresh();
    $('sb-log').textContent = `Java's getEmptyBloomFilter(${ERROR_RATE.default}, ${fmt(n)}): m = ${fmt(m)}${m > Number($('sb-m').max) ? ` (capped at ${$('sb-m').max} here)` : ''}, k = ${k}.`;
  }

  async function submit(ev) {
    ev.preventDefault();
    const v = $('sb-path').value;
    if ((ev.submitter?.value ?? 'add') === 'test') return testPath(v);
    await addPaths(v.split(/\r?\n|,\s*/));
    $('sb-path').select();
  }

  async function clear() {
    await op('teach.sandboxClear');
    grid.flash(null);
    $('sb-log').textContent = 'Cleared.';
    $('sb-verdict').textContent = '';
    delete $('sb-verdict').dataset.verdict;
    render();
  }

  for (const id of ['sb-m', 'sb-k', 'sb-bpk', 'sb-n']) $(id).addEventListener('input', guard(refresh));
  for (const r of document.querySelectorAll('input[name=sb-mode]')) r.addEventListener('change', guard(setMode));
  $('sb-size').addEventListener('click', guard(javaSize));
  $('sb-form').addEventListener('submit', guard(submit));
  $('sb-random').addEventListener('click', guard(() => addPaths([], 100)));
  $('sb-clear').addEventListener('click', guard(clear));
  $('sb-measure').addEventListener('click', guard(measure));

  return {
    /** The first view: the worker starts the sandbox with a small demo filter. */
    async start() {
      $('teach-sandbox').dataset.mode = box.mode;
      // The sliders start at the teaching module's defaults (teach::plan::SANDBOX_DEFAULTS).
      const r = await call('teach.sandboxView', { controls: { mode: box.mode, plannedN: slider('sb-n') } });
      box.view = r.view;
      for (const [id, v] of [['sb-m', r.view.m], ['sb-k', r.view.k], ['sb-bpk', r.view.bitsPerKey]]) $(id).value = String(v);
      if (r.demo) $('sb-log').textContent = `A demo filter with ${r.demo.length} paths (${r.demo[0]} … ${r.demo[r.demo.length - 1]}): add your own, test one, ${pointWord()} a bit to see who set it, or Clear to start empty.`;
      render();
    },
    controls,
    highlight: grid.highlight,
    /** Adds one path (as the Add button does). */
    add: (path) => addPaths([path]).catch(failed),
    /** The sandbox's planned n (its design n). */
    plannedN: () => slider('sb-n'),
  };
}

/** The formula over whole k for the sandbox (`c`: teach's formula with its samples), k* and the sandbox's own k marked, TsFile's `cap` shaded. */
function drawKCurve(host, c, cap) {
  const { n, m, k, kStar, samples } = c;
  const kMax = Math.max(8, Math.min(cap ? 16 : 32, Math.ceil(Math.max(k, kStar) * 1.6) + 1));
  const line = samples.slice(0, kMax).map((p, i) => [i + 1, p]);
  const best = line.reduce((a, b) => (b[1] < a[1] ? b : a));
  host.setAttribute('aria-label', `False-positive probability against k for n = ${fmt(n)} items in m = ${fmt(m)} bits: ${pct(c.fpp)} at k = ${k}; the optimum k* = ${about(kStar)}; the best whole k here, ${best[0]}, gives ${pct(best[1])}.`);
  drawAtWidth(host, (W) => drawCurve(host, W, {
    line,
    x0: 1,
    lowest: best[1],
    ticks: line.map(([kk]) => kk),
    label: 'k, hash functions per key',
    cap,
    marks: kStar <= kMax ? [{ x: kStar, text: `k* = (m/n)·ln 2 = ${about(kStar)}`, 'data-k-star': kStar.toFixed(3) }] : [],
    points: [{ x: Math.min(k, kMax), p: c.fpp, r: 6, cls: 'c-point', text: `k = ${k}: ${pct(c.fpp)}`, 'data-k': k }],
    legend: kStar > kMax ? [`The best k ≈ ${Math.round(kStar)} is off this chart, to the right.`] : [],
  }), 520);
}

/** p against n for the sandbox's fixed m and k (the core's points `o.curve`), the design and current n marked. */
function drawGrowth(host, o) {
  host.setAttribute('aria-label', `False-positive rate against n for this filter: ${pct(o.atDesign)} at the planned n = ${fmt(o.design)}, ${pct(o.atNow)} now at n = ${fmt(o.now)}.`);
  drawAtWidth(host, (W) => drawCurve(host, W, {
    line: o.curve,
    x0: 0,
    lowest: Math.min(...o.curve.map(([, p]) => p).filter((p) => p > 0), o.atDesign),
    ticks: fifths(o.curve.at(-1)[0]),
    label: 'n, keys added to the same m and k',
    marks: [{ x: o.design, text: `planned n = ${fmt(o.design)}: ${pct(o.atDesign)}`, 'data-design': o.design }],
    points: [{ x: o.now, p: o.atNow, r: 6, cls: 'c-point', text: `now n = ${fmt(o.now)}: ${pct(o.atNow)}`, 'data-n': o.now }],
  }), 520);
}

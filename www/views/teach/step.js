// The step-through: one insert or lookup, one hash function at a time, forwards and back at a
// chosen speed, on the sandbox or on the open file. The worker computes the whole trace once
// (teach.trace: the teaching module's core); this view only reveals its steps and, on the
// sandbox, rings the bits on the sandbox's grid.
import { $, el } from '../../shared/dom.js';
import { fmt, hex, seedColor } from '../../shared/format.js';

// Seconds per step at each speed setting (1 slow … 5 fast).
const SPEEDS = [2, 1.2, 0.7, 0.4, 0.2];

/** The last cursor position: past the stopping step of an absent lookup, else past every step. */
const maxCursor = (t) => (t.stoppedAt != null ? t.stoppedAt + 1 : t.steps.length);

/** The key line: the path's bytes and how the scheme turns them into k bits. */
function keyLine(t) {
  const bytes = t.key;
  const shown = bytes.length > 48 ? `${bytes.slice(0, 48).map(hex).join(' ')} …` : bytes.map(hex).join(' ');
  const parts = [`${t.path}: ${fmt(bytes.length)} bytes in ${t.charset} — ${shown}.`];
  if (t.scheme === 'tsfile') {
    const full = Math.floor(bytes.length / 16);
    parts.push(` Murmur128 reads ${full} full 16-byte block${full === 1 ? '' : 's'} and a tail of ${t.tailLen} byte${t.tailLen === 1 ? '' : 's'} (${t.variant} tail); each of the k = ${t.k} seeds gives one hash32, and |hash32| mod m = ${fmt(t.m)} picks a bit.`);
  } else {
    parts.push(` BloomHash(key) = ${t.leveldbHash}; δ = h rotated right by 17 = ${t.leveldbDelta}; probe j is h + j·δ (mod 2³²), mod m = ${fmt(t.m)}, for j = 0 … ${t.k - 1}.`);
  }
  return parts.join('');
}

/** The steps revealed up to `cursor` (at the end, the hashes an early stop left uncomputed too). */
function stepItems(t, cursor, done) {
  return t.steps.flatMap((s, j) => {
    if (!(j < cursor || (done && s.action === 'not-computed'))) return [];
    const sw = el('span', { class: 'swatch', 'aria-hidden': 'true' });
    sw.style.background = seedColor(j);
    const attrs = { class: `st-step ${s.action}${j === cursor - 1 ? ' current' : ''}`, 'data-testid': 'st-step', 'data-index': String(s.index), 'data-seed': s.seed ?? '', 'data-hash': s.hash ?? '', 'data-bit': s.bit ?? '', 'data-action': s.action };
    return [el('li', attrs, sw, ' ', s.text)];
  });
}

/** The line under the steps: where the cursor is, or the trace's summary at the end. */
function summaryText(t, cursor, max, done) {
  let summary = done ? t.summary : cursor === 0 ? 'Press Next (or Play) to compute the first hash.' : `Step ${cursor} of ${max}.`;
  if (done && t.op === 'insert' && t.target === 'file') summary += ' (A preview: the file is not changed — a TsFile’s filter is written once, when the file is closed.)';
  if (done && t.op === 'query' && t.target === 'file' && t.listed) summary += ' The file’s index lists this path.';
  return summary;
}

/** The file target enabled for the open file `f` (null: none), and its first 500 series offered for the path box. */
function offerFile(f) {
  $('st-target').querySelector('option[value=file]').disabled = !f;
  if (!f && $('st-target').value === 'file') $('st-target').value = 'sandbox';
  $('st-series').replaceChildren(...(f ? f.series.slice(0, 500).map((p) => el('option', { value: p })) : []));
}

/** Shows state `st` (`{trace, cursor, timer}`) in `box`: the buttons, the steps so far, and their rings on the sandbox's grid. */
function render(box, st, sandbox) {
  const t = st.trace;
  const max = t ? maxCursor(t) : 0;
  $('st-back').disabled = !t || st.cursor <= 0;
  $('st-next').disabled = !t || st.cursor >= max;
  $('st-play').disabled = !t || (st.cursor >= max && !st.timer);
  if (!t) {
    sandbox.highlight([]);
    return;
  }
  const ds = box.dataset;
  Object.assign(ds, { ready: 'true', action: t.op, target: t.target, scheme: t.scheme, cursor: String(st.cursor), max: String(max), m: String(t.m), k: String(t.k) });
  const done = st.cursor >= max;
  if (done && t.verdict) ds.verdict = t.verdict;
  else delete ds.verdict;
  $('st-key').textContent = keyLine(t);
  $('st-steps').replaceChildren(...stepItems(t, st.cursor, done));
  $('st-summary').textContent = summaryText(t, st.cursor, max, done);
  $('st-commit').hidden = !(done && t.op === 'insert' && t.target === 'sandbox' && !t.added);
  // The sandbox grid: a ring on every bit reached so far, filled where the bit is (now) 1.
  if (t.target === 'sandbox') sandbox.highlight(t.steps.slice(0, st.cursor).flatMap((s) => (s.bit == null ? [] : [{ bit: s.bit, color: seedColor(s.index), set: t.op === 'insert' || s.wasSet }])));
}

/** The trace's lines emptied (its file was closed). */
function clearShown(box) {
  $('st-steps').replaceChildren();
  $('st-key').textContent = '';
  $('st-summary').textContent = '';
  delete box.dataset.verdict;
}

/** Scrolls the step-through `box` to the top of the screen, below the grid where the grid sticks above it (a phone). */
function reveal(box) {
  const wrap = $('sb-grid').parentElement;
  const beside = wrap.getBoundingClientRect().left >= box.getBoundingClientRect().right;
  box.style.scrollMarginTop = beside ? '' : `${wrap.offsetHeight + 8}px`;
  box.scrollIntoView({ block: 'start' });
}

const speedLabel = () => {
  $('st-speed-out').value = `${SPEEDS[Number($('st-speed').value) - 1]} s per step`;
};

/** The form's and the buttons' listeners, onto the step-through's actions `a` (`{run, move, play, replay, commit}`). */
function bindControls(a) {
  $('st-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    a.run(ev.submitter?.value === 'insert' ? 'insert' : 'query');
  });
  $('st-next').addEventListener('click', () => a.move(1));
  $('st-back').addEventListener('click', () => a.move(-1));
  $('st-play').addEventListener('click', a.play);
  $('st-speed').addEventListener('input', () => {
    speedLabel();
    a.replay();
  });
  $('st-commit').addEventListener('click', a.commit);
  speedLabel();
}

/**
 * `call(op, args)` reaches the worker; `sandbox` is the sandbox view (its `controls()`,
 * `highlight(probes)` and `add(path)`). Returns `{run(action, path?, target?), setFile(facts)}`.
 */
export function createStep(call, sandbox) {
  const st = { trace: null, cursor: 0, timer: 0, seq: 0 };
  const box = $('teach-step');
  const show = () => render(box, st, sandbox);

  function stop() {
    clearInterval(st.timer);
    st.timer = 0;
    $('st-play').textContent = 'Play';
  }

  function move(d) {
    if (!st.trace) return;
    st.cursor = Math.max(0, Math.min(maxCursor(st.trace), st.cursor + d));
    if (st.cursor >= maxCursor(st.trace)) stop();
    show();
  }

  function play() {
    if (st.timer) return stop();
    if (!st.trace) return;
    if (st.cursor >= maxCursor(st.trace)) st.cursor = 0;
    $('st-play').textContent = 'Pause';
    const secs = SPEEDS[Number($('st-speed').value) - 1] ?? 0.7;
    st.timer = setInterval(() => move(1), secs * 1000);
    move(1);
  }

  /** Starts a trace of `action` ('insert' | 'query') for `path` in `target` ('sandbox' | 'file'). */
  async function run(action, path = $('st-path').value, target = $('st-target').value) {
    stop();
    const mine = ++st.seq;
    $('st-path').value = path;
    $('st-target').value = target;
    try {
      const t = await call('teach.trace', { target, action, path, controls: sandbox.controls() });
      if (mine !== st.seq) return null;
      st.trace = t;
      st.cursor = 0;
      show();
      return t;
    } catch (e) {
      if (mine === st.seq) {
        st.trace = null;
        $('st-summary').textContent = `Could not step through: ${e.message}`;
        show();
      }
      return null;
    }
  }

  /** Adds the traced key to the sandbox, then traces it again: now every bit is set, and the trace says so. */
  async function commit() {
    const t = st.trace;
    if (!t) return;
    await sandbox.add(t.path);
    await run(t.op, t.path, 'sandbox');
    st.cursor = maxCursor(st.trace ?? t);
    show();
  }

  /** A playing trace restarted at the new speed. */
  function replay() {
    if (!st.timer) return;
    stop();
    play();
  }

  bindControls({ run, move, play, replay, commit });
  show();

  /** The open file (null: none): enables the file target and lists its series for the path box. */
  function setFile(f) {
    offerFile(f?.present ? f : null);
    if (st.trace?.target !== 'file') return;
    st.trace = null;
    clearShown(box);
    show();
  }
  return { run, setFile, reveal: () => reveal(box) };
}

// The calculator: three of n, p, m (or bits per key) and k typed, the fourth solved by the
// teaching module's core (its calc, by teach.call), with TsFile's Java sizing and LevelDB's policy beside the
// formula's ideal. This view parses what was typed (digits, commas, a % sign, k/M/G) and draws
// the answer; it computes nothing.
import { $, el } from '../../shared/dom.js';
import { fmt } from '../../shared/format.js';
import { about, pct, pct3 } from './numbers.js';
import { scrolledTable } from './lesson.js';

const BOXES = { n: 'calc-n', p: 'calc-p', m: 'calc-m', bitsPerKey: 'calc-b', k: 'calc-k' };
const LABELS = { n: 'n', p: 'p', m: 'm', bitsPerKey: 'bits per key', k: 'k' };
const SCALE = { k: 1e3, K: 1e3, M: 1e6, G: 1e9 };

/** A typed number: '' → null; '1%' → 0.01 (p only); '100M' → 1e8; commas and spaces ignored. NaN when unreadable. */
export function parseBox(text, name) {
  let t = String(text ?? '').trim().replace(/[,_\s]/g, '');
  if (!t) return null;
  let scale = 1;
  if (name === 'p' && t.endsWith('%')) {
    scale = 0.01;
    t = t.slice(0, -1);
  } else if (name !== 'p' && name !== 'k' && /[kKMG]$/.test(t)) {
    scale = SCALE[t[t.length - 1]];
    t = t.slice(0, -1);
  }
  if (!/^[+]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return NaN;
  return Number(t) * scale;
}

/** A solved value as it is written back into its box. */
function show(name, v) {
  if (v == null) return '';
  if (name === 'p') return `${+(v * 100).toPrecision(4)}%`;
  if (name === 'bitsPerKey') return String(+v.toFixed(4));
  return fmt(v);
}

/** A box that holds an answer the calculator wrote (and nobody edited since) counts as empty. */
function typed(name) {
  const box = $(BOXES[name]);
  return box.dataset.solved != null && box.dataset.solved === box.value ? '' : box.value;
}

/** Every box set to `text(name)` and no longer marked as an answer. */
function writeBoxes(text) {
  for (const name of Object.keys(BOXES)) {
    const box = $(BOXES[name]);
    box.value = text(name);
    box.classList.remove('solved');
    box.removeAttribute('aria-invalid');
    delete box.dataset.solved;
  }
}

/** The boxes after a solve: answers written before (and not edited) cleared, this one's written and marked. */
function writeSolved(s) {
  writeBoxes(typed);
  // s.solved names the boxes solved: 'p', 'm+k', … ('none': all four were given).
  for (const name of s.solved.split('+').filter((n) => n in BOXES)) {
    const box = $(BOXES[name]);
    box.value = show(name, s[name]);
    box.dataset.solved = box.value;
    box.classList.add('solved');
  }
}

/** The answer box says what is wrong (`name`: the box it is about, marked invalid). */
function fail(out, message, name) {
  out.replaceChildren(el('p', { class: 'calc-error', role: 'alert', text: message }));
  out.dataset.error = message;
  delete out.dataset.solved;
  if (name) $(BOXES[name]).setAttribute('aria-invalid', 'true');
}

/** The answer box for the core's `Solution` `s`: what was solved, the geometries beside each other, the notes. */
function render(out, s) {
  delete out.dataset.error;
  const what = { ...LABELS, 'm+k': 'm and k', 'k+p': 'k and p', none: 'nothing (all four given: checked)' }[s.solved];
  const head = el(
    'p',
    { 'data-testid': 'calc-answer' },
    el('b', { text: `Solved ${what}: ` }),
    `${s.n != null ? `n = ${fmt(s.n)}, ` : ''}${s.m != null ? `m = ${fmt(s.m)} bits (${fmt(s.bytes)} bytes), ` : ''}${about(s.bitsPerKey)} bits per key, k = ${s.k} → p = ${pct(s.p)}.`,
    ` k* = (m/n) ln 2 = ${about(s.kStar)}; the best whole k is ${s.kBest} (p = ${pct(s.pBest)})${s.kRange ? `; every k from ${s.kRange[0]} to ${s.kRange[1]} reaches p ≤ ${pct(s.pTarget)}` : ''}. Expected fill ${pct(s.expectedFill)}.`,
  );
  const row = (label, r) => el('tr', {}, el('th', { scope: 'row', text: label }), ...r.map((v) => el('td', { text: v })));
  const rows = [row('formula (ideal)', [s.m != null ? fmt(s.m) : '–', fmt(s.bytes), about(s.bitsPerKey), String(s.k), pct(s.p)])];
  if (s.java) rows.push(row(`TsFile’s Java writer at p ≈ ${pct3(s.java.errorRate)}`, [fmt(s.java.bitCount), fmt(s.java.bytes), about(s.java.bitsPerKey), String(s.java.k), pct(s.java.p)]));
  if (s.leveldb) rows.push(row(`LevelDB, the fewest bits_per_key (${s.leveldb.bitsPerKey}) reaching p`, [fmt(s.leveldb.bitCount), fmt(s.leveldb.bytes), String(s.leveldb.bitsPerKey), String(s.leveldb.k), pct(s.leveldb.p)]));
  if (s.leveldbAtB && s.leveldbAtB.bitsPerKey !== s.leveldb?.bitsPerKey) rows.push(row(`LevelDB at bits_per_key = ${s.leveldbAtB.bitsPerKey}`, [fmt(s.leveldbAtB.bitCount), fmt(s.leveldbAtB.bytes), String(s.leveldbAtB.bitsPerKey), String(s.leveldbAtB.k), pct(s.leveldbAtB.p)]));
  const table = scrolledTable({ class: 'calc-table small' }, 'The ideal geometry beside TsFile’s and LevelDB’s sizing', ['', 'm bits', 'bytes', 'bits per key', 'k', 'p (formula)'], rows);
  const notes = s.notes.length ? el('ul', { class: 'calc-notes' }, ...s.notes.map((t) => el('li', { text: t }))) : '';
  out.replaceChildren(head, table, notes);
  Object.assign(out.dataset, {
    solved: s.solved,
    n: s.n ?? '',
    m: s.m ?? '',
    k: String(s.k),
    p: String(s.p),
    bitsPerKey: String(s.bitsPerKey),
    kRange: s.kRange ? s.kRange.join('-') : '',
    javaM: s.java?.bitCount ?? '',
    javaK: s.java?.k ?? '',
    leveldbBpk: s.leveldb?.bitsPerKey ?? '',
    leveldbM: s.leveldb?.bitCount ?? '',
    leveldbK: s.leveldb?.k ?? '',
  });
}

/** `call(op, args)` reaches the worker. Returns `{solve, fill(values), setFile(values | null), restore()}`. */
export function createCalc(call) {
  let fileValues = null;
  let seq = 0;
  const out = $('calc-out');

  /** The typed boxes in the URL's hash (#calc:n=…&p=…), so the setting can be shared; restore() reads it back. */
  function shareTyped() {
    const typedNow = Object.keys(BOXES).filter((name) => typed(name).trim()).map((name) => [name, typed(name).trim()]);
    history.replaceState(history.state, '', `${location.pathname}${location.search}#calc:${new URLSearchParams(typedNow)}`);
  }

  /** The setting in the URL's hash, if any: written into the boxes and solved. Returns whether there was one. */
  function restore() {
    if (!location.hash.startsWith('#calc:')) return false;
    const given = new URLSearchParams(location.hash.slice(6));
    for (const [name, id] of Object.entries(BOXES)) $(id).value = given.get(name) ?? '';
    $('teach-calc-block').scrollIntoView({ block: 'start' });
    solve();
    return true;
  }

  async function solve() {
    const mine = ++seq;
    const args = {};
    for (const name of Object.keys(BOXES)) {
      const v = parseBox(typed(name), name);
      if (Number.isNaN(v)) {
        fail(out, `${LABELS[name]}: “${$(BOXES[name]).value}” is not a number.`, name);
        return null;
      }
      args[name] = v;
    }
    let s;
    try {
      s = await call('teach.call', { fn: 'calc', args: [args.n, args.p, args.m, args.k, args.bitsPerKey] });
    } catch (e) {
      if (mine === seq) fail(out, e.message);
      return null;
    }
    if (mine !== seq) return null;
    writeSolved(s);
    render(out, s);
    shareTyped();
    return s;
  }

  /** Writes `values` (`{n, p, m, bitsPerKey, k}`; missing ones empty) into the boxes and solves. */
  function fill(values) {
    writeBoxes((name) => (values[name] == null ? '' : name === 'p' ? `${+(values.p * 100).toPrecision(6)}%` : String(values[name])));
    return solve();
  }

  $('teach-calc').addEventListener('submit', (ev) => {
    ev.preventDefault();
    solve();
  });
  $('calc-clear').addEventListener('click', () => {
    writeBoxes(() => '');
    out.replaceChildren();
    for (const k of Object.keys(out.dataset)) delete out.dataset[k];
  });
  $('calc-file').addEventListener('click', () => fileValues && fill(fileValues));

  /** The open file's n, m, k (null: none): the "open file's numbers" button. */
  function setFile(values) {
    fileValues = values;
    $('calc-file').disabled = !values;
  }
  return { solve, fill, setFile, restore };
}

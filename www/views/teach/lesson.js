// The textbook's lesson, claim by claim: each claim's text with the demonstration that tests it.
// The demonstrations are the teaching module's (teach.claim, teach.table/read/range in the
// worker): this view draws their tables and sentences, and for claims 1 and 12 drives the
// step-through and the calculator. Each claim's <li> is data-testid="teach-claim-N".
import { $, el } from '../../shared/dom.js';
import { fmt } from '../../shared/format.js';
import { claimChart } from './chart.js';
import { pct } from './numbers.js';

const CLAIMS = [
  [1, 'Inserting a key sets k positions; a query that finds any 0 answers “definitely absent”, all 1s “maybe present” — and Java’s contains stops at the first 0.'],
  [2, 'p ≈ (1 − e^(−kn/m))^k: more bits lower p, more keys raise it, and there is a best k ≈ (m/n)·ln 2 — too few hashes decide too little, too many fill the vector.'],
  [3, 'About 10 bits per key gives under 1 % false positives — and TsFile’s default 5 % costs fewer bits per key.'],
  [4, 'No false negatives is what makes the filter safe for a database: a false negative would lose data, a false positive only costs one wasted read.'],
  [5, 'Several hash functions can be simulated from one (LevelDB’s double hashing). What does that cost against k independent hashes (TsFile’s k seeded Murmur128 runs)?'],
  [6, 'LevelDB stores one filter per 2 KiB range of data-block offsets, in a filter block at the end of the table; a read goes filter → index → data block; the filter block is cacheable.'],
  [7, 'Only point lookups benefit; a range scan reads the blocks anyway — and bits_per_key = 0 turns the filter off for scan-only work.'],
  [8, 'Size the filter for the peak number of keys, not today’s: p grows as keys are added to a fixed m.'],
  [9, 'Lookups of keys that are absent are where the filter pays most (“probe-heavy” workloads).'],
  [10, 'A standard Bloom filter cannot delete: clearing a shared bit creates false negatives (a counting filter can delete) — and immutable SSTables and TsFiles never need to.'],
  [11, 'One filter per file (or per block) rather than one global filter.'],
  [12, 'The filter’s size: 10 bits per key is about 125 MB for 100 million keys.'],
  [13, 'Keys sharing a prefix collide more in the filter than evenly spread keys, so use an ordered prefix and a random suffix.'],
];

const ANSWERS = { holds: 'Measured: the claim holds', fails: 'Measured: the claim does not hold as stated', depends: 'Measured: it depends — see the numbers' };

/** A measured rate with its interval, as the tables print it. */
const rateText = (r) => (r.trials ? `${pct(r.rate)} (${pct(r.low)} – ${pct(r.high)})` : '– (nothing to count)');

/** How a numeric cell of each type prints its value. */
const NUMBERS = { percent: pct, count: fmt, number: (v) => (Number.isFinite(v) ? v.toFixed(2) : '–') };

function cell(c) {
  if (c.type === 'rate') return el('td', { class: 'num', 'data-rate': c.rate.rate, 'data-low': c.rate.low, 'data-high': c.rate.high, 'data-hits': c.rate.hits, 'data-trials': c.rate.trials, title: `${fmt(c.rate.hits)} of ${fmt(c.rate.trials)}; 95% Wilson interval` }, rateText(c.rate));
  if (NUMBERS[c.type]) return el('td', { class: 'num', 'data-value': c.value }, NUMBERS[c.type](c.value));
  return el('td', { text: c.text });
}

/** `run()`'s failure shown in `result` (a lookup or scan the user typed). */
const showing = (result, run) => run().catch((e) => result.replaceChildren(el('p', { class: 'calc-error', text: e.message })));

/**
 * A table (`attrs`; its `caption` read by screen readers, a header row of `columns`, the `rows`)
 * in a horizontally scrollable region that the keyboard can reach: it may be wider than the panel.
 */
export function scrolledTable(attrs, caption, columns, rows) {
  const head = el('tr', {}, ...columns.map((c) => el('th', { scope: 'col', text: c })));
  const table = el('table', attrs, el('caption', { class: 'visually-hidden', text: caption }), el('thead', {}, head), el('tbody', {}, ...rows));
  return el('div', { class: 'scroll-x', tabindex: '0', role: 'region', 'aria-label': caption }, table);
}

/** The claim's answer first: the verdict badge and the core's one sentence for it. */
function verdict(d) {
  return el('p', { class: 'claim-verdict' }, el('span', { class: `answer ${d.answer}`, 'data-testid': `claim-${d.claim}-answer`, text: ANSWERS[d.answer] ?? d.answer }), ' ', el('span', { 'data-testid': `claim-${d.claim}-headline`, text: d.headline }));
}

/** Whose numbers these are: the open file's (named, with its m, k and n), the sandbox's or generated keys'. */
function sourceLine(d, file) {
  const text =
    d.source === 'file' && file
      ? `Run on ${file.name}: its filter’s m = ${fmt(file.m)} bits, k = ${file.k}, n = ${fmt(file.itemsN)} listed paths.`
      : d.source === 'sandbox'
        ? 'Run on the sandbox’s paths.'
        : `Run on keys generated from seed ${d.seed}${file ? ' (not on the open file)' : ''}.`;
  return el('p', { class: 'muted small', 'data-testid': `claim-${d.claim}-source`, 'data-source': d.source, text });
}

/** A demonstration as the core returns it: the answer, whose numbers, the chart, and the numbers one click away. */
function demoView(d, caption, file) {
  return [
    verdict(d),
    sourceLine(d, file),
    claimChart(d) ?? '',
    el(
      'details',
      { class: 'claim-numbers' },
      el('summary', { class: 'small', text: 'The numbers' }),
      el('p', { class: 'muted small', text: d.setup }),
      scrolledTable({ class: 'demo small', 'data-testid': `claim-${d.claim}-table` }, caption, d.columns, d.rows.map((r) => el('tr', {}, ...r.map(cell)))),
      el('ul', { class: 'findings small' }, ...d.findings.map((f) => el('li', { text: f }))),
    ),
  ];
}

/** A point lookup's outcome and its stages (teach.read's `PointRead`). */
function readView(r) {
  return [
    el('p', { class: 'small', 'data-testid': 'claim-6-outcome', 'data-outcome': r.outcome, 'data-data-bytes': r.dataBytes }, el('b', { text: `${r.key}: ` }), { skipped: 'skipped by the filter', found: 'found', deleted: 'deleted (a tombstone)', 'false-positive': 'a false positive — one wasted data-block read', 'past-last-block': 'past the last block: no read at all' }[r.outcome] ?? r.outcome),
    el('ol', { class: 'stages small' }, ...r.stages.map((s) => el('li', { 'data-stage': s.stage, text: `${s.text}${s.bytes ? ` [${fmt(s.bytes)} bytes read]` : ''}` }))),
  ];
}

/** Claim 6: a point lookup's read path through the bundled table, for the examples' keys or one typed. */
async function readPath(call, lesson, out, li) {
  const { summary: t, examples: ex } = await lesson.table();
  const input = el('input', { type: 'text', id: 'claim6-key', class: 'mono', value: ex.present ?? '', 'aria-label': 'Key to look up in the sample table', spellcheck: 'false' });
  const result = el('div', { 'aria-live': 'polite' });
  const go = async (k) => {
    input.value = k;
    const r = await call('teach.read', { key: k });
    result.replaceChildren(...readView(r));
    li.dataset.outcome = r.outcome;
  };
  const pick = (label, k) => (k ? el('button', { type: 'button', class: 'small', 'data-key': k, text: `${label}: ${k}` }) : '');
  const buttons = el('div', { class: 'row wrap' }, pick('present', ex.present), pick('absent, stopped by the filter', ex.skipped), pick('absent, a false positive', ex.falsePositive));
  buttons.addEventListener('click', (ev) => {
    const k = ev.target.closest('button')?.dataset.key;
    if (k) showing(result, () => go(k));
  });
  const form = el('form', { class: 'row wrap', autocomplete: 'off' }, el('label', { for: 'claim6-key', text: 'Key' }), input, el('button', { type: 'submit', text: 'Look up' }));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    showing(result, () => go(input.value));
  });
  out.replaceChildren(
    el('p', { class: 'small', text: `The bundled table (LevelDB 1.22, written by plyvel): ${fmt(t.fileSize)} bytes, ${t.dataBlocks} data blocks, ${t.filters} filters of 2^${t.baseLg} = ${fmt(2 ** t.baseLg)} bytes of block offsets each, all in one ${fmt(t.filterBlockBytes)}-byte filter block; index block ${fmt(t.indexBytes)} bytes. Both are read once when the table is opened and stay in LevelDB's table cache.` }),
    el('p', { class: 'small', text: 'The real order is index → filter → data block: the filter is chosen by the data block’s offset, which only the index knows.' }),
    buttons,
    form,
    result,
  );
  await go(input.value);
  li.dataset.answer = 'shown';
}

/** Claim 7: a range scan through the bundled table, then bits_per_key = 0 measured. */
async function rangeScan(call, lesson, out, li) {
  const { examples: ex } = await lesson.table();
  const lo = el('input', { type: 'text', id: 'claim7-lo', class: 'mono', value: 'key00100', 'aria-label': 'Range start', spellcheck: 'false' });
  const hi = el('input', { type: 'text', id: 'claim7-hi', class: 'mono', value: 'key00140', 'aria-label': 'Range end', spellcheck: 'false' });
  const result = el('div', { 'aria-live': 'polite' });
  const scan = async () => {
    const r = await call('teach.range', { lo: lo.value, hi: hi.value });
    result.replaceChildren(
      el('p', { class: 'small', 'data-testid': 'claim-7-scan', 'data-blocks': r.blocks.length, 'data-keys': r.keysInRange, 'data-filter-probes': r.filterProbes }, `[${r.lo}, ${r.hi}]: blocks ${r.blocks.map((b) => `${b.index} (${b.keysInRange} keys)`).join(', ') || 'none'}.`),
      el('ul', { class: 'findings small' }, ...r.findings.map((f) => el('li', { text: f }))),
    );
  };
  const form = el('form', { class: 'row wrap', autocomplete: 'off' }, el('label', { for: 'claim7-lo', text: 'Scan from' }), lo, el('label', { for: 'claim7-hi', text: 'to' }), hi, el('button', { type: 'submit', text: 'Scan' }));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    showing(result, scan);
  });
  await scan();
  // bits_per_key = 0, measured at this table's keys per filter (the core's count).
  const d = await call('teach.claim', { claim: 7, windowKeys: ex.keysPerFilter });
  const [answer, ...numbers] = demoView(d, 'Claim 7: LevelDB filters at bits_per_key 0, 4 and 10', null);
  out.replaceChildren(answer, form, result, el('h4', { class: 'small', text: 'And bits_per_key = 0?' }), ...numbers);
  li.dataset.answer = d.answer;
}

/** Claim 10: a key removed from a standard and from a counting filter (`victim`: which, −1 the core's choice). */
async function deletion(call, out, li, { victim = -1, useFile, file }) {
  const d = await call('teach.claim', { claim: 10, victim, useFile });
  const rows = d.victimBits.map((b) => el('tr', {}, ...[fmt(b.bit), fmt(b.owners), String(b.counterBefore), String(b.counterAfter)].map((v) => el('td', { class: 'num', text: v }))));
  out.replaceChildren(
    verdict({ ...d, claim: 10 }),
    sourceLine({ ...d, claim: 10 }, file),
    el('p', { class: 'muted small', text: `${d.label}: n = ${fmt(d.n)}, m = ${fmt(d.m)}, k = ${d.k}. Removed: ${d.victim}.` }),
    scrolledTable({ class: 'demo small', 'data-testid': 'claim-10-table' }, `The bits of ${d.victim}`, ['bit', 'keys that set it', 'counter before', 'counter after'], rows),
    el('p', { class: 'small', 'data-testid': 'claim-10-standard', 'data-false-negatives': d.standardFalseNegatives }, `Standard filter, bits cleared: ${fmt(d.standardFalseNegatives)} false negative${d.standardFalseNegatives === 1 ? '' : 's'}${d.standardExamples.length ? ` (${d.standardExamples.join(', ')}${d.standardFalseNegatives > d.standardExamples.length ? ', …' : ''})` : ''}.`),
    el('p', { class: 'small', 'data-testid': 'claim-10-counting', 'data-false-negatives': d.countingFalseNegatives }, `Counting filter, counters decremented: ${fmt(d.countingFalseNegatives)} false negatives; the removed key now tests “${d.countingVictim}”.`),
    el('ul', { class: 'findings small' }, ...d.findings.map((f) => el('li', { text: f }))),
  );
  li.dataset.answer = d.answer;
  li.dataset.source = d.source;
}

/** Claim 12: the core's sizes for the claim's numbers (beside LevelDB, TsFile and the open file), which it writes into the calculator. */
async function size(call, calc, out, li) {
  const d = await call('teach.claim', { claim: 12 });
  $('teach-calc-block').scrollIntoView({ block: 'nearest' });
  if (!(await calc.fill({ n: d.n, bitsPerKey: d.bitsPerKey }))) throw new Error($('calc-out').textContent);
  out.replaceChildren(verdict(d), el('ul', { class: 'findings small', 'data-testid': 'claim-12-size', 'data-bytes': d.bytes }, ...d.findings.map((f) => el('li', { text: f }))), el('p', { class: 'small muted', text: 'The calculator above holds these numbers: change any of them.' }));
  li.dataset.answer = d.answer;
}

/** A claim's button in `actions`: a click puts the claim in the URL (#teach-claim-N), then runs `fn`. */
function addButton(actions, n, label, fn, testid) {
  const b = el('button', { type: 'button', class: 'small', 'data-testid': testid, text: label });
  b.addEventListener('click', () => {
    history.replaceState(history.state, '', `${location.pathname}${location.search}#teach-claim-${n}`);
    fn();
  });
  actions.append(b);
  return b;
}

/**
 * A claim that can run on the open file (`file()`): its "Show me" says "Run this on my file
 * (name)" once one is open, the lesson's own keys one button away. Returns `relabel(file | null)`.
 */
function fileButtons(actions, n, label, run, file) {
  const show = addButton(actions, n, label, () => run(!!file()), `claim-${n}-show`);
  const own = addButton(actions, n, 'Show me on the lesson’s own keys', () => run(false), `claim-${n}-generated`);
  const relabel = (f) => {
    show.textContent = f ? `Run this on my file (${f.name})` : label;
    own.hidden = !f;
  };
  relabel(null);
  return relabel;
}

/**
 * `call(op, args)` reaches the worker; `step`, `calc` and `sandbox` are the other views of the
 * panel. Returns `{setFile(facts), show(n)}`.
 */
export function createLesson(call, { step, calc, sandbox }) {
  const list = $('claims');
  const outs = new Map();

  const busy = (li, on) => {
    li.dataset.state = on ? 'running' : 'done';
    for (const b of li.querySelectorAll('button')) b.disabled = on;
  };

  async function guarded(n, fn) {
    const li = $(`teach-claim-${n}`);
    const out = outs.get(n);
    busy(li, true);
    out.replaceChildren(el('p', { class: 'muted small', text: 'Measuring…' }));
    try {
      await fn(out, li);
    } catch (e) {
      out.replaceChildren(el('p', { class: 'calc-error', role: 'alert', text: `The demonstration could not run: ${e.message}` }));
    } finally {
      busy(li, false);
    }
  }

  /** The measured demonstrations (teach.claim); `useFile`: on the open file when the claim can use it. */
  const measured = (n, useFile) =>
    guarded(n, async (out, li) => {
      const d = await call('teach.claim', { claim: n, plannedN: sandbox.plannedN(), useFile });
      out.replaceChildren(...demoView(d, `Claim ${n}: measurements`, useFile ? lesson.file : null));
      li.dataset.answer = d.answer;
      li.dataset.source = d.source;
    });

  // Claim 1: the step-through does it.
  async function claim1(action) {
    await guarded(1, async (out, li) => {
      const path = action === 'insert' ? `root.lesson.d${1 + Math.floor(Math.random() * 90)}.s1` : 'root.never.added.anywhere';
      const t = await step.run(action, path, 'sandbox');
      if (!t) throw new Error('the step-through did not start');
      step.reveal();
      out.replaceChildren(el('p', { class: 'small', text: `${action === 'insert' ? 'Inserting' : 'Looking up'} ${path} in the sandbox: the step-through beside its grid walks the ${t.k} hash functions.` }));
      li.dataset.answer = 'shown';
    });
  }

  // Claims 6 and 7 read the bundled LevelDB table (samples/sample.ldb).
  const lesson = {
    file: null,
    tableRead: null,
    async table() {
      this.tableRead ??= await call('teach.table', { url: new URL('samples/sample.ldb', document.baseURI).href });
      return this.tableRead;
    },
  };

  const relabel = new Map();
  for (const [n, text] of CLAIMS) {
    const out = el('div', { class: 'claim-out', 'aria-live': 'polite' });
    outs.set(n, out);
    const actions = el('div', { class: 'row wrap claim-actions' });
    const button = (label, fn, testid) => addButton(actions, n, label, fn, testid);
    const onFileButtons = (n, run, label) => relabel.set(n, fileButtons(actions, n, label, run, () => lesson.file));
    if (n === 1) {
      button('Insert a key, step by step', () => claim1('insert'), 'claim-1-insert');
      button('Look up a key never added', () => claim1('query'), 'claim-1-query');
    } else if (n === 6) button('Show me the read path', () => guarded(6, (out, li) => readPath(call, lesson, out, li)), 'claim-6-show');
    else if (n === 7) button('Show me a range scan', () => guarded(7, (out, li) => rangeScan(call, lesson, out, li)), 'claim-7-show');
    else if (n === 10) onFileButtons(n, (useFile) => guarded(10, (out, li) => deletion(call, out, li, { useFile, file: useFile ? lesson.file : null })), 'Show me a deletion');
    else if (n === 12) button('Show me the size', () => guarded(12, (out, li) => size(call, calc, out, li)), 'claim-12-show');
    else onFileButtons(n, (useFile) => measured(n, useFile), 'Show me');
    list.append(el('li', { id: `teach-claim-${n}`, 'data-testid': `teach-claim-${n}`, 'data-claim': String(n) }, el('p', { class: 'claim-text', text }), out, actions));
  }

  return {
    /** The open file's facts (null: none); the claims that can use it offer it from now on (plan::ON_FILE). */
    async setFile(f) {
      lesson.file = f;
      const onFile = f ? await call('teach.call', { fn: 'claimsOnFile' }) : [];
      if (lesson.file !== f) return;
      for (const [n, set] of relabel) set(onFile.includes(n) ? f : null);
    },
    show: (n) => $(`teach-claim-${n}`)?.querySelector('button')?.click(),
  };
}

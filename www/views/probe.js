// Probing one path: the variant and charset menus, autocomplete over the indexed series, the
// verdict with its soundness reasoning, and one row per seed (its bit ringed on the heat-map).
import { CHARSETS, VARIANTS } from '../pkg/js/core.js';
import { $, el } from '../shared/dom.js';
import { fmt, seedColor } from '../shared/format.js';
import { DECISION_LABELS, decisionOf, indexWords, VARIANT_LABELS, VERDICT_LABELS } from '../shared/words.js';
import { createSuggest } from './suggest.js';

/** The menus' choice: `{variant, charset}` (undefined: the file's own, as the audit says). */
export function probeOptions() {
  return { variant: $('variant').value || undefined, charset: $('charset').value || undefined };
}

/** The series that set a probed bit (the provenance, under the writer's hash as audited). */
function settersCell(ctx, p, setters) {
  if (!p.set) return '—';
  if (setters == null) return ctx.cur?.provPending ? '…' : '';
  if (!setters.length) return 'no indexed series';
  const names = setters.slice(0, 2).map(ctx.pathOf);
  return `${names.join(', ')}${setters.length > 2 ? `, … (${fmt(setters.length)} in all)` : ''}`;
}

// A false positive (the core says every bit is set and the index does not list the path):
// which other series set each bit — one of them per bit, each with the seeds it covers.
function whyMaybe(ctx, r, setters) {
  if (r.verdict !== 'maybe' || r.indexed !== false || !r.probes.every((p, i) => p.set && setters[i]?.length)) return '';
  const by = new Map();
  r.probes.forEach((p, i) => {
    const who = setters[i].find((s) => by.has(s)) ?? setters[i][0];
    if (!by.has(who)) by.set(who, []);
    if (!by.get(who).includes(p.seed)) by.get(who).push(p.seed);
  });
  const parts = [...by].map(([s, seeds]) => `${ctx.pathOf(s)} (seed${seeds.length > 1 ? 's' : ''} ${seeds.join(', ')})`);
  return `Why maybe: every bit was set by other series: ${parts.join(', ')}.`;
}

/** Seed `i`'s row of the probe table: its colour, hash, bit, state, the series that set it, and a button to show it. */
function probeRow(ctx, p, i, setters) {
  const dot = el('span', { class: 'swatch' });
  dot.style.background = seedColor(i);
  const show = el('button', { type: 'button', class: 'small', text: 'show', 'aria-label': `Show bit ${fmt(p.bit)} (seed ${p.seed}) on the heat-map` });
  show.addEventListener('click', () => {
    ctx.map.zoomToBit(p.bit);
    $('heatmap').focus({ preventScroll: true });
    $('map').scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  });
  return el(
    'tr',
    { 'data-testid': 'probe-row', 'data-seed': String(p.seed), class: p.set ? 'set' : 'clear' },
    el('td', { class: 'dot' }, dot),
    // data-label: each cell's name where a narrow screen shows the row as a card (style.css).
    el('td', { class: 'seed', 'data-label': 'seed', text: String(p.seed) }),
    el('td', { class: 'hash', 'data-label': 'hash32', text: String(p.hash32) }),
    el('td', { class: 'bit', 'data-label': 'bit', text: fmt(p.bit) }),
    el('td', { class: p.set ? 'state state-set' : 'state state-clear', text: p.set ? 'set' : 'clear' }),
    el('td', { class: 'setters', 'data-label': 'set by', 'data-testid': 'probe-setters' }, settersCell(ctx, p, setters)),
    el('td', { class: 'show' }, show),
  );
}

/** `ctx`: `{worker, cur, map, showError, settersOf(bit), pathOf(index)}`. Returns `{probePath, refresh, reset}`. */
export function createProbeView(ctx) {
  for (const v of VARIANTS) $('variant').add(new Option(VARIANT_LABELS[v] ?? v, v));
  // The JVM charsets a writer may have encoded paths in, as Java's Charset.forName names them (the core's list).
  for (const cs of CHARSETS) $('charset').add(new Option(cs, cs));

  createSuggest(ctx);

  let seq = 0;

  function reset() {
    seq++; // a probe still in the worker answers for the previous file
    shown = null;
    $('verdict-box').hidden = true;
    $('verdict').textContent = '';
    $('decision').textContent = '';
    $('probes').tBodies[0].replaceChildren();
    $('suggest').replaceChildren();
    ctx.map.setHighlights([]);
  }

  async function run() {
    const file = ctx.cur;
    if (!file) return;
    const path = $('path-input').value;
    if (!path.trim()) return;
    const mine = ++seq;
    let r;
    const options = probeOptions();
    try {
      r = await ctx.worker.probe(path, options);
      r.forced = !!(options.variant || options.charset);
    } catch (e) {
      if (mine === seq && ctx.cur === file) ctx.showError(e, 'The probe failed:');
      return;
    }
    if (mine !== seq || ctx.cur !== file) return;
    file.probedPath = path; // the PNG's caption (views/bits.js)
    render(r);
    return r;
  }

  /** The last probe shown (its "set by" cells fill in when the provenance arrives). */
  let shown = null;

  function render(r) {
    shown = r;
    $('verdict-box').hidden = false;
    // The decision first, then its two facts side by side: the filter's answer and the index's.
    const d = decisionOf(r);
    Object.assign($('decision'), { className: `decision ${d}`, textContent: DECISION_LABELS[d] });
    Object.assign($('verdict'), { className: `verdict ${r.verdict}`, textContent: VERDICT_LABELS[r.verdict] ?? r.verdict });
    $('verdict-index').textContent = indexWords(r.indexed);
    // Every word about the verdict is the core's sentence, its words as they are (the style
    // sheet capitalises it and ends it): what the filter said under which hash, and what the
    // index says of the path.
    $('verdict-reason').textContent = r.reason ?? '';
    $('verdict-sound').textContent = r.variant
      ? `Probed with ${VARIANT_LABELS[r.variant] ?? r.variant}${r.charset ? ` · ${r.charset}` : ''}${r.forced ? ' (chosen in the menus above)' : ''}.`
      : '';
    ctx.cur.highlights = r.probes.map((p, i) => ({ bit: p.bit, color: seedColor(i), set: p.set, seed: p.seed }));
    ctx.map.setHighlights(ctx.cur.highlights);
    const setters = r.probes.map((p) => (p.set ? ctx.settersOf(p.bit) : null));
    $('probes').tBodies[0].replaceChildren(...r.probes.map((p, i) => probeRow(ctx, p, i, setters[i])));
    // No filter, no seeds: no table (an empty header says nothing).
    $('probes').closest('.scroll-x').hidden = !r.probes.length;
    const others = (r.others ?? []).map((o) => `${o.variant} · ${o.charset}: ${o.verdict}`);
    $('others').textContent = others.length ? `Other candidate hashes the verdict consulted: ${others.join('; ')}.` : '';
    $('why-maybe').textContent = whyMaybe(ctx, r, setters);
  }

  $('probe-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    run();
  });
  for (const menu of ['variant', 'charset']) $(menu).addEventListener('change', () => $('path-input').value.trim() && run());

  return {
    /** Probes `path` and (unless `scroll` is false) brings the probe panel into view; resolves to the probe, or undefined. */
    async probePath(path, { scroll = true } = {}) {
      $('path-input').value = path;
      const r = await run();
      if (scroll) $('probe').scrollIntoView({ block: 'nearest', behavior: 'smooth' });
      return r;
    },
    /** The provenance arrived: the last probe's "set by" cells and "why maybe" fill in. */
    refresh() {
      if (shown && ctx.cur) render(shown);
    },
    reset,
  };
}

// Probing one path: the variant and charset menus, autocomplete over the indexed series, the
// verdict with its soundness reasoning, and one row per seed (its bit ringed on the heat-map).
import { CHARSETS, VARIANTS } from '../pkg/js/core.js';
import { $, el } from '../shared/dom.js';
import { fmt, seedColor, sentence, VARIANT_LABELS } from '../shared/format.js';
import { lowerPaths, entryAt } from './series.js';

// The JVM charsets a writer may have encoded paths in, as Java's Charset.forName names them, in
// the menu's order. A name the package does not know yet fails its probe with invalid_argument,
// which the page shows as a message; any charset the package adds later is offered too.
const MENU_CHARSETS = ['UTF-8', 'GBK', 'GB18030', 'Big5', 'x-windows-950', 'Shift_JIS', 'windows-31j', 'EUC-JP', 'EUC-KR', 'x-windows-949', 'windows-1252', 'ISO-8859-1'];

/** The menus' choice: `{variant, charset}` (undefined: the file's own, as the audit says). */
export function probeOptions() {
  return { variant: $('variant').value || undefined, charset: $('charset').value || undefined };
}

/** `ctx`: `{worker, cur, map, showError}`. Returns `{probePath, reset, closeSuggestions}`. */
export function createProbeView(ctx) {
  for (const v of VARIANTS) $('variant').add(new Option(VARIANT_LABELS[v] ?? v, v));
  for (const cs of MENU_CHARSETS.concat(CHARSETS.filter((c) => !MENU_CHARSETS.includes(c)))) $('charset').add(new Option(cs, cs));

  // ------------------------------------------------------------ autocomplete
  const suggest = { items: [], active: -1 };

  function updateSuggestions() {
    const input = $('path-input');
    const q = input.value.trim().toLowerCase();
    const cur = ctx.cur;
    suggest.items = [];
    suggest.active = -1;
    if (q && cur?.series.length) {
      const lower = lowerPaths(cur);
      const prefix = [];
      const inner = [];
      for (let j = 0; j < cur.series.length && prefix.length < 12; j++) {
        const p = lower[j];
        if (p === q) continue;
        if (p.startsWith(q)) prefix.push(j);
        else if (inner.length < 12 && p.includes(q)) inner.push(j);
      }
      suggest.items = prefix.concat(inner).slice(0, 12);
    }
    const list = $('suggest');
    list.replaceChildren(
      ...suggest.items.map((j, i) => {
        const li = el('li', { id: `sug-${i}`, role: 'option', text: entryAt(cur, j).path });
        li.addEventListener('mousedown', (ev) => {
          ev.preventDefault();
          choose(i);
        });
        return li;
      }),
    );
    const open = suggest.items.length > 0;
    list.hidden = !open;
    input.setAttribute('aria-expanded', String(open));
    input.removeAttribute('aria-activedescendant');
  }

  function closeSuggestions() {
    $('suggest').hidden = true;
    $('path-input').setAttribute('aria-expanded', 'false');
    $('path-input').removeAttribute('aria-activedescendant');
    suggest.active = -1;
  }

  function choose(i) {
    $('path-input').value = entryAt(ctx.cur, suggest.items[i]).path;
    closeSuggestions();
    run();
  }

  function move(d) {
    if ($('suggest').hidden || !suggest.items.length) return false;
    const n = suggest.items.length + 1; // the options, plus "none" (-1)
    suggest.active = ((((suggest.active + 1 + d) % n) + n) % n) - 1;
    const lis = $('suggest').children;
    for (let i = 0; i < lis.length; i++) lis[i].setAttribute('aria-selected', String(i === suggest.active));
    if (suggest.active >= 0) {
      $('path-input').setAttribute('aria-activedescendant', `sug-${suggest.active}`);
      lis[suggest.active].scrollIntoView({ block: 'nearest' });
    } else $('path-input').removeAttribute('aria-activedescendant');
    return true;
  }

  $('path-input').addEventListener('input', updateSuggestions);
  $('path-input').addEventListener('blur', () => setTimeout(closeSuggestions, 100));
  $('path-input').addEventListener('keydown', (ev) => {
    if (ev.key === 'ArrowDown' && move(1)) ev.preventDefault();
    else if (ev.key === 'ArrowUp' && move(-1)) ev.preventDefault();
    else if (ev.key === 'Escape') closeSuggestions();
    else if (ev.key === 'Enter' && suggest.active >= 0 && !$('suggest').hidden) {
      ev.preventDefault();
      choose(suggest.active);
    }
  });

  // ------------------------------------------------------------ probing
  let seq = 0;

  function reset() {
    seq++; // a probe still in the worker answers for the previous file
    $('verdict-box').hidden = true;
    $('verdict').textContent = '';
    $('probes').tBodies[0].replaceChildren();
    ctx.map.setHighlights([]);
  }

  async function run() {
    closeSuggestions();
    const file = ctx.cur;
    if (!file) return;
    const path = $('path-input').value;
    if (!path.trim()) return;
    const mine = ++seq;
    let r;
    try {
      r = await ctx.worker.probe(path, probeOptions());
    } catch (e) {
      if (mine === seq && ctx.cur === file) ctx.showError(e, 'The probe failed:');
      return;
    }
    if (mine !== seq || ctx.cur !== file) return;
    render(r);
  }

  function render(r) {
    $('verdict-box').hidden = false;
    const v = $('verdict');
    v.className = `verdict ${r.verdict}`;
    v.textContent = { absent: 'definitely absent', maybe: 'maybe present', unknown: 'unknown — the filter cannot answer soundly' }[r.verdict] ?? r.verdict;
    $('verdict-reason').textContent = `${sentence(r.reason ?? '')}${r.indexed === true ? ' The index lists this series.' : r.indexed === false ? ' The index does not list this series.' : ''}`;
    const sound =
      r.verdict === 'absent'
        ? r.confirmed
          ? 'Sound: the hash and charset used are the writer’s, as the audit established — a reader may skip this file for this path.'
          : 'Sound for this file: every hash the writer may have used agrees that a bit is clear.'
        : r.verdict === 'maybe'
          ? r.indexed === false
            ? 'A false positive: every probed bit is set (by other paths), yet the index does not list this series.'
            : 'All probed bits are set; a reader must still check the index.'
          : 'The bits under this hash say absent, but this file’s writer could not be established, so a reader must check the index.';
    $('verdict-sound').textContent = `${sound} Hash: ${r.variant}, charset ${r.charset}.`;
    ctx.cur.highlights = r.probes.map((p, i) => ({ bit: p.bit, color: seedColor(i), set: p.set, seed: p.seed }));
    ctx.map.setHighlights(ctx.cur.highlights);
    $('probes').tBodies[0].replaceChildren(
      ...r.probes.map((p, i) => {
        const dot = el('span', { class: 'swatch' });
        dot.style.background = seedColor(i);
        const show = el('button', { type: 'button', class: 'small', text: 'show', 'aria-label': `Show bit ${p.bit} (seed ${p.seed}) on the heat-map` });
        show.addEventListener('click', () => {
          ctx.map.zoomToBit(p.bit);
          $('heatmap').focus({ preventScroll: true });
          $('map').scrollIntoView({ block: 'nearest', behavior: 'smooth' });
        });
        return el(
          'tr',
          { 'data-testid': 'probe-row', class: p.set ? 'set' : 'clear' },
          el('td', {}, dot),
          el('td', { text: String(p.seed) }),
          el('td', { text: String(p.hash32) }),
          el('td', { text: fmt(p.bit) }),
          el('td', { class: p.set ? 'state-set' : 'state-clear', text: p.set ? 'set' : 'clear' }),
          el('td', {}, show),
        );
      }),
    );
    const others = (r.others ?? []).map((o) => `${o.variant}${o.charset ? ` / ${o.charset}` : ''}: ${o.verdict}`);
    $('others').textContent = others.length ? `Other candidate hashes: ${others.join('; ')}.` : '';
  }

  $('probe-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    run();
  });
  $('variant').addEventListener('change', () => $('path-input').value.trim() && run());
  $('charset').addEventListener('change', () => $('path-input').value.trim() && run());

  return {
    /** Probes `path` and brings the probe panel into view. */
    probePath(path) {
      $('path-input').value = path;
      return run().then(() => $('probe').scrollIntoView({ block: 'nearest', behavior: 'smooth' }));
    },
    reset,
    closeSuggestions,
  };
}

// The probe field's autocomplete: the indexed series whose path starts with, then contains, what
// is typed (12 at most), as an ARIA combobox's listbox.
import { $, el } from '../shared/dom.js';
import { lowerPaths, entryAt } from './series.js';

const SHOWN = 12;

/** The series indices for query `q` (lower case): prefix matches first, then inner ones. */
function matching(cur, q) {
  if (!q || !cur?.series.length) return [];
  const lower = lowerPaths(cur);
  const prefix = [];
  const inner = [];
  for (let j = 0; j < cur.series.length && prefix.length < SHOWN; j++) {
    const p = lower[j];
    if (p === q) continue;
    if (p.startsWith(q)) prefix.push(j);
    else if (inner.length < SHOWN && p.includes(q)) inner.push(j);
  }
  return prefix.concat(inner).slice(0, SHOWN);
}

/** On `#path-input` over `ctx.cur`'s series; `chosen()` after a suggestion is taken. Returns `{close}`. */
export function createSuggest(ctx, chosen) {
  const input = $('path-input');
  const list = $('suggest');
  const suggest = { items: [], active: -1 };

  function close() {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    suggest.active = -1;
  }

  function choose(i) {
    input.value = entryAt(ctx.cur, suggest.items[i]).path;
    close();
    chosen();
  }

  function update() {
    suggest.items = matching(ctx.cur, input.value.trim().toLowerCase());
    suggest.active = -1;
    list.replaceChildren(
      ...suggest.items.map((j, i) => {
        const li = el('li', { id: `sug-${i}`, role: 'option', text: entryAt(ctx.cur, j).path });
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

  function move(d) {
    if (list.hidden || !suggest.items.length) return false;
    const n = suggest.items.length + 1; // the options, plus "none" (-1)
    suggest.active = ((((suggest.active + 1 + d) % n) + n) % n) - 1;
    const lis = list.children;
    for (let i = 0; i < lis.length; i++) lis[i].setAttribute('aria-selected', String(i === suggest.active));
    if (suggest.active >= 0) {
      input.setAttribute('aria-activedescendant', `sug-${suggest.active}`);
      lis[suggest.active].scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
    return true;
  }

  input.addEventListener('input', update);
  input.addEventListener('blur', () => setTimeout(close, 100));
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'ArrowDown' && move(1)) ev.preventDefault();
    else if (ev.key === 'ArrowUp' && move(-1)) ev.preventDefault();
    else if (ev.key === 'Escape') close();
    else if (ev.key === 'Enter' && suggest.active >= 0 && !list.hidden) {
      ev.preventDefault();
      choose(suggest.active);
    }
  });
  return { close };
}

// The probe field's autocomplete: the indexed series whose path starts with, then contains, what
// is typed (12 at most), offered in the field's <datalist> (the browser draws the list, its keys
// and its roles).
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

/** Keeps `#suggest`, the datalist of `#path-input`, to `ctx.cur`'s series that match what is typed. */
export function createSuggest(ctx) {
  const input = $('path-input');
  input.addEventListener('input', () => {
    const found = matching(ctx.cur, input.value.trim().toLowerCase());
    $('suggest').replaceChildren(...found.map((j) => el('option', { value: entryAt(ctx.cur, j).path })));
  });
}

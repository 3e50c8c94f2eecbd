// The error box and the status line, shared by every view.
import { $, el } from '../shared/dom.js';
import { fmt } from '../shared/format.js';

/** Shows an error with its `kind` and offset, a context line and an optional note on partial results. */
export function showError(e, context = '', partial = '') {
  const box = $('error');
  box.hidden = false;
  const head = el('p', {}, el('strong', { text: context || 'Error' }), ' ', el('code', { class: 'kind', text: e?.kind ?? 'error' }));
  // A bad argument (an unknown charset, say) has no place in the file.
  if (e?.offset != null && e.kind !== 'invalid_argument') head.append(` at byte ${fmt(e.offset)}`);
  box.replaceChildren(head, el('p', { text: String(e?.message ?? e) }));
  if (partial) box.append(el('p', { class: 'muted', text: partial }));
}

export function clearError() {
  $('error').hidden = true;
  $('error').replaceChildren();
}

export function status(text) {
  $('status').textContent = text;
}

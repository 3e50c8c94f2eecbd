// The folder view's answer for one path: the files a reader must read — confirmed by the index,
// then maybe, then unknown, then those with errors, each by name — a button that copies the
// list, and the CLI command that writes the same list (`scan --list maybe`, js/cli-scan.js).
import { MUST_READ } from '../pkg/js/core-tables.js';
import { el } from '../shared/dom.js';
import { count } from '../shared/format.js';
import { DECISION_SHORT } from '../shared/words.js';
import { byText } from './fleet-table.js';

/** The order of the list: what the index confirms first, what could not be read last. */
const ORDER = Object.freeze({ indexed: 0, maybe: 1, unknown: 2, error: 3 });
/** How many names the page lists (the copy and the command give them all). */
const SHOWN = 50;

/** Row `r`'s reason to be read for the path `j`: its decision, 'error', or null when it can be skipped. */
export function readReason(r, j) {
  if (r.error) return 'error';
  const d = r.decisions[j];
  return d == null ? 'error' : MUST_READ.includes(d) ? d : null;
}

/** The files to read for path `j`, in the list's order: `[{file, why}]`. */
export function mustReadFiles(rows, j) {
  const out = [];
  for (const r of rows) {
    const why = readReason(r, j);
    if (why) out.push({ file: r.file, why });
  }
  return out.sort((a, b) => ORDER[a.why] - ORDER[b.why] || byText(a.file, b.file));
}

/** A word for the shell: quoted unless it is plainly one. */
const shellWord = (s) => (/^[\w./:@%+=-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`);

/**
 * What the command scans: the folder the files were picked in (its name: the page cannot know
 * where it lies), or for URLs a file that lists them (`@urls.txt`, one a line).
 */
function scanTarget(rows) {
  const first = rows[0]?.file ?? 'FOLDER';
  return /^[a-z][\w+.-]*:\/\//i.test(first) ? '@urls.txt' : first.split('/')[0];
}

/** Copies `text`; where the clipboard is refused, selects it in `area` for the reader's own copy. */
async function copy(text, area, status) {
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = 'Copied.';
  } catch {
    area.hidden = false;
    area.value = text;
    area.select();
    status.textContent = 'The browser refused the clipboard: the list is selected, press Ctrl+C (⌘C).';
  }
}

/** The answer's elements for path `j` of the view `t` (`{rows, paths, audit}`). */
export function answerLines(t, j) {
  const files = mustReadFiles(t.rows, j);
  const path = t.paths[j];
  const command = `npx tsfile-bloom scan ${shellWord(scanTarget(t.rows))} --path ${shellWord(path)}${t.audit ? ' --audit' : ''} --list maybe`;
  const status = el('span', { class: 'muted small', role: 'status' });
  const area = el('textarea', { class: 'fleet-copy-area', readonly: '', 'aria-label': `Files to read for ${path}`, hidden: '' });
  const button = el('button', { type: 'button', class: 'small', 'data-testid': 'fleet-copy', text: 'Copy the list' });
  button.disabled = !files.length;
  button.addEventListener('click', () => copy(files.map((f) => f.file).join('\n'), area, status));
  const items = files.slice(0, SHOWN).map((f) => el('li', { 'data-why': f.why }, el('code', { text: f.file }), ` ${DECISION_SHORT[f.why] ?? f.why}`));
  if (files.length > SHOWN) items.push(el('li', { class: 'muted', text: `… and ${count(files.length - SHOWN, 'more file', 'more files')} (the copy holds them all)` }));
  return el('details', { class: 'fleet-answer', open: '', 'data-testid': 'fleet-must-read', 'data-path': path },
    el('summary', {}, `${count(files.length, 'file')} you must read for `, el('code', { text: path })),
    el('p', { class: 'row wrap' }, button, status),
    area,
    // Scrolls inside itself past a few names: focusable, so that a keyboard scrolls it too.
    el('ol', { class: 'fleet-fp-files small', tabindex: '0', 'aria-label': `Files you must read for ${path}` }, ...items),
    el('p', { class: 'small' }, 'The same list from the command line: ', el('code', { 'data-testid': 'fleet-command', text: command })));
}

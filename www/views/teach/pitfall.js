// The tail pitfall: a path's bytes in the writer's charset, the 16-byte blocks and the tail,
// the k bits under Java's sign-extended and C++ 2.5's zero-extended tail, and the false
// negatives a reader with the other hash would cause. The worker computes (teach.pitfall).
import { $, el } from '../../shared/dom.js';
import { fmt, hex, seedColor } from '../../shared/format.js';

const verdictSpan = (v) => el('b', { class: `verdict-inline ${v}`, text: v === 'absent' ? 'absent' : 'maybe' });

/** `call(op, args)` reaches the worker. Returns `render(customPath?)`: null path = the default. */
export function createPitfall(call) {
  let seq = 0;
  return async function render(custom = null) {
    const mine = ++seq;
    const r = await call('teach.pitfall', { path: custom });
    if (mine !== seq) return;
    if (custom == null) $('pf-path').value = r.path;
    // The caption says where the path came from: the user's own typing is never "an example".
    $('pf-source').textContent =
      custom != null
        ? `The path you typed${r.fileLoaded ? (r.listed ? ', which the loaded file lists' : ', which the loaded file does not list') : ''}.`
        : r.fromFile
          ? 'A path from the loaded file whose last bytes are non-ASCII.'
          : r.fileLoaded
            ? 'The loaded file has no path with a non-ASCII tail; this is an example path with one.'
            : 'An example path with a non-ASCII tail; open a file with non-ASCII names to use one of its own.';
    $('pf-source').dataset.source = custom != null ? 'typed' : r.fromFile ? 'file' : 'example';
    renderBytes(r);
    renderBits(r);
    renderVerdicts(r);
    $('teach-pitfall').dataset.ready = 'true';
  };
}

function renderBytes({ bytes, charset }) {
  const tailLen = bytes.length % 16;
  const tail = bytes.subarray(bytes.length - tailLen);
  const blocks = el('p', { class: 'pf-bytes-line' });
  for (let i = 0; i < bytes.length; i++) {
    const inTail = i >= bytes.length - tailLen;
    blocks.append(el('span', { class: `byte${inTail ? ' tail' : ''}${inTail && bytes[i] >= 0x80 ? ' high' : ''}`, text: hex(bytes[i]) }));
    if ((i + 1) % 16 === 0 && i + 1 < bytes.length) blocks.append(el('span', { class: 'sep', 'aria-hidden': 'true', text: '|' }));
  }
  const full = Math.floor(bytes.length / 16);
  const out = $('pf-bytes');
  out.replaceChildren(
    el('p', { class: 'small', text: `${bytes.length} bytes in ${charset}: ${full} full 16-byte block${full === 1 ? '' : 's'}, then a tail of ${tailLen} byte${tailLen === 1 ? '' : 's'} (highlighted). Full blocks are read as unsigned words by both; only tail bytes ≥ 0x80 are treated differently.` }),
    blocks,
  );
  if (tail.some((b) => b >= 0x80)) {
    const ul = el('ul', { class: 'pf-ext small' });
    for (let j = 0; j < tail.length; j++) {
      if (tail[j] < 0x80) continue;
      ul.append(el('li', {}, el('code', { text: `0x${hex(tail[j])}` }), ' → Java (sign-extended): ', el('code', { text: `0x${'ff'.repeat(7)}${hex(tail[j])}` }), ` (${tail[j] - 256}); C++ 2.5 (zero-extended): `, el('code', { text: `0x${'00'.repeat(7)}${hex(tail[j])}` }), ` (${tail[j]}); tail byte ${j} goes into ${j < 8 ? 'k1' : 'k2'} shifted ${8 * (j % 8)} bits`));
    }
    out.append(ul);
  }
}

function renderBits({ rows, m, k, fileLoaded, differ }) {
  $('pf-table').tBodies[0].replaceChildren(
    ...rows.map((r, j) => {
      const d = r.javaBit !== r.zeroBit;
      const sw = el('span', { class: 'swatch' });
      sw.style.background = seedColor(j);
      return el('tr', { class: d ? 'differ' : '', 'data-testid': 'pf-row' }, el('td', {}, sw), el('td', { text: String(r.seed) }), el('td', { text: String(r.javaHash) }), el('td', { text: fmt(r.javaBit) }), el('td', { text: String(r.zeroHash) }), el('td', { text: fmt(r.zeroBit) }), el('td', { text: d ? 'differs' : 'same' }));
    }),
  );
  $('pf-table').dataset.java = rows.map((r) => r.javaBit).join(',');
  $('pf-table').dataset.zero = rows.map((r) => r.zeroBit).join(',');
  $('pf-geometry').textContent = `m = ${fmt(m)}, k = ${k}${fileLoaded ? ' (the loaded file’s)' : ' (a small example filter)'}; ${differ} of ${k} bits differ.`;
}

/** Why a cross-variant probe still said "maybe": no bit differs, or every differing bit is set anyway. */
const whyMaybe = (differ) => (differ === 0 ? ' (no bit differs: both hashes pick the same bits for this path)' : ` (${differ === 1 ? 'the one differing bit happens' : `all ${differ} differing bits happen`} to be set too)`);

function renderVerdicts({ bytes, cross: [javaByZero, zeroByJava], self, file, listed, differ }) {
  const out = $('pf-fn');
  out.replaceChildren(
    el('li', { 'data-testid': 'pf-java-zero' }, 'A filter holding only this path, written by Java (sign-extended), probed by a zero-extending reader → ', verdictSpan(javaByZero), javaByZero === 'absent' ? ' — a false negative: the path is there, the reader skips the file' : whyMaybe(differ), `. Probed with the writer’s own hash → ${self}.`),
    el('li', { 'data-testid': 'pf-zero-java' }, 'Written by the C++ writer of tsfile 2.5 (zero-extended), probed by a Java reader → ', verdictSpan(zeroByJava), zeroByJava === 'absent' ? ' — the same false negative the other way round.' : `${whyMaybe(differ)}.`),
  );
  out.dataset.cross = `${javaByZero},${zeroByJava}`;
  delete out.dataset.file;
  if (file) {
    out.append(
      el(
        'li',
        { 'data-testid': 'pf-file' },
        `In the loaded file${listed ? ', which lists this path' : ''}: under the writer’s ${file.variant} hash${file.established ? ' (established by the audit)' : ''} → `,
        verdictSpan(file.own),
        `; under the ${file.other} hash → `,
        verdictSpan(file.wrong),
        listed && file.own === 'maybe' && file.wrong === 'absent' ? ' — a reader with the wrong hash would wrongly skip this file.' : '.',
      ),
    );
    out.dataset.file = `${file.own},${file.wrong}`;
  }
  const tail = bytes.subarray(bytes.length - (bytes.length % 16));
  if (!tail.some((b) => b >= 0x80)) out.prepend(el('li', { class: 'muted', text: 'This path’s tail is ASCII: both hashes read the same values, so the bits agree and there is no pitfall for it. Try a path ending in a non-ASCII character.' }));
}

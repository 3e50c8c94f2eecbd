// The filter's bits panel: the heat-map (views/heatmap.js on the shared BitGrid), its zoom
// controls and PNG export, and the hover line that names which indexed paths set a bit.
import { $, download } from '../shared/dom.js';
import { fmt, pct } from '../shared/format.js';
import { healthWord } from './health.js';
import { HeatMap } from './heatmap.js';

/** A zoom factor in a few digits: ×2, ×3.5, ×120. */
const zoomText = (z) => (z >= 10 ? fmt(Math.round(z)) : z.toFixed(1).replace(/\.0$/, ''));

/** `ctx`: `{cur, baseName()}`. Returns `{map, settersOf(bit), pathOf(index), reset}`. */
export function createBitsView(ctx) {
  // The hint as the page has it (its hover / tap words are for the style sheet to choose).
  const HOVER_HINT = [...$('hover').childNodes];
  const map = new HeatMap($('heatmap'), {
    onhover: (bit, block) => bit != null && describeBit(bit, block),
    oncursor: (bit) => describeBit(bit, null),
    onview: (d) => {
      const zoom = d.fit ? 'Fit (×1)' : `×${zoomText(d.zoom)} of Fit`;
      $('zoom-info').textContent = `· zoom ${zoom} · ${d.block > 1 ? `1 pixel ≈ ${d.block}×${d.block} bits` : `1 cell = 1 bit (${fmt(d.cols)} per row)`}`;
    },
  });

  /** The listed paths whose probes hit `bit` (indices into cur.provPaths), or null while unknown. */
  function provenanceOf(bit) {
    const p = ctx.cur?.prov;
    if (!p) return null;
    let lo = 0;
    let hi = p.bits.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (p.bits[mid] < bit) lo = mid + 1;
      else hi = mid;
    }
    const out = [];
    for (let i = lo; i < p.bits.length && p.bits[i] === bit; i++) out.push(p.items[i]);
    return out;
  }

  const pathOf = (index) => {
    const s = ctx.cur.provPaths?.[index];
    return s ? s.path : `#${index}`;
  };

  function describeBit(bit, block) {
    const cur = ctx.cur;
    if (!cur?.bits) return;
    const set = map.bit(bit);
    let text = `bit ${fmt(bit)} (row ${fmt(Math.floor(bit / map.cols))}, column ${fmt(bit % map.cols)}): ${set ? 'SET' : 'clear'}`;
    if (block && block.side > 1 && block.fill === block.fill) text += ` · this pixel: ${block.side}×${block.side} bits, ${(block.fill * 100).toFixed(0)}% set`;
    const setters = provenanceOf(bit);
    if (setters) {
      if (setters.length) {
        const names = setters.slice(0, 3).map(pathOf);
        text += ` · set by ${setters.length} path${setters.length > 1 ? 's' : ''}: ${names.join(', ')}${setters.length > 3 ? `, … (+${setters.length - 3})` : ''}`;
      } else if (set) text += ' · set by no indexed path (under the audited hash)';
    } else if (cur.provPending) text += ' · (computing which series set it…)';
    const hl = cur.highlights?.filter((h) => h.bit === bit) ?? [];
    if (hl.length) text += ` · probed by seed ${hl.map((h) => h.seed).join(', ')}`;
    $('hover').textContent = text;
  }

  $('zoom-in').addEventListener('click', () => map.zoomBy(2));
  $('zoom-out').addEventListener('click', () => map.zoomBy(0.5));
  $('zoom-fit').addEventListener('click', () => map.fit());
  $('goto-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const i = Number($('goto').value);
    if (Number.isInteger(i) && ctx.cur?.bits && i >= 0 && i < ctx.cur.bitCount) map.zoomToBit(i);
  });
  $('export-png').addEventListener('click', async () => {
    const lines = captionLines(ctx.cur);
    $('export-png').dataset.caption = lines.join('\n');
    const blob = await map.toBlob(lines);
    if (blob) download(blob, `${ctx.baseName()}-bloom.png`);
  });

  return {
    map,
    /** The map's controls act only on a filter: without one (`has` false) they are disabled. */
    enable(has) {
      for (const id of ['zoom-out', 'zoom-in', 'zoom-fit', 'goto', 'goto-submit', 'export-png']) $(id).disabled = !has;
    },
    /** The listed paths that set `bit` under the writer's hash (indices for pathOf), or null while unknown. */
    settersOf: provenanceOf,
    pathOf,
    reset() {
      map.clear();
      $('hover').replaceChildren(...HOVER_HINT.map((n) => n.cloneNode(true)));
    },
  };
}

/** The exported PNG's caption: the file, the path probed, m, k, fill and health (heatmap.js adds the legend). */
function captionLines(cur) {
  const b = cur.info.bloom;
  const health = healthWord();
  return [
    cur.name,
    ...(cur.probedPath ? [`path probed: ${cur.probedPath}`] : []),
    `m = ${fmt(b.bitCount)} bits · k = ${b.hashFunctionCount} · fill ${pct(b.fillRatio)}${health ? ` · health: ${health}` : ''}`,
  ];
}

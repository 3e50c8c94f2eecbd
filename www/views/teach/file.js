// "This file on the curve": the loaded file's n, m and k on the false-positive curve, and a
// measured rate from 100,000 random paths that are not in its index (teach.measure, in the
// worker, against a copy of the file's filter). `f` is the adapter's view of the file
// (www/teach.js, fileFacts), never the API's objects.
import { $, el } from '../../shared/dom.js';
import { fmt } from '../../shared/format.js';
import { about, pct } from './numbers.js';
import { drawCurve, fppAt } from './curve.js';

/** n for the formula: the index's count under the writer's hypothesis, else the filter's own estimate. */
export function itemsOf(f, hypothesis) {
  if (f.indexedItems != null) return { n: f.indexedItems, source: f.synthetic ? 'paths added' : 'paths in the index' };
  if (f.audit && (f.series.length || f.timeColumns.length)) {
    const withTime = hypothesis?.timeColumns && f.timeColumns.length;
    return { n: f.series.length + (hypothesis?.timeColumns ? f.timeColumns.length : 0), source: `paths in the index${withTime ? ' (series + time columns)' : ''}` };
  }
  if (Number.isFinite(f.estimatedItems)) return { n: Math.round(f.estimatedItems), source: 'estimated from the fill (index unavailable)' };
  return { n: null, source: '' };
}

/** `call(op, args, onprogress)` reaches the worker. */
export function createFileView(call) {
  const cur = { f: null, hypothesis: null, curve: null, seq: 0 };

  /** Shows file facts `f` (null: no file yet; `{present: false}`: a file without a filter). */
  async function show(f, hypothesis) {
    cur.seq++;
    cur.f = f?.present ? f : null;
    cur.hypothesis = hypothesis;
    cur.curve = null;
    const box = $('teach-file');
    const none = $('teach-file-none');
    $('teach-measure').disabled = true;
    $('teach-measure-out').textContent = '';
    box.dataset.measured = '';
    if (!cur.f) {
      // The box appears only when a file is open (with a note when it has no filter).
      $('teach-file-block').hidden = !f;
      box.hidden = true;
      none.hidden = false;
      none.textContent = f && !f.present ? 'This file stores no Bloom filter, so there is no curve to place it on. The sandbox above works without a file.' : '';
      return;
    }
    $('teach-file-block').hidden = false;
    const seq = cur.seq;
    const { m, k } = f;
    const { n, source } = itemsOf(f, hypothesis);
    const c = await call('teach.fpCurve', { items: n ?? 0, bitCount: m, k });
    if (seq !== cur.seq) return;
    cur.curve = c;
    box.hidden = false;
    none.hidden = true;
    drawCurve($('teach-curve'), c, { kCap: 8 });
    const best = Math.max(1, Math.min(8, Math.round(c.kStar)));
    const row = (dt, dd, testid) => [el('dt', { text: dt }), el('dd', { 'data-testid': testid }, dd)];
    $('teach-file-facts').replaceChildren(
      ...row('n', `${fmt(n)} ${source}`, 'teach-n'),
      ...row('m', `${fmt(m)} bits (stored) · ${about(c.bitsPerKey)} bits per item`, 'teach-m'),
      ...row('k', `${k} (stored) · k* = (m/n) ln 2 = ${Number.isFinite(c.kStar) ? about(c.kStar) : '∞'}${Number.isFinite(c.kStar) && c.samples && best !== k ? ` — k = ${best} would give ${pct(fppAt(c, best))}` : ''}`, 'teach-k'),
      ...row('Formula', `(1 − e^(−kn/m))^k = ${pct(c.fpp)}`, 'teach-formula'),
      ...row('From the fill', `fill^k = ${pct(f.fppFromFill)} (fill ${pct(f.fillRatio)}; the formula expects ${pct(c.expectedFill)})`),
    );
    $('teach-measure').disabled = false;
  }

  /** Probes `count` random paths not in the index against the file's filter, in the worker. */
  async function measure(count = 100_000) {
    const { f, hypothesis: w, curve } = cur;
    if (!f || !curve) return null;
    const seq = ++cur.seq;
    const out = $('teach-measure-out');
    out.textContent = 'Measuring…';
    $('teach-measure').disabled = true;
    try {
      const r = await call('teach.measure', { count }, (p) => seq === cur.seq && (out.textContent = `Measuring… ${fmt(p.done)} of ${fmt(p.total)} paths`));
      if (seq !== cur.seq) return null;
      const p = r.rate;
      out.replaceChildren(
        el('b', { text: `Measured: ${fmt(r.maybe)} of ${fmt(r.count)} → ${pct(p)}` }),
        ` (95% Wilson interval ${pct(r.interval.low)} – ${pct(r.interval.high)}) against ${pct(curve.fpp)} by the formula. `,
        el('span', { class: 'muted', text: `Random ASCII paths not in the index, probed with the ${r.variant} hash${r.charset !== 'UTF-8' ? ` (${r.charset})` : ''}${f.auditStatus === 'ambiguous' ? ' (the audit could not tell the tail variants apart; on ASCII paths they agree)' : w?.established ? ', the writer’s as the audit established' : ''} in ${r.seconds.toFixed(2)} s. Every “maybe” here is a false positive.` }),
      );
      Object.assign($('teach-file').dataset, { measured: String(p), low: String(r.interval.low), high: String(r.interval.high) });
      $('teach-file').dataset.maybe = String(r.maybe);
      return r;
    } catch (e) {
      if (seq === cur.seq) out.textContent = `Could not measure: ${e.message}`;
      return null;
    } finally {
      if (seq === cur.seq) $('teach-measure').disabled = !cur.f;
    }
  }

  $('teach-measure').addEventListener('click', () => measure());
  return { show, measure };
}

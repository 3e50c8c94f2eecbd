// The inspector's summary: the file, its TsFileMetadata, the filter's geometry and fill, the
// audit of which writer's hash rebuilds the bits, table schemas and properties.
import { SEEDS } from '../pkg/js/core.js';
import { $, el } from '../shared/dom.js';
import { fmt, fmt1, pct, sentence } from '../shared/format.js';
import { renderHealth } from './health.js';
import { AUDIT_BADGES, auditHeadline, auditLabel, EITHER_TAIL, VARIANT_LABELS } from '../shared/words.js';

/** `ctx`: `{cur}` (the open file's state, app.js). */
export function createSummary(ctx) {
  function renderSummary(info) {
    const b = info.bloom;
    $('file-name').textContent = info.synthetic ? info.name : `${info.name ?? 'file'} · ${fmt(info.size)} bytes${info.size > 1e6 ? ` (${(info.size / 2 ** 20).toFixed(1)} MiB)` : ''}`;
    $('version').textContent = info.version == null ? '–' : String(info.version);
    const m = info.metadata;
    $('metadata').textContent = m ? `${fmt(m.size)} bytes at offset ${fmt(m.offset)}; index from offset ${fmt(m.metaOffset)}` : '–';
    $('encoding').textContent = b.present ? b.encoding : `no filter (${b.encoding ?? 'absent'})`;
    const present = b.present;
    $('byte-length').textContent = b.byteLength != null ? fmt(b.byteLength) : '0';
    $('byte-length-note').textContent = present && b.bitCount ? `of ${fmt(Math.ceil(b.bitCount / 8))} (trailing zero bytes are not stored)` : '';
    $('bit-count').textContent = present ? fmt(b.bitCount) : '–';
    $('bit-count-note').textContent = present && b.bitCount >= 1e4 ? `(${b.bitCount >= 1e6 ? `${(b.bitCount / 2 ** 20).toFixed(2)} Mbit` : `${(b.bitCount / 1024).toFixed(1)} kbit`})` : '';
    $('hash-function-count').textContent = present ? String(b.hashFunctionCount) : '–';
    $('seeds').textContent = present ? `seeds ${SEEDS.slice(0, b.hashFunctionCount).join(', ')}` : '';
    $('set-bits').textContent = present ? fmt(b.setBits) : '–';
    $('fill').textContent = present ? `fill ${pct(b.fillRatio)}` : '';
    renderItems(b);
    renderHealth(b);
    $('audit').textContent = info.synthetic ? 'Built on this page with the Java hash (sign-extended tail): every verdict is sound.' : 'Auditing…';
    $('hash-used').textContent = !present ? 'none (no filter)' : info.synthetic ? `${VARIANT_LABELS.java} · UTF-8 (built here)` : 'auditing…';
    $('hypotheses-box').hidden = true;
    // Tables
    const schemas = info.tableSchemas ?? [];
    const names = (info.tableNames ?? []).filter((t) => t != null);
    $('tables-count').textContent = `(${names.length}${schemas.length ? `, ${schemas.length} with schema` : ''})`;
    const box = $('schemas');
    box.replaceChildren();
    if (!names.length && !schemas.length) box.textContent = 'none';
    for (const s of schemas) {
      const items = (s.columns ?? []).map((c) => el('li', { text: `${c.name} — ${c.dataType}${c.category ? ` · ${c.category}` : ''}` }));
      box.append(el('div', { class: 'schema' }, el('b', { text: s.table }), el('ul', {}, ...items)));
    }
    const plain = names.filter((n) => !schemas.some((s) => s.table === n));
    if (plain.length) box.append(el('p', { class: 'small', text: `Index roots without a schema (tree model devices): ${plain.join(', ')}` }));
    // Properties
    const props = info.properties ?? [];
    $('properties-count').textContent = `(${props.length})`;
    $('properties').replaceChildren(...props.flatMap((p) => [el('dt', { text: p.key }), el('dd', { text: p.value ?? (p.valueHex ? `0x${p.valueHex} (not UTF-8)` : 'null') })]));
    $('warnings').textContent = (info.warnings ?? []).length ? `Warnings: ${info.warnings.join('; ')}` : '';
  }

  /**
   * Items and the formula FPP: the core's figures (`fppFormula`, `optimalK`) with its count of the
   * paths inserted once the index is read, else with the fill's estimate.
   */
  function renderItems(b) {
    if (!b.present) {
      $('items').textContent = '–';
      $('fpp').textContent = '–';
      return;
    }
    const est = b.estimatedItems;
    const n = b.indexedItems;
    $('items').textContent = `≈ ${Number.isFinite(est) ? fmt1(est) : '∞'} estimated from the fill${n != null ? ` · ${fmt(n)} paths ${ctx.cur?.info?.synthetic ? 'added' : 'in the index'}` : ''}`;
    const nn = n ?? est;
    $('fpp').textContent = `${pct(b.fppFormula)} by formula (1 − e^(−kn/m))^k with n = ${Number.isFinite(nn) ? (n != null ? fmt(n) : fmt1(nn)) : '?'} · ${pct(b.fppFromFill)} from the fill (fill^k)`;
    $('fpp').title = Number.isFinite(nn) ? `optimal k for this m and n ≈ ${b.optimalK.toFixed(1)}` : '';
  }

  function renderAudit(audit, info) {
    if (info.synthetic) return;
    const box = $('audit');
    box.replaceChildren();
    const st = audit?.status ?? 'unreadable';
    const badge = el('span', { class: `badge ${AUDIT_BADGES[st] ?? 'warn'}`, 'data-testid': 'audit-status', text: auditLabel(st) });
    // Plain words first; then the core's own sentence (the audit's summary), or what stopped it.
    const why = audit?.summary ? sentence(audit.summary) : 'The index could not be read, so no audit checked which writer made the filter.';
    box.append(el('strong', { class: `audit-plain ${AUDIT_BADGES[st] ?? 'warn'}`, 'data-testid': 'audit-plain', text: auditHeadline(audit) }), el('span', { class: 'audit-detail' }, badge, ` ${why}`));
    $('hash-used').textContent = hashUsed(audit, st);
    const hyps = audit?.hypotheses ?? [];
    $('hypotheses-box').hidden = !hyps.length;
    $('hypotheses').tBodies[0].replaceChildren(
      ...hyps.map((h) =>
        el('tr', { class: h.reproduces ? 'good' : null }, ...[h.variant, h.timeColumns ? 'inserted' : 'not inserted', h.trailingNullsKept ? 'kept' : 'dropped', h.charset, h.writer, h.reproduces ? 'yes' : 'no', fmt(h.differingBits)].map((v) => el('td', { text: v }))),
      ),
    );
    // `info` as the index gives it: the core's indexedItems (null when no audit could run).
    const b = info.bloom;
    if (b.present && b.indexedItems != null) renderItems(b);
    if (b.present) renderHealth(b);
  }

  return { renderSummary, renderAudit };
}

/** The tail variant and charset the file was hashed in, as far as the audit tells. */
function hashUsed(audit, st) {
  const charset = audit?.charset ?? 'UTF-8';
  if (st === 'established') return `${VARIANT_LABELS[audit.variant] ?? audit.variant} · ${charset}`;
  if (st === 'ambiguous') return `${EITHER_TAIL} (they agree on every indexed path) · ${charset}`;
  if (st === 'no_filter') return 'none (no filter)';
  if (st === 'not_reproduced') return 'not established: no tail variant and charset tried rebuilds the bits';
  if (st === 'unsupported_hash') return `${VARIANT_LABELS.cheap}: its bits cannot be rebuilt, and every probe is unknown`;
  return 'unknown: the index could not be read';
}

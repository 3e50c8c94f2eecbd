// The page's words for the core's closed sets — verdicts, hashes, audit statuses — each said
// once here and read by every view (the CLI's text says its own, js/format.js).

/** The verdicts as the page says them. */
export const VERDICT_LABELS = Object.freeze({ absent: 'definitely absent', maybe: 'maybe present', unknown: 'unknown — the filter cannot answer soundly' });
/** The verdicts' order in a sorted column. */
export const VERDICT_ORDER = Object.freeze({ absent: 0, maybe: 1, unknown: 2 });

/**
 * A probe's decision in the core's words (`Decision::words`, the CLI's text alike); each has its
 * own badge colour (style.css, `.decision.*`). A result made without reading the index carries
 * none: its verdict is its decision.
 */
export { DECISION_WORDS as DECISION_LABELS } from '../pkg/js/core-tables.js';
export const decisionOf = (r) => r.decision ?? r.verdict;
/** A decision in a table cell. */
export const DECISION_SHORT = Object.freeze({ absent: 'absent', indexed: 'in the index', false_positive: 'false positive', maybe: 'maybe', unknown: 'unknown' });
/** What the index says of a probed path (`indexed`: true, false, null when it was not read to its end). */
export const indexWords = (indexed) => (indexed == null ? 'not read to its end' : indexed ? 'lists this series' : 'does not list this series');

/** The hashes a result names as its variant, as the page names them (`cheap`: not evaluated). */
export const VARIANT_LABELS = Object.freeze({ java: 'java (sign-extended tail)', 'zero-extended': 'zero-extended (C++ 2.5)', cheap: 'the experimental cheap hash (not evaluated)' });

/** An audit's status in words, the one table every view uses (`unreadable`: the index could not be read). */
export const AUDIT_LABELS = Object.freeze({
  established: 'established',
  ambiguous: 'matches the index (either tail)',
  not_reproduced: 'not reproduced',
  no_filter: 'no filter',
  unsupported_hash: 'hash not evaluated',
  unreadable: 'index unreadable',
});
export const auditLabel = (status) => AUDIT_LABELS[status] ?? String(status);
/** The badge class of each audit status. */
export const AUDIT_BADGES = Object.freeze({ established: 'ok', ambiguous: 'ok', no_filter: 'muted', not_reproduced: 'warn', unsupported_hash: 'warn', unreadable: 'warn' });
/**
 * The writer check in plain words, from the audit's facts (status, consistent, writer, charset,
 * the hypotheses that reproduce): a filter whose bits are rebuilt — its tail variant told or
 * not — matches the index; the core's summary and the hypotheses say the rest.
 */
export function auditHeadline(audit) {
  const st = audit?.status ?? 'unreadable';
  if (st === 'no_filter' || !audit?.consistent) return AUDIT_HEADLINES[st] ?? AUDIT_HEADLINES.unreadable;
  const writers = audit.writer ?? [...new Set(audit.hypotheses.filter((h) => h.reproduces && h.charset === audit.charset).map((h) => h.writer))].join(' or a ');
  const charset = audit.charset ?? 'UTF-8';
  return `Filter matches the index ✓ — written by a ${writers}${writers.includes(charset) ? '' : `, ${charset}`}`;
}
const AUDIT_HEADLINES = Object.freeze({
  no_filter: 'No filter — this file stores no Bloom filter: a reader looks every path up in the index',
  not_reproduced: 'Filter does not match the index ✗ — no writer’s hash rebuilds its bits, so “definitely absent” cannot be trusted for this file',
  unsupported_hash: 'Filter not checked — its bits were set by the experimental cheap hash, which this reader does not evaluate',
  unreadable: 'Filter not checked — the index could not be read to its end',
});

/** The hash of an ambiguous audit: every indexed path's tail is ASCII, where both tail variants agree. */
export const EITHER_TAIL = 'java or zero-extended';

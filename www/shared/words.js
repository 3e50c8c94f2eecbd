// The page's words for the core's closed sets — verdicts, hashes, audit statuses — each said
// once here and read by every view (the CLI's text says its own, js/format.js).

/** The verdicts as the page says them. */
export const VERDICT_LABELS = Object.freeze({ absent: 'definitely absent', maybe: 'maybe present', unknown: 'unknown — the filter cannot answer soundly' });
/** The badge class of each verdict, and their order in a sorted column. */
export const VERDICT_BADGES = Object.freeze({ absent: 'muted', maybe: 'ok', unknown: 'info' });
export const VERDICT_ORDER = Object.freeze({ absent: 0, maybe: 1, unknown: 2 });

/** The hashes a result names as its variant, as the page names them (`cheap`: not evaluated). */
export const VARIANT_LABELS = Object.freeze({ java: 'java (sign-extended tail)', 'zero-extended': 'zero-extended (C++ 2.5)', cheap: 'the experimental cheap hash (not evaluated)' });

/** An audit's status in words, the one table every view uses (`unreadable`: the index could not be read). */
export const AUDIT_LABELS = Object.freeze({
  established: 'established',
  ambiguous: 'reproduced (variant ambiguous)',
  not_reproduced: 'not reproduced',
  no_filter: 'no filter',
  unsupported_hash: 'hash not evaluated',
  unreadable: 'index unreadable',
});
export const auditLabel = (status) => AUDIT_LABELS[status] ?? String(status);
/** The badge class of each audit status. */
export const AUDIT_BADGES = Object.freeze({ established: 'ok', ambiguous: 'info', no_filter: 'muted', not_reproduced: 'warn', unsupported_hash: 'warn', unreadable: 'warn' });
/** The hash of an ambiguous audit: every indexed path's tail is ASCII, where both tail variants agree. */
export const EITHER_TAIL = 'java or zero-extended';

// A TsFile probe's reason in words. The core decides the reason and how its words say it
// (src/tsfile/verdict.rs `Reason::phrase`): which sentence form, whether the hash's charset is
// named, "seed … is" or "seeds … are", what the index says. The probe record ends in those
// choices as numbers (src/tsfile/wire/record.rs `REASON_FIELDS`), and the forms and their texts
// are js/core-tables.js, generated from the core; this module only fills the form, as the
// core's `Phrase::text` does natively (tests/reasons.rs checks the two agree on every probe of
// every fixture).

import { CHARSETS, NONE, REASON_JOINS, REASON_RECORD, REASON_SLOTS, REASON_TEMPLATES, REASON_TEXTS, SEEDS, VARIANTS } from './core-tables.js';

const [TEMPLATE, LISTED, USED_VARIANT, USED_CHARSET, OTHER_VARIANT, OTHER_CHARSET, SEEDS_FIRST, SEEDS_CLEAR, SEEDS_LAST, COUNT] = [
  'template', 'listed', 'usedVariant', 'usedCharset', 'otherVariant', 'otherCharset', 'seedsFirst', 'seedsClear', 'seedsLast', 'count',
].map((f) => REASON_RECORD.indexOf(f));

/** How many numbers the reason takes at the end of a file probe record. */
export const REASON_LENGTH = REASON_RECORD.length;

const hash = (variant, charset) => VARIANTS[variant] + (charset === NONE ? '' : REASON_TEXTS[REASON_JOINS.hash] + CHARSETS[charset]);

/**
 * The sentence of the reason at `at` in `m` (an Int32Array of wasm memory, or an array);
 * `summary()`: the audit's summary, which a form may quote.
 */
export function reasonText(m, at, summary) {
  let s = '';
  for (const step of REASON_TEMPLATES[m[at + TEMPLATE]]) {
    switch (step) {
      case REASON_SLOTS.used:
        s += hash(m[at + USED_VARIANT], m[at + USED_CHARSET]);
        break;
      case REASON_SLOTS.other:
        s += hash(m[at + OTHER_VARIANT], m[at + OTHER_CHARSET]);
        break;
      case REASON_SLOTS.seeds: {
        const clear = m[at + SEEDS_CLEAR];
        const seeds = SEEDS.filter((_, j) => (clear >> j) & 1).join(REASON_TEXTS[REASON_JOINS.seeds]);
        s += REASON_TEXTS[m[at + SEEDS_FIRST]] + seeds + REASON_TEXTS[m[at + SEEDS_LAST]];
        break;
      }
      case REASON_SLOTS.count:
        s += m[at + COUNT];
        break;
      case REASON_SLOTS.summary:
        s += summary() ?? '';
        break;
      default:
        s += REASON_TEXTS[step];
    }
  }
  return s + REASON_TEXTS[m[at + LISTED]];
}

// The words and number formats of the package's text outputs, each written once: the CLI's
// `inspect`, `probe` and `verify` text (js/cli.js), the scan's listing and summary
// (js/scan-output.js) and its false-positive summaries (js/scan-fp.js). It imports only the core's
// generated tables, so that each of them imports it without a circle. The page says its own
// (www/shared/words.js, format.js); a decision's words are the core's, the same on both.
import { DECISION_WORDS } from './core-tables.js';

/** A ratio as a percentage for the text outputs; '-' for none. */
export const pct = (x) => (x == null ? '-' : `${(x * 100).toFixed(x < 0.001 ? 4 : 2)}%`);

/** A filter's health state (src/health.rs) as the text says it. */
const HEALTH_WORDS = {
  healthy: 'healthy',
  over_filled: 'OVER-FILLED: the index lists more keys than its m and k were sized for',
  high_fp: 'HIGH FP: fill^k is more than twice the error rate',
  unknown: 'keys held not known until the index is read',
};

/** `inspect`'s health line: `health` (bloom_filter.health), the fill and fill^k now. */
export const healthText = (h, fill, fpp) =>
  `health     ${HEALTH_WORDS[h.state]}; fill ${pct(fill)} (sized for ${pct(h.design_fill)} at ${h.sized_for_items} keys), ` +
  `FP ${pct(fpp)} by fill (error rate ${pct(h.error_rate)})`;

/** A verdict as the text shows it: upper case, so that ABSENT stands out in a column. */
export const verdictWord = (verdict) => verdict.toUpperCase();

/**
 * A probe's decision in the core's words (`Decision::words`, the page's alike). A result made
 * without reading the index carries no decision: its verdict is its decision.
 */
export const decisionWords = (r) => DECISION_WORDS[r.decision ?? r.verdict];

/** A listed series' `maybe_present` (true, false, null) where the file has a filter or not. */
export const listedWord = (maybePresent, hasFilter) => (maybePresent == null ? (hasFilter ? 'unknown' : '') : maybePresent ? 'maybe' : verdictWord('absent'));

/** The hash an audit names (`variant`, `charsets`), in words. */
export const hashedWords = ({ variant, charsets }) =>
  variant === 'cheap' ? 'the experimental cheap hash (not evaluated: every probe is unknown)' : `${variant} tail, path bytes in ${charsets.join(' / ') || 'UTF-8'}`;

/** A count with its noun, plural-correct: `count(1, 'file')` → "1 file", `count(2, 'file')` → "2 files". */
export const count = (n, noun, plural = `${noun}s`) => `${n} ${n === 1 ? noun : plural}`;

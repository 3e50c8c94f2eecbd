// Numbers as the lesson's labels say them: rounded for people. A probability too small for a
// readable percentage is said as odds ("1 in 3.7 million"), never in exponent notation.
import { pct as percent } from '../../shared/format.js';

const ODDS = new Intl.NumberFormat('en', { notation: 'compact', compactDisplay: 'long', maximumSignificantDigits: 2 });

/** A probability: a percentage down to 0.01 %, odds below it, '–' for none. */
export const pct = (x) => (x > 0 && x < 1e-4 ? `1 in ${ODDS.format(1 / x)}` : percent(x));

/** A ratio as a percentage of at most 3 significant digits (a label, not a measurement). */
export const pct3 = (x) => `${+(x * 100).toPrecision(3)} %`;

const ABOUT = new Intl.NumberFormat('en', { maximumSignificantDigits: 3 });
/** A computed quantity (k*, bits per key) to 3 significant digits; '–' when not finite. */
export const about = (x) => (Number.isFinite(x) ? ABOUT.format(x) : '–');

const COMPACT = new Intl.NumberFormat('en', { notation: 'compact' });
/** An axis tick at 10^e, said for people: "1%", "0.01%", "1 in 100K". */
export const decade = (e) => (e >= -4 ? `${+(100 * 10 ** e).toPrecision(1)}%` : `1 in ${COMPACT.format(10 ** -e)}`);

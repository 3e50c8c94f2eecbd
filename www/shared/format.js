// Number formatting and the probe colours, the same in every view.

// One formatter (Number#toLocaleString builds one per call: slow in tables of 10,000 rows).
const NUMBER = new Intl.NumberFormat('en');

/** 12,345 (en grouping); '–' for null. */
export const fmt = (n) => (n == null ? '–' : NUMBER.format(Number(n)));

const ONE_DECIMAL = new Intl.NumberFormat('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
/** 9,984.1: grouped, one decimal; '–' for null. */
export const fmt1 = (n) => (n == null ? '–' : ONE_DECIMAL.format(Number(n)));

/**
 * A ratio as a percentage with precision that grows as the value shrinks; '–' for none. Below
 * 0.01 % it is said as odds ("1 in 110,000"): an exponent reads as noise to a person.
 */
export function pct(x) {
  if (x == null || Number.isNaN(x)) return '–';
  if (x === 0) return '0%';
  if (x < 1e-4) return `1 in ${fmt(Number((1 / x).toPrecision(2)))}`;
  return `${(x * 100).toFixed(x < 0.001 ? 4 : x < 0.1 ? 3 : 2)}%`;
}

/** A byte as two hex digits. */
/** A count with its noun, plural-correct: `count(1, 'time column')` → "1 time column". */
export const count = (n, noun, plural = `${noun}s`) => `${fmt(n)} ${n === 1 ? noun : plural}`;

export const hex = (b) => b.toString(16).padStart(2, '0');

/** Upper-cases the first letter and ends the sentence with a full stop. */
export const sentence = (s) => (s ? `${s[0].toUpperCase()}${s.slice(1)}${/[.!?]$/.test(s) ? '' : '.'}` : '');

// Eight seed colours distinguishable in light and dark mode (and by most colour-blind readers):
// seed i → colour i; LevelDB's probes beyond 8 cycle through them.
export const SEED_COLORS = Object.freeze(['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#42d4f4', '#f032e6', '#bfef45']);
export const seedColor = (j) => SEED_COLORS[j % SEED_COLORS.length];

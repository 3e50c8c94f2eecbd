// The number formats of the package's text outputs, each written once: the CLI's `inspect`
// text (js/cli.js), the scan's listing and summary (js/scan-output.js) and its false-positive
// summaries (js/scan-fp.js). No imports, so that each of them imports it without a circle. The
// page words its figures its own way (www/shared/format.js, with other precision).

/** A ratio as a percentage for the text outputs; '-' for none. */
export const pct = (x) => (x == null ? '-' : `${(x * 100).toFixed(x < 0.001 ? 4 : 2)}%`);

// The package's sentences name its options; the CLI's name its flags. The CLI rewords the
// errors it prints (js/cli.js) and, through the scan's `flagWords` option, each scan record's
// error (js/scan.js, js/scan-worker.js) — never the rest of a record, whose paths and names are
// printed as they are.
const FLAG_WORDS = [
  ['the allowFullDownload option', '--allow-full-download'],
  ['maxFullDownloadBytes (', '--allow-full-download=BYTES ('],
  ['maxIndexBytes (', '--max-index-bytes ('],
  ['(deadlineMs)', '(--timeout)'],
];

/** An error (or a record's `error`) from the package, its sentence in the CLI's words (the same object). */
export function inFlagWords(e) {
  if (e && typeof e.message === 'string') for (const [from, to] of FLAG_WORDS) e.message = e.message.replaceAll(from, to);
  return e;
}

// `tsfile-bloom scan`: a fleet of TsFiles (files, directory trees, URLs, @LIST files) asked
// for their filters and their verdicts on series paths; one line per file and a summary.
// Exit codes: 0 every file was read; 1 some file had an error (a format error, an unreadable
// file; all are still reported); 2 a usage error, or nothing could be read.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { ioError } from './node-source.js';

export const SCAN_USAGE = 'tsfile-bloom scan TARGET... [--path P]... [--paths-file F] [--jobs N] [--audit]\n                    [--json | --csv]';

export const SCAN_HELP = `scan     reads the filter of every TsFile in TARGETs (files; directories, recursively:
         files named *.tsfile; http(s):// URLs read with Range requests; @LIST: targets
         from a file, one per line, @- from stdin) and tests each --path (and each line
         of --paths-file, - for stdin) with probe's rules: 'absent' (skippable), 'maybe',
         'unknown'. --audit reads each index too and lets the writer-variant audit decide.
         --json streams NDJSON, one object per file and a last {"summary": …} line; --csv
         one row per file (the summary on stderr). --jobs N: up to N worker threads
         (default: the core count; one more per 16,384 files found). The flags for URLs
         and --max-index-bytes apply to every file`;

function readLines(file, what) {
  let text;
  try {
    // `-` (`@-`, `--paths-file -`): the lines come on stdin.
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (e) {
    throw ioError(e, file === '-' ? 'stdin' : file);
  }
  return text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !(what === 'targets' && l.startsWith('#')));
}

/**
 * Runs `scan` with its arguments, parsed and checked by the CLI (js/cli.js): `values` (the
 * flags), `targets` (the positionals), `source` (openTsFile's options for URL reads and
 * maxIndexBytes). `write(text)` writes to stdout (a promise when the pipe is full); `signal`
 * aborts the scan (the CLI's stdout went away). Resolves to the exit code.
 */
export async function scanCommand({ values, targets: given, source = {} }, { write, stderr = process.stderr, signal }) {
  // Loaded here, not with the CLI: the other commands start faster without the scanner.
  const [{ runScan }, { csvHeader, summaryJson, summaryText }] = await Promise.all([import('./scan.js'), import('./scan-core.js')]);
  const targets = given.flatMap((t) => (t.startsWith('@') ? readLines(t.slice(1), 'targets') : [t]));
  const paths = [...(values.path ?? []), ...(values['paths-file'] ? readLines(values['paths-file'], 'paths') : [])];
  const format = values.json ? 'ndjson' : values.csv ? 'csv' : 'text';
  const jobs = values.jobs ? Number(values.jobs) : availableParallelism();

  let progressShown = false;
  let lastProgress = 0;
  const onProgress = stderr.isTTY
    ? ({ done, total, elapsedMs }) => {
        const now = performance.now();
        if (now - lastProgress < 200) return;
        lastProgress = now;
        const rate = done / (elapsedMs / 1000);
        const eta = total != null && rate > 0 ? `, ETA ${((total - done) / rate).toFixed(0)} s` : '';
        stderr.write(`\r\x1b[K${done}${total != null ? ` of ${total}` : ''} files, ${Math.round(rate)} files/s${eta}`);
        progressShown = true;
      }
    : undefined;

  if (format === 'csv') await write(`${csvHeader(paths)}\n`);
  // A reader that goes away (`| head`) aborts `signal`: the scan stops, and the CLI ends quietly.
  const summary = await runScan(targets, { ...source, paths, audit: values.audit === true, concurrency: jobs, format, onProgress, signal }, write);
  if (progressShown) stderr.write('\r\x1b[K');
  if (format === 'ndjson') await write(`${JSON.stringify({ summary: summaryJson(summary) })}\n`);
  else if (format === 'csv') stderr.write(`${summaryText(summary)}\n`);
  else await write(`\n${summaryText(summary)}\n`);
  if (summary.ok === 0) {
    if (summary.files === 0) stderr.write('scan: no TsFiles found\n');
    return 2;
  }
  return summary.errors ? 1 : 0;
}

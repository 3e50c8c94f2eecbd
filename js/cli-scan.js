// `tsfile-bloom scan`: a fleet of TsFiles (files, directory trees, URLs, @LIST files) asked
// for their filters and their verdicts on series paths; one line per file and a summary.
// Exit codes: 0 every file was read; 1 some file had an error (a format error, an unreadable
// file; all are still reported); 2 a usage error, or nothing could be read.
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { ioError } from './node-source.js';

export const SCAN_USAGE = `  tsfile-bloom scan TARGET... [--path P]... [--paths-file F] [--jobs N] [--audit]
                    [--json | --csv]`;

export const SCAN_HELP = `scan     reads the filter of every TsFile in TARGETs (files; directories, recursively:
         files named *.tsfile; http(s):// URLs read with Range requests; @LIST: targets
         from a file, one per line) and tests each --path (and --paths-file, one per
         line) with probe's rules: 'absent' (skippable), 'maybe', 'unknown'. --audit
         reads each index too and lets the writer-variant audit decide. --json streams
         NDJSON, one object per file and a last {"summary": …} line; --csv one row per
         file (the summary on stderr). --jobs N: up to N worker threads (default: the
         core count; one more per 16,384 files found)`;

class UsageError extends Error {}

function readLines(file, what) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw ioError(e, file);
  }
  return text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !(what === 'targets' && l.startsWith('#')));
}

/** Runs `scan` with its arguments (after the verb); resolves to the exit code. */
export async function scanCommand(argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  // Loaded here, not with the CLI: the other commands start faster without the scanner.
  const [{ runScan }, { csvHeader, summaryJson, summaryText }] = await Promise.all([import('./scan.js'), import('./scan-core.js')]);
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        path: { type: 'string', multiple: true, default: [] },
        'paths-file': { type: 'string' },
        jobs: { type: 'string' },
        audit: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        csv: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
    if (values.help) {
      stdout.write(`usage:\n${SCAN_USAGE}\n\n${SCAN_HELP}\n`);
      return 0;
    }
    if (values.json && values.csv) throw new UsageError('scan: --json and --csv exclude each other');
    if (values.jobs !== undefined && !/^[1-9][0-9]*$/.test(values.jobs)) throw new UsageError(`--jobs must be a positive integer, not ${JSON.stringify(values.jobs)}`);
    if (!positionals.length) throw new UsageError('scan: give at least one TARGET (a file, a directory, a URL or @LIST)');
  } catch (e) {
    if (e instanceof UsageError || e.code?.startsWith?.('ERR_PARSE_ARGS')) {
      stderr.write(`${e.message}\n\nusage:\n${SCAN_USAGE}\n`);
      return 2;
    }
    throw e;
  }

  let targets;
  let paths;
  try {
    targets = positionals.flatMap((t) => (t.startsWith('@') ? readLines(t.slice(1), 'targets') : [t]));
    paths = [...values.path, ...(values['paths-file'] ? readLines(values['paths-file'], 'paths') : [])];
  } catch (e) {
    stderr.write(`error: ${e.message}\n`);
    return 2;
  }
  const format = values.json ? 'ndjson' : values.csv ? 'csv' : 'text';
  const jobs = values.jobs ? Number(values.jobs) : availableParallelism();

  // A reader that goes away (`| head`) ends the scan quietly.
  const stop = new AbortController();
  let closed = false;
  stdout.on?.('error', (e) => {
    if (e.code !== 'EPIPE') throw e;
    closed = true;
    stop.abort();
  });
  // Output is written in chunks (one per batch of files); a slow pipe holds the scan back.
  const write = (text) => (text && !stdout.write(text) ? new Promise((resolve) => stdout.once('drain', resolve)) : undefined);
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
  let summary;
  try {
    summary = await runScan(targets, { paths, audit: values.audit, concurrency: jobs, format, onProgress, signal: stop.signal }, (text) => (closed ? undefined : write(text)));
  } catch (e) {
    if (closed && e.kind === 'cancelled') return 0;
    throw e;
  }
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

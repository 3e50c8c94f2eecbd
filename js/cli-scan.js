// `tsfile-bloom scan`: a fleet of TsFiles (files, directory trees, URLs, @LIST files) asked
// for their filters and their verdicts on series paths; one line per file and a summary.
// Exit codes: 0 every file was read; 1 some file had an error (a format error, an unreadable
// file; all are still reported); 2 a usage error, or nothing could be read.
import { readFileSync } from 'node:fs';
import { ioError } from './node-source.js';
import { isHttpUrl, redactUrl } from './http-source.js';

export const SCAN_USAGE = 'tsfile-bloom scan TARGET... [--path P]... [--paths-file F] [--jobs N] [--audit]\n                    [--manifest FILE] [--json | --csv | --list maybe|absent [--print0]]';

export const SCAN_HELP = `scan     reads the filter of every TsFile in TARGETs (files; directories, recursively:
         files named *.tsfile; http(s):// URLs read with Range requests; @LIST: targets
         from a file, one per line, @- from stdin) and tests each --path (and each line
         of --paths-file, - for stdin) with probe's rules: 'absent' (skippable), 'maybe',
         'unknown'. --audit reads each index too and lets the writer-variant audit decide.
         --json streams NDJSON, one object per file and a last {"summary": …} line; --csv
         one row per file (the summary on stderr). --list maybe prints only the
         locations of the files that may hold a --path (or could not be read: they must be
         read too), --list absent only those every --path can skip, one per line (NUL-
         separated with --print0), for the next tool (the summary on stderr): each as
         given, a presigned URL with its signature (the next tool reads it by that).
         Everywhere else (the text, --json, --csv, errors) a URL's secrets — the values
         of X-Amz-Signature, X-Amz-Credential, X-Amz-Security-Token, Signature,
         AWSAccessKeyId, a password — show as REDACTED (README, "Remote files").
         --jobs N: up to N worker threads for local files (default: the core count; one
         more per 16,384 files found) and N files read at once over HTTP or S3 (default
         64). The flags for URLs and --max-index-bytes apply to every file. --manifest
         FILE keeps what the scan learnt of each local file in FILE; the next scan with
         it reads only the files that are new or changed (size, mtime, ctime, inode) and
         answers for the rest from FILE (README, "Repeat scans")`;

/**
 * `record → location` for --list, which writes a file's location as it was given: the next tool
 * reads the file by it, and a presigned URL is read by its signature. A record names such a URL
 * as redactUrl shows it; the targets with secrets are found again by that name, in the order
 * given (a URL target is one record, and records come in walk order). Anything else: its `file`.
 */
function givenLocations(targets) {
  const given = new Map();
  for (const t of targets) {
    const shown = isHttpUrl(t) ? redactUrl(t) : t;
    if (shown === t) continue;
    if (given.has(shown)) given.get(shown).push(t);
    else given.set(shown, [t]);
  }
  return (r) => given.get(r.file)?.shift() ?? r.file;
}

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
  const format = values.list ? 'records' : values.json ? 'ndjson' : values.csv ? 'csv' : 'text';
  // Unset, the scanner picks: the core count for local files, 64 remote files at once.
  const jobs = values.jobs ? Number(values.jobs) : undefined;

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
  // --list: a file's location when it belongs to the list. "absent": every path is skippable
  // in it; "maybe": any path may be in it — or it could not be read, so it must be read anyway.
  const end = values.print0 ? '\0' : '\n';
  const skippable = (r) => r.ok && r.results?.length > 0 && r.results.every((p) => p.verdict === 'absent');
  const locationOf = givenLocations(targets);
  const listed = (records) => {
    const out = [];
    for (const r of records) {
      const location = locationOf(r); // for every record, in order: it takes its URL's turn
      if (values.list === 'absent' ? skippable(r) : !skippable(r)) out.push(`${location}${end}`);
    }
    return out.length ? write(out.join('')) : undefined;
  };
  const summary = await runScan(targets, { ...source, paths, audit: values.audit === true, concurrency: jobs, manifest: values.manifest, format, onProgress, signal }, values.list ? listed : write);
  if (progressShown) stderr.write('\r\x1b[K');
  if (format === 'ndjson') await write(`${JSON.stringify({ summary: summaryJson(summary) })}\n`);
  else if (format === 'csv' || values.list) stderr.write(`${summaryText(summary)}\n`);
  else await write(`\n${summaryText(summary)}\n`);
  if (summary.ok === 0) {
    if (summary.files === 0) stderr.write('scan: no TsFiles found\n');
    return 2;
  }
  return summary.errors ? 1 : 0;
}

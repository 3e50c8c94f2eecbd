// `tsfile-bloom scan`: a fleet of TsFiles (files, directory trees, URLs, @LIST files) asked
// for their filters and their verdicts on series paths; one line per file and a summary.
// Exit codes: 0 every file was read; 1 some file had an error (a format error, an unreadable
// file; all are still reported), or --list wrote a location holding a newline escaped; 2 a
// usage error, or nothing could be read.
import { readTargetLines, readTextLines } from './lines.js';
import { locationText } from './escape.js';
import { isHttpUrl } from './http-source.js';
import { redactUrl } from './redact.js';
import { MUST_READ } from './core-tables.js';

/**
 * `record → record` for --list, which writes a file's location as it was given: the next tool
 * reads the file by it, and a presigned URL is read by its signature. A record names such a URL
 * as redactUrl shows it; the targets with secrets are found again by that name, in the order
 * given (a URL target is one record, and records come in walk order): the record with `file` the
 * URL given. Any other record as it is.
 */
function givenLocations(targets) {
  const given = new Map();
  for (const t of targets) {
    const shown = isHttpUrl(t) ? redactUrl(t) : t;
    if (shown === t) continue;
    if (given.has(shown)) given.get(shown).push(t);
    else given.set(shown, [t]);
  }
  return (r) => {
    const url = given.get(r.file)?.shift();
    return url === undefined ? r : { ...r, file: url };
  };
}

/**
 * Runs `scan` with its arguments, parsed and checked by the CLI (js/cli.js): `values` (the
 * flags), `targets` (the positionals), `source` (openTsFile's options for URL reads and
 * maxIndexBytes). `write(text)` writes to stdout (a promise when the pipe is full); `signal`
 * aborts the scan (the CLI's stdout went away). Resolves to the exit code.
 */
export async function scanCommand({ values, targets: given, source = {} }, { write, stderr = process.stderr, signal, terminal = false }) {
  // Loaded here, not with the CLI: the other commands start faster without the scanner.
  const [{ runScan }, { csvHeader, summaryJson, summaryText }] = await Promise.all([import('./scan.js'), import('./scan-output.js')]);
  const targets = [];
  for (const t of given) targets.push(...(t.startsWith('@') ? await readTargetLines(t.slice(1), t) : [t]));
  const paths = [...(values.path ?? []), ...(values['paths-file'] ? await readTextLines(values['paths-file'], '--paths-file') : [])];
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
        stderr.write(`\r\x1b[K${done}${total != null ? ` of ${total}` : ''} ${(total ?? done) === 1 ? 'file' : 'files'}, ${Math.round(rate)} files/s${eta}`);
        progressShown = true;
      }
    : undefined;

  if (format === 'csv') await write(`${csvHeader(paths)}\n`);
  // A reader that goes away (`| head`) aborts `signal`: the scan stops, and the CLI ends quietly.
  // --list: a file's location when it belongs to the list. "absent": every path is skippable
  // in it (absent, or with --audit a false positive); "maybe": any path must be read in it — or
  // it could not be read, so it must be read anyway.
  const skippable = (r) => r.ok && r.results?.length > 0 && !r.results.some((v) => MUST_READ.includes(v.decision ?? v.verdict));
  const list = locationList(values.print0 === true, terminal);
  // For the next tool a presigned URL as given; on a terminal, for a person, as it is shown.
  const locationOf = terminal ? (r) => r : givenLocations(targets);
  const listed = (records) => {
    const wanted = [];
    for (const r of records) {
      const located = locationOf(r); // every record, in order: it takes its URL's turn
      if (values.list === 'absent' ? skippable(r) : !skippable(r)) wanted.push(located);
    }
    const out = list.add(wanted);
    return out.length ? write(out, true) : undefined;
  };
  const summary = await runScan(targets, { ...source, paths, audit: values.audit === true, concurrency: jobs, manifest: values.manifest, format, onProgress, signal, flagWords: true }, values.list ? listed : write);
  if (progressShown) stderr.write('\r\x1b[K');
  if (format === 'ndjson') await write(`${JSON.stringify(summaryJson(summary))}\n`);
  else if (format === 'csv' || values.list) stderr.write(`${summaryText(summary)}\n`);
  else await write(`\n${summaryText(summary)}\n`);
  for (const name of list.escaped) stderr.write(`scan: ${name}: the location holds a newline, which a list of lines cannot carry: written escaped, it names no file (--print0 lists it as it is)\n`);
  if (summary.ok === 0) {
    if (summary.files === 0) stderr.write('scan: no TsFiles found\n');
    return 2;
  }
  return summary.errors || list.escaped.length ? 1 : 0;
}

/**
 * --list's output: each location's own bytes (a name that is not UTF-8 too: its record's
 * fileHex) and a newline, or a NUL with --print0 — for the next tool, as `find -print` and
 * `-print0` write them. On a terminal (`terminal`) a person reads it: each location escaped as
 * the text listing shows it (js/escape.js). A location holding a newline cannot be one line of
 * a list: written escaped (it then names no file, and the next tool says so) and counted in
 * `escaped`, for the CLI to report and exit 1 — never left out, which `--list maybe` would make
 * a silent "skip this file".
 */
function locationList(print0, terminal) {
  const end = Buffer.from(print0 ? '\0' : '\n');
  const escaped = [];
  return {
    escaped,
    add(records) {
      const out = [];
      for (const r of records) {
        const bytes = r.fileHex != null ? Buffer.from(r.fileHex, 'hex') : Buffer.from(r.file);
        if (terminal || (!print0 && bytes.includes(10))) {
          const shown = locationText(r.file, r.fileHex);
          if (!terminal) escaped.push(shown);
          out.push(Buffer.from(shown), end);
        } else out.push(bytes, end);
      }
      return Buffer.concat(out);
    },
  };
}

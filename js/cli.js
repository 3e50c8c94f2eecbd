#!/usr/bin/env node
// tsfile-bloom CLI: inspect / probe / verify a TsFile's Bloom filter; build one from paths; scan
// a fleet. One grammar for every verb (parsed here, scan's too): a FILE is a path, an http(s)
// URL or `-` (the file on stdin), with the same flags for URL reads everywhere.
// Exit codes (docs/cli.md): 0 ok, 1 format error (or a failed verify), 2 usage or I/O error;
// a reader that goes away (`| head`) ends every verb quietly with 0.
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createWriteStream, fstatSync, read as readFd, readFileSync } from 'node:fs';
import { parseArgs, promisify } from 'node:util';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTsFile, openLevelDbTable, isLevelDbFooter, BloomFilter, VARIANTS, CHARSETS, canonicalCharsetName } from './node.js';
import { handleSource, ioError, nodeSource } from './node-source.js';
import { toSource } from './source.js';
import { TsFileBloomError } from './errors.js';
import { inFlagWords } from './flag-words.js';
import { isHttpUrl } from './http-source.js';
import { redactUrl } from './redact.js';
import { scanCommand } from './cli-scan.js';
import { count, decisionWords, hashedWords, healthText, listedWord, pct, verdictWord } from './format.js';
import { terminalText } from './escape.js';
import { completionScript, SHELLS } from './completions.js';
import { eachTextBatch } from './lines.js';
import { DEFAULT_HASH, ERROR_RATE } from './core-tables.js';
import {
  inspectReport as makeInspectReport, writeInspectJson, levelDbReport, buildReport, errorReport, report,
} from './report.js';

const VERSION = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

/** `-` reads the file from stdin into memory, up to this many bytes (--max-stdin-bytes). */
const DEFAULT_MAX_STDIN_BYTES = 1024 ** 3;

const SOURCE_USAGE = '[SOURCE FLAGS]';

const DOCS = 'https://github.com/tsfile-bloom/tsfile-bloom/blob/main/docs/cli.md';

// Every flag of every verb: its kind ('boolean'; 'string', a value as --name V or --name=V;
// 'optional', a value only as --name=V), `short`, `multiple`, the words its value may be
// (`values`: the completions offer them), `file` (a file names it), and its line in VERB --help:
// the value it takes (`arg`) and what it does. docs/cli.md says the rest.
const FLAGS = {
  json: { type: 'boolean', help: 'the report as JSON (format_version 2: docs/json.md)' },
  all: { type: 'boolean', help: 'every series (or LevelDB filter), not the first 20' },
  quiet: { type: 'boolean', short: 'q', help: 'print nothing: the exit status says the verdict' },
  variant: { type: 'string', values: VARIANTS, arg: ' V', help: `the writer's hash: ${VARIANTS.join(' or ')}` },
  charset: { type: 'string', values: CHARSETS, arg: ' NAME', help: "the path's charset (default UTF-8; GBK, Shift_JIS…: docs/charsets.md)" },
  hex: { type: 'boolean', help: 'probe: PATHs (KEYs) given as hex bytes; build: print the filter as hex' },
  capacity: { type: 'string', arg: ' N', help: 'the keys the filter is sized for (default: the paths)' },
  fpp: { type: 'string', arg: ' X', help: `the error rate (default ${ERROR_RATE.default}, clamped to [${ERROR_RATE.min}, ${ERROR_RATE.max}])` },
  out: { type: 'string', file: true, arg: ' FILE', help: "write the filter's bytes to FILE" },
  path: { type: 'string', multiple: true, arg: ' P', help: 'a series path to test in every file (repeatable)' },
  'paths-file': { type: 'string', file: true, arg: ' F', help: 'series paths, one a line (- for stdin)' },
  jobs: { type: 'string', arg: ' N', help: 'worker threads for local files, files at once by URL (default: cores, 64)' },
  audit: { type: 'boolean', help: "read each index too: the writer-variant audit decides" },
  csv: { type: 'boolean', help: 'one CSV row per file (the summary on stderr)' },
  list: { type: 'string', values: ['maybe', 'absent'], arg: ' maybe|absent', help: 'print only the locations of the files to read (maybe) or skip (absent)' },
  print0: { type: 'boolean', help: "--list's locations NUL-separated" },
  manifest: { type: 'string', file: true, arg: ' FILE', help: 'keep what the scan learnt in FILE; the next reads only new or changed files' },
  header: { type: 'string', multiple: true, short: 'H', arg: " 'NAME: VALUE'", help: "sent to a URL's origin (repeatable)" },
  'allow-full-download': { type: 'optional', arg: '[=BYTES]', help: 'accept a server that ignores Range, up to BYTES (64M)' },
  timeout: { type: 'string', arg: ' SECONDS', help: 'a limit on each URL or s3:// read (default 60)' },
  'max-index-bytes': { type: 'string', arg: ' BYTES', help: 'the largest TsFileMetadata or index region read (64M)' },
  'max-stdin-bytes': { type: 'string', arg: ' BYTES', help: 'the largest file - reads from a pipe (1G)' },
  help: { type: 'boolean', short: 'h', help: 'this help' },
};
const SOURCE_FLAGS = ['header', 'allow-full-download', 'timeout', 'max-index-bytes'];

// Each verb: its usage, what it does (one line), its flags (FLAGS' names), its exit codes, and
// two or three real command lines (tests/js/cli-help.test.mjs runs each one's tsfile-bloom
// command, its files and URLs made unreachable, to check that it parses).
const VERBS = {
  inspect: {
    usage: [`tsfile-bloom inspect FILE [--json] [--all] ${SOURCE_USAGE}`, `tsfile-bloom inspect TABLE.ldb [--json] [--all] ${SOURCE_USAGE}`],
    help: "a file's header, metadata, Bloom filter, writer-variant audit and series; a LevelDB table's filter block",
    flags: ['json', 'all', ...SOURCE_FLAGS, 'max-stdin-bytes'],
    exit: '0 the report is complete; 1 a format error, or the index could not be read to its end\n         (a partial report); 2 a usage or I/O error, or a limit',
    examples: [
      'tsfile-bloom inspect 1700000000000-1-0-0.tsfile',
      'tsfile-bloom inspect https://example.com/data/x.tsfile --json | jq .bloom_filter',
      'curl -s https://example.com/data/x.tsfile | tsfile-bloom inspect -',
    ],
  },
  probe: {
    usage: [`tsfile-bloom probe FILE PATH... [--variant V] [--charset NAME] [--hex] [--json | -q] ${SOURCE_USAGE}`, `tsfile-bloom probe TABLE.ldb KEY... [--hex] [--json | -q] ${SOURCE_USAGE}`],
    help: "tests series paths: 'absent' (sound), 'maybe' or 'unknown', each seed's bit, and what the index says (indexed, not in it, index unreadable)",
    flags: ['json', 'quiet', 'variant', 'charset', 'hex', ...SOURCE_FLAGS, 'max-stdin-bytes'],
    exit: "0 some PATH (KEY) may be in the file (maybe, unknown); 1 every PATH is 'absent'\n         (the file can be skipped); 2 a usage error; 3 a format error; 4 an I/O error or a limit",
    examples: [
      'tsfile-bloom probe x.tsfile root.sg.d1.s1 root.sg.d1.s2',
      'if tsfile-bloom probe -q x.tsfile root.sg.d1.s1; then echo "x.tsfile may hold it"; fi',
      'tsfile-bloom probe -q x.tsfile root.sg.d1.s1; [ $? -eq 1 ] || echo "read x.tsfile"',
      'tsfile-bloom probe x.tsfile root.工厂.d1.温度 --charset GBK --json',
    ],
  },
  verify: {
    usage: [`tsfile-bloom verify FILE [--json] ${SOURCE_USAGE}`],
    help: 'audits the filter against the index: fails when an indexed series tests absent, no writer variant reproduces the bits, or the hash is not evaluated',
    flags: ['json', ...SOURCE_FLAGS, 'max-stdin-bytes'],
    exit: '0 the filter is consistent with the index; 1 it is not or cannot be shown to be, or a\n         format error; 2 a usage or I/O error, or a limit',
    examples: ['tsfile-bloom verify x.tsfile', 'tsfile-bloom verify https://example.com/data/x.tsfile -H "Authorization: Bearer $TOKEN" --json'],
  },
  build: {
    usage: ['tsfile-bloom build [PATHS|-] [--capacity N] [--fpp X] [--variant V] [--charset NAME] [--out FILE | --hex] [--json]'],
    help: 'builds the filter a Java writer would store for the series paths in PATHS (one a line; stdin when - or absent), to --out, --hex or stdout',
    flags: ['capacity', 'fpp', 'variant', 'charset', 'out', 'hex', 'json'],
    exit: '0 the filter was written; 2 a usage or I/O error',
    examples: ['tsfile-bloom build paths.txt --out filter.bin', 'tsfile-bloom build paths.txt --capacity 153 --fpp 0.05 --hex', 'tsfile-bloom build paths.txt --json'],
  },
  scan: {
    usage: [`tsfile-bloom scan TARGET... [--path P]... [--paths-file F] [--jobs N] [--audit] [--manifest FILE]\n                    [--json | --csv | --list maybe|absent [--print0]] ${SOURCE_USAGE}`],
    help: 'reads the filter of every TsFile in TARGETs (files, directories, http(s):// URLs, s3://bucket/key, s3://bucket/prefix/, @LIST files, @- for stdin) and tests each path',
    flags: ['path', 'paths-file', 'jobs', 'audit', 'json', 'csv', 'list', 'print0', 'manifest', ...SOURCE_FLAGS],
    exit: '0 every file was read; 1 some file had an error, or --list escaped a location; 2 a usage\n         error, or nothing could be read',
    examples: [
      'tsfile-bloom scan /data/iotdb/data --path root.sg.d1.s1',
      'tsfile-bloom scan s3://bucket/iotdb/ https://example.com/data/x.tsfile --paths-file paths.txt --json',
      "find /data -name '*.tsfile' | tsfile-bloom scan @- --path root.sg.d1.s1 --list maybe --print0 | xargs -0 ls -l",
    ],
  },
  version: {
    usage: ['tsfile-bloom version | -v | --version'],
    help: "prints the package's version (as -v, -V and --version)",
    flags: [],
    examples: ['tsfile-bloom --version', 'tsfile-bloom version'],
  },
  completions: {
    usage: [`tsfile-bloom completions ${SHELLS.join('|')}`],
    help: 'prints the completion script of a shell (zsh loads bash\'s through bashcompinit)',
    flags: [],
    exit: '0 the script was printed; 2 a usage error',
    examples: ['tsfile-bloom completions bash > ~/.local/share/bash-completion/completions/tsfile-bloom', 'tsfile-bloom completions zsh > ~/.tsfile-bloom.zsh   # then in ~/.zshrc, after compinit: source ~/.tsfile-bloom.zsh'],
  },
  help: {
    usage: ['tsfile-bloom help [VERB]'],
    help: 'the usage, or the help of one verb (as VERB --help)',
    flags: [],
    examples: ['tsfile-bloom help probe', 'tsfile-bloom probe --help'],
  },
};

const USAGE = `usage:
${Object.entries(VERBS)
  .filter(([v]) => v !== 'help' && v !== 'version')
  .flatMap(([, s]) => s.usage)
  .map((u) => `  ${u}`)
  .join('\n')}
  tsfile-bloom VERB --help | tsfile-bloom help VERB
  tsfile-bloom --help | -v | --version | version

VERB --help says a verb's flags, exit codes and examples; every flag and rule: ${DOCS}
exit codes: 0 ok, 1 a format error (or a failed verify), 2 a usage or I/O error; probe's by
verdict: 0 maybe, 1 absent, 2 usage, 3 a format error, 4 an I/O error`;

/** A verb's flags (and --help), by name: the parser's, the help's and the completions' table. */
const flagsOf = (verb) => Object.fromEntries([...VERBS[verb].flags, 'help'].map((n) => [n, FLAGS[n]]));

/** `VERB --help`: its usage, what it does, a line a flag, its exit codes and examples. */
function verbHelp(verb) {
  const s = VERBS[verb];
  const flags = Object.entries(flagsOf(verb)).map(([n, f]) => `  ${`${f.short ? `-${f.short}, ` : ''}--${n}${f.arg ?? ''}`.padEnd(30)} ${f.help}`);
  const notes = [];
  if (s.flags.includes('max-stdin-bytes')) notes.push('FILE: a path, an http(s) URL, or - (the file on stdin)');
  if (s.flags.includes('max-index-bytes')) notes.push('BYTES: an integer, or with a suffix K, M or G (KiB, MiB, GiB): 64M');
  notes.push(`every flag and rule: ${DOCS}`);
  const parts = [`usage:\n${s.usage.map((u) => `  ${u}`).join('\n')}`, `${verb}: ${s.help}`, `flags:\n${flags.join('\n')}`, notes.join('\n')];
  if (s.exit) parts.push(`exit     ${s.exit}`);
  parts.push(`examples:\n${s.examples.map((e) => `  ${e}`).join('\n')}`);
  return parts.join('\n\n');
}

// Errors from the reader carry a `kind`; all but these are about the file's format.
const NOT_FORMAT_KINDS = new Set(['io', 'invalid_argument', 'changed', 'cancelled', 'too_large', 'manifest', 'internal']);

/**
 * probe's exit status by verdict, as grep's by match: 1 when every PATH (KEY) is 'absent', the
 * one verdict that lets a file be skipped; 0 when any may be in the file ('maybe', 'unknown').
 */
const probeStatus = (results) => (results.every((r) => r.verdict === 'absent') ? 1 : 0);

/**
 * The exit status of a failed command (not a usage error): 1 a format error, 2 any other; probe,
 * whose 1 is its verdict "absent", says 2 for a bad argument (a usage error), 3 a format error,
 * 4 any other (I/O, a limit), so that no error reads as a verdict.
 */
function errorStatus(verb, kind) {
  const format = typeof kind === 'string' && !NOT_FORMAT_KINDS.has(kind);
  if (verb !== 'probe') return format ? 1 : 2;
  return format ? 3 : kind === 'invalid_argument' ? 2 : 4;
}

/** A usage error: one line on stderr, exit 2. `verb` names the verb it is about (or null). */
class UsageError extends Error {
  constructor(verb, message) {
    super(message);
    this.verb = verb;
  }
}

// ---- Arguments. ---------------------------------------------------------------------------

/** Optimal string alignment distance (edits, with a transposition as one). */
function distance(a, b) {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The candidate `word` most likely meant (a typo or an unambiguous start of it), or null. */
function nearest(word, candidates) {
  const w = word.toLowerCase();
  let best = null;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const dist = distance(w, c.toLowerCase());
    if (dist < bestDistance) [best, bestDistance] = [c, dist];
  }
  if (bestDistance <= Math.min(2, Math.max(1, Math.floor(w.length / 3)))) return best;
  const starts = w.length >= 3 ? candidates.filter((c) => c.toLowerCase().startsWith(w)) : [];
  return starts.length === 1 ? starts[0] : null;
}

const didYouMean = (s) => (s ? `; did you mean ${s}?` : '');

/** `unknown WHAT "word"`, and the candidate most likely meant, or else every candidate. */
function unknown(what, word, candidates) {
  const guess = nearest(word, candidates);
  return `unknown ${what} ${JSON.stringify(word)}${guess ? didYouMean(guess) : ` (${what}s: ${candidates.join(', ')})`}`;
}

/**
 * Parses one verb's arguments (after the verb): `{values, positionals}`; throws UsageError.
 * node:util's parseArgs splits them (`--name=V`, `-HV`, `--`); the checks and their sentences are
 * the CLI's, so it runs lenient: an 'optional' flag is a boolean to it (its value only after '=').
 */
function parseVerbArgs(verb, argv) {
  const spec = flagsOf(verb);
  const options = Object.fromEntries(Object.entries(spec).map(([n, o]) => [n, { type: o.type === 'string' ? 'string' : 'boolean', ...(o.short && { short: o.short }) }]));
  const { tokens } = parseArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true });
  const values = {};
  const positionals = [];
  const usage = (message) => new UsageError(verb, message);
  for (const { kind, name, rawName, value, inlineValue } of tokens) {
    if (kind === 'positional') positionals.push(value);
    if (kind !== 'option') continue;
    const shown = rawName.startsWith('--') ? rawName : rawName.slice(0, 2);
    const opt = spec[name];
    if (!opt && !rawName.startsWith('--')) throw usage(`unknown flag ${shown}`);
    if (!opt) {
      const others = Object.keys(VERBS).filter((v) => v !== verb && VERBS[v].flags.includes(name));
      const list = others.length > 1 ? `${others.slice(0, -1).join(', ')} and ${others.at(-1)} take` : `${others[0]} takes`;
      if (others.length) throw usage(`${shown} is not a flag of ${verb} (${list} it)`);
      const guess = nearest(name, Object.keys(spec));
      throw usage(`unknown flag ${shown}${didYouMean(guess && `--${guess}`)}`);
    }
    if (opt.type === 'boolean' && value !== undefined) throw usage(`${shown} takes no value`);
    if (opt.type === 'string' && (value === undefined || (!inlineValue && value.startsWith('--') && value.length > 2))) throw usage(`${shown} needs a value`);
    if (opt.type !== 'string') values[name] = value ?? true;
    else if (opt.multiple) (values[name] ??= []).push(value);
    else values[name] = value;
  }
  return { values, positionals };
}

/** A flag's number, or a usage error saying it must be `what` (`ok(n)` tells). */
function numberOption(verb, value, name, what, ok = Number.isFinite) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !ok(n)) throw new UsageError(verb, `--${name} must be ${what}, not ${JSON.stringify(value)}`);
  return n;
}

const UNITS = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** A byte count: an integer, or one with a suffix K, M or G (binary: KiB, MiB, GiB; `64M`, `64MiB`). */
function byteCount(value) {
  const m = /^\s*(\d+)\s*(?:([kmg])(?:i?b)?)?\s*$/i.exec(value);
  if (!m) return null;
  const n = Number(m[1]) * UNITS[(m[2] ?? '').toLowerCase()];
  return Number.isSafeInteger(n) ? n : null;
}

function bytesOption(verb, value, name, { positive = false } = {}) {
  if (value === undefined) return undefined;
  const n = typeof value === 'string' ? byteCount(value) : null;
  if (n === null || (positive && n === 0)) throw new UsageError(verb, `--${name} must be ${positive ? 'a positive' : 'a'} number of bytes (an integer, or with K, M or G: 64M), not ${JSON.stringify(String(value))}`);
  return n;
}

/** The options every verb that reads a TsFile takes, checked: openTsFile's, and the stdin limit. */
function sourceOptions(verb, values) {
  const out = {};
  if (values.header) {
    const headers = [];
    for (const h of values.header) {
      // A header's value may be a secret (a token): errors name the header, never quote it.
      const colon = h.indexOf(':');
      const name = colon < 0 ? '' : h.slice(0, colon).trim();
      if (!name) throw new UsageError(verb, "--header must be 'NAME: VALUE' (the argument given has no NAME before a ':'; it is not shown, as it may hold a secret)");
      const value = h.slice(colon + 1).trim();
      if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) throw new UsageError(verb, "--header's NAME is not a valid HTTP header name (a name is letters, digits and !#$%&'*+-.^_`|~; it is not shown)");
      try {
        new Headers([[name, value]]);
      } catch {
        throw new UsageError(verb, `--header ${name}: its value holds a line break or a control character (the value is not shown)`);
      }
      headers.push([name, value]);
    }
    out.headers = headers;
  }
  const full = values['allow-full-download'];
  if (full !== undefined) {
    out.allowFullDownload = true;
    if (full !== true) out.maxFullDownloadBytes = bytesOption(verb, full, 'allow-full-download', { positive: true });
  }
  // Seconds, up to what a timer holds (2^31 - 1 ms).
  const s = numberOption(verb, values.timeout, 'timeout', 'a positive number of seconds', (n) => n > 0 && n * 1000 <= 2 ** 31 - 1);
  if (s !== undefined) {
    out.timeoutMs = s * 1000;
    out.deadlineMs = s * 1000;
  }
  if (values['max-index-bytes'] !== undefined) out.maxIndexBytes = bytesOption(verb, values['max-index-bytes'], 'max-index-bytes');
  out.maxStdinBytes = bytesOption(verb, values['max-stdin-bytes'], 'max-stdin-bytes', { positive: true }) ?? DEFAULT_MAX_STDIN_BYTES;
  return out;
}

function checkVariant(verb, variant) {
  if (variant !== undefined && !VARIANTS.includes(variant)) throw new UsageError(verb, `unknown --variant ${JSON.stringify(variant)}${didYouMean(nearest(variant, VARIANTS))} (${VARIANTS.join(' or ')})`);
}

function checkCharset(verb, charset) {
  if (charset !== undefined && !canonicalCharsetName(charset)) {
    throw new UsageError(verb, `unknown --charset ${JSON.stringify(charset)}${didYouMean(nearest(charset, CHARSETS))} (charsets: ${CHARSETS.join(', ')})`);
  }
}

// ---- Output: a reader that goes away. -----------------------------------------------------

// One mechanism for every verb: when stdout's reader goes away (EPIPE: `| head -c 10`), `gone`
// aborts (URL reads and a scan stop), every later write is dropped, and the command ends with
// exit 0 and nothing on stderr, however it was going to end.
const gone = new AbortController();
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE' || gone.signal.aborted) {
    if (!gone.signal.aborted) gone.abort();
    process.exitCode = 0;
    return;
  }
  process.stderr.write(`error: io: cannot write to stdout: ${e.message}\n`);
  process.exit(errorStatus(running, 'io'));
});
// stderr going away (`2>&1 | head`) is not worth a crash either.
process.stderr.on('error', () => {});

// The one wait for a full pipe, shared by every write made while it lasts (a listener per
// write would pile up: `inspect --json` writes a large report in 1 MiB chunks without waiting).
let draining = null;

/** Writes to stdout; when the pipe is full, a promise that resolves once it drains or its reader is gone. */
function write(chunk) {
  if (gone.signal.aborted || !chunk?.length) return undefined;
  if (process.stdout.write(chunk) && !draining) return undefined;
  draining ??= new Promise((resolve) => {
    const done = () => {
      process.stdout.off('drain', done);
      process.stdout.off('close', done);
      gone.signal.removeEventListener('abort', done);
      draining = null;
      resolve();
    };
    process.stdout.once('drain', done);
    process.stdout.once('close', done);
    gone.signal.addEventListener('abort', done, { once: true });
  });
  return draining;
}

/** Writes a line to stdout (a promise, as `write`'s). */
const print = async (text) => write(`${text}\n`);

/**
 * Writes text output's lines, one element each: what the CLI does not control in them (names,
 * series paths, a server's or a file's words) escaped for a terminal (js/escape.js).
 */
const printLines = (lines) => print(lines.map(terminalText).join('\n'));

// ---- Inputs: a path, a URL or stdin. ------------------------------------------------------

const readStdin = promisify(readFd);

/** Stdin as a byte source: a regular file (`< file`) read in place, a pipe read into memory (joined once, at its end). */
async function stdinSource(verb, limit) {
  let st;
  try {
    st = fstatSync(0);
  } catch (e) {
    throw ioError(e, 'stdin');
  }
  if (st.isFile()) {
    const readAt = (...args) => readStdin(0, ...args).catch((e) => Promise.reject(ioError(e, 'stdin')));
    return { ...handleSource({ read: readAt }, st.size, 'stdin'), name: null, close: async () => {} };
  }
  if (process.stdin.isTTY) throw new UsageError(verb, '- reads the file from stdin, but stdin is a terminal: pipe or redirect the file');
  const chunks = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    total += chunk.length;
    if (total > limit) {
      process.stdin.destroy();
      throw new TsFileBloomError('too_large', `the file on stdin is larger than --max-stdin-bytes (${count(limit, 'byte')}): raise the limit, or give the file's path or URL`);
    }
    chunks.push(chunk);
  }
  return toSource(Buffer.concat(chunks, total));
}

/**
 * Opens FILE (a path, an http(s) URL or `-`) once and tells a LevelDB table (by its footer)
 * from a TsFile: `{table}` or `{tsfile}`, either named `name` in reports.
 */
async function openInput(verb, name, opts) {
  // A URL's options (an s3:// object's too: its timeout, headers and the stop when stdout goes); a path takes none.
  const source = name === '-' ? await stdinSource(verb, opts.maxStdinBytes) : await nodeSource(name, { ...opts, signal: gone.signal });
  let leveldb;
  try {
    // For a URL the last 8 bytes lie in the tail window already read; for a path, one read.
    leveldb = source.size >= 8 && isLevelDbFooter(await source.read(source.size - 8, 8));
  } catch (e) {
    await source.close?.();
    throw e;
  }
  const given = () => source;
  // A LevelDB table is read whole (one Range request for a URL), up to openLevelDbTable's limit.
  if (leveldb) return { table: await openLevelDbTable(name, { source: given }) };
  return { tsfile: await openTsFile(name, { source: given, maxIndexBytes: opts.maxIndexBytes }) };
}

// ---- inspect, probe, verify: each makes its --json report, its text and its exit status. ----

async function inspectReport(path, file) {
  // A partial report: what the index gave before its error (the report's error says why).
  const indexError = inFlagWords(await file.loadIndex());
  const listing = { series: await file.series({ partial: true }), timeColumns: await file.timeColumns({ partial: true }) };
  const audit = await file.audit({ partial: true });
  return makeInspectReport({ path, file, indexError, listing, audit });
}

function inspectLines(r, all) {
  const b = r.bloom_filter;
  const out = [];
  out.push(`${r.file.path}  ${count(r.file.size, 'byte')}  TsFile v${r.version}`);
  out.push(`metadata   offset ${r.metadata.offset}, size ${r.metadata.size}, meta_offset ${r.metadata.meta_offset}`);
  if (b.present) {
    out.push(
      `bloom      ${count(b.bit_count, 'bit')}, k=${b.hash_function_count}, ${count(b.byte_length, 'byte')} stored at ${b.bits_offset} (${b.encoding}${b.hash === 'cheap' ? ', cheap hash' : ''})`,
      `           ${count(b.set_bits, 'bit')} set (${pct(b.fill_ratio)}), est. n ≈ ${b.estimated_items.toFixed(1)}` +
        (b.indexed_items != null ? `, indexed n = ${b.indexed_items}` : '') +
        `, FPP ${pct(b.fpp_formula)} by formula, ${pct(b.fpp_from_fill)} by fill`,
    );
    if (b.health) out.push(healthText(b.health, b.fill_ratio, b.fpp_from_fill));
    if (b.cpp_sized_for != null) out.push(`           sized for ${count(b.cpp_sized_for, 'measurement name')} (the C++ writer's count), holds ${count(b.indexed_items, 'key')}${b.filled_past_design ? ': filled past its design' : ''}`);
  } else {
    out.push(`bloom      none (${b.encoding})${b.bit_count != null ? `; the empty filter stores bit_count ${b.bit_count}, k=${b.hash_function_count}` : ''}`);
  }
  if (r.audit) out.push(`audit      ${r.audit.summary}`);
  if (r.audit?.variant) out.push(`hashed     ${hashedWords(r.audit)}`);
  if (r.tables.some((x) => x != null)) out.push(`tables     ${r.tables.join(', ')}`);
  for (const p of r.properties) out.push(`property   ${p.key} = ${p.value ?? (p.value_hex ? `0x${p.value_hex}` : 'null')}`);
  for (const w of r.warnings) out.push(`warning    ${w.message}`);
  out.push(`series     ${r.series.length} (+${count(r.time_columns.length, 'time column')})`);
  const shown = all ? r.series : r.series.slice(0, 20);
  for (const s of shown) out.push(`  ${s.path}  ${s.data_type}  ${listedWord(s.maybe_present, b.present)}`);
  if (shown.length < r.series.length) out.push(`  … ${r.series.length - shown.length} more (--all)`);
  if (r.error) out.push(`error      ${errorWords(r.error)}`);
  return out;
}

function probeLines(results, indexError) {
  const lines = [];
  for (const r of results) {
    // The decision (what the index says of the path taken in: only what was read).
    const unread = indexError && r.indexed == null ? ' (index unreadable)' : '';
    lines.push(`${verdictWord(r.verdict).padEnd(7)} ${r.path}  ${decisionWords(r)}${unread}`, `        ${r.reason}`);
    for (const p of r.probes) lines.push(`        seed ${String(p.seed).padStart(2)}  hash32 ${String(p.hash32).padStart(11)}  bit ${String(p.bit).padStart(8)}  ${p.set ? 'set' : 'clear'}`);
  }
  if (indexError) lines.push(`index      unreadable: ${errorWords(errorReport(indexError))}`);
  return lines;
}

function verifyLines(r, absent, failed) {
  const lines = [r.audit ? r.audit.summary : 'the index could not be read'];
  if (absent.length) lines.push(`${absent.length} indexed series ${absent.length === 1 ? 'tests' : 'test'} ${verdictWord('absent')}:`, ...absent.slice(0, 20).map((p) => `  ${p}`));
  if (r.error) lines.push(`error ${errorWords(r.error)}`);
  lines.push(failed ? 'verify: FAILED' : 'verify: ok');
  return lines;
}

function levelDbLines(name, r, all) {
  const lines = [`${name}  ${count(r.file.size, 'byte')}  LevelDB table (${r.key_format} keys)`, `policy     ${r.filter_policy ?? 'none: the table has no filter block'}`];
  if (r.filter_block) lines.push(`filters    ${r.filters.length} at ${r.filter_block.offset} (${count(r.filter_block.size, 'byte')}), one per ${count(2 ** r.base_lg, 'byte')} of data offsets`);
  for (const f of all ? r.filters : r.filters.slice(0, 20)) {
    lines.push(`  #${f.index}  ${f.length ? `${count(f.bit_count, 'bit')}, k=${f.k}, ${f.set_bits} set` : 'empty'}  blocks at ${f.data_block_offsets.join(', ') || '-'}`);
  }
  return lines;
}

function levelDbProbeLines(results) {
  return results.flatMap(({ key, probe: r }) => [
    `${verdictWord(r.verdict).padEnd(7)} ${key}  (${r.reason}; data block ${r.blockIndex ?? '-'}, filter ${r.filterIndex ?? '-'})`,
    `        ${r.probes.map((p) => `${p.bit}:${p.set ? 'set' : 'clear'}`).join('  ')}`,
  ]);
}

// Each verb on a TsFile and on a LevelDB table: `{status, report, lines()}`.
const TSFILE = {
  async inspect(name, file, _paths, values) {
    const r = await inspectReport(name, file);
    return { status: r.ok ? 0 : 1, report: r, lines: () => inspectLines(r, values.all) };
  },
  async probe(name, file, paths, values) {
    const indexError = inFlagWords(await file.loadIndex());
    const results = paths.map((p) => file.probe(p, { variant: values.variant, charset: values.charset }));
    const probed = report({ ok: true, file: name, results, indexError: errorReport(indexError) });
    return { status: probeStatus(results), report: probed, lines: () => probeLines(results, indexError) };
  },
  async verify(name, file) {
    const r = await inspectReport(name, file);
    const absent = r.series.filter((s) => s.maybe_present === false).map((s) => s.path);
    // The core decides whether the filter agrees with the index (AuditStatus::consistent).
    const failed = !r.ok || r.audit?.consistent === false;
    const verified = report({ ok: !failed, error: r.error, audit: r.audit, indexedAbsent: absent });
    return { status: failed ? 1 : 0, report: verified, lines: () => verifyLines(r, absent, failed) };
  },
};
const LEVELDB = {
  inspect(name, t, _keys, values) {
    const r = levelDbReport(t, name);
    return { status: 0, report: r, lines: () => levelDbLines(name, r, values.all) };
  },
  probe(name, t, keys) {
    const results = keys.map((k) => ({ key: typeof k === 'string' ? k : Buffer.from(k).toString('hex'), probe: t.probe(k) }));
    const probed = report({ ok: true, file: name, format: 'leveldb', results: results.map(({ key, probe }) => ({ key, ...probe })) });
    return { status: probeStatus(results.map((r) => r.probe)), report: probed, lines: () => levelDbProbeLines(results) };
  },
};
LEVELDB.verify = LEVELDB.inspect;

async function fileCommand(verb, values, positionals) {
  const [name, ...paths] = positionals;
  if (!name) throw new UsageError(verb, `missing FILE (a path, an http(s) URL, or - for the file on stdin)`);
  if (verb === 'verify' && paths.length) throw new UsageError(verb, `give one FILE, not ${positionals.length} arguments`);
  if (verb === 'inspect' && paths.length) throw new UsageError(verb, `give one FILE, not ${positionals.length} arguments (probe tests paths)`);
  if (verb === 'probe' && !paths.length) throw new UsageError(verb, 'give at least one PATH (or KEY, for a LevelDB table) after FILE');
  if (values.quiet && values.json) throw new UsageError(verb, '--quiet and --json exclude each other');
  checkVariant(verb, values.variant);
  checkCharset(verb, values.charset);
  if (values.hex && paths.some((p) => !/^([0-9a-fA-F]{2})*$/.test(p))) throw new UsageError(verb, '--hex keys must be pairs of hex digits');
  const opts = sourceOptions(verb, values);
  const input = await openInput(verb, name, opts);
  // Reports name a URL as redactUrl shows it: a presigned URL's signature and token stay out.
  const shown = isHttpUrl(name) ? redactUrl(name) : name;
  const keys = values.hex ? paths.map((p) => Uint8Array.from(Buffer.from(p, 'hex'))) : paths;
  try {
    const out = await (input.table ? LEVELDB : TSFILE)[verb](shown, input.table ?? input.tsfile, keys, values);
    if (values.quiet) return out.status;
    // A TsFile's inspect report is written a batch of series at a time (js/report.js).
    if (values.json && out.report.series) await writeInspectJson(out.report, write).then(() => write('\n'));
    else await (values.json ? print(JSON.stringify(out.report, null, 2)) : printLines(out.lines()));
    return out.status;
  } finally {
    await (input.table ?? input.tsfile).close();
  }
}

// ---- build: paths in, a filter out, memory as the filter's. --------------------------------

/**
 * Where build reads PATHS from, and how many there are (the filter is sized by the count unless
 * --capacity gives it): a regular file is read twice, counted and then added; a stream (stdin, a
 * pipe) is counted while it is copied to a spool file in the temporary directory, which is then
 * read. Either way only a line at a time is held, never the input. `{input, count, done}`.
 */
async function pathsInput(file, counted) {
  const input = file ?? '-';
  if (input === '-' && process.stdin.isTTY) throw new UsageError('build', 'give a file of paths, or pipe them on stdin');
  if (!counted) return { input, count: null, done: async () => {} };
  // A path stat cannot answer for is read as a stream, whose read then fails with the typed io error.
  const st = input === '-' ? null : await stat(input).catch(() => null);
  if (st?.isFile()) return { input, count: await eachTextBatch(input, 'PATHS'), done: async () => {} };
  const dir = await mkdtemp(join(tmpdir(), 'tsfile-bloom-build-'));
  const spool = join(dir, 'paths');
  const done = () => rm(dir, { recursive: true, force: true });
  try {
    const out = createWriteStream(spool);
    let failed = null;
    out.on('error', (e) => (failed ??= e));
    const count = await eachTextBatch(input, 'PATHS', null, (chunk) => {
      if (failed) throw ioError(failed, spool);
      // The next chunk is read once the spool has taken this one (the pipe waits meanwhile).
      if (!out.write(chunk)) return once(out, 'drain').catch((e) => Promise.reject(ioError(e, spool)));
    });
    await new Promise((resolve) => out.end(resolve));
    if (failed) throw ioError(failed, spool);
    return { input: spool, count, done };
  } catch (e) {
    await done();
    throw e;
  }
}

async function buildCommand(values, positionals) {
  const [file, ...extra] = positionals;
  if (extra.length) throw new UsageError('build', 'give one file of paths (or - for stdin)');
  if (values.out !== undefined && values.hex) throw new UsageError('build', '--out and --hex exclude each other');
  checkVariant('build', values.variant);
  checkCharset('build', values.charset);
  const capacityOption = numberOption('build', values.capacity, 'capacity', 'a non-negative integer', (n) => Number.isInteger(n) && n >= 0);
  const fpp = numberOption('build', values.fpp, 'fpp', 'a number') ?? ERROR_RATE.default;
  if (values.out === undefined && !values.hex && !values.json && process.stdout.isTTY) {
    throw new UsageError('build', 'refusing to write binary to a terminal; use --out FILE, --hex or a redirect');
  }
  const source = await pathsInput(file, capacityOption === undefined);
  try {
    const capacity = capacityOption ?? source.count;
    const filter = BloomFilter.withCapacity(capacity, fpp);
    try {
      const added = await eachTextBatch(source.input, 'PATHS', (paths) => filter.addMany(paths, { variant: values.variant, charset: values.charset }));
      if (source.count !== null && added !== source.count) {
        throw new TsFileBloomError('changed', `the file of paths changed while it was read (${count(source.count, 'path')}, then ${added}): ${file}`, { path: file });
      }
      return await writeFilter(values, filter, { paths: added, capacity, fpp });
    } finally {
      filter.free();
    }
  } finally {
    await source.done();
  }
}

/** Writes build's filter where the flags say, or its statistics (--json). */
async function writeFilter(values, filter, { paths, capacity, fpp }) {
  const bytes = filter.encode();
  if (values.out !== undefined) {
    await writeFile(values.out, bytes).catch((e) => Promise.reject(ioError(e, values.out)));
  }
  const st = filter.stats(paths);
  if (values.json) {
    await print(JSON.stringify(buildReport({
      paths, capacity, fpp, variant: values.variant ?? DEFAULT_HASH.variant, charset: values.charset ?? DEFAULT_HASH.charset,
      stats: st, encodedLength: bytes.length, out: values.out ?? null,
    }), null, 2));
  } else if (values.hex) {
    await print(Buffer.from(bytes).toString('hex'));
  } else if (values.out === undefined) {
    await write(bytes);
  } else {
    console.error(`${terminalText(values.out)}: ${count(bytes.length, 'byte')}, ${count(st.bitCount, 'bit')}, k=${st.hashFunctionCount}, ${count(paths, 'path')}`);
  }
  return 0;
}

// ---- completions: a shell's script from the tables above. ---------------------------------

/** The verbs as the completion scripts need them (js/completions.js): the parser's own tables. */
function completionTables() {
  const operands = { help: Object.keys(VERBS), completions: SHELLS, version: [] };
  return Object.keys(VERBS).map((name) => ({ name, flags: flagsOf(name), operands: operands[name] ?? 'files' }));
}

async function completionsCommand(positionals) {
  const [shell, ...more] = positionals;
  if (shell === undefined || more.length) throw new UsageError('completions', `give one shell (${SHELLS.join(', ')})`);
  if (!SHELLS.includes(shell)) throw new UsageError('completions', unknown('shell', shell, SHELLS));
  await write(completionScript(shell, completionTables()));
  return 0;
}

// ---- Dispatch. ----------------------------------------------------------------------------

let wantsJson = false;
/** The verb being run, for the exit status of its errors (errorStatus). */
let running = null;

async function main(argv) {
  // The verb comes first; flags before it are taken as the verb's (`--json inspect F`).
  const at = argv[0]?.startsWith('-') ? argv.findIndex((a) => Object.hasOwn(VERBS, a)) : argv.length ? 0 : -1;
  if (at < 0) {
    if (argv.includes('--help') || argv.includes('-h')) return print(USAGE).then(() => 0);
    if (['--version', '-V', '-v'].some((f) => argv.includes(f))) return print(VERSION).then(() => 0);
    if (!argv.length) {
      console.error(USAGE);
      return 2;
    }
    throw new UsageError(null, `give a verb first (${Object.keys(VERBS).join(', ')}), not ${argv[0]}`);
  }
  const verb = argv[at];
  if (!Object.hasOwn(VERBS, verb)) {
    throw new UsageError(null, unknown('verb', verb, Object.keys(VERBS)));
  }
  const args = [...argv.slice(0, at), ...argv.slice(at + 1)];
  const dashes = args.indexOf('--');
  const flags = dashes < 0 ? args : args.slice(0, dashes);
  if (flags.includes('--help') || flags.includes('-h')) return print(verbHelp(verb)).then(() => 0);
  const { values, positionals } = parseVerbArgs(verb, args);
  wantsJson = values.json === true && verb !== 'scan';
  running = verb;
  if (verb === 'help') {
    const [topic, ...more] = positionals;
    if (more.length) throw new UsageError(verb, 'give one VERB');
    if (topic === undefined) return print(USAGE).then(() => 0);
    if (!Object.hasOwn(VERBS, topic)) throw new UsageError(verb, unknown('verb', topic, Object.keys(VERBS)));
    return print(verbHelp(topic)).then(() => 0);
  }
  if (verb === 'version') {
    if (positionals.length) throw new UsageError(verb, 'takes no arguments');
    return print(VERSION).then(() => 0);
  }
  if (verb === 'completions') return completionsCommand(positionals);
  if (verb === 'build') return buildCommand(values, positionals);
  if (verb === 'scan') {
    if (values.json && values.csv) throw new UsageError(verb, '--json and --csv exclude each other');
    if (values.list !== undefined && !FLAGS.list.values.includes(values.list)) throw new UsageError(verb, `--list takes ${FLAGS.list.values.join(' or ')}, not ${JSON.stringify(values.list)}`);
    if (values.list !== undefined && (values.json || values.csv)) throw new UsageError(verb, '--list prints file locations only: it excludes --json and --csv');
    if (values.list !== undefined && !values.path?.length && !values['paths-file']) throw new UsageError(verb, '--list needs the series paths to decide by (--path or --paths-file)');
    if (values.print0 && values.list === undefined) throw new UsageError(verb, '--print0 goes with --list');
    if (values.jobs !== undefined && !/^[1-9][0-9]*$/.test(values.jobs)) throw new UsageError(verb, `--jobs must be a positive integer, not ${JSON.stringify(values.jobs)}`);
    if (!positionals.length) throw new UsageError(verb, 'give at least one TARGET (a file, a directory, a URL or @LIST)');
    if (positionals.includes('-')) throw new UsageError(verb, '- is not a scan target (scan reads files by path or URL): give @- for a list of targets on stdin, or inspect - / probe - for one file');
    if (positionals.filter((t) => t === '@-').length + (values['paths-file'] === '-' ? 1 : 0) > 1) throw new UsageError(verb, 'only one of @- and --paths-file - can read stdin');
    const { maxStdinBytes, ...source } = sourceOptions(verb, values);
    return scanCommand({ values, targets: positionals, source }, { write, stderr: process.stderr, signal: gone.signal, terminal: process.stdout.isTTY === true });
  }
  return fileCommand(verb, values, positionals);
}

/** A report's error in words: `kind at byte N: sentence` when a byte is concerned, else the sentence. */
const located = (r) => r.kind !== 'io' && r.offset != null;
const errorWords = (r) => (located(r) ? `${r.kind} at byte ${r.offset}: ${r.message}` : r.message);

/** The CLI's sentence for an error: `kind at byte N: …` for a located one, else `kind: …`. */
function errorLine(e) {
  if (!e.kind) return `error: ${terminalText(e.message)}`;
  const r = errorReport(e);
  return `error: ${terminalText(located(r) ? errorWords(r) : `${r.kind}: ${r.message}`)}`;
}

// A command whose work never settled (a read that neither answered nor failed) would leave the
// event loop empty and Node would exit 0 having printed nothing: say so and fail instead.
let settled = false;
process.once('beforeExit', () => {
  if (settled || gone.signal.aborted) return;
  console.error('error: internal: the command stopped before it finished (an operation never settled); its output is incomplete');
  process.exitCode = errorStatus(running, 'internal');
});

main(process.argv.slice(2)).then(
  (code) => {
    settled = true;
    process.exitCode = gone.signal.aborted ? 0 : code;
  },
  async (e) => {
    settled = true;
    // The reader went away: whatever stopped the command (a cancelled read, a scan) is not news.
    if (gone.signal.aborted) {
      process.exitCode = 0;
      return;
    }
    if (e instanceof UsageError) {
      console.error(`tsfile-bloom${e.verb ? ` ${e.verb}` : ''}: ${terminalText(e.message)}${/did you mean/.test(e.message) ? '' : `; see tsfile-bloom ${e.verb ? `${e.verb} ` : ''}--help`}`);
      process.exitCode = 2;
      return;
    }
    inFlagWords(e);
    process.exitCode = errorStatus(running, e.kind);
    if (wantsJson) await print(JSON.stringify(report({ ok: false, error: errorReport(e) }), null, 2));
    else console.error(errorLine(e));
    if (gone.signal.aborted) process.exitCode = 0;
  },
);

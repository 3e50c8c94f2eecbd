#!/usr/bin/env node
// tsfile-bloom CLI: inspect / probe / verify a TsFile's Bloom filter; build one from paths.
// Exit codes: 0 ok, 1 format error (or a failed verify), 2 usage or I/O error.
import { parseArgs } from 'node:util';
import { open, readFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { openTsFile, openLevelDbTable, isLevelDbFooter, BloomFilter, VARIANTS, CHARSETS } from './node.js';
import { ioError } from './node-source.js';
import { scanCommand, SCAN_USAGE, SCAN_HELP } from './cli-scan.js';
import {
  inspectReport as makeInspectReport, writeInspectJson, verifyReport, probeReport, levelDbReport, levelDbProbeReport, buildReport, failureReport,
} from './report.js';

const VERSION = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

const USAGE = `usage:
  tsfile-bloom inspect FILE [--json] [--all]
  tsfile-bloom probe FILE PATH... [--variant java|zero-extended] [--charset NAME] [--json]
  tsfile-bloom verify FILE [--json]
  tsfile-bloom build [PATHS|-] [--capacity N] [--fpp X] [--variant V] [--charset NAME]
                     [--out FILE | --hex] [--json]
${SCAN_USAGE}
  tsfile-bloom inspect TABLE.ldb [--json]            (LevelDB tables are detected by their footer)
  tsfile-bloom probe TABLE.ldb KEY... [--hex] [--json]
  tsfile-bloom --help | --version

inspect  header, TsFileMetadata, the Bloom filter and its statistics, the writer-variant
         audit and every indexed series (--all lists more than the first 20)
probe    tests series paths: 'absent' (sound), 'maybe', or 'unknown' (bits say absent but the
         file's hash variant is not trustworthy), with each seed's hash and bit
verify   audits the filter against the index; exits 1 when an indexed series tests absent
         or no writer variant reproduces the stored bits
build    builds the filter a Java writer would store for the series paths in PATHS (one per
         line; stdin when PATHS is - or absent; blank lines are skipped), sized like Java's
         getEmptyBloomFilter(--fpp, default 0.05, clamped to [0.01, 0.1]; --capacity, default
         the number of paths), and writes its serialized bytes (byte-identical to Java's) to
         --out FILE, as hex with --hex, or to stdout when it is not a terminal; --json prints
         its statistics instead
${SCAN_HELP}
--hex    probe keys given as hex bytes (LevelDB keys may be binary); build: print hex
charsets: ${CHARSETS.join(', ')}`;

// Errors from the reader carry a `kind`; all but these are about the file's format.
const NOT_FORMAT_KINDS = new Set(['io', 'invalid_argument', 'changed', 'cancelled', 'too_large']);

class UsageError extends Error {}

const pct = (x) => (x == null ? '-' : `${(x * 100).toFixed(x < 0.001 ? 4 : 2)}%`);

async function inspectReport(path) {
  const file = await openTsFile(path);
  try {
    const indexError = await file.loadIndex();
    const listing = await file.listing();
    const audit = await file.audit();
    return makeInspectReport({ path, file, indexError, listing, audit });
  } finally {
    await file.close();
  }
}

// The report as inspectReport's JSON.stringify would print it, written from the listing's
// columns without an object per series (js/report.js).
async function inspectJson(path) {
  const file = await openTsFile(path);
  try {
    const indexError = await file.loadIndex();
    const audit = await file.audit();
    await writeInspectJson({ path, file, indexError, audit }, (s) => process.stdout.write(s));
    process.stdout.write('\n');
    return indexError ? 1 : 0;
  } finally {
    await file.close();
  }
}

function printInspect(r, all) {
  const b = r.bloom_filter;
  const out = [];
  out.push(`${r.file.path}  ${r.file.size} bytes  TsFile v${r.version}`);
  out.push(`metadata   offset ${r.metadata.offset}, size ${r.metadata.size}, meta_offset ${r.metadata.meta_offset}`);
  if (b.present) {
    out.push(
      `bloom      ${b.bit_count} bits, k=${b.hash_function_count}, ${b.byte_length} bytes stored at ${b.bits_offset} (${b.encoding})`,
      `           ${b.set_bits} bits set (${pct(b.fill_ratio)}), est. n ≈ ${b.estimated_items.toFixed(1)}` +
        (b.indexed_items != null ? `, indexed n = ${b.indexed_items}` : '') +
        `, FPP ${pct(b.fpp_formula)} by formula, ${pct(b.fpp_from_fill)} by fill`,
    );
  } else {
    out.push(`bloom      none (${b.encoding})${b.bit_count != null ? `; the empty filter stores bit_count ${b.bit_count}, k=${b.hash_function_count}` : ''}`);
  }
  if (r.audit) out.push(`audit      ${r.audit.summary}`);
  if (r.audit?.variant) out.push(`hashed     ${r.audit.variant} tail, path bytes in ${r.audit.charsets.join(' / ') || 'UTF-8'}`);
  if (r.tables.some((x) => x != null)) out.push(`tables     ${r.tables.join(', ')}`);
  for (const p of r.properties) out.push(`property   ${p.key} = ${p.value ?? (p.value_hex ? `0x${p.value_hex}` : 'null')}`);
  for (const w of r.warnings) out.push(`warning    ${w.message}`);
  out.push(`series     ${r.series.length} (+${r.time_columns.length} time columns)`);
  const shown = all ? r.series : r.series.slice(0, 20);
  for (const s of shown) {
    const status = s.maybe_present == null ? (b.present ? 'unknown' : '') : s.maybe_present ? 'maybe' : 'ABSENT';
    out.push(`  ${s.path}  ${s.data_type}  ${status}`);
  }
  if (shown.length < r.series.length) out.push(`  … ${r.series.length - shown.length} more (--all)`);
  if (r.error) out.push(`error      ${r.error.message}`); // the report's sentence: `kind at byte N: …`
  console.log(out.join('\n'));
}

async function readPaths(file) {
  let text;
  if (file === undefined || file === '-') {
    if (process.stdin.isTTY) throw new UsageError('build: give a file of paths, or pipe them on stdin');
    const chunks = [];
    for await (const c of process.stdin) chunks.push(c);
    text = Buffer.concat(chunks).toString('utf8');
  } else {
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      throw ioError(e, file);
    }
  }
  return text.split(/\r?\n/).filter((line) => line !== '');
}

function numberOption(value, name, { integer = false } = {}) {
  const n = Number(value);
  if (value === undefined) return undefined;
  if (value.trim() === '' || !Number.isFinite(n) || (integer && !(Number.isInteger(n) && n >= 0))) {
    throw new UsageError(`--${name} must be ${integer ? 'a non-negative integer' : 'a number'}, not ${JSON.stringify(value)}`);
  }
  return n;
}

async function buildCommand(file, extra, values) {
  if (extra.length) throw new UsageError('build: give one file of paths (or - for stdin)');
  if (values.out !== undefined && values.hex) throw new UsageError('build: --out and --hex exclude each other');
  const capacityOption = numberOption(values.capacity, 'capacity', { integer: true });
  const fpp = numberOption(values.fpp, 'fpp') ?? 0.05;
  const paths = await readPaths(file);
  const capacity = capacityOption ?? paths.length;
  const filter = BloomFilter.withCapacity(capacity, fpp);
  try {
    filter.addMany(paths, { variant: values.variant, charset: values.charset });
    const bytes = filter.encode();
    if (values.out !== undefined) {
      try {
        await writeFile(values.out, bytes);
      } catch (e) {
        throw ioError(e, values.out);
      }
    }
    const st = filter.stats(paths.length);
    if (values.json) {
      console.log(JSON.stringify(buildReport({
        paths: paths.length, capacity, fpp, variant: values.variant ?? 'java', charset: values.charset ?? 'UTF-8',
        stats: st, encodedLength: bytes.length, out: values.out ?? null,
      }), null, 2));
    } else if (values.hex) {
      console.log(Buffer.from(bytes).toString('hex'));
    } else if (values.out === undefined) {
      if (process.stdout.isTTY) throw new UsageError('build: refusing to write binary to a terminal; use --out FILE, --hex or a redirect');
      process.stdout.write(bytes);
    } else {
      console.error(`${values.out}: ${bytes.length} bytes, ${st.bitCount} bits, k=${st.hashFunctionCount}, ${paths.length} paths`);
    }
    return 0;
  } finally {
    filter.free();
  }
}

async function isLevelDbFile(path) {
  let handle;
  try {
    handle = await open(path, 'r');
    if ((await handle.stat()).isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
  } catch (e) {
    await handle?.close();
    throw ioError(e, path);
  }
  try {
    const { size } = await handle.stat();
    if (size < 8) return false;
    const last8 = new Uint8Array(8);
    await handle.read(last8, 0, 8, size - 8);
    return isLevelDbFooter(last8);
  } finally {
    await handle.close();
  }
}

async function leveldbCommand(command, file, keys, values) {
  const t = await openLevelDbTable(file);
  try {
    if (command === 'inspect' || command === 'verify') {
      const r = levelDbReport(t, file);
      if (values.json) console.log(JSON.stringify(r, null, 2));
      else {
        console.log(`${file}  ${r.file.size} bytes  LevelDB table (${r.key_format} keys)`);
        console.log(`policy     ${r.filter_policy ?? 'none: the table has no filter block'}`);
        if (r.filter_block) console.log(`filters    ${r.filters.length} at ${r.filter_block.offset} (${r.filter_block.size} bytes), one per ${2 ** r.base_lg} bytes of data offsets`);
        for (const f of (values.all ? r.filters : r.filters.slice(0, 20))) {
          console.log(`  #${f.index}  ${f.length ? `${f.bit_count} bits, k=${f.k}, ${f.set_bits} set` : 'empty'}  blocks at ${f.data_block_offsets.join(', ') || '-'}`);
        }
      }
      return 0;
    }
    if (command === 'probe') {
      if (!keys.length) throw new UsageError('probe: give at least one KEY');
      const results = keys.map((k) => ({ key: typeof k === 'string' ? k : Buffer.from(k).toString('hex'), probe: t.probe(k) }));
      if (values.json) console.log(JSON.stringify(levelDbProbeReport(file, results), null, 2));
      else {
        for (const { key, probe: r } of results) {
          console.log(`${r.verdict.toUpperCase().padEnd(7)} ${key}  (${r.reason}; data block ${r.blockIndex ?? '-'}, filter ${r.filterIndex ?? '-'})`);
          console.log(`        ${r.probes.map((p) => `${p.bit}:${p.set ? 'set' : 'clear'}`).join('  ')}`);
        }
      }
      return 0;
    }
    throw new UsageError(`unknown command ${command}`);
  } finally {
    t.close();
  }
}

async function main(argv) {
  if (argv[0] === 'scan') return scanCommand(argv.slice(1));
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      all: { type: 'boolean', default: false },
      variant: { type: 'string' },
      hex: { type: 'boolean', default: false },
      charset: { type: 'string' },
      capacity: { type: 'string' },
      fpp: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
      version: { type: 'boolean', short: 'V', default: false },
    },
  });
  const [command, file, ...paths] = positionals;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.version) {
    console.log(VERSION);
    return 0;
  }
  if (!command) {
    console.error(USAGE);
    return 2;
  }
  if (values.variant && !VARIANTS.includes(values.variant)) throw new UsageError(`unknown --variant ${values.variant}`);
  if (command === 'build') return buildCommand(file, paths, values);
  if (!file) throw new UsageError(`${command}: missing FILE`);
  if (values.hex && paths.some((p) => !/^([0-9a-fA-F]{2})*$/.test(p))) throw new UsageError('--hex keys must be pairs of hex digits');
  const keys = values.hex ? paths.map((p) => Uint8Array.from(Buffer.from(p, 'hex'))) : paths;

  if (await isLevelDbFile(file)) return leveldbCommand(command, file, keys, values);

  if (command === 'inspect') {
    if (values.json) return inspectJson(file);
    const r = await inspectReport(file);
    printInspect(r, values.all);
    return r.ok ? 0 : 1;
  }
  if (command === 'probe') {
    if (!paths.length) throw new UsageError('probe: give at least one PATH');
    const t = await openTsFile(file);
    try {
      await t.loadIndex();
      const results = keys.map((p) => t.probe(p, { variant: values.variant, charset: values.charset }));
      if (values.json) console.log(JSON.stringify(probeReport(file, results), null, 2));
      else {
        for (const r of results) {
          console.log(`${r.verdict.toUpperCase().padEnd(7)} ${r.path}${r.indexed ? '  (indexed)' : r.indexed === false ? '  (not in the index)' : ''}`);
          console.log(`        ${r.reason}`);
          for (const p of r.probes) console.log(`        seed ${String(p.seed).padStart(2)}  hash32 ${String(p.hash32).padStart(11)}  bit ${String(p.bit).padStart(8)}  ${p.set ? 'set' : 'clear'}`);
        }
      }
      return 0;
    } finally {
      await t.close();
    }
  }
  if (command === 'verify') {
    const r = await inspectReport(file);
    const absent = r.series.filter((s) => s.maybe_present === false).map((s) => s.path);
    const failed = !r.ok || (r.audit && r.audit.status === 'not_reproduced') || absent.length > 0;
    if (values.json) {
      console.log(JSON.stringify(verifyReport({ ok: !failed, error: r.error, audit: r.audit, indexedAbsent: absent }), null, 2));
    } else {
      console.log(r.audit ? r.audit.summary : 'the index could not be read');
      if (absent.length) console.log(`${absent.length} indexed series test ABSENT:\n  ${absent.slice(0, 20).join('\n  ')}`);
      if (r.error) console.log(`error ${r.error.message}`);
      console.log(failed ? 'verify: FAILED' : 'verify: ok');
    }
    return failed ? 1 : 0;
  }
  throw new UsageError(`unknown command ${command}`);
}

// A command whose work never settled (a read that neither answered nor failed) would leave the
// event loop empty and Node would exit 0 having printed nothing: say so and fail instead.
let settled = false;
process.once('beforeExit', () => {
  if (settled) return;
  console.error('error: internal: the command stopped before it finished (an operation never settled); its output is incomplete');
  process.exitCode = 2;
});

main(process.argv.slice(2)).then(
  (code) => {
    settled = true;
    process.exitCode = code;
  },
  (e) => {
    settled = true;
    const json = process.argv.includes('--json');
    const usage = e instanceof UsageError || e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE';
    const format = typeof e.kind === 'string' && !NOT_FORMAT_KINDS.has(e.kind);
    if (json && !usage) console.log(JSON.stringify(failureReport(e), null, 2));
    else console.error(usage ? `${e.message}\n\n${USAGE}` : `error: ${e.kind && e.offset != null ? `${e.kind} at byte ${e.offset}: ` : e.kind ? `${e.kind}: ` : ''}${e.message}`);
    process.exitCode = format ? 1 : 2;
  },
);

// The CLI's `--json` reports, format_version 1 (README, "JSON reports"): the API's camelCase
// objects converted to the report's snake_case keys, here and nowhere else. The keys are
// those of tsfile-bloom 0.1.0, which scripts depend on: a key the API gives as null where
// 0.1.0 left it out is left out again (`opt`).

import { bloomReport, opt } from './bloom-json.js';

export const FORMAT_VERSION = 1;

export { bloomReport };

/**
 * An error as the reports give it: the CLI's sentence for format errors (`kind at byte N: …`);
 * an I/O error's is plain, and a bad argument has no byte offset (null, whatever it carries).
 */
export function errorReport(e) {
  if (!e) return null;
  const kind = e.kind ?? 'io';
  const offset = kind === 'invalid_argument' ? null : e.offset ?? null;
  const located = kind !== 'io' && typeof offset === 'number';
  return { kind, message: located ? `${kind} at byte ${offset}: ${e.message}` : e.message, offset };
}

export function auditReport(a) {
  if (!a) return null;
  const out = { status: a.status, summary: a.summary };
  opt(out, 'variant', a.variant);
  opt(out, 'charset', a.charset);
  out.charsets = a.charsets;
  out.charsets_unavailable = a.charsetsUnavailable;
  opt(out, 'writer', a.writer);
  out.series_count = a.seriesCount;
  out.time_column_count = a.timeColumnCount;
  out.non_ascii_tail_paths = a.nonAsciiTailPaths;
  out.hypotheses = a.hypotheses.map((h) => ({
    variant: h.variant,
    time_columns: h.timeColumns,
    trailing_null_tags: h.trailingNullsKept ? 'kept' : 'dropped',
    charset: h.charset,
    writer: h.writer,
    reproduces: h.reproduces,
    differing_bits: h.differingBits,
    indexed_absent: h.indexedAbsent,
  }));
  return out;
}

export function seriesReport(s) {
  const out = { path: s.path };
  opt(out, 'table', s.table);
  out.device = s.device;
  out.measurement = s.measurement;
  out.data_type = s.dataType;
  out.offset = s.offset;
  return opt(out, 'maybe_present', s.maybePresent);
}

const propertyReport = (p) => opt(opt(opt({}, 'key', p.key), 'value', p.value), 'value_hex', p.valueHex);

const tableSchemaReport = (t) =>
  Object.assign(opt({}, 'table', t.table), {
    columns: t.columns.map((c) =>
      Object.assign(opt({}, 'name', c.name), { data_type: c.dataType, category: c.category, encoding: c.encoding, compression: c.compression }),
    ),
  });

/** `tsfile-bloom inspect --json` of an opened TsFile whose index has been read. */
export function inspectReport({ path, file, indexError, listing, audit }) {
  const m = file.metadata;
  return {
    format_version: FORMAT_VERSION,
    ok: !indexError,
    error: errorReport(indexError),
    file: { path, size: file.size },
    version: file.version,
    metadata: { offset: m.offset, size: m.size, meta_offset: m.metaOffset },
    bloom_filter: bloomReport(file.bloomInfo()),
    audit: auditReport(audit),
    tables: file.tableNames,
    table_schemas: file.tableSchemas.map(tableSchemaReport),
    properties: file.properties.map(propertyReport),
    series: listing.series.map(seriesReport),
    time_columns: listing.timeColumns.map(seriesReport),
    warnings: file.warnings.map(errorReport),
  };
}

/**
 * `inspect --json`: exactly `JSON.stringify(report, null, 2)`, written through `write(text)` with
 * its series a few thousand at a time, each batch JSON.stringify's too. A million series make
 * ~300 MB of JSON: one string of it would stand at V8's limit (~512 Mi units) and double the
 * process's memory.
 */
export async function writeInspectJson(report, write) {
  const text = JSON.stringify({ ...report, series: [], time_columns: [] }, null, 2);
  // Top-level keys are the only ones indented by two spaces after a line break.
  const series = text.indexOf('\n  "series": []') + '\n  "series": '.length;
  const timeColumns = text.indexOf('\n  "time_columns": []') + '\n  "time_columns": '.length;
  await write(text.slice(0, series));
  await writeItems(report.series, write);
  await write(text.slice(series + 2, timeColumns));
  await writeItems(report.time_columns, write);
  await write(text.slice(timeColumns + 2));
}

const BATCH = 4096;

/** A top-level array's JSON, as JSON.stringify(…, null, 2) indents it at depth 1. */
async function writeItems(items, write) {
  if (!items.length) return write('[]');
  for (let i = 0; i < items.length; i += BATCH) {
    // The batch's own JSON one level deeper: strings hold no line break (JSON escapes it).
    const batch = JSON.stringify(items.slice(i, i + BATCH), null, 2);
    await write(`${i ? ',' : '['}\n  ${batch.slice(2, -2).replaceAll('\n', '\n  ')}`);
  }
  return write('\n  ]');
}

/** `tsfile-bloom verify --json`. */
export function verifyReport({ ok, error, audit, indexedAbsent }) {
  return { format_version: FORMAT_VERSION, ok, error, audit, indexed_absent: indexedAbsent };
}

/**
 * `tsfile-bloom probe FILE --json` (TsFile): the API's probe results as they are, and why the
 * index could not be read (`index_error`, null when it was; the results' `indexed` is then null).
 */
export function probeReport(file, results, indexError = null) {
  return { format_version: FORMAT_VERSION, ok: true, file, results, index_error: errorReport(indexError) };
}

/** `tsfile-bloom inspect TABLE.ldb --json`. */
export function levelDbReport(t, path) {
  const info = t.info;
  return {
    format_version: FORMAT_VERSION,
    ok: true,
    error: null,
    format: 'leveldb',
    file: { path, size: t.size },
    filter_policy: t.filterPolicy,
    policy_supported: info.policySupported,
    base_lg: info.baseLg,
    key_format: info.keyFormat,
    filter_block: info.filterBlock,
    data_blocks: t.dataBlocks().length,
    filters: t.filters.map((f) => ({
      index: f.index, offset: f.offset, length: f.length, k: f.k, bit_count: f.bitCount, set_bits: f.setBits,
      data_block_offsets: f.dataBlockOffsets,
    })),
  };
}

/** `tsfile-bloom probe TABLE.ldb --json`: 0.1.0 left out blockIndex and filterIndex when absent. */
export function levelDbProbeReport(file, results) {
  return {
    format_version: FORMAT_VERSION,
    ok: true,
    file,
    format: 'leveldb',
    results: results.map(({ key, probe: p }) => {
      const out = { key, verdict: p.verdict, reason: p.reason };
      opt(out, 'blockIndex', p.blockIndex);
      out.dataBlock = p.dataBlock;
      opt(out, 'filterIndex', p.filterIndex);
      out.hash = p.hash;
      out.probes = p.probes;
      return out;
    }),
  };
}

/** `tsfile-bloom build --json`. */
export function buildReport({ paths, capacity, fpp, variant, charset, stats, encodedLength, out }) {
  return {
    format_version: FORMAT_VERSION,
    ok: true,
    paths,
    capacity,
    fpp_requested: fpp,
    variant,
    charset,
    bit_count: stats.bitCount,
    hash_function_count: stats.hashFunctionCount,
    encoded_length: encodedLength,
    set_bits: stats.setBits,
    fill_ratio: stats.fillRatio,
    fpp_formula: stats.fppFormula,
    fpp_from_fill: stats.fppFromFill,
    out,
  };
}

/** A failure before any report could be made. */
export function failureReport(e) {
  return { format_version: FORMAT_VERSION, ok: false, error: errorReport(e) };
}

// The CLI's `--json` reports, format_version 2 (docs/json.md): the API's records as they are,
// their keys in snake_case by one rule (js/json.js), every value present (null when null).

import { FORMAT_VERSION, errorJson, jsonOf } from './json.js';

/**
 * A report: `format_version`, then `fields` (named as the API names them) in the JSON's keys —
 * each verb's as docs/json.md describes it.
 */
export const report = (fields) => ({ format_version: FORMAT_VERSION, ...jsonOf(fields) });

/**
 * An error as the reports give it: `{kind, message, offset, reason, status}`, the message the
 * plain sentence; an error without a kind is an I/O error, and a bad argument concerns no byte.
 */
export function errorReport(e) {
  if (!e) return null;
  const kind = e.kind ?? 'io';
  return errorJson({ ...e, kind, message: e.message, offset: kind === 'invalid_argument' ? null : e.offset });
}

/** `tsfile-bloom inspect --json` of an opened TsFile whose index has been read. */
export function inspectReport({ path, file, indexError, listing, audit }) {
  return report({
    ok: !indexError,
    error: errorReport(indexError),
    file: { path, size: file.size },
    version: file.version,
    metadata: file.metadata,
    bloomFilter: file.bloomInfo(),
    audit,
    tables: file.tableNames,
    tableSchemas: file.tableSchemas,
    properties: file.properties,
    series: listing.series,
    timeColumns: listing.timeColumns,
    warnings: file.warnings.map(errorReport),
  });
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

/** `tsfile-bloom inspect TABLE.ldb --json`. */
export function levelDbReport(t, path) {
  const { filterPolicy, policySupported, baseLg, keyFormat, filterBlock } = t.info;
  return report({ ok: true, error: null, format: 'leveldb', file: { path, size: t.size }, filterPolicy, policySupported, baseLg, keyFormat, filterBlock, dataBlocks: t.dataBlocks().length, filters: t.filters });
}

/** `tsfile-bloom build --json`. */
export function buildReport({ paths, capacity, fpp, variant, charset, stats, encodedLength, out }) {
  const { bitCount, hashFunctionCount, setBits, fillRatio, fppFormula, fppFromFill } = stats;
  return report({ ok: true, paths, capacity, fppRequested: fpp, variant, charset, bitCount, hashFunctionCount, encodedLength, setBits, fillRatio, fppFormula, fppFromFill, out });
}


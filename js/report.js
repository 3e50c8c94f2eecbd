// The CLI's `--json` reports, format_version 1 (README, "JSON reports"): the API's camelCase
// objects converted to the report's snake_case keys, here and nowhere else. The keys are
// those of tsfile-bloom 0.1.0, which scripts depend on: a key the API gives as null where
// 0.1.0 left it out is left out again (`opt`).

import { listingColumns } from './tsfile.js';
import { bloomReport, opt } from './bloom-json.js';
import { DATA_TYPES, isTimeColumn, LISTING_NULL, LISTING_STRIDE, listingBounds, recordMaybe, recordName, recordOffset, recordSegments, recordType } from './wire.js';

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
 * `inspect --json` of an opened TsFile, written in chunks of UTF-8 through `write(bytes)`:
 * exactly the bytes of `JSON.stringify(inspectReport(...), null, 2)`, but the series and time
 * columns go from the listing's columns (walked by js/wire.js) straight to bytes, with
 * no object or string per series (a 100,000-series report is ~30 MB; BENCHMARKS.md
 * "Boundary"). The rest of the report is JSON.stringify's.
 */
export async function writeInspectJson({ path, file, indexError, audit }, write) {
  const head = JSON.stringify(inspectReport({ path, file, indexError, audit, listing: { series: [], timeColumns: [] } }), null, 2);
  // Top-level keys are the only ones indented by two spaces after a line break.
  const series = head.indexOf('\n  "series": []') + '\n  "series": '.length;
  const timeColumns = head.indexOf('\n  "time_columns": []') + '\n  "time_columns": '.length;
  const [bytes, bounds, numbers] = await listingColumns(file);
  // Everything but the offset is one of a few byte strings made once: per device, per
  // measurement name, per (name, data type); a record is five copies (Uint8Array#set, even for
  // short pieces: a JS loop copies a byte in ~4 ns) and the offset's digits.
  const ends = [utf8.encode('\n    }'), utf8.encode(',\n      "maybe_present": false\n    }'), utf8.encode(',\n      "maybe_present": true\n    }')];
  const first = utf8.encode('[\n    {\n      "path": ');
  const next = utf8.encode(',\n    {\n      "path": ');
  const out = new JsonBytes(write); // the series, written as they come
  const times = new JsonBytes(null); // the time columns (few), kept for after them
  out.text(head.slice(0, series));
  // seriesReport's keys after `path`: `table` (left out when null) and `device`, the same
  // for every record of a device. A path is its device's prefix joined to its measurement
  // (js/wire.js), and so is its JSON: the names were decoded from UTF-8, so no lone
  // surrogate can pair up across the join.
  let prefix = null; // the device's prefix as a JSON string without its closing quote
  let nextPrefix = null; // a record's start (not the first), then the prefix
  let device = null; // from the path's closing quote to the measurement's opening one
  const names = []; // per measurement name: its JSON without the opening quote
  const encoded = []; // the same, encoded
  const typed = []; // per (name, data type): the name's JSON without its opening quote, to the offset
  const json = (b) => (bounds[b] === LISTING_NULL ? 'null' : JSON.stringify(utf8Text.decode(bytes.subarray(bounds[b], bounds[b + 1]))));
  const at = listingBounds(numbers);
  for (let i = 0, n = 0; n < numbers.length; i += 3, n += LISTING_STRIDE) {
    const d = at[i];
    if (d >= 0) {
      const p = json(d).slice(0, -1);
      prefix = utf8.encode(p);
      nextPrefix = utf8.encode(`,\n    {\n      "path": ${p}`);
      const segments = recordSegments(numbers, n);
      let lines = bounds[d + 2] === LISTING_NULL ? ',\n' : `,\n      "table": ${json(d + 2)},\n`;
      if (!segments) lines += '      "device": [],\n';
      else {
        lines += '      "device": [\n';
        for (let j = 0; j < segments; j++) lines += `        ${json(d + 4 + 2 * j)}${j + 1 < segments ? ',' : ''}\n`;
        lines += '      ],\n';
      }
      device = utf8.encode(`${lines}      "measurement": "`);
    }
    if (at[i + 1] >= 0) {
      const m = json(at[i + 1]).slice(1);
      names.push(m);
      encoded.push(utf8.encode(m));
    }
    const flags = numbers[n];
    const id = recordName(numbers, n);
    const type = recordType(numbers, n);
    const w = isTimeColumn(flags) ? times : out;
    if (at[i + 2] >= 0) {
      w.raw(w.count++ ? next : first);
      w.raw(utf8.encode(json(at[i + 2])));
    } else {
      if (w.count++) w.raw(nextPrefix);
      else {
        w.raw(first);
        w.raw(prefix);
      }
      w.raw(encoded[id]);
    }
    w.raw(device);
    w.raw((typed[id * DATA_TYPES.length + type] ??= utf8.encode(`${names[id]},\n      "data_type": "${DATA_TYPES[type]}",\n      "offset": `)));
    w.integer(recordOffset(numbers, n));
    const maybe = recordMaybe(flags);
    w.raw(ends[maybe === true ? 2 : maybe === false ? 1 : 0]);
  }
  out.ascii(out.count ? '\n  ]' : '[]');
  out.text(head.slice(series + 2, timeColumns));
  times.flush();
  for (const chunk of times.chunks) out.raw(chunk);
  out.ascii(times.count ? '\n  ]' : '[]');
  out.text(head.slice(timeColumns + 2));
  out.flush();
}

const utf8 = new TextEncoder();
// Names as the API decodes them (the bytes are valid UTF-8 already; a BOM stays).
const utf8Text = new TextDecoder('utf-8', { ignoreBOM: true });

/** JSON text as UTF-8 in chunks of 1 MiB, handed to `write` (or kept in `chunks`). */
class JsonBytes {
  constructor(write) {
    this.write = write;
    this.chunks = [];
    this.buf = new Uint8Array(1 << 20);
    this.pos = 0;
    this.count = 0; // records written
  }

  room(n) {
    if (this.pos + n > this.buf.length) {
      this.flush();
      if (n > this.buf.length) this.buf = new Uint8Array(n);
    }
  }

  flush() {
    if (!this.pos) return;
    const chunk = this.buf.subarray(0, this.pos);
    if (this.write) this.write(chunk);
    else this.chunks.push(chunk);
    // A new buffer: the one written may still be in use.
    this.buf = new Uint8Array(this.buf.length);
    this.pos = 0;
  }

  /** An ASCII string. */
  ascii(s) {
    this.room(s.length);
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < s.length; i++) buf[p++] = s.charCodeAt(i);
    this.pos = p;
  }

  /** Any string, UTF-8 encoded. */
  text(s) {
    this.room(3 * s.length);
    this.pos += utf8.encodeInto(s, this.buf.subarray(this.pos)).written;
  }

  raw(bytes) {
    this.room(bytes.length);
    // Uint8Array#set even for the short pieces of a record: a JS loop copies a byte in ~4 ns.
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /** A non-negative integer (a file offset) in decimal, as JSON.stringify writes it. */
  integer(x) {
    if (x >= 1e21) return this.ascii(String(x)); // (exponent notation; no file is that big)
    this.room(21);
    const buf = this.buf;
    let digits = 1;
    for (let t = x; t >= 10; t = Math.floor(t / 10)) digits++;
    let p = this.pos + digits;
    this.pos = p;
    do {
      const q = Math.floor(x / 10);
      buf[--p] = 48 + (x - 10 * q);
      x = q;
    } while (x > 0);
  }
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

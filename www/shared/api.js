// The package's result objects, read here and only here: every view takes the page's own
// shapes below, so a change in the API's key names is one edit in this file.
// Fields the page does not use are not copied.

/** The filter summary of `info.bloom` (worker op `open`/`synthetic`). */
export function bloomOf(info) {
  const b = info?.bloom ?? {};
  return {
    present: !!b.present,
    encoding: b.encoding ?? null,
    byteLength: b.byteLength ?? null,
    bitCount: b.bitCount ?? null,
    hashFunctionCount: b.hashFunctionCount ?? null,
    setBits: b.setBits ?? null,
    fillRatio: b.fillRatio ?? null,
    estimatedItems: b.estimatedItems,
    indexedItems: b.indexedItems ?? null,
    fppFormula: b.fppFormula ?? null,
    fppFromFill: b.fppFromFill ?? null,
  };
}

/** The listing (worker ops `series`, `timeColumns`): `{series, timeColumns}`; entries stay as given, read with entryOf. */
export function listingOf(series, timeColumns) {
  return { series: series ?? [], timeColumns: timeColumns ?? [] };
}

/** A listing entry: `{path, dataType, maybePresent}` (maybePresent false: the index lists it, the filter misses it). */
export const entryOf = (s) => ({ path: s.path, dataType: s.dataType ?? null, maybePresent: s.maybePresent });

/** True when the filter misses a listed entry. */
export const missedByFilter = (s) => s.maybePresent === false;

/** One writer hypothesis of an audit. */
export const hypothesisOf = (h) => ({
  variant: h.variant,
  timeColumns: h.timeColumns,
  trailingNullsKept: h.trailingNullsKept,
  charset: h.charset,
  writer: h.writer,
  reproduces: !!h.reproduces,
  differingBits: h.differingBits,
});

/** A table schema's column. */
export const columnOf = (c) => ({ name: c.name, dataType: c.dataType, category: c.category ?? null });

/** A file property: the value as text, or its bytes in hex when they are not UTF-8. */
export const propertyOf = (p) => ({ key: p.key, value: p.value ?? null, valueHex: p.valueHex ?? null });

/** An error's sentence (the package's messages carry no kind or offset prefix: the page shows those apart). */
export const errorMessage = (e) => String(e?.message ?? e);

/**
 * One record of a fleet scan (worker op `scan`, scanTsFiles' per-file result) → a table row:
 * `{file, ok, size, version, hasFilter, bitCount, k, fill, fpp, audit, verdicts, error}`, with
 * `verdicts[i]` the verdict for the i-th path asked (null when the file could not be read) and
 * `audit` `{status, variant}` or null when the scan did not audit.
 */
export function scanRowOf(r, paths) {
  const b = r.bloomFilter ?? null;
  const byPath = new Map((r.results ?? []).map((x) => [x.path, x.verdict]));
  return {
    file: r.file,
    ok: !!r.ok,
    size: r.size ?? null,
    version: r.version ?? null,
    hasFilter: b ? !!b.present : null,
    bitCount: b?.bitCount ?? null,
    k: b?.hashFunctionCount ?? null,
    fill: b?.fillRatio ?? null,
    fpp: b?.fppFromFill ?? null,
    audit: r.audit ? { status: r.audit.status, variant: r.audit.variant ?? null } : null,
    verdicts: paths.map((p) => byPath.get(p) ?? null),
    error: r.error ? { kind: r.error.kind, message: r.error.message, offset: r.error.offset ?? null } : null,
  };
}

/**
 * A fleet scan's summary (the `scan` op's result): `{files, ok, errors, errorsByKind, bytesRead,
 * bytesOnDisk, paths: [{path, skippable, mayHold, unreadable}]}`.
 */
export function scanSummaryOf(s) {
  return {
    files: s.files,
    ok: s.ok,
    errors: s.errors,
    errorsByKind: { ...(s.errorsByKind ?? {}) },
    bytesRead: s.bytesRead,
    bytesOnDisk: s.bytesOnDisk,
    paths: (s.paths ?? []).map((p) => ({ path: p.path, skippable: p.skippable, mayHold: p.mayHold, unreadable: p.unreadable, truth: pathTruthOf(p) })),
    truth: fleetTruthOf(s),
  };
}

/**
 * What the fleet's filters really do (js/scan-fp.js), known only when the scan audited:
 * `{audited, withFilter, filledPastDesign, withinDesign, filledPastDesignFiles}`.
 */
const fleetTruthOf = (s) => ({
  audited: s.audited ?? 0,
  withFilter: s.filters?.withFilter ?? 0,
  filledPastDesign: s.filters?.filledPastDesign ?? 0,
  withinDesign: s.filters?.withinDesign ?? 0,
  filledPastDesignFiles: [...(s.filters?.filledPastDesignFiles ?? [])],
});

/** Per path: `{indexListed, indexAbsent, falsePositives, filterAbsent, noAnswer, measuredFpRate, predictedFpRate, expectedFalsePositives, severalHashes, falsePositivesPastDesign, falsePositiveFiles}`. */
const pathTruthOf = (p) => ({
  indexListed: p.indexListed ?? 0,
  indexAbsent: p.indexAbsent ?? 0,
  falsePositives: p.falsePositives ?? 0,
  filterAbsent: p.filterAbsent ?? 0,
  noAnswer: p.noAnswer ?? 0,
  measuredFpRate: p.measuredFpRate ?? null,
  predictedFpRate: p.predictedFpRate ?? null,
  expectedFalsePositives: p.expectedFalsePositives ?? null,
  severalHashes: p.severalHashes ?? 0,
  falsePositivesPastDesign: p.falsePositivesPastDesign ?? 0,
  falsePositiveFiles: [...(p.falsePositiveFiles ?? [])],
});

/** A scan's progress message: `{records, done, found, bytesRead}` (records still raw: read with scanRowOf). */
export const scanProgressOf = (p) => ({ records: p.records ?? [], done: p.done ?? 0, found: p.found ?? 0, bytesRead: p.bytesRead ?? 0 });

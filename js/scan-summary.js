// A scan's summary: counted record by record (addToSummary), in parts that add up (workers
// and batches count theirs, the main thread adds them: mergeSummary), then finished into the
// API's summary (finishSummary). Its words and JSON keys: js/scan-output.js.
import { addTruth, finishPathTruth, keepName, newFleetTruth, newPathTruth } from './scan-fp.js';

/** Upper bounds of the FPP bands the health report counts files in. */
const FPP_BANDS = [0.0001, 0.001, 0.01, 0.05, 0.1, Infinity];

/** An empty summary for `paths` (mergeable: workers fill parts, the main thread adds them). */
export function newSummary(paths = []) {
  return {
    files: 0,
    ok: 0,
    errors: 0,
    errorsByKind: {},
    bytesRead: 0,
    reads: 0,
    bytesOnDisk: 0,
    versions: {},
    withFilter: 0,
    withoutFilter: 0,
    fillDeciles: new Array(10).fill(0),
    fppBands: new Array(FPP_BANDS.length).fill(0),
    audits: {},
    paths: paths.map((path) => ({ path, absent: 0, maybe: 0, unknown: 0, noVerdict: 0, ...newPathTruth() })),
    ...newFleetTruth(),
  };
}

export function addToSummary(s, r) {
  s.files++;
  if (r.ok) s.ok++;
  else {
    s.errors++;
    const kind = r.error?.kind ?? 'internal';
    s.errorsByKind[kind] = (s.errorsByKind[kind] ?? 0) + 1;
  }
  s.bytesRead += r.bytesRead;
  s.reads += r.reads;
  if (r.size != null) s.bytesOnDisk += r.size;
  if (r.version != null) s.versions[r.version] = (s.versions[r.version] ?? 0) + 1;
  const b = r.bloomFilter;
  if (b?.present) {
    s.withFilter++;
    if (b.fillRatio != null) s.fillDeciles[Math.min(9, Math.floor(b.fillRatio * 10))]++;
    if (b.fppFromFill != null) s.fppBands[FPP_BANDS.findIndex((x) => b.fppFromFill < x)]++;
  } else if (b) s.withoutFilter++;
  if (r.audit) {
    const key = r.audit.variant ? `${r.audit.status} (${r.audit.variant})` : r.audit.status;
    s.audits[key] = (s.audits[key] ?? 0) + 1;
  }
  addTruth(s, r);
  // Results come in the order of the paths asked for.
  s.paths.forEach((p, i) => {
    const v = r.results?.[i]?.verdict;
    if (v === 'absent' || v === 'maybe' || v === 'unknown') p[v]++;
    else p.noVerdict++;
  });
}

/**
 * Adds summary `part` (a worker's or a batch's) to `into`, field by field: counts add up, tables
 * and lists of counts add up key by key, and lists of file names merge (capped, js/scan-fp.js).
 */
export function mergeSummary(into, part) {
  for (const [k, v] of Object.entries(part)) {
    if (typeof v === 'number') into[k] = (into[k] ?? 0) + v;
    else if (Array.isArray(v) && typeof v[0] === 'string') v.forEach((name) => keepName(into[k], name));
    else if (v !== null && typeof v === 'object') mergeSummary((into[k] ??= {}), v);
  }
  return into;
}

/**
 * The final summary (the API's): per path, `skippable` files (the filter says absent),
 * `mayHold` (maybe or unknown), `unreadable` (no verdict: the file could not be opened), and
 * `skipRatio` = skippable / files — a file that could not be read cannot be skipped.
 */
export function finishSummary(s, elapsedMs) {
  return {
    files: s.files,
    ok: s.ok,
    errors: s.errors,
    errorsByKind: s.errorsByKind,
    bytesRead: s.bytesRead,
    bytesOnDisk: s.bytesOnDisk,
    reads: s.reads,
    readsPerFile: s.files ? s.reads / s.files : 0,
    versions: s.versions,
    // In the order of the --json summary's keys (js/scan-output.js names them from these).
    filters: {
      withFilter: s.withFilter,
      withoutFilter: s.withoutFilter,
      fillDeciles: s.fillDeciles,
      fppBands: FPP_BANDS.map((upTo, i) => ({ below: Number.isFinite(upTo) ? upTo : null, files: s.fppBands[i] })),
      filledPastDesign: s.filledPastDesign,
      withinDesign: s.withinDesign,
      filledPastDesignFiles: s.filledPastDesignFiles,
    },
    audits: s.audits,
    audited: s.audited,
    paths: s.paths.map((p) => ({
      path: p.path,
      skippable: p.absent,
      mayHold: p.maybe + p.unknown,
      maybe: p.maybe,
      unknown: p.unknown,
      unreadable: p.noVerdict,
      skipRatio: s.files ? p.absent / s.files : 0,
      ...finishPathTruth(p),
    })),
    elapsedMs,
    filesPerSecond: elapsedMs > 0 ? (s.files * 1000) / elapsedMs : null,
  };
}

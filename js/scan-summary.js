// A scan's summary: counted record by record (addToSummary), in parts that add up (workers
// and batches count theirs, the main thread adds them: mergeSummary), then finished into the
// API's summary (finishSummary). Its words and JSON keys: js/scan-output.js.
import { addTruth, finishFleetTruth, finishPathTruth, mergeTruth, newFleetTruth, newPathTruth } from './scan-fp.js';

/** What the summary needs from a bloomInfo() object. */
function bloomFacts(info) {
  return {
    present: info.present === true,
    fill: info.fillRatio ?? null,
    fpp: info.fppFromFill ?? null,
  };
}

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
    paths: paths.map((path) => ({ path, absent: 0, maybe: 0, unknown: 0, noVerdict: 0, truth: newPathTruth() })),
    truth: newFleetTruth(),
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
  if (r.bloomFilter) {
    const f = bloomFacts(r.bloomFilter);
    if (f.present) {
      s.withFilter++;
      if (f.fill != null) s.fillDeciles[Math.min(9, Math.floor(f.fill * 10))]++;
      if (f.fpp != null) s.fppBands[FPP_BANDS.findIndex((x) => f.fpp < x)]++;
    } else s.withoutFilter++;
  }
  if (r.audit) {
    const key = r.audit.variant ? `${r.audit.status} (${r.audit.variant})` : r.audit.status;
    s.audits[key] = (s.audits[key] ?? 0) + 1;
  }
  addTruth(s.truth, s.paths.map((p) => p.truth), r);
  // Results come in the order of the paths asked for.
  s.paths.forEach((p, i) => {
    const v = r.results?.[i]?.path === p.path ? r.results[i].verdict : r.results?.find((x) => x.path === p.path)?.verdict;
    if (v === 'absent' || v === 'maybe' || v === 'unknown') p[v]++;
    else p.noVerdict++;
  });
}

/** Adds summary `part` (a worker's or a batch's) to `into`. */
export function mergeSummary(into, part) {
  for (const k of ['files', 'ok', 'errors', 'bytesRead', 'reads', 'bytesOnDisk', 'withFilter', 'withoutFilter']) into[k] += part[k];
  for (const [k, n] of Object.entries(part.errorsByKind)) into.errorsByKind[k] = (into.errorsByKind[k] ?? 0) + n;
  for (const [k, n] of Object.entries(part.versions)) into.versions[k] = (into.versions[k] ?? 0) + n;
  for (const [k, n] of Object.entries(part.audits)) into.audits[k] = (into.audits[k] ?? 0) + n;
  part.fillDeciles.forEach((n, i) => (into.fillDeciles[i] += n));
  part.fppBands.forEach((n, i) => (into.fppBands[i] += n));
  part.paths.forEach((p, i) => {
    for (const k of ['absent', 'maybe', 'unknown', 'noVerdict']) into.paths[i][k] += p[k];
  });
  mergeTruth(into.truth, into.paths.map((p) => p.truth), part.truth, part.paths.map((p) => p.truth));
  return into;
}

/**
 * The final summary (the API's): per path, `skippable` files (the filter says absent),
 * `mayHold` (maybe or unknown), `unreadable` (no verdict: the file could not be opened), and
 * `skipRatio` = skippable / files — a file that could not be read cannot be skipped.
 */
export function finishSummary(s, elapsedMs) {
  const truth = finishFleetTruth(s.truth);
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
      filledPastDesign: truth.filledPastDesign,
      withinDesign: truth.withinDesign,
      filledPastDesignFiles: truth.filledPastDesignFiles,
    },
    audits: s.audits,
    audited: truth.audited,
    paths: s.paths.map((p) => ({
      path: p.path,
      skippable: p.absent,
      mayHold: p.maybe + p.unknown,
      maybe: p.maybe,
      unknown: p.unknown,
      unreadable: p.noVerdict,
      skipRatio: s.files ? p.absent / s.files : 0,
      ...finishPathTruth(p.truth),
    })),
    elapsedMs,
    filesPerSecond: elapsedMs > 0 ? (s.files * 1000) / elapsedMs : null,
  };
}

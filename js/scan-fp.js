// What the fleet's filters really do (issue 26, item 4): with `audit` the index of every file is
// read, so for each queried path the scan knows, per file, whether the index lists it. A file
// whose index does not list the path while its filter says `maybe` is a measured false
// positive; the fills predict how many there should be. A filter holding more keys than its m
// and k were sized for is "filled past its design" — the core's rule (src/design.rs), read here
// from bloomInfo().filledPastDesign. No I/O and no formula of the core restated here: the
// per-file facts are the core's (TsFile#probe's `indexed` and verdict, bloomInfo()'s
// fppFromFill = fill^k and filledPastDesign); this module only counts and words them.
//
// Without `audit` the index is not read: nothing here is known, and the words say so.

import { pct } from './format.js';

/** The most file names a summary keeps per list (the smallest by name; the counts are exact). */
export const LIST_CAP = 100;

/**
 * Per path, the verdict and what the index says, for a file whose index was read (scanOne with
 * `audit`): `{path, verdict, indexed, severalHashes}`. `indexed`: true (the index lists it),
 * false (it proves the path absent), null (the walk stopped before it could tell).
 * `severalHashes`: the verdict consulted more than one hash that puts the path on different bits
 * (an ambiguous audit and a path the candidate recipes hash apart), so fill^k understates its
 * chance of a false `maybe`.
 */
export function auditedResults(t, paths) {
  return paths.map((path) => {
    const p = t.probe(path);
    const bits = (ps) => ps.map((s) => s.bit).join(',');
    const used = bits(p.probes);
    return { path, verdict: p.verdict, decision: p.decision, indexed: p.indexed, severalHashes: p.others.some((o) => bits(o.probes) !== used) };
  });
}

/** The part of a summary this module fills, per path (mergeable). */
export const newPathTruth = () => ({ indexListed: 0, indexAbsent: 0, falsePositives: 0, filterAbsent: 0, noAnswer: 0, severalHashes: 0, fppHi: 0, fppLo: 0, falsePositivesPastDesign: 0, falsePositiveFiles: [] });

// The fills' prediction is summed exactly, as integers: each file's fill^k in units of 2^-52
// (rounded to one), split into its multiples of 2^-26 and the rest, two sums of integers below
// 2^26 each. Sums of integers are the same in any order, so the summary does not depend on how
// the files were split among workers or batches (a rescan from a manifest batches them
// otherwise); exact up to 2^27 files in one summary.
const LO = 2 ** 26;
const fppSum = (p) => p.fppHi / LO + p.fppLo / (LO * LO);

/** The part of a summary this module fills for the fleet (mergeable). */
export const newFleetTruth = () => ({ audited: 0, filledPastDesign: 0, withinDesign: 0, filledPastDesignFiles: [] });

/** Adds `name` to a capped, sorted list of file names. */
export function keepName(list, name) {
  if (list.length >= LIST_CAP && name >= list[list.length - 1]) return;
  let i = list.length;
  while (i > 0 && list[i - 1] > name) i--;
  list.splice(i, 0, name);
  if (list.length > LIST_CAP) list.pop();
}

/** Counts record `r` into summary `s`: its fleet part and its paths' (results in path order). */
export function addTruth(s, r) {
  const b = r.bloomFilter;
  if (r.audit) s.audited++;
  const past = b?.present ? b.filledPastDesign ?? null : null;
  if (past === true) {
    s.filledPastDesign++;
    keepName(s.filledPastDesignFiles, r.file);
  } else if (past === false) s.withinDesign++;
  s.paths.forEach((p, i) => {
    const res = r.results?.[i];
    if (!res || res.indexed == null) return;
    if (res.indexed) {
      p.indexListed++;
      return;
    }
    p.indexAbsent++;
    if (res.verdict === 'unknown') {
      p.noAnswer++;
      return;
    }
    // The filter answered (maybe or absent): this file counts in both rates.
    const units = Math.round((b?.fppFromFill ?? 0) * LO * LO);
    p.fppHi += Math.floor(units / LO);
    p.fppLo += units % LO;
    if (res.severalHashes) p.severalHashes++;
    if (res.verdict === 'maybe') {
      p.falsePositives++;
      if (past === true) p.falsePositivesPastDesign++;
      keepName(p.falsePositiveFiles, r.file);
    } else p.filterAbsent++;
  });
}

/**
 * The final per-path figures: `measuredFpRate` = falsePositives / (falsePositives +
 * filterAbsent), over the files where the index proves the path absent and the filter answered
 * (an `unknown` is no answer: no filter, or bits that cannot be trusted); `predictedFpRate` = the
 * mean of those files' fill^k, and `expectedFalsePositives` their sum (each such file says
 * `maybe` with its own probability fill^k, so the expected count is the sum and the expected rate
 * the mean). Both null when no such file was read (always, without audit).
 */
export function finishPathTruth(p) {
  const answered = p.falsePositives + p.filterAbsent;
  return {
    indexListed: p.indexListed,
    indexAbsent: p.indexAbsent,
    falsePositives: p.falsePositives,
    filterAbsent: p.filterAbsent,
    noAnswer: p.noAnswer,
    measuredFpRate: answered ? p.falsePositives / answered : null,
    predictedFpRate: answered ? fppSum(p) / answered : null,
    expectedFalsePositives: answered ? fppSum(p) : null,
    severalHashes: p.severalHashes,
    falsePositivesPastDesign: p.falsePositivesPastDesign,
    falsePositiveFiles: p.falsePositiveFiles,
  };
}

const names = (list, count, shown) => {
  const head = list.slice(0, shown);
  return `${head.join(', ')}${count > head.length ? `, … ${count - head.length} more` : ''}`;
};

const TEXT = { n: String, pct };

// The words on measured false positives and the filters' design, written once: the CLI's text
// summary and the page's folder view (www/views/fleet-fp.js, with its own number formats) say these.

/** The filters' design after an audited scan (`f`: the summary's `filters`), in `fmt`'s numbers. */
export function designWords(f, { n } = TEXT) {
  const unknown = f.withFilter - f.filledPastDesign - f.withinDesign;
  return `filled past design (more keys than any error rate sizes its m and k for): ${n(f.filledPastDesign)} of ${n(f.withFilter)} filters, ${n(f.withinDesign)} within${unknown > 0 ? `, ${n(unknown)} not known` : ''}`;
}

/**
 * One path's measured false positives over the audited files (`q`: its truth in the summary):
 * `{line, severalHashes, falsePositives}`, the last two null when there is nothing to say.
 */
export function pathTruthWords(q, { n, pct: rate } = TEXT) {
  const answered = q.falsePositives + q.filterAbsent;
  const line =
    `the index lists it in ${n(q.indexListed)} file${q.indexListed === 1 ? '' : 's'} and proves it absent in ${n(q.indexAbsent)}` +
    (answered
      ? `; there the filter said maybe in ${n(q.falsePositives)} (measured false-positive rate ${rate(q.measuredFpRate)} of ${n(answered)}), absent in ${n(q.filterAbsent)}; the fills predict ${rate(q.predictedFpRate)} (${q.expectedFalsePositives.toFixed(2)} false positives expected)`
      : '; no filter there answered') +
    (q.noAnswer ? `; ${n(q.noAnswer)} gave no answer (unknown)` : '');
  return {
    line,
    severalHashes: q.severalHashes ? `${n(q.severalHashes)} of them were probed under several candidate hashes: fill^k understates their chance of a maybe` : null,
    falsePositives: q.falsePositives ? `false positives${q.falsePositivesPastDesign ? ` (${n(q.falsePositivesPastDesign)} in filters filled past design)` : ''}` : null,
  };
}

/**
 * The text summary's lines on the filters' design (`s`: the final summary). Without audit the
 * keys were not counted, so nothing is said but that.
 */
export function fleetTruthText(s) {
  const f = s.filters;
  if (!s.audited) return ['filled past design: not known without --audit (the index counts the keys a filter holds)'];
  const out = [designWords(f)];
  if (f.filledPastDesign) out.push(`  ${names(f.filledPastDesignFiles, f.filledPastDesign, 10)}`);
  return out;
}

/** The text summary's lines for one path `p` (the final summary's path entry). */
export function pathTruthText(s, p) {
  if (!s.audited) return [`  ${p.path}: no measured false-positive rate without --audit (the index, which proves a path absent, is not read)`];
  const w = pathTruthWords(p);
  const out = [`  ${p.path}: ${w.line}`];
  if (w.severalHashes) out.push(`    ${w.severalHashes}`);
  if (w.falsePositives) out.push(`    ${w.falsePositives}: ${names(p.falsePositiveFiles, p.falsePositives, 10)}`);
  return out;
}

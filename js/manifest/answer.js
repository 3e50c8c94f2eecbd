// A record answered from a manifest's entry (js/manifest/check.js: its shape), on the main
// thread, for a file found to be the version recorded. A path asked before is answered with the
// verdict the core gave for that file; a path not asked before is asked of the core again from
// the kept bytes (tailScan: the fast scan's own call and rule) — unless the file was recorded
// with --audit, whose rule needs the audit: then it is read again, as is a file recorded without
// --audit when this scan has it. So an entry never says `absent` where a fresh scan would say `maybe`.
import { tailScan } from '../scan-file.js';
import { formatRecords } from '../scan-output.js';
import { linePieces } from './lines.js';
import { ENTRY, ID } from './check.js';

/**
 * `answer(i, file)` (entry `i`) over a manifest's tables (`pathSets`, `facts`, `results`) and its kept
 * `bytes`, for this scan's `paths`, `audit` and output `format`: `{record, results, line}`
 * (`results`: the entry's new results for `paths`, when made from the kept bytes; `line`: the
 * record's output line — its text, or its combination's NDJSON pieces (js/manifest/lines.js) —
 * null for 'records') or null (read the file).
 */
export function answerer({ pathSets, facts, results, ids, entries }, bytes, paths, audit, format) {
  // A record handed to the API's caller is its own; one only written out shares its entry's objects.
  const own = format === 'records' ? (x) => x && { ...x } : (x) => x;
  // Per path set: each of this scan's paths' place in it (-1: not asked then).
  const places = pathSets.map((set) => paths.map((p) => set.indexOf(p)));
  // What the files of one combination of fact, path set and results answer, made once: null
  // (read them), or their fact and results (null: from each file's kept bytes).
  const prepare = (f, set, r) => {
    const fact = facts[f];
    if (audit && !fact.audit) return null;
    if (places[set].includes(-1)) return fact.audit ? null : { fact, results: null };
    return { fact, results: places[set].map((at, i) => ({ path: paths[i], ...results[r][at] })) };
  };
  const made = new Map();
  return (i, file) => {
    const e = ENTRY * i; // (read in place: no list made per file)
    const [f, set, r, at, head, tail] = [entries[e], entries[e + 1], entries[e + 2], entries[e + 3], entries[e + 4], entries[e + 5]];
    const size = ids[ID * i];
    const key = (f * pathSets.length + set) * results.length + r;
    let a = made.get(key);
    if (a === undefined) made.set(key, (a = prepare(f, set, r)));
    if (!a) return null;
    let list = a.results;
    let fresh = null;
    if (!list) {
      fresh = head + tail ? fromBytes(file, size, bytes.subarray(at, at + head), bytes.subarray(at + head, at + head + tail), paths) : null;
      if (!fresh) return null;
      list = fresh.map((x, i) => ({ path: paths[i], ...x }));
    }
    const { version, bloomFilter, audit: audited } = a.fact;
    const record = { file, fileHex: null, ok: true, size, version, bloomFilter: own(bloomFilter), results: fresh || format !== 'records' ? list : list.map(own), audit: own(audited), bytesRead: 0, reads: 0, error: null };
    if (format === 'records') return { record, results: fresh, line: null };
    // Its line: what the files of its combination share is rendered once (js/manifest/lines.js).
    if (fresh || format !== 'ndjson') return { record, results: fresh, line: formatRecords([record], format, paths) };
    a.pieces ??= linePieces(record);
    return { record, results: null, line: a.pieces };
  };
}

/** The verdicts of `paths` from a file's kept head and tail (without their paths), or null. */
function fromBytes(file, size, head, tail, paths) {
  try {
    return tailScan(file, size, head, tail, paths, 0, 0)?.results.map(({ path, ...x }) => x) ?? null;
  } catch {
    return null;
  }
}

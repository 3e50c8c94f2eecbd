// A record answered from a manifest's entry (js/manifest/check.js: its shape): in a scan worker
// for a local file found unchanged, on the main thread for an object whose listing is unchanged.
// A path asked before is answered with the verdict the core gave for that file; a path not asked
// before is asked of the core again from the kept bytes (tailScan: the fast scan's own call and
// rule) — unless the file was recorded with --audit, whose rule needs the audit: then it is read
// again, as is a file recorded without --audit when this scan has it. So an entry never says
// `absent` where a fresh scan would say `maybe`.
import { tailScan } from '../scan-file.js';

/**
 * `answer(entry, file, size)` over a manifest's tables (`pathSets`, `facts`, `results`, and its
 * kept `bytes` when a path may need them) for this scan's `paths` and `audit`: `{record,
 * results}` (`results`: the entry's new results for `paths`, when made from the kept bytes) or
 * null (read the file).
 */
export function answerer({ pathSets, facts, results, bytes }, paths, audit) {
  // Per path set: each of this scan's paths' place in it (-1: not asked then).
  const places = pathSets.map((set) => paths.map((p) => set.indexOf(p)));
  return ([, , f, set, r, at, head, tail], file, size) => {
    const fact = facts[f];
    if (audit && !fact.audit) return null;
    let list = places[set].map((i) => results[r][i]);
    let fresh = null;
    if (list.includes(undefined)) {
      if (fact.audit || !bytes || head + tail === 0) return null;
      fresh = fromBytes(file, size, bytes.subarray(at, at + head), bytes.subarray(at + head, at + head + tail), paths);
      if (!fresh) return null;
      list = fresh;
    }
    const record = { file, fileHex: null, ok: true, size, version: fact.version, bloomFilter: { ...fact.bloomFilter }, results: list.map((x, i) => ({ path: paths[i], ...x })), audit: fact.audit && { ...fact.audit }, bytesRead: 0, reads: 0, error: null };
    return { record, results: fresh };
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

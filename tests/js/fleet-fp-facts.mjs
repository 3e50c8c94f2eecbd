// The manifests' facts behind the --audit summaries (tests/js/fleet-fp.test.mjs, tests/e2e/fleet-fp.test.mjs):
// per real fixture, which of PATHS its writer inserted and what its filter answers for each
// (computed by tests/fixtures/gen_tsfiles.py with the independent reference hash,
// tests/reference/java_bloom.py), its fill^k from the manifest's set bits, m and k (computed
// here), and whether it is the filter sized for fewer keys than it holds (tree_past_design).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FIXTURES, VALID_FIXTURES } from './fleet.mjs';

const MANIFEST = JSON.parse(readFileSync(`${FIXTURES}tsfile/manifest.json`, 'utf8'));
// The paths gen_tsfiles.py probes in every real fixture (FLEET_QUERIES): listed in some files,
// in none, and answered by an overfilled filter.
export const PATHS = ['root.sg1.d1.s1', 'root.fleet.d001.s1', 'root.fleet.d001.s2', 'root.fleet.d042.s9', 'root.sg1.d2.s_text', 'root.nowhere.d1.s1'];

function factsOf(entry) {
  const full = JSON.parse(readFileSync(`${FIXTURES}tsfile/${entry.name}.json`, 'utf8'));
  const b = entry.bloom;
  const per = new Map();
  for (const path of PATHS) {
    if (!b.present) {
      // No filter: the writer inserted nothing the filter could answer; the index lists no series here.
      assert.equal(entry.series_count, 0, `${entry.name}: a filterless real fixture has no series`);
      per.set(path, { listed: false, maybe: null });
      continue;
    }
    const p = full.probes.find((x) => x.path === path);
    assert.ok(p, `${entry.name}: the manifest probes ${path}`);
    per.set(path, { listed: p.inserted, maybe: p.zero_extended_maybe });
  }
  const fppFromFill = b.present ? (b.set_bits / b.bit_count) ** b.hash_function_count : null;
  return { per, fppFromFill, pastDesign: entry.filled_past_design != null };
}

/** The real C++ writer's fixtures of at most 64 KiB (VALID_FIXTURES entries), and their facts by name. */
const POOL_NAMES = MANIFEST.filter((e) => e.kind === 'real' && e.file_size <= 64 * 1024).map((e) => e.name);
export const POOL = VALID_FIXTURES.filter((f) => POOL_NAMES.includes(f.name));
export const FACTS = new Map(MANIFEST.filter((e) => POOL_NAMES.includes(e.name)).map((e) => [e.name, factsOf(e)]));

/**
 * The expected summary figures, added up from the facts file by file over buildFleet's entries;
 * `nameOf(entry)` names a file as the scanner reports it.
 */
export function expected(entries, nameOf = (e) => e.file) {
  const paths = PATHS.map((path) => ({ path, indexListed: 0, indexAbsent: 0, falsePositives: 0, filterAbsent: 0, noAnswer: 0, fppSum: 0, fpPast: 0, fpFiles: [] }));
  const fleetWant = { audited: 0, withFilter: 0, pastDesign: 0, withinDesign: 0, pastFiles: [] };
  for (const e of entries) {
    if (e.expect !== 'valid') continue;
    const f = FACTS.get(e.source.name);
    fleetWant.audited++;
    if (f.fppFromFill != null) {
      fleetWant.withFilter++;
      if (f.pastDesign) {
        fleetWant.pastDesign++;
        fleetWant.pastFiles.push(nameOf(e));
      } else fleetWant.withinDesign++;
    }
    for (const p of paths) {
      const { listed, maybe } = f.per.get(p.path);
      if (listed) {
        p.indexListed++;
        continue;
      }
      p.indexAbsent++;
      if (maybe == null) p.noAnswer++;
      else {
        p.fppSum += f.fppFromFill;
        if (maybe) {
          p.falsePositives++;
          if (f.pastDesign) p.fpPast++;
          p.fpFiles.push(nameOf(e));
        } else p.filterAbsent++;
      }
    }
  }
  fleetWant.pastFiles.sort();
  for (const p of paths) p.fpFiles.sort();
  return { paths, fleet: fleetWant };
}

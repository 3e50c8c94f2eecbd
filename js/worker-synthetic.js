// The Worker's synthetic filter: one sized as Java's getEmptyBloomFilter(errorRate, capacity)
// sizes it and filled here with generated paths, answering the ops a file answers (the same
// members as js/worker-file.js's). Built with the filters' default hash, it is probed under the
// file rule: the hash it was built with decides the verdict, a forced hash only shows its bits.
import { BloomFilter } from './web.js';
import { builtFilterInfo, builtFilterProbe } from './core.js';
import { DEFAULT_HASH } from './core-tables.js';
import { provenance, transferred } from './worker-provenance.js';

function syntheticPath(i) {
  return `root.synthetic.g${Math.floor(i / 100000)}.d${Math.floor(i / 1000) % 100}.s${i % 1000}`;
}

const pathsUpTo = (n, from = 0) => Array.from({ length: n - from }, (_, i) => syntheticPath(from + i));

/** Builds the filter, adding `items` paths `chunk` at a time; `step(done, total)` after each chunk. */
export async function buildSynthetic({ capacity = 1_000_000, items = capacity, errorRate }, chunk, step) {
  const filter = BloomFilter.withCapacity(capacity, errorRate);
  let added = 0;
  for (let start = 0; start < items; start += chunk) {
    added = Math.min(items, start + chunk);
    filter.addMany(pathsUpTo(added, start));
    await step(added, items);
  }
  const name = `synthetic filter (capacity ${capacity.toLocaleString('en')}, ${items.toLocaleString('en')} paths)`;
  return synthetic(filter, added, name);
}

function synthetic(filter, items, name) {
  /** The verdict is the build hash's (sound for this filter); the forced hash's bits are shown first. */
  function probe(path, options) {
    const built = filter.probe(path);
    const shown = options.variant || options.charset ? filter.probe(path, options) : built;
    const same = shown.variant === built.variant && shown.charset === built.charset;
    const { reason, decision } = builtFilterProbe(built, shown);
    return {
      path, verdict: built.verdict, decision, variant: shown.variant, charset: shown.charset, confirmed: same, reason,
      indexed: null, probes: shown.probes, others: same ? [] : [{ variant: built.variant, charset: built.charset, verdict: built.verdict, probes: built.probes }],
    };
  }
  return {
    info: () => ({ synthetic: true, name, size: null, version: null, metadata: null, properties: [], tableSchemas: [], tableNames: [], warnings: [], bloom: builtFilterInfo(filter, items) }),
    filter: () => filter,
    // No index: nothing to read, no audit; the paths added are its series.
    loadIndex: () => null,
    audit: () => null,
    series: () => pathsUpTo(items).map((path) => ({ path, table: null, device: [], measurement: null, dataType: 'synthetic', offset: null, maybePresent: true })),
    timeColumns: () => [],
    probe,
    prepare() {},
    // The build hash decides, whatever hash is forced; a verdict's decision is the core's (no index).
    verdicts(paths, options) {
      const decided = (verdict) => builtFilterProbe({ ...DEFAULT_HASH, verdict }, DEFAULT_HASH).decision;
      const of = options.decisions === true ? { absent: decided('absent'), maybe: decided('maybe') } : null;
      return filter.probeMany(paths).map((r) => (of ? { path: r.path, verdict: r.verdict, decision: of[r.verdict], indexed: null } : { path: r.path, verdict: r.verdict }));
    },
    provenance() {
      const p = provenance(filter, pathsUpTo(items), {});
      return transferred(p, { count: items, seriesCount: items, ...DEFAULT_HASH, timeColumns: false });
    },
    close: () => filter.free(),
  };
}

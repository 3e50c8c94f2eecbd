// Per-bit provenance for the Worker's `provenance` op: for every probed bit of every path, which
// paths set it, from BloomFilter#probeMany's compact form (its layout is public: CompactProbeResults in index.d.ts).

// In a compact probe record at `base`, whether seed j's bit was already probed by an earlier seed.
function repeatsEarlierSeed(data, base, j) {
  const bit = data[base + 2 + 2 * j];
  for (let q = 0; q < j; q++) if (data[base + 2 + 2 * q] === bit) return true;
  return false;
}

/**
 * `{bits: Uint32Array, items: Uint32Array, k, seeds}` sorted by bit (binary-search `bits`; `items`
 * holds path indices), built by a counting sort over the bit vector.
 */
export function provenance(filter, paths, { variant, charset } = {}) {
  const { k, stride, data, seeds } = filter.probeMany(paths, { variant, charset: charset === 'UTF-8' ? undefined : charset, compact: true });
  const m = filter.bitCount;
  const n = Array.isArray(paths) ? paths.length : paths.ends.length;
  const counts = new Uint32Array(m + 1);
  for (let i = 0; i < n; i++) {
    const base = i * stride;
    for (let j = 0; j < k; j++) {
      // The same path can hit one bit with two seeds: count it once.
      if (!repeatsEarlierSeed(data, base, j)) counts[data[base + 2 + 2 * j] + 1]++;
    }
  }
  for (let b = 0; b < m; b++) counts[b + 1] += counts[b];
  const total = counts[m];
  const bits = new Uint32Array(total);
  const items = new Uint32Array(total);
  const pos = counts; // reused as write cursors: pos[b] = next slot for bit b
  for (let i = 0; i < n; i++) {
    const base = i * stride;
    for (let j = 0; j < k; j++) {
      if (repeatsEarlierSeed(data, base, j)) continue;
      const bit = data[base + 2 + 2 * j];
      const at = pos[bit]++;
      bits[at] = bit;
      items[at] = i;
    }
  }
  return { bits, items, k, seeds };
}

/** The answer of a `provenance` op: the value, its arrays transferred. */
export function transferred(p, facts) {
  return { value: { ...p, ...facts }, transfer: [p.bits.buffer, p.items.buffer] };
}

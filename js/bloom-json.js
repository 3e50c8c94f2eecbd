// bloomInfo() in the keys of `inspect --json` (README, "JSON reports"), apart from js/report.js
// so that a scan's NDJSON records (js/scan-output.js) use them without loading the CLI's reports.

/** Sets `key` only when `value` is not null (0.1.0 omitted these keys when absent). */
export function opt(out, key, value) {
  if (value != null) out[key] = value;
  return out;
}

/** bloomInfo() → `bloom_filter` of `inspect --json`, and of a scan's NDJSON record. */
export function bloomReport(b) {
  const out = { present: b.present, encoding: b.encoding, offset: b.offset };
  opt(out, 'bits_offset', b.bitsOffset);
  opt(out, 'byte_length', b.byteLength);
  opt(out, 'bit_count', b.bitCount);
  opt(out, 'hash_function_count', b.hashFunctionCount);
  opt(out, 'hash', b.hash);
  opt(out, 'set_bits', b.setBits);
  opt(out, 'fill_ratio', b.fillRatio);
  opt(out, 'estimated_items', b.estimatedItems);
  opt(out, 'indexed_items', b.indexedItems);
  opt(out, 'fpp_formula', b.fppFormula);
  opt(out, 'fpp_from_fill', b.fppFromFill);
  opt(out, 'optimal_k', b.optimalK);
  // Once the index is read (the core's rule, src/design.rs): more keys than m and k are sized for,
  // and the C++ writer's sizing when m and k are its sizing for fewer measurement names.
  opt(out, 'filled_past_design', b.filledPastDesign);
  opt(out, 'cpp_sized_for', b.cppSizedFor);
  // Its fill against its design (src/health.rs); absent where no writer's sizing gives m and k.
  const h = b.health;
  return opt(out, 'health', h && { state: h.state, error_rate: h.errorRate, sized_for_items: h.sizedForItems, design_fill: h.designFill });
}

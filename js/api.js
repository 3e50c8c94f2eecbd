// The public API every entry re-exports from core.js, by name: exactly what index.d.ts
// declares (tests/js/api-shapes.test.mjs compares the two). core.js's other exports are the
// package's own plumbing (staging areas, record views, bitIndex for the page's teaching panel).
export {
  SEEDS,
  VARIANTS,
  BloomFilter,
  hash32,
  encodePath,
  fppFormula,
  optimalK,
  javaSizing,
  writerHypothesis,
  CHARSETS,
  canonicalCharsetName,
  loadCharsets,
} from './core.js';
export { TsFileBloomError } from './errors.js';

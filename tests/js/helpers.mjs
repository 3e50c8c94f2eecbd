import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REFERENCE = fileURLToPath(new URL('../reference/java_bloom.py', import.meta.url));

/** Asks the independent Python reference of Java's BloomFilter (tests/reference/java_bloom.py). */
export function javaReference(request) {
  const r = spawnSync('python3', [REFERENCE], { input: JSON.stringify(request), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`java_bloom.py failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

export const hex = (bytes) => Buffer.from(bytes).toString('hex');
export const fromHex = (s) => Uint8Array.from(Buffer.from(s, 'hex'));

/** A deterministic pseudo-random generator (mulberry32) for test inputs. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * scanTsFiles with the scanner's own knobs too (`manifestRacyMs`, `filesPerExtraWorker`: js/scan.js
 * runScan), which scanTsFiles does not hand over from a caller's options.
 */
export async function scanWithKnobs(targets, options = {}) {
  const { scanResult } = await import('../../js/scan-call.js');
  const list = Array.isArray(targets) ? targets : [targets];
  const run = async (emit, signal) => (await import('../../js/scan.js')).runScan(list, { ...options, signal, format: 'records' }, emit);
  return scanResult(run, { signal: options.signal });
}

/** Murmur128 tail variant: Java sign-extends tail bytes; the C++ writer in tsfile 2.5.0 zero-extends them. */
export type Variant = 'java' | 'zero-extended';

/** JVM charsets a writer may have hashed paths in. Aliases (e.g. 'utf8', 'cp936', 'latin1') are accepted. */
export type Charset = 'UTF-8' | 'GBK' | 'GB18030' | 'Big5' | 'Shift_JIS' | 'EUC-KR' | 'windows-1252' | 'ISO-8859-1' | (string & {});

/** A series path as text (encoded in the chosen charset) or as the exact bytes to hash. */
export type PathInput = string | Uint8Array;

export interface ProbeOptions {
  /** Default 'java'. */
  variant?: Variant;
  /** Default 'UTF-8'. Ignored for Uint8Array paths. */
  charset?: Charset;
}

export interface SeedProbe {
  seed: number;
  /** Signed 32-bit hash. */
  hash32: number;
  /** Bit index in 0..bitCount-1. */
  bit: number;
  set: boolean;
}

export interface ProbeResult {
  /** 'absent': some probed bit is 0 (definitely not added under this variant and charset); 'maybe': all set. */
  verdict: 'absent' | 'maybe';
  variant: Variant;
  /** The charset the path bytes were made with, or 'bytes' for Uint8Array input. */
  charset: string;
  probes: SeedProbe[];
}

export interface BatchProbeResult extends ProbeResult {
  path: PathInput;
}

export interface CompactProbeResults {
  k: number;
  /** Numbers per path in `data`: 1 + 2k. */
  stride: number;
  seeds: number[];
  /** Per path: set-bit mask (bit j = seed j's bit is set), then (hash32, bit) for each seed. */
  data: Int32Array;
  /** 1 where every probed bit is set ('maybe'), 0 for 'absent'. */
  maybe: Uint8Array;
  variant: Variant;
  charset: string;
}

export interface BloomStats {
  bitCount: number;
  hashFunctionCount: number;
  setBits: number;
  /** setBits / bitCount. */
  fillRatio: number;
  /** -(m/k) ln(1 - fill): items estimated from the fill (Infinity when full). */
  estimatedItems: number;
  /** The n used for fppFormula and optimalK (the argument, or estimatedItems). */
  items: number;
  /** (1 - e^(-k n / m))^k. */
  fppFormula: number;
  /** fill^k. */
  fppFromFill: number;
  /** (m / n) ln 2. */
  optimalK: number;
}

/** Errors thrown by this package carry a stable `kind` and the byte `offset` it concerns. */
export interface TsFileBloomError extends Error {
  kind: string;
  offset: number;
}

export const SEEDS: readonly number[];
export const VARIANTS: readonly Variant[];
export const CHARSETS: readonly string[];

/** TsFile's Murmur128Hash folded to a signed 32-bit integer. Strings are hashed as UTF-8. */
export function hash32(path: PathInput, seed: number, variant?: Variant): number;

/** The bytes a JVM whose default charset is `charset` hashes for `text` (unmappable characters → '?'). */
export function encodePath(text: string, charset?: Charset): Uint8Array;

/** `(hash == -2^31 ? 0 : |hash|) mod bitCount`. */
export function bitIndex(hash32: number, bitCount: number): number;

export class BloomFilter {
  /** An empty filter with explicit geometry. */
  constructor(bitCount: number, hashFunctionCount: number);
  /** Decodes the serialized structure; null for the "no filter" encoding (`00`). Throws TsFileBloomError. */
  static decode(bytes: Uint8Array): BloomFilter | null;
  /** Sized exactly as Java's `BloomFilter.getEmptyBloomFilter(errorRate, n)` (rate clamped to [0.01, 0.1]). */
  static withCapacity(n: number, errorRate?: number): BloomFilter;
  add(path: PathInput, options?: ProbeOptions): this;
  probe(path: PathInput, options?: ProbeOptions): ProbeResult;
  probeMany(paths: PathInput[], options?: ProbeOptions & { compact?: false }): BatchProbeResult[];
  probeMany(paths: PathInput[], options: ProbeOptions & { compact: true }): CompactProbeResults;
  /** The serialized structure, byte-identical to the Java writer (trailing zero bytes trimmed). */
  encode(): Uint8Array;
  /** Logical bit vector, ceil(bitCount / 8) bytes, LSB-first. */
  bits(): Uint8Array;
  readonly bitCount: number;
  readonly hashFunctionCount: number;
  /** Length of the stored (trimmed) bit vector. */
  readonly byteLength: number;
  readonly setBits: number;
  stats(items?: number): BloomStats;
  /** Releases wasm memory now; otherwise a FinalizationRegistry releases it eventually. */
  free(): void;
}

// Types for worker-client.js: the main-thread promise wrapper around worker.js.
import type { AuditResult, BlobInput, BloomInfo, DecidedProbe, FileProbeResult, FileVerdict, IndexOptions, JvmCharset, PathInput, ProbeOptions, SeriesInfo, TsFile, TsFileBloomError, UrlInput, Variant } from './index.js';

/** Rejections are the package's error, rebuilt on this side of the worker boundary, with the `op` that failed. */
export { TsFileBloomError } from './index.js';

export interface WorkerProgress {
  op: string;
  id: number;
  done: number;
  total: number;
}

/** An open file as TsFile shows it (a synthetic filter has no size, version or metadata); `bloom` is TsFile#bloomInfo() (a synthetic filter's: its own encoding, offset 0). */
export type FileInfo = Pick<TsFile, 'name' | 'properties' | 'tableSchemas' | 'tableNames' | 'warnings'> & {
  synthetic: boolean;
  size: number | null;
  version: number | null;
  metadata: TsFile['metadata'] | null;
  bloom: BloomInfo;
};

/** Which paths set each bit: entries sorted by bit. */
export interface Provenance {
  /** Bit indices, ascending (one entry per (bit, path) pair). */
  bits: Uint32Array;
  /** Path index for each entry of `bits`: the series, then the time columns when `timeColumns`. */
  items: Uint32Array;
  k: number;
  seeds: number[];
  count: number;
  seriesCount: number;
  variant: Variant;
  charset: JvmCharset;
  timeColumns: boolean;
  established?: boolean;
}

/** A promise that also carries the request id (for cancel()). */
export type Pending<T> = Promise<T> & { id: number };

/**
 * The members TsFile has answer as TsFile's do, with the same shapes (a synthetic filter has no
 * index: loadIndex() null, audit() null, its paths as series()). probe() reads the index first.
 */
export interface TsFileWorker {
  onprogress: ((p: WorkerProgress) => void) | null;
  onerror: ((e: TsFileBloomError) => void) | null;
  readonly mode: 'worker' | 'inline';
  /**
   * Any op by name (e.g. the page's 'teach.*' and 'leveldb.*' ops in its own worker, www/worker/page-worker.js, and 'scan'
   * in worker-scan.js: `call('scan', { targets, paths, audit, concurrency }, onprogress)` resolves
   * with scanTsFiles' summary; progress messages carry `{ records, done, found, bytesRead }`;
   * `cancel(promise)` aborts it).
   */
  call(op: string, args?: Record<string, unknown>, onprogress?: (p: WorkerProgress) => void): Pending<any>;
  open(blob: BlobInput, name?: string): Pending<FileInfo>;
  info(): Pending<FileInfo>;
  bits(): Pending<{ bitCount: number; hashFunctionCount: number; bits: Uint8Array } | null>;
  loadIndex(): Promise<TsFileBloomError | null>;
  audit(options?: IndexOptions): Pending<AuditResult | null>;
  series(options?: IndexOptions): Pending<SeriesInfo[]>;
  timeColumns(options?: IndexOptions): Pending<SeriesInfo[]>;
  probe(path: string, options?: ProbeOptions): Pending<FileProbeResult>;
  probeMany(paths: PathInput[], options?: ProbeOptions & { decisions?: false; onprogress?: (p: WorkerProgress) => void }): Pending<{ path: PathInput; verdict: FileVerdict }[]>;
  /** With `decisions: true`, as TsFile's. */
  probeMany(paths: PathInput[], options: ProbeOptions & { decisions: true; onprogress?: (p: WorkerProgress) => void }): Pending<DecidedProbe[]>;
  provenance(): Pending<Provenance | null>;
  synthetic(options?: { capacity?: number; items?: number; errorRate?: number }, onprogress?: (p: WorkerProgress) => void): Pending<FileInfo>;
  close(): Pending<boolean>;
  cancel(promiseOrId: Pending<unknown> | number): void;
  terminate(): void;
}

/** What createWorker talks to besides a URL: a Worker, or anything with these members (a MessagePort with `terminate`). */
export interface WorkerLike {
  postMessage(message: any, transfer?: any): void;
  addEventListener(type: string, listener: (event: any) => void): void;
  terminate(): void;
}

/**
 * Starts the package's worker (no argument: a `new Worker(new URL('./worker.js', import.meta.url))`
 * bundlers follow), talks to a Worker you made, or starts the worker script at a URL. With no
 * argument or a URL, `fallback` (default true) runs the handler in-thread where module Workers are
 * unavailable. Anything else throws `invalid_argument` (argument 'worker').
 */
export function createWorker(worker?: WorkerLike | string | UrlInput | null, options?: { fallback?: boolean }): TsFileWorker;

// Types for worker-client.js: the main-thread promise wrapper around worker.js.
import type { AuditResult, BloomInfo, Charset, TsFileBloomError, FileProbeResult, PathInput, PropertyInfo, SeriesInfo, TableSchemaInfo, TsFileMetadataInfo, Variant } from './index.js';
import type { PlainError, Provenance } from './worker.js';

export interface WorkerProgress {
  op: string;
  id: number;
  done: number;
  total: number;
}

/** Rejections are the package's error, rebuilt on this side of the worker boundary, with the `op` that failed. */
export { TsFileBloomError } from './index.js';

export interface FileInfo {
  synthetic: boolean;
  name: string | null;
  size: number | null;
  version: number | null;
  metadata: TsFileMetadataInfo | null;
  bloom: BloomInfo;
  properties: PropertyInfo[];
  tableSchemas: TableSchemaInfo[];
  tableNames: (string | null)[];
  warnings: string[];
}

/** A promise that also carries the request id (for cancel()). */
export type Pending<T> = Promise<T> & { id: number };

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
  open(blob: Blob, name?: string): Pending<FileInfo>;
  info(): Pending<FileInfo>;
  bits(): Pending<{ bitCount: number; hashFunctionCount: number; bits: Uint8Array } | null>;
  /**
   * `bloom`: the filter facts once the index is read (`indexedItems`); absent for a synthetic filter.
   * As TsFile's: an index that could not be read to its end rejects with its error (a TsFileBloomError);
   * `{ partial: true }` resolves instead, with `audit` null and `indexError` the reason.
   */
  audit(options?: { partial?: false }): Pending<{ audit: AuditResult | null; indexError: null; bloom?: BloomInfo }>;
  audit(options: { partial: boolean }): Pending<{ audit: AuditResult | null; indexError: PlainError | null; bloom?: BloomInfo }>;
  /** As `audit`: rejects with the index's error, or with `{ partial: true }` gives the series read before it. */
  series(options?: { partial?: boolean }): Pending<{ series: SeriesInfo[]; timeColumns: SeriesInfo[]; indexError: PlainError | null }>;
  probe(path: string, options?: { variant?: Variant; charset?: Charset }): Pending<FileProbeResult>;
  probeMany(paths: PathInput[], options?: { variant?: Variant; charset?: Charset; onprogress?: (p: WorkerProgress) => void }): Pending<{ path: PathInput; verdict: 'absent' | 'maybe' | 'unknown' }[]>;
  provenance(): Pending<(Provenance & { count: number; seriesCount: number; variant: Variant; charset: string; timeColumns: boolean; established?: boolean }) | null>;
  synthetic(options?: { capacity?: number; items?: number; errorRate?: number }, onprogress?: (p: WorkerProgress) => void): Pending<FileInfo>;
  close(): Pending<boolean>;
  cancel(promiseOrId: Pending<unknown> | number): void;
  terminate(): void;
}

/** Starts worker.js as a module Worker (or, with `fallback`, runs it in-thread where Workers are unavailable). */
export function createWorker(url?: URL | string, options?: { fallback?: boolean }): TsFileWorker;

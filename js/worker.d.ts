// Types for worker.js: the module Worker script (see worker-client.d.ts for the main-thread API).
import type { AuditResult, BloomFilter, Charset, EncodedPaths, PathInput, Variant } from './index.js';

/** A plain error as it crosses the worker boundary. */
export interface PlainError {
  kind: string;
  message: string;
  offset: number | null;
}

export type WorkerRequest =
  | { id: number; op: 'open'; blob: Blob; name?: string }
  | { id: number; op: 'info' | 'bits' | 'audit' | 'series' | 'provenance' | 'close' }
  | { id: number; op: 'probe'; path: string; variant?: Variant; charset?: Charset }
  | { id: number; op: 'probeMany'; paths: PathInput[]; variant?: Variant; charset?: Charset }
  | { id: number; op: 'synthetic'; capacity?: number; items?: number; errorRate?: number }
  | { id: number; op: 'cancel'; target: number };

export type WorkerReply =
  | { id: number; result: unknown }
  | { id: number; error: PlainError }
  | { id: number; progress: { done: number; total: number } }
  | { id: 0; ready: true };

/** Paths per chunk of a long batch. */
export const CHUNK: number;

export function plainError(e: unknown): PlainError | null;

export type { WriterHypothesis } from './index.js';

export interface Provenance {
  /** Bit indices, ascending (one entry per (bit, path) pair). */
  bits: Uint32Array;
  /** Path index for each entry of `bits`. */
  items: Uint32Array;
  k: number;
  seeds: number[];
}

/** Which of `paths` set each bit of `filter`. */
export function provenance(filter: BloomFilter, paths: PathInput[] | EncodedPaths, options?: { variant?: Variant; charset?: Charset }): Provenance;

/** The transport-independent message handler (an in-thread fallback uses it). */
export function createHandler(): (msg: WorkerRequest, post: (reply: WorkerReply, transfer?: Transferable[]) => void) => Promise<void>;

// Types for worker.js: the module Worker script (see worker-client.d.ts for the main-thread API).
import type { BlobInput, Charset, PathInput, TsFileBloomError, Variant } from './index.js';

/** An error as it crosses the worker boundary: a TsFileBloomError's fields as plain data (structured clone drops an Error's own). */
type WireError = Pick<TsFileBloomError, 'kind' | 'message' | 'offset' | 'argument' | 'reason' | 'url' | 'status' | 'path' | 'field' | 'line'>;

export type WorkerRequest =
  | { id: number; op: 'open'; blob: BlobInput; name?: string }
  | { id: number; op: 'info' | 'bits' | 'loadIndex' | 'provenance' | 'close' }
  | { id: number; op: 'audit' | 'series' | 'timeColumns'; partial?: boolean }
  | { id: number; op: 'probe' | 'probeMany'; path?: string; paths?: PathInput[]; variant?: Variant; charset?: Charset }
  | { id: number; op: 'synthetic'; capacity?: number; items?: number; errorRate?: number }
  | { id: number; op: 'cancel'; target: number };

export type WorkerReply =
  | { id: number; result: unknown }
  | { id: number; error: WireError }
  | { id: number; progress: { done: number; total: number } }
  | { id: 0; ready: true };

/** An op added by a worker script of one's own: takes the message and a progress callback. */
export type WorkerOp = (msg: { id: number; op: string; [key: string]: unknown }, progress: (p: { done: number; total: number }) => void) => unknown;

/**
 * The transport-independent message handler (the Worker client's in-thread fallback uses it);
 * `transfer` lists the buffers a reply hands over (what postMessage takes as its transfer list).
 */
export function createHandler(extraOps?: Record<string, WorkerOp>): (msg: WorkerRequest, post: (reply: WorkerReply, transfer?: ArrayBuffer[]) => void) => Promise<void>;

/** Installs the handler (with `extraOps`) as this module Worker's message listener; nothing outside a Worker. */
export function installWorker(extraOps?: Record<string, WorkerOp>): void;

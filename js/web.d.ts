export * from './index.js';
import type { WasmInput, WasmModule } from './index.js';

/** What init takes for a module: a URL, Request, Response, bytes or a compiled module (or a promise of one). */
export type InitInput = WasmInput;

export interface InitOptions {
  /** The TsFile module (default: the .wasm beside the package's glue, fetched). */
  module_or_path?: InitInput | Promise<InitInput>;
  /** Where the charsets module comes from when first needed (nothing is fetched now). */
  charsets?: InitInput | Promise<InitInput>;
  /** Where the LevelDB module comes from when first needed (nothing is fetched now). */
  leveldb?: InitInput | Promise<InitInput>;
}

/** Fetches/compiles the TsFile module and records where the two lazily loaded ones are. Call once before using the API. */
export default function init(options?: InitOptions | InitInput): Promise<unknown>;
/** Synchronous initialisation from bytes or compiled modules (the lazily loaded ones compile when first needed). */
export function initSync(options: { module: ArrayBuffer | ArrayBufferView | WasmModule; charsets?: ArrayBuffer | ArrayBufferView | WasmModule; leveldb?: ArrayBuffer | ArrayBufferView | WasmModule } | ArrayBuffer | ArrayBufferView | WasmModule): unknown;

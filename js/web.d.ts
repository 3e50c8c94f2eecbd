export * from './index.js';

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

/** Fetches/compiles the wasm (default: the .wasm beside the package's glue). Call once before using the API. */
export default function init(options?: { module_or_path?: InitInput | Promise<InitInput> }): Promise<unknown>;
export function init(options?: { module_or_path?: InitInput | Promise<InitInput> }): Promise<unknown>;
/** Synchronous initialisation from bytes or a compiled module. */
export function initSync(options: { module: BufferSource | WebAssembly.Module }): unknown;

// Injected into the CommonJS build (build.sh --inject): the bundle's TextEncoder and TextDecoder
// are node:util's — the same classes as Node's globals — so a test environment that swaps the
// globals for a DOM's without them (Jest's jsdom) still loads and runs the package.
export { TextDecoder, TextEncoder } from 'node:util';

// Node's transport for s3:// (js/s3.js `runtime`): requests go through js/node-http.js, over
// kept-alive node:http(s) connections, as Node's http(s) URLs do, and are signed by aws4 (AWS
// Signature V4 with node:crypto, synchronous), where other runtimes use fetch and aws4fetch's
// WebCrypto signer. In Node aws4fetch's signature cost ~0.18 ms of CPU per request and aws4's
// ~0.05 ms (64 at a time, a quiet machine), and fetch more than node:http: an s3:// scan of small
// objects went from 0.72 to 0.43 ms of CPU per file (CHANGELOG). aws4 is loaded with the first
// signed request; a `fetch` option still replaces the transport (then aws4 signs for it all the
// same).
import { NODE_HTTP, nodeHttpFetch, writtenPath } from './node-http.js';

let aws4 = null;

/**
 * `(credentials, region)` → `sign(url, headers)`: the headers of a signed GET of `url`, a plain
 * object. The path signed is the path as written, as it is sent: aws4 keeps an S3 path's '.'
 * and '..' segments in its canonical URI (S3's is not normalised), where `new URL` would drop them.
 */
async function nodeSigner(credentials, region) {
  const { sign } = await (aws4 ??= import('aws4').then((m) => m.default ?? m));
  return (url, headers) => {
    const plain = {};
    for (const [name, value] of new Headers(headers ?? undefined)) plain[name] = value;
    return sign({ host: new URL(url).host, path: writtenPath(url), method: 'GET', service: 's3', region, headers: plain }, credentials).headers;
  };
}

/**
 * The transport js/s3.js takes in Node; null in Deno and Bun (which keep fetch and aws4fetch).
 * `exactPaths`: it sends a key's '.' and '..' segments as they are.
 */
export const NODE_S3 = NODE_HTTP ? Object.freeze({ name: 'node', fetch: nodeHttpFetch, signer: nodeSigner, exactPaths: true }) : null;

// A web server that misbehaves on purpose, for the fault-injection suite (faults.test.mjs).
// It serves real TsFiles correctly (Range, a strong ETag, Last-Modified, If-Match → 412), except
// where the URL asks for a fault: `/<mode>/<phase>/<token>/<file>`.
//
// phase: which requests the fault hits — `all`, `head` (the range starting at byte 0), `tail`
// (the suffix range or the explicit window at the end), `index` (the index region: a range
// starting after byte 0 and at or before the file's meta_offset). `token` makes each case's
// request count its own.
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { listenLocal } from './servers.mjs';

/**
 * `files`: { name: { bytes, metaOffset } }. Resolves to `{origin, requests(token), close()}`,
 * where `requests(token)` lists what one case's client asked for: `[{range, ifMatch, ifUnmodifiedSince, encoding, fetchMode}]`.
 */
export function startFaultServer(files) {
  const seen = new Map(); // token → requests
  const server = createServer((req, res) => {
    const [, mode, phase, token, name] = req.url.split('/');
    const file = files[name];
    if (!file) {
      res.writeHead(404);
      res.end();
      return;
    }
    const log = seen.get(token) ?? [];
    seen.set(token, log);
    log.push({ range: req.headers.range ?? null, ifMatch: req.headers['if-match'] ?? null, ifUnmodifiedSince: req.headers['if-unmodified-since'] ?? null, encoding: req.headers['accept-encoding'] ?? null, fetchMode: req.headers['sec-fetch-mode'] ?? null });
    const n = log.length;
    // The version this request sees: the replace-* modes serve another one from the 3rd request on.
    const replaced = mode.startsWith('replace') && n > 2;
    let bytes = file.bytes;
    if (mode === 'replace-size' && replaced) bytes = Buffer.concat([bytes, Buffer.alloc(100)]);
    else if (replaced) {
      bytes = Buffer.from(bytes);
      bytes[file.metaOffset + 1] ^= 0xff; // same size, other content
    }
    const size = bytes.length;
    // replace: a strong ETag (and If-Match honoured); replace-weak: a weak one; replace-lastmod:
    // Last-Modified only; replace-size: no validator at all (only the size tells).
    const strong = mode !== 'replace-weak' && mode !== 'replace-lastmod' && mode !== 'replace-size';
    const etag = mode === 'replace-lastmod' || mode === 'replace-size' ? null : `${strong ? '' : 'W/'}"v${replaced ? 2 : 1}"`;
    const lastModified = mode === 'replace-size' ? null : new Date(Date.UTC(2026, 10, replaced ? 2 : 1)).toUTCString();
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    let start = 0;
    let end = size - 1;
    if (range) {
      if (range[1] === '') start = Math.max(0, size - Number(range[2]));
      else {
        start = Number(range[1]);
        end = range[2] === '' ? size - 1 : Math.min(Number(range[2]), size - 1);
      }
    }
    const hit =
      phase === 'all' ||
      (phase === 'head' && range && start === 0) ||
      (phase === 'tail' && range && start > file.metaOffset) ||
      (phase === 'index' && range && start > 0 && start <= file.metaOffset);
    const headers = { 'accept-ranges': 'bytes', ...(lastModified ? { 'last-modified': lastModified } : {}), ...(etag ? { etag } : {}) };
    const send = (status, extra, body) => {
      res.writeHead(status, { ...headers, ...extra });
      res.end(body);
    };
    const partial = () => send(206, { 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1 }, bytes.subarray(start, end + 1));
    // A conditional request for another version is refused, as a real server does.
    const ifMatch = req.headers['if-match'];
    if (strong && ifMatch && ifMatch !== etag) return send(412, { 'content-length': 0 }, '');
    if (!range) return send(200, { 'content-length': size }, bytes);
    if (!hit) return partial();
    switch (mode) {
      case 'gzip': // says gzip, sends the plain bytes
        return send(206, { 'content-range': `bytes ${start}-${end}/${size}`, 'content-encoding': 'gzip' }, bytes.subarray(start, end + 1));
      case 'gzip-real': // a compressed range: the bytes decode, but are not the range's
        return send(206, { 'content-range': `bytes ${start}-${end}/${size}`, 'content-encoding': 'gzip' }, gzipSync(bytes.subarray(start, end + 1)));
      case 'drip': {
        res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1 });
        let at = start;
        const timer = setInterval(() => {
          if (at > end || res.destroyed) return clearInterval(timer);
          res.write(bytes.subarray(at, at + 1));
          at++;
        }, 50);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case 'stall':
        return; // no status line at all
      case 'reset':
        res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1 });
        res.write(bytes.subarray(start, start + 5), () => res.socket.destroy());
        return;
      case 'short':
        return send(206, { 'content-range': `bytes ${start}-${end}/${size}` }, bytes.subarray(start, Math.min(end + 1, start + 5)));
      case 'long':
        return send(206, { 'content-range': `bytes ${start}-${end}/${size}` }, Buffer.concat([bytes.subarray(start, end + 1), Buffer.alloc(64)]));
      case 'wrong-range':
        return send(206, { 'content-range': `bytes ${start + 1}-${end}/${size}` }, bytes.subarray(start + 1, end + 1));
      case '416':
        return send(416, { 'content-range': `bytes */${size}`, 'content-length': 0 }, '');
      case '429-once': // the first request the fault hits is throttled, the rest are served
        if (!log.throttled) {
          log.throttled = true;
          return send(429, { 'retry-after': '1', 'content-length': 0 }, '');
        }
        return partial();
      case '503':
        return send(503, { 'retry-after': '1', 'content-length': 0 }, '');
      case 'redirect-loop':
        return send(302, { location: req.url, 'content-length': 0 }, '');
      case 'redirect':
        return send(302, { location: `/ok/${phase}/${token}/${name}`, 'content-length': 0 }, '');
      case 'full':
        return send(200, { 'content-length': size }, bytes);
      default:
        return partial(); // ok and the replace-* modes
    }
  });
  return listenLocal(server).then((listening) => ({ ...listening, requests: (token) => seen.get(token) ?? [] }));
}

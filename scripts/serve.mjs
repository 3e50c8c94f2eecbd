// Serves the built site (dist/site) on http://127.0.0.1:8080 (PORT overrides); with --source,
// the page as it is in the source tree (www/, whose links reach the package, its built dist/web
// and the samples: scripts/build.sh's wasm modules must exist). Static files only; nothing is
// uploaded anywhere.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../dist/site/', import.meta.url));
/** The page in the source tree. */
export const SOURCE_ROOT = fileURLToPath(new URL('../www/', import.meta.url));
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.wasm': 'application/wasm', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.tsfile': 'application/octet-stream', '.ldb': 'application/octet-stream', '.d.ts': 'text/plain',
};

export function startServer({ port = Number(process.env.PORT ?? 8080), host = '127.0.0.1', root = ROOT } = {}) {
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://localhost');
      let path = normalize(join(root, decodeURIComponent(url.pathname)));
      if (!path.startsWith(root.endsWith(sep) ? root : root + sep) && path + sep !== root) throw Object.assign(new Error('outside'), { code: 'ENOENT' });
      if ((await stat(path)).isDirectory()) path = join(path, 'index.html');
      const body = await readFile(path);
      res.writeHead(200, {
        'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
      });
      res.end(body);
    } catch (e) {
      res.writeHead(e.code === 'ENOENT' || e.code === 'ENOTDIR' ? 404 : 500, { 'content-type': 'text/plain' });
      res.end(e.code === 'ENOENT' || e.code === 'ENOTDIR' ? 'not found' : 'server error');
    }
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv.includes('--source') ? SOURCE_ROOT : ROOT;
  const server = await startServer({ root });
  const { port } = server.address();
  console.log(`tsfile-bloom inspector: http://127.0.0.1:${port}/  (serving ${root}; Ctrl-C to stop)`);
}

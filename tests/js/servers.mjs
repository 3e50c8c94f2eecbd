// Web servers for the remote-source tests, each started on 127.0.0.1 by the test: Debian's
// nginx with a temporary configuration (a free port, everything under a temporary directory)
// and the access log it writes (one line per request: method, URI, Range header, status,
// bytes sent); and the servers users run in development — npm's http-server, Vite's dev and
// preview servers (sirv), Python's http.server (no Range support at all).
import { spawn, spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p)) ?? null;

/** A port nobody listens on right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const canConnect = (port) =>
  new Promise((resolve) => {
    const c = connect(port, '127.0.0.1');
    c.once('connect', () => {
      // A connect to a free port in the ephemeral range can meet itself (the kernel picks that
      // port as the source: TCP's simultaneous open): no server is listening then.
      const self = c.localPort === port;
      c.destroy();
      resolve(!self);
    });
    c.once('error', () => resolve(false));
  });

/**
 * Starts nginx serving `root`; resolves to `{origin, accessLog(), settledLog(), stop()}`.
 * `location`: directives for its one `location /` block (say, CORS headers or a proxy_pass).
 */
export async function startNginx(root, { location = '' } = {}) {
  if (!NGINX) throw new Error('nginx is not installed: run bash scripts/setup.sh --nginx');
  const dir = mkdtempSync(join(tmpdir(), 'tsfile-bloom-nginx-'));
  const port = await freePort();
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  log_format ranges '$request_method $uri "$http_range" $status $body_bytes_sent "$http_if_match"';
  access_log ${dir}/access.log ranges;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  default_type application/octet-stream;
  # What Debian's mime.types says for the files a page needs (browsers refuse a module script
  # served as application/octet-stream, and compile wasm streaming only as application/wasm).
  types { text/html html; text/javascript js mjs; text/css css; application/json json; application/wasm wasm; }
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / { ${location} }
  }
}
`,
  );
  const check = spawnSync(NGINX, ['-t', '-q', '-p', dir, '-e', `${dir}/error.log`, '-c', conf], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t failed: ${check.stderr}`);
  const child = spawn(NGINX, ['-p', dir, '-e', `${dir}/error.log`, '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  let exited = false;
  child.once('exit', () => (exited = true));
  for (let i = 0; i < 200 && !(await canConnect(port)); i++) {
    if (exited) throw new Error(`nginx exited: ${stderr}${readFileSync(join(dir, 'error.log'), 'utf8')}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  const logPath = join(dir, 'access.log');
  return {
    origin: `http://127.0.0.1:${port}`,
    /** The nginx process (master_process off: it serves every request itself). */
    pid: child.pid,
    /** The access log's lines so far: [{method, uri, range, status, bytes, ifMatch}] (ifMatch: the header sent, or null). */
    accessLog() {
      if (!existsSync(logPath)) return [];
      return readFileSync(logPath, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const m = /^(\S+) (\S+) "([^"]*)" (\d+) (\d+) "([^"]*)"$/.exec(line);
          return { method: m[1], uri: m[2], range: m[3], status: Number(m[4]), bytes: Number(m[5]), ifMatch: m[6] === '-' ? null : m[6] };
        });
    },
    /**
     * The access log's lines once nginx has logged at least `atLeast` of those `keep` accepts
     * (nginx logs a request after its response is sent, so the client can see the response
     * first), and 50 ms more for any request still being logged; gives up after 2 s.
     */
    async settledLog(keep, atLeast) {
      const deadline = Date.now() + 2000;
      while (this.accessLog().filter(keep).length < atLeast && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 50));
      return this.accessLog().filter(keep);
    },
    async stop() {
      if (!exited) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether an HTTP request to `port` gets an answer (any status). */
const answers = (port) =>
  new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/', method: 'HEAD', agent: false, timeout: 2000 }, (res) => {
      res.resume();
      resolve(true);
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(false));
    req.end();
  });

/**
 * Waits until the child answers HTTP on `port` (a connection alone could be another process's
 * on a port taken between freePort and the child's bind: the child then exits), or fails with
 * what the child printed; an error of a child that exited has `exited: true`.
 */
async function whenListening(child, port, name, output) {
  let exited = false;
  child.once('exit', () => (exited = true));
  const failed = (why) => Object.assign(new Error(`${name} ${why}: ${output()}`), { exited });
  let listening = false;
  for (let i = 0; i < 600 && !(listening = (await canConnect(port)) && (await answers(port)) && !exited); i++) {
    if (exited) throw failed('exited');
    await new Promise((r) => setTimeout(r, 25));
  }
  if (!listening) {
    if (exited) throw failed('exited');
    // Stopped here: a child left running would keep the test file's process, and the suite, alive.
    child.kill('SIGTERM');
    throw failed(`did not answer on ${port}`);
  }
  return () =>
    exited
      ? Promise.resolve()
      : new Promise((r) => {
          child.once('exit', r);
          child.kill('SIGTERM');
        });
}

function spawnServer(name, command, args, options = {}) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return { child, output: () => output };
}

/** npm's http-server (14) serving `root`: `{origin, stop()}`. */
export async function startHttpServer(root) {
  const port = await freePort();
  const { child, output } = spawnServer('http-server', process.execPath, [join(ROOT, 'node_modules/http-server/bin/http-server'), root, '-a', '127.0.0.1', '-p', String(port), '-s', '-c-1']);
  const stop = await whenListening(child, port, 'http-server', output);
  return { name: 'http-server', origin: `http://127.0.0.1:${port}`, stop };
}

/**
 * Vite's dev server (`mode` 'dev') or preview server ('preview') serving `root` as its public
 * files: `{origin, stop()}`. Vite's cache goes to a temporary directory, not into `root`.
 */
export async function startVite(root, mode, attempt = 1) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'tsfile-bloom-vite-'));
  const config = join(dir, 'vite.config.mjs');
  const server = { host: '127.0.0.1', port, strictPort: true };
  writeFileSync(config, `export default ${JSON.stringify({ root, cacheDir: join(dir, 'cache'), logLevel: 'warn', server, preview: server, build: { outDir: root } })};\n`);
  const args = [join(ROOT, 'node_modules/vite/bin/vite.js'), ...(mode === 'preview' ? ['preview'] : []), '--config', config];
  const { child, output } = spawnServer(`vite ${mode}`, process.execPath, args, { cwd: dir });
  let stopChild;
  try {
    stopChild = await whenListening(child, port, `vite ${mode}`, output);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    // (strictPort: a port taken by another process between freePort and Vite's bind ends it.)
    if (e.exited && attempt < 3) return startVite(root, mode, attempt + 1);
    throw e;
  }
  return {
    name: `vite ${mode}`,
    origin: `http://127.0.0.1:${port}`,
    async stop() {
      await stopChild();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Python's http.server (no Range support: every GET is a 200 with the whole file): `{origin, stop()}`. */
export async function startPythonHttp(root) {
  const port = await freePort();
  const { child, output } = spawnServer('python http.server', 'python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', root]);
  const stop = await whenListening(child, port, 'python http.server', output);
  return { name: 'python http.server', origin: `http://127.0.0.1:${port}`, stop };
}

/** s3s-fs (crates.io, installed by scripts/setup.sh --s3), when installed. */
export const S3S = existsSync(join(ROOT, '.tools/s3s/bin/s3s-fs')) ? join(ROOT, '.tools/s3s/bin/s3s-fs') : null;

/**
 * s3s-fs serving `store` (each folder a bucket) on a free port: `{origin, stop(), pid}`. With `keys`
 * (`{accessKeyId, secretAccessKey}`) it verifies every request's signature; without, it serves
 * anyone (a public bucket).
 */
export async function startS3s(store, keys = null) {
  if (!S3S) throw new Error('s3s-fs is not installed: run bash scripts/setup.sh --s3');
  const port = await freePort();
  const auth = keys ? ['--access-key', keys.accessKeyId, '--secret-key', keys.secretAccessKey] : [];
  const { child, output } = spawnServer('s3s-fs', S3S, ['--host', '127.0.0.1', '--port', String(port), ...auth, store]);
  const stop = await whenListening(child, port, 's3s-fs', output);
  return { origin: `http://127.0.0.1:${port}`, stop, pid: child.pid };
}

/** Every server above by name, started on `root` (nginx only when installed). */
export const SERVERS = {
  nginx: async (root) => {
    const ng = await startNginx(root);
    return { ...ng, name: 'nginx' };
  },
  'http-server': startHttpServer,
  'vite dev': (root) => startVite(root, 'dev'),
  'vite preview': (root) => startVite(root, 'preview'),
  'python http.server': startPythonHttp,
};

/**
 * Listens on a free loopback port with `server` (a node:http server of a test's own):
 * `{origin, close()}`, where close also drops the connections clients keep alive.
 */
export function listenLocal(server) {
  const sockets = new Set();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        origin: `http://127.0.0.1:${server.address().port}`,
        close: () => {
          for (const s of sockets) s.destroy();
          return new Promise((r) => server.close(r));
        },
      }),
    ),
  );
}

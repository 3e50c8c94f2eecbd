// Web servers for the remote-source tests: Debian's nginx, started on 127.0.0.1 with a
// temporary configuration (a free port, everything under a temporary directory), and the
// access log it writes (one line per request: method, URI, Range header, status, bytes sent).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });

/** Starts nginx serving `root`; resolves to `{origin, accessLog(), settledLog(), stop()}`. */
export async function startNginx(root) {
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
  log_format ranges '$request_method $uri "$http_range" $status $body_bytes_sent';
  access_log ${dir}/access.log ranges;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  default_type application/octet-stream;
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / { }
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
    /** The access log's lines so far: [{method, uri, range, status, bytes}]. */
    accessLog() {
      if (!existsSync(logPath)) return [];
      return readFileSync(logPath, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const m = /^(\S+) (\S+) "([^"]*)" (\d+) (\d+)$/.exec(line);
          return { method: m[1], uri: m[2], range: m[3], status: Number(m[4]), bytes: Number(m[5]) };
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

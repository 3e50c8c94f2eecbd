// A remote fleet scan bound by latency: 2,000 small real TsFiles on a local server behind a
// loopback proxy that holds every request 25 ms before forwarding it (a far object store, say).
// Measured in one run: the round trip through the proxy (median of single ranged requests), the
// scan's files per second at the default concurrency and at others, against the ideal
// (concurrency ÷ round trip), and what each file cost in requests and connections at the proxy.
//
//   node scripts/bench-remote.mjs [--files=2000] [--delay=25] [--md=target/bench/remote.md]
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createServer, request as httpRequest, Agent } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scanTsFiles } from '../js/node.js';
import { REMOTE_CONCURRENCY } from '../js/scan.js';

const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const FILES = Number(arg('files', 2000));
const DELAY_MS = Number(arg('delay', 25));
const MD = arg('md', null);
const ROOT = fileURLToPath(new URL('../', import.meta.url));

// Small real files (the C++ and Java writers').
const SOURCES = ['tests/fixtures/tsfile/tree_10series.tsfile', 'tests/fixtures/tsfile/table_unicode.tsfile', 'tests/fixtures/java/utf8/tree_ascii.tsfile'].map((f) => readFileSync(join(ROOT, f)));
const bodyOf = (i) => SOURCES[i % SOURCES.length];

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

// The origin is nginx (tests/js/servers.mjs starts it on 127.0.0.1) serving the files from a
// temporary directory; the proxy runs in a child process of its own (`--serve ORIGIN`), so that
// the scanner's process measures only the scanner: it prints its port, and answers /counts.
if (process.argv.includes('--serve')) {
  const originUrl = new URL(process.argv[process.argv.indexOf('--serve') + 1]);
  // Every request waits DELAY_MS, then goes to the origin over kept-alive connections.
  const upstream = new Agent({ keepAlive: true, maxSockets: 512 });
  const counts = { requests: 0, connections: 0 };
  const proxy = createServer((req, res) => {
    if (req.url === '/counts') return res.end(JSON.stringify(counts));
    counts.requests++;
    setTimeout(() => {
      const up = httpRequest({ host: originUrl.hostname, port: originUrl.port, path: req.url, method: req.method, headers: req.headers, agent: upstream }, (r) => {
        res.writeHead(r.statusCode, r.headers);
        r.pipe(res);
      });
      up.on('error', () => res.destroy());
      req.pipe(up);
    }, DELAY_MS);
  });
  proxy.on('connection', () => counts.connections++);
  proxy.keepAliveTimeout = 60_000;
  console.log(await listen(proxy));
  await new Promise(() => {}); // until killed
}

const { startNginx } = await import('../tests/js/servers.mjs');
const data = mkdtempSync(join(tmpdir(), 'tsfile-bloom-remote-bench-'));
for (let i = 0; i < FILES; i++) writeFileSync(join(data, `f${i}.tsfile`), bodyOf(i));
const nginx = await startNginx(data);
const server = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve', nginx.origin, `--files=${FILES}`, `--delay=${DELAY_MS}`], { stdio: ['ignore', 'pipe', 'inherit'] });
const proxyPort = await new Promise((resolve) => server.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
const base = `http://127.0.0.1:${proxyPort}`;
const countsNow = async () => (await fetch(`${base}/counts`)).json();

// The round trip a file's open pays (its two requests go out together): median of 40.
const rtts = [];
for (let i = 0; i < 40; i++) {
  const t0 = performance.now();
  await (await fetch(`${base}/f0.tsfile`, { headers: { range: 'bytes=0-11' } })).arrayBuffer();
  rtts.push(performance.now() - t0);
}
rtts.sort((a, b) => a - b);
const rtt = rtts[rtts.length >> 1];

const urls = Array.from({ length: FILES }, (_, i) => `${base}/f${i}.tsfile`);
async function run(concurrency) {
  const before = await countsNow();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const summary = await scanTsFiles(urls, { paths: ['root.sg1.d1.s1'], ...(concurrency ? { concurrency } : {}) }).summary;
  const s = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  if (summary.ok !== FILES) throw new Error(`${summary.ok} of ${FILES} files opened: ${JSON.stringify(summary.errorsByKind)}`);
  const c = concurrency ?? REMOTE_CONCURRENCY;
  const counts = await countsNow();
  const ideal = c / (rtt / 1000);
  return {
    concurrency: c,
    isDefault: !concurrency,
    filesPerSecond: FILES / s,
    ideal,
    ratio: FILES / s / ideal,
    // The scanner's own CPU per file (user + system), and the share of one core it used.
    cpuPerFileMs: (cpu.user + cpu.system) / 1000 / FILES,
    cpuShare: (cpu.user + cpu.system) / 1e6 / s,
    // The counters' own request is the last one counted: not the scan's.
    requestsPerFile: (counts.requests - before.requests - 1) / FILES,
    connectionsPerFile: (counts.connections - before.connections) / FILES,
  };
}

await run(16); // warm-up: connections, JIT
const rows = [];
for (const c of [16, undefined, 128]) rows.push(await run(c));
server.kill();
await nginx.stop();
rmSync(data, { recursive: true, force: true });

const fmt = (x, d = 0) => x.toLocaleString('en', { maximumFractionDigits: d, minimumFractionDigits: d });
const md = `
## Remote scan bound by latency

${FILES.toLocaleString('en')} small real TsFiles (the C++ and Java writers') on nginx, behind a loopback proxy (Node, a process of its
own) that holds every request ${DELAY_MS} ms (\`scripts/bench-remote.mjs\`); round trip through it, measured in the same run:
${rtt.toFixed(1)} ms (median of 40). The machine has ${availableParallelism()} cores for the scanner, the proxy and nginx together.
A file's open is one round trip: its head and tail requests go out together. The ideal is
concurrency ÷ round trip.

| concurrency | files/s | ideal | ratio | requests/file | connections/file | scanner CPU/file | scanner's core |
|---:|---:|---:|---:|---:|---:|---:|---:|
${rows.map((r) => `| ${r.concurrency}${r.isDefault ? ' (default)' : ''} | ${fmt(r.filesPerSecond)} | ${fmt(r.ideal)} | ${r.ratio.toFixed(2)}× | ${r.requestsPerFile.toFixed(2)} | ${r.connectionsPerFile.toFixed(3)} | ${r.cpuPerFileMs.toFixed(2)} ms | ${(r.cpuShare * 100).toFixed(0)} % |`).join('\n')}

Goals (issue 26): at the default, ≥ 0.8× the ideal — ${rows[1].ratio >= 0.8 ? 'holds' : 'misses'} (${rows[1].ratio.toFixed(2)}×) — and ≥ 2,000 files/s — ${rows[1].filesPerSecond >= 2000 ? 'holds' : 'misses'} (${fmt(rows[1].filesPerSecond)}).
`;
console.log(md);
if (MD) writeFileSync(MD, md);

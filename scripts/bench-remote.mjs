// A remote fleet scan bound by latency: 2,000 small real TsFiles on nginx behind a loopback
// proxy that holds every request 25 ms before it reaches nginx (a far object store, say).
// Measured in one run: the round trip through the proxy (median of single ranged requests), the
// scan's files per second at the default concurrency and at others, against the ideal
// (concurrency ÷ round trip); what each file cost in requests (nginx's access log) and
// connections (accepted by the proxy); and the CPU per file of the scanner, the proxy and nginx,
// with how busy the whole machine was — what bounds the scan when it falls short of the ideal.
// Then the same files as an S3 bucket (s3s-fs from crates.io, which verifies every signature,
// behind a proxy of the same delay) scanned as `s3://bucket/`: one signed request per file.
//
//   node scripts/bench-remote.mjs [--files=2000] [--delay=25] [--md=target/bench/remote.md]
import { fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createServer, connect } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scanTsFiles } from '../js/node.js';
import { REMOTE_CONCURRENCY } from '../js/scan.js';
import { nodeHttpFetch } from '../js/node-http.js';
import { NODE_S3 } from '../js/node-s3.js';
import { TAIL_WINDOW } from '../js/wire.js';

const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const FILES = Number(arg('files', 2000));
const DELAY_MS = Number(arg('delay', 25));
const MD = arg('md', null);
const ROOT = fileURLToPath(new URL('../', import.meta.url));

// Small real files (the C++ and Java writers').
const SOURCES = ['tests/fixtures/tsfile/tree_10series.tsfile', 'tests/fixtures/tsfile/table_unicode.tsfile', 'tests/fixtures/java/utf8/tree_ascii.tsfile'].map((f) => readFileSync(join(ROOT, f)));
const bodyOf = (i) => SOURCES[i % SOURCES.length];

// The proxy: a process of its own (`--serve ORIGIN`, so that the scanner's process measures only
// the scanner), relaying TCP. Every chunk a client sends — a request: HTTP/1.1 clients send one
// at a time on a connection and wait for its answer — is held DELAY_MS before it goes on to the
// origin; answers come back at once. So each request pays DELAY_MS more, as over a far network,
// and the proxy parses no HTTP: a first version (a Node HTTP proxy: two HTTP hops per request)
// cost ~0.3 ms of CPU per file on this 2-core machine, competing with the scanner; this ~0.1 ms.
// It reports its connections and its own CPU to the parent over IPC.
if (process.argv.includes('--serve')) {
  const origin = new URL(process.argv[process.argv.indexOf('--serve') + 1]);
  let connections = 0;
  const proxy = createServer((client) => {
    connections++;
    const upstream = connect(Number(origin.port), origin.hostname);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const s of [client, upstream]) s.on('error', drop).on('close', drop);
    client.on('data', (chunk) => setTimeout(() => upstream.write(chunk), DELAY_MS));
    client.on('end', () => setTimeout(() => upstream.end(), DELAY_MS));
    upstream.pipe(client);
  });
  proxy.listen(0, '127.0.0.1', () => process.send({ port: proxy.address().port }));
  process.on('message', () => {
    const cpu = process.cpuUsage();
    process.send({ connections, cpuMs: (cpu.user + cpu.system) / 1000 });
  });
  process.on('disconnect', () => process.exit(0));
  await new Promise(() => {}); // until the parent goes
}

// CPU time of another process (Linux: /proc/PID/stat, in clock ticks of 10 ms), or null.
const ticksMs = (pid) => {
  if (!existsSync(`/proc/${pid}/stat`)) return null;
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
// How long a process's main thread has waited, runnable, for a core (Linux: /proc/PID/schedstat,
// the scheduler's run-queue wait in ns), in ms; or null.
const schedMs = (pid, field) => {
  if (!existsSync(`/proc/${pid}/schedstat`)) return null;
  return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[field]) / 1e6;
};
const waitedMs = (pid) => schedMs(pid, 1);
// The whole machine's busy and total time (Linux: /proc/stat), or null.
const machine = () => {
  if (!existsSync('/proc/stat')) return null;
  const t = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = t[3] + t[4];
  const total = t.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
};

const { startNginx, startS3s, S3S } = await import('../tests/js/servers.mjs');
const data = mkdtempSync(join(tmpdir(), 'tsfile-bloom-remote-bench-'));
for (let i = 0; i < FILES; i++) writeFileSync(join(data, `f${i}.tsfile`), bodyOf(i));
const nginx = await startNginx(data);
/** The delaying proxy in front of `origin`: `{base, server, now()}` (its connections and CPU). */
async function startProxy(origin) {
  const proc = fork(fileURLToPath(import.meta.url), ['--serve', origin, `--files=${FILES}`, `--delay=${DELAY_MS}`], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise((resolve) => proc.once('message', (m) => resolve(m.port)));
  return { base: `http://127.0.0.1:${port}`, server: proc, now: () => new Promise((resolve) => (proc.once('message', resolve), proc.send('counts'))) };
}
const proxy = await startProxy(nginx.origin);
const { base, server } = proxy;
const countsNow = async () => ({
  ...(await proxy.now()),
  requests: nginx.accessLog().length,
  nginxMs: ticksMs(nginx.pid),
  machine: machine(),
  waited: [process.pid, server.pid, nginx.pid].map(waitedMs),
  ran: schedMs(process.pid, 0), // the scanner's main thread on a core
});

// The round trip a file's open pays: the request it sends (the suffix range, which holds each of
// these files whole), over the transport the scan uses (node:http, kept alive), one at a time;
// median of 40. (Node's fetch would add its own CPU per request to the figure, and so lower
// the ideal.)
const rtts = [];
for (let i = 0; i < 40; i++) {
  const t0 = performance.now();
  const res = await nodeHttpFetch(`${base}/f${i % FILES}.tsfile`, { headers: { range: `bytes=-${TAIL_WINDOW}` } });
  const reader = res.body.getReader();
  while (!(await reader.read()).done);
  if (res.status !== 206) throw new Error(`the round trip's request got ${res.status}`);
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
  // nginx logs a request once it has answered it: the last few may still be on their way.
  await new Promise((r) => setTimeout(r, 100));
  const after = await countsNow();
  const ideal = c / (rtt / 1000);
  const busy = before.machine && after.machine ? (after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total) : null;
  return {
    concurrency: c,
    isDefault: !concurrency,
    filesPerSecond: FILES / s,
    ideal,
    ratio: FILES / s / ideal,
    // The scanner's own CPU per file (user + system), and the share of one core it used.
    cpuPerFileMs: (cpu.user + cpu.system) / 1000 / FILES,
    cpuShare: (cpu.user + cpu.system) / 1e6 / s,
    proxyCpuPerFileMs: (after.cpuMs - before.cpuMs) / FILES,
    nginxCpuPerFileMs: before.nginxMs == null ? null : (after.nginxMs - before.nginxMs) / FILES,
    // How busy all the machine's cores were (everything running on it, not only this bench).
    machineBusy: busy,
    // The share of the scan's time the scanner, the proxy and nginx each spent runnable but
    // waiting for a core (what other work on the machine takes from them).
    mainRan: after.ran == null ? null : (after.ran - before.ran) / 1000 / s,
    waiting: after.waited.map((w, i) => (w == null || before.waited[i] == null ? null : (w - before.waited[i]) / 1000 / s)),
    requestsPerFile: (after.requests - before.requests) / FILES,
    connectionsPerFile: (after.connections - before.connections) / FILES,
  };
}

await run(16); // warm-up: connections, JIT
const rows = [];
for (const c of [16, undefined, 128]) rows.push(await run(c));
server.disconnect();
await nginx.stop();

// The same files in a bucket of s3s-fs (keys: every request's signature verified) behind a proxy
// of the same delay, scanned as s3://bench/ at the default concurrency: the listing (ListObjectsV2,
// 1,000 objects a page) gives each object's size, so each file is one signed request.
const KEYS = { accessKeyId: 'AKIATSFILEBLOOMBENCH', secretAccessKey: 'tsfile-bloom-bench-secret' };
let s3Row = null;
if (S3S) {
  mkdirSync(join(data, 'store/bench'), { recursive: true });
  for (let i = 0; i < FILES; i++) writeFileSync(join(data, 'store/bench', `f${i}.tsfile`), bodyOf(i));
  const s3s = await startS3s(join(data, 'store'), KEYS);
  const s3Proxy = await startProxy(s3s.origin);
  const s3 = { ...KEYS, endpoint: s3Proxy.base, region: 'us-east-1' };
  const scanS3 = async () => {
    const p0 = await s3Proxy.now();
    const s0 = ticksMs(s3s.pid);
    const m0 = machine();
    const ran0 = schedMs(process.pid, 0);
    const waited0 = waitedMs(process.pid);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const summary = await scanTsFiles(['s3://bench/'], { s3, paths: ['root.sg1.d1.s1'] }).summary;
    const sec = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    if (summary.ok !== FILES) throw new Error(`s3://: ${summary.ok} of ${FILES} objects opened: ${JSON.stringify(summary.errorsByKind)}`);
    const p1 = await s3Proxy.now();
    const m1 = machine();
    return {
      filesPerSecond: FILES / sec,
      cpuPerFileMs: (cpu.user + cpu.system) / 1000 / FILES,
      proxyCpuPerFileMs: (p1.cpuMs - p0.cpuMs) / FILES,
      s3sCpuPerFileMs: s0 == null ? null : (ticksMs(s3s.pid) - s0) / FILES,
      connectionsPerFile: (p1.connections - p0.connections) / FILES,
      machineBusy: m0 && m1 ? (m1.busy - m0.busy) / (m1.total - m0.total) : null,
      mainRan: ran0 == null ? null : (schedMs(process.pid, 0) - ran0) / 1000 / sec,
      waiting: [waited0 == null ? null : (waitedMs(process.pid) - waited0) / 1000 / sec],
    };
  };
  await scanS3(); // warm-up: connections, JIT, the signing key
  s3Row = await scanS3();
  s3Row.ratio = s3Row.filesPerSecond / (REMOTE_CONCURRENCY / (rtt / 1000));
  // s3s-fs's own answer time under the scan's load: every object once, signed ranged GETs
  // straight to it (no proxy), REMOTE_CONCURRENCY at a time; median.
  const sign = await NODE_S3.signer(KEYS, s3.region);
  const times = [];
  let next = 0;
  await Promise.all(Array.from({ length: REMOTE_CONCURRENCY }, async () => {
    while (next < FILES) {
      const url = `${s3s.origin}/bench/f${next++}.tsfile`;
      const t0 = performance.now();
      const res = await NODE_S3.fetch(url, { headers: sign(url, { range: `bytes=-${TAIL_WINDOW}` }) });
      const reader = res.body.getReader();
      while (!(await reader.read()).done);
      times.push(performance.now() - t0);
    }
  }));
  times.sort((a, b) => a - b);
  s3Row.serverMs = times[times.length >> 1];
  s3Row.serverIdeal = REMOTE_CONCURRENCY / ((rtt + s3Row.serverMs) / 1000);
  s3Proxy.server.disconnect();
  await s3s.stop();
}
rmSync(data, { recursive: true, force: true });

const fmt = (x, d = 0) => x.toLocaleString('en', { maximumFractionDigits: d, minimumFractionDigits: d });
const ms = (x) => (x == null ? 'n/a' : `${x.toFixed(2)} ms`);
const pct = (x) => (x == null ? 'n/a' : `${(x * 100).toFixed(0)} %`);
const d = rows[1];
const cores = availableParallelism();
// What the CPU allows at the default: the scanner reads URLs on one thread (one core at most),
// and the three processes share the cores.
const oneThread = 1000 / d.cpuPerFileMs;
const allThree = d.nginxCpuPerFileMs == null ? null : (cores * 1000) / (d.cpuPerFileMs + d.proxyCpuPerFileMs + d.nginxCpuPerFileMs);
// What held the default run, from its own figures: the scanner's main thread ran, waited
// for a core (run-queue wait), or was idle — waiting on the network, which is the latency bound.
function bound(r) {
  const [waiting] = r.waiting;
  if (waiting == null || r.mainRan == null) return '';
  const idle = Math.max(0, 1 - r.mainRan - waiting);
  const held = idle >= 0.2 ? 'the round trips (its thread was idle, waiting on them, much of the run)' : waiting >= 0.1 ? 'the CPU: its thread was runnable nearly all the run and got a core only part of it' : 'its own CPU';
  return ` In that run the scanner's thread ran ${pct(r.mainRan)} of the time, waited for a core ${pct(waiting)} and was idle ${pct(idle)}: what held it was ${held}.`;
}
const md = `
## Remote scan bound by latency

${FILES.toLocaleString('en')} small real TsFiles (the C++ and Java writers') on nginx, behind a loopback proxy (a Node process of its
own relaying TCP) that holds every request ${DELAY_MS} ms on its way to nginx (\`scripts/bench-remote.mjs\`); round trip through it,
measured in the same run with the scan's own transport and request (node:http, \`Range: bytes=-${TAIL_WINDOW}\`, one at a
time): ${rtt.toFixed(1)} ms (median of 40). The machine has ${cores} cores for the scanner, the proxy and nginx together (and whatever
else runs on it: "machine busy" is all of its cores' time). A file's open is one request and one round trip: the suffix range
asks for the tail window, which holds each of these files whole (all are under 4 KiB); a file larger than the window needs its
head too — in the same round trip once its origin has shown such a file (docs/remote.md). The ideal is concurrency ÷
round trip. Requests are nginx's (its access log), connections the proxy's (accepted); CPU per file is user + system time;
"waiting for a core" is the share of the run each process's main thread spent runnable but not running (Linux's run-queue wait).

| concurrency | files/s | ideal | ratio | requests/file | connections/file | scanner CPU/file | scanner's core | proxy CPU/file | nginx CPU/file | machine busy | waiting for a core: scanner / proxy / nginx |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${rows.map((r) => `| ${r.concurrency}${r.isDefault ? ' (default)' : ''} | ${fmt(r.filesPerSecond)} | ${fmt(r.ideal)} | ${r.ratio.toFixed(2)}× | ${r.requestsPerFile.toFixed(2)} | ${r.connectionsPerFile.toFixed(3)} | ${ms(r.cpuPerFileMs)} | ${pct(r.cpuShare)} | ${ms(r.proxyCpuPerFileMs)} | ${ms(r.nginxCpuPerFileMs)} | ${pct(r.machineBusy)} | ${r.waiting.map(pct).join(' / ')} |`).join('\n')}

Goals (issue 26): at the default, ≥ 0.8× the ideal — ${d.ratio >= 0.8 ? 'holds' : 'misses'} (${d.ratio.toFixed(2)}×) — and ≥ 2,000 files/s — ${d.filesPerSecond >= 2000 ? 'holds' : 'misses'} (${fmt(d.filesPerSecond)}).
At the default the CPU allows ${fmt(oneThread)} files/s to the scanner's one thread${allThree == null ? '' : ` and ${fmt(allThree)} files/s to the three processes on ${cores} cores with nothing else running`}.${bound(d)}
${s3Row == null ? '\nThe s3:// row was skipped: s3s-fs is not installed (`scripts/setup.sh --s3`).\n' : `
The same ${FILES.toLocaleString('en')} files as a bucket of s3s-fs (crates.io; it verifies every request's AWS Signature V4) behind a proxy of the same ${DELAY_MS} ms, scanned as
\`s3://bench/\` at the default concurrency (${REMOTE_CONCURRENCY}): the listing gives each object's size, so each file is one signed request.
In Node the requests are signed by aws4 and sent over node:http (js/node-s3.js). The ratio is against the same ideal. s3s-fs answers
${REMOTE_CONCURRENCY} signed ranged GETs at a time, straight (no proxy), in ${s3Row.serverMs.toFixed(1)} ms (median, measured in the same run): with that added to the round
trip the ideal is ${fmt(s3Row.serverIdeal)} files/s, and the scan ran at ${(s3Row.filesPerSecond / s3Row.serverIdeal).toFixed(2)}× it.

| target | files/s | ratio | connections/file | scanner CPU/file | proxy CPU/file | s3s-fs CPU/file | machine busy |
|---|---:|---:|---:|---:|---:|---:|---:|
| \`s3://bench/\` (default) | ${fmt(s3Row.filesPerSecond)} | ${s3Row.ratio.toFixed(2)}× | ${s3Row.connectionsPerFile.toFixed(3)} | ${ms(s3Row.cpuPerFileMs)} | ${ms(s3Row.proxyCpuPerFileMs)} | ${ms(s3Row.s3sCpuPerFileMs)} | ${pct(s3Row.machineBusy)} |
${bound(s3Row)}
`}`;
console.log(md);
if (MD) writeFileSync(MD, md);

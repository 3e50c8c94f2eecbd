#!/usr/bin/env node
// The page in headless Chromium (Debian's /usr/bin/chromium through playwright-core), measured
// in the page with performance.now(). Reported, never asserted. Needs dist/site (scripts/build.sh).
//
//   node scripts/bench-browser.mjs [--json] [--out=FILE] [--only=heatmap|folder]
//        [--capacity=1300000] [--reps=15] [--files=2000] [--rounds=5] [--report=BENCHMARKS.md]
//
// 1. Heat-map: the page builds its synthetic demo filter (`?synthetic=CAPACITY`: Java's sizing
//    at 5 %, 1,300,000 → 8,105,792 bits), then for each zoom level (fit × 1, 3, 20, 400) the
//    heat-map's synchronous draw() (paint into ImageData + putImageData + overlays) is timed
//    `reps` times; the median and max per zoom are reported. A full-canvas redraw of the
//    1280 × 900 viewport at device pixel ratio 1.
// 2. Folder scan: `files` small TsFiles (copies of the C++ writer's fixtures up to 4 KiB, in
//    IoTDB's layout, in a temporary directory) picked through a folder input, so they are
//    disk-backed Files as a user's are. In the same page, alternating, `rounds` times after a
//    warm-up: the floor — a bare loop reading one 4 KiB tail slice per file, 64 in flight — the
//    same loop reading each file's head and tail (the route of 0.2), and the folder view's scan
//    of those Files for one path (fleet.scanFiles: the worker, the records, the table), from the
//    call until the table is complete. Then `tsfile-bloom scan` (the CLI) over the same folder,
//    whole runs and its own in-loop figure. Medians, in files per second.
//    --report replaces the "Folder scan in headless Chromium" section of that file.
//    --base=DIR: the same rounds in a second page served from DIR/dist/site (another tree, built),
//    alternating with this tree's page (the order flipped each round), so that both trees' floors
//    and scans are measured under the same load; each round's figures are printed.
import { chromium } from 'playwright-core';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFleet, VALID_FIXTURES } from '../tests/js/fleet.mjs';
import { folderSection } from './bench-report.mjs';
import { startServer } from './serve.mjs';

const CLI = fileURLToPath(new URL('../js/cli.js', import.meta.url));

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const a = args.find((x) => x === `--${name}` || x.startsWith(`--${name}=`));
  if (a === undefined) return dflt;
  return a.includes('=') ? a.slice(a.indexOf('=') + 1) : true;
};
const CAPACITY = Number(opt('capacity', 1_300_000));
const REPS = Number(opt('reps', 15));
const OUT = opt('out');
const JSON_OUT = opt('json') === true;
const ONLY = opt('only');
const FILES = Number(opt('files', 2000));
const ROUNDS = Number(opt('rounds', 5));
const REPORT = opt('report');
const BASE = opt('base');
const SCAN_PATH = 'root.sg1.d1.s1';
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (!existsSync('/usr/bin/chromium')) {
  console.error('bench-browser: /usr/bin/chromium missing (bash scripts/setup.sh --browser); skipped');
  process.exit(0);
}

const server = await startServer({ port: 0, host: '127.0.0.1' });
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
let result = {};
try {
  if (ONLY !== 'folder') result = await heatmap();
  if (ONLY !== 'heatmap') result.folder = await folderScan();
  result.chromium = browser.version();
} finally {
  await browser.close();
  await new Promise((r) => server.close(r));
}

async function heatmap() {
  let result;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const t0 = Date.now();
  await page.goto(`${origin}/?synthetic=${CAPACITY}`);
  await page.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 120000 });
  const buildMs = Date.now() - t0;
  result = await page.evaluate((reps) => {
    const map = globalThis.inspector.map;
    const zooms = {};
    for (const f of [1, 3, 20, 400]) {
      const times = [];
      for (let i = 0; i < reps; i++) {
        map.fit();
        map.zoomBy(f);
        const t = performance.now();
        map.draw();
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      zooms[`x${f}`] = { median: times[times.length >> 1], max: times[times.length - 1], min: times[0] };
    }
    return { bitCount: map.bitCount, canvas: [map.canvas.width, map.canvas.height], dpr: devicePixelRatio, zooms };
  }, REPS);
  result.pageReadyMs = buildMs;
  result.capacity = CAPACITY;
  result.reps = REPS;
  await context.close();
  return result;
}

async function folderScan() {
  const dir = mkdtempSync(join(tmpdir(), 'tsfile-bloom-bench-folder-'));
  try {
    const pool = VALID_FIXTURES.filter((f) => f.size <= 4096 && !f.name.startsWith('java/') && !f.name.startsWith('synthetic'));
    const entries = buildFleet(join(dir, 'fleet'), { count: FILES, pool, hostile: false });
    const meanSize = entries.reduce((a, e) => a + e.source.size, 0) / entries.length;
    console.error(`[bench-browser] folder: ${entries.length} files (${pool.length} fixtures, mean ${meanSize.toFixed(0)} B)`);
    const pages = [await folderPage(origin, dir, entries.length)];
    let baseServer = null;
    if (BASE) {
      baseServer = await startServer({ port: 0, host: '127.0.0.1', root: join(BASE, 'dist/site/') });
      pages.push(await folderPage(`http://127.0.0.1:${baseServer.address().port}`, dir, entries.length));
    }
    const runs = { floor: [], headTail: [], scan: [] };
    const baseRuns = { floor: [], headTail: [], scan: [] };
    let last = null;
    try {
      for (let round = -1; round < ROUNDS; round++) {
        for (const at of BASE && round % 2 === 0 ? [1, 0] : pages.map((_, at) => at)) {
          const r = await folderRound(pages[at].page, entries.length);
          if (at === 0) last = r;
          if (round < 0) continue;
          const into = at === 0 ? runs : baseRuns;
          into.floor.push(r.floor.ms);
          into.headTail.push(r.both.ms);
          into.scan.push(r.scanMs);
        }
        if (BASE && round >= 0) {
          const [a, b] = [runs, baseRuns].map((x) => `floor ${x.floor[round].toFixed(0)} ms, scan ${x.scan[round].toFixed(0)} ms (${(x.floor[round] / x.scan[round]).toFixed(2)}×)`);
          console.error(`[bench-browser] round ${round + 1}: this tree ${a}; base ${b}; scan this/base ${(runs.scan[round] / baseRuns.scan[round]).toFixed(2)}`);
        }
      }
    } finally {
      for (const p of pages) await p.context.close();
      if (baseServer) await new Promise((r) => baseServer.close(r));
    }
    // The CLI on the same folder: whole runs (process start included) and its in-loop figure.
    const cli = [];
    let cliSummary = null;
    for (let round = -1; round < ROUNDS; round++) {
      const t0 = performance.now();
      const out = spawnSync(process.execPath, [CLI, 'scan', join(dir, 'fleet'), '--path', SCAN_PATH, '--json'], { encoding: 'utf8', maxBuffer: 1 << 26 });
      const ms = performance.now() - t0;
      if (out.status !== 0 && out.status !== 1) throw new Error(`scan exited ${out.status}: ${out.stderr}`);
      cliSummary = JSON.parse(out.stdout.trimEnd().split('\n').pop()).summary;
      if (round >= 0) cli.push(ms);
    }
    const f = {
      path: SCAN_PATH,
      files: entries.length,
      meanSize,
      rounds: ROUNDS,
      floorMs: median(runs.floor),
      headTailMs: median(runs.headTail),
      scanMs: median(runs.scan),
      runs,
      cliMs: median(cli),
      cliRuns: cli,
      cliInLoopFilesPerSecond: cliSummary.files_per_second,
      bytesPerFile: last.summary.bytesRead / entries.length,
      skippable: last.summary.paths[0].skippable,
      load: loadavg().map((x) => x.toFixed(2)),
    };
    f.ratio = f.floorMs / f.scanMs;
    if (BASE) {
      const perRound = (x) => x.scan.map((ms, i) => x.floor[i] / ms);
      f.roundRatios = perRound(runs);
      f.base = { dir: BASE, runs: baseRuns, ratio: median(baseRuns.floor) / median(baseRuns.scan), roundRatios: perRound(baseRuns), scanThisOverBase: median(runs.scan.map((ms, i) => ms / baseRuns.scan[i])) };
    }
    return f;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A page of the site at `origin`, the folder's Files picked: `{context, page}`. */
async function folderPage(origin, dir, count) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  // A folder input of the benchmark's own: the page's clears its FileList once it has scanned.
  await page.evaluate(() => {
    const input = Object.assign(document.createElement('input'), { type: 'file', id: 'bench-folder', multiple: true });
    input.webkitdirectory = true;
    document.body.append(input);
  });
  await page.setInputFiles('#bench-folder', join(dir, 'fleet'));
  const picked = await page.evaluate((path) => {
    globalThis.__files = [...document.getElementById('bench-folder').files].filter((f) => f.name.endsWith('.tsfile'));
    document.getElementById('fleet-paths').value = path;
    document.getElementById('fleet-audit').checked = false;
    return globalThis.__files.length;
  }, SCAN_PATH);
  if (picked !== count) throw new Error(`the page picked ${picked} of ${count} files`);
  return { context, page };
}

/** One round in `page`: the floor, the head-and-tail loop, then the folder view's scan. */
async function folderRound(page, count) {
  const r = await page.evaluate(async () => {
    const files = globalThis.__files;
    // The floor: one 4 KiB tail slice per file, 64 in flight (for a small file, all of it).
    const loop = async (read) => {
      let next = 0;
      let bytes = 0;
      const t0 = performance.now();
      const lane = async () => {
        while (next < files.length) bytes += await read(files[next++]);
      };
      await Promise.all(Array.from({ length: 64 }, lane));
      return { ms: performance.now() - t0, bytes };
    };
    const tail = (f) => f.slice(Math.max(0, f.size - 4096)).arrayBuffer().then((b) => b.byteLength);
    const headTail = (f) => Promise.all([f.slice(0, 12).arrayBuffer(), f.slice(Math.max(0, f.size - 4096)).arrayBuffer()]).then(([a, b]) => a.byteLength + b.byteLength);
    const floor = await loop(tail);
    const both = await loop(headTail);
    const t0 = performance.now();
    await globalThis.inspector.fleet.scanFiles(files, { name: 'bench' });
    const scanMs = performance.now() - t0;
    const state = globalThis.inspector.fleet.state;
    return { floor, both, scanMs, rows: state.rows, summary: state.summary, status: document.querySelector('[data-testid=fleet-status]').textContent };
  });
  if (r.rows !== count || r.summary?.files !== count) throw new Error(`the scan listed ${r.rows} of ${count} files: ${r.status}`);
  return r;
}

if (OUT) writeFileSync(OUT, JSON.stringify(result, null, 2));
if (JSON_OUT) console.log(JSON.stringify(result, null, 2));
else {
  if (result.zooms) {
    console.log(`\n## Heat-map redraw, ${result.bitCount.toLocaleString('en')}-bit filter, Chromium ${result.chromium}, canvas ${result.canvas.join(' × ')} px\n`);
    console.log('| zoom (× fit) | median draw() | max draw() |');
    console.log('|---:|---:|---:|');
    for (const [z, r] of Object.entries(result.zooms)) console.log(`| ${z.slice(1)} | ${r.median.toFixed(1)} ms | ${r.max.toFixed(1)} ms |`);
    console.log(`\n(page ready with the synthetic filter after ${result.pageReadyMs} ms)`);
  }
  if (result.folder) console.log(`\n${folderSection(result.folder, result.chromium)}`);
  const b = result.folder?.base;
  if (b) {
    const rounds = (xs) => xs.map((x) => x.toFixed(2)).join(', ');
    console.log(`Paired with ${b.dir} (its page and this one alternating, their order flipped each round): this tree ${result.folder.ratio.toFixed(2)}× the floor (rounds ${rounds(result.folder.roundRatios)}), the base ${b.ratio.toFixed(2)}× (rounds ${rounds(b.roundRatios)}); this tree's scan takes ${b.scanThisOverBase.toFixed(2)}× the base's (median per round).`);
  }
}
if (REPORT && result.folder) {
  // Replace the section (up to the next "## " heading) or insert it before "## Fleet scan".
  const text = existsSync(REPORT) ? readFileSync(REPORT, 'utf8') : '';
  const section = folderSection(result.folder, result.chromium);
  const start = text.indexOf('## Folder scan in headless Chromium');
  let updated;
  if (start >= 0) {
    const next = text.indexOf('\n## ', start + 3);
    updated = text.slice(0, start) + section + (next < 0 ? '' : text.slice(next + 1));
  } else {
    const at = text.indexOf('## Fleet scan');
    updated = at < 0 ? `${text.trimEnd()}\n\n${section}` : `${text.slice(0, at)}${section}\n${text.slice(at)}`;
  }
  writeFileSync(REPORT, updated);
  console.error(`[bench-browser] wrote the folder section into ${REPORT}`);
}

// The boundary between wasm and JS, measured against its goals in one run (used by
// scripts/bench.mjs; standalone: `node scripts/bench-boundary.mjs`):
//   series()           <= 0.5 µs per series on a 100,000-series file, and <= 0.35 × open + loadIndex
//   TsFile.probe()     <= 2 µs per call
//   BloomFilter.probe() <= 2 µs per call
//   tsfile-bloom inspect --json of the 100,000-series file <= 0.4 s wall, process start included
// The file is bench-data/series_100k.tsfile (scripts/gen-bench-fixtures.py, the C++ writer).

import { BloomFilter, openTsFile } from 'tsfile-bloom';
import { spawnSync } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../js/cli.js', import.meta.url));

export const GOALS = { seriesNsPerSeries: 500, seriesRatio: 0.35, probeNs: 2000, cliMs: 400 };

const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
const now = () => Number(process.hrtime.bigint());

export async function boundary({ fixtures = 'bench-data', runs = 7 } = {}) {
  const path = `${fixtures}/series_100k.tsfile`;
  if (!existsSync(path)) return null;
  // open + loadIndex, and the first series() after it (the listing is built once per file).
  const openNs = [];
  const seriesNs = [];
  let count = 0;
  for (let i = 0; i < runs + 1; i++) {
    const t0 = now();
    const t = await openTsFile(path);
    await t.loadIndex();
    const t1 = now();
    const s = await t.series();
    const t2 = now();
    count = s.length;
    await t.close();
    if (i > 0) {
      openNs.push(t1 - t0);
      seriesNs.push(t2 - t1);
    }
  }
  const open = median(openNs);
  const series = median(seriesNs);

  // One TsFile.probe() per call: indexed paths and paths that are not in the file.
  const t = await openTsFile(path);
  await t.loadIndex();
  const listed = (await t.series()).slice(0, 500).map((s) => s.path);
  const paths = [...listed, ...listed.map((p) => `${p}_absent`)];
  // 20 warm-up passes and 41 samples: with 3 and 15 the median still held the JIT's tier-up
  // and moved by ±20 % from run to run (BENCHMARKS.md, issue 23's paired run).
  const perCall = (fn) => {
    for (let i = 0; i < 20; i++) for (const p of paths) fn(p);
    const xs = [];
    for (let r = 0; r < 41; r++) {
      const t0 = now();
      for (const p of paths) fn(p);
      xs.push((now() - t0) / paths.length);
    }
    return median(xs);
  };
  let sink = 0;
  const fileProbe = perCall((p) => {
    sink += t.probe(p).probes.length;
  });
  const filter = t.bloomFilter;
  const filterProbe = perCall((p) => {
    sink += filter.probe(p).probes.length;
  });
  const staged = (() => {
    for (let i = 0; i < 20; i++) sink += t.probeMany(paths).length; // warm-up, as perCall's
    const xs = [];
    for (let r = 0; r < 41; r++) {
      const t0 = now();
      sink += t.probeMany(paths).length;
      xs.push((now() - t0) / paths.length);
    }
    return median(xs);
  })();
  await t.close();

  // The CLI as a script runs it: process start, open, index, listing, report, JSON to a file.
  const cliMs = [];
  for (let i = 0; i < 5; i++) {
    const out = openSync('/dev/null', 'w');
    const t0 = now();
    const r = spawnSync(process.execPath, [CLI, 'inspect', path, '--json'], { stdio: ['ignore', out, 'inherit'] });
    cliMs.push((now() - t0) / 1e6);
    closeSync(out);
    if (r.status !== 0) throw new Error(`inspect --json exited ${r.status}`);
  }
  const startMs = [];
  for (let i = 0; i < 5; i++) {
    const t0 = now();
    spawnSync(process.execPath, ['-e', '0']);
    startMs.push((now() - t0) / 1e6);
  }

  const result = {
    series: count,
    openLoadIndexMs: open / 1e6,
    seriesMs: series / 1e6,
    seriesNsPerSeries: series / count,
    seriesRatio: series / open,
    fileProbeNs: fileProbe,
    filterProbeNs: filterProbe,
    probeManyNsPerPath: staged,
    cliInspectJsonMs: median(cliMs),
    nodeStartMs: median(startMs),
    sink,
  };
  result.goals = {
    series: result.seriesNsPerSeries <= GOALS.seriesNsPerSeries && result.seriesRatio <= GOALS.seriesRatio,
    fileProbe: result.fileProbeNs <= GOALS.probeNs,
    filterProbe: result.filterProbeNs <= GOALS.probeNs,
    cli: result.cliInspectJsonMs <= GOALS.cliMs,
  };
  return result;
}

/** The figures as Markdown rows: what, measured, goal, met. */
export function boundaryRows(r) {
  const yes = (b) => (b ? 'yes' : '**no**');
  return [
    `| \`series()\` per series (${r.series.toLocaleString('en')} series; ${r.seriesMs.toFixed(1)} ms in all) | ${r.seriesNsPerSeries.toFixed(0)} ns | ≤ 500 ns | ${yes(r.seriesNsPerSeries <= GOALS.seriesNsPerSeries)} |`,
    `| \`series()\` / (open + \`loadIndex()\` = ${r.openLoadIndexMs.toFixed(1)} ms) | ${r.seriesRatio.toFixed(3)}× | ≤ 0.35× | ${yes(r.seriesRatio <= GOALS.seriesRatio)} |`,
    `| one \`TsFile.probe()\` call | ${(r.fileProbeNs / 1000).toFixed(2)} µs | ≤ 2 µs | ${yes(r.goals.fileProbe)} |`,
    `| one \`BloomFilter.probe()\` call | ${(r.filterProbeNs / 1000).toFixed(2)} µs | ≤ 2 µs | ${yes(r.goals.filterProbe)} |`,
    `| (for scale) \`TsFile.probeMany()\` per path | ${(r.probeManyNsPerPath / 1000).toFixed(2)} µs | — | — |`,
    `| \`tsfile-bloom inspect --json\` wall, process start included (node alone starts in ${r.nodeStartMs.toFixed(0)} ms) | ${r.cliInspectJsonMs.toFixed(0)} ms | ≤ 400 ms | ${yes(r.goals.cli)} |`,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await boundary();
  if (!r) {
    console.error('bench-data/series_100k.tsfile is missing: run .venv/bin/python scripts/gen-bench-fixtures.py');
    process.exit(2);
  }
  console.log(['| what | measured | goal | met |', '|---|---|---|---|', ...boundaryRows(r)].join('\n'));
}

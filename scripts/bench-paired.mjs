#!/usr/bin/env node
// The figures users feel, paired against a base commit (issue 40, item 8): this tree's package
// and REF's, each measured by this same script in its own process, alternately (A B, B A, …),
// one group of figures at a time (a few seconds apart), so that the bursts of load on this
// shared machine reach both alike. Per side: the median of its rounds;
// per figure: the ratio this / base of each pair, and their median. Speed is reported against
// the limits, never asserted: the script fails only on errors (a build, a crash, or the
// two packages answering differently, which would make the ratios compare different work).
//
//   node scripts/bench-paired.mjs --vs=REF [--rounds=7] [--files=10000] [--md=FILE]
//
// REF is checked out in a git worktree under target/bench/ and built there (its own
// scripts/build.sh, with this tree's node_modules); a worktree already built at that commit is
// reused. Needs bench-data/series_100k.tsfile (scripts/gen-bench-fixtures.py) and a built dist/.
// Only the public API both versions export is used (series() + timeColumns(), probeMany(),
// probe(), scanTsFiles()).
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const opt = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
const FIXTURE = join(ROOT, 'bench-data/series_100k.tsfile');
const SCAN_PATH = 'root.sg1.d1.s1';
const BATCH = 10_000;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const now = () => Number(process.hrtime.bigint());

// ---------------------------------------------------------------------------------------
// One side, one group of figures (a child process): the package at --measure=DIR, JSON on stdout.

/** open + loadIndex(), then the listing (series() + timeColumns()) of the same file: medians in ms. */
async function listing(api, _, runs = 7) {
  const load = [];
  const list = [];
  let counts;
  for (let i = 0; i <= runs; i++) {
    const t0 = now();
    const t = await api.openTsFile(FIXTURE);
    await t.loadIndex();
    const t1 = now();
    const series = await t.series();
    const time = await t.timeColumns();
    const t2 = now();
    await t.close();
    counts = { series: series.length, timeColumns: time.length };
    if (i > 0) {
      load.push((t1 - t0) / 1e6);
      list.push((t2 - t1) / 1e6);
    }
  }
  return { loadMs: median(load), listMs: median(list), ratio: median(list.map((l, i) => l / load[i])), counts };
}

/** ns per call of `fn()` (each call does `ops` operations): 20 warm-up calls, the median of 41. */
function perOp(fn, ops) {
  for (let i = 0; i < 20; i++) fn();
  const xs = [];
  for (let r = 0; r < 41; r++) {
    const t0 = now();
    fn();
    xs.push((now() - t0) / ops);
  }
  return median(xs);
}

/** How many of each verdict (what both sides must agree on). */
const tally = (results) => results.reduce((n, r) => ({ ...n, [r.verdict]: (n[r.verdict] ?? 0) + 1 }), {});

/** Batch verdicts (probeMany of 10,000 paths, half indexed) and single probe() calls, after loadIndex(). */
async function probes(api) {
  const t = await api.openTsFile(FIXTURE);
  await t.loadIndex();
  const listed = (await t.series()).filter((_, i) => i % 20 === 0).slice(0, BATCH / 2).map((s) => s.path);
  const batch = [...listed, ...listed.map((p) => `${p}_absent`)];
  const single = batch.filter((_, i) => i % 10 === 0);
  const out = {
    batchNsPerPath: perOp(() => t.probeMany(batch), batch.length),
    probeNs: perOp(() => single.forEach((p) => t.probe(p)), single.length),
    batchVerdicts: tally(t.probeMany(batch)),
    probeVerdicts: tally(single.map((p) => t.probe(p))),
  };
  await t.close();
  return out;
}

/**
 * A scan of the fleet through scanTsFiles (default concurrency), two ways a round, alternately:
 * awaiting only its `summary` (no record is handed on: the workers post none) and iterating its
 * records, then its summary (what a caller that reads the records pays). One warm-up round, the
 * median of 3 of each in ms.
 */
async function fleetScan(api, fleet) {
  const ms = { summary: [], iterate: [] };
  let facts;
  for (let i = 0; i < 4; i++) {
    for (const how of i % 2 ? ['iterate', 'summary'] : ['summary', 'iterate']) {
      const t0 = now();
      const scan = api.scanTsFiles([fleet], { paths: [SCAN_PATH] });
      let records = 0;
      if (how === 'iterate') for await (const r of scan) records += r.ok ? 1 : 0;
      const s = await scan.summary;
      if (i > 0) ms[how].push((now() - t0) / 1e6);
      if (how === 'iterate' && records !== s.ok) throw new Error(`iterated ${records} ok records, the summary says ${s.ok}`);
      facts = { files: s.files, ok: s.ok, skippable: s.paths[0].skippable };
    }
  }
  return { scanMs: median(ms.summary), iterScanMs: median(ms.iterate), scan: facts };
}

const GROUPS = { listing, probes, scan: fleetScan };

async function measure(pkg, group, fleet) {
  const api = await import(pathToFileURL(join(pkg, 'js/node.js')).href);
  return GROUPS[group](api, fleet);
}

// ---------------------------------------------------------------------------------------
// The base: REF checked out and built under target/bench/, once per commit.

const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

function prepareBase(ref) {
  const commit = git('rev-parse', '--verify', `${ref}^{commit}`);
  const dir = join(ROOT, 'target/bench', `base-${commit.slice(0, 12)}`);
  const stamp = join(dir, '.bench-built');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === commit) return { commit, dir };
  console.error(`[bench-paired] checking out ${commit.slice(0, 12)} in ${dir} and building it`);
  rmSync(dir, { recursive: true, force: true });
  git('worktree', 'add', '--detach', '--force', dir, commit); // --force: re-adds a registered but deleted one
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'));
  if (existsSync(join(ROOT, '.tools/wasm-env'))) copyFileSync(join(ROOT, '.tools/wasm-env'), join(dir, '.tools/wasm-env'));
  // This tree's wasm artefacts make the base's build warm (the registry crates and std are the same).
  const warm = join(ROOT, 'target/wasm32-unknown-unknown');
  if (existsSync(warm)) cpSync(warm, join(dir, 'target/wasm32-unknown-unknown'), { recursive: true });
  execFileSync('bash', ['scripts/build.sh'], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
  writeFileSync(stamp, `${commit}\n`);
  return { commit, dir };
}

// ---------------------------------------------------------------------------------------
// The pairs.

/** One group of figures of one side, in its own process: the package at `pkg`, this script. */
function side(pkg, group, fleet) {
  const args = [fileURLToPath(import.meta.url), `--measure=${pkg}`, `--group=${group}`, `--fleet=${fleet}`];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`measuring ${group} of ${pkg} exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** What both packages must answer alike for their figures to compare the same work. */
const WORK = ['counts', 'batchVerdicts', 'probeVerdicts', 'scan'];

function checkSameWork(base, head) {
  for (const key of WORK) {
    const [a, b] = [JSON.stringify(base[key]), JSON.stringify(head[key])];
    if (a !== b) throw new Error(`the two packages answer differently (${key}): base ${a}, this tree ${b}`);
  }
}

function runPairs(baseDir, fleet, rounds, files) {
  const pairs = [];
  for (let round = 0; round <= rounds; round++) {
    const pair = { base: {}, head: {} };
    Object.keys(GROUPS).forEach((group, g) => {
      const order = (round + g) % 2 ? ['head', 'base'] : ['base', 'head'];
      for (const who of order) Object.assign(pair[who], side(who === 'head' ? ROOT : baseDir, group, fleet));
    });
    checkSameWork(pair.base, pair.head);
    if (pair.head.scan.ok !== files) throw new Error(`the scan read ${pair.head.scan.ok} of ${files} files`);
    console.error(`[bench-paired] round ${round}${round ? '' : ' (warm-up)'}: ${summaryLine(pair)}`);
    if (round > 0) pairs.push(pair); // round 0 warms the page cache and the disk
  }
  return pairs;
}

const summaryLine = ({ base, head }) => FIGURES.map((f) => `${f.key} ${f.fmt(base[f.key])} → ${f.fmt(head[f.key])}`).join(', ');

// ---------------------------------------------------------------------------------------
// The report.

const ms = (x) => `${x.toFixed(1)} ms`;
const us = (x) => `${(x / 1000).toFixed(2)} µs`;
const ns = (x) => `${x.toFixed(0)} ns`;
const times = (x) => `${x.toFixed(3)}×`;

/** The figures, each with the limit on this tree's figure (`own`) or on the paired ratio (`ratio`). */
const FIGURES = [
  { key: 'loadMs', what: 'open + `loadIndex()`, 100,000 series', fmt: ms },
  { key: 'listMs', what: 'the listing: `series()` + `timeColumns()`', fmt: ms },
  { key: 'ratio', what: 'listing / index load', fmt: times, own: 0.35, want: '≤ 0.35×' },
  { key: 'batchNsPerPath', what: `\`probeMany()\` of ${BATCH.toLocaleString('en')} paths, per path`, fmt: ns, ratio: 1.1, want: 'within 10 %' },
  { key: 'probeNs', what: 'one `probe()`', fmt: us, own: 3000, want: '≤ 3 µs' },
  { key: 'scanMs', what: 'one `scanTsFiles()` of the fleet, whole call, awaiting only its `summary`', fmt: ms, ratio: 1.1, want: 'within 10 %' },
  { key: 'iterScanMs', what: 'one `scanTsFiles()` of the fleet, whole call, iterating its records', fmt: ms, ratio: 1.1, want: 'within 10 %' },
];

function row(f, pairs) {
  const base = median(pairs.map((p) => p.base[f.key]));
  const head = median(pairs.map((p) => p.head[f.key]));
  const ratios = pairs.map((p) => p.head[f.key] / p.base[f.key]).sort((a, b) => a - b);
  const r = median(ratios);
  const holds = f.own != null ? head <= f.own : f.ratio != null ? r <= f.ratio : null;
  const verdict = holds === null ? '' : holds ? 'holds' : '**misses**';
  return `| ${f.what} | ${f.fmt(base)} | ${f.fmt(head)} | ${r.toFixed(2)}× (${ratios[0].toFixed(2)}–${ratios.at(-1).toFixed(2)}) | ${f.want ?? ''} | ${verdict} |`;
}

function section({ commit, pairs, files, load }) {
  const label = commit.slice(0, 7);
  return [
    `## Against ${label} (paired)`,
    '',
    `This tree's package and ${label}'s (checked out and built under target/bench/), each measured by \`scripts/bench-paired.mjs\` in its own Node process, alternately, one group of figures at a time (the listing, the probes, the scan; the order reversed from group to group and pair to pair), ${pairs.length} pair${pairs.length === 1 ? '' : 's'} after a warm-up pair; the medians of each side and the median of the ratio this / ${label} per pair (its range in brackets). The file is bench-data/series_100k.tsfile (C++ writer), opened and listed 7 times after a first time (each process's figure their median); \`probeMany()\` and \`probe()\` run after \`loadIndex()\` on ${BATCH.toLocaleString('en')} paths, half indexed (20 warm-up calls, the median of 41); the fleet is ${files.toLocaleString('en')} small TsFiles of the C++ writer in IoTDB's layout, scanned for \`${SCAN_PATH}\` with the default concurrency (${availableParallelism()} CPUs) three times each way after a first round (whole \`scanTsFiles\` calls, workers started each time: one awaiting only its \`summary\`, whose workers post no records, and one iterating every record first, alternately). Both packages answered alike in every pair (the listing's counts, the verdicts, the scan's summary). Load average ${load[0].join(' ')} before, ${load[1].join(' ')} after: on this shared 2-core machine a figure moves by up to 2× between runs, which the pairing, not the medians, evens out. Limits from issue 40, item 8; reported, never asserted.`,
    '',
    `| figure | ${label} | this tree | this / ${label} per pair | limit | |`,
    '|---|---:|---:|---:|---|---|',
    ...FIGURES.map((f) => row(f, pairs)),
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------

async function main() {
  if (opt('measure')) {
    process.stdout.write(JSON.stringify(await measure(opt('measure'), opt('group'), opt('fleet'))));
    return;
  }
  const ref = opt('vs');
  if (!ref) throw new Error('usage: node scripts/bench-paired.mjs --vs=REF [--rounds=7] [--files=10000] [--md=FILE]');
  if (!existsSync(FIXTURE)) throw new Error(`${FIXTURE} is missing: run .venv/bin/python scripts/gen-bench-fixtures.py`);
  const { commit, dir } = prepareBase(ref);
  const files = Number(opt('files', 10000));
  const tmp = mkdtempSync(join(tmpdir(), 'tsfile-bloom-bench-paired-'));
  try {
    const fleet = await makeFleet(join(tmp, 'fleet'), files);
    const load = [loadavg().map((x) => x.toFixed(2))];
    const pairs = runPairs(dir, fleet, Number(opt('rounds', 7)), files);
    load.push(loadavg().map((x) => x.toFixed(2)));
    const md = section({ commit, pairs, files, load });
    console.log(md);
    const out = opt('md');
    if (out) {
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, md);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Small files of the real C++ writer (up to the 4 KiB tail window), as scripts/bench-scan.mjs makes them. */
async function makeFleet(dir, count) {
  const { buildFleet, VALID_FIXTURES } = await import('../tests/js/fleet.mjs');
  const pool = VALID_FIXTURES.filter((f) => f.size <= 4096 && !f.name.startsWith('java/') && !f.name.startsWith('synthetic'));
  buildFleet(dir, { count, pool, hostile: false });
  return dir;
}

main().catch((e) => {
  console.error(`[bench-paired] ${e.message ?? e}`);
  process.exit(1);
});

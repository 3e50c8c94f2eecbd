// The Java baseline of `npm run bench`: Apache TsFile's own BloomFilter (contains, add) timed
// by scripts/java/BloomBench.java on the same workload as the JS rows, in the same run.
//
// The TsFile classes come from scripts/java/build-tsfile-java.sh: `.tools/java/` in the repo
// (tsfile-classes/, classpath.txt, tsfile-commit.txt), or the directory in TSFILE_JAVA_DIR.
// Without them (or without a JDK) the Java rows are skipped, and the reason is reported.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Runs BloomBench: a filter `getEmptyBloomFilter(fpp, capacity)` holding `paths[0..present)`,
 * `contains` timed over `batch`, and 1,000,000 `add`s of `paths` into a filter of `addCapacity`.
 * Returns the parsed JSON line plus `{dir}`, or `{skipped: reason}`.
 */
// contains() settles only after millions of calls under C2 (measured: median 1.1 µs/path after
// 10 warm-up rounds of 10,000, 0.26 µs after 300), so the warm-up is long.
// The JIT does not settle to the same code every time: in one session the best contains()
// round of a launch was 257 ns and, an hour later, 486 ns. So BloomBench runs in `launches`
// JVMs and each figure is taken from the launch where Java was fastest (the peer least
// flattering to us); every launch's best is reported too.
export function javaBaseline({ paths, batch, capacity, fpp, present, addCapacity, rounds = 30, warmup = 300, launches = 3 }) {
  const dir = resolve(process.env.TSFILE_JAVA_DIR ?? join(ROOT, '.tools/java'));
  const classes = join(dir, 'tsfile-classes');
  const cpFile = join(dir, 'classpath.txt');
  if (!existsSync(classes) || !existsSync(cpFile)) {
    return { skipped: `no Apache TsFile Java build in ${dir} (run scripts/java/build-tsfile-java.sh, or set TSFILE_JAVA_DIR)` };
  }
  for (const tool of ['java', 'javac']) {
    if (spawnSync(tool, ['-version'], { encoding: 'utf8' }).error) return { skipped: `${tool} is not on PATH` };
  }
  const commitFile = join(dir, 'tsfile-commit.txt');
  const commit = existsSync(commitFile) ? readFileSync(commitFile, 'utf8').trim() : 'unknown';
  const tmp = mkdtempSync(join(tmpdir(), 'tsfile-bloom-java-'));
  try {
    const cp = [readFileSync(cpFile, 'utf8').trim(), classes].filter(Boolean).join(':');
    const out = join(tmp, 'classes');
    const javac = spawnSync('javac', ['-nowarn', '-d', out, '-cp', cp, join(ROOT, 'scripts/java/BloomBench.java')], { encoding: 'utf8' });
    if (javac.status !== 0) return { skipped: `javac BloomBench.java failed: ${javac.stderr.trim().split('\n')[0]}` };
    writeFileSync(join(tmp, 'paths.txt'), `${paths.join('\n')}\n`);
    writeFileSync(join(tmp, 'batch.txt'), `${batch.join('\n')}\n`);
    const args = [
      '-Dfile.encoding=UTF-8', `-Dtsfile.commit=${commit}`, '-cp', `${cp}:${out}`, 'BloomBench',
      join(tmp, 'paths.txt'), String(capacity), String(fpp), String(present), String(batch.length), String(rounds), String(warmup),
      `--batch-file=${join(tmp, 'batch.txt')}`, `--add-capacity=${addCapacity}`,
    ];
    const results = [];
    for (let i = 0; i < launches; i++) {
      const run = spawnSync('java', args, { encoding: 'utf8', maxBuffer: 1 << 20 });
      if (run.status !== 0) return { skipped: `BloomBench failed: ${(run.stderr || run.stdout).trim().split('\n')[0]}` };
      results.push(JSON.parse(run.stdout.trim().split('\n').pop()));
    }
    const fastest = (key) => results.reduce((a, b) => (b[key] < a[key] ? b : a));
    const contains = fastest('containsBestNsPerPath');
    const add = fastest('addBestNsPerPath');
    return {
      ...contains,
      addNsPerPath: add.addNsPerPath,
      addBestNsPerPath: add.addBestNsPerPath,
      launches: results.map((r) => ({ containsBest: r.containsBestNsPerPath, addBest: r.addBestNsPerPath })),
      dir,
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

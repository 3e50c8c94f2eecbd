#!/usr/bin/env bash
# Benchmarks, one command: `npm run bench`.
#   1. set-up (npm packages, wasm toolchain, the PyPI tsfile venv) and the wasm build
#   2. the large fixtures, written by the real C++ writer (scripts/gen-bench-fixtures.py,
#      cached in bench-data/: reruns skip them)
#   2b. with --vs REF, this tree's package paired against REF's (scripts/bench-paired.mjs: REF
#      checked out and built under target/bench/, both measured alternately by one script)
#   3. native Rust: cargo bench --bench bloom (criterion: realistic paths, 1M build, opening,
#      index walk and audit, plus the per-operation groups)
#   4. the heat-map and the folder scan (against a bare read loop in the same page, and the
#      CLI on the same files) in headless Chromium (scripts/bench-browser.mjs), and the fleet scan
#      (scripts/bench-scan.mjs: scan vs PyPI tsfile's reader, and over nginx); repeat scans from a manifest
#      (scripts/bench-manifest.mjs: the first scan of 100,000 files against the rescan)
#   5. the wasm package through its JS API under Node (scripts/bench.mjs), which puts the
#      native figures of this same run next to the wasm ones and writes BENCHMARKS.md
#
#   scripts/bench.sh                  everything, writes BENCHMARKS.md
#   scripts/bench.sh --no-write       print the report, leave BENCHMARKS.md alone
#   scripts/bench.sh --quick          the realistic workloads only (skips the per-operation groups)
#   scripts/bench.sh --vs REF         also the paired comparison against commit REF (npm run bench -- --vs REF)
# Benchmarks are noisy on shared machines: the load average is recorded before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
write=1
quick=0
vs=
while [ $# -gt 0 ]; do
  case "$1" in
    --no-write) write=0 ;;
    --quick) quick=1 ;;
    --vs=?*) vs=${1#--vs=} ;;
    --vs) [ $# -ge 2 ] || { echo "bench.sh: --vs needs a commit" >&2; exit 2; }; vs=$2; shift ;;
    *) echo "bench.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
started=$(date +%s)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
bash scripts/setup.sh --python
bash scripts/build.sh
node scripts/check-size.mjs
export PATH="$HOME/.cargo/bin:$PATH"
mkdir -p target/bench
rm -f target/bench/paired.md # a section of an earlier run never stands in for this one's

echo "== fixtures: scripts/gen-bench-fixtures.py (cached in bench-data/)"
.venv/bin/python scripts/gen-bench-fixtures.py

paired=0
if [ -n "$vs" ]; then
  echo "== paired against $vs: node scripts/bench-paired.mjs (its package built under target/bench/)"
  node scripts/bench-paired.mjs --vs="$vs" --md=target/bench/paired.md || paired=$?
fi

echo "== machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(rustc --version), node $(node --version)"
echo "== load average before: $load_before"

# Only criterion results written from here on are used by bench.mjs.
since_ms=$(( $(date +%s) * 1000 ))
echo "== native: cargo bench --bench bloom"
filter=()
[ "$quick" = 1 ] && filter=(-- 'real|build|open|index')
# stderr carries the facts the benches print (bytes read, audit status) for the report.
cargo bench --quiet --bench bloom "${filter[@]}" 2> >(tee target/bench/native-facts.log >&2)

echo "== LevelDB false positives vs the formula: cargo run --example leveldb_fp"
mkdir -p target/bench
cargo run --quiet --release --example leveldb_fp > target/bench/leveldb_fp.md

echo "== browser: node scripts/bench-browser.mjs"
node scripts/bench-browser.mjs --out=target/bench/browser.json || echo "(browser benchmark failed; the report omits it)"

echo "== fleet scan: node scripts/bench-scan.mjs (10,000 files vs PyPI tsfile's reader; 1,000 over nginx)"
bash scripts/setup.sh --nginx
node scripts/bench-scan.mjs --md=target/bench/scan.md || echo "(fleet-scan benchmark failed; the report omits it)"

echo "== remote scan bound by latency: node scripts/bench-remote.mjs (2,000 objects behind a 25 ms proxy)"
node scripts/bench-remote.mjs --md=target/bench/remote.md || echo "(remote-scan benchmark failed; the report omits it)"

echo "== repeat scans from a manifest: node scripts/bench-manifest.mjs (100,000 files: first scan vs rescan)"
node scripts/bench-manifest.mjs --md=target/bench/manifest.md || echo "(manifest benchmark failed; the report omits it)"

echo "== wasm: node scripts/bench.mjs"
report=()
[ "$write" = 1 ] && report=(--report=BENCHMARKS.md)
only=()
[ "$quick" = 1 ] && only=(--only=workloads)
node scripts/bench.mjs --native=target/criterion --native-since="$since_ms" \
  --native-facts=target/bench/native-facts.log --browser=target/bench/browser.json \
  --load-before="$load_before" --started="$started" "${only[@]}" "${report[@]}"
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg); $(( $(date +%s) - started )) s in all"
if [ "$paired" != 0 ]; then
  echo "bench.sh: the paired comparison against $vs failed (above); the report omits it" >&2
  exit "$paired"
fi

#!/usr/bin/env bash
# Benchmarks: native Rust core (criterion, benches/bloom.rs), then the wasm package
# through its JS API (scripts/bench.mjs), which also prints the native figures of this
# run side by side with the wasm ones. A few minutes on a 2-core machine.
#   scripts/bench.sh            everything
#   scripts/bench.sh --json     JS results as JSON (criterion output unchanged)
# Benchmarks are noisy on shared machines: the load average is printed before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
export PATH="$HOME/.cargo/bin:$PATH"

echo "== machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(rustc --version), node $(node --version)"
echo "== load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# Only criterion results written from here on are used by bench.mjs.
since_ms=$(( $(date +%s) * 1000 ))
echo "== native: cargo bench --bench bloom"
cargo bench --quiet --bench bloom
echo
echo "== wasm: node scripts/bench.mjs"
node scripts/bench.mjs --native=target/criterion --native-since="$since_ms" "$@"
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

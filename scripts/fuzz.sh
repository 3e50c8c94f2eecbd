#!/usr/bin/env bash
# Runs every cargo-fuzz target for a bounded time, seeded from the real fixtures,
# and prints each target's executions. Needs the nightly toolchain (rustup).
#   scripts/fuzz.sh                 60 s per target
#   FUZZ_SECONDS=1800 scripts/fuzz.sh filter_decode tsfile_inspect
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
seconds=${FUZZ_SECONDS:-60}
# Stop a target at this many executions even if time remains (>= 10 million or >= 30 min).
runs=${FUZZ_RUNS:-10000000}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(filter_decode filter_roundtrip tsfile_metadata tsfile_inspect leveldb_table)
mkdir -p fuzz/logs
for t in "${targets[@]}"; do
  corpus=fuzz/corpus/$t
  mkdir -p "$corpus"
  case "$t" in
    # Small real files only: the 10k-series ones would slow every execution down.
    tsfile_*) find tests/fixtures/tsfile -name '*.tsfile' -size -24k -exec cp {} "$corpus/" \; ;;
    leveldb_*) cp tests/fixtures/leveldb/*.ldb "$corpus/" ;;
    filter_*)
      # Seeds: the spec's small filters, an empty one and a v3-style empty one.
      printf '\x00' > "$corpus/empty"
      printf '\x00\x80\x02\x05' > "$corpus/legacy_empty"
      printf '\x03\xff\x00\x01\x80\x08\x05' > "$corpus/short"
      printf '\x10\x0a\x00root.sg1.d1.s1\nroot.sg.d1.\xe6\xb8\xa9\xe5\xba\xa6' > "$corpus/paths" ;;
  esac
  echo "== $t ($seconds s)"
  cargo +nightly fuzz run "$t" "$corpus" -- -max_total_time="$seconds" -runs="$runs" -max_len=65536 -print_final_stats=1 2>&1 \
    | tee "fuzz/logs/$t.log" | grep -E 'stat::number_of_executed_units|stat::peak_rss_mb|ERROR|panicked|SUMMARY|Done [0-9]+ runs' || true
done

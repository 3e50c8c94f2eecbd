#!/usr/bin/env bash
# Every test: native Rust (unit, integration, property), the wasm package through
# its public npm API under Node (node:test), the packaged tarball as a consumer
# installs it, and the page in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser --nginx
bash scripts/build.sh
node scripts/check-size.mjs
export PATH="$HOME/.cargo/bin:$PATH"
# Formatting (rustfmt.toml); Route B's Debian toolchain may have no rustfmt.
if cargo fmt --version >/dev/null 2>&1; then
  cargo fmt --all --check
else
  echo "[test] rustfmt is not installed: Rust formatting not checked" >&2
fi
cargo test --all-targets
# Wasm-level tests of the exports, in Node (src/wasm/tests.rs).
wasm-pack test --node --mode no-install --lib
node --test tests/js/*.test.mjs
node --test tests/consumer/*.test.mjs
shopt -s nullglob
e2e=(tests/e2e/*.test.mjs)
if [ ${#e2e[@]} -gt 0 ]; then node --test --test-concurrency=1 "${e2e[@]}"; fi

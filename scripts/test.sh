#!/usr/bin/env bash
# Every test: native Rust (unit, integration, property), the wasm package through
# its public npm API under Node (node:test), the packaged tarball as a consumer
# installs it, and the page in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser --nginx --node-lts
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
# The same suites on Node's current LTS (setup.sh --node-lts), when this machine has a build of it.
if [ -x .tools/node-lts/bin/node ]; then
  echo "[test] the package tests again on Node $(.tools/node-lts/bin/node --version)" >&2
  .tools/node-lts/bin/node --test tests/js/*.test.mjs
else
  echo "[test] no Node LTS build in .tools/node-lts: the package tests ran on $(node --version) only" >&2
fi
node --test tests/consumer/*.test.mjs
shopt -s nullglob
e2e=(tests/e2e/*.test.mjs)
if [ ${#e2e[@]} -gt 0 ]; then node --test --test-concurrency=1 "${e2e[@]}"; fi

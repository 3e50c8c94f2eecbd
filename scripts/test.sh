#!/usr/bin/env bash
# Every test: native Rust (unit, integration, property), then the wasm package
# through its public npm API under Node (node:test).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
export PATH="$HOME/.cargo/bin:$PATH"
cargo test --all-targets
node --test tests/js/*.test.mjs

#!/usr/bin/env bash
# Every test: native Rust (unit, integration, property), the wasm package through
# its public npm API under Node (node:test), the packaged tarball as a consumer
# installs it, and the page in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser --nginx --node-lts --s3 --spark
bash scripts/build.sh
node scripts/check-size.mjs
export PATH="$HOME/.cargo/bin:$PATH"
# Formatting (rustfmt.toml); Route B's Debian toolchain may have no rustfmt.
if cargo fmt --version >/dev/null 2>&1; then
  cargo fmt --all --check
else
  echo "[test] rustfmt is not installed: Rust formatting not checked" >&2
fi
# Lints with warnings as errors; clippy's incompatible_msrv lint checks the code against
# Cargo.toml's rust-version. Also the wasm32 build of the workspace: every module's crate
# (crates/wasm-*, native builds of them are empty), and the core as a crate that depends on it
# gets it there.
if cargo clippy --version >/dev/null 2>&1; then
  cargo clippy --workspace --all-targets -- -D warnings
  if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    cargo clippy --workspace --target wasm32-unknown-unknown -- -D warnings
  fi
else
  echo "[test] clippy is not installed: lints not checked" >&2
fi
# The API docs: a broken or private intra-doc link fails.
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --workspace
# The native crates (Cargo.toml's default-members: the core, the hash crate, teach).
cargo test --all-targets
# --all-targets leaves the doc tests out (lib.rs, the modules' examples, both crates' READMEs).
cargo test --doc --workspace
# Both published crates as crates.io would get them: packaged, then built from the .crate files
# (the main crate against the packaged hash crate); tests/package.rs checks the file lists.
cargo package -p tsfile-bloom -p tsfile-bloom-hash --allow-dirty --quiet
# Wasm-level tests of the TsFile module's exports, in Node (crates/wasm-tsfile/src/tests.rs).
wasm-pack test --node --mode no-install crates/wasm-tsfile
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

#!/usr/bin/env bash
# Installs what the build and the tests need, idempotently; well under a second
# when everything is already there. Reaches only crates.io, npm, PyPI, Debian's
# apt and rustup's server (docs/toolchain.md).
#   scripts/setup.sh            Rust wasm32 target, wasm-bindgen-cli, wasm-pack, npm packages
#   scripts/setup.sh --browser  also Debian's Chromium (browser tests)
#   scripts/setup.sh --python   also the fixture writers' venv (PyPI tsfile, plyvel)
#   scripts/setup.sh --nginx    also Debian's nginx (the remote-source tests start their own)
#   scripts/setup.sh --node-lts also Node's current LTS next to the machine's Node (the package
#                               tests run on both), from npm's node-linux-<arch> package
#   scripts/setup.sh --s3       also s3s-fs from crates.io (an S3 protocol server the s3:// tests
#                               start on 127.0.0.1) into .tools/s3s
#   scripts/setup.sh --spark    also PySpark from PyPI (.tools/spark) and Debian's Java 17, for the
#                               README's Spark recipe (tests/consumer/spark.test.mjs)
set -euo pipefail
cd "$(dirname "$0")/.."
log() { echo "[setup] $*" >&2; }

want_browser=0
want_python=0
want_nginx=0
want_node_lts=0
want_s3=0
want_spark=0
for arg in "$@"; do
  case "$arg" in
    --browser) want_browser=1 ;;
    --python) want_python=1 ;;
    --nginx) want_nginx=1 ;;
    --node-lts) want_node_lts=1 ;;
    --s3) want_s3=1 ;;
    --spark) want_spark=1 ;;
    *) echo "unknown option $arg" >&2; exit 2 ;;
  esac
done

mkdir -p .tools
export PATH="$HOME/.cargo/bin:$PATH"

# apt on a fresh Debian machine: another apt-get (unattended-upgrades, say) may hold the
# dpkg lock for minutes; wait for it instead of failing. Root runs apt-get directly.
if [ "$(id -u)" = 0 ]; then apt_get=(apt-get); else apt_get=(sudo apt-get); fi
apt_retry() { # the lists lock of `apt-get update` has no timeout option: retry for 15 minutes
  local i
  for i in $(seq 90); do
    "${apt_get[@]}" -o DPkg::Lock::Timeout=900 "$@" >&2 && return 0
    log "apt-get $1 failed (attempt $i; another apt may hold its lock); retrying in 10 s"
    sleep 10
  done
  return 1
}
apt_install() {
  "${apt_get[@]}" -o DPkg::Lock::Timeout=900 install -y "$@" >&2 || { apt_retry update && apt_retry install -y "$@"; }
}
command -v cargo >/dev/null || { log "cargo not found: install Rust with rustup first"; exit 1; }

# 1. The wasm32 standard library. Route A: rustup. Route B (docs/toolchain.md): Debian's
#    rustc-web with std built from source; recorded in .tools/wasm-env for build.sh.
if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  : > .tools/wasm-env
elif [ -s .tools/wasm-env ]; then
  :
else
  log "adding the wasm32-unknown-unknown target with rustup"
  if timeout 60 rustup target add wasm32-unknown-unknown; then
    : > .tools/wasm-env
  else
    log "rustup could not supply the target; falling back to Debian's rustc-web + build-std"
    apt_install rustc-web cargo-web rust-web-src rust-web-llvm lld-22
    mkdir -p .tools/debian-rust/bin
    for t in cargo rustc rustdoc; do ln -sf "/usr/bin/$t" ".tools/debian-rust/bin/$t"; done
    cat > .tools/wasm-env <<ENV
export PATH="$PWD/.tools/debian-rust/bin:\$PATH"
export RUSTC_BOOTSTRAP=1
export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
ENV
  fi
fi

# 1b. rustup's rust-src, so that build.sh can rebuild std for size with the modules
#     (docs/toolchain.md, "std for size"). Route B builds std from Debian's sources instead.
if [ ! -s .tools/wasm-env ] && ! [ -d "$(rustc --print sysroot)/lib/rustlib/src/rust/library" ]; then
  log "adding rustup's rust-src component (std rebuilt for size in the wasm modules)"
  timeout 180 rustup component add rust-src >&2 || timeout 180 rustup component add rust-src >&2 ||
    log "rustup could not supply rust-src: the wasm modules will be built larger than their budgets"
fi

# 1c. rustfmt, for the formatting check in scripts/test.sh (rustup's default profile has it).
if command -v rustup >/dev/null && ! cargo fmt --version >/dev/null 2>&1; then
  log "adding rustup's rustfmt component"
  timeout 180 rustup component add rustfmt >&2 || log "rustup could not supply rustfmt: formatting will not be checked"
fi

# 1d. clippy, for the lints in scripts/test.sh (Cargo.toml's rust-version checked by its MSRV lint).
if command -v rustup >/dev/null && ! cargo clippy --version >/dev/null 2>&1; then
  log "adding rustup's clippy component"
  timeout 180 rustup component add clippy >&2 || log "rustup could not supply clippy: lints will not be checked"
fi

# 2. wasm-bindgen-cli, exactly the version of the wasm-bindgen crate in Cargo.lock.
want_wb=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
have_wb=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)
if [ -n "$want_wb" ] && [ "$have_wb" != "$want_wb" ]; then
  log "installing wasm-bindgen-cli $want_wb (a few minutes on a fresh machine)"
  # Not --locked: the registry lacks a pinned transitive version (docs/toolchain.md).
  cargo install wasm-bindgen-cli --version "$want_wb" >&2
fi

# 2b. wasm-pack, which builds the modules (scripts/build.sh) and runs the wasm-level tests
#     (`wasm-pack test --node`) with the wasm-bindgen-cli above; it downloads nothing itself
#     when given --mode no-install.
if ! command -v wasm-pack >/dev/null; then
  log "installing wasm-pack (a few minutes on a fresh machine)"
  cargo install wasm-pack --locked >&2 || cargo install wasm-pack >&2
fi

# 3. npm packages (binaryen's wasm-opt, test tooling), as locked.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "installing npm packages"
  npm ci --no-audit --no-fund >&2
fi

# 4. Chromium for browser tests (Debian's; never a downloaded browser).
if [ "$want_browser" = 1 ] && ! [ -x /usr/bin/chromium ]; then
  log "installing Debian's chromium"
  apt_install chromium
fi

# 4b. nginx for the remote-source tests (a real server that honours Range). The tests run
#     it themselves on 127.0.0.1 with a temporary configuration; Debian's service is never used.
if [ "$want_nginx" = 1 ] && ! [ -x /usr/sbin/nginx ]; then
  log "installing Debian's nginx-light"
  apt_install nginx-light
fi
# zsh and fish, to check the CLI's completion scripts parse (tests/js/cli-help.test.mjs);
# with the test servers' flag, since the same full test run wants them.
if [ "$want_nginx" = 1 ] && ! { command -v zsh && command -v fish; } >/dev/null; then
  log "installing Debian's zsh and fish (the completion scripts' checks)"
  apt_install zsh fish
fi

# 4c. Node's current LTS line, for running the package tests on it too (the package supports
#     Node >= 20; the machine's Node may be older than the LTS users run). npm's
#     node-linux-<arch> package holds the official binary; unpacked into .tools/node-lts.
NODE_LTS=24.22.3
if [ "$want_node_lts" = 1 ] && [ "$(.tools/node-lts/bin/node --version 2>/dev/null)" != "v$NODE_LTS" ]; then
  case "$(uname -m)" in
    x86_64) node_arch=x64 ;;
    aarch64 | arm64) node_arch=arm64 ;;
    *) node_arch="" ;;
  esac
  if [ "$(uname -s)" = Linux ] && [ -n "$node_arch" ]; then
    log "fetching Node $NODE_LTS (npm package node-linux-$node_arch, ~50 MB)"
    tmp=$(mktemp -d)
    (cd "$tmp" && npm pack --silent "node-linux-$node_arch@$NODE_LTS" >/dev/null && tar xzf ./*.tgz)
    rm -rf .tools/node-lts
    mv "$tmp/package" .tools/node-lts
    rm -rf "$tmp"
    .tools/node-lts/bin/node --version >/dev/null
  else
    log "no Node $NODE_LTS package for $(uname -s) $(uname -m): the package tests run on the machine's Node only"
  fi
fi

# 4d. s3s-fs, a real S3 protocol server that verifies Signature V4, for the s3:// tests
#     (tests/js/s3.test.mjs starts it). 0.14.1 builds with this machine's rustc (0.17 needs 1.96).
S3S_VERSION=0.14.1
if [ "$want_s3" = 1 ] && [ "$(.tools/s3s/bin/s3s-fs --version 2>/dev/null | awk '{ print $2 }')" != "$S3S_VERSION" ]; then
  log "installing s3s-fs $S3S_VERSION from crates.io (a few minutes on a fresh machine)"
  cargo install s3s-fs --version "$S3S_VERSION" --locked --features binary --root .tools/s3s >&2
fi

# 4e. PySpark (local mode) and a Java 17 runtime for it, for the Spark recipe's test.
PYSPARK_VERSION=4.0.1
if [ "$want_spark" = 1 ]; then
  if ! command -v java >/dev/null; then
    log "installing Debian's Java 17 runtime (PySpark needs one)"
    apt_install openjdk-17-jre-headless
  fi
  if ! .tools/spark/bin/python -c "import pyspark, sys; sys.exit(pyspark.__version__ != '$PYSPARK_VERSION')" 2>/dev/null; then
    log "installing PySpark $PYSPARK_VERSION into .tools/spark (~400 MB from PyPI)"
    [ -x .tools/spark/bin/python ] || python3 -m venv .tools/spark
    .tools/spark/bin/pip install --quiet "pyspark==$PYSPARK_VERSION" >&2
  fi
fi

# 5. The real writers for fixture generation: PyPI tsfile (C++ core) and plyvel (LevelDB 1.22).
if [ "$want_python" = 1 ] && ! .venv/bin/python -c 'import tsfile, plyvel' 2>/dev/null; then
  log "creating .venv with PyPI tsfile and plyvel"
  [ -x .venv/bin/python ] || python3 -m venv .venv
  .venv/bin/pip install --quiet 'tsfile==2.5.0' 'plyvel==1.5.1' >&2
fi

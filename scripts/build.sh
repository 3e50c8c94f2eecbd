#!/usr/bin/env bash
# Builds the wasm package into dist/web and the static site into dist/site.
# Run scripts/setup.sh first (npm run build does both).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
# shellcheck disable=SC1091
[ -f .tools/wasm-env ] && . .tools/wasm-env

# The standard library rebuilt with the modules, for size (docs/toolchain.md, "std for size"):
# with rustup's rust-src component (setup.sh adds it), std is compiled at the modules' opt-level
# "z" with its `optimize_for_size` feature, and a panic aborts without formatting a message
# (-Cpanic=immediate-abort; a wasm32 panic already aborts, only the message code goes): 3.5 KB
# gzipped less on the TsFile module (scripts/check-size.mjs). These are unstable flags, enabled on
# the stable toolchain by RUSTC_BOOTSTRAP=1 for this script's cargo runs only, as Route B does.
size_std=()
sysroot_src="$(rustc --print sysroot)/lib/rustlib/src/rust/library"
if [ -z "${CARGO_UNSTABLE_BUILD_STD:-}" ] && [ -d "$sysroot_src" ]; then
  size_std=(-Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size)
  export RUSTC_BOOTSTRAP=1
  export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort"
else
  echo "[build] std is not rebuilt for size (no rust-src: run scripts/setup.sh); the modules will be larger" >&2
fi

# One wasm module per crate of the workspace, each under its size budget: the TsFile module,
# the LevelDB module, loaded only when a table is opened, and the JDK tables of the
# multi-byte JVM charsets, loaded only when one of them is used (js/charsets.js).
build_module() { # build_module OUT_NAME CRATE_DIR
  local name=$1 crate=$2
  # wasm-pack drives cargo and the wasm-bindgen-cli on PATH (--mode no-install: nothing is
  # downloaded; setup.sh installs the version Cargo.lock pins), with the workspace's `wasm`
  # profile. Its own wasm-opt is off (--no-opt): binaryen from npm runs below, with our flags.
  # No package.json or .gitignore: the package is ours. --out-dir is relative to the crate.
  wasm-pack --quiet build --mode no-install --target web --profile wasm --no-opt --no-pack --no-gitignore \
    --out-dir "$PWD/dist/web" --out-name "$name" "$crate" -- "${size_std[@]}"
  # Binaryen from npm: Debian's wasm-opt 108 produces modules that fail at init (docs/toolchain.md).
  # -Oz --converge: repeat until the size stops shrinking. --low-memory-unused: fold added
  # constants into load/store offsets (sound here: Rust puts the 1 MiB stack first and data
  # above it, so no address computation wraps into the low 1 KiB). --strip-target-features:
  # drop the linker-only feature section. -ocimfs=0: no inlining of functions with one caller
  # (the serializer code of each result type stays out of its export: 2.5 KB gzipped less on
  # the TsFile module, BENCHMARKS.md "Size").
  local features=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext
    --enable-mutable-globals --enable-reference-types --enable-multivalue)
  # The closure shims js-sys's descriptions leave in the function table, which wasm-opt
  # cannot remove by itself (the script says why).
  node scripts/drop-closure-shims.mjs "dist/web/${name}_bg.wasm" "dist/web/${name}_bg.wasm" "${features[@]}"
  node_modules/.bin/wasm-opt -Oz --converge -ocimfs=0 --low-memory-unused \
    --strip-debug --strip-producers --strip-target-features "${features[@]}" \
    "dist/web/${name}_bg.wasm" -o "dist/web/${name}_bg.wasm"
}
build_module tsfile_bloom crates/wasm-tsfile
build_module leveldb crates/wasm-leveldb
build_module charsets crates/wasm-charsets
# The teaching panel's module: page-only, loaded by the teaching worker
# (www/worker/teach-ops.js); not in the npm package's files.
build_module teach crates/wasm-teach

# CommonJS build for require(): js/node.js bundled by esbuild; import.meta.url is
# rewritten to js/node.js's own location so the relative wasm URL still resolves. aws4 (Node's
# s3:// signer, itself CommonJS) stays a require() of the installed dependency. TextEncoder and
# TextDecoder come from node:util (scripts/cjs-globals.js): Jest's jsdom environment has neither.
node_modules/.bin/esbuild js/node.js --bundle --platform=node --format=cjs --target=node20 \
  --log-level=warning --outfile=dist/cjs/index.cjs --external:aws4 --inject:scripts/cjs-globals.js \
  --define:import.meta.url=__tsfile_bloom_url \
  --banner:js="const __tsfile_bloom_url = require('node:url').pathToFileURL(require('node:path').join(__dirname, '../../js/node.js')).href;"
# Its declarations: index.d.ts beside the generated records it imports, both as CommonJS (.d.cts).
sed 's#\./types\.generated\.js#./types.generated.cjs#' js/index.d.ts > dist/cjs/index.d.cts
cp js/types.generated.d.ts dist/cjs/types.generated.d.cts

# The static site: www/ as it is in the source tree, its links followed (-L). www/ links to
# what the page serves beside its own files, so that it is served and read as it stands: the
# package under pkg/ (pkg/js -> js/, pkg/dist/web -> dist/web/: the npm package's own relative
# layout) and the samples — a real file from the C++ writer with Unicode names and time columns
# (samples/sample.tsfile), and the teaching panel's read-path demo, a real LevelDB 1.22 table
# (plyvel; 564 keys, 4 bits per key: samples/sample.ldb).
rm -rf dist/site
mkdir -p dist/site
cp -rL www/. dist/site/
for w in dist/web/*.wasm; do
  echo "[build] $w: $(wc -c < "$w") bytes, $(gzip -9c "$w" | wc -c) gzipped" >&2
done
echo "[build] site in dist/site" >&2

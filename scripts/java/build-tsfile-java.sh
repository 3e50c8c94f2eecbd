#!/usr/bin/env bash
# Builds Apache TsFile's Java writer/reader (modules `common` and `tsfile`, main sources only)
# with plain javac against Debian's Java libraries — no Maven, no Maven Central.
#
#   scripts/java/build-tsfile-java.sh [TSFILE_SRC]
#
# TSFILE_SRC (argument or environment) is an extracted apache/tsfile source tree (the directory
# holding `java/`). Its commit is read from TSFILE_COMMIT, or from a `.tsfile-commit` file in
# that tree (write it when extracting, e.g.
#   git --git-dir=… archive HEAD java | tar -x -C DIR && git --git-dir=… rev-parse HEAD > DIR/.tsfile-commit).
#
# Output (gitignored):
#   .tools/java/tsfile-classes/   compiled classes (+ generated ANTLR / FreeMarker sources in .tools/java/gen)
#   .tools/java/classpath.txt     the Debian jars, ':'-separated, needed at compile and run time
#   .tools/java/tsfile-commit.txt the apache/tsfile commit the classes were built from
#
# Idempotent: does nothing (well under a second) when the sources, this script and the
# FreeMarker driver are unchanged since the last successful build.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SRC=${1:-${TSFILE_SRC:-}}
if [[ -z "$SRC" ]]; then
  echo "usage: $0 <extracted apache/tsfile tree> (or set TSFILE_SRC)" >&2
  exit 2
fi
SRC=$(cd "$SRC" && pwd)
# Accept the java/ directory itself too.
if [[ ! -d "$SRC/java" && -d "$SRC/tsfile/src/main/java" ]]; then SRC=$(dirname "$SRC"); fi
J=$SRC/java
[[ -d "$J/tsfile/src/main/java" && -d "$J/common/src/main/java" ]] ||
  { echo "error: $SRC has no java/common and java/tsfile modules" >&2; exit 2; }

OUT=$ROOT/.tools/java
CLASSES=$OUT/tsfile-classes
GEN=$OUT/gen
STAMP=$OUT/build.stamp

# Debian packages: the runtime libraries TsFile's pom names, the ANTLR tool for the path
# grammar, FreeMarker + Gson for our codegen driver (Gson also serves the fixture programs).
PKGS=(libzstd-jni-java libsnappy-java libcommons-io-java libcommons-lang3-java liblz4-java
      libxz-java libslf4j-java libantlr4-runtime-java antlr4 libfreemarker-java libgoogle-gson-java)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing Debian packages: ${missing[*]}"
  SUDO=; [[ $(id -u) -eq 0 ]] || SUDO=sudo
  $SUDO apt-get update -o DPkg::Lock::Timeout=600
  $SUDO apt-get install -y -o DPkg::Lock::Timeout=600 "${missing[@]}"
fi

D=/usr/share/java
# slf4j-simple (warnings only, set by the callers) so the writer's log lines are not lost.
CP_JARS=("$D/zstd-jni.jar" "$D/snappy-java.jar" "$D/commons-io.jar" "$D/commons-lang3.jar"
         "$D/lz4-java.jar" "$D/xz.jar" "$D/slf4j-api.jar" "$D/slf4j-simple.jar"
         "$D/antlr4-runtime.jar" "$D/gson.jar")
for j in "${CP_JARS[@]}"; do [[ -f "$j" ]] || { echo "error: missing $j" >&2; exit 1; }; done
CP=$(IFS=:; echo "${CP_JARS[*]}")

COMMIT=${TSFILE_COMMIT:-}
[[ -n "$COMMIT" || ! -f "$SRC/.tsfile-commit" ]] || COMMIT=$(tr -d '[:space:]' < "$SRC/.tsfile-commit")
COMMIT=${COMMIT:-unknown}

fingerprint() {
  {
    (cd "$J" && find common/src/main tsfile/src/main -type f -print0 | sort -z | xargs -0 sha256sum)
    sha256sum "$ROOT/scripts/java/build-tsfile-java.sh" "$ROOT/scripts/java/RenderCodegen.java"
    echo "$CP $COMMIT"
    javac -version 2>&1
  } | sha256sum | cut -d' ' -f1
}
FP=$(fingerprint)
if [[ -f "$STAMP" && "$(cat "$STAMP")" == "$FP" && -d "$CLASSES/org/apache/tsfile" ]]; then
  echo "tsfile-java: up to date ($COMMIT) in $CLASSES"
  exit 0
fi

rm -rf "$CLASSES" "$GEN" "$STAMP"
mkdir -p "$CLASSES" "$GEN/antlr4" "$GEN/freemarker" "$GEN/driver"

# 1. The path grammar, as antlr4-maven-plugin would (visitor on, listener off; the package
#    comes from the grammar's directory; PathParser imports PathLexer's tokens via -lib).
G=$J/tsfile/src/main/antlr4/org/apache/tsfile/parser
antlr4 -visitor -no-listener -package org.apache.tsfile.parser -lib "$G" \
  -o "$GEN/antlr4/org/apache/tsfile/parser" -Xexact-output-dir "$G/PathLexer.g4" "$G/PathParser.g4"

# 2. The filter classes from src/main/codegen, with our FreeMarker driver.
FMCP="$D/freemarker.jar:$D/gson.jar"
javac -nowarn -d "$GEN/driver" -cp "$FMCP" "$ROOT/scripts/java/RenderCodegen.java"
CG=$J/tsfile/src/main/codegen
java -cp "$FMCP:$GEN/driver" RenderCodegen "$CG/config.fmpp" "$CG/templates" "$GEN/freemarker"

# 3. Everything with one javac (common and tsfile reference each other only one way, but a
#    single compilation is simplest). Test sources are not built.
LIST=$OUT/sources.txt
find "$J/common/src/main/java" "$J/tsfile/src/main/java" "$GEN/antlr4" "$GEN/freemarker" \
  -name '*.java' | sort > "$LIST"
echo "javac: $(wc -l < "$LIST") sources"
if ! javac -nowarn -encoding UTF-8 --release 8 -J-Xmx1g -d "$CLASSES" -cp "$CP" @"$LIST" \
    > "$OUT/javac.log" 2>&1; then
  grep -v '^Note: ' "$OUT/javac.log" >&2
  echo "error: javac failed (full log: $OUT/javac.log)" >&2
  exit 1
fi
[[ -f "$CLASSES/org/apache/tsfile/write/TsFileWriter.class" ]] ||
  { echo "error: javac did not produce the writer" >&2; exit 1; }
# Resources (none needed by the writer today, but keep them like Maven would).
for r in "$J/common/src/main/resources" "$J/tsfile/src/main/resources"; do
  [[ -d "$r" ]] && cp -r "$r/." "$CLASSES/"
done

echo "$CP" > "$OUT/classpath.txt"
echo "$COMMIT" > "$OUT/tsfile-commit.txt"
echo "$FP" > "$STAMP"
echo "tsfile-java: built $COMMIT into $CLASSES"

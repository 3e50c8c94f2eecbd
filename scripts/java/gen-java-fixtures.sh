#!/usr/bin/env bash
# Regenerates tests/fixtures/java/ with Apache TsFile's Java writer (a developer tool; CI uses
# the committed files).
#
#   scripts/java/gen-java-fixtures.sh [TSFILE_SRC]
#
# 1. builds the Java writer if needed (build-tsfile-java.sh; TSFILE_SRC as there),
# 2. runs GenFixtures twice, under -Dfile.encoding=UTF-8 and -Dfile.encoding=GBK
#    (tests/fixtures/java/utf8/, tests/fixtures/java/gbk/),
# 3. runs ReadFixtures under the same charset for Java's own listing and filter verdicts,
# 4. merges both into tests/fixtures/java/manifest.json with the apache/tsfile commit and the JDK.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TOOLS=$ROOT/.tools/java
if [[ -n "${1:-${TSFILE_SRC:-}}" ]]; then
  "$ROOT/scripts/java/build-tsfile-java.sh" "${1:-$TSFILE_SRC}"
elif [[ ! -f "$TOOLS/build.stamp" ]]; then
  echo "error: the Java writer is not built; pass an extracted apache/tsfile tree (or set TSFILE_SRC)" >&2
  exit 2
fi

CP="$(cat "$TOOLS/classpath.txt"):$TOOLS/tsfile-classes"
BIN=$TOOLS/fixture-classes
WORK=$TOOLS/work
rm -rf "$BIN" "$WORK"
mkdir -p "$BIN" "$WORK"
javac -nowarn -encoding UTF-8 -d "$BIN" -cp "$CP" \
  "$ROOT/scripts/java/GenFixtures.java" "$ROOT/scripts/java/ReadFixtures.java"

OUT=$ROOT/tests/fixtures/java
rm -rf "$OUT/utf8" "$OUT/gbk"
# The writer warns about a missing iotdb-system.properties and the UNENCRYPTED type; keep errors.
JOPTS=(-Dorg.slf4j.simpleLogger.defaultLogLevel=error -cp "$CP:$BIN")
sets=()
for cs in UTF-8 GBK; do
  label=$(echo "$cs" | tr -d '-' | tr '[:upper:]' '[:lower:]')
  java -Dfile.encoding="$cs" "${JOPTS[@]}" GenFixtures "$OUT/$label" "$WORK/written-$label.json"
  java -Dfile.encoding="$cs" "${JOPTS[@]}" ReadFixtures set "$label" "$OUT/$label" \
    "$WORK/written-$label.json" "$WORK/set-$label.json"
  sets+=("$WORK/set-$label.json")
done

java -version 2>&1 | tr '\n' ' ' | sed 's/ *$//' > "$WORK/jdk.txt"
java "${JOPTS[@]}" ReadFixtures merge "$OUT/manifest.json" "$(cat "$TOOLS/tsfile-commit.txt")" \
  "$WORK/jdk.txt" "${sets[@]}"
du -sh "$OUT"

#!/usr/bin/env bash
# Compares JVM JSON Schema engines on the JSON Schema Test Suite and on guard's bench job; prints Markdown tables.
#   compare.sh SUITE_DIR [OUT_DIR]
# SUITE_DIR: a clone of https://github.com/json-schema-org/JSON-Schema-Test-Suite (never copied into the repository).
# OUT_DIR (default /tmp/engines-work): throw-away poms, jars, classes and results. Nothing is written elsewhere.
# BENCH_RUNS (environment, default 2): how many times the speed part runs, each in new JVMs.
# See README.md beside this file. Not part of guard's build or test command.
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: $0 SUITE_DIR [OUT_DIR]" >&2; exit 64; }
SUITE=$(cd "$1" && pwd)
OUT=${2:-/tmp/engines-work}
BENCH_RUNS=${BENCH_RUNS:-2}
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../../.." && pwd)
SCHEMA="$REPO/guard-schema/src/test/resources/schemas/send-email.json"
[ -d "$SUITE/tests" ] && [ -d "$SUITE/remotes" ] || { echo "$SUITE is not the JSON Schema Test Suite" >&2; exit 64; }
case "$OUT/" in "$REPO"/*) echo "OUT_DIR must be outside the repository" >&2; exit 64;; esac
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# guard's own versions (root pom properties): the Jackson 2 family is pinned to guard's, as guard's build would,
# except jackson-annotations under Jackson 3 (networknt 3.x): Jackson 3.1 needs annotations 2.21 (JsonSerializeAs)
prop() { sed -n "s:.*<$1>\([^<]*\)</$1>.*:\1:p" "$REPO/pom.xml" | head -1; }
JACKSON2=$(prop jackson.version)
SLF4J=$(prop slf4j.version)
GUARD_EVERIT=$(prop everit.version)

# module  adapter  groupId  artifactId  version  bench rows (draft:formatAssertion,...)
ENGINES="
everit      EveritEngine      com.github.erosb everit-json-schema    1.14.6 draft7:false
networknt2  Networknt2Engine  com.networknt    json-schema-validator 2.0.8  draft7:false,draft2020-12:false,draft2020-12:true
networknt3  Networknt3Engine  com.networknt    json-schema-validator 3.0.9  draft7:false,draft2020-12:false,draft2020-12:true
jsonskema   JsonSkemaEngine   com.github.erosb json-sKema            0.32.0 draft2020-12:false,draft2020-12:true
vertx       VertxEngine       io.vertx         vertx-json-schema     5.0.7  draft2020-12:false
"

log() { echo "[compare] $*" >&2; }
dep() { echo "<dependency><groupId>$1</groupId><artifactId>$2</artifactId><version>$3</version></dependency>"; }

# ------------------------------------------------------------------------------------------------ 1. jars
log "resolving jars through $REPO/mvnw into $OUT/poms"
rm -rf "$OUT/poms" "$OUT/classes" "$OUT/results"
mkdir -p "$OUT/poms" "$OUT/classes" "$OUT/results"
modpom() { # module, dependencies
  mkdir -p "$OUT/poms/$1"
  cat > "$OUT/poms/$1/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <groupId>engines.tmp</groupId><artifactId>$1</artifactId><version>1</version><packaging>pom</packaging>
  <dependencyManagement><dependencies>
    $(dep com.fasterxml.jackson.core jackson-databind "$JACKSON2")
    $(dep com.fasterxml.jackson.core jackson-core "$JACKSON2")
    $([ "$1" = networknt3 ] || dep com.fasterxml.jackson.core jackson-annotations "$JACKSON2")
    $(dep com.fasterxml.jackson.dataformat jackson-dataformat-yaml "$JACKSON2")
  </dependencies></dependencyManagement>
  <dependencies>$2</dependencies>
</project>
EOF
}
# what guard-schema already brings: everit (and its dependencies, org.json among them), Jackson 2, slf4j-api
modpom baseline "$(dep com.github.erosb everit-json-schema "$GUARD_EVERIT")$(dep com.fasterxml.jackson.core jackson-databind "$JACKSON2")$(dep org.slf4j slf4j-api "$SLF4J")"
MODULES="<module>baseline</module>"
while read -r mod adapter g a v rows; do
  [ -n "$mod" ] || continue
  modpom "$mod" "$(dep "$g" "$a" "$v")"
  MODULES="$MODULES<module>$mod</module>"
done <<< "$ENGINES"
cat > "$OUT/poms/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <groupId>engines.tmp</groupId><artifactId>all</artifactId><version>1</version><packaging>pom</packaging>
  <modules>$MODULES</modules>
  <build><pluginManagement><plugins><plugin><groupId>org.apache.maven.plugins</groupId>
    <artifactId>maven-dependency-plugin</artifactId><version>$(prop dependency-plugin.version)</version></plugin></plugins></pluginManagement></build>
</project>
EOF
(cd "$REPO" && ./mvnw -B -q -f "$OUT/poms/pom.xml" dependency:copy-dependencies -DincludeScope=runtime -Dmdep.prependGroupId=true)

jars() { ls "$OUT/poms/$1/target/dependency/"*.jar; }
key() { basename "$1" | sed -E 's/-[0-9][^/]*\.jar$//'; }   # groupId.artifactId
BASE="$OUT/poms/baseline/target/dependency"
# the engine's jars, plus com.fasterxml Jackson 2 (suite reader, parse reference) where the engine has none
classpath() {
  local cp="" j r
  for j in $(jars "$1"); do cp="$cp$j:"; done
  for r in com.fasterxml.jackson.core.jackson-databind com.fasterxml.jackson.core.jackson-core com.fasterxml.jackson.core.jackson-annotations; do
    ls "$OUT/poms/$1/target/dependency/$r-"[0-9]*.jar >/dev/null 2>&1 || cp="$cp$(ls "$BASE/$r-"[0-9]*.jar):"
  done
  echo "${cp%:}"
}

# ------------------------------------------------------------------------------------------------ 2. compile
while read -r mod adapter g a v rows; do
  [ -n "$mod" ] || continue
  log "compiling Harness + $adapter against $mod's classpath"
  mkdir -p "$OUT/classes/$mod"
  javac --release 17 -nowarn -encoding UTF-8 -d "$OUT/classes/$mod" -cp "$(classpath "$mod")" \
    "$HERE/Harness.java" "$HERE/$adapter.java" 2>&1 | grep -v '^Note:' >&2 || true
  [ -f "$OUT/classes/$mod/$adapter.class" ] || { echo "compilation of $adapter failed" >&2; exit 1; }
done <<< "$ENGINES"

# ------------------------------------------------------------------------------------------------ 3. remotes server
HTTP_PID=""
cleanup() { [ -z "$HTTP_PID" ] || kill "$HTTP_PID" 2>/dev/null || true; }
trap cleanup EXIT
if curl -s -o /dev/null --max-time 2 http://localhost:1234/ 2>/dev/null; then
  echo "something already listens on localhost:1234; stop it first (the suite's remotes are served there)" >&2; exit 1
fi
(cd "$SUITE/remotes" && exec python3 -m http.server 1234 --bind 127.0.0.1 >"$OUT/results/http.log" 2>&1) &
HTTP_PID=$!
for _ in $(seq 50); do
  curl -sf -o /dev/null --max-time 1 http://localhost:1234/integer.json && break
  sleep 0.2
done
cmp -s <(curl -sf http://localhost:1234/integer.json) "$SUITE/remotes/integer.json" \
  || { echo "the remotes server on localhost:1234 did not come up" >&2; exit 1; }

JAVA_OPTS=(-Dsun.net.client.defaultConnectTimeout=5000 -Dsun.net.client.defaultReadTimeout=5000)
run() { # module adapter args...
  local mod=$1 adapter=$2; shift 2
  java "${JAVA_OPTS[@]}" -cp "$OUT/classes/$mod:$(classpath "$mod")" Harness "$1" "$adapter" "${@:2}" 2>>"$OUT/results/$mod.stderr"
}

# ------------------------------------------------------------------------------------------------ 4. suite
while read -r mod adapter g a v rows; do
  [ -n "$mod" ] || continue
  log "test suite: $mod"
  run "$mod" "$adapter" suite "$SUITE" "$OUT/results" >> "$OUT/results/suite.tsv"
done <<< "$ENGINES"

# ------------------------------------------------------------------------------------------------ 5. speed
for i in $(seq "$BENCH_RUNS"); do
  while read -r mod adapter g a v rows; do
    [ -n "$mod" ] || continue
    log "speed, run $i of $BENCH_RUNS: $mod ($rows)"
    run "$mod" "$adapter" bench "$SCHEMA" "$rows" | sed "s/^BENCH\t/BENCH$i\t/" >> "$OUT/results/bench.tsv"
  done <<< "$ENGINES"
done

# ------------------------------------------------------------------------------------------------ 6. footprint
: > "$OUT/results/footprint.tsv"
for b in $(jars baseline); do echo "$(key "$b") $(basename "$b")"; done > "$OUT/results/baseline.keys"
while read -r mod adapter g a v rows; do
  [ -n "$mod" ] || continue
  n=0; bytes=0; list=""; bumps=""
  for j in $(jars "$mod"); do
    k=$(key "$j"); f=$(basename "$j")
    had=$(awk -v k="$k" '$1 == k {print $2}' "$OUT/results/baseline.keys")
    if [ -z "$had" ]; then
      n=$((n + 1)); bytes=$((bytes + $(stat -c %s "$j"))); list="$list${list:+, }${f%.jar}"
    elif [ "$had" != "$f" ]; then
      bumps="$bumps${bumps:+, }${had%.jar} → ${f%.jar}"
    fi
  done
  printf '%s\t%s\t%s\t%s\t%s\n' "$mod" "$n" "$bytes" "${list:--}" "${bumps:-none}" >> "$OUT/results/footprint.tsv"
done <<< "$ENGINES"

# ------------------------------------------------------------------------------------------------ 7. report
name_of() { awk -F'\t' -v m="$1" '$1 == m {print $2}' "$OUT/results/names.tsv"; }
: > "$OUT/results/names.tsv"
while read -r mod adapter g a v rows; do
  [ -n "$mod" ] || continue
  printf '%s\t%s %s\n' "$mod" "$a" "$v" >> "$OUT/results/names.tsv"
done <<< "$ENGINES"

JDK=$(java -version 2>&1 | sed -n 2p)
echo "## JSON Schema engines compared"
echo
echo "- JSON Schema Test Suite: https://github.com/json-schema-org/JSON-Schema-Test-Suite at commit $(git -C "$SUITE" rev-parse HEAD 2>/dev/null || echo unknown) ($(git -C "$SUITE" log -1 --format=%cs 2>/dev/null || echo '?'))"
echo "- JDK: $JDK; $(nproc) CPUs ($(uname -m)); default GC and heap; $(date -u +%Y-%m-%d)"
echo "- Jackson 2 pinned to guard's $JACKSON2 in every engine's classpath; remotes served on localhost:1234 from the suite's remotes/ (vert.x: pre-registered)"
echo
echo "### Test suite (passed / total; failed = wrong verdict; crashed = exception at schema load or validation)"
echo
echo "| engine | draft | core passed | core failed | core crashed | optional passed | optional failed | optional crashed | format (core / optional) |"
echo "|---|---|---|---|---|---|---|---|---|"
awk -F'\t' '
  $1 == "SUITE" && $4 == "core" { core[$2 FS $3] = $5 "/" $6 " (" sprintf("%.1f", 100 * $5 / ($6 ? $6 : 1)) "%)" FS $7 FS $8; fc[$2 FS $3] = $9; order[++n] = $2 FS $3 }
  $1 == "SUITE" && $4 == "optional" { opt[$2 FS $3] = $5 "/" $6 FS $7 FS $8; fo[$2 FS $3] = $9 }
  END { for (i = 1; i <= n; i++) { k = order[i]; split(k, e, FS); split(core[k], c, FS); split(opt[k], o, FS)
        d = e[2]; sub(/^draft/, "", d); if (d ~ /^[0-9]$/) d = "draft-0" d; else if (d !~ /-/) d = d
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s / %s |\n", e[1], d, c[1], c[2], c[3], o[1], o[2], o[3], fc[k], fo[k] } }
' "$OUT/results/suite.tsv"
echo
echo "Network (hosts other than the suite's localhost:1234 that an engine opened during the suite):"
echo
awk -F'\t' '$1 == "NET" && $3 !~ /localhost:1234/ { h[$2] = h[$2] (h[$2] ? ", " : "") $3 " (" $4 ")" } $1 == "SUITE" { e[$2] = 1 }
  END { for (k in e) printf "- %s: %s\n", k, (k in h ? h[k] : "none") }' "$OUT/results/suite.tsv" | sort
echo
echo "### Speed: validate only, guard's bench job (send-email.json, $(awk -F'\t' '$1 ~ /^BENCH/ && NF > 8 {print $10; exit}' "$OUT/results/bench.tsv")-byte valid payload, sha256 $(awk -F'\t' '$1 ~ /^BENCH/ && NF > 8 {print $11; exit}' "$OUT/results/bench.tsv")…)"
echo
echo "Ops per CPU-second of the whole process (ops/s/core; GC and JIT included), median of 5 x 1 s after 3 s of warm-up, one line per JVM run. Reference: Jackson $(awk -F'\t' '$1 ~ /^BENCH/ && NF > 8 {print $12; exit}' "$OUT/results/bench.tsv") \`ObjectMapper.readTree(byte[])\` of the same bytes, in the same JVM, rounds alternating with the engine's."
echo
echo "| engine | dialect | format | validate, ops/CPU-s | readTree, ops/CPU-s | validate costs x readTree | bytes allocated / validation | bytes / readTree |"
echo "|---|---|---|---|---|---|---|---|"
awk -F'\t' '
  $1 ~ /^BENCH/ && NF <= 5 { printf "| %s | %s | %s | %s | | | | |\n", $2, $3, $4, $5; next }
  $1 ~ /^BENCH/ { k = $2 FS $3 FS $4; if (!(k in v)) order[++n] = k
    v[k] = v[k] (v[k] ? " / " : "") sprintf("%d", $5); p[k] = p[k] (p[k] ? " / " : "") sprintf("%d", $6)
    r[k] = r[k] (r[k] ? " / " : "") sprintf("%.2f", $6 / $5); a[k] = a[k] (a[k] ? " / " : "") sprintf("%d", $7)
    pa[k] = pa[k] (pa[k] ? " / " : "") sprintf("%d", $8) }
  END { for (i = 1; i <= n; i++) { k = order[i]; split(k, e, FS); d = e[2]; sub(/^draft/, "", d); if (d ~ /^[0-9]$/) d = "draft-0" d
        printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", e[1], d, e[3], v[k], p[k], r[k], a[k], pa[k] } }
' "$OUT/results/bench.tsv"
echo
echo "### Footprint beyond what guard-schema already has (everit $GUARD_EVERIT with its dependencies, org.json among them; Jackson $JACKSON2 databind/core/annotations; slf4j-api $SLF4J)"
echo
echo "| engine | extra jars | extra size | the extra jars | versions changed from guard's |"
echo "|---|---|---|---|---|"
while IFS=$'\t' read -r mod n bytes list bumps; do
  printf '| %s | %s | %s KiB | %s | %s |\n' "$(name_of "$mod")" "$n" "$(( (bytes + 512) / 1024 ))" "$list" "$bumps"
done < "$OUT/results/footprint.tsv"
echo
echo "Details: $OUT/results (suite.tsv, bench.tsv, <engine>.failures.tsv: every failed or crashed test with its reason)."

#!/usr/bin/env bash
# run-diagnose.sh [JAR]: runs `guard-init diagnose` on every folder of diagnose-corpus the way
# DiagnoseScenariosTest does (args first, then every file but expected/args/SOURCES.md, sorted)
# and prints "scenario | expected | actual | ok". JAR defaults to guard-init/target/guard-init.jar.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
jar=${1:-$here/../../../target/guard-init.jar}
corpus=$here/../resources/diagnose-corpus
pass=0; total=0
for d in "$corpus"/*/; do
  d=${d%/}; n=$(basename "$d")
  args=(); [ -f "$d/args" ] && while read -r a; do [ -n "$a" ] && args+=("$a"); done < "$d/args"
  files=(); for f in $(ls "$d" | sort); do case $f in expected|args|SOURCES.md) ;; *) files+=("$d/$f");; esac; done
  actual=$(java -jar "$jar" diagnose "${args[@]}" "${files[@]}" 2>/dev/null | head -1)
  expected=$(head -1 "$d/expected")
  total=$((total + 1)); ok=no; [ "$actual" = "$expected" ] && { ok=yes; pass=$((pass + 1)); }
  echo "$n | ${expected#cause: } | ${actual#cause: } | $ok"
done
echo "matched $pass of $total"

#!/usr/bin/env bash
# run-diagnose.sh [JAR]: runs `guard-init diagnose` on every folder of diagnose-corpus the way
# DiagnoseScenariosTest does (args first, then every file but expected/args/SOURCES.md, sorted)
# and prints "scenario | expected | actual | ok", then per cause how often it was named right, named
# where it did not happen (a false cause) and missed. JAR defaults to guard-init/target/guard-init.jar.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
jar=${1:-$here/../../../target/guard-init.jar}
corpus=$here/../resources/diagnose-corpus
pass=0; total=0
pairs=$(mktemp); trap 'rm -f "$pairs"' EXIT
for d in "$corpus"/*/; do
  d=${d%/}; n=$(basename "$d")
  args=(); [ -f "$d/args" ] && while read -r a; do [ -n "$a" ] && args+=("$a"); done < "$d/args"
  files=(); for f in $(ls "$d" | sort); do case $f in expected|args|SOURCES.md) ;; *) files+=("$d/$f");; esac; done
  actual=$(java -jar "$jar" diagnose "${args[@]}" "${files[@]}" 2>/dev/null | head -1)
  expected=$(head -1 "$d/expected")
  total=$((total + 1)); ok=no; [ "$actual" = "$expected" ] && { ok=yes; pass=$((pass + 1)); }
  echo "$n | ${expected#cause: } | ${actual#cause: } | $ok"
  printf '%s\n%s\n' "${expected#cause: }" "${actual#cause: }" >> "$pairs"
done
echo "matched $pass of $total"
# per cause: right / false cause / missed
printf '%-22s %7s %12s %7s\n' cause right "false cause" missed
awk 'NR % 2 == 1 { e = $0; next }
     { n = split(e, ex, ", *"); m = split($0, ac, ", *"); delete E; delete A
       for (i = 1; i <= n; i++) { E[ex[i]] = 1; seen[ex[i]] = 1 }
       for (i = 1; i <= m; i++) { A[ac[i]] = 1; seen[ac[i]] = 1 }
       for (c in E) if (c in A) right[c]++; else missed[c]++
       for (c in A) if (!(c in E)) fp[c]++ }
     END { for (c in seen) printf "%-22s %7d %12d %7d\n", c, right[c], fp[c], missed[c] }' "$pairs" | sort

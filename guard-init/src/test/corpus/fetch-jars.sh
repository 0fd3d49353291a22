#!/usr/bin/env bash
# fetch-jars.sh NAME GROUP:ARTIFACT:VERSION [GROUP:ARTIFACT:VERSION...]
# Resolves the artifacts and their runtime dependencies from Maven Central into
# $CACHE/jars/NAME (outside the repository) through a throwaway pom; prints the classpath.
set -euo pipefail
CACHE=${CACHE:-/tmp/corpus-cache}
name=$1; shift
out=$CACHE/jars/$name
if [ -f "$out/.ok" ]; then ls "$out"/*.jar | paste -sd: ; exit 0; fi
pomdir=$CACHE/poms/$name
mkdir -p "$pomdir" "$out"
{
  echo '<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
  echo "<groupId>corpus</groupId><artifactId>$name</artifactId><version>0</version><dependencies>"
  for c in "$@"; do
    IFS=: read -r g a v <<<"$c"
    echo "<dependency><groupId>$g</groupId><artifactId>$a</artifactId><version>$v</version></dependency>"
  done
  echo '</dependencies></project>'
} > "$pomdir/pom.xml"
mvn -B -q -f "$pomdir/pom.xml" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$out" >&2
touch "$out/.ok"
ls "$out"/*.jar | paste -sd: 

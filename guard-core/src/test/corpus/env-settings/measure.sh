#!/usr/bin/env bash
# Precision and recall of the PLACEHOLDER rule on settings of public projects' shipped templates
# (manifest.tsv; values read from the fetched snapshots, never copied here). Prints per set
# (learn, heldout, all) and every miss and false alarm.
#
#   guard-core/src/test/corpus/env-settings/measure.sh [mirror-root]     # default /work/.mirror
#
# Needs the snapshots of the repositories in projects.md (the tool library's `fetch` verb lays them
# out as <root>/owner+name/...); check.sh verifies every row's line first.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../../../.." && pwd)"
mirror="${1:-/work/.mirror}"
cd "$root"
./mvnw -B -q -o -pl guard-core test-compile dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile=target/corpus-classpath.txt >/dev/null
java -cp "guard-core/target/test-classes:guard-core/target/classes:$(cat guard-core/target/corpus-classpath.txt)" \
    dev.guard.config.PlaceholderCorpus "$here/manifest.tsv" "$mirror"

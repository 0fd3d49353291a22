#!/usr/bin/env bash
# Re-reads every manifest row from the fetched mirrors and verifies that the
# recorded line still carries the setting.
#   usage: check.sh [MIRROR_ROOT]   (default /work/.mirror)
# A repo "owner/name" is looked up as <root>/owner+name/repo (the layout the
# fetch tool creates); <root>/owner+name itself is accepted if it is a git dir.
set -u
ROOT="${1:-/work/.mirror}"
HERE="$(cd "$(dirname "$0")" && pwd)"
MANIFEST="$HERE/manifest.tsv"
rows=0; bad=0
declare -A FILECACHE_KEYS=()
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT

gitdir_for() {
  local d="$ROOT/${1/\//+}"
  if [ -d "$d/repo" ]; then echo "$d/repo"; elif [ -d "$d" ]; then echo "$d"; else echo ""; fi
}

while IFS=$'\t' read -r set repo commit path line name kind label note; do
  [ "$set" = "set" ] && continue
  rows=$((rows+1))
  gd="$(gitdir_for "$repo")"
  if [ -z "$gd" ]; then echo "MISSING-REPO	$repo	$path:$line	$name"; bad=$((bad+1)); continue; fi
  key="$(printf '%s' "$repo@$commit:$path" | md5sum | cut -d' ' -f1)"
  f="$tmp/$key"
  if [ -z "${FILECACHE_KEYS[$key]:-}" ]; then
    if ! git --git-dir="$gd" show "$commit:$path" > "$f" 2>/dev/null; then
      echo "MISSING-FILE	$repo	$commit:$path"; bad=$((bad+1)); : > "$f"
    fi
    FILECACHE_KEYS[$key]=1
  fi
  text="$(sed -n "${line}p" "$f")"
  case "$kind" in
    k8s)  want="value:" ;;
    helm) want="${name##*.}" ;;
    *)    want="$name" ;;
  esac
  # helm keys that sit in a list of maps print as "- key: v"; all kinds: plain substring test
  if [[ "$text" != *"$want"* ]]; then
    echo "MISMATCH	$repo	$path:$line	want '$want'"
    bad=$((bad+1))
  fi
done < "$MANIFEST"
echo "checked $rows rows, $bad mismatches"
[ "$bad" -eq 0 ]

#!/usr/bin/env bash
# `fuzz/checked-in.txt` names every fuzz input that git tracks (seeds in
# `fuzz/corpus/TARGET/seed-*`, crash reproducers in `fuzz/regressions/TARGET/`).
# The replay tests read it to insist that each of those inputs is present and
# replayed, without counting the files libFuzzer adds next to them locally.
#
#   scripts/fuzz-manifest.sh          rewrite the manifest from `git ls-files`
#   scripts/fuzz-manifest.sh --check  fail if the manifest is out of date
set -euo pipefail
cd "$(dirname "$0")/.."
manifest=fuzz/checked-in.txt
listing() {
  echo "# Every fuzz input git tracks (paths relative to fuzz/); written by"
  echo "# scripts/fuzz-manifest.sh, checked by CI, read by the replay tests."
  git ls-files fuzz/corpus fuzz/regressions | grep -v '/\.gitkeep$' | sed 's|^fuzz/||' | LC_ALL=C sort
}
if [ "${1:-}" = --check ]; then
  if ! diff -u "$manifest" <(listing); then
    echo "$manifest is out of date: run scripts/fuzz-manifest.sh and commit it"
    exit 1
  fi
else
  listing > "$manifest"
fi

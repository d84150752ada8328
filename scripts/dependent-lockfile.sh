#!/usr/bin/env bash
# What does a crate that depends on this one get in its `Cargo.lock`?
#
# Makes a scratch crate (outside the repository, so no workspace applies)
# that depends on this crate by path, once with default features and once
# with every feature its manifest declares, resolves its lock file and fails if any
# package of the model checker's tree is in it: loom, generator,
# scoped-tls, tracing or a tracing-* crate. Supply-chain review tools flag
# whatever a lock file lists, built or not, so this is about resolution,
# not compilation. Prints the full package list either way.
#
# Usage: scripts/dependent-lockfile.sh   (from anywhere in the repository)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
banned='^(loom|generator|scoped-tls|tracing|tracing-.*)$'
status=0

# Every optional feature the manifest declares, as a TOML list body.
all_features="$(cargo metadata --no-deps --format-version 1 --manifest-path "$root/Cargo.toml" |
  python3 -c '
import json, sys
meta = json.load(sys.stdin)
pkg = next(p for p in meta["packages"] if p["name"] == "read-write-collection")
print(", ".join(sorted("\"%s\"" % f for f in pkg["features"] if f != "default")))
')"

for features in '' "$all_features"; do
  rm -rf "$scratch/dependent"
  mkdir -p "$scratch/dependent/src"
  cat > "$scratch/dependent/Cargo.toml" <<EOF
[package]
name = "dependent"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
read-write-collection = { path = "$root", features = [$features] }

[workspace]
EOF
  echo 'pub use read_write_collection::ReadWriteCollection;' > "$scratch/dependent/src/lib.rs"
  (cd "$scratch/dependent" && cargo generate-lockfile --quiet)
  names="$(sed -n 's/^name = "\(.*\)"$/\1/p' "$scratch/dependent/Cargo.lock" | sort)"
  echo "features [$features]: $(echo "$names" | wc -l) packages: $(echo $names)"
  if hits="$(echo "$names" | grep -E "$banned")"; then
    echo "FAIL: the dependent's Cargo.lock lists: $(echo $hits)"
    status=1
  fi
done
exit $status

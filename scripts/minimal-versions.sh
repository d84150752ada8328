#!/usr/bin/env bash
# Do the dependency versions `Cargo.toml` declares really build, and can a
# user on the declared `rust-version` resolve a dependency tree at all?
#
# Works in a scratch copy of the library (manifest, `src/`, README,
# licenses): the committed `Cargo.lock` is never touched. Dev-dependencies
# are dropped first (they never reach users, and `-Zdirect-minimal-versions`
# cannot pick one minimum for a crate that is both a normal and a
# dev-dependency with different requirements), and so is the workspace
# (the benchmark package is not published).
#
# 1. `cargo +nightly update -Zdirect-minimal-versions`: every direct
#    dependency at the lowest version its requirement allows; then the
#    library is checked with the stable compiler, default features, none,
#    and all.
# 2. A resolution that prefers versions whose `rust-version` fits ours
#    (`CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=fallback`); every package
#    it picks for the usual targets must declare a `rust-version` no newer
#    than ours (or none),
#    and the library must build with it.
#
# Usage: scripts/minimal-versions.sh   (from anywhere in the repository)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export CARGO_TARGET_DIR="${MINVER_TARGET_DIR:-$root/target/minimal-versions}"

cp -r "$root/src" "$scratch/"
cp "$root/README.md" "$root"/LICENSE-* "$scratch/"
# Drop `[workspace]`, every `[...dev-dependencies]` table and the explicit
# example, test and bench targets (their files are not copied).
awk '
  /^\[/ { skip = ($0 == "[workspace]" || $0 ~ /dev-dependencies\]$/ ||
                 $0 ~ /^\[\[(example|test|bench)\]\]$/) }
  !skip
' "$root/Cargo.toml" > "$scratch/Cargo.toml"
cd "$scratch"

echo "--- direct dependencies at their declared minimum"
cargo +nightly update -Zdirect-minimal-versions 2>&1 | grep -vE '^\s+(Locking|Adding|Updating|Downgrading)' || true
cargo metadata --format-version 1 --all-features | python3 -c "$(cat <<'PY'
import json, sys
meta = json.load(sys.stdin)
root = next(p for p in meta["packages"] if p["id"] == meta["resolve"]["root"])
direct = {d["name"] for d in root["dependencies"]}
for p in sorted(meta["packages"], key=lambda p: p["name"]):
    if p["name"] in direct:
        print("  %s %s" % (p["name"], p["version"]))
PY
)"
for features in "" "--no-default-features" "--all-features"; do
  echo "cargo check --lib $features"
  cargo +stable check --lib --quiet $features
done

echo "--- every dependency fits rust-version"
msrv="$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml)"
rm Cargo.lock
CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=fallback cargo +stable generate-lockfile --quiet
# Targets that exist in Rust 1.81 (`wasm32-wasip2`, for one, came later, and
# so do some of its crates).
platforms=(x86_64-unknown-linux-gnu x86_64-pc-windows-msvc aarch64-apple-darwin
  i686-unknown-linux-gnu thumbv7em-none-eabihf wasm32-unknown-unknown)
cargo metadata --format-version 1 --all-features "${platforms[@]/#/--filter-platform=}" | MSRV="$msrv" python3 -c "$(cat <<'PY'
import json, os, sys
def key(v):
    parts = [int(x) for x in v.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))
msrv = os.environ["MSRV"]
meta = json.load(sys.stdin)
bad = [(p["name"], p["version"], p["rust_version"]) for p in meta["packages"]
       if p.get("rust_version") and key(p["rust_version"]) > key(msrv)]
for name, version, rv in bad:
    print("  %s %s needs Rust %s > %s" % (name, version, rv, msrv))
print("  %d packages resolved, %d newer than rust-version %s" % (len(meta["packages"]), len(bad), msrv))
sys.exit(1 if bad else 0)
PY
)"
echo "cargo check --lib --all-features (with that resolution)"
cargo +stable check --lib --quiet --all-features

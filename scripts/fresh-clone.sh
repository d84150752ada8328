#!/usr/bin/env bash
# A new user's first minutes: clone the repository, run the two commands the
# README opens with, exactly as written there, from an empty target
# directory.
#
# Asserts that the first command (the example) compiles at most
# MAX_CRATES crates (default 20) and that its compile time fits
# MAX_SECONDS (default 15) on a machine with NCPU cores (default 2):
# the CPU time cargo and rustc spend, divided by NCPU, must be below the
# bound. CPU time is what an idle 2-core machine turns into wall time; the
# wall time itself is printed too, but not asserted, because on a shared
# machine it measures the neighbours. The compile is timed with `cargo
# build` and the same arguments, then the README command itself runs (and
# must compile nothing more). The second command (the test command) must
# pass. Crates are fetched before the timed build, so the
# network is not measured.
#
# TEST_TARGET_DIR: if set, the test command builds there instead of in the
# empty target directory (CI points it at the target directory its `tests`
# step already filled, so the dependencies are not compiled a second time;
# the clone's own sources still are).
#
# Usage: scripts/fresh-clone.sh [REPO]   (REPO: a path or URL; default: this
# repository's committed HEAD)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
repo="${1:-$root}"
max_crates="${MAX_CRATES:-20}"
max_seconds="${MAX_SECONDS:-15}"
ncpu="${NCPU:-2}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

git clone --quiet "$repo" "$scratch/clone"
cd "$scratch/clone"
export CARGO_TARGET_DIR="$scratch/target"

# The first fenced block of the README holds the two commands.
mapfile -t commands < <(awk '/^```/ { if (open) exit; open = 1; next } open' README.md |
  sed 's/#.*//; s/[[:space:]]*$//' | grep -v '^$')
if [ "${#commands[@]}" -ne 2 ]; then
  echo "FAIL: expected two commands at the top of README.md, found: ${commands[*]}"
  exit 1
fi
printf 'README commands:\n  %s\n  %s\n' "${commands[0]}" "${commands[1]}"

cargo fetch --quiet

# Compile first with the same arguments (`cargo build` for `cargo run`), so
# the time measured is the compile, not the simulation the example runs.
build="${commands[0]/cargo run/cargo build}"
echo "--- $build"
/usr/bin/time -f '%e %U %S' -o "$scratch/time" bash -c "$build" 2> "$scratch/err" ||
  { cat "$scratch/err"; echo "FAIL: $build"; exit 1; }
crates="$(grep -c '^ *Compiling ' "$scratch/err" || true)"
read -r wall user sys < "$scratch/time"
finished="$(sed -n 's/.*Finished .* in \(.*\)$/\1/p' "$scratch/err")"
verdict="$(python3 -c "
cpu = $user + $sys
print('%.1f %s' % (cpu / $ncpu, 'ok' if cpu / $ncpu < $max_seconds else 'FAIL'))")"
echo "compiled $crates crates (bound $max_crates); cargo's compile time $finished;"
echo "${wall} s wall, ${user} s user + ${sys} s system CPU = ${verdict% *} s on $ncpu cores (bound $max_seconds s); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "--- ${commands[0]}"
bash -c "${commands[0]}" > "$scratch/out" 2> "$scratch/err-run" ||
  { cat "$scratch/err-run"; echo "FAIL: ${commands[0]}"; exit 1; }
tail -n 1 "$scratch/out"
again="$(grep -c '^ *Compiling ' "$scratch/err-run" || true)"
status=0
if [ "$crates" -gt "$max_crates" ]; then
  echo "FAIL: the first README command compiled $crates crates:"
  grep '^ *Compiling ' "$scratch/err"
  status=1
fi
if [ "$again" -ne 0 ]; then
  echo "FAIL: '${commands[0]}' compiled $again more crates after '$build'"
  status=1
fi
if [ "${verdict#* }" != ok ]; then
  echo "FAIL: the first README command took ${verdict% *} s of CPU per core"
  status=1
fi

echo "--- ${commands[1]}"
if ! CARGO_TARGET_DIR="${TEST_TARGET_DIR:-$CARGO_TARGET_DIR}" bash -c "${commands[1]}" > "$scratch/test-out" 2>&1; then
  tail -n 40 "$scratch/test-out"
  echo "FAIL: the README's test command failed"
  status=1
else
  grep -E '^test result:' "$scratch/test-out" | awk '{ p += $4; f += $6 } END { print "test command passed:", p, "passed,", f, "failed" }'
fi
exit $status

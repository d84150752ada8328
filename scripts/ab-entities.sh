#!/usr/bin/env bash
# A/B timing of the engine: the entities benchmark built from a base
# revision and from the working tree, run as alternating processes, the
# medians of each method's ns/element and ratios printed side by side.
#
# usage: scripts/ab-entities.sh BASE_REV PROCS GROUPS METHODS [ROUNDS]
#   e.g. scripts/ab-entities.sh HEAD 3 steady/32B,auto_remove/32B cursor,closure,body_remove,hand_loop
#   RWC_BENCH_SIZES picks the sizes (default 10k,100k).
#
# Both binaries are built with every loop aligned to 64 bytes
# (`-C llvm-args=-align-loops=64`). Without it, where a function happens
# to land decides a fifth of its time: the same machine code of the
# cursor's pass, moved by 32 bytes because an unrelated function changed,
# measured 12-21% slower, and a change to the predicate path that looked
# like a third faster was such a move. With aligned loops, an A/A run
# (the same code on both sides, three processes each) kept the ratios to
# the hand loop within 5% for most rows; the largest move was 8.5% (a
# predicate pass at 10k). Differences below that are noise.
#
# Take timings only while nothing else runs on the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
base_rev=$1 procs=$2 groups=$3 methods=$4 rounds=${5:-15}
flags="-C llvm-args=-align-loops=64"
out=$(mktemp -d)
trap 'rm -rf "$out"; git worktree remove --force "$out/base-tree" 2>/dev/null || true' EXIT

build() { # dir target-dir dest
  (cd "$1" && CARGO_TARGET_DIR=$2 RUSTFLAGS="$flags" \
    cargo bench -p read-write-collection-benches --bench entities --no-run 2>/dev/null)
  cp "$(ls -t "$2"/release/deps/entities-* | grep -v '\.d$' | head -1)" "$3"
}

git worktree add --detach "$out/base-tree" "$base_rev" >/dev/null 2>&1
build "$out/base-tree" "$PWD/target/aligned-base" "$out/base"
build "$PWD" "$PWD/target/aligned" "$out/new"

for _ in $(seq "$procs"); do
  for v in base new; do
    RWC_ALTERNATE=$rounds RWC_BENCH_SIZES=${RWC_BENCH_SIZES:-10k,100k} \
      RWC_GROUPS=$groups RWC_METHODS=$methods "$out/$v" --bench --noplot 2>/dev/null |
      grep -P '\t' >>"$out/$v.txt" || true
  done
done

python3 - "$out/base.txt" "$out/new.txt" <<'PY'
import collections, statistics as st, sys

def load(path):
    rows = collections.OrderedDict()
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        ratios = {x.split("x ")[1]: float(x.split("x ")[0]) for x in f[3:]}
        rows.setdefault((f[0], f[1]), []).append((float(f[2]), ratios))
    return rows

base, new = load(sys.argv[1]), load(sys.argv[2])
print(f"{'group':22} {'method':18} {'ns base -> new':>22}  ratios to the anchors (base -> new)")
for key, runs in base.items():
    if key not in new:
        continue
    nb = st.median(x for x, _ in runs)
    nn = st.median(x for x, _ in new[key])
    parts = []
    for anchor in runs[0][1]:
        rb = st.median(r[anchor] for _, r in runs)
        rn = st.median(r[anchor] for _, r in new[key])
        parts.append(f"{anchor} {rb:.3f} -> {rn:.3f}")
    print(f"{key[0]:22} {key[1]:18} {nb:7.3f} -> {nn:6.3f} ({nn / nb:.3f})  " + "  ".join(parts))
PY

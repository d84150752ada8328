#!/usr/bin/env bash
# The table of the frames where the dying spawn (benches/dying.rs): the
# entities benchmark as `cargo bench` builds it (one code unit per
# workspace package, see Cargo.toml), run as PROCS processes of ROUNDS
# alternating rounds each; every round times consecutive passes over one
# population (5 at 10k, 10 at 100k). Prints, per pair, the median over the
# processes of each process's ratio of medians (this crate's time / the
# other's), and the spread.
#
# usage: scripts/dying-table.sh [PROCS] [ROUNDS]     (default 3 processes, 15 rounds)
#   RWC_BENCH_SIZES picks the sizes (default 10k,100k).
#
# Take timings only while nothing else runs on the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
procs=${1:-3} rounds=${2:-15}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# RWC_ALIGN_LOOPS=1: every loop aligned to 64 bytes (a separate target
# directory), so that where a loop lands in the binary cannot move a row
# (the same machine code measured up to a third apart at two addresses).
if [ -n "${RWC_ALIGN_LOOPS:-}" ]; then
  export CARGO_TARGET_DIR=$PWD/target/aligned RUSTFLAGS="-C llvm-args=-align-loops=64"
fi
bin=$(cargo bench -p read-write-collection-benches --bench entities --no-run 2>&1 |
  grep -o '/deps/entities-[0-9a-f]*' | head -1)
bin=${CARGO_TARGET_DIR:-target}/release$bin

for p in $(seq "$procs"); do
  RWC_ALTERNATE=$rounds RWC_BENCH_SIZES=${RWC_BENCH_SIZES:-10k,100k} RWC_GROUPS=dying \
    "$bin" --bench --noplot 2>/dev/null | grep -P '\t' | sed "s/^/$p\t/" >>"$out/runs.txt" || true
done

python3 - "$out/runs.txt" <<'PY'
import collections, statistics as st, sys

# (group prefix, this crate's method, the other method, goal)
PAIRS = [
    ("dying", "traverse", "hand_loop", "<= 0.97"),
    ("dying", "cursor", "hand_loop", "<= 1.10"),
    ("dying_exact", "traverse", "hand_loop", "<= 1.05"),
    ("dying_exact", "cursor", "hand_loop", ""),
    ("dying", "closure_traverse", "seed_loop", "<= 1.00"),
    ("dying", "unit_struct_traverse", "seed_loop", "<= 1.00"),
    ("dying", "closure_cursor", "seed_loop", "<= 1.15"),
    ("dying", "unit_struct_cursor", "seed_loop", "<= 1.15"),
    ("dying", "fn_pointer", "retain_mut", "<= 1.00"),
    ("dying", "unordered", "swap_remove", "<= 1.05"),
    ("dying_none", "traverse", "iter_mut", "<= 1.03"),
    ("dying_none", "cursor", "iter_mut", ""),
    ("dying", "traverse", "dense_slotmap", "<= 0.90"),
    ("dying", "traverse", "hecs", "<= 0.55"),
    ("dying", "traverse", "hecs_command_buffer", ""),
    ("dying", "unordered", "dense_slotmap", ""),
]

ns = collections.defaultdict(dict)  # (proc, group) -> method -> ns/element
for line in open(sys.argv[1]):
    p, group, method, median = line.rstrip("\n").split("\t")[:4]
    ns[(p, group)][method] = float(median)

sizes = sorted({g.split("/")[-1] for _, g in ns}, key=lambda s: float(s.rstrip("kM")) * (1e3 if s.endswith("k") else 1e6 if s.endswith("M") else 1))
print("| pair | goal | " + " | ".join(sizes) + " |")
print("| --- | --- | " + " | ".join("---" for _ in sizes) + " |")
for prefix, a, b, goal in PAIRS:
    cells = []
    for size in sizes:
        ratios = [m[a] / m[b] for (p, g), m in ns.items()
                  if g.split("/")[0] == prefix and g.endswith("/" + size) and a in m and b in m]
        if not ratios:
            cells.append("")
            continue
        med = st.median(ratios)
        spread = f" ({min(ratios):.2f}-{max(ratios):.2f})" if len(ratios) > 1 else ""
        cells.append(f"{med:.2f}{spread}")
    print(f"| {prefix}: {a} / {b} | {goal} | " + " | ".join(cells) + " |")
PY

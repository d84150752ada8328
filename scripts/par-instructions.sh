#!/usr/bin/env bash
# Instructions per element of a pass that runs serially: `traverse` against
# `par_traverse_with(ParMode::Serial)` (the loop `Auto` runs when a pass,
# or the rest of one, runs serially), counted by callgrind inside the
# `#[inline(never)]` frame functions of benches/par_shapes.rs, for the
# closures of the cheap shapes: an update that is not inlined and removes
# and pushes through the entry (`cheap`), the same with `remove_and_spawn`
# (`dying_spawn`), and an inlined one (`first_pass`).
#
# usage: scripts/par-instructions.sh [N] [FRAMES]   (default 100000 entities, 3 frames)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
frames=${2:-3}

bin=$(cargo bench --bench par_shapes --no-run 2>&1 | grep -o 'target/release/deps/par_shapes-[0-9a-f]*' | head -1)

count() { # shape frame-fn
  local shape=$1 fn=$2 out
  out=$(mktemp)
  RWC_PAR_SHAPES_MODE=serial RWC_PAR_SHAPES_SIZE=$n RWC_PAR_SHAPES_FRAMES=$frames RWC_ALTERNATE=1 \
    RWC_PAR_SHAPES_ONLY=$shape valgrind --tool=callgrind --callgrind-out-file="$out" \
    --collect-atstart=no --toggle-collect="*$fn*" "$bin" >/dev/null 2>&1
  local ir
  ir=$(grep -E '^(summary|totals):' "$out" | head -1 | awk '{print $2}')
  rm -f "$out"
  python3 -c "print(f'{\"$shape\":<14} {\"$fn\":<16} {$ir / ($frames * $n):8.2f}')"
}

printf '%-14s %-16s %8s\n' shape function 'Ir/elem'
for shape in ${RWC_PAR_SHAPES:-cheap dying_spawn first_pass}; do
  count "$shape" traverse_frame
  count "$shape" par_frame
done

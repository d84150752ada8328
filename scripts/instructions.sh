#!/usr/bin/env bash
# Instructions per element per pass for the entity-pass methods, counted by
# callgrind inside the `#[inline(never)]` `*_pass` functions of
# benches/entities.rs (stable where wall-clock time on a shared machine is not).
#
# usage: scripts/instructions.sh [N] [PASSES]      (default 100000 entities, 5 passes)
# Each (group, method) runs in its own valgrind process; the method's check
# run before the counted passes is counted too, so a total is divided by
# (PASSES + 1) * N. The dying groups (benches/dying.rs) run consecutive
# frames: each counted "pass" there is a sequence of 5 passes (N up to
# 10k) or 10 (above) from one reset, so their totals are divided by that
# too (per pass, per element of the starting population).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
passes=${2:-5}

cargo bench --bench entities --no-run 2>/dev/null
bin=$(ls -t target/release/deps/entities-* | grep -v '\.d$' | head -1)

count() { # group method [pass-fn-pattern]
  local group=$1 method=$2 pattern=${3:-*_pass*}
  local out
  out=$(mktemp)
  RWC_BENCH_SIZES=$n RWC_COUNT_PASSES=$passes RWC_GROUPS=$group RWC_METHODS=$method \
    valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no \
    --toggle-collect="$pattern" "$bin" --bench >/dev/null 2>&1
  local ir
  ir=$(grep -E '^(summary|totals):' "$out" | head -1 | awk '{print $2}')
  rm -f "$out"
  local frames=1
  case $group in dying*) if [ "$n" -le 10000 ]; then frames=5; else frames=10; fi ;; esac
  python3 -c "print(f'{\"$group\":<18} {\"$method\":<18} {$ir / (($passes + 1) * $frames * $n):8.2f}')"
}

printf '%-18s %-18s %8s\n' group method 'Ir/elem'
# RWC_ONLY_DYING=1: only the dying-spawn frame.
if [ -z "${RWC_ONLY_DYING:-}" ]; then
for m in cursor traverse hand_loop unordered swap_remove retain_mut; do count steady/32B $m; done
for m in cursor iter_mut iter_mut_checked; do count none/32B $m; done
for m in cursor hand_loop; do count half/32B $m; done
for m in cursor hand_loop; do count growth/32B $m; done
for m in body_remove closure unit_struct fn_pointer boxed_hook retain_mut hand_loop; do
  count auto_remove/32B $m
done
fi
# The frame where the dying spawn (benches/dying.rs).
for m in cursor traverse hand_loop seed_loop closure_cursor closure_traverse unit_struct_cursor \
  unit_struct_traverse fn_pointer retain_mut unordered swap_remove hecs hecs_command_buffer \
  keyed_traverse keyed_cursor \
  dense_slotmap; do
  count dying/32B $m
done
for m in cursor traverse hand_loop; do count dying_exact/32B $m; done
for m in cursor traverse iter_mut; do count dying_none/32B $m; done

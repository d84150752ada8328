#!/usr/bin/env bash
# A fuzz campaign: every cargo-fuzz target in turn, MINUTES each (default
# 10), with AddressSanitizer (cargo-fuzz's default build: optimised, debug
# assertions on).
#
# usage: scripts/fuzz-campaign.sh [MINUTES]
#   RWC_CAMPAIGN_DIR=DIR   keep the scratch corpora there (default: a new
#                          temporary directory, printed at the start)
#   RWC_CAMPAIGN_TARGETS="a b"  only these targets
#
# For each target:
#   1. the checked-in inputs (`git ls-files fuzz/corpus/TARGET`, not what
#      local runs left beside them) are copied to DIR/TARGET.seeds, which
#      only seeds the run; new inputs go to the scratch corpus DIR/TARGET;
#   2. libFuzzer runs for MINUTES (`-max_total_time`);
#   3. the scratch corpus is minimised (`cargo fuzz cmin`);
#   4. the minimised inputs that reach code (edges, not hit counts:
#      `-use_counters=0`) the checked-in seeds do not are found with a
#      `-merge=1` into a copy of the seeds, and left
#      in DIR/TARGET.raise (to check them in: copy them to
#      fuzz/corpus/TARGET/seed-<name> and run scripts/fuzz-manifest.sh).
#
# At the end it prints one row per target: executions, executions per
# second, libFuzzer's `cov` (edges) and `ft` (features) at the end of the
# run, the scratch corpus before and after minimising, the inputs that
# raised coverage over the seeds, and crashes. On a crash it stops at once:
# the artifact stays in fuzz/artifacts/TARGET/ and the script prints what
# `cargo fuzz fmt` decodes from it, then exits 1.
#
# Run it alone on the machine (no build, no benchmark beside it): the
# executions per second are part of what it reports. Not a CI step.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
minutes=${1:-10}
seconds=$(awk -v m="$minutes" 'BEGIN { s = int(m * 60); if (s < 1) exit 1; print s }')
dir=${RWC_CAMPAIGN_DIR:-$(mktemp -d /tmp/rwc-fuzz-campaign.XXXXXX)}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
echo "scratch corpora and logs: $dir"
echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- .. || echo ' (with uncommitted changes)')"

cargo +nightly fuzz build
targets=${RWC_CAMPAIGN_TARGETS:-$(cargo +nightly fuzz list)}
summary="$dir/summary.tsv"
printf 'target\tminutes\texecs\texecs/s\tcov\tft\tcorpus\tminimised\traised\tcrashes\n' >"$summary"

for target in $targets; do
  seeds="$dir/$target.seeds" corpus="$dir/$target" raise="$dir/$target.raise"
  log="$dir/$target.log"
  rm -rf "$seeds" "$raise"
  mkdir -p "$seeds" "$corpus" "$raise"
  git ls-files "corpus/$target" | while read -r f; do cp "$f" "$seeds/"; done
  echo "=== $target: ${minutes} min, $(ls "$seeds" | wc -l) checked-in seeds"
  set +e
  cargo +nightly fuzz run "$target" "$corpus" "$seeds" -- \
    -max_total_time="$seconds" -print_final_stats=1 >"$log" 2>&1
  status=$?
  set -e
  if [ "$status" -ne 0 ]; then
    tail -40 "$log"
    artifact=$(ls -t "artifacts/$target"/* 2>/dev/null | head -1 || true)
    echo "!!! $target failed (exit $status); artifact: fuzz/${artifact:-<none>}"
    if [ -n "$artifact" ]; then
      echo "--- cargo fuzz fmt $target $artifact"
      cargo +nightly fuzz fmt "$target" "$artifact" 2>&1 | tail -60 || true
    fi
    printf '%s\t%s\t-\t-\t-\t-\t-\t-\t-\t1 (%s)\n' "$target" "$minutes" "${artifact:-?}" >>"$summary"
    column -t -s $'\t' "$summary"
    exit 1
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  # The last status line: "#N DONE cov: C ft: F corp: ..."
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  before=$(ls "$corpus" | wc -l)
  cargo +nightly fuzz cmin "$target" "$corpus" >"$dir/$target.cmin.log" 2>&1
  after=$(ls "$corpus" | wc -l)
  cp "$seeds"/* "$raise"/ 2>/dev/null || true
  cargo +nightly fuzz run "$target" "$raise" "$corpus" -- -merge=1 -use_counters=0 >"$dir/$target.merge.log" 2>&1
  for f in "$seeds"/*; do rm -f "$raise/$(basename "$f")"; done
  raised=$(ls "$raise" | wc -l)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t0\n' \
    "$target" "$minutes" "$execs" "$rate" "$cov" "$ft" "$before" "$after" "$raised" >>"$summary"
  tail -1 "$summary"
done

echo
column -t -s $'\t' "$summary"

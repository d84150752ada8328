#!/usr/bin/env bash
# ThreadSanitizer over the tests where threads meet: the producers and
# queues (`buffered`, `stress`, `async_queue`, `queue_wakeups`, `hostile`,
# `producer_slots`, the library's unit tests), and the parallel pass
# (`parallel`, `par_panic`). Nightly only: TSan needs the standard
# library rebuilt with it (`-Zbuild-std`), which the first run compiles
# (a few minutes; later runs reuse `target/tsan`).
#
# usage: scripts/tsan.sh [extra cargo test args]
set -euo pipefail
cd "$(dirname "$0")/.."
rustup component add --toolchain nightly rust-src >/dev/null
target="$(rustc -vV | sed -n 's/^host: //p')"
export RUSTFLAGS="-Zsanitizer=thread"
export RUSTDOCFLAGS="-Zsanitizer=thread"
# Fail on the first report.
export TSAN_OPTIONS="halt_on_error=1"
CARGO_TARGET_DIR=${RWC_TSAN_TARGET_DIR:-target/tsan} cargo +nightly test -Zbuild-std --target "$target" \
  -p read-write-collection --features std,rayon,async \
  --lib --test buffered --test stress --test async_queue --test queue_wakeups \
  --test hostile --test producer_slots --test parallel --test par_panic "$@"

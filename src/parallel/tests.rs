//! Unit tests of the decision (`ParMode::Auto`) and the part sizes.

use super::{
    chunk_count, ns_per_element, probe_time, worth_parallel_at, ParMode, PART_BYTES, PAR_MIN_LEN,
    PROBE_LEN, SPLIT_MIN_LEN, WARM_LEN,
};
use crate::collection::ReadWriteCollection;
use core::time::Duration;
use std::time::Instant;

/// `worth_parallel_at` for `probed` elements that took `took`.
fn worth(took: Duration, probed: usize, rest: usize, threads: usize) -> bool {
    probed != 0 && worth_parallel_at(ns_per_element(took, probed), rest, threads)
}

#[test]
fn a_stall_in_one_half_of_the_probe_does_not_count() {
    let ns = |n: u64| Duration::from_nanos(n);
    // 1024 elements at 2 ns, then 1024 at 2 ns plus a 5 ms stall.
    let stalled = probe_time((1024, ns(2048)), (1024, ns(2048 + 5_000_000)));
    assert_eq!(stalled, ns(4096));
    // Slower in the first half: the second counts.
    assert_eq!(probe_time((1024, ns(1 << 30)), (1024, ns(3072))), ns(6144));
    // Uneven halves: per element.
    assert_eq!(probe_time((1000, ns(3000)), (3000, ns(3000))), ns(4000));
    // An empty half: the other one, whole.
    assert_eq!(probe_time((0, ns(0)), (10, ns(70))), ns(70));
    assert_eq!(probe_time((10, ns(70)), (0, ns(5))), ns(75));
    assert!(worth(stalled + ns(5_000_000), 2048, 1_000_000, 2));
    assert!(!worth(stalled, 2048, 1_000_000, 2));
}

/// A closure that takes about a microsecond per element: heavy enough
/// to split on two threads whatever the build.
fn heavy(mut e: super::ParEntry<'_, u64>) {
    spin(Duration::from_micros(1));
    *e += 1;
}

fn spin(time: Duration) {
    let start = Instant::now();
    while start.elapsed() < time {
        core::hint::spin_loop();
    }
}

/// What the collection's last pass measured, per element (infinite
/// before the first).
fn last_rate<T>(c: &ReadWriteCollection<T>) -> f64 {
    c.store
        .par
        .0
        .as_ref()
        .map_or(f64::INFINITY, |s| s.last_rate_ns)
}

fn set_last_rate<T>(c: &mut ReadWriteCollection<T>, ns: f64) {
    c.store
        .par
        .0
        .get_or_insert_with(Default::default)
        .last_rate_ns = ns;
}

fn two_threads() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap()
}

/// `(i, 0)` for `i` in `0..n`: the closures below count their passes
/// in the second field, and take a microsecond on the elements the
/// first field picks.
fn pairs(n: usize) -> ReadWriteCollection<(u64, u64)> {
    (0..n as u64).map(|i| (i, 0)).collect()
}

/// Heavy (a microsecond) on the elements whose first field `heavy`
/// picks, cheap on the others; counts the pass in the second field.
fn heavy_where(
    heavy: impl Fn(u64) -> bool + Sync + Send,
) -> impl Fn(super::ParEntry<'_, (u64, u64)>) + Sync + Send {
    move |mut e| {
        if heavy(e.0) {
            spin(Duration::from_micros(1));
        }
        e.1 += 1;
    }
}

fn cheap(mut e: super::ParEntry<'_, (u64, u64)>) {
    e.1 += 1;
}

/// Whether `cheap` is cheap enough in this build for a round of `n`
/// elements to stay serial even if it ran a few times slower than it did
/// here (a debug build takes about 80 ns per element on a 2-core VM,
/// near the line, and ThreadSanitizer's tens more; tests running beside
/// it slow it down): the decision tests check nothing otherwise, and say
/// so. CI runs them in a release build too, where they always apply.
fn cheap_is_cheap(n: usize) -> bool {
    /// How much slower than measured here `cheap` may run in a test.
    const SLACK: f64 = 3.0;
    let mut c = pairs(n);
    let started = Instant::now();
    c.par_traverse_with(ParMode::Serial, cheap);
    let ns = ns_per_element(started.elapsed(), n);
    let cheap = !worth_parallel_at(SLACK * ns / super::DECIDE_MARGIN, n / 2, 2);
    if !cheap {
        std::eprintln!("skipped: `cheap` takes {ns:.1} ns per element in this build");
    }
    cheap
}

#[test]
fn every_pass_times_its_start_and_keeps_its_time_per_element() {
    let n = 2 * SPLIT_MIN_LEN;
    if !cheap_is_cheap(n) {
        return;
    }
    let mut c = pairs(n);
    two_threads().install(|| {
        let stats = c.par_traverse_with(ParMode::Auto, heavy_where(|_| true));
        assert_eq!(stats.probed, PROBE_LEN);
        assert_eq!(stats.rounds, 1, "heavy from its start: split");
        // The whole pass, as one thread's time: a microsecond or more
        // per element.
        assert!(last_rate(&c) >= 1000.0, "{}", last_rate(&c));
        let stats = c.par_traverse_with(ParMode::Auto, cheap);
        assert_eq!(stats.probed, PROBE_LEN, "timed after a heavy pass too");
        assert!(last_rate(&c) < 1000.0, "{}", last_rate(&c));
    });
    assert!(c.iter().enumerate().all(|(i, &e)| e == (i as u64, 2)));
}

#[test]
fn heavy_work_after_the_timed_start_splits_when_the_last_pass_found_it() {
    let n = 2 * SPLIT_MIN_LEN;
    if !cheap_is_cheap(n) {
        return;
    }
    let heavy_after_start = heavy_where(|i| i >= (WARM_LEN + PROBE_LEN) as u64);
    let mut c = pairs(n);
    two_threads().install(|| {
        // Nothing measured before: the cheap start decides (serially).
        let stats = c.par_traverse_with(ParMode::Auto, &heavy_after_start);
        assert_eq!(stats.rounds, 0);
        // The pass was heavy as a whole: the next one, whose start is
        // cheap again, looks further, and splits.
        assert!(worth_parallel_at(last_rate(&c), n / 2, 2));
        let stats = c.par_traverse_with(ParMode::Auto, &heavy_after_start);
        assert_eq!(stats.rounds, 1);
    });
    assert!(c.iter().enumerate().all(|(i, &e)| e == (i as u64, 2)));
}

#[test]
fn a_heavy_start_does_not_split_a_cheap_pass() {
    let n = 2 * SPLIT_MIN_LEN;
    if !cheap_is_cheap(n) {
        return;
    }
    let heavy_start = heavy_where(|i| i < (WARM_LEN + PROBE_LEN) as u64);
    let mut c = pairs(n);
    two_threads().install(|| {
        // A first pass, and one after cheap passes: the heavy start is
        // checked against the next elements, which are cheap.
        let stats = c.par_traverse_with(ParMode::Auto, &heavy_start);
        assert_eq!(stats.rounds, 0);
        set_last_rate(&mut c, 1.0);
        let stats = c.par_traverse_with(ParMode::Auto, &heavy_start);
        assert_eq!(stats.rounds, 0);
    });
    assert!(c.iter().enumerate().all(|(i, &e)| e == (i as u64, 2)));
}

#[test]
fn a_heavy_pass_after_cheap_ones_splits_and_a_cheap_one_after_heavy_ones_does_not() {
    let n = 2 * SPLIT_MIN_LEN;
    if !cheap_is_cheap(n) {
        return;
    }
    let mut c = pairs(n);
    two_threads().install(|| {
        set_last_rate(&mut c, 1.0);
        let stats = c.par_traverse_with(ParMode::Auto, heavy_where(|_| true));
        assert_eq!(stats.rounds, 1);
        assert!(last_rate(&c) >= 1000.0);
        let stats = c.par_traverse_with(ParMode::Auto, cheap);
        assert_eq!(stats.rounds, 0);
    });
    assert!(c.iter().enumerate().all(|(i, &e)| e == (i as u64, 2)));
}

#[test]
fn one_slow_pass_does_not_split_a_cheap_closure() {
    if !cheap_is_cheap(2 * SPLIT_MIN_LEN) {
        return;
    }
    let mut c = pairs(2 * SPLIT_MIN_LEN);
    // A cheap pass that stalls for 5 ms (the machine was busy) after
    // its timed start: the pass's rate says heavy.
    let stalled = |mut e: super::ParEntry<'_, (u64, u64)>| {
        if e.0 == (WARM_LEN + PROBE_LEN + 10) as u64 {
            spin(Duration::from_millis(5));
        }
        e.1 += 1;
    };
    two_threads().install(|| {
        set_last_rate(&mut c, 1.0);
        let stats = c.par_traverse_with(ParMode::Auto, stalled);
        assert_eq!(stats.rounds, 0);
        // The next pass's cheap start disagrees; the next elements
        // settle it: serially.
        let stats = c.par_traverse_with(ParMode::Auto, cheap);
        assert_eq!(stats.rounds, 0);
    });
    assert!(c.iter().enumerate().all(|(i, &e)| e == (i as u64, 2)));
}

#[test]
fn a_pass_too_small_to_split_is_not_timed() {
    let mut c: ReadWriteCollection<u64> = (0..SPLIT_MIN_LEN as u64 - 1).collect();
    let stats = c.par_traverse_with(ParMode::Auto, heavy);
    assert_eq!((stats.rounds, stats.probed), (0, 0));
    assert!(c.iter().enumerate().all(|(i, &v)| v == i as u64 + 1));

    // Just big enough: its start is timed. A first pass checks a heavy
    // start against the next elements, which leaves too few to split
    // at this size, but not at four times it.
    for (n, split) in [(SPLIT_MIN_LEN, false), (4 * SPLIT_MIN_LEN, true)] {
        let mut c: ReadWriteCollection<u64> = (0..n as u64).collect();
        let stats = two_threads().install(|| c.par_traverse_with(ParMode::Auto, heavy));
        assert_eq!(stats.probed, PROBE_LEN);
        assert_eq!(stats.rounds, usize::from(split), "{n} elements");
        assert!(c.iter().enumerate().all(|(i, &v)| v == i as u64 + 1));
    }
}

#[test]
fn chunks_are_four_per_thread_cache_sized_and_never_smaller_than_half_the_minimum() {
    let half = PAR_MIN_LEN / 2;
    assert_eq!(chunk_count(PAR_MIN_LEN - 1, 8, 8), 1);
    assert_eq!(chunk_count(PAR_MIN_LEN, 8, 8), 2);
    assert_eq!(chunk_count(PAR_MIN_LEN, 8, 1), 2);
    assert_eq!(chunk_count(5 * half, 8, 8), 5);
    assert_eq!(chunk_count(5 * half + half - 1, 8, 8), 5);
    assert_eq!(chunk_count(100 * half, 0, 2), 8);
    assert_eq!(chunk_count(100 * half, 0, 3), 12);
    assert_eq!(chunk_count(100 * half, 0, 1), 4);
    // Parts of `PART_BYTES`: 10M elements of 32 bytes in 305 parts.
    assert_eq!(chunk_count(10_000_000, 32, 2), 10_000_000 * 32 / PART_BYTES);
    // But none smaller than half the minimum.
    assert_eq!(chunk_count(100 * half, 1 << 20, 2), 100);
    assert_eq!(chunk_count(usize::MAX, 1, usize::MAX), usize::MAX / half);
    // No overflow: the byte count saturates.
    assert_eq!(
        chunk_count(usize::MAX, usize::MAX, 2),
        usize::MAX / PART_BYTES
    );
}

#[test]
fn parallel_only_when_the_saved_time_beats_the_added_cost() {
    let ns = |n: u64| Duration::from_nanos(n);
    let big = 1_000_000;
    // Heavy elements: worth it on two threads, not on one.
    assert!(worth(ns(100 * 2048), 2048, big, 2));
    assert!(!worth(ns(100 * 2048), 2048, big, 1));
    // Cheap elements: the compaction costs more than half of them.
    assert!(!worth(ns(2 * 2048), 2048, big, 2));
    // Small rounds: never.
    assert!(!worth(ns(1000 * 2048), 2048, PAR_MIN_LEN - 1, 2));
    // Nothing measured: no basis to go parallel.
    assert!(!worth(ns(0), 0, big, 2));
    assert!(!worth_parallel_at(f64::NAN, big, 2));
}

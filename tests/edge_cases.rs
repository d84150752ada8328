//! Behaviour that mutation testing (`cargo mutants`, configured in
//! `.cargo/mutants.toml`) or line coverage (`cargo llvm-cov`) found no other
//! test pinning down: each test here fails on a mutant of `src/raw/`,
//! `src/cursor.rs` or `src/parallel.rs` that the rest of the suite let
//! through, or runs a reachable line nothing else ran. Public API only.

use read_write_collection::{ReadWriteCollection, ShrinkPolicy};

/// `Spawner::try_push` respects the bound: the removal that made the
/// spawner freed exactly one slot.
#[test]
fn spawner_try_push_hands_the_value_back_when_full() {
    let mut c = ReadWriteCollection::bounded(3);
    c.extend([1, 2, 3]);
    let mut cursor = c.cursor();
    let (removed, mut spawn) = cursor.next().unwrap().remove_and_spawn();
    assert_eq!(removed, 1);
    assert_eq!(spawn.try_push(10).map_err(|e| e.into_inner()), Ok(()));
    assert_eq!(spawn.try_push(11).map_err(|e| e.into_inner()), Err(11));
    drop(cursor);
    assert_eq!(c, [2, 3, 10]);
}

/// The debug forms of the pass handles say what they are and show the
/// element or the pass's counts.
#[test]
fn pass_handles_format_for_debugging() {
    let mut c: ReadWriteCollection<i32> = (1..=3).collect();
    let mut cursor = c.cursor();
    let (_, spawn) = cursor.next().unwrap().remove_and_spawn();
    assert_eq!(format!("{spawn:?}"), "Spawner { .. }");
    drop(cursor);

    let mut sunk = Vec::new();
    let mut cursor = c.cursor_with_sink(|n| sunk.push(n));
    assert_eq!(
        format!("{cursor:?}"),
        "SinkCursor { remaining: 2, len: 2, .. }"
    );
    let entry = cursor.next().unwrap();
    assert_eq!(format!("{entry:?}"), "SinkEntry(2)");
    entry.remove_to_sink();
    assert_eq!(
        format!("{cursor:?}"),
        "SinkCursor { remaining: 1, len: 1, .. }"
    );
    drop(cursor);
    assert_eq!(sunk, [2]);
}

/// A sink cursor dropped part-way keeps the unvisited elements and, with a
/// predicate, hands a held element that expired to the sink, as the plain
/// cursor's drop does.
#[test]
#[cfg(feature = "std")] // without `std`, dropping a cursor runs no user code
fn sink_cursor_drop_settles_the_held_element() {
    let mut c = ReadWriteCollection::with_auto_remove(|n: &i32| *n < 0);
    c.extend([1, 2, 3, 4]);
    let mut sunk = Vec::new();
    {
        let mut cursor = c.cursor_with_sink(|n| sunk.push(n));
        let mut first = cursor.next().unwrap();
        *first = -1; // expires while held
    }
    assert_eq!(sunk, [-1]);
    assert_eq!(c, [2, 3, 4]);

    let mut sunk = Vec::new();
    {
        let mut cursor = c.cursor_with_sink(|n| sunk.push(n));
        let mut second = cursor.next().unwrap();
        *second += 10; // still alive: kept
    }
    assert!(sunk.is_empty());
    assert_eq!(c, [12, 3, 4]);
}

/// Pushing past the capacity outside a pass (`push` and `try_push`) grows
/// the buffer as `Vec` does (amortised doubling), step by step.
#[test]
fn push_outside_a_pass_grows_like_vec() {
    let mut pushed: ReadWriteCollection<u64> = ReadWriteCollection::with_capacity(4);
    let mut tried: ReadWriteCollection<u64> = ReadWriteCollection::with_capacity(4);
    let mut v: Vec<u64> = Vec::with_capacity(4);
    for i in 0..100 {
        pushed.push(i);
        tried.try_push(i).unwrap();
        v.push(i);
        assert_eq!(pushed.capacity(), v.capacity(), "after {} pushes", i + 1);
        assert_eq!(tried.capacity(), v.capacity(), "after {} try_pushes", i + 1);
    }
}

/// The shrink policy's threshold is strict: a pass that ends at exactly
/// `below_percent` % occupancy is not a low pass, one element fewer is.
#[test]
fn shrink_threshold_is_strict() {
    let policy = Some(ShrinkPolicy::new(25, 1));

    let mut at: ReadWriteCollection<u32> = ReadWriteCollection::with_capacity(100);
    at.extend(0..25);
    let cap = at.capacity();
    assert_eq!(cap, 100);
    at.set_shrink_policy(policy);
    at.traverse(|_| {}); // 25 of 100: not below 25 %
    assert_eq!(at.capacity(), cap);

    let mut below: ReadWriteCollection<u32> = ReadWriteCollection::with_capacity(100);
    below.extend(0..24);
    below.set_shrink_policy(policy);
    below.traverse(|_| {}); // 24 of 100: below
    assert!(below.capacity() < 100);
    assert!(below.capacity() >= 24);

    // 12 % with a 13 % policy: low (a policy compared by sums instead of
    // products would not see it).
    let mut low: ReadWriteCollection<u32> = ReadWriteCollection::with_capacity(100);
    low.extend(0..12);
    low.set_shrink_policy(Some(ShrinkPolicy::new(13, 1)));
    low.traverse(|_| {});
    assert!(low.capacity() < 100);
}

/// A push that finds the buffer full mid-pass closes the hole in place
/// when it is at least a quarter of the unvisited elements, and otherwise
/// grows the buffer by doubling (the crate docs, "Capacity").
#[test]
fn a_full_buffer_mid_pass_closes_a_big_hole_and_grows_past_a_small_one() {
    // Four removed, three unvisited: the hole is big.
    let mut big: ReadWriteCollection<u32> = ReadWriteCollection::with_capacity(8);
    big.extend(0..8);
    assert_eq!(big.capacity(), 8);
    let mut cursor = big.cursor();
    while let Some(mut e) = cursor.next() {
        if *e < 4 {
            e.remove();
        } else if *e == 4 {
            e.push(100);
        }
    }
    drop(cursor);
    assert_eq!(big, [4, 5, 6, 7, 100]);
    assert_eq!(big.capacity(), 8, "closed in place, no allocation");

    // One removed, six unvisited: the hole is small.
    let mut small: ReadWriteCollection<u32> = ReadWriteCollection::with_capacity(8);
    small.extend(0..8);
    let mut cursor = small.cursor();
    while let Some(mut e) = cursor.next() {
        if *e == 0 {
            e.remove();
        } else if *e == 1 {
            e.push(100);
        }
    }
    drop(cursor);
    assert_eq!(small, [1, 2, 3, 4, 5, 6, 7, 100]);
    assert_eq!(small.capacity(), 16, "grown by doubling");
}

/// The shrink policy on zero-sized elements: nothing to give back, and
/// nothing breaks.
#[test]
fn shrink_policy_on_zero_sized_elements() {
    let mut c: ReadWriteCollection<()> = vec![(); 10].into();
    c.set_shrink_policy(Some(ShrinkPolicy::new(50, 1)));
    c.traverse(|e| e.remove());
    c.traverse(|_| {});
    assert!(c.is_empty());
    assert_eq!(c.capacity(), usize::MAX);
}

/// `Spawner::push` on a bounded collection that is full again panics with
/// the bound's message (its `try_push` hands the value back instead).
#[test]
fn spawner_push_past_the_bound_panics() {
    let mut c = ReadWriteCollection::bounded(2);
    c.extend([1, 2]);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut cursor = c.cursor();
        let (_, mut spawn) = cursor.next().unwrap().remove_and_spawn();
        spawn.push(10);
        spawn.push(11); // full again
    }));
    let message = *caught.unwrap_err().downcast::<&str>().unwrap();
    assert!(message.contains("full bounded collection"), "{message}");
    assert_eq!(c, [2, 10], "the pass completed while unwinding");
}

#[cfg(feature = "std")]
mod queues {
    use read_write_collection::{BufferedCollection, TryPushError};
    use std::sync::mpsc;
    use std::thread;
    use std::time::Duration;

    /// Raising the bound wakes a producer blocked on the old one.
    #[test]
    fn raising_the_bound_wakes_a_blocked_producer() {
        let mut c = BufferedCollection::bounded(1);
        let p = c.producer();
        p.push(1).unwrap();
        let (done, pushed) = mpsc::channel();
        let blocked = thread::spawn(move || {
            let result = p.push(2);
            done.send(()).unwrap();
            result
        });
        thread::sleep(Duration::from_millis(20));
        c.set_max_len(Some(2));
        assert_eq!(pushed.recv_timeout(Duration::from_secs(10)), Ok(()));
        blocked.join().unwrap().unwrap();
        assert_eq!(c.commit(), 2);
        assert_eq!(c.as_slice(), [1, 2]);
    }

    /// A closed producer's error converts into `TryPushError::Closed`,
    /// value included (for code that handles both pushes alike).
    #[test]
    fn producer_closed_converts_to_try_push_error() {
        let c: BufferedCollection<&str> = BufferedCollection::new();
        let p = c.producer();
        drop(c);
        let err: TryPushError<&str> = p.push("late").unwrap_err().into();
        assert_eq!(err, TryPushError::Closed("late"));
    }
}

#[cfg(feature = "rayon")]
mod parallel {
    use super::*;
    use read_write_collection::Mode;

    /// `ParEntry::push` (not only `try_push`) appends, and the pass visits
    /// what it pushed.
    #[test]
    fn par_entry_push_appends_and_is_visited() {
        let mut c: ReadWriteCollection<u32> = (0..20_000).collect();
        c.par_traverse(|mut e| {
            if *e % 1000 == 0 && *e < 100_000 {
                let child = *e + 100_000;
                e.push(child);
            } else if *e >= 100_000 {
                *e += 1; // visited in this pass
            }
        });
        assert_eq!(c.len(), 20_020);
        let pushed: Vec<u32> = c[20_000..].to_vec();
        let expected: Vec<u32> = (0..20).map(|i| i * 1000 + 100_001).collect();
        assert_eq!(pushed, expected);
    }

    /// An unbounded collection in unordered mode runs parallel rounds too,
    /// and their part compacts in order: survivors past the serial start
    /// of the round keep their relative order (the serial swap-remove pass
    /// would not).
    #[test]
    fn unbounded_unordered_parallel_pass_compacts_in_order() {
        use read_write_collection::parallel::ParMode;

        let mut c: ReadWriteCollection<u32> = (0..10).collect();
        c.set_mode(Mode::Unordered);
        let stats = c.par_traverse_with(ParMode::Parallel, |e| {
            if *e == 5 {
                e.remove();
            }
        });
        assert_eq!(stats.rounds, 1);
        assert_eq!(c, [0, 1, 2, 3, 4, 6, 7, 8, 9]);
    }

    /// `ParEntry::push` past the bound of a bounded collection panics with
    /// the bound's message; the collection stays valid.
    #[test]
    fn par_entry_push_past_the_bound_panics() {
        let mut c = ReadWriteCollection::bounded(3);
        c.extend([1, 2, 3]);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            c.par_traverse(|mut e| e.push(*e + 10));
        }));
        let message = *caught.unwrap_err().downcast::<&str>().unwrap();
        assert!(message.contains("full bounded collection"), "{message}");
        assert_eq!(c, [1, 2, 3]);
    }

    /// The entry's debug form shows the element.
    #[test]
    fn par_entry_formats_for_debugging() {
        let mut c: ReadWriteCollection<i32> = [5].into_iter().collect();
        let mut seen = std::sync::Mutex::new(Vec::new());
        c.par_traverse(|e| seen.lock().unwrap().push(format!("{e:?}")));
        assert_eq!(seen.get_mut().unwrap().as_slice(), ["ParEntry(5)"]);
    }

    /// Where the closure runs, which the docs promise: a round shorter than
    /// `PAR_MIN_LEN` on the calling thread; the rest of a round of
    /// expensive elements on the pool's workers. (Which cost is cheap
    /// enough to stay serial depends on the build and the machine: the
    /// rule itself is tested in the crate.)
    #[test]
    fn short_rounds_stay_on_the_calling_thread() {
        use read_write_collection::parallel::PAR_MIN_LEN;
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::time::{Duration, Instant};

        /// About `micros` of work.
        fn spin(micros: u64) {
            let until = Instant::now() + Duration::from_micros(micros);
            while Instant::now() < until {
                std::hint::spin_loop();
            }
        }
        let on_pool = |n: usize, micros: u64| {
            let mut c: ReadWriteCollection<usize> = (0..n).collect();
            let count = AtomicUsize::new(0);
            c.par_traverse(|_| {
                spin(micros);
                if rayon::current_thread_index().is_some() {
                    count.fetch_add(1, Ordering::Relaxed);
                }
            });
            count.into_inner()
        };
        assert_eq!(on_pool(PAR_MIN_LEN - 1, 0), 0, "short");
        if rayon::current_num_threads() > 1 {
            assert!(on_pool(PAR_MIN_LEN * 4, 2) > PAR_MIN_LEN, "expensive");
        }

        // A later round (the elements pushed in the first) is sized by its
        // own elements, not by the collection: ten children stay on the
        // calling thread.
        let n = 4 * PAR_MIN_LEN;
        let mut c: ReadWriteCollection<usize> = (0..n).collect();
        let children_on_pool = AtomicUsize::new(0);
        c.par_traverse(|mut e| {
            if *e >= n {
                if rayon::current_thread_index().is_some() {
                    children_on_pool.fetch_add(1, Ordering::Relaxed);
                }
            } else {
                spin(2);
                // The last ten (past the serial start of the round, whose
                // pushes would join the parallel rest of the round).
                if *e >= n - 10 {
                    let child = *e + n;
                    e.push(child);
                }
            }
        });
        assert_eq!(c.len(), n + 10);
        assert_eq!(children_on_pool.into_inner(), 0);
    }
}

//! Allocation counts of `par_traverse`: once warm, a pass that removes,
//! replaces and pushes allocates nothing, on any thread (its per-part
//! lists are kept in the collection between passes), as rayon's own
//! `par_iter_mut` allocates nothing.
//!
//! The counting allocator counts every thread's calls (the workers' too),
//! so this file holds a single test: nothing else runs while it counts.
#![cfg(feature = "rayon")]
#![allow(unsafe_code)] // the counting allocator

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use read_write_collection::parallel::ParMode;
use read_write_collection::{ParEntry, ReadWriteCollection};

mod common;
use common::splitmix;

struct Counting;

static CALLS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every method forwards to `System` with the caller's arguments,
// which upholds the `GlobalAlloc` contract; counting has no effect on it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        CALLS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        CALLS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        CALLS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded contract.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Marks a transient child: removed when the pass visits it.
const TRANSIENT: u64 = 1 << 63;

/// The parity of the pass that last replaced an element: a copy is not
/// replaced again in the pass that made it.
const GENERATION: u64 = 1 << 62;

/// The decisions depend on the value without its marks.
fn hash(v: u64) -> u64 {
    splitmix(v & !(TRANSIENT | GENERATION))
}

/// About 10% of the elements are replaced by a copy (`remove_and_spawn`:
/// it moves to the end), 5% push a transient child that the next round
/// removes: from the second pass on, every pass sees the same elements in
/// the same order, so the lists it needs are the same size every time
/// (what a steady frame loop looks like), and every pass runs two rounds.
fn program(e: ParEntry<'_, u64>, parity: u64) {
    let v = *e;
    if v & TRANSIENT != 0 {
        e.remove();
        return;
    }
    let h = hash(v);
    if h % 10 == 0 && v & GENERATION != parity {
        let (_, mut spawn) = e.remove_and_spawn();
        spawn.push(v & !GENERATION | parity);
    } else if h % 20 == 1 {
        let mut e = e;
        e.push(v | TRANSIENT);
    }
}

/// Passes before the count: the first replaces nothing (every element
/// starts with the first pass's parity), the second gathers the replaced
/// elements at the end, from the third on every pass is the same.
const WARM: u64 = 4;

/// The parity mark of pass `pass`.
fn parity(pass: u64) -> u64 {
    if pass % 2 == 0 {
        0
    } else {
        GENERATION
    }
}

/// Allocator calls (on every thread) made by `passes` passes in `mode`,
/// after `warm` passes that are not counted: the fewest over three such
/// batches (rayon's own bookkeeping allocates now and then, in no
/// particular pass; a pass that allocates every time shows in every batch).
/// The warm-up passes run in parallel (so that the lists exist, whatever
/// `mode` decides later).
fn calls(c: &mut ReadWriteCollection<u64>, mode: ParMode, warm: u64, passes: u64) -> usize {
    for pass in 0..warm {
        c.par_traverse_with(ParMode::Parallel, |e| program(e, parity(pass)));
    }
    let mut fewest = usize::MAX;
    let mut pass = warm;
    for _ in 0..3 {
        let before = CALLS.load(Ordering::SeqCst);
        for _ in 0..passes {
            c.par_traverse_with(mode, |e| program(e, parity(pass)));
            pass += 1;
        }
        fewest = fewest.min(CALLS.load(Ordering::SeqCst) - before);
    }
    fewest
}

#[test]
fn steady_parallel_passes_allocate_nothing_on_any_thread() {
    let n: u64 = if cfg!(miri) { 300 } else { 50_000 };
    let passes = if cfg!(miri) { 2 } else { 10 };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    pool.install(|| {
        // The baseline: rayon itself, in this pool, allocates nothing.
        let mut v: Vec<u64> = (0..n).collect();
        use rayon::prelude::*;
        v.par_iter_mut().for_each(|x| *x += 1);
        let fewest = (0..3)
            .map(|_| {
                let before = CALLS.load(Ordering::SeqCst);
                for _ in 0..passes {
                    v.par_iter_mut().for_each(|x| *x += 1);
                }
                CALLS.load(Ordering::SeqCst) - before
            })
            .min();
        assert_eq!(fewest, Some(0), "rayon's par_iter_mut");

        for mode in [ParMode::Parallel, ParMode::Auto] {
            let mut c: ReadWriteCollection<u64> = (0..n)
                .map(|i| splitmix(i) & !(TRANSIENT | GENERATION))
                .collect();
            let mut serial = c.clone();
            let made = calls(&mut c, mode, WARM, passes);
            assert_eq!(
                made, 0,
                "{mode:?}: allocator calls in {passes} steady passes"
            );
            // And the passes did their work: the serial passes agree.
            for pass in 0..WARM + 3 * passes {
                let parity = parity(pass);
                serial.traverse(|e| {
                    let v = *e;
                    if v & TRANSIENT != 0 {
                        e.remove();
                    } else if hash(v) % 10 == 0 && v & GENERATION != parity {
                        let (_, mut spawn) = e.remove_and_spawn();
                        spawn.push(v & !GENERATION | parity);
                    } else if hash(v) % 20 == 1 {
                        let mut e = e;
                        e.push(v | TRANSIENT);
                    }
                });
            }
            assert_eq!(c, serial, "{mode:?}");
        }
    });
}

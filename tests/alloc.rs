//! Allocation counts: a traversal at steady state (of a collection or of
//! `Layers`), a bounded collection at its cap and a `BufferedCollection`
//! commit loop allocate nothing.
//!
//! The global allocator of this test binary counts allocator calls (alloc,
//! realloc and dealloc) made by the current thread only, so tests running
//! in parallel do not disturb each other.
#![allow(unsafe_code)] // the counting allocator

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use read_write_collection::{BufferedCollection, Layers, Mode, ReadWriteCollection};

struct Counting;

thread_local! {
    static CALLS: Cell<usize> = const { Cell::new(0) };
    /// Bytes this thread allocated and did not free (or freed that other
    /// threads allocated: a difference, not a total).
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

fn bump() {
    // `try_with`: the allocator may run while thread-locals are torn down.
    let _ = CALLS.try_with(|c| c.set(c.get() + 1));
}

fn live(bytes: isize) {
    let _ = LIVE.try_with(|l| l.set(l.get() + bytes));
}

/// Bytes allocated by this thread and not yet freed.
fn live_bytes() -> isize {
    LIVE.with(Cell::get)
}

// SAFETY: every method forwards to `System` with the caller's arguments,
// which upholds the `GlobalAlloc` contract; counting has no effect on it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        bump();
        live(layout.size() as isize);
        // SAFETY: forwarded contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        bump();
        live(layout.size() as isize);
        // SAFETY: forwarded contract.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        bump();
        live(new_size as isize - layout.size() as isize);
        // SAFETY: forwarded contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        bump();
        live(-(layout.size() as isize));
        // SAFETY: forwarded contract.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Runs `f` and returns how many allocator calls this thread made in it.
fn calls<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let before = CALLS.with(Cell::get);
    let r = f();
    (r, CALLS.with(Cell::get) - before)
}

const N: u64 = if cfg!(miri) { 100 } else { 10_000 };
const PASSES: u64 = if cfg!(miri) { 4 } else { 30 };

#[test]
fn the_counter_sees_allocations() {
    let (v, n) = calls(|| vec![1u8; 10]);
    assert!(n >= 1);
    let ((), n) = calls(|| drop(v));
    assert_eq!(n, 1);
}

/// One frame: removes ~10 %, pushes ~5 %, mutates the rest.
fn frame(c: &mut ReadWriteCollection<u64>, pass: u64) -> usize {
    let mut visited = 0;
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        visited += 1;
        let v = *e;
        if (v + pass) % 10 == 0 {
            e.remove();
        } else {
            *e = v.wrapping_add(3);
            if v % 20 == 1 {
                e.push(v + 7);
            }
        }
    }
    visited
}

#[test]
fn a_steady_state_pass_allocates_nothing() {
    for mode in [Mode::Ordered, Mode::Unordered] {
        let mut c: ReadWriteCollection<u64> = ReadWriteCollection::with_capacity(2 * N as usize);
        c.set_mode(mode);
        c.extend(0..N);
        let cap = c.capacity();
        for pass in 0..PASSES {
            let len = c.len();
            let (visited, n) = calls(|| frame(&mut c, pass));
            assert!(visited >= len);
            assert_eq!(n, 0, "{mode:?} pass {pass} made {n} allocator calls");
        }
        assert_eq!(c.capacity(), cap);
        assert!(c.len() < N as usize && !c.is_empty());
    }
}

#[test]
fn the_closure_form_and_prune_allocate_nothing() {
    let mut expired = 0usize;
    let mut c = ReadWriteCollection::with_auto_remove(|v: &u64| v % 7 == 0)
        .with_removal_hook(|_v| expired += 1);
    c.reserve(2 * N as usize);
    c.extend(0..N);
    let ((), n) = calls(|| {
        for pass in 0..PASSES {
            c.traverse(|mut e| {
                *e += pass;
                if *e % 13 == 0 {
                    e.push(*e + 1);
                }
            });
            c.prune();
        }
    });
    assert_eq!(n, 0);
    assert!(!c.is_empty());
    drop(c);
    assert!(expired > 0);
}

#[test]
fn a_layers_pass_allocates_nothing_once_warm() {
    // Three layers, the middle one disabled: a `while let` pass that
    // removes, pushes into the layer walked and into every other layer
    // (earlier, later, disabled), the closure forms and a sink.
    let mut l: Layers<u64> = Layers::new(3);
    for i in 0..3 {
        l.layer_mut(i).reserve(8 * N as usize);
    }
    l.layer_mut(0).extend(0..N);
    l.layer_mut(2).extend(0..N);
    l.set_enabled(1, false);
    let mut sunk = 0u64;
    let ((), n) = calls(|| {
        for pass in 0..PASSES {
            let mut cursor = l.cursor();
            while let Some((layer, mut e)) = cursor.next_with_layer() {
                *e += 1;
                if *e % 50 == 0 {
                    e.remove();
                } else if *e % 11 == 0 && layer == 2 {
                    e.push_to(0, 1); // an earlier layer: kept for the next pass
                    e.push_to(1, pass); // disabled
                } else if *e % 17 == 0 && layer == 0 {
                    e.push_to(2, 1); // a later layer: visited in this pass
                    e.push(1); // visited in this pass (as 2: pushes nothing)
                }
            }
            drop(cursor);
            l.traverse(|_, mut e| *e += 1);
            l.traverse_with_sink(
                |v| sunk += v,
                |_, e| {
                    if *e % 40 == 0 {
                        e.remove_to_sink();
                    }
                },
            );
        }
    });
    assert_eq!(n, 0, "layers passes made {n} allocator calls");
    assert!(sunk > 0);
    assert!(!l.layer(0).is_empty() && !l.layer(1).is_empty() && !l.layer(2).is_empty());
}

#[test]
fn a_bounded_collection_at_its_cap_allocates_nothing() {
    let max = N as usize;
    for mode in [Mode::Ordered, Mode::Unordered] {
        let mut c: ReadWriteCollection<u64> = ReadWriteCollection::bounded(max);
        c.set_mode(mode);
        // Warm-up: fill to the cap (allocates, lazily, up to `max`).
        while c.try_push(c.len() as u64).is_ok() {}
        assert_eq!(c.len(), max);
        assert!(c.capacity() <= max);
        let mut rejected = 0;
        let mut accepted = 0;
        let ((), n) = calls(|| {
            for pass in 0..PASSES * 2 {
                let mut cursor = c.cursor();
                while let Some(mut e) = cursor.next() {
                    let v = *e;
                    if (v + pass) % 10 == 0 {
                        e.remove();
                        // Refill through the cursor after the entry is gone.
                        match cursor.try_push(v + 1) {
                            Ok(()) => accepted += 1,
                            Err(_) => rejected += 1,
                        }
                    } else if v % 7 == 0 {
                        match e.try_push(v + 2) {
                            Ok(()) => accepted += 1,
                            Err(err) => {
                                assert_eq!(err.into_inner(), v + 2);
                                rejected += 1;
                            }
                        }
                    }
                }
            }
        });
        assert_eq!(n, 0, "{mode:?}: {n} allocator calls at the cap");
        assert!(c.capacity() <= max);
        assert!(rejected > 0 && accepted > 0, "{rejected} {accepted}");
    }
}

#[test]
fn a_buffered_commit_loop_allocates_nothing_after_warm_up() {
    let events = N as usize / 10;
    let mut q: BufferedCollection<u64> = BufferedCollection::new();
    let producer = q.producer();
    q.extend(0..events as u64);
    let mut handled = 0u64;
    let mut frame = |q: &mut BufferedCollection<u64>| {
        q.commit();
        let mut cursor = q.cursor();
        while let Some(e) = cursor.next() {
            let v = e.remove();
            handled += 1;
            // Each event schedules its successor; every tenth comes back
            // through the producer instead.
            if v % 10 == 0 {
                producer.push(v + 1).unwrap();
            } else {
                cursor.push(v + 1);
            }
        }
    };
    for _ in 0..3 {
        frame(&mut q);
    }
    let ((), n) = calls(|| {
        for _ in 0..PASSES {
            frame(&mut q);
        }
    });
    assert_eq!(n, 0, "{n} allocator calls in a steady commit loop");
    assert_eq!(handled, (3 + PASSES) * events as u64);
    assert_eq!(q.pending_len(), events);
    assert!(q.is_empty());
}

/// A steady frame loop (commit, drain, re-emit, producer input) allocates
/// nothing once its buffers have grown.
#[test]
fn steady_frame_loop_does_not_allocate_after_warm_up() {
    let mut c: BufferedCollection<u64> = BufferedCollection::new();
    let p = c.producer();
    let frame = |c: &mut BufferedCollection<u64>| {
        for i in 0..8 {
            p.push(1000 + i).unwrap();
        }
        c.commit();
        let mut handled = 0;
        let mut cursor = c.cursor();
        while let Some(e) = cursor.next() {
            let v = e.remove();
            handled += 1;
            if v >= 1000 {
                cursor.push(v - 1000); // a follow-up for the next frame
            }
        }
        handled
    };
    let ((), warm_up) = calls(|| {
        for _ in 0..3 {
            frame(&mut c);
        }
    });
    assert!(warm_up > 0, "the counter sees the buffers grow");
    let mut handled = Vec::with_capacity(10);
    let ((), allocations) = calls(|| {
        for _ in 0..10 {
            handled.push(frame(&mut c));
        }
    });
    assert_eq!(handled, [16; 10], "8 inputs + 8 follow-ups each frame");
    assert_eq!(allocations, 0);
}

/// The event-queue frame of the `buffered` benchmark: push many events,
/// commit, consume them all with a removing traversal; also bounded, and
/// consumed by reference then cleared. Once warm, no frame allocates (the
/// commit swaps the pending buffer in, so both buffers keep their room).
#[test]
fn push_commit_consume_frames_allocate_nothing_once_warm() {
    let frame_len: u64 = if cfg!(miri) { 64 } else { 10_000 };
    let consume = |c: &mut BufferedCollection<u64>| {
        for i in 0..frame_len {
            c.push(i);
        }
        c.commit();
        let mut sum = 0u64;
        c.traverse(|e| sum = sum.wrapping_add(e.remove()));
        sum
    };
    let read_clear = |c: &mut BufferedCollection<u64>| {
        for i in 0..frame_len {
            c.push(i);
        }
        c.commit();
        let sum = c.iter().fold(0u64, |a, &v| a.wrapping_add(v));
        c.clear_visible();
        sum
    };
    let expected = frame_len * (frame_len - 1) / 2;
    type Frame<'a> = &'a dyn Fn(&mut BufferedCollection<u64>) -> u64;
    let frames: [(&str, BufferedCollection<u64>, Frame<'_>); 3] = [
        ("unbounded", BufferedCollection::new(), &consume),
        (
            "bounded",
            BufferedCollection::bounded(frame_len as usize),
            &consume,
        ),
        ("read and clear", BufferedCollection::new(), &read_clear),
    ];
    for (name, mut c, frame) in frames {
        for _ in 0..3 {
            assert_eq!(frame(&mut c), expected, "{name}: warm-up");
        }
        for pass in 0..5 {
            let (sum, n) = calls(|| frame(&mut c));
            assert_eq!(sum, expected);
            assert_eq!(
                n, 0,
                "{name}: frame {pass} after warm-up allocated {n} times"
            );
        }
    }
}

/// Producer handles (each with its own buffer) pushing while the owner
/// commits and drains in a loop: once every buffer has grown to its
/// working size, a round (the pushes through both handles and the commit
/// that takes both buffers) allocates nothing: the commit swaps each
/// handle's buffer with an empty spare that already has room.
#[test]
fn a_steady_producer_loop_allocates_nothing() {
    let mut c: BufferedCollection<u64> = BufferedCollection::new();
    let a = c.producer();
    let b = c.producer();
    let round = |c: &mut BufferedCollection<u64>| {
        for i in 0..100 {
            a.push(i).unwrap();
            b.push(i).unwrap();
        }
        c.commit();
        let sum: u64 = c.iter().sum();
        c.clear_visible();
        sum
    };
    for _ in 0..20 {
        round(&mut c);
    }
    let (sum, n) = calls(|| round(&mut c));
    assert_eq!(sum, 2 * (0..100).sum::<u64>());
    assert_eq!(n, 0, "a steady round allocates nothing");
}

/// A producer handle that only pushes in arrival order is its own size and
/// nothing more: making, pushing through and dropping handles allocates
/// nothing once the queue's shards exist (the first handle makes them),
/// whatever the number of handles. The goal for a queue that serves
/// connections: at most 128 bytes per idle handle.
#[test]
fn idle_handles_cost_their_size_and_allocate_nothing() {
    use read_write_collection::Producer;
    assert!(core::mem::size_of::<Producer<u64>>() <= 128);
    let mut c: BufferedCollection<u64> = BufferedCollection::new();
    let first = c.producer();
    // Warm: the thread's shard and the commit's buffers, at the size of
    // a round.
    for _ in 0..3 {
        for i in 0..2000 {
            first.push(i).unwrap();
        }
        c.commit();
        c.clear_visible();
    }
    let mut handles = Vec::with_capacity(2000);
    let ((), n) = calls(|| {
        for _ in 0..1000 {
            handles.push(c.producer());
            handles.push(first.clone());
        }
    });
    assert_eq!(n, 0, "making handles allocated");
    let ((), n) = calls(|| {
        for (i, h) in (0..).zip(&handles) {
            h.push(i % 1000).unwrap();
        }
    });
    assert_eq!(n, 0, "pushing through many handles allocated");
    let (taken, n) = calls(|| c.commit());
    assert_eq!(taken, 2000);
    assert_eq!(n, 0, "the commit allocated");
    let ((), n) = calls(|| handles.clear());
    assert_eq!(n, 0, "dropping handles freed something");
    assert_eq!(c.producer_count(), 1);
}

/// Connection churn, as a service sees it: handles made, used for a few
/// pushes and dropped, with commits in between, in either producer order.
/// Once a round's handles are gone and their values committed and
/// cleared, the queue holds no more memory than it held before that round
/// (after three rounds of warm-up, which size the buffers that stay):
/// dropped handles' slots are freed in per-producer order, and in arrival
/// order a handle allocates nothing.
#[test]
fn connection_churn_gives_its_memory_back() {
    use read_write_collection::ProducerOrder;
    const CONNECTIONS: u64 = if cfg!(miri) { 200 } else { 10_000 };
    for order in [ProducerOrder::Arrival, ProducerOrder::PerProducer] {
        let mut c: BufferedCollection<u64> = BufferedCollection::new();
        c.set_producer_order(order);
        let listener = c.producer();
        let round = |c: &mut BufferedCollection<u64>| {
            for i in 0..CONNECTIONS {
                let connection = listener.clone();
                for k in 0..4 {
                    connection.push(i * 4 + k).unwrap();
                }
                drop(connection);
                if i % 100 == 99 {
                    assert_eq!(c.commit(), 400);
                    c.clear_visible();
                }
            }
            c.commit();
            c.clear_visible();
        };
        // Warm-up: the three buffers that take turns at a commit (the
        // collection's, the shard's, the commit's spare) grow to a
        // commit's size, and the registry to the handles alive at once.
        for _ in 0..3 {
            round(&mut c);
        }
        let start = live_bytes();
        for _ in 0..3 {
            round(&mut c);
            assert!(
                live_bytes() <= start,
                "{order:?}: {} bytes more after a round of churn",
                live_bytes() - start
            );
        }
        assert_eq!(c.producer_count(), 1);
        drop(listener);
        drop(c);
    }
}

/// With nothing visible, a commit takes a producer's buffer as it is (a
/// swap): no allocation, once the three buffers that take turns (the
/// collection's, the slot's, the commit's spare) have grown to the size
/// of a round, and the commit's bookkeeping to the queue's slots (the
/// threads' shards included): three warm-up rounds.
#[test]
fn a_commit_into_an_empty_collection_takes_the_producers_buffer() {
    let mut c: BufferedCollection<u64> = BufferedCollection::new();
    let p = c.producer();
    for _ in 0..3 {
        for i in 0..100 {
            p.push(i).unwrap();
        }
        c.commit();
        c.clear_visible();
    }
    for i in 0..100 {
        p.push(i).unwrap();
    }
    assert!(c.is_empty());
    let (taken, n) = calls(|| c.commit());
    assert_eq!(taken, 100);
    assert_eq!(n, 0, "the commit allocated");
    assert!(c.iter().copied().eq(0..100));
}

/// A batch pushed whole into an empty slot of an unbounded collection is
/// handed over as it is (the slot's empty buffer comes back in exchange):
/// no allocation.
#[test]
fn a_whole_batch_into_an_empty_slot_is_swapped_in() {
    let c: BufferedCollection<u64> = BufferedCollection::new();
    let p = c.producer();
    let mut batch: Vec<u64> = (0..100).collect();
    let (pushed, n) = calls(|| p.try_push_batch(&mut batch));
    assert!(pushed.is_ok());
    assert!(batch.is_empty());
    assert_eq!(n, 0, "the batch push allocated");
    assert_eq!(c.pending_len(), 100);
}

/// The lists a parallel pass keeps stay with the collection: a clone
/// allocates its buffer only, and `shrink_to_fit` gives them back.
#[cfg(feature = "rayon")]
#[test]
fn a_clone_after_a_parallel_pass_allocates_only_its_buffer() {
    use read_write_collection::parallel::ParMode;

    let mut c: ReadWriteCollection<u64> = (0..1000).collect();
    let stats = c.par_traverse_with(ParMode::Parallel, |mut e| {
        if *e % 10 == 0 {
            e.remove();
        } else if *e % 10 == 1 {
            e.push(5000);
        }
    });
    assert!(stats.rounds > 0);
    let (copy, made) = calls(|| c.clone());
    assert_eq!(made, 1, "the buffer");
    assert_eq!(copy, c);
    // Freed on the calling thread: the lists, then the buffer's shrink.
    let ((), freed) = calls(|| c.shrink_to_fit());
    assert!(freed >= 2, "{freed} allocator calls");
}

/// A keyed collection's elements cost at most 12 bytes each beyond the
/// element itself (its slot and its place in the list of slots), counted
/// by this allocator for 10,000 elements of 24 bytes (500 under Miri).
#[test]
fn a_keyed_collection_costs_at_most_12_bytes_per_element() {
    use read_write_collection::KeyedCollection;

    let n = if cfg!(miri) { 500 } else { 10_000 };
    let before = live_bytes();
    let mut c = KeyedCollection::with_capacity(n);
    for i in 0..n {
        c.push([i as u64; 3]);
    }
    let bytes = live_bytes() - before;
    let per_element = bytes as f64 / n as f64 - 24.0;
    assert!(
        per_element <= 12.0,
        "{per_element} bytes per element beyond T"
    );
    assert!(
        per_element >= 12.0,
        "the slot table is counted: {per_element}"
    );
    assert_eq!(c.len(), n);
}

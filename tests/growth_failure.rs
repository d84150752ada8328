//! A buffer growth that fails in the middle of a pass: the pass must end
//! with every element in the collection exactly once (or, for the value
//! being pushed, dropped exactly once), whatever the hole behind the
//! cursor looks like. And in the queue: a push, a commit or a new handle
//! whose growth fails leaves the queue as it was (arrival order, room,
//! handle count).
//!
//! An allocation failure unwinds only when the alloc error hook panics,
//! which needs nightly (`alloc_error_hook`). Run with
//! `RUSTFLAGS="--cfg rwc_nightly" cargo +nightly test --features rayon,async --test growth_failure`
//! (CI also runs it under Miri on a 32-bit target). On stable the file is
//! empty.
#![cfg(rwc_nightly)]
#![feature(alloc_error_hook)]
#![allow(unsafe_code)] // the failing allocator

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use common::{ids, vals, Elem, Tracker};
use read_write_collection::{BufferedCollection, ReadWriteCollection};

/// Fails every `realloc` (a `Vec` growing a non-empty buffer) on threads
/// that ask for it; everything else goes to `System`.
struct FailingRealloc;

thread_local! {
    static FAIL_REALLOC: Cell<bool> = const { Cell::new(false) };
    static FAILED: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: `alloc`/`dealloc` forward to `System`; `realloc` either forwards
// or returns null, which `GlobalAlloc::realloc` allows (the old block is
// left untouched, as the contract requires on failure).
unsafe impl GlobalAlloc for FailingRealloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded contract.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if FAIL_REALLOC.try_with(Cell::get).unwrap_or(false) && new_size > layout.size() {
            let _ = FAILED.try_with(|f| f.set(f.get() + 1));
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: FailingRealloc = FailingRealloc;

/// Runs `f` with growing reallocations failing and the alloc error hook
/// panicking; returns whether `f` panicked, after checking that a growth
/// really failed in it.
fn with_failing_growth(f: impl FnOnce()) -> bool {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        std::alloc::set_alloc_error_hook(|layout| {
            // The panic itself may need to grow a buffer: stop failing.
            FAIL_REALLOC.with(|f| f.set(false));
            panic!("allocation of {} bytes failed", layout.size())
        })
    });
    let failed_before = FAILED.with(Cell::get);
    FAIL_REALLOC.with(|f| f.set(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    FAIL_REALLOC.with(|f| f.set(false));
    if result.is_err() {
        assert!(
            FAILED.with(Cell::get) > failed_before,
            "the panic did not come from a failed growth"
        );
    }
    result.is_err()
}

/// A collection of `n` tracked elements (values `0..n`) with no spare
/// capacity, so the first push of a pass must grow the buffer.
fn full(t: &Tracker, n: usize) -> ReadWriteCollection<Elem> {
    let v = t.elems(0..n as i64);
    assert_eq!(v.capacity(), n, "collect into an exact-capacity Vec");
    ReadWriteCollection::from(v)
}

/// Removes the first `hole` elements, keeps the next `kept` (mutating
/// them), then pushes from the held element with growth failing.
fn fail_growth_after(n: usize, hole: usize, kept: usize, push_from_entry: bool) {
    let t = Tracker::new();
    let mut c = full(&t, n);
    let mut removed = Vec::with_capacity(hole);
    // Made before growth starts failing (the tracker itself allocates).
    let extra = t.elem(-1);
    let panicked = with_failing_growth(|| {
        let mut cursor = c.cursor();
        for _ in 0..hole {
            removed.push(cursor.next().unwrap().remove());
        }
        for _ in 0..kept {
            cursor.next().unwrap().val += 1000;
        }
        if push_from_entry {
            let mut e = cursor.next().unwrap();
            e.val += 1000;
            e.push(extra);
        } else {
            cursor.push(extra);
        }
        unreachable!("the push grows the buffer, and growing fails");
    });
    assert!(panicked, "n={n} hole={hole}: the growth should have failed");
    // Every element is in the collection once, in order; the held one
    // (when pushing from an entry) is kept, mutated.
    let held = usize::from(push_from_entry);
    let want: Vec<u32> = (hole as u32..n as u32).collect();
    assert_eq!(
        ids(&c),
        want,
        "n={n} hole={hole}: contents after the failed growth"
    );
    for (i, e) in c.iter().enumerate() {
        let mutated = i < kept + held;
        let base = (hole + i) as i64;
        assert_eq!(e.val, if mutated { base + 1000 } else { base });
    }
    // The value being pushed was dropped by the unwinding, exactly once.
    assert_eq!(t.drops(n as u32), 1, "the pushed value");
    // The collection is usable: a full pass that pushes (growth works now).
    let mut pushed = 0;
    c.traverse(|mut e| {
        if e.val >= 0 && e.val < 3 {
            e.push(t.elem(-2));
            pushed += 1;
        }
    });
    assert_eq!(c.len(), n - hole + pushed);
    drop(removed);
    drop(c);
    t.assert_all_dropped_once();
}

#[test]
fn failed_growth_without_a_hole_keeps_every_element_once() {
    fail_growth_after(32, 0, 0, true);
    fail_growth_after(32, 0, 5, false);
    fail_growth_after(32, 0, 31, true);
}

#[test]
fn failed_growth_with_a_hole_of_one_keeps_every_element_once() {
    fail_growth_after(32, 1, 0, true);
    fail_growth_after(32, 1, 7, false);
}

#[test]
fn failed_growth_with_a_hole_of_a_few_keeps_every_element_once() {
    fail_growth_after(64, 3, 0, true);
    fail_growth_after(64, 5, 10, false);
}

#[test]
fn failed_growth_with_a_hole_of_many_keeps_every_element_once() {
    // Growth (rather than closing the hole) happens while the hole is
    // small next to the unvisited tail: 4 * hole < tail.
    let n = if cfg!(miri) { 200 } else { 1000 };
    fail_growth_after(n, n / 5 - 2, 0, true);
    fail_growth_after(n, n / 8, n / 10, false);
}

#[test]
fn a_big_hole_is_closed_instead_of_growing() {
    let t = Tracker::new();
    let mut c = full(&t, 40);
    let extra = t.elem(-1);
    let panicked = with_failing_growth(|| {
        let mut cursor = c.cursor();
        for _ in 0..20 {
            drop(cursor.next().unwrap().remove());
        }
        cursor.push(extra); // closes the hole: no allocation
    });
    assert!(!panicked);
    assert_eq!(ids(&c), (20..=40).collect::<Vec<u32>>());
    drop(c);
    t.assert_all_dropped_once();
}

#[test]
fn failed_growth_after_several_in_pass_pushes() {
    // The pass pushes into spare room first; the growth that fails comes
    // when the buffer fills up, with pushed elements already queued.
    let t = Tracker::new();
    let mut v = Vec::with_capacity(20);
    v.extend(t.elems(0..16));
    assert_eq!(v.capacity(), 20);
    let mut c = ReadWriteCollection::from(v);
    let extras = t.elems(100..110);
    let panicked = with_failing_growth(|| {
        let mut cursor = c.cursor();
        drop(cursor.next().unwrap().remove()); // a hole of one
        for e in extras {
            cursor.push(e); // the fifth one grows
        }
    });
    assert!(panicked);
    let want: Vec<u32> = (1..16).chain(16..20).collect();
    assert_eq!(ids(&c), want);
    drop(c);
    t.assert_all_dropped_once();
}

#[test]
fn failed_growth_in_unordered_mode_keeps_every_element_once() {
    let t = Tracker::new();
    let mut c = full(&t, 24);
    c.set_mode(read_write_collection::Mode::Unordered);
    let extra = t.elem(-1);
    let panicked = with_failing_growth(|| {
        let mut cursor = c.cursor();
        cursor.next().unwrap().val += 1000;
        cursor.next().unwrap().val += 1000;
        cursor.push(extra); // no removal made room: grows
    });
    assert!(panicked);
    let mut got = ids(&c);
    got.sort_unstable();
    assert_eq!(got, (0..24).collect::<Vec<u32>>());
    // Removing makes room in unordered mode (the last element fills the
    // slot), so a push after a removal does not grow.
    let extra = t.elem(-1);
    let panicked = with_failing_growth(|| {
        let mut cursor = c.cursor();
        drop(cursor.next().unwrap().remove());
        cursor.push(extra);
    });
    assert!(!panicked);
    assert_eq!(c.len(), 24);
    drop(c);
    t.assert_all_dropped_once();
}

#[test]
fn failed_pending_growth_keeps_every_element_once() {
    let t = Tracker::new();
    let mut q: BufferedCollection<Elem> = BufferedCollection::new();
    q.extend(t.elems(0..8));
    q.commit();
    // Fill the pending buffer to its capacity, so the next push grows it.
    let mut cursor = q.cursor();
    drop(cursor.next().unwrap().remove());
    drop(cursor);
    q.push(t.elem(100));
    while q.pending_len() < q.local_pending().len().next_power_of_two().max(4) {
        q.push(t.elem(101));
    }
    let before = q.pending_len();
    let extras = t.elems(200..265);
    let panicked = with_failing_growth(|| {
        let mut cursor = q.cursor();
        let mut extras = extras.into_iter();
        let mut e = cursor.next().unwrap();
        e.push(extras.next().unwrap());
        for x in extras {
            cursor.push(x);
        }
    });
    assert!(panicked);
    assert!(q.pending_len() >= before);
    assert_eq!(ids(&q[..]), (1..8).collect::<Vec<u32>>());
    q.commit();
    drop(q);
    t.assert_all_dropped_once();
}

/// A batch push whose slot cannot grow: the slot is grown before anything
/// leaves the batch, so the whole batch is still the caller's, and the
/// handle goes on working.
#[test]
fn failed_producer_slot_growth_keeps_the_batch() {
    let t = Tracker::new();
    let mut q: BufferedCollection<Elem> = BufferedCollection::new();
    let p = q.producer();
    // A slot holding a value: the batch cannot be swapped in, it is copied
    // after the slot grows.
    p.push(t.elem(0)).unwrap();
    let mut batch = t.elems(1..11);
    let panicked = with_failing_growth(|| {
        let _ = p.try_push_batch(&mut batch);
    });
    assert!(panicked);
    assert_eq!(ids(&batch), (1..11).collect::<Vec<u32>>());
    p.push_batch(&mut batch).unwrap();
    assert!(batch.is_empty());
    q.commit();
    assert_eq!(ids(&q[..]), (0..11).collect::<Vec<u32>>());
    drop(p);
    drop(q);
    t.assert_all_dropped_once();
}

/// A parallel round whose pushes need the buffer to grow, when growing
/// fails: the round is settled as the serial pass ends when a push cannot
/// grow the buffer. The pushes that fit follow the kept elements (the
/// first ones in the serial order, as the serial pass keeps the pushes
/// made before the failing one), every auto-removed element reaches the
/// removal hook, the pushes that found no room are dropped once, and the
/// collection goes on working.
#[cfg(feature = "rayon")]
#[test]
fn a_parallel_round_whose_pushes_cannot_grow_the_buffer_keeps_those_that_fit() {
    parallel_round_growth_fails(None);
}

/// The same with a closure that also panics in one part of the round:
/// that panic is the one reported (the failed growth's is dropped), and
/// nothing is lost or dropped twice.
#[cfg(feature = "rayon")]
#[test]
fn a_worker_panic_stays_the_one_reported_when_the_rounds_growth_fails() {
    parallel_round_growth_fails(Some(3 * PAR_MIN_LEN_FOR_TESTS as u64));
}

#[cfg(feature = "rayon")]
const PAR_MIN_LEN_FOR_TESTS: usize = read_write_collection::parallel::PAR_MIN_LEN;

/// `n` elements with room for 40 more, where the second half each push
/// one child in a parallel round; growth fails on this thread, which
/// settles the round. With `bomb`, the closure panics on that element.
#[cfg(feature = "rayon")]
fn parallel_round_growth_fails(bomb: Option<u64>) {
    use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

    use read_write_collection::parallel::{ParMode, PAR_MIN_LEN};

    /// Dropped on any thread (workers drop too): counted in a shared table.
    struct Counted {
        id: usize,
        val: u64,
        drops: &'static [AtomicU32],
    }
    impl Drop for Counted {
        fn drop(&mut self) {
            self.drops[self.id].fetch_add(1, Ordering::Relaxed);
        }
    }

    // The parts run on the global pool's two workers; the round is settled
    // on this thread, the only one whose growth fails.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build_global();
    assert!(rayon::current_num_threads() >= 2);
    let n = 4 * PAR_MIN_LEN;
    let room = if cfg!(miri) { 0 } else { 40 };
    let drops: &'static [AtomicU32] =
        Box::leak((0..2 * n).map(|_| AtomicU32::new(0)).collect::<Box<[_]>>());
    let next_id = AtomicUsize::new(n);
    let hooked = AtomicUsize::new(0);
    let expired = |e: &Counted| e.val % 7 == 3;
    let mut c = ReadWriteCollection::with_auto_remove(expired).with_removal_hook(|e: Counted| {
        hooked.fetch_add(1, Ordering::Relaxed);
        drop(e);
    });
    c.reserve_exact(n + room);
    c.extend((0..n).map(|i| Counted {
        id: i,
        val: i as u64,
        drops,
    }));
    assert_eq!(c.capacity(), n + room, "no spare room but `room`");
    // The serial order: the elements of the second half that are not
    // removed each push one (the round's serial start, in the first
    // quarter, pushes nothing).
    let kept: Vec<u64> = (0..n as u64).filter(|v| v % 7 != 3).collect();
    let pushes: Vec<u64> = kept
        .iter()
        .filter(|&&v| v >= (n / 2) as u64)
        .map(|v| 1_000_000 + v)
        .collect();
    let fits = n + room - kept.len();
    assert!(pushes.len() > fits, "the round pushes more than fits");
    let mut payload = None;
    let failed_before = FAILED.with(Cell::get);
    let panicked = with_failing_growth(|| {
        // The closure's panic is caught here, so that its payload can be
        // checked; the failed growth's own panic is then dropped inside.
        let pass = catch_unwind(AssertUnwindSafe(|| {
            c.par_traverse_with(ParMode::Parallel, |mut e| {
                if Some(e.val) == bomb {
                    panic!("the closure's own panic");
                }
                if e.val >= (n / 2) as u64 && e.val < n as u64 {
                    let id = next_id.fetch_add(1, Ordering::Relaxed);
                    let child = Counted {
                        id,
                        val: 1_000_000 + e.val,
                        drops,
                    };
                    e.push(child);
                }
            });
        }));
        if let Err(p) = pass {
            payload = Some(p);
            if bomb.is_none() {
                std::panic::resume_unwind(payload.take().unwrap());
            }
        }
    });
    assert!(FAILED.with(Cell::get) > failed_before, "a growth failed");
    let vals: Vec<u64> = c.iter().map(|e| e.val).collect();
    assert_eq!(vals.len(), n + room, "the pushes that fit fill the buffer");
    if let Some(bomb) = bomb {
        assert!(!panicked);
        let payload = payload.expect("the closure's panic reaches the caller");
        assert_eq!(
            payload.downcast_ref::<&str>(),
            Some(&"the closure's own panic")
        );
        // The element that panicked stays; the ones before it are kept in
        // order, as the serial pass keeps them.
        assert!(vals.contains(&bomb));
        let visited: Vec<u64> = kept.iter().copied().filter(|&v| v < bomb).collect();
        assert_eq!(vals[..visited.len()], visited[..]);
    } else {
        assert!(panicked, "the second growth fails too, and says so");
        assert_eq!(vals[..kept.len()], kept[..], "the kept elements, in order");
        assert_eq!(
            vals[kept.len()..],
            pushes[..fits],
            "the first pushes, in the serial order"
        );
        assert_eq!(
            hooked.load(Ordering::Relaxed),
            n - kept.len(),
            "every removed element reached the hook"
        );
        assert_eq!(next_id.load(Ordering::Relaxed) - n, pushes.len());
    }
    // Growth works again: the collection goes on, pushes included.
    c.par_traverse_with(ParMode::Parallel, |mut e| {
        if e.val == 1_000_000 + (n / 2) as u64 {
            let id = next_id.fetch_add(1, Ordering::Relaxed);
            e.push(Counted { id, val: 5, drops });
        }
    });
    assert!(c.iter().any(|e| e.val == 5));
    drop(c);
    let made = next_id.load(Ordering::Relaxed);
    for (id, d) in drops[..made].iter().enumerate() {
        assert_eq!(d.load(Ordering::Relaxed), 1, "element {id} dropped once");
    }
}

/// A batch push whose slot cannot grow, between pushes through another
/// handle: the failed push leaves no trace in the arrival order. (It
/// once claimed a new stamp before growing the slot, so the handle's next
/// push joined its first run, ahead of the other handle's push.)
#[test]
fn a_failed_batch_push_leaves_the_arrival_order_as_it_was() {
    let t = Tracker::new();
    let mut q: BufferedCollection<Elem> = BufferedCollection::new();
    let (a, b) = (q.producer(), q.producer());
    a.push(t.elem(0)).unwrap();
    b.push(t.elem(1)).unwrap();
    let mut batch = t.elems(10..20);
    let panicked = with_failing_growth(|| {
        let _ = a.try_push_batch(&mut batch);
    });
    assert!(panicked);
    assert_eq!(batch.len(), 10, "the batch is still the caller's");
    a.push(t.elem(2)).unwrap();
    q.commit();
    assert_eq!(vals(&q[..]), [0, 1, 2], "arrival order");
    drop(batch);
    drop((a, b, q));
    t.assert_all_dropped_once();
}

/// The same for a permit's push (feature `async`): the failed push drops
/// its value, its permit gives the room back, and the handle's next push
/// still comes after the other handle's.
#[cfg(feature = "async")]
#[test]
fn a_failed_permit_push_leaves_the_arrival_order_as_it_was() {
    let t = Tracker::new();
    let mut q: BufferedCollection<Elem> = BufferedCollection::new();
    let (a, b) = (q.producer(), q.producer());
    // `a`'s own slot (where its permits' values go; its other pushes go to
    // this thread's shard) at its capacity of 4, so the next permit's push
    // must grow it.
    for v in t.elems([0, 0, 0, 0]) {
        common::block_on(a.reserve_async()).unwrap().push(v);
    }
    b.push(t.elem(1)).unwrap();
    let permit = common::block_on(a.reserve_async()).unwrap();
    let late = t.elem(9);
    let panicked = with_failing_growth(|| permit.push(late));
    assert!(panicked);
    a.push(t.elem(2)).unwrap();
    q.commit();
    assert_eq!(vals(&q[..]), [0, 0, 0, 0, 1, 2], "arrival order");
    drop((a, b, q));
    t.assert_all_dropped_once();
}

/// A commit whose destination cannot grow after it took one handle's
/// values but before another's: it never commits a later push while an
/// earlier one stays queued. (It once appended what it had taken, `a`'s
/// push, and left `b`'s earlier one for the next commit.)
#[test]
fn a_commit_that_cannot_grow_takes_nothing_out_of_order() {
    let t = Tracker::new();
    // Room in the visible buffer for one more element: `a`'s value fits,
    // `b`'s do not.
    let mut visible = Vec::with_capacity(5);
    visible.extend(t.elems(100..104));
    let mut q: BufferedCollection<Elem> = BufferedCollection::from(visible);
    assert_eq!(q.capacity(), 5);
    let (a, b) = (q.producer(), q.producer());
    b.push(t.elem(0)).unwrap();
    a.push(t.elem(1)).unwrap();
    let mut batch = t.elems(2..10);
    b.push_batch(&mut batch).unwrap();
    let panicked = with_failing_growth(|| {
        q.commit();
    });
    assert!(panicked);
    // Whatever the failed commit took is a prefix of the arrival order.
    let taken = vals(&q[4..]);
    assert_eq!(taken, (0..taken.len() as i64).collect::<Vec<_>>());
    q.commit();
    assert_eq!(
        vals(&q[..]),
        (100..104).chain(0..10).collect::<Vec<i64>>(),
        "arrival order across the failed commit"
    );
    drop((a, b, q));
    t.assert_all_dropped_once();
}

/// A local push into a bounded queue whose pending buffer cannot grow:
/// the room it would have taken stays the producers' (it was once
/// counted before the buffer grew, and lost until the next commit).
#[test]
fn a_failed_local_push_into_a_bounded_queue_keeps_its_room() {
    let t = Tracker::new();
    let mut q: BufferedCollection<Elem> = BufferedCollection::bounded(8);
    let p = q.producer();
    // Four local pushes fill the pending buffer's first allocation.
    for i in 0..4 {
        q.try_push(t.elem(i)).unwrap();
    }
    let extra = t.elem(4);
    let panicked = with_failing_growth(|| {
        let _ = q.try_push(extra);
    });
    assert!(panicked);
    for i in 10..14 {
        assert!(p.try_push(t.elem(i)).is_ok(), "room for {i}");
    }
    assert!(p.try_push(t.elem(99)).is_err(), "the bound holds");
    q.commit();
    assert_eq!(vals(&q[..]), [0, 1, 2, 3, 10, 11, 12, 13]);
    drop((p, q));
    t.assert_all_dropped_once();
}

/// A producer cloned while allocations fail: a clone allocates nothing (a
/// handle gets a slot of its own only when it needs one), so it succeeds
/// and is counted. In per-producer order a handle's first push registers
/// its slot; when the registry cannot grow for it, the push panics having
/// changed nothing, no handle is counted twice, and the handle pushes
/// later.
#[test]
fn a_producer_clone_allocates_nothing_and_a_failed_slot_registration_changes_nothing() {
    use read_write_collection::ProducerOrder;
    use std::time::Duration;
    let mut q: BufferedCollection<u32> = BufferedCollection::new();
    q.set_producer_order(ProducerOrder::PerProducer);
    let handles: Vec<_> = (0..200).map(|_| q.producer()).collect();
    let panicked = with_failing_growth(|| {
        drop(handles[0].clone());
    });
    assert!(!panicked, "a clone allocates nothing");
    assert_eq!(q.producer_count(), 200);
    // Each first push registers a slot; the registry's buffer is full at
    // one of them (a power of two), whose growth then fails.
    let failed = handles
        .iter()
        .position(|h| {
            with_failing_growth(|| {
                let _ = h.push(1);
            })
        })
        .expect("the registry grew within 200 slots");
    assert_eq!(q.producer_count(), 200);
    handles[failed].push(2).unwrap();
    q.commit();
    let mut expected = vec![1; failed];
    expected.push(2);
    assert_eq!(q.as_slice(), expected, "nothing half-registered");
    drop(handles);
    assert_eq!(q.producer_count(), 0);
    assert_eq!(
        q.wait_pending_timeout(Duration::from_secs(5)),
        Err(read_write_collection::WaitTimeoutError::Disconnected)
    );
}

/// A keyed pass whose push cannot grow the key lists (exact capacity,
/// nothing removed yet): the pass ends with every element kept, in order,
/// every key naming its element, and the collection usable.
#[test]
fn a_keyed_push_whose_growth_fails_keeps_every_key() {
    use read_write_collection::KeyedCollection;
    for kept in [0, 1, 3] {
        let t = Tracker::new();
        let n = 6;
        let mut c = KeyedCollection::with_capacity(n);
        let keys: Vec<_> = t
            .elems(0..n as i64)
            .into_iter()
            .map(|e| c.push(e))
            .collect();
        assert_eq!(c.capacity(), n);
        let extra = t.elem(-1);
        let panicked = with_failing_growth(|| {
            let mut cursor = c.cursor();
            for _ in 0..kept {
                cursor.next().unwrap().val += 1000;
            }
            let mut e = cursor.next().unwrap();
            e.push(extra);
            unreachable!("the push grows a full list, and growing fails");
        });
        assert!(panicked, "kept={kept}: the growth should have failed");
        assert_eq!(ids(c.values()), (0..n as u32).collect::<Vec<_>>());
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(c.index_of(k), Some(i));
            let base = i as i64;
            assert_eq!(c[k].val, if i < kept { base + 1000 } else { base });
        }
        assert_eq!(t.drops(n as u32), 1, "the pushed value");
        c.traverse(|mut e| {
            if e.val == 1 || e.val == 1001 {
                e.push(t.elem(-2));
            }
        });
        assert_eq!(c.len(), n + 1);
        drop(c);
        t.assert_all_dropped_once();
    }
}

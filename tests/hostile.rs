//! Hostile inputs for the queue and the parallel pass, found by an
//! adversarial review: element `Drop`s that panic during the clears, panic
//! payloads whose own `Drop` panics (from a waker or a removal hook),
//! wakers re-polled, cancelled and reused across wake-ups, re-entrant
//! wakers, and mixed loads against the bound. Each test states the claim it
//! checks; the first ones failed before the clears published the freed room
//! ahead of the drops and before discarded panic payloads were contained.
#![cfg(not(loom))]

use std::panic::{catch_unwind, AssertUnwindSafe};
#[cfg(any(feature = "async", feature = "rayon"))]
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::Duration;

use read_write_collection::BufferedCollection;

/// Long enough for a thread that was woken to finish its push.
const DEADLINE: Duration = Duration::from_secs(3);

fn settle() {
    thread::sleep(Duration::from_millis(if cfg!(miri) { 1 } else { 50 }));
}

/// Silences the messages of the panics these probes provoke on purpose
/// (assertion failures still print).
fn quiet() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let msg = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned());
            let expected = match &msg {
                None => true, // panic_any payloads
                Some(m) => [
                    "Bomb::drop",
                    "payload drop",
                    "closure at element",
                    "hook ",
                    "first hook panic",
                    "more than the new maximum",
                ]
                .iter()
                .any(|k| m.contains(k)),
            };
            if !expected {
                default(info);
            }
        }));
    });
}

/// An element whose `Drop` panics when armed.
struct Bomb {
    armed: bool,
}

impl Drop for Bomb {
    fn drop(&mut self) {
        if self.armed {
            panic!("Bomb::drop");
        }
    }
}

// ---------------------------------------------------------------------------
// 1. Room freed by `clear` / `clear_visible` when an element's Drop panics.

/// bounded(2), full with two visible elements (one panics on drop), a
/// producer thread blocked in `push` for room. `clear()` empties the
/// visible side (Vec::clear sets len 0 before dropping), then the panic
/// propagates before `release()` publishes the new count: the freed room is
/// never handed to the blocked producer. The owner catches the panic and
/// waits for the producer, which never returns (until the collection is
/// dropped, which closes the queue).
fn clear_with_panicking_drop(how: &str) -> (bool, usize) {
    quiet();
    let mut c: BufferedCollection<Bomb> = BufferedCollection::bounded(2);
    let p = c.producer();
    p.push(Bomb { armed: true }).unwrap();
    p.push(Bomb { armed: false }).unwrap();
    c.commit();
    let (tx, rx) = mpsc::channel();
    let blocked = thread::spawn(move || {
        let r = p.push(Bomb { armed: false });
        let ok = r.is_ok();
        // Disarm whatever came back so the thread ends quietly.
        if let Err(e) = r {
            std::mem::forget(e.into_inner());
        }
        let _ = tx.send(ok);
    });
    settle();
    let cleared = catch_unwind(AssertUnwindSafe(|| match how {
        "clear" => c.clear(),
        "clear_visible" => c.clear_visible(),
        _ => unreachable!(),
    }));
    assert!(cleared.is_err(), "the Drop panic reaches the caller");
    let len = c.len();
    let woken = rx.recv_timeout(DEADLINE).is_ok();
    // Unblock the producer (close) before asserting, so nothing hangs.
    drop(c);
    blocked.join().unwrap();
    (woken, len)
}

#[test]
fn clear_with_a_panicking_element_drop_still_wakes_the_blocked_producer() {
    let (woken, len) = clear_with_panicking_drop("clear");
    assert_eq!(len, 0, "the visible side is empty: room for 2");
    assert!(
        woken,
        "LOST WAKE-UP: clear() emptied the collection (len 0, bound 2) but the \
         producer blocked for room was never woken"
    );
}

#[test]
fn clear_visible_with_a_panicking_element_drop_still_wakes_the_blocked_producer() {
    let (woken, len) = clear_with_panicking_drop("clear_visible");
    assert_eq!(len, 0, "the visible side is empty: room for 2");
    assert!(
        woken,
        "LOST WAKE-UP: clear_visible() emptied the collection (len 0, bound 2) \
         but the producer blocked for room was never woken"
    );
}

/// Same with `clear_pending`: a local pending element whose Drop panics.
/// `self.pending.clear()` panics before `link.clear` runs, so the
/// producers' queue is not emptied either and nobody is woken.
#[test]
fn clear_pending_with_a_panicking_local_element_still_clears_the_queue_and_wakes() {
    quiet();
    let mut c: BufferedCollection<Bomb> = BufferedCollection::bounded(2);
    let p = c.producer();
    c.push(Bomb { armed: true }); // local pending
    p.push(Bomb { armed: false }).unwrap(); // producers' queue: now full
    let (tx, rx) = mpsc::channel();
    let blocked = thread::spawn(move || {
        let ok = p.push(Bomb { armed: false }).is_ok();
        let _ = tx.send(ok);
    });
    settle();
    let cleared = catch_unwind(AssertUnwindSafe(|| c.clear_pending()));
    assert!(cleared.is_err(), "the Drop panic reaches the caller");
    let woken = rx.recv_timeout(DEADLINE).is_ok();
    // The woken producer's push is the only thing pending: the queued
    // element was cleared.
    let pending_after = c.pending_len();
    drop(c);
    blocked.join().unwrap();
    assert!(
        woken && pending_after == 1,
        "clear_pending() panicked in a local element's Drop: pending after \
         {pending_after} element(s) and the blocked producer woken: {woken}"
    );
}

// ---------------------------------------------------------------------------
// 2. Wakers: re-polled with a new waker, woken then dropped, slot reuse.

#[cfg(feature = "async")]
mod wakers {
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Poll, Wake, Waker};

    use super::*;

    pub(super) struct Counting(pub(super) AtomicUsize);

    impl Wake for Counting {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, SeqCst);
        }
        fn wake_by_ref(self: &Arc<Self>) {
            self.0.fetch_add(1, SeqCst);
        }
    }

    pub(super) fn counting() -> (Arc<Counting>, Waker) {
        let c = Arc::new(Counting(AtomicUsize::new(0)));
        (Arc::clone(&c), Waker::from(c))
    }

    /// F registered, the set woken (new epoch), G registered in the new
    /// epoch (same slot index 0). F, now stale, is dropped: it must not
    /// remove G's waker. Then room is freed: G must be woken.
    #[test]
    fn a_stale_registration_does_not_remove_another_futures_waker() {
        let mut c = BufferedCollection::bounded(1);
        let p = c.producer();
        p.push(0u8).unwrap();
        let (fa, fw) = counting();
        let (ga, gw) = counting();
        let mut f = Box::pin(p.push_async(1));
        assert!(f.as_mut().poll(&mut Context::from_waker(&fw)).is_pending());
        c.commit();
        c.set_max_len(Some(1)); // bound change: wakes the producer set (epoch+1)
        assert_eq!(fa.0.load(SeqCst), 1);
        let mut g = pin!(p.push_async(2));
        assert!(g.as_mut().poll(&mut Context::from_waker(&gw)).is_pending());
        drop(f); // stale (epoch 0, slot 0) vs G's (epoch 1, slot 0)
        assert_eq!(Arc::strong_count(&ga), 3, "G's waker still registered");
        c.clear(); // frees room
        assert_eq!(ga.0.load(SeqCst), 1, "G woken");
        assert!(matches!(
            g.as_mut().poll(&mut Context::from_waker(&gw)),
            Poll::Ready(Ok(()))
        ));
    }

    /// A future polled with waker A, then with waker B, then woken by a
    /// freed room: B is woken, A is not, and neither clone is kept after
    /// the future resolves.
    #[test]
    fn repoll_with_other_waker_then_wake() {
        let mut c = BufferedCollection::bounded(1);
        let p = c.producer();
        p.push(0u8).unwrap();
        let (a, aw) = counting();
        let (b, bw) = counting();
        let mut f = pin!(p.push_async(1));
        assert!(f.as_mut().poll(&mut Context::from_waker(&aw)).is_pending());
        assert!(f.as_mut().poll(&mut Context::from_waker(&bw)).is_pending());
        // And back to A (the slot is still current: replace again).
        assert!(f.as_mut().poll(&mut Context::from_waker(&aw)).is_pending());
        assert_eq!((Arc::strong_count(&a), Arc::strong_count(&b)), (3, 2));
        c.commit();
        c.clear();
        assert_eq!((a.0.load(SeqCst), b.0.load(SeqCst)), (1, 0));
        assert!(matches!(
            f.as_mut().poll(&mut Context::from_waker(&aw)),
            Poll::Ready(Ok(()))
        ));
        assert_eq!((Arc::strong_count(&a), Arc::strong_count(&b)), (2, 2));
    }

    /// Many futures registered and cancelled in interleaved order, with
    /// wakes in between: every live future is woken exactly once per event
    /// and no clone is leaked.
    #[test]
    fn interleaved_register_cancel_wake_leaks_nothing() {
        let mut c = BufferedCollection::bounded(1);
        let p = c.producer();
        p.push(0u8).unwrap();
        c.commit();
        let wakers: Vec<_> = (0..16).map(|_| counting()).collect();
        for round in 0..4 {
            let mut futs: Vec<_> = (0..16).map(|i| Box::pin(p.push_async(i as u8))).collect();
            for (i, f) in futs.iter_mut().enumerate() {
                assert!(f
                    .as_mut()
                    .poll(&mut Context::from_waker(&wakers[i].1))
                    .is_pending());
            }
            // Cancel the odd ones.
            let mut kept = Vec::new();
            for (i, f) in futs.into_iter().enumerate() {
                if i % 2 == 0 {
                    kept.push((i, f));
                }
            }
            for (i, (a, _)) in wakers.iter().enumerate() {
                let expect = if i % 2 == 0 { 3 } else { 2 };
                assert_eq!(Arc::strong_count(a), expect, "round {round} waker {i}");
            }
            c.set_max_len(Some(1)); // wake everyone registered
            for (i, (a, _)) in wakers.iter().enumerate() {
                assert_eq!(Arc::strong_count(a), 2, "round {round} waker {i} released");
                let expect = if i % 2 == 0 { round + 1 } else { 0 };
                assert_eq!(a.0.load(SeqCst), expect, "round {round} waker {i} woken");
            }
            drop(kept);
        }
    }

    /// The module docs: a waker whose `wake` looks at the queue and pushes
    /// into it from `wake` (re-entrancy during delivery) must not deadlock,
    /// and the push made from `wake` wakes the next waiter.
    #[test]
    fn a_waker_that_pushes_from_wake_does_not_deadlock() {
        struct Pusher(read_write_collection::Producer<u8>, AtomicBool);
        impl Wake for Pusher {
            fn wake(self: Arc<Self>) {
                if !self.1.swap(true, SeqCst) {
                    self.0.push(99).unwrap();
                }
            }
        }
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut c = BufferedCollection::bounded(1);
            let p = c.producer();
            p.push(0u8).unwrap();
            let pusher = Waker::from(Arc::new(Pusher(p.clone(), AtomicBool::new(false))));
            {
                let mut f = pin!(p.push_async(1));
                assert!(f
                    .as_mut()
                    .poll(&mut Context::from_waker(&pusher))
                    .is_pending());
                c.commit();
                c.clear_visible(); // wakes `pusher`, whose wake pushes 99 into the freed room
                assert!(
                    f.as_mut()
                        .poll(&mut Context::from_waker(&pusher))
                        .is_pending(),
                    "the room was taken by the push from wake"
                );
            }
            c.commit();
            let _ = tx.send(c.as_slice().to_vec());
        });
        assert_eq!(rx.recv_timeout(DEADLINE).expect("deadlock"), [99]);
    }
}

// ---------------------------------------------------------------------------
// 3. Blocking waits: timeouts and push_batch partial moves.

/// `wait_pending_timeout` times out and leaves no stale waiting count: a
/// later push still wakes a blocked wait.
#[test]
fn timeout_then_blocking_wait_is_woken() {
    let c: Arc<BufferedCollection<u8>> = Arc::new(BufferedCollection::new());
    let p = c.producer();
    for _ in 0..3 {
        assert!(c.wait_pending_timeout(Duration::from_millis(5)).is_err());
    }
    let (tx, rx) = mpsc::channel();
    {
        let c = Arc::clone(&c);
        thread::spawn(move || {
            let _ = tx.send(c.wait_pending());
        });
    }
    settle();
    p.push(1).unwrap();
    assert_eq!(rx.recv_timeout(DEADLINE), Ok(Ok(())));
}

/// A producer's `push_batch` larger than the bound: it moves a prefix,
/// wakes the consumer, blocks, and goes on as the owner drains. The owner
/// loops `wait_pending` / commit / remove; everything arrives, in order,
/// and at no point does the collection hold more than the bound.
#[test]
fn push_batch_partial_moves_against_a_draining_owner() {
    let n: u32 = if cfg!(miri) { 50 } else { 1000 };
    let mut c: BufferedCollection<u32> = BufferedCollection::bounded(3);
    let p = c.producer();
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut batch: Vec<u32> = (0..n).collect();
        let r = p.push_batch(&mut batch);
        let _ = tx.send(r.is_ok());
    });
    let mut got = Vec::new();
    let mut max_seen = 0;
    while c.wait_pending().is_ok() {
        c.commit();
        max_seen = max_seen.max(c.len() + c.pending_len());
        c.traverse(|e| got.push(e.remove()));
    }
    assert_eq!(rx.recv_timeout(DEADLINE), Ok(true));
    assert!(max_seen <= 3, "bound exceeded: {max_seen}");
    assert_eq!(got, (0..n).collect::<Vec<_>>());
}

/// The bound under racing producers, owner pushes, passes with pushes and
/// bound changes: `len + pending_len` (a lower bound of the true total)
/// never exceeds the bound in force, and nothing panics (a `Queue::room`
/// underflow panics in debug builds).
#[test]
fn bound_holds_under_mixed_load() {
    let mut c: BufferedCollection<u32> = BufferedCollection::bounded(8);
    let stop = Arc::new(AtomicBool::new(false));
    let mut threads = Vec::new();
    for t in 0..2 {
        let p = c.producer();
        let stop = Arc::clone(&stop);
        threads.push(thread::spawn(move || {
            let mut i = 0;
            while !stop.load(SeqCst) {
                let _ = p.try_push(t * 1_000_000 + i);
                let mut batch = vec![i; 3];
                let _ = p.try_push_batch(&mut batch);
                i += 1;
            }
        }));
    }
    quiet();
    for round in 0..if cfg!(miri) { 50u32 } else { 5_000 } {
        let max = [8, 12, 16][(round % 3) as usize];
        // Refused (a panic, state unchanged) when the total is above `max`.
        let _ = catch_unwind(AssertUnwindSafe(|| c.set_max_len(Some(max))));
        let _ = c.try_push(round);
        c.commit();
        let bound = c.max_len().unwrap();
        assert!(c.len() + c.pending_len() <= bound, "round {round}");
        c.traverse(|mut e| {
            if *e % 3 == 0 {
                e.remove();
            } else if *e % 5 == 0 {
                let _ = e.try_push(1);
            }
        });
        assert!(
            c.len() + c.pending_len() <= bound,
            "round {round} after pass"
        );
    }
    stop.store(true, SeqCst);
    for t in threads {
        t.join().unwrap();
    }
}

// ---------------------------------------------------------------------------
// 4. par_traverse panics.

#[cfg(feature = "rayon")]
mod par {
    use super::*;
    use read_write_collection::parallel::{ParMode, PAR_MIN_LEN};
    use read_write_collection::ReadWriteCollection;

    fn below_ten(n: &u32) -> bool {
        *n < 10
    }

    /// Module docs (`src/parallel.rs`, "Panics", 1.): the part whose
    /// closure panics stops there, every other part of the round is walked
    /// to its end, and what the panicking part did not walk stays,
    /// unvisited, in order. Forced parallel on a one-thread pool, so the
    /// parts run one after another on one worker.
    #[test]
    fn a_worker_panic_stops_its_part_and_no_other() {
        quiet();
        let n = 2 * PAR_MIN_LEN;
        let bad = n / 2;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let mut c: ReadWriteCollection<usize> = (0..n).collect();
        let visits: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
        let r = catch_unwind(AssertUnwindSafe(|| {
            pool.install(|| {
                c.par_traverse_with(ParMode::Parallel, |e| {
                    visits[*e].fetch_add(1, SeqCst);
                    if *e == bad {
                        panic!("closure at element {bad}");
                    }
                })
            })
        }));
        assert!(r.is_err());
        assert!(c.iter().copied().eq(0..n), "nothing lost, order kept");
        let visits: Vec<usize> = visits.iter().map(|v| v.load(SeqCst)).collect();
        assert!(visits.iter().all(|&v| v <= 1), "visited at most once");
        // Unvisited: a run right after the panicking element (the rest of
        // its part), nothing else.
        let unvisited: Vec<usize> = (0..n).filter(|&i| visits[i] == 0).collect();
        assert!(!unvisited.is_empty(), "the panicking part stopped");
        assert_eq!(unvisited[0], bad + 1);
        assert!(
            unvisited.windows(2).all(|w| w[1] == w[0] + 1),
            "only the panicking part's rest is unvisited: {} .. {}",
            unvisited[0],
            unvisited[unvisited.len() - 1]
        );
        assert!(unvisited.len() < n / 4, "the other parts ran to their ends");
    }

    /// A panic payload whose `Drop` panics, from a second panicking hook
    /// call: par_traverse drops later payloads ("later ones are dropped")
    /// inside the hook loop, that panic escapes, and the removed elements
    /// not yet handed to the hook, plus the round's pushes, are dropped:
    /// lost, against "Nothing is lost".
    #[test]
    fn a_second_hook_panic_with_a_panicking_payload_drop_loses_nothing() {
        quiet();
        struct BadPayload;
        impl Drop for BadPayload {
            fn drop(&mut self) {
                panic!("payload drop");
            }
        }
        let hooked = std::sync::Mutex::new(Vec::new());
        let mut c = ReadWriteCollection::<u32>::with_auto_remove(below_ten as fn(&u32) -> bool)
            .with_removal_hook(|n: u32| {
                hooked.lock().unwrap().push(n);
                match n {
                    1 => panic!("first hook panic"),
                    2 => std::panic::panic_any(BadPayload),
                    _ => {}
                }
            });
        // 100 elements first: the round's serial start (a quarter of it,
        // forced parallel) removes nothing, so the hook runs on the round's
        // parallel part.
        c.extend((1000..1100).chain(0..20u32));
        let r = catch_unwind(AssertUnwindSafe(|| {
            c.par_traverse_with(ParMode::Parallel, |mut e| {
                if *e == 15 {
                    e.push(100);
                }
                *e += 0;
            })
        }));
        assert!(r.is_err());
        let rest: Vec<u32> = c.iter().copied().collect();
        drop(c);
        let hooked = hooked.into_inner().unwrap();
        let mut all: Vec<u32> = hooked.iter().copied().chain(rest.iter().copied()).collect();
        all.sort_unstable();
        let mut want: Vec<u32> = (1000..1100).chain(0..20).chain([100]).collect();
        want.sort_unstable();
        assert_eq!(all, want, "hooked {hooked:?}, collection {rest:?}");
    }

    /// A panicking hook (plain payload): the round's other removed
    /// elements still reach the hook, and the pushes are kept.
    #[test]
    fn a_panicking_hook_loses_nothing() {
        quiet();
        let hooked = std::sync::Mutex::new(Vec::new());
        let mut c = ReadWriteCollection::<u32>::with_auto_remove(below_ten as fn(&u32) -> bool)
            .with_removal_hook(|n: u32| {
                hooked.lock().unwrap().push(n);
                if n == 3 || n == 4 {
                    panic!("hook {n}");
                }
            });
        // As above: the hook runs on the round's parallel part.
        c.extend((1000..1100).chain(0..20u32));
        let r = catch_unwind(AssertUnwindSafe(|| {
            c.par_traverse_with(ParMode::Parallel, |mut e| {
                if *e == 15 {
                    e.push(100);
                }
            })
        }));
        assert!(r.is_err());
        let rest: Vec<u32> = c.iter().copied().collect();
        drop(c);
        let mut hooked = hooked.into_inner().unwrap();
        hooked.sort_unstable();
        assert_eq!(hooked, (0..10).collect::<Vec<_>>());
        let want: Vec<u32> = (1000..1100).chain(10..20).chain([100]).collect();
        assert_eq!(rest, want);
    }
}

/// The producers' queue's own elements: `ProducerLink::clear` drops them
/// after the lock is released and the wake-up delivered, so a panicking
/// `Drop` among them neither loses the wake-up nor poisons anything.
#[test]
fn clear_pending_with_a_panicking_queued_element_still_wakes() {
    quiet();
    let mut c: BufferedCollection<Bomb> = BufferedCollection::bounded(2);
    let p = c.producer();
    p.push(Bomb { armed: true }).unwrap();
    p.push(Bomb { armed: false }).unwrap();
    let (tx, rx) = mpsc::channel();
    let blocked = thread::spawn(move || {
        let ok = p.push(Bomb { armed: false }).is_ok();
        let _ = tx.send((ok, p));
    });
    settle();
    let cleared = catch_unwind(AssertUnwindSafe(|| c.clear_pending()));
    assert!(cleared.is_err(), "the Drop panic reaches the caller");
    let woken = rx.recv_timeout(DEADLINE);
    drop(c);
    blocked.join().unwrap();
    assert!(
        matches!(woken, Ok((true, _))),
        "the blocked producer got the room"
    );
}

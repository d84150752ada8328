//! One buffer per producer handle: the order rule across handles, handles
//! that come and go, and room reserved with `Producer::reserve_async`
//! (feature `async`) held in `PushPermit`s.
#![cfg(not(loom))]

#[cfg(feature = "async")]
use std::sync::mpsc;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use read_write_collection::{
    BufferedCollection, ProducerOrder, TryPushError, WaitError, WaitTimeoutError,
};

mod common;
use common::within;

/// How long a thread that should be woken gets (Miri runs far slower).
const DEADLINE: Duration = Duration::from_secs(if cfg!(miri) { 120 } else { 10 });

/// Three handles (`a`, `b`, then `a`'s clone) take turns, three pushes
/// each, in `order`; returns what one commit appended.
fn three_handles_taking_turns(order: ProducerOrder) -> Vec<u32> {
    let mut c = BufferedCollection::new();
    c.set_producer_order(order);
    let a = c.producer();
    let b = c.producer();
    let a2 = a.clone();
    for i in 0..3 {
        b.push(10 + i).unwrap();
        a.push(i).unwrap();
        a2.push(20 + i).unwrap();
    }
    assert_eq!(c.pending_len(), 9);
    assert_eq!(c.commit(), 9);
    c.into_vec()
}

#[test]
fn a_commit_keeps_the_order_of_arrival_across_handles() {
    assert_eq!(
        three_handles_taking_turns(ProducerOrder::Arrival),
        [10, 0, 20, 11, 1, 21, 12, 2, 22]
    );
}

#[test]
fn per_producer_a_commit_keeps_each_producers_order_and_groups_by_handle() {
    // Handles in the order they were made (a, b, then a's clone), each
    // handle's pushes in its order.
    assert_eq!(
        three_handles_taking_turns(ProducerOrder::PerProducer),
        [0, 1, 2, 10, 11, 12, 20, 21, 22]
    );
}

#[test]
fn one_handle_shared_between_threads_keeps_one_order_per_thread() {
    let mut c = BufferedCollection::new();
    let p = c.producer();
    thread::scope(|s| {
        for t in 0..4u32 {
            let p = &p;
            s.spawn(move || {
                for i in 0..1_000 {
                    p.push((t, i)).unwrap();
                }
            });
        }
    });
    c.commit();
    assert_eq!(c.len(), 4_000);
    for t in 0..4 {
        let mine: Vec<u32> = c.iter().filter(|e| e.0 == t).map(|e| e.1).collect();
        assert_eq!(mine, (0..1_000).collect::<Vec<_>>(), "thread {t}");
    }
}

#[test]
fn a_dropped_handles_values_are_committed_and_its_buffer_then_leaves() {
    let mut c = BufferedCollection::new();
    let keep = c.producer();
    let gone = c.producer();
    gone.push(1).unwrap();
    gone.push(2).unwrap();
    drop(gone);
    assert_eq!(c.producer_count(), 1);
    assert_eq!(c.pending_len(), 2, "still queued");
    keep.push(3).unwrap();
    assert_eq!(c.commit(), 3);
    // In the order they arrived.
    assert_eq!(c.as_slice(), [1, 2, 3]);
    // A handle made and dropped with nothing queued leaves nothing behind.
    for _ in 0..1_000 {
        drop(keep.clone());
    }
    keep.push(4).unwrap();
    assert_eq!(c.commit(), 1);
    assert_eq!(c.as_slice(), [1, 2, 3, 4]);
}

#[test]
fn into_parts_and_drop_take_every_handles_values() {
    let mut c = BufferedCollection::new();
    c.push(0);
    let a = c.producer();
    let b = a.clone();
    b.push(2).unwrap();
    a.push(1).unwrap();
    drop(b);
    // Local pending first, then the producers' values as they arrived.
    assert_eq!(c.into_parts(), (vec![], vec![0, 2, 1]));
    assert!(a.is_closed());

    // Dropping the collection drops what its handles queued, once each,
    // live handles' and dropped handles' alike.
    let value = Arc::new(());
    let c = BufferedCollection::new();
    let a = c.producer();
    let b = c.producer();
    a.push(Arc::clone(&value)).unwrap();
    b.push(Arc::clone(&value)).unwrap();
    drop(b);
    drop(c);
    assert_eq!(Arc::strong_count(&value), 1);
    assert!(a.push(Arc::clone(&value)).is_err());
    assert_eq!(Arc::strong_count(&value), 1, "handed back and dropped");
}

#[test]
fn the_bound_counts_every_handles_values() {
    let mut c = BufferedCollection::bounded(4);
    let handles: Vec<_> = (0..3).map(|_| c.producer()).collect();
    let mut pushed = 0;
    for round in 0..3 {
        for p in &handles {
            if p.try_push(round).is_ok() {
                pushed += 1;
            }
        }
    }
    assert_eq!(pushed, 4, "four values fit, whoever pushed them");
    assert_eq!(handles[0].try_push(9), Err(TryPushError::Full(9)));
    assert_eq!(c.commit(), 4);
    c.clear_visible();
    assert_eq!(handles[2].try_push(9), Ok(()), "the clear freed room");
}

#[cfg(feature = "async")]
mod permits {
    use super::*;
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Wake, Waker};

    use crate::common::block_on;

    struct Noop;
    impl Wake for Noop {
        fn wake(self: Arc<Self>) {}
    }

    #[test]
    fn a_permit_holds_room_until_it_is_used_or_dropped() {
        let mut c = BufferedCollection::bounded(2);
        c.push(0);
        let p = c.producer();
        let permit = block_on(p.reserve_async()).unwrap();
        assert_eq!(
            p.try_push(1),
            Err(TryPushError::Full(1)),
            "the permit has the room"
        );
        assert!(c.try_push(1).is_err(), "the owner's pushes count it too");
        permit.push(5);
        assert_eq!(c.commit(), 2);
        assert_eq!(c.as_slice(), [0, 5]);

        c.clear();
        let permit = block_on(p.reserve_async()).unwrap();
        let other = block_on(p.reserve_async()).unwrap();
        drop(permit);
        assert_eq!(
            p.try_push(6),
            Ok(()),
            "a dropped permit gives its room back"
        );
        other.push(7);
        c.commit();
        assert_eq!(c.as_slice(), [6, 7]);
    }

    #[test]
    fn a_dropped_permit_wakes_a_blocked_push() {
        let mut c = BufferedCollection::bounded(1);
        let p = c.producer();
        let q = c.producer();
        let permit = block_on(p.reserve_async()).unwrap();
        let blocked = thread::spawn(move || q.push(3).is_ok());
        thread::sleep(Duration::from_millis(if cfg!(miri) { 0 } else { 20 }));
        drop(permit);
        assert!(within(DEADLINE, move || blocked.join().unwrap()));
        assert_eq!(c.commit(), 1);
        assert_eq!(c.as_slice(), [3]);
    }

    #[test]
    fn a_waiting_reservation_is_woken_by_the_room_a_commit_frees_and_by_a_close() {
        let mut c = BufferedCollection::bounded(1);
        let p = c.producer();
        p.push(1).unwrap();
        let q = p.clone();
        let waiting = thread::spawn(move || match block_on(q.reserve_async()) {
            Ok(permit) => {
                permit.push(2);
                true
            }
            Err(_) => false,
        });
        thread::sleep(Duration::from_millis(if cfg!(miri) { 0 } else { 20 }));
        assert_eq!(c.commit(), 1);
        c.clear_visible(); // frees the room
        assert!(within(DEADLINE, move || waiting.join().unwrap()));
        assert_eq!(c.commit(), 1);
        assert_eq!(c.as_slice(), [2]);

        let q = p.clone();
        let waiting = thread::spawn(move || block_on(q.reserve_async()).is_err());
        thread::sleep(Duration::from_millis(if cfg!(miri) { 0 } else { 20 }));
        c.close();
        assert!(within(DEADLINE, move || waiting.join().unwrap()));
        assert!(
            block_on(p.reserve_async()).is_err(),
            "closed: no room to reserve"
        );
    }

    #[test]
    fn a_cancelled_reservation_takes_nothing_and_leaves_no_waker() {
        let mut c = BufferedCollection::bounded(1);
        let p = c.producer();
        p.push(1).unwrap();
        let waker = Arc::new(Noop);
        let as_waker = Waker::from(Arc::clone(&waker));
        for _ in 0..100 {
            let mut f = pin!(p.reserve_async());
            assert!(f
                .as_mut()
                .poll(&mut Context::from_waker(&as_waker))
                .is_pending());
        }
        assert_eq!(Arc::strong_count(&waker), 2, "no waker left in the queue");
        c.commit();
        c.clear_visible();
        assert_eq!(
            p.try_push(2),
            Ok(()),
            "the cancelled reservations took no room"
        );
    }

    #[test]
    fn a_permit_taken_before_a_close_still_lands_and_keeps_the_wait_open() {
        let mut c = BufferedCollection::new();
        let p = c.producer();
        let permit = block_on(p.reserve_async()).unwrap();
        c.close();
        assert_eq!(
            c.wait_pending_timeout(Duration::from_millis(10)),
            Err(WaitTimeoutError::Timeout),
            "a permit is outstanding: something can still arrive"
        );
        permit.push(9);
        assert_eq!(c.wait_pending(), Ok(()));
        assert_eq!(c.commit(), 1);
        assert_eq!(
            c.wait_pending(),
            Err(WaitError::Disconnected),
            "closed, nothing queued, no permit"
        );
        assert_eq!(c.as_slice(), [9]);

        // Dropped unused after the close (on another thread, while the
        // owner waits): the wait ends.
        let mut c: BufferedCollection<u8> = BufferedCollection::new();
        let p = c.producer();
        c.close();
        let more = thread::scope(|s| {
            let (reserved_tx, reserved_rx) = mpsc::channel();
            let (release_tx, release_rx) = mpsc::channel::<()>();
            s.spawn(move || {
                let permit = block_on(p.reserve_async());
                // Closed before the reservation: no permit.
                assert!(permit.is_err());
                reserved_tx.send(()).unwrap();
                let _ = release_rx.recv();
            });
            reserved_rx.recv().unwrap();
            drop(release_tx);
            c.wait_pending()
        });
        assert_eq!(more, Err(WaitError::Disconnected));

        let mut c: BufferedCollection<u8> = BufferedCollection::new();
        let p = c.producer();
        let more = thread::scope(|s| {
            let (reserved_tx, reserved_rx) = mpsc::channel();
            let p = &p;
            s.spawn(move || {
                let permit = block_on(p.reserve_async()).unwrap();
                reserved_tx.send(()).unwrap();
                thread::sleep(Duration::from_millis(if cfg!(miri) { 0 } else { 20 }));
                drop(permit);
            });
            reserved_rx.recv().unwrap();
            c.close();
            // Sleeps until the permit is dropped, then sees that nothing
            // more can arrive.
            c.wait_pending()
        });
        assert_eq!(more, Err(WaitError::Disconnected));
    }

    #[test]
    fn a_permit_used_after_the_collection_is_dropped_drops_its_value_once() {
        let c = BufferedCollection::new();
        let p = c.producer();
        let permit = block_on(p.reserve_async()).unwrap();
        drop(c);
        let value = Arc::new(());
        permit.push(Arc::clone(&value));
        drop(p);
        assert_eq!(
            Arc::strong_count(&value),
            1,
            "dropped exactly once, with the queue"
        );
    }

    #[test]
    #[should_panic(expected = "more than the new maximum length")]
    fn a_bound_change_counts_outstanding_permits() {
        let mut c = BufferedCollection::bounded(3);
        c.push(0);
        let p = c.producer();
        let _permit = block_on(p.reserve_async()).unwrap();
        c.set_max_len(Some(1));
    }

    #[test]
    fn permits_and_futures_format_for_debugging() {
        let c: BufferedCollection<u8> = BufferedCollection::new();
        let p = c.producer();
        let f = p.reserve_async();
        assert_eq!(format!("{f:?}"), "ReserveFuture { resolved: false, .. }");
        let permit = block_on(f).unwrap();
        assert_eq!(format!("{permit:?}"), "PushPermit { .. }");
    }
}

/// A wait that publishes freed room and then looks at the buffers must not
/// answer "full, nothing pending" while a push that took that room is
/// queued: the room is read before the buffers are. Many idle handles after
/// the pushing one make the look long enough for the push to land behind
/// it (before the fix, this answered `Full` with one value pending).
#[test]
#[cfg_attr(miri, ignore = "200,000 handles")]
fn a_wait_never_reports_full_with_a_value_pending() {
    use std::sync::Barrier;
    use std::time::Instant;
    let outcome = within(DEADLINE, || {
        let mut c = BufferedCollection::bounded(1);
        c.push(0u32);
        c.commit();
        let p = c.producer();
        let q = c.producer();
        let idle: Vec<_> = (0..200_000).map(|_| p.clone()).collect();
        let blocked = thread::spawn(move || p.push(1).is_ok());
        assert_eq!(
            c.wait_pending_timeout(Duration::from_secs(5)),
            Err(WaitTimeoutError::Full),
            "full, nothing pending, a producer blocked"
        );
        let barrier = Arc::new(Barrier::new(2));
        let go = Arc::clone(&barrier);
        let racer = thread::spawn(move || {
            go.wait();
            let start = Instant::now();
            while start.elapsed() < Duration::from_micros(300) {}
            loop {
                match q.try_push(2) {
                    Ok(()) => return,
                    Err(TryPushError::Full(_)) => continue,
                    Err(TryPushError::Closed(_)) => return,
                }
            }
        });
        c.pop(); // frees the room; the wait below publishes it
        barrier.wait();
        let waited = c.wait_pending_timeout(Duration::from_secs(5));
        let pending = c.pending_len();
        c.close();
        drop(idle);
        racer.join().unwrap();
        blocked.join().unwrap();
        (waited, pending)
    });
    let (waited, pending) = outcome;
    assert!(
        waited != Err(WaitTimeoutError::Full) || pending == 0,
        "answered Full with {pending} pending"
    );
}

#[cfg(feature = "async")]
mod permits_after_the_end {
    use super::*;
    use crate::common::block_on;
    use std::sync::atomic::{AtomicUsize, Ordering};

    struct Counted(Arc<AtomicUsize>);
    impl Drop for Counted {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// After `into_parts` or the collection's drop nothing will read the
    /// buffers again: a permit's value is dropped when pushed, at once (not
    /// when the last handle goes).
    #[test]
    fn a_permit_used_after_the_end_drops_its_value_at_once() {
        for take_apart in [false, true] {
            let drops = Arc::new(AtomicUsize::new(0));
            let c = BufferedCollection::new();
            let p = c.producer();
            let other = p.clone();
            let permit = block_on(p.reserve_async()).unwrap();
            if take_apart {
                let (visible, pending) = c.into_parts();
                assert!(visible.is_empty() && pending.is_empty());
            } else {
                drop(c);
            }
            permit.push(Counted(Arc::clone(&drops)));
            assert_eq!(drops.load(Ordering::SeqCst), 1, "dropped when pushed");
            drop((p, other));
            assert_eq!(drops.load(Ordering::SeqCst), 1, "once");
        }
    }
}

/// Single-threaded pushes through up to five handles in a random
/// interleaving, with commits, clears of the pending side and handles
/// dropped at random points: every commit appends exactly the values
/// pushed since the last one, in push order (what arrival order promises
/// when one thread makes every push), and `into_parts` hands the rest back
/// in that order too. Covers the merges of up to eight handles (a scan)
/// and of more (a heap), runs of one value and long runs.
#[test]
fn arrival_order_matches_push_order_in_random_interleavings() {
    // A small xorshift: the test needs no dependency.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    for case in 0..if cfg!(miri) { 3 } else { 200 } {
        let mut c: BufferedCollection<u32> = BufferedCollection::new();
        let handles = 1 + next(12) as usize;
        let mut producers: Vec<_> = (0..handles).map(|_| Some(c.producer())).collect();
        let mut expected = Vec::new();
        let mut committed = Vec::new();
        let mut pending = Vec::new();
        let burst = 1 + next(8);
        for v in 0..300u32 {
            match next(40) {
                0 => {
                    c.commit();
                    committed.append(&mut pending);
                }
                1 => {
                    c.clear_pending();
                    pending.clear();
                }
                2 => {
                    let h = next(handles as u64) as usize;
                    producers[h] = None;
                }
                _ => {
                    // Bursts through one handle make long runs.
                    let h = (u64::from(v) / burst % handles as u64) as usize;
                    let h = if next(3) == 0 {
                        next(handles as u64) as usize
                    } else {
                        h
                    };
                    if let Some(p) = &producers[h] {
                        p.push(v).unwrap();
                        pending.push(v);
                    } else {
                        producers[h] = Some(c.producer());
                    }
                }
            }
            if next(10) == 0 {
                // A commit here must match the model exactly.
                c.commit();
                committed.append(&mut pending);
                assert_eq!(c.as_slice(), committed, "case {case}, after {v}");
            }
        }
        expected.extend(committed);
        let (visible, rest) = c.into_parts();
        assert_eq!(visible, expected, "case {case}");
        assert_eq!(rest, pending, "case {case}: into_parts keeps arrival order");
    }
}

/// A permit forgotten with `mem::forget` holds its room until its producer
/// is dropped, which gives the room back: a later producer can fill the
/// bound again.
#[cfg(feature = "async")]
#[test]
fn a_forgotten_permits_room_comes_back_when_its_producer_is_dropped() {
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};

    fn now<F: Future>(f: F) -> F::Output {
        match pin!(f).poll(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(v) => v,
            Poll::Pending => panic!("would wait"),
        }
    }
    let mut c: BufferedCollection<u8> = BufferedCollection::bounded(2);
    let p = c.producer();
    std::mem::forget(now(p.reserve_async()).unwrap());
    std::mem::forget(now(p.reserve_async()).unwrap());
    let q = c.producer();
    assert_eq!(q.try_push(1), Err(TryPushError::Full(1)), "both units held");
    drop(p);
    assert_eq!(q.try_push(1), Ok(()));
    assert_eq!(q.try_push(2), Ok(()));
    assert_eq!(q.try_push(3), Err(TryPushError::Full(3)));
    c.commit();
    assert_eq!(c.as_slice(), [1, 2]);
}

/// `push_timeout` gives up on a full queue after its timeout and hands the
/// value back; it succeeds once the owner frees room within it; a close
/// while it waits hands the value back as `Closed`.
#[test]
fn push_timeout_waits_for_room_then_gives_up() {
    use read_write_collection::PushTimeoutError;

    let mut c: BufferedCollection<u8> = BufferedCollection::bounded(1);
    let p = c.producer();
    p.push(0).unwrap();
    let started = std::time::Instant::now();
    let late = p.push_timeout(1, Duration::from_millis(20));
    assert_eq!(late, Err(PushTimeoutError::Timeout(1)));
    assert!(started.elapsed() >= Duration::from_millis(20));
    thread::scope(|s| {
        let waiting = s.spawn(|| p.push_timeout(2, DEADLINE));
        // Only the owner frees room: wait until the push is blocked.
        assert_eq!(c.wait_pending_timeout(DEADLINE), Ok(()));
        c.commit();
        assert_eq!(c.wait_pending(), Err(WaitError::Full));
        c.clear();
        assert_eq!(waiting.join().unwrap(), Ok(()));
    });
    c.commit();
    assert_eq!(c.as_slice(), [2]);
    thread::scope(|s| {
        let waiting = s.spawn(|| p.push_timeout(3, DEADLINE));
        assert_eq!(c.wait_pending(), Err(WaitError::Full));
        c.close();
        assert_eq!(waiting.join().unwrap(), Err(PushTimeoutError::Closed(3)));
    });
}

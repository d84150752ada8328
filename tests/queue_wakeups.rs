//! The queue's wake-up rules under races and hostile wakers: clears free
//! room and wake whoever waits for it, `set_max_len` checks and installs
//! the bound in one step, wakers run after the queue's lock is released
//! (a waker that panics or looks at the queue harms no one else), and a
//! cancelled future leaves nothing registered.
//!
//! A thread that could hang on a regression reports through a channel with
//! a generous deadline, so a lost wake-up fails the test instead of
//! hanging it.
#![cfg(not(loom))]
#![allow(unsafe_code)] // the hand-made waker vtable in `hooks`

use std::panic::{catch_unwind, AssertUnwindSafe};
#[cfg(feature = "async")]
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::Duration;

use read_write_collection::{BufferedCollection, TryPushError, WaitTimeoutError};
#[cfg(feature = "async")]
use read_write_collection::{Producer, WaitError};

mod common;
use common::within;

/// How long a thread that should be woken gets before the test calls it a
/// lost wake-up.
const DEADLINE: Duration = Duration::from_secs(10);

/// Time for a thread to reach its blocking call (if it has not yet, it
/// finds the state it waits for when it gets there: same result).
fn settle() {
    thread::sleep(Duration::from_millis(if cfg!(miri) { 1 } else { 30 }));
}

/// Runs `f` on a new thread and returns a receiver for its result: a
/// thread that hangs leaves the receiver empty (the test fails at the
/// deadline; the hung thread is left behind).
fn spawn_reporting<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> mpsc::Receiver<R> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx
}

// ---------------------------------------------------------------------------
// 1. Clearing the producers' queue frees room and wakes who waits for it

/// A bounded(2) queue filled by a producer, a second push blocked for room:
/// `clear_pending` (and `clear`) empties the queue, so the blocked push
/// goes through, and the owner's wait sees it.
#[test]
fn clearing_the_queue_wakes_a_producer_blocked_for_room() {
    for how in ["clear_pending", "clear"] {
        let mut c = BufferedCollection::bounded(2);
        let p = c.producer();
        p.push(1).unwrap();
        p.push(2).unwrap();
        let blocked = {
            let p = p.clone();
            spawn_reporting(move || p.push(3))
        };
        settle();
        assert_eq!(p.try_push(9), Err(TryPushError::Full(9)), "{how}: full");
        if how == "clear" {
            c.clear();
        } else {
            c.clear_pending();
        }
        assert_eq!(
            blocked.recv_timeout(DEADLINE).map(|r| r.is_ok()),
            Ok(true),
            "{how}: the blocked producer was not woken by the freed room"
        );
        assert_eq!(c.wait_pending_timeout(DEADLINE), Ok(()));
        assert_eq!(c.commit(), 1, "{how}");
        assert_eq!(c.as_slice(), [3], "{how}");
    }
}

/// The same through `wait_pending`: with the bug both threads slept for
/// ever (the owner for a push, the producer for room).
#[test]
fn clear_pending_then_wait_pending_does_not_sleep_with_the_producer() {
    let mut c = BufferedCollection::bounded(1);
    let p = c.producer();
    p.push(1).unwrap();
    let blocked = {
        let p = p.clone();
        spawn_reporting(move || p.push(2))
    };
    settle();
    c.clear_pending();
    let waited = spawn_reporting(move || (c.wait_pending(), c));
    let (woken, mut c) = waited
        .recv_timeout(DEADLINE)
        .expect("wait_pending slept through the push the clear made room for");
    assert_eq!(woken, Ok(()));
    assert!(blocked.recv_timeout(DEADLINE).unwrap().is_ok());
    assert_eq!(c.commit(), 1);
    assert_eq!(c.as_slice(), [2]);
}

/// A `push_async` future waiting for room is woken by a clear.
#[cfg(feature = "async")]
#[test]
fn clearing_the_queue_wakes_a_push_async_waiting_for_room() {
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Poll};

    for how in ["clear_pending", "clear"] {
        let (count, waker) = counting_waker();
        let mut cx = Context::from_waker(&waker);
        let mut c = BufferedCollection::bounded(1);
        let p = c.producer();
        p.push(1).unwrap();
        let mut f = pin!(p.push_async(2));
        assert!(f.as_mut().poll(&mut cx).is_pending(), "{how}: full");
        if how == "clear" {
            c.clear();
        } else {
            c.clear_pending();
        }
        assert!(count.wakes() > 0, "{how}: the clear woke no one");
        assert!(
            matches!(f.as_mut().poll(&mut cx), Poll::Ready(Ok(()))),
            "{how}"
        );
        assert_eq!(c.commit(), 1, "{how}");
        assert_eq!(c.as_slice(), [2], "{how}");
    }
}

// ---------------------------------------------------------------------------
// 2. `set_max_len` checks and installs the bound in one step

/// Producers push as fast as they can (never blocking) while the owner
/// lowers the bound to a little above what it holds, then lifts it again.
/// A producer push between the check and the install left the queue above
/// the new bound, and the next push's room computation overflowed (a
/// panic with overflow checks, wrapped room without). Now: no producer
/// panics, and the total never exceeds the bound in force.
#[test]
#[cfg_attr(miri, ignore)] // a stress loop: seconds natively
fn set_max_len_races_with_producers_and_the_bound_holds() {
    const ROUNDS: usize = 20_000;
    const PRODUCERS: usize = 2;
    // The owner's own refusals (a producer pushed between the owner's
    // look at the total and `set_max_len`'s check) are legitimate: keep
    // their messages out of the output.
    let quiet = "holds more than the new maximum length";
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| info.payload().downcast_ref::<String>().map(String::as_str));
        if msg.map_or(true, |m| !m.contains(quiet)) {
            default_hook(info);
        }
    }));

    let mut c = BufferedCollection::<u32>::new();
    let stop = AtomicBool::new(false);
    let mut refused = 0;
    let mut over = 0;
    thread::scope(|s| {
        let workers: Vec<_> = (0..PRODUCERS)
            .map(|_| {
                let p = c.producer();
                let stop = &stop;
                s.spawn(move || {
                    let mut pushed = 0u64;
                    while !stop.load(SeqCst) {
                        if p.try_push(0).is_ok() {
                            pushed += 1;
                        }
                    }
                    pushed
                })
            })
            .collect();
        for round in 0..ROUNDS {
            // Lifting never fails; then start from an empty queue.
            c.set_max_len(if round % 2 == 0 { None } else { Some(1 << 20) });
            c.clear();
            let max = c.len() + c.pending_len() + 2;
            if catch_unwind(AssertUnwindSafe(|| c.set_max_len(Some(max)))).is_err() {
                refused += 1;
                continue;
            }
            for _ in 0..4 {
                let total = c.len() + c.pending_len();
                if total > max {
                    over += 1;
                }
                c.commit();
            }
            if workers.iter().any(|w| w.is_finished()) {
                break;
            }
        }
        stop.store(true, SeqCst);
        for w in workers {
            assert!(
                w.join().is_ok(),
                "a producer panicked (the queue went past its bound)"
            );
        }
    });
    let _ = std::panic::take_hook();
    assert_eq!(over, 0, "the total exceeded the bound {over} times");
    assert!(
        refused < ROUNDS,
        "every bound was refused: the race never ran"
    );
}

/// Lowering the bound below what producers have queued is refused, and
/// leaves the bound and the queue as they were.
#[test]
fn set_max_len_below_the_producers_queue_is_refused_and_changes_nothing() {
    let mut c = BufferedCollection::bounded(10);
    let p = c.producer();
    for i in 0..5 {
        p.push(i).unwrap();
    }
    let refused = catch_unwind(AssertUnwindSafe(|| c.set_max_len(Some(4))));
    assert!(refused.is_err());
    assert_eq!(c.max_len(), Some(10));
    assert_eq!(c.pending_len(), 5);
    for i in 5..10 {
        assert_eq!(p.try_push(i), Ok(()));
    }
    assert_eq!(p.try_push(10), Err(TryPushError::Full(10)));
    c.set_max_len(Some(10));
    assert_eq!(c.commit(), 10);
}

// ---------------------------------------------------------------------------
// 2b. A wait that only the caller could end returns instead of sleeping

/// The `wait_pending` loop of the docs ("handle the even events, keep the
/// odd ones") on a queue bounded to 4: the kept events fill the bound, the
/// producer blocks for room only the owner can free, and the wait returns
/// `false` (it used to sleep for ever).
#[test]
fn a_full_queue_with_a_blocked_producer_ends_wait_pending() {
    let (kept, handled, refused) = within(DEADLINE, || {
        let mut events = BufferedCollection::bounded(4);
        let producer = events.producer();
        let worker = thread::spawn(move || {
            (0..100).find_map(|i| producer.push(i).err().map(|e| e.into_inner()))
        });
        let mut handled = Vec::new();
        while events.wait_pending().is_ok() {
            events.commit();
            events.traverse(|e| {
                if *e % 2 == 0 {
                    handled.push(e.remove());
                }
            });
        }
        let kept = events.as_slice().to_vec();
        assert_eq!(events.producer_count(), 1, "the producer is still there");
        drop(events);
        (kept, handled, worker.join().unwrap())
    });
    assert_eq!(kept, [1, 3, 5, 7]);
    assert_eq!(handled, [0, 2, 4, 6]);
    assert_eq!(refused, Some(8), "the blocked push got its value back");
}

/// The timed wait says `Full` at once, however long its timeout.
#[test]
fn a_full_queue_with_a_blocked_producer_ends_wait_pending_timeout() {
    within(DEADLINE, || {
        let mut events = BufferedCollection::bounded(2);
        events.extend([1, 3]);
        events.commit();
        let producer = events.producer();
        let blocked = spawn_reporting(move || producer.push(5));
        assert_eq!(
            events.wait_pending_timeout(Duration::from_secs(3600)),
            Err(WaitTimeoutError::Full)
        );
        assert!(blocked.try_recv().is_err(), "still blocked");
        // Freeing the room ends it: the push goes through.
        events.traverse(|e| {
            e.remove();
        });
        assert_eq!(events.wait_pending_timeout(DEADLINE), Ok(()));
        assert!(blocked.recv_timeout(DEADLINE).unwrap().is_ok());
        assert_eq!(events.commit(), 1);
        assert_eq!(events.as_slice(), [5]);
    });
}

/// The wait was already asleep when the producer blocked: the producer's
/// blocking wakes it to see that only it can free the room.
#[test]
fn a_producer_that_blocks_later_ends_a_wait_already_asleep() {
    let events = Arc::new({
        let mut c = BufferedCollection::bounded(1);
        c.push(0u8);
        c.commit();
        c
    });
    let producer = events.producer();
    let waiting = {
        let events = Arc::clone(&events);
        spawn_reporting(move || events.wait_pending_timeout(Duration::from_secs(3600)))
    };
    settle();
    assert!(
        waiting.try_recv().is_err(),
        "nothing to wake it yet: it waits"
    );
    let blocked = spawn_reporting(move || producer.push(1));
    assert_eq!(
        waiting.recv_timeout(DEADLINE),
        Ok(Err(WaitTimeoutError::Full)),
        "the wait slept through the producer blocking"
    );
    drop(Arc::try_unwrap(events).unwrap_or_else(|_| panic!("one owner")));
    assert_eq!(
        blocked
            .recv_timeout(DEADLINE)
            .map(|r| r.map_err(|e| e.into_inner())),
        Ok(Err(1)),
        "closed: the value comes back"
    );
}

/// Full alone is not enough: with no producer blocked (one that polls with
/// `try_push` is not blocked), a full queue waits as before, and a
/// producer leaving still ends the wait as `Disconnected`.
#[test]
fn a_full_queue_without_a_blocked_producer_still_waits() {
    let mut events = BufferedCollection::bounded(1);
    events.push(0u8);
    events.commit();
    let producer = events.producer();
    assert_eq!(producer.try_push(1), Err(TryPushError::Full(1)));
    assert_eq!(
        events.wait_pending_timeout(Duration::from_millis(20)),
        Err(WaitTimeoutError::Timeout)
    );
    drop(producer);
    assert_eq!(
        events.wait_pending_timeout(Duration::from_millis(20)),
        Err(WaitTimeoutError::Disconnected)
    );
}

/// `wait_pending_async` resolves to `false` at once, for a producer blocked
/// in `push` and for one waiting in `push_async`; a wait already pending
/// is woken when a `push_async` starts waiting for room.
#[cfg(feature = "async")]
#[test]
fn a_full_queue_with_a_blocked_producer_ends_wait_pending_async() {
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Poll};

    within(DEADLINE, || {
        let mut events = BufferedCollection::bounded(1);
        events.push(0u8);
        events.commit();
        let producer = events.producer();
        let blocked = {
            let producer = producer.clone();
            spawn_reporting(move || producer.push(1))
        };
        assert_eq!(
            block_on(events.wait_pending_async()),
            Err(WaitError::Full),
            "blocked in push"
        );
        events.clear();
        assert!(blocked.recv_timeout(DEADLINE).unwrap().is_ok());
        events.commit();

        let (count, waker) = counting_waker();
        let mut cx = Context::from_waker(&waker);
        let mut wait = pin!(events.wait_pending_async());
        assert_eq!(
            wait.as_mut().poll(&mut cx),
            Poll::Pending,
            "full, nobody blocked"
        );
        let mut push = pin!(producer.push_async(2));
        assert!(
            push.as_mut().poll(&mut cx).is_pending(),
            "full: the push waits"
        );
        assert!(count.wakes() > 0, "the waiting push woke the wait");
        assert_eq!(
            wait.as_mut().poll(&mut cx),
            Poll::Ready(Err(WaitError::Full))
        );
        assert_eq!(
            block_on(events.wait_pending_async()),
            Err(WaitError::Full),
            "blocked in push_async"
        );
    });
}

/// Parks the thread until woken: a minimal executor.
#[cfg(feature = "async")]
fn block_on<F: std::future::Future>(f: F) -> F::Output {
    struct Unpark(thread::Thread);
    impl std::task::Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = std::task::Waker::from(Arc::new(Unpark(thread::current())));
    let mut cx = std::task::Context::from_waker(&waker);
    let mut f = std::pin::pin!(f);
    loop {
        match f.as_mut().poll(&mut cx) {
            std::task::Poll::Ready(v) => return v,
            std::task::Poll::Pending => thread::park(),
        }
    }
}

// ---------------------------------------------------------------------------
// 3. Executors' waker code runs after the queue's lock is released

#[cfg(feature = "async")]
mod wakers {
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Poll, Wake, Waker};

    use super::*;

    /// A waker whose `wake` panics.
    struct PanickingWaker;

    impl Wake for PanickingWaker {
        fn wake(self: Arc<Self>) {
            panic!("a hostile waker");
        }
    }

    /// A waker whose `wake` panics with a payload whose own `Drop` panics
    /// (the hazard `catch_unwind`'s docs name): dropping the caught payload
    /// must not cut the delivery short either.
    struct PanickingPayloadWaker;

    struct PanickingPayload;

    impl Drop for PanickingPayload {
        fn drop(&mut self) {
            panic!("a hostile panic payload");
        }
    }

    impl Wake for PanickingPayloadWaker {
        fn wake(self: Arc<Self>) {
            std::panic::panic_any(PanickingPayload);
        }
    }

    /// A panicking waker registered by one `wait_pending_async`: the push
    /// that wakes it returns `Ok` once (no panic, so a retry cannot
    /// duplicate the value), a second task's waker is still woken, and a
    /// thread blocked in `wait_pending` is still notified.
    #[test]
    fn a_panicking_consumer_waker_costs_no_one_else_a_wake_up() {
        let hostile_wakers = [
            Waker::from(Arc::new(PanickingWaker)),
            Waker::from(Arc::new(PanickingPayloadWaker)),
        ];
        for hostile in hostile_wakers {
            consumer_wakeups_survive(hostile);
        }
    }

    fn consumer_wakeups_survive(hostile: Waker) {
        within(DEADLINE, move || {
            let c: Arc<BufferedCollection<u8>> = Arc::new(BufferedCollection::new());
            let p = c.producer();
            let (count, counting) = counting_waker();
            let waiting = {
                let c = Arc::clone(&c);
                spawn_reporting(move || c.wait_pending())
            };
            settle();
            {
                let mut f1 = pin!(c.wait_pending_async());
                let mut f2 = pin!(c.wait_pending_async());
                assert!(f1
                    .as_mut()
                    .poll(&mut Context::from_waker(&hostile))
                    .is_pending());
                assert!(f2
                    .as_mut()
                    .poll(&mut Context::from_waker(&counting))
                    .is_pending());

                let pushed = catch_unwind(AssertUnwindSafe(|| p.push(7)));
                assert!(
                    matches!(pushed, Ok(Ok(()))),
                    "the push must return Ok, not panic"
                );
                assert!(count.wakes() > 0, "the other task was not woken");
                assert_eq!(
                    waiting.recv_timeout(DEADLINE),
                    Ok(Ok(())),
                    "the blocked wait_pending was not notified"
                );
                assert_eq!(
                    f2.as_mut().poll(&mut Context::from_waker(&counting)),
                    Poll::Ready(Ok(()))
                );
            }
            let mut c = Arc::try_unwrap(c).unwrap_or_else(|_| panic!("the waiting thread is done"));
            assert_eq!(c.pending_len(), 1, "queued once");
            c.commit();
            assert_eq!(c.as_slice(), [7]);
        });
    }

    /// A panicking waker registered by a `push_async` waiting for room: the
    /// owner's pass that frees the room does not panic, and the other
    /// waiting task and the blocked producer thread get the room.
    #[test]
    fn a_panicking_producer_waker_costs_no_one_else_a_wake_up() {
        within(DEADLINE, || {
            let mut c = BufferedCollection::bounded(3);
            let p = c.producer();
            for i in 0..3 {
                p.push(i).unwrap();
            }
            c.commit();
            let hostile = Waker::from(Arc::new(PanickingWaker));
            let (count, counting) = counting_waker();
            let mut f1 = pin!(p.push_async(10));
            let mut f2 = pin!(p.push_async(11));
            assert!(f1
                .as_mut()
                .poll(&mut Context::from_waker(&hostile))
                .is_pending());
            assert!(f2
                .as_mut()
                .poll(&mut Context::from_waker(&counting))
                .is_pending());
            let blocked = {
                let p = p.clone();
                spawn_reporting(move || p.push(12))
            };
            settle();
            let freed = catch_unwind(AssertUnwindSafe(|| {
                c.traverse(|e| {
                    e.remove();
                })
            }));
            assert!(freed.is_ok(), "the owner's pass panicked");
            assert!(count.wakes() > 0, "the other task was not woken");
            assert!(
                blocked.recv_timeout(DEADLINE).is_ok_and(|r| r.is_ok()),
                "the blocked producer was not woken"
            );
            assert!(matches!(
                f2.as_mut().poll(&mut Context::from_waker(&counting)),
                Poll::Ready(Ok(()))
            ));
            assert!(matches!(
                f1.as_mut().poll(&mut Context::from_waker(&counting)),
                Poll::Ready(Ok(()))
            ));
            c.commit();
            let mut got = c.as_slice().to_vec();
            got.sort_unstable();
            assert_eq!(got, [10, 11, 12]);
        });
    }

    /// A waker that looks at the queue from `wake` (here: asks whether the
    /// producer is closed, which locks the queue). It used to run under the
    /// queue's lock and deadlock the push that woke it.
    struct ReentrantWaker {
        producer: Producer<u8>,
        wakes: AtomicUsize,
    }

    impl Wake for ReentrantWaker {
        fn wake(self: Arc<Self>) {
            assert!(!self.producer.is_closed());
            self.wakes.fetch_add(1, SeqCst);
        }
    }

    #[test]
    fn a_waker_that_looks_at_the_queue_does_not_deadlock_the_push() {
        within(DEADLINE, || {
            let mut c: BufferedCollection<u8> = BufferedCollection::new();
            let p = c.producer();
            let reentrant = Arc::new(ReentrantWaker {
                producer: p.clone(),
                wakes: AtomicUsize::new(0),
            });
            let waker = Waker::from(Arc::clone(&reentrant));
            {
                let mut f = pin!(c.wait_pending_async());
                assert!(f
                    .as_mut()
                    .poll(&mut Context::from_waker(&waker))
                    .is_pending());
                let pushed = spawn_reporting(move || p.push(1).is_ok());
                assert_eq!(
                    pushed.recv_timeout(DEADLINE),
                    Ok(true),
                    "the push deadlocked in the waker"
                );
                assert_eq!(reentrant.wakes.load(SeqCst), 1);
                assert_eq!(
                    f.as_mut().poll(&mut Context::from_waker(&waker)),
                    Poll::Ready(Ok(()))
                );
            }
            c.commit();
            assert_eq!(c.as_slice(), [1]);
        });
    }

    /// A waker whose `clone` looks at the queue: `push_async` clones the
    /// task's waker to register it, which used to happen under the lock.
    #[test]
    fn a_waker_whose_clone_looks_at_the_queue_does_not_deadlock_the_poll() {
        within(DEADLINE, || {
            let mut c = BufferedCollection::bounded(1);
            let p = c.producer();
            p.push(0u8).unwrap();
            let observer = p.clone();
            let hooks = hooks::Hooks::new(move || {
                let _ = observer.is_closed();
            });
            let polled = {
                let hooks = Arc::clone(&hooks);
                spawn_reporting(move || {
                    let waker = hooks::waker(&hooks);
                    let first = {
                        let mut f = pin!(p.push_async(1));
                        f.as_mut()
                            .poll(&mut Context::from_waker(&waker))
                            .is_pending()
                    };
                    (first, p)
                })
            };
            let (first, p) = polled.recv_timeout(DEADLINE).expect("the poll deadlocked");
            assert!(first, "full: the future waits");
            assert!(hooks.clones.load(SeqCst) > 0, "the waker was cloned");
            c.commit();
            assert_eq!(c.as_slice(), [0]);
            drop(p);
        });
    }

    // -----------------------------------------------------------------------
    // 4. Cancelled futures take nothing with them

    /// A cancelled `push_async` or `wait_pending_async` leaves no clone of
    /// its waker behind: 10,000 of them on a full queue, each with its own
    /// task's waker, and every waker is back to its one owner.
    #[test]
    fn cancelled_futures_deregister_their_wakers() {
        const N: usize = if cfg!(miri) { 20 } else { 10_000 };
        let mut c = BufferedCollection::bounded(1);
        let p = c.producer();
        p.push(0u8).unwrap();
        let tasks: Vec<_> = (0..N).map(|_| counting_waker()).collect();
        for (_, waker) in &tasks {
            let mut f = pin!(p.push_async(1));
            assert!(f
                .as_mut()
                .poll(&mut Context::from_waker(waker))
                .is_pending());
        }
        for (count, _) in &tasks {
            assert_eq!(Arc::strong_count(count), 2, "a push_async kept its waker");
        }
        c.commit();
        c.clear();
        let _more = p.clone();
        for (_, waker) in &tasks {
            let mut f = pin!(c.wait_pending_async());
            assert!(f
                .as_mut()
                .poll(&mut Context::from_waker(waker))
                .is_pending());
        }
        for (count, _) in &tasks {
            assert_eq!(
                Arc::strong_count(count),
                2,
                "a wait_pending_async kept its waker"
            );
            assert_eq!(count.wakes(), 0);
        }
    }

    /// A future polled again with another task's waker holds only the new
    /// one (the old clone is dropped, not kept beside it).
    #[test]
    fn a_future_polled_with_a_new_waker_replaces_the_old_one() {
        let mut c = BufferedCollection::bounded(1);
        let p = c.producer();
        p.push(0u8).unwrap();
        let (old, old_waker) = counting_waker();
        let (new, new_waker) = counting_waker();
        let mut f = pin!(p.push_async(1));
        assert!(f
            .as_mut()
            .poll(&mut Context::from_waker(&old_waker))
            .is_pending());
        assert!(f
            .as_mut()
            .poll(&mut Context::from_waker(&new_waker))
            .is_pending());
        assert_eq!(Arc::strong_count(&old), 2, "the old waker is released");
        assert_eq!(Arc::strong_count(&new), 3);
        c.commit();
        c.clear();
        assert_eq!((old.wakes(), new.wakes()), (0, 1));
        assert!(matches!(
            f.as_mut().poll(&mut Context::from_waker(&new_waker)),
            Poll::Ready(Ok(()))
        ));
        assert_eq!(Arc::strong_count(&new), 2, "resolved: nothing registered");
    }

    /// A waker whose `clone` panics while `push_async` registers it: the
    /// panic reaches the poller (it is the task's own waker), the value
    /// stays in the future, and a later poll with a sound waker pushes it.
    #[test]
    fn a_panicking_waker_clone_keeps_the_value_in_the_future() {
        within(DEADLINE, || {
            let mut c = BufferedCollection::bounded(1);
            let p = c.producer();
            let value = Arc::new(5u8);
            p.push(Arc::new(0)).unwrap();
            let hooks = hooks::Hooks::new(|| panic!("a hostile clone"));
            let hostile = hooks::waker(&hooks);
            let mut f = pin!(p.push_async(Arc::clone(&value)));
            let polled = catch_unwind(AssertUnwindSafe(|| {
                f.as_mut().poll(&mut Context::from_waker(&hostile))
            }));
            assert!(polled.is_err(), "the clone's panic reaches the poller");
            assert_eq!(
                Arc::strong_count(&value),
                2,
                "the value is still in the future"
            );
            let (count, counting) = counting_waker();
            assert!(f
                .as_mut()
                .poll(&mut Context::from_waker(&counting))
                .is_pending());
            c.commit();
            c.clear();
            assert_eq!(count.wakes(), 1);
            assert!(matches!(
                f.as_mut().poll(&mut Context::from_waker(&counting)),
                Poll::Ready(Ok(()))
            ));
            c.commit();
            assert_eq!(c.as_slice(), [value]);
        });
    }

    /// A future polled again by the task it registered keeps that
    /// registration: the task's waker is cloned once, not at every poll.
    #[test]
    fn a_repoll_by_the_same_task_clones_its_waker_once() {
        let mut events = BufferedCollection::bounded(1);
        let producer = events.producer();
        let hooks = hooks::Hooks::new(|| {});
        let waker = hooks::waker(&hooks);
        {
            let mut wait = pin!(events.wait_pending_async());
            for _ in 0..3 {
                assert!(wait
                    .as_mut()
                    .poll(&mut Context::from_waker(&waker))
                    .is_pending());
            }
        }
        assert_eq!(hooks.clones.load(SeqCst), 1, "wait_pending_async");
        producer.push(0u8).unwrap();
        events.commit();
        {
            let mut push = pin!(producer.push_async(1));
            for _ in 0..3 {
                assert!(push
                    .as_mut()
                    .poll(&mut Context::from_waker(&waker))
                    .is_pending());
            }
        }
        assert_eq!(hooks.clones.load(SeqCst), 2, "push_async");
    }

    /// A cancelled `push_async` is no longer a producer blocked for room:
    /// a wait on the full queue then times out instead of answering that
    /// only the caller can free room.
    #[test]
    fn a_cancelled_push_async_is_no_longer_a_blocked_producer() {
        let mut events = BufferedCollection::bounded(1);
        let producer = events.producer();
        producer.push(0u8).unwrap();
        events.commit();
        let (_wakes, waker) = counting_waker();
        {
            let mut push = pin!(producer.push_async(1));
            assert!(push
                .as_mut()
                .poll(&mut Context::from_waker(&waker))
                .is_pending());
            assert_eq!(
                events.wait_pending_timeout(Duration::from_millis(1)),
                Err(WaitTimeoutError::Full),
                "blocked in push_async"
            );
        }
        assert_eq!(
            events.wait_pending_timeout(Duration::from_millis(30)),
            Err(WaitTimeoutError::Timeout)
        );
    }

    /// A waker with user code in `clone`, built from a hand-made vtable
    /// (`std::task::Wake` does not let `clone` be customised).
    mod hooks {
        use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
        use std::sync::Arc;
        use std::task::{RawWaker, RawWakerVTable, Waker};

        pub(super) struct Hooks {
            on_clone: Box<dyn Fn() + Send + Sync>,
            pub(super) clones: AtomicUsize,
        }

        impl Hooks {
            pub(super) fn new(on_clone: impl Fn() + Send + Sync + 'static) -> Arc<Self> {
                Arc::new(Hooks {
                    on_clone: Box::new(on_clone),
                    clones: AtomicUsize::new(0),
                })
            }
        }

        static VTABLE: RawWakerVTable = RawWakerVTable::new(clone, wake, wake_by_ref, drop);

        /// A waker owning one strong count of `hooks`.
        pub(super) fn waker(hooks: &Arc<Hooks>) -> Waker {
            let data = Arc::into_raw(Arc::clone(hooks)).cast::<()>();
            // SAFETY: `data` is a strong count of an `Arc<Hooks>`, which the
            // vtable's functions below treat as exactly that; `Hooks` is
            // `Send + Sync`, so the waker may move between threads.
            unsafe { Waker::from_raw(RawWaker::new(data, &VTABLE)) }
        }

        unsafe fn clone(data: *const ()) -> RawWaker {
            // SAFETY: `data` is a live `Arc<Hooks>` strong count (see
            // `waker`), borrowed here.
            let hooks = unsafe { &*data.cast::<Hooks>() };
            (hooks.on_clone)();
            hooks.clones.fetch_add(1, SeqCst);
            // SAFETY: as above; the new waker owns the new count.
            unsafe { Arc::increment_strong_count(data.cast::<Hooks>()) };
            RawWaker::new(data, &VTABLE)
        }

        unsafe fn wake(data: *const ()) {
            // SAFETY: the waker's own strong count, given up by `wake`.
            std::mem::drop(unsafe { Arc::from_raw(data.cast::<Hooks>()) });
        }

        unsafe fn wake_by_ref(_data: *const ()) {}

        unsafe fn drop(data: *const ()) {
            // SAFETY: the waker's own strong count, given up by its drop.
            std::mem::drop(unsafe { Arc::from_raw(data.cast::<Hooks>()) });
        }
    }
}

/// Counts its wake-ups.
#[cfg(feature = "async")]
struct CountingWaker(AtomicUsize);

#[cfg(feature = "async")]
impl CountingWaker {
    fn wakes(&self) -> usize {
        self.0.load(SeqCst)
    }
}

#[cfg(feature = "async")]
impl std::task::Wake for CountingWaker {
    fn wake(self: Arc<Self>) {
        self.0.fetch_add(1, SeqCst);
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.fetch_add(1, SeqCst);
    }
}

#[cfg(feature = "async")]
fn counting_waker() -> (Arc<CountingWaker>, std::task::Waker) {
    let count = Arc::new(CountingWaker(AtomicUsize::new(0)));
    let waker = std::task::Waker::from(Arc::clone(&count));
    (count, waker)
}

// ---------------------------------------------------------------------------
// 5. A waiter that leaves does not unarm the ones still waiting

/// Two threads wait on the same queue; the one with a short timeout gives
/// up first. The push after that must still wake the other one: leaving
/// may clear the "wake me" flag pushes read only when nobody else waits.
/// (Three rounds: the patient thread has to be asleep before the other
/// one leaves, which only a pause makes likely on a loaded machine.)
#[test]
fn a_wait_that_times_out_leaves_the_other_waiter_armed() {
    for round in 0..3 {
        let events: Arc<BufferedCollection<u32>> = Arc::new(BufferedCollection::new());
        let producer = events.producer();
        let patient = {
            let events = Arc::clone(&events);
            // Its own timeout is far past the deadline: only the push can
            // end this wait in time.
            spawn_reporting(move || events.wait_pending_timeout(DEADLINE * 3))
        };
        settle();
        settle();
        assert!(events
            .wait_pending_timeout(Duration::from_millis(if cfg!(miri) { 1 } else { 30 }))
            .is_err());
        producer.push(round).unwrap();
        assert_eq!(
            patient.recv_timeout(DEADLINE),
            Ok(Ok(())),
            "round {round}: the push after the other waiter left did not wake this one"
        );
    }
}

/// The same with tasks: of two `wait_pending_async` futures, the first is
/// cancelled; a push must still wake the second one's task.
#[cfg(feature = "async")]
#[test]
fn a_cancelled_wait_leaves_the_other_task_armed() {
    use std::future::Future;
    use std::task::{Context, Poll};

    let events: BufferedCollection<u32> = BufferedCollection::new();
    let producer = events.producer();
    let (first_wakes, first_waker) = counting_waker();
    let (second_wakes, second_waker) = counting_waker();
    let mut first = Box::pin(events.wait_pending_async());
    let mut second = Box::pin(events.wait_pending_async());
    assert!(first
        .as_mut()
        .poll(&mut Context::from_waker(&first_waker))
        .is_pending());
    assert!(second
        .as_mut()
        .poll(&mut Context::from_waker(&second_waker))
        .is_pending());
    drop(first);
    producer.push(1).unwrap();
    assert_eq!(first_wakes.wakes(), 0);
    assert_eq!(second_wakes.wakes(), 1, "the second task was not woken");
    assert_eq!(
        second
            .as_mut()
            .poll(&mut Context::from_waker(&second_waker)),
        Poll::Ready(Ok(()))
    );
}

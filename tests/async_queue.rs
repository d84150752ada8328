//! The async queue (feature `async`): `BufferedCollection::wait_pending_async`
//! and `Producer::push_async`, with counting wakers and a minimal
//! hand-written executor (which also run under Miri). The same on tokio's
//! multi-thread runtime is in the benchmarks package
//! (`benches/tests/async_tokio.rs`), so the library's tests never build
//! tokio.
#![cfg(all(feature = "async", not(loom)))]

use std::future::Future;
use std::pin::pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use read_write_collection::{BufferedCollection, WaitError};

mod common;
use common::block_on;

/// Counts its wake-ups.
struct CountingWaker(AtomicUsize);

impl Wake for CountingWaker {
    fn wake(self: Arc<Self>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

fn counting_waker() -> (Arc<CountingWaker>, Waker) {
    let count = Arc::new(CountingWaker(AtomicUsize::new(0)));
    let waker = Waker::from(Arc::clone(&count));
    (count, waker)
}

#[test]
fn wait_pending_async_answers_at_once_when_it_can() {
    let mut c: BufferedCollection<u8> = BufferedCollection::new();
    assert_eq!(
        block_on(c.wait_pending_async()),
        Err(WaitError::Disconnected),
        "no producer"
    );
    c.push(1);
    assert_eq!(
        block_on(c.wait_pending_async()),
        Ok(()),
        "local pending counts"
    );
    c.commit();
    let p = c.producer();
    p.push(2).unwrap();
    assert_eq!(block_on(c.wait_pending_async()), Ok(()));
    c.commit();
    c.close();
    assert_eq!(
        block_on(c.wait_pending_async()),
        Err(WaitError::Disconnected),
        "closed and drained"
    );
    drop(p);
    assert_eq!(c.as_slice(), [1, 2]);
}

/// The waker is woken by a push and by the last producer leaving, each
/// exactly when the future could make progress; a dropped future leaves no
/// waker behind. (A future
/// polled twice registers its waker once where `Waker::will_wake` can
/// tell; the counts below only say "woken" or "not woken".)
#[test]
fn wait_pending_async_is_woken_by_push_last_producer_and_close() {
    let woken = |count: &CountingWaker| count.0.swap(0, Ordering::SeqCst) > 0;

    let (count, waker) = counting_waker();
    let mut cx = Context::from_waker(&waker);
    let c: BufferedCollection<u8> = BufferedCollection::new();
    let p = c.producer();
    let mut f = pin!(c.wait_pending_async());
    assert_eq!(f.as_mut().poll(&mut cx), Poll::Pending);
    assert_eq!(f.as_mut().poll(&mut cx), Poll::Pending, "polled twice");
    assert!(!woken(&count));
    p.push(7).unwrap();
    assert!(woken(&count), "a push wakes");
    assert_eq!(f.as_mut().poll(&mut cx), Poll::Ready(Ok(())));

    let c: BufferedCollection<u8> = BufferedCollection::new();
    let p = c.producer();
    let q = p.clone();
    let mut f = pin!(c.wait_pending_async());
    assert_eq!(f.as_mut().poll(&mut cx), Poll::Pending);
    drop(p);
    assert!(!woken(&count), "a producer is left");
    drop(q);
    assert!(woken(&count), "the last one left");
    assert_eq!(
        f.as_mut().poll(&mut cx),
        Poll::Ready(Err(WaitError::Disconnected))
    );

    // A live future borrows the collection, so `close` (which takes it
    // mutably) comes after the future is gone: the cancelled future took
    // its waker with it, and the next wait answers at once.
    let mut c: BufferedCollection<u8> = BufferedCollection::new();
    let _p = c.producer();
    {
        let mut f = pin!(c.wait_pending_async());
        assert_eq!(f.as_mut().poll(&mut cx), Poll::Pending);
    }
    c.close();
    assert!(!woken(&count), "nothing registered is left to wake");
    assert_eq!(
        block_on(c.wait_pending_async()),
        Err(WaitError::Disconnected)
    );
}

/// `push_async` waits for room in a full bounded collection, is woken when
/// a pass frees it, and hands the value back on close.
#[test]
fn push_async_waits_for_room_and_hands_the_value_back_on_close() {
    let (count, waker) = counting_waker();
    let mut cx = Context::from_waker(&waker);

    let mut c = BufferedCollection::bounded(1);
    let p = c.producer();
    block_on(p.push_async(1)).unwrap();
    let mut f = pin!(p.push_async(2));
    assert!(f.as_mut().poll(&mut cx).is_pending(), "full");
    assert_eq!(c.commit(), 1);
    assert!(f.as_mut().poll(&mut cx).is_pending(), "still full");
    let woken = count.0.load(Ordering::SeqCst);
    c.traverse(|e| {
        e.remove();
    });
    assert!(
        count.0.load(Ordering::SeqCst) > woken,
        "the freed room wakes it"
    );
    assert!(matches!(f.as_mut().poll(&mut cx), Poll::Ready(Ok(()))));
    assert_eq!(c.pending_len(), 1);

    let mut f = pin!(p.push_async(3));
    assert!(f.as_mut().poll(&mut cx).is_pending(), "full again");
    let woken = count.0.load(Ordering::SeqCst);
    c.close();
    assert!(count.0.load(Ordering::SeqCst) > woken, "close wakes it");
    match f.as_mut().poll(&mut cx) {
        Poll::Ready(Err(e)) => assert_eq!(e.into_inner(), 3),
        other => panic!("expected the value back, got {other:?}"),
    }
    c.commit();
    assert_eq!(c.as_slice(), [2]);
}

/// Dropping a pending `push_async` drops its value (it was never pushed);
/// dropping a pending `wait_pending_async` loses nothing.
#[test]
fn cancelled_futures() {
    let (_count, waker) = counting_waker();
    let mut cx = Context::from_waker(&waker);
    let dropped = Arc::new(());

    let mut c = BufferedCollection::bounded(1);
    let p = c.producer();
    p.push(Arc::clone(&dropped)).unwrap();
    {
        let mut f = pin!(p.push_async(Arc::clone(&dropped)));
        assert!(f.as_mut().poll(&mut cx).is_pending());
        assert_eq!(Arc::strong_count(&dropped), 3);
    }
    assert_eq!(
        Arc::strong_count(&dropped),
        2,
        "the cancelled value is dropped"
    );
    {
        let mut f = pin!(c.wait_pending_async());
        assert_eq!(f.as_mut().poll(&mut cx), Poll::Ready(Ok(())));
    }
    assert_eq!(c.commit(), 1, "nothing lost");
    c.clear();
    drop(p);
    assert_eq!(Arc::strong_count(&dropped), 1);
}

/// The futures' debug forms say what they are (and whether a push has
/// resolved).
#[test]
fn futures_format_for_debugging() {
    let c: BufferedCollection<u8> = BufferedCollection::new();
    let p = c.producer();
    assert_eq!(
        format!("{:?}", c.wait_pending_async()),
        "WaitPendingFuture { .. }"
    );
    let mut push = p.push_async(1);
    assert_eq!(format!("{push:?}"), "PushFuture { resolved: false, .. }");
    assert!(block_on(&mut push).is_ok());
    assert_eq!(format!("{push:?}"), "PushFuture { resolved: true, .. }");
}

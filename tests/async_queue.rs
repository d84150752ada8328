//! The async queue (feature `async`): `BufferedCollection::wait_pending_async`
//! and `Producer::push_async`, on tokio's multi-thread runtime and on a
//! minimal hand-written executor (which also runs under Miri).
#![cfg(all(feature = "async", not(loom)))]

use std::future::Future;
use std::pin::pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread;
use std::time::Duration;

use read_write_collection::{BufferedCollection, Producer};

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

/// Parks the thread until woken: a minimal executor.
fn block_on<F: Future>(f: F) -> F::Output {
    struct Unpark(thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(Arc::new(Unpark(thread::current())));
    let mut cx = Context::from_waker(&waker);
    let mut f = pin!(f);
    loop {
        match f.as_mut().poll(&mut cx) {
            Poll::Ready(v) => return v,
            Poll::Pending => thread::park(),
        }
    }
}

#[test]
fn wait_pending_async_answers_at_once_when_it_can() {
    let mut c: BufferedCollection<u8> = BufferedCollection::new();
    assert!(!block_on(c.wait_pending_async()), "no producer");
    c.push(1);
    assert!(block_on(c.wait_pending_async()), "local pending counts");
    c.commit();
    let p = c.producer();
    p.push(2).unwrap();
    assert!(block_on(c.wait_pending_async()));
    c.commit();
    c.close();
    assert!(!block_on(c.wait_pending_async()), "closed and drained");
    drop(p);
    assert_eq!(c.as_slice(), [1, 2]);
}

/// The waker is woken by a push, by the last producer leaving and by a
/// close, each exactly when the future could make progress. (A future
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
    assert_eq!(f.as_mut().poll(&mut cx), Poll::Ready(true));

    let c: BufferedCollection<u8> = BufferedCollection::new();
    let p = c.producer();
    let q = p.clone();
    let mut f = pin!(c.wait_pending_async());
    assert_eq!(f.as_mut().poll(&mut cx), Poll::Pending);
    drop(p);
    assert!(!woken(&count), "a producer is left");
    drop(q);
    assert!(woken(&count), "the last one left");
    assert_eq!(f.as_mut().poll(&mut cx), Poll::Ready(false));

    let mut c: BufferedCollection<u8> = BufferedCollection::new();
    let _p = c.producer();
    {
        let mut f = pin!(c.wait_pending_async());
        assert_eq!(f.as_mut().poll(&mut cx), Poll::Pending);
    }
    c.close();
    assert!(woken(&count), "close wakes");
    assert!(!block_on(c.wait_pending_async()));
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
        assert_eq!(f.as_mut().poll(&mut cx), Poll::Ready(true));
    }
    assert_eq!(c.commit(), 1, "nothing lost");
    c.clear();
    drop(p);
    assert_eq!(Arc::strong_count(&dropped), 1);
}

/// Several tasks push on tokio's multi-thread runtime, some through a full
/// bounded queue; the owner waits asynchronously, commits once per tick
/// and drains. Every event arrives exactly once, each task's in order.
#[test]
#[cfg_attr(miri, ignore = "tokio's runtime under Miri takes minutes")]
fn producers_and_owner_on_a_tokio_runtime() {
    const TASKS: u32 = 4;
    const EACH: u32 = 500;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_time()
        .build()
        .unwrap();
    for bound in [None, Some(16)] {
        let mut events: BufferedCollection<(u32, u32)> = match bound {
            None => BufferedCollection::new(),
            Some(max) => BufferedCollection::bounded(max),
        };
        let producers: Vec<Producer<(u32, u32)>> = (0..TASKS).map(|_| events.producer()).collect();
        let got = rt.block_on(async move {
            let tasks: Vec<_> = producers
                .into_iter()
                .enumerate()
                .map(|(task, p)| {
                    tokio::spawn(async move {
                        for i in 0..EACH {
                            p.push_async((task as u32, i)).await.unwrap();
                            if i % 100 == 0 {
                                tokio::time::sleep(Duration::from_millis(1)).await;
                            }
                        }
                    })
                })
                .collect();
            let mut got = Vec::new();
            while events.wait_pending_async().await {
                events.commit();
                if let Some(max) = bound {
                    assert!(events.len() <= max);
                }
                events.traverse(|e| got.push(e.remove()));
            }
            for t in tasks {
                t.await.unwrap();
            }
            got
        });
        assert_eq!(got.len(), (TASKS * EACH) as usize);
        for task in 0..TASKS {
            let mine: Vec<u32> = got.iter().filter(|e| e.0 == task).map(|e| e.1).collect();
            assert_eq!(mine, (0..EACH).collect::<Vec<_>>(), "task {task} in order");
        }
    }
}

/// A shutdown mid-stream with async producers: every event is either
/// committed exactly once or handed back exactly once.
#[test]
#[cfg_attr(miri, ignore = "tokio's runtime under Miri takes minutes")]
fn async_shutdown_loses_and_duplicates_nothing() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    for run in 0..500u32 {
        let mut events: BufferedCollection<u32> = BufferedCollection::bounded(8);
        let producers: Vec<Producer<u32>> = (0..4).map(|_| events.producer()).collect();
        let (committed, handed_back) = rt.block_on(async move {
            let tasks: Vec<_> = producers
                .into_iter()
                .enumerate()
                .map(|(task, p)| {
                    tokio::spawn(async move {
                        let mut back = Vec::new();
                        for i in 0..200u32 {
                            if let Err(e) = p.push_async(task as u32 * 1000 + i).await {
                                back.push(e.into_inner());
                            }
                        }
                        back
                    })
                })
                .collect();
            let mut committed = Vec::new();
            let stop_after = 100 + (run * 37) % 500;
            while events.wait_pending_async().await {
                events.commit();
                events.traverse(|e| committed.push(e.remove()));
                if committed.len() >= stop_after as usize && !events.is_closed() {
                    events.close();
                }
            }
            let mut handed_back = Vec::new();
            for t in tasks {
                handed_back.extend(t.await.unwrap());
            }
            committed.extend(events.into_vec());
            (committed, handed_back)
        });
        let mut all: Vec<u32> = committed.iter().chain(&handed_back).copied().collect();
        all.sort_unstable();
        let expected: Vec<u32> = (0..4u32)
            .flat_map(|t| (0..200).map(move |i| t * 1000 + i))
            .collect();
        assert_eq!(all, expected, "run {run}: each event exactly once");
    }
}

//! The async queue (feature `async`) on tokio's multi-thread runtime:
//! producers awaiting `Producer::push_async`, an owner awaiting
//! `BufferedCollection::wait_pending_async`, and a shutdown mid-stream.
//! (The waker bookkeeping itself is tested in the library's
//! `tests/async_queue.rs` and its loom models.)
#![cfg(not(any(loom, miri)))]

use std::time::Duration;

use read_write_collection::{BufferedCollection, Producer};

/// Several tasks push on tokio's multi-thread runtime, some through a full
/// bounded queue; the owner waits asynchronously, commits once per tick
/// and drains. Every event arrives exactly once, each task's in order.
#[test]
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
            while events.wait_pending_async().await.is_ok() {
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

/// A shutdown mid-stream with async producers (half of them pushing through
/// `reserve_async` permits): every event is either committed exactly once
/// or handed back exactly once.
#[test]
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
                            let event = task as u32 * 1000 + i;
                            if task % 2 == 0 {
                                if let Err(e) = p.push_async(event).await {
                                    back.push(e.into_inner());
                                }
                            } else {
                                // Room first, then the event: a permit
                                // taken before the close still lands.
                                match p.reserve_async().await {
                                    Ok(permit) => permit.push(event),
                                    Err(_) => back.push(event),
                                }
                            }
                        }
                        back
                    })
                })
                .collect();
            let mut committed = Vec::new();
            let stop_after = 100 + (run * 37) % 500;
            while events.wait_pending_async().await.is_ok() {
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

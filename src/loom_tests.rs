//! Model checking of `Producer` / `BufferedCollection` with loom: every
//! interleaving (up to the preemption bound) of producer pushes, clones and
//! drops with the owner's commits, drains, clears, closes, waits and drop.
//!
//! These are unit tests so that the crate's private `sync` module can swap
//! in loom's `Mutex`, `Condvar` and `Arc` (loom is only a dev-dependency).
//! Run with
//! `CARGO_TARGET_DIR=target/loom RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=3 cargo test --release --lib loom -- --nocapture`
//! (the preemption bound defaults to 3 when `LOOM_MAX_PREEMPTIONS` is unset;
//! the small models ignore it and explore every interleaving).
//! Each model prints how many executions loom explored.

use std::sync::atomic::{AtomicUsize as StdAtomicUsize, Ordering as StdOrdering};
use std::time::Instant;
use std::vec::Vec;
use std::{println, vec};

use loom::sync::atomic::{AtomicUsize, Ordering};
use loom::sync::Arc;
use loom::thread;

use crate::buffered::BufferedCollection;
use crate::error::{TryPushError, WaitError};
use crate::producer::{Producer, ProducerOrder};

/// How far loom searches.
#[derive(Clone, Copy)]
enum Bound {
    /// `LOOM_MAX_PREEMPTIONS`, or 3 when unset.
    Env,
    /// Every interleaving, whatever `LOOM_MAX_PREEMPTIONS` says (for the
    /// small models, where that takes milliseconds).
    Exhaustive,
}

/// Runs `f` under loom's scheduler and reports how many executions it took.
fn check<F>(name: &str, bound: Bound, f: F) -> usize
where
    F: Fn() + Send + Sync + 'static,
{
    let mut builder = loom::model::Builder::new();
    match bound {
        Bound::Env => {
            if builder.preemption_bound.is_none() {
                builder.preemption_bound = Some(3);
            }
        }
        Bound::Exhaustive => builder.preemption_bound = None,
    }
    assert!(
        builder.max_permutations.is_none() && builder.max_duration.is_none(),
        "LOOM_MAX_PERMUTATIONS / LOOM_MAX_DURATION would cut the search short"
    );
    let executions = std::sync::Arc::new(StdAtomicUsize::new(0));
    let counter = std::sync::Arc::clone(&executions);
    let start = Instant::now();
    builder.check(move || {
        counter.fetch_add(1, StdOrdering::Relaxed);
        f();
    });
    let executions = executions.load(StdOrdering::Relaxed);
    println!(
        "loom {name}: {executions} executions (preemption bound {:?}, max branches {}) in {:.2?}",
        builder.preemption_bound,
        builder.max_branches,
        start.elapsed()
    );
    assert!(executions > 1, "loom explored more than one schedule");
    executions
}

/// Takes every visible element out through a cursor, in order.
fn drain<T>(c: &mut BufferedCollection<T>, into: &mut Vec<T>) {
    let mut cursor = c.cursor();
    while let Some(e) = cursor.next() {
        into.push(e.remove());
    }
}

/// The owner's loop: waits for pushes, commits and drains them into
/// `into` until nothing more can arrive (`wait_pending` errs), checking
/// after every commit that the bound in force holds.
fn take_until_disconnected<T>(c: &mut BufferedCollection<T>, into: &mut Vec<T>) {
    while c.wait_pending().is_ok() {
        c.commit();
        assert!(
            c.len() <= c.max_len().unwrap_or(usize::MAX),
            "the bound holds"
        );
        drain(c, into);
    }
}

/// Polls `f` once with a no-op waker, then, if it is pending, drives it
/// to the end with `block_on` (a second, different waker): the re-poll
/// with a new waker that a task moved between executors makes.
#[cfg(feature = "async")]
#[allow(clippy::incompatible_msrv)] // `Waker::noop` (1.85): loom runs on the current toolchain
fn poll_once_then_block_on<F: core::future::Future>(f: F) -> F::Output {
    let mut f = std::boxed::Box::pin(f);
    let noop = std::task::Waker::noop();
    match f.as_mut().poll(&mut std::task::Context::from_waker(noop)) {
        core::task::Poll::Ready(v) => v,
        core::task::Poll::Pending => loom::future::block_on(f),
    }
}

/// Spawns a thread that pushes `v` through `p` and keeps `p` alive until
/// `open` is called: the handle leaving (which wakes a wait too) cannot
/// stand in for a lost push wake-up, which then shows as a deadlock.
fn push_and_stay(p: Producer<u8>, v: u8) -> (thread::JoinHandle<()>, impl FnOnce()) {
    let gate = Arc::new((loom::sync::Mutex::new(false), loom::sync::Condvar::new()));
    let held = Arc::clone(&gate);
    let t = thread::spawn(move || {
        p.push(v).unwrap();
        let (lock, cv) = &*held;
        let mut open = lock.lock().unwrap();
        while !*open {
            open = cv.wait(open).unwrap();
        }
    });
    let open = move || {
        *gate.0.lock().unwrap() = true;
        gate.1.notify_all();
    };
    (t, open)
}

/// Pushes `values` tagged with `tag`, each push must succeed.
fn push_all(p: &Producer<(u8, u8)>, tag: u8, values: &[u8]) {
    for &v in values {
        p.push((tag, v)).unwrap();
    }
}

/// (a) Two producers push while the owner makes local pushes, commits and
/// drains, three times, then once more after the producers are done. Across
/// everything taken: nothing lost, nothing duplicated, each producer's
/// order kept, and within each commit the local pushes come first.
#[test]
fn two_producers_while_the_owner_commits_and_drains() {
    check(
        "two producers / repeated commit + drain",
        Bound::Env,
        || {
            let mut c = BufferedCollection::new();
            let p1 = c.producer();
            let p2 = p1.clone();
            let t1 = thread::spawn(move || push_all(&p1, 1, &[0, 1, 2]));
            let t2 = thread::spawn(move || push_all(&p2, 2, &[0, 1, 2]));

            let mut taken = Vec::new();
            for round in 0..3 {
                c.push((0, round));
                let seen_pending = c.pending_len();
                let appended = c.commit();
                assert!(
                    appended >= seen_pending,
                    "commit takes at least what was seen"
                );
                assert_eq!(c.len(), appended);
                assert_eq!(c.as_slice()[0], (0, round), "local pushes come first");
                assert!(c.iter().skip(1).all(|&(tag, _)| tag != 0));
                drain(&mut c, &mut taken);
                assert!(c.is_empty());
            }
            t1.join().unwrap();
            t2.join().unwrap();
            c.commit();
            drain(&mut c, &mut taken);
            assert_eq!(c.pending_len(), 0);

            for tag in 0..3 {
                let mine: Vec<u8> = taken
                    .iter()
                    .filter(|&&(t, _)| t == tag)
                    .map(|&(_, v)| v)
                    .collect();
                assert_eq!(mine, [0, 1, 2], "producer {tag}: all, once, in order");
            }
            assert_eq!(taken.len(), 9);
        },
    );
}

/// Counts the drops of each element id, with loom's atomics.
#[derive(Clone)]
struct Drops(Arc<[AtomicUsize; 3]>);

impl Drops {
    fn new() -> Self {
        Drops(Arc::new([
            AtomicUsize::new(0),
            AtomicUsize::new(0),
            AtomicUsize::new(0),
        ]))
    }

    fn of(&self, id: usize) -> usize {
        self.0[id].load(Ordering::SeqCst)
    }
}

struct Tracked {
    id: usize,
    drops: Drops,
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.drops.0[self.id].fetch_add(1, Ordering::SeqCst);
    }
}

/// How a raced push ended, counted across all executions so the test can
/// check that loom saw every outcome.
static COMMITTED: StdAtomicUsize = StdAtomicUsize::new(0);
static QUEUED_AT_DROP: StdAtomicUsize = StdAtomicUsize::new(0);
static HANDED_BACK: StdAtomicUsize = StdAtomicUsize::new(0);

/// (b) A producer pushes while the owner commits and then drops the
/// collection (which holds a visible and a pending element). The pushed
/// value is committed and dropped with the collection, or dropped with
/// the queue when the collection closes it, or handed back; either way
/// every element is dropped exactly once.
#[test]
fn a_push_racing_with_the_collection_drop_is_never_lost() {
    check("push racing with commit + drop", Bound::Exhaustive, || {
        let drops = Drops::new();
        let mut c = BufferedCollection::new();
        c.push(Tracked {
            id: 0,
            drops: drops.clone(),
        });
        c.commit();
        c.push(Tracked {
            id: 1,
            drops: drops.clone(),
        });
        let p = c.producer();
        let thread_drops = drops.clone();
        let t = thread::spawn(move || {
            let value = Tracked {
                id: 2,
                drops: thread_drops.clone(),
            };
            match p.push(value) {
                Ok(()) => true,
                Err(closed) => {
                    let back = closed.into_inner();
                    assert_eq!(back.id, 2);
                    assert_eq!(thread_drops.of(2), 0, "handed back, not dropped");
                    assert!(p.is_closed());
                    drop(back);
                    false
                }
            }
        });

        let appended = c.commit();
        let committed = appended == 2;
        let expected: &[usize] = if committed { &[0, 1, 2] } else { &[0, 1] };
        assert_eq!(c.iter().map(|t| t.id).collect::<Vec<_>>(), expected);
        drop(c);
        // The owner's elements are dropped by the collection's drop.
        assert_eq!((drops.of(0), drops.of(1)), (1, 1));
        let accepted = t.join().unwrap();
        assert_eq!(drops.of(2), 1, "the raced value is dropped exactly once");
        assert!(accepted || !committed);
        let outcome = match (accepted, committed) {
            (true, true) => &COMMITTED,
            (true, false) => &QUEUED_AT_DROP,
            _ => &HANDED_BACK,
        };
        outcome.fetch_add(1, StdOrdering::Relaxed);
    });
    let seen = [&COMMITTED, &QUEUED_AT_DROP, &HANDED_BACK].map(|n| n.load(StdOrdering::Relaxed));
    println!("  outcomes (committed, dropped in queue, handed back): {seen:?}");
    assert!(seen.iter().all(|&n| n > 0), "every outcome was explored");
}

/// (b') The last producer is dropped while the collection is dropped; its
/// push races with the close. No leak (loom checks its `Arc`s), no double
/// drop.
#[test]
fn last_producer_and_collection_dropped_concurrently() {
    check(
        "last producer drop racing with collection drop",
        Bound::Exhaustive,
        || {
            let drops = Drops::new();
            let c: BufferedCollection<Tracked> = BufferedCollection::new();
            let p = c.producer();
            let thread_drops = drops.clone();
            let t = thread::spawn(move || {
                let q = p.clone();
                drop(p);
                let result = q.push(Tracked {
                    id: 0,
                    drops: thread_drops,
                });
                drop(q);
                result.is_ok()
            });
            drop(c);
            t.join().unwrap();
            assert_eq!(drops.of(0), 1);
        },
    );
}

/// (c) Producers are cloned and dropped on both sides while the owner
/// commits: every push that succeeded is committed once, in order.
#[test]
fn producer_clone_and_drop_racing_with_commit() {
    clone_and_drop_model(ProducerOrder::PerProducer, Bound::Exhaustive);
}

/// (v) Model (c) in arrival order (every interleaving: about 0.9M
/// executions, a minute): dead slots that still hold values stamped after
/// a commit's cut stay until a later commit takes them.
#[test]
fn producer_clone_and_drop_racing_with_commit_in_arrival_order() {
    clone_and_drop_model(ProducerOrder::Arrival, Bound::Exhaustive);
}

fn clone_and_drop_model(order: ProducerOrder, bound: Bound) {
    let name = match order {
        ProducerOrder::Arrival => "producer clone/drop racing with commit (arrival)",
        ProducerOrder::PerProducer => "producer clone/drop racing with commit (per producer)",
    };
    check(name, bound, move || {
        let mut c = BufferedCollection::new();
        c.set_producer_order(order);
        let p = c.producer();
        let t = thread::spawn(move || {
            let q = p.clone();
            p.push(1).unwrap();
            drop(p);
            let r = q.clone();
            drop(q);
            r.push(2).unwrap();
        });
        let first = c.commit();
        let extra = c.producer();
        let extra2 = extra.clone();
        drop(extra);
        let second = c.commit();
        t.join().unwrap();
        let third = c.commit();
        assert_eq!(first + second + third, 2);
        assert_eq!(c.as_slice(), [1, 2]);

        extra2.push(3).unwrap();
        drop(extra2);
        assert_eq!(c.commit(), 1);
        assert_eq!(c.as_slice(), [1, 2, 3]);
    });
}

static CLEARED: StdAtomicUsize = StdAtomicUsize::new(0);
static COMMITTED_AFTER_CLEAR: StdAtomicUsize = StdAtomicUsize::new(0);

/// (d) `clear_pending` racing with a push: the value is cleared (dropped
/// once) or committed afterwards, never both, never lost.
#[test]
fn clear_pending_racing_with_a_push() {
    check("clear_pending racing with push", Bound::Exhaustive, || {
        let drops = Drops::new();
        let mut c = BufferedCollection::new();
        let p = c.producer();
        let thread_drops = drops.clone();
        let t = thread::spawn(move || {
            p.push(Tracked {
                id: 0,
                drops: thread_drops,
            })
            .unwrap();
        });
        c.clear_pending();
        let cleared = drops.of(0) == 1;
        t.join().unwrap();
        assert_eq!(c.commit(), usize::from(!cleared));
        assert_eq!(c.len(), usize::from(!cleared));
        assert_eq!(drops.of(0), usize::from(cleared));
        drop(c);
        assert_eq!(drops.of(0), 1);
        let outcome = if cleared {
            &CLEARED
        } else {
            &COMMITTED_AFTER_CLEAR
        };
        outcome.fetch_add(1, StdOrdering::Relaxed);
    });
    let seen = [&CLEARED, &COMMITTED_AFTER_CLEAR].map(|n| n.load(StdOrdering::Relaxed));
    println!("  outcomes (cleared, committed after the clear): {seen:?}");
    assert!(seen.iter().all(|&n| n > 0), "both outcomes were explored");
}

static CLOSE_COMMITTED: StdAtomicUsize = StdAtomicUsize::new(0);
static CLOSE_HANDED_BACK: StdAtomicUsize = StdAtomicUsize::new(0);

/// (e) `close` racing with a push: the value is committed (pushed before
/// the close) or handed back (after it), exactly one of the two, and every
/// element is dropped exactly once.
#[test]
fn close_racing_with_a_push() {
    check("close racing with push", Bound::Exhaustive, || {
        let drops = Drops::new();
        let mut c = BufferedCollection::new();
        let p = c.producer();
        let thread_drops = drops.clone();
        let t = thread::spawn(move || {
            match p.push(Tracked {
                id: 0,
                drops: thread_drops.clone(),
            }) {
                Ok(()) => true,
                Err(closed) => {
                    assert!(p.is_closed());
                    let back = closed.into_inner();
                    assert_eq!(thread_drops.of(0), 0, "handed back, not dropped");
                    drop(back);
                    false
                }
            }
        });
        c.close();
        let accepted = t.join().unwrap();
        // Everything pushed before the close is still there to commit.
        assert_eq!(c.commit(), usize::from(accepted));
        assert_eq!(drops.of(0), usize::from(!accepted));
        assert_eq!(
            c.wait_pending(),
            Err(WaitError::Disconnected),
            "closed and drained"
        );
        drop(c);
        assert_eq!(drops.of(0), 1);
        let outcome = if accepted {
            &CLOSE_COMMITTED
        } else {
            &CLOSE_HANDED_BACK
        };
        outcome.fetch_add(1, StdOrdering::Relaxed);
    });
    let seen = [&CLOSE_COMMITTED, &CLOSE_HANDED_BACK].map(|n| n.load(StdOrdering::Relaxed));
    println!("  outcomes (committed, handed back): {seen:?}");
    assert!(seen.iter().all(|&n| n > 0), "both outcomes were explored");
}

/// (f) Two producers push into a full bounded collection (both block); the
/// owner removes the visible elements through a plain cursor and commits,
/// which hands the freed room to the producers, then waits for and takes
/// their values. No lost wake-up (loom reports a deadlock if a producer
/// sleeps through the room being freed), the bound holds throughout,
/// nothing is lost.
#[test]
fn two_producers_blocked_on_a_full_bounded_collection() {
    check(
        "two producers on a full bounded collection, commit frees room",
        Bound::Env,
        || {
            let mut c = BufferedCollection::bounded(2);
            c.push(10u8);
            c.push(11);
            c.commit();
            let p1 = c.producer();
            let p2 = p1.clone();
            let t1 = thread::spawn(move || p1.push(1).is_ok());
            let t2 = thread::spawn(move || p2.push(2).is_ok());

            let mut taken = Vec::new();
            drain(&mut c, &mut taken);
            assert_eq!(taken, [10, 11]);
            // Publishes the freed room first: pushes that take it may be
            // taken by this same commit.
            c.commit();
            drain(&mut c, &mut taken);
            while taken.len() < 4 {
                assert_eq!(
                    c.wait_pending(),
                    Ok(()),
                    "both producers still have a value"
                );
                c.commit();
                assert!(c.len() <= 2, "the bound holds");
                drain(&mut c, &mut taken);
            }
            assert!(t1.join().unwrap() && t2.join().unwrap());
            assert_eq!(
                c.wait_pending(),
                Err(WaitError::Disconnected),
                "both producers are gone"
            );
            taken[2..].sort_unstable();
            assert_eq!(taken, [10, 11, 1, 2]);
        },
    );
}

/// (f') A producer blocked on a full bounded collection is woken by
/// `close` and gets its value back; its `try_push` then says `Closed`.
#[test]
fn close_wakes_a_producer_blocked_on_a_full_collection() {
    check("close wakes a blocked producer", Bound::Exhaustive, || {
        let mut c = BufferedCollection::bounded(1);
        c.push(0u8);
        let p = c.producer();
        let t = thread::spawn(move || {
            let back = p.push(1).unwrap_err().into_inner();
            assert_eq!(p.try_push(2), Err(TryPushError::Closed(2)));
            back
        });
        c.close();
        assert_eq!(t.join().unwrap(), 1);
        assert_eq!(c.commit(), 1);
        assert_eq!(c.as_slice(), [0]);
    });
}

/// (f'') A pass over a full bounded collection removes an element and
/// then panics: the unwinding `traverse` hands the freed room to the
/// blocked producer as a completed one does, with no `commit` or
/// `wait_pending` after it (loom reports a deadlock if the producer sleeps
/// through it).
#[test]
fn a_panicking_pass_frees_room_like_a_completed_one() {
    check("panicking pass frees room", Bound::Exhaustive, || {
        let mut c = BufferedCollection::bounded(1);
        c.push(0u8);
        c.commit();
        let p = c.producer();
        let t = thread::spawn(move || p.push(1).is_ok());
        // Loom runs every model thread on one OS thread, which shares one
        // "panicking" flag: a producer that locked its buffer before the
        // panic below and unlocks it during the unwinding would poison the
        // lock inside loom (an artifact of the model, not of the queue). So
        // the pass starts once the producer sleeps, blocked for room (the
        // wait reports a full queue with a blocked producer only then),
        // and the model checks that the unwinding pass wakes it.
        assert_eq!(
            c.wait_pending(),
            Err(WaitError::Full),
            "full, with the producer blocked"
        );
        let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            c.traverse(|e| {
                e.remove();
                panic!("user code fails after the removal");
            })
        }));
        assert!(unwound.is_err());
        assert!(c.is_empty(), "the removal stands");
        assert!(t.join().unwrap(), "the producer got the freed room");
        assert_eq!(c.commit(), 1);
        assert_eq!(c.as_slice(), [1]);
    });
}

/// (g) `wait_pending` against a push: the consumer sleeps until the push
/// arrives (or finds it already there), then sees the producer go away.
#[test]
fn wait_pending_against_a_push() {
    check("wait_pending vs push", Bound::Exhaustive, || {
        let mut c = BufferedCollection::new();
        let p = c.producer();
        let t = thread::spawn(move || {
            p.push(7u8).unwrap();
        });
        let mut rounds = 0;
        while c.wait_pending().is_ok() {
            c.commit();
            rounds += 1;
        }
        assert_eq!(rounds, 1, "one push, one wake-up that found it");
        assert_eq!(c.as_slice(), [7]);
        assert_eq!(c.producer_count(), 0);
        t.join().unwrap();
    });
}

/// (h) `wait_pending` against the last producers dropping on two threads:
/// it returns `false` once the last one is gone, never sleeps forever.
#[test]
fn wait_pending_against_the_last_producer_dropping() {
    check(
        "wait_pending vs last producer drop",
        Bound::Exhaustive,
        || {
            let c: BufferedCollection<u8> = BufferedCollection::new();
            let p1 = c.producer();
            let p2 = p1.clone();
            let t1 = thread::spawn(move || drop(p1));
            let t2 = thread::spawn(move || drop(p2));
            assert_eq!(c.wait_pending(), Err(WaitError::Disconnected));
            assert_eq!(c.producer_count(), 0);
            t1.join().unwrap();
            t2.join().unwrap();
        },
    );
}

/// (h') The last producer pushes and drops (its count leaves without the
/// control lock) while the owner waits and commits: a wait says
/// `Disconnected` only once the value was committed, never with it queued.
#[test]
fn the_last_producer_pushing_then_leaving_against_waits() {
    check(
        "wait_pending vs last producer's push and drop",
        Bound::Env,
        || {
            let mut c: BufferedCollection<u8> = BufferedCollection::new();
            let p = c.producer();
            let t = thread::spawn(move || {
                p.push(7).unwrap();
                drop(p);
            });
            let mut got = Vec::new();
            loop {
                match c.wait_pending() {
                    Ok(()) => {
                        c.commit();
                        got.extend_from_slice(c.as_slice());
                        c.clear_visible();
                    }
                    Err(WaitError::Disconnected) => break,
                    Err(e) => panic!("{e:?}"),
                }
            }
            assert_eq!(c.commit(), 0, "Disconnected with a value queued");
            assert_eq!(got, [7]);
            t.join().unwrap();
        },
    );
}

/// (i) A batch push on a bounded collection racing with a traversal that
/// pushes: the traversal's reserved room and the producers' never add up
/// past the bound, and the batch's leftovers come back in order.
#[test]
fn batch_push_racing_with_a_pushing_traversal() {
    check(
        "try_push_batch vs traversal pushes (bounded)",
        Bound::Env,
        || {
            let mut c = BufferedCollection::bounded(3);
            c.push(0u8);
            c.commit();
            let p = c.producer();
            let t = thread::spawn(move || {
                let mut batch = vec![1, 2, 3];
                let _ = p.try_push_batch(&mut batch);
                batch
            });
            c.traverse(|mut e| while e.try_push(9).is_ok() {});
            let left = t.join().unwrap();
            assert!(c.len() + c.pending_len() <= 3, "the bound holds");
            let mut all = c.into_vec();
            all.retain(|&n| n != 0 && n != 9);
            all.extend(left);
            assert_eq!(all, [1, 2, 3], "pushed prefix + handed-back suffix");
        },
    );
}

/// (k) `wait_pending_async` against a push and the producer's drop (feature
/// `async`): the task's waker is registered under the queue's lock and the
/// wake-up is decided under it (and delivered after it), so the owner never
/// sleeps through the push or the last producer leaving (loom reports a
/// deadlock if it would).
#[cfg(feature = "async")]
#[test]
fn wait_pending_async_against_a_push() {
    check("wait_pending_async vs push", Bound::Exhaustive, || {
        let mut c = BufferedCollection::new();
        // The wake-up protocol does not depend on the order, and the
        // clock's steps would double the exhaustive search.
        c.set_producer_order(ProducerOrder::PerProducer);
        let p = c.producer();
        let t = thread::spawn(move || p.push(1u8).unwrap());
        let mut got = Vec::new();
        while loom::future::block_on(c.wait_pending_async()).is_ok() {
            c.commit();
            drain(&mut c, &mut got);
        }
        t.join().unwrap();
        assert_eq!(got, [1]);
    });
}

/// (l) `push_async` on a full bounded collection against the pass that
/// frees the room (feature `async`): the waiting task is woken by the
/// room being published, never sleeps through it, and the bound holds.
#[cfg(feature = "async")]
#[test]
fn push_async_against_the_pass_that_frees_room() {
    check("push_async vs freeing pass", Bound::Env, || {
        let mut c = BufferedCollection::bounded(1);
        c.push(0u8);
        c.commit();
        let p = c.producer();
        let t = thread::spawn(move || loom::future::block_on(p.push_async(1)).is_ok());
        let mut got = Vec::new();
        drain(&mut c, &mut got); // `drain` uses a plain cursor: no release
        c.traverse(|_| {}); // publishes the freed room
        take_until_disconnected(&mut c, &mut got);
        assert!(t.join().unwrap());
        assert_eq!(got, [0, 1]);
    });
}

/// (m) A producer blocked for room on a full bounded collection against
/// the owner clearing the producers' queue: the clear frees the room and
/// wakes the producer, whose push the owner's wait then sees (loom
/// reports a deadlock if either sleeps through it).
#[test]
fn clearing_the_queue_wakes_a_producer_blocked_for_room() {
    check(
        "clear_pending wakes a blocked producer",
        Bound::Exhaustive,
        || {
            let mut c = BufferedCollection::bounded(1);
            let p = c.producer();
            p.push(0u8).unwrap();
            let t = thread::spawn(move || p.push(1).is_ok());
            c.clear_pending();
            let mut got = Vec::new();
            take_until_disconnected(&mut c, &mut got);
            assert!(t.join().unwrap());
            assert_eq!(got, [1]);
        },
    );
}

/// (n) `set_max_len` lowering the bound against a producer pushing with
/// `try_push`: the check and the new bound are one locked step, so the
/// total never exceeds the bound in force, and every push that was
/// accepted is committed once. (A refused bound, when the producer got
/// there first, leaves the collection unbounded.)
#[test]
fn set_max_len_is_one_step_against_a_push() {
    check("set_max_len vs try_push", Bound::Env, || {
        let mut c = BufferedCollection::new();
        let p = c.producer();
        let t = thread::spawn(move || (0..3u8).filter(|&v| p.try_push(v).is_ok()).count());
        let set = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            c.set_max_len(Some(2));
        }));
        if set.is_ok() {
            assert_eq!(c.max_len(), Some(2));
        } else {
            assert_eq!(c.max_len(), None, "a refused bound changes nothing");
        }
        let bound = c.max_len().unwrap_or(usize::MAX);
        assert!(c.pending_len() <= bound, "the bound holds");
        let accepted = t.join().unwrap();
        assert!(c.pending_len() <= bound, "the bound holds");
        assert_eq!(c.commit(), accepted, "every accepted push is there once");
        assert_eq!(c.as_slice(), &[0, 1, 2][..accepted]);
    });
}

/// (o) The owner waits on a full bounded collection while a producer
/// blocks for room (before or after the owner starts waiting): the wait
/// returns `false` (only the owner can free the room), never sleeps for
/// ever, and dropping the collection hands the producer its value back.
#[test]
fn a_wait_on_a_full_queue_ends_when_a_producer_blocks() {
    check(
        "wait_pending vs producer blocking on a full queue",
        Bound::Exhaustive,
        || {
            let mut c = BufferedCollection::bounded(1);
            c.push(0u8);
            c.commit();
            let p = c.producer();
            let t = thread::spawn(move || p.push(1).map_err(|e| e.into_inner()));
            assert_eq!(
                c.wait_pending(),
                Err(WaitError::Full),
                "full, and only the owner can free room"
            );
            assert_eq!(c.producer_count(), 1);
            drop(c);
            assert_eq!(t.join().unwrap(), Err(1));
        },
    );
}

/// (p) `push_async` polled once with one waker (a no-op one) while
/// the collection is full, then driven to completion by `block_on` with
/// another waker, against the pass that frees the room: the re-poll with a
/// new waker clones it outside the lock and re-checks, so the wake-up that
/// the freed room decides reaches the new waker (loom reports a deadlock
/// if the task sleeps through it).
#[cfg(feature = "async")]
#[test]
fn push_async_repolled_with_a_new_waker_against_the_freeing_pass() {
    check(
        "push_async re-polled with a new waker",
        // Exhaustive: over 1.5M executions since pushes take room and read
        // the consumers' flag atomically; three preemptions cover the
        // handshakes (each has at most two racing steps).
        Bound::Env,
        || {
            let mut c = BufferedCollection::bounded(1);
            c.push(0u8);
            c.commit();
            let p = c.producer();
            let t = thread::spawn(move || poll_once_then_block_on(p.push_async(1)).is_ok());
            let mut got = Vec::new();
            drain(&mut c, &mut got);
            c.traverse(|_| {}); // publishes the freed room
            take_until_disconnected(&mut c, &mut got);
            assert!(t.join().unwrap());
            assert_eq!(got, [0, 1]);
        },
    );
}

/// (q) `wait_pending_async` polled once with a no-op waker, then by
/// `block_on` with its own waker, against a push and the producer's drop.
#[cfg(feature = "async")]
#[test]
fn wait_pending_async_repolled_with_a_new_waker_against_a_push() {
    check(
        "wait_pending_async re-polled with a new waker",
        // Exhaustive: over 1.5M executions since pushes take room and read
        // the consumers' flag atomically; three preemptions cover the
        // handshakes (each has at most two racing steps).
        Bound::Env,
        || {
            let mut c = BufferedCollection::new();
            let p = c.producer();
            let t = thread::spawn(move || p.push(1u8).unwrap());
            let mut got = Vec::new();
            loop {
                if poll_once_then_block_on(c.wait_pending_async()).is_err() {
                    break;
                }
                c.commit();
                drain(&mut c, &mut got);
            }
            t.join().unwrap();
            assert_eq!(got, [1]);
        },
    );
}

/// (r) A blocking `push` and a `push_async`, both waiting on a full
/// bounded(1) collection, against `set_max_len` raising the bound: the
/// bound change wakes both kinds of waiter and both pushes land.
#[cfg(feature = "async")]
#[test]
fn raising_the_bound_wakes_a_blocked_push_and_a_push_async() {
    check("set_max_len wakes push and push_async", Bound::Env, || {
        let mut c = BufferedCollection::bounded(1);
        c.push(0u8);
        c.commit();
        let p = c.producer();
        let q = p.clone();
        let t1 = thread::spawn(move || p.push(1).is_ok());
        let t2 = thread::spawn(move || loom::future::block_on(q.push_async(2)).is_ok());
        c.set_max_len(Some(3));
        let mut got = Vec::new();
        take_until_disconnected(&mut c, &mut got);
        assert!(t1.join().unwrap());
        assert!(t2.join().unwrap());
        got.sort_unstable();
        assert_eq!(got, [0, 1, 2]);
    });
}

/// (s) `wait_pending` against pushes through two handles (two buffers):
/// the wait arms the consumers' flag and then looks at every buffer, a
/// push reads the flag after unlocking its own. Whichever buffer a push
/// lands in and whenever, the owner is woken for it by the push itself.
#[test]
fn wait_pending_against_pushes_through_two_handles() {
    check("wait_pending vs two handles", Bound::Env, || {
        let mut c = BufferedCollection::new();
        // The handles stay alive until the owner has both values.
        let (t1, open1) = push_and_stay(c.producer(), 1);
        let (t2, open2) = push_and_stay(c.producer(), 2);
        let mut got = Vec::new();
        while got.len() < 2 {
            assert_eq!(c.wait_pending(), Ok(()), "both handles are alive");
            c.commit();
            drain(&mut c, &mut got);
        }
        open1();
        open2();
        t1.join().unwrap();
        t2.join().unwrap();
        got.sort_unstable();
        assert_eq!(got, [1, 2]);
    });
}

/// (t) Two handles take the last unit of room of a bounded(2) collection
/// with `try_push` while a traversal removes an element (which takes all
/// the room for the pass and hands back what it freed): the room counter
/// never lets more values in than the bound, at any point.
#[test]
fn two_handles_race_for_the_room_a_pass_frees() {
    check("two handles race for freed room", Bound::Env, || {
        let mut c = BufferedCollection::bounded(2);
        c.extend([0u8, 9]);
        c.commit();
        let p = c.producer();
        let q = c.producer();
        let t1 = thread::spawn(move || p.try_push(1).is_ok());
        let t2 = thread::spawn(move || q.try_push(2).is_ok());
        c.traverse(|e| {
            if *e == 0 {
                e.remove();
            }
        });
        let pushed = usize::from(t1.join().unwrap()) + usize::from(t2.join().unwrap());
        assert!(pushed <= 1, "one unit of room was freed");
        assert_eq!(c.commit(), pushed);
        assert!(c.len() <= 2, "the bound holds");
    });
}

/// (w) Room a shard prepaid is free room for the other shard. Under loom
/// a shard's first push takes all the room there is (the rest held as
/// prepaid). On a bounded(2) queue one thread `try_push`es once and the
/// other twice, each thread on a shard of its own, while nothing is
/// drained: exactly two of the three pushes land, whichever shard
/// prepaid the room (a push refused while the other shard held room
/// would leave one).
#[test]
fn room_one_shard_prepaid_is_found_by_the_other() {
    check("prepaid room reaches the other shard", Bound::Env, || {
        let mut c = BufferedCollection::bounded(2);
        let p = c.producer();
        let q = c.producer();
        let t1 = thread::spawn(move || usize::from(p.try_push(1u8).is_ok()));
        let t2 = thread::spawn(move || {
            usize::from(q.try_push(2).is_ok()) + usize::from(q.try_push(3).is_ok())
        });
        let pushed = t1.join().unwrap() + t2.join().unwrap();
        assert_eq!(pushed, 2, "full exactly at the bound");
        assert_eq!(c.commit(), 2);
    });
}

/// (w') The same with a blocking `push`: one thread `try_push`es once and
/// leaves, the other pushes twice with `push`, and the owner drains until
/// every handle is gone. A push that slept for room another shard held,
/// with nothing left to free it, would deadlock.
#[test]
fn a_push_blocked_for_room_finds_the_room_another_shard_prepaid() {
    check("blocked push and prepaid room", Bound::Env, || {
        let mut c = BufferedCollection::bounded(2);
        let p = c.producer();
        let q = c.producer();
        let t1 = thread::spawn(move || p.try_push(1u8).is_ok());
        let t2 = thread::spawn(move || {
            q.push(2).unwrap();
            q.push(3).unwrap();
        });
        let mut got = Vec::new();
        take_until_disconnected(&mut c, &mut got);
        let first = t1.join().unwrap();
        t2.join().unwrap();
        got.sort_unstable();
        // A `try_push` may find the queue full only when the two pushes
        // of the other thread hold all of it.
        assert_eq!(got, if first { &[1, 2, 3][..] } else { &[2, 3][..] });
    });
}

/// (u) A permit dropped unused gives its room back and wakes a push
/// blocked for it (feature `async`): with bound 1, one handle reserves the
/// only room and drops the permit while the other blocks in `push` (or the
/// push lands first and the reservation waits for the owner's drain). If
/// the room were not handed back with a wake-up, loom would report a
/// deadlock.
#[cfg(feature = "async")]
#[test]
fn a_dropped_permit_wakes_a_push_blocked_for_its_room() {
    check("dropped permit wakes a blocked push", Bound::Env, || {
        let mut c = BufferedCollection::bounded(1);
        let p = c.producer();
        let q = c.producer();
        let t1 = thread::spawn(move || {
            let permit = loom::future::block_on(p.reserve_async()).unwrap();
            drop(permit);
        });
        let t2 = thread::spawn(move || q.push(5u8).is_ok());
        // The owner drains until both handles are gone (if the push lands
        // first, the reservation waits for the room this frees).
        let mut got = Vec::new();
        take_until_disconnected(&mut c, &mut got);
        t1.join().unwrap();
        assert!(t2.join().unwrap());
        assert_eq!(got, [5]);
    });
}

/// (v) A permit against a close (feature `async`): a reservation made
/// before the close still pushes, and `wait_pending` does not report the
/// queue disconnected while that permit is outstanding: the owner, which
/// closes and then drains until the wait says nothing more can arrive, gets
/// the value exactly when the reservation succeeded.
#[cfg(feature = "async")]
#[test]
fn a_permit_taken_before_a_close_still_arrives() {
    check("permit vs close", Bound::Env, || {
        let mut c = BufferedCollection::new();
        let p = c.producer();
        let t = thread::spawn(move || match loom::future::block_on(p.reserve_async()) {
            Ok(permit) => {
                permit.push(7u8);
                true
            }
            Err(_) => false,
        });
        c.close();
        let mut got = Vec::new();
        take_until_disconnected(&mut c, &mut got);
        // Disconnected: everything that can arrive has arrived.
        c.commit();
        drain(&mut c, &mut got);
        let reserved = t.join().unwrap();
        assert_eq!(got, if reserved { vec![7] } else { vec![] });
    });
}

/// (w) `wait_pending_async` against a push from a handle that stays alive
/// (feature `async`): the task registers its waker and arms the flag under
/// the lock before it looks, so the push itself wakes it (the handle
/// leaving cannot stand in for a lost wake-up: that shows as a deadlock).
#[cfg(feature = "async")]
#[test]
fn wait_pending_async_is_woken_by_the_push_itself() {
    check("wait_pending_async woken by the push", Bound::Env, || {
        let mut c = BufferedCollection::new();
        let (t, open) = push_and_stay(c.producer(), 1);
        assert_eq!(loom::future::block_on(c.wait_pending_async()), Ok(()));
        assert_eq!(c.commit(), 1);
        open();
        t.join().unwrap();
        assert_eq!(c.as_slice(), [1]);
    });
}

/// (x) A blocked `push` woken by freed room that another handle takes
/// first goes back to waiting, and says so again: a wait that looked while
/// it was between its two waits is woken to answer "full" (`false`)
/// instead of sleeping for ever (loom reports a deadlock if it sleeps).
#[test]
fn a_push_that_blocks_again_wakes_the_wait_again() {
    check("re-blocked push wakes the wait again", Bound::Env, || {
        let mut c = BufferedCollection::bounded(1);
        c.push(0u8);
        c.commit();
        let p = c.producer();
        let q = c.producer();
        let t = thread::spawn(move || p.push(1).is_ok());
        assert_eq!(
            c.wait_pending(),
            Err(WaitError::Full),
            "full, and the producer blocked"
        );
        c.clear_visible(); // frees the room: wakes the blocked push
        let took = q.try_push(2).is_ok();
        c.commit();
        drop(q);
        // Either the blocked push got the room (then it is pending or
        // visible by now) or the other handle did and the push blocks again:
        // the wait answers either way.
        let more = c.wait_pending();
        if more.is_ok() {
            c.commit();
        }
        assert!(c.len() <= 1, "the bound holds");
        drop(c);
        let pushed = t.join().unwrap();
        assert!(took || pushed, "the freed room went to one of them");
    });
}

/// How the causal models push: blocking `push`, or `push_async` polled to
/// completion on the pushing thread.
#[derive(Clone, Copy)]
enum Push {
    Blocking,
    #[cfg(feature = "async")]
    Async,
}

impl Push {
    fn push(self, p: &Producer<u8>, v: u8) {
        match self {
            Push::Blocking => p.push(v).unwrap(),
            #[cfg(feature = "async")]
            Push::Async => loom::future::block_on(p.push_async(v)).unwrap(),
        }
    }
}

/// The causal model behind arrival order: thread 1 pushes A through its
/// handle and then sets a flag; thread 2 waits for the flag and pushes B
/// through another handle; meanwhile the owner commits (`commits` times)
/// and takes what each commit appended. With `bystander`, a third thread
/// pushes C through a third handle whenever it runs (loom's queues have
/// two shards, so two of the three pushing threads share one). Whatever
/// the interleaving, A is never committed after B (a commit that takes B
/// takes A too, or an earlier one did), and every value arrives exactly
/// once.
fn causal_model(name: &str, bound: Option<usize>, push: Push, commits: usize, bystander: bool) {
    let name = std::string::String::from(name);
    check(&name, Bound::Env, move || {
        let mut c = match bound {
            Some(max) => BufferedCollection::bounded(max),
            None => BufferedCollection::new(),
        };
        let (p1, p2, p3) = (c.producer(), c.producer(), c.producer());
        // The flag is a mutex and a condition variable (a spin on an
        // atomic would make loom's schedules unbounded).
        let flag = Arc::new((loom::sync::Mutex::new(false), loom::sync::Condvar::new()));
        let released = Arc::clone(&flag);
        let t1 = thread::spawn(move || {
            push.push(&p1, 1);
            *released.0.lock().unwrap() = true;
            released.1.notify_one();
        });
        let t2 = thread::spawn(move || {
            let mut set = flag.0.lock().unwrap();
            while !*set {
                set = flag.1.wait(set).unwrap();
            }
            drop(set);
            push.push(&p2, 2);
        });
        let t3 = bystander.then(|| thread::spawn(move || push.push(&p3, 3)));
        let mut taken = Vec::new();
        for _ in 0..commits {
            c.commit();
            c.traverse(|e| taken.push(e.remove()));
            assert!(
                !taken.contains(&2) || taken.contains(&1),
                "{taken:?}: B was committed without A, which happened before it"
            );
        }
        t1.join().unwrap();
        t2.join().unwrap();
        if let Some(t3) = t3 {
            t3.join().unwrap();
        }
        c.commit();
        c.traverse(|e| taken.push(e.remove()));
        let a_and_b: Vec<u8> = taken.iter().copied().filter(|&v| v != 3).collect();
        assert_eq!(a_and_b, [1, 2], "{taken:?}: A before B, each once");
        let bystanders = taken.iter().filter(|&&v| v == 3).count();
        assert_eq!(
            bystanders,
            usize::from(bystander),
            "{taken:?}: C once, if pushed"
        );
    });
}

/// (r) Arrival order across two handles, one concurrent commit.
#[test]
fn causally_ordered_pushes_through_two_handles_one_commit() {
    causal_model("causal order / one commit", None, Push::Blocking, 1, false);
}

/// (s) The same with two concurrent commits.
#[test]
fn causally_ordered_pushes_through_two_handles_two_commits() {
    causal_model("causal order / two commits", None, Push::Blocking, 2, false);
}

/// (t) The same on a bounded queue (room taken with each push).
#[test]
fn causally_ordered_pushes_into_a_bounded_queue() {
    causal_model("causal order / bounded", Some(4), Push::Blocking, 2, false);
}

/// (u) The same with `push_async`.
#[cfg(feature = "async")]
#[test]
fn causally_ordered_async_pushes() {
    causal_model("causal order / push_async", None, Push::Async, 2, false);
}

/// (u') The same with a third pushing thread: two of the three share a
/// shard.
#[test]
fn causal_order_with_three_threads_on_two_shards() {
    causal_model(
        "causal order / three threads, two shards",
        None,
        Push::Blocking,
        1,
        true,
    );
}

/// (u'') Per-producer order: handles that get their own slot with their
/// first push (registered then, under the control lock) while the owner
/// commits: every value arrives once, each handle's in its order, and a
/// commit that sees both handles' values lists the older handle's first.
#[test]
fn first_per_producer_pushes_register_slots_against_a_commit() {
    check(
        "per producer / slots registered by first pushes vs commit",
        Bound::Env,
        || {
            let mut c = BufferedCollection::new();
            c.set_producer_order(ProducerOrder::PerProducer);
            let (p1, p2) = (c.producer(), c.producer());
            let t1 = thread::spawn(move || {
                p1.push(1u8).unwrap();
                p1.push(2).unwrap();
            });
            let t2 = thread::spawn(move || p2.push(3).unwrap());
            let mut taken = Vec::new();
            c.commit();
            let first = c.as_slice().to_vec();
            c.traverse(|e| taken.push(e.remove()));
            t1.join().unwrap();
            t2.join().unwrap();
            c.commit();
            c.traverse(|e| taken.push(e.remove()));
            let at = |v: u8| {
                taken
                    .iter()
                    .position(|&x| x == v)
                    .expect("each value arrives")
            };
            assert!(at(1) < at(2), "{taken:?}: a handle's order");
            assert_eq!(taken.len(), 3, "{taken:?}: each value once");
            if first.contains(&1) && first.contains(&3) {
                assert_eq!(first[0], 1, "{first:?}: the older handle's values first");
            }
        },
    );
}

/// (y) A batch push that finds its room gone between reading it and taking
/// it (a pass reserved it) waits and retries: `a`'s and `b`'s earlier
/// pushes returned before the batch started, so every commit order but
/// `[1, 2, 3]` is wrong. (The batch once claimed a stamp before taking
/// room, and its retry then joined `a`'s first run: `[1, 3, 2]`.)
#[test]
fn a_batch_push_that_waits_for_room_keeps_the_arrival_order() {
    check(
        "push_batch waiting for the room a pass took (arrival order)",
        Bound::Env,
        || {
            let mut c = BufferedCollection::bounded(3);
            let (a, b) = (c.producer(), c.producer());
            a.push(1u8).unwrap();
            b.push(2).unwrap();
            let t = thread::spawn(move || {
                let mut batch = vec![3];
                a.push_batch(&mut batch).unwrap();
            });
            // Takes the last unit of room for the pass, then hands it back.
            c.traverse(|_| {});
            t.join().unwrap();
            c.commit();
            assert_eq!(c.as_slice(), [1, 2, 3]);
            drop(b);
        },
    );
}

/// (z) Switching to arrival order while pushes go on through three
/// handles made in the order `w`, `x`, `y`: the pushes `y`, `x`, `w`
/// follow one another on one thread, so the committed order must be what
/// a switch at one point between them gives: the values queued then keep
/// the handles' order, later pushes follow in arrival order. (The switch
/// once converted the slots one at a time, and `[2, 3, 1]` came out.)
#[test]
fn switching_to_arrival_order_is_one_step_against_pushes() {
    check(
        "set_producer_order(Arrival) vs pushes through three handles",
        Bound::Env,
        || {
            let mut c = BufferedCollection::new();
            c.set_producer_order(ProducerOrder::PerProducer);
            let (w, x, y) = (c.producer(), c.producer(), c.producer());
            let t = thread::spawn(move || {
                y.push(1u8).unwrap();
                x.push(2).unwrap();
                w.push(3).unwrap();
            });
            c.set_producer_order(ProducerOrder::Arrival);
            t.join().unwrap();
            c.commit();
            let order = c.as_slice();
            assert!(
                [[1, 2, 3], [2, 1, 3], [3, 2, 1]].iter().any(|o| o == order),
                "{order:?}: no single switch point gives this order"
            );
        },
    );
}

/// (z') A commit in arrival order against a handle that keeps pushing
/// (extending the run it opened, which may be the one the cut falls in)
/// between the commit's two looks at its slot: whatever each commit
/// takes, everything comes out once, in the order it was pushed.
#[test]
fn a_commit_at_a_cut_against_a_handle_extending_its_run() {
    check(
        "commit at a cut vs pushes extending a run",
        Bound::Env,
        || {
            let mut c = BufferedCollection::new();
            let (a, b) = (c.producer(), c.producer());
            b.push(0u8).unwrap();
            let t = thread::spawn(move || {
                for v in 1..=3 {
                    a.push(v).unwrap();
                }
            });
            c.commit();
            let first = c.len();
            assert!(first >= 1, "b's push returned before the commit");
            t.join().unwrap();
            c.commit();
            assert_eq!(c.as_slice(), [0, 1, 2, 3]);
            drop(b);
        },
    );
}

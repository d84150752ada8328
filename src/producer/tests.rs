//! Unit tests of the producers' registry (`Queue::slots`): the slots of
//! dropped handles leave it, at the next commit or by a sweep, and sweeps
//! stay amortised O(1) per dropped handle while the registry stays within
//! a constant factor of the live handles.

use alloc::collections::BinaryHeap;
use alloc::vec;
use alloc::vec::Vec;
use core::sync::atomic::Ordering::SeqCst;
use std::time::Duration;

use super::link::merge_runs;
use super::queue::{shard_index, Part, Run, SlotState, SWEEP_MIN};
use super::*;
use crate::sync::Stamp;

/// Handles' slots in the registry (the shards left out), dead slots in
/// it, and the dead count that triggers the next sweep.
fn registry<T>(link: &ProducerLink<T>) -> (usize, usize, usize) {
    let queue = link.shared.lock();
    (
        queue.slots.len() - queue.shard_slots,
        queue.dead,
        queue.sweep_at,
    )
}

#[test]
fn a_commit_removes_the_slots_of_dropped_handles() {
    let mut link = ProducerLink::<u32>::new(usize::MAX, ProducerOrder::Arrival);
    let mut handles: Vec<_> = (0..10).map(|_| link.producer(0).with_own_slot()).collect();
    handles[3].push(3).unwrap();
    // Fewer than a sweep needs: the dead slots wait for the commit.
    let late = handles.split_off(5);
    drop(handles);
    assert_eq!(registry(&link), (10, 5, SWEEP_MIN));
    let mut dest = Vec::new();
    link.take_into(&mut dest);
    assert_eq!(dest, [3], "a dropped handle's push is committed");
    assert_eq!(registry(&link), (5, 0, SWEEP_MIN));
    // The live ones still push.
    late[0].push(7).unwrap();
    link.take_into(&mut dest);
    assert_eq!(dest, [3, 7]);
    assert_eq!(registry(&link).0, 5);
}

#[test]
fn a_sweep_keeps_a_dead_slot_until_its_values_are_committed() {
    // Per producer: the push goes to the handle's own slot (in arrival
    // order it would go to the thread's shard).
    let mut link = ProducerLink::<u32>::new(usize::MAX, ProducerOrder::PerProducer);
    let first = link.producer(0).with_own_slot();
    first.push(1).unwrap();
    drop(first);
    // Dead, empty slots up to the sweep's threshold.
    for _ in 1..SWEEP_MIN {
        drop(link.producer(0).with_own_slot());
    }
    let (len, dead, sweep_at) = registry(&link);
    assert_eq!(
        (len, dead),
        (1, 1),
        "the sweep kept only the slot holding a value"
    );
    assert!(sweep_at >= dead + SWEEP_MIN);
    let mut dest = Vec::new();
    link.take_into(&mut dest);
    assert_eq!(dest, [1]);
    assert_eq!(registry(&link).0, 0);
}

/// Handles made and dropped one at a time next to `live` long-lived ones:
/// the registry never holds more than `live` plus half as many again (or
/// `SWEEP_MIN`) dead slots, and a sweep comes only after that many drops.
#[test]
fn sweeps_are_amortised_and_bound_the_registry() {
    let drops = if cfg!(miri) { 300 } else { 10_000 };
    for live in [0, 10, 100, 400] {
        let link = ProducerLink::<u32>::new(usize::MAX, ProducerOrder::Arrival);
        let _live: Vec<_> = (0..live)
            .map(|_| link.producer(0).with_own_slot())
            .collect();
        let between = (live / 2).max(SWEEP_MIN);
        let mut sweeps = 0;
        let mut longest = 0;
        for _ in 0..drops {
            let handle = link.producer(0).with_own_slot();
            longest = longest.max(registry(&link).0);
            drop(handle);
            let (len, dead, sweep_at) = registry(&link);
            if dead == 0 {
                // This drop swept: every dead slot was empty.
                sweeps += 1;
                assert_eq!(len, live);
            }
            assert!(sweep_at - dead >= 1, "a sweep is due before the next drop");
        }
        assert!(
            longest <= live + 1 + between,
            "{live} live handles: the registry reached {longest}"
        );
        assert!(
            sweeps <= drops / between + 1,
            "{live} live handles: {sweeps} sweeps in {drops} drops"
        );
        assert!(sweeps >= drops / (between + 1) / 2, "{sweeps} sweeps");
    }
}

/// After a commit removed dead slots, the next sweep waits as long as it
/// would after a sweep: half the registry (or `SWEEP_MIN`) more drops.
#[test]
fn a_commit_sets_the_next_sweep_as_a_sweep_does() {
    let mut link = ProducerLink::<u32>::new(usize::MAX, ProducerOrder::Arrival);
    let _live: Vec<_> = (0..100).map(|_| link.producer(0).with_own_slot()).collect();
    drop(link.producer(0).with_own_slot());
    link.take_into(&mut Vec::new());
    assert_eq!(registry(&link), (100, 0, 50));
}

/// Whether pushes would take the control lock to wake a consumer.
fn armed<T>(link: &ProducerLink<T>) -> bool {
    link.shared.flags.consumers_waiting.load(SeqCst)
}

/// A wait that ended, however it ended, leaves no consumer registered and
/// the flag that sends pushes to the control lock cleared: pushes made
/// after it take their fast path again.
#[test]
fn a_finished_wait_leaves_nothing_registered() {
    let link = ProducerLink::<u32>::new(usize::MAX, ProducerOrder::Arrival);
    let producer = link.producer(0).with_own_slot();
    let waiting = |link: &ProducerLink<u32>| link.shared.lock().waiting_consumers;
    // Timed out, after sleeping.
    let timeout = Some(Duration::from_millis(if cfg!(miri) { 1 } else { 10 }));
    assert_eq!(link.wait_pending(0, timeout), Waited::Timeout);
    assert_eq!(waiting(&link), 0);
    assert!(!armed(&link));
    // Woken by a push.
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(if cfg!(miri) { 1 } else { 20 }));
            producer.push(1).unwrap();
        });
        assert_eq!(link.wait_pending(0, None), Waited::Pending);
    });
    assert_eq!(waiting(&link), 0);
    assert!(!armed(&link));
    // Answered at once (a value is queued).
    assert_eq!(link.wait_pending(0, None), Waited::Pending);
    assert!(!armed(&link));
}

/// The same for tasks: a future that resolved, or was dropped, leaves no
/// waker registered and the flag cleared.
#[cfg(feature = "async")]
#[test]
fn a_finished_or_cancelled_async_wait_leaves_nothing_registered() {
    use core::future::Future;
    use core::task::{Context, Poll, Waker};

    struct Nothing;
    impl std::task::Wake for Nothing {
        fn wake(self: std::sync::Arc<Self>) {}
    }

    let link = ProducerLink::<u32>::new(usize::MAX, ProducerOrder::Arrival);
    let producer = link.producer(0).with_own_slot();
    let waker = Waker::from(std::sync::Arc::new(Nothing));
    let mut cx = Context::from_waker(&waker);
    let registered = |link: &ProducerLink<u32>| !link.shared.lock().consumer_wakers.is_empty();
    {
        let mut wait = core::pin::pin!(link.wait_pending_async(0, false));
        assert!(wait.as_mut().poll(&mut cx).is_pending());
        assert!(registered(&link) && armed(&link));
    }
    assert!(!registered(&link));
    assert!(!armed(&link), "a cancelled wait");
    let mut wait = core::pin::pin!(link.wait_pending_async(0, false));
    assert!(wait.as_mut().poll(&mut cx).is_pending());
    producer.push(1).unwrap();
    assert_eq!(wait.as_mut().poll(&mut cx), Poll::Ready(Ok(())));
    assert!(!registered(&link));
    assert!(!armed(&link), "a resolved wait");
}

/// A commit that finds nothing queued leaves the destination as it was,
/// capacity included (no buffer is swapped for an empty slot).
#[test]
fn taking_nothing_keeps_the_destinations_buffer() {
    let mut link = ProducerLink::<u32>::new(usize::MAX, ProducerOrder::Arrival);
    let _idle = link.producer(0).with_own_slot();
    let mut dest = Vec::with_capacity(100);
    link.take_into(&mut dest);
    assert!(dest.is_empty());
    assert!(dest.capacity() >= 100, "capacity {}", dest.capacity());
}

/// `merge_runs` on parts whose runs interleave at random, for every number
/// of parts from 2 to 12 (a scan up to `SCANNED_PARTS`, a heap beyond),
/// runs of one value and longer ones: the values come out in stamp order
/// and every part is left empty.
#[test]
fn merge_runs_puts_interleaved_runs_in_stamp_order() {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    for k in 2..=12 {
        for _ in 0..if cfg!(miri) { 2 } else { 50 } {
            let mut parts: Vec<Part<u32>> = (0..k).map(|_| Part::default()).collect();
            // Values numbered in the order their runs were stamped.
            let mut stamp: Stamp = 10;
            let mut v = 0u32;
            for _ in 0..1 + next(40) {
                let part = &mut parts[next(k as u64) as usize];
                if part.items.is_empty() {
                    part.head = stamp;
                } else {
                    part.runs.push(Run {
                        stamp,
                        start: part.items.len(),
                    });
                }
                for _ in 0..1 + next(4) {
                    part.items.push(v);
                    v += 1;
                }
                stamp += 1 + next(3);
            }
            let mut parts: Vec<Part<u32>> =
                parts.into_iter().filter(|p| !p.items.is_empty()).collect();
            let mut heap = BinaryHeap::with_capacity(parts.len());
            let mut dest = alloc::vec![u32::MAX];
            dest.reserve(v as usize);
            merge_runs(&mut parts, &mut heap, &mut dest, stamp);
            let expected: Vec<u32> = core::iter::once(u32::MAX).chain(0..v).collect();
            assert_eq!(dest, expected, "{k} parts");
            assert!(parts.iter().all(|p| p.items.is_empty()));
        }
    }
}

/// Pushes through three handles in a fixed interleaving, with the clock
/// seeded at `start`, and returns what one commit takes.
fn arrival_with_clock_at(start: Stamp) -> Vec<u32> {
    let mut link = ProducerLink::<u32>::new(usize::MAX, ProducerOrder::Arrival);
    let handles: Vec<_> = (0..3).map(|_| link.producer(0).with_own_slot()).collect();
    link.shared.counters.clock.store(start, SeqCst);
    for (i, h) in [0, 1, 0, 2, 2, 1, 0].into_iter().enumerate() {
        handles[h].push(i as u32).unwrap();
    }
    let mut dest = Vec::new();
    link.take_into(&mut dest);
    dest
}

/// The clock wraps (a `usize` clock on a target without 64-bit atomics
/// would; the test seeds it near its maximum): it never shows 0, the epoch
/// of a slot that never pushed, so two fresh slots never share a stamp and
/// the arrival order survives the wrap.
#[test]
fn the_arrival_order_survives_the_clock_wrapping() {
    for start in [Stamp::MAX - 3, Stamp::MAX - 1, Stamp::MAX] {
        assert_eq!(
            arrival_with_clock_at(start),
            (0..7).collect::<Vec<u32>>(),
            "clock seeded at {start}"
        );
    }
}

/// A slot holding `[0, 1, 2, 3, 4]` in runs stamped 5 (the head), 7 (from
/// 2) and 9 (from 4, open).
fn three_runs() -> SlotState<u32> {
    let mut slot = SlotState::new(true, false);
    slot.items = (0..5).collect();
    slot.head = 5;
    slot.runs = vec![Run { stamp: 7, start: 2 }, Run { stamp: 9, start: 4 }];
    slot.epoch = 9;
    slot.run_open = true;
    slot
}

/// What a slot (or part) holds: values, head stamp, runs as (stamp, start).
fn runs_of(items: &[u32], head: Stamp, runs: &[Run]) -> (Vec<u32>, Stamp, Vec<(Stamp, usize)>) {
    let runs = runs.iter().map(|r| (r.stamp, r.start)).collect();
    (items.to_vec(), head, runs)
}

/// A commit at a cut takes the prefix its first look counted, which may
/// end inside a run (values were added to it since): the values left go
/// on with that run's stamp; at a run's start, that run becomes the head.
#[test]
fn taking_a_prefix_splits_runs_where_it_ends() {
    type Expected = (Vec<u32>, Stamp, Vec<(Stamp, usize)>);
    let cases: [(usize, Expected, Expected); 4] = [
        (
            1,
            (vec![0], 5, vec![]),
            (vec![1, 2, 3, 4], 5, vec![(7, 1), (9, 3)]),
        ),
        (2, (vec![0, 1], 5, vec![]), (vec![2, 3, 4], 7, vec![(9, 2)])),
        (
            3,
            (vec![0, 1, 2], 5, vec![(7, 2)]),
            (vec![3, 4], 7, vec![(9, 1)]),
        ),
        (4, (vec![0, 1, 2, 3], 5, vec![(7, 2)]), (vec![4], 9, vec![])),
    ];
    for (n, taken, left) in cases {
        let mut slot = three_runs();
        let mut part = Part::default();
        part.items.reserve(n);
        part.runs.reserve(2);
        slot.take_prefix(n, &mut part);
        assert_eq!(
            runs_of(&part.items, part.head, &part.runs),
            taken,
            "n = {n}"
        );
        assert_eq!(runs_of(&slot.items, slot.head, &slot.runs), left, "n = {n}");
        assert!(slot.run_open && slot.epoch == 9, "the open run stays open");
        // What is left is due exactly from its head's stamp on.
        assert_eq!(slot.due(left.1 - 1).0, 0);
        assert!(slot.due(left.1).0 > 0);
    }
}

/// Room the shards took ahead of their pushes, in all.
fn prepaid<T>(link: &ProducerLink<T>) -> usize {
    let queue = link.shared.lock();
    queue.slots[..queue.shard_slots]
        .iter()
        .map(|shard| shard.state.lock().prepaid)
        .sum()
}

/// Runs `f` on a thread whose pushes go to another shard than this
/// thread's (threads are numbered as they first push; a new thread's
/// number differs from this one's by less than the shards, or one more
/// thread is tried).
fn on_another_shard<T: Send, R: Send>(link: &ProducerLink<T>, f: impl Fn() -> R + Sync) -> R {
    let shards = link.shared.lock().shard_slots;
    let mine = shard_index(shards);
    loop {
        let ran = std::thread::scope(|s| {
            s.spawn(|| (shard_index(shards) != mine).then(&f))
                .join()
                .unwrap()
        });
        if let Some(result) = ran {
            return result;
        }
    }
}

/// A queue bounded to `max` with a handle whose first push, made on
/// another thread's shard than this one's, took room ahead for that
/// shard (checked): the value 0 is queued.
fn prepaid_elsewhere(max: usize) -> (ProducerLink<usize>, Producer<usize>) {
    let link = ProducerLink::<usize>::new(max, ProducerOrder::Arrival);
    let producer = link.producer(0);
    on_another_shard(&link, || producer.push(0).unwrap());
    assert!(prepaid(&link) > 0, "the first push prepaid room");
    (link, producer)
}

/// A shard's first push on a roomy bounded queue takes room ahead for its
/// next pushes; that room is still free room for every other push: a
/// push from another shard gets all of it before the queue says `Full`,
/// exactly at the bound.
#[test]
fn prepaid_room_is_free_room_for_the_other_shards() {
    let max = 1000;
    let (link, producer) = prepaid_elsewhere(max);
    let mut pushed = 1;
    while producer.try_push(pushed).is_ok() {
        pushed += 1;
    }
    assert_eq!(pushed, max, "full exactly at the bound");
    assert_eq!(prepaid(&link), 0);
    assert_eq!(link.len(), max);
    // The same for batches: a roomy queue again, then one batch of all.
    let (mut link, producer) = prepaid_elsewhere(max);
    let mut batch: Vec<usize> = (1..=max).collect();
    assert!(producer.try_push_batch(&mut batch).is_err());
    assert_eq!(batch, [max], "everything but the one too many fitted");
    let mut dest = Vec::new();
    link.take_into(&mut dest);
    assert_eq!(dest, (0..max).collect::<Vec<_>>());
}

/// The owner's own pushes and passes count prepaid room as free room
/// too: its pushes take it when `room` is empty, and a pass takes all of
/// it, so that no producer can push while the pass runs.
#[test]
fn the_owner_takes_prepaid_room_for_its_pushes_and_its_passes() {
    let max = 1000;
    let (link, _producer) = prepaid_elsewhere(max);
    // The owner's pushes (`owned` counts them): all the rest of the room.
    let mut owned = 0;
    while link.reserve_one(owned) {
        owned += 1;
    }
    assert_eq!(owned, max - 1, "one value is in a slot");
    assert_eq!(prepaid(&link), 0);

    // A pass: the room it keeps for its pushes includes the prepaid.
    let link = ProducerLink::<usize>::new(max, ProducerOrder::Arrival);
    let producer = link.producer(0);
    let (ready, go) = (std::sync::Barrier::new(2), std::sync::Barrier::new(2));
    std::thread::scope(|s| {
        let shard = s.spawn(|| {
            producer.push(0).unwrap();
            ready.wait();
            go.wait();
            // The same thread, so the same shard: its prepaid room is gone.
            producer.try_push(1)
        });
        ready.wait();
        assert!(prepaid(&link) > 0);
        assert_eq!(link.reserve_for_pass(0), max - 1);
        assert_eq!(prepaid(&link), 0);
        go.wait();
        assert_eq!(
            shard.join().unwrap(),
            Err(crate::error::TryPushError::Full(1))
        );
    });
}

/// A bound change that does not fit (more is queued than the new bound)
/// changes nothing: the room a shard prepaid is still there for pushes.
#[test]
fn a_refused_bound_change_keeps_the_prepaid_room() {
    let max = 1000;
    let (link, producer) = prepaid_elsewhere(max);
    assert!(!link.set_max(0, 0), "one value is queued");
    let mut pushed = 1;
    while producer.try_push(pushed).is_ok() {
        pushed += 1;
    }
    assert_eq!(pushed, max, "full exactly at the bound");
}

/// `maybe_prepaid` is set by a push that takes room ahead and cleared by
/// the look at every shard that a "full" makes (which takes that room
/// back): the pushes of a full queue then answer "full" without locking
/// the shards, until a shard takes room ahead again.
#[test]
fn a_full_queue_looks_at_the_shards_once_per_refill() {
    let max = 1000;
    let (mut link, producer) = prepaid_elsewhere(max);
    let maybe_prepaid =
        |link: &ProducerLink<usize>| link.shared.counters.maybe_prepaid.load(SeqCst);
    assert!(maybe_prepaid(&link), "set by the push that prepaid");
    let mut pushed = 1;
    while producer.try_push(pushed).is_ok() {
        pushed += 1;
    }
    assert_eq!(pushed, max, "full exactly at the bound");
    assert!(
        !maybe_prepaid(&link),
        "cleared by the look that found it full"
    );
    assert_eq!(prepaid(&link), 0);
    // Still full, without that look: the flag says no shard holds room.
    assert!(link.shared.lock_shards().is_none());
    assert!(producer.try_push(max).is_err());
    // Room again: the next push that takes room ahead sets it again.
    let mut dest = Vec::new();
    link.take_into(&mut dest);
    assert_eq!(dest.len(), max);
    // The collection (here, `dest`) let them go.
    link.publish(0);
    on_another_shard(&link, || producer.push(0).unwrap());
    assert!(prepaid(&link) > 0 && maybe_prepaid(&link));
}

//! Behaviour tests for `BufferedCollection` and its `Producer`s: what is
//! visible when, the order `commit` appends in, every way a traversal can
//! end, drop counts, and the producers' closed state.
#![cfg(not(loom))]

use std::error::Error;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

use read_write_collection::{
    BufferedCollection, NoAutoRemove, Producer, ProducerClosed, ProducerOrder,
};

// ---------------------------------------------------------------------------
// Helpers

/// Records the id of every dropped [`Item`], so a test can check that each
/// element was dropped exactly once (or, after `mem::forget`, not at all).
#[derive(Default)]
struct DropLog(Mutex<Vec<u32>>);

impl DropLog {
    fn item(&self, id: u32) -> Item<'_> {
        Item { id, log: self }
    }

    /// The ids dropped so far, sorted.
    fn dropped(&self) -> Vec<u32> {
        let mut ids = self.0.lock().unwrap().clone();
        ids.sort_unstable();
        ids
    }
}

/// A drop-logging element. It borrows its log (no heap of its own), so a
/// leaked element leaks no memory and Miri's leak check stays quiet.
struct Item<'a> {
    id: u32,
    log: &'a DropLog,
}

impl Drop for Item<'_> {
    fn drop(&mut self) {
        self.log.0.lock().unwrap().push(self.id);
    }
}

impl fmt::Debug for Item<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.id)
    }
}

fn ids(items: &[Item<'_>]) -> Vec<u32> {
    items.iter().map(|i| i.id).collect()
}

/// Drains the visible elements through a cursor, returning them in order.
fn drain<T>(c: &mut BufferedCollection<T>) -> Vec<T> {
    let mut out = Vec::new();
    let mut cursor = c.cursor();
    while let Some(e) = cursor.next() {
        out.push(e.remove());
    }
    out
}

// ---------------------------------------------------------------------------
// Visibility

#[test]
fn pending_elements_are_invisible_before_commit() {
    let mut c = BufferedCollection::new();
    let p = c.producer();
    c.push(1);
    c.extend([2, 3]);
    p.push(4).unwrap();

    assert_eq!(c.len(), 0);
    assert!(c.is_empty());
    assert_eq!(c.as_slice(), [] as [i32; 0]);
    assert_eq!(c.iter().count(), 0);
    assert_eq!((&c).into_iter().count(), 0);
    assert_eq!((&mut c).into_iter().count(), 0);
    assert_eq!(
        c.to_vec(),
        [] as [i32; 0],
        "Deref to a slice sees nothing pending"
    );
    assert_eq!(c.local_pending(), [1, 2, 3], "local pending, in push order");
    assert_eq!(c.pending_len(), 4, "local plus the producer's push");

    let mut visited = Vec::new();
    let mut cursor = c.cursor();
    assert_eq!(cursor.remaining(), 0);
    while let Some(e) = cursor.next() {
        visited.push(*e);
    }
    drop(cursor);
    c.traverse(|e| visited.push(*e));
    assert_eq!(
        visited,
        [] as [i32; 0],
        "no traversal visits pending elements"
    );
    assert_eq!(
        (c.len(), c.pending_len()),
        (0, 4),
        "traversals leave pending alone"
    );

    assert_eq!(c.commit(), 4);
    assert_eq!(c.as_slice(), [1, 2, 3, 4]);
    assert_eq!(c.len(), 4);
    assert!(!c.is_empty());
    assert_eq!(c.local_pending(), [] as [i32; 0]);
    assert_eq!(c.pending_len(), 0);
    assert_eq!(c.commit(), 0, "nothing left to commit");
    assert_eq!(c.as_slice(), [1, 2, 3, 4]);
}

#[test]
fn entry_and_cursor_pushes_wait_for_the_next_commit() {
    let mut c: BufferedCollection<i32> = vec![1, 2, 3].into();
    let mut visited = Vec::new();
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        visited.push(*e);
        match *e {
            1 => e.push(10), // Entry::push while holding; 1 is kept
            2 => {
                e.remove();
                cursor.push(20); // Cursor::push right after removing
                cursor.push(21);
            }
            _ => {
                e.push(30);
                *e = 33;
            }
        }
        // Pending pushes are not part of this traversal.
        assert_eq!(cursor.remaining(), 3 - visited.len());
    }
    assert_eq!(
        cursor.len(),
        2,
        "the visible length after completion: 1 and 33"
    );
    drop(cursor);
    assert_eq!(
        visited,
        [1, 2, 3],
        "nothing pushed was visited in this pass"
    );
    assert_eq!(c.as_slice(), [1, 33]);
    assert_eq!(c.local_pending(), [10, 20, 21, 30]);
    assert_eq!(c.pending_len(), 4);

    assert_eq!(c.commit(), 4);
    assert_eq!(c.as_slice(), [1, 33, 10, 20, 21, 30]);
    assert_eq!(c.pending_len(), 0);
}

/// A frame loop where handlers emit follow-up events: each generation is
/// handled one frame after the event that emitted it, never in a cascade
/// within the frame; local and producer pushes interleave as documented.
#[test]
fn multi_frame_cascade_spreads_over_frames() {
    let mut queue: BufferedCollection<&str> = BufferedCollection::new();
    let input = queue.producer();
    queue.extend(["tick", "a", "b"]);

    let mut frames: Vec<Vec<&str>> = Vec::new();
    let mut after: Vec<(Vec<&str>, Vec<&str>)> = Vec::new();
    for frame in 0..6 {
        let appended = queue.commit();
        if frame == 0 {
            // Pushed after this frame's commit: waits for the next one, and
            // at that commit comes after the local pushes made later in time.
            input.push("p").unwrap();
        }
        if appended == 0 && queue.is_empty() {
            break;
        }
        let mut handled = Vec::new();
        let mut cursor = queue.cursor();
        while let Some(mut e) = cursor.next() {
            let name = *e;
            handled.push(name);
            match name {
                "tick" => {} // stays visible, handled every frame
                "a" => {
                    e.remove();
                    cursor.push("a1");
                    cursor.push("a2");
                }
                "b" => {
                    e.push("b1");
                    e.remove();
                }
                "a1" => {
                    e.push("a1x");
                    e.remove();
                }
                "p" => {
                    e.remove();
                    cursor.push("p1");
                }
                _ => {
                    e.remove();
                }
            }
        }
        drop(cursor);
        if frame == 0 {
            queue.push("local");
        }
        if frame == 3 {
            queue.clear_visible(); // drops "tick", ending the loop
        }
        frames.push(handled);
        after.push((queue.to_vec(), queue.local_pending().to_vec()));
    }

    assert_eq!(
        frames,
        [
            vec!["tick", "a", "b"],
            vec!["tick", "a1", "a2", "b1", "local", "p"],
            vec!["tick", "a1x", "p1"],
            vec!["tick"],
        ]
    );
    assert_eq!(
        after,
        [
            (vec!["tick"], vec!["a1", "a2", "b1", "local"]),
            (vec!["tick"], vec!["a1x", "p1"]),
            (vec!["tick"], vec![]),
            (vec![], vec![]),
        ]
    );
    assert_eq!((queue.len(), queue.pending_len()), (0, 0));
}

/// The pushes of the two tests below: three handles (`p2` a clone of
/// `p1`) and local pushes, interleaved.
fn interleaved_pushes(c: &mut BufferedCollection<i32>) -> [Producer<i32>; 3] {
    let p1 = c.producer();
    let p2 = p1.clone();
    let p3 = c.producer();
    p1.push(10).unwrap();
    p2.push(20).unwrap();
    c.push(1);
    p1.push(11).unwrap();
    p3.push(30).unwrap();
    c.extend([2, 3]);
    p2.push(21).unwrap();
    assert_eq!(c.local_pending(), [1, 2, 3]);
    assert_eq!(c.pending_len(), 8);
    [p1, p2, p3]
}

#[test]
fn commit_appends_local_pending_then_producers_pushes_in_arrival_order() {
    let mut c: BufferedCollection<i32> = vec![0].into();
    let [p1, _p2, p3] = interleaved_pushes(&mut c);
    assert_eq!(c.commit(), 8);
    // Visible first, then local pending in push order, then the
    // producers' pushes in the order they arrived, whichever handle.
    assert_eq!(c.as_slice(), [0, 1, 2, 3, 10, 20, 11, 30, 21]);
    assert_eq!(c.pending_len(), 0);

    // The queue is reused: the next commit takes only what came after.
    p3.push(31).unwrap();
    c.push(4);
    p1.push(12).unwrap();
    assert_eq!(c.commit(), 3);
    assert_eq!(c.as_slice(), [0, 1, 2, 3, 10, 20, 11, 30, 21, 4, 31, 12]);
}

#[test]
fn commit_per_producer_appends_each_producers_pushes_in_its_order() {
    let mut c: BufferedCollection<i32> = vec![0].into();
    c.set_producer_order(ProducerOrder::PerProducer);
    let [p1, _p2, p3] = interleaved_pushes(&mut c);
    assert_eq!(c.commit(), 8);
    // Visible first, then local pending in push order, then each
    // producer's pushes in its order, producers in the order they were
    // made (not the order the pushes arrived in).
    assert_eq!(c.as_slice(), [0, 1, 2, 3, 10, 11, 20, 21, 30]);
    assert_eq!(c.pending_len(), 0);

    // The queue is reused: the next commit takes only what came after.
    p3.push(31).unwrap();
    c.push(4);
    p1.push(12).unwrap();
    assert_eq!(c.commit(), 3);
    assert_eq!(c.as_slice(), [0, 1, 2, 3, 10, 11, 20, 21, 30, 4, 12, 31]);
}

/// Switching the order with values queued: to arrival order, the queued
/// values keep the per-producer order and come before later pushes; to
/// per-producer order, values pushed in arrival order are grouped by the
/// thread that pushed them (here one: they keep their order) and come
/// before later pushes.
#[test]
fn switching_the_producer_order_with_values_queued() {
    let mut c: BufferedCollection<i32> = BufferedCollection::new();
    c.set_producer_order(ProducerOrder::PerProducer);
    let (a, b) = (c.producer(), c.producer());
    b.push(1).unwrap();
    a.push(2).unwrap();
    b.push(3).unwrap();
    c.set_producer_order(ProducerOrder::Arrival);
    assert_eq!(c.producer_order(), ProducerOrder::Arrival);
    a.push(4).unwrap();
    b.push(5).unwrap();
    a.push(6).unwrap();
    c.commit();
    assert_eq!(c.as_slice(), [2, 1, 3, 4, 5, 6]);

    c.clear();
    b.push(1).unwrap();
    a.push(2).unwrap();
    b.push(3).unwrap();
    c.set_producer_order(ProducerOrder::PerProducer);
    a.push(4).unwrap();
    c.commit();
    assert_eq!(c.as_slice(), [1, 2, 3, 4]);
}

// ---------------------------------------------------------------------------
// Early exits

#[test]
fn break_keeps_unvisited_elements_and_pending_pushes() {
    let log = DropLog::default();
    let mut c = BufferedCollection::new();
    c.extend((1..=6).map(|i| log.item(i)));
    c.commit();

    let mut visited = Vec::new();
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        visited.push(e.id);
        match e.id {
            2 => drop(e.remove()),
            3 => {
                e.push(log.item(30));
                e.id = 33;
            }
            4 => {
                e.id = 44;
                cursor.push(log.item(40));
                break; // while 4 is held (its entry is no longer used)
            }
            _ => {}
        }
    }
    drop(cursor);

    assert_eq!(visited, [1, 2, 3, 4]);
    assert_eq!(
        ids(&c),
        [1, 33, 44, 5, 6],
        "held and unvisited kept in order"
    );
    assert_eq!(ids(c.local_pending()), [30, 40]);
    assert_eq!(log.dropped(), [2]);

    assert_eq!(c.commit(), 2);
    assert_eq!(ids(&c), [1, 33, 44, 5, 6, 30, 40]);
    drop(c);
    assert_eq!(log.dropped(), [1, 2, 5, 6, 30, 33, 40, 44]);
}

#[test]
fn panic_mid_traversal_keeps_the_collection_valid() {
    let log = DropLog::default();
    let mut c = BufferedCollection::new();
    c.extend((0..5).map(|i| log.item(i)));
    c.commit();
    c.push(log.item(50)); // pending from before the traversal

    let mut visited = Vec::new();
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut cursor = c.cursor();
        while let Some(mut e) = cursor.next() {
            visited.push(e.id);
            match e.id {
                1 => drop(e.remove()),
                2 => e.push(log.item(20)),
                3 => {
                    e.id = 33;
                    panic!("handler failed");
                }
                _ => {}
            }
        }
    }));
    let payload = result.unwrap_err();
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"handler failed"));

    assert_eq!(visited, [0, 1, 2, 3]);
    assert_eq!(ids(&c), [0, 2, 33, 4], "the held element is kept");
    assert_eq!(ids(c.local_pending()), [50, 20]);
    assert_eq!(log.dropped(), [1]);

    // Still fully usable.
    assert_eq!(c.commit(), 2);
    assert_eq!(ids(&drain(&mut c)), [0, 2, 33, 4, 50, 20]);
    assert_eq!(log.dropped(), [0, 1, 2, 4, 20, 33, 50]);
    drop(c);
    assert_eq!(log.dropped(), [0, 1, 2, 4, 20, 33, 50]);
}

#[test]
fn panic_while_holding_an_expired_element_defers_the_predicate() {
    let log = DropLog::default();
    let mut c = BufferedCollection::with_auto_remove(|i: &Item<'_>| i.id >= 100);
    c.extend((0..3).map(|i| log.item(i)));
    c.commit();

    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut cursor = c.cursor();
        let mut e = cursor.next().unwrap();
        e.id = 100; // expires while held
        panic!("boom");
    }));
    assert!(result.is_err());
    // The cursor's drop does not run the predicate while unwinding.
    assert_eq!(ids(&c), [100, 1, 2]);
    assert_eq!(log.dropped(), [] as [u32; 0]);
    assert_eq!(c.prune(), 1);
    assert_eq!(ids(&c), [1, 2]);
    assert_eq!(log.dropped(), [100]);
}

#[test]
fn forgetting_a_cursor_leaks_visible_elements_but_keeps_pending() {
    let log = DropLog::default();
    let mut c = BufferedCollection::new();
    c.extend((1..=4).map(|i| log.item(i)));
    c.commit();
    c.push(log.item(10));

    let mut cursor = c.cursor();
    assert_eq!(cursor.next().unwrap().id, 1);
    drop(cursor.next().unwrap().remove()); // 2
    let mut e = cursor.next().unwrap(); // 3, held
    e.push(log.item(30));
    std::mem::forget(cursor);

    // Leak amplification: the visible elements are gone (never dropped),
    // the pending buffer is intact.
    assert_eq!(c.len(), 0);
    assert_eq!(ids(c.local_pending()), [10, 30]);
    assert_eq!(log.dropped(), [2]);

    // The collection is still fully usable.
    c.push(log.item(5));
    assert_eq!(c.commit(), 3);
    assert_eq!(ids(&c), [10, 30, 5]);
    let mut visited = Vec::new();
    c.traverse(|e| visited.push(e.id));
    assert_eq!(visited, [10, 30, 5]);
    drop(c);
    assert_eq!(
        log.dropped(),
        [2, 5, 10, 30],
        "1, 3 and 4 leaked, none dropped twice"
    );
}

// ---------------------------------------------------------------------------
// Drops

#[test]
fn dropping_the_collection_drops_visible_pending_and_queued_once() {
    let log = DropLog::default();
    let mut c = BufferedCollection::new();
    let p = c.producer();
    c.extend([log.item(1), log.item(2)]);
    c.commit();
    c.push(log.item(3));
    p.push(log.item(4)).unwrap();
    p.clone().push(log.item(5)).unwrap();
    assert_eq!((c.len(), c.pending_len()), (2, 3));
    assert_eq!(log.dropped(), [] as [u32; 0]);

    drop(c);
    // The producer is still alive: its queued elements were dropped with
    // the collection, not left to the last producer.
    assert_eq!(log.dropped(), [1, 2, 3, 4, 5]);
    assert!(p.is_closed());

    let back = p.push(log.item(6)).unwrap_err().into_inner();
    assert_eq!(back.id, 6);
    assert_eq!(
        log.dropped(),
        [1, 2, 3, 4, 5],
        "the refused value is not dropped"
    );
    drop(back);
    drop(p);
    assert_eq!(log.dropped(), [1, 2, 3, 4, 5, 6]);
}

#[test]
fn removed_elements_are_dropped_by_their_taker_only() {
    let log = DropLog::default();
    let mut c = BufferedCollection::new();
    c.extend((0..4).map(|i| log.item(i)));
    c.commit();
    let mut taken = Vec::new();
    c.traverse(|e| {
        if e.id % 2 == 0 {
            taken.push(e.remove());
        }
    });
    assert_eq!(ids(&taken), [0, 2]);
    assert_eq!(ids(&c), [1, 3]);
    assert_eq!(log.dropped(), [] as [u32; 0]);
    drop(taken);
    assert_eq!(log.dropped(), [0, 2]);
    drop(c);
    assert_eq!(log.dropped(), [0, 1, 2, 3]);
}

#[test]
fn clear_visible_clear_pending_and_clear() {
    let log = DropLog::default();
    let mut c = BufferedCollection::new();
    let p = c.producer();
    // Two visible, one local pending and one producer-pending element.
    fn fill<'a>(
        c: &mut BufferedCollection<Item<'a>>,
        p: &Producer<Item<'a>>,
        log: &'a DropLog,
        base: u32,
    ) {
        c.extend([log.item(base), log.item(base + 1)]);
        c.commit();
        c.push(log.item(base + 2));
        p.push(log.item(base + 3)).unwrap();
    }

    fill(&mut c, &p, &log, 0);
    c.clear_visible();
    assert_eq!((c.len(), c.pending_len()), (0, 2));
    assert_eq!(ids(c.local_pending()), [2]);
    assert_eq!(log.dropped(), [0, 1]);
    assert_eq!(c.commit(), 2);
    assert_eq!(ids(&c), [2, 3]);

    c.clear();
    fill(&mut c, &p, &log, 10);
    c.clear_pending();
    assert_eq!((c.len(), c.pending_len()), (2, 0));
    assert_eq!(ids(&c), [10, 11]);
    assert_eq!(ids(c.local_pending()), [] as [u32; 0]);
    assert_eq!(
        log.dropped(),
        [0, 1, 2, 3, 12, 13],
        "producer pushes cleared too"
    );
    assert_eq!(c.commit(), 0);

    fill(&mut c, &p, &log, 20);
    c.clear();
    assert_eq!((c.len(), c.pending_len()), (0, 0));
    assert_eq!(c.commit(), 0);
    assert_eq!(log.dropped(), [0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23]);

    // Producers still work after clears.
    p.push(log.item(30)).unwrap();
    assert_eq!(c.commit(), 1);
    assert_eq!(ids(&c), [30]);
}

// ---------------------------------------------------------------------------
// Producers

#[test]
fn producer_push_after_drop_hands_the_value_back() {
    let c: BufferedCollection<String> = BufferedCollection::new();
    let p: Producer<String> = c.producer();
    assert_eq!(format!("{p:?}"), "Producer { closed: false, .. }");
    assert!(!p.is_closed());
    drop(c);
    assert!(p.is_closed());
    assert_eq!(format!("{p:?}"), "Producer { closed: true, .. }");
    let late = p.clone();
    assert!(
        late.is_closed(),
        "a clone made after the drop is closed too"
    );

    let err: ProducerClosed<String> = p.push("late".to_owned()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the collection behind this producer was closed or dropped"
    );
    assert_eq!(format!("{err:?}"), "ProducerClosed { .. }");
    let as_error: &dyn Error = &err;
    assert!(as_error.source().is_none());
    assert_eq!(err.clone(), err);
    assert_eq!(err.into_inner(), "late");
    assert_eq!(
        late.push("again".to_owned()).unwrap_err().into_inner(),
        "again"
    );

    // Works as a boxed error with `?`.
    fn push_boxed(p: &Producer<String>) -> Result<(), Box<dyn Error + Send + Sync>> {
        p.push("boxed".to_owned())?;
        Ok(())
    }
    let boxed = push_boxed(&late).unwrap_err();
    assert_eq!(
        boxed.to_string(),
        "the collection behind this producer was closed or dropped"
    );
}

#[test]
fn producers_push_from_other_threads_in_their_own_order() {
    let mut c = BufferedCollection::new();
    let n = if cfg!(miri) { 5 } else { 200 };
    std::thread::scope(|s| {
        for t in 0..3u32 {
            let p = c.producer();
            s.spawn(move || {
                for i in 0..n {
                    p.push((t, i)).unwrap();
                }
            });
        }
    });
    assert_eq!(c.pending_len(), 3 * n as usize);
    assert_eq!(c.commit(), 3 * n as usize);
    for t in 0..3 {
        let mine: Vec<u32> = c.iter().filter(|x| x.0 == t).map(|x| x.1).collect();
        assert_eq!(mine, (0..n).collect::<Vec<_>>(), "producer {t}");
    }
}

#[test]
fn clone_of_the_collection_has_its_own_producers() {
    let mut a: BufferedCollection<i32> = vec![1].into();
    let pa = a.producer();
    a.push(2);
    pa.push(3).unwrap();
    let mut b = a.clone();
    assert_eq!(b.as_slice(), [1]);
    assert_eq!(b.local_pending(), [2], "local pending is cloned");
    assert_eq!(b.pending_len(), 1, "the producer queue is not");
    let pb = b.producer();
    pb.push(4).unwrap();
    assert_eq!(a.commit(), 2);
    assert_eq!(b.commit(), 2);
    assert_eq!(a.as_slice(), [1, 2, 3]);
    assert_eq!(b.as_slice(), [1, 2, 4]);
    drop(a);
    assert!(pa.is_closed());
    assert!(!pb.is_closed());
}

// ---------------------------------------------------------------------------
// Auto-remove

#[test]
fn auto_remove_applies_to_committed_elements_only() {
    let log = DropLog::default();
    let mut c = BufferedCollection::with_auto_remove(|i: &Item<'_>| i.id >= 100);
    c.extend([log.item(1), log.item(100), log.item(2)]);
    assert_eq!(c.prune(), 0, "pending elements are not pruned");
    assert_eq!(ids(c.local_pending()), [1, 100, 2]);
    c.commit();
    assert_eq!(ids(&c), [1, 100, 2], "commit itself does not filter");

    let mut visited = Vec::new();
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        visited.push(e.id);
        if e.id == 1 {
            e.push(log.item(101)); // expired, but pending: kept until a traversal
            e.id = 200; // expires while held: removed when the cursor moves on
        }
    }
    drop(cursor);
    assert_eq!(visited, [1, 2], "100 is never yielded");
    assert_eq!(ids(&c), [2]);
    assert_eq!(ids(c.local_pending()), [101]);
    assert_eq!(log.dropped(), [100, 200]);

    c.commit();
    assert_eq!(ids(&c), [2, 101]);
    assert_eq!(c.prune(), 1);
    assert_eq!(ids(&c), [2]);
    assert_eq!(log.dropped(), [100, 101, 200]);
}

#[test]
fn removal_hook_receives_each_auto_removed_value() {
    let log = DropLog::default();
    let mut hooked = Vec::new();
    let mut c = BufferedCollection::with_auto_remove(|i: &Item<'_>| i.id % 10 == 0)
        .with_removal_hook(|i: Item<'_>| hooked.push(i));
    let p = c.producer(); // survives `with_removal_hook`
    c.extend([log.item(1), log.item(10), log.item(2)]);
    p.push(log.item(20)).unwrap();
    p.push(log.item(3)).unwrap();
    c.commit();
    assert_eq!(ids(&c), [1, 10, 2, 20, 3]);

    let mut visited = Vec::new();
    c.traverse(|mut e| {
        visited.push(e.id);
        if e.id == 3 {
            e.id = 30;
            e.push(log.item(40));
        }
    });
    assert_eq!(visited, [1, 2, 3]);
    assert_eq!(ids(&c), [1, 2]);
    assert_eq!(ids(c.local_pending()), [40]);
    c.commit();
    assert_eq!(c.prune(), 1);
    assert_eq!(ids(&c), [1, 2]);
    assert_eq!(log.dropped(), [] as [u32; 0], "the hook owns what it got");
    drop(c);
    assert_eq!(log.dropped(), [1, 2]);
    assert_eq!(ids(&hooked), [10, 20, 30, 40]);
    drop(hooked);
    assert_eq!(log.dropped(), [1, 2, 10, 20, 30, 40]);
}

// ---------------------------------------------------------------------------
// Closure traversal, prune, traits

#[test]
fn traverse_removes_mutates_and_pushes_to_pending() {
    let mut c: BufferedCollection<i32> = (1..=5).collect();
    let mut visited = Vec::new();
    c.traverse(|mut e| {
        visited.push(*e);
        if *e % 2 == 0 {
            let v = e.remove();
            assert!(v % 2 == 0);
        } else {
            *e *= 10;
            e.push(-*e);
        }
    });
    assert_eq!(visited, [1, 2, 3, 4, 5]);
    assert_eq!(c.as_slice(), [10, 30, 50]);
    assert_eq!(c.local_pending(), [-10, -30, -50]);
    c.commit();
    assert_eq!(c.as_slice(), [10, 30, 50, -10, -30, -50]);
}

#[test]
fn prune_returns_the_number_removed_and_keeps_order() {
    let mut c = BufferedCollection::with_auto_remove(|n: &i32| *n < 0);
    c.extend([3, -1, 4, -1, -5, 9]);
    c.commit();
    c.push(-2);
    assert_eq!(c.prune(), 3);
    assert_eq!(c.as_slice(), [3, 4, 9]);
    assert_eq!(c.local_pending(), [-2]);
    assert_eq!(c.prune(), 0);

    let mut plain: BufferedCollection<i32> = vec![-1, 1].into();
    assert_eq!(plain.prune(), 0, "no predicate: nothing removed");
    assert_eq!(plain.as_slice(), [-1, 1]);
}

#[test]
fn debug_shows_visible_pending_and_producer_pending() {
    let mut c: BufferedCollection<i32> = vec![1, 2].into();
    c.push(3);
    c.producer().push(4).unwrap();
    assert_eq!(
        format!("{c:?}"),
        "BufferedCollection { visible: [1, 2], local_pending: [3], producer_pending: 1 }"
    );
    c.commit();
    assert_eq!(
        format!("{c:?}"),
        "BufferedCollection { visible: [1, 2, 3, 4], local_pending: [], producer_pending: 0 }"
    );
    let mut cursor = c.cursor();
    cursor.next();
    assert_eq!(format!("{cursor:?}"), "Cursor { remaining: 3, len: 4, .. }");
}

#[test]
fn constructors_and_slice_access() {
    let c: BufferedCollection<u8> = BufferedCollection::default();
    assert_eq!((c.len(), c.pending_len()), (0, 0));
    let c: BufferedCollection<u8, NoAutoRemove> = BufferedCollection::with_capacity(16);
    assert!(c.capacity() >= 16);
    assert_eq!(*c.policy(), NoAutoRemove);

    let mut c: BufferedCollection<i32> = [1, 2, 3].into_iter().collect();
    assert_eq!(c.pending_len(), 0, "FromIterator fills the visible side");
    c.as_mut_slice()[0] = 10;
    c.iter_mut().for_each(|n| *n += 1);
    for n in &mut c {
        *n *= 2;
    }
    assert_eq!(c.as_slice(), [22, 6, 8]);
    assert_eq!(c.iter().copied().sum::<i32>(), 36);
    assert_eq!(c[1], 6, "Deref<Target = [T]>");
}

/// An element whose drop pushes a follow-up through a producer of the
/// same collection: the queue's locks must not be held while elements are
/// dropped (no deadlock), and nothing is lost or dropped twice.
struct Reentrant<'a> {
    id: u32,
    then: Option<Producer<Reentrant<'a>>>,
    log: &'a DropLog,
}

impl Drop for Reentrant<'_> {
    fn drop(&mut self) {
        self.log.0.lock().unwrap().push(self.id);
        if let Some(p) = self.then.take() {
            let child = Reentrant {
                id: self.id + 100,
                then: None,
                log: self.log,
            };
            // Refused after the collection's drop: the child comes back
            // and is dropped here.
            let _ = p.push(child);
        }
    }
}

#[test]
fn element_drops_may_push_through_a_producer() {
    let log = DropLog::default();
    let mut c = BufferedCollection::new();
    let p = c.producer();
    let item = |id: u32| Reentrant {
        id,
        then: Some(p.clone()),
        log: &log,
    };

    // Dropped by `clear_pending` (outside the lock): the child is queued.
    p.push(item(1)).unwrap();
    c.clear_pending();
    assert_eq!(log.dropped(), [1]);
    assert_eq!(c.pending_len(), 1);
    assert_eq!(c.commit(), 1);
    assert_eq!(c.iter().map(|r| r.id).collect::<Vec<_>>(), [101]);

    // Dropped by `clear_visible`: the child is queued.
    c.push(item(2));
    c.commit();
    c.clear_visible();
    assert_eq!(log.dropped(), [1, 2, 101]);
    assert_eq!(c.pending_len(), 1);

    // Dropped with the collection: visible (queue still open, child
    // queued and then dropped by the close) and queued (child refused).
    c.commit(); // [102]
    c.push(item(3));
    c.commit(); // [102, 3]
    p.push(item(4)).unwrap();
    drop(c);
    assert_eq!(log.dropped(), [1, 2, 3, 4, 101, 102, 103, 104]);
    assert!(p.is_closed());
}

// ---------------------------------------------------------------------------
// Event-queue API: close, producer count, waiting, bounds, batches, owned
// access

use std::thread;
use std::time::Duration;

use read_write_collection::{AutoRemove, CapacityError, TryPushError, WaitError, WaitTimeoutError};

mod common;
use common::panic_message;

#[test]
fn close_keeps_earlier_pushes_and_hands_later_ones_back() {
    let log = DropLog::default();
    let mut c = BufferedCollection::new();
    let p = c.producer();
    p.push(log.item(1)).unwrap();
    assert!(!c.is_closed());
    c.close();
    assert!(c.is_closed() && p.is_closed());
    let back = p.push(log.item(2)).unwrap_err().into_inner();
    assert_eq!(back.id, 2);
    match p.try_push(log.item(3)) {
        Err(TryPushError::Closed(item)) => assert_eq!(item.id, 3),
        other => panic!("expected Closed, got {other:?}"),
    }
    assert_eq!(log.dropped(), [3], "only the value the test dropped itself");
    c.push(log.item(4)); // the collection's own pushes still work
    c.close(); // twice: harmless
    assert_eq!(c.pending_len(), 2);
    assert_eq!(c.commit(), 2);
    assert_eq!(ids(&c), [4, 1], "local pending first, then the queue");
    let late = c.producer();
    assert!(late.is_closed(), "a producer made after close is closed");
    drop(back);
    drop(c);
    assert_eq!(log.dropped(), [1, 2, 3, 4]);
}

#[test]
fn producer_count_follows_clones_and_drops() {
    let c: BufferedCollection<u8> = BufferedCollection::new();
    assert_eq!(c.producer_count(), 0);
    let p = c.producer();
    let q = p.clone();
    let r = c.producer();
    assert_eq!(c.producer_count(), 3);
    drop(q);
    assert_eq!(c.producer_count(), 2);
    thread::spawn(move || drop(p)).join().unwrap();
    assert_eq!(c.producer_count(), 1);
    drop(r);
    assert_eq!(c.producer_count(), 0);
}

#[test]
fn wait_pending_answers_at_once_when_it_can() {
    let mut c: BufferedCollection<u8> = BufferedCollection::new();
    assert_eq!(
        c.wait_pending(),
        Err(WaitError::Disconnected),
        "no producer: nothing can arrive"
    );
    c.push(1);
    assert_eq!(c.wait_pending(), Ok(()), "local pending counts");
    c.commit();
    let p = c.producer();
    assert_eq!(
        c.wait_pending_timeout(Duration::from_millis(5)),
        Err(WaitTimeoutError::Timeout),
        "timed out, a producer is alive"
    );
    p.push(2).unwrap();
    assert_eq!(c.wait_pending(), Ok(()));
    // A timeout too large for `Instant` means "no deadline", not a panic.
    assert_eq!(c.wait_pending_timeout(Duration::MAX), Ok(()));
    assert_eq!(c.wait_pending_timeout(Duration::ZERO), Ok(()));
    c.close();
    assert_eq!(
        c.wait_pending(),
        Ok(()),
        "closed, but a push made before close is pending"
    );
    assert_eq!(
        c.wait_pending_timeout(Duration::ZERO),
        Ok(()),
        "not disconnected while anything is left to commit"
    );
    c.commit();
    assert_eq!(
        c.wait_pending(),
        Err(WaitError::Disconnected),
        "closed and drained"
    );
    assert_eq!(
        c.wait_pending_timeout(Duration::from_secs(3600)),
        Err(WaitTimeoutError::Disconnected),
        "closed and drained: at once, not after the timeout"
    );
    assert_eq!(c.as_slice(), [1, 2]);
}

#[test]
fn wait_pending_wakes_on_a_push_and_on_the_last_producer_leaving() {
    let mut c: BufferedCollection<u32> = BufferedCollection::new();
    let p = c.producer();
    let q = p.clone();
    let (go_tx, go_rx) = std::sync::mpsc::channel::<()>();
    let worker = thread::spawn(move || {
        go_rx.recv().unwrap();
        p.push(7).unwrap();
        go_rx.recv().unwrap();
        drop(p);
        drop(q);
    });
    go_tx.send(()).unwrap();
    assert_eq!(c.wait_pending(), Ok(()));
    assert_eq!(c.commit(), 1);
    go_tx.send(()).unwrap();
    assert_eq!(
        c.wait_pending(),
        Err(WaitError::Disconnected),
        "the last producer left"
    );
    worker.join().unwrap();
    assert_eq!(c.producer_count(), 0);
    assert_eq!(c.as_slice(), [7]);
}

#[test]
fn bounded_counts_visible_local_and_producer_pending() {
    let mut c = BufferedCollection::bounded(3);
    assert_eq!(c.max_len(), Some(3));
    let p = c.producer();
    c.push(1);
    c.commit();
    c.try_push(2).unwrap();
    p.try_push(3).unwrap();
    assert_eq!(c.try_push(4), Err(CapacityError::new_for_test(4)));
    assert_eq!(p.try_push(5), Err(TryPushError::Full(5)));
    let mut batch = vec![6, 7];
    assert_eq!(p.try_push_batch(&mut batch), Err(TryPushError::Full(())));
    assert_eq!(batch, [6, 7], "nothing fitted");
    let err = catch_unwind(AssertUnwindSafe(|| c.push(8))).unwrap_err();
    assert!(panic_message(&*err).contains("full bounded collection"));

    // A commit moves pending to visible: still full.
    assert_eq!(c.commit(), 2);
    assert_eq!(p.try_push(9), Err(TryPushError::Full(9)));
    // Removing frees room; `traverse` hands it to the producers at once.
    c.traverse(|e| {
        if *e == 1 {
            e.remove();
        }
    });
    assert_eq!(p.try_push(10), Ok(()));
    assert_eq!(c.try_push(11).unwrap_err().into_inner(), 11);
    c.clear_visible();
    assert_eq!(p.try_push_batch(&mut batch), Ok(()));
    assert!(batch.is_empty());
    assert_eq!(c.pending_len(), 3);
    c.commit();
    assert_eq!(c.as_slice(), [10, 6, 7]);
    c.clear_pending(); // nothing pending: still full
    assert!(p.try_push(12).is_err());
    c.clear();
    assert_eq!(p.try_push(12), Ok(()));
}

/// A `cursor()` pass that empties a full bounded queue hands the room
/// back when the cursor is dropped, as `traverse` does: an empty queue
/// takes a push at once, without waiting for the next `commit`. The room
/// the pass kept for its own pushes comes back too.
#[test]
fn a_dropped_cursor_hands_the_room_back_to_producers() {
    let mut c = BufferedCollection::bounded(4);
    let p = c.producer();
    for i in 0..4 {
        p.try_push(i).unwrap();
    }
    c.commit();
    assert_eq!(p.try_push(9), Err(TryPushError::Full(9)));
    let mut cursor = c.cursor();
    while let Some(e) = cursor.next() {
        e.remove();
    }
    drop(cursor);
    assert_eq!((c.len(), c.pending_len()), (0, 0));
    for i in 0..4 {
        assert_eq!(p.try_push(i), Ok(()), "push {i} into an empty bounded(4)");
    }
    assert_eq!(p.try_push(4), Err(TryPushError::Full(4)));

    // A pass that removes nothing keeps nothing either: its own pushes
    // took what they used, the rest goes back.
    c.commit();
    let mut cursor = c.cursor();
    let e = cursor.next().unwrap();
    e.remove();
    cursor.next().unwrap().push(10); // pending, takes the freed unit
    drop(cursor);
    assert_eq!(p.try_push(11), Err(TryPushError::Full(11)));
    c.commit();
    assert_eq!(c.as_slice(), [1, 2, 3, 10]);

    // The same for a sink cursor, and when the pass ends early.
    let mut sunk = Vec::new();
    let mut cursor = c.cursor_with_sink(|v| sunk.push(v));
    cursor.next().unwrap().remove_to_sink();
    cursor.next().unwrap().remove_to_sink();
    drop(cursor);
    assert_eq!(sunk, [1, 2]);
    assert_eq!(p.try_push(20), Ok(()));
    assert_eq!(p.try_push(21), Ok(()));
    assert_eq!(p.try_push(22), Err(TryPushError::Full(22)));
}

/// Bounds `c` to two elements and fills it with `[1, 2]` through a new
/// producer, which it returns.
fn full_of_two<A: AutoRemove<i32>>(c: &mut BufferedCollection<i32, A>) -> Producer<i32> {
    c.set_max_len(Some(2));
    let p = c.producer();
    p.try_push(1).unwrap();
    p.try_push(2).unwrap();
    c.commit();
    p
}

/// A cursor dropped while unwinding hands the room back too.
#[test]
fn a_cursor_dropped_by_a_panic_hands_the_room_back() {
    let mut c = BufferedCollection::new();
    let p = full_of_two(&mut c);
    let err = catch_unwind(AssertUnwindSafe(|| {
        let mut cursor = c.cursor();
        cursor.next().unwrap().remove();
        panic!("user code");
    }))
    .unwrap_err();
    assert_eq!(panic_message(&*err), "user code");
    assert_eq!(c.as_slice(), [2]);
    assert_eq!(p.try_push(3), Ok(()));
    assert_eq!(p.try_push(4), Err(TryPushError::Full(4)));
}

/// The count a dropped cursor hands back is taken once the pass has
/// finished: an element the auto-remove predicate removes as the cursor
/// is dropped holding it frees its room at once too, and a predicate that
/// panics there still leaves the room handed back.
#[test]
fn a_cursor_dropped_holding_an_expired_element_hands_its_room_back() {
    let mut c = BufferedCollection::with_auto_remove(|v: &i32| *v < 0);
    let p = full_of_two(&mut c);
    let mut cursor = c.cursor();
    *cursor.next().unwrap() = -1; // expires while held
    drop(cursor);
    assert_eq!(c.as_slice(), [2]);
    assert_eq!(p.try_push(3), Ok(()), "the expired element's room");
    assert_eq!(p.try_push(4), Err(TryPushError::Full(4)));

    let mut c = BufferedCollection::with_auto_remove(|v: &i32| {
        assert!(*v != 7, "predicate fails");
        false
    });
    let p = full_of_two(&mut c);
    let err = catch_unwind(AssertUnwindSafe(|| {
        let mut cursor = c.cursor();
        cursor.next().unwrap().remove();
        *cursor.next().unwrap() = 7; // the predicate panics on it at the drop
        drop(cursor);
    }))
    .unwrap_err();
    assert_eq!(panic_message(&*err), "predicate fails");
    assert_eq!(c.as_slice(), [7], "the held element is kept");
    assert_eq!(p.try_push(3), Ok(()), "the removed element's room");
    assert_eq!(p.try_push(4), Err(TryPushError::Full(4)));
}

/// `CapacityError` has no public constructor; compare through `into_inner`.
trait NewForTest<T> {
    fn new_for_test(value: T) -> Self;
}

impl<T> NewForTest<T> for CapacityError<T> {
    fn new_for_test(value: T) -> Self {
        let mut c = BufferedCollection::bounded(0);
        c.try_push(value).unwrap_err()
    }
}

#[test]
fn extend_on_a_bounded_collection_stops_at_the_bound() {
    let mut c = BufferedCollection::bounded(2);
    let err = catch_unwind(AssertUnwindSafe(|| c.extend([1, 2, 3]))).unwrap_err();
    assert!(panic_message(&*err).contains("full bounded collection"));
    assert_eq!(c.local_pending(), [1, 2], "the elements pushed so far stay");
}

#[test]
fn set_max_len_bounds_and_unbounds() {
    let mut c = BufferedCollection::with_auto_remove(|n: &u8| *n == 0);
    let p = c.producer();
    c.push(1);
    p.push(2).unwrap();
    let err = catch_unwind(AssertUnwindSafe(|| c.set_max_len(Some(1)))).unwrap_err();
    assert!(panic_message(&*err).contains("more than the new maximum length"));
    assert_eq!(c.max_len(), None);
    c.set_max_len(Some(2));
    assert_eq!(c.max_len(), Some(2));
    assert_eq!(p.try_push(3), Err(TryPushError::Full(3)));
    c.set_max_len(None);
    assert_eq!(p.try_push(3), Ok(()));
    assert_eq!(c.commit(), 3);
}

#[test]
fn a_blocked_producer_push_waits_for_room() {
    let mut c = BufferedCollection::bounded(1);
    let p = c.producer();
    p.push(1).unwrap();
    thread::scope(|s| {
        let p = &p;
        let blocked = s.spawn(move || p.push(2));
        // The producer cannot have pushed: the collection is full.
        assert!(c.wait_pending_timeout(Duration::from_millis(20)).is_err() || c.pending_len() == 1);
        assert_eq!(c.commit(), 1);
        // Still full: once the producer is blocked, only this collection
        // can free room, so the wait says `Full` at once (`Timeout` if the
        // producer has not reached its push within the 20 ms).
        let still_full = c.wait_pending_timeout(Duration::from_millis(20));
        assert!(
            matches!(
                still_full,
                Err(WaitTimeoutError::Full | WaitTimeoutError::Timeout)
            ),
            "still full: {still_full:?}"
        );
        // A traversal through a plain cursor frees the room; `wait_pending`
        // hands it over before it sleeps (else this would deadlock).
        let mut cursor = c.cursor();
        while let Some(e) = cursor.next() {
            assert_eq!(e.remove(), 1);
        }
        drop(cursor);
        assert_eq!(c.wait_pending(), Ok(()));
        blocked.join().unwrap().unwrap();
    });
    assert_eq!(c.commit(), 1);
    assert_eq!(c.as_slice(), [2]);
}

#[test]
fn close_wakes_a_blocked_producer_with_its_value() {
    let mut c = BufferedCollection::bounded(1);
    let p = c.producer();
    p.push(1).unwrap();
    thread::scope(|s| {
        let p = &p;
        let blocked = s.spawn(move || p.push(2));
        let batch = s.spawn(move || {
            let mut batch = vec![3, 4];
            let result = p.push_batch(&mut batch);
            (result.is_err(), batch)
        });
        thread::sleep(Duration::from_millis(if cfg!(miri) { 1 } else { 20 }));
        c.close();
        assert_eq!(blocked.join().unwrap().unwrap_err().into_inner(), 2);
        assert_eq!(batch.join().unwrap(), (true, vec![3, 4]));
    });
    assert_eq!(c.commit(), 1);
    assert_eq!(c.as_slice(), [1]);
}

#[test]
fn a_traversal_keeps_the_free_room_for_its_own_pushes() {
    let mut c = BufferedCollection::bounded(4);
    let p = c.producer();
    c.push(0);
    c.commit();
    p.push(1).unwrap(); // queued: the traversal may push 4 - 1 - 1 = 2
    let mut cursor = c.cursor();
    let mut e = cursor.next().unwrap();
    assert_eq!(
        p.try_push(9),
        Err(TryPushError::Full(9)),
        "reserved for the pass"
    );
    e.try_push(10).unwrap();
    e.try_push(11).unwrap();
    assert_eq!(e.try_push(12).unwrap_err().into_inner(), 12);
    drop(cursor);
    assert_eq!(c.pending_len(), 3);
    assert_eq!(c.len() + c.pending_len(), 4);
    c.clear_visible(); // synchronises: one free slot for producers
    assert_eq!(p.try_push(13), Ok(()));
    assert_eq!(p.try_push(14), Err(TryPushError::Full(14)));
    c.commit();
    assert_eq!(c.as_slice(), [10, 11, 1, 13]);
}

#[test]
fn batch_pushes_keep_order_and_hand_back_the_rest() {
    let mut c = BufferedCollection::bounded(5);
    let p = c.producer();
    let mut empty: Vec<u32> = Vec::new();
    assert_eq!(p.try_push_batch(&mut empty), Ok(()));
    assert_eq!(p.push_batch(&mut empty), Ok(()));
    let mut batch = Vec::with_capacity(16);
    batch.extend([1, 2]);
    p.try_push_batch(&mut batch).unwrap(); // into the empty queue: swapped
    assert!(batch.is_empty());
    batch.extend([3, 4, 5, 6]);
    assert_eq!(p.try_push_batch(&mut batch), Err(TryPushError::Full(())));
    assert_eq!(batch, [6]);
    c.commit();
    c.traverse(|e| {
        e.remove();
    });
    p.push_batch(&mut batch).unwrap();
    assert!(batch.is_empty());
    c.commit();
    assert_eq!(c.as_slice(), [6]);
    c.clear_visible();

    // A batch larger than the bound goes in as room is freed.
    let mut big: Vec<u32> = (100..112).collect();
    let mut handled = Vec::new();
    thread::scope(|s| {
        let p = &p;
        let pusher = s.spawn(move || {
            p.push_batch(&mut big).unwrap();
            big
        });
        while handled.len() < 12 {
            if c.wait_pending().is_ok() {
                c.commit();
            }
            c.traverse(|e| handled.push(e.remove()));
        }
        assert!(pusher.join().unwrap().is_empty());
    });
    assert_eq!(handled, (100..112).collect::<Vec<_>>());
    c.close();
    let mut rest = vec![1, 2];
    assert_eq!(p.try_push_batch(&mut rest), Err(TryPushError::Closed(())));
    assert!(p.push_batch(&mut rest).is_err());
    assert_eq!(rest, [1, 2]);
}

#[test]
fn into_parts_into_vec_and_into_iter_lose_nothing() {
    let log = DropLog::default();
    let mut c = BufferedCollection::new();
    let p = c.producer();
    c.push(log.item(1));
    c.commit();
    c.push(log.item(2));
    p.push(log.item(3)).unwrap();
    let (visible, pending) = c.into_parts();
    assert_eq!((ids(&visible), ids(&pending)), (vec![1], vec![2, 3]));
    assert!(p.is_closed());
    assert_eq!(p.push(log.item(4)).unwrap_err().into_inner().id, 4);
    assert_eq!(log.dropped(), [4]);
    drop((visible, pending));
    assert_eq!(log.dropped(), [1, 2, 3, 4]);

    let mut c: BufferedCollection<u32> = vec![1, 2].into();
    let p = c.producer();
    c.push(3);
    p.push(4).unwrap();
    assert_eq!(
        c.clone().into_vec(),
        [1, 2, 3],
        "a clone has no producer pushes"
    );
    let mut all = Vec::new();
    for n in c {
        all.push(n);
    }
    assert_eq!(all, [1, 2, 3, 4]);
}

/// A value for the zero-sized tests: `[(); usize::MAX]` costs nothing.
fn units(n: usize) -> Vec<()> {
    assert_eq!(n, usize::MAX, "only the full length is free to make");
    let all: Box<[(); usize::MAX]> = Box::new([(); usize::MAX]);
    (all as Box<[()]>).into_vec()
}

/// A commit whose visible buffer cannot grow for the producers' items
/// (zero-sized elements at `usize::MAX`) panics with "capacity overflow"
/// and leaves every item queued, in order: nothing is stranded, and later
/// commits work.
#[test]
fn a_commit_that_overflows_leaves_the_producers_items_queued() {
    let mut visible = units(usize::MAX);
    visible.pop();
    let mut c: BufferedCollection<()> = visible.into();
    assert_eq!(c.len(), usize::MAX - 1);
    let p = c.producer();
    p.push(()).unwrap();
    p.push(()).unwrap();
    let err = catch_unwind(AssertUnwindSafe(|| c.commit())).unwrap_err();
    assert_eq!(panic_message(&*err), "capacity overflow");
    assert_eq!(c.len(), usize::MAX - 1);
    assert_eq!(c.pending_len(), 2, "both items still queued");
    // Once there is room, the next commits take them, and later ones.
    c.clear_visible();
    p.push(()).unwrap();
    assert_eq!(c.commit(), 3);
    p.push(()).unwrap();
    assert_eq!(c.commit(), 1);
    assert_eq!(c.len(), 4);
}

/// The same across two producer handles, in arrival order: there is room
/// for the first handle's item but not for the second's, and the commit
/// takes neither (the second's may have arrived first: committing the
/// first alone could put it ahead). Per producer, the first handle's item
/// is appended and the second's stays queued; either way nothing is
/// counted twice.
#[test]
fn a_commit_that_overflows_midway_through_the_handles_keeps_the_rest_queued() {
    for order in [ProducerOrder::Arrival, ProducerOrder::PerProducer] {
        let mut visible = units(usize::MAX);
        visible.pop();
        let mut c: BufferedCollection<()> = visible.into();
        c.set_producer_order(order);
        let p = c.producer();
        let q = c.producer();
        q.push(()).unwrap();
        p.push(()).unwrap();
        let err = catch_unwind(AssertUnwindSafe(|| c.commit())).unwrap_err();
        assert_eq!(panic_message(&*err), "capacity overflow");
        let taken = usize::from(order == ProducerOrder::PerProducer);
        assert_eq!(c.len(), usize::MAX - 1 + taken, "{order:?}");
        assert_eq!(c.pending_len(), 2 - taken, "{order:?}");
        c.clear_visible();
        assert_eq!(c.commit(), 2 - taken);
        assert_eq!(c.len(), 2 - taken);
    }
}

/// Overflowing pushes of zero-sized elements say "capacity overflow", not
/// "full bounded collection": unbounded collections are never full.
#[test]
fn zero_sized_overflow_is_reported_as_capacity_overflow() {
    // The producers' queue at `usize::MAX` elements.
    let c: BufferedCollection<()> = BufferedCollection::new();
    let p = c.producer();
    let mut all = units(usize::MAX);
    p.push_batch(&mut all).unwrap();
    assert_eq!(c.pending_len(), usize::MAX);
    for attempt in 0..3 {
        let err = catch_unwind(AssertUnwindSafe(|| match attempt {
            0 => drop(p.push(())),
            1 => drop(p.try_push(())),
            _ => drop(p.try_push_batch(&mut vec![()])),
        }))
        .unwrap_err();
        assert_eq!(
            panic_message(&*err),
            "capacity overflow",
            "attempt {attempt}"
        );
    }
    assert_eq!(c.pending_len(), usize::MAX, "nothing lost, nothing added");

    // The local pending buffer at `usize::MAX` elements.
    let mut c: BufferedCollection<()> = BufferedCollection::new();
    c.extend(units(usize::MAX));
    let err = catch_unwind(AssertUnwindSafe(|| c.push(()))).unwrap_err();
    assert_eq!(panic_message(&*err), "capacity overflow");
    let err = catch_unwind(AssertUnwindSafe(|| c.try_push(()).unwrap())).unwrap_err();
    assert_eq!(panic_message(&*err), "capacity overflow");

    // Visible + local pending past `usize::MAX` at commit.
    let mut c: BufferedCollection<()> = units(usize::MAX).into();
    c.push(());
    let err = catch_unwind(AssertUnwindSafe(|| c.commit())).unwrap_err();
    assert_eq!(panic_message(&*err), "capacity overflow");
    assert_eq!((c.len(), c.pending_len()), (usize::MAX, 1));
}

#[test]
fn a_bounded_queue_made_without_producers_tells_the_first_one_its_count() {
    let mut c = BufferedCollection::bounded(2);
    c.push(1);
    c.commit();
    c.push(2);
    assert_eq!(c.try_push(3).unwrap_err().into_inner(), 3);
    let p = c.producer(); // learns that the queue is full
    assert_eq!(p.try_push(4), Err(TryPushError::Full(4)));
    c.traverse(|e| {
        e.remove();
    });
    assert_eq!(p.try_push(5), Ok(()));
    assert_eq!(c.try_push(6).unwrap_err().into_inner(), 6);
    c.commit();
    assert_eq!(c.as_slice(), [2, 5]);
}

/// A pass that removes from a full bounded collection and then panics
/// frees the room for a blocked producer at once, as a completed pass does
/// (no `commit` or `wait_pending` needed); so does a completed
/// `traverse_with_sink`.
#[test]
fn a_panicking_pass_frees_room_like_a_completed_one() {
    use std::sync::mpsc;

    for how in ["panic", "sink"] {
        let mut c = BufferedCollection::bounded(1);
        c.push(0u8);
        c.commit();
        let p = c.producer();
        let (done, pushed) = mpsc::channel();
        let blocked = thread::spawn(move || {
            let result = p.push(1);
            done.send(()).unwrap();
            result
        });
        // Give the producer time to block on the full collection (if it
        // has not yet, it finds the room when it gets there: same result).
        thread::sleep(Duration::from_millis(20));
        if how == "panic" {
            let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                c.traverse(|e| {
                    e.remove();
                    panic!("user code fails after the removal");
                })
            }));
            assert!(unwound.is_err());
        } else {
            let mut sunk = Vec::new();
            c.traverse_with_sink(|n| sunk.push(n), |e| e.remove_to_sink());
            assert_eq!(sunk, [0]);
        }
        assert!(c.is_empty());
        assert_eq!(
            pushed.recv_timeout(Duration::from_secs(10)),
            Ok(()),
            "{how}: the blocked producer did not get the freed room"
        );
        blocked.join().unwrap().unwrap();
        assert_eq!(c.commit(), 1);
        assert_eq!(c.as_slice(), [1]);
    }
}

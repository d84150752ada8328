//! Behaviour tests for `BufferedCollection` and its `Producer`s: what is
//! visible when, the order `commit` appends in, every way a traversal can
//! end, drop counts, and the producers' closed state.
#![cfg(not(loom))]

use std::error::Error;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

use read_write_collection::{BufferedCollection, NoAutoRemove, Producer, ProducerClosed};

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
    assert_eq!(c.pending(), [1, 2, 3], "local pending, in push order");
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
    assert_eq!(c.pending(), [] as [i32; 0]);
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
    assert_eq!(c.pending(), [10, 20, 21, 30]);
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
        after.push((queue.to_vec(), queue.pending().to_vec()));
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

#[test]
fn commit_appends_local_pending_then_producer_pushes_in_queue_order() {
    let mut c: BufferedCollection<i32> = vec![0].into();
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
    assert_eq!(c.pending(), [1, 2, 3]);
    assert_eq!(c.pending_len(), 8);

    assert_eq!(c.commit(), 8);
    // Visible first, then local pending in push order, then the producers'
    // pushes in the order they reached the queue.
    assert_eq!(c.as_slice(), [0, 1, 2, 3, 10, 20, 11, 30, 21]);
    assert_eq!(c.pending_len(), 0);

    // The queue is reused: the next commit takes only what came after.
    p3.push(31).unwrap();
    c.push(4);
    p1.push(12).unwrap();
    assert_eq!(c.commit(), 3);
    assert_eq!(c.as_slice(), [0, 1, 2, 3, 10, 20, 11, 30, 21, 4, 31, 12]);
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
    assert_eq!(ids(c.pending()), [30, 40]);
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
    assert_eq!(ids(c.pending()), [50, 20]);
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
    assert_eq!(ids(c.pending()), [10, 30]);
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
    assert_eq!(ids(c.pending()), [2]);
    assert_eq!(log.dropped(), [0, 1]);
    assert_eq!(c.commit(), 2);
    assert_eq!(ids(&c), [2, 3]);

    c.clear();
    fill(&mut c, &p, &log, 10);
    c.clear_pending();
    assert_eq!((c.len(), c.pending_len()), (2, 0));
    assert_eq!(ids(&c), [10, 11]);
    assert_eq!(ids(c.pending()), [] as [u32; 0]);
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
    assert_eq!(b.pending(), [2], "local pending is cloned");
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
    assert_eq!(ids(c.pending()), [1, 100, 2]);
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
    assert_eq!(ids(c.pending()), [101]);
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
    assert_eq!(ids(c.pending()), [40]);
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
    assert_eq!(c.pending(), [-10, -30, -50]);
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
    assert_eq!(c.pending(), [-2]);
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
        "BufferedCollection { visible: [1, 2], pending: [3], producer_pending: 1 }"
    );
    c.commit();
    assert_eq!(
        format!("{c:?}"),
        "BufferedCollection { visible: [1, 2, 3, 4], pending: [], producer_pending: 0 }"
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

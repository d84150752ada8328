//! Auto-remove predicates and removal hooks: when they run, what they
//! receive, and what a panic in them (or around them) leaves behind.

mod common;

use std::cell::{Cell, RefCell};

use common::{expect_panic, ids, vals, Elem, Tracker};
use read_write_collection::{AutoRemove, BufferedCollection, Mode, ReadWriteCollection};

/// Instrumentation shared by a test's predicate and hook.
#[derive(Default)]
struct Probe {
    /// Predicate calls so far.
    calls: Cell<usize>,
    /// The predicate panics on an element with this value.
    pred_panics_on: Cell<Option<i64>>,
    /// The hook panics on the element with this id (after logging it).
    hook_panics_on: Cell<Option<u32>>,
    /// (id, value) of every element the hook received, in order.
    log: RefCell<Vec<(u32, i64)>>,
}

impl Probe {
    fn log_ids(&self) -> Vec<u32> {
        self.log.borrow().iter().map(|&(id, _)| id).collect()
    }
}

/// A collection whose predicate is "the element's flag is set", with a
/// hook that logs into `p`.
fn coll(p: &Probe) -> ReadWriteCollection<Elem, impl AutoRemove<Elem> + '_> {
    ReadWriteCollection::with_auto_remove(move |e: &Elem| {
        p.calls.set(p.calls.get() + 1);
        if Some(e.val) == p.pred_panics_on.get() {
            panic!("predicate panicked on {}", e.val);
        }
        e.flag
    })
    .with_removal_hook(move |e: Elem| {
        p.log.borrow_mut().push((e.id(), e.val));
        if Some(e.id()) == p.hook_panics_on.get() {
            panic!("hook panicked on #{}", e.id());
        }
    })
}

/// `coll(p)` in unordered mode, holding `elems(t, n, flagged)`.
fn unordered_coll<'p>(
    t: &Tracker,
    p: &'p Probe,
    n: i64,
    flagged: impl Fn(i64) -> bool,
) -> ReadWriteCollection<Elem, impl AutoRemove<Elem> + 'p> {
    let mut c = coll(p);
    c.set_mode(Mode::Unordered);
    c.extend(elems(t, n, flagged));
    c
}

/// Elements with values `0..n`, flagged where `flagged(v)`.
fn elems(t: &Tracker, n: i64, flagged: impl Fn(i64) -> bool) -> Vec<Elem> {
    (0..n)
        .map(|v| {
            let e = t.elem(v);
            if flagged(v) {
                e.flagged()
            } else {
                e
            }
        })
        .collect()
}

#[test]
fn the_fixed_entry_point_compiles_as_written() {
    struct Event {
        expired: bool,
        n: u32,
    }
    let mut events = ReadWriteCollection::with_auto_remove(|e: &Event| e.expired);
    events.push(Event {
        expired: false,
        n: 1,
    });
    events.push(Event {
        expired: true,
        n: 2,
    });
    let mut seen = Vec::new();
    events.traverse(|e| seen.push(e.n));
    assert_eq!(seen, [1]);
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].n, 1);
}

#[test]
fn expired_when_reached_is_never_yielded() {
    let t = Tracker::new();
    let p = Probe::default();
    let mut c = coll(&p);
    c.extend(elems(&t, 5, |v| v == 1 || v >= 3));
    let mut visited = Vec::new();
    let mut cursor = c.cursor();
    while let Some(e) = cursor.next() {
        assert!(!e.flag, "an expired element was yielded");
        visited.push(e.id());
    }
    drop(cursor);
    assert_eq!(visited, [0, 2]);
    assert_eq!(p.log_ids(), [1, 3, 4]);
    assert_eq!(ids(&c), [0, 2]);
    t.assert_live_exactly(&[0, 2]);
}

#[test]
fn expiring_while_held_is_removed_at_the_next_call() {
    let t = Tracker::new();
    let p = Probe::default();
    let mut c = coll(&p);
    c.extend(elems(&t, 3, |_| false));
    let mut cursor = c.cursor();
    let mut e = cursor.next().unwrap();
    e.flag = true;
    e.val = 10;
    assert!(p.log.borrow().is_empty(), "not removed while held");
    assert_eq!(t.drops(0), 0);
    let e = cursor.next().unwrap();
    assert_eq!(e.id(), 1);
    assert_eq!(
        *p.log.borrow(),
        [(0, 10)],
        "removed when the cursor moved on"
    );
    assert_eq!(t.drops(0), 1);
    let mut e = cursor.next().unwrap();
    e.flag = true;
    assert!(cursor.next().is_none());
    assert_eq!(
        p.log_ids(),
        [0, 2],
        "the last one is removed by the final next()"
    );
    drop(cursor);
    assert_eq!(ids(&c), [1]);
    t.assert_live_exactly(&[1]);
}

#[test]
fn expiring_while_held_is_removed_at_completion() {
    let t = Tracker::new();
    let p = Probe::default();
    let mut c = coll(&p);
    c.extend(elems(&t, 4, |_| false));

    // `break`: the cursor's drop settles the held element.
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        if e.id() == 1 {
            e.flag = true;
            break;
        }
    }
    drop(cursor);
    assert_eq!(p.log_ids(), [1]);
    assert_eq!(ids(&c), [0, 2, 3]);

    // `finish`.
    let mut cursor = c.cursor();
    cursor.next().unwrap().flag = true;
    cursor.finish();
    assert_eq!(p.log_ids(), [1, 0]);
    assert_eq!(ids(&c), [2, 3]);

    // A helper that returns early.
    fn expire_first(c: &mut ReadWriteCollection<Elem, impl AutoRemove<Elem>>) -> Option<u32> {
        let mut cursor = c.cursor();
        let mut e = cursor.next()?;
        e.flag = true;
        Some(e.id())
    }
    assert_eq!(expire_first(&mut c), Some(2));
    assert_eq!(p.log_ids(), [1, 0, 2]);
    assert_eq!(ids(&c), [3]);
    t.assert_live_exactly(&[3]);
}

#[test]
fn pushed_elements_are_subject_to_the_predicate() {
    let t = Tracker::new();
    let p = Probe::default();
    let mut c = coll(&p);
    c.push(t.elem(0));
    let mut visited = Vec::new();
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        visited.push(e.id());
        match e.id() {
            0 => {
                e.push(t.elem(1).flagged());
                e.push(t.elem(2));
                e.push(t.elem(3).flagged());
            }
            2 => e.flag = true,
            _ => {}
        }
    }
    drop(cursor);
    assert_eq!(visited, [0, 2]);
    assert_eq!(p.log_ids(), [1, 2, 3]);
    assert_eq!(ids(&c), [0]);
    t.assert_live_exactly(&[0]);
}

#[test]
fn hook_receives_every_auto_removed_value_in_order() {
    let t = Tracker::new();
    let p = Probe::default();
    let mut c = coll(&p);
    c.extend(elems(&t, 20, |v| v % 5 == 0));
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        if e.val == 7 {
            e.push(t.elem(20).flagged());
            e.push(t.elem(21));
        } else if e.val % 3 == 0 {
            e.flag = true;
            e.val += 100;
        }
    }
    drop(cursor);
    assert_eq!(
        *p.log.borrow(),
        [
            (0, 0),
            (3, 103),
            (5, 5),
            (6, 106),
            (9, 109),
            (10, 10),
            (12, 112),
            (15, 15),
            (18, 118),
            (20, 20),
            (21, 121)
        ]
    );
    assert_eq!(vals(&c), [1, 2, 4, 7, 8, 11, 13, 14, 16, 17, 19]);
    t.assert_live_exactly(&ids(&c));
    drop(c);
    t.assert_all_dropped_once();
}

#[test]
fn predicate_panicking_when_reached_leaves_the_element() {
    let t = Tracker::new();
    let p = Probe::default();
    let mut c = coll(&p);
    c.extend(elems(&t, 4, |v| v == 1));
    p.pred_panics_on.set(Some(2));
    let msg = expect_panic(|| {
        let mut cursor = c.cursor();
        while let Some(e) = cursor.next() {
            if e.val == 0 {
                drop(e.remove());
            }
        }
    });
    assert_eq!(msg, "predicate panicked on 2");
    assert_eq!(ids(&c), [2, 3], "2 stays in place, 3 unvisited");
    assert_eq!(p.log_ids(), [1]);
    t.assert_live_exactly(&[2, 3]);
    p.pred_panics_on.set(None);
    let mut visited = Vec::new();
    c.traverse(|e| visited.push(e.id()));
    assert_eq!(visited, [2, 3]);
}

#[test]
fn predicate_panicking_on_the_held_element_leaves_it() {
    let t = Tracker::new();
    let p = Probe::default();
    let mut c = coll(&p);
    c.extend(elems(&t, 4, |_| false));
    p.pred_panics_on.set(Some(50));
    // At `next()`.
    let msg = expect_panic(|| {
        let mut cursor = c.cursor();
        while let Some(mut e) = cursor.next() {
            if e.id() == 1 {
                e.val = 50;
                e.flag = true; // expired, but the predicate panics first
            }
        }
    });
    assert_eq!(msg, "predicate panicked on 50");
    assert_eq!(vals(&c), [0, 50, 2, 3]);
    t.assert_live_exactly(&[0, 1, 2, 3]);
    // Defused, 1 is still flagged: removed when reached. Then the held 2
    // makes the predicate panic when the cursor's drop settles it.
    c[1].val = 1;
    let msg = expect_panic(|| {
        let mut cursor = c.cursor();
        while let Some(mut e) = cursor.next() {
            if e.id() == 2 {
                e.val = 50;
                break;
            }
        }
    });
    assert_eq!(msg, "predicate panicked on 50");
    assert_eq!(*p.log.borrow(), [(1, 1)]);
    assert_eq!(vals(&c), [0, 50, 3]);
    t.assert_live_exactly(&[0, 2, 3]);
}

#[test]
fn predicate_panicking_in_the_cursors_drop_leaves_the_element() {
    let t = Tracker::new();
    let p = Probe::default();
    let mut c = coll(&p);
    c.extend(elems(&t, 4, |_| false));
    p.pred_panics_on.set(Some(50));
    let msg = expect_panic(|| {
        let mut cursor = c.cursor();
        while let Some(mut e) = cursor.next() {
            if e.id() == 0 {
                drop(e.remove());
            } else if e.id() == 2 {
                e.val = 50;
                e.flag = true;
                break;
            }
        }
    });
    assert_eq!(msg, "predicate panicked on 50");
    assert_eq!(vals(&c), [1, 50, 3]);
    assert!(p.log.borrow().is_empty());
    t.assert_live_exactly(&[1, 2, 3]);
    p.pred_panics_on.set(None);
    c.traverse(|_| {});
    assert_eq!(p.log_ids(), [2]);
    assert_eq!(ids(&c), [1, 3]);
}

#[test]
fn predicate_panicking_in_prune() {
    let t = Tracker::new();
    let p = Probe::default();
    let mut c = coll(&p);
    c.extend(elems(&t, 4, |v| v == 1 || v == 3));
    p.pred_panics_on.set(Some(2));
    let msg = expect_panic(|| c.prune());
    assert_eq!(msg, "predicate panicked on 2");
    assert_eq!(ids(&c), [0, 2, 3]);
    assert_eq!(p.log_ids(), [1]);
    t.assert_live_exactly(&[0, 2, 3]);
    p.pred_panics_on.set(None);
    assert_eq!(c.prune(), 1);
    assert_eq!(ids(&c), [0, 2]);
}

#[test]
fn hook_panicking_drops_the_element_once() {
    let t = Tracker::new();
    let p = Probe::default();
    let mut c = coll(&p);
    c.extend(elems(&t, 4, |v| v == 1 || v == 3));
    p.hook_panics_on.set(Some(1));
    let msg = expect_panic(|| c.traverse(|_| {}));
    assert_eq!(msg, "hook panicked on #1");
    assert_eq!(ids(&c), [0, 2, 3]);
    assert_eq!(t.drops(1), 1, "dropped by the unwinding, once");
    t.assert_live_exactly(&[0, 2, 3]);

    // In the cursor's drop (the held element expired, then `break`).
    p.hook_panics_on.set(Some(2));
    let msg = expect_panic(|| {
        let mut cursor = c.cursor();
        while let Some(mut e) = cursor.next() {
            if e.id() == 2 {
                e.flag = true;
                break;
            }
        }
    });
    assert_eq!(msg, "hook panicked on #2");
    assert_eq!(ids(&c), [0, 3]);
    assert_eq!(p.log_ids(), [1, 2]);
    t.assert_live_exactly(&[0, 3]);

    p.hook_panics_on.set(None);
    assert_eq!(c.prune(), 1);
    assert_eq!(p.log_ids(), [1, 2, 3]);
    assert_eq!(ids(&c), [0]);
    drop(c);
    t.assert_all_dropped_once();
}

#[test]
fn predicate_and_hook_are_never_called_while_unwinding() {
    let t = Tracker::new();
    let p = Probe::default();
    let mut c = coll(&p);
    c.extend(elems(&t, 3, |_| false));
    let mut calls_at_panic = 0;
    let msg = expect_panic(|| {
        let mut cursor = c.cursor();
        while let Some(mut e) = cursor.next() {
            if e.id() == 1 {
                e.flag = true; // satisfies the predicate while held
                e.push(t.elem(3).flagged()); // never reached
                calls_at_panic = p.calls.get();
                panic!("body");
            }
        }
    });
    assert_eq!(msg, "body");
    assert_eq!(
        p.calls.get(),
        calls_at_panic,
        "predicate called while unwinding"
    );
    assert!(p.log.borrow().is_empty(), "hook called while unwinding");
    assert_eq!(ids(&c), [0, 1, 2, 3], "kept: checked when next reached");
    t.assert_live_exactly(&[0, 1, 2, 3]);
    c.traverse(|_| {});
    assert_eq!(p.log_ids(), [1, 3]);
    assert_eq!(ids(&c), [0, 2]);
}

#[test]
fn auto_removed_element_whose_drop_panics() {
    let t = Tracker::new();
    let mut c = ReadWriteCollection::with_auto_remove(|e: &Elem| e.flag);
    c.extend([t.elem(0), t.bomb(1).flagged(), t.elem(2)]);
    // Reached: the default hook drops it, and the drop panics.
    let msg = expect_panic(|| c.traverse(|_| {}));
    assert_eq!(msg, "bomb 1 went off");
    assert_eq!(ids(&c), [0, 2]);
    t.assert_live_exactly(&[0, 2]);
    // Held, expired, then `break`: the cursor's drop removes it.
    c.push(t.bomb(3));
    c.push(t.elem(4));
    let msg = expect_panic(|| {
        let mut cursor = c.cursor();
        while let Some(mut e) = cursor.next() {
            if e.id() == 3 {
                e.flag = true;
                break;
            }
        }
    });
    assert_eq!(msg, "bomb 3 went off");
    assert_eq!(ids(&c), [0, 2, 4]);
    t.assert_live_exactly(&[0, 2, 4]);
    drop(c);
    t.assert_all_dropped_once();
}

#[test]
fn prune_applies_the_predicate_without_a_loop() {
    let t = Tracker::new();
    let p = Probe::default();
    let mut c = coll(&p);
    assert_eq!(c.prune(), 0);
    c.extend(elems(&t, 6, |v| v % 2 == 0));
    assert_eq!(c.prune(), 3);
    assert_eq!(p.log_ids(), [0, 2, 4]);
    assert_eq!(ids(&c), [1, 3, 5]);
    assert_eq!(c.prune(), 0);
    c.set_mode(Mode::Unordered);
    c[1].flag = true;
    c.push(t.elem(6).flagged());
    assert_eq!(c.prune(), 2);
    let mut removed = p.log_ids()[3..].to_vec();
    removed.sort_unstable();
    assert_eq!(removed, [3, 6]);
    let mut have = ids(&c);
    have.sort_unstable();
    assert_eq!(have, [1, 5]);
    t.assert_live_exactly(&[1, 5]);
}

#[test]
fn unordered_auto_remove_visits_the_rest_once() {
    let t = Tracker::new();
    let p = Probe::default();
    let mut c = coll(&p);
    c.set_mode(Mode::Unordered);
    c.extend(elems(&t, 10, |v| v % 3 == 0));
    let mut visited = Vec::new();
    c.traverse(|mut e| {
        visited.push(e.id());
        if e.val % 3 == 1 {
            e.flag = true;
        }
    });
    visited.sort_unstable();
    assert_eq!(visited, [1, 2, 4, 5, 7, 8]);
    let mut removed = p.log_ids();
    removed.sort_unstable();
    assert_eq!(removed, [0, 1, 3, 4, 6, 7, 9]);
    let mut have = ids(&c);
    have.sort_unstable();
    assert_eq!(have, [2, 5, 8]);
    t.assert_live_exactly(&[2, 5, 8]);
}

#[test]
fn unordered_every_element_expired_on_arrival() {
    // Each removal on arrival refills the slot from the end, down to the
    // last element, which is its own refill.
    let t = Tracker::new();
    let p = Probe::default();
    let mut c = unordered_coll(&t, &p, 5, |_| true);
    let mut visited = 0;
    c.traverse(|_| visited += 1);
    assert_eq!(visited, 0);
    assert!(c.is_empty());
    assert_eq!(p.log_ids(), [0, 4, 3, 2, 1], "each refill is asked next");
    t.assert_all_dropped_once();
}

#[test]
fn unordered_hook_panicking_on_arrival_keeps_the_rest() {
    let t = Tracker::new();
    let p = Probe::default();
    let mut c = unordered_coll(&t, &p, 5, |v| v == 1 || v == 4);
    p.hook_panics_on.set(Some(1));
    let mut visited = Vec::new();
    let msg = expect_panic(|| c.traverse(|e| visited.push(e.id())));
    assert_eq!(msg, "hook panicked on #1");
    // 0 kept; 1 removed on arrival (its slot refilled by 4, the last one,
    // which the pass had not visited when the hook panicked).
    assert_eq!(visited, [0]);
    assert_eq!(t.drops(1), 1, "dropped by the unwinding, once");
    let mut have = ids(&c);
    have.sort_unstable();
    assert_eq!(have, [0, 2, 3, 4]);
    t.assert_live_exactly(&[0, 2, 3, 4]);
    p.hook_panics_on.set(None);
    assert_eq!(c.prune(), 1);
    assert_eq!(p.log_ids(), [1, 4]);
    drop(c);
    t.assert_all_dropped_once();
}

#[test]
fn unordered_predicate_panicking_on_arrival_leaves_the_element() {
    let t = Tracker::new();
    let p = Probe::default();
    let mut c = unordered_coll(&t, &p, 4, |v| v == 0);
    p.pred_panics_on.set(Some(3));
    let msg = expect_panic(|| c.traverse(|_| {}));
    assert_eq!(msg, "predicate panicked on 3");
    // 0 removed on arrival, refilled by 3, whose check panicked: 3 stays.
    assert_eq!(p.log_ids(), [0]);
    let mut have = ids(&c);
    have.sort_unstable();
    assert_eq!(have, [1, 2, 3]);
    t.assert_live_exactly(&[1, 2, 3]);
    p.pred_panics_on.set(None);
    let mut visited = Vec::new();
    c.traverse(|e| visited.push(e.id()));
    visited.sort_unstable();
    assert_eq!(visited, [1, 2, 3]);
}

#[test]
fn bounded_auto_remove_frees_room() {
    let t = Tracker::new();
    let p = Probe::default();
    let mut c = coll(&p);
    c.set_max_len(Some(3));
    c.extend(elems(&t, 3, |v| v == 1));
    assert!(c.try_push(t.elem(9)).is_err());
    let mut results = Vec::new();
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        // At 0: full (1 not reached yet). At 2: 1 was auto-removed: room.
        let r = e.try_push(t.elem(10 + e.val));
        results.push((e.val, r.is_ok()));
    }
    drop(cursor);
    assert_eq!(results, [(0, false), (2, true), (12, false)]);
    assert_eq!(vals(&c), [0, 2, 12]);
    assert!(c.capacity() <= 3);
    t.assert_live_exactly(&ids(&c));
}

#[test]
fn a_hand_written_policy_and_its_state() {
    struct Older {
        than: i64,
        removed: Vec<i64>,
    }
    impl AutoRemove<i64> for Older {
        fn should_remove(&mut self, item: &i64) -> bool {
            *item > self.than
        }
        fn removed(&mut self, item: i64) {
            self.removed.push(item);
        }
    }
    let mut c = ReadWriteCollection::with_policy(Older {
        than: 5,
        removed: Vec::new(),
    });
    c.extend([1, 7, 3, 9]);
    c.traverse(|mut e| *e += 1);
    assert_eq!(c, [2, 4]);
    assert_eq!(c.policy().removed, [7, 9]);
    c.policy_mut().than = 2;
    assert_eq!(c.prune(), 1);
    assert_eq!(c, [2]);
    assert_eq!(c.policy().removed, [7, 9, 4]);
}

#[test]
fn buffered_collection_with_auto_remove() {
    let t = Tracker::new();
    let p = Probe::default();
    let mut c = BufferedCollection::with_auto_remove(|e: &Elem| e.flag)
        .with_removal_hook(|e: Elem| p.log.borrow_mut().push((e.id(), e.val)));
    c.extend(elems(&t, 4, |v| v == 2));
    let mut visited = Vec::new();
    c.traverse(|e| visited.push(e.id()));
    assert!(visited.is_empty(), "pending elements are not visited");
    assert_eq!(c.commit(), 4);
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        visited.push(e.id());
        if e.id() == 0 {
            e.flag = true;
            e.push(t.elem(4).flagged()); // pending: not reached this pass
        }
    }
    drop(cursor);
    assert_eq!(visited, [0, 1, 3]);
    assert_eq!(p.log_ids(), [0, 2]);
    assert_eq!(ids(c.as_slice()), [1, 3]);
    c.commit();
    assert_eq!(c.prune(), 1);
    assert_eq!(p.log_ids(), [0, 2, 4]);
    drop(c);
    t.assert_all_dropped_once();
}

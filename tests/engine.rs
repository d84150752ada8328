//! Edge cases of the traversal engine: zero-sized elements at the largest
//! length, growth while an element is held, and leaked cursors.
#![allow(unsafe_code)] // building a zero-sized collection of usize::MAX elements

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};

use common::{ids, panic_message, vals, Tracker};
use read_write_collection::{Mode, ReadWriteCollection};

/// `usize::MAX` unit values, without a loop of `usize::MAX` iterations.
#[allow(clippy::uninit_vec)] // `()` is zero-sized: there is nothing to initialise
fn units_at_max() -> ReadWriteCollection<()> {
    let mut v: Vec<()> = Vec::new();
    // SAFETY: a `Vec` of a zero-sized type has capacity `usize::MAX`, and
    // `()` has no bytes to initialise.
    unsafe { v.set_len(usize::MAX) };
    ReadWriteCollection::from(v)
}

#[test]
fn zero_sized_push_at_usize_max_is_a_capacity_overflow_not_a_full_bound() {
    let mut c = units_at_max();
    assert_eq!(c.max_len(), None, "not bounded");
    let err = catch_unwind(AssertUnwindSafe(|| {
        let mut cursor = c.cursor();
        cursor.push(());
    }))
    .unwrap_err();
    assert_eq!(panic_message(&*err), "capacity overflow");
    assert_eq!(c.len(), usize::MAX, "nothing lost, nothing added");

    // `try_push` is for bounds: an unbounded collection that cannot grow
    // panics as `Vec::push` does rather than reporting a full bound.
    let err = catch_unwind(AssertUnwindSafe(|| {
        let mut cursor = c.cursor();
        let _ = cursor.next();
        let _ = cursor.try_push(());
    }))
    .unwrap_err();
    assert_eq!(panic_message(&*err), "capacity overflow");
    assert_eq!(c.len(), usize::MAX);
}

#[test]
fn zero_sized_push_outside_a_pass_at_usize_max_is_a_capacity_overflow() {
    let mut c = units_at_max();
    for attempt in 0..3 {
        let err = catch_unwind(AssertUnwindSafe(|| match attempt {
            0 => c.push(()),
            1 => drop(c.try_push(())),
            _ => c.insert(0, ()),
        }))
        .unwrap_err();
        assert_eq!(
            panic_message(&*err),
            "capacity overflow",
            "attempt {attempt}"
        );
        assert_eq!(c.len(), usize::MAX);
    }
}

#[test]
fn zero_sized_push_after_a_removal_at_usize_max_fits() {
    let mut c = units_at_max();
    let mut cursor = c.cursor();
    cursor.next().unwrap().remove();
    assert_eq!(cursor.len(), usize::MAX - 1);
    cursor.push(()); // closes the hole of one
    assert_eq!(cursor.len(), usize::MAX);
    assert_eq!(cursor.remaining(), usize::MAX);
    drop(cursor);
    assert_eq!(c.len(), usize::MAX);
}

#[test]
fn bounded_zero_sized_collection_hands_the_value_back() {
    let mut c = ReadWriteCollection::bounded(3);
    c.extend([(), (), ()]);
    let mut cursor = c.cursor();
    assert!(cursor.try_push(()).is_err());
    cursor.next().unwrap().remove();
    assert!(cursor.try_push(()).is_ok());
    assert!(cursor.try_push(()).is_err());
    drop(cursor);
    assert_eq!(c.len(), 3);
}

/// A push that closes the hole (no room to grow: the bound) and then the
/// rest of the walk, for zero-sized elements (positions are counters) and
/// for elements that take memory: every element is visited once, the
/// push after the others, and the walk goes on from where it was.
#[test]
fn the_walk_goes_on_after_a_push_closed_the_hole() {
    let mut units = ReadWriteCollection::bounded(4);
    units.extend([(), (), (), ()]);
    let mut cursor = units.cursor();
    cursor.next().unwrap().remove();
    cursor.next().unwrap();
    assert!(cursor.try_push(()).is_ok()); // at the bound: closes the hole
    let mut visited = 2;
    while let Some(e) = cursor.next() {
        visited += 1;
        if visited == 4 {
            e.remove();
        }
    }
    drop(cursor);
    assert_eq!((visited, units.len()), (5, 3));

    let mut c = ReadWriteCollection::bounded(4);
    c.extend([0, 1, 2, 3]);
    let mut cursor = c.cursor();
    cursor.next().unwrap().remove();
    cursor.next().unwrap();
    assert!(cursor.try_push(4).is_ok());
    let mut seen = vec![0, 1];
    while let Some(e) = cursor.next() {
        seen.push(*e);
        if *e == 2 {
            e.remove();
        }
    }
    drop(cursor);
    assert_eq!(seen, [0, 1, 2, 3, 4]);
    assert_eq!(c, [1, 3, 4]);
}

#[test]
fn the_held_element_stays_usable_across_a_push_that_grows_the_buffer() {
    for hole in [0, 1, 3] {
        let t = Tracker::new();
        let v = t.elems(0..8);
        assert_eq!(v.capacity(), 8);
        let mut c = ReadWriteCollection::from(v);
        let mut cursor = c.cursor();
        for _ in 0..hole {
            drop(cursor.next().unwrap().remove());
        }
        let mut e = cursor.next().unwrap();
        e.val += 100;
        for i in 0..20 {
            e.push(t.elem(1000 + i)); // grows on the first push
            e.val += 1; // writes through the re-derived pointer
        }
        let held = e.remove();
        assert_eq!(held.val, hole as i64 + 120);
        drop(held);
        drop(cursor);
        let mut want: Vec<i64> = (hole as i64 + 1..8).collect();
        want.extend(1000..1020);
        assert_eq!(vals(&c), want, "hole {hole}");
        drop(c);
        t.assert_all_dropped_once();
    }
}

#[test]
fn growth_with_a_small_hole_keeps_order_and_visits_pushed_elements() {
    // 4 * hole < tail: the buffer grows with the hole still open, and the
    // hole is closed as the pass goes on.
    let t = Tracker::new();
    let v = t.elems(0..100);
    assert_eq!(v.capacity(), 100);
    let mut c = ReadWriteCollection::from(v);
    let mut seen = Vec::new();
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        seen.push(e.val);
        if e.val < 5 {
            drop(e.remove());
        } else if e.val == 5 {
            e.push(t.elem(500)); // grows: hole 5, tail 94
        } else if e.val == 500 {
            e.push(t.elem(501));
        }
    }
    drop(cursor);
    let mut want: Vec<i64> = (0..100).collect();
    want.extend([500, 501]);
    assert_eq!(seen, want);
    let mut kept: Vec<i64> = (5..100).collect();
    kept.extend([500, 501]);
    assert_eq!(vals(&c), kept);
    drop(c);
    t.assert_all_dropped_once();
}

#[test]
fn a_leaked_cursor_leaves_an_empty_usable_collection_even_after_growth() {
    let t = Tracker::new();
    let v = t.elems(0..4);
    let mut c = ReadWriteCollection::from(v);
    let mut cursor = c.cursor();
    drop(cursor.next().unwrap().remove());
    for i in 0..10 {
        cursor.push(t.elem(10 + i)); // grows the buffer
    }
    std::mem::forget(cursor);
    // Leak amplification: the pass never finished, the collection owns
    // nothing (the elements are leaked, never dropped twice).
    assert!(c.is_empty());
    c.push(t.elem(99));
    assert_eq!(ids(&c), [14]);
    drop(c);
    let counts = t.drop_counts();
    assert!(counts.iter().all(|&n| n <= 1), "{counts:?}");
    assert_eq!(counts[0], 1, "the removed element");
    assert_eq!(counts[14], 1, "the element pushed afterwards");
}

#[test]
fn unordered_removal_of_the_last_unvisited_element_fills_from_the_end() {
    let t = Tracker::new();
    let mut c = ReadWriteCollection::from(t.elems(0..5));
    c.set_mode(Mode::Unordered);
    let mut seen = Vec::new();
    c.traverse(|e| {
        seen.push(e.val);
        if e.val % 2 == 0 {
            drop(e.remove());
        }
    });
    // 0 removed: 4 fills slot 0 and is visited next, removed: 3 fills it.
    assert_eq!(seen, [0, 4, 3, 1, 2]);
    let mut left = vals(&c);
    left.sort_unstable();
    assert_eq!(left, [1, 3]);
    drop(c);
    t.assert_all_dropped_once();
}

#[test]
fn split_in_one_step_from_traverse_and_from_the_loop() {
    // From `traverse`: each element above 1 becomes two halves, which
    // this same pass visits (and splits again).
    let t = Tracker::new();
    let mut c = ReadWriteCollection::from(t.elems([8, 1, 3]));
    c.traverse(|e| {
        if e.val > 1 {
            let (whole, mut spawn) = e.remove_and_spawn();
            spawn.push(t.elem(whole.val / 2));
            spawn.push(t.elem(whole.val - whole.val / 2));
        }
    });
    assert_eq!(vals(&c), [1; 1 + 8 + 3]);
    drop(c);
    t.assert_all_dropped_once();

    // From the `while let` loop, in a buffered collection: pushes wait.
    let mut q = read_write_collection::BufferedCollection::new();
    q.extend([10, 20]);
    q.commit();
    let mut cursor = q.cursor();
    while let Some(e) = cursor.next() {
        let (v, mut spawn) = e.remove_and_spawn();
        spawn.push(v + 1);
    }
    drop(cursor);
    assert!(q.is_empty());
    assert_eq!(q.local_pending(), [11, 21]);
}

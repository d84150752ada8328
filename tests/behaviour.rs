//! Behaviour of `ReadWriteCollection` and its cursor on every way a
//! traversal can end, with drop-tracked elements, plus the `Vec`-like surface.

mod common;

use std::collections::hash_map::DefaultHasher;
use std::collections::VecDeque;
use std::hash::{Hash, Hasher};
use std::mem;
use std::panic::{catch_unwind, AssertUnwindSafe};

use common::{expect_panic, ids, vals, Elem, Tracker, Zst};
use read_write_collection::{Mode, ReadWriteCollection, ShrinkPolicy};

type C = ReadWriteCollection<Elem>;

fn coll(t: &Tracker, values: impl IntoIterator<Item = i64>) -> C {
    t.elems(values).into_iter().collect()
}

/// Ids of the elements of `c` whose values are `values` (first match each).
fn id_of(c: &C, value: i64) -> u32 {
    c.iter()
        .find(|e| e.val == value)
        .expect("value present")
        .id()
}

// ---------------------------------------------------------------- run to end

#[test]
fn run_to_end_removes_pushes_and_mutates() {
    let t = Tracker::new();
    let mut c = coll(&t, 0..10);
    let mut visited = Vec::new();
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        visited.push(e.val);
        match e.val {
            v if v % 3 == 0 => drop(e.remove()),
            4 => e.push(t.elem(100)),
            100 => {
                e.push(t.elem(200));
                e.val = 101;
            }
            v => e.val = v * 10,
        }
    }
    assert!(cursor.next().is_none(), "a finished cursor stays finished");
    drop(cursor);
    assert_eq!(visited, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 100, 200]);
    assert_eq!(vals(&c), [10, 20, 4, 50, 70, 80, 101, 2000]);
    // Originals have ids 0..10; 100 is id 10, 200 is id 11.
    assert_eq!(ids(&c), [1, 2, 4, 5, 7, 8, 10, 11]);
    t.assert_live_exactly(&[1, 2, 4, 5, 7, 8, 10, 11]);
    drop(c);
    t.assert_all_dropped_once();
}

#[test]
fn run_to_end_keeping_everything_changes_nothing() {
    let t = Tracker::new();
    let mut c = coll(&t, 0..5);
    let cap = c.capacity();
    let mut visited = Vec::new();
    let mut cursor = c.cursor();
    while let Some(e) = cursor.next() {
        visited.push(e.id());
    }
    drop(cursor);
    assert_eq!(visited, [0, 1, 2, 3, 4]);
    assert_eq!(ids(&c), [0, 1, 2, 3, 4]);
    assert_eq!(c.capacity(), cap);
    assert_eq!(t.live(), 5);
}

#[test]
fn run_to_end_removing_everything_empties() {
    let t = Tracker::new();
    let mut c = coll(&t, 0..7);
    let mut removed = Vec::new();
    let mut cursor = c.cursor();
    while let Some(e) = cursor.next() {
        removed.push(e.remove());
    }
    drop(cursor);
    assert!(c.is_empty());
    assert_eq!(ids(&removed), [0, 1, 2, 3, 4, 5, 6]);
    assert_eq!(t.live(), 7, "removed values are handed back, not dropped");
    drop(removed);
    t.assert_all_dropped_once();
}

#[test]
fn empty_collection_and_unused_cursor() {
    let mut c: ReadWriteCollection<i32> = ReadWriteCollection::new();
    {
        let mut cursor = c.cursor();
        assert!(cursor.next().is_none());
        assert_eq!(cursor.remaining(), 0);
        assert_eq!(cursor.len(), 0);
    }
    assert!(c.is_empty());
    c.extend([1, 2, 3]);
    drop(c.cursor()); // a cursor that is never advanced changes nothing
    assert_eq!(c, [1, 2, 3]);
}

#[test]
fn push_after_exhaustion_is_still_visited() {
    let mut c: ReadWriteCollection<i32> = [1].into();
    let mut cursor = c.cursor();
    assert_eq!(cursor.next().as_deref(), Some(&1));
    assert!(cursor.next().is_none());
    cursor.push(2);
    assert_eq!(cursor.remaining(), 1);
    let e = cursor.next().expect("the pushed element is visited");
    assert_eq!(*e, 2);
    assert!(cursor.next().is_none());
    drop(cursor);
    assert_eq!(c, [1, 2]);
}

#[test]
fn remaining_and_len_track_the_pass() {
    let mut c: ReadWriteCollection<i32> = (0..4).collect();
    let mut cursor = c.cursor();
    assert_eq!((cursor.remaining(), cursor.len()), (4, 4));
    let e = cursor.next().unwrap();
    e.remove();
    assert_eq!((cursor.remaining(), cursor.len()), (3, 3));
    cursor.push(9);
    assert_eq!((cursor.remaining(), cursor.len()), (4, 4));
    let _kept = cursor.next().unwrap();
    assert_eq!((cursor.remaining(), cursor.len()), (3, 4));
    assert!(format!("{cursor:?}").contains("remaining: 3"));
    drop(cursor);
    assert_eq!(c, [1, 2, 3, 9]);
}

#[test]
fn entry_debug_shows_the_element() {
    let mut c: ReadWriteCollection<i32> = [7].into();
    let mut cursor = c.cursor();
    let e = cursor.next().unwrap();
    assert_eq!(format!("{e:?}"), "Entry(7)");
}

// ------------------------------------------------------------ early exits

#[test]
fn break_keeps_unvisited_and_pushed_in_order() {
    let t = Tracker::new();
    let mut c = coll(&t, 0..8);
    let mut visited = Vec::new();
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        visited.push(e.val);
        match e.val {
            1 => drop(e.remove()),
            2 => {
                e.push(t.elem(100));
                e.push(t.elem(101));
            }
            5 => {
                e.val = 55;
                break;
            }
            _ => {}
        }
    }
    drop(cursor);
    assert_eq!(visited, [0, 1, 2, 3, 4, 5]);
    assert_eq!(vals(&c), [0, 2, 3, 4, 55, 6, 7, 100, 101]);
    assert_eq!(ids(&c), [0, 2, 3, 4, 5, 6, 7, 8, 9]);
    t.assert_live_exactly(&[0, 2, 3, 4, 5, 6, 7, 8, 9]);
    // The next traversal sees everything, in that order.
    let mut next_pass = Vec::new();
    c.traverse(|e| next_pass.push(e.val));
    assert_eq!(next_pass, [0, 2, 3, 4, 55, 6, 7, 100, 101]);
    drop(c);
    t.assert_all_dropped_once();
}

#[test]
fn break_while_visiting_a_pushed_element() {
    let t = Tracker::new();
    let mut c = coll(&t, 0..3);
    let mut visited = Vec::new();
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        visited.push(e.val);
        if e.val < 10 {
            e.push(t.elem(e.val + 10));
            if e.val == 1 {
                drop(e.remove());
            }
        } else if e.val == 11 {
            break;
        }
    }
    drop(cursor);
    assert_eq!(visited, [0, 1, 2, 10, 11]);
    assert_eq!(vals(&c), [0, 2, 10, 11, 12]);
    t.assert_live_exactly(&ids(&c));
    assert_eq!(t.created(), 6);
}

#[test]
fn break_right_after_removals_closes_the_hole() {
    let t = Tracker::new();
    let mut c = coll(&t, 0..6);
    let mut cursor = c.cursor();
    while let Some(e) = cursor.next() {
        if e.val < 3 {
            drop(e.remove());
        } else {
            break; // holding 3, three slots of hole behind it
        }
    }
    drop(cursor);
    assert_eq!(vals(&c), [3, 4, 5]);
    t.assert_live_exactly(&[3, 4, 5]);
}

#[test]
fn break_after_removing_the_held_element() {
    let t = Tracker::new();
    let mut c = coll(&t, 0..5);
    let mut cursor = c.cursor();
    while let Some(e) = cursor.next() {
        if e.val == 2 {
            drop(e.remove());
            cursor.push(t.elem(50));
            break;
        }
    }
    drop(cursor);
    assert_eq!(vals(&c), [0, 1, 3, 4, 50]);
    t.assert_live_exactly(&ids(&c));
}

fn take_first_negative(c: &mut C) -> Option<Elem> {
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        if e.val < 0 {
            return Some(e.remove());
        }
        e.val += 1000;
    }
    None
}

#[test]
fn return_from_a_helper_keeps_the_rest() {
    let t = Tracker::new();
    let mut c = coll(&t, [1, 2, -3, 4, -5]);
    let first = take_first_negative(&mut c).unwrap();
    assert_eq!((first.id(), first.val), (2, -3));
    assert_eq!(vals(&c), [1001, 1002, 4, -5]);
    let second = take_first_negative(&mut c).unwrap();
    assert_eq!((second.id(), second.val), (4, -5));
    assert_eq!(vals(&c), [2001, 2002, 1004]);
    assert!(take_first_negative(&mut c).is_none());
    assert_eq!(vals(&c), [3001, 3002, 2004]);
    assert_eq!(t.live(), 5);
    drop((first, second, c));
    t.assert_all_dropped_once();
}

fn halve(v: i64) -> Result<i64, String> {
    if v % 2 == 0 {
        Ok(v / 2)
    } else {
        Err(format!("{v} is odd"))
    }
}

fn halve_all(c: &mut C, t: &Tracker) -> Result<usize, String> {
    let mut cursor = c.cursor();
    let mut n = 0;
    while let Some(mut e) = cursor.next() {
        if e.val == 0 {
            e.remove();
            continue;
        }
        let h = halve(e.val)?;
        e.val = h;
        n += 1;
        if h == 4 {
            e.push(t.elem(10));
        }
    }
    Ok(n)
}

#[test]
fn question_mark_from_a_helper_keeps_the_rest() {
    let t = Tracker::new();
    let mut c = coll(&t, [4, 0, 8, 3, 6]);
    assert_eq!(halve_all(&mut c, &t), Err("3 is odd".to_string()));
    // 4 -> 2, 0 removed, 8 -> 4 (pushed 10), stopped at 3.
    assert_eq!(vals(&c), [2, 4, 3, 6, 10]);
    assert_eq!(t.drops(1), 1);
    t.assert_live_exactly(&[0, 2, 3, 4, 5]);
    let odd = id_of(&c, 3);
    c.traverse(|e| {
        if e.id() == odd {
            e.remove();
        }
    });
    assert_eq!(halve_all(&mut c, &t), Ok(4));
    assert_eq!(vals(&c), [1, 2, 3, 5]);
    drop(c);
    t.assert_all_dropped_once();
}

#[test]
fn finish_completes_early() {
    let t = Tracker::new();
    let mut c = coll(&t, 0..5);
    let mut cursor = c.cursor();
    drop(cursor.next().unwrap().remove());
    cursor.next().unwrap().val = 11;
    cursor.push(t.elem(9));
    cursor.finish();
    assert_eq!(vals(&c), [11, 2, 3, 4, 9]);
    t.assert_live_exactly(&[1, 2, 3, 4, 5]);
}

/// `finish` applies the predicate to the held element, also without the
/// `std` feature (where dropping the cursor cannot, since it cannot tell
/// whether it runs during a panic); so does `SinkCursor::finish`, which
/// hands the element to the sink.
#[test]
fn finish_applies_the_predicate_to_the_held_element() {
    let mut c = ReadWriteCollection::with_auto_remove(|n: &i32| *n < 0);
    c.extend([1, 2, 3]);
    let mut cursor = c.cursor();
    *cursor.next().unwrap() = -1;
    cursor.finish();
    assert_eq!(c.as_slice(), [2, 3]);

    let mut sunk = Vec::new();
    let mut cursor = c.cursor_with_sink(|n| sunk.push(n));
    *cursor.next().unwrap() = -2;
    cursor.finish();
    assert_eq!(sunk, [-2]);
    assert_eq!(c.as_slice(), [3]);
}

// ----------------------------------------------------------------- panics

#[test]
fn panic_while_holding_an_entry() {
    let t = Tracker::new();
    let mut c = coll(&t, 0..6);
    let msg = expect_panic(|| {
        let mut cursor = c.cursor();
        while let Some(mut e) = cursor.next() {
            match e.val {
                0 => drop(e.remove()),
                1 => e.push(t.elem(100)),
                2 => e.val = 20,
                3 => {
                    e.val = 33;
                    panic!("boom in the body");
                }
                _ => unreachable!(),
            }
        }
    });
    assert_eq!(msg, "boom in the body");
    assert_eq!(vals(&c), [1, 20, 33, 4, 5, 100]);
    assert_eq!(ids(&c), [1, 2, 3, 4, 5, 6]);
    t.assert_live_exactly(&[1, 2, 3, 4, 5, 6]);
    // Still fully usable.
    let mut visited = Vec::new();
    c.traverse(|mut e| {
        visited.push(e.val);
        e.val += 1;
    });
    assert_eq!(visited, [1, 20, 33, 4, 5, 100]);
    c.push(t.elem(7));
    assert_eq!(vals(&c), [2, 21, 34, 5, 6, 101, 7]);
    drop(c);
    t.assert_all_dropped_once();
}

#[test]
fn panic_after_removing_drops_the_removed_value_once() {
    let t = Tracker::new();
    let mut c = coll(&t, 0..6);
    expect_panic(|| {
        let mut cursor = c.cursor();
        while let Some(e) = cursor.next() {
            if e.val == 1 {
                drop(e.remove());
            } else if e.val == 3 {
                let held = e.remove();
                cursor.push(t.elem(99));
                assert_eq!(held.val, 3);
                panic!("after remove");
            }
        }
    });
    assert_eq!(vals(&c), [0, 2, 4, 5, 99]);
    assert_eq!((t.drops(1), t.drops(3)), (1, 1));
    t.assert_live_exactly(&[0, 2, 4, 5, 6]);
    drop(c);
    t.assert_all_dropped_once();
}

#[test]
fn panic_after_pushing_keeps_the_pushed_elements() {
    let t = Tracker::new();
    let mut c = coll(&t, 0..4);
    expect_panic(|| {
        let mut cursor = c.cursor();
        while let Some(mut e) = cursor.next() {
            if e.val == 0 {
                drop(e.remove());
            } else if e.val == 2 {
                e.push(t.elem(20));
                e.push(t.elem(21));
                panic!("after push");
            }
        }
    });
    assert_eq!(vals(&c), [1, 2, 3, 20, 21]);
    t.assert_live_exactly(&[1, 2, 3, 4, 5]);
    drop(c);
    t.assert_all_dropped_once();
}

#[test]
fn panic_while_visiting_a_pushed_element() {
    let t = Tracker::new();
    let mut c = coll(&t, 0..2);
    expect_panic(|| {
        let mut cursor = c.cursor();
        while let Some(mut e) = cursor.next() {
            if e.val < 10 {
                e.push(t.elem(e.val + 10));
            } else {
                e.push(t.elem(20));
                panic!("in a pushed element");
            }
        }
    });
    assert_eq!(vals(&c), [0, 1, 10, 11, 20]);
    t.assert_live_exactly(&[0, 1, 2, 3, 4]);
}

#[test]
fn panic_with_a_hole_and_growth() {
    let t = Tracker::new();
    let mut c: C = ReadWriteCollection::with_capacity(4);
    c.extend(t.elems(0..4));
    expect_panic(|| {
        let mut cursor = c.cursor();
        while let Some(mut e) = cursor.next() {
            if e.val < 2 {
                drop(e.remove());
            } else if e.val == 2 {
                for i in 0..10 {
                    e.push(t.elem(100 + i));
                }
            } else if e.val == 102 {
                panic!("late");
            }
        }
    });
    let mut want = vec![2, 3];
    want.extend(100..110);
    assert_eq!(vals(&c), want);
    t.assert_live_exactly(&ids(&c));
}

#[test]
fn panicking_push_into_a_full_bounded_collection() {
    let t = Tracker::new();
    let mut c: C = ReadWriteCollection::bounded(3);
    c.extend(t.elems(0..3));
    let msg = expect_panic(|| {
        let mut cursor = c.cursor();
        let mut e = cursor.next().unwrap();
        e.push(t.elem(9));
    });
    assert!(msg.contains("full"), "{msg}");
    assert_eq!(vals(&c), [0, 1, 2]);
    assert_eq!(t.drops(3), 1, "the rejected value is dropped once");
    t.assert_live_exactly(&[0, 1, 2]);
    let msg = expect_panic(|| c.push(t.elem(10)));
    assert!(msg.contains("full"), "{msg}");
    assert_eq!(t.drops(4), 1);
    assert_eq!(c.len(), 3);
}

#[test]
fn panic_in_unordered_mode_keeps_every_element() {
    let t = Tracker::new();
    let mut c = coll(&t, 0..8);
    c.set_mode(Mode::Unordered);
    let mut visited = Vec::new();
    expect_panic(|| {
        let mut cursor = c.cursor();
        while let Some(mut e) = cursor.next() {
            visited.push(e.id());
            if e.val % 2 == 0 {
                drop(e.remove());
            } else if e.val == 5 {
                e.push(t.elem(50));
                panic!("unordered");
            }
        }
    });
    let mut expect: Vec<u32> = (0..9).filter(|i| !matches!(i, 0 | 2 | 4 | 6)).collect();
    // Removed: exactly the even originals that were visited.
    let removed: Vec<u32> = visited.iter().copied().filter(|i| i % 2 == 0).collect();
    expect.extend([0, 2, 4, 6].into_iter().filter(|i| !removed.contains(i)));
    expect.sort_unstable();
    let mut have = ids(&c);
    have.sort_unstable();
    assert_eq!(have, expect);
    t.assert_live_exactly(&expect);
}

// ----------------------------------------------------- elements whose Drop panics

#[test]
fn removed_element_whose_drop_panics() {
    let t = Tracker::new();
    let mut c: C = vec![t.elem(0), t.bomb(1), t.elem(2), t.elem(3)].into();
    let msg = expect_panic(|| {
        let mut cursor = c.cursor();
        while let Some(e) = cursor.next() {
            if e.val <= 1 {
                drop(e.remove()); // the second one panics in Drop
            }
        }
    });
    assert_eq!(msg, "bomb 1 went off");
    assert_eq!(vals(&c), [2, 3]);
    t.assert_live_exactly(&[2, 3]);
    drop(c);
    t.assert_all_dropped_once();
}

#[test]
fn element_whose_drop_panics_dropped_by_clear_truncate_pop_drain_and_drop() {
    let t = Tracker::new();

    let mut c: C = vec![t.elem(0), t.bomb(1), t.elem(2)].into();
    expect_panic(|| c.clear());
    assert!(c.is_empty());
    t.assert_live_exactly(&[]);

    let mut c: C = vec![t.elem(3), t.bomb(4), t.elem(5)].into();
    expect_panic(|| c.truncate(1));
    assert_eq!(ids(&c), [3]);
    t.assert_live_exactly(&[3]);

    c.push(t.bomb(6));
    expect_panic(|| drop(c.pop()));
    assert_eq!(ids(&c), [3]);
    t.assert_live_exactly(&[3]);

    c.extend([t.bomb(7), t.elem(8)]);
    expect_panic(|| drop(c.drain(1..)));
    assert_eq!(ids(&c), [3]);
    t.assert_live_exactly(&[3]);

    c.extend([t.bomb(9), t.elem(10)]);
    expect_panic(move || drop(c));
    t.assert_all_dropped_once();
}

#[test]
fn element_whose_drop_panics_kept_through_a_body_panic() {
    let t = Tracker::new();
    let mut c: C = vec![t.elem(0), t.bomb(1), t.elem(2)].into();
    expect_panic(|| {
        let mut cursor = c.cursor();
        while let Some(e) = cursor.next() {
            if e.val == 1 {
                panic!("holding the bomb");
            }
        }
    });
    assert_eq!(vals(&c), [0, 1, 2]);
    t.assert_live_exactly(&[0, 1, 2]);
    let msg = expect_panic(move || drop(c));
    assert_eq!(msg, "bomb 1 went off");
    t.assert_all_dropped_once();
}

// --------------------------------------------------------------- mem::forget

#[test]
fn forgotten_cursor_leaks_and_leaves_a_usable_empty_collection() {
    let t = Tracker::new();
    let mut c: C = ReadWriteCollection::with_capacity(6);
    c.extend(t.elems(0..6));
    let mut cursor = c.cursor();
    drop(cursor.next().unwrap().remove()); // id 0 dropped
    let mut e = cursor.next().unwrap(); // id 1 kept
    for i in 0..8 {
        e.push(t.elem(100 + i)); // growth during the pass
    }
    let _held = cursor.next().unwrap(); // id 2 held
    mem::forget(cursor);
    assert!(c.is_empty());
    assert_eq!(c.len(), 0);
    assert_eq!(c.iter().count(), 0);
    // Everything but the removed element leaked (never dropped).
    t.assert_live_exactly(&(1..14).collect::<Vec<_>>());
    // Usable afterwards: pushes and traversals behave.
    c.push(t.elem(50));
    c.push(t.elem(51));
    let mut seen = Vec::new();
    let mut cursor = c.cursor();
    while let Some(e) = cursor.next() {
        seen.push(e.val);
        if e.val == 50 {
            drop(e.remove());
            cursor.push(t.elem(52));
        }
    }
    drop(cursor);
    assert_eq!(seen, [50, 51, 52]);
    assert_eq!(vals(&c), [51, 52]);
    drop(c);
    t.assert_live_exactly(&(1..14).collect::<Vec<_>>());
    assert_eq!(t.created(), 17);
}

#[test]
fn forgotten_cursors_in_other_states() {
    let t = Tracker::new();
    // Fresh cursor.
    let mut c = coll(&t, 0..3);
    mem::forget(c.cursor());
    assert!(c.is_empty());
    // Exhausted cursor.
    c.extend(t.elems(3..6));
    let mut cursor = c.cursor();
    while cursor.next().is_some() {}
    mem::forget(cursor);
    assert!(c.is_empty());
    // Unordered, after a removal.
    c.set_mode(Mode::Unordered);
    c.extend(t.elems(6..9));
    let mut cursor = c.cursor();
    drop(cursor.next().unwrap().remove());
    mem::forget(cursor);
    assert!(c.is_empty());
    c.push(t.elem(9));
    assert_eq!(vals(&c), [9]);
    drop(c);
    t.assert_live_exactly(&[0, 1, 2, 3, 4, 5, 7, 8]);
}

// ------------------------------------------------------ growth during a pass

/// The ordered model: a queue of the originals plus pushes.
fn model_tree(start: &[i64], children: impl Fn(i64) -> Vec<i64>) -> Vec<i64> {
    let mut queue: VecDeque<i64> = start.iter().copied().collect();
    let mut visited = Vec::new();
    while let Some(v) = queue.pop_front() {
        visited.push(v);
        queue.extend(children(v));
    }
    visited
}

#[test]
fn pushes_that_grow_the_buffer_during_a_pass() {
    let t = Tracker::new();
    let children = |v: i64| {
        if v < 40 {
            vec![2 * v + 3, 2 * v + 4]
        } else {
            vec![]
        }
    };
    let mut c: C = ReadWriteCollection::with_capacity(2);
    c.extend(t.elems([0, 1]));
    let cap0 = c.capacity();
    let mut visited = Vec::new();
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        visited.push(e.val);
        for k in children(e.val) {
            e.push(t.elem(k));
        }
    }
    drop(cursor);
    let expected = model_tree(&[0, 1], children);
    assert_eq!(visited, expected);
    assert_eq!(vals(&c), expected);
    assert!(c.capacity() > cap0);
    assert_eq!(t.live(), expected.len());
}

#[test]
fn growth_with_a_hole_present() {
    let t = Tracker::new();
    let mut c: C = ReadWriteCollection::with_capacity(8);
    c.extend(t.elems(0..8));
    assert_eq!(c.capacity(), 8);
    let mut visited = Vec::new();
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        visited.push(e.val);
        if e.val < 4 {
            drop(e.remove()); // a hole of 4 behind the cursor
        } else if e.val == 4 {
            for i in 0..20 {
                e.push(t.elem(100 + i));
            }
        } else if e.val == 110 {
            drop(e.remove());
        }
    }
    drop(cursor);
    let mut want_visited: Vec<i64> = (0..8).collect();
    want_visited.extend(100..120);
    assert_eq!(visited, want_visited);
    let want: Vec<i64> = (4..8).chain(100..120).filter(|&v| v != 110).collect();
    assert_eq!(vals(&c), want);
    assert!(c.capacity() >= want.len());
    t.assert_live_exactly(&ids(&c));
}

#[test]
fn remove_one_push_one_at_full_capacity() {
    let t = Tracker::new();
    let mut c: C = ReadWriteCollection::with_capacity(16);
    c.extend(t.elems(0..16));
    let mut visited = Vec::new();
    let mut cursor = c.cursor();
    while let Some(e) = cursor.next() {
        visited.push(e.val);
        if e.val < 16 {
            let old = e.remove();
            cursor.push(t.elem(old.val + 100));
        }
    }
    drop(cursor);
    let want_visited: Vec<i64> = (0..16).chain(100..116).collect();
    assert_eq!(visited, want_visited);
    assert_eq!(vals(&c), (100..116).collect::<Vec<_>>());
    t.assert_live_exactly(&ids(&c));
}

#[test]
fn pushes_while_holding_with_a_hole_behind() {
    let t = Tracker::new();
    let mut c: C = ReadWriteCollection::with_capacity(5);
    c.extend(t.elems(0..5));
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        match e.val {
            0 | 1 => drop(e.remove()),
            2 => {
                e.val = 22;
                for i in 0..3 {
                    e.push(t.elem(10 + i)); // room appears by closing the hole
                }
                e.val = 222; // the held element is still reachable after the move
            }
            _ => {}
        }
    }
    drop(cursor);
    assert_eq!(vals(&c), [222, 3, 4, 10, 11, 12]);
    t.assert_live_exactly(&ids(&c));
}

// ---------------------------------------------------------------- bounded

#[test]
fn bounded_at_max_during_a_pass() {
    let t = Tracker::new();
    let mut c: C = ReadWriteCollection::bounded(4);
    for i in 0..4 {
        c.try_push(t.elem(i)).unwrap();
    }
    assert!(c.capacity() <= 4);
    let rejected = c.try_push(t.elem(9)).unwrap_err().into_inner();
    assert_eq!(rejected.id(), 4);
    drop(rejected);

    let mut log = Vec::new();
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        match e.val {
            0 => {
                let err = e.try_push(t.elem(10)).unwrap_err(); // held counts: full
                log.push(("held-full", err.element_ref().id()));
            }
            1 => {
                drop(e.remove());
                log.push(("ok", cursor.try_push(t.elem(11)).map(|()| 0).unwrap()));
                let err = cursor.try_push(t.elem(12)).unwrap_err();
                log.push(("full-again", err.into_inner().id()));
            }
            2 => {
                drop(e.remove());
                let a = cursor.try_push(t.elem(13));
                log.push(("ok", a.map(|()| 0).unwrap()));
            }
            11 => {
                let err = e.try_push(t.elem(14)).unwrap_err();
                log.push(("pushed-full", err.into_inner().id()));
            }
            _ => {}
        }
    }
    drop(cursor);
    assert_eq!(
        log,
        [
            ("held-full", 5),
            ("ok", 0),
            ("full-again", 7),
            ("ok", 0),
            ("pushed-full", 9)
        ]
    );
    assert_eq!(vals(&c), [0, 3, 11, 13]);
    assert!(c.capacity() <= 4);
    t.assert_live_exactly(&[0, 3, 6, 8]);
}

#[test]
fn bounded_grows_lazily_and_never_past_max() {
    let t = Tracker::new();
    let mut c: C = ReadWriteCollection::bounded(10);
    assert_eq!(c.capacity(), 0);
    c.push(t.elem(0));
    let mut rejected = Vec::new();
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        let next = e.val + 1;
        if let Err(err) = e.try_push(t.elem(next)) {
            rejected.push(err.into_inner().val);
        }
    }
    drop(cursor);
    assert_eq!(vals(&c), (0..10).collect::<Vec<_>>());
    assert_eq!(rejected, [10]);
    assert!(c.capacity() <= 10, "capacity {}", c.capacity());
    assert_eq!(c.max_len(), Some(10));
    c.reserve(100);
    assert!(c.capacity() <= 10, "reserve on a bounded collection");
    t.assert_live_exactly(&ids(&c));
}

#[test]
fn bounded_at_max_closes_holes_without_growing() {
    let t = Tracker::new();
    let mut c: C = ReadWriteCollection::bounded(6);
    c.extend(t.elems(0..6));
    c.shrink_to_fit();
    let cap = c.capacity();
    assert!(cap <= 6);
    let mut visited = Vec::new();
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        visited.push(e.val);
        if e.val < 3 {
            drop(e.remove());
        } else if e.val == 3 {
            for i in 0..4 {
                let r = e.try_push(t.elem(10 + i));
                assert_eq!(r.is_ok(), i < 3, "push {i}");
            }
        }
    }
    drop(cursor);
    assert_eq!(visited, [0, 1, 2, 3, 4, 5, 10, 11, 12]);
    assert_eq!(vals(&c), [3, 4, 5, 10, 11, 12]);
    assert_eq!(c.capacity(), cap);
    t.assert_live_exactly(&ids(&c));
}

#[test]
fn bounded_extend_set_max_len_and_reserve() {
    let mut c: ReadWriteCollection<i32> = ReadWriteCollection::bounded(3);
    c.extend([1, 2]);
    assert!(expect_panic(|| c.extend([3, 4])).contains("full"));
    assert_eq!(c, [1, 2, 3]);
    c.set_max_len(None);
    c.extend([4, 5]);
    assert_eq!(c.max_len(), None);
    let msg = expect_panic(|| c.set_max_len(Some(2)));
    assert!(msg.contains("maximum"), "{msg}");
    c.set_max_len(Some(5));
    assert!(c.capacity() <= 5);
    assert!(c.try_push(6).is_err());
    let mut full: ReadWriteCollection<i32> = ReadWriteCollection::bounded(0);
    assert_eq!(full.try_push(1).unwrap_err().into_inner(), 1);
    full.reserve(10);
    assert_eq!(full.capacity(), 0);
}

// -------------------------------------------------------------- unordered

#[test]
fn unordered_fills_the_hole_from_the_end() {
    let mut c: ReadWriteCollection<i32> = ReadWriteCollection::unordered();
    c.extend(0..5);
    assert_eq!(c.mode(), Mode::Unordered);
    let mut visited = Vec::new();
    c.traverse(|e| {
        visited.push(*e);
        if *e == 1 {
            e.remove();
        }
    });
    assert_eq!(visited, [0, 1, 4, 2, 3]);
    assert_eq!(c, [0, 4, 2, 3]);
}

#[test]
fn unordered_visits_each_original_and_pushed_element_once() {
    let t = Tracker::new();
    let mut c = coll(&t, 0..20);
    c.set_mode(Mode::Unordered);
    let mut visited = Vec::new();
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        visited.push(e.val);
        if e.val % 3 == 0 {
            let v = e.remove().val;
            if v < 100 {
                cursor.push(t.elem(v + 100));
            }
        } else if e.val % 3 == 1 && e.val < 100 {
            e.push(t.elem(e.val + 200));
        }
    }
    drop(cursor);
    let mut all: Vec<i64> = (0..20).collect();
    all.extend((0..20).filter(|v| v % 3 == 0).map(|v| v + 100));
    all.extend((0..20).filter(|v| v % 3 == 1).map(|v| v + 200));
    visited.sort_unstable();
    all.sort_unstable();
    assert_eq!(visited, all);
    let mut kept: Vec<i64> = all.into_iter().filter(|v| v % 3 != 0).collect();
    let mut have = vals(&c);
    have.sort_unstable();
    kept.sort_unstable();
    assert_eq!(have, kept);
    t.assert_live_exactly(&ids(&c));
}

#[test]
fn unordered_break_keeps_the_unvisited() {
    let t = Tracker::new();
    let mut c = coll(&t, 0..10);
    c.set_mode(Mode::Unordered);
    let mut visited = Vec::new();
    let mut cursor = c.cursor();
    while let Some(e) = cursor.next() {
        visited.push(e.id());
        if visited.len() == 4 {
            break;
        }
        drop(e.remove());
    }
    drop(cursor);
    let mut have = ids(&c);
    have.sort_unstable();
    let mut want: Vec<u32> = (0..10).filter(|i| !visited[..3].contains(i)).collect();
    want.sort_unstable();
    assert_eq!(have, want);
    assert_eq!(c.len(), 7);
    t.assert_live_exactly(&want);
}

// ------------------------------------------------ closure forms and policies

#[test]
fn traverse_removes_pushes_and_mutates() {
    let t = Tracker::new();
    let mut c = coll(&t, 0..6);
    let mut visited = Vec::new();
    c.traverse(|mut e| {
        visited.push(e.val);
        if e.val % 2 == 1 {
            drop(e.remove());
        } else if e.val == 2 {
            e.push(t.elem(7)); // odd: removed when reached
            e.push(t.elem(8));
        } else {
            e.val *= 10;
        }
    });
    assert_eq!(visited, [0, 1, 2, 3, 4, 5, 7, 8]);
    assert_eq!(vals(&c), [0, 2, 40, 80]);
    t.assert_live_exactly(&ids(&c));
}

#[test]
fn prune_without_a_predicate_removes_nothing() {
    let t = Tracker::new();
    let mut c = coll(&t, 0..4);
    assert_eq!(c.prune(), 0);
    assert_eq!(vals(&c), [0, 1, 2, 3]);
    assert_eq!(t.live(), 4);
}

#[test]
fn shrink_policy_gives_memory_back_after_enough_low_passes() {
    let mut c: ReadWriteCollection<u32> = (0..1000).collect();
    assert_eq!(c.shrink_policy(), None);
    c.set_shrink_policy(Some(ShrinkPolicy::new(25, 3)));
    c.traverse(|e| {
        if *e >= 10 {
            e.remove();
        }
    });
    let cap = c.capacity();
    assert!(cap >= 1000);
    c.traverse(|_| {});
    assert_eq!(c.capacity(), cap, "two low passes of three");
    c.traverse(|_| {});
    assert!(c.capacity() < 1000, "third low pass shrinks");
    assert!(c.capacity() >= 10);
    assert_eq!(c, (0..10).collect::<Vec<_>>());
}

#[test]
fn shrink_policy_counter_resets_on_a_busy_pass() {
    let mut c: ReadWriteCollection<u32> = ReadWriteCollection::with_capacity(1000);
    c.extend(0..10);
    c.set_shrink_policy(Some(ShrinkPolicy::new(25, 2)));
    c.traverse(|_| {}); // low 1
    let cap = c.capacity();
    // Busy pass: back above 25 %.
    let mut cursor = c.cursor();
    while let Some(e) = cursor.next() {
        if *e == 0 {
            for i in 0..300 {
                cursor.push(1000 + i);
            }
        }
    }
    drop(cursor);
    assert_eq!(c.len(), 310);
    assert_eq!(c.capacity(), cap);
    c.truncate(10);
    c.traverse(|_| {}); // low 1 again: not yet
    assert_eq!(c.capacity(), cap);
    c.traverse(|_| {}); // low 2: shrink
    assert!(c.capacity() < cap);
    assert_eq!(c, (0..10).collect::<Vec<_>>());
}

#[test]
fn shrink_policy_off_keeps_capacity() {
    let mut c: ReadWriteCollection<u32> = (0..1000).collect();
    c.truncate(1);
    let cap = c.capacity();
    for _ in 0..10 {
        c.traverse(|_| {});
    }
    assert_eq!(c.capacity(), cap);
    c.set_shrink_policy(Some(ShrinkPolicy::new(50, 1)));
    c.set_shrink_policy(None);
    c.traverse(|_| {});
    assert_eq!(c.capacity(), cap);
}

#[test]
fn cursor_push_right_after_entry_remove_compiles_and_works() {
    let t = Tracker::new();
    let mut c = coll(&t, 0..5);
    let mut cursor = c.cursor();
    while let Some(e) = cursor.next() {
        let v = e.val; // only the value read: the entry is not used again below
        if v % 2 == 0 && v < 10 {
            let old = e.remove();
            cursor.push(t.elem(old.val + 10));
        } else if v == 3 {
            cursor.push(t.elem(30)); // the entry is kept, no longer borrowed
        }
    }
    drop(cursor);
    assert_eq!(vals(&c), [1, 3, 10, 12, 30, 14]);
    t.assert_live_exactly(&ids(&c));
}

#[test]
fn zero_sized_elements() {
    let live0 = Zst::live();
    let mut c: ReadWriteCollection<Zst> = (0..10).map(|_| Zst::new()).collect();
    assert_eq!(Zst::live() - live0, 10);
    let mut n = 0;
    let mut cursor = c.cursor();
    while let Some(e) = cursor.next() {
        n += 1;
        if n % 2 == 0 {
            drop(e.remove());
        } else if n < 6 {
            cursor.push(Zst::new());
        }
    }
    drop(cursor);
    assert_eq!(n, 13);
    assert_eq!(c.len(), 7);
    assert_eq!(Zst::live() - live0, 7);
    let mut cursor = c.cursor();
    cursor.next();
    cursor.push(Zst::new());
    mem::forget(cursor);
    assert!(c.is_empty());
    assert_eq!(Zst::live() - live0, 8, "leaked, not dropped");
    let mut b: ReadWriteCollection<Zst> = ReadWriteCollection::bounded(2);
    assert!(b.try_push(Zst::new()).is_ok());
    assert!(b.try_push(Zst::new()).is_ok());
    assert!(b.try_push(Zst::new()).is_err());
    let mut cursor = b.cursor();
    let e = cursor.next().unwrap();
    drop(e.remove());
    assert!(cursor.try_push(Zst::new()).is_ok());
    assert!(cursor.try_push(Zst::new()).is_err());
    drop(cursor);
    assert_eq!(b.len(), 2);
    drop((b, c));
    assert_eq!(
        Zst::live() - live0,
        8,
        "only the forgotten pass's eight leaked"
    );
}

// ------------------------------------------------------- the Vec-like surface

#[test]
fn conversions_from_and_into_vec() {
    let v = vec![1, 2, 3];
    let ptr = v.as_ptr();
    let c: ReadWriteCollection<i32> = v.into();
    assert_eq!(c.as_ptr(), ptr, "From<Vec> keeps the buffer");
    let back: Vec<i32> = c.into();
    assert_eq!(back, [1, 2, 3]);
    assert_eq!(back.as_ptr(), ptr, "Into<Vec> keeps the buffer");
    let c: ReadWriteCollection<i32> = [4, 5].into();
    assert_eq!(c.into_vec(), [4, 5]);
    let c: ReadWriteCollection<i32> = (&[6, 7][..]).into();
    assert_eq!(c, [6, 7]);
    let c: ReadWriteCollection<i32> = (0..3).collect();
    assert_eq!(c.as_slice(), [0, 1, 2]);
}

#[test]
fn extend_with_values_and_references() {
    let mut c: ReadWriteCollection<i32> = ReadWriteCollection::new();
    assert_eq!(c.capacity(), 0);
    c.extend([1, 2]);
    c.extend(&[3, 4]);
    c.extend([5].iter());
    assert_eq!(c, [1, 2, 3, 4, 5]);
}

#[test]
fn clone_is_deep_and_keeps_settings() {
    let t = Tracker::new();
    let mut c: C = ReadWriteCollection::bounded(5);
    c.extend(t.elems(0..3));
    c.set_mode(Mode::Unordered);
    let d = c.clone();
    assert_eq!(vals(&d), [0, 1, 2]);
    assert_eq!(ids(&d), [3, 4, 5]);
    assert_eq!(d.max_len(), Some(5));
    assert_eq!(d.mode(), Mode::Unordered);
    drop(c);
    assert_eq!(t.live(), 3);
    drop(d);
    t.assert_all_dropped_once();
}

#[test]
fn debug_prints_like_a_vec() {
    let c: ReadWriteCollection<&str> = vec!["a", "b"].into();
    assert_eq!(format!("{c:?}"), "[\"a\", \"b\"]");
    assert_eq!(format!("{c:#?}"), format!("{:#?}", vec!["a", "b"]));
    let e: ReadWriteCollection<u8> = ReadWriteCollection::new();
    assert_eq!(format!("{e:?}"), "[]");
}

fn hash_of<H: Hash + ?Sized>(h: &H) -> u64 {
    let mut s = DefaultHasher::new();
    h.hash(&mut s);
    s.finish()
}

#[test]
fn equality_ordering_and_hash() {
    let a: ReadWriteCollection<i32> = vec![1, 2].into();
    let b: ReadWriteCollection<i32> = vec![1, 3].into();
    let a2: ReadWriteCollection<i32> = (1..3).collect();
    assert_eq!(a, a2);
    assert_ne!(a, b);
    assert!(a == vec![1, 2]);
    assert!(a == [1, 2]);
    assert!(a == [1, 2][..]);
    assert!(PartialEq::<&[i32]>::eq(&a, &&[1, 2][..]));
    let mut with_pred = ReadWriteCollection::with_auto_remove(|n: &i32| *n < 0);
    with_pred.extend([1, 2]);
    assert!(a == with_pred, "equality ignores the policy");
    assert!(a < b);
    assert!(a < (1..4).collect::<ReadWriteCollection<i32>>());
    assert_eq!(a.cmp(&a2), std::cmp::Ordering::Equal);
    assert_eq!(a.partial_cmp(&b), Some(std::cmp::Ordering::Less));
    let mut sorted = vec![b.clone(), a.clone(), ReadWriteCollection::new()];
    sorted.sort();
    assert_eq!(sorted, [ReadWriteCollection::new(), a.clone(), b.clone()]);
    assert_eq!(hash_of(&a), hash_of(&a2));
    assert_eq!(hash_of(&a), hash_of(&vec![1, 2]), "hashes like a Vec/slice");
    assert_eq!(hash_of(&a), hash_of(&[1, 2][..]));
    let mut set = std::collections::HashSet::new();
    set.insert(a.clone());
    assert!(set.contains(&a2));
    assert!(!set.contains(&b));
}

#[test]
fn the_three_into_iterators() {
    let t = Tracker::new();
    let mut c = coll(&t, 0..4);
    let mut sum = 0;
    for e in &c {
        sum += e.val;
    }
    assert_eq!(sum, 6);
    for e in &mut c {
        e.val *= 2;
    }
    assert_eq!(vals(&c), [0, 2, 4, 6]);
    let mut it = c.into_iter();
    let first = it.next().unwrap();
    assert_eq!(first.val, 0);
    drop(it); // the rest is dropped once
    t.assert_live_exactly(&[0]);
    drop(first);
    t.assert_all_dropped_once();
}

#[test]
fn indexing_get_and_slices() {
    let mut c: ReadWriteCollection<i32> = (10..15).collect();
    assert_eq!(c[1], 11);
    assert_eq!(c[1..3], [11, 12]);
    assert_eq!(c[..], [10, 11, 12, 13, 14]);
    c[0] = 9;
    c[3..].copy_from_slice(&[7, 8]);
    assert_eq!(c, [9, 11, 12, 7, 8]);
    assert_eq!(c.get(4), Some(&8));
    assert_eq!(c.get(5), None);
    *c.get_mut(1).unwrap() = 1;
    assert!(c.get_mut(9).is_none());
    assert!(expect_panic(|| c[5]).contains("out of bounds"));
    // Slice methods through Deref/DerefMut.
    c.sort_unstable();
    assert_eq!(c.first(), Some(&1));
    assert!(c.contains(&12));
    c.as_mut_slice()[0] = 0;
    c.iter_mut().for_each(|n| *n += 1);
    assert_eq!(c.as_slice(), [1, 8, 9, 10, 13]);
    assert_eq!(c.iter().next_back(), Some(&13));
    let s: &[i32] = c.as_ref();
    assert_eq!(s.len(), 5);
}

#[test]
fn drain_truncate_pop_clear_and_capacity() {
    let t = Tracker::new();
    let mut c = coll(&t, 0..8);
    let drained: Vec<Elem> = c.drain(1..3).collect();
    assert_eq!(vals(&drained), [1, 2]);
    assert_eq!(vals(&c), [0, 3, 4, 5, 6, 7]);
    drop(c.drain(4..)); // unconsumed: dropped once
    assert_eq!(vals(&c), [0, 3, 4, 5]);
    assert_eq!((t.drops(6), t.drops(7)), (1, 1));
    c.truncate(3);
    assert_eq!(t.drops(5), 1);
    c.truncate(10);
    assert_eq!(vals(&c), [0, 3, 4]);
    let last = c.pop().unwrap();
    assert_eq!(last.val, 4);
    assert_eq!(c.len(), 2);
    t.assert_live_exactly(&[0, 1, 2, 3, 4]);
    drop((last, drained));
    c.clear();
    assert!(c.is_empty());
    assert!(c.pop().is_none());
    t.assert_all_dropped_once();

    let mut d: ReadWriteCollection<u8> = ReadWriteCollection::with_capacity(10);
    assert!(d.capacity() >= 10);
    d.push(1);
    d.shrink_to_fit();
    assert_eq!(d.capacity(), 1);
    d.reserve(5);
    assert!(d.capacity() >= 6);
    let dflt: ReadWriteCollection<u8> = ReadWriteCollection::default();
    assert!(dflt.is_empty() && dflt.capacity() == 0);
}

#[test]
fn catch_unwind_around_a_whole_pass_with_assert_unwind_safe() {
    // The shape a user would write: the collection survives the panic.
    let t = Tracker::new();
    let mut c = coll(&t, 0..3);
    let r = catch_unwind(AssertUnwindSafe(|| {
        c.traverse(|e| {
            if e.val == 1 {
                panic!("in traverse");
            }
        });
    }));
    assert!(r.is_err());
    assert_eq!(vals(&c), [0, 1, 2]);
    assert_eq!(t.live(), 3);
}

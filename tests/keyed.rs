//! `KeyedCollection`: the cases its model (`tests/keyed_fuzz_replay.rs`)
//! does not reach: slot reuse, custom keys, a panicking `Drop` in `clear`,
//! leaked cursors, panics mid-pass and in the policy.

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};

use common::{Elem, Tracker};
use read_write_collection::keyed::Key;
use read_write_collection::{new_key_type, KeyedCollection};

/// Slots are reused with a new version: the old key stays stale.
#[test]
fn a_reused_slot_does_not_answer_to_the_old_key() {
    let mut c = KeyedCollection::new();
    let a = c.push("a");
    c.remove(a);
    let b = c.push("b");
    // Slot 0 both times, versions 1 and 3.
    assert_eq!(format!("{:?} {:?}", a.data(), b.data()), "0v1 0v3");
    assert_ne!(a, b);
    assert_eq!(c.get(a), None);
    assert_eq!(c.get(b), Some(&"b"));
}

new_key_type! {
    /// A key type of the tests'.
    pub struct Custom;
}

/// A custom key type works as the default one, and prints as a map.
#[test]
fn custom_keys_and_debug() {
    let mut c: KeyedCollection<char, Custom> = KeyedCollection::with_key();
    let a = c.push('a');
    let b = c.push('b');
    assert_eq!((c[a], c[b]), ('a', 'b'));
    c[b] = 'B';
    assert_eq!(format!("{c:?}"), "{Custom(0v1): 'a', Custom(1v1): 'B'}");
    let copy = c.clone();
    assert_eq!(copy[b], 'B');
    assert_eq!(std::mem::size_of::<Option<Custom>>(), 8);
}

/// A panic in an element's `Drop` during `clear` leaves every key stale
/// and every element dropped once.
#[test]
fn clear_with_a_panicking_drop() {
    let t = Tracker::new();
    let mut c = KeyedCollection::new();
    let keys: Vec<_> = [t.elem(1), t.bomb(2), t.elem(3)]
        .into_iter()
        .map(|e| c.push(e))
        .collect();
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| c.clear()));
    assert!(caught.is_err());
    assert!(c.is_empty());
    assert!(keys.iter().all(|&k| !c.contains_key(k)));
    drop(c);
    t.assert_all_dropped_once();
}

/// A leaked cursor (`mem::forget`) leaks its elements and leaves the
/// collection empty; no key it handed out ever answers again, not even
/// for the elements pushed after it into the same slots.
#[test]
fn a_leaked_cursor_leaves_every_key_stale() {
    let t = Tracker::new();
    let mut c = KeyedCollection::new();
    let old: Vec<_> = (0..4).map(|v| c.push(t.elem(v))).collect();
    let mut cursor = c.cursor();
    cursor.next().expect("an element").remove();
    let pushed = cursor.push(t.elem(9));
    assert!(cursor.next().is_some());
    std::mem::forget(cursor);
    assert!(c.is_empty());
    assert_eq!(
        t.live(),
        4,
        "the cursor's elements leak (removed one dropped)"
    );
    let old: Vec<_> = old.into_iter().chain([pushed]).collect();
    let stale = |c: &KeyedCollection<Elem>| {
        old.iter()
            .all(|&k| !c.contains_key(k) && c.get(k).is_none() && c.index_of(k).is_none())
    };
    assert!(stale(&c));
    assert_eq!(
        (c.keys().count(), c.key_at(0), c.iter().count()),
        (0, None, 0)
    );
    // The next change recovers: new elements reuse the slots, under new versions.
    let fresh: Vec<_> = (0..5).map(|v| c.push(t.elem(20 + v))).collect();
    assert!(stale(&c));
    assert!(fresh
        .iter()
        .enumerate()
        .all(|(i, &k)| c.index_of(k) == Some(i)));
    // And a pass runs as usual.
    c.traverse(|e| {
        if e.val % 2 == 1 {
            e.remove();
        }
    });
    assert!(c.values().map(|e| e.val).eq([20, 22, 24]));
    assert!(stale(&c));
}

/// The same recovery when the first thing after the leak is another
/// pass, a removal by key or `clear`.
#[test]
fn every_change_after_a_leaked_cursor_recovers() {
    for first in 0..3 {
        let mut c = KeyedCollection::new();
        let k = c.push(1);
        std::mem::forget(c.cursor());
        match first {
            0 => c.traverse(|_| unreachable!("the collection is empty")),
            1 => assert_eq!(c.remove(k), None),
            _ => c.clear(),
        }
        let again = c.push(2);
        assert_eq!((c.get(k), c.get(again)), (None, Some(&2)));
        assert_eq!(c.len(), 1);
    }
}

/// A panic mid-pass keeps the held element and the unvisited ones, in
/// order, with their keys; the pushed ones too.
#[test]
fn a_panic_mid_pass_keeps_every_key() {
    let t = Tracker::new();
    let mut c = KeyedCollection::new();
    let keys: Vec<_> = (0..5).map(|v| c.push(t.elem(v))).collect();
    let mut pushed = None;
    let caught = catch_unwind(AssertUnwindSafe(|| {
        c.traverse(|mut e| match e.val {
            0 | 1 => drop(e.remove()),
            2 => pushed = Some(e.push(t.elem(7))),
            _ => panic!("mid-pass"),
        })
    }));
    assert!(caught.is_err());
    assert!(c.values().map(|e| e.val).eq([2, 3, 4, 7]));
    let pushed = pushed.expect("pushed before the panic");
    assert_eq!(c.index_of(pushed), Some(3));
    for (i, &k) in keys[2..].iter().enumerate() {
        assert_eq!(c.index_of(k), Some(i));
    }
    assert!(!c.contains_key(keys[0]) && !c.contains_key(keys[1]));
    drop(c);
    t.assert_all_dropped_once();
}

/// A predicate or a hook that panics, mid-pass or in the cursor's drop,
/// leaves every key naming its element and every element dropped once.
#[test]
fn a_panicking_policy_leaves_the_keys_right() {
    use std::cell::Cell;
    // (the hook panics, not the predicate; the value that panics; break
    // right after the held element takes that value, so that the
    // cursor's drop asks the policy about it)
    for (panic_in_hook, at, stop) in [
        (false, 3, false),
        (true, 3, false),
        (false, 6, false),
        (true, 6, false),
        (false, 9, true),
        (true, 9, true),
    ] {
        let t = Tracker::new();
        let armed = Cell::new(true);
        let boom = |v: i64| armed.get() && v == at;
        let mut c = KeyedCollection::with_auto_remove(|e: &Elem| {
            assert!(panic_in_hook || !boom(e.val), "the predicate panics");
            e.val % 3 == 0
        })
        .with_removal_hook(|_, e: Elem| assert!(!panic_in_hook || !boom(e.val), "the hook panics"));
        let keys: Vec<_> = (0..8).map(|v| c.push(t.elem(v))).collect();
        let caught = catch_unwind(AssertUnwindSafe(|| {
            let mut cursor = c.cursor();
            while let Some(mut e) = cursor.next() {
                if e.val == 4 {
                    e.val = at; // checked again when the cursor moves on
                    if stop {
                        break;
                    }
                }
            }
        }));
        assert!(caught.is_err(), "{panic_in_hook} {at} {stop}");
        armed.set(false);
        for (i, (k, e)) in c.iter().enumerate() {
            assert_eq!(c.index_of(k), Some(i));
            assert_eq!(
                keys.iter().position(|&o| o == k).map(|_| e.id()),
                Some(e.id())
            );
        }
        assert!(keys.iter().filter(|&&k| c.contains_key(k)).count() == c.len());
        c.traverse(|_| {});
        assert!(c.values().all(|e| e.val % 3 != 0));
        drop(c);
        t.assert_all_dropped_once();
    }
}

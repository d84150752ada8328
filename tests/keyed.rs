//! `KeyedCollection` outside a pass, against an obviously correct model:
//! an ordered `Vec` of (key, element) plus every key ever handed out.
//! After every operation the order, the contents and every key's answer
//! (live or stale) match, and every element is dropped exactly once.

mod common;

use std::collections::HashSet;

use common::{Elem, Tracker};
use quickcheck::{Arbitrary, Gen, QuickCheck};
use read_write_collection::keyed::{DefaultKey, Key};
use read_write_collection::{new_key_type, KeyedCollection};

#[derive(Clone, Debug)]
enum Op {
    Push(i8),
    /// Remove by the `n`th key ever handed out (maybe stale).
    Remove(u8),
    /// Change the element of the `n`th key through `get_mut`.
    Bump(u8),
    Clear,
}

impl Arbitrary for Op {
    fn arbitrary(g: &mut Gen) -> Self {
        match u8::arbitrary(g) % 16 {
            0..=6 => Op::Push(i8::arbitrary(g)),
            7..=11 => Op::Remove(u8::arbitrary(g)),
            12..=14 => Op::Bump(u8::arbitrary(g)),
            _ => Op::Clear,
        }
    }
}

/// Runs `ops` on a collection and on the model, comparing after each.
fn run(ops: &[Op]) {
    let t = Tracker::new();
    let mut c: KeyedCollection<Elem> = KeyedCollection::new();
    let mut model: Vec<(DefaultKey, u32, i64)> = Vec::new();
    let mut issued: Vec<DefaultKey> = Vec::new();
    for op in ops {
        match *op {
            Op::Push(v) => {
                let e = t.elem(i64::from(v));
                let id = e.id();
                let k = c.push(e);
                assert!(!issued.contains(&k), "a key is never handed out twice");
                issued.push(k);
                model.push((k, id, i64::from(v)));
            }
            Op::Remove(n) if !issued.is_empty() => {
                let k = issued[n as usize % issued.len()];
                let expected = model.iter().position(|m| m.0 == k);
                let got = c.remove(k);
                match expected {
                    Some(i) => {
                        let (_, id, _) = model.remove(i);
                        assert_eq!(got.map(|e| e.id()), Some(id), "removed element");
                    }
                    None => assert!(got.is_none(), "a stale key removed something"),
                }
            }
            Op::Bump(n) if !issued.is_empty() => {
                let k = issued[n as usize % issued.len()];
                let live = model.iter_mut().find(|m| m.0 == k);
                match (c.get_mut(k), live) {
                    (Some(e), Some(m)) => {
                        e.val += 1;
                        m.2 += 1;
                    }
                    (None, None) => {}
                    (got, want) => panic!("get_mut: {got:?} against {want:?}"),
                }
            }
            Op::Remove(_) | Op::Bump(_) => {}
            Op::Clear => {
                c.clear();
                model.clear();
            }
        }
        check(&c, &model, &issued);
    }
    drop(c);
    t.assert_all_dropped_once();
}

fn check(c: &KeyedCollection<Elem>, model: &[(DefaultKey, u32, i64)], issued: &[DefaultKey]) {
    assert_eq!(c.len(), model.len());
    let got: Vec<(DefaultKey, u32, i64)> = c.iter().map(|(k, e)| (k, e.id(), e.val)).collect();
    assert_eq!(got, model, "keys and elements, in order");
    assert!(c.keys().eq(model.iter().map(|m| m.0)), "keys()");
    assert!(
        c.values().map(Elem::id).eq(model.iter().map(|m| m.1)),
        "values()"
    );
    for (i, m) in model.iter().enumerate() {
        assert_eq!(c.key_at(i), Some(m.0), "key_at({i})");
    }
    assert_eq!(c.key_at(model.len()), None);
    let live: HashSet<DefaultKey> = model.iter().map(|m| m.0).collect();
    for &k in issued {
        let at = model.iter().position(|m| m.0 == k);
        assert_eq!(c.index_of(k), at, "index_of({k:?})");
        assert_eq!(c.contains_key(k), live.contains(&k));
        assert_eq!(c.get(k).map(Elem::id), at.map(|i| model[i].1), "get({k:?})");
    }
}

#[test]
fn keys_and_order_match_the_model() {
    fn prop(ops: Vec<Op>) -> bool {
        run(&ops);
        true
    }
    let tests = if cfg!(miri) { 4 } else { 300 };
    QuickCheck::new()
        .tests(tests)
        .quickcheck(prop as fn(Vec<Op>) -> bool);
}

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

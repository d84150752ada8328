//! The `Vec` and `arrayvec` surface: `Vec`'s documented examples for each
//! method, written again against `ReadWriteCollection` (same inputs, same
//! asserts); comparisons in both directions; the bound through every
//! growing method; panics in user closures and in `Clone`; the shared
//! methods on a `BufferedCollection`'s visible side.

mod common;

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};

use common::{ids, Tracker};
use read_write_collection::{BufferedCollection, CapacityError, ReadWriteCollection};

type C<T> = ReadWriteCollection<T>;

// ------------------------------------------------ Vec's examples, ported

#[test]
fn vec_examples_dedup() {
    let mut vec: C<i32> = vec![1, 2, 2, 3, 2].into();
    vec.dedup();
    assert_eq!(vec, [1, 2, 3, 2]);

    let mut vec: C<i32> = vec![10, 20, 21, 30, 20].into();
    vec.dedup_by_key(|i| *i / 10);
    assert_eq!(vec, [10, 20, 30, 20]);

    let mut vec: C<&str> = vec!["foo", "bar", "Bar", "baz", "bar"].into();
    vec.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
    assert_eq!(vec, ["foo", "bar", "baz", "bar"]);
}

#[test]
fn vec_examples_splice_append_split_off() {
    let mut v: C<i32> = vec![1, 2, 3, 4].into();
    let new = [7, 8, 9];
    let u: Vec<_> = v.splice(1..3, new).collect();
    assert_eq!(v, [1, 7, 8, 9, 4]);
    assert_eq!(u, [2, 3]);

    let mut v: C<i32> = vec![1, 5].into();
    let new = [2, 3, 4];
    v.splice(1..1, new);
    assert_eq!(v, [1, 2, 3, 4, 5]);

    let mut vec: C<i32> = vec![1, 2, 3].into();
    let mut vec2: C<i32> = vec![4, 5, 6].into();
    vec.append(&mut vec2);
    assert_eq!(vec, [1, 2, 3, 4, 5, 6]);
    assert_eq!(vec2, []);

    let mut vec: C<char> = vec!['a', 'b', 'c'].into();
    let vec2 = vec.split_off(1);
    assert_eq!(vec, ['a']);
    assert_eq!(vec2, ['b', 'c']);
}

#[test]
fn vec_examples_extend_resize() {
    let mut vec: C<i32> = vec![1].into();
    vec.extend_from_slice(&[2, 3, 4]);
    assert_eq!(vec, [1, 2, 3, 4]);

    let mut vec: C<&str> = vec!["hello"].into();
    vec.resize(3, "world");
    assert_eq!(vec, ["hello", "world", "world"]);

    let mut vec: C<char> = vec!['a', 'b', 'c', 'd'].into();
    vec.resize(2, '_');
    assert_eq!(vec, ['a', 'b']);

    let mut vec: C<i32> = vec![1, 2, 3].into();
    vec.resize_with(5, Default::default);
    assert_eq!(vec, [1, 2, 3, 0, 0]);

    let mut vec: C<i32> = C::new();
    let mut p = 1;
    vec.resize_with(4, || {
        p *= 2;
        p
    });
    assert_eq!(vec, [2, 4, 8, 16]);
}

#[test]
fn vec_examples_capacity() {
    let mut vec: C<i32> = vec![1].into();
    vec.reserve_exact(10);
    assert!(vec.capacity() >= 11);

    // `try_reserve` / `try_reserve_exact`: the `process_data` example.
    fn process_data(
        data: &[u32],
        exact: bool,
    ) -> Result<C<u32>, std::collections::TryReserveError> {
        let mut output = C::new();
        if exact {
            output.try_reserve_exact(data.len())?;
        } else {
            output.try_reserve(data.len())?;
        }
        output.extend(data.iter().map(|&val| val * 2 + 5));
        Ok(output)
    }
    assert_eq!(process_data(&[1, 2, 3], false).unwrap(), [7, 9, 11]);
    assert_eq!(process_data(&[1, 2, 3], true).unwrap(), [7, 9, 11]);
    let mut huge: C<u64> = C::new();
    assert!(huge.try_reserve(usize::MAX).is_err());
    assert!(huge.try_reserve_exact(usize::MAX / 4).is_err());

    let mut vec: C<i32> = Vec::with_capacity(10).into();
    vec.extend([1, 2, 3]);
    assert!(vec.capacity() >= 10);
    vec.shrink_to(4);
    assert!(vec.capacity() >= 4);
    vec.shrink_to(0);
    assert!(vec.capacity() >= 3);

    // `spare_capacity_mut`: the slots are there (this crate has no
    // `set_len`, so they stay spare).
    let mut v: C<usize> = C::with_capacity(10);
    let uninit = v.spare_capacity_mut();
    assert!(uninit.len() >= 10);
    uninit[0].write(0);
    assert!(v.is_empty());
}

#[test]
fn vec_examples_pop_if_extract_if() {
    let mut vec: C<i32> = vec![1, 2, 3, 4].into();
    let pred = |x: &mut i32| *x % 2 == 0;
    assert_eq!(vec.pop_if(pred), Some(4));
    assert_eq!(vec, [1, 2, 3]);
    assert_eq!(vec.pop_if(pred), None);

    let mut numbers: C<i32> = vec![1, 2, 3, 4, 5, 6, 8, 9, 11, 13, 14, 15].into();
    let evens = numbers.extract_if(.., |x| *x % 2 == 0).collect::<Vec<_>>();
    let odds = numbers;
    assert_eq!(evens, vec![2, 4, 6, 8, 14]);
    assert_eq!(odds, vec![1, 3, 5, 9, 11, 13, 15]);

    let mut items: C<i32> = vec![0, 0, 0, 0, 0, 0, 0, 1, 2, 1, 2, 1, 2].into();
    let ones = items.extract_if(7.., |x| *x == 1).collect::<Vec<_>>();
    assert_eq!(items, vec![0, 0, 0, 0, 0, 0, 0, 2, 2, 2]);
    assert_eq!(ones.len(), 3);
}

#[test]
fn extract_if_may_change_kept_elements_and_stops_lazily() {
    let mut c: C<i32> = (1..=6).collect();
    let mut it = c.extract_if(1..5, |x| {
        *x *= 10;
        *x == 30
    });
    assert_eq!(it.size_hint(), (0, Some(4)));
    assert_eq!(it.next(), Some(30));
    assert_eq!(format!("{it:?}"), "ExtractIf { remaining: [4, 5], .. }");
    drop(it);
    assert_eq!(c, [1, 20, 4, 5, 6]);
}

#[test]
#[should_panic(expected = "out of range")]
fn extract_if_checks_the_range() {
    let mut c: C<i32> = (1..=3).collect();
    let _ = c.extract_if(1..4, |_| true);
}

// -------------------------------------------------------------- comparisons

#[test]
// Both orders are the point: each side is a different impl.
#[allow(clippy::nonminimal_bool, clippy::op_ref)]
fn comparisons_in_both_directions() {
    let c: C<i32> = vec![1, 2, 3].into();
    let v = vec![1, 2, 3];
    let a = [1, 2, 3];
    let s: &[i32] = &a;
    let mut m = [1, 2, 3];

    assert!(c == v && v == c);
    assert!(c == a && a == c);
    assert!(c == &a && &a == c);
    assert!(c == s && s == c);
    assert!(c == *s && *s == c);
    assert!(c == &mut m[..] && &mut m[..] == c);
    assert!(c != [1, 2] && [1, 2, 4] != c);
    assert_eq!(v, c);
    // Element types may differ, as with `Vec`.
    let strings: C<String> = vec!["a".to_string()].into();
    assert!(strings == ["a"] && vec!["a".to_string()] == strings);
}

// ---------------------------------------------------------------- the bound

fn full(max: usize) -> C<i32> {
    let mut c = C::bounded(max);
    c.extend(0..max as i32);
    c
}

/// Runs `f`, which must panic and leave `c` as it was.
fn panics_unchanged(c: &mut C<i32>, f: impl FnOnce(&mut C<i32>)) {
    let before = c.to_vec();
    let r = catch_unwind(AssertUnwindSafe(|| f(c)));
    let payload = r.expect_err("a growing call past the bound must panic");
    let msg = payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    assert!(
        msg.contains("maximum length") || msg.contains("full bounded"),
        "message: {msg}"
    );
    assert_eq!(*c, before);
    assert!(c.capacity() <= c.max_len().unwrap());
}

#[test]
fn growing_methods_never_pass_the_bound() {
    let mut c = full(4);
    assert!(c.is_full());
    assert_eq!(c.remaining_capacity(), 0);
    assert_eq!(c.try_insert(0, 9), Err(CapacityError::new(9)));
    assert!(c.try_extend_from_slice(&[9]).is_err());
    assert_eq!(c.try_extend([9, 10]).unwrap_err().element(), 9);
    panics_unchanged(&mut c, |c| c.extend_from_slice(&[9]));
    panics_unchanged(&mut c, |c| c.resize(5, 9));
    panics_unchanged(&mut c, |c| c.resize_with(5, || 9));
    panics_unchanged(&mut c, |c| drop(c.splice(0..1, [7, 8])));
    panics_unchanged(&mut c, |c| c.append(&mut vec![9].into()));
    panics_unchanged(&mut c, |c| c.insert(0, 9));
    panics_unchanged(&mut c, |c| c.push(9));
    c.reserve(100);
    c.reserve_exact(100);
    assert!(c.try_reserve(100).is_err());
    assert!(c.try_reserve_exact(100).is_err());
    c.try_reserve(0).unwrap();
    c.try_reserve_exact(0).unwrap();
    assert_eq!(c.capacity(), 4);
    assert!(c.spare_capacity_mut().is_empty());

    // What fits goes in; a splice that does not grow is always fine.
    let mut c = C::bounded(5);
    c.extend_from_slice(&[1, 2]);
    c.resize(3, 3);
    c.resize_with(4, || 4);
    assert_eq!(c.splice(0..1, [0, 1]).collect::<Vec<_>>(), [1]);
    assert_eq!(c, [0, 1, 2, 3, 4]);
    assert_eq!(c.splice(.., [9]).count(), 5);
    assert_eq!(c, [9]);
    let mut other: C<i32> = vec![1, 2, 3, 4].into();
    c.append(&mut other);
    assert!(other.is_empty());
    assert!(c.is_full());
    assert!(c.capacity() <= 5);
}

#[test]
fn append_panic_moves_nothing() {
    let mut c = full(2);
    let mut other: C<i32> = vec![7, 8].into();
    let r = catch_unwind(AssertUnwindSafe(|| c.append(&mut other)));
    assert!(r.is_err());
    assert_eq!(other, [7, 8]);
    assert_eq!(c, [0, 1]);
}

#[test]
fn bounded_from_iter_reports_overflow() {
    let c = C::bounded_from_iter(3, 1..=3).unwrap();
    assert_eq!((c.as_slice(), c.max_len()), (&[1, 2, 3][..], Some(3)));

    let mut source = 1..=6;
    let err = C::bounded_from_iter(3, source.by_ref()).unwrap_err();
    let (c, rejected) = err.element();
    assert_eq!(c, [1, 2, 3]);
    assert_eq!(c.max_len(), Some(3));
    assert_eq!(rejected, 4);
    assert_eq!(source.collect::<Vec<_>>(), [5, 6]);

    let c = C::<u8>::bounded_from_iter(0, std::iter::empty()).unwrap();
    assert!(c.is_full());
}

#[test]
fn capacity_error_like_arrayvec() {
    let err: CapacityError<String> = CapacityError::new("x".to_string());
    assert_eq!(err.element_ref(), "x");
    assert_eq!(err.clone().element(), "x");
    assert_eq!(err.clone().into_inner(), "x");
    let simple: CapacityError = err.simplify();
    assert_eq!(simple, CapacityError::new(()));
    assert_eq!(
        simple.to_string(),
        "the collection is at its maximum length"
    );
    let boxed: Box<dyn std::error::Error> = Box::new(simple);
    assert!(!boxed.to_string().is_empty());
}

#[test]
fn remaining_capacity_is_not_capacity() {
    let mut c: C<u8> = C::bounded(100);
    c.push(1);
    assert_eq!(c.remaining_capacity(), 99);
    assert!(c.capacity() < 100); // the allocation grows lazily
    let u: C<u8> = vec![1, 2].into();
    assert_eq!(u.remaining_capacity(), usize::MAX - 2);
    assert!(!u.is_full());
}

// ------------------------------------------------------ panics in user code

/// An element whose `clone` panics when `val` is negative.
#[derive(Debug)]
struct CloneBomb {
    id: u32,
    val: i32,
    drops: std::rc::Rc<Cell<u32>>,
}

impl Clone for CloneBomb {
    fn clone(&self) -> Self {
        assert!(self.val >= 0, "clone bomb");
        self.drops.set(self.drops.get());
        CloneBomb {
            id: self.id + 1000,
            val: self.val,
            drops: self.drops.clone(),
        }
    }
}

impl Drop for CloneBomb {
    fn drop(&mut self) {
        self.drops.set(self.drops.get() + 1);
    }
}

#[test]
fn clone_panic_in_extend_from_slice_keeps_the_clones_before_it() {
    let drops = std::rc::Rc::new(Cell::new(0));
    let mk = |id, val| CloneBomb {
        id,
        val,
        drops: drops.clone(),
    };
    for bounded in [false, true] {
        drops.set(0);
        let mut c: C<CloneBomb> = if bounded { C::bounded(10) } else { C::new() };
        c.push(mk(0, 0));
        let source = vec![mk(1, 1), mk(2, 2), mk(3, -1), mk(4, 4)];
        let r = catch_unwind(AssertUnwindSafe(|| c.extend_from_slice(&source)));
        assert!(r.is_err());
        let got: Vec<u32> = c.iter().map(|e| e.id).collect();
        assert_eq!(got, [0, 1001, 1002]);
        assert_eq!(drops.get(), 0, "nothing dropped yet");
        drop(source);
        drop(c);
        assert_eq!(drops.get(), 7, "each element and clone dropped once");
    }
}

#[test]
fn clone_panic_in_resize_keeps_the_clones_before_it() {
    let drops = std::rc::Rc::new(Cell::new(0));
    let mut c: C<CloneBomb> = C::bounded(8);
    let value = CloneBomb {
        id: 1,
        val: -1,
        drops: drops.clone(),
    };
    let r = catch_unwind(AssertUnwindSafe(|| c.resize(5, value)));
    assert!(r.is_err());
    assert!(c.is_empty());
    assert_eq!(drops.get(), 1, "the value was dropped once");
}

#[test]
fn panics_in_dedup_resize_with_extract_if_pop_if_leave_a_valid_collection() {
    let t = Tracker::new();
    let mut c: ReadWriteCollection<common::Elem> = t.elems([1, 1, 2, 2, 3]).into();

    // dedup_by: panic on the second comparison.
    let mut calls = 0;
    let r = catch_unwind(AssertUnwindSafe(|| {
        c.dedup_by(|a, b| {
            calls += 1;
            assert!(calls < 2, "boom");
            a.val == b.val
        })
    }));
    assert!(r.is_err());
    // First comparison removed the second 1; the rest is untouched.
    assert_eq!(ids(&c), [0, 2, 3, 4]);
    t.assert_live_exactly(&[0, 2, 3, 4]);

    // dedup_by_key: panic in the key function.
    let r = catch_unwind(AssertUnwindSafe(|| {
        c.dedup_by_key(|e| {
            assert!(e.val != 3, "boom");
            e.val
        })
    }));
    assert!(r.is_err());
    t.assert_live_exactly(&ids(&c));

    assert_eq!(ids(&c), [0, 2, 4]);

    // resize_with: the values made before the panic stay.
    let mut n = 0;
    let r = catch_unwind(AssertUnwindSafe(|| {
        c.resize_with(8, || {
            n += 1;
            assert!(n < 3, "boom");
            t.elem(9)
        })
    }));
    assert!(r.is_err());
    assert_eq!(c.len(), 5);
    t.assert_live_exactly(&ids(&c));

    // extract_if: the element under test is kept, order kept.
    let before = ids(&c);
    let mut out = Vec::new();
    let r = catch_unwind(AssertUnwindSafe(|| {
        for e in c.extract_if(.., |e| {
            assert!(e.val != 9, "boom");
            e.val == 2
        }) {
            out.push(e);
        }
    }));
    assert!(r.is_err());
    let out_ids = ids(&out);
    let expected: Vec<u32> = before
        .iter()
        .copied()
        .filter(|i| !out_ids.contains(i))
        .collect();
    assert_eq!(ids(&c), expected);
    let mut live = ids(&c);
    live.extend(out_ids);
    t.assert_live_exactly(&live);
    drop(out);

    // pop_if: the last element stays.
    let last = c.last().unwrap().id();
    let r = catch_unwind(AssertUnwindSafe(|| c.pop_if(|_| panic!("boom"))));
    assert!(r.is_err());
    assert_eq!(c.last().unwrap().id(), last);

    // retain: every element kept or dropped once.
    let r = catch_unwind(AssertUnwindSafe(|| {
        c.retain(|e| {
            assert!(e.val != 9, "boom");
            false
        })
    }));
    assert!(r.is_err());
    t.assert_live_exactly(&ids(&c));
    drop(c);
    t.assert_all_dropped_once();
}

// ------------------------------------------ BufferedCollection, visible side

#[test]
fn buffered_visible_side_shares_the_vec_methods() {
    let mut q: BufferedCollection<i32> = vec![1, 1, 2, 3, 4, 5, 6].into();
    q.push(100);
    q.dedup();
    assert_eq!(q.as_slice(), [1, 2, 3, 4, 5, 6]);
    assert_eq!(q.pop_if(|n| *n == 6), Some(6));
    let evens: Vec<i32> = q.extract_if(.., |n| *n % 2 == 0).collect();
    assert_eq!(evens, [2, 4]);
    let tail = q.split_off(2);
    assert_eq!(tail, [5]);
    q.shrink_to(0);
    assert_eq!(q.as_slice(), [1, 3]);
    assert_eq!(q.drain(..1).collect::<Vec<_>>(), [1]);
    q.dedup_by_key(|n| *n);
    q.truncate(5);
    assert_eq!(q.get(0), Some(&3));
    // None of it touched the pending side.
    assert_eq!(q.local_pending(), [100]);
    q.commit();
    assert_eq!(q.as_slice(), [3, 100]);
}

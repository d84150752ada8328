//! The queue's surface that needs no `std` feature: the bound on local
//! pushes, changing the bound, equality, hashing, iteration by reference and
//! `reserve`. CI also runs this file with `--no-default-features`, where the
//! bound is checked by code of its own (no producers to count).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::panic::{catch_unwind, AssertUnwindSafe};

use read_write_collection::BufferedCollection;

fn hash_of<H: Hash>(value: &H) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

/// Visible `visible`, then `pending` pushed and left pending.
fn queue(visible: &[i32], pending: &[i32]) -> BufferedCollection<i32> {
    let mut q: BufferedCollection<i32> = visible.iter().copied().collect();
    for &p in pending {
        q.push(p);
    }
    q
}

#[test]
fn bounded_local_pushes_stop_exactly_at_the_bound() {
    let mut q = BufferedCollection::bounded(3);
    assert_eq!(q.try_push(1), Ok(()));
    assert_eq!(q.try_push(2), Ok(()));
    q.commit();
    // Visible and pending count together.
    assert_eq!(q.try_push(3), Ok(()));
    assert_eq!(q.try_push(4).unwrap_err().into_inner(), 4);
    assert_eq!(q.as_slice(), [1, 2]);
    assert_eq!(q.local_pending(), [3]);
    // A removal frees one place, and only one.
    q.traverse(|e| {
        if *e == 1 {
            e.remove();
        }
    });
    assert_eq!(q.try_push(5), Ok(()));
    assert_eq!(q.try_push(6).unwrap_err().into_inner(), 6);
    q.commit();
    assert_eq!(q.as_slice(), [2, 3, 5]);
}

#[test]
fn bound_of_zero_takes_nothing() {
    let mut q = BufferedCollection::bounded(0);
    assert_eq!(q.try_push('a').unwrap_err().into_inner(), 'a');
    assert_eq!(q.pending_len(), 0);
}

#[test]
fn set_max_len_accepts_exactly_what_fits() {
    let mut q = queue(&[1, 2], &[3]);
    // Exactly the count held: accepted, and then full.
    q.set_max_len(Some(3));
    assert_eq!(q.max_len(), Some(3));
    assert_eq!(q.try_push(4).unwrap_err().into_inner(), 4);
    // Room for one more.
    q.set_max_len(Some(4));
    assert_eq!(q.try_push(4), Ok(()));
    // Below the count held: a panic, and the old bound stays.
    let err = catch_unwind(AssertUnwindSafe(|| q.set_max_len(Some(3))));
    assert!(err.is_err());
    assert_eq!(q.max_len(), Some(4));
    q.set_max_len(None);
    assert_eq!(q.max_len(), None);
    assert_eq!(q.try_push(5), Ok(()));
    assert_eq!(q.pending_len(), 3);
}

#[test]
fn equality_compares_visible_and_pending_each() {
    let a = queue(&[1, 2], &[3]);
    assert_eq!(a, queue(&[1, 2], &[3]));
    // Same visible, different pending.
    assert_ne!(a, queue(&[1, 2], &[4]));
    // Same pending, different visible.
    assert_ne!(a, queue(&[1, 9], &[3]));
    // Same elements, split differently.
    assert_ne!(a, queue(&[1], &[2, 3]));
}

#[test]
fn hash_follows_equality() {
    let a = queue(&[1, 2], &[3]);
    assert_eq!(hash_of(&a), hash_of(&queue(&[1, 2], &[3])));
    assert_ne!(hash_of(&a), hash_of(&queue(&[1, 2], &[4])));
    assert_ne!(hash_of(&a), hash_of(&queue(&[7], &[3])));
    assert_ne!(hash_of(&a), hash_of(&queue(&[1], &[2, 3])));
}

#[test]
fn iteration_by_reference_sees_the_visible_elements_only() {
    let q = queue(&[1, 2], &[3]);
    let mut seen = Vec::new();
    for x in &q {
        seen.push(*x);
    }
    assert_eq!(seen, [1, 2]);
    let mut q = q;
    for x in &mut q {
        *x *= 10;
    }
    assert_eq!(q.as_slice(), [10, 20]);
}

#[test]
fn reserve_unbounded_makes_room() {
    let mut q: BufferedCollection<u64> = BufferedCollection::new();
    q.reserve(100);
    assert!(q.capacity() >= 100);
}

#[test]
fn reserve_bounded_stops_at_the_room_the_bound_leaves() {
    let mut q = BufferedCollection::bounded(10);
    for i in 0..4 {
        q.push(i);
    }
    q.commit();
    q.shrink_to_fit();
    assert_eq!(q.capacity(), 4);
    q.push(4);
    q.push(5);
    // 4 visible and 2 pending: room for 4 more visible elements.
    q.reserve(100);
    assert!(q.capacity() >= 8, "capacity {}", q.capacity());
    assert!(q.capacity() <= 10, "capacity {}", q.capacity());
    // Asking for less than the room reserves at least that.
    let mut q = BufferedCollection::bounded(100);
    q.push(0u8);
    q.commit();
    q.shrink_to_fit();
    q.reserve(5);
    assert!(q.capacity() >= 6);
}

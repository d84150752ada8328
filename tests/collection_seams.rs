//! Where the parts meet: `Layers` as a collection like the others (`==`,
//! `Hash`, `iter`, layers built from the key's count), builder steps in
//! either order, `try_reserve` on a bounded collection, `CapacityError`'s
//! `Debug`, the sink entries' removals, a `Vec` given settings without a
//! copy, and state shared by a sink and a loop body.

use std::cell::{Cell, RefCell};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::panic::{catch_unwind, AssertUnwindSafe};

use read_write_collection::layers::{Iter, IterVisible};
use read_write_collection::{
    layer_keys, remove_when, AutoRemove, Builder, CapacityError, LayerKey, Layers, Mode,
    ReadWriteCollection, ShrinkPolicy, WithHook,
};

layer_keys!(
    enum Layer {
        Ground,
        Ships,
        Bullets,
        Hud,
    }
);
remove_when!(struct Spent for u32: |ttl| *ttl == 0);
remove_when!(struct Odd for u32: |n| *n % 2 == 1);

fn hash_of<T: Hash>(value: &T) -> u64 {
    let mut h = DefaultHasher::new();
    value.hash(&mut h);
    h.finish()
}

fn panic_message(f: impl FnOnce()) -> String {
    let payload = catch_unwind(AssertUnwindSafe(f)).expect_err("expected a panic");
    if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else {
        String::new()
    }
}

// ------------------------------------------------------- Layers: ==, Hash

/// Four keyed layers with elements in three of them and mixed flags.
fn sample() -> Layers<u32, Layer> {
    let mut l: Layers<u32, Layer> = Layers::default();
    l.push(Layer::Ground, 1);
    l.push(Layer::Ground, 2);
    l.push(Layer::Bullets, 30);
    l.push(Layer::Hud, 40);
    l.set_enabled(Layer::Ships, false);
    l.set_visible(Layer::Hud, false);
    l
}

#[test]
fn layers_equal_over_elements_and_flags() {
    let a = sample();
    let b = sample();
    assert_eq!(a, b);
    assert_eq!(hash_of(&a), hash_of(&b));
    assert_eq!(a.clone(), a);

    let mut other_element = sample();
    other_element.layer_mut(Layer::Bullets)[0] = 31;
    assert_ne!(a, other_element);

    // The same elements in another layer are another value.
    let mut moved = sample();
    let v = moved.layer_mut(Layer::Bullets).pop().unwrap();
    moved.push(Layer::Ships, v);
    assert_ne!(a, moved);
    assert_eq!(
        a.iter().map(|(_, v)| *v).collect::<Vec<_>>(),
        [1, 2, 30, 40]
    );
    assert_eq!(
        moved.iter().map(|(_, v)| *v).collect::<Vec<_>>(),
        [1, 2, 30, 40]
    );

    let mut enabled = sample();
    enabled.set_enabled(Layer::Ships, true);
    assert_ne!(a, enabled);
    assert_ne!(hash_of(&a), hash_of(&enabled));

    let mut visible = sample();
    visible.set_visible(Layer::Hud, true);
    assert_ne!(a, visible);
    assert_ne!(hash_of(&a), hash_of(&visible));

    // Flags of empty layers count too.
    let mut empty_a: Layers<u32> = Layers::new(2);
    let empty_b: Layers<u32> = Layers::new(2);
    assert_eq!(empty_a, empty_b);
    empty_a.set_visible(1, false);
    assert_ne!(empty_a, empty_b);
}

#[test]
fn layers_equality_ignores_settings_and_policies() {
    // Bounds, modes and shrink policies are settings, as for one collection.
    let mut bounded: ReadWriteCollection<u32> = ReadWriteCollection::bounded(8);
    bounded.set_mode(Mode::Unordered);
    bounded.set_shrink_policy(Some(ShrinkPolicy::new(10, 2)));
    let mut a: Layers<u32> = Layers::from_collections([bounded, ReadWriteCollection::new()]);
    let mut b: Layers<u32> = Layers::new(2);
    a.push(0, 5);
    b.push(0, 5);
    assert_eq!(a, b);
    assert_eq!(hash_of(&a), hash_of(&b));

    // Policies may differ, in value and in type.
    let with_policy: Layers<u32, usize, Spent> = Builder::new().policy(Spent).build_layers(2);
    let mut with_policy = with_policy;
    with_policy.push(0, 5);
    assert!(with_policy == a);
    assert!(a == with_policy);
}

#[test]
fn layers_with_another_number_of_layers_differ() {
    let mut two: Layers<u32> = Layers::new(2);
    let mut three: Layers<u32> = Layers::new(3);
    two.push(0, 1);
    three.push(0, 1);
    assert_ne!(two, three);
    assert_ne!(hash_of(&two), hash_of(&three));
    // Where the layer boundaries are is part of the value: [[1], []] and
    // [[], [1]] hold the same elements.
    let mut first: Layers<u32> = Layers::new(2);
    let mut second: Layers<u32> = Layers::new(2);
    first.push(0, 1);
    second.push(1, 1);
    assert_ne!(first, second);
    assert_ne!(hash_of(&first), hash_of(&second));
}

// ------------------------------------------------------------ Layers::iter

#[test]
fn iter_walks_every_layer_whatever_the_flags() {
    let l = sample();
    let all: Vec<(Layer, u32)> = l.iter().map(|(k, v)| (k, *v)).collect();
    assert_eq!(
        all,
        [
            (Layer::Ground, 1),
            (Layer::Ground, 2),
            (Layer::Bullets, 30),
            (Layer::Hud, 40)
        ]
    );
    // `iter_visible` skips the hidden layer and only that.
    let drawn: Vec<(Layer, u32)> = l.iter_visible().map(|(k, v)| (k, *v)).collect();
    assert_eq!(
        drawn,
        [(Layer::Ground, 1), (Layer::Ground, 2), (Layer::Bullets, 30)]
    );
    // `&Layers` iterates like `iter`.
    let mut by_ref = Vec::new();
    for (k, v) in &l {
        by_ref.push((k, *v));
    }
    assert_eq!(by_ref, all);

    let mut every_flag_off = sample();
    for key in Layer::ALL {
        every_flag_off.set_enabled(key, false);
        every_flag_off.set_visible(key, false);
    }
    assert_eq!(every_flag_off.iter().count(), 4);
    assert_eq!(every_flag_off.iter_visible().count(), 0);
}

#[test]
fn iter_is_exact_size_double_ended_and_fused() {
    let l = sample();
    let mut it: Iter<'_, u32, Layer> = l.iter();
    assert_eq!(it.len(), 4);
    assert_eq!(it.size_hint(), (4, Some(4)));
    assert_eq!(it.next_back(), Some((Layer::Hud, &40)));
    assert_eq!(it.next(), Some((Layer::Ground, &1)));
    assert_eq!(it.len(), 2);
    let rest = it.clone();
    assert_eq!(it.next_back(), Some((Layer::Bullets, &30)));
    assert_eq!(it.next_back(), Some((Layer::Ground, &2))); // reaches into the front layer
    assert_eq!(it.len(), 0);
    assert_eq!(it.next(), None);
    assert_eq!(it.next_back(), None);
    assert_eq!(it.next(), None);
    // The clone went on independently.
    assert_eq!(rest.rev().map(|(_, v)| *v).collect::<Vec<_>>(), [30, 2]);

    let mut vis: IterVisible<'_, u32, Layer> = l.iter_visible();
    assert_eq!(vis.len(), 3);
    assert_eq!(vis.next_back(), Some((Layer::Bullets, &30)));
    assert_eq!(vis.len(), 2);
    assert_eq!(vis.next(), Some((Layer::Ground, &1)));
    assert_eq!(vis.next(), Some((Layer::Ground, &2)));
    assert_eq!(vis.next(), None);
    assert_eq!(vis.next_back(), None);

    let empty: Layers<u32> = Layers::new(3);
    assert_eq!(empty.iter().len(), 0);
    assert_eq!(empty.iter().next_back(), None);
    let none: Layers<u32> = Layers::new(0);
    assert_eq!(none.iter().next(), None);
}

/// Every interleaving of `next` and `next_back`, driven by a fixed
/// pseudo-random sequence, against a flat `Vec` of the same items.
#[test]
fn iter_from_both_ends_matches_a_flat_model() {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut rand = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for round in 0..200 {
        let count = (rand() % 5) as usize;
        let mut l: Layers<u32> = Layers::new(count);
        for key in 0..count {
            for _ in 0..rand() % 4 {
                l.push(key, (rand() % 100) as u32);
            }
            l.set_visible(key, rand() % 3 != 0);
            l.set_enabled(key, rand() % 2 == 0);
        }
        for visible_only in [false, true] {
            let mut model: Vec<(usize, u32)> = (0..count)
                .filter(|&k| !visible_only || l.is_visible(k))
                .flat_map(|k| l.layer(k).iter().map(move |v| (k, *v)))
                .collect();
            let mut got_front = Vec::new();
            let mut got_back = Vec::new();
            let mut all: Box<dyn DoubleEndedIterator<Item = (usize, &u32)>> = if visible_only {
                Box::new(l.iter_visible())
            } else {
                Box::new(l.iter())
            };
            let mut len = model.len();
            loop {
                let item = if rand() % 2 == 0 {
                    all.next().inspect(|x| got_front.push(*x))
                } else {
                    all.next_back().inspect(|x| got_back.push(*x))
                };
                if item.is_none() {
                    break;
                }
                len -= 1;
                assert_eq!(all.size_hint(), (len, Some(len)), "round {round}");
            }
            assert_eq!(len, 0, "round {round}");
            got_back.reverse();
            let got: Vec<(usize, u32)> = got_front
                .into_iter()
                .chain(got_back)
                .map(|(k, v)| (k, *v))
                .collect();
            assert_eq!(got, model, "round {round}, visible_only {visible_only}");
            model.clear();
        }
    }
}

/// A key type that names fewer layers than the collection has.
#[derive(Clone, Copy, Debug, PartialEq)]
struct TwoKeys(usize);

impl LayerKey for TwoKeys {
    fn index(self) -> usize {
        self.0
    }
    fn from_index(index: usize) -> Option<Self> {
        (index < 2).then_some(TwoKeys(index))
    }
}

#[test]
fn iter_needs_a_key_only_for_layers_it_yields_from() {
    let mut l: Layers<u32, TwoKeys> = Layers::new(3);
    l.push(TwoKeys(1), 1);
    // Layer 2 has no key, but it is empty: nothing to name.
    assert_eq!(l.iter().collect::<Vec<_>>(), [(TwoKeys(1), &1)]);
    assert_eq!(l.iter().rev().collect::<Vec<_>>(), [(TwoKeys(1), &1)]);
    l.push(TwoKeys(2), 9);
    let mut it = l.iter();
    assert_eq!(it.next(), Some((TwoKeys(1), &1)));
    let msg = panic_message(|| {
        let _ = it.next();
    });
    assert!(msg.contains("layer 2 has no key"), "{msg}");
    let msg = panic_message(|| {
        let _ = l.iter_visible().next_back();
    });
    assert!(msg.contains("layer 2 has no key"), "{msg}");
}

// --------------------------------------------- layers built from the key

#[test]
fn build_keyed_layers_takes_the_count_from_the_key() {
    let hooked = RefCell::new(Vec::new());
    {
        let mut l: Layers<u32, Layer, _> = Builder::new()
            .bounded(3)
            .unordered()
            .policy(Spent)
            .removal_hook(|v| hooked.borrow_mut().push(v)) // cloned into each layer
            .build_keyed_layers();
        assert_eq!(l.layer_count(), Layer::ALL.len());
        for key in Layer::ALL {
            assert_eq!(l.layer(key).max_len(), Some(3));
            assert_eq!(l.layer(key).mode(), Mode::Unordered);
            assert!(l.is_enabled(key) && l.is_visible(key));
        }
        l.push(Layer::Hud, 0);
        l.push(Layer::Hud, 1);
        l.traverse(|_, _| {});
        assert_eq!(l.layer(Layer::Hud), &[1]);
    }
    assert_eq!(hooked.into_inner(), [0]);

    // The same as the count spelled out.
    let by_count: Layers<u32, Layer, Spent> = Builder::new().policy(Spent).build_layers(4);
    let by_key: Layers<u32, Layer, Spent> = Builder::new().policy(Spent).build_keyed_layers();
    assert_eq!(by_count, by_key);
}

#[test]
fn build_keyed_layers_panics_at_once_for_keys_without_a_count() {
    let msg = panic_message(|| {
        let _: Layers<u32> = Builder::new().build_keyed_layers();
    });
    assert!(msg.contains("build_keyed_layers"), "{msg}");
    assert!(msg.contains("build_layers(count)"), "{msg}");
}

#[test]
fn build_layers_with_a_wrong_count_panics_before_building() {
    let msg = panic_message(|| {
        let _: Layers<u32, Layer, Spent> = Builder::new().policy(Spent).build_layers(3);
    });
    assert!(
        msg.contains("3 layers for a key type that names 4"),
        "{msg}"
    );
    // Index keys take any count.
    let l: Layers<u32> = Builder::new().build_layers(7);
    assert_eq!(l.layer_count(), 7);
}

// ------------------------------------------------- builder steps in order

#[test]
fn removal_hook_then_policy_keeps_the_hook() {
    let mut removed = Vec::new();
    let mut c = Builder::new()
        .removal_hook(|v| removed.push(v))
        .policy(Spent)
        .build();
    c.extend([0, 1, 0, 2]);
    assert_eq!(c.prune(), 2);
    drop(c);
    assert_eq!(removed, [0, 0]);
}

#[test]
fn both_orders_build_the_same_type_and_behave_alike() {
    type Hooked = ReadWriteCollection<u32, WithHook<Spent, fn(u32)>>;
    fn run(mut c: Hooked) -> Vec<u32> {
        c.extend([3, 0, 1]);
        c.traverse(|mut v| *v = v.saturating_sub(1));
        c.into_vec()
    }
    thread_local!(static SEEN: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) });
    fn record(v: u32) {
        SEEN.with(|s| s.borrow_mut().push(v));
    }
    let policy_first = run(Builder::new()
        .policy(Spent)
        .removal_hook(record as fn(u32))
        .build());
    let first_seen = SEEN.with(|s| s.take());
    let hook_first = run(Builder::new()
        .removal_hook(record as fn(u32))
        .policy(Spent)
        .build());
    let second_seen = SEEN.with(|s| s.take());
    assert_eq!(policy_first, hook_first);
    assert_eq!(first_seen, second_seen);
    assert_eq!(first_seen, [0, 0]); // 0 on arrival, then 1 after the decrement
}

#[test]
fn hook_first_with_auto_remove_buffered_and_layers() {
    let count = Cell::new(0);
    let hook = |_: u32| count.set(count.get() + 1);

    let mut c = Builder::new()
        .removal_hook(hook)
        .auto_remove(|v: &u32| *v > 5)
        .build();
    c.extend([1, 6, 7]);
    c.prune();
    assert_eq!(count.get(), 2);

    let mut q = Builder::new()
        .removal_hook(hook)
        .policy(Odd)
        .build_buffered();
    q.extend([1, 2, 3]);
    q.commit();
    q.prune();
    assert_eq!(count.get(), 4);
    assert_eq!(q.as_slice(), [2]);

    let mut l: Layers<u32, Layer, _> = Builder::new()
        .removal_hook(hook)
        .policy(Odd)
        .build_keyed_layers();
    l.push(Layer::Ships, 5);
    l.traverse(|_, _| {});
    assert_eq!(count.get(), 5);
}

#[test]
fn a_policy_set_after_a_policy_keeps_the_hook_and_a_second_hook_replaces_the_first() {
    let first = Cell::new(0);
    let second = Cell::new(0);
    let mut c = Builder::new()
        .policy(Odd)
        .removal_hook(|_| first.set(first.get() + 1))
        .policy(Spent) // replaces `Odd`, keeps the hook
        .build();
    c.extend([0, 1, 2]);
    c.prune();
    assert_eq!(c, [1, 2]);
    assert_eq!(first.get(), 1);

    let mut c = Builder::new()
        .policy(Spent)
        .removal_hook(|_| first.set(first.get() + 1))
        .removal_hook(|_| second.set(second.get() + 1))
        .build();
    c.extend([0, 0]);
    c.prune();
    assert_eq!((first.get(), second.get()), (1, 2));
}

#[test]
fn a_builder_without_a_hook_builds_the_bare_policy() {
    // The type is the predicate's own, as before.
    let c: ReadWriteCollection<u32, Spent> = Builder::new().policy(Spent).build();
    assert_eq!(*c.policy(), Spent);
    let plain: ReadWriteCollection<u32> = Builder::new().bounded(2).build();
    assert_eq!(plain.max_len(), Some(2));
    let _clone = Builder::<u32>::new()
        .removal_hook(drop::<u32>)
        .policy(Spent)
        .clone();
}

// ------------------------------------------------------------ try_reserve

#[test]
fn try_reserve_past_the_bound_is_an_error_and_reserves_nothing() {
    let mut c: ReadWriteCollection<u64> = ReadWriteCollection::bounded(100);
    assert!(c.try_reserve(10_000).is_err());
    assert_eq!(c.capacity(), 0);
    assert!(c.try_reserve_exact(10_000).is_err());
    assert_eq!(c.capacity(), 0);
    assert!(c.try_reserve(101).is_err());
    assert!(c.try_reserve_exact(101).is_err());

    // Up to the bound, `Ok` means the room is there.
    c.try_reserve(100).unwrap();
    assert!(c.capacity() >= 100);
    assert!(c.capacity() <= 100);

    let mut c: ReadWriteCollection<u64> = ReadWriteCollection::bounded(10);
    c.extend([1, 2, 3]);
    assert!(c.try_reserve(8).is_err());
    c.try_reserve_exact(7).unwrap();
    assert_eq!(c.capacity(), 10);
    assert_eq!(c.remaining_capacity(), 7);
    assert!(c.try_reserve(0).is_ok());
}

#[test]
fn try_reserve_past_the_bound_reports_a_capacity_overflow() {
    let mut c: ReadWriteCollection<u8> = ReadWriteCollection::bounded(1);
    let ours = c.try_reserve(2).unwrap_err();
    let vecs = Vec::<u8>::new().try_reserve(usize::MAX).unwrap_err();
    assert_eq!(ours, vecs);
    assert_eq!(ours.to_string(), vecs.to_string());
}

#[test]
fn try_reserve_unbounded_and_zero_sized_keep_vec_behaviour() {
    let mut c: ReadWriteCollection<u32> = ReadWriteCollection::new();
    c.try_reserve(50).unwrap();
    assert!(c.capacity() >= 50);
    assert!(c.try_reserve(usize::MAX).is_err());

    let mut zst: ReadWriteCollection<()> = ReadWriteCollection::bounded(3);
    assert!(zst.try_reserve(3).is_ok());
    assert!(zst.try_reserve(4).is_err());
}

// ------------------------------------------------------ CapacityError Debug

#[test]
fn capacity_error_debug_shows_the_value() {
    let mut c = ReadWriteCollection::bounded(0);
    let err = c.try_push(3).unwrap_err();
    assert_eq!(format!("{err:?}"), "CapacityError { element: 3 }");
    let mut c = ReadWriteCollection::bounded(0);
    let err = c.try_push("smoke").unwrap_err();
    assert_eq!(format!("{err:?}"), r#"CapacityError { element: "smoke" }"#);
    assert_eq!(
        format!("{err:#?}"),
        "CapacityError {\n    element: \"smoke\",\n}"
    );
    // The `unwrap` message of a failed push names the value.
    let msg = panic_message(|| ReadWriteCollection::bounded(0).try_push(7).unwrap());
    assert!(msg.contains("CapacityError { element: 7 }"), "{msg}");
    // Still an error, boxed.
    let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(CapacityError::new(5u8));
    assert_eq!(boxed.to_string(), "the collection is at its maximum length");
}

#[test]
fn capacity_error_of_a_type_without_debug_simplifies() {
    struct Opaque(#[allow(dead_code)] u8);
    let mut c = ReadWriteCollection::bounded(0);
    let err = c.try_push(Opaque(1)).unwrap_err();
    // Everything but `Debug` works as before.
    assert_eq!(err.element_ref().0, 1);
    let simple: CapacityError = err.simplify();
    assert_eq!(format!("{simple:?}"), "CapacityError { element: () }");
    let boxed: Box<dyn std::error::Error> = Box::new(simple);
    assert!(!boxed.to_string().is_empty());
    let msg = panic_message(|| {
        ReadWriteCollection::bounded(0)
            .try_push(Opaque(2))
            .map_err(CapacityError::simplify)
            .unwrap()
    });
    assert!(msg.contains("CapacityError"), "{msg}");
}

// ------------------------------------------------------ sink entry removals

#[test]
fn sink_entry_remove_to_sink_and_take() {
    let mut c: ReadWriteCollection<u32> = (1..=4).collect();
    let mut sunk = Vec::new();
    let mut taken = Vec::new();
    c.traverse_with_sink(
        |v| sunk.push(v),
        |e| match *e {
            1 => e.remove_to_sink(),
            2 => taken.push(e.take()),
            _ => {}
        },
    );
    assert_eq!(sunk, [1]);
    assert_eq!(taken, [2]);
    assert_eq!(c, [3, 4]);
}

#[test]
#[allow(deprecated)]
fn the_deprecated_sink_remove_still_sends_to_the_sink() {
    let mut c: ReadWriteCollection<u32> = (1..=3).collect();
    let mut sunk = Vec::new();
    c.traverse_with_sink(
        |v| sunk.push(v),
        |e| {
            if *e != 2 {
                e.remove()
            }
        },
    );
    assert_eq!(sunk, [1, 3]);
    assert_eq!(c, [2]);

    let mut l: Layers<u32, Layer> = Layers::default();
    l.push(Layer::Ships, 1);
    l.push(Layer::Bullets, 2);
    let mut gone = Vec::new();
    l.traverse_with_sink(
        |v| gone.push(v),
        |k, e| {
            if k == Layer::Bullets {
                e.remove()
            }
        },
    );
    assert_eq!(gone, [2]);
    assert_eq!(l.len(), 1);
}

#[test]
fn layer_sink_entry_remove_to_sink_and_take() {
    let mut l: Layers<u32, Layer> = Layers::default();
    l.push(Layer::Ground, 1);
    l.push(Layer::Ships, 2);
    l.push(Layer::Bullets, 3);
    let mut gone = Vec::new();
    let mut cursor = l.cursor_with_sink(|v| gone.push(v));
    let mut taken = Vec::new();
    while let Some(e) = cursor.next() {
        match e.layer() {
            Layer::Ground => e.remove_to_sink(),
            Layer::Ships => taken.push(e.take()),
            _ => {}
        }
    }
    drop(cursor);
    assert_eq!(gone, [1]);
    assert_eq!(taken, [2]);
    assert_eq!(l.iter().collect::<Vec<_>>(), [(Layer::Bullets, &3)]);
}

// ---------------------------------------------------- a Vec, no copy

#[test]
fn build_from_vec_keeps_the_buffer() {
    let mut v: Vec<u32> = Vec::with_capacity(16);
    v.extend([3, 0, 5, 0]);
    let ptr = v.as_ptr();
    let cap = v.capacity();
    let mut removed = Vec::new();
    {
        let mut c = Builder::new()
            .bounded(16)
            .unordered()
            .shrink_policy(ShrinkPolicy::new(10, 3))
            .policy(Spent)
            .removal_hook(|x| removed.push(x))
            .build_from_vec(v);
        assert_eq!(c.as_ptr(), ptr);
        assert_eq!(c.capacity(), cap);
        assert_eq!(c.max_len(), Some(16));
        assert_eq!(c.mode(), Mode::Unordered);
        assert_eq!(c.shrink_policy(), Some(ShrinkPolicy::new(10, 3)));
        assert_eq!(c.len(), 4);
        c.prune();
        assert_eq!(c.len(), 2);
        assert_eq!(c.as_ptr(), ptr);
        // And back, still without a copy.
        let back = c.into_vec();
        assert_eq!(back.as_ptr(), ptr);
    }
    assert_eq!(removed, [0, 0]);

    // No settings: the same as `From<Vec<T>>`.
    let v = vec![1u8, 2, 3];
    let ptr = v.as_ptr();
    let c: ReadWriteCollection<u8> = Builder::new().build_from_vec(v);
    assert_eq!(c.as_ptr(), ptr);
    assert_eq!(c, [1, 2, 3]);
}

#[test]
fn build_from_vec_grows_to_the_capacity_and_shrinks_to_the_bound() {
    let v: Vec<u32> = vec![1, 2];
    let c: ReadWriteCollection<u32> = Builder::new().capacity(32).build_from_vec(v);
    assert!(c.capacity() >= 32);
    assert_eq!(c, [1, 2]);

    // Room for more than the bound: shrunk to it, as `set_max_len` does.
    let mut v: Vec<u32> = Vec::with_capacity(64);
    v.push(1);
    let c: ReadWriteCollection<u32> = Builder::new().bounded(4).build_from_vec(v);
    assert!(c.capacity() <= 4);
    assert_eq!(c, [1]);

    // Enough room already: nothing moves.
    let mut v: Vec<u32> = Vec::with_capacity(8);
    v.extend([1, 2, 3]);
    let ptr = v.as_ptr();
    let c: ReadWriteCollection<u32> = Builder::new().capacity(8).bounded(8).build_from_vec(v);
    assert_eq!(c.as_ptr(), ptr);
}

#[test]
fn build_from_vec_longer_than_the_bound_panics() {
    let msg = panic_message(|| {
        let _: ReadWriteCollection<u32> = Builder::new().bounded(2).build_from_vec(vec![1, 2, 3]);
    });
    assert!(msg.contains("3 elements, more than the bound 2"), "{msg}");
}

// --------------------------------------- a sink and a body sharing state

#[test]
fn a_sink_and_a_body_share_state_through_fields_or_cells() {
    struct Frame {
        loot: Vec<u32>,
        moves: u32,
    }
    let mut c = ReadWriteCollection::with_auto_remove(|ttl: &u32| *ttl == 0);
    c.extend([1, 2, 3]);

    // Different fields of one struct: two closures, two borrows.
    let mut frame = Frame {
        loot: Vec::new(),
        moves: 0,
    };
    c.traverse_with_sink(
        |v| frame.loot.push(v),
        |mut e| {
            *e -= 1;
            frame.moves += 1;
        },
    );
    assert_eq!(frame.loot, [0]);
    assert_eq!(frame.moves, 3);

    // The same counter, shared through a `Cell`.
    let events = Cell::new(0);
    c.traverse_with_sink(
        |_| events.set(events.get() + 100),
        |e| {
            events.set(events.get() + 1);
            if *e == 1 {
                e.remove_to_sink();
            }
        },
    );
    assert_eq!(events.get(), 102);

    // The same `Vec`, shared through a `RefCell` on the stack.
    let log = RefCell::new(Vec::new());
    c.extend([7, 8]);
    let mut cursor = c.cursor_with_sink(|v| log.borrow_mut().push(v * 10));
    while let Some(e) = cursor.next() {
        log.borrow_mut().push(*e);
        if *e == 7 {
            e.remove_to_sink();
        }
    }
    drop(cursor);
    assert_eq!(log.into_inner(), [2, 7, 70, 8]);
    assert_eq!(c, [2, 8]);
}

#[test]
fn a_refcell_borrow_held_across_the_sink_panics_and_loses_nothing() {
    let log: RefCell<Vec<u32>> = RefCell::new(Vec::new());
    let mut c: ReadWriteCollection<u32> = (1..=3).collect();
    let result = catch_unwind(AssertUnwindSafe(|| {
        c.traverse_with_sink(
            |v| log.borrow_mut().push(v),
            |e| {
                let held = log.borrow_mut(); // still held when the sink runs
                if *e == 2 {
                    e.remove_to_sink();
                }
                drop(held);
            },
        );
    }));
    assert!(result.is_err());
    // The element given to the panicking sink was dropped by the unwinding;
    // every other one is still in the collection.
    assert_eq!(c, [1, 3]);
    assert!(log.into_inner().is_empty());
}

/// The auto-remove policy's hook and a sink both see removals; with a sink
/// set, the hook is not called (what the docs promise).
#[test]
fn a_sink_replaces_the_hook_for_its_pass() {
    struct Counting(u32);
    impl AutoRemove<u32> for Counting {
        fn should_remove(&mut self, v: &u32) -> bool {
            *v == 0
        }
        fn removed(&mut self, _: u32) {
            self.0 += 1;
        }
    }
    let mut c = ReadWriteCollection::with_policy(Counting(0));
    c.extend([0, 1]);
    let sunk = Cell::new(0);
    c.traverse_with_sink(|_| sunk.set(sunk.get() + 1), |_| {});
    assert_eq!((sunk.get(), c.policy().0), (1, 0));
}

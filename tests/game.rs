//! Game-loop features: the builder and `remove_when!`, the removal sink (`cursor_with_sink`,
//! `traverse_with_sink`) on `ReadWriteCollection`, `BufferedCollection` and
//! `Layers`, including panics in the sink (every element still in the
//! collection or dropped exactly once), and a quickcheck model of the sink's
//! output against a plain `Vec`.

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};

use common::{expect_panic, ids, vals, Elem, Tracker};
use quickcheck::{Arbitrary, Gen, QuickCheck};
use read_write_collection::{
    BufferedCollection, Builder, Layers, Mode, ReadWriteCollection, ShrinkPolicy, WithHook,
};

type Pred = fn(&Elem) -> bool;

fn expired(e: &Elem) -> bool {
    e.flag
}

/// A collection with the `expired` predicate holding `vals`, where the
/// values in `flagged` start expired.
fn with_pred(t: &Tracker, vals: &[i64], flagged: &[i64]) -> ReadWriteCollection<Elem, Pred> {
    let mut c = ReadWriteCollection::with_auto_remove(expired as Pred);
    for &v in vals {
        let e = t.elem(v);
        c.push(if flagged.contains(&v) { e.flagged() } else { e });
    }
    c
}

// ------------------------------------------------------------- ordering

#[test]
fn sink_gets_auto_and_explicit_removals_in_removal_order() {
    let t = Tracker::new();
    // 1 is expired when reached; 2 expires while held; 4 is removed
    // explicitly; 6 (pushed, expired) is removed when reached; 7 (pushed)
    // is removed explicitly; 5 expires while held and is settled by drop.
    let mut c = with_pred(&t, &[1, 2, 3, 4, 5], &[1]);
    let mut sunk = Vec::new();
    let mut seen = Vec::new();
    let mut cursor = c.cursor_with_sink(|e: Elem| sunk.push(e.val));
    while let Some(mut e) = cursor.next() {
        seen.push(e.val);
        match e.val {
            2 => e.flag = true,
            3 => {
                e.push(t.elem(6).flagged());
                e.push(t.elem(7));
            }
            4 => e.remove_to_sink(),
            5 => {
                e.flag = true;
                break;
            }
            _ => {}
        }
    }
    drop(cursor);
    assert_eq!(seen, [2, 3, 4, 5]);
    assert_eq!(sunk, [1, 2, 4, 5]);
    assert_eq!(vals(&c), [3, 6, 7]); // break: 6 and 7 unvisited, kept

    let mut sunk = Vec::new();
    c.traverse_with_sink(
        |e| sunk.push(e.val),
        |e| {
            if e.val == 7 {
                e.remove_to_sink()
            }
        },
    );
    assert_eq!(sunk, [6, 7]);
    assert_eq!(vals(&c), [3]);
    drop(c);
    t.assert_all_dropped_once();
}

#[test]
fn sink_borrows_another_collection_mutably_for_one_pass() {
    let t = Tracker::new();
    let mut enemies = with_pred(&t, &[10, 0, 30, 0], &[]);
    let mut items: ReadWriteCollection<i64> = ReadWriteCollection::new();
    for frame in 0..2 {
        enemies.traverse_with_sink(
            |dead| items.push(dead.val + frame),
            |mut e| {
                if e.val == 0 {
                    e.flag = true; // dies: auto-removed into the sink
                } else if e.val == 30 {
                    e.val = 0; // dies next frame
                }
            },
        );
        // `items` is usable between passes: no Rc, no RefCell.
        items.push(-1);
    }
    assert_eq!(items, [0, 0, -1, 1, -1]);
    assert_eq!(vals(&enemies), [10]);
    drop(enemies);
    t.assert_all_dropped_once();
}

#[test]
fn the_collections_removal_hook_is_not_called_while_a_sink_is_set() {
    let mut hooked = Vec::new();
    let mut c = ReadWriteCollection::with_auto_remove(|n: &i32| *n < 0)
        .with_removal_hook(|n| hooked.push(n));
    c.extend([-1, 2, -3]);
    let mut sunk = Vec::new();
    c.traverse_with_sink(|n| sunk.push(n), |_| {});
    assert_eq!(sunk, [-1, -3]);
    c.push(-4);
    c.prune(); // no sink: the hook
    drop(c);
    assert_eq!(hooked, [-4]);
}

#[test]
fn sink_take_and_into_entry_bypass_the_sink() {
    let mut c: ReadWriteCollection<u32> = [8, 3].into_iter().collect();
    let mut sunk = Vec::new();
    let mut taken = Vec::new();
    let mut cursor = c.cursor_with_sink(|n| sunk.push(n));
    while let Some(e) = cursor.next() {
        if *e == 8 {
            let n = e.take();
            taken.push(n);
            cursor.push(n / 2);
        } else if *e == 3 {
            taken.push(e.into_entry().remove());
        } else {
            e.remove_to_sink();
        }
    }
    drop(cursor);
    assert_eq!(taken, [8, 3]);
    assert_eq!(sunk, [4]);
    assert!(c.is_empty());
}

#[test]
fn sink_in_unordered_mode_gets_every_removal_once() {
    let t = Tracker::new();
    let mut c = with_pred(&t, &[0, 1, 2, 3, 4, 5], &[1, 4]);
    c.set_mode(Mode::Unordered);
    let mut sunk = Vec::new();
    c.traverse_with_sink(
        |e| sunk.push(e.val),
        |e| {
            if e.val % 2 == 0 {
                e.remove_to_sink()
            }
        },
    );
    sunk.sort_unstable();
    assert_eq!(sunk, [0, 1, 2, 4]);
    let mut left = vals(&c);
    left.sort_unstable();
    assert_eq!(left, [3, 5]);
    drop(c);
    t.assert_all_dropped_once();
}

#[test]
fn sink_cursor_finish_len_remaining_and_debug() {
    let mut c = ReadWriteCollection::with_auto_remove(|n: &i32| *n < 0);
    c.extend([1, 2, 3]);
    let mut sunk = Vec::new();
    let mut cursor = c.cursor_with_sink(|n| sunk.push(n));
    assert_eq!(
        format!("{cursor:?}"),
        "SinkCursor { remaining: 3, len: 3, .. }"
    );
    let mut e = cursor.next().unwrap();
    assert_eq!(format!("{e:?}"), "SinkEntry(1)");
    *e = -1;
    assert_eq!(cursor.remaining(), 2);
    assert_eq!(cursor.len(), 3);
    cursor.finish();
    assert_eq!(sunk, [-1]);
    assert_eq!(c, [2, 3]);
}

#[test]
fn sink_pass_respects_the_bound() {
    let mut c = ReadWriteCollection::bounded(2);
    c.extend([1, 2]);
    let mut sunk = Vec::new();
    let mut refused = Vec::new();
    let mut cursor = c.cursor_with_sink(|n| sunk.push(n));
    while let Some(mut e) = cursor.next() {
        if *e == 1 {
            refused.push(e.try_push(3).unwrap_err().into_inner());
            e.remove_to_sink(); // into the sink; makes room
            assert!(cursor.try_push(4).is_ok());
            refused.push(cursor.try_push(5).unwrap_err().into_inner());
        }
    }
    drop(cursor);
    assert_eq!(refused, [3, 5]);
    assert_eq!(sunk, [1]);
    assert_eq!(c, [2, 4]);
}

// ---------------------------------------------------------- buffered

#[test]
fn buffered_sink_gets_removals_and_pushes_stay_pending() {
    let t = Tracker::new();
    let mut q = BufferedCollection::with_auto_remove(expired as Pred);
    q.push(t.elem(1).flagged());
    q.push(t.elem(2));
    q.push(t.elem(3));
    q.commit();
    let mut handled = Vec::new();
    let mut cursor = q.cursor_with_sink(|e: Elem| handled.push(e.val));
    while let Some(mut e) = cursor.next() {
        let v = e.val;
        e.push(t.elem(v * 10));
        if v == 2 {
            e.remove_to_sink();
        } else {
            e.flag = true;
        }
    }
    drop(cursor);
    assert_eq!(handled, [1, 2, 3]);
    assert!(q.is_empty());
    assert_eq!(vals(q.local_pending()), [20, 30]);
    q.commit();
    let mut handled = Vec::new();
    q.traverse_with_sink(|e| handled.push(e.val), |e| e.remove_to_sink());
    assert_eq!(handled, [20, 30]);
    drop(q);
    t.assert_all_dropped_once();
}

// ------------------------------------------------------------- panics

/// A sink that panics on its `k`-th element (counting from 0), after
/// recording the ids it received.
fn panicking_sink(k: usize, got: &mut Vec<u32>) -> impl FnMut(Elem) + '_ {
    move |e: Elem| {
        got.push(e.id());
        if got.len() == k + 1 {
            panic!("sink panicked on #{}", e.id());
        }
    }
}

#[test]
fn panic_in_the_sink_at_every_removal_keeps_or_drops_each_element_once() {
    // Removals, in order: 0 (expired when reached), 1 (explicit),
    // 2 (expires while held, settled by `next`), then 5 (pushed, expired)
    // or 4 (expires while held, settled by the drop of the cursor).
    for k in 0..6 {
        for style in 0..2 {
            let t = Tracker::new();
            let mut c = with_pred(&t, &[0, 1, 2, 3, 4], &[0]);
            let mut got = Vec::new();
            let result = catch_unwind(AssertUnwindSafe(|| {
                let body = |mut e: read_write_collection::SinkEntry<'_, Elem, _>| match e.val {
                    1 => e.remove_to_sink(),
                    2 => e.flag = true,
                    3 => e.push(t.elem(5).flagged()),
                    _ => {}
                };
                if style == 0 {
                    c.traverse_with_sink(panicking_sink(k, &mut got), body);
                } else {
                    let mut cursor = c.cursor_with_sink(panicking_sink(k, &mut got));
                    while let Some(mut e) = cursor.next() {
                        match e.val {
                            1 => e.remove_to_sink(),
                            2 => e.flag = true,
                            3 => e.push(t.elem(5).flagged()),
                            4 => {
                                // Expires while held; the cursor's drop
                                // settles it into the sink.
                                e.flag = true;
                                break;
                            }
                            _ => {}
                        }
                    }
                }
            }));
            // Four removals either way: 0, 1, 2, then 5 (closure form) or
            // 4 (loop form, settled by the cursor's drop after `break`).
            assert_eq!(result.is_err(), k < 4, "k={k} style={style}");
            if k >= 4 {
                let want: &[u32] = if style == 0 {
                    &[0, 1, 2, 5]
                } else {
                    &[0, 1, 2, 4]
                };
                assert_eq!(got, want);
            }
            // Every element the sink received is gone (dropped once, by
            // the sink's unwinding or at its end); the rest are in `c`.
            let in_c = ids(&c);
            for id in &got {
                assert!(
                    !in_c.contains(id),
                    "sunk element {id} still in the collection"
                );
                assert_eq!(t.drops(*id), 1, "sunk element {id}");
            }
            let mut live = t.live_ids();
            live.sort_unstable();
            let mut want = in_c.clone();
            want.sort_unstable();
            assert_eq!(live, want, "k={k} style={style}: live = in the collection");
            // The collection is valid and usable.
            c.push(t.elem(9));
            c.traverse_with_sink(drop, |_| {});
            drop(c);
            t.assert_all_dropped_once();
        }
    }
}

#[test]
fn panic_in_the_sink_from_the_cursors_drop_completes_the_pass() {
    let t = Tracker::new();
    let mut c = with_pred(&t, &[0, 1, 2], &[]);
    let mut got = Vec::new();
    let msg = expect_panic(|| {
        let mut cursor = c.cursor_with_sink(panicking_sink(0, &mut got));
        let mut e = cursor.next().unwrap();
        e.flag = true; // settled by the drop below: the sink panics there
        drop(cursor);
    });
    assert_eq!(msg, "sink panicked on #0");
    assert_eq!(got, [0]);
    assert_eq!(vals(&c), [1, 2]);
    t.assert_live_exactly(&[1, 2]);
    drop(c);
    t.assert_all_dropped_once();
}

#[test]
fn panic_in_the_predicate_during_a_sink_pass_keeps_the_element() {
    let t = Tracker::new();
    let mut c = ReadWriteCollection::with_auto_remove(|e: &Elem| {
        if e.val == 2 {
            panic!("predicate");
        }
        e.flag
    });
    c.push(t.elem(0).flagged());
    c.push(t.elem(1));
    c.push(t.elem(2));
    c.push(t.elem(3).flagged());
    let mut sunk = Vec::new();
    let msg = expect_panic(|| c.traverse_with_sink(|e: Elem| sunk.push(e.val), |_| {}));
    assert_eq!(msg, "predicate");
    assert_eq!(sunk, [0]);
    assert_eq!(vals(&c), [1, 2, 3]);
    drop(c);
    t.assert_all_dropped_once();
}

#[test]
fn panic_in_the_body_of_a_sink_pass_keeps_the_rest() {
    let t = Tracker::new();
    let mut c = with_pred(&t, &[0, 1, 2, 3], &[0]);
    let mut sunk = Vec::new();
    let msg = expect_panic(|| {
        c.traverse_with_sink(
            |e: Elem| sunk.push(e.val),
            |mut e| {
                if e.val == 2 {
                    e.flag = true; // expired, but the panic keeps it (no user code in unwinding)
                    panic!("body");
                }
            },
        )
    });
    assert_eq!(msg, "body");
    assert_eq!(sunk, [0]);
    assert_eq!(vals(&c), [1, 2, 3]);
    drop(c);
    t.assert_all_dropped_once();
}

// --------------------------------------------------------------- layers

fn layers_with_pred(t: &Tracker, per_layer: &[&[i64]]) -> Layers<Elem, usize, Pred> {
    let mut l = Layers::from_collections(
        per_layer
            .iter()
            .map(|_| ReadWriteCollection::with_auto_remove(expired as Pred)),
    );
    for (i, values) in per_layer.iter().enumerate() {
        for &v in *values {
            // Negative values start expired.
            let e = t.elem(v);
            l.push(i, if v < 0 { e.flagged() } else { e });
        }
    }
    l
}

#[test]
fn layers_sink_gets_removals_from_every_layer_in_order_with_cross_layer_pushes() {
    let t = Tracker::new();
    let mut l = layers_with_pred(&t, &[&[-1, 2, 3], &[10, -11], &[20]]);
    let mut items: ReadWriteCollection<i64> = ReadWriteCollection::new();
    let mut seen = Vec::new();
    l.traverse_with_sink(
        |dead| items.push(dead.val),
        |layer, mut e| {
            seen.push((layer, e.val));
            match e.val {
                2 => {
                    e.push_to(2, t.elem(21)); // later layer: visited
                    e.remove_to_sink(); // into the sink
                }
                3 => e.flag = true, // expires: sink when the cursor moves on
                10 => {
                    e.push_to(0, t.elem(4)); // earlier layer: next pass
                    e.push_to(1, t.elem(-12).flagged()); // pushed expired: sink when reached
                }
                21 => {
                    let v = e.take(); // bypasses the sink
                    assert_eq!(v.val, 21);
                }
                _ => {}
            }
        },
    );
    assert_eq!(seen, [(0, 2), (0, 3), (1, 10), (2, 20), (2, 21)]);
    assert_eq!(items, [-1, 2, 3, -11, -12]);
    assert_eq!(
        (0..3).map(|i| vals(l.layer(i))).collect::<Vec<_>>(),
        [vec![4], vec![10], vec![20]]
    );
    drop(l);
    t.assert_all_dropped_once();
}

#[test]
fn layers_sink_cursor_settles_the_held_element_into_the_sink_on_drop() {
    let t = Tracker::new();
    let mut l = layers_with_pred(&t, &[&[0], &[1, 2]]);
    let mut gone = Vec::new();
    let mut cursor = l.cursor_with_sink(|e: Elem| gone.push(e.val));
    assert!(format!("{cursor:?}").starts_with("LayersSinkCursor"));
    while let Some((layer, mut e)) = cursor.next_with_layer() {
        if layer == 1 {
            e.flag = true;
            assert!(format!("{e:?}").starts_with("LayerSinkEntry { layer: 1"));
            break;
        }
        cursor.push_to(1, t.elem(3));
    }
    drop(cursor);
    assert_eq!(gone, [1]);
    assert_eq!(vals(l.layer(1)), [2, 3]);
    drop(l);
    t.assert_all_dropped_once();
}

#[test]
fn panic_in_the_layers_sink_keeps_or_drops_each_element_once() {
    // Removals in order: -1 (reached), 2 (explicit), 10 (expires while
    // held), -20 (reached, layer 2), 21 (pushed from layer 0, explicit).
    for k in 0..6 {
        let t = Tracker::new();
        let mut l = layers_with_pred(&t, &[&[-1, 2], &[10], &[-20]]);
        let mut got = Vec::new();
        let result = catch_unwind(AssertUnwindSafe(|| {
            l.traverse_with_sink(panicking_sink(k, &mut got), |_, mut e| match e.val {
                2 => {
                    e.push_to(2, t.elem(21));
                    e.push_to(0, t.elem(3)); // current layer
                    e.remove_to_sink();
                }
                10 => {
                    e.push_to(0, t.elem(4)); // earlier layer
                    e.flag = true;
                }
                21 => e.remove_to_sink(),
                _ => {}
            })
        }));
        assert_eq!(result.is_err(), k < 5, "k={k}");
        let in_l: Vec<u32> = (0..3).flat_map(|i| ids(l.layer(i))).collect();
        for id in &got {
            assert!(!in_l.contains(id), "sunk element {id} still in a layer");
            assert_eq!(t.drops(*id), 1, "sunk element {id}");
        }
        let mut live = t.live_ids();
        live.sort_unstable();
        let mut want = in_l.clone();
        want.sort_unstable();
        assert_eq!(live, want, "k={k}: live = in the layers");
        l.traverse_with_sink(drop, |_, _| {});
        drop(l);
        t.assert_all_dropped_once();
    }
}

// -------------------------------------------------------------- builder

read_write_collection::remove_when! {
    /// Test policy: an element whose value is negative.
    pub struct Negative for i64: |n| *n < 0
}

/// Applies the settings in `bits` (capacity, bound, unordered, shrink) in
/// the given order to a builder.
fn configure<A>(b: Builder<i64, A>, bits: u8, bound_first: bool) -> Builder<i64, A> {
    let mut b = b;
    if bound_first && bits & 2 != 0 {
        b = b.bounded(5);
    }
    if bits & 1 != 0 {
        b = b.capacity(20);
    }
    if !bound_first && bits & 2 != 0 {
        b = b.bounded(5);
    }
    if bits & 4 != 0 {
        b = b.unordered();
    }
    if bits & 8 != 0 {
        b = b.shrink_policy(ShrinkPolicy::new(30, 2));
    }
    b
}

/// Checks the settings of a built collection and that its policy removes
/// exactly what it should.
fn check_built<A: read_write_collection::AutoRemove<i64>>(
    mut c: ReadWriteCollection<i64, A>,
    bits: u8,
    removes_negatives: bool,
) {
    assert!(c.is_empty());
    assert_eq!(c.max_len(), (bits & 2 != 0).then_some(5), "bits={bits}");
    if bits & 2 != 0 {
        assert!(
            c.capacity() <= 5,
            "capacity capped by the bound, bits={bits}"
        );
    } else if bits & 1 != 0 {
        assert!(c.capacity() >= 20, "bits={bits}");
    } else {
        assert_eq!(c.capacity(), 0, "bits={bits}");
    }
    let mode = if bits & 4 != 0 {
        Mode::Unordered
    } else {
        Mode::Ordered
    };
    assert_eq!(c.mode(), mode);
    let shrink = (bits & 8 != 0).then(|| ShrinkPolicy::new(30, 2));
    assert_eq!(c.shrink_policy(), shrink);
    c.extend([1, -1, 2]);
    let removed = c.prune();
    assert_eq!(removed, usize::from(removes_negatives));
    let mut left = c.to_vec();
    left.sort_unstable();
    assert_eq!(
        left,
        if removes_negatives {
            vec![1, 2]
        } else {
            vec![-1, 1, 2]
        }
    );
}

#[test]
fn builder_covers_every_combination_of_settings_policy_and_hook() {
    for bits in 0..16u8 {
        for bound_first in [false, true] {
            // No policy.
            check_built(
                configure(Builder::new(), bits, bound_first).build(),
                bits,
                false,
            );
            // A `remove_when!` unit struct.
            let c: ReadWriteCollection<i64, Negative> =
                configure(Builder::new(), bits, bound_first)
                    .policy(Negative)
                    .build();
            check_built(c, bits, true);
            // A closure, set before the other settings.
            let b = ReadWriteCollection::builder().auto_remove(|n: &i64| *n < 0);
            check_built(configure(b, bits, bound_first).build(), bits, true);
            // A policy and a hook, the hook borrowing local state.
            let mut hooked = Vec::new();
            let b = configure(Builder::new(), bits, bound_first)
                .policy(Negative)
                .removal_hook(|n| hooked.push(n));
            check_built(b.build(), bits, true);
            assert_eq!(hooked, [-1]);
            // A hook without a predicate never fires.
            let mut fired = false;
            let b = configure(Builder::new(), bits, bound_first).removal_hook(|_| fired = true);
            check_built(b.build(), bits, false);
            assert!(!fired);
        }
    }
}

#[test]
fn remove_when_policy_is_zero_sized_and_nameable_in_a_struct_field() {
    type Recycled = WithHook<Negative, fn(i64)>;
    struct World {
        mobs: ReadWriteCollection<i64, Negative>,
        with_hook: ReadWriteCollection<i64, Recycled>,
    }
    fn recycle(_: i64) {}
    let mut w = World {
        mobs: Builder::new().bounded(10).policy(Negative).build(),
        with_hook: Builder::new()
            .policy(Negative)
            .removal_hook(recycle as fn(i64))
            .build(),
    };
    assert_eq!(std::mem::size_of::<Negative>(), 0);
    assert_eq!(
        std::mem::size_of::<ReadWriteCollection<i64, Negative>>(),
        std::mem::size_of::<ReadWriteCollection<i64>>()
    );
    w.mobs.extend([-3, 3]);
    w.with_hook.extend([-4, 4]);
    w.mobs.traverse(|_| {});
    w.with_hook.prune();
    assert_eq!(w.mobs, [3]);
    assert_eq!(w.with_hook, [4]);
    assert_eq!(Negative, <Negative as Default>::default());
    assert_eq!(format!("{Negative:?}"), "Negative");
}

#[test]
fn builder_build_layers_clones_the_settings_into_every_layer() {
    let l: Layers<i64, usize, Negative> = Builder::new()
        .bounded(3)
        .unordered()
        .policy(Negative)
        .build_layers(4);
    assert_eq!(l.layer_count(), 4);
    for i in 0..4 {
        assert_eq!(l.layer(i).max_len(), Some(3));
        assert_eq!(l.layer(i).mode(), Mode::Unordered);
        assert!(l.is_enabled(i) && l.is_visible(i));
    }
    let b = Builder::<u8>::new().capacity(3);
    assert_eq!(
        format!("{b:?}"),
        "Builder { capacity: 3, max_len: None, mode: Ordered, shrink_policy: None, .. }"
    );
}

// -------------------------------------------------------------- model

#[derive(Clone, Copy, Debug)]
enum Op {
    Keep,
    Remove,
    Expire,
    Push(bool),
    Break,
}

impl Arbitrary for Op {
    fn arbitrary(g: &mut Gen) -> Self {
        match u8::arbitrary(g) % 10 {
            0..=2 => Op::Keep,
            3..=4 => Op::Remove,
            5..=6 => Op::Expire,
            7..=8 => Op::Push(bool::arbitrary(g)),
            _ => Op::Break,
        }
    }
}

/// One pass with a sink, against a model: the sink's output is exactly
/// the removed elements in removal order, the collection what the model
/// keeps.
fn sink_model(start: Vec<bool>, ops: Vec<Op>, unordered: bool) {
    let t = Tracker::new();
    let mut c = ReadWriteCollection::with_auto_remove(expired as Pred);
    if unordered {
        c.set_mode(Mode::Unordered);
    }
    for (i, &f) in start.iter().enumerate() {
        let e = t.elem(i as i64);
        c.push(if f { e.flagged() } else { e });
    }
    let mut next_val = start.len() as i64;
    let mut sunk = Vec::new();
    let mut removed_by_model = Vec::new();
    let mut yielded = Vec::new();
    let mut ops = ops.into_iter();
    {
        let mut cursor = c.cursor_with_sink(|e: Elem| sunk.push(e.id()));
        // Model: what the sink must have received after each step, built
        // from what the cursor yields (the order of visits is the engine's;
        // the ordered model is in tests/model.rs).
        let mut held_expired: Option<u32> = None;
        while let Some(mut e) = cursor.next() {
            if let Some(id) = held_expired.take() {
                removed_by_model.push(id);
            }
            assert!(!e.flag, "an expired element was yielded");
            yielded.push(e.id());
            match ops.next().unwrap_or(Op::Keep) {
                Op::Keep => {}
                Op::Remove => {
                    removed_by_model.push(e.id());
                    e.remove_to_sink();
                }
                Op::Expire => {
                    e.flag = true;
                    held_expired = Some(e.id());
                }
                Op::Push(f) => {
                    let n = t.elem(next_val);
                    next_val += 1;
                    e.push(if f { n.flagged() } else { n });
                }
                Op::Break => {
                    if let Some(id) = held_expired.take() {
                        removed_by_model.push(id);
                    }
                    break;
                }
            }
        }
        if let Some(id) = held_expired.take() {
            removed_by_model.push(id);
        }
    }
    // Expired elements removed when reached are in `sunk` but were never
    // yielded: every sunk id is either one the model removed or an
    // element that was flagged when reached.
    let explicit: Vec<u32> = sunk
        .iter()
        .copied()
        .filter(|id| removed_by_model.contains(id))
        .collect();
    assert_eq!(explicit, removed_by_model, "held removals, in order");
    for id in &sunk {
        assert!(!yielded.contains(id) || removed_by_model.contains(id));
        assert_eq!(t.drops(*id), 1);
    }
    let mut all: Vec<u32> = ids(&c).into_iter().chain(sunk.iter().copied()).collect();
    all.sort_unstable();
    let mut created: Vec<u32> = (0..t.created() as u32).collect();
    created.sort_unstable();
    assert_eq!(
        all, created,
        "every element is in the collection or was sunk, once"
    );
    drop(c);
    t.assert_all_dropped_once();
}

fn qc() -> QuickCheck {
    let size = if cfg!(miri) { 6 } else { 30 };
    let mut q = QuickCheck::new().rng(Gen::new(size));
    if cfg!(miri) && std::env::var_os("QUICKCHECK_TESTS").is_none() {
        q = q.tests(5);
    }
    q
}

#[test]
fn model_sink_ordered() {
    qc().quickcheck((|s, o| sink_model(s, o, false)) as fn(Vec<bool>, Vec<Op>));
}

#[test]
fn model_sink_unordered() {
    qc().quickcheck((|s, o| sink_model(s, o, true)) as fn(Vec<bool>, Vec<Op>));
}

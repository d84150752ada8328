//! Behaviour: construction, keys, flags, the layered cursor, every way a
//! pass can end, and the std traits.

use super::*;

// ----------------------------------------------------------- construction

#[test]
fn new_makes_empty_enabled_visible_unbounded_layers() {
    let mut l: Layers<Elem> = Layers::new(3);
    assert_eq!(l.layer_count(), 3);
    assert_eq!(l.len(), 0);
    assert!(l.is_empty());
    for i in 0..3 {
        assert!(l.is_enabled(i));
        assert!(l.is_visible(i));
        assert!(l.layer(i).is_empty());
        assert_eq!(l.layer(i).max_len(), None);
        assert_eq!(l.layer(i).mode(), Mode::Ordered);
    }
    assert_eq!(l.iter_visible().count(), 0);
    let mut cursor = l.cursor();
    assert_eq!(cursor.layer(), None);
    assert!(cursor.next().is_none());
    assert_eq!(cursor.layer(), None);
    assert!(cursor.next_with_layer().is_none());
}

#[test]
fn zero_layers() {
    let mut l: Layers<Elem> = Layers::new(0);
    assert_eq!(l.layer_count(), 0);
    assert!(l.is_empty());
    assert_eq!(l.len(), 0);
    assert_eq!(l.iter_visible().count(), 0);
    assert!(l.cursor().next().is_none());
    let mut calls = 0;
    l.traverse(|_, _| calls += 1);
    assert_eq!(calls, 0);
    l.clear();
    assert_eq!(format!("{l:?}"), "[]");
    assert_eq!(
        expect_panic(|| l.layer(0).len()),
        "layer index 0 out of range for 0 layers"
    );
}

#[test]
fn push_goes_to_the_named_layer() {
    let t = Tracker::new();
    let mut l: Layers<Elem> = Layers::new(3);
    l.push(2, t.elem(20));
    l.push(0, t.elem(0));
    l.push(2, t.elem(21));
    assert!(l.try_push(1, t.elem(10)).is_ok());
    l.layer_mut(0).extend(t.elems([1, 2]));
    assert_eq!(all_vals(&l), [vec![0, 1, 2], vec![10], vec![20, 21]]);
    assert_eq!(l.len(), 6);
    assert!(!l.is_empty());
    assert_eq!(all_ids(&l), [1, 4, 5, 3, 0, 2]);
    t.assert_live_exactly(&[0, 1, 2, 3, 4, 5]);
    drop(l);
    t.assert_all_dropped_once();
}

#[test]
fn enum_keys_name_layers() {
    let t = Tracker::new();
    let mut l: Layers<Elem, Layer> = Layers::new(3);
    l.push(Layer::Bullets, t.elem(200));
    l.push(Layer::Background, t.elem(0));
    l.push(Layer::Actors, t.elem(100));
    l.push(Layer::Actors, t.elem(101));
    assert_eq!(vals(l.layer(Layer::Background)), [0]);
    assert_eq!(vals(l.layer(Layer::Actors)), [100, 101]);
    assert_eq!(vals(l.layer(Layer::Bullets)), [200]);

    l.set_enabled(Layer::Actors, false);
    assert!(!l.is_enabled(Layer::Actors));
    assert!(l.is_enabled(Layer::Bullets));
    l.set_visible(Layer::Background, false);
    assert!(!l.is_visible(Layer::Background));

    let mut seen = Vec::new();
    l.traverse(|layer, mut e| {
        e.val += 1;
        seen.push((layer, e.val));
    });
    assert_eq!(seen, [(Layer::Background, 1), (Layer::Bullets, 201)]);
    assert_eq!(visible_vals(&l), [(1, 100), (1, 101), (2, 201)]);

    let mut cursor = l.cursor();
    let (layer, e) = cursor.next_with_layer().unwrap();
    assert_eq!((layer, e.val), (Layer::Background, 1));
    drop(e.remove());
    assert_eq!(cursor.layer(), Some(Layer::Background));
    cursor.push(t.elem(2));
    assert_eq!(cursor.next().map(|e| e.val), Some(2));
    assert_eq!(cursor.next().map(|e| e.val), Some(201));
    assert_eq!(cursor.layer(), Some(Layer::Bullets));
    assert!(cursor.next().is_none());
    drop(cursor);
    assert_eq!(vals(l.layer(Layer::Background)), [2]);
    t.assert_live_exactly(&[0, 2, 3, 4]);
    drop(l);
    t.assert_all_dropped_once();
}

#[test]
fn from_collections_mixes_bounded_unordered_and_predicate_layers() {
    let t = Tracker::new();
    // One policy type for all layers: a plain function pointer.
    let mut bounded = ReadWriteCollection::with_auto_remove(never as Policy);
    bounded.set_max_len(Some(2));
    let mut unordered = ReadWriteCollection::with_auto_remove(never as Policy);
    unordered.set_mode(Mode::Unordered);
    let expiring = ReadWriteCollection::with_auto_remove(expired as Policy);
    let mut l: Layers<Elem, usize, Policy> =
        Layers::from_collections([bounded, unordered, expiring]);

    assert_eq!(l.layer_count(), 3);
    assert_eq!(l.layer(0).max_len(), Some(2));
    assert_eq!(l.layer(1).max_len(), None);
    assert_eq!(l.layer(1).mode(), Mode::Unordered);
    assert_eq!(l.layer(2).mode(), Mode::Ordered);
    assert!((0..3).all(|i| l.is_enabled(i) && l.is_visible(i)));

    // Bounded: the third push comes back, the same element.
    assert!(l.try_push(0, t.elem(0)).is_ok());
    assert!(l.try_push(0, t.elem(1)).is_ok());
    let back = l.try_push(0, t.elem(2)).unwrap_err().into_inner();
    assert_eq!((back.id(), back.val), (2, 2));
    drop(back);
    assert!(l.layer(0).capacity() <= 2);

    l.layer_mut(1).extend(t.elems(10..15)); // ids 3..8
    l.push(2, t.elem(20)); // id 8
    l.push(2, t.elem(21).flagged()); // id 9: expired before the pass
    l.push(2, t.elem(22)); // id 10
    l.push(2, t.elem(23)); // id 11

    let mut seen = Vec::new();
    let mut cursor = l.cursor();
    while let Some((layer, mut e)) = cursor.next_with_layer() {
        seen.push((layer, e.val));
        match (layer, e.val) {
            (0, 0) => drop(e.remove()),
            (1, 11) | (1, 13) => drop(e.remove()),
            (1, 14) => e.push(t.elem(15)),           // id 12
            (2, 20) => e.flag = true,                // expires while held
            (2, 22) => e.push(t.elem(24).flagged()), // id 13: never yielded
            _ => {}
        }
    }
    drop(cursor);
    // Layer order; the expired element is never yielded; the bounded and
    // predicate layers keep element order.
    let (in_order, in_unordered): (Vec<_>, Vec<_>) =
        seen.iter().copied().partition(|(l, _)| *l != 1);
    assert_eq!(in_order, [(0, 0), (0, 1), (2, 20), (2, 22), (2, 23)]);
    let pos = |layer| seen.iter().position(|(l, _)| *l == layer).unwrap();
    let last = |layer| seen.iter().rposition(|(l, _)| *l == layer).unwrap();
    assert!(
        last(0) < pos(1) && last(1) < pos(2),
        "layer order: {seen:?}"
    );
    // Unordered layer: each original and the pushed element exactly once.
    let mut u: Vec<i64> = in_unordered.iter().map(|(_, v)| *v).collect();
    u.sort_unstable();
    assert_eq!(u, [10, 11, 12, 13, 14, 15]);

    assert_eq!(vals(l.layer(0)), [1]);
    let mut left = vals(l.layer(1));
    left.sort_unstable();
    assert_eq!(left, [10, 12, 14, 15]);
    assert_eq!(vals(l.layer(2)), [22, 23]);
    t.assert_live_exactly(&[1, 3, 5, 7, 12, 10, 11]);
    drop(l);
    t.assert_all_dropped_once();
}

// ------------------------------------------------------------ bad keys

#[test]
#[should_panic(expected = "layer index 3 out of range for 3 layers")]
fn push_to_a_missing_layer_panics() {
    let mut l: Layers<u8> = Layers::new(3);
    l.push(3, 1);
}

#[test]
#[should_panic(expected = "layer index 7 out of range for 2 layers")]
fn layer_of_a_missing_index_panics() {
    let l: Layers<u8> = Layers::new(2);
    let _ = l.layer(7);
}

#[test]
#[should_panic(expected = "layer index 2 out of range for 2 layers")]
fn enum_key_past_the_layer_count_panics() {
    let mut l: Layers<u8, Layer> = Layers::new(2);
    l.set_enabled(Layer::Bullets, false);
}

#[test]
fn every_keyed_method_checks_the_key_and_changes_nothing() {
    let t = Tracker::new();
    let mut l = filled(&t, &[&[0], &[1]]);
    let msg = "layer index 2 out of range for 2 layers";
    assert_eq!(expect_panic(|| l.push(2, t.elem(9))), msg);
    assert_eq!(expect_panic(|| l.try_push(2, t.elem(9))), msg);
    assert_eq!(expect_panic(|| l.layer(2).len()), msg);
    assert_eq!(expect_panic(|| l.layer_mut(2).clear()), msg);
    assert_eq!(expect_panic(|| l.is_enabled(2)), msg);
    assert_eq!(expect_panic(|| l.set_enabled(2, false)), msg);
    assert_eq!(expect_panic(|| l.is_visible(2)), msg);
    assert_eq!(expect_panic(|| l.set_visible(2, false)), msg);
    assert_eq!(
        expect_panic(|| l.layer(usize::MAX).len()),
        format!("layer index {} out of range for 2 layers", usize::MAX)
    );
    assert_eq!(all_vals(&l), [vec![0], vec![1]]);
    assert!(l.is_enabled(0) && l.is_enabled(1) && l.is_visible(0) && l.is_visible(1));
    // The two values handed to the failing pushes were dropped.
    t.assert_live_exactly(&[0, 1]);
    assert_eq!(t.created(), 4);
}

// ----------------------------------------------------------------- flags

#[test]
fn disabled_layers_are_not_walked_but_keep_their_elements() {
    let t = Tracker::new();
    let mut l = filled(&t, &[&[0, 1], &[10, 11, 12], &[20]]);
    l.set_enabled(1, false);
    let mut seen = Vec::new();
    l.traverse(|layer, e| {
        seen.push((layer, e.val));
        drop(e.remove());
    });
    assert_eq!(seen, [(0, 0), (0, 1), (2, 20)]);
    assert_eq!(all_vals(&l), [vec![], vec![10, 11, 12], vec![]]);
    assert_eq!(l.len(), 3);
    // Disabled is not hidden: draw passes still see it.
    assert_eq!(visible_vals(&l), [(1, 10), (1, 11), (1, 12)]);
    // Its own cursor still walks it.
    let mut cursor = l.layer_mut(1).cursor();
    assert_eq!(cursor.next().map(|e| e.val), Some(10));
    drop(cursor);

    l.set_enabled(1, true);
    l.set_enabled(0, false);
    l.set_enabled(2, false);
    l.push(0, t.elem(2)); // id 6
    l.push(2, t.elem(21)); // id 7
    let mut seen = Vec::new();
    l.traverse(|layer, e| {
        seen.push((layer, e.val));
        if e.val == 12 {
            drop(e.remove());
        }
    });
    assert_eq!(seen, [(1, 10), (1, 11), (1, 12)]);

    l.set_enabled(1, false);
    let mut cursor = l.cursor();
    assert!(cursor.next().is_none());
    assert_eq!(cursor.layer(), None);
    drop(cursor);
    assert_eq!(all_vals(&l), [vec![2], vec![10, 11], vec![21]]);
    t.assert_live_exactly(&[2, 3, 6, 7]);
    drop(l);
    t.assert_all_dropped_once();
}

#[test]
fn iter_visible_walks_visible_layers_in_order_whatever_their_enabled_flag() {
    let t = Tracker::new();
    let mut l: Layers<Elem> = Layers::new(4);
    l.push(3, t.elem(30));
    l.push(1, t.elem(10));
    l.push(0, t.elem(0));
    l.push(3, t.elem(31));
    l.push(1, t.elem(11));
    assert_eq!(
        visible_vals(&l),
        [(0, 0), (1, 10), (1, 11), (3, 30), (3, 31)]
    );
    l.set_visible(1, false);
    l.set_enabled(3, false);
    assert_eq!(visible_vals(&l), [(0, 0), (3, 30), (3, 31)]);
    assert!(!l.is_visible(1) && l.is_visible(3));
    // Hidden is not disabled: the update pass still walks it.
    let mut seen = Vec::new();
    l.traverse(|layer, e| seen.push((layer, e.val)));
    assert_eq!(seen, [(0, 0), (1, 10), (1, 11)]);
    l.set_visible(0, false);
    l.set_visible(3, false);
    assert!(visible_vals(&l).is_empty());
    l.set_visible(1, true);
    assert_eq!(visible_vals(&l), [(1, 10), (1, 11)]);
    // The references are the stored elements.
    let visible_ids: Vec<u32> = l.iter_visible().map(|(_, e)| e.id()).collect();
    assert_eq!(visible_ids, [1, 4]);
    drop(l);
    t.assert_all_dropped_once();
}

// ---------------------------------------------------------------- cursor

#[test]
fn cursor_walks_layers_in_order_and_pushes_into_the_layer_being_walked() {
    let t = Tracker::new();
    let mut l = filled(&t, &[&[1, 2], &[], &[3], &[4]]);
    let mut seen = Vec::new();
    let mut layers_seen = Vec::new();
    let mut cursor = l.cursor();
    while let Some(mut e) = cursor.next() {
        let v = e.val;
        seen.push(v);
        match v {
            2 => e.push(t.elem(20)),        // entry push, visited after 2
            20 => cursor.push(t.elem(200)), // cursor push once the entry is unused
            3 => {
                drop(e.remove());
                cursor.push(t.elem(30));
            }
            30 => e.val = 31,
            _ => {}
        }
        layers_seen.push(cursor.layer().unwrap());
    }
    assert_eq!(cursor.layer(), None);
    assert!(cursor.next().is_none(), "stays done");
    drop(cursor);
    assert_eq!(seen, [1, 2, 20, 200, 3, 30, 4]);
    assert_eq!(layers_seen, [0, 0, 0, 0, 2, 2, 3]);
    assert_eq!(
        all_vals(&l),
        [vec![1, 2, 20, 200], vec![], vec![31], vec![4]]
    );
    // 20 is id 4, 200 id 5, 30 id 6; 3 (id 2) was removed.
    assert_eq!(all_ids(&l), [0, 1, 4, 5, 6, 3]);
    t.assert_live_exactly(&[0, 1, 3, 4, 5, 6]);
    drop(l);
    t.assert_all_dropped_once();
}

#[test]
fn pushes_made_while_visiting_pushed_elements_chain_within_the_layer() {
    let t = Tracker::new();
    let mut l = filled(&t, &[&[3], &[100]]);
    let mut seen = Vec::new();
    let mut cursor = l.cursor();
    while let Some((layer, e)) = cursor.next_with_layer() {
        seen.push((layer, e.val));
        if layer == 0 {
            let v = e.remove().val;
            if v > 0 {
                cursor.push(t.elem(v - 1));
            }
        }
    }
    drop(cursor);
    assert_eq!(seen, [(0, 3), (0, 2), (0, 1), (0, 0), (1, 100)]);
    assert_eq!(all_vals(&l), [vec![], vec![100]]);
    t.assert_live_exactly(&[1]);
    assert_eq!(t.created(), 5);
}

#[test]
fn next_with_layer_and_layer_agree() {
    let t = Tracker::new();
    let mut l = filled(&t, &[&[], &[5, 6], &[], &[7]]);
    let mut cursor = l.cursor();
    assert_eq!(cursor.layer(), None);
    let mut got = Vec::new();
    while let Some((layer, mut e)) = cursor.next_with_layer() {
        e.val += 10 * layer as i64;
        got.push((layer, e.val));
        assert_eq!(cursor.layer(), Some(layer));
    }
    assert_eq!(got, [(1, 15), (1, 16), (3, 37)]);
    assert_eq!(cursor.layer(), None);
    assert!(cursor.next_with_layer().is_none());
    drop(cursor);
    assert_eq!(all_vals(&l), [vec![], vec![15, 16], vec![], vec![37]]);
}

#[test]
fn bounded_layer_rejects_pushes_exactly_during_a_pass() {
    let t = Tracker::new();
    let mut l: Layers<Elem> =
        Layers::from_collections([ReadWriteCollection::bounded(3), ReadWriteCollection::new()]);
    l.push(0, t.elem(0));
    l.push(0, t.elem(1));
    l.push(1, t.elem(10));
    let mut rejected = Vec::new();
    let mut cursor = l.cursor();
    while let Some((layer, mut e)) = cursor.next_with_layer() {
        match (layer, e.val) {
            (0, 0) => {
                assert!(e.try_push(t.elem(2)).is_ok()); // 3 of 3
                let back = e.try_push(t.elem(3)).unwrap_err().into_inner();
                rejected.push((back.id(), back.val));
                let back = cursor.try_push(t.elem(4)).unwrap_err().into_inner();
                rejected.push((back.id(), back.val));
            }
            (0, 1) => {
                drop(e.remove()); // room for one
                assert!(cursor.try_push(t.elem(5)).is_ok());
                let back = cursor.try_push(t.elem(6)).unwrap_err().into_inner();
                rejected.push((back.id(), back.val));
            }
            (1, 10) => {
                // The unbounded layer takes everything.
                for v in 11..15 {
                    assert!(cursor.try_push(t.elem(v)).is_ok());
                }
            }
            _ => {}
        }
    }
    drop(cursor);
    assert_eq!(rejected, [(4, 3), (5, 4), (7, 6)]);
    assert_eq!(all_vals(&l), [vec![0, 2, 5], vec![10, 11, 12, 13, 14]]);
    assert!(l.layer(0).capacity() <= 3);
    assert_eq!(l.try_push(0, t.elem(99)).unwrap_err().into_inner().val, 99);
    t.assert_live_exactly(&[0, 3, 6, 2, 8, 9, 10, 11]);
    drop(l);
    t.assert_all_dropped_once();
}

#[test]
fn cursor_push_into_a_full_layer_panics_and_leaves_the_layers_valid() {
    let t = Tracker::new();
    let mut l: Layers<Elem> =
        Layers::from_collections([ReadWriteCollection::bounded(1), ReadWriteCollection::new()]);
    l.push(0, t.elem(0));
    l.push(1, t.elem(10));
    let msg = expect_panic(|| {
        let mut cursor = l.cursor();
        let _ = cursor.next();
        cursor.push(t.elem(1));
    });
    assert_eq!(
        msg,
        "push into a full bounded collection (use `try_push` to get the value back)"
    );
    assert_eq!(all_vals(&l), [vec![0], vec![10]]);
    t.assert_live_exactly(&[0, 1]);
    drop(l);
    t.assert_all_dropped_once();
}

#[test]
#[should_panic(expected = "LayersCursor::push outside a layer (call `next` first)")]
fn layers_cursor_push_before_the_first_next_panics() {
    let mut l: Layers<u8> = Layers::new(1);
    l.push(0, 1);
    let mut cursor = l.cursor();
    cursor.push(2);
}

#[test]
#[should_panic(expected = "LayersCursor::try_push outside a layer (call `next` first)")]
fn layers_cursor_try_push_before_the_first_next_panics() {
    let mut l: Layers<u8> = Layers::new(1);
    let mut cursor = l.cursor();
    let _ = cursor.try_push(2);
}

#[test]
fn layers_cursor_push_outside_a_layer_drops_the_value_and_changes_nothing() {
    let t = Tracker::new();
    let mut l = filled(&t, &[&[0], &[1]]);
    // Before the first `next`.
    let msg = expect_panic(|| l.cursor().push(t.elem(2)));
    assert_eq!(
        msg,
        "LayersCursor::push outside a layer (call `next` first)"
    );
    // After the last.
    let msg = expect_panic(|| {
        let mut cursor = l.cursor();
        while cursor.next().is_some() {}
        cursor.push(t.elem(3));
    });
    assert_eq!(
        msg,
        "LayersCursor::push outside a layer (call `next` first)"
    );
    let msg = expect_panic(|| {
        let mut cursor = l.cursor();
        while cursor.next().is_some() {}
        let _ = cursor.try_push(t.elem(4));
    });
    assert_eq!(
        msg,
        "LayersCursor::try_push outside a layer (call `next` first)"
    );
    assert_eq!(all_vals(&l), [vec![0], vec![1]]);
    t.assert_live_exactly(&[0, 1]);
    assert_eq!(t.created(), 5);
}

#[test]
fn traverse_visits_enabled_layers_with_remove_push_and_mutate() {
    let t = Tracker::new();
    let mut l = filled(&t, &[&[1, 2, 3], &[10], &[20, 21]]);
    l.set_enabled(1, false);
    let mut seen = Vec::new();
    l.traverse(|layer, mut e| {
        seen.push((layer, e.val));
        match e.val {
            2 => drop(e.remove()),
            3 => e.push(t.elem(4)),
            20 => {
                e.val = 22;
                e.push(t.elem(23));
            }
            21 => drop(e.remove()),
            _ => e.val += 100,
        }
    });
    assert_eq!(
        seen,
        [(0, 1), (0, 2), (0, 3), (0, 4), (2, 20), (2, 21), (2, 23)]
    );
    assert_eq!(all_vals(&l), [vec![101, 3, 104], vec![10], vec![22, 123]]);
    t.assert_live_exactly(&[0, 2, 3, 4, 6, 7]);
    drop(l);
    t.assert_all_dropped_once();
}

// ------------------------------------------------------------ early exits

#[test]
fn break_completes_the_current_layer_and_leaves_later_layers_alone() {
    let t = Tracker::new();
    let mut l = filled(&t, &[&[0, 1], &[10, 11, 12, 13, 14], &[20, 21]]);
    let later = ids(l.layer(2));
    let mut seen = Vec::new();
    let mut cursor = l.cursor();
    while let Some((layer, mut e)) = cursor.next_with_layer() {
        seen.push((layer, e.val));
        match e.val {
            0 => drop(e.remove()),
            10 => drop(e.remove()),
            11 => {
                e.val = 111;
                e.push(t.elem(15));
            }
            12 => {
                e.val = 112;
                break; // holding 12: it stays, 13, 14 and 15 unvisited
            }
            _ => {}
        }
    }
    drop(cursor);
    assert_eq!(seen, [(0, 0), (0, 1), (1, 10), (1, 11), (1, 12)]);
    assert_eq!(
        all_vals(&l),
        [vec![1], vec![111, 112, 13, 14, 15], vec![20, 21]]
    );
    assert_eq!(ids(l.layer(2)), later);
    t.assert_live_exactly(&[1, 3, 4, 5, 6, 7, 8, 9]);

    // The next pass starts over from layer 0 and visits everything once.
    let mut seen = Vec::new();
    l.traverse(|layer, e| seen.push((layer, e.val)));
    assert_eq!(
        seen,
        [
            (0, 1),
            (1, 111),
            (1, 112),
            (1, 13),
            (1, 14),
            (1, 15),
            (2, 20),
            (2, 21)
        ]
    );
    drop(l);
    t.assert_all_dropped_once();
}

#[test]
fn break_right_after_a_layer_ends_completes_it() {
    let t = Tracker::new();
    let mut l = filled(&t, &[&[0, 1], &[10]]);
    let mut cursor = l.cursor();
    while let Some((layer, e)) = cursor.next_with_layer() {
        if layer == 1 {
            break;
        }
        if e.val == 0 {
            drop(e.remove());
            cursor.push(t.elem(2));
        }
    }
    drop(cursor);
    assert_eq!(all_vals(&l), [vec![1, 2], vec![10]]);
    t.assert_live_exactly(&[1, 2, 3]);
}

#[test]
fn break_settles_the_held_element_with_the_predicate() {
    let t = Tracker::new();
    let layer = || ReadWriteCollection::with_auto_remove(expired as Policy);
    let mut l: Layers<Elem, usize, Policy> = Layers::from_collections([layer(), layer()]);
    l.push(0, t.elem(0));
    l.push(0, t.elem(1));
    l.push(0, t.elem(2).flagged());
    l.push(1, t.elem(10).flagged());
    let mut cursor = l.cursor();
    let mut e = cursor.next().unwrap();
    e.flag = true; // expires while held; the loop ends here
    drop(cursor);
    // Held and expired: removed when the cursor completes. Unvisited
    // elements are kept as they are, expired or not.
    assert_eq!(vals(l.layer(0)), [1, 2]);
    assert_eq!(vals(l.layer(1)), [10]);
    t.assert_live_exactly(&[1, 2, 3]);

    // A pass over [1, 2!] and [10!]: the expired ones are never yielded.
    let mut seen = Vec::new();
    l.traverse(|layer, e| seen.push((layer, e.val)));
    assert_eq!(seen, [(0, 1)]);
    assert_eq!(all_vals(&l), [vec![1], vec![]]);
    t.assert_live_exactly(&[1]);

    // The last element of a layer, expiring while held, leaves when the
    // cursor moves into the next layer (before the next layer's first
    // element is lent out).
    l.push(1, t.elem(11)); // id 4
    let mut cursor = l.cursor();
    let mut e = cursor.next().unwrap();
    assert_eq!(e.val, 1);
    e.flag = true;
    let e = cursor.next().unwrap();
    assert_eq!(e.val, 11);
    assert_eq!(t.drops(1), 1, "the expired last element of layer 0 is gone");
    assert!(cursor.next().is_none());
    drop(cursor);
    assert_eq!(all_vals(&l), [vec![], vec![11]]);
    t.assert_live_exactly(&[4]);
    drop(l);
    t.assert_all_dropped_once();
}

#[test]
fn panic_mid_layer_leaves_every_layer_valid() {
    let t = Tracker::new();
    let layer = || ReadWriteCollection::with_auto_remove(expired as Policy);
    let mut l: Layers<Elem, usize, Policy> = Layers::from_collections([layer(), layer(), layer()]);
    for (i, vs) in [[0, 1, 2], [10, 11, 12], [20, 21, 22]].iter().enumerate() {
        for &v in vs {
            l.push(i, t.elem(v)); // ids 0..9 in order
        }
    }
    let msg = expect_panic(|| {
        let mut cursor = l.cursor();
        while let Some((layer, mut e)) = cursor.next_with_layer() {
            match (layer, e.val) {
                (0, 1) => drop(e.remove()),
                (0, 2) => e.push(t.elem(3)), // id 9
                (1, 10) => drop(e.remove()),
                (1, 11) => {
                    e.val = 111;
                    e.flag = true; // expired, but unwinding settles nothing
                    e.push(t.elem(13)); // id 10
                    panic!("boom in layer 1");
                }
                _ => {}
            }
        }
    });
    assert_eq!(msg, "boom in layer 1");
    // Layer 0 completed; layer 1 keeps the held element (as it was when
    // the panic hit), the unvisited one and the pushed one, in order;
    // layer 2 was never started.
    assert_eq!(vals(l.layer(0)), [0, 2, 3]);
    assert_eq!(vals(l.layer(1)), [111, 12, 13]);
    assert!(l.layer(1)[0].flag);
    assert_eq!(vals(l.layer(2)), [20, 21, 22]);
    assert_eq!(
        (0..3).flat_map(|i| ids(l.layer(i))).collect::<Vec<_>>(),
        [0, 2, 9, 4, 5, 10, 6, 7, 8]
    );
    t.assert_live_exactly(&[0, 2, 4, 5, 6, 7, 8, 9, 10]);

    // Usable afterwards: the next pass removes the expired element.
    let mut seen = Vec::new();
    l.traverse(|layer, e| seen.push((layer, e.val)));
    assert_eq!(
        seen,
        [
            (0, 0),
            (0, 2),
            (0, 3),
            (1, 12),
            (1, 13),
            (2, 20),
            (2, 21),
            (2, 22)
        ]
    );
    t.assert_live_exactly(&[0, 2, 5, 6, 7, 8, 9, 10]);
    drop(l);
    t.assert_all_dropped_once();
}

#[test]
fn panic_in_the_traverse_closure_and_on_the_first_element_of_a_layer() {
    let t = Tracker::new();
    let mut l = filled(&t, &[&[0, 1], &[10, 11]]);
    let msg = expect_panic(|| {
        l.traverse(|layer, mut e| {
            if layer == 0 {
                e.val += 100;
                if e.val == 100 {
                    drop(e.remove());
                }
            } else {
                panic!("first of layer 1");
            }
        })
    });
    assert_eq!(msg, "first of layer 1");
    assert_eq!(all_vals(&l), [vec![101], vec![10, 11]]);
    t.assert_live_exactly(&[1, 2, 3]);
    drop(l);
    t.assert_all_dropped_once();
}

#[test]
fn forgotten_layers_cursor_leaks_the_layer_being_walked_and_nothing_else() {
    let t = Tracker::new();
    let mut l = filled(&t, &[&[0, 1], &[10, 11, 12], &[20]]);
    let mut cursor = l.cursor();
    while let Some((layer, e)) = cursor.next_with_layer() {
        match e.val {
            0 => drop(e.remove()),
            10 => drop(e.remove()),
            11 => {
                cursor.push(t.elem(13)); // id 6
                break;
            }
            _ => assert_ne!(layer, 2),
        }
    }
    mem::forget(cursor);
    // Layer 0's pass completed when the cursor moved on to layer 1; layer
    // 1 was being walked: it leaks its elements and is left empty; layer 2
    // was never touched.
    assert_eq!(all_vals(&l), [vec![1], vec![], vec![20]]);
    assert_eq!(l.len(), 2);
    let leaked = [3, 4, 6];
    t.assert_live_exactly(&[1, 3, 4, 5, 6]);

    // Usable afterwards.
    l.push(1, t.elem(14)); // id 7
    let mut seen = Vec::new();
    l.traverse(|layer, mut e| {
        seen.push((layer, e.val));
        if e.val == 14 {
            e.push(t.elem(15)); // id 8
        }
    });
    assert_eq!(seen, [(0, 1), (1, 14), (1, 15), (2, 20)]);
    assert_eq!(all_vals(&l), [vec![1], vec![14, 15], vec![20]]);
    drop(l);
    t.assert_live_exactly(&leaked);
}

#[test]
fn forgetting_a_layers_cursor_before_it_starts_or_after_it_ends_leaks_nothing() {
    let t = Tracker::new();
    let mut l = filled(&t, &[&[0], &[1, 2], &[3]]);
    mem::forget(l.cursor());
    assert_eq!(all_vals(&l), [vec![0], vec![1, 2], vec![3]]);
    t.assert_live_exactly(&[0, 1, 2, 3]);
    l.set_enabled(2, false);
    let mut cursor = l.cursor();
    while cursor.next().is_some() {}
    mem::forget(cursor);
    // Every layer's pass completed when the cursor moved past it (layer 2,
    // disabled, was not walked): nothing is lost.
    assert_eq!(all_vals(&l), [vec![0], vec![1, 2], vec![3]]);
    t.assert_live_exactly(&[0, 1, 2, 3]);
    drop(l);
    t.assert_live_exactly(&[]);
}

// ------------------------------------------------- Debug, Clone, len, clear

#[test]
fn debug_shows_each_layers_flags_and_items() {
    let mut l: Layers<u8> = Layers::new(2);
    l.push(0, 1);
    l.push(0, 2);
    l.set_visible(0, false);
    l.set_enabled(1, false);
    assert_eq!(
        format!("{l:?}"),
        "[Layer { enabled: true, visible: false, items: [1, 2] }, \
         Layer { enabled: false, visible: true, items: [] }]"
    );
    let mut cursor = l.cursor();
    assert_eq!(format!("{cursor:?}"), "LayersCursor { layer: None, .. }");
    let _ = cursor.next();
    assert_eq!(format!("{cursor:?}"), "LayersCursor { layer: Some(0), .. }");
    while cursor.next().is_some() {}
    assert_eq!(format!("{cursor:?}"), "LayersCursor { layer: None, .. }");
}

#[test]
fn clone_is_deep_and_keeps_flags_and_settings() {
    let t = Tracker::new();
    let mut bounded = ReadWriteCollection::with_auto_remove(expired as Policy);
    bounded.set_max_len(Some(4));
    let mut unordered = ReadWriteCollection::with_auto_remove(never as Policy);
    unordered.set_mode(Mode::Unordered);
    let mut l: Layers<Elem, usize, Policy> = Layers::from_collections([bounded, unordered]);
    l.push(0, t.elem(0));
    l.push(0, t.elem(1));
    l.push(1, t.elem(10));
    l.set_enabled(0, false);
    l.set_visible(1, false);

    let mut c = l.clone();
    assert_eq!(all_vals(&c), all_vals(&l));
    assert_eq!(all_ids(&c), [3, 4, 5], "clones are new elements");
    assert_eq!(c.layer(0).max_len(), Some(4));
    assert_eq!(c.layer(1).mode(), Mode::Unordered);
    assert!(!c.is_enabled(0) && c.is_enabled(1));
    assert!(c.is_visible(0) && !c.is_visible(1));
    // The policy came along: flagged elements are removed in the clone.
    c.set_enabled(0, true);
    c.layer_mut(0)[1].flag = true;
    c.traverse(|_, _| {});
    assert_eq!(all_vals(&c), [vec![0], vec![10]]);
    c.push(1, t.elem(11));
    // The original is unchanged.
    assert_eq!(all_vals(&l), [vec![0, 1], vec![10]]);
    assert_eq!(all_ids(&l), [0, 1, 2]);
    assert!(!l.is_enabled(0));
    t.assert_live_exactly(&[0, 1, 2, 3, 5, 6]);
    drop(c);
    t.assert_live_exactly(&[0, 1, 2]);
    drop(l);
    t.assert_all_dropped_once();
}

#[test]
fn len_is_empty_and_clear_cover_every_layer_and_keep_flags() {
    let t = Tracker::new();
    let mut l = filled(&t, &[&[0, 1], &[], &[20, 21, 22]]);
    l.set_enabled(2, false);
    l.set_visible(0, false);
    assert_eq!(l.len(), 5);
    assert!(!l.is_empty());
    l.layer_mut(0).clear();
    assert_eq!(l.len(), 3);
    assert!(!l.is_empty());
    t.assert_live_exactly(&[2, 3, 4]);
    l.clear();
    assert_eq!(l.len(), 0);
    assert!(l.is_empty());
    assert_eq!(l.layer_count(), 3);
    assert!(!l.is_visible(0) && l.is_enabled(0));
    assert!(!l.is_enabled(2) && l.is_visible(2));
    t.assert_all_dropped_once();
    l.push(2, t.elem(30));
    assert_eq!(l.len(), 1);
    assert_eq!(all_vals(&l), [vec![], vec![], vec![30]]);
}

/// `LayersCursor` names its key, then its policy type, as `Layers` does.
#[test]
fn layers_cursor_type_names() {
    let mut plain: Layers<u8> = Layers::new(1);
    plain.push(0, 1);
    let cursor: LayersCursor<'_, u8> = plain.cursor();
    drop(cursor);
    let mut with_policy: Layers<u8, usize, fn(&u8) -> bool> =
        Layers::from_collections([ReadWriteCollection::with_auto_remove(
            (|v: &u8| *v == 0) as fn(&u8) -> bool,
        )]);
    with_policy.push(0, 0);
    with_policy.push(0, 1);
    let mut cursor: LayersCursor<'_, u8, usize, fn(&u8) -> bool> = with_policy.cursor();
    assert_eq!(cursor.next().as_deref(), Some(&1));
    assert!(cursor.next().is_none());
    drop(cursor);
    assert_eq!(with_policy.layer(0).as_slice(), [1]);
    let _: &NoAutoRemove = plain.layer(0).policy();
}

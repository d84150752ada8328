//! Pushes from one layer into another during a pass: behaviour, a model
//! over `Vec<Vec<T>>`, and disjoint access.

use super::*;

// ===================================================== cross-layer pushes

/// Three layers keyed by `Layer`, holding `actors` in `Actors`.
fn world(t: &Tracker, background: &[i64], actors: &[i64], bullets: &[i64]) -> Layers<Elem, Layer> {
    let mut l = Layers::new(3);
    for &v in background {
        l.push(Layer::Background, t.elem(v));
    }
    for &v in actors {
        l.push(Layer::Actors, t.elem(v));
    }
    for &v in bullets {
        l.push(Layer::Bullets, t.elem(v));
    }
    l
}

fn keyed_vals(l: &Layers<Elem, Layer>) -> Vec<Vec<i64>> {
    (0..l.layer_count())
        .map(|i| vals(l.layer_by_index(i)))
        .collect()
}

trait ByIndex {
    fn layer_by_index(&self, i: usize) -> &ReadWriteCollection<Elem>;
}

impl ByIndex for Layers<Elem, Layer> {
    fn layer_by_index(&self, i: usize) -> &ReadWriteCollection<Elem> {
        let key = [Layer::Background, Layer::Actors, Layer::Bullets][i];
        self.layer(key)
    }
}

#[test]
fn entry_push_to_current_and_later_layers_is_visited_in_this_pass_earlier_in_the_next() {
    let t = Tracker::new();
    let mut l = world(&t, &[0], &[10, 11], &[20]);
    let mut seen = Vec::new();
    let mut cursor = l.cursor();
    while let Some((layer, mut e)) = cursor.next_with_layer() {
        seen.push((layer.index(), e.val));
        assert_eq!(e.layer(), layer);
        match e.val {
            0 => e.push_to(Layer::Bullets, t.elem(21)), // later, two layers on
            10 => e.push_to(Layer::Actors, t.elem(12)), // current: after 11
            11 => {
                e.push_to(Layer::Background, t.elem(1)); // earlier: next pass
                e.push_to(Layer::Bullets, t.elem(22)); // later
            }
            12 => drop(e.remove()),
            21 => {
                e.push_to(Layer::Actors, t.elem(13)); // earlier
                e.push_to(Layer::Bullets, t.elem(23)); // current
            }
            _ => {}
        }
    }
    drop(cursor);
    assert_eq!(
        seen,
        [
            (0, 0),
            (1, 10),
            (1, 11),
            (1, 12),
            (2, 20),
            (2, 21),
            (2, 22),
            (2, 23)
        ]
    );
    assert_eq!(
        keyed_vals(&l),
        [vec![0, 1], vec![10, 11, 13], vec![20, 21, 22, 23]]
    );
    // The next pass visits what went into earlier layers.
    let mut next = Vec::new();
    l.traverse(|layer, e| next.push((layer.index(), e.val)));
    assert_eq!(
        next,
        [
            (0, 0),
            (0, 1),
            (1, 10),
            (1, 11),
            (1, 13),
            (2, 20),
            (2, 21),
            (2, 22),
            (2, 23)
        ]
    );
    drop(l);
    t.assert_all_dropped_once();
}

#[test]
fn cursor_push_to_works_before_the_first_next_between_entries_and_after_the_last() {
    let t = Tracker::new();
    let mut l = filled(&t, &[&[0], &[10]]);
    let mut cursor = l.cursor();
    cursor.push_to(1, t.elem(11)); // before the walk: visited this pass
    cursor.push_to(0, t.elem(1)); // likewise
    let mut seen = Vec::new();
    while let Some(e) = cursor.next() {
        let v = e.val;
        seen.push(v);
        if v == 1 {
            drop(e.remove());
            cursor.push_to(0, t.elem(2)); // current layer, entry gone: visited
            cursor.push_to(1, t.elem(12)); // later: visited
        } else if v == 12 {
            cursor.push_to(0, t.elem(3)); // earlier: next pass
        }
    }
    assert_eq!(cursor.layer(), None);
    cursor.push_to(1, t.elem(13)); // after the walk: next pass
    cursor.push_to(0, t.elem(4));
    drop(cursor);
    assert_eq!(seen, [0, 1, 2, 10, 11, 12]);
    assert_eq!(all_vals(&l), [vec![0, 2, 3, 4], vec![10, 11, 12, 13]]);
    drop(l);
    t.assert_all_dropped_once();
}

#[test]
fn push_to_a_disabled_layer_keeps_the_element_unvisited() {
    let t = Tracker::new();
    let mut l = world(&t, &[0], &[10], &[20]);
    l.set_enabled(Layer::Background, false);
    l.set_enabled(Layer::Bullets, false);
    let mut seen = Vec::new();
    l.traverse(|_, mut e| {
        seen.push(e.val);
        e.push_to(Layer::Background, t.elem(e.val + 1));
        e.push_to(Layer::Bullets, t.elem(e.val + 11));
    });
    assert_eq!(seen, [10]);
    assert_eq!(keyed_vals(&l), [vec![0, 11], vec![10], vec![20, 21]]);
    drop(l);
    t.assert_all_dropped_once();
}

#[test]
fn try_push_to_a_full_bounded_layer_gives_the_value_back_in_every_position() {
    let t = Tracker::new();
    // Each layer holds at most 2.
    let mut l: Layers<Elem> =
        Layers::from_collections((0..3).map(|_| ReadWriteCollection::bounded(2)));
    l.push(0, t.elem(0));
    l.push(1, t.elem(10));
    l.push(2, t.elem(20));
    let mut refused = Vec::new();
    let mut cursor = l.cursor();
    while let Some((layer, mut e)) = cursor.next_with_layer() {
        if layer == 1 && e.val == 10 {
            // Current layer: one more fits (10 + 11), then full.
            assert!(e.try_push_to(1, t.elem(11)).is_ok());
            refused.push(e.try_push_to(1, t.elem(12)).unwrap_err().into_inner().val);
            // Earlier layer (walked): one more fits.
            assert!(e.try_push_to(0, t.elem(1)).is_ok());
            refused.push(e.try_push_to(0, t.elem(2)).unwrap_err().into_inner().val);
            // Later layer: one more fits.
            assert!(e.try_push_to(2, t.elem(21)).is_ok());
            refused.push(e.try_push_to(2, t.elem(22)).unwrap_err().into_inner().val);
            // Removing makes room in the current layer.
            drop(e.remove());
            assert!(cursor.try_push_to(1, t.elem(13)).is_ok());
            refused.push(
                cursor
                    .try_push_to(1, t.elem(14))
                    .unwrap_err()
                    .into_inner()
                    .val,
            );
            refused.push(
                cursor
                    .try_push_to(0, t.elem(3))
                    .unwrap_err()
                    .into_inner()
                    .val,
            );
        }
    }
    drop(cursor);
    assert_eq!(refused, [12, 2, 22, 14, 3]);
    assert_eq!(all_vals(&l), [vec![0, 1], vec![11, 13], vec![20, 21]]);
    drop(l);
    t.assert_all_dropped_once();
}

#[test]
fn push_to_a_full_layer_panics_and_leaves_every_layer_valid() {
    let t = Tracker::new();
    let mut l: Layers<Elem> =
        Layers::from_collections([ReadWriteCollection::new(), ReadWriteCollection::bounded(1)]);
    l.push(0, t.elem(0));
    l.push(0, t.elem(1));
    l.push(1, t.elem(10));
    let msg = expect_panic(|| {
        l.traverse(|_, mut e| {
            if e.val == 0 {
                e.push_to(1, t.elem(11));
            }
        })
    });
    assert!(msg.contains("full bounded layer"), "{msg}");
    assert_eq!(all_vals(&l), [vec![0, 1], vec![10]]);
    let msg = expect_panic(|| {
        let mut cursor = l.cursor();
        cursor.next();
        cursor.push_to(1, t.elem(12));
    });
    assert!(msg.contains("try_push_to"), "{msg}");
    assert_eq!(all_vals(&l), [vec![0, 1], vec![10]]);
    drop(l);
    t.assert_all_dropped_once();
}

#[test]
fn push_to_a_missing_layer_panics_drops_the_value_and_changes_nothing() {
    let t = Tracker::new();
    let mut l: Layers<Elem, Layer> = Layers::new(2); // no Bullets layer
    l.push(Layer::Actors, t.elem(10));
    let msg = "layer index 2 out of range for 2 layers";
    assert_eq!(
        expect_panic(|| l.traverse(|_, mut e| e.push_to(Layer::Bullets, t.elem(20)))),
        msg
    );
    assert_eq!(
        expect_panic(|| {
            let mut cursor = l.cursor();
            let mut e = cursor.next().unwrap();
            e.try_push_to(Layer::Bullets, t.elem(21))
        }),
        msg
    );
    assert_eq!(
        expect_panic(|| l.cursor().push_to(Layer::Bullets, t.elem(22))),
        msg
    );
    assert_eq!(vals(l.layer(Layer::Actors)), [10]);
    t.assert_live_exactly(&[0]);
    drop(l);
    t.assert_all_dropped_once();
}

#[test]
fn panic_after_cross_layer_pushes_keeps_every_element_or_drops_it_once() {
    let t = Tracker::new();
    let mut l = filled(&t, &[&[0, 1], &[10, 11], &[20]]);
    let result = catch_unwind(AssertUnwindSafe(|| {
        l.traverse(|_, mut e| match e.val {
            0 => e.push_to(2, t.elem(21)),
            10 => {
                e.push_to(0, t.elem(2));
                e.push_to(1, t.elem(12));
                e.push_to(2, t.elem(22));
                drop(e.remove());
            }
            11 => panic!("boom"),
            _ => {}
        })
    }));
    assert!(result.is_err());
    // Layer 0 walked + its push; layer 1: 10 removed, 11 held (kept), 12
    // unvisited; layer 2 never reached, pushes kept.
    assert_eq!(
        all_vals(&l),
        [vec![0, 1, 2], vec![11, 12], vec![20, 21, 22]]
    );
    drop(l);
    t.assert_all_dropped_once();
}

#[test]
fn push_to_with_a_predicate_visits_and_prunes_pushed_elements() {
    let t = Tracker::new();
    let mut l: Layers<Elem, usize, Policy> = Layers::from_collections(
        (0..2).map(|_| ReadWriteCollection::with_auto_remove(expired as Policy)),
    );
    l.push(0, t.elem(0));
    let mut seen = Vec::new();
    l.traverse(|_, mut e| {
        seen.push(e.val);
        if e.val == 0 {
            e.push_to(1, t.elem(10).flagged()); // removed when reached
            e.push_to(1, t.elem(11));
        } else if e.val == 11 {
            e.push_to(0, t.elem(1).flagged()); // earlier: removed next pass
        }
    });
    assert_eq!(seen, [0, 11]);
    assert_eq!(all_vals(&l), [vec![0, 1], vec![11]]);
    l.traverse(|_, _| {});
    assert_eq!(all_vals(&l), [vec![0], vec![11]]);
    drop(l);
    t.assert_all_dropped_once();
}

#[test]
fn layer_entry_converts_to_entry_and_debug_prints_layer_and_value() {
    let mut l: Layers<u8> = Layers::new(2);
    l.push(1, 7);
    let mut cursor = l.cursor();
    let e = cursor.next().unwrap();
    assert_eq!(format!("{e:?}"), "LayerEntry { layer: 1, value: 7 }");
    let mut plain: Entry<'_, u8> = e.into_entry();
    *plain += 1;
    drop(cursor);
    assert_eq!(l.layer(1), &[8]);
}

// ------------------------------------------ cross-layer model: Vec<Vec<T>>

/// What the loop does with one visited element.
#[derive(Clone, Copy, Debug)]
enum XAct {
    Keep,
    Remove,
    Bump,
    /// `push_to` / `try_push_to` through the entry, to layer `n % layers`.
    EntryPushTo(u8, bool),
    /// `remove`, then `push_to` / `try_push_to` through the cursor.
    RemoveThenCursorPushTo(u8, bool),
    /// `push_to` / `try_push_to` through the entry into its own layer.
    EntryPush(bool),
    Break,
}

impl Arbitrary for XAct {
    fn arbitrary(g: &mut Gen) -> Self {
        match u8::arbitrary(g) % 20 {
            0..=3 => XAct::Keep,
            4..=6 => XAct::Remove,
            7 => XAct::Bump,
            8..=12 => XAct::EntryPushTo(u8::arbitrary(g), bool::arbitrary(g)),
            13..=16 => XAct::RemoveThenCursorPushTo(u8::arbitrary(g), bool::arbitrary(g)),
            17..=18 => XAct::EntryPush(bool::arbitrary(g)),
            _ => XAct::Break,
        }
    }
}

#[derive(Clone, Debug)]
struct XSetup {
    /// Per layer: enabled, optional bound, initial element count.
    layers: Vec<(bool, Option<u8>, u8)>,
    /// Before the first `next`: `cursor.push_to` to these layers.
    pre_pushes: Vec<u8>,
    /// One action per visited element, in visit order (then `Keep`).
    acts: Vec<XAct>,
    passes: u8,
}

impl Arbitrary for XSetup {
    fn arbitrary(g: &mut Gen) -> Self {
        let n = 1 + usize::from(u8::arbitrary(g) % 4);
        XSetup {
            layers: (0..n)
                .map(|_| {
                    let bound = if u8::arbitrary(g) % 3 == 0 {
                        Some(u8::arbitrary(g) % 6)
                    } else {
                        None
                    };
                    (u8::arbitrary(g) % 5 != 0, bound, u8::arbitrary(g) % 5)
                })
                .collect(),
            pre_pushes: Vec::<u8>::arbitrary(g).into_iter().take(3).collect(),
            acts: Arbitrary::arbitrary(g),
            passes: 1 + u8::arbitrary(g) % 3,
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let base = self.clone();
        let acts = self.acts.shrink().map(move |acts| XSetup {
            acts,
            ..base.clone()
        });
        Box::new(acts)
    }
}

/// The model of one layer during a pass.
enum XState {
    /// Not walked: pushes append to `items`.
    Waiting,
    /// Being walked: kept, held, queue.
    Walking {
        kept: Vec<u32>,
        held: Option<u32>,
        queue: VecDeque<u32>,
    },
    /// Walked: `items` is final, pushes append to it.
    Walked,
}

struct XModel {
    items: Vec<Vec<u32>>,
    enabled: Vec<bool>,
    max: Vec<usize>,
}

impl XModel {
    fn len(&self, states: &[XState], i: usize) -> usize {
        match &states[i] {
            XState::Walking { kept, held, queue } => {
                kept.len() + usize::from(held.is_some()) + queue.len()
            }
            _ => self.items[i].len(),
        }
    }

    /// A push into layer `i`: whether it is accepted.
    fn push(&mut self, states: &mut [XState], i: usize, v: u32) -> bool {
        if self.len(states, i) >= self.max[i] {
            return false;
        }
        match &mut states[i] {
            XState::Walking { queue, .. } => queue.push_back(v),
            _ => self.items[i].push(v),
        }
        true
    }
}

fn cross_layer_model(setup: XSetup) {
    let n = setup.layers.len();
    let mut next_id = 0u32;
    let mut fresh = || {
        next_id += 1;
        next_id * 10
    };
    let mut layers: Layers<u32> =
        Layers::from_collections(setup.layers.iter().map(|&(_, b, _)| {
            let mut c = ReadWriteCollection::new();
            c.set_max_len(b.map(usize::from));
            c
        }));
    let mut model = XModel {
        items: vec![Vec::new(); n],
        enabled: setup.layers.iter().map(|l| l.0).collect(),
        max: setup
            .layers
            .iter()
            .map(|l| l.1.map_or(usize::MAX, usize::from))
            .collect(),
    };
    for (i, &(enabled, _, count)) in setup.layers.iter().enumerate() {
        layers.set_enabled(i, enabled);
        for _ in 0..count {
            let v = fresh();
            let accepted = layers.try_push(i, v).is_ok();
            assert_eq!(accepted, model.items[i].len() < model.max[i]);
            if accepted {
                model.items[i].push(v);
            }
        }
    }
    let mut acts = setup.acts.iter().copied();
    for _ in 0..setup.passes {
        let mut states: Vec<XState> = (0..n).map(|_| XState::Waiting).collect();
        let mut cursor = layers.cursor();
        for &p in &setup.pre_pushes {
            let i = usize::from(p) % n;
            let v = fresh();
            let got = cursor.try_push_to(i, v).is_ok();
            assert_eq!(got, model.push(&mut states, i, v), "pre-pass push_to {i}");
        }
        let mut current: Option<usize> = None;
        loop {
            // Model `next`: settle the held element (kept), then yield.
            let expected = loop {
                if let Some(c) = current {
                    if let XState::Walking { kept, held, queue } = &mut states[c] {
                        kept.extend(held.take());
                        if let Some(v) = queue.pop_front() {
                            *held = Some(v);
                            break Some((c, v));
                        }
                        model.items[c] = mem::take(kept);
                    }
                    states[c] = XState::Walked;
                }
                let start = current.map_or(0, |c| c + 1);
                match (start..n).find(|&i| model.enabled[i]) {
                    Some(i) => {
                        current = Some(i);
                        states[i] = XState::Walking {
                            kept: Vec::new(),
                            held: None,
                            queue: mem::take(&mut model.items[i]).into(),
                        };
                    }
                    None => {
                        current = None;
                        break None;
                    }
                }
            };
            let got = cursor.next_with_layer();
            assert_eq!(
                got.as_ref().map(|(l, e)| (*l, **e)),
                expected,
                "visit order"
            );
            let Some((layer, mut e)) = got else { break };
            let act = acts.next().unwrap_or(XAct::Keep);
            let held = |states: &mut [XState]| match &mut states[layer] {
                XState::Walking { held, .. } => held.take(),
                _ => unreachable!(),
            };
            match act {
                XAct::Keep => {}
                XAct::Bump => {
                    *e += 1;
                    if let XState::Walking { held: Some(h), .. } = &mut states[layer] {
                        *h += 1;
                    }
                }
                XAct::Remove => {
                    let v = e.remove();
                    assert_eq!(Some(v), held(&mut states));
                }
                XAct::EntryPushTo(to, checked) | XAct::RemoveThenCursorPushTo(to, checked) => {
                    let to = usize::from(to) % n;
                    let v = fresh();
                    let got = if let XAct::EntryPushTo(..) = act {
                        if checked {
                            e.try_push_to(to, v).map_err(|err| err.into_inner())
                        } else if model.len(&states, to) < model.max[to] {
                            e.push_to(to, v);
                            Ok(())
                        } else {
                            Err(v)
                        }
                    } else {
                        let r = e.remove();
                        assert_eq!(Some(r), held(&mut states));
                        if checked || model.len(&states, to) >= model.max[to] {
                            cursor.try_push_to(to, v).map_err(|err| err.into_inner())
                        } else {
                            cursor.push_to(to, v);
                            Ok(())
                        }
                    };
                    let accepted = model.push(&mut states, to, v);
                    assert_eq!(got.is_ok(), accepted, "push_to {to} acceptance");
                    if let Err(back) = got {
                        assert_eq!(back, v, "the refused value comes back");
                    }
                }
                XAct::EntryPush(checked) => {
                    let v = fresh();
                    let got = if checked || model.len(&states, layer) >= model.max[layer] {
                        e.try_push(v).map_err(|err| err.into_inner())
                    } else {
                        e.push(v);
                        Ok(())
                    };
                    assert_eq!(got.is_ok(), model.push(&mut states, layer, v));
                }
                XAct::Break => break,
            }
        }
        drop(cursor);
        // Completion: the layer being walked keeps kept + held + queue;
        // every other layer's items are final.
        for (i, s) in states.into_iter().enumerate() {
            if let XState::Walking {
                mut kept,
                held,
                queue,
            } = s
            {
                kept.extend(held);
                kept.extend(queue);
                model.items[i] = kept;
            }
        }
        let actual: Vec<Vec<u32>> = (0..n).map(|i| layers.layer(i).to_vec()).collect();
        assert_eq!(actual, model.items, "contents after the pass");
    }
}

#[test]
fn model_cross_layer_pushes() {
    qc().quickcheck(cross_layer_model as fn(XSetup));
}

#[test]
fn model_cross_layer_fixed() {
    use XAct::*;
    cross_layer_model(XSetup {
        layers: vec![
            (true, None, 2),
            (false, None, 1),
            (true, Some(3), 1),
            (true, None, 0),
        ],
        pre_pushes: vec![3, 2, 2],
        acts: vec![
            EntryPushTo(2, true),
            EntryPushTo(3, false),
            RemoveThenCursorPushTo(0, false),
            EntryPushTo(1, true),
            Bump,
            EntryPushTo(0, true),
            EntryPush(true),
            RemoveThenCursorPushTo(2, true),
            Remove,
            EntryPushTo(2, false),
            Keep,
            Break,
            EntryPushTo(3, true),
        ],
        passes: 3,
    });
}

// ------------------------------------------------------ disjoint access

#[test]
fn disjoint_layers_mut_gives_each_named_layer_once_in_key_order() {
    let t = Tracker::new();
    let mut l = world(&t, &[0], &[10, 11], &[20]);
    {
        let [bullets, actors] = l
            .disjoint_layers_mut([Layer::Bullets, Layer::Actors])
            .unwrap();
        assert_eq!(vals(&*bullets), [20]);
        assert_eq!(vals(&*actors), [10, 11]);
        bullets.push(actors.pop().unwrap());
    }
    assert_eq!(keyed_vals(&l), [vec![0], vec![10], vec![20, 11]]);
    let [a, b, c] = l
        .disjoint_layers_mut([Layer::Actors, Layer::Background, Layer::Bullets])
        .unwrap();
    assert_eq!((a.len(), b.len(), c.len()), (1, 1, 2));
    assert!(l
        .disjoint_layers_mut([Layer::Actors, Layer::Actors])
        .is_none());
    assert!(l.disjoint_layers_mut::<0>([]).is_some());
    let mut two: Layers<Elem, Layer> = Layers::new(2);
    assert!(two.disjoint_layers_mut([Layer::Bullets]).is_none());
    drop(l);
    t.assert_all_dropped_once();
}

/// A sink pass that unwinds does not check the held element: it stays in
/// its layer even though its predicate now says it expired, as the serial
/// cursor leaves it (no user code runs while unwinding).
#[test]
fn an_unwinding_sink_pass_does_not_check_the_held_element() {
    let expired: fn(&u32) -> bool = |n| *n == 0;
    let mut l: Layers<u32, usize, _> = Layers::from_collections([
        ReadWriteCollection::with_auto_remove(expired),
        ReadWriteCollection::with_auto_remove(expired),
    ]);
    l.push(0, 1);
    l.push(0, 2);
    l.push(1, 3);
    let mut sunk = Vec::new();
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut cursor = l.cursor_with_sink(|n| sunk.push(n));
        while let Some(mut e) = cursor.next() {
            if *e == 2 {
                *e = 0;
                panic!("boom");
            }
        }
    }));
    assert!(result.is_err());
    assert!(sunk.is_empty(), "{sunk:?}");
    assert_eq!(l.layer(0).as_slice(), [1, 0]);
    assert_eq!(l.layer(1).as_slice(), [3]);
}

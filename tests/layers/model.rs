//! The quickcheck model: random operation sequences against a plain
//! `Vec<(enabled, visible, Vec<element>)>`.

use super::*;

// ================================================================= model

/// (id, value, flag): an element's identity and state.
type Key = (u32, i64, bool);

/// `n` new elements; element `i` is flagged (expired) if bit `i % 8` of
/// `flags` is set.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Spawn {
    n: u8,
    flags: u8,
}

impl Arbitrary for Spawn {
    fn arbitrary(g: &mut Gen) -> Self {
        let n = if u8::arbitrary(g) % 8 == 0 {
            4 + u8::arbitrary(g) % 6
        } else {
            u8::arbitrary(g) % 3
        };
        Spawn {
            n,
            flags: u8::arbitrary(g) & u8::arbitrary(g),
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let flags = self.flags;
        Box::new(self.n.shrink().map(move |n| Spawn { n, flags }))
    }
}

fn spawn(t: &Tracker, s: Spawn) -> Vec<Elem> {
    (0..s.n)
        .map(|i| {
            let e = t.elem(1000 + i64::from(i));
            if s.flags & (1 << (i % 8)) != 0 {
                e.flagged()
            } else {
                e
            }
        })
        .collect()
}

/// How a traversal is driven.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Style {
    Next,
    NextWithLayer,
    Closure,
}

/// Done to the held element before the main action.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Pre {
    Nothing,
    Mutate(i8),
    /// Sets the flag: the predicate (if any) becomes true while held.
    SetFlag,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Main {
    Keep,
    Remove,
    /// Pushes through the entry.
    Push(Spawn),
    /// Reads the entry, then pushes through the cursor.
    CursorPush(Spawn),
    /// Removes, then pushes through the cursor.
    RemoveThenPush(Spawn),
    Break,
    Forget,
    Panic,
    PushThenPanic(Spawn),
}

#[derive(Clone, Copy, Debug)]
struct Action {
    pre: Pre,
    main: Main,
}

impl Action {
    const KEEP: Action = Action {
        pre: Pre::Nothing,
        main: Main::Keep,
    };

    /// The closure form has no cursor to push through, break out of or
    /// forget: those become the nearest thing it can do.
    fn for_style(self, style: Style) -> Action {
        if style != Style::Closure {
            return self;
        }
        let main = match self.main {
            Main::CursorPush(s) => Main::Push(s),
            Main::RemoveThenPush(_) => Main::Remove,
            Main::Break | Main::Forget => Main::Keep,
            m => m,
        };
        Action {
            pre: self.pre,
            main,
        }
    }
}

impl Arbitrary for Action {
    fn arbitrary(g: &mut Gen) -> Self {
        let pre = match u8::arbitrary(g) % 10 {
            0..=5 => Pre::Nothing,
            6..=7 => Pre::Mutate(i8::arbitrary(g)),
            _ => Pre::SetFlag,
        };
        let main = match u8::arbitrary(g) % 100 {
            0..=44 => Main::Keep,
            45..=64 => Main::Remove,
            65..=74 => Main::Push(Spawn::arbitrary(g)),
            75..=82 => Main::CursorPush(Spawn::arbitrary(g)),
            83..=89 => Main::RemoveThenPush(Spawn::arbitrary(g)),
            90..=93 => Main::Break,
            94 => Main::Forget,
            95..=97 => Main::Panic,
            _ => Main::PushThenPanic(Spawn::arbitrary(g)),
        };
        Action { pre, main }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let mut out = Vec::new();
        if self.pre != Pre::Nothing {
            out.push(Action {
                pre: Pre::Nothing,
                main: self.main,
            });
        }
        if self.main != Main::Keep {
            out.push(Action {
                pre: self.pre,
                main: Main::Keep,
            });
        }
        Box::new(out.into_iter())
    }
}

/// An operation; layer numbers are taken modulo the layer count.
#[derive(Clone, Debug)]
enum Op {
    Push {
        layer: u8,
        flag: bool,
    },
    /// Several elements through `layer_mut(k).extend` (or `try_push` when
    /// the layer is bounded).
    Extend {
        layer: u8,
        spawn: Spawn,
    },
    ToggleEnabled(u8),
    ToggleVisible(u8),
    Traverse {
        style: Style,
        actions: Vec<Action>,
    },
    ClearLayer(u8),
    Clear,
}

impl Arbitrary for Op {
    fn arbitrary(g: &mut Gen) -> Self {
        let layer = u8::arbitrary(g);
        match u8::arbitrary(g) % 100 {
            0..=24 => Op::Push {
                layer,
                flag: u8::arbitrary(g) % 4 == 0,
            },
            25..=34 => Op::Extend {
                layer,
                spawn: Spawn::arbitrary(g),
            },
            35..=44 => Op::ToggleEnabled(layer),
            45..=49 => Op::ToggleVisible(layer),
            50..=51 => Op::ClearLayer(layer),
            52 => Op::Clear,
            n => Op::Traverse {
                style: match n % 3 {
                    0 => Style::Next,
                    1 => Style::NextWithLayer,
                    _ => Style::Closure,
                },
                actions: Vec::arbitrary(g),
            },
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        match self {
            Op::Traverse { style, actions } => {
                let style = *style;
                let mut out: Vec<Op> = Vec::new();
                if style != Style::NextWithLayer {
                    out.push(Op::Traverse {
                        style: Style::NextWithLayer,
                        actions: actions.clone(),
                    });
                }
                let shrunk = actions
                    .shrink()
                    .map(move |actions| Op::Traverse { style, actions });
                Box::new(out.into_iter().chain(shrunk))
            }
            Op::Extend { layer, spawn } => {
                let layer = *layer;
                Box::new(spawn.shrink().map(move |spawn| Op::Extend { layer, spawn }))
            }
            _ => Box::new(std::iter::empty()),
        }
    }
}

/// The layers' shape: per-layer bound (1 to 4 layers) and whether all
/// layers share the "flag means expired" predicate.
#[derive(Clone, Debug)]
struct Setup {
    maxes: Vec<Option<u8>>,
    pred: bool,
}

impl Arbitrary for Setup {
    fn arbitrary(g: &mut Gen) -> Self {
        let n = 1 + usize::from(u8::arbitrary(g) % 4);
        let maxes = (0..n)
            .map(|_| (u8::arbitrary(g) % 3 == 0).then(|| u8::arbitrary(g) % 7))
            .collect();
        Setup {
            maxes,
            pred: bool::arbitrary(g),
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let mut out = Vec::new();
        if self.pred {
            out.push(Setup {
                maxes: self.maxes.clone(),
                pred: false,
            });
        }
        if self.maxes.len() > 1 {
            out.push(Setup {
                maxes: self.maxes[..self.maxes.len() - 1].to_vec(),
                pred: self.pred,
            });
        }
        for i in 0..self.maxes.len() {
            if self.maxes[i].is_some() {
                let mut maxes = self.maxes.clone();
                maxes[i] = None;
                out.push(Setup {
                    maxes,
                    pred: self.pred,
                });
            }
        }
        Box::new(out.into_iter())
    }
}

/// The model of one layer: `(enabled, visible, elements)` and its bound.
#[derive(Clone, Debug)]
struct LayerModel {
    enabled: bool,
    visible: bool,
    items: Vec<Key>,
    max: Option<usize>,
}

/// The layer a pass is walking: kept, held, and the queue of unvisited
/// originals followed by pushes.
struct Walk {
    layer: usize,
    max: usize,
    kept: Vec<Key>,
    held: Option<Key>,
    queue: VecDeque<Key>,
}

impl Walk {
    fn len(&self) -> usize {
        self.kept.len() + usize::from(self.held.is_some()) + self.queue.len()
    }
}

/// The model of one layered traversal.
struct PassModel {
    pred: bool,
    /// The first layer not started yet.
    next_layer: usize,
    walk: Option<Walk>,
    yielded: Vec<u32>,
}

impl PassModel {
    fn new(pred: bool) -> Self {
        PassModel {
            pred,
            next_layer: 0,
            walk: None,
            yielded: Vec::new(),
        }
    }

    /// Settles the held element as the cursor moving on does: kept, or
    /// dropped by the predicate.
    fn settle(&mut self) {
        let pred = self.pred;
        if let Some(w) = &mut self.walk {
            if let Some(h) = w.held.take() {
                if !(pred && h.2) {
                    w.kept.push(h);
                }
            }
        }
    }

    /// What `next()` yields: the layer and the element.
    fn next(&mut self, layers: &mut [LayerModel]) -> Option<(usize, Key)> {
        let pred = self.pred;
        loop {
            self.settle();
            if let Some(w) = &mut self.walk {
                while let Some(x) = w.queue.pop_front() {
                    if pred && x.2 {
                        continue; // removed when reached, never yielded
                    }
                    w.held = Some(x);
                    self.yielded.push(x.0);
                    return Some((w.layer, x));
                }
                let w = self.walk.take().unwrap();
                layers[w.layer].items = w.kept;
            }
            let start = self.next_layer;
            match (start..layers.len()).find(|&i| layers[i].enabled) {
                None => {
                    self.next_layer = layers.len();
                    return None;
                }
                Some(i) => {
                    self.next_layer = i + 1;
                    self.walk = Some(Walk {
                        layer: i,
                        max: layers[i].max.unwrap_or(usize::MAX),
                        kept: Vec::new(),
                        held: None,
                        queue: mem::take(&mut layers[i].items).into(),
                    });
                }
            }
        }
    }

    fn walk(&mut self) -> &mut Walk {
        self.walk.as_mut().expect("a layer is being walked")
    }

    fn held_mut(&mut self) -> &mut Key {
        self.walk().held.as_mut().expect("an element is held")
    }

    /// A push into the layer being walked: whether it is accepted.
    fn push(&mut self, k: Key) -> bool {
        let w = self.walk();
        if w.len() >= w.max {
            false
        } else {
            w.queue.push_back(k);
            true
        }
    }

    /// Early exit outside a panic: the held element is settled, then the
    /// layer keeps kept + unvisited.
    fn end_settled(&mut self, layers: &mut [LayerModel]) {
        self.settle();
        self.end_unsettled(layers);
    }

    /// Exit by panic: nothing is settled.
    fn end_unsettled(&mut self, layers: &mut [LayerModel]) {
        if let Some(w) = self.walk.take() {
            let mut items = w.kept;
            items.extend(w.held);
            items.extend(w.queue);
            layers[w.layer].items = items;
        }
    }

    /// `mem::forget`: the layer being walked loses (leaks) everything; the
    /// layers walked before it are complete (each layer's pass completes
    /// when the cursor moves on to the next).
    fn end_forgotten(&mut self, _layers: &mut [LayerModel]) -> Vec<u32> {
        let mut lost = Vec::new();
        if let Some(w) = self.walk.take() {
            lost.extend(
                w.kept
                    .iter()
                    .chain(w.held.iter())
                    .chain(w.queue.iter())
                    .map(|k| k.0),
            );
        }
        lost
    }
}

enum End {
    Natural,
    Settled,
    Forgot,
}

/// What is left to do after an action, outside the entry's borrow.
enum After {
    Continue,
    CursorPush(Spawn),
    Break,
    Forget,
}

fn keys<A>(c: &ReadWriteCollection<Elem, A>) -> Vec<Key> {
    c.iter().map(Elem::key).collect()
}

/// Pushes `s`'s elements, checking each acceptance against the model.
fn push_all(
    t: &Tracker,
    pm: &mut PassModel,
    s: Spawn,
    mut push: impl FnMut(Elem) -> Result<(), Elem>,
) {
    for e in spawn(t, s) {
        let k = e.key();
        let accept = pm.push(k);
        match push(e) {
            Ok(()) => assert!(accept, "push accepted past the layer's max"),
            Err(back) => {
                assert!(!accept, "push rejected below the layer's max");
                assert_eq!(back.key(), k, "the rejected value comes back");
            }
        }
    }
}

fn entry_push(e: &mut LayerEntry<'_, Elem>, x: Elem, bounded: bool) -> Result<(), Elem> {
    if bounded {
        e.try_push(x).map_err(|err| err.into_inner())
    } else {
        e.push(x);
        Ok(())
    }
}

fn cursor_push<A: AutoRemove<Elem>>(
    c: &mut LayersCursor<'_, Elem, usize, A>,
    x: Elem,
    bounded: bool,
) -> Result<(), Elem> {
    if bounded {
        c.try_push(x).map_err(|err| err.into_inner())
    } else {
        c.push(x);
        Ok(())
    }
}

/// Applies `action` to the held entry and, in lockstep, to the model.
fn act(
    t: &Tracker,
    pm: &mut PassModel,
    action: Action,
    mut e: LayerEntry<'_, Elem>,
    bounded: bool,
) -> After {
    match action.pre {
        Pre::Nothing => {}
        Pre::Mutate(d) => {
            e.val += i64::from(d);
            pm.held_mut().1 += i64::from(d);
        }
        Pre::SetFlag => {
            e.flag = true;
            pm.held_mut().2 = true;
        }
    }
    match action.main {
        Main::Keep => After::Continue,
        Main::Remove => {
            let v = e.remove();
            assert_eq!(Some(v.key()), pm.walk().held.take(), "removed element");
            After::Continue
        }
        Main::Push(s) => {
            push_all(t, pm, s, |x| entry_push(&mut e, x, bounded));
            After::Continue
        }
        Main::CursorPush(s) => {
            assert_eq!(Some(e.key()), pm.walk().held);
            After::CursorPush(s)
        }
        Main::RemoveThenPush(s) => {
            let v = e.remove();
            assert_eq!(Some(v.key()), pm.walk().held.take(), "removed element");
            After::CursorPush(s)
        }
        Main::Break => After::Break,
        Main::Forget => After::Forget,
        Main::Panic => panic!("panic while holding"),
        Main::PushThenPanic(s) => {
            push_all(t, pm, s, |x| entry_push(&mut e, x, bounded));
            panic!("panic after push");
        }
    }
}

struct Driver<'t, A> {
    layers: Layers<Elem, usize, A>,
    model: Vec<LayerModel>,
    pred: bool,
    t: &'t Tracker,
    leaked: Vec<u32>,
}

impl<A: AutoRemove<Elem>> Driver<'_, A> {
    fn check_state(&self) {
        let l = &self.layers;
        assert_eq!(l.layer_count(), self.model.len());
        for (i, m) in self.model.iter().enumerate() {
            assert_eq!(keys(l.layer(i)), m.items, "layer {i}'s contents");
            assert_eq!(l.is_enabled(i), m.enabled, "layer {i} enabled");
            assert_eq!(l.is_visible(i), m.visible, "layer {i} visible");
            assert_eq!(l.layer(i).max_len(), m.max, "layer {i}'s max");
            if let Some(max) = m.max {
                assert!(
                    l.layer(i).capacity() <= max,
                    "layer {i}: capacity {} above max {max}",
                    l.layer(i).capacity()
                );
            }
        }
        let visible: Vec<(usize, Key)> = l.iter_visible().map(|(i, e)| (i, e.key())).collect();
        let want: Vec<(usize, Key)> = self
            .model
            .iter()
            .enumerate()
            .filter(|(_, m)| m.visible)
            .flat_map(|(i, m)| m.items.iter().map(move |k| (i, *k)))
            .collect();
        assert_eq!(visible, want, "iter_visible");
        let total: usize = self.model.iter().map(|m| m.items.len()).sum();
        assert_eq!(l.len(), total, "len");
        assert_eq!(l.is_empty(), total == 0, "is_empty");
        let mut live: Vec<u32> = self
            .model
            .iter()
            .flat_map(|m| m.items.iter().map(|k| k.0))
            .collect();
        live.extend(&self.leaked);
        self.t.assert_live_exactly(&live);
    }

    fn push_one(&mut self, layer: usize, e: Elem) {
        let k = e.key();
        let m = &mut self.model[layer];
        match m.max {
            Some(max) => {
                let accept = m.items.len() < max;
                match self.layers.try_push(layer, e) {
                    Ok(()) => assert!(accept, "try_push accepted past the max"),
                    Err(err) => {
                        assert!(!accept, "try_push rejected below the max");
                        assert_eq!(err.into_inner().key(), k, "the rejected value comes back");
                    }
                }
                if accept {
                    m.items.push(k);
                }
            }
            None => {
                self.layers.push(layer, e);
                m.items.push(k);
            }
        }
    }

    fn op(&mut self, op: &Op) {
        let n = self.model.len();
        let idx = |k: u8| usize::from(k) % n;
        match op {
            Op::Push { layer, flag } => {
                let mut e = self.t.elem(i64::from(self.t.created() as u32));
                e.flag = *flag;
                self.push_one(idx(*layer), e);
            }
            Op::Extend { layer, spawn: s } => {
                let layer = idx(*layer);
                let new = spawn(self.t, *s);
                if self.model[layer].max.is_some() {
                    for e in new {
                        self.push_one(layer, e);
                    }
                } else {
                    self.model[layer].items.extend(new.iter().map(Elem::key));
                    self.layers.layer_mut(layer).extend(new);
                }
            }
            Op::ToggleEnabled(k) => {
                let i = idx(*k);
                let on = !self.model[i].enabled;
                self.layers.set_enabled(i, on);
                self.model[i].enabled = on;
            }
            Op::ToggleVisible(k) => {
                let i = idx(*k);
                let on = !self.model[i].visible;
                self.layers.set_visible(i, on);
                self.model[i].visible = on;
            }
            Op::ClearLayer(k) => {
                let i = idx(*k);
                self.layers.layer_mut(i).clear();
                self.model[i].items.clear();
            }
            Op::Clear => {
                self.layers.clear();
                self.model.iter_mut().for_each(|m| m.items.clear());
            }
            Op::Traverse { style, actions } => self.traverse(*style, actions),
        }
        self.check_state();
    }

    fn traverse(&mut self, style: Style, actions: &[Action]) {
        let mut pm = PassModel::new(self.pred);
        let t = self.t;
        let layers = &mut self.layers;
        let model = &mut self.model;
        let pm_ref = &mut pm;
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let pm = pm_ref;
            let mut i = 0;
            let mut action = || {
                let a = actions.get(i).copied().unwrap_or(Action::KEEP);
                i += 1;
                a.for_style(style)
            };
            if style == Style::Closure {
                layers.traverse(|layer, e| {
                    let expected = pm.next(model);
                    assert_eq!(Some((layer, e.key())), expected, "traverse visit order");
                    let bounded = model[layer].max.is_some();
                    let a = action();
                    match act(t, pm, a, e, bounded) {
                        After::Continue => {}
                        _ => unreachable!("the closure form only continues"),
                    }
                });
                assert_eq!(pm.next(model), None, "traverse ended early");
                return End::Natural;
            }
            let mut cursor = layers.cursor();
            loop {
                let expected = pm.next(model);
                let e = if style == Style::NextWithLayer {
                    let got = cursor.next_with_layer();
                    let seen = got.as_ref().map(|(l, e)| (*l, e.key()));
                    assert_eq!(seen, expected, "next_with_layer visit order");
                    got.map(|(_, e)| e)
                } else {
                    let got = cursor.next();
                    let seen = got.as_ref().map(|e| e.key());
                    assert_eq!(seen, expected.map(|(_, k)| k), "next visit order");
                    got
                };
                let Some(e) = e else {
                    assert_eq!(cursor.layer(), None, "layer() after the last");
                    return End::Natural;
                };
                let layer = pm.walk().layer;
                let bounded = model[layer].max.is_some();
                let a = action();
                match act(t, pm, a, e, bounded) {
                    After::Continue => {}
                    After::CursorPush(s) => {
                        push_all(t, pm, s, |x| cursor_push(&mut cursor, x, bounded));
                    }
                    After::Break => return End::Settled,
                    After::Forget => {
                        mem::forget(cursor);
                        return End::Forgot;
                    }
                }
                assert_eq!(cursor.layer(), Some(layer), "layer() while walking");
            }
        }));
        match outcome {
            Ok(End::Natural) => assert!(pm.walk.is_none(), "the pass ended mid-layer"),
            Ok(End::Settled) => pm.end_settled(&mut self.model),
            Ok(End::Forgot) => {
                let lost = pm.end_forgotten(&mut self.model);
                self.leaked.extend(lost);
            }
            Err(payload) => {
                let msg = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                assert!(msg.starts_with("panic "), "unexpected panic: {msg}");
                pm.end_unsettled(&mut self.model);
            }
        }
        let mut y = pm.yielded.clone();
        y.sort_unstable();
        y.dedup();
        assert_eq!(y.len(), pm.yielded.len(), "an element was yielded twice");
    }
}

fn drive<A: AutoRemove<Elem>>(
    setup: &Setup,
    ops: &[Op],
    layers: Layers<Elem, usize, A>,
    t: &Tracker,
) {
    let model = setup
        .maxes
        .iter()
        .map(|m| LayerModel {
            enabled: true,
            visible: true,
            items: Vec::new(),
            max: m.map(usize::from),
        })
        .collect();
    let mut d = Driver {
        layers,
        model,
        pred: setup.pred,
        t,
        leaked: Vec::new(),
    };
    d.check_state();
    for op in ops {
        d.op(op);
    }
    // A last pass over every layer that keeps everything: nothing moves.
    for i in 0..d.model.len() {
        if !d.model[i].enabled {
            d.op(&Op::ToggleEnabled(i as u8));
        }
    }
    d.op(&Op::Traverse {
        style: Style::Next,
        actions: Vec::new(),
    });
    let leaked = mem::take(&mut d.leaked);
    drop(d);
    t.assert_live_exactly(&leaked);
}

fn check(setup: Setup, ops: Vec<Op>) {
    let t = Tracker::new();
    let bounded = setup.maxes.iter().any(Option::is_some);
    if setup.pred {
        let layers = Layers::from_collections(setup.maxes.iter().map(|m| {
            let mut c = ReadWriteCollection::with_auto_remove(expired as Policy);
            c.set_max_len(m.map(usize::from));
            c
        }));
        drive(&setup, &ops, layers, &t);
    } else if bounded {
        let layers = Layers::from_collections(setup.maxes.iter().map(|m| {
            let mut c = ReadWriteCollection::new();
            c.set_max_len(m.map(usize::from));
            c
        }));
        drive(&setup, &ops, layers, &t);
    } else {
        drive(&setup, &ops, Layers::new(setup.maxes.len()), &t);
    }
}

#[test]
fn model_layers() {
    qc().quickcheck(check as fn(Setup, Vec<Op>));
}

/// Two or more layers with a predicate: the common game setup, checked on
/// its own so it is never starved by the one-layer cases.
#[test]
fn model_layers_with_predicate() {
    fn prop(mut setup: Setup, ops: Vec<Op>) {
        setup.pred = true;
        if setup.maxes.len() < 2 {
            setup.maxes.push(None);
        }
        check(setup, ops);
    }
    qc().quickcheck(prop as fn(Setup, Vec<Op>));
}

/// A fixed sequence touching every operation, action and style, so the
/// model is exercised even when random runs are few (Miri).
#[test]
fn model_fixed_sequence() {
    let s = |n, flags| Spawn { n, flags };
    let a = |pre, main| Action { pre, main };
    let push = |layer, flag| Op::Push { layer, flag };
    let mut ops = vec![
        push(0, false),
        push(0, true),
        push(1, false),
        push(2, false),
        push(2, false),
        push(3, true),
        push(3, false),
        Op::Extend {
            layer: 1,
            spawn: s(3, 0b010),
        },
    ];
    for style in [Style::Next, Style::NextWithLayer, Style::Closure] {
        ops.extend([
            Op::Traverse {
                style,
                actions: vec![
                    a(Pre::Mutate(3), Main::Keep),
                    a(Pre::SetFlag, Main::Push(s(2, 0b01))),
                    a(Pre::Nothing, Main::CursorPush(s(2, 0))),
                    a(Pre::Nothing, Main::RemoveThenPush(s(9, 0b1000_0001))),
                    a(Pre::SetFlag, Main::Remove),
                    a(Pre::Mutate(-1), Main::Keep),
                ],
            },
            Op::ToggleEnabled(1),
            Op::ToggleVisible(2),
            Op::Traverse {
                style,
                actions: vec![Action::KEEP, a(Pre::SetFlag, Main::Break)],
            },
            Op::Traverse {
                style,
                actions: vec![
                    Action::KEEP,
                    a(Pre::Mutate(5), Main::PushThenPanic(s(2, 0b10))),
                ],
            },
            Op::Traverse {
                style,
                actions: vec![Action::KEEP, Action::KEEP, a(Pre::SetFlag, Main::Panic)],
            },
            Op::ToggleEnabled(1),
            Op::Traverse {
                style,
                actions: vec![
                    Action::KEEP,
                    Action::KEEP,
                    a(Pre::Nothing, Main::Remove),
                    a(Pre::Nothing, Main::Push(s(12, 0))),
                    Action::KEEP,
                    a(Pre::SetFlag, Main::Forget),
                ],
            },
            push(1, false),
            push(2, false),
            Op::ToggleEnabled(0),
            Op::ClearLayer(3),
            Op::Traverse {
                style,
                actions: vec![a(Pre::Nothing, Main::RemoveThenPush(s(1, 0))); 4],
            },
            Op::ToggleEnabled(0),
            Op::ToggleVisible(2),
        ]);
    }
    ops.extend([Op::Clear, push(1, false), push(0, true)]);
    for pred in [false, true] {
        for (i, maxes) in [
            vec![None],
            vec![None, None, None, None],
            vec![Some(3), None, Some(0), Some(5)],
            vec![Some(2), Some(6)],
        ]
        .into_iter()
        .enumerate()
        {
            // Miri (about 9 s per setup) takes two: four unbounded layers
            // without a predicate, and the mixed bounds with one.
            let under_miri = [(false, 1), (true, 2)];
            if cfg!(miri) && !under_miri.contains(&(pred, i)) {
                continue;
            }
            check(Setup { maxes, pred }, ops.clone());
        }
    }
}

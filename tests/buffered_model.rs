//! Property test: random sequences of pushes, producer pushes, commits,
//! traversals (keep / remove / mutate / push, ending early by `break` or a
//! panic at random points), clears and prunes on a `BufferedCollection`,
//! checked after every operation against a plain model: a `visible` and a
//! `pending` `Vec` (plus the producers' queue, which `commit` appends after
//! the local pending elements).
//!
//! Checked after every operation: visible and pending contents and order,
//! `len` / `pending_len`, the order each traversal visited elements in, and
//! the number of live elements (each element is dropped exactly once).
#![cfg(not(loom))]

use std::cell::Cell;
use std::panic::{self, catch_unwind, AssertUnwindSafe};
use std::rc::Rc;
use std::sync::Once;

use quickcheck::{Arbitrary, Gen, QuickCheck};
use read_write_collection::{AutoRemove, BufferedCollection, NoAutoRemove, Producer};

// ---------------------------------------------------------------------------
// Operations

/// What the loop body does with one yielded entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Effect {
    Keep,
    Remove,
    Mutate(u8),
    /// `Entry::push` while holding (the element is kept).
    Push(u8),
    /// `Entry::remove`, then `Cursor::push`.
    RemoveThenPush(u8),
}

/// How the loop goes on after the effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Then {
    Continue,
    /// `break` out of the loop (the entry, if kept, is still held).
    Break,
    /// A panic in the loop body, caught outside the traversal.
    Panic,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Action {
    effect: Effect,
    then: Then,
}

#[derive(Clone, Debug)]
enum Op {
    Push(u8),
    ProducerPush(u8),
    Extend(Vec<u8>),
    Commit,
    /// One traversal; entries past the end of the list are kept.
    Traverse(Vec<Action>),
    ClearVisible,
    ClearPending,
    Clear,
    Prune,
}

impl Arbitrary for Action {
    fn arbitrary(g: &mut Gen) -> Self {
        let v = u8::arbitrary(g);
        let effect = match u8::arbitrary(g) % 10 {
            0..=2 => Effect::Keep,
            3..=4 => Effect::Remove,
            5..=6 => Effect::Mutate(v),
            7..=8 => Effect::Push(v),
            _ => Effect::RemoveThenPush(v),
        };
        let then = match u8::arbitrary(g) % 20 {
            0 => Then::Break,
            1 => Then::Panic,
            _ => Then::Continue,
        };
        Action { effect, then }
    }
}

impl Arbitrary for Op {
    fn arbitrary(g: &mut Gen) -> Self {
        let v = u8::arbitrary(g);
        match u8::arbitrary(g) % 100 {
            0..=14 => Op::Push(v),
            15..=26 => Op::ProducerPush(v),
            27..=31 => Op::Extend(Vec::arbitrary(g)),
            32..=49 => Op::Commit,
            50..=79 => Op::Traverse(Vec::arbitrary(g)),
            80..=84 => Op::ClearVisible,
            85..=89 => Op::ClearPending,
            90..=91 => Op::Clear,
            _ => Op::Prune,
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        match self {
            Op::Traverse(actions) => Box::new(actions.shrink().map(Op::Traverse)),
            Op::Extend(values) => Box::new(values.shrink().map(Op::Extend)),
            _ => Box::new(std::iter::empty()),
        }
    }
}

// ---------------------------------------------------------------------------
// The element and the model

/// An element with a unique id; counts how many are alive.
struct Elem {
    id: u32,
    val: u8,
    live: Rc<Cell<usize>>,
}

impl Elem {
    fn new(id: u32, val: u8, live: &Rc<Cell<usize>>) -> Self {
        live.set(live.get() + 1);
        Elem {
            id,
            val,
            live: Rc::clone(live),
        }
    }
}

impl Drop for Elem {
    fn drop(&mut self) {
        self.live.set(self.live.get() - 1);
    }
}

/// `(id, val)` pairs, what the model stores.
type Rows = Vec<(u32, u8)>;

fn rows<'a>(items: impl IntoIterator<Item = &'a Elem>) -> Rows {
    items.into_iter().map(|e| (e.id, e.val)).collect()
}

#[derive(Default)]
struct Model {
    visible: Rows,
    pending: Rows,
    /// Pushed through the producer; appended after `pending` at commit.
    queued: Rows,
    next_id: u32,
}

impl Model {
    fn new_id(&mut self) -> u32 {
        self.next_id += 1;
        self.next_id
    }

    fn total(&self) -> usize {
        self.visible.len() + self.pending.len() + self.queued.len()
    }

    /// One traversal; returns the ids in visiting order.
    fn traverse(&mut self, actions: &[Action], expired: impl Fn(u8) -> bool) -> Vec<u32> {
        let old = std::mem::take(&mut self.visible);
        let mut yielded = Vec::new();
        let mut rest = old.into_iter();
        for mut row in rest.by_ref() {
            if expired(row.1) {
                continue; // removed without being yielded
            }
            let action = actions.get(yielded.len()).copied().unwrap_or(Action {
                effect: Effect::Keep,
                then: Then::Continue,
            });
            yielded.push(row.0);
            let mut held = true;
            match action.effect {
                Effect::Keep => {}
                Effect::Remove => held = false,
                Effect::Mutate(v) => row.1 = v,
                Effect::Push(v) | Effect::RemoveThenPush(v) => {
                    let id = self.new_id();
                    self.pending.push((id, v));
                    held = action.effect == Effect::Push(v);
                }
            }
            match action.then {
                // Moving on (or dropping the cursor after `break`) settles
                // the held element: the predicate runs on it.
                Then::Continue | Then::Break => {
                    if held && !expired(row.1) {
                        self.visible.push(row);
                    }
                }
                // Dropped while panicking: kept without the predicate.
                Then::Panic => {
                    if held {
                        self.visible.push(row);
                    }
                }
            }
            if action.then != Then::Continue {
                break;
            }
        }
        // Unvisited elements stay, in order, unchecked.
        self.visible.extend(rest);
        yielded
    }
}

// ---------------------------------------------------------------------------
// The runner

/// The payload of the panics the model injects (kept quiet by the hook).
struct InjectedPanic;

fn silence_injected_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !info.payload().is::<InjectedPanic>() {
                default(info);
            }
        }));
    });
}

/// The actual traversal; returns the ids in visiting order.
fn traverse<A: AutoRemove<Elem>>(
    c: &mut BufferedCollection<Elem, A>,
    actions: &[Action],
    next_id: &mut u32,
    live: &Rc<Cell<usize>>,
) -> Vec<u32> {
    let mut yielded = Vec::new();
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut cursor = c.cursor();
        while let Some(mut e) = cursor.next() {
            let action = actions.get(yielded.len()).copied().unwrap_or(Action {
                effect: Effect::Keep,
                then: Then::Continue,
            });
            yielded.push(e.id);
            match action.effect {
                Effect::Keep => {}
                Effect::Remove => drop(e.remove()),
                Effect::Mutate(v) => e.val = v,
                Effect::Push(v) => {
                    *next_id += 1;
                    e.push(Elem::new(*next_id, v, live));
                }
                Effect::RemoveThenPush(v) => {
                    let removed = e.remove();
                    drop(removed);
                    *next_id += 1;
                    cursor.push(Elem::new(*next_id, v, live));
                }
            }
            match action.then {
                Then::Continue => {}
                Then::Break => break,
                Then::Panic => panic::panic_any(InjectedPanic),
            }
        }
    }));
    if let Err(payload) = result {
        assert!(payload.is::<InjectedPanic>(), "an unexpected panic");
    }
    yielded
}

fn check<A>(c: &BufferedCollection<Elem, A>, model: &Model, live: &Rc<Cell<usize>>, op: &Op) {
    assert_eq!(rows(c.iter()), model.visible, "visible after {op:?}");
    assert_eq!(
        rows(c.local_pending()),
        model.pending,
        "pending after {op:?}"
    );
    assert_eq!(c.len(), model.visible.len());
    assert_eq!(c.is_empty(), model.visible.is_empty());
    assert_eq!(
        c.pending_len(),
        model.pending.len() + model.queued.len(),
        "pending_len after {op:?}"
    );
    assert_eq!(live.get(), model.total(), "live elements after {op:?}");
}

fn run<A: AutoRemove<Elem>>(
    mut c: BufferedCollection<Elem, A>,
    expired: fn(u8) -> bool,
    ops: &[Op],
) {
    silence_injected_panics();
    let live = Rc::new(Cell::new(0));
    let producer: Producer<Elem> = c.producer();
    let mut model = Model::default();
    let mut next_id = 0;
    for op in ops {
        match op {
            Op::Push(v) => {
                let id = model.new_id();
                model.pending.push((id, *v));
                next_id += 1;
                c.push(Elem::new(next_id, *v, &live));
            }
            Op::ProducerPush(v) => {
                let id = model.new_id();
                model.queued.push((id, *v));
                next_id += 1;
                producer.push(Elem::new(next_id, *v, &live)).unwrap();
            }
            Op::Extend(values) => {
                for v in values {
                    let id = model.new_id();
                    model.pending.push((id, *v));
                }
                c.extend(values.iter().map(|v| {
                    next_id += 1;
                    Elem::new(next_id, *v, &live)
                }));
            }
            Op::Commit => {
                let expected = model.pending.len() + model.queued.len();
                model.visible.append(&mut model.pending);
                model.visible.append(&mut model.queued);
                assert_eq!(c.commit(), expected, "commit's count");
            }
            Op::Traverse(actions) => {
                let expected = model.traverse(actions, expired);
                let actual = traverse(&mut c, actions, &mut next_id, &live);
                assert_eq!(actual, expected, "visiting order of {op:?}");
            }
            Op::ClearVisible => {
                model.visible.clear();
                c.clear_visible();
            }
            Op::ClearPending => {
                model.pending.clear();
                model.queued.clear();
                c.clear_pending();
            }
            Op::Clear => {
                model.visible.clear();
                model.pending.clear();
                model.queued.clear();
                c.clear();
            }
            Op::Prune => {
                let before = model.visible.len();
                model.visible.retain(|row| !expired(row.1));
                assert_eq!(c.prune(), before - model.visible.len(), "prune's count");
            }
        }
        assert_eq!(next_id, model.next_id, "ids handed out");
        check(&c, &model, &live, op);
    }
    drop(c);
    assert_eq!(
        live.get(),
        0,
        "every element dropped at the collection's drop"
    );
    next_id += 1;
    let back = producer
        .push(Elem::new(next_id, 0, &live))
        .unwrap_err()
        .into_inner();
    assert_eq!((back.id, live.get()), (next_id, 1));
    drop(back);
    assert_eq!(live.get(), 0);
}

fn expires(val: u8) -> bool {
    val % 5 == 0
}

fn never(_: u8) -> bool {
    false
}

fn quickcheck() -> QuickCheck {
    // `QuickCheck::new` reads QUICKCHECK_TESTS; under Miri without it, run
    // few cases.
    let qc = QuickCheck::new().rng(Gen::new(if cfg!(miri) { 20 } else { 40 }));
    if cfg!(miri) && std::env::var_os("QUICKCHECK_TESTS").is_none() {
        qc.tests(10)
    } else {
        qc
    }
}

#[test]
fn matches_the_model_without_a_predicate() {
    fn prop(ops: Vec<Op>) {
        run(BufferedCollection::new(), never, &ops);
    }
    quickcheck().quickcheck(prop as fn(Vec<Op>));
}

#[test]
fn matches_the_model_with_an_auto_remove_predicate() {
    fn prop(ops: Vec<Op>) {
        let c = BufferedCollection::with_auto_remove(|e: &Elem| expires(e.val));
        run(c, expires, &ops);
    }
    quickcheck().quickcheck(prop as fn(Vec<Op>));
}

/// The model itself, on a fixed sequence, so a broken model cannot make the
/// property vacuous.
#[test]
fn model_replays_a_known_sequence() {
    let ops = vec![
        Op::Extend(vec![1, 2, 3]),
        Op::ProducerPush(4),
        Op::Push(6),
        Op::Commit,
        Op::Traverse(vec![
            Action {
                effect: Effect::Push(7),
                then: Then::Continue,
            },
            Action {
                effect: Effect::Remove,
                then: Then::Continue,
            },
            Action {
                effect: Effect::Mutate(10), // expires with the predicate
                then: Then::Break,
            },
        ]),
    ];
    let mut model = Model::default();
    for op in &ops {
        match op {
            Op::Extend(v) => {
                for &v in v {
                    let id = model.new_id();
                    model.pending.push((id, v));
                }
            }
            Op::ProducerPush(v) => {
                let id = model.new_id();
                model.queued.push((id, *v));
            }
            Op::Push(v) => {
                let id = model.new_id();
                model.pending.push((id, *v));
            }
            Op::Commit => {
                model.visible.append(&mut model.pending);
                model.visible.append(&mut model.queued);
            }
            Op::Traverse(actions) => {
                assert_eq!(model.traverse(actions, expires), [1, 2, 3]);
            }
            _ => unreachable!(),
        }
    }
    // Local pushes (ids 1, 2, 3, 5) before the producer's (id 4); 3 was
    // mutated to 10 and expired as the cursor dropped; 6 and 4 unvisited.
    assert_eq!(model.visible, [(1, 1), (5, 6), (4, 4)]);
    assert_eq!(model.pending, [(6, 7)]);

    // And the real collection agrees, with and without the predicate.
    run(
        BufferedCollection::with_auto_remove(|e: &Elem| expires(e.val)),
        expires,
        &ops,
    );
    run(BufferedCollection::with_policy(NoAutoRemove), never, &ops);
}

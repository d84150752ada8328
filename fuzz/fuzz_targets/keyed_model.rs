//! The checker of the `keyed` fuzz target, shared with `tests/keyed_fuzz_replay.rs`
//! (which replays the corpus and drives the same checker with quickcheck,
//! on stable).
//!
//! `KeyedCollection` against an obviously correct model: an ordered `Vec`
//! of (key, id, value) plus every key ever handed out. Operations outside
//! a pass (push, remove by key, `get_mut`, clear, `retain`,
//! `get_disjoint_mut`) and passes (removals, pushes from the entry and the
//! cursor, other elements reached by key with `get`, `get_mut` and
//! `pair_mut`, `break` and panics mid-pass, in the cursor and the closure
//! forms), ordered and unordered, bounded and not, with an auto-remove
//! predicate and a removal hook or without. After every operation, and at
//! every entry of a pass, the order, the contents and every key's answer
//! (live or stale) match, the hook has received exactly what the
//! predicate removed, with its key, and in the end every element is
//! dropped exactly once.
#![allow(dead_code, unreachable_pub)]

use std::cell::RefCell;
use std::collections::{HashSet, VecDeque};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;

use arbitrary::{Arbitrary, Unstructured};
use read_write_collection::keyed::{DefaultKey, KeyedEntry};
use read_write_collection::{AutoRemove, KeyedCollection, Mode};

/// One input: the collection's settings and the operations.
#[derive(Debug, Clone)]
pub struct KeyedInput {
    pub unordered: bool,
    /// A bound (often reached), or none.
    pub bound: Option<u8>,
    /// An auto-remove predicate (values that are multiples of 7) with a
    /// removal hook, or none.
    pub predicate: bool,
    pub ops: Vec<Op>,
}

impl<'a> Arbitrary<'a> for KeyedInput {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let unordered = bool::arbitrary(u)?;
        let bound = bool::arbitrary(u)?
            .then(|| u8::arbitrary(u))
            .transpose()?
            .map(|b| b % 24);
        let predicate = bool::arbitrary(u)?;
        let len = usize::from(u8::arbitrary(u)? % 64);
        let ops = (0..len)
            .map(|_| Op::arbitrary(u))
            .collect::<arbitrary::Result<_>>()?;
        Ok(KeyedInput {
            unordered,
            bound,
            predicate,
            ops,
        })
    }
}

/// The input `bytes` describe (every byte string does, up to its end).
pub fn decode(bytes: &[u8]) -> Option<KeyedInput> {
    KeyedInput::arbitrary(&mut Unstructured::new(bytes)).ok()
}

/// Runs the input against the model, checking as it goes (panics on a
/// mismatch).
pub fn run(input: &KeyedInput) {
    let expired: Option<fn(i64) -> bool> = input.predicate.then_some(|v| v % 7 == 0);
    run_with(
        &input.ops,
        input.unordered,
        input.bound.map(usize::from),
        expired,
    );
}

// ---------------------------------------------------------------------------
// Drop-tracked elements

thread_local! {
    /// Drops per element id.
    static DROPS: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

/// Makes elements with ids and counts their drops.
pub struct Tracker {
    first: u32,
}

impl Tracker {
    pub fn new() -> Self {
        Tracker {
            first: DROPS.with(|d| d.borrow().len() as u32),
        }
    }

    pub fn elem(&self, val: i64) -> Elem {
        let id = DROPS.with(|d| {
            let mut d = d.borrow_mut();
            d.push(0);
            (d.len() - 1) as u32
        });
        Elem { id, val }
    }

    /// Every element this tracker made was dropped exactly once.
    pub fn assert_all_dropped_once(&self) {
        DROPS.with(|d| {
            for (id, &n) in d.borrow().iter().enumerate().skip(self.first as usize) {
                assert_eq!(n, 1, "element {id} dropped {n} times");
            }
        });
    }
}

/// An element with an id (its drops are counted) and a value.
#[derive(Debug)]
pub struct Elem {
    id: u32,
    pub val: i64,
}

impl Elem {
    pub fn id(&self) -> u32 {
        self.id
    }
}

impl Drop for Elem {
    fn drop(&mut self) {
        DROPS.with(|d| d.borrow_mut()[self.id as usize] += 1);
    }
}

// ---------------------------------------------------------------------------
// Operations and the model

#[derive(Clone, Debug)]
pub enum Op {
    Push(i8),
    /// Remove by the `n`th key ever handed out (maybe stale).
    Remove(u8),
    /// Change the element of the `n`th key through `get_mut`.
    Bump(u8),
    Clear,
    /// A pass (`traverse` when `closure`, else the cursor), driven by
    /// `steps` (see [`Step`]); elements the steps do not reach are kept.
    Pass {
        steps: Vec<Step>,
        closure: bool,
    },
    /// `retain` (see the model in `run_on`).
    Retain(u8),
    /// `get_disjoint_mut` of the `a`th and `b`th keys ever handed out.
    Disjoint(u8, u8),
}

/// What happens during a pass. The steps are read in order: `CursorPush`
/// before moving on to the next element; the others with an element held,
/// until one of `Keep`, `Remove`, `Break` or `Panic` settles it.
#[derive(Clone, Debug)]
pub enum Step {
    Keep,
    Remove,
    /// Stop the pass here (the held element and the rest are kept).
    Break,
    /// Panic here (the held element and the rest are kept).
    Panic,
    /// Push from the entry.
    Push(i8),
    /// Push from the cursor between elements.
    CursorPush(i8),
    /// Look up the `n`th key ever handed out, through `get`.
    Get(u8),
    /// Change the `n`th key's element through `get_mut`.
    GetMut(u8),
    /// Change the held element and the `n`th key's through `pair_mut`.
    PairMut(u8),
}

impl<'a> Arbitrary<'a> for Op {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(match u8::arbitrary(u)? % 22 {
            0..=6 => Op::Push(i8::arbitrary(u)?),
            7..=10 => Op::Remove(u8::arbitrary(u)?),
            11..=13 => Op::Bump(u8::arbitrary(u)?),
            14 => Op::Clear,
            15 => Op::Retain(u8::arbitrary(u)?),
            16 => Op::Disjoint(u8::arbitrary(u)?, u8::arbitrary(u)?),
            _ => {
                let len = usize::from(u8::arbitrary(u)? % 48);
                let steps = (0..len)
                    .map(|_| Step::arbitrary(u))
                    .collect::<arbitrary::Result<_>>()?;
                Op::Pass {
                    steps,
                    closure: bool::arbitrary(u)?,
                }
            }
        })
    }
}

impl<'a> Arbitrary<'a> for Step {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(match u8::arbitrary(u)? % 40 {
            0..=9 => Step::Keep,
            10..=17 => Step::Remove,
            18 => Step::Break,
            19 => Step::Panic,
            20..=24 => Step::Push(i8::arbitrary(u)?),
            25..=27 => Step::CursorPush(i8::arbitrary(u)?),
            28..=32 => Step::Get(u8::arbitrary(u)?),
            33..=36 => Step::GetMut(u8::arbitrary(u)?),
            _ => Step::PairMut(u8::arbitrary(u)?),
        })
    }
}

/// The model's element: key, tracker id, value.
type M = (DefaultKey, u32, i64);

/// The model of a pass in progress.
struct PassModel {
    kept: Vec<M>,
    held: Option<M>,
    /// Not yet visited, then pushed.
    rest: VecDeque<M>,
    unordered: bool,
    max: usize,
    /// The auto-remove predicate, on values.
    expired: fn(i64) -> bool,
    /// What the predicate removed, in order: (key, id).
    hooked: Vec<(DefaultKey, u32)>,
}

impl PassModel {
    /// The cursor lets go of the held element: the predicate decides.
    fn settle(&mut self) {
        if let Some(h) = self.held {
            if (self.expired)(h.2) {
                self.remove_held();
                self.hooked.push((h.0, h.1));
            } else {
                self.kept.extend(self.held.take());
            }
        }
    }

    /// `next()`: settle, then hold the next element the predicate keeps.
    fn advance(&mut self) -> bool {
        self.settle();
        while let Some(h) = self.rest.pop_front() {
            self.held = Some(h);
            if !(self.expired)(h.2) {
                return true;
            }
            self.remove_held();
            self.hooked.push((h.0, h.1));
        }
        false
    }

    fn len(&self) -> usize {
        self.kept.len() + usize::from(self.held.is_some()) + self.rest.len()
    }

    /// Where `k` is, as the entry should find it (`None` for the held one).
    fn find(&mut self, k: DefaultKey) -> Option<&mut M> {
        if self.held.is_some_and(|h| h.0 == k) {
            return None;
        }
        self.kept
            .iter_mut()
            .chain(self.rest.iter_mut())
            .find(|m| m.0 == k)
    }

    fn remove_held(&mut self) -> M {
        let held = self.held.take().expect("held");
        if self.unordered {
            if let Some(last) = self.rest.pop_back() {
                self.rest.push_front(last);
            }
        }
        held
    }

    fn end(mut self) -> Vec<M> {
        self.kept.extend(self.held.take());
        self.kept.extend(self.rest);
        self.kept
    }
}

/// Checks the entry against the model's held element and its others.
fn check_entry(e: &KeyedEntry<'_, Elem>, m: &PassModel) {
    let held = m.held.expect("held");
    assert_eq!(e.key(), held.0, "key()");
    assert_eq!((e.id(), e.val), (held.1, held.2), "the held element");
    let (before, after) = e.others();
    assert!(
        before.iter().map(Elem::id).eq(m.kept.iter().map(|k| k.1)),
        "kept"
    );
    assert!(
        after.iter().map(Elem::id).eq(m.rest.iter().map(|k| k.1)),
        "after"
    );
}

/// Runs one pass's steps (`steps` from `*next`) on the entry in hand.
/// Returns `true` when the pass should stop (`Break`).
fn entry_steps(
    t: &Tracker,
    mut e: KeyedEntry<'_, Elem>,
    steps: &[Step],
    next: &mut usize,
    m: &mut PassModel,
    issued: &mut Vec<DefaultKey>,
) -> bool {
    check_entry(&e, m);
    while let Some(step) = steps.get(*next) {
        *next += 1;
        match *step {
            Step::Keep | Step::CursorPush(_) => break,
            // Dropping the cursor settles the held element (no panic).
            Step::Break => return true,
            Step::Panic => {
                m.kept.extend(m.held.take());
                std::panic::resume_unwind(Box::new("a step panics"));
            }
            Step::Remove => {
                let id = e.remove().id();
                assert_eq!(id, m.remove_held().1, "the removed element");
                return false;
            }
            Step::Push(v) => {
                let elem = t.elem(i64::from(v));
                let id = elem.id();
                let full = m.len() >= m.max;
                match e.try_push(elem) {
                    Ok(k) => {
                        assert!(!full, "a push past the bound");
                        assert!(!issued.contains(&k), "a key is never handed out twice");
                        issued.push(k);
                        m.rest.push_back((k, id, i64::from(v)));
                        assert_eq!(
                            e.get(k).map(Elem::id),
                            Some(id),
                            "a pushed key answers at once"
                        );
                    }
                    Err(err) => {
                        assert!(full, "a push refused below the bound");
                        assert_eq!(err.element().id(), id, "the refused value comes back");
                    }
                }
            }
            Step::Get(n) | Step::GetMut(n) | Step::PairMut(n) if !issued.is_empty() => {
                let k = issued[n as usize % issued.len()];
                let want = m.find(k).copied();
                let got = match *step {
                    Step::Get(_) => e.get(k).map(|o| (o.id(), o.val)),
                    Step::GetMut(_) => e.get_mut(k).map(|o| {
                        o.val += 1;
                        (o.id(), o.val - 1)
                    }),
                    _ => e.pair_mut(k).map(|(me, o)| {
                        me.val += 100;
                        o.val += 1;
                        (o.id(), o.val - 1)
                    }),
                };
                assert_eq!(got, want.map(|w| (w.1, w.2)), "{step:?} of {k:?}");
                if got.is_some() {
                    if !matches!(step, Step::Get(_)) {
                        m.find(k).expect("found").2 += 1;
                    }
                    if matches!(step, Step::PairMut(_)) {
                        m.held.as_mut().expect("held").2 += 100;
                    }
                }
            }
            Step::Get(_) | Step::GetMut(_) | Step::PairMut(_) => {}
        }
        check_entry(&e, m);
    }
    false
}

/// Runs a pass on `c` and on the model (`model` becomes the result).
#[allow(clippy::too_many_arguments)] // the model's parts, each changed by the pass
fn run_pass<A: AutoRemove<Elem>>(
    t: &Tracker,
    c: &mut KeyedCollection<Elem, DefaultKey, A>,
    model: &mut Vec<M>,
    issued: &mut Vec<DefaultKey>,
    steps: &[Step],
    closure: bool,
    expired: fn(i64) -> bool,
    hooked: &mut Vec<(DefaultKey, u32)>,
) {
    let mut m = PassModel {
        kept: Vec::new(),
        held: None,
        rest: std::mem::take(model).into(),
        unordered: c.mode() == Mode::Unordered,
        max: c.max_len().unwrap_or(usize::MAX),
        expired,
        hooked: Vec::new(),
    };
    let mut next = 0;
    let result = catch_unwind(AssertUnwindSafe(|| {
        if closure {
            let mut stopped = false;
            c.traverse(|e| {
                assert!(m.advance(), "traverse visits what the model does");
                if !stopped {
                    stopped = entry_steps(t, e, steps, &mut next, &mut m, issued);
                }
                // After a `Break` step the closure returns at once.
            });
            assert!(!m.advance(), "traverse visits what the model does");
            return;
        }
        let mut cursor = c.cursor();
        loop {
            while let Some(Step::CursorPush(v)) = steps.get(next) {
                next += 1;
                let elem = t.elem(i64::from(*v));
                let id = elem.id();
                let full = m.len() >= m.max;
                match cursor.try_push(elem) {
                    Ok(k) => {
                        assert!(!full, "a push past the bound");
                        issued.push(k);
                        m.rest.push_back((k, id, i64::from(*v)));
                    }
                    Err(err) => {
                        assert!(full, "a push refused below the bound");
                        assert_eq!(err.element().id(), id);
                    }
                }
            }
            assert_eq!(cursor.remaining(), m.rest.len(), "remaining()");
            assert_eq!(cursor.len(), m.len(), "len()");
            let e = cursor.next();
            assert_eq!(e.is_some(), m.advance(), "next()");
            let Some(e) = e else { break };
            if entry_steps(t, e, steps, &mut next, &mut m, issued) {
                break;
            }
        }
        drop(cursor);
        m.settle();
    }));
    if let Err(payload) = result {
        // Unwinding: the held element stays, the predicate is not asked.
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"a step panics"));
    }
    hooked.append(&mut m.hooked);
    *model = m.end();
}

/// Runs `ops` on a collection (unordered, or bounded by `max`; with the
/// predicate `expired` if given) and on the model, comparing after each.
fn run_with(ops: &[Op], unordered: bool, max: Option<usize>, expired: Option<fn(i64) -> bool>) {
    let t = Tracker::new();
    let log = Rc::new(RefCell::new(Vec::new()));
    match expired {
        Some(pred) => {
            let to = Rc::clone(&log);
            let c = KeyedCollection::with_auto_remove(move |e: &Elem| pred(e.val))
                .with_removal_hook(move |k, e: Elem| to.borrow_mut().push((k, e.id())));
            run_on(&t, c, ops, unordered, max, pred, &log);
        }
        None => run_on(
            &t,
            KeyedCollection::new(),
            ops,
            unordered,
            max,
            |_| false,
            &log,
        ),
    }
    t.assert_all_dropped_once();
}

fn run_on<A: AutoRemove<Elem>>(
    t: &Tracker,
    mut c: KeyedCollection<Elem, DefaultKey, A>,
    ops: &[Op],
    unordered: bool,
    max: Option<usize>,
    expired: fn(i64) -> bool,
    log: &RefCell<Vec<(DefaultKey, u32)>>,
) {
    let mut hooked = Vec::new();
    if unordered {
        c.set_mode(Mode::Unordered);
    }
    c.set_max_len(max);
    let mut model: Vec<(DefaultKey, u32, i64)> = Vec::new();
    let mut issued: Vec<DefaultKey> = Vec::new();
    for op in ops {
        match *op {
            Op::Push(v) => {
                let e = t.elem(i64::from(v));
                let id = e.id();
                match c.try_push(e) {
                    Ok(k) => {
                        assert!(!issued.contains(&k), "a key is never handed out twice");
                        issued.push(k);
                        model.push((k, id, i64::from(v)));
                    }
                    Err(err) => {
                        assert_eq!(Some(model.len()), max, "refused below the bound");
                        assert_eq!(err.element().id(), id);
                    }
                }
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
            Op::Pass { ref steps, closure } => {
                run_pass(
                    t,
                    &mut c,
                    &mut model,
                    &mut issued,
                    steps,
                    closure,
                    expired,
                    &mut hooked,
                );
            }
            Op::Retain(n) => {
                // Keeps the ones whose bumped value is not a multiple of
                // `n % 4 + 2`, as a pass without the predicate.
                let modulus = i64::from(n % 4) + 2;
                let keep = |v: i64| (v + 1) % modulus != 0;
                let mut m = PassModel {
                    kept: Vec::new(),
                    held: None,
                    rest: std::mem::take(&mut model).into(),
                    unordered,
                    max: usize::MAX,
                    expired: |_| false,
                    hooked: Vec::new(),
                };
                let mut seen = Vec::new();
                c.retain(|k, e| {
                    seen.push(k);
                    e.val += 1;
                    keep(e.val - 1)
                });
                let mut visited = Vec::new();
                while m.advance() {
                    let h = m.held.as_mut().expect("held");
                    visited.push(h.0);
                    h.2 += 1;
                    if !keep(h.2 - 1) {
                        m.remove_held();
                    }
                }
                assert_eq!(seen, visited, "retain's keys, in visiting order");
                model = m.end();
            }
            Op::Disjoint(a, b) if !issued.is_empty() => {
                let (ka, kb) = (
                    issued[a as usize % issued.len()],
                    issued[b as usize % issued.len()],
                );
                let ia = model.iter().position(|m| m.0 == ka);
                let ib = model.iter().position(|m| m.0 == kb);
                match (c.get_disjoint_mut([ka, kb]), ia, ib) {
                    (Some([x, y]), Some(ia), Some(ib)) => {
                        assert_ne!(ia, ib);
                        assert_eq!((x.id(), y.id()), (model[ia].1, model[ib].1));
                        std::mem::swap(&mut x.val, &mut y.val);
                        let (va, vb) = (model[ia].2, model[ib].2);
                        model[ia].2 = vb;
                        model[ib].2 = va;
                    }
                    (None, ia, ib) => assert!(ia.is_none() || ib.is_none() || ia == ib),
                    (got, ia, ib) => {
                        panic!("get_disjoint_mut: {:?} for {ia:?}, {ib:?}", got.is_some())
                    }
                }
            }
            Op::Disjoint(..) => {}
        }
        check(&c, &model, &issued);
        assert_eq!(
            *log.borrow(),
            hooked,
            "the hook gets what the predicate removes, with keys"
        );
    }
}

fn check<A>(
    c: &KeyedCollection<Elem, DefaultKey, A>,
    model: &[(DefaultKey, u32, i64)],
    issued: &[DefaultKey],
) {
    assert_eq!(c.len(), model.len());
    let got: Vec<(DefaultKey, u32, i64)> = c.iter().map(|(k, e)| (k, e.id(), e.val)).collect();
    assert_eq!(got, model, "keys and elements, in order");
    assert!(c.keys().eq(model.iter().map(|m| m.0)), "keys()");
    assert!(
        c.keys().rev().eq(model.iter().rev().map(|m| m.0)),
        "keys() backwards"
    );
    assert!(
        c.iter()
            .rev()
            .map(|(k, e)| (k, e.id()))
            .eq(model.iter().rev().map(|m| (m.0, m.1))),
        "iter() backwards"
    );
    assert_eq!((c.iter().len(), c.keys().len()), (model.len(), model.len()));
    assert!(
        c.iter()
            .map(|(k, e)| (k, e.id()))
            .eq(c.into_iter().map(|(k, e)| (k, e.id()))),
        "&collection's IntoIterator"
    );
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

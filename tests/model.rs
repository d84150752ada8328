//! Model-based tests: random operation sequences applied to a
//! `ReadWriteCollection` and, in lockstep, to a plain model (a queue of the
//! original elements followed by the pushes), checking the ordering
//! invariants (the crate docs' "Ordering guarantees", `src/lib.rs`) after
//! every step and every traversal:
//!
//! 1. originals are yielded once each, in index order, before any pushed one;
//! 2. pushed elements are yielded once each, in push order, after them;
//! 3. after completion the collection holds the kept plus the never-yielded
//!    elements, in that order;
//! 4. every element is dropped exactly once (drop-tracked elements).
//!
//! Unordered mode is checked against a multiset model, bounded collections
//! for exact rejections, and auto-remove predicates (the element's `flag`,
//! which the loop body may set while it holds the element) against the
//! removal hook's log.

mod common;

use std::cell::RefCell;
use std::collections::VecDeque;
use std::mem;
use std::panic::{catch_unwind, AssertUnwindSafe};

use common::{Elem, Tracker};
use quickcheck::{Arbitrary, Gen, QuickCheck};
use read_write_collection::{AutoRemove, Mode, ReadWriteCollection};

/// (id, value, flag): an element's identity and state.
type Key = (u32, i64, bool);

// ------------------------------------------------------------- generators

/// `n` new elements; element `i` is flagged (expired) if bit `i % 8` of
/// `flags` is set.
#[derive(Clone, Debug)]
struct Spawn {
    n: u8,
    flags: u8,
}

impl Arbitrary for Spawn {
    fn arbitrary(g: &mut Gen) -> Self {
        // Mostly small, sometimes a burst that forces growth.
        let n = if u8::arbitrary(g) % 8 == 0 {
            6 + u8::arbitrary(g) % 8
        } else {
            u8::arbitrary(g) % 4
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

/// What the loop body does with one yielded element: `pre` first, then
/// `main`.
#[derive(Clone, Debug)]
struct Action {
    pre: Pre,
    main: Main,
}

/// Done to the held element before the main action.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Pre {
    Nothing,
    Mutate(i8),
    /// Sets the flag: the auto-remove predicate becomes true while held.
    SetFlag,
}

#[derive(Clone, Debug)]
enum Main {
    Keep,
    Remove,
    /// `entry.remove()`, then pushes through the cursor.
    RemoveThenPush(Spawn),
    /// Pushes through the entry.
    Push(Spawn),
    /// Reads the value, then pushes through the cursor (the entry is kept).
    ReadThenCursorPush(Spawn),
    Break,
    Finish,
    Forget,
    Panic,
    RemoveThenPanic,
    PushThenPanic(Spawn),
}

impl Action {
    fn keep() -> Self {
        Action {
            pre: Pre::Nothing,
            main: Main::Keep,
        }
    }

    fn new(pre: Pre, main: Main) -> Self {
        Action { pre, main }
    }
}

impl Arbitrary for Action {
    fn arbitrary(g: &mut Gen) -> Self {
        let pre = match u8::arbitrary(g) % 10 {
            0..=5 => Pre::Nothing,
            6..=7 => Pre::Mutate(i8::arbitrary(g)),
            _ => Pre::SetFlag,
        };
        // Endings are rare, so most passes run long enough to matter.
        let main = match u8::arbitrary(g) % 200 {
            0..=99 => Main::Keep,
            100..=139 => Main::Remove,
            140..=153 => Main::RemoveThenPush(Spawn::arbitrary(g)),
            154..=171 => Main::Push(Spawn::arbitrary(g)),
            172..=181 => Main::ReadThenCursorPush(Spawn::arbitrary(g)),
            182..=185 => Main::Break,
            186..=187 => Main::Finish,
            188 => Main::Forget,
            189..=191 => Main::Panic,
            192..=193 => Main::RemoveThenPanic,
            194..=195 => Main::PushThenPanic(Spawn::arbitrary(g)),
            _ => Main::Keep,
        };
        Action { pre, main }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let mut out = Vec::new();
        if self.pre != Pre::Nothing {
            out.push(Action::new(Pre::Nothing, self.main.clone()));
        }
        if !matches!(self.main, Main::Keep) {
            out.push(Action::new(self.pre, Main::Keep));
        }
        Box::new(out.into_iter())
    }
}

/// An operation outside traversals.
#[derive(Clone, Debug)]
enum Op {
    Push {
        flag: bool,
    },
    /// Pushes several elements (`Extend`, or `try_push` when bounded).
    Extend(Spawn),
    Pop,
    Clear,
    /// Flags the element at `index % len`, if any.
    FlagAt(u8),
    Prune,
    Traverse(Vec<Action>),
    /// A `Vec`/`arrayvec` method (see [`VecOp`]).
    Vec(VecOp),
}

impl Arbitrary for Op {
    fn arbitrary(g: &mut Gen) -> Self {
        match u8::arbitrary(g) % 100 {
            0..=24 => Op::Push {
                flag: u8::arbitrary(g) % 4 == 0,
            },
            25..=39 => Op::Extend(Spawn {
                n: u8::arbitrary(g) % 20,
                flags: u8::arbitrary(g) & u8::arbitrary(g),
            }),
            40..=43 => Op::Pop,
            44 => Op::Clear,
            45..=54 => Op::FlagAt(u8::arbitrary(g)),
            55..=59 => Op::Prune,
            60..=74 => Op::Vec(VecOp::arbitrary(g)),
            _ => Op::Traverse(Vec::arbitrary(g)),
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        match self {
            Op::Traverse(actions) => Box::new(actions.shrink().map(Op::Traverse)),
            _ => Box::new(std::iter::empty()),
        }
    }
}

// ----------------------------------------------------------------- model

#[derive(Clone, Copy, Debug)]
struct Cfg {
    pred: bool,
    unordered: bool,
    max: Option<usize>,
    cap: usize,
}

/// The model of one traversal: kept, held, and the queue of unvisited
/// originals followed by pushes.
struct PassModel {
    pred: bool,
    unordered: bool,
    max: usize,
    kept: Vec<Key>,
    held: Option<Key>,
    queue: VecDeque<Key>,
    /// Expected removal-hook log, in order.
    hook: Vec<u32>,
    yielded: Vec<u32>,
}

impl PassModel {
    fn begin(cfg: &Cfg, elements: Vec<Key>) -> Self {
        PassModel {
            pred: cfg.pred,
            unordered: cfg.unordered,
            max: cfg.max.unwrap_or(usize::MAX),
            kept: Vec::new(),
            held: None,
            queue: elements.into(),
            hook: Vec::new(),
            yielded: Vec::new(),
        }
    }

    fn expired(&self, k: &Key) -> bool {
        self.pred && k.2
    }

    /// Settles the held element as the cursor moving on does.
    fn settle(&mut self, hook: &mut Vec<u32>) {
        if let Some(h) = self.held.take() {
            if self.expired(&h) {
                hook.push(h.0);
            } else {
                self.kept.push(h);
            }
        }
    }

    /// Checks one `next()`: `got` is what it yielded, `new_hook` what the
    /// removal hook received during the call.
    fn on_next(&mut self, got: Option<Key>, new_hook: &[u32]) {
        let mut expect_hook = Vec::new();
        self.settle(&mut expect_hook);
        if !self.unordered {
            let expected = loop {
                match self.queue.pop_front() {
                    None => break None,
                    Some(x) if self.expired(&x) => expect_hook.push(x.0),
                    Some(x) => break Some(x),
                }
            };
            assert_eq!(new_hook, expect_hook, "auto-removed during next()");
            assert_eq!(got, expected, "next() yielded (invariants 1 and 2)");
            self.held = expected;
        } else {
            // The held element is settled first; then any number of
            // unvisited expired elements may be auto-removed before the
            // one yielded, in an order the model does not fix.
            assert!(
                new_hook.starts_with(&expect_hook),
                "settling the held element: hook got {new_hook:?}, expected {expect_hook:?} first"
            );
            for &id in &new_hook[expect_hook.len()..] {
                let pos = self
                    .queue
                    .iter()
                    .position(|x| x.0 == id)
                    .unwrap_or_else(|| panic!("hook got #{id}, not an unvisited element"));
                let x = self.queue.remove(pos).unwrap();
                assert!(self.expired(&x), "auto-removed #{id} is not expired");
            }
            match got {
                None => assert!(
                    self.queue.is_empty(),
                    "next() returned None with {:?} unvisited",
                    self.queue
                ),
                Some(k) => {
                    let pos = self
                        .queue
                        .iter()
                        .position(|x| x.0 == k.0)
                        .unwrap_or_else(|| panic!("yielded {k:?}: not unvisited (twice?)"));
                    let x = self.queue.remove(pos).unwrap();
                    assert_eq!(x, k, "yielded element's state");
                    assert!(!self.expired(&x), "yielded an expired element");
                    self.held = Some(x);
                }
            }
        }
        if let Some(h) = self.held {
            self.yielded.push(h.0);
        }
        self.hook.extend_from_slice(new_hook);
    }

    fn len(&self) -> usize {
        self.kept.len() + usize::from(self.held.is_some()) + self.queue.len()
    }

    /// A push: whether it is accepted.
    fn push(&mut self, k: Key) -> bool {
        if self.len() >= self.max {
            false
        } else {
            self.queue.push_back(k);
            true
        }
    }

    fn held_mut(&mut self) -> &mut Key {
        self.held.as_mut().expect("an element is held")
    }

    /// The entry's other elements are the model's kept ones and its
    /// queue (unvisited, then pushed): in order, or as multisets in
    /// unordered mode.
    fn check_others(&self, e: &read_write_collection::Entry<'_, Elem>) {
        let (before, after) = e.others();
        let keys = |s: &[Elem]| s.iter().map(Elem::key).collect::<Vec<_>>();
        let (mut before, mut after) = (keys(before), keys(after));
        let (mut kept, mut queue) = (self.kept.clone(), Vec::from(self.queue.clone()));
        if self.unordered {
            before.append(&mut after);
            kept.append(&mut queue);
            before.sort_unstable();
            kept.sort_unstable();
        }
        assert_eq!(before, kept, "others: the kept elements");
        assert_eq!(after, queue, "others: the elements after the held one");
    }

    /// The contents after an early exit that settles (break, finish).
    fn settle_end(&mut self) -> Vec<Key> {
        let mut hook = Vec::new();
        self.settle(&mut hook);
        self.hook.extend(hook);
        self.unsettled_end()
    }

    /// The contents after an exit that does not settle (panic).
    fn unsettled_end(&mut self) -> Vec<Key> {
        let mut out = mem::take(&mut self.kept);
        out.extend(self.held.take());
        out.extend(self.queue.drain(..));
        out
    }
}

enum End {
    Natural,
    Settled,
    Forgot,
}

fn keys<A>(c: &ReadWriteCollection<Elem, A>) -> Vec<Key> {
    c.iter().map(Elem::key).collect()
}

fn sorted(mut v: Vec<Key>) -> Vec<Key> {
    v.sort_unstable();
    v
}

fn spawn(t: &Tracker, s: &Spawn) -> Vec<Elem> {
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

struct Driver<'t, A> {
    cfg: Cfg,
    c: ReadWriteCollection<Elem, A>,
    t: &'t Tracker,
    log: &'t RefCell<Vec<u32>>,
    /// The model's contents.
    model: Vec<Key>,
    leaked: Vec<u32>,
}

impl<A: AutoRemove<Elem>> Driver<'_, A> {
    fn bounded(&self) -> bool {
        self.cfg.max.is_some()
    }

    fn log_len(&self) -> usize {
        self.log.borrow().len()
    }

    fn check_state(&mut self) {
        if self.cfg.unordered {
            assert_eq!(
                sorted(keys(&self.c)),
                sorted(self.model.clone()),
                "contents (as multisets)"
            );
            // The model follows the collection's actual order from here.
            self.model = keys(&self.c);
        } else {
            assert_eq!(keys(&self.c), self.model, "contents (invariant 3)");
        }
        let mut live: Vec<u32> = self.c.iter().map(Elem::id).collect();
        live.extend(&self.leaked);
        self.t.assert_live_exactly(&live); // invariant 4
        if let Some(max) = self.cfg.max {
            assert!(self.c.len() <= max);
            assert!(
                self.c.capacity() <= max,
                "capacity {} above max {max}",
                self.c.capacity()
            );
        }
    }

    fn op(&mut self, op: &Op) {
        match op {
            Op::Push { flag } => {
                let mut e = self.t.elem(i64::from(self.t.created() as u32));
                e.flag = *flag;
                let k = e.key();
                if self.bounded() {
                    let accept = self.model.len() < self.cfg.max.unwrap();
                    match self.c.try_push(e) {
                        Ok(()) => assert!(accept, "try_push accepted past the max"),
                        Err(err) => {
                            assert!(!accept, "try_push rejected below the max");
                            assert_eq!(err.into_inner().key(), k, "the rejected value comes back");
                        }
                    }
                    if accept {
                        self.model.push(k);
                    }
                } else {
                    self.c.push(e);
                    self.model.push(k);
                }
            }
            Op::Extend(s) => {
                let new = spawn(self.t, s);
                if let Some(max) = self.cfg.max {
                    for e in new {
                        let k = e.key();
                        let accept = self.model.len() < max;
                        match self.c.try_push(e) {
                            Ok(()) => assert!(accept, "try_push accepted past the max"),
                            Err(err) => {
                                assert!(!accept, "try_push rejected below the max");
                                assert_eq!(err.into_inner().key(), k);
                            }
                        }
                        if accept {
                            self.model.push(k);
                        }
                    }
                } else {
                    self.model.extend(new.iter().map(Elem::key));
                    self.c.extend(new);
                }
            }
            Op::Pop => {
                let got = self.c.pop().map(|e| e.key());
                assert_eq!(got, self.model.pop());
            }
            Op::Clear => {
                self.c.clear();
                self.model.clear();
            }
            Op::FlagAt(i) => {
                if !self.model.is_empty() {
                    let i = usize::from(*i) % self.model.len();
                    self.c[i].flag = true;
                    self.model[i].2 = true;
                }
            }
            Op::Prune => {
                let start = self.log_len();
                let removed = self.c.prune();
                let hook = self.log.borrow()[start..].to_vec();
                let (gone, stay): (Vec<Key>, Vec<Key>) =
                    self.model.iter().partition(|k| self.cfg.pred && k.2);
                assert_eq!(removed, gone.len(), "prune's count");
                let gone_ids: Vec<u32> = gone.iter().map(|k| k.0).collect();
                if self.cfg.unordered {
                    let mut h = hook.clone();
                    h.sort_unstable();
                    let mut g = gone_ids.clone();
                    g.sort_unstable();
                    assert_eq!(h, g, "prune's hook log (multiset)");
                } else {
                    assert_eq!(hook, gone_ids, "prune's hook log");
                }
                self.model = stay;
            }
            Op::Traverse(actions) => self.traverse(actions),
            Op::Vec(op) => return self.vec_op(op),
        }
        self.check_state();
    }

    fn traverse(&mut self, actions: &[Action]) {
        let mut pm = PassModel::begin(&self.cfg, mem::take(&mut self.model));
        let log_start = self.log_len();
        let bounded = self.bounded();
        let t = self.t;
        let log = self.log;
        let c = &mut self.c;
        let pm_ref = &mut pm;
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let pm = pm_ref;
            let mut cursor = c.cursor();
            let mut i = 0;
            loop {
                let before = log.borrow().len();
                let entry = cursor.next();
                let got = entry.as_ref().map(|e| e.key());
                let new_hook = log.borrow()[before..].to_vec();
                pm.on_next(got, &new_hook);
                let Some(mut e) = entry else {
                    return End::Natural;
                };
                pm.check_others(&e);
                let action = actions.get(i).cloned().unwrap_or_else(Action::keep);
                i += 1;
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
                    Main::Keep => {}
                    Main::Remove => {
                        let v = e.remove();
                        assert_eq!(Some(v.key()), pm.held.take(), "removed element");
                    }
                    Main::RemoveThenPush(s) => {
                        let v = e.remove();
                        assert_eq!(Some(v.key()), pm.held.take(), "removed element");
                        drop(v);
                        push_all(t, pm, &s, bounded, |x| cursor_push(&mut cursor, x, bounded));
                    }
                    Main::Push(s) => {
                        push_all(t, pm, &s, bounded, |x| entry_push(&mut e, x, bounded));
                        pm.check_others(&e);
                    }
                    Main::ReadThenCursorPush(s) => {
                        assert_eq!(e.key(), pm.held.unwrap());
                        push_all(t, pm, &s, bounded, |x| cursor_push(&mut cursor, x, bounded));
                    }
                    Main::Break => return End::Settled,
                    Main::Finish => {
                        cursor.finish();
                        return End::Settled;
                    }
                    Main::Forget => {
                        mem::forget(cursor);
                        return End::Forgot;
                    }
                    Main::Panic => panic!("panic while holding"),
                    Main::RemoveThenPanic => {
                        let _v = e.remove();
                        pm.held = None;
                        panic!("panic after remove");
                    }
                    Main::PushThenPanic(s) => {
                        push_all(t, pm, &s, bounded, |x| entry_push(&mut e, x, bounded));
                        panic!("panic after push");
                    }
                }
                assert_eq!(cursor.len(), pm.len(), "cursor.len()");
                assert_eq!(cursor.remaining(), pm.queue.len(), "cursor.remaining()");
            }
        }));
        let final_contents = match outcome {
            Ok(End::Natural) => {
                assert!(pm.held.is_none() && pm.queue.is_empty());
                mem::take(&mut pm.kept)
            }
            Ok(End::Settled) => pm.settle_end(),
            Ok(End::Forgot) => {
                let lost = pm.unsettled_end();
                self.leaked.extend(lost.iter().map(|k| k.0));
                Vec::new()
            }
            Err(payload) => {
                let msg = payload
                    .downcast_ref::<&str>()
                    .copied()
                    .unwrap_or("<not a test panic>");
                assert!(msg.starts_with("panic "), "unexpected panic: {msg}");
                // Unwinding settles nothing: no predicate, no hook.
                pm.unsettled_end()
            }
        };
        assert_eq!(
            self.log.borrow()[log_start..],
            pm.hook[..],
            "removal hook log for the pass"
        );
        // Every original and pushed element was yielded at most once.
        let mut y = pm.yielded.clone();
        y.sort_unstable();
        y.dedup();
        assert_eq!(y.len(), pm.yielded.len(), "an element was yielded twice");
        self.model = final_contents;
    }
}

fn entry_push(
    e: &mut read_write_collection::Entry<'_, Elem>,
    x: Elem,
    bounded: bool,
) -> Result<(), Elem> {
    if bounded {
        e.try_push(x).map_err(|err| err.into_inner())
    } else {
        e.push(x);
        Ok(())
    }
}

fn cursor_push<A: AutoRemove<Elem>>(
    c: &mut read_write_collection::Cursor<'_, Elem, A>,
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

fn push_all(
    t: &Tracker,
    pm: &mut PassModel,
    s: &Spawn,
    bounded: bool,
    mut push: impl FnMut(Elem) -> Result<(), Elem>,
) {
    for e in spawn(t, s) {
        let k = e.key();
        let accept = pm.push(k);
        assert!(bounded || accept);
        match push(e) {
            Ok(()) => assert!(accept, "push accepted past the max"),
            Err(back) => {
                assert!(!accept, "push rejected below the max");
                assert_eq!(back.key(), k, "the rejected value comes back");
            }
        }
    }
}

fn drive<A: AutoRemove<Elem>>(
    cfg: Cfg,
    ops: &[Op],
    mut c: ReadWriteCollection<Elem, A>,
    t: &Tracker,
    log: &RefCell<Vec<u32>>,
) {
    c.set_mode(if cfg.unordered {
        Mode::Unordered
    } else {
        Mode::Ordered
    });
    c.set_max_len(cfg.max);
    c.reserve(cfg.cap);
    let mut d = Driver {
        cfg,
        c,
        t,
        log,
        model: Vec::new(),
        leaked: Vec::new(),
    };
    for op in ops {
        d.op(op);
    }
    // A last full traversal that keeps everything: the order is stable.
    d.op(&Op::Traverse(Vec::new()));
    let leaked = mem::take(&mut d.leaked);
    drop(d);
    t.assert_live_exactly(&leaked);
}

fn check(cfg: Cfg, ops: &[Op]) {
    let t = Tracker::new();
    let log = RefCell::new(Vec::new());
    if cfg.pred {
        let c = ReadWriteCollection::with_auto_remove(|e: &Elem| e.flag)
            .with_removal_hook(|e: Elem| log.borrow_mut().push(e.id()));
        drive(cfg, ops, c, &t, &log);
    } else {
        drive(cfg, ops, ReadWriteCollection::<Elem>::new(), &t, &log);
        assert!(log.borrow().is_empty());
    }
}

// ------------------------------------------------- the Vec-like methods

/// A `Vec`/`arrayvec` method applied outside traversals, checked against
/// the same method on the model (`Vec<Key>`). Indices and lengths are
/// reduced modulo the current length. The `*Panic` forms make the user
/// closure panic on its `n`-th call; the collection must then hold what
/// the model says and every element must be in it or dropped once.
#[derive(Clone, Debug)]
enum VecOp {
    DedupByVal,
    DedupByKey(u8),
    DedupByPanic(u8),
    PopIf(u8),
    Insert(u8),
    Remove(u8),
    SwapRemove(u8),
    Truncate(u8),
    Drain(u8, u8),
    Retain(u8),
    SplitOff(u8),
    Splice(u8, u8, Spawn),
    Append(Spawn),
    ExtendFromSlice(Spawn),
    TryExtendFromSlice(Spawn),
    TryExtend(Spawn),
    Resize(u8),
    ResizeWith(u8),
    ResizeWithPanic(u8, u8),
    /// `extract_if(start..end, val % m == 0)`, taking at most `take`.
    ExtractIf {
        start: u8,
        end: u8,
        m: u8,
        take: u8,
    },
    ExtractIfPanic {
        start: u8,
        end: u8,
        n: u8,
    },
    ShrinkTo(u8),
    ReserveExact(u8),
    TryReserve(u8),
}

impl Arbitrary for VecOp {
    fn arbitrary(g: &mut Gen) -> Self {
        let small = |g: &mut Gen| Spawn {
            n: u8::arbitrary(g) % 6,
            flags: u8::arbitrary(g) & u8::arbitrary(g),
        };
        let b = |g: &mut Gen| u8::arbitrary(g);
        match u8::arbitrary(g) % 25 {
            0 => VecOp::DedupByVal,
            1 => VecOp::DedupByKey(b(g)),
            2 => VecOp::DedupByPanic(b(g)),
            3 => VecOp::PopIf(b(g)),
            4 => VecOp::Insert(b(g)),
            5 => VecOp::Remove(b(g)),
            6 => VecOp::SwapRemove(b(g)),
            7 => VecOp::Truncate(b(g)),
            8 => VecOp::Drain(b(g), b(g)),
            9 => VecOp::Retain(b(g)),
            10 => VecOp::SplitOff(b(g)),
            11 => VecOp::Splice(b(g), b(g), small(g)),
            12 => VecOp::Append(small(g)),
            13 => VecOp::ExtendFromSlice(small(g)),
            14 => VecOp::Splice(b(g), b(g), small(g)),
            15 => VecOp::TryExtendFromSlice(small(g)),
            16 => VecOp::TryExtend(small(g)),
            17 => VecOp::Resize(b(g)),
            18 => VecOp::ResizeWith(b(g)),
            19 => VecOp::ResizeWithPanic(b(g), b(g)),
            20 => VecOp::ExtractIf {
                start: b(g),
                end: b(g),
                m: b(g),
                take: b(g),
            },
            21 => VecOp::ExtractIfPanic {
                start: b(g),
                end: b(g),
                n: b(g),
            },
            22 => VecOp::ShrinkTo(b(g)),
            23 => VecOp::ReserveExact(b(g)),
            _ => VecOp::TryReserve(b(g)),
        }
    }
}

/// `i` reduced to `0..n` (0 when `n == 0`).
fn modulo(i: u8, n: usize) -> usize {
    if n == 0 {
        0
    } else {
        usize::from(i) % n
    }
}

/// A range in `0..=len` from two bytes.
fn range_of(a: u8, b: u8, len: usize) -> std::ops::Range<usize> {
    let (a, b) = (modulo(a, len + 1), modulo(b, len + 1));
    a.min(b)..a.max(b)
}

/// Runs `f`, which must panic with a message starting with `prefix`.
fn expect_panic(prefix: &str, f: impl FnOnce()) {
    let payload = catch_unwind(AssertUnwindSafe(f)).expect_err("expected a panic");
    let msg = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    assert!(msg.starts_with(prefix), "unexpected panic: {msg}");
}

/// `dedup_by` on the model, with a comparison that panics on call `panic_at`
/// (1-based; 0: never): the kept prefix, then everything not yet compared.
fn model_dedup_by(
    model: &mut Vec<Key>,
    panic_at: usize,
    same: impl Fn(&Key, &Key) -> bool,
) -> bool {
    let mut kept: Vec<Key> = Vec::new();
    let mut calls = 0;
    for (i, k) in model.iter().enumerate() {
        if let Some(last) = kept.last() {
            calls += 1;
            if calls == panic_at {
                kept.extend_from_slice(&model[i..]);
                *model = kept;
                return true;
            }
            if same(k, last) {
                continue;
            }
        }
        kept.push(*k);
    }
    *model = kept;
    false
}

impl<A: AutoRemove<Elem>> Driver<'_, A> {
    fn room(&self) -> usize {
        self.cfg.max.unwrap_or(usize::MAX) - self.model.len()
    }

    fn vec_op(&mut self, op: &VecOp) {
        let t = self.t;
        let len = self.model.len();
        match op {
            VecOp::DedupByVal => {
                self.c.dedup_by(|a, b| a.val == b.val);
                model_dedup_by(&mut self.model, 0, |a, b| a.1 == b.1);
            }
            VecOp::DedupByKey(m) => {
                let m = i64::from(*m % 4 + 1);
                self.c.dedup_by_key(|e| e.val % m);
                self.model.dedup_by_key(|k| k.1 % m);
            }
            VecOp::DedupByPanic(n) => {
                let n = usize::from(*n % 6) + 1;
                let mut calls = 0;
                let will_panic = model_dedup_by(&mut self.model, n, |a, b| a.1 % 2 == b.1 % 2);
                let c = &mut self.c;
                let r = catch_unwind(AssertUnwindSafe(|| {
                    c.dedup_by(|a, b| {
                        calls += 1;
                        assert!(calls != n, "panic in dedup_by");
                        a.val % 2 == b.val % 2
                    })
                }));
                assert_eq!(r.is_err(), will_panic, "dedup_by panicked as modelled");
            }
            VecOp::PopIf(m) => {
                let m = i64::from(*m % 3 + 1);
                let got = self.c.pop_if(|e| e.val % m == 0).map(|e| e.key());
                let want = self.model.pop_if_model(|k| k.1 % m == 0);
                assert_eq!(got, want, "pop_if");
            }
            VecOp::Insert(i) => {
                let i = modulo(*i, len + 1);
                let e = t.elem(7);
                let k = e.key();
                match self.c.try_insert(i, e) {
                    Ok(()) => {
                        assert!(self.room() > 0, "try_insert accepted past the max");
                        self.model.insert(i, k);
                    }
                    Err(err) => {
                        assert_eq!(self.room(), 0, "try_insert rejected below the max");
                        assert_eq!(err.element().key(), k, "the rejected value comes back");
                    }
                }
            }
            VecOp::Remove(i) if len > 0 => {
                let i = modulo(*i, len);
                assert_eq!(self.c.remove(i).key(), self.model.remove(i));
            }
            VecOp::SwapRemove(i) if len > 0 => {
                let i = modulo(*i, len);
                assert_eq!(self.c.swap_remove(i).key(), self.model.swap_remove(i));
            }
            VecOp::Remove(_) | VecOp::SwapRemove(_) => {}
            VecOp::Truncate(n) => {
                let n = modulo(*n, len + 2);
                self.c.truncate(n);
                self.model.truncate(n);
            }
            VecOp::Drain(a, b) => {
                let r = range_of(*a, *b, len);
                let got: Vec<Key> = self.c.drain(r.clone()).map(|e| e.key()).collect();
                let want: Vec<Key> = self.model.drain(r).collect();
                assert_eq!(got, want, "drain");
            }
            VecOp::Retain(m) => {
                let m = i64::from(*m % 3 + 2);
                self.c.retain(|e| e.val % m != 0);
                self.model.retain(|k| k.1 % m != 0);
            }
            VecOp::SplitOff(at) => {
                let at = modulo(*at, len + 1);
                let got: Vec<Key> = self.c.split_off(at).iter().map(Elem::key).collect();
                assert_eq!(got, self.model.split_off(at), "split_off");
            }
            VecOp::Splice(a, b, s) => {
                let r = range_of(*a, *b, len);
                let new = spawn(t, s);
                let new_keys: Vec<Key> = new.iter().map(Elem::key).collect();
                let grows = new.len().saturating_sub(r.len());
                if grows > self.room() {
                    let c = &mut self.c;
                    expect_panic("adding", || drop(c.splice(r, new)));
                } else {
                    let got: Vec<Key> = self.c.splice(r.clone(), new).map(|e| e.key()).collect();
                    let want: Vec<Key> = self.model.splice(r, new_keys).collect();
                    assert_eq!(got, want, "splice");
                }
            }
            VecOp::Append(s) => {
                let mut other: ReadWriteCollection<Elem> = spawn(t, s).into();
                let other_keys = keys(&other);
                if other.len() > self.room() {
                    let c = &mut self.c;
                    expect_panic("adding", || c.append(&mut other));
                    assert_eq!(keys(&other), other_keys, "a failed append moves nothing");
                } else {
                    self.c.append(&mut other);
                    assert!(other.is_empty());
                    self.model.extend(other_keys);
                }
            }
            VecOp::ExtendFromSlice(s) | VecOp::TryExtendFromSlice(s) => {
                let source = spawn(t, s);
                let fits = source.len() <= self.room();
                let first_clone = t.created() as u32;
                if let VecOp::TryExtendFromSlice(_) = op {
                    assert_eq!(self.c.try_extend_from_slice(&source).is_ok(), fits);
                } else if fits {
                    self.c.extend_from_slice(&source);
                } else {
                    let c = &mut self.c;
                    expect_panic("adding", || c.extend_from_slice(&source));
                }
                if fits {
                    // Clones are new elements, made in slice order.
                    self.model.extend(
                        source
                            .iter()
                            .enumerate()
                            .map(|(i, e)| (first_clone + i as u32, e.val, e.flag)),
                    );
                } else {
                    assert_eq!(t.created() as u32, first_clone, "nothing was cloned");
                }
            }
            VecOp::TryExtend(s) => {
                let new = spawn(t, s);
                let room = self.room();
                let keys_new: Vec<Key> = new.iter().map(Elem::key).collect();
                let mut rest = new.into_iter();
                match self.c.try_extend(rest.by_ref()) {
                    Ok(()) => {
                        assert!(keys_new.len() <= room);
                        self.model.extend(keys_new);
                    }
                    Err(err) => {
                        assert!(keys_new.len() > room, "try_extend rejected below the max");
                        assert_eq!(err.element().key(), keys_new[room], "first rejected value");
                        self.model.extend_from_slice(&keys_new[..room]);
                        let left: Vec<Key> = rest.map(|e| e.key()).collect();
                        assert_eq!(left, keys_new[room + 1..], "the rest is not consumed");
                    }
                }
            }
            VecOp::Resize(n) => {
                let new_len = usize::from(*n % 16);
                let value = t.elem(3);
                let vk = value.key();
                let first_new = t.created() as u32;
                if new_len > len && new_len - len > self.room() {
                    let c = &mut self.c;
                    expect_panic("adding", || c.resize(new_len, value));
                } else {
                    self.c.resize(new_len, value);
                    if new_len <= len {
                        self.model.truncate(new_len);
                    } else {
                        // The value itself and fresh clones of it, in an
                        // order `Vec` does not promise: check the ids are
                        // exactly those.
                        let added: Vec<Key> = keys(&self.c)[len..].to_vec();
                        let mut ids: Vec<u32> = added.iter().map(|k| k.0).collect();
                        ids.sort_unstable();
                        let mut want: Vec<u32> =
                            (first_new..first_new + (new_len - len - 1) as u32).collect();
                        want.push(vk.0);
                        want.sort_unstable();
                        assert_eq!(ids, want, "resize's new elements");
                        assert!(added.iter().all(|k| (k.1, k.2) == (vk.1, vk.2)));
                        self.model.extend(added);
                    }
                }
            }
            VecOp::ResizeWith(n) | VecOp::ResizeWithPanic(n, _) => {
                let new_len = usize::from(*n % 16);
                let panic_at = match op {
                    VecOp::ResizeWithPanic(_, p) => usize::from(*p % 4) + 1,
                    _ => 0,
                };
                let grows = new_len.saturating_sub(len);
                if grows > self.room() {
                    let c = &mut self.c;
                    expect_panic("adding", || c.resize_with(new_len, || t.elem(5)));
                } else {
                    let first = t.created() as u32;
                    let mut calls = 0;
                    let c = &mut self.c;
                    let r = catch_unwind(AssertUnwindSafe(|| {
                        c.resize_with(new_len, || {
                            calls += 1;
                            assert!(calls != panic_at, "panic in resize_with");
                            t.elem(5)
                        })
                    }));
                    let made = if panic_at != 0 && grows >= panic_at {
                        assert!(r.is_err(), "resize_with should have panicked");
                        panic_at - 1
                    } else {
                        assert!(r.is_ok());
                        grows
                    };
                    self.model.truncate(new_len);
                    self.model
                        .extend((0..made as u32).map(|i| (first + i, 5, false)));
                }
            }
            VecOp::ExtractIf {
                start,
                end,
                m,
                take,
            } => {
                let r = range_of(*start, *end, len);
                let m = i64::from(*m % 3 + 1);
                let take = usize::from(*take % 8);
                let got: Vec<Key> = self
                    .c
                    .extract_if(r.clone(), |e| e.val % m == 0)
                    .take(take)
                    .map(|e| e.key())
                    .collect();
                // The model: walk the range until `take` were extracted.
                let mut want = Vec::new();
                let mut kept = self.model[..r.start].to_vec();
                let mut i = r.start;
                while i < r.end && want.len() < take {
                    let k = self.model[i];
                    if k.1 % m == 0 {
                        want.push(k);
                    } else {
                        kept.push(k);
                    }
                    i += 1;
                }
                kept.extend_from_slice(&self.model[i..]);
                assert_eq!(got, want, "extract_if's yield");
                self.model = kept;
            }
            VecOp::ExtractIfPanic { start, end, n } => {
                let r = range_of(*start, *end, len);
                let n = usize::from(*n % 5) + 1;
                let mut calls = 0;
                let mut got = Vec::new();
                let c = &mut self.c;
                let res = catch_unwind(AssertUnwindSafe(|| {
                    for e in c.extract_if(r.clone(), |e| {
                        calls += 1;
                        assert!(calls != n, "panic in extract_if");
                        e.val % 2 == 0
                    }) {
                        got.push(e.key());
                    }
                }));
                // Model: the first n - 1 tested elements are decided, the
                // n-th (if any) panics and is kept with everything after.
                let tested = r.len().min(n - 1);
                assert_eq!(
                    res.is_err(),
                    r.len() >= n,
                    "extract_if panicked as modelled"
                );
                let mut kept = self.model[..r.start].to_vec();
                let mut want = Vec::new();
                for k in &self.model[r.start..r.start + tested] {
                    if k.1 % 2 == 0 {
                        want.push(*k);
                    } else {
                        kept.push(*k);
                    }
                }
                kept.extend_from_slice(&self.model[r.start + tested..]);
                assert_eq!(got, want, "extract_if's yield before the panic");
                self.model = kept;
            }
            VecOp::ShrinkTo(n) => {
                self.c.shrink_to(usize::from(*n % 16));
                assert!(self.c.capacity() >= self.c.len());
            }
            VecOp::ReserveExact(n) => {
                let n = usize::from(*n % 32);
                self.c.reserve_exact(n);
                assert!(self.c.capacity() >= len + n.min(self.room()));
            }
            VecOp::TryReserve(n) => {
                let n = usize::from(*n % 32);
                if n <= self.room() {
                    self.c.try_reserve(n).unwrap();
                    assert!(self.c.capacity() >= len + n);
                } else {
                    // `Ok` would promise room the bound forbids.
                    let cap = self.c.capacity();
                    assert!(self.c.try_reserve(n).is_err(), "try_reserve past the bound");
                    assert_eq!(self.c.capacity(), cap, "nothing reserved");
                }
                assert!(self.c.spare_capacity_mut().len() <= self.room());
            }
        }
        assert_eq!(
            self.c.remaining_capacity(),
            self.room(),
            "remaining_capacity"
        );
        assert_eq!(self.c.is_full(), self.room() == 0, "is_full");
        self.check_state();
    }
}

trait PopIfModel {
    fn pop_if_model(&mut self, f: impl FnOnce(&Key) -> bool) -> Option<Key>;
}

impl PopIfModel for Vec<Key> {
    fn pop_if_model(&mut self, f: impl FnOnce(&Key) -> bool) -> Option<Key> {
        if f(self.last()?) {
            self.pop()
        } else {
            None
        }
    }
}

// ------------------------------------------------------------- properties

fn qc() -> QuickCheck {
    let size = if cfg!(miri) { 6 } else { 30 };
    let mut q = QuickCheck::new().rng(Gen::new(size));
    if cfg!(miri) && std::env::var_os("QUICKCHECK_TESTS").is_none() {
        q = q.tests(5);
    }
    q
}

fn cfg(pred: bool, unordered: bool, max: Option<u8>, cap: u8) -> Cfg {
    Cfg {
        pred,
        unordered,
        max: max.map(|m| usize::from(m % 12)),
        cap: usize::from(cap % 16),
    }
}

fn ordered(cap: u8, ops: Vec<Op>) {
    check(cfg(false, false, None, cap), &ops);
}

fn ordered_auto_remove(cap: u8, ops: Vec<Op>) {
    check(cfg(true, false, None, cap), &ops);
}

fn unordered(cap: u8, ops: Vec<Op>) {
    check(cfg(false, true, None, cap), &ops);
}

fn unordered_auto_remove(cap: u8, ops: Vec<Op>) {
    check(cfg(true, true, None, cap), &ops);
}

fn bounded(max: u8, ops: Vec<Op>) {
    check(cfg(false, false, Some(max), 0), &ops);
}

fn bounded_auto_remove(max: u8, ops: Vec<Op>) {
    check(cfg(true, false, Some(max), 0), &ops);
}

fn bounded_unordered(max: u8, pred: bool, ops: Vec<Op>) {
    check(cfg(pred, true, Some(max), 0), &ops);
}

#[test]
fn model_ordered() {
    qc().quickcheck(ordered as fn(u8, Vec<Op>));
}

#[test]
fn model_ordered_auto_remove() {
    qc().quickcheck(ordered_auto_remove as fn(u8, Vec<Op>));
}

#[test]
fn model_unordered() {
    qc().quickcheck(unordered as fn(u8, Vec<Op>));
}

#[test]
fn model_unordered_auto_remove() {
    qc().quickcheck(unordered_auto_remove as fn(u8, Vec<Op>));
}

#[test]
fn model_bounded() {
    qc().quickcheck(bounded as fn(u8, Vec<Op>));
}

#[test]
fn model_bounded_auto_remove() {
    qc().quickcheck(bounded_auto_remove as fn(u8, Vec<Op>));
}

#[test]
fn model_bounded_unordered() {
    qc().quickcheck(bounded_unordered as fn(u8, bool, Vec<Op>));
}

/// A fixed sequence touching every action, so the model itself is exercised
/// even when the random runs are few (Miri).
#[test]
fn model_fixed_sequence() {
    let s = |n, flags| Spawn { n, flags };
    let ops = vec![
        Op::Push { flag: false },
        Op::Push { flag: true },
        Op::Push { flag: false },
        Op::Push { flag: false },
        Op::Traverse(vec![
            Action::new(Pre::Mutate(3), Main::Keep),
            Action::new(Pre::SetFlag, Main::Keep),
            Action::new(Pre::Nothing, Main::Push(s(3, 0b010))),
            Action::new(Pre::Nothing, Main::RemoveThenPush(s(2, 0))),
            Action::new(Pre::SetFlag, Main::ReadThenCursorPush(s(9, 0b1000_0001))),
            Action::new(Pre::Nothing, Main::Remove),
        ]),
        Op::FlagAt(1),
        Op::Traverse(vec![
            Action::keep(),
            Action::new(Pre::Nothing, Main::PushThenPanic(s(2, 0b01))),
        ]),
        Op::Traverse(vec![
            Action::new(Pre::Mutate(-1), Main::Keep),
            Action::new(Pre::Nothing, Main::RemoveThenPanic),
        ]),
        Op::Traverse(vec![
            Action::keep(),
            Action::new(Pre::SetFlag, Main::Keep),
            Action::new(Pre::SetFlag, Main::Break),
        ]),
        Op::Traverse(vec![Action::new(Pre::SetFlag, Main::Finish)]),
        Op::Traverse(vec![Action::keep(), Action::new(Pre::SetFlag, Main::Panic)]),
        Op::Traverse(vec![Action::new(
            Pre::SetFlag,
            Main::PushThenPanic(s(1, 0)),
        )]),
        Op::Prune,
        Op::Pop,
        Op::Traverse(vec![
            Action::new(Pre::Nothing, Main::Remove),
            Action::new(Pre::Nothing, Main::Push(s(12, 0))),
            Action::new(Pre::SetFlag, Main::Forget),
        ]),
        Op::Push { flag: true },
        Op::Push { flag: false },
        Op::Extend(s(9, 0)),
        Op::Vec(VecOp::DedupByKey(1)),
        Op::Vec(VecOp::DedupByPanic(2)),
        Op::Vec(VecOp::ExtractIfPanic {
            start: 0,
            end: 9,
            n: 3,
        }),
        Op::Vec(VecOp::ExtractIf {
            start: 1,
            end: 200,
            m: 1,
            take: 2,
        }),
        Op::Vec(VecOp::Splice(1, 2, s(4, 0))),
        Op::Vec(VecOp::Append(s(3, 0))),
        Op::Vec(VecOp::ExtendFromSlice(s(2, 0))),
        Op::Vec(VecOp::TryExtendFromSlice(s(5, 0))),
        Op::Vec(VecOp::TryExtend(s(5, 0))),
        Op::Vec(VecOp::Resize(12)),
        Op::Vec(VecOp::ResizeWithPanic(15, 1)),
        Op::Vec(VecOp::Insert(1)),
        Op::Vec(VecOp::PopIf(0)),
        Op::Vec(VecOp::SplitOff(2)),
        Op::Vec(VecOp::DedupByVal),
        Op::Vec(VecOp::Drain(1, 2)),
        Op::Vec(VecOp::Retain(0)),
        Op::Vec(VecOp::ShrinkTo(0)),
        Op::Vec(VecOp::ReserveExact(9)),
        Op::Vec(VecOp::TryReserve(9)),
        Op::Vec(VecOp::Remove(3)),
        Op::Vec(VecOp::SwapRemove(3)),
        Op::Vec(VecOp::Truncate(1)),
        Op::Clear,
        Op::Push { flag: false },
    ];
    for pred in [false, true] {
        for unordered in [false, true] {
            for max in [None, Some(3), Some(7)] {
                check(
                    Cfg {
                        pred,
                        unordered,
                        max,
                        cap: 2,
                    },
                    &ops,
                );
            }
        }
    }
}

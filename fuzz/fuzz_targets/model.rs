//! The operation model and checker shared by every fuzz target and by
//! `tests/fuzz_replay.rs` (which pulls this file in with `#[path]`).
//!
//! An [`Input`] is a [`Config`] plus a sequence of [`Op`]s. [`run`] applies
//! it to a real collection of drop-tracked [`Elem`]s and, in lock step, to a
//! plain `Vec` model, and panics (a crash, for libFuzzer) on the first
//! difference. Checked after every operation and every `Cursor::next`:
//!
//! * visit order: ordered passes yield exactly the model's next element;
//!   unordered passes yield some not-yet-visited element of the pass, each
//!   exactly once (invariants 1 and 2 as multisets);
//! * contents (and pending contents for the buffered collection), exactly,
//!   or as a multiset after an unordered pass;
//! * `Cursor::len`, `Cursor::remaining`, bounded capacity;
//! * drops: the set of live elements is exactly the model's elements plus
//!   those a `mem::forget` of a cursor leaked; no double drop, no drop of an
//!   element of an earlier run;
//! * auto-remove: which elements the hook received, in which order.
//!
//! Every byte string decodes to a valid program: operations that do not
//! apply to a target are no-ops, counts are reduced modulo small bounds and
//! pushes beyond [`MAX_LIVE`] live elements are skipped.
#![allow(dead_code, unreachable_pub)]

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::panic::{self, AssertUnwindSafe};
use std::rc::Rc;
use std::sync::Once;

use arbitrary::Arbitrary;
use read_write_collection::{
    AutoRemove, BufferedCollection, Cursor, Entry, Mode, Producer, ReadWriteCollection,
    ShrinkPolicy, TryPushError,
};

/// Pushes are skipped once this many elements are alive (keeps runs fast).
pub const MAX_LIVE: usize = 512;
/// With `Config::panicky`, the predicate panics on an element with this value.
pub const PRED_PANIC: u8 = 0xA5;
/// With `Config::panicky`, the removal hook panics after receiving (and
/// logging) an element with this value.
pub const HOOK_PANIC: u8 = 0;

/// Which engine configuration a run drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `ReadWriteCollection<Elem>` in `Mode::Ordered`, no policy.
    Ordered,
    /// `ReadWriteCollection<Elem>` starting in `Mode::Unordered`; `SetMode`
    /// switches modes between passes.
    Unordered,
    /// `BufferedCollection<Elem>`, with or without an auto-remove policy.
    Buffered,
    /// `ReadWriteCollection::with_auto_remove(..).with_removal_hook(..)`.
    AutoRemove,
}

/// The whole fuzz input.
#[derive(Arbitrary, Debug, Clone)]
pub struct Input {
    pub config: Config,
    pub ops: Vec<Op>,
}

/// Construction parameters.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct Config {
    /// Initial capacity (`with_capacity` / `reserve`).
    pub capacity: u8,
    /// `Some(n)`: bounded to `n` elements (for `Buffered`: visible and
    /// pending together, producers' pushes included).
    pub max_len: Option<u8>,
    /// `Some((percent, passes))`: a shrink policy (not for `Buffered`).
    pub shrink: Option<(u8, u8)>,
    /// Auto-remove predicate: `val < threshold`.
    pub threshold: u8,
    /// Predicate panics on `PRED_PANIC`, hook on `HOOK_PANIC`.
    pub panicky: bool,
    /// `AutoRemove`: start in unordered mode. `Buffered`: use a policy.
    pub flag: bool,
}

/// One operation on the collection.
#[derive(Arbitrary, Debug, Clone)]
pub enum Op {
    /// `push` (or `try_push` when bounded).
    Push(u8),
    /// `extend` with `count % 8` elements of value `val` (clamped to room).
    Extend { count: u8, val: u8 },
    /// A cursor loop; `actions[i]` is applied to the `i`-th yielded
    /// element, then every further element is kept.
    Traverse(Vec<Action>),
    /// The closure form, `traverse(|entry| ..)`; actions that need the
    /// cursor (break, finish, forget, cursor push) act as their nearest
    /// entry-only equivalent (keep, keep, keep, entry push).
    Closure(Vec<Action>),
    /// `prune()`.
    Prune,
    /// `clear()`.
    Clear,
    /// `pop()` (plain collections only).
    Pop,
    /// `commit()` (buffered only).
    Commit,
    /// `Producer::push` (buffered only).
    ProducerPush(u8),
    /// `clear_pending()` (buffered only).
    ClearPending,
    /// `clear_visible()` (buffered only).
    ClearVisible,
    /// Changes the predicate's threshold (auto-remove policies only).
    SetThreshold(u8),
    /// `set_mode` (the unordered and auto-remove targets only).
    SetMode(bool),
    /// `shrink_to_fit()` (plain collections only).
    ShrinkToFit,
    /// `close()` (buffered only): producers' later pushes come back.
    Close,
    /// `Producer::try_push_batch` of `count % 5` elements (buffered only).
    ProducerBatch { count: u8, val: u8 },
    /// Ends the run by taking the collection apart (buffered only; ignored
    /// otherwise): `into_parts`, `into_vec` or `into_iter` (`how % 3`).
    IntoOwned(u8),
    /// A `Vec`/`arrayvec` method (plain collections only); see [`VecOp`].
    Vec(VecOp),
}

/// A `Vec`/`arrayvec` method on a plain collection, checked against the
/// same method on the model. Indices and lengths are reduced modulo the
/// current length; methods that would panic past a bound are limited to
/// the room left (the `try_` forms test the overflow). `*Panic` forms
/// panic in the user closure on its `n`-th call.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum VecOp {
    DedupByVal,
    DedupByKey(u8),
    DedupByPanic(u8),
    PopIf(u8),
    TryInsert {
        index: u8,
        val: u8,
    },
    Remove(u8),
    SwapRemove(u8),
    Truncate(u8),
    Drain(u8, u8),
    RetainMut {
        m: u8,
        add: u8,
    },
    SplitOff(u8),
    Splice {
        start: u8,
        end: u8,
        count: u8,
        val: u8,
    },
    Append {
        count: u8,
        val: u8,
    },
    TryExtend {
        count: u8,
        val: u8,
    },
    ResizeWith {
        len: u8,
        val: u8,
        panic_at: Option<u8>,
    },
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

/// What the user code does with one yielded element.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Action {
    Keep,
    Remove,
    Mutate(u8),
    /// `Entry::push` (`try_push` when bounded) `count % 3 + 1` times.
    Push {
        count: u8,
        val: u8,
    },
    /// Stop using the entry, then `Cursor::push`.
    CursorPush(u8),
    /// `Entry::remove`, then `Cursor::push`.
    RemoveThenPush(u8),
    /// `Producer::push` while the pass runs (buffered only, else keep).
    ProducerPush(u8),
    /// Optionally mutate, then `break` (the cursor is dropped).
    Break(Option<u8>),
    /// Optionally mutate, then `Cursor::finish`.
    Finish(Option<u8>),
    /// Optionally mutate, then panic while holding the entry.
    Panic(Option<u8>),
    /// `mem::forget` the cursor while an element is held.
    Forget,
}

/// The payload of every panic the checker injects on purpose.
pub struct InjectedPanic;

fn inject_panic() -> ! {
    panic::panic_any(InjectedPanic)
}

/// Silences injected panics (libFuzzer's hook would abort on them) and
/// leaves every other panic to the previous hook.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if info.payload().downcast_ref::<InjectedPanic>().is_none() {
                previous(info);
            }
        }));
    });
}

// ---------------------------------------------------------------------------
// Drop-tracked elements

/// An element whose drops are recorded in a thread-local tracker.
pub struct Elem {
    generation: u32,
    id: u32,
    pub val: u8,
}

/// What the model knows about an element: identity and value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct M {
    pub id: u32,
    pub val: u8,
}

impl M {
    fn of(e: &Elem) -> M {
        M {
            id: e.id,
            val: e.val,
        }
    }
}

#[derive(Default)]
struct Tracker {
    generation: u32,
    live: Vec<bool>,
    live_count: usize,
    errors: Vec<String>,
}

thread_local! {
    static TRACKER: RefCell<Tracker> = RefCell::new(Tracker::default());
}

impl Drop for Elem {
    fn drop(&mut self) {
        let (generation, id) = (self.generation, self.id);
        let _ = TRACKER.try_with(|t| {
            let mut t = t.borrow_mut();
            if generation != t.generation {
                t.errors
                    .push(format!("drop of element {id} of an earlier run"));
            } else if !t.live.get(id as usize).copied().unwrap_or(false) {
                t.errors.push(format!("double drop of element {id}"));
            } else {
                t.live[id as usize] = false;
                t.live_count -= 1;
            }
        });
    }
}

fn tracker_reset() {
    TRACKER.with(|t| {
        let mut t = t.borrow_mut();
        t.generation = t.generation.wrapping_add(1);
        t.live.clear();
        t.live_count = 0;
        t.errors.clear();
    });
}

fn new_elem(id: u32, val: u8) -> Elem {
    TRACKER.with(|t| {
        let mut t = t.borrow_mut();
        assert_eq!(t.live.len(), id as usize);
        t.live.push(true);
        t.live_count += 1;
        Elem {
            generation: t.generation,
            id,
            val,
        }
    })
}

/// Panics unless the live elements are exactly `expected` (distinct ids).
fn check_live(expected: &[u32], context: &str) {
    TRACKER.with(|t| {
        let t = t.borrow();
        assert!(t.errors.is_empty(), "{context}: {:?}", t.errors);
        for &id in expected {
            assert!(
                t.live[id as usize],
                "{context}: element {id} should be alive but was dropped"
            );
        }
        assert_eq!(
            t.live_count,
            expected.len(),
            "{context}: live element count (a leak or a lost element)"
        );
    });
}

// ---------------------------------------------------------------------------
// The collections under test, behind one interface

/// The operations the checker needs, for both collection types.
pub trait Subject {
    type P: AutoRemove<Elem>;
    fn cursor(&mut self) -> Cursor<'_, Elem, Self::P>;
    fn traverse(&mut self, f: &mut dyn FnMut(Entry<'_, Elem>));
    fn items(&self) -> &[Elem];
    fn capacity(&self) -> usize;
    /// Outside a pass; bounded plain collections use `try_push`.
    fn push(&mut self, e: Elem, bounded: bool) -> Result<(), Elem>;
    fn extend(&mut self, v: Vec<Elem>);
    fn prune(&mut self) -> usize;
    fn clear(&mut self);
    /// `None`: not supported by this type.
    fn pop(&mut self) -> Option<Option<Elem>>;
    fn set_unordered(&mut self, on: bool);
    fn shrink_to_fit(&mut self);
    fn commit(&mut self) -> Option<usize>;
    /// Local pending slice and `pending_len()`.
    fn local_pending(&self) -> Option<(&[Elem], usize)>;
    fn clear_pending(&mut self);
    fn clear_visible(&mut self);
    fn producer(&self) -> Option<Producer<Elem>>;
    /// The plain collection, for [`VecOp`]s (`None` for buffered).
    fn vec_api(&mut self) -> Option<&mut ReadWriteCollection<Elem, Self::P>> {
        None
    }
    /// `close()`; buffered only.
    fn close(&mut self) {}
    /// `into_parts` / `into_vec` / `into_iter` (`how % 3`) as (visible,
    /// pending), or `into_vec`'s result as visible with nothing pending;
    /// `Err(self)` where not supported.
    fn into_owned(self, _how: u8) -> Result<(Vec<Elem>, Vec<Elem>), Self>
    where
        Self: Sized,
    {
        Err(self)
    }
}

impl<A: AutoRemove<Elem>> Subject for ReadWriteCollection<Elem, A> {
    type P = A;
    fn cursor(&mut self) -> Cursor<'_, Elem, A> {
        ReadWriteCollection::cursor(self)
    }
    fn traverse(&mut self, f: &mut dyn FnMut(Entry<'_, Elem>)) {
        ReadWriteCollection::traverse(self, f)
    }
    fn items(&self) -> &[Elem] {
        self.as_slice()
    }
    fn capacity(&self) -> usize {
        ReadWriteCollection::capacity(self)
    }
    fn push(&mut self, e: Elem, bounded: bool) -> Result<(), Elem> {
        if bounded {
            self.try_push(e).map_err(|err| err.into_inner())
        } else {
            ReadWriteCollection::push(self, e);
            Ok(())
        }
    }
    fn extend(&mut self, v: Vec<Elem>) {
        Extend::extend(self, v)
    }
    fn prune(&mut self) -> usize {
        ReadWriteCollection::prune(self)
    }
    fn clear(&mut self) {
        ReadWriteCollection::clear(self)
    }
    fn pop(&mut self) -> Option<Option<Elem>> {
        Some(ReadWriteCollection::pop(self))
    }
    fn set_unordered(&mut self, on: bool) {
        self.set_mode(if on { Mode::Unordered } else { Mode::Ordered });
    }
    fn shrink_to_fit(&mut self) {
        ReadWriteCollection::shrink_to_fit(self)
    }
    fn commit(&mut self) -> Option<usize> {
        None
    }
    fn local_pending(&self) -> Option<(&[Elem], usize)> {
        None
    }
    fn clear_pending(&mut self) {}
    fn clear_visible(&mut self) {}
    fn producer(&self) -> Option<Producer<Elem>> {
        None
    }
    fn vec_api(&mut self) -> Option<&mut ReadWriteCollection<Elem, A>> {
        Some(self)
    }
}

impl<A: AutoRemove<Elem>> Subject for BufferedCollection<Elem, A> {
    type P = A;
    fn cursor(&mut self) -> Cursor<'_, Elem, A> {
        BufferedCollection::cursor(self)
    }
    fn traverse(&mut self, f: &mut dyn FnMut(Entry<'_, Elem>)) {
        BufferedCollection::traverse(self, f)
    }
    fn items(&self) -> &[Elem] {
        self.as_slice()
    }
    fn capacity(&self) -> usize {
        BufferedCollection::capacity(self)
    }
    fn push(&mut self, e: Elem, bounded: bool) -> Result<(), Elem> {
        if bounded {
            return BufferedCollection::try_push(self, e).map_err(|err| err.into_inner());
        }
        BufferedCollection::push(self, e);
        Ok(())
    }
    fn extend(&mut self, v: Vec<Elem>) {
        Extend::extend(self, v)
    }
    fn prune(&mut self) -> usize {
        BufferedCollection::prune(self)
    }
    fn clear(&mut self) {
        BufferedCollection::clear(self)
    }
    fn pop(&mut self) -> Option<Option<Elem>> {
        None
    }
    fn set_unordered(&mut self, _on: bool) {}
    fn shrink_to_fit(&mut self) {}
    fn commit(&mut self) -> Option<usize> {
        Some(BufferedCollection::commit(self))
    }
    fn local_pending(&self) -> Option<(&[Elem], usize)> {
        Some((BufferedCollection::local_pending(self), self.pending_len()))
    }
    fn clear_pending(&mut self) {
        BufferedCollection::clear_pending(self)
    }
    fn clear_visible(&mut self) {
        BufferedCollection::clear_visible(self)
    }
    fn producer(&self) -> Option<Producer<Elem>> {
        Some(BufferedCollection::producer(self))
    }
    fn close(&mut self) {
        BufferedCollection::close(self)
    }
    fn into_owned(self, how: u8) -> Result<(Vec<Elem>, Vec<Elem>), Self> {
        Ok(match how % 3 {
            0 => self.into_parts(),
            1 => (self.into_vec(), Vec::new()),
            _ => (self.into_iter().collect(), Vec::new()),
        })
    }
}

// ---------------------------------------------------------------------------
// Entry point

/// Applies `input` to a collection of the given kind and to the model;
/// panics on the first difference.
pub fn run(kind: Kind, input: &Input) {
    install_panic_hook();
    tracker_reset();
    let cfg = input.config;
    let threshold = Rc::new(Cell::new(cfg.threshold));
    let log: Rc<RefCell<Vec<M>>> = Rc::default();
    let panicky = cfg.panicky;
    let pred = {
        let threshold = Rc::clone(&threshold);
        move |e: &Elem| {
            if panicky && e.val == PRED_PANIC {
                inject_panic();
            }
            e.val < threshold.get()
        }
    };
    let hook = {
        let log = Rc::clone(&log);
        move |e: Elem| {
            log.borrow_mut().push(M::of(&e));
            if panicky && e.val == HOOK_PANIC {
                inject_panic();
            }
            drop(e);
        }
    };
    let max = cfg.max_len.map(usize::from);
    let shrink = cfg
        .shrink
        .map(|(percent, passes)| ShrinkPolicy::new(percent % 101, u32::from(passes).max(1)));
    let capacity = usize::from(cfg.capacity);
    match kind {
        Kind::Ordered | Kind::Unordered => {
            let mut c: ReadWriteCollection<Elem> = match max {
                Some(m) => ReadWriteCollection::bounded(m),
                None => ReadWriteCollection::new(),
            };
            c.reserve(capacity);
            c.set_shrink_policy(shrink);
            let unordered = kind == Kind::Unordered;
            c.set_unordered(unordered);
            Checker::new(kind, cfg, max, unordered, false, threshold, log).run(c, &input.ops);
        }
        Kind::AutoRemove => {
            let mut c = ReadWriteCollection::with_auto_remove(pred).with_removal_hook(hook);
            c.set_max_len(max);
            c.reserve(capacity);
            c.set_shrink_policy(shrink);
            Subject::set_unordered(&mut c, cfg.flag);
            Checker::new(kind, cfg, max, cfg.flag, true, threshold, log).run(c, &input.ops);
        }
        Kind::Buffered => {
            if cfg.flag {
                let mut c = BufferedCollection::with_auto_remove(pred).with_removal_hook(hook);
                c.set_max_len(max);
                Checker::new(kind, cfg, max, false, true, threshold, log).run(c, &input.ops);
            } else {
                let c: BufferedCollection<Elem> = match max {
                    Some(m) => BufferedCollection::bounded(m),
                    None => BufferedCollection::with_capacity(capacity),
                };
                Checker::new(kind, cfg, max, false, false, threshold, log).run(c, &input.ops);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// The model

/// The model of one pass.
#[derive(Default)]
struct PassModel {
    kept: Vec<M>,
    held: Option<M>,
    /// Not yet visited, pushed ones included. In unordered passes the order
    /// means nothing.
    unvisited: VecDeque<M>,
}

impl PassModel {
    fn len(&self) -> usize {
        self.kept.len() + usize::from(self.held.is_some()) + self.unvisited.len()
    }

    fn into_items(self) -> Vec<M> {
        let mut v = self.kept;
        v.extend(self.held);
        v.extend(self.unvisited);
        v
    }

    /// Removes `m` (same id and value) from the unvisited elements.
    fn take_unvisited(&mut self, m: M, what: &str) {
        let pos = self.unvisited.iter().position(|x| *x == m);
        let pos = pos.unwrap_or_else(|| {
            panic!(
                "{what}: {m:?} is not an unvisited element of this pass (unvisited: {:?})",
                self.unvisited
            )
        });
        self.unvisited.remove(pos);
    }
}

/// What a call into the crate during a pass ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Yield(M),
    End,
    Panicked,
}

/// Which crate call was running (to interpret an injected panic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// `Cursor::next` (settle the previous element, reach the next one).
    Next,
    /// Cursor drop or `finish` (settle the held element).
    Settle,
    /// User code panicking on purpose.
    User,
    /// Anything else: an injected panic here is a bug.
    Other,
}

struct Checker {
    kind: Kind,
    cfg: Config,
    max: Option<usize>,
    unordered: bool,
    auto: bool,
    threshold: Rc<Cell<u8>>,
    /// Everything the removal hook received; `seen` entries are explained.
    log: Rc<RefCell<Vec<M>>>,
    seen: usize,
    items: Vec<M>,
    pending: Vec<M>,
    producer_queue: Vec<M>,
    leaked: Vec<u32>,
    next_id: u32,
    producer: Option<Producer<Elem>>,
    step: usize,
    /// Buffered: `close()` was called.
    closed: bool,
    /// Buffered and bounded: a pass may still hold room it reserved from
    /// the producers (until the collection next synchronises with them).
    maybe_reserved: bool,
}

impl Checker {
    fn new(
        kind: Kind,
        cfg: Config,
        max: Option<usize>,
        unordered: bool,
        auto: bool,
        threshold: Rc<Cell<u8>>,
        log: Rc<RefCell<Vec<M>>>,
    ) -> Self {
        Checker {
            kind,
            cfg,
            max,
            unordered,
            auto,
            threshold,
            log,
            seen: 0,
            items: Vec::new(),
            pending: Vec::new(),
            producer_queue: Vec::new(),
            leaked: Vec::new(),
            next_id: 0,
            producer: None,
            step: 0,
            closed: false,
            maybe_reserved: false,
        }
    }

    fn pred_panics(&self, m: M) -> bool {
        self.auto && self.cfg.panicky && m.val == PRED_PANIC
    }

    fn pred(&self, m: M) -> bool {
        self.auto && m.val < self.threshold.get()
    }

    fn hook_panics(&self, m: M) -> bool {
        self.cfg.panicky && m.val == HOOK_PANIC
    }

    /// The next hook log entry the model has not explained yet.
    fn next_logged(&mut self) -> Option<M> {
        let m = self.log.borrow().get(self.seen).copied();
        if m.is_some() {
            self.seen += 1;
        }
        m
    }

    fn log_exhausted(&self) -> bool {
        self.log.borrow().len() == self.seen
    }

    fn live_elsewhere(&self) -> usize {
        self.pending.len() + self.producer_queue.len()
    }

    /// A new element, or `None` when the run is at its size limit.
    fn make(&mut self, live: usize, val: u8) -> Option<(Elem, M)> {
        if live >= MAX_LIVE {
            return None;
        }
        let id = self.next_id;
        self.next_id += 1;
        Some((new_elem(id, val), M { id, val }))
    }

    fn run<S: Subject>(mut self, mut s: S, ops: &[Op]) {
        self.producer = s.producer();
        self.check(&s, "initial state");
        for op in ops {
            self.step += 1;
            if let Op::IntoOwned(how) = *op {
                match s.into_owned(how) {
                    Ok(parts) => return self.end_owned(parts, how),
                    Err(back) => s = back,
                }
                continue;
            }
            self.apply(&mut s, op);
            self.check(&s, &format!("after op #{} {op:?}", self.step));
        }
        drop(s);
        self.items.clear();
        self.pending.clear();
        self.producer_queue.clear();
        assert!(
            self.log_exhausted(),
            "dropping the collection called the hook"
        );
        check_live(&self.leaked, "after dropping the collection");
        if let Some(p) = self.producer.take() {
            assert!(
                p.is_closed(),
                "producer still open after the collection was dropped"
            );
            if let Some((e, m)) = self.make(0, 1) {
                let back = p
                    .push(e)
                    .expect_err("push into a dropped collection succeeded");
                assert_eq!(M::of(&back.into_inner()), m);
            }
            check_live(&self.leaked, "after pushing into a closed producer");
        }
    }

    /// Compares the whole state.
    fn check<S: Subject>(&mut self, s: &S, context: &str) {
        let actual: Vec<M> = s.items().iter().map(M::of).collect();
        if self.unordered {
            // Unordered passes only promise a multiset: compare sorted, then
            // adopt the crate's order (the multisets are equal).
            let (mut a, mut b) = (actual.clone(), self.items.clone());
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "{context}: contents (as a multiset)");
            self.items = actual;
        } else {
            assert_eq!(actual, self.items, "{context}: contents");
        }
        if let Some((pending, pending_len)) = s.local_pending() {
            let pending: Vec<M> = pending.iter().map(M::of).collect();
            assert_eq!(pending, self.pending, "{context}: pending");
            assert_eq!(
                pending_len,
                self.pending.len() + self.producer_queue.len(),
                "{context}: pending_len"
            );
        }
        self.check_buffered_bound(context);
        if let Some(max) = self.max.filter(|_| self.kind != Kind::Buffered) {
            assert!(
                s.capacity() <= max,
                "{context}: capacity {} exceeds the bound {max}",
                s.capacity()
            );
        }
        assert!(
            self.log_exhausted(),
            "{context}: unexplained hook calls {:?}",
            &self.log.borrow()[self.seen..]
        );
        let mut live: Vec<u32> = self.leaked.clone();
        live.extend(self.items.iter().map(|m| m.id));
        live.extend(self.pending.iter().map(|m| m.id));
        live.extend(self.producer_queue.iter().map(|m| m.id));
        check_live(&live, context);
    }

    fn bounded(&self) -> bool {
        self.max.is_some()
    }

    fn apply<S: Subject>(&mut self, s: &mut S, op: &Op) {
        match *op {
            Op::Push(val) => {
                let live = self.items.len() + self.live_elsewhere();
                if let Some((e, m)) = self.make(live, val) {
                    let full = self.push_full();
                    self.synced();
                    match s.push(e, self.bounded()) {
                        Ok(()) => {
                            assert!(!full, "push into a full bounded collection succeeded");
                            if self.kind == Kind::Buffered {
                                self.pending.push(m);
                            } else {
                                self.items.push(m);
                            }
                        }
                        Err(back) => {
                            assert!(full, "try_push failed below the bound");
                            assert_eq!(M::of(&back), m, "try_push gave back another value");
                        }
                    }
                }
            }
            Op::Extend { count, val } => {
                let mut room = usize::from(count % 8);
                if let Some(max) = self.max {
                    room = room.min(max.saturating_sub(self.bound_count()));
                }
                let mut v = Vec::new();
                for _ in 0..room {
                    let live = self.items.len() + self.live_elsewhere() + v.len();
                    if let Some((e, m)) = self.make(live, val) {
                        v.push(e);
                        if self.kind == Kind::Buffered {
                            self.pending.push(m);
                        } else {
                            self.items.push(m);
                        }
                    }
                }
                s.extend(v);
            }
            Op::Traverse(ref actions) => {
                self.pass_starts();
                self.traverse(s, actions)
            }
            Op::Closure(ref actions) => {
                self.pass_starts();
                self.closure(s, actions)
            }
            Op::Prune => {
                self.pass_starts();
                self.prune(s)
            }
            Op::Clear => {
                self.synced();
                s.clear();
                self.items.clear();
                if self.kind == Kind::Buffered {
                    self.pending.clear();
                    self.producer_queue.clear();
                }
            }
            Op::Pop => {
                if let Some(got) = s.pop() {
                    assert_eq!(got.as_ref().map(M::of), self.items.pop(), "pop");
                }
            }
            Op::Commit => {
                self.synced();
                if let Some(n) = s.commit() {
                    let expected = self.pending.len() + self.producer_queue.len();
                    assert_eq!(n, expected, "commit's return value");
                    self.items.append(&mut self.pending);
                    self.items.append(&mut self.producer_queue);
                }
            }
            Op::ProducerPush(val) => self.producer_push(self.items.len(), val),
            Op::ClearPending => {
                self.synced();
                s.clear_pending();
                self.pending.clear();
                self.producer_queue.clear();
            }
            Op::ClearVisible => {
                if self.kind == Kind::Buffered {
                    self.synced();
                    s.clear_visible();
                    self.items.clear();
                }
            }
            Op::SetThreshold(t) => {
                if self.auto {
                    self.threshold.set(t);
                }
            }
            Op::SetMode(on) => {
                if matches!(self.kind, Kind::Unordered | Kind::AutoRemove) {
                    s.set_unordered(on);
                    self.unordered = on;
                }
            }
            Op::ShrinkToFit => s.shrink_to_fit(),
            Op::Vec(op) => {
                if let Some(c) = s.vec_api() {
                    self.vec_op(c, op);
                }
            }
            Op::Close => {
                if self.kind == Kind::Buffered {
                    s.close();
                    self.closed = true;
                }
            }
            Op::ProducerBatch { count, val } => self.producer_batch(self.items.len(), count, val),
            Op::IntoOwned(_) => unreachable!("handled by `run`"),
        }
    }

    fn producer_push(&mut self, visible: usize, val: u8) {
        let Some(producer) = self.producer.clone() else {
            return;
        };
        let live = visible + self.live_elsewhere();
        if let Some((e, m)) = self.make(live, val) {
            let total = visible + self.live_elsewhere();
            match producer.try_push(e) {
                Ok(()) => {
                    assert!(!self.closed, "a producer pushed into a closed collection");
                    assert!(
                        !matches!(self.max, Some(max) if total >= max),
                        "a producer pushed past the bound ({total} elements)"
                    );
                    self.producer_queue.push(m);
                }
                Err(TryPushError::Closed(back)) => {
                    assert!(self.closed, "Closed while the collection is open");
                    assert_eq!(M::of(&back), m, "try_push gave back another value");
                }
                Err(TryPushError::Full(back)) => {
                    assert!(!self.closed, "Full from a closed collection");
                    self.assert_may_be_full(total, "Producer::try_push");
                    assert_eq!(M::of(&back), m, "try_push gave back another value");
                }
            }
        }
    }

    // --- queues (buffered only) -------------------------------------------

    /// The elements a buffered bound counts now (outside a pass).
    fn bound_count(&self) -> usize {
        if self.kind == Kind::Buffered {
            self.items.len() + self.live_elsewhere()
        } else {
            self.items.len()
        }
    }

    /// Whether a push outside a pass must find the collection full.
    fn push_full(&self) -> bool {
        self.max.is_some_and(|max| self.bound_count() >= max)
    }

    /// Whether a push during a pass (`pm`) must find the collection full.
    /// A buffered pass may use the room free at its start: the bound minus
    /// the producers' queue (which cannot grow during it).
    fn pass_full(&self, pm: &PassModel) -> bool {
        match self.max {
            None => false,
            Some(max) if self.kind == Kind::Buffered => {
                pm.len() + self.pending.len() >= max - self.producer_queue.len()
            }
            Some(max) => pm.len() >= max,
        }
    }

    /// A pass starts: a bounded buffered one reserves the free room.
    fn pass_starts(&mut self) {
        if self.kind == Kind::Buffered && self.bounded() {
            self.maybe_reserved = true;
        }
    }

    /// The collection synchronises with its producers (its exact count is
    /// published): reserved room is handed back.
    fn synced(&mut self) {
        self.maybe_reserved = false;
    }

    /// A producer was refused as full with `total` elements counted: right
    /// at the bound, or while a pass may hold reserved room.
    fn assert_may_be_full(&self, total: usize, what: &str) {
        let Some(max) = self.max else {
            panic!("{what}: Full from an unbounded collection");
        };
        assert!(
            total >= max || self.maybe_reserved,
            "{what}: Full with {total} of {max} elements and no reservation"
        );
    }

    /// The buffered bound holds at every check.
    fn check_buffered_bound(&self, context: &str) {
        if self.kind != Kind::Buffered {
            return;
        }
        if let Some(max) = self.max {
            let total = self.bound_count();
            assert!(
                total <= max,
                "{context}: {total} elements past the bound {max}"
            );
        }
    }

    /// `Producer::try_push_batch` of `count % 5` elements.
    fn producer_batch(&mut self, visible: usize, count: u8, val: u8) {
        let Some(producer) = self.producer.clone() else {
            return;
        };
        let mut batch = Vec::new();
        let mut models = Vec::new();
        for _ in 0..count % 5 {
            let live = visible + self.live_elsewhere() + batch.len();
            if let Some((e, m)) = self.make(live, val) {
                batch.push(e);
                models.push(m);
            }
        }
        let total = visible + self.live_elsewhere();
        let result = producer.try_push_batch(&mut batch);
        let left: Vec<M> = batch.iter().map(M::of).collect();
        let pushed = models.len() - left.len();
        assert_eq!(
            left,
            models[pushed..],
            "the batch keeps what was not pushed, in order"
        );
        match result {
            Ok(()) => assert!(left.is_empty() && !self.closed),
            Err(TryPushError::Closed(())) => {
                assert!(self.closed, "Closed while the collection is open");
                assert_eq!(pushed, 0, "a closed collection took part of a batch");
            }
            Err(TryPushError::Full(())) => {
                assert!(!self.closed && !left.is_empty());
                self.assert_may_be_full(total + pushed, "Producer::try_push_batch");
            }
        }
        if let Some(max) = self.max {
            assert!(total + pushed <= max, "a batch pushed past the bound");
        }
        self.producer_queue.extend_from_slice(&models[..pushed]);
        drop(batch); // the elements handed back
    }

    /// Ends the run with the collection taken apart into `parts`.
    fn end_owned(mut self, parts: (Vec<Elem>, Vec<Elem>), how: u8) {
        let (visible_elems, pending_elems) = parts;
        let mut expected_pending = std::mem::take(&mut self.pending);
        expected_pending.append(&mut self.producer_queue);
        let mut expected_visible = std::mem::take(&mut self.items);
        let visible: Vec<M> = visible_elems.iter().map(M::of).collect();
        let pending_m: Vec<M> = pending_elems.iter().map(M::of).collect();
        match how % 3 {
            0 => {
                assert_eq!(visible, expected_visible, "into_parts: visible");
                assert_eq!(pending_m, expected_pending, "into_parts: pending");
            }
            _ => {
                expected_visible.append(&mut expected_pending);
                assert_eq!(visible, expected_visible, "into_vec / into_iter");
                assert!(pending_m.is_empty());
            }
        }
        let mut live = self.leaked.clone();
        live.extend(visible.iter().map(|m| m.id));
        live.extend(pending_m.iter().map(|m| m.id));
        check_live(&live, "after taking the collection apart");
        assert!(
            self.log_exhausted(),
            "taking the collection apart called the hook"
        );
        let producer = self.producer.take().expect("buffered runs hold a producer");
        assert!(producer.is_closed(), "producer open after into_parts");
        drop((visible_elems, pending_elems));
        if let Some((e, m)) = self.make(0, 1) {
            let back = producer
                .try_push(e)
                .expect_err("push after into_parts succeeded");
            assert!(back.is_closed());
            assert_eq!(M::of(&back.into_inner()), m);
        }
        check_live(&self.leaked, "after dropping the parts");
    }

    // --- passes -----------------------------------------------------------

    /// Explains the settling of the held element (at `next`, drop or
    /// `finish`). Returns `false` if the pass ended there (panic).
    fn settle(&mut self, pm: &mut PassModel, outcome: Outcome) -> bool {
        let Some(h) = pm.held.take() else {
            return true;
        };
        if self.pred_panics(h) {
            assert_eq!(
                outcome,
                Outcome::Panicked,
                "predicate panic on held {h:?} expected"
            );
            pm.kept.push(h); // kept by the unwinding
            return false;
        }
        if self.pred(h) {
            let logged = self.next_logged();
            assert_eq!(logged, Some(h), "held element {h:?} should go to the hook");
            if self.hook_panics(h) {
                assert_eq!(outcome, Outcome::Panicked, "hook panic on {h:?} expected");
                return false;
            }
        } else {
            pm.kept.push(h);
        }
        true
    }

    /// Explains one `Cursor::next` call that ended with `outcome`.
    fn explain_next(&mut self, pm: &mut PassModel, outcome: Outcome) {
        if !self.settle(pm, outcome) {
            return;
        }
        if self.unordered {
            return self.explain_reach_unordered(pm, outcome);
        }
        loop {
            let Some(&x) = pm.unvisited.front() else {
                assert_eq!(outcome, Outcome::End, "the pass should have ended");
                assert!(self.log_exhausted(), "hook called after the last element");
                return;
            };
            if self.pred_panics(x) {
                // Kept in place by the unwinding.
                assert_eq!(
                    outcome,
                    Outcome::Panicked,
                    "predicate panic on {x:?} expected"
                );
                return;
            }
            if self.pred(x) {
                pm.unvisited.pop_front();
                let logged = self.next_logged();
                assert_eq!(logged, Some(x), "{x:?} should have been auto-removed");
                if self.hook_panics(x) {
                    assert_eq!(outcome, Outcome::Panicked, "hook panic on {x:?} expected");
                    return;
                }
                continue;
            }
            assert_eq!(outcome, Outcome::Yield(x), "visit order");
            assert!(self.log_exhausted(), "hook called on a yielded element");
            pm.unvisited.pop_front();
            pm.held = Some(x);
            return;
        }
    }

    /// Unordered: any unvisited element may come next; check the ones the
    /// hook received and the one yielded.
    fn explain_reach_unordered(&mut self, pm: &mut PassModel, outcome: Outcome) {
        let mut hook_panicked = false;
        while let Some(r) = self.next_logged() {
            assert!(!hook_panicked, "hook called after it panicked");
            pm.take_unvisited(r, "auto-removed");
            assert!(
                self.pred(r) && !self.pred_panics(r),
                "{r:?} auto-removed though the predicate is false"
            );
            hook_panicked = self.hook_panics(r);
        }
        if hook_panicked {
            assert_eq!(outcome, Outcome::Panicked, "the hook should have panicked");
            return;
        }
        match outcome {
            Outcome::Yield(y) => {
                pm.take_unvisited(y, "yielded");
                assert!(
                    !self.pred(y) && !self.pred_panics(y),
                    "{y:?} yielded though the predicate holds"
                );
                pm.held = Some(y);
            }
            Outcome::End => assert!(
                pm.unvisited.is_empty(),
                "the pass ended without visiting {:?}",
                pm.unvisited
            ),
            Outcome::Panicked => assert!(
                pm.unvisited.iter().any(|&x| self.pred_panics(x)),
                "a panic with no panicking element left"
            ),
        }
    }

    /// The model side of `Entry::push` / `Cursor::push` during a pass.
    /// Returns the element to push, if any.
    fn pass_push(&mut self, pm: &PassModel, val: u8) -> Option<(Elem, M, bool)> {
        let live = pm.len() + self.live_elsewhere();
        let (e, m) = self.make(live, val)?;
        let full = self.pass_full(pm);
        Some((e, m, full))
    }

    fn pushed(&mut self, pm: &mut PassModel, m: M, full: bool, result: Result<(), Elem>) {
        match result {
            Ok(()) => {
                assert!(
                    !full,
                    "push into a full bounded collection succeeded during a pass"
                );
                if self.kind == Kind::Buffered {
                    self.pending.push(m);
                } else {
                    pm.unvisited.push_back(m);
                }
            }
            Err(back) => {
                assert!(full, "try_push failed below the bound during a pass");
                assert_eq!(M::of(&back), m);
            }
        }
    }

    fn check_cursor<P: AutoRemove<Elem>>(&self, cursor: &Cursor<'_, Elem, P>, pm: &PassModel) {
        assert_eq!(cursor.remaining(), pm.unvisited.len(), "Cursor::remaining");
        assert_eq!(cursor.len(), pm.len(), "Cursor::len");
    }

    fn traverse<S: Subject>(&mut self, s: &mut S, actions: &[Action]) {
        let mut pm = PassModel {
            unvisited: self.items.drain(..).collect(),
            ..PassModel::default()
        };
        let mut phase = Phase::Other;
        let mut forgot = false;
        let bounded = self.bounded();
        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            let mut cursor = s.cursor();
            self.check_cursor(&cursor, &pm);
            let mut i = 0;
            loop {
                phase = Phase::Next;
                let got = cursor.next();
                phase = Phase::Other;
                let Some(mut e) = got else {
                    self.explain_next(&mut pm, Outcome::End);
                    self.check_cursor(&cursor, &pm);
                    break;
                };
                self.explain_next(&mut pm, Outcome::Yield(M::of(&e)));
                let action = actions.get(i).copied().unwrap_or(Action::Keep);
                i += 1;
                match action {
                    Action::Keep => {}
                    Action::Remove => {
                        let v = e.remove();
                        assert_eq!(Some(M::of(&v)), pm.held.take(), "Entry::remove value");
                    }
                    Action::Mutate(v) => {
                        e.val = v;
                        pm.held.as_mut().unwrap().val = v;
                    }
                    Action::Push { count, val } => {
                        for _ in 0..count % 3 + 1 {
                            if let Some((el, m, full)) = self.pass_push(&pm, val) {
                                let r = if bounded {
                                    e.try_push(el).map_err(|err| err.into_inner())
                                } else {
                                    e.push(el);
                                    Ok(())
                                };
                                self.pushed(&mut pm, m, full, r);
                            }
                        }
                    }
                    Action::CursorPush(val) | Action::RemoveThenPush(val) => {
                        if matches!(action, Action::RemoveThenPush(_)) {
                            let v = e.remove();
                            assert_eq!(Some(M::of(&v)), pm.held.take(), "Entry::remove value");
                        }
                        if let Some((el, m, full)) = self.pass_push(&pm, val) {
                            let r = if bounded {
                                cursor.try_push(el).map_err(|err| err.into_inner())
                            } else {
                                cursor.push(el);
                                Ok(())
                            };
                            self.pushed(&mut pm, m, full, r);
                        }
                    }
                    Action::ProducerPush(val) => {
                        let n = pm.len();
                        self.producer_push(n, val);
                    }
                    Action::Break(mutate) | Action::Finish(mutate) => {
                        if let Some(v) = mutate {
                            e.val = v;
                            pm.held.as_mut().unwrap().val = v;
                        }
                        phase = Phase::Settle;
                        if matches!(action, Action::Finish(_)) {
                            cursor.finish();
                        } else {
                            drop(cursor);
                        }
                        phase = Phase::Other;
                        return;
                    }
                    Action::Panic(mutate) => {
                        if let Some(v) = mutate {
                            e.val = v;
                            pm.held.as_mut().unwrap().val = v;
                        }
                        phase = Phase::User;
                        inject_panic();
                    }
                    Action::Forget => {
                        forgot = true;
                        std::mem::forget(cursor);
                        return;
                    }
                }
                self.check_cursor(&cursor, &pm);
            }
            phase = Phase::Settle;
            drop(cursor);
            phase = Phase::Other;
        }));
        match result {
            Ok(()) if forgot => {
                // Every element of the pass is leaked; the collection is empty.
                self.leaked.extend(pm.into_items().iter().map(|m| m.id));
                return;
            }
            Ok(()) => {
                // Normal completion (end, break or finish) settled the held
                // element without a panic.
                let completed = self.settle(&mut pm, Outcome::End);
                assert!(completed);
            }
            Err(payload) => {
                if payload.downcast_ref::<InjectedPanic>().is_none() {
                    panic::resume_unwind(payload);
                }
                match phase {
                    Phase::Next => self.explain_next(&mut pm, Outcome::Panicked),
                    Phase::Settle => {
                        let ended = !self.settle(&mut pm, Outcome::Panicked);
                        assert!(ended, "unexpected panic while settling");
                    }
                    // Unwinding never settles: the held element is kept.
                    Phase::User => {}
                    Phase::Other => panic!("injected panic outside a crate call"),
                }
            }
        }
        self.items = pm.into_items();
    }

    fn closure<S: Subject>(&mut self, s: &mut S, actions: &[Action]) {
        let mut pm = PassModel {
            unvisited: self.items.drain(..).collect(),
            ..PassModel::default()
        };
        let mut phase = Phase::Next;
        let bounded = self.bounded();
        let mut i = 0;
        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            s.traverse(&mut |mut e: Entry<'_, Elem>| {
                phase = Phase::Other;
                self.explain_next(&mut pm, Outcome::Yield(M::of(&e)));
                let action = actions.get(i).copied().unwrap_or(Action::Keep);
                i += 1;
                match action {
                    Action::Remove | Action::RemoveThenPush(_) => {
                        let v = e.remove();
                        assert_eq!(Some(M::of(&v)), pm.held.take(), "Entry::remove value");
                    }
                    Action::Mutate(v) => {
                        e.val = v;
                        pm.held.as_mut().unwrap().val = v;
                    }
                    Action::Push { val, .. } | Action::CursorPush(val) => {
                        if let Some((el, m, full)) = self.pass_push(&pm, val) {
                            let r = if bounded {
                                e.try_push(el).map_err(|err| err.into_inner())
                            } else {
                                e.push(el);
                                Ok(())
                            };
                            self.pushed(&mut pm, m, full, r);
                        }
                    }
                    Action::ProducerPush(val) => {
                        let n = pm.len();
                        self.producer_push(n, val);
                    }
                    Action::Panic(mutate) => {
                        if let Some(v) = mutate {
                            e.val = v;
                            pm.held.as_mut().unwrap().val = v;
                        }
                        phase = Phase::User;
                        inject_panic();
                    }
                    Action::Keep | Action::Break(_) | Action::Finish(_) | Action::Forget => {}
                }
                phase = Phase::Next;
            });
        }));
        match result {
            Ok(()) => self.explain_next(&mut pm, Outcome::End),
            Err(payload) => {
                if payload.downcast_ref::<InjectedPanic>().is_none() {
                    panic::resume_unwind(payload);
                }
                match phase {
                    Phase::Next => self.explain_next(&mut pm, Outcome::Panicked),
                    Phase::User => {}
                    Phase::Settle | Phase::Other => panic!("injected panic outside a crate call"),
                }
            }
        }
        self.items = pm.into_items();
    }

    fn prune<S: Subject>(&mut self, s: &mut S) {
        let mut pm = PassModel {
            unvisited: self.items.drain(..).collect(),
            ..PassModel::default()
        };
        let result = panic::catch_unwind(AssertUnwindSafe(|| s.prune()));
        let returned = match result {
            Ok(n) => Some(n),
            Err(payload) => {
                if payload.downcast_ref::<InjectedPanic>().is_none() {
                    panic::resume_unwind(payload);
                }
                None
            }
        };
        let panicked = returned.is_none();
        // `prune` is a pass in which every reached element is kept unless
        // the policy removes it.
        let mut removed = 0;
        if self.unordered {
            let mut hook_panicked = false;
            while let Some(r) = self.next_logged() {
                assert!(!hook_panicked, "hook called after it panicked");
                pm.take_unvisited(r, "pruned");
                assert!(
                    self.pred(r) && !self.pred_panics(r),
                    "{r:?} pruned though the predicate is false"
                );
                hook_panicked = self.hook_panics(r);
                removed += 1;
            }
            if panicked {
                assert!(
                    hook_panicked || pm.unvisited.iter().any(|&x| self.pred_panics(x)),
                    "prune panicked with nothing to panic on"
                );
            } else {
                assert!(!hook_panicked, "prune's hook should have panicked");
                assert!(
                    pm.unvisited
                        .iter()
                        .all(|&x| !self.pred(x) && !self.pred_panics(x)),
                    "prune left elements the predicate holds for: {:?}",
                    pm.unvisited
                );
            }
        } else {
            let mut stopped = false;
            while let Some(&x) = pm.unvisited.front() {
                if self.pred_panics(x) {
                    stopped = true; // kept in place by the unwinding
                    break;
                }
                pm.unvisited.pop_front();
                if self.pred(x) {
                    assert_eq!(self.next_logged(), Some(x), "prune order");
                    removed += 1;
                    if self.hook_panics(x) {
                        stopped = true;
                        break;
                    }
                } else {
                    pm.kept.push(x);
                }
            }
            assert_eq!(panicked, stopped, "prune panicked (or not) unexpectedly");
        }
        if let Some(n) = returned {
            assert_eq!(n, removed, "prune's return value");
        }
        self.items = pm.into_items();
    }
}

/// Decodes fuzz input bytes exactly as `libfuzzer_sys::fuzz_target!` does
/// for a typed input: too-short inputs and decoding errors are skipped.
pub fn decode(bytes: &[u8]) -> Option<Input> {
    if bytes.len() < <Input as Arbitrary>::size_hint(0).0 {
        return None;
    }
    Input::arbitrary_take_rest(arbitrary::Unstructured::new(bytes)).ok()
}

/// The target name (a directory under `fuzz/corpus/` and
/// `fuzz/regressions/`) of each kind.
pub const TARGETS: [(&str, Kind); 4] = [
    ("ordered", Kind::Ordered),
    ("unordered", Kind::Unordered),
    ("buffered", Kind::Buffered),
    ("auto_remove", Kind::AutoRemove),
];

// ---------------------------------------------------------------------------
// The `Vec`/`arrayvec` methods

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

/// Runs `f`; `Err` if it panicked with an injected panic (any other panic
/// is re-raised: a bug).
fn catch_injected<R>(f: impl FnOnce() -> R) -> Result<R, ()> {
    match panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => Ok(r),
        Err(payload) if payload.downcast_ref::<InjectedPanic>().is_some() => Err(()),
        Err(payload) => panic::resume_unwind(payload),
    }
}

// `%` rather than `is_multiple_of`: the file is also built by the main
// crate's tests, whose minimum Rust version predates it.
#[allow(clippy::manual_is_multiple_of)]
impl Checker {
    /// Elements that still fit under the bound.
    fn room(&self) -> usize {
        self.max.unwrap_or(usize::MAX) - self.items.len()
    }

    /// Up to `count` new elements of value `val`, within [`MAX_LIVE`].
    fn make_many(&mut self, count: usize, val: u8) -> (Vec<Elem>, Vec<M>) {
        let mut es = Vec::new();
        let mut ms = Vec::new();
        for _ in 0..count {
            let live = self.items.len() + self.live_elsewhere() + es.len();
            let Some((e, m)) = self.make(live, val) else {
                break;
            };
            es.push(e);
            ms.push(m);
        }
        (es, ms)
    }

    fn vec_op<A: AutoRemove<Elem>>(&mut self, c: &mut ReadWriteCollection<Elem, A>, op: VecOp) {
        let len = self.items.len();
        match op {
            VecOp::DedupByVal => {
                c.dedup_by(|a, b| a.val == b.val);
                self.items.dedup_by(|a, b| a.val == b.val);
            }
            VecOp::DedupByKey(m) => {
                let m = m % 4 + 1;
                c.dedup_by_key(|e| e.val % m);
                self.items.dedup_by_key(|x| x.val % m);
            }
            VecOp::DedupByPanic(n) => {
                let n = usize::from(n % 8) + 1;
                let mut calls = 0;
                let r = catch_injected(|| {
                    c.dedup_by(|a, b| {
                        calls += 1;
                        if calls == n {
                            inject_panic();
                        }
                        a.val % 2 == b.val % 2
                    })
                });
                // Model: the kept prefix, then everything not yet compared.
                let mut kept: Vec<M> = Vec::new();
                let mut model_calls = 0;
                let mut panicked = false;
                for (i, x) in self.items.iter().enumerate() {
                    if let Some(last) = kept.last() {
                        model_calls += 1;
                        if model_calls == n {
                            kept.extend_from_slice(&self.items[i..]);
                            panicked = true;
                            break;
                        }
                        if x.val % 2 == last.val % 2 {
                            continue;
                        }
                    }
                    kept.push(*x);
                }
                assert_eq!(r.is_err(), panicked, "dedup_by panicked as modelled");
                self.items = kept;
            }
            VecOp::PopIf(m) => {
                let m = m % 3 + 1;
                let got = c.pop_if(|e| e.val % m == 0).map(|e| M::of(&e));
                let want = match self.items.last() {
                    Some(x) if x.val % m == 0 => self.items.pop(),
                    _ => None,
                };
                assert_eq!(got, want, "pop_if");
            }
            VecOp::TryInsert { index, val } => {
                let i = modulo(index, len + 1);
                let live = len + self.live_elsewhere();
                if let Some((e, m)) = self.make(live, val) {
                    match c.try_insert(i, e) {
                        Ok(()) => {
                            assert!(self.room() > 0, "try_insert accepted past the bound");
                            self.items.insert(i, m);
                        }
                        Err(err) => {
                            assert_eq!(self.room(), 0, "try_insert rejected below the bound");
                            assert_eq!(M::of(&err.element()), m, "the value comes back");
                        }
                    }
                }
            }
            VecOp::Remove(i) if len > 0 => {
                let i = modulo(i, len);
                assert_eq!(M::of(&c.remove(i)), self.items.remove(i), "remove");
            }
            VecOp::SwapRemove(i) if len > 0 => {
                let i = modulo(i, len);
                assert_eq!(
                    M::of(&c.swap_remove(i)),
                    self.items.swap_remove(i),
                    "swap_remove"
                );
            }
            VecOp::Remove(_) | VecOp::SwapRemove(_) => {}
            VecOp::Truncate(n) => {
                let n = modulo(n, len + 2);
                c.truncate(n);
                self.items.truncate(n);
            }
            VecOp::Drain(a, b) => {
                let r = range_of(a, b, len);
                let got: Vec<M> = c.drain(r.clone()).map(|e| M::of(&e)).collect();
                let want: Vec<M> = self.items.drain(r).collect();
                assert_eq!(got, want, "drain");
            }
            VecOp::RetainMut { m, add } => {
                let m = m % 4 + 2;
                c.retain_mut(|e| {
                    e.val = e.val.wrapping_add(add);
                    e.val % m != 0
                });
                self.items.retain_mut(|x| {
                    x.val = x.val.wrapping_add(add);
                    x.val % m != 0
                });
            }
            VecOp::SplitOff(at) => {
                let at = modulo(at, len + 1);
                let got: Vec<M> = c.split_off(at).iter().map(M::of).collect();
                assert_eq!(got, self.items.split_off(at), "split_off");
            }
            VecOp::Splice {
                start,
                end,
                count,
                val,
            } => {
                let r = range_of(start, end, len);
                // Limited to what fits: a splice past the bound panics.
                let count = usize::from(count % 8).min(r.len().saturating_add(self.room()));
                let (es, ms) = self.make_many(count, val);
                let got: Vec<M> = c.splice(r.clone(), es).map(|e| M::of(&e)).collect();
                let want: Vec<M> = self.items.splice(r, ms).collect();
                assert_eq!(got, want, "splice");
            }
            VecOp::Append { count, val } => {
                let count = usize::from(count % 8).min(self.room());
                let (es, ms) = self.make_many(count, val);
                let mut other: ReadWriteCollection<Elem> = es.into();
                c.append(&mut other);
                assert!(other.is_empty(), "append leaves the other empty");
                self.items.extend(ms);
            }
            VecOp::TryExtend { count, val } => {
                let (es, ms) = self.make_many(usize::from(count % 8), val);
                let room = self.room();
                let mut rest = es.into_iter();
                match c.try_extend(rest.by_ref()) {
                    Ok(()) => {
                        assert!(ms.len() <= room, "try_extend accepted past the bound");
                        self.items.extend(ms);
                    }
                    Err(err) => {
                        assert!(ms.len() > room, "try_extend rejected below the bound");
                        assert_eq!(M::of(&err.element()), ms[room], "first rejected value");
                        let left: Vec<M> = rest.map(|e| M::of(&e)).collect();
                        assert_eq!(left, ms[room + 1..], "the rest is not consumed");
                        self.items.extend_from_slice(&ms[..room]);
                    }
                }
            }
            VecOp::ResizeWith {
                len: new_len,
                val,
                panic_at,
            } => {
                let new_len = usize::from(new_len % 24).min(len.saturating_add(self.room()));
                let grows = new_len.saturating_sub(len);
                let (es, ms) = self.make_many(grows, val);
                if es.len() < grows {
                    return; // at the live-element limit
                }
                let panic_at = panic_at.map(|p| usize::from(p % 8) + 1);
                let mut source = es.into_iter();
                let mut calls = 0;
                let r = catch_injected(|| {
                    c.resize_with(new_len, || {
                        calls += 1;
                        if Some(calls) == panic_at {
                            inject_panic();
                        }
                        source.next().expect("called once per new slot")
                    })
                });
                drop(source); // unused elements (after a panic)
                let made = match panic_at {
                    Some(p) if p <= grows => {
                        assert!(r.is_err(), "resize_with should have panicked");
                        p - 1
                    }
                    _ => {
                        assert!(r.is_ok(), "resize_with panicked");
                        grows
                    }
                };
                self.items.truncate(new_len);
                self.items.extend_from_slice(&ms[..made]);
            }
            VecOp::ExtractIf {
                start,
                end,
                m,
                take,
            } => {
                let r = range_of(start, end, len);
                let m = m % 3 + 1;
                let take = usize::from(take % 8);
                let got: Vec<M> = c
                    .extract_if(r.clone(), |e| e.val % m == 0)
                    .take(take)
                    .map(|e| M::of(&e))
                    .collect();
                let mut want = Vec::new();
                let mut kept = self.items[..r.start].to_vec();
                let mut i = r.start;
                while i < r.end && want.len() < take {
                    let x = self.items[i];
                    if x.val % m == 0 {
                        want.push(x);
                    } else {
                        kept.push(x);
                    }
                    i += 1;
                }
                kept.extend_from_slice(&self.items[i..]);
                assert_eq!(got, want, "extract_if's yield");
                self.items = kept;
            }
            VecOp::ExtractIfPanic { start, end, n } => {
                let r = range_of(start, end, len);
                let n = usize::from(n % 6) + 1;
                let mut calls = 0;
                let mut got = Vec::new();
                let res = catch_injected(|| {
                    for e in c.extract_if(r.clone(), |e| {
                        calls += 1;
                        if calls == n {
                            inject_panic();
                        }
                        e.val % 2 == 0
                    }) {
                        got.push(M::of(&e));
                    }
                });
                assert_eq!(
                    res.is_err(),
                    r.len() >= n,
                    "extract_if panicked as modelled"
                );
                let tested = r.len().min(n - 1);
                let mut kept = self.items[..r.start].to_vec();
                let mut want = Vec::new();
                for x in &self.items[r.start..r.start + tested] {
                    if x.val % 2 == 0 {
                        want.push(*x);
                    } else {
                        kept.push(*x);
                    }
                }
                kept.extend_from_slice(&self.items[r.start + tested..]);
                assert_eq!(got, want, "extract_if's yield before the panic");
                self.items = kept;
            }
            VecOp::ShrinkTo(n) => {
                c.shrink_to(usize::from(n));
                assert!(c.capacity() >= c.len(), "shrink_to below the length");
            }
            VecOp::ReserveExact(n) => {
                let n = usize::from(n % 64);
                c.reserve_exact(n);
                assert!(c.capacity() >= len + n.min(self.room()), "reserve_exact");
            }
            VecOp::TryReserve(n) => {
                let n = usize::from(n % 64);
                let capacity = c.capacity();
                if n <= self.room() {
                    assert!(c.try_reserve(n).is_ok(), "try_reserve within the bound");
                    assert!(c.capacity() >= len + n, "try_reserve");
                } else {
                    // Past a bounded collection's room: an error, and
                    // nothing reserved.
                    assert!(c.try_reserve(n).is_err(), "try_reserve past the bound");
                    assert_eq!(c.capacity(), capacity, "a refused try_reserve reserved");
                }
                assert!(
                    c.spare_capacity_mut().len() <= self.room(),
                    "spare past the bound"
                );
            }
        }
        assert_eq!(c.remaining_capacity(), self.room(), "remaining_capacity");
        assert_eq!(c.is_full(), self.room() == 0, "is_full");
    }
}

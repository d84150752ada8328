//! The operation model and checker shared by every fuzz target and by
//! `tests/fuzz_replay.rs` (which pull this module in with `#[path]`).
//! One file per concept: the program (here: inputs, operations, the
//! entry point), `elem` (drop-tracked elements), `subject` (the
//! collections under test), `checker` (the model and the checker),
//! `vec_ops` (the `Vec` methods).
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

#[path = "../common/panics.rs"]
mod panics;
pub use self::panics::{inject_panic, install_panic_hook, InjectedPanic};

mod checker;
mod elem;
mod subject;
mod vec_ops;

pub use self::checker::*;
pub use self::elem::*;
pub use self::subject::*;

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

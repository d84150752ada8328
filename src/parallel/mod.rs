//! Parallel passes (feature `rayon`): [`ReadWriteCollection::par_traverse`]
//! runs a pass's closure on rayon's current pool where that is faster and
//! leaves the collection as [`traverse`] would, and [`par_traverse_with`]
//! runs it as a [`ParMode`] says and reports what its parallel rounds did
//! ([`ParStats`]). The closure is given a [`ParEntry`] (to read, write,
//! [`remove`](ParEntry::remove) or [`push`](ParEntry::push) from, or to
//! [`remove_and_spawn`](ParEntry::remove_and_spawn), which hands back a
//! [`ParSpawner`]), and the collection's auto-remove policy must be a
//! [`ParAutoRemove`], whose predicate runs on the workers.
//!
//! # Examples
//!
//! ```
//! use read_write_collection::ReadWriteCollection;
//!
//! let mut c: ReadWriteCollection<u32> = (1..=6).collect();
//! c.par_traverse(|mut e| {
//!     if *e % 3 == 0 {
//!         e.remove();
//!     } else if *e == 5 {
//!         e.push(9); // visited later in this same pass: removed
//!         e.push(10); // visited later in this same pass: becomes 100
//!     } else {
//!         *e *= 10;
//!     }
//! });
//! // What `traverse` with the same closure leaves, in the same order.
//! assert_eq!(c, [10, 20, 40, 5, 100]);
//! ```
//!
//! Forcing the mode, and reading what the pass did:
//!
//! ```
//! use read_write_collection::parallel::{ParMode, ParStats};
//! use read_write_collection::ReadWriteCollection;
//!
//! let mut c: ReadWriteCollection<u64> = (0..20_000).collect();
//! // For a closure known to be heavy: every round splits, nothing is timed
//! // to decide.
//! let stats: ParStats = c.par_traverse_with(ParMode::Parallel, |mut e| {
//!     if *e % 2 == 1 {
//!         e.remove();
//!     } else if *e % 2_000 == 0 {
//!         e.push(*e + 1); // odd: removed when the next round visits it
//!     }
//! });
//! assert_eq!(stats.rounds, 2); // the 20 000 elements, then the 10 pushed
//! // For a closure known to be cheap: `traverse`'s own loop, no round.
//! let stats = c.par_traverse_with(ParMode::Serial, |mut e| *e /= 2);
//! assert_eq!(stats.rounds, 0);
//! assert_eq!(c, (0..10_000).collect::<Vec<u64>>()); // the serial order
//! ```
//!
//! # When it pays
//!
//! - **Heavy closures, big rounds.** Splitting a round costs about 4 ns per
//!   element and about 250 µs per round (on the machine this crate is
//!   measured on; see [below](#when-a-round-splits)), so on two threads a
//!   parallel round breaks even from about 8 ns of work per element in
//!   rounds of millions of elements and 13 ns at 100k, and
//!   [`ParMode::Auto`], which asks for a 1.5× margin, splits from about
//!   12 ns and 20 ns respectively; under it, a cheaper closure stays serial.
//! - **What [`ParMode::Auto`] decides** (it is what `par_traverse` runs):
//!   each round times its start (1024 elements, then 2048 timed) and splits
//!   its rest only when that and the time per element measured before (the
//!   pass's last round, else the collection's last pass) both say splitting
//!   gains, timing up to 8192 more elements when they disagree (or when a
//!   first pass starts heavy); once a round's rest does not split, the rest
//!   of the pass runs serially, in `traverse`'s own loop. Deciding costs a
//!   few clock reads per pass and the out-of-line walk of the start (and of
//!   a check). When you know better, [`par_traverse_with`] skips the
//!   decision: [`ParMode::Serial`] for a cheap closure (`traverse`'s loop,
//!   nothing timed), [`ParMode::Parallel`] for a heavy one (every round
//!   split after a short serial start, however small or cheap the round).
//! - **Always serial:** a bounded collection runs the whole pass serially,
//!   in every mode and however far below its bound (which pushes fit
//!   depends on the serial order); under `Auto`, so do a one-thread pool
//!   and a pass over fewer than [`PAR_MIN_LEN`] + 3072 elements (untimed).
//! - **The same result as `traverse`:** in every mode, for a closure whose
//!   effect depends only on the element it is given, the collection ends
//!   up exactly as [`traverse`] with the same closure leaves it and the
//!   removal hook receives the same values in the serial pass's order
//!   (in [unordered mode](crate::Mode::Unordered): the same elements as a
//!   multiset, and the same values to the hook in another order), while
//!   effects on the outside world happen in another order, and
//!   concurrently; after a panic the result is the serial pass's only when
//!   the panic came from the closure in the last part of a round, or in a
//!   part of a round that ran serially (see [Panics](#panics)).
//!
//! # How it works
//!
//! A serial pass visits the original elements in order, then what they
//! pushed, in push order, then what *those* pushed, and so on: a
//! breadth-first order. The parallel pass runs it as rounds:
//!
//! 1. The round starts on the calling thread: the serial cursor walks
//!    its first elements (under `Auto`, 3072, the last 2048 of them timed
//!    to decide; see [the next section](#when-a-round-splits)). What they
//!    push goes to the end, as in the serial pass.
//! 2. If the rest of the round is worth splitting (next section), it is
//!    split into contiguous parts, at least four per thread and small
//!    enough to stay in the caches (about 1 MiB of elements each), the
//!    last few a quarter of that, so that the workers finish together.
//!    The workers take the parts in order. A worker walks its part exactly as
//!    the serial cursor does (same predicate checks on arrival and on
//!    moving on), but in place: a removed element leaves a hole, whose
//!    position the part lists; pushes and auto-removed elements go to the
//!    part's own lists.
//! 3. Then the worker moves the compaction on, in part order, as far as
//!    the walked parts allow: the kept elements of each part whose
//!    predecessors are all compacted go to their final places, right
//!    after the kept elements before them, while the part is still in the
//!    caches. Every kept element moves at most once (one already in its
//!    place does not). One worker compacts at a time; the others walk
//!    meanwhile (and wait for it when they finish a part).
//! 4. The removal hook receives the auto-removed elements serially, on
//!    the calling thread, part by part: the serial pass's order.
//! 5. The parts' push lists are appended in part order, after the pushes
//!    of the round's start: exactly the serial pass's push order. They are
//!    the next round's elements.
//!
//! So for a closure whose effect depends only on the element it is given,
//! the collection ends up exactly as [`traverse`] leaves it. Effects on
//! the outside world happen in a different order, and concurrently.
//!
//! The lists of the parts are kept in the collection from one pass to the
//! next (empty, with their capacity), so a pass at a steady state
//! allocates nothing; [`shrink_to_fit`](ReadWriteCollection::shrink_to_fit)
//! frees them.
//!
//! ## When a round splits
//!
//! Splitting a round costs about 4 ns per element on the machine this
//! crate is measured on (the compaction's move of a kept element, the
//! walk's hole bookkeeping, and two threads sharing the memory bandwidth;
//! fitted to where forced parallel rounds break even in the crate's sweep,
//! with room for the noise) and about 250 µs per round (waking the
//! workers and settling the round: rayon's threads, woken from sleep, took
//! 20–70 µs to start when they had just worked and up to 300 µs after 10 ms
//! idle, as between the frames of a game). So the rest of a round runs in
//! parallel only when the closure's time per element, over the rest of
//! the round and shared out over the threads, saves more than that: on
//! two threads, from about 8 ns of work per element in rounds of millions
//! of elements, 13 ns at 100k (before `Auto`'s 1.5× margin, below). A rest
//! of fewer than [`PAR_MIN_LEN`] elements is never split (under `Auto`),
//! so a pass over fewer than `PAR_MIN_LEN` + 3072 elements runs serially,
//! untimed, as on a one-thread pool.
//!
//! Each round decides from what it measures (`ParMode::Auto`):
//!
//! 1. Its start: 1024 elements, then 2048 timed in two halves, of which
//!    the faster one counts (an interrupt does not make a cheap closure
//!    look heavy).
//! 2. An *opinion*: the time per element measured before: what this pass
//!    measured last (its last round, the parts' walks added up, as one
//!    thread's time; or its last timed start or check), else the
//!    collection's last pass (the whole pass as one thread's time: every
//!    serial walk, plus the walks of its rounds' parts; a pass forced
//!    parallel counts its rounds' walks too).
//! 3. Both must say that splitting the rest gains, with a 1.5× margin
//!    (near the break-even a split gains little; a cheap closure timed
//!    while its memory was cold and split loses 10–30 % of its pass). When
//!    they disagree, or a first pass (no opinion) starts heavy, the next
//!    8192 elements (at most a quarter of the rest) are walked serially,
//!    timed in two halves, and decide.
//!
//! So a pass splits wherever its heavy work lies: a heavy start after
//! cheap passes is checked and splits; heavy work that starts after the
//! timed start splits from the second such pass on (the first pass's
//! whole time is the second's opinion); a cheap pass after heavy ones, or
//! one whose first elements alone are heavy, is checked and stays serial.
//! If the rest of the round does not split, the rest of the pass runs
//! serially: later rounds are the earlier rounds' pushes, which the pass
//! takes to be no bigger and no heavier.
//!
//! ## What runs serially
//!
//! Whatever runs serially (a whole pass too small to split, or the rest
//! of one after its rounds) runs in `traverse`'s loop, inlined into the
//! caller: the rounds run out of line and hand the pass back, suspended,
//! to that loop. Timing costs a few clock reads per pass and the
//! out-of-line walk of the start (and of a check); the result is the
//! serial pass's either way. The first pass after a clone, a
//! [`shrink_to_fit`](ReadWriteCollection::shrink_to_fit) or a pass that
//! panicked on the calling thread (in a round's start or check, or in the
//! serial rest) forgets what the collection measured, as a new
//! collection's first pass has nothing to go on; after a panic in a
//! parallel round, the collection keeps what it measured before that
//! pass. Bounded collections, one-thread pools, passes too small to split
//! and `ParMode::Serial` measure nothing and keep the last measurement.
//!
//! A bounded collection runs serially, however far below its bound: whether
//! a push fits depends on every removal and push before it in the serial
//! order, and a part cannot know how much the parts before it will still
//! push (any of their elements may push any number of times) until they
//! are done. Answering a part's push exactly would mean waiting for every
//! earlier part at its first push, which serialises any round that pushes.
//!
//! [Unordered mode](crate::Mode::Unordered) splits too and compacts the
//! split part in order: its result is the serial one as a multiset, and
//! the hook receives the same values (in another order).
//!
//! # Panics
//!
//! A panic in the closure, in the `Drop` of an element the closure
//! drops, or in the removal hook loses nothing, as in the serial pass:
//! every element ends either in the collection or in the hook (unless the
//! closure removed it itself), and every push made before the panic is
//! kept, unvisited.
//!
//! A panic while the round's start (or a round run serially) is walked
//! ends the pass as it ends the serial pass. In the parallel part of a
//! round:
//!
//! 1. A worker whose closure panics stops walking its part. The element
//!    it held and the rest of its part stay in the collection, in order;
//!    the auto-remove predicate is not applied to the held element (the
//!    serial cursor does not apply it while unwinding either). Every other
//!    part of the round is walked to its end.
//! 2. The round is then settled as usual: its auto-removed elements reach
//!    the hook, in the serial pass's order, and its pushes are appended. A
//!    hook call that panics costs no other element its hook call: the
//!    round's other removed elements still reach the hook.
//! 3. Then the first panic (a worker's, in part order, else the first
//!    panicking hook call's) reaches the caller; later ones are dropped.
//!    No further round runs, so the round's pushes stay at the end of the
//!    collection, unvisited. The shrink policy is applied, as when a
//!    serial pass ends.
//!
//! The serial pass stops at the element that panicked, whereas here the
//! round's other parts (and, when only the hook panicked, the whole round)
//! have run. So after a panic the collection is the serial pass's only when
//! the panic came from the closure in the last part of a round, or in a
//! part of a round that ran serially.
//!
//! If the buffer cannot grow for a round's pushes (the allocator fails),
//! the round ends as the serial pass ends when a push cannot grow the
//! buffer: the pushes that fit follow the kept elements (the first ones
//! in the serial order), every auto-removed element reaches the hook, and
//! then the buffer is grown once more for the rest (the hook may have
//! freed memory). If that fails too, the pass fails as `Vec::reserve`
//! does (the allocation error handler; a handler that unwinds reaches the
//! caller, unless a panic of the round is already on its way, which stays
//! the one reported) and the pushes that found no room are dropped, as
//! the serial pass drops the value whose push failed.
//!
//! [`traverse`]: ReadWriteCollection::traverse
//! [`par_traverse_with`]: ReadWriteCollection::par_traverse_with

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::any::Any;
use core::time::Duration;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::time::Instant;

use crate::auto_remove::{AutoRemove, NoAutoRemove, WithHook};
use crate::collection::ReadWriteCollection;
use crate::cursor::Cursor;
use crate::raw::{par_round, par_settle_rest, Core, ParScratch, Pass, Store, Suspended};

mod entry;
pub use self::entry::{ParEntry, ParSpawner};

/// Under [`ParMode::Auto`], rounds with fewer elements than this run
/// serially; bigger ones are split into parts of at least
/// `PAR_MIN_LEN / 2` elements.
pub const PAR_MIN_LEN: usize = if cfg!(miri) { 16 } else { 8192 };

/// Elements the serial cursor visits at the start of a round before it
/// times the next [`PROBE_LEN`] (the first ones run colder than the rest).
const WARM_LEN: usize = if cfg!(miri) { 2 } else { 1024 };

/// Elements the serial cursor visits (and times) at the start of a round
/// before the pass decides how to run the rest of it.
const PROBE_LEN: usize = if cfg!(miri) { 4 } else { 2048 };

/// The fewest elements a round needs for the pass to time its start:
/// fewer, and the rest after the start could not be split anyway.
const SPLIT_MIN_LEN: usize = WARM_LEN + PROBE_LEN + PAR_MIN_LEN;

/// What a parallel round costs beyond the serial work it shares out, per
/// element: the compaction (about one more move of every kept element,
/// on top of the walk), and the memory traffic two threads share.
const PAR_COST_PER_ELEMENT_NS: f64 = 4.0;

/// What a parallel round costs once: waking the workers (20–300 µs here,
/// more the longer they slept) and settling the round.
const PAR_COST_PER_ROUND_NS: f64 = 250_000.0;

/// `Auto` splits the rest of a round only if the time per element it
/// measured, divided by this, still pays: near the break-even a split
/// gains little, while a cheap closure timed while its memory was cold (or
/// the thread was preempted) and split loses 10–30 % of its pass.
const DECIDE_MARGIN: f64 = 1.5;

/// Elements a round walks serially (timed in two halves, the faster one
/// counting) to settle a disagreement between its timed start and the
/// time per element measured before (the last round's, or the last
/// pass's): the heavy work may start after the start, or the start may be
/// heavier than the rest. At most a quarter of what is left of the round.
const VERIFY_LEN: usize = if cfg!(miri) { 8 } else { 8192 };

/// An auto-remove policy whose predicate can run on several threads at
/// once, as [`par_traverse`](ReadWriteCollection::par_traverse) needs.
/// The removal hook ([`AutoRemove::removed`]) still runs on one thread,
/// after the workers.
///
/// Implemented by [`NoAutoRemove`], by `Fn(&T) -> bool + Sync` closures,
/// by every [`remove_when!`](crate::remove_when!) predicate and by
/// [`WithHook`] over any of these.
///
/// # Examples
///
/// ```
/// use read_write_collection::{AutoRemove, ParAutoRemove, ReadWriteCollection};
///
/// struct Negative;
/// impl AutoRemove<i32> for Negative {
///     fn should_remove(&mut self, n: &i32) -> bool { *n < 0 }
/// }
/// impl ParAutoRemove<i32> for Negative {
///     fn should_remove_shared(&self, n: &i32) -> bool { *n < 0 }
/// }
///
/// let mut c = ReadWriteCollection::with_policy(Negative);
/// c.extend([1, -2, 3]);
/// c.par_traverse(|mut e| *e -= 1);
/// assert_eq!(c, [0, 2]);
/// ```
pub trait ParAutoRemove<T>: AutoRemove<T> + Sync {
    /// Whether `item` is to be removed; must agree with
    /// [`should_remove`](AutoRemove::should_remove).
    fn should_remove_shared(&self, item: &T) -> bool;
}

impl<T> ParAutoRemove<T> for NoAutoRemove {
    #[inline(always)]
    fn should_remove_shared(&self, _item: &T) -> bool {
        false
    }
}

impl<T, F: Fn(&T) -> bool + Sync> ParAutoRemove<T> for F {
    #[inline]
    fn should_remove_shared(&self, item: &T) -> bool {
        self(item)
    }
}

impl<T, P: ParAutoRemove<T>, H: FnMut(T) + Sync> ParAutoRemove<T> for WithHook<P, H> {
    #[inline]
    fn should_remove_shared(&self, item: &T) -> bool {
        self.policy.should_remove_shared(item)
    }
}

/// Bytes of elements in a part, at most, where that leaves parts of
/// `PAR_MIN_LEN / 2` elements or more: a part is compacted right after it
/// is walked, while it is in the caches.
const PART_BYTES: usize = 1 << 20;

/// How many parts a round of `n` elements of `size` bytes is split into on
/// `threads` threads: at least four per thread, so that uneven work
/// balances, and enough for parts of [`PART_BYTES`]; but none smaller
/// than `PAR_MIN_LEN / 2` elements, and at least two.
fn chunk_count(n: usize, size: usize, threads: usize) -> usize {
    if n < PAR_MIN_LEN {
        1
    } else {
        let cached = n.saturating_mul(size) / PART_BYTES;
        threads
            .saturating_mul(4)
            .max(cached)
            .min(n / (PAR_MIN_LEN / 2))
            .max(2)
    }
}

/// `took` for `n` elements, in nanoseconds per element.
fn ns_per_element(took: Duration, n: usize) -> f64 {
    took.as_secs_f64() * 1e9 / n as f64
}

/// Whether the rest of a round (`rest` elements) is worth running on
/// `threads` threads, for a closure that takes `per_ns` nanoseconds per
/// element: when the serial time it saves is more than what a parallel
/// round adds ([`PAR_COST_PER_ELEMENT_NS`] per element,
/// [`PAR_COST_PER_ROUND_NS`] once). Never without a measurement (NaN).
fn worth_parallel_at(per_ns: f64, rest: usize, threads: usize) -> bool {
    if threads < 2 || rest < PAR_MIN_LEN || per_ns.is_nan() {
        return false;
    }
    let rest = rest as f64;
    let saved = per_ns * rest * (1.0 - 1.0 / threads as f64);
    let added = PAR_COST_PER_ELEMENT_NS * rest + PAR_COST_PER_ROUND_NS;
    saved > added
}

/// The time a probe's two halves (elements walked, time taken) would have
/// taken together at the faster half's rate per element: a stall in one
/// half (an interrupt, a preemption) does not count. With an empty half,
/// their sum.
fn probe_time(first: (usize, Duration), second: (usize, Duration)) -> Duration {
    let ((n1, t1), (n2, t2)) = (first, second);
    if n1 == 0 || n2 == 0 {
        return t1 + t2;
    }
    let per_ns = (t1.as_secs_f64() / n1 as f64).min(t2.as_secs_f64() / n2 as f64) * 1e9;
    Duration::from_nanos((per_ns * (n1 + n2) as f64) as u64)
}

/// The policy every walk of a parallel pass applies: the collection's,
/// with the removal hook called directly (the serial walk on the calling
/// thread) or deferred (a part of a parallel round: the auto-removed
/// elements are collected, and handed to the hook after the round, in
/// order). One type for both, so that every walk out of line is one
/// function, [`walk_some`].
enum ParPolicy<'a, T, A> {
    Serial(&'a mut A),
    Part(&'a A, &'a mut Vec<T>),
}

impl<T, A: ParAutoRemove<T>> AutoRemove<T> for ParPolicy<'_, T, A> {
    const ACTIVE: bool = A::ACTIVE;

    #[inline(always)]
    fn should_remove(&mut self, item: &T) -> bool {
        match self {
            ParPolicy::Serial(policy) => policy.should_remove_shared(item),
            ParPolicy::Part(policy, _) => policy.should_remove_shared(item),
        }
    }

    #[inline]
    fn removed(&mut self, item: T) {
        match self {
            ParPolicy::Serial(policy) => policy.removed(item),
            ParPolicy::Part(_, removed) => removed.push(item),
        }
    }
}

/// Where a pass is (see [`Control::next_walk`]).
#[derive(Clone, Copy)]
enum Phase {
    /// A round starts: its first elements are walked serially, then
    /// the rest of it in parallel or the rest of the pass serially.
    Round,
    /// The rest of the pass is walked serially by the caller.
    Rest,
    Done,
}

/// The decisions of a pass and what it keeps between rounds.
struct Control<T> {
    mode: ParMode,
    threads: usize,
    phase: Phase,
    /// The parts' lists, `None` when the pass runs serially.
    scratch: Option<Box<ParScratch<T>>>,
    /// What the pass's parallel rounds did, and its probes.
    stats: ParStats,
    /// The first panic of a parallel round (a worker's or the hook's).
    panic: Option<Box<dyn Any + Send>>,
    /// Whether the pass runs out of line, timing the start of its first
    /// round (see [`split_pass`]), rather than as `traverse` does.
    split: bool,
    /// What the pass has timed so far, as one thread's time (every serial
    /// walk, and the walks of a parallel round's parts added up), and over
    /// how many elements: the next pass's first opinion of the work.
    work: Duration,
    worked: usize,
    /// The time per element measured last (this pass's last round or
    /// verification, else the last pass's), to which a round's timed
    /// start is compared; NaN when there is none.
    opinion_ns: f64,
    /// When the caller's serial loop started (it starts at `passed`).
    timed: Option<Instant>,
    /// How many elements the pass had moved past when its rounds handed
    /// it back for the caller's serial loop.
    passed: usize,
}

impl<T: Send> Control<T> {
    /// The start of a pass over `store`: serial (a pass too small to
    /// split, a bounded collection, one thread, or `ParMode::Serial`), or
    /// out of line with timed round starts that decide ([`split_pass`]).
    #[inline(never)]
    fn begin(store: &mut Store<T>, mode: ParMode) -> Self {
        let threads = rayon::current_num_threads();
        // Which pushes a bounded collection refuses depends on every
        // removal and push before them in the serial order, which only a
        // serial walk knows: it runs serially.
        let serial_only = store.max != usize::MAX
            || mode == ParMode::Serial
            || (mode != ParMode::Parallel && (threads < 2 || store.vec.len() < SPLIT_MIN_LEN));
        let scratch = if serial_only {
            None
        } else {
            Some(store.par.0.take().unwrap_or_default())
        };
        // What the last pass measured (infinite before the first): NaN,
        // no opinion, when nothing was.
        let opinion_ns = scratch.as_deref().map_or(f64::NAN, |s| s.last_rate_ns);
        let opinion_ns = if opinion_ns.is_finite() {
            opinion_ns
        } else {
            f64::NAN
        };
        Control {
            mode,
            threads,
            phase: if serial_only {
                Phase::Rest
            } else {
                Phase::Round
            },
            split: scratch.is_some() && mode != ParMode::Serial,
            scratch,
            stats: ParStats::default(),
            panic: None,
            work: Duration::ZERO,
            worked: 0,
            opinion_ns,
            timed: None,
            passed: 0,
        }
    }

    /// The caller's serial loop starts, the cursor having moved past
    /// `passed` elements: times it if a later pass may split. (Kept here,
    /// not in the caller's locals, so that the caller's walk has every
    /// register.)
    #[inline(never)]
    fn serial_walk_starts(&mut self) {
        if self.scratch.is_some() {
            self.timed = Some(Instant::now());
        }
    }

    /// The caller's serial loop has ended, the cursor having moved past
    /// `passed` elements (pushed ones included).
    #[inline(never)]
    fn serial_walk_ended(&mut self, passed: usize) {
        if let Some(started) = self.timed {
            self.add_work(started.elapsed(), passed - self.passed);
        }
    }

    /// Counts `took` for `n` elements into the pass's work.
    fn add_work(&mut self, took: Duration, n: usize) {
        self.work += took;
        self.worked += n;
    }

    /// The end of a pass (the cursor has finished it): keeps the lists for
    /// the next pass, then hands on a panic of a parallel round.
    #[inline(never)]
    fn end(mut self, store: &mut Store<T>) -> ParStats {
        if let Some(mut scratch) = self.scratch.take() {
            if self.worked > 0 && self.panic.is_none() {
                scratch.last_rate_ns = ns_per_element(self.work, self.worked);
            }
            store.par.0 = Some(scratch);
        }
        if let Some(payload) = self.panic.take() {
            resume_unwind(payload);
        }
        self.stats
    }

    /// Walks the pass up to where its rest runs serially, or to its end:
    /// the serial starts of the rounds (untimed warm-up, then the timed
    /// probe) and the parallel rounds it decides on. Hands the cursor back
    /// with `true` when the rest of the pass is the caller's to walk
    /// serially (see [`split_pass`]).
    ///
    /// Takes the cursor by value and hands it back (and is not inlined),
    /// so that the caller's cursor never has its address taken: its state
    /// then stays in registers during the caller's walks (measured: 28%
    /// fewer instructions per element than with `&mut`).
    #[inline(never)]
    fn next_walk<'c, 'p, A, F>(
        &mut self,
        mut cursor: Cursor<'c, T, ParPolicy<'p, T, A>>,
        f: &F,
    ) -> (Cursor<'c, T, ParPolicy<'p, T, A>>, bool)
    where
        A: ParAutoRemove<T>,
        F: Fn(ParEntry<'_, T>) + Sync,
    {
        loop {
            match self.phase {
                Phase::Done => return (cursor, false),
                Phase::Rest => {
                    self.phase = Phase::Done;
                    return (cursor, true);
                }
                Phase::Round => {
                    let n = cursor.remaining();
                    if n == 0 {
                        self.phase = Phase::Done;
                        continue;
                    }
                    // The start of the round, serially; what it pushes
                    // follows the round's elements, so it joins the next
                    // round after the rest's pushes, as in the serial
                    // order.
                    if self.mode == ParMode::Parallel {
                        let probe = PROBE_LEN.min(n / 4);
                        let probed;
                        (cursor, probed) = walk_some(cursor, f, probe);
                        let rest = n - probed;
                        self.phase = if rest == 0 {
                            Phase::Round
                        } else {
                            self.round(&mut cursor, rest, f);
                            self.after_round()
                        };
                        continue;
                    }
                    if n < SPLIT_MIN_LEN {
                        // Too few for the rest to be split, whatever the
                        // time per element: not worth a probe.
                        self.phase = Phase::Rest;
                        continue;
                    }
                    // The first elements warm the caches and the branch
                    // predictors; the next are timed (`timed_walk`).
                    let started = Instant::now();
                    let (warmed, probed, took);
                    (cursor, warmed) = walk_some(cursor, f, WARM_LEN);
                    self.add_work(started.elapsed(), warmed);
                    (cursor, probed, took) = self.timed_walk(cursor, f, PROBE_LEN);
                    self.stats.probed += probed;
                    self.stats.probe_time += took;
                    // The round's elements not yet visited.
                    let mut rest = n - warmed - probed;
                    let split;
                    (cursor, split) = self.decide(cursor, f, took, probed, &mut rest);
                    self.phase = if rest == 0 {
                        Phase::Round
                    } else if split {
                        self.round(&mut cursor, rest, f);
                        self.after_round()
                    } else {
                        // Later rounds are no bigger, and each element
                        // costs about the same: the rest of the pass runs
                        // serially.
                        Phase::Rest
                    };
                }
            }
        }
    }

    /// Whether the rest of a round (`rest` elements after a timed start
    /// that took `took` for `probed`) runs in parallel. The timed start and
    /// the opinion (the time per element measured before: this pass's last
    /// round, else the last pass) must agree, each with a margin
    /// ([`DECIDE_MARGIN`]); when they disagree, or there is no opinion and
    /// the start says split, the next elements are walked serially and
    /// timed (in two halves, the faster one counting), decide, and become
    /// the opinion. So a pass whose heavy work starts after its timed start
    /// splits when the last pass found it heavy, a cheap pass after heavy
    /// ones stays serial, a heavy one after cheap ones splits, and a start
    /// heavier than the rest (heavy elements first, or an interrupt) does
    /// not split a cheap pass.
    fn decide<'c, 'p, A, F>(
        &mut self,
        mut cursor: Cursor<'c, T, ParPolicy<'p, T, A>>,
        f: &F,
        took: Duration,
        probed: usize,
        rest: &mut usize,
    ) -> (Cursor<'c, T, ParPolicy<'p, T, A>>, bool)
    where
        A: ParAutoRemove<T>,
        F: Fn(ParEntry<'_, T>) + Sync,
    {
        if self.mode != ParMode::Auto || probed == 0 {
            return (cursor, false);
        }
        let start_ns = ns_per_element(took, probed);
        let threads = self.threads;
        let says = |ns: f64, rest: usize| worth_parallel_at(ns / DECIDE_MARGIN, rest, threads);
        let start_says = says(start_ns, *rest);
        if self.opinion_ns.is_nan() {
            if !start_says {
                // Nothing to disagree with.
                self.opinion_ns = start_ns;
                return (cursor, false);
            }
        } else if start_says == says(self.opinion_ns, *rest) {
            self.opinion_ns = start_ns;
            return (cursor, start_says);
        }
        let (verified, took);
        (cursor, verified, took) = self.timed_walk(cursor, f, VERIFY_LEN.min(*rest / 4));
        *rest -= verified;
        if verified == 0 {
            return (cursor, false);
        }
        self.opinion_ns = ns_per_element(took, verified);
        (cursor, says(self.opinion_ns, *rest))
    }

    /// Walks the next `n` elements (fewer where the pass ends) serially,
    /// timed in two halves, and counts them into the pass's work. Hands
    /// the cursor back with how many it walked and how long they would
    /// have taken at the faster half's rate ([`probe_time`]): a preemption
    /// or an interrupt during one half does not make a cheap closure look
    /// heavy.
    fn timed_walk<'c, 'p, A, F>(
        &mut self,
        mut cursor: Cursor<'c, T, ParPolicy<'p, T, A>>,
        f: &F,
        n: usize,
    ) -> (Cursor<'c, T, ParPolicy<'p, T, A>>, usize, Duration)
    where
        A: ParAutoRemove<T>,
        F: Fn(ParEntry<'_, T>) + Sync,
    {
        let started = Instant::now();
        let (first, second);
        (cursor, first) = walk_some(cursor, f, n / 2);
        let half = Instant::now();
        (cursor, second) = walk_some(cursor, f, n - n / 2);
        let ended = Instant::now();
        self.add_work(ended - started, first + second);
        let took = probe_time((first, half - started), (second, ended - half));
        (cursor, first + second, took)
    }

    /// After a parallel round: the next phase (another round, the pushes;
    /// or, after a panic, the end: as the serial pass, what was pushed
    /// stays, unvisited).
    fn after_round(&self) -> Phase {
        if self.panic.is_some() {
            Phase::Done
        } else {
            Phase::Round
        }
    }

    /// Runs the next `rest` unvisited elements as a parallel round, then
    /// hands the round's auto-removed elements to the hook, in order.
    fn round<A, F>(&mut self, cursor: &mut Cursor<'_, T, ParPolicy<'_, T, A>>, rest: usize, f: &F)
    where
        A: ParAutoRemove<T>,
        F: Fn(ParEntry<'_, T>) + Sync,
    {
        let parts = match self.mode {
            ParMode::Parallel => self.threads.saturating_mul(4).max(2),
            _ => chunk_count(rest, core::mem::size_of::<T>(), self.threads),
        };
        let Some(scratch) = self.scratch.as_deref_mut() else {
            unreachable!("a pass that may split has its lists")
        };
        let (core, policy) = cursor.settled_parts();
        let ParPolicy::Serial(policy) = policy else {
            unreachable!("the pass's own walk calls the hook directly")
        };
        let shared = &**policy;
        // The parts' walks, timed and added up: the round's work as one
        // thread would have done it, the opinion of the next round.
        let walking = core::sync::atomic::AtomicU64::new(0);
        let (ran, left, counts) =
            par_round(core, scratch, rest, parts, self.threads, |pass, removed| {
                let started = Instant::now();
                walk_part(pass, shared, removed, f);
                let took = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
                walking.fetch_add(took, core::sync::atomic::Ordering::Relaxed);
            });
        self.stats.rounds += 1;
        self.stats.kept += counts.kept;
        self.stats.moves += counts.moves;
        let walked = Duration::from_nanos(walking.into_inner());
        self.work += walked;
        self.worked += rest;
        self.opinion_ns = ns_per_element(walked, rest);
        if let Err(payload) = ran {
            self.panic = Some(payload);
        }
        for removed in scratch.removed_lists() {
            let mut values = removed.drain(..);
            // A panicking hook call costs no other element its hook call:
            // after a panic the walk resumes with the next value (one
            // `catch_unwind` per panic, not per element). The first panic
            // is the one reported; later ones are dropped.
            while let Err(payload) = catch_unwind(AssertUnwindSafe(|| {
                values.by_ref().for_each(|value| policy.removed(value));
            })) {
                if self.panic.is_none() {
                    self.panic = Some(payload);
                } else {
                    crate::sync::discard_panic(payload);
                }
            }
        }
        if left > 0 {
            settle_rest(&mut self.panic, core, scratch);
        }
    }
}

/// After a round whose buffer could not grow for all its pushes, and
/// whose removed elements reached the hook (which may have freed
/// memory): one more try for the rest of the pushes. If the buffer
/// still cannot grow, the pass fails as the serial pass does when a
/// push cannot grow it (the allocation error handler, or "capacity
/// overflow"), and the pushes that found no room are dropped, as the
/// serial pass drops the value whose push failed. If a panic of the
/// round is already on its way to the caller, it stays the one
/// reported.
#[cold]
fn settle_rest<T>(
    panic: &mut Option<Box<dyn Any + Send>>,
    core: &mut Core<T>,
    scratch: &mut ParScratch<T>,
) {
    if panic.is_none() {
        // A failure unwinds from here; the lists (and their pushes)
        // are dropped with the scratch.
        par_settle_rest(core, scratch);
        return;
    }
    if let Err(failed) = catch_unwind(AssertUnwindSafe(|| par_settle_rest(core, scratch))) {
        crate::sync::discard_panic(failed);
        while let Err(payload) = catch_unwind(AssertUnwindSafe(|| scratch.drop_pushes())) {
            crate::sync::discard_panic(payload);
        }
    }
}

/// Walks one part of a parallel round, on a worker: what the serial
/// cursor does, with pushes and auto-removed elements going to the part's
/// lists and removals leaving listed holes (see `raw::par_round`).
fn walk_part<T, A, F>(pass: Pass<'_, T>, policy: &A, removed: &mut Vec<T>, f: &F)
where
    A: ParAutoRemove<T>,
    F: Fn(ParEntry<'_, T>),
{
    let mut policy = ParPolicy::Part(policy, removed);
    walk_some(Cursor::new(pass, &mut policy), f, usize::MAX);
}

/// Walks the cursor past no more than `limit` elements (fewer where its
/// pass ends), calling `f` on each it yields; hands it back with how many
/// it moved past. Every out-of-line walk of a pass (the serial starts of
/// its rounds, the parts of its parallel rounds) is this one function, so
/// that `f` has two call sites in all, this one and the one loop that
/// walks whatever runs serially (in
/// [`ReadWriteCollection::par_traverse_with`]): LLVM inlines a small
/// closure into both. (Measured: with a third, a second serial loop in
/// the caller's function, it inlined it into none, and a cheap update
/// took 1.2x as long serially; with a third out of line, a loop for the
/// serial rest without `limit`, into neither out-of-line walk.)
#[inline(never)]
fn walk_some<'c, 'p, T, A, F>(
    mut cursor: Cursor<'c, T, ParPolicy<'p, T, A>>,
    f: &F,
    limit: usize,
) -> (Cursor<'c, T, ParPolicy<'p, T, A>>, usize)
where
    A: ParAutoRemove<T>,
    F: Fn(ParEntry<'_, T>),
{
    let mut left = limit;
    while cursor.step_counting(&mut left) {
        f(ParEntry {
            entry: cursor.held_entry(),
        });
    }
    (cursor, limit - left)
}

/// A pass that may split, out of line: [`Control::next_walk`] walks the
/// starts of the rounds and runs the parallel rounds; when it decides the
/// rest of the pass runs serially, the pass is handed back suspended, for
/// the caller's own loop (`traverse`'s, inlined there).
///
/// Not inlined, and takes the closure by reference: the caller's loop
/// then calls the very closure it was given, whose captures the compiler
/// still knows (a closure handed back from a call is a new value, read
/// from memory: its captures, such as a frame's state behind a
/// reference, were then read again for every element, and an inline
/// update whose first elements are heavy ran 1.07x `traverse` serially;
/// by reference, 0.97x). The pass comes back suspended, not as a cursor,
/// for the same reason: the caller's cursor, built afresh, keeps its
/// state in registers.
#[inline(never)]
fn split_pass<T, A, F>(
    store: &mut Store<T>,
    policy: &mut A,
    control: &mut Control<T>,
    f: &F,
) -> Option<Suspended<T>>
where
    T: Send,
    A: ParAutoRemove<T>,
    F: Fn(ParEntry<'_, T>) + Sync,
{
    let mut policy = ParPolicy::Serial(policy);
    let cursor = Cursor::new(Pass::begin(store, None), &mut policy);
    let (cursor, serial_rest) = control.next_walk(cursor, f);
    control.passed = cursor.passed();
    serial_rest.then(|| cursor.suspend())
}

/// How [`ReadWriteCollection::par_traverse_with`] runs a pass: decided
/// from the closure's measured time per element ([`Auto`](Self::Auto),
/// what [`par_traverse`](ReadWriteCollection::par_traverse) does), or
/// forced. Whatever the mode, the pass leaves the collection as
/// [`traverse`](ReadWriteCollection::traverse) does (for a closure whose
/// effect depends only on its element), and a bounded collection runs
/// serially. Under `Auto`, a one-thread pool and a pass too small to split
/// run serially too; `Parallel` splits them anyway.
///
/// # Examples
///
/// ```
/// use read_write_collection::parallel::ParMode;
/// use read_write_collection::ReadWriteCollection;
///
/// let mut c: ReadWriteCollection<u64> = (0..10_000).collect();
/// // A closure known to be heavy: split every round, nothing timed to decide.
/// let stats = c.par_traverse_with(ParMode::Parallel, |mut e| *e += 1);
/// assert!(stats.rounds > 0);
/// // Known to be cheap: `traverse`'s loop, no timing at all.
/// let stats = c.par_traverse_with(ParMode::Serial, |mut e| *e += 1);
/// assert_eq!(stats.rounds, 0);
/// assert_eq!(c[0], 2);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ParMode {
    /// What `par_traverse` does: each round times its start and splits
    /// its rest when that and the time per element measured before agree
    /// that it gains (a disagreement is settled by timing the next
    /// elements; see [the module docs](crate::parallel)).
    #[default]
    Auto,
    /// Every round in parallel after a short serial start (up to 2048
    /// elements, a quarter of a small round), however small or cheap the
    /// round (a bounded collection still runs serially); nothing is timed to
    /// decide.
    Parallel,
    /// Serially, as [`traverse`](ReadWriteCollection::traverse) runs, with
    /// nothing timed.
    Serial,
}

/// What the parallel rounds of one pass did, as
/// [`par_traverse_with`](ReadWriteCollection::par_traverse_with) reports
/// it.
///
/// # Examples
///
/// ```
/// use read_write_collection::parallel::{ParMode, ParStats};
/// use read_write_collection::ReadWriteCollection;
///
/// let mut c: ReadWriteCollection<u64> = (0..10).collect();
/// let stats: ParStats = c.par_traverse_with(ParMode::Auto, |mut e| *e *= 2);
/// assert_eq!(stats.rounds, 0); // too small to split: ran serially
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParStats {
    /// Rounds run in parallel (0: the pass ran serially).
    pub rounds: usize,
    /// Elements those rounds kept.
    pub kept: usize,
    /// Element moves their compaction made (at most one per kept
    /// element: one that is already in its place does not move).
    pub moves: usize,
    /// Elements the serial starts of the rounds visited and timed (after
    /// their untimed warm-up), and how long they took at the rate of their
    /// faster half: what `Auto` decided from.
    pub probed: usize,
    /// See `probed`.
    pub probe_time: Duration,
}

/// Parallel passes (feature `rayon`; see the [`parallel`](crate::parallel) module).
impl<T: Send, A: ParAutoRemove<T>> ReadWriteCollection<T, A> {
    /// A traversal that runs the closure on several threads (rayon's
    /// current pool) when that is faster, and leaves the collection
    /// exactly as [`traverse`](Self::traverse) with the same closure would,
    /// when the closure's effect depends only on the element it is given:
    /// the same elements removed, the same pushed elements visited (and
    /// able to push again), the same order (in [unordered
    /// mode](crate::Mode::Unordered), the same elements as a multiset). See
    /// [the module
    /// docs](crate::parallel) for how, and for when it runs on one thread:
    /// each round times the closure on its first elements and runs the
    /// rest in parallel only when that and the time per element measured
    /// before (the last round's, or the last pass's) agree that it saves
    /// time; whatever runs serially runs `traverse`'s own loop.
    ///
    /// The auto-remove predicate runs on the workers
    /// ([`ParAutoRemove`]); the removal hook runs on the calling thread,
    /// in the serial pass's order. A bounded collection runs the whole pass
    /// on the calling thread (which pushes fit depends on the serial order).
    ///
    /// # Panics
    ///
    /// A panic in the closure (on any thread), in the `Drop` of an element
    /// the closure drops, or in the removal hook reaches the caller once the
    /// round it happened in is settled; no further round runs. Nothing is
    /// lost: every element is either still in the collection or was handed
    /// to the hook (unless the closure removed it itself), and every push
    /// made before the panic is in the collection, unvisited. The element
    /// the panicking closure held stays in the collection. A hook call that
    /// panics costs no other element its hook call; if several panic, the
    /// first panic reaches the caller. See [the module
    /// docs](crate::parallel#panics).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut particles: ReadWriteCollection<(f32, u32)> =
    ///     (0..1000).map(|i| (i as f32, i % 7)).collect();
    /// particles.par_traverse(|mut p| {
    ///     p.0 *= 0.5;
    ///     if p.1 == 0 {
    ///         p.remove();
    ///     } else if p.1 == 6 {
    ///         p.1 = 1;
    ///         let spark = (p.0, 0);
    ///         p.push(spark); // removed when visited, later in this pass
    ///     }
    /// });
    /// assert_eq!(particles.len(), 1000 - 143);
    /// assert!(particles.iter().all(|p| p.1 != 0));
    /// ```
    #[inline(always)] // so that the serial walk is in the caller's function
    pub fn par_traverse<F>(&mut self, f: F)
    where
        F: Fn(ParEntry<'_, T>) + Sync + Send,
    {
        self.par_traverse_with(ParMode::Auto, f);
    }

    /// [`par_traverse`](Self::par_traverse) run as `mode` says (decided
    /// from measured times, or forced serial or parallel), reporting what
    /// its parallel rounds did. `ParMode::Auto` is `par_traverse`.
    ///
    /// Force [`ParMode::Serial`] for a closure you know is too cheap to
    /// gain (it then runs exactly `traverse`'s loop, timing nothing), and
    /// [`ParMode::Parallel`] for one you know is heavy (no timed start
    /// decides against it). The result is the same in every mode, for a
    /// closure whose effect depends only on its element (see
    /// [`par_traverse`](Self::par_traverse)).
    ///
    /// # Panics
    ///
    /// As [`par_traverse`](Self::par_traverse).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::parallel::ParMode;
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<u32> = (0..100).collect();
    /// let stats = c.par_traverse_with(ParMode::Serial, |e| {
    ///     if *e % 2 == 0 {
    ///         e.remove();
    ///     }
    /// });
    /// assert_eq!(stats.rounds, 0);
    /// assert_eq!(c.len(), 50);
    /// ```
    #[inline(always)] // so that the serial walk is in the caller's function
    pub fn par_traverse_with<F>(&mut self, mode: ParMode, f: F) -> ParStats
    where
        F: Fn(ParEntry<'_, T>) + Sync + Send,
    {
        let mut control = Control::begin(&mut self.store, mode);
        // One loop walks whatever runs serially: a pass that cannot split,
        // or the rest of a pass whose rounds ran out of line (a second
        // loop here would be a third call site of `f`, and LLVM then
        // inlined it into none).
        let serial = if control.split {
            let rest = split_pass(&mut self.store, &mut self.policy, &mut control, &f);
            rest.map(|rest| Pass::resume(&mut self.store, rest))
        } else {
            Some(Pass::begin(&mut self.store, None))
        };
        if let Some(pass) = serial {
            // `traverse`'s own loop, inlined here, timed when a later pass
            // may split.
            let mut policy = ParPolicy::Serial(&mut self.policy);
            let mut cursor = Cursor::new(pass, &mut policy);
            control.serial_walk_starts();
            while cursor.step() {
                f(ParEntry {
                    entry: cursor.held_entry(),
                });
            }
            let walked = cursor.passed();
            drop(cursor);
            control.serial_walk_ended(walked);
        }
        control.end(&mut self.store)
    }
}

#[cfg(test)]
mod tests;

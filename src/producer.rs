//! Cross-thread producers for [`BufferedCollection`](crate::BufferedCollection).
//!
//! # One buffer per producer handle
//!
//! Every [`Producer`] handle owns a *slot*: a `Vec` behind its own mutex,
//! which only that handle's pushes and the collection's owner ever lock.
//! Pushes through different handles therefore never wait for each other;
//! `Producer::clone` makes a new slot, so one clone per thread is the fast
//! path. The collection keeps the *registry* of slots behind a second
//! mutex, the *control* lock, with the rest of the queue's state:
//!
//! ```text
//!   Shared ── control: Mutex<Queue> ─ registry ─┬─ Slot (handle A, live) ── [a0 a1 a2]
//!   │           producers, held, waiters,       ├─ Slot (handle B, live) ── []
//!   │           wake-ups to deliver, wakers      └─ Slot (B's clone, dropped) ── [c0]
//!   ├── closed: AtomicBool    (set under control; pushes read it under their slot)
//!   ├── max:    AtomicUsize   (the bound; changed under control + every slot)
//!   ├── consumers_waiting: AtomicBool (a push must wake a wait)
//!   ├── room:   AtomicUsize   (bounded only: pushes may still take this many)
//!   └── clock:  AtomicU64     (arrival order; on room's cache line)
//! ```
//!
//! * A push locks its slot, reads `closed` (and, when bounded, takes one
//!   unit of `room` with a compare-and-swap), appends, unlocks, and then
//!   reads `consumers_waiting`: only a set flag makes it lock the control
//!   mutex to wake a waiting consumer. An uncontended push touches no
//!   condition variable, no waker list and no lock but its slot's.
//! * `commit` walks the registry under the control lock and, slot by slot,
//!   swaps the slot's `Vec` with an empty spare under the slot's lock (the
//!   only time it holds a producer up), then appends the values outside
//!   that lock, merged as below. Emptied buffers become the spares of the
//!   next commit, so a steady state allocates nothing.
//! * A handle that is dropped marks its slot dead (no search: a drop is
//!   O(1)); the next commit takes its values, which are never lost, and
//!   removes it. Dead slots also leave, when empty, once there are more of
//!   them than a sweep found last time (amortised O(1) per handle), so
//!   handles that come and go without commits do not pile up. The walk
//!   sees the live slots plus the dead ones since the last commit.
//!
//! # Arrival order
//!
//! With [`ProducerOrder::Arrival`] (the default) a push that returned
//! before another push started is committed before it, whichever slots
//! they went to. A shared *clock* (a counter alone on its cache line)
//! orders the slots' values:
//!
//! ```text
//!   clock: 7              slot A: items [a0 a1 | a2 a3 a4]   head 3, runs [(7, 2)]
//!   (owned by slot A)     slot B: items [b0 b1 b2]           head 5, runs []
//!   committed order:  a0 a1 (3) · b0 b1 b2 (5) · a2 a3 a4 (7)
//! ```
//!
//! * A slot *owns* a clock value (its *epoch*) when it moved the clock to
//!   it; every value is written once, by one slot's compare-and-swap (or
//!   by a change of order, for one slot). A push, under its slot's lock,
//!   reads the clock: if it still shows the slot's epoch, nobody pushed
//!   elsewhere since, and the value joins the slot's open *run* (no
//!   write: the common case costs one read of a line that rarely
//!   changes). Otherwise it moves the clock on by one and opens a run
//!   stamped with the new value. A slot's runs are in stamp order, and
//!   no two slots share a stamp. The first run's stamp (`head`) is held
//!   inline, so a slot that pushes alone between commits never allocates
//!   for runs.
//! * **Causality.** If push A happened before push B, B's read of the
//!   clock comes after A's in the clock's modification order (coherence:
//!   no ordering stronger than `Relaxed` is needed), so B's stamp is A's
//!   or later; equal only in the same slot (a value owned by A's slot
//!   makes another slot move the clock on), where the slot's lock orders
//!   them.
//! * **The cut.** A commit reads the clock first (the value it reads is
//!   the cut; it writes nothing, so the producers' line stays theirs and
//!   a slot that owns the clock keeps its epoch across commits), then
//!   locks the slots one by one and takes only the values stamped at or
//!   before the cut, leaving later ones for the next commit. Suppose B is
//!   taken from slot j and A happened before B, A through slot i. If A
//!   was in slot i when the commit locked it, A is taken too (a slot's
//!   stamps only grow, so the values at or before the cut are a prefix).
//!   Otherwise A was pushed after the commit unlocked slot i, so A's read
//!   of the clock comes after the cut's (the slot's lock orders them;
//!   coherence again): A's stamp is the cut only if slot i owns the cut,
//!   else later. Then B's stamp, at least A's and at most the cut, is
//!   the cut, owned by slot i, so j = i and the slot's lock put A before
//!   B in the slot, which B had reached before the commit locked it while
//!   A had not: impossible. So if B is taken, A is taken, by this commit
//!   or an earlier one, and (stamped earlier, or earlier in the same
//!   slot) comes first. A registry of one slot needs no cut (nothing to
//!   order against; a new slot registers under the control lock the
//!   commit holds): the commit takes everything.
//! * **The merge** appends the taken runs in stamp order: a swap or an
//!   append when one slot has values or the slots' runs do not interleave;
//!   otherwise runs are moved newest first from the ends of the parts
//!   (the part to take from is found by a scan of the parts' newest
//!   stamps, kept on the stack, for up to eight parts, and by a heap
//!   beyond: O(n log k) for n values in k parts) and one reversal puts
//!   them in order.
//! * [`ProducerOrder::PerProducer`] skips all of it: no stamps, no cut,
//!   slots appended in registry order (handles in the order they were
//!   made).
//!
//! Memory per producer handle: the handle (two `Arc`s, 16 bytes), its slot
//! (one 256-byte allocation: the `Arc` counts, then the mutex, `Vec`,
//! permit count and "handle dropped" flag alone on 128 bytes of cache
//! lines, so that two producers' slots never share a line) plus the capacity its buffer grew to, and 8
//! bytes in the registry.
//!
//! # Counters
//!
//! * `closed`: set by `BufferedCollection::close` and by the collection's
//!   drop; pushes then hand the value back. Read under the slot's lock, so
//!   a push either lands before the owner next looks at that slot, or sees
//!   the close.
//! * `producers` (under control): live `Producer` handles, so
//!   `wait_pending` can tell that nothing can arrive any more.
//! * For a bounded collection, `room`, `held` and `max`: `held` (under
//!   control) counts the elements the collection holds outside the slots
//!   (visible + local pending), as last published by the collection, plus
//!   the room a traversal reserved for its pushes; and at every instant
//!
//!   ```text
//!   room + held + (values in slots) + (outstanding permits) == max
//!   ```
//!
//!   except that a commit moving values from the slots to `held` adds the
//!   room it frees only at its end (`room` is then smaller, never larger).
//!   A push takes room with a compare-and-swap that never takes `room`
//!   below zero, so the bound holds at every instant. The collection
//!   publishes every increase of its own count before it happens and
//!   decreases lazily (at its next `commit`, `wait_pending`, `traverse`,
//!   …). `room` grows only under the control lock; a bound change holds
//!   the control lock and every slot's, so no push slips in between its
//!   check and the new count.
//!
//! # Who wakes whom
//!
//! Two condition variables and, with feature `async`, two sets of task
//! wakers, all under the control lock:
//!
//! * *Consumers* (`wait_pending`, `wait_pending_async`) wait for a slot to
//!   hold values or for nothing more to be able to arrive. A consumer sets
//!   `consumers_waiting` and then locks each slot to look: a push either
//!   finishes before the consumer locks its slot (the consumer sees the
//!   value) or locks it after (the slot's mutex orders the flag before the
//!   push's read of it, and the push wakes the consumer through the
//!   control lock, which the consumer holds until it sleeps). Waking the
//!   consumers clears the flag: the *first* push after a wait starts wakes
//!   it, later ones pay nothing. The last producer leaving and a close
//!   wake consumers too.
//! * *Producers* blocked for room (`push`, `push_batch`, `push_async`,
//!   `reserve_async` on a full bounded queue) register under the control
//!   lock after seeing no room there. Room grows only under that lock (a
//!   commit, the end of a traversal, a wait, the clears, a bound change, a
//!   permit given back), which wakes them, and so does a close.
//!
//! **No foreign code runs under a lock.** What a critical section decides
//! to wake is recorded in the queue and delivered by the guard
//! ([`Locked`]) after it releases the control lock: condition variables
//! first, then the wakers, each wake isolated so that one waker that panics
//! costs no one else's wake-up (its panic is reported by the panic hook
//! and then dropped: the operation that woke it has completed and returns
//! its own result). Wakers are cloned before the lock is taken and dropped
//! after it is released; queued elements are dropped outside every lock.
//! A waker may therefore look at the queue (`Producer::is_closed`, a push)
//! from `wake` or `clone` without deadlocking. Lock order: control, then
//! slots (in registry order); a push never holds its slot's lock while it
//! takes the control lock.
//!
//! A future that is dropped while registered removes its waker (each
//! registration is a slot the future remembers, valid until the set is
//! woken), so cancelled futures leave nothing behind.

use alloc::vec::Vec;
use core::fmt;
use core::ops::{Deref, DerefMut};
use core::sync::atomic::Ordering::{Acquire, Relaxed, SeqCst};
use std::time::{Duration, Instant};

use crate::error::{PushTimeoutError, TryPushError, WaitError};
use crate::sync::{
    lock, lock_politely, wait, wait_timeout, Arc, AtomicBool, AtomicStamp, AtomicUsize, Condvar,
    Mutex, MutexGuard, Stamp,
};
use alloc::collections::BinaryHeap;
use core::cmp::Reverse;
#[cfg(feature = "async")]
use core::future::Future;
#[cfg(feature = "async")]
use core::pin::Pin;
#[cfg(feature = "async")]
use core::task::{Context, Poll, Waker};

/// The queue producers push into and the state around it.
///
/// What every push reads (`closed`, `max`, `consumers_waiting`: written
/// rarely), what bounded pushes write (`room`) and what the owner writes at
/// every commit (the control lock) sit on separate cache lines, so that a
/// commit does not take the lines pushes read away from them.
pub(crate) struct Shared<T> {
    control: OwnLine<Mutex<Queue<T>>>,
    /// `wait_pending` waits here.
    pushed: Condvar,
    /// Producers blocked on a full bounded collection wait here.
    room_freed: Condvar,
    /// Read by every push.
    flags: OwnLine<Flags>,
    /// The words pushes write.
    counters: OwnLine<Counters>,
}

/// What pushes write, on one line: a bounded push's compare-and-swap on
/// `room` fetches the line, and its read of `clock` that follows hits it
/// (on separate lines, a bounded push in arrival order missed twice when
/// pushes through other handles interleaved).
struct Counters {
    /// How many more values pushes may take now (bounded only): written
    /// by every bounded push.
    room: AtomicUsize,
    /// The arrival clock ([`ProducerOrder::Arrival`]; see the module
    /// docs): read by every push, written only when another handle or a
    /// commit moved it since this handle's last push.
    clock: AtomicStamp,
}

/// What every push reads; see [`Shared`].
struct Flags {
    /// Set (under control) by a close; read by pushes under their slot.
    closed: AtomicBool,
    /// Set (under control, before the slots are emptied for the last
    /// time) when the collection is dropped or taken apart: a permit's
    /// push then drops its value at once, as nothing will take it.
    gone: AtomicBool,
    /// The bound; `usize::MAX` when unbounded (then `room` is unused).
    /// Changed only under the control lock and every slot's.
    max: AtomicUsize,
    /// A consumer waits: the next push must wake it.
    consumers_waiting: AtomicBool,
}

/// A value alone on its cache lines (128 bytes: a line and the one the
/// prefetcher pairs with it).
#[repr(align(128))]
struct OwnLine<V>(V);

impl<V> Deref for OwnLine<V> {
    type Target = V;

    #[inline]
    fn deref(&self) -> &V {
        &self.0
    }
}

/// One producer handle's buffer, alone on its cache lines: its producer
/// and the owner's commit are the only ones who touch it.
#[repr(align(128))]
struct Slot<T> {
    state: Mutex<SlotState<T>>,
    /// Its handle is gone (set and read under the control lock).
    dead: AtomicBool,
    /// A permit was taken through its handle (set and read under the
    /// control lock, which orders every access: std's atomic even under
    /// loom, whose model need not schedule around it).
    #[cfg(feature = "async")]
    permits: core::sync::atomic::AtomicBool,
}

struct SlotState<T> {
    /// Pushed, not yet committed, in push order.
    items: Vec<T>,
    /// Arrival order only: the stamp of the run `items` starts with (its
    /// values up to the first of `runs`); meaningless while `items` is
    /// empty. Held inline, so a slot whose values share one stamp between
    /// commits (the usual case) never allocates for runs.
    head: Stamp,
    /// Arrival order only: the later runs of `items`, oldest first (each
    /// `start` > 0, increasing).
    runs: Vec<Run>,
    /// The clock value this slot last set (the *epoch* it owns while the
    /// clock still shows it); 0, which the clock never shows, at first.
    epoch: Stamp,
    /// The last run is stamped `epoch`: pushes may extend it while the
    /// clock still shows `epoch`.
    run_open: bool,
    /// Pushes stamp their values ([`ProducerOrder::Arrival`]); set under
    /// the control lock and this slot's.
    arrival: bool,
    /// Permits of this handle not yet used or dropped (room they hold).
    reserved: usize,
}

/// Values of one slot pushed while the slot owned one epoch of the
/// arrival clock: they run from `start` to the next run's start (or the
/// end of the slot's values).
#[derive(Clone, Copy, Debug)]
struct Run {
    stamp: Stamp,
    start: usize,
}

/// Whether `stamp` is at or before `cut` on the arrival clock (wrapping:
/// exact while less than half the clock's range lies between them).
#[inline]
fn due(stamp: Stamp, cut: Stamp) -> bool {
    cut.wrapping_sub(stamp) <= Stamp::MAX / 2
}

impl<T> SlotState<T> {
    fn new(arrival: bool) -> Self {
        SlotState {
            items: Vec::new(),
            head: 0,
            runs: Vec::new(),
            epoch: 0,
            run_open: false,
            arrival,
            reserved: 0,
        }
    }

    /// Before values are pushed into this slot (under its lock): in
    /// arrival order, the stamp of the run they must open, if they cannot
    /// extend the open one. Extending needs the clock to show this slot's
    /// epoch (no other slot and no commit moved it since: one load of a
    /// line every push reads and few write); otherwise the slot moves the
    /// clock on by one and owns the new value. Stamp and values are taken
    /// under the slot's lock, so a commit that reads the clock before it
    /// locks the slot finds every value stamped before that read.
    #[inline]
    fn stamp(&mut self, clock: &AtomicStamp) -> Option<Stamp> {
        if !self.arrival {
            return None;
        }
        // Relaxed is enough: the proof needs only coherence of the clock's
        // own modification order (see the module docs).
        let now = clock.load(Relaxed);
        if now == self.epoch {
            return if self.run_open { None } else { Some(now) };
        }
        Some(self.claim(clock, now))
    }

    /// The next clock value, taken with a compare-and-swap from `seen`:
    /// the slot's new epoch.
    fn claim(&mut self, clock: &AtomicStamp, seen: Stamp) -> Stamp {
        let mut now = seen;
        loop {
            let next = now.wrapping_add(1);
            match clock.compare_exchange(now, next, Relaxed, Relaxed) {
                Ok(_) => {
                    self.epoch = next;
                    return next;
                }
                Err(seen) => now = seen,
            }
        }
    }

    /// Whether a run [`stamp`](Self::stamp) asked for needs room in
    /// `runs` (the caller reserves it before anything changes).
    #[inline]
    fn needs_run_room(&self, run: Option<Stamp>) -> bool {
        run.is_some() && !self.items.is_empty()
    }

    /// Opens the run [`stamp`](Self::stamp) asked for, at the current end
    /// of `items` (the caller reserved room for it in `runs`).
    #[inline]
    fn open(&mut self, run: Option<Stamp>) {
        if let Some(stamp) = run {
            if self.items.is_empty() {
                self.head = stamp;
            } else {
                self.runs.push(Run {
                    stamp,
                    start: self.items.len(),
                });
            }
            self.run_open = true;
        }
    }

    /// How many values (and runs after the head) a commit with `cut`
    /// takes: all of them without a cut, else those stamped at or before
    /// it (a prefix).
    fn due(&self, cut: Option<Stamp>) -> (usize, usize) {
        let all = (self.items.len(), self.runs.len());
        let Some(cut) = cut else {
            return all;
        };
        if self.items.is_empty() || due(self.runs.last().map_or(self.head, |r| r.stamp), cut) {
            all
        } else if !due(self.head, cut) {
            (0, 0)
        } else {
            let runs = self.runs.iter().take_while(|r| due(r.stamp, cut)).count();
            (self.runs[runs].start, runs)
        }
    }

    /// Moves the first `items` values and `runs` runs after the head
    /// (from [`due`](Self::due)) into the empty `part`. If growing `part`
    /// panics, nothing has moved.
    fn take_into(&mut self, items: usize, runs: usize, part: &mut Part<T>) {
        part.head = self.head;
        if items == self.items.len() {
            core::mem::swap(&mut self.items, &mut part.items);
            core::mem::swap(&mut self.runs, &mut part.runs);
            self.run_open = false;
        } else {
            part.items.reserve(items);
            part.runs.reserve(runs);
            part.items.extend(self.items.drain(..items));
            part.runs.extend(self.runs.drain(..runs));
            // The first run left becomes the head.
            self.head = self.runs.remove(0).stamp;
            for run in &mut self.runs {
                run.start -= items;
            }
        }
    }
}

/// One slot's values taken by a commit, with their runs (arrival order).
/// Emptied parts keep their buffers for the next commit.
struct Part<T> {
    items: Vec<T>,
    /// As [`SlotState`]'s.
    head: Stamp,
    runs: Vec<Run>,
}

impl<T> Default for Part<T> {
    fn default() -> Self {
        Part {
            items: Vec::new(),
            head: 0,
            runs: Vec::new(),
        }
    }
}

impl<T> Part<T> {
    /// Moves its last run to the end of `dest`, reversed (`dest` has room).
    #[inline]
    fn move_last_run(&mut self, dest: &mut Vec<T>) {
        match self.runs.pop() {
            // A run of one (handles that took turns): no drain to set up.
            Some(run) if run.start + 1 == self.items.len() => dest.extend(self.items.pop()),
            Some(run) => dest.extend(self.items.drain(run.start..).rev()),
            None => dest.extend(self.items.drain(..).rev()),
        }
    }

    /// How long before `now` its first run (`first`) or its last run was
    /// stamped.
    fn age(&self, now: Stamp, first: bool) -> Stamp {
        let stamp = match self.runs.last() {
            Some(last) if !first => last.stamp,
            _ => self.head,
        };
        now.wrapping_sub(stamp)
    }
}

/// The state behind the control mutex; see the module docs.
pub(crate) struct Queue<T> {
    /// The registry: every live handle's slot, in the order the handles
    /// were made, and dead ones not yet removed.
    slots: Vec<Arc<Slot<T>>>,
    /// Dead slots in `slots`.
    dead: usize,
    /// Sweep the dead slots out when there are this many.
    sweep_at: usize,
    producers: usize,
    /// The collection's count as last published (bounded only).
    held: usize,
    /// How a commit orders the values of different slots.
    order: ProducerOrder,
    waiting_consumers: usize,
    waiting_producers: usize,
    /// Wake-ups decided under the lock, delivered by [`Locked`] once it is
    /// released.
    wake: Wakeups,
    /// Whether `wake` holds anything (one test on the fast path).
    must_wake: bool,
    /// Tasks waiting in `wait_pending_async` (feature `async`).
    #[cfg(feature = "async")]
    consumer_wakers: Wakers,
    /// Tasks waiting in `push_async` or `reserve_async` for room (feature
    /// `async`).
    #[cfg(feature = "async")]
    producer_wakers: Wakers,
}

/// What to wake once the lock is released.
#[derive(Default)]
struct Wakeups {
    /// Notify the `pushed` condition variable.
    consumers: bool,
    /// Notify the `room_freed` condition variable.
    producers: bool,
    /// Task wakers taken out of their sets (slots emptied by a
    /// deregistration are `None`).
    #[cfg(feature = "async")]
    wakers: Vec<Option<Waker>>,
}

impl Wakeups {
    /// Delivers the wake-ups (the lock is not held): condition variables
    /// first, then every waker, a panicking one included.
    fn deliver<T>(self, shared: &Shared<T>) {
        if self.consumers {
            shared.pushed.notify_all();
        }
        if self.producers {
            shared.room_freed.notify_all();
        }
        #[cfg(feature = "async")]
        for waker in self.wakers.into_iter().flatten() {
            // Executor code: its panic must not keep the other wakers
            // asleep, nor fail the operation that woke it (which has done
            // its work). The panic hook has reported it by now.
            if let Err(payload) =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| waker.wake()))
            {
                crate::sync::discard_panic(payload);
            }
        }
    }
}

impl<T> Queue<T> {
    /// Decides to wake the producers blocked for room (room freed, the
    /// bound changed, or a close).
    #[inline]
    fn wake_producers(&mut self) {
        if self.waiting_producers > 0 {
            self.wake.producers = true;
            self.must_wake = true;
        }
        #[cfg(feature = "async")]
        if self.producer_wakers.take_into(&mut self.wake.wakers) {
            self.must_wake = true;
        }
    }

    /// Whether a consumer is registered (a thread in `wait_pending`, a
    /// task in `wait_pending_async`).
    #[inline]
    fn consumers_registered(&self) -> bool {
        let waiting = self.waiting_consumers > 0;
        #[cfg(feature = "async")]
        let waiting = waiting || !self.consumer_wakers.is_empty();
        waiting
    }

    /// Whether a producer is blocked for room: a thread in `push` or
    /// `push_batch`, or a task in `push_async` or `reserve_async`.
    #[inline]
    fn producers_blocked(&self) -> bool {
        let blocked = self.waiting_producers > 0;
        #[cfg(feature = "async")]
        let blocked = blocked || !self.producer_wakers.is_empty();
        blocked
    }

    /// Whether `slot`'s handle is gone (read under the control lock).
    fn is_dead(slot: &Slot<T>) -> bool {
        slot.dead.load(Relaxed)
    }

    /// Removes the dead slots that hold nothing (locking each), and sets
    /// the next sweep's threshold so that at least half as many handles
    /// as the registry keeps (and as many as the dead ones it keeps) must
    /// be dropped before the next sweep: sweeps cost amortised O(1) per
    /// handle.
    fn sweep(&mut self) {
        self.slots
            .retain(|slot| !Self::is_dead(slot) || !lock(&slot.state).items.is_empty());
        self.dead = self.slots.iter().filter(|slot| Self::is_dead(slot)).count();
        self.schedule_sweep();
    }

    /// After a commit took the slots' values: the dead slots it emptied
    /// leave. With `left_behind` (some slot still held values when the
    /// commit was done with it: values stamped after the cut), each dead
    /// slot is looked at and one that holds values stays for the next
    /// commit; otherwise every dead slot is empty and leaves unlocked.
    fn remove_dead(&mut self, left_behind: bool) {
        if self.dead > 0 {
            if left_behind {
                self.sweep();
            } else {
                self.slots.retain(|slot| !Self::is_dead(slot));
                self.dead = 0;
                self.schedule_sweep();
            }
        }
    }

    /// Sets the next sweep's threshold after the registry was cleaned:
    /// at least half as many drops as the registry keeps (and as the dead
    /// slots it keeps), or `SWEEP_MIN`.
    fn schedule_sweep(&mut self) {
        self.sweep_at = self.dead + self.dead.max(self.slots.len() / 2).max(SWEEP_MIN);
    }
}

/// A push that finds no room backs off this many times before it sleeps,
/// the first `SPIN_STEPS` spinning (1, 2, 4, … spin hints), the rest
/// yielding the thread (see [`Producer::snooze_for_room`]).
#[cfg_attr(all(test, loom), allow(dead_code))]
const SNOOZE_STEPS: u32 = 10;
#[cfg_attr(all(test, loom), allow(dead_code))]
const SPIN_STEPS: u32 = 6;

/// Dead slots tolerated before a sweep (see [`Queue::sweep`]).
const SWEEP_MIN: usize = 16;

impl<T> Shared<T> {
    fn new(max: usize, order: ProducerOrder) -> Arc<Self> {
        Arc::new(Shared {
            control: OwnLine(Mutex::new(Queue {
                slots: Vec::new(),
                dead: 0,
                sweep_at: SWEEP_MIN,
                producers: 0,
                held: 0,
                order,
                waiting_consumers: 0,
                waiting_producers: 0,
                wake: Wakeups::default(),
                must_wake: false,
                #[cfg(feature = "async")]
                consumer_wakers: Wakers::default(),
                #[cfg(feature = "async")]
                producer_wakers: Wakers::default(),
            })),
            pushed: Condvar::new(),
            room_freed: Condvar::new(),
            flags: OwnLine(Flags {
                closed: AtomicBool::new(false),
                gone: AtomicBool::new(false),
                max: AtomicUsize::new(max),
                consumers_waiting: AtomicBool::new(false),
            }),
            counters: OwnLine(Counters {
                room: AtomicUsize::new(max),
                // Slots start at epoch 0, which the clock never shows.
                clock: AtomicStamp::new(1),
            }),
        })
    }

    fn lock(&self) -> Locked<'_, T> {
        Locked {
            shared: self,
            guard: Some(lock(&self.control)),
        }
    }

    #[inline]
    fn is_closed(&self) -> bool {
        self.flags.closed.load(Acquire)
    }

    /// Whether pushes could take room now (a hint, exact under the control
    /// lock for "no room": room grows only under it).
    #[inline]
    fn has_room(&self) -> bool {
        self.flags.max.load(Relaxed) == usize::MAX || self.counters.room.load(SeqCst) > 0
    }

    /// Takes up to `wanted` units of room (all of them when unbounded);
    /// returns how many it took. Called under a slot's lock (which orders
    /// it against bound changes).
    #[inline]
    fn take_room(&self, wanted: usize) -> usize {
        if self.flags.max.load(Relaxed) == usize::MAX {
            return wanted;
        }
        let mut room = self.counters.room.load(Relaxed);
        loop {
            let take = room.min(wanted);
            if take == 0 {
                return 0;
            }
            match self
                .counters
                .room
                .compare_exchange_weak(room, room - take, SeqCst, Relaxed)
            {
                Ok(_) => return take,
                Err(now) => room = now,
            }
        }
    }

    /// After a push has unlocked its slot: wakes a waiting consumer, if
    /// there is one (the only time a push takes the control lock).
    #[inline]
    fn after_push(&self) {
        if self.flags.consumers_waiting.load(SeqCst) {
            self.wake_waiting_consumers();
        }
    }

    #[cold]
    #[inline(never)]
    fn wake_waiting_consumers(&self) {
        self.lock().wake_consumers();
    }
}

/// The control lock. Dropping it (or waiting on a condition variable
/// through it) releases the lock first and then delivers the wake-ups the
/// critical section decided: no foreign code runs under the lock.
pub(crate) struct Locked<'a, T> {
    shared: &'a Shared<T>,
    /// `None` only inside `drop` and while a wait has the lock released.
    guard: Option<MutexGuard<'a, Queue<T>>>,
}

impl<'a, T> Locked<'a, T> {
    /// Releases the lock and delivers what the critical section decided
    /// to wake (after this, `guard` is `None`). Nothing to wake is the
    /// inline fast path.
    #[inline]
    fn release(&mut self) {
        if let Some(guard) = self.guard.take() {
            if !guard.must_wake {
                drop(guard);
            } else {
                Self::release_and_wake(guard, self.shared);
            }
        }
    }

    #[cold]
    #[inline(never)]
    fn release_and_wake(mut guard: MutexGuard<'a, Queue<T>>, shared: &Shared<T>) {
        let wake = core::mem::take(&mut guard.wake);
        guard.must_wake = false;
        drop(guard);
        wake.deliver(shared);
    }

    /// Waits on `condvar` (`timeout`: at most that long). If this critical
    /// section decided wake-ups, it delivers them instead (the lock is
    /// released meanwhile) and returns at once, like a spurious wake-up:
    /// callers re-check their condition in a loop.
    fn wait(mut self, condvar: &Condvar, timeout: Option<Duration>) -> Self {
        let guard = self.guard.take().expect("locked");
        self.guard = Some(if guard.must_wake {
            Self::release_and_wake(guard, self.shared);
            lock(&self.shared.control)
        } else {
            match timeout {
                Some(timeout) => wait_timeout(condvar, guard, timeout),
                None => wait(condvar, guard),
            }
        });
        self
    }

    /// Decides to wake the consumers (a push after they started waiting,
    /// the last producer left, a close, a producer blocked, a permit
    /// given back). Every registered consumer is woken, so the flag that
    /// makes pushes call here is cleared; consumers that wait again set it
    /// again.
    fn wake_consumers(&mut self) {
        if self.waiting_consumers > 0 {
            self.wake.consumers = true;
            self.must_wake = true;
        }
        #[cfg(feature = "async")]
        {
            let queue: &mut Queue<T> = self;
            if queue.consumer_wakers.take_into(&mut queue.wake.wakers) {
                queue.must_wake = true;
            }
        }
        self.shared.flags.consumers_waiting.store(false, SeqCst);
    }

    /// A consumer is about to look at the slots and may then wait: from
    /// now on pushes wake it.
    fn arm_consumers(&mut self) {
        self.shared.flags.consumers_waiting.store(true, SeqCst);
    }

    /// A consumer stopped waiting: the flag stays set only while another
    /// one is registered.
    fn settle_consumers(&mut self) {
        let registered = self.consumers_registered();
        self.shared
            .flags
            .consumers_waiting
            .store(registered, SeqCst);
    }

    /// A producer starts waiting for room: a consumer waiting on an empty
    /// queue is woken to see that only it can free the room (`Full`).
    #[inline]
    fn announce_blocked_producer(&mut self) {
        self.wake_consumers();
    }

    /// Values in the slots, and permits outstanding, locking each slot.
    fn scan(&self) -> (usize, usize) {
        let mut queued = 0;
        let mut reserved = 0;
        for slot in &self.slots {
            let slot = lock(&slot.state);
            queued += slot.items.len();
            reserved += slot.reserved;
        }
        (queued, reserved)
    }

    /// What a wait for pending elements can answer now (the caller armed
    /// the consumers' flag first): `Pending` when producers' pushes are
    /// queued, `Disconnected` when nothing can arrive any more (closed with
    /// no permit outstanding, or no producer), `Full` when nothing can
    /// arrive until the waiting collection itself frees room (bounded and
    /// full, nothing queued or promised, a producer blocked for room: the
    /// caller is the only one who can make progress), `None` while it has
    /// to wait.
    ///
    /// The caller published the collection's exact count before asking,
    /// and the collection cannot change while it waits.
    fn wait_outcome(&self) -> Option<Waited> {
        let shared = self.shared;
        // Read before the scan: room grows only under the control lock,
        // which this holds, so "no room" stays true while the scan runs and
        // no push can queue a value behind it (read after the scan, a push
        // could take room into a slot the scan had passed: "full, nothing
        // queued" with a value queued).
        let no_room =
            shared.flags.max.load(Relaxed) != usize::MAX && shared.counters.room.load(SeqCst) == 0;
        let (queued, reserved) = self.scan();
        if queued > 0 {
            Some(Waited::Pending)
        } else if (shared.is_closed() && reserved == 0) || self.producers == 0 {
            Some(Waited::Disconnected)
        } else if no_room && reserved == 0 && self.producers_blocked() {
            Some(Waited::Full)
        } else {
            None
        }
    }

    /// Sets `held` to `owned`, the collection's exact count, and hands the
    /// room that frees to the producers, waking those blocked (bounded
    /// only). The collection publishes every increase of its count before
    /// it happens, except before its first producer exists.
    fn publish(&mut self, owned: usize) {
        if self.shared.flags.max.load(Relaxed) == usize::MAX {
            return;
        }
        let held = self.held;
        self.held = owned;
        if owned < held {
            self.shared.counters.room.fetch_add(held - owned, SeqCst);
            self.wake_producers();
        } else if owned > held {
            // Only before the first producer: a collection without
            // producers counts its own pushes without publishing them, and
            // its count fits in the room (nothing else took any).
            let more = owned - held;
            let fitted = self
                .shared
                .counters
                .room
                .fetch_update(SeqCst, SeqCst, |room| room.checked_sub(more));
            debug_assert!(fitted.is_ok(), "a count grew without taking room");
        }
    }

    /// Registers a new slot for a new handle.
    fn register(&mut self) -> Arc<Slot<T>> {
        let slot = Arc::new(Slot {
            state: Mutex::new(SlotState::new(self.order == ProducerOrder::Arrival)),
            dead: AtomicBool::new(false),
            #[cfg(feature = "async")]
            permits: core::sync::atomic::AtomicBool::new(false),
        });
        self.producers += 1;
        self.slots.push(Arc::clone(&slot));
        slot
    }

    /// Closes: later pushes hand their value back; producers blocked for
    /// room and waiting consumers are woken.
    fn close(&mut self) {
        self.shared.flags.closed.store(true, SeqCst);
        self.wake_producers();
        self.wake_consumers();
    }
}

impl<T> Deref for Locked<'_, T> {
    type Target = Queue<T>;

    #[inline]
    fn deref(&self) -> &Queue<T> {
        self.guard.as_ref().expect("locked")
    }
}

impl<T> DerefMut for Locked<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut Queue<T> {
        self.guard.as_mut().expect("locked")
    }
}

impl<T> Drop for Locked<'_, T> {
    #[inline]
    fn drop(&mut self) {
        self.release();
    }
}

/// Where a future's waker sits in a [`Wakers`] set: valid while the set
/// has not been woken since (`epoch`).
#[cfg(feature = "async")]
#[derive(Clone, Copy)]
pub(crate) struct Registration {
    slot: usize,
    epoch: u64,
}

/// The wakers of the tasks waiting for one kind of event. Each waiting
/// future owns a slot; waking the set takes every slot at once and starts
/// a new epoch, which invalidates the futures' registrations.
#[cfg(feature = "async")]
#[derive(Default)]
pub(crate) struct Wakers {
    slots: Vec<Option<Waker>>,
    /// Empty slots of `slots`, reused before it grows.
    free: Vec<usize>,
    /// Registered wakers (the `Some` slots).
    live: usize,
    epoch: u64,
}

#[cfg(feature = "async")]
impl Wakers {
    /// Whether no task is registered.
    #[inline]
    fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// The waker `registration` holds, if it is still registered.
    fn get(&self, registration: Option<Registration>) -> Option<&Waker> {
        let r = registration?;
        if r.epoch != self.epoch {
            return None;
        }
        self.slots.get(r.slot)?.as_ref()
    }

    /// Installs `waker` for the future that holds `registration`, in its
    /// slot if that is still registered, else in a new one. Returns the
    /// waker it replaced, for the caller to drop after unlocking.
    fn register(&mut self, registration: &mut Option<Registration>, waker: Waker) -> Option<Waker> {
        if let Some(r) = *registration {
            if r.epoch == self.epoch {
                if let Some(Some(current)) = self.slots.get_mut(r.slot) {
                    return Some(core::mem::replace(current, waker));
                }
            }
        }
        self.live += 1;
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slots[slot] = Some(waker);
                slot
            }
            None => {
                self.slots.push(Some(waker));
                self.slots.len() - 1
            }
        };
        *registration = Some(Registration {
            slot,
            epoch: self.epoch,
        });
        None
    }

    /// Removes the waker of `registration` if it is still registered (a
    /// future that resolved or was dropped); returns it, for the caller to
    /// drop after unlocking.
    fn deregister(&mut self, registration: Registration) -> Option<Waker> {
        if registration.epoch != self.epoch {
            return None;
        }
        let waker = self.slots.get_mut(registration.slot)?.take();
        if waker.is_some() {
            self.live -= 1;
            self.free.push(registration.slot);
        }
        waker
    }

    /// Moves every registered waker to `out` (to be woken after unlocking)
    /// and starts a new epoch; returns whether there were any. No waker
    /// code runs here.
    #[inline]
    fn take_into(&mut self, out: &mut Vec<Option<Waker>>) -> bool {
        if self.slots.is_empty() {
            return false;
        }
        self.epoch += 1;
        self.live = 0;
        self.free.clear();
        if out.is_empty() {
            core::mem::swap(out, &mut self.slots);
        } else {
            out.append(&mut self.slots);
        }
        true
    }
}

/// The collection's end of the producers' queue. Dropping it closes the
/// queue: later pushes fail and queued elements are dropped exactly once.
pub(crate) struct ProducerLink<T> {
    shared: Arc<Shared<T>>,
    /// The owner's buffers for taking the slots' values.
    taker: Taker<T>,
}

/// What a commit uses to take and merge the slots' values: the owner's
/// alone, beside the shared state (borrowed apart from it while the
/// control lock is held).
struct Taker<T> {
    /// An emptied buffer, swapped with a slot's at a commit: a steady
    /// state allocates nothing. `pool` holds more when several slots have
    /// values.
    spare: Part<T>,
    pool: Vec<Part<T>>,
    /// What a commit took from the only slot (`first`), or one part per
    /// slot that held values when there are several (`parts`, grown
    /// before any value moves); both empty between commits.
    first: Option<Part<T>>,
    parts: Vec<Part<T>>,
    /// The merge's heap for more than [`SCANNED_PARTS`] parts: (how long
    /// before the cut a part's last run was stamped, part), newest first.
    heap: BinaryHeap<Reverse<(Stamp, usize)>>,
}

impl<T> ProducerLink<T> {
    /// A link for a collection bounded to `max` (`usize::MAX`: unbounded)
    /// whose commits order producers' values by `order`.
    pub(crate) fn new(max: usize, order: ProducerOrder) -> Self {
        ProducerLink {
            shared: Shared::new(max, order),
            taker: Taker {
                spare: Part::default(),
                pool: Vec::new(),
                first: None,
                parts: Vec::new(),
                heap: BinaryHeap::new(),
            },
        }
    }

    /// Locks the control state and publishes `owned` (the collection's
    /// exact count of visible + local pending elements; a bounded
    /// collection only).
    fn sync(&self, owned: usize) -> Locked<'_, T> {
        let mut queue = self.shared.lock();
        queue.publish(owned);
        queue
    }

    /// Appends what producers queued to `dest` and publishes `dest`'s new
    /// length as the collection's count (the caller has emptied its local
    /// pending buffer into `dest`).
    ///
    /// In arrival order the commit first reads the clock: the value it
    /// reads is the *cut*. It takes the values stamped at or before the
    /// cut, merged by stamp, and leaves later ones for the next commit: if
    /// push A happened before push B and B is taken, A is taken too and
    /// comes first (the module docs prove it). Per producer, it takes
    /// everything, slot after slot in registry order.
    ///
    /// A slot's values leave it only once `dest` has room for them and
    /// everything taken before: if growing `dest` panics (capacity
    /// overflow, allocation failure), what was not taken is still in its
    /// slot, in order, and the next commit takes it. Nothing after that
    /// allocates.
    pub(crate) fn take_into(&mut self, dest: &mut Vec<T>) {
        let shared = &*self.shared;
        let mut queue = shared.lock();
        // The room the collection freed since it last published goes to
        // the producers first: those blocked for it wake as soon as the
        // lock is released, before the merge below (which needs no lock).
        queue.publish(dest.len());
        // With one slot there is nothing to order its values against: no
        // cut. A second slot registers under the control lock, which this
        // holds until every slot was looked at. The cut is a read: a write
        // would take the clock's line from the producers and make each of
        // them claim a new epoch at its next push.
        let cut = match queue.order {
            ProducerOrder::Arrival if queue.slots.len() > 1 => {
                Some(shared.counters.clock.load(Relaxed))
            }
            _ => None,
        };
        // Counts what it takes as the collection's (`held`), so that
        // `held` is `dest`'s length once the merge is done.
        let gathered = self.taker.gather(&mut queue, dest, cut, true);
        // Dead slots are empty now (unless they hold values stamped after
        // the cut), and nothing can reach them any more.
        queue.remove_dead(gathered != Ok(false));
        drop(queue);
        self.taker.merge(dest, cut);
        if let Err(needed) = gathered {
            // `dest` could not grow for the rest: everything is consistent
            // (what was taken is appended, the rest queued), so report it
            // as `Vec::reserve` does (capacity overflow, or the allocation
            // error handler). If the room can be had by now, the rest
            // simply waits for the next commit.
            dest.reserve(needed);
        }
    }

    /// Producers' pushes not yet taken.
    pub(crate) fn len(&self) -> usize {
        self.shared.lock().scan().0
    }

    /// Empties every slot and publishes `owned`: both free room, so
    /// producers blocked for it are woken. The values are dropped after
    /// the lock is released (their `Drop` is user code).
    pub(crate) fn clear(&mut self, owned: usize) {
        let mut items = Vec::new();
        {
            let mut queue = self.shared.lock();
            // The values leave the slots: their room goes to `held`, which
            // the publication then lowers to `owned`.
            let gathered = self.taker.gather(&mut queue, &mut items, None, false);
            debug_assert_eq!(gathered, Ok(false), "a clear takes everything");
            self.taker.merge(&mut items, None);
            queue.remove_dead(false);
            queue.publish(owned);
        }
        drop(items);
    }

    /// Publishes the collection's exact count `owned`, handing back room a
    /// traversal freed or reserved.
    pub(crate) fn publish(&self, owned: usize) {
        drop(self.sync(owned));
    }

    /// The owner's own push into a bounded collection holding `owned`
    /// elements: whether there is room for one more, counting the slots;
    /// if so the new element is counted at once.
    pub(crate) fn reserve_one(&self, owned: usize) -> bool {
        let mut queue = self.sync(owned);
        if self.shared.take_room(1) == 0 {
            return false;
        }
        queue.held += 1;
        true
    }

    /// Before a traversal of a bounded collection holding `owned`
    /// elements: takes all the room (producers find the collection full
    /// until it is published again) and returns the maximum length the
    /// traversal may reach (visible + its pushes).
    pub(crate) fn reserve_for_pass(&self, owned: usize) -> usize {
        let mut queue = self.sync(owned);
        let taken = self.shared.counters.room.swap(0, SeqCst);
        queue.held += taken;
        queue.held
    }

    /// Changes the bound to `max` (`usize::MAX`: unbounded) if the
    /// collection's `owned` elements plus the values and permits in the
    /// slots fit under it, checked and installed while the control lock
    /// and every slot's are held: no push or permit can slip in between.
    /// Returns whether it did. Producers blocked for room re-check at once.
    pub(crate) fn set_max(&self, max: usize, owned: usize) -> bool {
        let mut queue = self.shared.lock();
        {
            let guards: Vec<MutexGuard<'_, SlotState<T>>> =
                queue.slots.iter().map(|slot| lock(&slot.state)).collect();
            let in_slots = guards
                .iter()
                .fold(0usize, |n, s| n.saturating_add(s.items.len() + s.reserved));
            if in_slots.saturating_add(owned) > max {
                return false;
            }
            self.shared.flags.max.store(max, Relaxed);
            if max != usize::MAX {
                self.shared
                    .counters
                    .room
                    .store(max - owned - in_slots, SeqCst);
            }
        }
        // Pushes never read `held` (it is under the control lock, still
        // held): the slots can be unlocked first.
        queue.held = if max == usize::MAX { 0 } else { owned };
        queue.wake_producers();
        true
    }

    /// Refuses all later pushes; what is queued stays for the next commit.
    /// Wakes producers blocked on a full collection (they get their value
    /// back) and consumers (nothing more can arrive).
    pub(crate) fn close(&self) {
        self.shared.lock().close();
    }

    /// Closes and takes everything queued, in order, for the last time
    /// (the collection is dropped or taken apart): permits still
    /// outstanding drop their value when used.
    pub(crate) fn close_and_take(&mut self) -> Vec<T> {
        let shared = &*self.shared;
        let mut queue = shared.lock();
        queue.close();
        shared.flags.gone.store(true, SeqCst);
        let mut items = Vec::new();
        let gathered = self.taker.gather(&mut queue, &mut items, None, false);
        debug_assert_eq!(gathered, Ok(false), "taking everything needs no room");
        // Read after every slot was locked: at or after every stamp taken.
        let now =
            (queue.order == ProducerOrder::Arrival).then(|| shared.counters.clock.load(Relaxed));
        self.taker.merge(&mut items, now);
        queue.remove_dead(false);
        items
    }

    /// How commits order producers' values.
    pub(crate) fn order(&self) -> ProducerOrder {
        self.shared.lock().order
    }

    /// Changes how commits order producers' values, under the control
    /// lock and each slot's in turn. Values queued when arrival order
    /// starts keep the per-producer order among themselves (each slot's
    /// get a fresh stamp, in registry order) and come before every later
    /// push; values queued when it ends lose their stamps.
    pub(crate) fn set_order(&self, order: ProducerOrder) {
        let mut queue = self.shared.lock();
        if queue.order == order {
            return;
        }
        let arrival = order == ProducerOrder::Arrival;
        queue.order = order;
        for slot in &queue.slots {
            let mut state = lock(&slot.state);
            state.runs.clear();
            state.run_open = false;
            state.arrival = arrival;
            if arrival && !state.items.is_empty() {
                // One run, the head, covers every value.
                let stamp = self
                    .shared
                    .counters
                    .clock
                    .fetch_add(1, Relaxed)
                    .wrapping_add(1);
                state.epoch = stamp;
                state.head = stamp;
                state.run_open = true;
            }
        }
    }

    pub(crate) fn is_closed(&self) -> bool {
        self.shared.is_closed()
    }

    pub(crate) fn producer_count(&self) -> usize {
        self.shared.lock().producers
    }

    /// A new producer handle with its own slot; publishes `owned` first.
    pub(crate) fn producer(&self, owned: usize) -> Producer<T> {
        let slot = self.sync(owned).register();
        Producer {
            shared: Arc::clone(&self.shared),
            slot,
        }
    }

    /// Blocks until producers' pushes are queued, or nothing can arrive
    /// any more (closed, or no producer), or `timeout` passed. Publishes
    /// `owned` first, so producers blocked on room the collection has freed
    /// can go on and fill the queue.
    pub(crate) fn wait_pending(&self, owned: usize, timeout: Option<Duration>) -> Waited {
        // `None`: no deadline (also when `now + timeout` does not fit).
        let deadline = timeout.and_then(|t| Instant::now().checked_add(t));
        let mut queue = self.sync(owned);
        loop {
            // Armed before looking: a push the look misses wakes the wait.
            queue.arm_consumers();
            if let Some(outcome) = queue.wait_outcome() {
                queue.settle_consumers();
                return outcome;
            }
            let wait_for = match (timeout, deadline) {
                (Some(_), Some(deadline)) => {
                    let now = Instant::now();
                    if now >= deadline {
                        queue.settle_consumers();
                        return Waited::Timeout;
                    }
                    Some(deadline - now)
                }
                _ => None,
            };
            queue.waiting_consumers += 1;
            queue = queue.wait(&self.shared.pushed, wait_for);
            queue.waiting_consumers -= 1;
        }
    }
}

#[cfg(feature = "async")]
impl<T> ProducerLink<T> {
    /// The future of `BufferedCollection::wait_pending_async`; `ready`:
    /// the answer is known already (local pending elements).
    pub(crate) fn wait_pending_async(&self, owned: usize, ready: bool) -> WaitPendingFuture<'_, T> {
        WaitPendingFuture {
            shared: &self.shared,
            owned: Some(owned),
            ready,
            registration: None,
        }
    }
}

impl<T> Taker<T> {
    /// Moves the values due at `cut` (all of them without one) out of the
    /// slots into `self.parts`, one part per slot that had any, counting
    /// them as the collection's (`held`). With `room`, a slot's values
    /// leave it only once `dest` has room for them and all taken before.
    ///
    /// Returns whether a slot still held values when it was done with it
    /// (values stamped after the cut). If `dest` cannot grow, it stops
    /// there and returns how much room it asked for: the parts taken fit,
    /// the rest of the values stay in their slots.
    fn gather(
        &mut self,
        queue: &mut Queue<T>,
        dest: &mut Vec<T>,
        cut: Option<Stamp>,
        room: bool,
    ) -> Result<bool, usize> {
        debug_assert!(self.parts.is_empty() && self.first.is_none());
        // Grown before any value moves: the merge below cannot allocate.
        // (One slot needs none of it.)
        let slots = queue.slots.len();
        let several = slots > 1;
        if several {
            self.parts.reserve(slots);
            self.pool.reserve(slots);
            self.heap.reserve(slots);
        }
        let mut total = 0;
        let mut left_behind = false;
        for (i, slot) in queue.slots.iter().enumerate() {
            // The last slot's values, when nothing was taken before and
            // nothing is visible, become `dest` by a swap: no room needed.
            let swapped = dest.is_empty() && total == 0 && i + 1 == slots;
            loop {
                let mut state = lock_politely(&slot.state);
                let (items, runs) = state.due(cut);
                left_behind |= items < state.items.len();
                if items == 0 {
                    break;
                }
                if room && !swapped && dest.capacity() - dest.len() < total + items {
                    drop(state);
                    // Not under the slot's lock: its producer goes on
                    // pushing. It may push more meanwhile: look again.
                    if dest.try_reserve(total + items).is_err() {
                        // What was taken fits; the rest stays queued.
                        return Err(total + items);
                    }
                    continue;
                }
                let mut part = self
                    .pool
                    .pop()
                    .unwrap_or_else(|| core::mem::take(&mut self.spare));
                // The only moment this holds the producer up.
                state.take_into(items, runs, &mut part);
                drop(state);
                if several {
                    self.parts.push(part);
                } else {
                    self.first = Some(part);
                }
                // The taken values now count as the collection's.
                queue.held += items;
                total += items;
                break;
            }
        }
        Ok(left_behind)
    }

    /// Appends the gathered parts to `dest`: merged by stamp (arrival
    /// order, `now` at or after every stamp), else in registry order. The
    /// parts' emptied buffers go back to the pool.
    fn merge(&mut self, dest: &mut Vec<T>, now: Option<Stamp>) {
        if let Some(mut part) = self.first.take() {
            if dest.is_empty() {
                core::mem::swap(dest, &mut part.items);
            } else {
                dest.append(&mut part.items);
            }
            self.recycle(part);
            return;
        }
        let parts = &mut self.parts;
        match (parts.len(), now) {
            (0, _) => {}
            (1, _) if dest.is_empty() => core::mem::swap(dest, &mut parts[0].items),
            (_, Some(now)) => {
                // Oldest first run first; a slot's runs are in stamp order
                // and no two slots share a stamp.
                parts.sort_unstable_by_key(|part| Reverse(part.age(now, true)));
                let interleaved = parts
                    .windows(2)
                    .any(|w| w[0].age(now, false) < w[1].age(now, true));
                if interleaved {
                    merge_runs(parts, &mut self.heap, dest, now);
                } else {
                    for part in parts.iter_mut() {
                        dest.append(&mut part.items);
                    }
                }
            }
            (_, None) => {
                for part in parts.iter_mut() {
                    dest.append(&mut part.items);
                }
            }
        }
        while let Some(part) = self.parts.pop() {
            self.recycle(part);
        }
    }

    /// Keeps an emptied part's buffers for the next commit (the pool has
    /// room: grown before the commit took anything).
    fn recycle(&mut self, mut part: Part<T>) {
        debug_assert!(part.items.is_empty());
        part.runs.clear();
        if self.spare.items.capacity() == 0 {
            self.spare = part;
        } else {
            self.pool.push(part);
        }
    }
}

/// Parts merged by a linear scan for the newest last run, with their
/// runs' ages on the stack; more go through a heap (see [`merge_runs`]).
const SCANNED_PARTS: usize = 8;

/// Appends the runs of `parts` to `dest` in stamp order, `now` at or
/// after every stamp; `dest` has room for all of them (nothing allocates).
///
/// Each part's runs are taken from its end (no values shift), newest run
/// first, each reversed; one reversal of everything appended then puts
/// the runs oldest first and every run back in its order. The part whose
/// last run is newest is found by comparing two parts, by a scan of up to
/// [`SCANNED_PARTS`], or through a heap: O(n log k) for n values in k
/// parts.
fn merge_runs<T>(
    parts: &mut [Part<T>],
    heap: &mut BinaryHeap<Reverse<(Stamp, usize)>>,
    dest: &mut Vec<T>,
    now: Stamp,
) {
    let base = dest.len();
    let k = parts.len();
    if k <= SCANNED_PARTS {
        // Ages of the parts' last runs; a spent part's is `Stamp::MAX`,
        // which no age reaches (every stamp is at most half the clock's
        // range before `now`).
        let mut ages = [Stamp::MAX; SCANNED_PARTS];
        for (age, part) in ages.iter_mut().zip(parts.iter()) {
            *age = part.age(now, false);
        }
        loop {
            let mut newest = 0;
            for i in 1..k {
                if ages[i] < ages[newest] {
                    newest = i;
                }
            }
            if ages[newest] == Stamp::MAX {
                break;
            }
            let part = &mut parts[newest];
            part.move_last_run(dest);
            ages[newest] = if part.items.is_empty() {
                Stamp::MAX
            } else {
                part.age(now, false)
            };
        }
    } else {
        debug_assert!(heap.is_empty() && heap.capacity() >= k);
        heap.extend(
            parts
                .iter()
                .enumerate()
                .map(|(i, part)| Reverse((part.age(now, false), i))),
        );
        while let Some(Reverse((_, i))) = heap.pop() {
            let part = &mut parts[i];
            part.move_last_run(dest);
            if !part.items.is_empty() {
                heap.push(Reverse((part.age(now, false), i)));
            }
        }
    }
    dest[base..].reverse();
}

/// How [`ProducerLink::wait_pending`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Waited {
    /// Producers' pushes are queued.
    Pending,
    /// Nothing queued, and nothing can arrive: closed (no permit
    /// outstanding), or no producer.
    Disconnected,
    /// Nothing queued, and nothing can arrive until the waiting collection
    /// frees room: it is bounded and full, no permit is outstanding, and
    /// a producer is blocked for room.
    Full,
    /// The timeout passed first.
    Timeout,
}

impl Waited {
    /// The answer of a wait without a timeout.
    pub(crate) fn into_result(self) -> Result<(), WaitError> {
        match self {
            Waited::Pending => Ok(()),
            Waited::Disconnected => Err(WaitError::Disconnected),
            Waited::Full => Err(WaitError::Full),
            Waited::Timeout => unreachable!("a wait without a timeout timed out"),
        }
    }
}

impl<T> Drop for ProducerLink<T> {
    fn drop(&mut self) {
        // Queued elements are dropped outside the lock, exactly once.
        drop(self.close_and_take());
    }
}

/// A handle that pushes into a [`BufferedCollection`](crate::BufferedCollection)'s
/// pending side from any thread.
///
/// `Send + Sync` when `T: Send`. Elements pushed through producers become
/// visible at the next [`commit`](crate::BufferedCollection::commit), after
/// the collection's own pending pushes.
///
/// # Order: as the pushes arrived
///
/// A commit takes every push that returned before the commit started,
/// losing and duplicating nothing, and by default keeps the order of
/// arrival, as channels do: a push that returned before another push
/// started comes first, whichever handles and threads made them (see
/// [`ProducerOrder`]). A collection set to
/// [`ProducerOrder::PerProducer`] appends each handle's pushes together,
/// handles in the order they were made: faster when many threads push at
/// once and only each thread's own order matters.
///
/// # One clone per thread
///
/// [`Clone`] gives the clone a buffer of its own (one 256-byte allocation,
/// plus the buffer's capacity), so pushes through different clones never
/// wait for each other (in arrival order they share only the clock, read
/// by every push and written when pushes through different handles
/// interleave): give each thread its own clone. A handle that is dropped
/// leaves its pushes for the next commit.
///
/// After the collection is [closed](crate::BufferedCollection::close) or
/// dropped, every push hands the value back. On a
/// [bounded](crate::BufferedCollection::bounded) collection that is full,
/// [`push`](Producer::push) blocks until there is room and
/// [`try_push`](Producer::try_push) hands the value back. Live handles are
/// counted ([`producer_count`](crate::BufferedCollection::producer_count)),
/// so the collection can tell when the last one is gone
/// ([`wait_pending`](crate::BufferedCollection::wait_pending)).
///
/// # Wake-ups
///
/// The first push after a wait started wakes the collection's waits; the
/// last handle leaving and a close wake them too. A push when nobody waits
/// touches no condition variable and no waker list. Producers blocked for
/// room are woken whenever room is freed (see
/// [`bounded`](crate::BufferedCollection::bounded)), when the bound
/// changes and on a close. Waiting threads and tasks are woken after the
/// queue's lock is released, so an executor's waker may look at the queue
/// (or push into it) from `wake`; a waker whose `wake` panics does not
/// fail the operation that woke it (the panic hook reports the panic) and
/// does not keep the other waiters asleep.
///
/// # Examples
///
/// ```
/// use read_write_collection::BufferedCollection;
///
/// let mut events = BufferedCollection::new();
/// let producer = events.producer();
/// let thread = std::thread::spawn(move || {
///     for i in 0..3 {
///         producer.push(i).unwrap();
///     }
/// });
/// thread.join().unwrap();
/// events.commit();
/// assert_eq!(events.as_slice(), [0, 1, 2]);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub struct Producer<T> {
    shared: Arc<Shared<T>>,
    /// This handle's buffer (see the module docs).
    slot: Arc<Slot<T>>,
}

/// Why a push without waiting did not land.
enum Missed {
    Closed,
    Full,
}

impl<T> Producer<T> {
    /// Pushes `value` if that can be done without waiting: the fast path of
    /// every push. Locks only this handle's slot (and the control lock
    /// only to wake a waiting consumer, after unlocking the slot).
    #[inline]
    fn push_now(&self, value: T) -> Result<(), (Missed, T)> {
        let mut value = Some(value);
        match self.push_into_slot(&mut value) {
            Ok(()) => {
                self.shared.after_push();
                Ok(())
            }
            Err(missed) => Err((missed, value.expect("a missed push keeps its value"))),
        }
    }

    /// Moves `value` (`Some`) into this handle's slot, under the slot's
    /// lock only, if the collection is open and (bounded) has room; on a
    /// miss the value stays in `value`. Waking a waiting consumer is the
    /// caller's, once the slot is unlocked.
    #[inline]
    fn push_into_slot(&self, value: &mut Option<T>) -> Result<(), Missed> {
        let mut slot = lock(&self.slot.state);
        if self.shared.is_closed() {
            return Err(Missed::Closed);
        }
        // Grown before room is taken: if this panics (capacity overflow),
        // nothing changed. Room for a run is kept ready too: whether this
        // push opens one is known only once the clock is read, after the
        // room is taken (on a bounded queue the room's compare-and-swap
        // has fetched the clock's line by then).
        slot.items.reserve(1);
        if slot.arrival && slot.runs.len() == slot.runs.capacity() {
            slot.runs.reserve(1);
        }
        if self.shared.take_room(1) == 0 {
            return Err(Missed::Full);
        }
        let run = slot.stamp(&self.shared.counters.clock);
        slot.open(run);
        slot.items.extend(value.take());
        Ok(())
    }

    /// Locks this handle's slot and takes room for one value (bounded), if
    /// the collection is open and has it: a permit's reservation, filled
    /// later by [`push_reserved`](Self::push_reserved).
    #[cfg(feature = "async")]
    fn lock_with_room(&self) -> Result<MutexGuard<'_, SlotState<T>>, Missed> {
        let slot = lock(&self.slot.state);
        if self.shared.is_closed() {
            return Err(Missed::Closed);
        }
        if self.shared.take_room(1) == 0 {
            return Err(Missed::Full);
        }
        Ok(slot)
    }

    /// After a push found no room: under the control lock (room grows only
    /// under it, and a close is set under it), waits until room or a close
    /// appears (at once if it did meanwhile). The caller tries again: the
    /// room may have gone to another push by then.
    /// With a `deadline`, returns `false` if it passed first.
    #[cold]
    fn wait_for_room(&self, deadline: Option<Instant>) -> bool {
        if self.snooze_for_room() {
            return true;
        }
        let mut queue = self.shared.lock();
        let mut announced = false;
        // Stays registered (and locked, but while it sleeps) until room or
        // a close appears: a wait that returned only to deliver this
        // section's wake-ups loops here, so a consumer never sees it
        // unregistered between two sleeps. Each time a push starts to wait
        // here it wakes the consumers once: one that looked while this push
        // was between two waits (room appeared and another push took it)
        // learns that it is blocked again.
        while !self.shared.is_closed() && !self.shared.has_room() {
            let timeout = match deadline {
                Some(deadline) => {
                    let now = Instant::now();
                    if now >= deadline {
                        return false;
                    }
                    Some(deadline - now)
                }
                None => None,
            };
            queue.waiting_producers += 1;
            if !announced {
                announced = true;
                queue.announce_blocked_producer();
            }
            queue = queue.wait(&self.shared.room_freed, timeout);
            queue.waiting_producers -= 1;
        }
        true
    }

    /// Before a push sleeps for room: an owner that commits in a loop frees
    /// room within microseconds, and a sleep and a wake-up cost more than
    /// that, so first spin a little and then yield a few times, looking
    /// for room or a close (as crossbeam's channels back off before they
    /// park). Returns whether either appeared. (Not under loom: a spin
    /// there only multiplies the schedules.)
    fn snooze_for_room(&self) -> bool {
        #[cfg(not(all(test, loom)))]
        for step in 0..SNOOZE_STEPS {
            if step < SPIN_STEPS {
                for _ in 0..1u32 << step {
                    core::hint::spin_loop();
                }
            } else {
                std::thread::yield_now();
            }
            if self.shared.is_closed() || self.shared.has_room() {
                return true;
            }
        }
        false
    }

    /// Adds `value` to the collection's pending side. On a full
    /// [bounded](crate::BufferedCollection::bounded) collection, blocks
    /// until there is room or the collection is closed (see
    /// [`bounded`](crate::BufferedCollection::bounded) for when freed room
    /// reaches producers).
    /// Never blocks on an unbounded collection.
    ///
    /// Do not call it from the thread that owns a full bounded collection:
    /// nothing would free room.
    ///
    /// # Errors
    ///
    /// [`ProducerClosed`] holding `value` if the collection has been
    /// closed or dropped (also when that happens while the push waits for
    /// room).
    ///
    /// # Panics
    ///
    /// If the queue cannot grow (capacity overflow, as `Vec::push`).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::new();
    /// let p = c.producer();
    /// p.push("hello").unwrap();
    /// assert_eq!(c.pending_len(), 1);
    /// c.close();
    /// assert_eq!(p.push("late").unwrap_err().into_inner(), "late");
    /// c.commit();
    /// assert_eq!(c.as_slice(), ["hello"]);
    /// ```
    pub fn push(&self, value: T) -> Result<(), ProducerClosed<T>> {
        let mut value = value;
        loop {
            match self.push_now(value) {
                Ok(()) => return Ok(()),
                Err((Missed::Closed, value)) => return Err(ProducerClosed { value }),
                Err((Missed::Full, back)) => value = back,
            }
            self.wait_for_room(None);
        }
    }

    /// Like [`push`](Producer::push), but on a full
    /// [bounded](crate::BufferedCollection::bounded) collection waits at
    /// most `timeout` for room, as crossbeam-channel's `send_timeout`. A
    /// timeout too large for the clock waits without a deadline. Never
    /// waits on an unbounded collection.
    ///
    /// # Errors
    ///
    /// [`PushTimeoutError::Timeout`] holding `value` if no room appeared in
    /// time; [`PushTimeoutError::Closed`] holding it if the collection has
    /// been closed or dropped (also when that happens while the push
    /// waits).
    ///
    /// # Panics
    ///
    /// If the queue cannot grow (capacity overflow, as `Vec::push`).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use read_write_collection::{BufferedCollection, PushTimeoutError};
    ///
    /// let mut c = BufferedCollection::bounded(1);
    /// let p = c.producer();
    /// assert_eq!(p.push_timeout(1, Duration::from_millis(1)), Ok(()));
    /// // Full: gives up after the timeout and hands the value back.
    /// let late = p.push_timeout(2, Duration::from_millis(1));
    /// assert_eq!(late, Err(PushTimeoutError::Timeout(2)));
    /// c.commit();
    /// c.clear(); // room again
    /// assert_eq!(p.push_timeout(2, Duration::from_millis(1)), Ok(()));
    /// ```
    pub fn push_timeout(&self, value: T, timeout: Duration) -> Result<(), PushTimeoutError<T>> {
        // `None`: no deadline (`now + timeout` does not fit).
        let deadline = Instant::now().checked_add(timeout);
        let mut value = value;
        loop {
            match self.push_now(value) {
                Ok(()) => return Ok(()),
                Err((Missed::Closed, value)) => return Err(PushTimeoutError::Closed(value)),
                Err((Missed::Full, back)) => value = back,
            }
            if !self.wait_for_room(deadline) {
                // The deadline passed: one last look, so that room that
                // appeared at the deadline is not refused.
                return match self.push_now(value) {
                    Ok(()) => Ok(()),
                    Err((Missed::Closed, value)) => Err(PushTimeoutError::Closed(value)),
                    Err((Missed::Full, value)) => Err(PushTimeoutError::Timeout(value)),
                };
            }
        }
    }

    /// The async form of [`push`](Producer::push): a future that adds
    /// `value` to the collection's pending side, waiting (without blocking
    /// the thread) for room in a full
    /// [bounded](crate::BufferedCollection::bounded) collection, and
    /// resolves to what `push` returns. No runtime is assumed: any executor
    /// can poll it.
    ///
    /// Cancel safety: dropping the future before it resolves drops `value`
    /// (it was not pushed); see [`PushFuture`].
    ///
    /// # Errors
    ///
    /// [`ProducerClosed`] holding `value` if the collection has been
    /// closed or dropped (also while the future waits for room).
    ///
    /// # Panics
    ///
    /// If the queue cannot grow (capacity overflow, as `Vec::push`), or if
    /// polled again after it resolved.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    /// # // A minimal executor: the future below never has to wait.
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     struct Noop;
    /// #     impl std::task::Wake for Noop {
    /// #         fn wake(self: std::sync::Arc<Self>) {}
    /// #     }
    /// #     let waker = std::task::Waker::from(std::sync::Arc::new(Noop));
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(&waker);
    /// #     loop {
    /// #         if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; }
    /// #     }
    /// # }
    ///
    /// let mut c = BufferedCollection::new();
    /// let p = c.producer();
    /// block_on(p.push_async("hello")).unwrap();
    /// c.close();
    /// let back = block_on(p.push_async("late")).unwrap_err();
    /// assert_eq!(back.into_inner(), "late");
    /// c.commit();
    /// assert_eq!(c.as_slice(), ["hello"]);
    /// ```
    #[cfg(feature = "async")]
    #[cfg_attr(docsrs, doc(cfg(feature = "async")))]
    pub fn push_async(&self, value: T) -> PushFuture<'_, T> {
        PushFuture {
            producer: self,
            value: Some(value),
            registration: None,
        }
    }

    /// Waits (without blocking the thread) for room for one value in a
    /// full [bounded](crate::BufferedCollection::bounded) collection and
    /// resolves to a [`PushPermit`] holding that room: its
    /// [`push`](PushPermit::push) cannot fail, and dropping it unused gives
    /// the room back. On an unbounded collection it resolves at once. As
    /// tokio's `Sender::reserve`.
    ///
    /// Cancel safety: cancel safe. Dropping the future before it resolves
    /// takes nothing (no room, no value: the value is not handed over until
    /// the permit is used), so a task that must not lose an event reserves
    /// first and builds or moves the event only once it holds the permit.
    ///
    /// A permit taken before a [`close`](crate::BufferedCollection::close)
    /// still pushes (the room was granted before the close; the next commit
    /// takes the value), and a wait for pending elements does not report
    /// the queue disconnected while a permit is outstanding. A permit's
    /// value arrives when [`push`](PushPermit::push) is called, not when
    /// the room was reserved. A permit used
    /// after the collection was dropped or taken apart
    /// ([`into_parts`](crate::BufferedCollection::into_parts)) drops its
    /// value at once, as tokio's `Permit::send` does once the receiver is
    /// gone: nothing could take it any more. An owner that must see every
    /// value closes, then waits until
    /// [`wait_pending`](crate::BufferedCollection::wait_pending) returns
    /// [`WaitError::Disconnected`] (which it does only once no permit is
    /// outstanding), before it drops the collection.
    ///
    /// # Errors
    ///
    /// [`ProducerClosed`] if the collection has been closed or dropped
    /// (also while the future waits for room).
    ///
    /// # Panics
    ///
    /// If polled again after it resolved.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     struct Noop;
    /// #     impl std::task::Wake for Noop {
    /// #         fn wake(self: std::sync::Arc<Self>) {}
    /// #     }
    /// #     let waker = std::task::Waker::from(std::sync::Arc::new(Noop));
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(&waker);
    /// #     loop {
    /// #         if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; }
    /// #     }
    /// # }
    ///
    /// let mut c = BufferedCollection::bounded(1);
    /// let p = c.producer();
    /// let permit = block_on(p.reserve_async()).unwrap();
    /// assert!(p.try_push(7).is_err()); // the permit holds the only room
    /// permit.push(5); // cannot fail
    /// c.commit();
    /// assert_eq!(c.as_slice(), [5]);
    ///
    /// c.clear();
    /// drop(block_on(p.reserve_async()).unwrap()); // unused: room given back
    /// assert_eq!(p.try_push(6), Ok(()));
    /// ```
    #[cfg(feature = "async")]
    #[cfg_attr(docsrs, doc(cfg(feature = "async")))]
    pub fn reserve_async(&self) -> ReserveFuture<'_, T> {
        ReserveFuture {
            producer: self,
            done: false,
            registration: None,
        }
    }

    /// [`reserve_async`](Producer::reserve_async) for a permit that owns
    /// its handle, as tokio's `Sender::reserve_owned`: the future and the
    /// [`OwnedPushPermit`] it resolves to borrow nothing, so they can move
    /// into a spawned task; the permit's [`push`](OwnedPushPermit::push)
    /// cannot fail and hands the producer back.
    ///
    /// Cancel safety: cancel safe for the room (as `reserve_async`), but
    /// dropping the future drops the producer it owns; clone the producer
    /// first to keep one.
    ///
    /// # Errors
    ///
    /// [`ProducerClosed`] if the collection has been closed or dropped
    /// (also while the future waits for room); the producer is dropped
    /// then, as tokio's `reserve_owned` drops its sender.
    ///
    /// # Panics
    ///
    /// If polled again after it resolved.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     struct Noop;
    /// #     impl std::task::Wake for Noop {
    /// #         fn wake(self: std::sync::Arc<Self>) {}
    /// #     }
    /// #     let waker = std::task::Waker::from(std::sync::Arc::new(Noop));
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(&waker);
    /// #     loop {
    /// #         if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; }
    /// #     }
    /// # }
    ///
    /// let mut c = BufferedCollection::bounded(1);
    /// let reserve = c.producer().reserve_owned_async();
    /// // `reserve` borrows nothing: it could move into a spawned task.
    /// let permit = block_on(reserve).unwrap();
    /// let producer = permit.push(5); // cannot fail; the handle comes back
    /// c.commit();
    /// assert_eq!(c.as_slice(), [5]);
    /// c.clear();
    /// assert_eq!(producer.try_push(6), Ok(()));
    /// ```
    #[cfg(feature = "async")]
    #[cfg_attr(docsrs, doc(cfg(feature = "async")))]
    pub fn reserve_owned_async(self) -> ReserveOwnedFuture<T> {
        ReserveOwnedFuture {
            producer: Some(self),
            registration: None,
        }
    }

    /// Adds `value` to the collection's pending side if that can be done
    /// without waiting.
    ///
    /// # Errors
    ///
    /// [`TryPushError::Full`] holding `value` if the collection is
    /// [bounded](crate::BufferedCollection::bounded) and full;
    /// [`TryPushError::Closed`] holding it if the collection has been closed
    /// or dropped.
    ///
    /// # Panics
    ///
    /// If the queue cannot grow (capacity overflow, as `Vec::push`).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{BufferedCollection, TryPushError};
    ///
    /// let mut c = BufferedCollection::bounded(2);
    /// let p = c.producer();
    /// assert_eq!(p.try_push(1), Ok(()));
    /// assert_eq!(p.try_push(2), Ok(()));
    /// assert_eq!(p.try_push(3), Err(TryPushError::Full(3)));
    /// c.commit();
    /// c.traverse(|e| { e.remove(); }); // frees the room
    /// assert_eq!(p.try_push(3), Ok(()));
    /// drop(c);
    /// assert_eq!(p.try_push(4), Err(TryPushError::Closed(4)));
    /// ```
    pub fn try_push(&self, value: T) -> Result<(), TryPushError<T>> {
        match self.push_now(value) {
            Ok(()) => Ok(()),
            Err((Missed::Closed, value)) => Err(TryPushError::Closed(value)),
            Err((Missed::Full, value)) => Err(TryPushError::Full(value)),
        }
    }

    /// Moves the elements of `batch` to the collection's pending side, in
    /// order, under one lock, as many as there is room for; the rest stay in
    /// `batch` (the elements that did not fit, in order). `batch` keeps its
    /// allocation either way, so it can be reused for the next batch.
    ///
    /// # Errors
    ///
    /// [`TryPushError::Full`] if the collection is
    /// [bounded](crate::BufferedCollection::bounded) and not everything
    /// fitted (a prefix may have been pushed; `batch` holds the rest);
    /// [`TryPushError::Closed`] if the collection has been closed or dropped
    /// (nothing was pushed).
    ///
    /// # Panics
    ///
    /// If the queue cannot grow (capacity overflow); nothing is pushed
    /// then and `batch` is unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{BufferedCollection, TryPushError};
    ///
    /// let mut c = BufferedCollection::bounded(3);
    /// let p = c.producer();
    /// let mut batch = vec![1, 2, 3, 4, 5];
    /// assert_eq!(p.try_push_batch(&mut batch), Err(TryPushError::Full(())));
    /// assert_eq!(batch, [4, 5]); // what did not fit
    /// c.commit();
    /// assert_eq!(c.as_slice(), [1, 2, 3]);
    /// ```
    pub fn try_push_batch(&self, batch: &mut Vec<T>) -> Result<(), TryPushError<()>> {
        match self.move_batch(batch) {
            Err(Missed::Closed) => Err(TryPushError::Closed(())),
            Ok(()) if batch.is_empty() => Ok(()),
            _ => Err(TryPushError::Full(())),
        }
    }

    /// Moves the elements of `batch` to the collection's pending side, in
    /// order: all of them under one lock when there is room, else as many
    /// as fit, then it waits for room (as [`push`](Producer::push)) and goes
    /// on. `batch` is empty on success and keeps its allocation.
    ///
    /// # Errors
    ///
    /// [`ProducerClosed`] if the collection has been closed or dropped
    /// before every element was pushed; `batch` holds the elements that were
    /// not pushed, in order.
    ///
    /// # Panics
    ///
    /// If the queue cannot grow (capacity overflow); `batch` then holds
    /// every element not yet pushed.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::new();
    /// let p = c.producer();
    /// let mut batch = vec![1, 2, 3];
    /// p.push_batch(&mut batch).unwrap();
    /// assert!(batch.is_empty());
    /// c.close();
    /// batch.push(4);
    /// assert!(p.push_batch(&mut batch).is_err());
    /// assert_eq!(batch, [4]); // handed back
    /// c.commit();
    /// assert_eq!(c.as_slice(), [1, 2, 3]);
    /// ```
    pub fn push_batch(&self, batch: &mut Vec<T>) -> Result<(), ProducerClosed<()>> {
        loop {
            if let Err(Missed::Closed) = self.move_batch(batch) {
                return Err(ProducerClosed { value: () });
            }
            if batch.is_empty() {
                return Ok(());
            }
            self.wait_for_room(None);
        }
    }

    /// Moves the longest prefix of `batch` that fits into this handle's
    /// slot, under its lock; `Err(Closed)` (nothing moved) after a close.
    fn move_batch(&self, batch: &mut Vec<T>) -> Result<(), Missed> {
        let mut slot = lock(&self.slot.state);
        // Checked first: an empty batch on a closed collection says so.
        if self.shared.is_closed() {
            return Err(Missed::Closed);
        }
        if batch.is_empty() {
            return Ok(());
        }
        let bounded = self.shared.flags.max.load(Relaxed) != usize::MAX;
        let wanted = if bounded {
            batch.len().min(self.shared.counters.room.load(Relaxed))
        } else {
            batch.len()
        };
        if wanted == 0 {
            return Ok(());
        }
        // One stamp for the whole batch: it is one push.
        let run = slot.stamp(&self.shared.counters.clock);
        // Grown before room is taken and before anything moves: if this
        // panics, nothing has left `batch`. (An unbounded push of a whole
        // batch into an empty slot swaps buffers below and needs no room.)
        if bounded || !slot.items.is_empty() {
            slot.items.reserve(wanted);
        }
        if slot.needs_run_room(run) {
            slot.runs.reserve(1);
        }
        let n = self.shared.take_room(wanted);
        if n == 0 {
            return Ok(());
        }
        slot.open(run);
        if n == batch.len() && slot.items.is_empty() {
            // Everything fits in an empty slot: hand over the buffer and
            // take the slot's (empty, with its capacity) in exchange.
            core::mem::swap(&mut slot.items, batch);
        } else {
            slot.items.extend(batch.drain(..n));
        }
        drop(slot);
        self.shared.after_push();
        Ok(())
    }

    /// Whether the collection has been closed or dropped (pushes will
    /// fail).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let c: BufferedCollection<u8> = BufferedCollection::new();
    /// let p = c.producer();
    /// assert!(!p.is_closed());
    /// drop(c);
    /// assert!(p.is_closed());
    /// ```
    pub fn is_closed(&self) -> bool {
        self.shared.is_closed()
    }
}

#[cfg(feature = "async")]
impl<T> Producer<T> {
    /// Under the control lock (room grows only under it, so a miss here
    /// registers before any room can appear): takes room for one value
    /// into a permit of this handle, or waits for it.
    fn poll_reserve(
        &self,
        cx: &mut Context<'_>,
        registration: &mut Option<Registration>,
    ) -> Poll<Result<(), ProducerClosed<()>>> {
        poll_registered(
            &self.shared,
            cx,
            registration,
            |queue| &mut queue.producer_wakers,
            |_queue| match self.lock_with_room() {
                Ok(mut slot) => {
                    slot.reserved += 1;
                    self.slot.permits.store(true, Relaxed);
                    Some(Ok(()))
                }
                Err(Missed::Closed) => Some(Err(ProducerClosed { value: () })),
                Err(Missed::Full) => None,
            },
            Locked::announce_blocked_producer,
            |_| {},
        )
    }

    /// A permit of this handle pushes `value` into the room it holds, or
    /// hands it back once the collection is gone (nothing would take it:
    /// the caller drops it, after giving up the permit). If growing the
    /// slot panics, nothing changed: the permit still holds its room.
    fn push_reserved(&self, value: T) -> Option<T> {
        let unread = {
            let mut slot = lock(&self.slot.state);
            // Under the slot's lock, which the collection's last look at
            // the slots takes after setting `gone`.
            if self.shared.flags.gone.load(SeqCst) {
                slot.reserved -= 1;
                Some(value)
            } else {
                let run = slot.stamp(&self.shared.counters.clock);
                slot.items.reserve(1);
                if slot.needs_run_room(run) {
                    slot.runs.reserve(1);
                }
                slot.reserved -= 1;
                slot.open(run);
                slot.items.push(value);
                None
            }
        };
        if unread.is_none() {
            self.shared.after_push();
        }
        unread
    }
}

#[cfg(feature = "async")]
impl<T> Producer<T> {
    /// Gives back the room of `n` unused permits of this handle.
    fn release_reserved(&self, n: usize) {
        let shared = &self.shared;
        let mut queue = shared.lock();
        {
            let mut slot = lock(&self.slot.state);
            debug_assert!(slot.reserved >= n);
            slot.reserved -= n;
        }
        if shared.flags.max.load(Relaxed) != usize::MAX {
            // Room grows under the control lock (see the module docs).
            shared.counters.room.fetch_add(n, SeqCst);
            queue.wake_producers();
        }
        if shared.is_closed() {
            // A wait may now see that nothing more can arrive.
            queue.wake_consumers();
        }
    }
}

impl<T> Clone for Producer<T> {
    /// A new handle with a buffer of its own (see
    /// [one clone per thread](Producer#one-clone-per-thread)).
    fn clone(&self) -> Self {
        let slot = self.shared.lock().register();
        Producer {
            shared: Arc::clone(&self.shared),
            slot,
        }
    }
}

impl<T> Drop for Producer<T> {
    fn drop(&mut self) {
        let mut queue = self.shared.lock();
        // A permit borrows its handle (or, owned, releases its room before
        // the handle it holds is dropped): permits of this handle still
        // counted now were forgotten (`mem::forget`). Their room would be
        // lost for good; it goes back. (Only a handle that took a permit
        // looks.)
        #[cfg(feature = "async")]
        if self.slot.permits.load(Relaxed) {
            let forgotten = core::mem::take(&mut lock(&self.slot.state).reserved);
            if forgotten > 0 {
                if self.shared.flags.max.load(Relaxed) != usize::MAX {
                    // Room grows under the control lock (module docs).
                    self.shared.counters.room.fetch_add(forgotten, SeqCst);
                    queue.wake_producers();
                }
                if self.shared.is_closed() {
                    queue.wake_consumers();
                }
            }
        }
        queue.producers -= 1;
        // Its values wait for the next commit, which removes the slot.
        self.slot.dead.store(true, Relaxed);
        queue.dead += 1;
        if queue.dead >= queue.sweep_at {
            queue.sweep();
        }
        if queue.producers == 0 {
            // The last producer leaving ends `wait_pending`.
            queue.wake_consumers();
        }
    }
}

impl<T> fmt::Debug for Producer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Producer")
            .field("closed", &self.is_closed())
            .finish_non_exhaustive()
    }
}

/// How a [`BufferedCollection`](crate::BufferedCollection)'s
/// [`commit`](crate::BufferedCollection::commit) orders the values that
/// different [`Producer`] handles pushed; set with
/// [`set_producer_order`](crate::BufferedCollection::set_producer_order).
///
/// Either way a commit takes every push that returned before the commit
/// started, keeps each handle's pushes in the order it made them, and loses
/// and duplicates nothing.
///
/// # Examples
///
/// ```
/// use read_write_collection::{BufferedCollection, ProducerOrder};
///
/// let mut events = BufferedCollection::new();
/// assert_eq!(events.producer_order(), ProducerOrder::Arrival); // the default
/// let (a, b) = (events.producer(), events.producer());
/// a.push("a1").unwrap();
/// b.push("b1").unwrap();
/// a.push("a2").unwrap();
/// events.commit();
/// assert_eq!(events.as_slice(), ["a1", "b1", "a2"]); // as they arrived
///
/// events.clear();
/// events.set_producer_order(ProducerOrder::PerProducer);
/// a.push("a1").unwrap();
/// b.push("b1").unwrap();
/// a.push("a2").unwrap();
/// events.commit();
/// assert_eq!(events.as_slice(), ["a1", "a2", "b1"]); // handle by handle
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ProducerOrder {
    /// The order of arrival, as channels keep it (std's `mpsc`,
    /// crossbeam-channel, tokio's `mpsc`): a push that returned before
    /// another push started is committed before it, whichever handles made
    /// them and whichever threads they ran on. Pushes that overlap in time
    /// come out in some order consistent with that.
    ///
    /// Cost: every push reads one shared clock, and a push that follows a
    /// push through another handle (or a commit) moves it on with one
    /// atomic read-modify-write, as a channel's send does; a commit merges
    /// the handles' values by their stamps, O(n log k) for n values from k
    /// handles, and copies nothing more than
    /// [`PerProducer`](ProducerOrder::PerProducer) when the handles pushed
    /// one after another.
    #[default]
    Arrival,
    /// Each handle's values together, handle after handle, in the order
    /// the handles were made: pushes through different handles are not
    /// interleaved in the order they arrived. A push touches nothing shared
    /// with other handles' pushes: the fastest order when many threads
    /// push at once and the order across threads does not matter.
    PerProducer,
}

/// The error of [`Producer::push`] after the collection was closed or
/// dropped: the value comes back.
///
/// # Examples
///
/// ```
/// use read_write_collection::BufferedCollection;
///
/// let c = BufferedCollection::new();
/// let p = c.producer();
/// drop(c);
/// let err = p.push(5).unwrap_err();
/// assert_eq!(err.to_string(), "the collection behind this producer was closed or dropped");
/// assert_eq!(err.into_inner(), 5);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub struct ProducerClosed<T> {
    value: T,
}

impl<T> ProducerClosed<T> {
    /// Returns the value that could not be pushed.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let c = BufferedCollection::new();
    /// let p = c.producer();
    /// drop(c);
    /// assert_eq!(p.push('x').unwrap_err().into_inner(), 'x');
    /// ```
    pub fn into_inner(self) -> T {
        self.value
    }
}

impl<T> From<ProducerClosed<T>> for TryPushError<T> {
    /// A closed collection as a [`TryPushError::Closed`].
    fn from(err: ProducerClosed<T>) -> Self {
        TryPushError::Closed(err.value)
    }
}

impl<T> fmt::Debug for ProducerClosed<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProducerClosed { .. }")
    }
}

impl<T> fmt::Display for ProducerClosed<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the collection behind this producer was closed or dropped")
    }
}

impl<T> std::error::Error for ProducerClosed<T> {}

/// The future returned by
/// [`BufferedCollection::wait_pending_async`](crate::BufferedCollection::wait_pending_async):
/// resolves to what
/// [`wait_pending`](crate::BufferedCollection::wait_pending) would return.
///
/// `Send` when `T: Send`. Dropping it before it resolves loses nothing
/// (cancel safe): it only waits, and what was pushed stays pending. A
/// dropped future takes its waker out of the queue, and a future polled
/// again with another task's waker replaces the one it registered: the
/// queue holds at most one waker per waiting future. Wakers are cloned
/// and woken outside the queue's locks (see [`Producer`]'s wake-ups).
#[cfg(feature = "async")]
#[cfg_attr(docsrs, doc(cfg(feature = "async")))]
#[must_use = "futures do nothing unless polled"]
pub struct WaitPendingFuture<'a, T> {
    shared: &'a Shared<T>,
    /// The collection's own count, published on the first poll (as
    /// `wait_pending` does before it sleeps).
    owned: Option<usize>,
    /// The collection had local pending elements: `true` at once.
    ready: bool,
    /// Where this future's waker is registered, if it is.
    registration: Option<Registration>,
}

#[cfg(feature = "async")]
impl<T> Future for WaitPendingFuture<'_, T> {
    type Output = Result<(), WaitError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        if this.ready {
            return Poll::Ready(Ok(()));
        }
        let shared = this.shared;
        let owned = &mut this.owned;
        poll_registered(
            shared,
            cx,
            &mut this.registration,
            |queue| &mut queue.consumer_wakers,
            |queue| {
                if let Some(owned) = owned.take() {
                    queue.publish(owned);
                }
                // Armed before looking: a push the look misses wakes the
                // task registered under this same lock.
                queue.arm_consumers();
                queue.wait_outcome().map(Waited::into_result)
            },
            |_| {},
            Locked::settle_consumers,
        )
    }
}

#[cfg(feature = "async")]
impl<T> Drop for WaitPendingFuture<'_, T> {
    /// A cancelled wait removes its waker.
    fn drop(&mut self) {
        if let Some(r) = self.registration.take() {
            let mut queue = self.shared.lock();
            let old = queue.consumer_wakers.deregister(r);
            queue.settle_consumers();
            drop(queue);
            drop(old);
        }
    }
}

#[cfg(feature = "async")]
impl<T> fmt::Debug for WaitPendingFuture<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WaitPendingFuture").finish_non_exhaustive()
    }
}

/// The future returned by [`Producer::push_async`]: resolves to what
/// [`Producer::push`] returns, waiting (without blocking a thread) for room
/// in a full [bounded](crate::BufferedCollection::bounded) collection.
///
/// `Send` when `T: Send`. Not cancel safe for the value: dropping the
/// future before it resolves drops the value it holds, which was not
/// pushed (once it has resolved to `Ok`, the value is in the queue). To
/// keep the value across a cancellation, wait for room with
/// [`reserve_async`](Producer::reserve_async) and push through the permit
/// (or use [`try_push`](Producer::try_push) and retry on
/// [`Full`](TryPushError::Full)). A dropped future takes its waker out of
/// the queue.
///
/// The value leaves the future only to be pushed or handed back: if the
/// task's waker panics while the future registers it (in `Waker::clone`),
/// the panic reaches the caller of `poll` and the value stays in the
/// future, to be pushed by a later poll.
#[cfg(feature = "async")]
#[cfg_attr(docsrs, doc(cfg(feature = "async")))]
#[must_use = "futures do nothing unless polled"]
pub struct PushFuture<'a, T> {
    producer: &'a Producer<T>,
    /// `None` once the future has resolved.
    value: Option<T>,
    /// Where this future's waker is registered, if it is.
    registration: Option<Registration>,
}

// The value is never pinned: the future only moves it out by value.
#[cfg(feature = "async")]
impl<T> Unpin for PushFuture<'_, T> {}

#[cfg(feature = "async")]
impl<T> Future for PushFuture<'_, T> {
    type Output = Result<(), ProducerClosed<T>>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        assert!(
            this.value.is_some(),
            "`PushFuture` polled after it resolved"
        );
        let producer = this.producer;
        let value = &mut this.value;
        if this.registration.is_none() {
            // The fast path, as `push`: only this handle's slot is locked.
            match producer.push_into_slot(value) {
                Ok(()) => {
                    producer.shared.after_push();
                    return Poll::Ready(Ok(()));
                }
                Err(Missed::Closed) => {
                    let value = value.take().expect("a missed push keeps its value");
                    return Poll::Ready(Err(ProducerClosed { value }));
                }
                // Full: look again under the control lock, and register.
                Err(Missed::Full) => {}
            }
        }
        poll_registered(
            &producer.shared,
            cx,
            &mut this.registration,
            |queue| &mut queue.producer_wakers,
            |queue| {
                // Under the control lock (room grows only under it, so a
                // miss here registers before any room can appear). The
                // value leaves the future only here, to be pushed or handed
                // back.
                match producer.push_into_slot(value) {
                    Ok(()) => {
                        // The control lock is held: wake from here.
                        if producer.shared.flags.consumers_waiting.load(SeqCst) {
                            queue.wake_consumers();
                        }
                        Some(Ok(()))
                    }
                    Err(Missed::Closed) => value.take().map(|value| Err(ProducerClosed { value })),
                    Err(Missed::Full) => None,
                }
            },
            Locked::announce_blocked_producer,
            |_| {},
        )
    }
}

#[cfg(feature = "async")]
impl<T> Drop for PushFuture<'_, T> {
    /// A cancelled push removes its waker (and drops its value, which was
    /// not pushed).
    fn drop(&mut self) {
        deregister(&self.producer.shared, &mut self.registration, |queue| {
            &mut queue.producer_wakers
        });
    }
}

#[cfg(feature = "async")]
impl<T> fmt::Debug for PushFuture<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PushFuture")
            .field("resolved", &self.value.is_none())
            .finish_non_exhaustive()
    }
}

/// The future returned by [`Producer::reserve_async`]: resolves to a
/// [`PushPermit`] once there is room for one value, or to
/// [`ProducerClosed`] after a close.
///
/// `Send` when `T: Send`. Cancel safe: it holds no value, and room is taken
/// only in the poll that resolves it (into the permit it returns), so
/// dropping it before it resolves gives nothing up. A dropped future takes
/// its waker out of the queue.
#[cfg(feature = "async")]
#[cfg_attr(docsrs, doc(cfg(feature = "async")))]
#[must_use = "futures do nothing unless polled"]
pub struct ReserveFuture<'a, T> {
    producer: &'a Producer<T>,
    done: bool,
    /// Where this future's waker is registered, if it is.
    registration: Option<Registration>,
}

#[cfg(feature = "async")]
impl<'a, T> Future for ReserveFuture<'a, T> {
    type Output = Result<PushPermit<'a, T>, ProducerClosed<()>>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        assert!(!this.done, "`ReserveFuture` polled after it resolved");
        let producer = this.producer;
        let result = producer.poll_reserve(cx, &mut this.registration);
        if result.is_ready() {
            this.done = true;
        }
        result.map(|reserved| reserved.map(|()| PushPermit { producer }))
    }
}

#[cfg(feature = "async")]
impl<T> Drop for ReserveFuture<'_, T> {
    /// A cancelled reservation removes its waker (it holds no room).
    fn drop(&mut self) {
        deregister(&self.producer.shared, &mut self.registration, |queue| {
            &mut queue.producer_wakers
        });
    }
}

#[cfg(feature = "async")]
impl<T> fmt::Debug for ReserveFuture<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReserveFuture")
            .field("resolved", &self.done)
            .finish_non_exhaustive()
    }
}

/// Room for one value in a [`BufferedCollection`](crate::BufferedCollection)'s
/// pending side, reserved by [`Producer::reserve_async`]:
/// [`push`](PushPermit::push) cannot fail, and dropping the permit unused
/// gives the room back (waking a producer blocked for it).
///
/// A permit counts against a [bounded](crate::BufferedCollection::bounded)
/// collection's maximum length while it is held, and a collection that was
/// closed does not report itself disconnected
/// ([`wait_pending`](crate::BufferedCollection::wait_pending) returning
/// [`WaitError::Disconnected`]) until every permit taken before the close
/// is used or dropped.
///
/// A permit that is forgotten (`mem::forget`) holds its room until its
/// [`Producer`] is dropped, which gives the room back (a permit borrows
/// its producer, so a producer that is dropped has no live permit). A
/// [`PushFuture`] that is forgotten while it waits for room counts as a
/// blocked producer until room is next freed: a wait meanwhile may answer
/// [`WaitError::Full`] at once.
///
/// # Examples
///
/// ```
/// use read_write_collection::BufferedCollection;
/// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     struct Noop;
/// #     impl std::task::Wake for Noop {
/// #         fn wake(self: std::sync::Arc<Self>) {}
/// #     }
/// #     let waker = std::task::Waker::from(std::sync::Arc::new(Noop));
/// #     let mut f = std::pin::pin!(f);
/// #     let mut cx = std::task::Context::from_waker(&waker);
/// #     loop {
/// #         if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; }
/// #     }
/// # }
///
/// let mut c = BufferedCollection::new();
/// let p = c.producer();
/// let permit = block_on(p.reserve_async()).unwrap();
/// c.close();
/// permit.push("reserved before the close"); // still lands
/// c.commit();
/// assert_eq!(c.as_slice(), ["reserved before the close"]);
/// ```
#[cfg(feature = "async")]
#[cfg_attr(docsrs, doc(cfg(feature = "async")))]
#[must_use = "a permit holds room until it is used or dropped"]
pub struct PushPermit<'a, T> {
    producer: &'a Producer<T>,
}

#[cfg(feature = "async")]
impl<T> PushPermit<'_, T> {
    /// Pushes `value` into the room this permit holds: it cannot fail (see
    /// the type docs for a close).
    ///
    /// # Panics
    ///
    /// If the queue cannot grow (capacity overflow, as `Vec::push`); the
    /// permit's room is given back then.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     struct Noop;
    /// #     impl std::task::Wake for Noop {
    /// #         fn wake(self: std::sync::Arc<Self>) {}
    /// #     }
    /// #     let waker = std::task::Waker::from(std::sync::Arc::new(Noop));
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(&waker);
    /// #     loop {
    /// #         if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; }
    /// #     }
    /// # }
    ///
    /// let mut c = BufferedCollection::bounded(2);
    /// let p = c.producer();
    /// block_on(p.reserve_async()).unwrap().push(1);
    /// block_on(p.reserve_async()).unwrap().push(2);
    /// c.commit();
    /// assert_eq!(c.as_slice(), [1, 2]);
    /// ```
    pub fn push(self, value: T) {
        let producer = self.producer;
        // If this panics (the slot cannot grow), the permit is still
        // here: its drop gives the room back.
        let unread = producer.push_reserved(value);
        // Its room is now the value's (or the collection is gone).
        core::mem::forget(self);
        // Dropped outside the lock, once the bookkeeping is done.
        drop(unread);
    }
}

#[cfg(feature = "async")]
impl<T> Drop for PushPermit<'_, T> {
    /// An unused permit gives its room back.
    fn drop(&mut self) {
        self.producer.release_reserved(1);
    }
}

#[cfg(feature = "async")]
impl<T> fmt::Debug for PushPermit<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PushPermit").finish_non_exhaustive()
    }
}

/// The future returned by [`Producer::reserve_owned_async`]: resolves to
/// an [`OwnedPushPermit`] once there is room for one value, or to
/// [`ProducerClosed`] after a close (the producer it owns is dropped then).
///
/// `Send` when `T: Send`, and `'static` when `T` is: it owns its producer.
/// Cancel safe for the room (it is taken only in the poll that resolves
/// it); dropping the future drops the producer.
#[cfg(feature = "async")]
#[cfg_attr(docsrs, doc(cfg(feature = "async")))]
#[must_use = "futures do nothing unless polled"]
pub struct ReserveOwnedFuture<T> {
    /// `None` once the future has resolved.
    producer: Option<Producer<T>>,
    /// Where this future's waker is registered, if it is.
    registration: Option<Registration>,
}

#[cfg(feature = "async")]
impl<T> Future for ReserveOwnedFuture<T> {
    type Output = Result<OwnedPushPermit<T>, ProducerClosed<()>>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        let producer = this
            .producer
            .as_ref()
            .expect("`ReserveOwnedFuture` polled after it resolved");
        match producer.poll_reserve(cx, &mut this.registration) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(reserved) => {
                let producer = this.producer.take();
                Poll::Ready(reserved.map(|()| OwnedPushPermit { producer }))
            }
        }
    }
}

#[cfg(feature = "async")]
impl<T> Drop for ReserveOwnedFuture<T> {
    /// A cancelled reservation removes its waker (it holds no room).
    fn drop(&mut self) {
        if let Some(producer) = &self.producer {
            deregister(&producer.shared, &mut self.registration, |queue| {
                &mut queue.producer_wakers
            });
        }
    }
}

#[cfg(feature = "async")]
impl<T> fmt::Debug for ReserveOwnedFuture<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReserveOwnedFuture")
            .field("resolved", &self.producer.is_none())
            .finish_non_exhaustive()
    }
}

/// Room for one value, reserved by [`Producer::reserve_owned_async`], that
/// owns its [`Producer`] (tokio's `OwnedPermit`): as [`PushPermit`], its
/// [`push`](OwnedPushPermit::push) cannot fail and dropping it unused gives
/// the room back; both [`push`](OwnedPushPermit::push) and
/// [`release`](OwnedPushPermit::release) hand the producer back.
///
/// A permit that is forgotten (`mem::forget`) keeps its room and its
/// producer for good: the producer still counts as live, so
/// [`wait_pending`](crate::BufferedCollection::wait_pending) does not
/// report the queue disconnected until it is closed.
///
/// # Examples
///
/// ```
/// use read_write_collection::BufferedCollection;
/// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     struct Noop;
/// #     impl std::task::Wake for Noop {
/// #         fn wake(self: std::sync::Arc<Self>) {}
/// #     }
/// #     let waker = std::task::Waker::from(std::sync::Arc::new(Noop));
/// #     let mut f = std::pin::pin!(f);
/// #     let mut cx = std::task::Context::from_waker(&waker);
/// #     loop {
/// #         if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; }
/// #     }
/// # }
///
/// let mut c = BufferedCollection::bounded(1);
/// let permit = block_on(c.producer().reserve_owned_async()).unwrap();
/// let producer = permit.release(); // unused: the room goes back
/// assert_eq!(producer.try_push(7), Ok(()));
/// c.commit();
/// assert_eq!(c.as_slice(), [7]);
/// ```
#[cfg(feature = "async")]
#[cfg_attr(docsrs, doc(cfg(feature = "async")))]
#[must_use = "a permit holds room until it is used or dropped"]
pub struct OwnedPushPermit<T> {
    /// `Some` until `push` or `release` hands it back.
    producer: Option<Producer<T>>,
}

#[cfg(feature = "async")]
impl<T> OwnedPushPermit<T> {
    /// Pushes `value` into the room this permit holds and hands the
    /// producer back: it cannot fail (after the collection was dropped or
    /// taken apart the value is dropped, as [`PushPermit::push`] does).
    ///
    /// # Panics
    ///
    /// If the queue cannot grow (capacity overflow, as `Vec::push`); the
    /// permit's room is given back then.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     struct Noop;
    /// #     impl std::task::Wake for Noop {
    /// #         fn wake(self: std::sync::Arc<Self>) {}
    /// #     }
    /// #     let waker = std::task::Waker::from(std::sync::Arc::new(Noop));
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(&waker);
    /// #     loop {
    /// #         if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; }
    /// #     }
    /// # }
    ///
    /// let mut c = BufferedCollection::new();
    /// let mut producer = c.producer();
    /// for i in 0..3 {
    ///     producer = block_on(producer.reserve_owned_async()).unwrap().push(i);
    /// }
    /// c.commit();
    /// assert_eq!(c.as_slice(), [0, 1, 2]);
    /// ```
    pub fn push(mut self, value: T) -> Producer<T> {
        // If this panics, the permit still holds its producer: its drop
        // gives the room back.
        let unread = self.producer().push_reserved(value);
        let producer = self.producer.take().expect("a permit holds its producer");
        drop(unread);
        producer
    }

    /// Gives the room back unused and hands the producer back.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     struct Noop;
    /// #     impl std::task::Wake for Noop {
    /// #         fn wake(self: std::sync::Arc<Self>) {}
    /// #     }
    /// #     let waker = std::task::Waker::from(std::sync::Arc::new(Noop));
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(&waker);
    /// #     loop {
    /// #         if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; }
    /// #     }
    /// # }
    ///
    /// let c: BufferedCollection<u8> = BufferedCollection::bounded(1);
    /// let permit = block_on(c.producer().reserve_owned_async()).unwrap();
    /// assert!(permit.producer().try_push(1).is_err()); // the permit holds the room
    /// let producer = permit.release();
    /// assert_eq!(producer.try_push(1), Ok(()));
    /// ```
    pub fn release(mut self) -> Producer<T> {
        let producer = self.producer.take().expect("a permit holds its producer");
        producer.release_reserved(1);
        producer
    }

    /// The producer this permit holds.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     struct Noop;
    /// #     impl std::task::Wake for Noop {
    /// #         fn wake(self: std::sync::Arc<Self>) {}
    /// #     }
    /// #     let waker = std::task::Waker::from(std::sync::Arc::new(Noop));
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(&waker);
    /// #     loop {
    /// #         if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; }
    /// #     }
    /// # }
    ///
    /// let c: BufferedCollection<u8> = BufferedCollection::new();
    /// let permit = block_on(c.producer().reserve_owned_async()).unwrap();
    /// assert!(!permit.producer().is_closed());
    /// ```
    pub fn producer(&self) -> &Producer<T> {
        self.producer.as_ref().expect("a permit holds its producer")
    }
}

#[cfg(feature = "async")]
impl<T> Drop for OwnedPushPermit<T> {
    /// An unused permit gives its room back (then its producer is dropped).
    fn drop(&mut self) {
        if let Some(producer) = &self.producer {
            producer.release_reserved(1);
        }
    }
}

#[cfg(feature = "async")]
impl<T> fmt::Debug for OwnedPushPermit<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OwnedPushPermit").finish_non_exhaustive()
    }
}

/// One poll of a queue future: under the control lock, `attempt` either
/// resolves (then the future's waker, if registered, is removed and
/// `resolved` runs) or says it has to wait (then the task's waker is
/// registered in `wakers`, unless the one registered already wakes the
/// same task; `registered` then runs under the lock, e.g. to announce a
/// producer blocked for room). The task's waker is cloned before the lock
/// is taken, and replaced or removed wakers are dropped after it is
/// released: no waker code runs under the lock. If the clone panics,
/// nothing has changed (a push future still holds its value).
#[cfg(feature = "async")]
fn poll_registered<'s, T, R>(
    shared: &'s Shared<T>,
    cx: &mut Context<'_>,
    registration: &mut Option<Registration>,
    wakers: impl Fn(&mut Queue<T>) -> &mut Wakers,
    mut attempt: impl FnMut(&mut Locked<'s, T>) -> Option<R>,
    registered: impl Fn(&mut Locked<'s, T>),
    resolved: impl Fn(&mut Locked<'s, T>),
) -> Poll<R> {
    let mut clone: Option<Waker> = None;
    loop {
        let mut queue = shared.lock();
        if let Some(result) = attempt(&mut queue) {
            let old = registration
                .take()
                .and_then(|r| wakers(&mut queue).deregister(r));
            resolved(&mut queue);
            drop(queue);
            drop((old, clone));
            return Poll::Ready(result);
        }
        let set = wakers(&mut queue);
        if set
            .get(*registration)
            .is_some_and(|w| w.will_wake(cx.waker()))
        {
            return Poll::Pending;
        }
        if let Some(waker) = clone.take() {
            // Registered under the lock that every event this future
            // waits for takes to decide its wake-ups: none is lost.
            let old = set.register(registration, waker);
            registered(&mut queue);
            drop(queue);
            drop(old);
            return Poll::Pending;
        }
        // Not registered (or for another task): clone outside the lock,
        // then look again (the state may have changed meanwhile).
        drop(queue);
        clone = Some(cx.waker().clone());
    }
}

/// Removes a dropped future's waker, if it is still registered (dropped
/// after the lock is released).
#[cfg(feature = "async")]
fn deregister<T>(
    shared: &Shared<T>,
    registration: &mut Option<Registration>,
    wakers: impl Fn(&mut Queue<T>) -> &mut Wakers,
) {
    if let Some(r) = registration.take() {
        let old = wakers(&mut shared.lock()).deregister(r);
        drop(old);
    }
}

#[cfg(test)]
#[path = "producer_tests.rs"]
mod tests;

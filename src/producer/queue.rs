//! The queue's shared state: the slots producers push into, the
//! clock of arrival order, the control lock and the wake-up protocol.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::ops::{Deref, DerefMut};
use core::sync::atomic::Ordering::{Acquire, Relaxed, SeqCst};
#[cfg(feature = "async")]
use core::task::Waker;
use std::sync::OnceLock;
use std::time::Duration;

use super::handle::ProducerOrder;
use super::link::Waited;
use super::raw::{SlotGuard, SlotLock};
#[cfg(feature = "async")]
use super::wakers::Wakers;
use crate::raw::PassEndSlot;
use crate::sync::{
    lock, thread_index, wait, wait_timeout, Arc, AtomicBool, AtomicStamp, AtomicUsize, Condvar,
    Mutex, MutexGuard, Stamp,
};

/// The queue producers push into and the state around it.
///
/// What every push reads (`closed`, `max`, `consumers_waiting`: written
/// rarely), what bounded pushes write (`room`) and what the owner writes at
/// every commit (the control lock) sit on separate cache lines, so that a
/// commit does not take the lines pushes read away from them.
#[repr(C)]
pub(crate) struct Shared<T> {
    /// First, for the owner's passes (see `raw::PassEnd`, implemented in
    /// this module's `raw`): how they hand a bounded queue's room back
    /// when they end.
    pass_end: PassEndSlot,
    pub(super) control: OwnLine<Mutex<Queue<T>>>,
    /// `wait_pending` waits here.
    pub(super) pushed: Condvar,
    /// Producers blocked on a full bounded collection wait here.
    pub(super) room_freed: Condvar,
    /// Read by every push.
    pub(super) flags: OwnLine<Flags>,
    /// The words pushes write.
    pub(super) counters: OwnLine<Counters>,
    /// What making and dropping handles writes.
    pub(super) handles: OwnLine<Handles>,
    /// The shards of arrival order: one slot per producer thread (as
    /// [`thread_index`] spreads them), made with the first handle (under
    /// the control lock, before any handle exists) and first in the
    /// registry; never dead. See the module docs, "Where a push goes".
    shards: OnceLock<Shards<T>>,
}

/// What pushes write, on one line: a bounded push's compare-and-swap on
/// `room` fetches the line, and its read of `clock` that follows hits it
/// (on separate lines, a bounded push in arrival order missed twice when
/// pushes through other handles interleaved).
pub(super) struct Counters {
    /// How many more values pushes may take now (bounded only): written
    /// by every bounded push.
    pub(super) room: AtomicUsize,
    /// The arrival clock ([`ProducerOrder::Arrival`]; see the module
    /// docs): read by every push, written only when another handle or a
    /// commit moved it since this handle's last push.
    pub(super) clock: AtomicStamp,
    /// A shard may hold prepaid room (see [`Shared::take_one`]): set
    /// before a compare-and-swap that takes more than one unit, cleared
    /// by [`Shared::lock_shards`] once it has every shard locked and
    /// their prepaid room back in `room`. While it is clear no shard
    /// holds any, and "full" needs no look at the shards.
    pub(super) maybe_prepaid: AtomicBool,
}

/// The handles' counts, written when a handle is made or dropped (no lock:
/// a connection that comes and goes costs two atomic operations).
pub(super) struct Handles {
    /// Live `Producer` handles, so that a wait can tell that nothing can
    /// arrive any more. A drop that takes it to 0 then takes the control
    /// lock to wake the waits (a wait reads it under that lock, before it
    /// looks at the slots).
    pub(super) producers: AtomicUsize,
    /// The number the next handle gets (from 1: see [`Slot`]'s `seq`).
    next: AtomicUsize,
}

/// What every push reads; see [`Shared`].
pub(super) struct Flags {
    /// The order is [`ProducerOrder::Arrival`]: pushes go to their
    /// thread's shard. A hint (set under control and every slot's lock,
    /// read without): a push checks the shard's own `arrival` under its
    /// lock, and a push into its handle's slot is right in either order.
    pub(super) arrival: AtomicBool,
    /// Set (under control) by a close; read by pushes under their slot.
    pub(super) closed: AtomicBool,
    /// Set (under control, before the slots are emptied for the last
    /// time) when the collection is dropped or taken apart: a permit's
    /// push then drops its value at once, as nothing will take it.
    pub(super) gone: AtomicBool,
    /// The bound; `usize::MAX` when unbounded (then `room` is unused).
    /// Changed only under the control lock and every slot's.
    pub(super) max: AtomicUsize,
    /// A consumer waits: the next push must wake it.
    pub(super) consumers_waiting: AtomicBool,
}

/// A value alone on its cache lines (128 bytes: a line and the one the
/// prefetcher pairs with it).
#[repr(align(128))]
pub(super) struct OwnLine<V>(V);

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
pub(super) struct Slot<T> {
    pub(super) state: SlotLock<SlotState<T>>,
    /// Where it sits in the registry: its handle's number (handles are
    /// numbered as they are made), 0 for the shards, which come first.
    seq: usize,
    /// Its handle is gone (set and read under the control lock).
    pub(super) dead: AtomicBool,
    /// A permit was taken through its handle (set and read under the
    /// control lock, which orders every access: std's atomic even under
    /// loom, whose model need not schedule around it).
    #[cfg(feature = "async")]
    pub(super) permits: core::sync::atomic::AtomicBool,
}

impl<T> Slot<T> {
    fn new(arrival: bool, seq: usize) -> Arc<Self> {
        Arc::new(Slot {
            state: SlotLock::new(SlotState::new(arrival, seq == 0)),
            seq,
            dead: AtomicBool::new(false),
            #[cfg(feature = "async")]
            permits: core::sync::atomic::AtomicBool::new(false),
        })
    }
}

/// The shards of a queue (see [`Shared::shards`]): a power of two of them.
pub(super) type Shards<T> = Box<[Arc<Slot<T>>]>;

/// The most shards a queue has (see [`shard_count`]).
const MAX_SHARDS: usize = 64;

/// Every shard's lock, held at once (see [`Shared::lock_shards`]);
/// `None` past the queue's shards. No allocation: the slow paths that
/// take it must not fail where a push would not.
pub(super) type ShardGuards<'a, T> = [Option<SlotGuard<'a, SlotState<T>>>; MAX_SHARDS];

/// A shard whose prepaid room is used up takes at most this many units
/// at once (see [`Shared::take_one`]).
const PREPAY_MAX: usize = 32;

/// ... and at most this fraction of the free room, divided by the
/// shards: with plenty of room a shard's pushes leave `room`'s line
/// alone 31 times in 32; near the bound every push takes exactly one.
const PREPAY_SHARE: usize = 4;

/// Which of `shards` shards (a power of two) this thread's pushes go to.
#[inline]
pub(super) fn shard_index(shards: usize) -> usize {
    thread_index() & (shards - 1)
}

/// How many shards a queue has: two per core, a power of two between 2
/// and 64 (two under loom, whose threads are few).
fn shard_count() -> usize {
    #[cfg(all(test, loom))]
    let n = 2;
    #[cfg(not(all(test, loom)))]
    let n = std::thread::available_parallelism()
        .map_or(2, |n| n.get().saturating_mul(2))
        .clamp(2, MAX_SHARDS)
        .next_power_of_two();
    n
}

pub(super) struct SlotState<T> {
    /// Pushed, not yet committed, in push order.
    pub(super) items: Vec<T>,
    /// Arrival order only: the stamp of the run `items` starts with (its
    /// values up to the first of `runs`); meaningless while `items` is
    /// empty. Held inline, so a slot whose values share one stamp between
    /// commits (the usual case) never allocates for runs.
    pub(super) head: Stamp,
    /// Arrival order only: the later runs of `items`, oldest first (each
    /// `start` > 0, increasing).
    pub(super) runs: Vec<Run>,
    /// The clock value this slot last set (the *epoch* it owns while the
    /// clock still shows it); 0, which the clock never shows, at first.
    pub(super) epoch: Stamp,
    /// The last run is stamped `epoch`: pushes may extend it while the
    /// clock still shows `epoch`.
    pub(super) run_open: bool,
    /// Pushes stamp their values ([`ProducerOrder::Arrival`]); set under
    /// the control lock and this slot's.
    pub(super) arrival: bool,
    /// Permits of this handle not yet used or dropped (room they hold).
    pub(super) reserved: usize,
    /// Room this slot took from `room` ahead of its pushes, which use it
    /// before they touch `room` (bounded, shards only: see
    /// [`Shared::take_one`]). Free room all the same: a push, a permit or
    /// the owner that finds `room` empty takes it back from every shard
    /// at once before it calls the queue full ([`Shared::lock_shards`]).
    pub(super) prepaid: usize,
    /// This slot is a shard (it may hold `prepaid` room).
    pub(super) shard: bool,
}

/// Values of one slot pushed while the slot owned one epoch of the
/// arrival clock: they run from `start` to the next run's start (or the
/// end of the slot's values).
#[derive(Clone, Copy, Debug)]
pub(super) struct Run {
    pub(super) stamp: Stamp,
    pub(super) start: usize,
}

/// Whether `stamp` is at or before `cut` on the arrival clock (wrapping:
/// exact while less than half the clock's range lies between them).
#[inline]
pub(super) fn due(stamp: Stamp, cut: Stamp) -> bool {
    cut.wrapping_sub(stamp) <= Stamp::MAX / 2
}

impl<T> SlotState<T> {
    pub(super) fn new(arrival: bool, shard: bool) -> Self {
        SlotState {
            items: Vec::new(),
            head: 0,
            runs: Vec::new(),
            epoch: 0,
            run_open: false,
            arrival,
            reserved: 0,
            prepaid: 0,
            shard,
        }
    }

    /// Before values are pushed into this slot (under its lock): makes
    /// sure that [`open_run`](Self::open_run) will not allocate, so that
    /// every step that can fail (growing `items` and `runs`, taking room)
    /// comes before the push changes anything.
    #[inline]
    pub(super) fn ready_for_run(&mut self) {
        if self.arrival && !self.items.is_empty() && self.runs.len() == self.runs.capacity() {
            self.runs.reserve(1);
        }
    }

    /// Right before values are appended (under the slot's lock, after
    /// every step that can fail or return early, so that no stamp is
    /// claimed for a push that does not happen): in arrival order, the
    /// values join the open run if they can, else open a new one.
    /// Extending needs the clock to show this slot's epoch (no other slot
    /// and no commit moved it since: one load of a line every push reads
    /// and few write); otherwise the slot moves the clock on by one and
    /// owns the new value. Stamp and values are taken under the slot's
    /// lock, so a commit that reads the clock before it locks the slot
    /// finds every value stamped before that read. Does not allocate
    /// after [`ready_for_run`](Self::ready_for_run).
    #[inline]
    pub(super) fn open_run(&mut self, clock: &AtomicStamp) {
        if !self.arrival {
            return;
        }
        // Relaxed is enough: the proof needs only coherence of the clock's
        // own modification order (see the module docs).
        let now = clock.load(Relaxed);
        let stamp = if now != self.epoch {
            self.claim(clock)
        } else if self.run_open {
            return;
        } else {
            now
        };
        if self.items.is_empty() {
            self.head = stamp;
        } else {
            debug_assert!(self.runs.len() < self.runs.capacity(), "ready_for_run");
            self.runs.push(Run {
                stamp,
                start: self.items.len(),
            });
        }
        self.run_open = true;
    }

    /// Moves the clock on by one and takes the value it moved to as the
    /// slot's new epoch. An increment, not a compare-and-swap: with two
    /// threads pushing at once the clock's line is contended, and an
    /// increment cannot fail and go round again (each claim still gets a
    /// value of its own, in the clock's modification order). The clock
    /// skips 0, the epoch of a slot that never pushed, when it wraps (a
    /// `usize` clock could), so two fresh slots never share a stamp. (A
    /// `usize` clock that comes round to an idle slot's old epoch after
    /// 2^32 claims is past the half of its range that stamps are compared
    /// within: see [`due`].)
    pub(super) fn claim(&mut self, clock: &AtomicStamp) -> Stamp {
        loop {
            let next = clock.fetch_add(1, Relaxed).wrapping_add(1);
            if next != 0 {
                self.epoch = next;
                return next;
            }
        }
    }

    /// How many values (and runs after the head) a commit at `cut` takes:
    /// those stamped at or before it (a prefix). (A commit without a cut
    /// takes everything: `take_all`.)
    pub(super) fn due(&self, cut: Stamp) -> (usize, usize) {
        let all = (self.items.len(), self.runs.len());
        if self.items.is_empty() || due(self.runs.last().map_or(self.head, |r| r.stamp), cut) {
            all
        } else if !due(self.head, cut) {
            (0, 0)
        } else {
            let runs = self.runs.iter().take_while(|r| due(r.stamp, cut)).count();
            (self.runs[runs].start, runs)
        }
    }

    /// Moves every value and run into the empty `part` (a swap: the slot
    /// gets `part`'s buffers, with their capacity). Cannot fail.
    #[inline]
    pub(super) fn take_all(&mut self, part: &mut Part<T>) {
        part.head = self.head;
        core::mem::swap(&mut self.items, &mut part.items);
        core::mem::swap(&mut self.runs, &mut part.runs);
        self.run_open = false;
    }

    /// Moves the first `n` values (fewer than the slot holds) and the runs
    /// that start among them into the empty `part`, which has the capacity
    /// for them: nothing allocates. `n` may fall inside a run (values were
    /// added to the open run since a commit counted them): the values left
    /// then go on with that run's stamp.
    pub(super) fn take_prefix(&mut self, n: usize, part: &mut Part<T>) {
        debug_assert!(0 < n && n < self.items.len());
        let runs = self.runs.partition_point(|run| run.start < n);
        debug_assert!(part.items.capacity() >= n && part.runs.capacity() >= runs);
        part.head = self.head;
        part.items.extend(self.items.drain(..n));
        part.runs.extend(self.runs.drain(..runs));
        self.head = match self.runs.first() {
            // The first value left starts a run: it becomes the head.
            Some(run) if run.start == n => self.runs.remove(0).stamp,
            // It is in the middle of the last run taken.
            _ => part.runs.last().map_or(part.head, |run| run.stamp),
        };
        for run in &mut self.runs {
            run.start -= n;
        }
    }
}

/// One slot's values taken by a commit, with their runs (arrival order).
/// Emptied parts keep their buffers for the next commit.
pub(super) struct Part<T> {
    pub(super) items: Vec<T>,
    /// As [`SlotState`]'s.
    pub(super) head: Stamp,
    pub(super) runs: Vec<Run>,
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
    /// Moves its last run to the end of `dest`, reversed (`dest` has the
    /// capacity).
    #[inline]
    pub(super) fn move_last_run(&mut self, dest: &mut Vec<T>) {
        match self.runs.pop() {
            // A run of one (handles that took turns): no drain to set up.
            Some(run) if run.start + 1 == self.items.len() => dest.extend(self.items.pop()),
            Some(run) => dest.extend(self.items.drain(run.start..).rev()),
            None => dest.extend(self.items.drain(..).rev()),
        }
    }

    /// How long before `now` its first run (`first`) or its last run was
    /// stamped.
    pub(super) fn age(&self, now: Stamp, first: bool) -> Stamp {
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
    pub(super) slots: Vec<Arc<Slot<T>>>,
    /// The shards at the start of `slots` (see [`Shared::shards`]).
    pub(super) shard_slots: usize,
    /// Dead slots in `slots`.
    pub(super) dead: usize,
    /// Sweep the dead slots out when there are this many.
    pub(super) sweep_at: usize,
    /// The collection's count as last published (bounded only).
    pub(super) held: usize,
    /// How a commit orders the values of different slots.
    pub(super) order: ProducerOrder,
    pub(super) waiting_consumers: usize,
    pub(super) waiting_producers: usize,
    /// Wake-ups decided under the lock, delivered by [`Locked`] once it is
    /// released.
    pub(super) wake: Wakeups,
    /// Whether `wake` holds anything (one test on the fast path).
    must_wake: bool,
    /// Tasks waiting in `wait_pending_async` (feature `async`).
    #[cfg(feature = "async")]
    pub(super) consumer_wakers: Wakers,
    /// Tasks waiting in `push_async` or `reserve_async` for room (feature
    /// `async`).
    #[cfg(feature = "async")]
    pub(super) producer_wakers: Wakers,
}

/// What to wake once the lock is released.
#[derive(Default)]
pub(super) struct Wakeups {
    /// Notify the `pushed` condition variable.
    pub(super) consumers: bool,
    /// Notify the `room_freed` condition variable.
    pub(super) producers: bool,
    /// Task wakers taken out of their sets (slots emptied by a
    /// deregistration are `None`).
    #[cfg(feature = "async")]
    pub(super) wakers: Vec<Option<Waker>>,
}

impl Wakeups {
    /// Delivers the wake-ups (the lock is not held): condition variables
    /// first, then every waker, a panicking one included.
    pub(super) fn deliver<T>(self, shared: &Shared<T>) {
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
    pub(super) fn wake_producers(&mut self) {
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
    pub(super) fn sweep(&mut self) {
        self.slots
            .retain(|slot| !Self::is_dead(slot) || !slot.state.lock().items.is_empty());
        self.dead = self.slots.iter().filter(|slot| Self::is_dead(slot)).count();
        self.schedule_sweep();
    }

    /// After a commit took the slots' values: the dead slots it emptied
    /// leave. With `left_behind` (some slot still held values when the
    /// commit was done with it: values stamped after the cut), each dead
    /// slot is looked at and one that holds values stays for the next
    /// commit; otherwise every dead slot is empty and leaves unlocked.
    pub(super) fn remove_dead(&mut self, left_behind: bool) {
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
        let handles = self.slots.len() - self.shard_slots;
        self.sweep_at = self.dead + self.dead.max(handles / 2).max(SWEEP_MIN);
    }
}

/// A push that finds no room backs off this many times before it sleeps,
/// the first `SPIN_STEPS` spinning (1, 2, 4, … spin hints), the rest
/// yielding the thread (see [`Producer::snooze_for_room`] and
/// [`backoff`](super::raw::backoff), whose later steps nap).
pub(super) const SNOOZE_STEPS: u32 = 10;
pub(super) const SPIN_STEPS: u32 = 6;

/// Dead slots tolerated before a sweep (see [`Queue::sweep`]).
pub(super) const SWEEP_MIN: usize = 16;

impl<T> Shared<T> {
    pub(super) fn new(max: usize, order: ProducerOrder) -> Arc<Self> {
        Arc::new(Shared {
            pass_end: PassEndSlot::new::<T, Self>(),
            control: OwnLine(Mutex::new(Queue {
                slots: Vec::new(),
                shard_slots: 0,
                dead: 0,
                sweep_at: SWEEP_MIN,
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
                arrival: AtomicBool::new(order == ProducerOrder::Arrival),
                closed: AtomicBool::new(false),
                gone: AtomicBool::new(false),
                max: AtomicUsize::new(max),
                consumers_waiting: AtomicBool::new(false),
            }),
            counters: OwnLine(Counters {
                room: AtomicUsize::new(max),
                // Slots start at epoch 0, which the clock never shows.
                clock: AtomicStamp::new(1),
                maybe_prepaid: AtomicBool::new(false),
            }),
            handles: OwnLine(Handles {
                producers: AtomicUsize::new(0),
                next: AtomicUsize::new(1),
            }),
            shards: OnceLock::new(),
        })
    }

    /// The shard that pushes on this thread go to in arrival order
    /// (`None` before the first handle was made).
    #[inline]
    pub(super) fn shard(&self) -> Option<&Slot<T>> {
        let shards = self.shards.get()?;
        Some(&shards[shard_index(shards.len())])
    }

    /// Counts a new handle of a queue whose shards exist and returns its
    /// number. Without the control lock for a clone of a live handle: the
    /// count is at least 1 already, so no wait can be deciding that
    /// nothing can arrive (`Queue::new_handle`, the owner's, holds it).
    pub(super) fn count_handle(&self) -> usize {
        debug_assert!(
            self.shards.get().is_some(),
            "the first handle made the shards"
        );
        self.handles.producers.fetch_add(1, SeqCst);
        self.handles.next.fetch_add(1, Relaxed)
    }

    /// Live handles.
    pub(super) fn producers(&self) -> usize {
        self.handles.producers.load(SeqCst)
    }

    pub(super) fn lock(&self) -> Locked<'_, T> {
        Locked {
            shared: self,
            guard: Some(lock(&self.control)),
        }
    }

    #[inline]
    pub(super) fn is_closed(&self) -> bool {
        self.flags.closed.load(Acquire)
    }

    /// Whether `room` holds any now (a hint: shards may hold prepaid room
    /// besides, see [`take_one`](Self::take_one); "no room anywhere" is
    /// exact only with every shard locked, [`lock_shards`](Self::lock_shards)).
    #[inline]
    pub(super) fn has_room(&self) -> bool {
        self.flags.max.load(Relaxed) == usize::MAX || self.counters.room.load(SeqCst) > 0
    }

    /// Takes room for one value into `slot` (locked by the caller, which
    /// orders it against bound changes): its prepaid room first, else
    /// `room`. A shard whose prepaid room is used up takes more than one
    /// unit when `room` has plenty (a share of it, at most
    /// [`PREPAY_MAX`]) and keeps the rest as `prepaid`, so that most of
    /// its pushes do not touch `room`'s line, which every producer
    /// writes. Returns whether it took one; a `false` is exact only if the
    /// caller holds every shard's lock (then no shard holds prepaid room:
    /// see [`lock_shards`](Self::lock_shards)).
    #[inline]
    pub(super) fn take_one(&self, slot: &mut SlotState<T>) -> bool {
        if slot.prepaid > 0 {
            slot.prepaid -= 1;
            return true;
        }
        if self.flags.max.load(Relaxed) == usize::MAX {
            return true;
        }
        let share = match self.shards.get() {
            // Under loom a shard takes all the room there is: the models'
            // bounds are small, and every "full" they reach must then find
            // the room another shard prepaid.
            Some(_) if slot.shard && cfg!(all(test, loom)) => 1,
            Some(shards) if slot.shard => PREPAY_SHARE * shards.len(),
            _ => usize::MAX,
        };
        // `SeqCst` reads: an empty `room` read here, then a clear
        // `maybe_prepaid`, mean no room anywhere (see `lock_shards`).
        let mut room = self.counters.room.load(SeqCst);
        loop {
            if room == 0 {
                return false;
            }
            let take = (room / share).clamp(1, PREPAY_MAX);
            // Under this shard's lock, which a clear holds: the load sees
            // the last clear, or a set after it (which no clear followed).
            if take > 1 && !self.counters.maybe_prepaid.load(Relaxed) {
                self.counters.maybe_prepaid.store(true, SeqCst);
            }
            match self
                .counters
                .room
                .compare_exchange_weak(room, room - take, SeqCst, SeqCst)
            {
                Ok(_) => {
                    slot.prepaid = take - 1;
                    return true;
                }
                Err(now) => room = now,
            }
        }
    }

    /// Locks every shard, in order (after the control lock if the caller
    /// holds it, before any handle's own slot), and moves their prepaid
    /// room back to `room`: while the guards are held, `room` is all the
    /// free room there is, so a caller that then finds none knows the
    /// queue is full.
    ///
    /// `None`, locking nothing, if `maybe_prepaid` is clear: no shard
    /// prepaid room since the last call that returned guards (or ever, or
    /// before the first handle made the shards). A caller that read `room`
    /// empty before this (`SeqCst`) then knows there was no room anywhere
    /// at that read. Room a shard holds at that read came from its last
    /// prepay, a compare-and-swap on `room` that the read follows in the
    /// single order of `SeqCst` operations, and that shard set the flag
    /// before that swap. A clear after the swap would have been made with
    /// that shard locked, after the prepay, and would have taken the room
    /// back. So the flag reads set. Nor can there be room later while
    /// `room` stays empty: prepaid room comes from `room`.
    ///
    /// The flag is cleared here, with every shard locked and none holding
    /// prepaid room: the pushes of a full queue, which all come here, lock
    /// the shards once per refill, not once each.
    #[cold]
    pub(super) fn lock_shards(&self) -> Option<ShardGuards<'_, T>> {
        if !self.counters.maybe_prepaid.load(SeqCst) {
            return None;
        }
        let shards = self.shards.get()?;
        let mut guards: ShardGuards<'_, T> =
            core::array::from_fn(|i| shards.get(i).map(|shard| shard.state.lock()));
        let prepaid = guards
            .iter_mut()
            .flatten()
            .fold(0usize, |n, shard| n + core::mem::take(&mut shard.prepaid));
        if prepaid > 0 {
            // Free room changes place, not amount: it may move outside the
            // control lock.
            self.counters.room.fetch_add(prepaid, SeqCst);
        }
        // No shard can prepay while these guards are held: one that does
        // after they are dropped sets the flag again first.
        self.counters.maybe_prepaid.store(false, SeqCst);
        Some(guards)
    }

    /// The shard of this thread among `guards` (see [`shard`](Self::shard)).
    pub(super) fn own_shard<'g, 'a>(
        &self,
        guards: &'g mut ShardGuards<'a, T>,
    ) -> &'g mut SlotGuard<'a, SlotState<T>> {
        let n = self.shards.get().map_or(1, |shards| shards.len());
        guards[shard_index(n)].as_mut().expect("a shard's guard")
    }

    /// Takes up to `wanted` units of room (all of them when unbounded);
    /// returns how many it took. Called under a slot's lock (which orders
    /// it against bound changes). Prepaid room is not looked at: see
    /// [`take_one`](Self::take_one).
    #[inline]
    pub(super) fn take_room(&self, wanted: usize) -> usize {
        if self.flags.max.load(Relaxed) == usize::MAX {
            return wanted;
        }
        // `SeqCst`, as in `take_one`.
        let mut room = self.counters.room.load(SeqCst);
        loop {
            let take = room.min(wanted);
            if take == 0 {
                return 0;
            }
            match self
                .counters
                .room
                .compare_exchange_weak(room, room - take, SeqCst, SeqCst)
            {
                Ok(_) => return take,
                Err(now) => room = now,
            }
        }
    }

    /// After a push has unlocked its slot: wakes a waiting consumer, if
    /// there is one (the only time a push takes the control lock).
    #[inline]
    pub(super) fn after_push(&self) {
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
    pub(super) shared: &'a Shared<T>,
    /// `None` only inside `drop` and while a wait has the lock released.
    pub(super) guard: Option<MutexGuard<'a, Queue<T>>>,
}

impl<'a, T> Locked<'a, T> {
    /// Releases the lock and delivers what the critical section decided
    /// to wake (after this, `guard` is `None`). Nothing to wake is the
    /// inline fast path.
    #[inline]
    pub(super) fn release(&mut self) {
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
    pub(super) fn wait(mut self, condvar: &Condvar, timeout: Option<Duration>) -> Self {
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
    pub(super) fn wake_consumers(&mut self) {
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
    pub(super) fn arm_consumers(&mut self) {
        self.shared.flags.consumers_waiting.store(true, SeqCst);
    }

    /// A consumer stopped waiting: the flag stays set only while another
    /// one is registered.
    pub(super) fn settle_consumers(&mut self) {
        let registered = self.consumers_registered();
        self.shared
            .flags
            .consumers_waiting
            .store(registered, SeqCst);
    }

    /// A producer starts waiting for room: a consumer waiting on an empty
    /// queue is woken to see that only it can free the room (`Full`).
    #[inline]
    pub(super) fn announce_blocked_producer(&mut self) {
        self.wake_consumers();
    }

    /// Values in the slots, and permits outstanding, locking each slot.
    pub(super) fn scan(&self) -> (usize, usize) {
        let mut queued = 0;
        let mut reserved = 0;
        for slot in &self.slots {
            let slot = slot.state.lock();
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
    pub(super) fn wait_outcome(&self) -> Option<Waited> {
        let shared = self.shared;
        // Read before the scan: free room grows only under the control lock,
        // which this holds, so "no room" stays true while the scan runs and
        // no push can queue a value behind it (read after the scan, a push
        // could take room into a slot the scan had passed: "full, nothing
        // queued" with a value queued).
        //
        // The shards' prepaid room goes back to `room` first, every shard
        // locked at once: none can be prepaid again while `room` is empty
        // (prepaid room comes from `room`, and moves back only from where
        // there is some), so an empty `room` read then is no room at all.
        let no_room = shared.flags.max.load(Relaxed) != usize::MAX
            && shared.counters.room.load(SeqCst) == 0
            && match shared.lock_shards() {
                Some(shards) => {
                    let empty = shared.counters.room.load(SeqCst) == 0;
                    drop(shards);
                    empty
                }
                None => true,
            };
        // Read before the scan too: handles leave without the control lock.
        // A count of 0 read here follows the last drop, which follows that
        // handle's pushes, which the scan then sees; a count that drops to
        // 0 during the scan is seen at the next look (the last drop wakes
        // the waits under this lock, after it counted itself out).
        let producers = shared.producers();
        let (queued, reserved) = self.scan();
        if queued > 0 {
            Some(Waited::Pending)
        } else if (shared.is_closed() && reserved == 0) || producers == 0 {
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
    pub(super) fn publish(&mut self, owned: usize) {
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

    /// Counts a new handle and returns its number (see [`Slot`]'s `seq`);
    /// the first one also makes the shards, registered first. A handle
    /// gets a slot of its own only when it needs one
    /// ([`register_slot`](Self::register_slot)).
    pub(super) fn new_handle(&mut self) -> usize {
        if self.shared.shards.get().is_none() {
            let arrival = self.order == ProducerOrder::Arrival;
            let shards: Shards<T> = (0..shard_count()).map(|_| Slot::new(arrival, 0)).collect();
            self.slots.reserve(shards.len());
            self.slots.extend(shards.iter().cloned());
            self.shard_slots = shards.len();
            // Set under the control lock, by the only call without
            // shards: it cannot be set already.
            let _ = self.shared.shards.set(shards);
        }
        self.shared.count_handle()
    }

    /// Registers a slot for handle `seq`, in its place: the registry keeps
    /// the shards first and then the handles' slots in the order the
    /// handles were made (per-producer order commits them so).
    pub(super) fn register_slot(&mut self, seq: usize) -> Arc<Slot<T>> {
        let slot = Slot::new(self.order == ProducerOrder::Arrival, seq);
        let at = self.slots.partition_point(|s| s.seq < seq);
        self.slots.insert(at, Arc::clone(&slot));
        slot
    }

    /// Closes: later pushes hand their value back; producers blocked for
    /// room and waiting consumers are woken.
    pub(super) fn close(&mut self) {
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

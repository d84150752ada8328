//! The owner's side of a queue: the link a `BufferedCollection` holds,
//! taking what producers pushed at a commit (in arrival order).

use alloc::collections::BinaryHeap;
use alloc::vec::Vec;
use core::cmp::Reverse;
use core::sync::atomic::Ordering::{Relaxed, SeqCst};
use std::time::{Duration, Instant};

#[cfg(feature = "async")]
use super::futures::WaitPendingFuture;
use super::handle::{Producer, ProducerOrder};
use super::queue::{Locked, Part, Queue, Shared, SlotState};
use crate::error::WaitError;
use crate::sync::{lock, lock_politely, Arc, MutexGuard, Stamp};

/// The collection's end of the producers' queue. Dropping it closes the
/// queue: later pushes fail and queued elements are dropped exactly once.
pub(crate) struct ProducerLink<T> {
    pub(super) shared: Arc<Shared<T>>,
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
    pub(super) spare: Part<T>,
    pool: Vec<Part<T>>,
    /// What a commit took from the only slot (`first`), or one part per
    /// slot that held values when there are several (`parts`, grown
    /// before any value moves); both empty between commits.
    pub(super) first: Option<Part<T>>,
    pub(super) parts: Vec<Part<T>>,
    /// The merge's heap for more than [`SCANNED_PARTS`] parts: (how long
    /// before the cut a part's last run was stamped, part), newest first.
    pub(super) heap: BinaryHeap<Reverse<(Stamp, usize)>>,
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
    pub(super) fn sync(&self, owned: usize) -> Locked<'_, T> {
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
    /// A slot's values leave it only once `dest` has capacity for them and
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
    /// pass freed or kept for its pushes.
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
    /// until it is published again) and returns the bound the pass works
    /// under (visible + its pushes).
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
    /// them as the collection's (`held`). With `room` (allocation in
    /// `dest`, not room under the bound), a slot's values leave it only
    /// once `dest` has capacity for them and all taken before.
    ///
    /// Returns whether a slot still held values when it was done with it
    /// (values stamped after the cut). If `dest` cannot grow, it stops
    /// there and returns how much capacity it asked for: the parts taken fit,
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
    pub(super) fn merge(&mut self, dest: &mut Vec<T>, now: Option<Stamp>) {
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
    /// the capacity: grown before the commit took anything).
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
pub(super) const SCANNED_PARTS: usize = 8;

/// Appends the runs of `parts` to `dest` in stamp order, `now` at or
/// after every stamp; `dest` has capacity for all of them (nothing allocates).
///
/// Each part's runs are taken from its end (no values shift), newest run
/// first, each reversed; one reversal of everything appended then puts
/// the runs oldest first and every run back in its order. The part whose
/// last run is newest is found by comparing two parts, by a scan of up to
/// [`SCANNED_PARTS`], or through a heap: O(n log k) for n values in k
/// parts.
pub(super) fn merge_runs<T>(
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

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
use super::raw::SlotGuard;
use crate::error::WaitError;
use crate::sync::{Arc, Stamp};

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
    /// A commit at a cut: what its first look found in each slot that had
    /// values due (see [`Taker::gather_at_cut`]); empty between commits.
    plan: Vec<Planned>,
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
                plan: Vec::new(),
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
    /// At a cut (arrival order, several slots), nothing leaves a slot
    /// until `dest` has capacity for every value due: if growing `dest`
    /// fails, the commit has taken nothing (a part of what is due, taken
    /// alone, could put a push before one that happened before it); it
    /// then grows `dest` as `Vec::reserve` does and starts again at a new
    /// cut. Per producer, or with one slot, a slot's values leave it once
    /// `dest` has capacity for them and everything taken before: if
    /// growing `dest` fails, what was not taken is still in its slot, in
    /// order, for the next commit. Either way nothing after the growth
    /// allocates.
    ///
    /// # Panics
    ///
    /// If `dest` cannot grow (capacity overflow, or the allocation error
    /// handler panics), as `Vec::reserve` does.
    pub(crate) fn take_into(&mut self, dest: &mut Vec<T>) {
        let shared = &*self.shared;
        let mut queue = shared.lock();
        // The room the collection freed since it last published goes to
        // the producers first: those blocked for it wake as soon as the
        // lock is released, before the merge below (which needs no lock).
        queue.publish(dest.len());
        loop {
            // With one slot there is nothing to order its values against:
            // no cut. A second slot registers under the control lock, which
            // this holds until every slot was looked at. The cut is a read:
            // a write would take the clock's line from the producers and
            // make each of them claim a new epoch at its next push.
            let cut = match queue.order {
                ProducerOrder::Arrival if queue.slots.len() > 1 => {
                    Some(shared.counters.clock.load(Relaxed))
                }
                _ => None,
            };
            // Counts what it takes as the collection's (`held`), so that
            // `held` is `dest`'s length once the merge is done.
            let gathered = match cut {
                Some(cut) => self.taker.gather_at_cut(&mut queue, dest, cut),
                None => self.taker.gather(&mut queue, dest, true).map(|()| false),
            };
            // Dead slots are empty now (unless they hold values stamped
            // after the cut, or the commit stopped), and nothing can reach
            // them any more.
            queue.remove_dead(gathered != Ok(false));
            match gathered {
                Err(needed) if cut.is_some() => {
                    // Nothing was taken. Grown as `Vec::reserve` grows
                    // (capacity overflow, or the allocation error handler,
                    // may panic: the queue is as it was), not under the
                    // lock; then the commit starts again at a new cut.
                    drop(queue);
                    dest.reserve(needed);
                    queue = shared.lock();
                }
                _ => {
                    drop(queue);
                    self.taker.merge(dest, cut);
                    if let Err(needed) = gathered {
                        // `dest` could not grow for the rest: everything is
                        // consistent (what was taken is appended, the rest
                        // queued), so report it as `Vec::reserve` does. If
                        // the room can be had by now, the rest simply waits
                        // for the next commit.
                        dest.reserve(needed);
                    }
                    return;
                }
            }
        }
    }

    /// What a bounded queue's pass hands its room back through when it
    /// ends (see `raw::Pass::begin_buffered`).
    pub(crate) fn shared(&self) -> &Shared<T> {
        &self.shared
    }

    /// Producers' pushes not yet taken.
    pub(crate) fn len(&self) -> usize {
        self.shared.lock().scan().0
    }

    /// Empties every slot and publishes `owned`: both free room, so
    /// producers blocked for it are woken. The values are dropped after
    /// the lock is released (their `Drop` is user code); if one of them
    /// panics, the others are still dropped.
    pub(crate) fn clear(&mut self, owned: usize) {
        let mut queue = self.shared.lock();
        // The values leave the slots: their room goes to `held`, which
        // the publication then lowers to `owned`.
        let gathered = self.taker.gather(&mut queue, &mut Vec::new(), false);
        debug_assert_eq!(gathered, Ok(()), "a clear takes everything");
        queue.remove_dead(false);
        queue.publish(owned);
        drop(queue);
        self.taker.drop_gathered();
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
            // Shards may hold prepaid room: look again with every shard
            // locked, where "full" is exact.
            let shards = self.shared.lock_shards();
            let taken = self.shared.take_room(1);
            drop(shards);
            if taken == 0 {
                return false;
            }
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
        let mut taken = self.shared.counters.room.swap(0, SeqCst);
        // The shards' prepaid room too, every shard locked, so that none
        // is left where a push could use it (`None`: none was ever
        // prepaid, read after the swap, so none can be now: see
        // `Shared::lock_shards`).
        if let Some(shards) = self.shared.lock_shards() {
            taken += self.shared.counters.room.swap(0, SeqCst);
            drop(shards);
        }
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
            let mut guards: Vec<SlotGuard<'_, SlotState<T>>> =
                queue.slots.iter().map(|slot| slot.state.lock()).collect();
            let in_slots = guards
                .iter()
                .fold(0usize, |n, s| n.saturating_add(s.items.len() + s.reserved));
            if in_slots.saturating_add(owned) > max {
                return false;
            }
            // Prepaid room is free room: the new `room` below counts it.
            // (Only once the change is sure: a refused one keeps it.)
            for state in &mut guards {
                state.prepaid = 0;
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
        // Closed and gone: nothing more arrives (a push reads the close,
        // a permit's push `gone`, under the slot's lock). Grown for all of
        // it before anything moves: if this panics, everything is still
        // in the slots (for the `Drop` that follows `into_parts`).
        let mut items = Vec::with_capacity(queue.scan().0);
        let gathered = self.taker.gather(&mut queue, &mut items, false);
        debug_assert_eq!(gathered, Ok(()), "taking everything needs no room");
        debug_assert!(self.taker.gathered_len() <= items.capacity());
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

    /// Changes how commits order producers' values, in one step: under the
    /// control lock and every slot's at once (as a bound change), so no
    /// push lands between two slots' conversions. Values queued when
    /// arrival order starts keep the per-producer order among themselves
    /// (each slot's get a fresh stamp, in registry order) and come before
    /// every later push; values queued when it ends lose their stamps.
    pub(crate) fn set_order(&self, order: ProducerOrder) {
        let mut queue = self.shared.lock();
        if queue.order == order {
            return;
        }
        let arrival = order == ProducerOrder::Arrival;
        // Every slot locked before any changes (the guards' `Vec` is the
        // only allocation, made before that).
        let mut guards: Vec<SlotGuard<'_, SlotState<T>>> =
            queue.slots.iter().map(|slot| slot.state.lock()).collect();
        let clock = &self.shared.counters.clock;
        let mut prepaid = 0;
        for state in &mut guards {
            // Per producer, pushes go to their handles' slots: the shards'
            // prepaid room goes back to `room`, where they can take it.
            prepaid += core::mem::take(&mut state.prepaid);
            state.runs.clear();
            state.run_open = false;
            state.arrival = arrival;
            if arrival && !state.items.is_empty() {
                // One run, the head, covers every value.
                let stamp = state.claim(clock);
                state.head = stamp;
                state.run_open = true;
            }
        }
        if prepaid > 0 {
            self.shared.counters.room.fetch_add(prepaid, SeqCst);
        }
        // The hint pushes read first (see `Flags::arrival`), changed while
        // every slot is locked.
        self.shared.flags.arrival.store(arrival, Relaxed);
        drop(guards);
        queue.order = order;
    }

    pub(crate) fn is_closed(&self) -> bool {
        self.shared.is_closed()
    }

    pub(crate) fn producer_count(&self) -> usize {
        self.shared.producers()
    }

    /// A new producer handle (its own slot comes when it needs one);
    /// publishes `owned` first.
    pub(crate) fn producer(&self, owned: usize) -> Producer<T> {
        let seq = self.sync(owned).new_handle();
        Producer::new(Arc::clone(&self.shared), seq)
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
    /// Moves every value out of the slots into `self.parts`, one part per
    /// slot that had any, counting them as the collection's (`held`): a
    /// commit per producer or with one slot, a clear, the last take (a
    /// commit at a cut is [`gather_at_cut`](Self::gather_at_cut)).
    ///
    /// With `room` (allocation in `dest`, not room under the bound), a
    /// slot's values leave it only once `dest` has capacity for them and
    /// all taken before; if `dest` cannot grow, it stops there and returns
    /// how much more capacity the slot it stopped at needs once the parts
    /// taken are appended: they fit, the rest of the values stay in their
    /// slots (with no cut, any prefix of the slots is a consistent
    /// commit). Without `room` it takes everything and returns `Ok`;
    /// `dest` is not touched, but an empty `dest` lets the last slot's
    /// values be taken without reserving anything.
    fn gather(&mut self, queue: &mut Queue<T>, dest: &mut Vec<T>, room: bool) -> Result<(), usize> {
        self.discard_prepared();
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
        for (i, slot) in queue.slots.iter().enumerate() {
            // The last slot's values, when nothing was taken before and
            // nothing is visible, become `dest` by a swap: no room needed.
            let swapped = dest.is_empty() && total == 0 && i + 1 == slots;
            loop {
                let mut state = slot.state.lock_politely();
                let items = state.items.len();
                if items == 0 {
                    break;
                }
                if room && !swapped && dest.capacity() - dest.len() < total + items {
                    drop(state);
                    // Not under the slot's lock: its producer goes on
                    // pushing. It may push more meanwhile: look again.
                    if dest.try_reserve(total + items).is_err() {
                        // What was taken fits; the rest stays queued. Once
                        // the `total` taken are appended, `items` more are
                        // what this slot needs.
                        return Err(items);
                    }
                    continue;
                }
                let mut part = self.empty_part();
                // The only moment this holds the producer up.
                state.take_all(&mut part);
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
        Ok(())
    }

    /// How many values the gathered parts hold.
    fn gathered_len(&self) -> usize {
        let first = self.first.as_ref().map_or(0, |part| part.items.len());
        self.parts
            .iter()
            .fold(first, |n, part| n + part.items.len())
    }

    /// Drops the gathered values (a clear; not under any lock: their `Drop`
    /// is user code). If one panics, the rest are dropped with the parts,
    /// which the pool then does without.
    fn drop_gathered(&mut self) {
        if let Some(mut part) = self.first.take() {
            part.items.clear();
            self.recycle(part);
        }
        let mut parts = core::mem::take(&mut self.parts);
        for part in &mut parts {
            part.items.clear();
        }
        self.parts = parts;
        self.discard_prepared();
    }

    /// Puts back in the pool the parts that a commit at a cut prepared
    /// when growing one of them panicked (empty: nothing had been taken).
    fn discard_prepared(&mut self) {
        debug_assert!(self.first.is_none());
        while let Some(part) = self.parts.pop() {
            debug_assert!(part.items.is_empty(), "a commit left values behind");
            self.recycle(part);
        }
    }

    /// An emptied part from the pool, or a new one.
    fn empty_part(&mut self) -> Part<T> {
        self.pool
            .pop()
            .unwrap_or_else(|| core::mem::take(&mut self.spare))
    }

    /// Moves the values due at `cut` out of the slots into `self.parts`,
    /// one part per slot that had any, counting them as the collection's
    /// (`held`), in two looks at the slots, so that nothing leaves a slot
    /// before everything that can fail has succeeded:
    ///
    /// 1. under each slot's lock in turn, how many values it has due (the
    ///    *plan*); then `dest` is grown for all of them, and an empty part
    ///    for each slot with capacity for them;
    /// 2. under each planned slot's lock in turn, its values are taken:
    ///    all of them by a swap when everything it holds is due and `dest`
    ///    has room for what was added since the first look, else the
    ///    values the first look counted, moved into the part.
    ///
    /// Either look at a slot decides what is taken from it, and either
    /// keeps the cut's promise: the proof in the module docs needs only
    /// that what is taken from each slot is what was due in it when it was
    /// looked at, whenever that was after the cut was read.
    ///
    /// Returns whether a slot still held values when it was done with it
    /// (values stamped after the cut). If `dest` cannot grow, it returns
    /// how much capacity it asked for, having taken nothing. (If a part
    /// cannot grow, that panics, having taken nothing; the next commit
    /// finds the parts it had prepared and puts them back in the pool.)
    fn gather_at_cut(
        &mut self,
        queue: &mut Queue<T>,
        dest: &mut Vec<T>,
        cut: Stamp,
    ) -> Result<bool, usize> {
        self.discard_prepared();
        self.plan.clear();
        let slots = queue.slots.len();
        self.plan.reserve(slots);
        self.parts.reserve(slots);
        self.pool.reserve(slots);
        self.heap.reserve(slots);
        // The first look.
        let mut total = 0;
        let mut left_behind = false;
        for (index, slot) in queue.slots.iter().enumerate() {
            let state = slot.state.lock_politely();
            let (items, runs) = state.due(cut);
            if items > 0 {
                self.plan.push(Planned { index, items, runs });
                total += items;
            } else {
                // Values stamped after the cut only (a dead slot gets no
                // more).
                left_behind |= !state.items.is_empty();
            }
        }
        // One planned part into an empty `dest` becomes `dest` by a swap
        // (see `merge`): no capacity needed there.
        let swap_into_dest = dest.is_empty() && self.plan.len() == 1;
        let mut slack = if swap_into_dest {
            usize::MAX
        } else {
            if dest.capacity() - dest.len() < total && dest.try_reserve(total).is_err() {
                return Err(total);
            }
            dest.capacity() - dest.len() - total
        };
        for i in 0..self.plan.len() {
            let planned = &self.plan[i];
            let (items, runs) = (planned.items, planned.runs);
            let mut part = self.empty_part();
            // Usually no-ops: a pool part has the capacity of the buffer it
            // came from.
            part.items.reserve(items);
            part.runs.reserve(runs);
            self.parts.push(part);
        }
        // The second look: nothing below allocates or fails.
        for (planned, part) in self.plan.iter().zip(self.parts.iter_mut()) {
            let mut state = queue.slots[planned.index].state.lock_politely();
            let (due, _) = state.due(cut);
            let held = state.items.len();
            let added = due - planned.items;
            let taken = if due == held && added <= slack {
                slack -= added;
                state.take_all(part);
                held
            } else {
                state.take_prefix(planned.items, part);
                left_behind = true;
                planned.items
            };
            drop(state);
            queue.held += taken;
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

/// What the first look of a commit at a cut found in a slot with values
/// due (see [`Taker::gather_at_cut`]).
struct Planned {
    /// The slot's place in the registry.
    index: usize,
    /// Values due: a prefix of the slot's, ending at a run's end.
    items: usize,
    /// Runs after the head among them.
    runs: usize,
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

//! The producer handle and its errors.

use alloc::vec::Vec;
use core::fmt;
use core::sync::atomic::Ordering::{Relaxed, SeqCst};
#[cfg(feature = "async")]
use core::task::{Context, Poll};
use std::time::{Duration, Instant};

#[cfg(feature = "async")]
use super::futures::{poll_registered, PushFuture, ReserveFuture, ReserveOwnedFuture};
#[cfg(feature = "async")]
use super::queue::Locked;
#[cfg(not(all(test, loom)))]
use super::queue::SNOOZE_STEPS;
use super::queue::{Shared, Slot, SlotState};
#[cfg(not(all(test, loom)))]
use super::raw::backoff;
use super::raw::SlotGuard;
#[cfg(feature = "async")]
use super::wakers::Registration;
use crate::error::{PushTimeoutError, TryPushError};
use crate::sync::Arc;
use std::sync::OnceLock;

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
/// # A handle per connection, or per thread
///
/// Handles are cheap: a clone is four words and allocates nothing, and
/// pushing through many handles costs what pushing through one does. In
/// arrival order (the default) a push goes to a buffer of the *thread*
/// that makes it, whichever handle it uses: a thread serving many
/// connections through a handle each fills one buffer, and threads do not
/// wait for each other's pushes (there are two such buffers per core;
/// more threads than that share them). In per-producer order each handle
/// gets a buffer of its own the first time it pushes (one 256-byte
/// allocation, plus the buffer's capacity), so give each thread its own
/// clone there. A handle that is dropped leaves its pushes for the next
/// commit.
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
    pub(super) shared: Arc<Shared<T>>,
    /// This handle's own buffer (see the module docs): where its pushes go
    /// in per-producer order, and its permits' values; made (and
    /// registered) the first time one of those needs it, so that a handle
    /// that only pushes in arrival order costs its queue nothing.
    slot: OnceLock<Arc<Slot<T>>>,
    /// Its number among the queue's handles (see `Queue::new_handle`).
    seq: usize,
}

/// Why a push without waiting did not land.
pub(super) enum Missed {
    Closed,
    Full,
}

/// Pushing into the queue's pending side, waiting for room, and the handle's state.
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
    pub(super) fn push_into_slot(&self, value: &mut Option<T>) -> Result<(), Missed> {
        let mut slot = self.lock_target();
        match self.push_locked(&mut slot, value) {
            // Other shards may hold prepaid room: look again with every
            // shard locked, where "full" is exact.
            Err(Missed::Full) if slot.shard => {
                drop(slot);
                self.push_reclaiming(value)
            }
            pushed => pushed,
        }
    }

    /// The push into `slot`, locked by the caller (see
    /// [`push_into_slot`](Self::push_into_slot)). Always inlined: it is
    /// the whole of the fast path, which must not pay a call.
    #[inline(always)]
    fn push_locked(&self, slot: &mut SlotState<T>, value: &mut Option<T>) -> Result<(), Missed> {
        if self.shared.is_closed() {
            return Err(Missed::Closed);
        }
        // Grown before room is taken: if this panics (capacity overflow),
        // nothing changed. Room for a run is kept ready too: whether this
        // push opens one is known only once the clock is read, after the
        // room is taken (on a bounded queue the room's compare-and-swap
        // has fetched the clock's line by then). The stamp comes last: a
        // push that fails must not have moved the slot's epoch.
        slot.items.reserve(1);
        slot.ready_for_run();
        if !self.shared.take_one(slot) {
            return Err(Missed::Full);
        }
        slot.open_run(&self.shared.counters.clock);
        slot.items.extend(value.take());
        Ok(())
    }

    /// A push into a shard that found no room: pushes with every shard
    /// locked and their prepaid room back in `room`, so that a miss means
    /// the queue is full.
    #[cold]
    #[inline(never)]
    fn push_reclaiming(&self, value: &mut Option<T>) -> Result<(), Missed> {
        self.with_room_reclaimed(|slot| self.push_locked(slot, value))
            // No shard holds prepaid room: the miss was exact.
            .unwrap_or(Err(Missed::Full))
    }

    /// Runs `f` on the slot this thread's pushes go to, with every shard
    /// locked and their prepaid room back in `room`: its shard, or, if the
    /// order changed since the caller looked, the handle's own slot
    /// (locked after the shards were released: no room is prepaid there).
    /// `None`, running nothing, if no shard can hold prepaid room (see
    /// [`Shared::lock_shards`]).
    fn with_room_reclaimed<R>(&self, f: impl FnOnce(&mut SlotState<T>) -> R) -> Option<R> {
        let mut shards = self.shared.lock_shards()?;
        let shard = self.shared.own_shard(&mut shards);
        if shard.arrival {
            return Some(f(shard));
        }
        drop(shards);
        // Registered already if a push under the control lock gets here
        // (see `PushFuture::poll`).
        Some(f(&mut self.own_slot().state.lock()))
    }

    /// A new handle of `shared`, numbered `seq`.
    pub(super) fn new(shared: Arc<Shared<T>>, seq: usize) -> Self {
        Producer {
            shared,
            slot: OnceLock::new(),
            seq,
        }
    }

    /// This handle's own slot, registered now if it has none yet (takes
    /// the control lock then: never call it with that lock held).
    #[inline]
    pub(super) fn own_slot(&self) -> &Slot<T> {
        match self.slot.get() {
            Some(slot) => slot,
            None => self.register_own_slot(),
        }
    }

    /// The handle with its own slot registered (tests of the registry).
    #[cfg(test)]
    pub(super) fn with_own_slot(self) -> Self {
        self.own_slot();
        self
    }

    #[cold]
    fn register_own_slot(&self) -> &Slot<T> {
        let mut queue = self.shared.lock();
        // Under the control lock: two threads pushing through this handle
        // cannot both register one.
        if self.slot.get().is_none() {
            let slot = queue.register_slot(self.seq);
            // Set under the lock that every setter takes: never set yet.
            let _ = self.slot.set(slot);
        }
        drop(queue);
        self.slot.get().expect("registered above")
    }

    /// Locks the slot a push goes to: in arrival order the shard of this
    /// thread (any slot keeps arrival order; one per thread keeps a
    /// thread's pushes through many handles in one run), in per-producer
    /// order this handle's own.
    #[inline]
    fn lock_target(&self) -> SlotGuard<'_, SlotState<T>> {
        if self.shared.flags.arrival.load(Relaxed) {
            if let Some(shard) = self.shared.shard() {
                let shard = shard.state.lock();
                // Checked under the shard's lock, which a change of order
                // holds: the flag read above is only a hint.
                if shard.arrival {
                    return shard;
                }
            }
        }
        self.own_slot().state.lock()
    }

    /// Locks this handle's slot and takes room for one value (bounded), if
    /// the collection is open and has it: a permit's reservation, filled
    /// later by [`push_reserved`](Self::push_reserved).
    #[cfg(feature = "async")]
    fn lock_with_room(&self) -> Result<SlotGuard<'_, SlotState<T>>, Missed> {
        let slot = self.own_slot().state.lock();
        if self.shared.is_closed() {
            return Err(Missed::Closed);
        }
        if self.shared.take_room(1) > 0 {
            return Ok(slot);
        }
        // Shards may hold prepaid room: look again with every shard
        // locked (before this slot, in the lock order), where "full" is
        // exact.
        drop(slot);
        let shards = self.shared.lock_shards();
        let slot = self.own_slot().state.lock();
        if self.shared.is_closed() {
            return Err(Missed::Closed);
        }
        let taken = self.shared.take_room(1);
        drop(shards);
        if taken == 0 {
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
            // Shards may hold prepaid room: taken back, under the control
            // lock, so that "none" stays true until room is freed (which
            // wakes this wait).
            drop(self.shared.lock_shards());
            if self.shared.has_room() {
                break;
            }
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
    pub(super) fn snooze_for_room(&self) -> bool {
        #[cfg(not(all(test, loom)))]
        {
            let mut step = 0;
            while step < SNOOZE_STEPS {
                backoff(&mut step);
                if self.shared.is_closed() || self.shared.has_room() {
                    return true;
                }
            }
        }
        false
    }

    /// Adds `value` to the collection's pending side. On a full
    /// [bounded](crate::BufferedCollection::bounded) collection, blocks
    /// until there is room or the collection is closed or dropped (see
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
    /// resolves to a [`PushPermit`](crate::PushPermit) holding that room: its
    /// [`push`](crate::PushPermit::push) cannot fail, and dropping it unused gives
    /// the room back. On an unbounded collection it resolves at once. As
    /// tokio's `Sender::reserve`. It reserves *room* under the bound, not
    /// allocation (which is what `reserve` means on the collections, as on
    /// `Vec`; see [Terms](crate#terms)).
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
    /// value arrives when [`push`](crate::PushPermit::push) is called, not when
    /// the room was reserved. A permit used
    /// after the collection was dropped or taken apart
    /// ([`into_parts`](crate::BufferedCollection::into_parts)) drops its
    /// value at once, as tokio's `Permit::send` does once the receiver is
    /// gone: nothing could take it any more. An owner that must see every
    /// value closes, then waits until
    /// [`wait_pending`](crate::BufferedCollection::wait_pending) returns
    /// [`WaitError::Disconnected`](crate::WaitError::Disconnected) (which it does only once no permit is
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
    /// [`OwnedPushPermit`](crate::OwnedPushPermit) it resolves to borrow nothing, so they can move
    /// into a spawned task; the permit's [`push`](crate::OwnedPushPermit::push)
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
        let mut slot = self.lock_target();
        let mut moved = self.move_batch_locked(&mut slot, batch)?;
        let shard = slot.shard;
        drop(slot);
        if !batch.is_empty() && shard {
            // Not all of it fitted (so the queue is bounded), and other
            // shards may hold prepaid room: again with every shard locked,
            // where "full" is exact.
            let again = self
                .with_room_reclaimed(|slot| self.move_batch_locked(slot, batch))
                // No shard holds prepaid room: what did not fit was exact.
                .unwrap_or(Ok(false));
            match again {
                // Closed since the first part moved: that part counts (a
                // close refuses only what comes after it).
                Err(Missed::Closed) if moved => {}
                again => moved |= again?,
            }
        }
        if moved {
            // Every slot unlocked: may take the control lock.
            self.shared.after_push();
        }
        Ok(())
    }

    /// The batch move into `slot`, locked by the caller (see
    /// [`move_batch`](Self::move_batch)); returns whether it moved any.
    /// Waking a consumer is the caller's, once the slot is unlocked.
    fn move_batch_locked(
        &self,
        slot: &mut SlotState<T>,
        batch: &mut Vec<T>,
    ) -> Result<bool, Missed> {
        // Checked first: an empty batch on a closed collection says so.
        if self.shared.is_closed() {
            return Err(Missed::Closed);
        }
        if batch.is_empty() {
            return Ok(false);
        }
        let bounded = self.shared.flags.max.load(Relaxed) != usize::MAX;
        let wanted = if bounded {
            let free = slot
                .prepaid
                .saturating_add(self.shared.counters.room.load(Relaxed));
            batch.len().min(free)
        } else {
            batch.len()
        };
        if wanted == 0 {
            return Ok(false);
        }
        // Grown before room is taken and before anything moves: if this
        // panics, nothing has left `batch`. (An unbounded push of a whole
        // batch into an empty slot swaps buffers below and needs no room.)
        if bounded || !slot.items.is_empty() {
            slot.items.reserve(wanted);
        }
        slot.ready_for_run();
        // The room read above may be gone (another push, a permit, a pass
        // took it): then nothing happened. Prepaid room (this slot's) is
        // used first.
        let prepaid = if bounded { wanted.min(slot.prepaid) } else { 0 };
        slot.prepaid -= prepaid;
        let n = prepaid + self.shared.take_room(wanted - prepaid);
        if n == 0 {
            return Ok(false);
        }
        // One stamp for the whole batch (it is one push), claimed once
        // nothing can fail any more.
        slot.open_run(&self.shared.counters.clock);
        if n == batch.len() && slot.items.is_empty() {
            // Everything fits in an empty slot: hand over the buffer and
            // take the slot's (empty, with its capacity) in exchange.
            core::mem::swap(&mut slot.items, batch);
        } else {
            slot.items.extend(batch.drain(..n));
        }
        Ok(true)
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
    /// Under the control lock (free room grows only under it, so a miss here
    /// registers before any room can appear): takes room for one value
    /// into a permit of this handle, or waits for it.
    pub(super) fn poll_reserve(
        &self,
        cx: &mut Context<'_>,
        registration: &mut Option<Registration>,
    ) -> Poll<Result<(), ProducerClosed<()>>> {
        // A permit's value goes to this handle's own slot: registered
        // first, as that takes the control lock held below.
        self.own_slot();
        poll_registered(
            &self.shared,
            cx,
            registration,
            |queue| &mut queue.producer_wakers,
            |_queue| match self.lock_with_room() {
                Ok(mut slot) => {
                    slot.reserved += 1;
                    self.own_slot().permits.store(true, Relaxed);
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
    pub(super) fn push_reserved(&self, value: T) -> Option<T> {
        let unread = {
            let mut slot = self.own_slot().state.lock();
            // Under the slot's lock, which the collection's last look at
            // the slots takes after setting `gone`.
            if self.shared.flags.gone.load(SeqCst) {
                slot.reserved -= 1;
                Some(value)
            } else {
                // Grown first: if this panics, nothing changed (the
                // permit still holds its room, and no stamp was claimed).
                slot.items.reserve(1);
                slot.ready_for_run();
                slot.reserved -= 1;
                slot.open_run(&self.shared.counters.clock);
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
    pub(super) fn release_reserved(&self, n: usize) {
        let shared = &self.shared;
        let mut queue = shared.lock();
        {
            // Registered when the permits were taken (`poll_reserve`).
            let own = self.slot.get().expect("a handle with permits has its slot");
            let mut slot = own.state.lock();
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
    /// A new handle (see
    /// [a handle per connection](Producer#a-handle-per-connection-or-per-thread)):
    /// four words, no allocation.
    fn clone(&self) -> Self {
        let seq = self.shared.count_handle();
        Producer::new(Arc::clone(&self.shared), seq)
    }
}

impl<T> Drop for Producer<T> {
    fn drop(&mut self) {
        let Some(slot) = self.slot.get() else {
            // A handle that never needed a slot of its own leaves nothing
            // but its count: no lock, unless it is the last one, whose
            // leaving ends `wait_pending` (woken under the control lock,
            // after the count says 0: see `Queue::wait_outcome`).
            if self.shared.handles.producers.fetch_sub(1, SeqCst) == 1 {
                self.shared.lock().wake_consumers();
            }
            return;
        };
        let mut queue = self.shared.lock();
        // A permit borrows its handle (or, owned, releases its room before
        // the handle it holds is dropped): permits of this handle still
        // counted now were forgotten (`mem::forget`). Their room would be
        // lost for good; it goes back. (Only a handle that took a permit
        // looks.)
        #[cfg(feature = "async")]
        if slot.permits.load(Relaxed) {
            let forgotten = core::mem::take(&mut slot.state.lock().reserved);
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
        // Its values wait for the next commit, which removes the slot.
        slot.dead.store(true, Relaxed);
        queue.dead += 1;
        if queue.dead >= queue.sweep_at {
            queue.sweep();
        }
        if self.shared.handles.producers.fetch_sub(1, SeqCst) == 1 {
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
    /// push made on another thread (or a commit) moves it on with one
    /// atomic read-modify-write, as a channel's send does; a commit merges
    /// the threads' values by their stamps, O(n log k) for n values from k
    /// threads, and copies nothing more than
    /// [`PerProducer`](ProducerOrder::PerProducer) when the threads pushed
    /// one after another. How many handles a thread pushes through does
    /// not matter.
    #[default]
    Arrival,
    /// Each handle's values together, handle after handle, in the order
    /// the handles were made: pushes through different handles are not
    /// interleaved in the order they arrived. A push touches nothing shared
    /// with other handles' pushes: the fastest order when many threads
    /// push at once and the order across threads does not matter.
    ///
    /// What it can do to a service: a value pushed *after* another can be
    /// committed *before* it when the two went through different handles.
    /// A server that gives each connection one handle for its messages and
    /// another for connect and disconnect can then handle a client's
    /// disconnect before that client's last messages, or a message before
    /// its connect; with [`Arrival`](ProducerOrder::Arrival) it cannot.
    /// Use this order only when each handle's values stand alone.
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
    pub(super) value: T,
}

/// Getting the value back.
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

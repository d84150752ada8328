//! Cross-thread producers for [`BufferedCollection`](crate::BufferedCollection).
//!
//! # The shared queue
//!
//! Producers push into one `Vec` behind a mutex; the collection swaps it out
//! whole at `commit`. The same mutex guards the queue's state:
//!
//! * `closed`: set by `BufferedCollection::close` and by the collection's
//!   drop; pushes then hand the value back.
//! * `producers`: live `Producer` handles, so `wait_pending` can tell that
//!   nothing can arrive any more.
//! * For a bounded collection, `max` and `held`: `held` counts the elements
//!   the collection holds outside the queue (visible + local pending), as
//!   last published by the collection, plus the room a traversal reserved
//!   for its pushes. Producers push only while `held + items.len() < max`.
//!   The collection publishes every increase before it happens (its own
//!   pushes lock and count; a traversal reserves the room it may use when
//!   it starts) and decreases lazily (at its next `commit`, `wait_pending`,
//!   `traverse`, …), so `held` is never below the true count and the
//!   bound holds at every instant. A new bound is checked against the
//!   total and installed under one lock, so no push slips in between.
//!
//! # Who wakes whom
//!
//! Two condition variables and, with feature `async`, two sets of task
//! wakers:
//!
//! * *Consumers* (`wait_pending`, `wait_pending_async`) wait for the queue
//!   to become non-empty or for nothing more to be able to arrive. They are
//!   woken by the push that makes the queue non-empty, by the last producer
//!   leaving and by a close.
//! * *Producers* blocked for room (`push`, `push_batch`, `push_async` on a
//!   full bounded queue) are woken whenever room is freed: the collection
//!   publishing a lower count (a `commit`, the end of a traversal, a wait,
//!   its clears), the clears emptying the producers' queue itself, a bound
//!   change, and a close.
//!
//! Waiters register (a count, or a waker in a slot) under the lock before
//! they sleep, and every state change that can end a wait decides whom to
//! wake under the same lock, so no wake-up is lost; an uncontended push
//! touches no condition variable and no waker.
//!
//! **No foreign code runs under the lock.** What a critical section decides
//! to wake is recorded in the queue and delivered by the guard
//! ([`Locked`]) after it releases the lock: condition variables first,
//! then the wakers, each wake isolated so that one waker that panics
//! costs no one else's wake-up (its panic is reported by the panic hook
//! and then dropped: the operation that woke it has completed and returns
//! its own result). Wakers are cloned before the lock is taken and dropped
//! after it is released; queued elements are dropped outside it. A waker
//! may therefore look at the queue (`Producer::is_closed`, a push) from
//! `wake` or `clone` without deadlocking.
//!
//! A future that is dropped while registered removes its waker (each
//! registration is a slot the future remembers, valid until the set is
//! woken), so cancelled futures leave nothing behind.

use alloc::vec::Vec;
use core::fmt;
use core::ops::{Deref, DerefMut};
use std::time::{Duration, Instant};

use crate::error::TryPushError;
use crate::sync::{lock, wait, wait_timeout, Arc, Condvar, Mutex, MutexGuard};
#[cfg(feature = "async")]
use core::future::Future;
#[cfg(feature = "async")]
use core::pin::Pin;
#[cfg(feature = "async")]
use core::task::{Context, Poll, Waker};

/// The queue producers push into and the state around it.
pub(crate) struct Shared<T> {
    queue: Mutex<Queue<T>>,
    /// `wait_pending` waits here.
    pushed: Condvar,
    /// Producers blocked on a full bounded collection wait here.
    room: Condvar,
}

/// The state behind the mutex; see the module docs.
pub(crate) struct Queue<T> {
    items: Vec<T>,
    closed: bool,
    producers: usize,
    /// The bound; `usize::MAX` when unbounded (then `held` is unused).
    max: usize,
    held: usize,
    waiting_consumers: usize,
    waiting_producers: usize,
    /// Wake-ups decided under the lock, delivered by [`Locked`] once it is
    /// released.
    wake: Wakeups,
    /// Whether `wake` holds anything (one test on the uncontended path).
    must_wake: bool,
    /// Tasks waiting in `wait_pending_async` (feature `async`).
    #[cfg(feature = "async")]
    consumer_wakers: Wakers,
    /// Tasks waiting in `push_async` for room (feature `async`).
    #[cfg(feature = "async")]
    producer_wakers: Wakers,
}

/// What to wake once the lock is released.
#[derive(Default)]
struct Wakeups {
    /// Notify the `pushed` condition variable.
    consumers: bool,
    /// Notify the `room` condition variable.
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
            shared.room.notify_all();
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
    /// Decides to wake the consumers (a push made the queue non-empty, the
    /// last producer left, or a close).
    #[inline]
    fn wake_consumers(&mut self) {
        if self.waiting_consumers > 0 {
            self.wake.consumers = true;
            self.must_wake = true;
        }
        #[cfg(feature = "async")]
        if self.consumer_wakers.take_into(&mut self.wake.wakers) {
            self.must_wake = true;
        }
    }

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

    /// Queues `value` (the caller checked `closed` and the room, and made
    /// room in `items` first, so that nothing here can fail while `value`
    /// would be dropped under the lock) and wakes the consumers if the
    /// queue was empty: consumers only wait on an empty queue, so later
    /// pushes find the wake-up already decided.
    #[inline]
    fn push_value(&mut self, value: T) {
        let was_empty = self.items.is_empty();
        self.items.push(value);
        if was_empty {
            self.wake_consumers();
        }
    }

    /// What a wait for pending elements can answer now: `Pending` when
    /// producers' pushes are queued, `Disconnected` when nothing can arrive
    /// any more (closed, or no producer), `Full` when nothing can arrive
    /// until the waiting collection itself frees room (bounded and full,
    /// nothing queued, a producer blocked for room: the caller is the only
    /// one who can make progress), `None` while it has to wait.
    ///
    /// The caller published the collection's exact count before asking,
    /// and the collection cannot change while it waits, so `held` is exact.
    #[inline]
    fn wait_outcome(&self) -> Option<Waited> {
        if !self.items.is_empty() {
            Some(Waited::Pending)
        } else if self.closed || self.producers == 0 {
            Some(Waited::Disconnected)
        } else if self.max != usize::MAX && self.room() == 0 && self.producers_blocked() {
            Some(Waited::Full)
        } else {
            None
        }
    }

    /// Whether a producer is blocked for room: a thread in `push` or
    /// `push_batch`, or a task in `push_async`.
    #[inline]
    fn producers_blocked(&self) -> bool {
        let blocked = self.waiting_producers > 0;
        #[cfg(feature = "async")]
        let blocked = blocked || !self.producer_wakers.is_empty();
        blocked
    }

    /// A producer starts waiting for room: a consumer waiting on an empty
    /// queue is woken to see that only it can free the room (`Full`).
    #[inline]
    fn announce_blocked_producer(&mut self) {
        if self.items.is_empty() {
            self.wake_consumers();
        }
    }

    /// How many more elements producers may push now.
    #[inline]
    fn room(&self) -> usize {
        if self.max == usize::MAX {
            // Unbounded: never "full". A zero-sized `T` at `usize::MAX`
            // queued elements makes `Vec::push` panic with "capacity
            // overflow", which is the truth.
            usize::MAX
        } else {
            // `held + items.len() <= max` at every instant: `set_max`
            // installs a bound only over a total that fits it.
            self.max - self.held - self.items.len()
        }
    }

    /// Sets `held` to `owned`, the collection's exact count, and wakes
    /// blocked producers if that freed room.
    fn publish(&mut self, owned: usize) {
        if self.max == usize::MAX {
            return;
        }
        let freed = owned < self.held;
        self.held = owned;
        if freed {
            self.wake_producers();
        }
    }
}

/// The queue's lock. Dropping it (or waiting on a condition variable
/// through it) releases the lock first and then delivers the wake-ups the
/// critical section decided: no foreign code runs under the lock.
pub(crate) struct Locked<'a, T> {
    shared: &'a Shared<T>,
    /// `None` only inside `drop` and while a wait has the lock released.
    guard: Option<MutexGuard<'a, Queue<T>>>,
}

impl<'a, T> Locked<'a, T> {
    /// Releases the lock and delivers what the critical section decided
    /// to wake (after this, `guard` is `None`). Nothing to wake (an
    /// uncontended push) is the inline fast path.
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
            lock(&self.shared.queue)
        } else {
            match timeout {
                Some(timeout) => wait_timeout(condvar, guard, timeout),
                None => wait(condvar, guard),
            }
        });
        self
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

impl<T> Shared<T> {
    fn new(max: usize) -> Arc<Self> {
        Arc::new(Shared {
            queue: Mutex::new(Queue {
                items: Vec::new(),
                closed: false,
                producers: 0,
                max,
                held: 0,
                waiting_consumers: 0,
                waiting_producers: 0,
                wake: Wakeups::default(),
                must_wake: false,
                #[cfg(feature = "async")]
                consumer_wakers: Wakers::default(),
                #[cfg(feature = "async")]
                producer_wakers: Wakers::default(),
            }),
            pushed: Condvar::new(),
            room: Condvar::new(),
        })
    }

    fn lock(&self) -> Locked<'_, T> {
        Locked {
            shared: self,
            guard: Some(lock(&self.queue)),
        }
    }
}

/// The collection's end of the producers' queue. Dropping it closes the
/// queue: later pushes fail and queued elements are dropped exactly once.
pub(crate) struct ProducerLink<T> {
    shared: Arc<Shared<T>>,
    /// Empty buffer swapped with the queue at each commit.
    spare: Vec<T>,
}

impl<T> ProducerLink<T> {
    /// A link for a collection bounded to `max` (`usize::MAX`: unbounded).
    pub(crate) fn new(max: usize) -> Self {
        ProducerLink {
            shared: Shared::new(max),
            spare: Vec::new(),
        }
    }

    /// Locks the queue and publishes `owned` (the collection's exact count
    /// of visible + local pending elements; a bounded collection only).
    fn sync(&self, owned: usize) -> Locked<'_, T> {
        let mut queue = self.shared.lock();
        queue.publish(owned);
        queue
    }

    /// Appends everything queued so far to `dest`, in queue order, and
    /// publishes `dest`'s new length as the collection's count (the caller
    /// has emptied its local pending buffer into `dest`).
    ///
    /// Nothing leaves the queue before `dest` has room for all of it: if
    /// growing `dest` panics (capacity overflow, allocation failure), every
    /// item is still queued, in order, and the next commit takes it.
    pub(crate) fn take_into(&mut self, dest: &mut Vec<T>) {
        debug_assert!(self.spare.is_empty());
        loop {
            let needed = {
                let mut queue = self.shared.lock();
                let n = queue.items.len();
                // An empty `dest` takes the items by a swap below: no room
                // needed.
                if dest.is_empty() || n <= dest.capacity() - dest.len() {
                    core::mem::swap(&mut queue.items, &mut self.spare);
                    // The taken items now count as the collection's.
                    queue.publish(dest.len() + n);
                    break;
                }
                n
            };
            // Outside the lock, so producers are not held up by the
            // allocation. Producers may queue more meanwhile: try again.
            dest.reserve(needed);
        }
        if dest.is_empty() {
            // No copy: `spare` gets `dest`'s empty buffer for the next swap.
            core::mem::swap(dest, &mut self.spare);
        } else {
            // `dest` has room for all of `spare`: this cannot allocate or
            // panic. It empties `spare` but keeps its capacity.
            dest.append(&mut self.spare);
        }
    }

    /// Producers' pushes not yet taken.
    pub(crate) fn len(&self) -> usize {
        self.shared.lock().items.len()
    }

    /// Empties the producers' queue and publishes `owned`: both free room,
    /// so producers blocked for it are woken. The items are dropped after
    /// the lock is released (their `Drop` is user code).
    pub(crate) fn clear(&self, owned: usize) {
        let items = {
            let mut queue = self.sync(owned);
            let items = core::mem::take(&mut queue.items);
            if !items.is_empty() && queue.max != usize::MAX {
                queue.wake_producers();
            }
            items
        };
        drop(items);
    }

    /// Publishes the collection's exact count `owned`, handing back room a
    /// traversal freed or reserved.
    pub(crate) fn publish(&self, owned: usize) {
        drop(self.sync(owned));
    }

    /// The owner's own push into a bounded collection holding `owned`
    /// elements: whether there is room for one more, counting the queue;
    /// if so the new element is counted at once.
    pub(crate) fn reserve_one(&self, owned: usize) -> bool {
        let mut queue = self.sync(owned);
        if queue.room() == 0 {
            return false;
        }
        queue.held += 1;
        true
    }

    /// Before a traversal of a bounded collection holding `owned`
    /// elements: returns the maximum length the traversal may reach
    /// (visible + its pushes), and while producers are alive reserves that
    /// room so they cannot take it meanwhile (they find the collection full
    /// until the room is published again).
    pub(crate) fn reserve_for_pass(&self, owned: usize) -> usize {
        let mut queue = self.sync(owned);
        let pass_max = queue.max - queue.items.len();
        if queue.producers > 0 {
            queue.held = pass_max;
        }
        pass_max
    }

    /// Changes the bound to `max` (`usize::MAX`: unbounded) if the
    /// collection's `owned` elements plus the producers' queue fit under
    /// it, checked and installed under one lock; returns whether it did.
    /// Producers blocked for room re-check at once.
    pub(crate) fn set_max(&self, max: usize, owned: usize) -> bool {
        let mut queue = self.shared.lock();
        if queue.items.len().saturating_add(owned) > max {
            return false;
        }
        queue.max = max;
        queue.held = if max == usize::MAX { 0 } else { owned };
        queue.wake_producers();
        true
    }

    /// Refuses all later pushes; what is queued stays for the next commit.
    /// Wakes producers blocked on a full collection (they get their value
    /// back) and consumers (nothing more can arrive).
    pub(crate) fn close(&self) {
        let mut queue = self.shared.lock();
        queue.closed = true;
        queue.wake_producers();
        queue.wake_consumers();
    }

    /// Closes and takes everything queued, in order.
    pub(crate) fn close_and_take(&self) -> Vec<T> {
        self.close();
        core::mem::take(&mut self.shared.lock().items)
    }

    pub(crate) fn is_closed(&self) -> bool {
        self.shared.lock().closed
    }

    pub(crate) fn producer_count(&self) -> usize {
        self.shared.lock().producers
    }

    /// A new producer handle; publishes `owned` first.
    pub(crate) fn producer(&self, owned: usize) -> Producer<T> {
        self.sync(owned).producers += 1;
        Producer {
            shared: Arc::clone(&self.shared),
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
            if let Some(outcome) = queue.wait_outcome() {
                return outcome;
            }
            let wait_for = match (timeout, deadline) {
                (Some(_), Some(deadline)) => {
                    let now = Instant::now();
                    if now >= deadline {
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

/// How [`ProducerLink::wait_pending`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Waited {
    /// Producers' pushes are queued.
    Pending,
    /// Nothing queued, and nothing can arrive: closed, or no producer.
    Disconnected,
    /// Nothing queued, and nothing can arrive until the waiting collection
    /// frees room: it is bounded and full, and a producer is blocked for
    /// room.
    Full,
    /// The timeout passed first.
    Timeout,
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
/// Cheap to clone (`Arc`), `Send + Sync` when `T: Send`. Elements pushed
/// through producers become visible at the next
/// [`commit`](crate::BufferedCollection::commit), after the collection's own
/// pending pushes, each producer's pushes in the order it made them.
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
/// A push that makes the queue non-empty wakes the collection's waits; the
/// last handle leaving and a close wake them too. Producers blocked for
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
}

impl<T> Producer<T> {
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
        let mut queue = self.shared.lock();
        let mut announced = false;
        loop {
            if queue.closed {
                return Err(ProducerClosed { value });
            }
            if queue.room() > 0 {
                break;
            }
            queue.waiting_producers += 1;
            if !announced {
                announced = true;
                queue.announce_blocked_producer();
            }
            queue = queue.wait(&self.shared.room, None);
            queue.waiting_producers -= 1;
        }
        // Grown before `value` moves: if that panics (capacity overflow),
        // `value` is dropped after the lock is released.
        queue.items.reserve(1);
        queue.push_value(value);
        Ok(())
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
            shared: &self.shared,
            value: Some(value),
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
        let mut queue = self.shared.lock();
        if queue.closed {
            return Err(TryPushError::Closed(value));
        }
        if queue.room() == 0 {
            return Err(TryPushError::Full(value));
        }
        // As in `push`: grown before `value` moves.
        queue.items.reserve(1);
        queue.push_value(value);
        Ok(())
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
        let mut queue = self.shared.lock();
        if queue.closed {
            return Err(TryPushError::Closed(()));
        }
        Self::move_batch(&mut queue, batch);
        drop(queue);
        if batch.is_empty() {
            Ok(())
        } else {
            Err(TryPushError::Full(()))
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
        let mut queue = self.shared.lock();
        let mut announced = false;
        loop {
            if queue.closed {
                return Err(ProducerClosed { value: () });
            }
            Self::move_batch(&mut queue, batch);
            if batch.is_empty() {
                return Ok(());
            }
            // Full. The consumers woken by what was just moved are woken
            // before this waits (`Locked::wait` delivers first).
            queue.waiting_producers += 1;
            if !announced {
                announced = true;
                queue.announce_blocked_producer();
            }
            queue = queue.wait(&self.shared.room, None);
            queue.waiting_producers -= 1;
        }
    }

    /// Moves the longest prefix of `batch` that fits into the queue, and
    /// wakes the consumers if the queue was empty.
    fn move_batch(queue: &mut Queue<T>, batch: &mut Vec<T>) {
        let n = queue.room().min(batch.len());
        if n == 0 {
            return;
        }
        let was_empty = queue.items.is_empty();
        if n == batch.len() && was_empty {
            // Everything fits in an empty queue: hand over the buffer and
            // take the queue's (empty, with its capacity) in exchange.
            core::mem::swap(&mut queue.items, batch);
        } else {
            // Reserve first: if it panics nothing has left `batch`.
            queue.items.reserve(n);
            queue.items.extend(batch.drain(..n));
        }
        if was_empty {
            queue.wake_consumers();
        }
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
        self.shared.lock().closed
    }
}

impl<T> Clone for Producer<T> {
    fn clone(&self) -> Self {
        self.shared.lock().producers += 1;
        Producer {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl<T> Drop for Producer<T> {
    fn drop(&mut self) {
        let mut queue = self.shared.lock();
        queue.producers -= 1;
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
/// resolves to the `bool` that
/// [`wait_pending`](crate::BufferedCollection::wait_pending) would return.
///
/// `Send` when `T: Send`. Dropping it before it resolves loses nothing
/// (cancel safe): it only waits, and what was pushed stays pending. A
/// dropped future takes its waker out of the queue, and a future polled
/// again with another task's waker replaces the one it registered: the
/// queue holds at most one waker per waiting future. Wakers are cloned
/// and woken outside the queue's lock (see [`Producer`]'s wake-ups).
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
    type Output = bool;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<bool> {
        let this = self.get_mut();
        if this.ready {
            return Poll::Ready(true);
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
                queue
                    .wait_outcome()
                    .map(|outcome| outcome == Waited::Pending)
            },
            |_| {},
        )
    }
}

#[cfg(feature = "async")]
impl<T> Drop for WaitPendingFuture<'_, T> {
    /// A cancelled wait removes its waker.
    fn drop(&mut self) {
        deregister(self.shared, &mut self.registration, |queue| {
            &mut queue.consumer_wakers
        });
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
/// keep the value across a cancellation, use
/// [`try_push`](Producer::try_push) and retry on
/// [`Full`](TryPushError::Full). A dropped future takes its waker out of
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
    shared: &'a Shared<T>,
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
        let value = &mut this.value;
        poll_registered(
            this.shared,
            cx,
            &mut this.registration,
            |queue| &mut queue.producer_wakers,
            |queue| {
                if !queue.closed && queue.room() == 0 {
                    return None;
                }
                // The value leaves the future only here, to be pushed or
                // handed back (grown first, as in `Producer::push`).
                if !queue.closed {
                    queue.items.reserve(1);
                }
                let value = value.take()?;
                Some(if queue.closed {
                    Err(ProducerClosed { value })
                } else {
                    queue.push_value(value);
                    Ok(())
                })
            },
            Queue::announce_blocked_producer,
        )
    }
}

#[cfg(feature = "async")]
impl<T> Drop for PushFuture<'_, T> {
    /// A cancelled push removes its waker (and drops its value, which was
    /// not pushed).
    fn drop(&mut self) {
        deregister(self.shared, &mut self.registration, |queue| {
            &mut queue.producer_wakers
        });
    }
}

/// One poll of a queue future: under the lock, `attempt` either resolves
/// (then the future's waker, if registered, is removed) or says it has to
/// wait (then the task's waker is registered in `wakers`, unless the one
/// registered already wakes the same task; `registered` then runs under
/// the lock, e.g. to announce a producer blocked for room). The task's waker is cloned
/// before the lock is taken, and replaced or removed wakers are dropped
/// after it is released: no waker code runs under the lock. If the clone
/// panics, nothing has changed (a push future still holds its value).
#[cfg(feature = "async")]
fn poll_registered<T, R>(
    shared: &Shared<T>,
    cx: &mut Context<'_>,
    registration: &mut Option<Registration>,
    wakers: impl Fn(&mut Queue<T>) -> &mut Wakers,
    mut attempt: impl FnMut(&mut Queue<T>) -> Option<R>,
    registered: impl Fn(&mut Queue<T>),
) -> Poll<R> {
    let mut clone: Option<Waker> = None;
    loop {
        let mut queue = shared.lock();
        let queue_ref: &mut Queue<T> = &mut queue;
        if let Some(result) = attempt(queue_ref) {
            let old = registration
                .take()
                .and_then(|r| wakers(queue_ref).deregister(r));
            drop(queue);
            drop((old, clone));
            return Poll::Ready(result);
        }
        let set = wakers(queue_ref);
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
            registered(queue_ref);
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

#[cfg(feature = "async")]
impl<T> fmt::Debug for PushFuture<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PushFuture")
            .field("resolved", &self.value.is_none())
            .finish_non_exhaustive()
    }
}

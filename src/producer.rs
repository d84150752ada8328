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
//!   bound holds at every instant.
//!
//! Two condition variables: `pushed` wakes `wait_pending` (a push, the last
//! producer leaving, a close); `room` wakes producers blocked on a full
//! bounded collection (room published, or a close). Waiters register in
//! `waiting_*` under the lock before they wait, and notifiers read those
//! counts under the lock, so no wake-up is lost and an uncontended push
//! never touches a condition variable.

use alloc::vec::Vec;
use core::fmt;
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
    /// Tasks waiting in `wait_pending_async` (feature `async`).
    #[cfg(feature = "async")]
    consumer_wakers: Vec<Waker>,
    /// Tasks waiting in `push_async` for room (feature `async`).
    #[cfg(feature = "async")]
    producer_wakers: Vec<Waker>,
}

impl<T> Queue<T> {
    /// Wakes the tasks waiting in `wait_pending_async` (after a push, the
    /// last producer leaving or a close). Wakers only schedule their task,
    /// so this runs under the lock.
    #[inline]
    fn wake_async_consumers(&mut self) {
        #[cfg(feature = "async")]
        if !self.consumer_wakers.is_empty() {
            self.consumer_wakers.drain(..).for_each(Waker::wake);
        }
    }

    /// Wakes the tasks waiting in `push_async` for room (room freed, bound
    /// changed, or a close).
    #[inline]
    fn wake_async_producers(&mut self) {
        #[cfg(feature = "async")]
        if !self.producer_wakers.is_empty() {
            self.producer_wakers.drain(..).for_each(Waker::wake);
        }
    }

    /// What a wait for pending elements can answer now: `Pending` when
    /// producers' pushes are queued, `Disconnected` when nothing can arrive
    /// any more (closed, or no producer), `None` while it has to wait.
    #[inline]
    fn wait_outcome(&self) -> Option<Waited> {
        if !self.items.is_empty() {
            Some(Waited::Pending)
        } else if self.closed || self.producers == 0 {
            Some(Waited::Disconnected)
        } else {
            None
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
            self.max - self.held - self.items.len()
        }
    }

    /// Sets `held` to `owned`, the collection's exact count, and wakes
    /// blocked producers if that freed room.
    fn publish(&mut self, owned: usize, room: &Condvar) {
        if self.max == usize::MAX {
            return;
        }
        let freed = owned < self.held;
        self.held = owned;
        if freed {
            self.wake_async_producers();
        }
        if freed && self.waiting_producers > 0 {
            room.notify_all();
        }
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
                #[cfg(feature = "async")]
                consumer_wakers: Vec::new(),
                #[cfg(feature = "async")]
                producer_wakers: Vec::new(),
            }),
            pushed: Condvar::new(),
            room: Condvar::new(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Queue<T>> {
        lock(&self.queue)
    }

    /// Queues `value` (the caller checked `closed` and the room under
    /// `queue`, this queue's lock), unlocks, and wakes whoever waits for
    /// pending elements.
    fn push_locked(&self, mut queue: MutexGuard<'_, Queue<T>>, value: T) {
        let waiting = if queue.items.is_empty() {
            queue.waiting_consumers
        } else {
            0
        };
        queue.items.push(value);
        queue.wake_async_consumers();
        drop(queue);
        self.wake_consumers(waiting);
    }

    /// Wakes `wait_pending` if anyone waits (read under the lock by the
    /// caller, who passes the count). `wait_pending` only sleeps on an empty
    /// queue, so pushers pass the count only when they made the queue
    /// non-empty: later pushes find the wake-up already sent.
    #[inline]
    fn wake_consumers(&self, waiting: usize) {
        if waiting > 0 {
            self.pushed.notify_all();
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
    fn sync(&self, owned: usize) -> MutexGuard<'_, Queue<T>> {
        let mut queue = self.shared.lock();
        queue.publish(owned, &self.shared.room);
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
                    queue.publish(dest.len() + n, &self.shared.room);
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

    /// Drops the queued items (outside the lock) and publishes `owned`.
    pub(crate) fn clear(&self, owned: usize) {
        let items = core::mem::take(&mut self.sync(owned).items);
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

    /// Elements queued by producers plus the collection's own count, for a
    /// bound check.
    pub(crate) fn total_with(&self, owned: usize) -> usize {
        self.sync(owned).items.len().saturating_add(owned)
    }

    /// Changes the bound. The caller has checked it is not below the total.
    pub(crate) fn set_max(&self, max: usize, owned: usize) {
        let mut queue = self.shared.lock();
        queue.max = max;
        queue.held = if max == usize::MAX { 0 } else { owned };
        queue.wake_async_producers();
        if queue.waiting_producers > 0 {
            self.shared.room.notify_all();
        }
    }

    /// Refuses all later pushes; what is queued stays for the next commit.
    /// Wakes producers blocked on a full collection (they get their value
    /// back).
    pub(crate) fn close(&self) {
        let mut queue = self.shared.lock();
        queue.closed = true;
        queue.wake_async_producers();
        queue.wake_async_consumers();
        let waiting = (queue.waiting_producers, queue.waiting_consumers);
        drop(queue);
        if waiting.0 > 0 {
            self.shared.room.notify_all();
        }
        self.shared.wake_consumers(waiting.1);
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
            queue.waiting_consumers += 1;
            queue = match (timeout, deadline) {
                (Some(_), Some(deadline)) => {
                    let now = Instant::now();
                    if now >= deadline {
                        queue.waiting_consumers -= 1;
                        return Waited::Timeout;
                    }
                    wait_timeout(&self.shared.pushed, queue, deadline - now)
                }
                _ => wait(&self.shared.pushed, queue),
            };
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
        loop {
            if queue.closed {
                return Err(ProducerClosed { value });
            }
            if queue.room() > 0 {
                break;
            }
            queue.waiting_producers += 1;
            queue = wait(&self.shared.room, queue);
            queue.waiting_producers -= 1;
        }
        self.shared.push_locked(queue, value);
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
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
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
        let queue = self.shared.lock();
        if queue.closed {
            return Err(TryPushError::Closed(value));
        }
        if queue.room() == 0 {
            return Err(TryPushError::Full(value));
        }
        self.shared.push_locked(queue, value);
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
        let waiting = if queue.items.is_empty() {
            queue.waiting_consumers
        } else {
            0
        };
        let pushed = Self::move_batch(&mut queue, batch);
        drop(queue);
        if pushed > 0 {
            self.shared.wake_consumers(waiting);
        }
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
        loop {
            if queue.closed {
                return Err(ProducerClosed { value: () });
            }
            let waiting = if queue.items.is_empty() {
                queue.waiting_consumers
            } else {
                0
            };
            if Self::move_batch(&mut queue, batch) > 0 {
                if batch.is_empty() {
                    drop(queue);
                    self.shared.wake_consumers(waiting);
                    return Ok(());
                }
                // The consumer may be waiting for exactly these.
                if waiting > 0 {
                    self.shared.pushed.notify_all();
                }
            } else if batch.is_empty() {
                return Ok(());
            }
            queue.waiting_producers += 1;
            queue = wait(&self.shared.room, queue);
            queue.waiting_producers -= 1;
        }
    }

    /// Moves the longest prefix of `batch` that fits into the queue;
    /// returns how many it moved.
    fn move_batch(queue: &mut Queue<T>, batch: &mut Vec<T>) -> usize {
        let n = queue.room().min(batch.len());
        if n == 0 {
            return 0;
        }
        if n == batch.len() && queue.items.is_empty() {
            // Everything fits in an empty queue: hand over the buffer and
            // take the queue's (empty, with its capacity) in exchange.
            core::mem::swap(&mut queue.items, batch);
        } else {
            // Reserve first: if it panics nothing has left `batch`.
            queue.items.reserve(n);
            queue.items.extend(batch.drain(..n));
        }
        queue.wake_async_consumers();
        n
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
        let waiting = if queue.producers == 0 {
            queue.wake_async_consumers();
            queue.waiting_consumers
        } else {
            0
        };
        drop(queue);
        // The last producer leaving ends `wait_pending`.
        self.shared.wake_consumers(waiting);
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

/// Registers `waker` in `wakers` unless it would wake the same task as one
/// already there (a future polled again before it was woken).
#[cfg(feature = "async")]
fn register(wakers: &mut Vec<Waker>, waker: &Waker) {
    if !wakers.iter().any(|w| w.will_wake(waker)) {
        wakers.push(waker.clone());
    }
}

/// The future returned by
/// [`BufferedCollection::wait_pending_async`](crate::BufferedCollection::wait_pending_async):
/// resolves to the `bool` that
/// [`wait_pending`](crate::BufferedCollection::wait_pending) would return.
///
/// `Send` when `T: Send`. Dropping it before it resolves loses nothing
/// (cancel safe): it only waits, and what was pushed stays pending.
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
}

#[cfg(feature = "async")]
impl<T> Future for WaitPendingFuture<'_, T> {
    type Output = bool;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<bool> {
        if self.ready {
            return Poll::Ready(true);
        }
        let shared = self.shared;
        let mut queue = shared.lock();
        if let Some(owned) = self.owned.take() {
            queue.publish(owned, &shared.room);
        }
        if let Some(outcome) = queue.wait_outcome() {
            return Poll::Ready(outcome == Waited::Pending);
        }
        // Registered under the lock that every push, close and last
        // producer's drop takes before waking: no wake-up is lost.
        register(&mut queue.consumer_wakers, cx.waker());
        Poll::Pending
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
/// [`Full`](TryPushError::Full).
#[cfg(feature = "async")]
#[cfg_attr(docsrs, doc(cfg(feature = "async")))]
#[must_use = "futures do nothing unless polled"]
pub struct PushFuture<'a, T> {
    shared: &'a Shared<T>,
    /// `None` once the future has resolved.
    value: Option<T>,
}

// The value is never pinned: the future only moves it out by value.
#[cfg(feature = "async")]
impl<T> Unpin for PushFuture<'_, T> {}

#[cfg(feature = "async")]
impl<T> Future for PushFuture<'_, T> {
    type Output = Result<(), ProducerClosed<T>>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        let shared = this.shared;
        let value = this
            .value
            .take()
            .expect("`PushFuture` polled after it resolved");
        let mut queue = shared.lock();
        if queue.closed {
            return Poll::Ready(Err(ProducerClosed { value }));
        }
        if queue.room() == 0 {
            // Registered under the lock that publishing room and closing
            // take before waking: no wake-up is lost.
            register(&mut queue.producer_wakers, cx.waker());
            this.value = Some(value);
            return Poll::Pending;
        }
        shared.push_locked(queue, value);
        Poll::Ready(Ok(()))
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

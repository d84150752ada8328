//! A queue's producers, seen from the collection: handing out producers,
//! closing, arrival order, and waiting for pushes.

use core::sync::atomic::Ordering;
use std::time::Duration;

use super::BufferedCollection;
use crate::error::{WaitError, WaitTimeoutError};
use crate::producer::{Producer, ProducerOrder, Waited};

/// Producers: [`producer`](Self::producer) hands out a handle that pushes
/// from any thread; closing, arrival order, and waiting for pushes.
impl<T, A> BufferedCollection<T, A> {
    /// A handle that pushes into this collection's pending side from any
    /// thread; see [`Producer`].
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::new();
    /// let p = c.producer();
    /// std::thread::scope(|s| {
    ///     s.spawn(|| p.push(1).unwrap());
    ///     s.spawn(|| p.push(2).unwrap());
    /// });
    /// c.commit();
    /// let mut seen = c.as_slice().to_vec();
    /// seen.sort();
    /// assert_eq!(seen, [1, 2]);
    /// ```
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn producer(&self) -> Producer<T> {
        // Relaxed: read only through `&mut self`, which any hand-over of
        // the collection between threads orders after this store.
        self.producers_made.store(true, Ordering::Relaxed);
        self.link.producer(self.owned())
    }

    /// Closes the collection to producers: from now on
    /// [`Producer::push`] and [`Producer::try_push`] hand the value back
    /// (producers blocked on a full collection wake and get theirs back).
    /// Everything producers pushed before stays pending: the next
    /// [`commit`](Self::commit) makes it visible. The collection's own
    /// pushes still work. Dropping the collection closes it too.
    /// Closing twice is harmless; a collection cannot be reopened.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut events = BufferedCollection::new();
    /// let producer = events.producer();
    /// producer.push(1).unwrap();
    /// events.close();
    /// assert!(events.is_closed());
    /// assert_eq!(producer.push(2).unwrap_err().into_inner(), 2);
    /// assert_eq!(events.commit(), 1); // the push made before `close`
    /// assert_eq!(events.as_slice(), [1]);
    /// ```
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn close(&mut self) {
        self.link.close();
    }

    /// Whether [`close`](Self::close) was called.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c: BufferedCollection<u8> = BufferedCollection::new();
    /// assert!(!c.is_closed());
    /// c.close();
    /// assert!(c.is_closed());
    /// ```
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn is_closed(&self) -> bool {
        self.link.is_closed()
    }

    /// The number of live [`Producer`] handles (clones count, dropped ones
    /// do not).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let c: BufferedCollection<u8> = BufferedCollection::new();
    /// let p = c.producer();
    /// let q = p.clone();
    /// assert_eq!(c.producer_count(), 2);
    /// drop((p, q));
    /// assert_eq!(c.producer_count(), 0);
    /// ```
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn producer_count(&self) -> usize {
        self.link.producer_count()
    }

    /// How [`commit`](Self::commit) orders the values that different
    /// [`Producer`] handles pushed: [`ProducerOrder::Arrival`] (the
    /// default) or [`ProducerOrder::PerProducer`].
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{BufferedCollection, ProducerOrder};
    ///
    /// let c: BufferedCollection<u8> = BufferedCollection::new();
    /// assert_eq!(c.producer_order(), ProducerOrder::Arrival);
    /// ```
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn producer_order(&self) -> ProducerOrder {
        self.link.order()
    }

    /// Sets how [`commit`](Self::commit) orders the values that different
    /// [`Producer`] handles push; see [`ProducerOrder`]. The change is one
    /// step against pushes on other threads (each push lands before it or
    /// after it). Values already queued when arrival order starts keep the
    /// per-producer order among themselves and come before every later
    /// push. Values queued when per-producer order starts are grouped by
    /// the thread that pushed them (arrival order queues a thread's pushes
    /// together, whichever handles it used), threads first, before the
    /// handles' later pushes; a permit's value (`reserve_async`) stays
    /// with its handle's. A clone of the collection keeps the setting.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{BufferedCollection, ProducerOrder};
    ///
    /// let mut c = BufferedCollection::new();
    /// c.set_producer_order(ProducerOrder::PerProducer);
    /// let (a, b) = (c.producer(), c.producer());
    /// b.push("b").unwrap();
    /// a.push("a").unwrap();
    /// c.commit();
    /// assert_eq!(c.as_slice(), ["a", "b"]); // handle `a` was made first
    /// assert_eq!(c.clone().producer_order(), ProducerOrder::PerProducer);
    /// ```
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn set_producer_order(&mut self, order: ProducerOrder) {
        self.link.set_order(order);
    }

    /// Blocks until there is something to [`commit`](Self::commit), or
    /// says why nothing will come without the caller's help, as a
    /// channel's `recv` does.
    ///
    /// Returns `Ok(())` at once if anything is pending (local pushes
    /// included), also after `close` while producers' earlier pushes wait
    /// for the commit. Hands the room that removals freed in a
    /// [bounded](Self::bounded) collection to blocked producers before it
    /// sleeps.
    ///
    /// # Errors
    ///
    /// * [`WaitError::Disconnected`]: nothing is pending and nothing can
    ///   arrive any more: the collection is [closed](Self::close) (and no
    ///   permit taken before the close is outstanding), or no [`Producer`]
    ///   is left. Only once everything pushed before has been committed.
    /// * [`WaitError::Full`], at once: the collection is
    ///   [bounded](Self::bounded) and full, nothing is pending, and a
    ///   producer is blocked for room that only the caller can free
    ///   (remove elements, [`clear`](Self::clear), raise the bound): a
    ///   loop that keeps what it handles can fill the bound this way.
    ///   Waiting would never end; the producers are still there.
    ///
    /// So the service loop is
    /// `while queue.wait_pending().is_ok() { queue.commit(); … }` when
    /// every pass removes what it handles, and a `match` that frees room
    /// on `Full` when passes keep elements (second example). When the loop
    /// ends on `Disconnected`, nothing is pending, and the visible side
    /// holds exactly what the passes kept.
    ///
    /// # Examples
    ///
    /// Every event is handled and removed; the loop ends when the last
    /// producer is gone and everything it pushed was handled:
    ///
    /// ```
    /// use read_write_collection::{BufferedCollection, WaitError};
    ///
    /// let mut events = BufferedCollection::new();
    /// let producer = events.producer();
    /// let worker = std::thread::spawn(move || {
    ///     for i in 0..100 {
    ///         producer.push(i).unwrap();
    ///     }
    ///     // `producer` is dropped here: the last one.
    /// });
    /// let mut handled = Vec::new();
    /// while events.wait_pending().is_ok() {
    ///     events.commit();
    ///     events.traverse(|e| handled.push(e.remove()));
    /// }
    /// worker.join().unwrap();
    /// assert_eq!(handled, (0..100).collect::<Vec<_>>());
    /// assert_eq!(events.wait_pending(), Err(WaitError::Disconnected));
    /// ```
    ///
    /// A queue bounded to 4 whose passes keep the odd events: `Full` says
    /// that only the owner can make progress, here by handing the kept
    /// events on.
    ///
    /// ```
    /// use read_write_collection::{BufferedCollection, WaitError};
    ///
    /// let mut events = BufferedCollection::bounded(4);
    /// let producer = events.producer();
    /// let worker = std::thread::spawn(move || {
    ///     for i in 0..100 {
    ///         producer.push(i).unwrap();
    ///     }
    /// });
    /// let (mut even, mut odd) = (Vec::new(), Vec::new());
    /// loop {
    ///     match events.wait_pending() {
    ///         Ok(()) => {
    ///             events.commit();
    ///             events.traverse(|e| if *e % 2 == 0 { even.push(e.remove()) });
    ///         }
    ///         // Full of odd events, a producer blocked: free the room.
    ///         Err(WaitError::Full) => odd.extend(events.drain(..)),
    ///         Err(WaitError::Disconnected) => break,
    ///     }
    /// }
    /// worker.join().unwrap();
    /// odd.extend(events.drain(..));
    /// assert_eq!(even, (0..100).step_by(2).collect::<Vec<_>>());
    /// assert_eq!(odd, (1..100).step_by(2).collect::<Vec<_>>());
    /// ```
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn wait_pending(&self) -> Result<(), WaitError> {
        if !self.pending.is_empty() {
            return Ok(());
        }
        self.link.wait_pending(self.owned(), None).into_result()
    }

    /// The async form of [`wait_pending`](Self::wait_pending): a future
    /// that resolves to `Ok(())` once there is something to
    /// [`commit`](Self::commit), to `Err(`[`WaitError::Disconnected`]`)`
    /// once nothing is pending and nothing can arrive any more (the collection is
    /// [closed](Self::close), or no [`Producer`] is left) and, at once, to
    /// `Err(`[`WaitError::Full`]`)` when waiting could never end (bounded,
    /// full, nothing pending, a producer blocked for room only this
    /// collection can free; see [`wait_pending`](Self::wait_pending)),
    /// without blocking the thread. No runtime is assumed: any
    /// executor can poll it. On its first poll it hands the room that
    /// removals freed in a [bounded](Self::bounded) collection to blocked
    /// producers, as `wait_pending` does.
    ///
    /// Cancel safe: dropping the future loses nothing (it only waits); see
    /// [`WaitPendingFuture`](crate::WaitPendingFuture).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    /// # // A minimal executor that parks the thread until woken.
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     struct Unpark(std::thread::Thread);
    /// #     impl std::task::Wake for Unpark {
    /// #         fn wake(self: std::sync::Arc<Self>) { self.0.unpark(); }
    /// #     }
    /// #     let waker = std::sync::Arc::new(Unpark(std::thread::current())).into();
    /// #     let mut cx = std::task::Context::from_waker(&waker);
    /// #     let mut f = std::pin::pin!(f);
    /// #     loop {
    /// #         match f.as_mut().poll(&mut cx) {
    /// #             std::task::Poll::Ready(v) => return v,
    /// #             std::task::Poll::Pending => std::thread::park(),
    /// #         }
    /// #     }
    /// # }
    ///
    /// let mut events = BufferedCollection::new();
    /// let producer = events.producer();
    /// let worker = std::thread::spawn(move || {
    ///     for i in 0..10 {
    ///         producer.push(i).unwrap();
    ///     }
    /// });
    /// let mut handled = Vec::new();
    /// while block_on(events.wait_pending_async()).is_ok() {
    ///     events.commit();
    ///     events.traverse(|e| handled.push(e.remove()));
    /// }
    /// worker.join().unwrap();
    /// assert_eq!(handled, (0..10).collect::<Vec<_>>());
    /// ```
    #[cfg(feature = "async")]
    #[cfg_attr(docsrs, doc(cfg(feature = "async")))]
    pub fn wait_pending_async(&self) -> crate::producer::WaitPendingFuture<'_, T> {
        self.link
            .wait_pending_async(self.owned(), !self.pending.is_empty())
    }

    /// Like [`wait_pending`](Self::wait_pending), but gives up after
    /// `timeout`, and says why it returned without anything to commit, as
    /// std's `Receiver::recv_timeout` does.
    ///
    /// # Errors
    ///
    /// [`WaitTimeoutError::Timeout`] when the time ran out while producers
    /// could still push; [`WaitTimeoutError::Disconnected`] when nothing is
    /// pending and nothing can arrive any more (the collection is
    /// [closed](Self::close), or no [`Producer`] is left). `Disconnected`
    /// only comes once everything pushed before has been committed: while
    /// anything is pending the answer is `Ok`. [`WaitTimeoutError::Full`],
    /// at once, when the collection is [bounded](Self::bounded) and full,
    /// nothing is pending and a producer is blocked for room: only the
    /// caller can free it, so waiting would never end (see
    /// [`wait_pending`](Self::wait_pending)).
    ///
    /// # Examples
    ///
    /// A service loop that tells idle from shut down:
    ///
    /// ```
    /// use std::time::Duration;
    /// use read_write_collection::{BufferedCollection, WaitTimeoutError};
    ///
    /// let mut events = BufferedCollection::new();
    /// let producer = events.producer();
    /// producer.push("start").unwrap();
    /// drop(producer);
    /// let mut idle_ticks = 0;
    /// loop {
    ///     match events.wait_pending_timeout(Duration::from_millis(1)) {
    ///         Ok(()) => {
    ///             events.commit();
    ///             events.traverse(|e| { e.remove(); });
    ///         }
    ///         Err(WaitTimeoutError::Timeout) => idle_ticks += 1,
    ///         Err(WaitTimeoutError::Disconnected) => break, // shut down
    ///         // Only a bounded queue that keeps events can fill up.
    ///         Err(WaitTimeoutError::Full) => unreachable!("every event is removed"),
    ///     }
    /// }
    /// assert_eq!(idle_ticks, 0);
    /// assert!(events.is_empty());
    /// ```
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn wait_pending_timeout(&self, timeout: Duration) -> Result<(), WaitTimeoutError> {
        if !self.pending.is_empty() {
            return Ok(());
        }
        match self.link.wait_pending(self.owned(), Some(timeout)) {
            Waited::Pending => Ok(()),
            Waited::Disconnected => Err(WaitTimeoutError::Disconnected),
            Waited::Full => Err(WaitTimeoutError::Full),
            Waited::Timeout => Err(WaitTimeoutError::Timeout),
        }
    }
}

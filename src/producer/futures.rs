//! The futures and permits of the async queue (feature `async`), and how
//! they register their wakers.

use core::fmt;
#[cfg(feature = "async")]
use core::future::Future;
#[cfg(feature = "async")]
use core::pin::Pin;
use core::sync::atomic::Ordering::SeqCst;
#[cfg(feature = "async")]
use core::task::{Context, Poll, Waker};

use super::handle::{Missed, Producer, ProducerClosed};
use super::link::Waited;
use super::queue::{Locked, Queue, Shared};
#[cfg(feature = "async")]
use super::wakers::{Registration, Wakers};
use crate::error::WaitError;

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
    pub(super) shared: &'a Shared<T>,
    /// The collection's own count, published on the first poll (as
    /// `wait_pending` does before it sleeps).
    pub(super) owned: Option<usize>,
    /// The collection had local pending elements: `true` at once.
    pub(super) ready: bool,
    /// Where this future's waker is registered, if it is.
    pub(super) registration: Option<Registration>,
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
/// [`Full`](crate::TryPushError::Full)). A dropped future takes its waker out of
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
    pub(super) producer: &'a Producer<T>,
    /// `None` once the future has resolved.
    pub(super) value: Option<T>,
    /// Where this future's waker is registered, if it is.
    pub(super) registration: Option<Registration>,
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
        // The push below runs under the control lock, which registering
        // this handle's own slot (per-producer order) takes: done first.
        producer.own_slot();
        poll_registered(
            &producer.shared,
            cx,
            &mut this.registration,
            |queue| &mut queue.producer_wakers,
            |queue| {
                // Under the control lock (free room grows only under it, so a
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
/// [`ProducerClosed`] once the collection is closed or dropped.
///
/// `Send` when `T: Send`. Cancel safe: it holds no value, and room is taken
/// only in the poll that resolves it (into the permit it returns), so
/// dropping it before it resolves gives nothing up. A dropped future takes
/// its waker out of the queue.
#[cfg(feature = "async")]
#[cfg_attr(docsrs, doc(cfg(feature = "async")))]
#[must_use = "futures do nothing unless polled"]
pub struct ReserveFuture<'a, T> {
    pub(super) producer: &'a Producer<T>,
    pub(super) done: bool,
    /// Where this future's waker is registered, if it is.
    pub(super) registration: Option<Registration>,
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
/// collection's bound while it is held, and a collection that was
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
    pub(super) producer: &'a Producer<T>,
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
/// [`ProducerClosed`] once the collection is closed or dropped (the
/// producer it owns is dropped then).
///
/// `Send` when `T: Send`, and `'static` when `T` is: it owns its producer.
/// Cancel safe for the room (it is taken only in the poll that resolves
/// it); dropping the future drops the producer.
#[cfg(feature = "async")]
#[cfg_attr(docsrs, doc(cfg(feature = "async")))]
#[must_use = "futures do nothing unless polled"]
pub struct ReserveOwnedFuture<T> {
    /// `None` once the future has resolved.
    pub(super) producer: Option<Producer<T>>,
    /// Where this future's waker is registered, if it is.
    pub(super) registration: Option<Registration>,
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
    pub(super) producer: Option<Producer<T>>,
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
pub(super) fn poll_registered<'s, T, R>(
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
pub(super) fn deregister<T>(
    shared: &Shared<T>,
    registration: &mut Option<Registration>,
    wakers: impl Fn(&mut Queue<T>) -> &mut Wakers,
) {
    if let Some(r) = registration.take() {
        let old = wakers(&mut shared.lock()).deregister(r);
        drop(old);
    }
}

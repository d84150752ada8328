//! The committed-buffer variant, [`BufferedCollection`].

use alloc::vec::Vec;
#[cfg(feature = "std")]
use core::sync::atomic::{AtomicBool, Ordering};

use crate::auto_remove::{AutoRemove, NoAutoRemove, WithHook};
use crate::cursor::{full_panic, Cursor, Entry};
use crate::error::CapacityError;
#[cfg(feature = "std")]
use crate::producer::{ProducerLink, ProducerOrder};
use crate::raw::{Pass, Store};

#[cfg(feature = "std")]
mod producers;
mod traits;

/// A collection whose pushes wait in a **pending** buffer until
/// [`commit`](BufferedCollection::commit): the event queue where handling
/// an event may emit more events, for the next frame and never in a
/// cascade within this one.
///
/// Traversals use the same [`Cursor`] as [`ReadWriteCollection`](crate::ReadWriteCollection):
/// [`Entry::remove`] removes, and [`Entry::push`] / [`Cursor::push`] go to
/// the pending buffer (not visited by this traversal). With the `std`
#[cfg_attr(
    feature = "std",
    doc = "feature, [`producer`](BufferedCollection::producer) hands out
[`Producer`](crate::Producer) handles that push from other threads."
)]
#[cfg_attr(
    not(feature = "std"),
    doc = "feature, `producer` hands out `Producer` handles that push from other threads."
)]
///
/// # Order at commit
///
/// `commit` appends, behind the visible elements, everything pushed
/// locally (`push`, `Extend`, `Entry::push`, `Cursor::push`) in push order,
#[cfg_attr(
    feature = "std",
    doc = "then everything producers pushed before the commit started, by default
in the order it arrived ([`ProducerOrder::Arrival`], as a channel keeps it):
a push that returned before another push started, through whichever handle
on whichever thread, comes first.
[`set_producer_order`](BufferedCollection::set_producer_order) can ask for
[`ProducerOrder::PerProducer`] instead: each handle's pushes together,
handles in the order they were made. Either way each handle's own pushes
keep their order, and nothing is lost or duplicated. The collection's own
pushes are not stamped: to order them by arrival with the producers', push
through a [`Producer`](crate::Producer) of its own.
"
)]
#[cfg_attr(
    not(feature = "std"),
    doc = "then (feature `std`) what producers pushed."
)]
///
/// # What "pending" covers
///
/// [`pending_len`](BufferedCollection::pending_len) counts everything the
/// next `commit` will append: the local pending buffer and what producers
/// queued (a bound applies to the sum). The collection's own value (what
/// [`local_pending`](BufferedCollection::local_pending) shows, and what
/// `Clone`, `==`, `Hash`, `Debug` and serde see) is its visible elements
/// and its local pending buffer: producers' pushes belong to the
/// producers' queue until `commit` takes them, and a clone starts with no
/// producers and an empty queue of its own.
///
#[cfg_attr(
    feature = "std",
    doc = "# Shutting down without losing events

[`close`](BufferedCollection::close) stops producers (their pushes hand
the value back from then on) and keeps everything they pushed before it
pending; [`wait_pending`](BufferedCollection::wait_pending) sleeps until
something arrives and says when nothing can arrive any more, and
[`into_parts`](BufferedCollection::into_parts) /
[`into_vec`](BufferedCollection::into_vec) move every element out. See
the `event_queue` example for the whole loop.
"
)]
///
/// # Examples
///
/// ```
/// use read_write_collection::BufferedCollection;
///
/// let mut queue = BufferedCollection::new();
/// queue.push(3u32);
/// assert!(queue.is_empty()); // pending, not visible
/// let mut frames = Vec::new();
/// while queue.commit() > 0 {
///     let mut handled = Vec::new();
///     let mut cursor = queue.cursor();
///     while let Some(e) = cursor.next() {
///         let n = e.remove();
///         handled.push(n);
///         if n > 0 {
///             cursor.push(n - 1); // next frame
///         }
///     }
///     drop(cursor);
///     frames.push(handled);
/// }
/// assert_eq!(frames, [[3], [2], [1], [0]]);
/// ```
///
/// A [`Producer`](crate::Producer) pushes from another thread; its pushes
/// wait, like the collection's own, for the next `commit` (feature `std`):
///
#[cfg_attr(feature = "std", doc = "```")]
#[cfg_attr(not(feature = "std"), doc = "```ignore")]
/// use read_write_collection::BufferedCollection;
///
/// let mut events = BufferedCollection::new();
/// let producer = events.producer(); // `Send` and `Clone`: one per thread
/// let network = std::thread::spawn(move || {
///     for id in 1..=3 {
///         producer.push(id).unwrap(); // `Err` only once `events` is closed
///     }
/// });
/// events.push(0); // the collection's own pushes go first at commit
/// network.join().unwrap();
/// assert!(events.is_empty()); // everything is still pending
/// assert_eq!(events.pending_len(), 4);
/// assert_eq!(events.commit(), 4);
/// assert_eq!(events.as_slice(), [0, 1, 2, 3]);
/// ```
pub struct BufferedCollection<T, A = NoAutoRemove> {
    pub(crate) store: Store<T>,
    pub(crate) pending: Vec<T>,
    policy: A,
    /// The bound on visible + pending elements; `usize::MAX`: unbounded.
    /// (`store.max` is only the bound of the current or last pass.)
    max: usize,
    /// The producers' queue; closes it when the collection is dropped.
    #[cfg(feature = "std")]
    pub(crate) link: ProducerLink<T>,
    /// Whether `producer` was ever called: until then the queue is empty and
    /// stays so, and a bounded collection's own pushes need no lock.
    #[cfg(feature = "std")]
    producers_made: AtomicBool,
}

/// Constructors.
impl<T> BufferedCollection<T> {
    /// An empty collection.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let c: BufferedCollection<i32> = BufferedCollection::new();
    /// assert_eq!((c.len(), c.pending_len()), (0, 0));
    /// ```
    #[must_use]
    pub fn new() -> Self {
        Self::with_policy(NoAutoRemove)
    }

    /// An empty collection with capacity (allocation) for `capacity`
    /// visible and `capacity` pending elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let c: BufferedCollection<i32> = BufferedCollection::with_capacity(64);
    /// assert!(c.capacity() >= 64);
    /// ```
    #[must_use]
    pub fn with_capacity(capacity: usize) -> Self {
        let mut c = Self::new();
        c.store.vec.reserve(capacity);
        c.pending.reserve(capacity);
        c
    }

    /// An empty collection whose traversals remove elements for which
    /// `pred` holds, as [`ReadWriteCollection::with_auto_remove`](crate::ReadWriteCollection::with_auto_remove)
    /// (any `FnMut(&T) -> bool` closure or function; give a closure's
    /// parameter its type). Pending elements are subject to it once
    /// committed.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::with_auto_remove(|n: &i32| *n < 0);
    /// c.extend([1, -1, 2]);
    /// c.commit();
    /// c.prune();
    /// assert_eq!(c.as_slice(), [1, 2]);
    /// ```
    #[must_use]
    pub fn with_auto_remove<F>(pred: F) -> BufferedCollection<T, F>
    where
        F: AutoRemove<T>,
    {
        BufferedCollection::with_policy(pred)
    }

    /// An empty collection with a hand-written [`AutoRemove`] policy.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{BufferedCollection, NoAutoRemove};
    ///
    /// let c: BufferedCollection<u8> = BufferedCollection::with_policy(NoAutoRemove);
    /// assert!(c.is_empty());
    /// ```
    #[must_use]
    pub fn with_policy<A: AutoRemove<T>>(policy: A) -> BufferedCollection<T, A> {
        BufferedCollection {
            store: Store::new(Vec::new()),
            pending: Vec::new(),
            policy,
            max: usize::MAX,
            #[cfg(feature = "std")]
            link: ProducerLink::new(usize::MAX, ProducerOrder::Arrival),
            #[cfg(feature = "std")]
            producers_made: AtomicBool::new(false),
        }
    }

    /// An empty queue bounded to `max`: its visible and pending elements
    /// together, the producers' pushes included, never exceed it.
    ///
    /// Full, [`try_push`](Self::try_push) and [`Producer::try_push`](crate::Producer::try_push) hand
    /// the value back, [`push`](Self::push) panics and [`Producer::push`](crate::Producer::push)
    /// blocks until there is room (or the collection is closed or dropped): that is the
    /// backpressure on fast producers.
    ///
    /// Room is freed by removing elements (a traversal, [`clear`](Self::clear),
    /// …). Producers learn about it when the collection next synchronises
    /// with them: at [`commit`](Self::commit),
    /// [`wait_pending`](Self::wait_pending), the end of
    /// [`traverse`](Self::traverse) / [`prune`](Self::prune), the start of
    /// the next [`cursor`](Self::cursor), the clears, and its own pushes.
    /// While a traversal runs, the room that was free when it started is
    /// kept for its pushes ([`Entry::push`]), so producers find the
    /// collection full until it synchronises again.
    ///
    /// Only the owner can free room. When it is full, nothing is pending
    /// and a producer is blocked for room, the waits
    /// ([`wait_pending`](Self::wait_pending), `wait_pending_async`,
    /// [`wait_pending_timeout`](Self::wait_pending_timeout)) return at once
    /// ([`WaitError::Full`](crate::WaitError::Full), or [`WaitTimeoutError::Full`](crate::WaitTimeoutError::Full)) instead of sleeping for ever:
    /// a loop that keeps events must free room before it waits again.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{BufferedCollection, TryPushError};
    ///
    /// let mut events = BufferedCollection::bounded(2);
    /// let producer = events.producer();
    /// events.push("local");
    /// producer.push("remote").unwrap();
    /// assert_eq!(producer.try_push("one too many"), Err(TryPushError::Full("one too many")));
    /// assert_eq!(events.try_push("me too").unwrap_err().into_inner(), "me too");
    ///
    /// events.commit();
    /// events.traverse(|e| { e.remove(); }); // handle both: room for two again
    /// assert_eq!(producer.try_push("next"), Ok(()));
    /// ```
    #[must_use]
    pub fn bounded(max: usize) -> Self {
        let mut c = Self::new();
        c.max = max;
        c.store.max = max;
        #[cfg(feature = "std")]
        {
            c.link = ProducerLink::new(max, ProducerOrder::Arrival);
        }
        c
    }
}

/// The queue: [`push`](Self::push) and [`try_push`](Self::try_push) add to the
/// pending buffer, [`commit`](Self::commit) appends everything pending to the
/// visible elements. (With the `std` feature, producers push from other
/// threads: see [`producer`](Self::producer).)
impl<T, A> BufferedCollection<T, A> {
    /// Adds `value` to the pending buffer; it becomes visible at the next
    /// [`commit`](Self::commit).
    ///
    /// # Panics
    ///
    /// If the collection is [bounded](Self::bounded) and full (see
    /// [`try_push`](Self::try_push)), or if the pending buffer cannot grow
    /// (capacity overflow).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::new();
    /// c.push("later");
    /// assert_eq!(c.pending_len(), 1);
    /// ```
    #[inline]
    #[track_caller]
    pub fn push(&mut self, value: T) {
        if self.max == usize::MAX {
            self.pending.push(value);
        } else if self.try_push(value).is_err() {
            full_panic();
        }
    }

    /// Adds `value` to the pending buffer unless the collection is
    /// [bounded](Self::bounded) and full: visible, local pending and
    /// producers' pending elements together at the bound.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] holding `value` if the collection is bounded and
    /// full. Never fails on an unbounded collection.
    ///
    /// # Panics
    ///
    /// If the pending buffer cannot grow (capacity overflow).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::bounded(2);
    /// c.try_push(1).unwrap();
    /// c.producer().push(2).unwrap();
    /// assert_eq!(c.try_push(3).unwrap_err().into_inner(), 3);
    /// ```
    #[inline]
    pub fn try_push(&mut self, value: T) -> Result<(), CapacityError<T>> {
        if self.max != usize::MAX && !self.reserve_one_mut() {
            return Err(CapacityError::new(value));
        }
        self.pending.push(value);
        Ok(())
    }

    /// Appends everything pending (see [the order](BufferedCollection#order-at-commit))
    /// to the visible elements and returns how many it appended.
    ///
    /// O(pending), O(1) when nothing is visible (the buffers are swapped).
    /// Buffers are reused: a steady loop allocates nothing once the buffers
    /// have grown to their working size.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::new();
    /// c.push(1);
    /// c.push(2);
    /// assert_eq!(c.commit(), 2);
    /// assert_eq!(c.as_slice(), [1, 2]);
    /// assert_eq!(c.pending_len(), 0);
    /// ```
    ///
    /// # Panics
    ///
    /// If the visible buffer cannot grow (capacity overflow). Whatever was
    /// not appended then stays pending, in order.
    pub fn commit(&mut self) -> usize {
        let before = self.store.vec.len();
        if before == 0 {
            // Nothing visible: the pending buffer becomes the visible one
            // (no copy) and the old visible buffer collects the next pushes.
            core::mem::swap(&mut self.store.vec, &mut self.pending);
        } else {
            self.store.vec.append(&mut self.pending);
        }
        // Until a producer exists, nothing can be queued: no lock to take.
        #[cfg(feature = "std")]
        if self.producers_made.load(Ordering::Relaxed) {
            self.link.take_into(&mut self.store.vec);
        }
        self.store.vec.len() - before
    }

    /// The number of elements the next [`commit`](Self::commit) would
    /// append: local pending pushes plus producers' pushes so far.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::new();
    /// c.push('a');
    /// c.producer().push('b').unwrap();
    /// assert_eq!(c.pending_len(), 2);
    /// ```
    pub fn pending_len(&self) -> usize {
        #[cfg(feature = "std")]
        {
            self.pending.len() + self.link.len()
        }
        #[cfg(not(feature = "std"))]
        {
            self.pending.len()
        }
    }

    /// The elements this collection pushed itself (its `push`, and pushes
    /// from its traversals) and has not committed yet, in push order.
    /// Elements pushed through [`Producer`](crate::Producer)s are not in it: they wait in
    /// the producers' queue until [`commit`](Self::commit), and
    /// [`pending_len`](Self::pending_len) counts both.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::new();
    /// c.push(1);
    /// c.push(2);
    /// c.producer().push(3).unwrap();
    /// assert_eq!(c.local_pending(), [1, 2]);
    /// assert_eq!(c.pending_len(), 3); // the producer's push counts too
    /// c.commit();
    /// assert_eq!(c.as_slice(), [1, 2, 3]);
    /// ```
    #[inline]
    pub fn local_pending(&self) -> &[T] {
        &self.pending
    }

    /// The visible and local pending elements (a bounded collection never
    /// holds more than `usize::MAX` of them).
    #[inline]
    fn owned(&self) -> usize {
        self.store.vec.len().saturating_add(self.pending.len())
    }

    /// Whether a bounded collection has room for one more local push
    /// (counting the producers' queue); if so, it is counted (this takes
    /// room, not allocation).
    #[inline]
    fn reserve_one_mut(&mut self) -> bool {
        #[cfg(feature = "std")]
        {
            if !*self.producers_made.get_mut() {
                // No producer ever: nothing queued, nobody to tell.
                return self.owned() < self.max;
            }
            self.reserve_one_locked()
        }
        #[cfg(not(feature = "std"))]
        {
            self.owned() < self.max
        }
    }

    #[cfg(feature = "std")]
    #[cold]
    fn reserve_one_locked(&self) -> bool {
        self.link.reserve_one(self.owned())
    }

    /// Tells the producers of a bounded collection its exact count, handing
    /// them room that removals freed or a pass kept for its pushes.
    #[inline]
    fn release(&self) {
        #[cfg(feature = "std")]
        if self.max != usize::MAX {
            self.link.publish(self.owned());
        }
    }

    /// Sets the bound (`store.max`) of the next pass of a bounded
    /// collection.
    #[inline]
    fn prepare_pass(&mut self) {
        if self.max != usize::MAX {
            self.store.max = self.pass_max();
        }
    }

    #[cold]
    fn pass_max(&self) -> usize {
        #[cfg(feature = "std")]
        {
            self.link.reserve_for_pass(self.owned())
        }
        #[cfg(not(feature = "std"))]
        {
            self.max
        }
    }
}

/// Passes over the visible elements: [`cursor`](Self::cursor) walks them,
/// removing the element in hand; its pushes wait for the next
/// [`commit`](Self::commit). [`traverse`](Self::traverse) is the closure form,
/// [`prune`](Self::prune) runs only the auto-remove policy.
impl<T, A: AutoRemove<T>> BufferedCollection<T, A> {
    /// Starts a traversal of the visible elements; pushes made through it
    /// go to the pending buffer. See [`Cursor`].
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c: BufferedCollection<i32> = vec![1, 2].into();
    /// let mut cursor = c.cursor();
    /// while let Some(mut e) = cursor.next() {
    ///     e.push(*e * 10); // pending: not visited now
    /// }
    /// drop(cursor);
    /// assert_eq!(c.as_slice(), [1, 2]);
    /// assert_eq!(c.local_pending(), [10, 20]);
    /// ```
    #[inline]
    pub fn cursor(&mut self) -> Cursor<'_, T, A> {
        self.prepare_pass();
        Cursor::new(
            Pass::begin(&mut self.store, Some(&mut self.pending)),
            &mut self.policy,
        )
    }

    /// The closure form of a traversal; see [`ReadWriteCollection::traverse`](crate::ReadWriteCollection::traverse).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c: BufferedCollection<i32> = vec![1, 2, 3].into();
    /// c.traverse(|e| if *e == 2 { e.remove(); });
    /// assert_eq!(c.as_slice(), [1, 3]);
    /// ```
    pub fn traverse<F>(&mut self, f: F)
    where
        F: FnMut(Entry<'_, T>),
    {
        // Released also when `f` panics: the pass's removals free room for
        // blocked producers either way.
        let this = ReleaseOnDrop(self);
        this.0.cursor().for_each(f);
    }

    /// Applies the auto-remove policy to the visible elements; returns how
    /// many it removed.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::with_auto_remove(|n: &i32| *n > 1);
    /// c.extend([1, 2, 3]);
    /// c.commit();
    /// assert_eq!(c.prune(), 2);
    /// ```
    pub fn prune(&mut self) -> usize {
        let this = ReleaseOnDrop(self);
        this.0.cursor().run_policy()
    }
}

/// Hands the room a pass freed in a bounded collection to blocked
/// producers when dropped: after the pass, also when user code in it
/// panicked (the cursor has completed the pass by then).
struct ReleaseOnDrop<'a, T, A>(&'a mut BufferedCollection<T, A>);

impl<T, A> Drop for ReleaseOnDrop<'_, T, A> {
    fn drop(&mut self) {
        self.0.release();
    }
}

/// Removal sinks: passes that hand every removed element to a closure.
impl<T, A: AutoRemove<T>> BufferedCollection<T, A> {
    /// Starts a traversal of the visible elements whose removed elements
    /// go to `sink`, in removal order; see [`SinkCursor`](crate::SinkCursor).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut events: BufferedCollection<u32> = vec![1, 2, 3].into();
    /// let mut handled = Vec::new();
    /// let mut cursor = events.cursor_with_sink(|e| handled.push(e));
    /// while let Some(mut e) = cursor.next() {
    ///     if *e == 2 {
    ///         e.push(20); // pending: the next commit
    ///     }
    ///     e.remove_to_sink();
    /// }
    /// drop(cursor);
    /// assert_eq!(handled, [1, 2, 3]);
    /// assert_eq!(events.local_pending(), [20]);
    /// ```
    #[inline]
    pub fn cursor_with_sink<S: FnMut(T)>(
        &mut self,
        sink: S,
    ) -> crate::cursor::SinkCursor<'_, T, S, A> {
        crate::cursor::SinkCursor::new(self.cursor(), sink)
    }

    /// The closure form of [`cursor_with_sink`](Self::cursor_with_sink).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut q = BufferedCollection::with_auto_remove(|n: &i32| *n < 0);
    /// q.extend([-1, 2, -3]);
    /// q.commit();
    /// let mut dropped = 0;
    /// q.traverse_with_sink(|_| dropped += 1, |_| {});
    /// assert_eq!(dropped, 2);
    /// assert_eq!(q.as_slice(), [2]);
    /// ```
    #[inline]
    pub fn traverse_with_sink<S, F>(&mut self, sink: S, f: F)
    where
        S: FnMut(T),
        F: FnMut(crate::cursor::SinkEntry<'_, T, S>),
    {
        let this = ReleaseOnDrop(self);
        this.0.cursor_with_sink(sink).for_each(f);
    }
}

/// Settings: the bound (maximum length, of the visible and pending elements
/// together), the traversal mode, the shrink policy and the auto-remove
/// policy, as on [`ReadWriteCollection`](crate::ReadWriteCollection).
impl<T, A> BufferedCollection<T, A> {
    /// The bound: the maximum number of visible and pending elements
    /// together, or `None` if the collection is unbounded.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// assert_eq!(BufferedCollection::<u8>::bounded(8).max_len(), Some(8));
    /// assert_eq!(BufferedCollection::<u8>::new().max_len(), None);
    /// ```
    #[inline]
    pub fn max_len(&self) -> Option<usize> {
        (self.max != usize::MAX).then_some(self.max)
    }

    /// Sets (or with `None` lifts) the bound of [`bounded`](Self::bounded).
    /// Producers blocked on a full collection re-check at once.
    ///
    /// # Panics
    ///
    /// If the collection already holds more than `max` elements (visible
    /// and pending, producers' included).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::with_auto_remove(|n: &u8| *n == 0);
    /// c.set_max_len(Some(1));
    /// c.push(5);
    /// assert!(c.try_push(6).is_err());
    /// c.set_max_len(None);
    /// assert!(c.try_push(6).is_ok());
    /// ```
    #[track_caller]
    pub fn set_max_len(&mut self, max: Option<usize>) {
        let max = max.unwrap_or(usize::MAX);
        // With producers, the check and the new bound are one locked step:
        // no push can slip in between.
        #[cfg(feature = "std")]
        let fits = self.link.set_max(max, self.owned());
        #[cfg(not(feature = "std"))]
        let fits = self.owned() <= max;
        assert!(
            fits,
            "the collection holds more than the new maximum length"
        );
        self.max = max;
        self.store.max = max;
    }

    /// How traversals fill removed slots.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{BufferedCollection, Mode};
    ///
    /// let q: BufferedCollection<u8> = BufferedCollection::new();
    /// assert_eq!(q.mode(), Mode::Ordered);
    /// ```
    #[inline]
    pub fn mode(&self) -> crate::settings::Mode {
        if self.store.unordered {
            crate::settings::Mode::Unordered
        } else {
            crate::settings::Mode::Ordered
        }
    }

    /// Sets how traversals fill removed slots: [`Mode::Unordered`](crate::Mode::Unordered)
    /// moves the last visible element into a removed one's slot (fewer
    /// moves, order not kept). Pending elements are appended in order by
    /// `commit` either way.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{BufferedCollection, Mode};
    ///
    /// let mut q: BufferedCollection<u8> = vec![1, 2, 3].into();
    /// q.set_mode(Mode::Unordered);
    /// q.traverse(|e| if *e == 1 { e.remove(); });
    /// assert_eq!(q.as_slice(), [3, 2]);
    /// ```
    #[inline]
    pub fn set_mode(&mut self, mode: crate::settings::Mode) {
        self.store.unordered = mode == crate::settings::Mode::Unordered;
    }

    /// The shrink policy, if any.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// assert_eq!(BufferedCollection::<u8>::new().shrink_policy(), None);
    /// ```
    #[inline]
    pub fn shrink_policy(&self) -> Option<crate::settings::ShrinkPolicy> {
        self.store.shrink
    }

    /// Sets (or with `None` turns off) the shrink policy of the visible
    /// elements' buffer, applied when a traversal ends; see
    /// [`ShrinkPolicy`](crate::ShrinkPolicy).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{BufferedCollection, ShrinkPolicy};
    ///
    /// let mut q: BufferedCollection<u8> = BufferedCollection::new();
    /// q.set_shrink_policy(Some(ShrinkPolicy::new(10, 30)));
    /// assert_eq!(q.shrink_policy(), Some(ShrinkPolicy::new(10, 30)));
    /// ```
    #[inline]
    pub fn set_shrink_policy(&mut self, policy: Option<crate::settings::ShrinkPolicy>) {
        self.store.shrink = policy;
        self.store.low_passes = 0;
    }

    /// The auto-remove policy.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{BufferedCollection, NoAutoRemove};
    ///
    /// let c: BufferedCollection<u8> = BufferedCollection::new();
    /// assert_eq!(*c.policy(), NoAutoRemove);
    /// ```
    #[inline]
    pub fn policy(&self) -> &A {
        &self.policy
    }

    /// The auto-remove policy, mutably.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{AutoRemove, BufferedCollection};
    ///
    /// struct Above(i32);
    /// impl AutoRemove<i32> for Above {
    ///     fn should_remove(&mut self, n: &i32) -> bool { *n > self.0 }
    /// }
    ///
    /// let mut c = BufferedCollection::with_policy(Above(10));
    /// c.extend([5, 15]);
    /// c.commit();
    /// c.policy_mut().0 = 1;
    /// c.prune();
    /// assert!(c.is_empty());
    /// ```
    #[inline]
    pub fn policy_mut(&mut self) -> &mut A {
        &mut self.policy
    }

    /// Adds a removal hook; see [`ReadWriteCollection::with_removal_hook`](crate::ReadWriteCollection::with_removal_hook).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut expired = Vec::new();
    /// let mut c = BufferedCollection::with_auto_remove(|n: &u8| *n == 0)
    ///     .with_removal_hook(|n| expired.push(n));
    /// c.extend([0, 1]);
    /// c.commit();
    /// c.prune();
    /// drop(c);
    /// assert_eq!(expired, [0]);
    /// ```
    #[must_use]
    pub fn with_removal_hook<H: FnMut(T)>(self, hook: H) -> BufferedCollection<T, WithHook<A, H>> {
        BufferedCollection {
            store: self.store,
            pending: self.pending,
            policy: WithHook {
                policy: self.policy,
                hook,
            },
            max: self.max,
            #[cfg(feature = "std")]
            link: self.link,
            #[cfg(feature = "std")]
            producers_made: self.producers_made,
        }
    }
}

/// The `Vec` surface of the visible side: clearing, taking the elements
/// out and reserving; then the `Vec` methods that never add elements.
impl<T, A> BufferedCollection<T, A> {
    /// Removes every visible element. Pending ones stay.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::new();
    /// c.push(1);
    /// c.commit();
    /// c.push(2);
    /// c.clear_visible();
    /// assert_eq!((c.len(), c.pending_len()), (0, 1));
    /// ```
    pub fn clear_visible(&mut self) {
        // The elements leave the collection, and the freed room is handed to
        // producers, before their drops run (user code that may panic: the
        // collection is then empty and the room handed over all the same).
        let mut visible = core::mem::take(&mut self.store.vec);
        self.release();
        visible.clear();
        // Keeps the allocation.
        self.store.vec = visible;
    }

    /// Removes every pending element, producers' pushes so far included.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::new();
    /// c.push(1);
    /// c.commit();
    /// c.push(2);
    /// c.clear_pending();
    /// assert_eq!((c.len(), c.pending_len()), (1, 0));
    /// ```
    pub fn clear_pending(&mut self) {
        // As in `clear_visible`: out first, the room published, the drops
        // last (the producers' queued elements are dropped by the link,
        // after it has published and woken).
        let mut pending = core::mem::take(&mut self.pending);
        #[cfg(feature = "std")]
        self.link.clear(self.owned());
        pending.clear();
        self.pending = pending;
    }

    /// Removes every visible and pending element.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::new();
    /// c.push(1);
    /// c.commit();
    /// c.push(2);
    /// c.clear();
    /// assert_eq!((c.len(), c.pending_len()), (0, 0));
    /// ```
    pub fn clear(&mut self) {
        // One hand-over of the room, after everything is out: a producer
        // woken by it pushes into the cleared collection (two clears in a
        // row would let it push between them, into what the second clear
        // then drops).
        let mut visible = core::mem::take(&mut self.store.vec);
        let mut pending = core::mem::take(&mut self.pending);
        #[cfg(feature = "std")]
        self.link.clear(self.owned());
        visible.clear();
        pending.clear();
        self.store.vec = visible;
        self.pending = pending;
    }

    /// Takes the collection apart: the visible elements, and everything
    /// pending in the order [`commit`](Self::commit) would append it (local
    /// pushes, then the producers' queue). Nothing is lost: the producers'
    /// queue is closed first, so their later pushes hand the value back.
    /// (A `PushPermit` (feature `async`) reserved before and used after
    /// drops its value, as after the collection's drop: close and drain
    /// with `wait_pending` first to wait for outstanding permits.)
    ///
    /// # Panics
    ///
    /// If the pending `Vec` cannot grow (capacity overflow); every element
    /// is then dropped exactly once.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::new();
    /// c.push(1);
    /// c.commit();
    /// c.push(2);
    /// let p = c.producer();
    /// p.push(3).unwrap();
    /// assert_eq!(c.into_parts(), (vec![1], vec![2, 3]));
    /// assert!(p.is_closed());
    /// ```
    pub fn into_parts(self) -> (Vec<T>, Vec<T>) {
        let BufferedCollection {
            store,
            pending,
            #[cfg(feature = "std")]
            mut link,
            ..
        } = self;
        #[cfg(feature = "std")]
        let pending = {
            let mut pending = pending;
            let mut queued = link.close_and_take();
            pending.append(&mut queued);
            pending
        };
        (store.vec, pending)
    }

    /// Every element, visible then pending, in the order a
    /// [`commit`](Self::commit) would leave them: `into_parts` joined.
    /// Nothing is lost (see [`into_parts`](Self::into_parts)).
    ///
    /// # Panics
    ///
    /// If the result cannot grow (capacity overflow); every element is then
    /// dropped exactly once.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c: BufferedCollection<i32> = vec![1, 2].into();
    /// c.push(3);
    /// assert_eq!(c.into_vec(), [1, 2, 3]);
    /// ```
    pub fn into_vec(self) -> Vec<T> {
        let (mut visible, mut pending) = self.into_parts();
        visible.append(&mut pending);
        visible
    }

    /// Reserves capacity (allocation, as `Vec::reserve`) for at least
    /// `additional` more visible elements (never past the bound). It does
    /// not reserve room under the bound (see [Terms](crate#terms)).
    ///
    /// # Panics
    ///
    /// If the capacity would exceed `isize::MAX` bytes, as `Vec::reserve`.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut q: BufferedCollection<u8> = BufferedCollection::new();
    /// q.reserve(100);
    /// assert!(q.capacity() >= 100);
    /// ```
    #[inline]
    #[track_caller]
    pub fn reserve(&mut self, additional: usize) {
        if self.max == usize::MAX {
            self.store.vec.reserve(additional);
        } else {
            let room = self
                .max
                .saturating_sub(self.store.vec.len() + self.pending.len());
            self.store.vec.reserve_exact(additional.min(room));
        }
    }
}

// The visible side's `Vec` methods: the one implementation shared with
// `ReadWriteCollection`. Only methods that never add visible elements: a
// value reaches the visible side through the pending buffer and `commit`.
crate::vec_api::vec_mirror!(BufferedCollection, "visible elements");

/// What the generators (`arbitrary`, `quickcheck`, `proptest`) build on.
#[cfg(any(feature = "arbitrary", feature = "quickcheck", feature = "proptest"))]
impl<T, A: AutoRemove<T>> BufferedCollection<T, A> {
    /// An empty queue with this one's settings (bound, mode,
    /// shrink policy) and a clone of its policy.
    pub(crate) fn empty_like(&self) -> Self
    where
        A: Clone,
    {
        let mut c = BufferedCollection::with_policy(self.policy.clone());
        c.set_max_len(self.max_len());
        c.set_mode(self.mode());
        c.set_shrink_policy(self.shrink_policy());
        c
    }

    /// This (new, empty) queue holding `visible` as its visible elements
    /// and `pending` as its local pending ones; the caller keeps them
    /// within the bound.
    pub(crate) fn with_parts(mut self, visible: Vec<T>, pending: Vec<T>) -> Self {
        debug_assert!(self.is_empty() && self.pending_len() == 0);
        // Nothing pending and no producer: `commit` moves exactly
        // `visible` into the visible part.
        self.extend(visible);
        self.commit();
        self.extend(pending);
        self
    }
}

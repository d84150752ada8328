//! [`BufferedCollection`]'s constructors.

use super::BufferedCollection;
use crate::auto_remove::{AutoRemove, NoAutoRemove};
#[cfg(feature = "std")]
use crate::producer::{ProducerLink, ProducerOrder};
use crate::raw::Store;
use alloc::vec::Vec;
#[cfg(feature = "std")]
use core::sync::atomic::AtomicBool;

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
    /// [`wait_pending`](Self::wait_pending), the end of every pass (a
    /// [`cursor`](Self::cursor) or [`cursor_with_sink`](Self::cursor_with_sink)
    /// being dropped, [`traverse`](Self::traverse), [`prune`](Self::prune),
    /// also when the pass ends by a panic), the clears, and its own pushes.
    /// While a pass runs, the room that was free when it started is kept
    /// for its pushes ([`Entry::push`](crate::Entry::push)), so producers find the
    /// collection full until the pass ends; then what its pushes did not
    /// use goes back with what its removals freed. (A cursor leaked with
    /// [`mem::forget`](core::mem::forget) keeps it until the next
    /// synchronisation.)
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
    ///
    /// // The same with a cursor: the room is back once it is dropped.
    /// events.commit();
    /// let mut cursor = events.cursor();
    /// while let Some(e) = cursor.next() {
    ///     e.remove();
    /// }
    /// drop(cursor);
    /// assert_eq!(producer.try_push("after"), Ok(()));
    /// assert_eq!(producer.try_push("and"), Ok(()));
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

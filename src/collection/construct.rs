//! [`ReadWriteCollection`]'s constructors.

use super::ReadWriteCollection;
use alloc::vec::Vec;

use crate::auto_remove::{AutoRemove, NoAutoRemove};
use crate::error::CapacityError;
use crate::raw::Store;

/// Constructors. [`builder`](Self::builder) sets several settings in one
/// expression.
impl<T> ReadWriteCollection<T> {
    /// An empty collection. Does not allocate.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let c: ReadWriteCollection<i32> = ReadWriteCollection::new();
    /// assert_eq!(c.capacity(), 0);
    /// ```
    #[inline]
    #[must_use]
    pub const fn new() -> Self {
        ReadWriteCollection {
            store: Store::new(Vec::new()),
            policy: NoAutoRemove,
        }
    }

    /// An empty collection with capacity (allocation) for at least
    /// `capacity` elements.
    ///
    /// # Panics
    ///
    /// If the capacity exceeds `isize::MAX` bytes, as `Vec::with_capacity`.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let c: ReadWriteCollection<i32> = ReadWriteCollection::with_capacity(10);
    /// assert!(c.capacity() >= 10);
    /// ```
    #[inline]
    #[must_use]
    pub fn with_capacity(capacity: usize) -> Self {
        Vec::with_capacity(capacity).into()
    }

    /// An empty collection bounded to `max` elements: it never holds more
    /// and never allocates capacity for more. Pushes when it is full fail
    /// ([`try_push`](Self::try_push) hands the value back; `push` panics).
    ///
    /// To bound a collection made another way (with a predicate, say), use
    /// [`set_max_len`](Self::set_max_len). For zero-sized `T`, `capacity()`
    /// reports `usize::MAX` (as `Vec` does) but nothing is allocated.
    ///
    /// Allocation is lazy and grows by doubling up to `max`. Pushing during a
    /// traversal of a collection whose allocation is at the bound may shift the
    /// unvisited elements to close the hole removals left (no allocation).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut particles = ReadWriteCollection::bounded(2);
    /// assert!(particles.try_push(1).is_ok());
    /// assert!(particles.try_push(2).is_ok());
    /// assert_eq!(particles.try_push(3).unwrap_err().into_inner(), 3);
    /// assert_eq!(particles.max_len(), Some(2));
    /// assert!(particles.capacity() <= 2);
    ///
    /// let mut capped = ReadWriteCollection::with_auto_remove(|ttl: &u8| *ttl == 0);
    /// capped.set_max_len(Some(100));
    /// assert_eq!(capped.max_len(), Some(100));
    /// ```
    #[inline]
    #[must_use]
    pub const fn bounded(max: usize) -> Self {
        let mut c = Self::new();
        c.store.max = max;
        c
    }

    /// A [bounded](Self::bounded) collection of the elements of `iter`, as
    /// `FromIterator` would build it, if they fit under `max`: the
    /// constructor that reports overflow instead of panicking.
    ///
    /// # Errors
    ///
    /// If `iter` yields more than `max` elements: a [`CapacityError`]
    /// holding the full collection (the first `max` elements) and the first
    /// element that did not fit. The iterator is not advanced further: pass
    /// `iter.by_ref()` to keep the rest.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let c = ReadWriteCollection::bounded_from_iter(4, 1..=3).unwrap();
    /// assert_eq!(c, [1, 2, 3]);
    /// assert_eq!(c.max_len(), Some(4));
    ///
    /// let (full, first_rejected) = ReadWriteCollection::bounded_from_iter(2, 1..=3)
    ///     .unwrap_err()
    ///     .element();
    /// assert_eq!(full, [1, 2]);
    /// assert_eq!(first_rejected, 3);
    /// ```
    pub fn bounded_from_iter<I>(max: usize, iter: I) -> Result<Self, CapacityError<(Self, T)>>
    where
        I: IntoIterator<Item = T>,
    {
        let mut c = Self::bounded(max);
        match c.try_extend(iter) {
            Ok(()) => Ok(c),
            Err(err) => Err(CapacityError::new((c, err.element()))),
        }
    }

    /// An empty collection in [`Mode::Unordered`](crate::Mode::Unordered) (swap-remove).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{Mode, ReadWriteCollection};
    ///
    /// let c: ReadWriteCollection<u8> = ReadWriteCollection::unordered();
    /// assert_eq!(c.mode(), Mode::Unordered);
    /// ```
    #[inline]
    #[must_use]
    pub const fn unordered() -> Self {
        let mut c = Self::new();
        c.store.unordered = true;
        c
    }

    /// An empty collection whose traversals remove, without user code,
    /// every element for which `pred` returns `true`: when the cursor
    /// reaches it (it is never yielded), and when the cursor moves on from
    /// an element that started to satisfy `pred` while it was held.
    ///
    /// `pred` is any `FnMut(&T) -> bool` closure or function (every such
    /// type is an [`AutoRemove`] policy). Give a closure's parameter its
    /// type (`|e: &Event| …`): the bound names no closure signature, so the
    /// closure's kind comes from its body, and one that only reads is
    /// `Fn + Sync`, as `par_traverse` (feature `rayon`) needs (a bound
    /// of `FnMut` would make every closure passed here `FnMut` only).
    ///
    /// See [the `auto_remove` module](crate::auto_remove) for the details,
    /// [`with_removal_hook`](Self::with_removal_hook) to receive the removed
    /// elements, and [`prune`](Self::prune) to apply `pred` without a loop.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// struct Event { ttl: u32 }
    ///
    /// let mut events = ReadWriteCollection::with_auto_remove(|e: &Event| e.ttl == 0);
    /// events.extend([Event { ttl: 1 }, Event { ttl: 2 }]);
    /// let mut cursor = events.cursor();
    /// while let Some(mut e) = cursor.next() {
    ///     e.ttl -= 1; // the first one expires now and leaves at `next()`
    /// }
    /// drop(cursor);
    /// assert_eq!(events.len(), 1);
    /// assert_eq!(events[0].ttl, 1);
    /// ```
    #[inline]
    #[must_use]
    pub fn with_auto_remove<F>(pred: F) -> ReadWriteCollection<T, F>
    where
        F: AutoRemove<T>,
    {
        ReadWriteCollection::with_policy(pred)
    }

    /// An empty collection with a hand-written [`AutoRemove`] policy.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{NoAutoRemove, ReadWriteCollection};
    ///
    /// let c: ReadWriteCollection<u8> = ReadWriteCollection::with_policy(NoAutoRemove);
    /// assert!(c.is_empty());
    /// ```
    #[inline]
    #[must_use]
    pub fn with_policy<A: AutoRemove<T>>(policy: A) -> ReadWriteCollection<T, A> {
        ReadWriteCollection {
            store: Store::new(Vec::new()),
            policy,
        }
    }
}

//! [`BufferedCollection`]'s queue: push, try_push, commit and the pending buffer.

use super::BufferedCollection;
use crate::cursor::full_panic;
use crate::error::CapacityError;
#[cfg(feature = "std")]
use core::sync::atomic::Ordering;

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
        if self.max != usize::MAX {
            // Grown before the room is counted: if this panics, the
            // producers lose no room.
            self.pending.reserve(1);
            if !self.reserve_one_mut() {
                return Err(CapacityError::new(value));
            }
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
    pub(super) fn owned(&self) -> usize {
        self.store.vec.len().saturating_add(self.pending.len())
    }

    /// Whether a bounded collection has room for one more local push
    /// (counting the producers' queue); if so, it is counted (this takes
    /// room, not allocation).
    #[inline]
    pub(super) fn reserve_one_mut(&mut self) -> bool {
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
    pub(super) fn reserve_one_locked(&self) -> bool {
        self.link.reserve_one(self.owned())
    }

    /// Tells the producers of a bounded collection its exact count, handing
    /// them room that removals freed or a pass kept for its pushes.
    #[inline]
    pub(super) fn release(&self) {
        #[cfg(feature = "std")]
        if self.max != usize::MAX {
            self.link.publish(self.owned());
        }
    }

    /// Sets the bound (`store.max`) of the next pass of a bounded
    /// collection.
    #[inline]
    pub(super) fn prepare_pass(&mut self) {
        if self.max != usize::MAX {
            self.store.max = self.pass_max();
        }
    }

    #[cold]
    pub(super) fn pass_max(&self) -> usize {
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

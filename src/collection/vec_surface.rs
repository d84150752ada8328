//! [`ReadWriteCollection`]'s `Vec` surface.

use super::ReadWriteCollection;
use alloc::vec::Vec;
use core::ops::RangeBounds;

use crate::cursor::full_panic;
use crate::error::CapacityError;
use crate::raw::capacity_overflow;
use crate::vec_api::range_bounds;

/// The `Vec` surface: appending, inserting, clearing, reserving and taking
/// the `Vec` back; then the `Vec` methods that never add elements, and
/// those that add elements or change the allocation.
impl<T, A> ReadWriteCollection<T, A> {
    /// Appends an element.
    ///
    /// # Panics
    ///
    /// If the collection is [bounded](ReadWriteCollection::bounded) and
    /// full ([`try_push`](Self::try_push) hands the value back instead), or
    /// if the capacity would exceed `isize::MAX` bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::new();
    /// c.push("a");
    /// assert_eq!(c, ["a"]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn push(&mut self, value: T) {
        if self.store.max == usize::MAX {
            self.store.vec.push(value);
        } else if self.try_push(value).is_err() {
            full_panic();
        }
    }

    /// Appends an element unless the collection is full (no room under its
    /// bound).
    ///
    /// # Errors
    ///
    /// [`CapacityError`] holding `value` if the collection is
    /// [bounded](ReadWriteCollection::bounded) and full.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::bounded(1);
    /// assert_eq!(c.try_push('x'), Ok(()));
    /// assert_eq!(c.try_push('y').unwrap_err().into_inner(), 'y');
    /// ```
    #[inline]
    pub fn try_push(&mut self, value: T) -> Result<(), CapacityError<T>> {
        let len = self.len();
        if len >= self.store.max {
            if self.store.max == usize::MAX {
                // Not a bound: zero-sized elements at `usize::MAX`.
                capacity_overflow();
            }
            return Err(CapacityError::new(value));
        }
        if len == self.capacity() {
            self.store.grow();
        }
        self.store.vec.push(value);
        Ok(())
    }

    /// Inserts `value` at `index`, shifting the later elements up.
    ///
    /// # Panics
    ///
    /// If `index > len`, or the collection is bounded and full.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<char> = ['a', 'c'].into();
    /// c.insert(1, 'b');
    /// assert_eq!(c, ['a', 'b', 'c']);
    /// ```
    #[inline]
    #[track_caller]
    pub fn insert(&mut self, index: usize, value: T) {
        let len = self.len();
        if len >= self.store.max {
            if self.store.max == usize::MAX {
                capacity_overflow();
            }
            full_panic();
        }
        if self.store.max != usize::MAX && len == self.capacity() {
            self.store.grow();
        }
        self.store.vec.insert(index, value);
    }

    /// Removes every element (the policy's hook is not called). Keeps the
    /// capacity.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = (1..=2).collect();
    /// c.clear();
    /// assert!(c.is_empty());
    /// ```
    #[inline]
    pub fn clear(&mut self) {
        self.store.vec.clear();
    }

    /// Reserves capacity (allocation, as [`Vec::reserve`]) for at least
    /// `additional` more elements. A bounded collection never reserves past
    /// its bound.
    ///
    /// # Panics
    ///
    /// If the capacity would exceed `isize::MAX` bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = ReadWriteCollection::new();
    /// c.reserve(100);
    /// assert!(c.capacity() >= 100);
    /// let mut b: ReadWriteCollection<i32> = ReadWriteCollection::bounded(5);
    /// b.reserve(100);
    /// assert!(b.capacity() <= 5);
    /// ```
    #[inline]
    #[track_caller]
    pub fn reserve(&mut self, additional: usize) {
        if self.store.max == usize::MAX {
            self.store.vec.reserve(additional);
        } else {
            let room = self.store.max.saturating_sub(self.len());
            self.store.vec.reserve_exact(additional.min(room));
        }
    }

    /// Converts into a `Vec` without copying.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let c: ReadWriteCollection<i32> = (1..=3).collect();
    /// assert_eq!(c.into_vec(), vec![1, 2, 3]);
    /// ```
    #[inline]
    pub fn into_vec(self) -> Vec<T> {
        self.store.vec
    }
}

crate::vec_api::vec_mirror!(ReadWriteCollection, "elements");

/// The `Vec` and `arrayvec` methods that add elements or change the
/// allocation. A bounded collection never grows past its bound
/// through any of them: the `try_` forms give the values back in a
/// [`CapacityError`], the others panic before changing anything.
impl<T, A> ReadWriteCollection<T, A> {
    /// The room: how many more elements fit under the bound
    /// (`max_len - len`), as `arrayvec`'s `remaining_capacity`. For an
    /// unbounded collection, `usize::MAX - len`.
    ///
    /// Despite the name, this is room under the bound, not
    /// [`capacity`](Self::capacity) (the allocation, which grows on
    /// demand): what a bounded collection can still take (see
    /// [Terms](crate#terms)).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::bounded(3);
    /// c.push(1);
    /// assert_eq!(c.remaining_capacity(), 2);
    /// assert_eq!(c.capacity(), 3); // the allocation: no more than the bound
    /// ```
    #[inline]
    pub fn remaining_capacity(&self) -> usize {
        self.store.room()
    }

    /// Whether the collection is full: no room under its bound (always
    /// `false` for an unbounded collection of non-zero-sized elements). It
    /// says nothing about the allocation (see [Terms](crate#terms)).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::bounded(1);
    /// assert!(!c.is_full());
    /// c.push('x');
    /// assert!(c.is_full());
    /// ```
    #[inline]
    pub fn is_full(&self) -> bool {
        self.store.room() == 0
    }

    /// Inserts `element` at `index` unless the collection is full (at its
    /// bound), as `arrayvec`'s `try_insert`.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] holding `element` if the collection is full.
    ///
    /// # Panics
    ///
    /// If `index > len`.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::bounded(2);
    /// c.push('c');
    /// assert_eq!(c.try_insert(0, 'a'), Ok(()));
    /// assert_eq!(c.try_insert(1, 'b').unwrap_err().element(), 'b');
    /// assert_eq!(c, ['a', 'c']);
    /// ```
    #[track_caller]
    pub fn try_insert(&mut self, index: usize, element: T) -> Result<(), CapacityError<T>> {
        let len = self.len();
        assert!(
            index <= len,
            "insertion index (is {index}) should be <= len (is {len})"
        );
        if self.store.room() == 0 {
            return Err(CapacityError::new(element));
        }
        self.store.reserve_within_bound(1);
        self.store.vec.insert(index, element);
        Ok(())
    }

    /// Moves every element of `other` to the end of this collection,
    /// leaving `other` empty, as [`Vec::append`].
    ///
    /// # Panics
    ///
    /// If this collection is bounded and the elements do not all fit;
    /// then nothing is moved (both collections are unchanged).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = vec![1, 2, 3].into();
    /// let mut other: ReadWriteCollection<i32> = vec![4, 5, 6].into();
    /// c.append(&mut other);
    /// assert_eq!(c, [1, 2, 3, 4, 5, 6]);
    /// assert_eq!(other, []);
    /// ```
    #[track_caller]
    pub fn append<B>(&mut self, other: &mut ReadWriteCollection<T, B>) {
        let n = other.len();
        self.store.check_room(n);
        self.store.reserve_within_bound(n);
        self.store.vec.append(&mut other.store.vec);
    }

    /// Clones and appends every element of `other`, as
    /// [`Vec::extend_from_slice`].
    ///
    /// If a `clone` panics, the elements cloned before it stay and the
    /// collection is valid.
    ///
    /// # Panics
    ///
    /// If this collection is bounded and the elements do not all fit;
    /// then nothing is added ([`try_extend_from_slice`](Self::try_extend_from_slice)
    /// returns an error instead).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = vec![1].into();
    /// c.extend_from_slice(&[2, 3, 4]);
    /// assert_eq!(c, [1, 2, 3, 4]);
    /// ```
    #[track_caller]
    pub fn extend_from_slice(&mut self, other: &[T])
    where
        T: Clone,
    {
        self.store.check_room(other.len());
        self.store.reserve_within_bound(other.len());
        self.store.vec.extend_from_slice(other);
    }

    /// Clones and appends every element of `other` if they all fit, as
    /// `arrayvec`'s `try_extend_from_slice` (which needs `T: Copy`; this
    /// takes any `T: Clone`).
    ///
    /// # Errors
    ///
    /// [`CapacityError`] if the collection is bounded and `other` does not
    /// fit; nothing is added.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::bounded(3);
    /// assert!(c.try_extend_from_slice(&[1, 2]).is_ok());
    /// assert!(c.try_extend_from_slice(&[3, 4]).is_err());
    /// assert_eq!(c, [1, 2]);
    /// ```
    pub fn try_extend_from_slice(&mut self, other: &[T]) -> Result<(), CapacityError>
    where
        T: Clone,
    {
        if other.len() > self.store.room() {
            return Err(CapacityError::new(()));
        }
        self.store.reserve_within_bound(other.len());
        self.store.vec.extend_from_slice(other);
        Ok(())
    }

    /// Pushes the elements of `iter` until the collection is full.
    ///
    /// Takes only what it pushes, plus the one element that did not fit:
    /// pass `iter.by_ref()` to keep the rest.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] holding the first element that did not fit. The
    /// elements before it stay pushed.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::bounded(2);
    /// let mut source = 1..=5;
    /// let err = c.try_extend(source.by_ref()).unwrap_err();
    /// assert_eq!(c, [1, 2]);
    /// assert_eq!(err.element(), 3);
    /// assert_eq!(source.collect::<Vec<_>>(), [4, 5]);
    /// ```
    pub fn try_extend<I: IntoIterator<Item = T>>(
        &mut self,
        iter: I,
    ) -> Result<(), CapacityError<T>> {
        for value in iter {
            self.try_push(value)?;
        }
        Ok(())
    }

    /// Resizes in place so that the length is `new_len`, filling new slots
    /// with clones of `value`, as [`Vec::resize`].
    ///
    /// If a `clone` panics, the clones made before it stay.
    ///
    /// # Panics
    ///
    /// If the collection is bounded and `new_len` is over its bound; then
    /// nothing changes.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<&str> = vec!["hello"].into();
    /// c.resize(3, "world");
    /// assert_eq!(c, ["hello", "world", "world"]);
    ///
    /// let mut c: ReadWriteCollection<i32> = vec![1, 2, 3, 4].into();
    /// c.resize(2, 0);
    /// assert_eq!(c, [1, 2]);
    /// ```
    #[track_caller]
    pub fn resize(&mut self, new_len: usize, value: T)
    where
        T: Clone,
    {
        let len = self.len();
        if new_len > len {
            self.store.check_room(new_len - len);
            self.store.reserve_within_bound(new_len - len);
        }
        self.store.vec.resize(new_len, value);
    }

    /// Resizes in place so that the length is `new_len`, filling new slots
    /// with the values `f` returns, as [`Vec::resize_with`].
    ///
    /// If `f` panics, the values it made before stay.
    ///
    /// # Panics
    ///
    /// If the collection is bounded and `new_len` is over its bound; then
    /// nothing changes and `f` is not called.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = vec![1, 2, 3].into();
    /// c.resize_with(5, Default::default);
    /// assert_eq!(c, [1, 2, 3, 0, 0]);
    ///
    /// let mut c: ReadWriteCollection<i32> = ReadWriteCollection::new();
    /// let mut p = 1;
    /// c.resize_with(4, || { p *= 2; p });
    /// assert_eq!(c, [2, 4, 8, 16]);
    /// ```
    #[track_caller]
    pub fn resize_with<F: FnMut() -> T>(&mut self, new_len: usize, f: F) {
        let len = self.len();
        if new_len > len {
            self.store.check_room(new_len - len);
            self.store.reserve_within_bound(new_len - len);
        }
        self.store.vec.resize_with(new_len, f);
    }

    /// Replaces the elements in `range` with those of `replace_with` and
    /// returns the removed ones, as [`Vec::splice`].
    ///
    /// Unlike `Vec::splice`, `replace_with` is collected first (one
    /// temporary `Vec`), so that a bounded collection can check the final
    /// length before it changes anything; the returned iterator's type
    /// says so.
    ///
    /// # Panics
    ///
    /// If the range is out of bounds (before `replace_with` is iterated),
    /// or the collection is bounded and the result would be longer than
    /// its bound (then nothing changes; the replacement values
    /// are dropped).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = vec![1, 2, 3, 4].into();
    /// let new = [7, 8, 9];
    /// let removed: Vec<i32> = c.splice(1..3, new).collect();
    /// assert_eq!(c, [1, 7, 8, 9, 4]);
    /// assert_eq!(removed, [2, 3]);
    ///
    /// // Insert at an index:
    /// let mut c: ReadWriteCollection<i32> = vec![1, 5].into();
    /// c.splice(1..1, [2, 3, 4]);
    /// assert_eq!(c, [1, 2, 3, 4, 5]);
    /// ```
    #[track_caller]
    pub fn splice<R, I>(
        &mut self,
        range: R,
        replace_with: I,
    ) -> alloc::vec::Splice<'_, alloc::vec::IntoIter<T>>
    where
        R: RangeBounds<usize>,
        I: IntoIterator<Item = T>,
    {
        let (start, end) = range_bounds(range, self.len());
        let replace: Vec<T> = replace_with.into_iter().collect();
        let removed = end - start;
        if replace.len() > removed {
            let added = replace.len() - removed;
            self.store.check_room(added);
            self.store.reserve_within_bound(added);
        }
        self.store.vec.splice(start..end, replace)
    }

    /// Reserves capacity (allocation) for exactly `additional` more
    /// elements (as [`Vec::reserve_exact`]); a bounded collection never
    /// reserves past its bound.
    ///
    /// # Panics
    ///
    /// If the capacity would exceed `isize::MAX` bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = vec![1].into();
    /// c.reserve_exact(10);
    /// assert!(c.capacity() >= 11);
    /// let mut b: ReadWriteCollection<i32> = ReadWriteCollection::bounded(4);
    /// b.reserve_exact(10);
    /// assert_eq!(b.capacity(), 4);
    /// ```
    #[track_caller]
    pub fn reserve_exact(&mut self, additional: usize) {
        let additional = additional.min(self.store.room());
        self.store.vec.reserve_exact(additional);
    }

    /// Tries to reserve capacity (allocation) for at least `additional`
    /// more elements, as [`Vec::try_reserve`]: `Ok` means the capacity is
    /// there. A bounded collection never reserves past its bound, so asking
    /// for more than its room is an error (where
    /// [`reserve`](Self::reserve) reserves what the bound allows).
    ///
    /// # Errors
    ///
    /// If the capacity would overflow or the allocator fails, as `Vec`;
    /// and if the collection is bounded and `additional` is more than its
    /// room ([`remaining_capacity`](Self::remaining_capacity)). Nothing is
    /// reserved then. The error is the standard library's
    /// [`TryReserveError`](alloc::collections::TryReserveError), of the
    /// kind `Vec` reports when the computed capacity exceeds its maximum
    /// (a capacity overflow), also for a request past the bound.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<u64> = ReadWriteCollection::new();
    /// assert!(c.try_reserve(8).is_ok());
    /// assert!(c.capacity() >= 8);
    /// assert!(c.try_reserve(usize::MAX).is_err());
    ///
    /// let mut b: ReadWriteCollection<u64> = ReadWriteCollection::bounded(100);
    /// assert!(b.try_reserve(10_000).is_err()); // past the bound: no room reserved
    /// assert_eq!(b.capacity(), 0);
    /// assert!(b.try_reserve(100).is_ok());
    /// assert_eq!(b.capacity(), 100);
    /// ```
    pub fn try_reserve(
        &mut self,
        additional: usize,
    ) -> Result<(), alloc::collections::TryReserveError> {
        if self.store.max == usize::MAX {
            self.store.vec.try_reserve(additional)
        } else if additional > self.store.room() {
            Err(past_the_bound())
        } else {
            self.store.vec.try_reserve_exact(additional)
        }
    }

    /// Tries to reserve capacity (allocation) for exactly `additional` more
    /// elements, as [`Vec::try_reserve_exact`]: `Ok` means the capacity is
    /// there. A bounded collection never reserves past its bound.
    ///
    /// # Errors
    ///
    /// As [`try_reserve`](Self::try_reserve): if the capacity would
    /// overflow, the allocator fails, or the collection is bounded and
    /// `additional` is more than its room
    /// ([`remaining_capacity`](Self::remaining_capacity)) (nothing is
    /// reserved then).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<u64> = ReadWriteCollection::new();
    /// assert!(c.try_reserve_exact(8).is_ok());
    /// assert!(c.capacity() >= 8);
    /// assert!(c.try_reserve_exact(usize::MAX).is_err());
    ///
    /// let mut b: ReadWriteCollection<u64> = ReadWriteCollection::bounded(4);
    /// assert!(b.try_reserve_exact(5).is_err());
    /// assert!(b.try_reserve_exact(4).is_ok());
    /// assert_eq!(b.capacity(), 4);
    /// ```
    pub fn try_reserve_exact(
        &mut self,
        additional: usize,
    ) -> Result<(), alloc::collections::TryReserveError> {
        if additional > self.store.room() {
            return Err(past_the_bound());
        }
        self.store.vec.try_reserve_exact(additional)
    }

    /// The allocated but unused slots, as [`Vec::spare_capacity_mut`],
    /// limited to the room ([`remaining_capacity`](Self::remaining_capacity))
    /// for a bounded collection.
    ///
    /// This crate offers no `set_len` (it would be `unsafe`): values
    /// written here do not become elements. Useful as scratch space in
    /// the allocation, and to check the room under a bound.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<u8> = ReadWriteCollection::with_capacity(10);
    /// c.push(1);
    /// assert!(c.spare_capacity_mut().len() >= 9);
    /// let mut b: ReadWriteCollection<u8> = ReadWriteCollection::bounded(4);
    /// b.reserve(4);
    /// b.push(1);
    /// assert_eq!(b.spare_capacity_mut().len(), 3);
    /// ```
    pub fn spare_capacity_mut(&mut self) -> &mut [core::mem::MaybeUninit<T>] {
        let room = self.store.room();
        let spare = self.store.vec.spare_capacity_mut();
        let n = spare.len().min(room);
        &mut spare[..n]
    }
}

/// The error of a `try_reserve` past a bounded collection's bound:
/// the capacity-overflow `TryReserveError` (its public API has no
/// constructor), made by asking a `Vec` for more than `isize::MAX` bytes,
/// which fails before allocating.
#[cold]
#[inline(never)]
fn past_the_bound() -> alloc::collections::TryReserveError {
    match Vec::<u8>::new().try_reserve_exact(usize::MAX) {
        Err(err) => err,
        Ok(()) => unreachable!("a `Vec<u8>` of `usize::MAX` bytes cannot exist"),
    }
}

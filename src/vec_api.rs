//! The `Vec`-like surface shared by [`ReadWriteCollection`] and a
//! [`BufferedCollection`]'s visible side: one implementation, generated for
//! both types by [`vec_mirror!`].
//!
//! Only methods that never make the visible side longer are shared. A
//! `BufferedCollection`'s bound counts its pending elements too (a value
//! waits in the pending buffer until `commit`), so growing the visible side
//! directly would skip the queue and its bound; growing methods (`insert`,
//! `extend_from_slice`, `resize`, `splice`, …) exist on
//! [`ReadWriteCollection`] only.
//!
//! The logic lives in `impl Store<T>` below (one copy); the macro writes the
//! public, documented methods that forward to it.
//!
//! [`ReadWriteCollection`]: crate::ReadWriteCollection
//! [`BufferedCollection`]: crate::BufferedCollection

use alloc::vec::Vec;
use core::fmt;
use core::ops::{Bound, RangeBounds};

use crate::raw::Store;

/// The iterator of `extract_if`: removes and yields the elements of a range
/// for which a predicate returns `true`.
///
/// Lazy, as [`Vec::extract_if`]: an element is tested only when the
/// iterator reaches it. Dropping the iterator early keeps every element it
/// has not reached, in order. If the predicate panics, the element it was
/// looking at is kept too, and the collection stays valid.
///
/// Created by [`ReadWriteCollection::extract_if`](crate::ReadWriteCollection::extract_if)
/// and [`BufferedCollection::extract_if`](crate::BufferedCollection::extract_if).
///
/// # Examples
///
/// ```
/// use read_write_collection::ReadWriteCollection;
///
/// let mut c: ReadWriteCollection<i32> = (1..=6).collect();
/// let mut evens = c.extract_if(.., |n| *n % 2 == 0);
/// assert_eq!(evens.next(), Some(2));
/// drop(evens); // 4 and 6 were not reached: they stay
/// assert_eq!(c, [1, 3, 4, 5, 6]);
/// ```
#[must_use = "the elements are removed only as the iterator reaches them"]
pub struct ExtractIf<'a, T, F> {
    /// The kept elements so far: everything before the range, then the
    /// range's elements the predicate kept. Its capacity holds the original
    /// length, so putting elements back never reallocates.
    vec: &'a mut Vec<T>,
    /// The not yet tested elements of the range, then everything after it.
    rest: alloc::vec::IntoIter<T>,
    /// How many elements at the front of `rest` are in the range.
    in_range: usize,
    /// The element the predicate is looking at (kept if it panics).
    current: Option<T>,
    pred: F,
}

impl<'a, T, F: FnMut(&mut T) -> bool> ExtractIf<'a, T, F> {
    #[track_caller]
    fn new<R: RangeBounds<usize>>(vec: &'a mut Vec<T>, range: R, pred: F) -> Self {
        let len = vec.len();
        let (start, end) = range_bounds(range, len);
        // `split_off` leaves `vec`'s capacity as it was (or, at 0, gives it
        // a new buffer of the same capacity): the kept elements go back
        // without a reallocation, so a bounded collection stays in its
        // allocation.
        let rest = vec.split_off(start).into_iter();
        ExtractIf {
            vec,
            rest,
            in_range: end - start,
            current: None,
            pred,
        }
    }
}

impl<T, F: FnMut(&mut T) -> bool> Iterator for ExtractIf<'_, T, F> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        while self.in_range > 0 {
            let value = self.rest.next()?;
            self.in_range -= 1;
            // Held in `self` while user code runs: a panic keeps it (Drop).
            let current = self.current.insert(value);
            let extract = (self.pred)(current);
            let value = self.current.take()?;
            if extract {
                return Some(value);
            }
            self.vec.push(value);
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.in_range))
    }
}

impl<T, F> Drop for ExtractIf<'_, T, F> {
    fn drop(&mut self) {
        // Runs no user code: puts back the element under test (if the
        // predicate panicked), then everything not reached, in order.
        if let Some(value) = self.current.take() {
            self.vec.push(value);
        }
        self.vec.extend(&mut self.rest);
    }
}

impl<T: fmt::Debug, F> fmt::Debug for ExtractIf<'_, T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExtractIf")
            .field("remaining", &&self.rest.as_slice()[..self.in_range])
            .finish_non_exhaustive()
    }
}

/// `range` as `start..end` within `0..=len`.
///
/// # Panics
/// As slicing: if the start is after the end or the end is after `len`.
#[track_caller]
pub(crate) fn range_bounds<R: RangeBounds<usize>>(range: R, len: usize) -> (usize, usize) {
    let start = match range.start_bound() {
        Bound::Included(&n) => n,
        Bound::Excluded(&n) => n
            .checked_add(1)
            .unwrap_or_else(|| panic!("range start overflows usize")),
        Bound::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound::Included(&n) => n
            .checked_add(1)
            .unwrap_or_else(|| panic!("range end overflows usize")),
        Bound::Excluded(&n) => n,
        Bound::Unbounded => len,
    };
    assert!(start <= end, "range start {start} is after range end {end}");
    assert!(
        end <= len,
        "range end {end} is out of range for length {len}"
    );
    (start, end)
}

/// The shared logic. Growing helpers are used by `ReadWriteCollection` only.
impl<T> Store<T> {
    /// The room: elements that can still be added under the bound
    /// (`usize::MAX - len` when unbounded).
    #[inline]
    pub(crate) fn room(&self) -> usize {
        self.max.saturating_sub(self.vec.len())
    }

    /// Reserves capacity for `additional` more elements (the caller has checked
    /// `additional <= room()`): amortised doubling, never past `max`, so
    /// that `Vec`'s own growth inside the following call does nothing.
    #[inline]
    pub(crate) fn reserve_within_bound(&mut self, additional: usize) {
        debug_assert!(additional <= self.room());
        if self.max == usize::MAX {
            self.vec.reserve(additional);
            return;
        }
        let len = self.vec.len();
        let cap = self.vec.capacity();
        let need = len + additional;
        if need > cap {
            let target = need.max(cap.saturating_mul(2)).min(self.max);
            self.vec.reserve_exact(target - len);
        }
    }

    /// Panics with a clear message unless `additional` more elements fit.
    #[inline]
    #[track_caller]
    pub(crate) fn check_room(&self, additional: usize) {
        if additional > self.room() {
            bound_panic(self.vec.len(), additional, self.max);
        }
    }

    pub(crate) fn pop_if(&mut self, pred: impl FnOnce(&mut T) -> bool) -> Option<T> {
        let last = self.vec.last_mut()?;
        if pred(last) {
            self.vec.pop()
        } else {
            None
        }
    }

    #[track_caller]
    pub(crate) fn extract_if<R, F>(&mut self, range: R, pred: F) -> ExtractIf<'_, T, F>
    where
        R: RangeBounds<usize>,
        F: FnMut(&mut T) -> bool,
    {
        ExtractIf::new(&mut self.vec, range, pred)
    }
}

#[cold]
#[inline(never)]
#[track_caller]
pub(crate) fn bound_panic(len: usize, additional: usize, max: usize) -> ! {
    panic!(
        "adding {additional} elements to a bounded collection of length {len} would exceed its \
         maximum length {max} (nothing was added; the `try_` methods give the values back)"
    )
}

/// Writes the non-growing `Vec` methods for a collection type whose
/// visible elements are `self.store` (a [`Store`]).
///
/// `$Ty` names the type in the doc examples; `$what` says what the methods
/// act on ("elements" or "visible elements").
macro_rules! vec_mirror {
    ($Ty:ident, $what:literal) => {
        /// The `Vec`-like methods that never add elements (shared with the
        /// other collection type).
        impl<T, A> $Ty<T, A> {
            #[doc = concat!("The number of ", $what, ".")]
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let c: ", stringify!($Ty), "<i32> = vec![1, 2, 3].into();")]
            /// assert_eq!(c.len(), 3);
            /// ```
            #[inline]
            pub fn len(&self) -> usize {
                self.store.vec.len()
            }

            #[doc = concat!("Whether there are no ", $what, ".")]
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let c: ", stringify!($Ty), "<i32> = vec![].into();")]
            /// assert!(c.is_empty());
            /// ```
            #[inline]
            pub fn is_empty(&self) -> bool {
                self.store.vec.is_empty()
            }

            #[doc = concat!("How many ", $what, " the allocation holds without reallocating.")]
            ///
            /// This is the allocation, not the bound: it may grow (up to the
            /// bound of a bounded collection) and shrink.
            #[doc = concat!("[`max_len`](Self::max_len) is the bound a bounded ", stringify!($Ty))]
            /// never exceeds; use `capacity` to reason about allocations and
            /// the bound about what fits (see [Terms](crate#terms)).
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let c: ", stringify!($Ty), "<i32> = Vec::with_capacity(8).into();")]
            /// assert!(c.capacity() >= 8);
            /// ```
            #[inline]
            pub fn capacity(&self) -> usize {
                self.store.vec.capacity()
            }

            #[doc = concat!("The ", $what, " as a slice.")]
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let c: ", stringify!($Ty), "<i32> = vec![1, 2].into();")]
            /// assert_eq!(c.as_slice(), [1, 2]);
            /// ```
            #[inline]
            pub fn as_slice(&self) -> &[T] {
                &self.store.vec
            }

            #[doc = concat!("The ", $what, " as a mutable slice.")]
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let mut c: ", stringify!($Ty), "<i32> = vec![1, 2].into();")]
            /// c.as_mut_slice()[0] = 5;
            /// assert_eq!(c.as_slice(), [5, 2]);
            /// ```
            #[inline]
            pub fn as_mut_slice(&mut self) -> &mut [T] {
                &mut self.store.vec
            }

            #[doc = concat!("An iterator over the ", $what, ", in order.")]
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let c: ", stringify!($Ty), "<i32> = vec![1, 2, 3].into();")]
            /// assert_eq!(c.iter().sum::<i32>(), 6);
            /// ```
            #[inline]
            pub fn iter(&self) -> core::slice::Iter<'_, T> {
                self.store.vec.iter()
            }

            #[doc = concat!("An iterator over mutable references to the ", $what, ", in order.")]
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let mut c: ", stringify!($Ty), "<i32> = vec![1, 2].into();")]
            /// c.iter_mut().for_each(|n| *n *= 10);
            /// assert_eq!(c.as_slice(), [10, 20]);
            /// ```
            #[inline]
            pub fn iter_mut(&mut self) -> core::slice::IterMut<'_, T> {
                self.store.vec.iter_mut()
            }

            /// A reference to the element at `index`, if there is one.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let c: ", stringify!($Ty), "<i32> = vec![1, 2].into();")]
            /// assert_eq!(c.get(1), Some(&2));
            /// assert_eq!(c.get(2), None);
            /// ```
            #[inline]
            pub fn get(&self, index: usize) -> Option<&T> {
                self.store.vec.get(index)
            }

            /// A mutable reference to the element at `index`, if there is one.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let mut c: ", stringify!($Ty), "<i32> = vec![1, 2].into();")]
            /// *c.get_mut(0).unwrap() = 7;
            /// assert_eq!(c.as_slice(), [7, 2]);
            /// ```
            #[inline]
            pub fn get_mut(&mut self, index: usize) -> Option<&mut T> {
                self.store.vec.get_mut(index)
            }

            /// Removes the last element and returns it, as [`Vec::pop`].
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let mut c: ", stringify!($Ty), "<i32> = vec![1, 2].into();")]
            /// assert_eq!(c.pop(), Some(2));
            /// assert_eq!(c.as_slice(), [1]);
            /// ```
            #[inline]
            pub fn pop(&mut self) -> Option<T> {
                self.store.vec.pop()
            }

            /// Removes and returns the last element if `predicate` returns
            /// `true` for it, as [`Vec::pop_if`]. A panic in `predicate`
            /// keeps the element.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let mut c: ", stringify!($Ty), "<i32> = vec![1, 2, 3, 4].into();")]
            /// let pred = |x: &mut i32| *x % 2 == 0;
            /// assert_eq!(c.pop_if(pred), Some(4));
            /// assert_eq!(c.as_slice(), [1, 2, 3]);
            /// assert_eq!(c.pop_if(pred), None);
            /// ```
            #[inline]
            pub fn pop_if(&mut self, predicate: impl FnOnce(&mut T) -> bool) -> Option<T> {
                self.store.pop_if(predicate)
            }

            /// Removes and returns the element at `index`, shifting the
            /// later ones down (O(n), as [`Vec::remove`]; in a loop, use a
            /// [`Cursor`](crate::Cursor)).
            ///
            /// # Panics
            ///
            /// If `index >= len`.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let mut c: ", stringify!($Ty), "<char> = vec!['a', 'b', 'c'].into();")]
            /// assert_eq!(c.remove(1), 'b');
            /// assert_eq!(c.as_slice(), ['a', 'c']);
            /// ```
            #[inline]
            #[track_caller]
            pub fn remove(&mut self, index: usize) -> T {
                self.store.vec.remove(index)
            }

            /// Removes and returns the element at `index`, moving the last
            /// element into its place (O(1), as [`Vec::swap_remove`]).
            ///
            /// # Panics
            ///
            /// If `index >= len`.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let mut c: ", stringify!($Ty), "<char> = vec!['a', 'b', 'c'].into();")]
            /// assert_eq!(c.swap_remove(0), 'a');
            /// assert_eq!(c.as_slice(), ['c', 'b']);
            /// ```
            #[inline]
            #[track_caller]
            pub fn swap_remove(&mut self, index: usize) -> T {
                self.store.vec.swap_remove(index)
            }

            /// Keeps only the elements for which `f` returns `true`, in
            /// order, as [`Vec::retain`]. Does not run the auto-remove
            /// policy; a traversal can also push. A panic in `f` leaves
            /// every element either kept or dropped once.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let mut c: ", stringify!($Ty), "<i32> = vec![1, 2, 3, 4, 5, 6].into();")]
            /// c.retain(|n| n % 3 != 0);
            /// assert_eq!(c.as_slice(), [1, 2, 4, 5]);
            /// ```
            #[inline]
            pub fn retain<F: FnMut(&T) -> bool>(&mut self, f: F) {
                self.store.vec.retain(f);
            }

            /// Like [`retain`](Self::retain), with mutable access to each
            /// element.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let mut c: ", stringify!($Ty), "<i32> = vec![1, 2, 3, 4].into();")]
            /// c.retain_mut(|n| { *n *= 10; *n > 20 });
            /// assert_eq!(c.as_slice(), [30, 40]);
            /// ```
            #[inline]
            pub fn retain_mut<F: FnMut(&mut T) -> bool>(&mut self, f: F) {
                self.store.vec.retain_mut(f);
            }

            #[doc = concat!("Keeps the first `len` ", $what, " and drops the rest.")]
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let mut c: ", stringify!($Ty), "<i32> = vec![1, 2, 3, 4].into();")]
            /// c.truncate(2);
            /// assert_eq!(c.as_slice(), [1, 2]);
            /// ```
            #[inline]
            pub fn truncate(&mut self, len: usize) {
                self.store.vec.truncate(len);
            }

            /// Removes the elements in `range` and returns them as an
            /// iterator, as [`Vec::drain`].
            ///
            /// # Panics
            ///
            /// If the range is out of bounds.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let mut c: ", stringify!($Ty), "<i32> = vec![1, 2, 3, 4].into();")]
            /// let firsts: Vec<i32> = c.drain(..2).collect();
            /// assert_eq!(firsts, [1, 2]);
            /// assert_eq!(c.as_slice(), [3, 4]);
            /// ```
            #[inline]
            #[track_caller]
            pub fn drain<R: core::ops::RangeBounds<usize>>(
                &mut self,
                range: R,
            ) -> alloc::vec::Drain<'_, T> {
                self.store.vec.drain(range)
            }

            /// Removes consecutive repeated elements, as [`Vec::dedup`].
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let mut c: ", stringify!($Ty), "<i32> = vec![1, 2, 2, 3, 2].into();")]
            /// c.dedup();
            /// assert_eq!(c.as_slice(), [1, 2, 3, 2]);
            /// ```
            #[inline]
            pub fn dedup(&mut self)
            where
                T: PartialEq,
            {
                self.store.vec.dedup();
            }

            /// Removes consecutive elements that map to the same key, as
            /// [`Vec::dedup_by_key`]. A panic in `key` leaves every element
            /// either kept or dropped once.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let mut c: ", stringify!($Ty), "<i32> = vec![10, 20, 21, 30, 20].into();")]
            /// c.dedup_by_key(|i| *i / 10);
            /// assert_eq!(c.as_slice(), [10, 20, 30, 20]);
            /// ```
            #[inline]
            pub fn dedup_by_key<F, K>(&mut self, key: F)
            where
                F: FnMut(&mut T) -> K,
                K: PartialEq,
            {
                self.store.vec.dedup_by_key(key);
            }

            /// Removes consecutive elements for which `same_bucket(a, b)`
            /// returns `true` (`a` is the later one, `b` the one kept), as
            /// [`Vec::dedup_by`]. A panic in `same_bucket` leaves every
            /// element either kept or dropped once.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let mut c: ", stringify!($Ty), "<&str> = vec![\"foo\", \"bar\", \"Bar\", \"baz\", \"bar\"].into();")]
            /// c.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
            /// assert_eq!(c.as_slice(), ["foo", "bar", "baz", "bar"]);
            /// ```
            #[inline]
            pub fn dedup_by<F>(&mut self, same_bucket: F)
            where
                F: FnMut(&mut T, &mut T) -> bool,
            {
                self.store.vec.dedup_by(same_bucket);
            }

            /// Splits off the elements from `at` on and returns them, as
            /// [`Vec::split_off`]. The tail comes back as a plain `Vec`:
            /// it is data, not a second collection with its own settings
            /// and policy.
            ///
            /// # Panics
            ///
            /// If `at > len`.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let mut c: ", stringify!($Ty), "<char> = vec!['a', 'b', 'c'].into();")]
            /// let tail = c.split_off(1);
            /// assert_eq!(c.as_slice(), ['a']);
            /// assert_eq!(tail, ['b', 'c']);
            /// ```
            #[inline]
            #[track_caller]
            #[must_use = "use `truncate` to drop the tail"]
            pub fn split_off(&mut self, at: usize) -> alloc::vec::Vec<T> {
                self.store.vec.split_off(at)
            }

            /// Removes, lazily and in order, the elements of `range` for
            /// which `filter` returns `true`, and yields them; see
            /// [`ExtractIf`](crate::ExtractIf) (the elements the iterator
            /// does not reach stay). `filter` may change the elements it
            /// keeps.
            ///
            /// Costs one temporary buffer for the elements from the start
            /// of `range` on (moved out and back once); the collection's
            /// own allocation is not changed.
            ///
            /// # Panics
            ///
            /// If the range is out of bounds.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let mut c: ", stringify!($Ty), "<i32> = vec![1, 2, 3, 4, 5, 6, 8, 9, 11, 13, 14, 15].into();")]
            /// let evens: Vec<i32> = c.extract_if(.., |x| *x % 2 == 0).collect();
            /// assert_eq!(evens, [2, 4, 6, 8, 14]);
            /// assert_eq!(c.as_slice(), [1, 3, 5, 9, 11, 13, 15]);
            ///
            /// // Only in a range:
            #[doc = concat!("let mut c: ", stringify!($Ty), "<i32> = vec![1, 2, 3, 4, 5, 6].into();")]
            /// let taken: Vec<i32> = c.extract_if(1..4, |x| *x % 2 == 0).collect();
            /// assert_eq!(taken, [2, 4]);
            /// assert_eq!(c.as_slice(), [1, 3, 5, 6]);
            /// ```
            #[inline]
            #[track_caller]
            pub fn extract_if<F, R>(&mut self, range: R, filter: F) -> crate::vec_api::ExtractIf<'_, T, F>
            where
                F: FnMut(&mut T) -> bool,
                R: core::ops::RangeBounds<usize>,
            {
                self.store.extract_if(range, filter)
            }

            /// Shrinks the capacity as close to the length as the allocator
            /// allows. With feature `rayon`, also frees the lists that
            /// parallel passes keep for the next one (with what they
            /// measured: the next parallel pass times its start again).
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let mut c: ", stringify!($Ty), "<i32> = Vec::with_capacity(100).into();")]
            /// c.shrink_to_fit();
            /// assert!(c.capacity() < 100);
            /// ```
            #[inline]
            pub fn shrink_to_fit(&mut self) {
                #[cfg(feature = "rayon")]
                {
                    self.store.par.0 = None;
                }
                self.store.vec.shrink_to_fit();
            }

            /// Shrinks the capacity to at least `max(len, min_capacity)`,
            /// as [`Vec::shrink_to`]. Never grows it.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use read_write_collection::", stringify!($Ty), ";")]
            ///
            #[doc = concat!("let mut c: ", stringify!($Ty), "<i32> = Vec::with_capacity(10).into();")]
            /// c.shrink_to(4);
            /// assert!(c.capacity() >= 4 && c.capacity() < 10);
            /// c.shrink_to(0);
            /// assert!(c.capacity() >= c.len());
            /// ```
            #[inline]
            pub fn shrink_to(&mut self, min_capacity: usize) {
                self.store.vec.shrink_to(min_capacity);
            }
        }
    };
}

pub(crate) use vec_mirror;

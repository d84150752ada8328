//! The entries a parallel pass lends: [`ParEntry`] and [`ParSpawner`].

use core::fmt;
use core::ops::{Deref, DerefMut};

use crate::cursor::{Entry, Spawner};
use crate::error::CapacityError;

/// The element a parallel pass's closure is given: like
/// [`Entry`], it dereferences to the element, can
/// [`remove`](ParEntry::remove) it and can [`push`](ParEntry::push) new
/// elements, which this same pass visits later (in the serial pass's
/// order).
///
/// # Examples
///
/// ```
/// use read_write_collection::ReadWriteCollection;
///
/// let mut c: ReadWriteCollection<u32> = (0..10).collect();
/// c.par_traverse(|mut e| {
///     if *e % 3 == 0 {
///         e.remove();
///     } else if *e == 4 {
///         e.push(40);
///     } else {
///         *e += 100;
///     }
/// });
/// assert_eq!(c, [101, 102, 4, 105, 107, 108, 140]); // 40 was visited too
/// ```
pub struct ParEntry<'a, T> {
    pub(super) entry: Entry<'a, T>,
}

/// Removing the element in hand and pushing, from a parallel pass's entry.
impl<'a, T> ParEntry<'a, T> {
    /// Removes the element and returns it.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = (1..=4).collect();
    /// c.par_traverse(|e| {
    ///     if *e > 2 {
    ///         assert!(e.remove() > 2);
    ///     }
    /// });
    /// assert_eq!(c, [1, 2]);
    /// ```
    #[inline(always)]
    pub fn remove(self) -> T {
        self.entry.remove()
    }

    /// Appends `value`; the pass visits it after everything already
    /// queued, as the serial pass would.
    ///
    /// # Panics
    ///
    /// If the collection is bounded and full; see [`try_push`](ParEntry::try_push).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<u8> = [1].into_iter().collect();
    /// c.par_traverse(|mut e| {
    ///     if *e < 3 {
    ///         let next = *e + 1;
    ///         e.push(next);
    ///     }
    /// });
    /// assert_eq!(c, [1, 2, 3]);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn push(&mut self, value: T) {
        self.entry.push(value);
    }

    /// Like [`push`](ParEntry::push), but a full bounded collection hands
    /// the value back instead of panicking.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] holding `value` if the collection is at its
    /// maximum length.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::bounded(2);
    /// c.push(1);
    /// c.par_traverse(|mut e| {
    ///     if *e == 1 {
    ///         assert!(e.try_push(2).is_ok());
    ///         assert_eq!(e.try_push(3).unwrap_err().into_inner(), 3);
    ///     }
    /// });
    /// assert_eq!(c, [1, 2]);
    /// ```
    #[inline(always)]
    pub fn try_push(&mut self, value: T) -> Result<(), CapacityError<T>> {
        self.entry.try_push(value)
    }

    /// Removes the element and returns it with a [`ParSpawner`] that goes
    /// on pushing for it, as [`Entry::remove_and_spawn`] does in the
    /// serial pass ("one becomes two" in one step, where `remove` would
    /// consume the entry).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut sizes: ReadWriteCollection<u32> = [4, 1].into_iter().collect();
    /// sizes.par_traverse(|e| {
    ///     if *e > 1 {
    ///         let (size, mut spawn) = e.remove_and_spawn();
    ///         spawn.push(size / 2); // visited later in this pass, split again
    ///         spawn.push(size / 2);
    ///     }
    /// });
    /// assert_eq!(sizes, [1, 1, 1, 1, 1]);
    /// ```
    #[inline(always)]
    pub fn remove_and_spawn(self) -> (T, ParSpawner<'a, T>) {
        let (value, spawner) = self.entry.remove_and_spawn();
        (value, ParSpawner { spawner })
    }
}

/// Pushes into a parallel pass after the element it came from was
/// removed; made by [`ParEntry::remove_and_spawn`]. Like
/// [`Spawner`], it borrows what the entry borrowed, so it
/// cannot outlive the closure call.
///
/// # Examples
///
/// ```
/// use read_write_collection::ReadWriteCollection;
///
/// let mut c = ReadWriteCollection::bounded(2);
/// c.extend([1, 2]);
/// c.par_traverse(|e| {
///     if *e == 1 {
///         let (_, mut spawn) = e.remove_and_spawn();
///         assert!(spawn.try_push(10).is_ok()); // the removal made room
///         assert_eq!(spawn.try_push(11).unwrap_err().into_inner(), 11);
///     }
/// });
/// assert_eq!(c, [2, 10]);
/// ```
pub struct ParSpawner<'a, T> {
    spawner: Spawner<'a, T>,
}

/// Pushing after the element was removed.
impl<T> ParSpawner<'_, T> {
    /// Appends `value`; the pass visits it after everything already
    /// queued, as the serial pass would.
    ///
    /// # Panics
    ///
    /// If the collection is bounded and full; see [`try_push`](ParSpawner::try_push).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = [2].into_iter().collect();
    /// c.par_traverse(|e| {
    ///     if *e == 2 {
    ///         let (_, mut spawn) = e.remove_and_spawn();
    ///         spawn.push(3);
    ///     }
    /// });
    /// assert_eq!(c, [3]);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn push(&mut self, value: T) {
        self.spawner.push(value);
    }

    /// Like [`push`](ParSpawner::push), but a full bounded collection hands
    /// the value back instead of panicking.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] holding `value` if the collection is at its
    /// maximum length.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::bounded(1);
    /// c.push(1);
    /// c.par_traverse(|e| {
    ///     if *e == 1 {
    ///         let (_, mut spawn) = e.remove_and_spawn();
    ///         assert!(spawn.try_push(2).is_ok());
    ///         assert_eq!(spawn.try_push(3).unwrap_err().into_inner(), 3);
    ///     }
    /// });
    /// assert_eq!(c, [2]);
    /// ```
    #[inline(always)]
    pub fn try_push(&mut self, value: T) -> Result<(), CapacityError<T>> {
        self.spawner.try_push(value)
    }
}

impl<T> fmt::Debug for ParSpawner<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ParSpawner").finish_non_exhaustive()
    }
}

impl<T> Deref for ParEntry<'_, T> {
    type Target = T;

    #[inline(always)]
    fn deref(&self) -> &T {
        &self.entry
    }
}

impl<T> DerefMut for ParEntry<'_, T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut T {
        &mut self.entry
    }
}

impl<T: fmt::Debug> fmt::Debug for ParEntry<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ParEntry").field(&**self).finish()
    }
}

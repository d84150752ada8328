//! Passes over a [`KeyedCollection`] (`cursor`, `traverse`) and its
//! settings (bound, mode).

use super::cursor::{KeyedCursor, KeyedEntry};
use super::key::Key;
use super::KeyedCollection;
use crate::auto_remove::AutoRemove;
use crate::raw::Pass;
use crate::settings::Mode;

/// Making a bounded or unordered collection with [`DefaultKey`](super::DefaultKey)s
/// (with a key type of your own: [`with_key`](KeyedCollection::with_key),
/// then [`set_max_len`](KeyedCollection::set_max_len) or
/// [`set_mode`](KeyedCollection::set_mode)).
impl<T> KeyedCollection<T> {
    /// An empty collection that holds at most `max` elements: a push
    /// beyond that panics, [`try_push`](Self::try_push) hands the value
    /// back.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::bounded(2);
    /// c.push(1);
    /// c.push(2);
    /// assert!(c.try_push(3).is_err());
    /// assert_eq!(c.max_len(), Some(2));
    /// ```
    #[must_use]
    pub const fn bounded(max: usize) -> Self {
        let mut c = Self::new();
        c.store.max = max;
        c
    }

    /// An empty collection in [`Mode::Unordered`]: a removal during a
    /// pass moves the last element into the gap (fast, order not kept);
    /// keys stay valid all the same.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{KeyedCollection, Mode};
    ///
    /// let mut c = KeyedCollection::unordered();
    /// let keys: Vec<_> = (1..=4).map(|v| c.push(v)).collect();
    /// c.traverse(|e| {
    ///     if *e == 1 {
    ///         e.remove();
    ///     }
    /// });
    /// assert_eq!(c.as_slice(), [4, 2, 3]);
    /// assert_eq!(c[keys[3]], 4);
    /// assert_eq!(c.mode(), Mode::Unordered);
    /// ```
    #[must_use]
    pub const fn unordered() -> Self {
        let mut c = Self::new();
        c.store.unordered = true;
        c
    }
}

/// Passes: [`cursor`](Self::cursor) and [`traverse`](Self::traverse).
impl<T, K: Key, A: AutoRemove<T>> KeyedCollection<T, K, A> {
    /// A lending cursor over the elements, in order: remove the one in
    /// hand, push new ones (visited in this pass, keyed at once), reach
    /// the others by key. The pass ends when the cursor is dropped (a
    /// `break` or a panic keeps the rest, in order).
    ///
    /// If the cursor is leaked (`mem::forget`), its elements leak with it:
    /// the collection is left empty, and every key it had is stale.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// let keys: Vec<_> = (1..=5).map(|v| c.push(v)).collect();
    /// let mut cursor = c.cursor();
    /// while let Some(e) = cursor.next() {
    ///     if *e % 2 == 0 {
    ///         e.remove();
    ///     }
    /// }
    /// drop(cursor);
    /// assert_eq!(c.as_slice(), [1, 3, 5]);
    /// assert_eq!(c.get(keys[4]), Some(&5));
    /// assert_eq!(c.get(keys[1]), None);
    /// ```
    #[inline]
    pub fn cursor(&mut self) -> KeyedCursor<'_, T, K, A> {
        self.settled();
        let unordered = self.store.unordered;
        KeyedCursor::new(
            Pass::begin(&mut self.store, None),
            &mut self.keys,
            unordered,
            &mut self.policy,
        )
    }

    /// The closure form of [`cursor`](Self::cursor): calls `f` on every
    /// element, pushed ones included.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// c.push(1);
    /// c.push(2);
    /// c.traverse(|mut e| {
    ///     if *e == 1 {
    ///         e.remove();
    ///     } else if *e == 2 {
    ///         e.push(3);
    ///     }
    /// });
    /// assert_eq!(c.as_slice(), [2, 3]);
    /// ```
    #[inline]
    pub fn traverse<F>(&mut self, f: F)
    where
        F: FnMut(KeyedEntry<'_, T, K>),
    {
        self.cursor().for_each(f);
    }
}

/// Settings: the bound (maximum length) and the traversal [`Mode`].
impl<T, K: Key, A> KeyedCollection<T, K, A> {
    /// The bound (maximum length), `None` if unbounded.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// assert_eq!(KeyedCollection::<u8>::bounded(4).max_len(), Some(4));
    /// assert_eq!(KeyedCollection::<u8>::new().max_len(), None);
    /// ```
    #[inline]
    pub fn max_len(&self) -> Option<usize> {
        (self.store.max != usize::MAX).then_some(self.store.max)
    }

    /// Sets (or with `None` lifts) the bound (maximum length), and shrinks
    /// the allocation to it if it is larger.
    ///
    /// # Panics
    ///
    /// If the collection already holds more than `max` elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{new_key_type, KeyedCollection};
    ///
    /// new_key_type! { struct ShotKey; }
    ///
    /// let mut shots: KeyedCollection<u8, ShotKey> = KeyedCollection::with_key();
    /// shots.set_max_len(Some(1));
    /// shots.push(5);
    /// assert!(shots.try_push(6).is_err());
    /// ```
    #[track_caller]
    pub fn set_max_len(&mut self, max: Option<usize>) {
        let max = max.unwrap_or(usize::MAX);
        assert!(
            self.len() <= max,
            "the collection holds more than the new maximum length"
        );
        self.store.max = max;
        if self.capacity() > max {
            self.store.vec.shrink_to(max);
        }
    }

    /// How passes fill removed slots.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{KeyedCollection, Mode};
    ///
    /// assert_eq!(KeyedCollection::<u8>::new().mode(), Mode::Ordered);
    /// ```
    #[inline]
    pub fn mode(&self) -> Mode {
        if self.store.unordered {
            Mode::Unordered
        } else {
            Mode::Ordered
        }
    }

    /// Sets how passes fill removed slots.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{KeyedCollection, Mode};
    ///
    /// let mut c: KeyedCollection<u8> = KeyedCollection::new();
    /// c.set_mode(Mode::Unordered);
    /// assert_eq!(c.mode(), Mode::Unordered);
    /// ```
    #[inline]
    pub fn set_mode(&mut self, mode: Mode) {
        self.store.unordered = mode == Mode::Unordered;
    }

    /// Recovers from a leaked cursor before anything changes the
    /// collection (see [`recover`](Self::recover)).
    #[inline(always)]
    pub(super) fn settled(&mut self) {
        if self.keys.open {
            self.recover();
        }
    }

    /// After a cursor was leaked (`mem::forget`), its elements are leaked
    /// and the collection holds none (the pass set the buffer's length to
    /// 0 first), but the slots still name positions: every occupied slot
    /// goes stale here, so no old key answers for a new element.
    #[cold]
    #[inline(never)]
    fn recover(&mut self) {
        debug_assert!(self.store.vec.is_empty());
        self.keys.forget_all();
    }
}

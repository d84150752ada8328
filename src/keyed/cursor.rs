//! The keyed collection's lending cursor ([`KeyedCursor`]) and its entries
//! ([`KeyedEntry`]), which reach the other elements by key.

use core::fmt;
use core::marker::PhantomData;
use core::ops::{Deref, DerefMut};

use super::book::{Ledger, Place};
use super::key::{DefaultKey, Key};
use crate::auto_remove::{AutoRemove, NoAutoRemove};
use crate::cursor::delegate::entry_others_methods;
use crate::cursor::full_panic;
use crate::error::CapacityError;
use crate::raw::{HeldRef, Pass};

/// A lending cursor over a [`KeyedCollection`](super::KeyedCollection):
/// what [`Cursor`](crate::Cursor) is to a
/// [`ReadWriteCollection`](crate::ReadWriteCollection), with keys. Made by
/// [`KeyedCollection::cursor`](super::KeyedCollection::cursor).
///
/// Every key stays valid through the pass: elements that move (the kept
/// ones closing up behind a removal) take their slot along, pushes get
/// their key at once, and a removed element's key is stale at once.
///
/// # Examples
///
/// ```
/// use read_write_collection::KeyedCollection;
///
/// let mut c = KeyedCollection::new();
/// let a = c.push(1);
/// let b = c.push(2);
/// let mut cursor = c.cursor();
/// let mut pushed = None;
/// while let Some(mut e) = cursor.next() {
///     if e.key() == a {
///         e.remove();
///     } else if *e == 2 {
///         pushed = Some(e.push(3)); // visited later in this pass
///     }
/// }
/// drop(cursor);
/// assert_eq!(c.as_slice(), [2, 3]);
/// assert_eq!(c.get(b), Some(&2));
/// assert_eq!(c.get(pushed.unwrap()), Some(&3));
/// assert_eq!(c.get(a), None);
/// ```
pub struct KeyedCursor<'a, T, K: Key = DefaultKey, A: AutoRemove<T> = NoAutoRemove> {
    pass: Pass<'a, T>,
    /// The collection's keys, kept in step with the pass.
    keys: &'a mut Ledger,
    policy: &'a mut A,
    _key: PhantomData<fn(K) -> K>,
}

impl<'a, T, K: Key, A: AutoRemove<T>> KeyedCursor<'a, T, K, A> {
    #[inline]
    pub(super) fn new(
        pass: Pass<'a, T>,
        keys: &'a mut Ledger,
        unordered: bool,
        policy: &'a mut A,
    ) -> Self {
        // `open` is cleared when the pass ends; still set after a leaked
        // cursor.
        keys.begin(unordered);
        KeyedCursor {
            pass,
            keys,
            policy,
            _key: PhantomData,
        }
    }

    /// Settles the held element: the policy decides whether it stays.
    #[inline(always)]
    fn settle(&mut self) {
        if A::ACTIVE && self.pass.core_ref().held() && !self.removed_by_policy() {
            self.pass.core().keep_current();
        }
    }

    /// Asks the policy about the held element; removes it (to the hook)
    /// if it says so. The bookkeeping is done before the hook runs.
    #[inline(always)]
    fn removed_by_policy(&mut self) -> bool {
        if self.policy.should_remove(self.pass.core_ref().current()) {
            let core = self.pass.core();
            let indices = core.indices();
            let key = self.keys.slots.data(self.keys.held_slot(indices));
            self.keys.removing_held(indices);
            let value = core.take_current();
            self.policy.removed_with_key(key, value);
            true
        } else {
            false
        }
    }

    /// Moves to the next element the policy keeps; `false` at the end.
    #[inline(always)]
    fn step(&mut self) -> bool {
        self.settle();
        loop {
            if !self.pass.core().advance(!A::ACTIVE) {
                return false;
            }
            if A::ACTIVE && self.removed_by_policy() {
                continue;
            }
            return true;
        }
    }

    /// The next element, or `None` when every element (pushed ones
    /// included) has been visited.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// c.push(1);
    /// let mut cursor = c.cursor();
    /// assert_eq!(cursor.next().as_deref(), Some(&1));
    /// assert!(cursor.next().is_none());
    /// ```
    #[allow(clippy::should_implement_trait)] // lending: cannot be `Iterator::next`
    #[inline]
    pub fn next(&mut self) -> Option<KeyedEntry<'_, T, K>> {
        if !self.step() {
            return None;
        }
        Some(KeyedEntry {
            held: self.pass.core().held_ref(),
            keys: self.keys,
            _key: PhantomData,
        })
    }

    /// Runs `f` on every remaining entry (the closure form's loop).
    #[inline(always)]
    pub(super) fn for_each<F: FnMut(KeyedEntry<'_, T, K>)>(mut self, mut f: F) {
        while let Some(entry) = self.next() {
            f(entry);
        }
    }

    /// Appends `value` (visited later in this pass) and returns its key,
    /// valid at once.
    ///
    /// # Panics
    ///
    /// If the collection is bounded and full (see
    /// [`try_push`](Self::try_push)), or cannot grow.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c: KeyedCollection<i32> = KeyedCollection::new();
    /// let mut cursor = c.cursor();
    /// let k = cursor.push(7);
    /// assert_eq!(cursor.next().map(|e| e.key()), Some(k));
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn push(&mut self, value: T) -> K {
        match self.try_push(value) {
            Ok(key) => key,
            Err(_) => full_panic(),
        }
    }

    /// Like [`push`](Self::push), but a full bounded collection hands the
    /// value back instead of panicking.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] holding `value` if the collection is at its
    /// maximum length.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c: KeyedCollection<i32> = KeyedCollection::bounded(1);
    /// let mut cursor = c.cursor();
    /// assert!(cursor.try_push(1).is_ok());
    /// assert_eq!(cursor.try_push(2).unwrap_err().element(), 2);
    /// ```
    #[inline(always)]
    pub fn try_push(&mut self, value: T) -> Result<K, CapacityError<T>> {
        self.keys.reserve_push();
        let core = self.pass.core();
        let before = core.indices();
        core.push(value).map_err(CapacityError::new)?;
        let data = self.keys.pushed(before, core.indices());
        Ok(K::from_data(data))
    }

    /// Elements not yet visited, pushed ones included.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// c.push('a');
    /// c.push('b');
    /// let mut cursor = c.cursor();
    /// cursor.next();
    /// assert_eq!(cursor.remaining(), 1);
    /// ```
    #[inline]
    pub fn remaining(&self) -> usize {
        self.pass.core_ref().remaining()
    }

    /// The number of elements the collection would hold if the pass
    /// ended now.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// c.push('a');
    /// let mut cursor = c.cursor();
    /// cursor.next().unwrap().remove();
    /// assert_eq!(cursor.len(), 0);
    /// ```
    #[inline]
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.pass.core_ref().len()
    }

    /// Ends the pass now: the rest stays, in order (dropping the cursor
    /// does the same).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// c.push(1);
    /// c.push(2);
    /// let mut cursor = c.cursor();
    /// cursor.next().unwrap().remove();
    /// cursor.finish();
    /// assert_eq!(c.as_slice(), [2]);
    /// ```
    pub fn finish(mut self) {
        self.settle();
        self.end();
    }

    /// Closes the pass and the keys' side of it. Runs no user code.
    #[inline(always)]
    fn end(&mut self) {
        self.pass.core().finish_and(self.keys);
    }
}

impl<T, K: Key, A: AutoRemove<T>> Drop for KeyedCursor<'_, T, K, A> {
    /// Ends the pass: a held element is kept (after the policy's say,
    /// unless a panic is unwinding), the unvisited ones stay, in order.
    /// Inlined (as the unkeyed cursor's): a call would take the cursor's
    /// address in every unwind path of the caller's loop and keep the
    /// pass state in memory.
    #[inline(always)]
    fn drop(&mut self) {
        // The predicate and hook are user code: never run them while
        // unwinding (and never from `Drop` without `std`, which cannot
        // tell).
        #[cfg(feature = "std")]
        if A::ACTIVE && self.pass.core_ref().held() && !std::thread::panicking() {
            // If the policy panics, the pass still ends (the element it
            // was asked about stays).
            let guard = EndOnDrop(self);
            guard.0.settle();
            return;
        }
        self.end();
    }
}

/// Ends a keyed pass when dropped, so that a panicking policy in the
/// cursor's `Drop` still closes it.
#[cfg(feature = "std")]
struct EndOnDrop<'c, 'a, T, K: Key, A: AutoRemove<T>>(&'c mut KeyedCursor<'a, T, K, A>);

#[cfg(feature = "std")]
impl<T, K: Key, A: AutoRemove<T>> Drop for EndOnDrop<'_, '_, T, K, A> {
    fn drop(&mut self) {
        self.0.end();
    }
}

impl<T, K: Key, A: AutoRemove<T>> fmt::Debug for KeyedCursor<'_, T, K, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let core = self.pass.core_ref();
        f.debug_struct("KeyedCursor")
            .field("remaining", &core.remaining())
            .field("len", &core.len())
            .finish_non_exhaustive()
    }
}

/// The element a [`KeyedCursor`] holds: read and write it through
/// `Deref`/`DerefMut`, remove it, push new elements, and reach the other
/// elements by key.
///
/// # Examples
///
/// ```
/// use read_write_collection::KeyedCollection;
///
/// let mut c = KeyedCollection::new();
/// let leader = c.push(10);
/// c.push(1);
/// c.traverse(|mut e| {
///     if e.key() != leader {
///         let lead = *e.get(leader).unwrap();
///         *e += lead;
///     }
/// });
/// assert_eq!(c.as_slice(), [10, 11]);
/// ```
///
/// An element reached by key is borrowed from the entry, so it cannot be
/// held across a push (which may move the buffer):
///
/// ```compile_fail,E0502
/// use read_write_collection::KeyedCollection;
///
/// let mut c = KeyedCollection::new();
/// let a = c.push(1);
/// c.push(2);
/// c.traverse(|mut e| {
///     let other = e.get(a);
///     e.push(3);
///     assert!(other.is_some());
/// });
/// ```
pub struct KeyedEntry<'c, T, K: Key = DefaultKey> {
    held: HeldRef<'c, T>,
    keys: &'c mut Ledger,
    _key: PhantomData<fn(K) -> K>,
}

impl<T, K: Key> KeyedEntry<'_, T, K> {
    /// This element's key.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// let k = c.push('a');
    /// c.traverse(|e| assert_eq!(e.key(), k));
    /// ```
    #[inline]
    pub fn key(&self) -> K {
        self.keys
            .slots
            .key(self.keys.held_slot(self.held.indices()))
    }

    /// Removes this element and returns it; its key is stale from here on.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// let k = c.push(1);
    /// c.push(2);
    /// c.traverse(|e| {
    ///     if *e == 1 {
    ///         assert_eq!(e.remove(), 1);
    ///     }
    /// });
    /// assert_eq!(c.as_slice(), [2]);
    /// assert_eq!(c.get(k), None);
    /// ```
    #[inline(always)]
    pub fn remove(self) -> T {
        self.keys.removing_held(self.held.indices());
        self.held.take()
    }

    /// Appends `value` (visited later in this pass) and returns its key,
    /// valid at once (this element stays held).
    ///
    /// # Panics
    ///
    /// If the collection is bounded and full (see
    /// [`try_push`](Self::try_push)), or cannot grow.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// c.push(1);
    /// let mut children = Vec::new();
    /// c.traverse(|mut e| {
    ///     if *e == 1 {
    ///         let child = e.push(2);
    ///         assert_eq!(e.get(child), Some(&2));
    ///         children.push(child);
    ///     }
    /// });
    /// assert_eq!(c[children[0]], 2);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn push(&mut self, value: T) -> K {
        match self.try_push(value) {
            Ok(key) => key,
            Err(_) => full_panic(),
        }
    }

    /// Like [`push`](Self::push), but a full bounded collection hands the
    /// value back instead of panicking.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] holding `value` if the collection is at its
    /// maximum length.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::bounded(1);
    /// c.push(1);
    /// c.traverse(|mut e| {
    ///     assert_eq!(e.try_push(2).unwrap_err().element(), 2);
    /// });
    /// ```
    #[inline(always)]
    pub fn try_push(&mut self, value: T) -> Result<K, CapacityError<T>> {
        self.keys.reserve_push();
        let before = self.held.indices();
        self.held.push(value).map_err(CapacityError::new)?;
        let data = self.keys.pushed(before, self.held.indices());
        Ok(K::from_data(data))
    }

    /// Where the element `key` names is, if it is another one: `Ok(i)`
    /// for the `i`th kept element before this one, `Err(i)` for the `i`th
    /// after it; `None` for a stale key or this element's own.
    #[inline]
    fn locate(&self, key: K) -> Option<Result<usize, usize>> {
        let at = self.keys.slots.find(key.data())?;
        match self.keys.place(at, self.held.indices()) {
            Place::Kept(i) => Some(Ok(i)),
            Place::Held => None,
            Place::After(i) => Some(Err(i)),
        }
    }

    /// The element `key` names, if it is another element of the
    /// collection: one already kept in this pass, one not yet visited, or
    /// one pushed in this pass. `None` for a stale key and for this
    /// element's own key (it is `self`).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// let a = c.push(1);
    /// let b = c.push(2);
    /// c.traverse(|e| {
    ///     if e.key() == a {
    ///         assert_eq!(e.get(b), Some(&2)); // ahead
    ///         assert_eq!(e.get(a), None); // itself
    ///     } else {
    ///         assert_eq!(e.get(a), Some(&1)); // behind
    ///     }
    /// });
    /// ```
    #[inline]
    pub fn get(&self, key: K) -> Option<&T> {
        let place = self.locate(key)?;
        let (kept, after) = self.held.others();
        match place {
            Ok(i) => kept.get(i),
            Err(i) => after.get(i),
        }
    }

    /// The element `key` names, mutably, if it is another element of the
    /// collection (as [`get`](Self::get)).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// let a = c.push(1);
    /// let b = c.push(2);
    /// c.traverse(|mut e| {
    ///     if e.key() == a {
    ///         *e.get_mut(b).unwrap() += 10;
    ///     }
    /// });
    /// assert_eq!(c[b], 12);
    /// ```
    #[inline]
    pub fn get_mut(&mut self, key: K) -> Option<&mut T> {
        self.pair_mut(key).map(|(_, other)| other)
    }

    /// This element and the other one `key` names, both mutable; `None`
    /// for a stale key and for this element's own.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// let a = c.push(5);
    /// let b = c.push(1);
    /// c.traverse(|mut e| {
    ///     if e.key() == a {
    ///         let (me, other) = e.pair_mut(b).unwrap();
    ///         *other += *me; // a gives to b
    ///         *me = 0;
    ///     }
    /// });
    /// assert_eq!((c[a], c[b]), (0, 6));
    /// ```
    #[inline]
    pub fn pair_mut(&mut self, key: K) -> Option<(&mut T, &mut T)> {
        let place = self.locate(key)?;
        let (me, kept, after) = self.held.split_others();
        let other = match place {
            Ok(i) => kept.get_mut(i),
            Err(i) => after.get_mut(i),
        }?;
        Some((me, other))
    }

    entry_others_methods! {
        field: held,
        whose: "collection",
        inner: "crate::Entry";
        /// # Examples
        ///
        /// ```
        /// use read_write_collection::KeyedCollection;
        ///
        /// let mut c = KeyedCollection::new();
        /// for v in [1, 2, 3] {
        ///     c.push(v);
        /// }
        /// c.traverse(|e| {
        ///     if *e == 2 {
        ///         assert_eq!(e.others(), (&[1][..], &[3][..]));
        ///     }
        /// });
        /// ```
        fn others;
        /// # Examples
        ///
        /// ```
        /// use read_write_collection::KeyedCollection;
        ///
        /// let mut c = KeyedCollection::new();
        /// for v in [1, 2, 3] {
        ///     c.push(v);
        /// }
        /// c.traverse(|mut e| {
        ///     let (me, before, after) = e.split_others();
        ///     *me += before.len() as i32 + after.len() as i32;
        /// });
        /// assert_eq!(c.as_slice(), [3, 4, 5]);
        /// ```
        fn split_others;
    }
}

impl<T, K: Key> Deref for KeyedEntry<'_, T, K> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        self.held.get()
    }
}

impl<T, K: Key> DerefMut for KeyedEntry<'_, T, K> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        self.held.get_mut()
    }
}

impl<T: fmt::Debug, K: Key> fmt::Debug for KeyedEntry<'_, T, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("KeyedEntry")
            .field(&self.key())
            .field(self.held.get())
            .finish()
    }
}

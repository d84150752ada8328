//! Passes over a [`KeyedCollection`] (`cursor`, `traverse`) and its
//! settings (bound, mode).

use core::marker::PhantomData;

use super::book::Ledger;
use super::cursor::{KeyedCursor, KeyedEntry};
use super::key::{DefaultKey, Key};
use super::KeyedCollection;
use crate::auto_remove::{AutoRemove, NoAutoRemove};
use crate::key_data::KeyData;
use crate::raw::Pass;
use crate::settings::Mode;

/// Making a bounded or unordered collection with [`DefaultKey`]s
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

/// Making a collection whose passes remove elements on their own.
impl<T> KeyedCollection<T> {
    /// An empty collection whose passes remove, without user code, every
    /// element for which `pred` returns `true` (checked when the cursor
    /// reaches it, and again when the entry is let go), as
    /// [`ReadWriteCollection::with_auto_remove`](crate::ReadWriteCollection::with_auto_remove).
    /// Removing another element mid-pass is a flag this predicate reads.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// struct Ship { hp: i32 }
    ///
    /// let mut ships = KeyedCollection::with_auto_remove(|s: &Ship| s.hp <= 0);
    /// let a = ships.push(Ship { hp: 5 });
    /// let b = ships.push(Ship { hp: 5 });
    /// ships.traverse(|mut s| {
    ///     if s.key() == a {
    ///         // `a` hits `b`: `b` leaves when the pass reaches it.
    ///         s.get_mut(b).unwrap().hp = 0;
    ///     }
    /// });
    /// assert!(ships.contains_key(a) && !ships.contains_key(b));
    /// ```
    #[must_use]
    pub fn with_auto_remove<F: AutoRemove<T>>(pred: F) -> KeyedCollection<T, DefaultKey, F> {
        KeyedCollection::with_policy(pred)
    }
}

/// Making a collection with keys of any type and any policy.
impl<T, K: Key> KeyedCollection<T, K> {
    /// An empty collection with keys of type `K` and an [`AutoRemove`]
    /// policy (a predicate, or a policy of your own).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{new_key_type, KeyedCollection};
    ///
    /// new_key_type! { struct ShotKey; }
    ///
    /// let mut shots: KeyedCollection<u32, ShotKey, _> =
    ///     KeyedCollection::with_policy(|ttl: &u32| *ttl == 0);
    /// shots.push(0);
    /// shots.push(3);
    /// shots.traverse(|_| {});
    /// assert_eq!(shots.as_slice(), [3]);
    /// ```
    #[must_use]
    pub fn with_policy<A: AutoRemove<T>>(policy: A) -> KeyedCollection<T, K, A> {
        KeyedCollection {
            store: crate::raw::Store::new(alloc::vec::Vec::new()),
            keys: Ledger::new(),
            policy,
            _key: PhantomData,
        }
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

/// A policy plus a removal hook that receives every element the policy
/// removes from a [`KeyedCollection`], with the key it had (stale from
/// then on).
///
/// Built by [`KeyedCollection::with_removal_hook`]. Outside a keyed
/// collection there is no key: given to a `ReadWriteCollection`, its
/// `removed` drops the element.
///
/// # Examples
///
/// ```
/// use read_write_collection::KeyedCollection;
///
/// let mut lost = Vec::new();
/// let mut ships = KeyedCollection::with_auto_remove(|hp: &i32| *hp <= 0)
///     .with_removal_hook(|key, hp: i32| lost.push((key, hp)));
/// ships.push(3);
/// let doomed = ships.push(0);
/// ships.traverse(|_| {});
/// drop(ships);
/// assert_eq!(lost, [(doomed, 0)]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct WithKeyHook<P, H, K> {
    /// The predicate (or any other policy).
    pub policy: P,
    /// Receives each removed element with its key.
    pub hook: H,
    _key: PhantomData<fn(K)>,
}

impl<T, K: Key, P: AutoRemove<T>, H: FnMut(K, T)> AutoRemove<T> for WithKeyHook<P, H, K> {
    #[inline]
    fn should_remove(&mut self, item: &T) -> bool {
        self.policy.should_remove(item)
    }

    #[inline]
    fn removed_with_key(&mut self, key: KeyData, item: T) {
        (self.hook)(K::from_data(key), item);
    }
}

/// The policy.
impl<T, K: Key, A> KeyedCollection<T, K, A> {
    /// The auto-remove policy.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let c: KeyedCollection<u8, _, _> = KeyedCollection::with_auto_remove(|v: &u8| *v == 0);
    /// assert!(!(c.policy())(&1));
    /// ```
    #[inline]
    pub fn policy(&self) -> &A {
        &self.policy
    }

    /// The auto-remove policy, mutably (a predicate's captured state).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::keyed::DefaultKey;
    /// use read_write_collection::{AutoRemove, KeyedCollection};
    ///
    /// struct Below(i32);
    /// impl AutoRemove<i32> for Below {
    ///     fn should_remove(&mut self, v: &i32) -> bool { *v < self.0 }
    /// }
    ///
    /// let mut c: KeyedCollection<i32, DefaultKey, _> = KeyedCollection::with_policy(Below(0));
    /// c.push(5);
    /// c.policy_mut().0 = 10;
    /// c.traverse(|_| {});
    /// assert!(c.is_empty());
    /// ```
    #[inline]
    pub fn policy_mut(&mut self) -> &mut A {
        &mut self.policy
    }

    /// Adds a removal hook: `hook` receives, with its key, every element
    /// the policy removes (not the ones user code removes with
    /// [`KeyedEntry::remove`], which returns them itself).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut explosions = Vec::new();
    /// let mut ships = KeyedCollection::with_auto_remove(|hp: &i32| *hp <= 0)
    ///     .with_removal_hook(|key, _hp: i32| explosions.push(key));
    /// let a = ships.push(0);
    /// ships.push(4);
    /// ships.traverse(|_| {});
    /// drop(ships);
    /// assert_eq!(explosions, [a]);
    /// ```
    #[must_use]
    pub fn with_removal_hook<H: FnMut(K, T)>(
        self,
        hook: H,
    ) -> KeyedCollection<T, K, WithKeyHook<A, H, K>> {
        KeyedCollection {
            store: self.store,
            keys: self.keys,
            policy: WithKeyHook {
                policy: self.policy,
                hook,
                _key: PhantomData,
            },
            _key: PhantomData,
        }
    }
}

/// Keeping some elements.
impl<T, K: Key, A> KeyedCollection<T, K, A> {
    /// Keeps only the elements for which `f` returns `true`, in order (in
    /// [`Mode::Unordered`], as in any pass, a removal moves the last
    /// element into its place). `f` gets each element's key. Does not run
    /// the auto-remove policy. A panic in `f` keeps the element it was
    /// called on and every later one.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// let keys: Vec<_> = (1..=6).map(|v| c.push(v)).collect();
    /// c.retain(|k, v| {
    ///     *v *= 10;
    ///     k != keys[1] && k != keys[4]
    /// });
    /// assert_eq!(c.as_slice(), [10, 30, 40, 60]);
    /// assert_eq!(c[keys[5]], 60);
    /// ```
    pub fn retain<F: FnMut(K, &mut T) -> bool>(&mut self, mut f: F) {
        self.settled();
        let unordered = self.store.unordered;
        let mut none = NoAutoRemove;
        let cursor: KeyedCursor<'_, T, K, NoAutoRemove> = KeyedCursor::new(
            Pass::begin(&mut self.store, None),
            &mut self.keys,
            unordered,
            &mut none,
        );
        cursor.for_each(|mut e| {
            if !f(e.key(), &mut e) {
                e.remove();
            }
        });
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
        self.store.max_len()
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
        self.store.set_max_len(max);
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
        self.store.mode()
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
        self.store.set_mode(mode);
    }

    /// An empty collection with this one's settings (bound, mode) and
    /// `policy`: what the generators use to keep a template's settings.
    #[allow(dead_code)] // not every feature combination uses it
    pub(crate) fn empty_like<B>(&self, policy: B) -> KeyedCollection<T, K, B> {
        let mut store = crate::raw::Store::new(alloc::vec::Vec::new());
        store.max = self.store.max;
        store.unordered = self.store.unordered;
        KeyedCollection {
            store,
            keys: Ledger::new(),
            policy,
            _key: PhantomData,
        }
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

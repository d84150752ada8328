//! Stable keys with the order kept: [`KeyedCollection`], its [`Key`]s and
//! [`new_key_type!`](crate::new_key_type).
//!
//! Elements sit in one `Vec`, in insertion order, as in a
//! [`ReadWriteCollection`](crate::ReadWriteCollection). Each has a slot in
//! a table beside it; a key names a slot and the version the slot had when
//! the key was made, so a lookup is a slot load, a version compare and an
//! element load, and a key stays valid while its element moves. What each
//! element costs beyond `T`: 12 bytes (its slot, 8, and its entry in the
//! list of slots by position, 4); once a pass has removed elements, a bit
//! and a sixteenth of a count per position more, kept for the next pass.
//!
//! A pass ([`KeyedCollection::cursor`], [`KeyedCollection::traverse`])
//! works as it does over a `ReadWriteCollection`: remove the element in
//! hand, push new ones that the same pass visits, and, while one is held,
//! reach the others by key ([`KeyedEntry::get`], [`KeyedEntry::get_mut`],
//! [`KeyedEntry::pair_mut`]); every key stays valid through the pass.
//!
//! # Cost
//!
//! When the pass ends, every element that moved (each one after the first
//! removal) gives its slot its new position: a store into the slot table,
//! wherever that slot is. That keeps `get` a slot load, a compare and an
//! element load at any time, and it is what a keyed pass costs beyond an
//! unkeyed one: on frames where a tenth of the elements die, 1.5-1.9×
//! the unkeyed pass here, and 1.4-1.9× slotmap's `DenseSlotMap`, which
//! moves one element per removal and loses the order (the crate's
//! `benches/README.md` has the figures and what was tried).

mod book;
mod cursor;
mod iter;
mod key;
mod passes;
mod slots;
mod traits;

use alloc::vec::Vec;
use core::marker::PhantomData;

use self::book::Ledger;
use crate::auto_remove::NoAutoRemove;
use crate::raw::Store;

pub use self::cursor::{KeyedCursor, KeyedEntry};
pub use self::iter::{IntoIter, Iter, IterMut, Keys};
pub use self::key::{DefaultKey, Key};
pub use self::passes::WithKeyHook;
pub use crate::key_data::KeyData;

/// A `Vec`-backed, insertion-ordered collection whose elements keep a key
/// for as long as they are in it, whatever moves around them.
///
/// `K` is the key type ([`DefaultKey`], or one from
/// [`new_key_type!`](crate::new_key_type)); `A` is the
/// [auto-remove policy](crate::auto_remove) its passes will apply.
///
/// # Examples
///
/// ```
/// use read_write_collection::KeyedCollection;
///
/// let mut ships = KeyedCollection::new();
/// let frigate = ships.push("frigate");
/// let corvette = ships.push("corvette");
/// let carrier = ships.push("carrier");
/// assert_eq!(ships.remove(corvette), Some("corvette"));
/// // The order is kept and the other keys still work.
/// assert_eq!(ships.as_slice(), ["frigate", "carrier"]);
/// assert_eq!(ships.get(carrier), Some(&"carrier"));
/// assert_eq!(ships.get(corvette), None); // stale for good
/// assert_eq!(ships.index_of(frigate), Some(0));
/// ```
pub struct KeyedCollection<T, K = DefaultKey, A = NoAutoRemove> {
    /// The elements, in order, with the settings a pass reads.
    store: Store<T>,
    /// The keys' side: the slot of each element and the slot table.
    keys: Ledger,
    /// The policy the passes apply.
    policy: A,
    _key: PhantomData<fn(K) -> K>,
}

/// Making a collection with [`DefaultKey`]s.
impl<T> KeyedCollection<T> {
    /// An empty collection; allocates nothing. (With a key type of your
    /// own: [`with_key`](Self::with_key).)
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// assert!(c.is_empty());
    /// c.push(1);
    /// ```
    pub const fn new() -> Self {
        Self::with_key()
    }

    /// An empty collection with room for `capacity` elements before it
    /// allocates again. (With a key type of your own:
    /// [`with_capacity_and_key`](Self::with_capacity_and_key).)
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let c: KeyedCollection<u8> = KeyedCollection::with_capacity(10);
    /// assert!(c.capacity() >= 10);
    /// ```
    pub fn with_capacity(capacity: usize) -> Self {
        Self::with_capacity_and_key(capacity)
    }
}

/// Making a collection with keys of any type.
impl<T, K: Key> KeyedCollection<T, K> {
    /// An empty collection whose keys are `K`s; allocates nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{new_key_type, KeyedCollection};
    ///
    /// new_key_type! { struct EnemyKey; }
    ///
    /// let mut enemies = KeyedCollection::with_key();
    /// let k: EnemyKey = enemies.push("ogre");
    /// assert_eq!(enemies[k], "ogre");
    /// ```
    pub const fn with_key() -> Self {
        KeyedCollection {
            store: Store::new(Vec::new()),
            keys: Ledger::new(),
            policy: NoAutoRemove,
            _key: PhantomData,
        }
    }

    /// An empty collection whose keys are `K`s, with room for `capacity`
    /// elements before it allocates again.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{new_key_type, KeyedCollection};
    ///
    /// new_key_type! { struct EnemyKey; }
    ///
    /// let enemies: KeyedCollection<&str, EnemyKey> =
    ///     KeyedCollection::with_capacity_and_key(16);
    /// assert!(enemies.capacity() >= 16);
    /// ```
    pub fn with_capacity_and_key(capacity: usize) -> Self {
        let mut c = Self::with_key();
        c.reserve(capacity);
        c
    }
}

/// Pushing, looking up and removing by key.
impl<T, K: Key, A> KeyedCollection<T, K, A> {
    /// Appends `value` and returns its key, valid until the element is
    /// removed.
    ///
    /// # Panics
    ///
    /// If the collection is bounded and full (see
    /// [`try_push`](Self::try_push)), would hold `u32::MAX - 1` elements
    /// (keys and positions are 32-bit), or cannot grow.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// let k = c.push('a');
    /// assert_eq!(c[k], 'a');
    /// ```
    #[track_caller]
    pub fn push(&mut self, value: T) -> K {
        match self.try_push(value) {
            Ok(key) => key,
            Err(_) => crate::cursor::full_panic(),
        }
    }

    /// Like [`push`](Self::push), but a full bounded collection hands the
    /// value back instead of panicking.
    ///
    /// # Errors
    ///
    /// [`CapacityError`](crate::CapacityError) holding `value` if the
    /// collection is at its maximum length.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::bounded(1);
    /// let k = c.try_push('a').unwrap();
    /// assert_eq!(c.try_push('b').unwrap_err().element(), 'b');
    /// assert_eq!(c[k], 'a');
    /// ```
    pub fn try_push(&mut self, value: T) -> Result<K, crate::error::CapacityError<T>> {
        self.settled();
        let at = self.store.vec.len();
        if at >= self.store.max {
            return Err(crate::error::CapacityError::new(value));
        }
        // Everything that can fail first: nothing changes if it does.
        self.keys.reserve_push();
        if at == self.store.vec.capacity() {
            self.store.grow();
        }
        let data = self.keys.append();
        self.store.vec.push(value);
        Ok(K::from_data(data))
    }

    /// The element `key` names, or `None` if it has been removed.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// let k = c.push(5);
    /// assert_eq!(c.get(k), Some(&5));
    /// c.remove(k);
    /// assert_eq!(c.get(k), None);
    /// ```
    #[inline]
    pub fn get(&self, key: K) -> Option<&T> {
        let at = self.keys.slots.find(key.data())?;
        self.store.vec.get(at)
    }

    /// The element `key` names, mutably, or `None` if it has been removed.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// let k = c.push(5);
    /// *c.get_mut(k).unwrap() += 1;
    /// assert_eq!(c[k], 6);
    /// ```
    #[inline]
    pub fn get_mut(&mut self, key: K) -> Option<&mut T> {
        let at = self.keys.slots.find(key.data())?;
        self.store.vec.get_mut(at)
    }

    /// Whether `key` names an element of the collection.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// let k = c.push(());
    /// assert!(c.contains_key(k));
    /// c.remove(k);
    /// assert!(!c.contains_key(k));
    /// ```
    #[inline]
    pub fn contains_key(&self, key: K) -> bool {
        self.index_of(key).is_some()
    }

    /// The position of the element `key` names (its index in
    /// [`as_slice`](Self::as_slice)), or `None` if it has been removed.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// let a = c.push('a');
    /// let b = c.push('b');
    /// c.remove(a);
    /// assert_eq!(c.index_of(b), Some(0));
    /// ```
    #[inline]
    pub fn index_of(&self, key: K) -> Option<usize> {
        // Below the length: after a leaked cursor the slots are stale
        // until the next change (see `recover`).
        self.keys
            .slots
            .find(key.data())
            .filter(|&at| at < self.len())
    }

    /// The key of the element at position `index`, or `None` if there is
    /// none.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// let k = c.push('a');
    /// assert_eq!(c.key_at(0), Some(k));
    /// assert_eq!(c.key_at(1), None);
    /// ```
    #[inline]
    pub fn key_at(&self, index: usize) -> Option<K> {
        let idx = *self.keys.dense[..self.len()].get(index)?;
        Some(self.keys.slots.key(idx))
    }

    /// Removes the element `key` names and returns it, keeping the order
    /// of the others: like [`Vec::remove`], it shifts every element after
    /// it, O(n). `None` if the key is stale.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// let a = c.push('a');
    /// let b = c.push('b');
    /// let d = c.push('c');
    /// assert_eq!(c.remove(b), Some('b'));
    /// assert_eq!(c.remove(b), None);
    /// assert_eq!(c.as_slice(), ['a', 'c']);
    /// assert_eq!((c[a], c[d]), ('a', 'c'));
    /// ```
    pub fn remove(&mut self, key: K) -> Option<T> {
        self.settled();
        let at = self.keys.slots.find(key.data())?;
        // Bookkeeping first (none of it runs user code or can fail).
        let idx = self.keys.dense.remove(at);
        self.keys.slots.vacate(idx);
        for (i, &moved) in self.keys.dense.iter().enumerate().skip(at) {
            self.keys.slots.moved(moved, i);
        }
        Some(self.store.vec.remove(at))
    }

    /// The elements `keys` name, all mutable at once; `None` if a key is
    /// stale or two keys name the same element. O(N log N) in the number
    /// of keys.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// let a = c.push(1);
    /// let b = c.push(2);
    /// let [x, y] = c.get_disjoint_mut([b, a]).unwrap();
    /// std::mem::swap(x, y);
    /// assert_eq!((c[a], c[b]), (2, 1));
    /// assert!(c.get_disjoint_mut([a, a]).is_none());
    /// ```
    pub fn get_disjoint_mut<const N: usize>(&mut self, keys: [K; N]) -> Option<[&mut T; N]> {
        let mut at = [0; N];
        for (at, key) in at.iter_mut().zip(keys) {
            *at = self.index_of(key)?;
        }
        // The keys by position: one walk down the slice hands each out.
        let mut order: [usize; N] = core::array::from_fn(|i| i);
        order.sort_unstable_by_key(|&i| at[i]);
        let mut out: [Option<&mut T>; N] = [(); N].map(|_| None);
        let mut rest: &mut [T] = &mut self.store.vec;
        let mut base = 0;
        for &i in &order {
            // A repeated position is below `base`: two keys, one element.
            let skip = at[i].checked_sub(base)?;
            let (_, tail) = core::mem::take(&mut rest).split_at_mut(skip);
            let (first, tail) = tail.split_first_mut()?;
            out[i] = Some(first);
            rest = tail;
            base = at[i] + 1;
        }
        Some(out.map(|r| r.expect("every key was given an element")))
    }

    /// Removes every element; every key becomes stale.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// let k = c.push(1);
    /// c.clear();
    /// assert!(c.is_empty());
    /// assert!(!c.contains_key(k));
    /// ```
    pub fn clear(&mut self) {
        self.settled();
        // The keys go stale before any element's `Drop` runs.
        for idx in self.keys.dense.drain(..) {
            self.keys.slots.vacate(idx);
        }
        self.store.vec.clear();
    }
}

/// Saving and loading (`serde_impls`).
#[cfg(feature = "serde")]
impl<T, K: Key, A> KeyedCollection<T, K, A> {
    /// Each slot's version, by slot index.
    pub(crate) fn slot_versions(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        self.keys.slots.versions()
    }

    /// The slot index of each element, in order.
    pub(crate) fn element_slots(&self) -> &[u32] {
        &self.keys.dense[..self.len()]
    }

    /// Replaces the contents with a saved table and elements (each with
    /// its slot index), if they describe a valid collection; else leaves
    /// `self` unchanged.
    pub(crate) fn restore(
        &mut self,
        versions: Vec<u32>,
        elements: Vec<(u32, T)>,
    ) -> Result<(), &'static str> {
        if elements.len() > self.store.max {
            return Err("more elements than the maximum length");
        }
        let (dense, values): (Vec<u32>, Vec<T>) = elements.into_iter().unzip();
        let slots = self::slots::Slots::from_saved(versions, &dense)?;
        self.settled();
        self.keys.dense = dense;
        self.keys.slots = slots;
        self.store.vec = values;
        Ok(())
    }
}

/// Size, capacity and the elements in order.
impl<T, K: Key, A> KeyedCollection<T, K, A> {
    /// The number of elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// c.push(1);
    /// assert_eq!(c.len(), 1);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.store.vec.len()
    }

    /// Whether there are no elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let c: KeyedCollection<u8> = KeyedCollection::new();
    /// assert!(c.is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.store.vec.is_empty()
    }

    /// How many elements fit before the element buffer grows.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let c: KeyedCollection<u8> = KeyedCollection::with_capacity(3);
    /// assert!(c.capacity() >= 3);
    /// ```
    #[inline]
    pub fn capacity(&self) -> usize {
        self.store.vec.capacity()
    }

    /// Makes room for at least `additional` more elements (and their
    /// bookkeeping), as [`Vec::reserve`].
    ///
    /// # Panics
    ///
    /// If the new capacity overflows, as `Vec::reserve`.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c: KeyedCollection<u8> = KeyedCollection::new();
    /// c.reserve(8);
    /// assert!(c.capacity() >= 8);
    /// ```
    pub fn reserve(&mut self, additional: usize) {
        self.store.vec.reserve(additional);
        self.keys.dense.reserve(additional);
        self.keys.slots.reserve(additional);
    }

    /// The elements, in order, without their keys.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// c.push(1);
    /// c.push(2);
    /// assert_eq!(c.as_slice(), [1, 2]);
    /// ```
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        &self.store.vec
    }

    /// The elements with their keys, in order.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// let a = c.push('a');
    /// let b = c.push('b');
    /// assert!(c.iter().eq([(a, &'a'), (b, &'b')]));
    /// ```
    pub fn iter(&self) -> Iter<'_, T, K> {
        Iter::new(self.keys(), &self.store.vec)
    }

    /// The elements, mutable, with their keys, in order.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// let a = c.push(1);
    /// for (k, v) in c.iter_mut() {
    ///     assert_eq!(k, a);
    ///     *v += 1;
    /// }
    /// assert_eq!(c[a], 2);
    /// ```
    pub fn iter_mut(&mut self) -> IterMut<'_, T, K> {
        let len = self.store.vec.len();
        IterMut::new(
            Keys::new(&self.keys.dense[..len], &self.keys.slots),
            &mut self.store.vec,
        )
    }

    /// The keys, in the elements' order.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// let a = c.push('a');
    /// let b = c.push('b');
    /// assert!(c.keys().eq([a, b]));
    /// ```
    pub fn keys(&self) -> Keys<'_, K> {
        Keys::new(&self.keys.dense[..self.len()], &self.keys.slots)
    }

    /// The elements, in order.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// c.push('a');
    /// assert!(c.values().eq(&['a']));
    /// ```
    pub fn values(&self) -> core::slice::Iter<'_, T> {
        self.store.vec.iter()
    }

    /// The elements, mutable, in order.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::KeyedCollection;
    ///
    /// let mut c = KeyedCollection::new();
    /// c.push(1);
    /// c.values_mut().for_each(|v| *v *= 10);
    /// assert_eq!(c.as_slice(), [10]);
    /// ```
    pub fn values_mut(&mut self) -> core::slice::IterMut<'_, T> {
        self.store.vec.iter_mut()
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::{Key, KeyedCollection};

    /// A slot at its last version is retired when its element leaves:
    /// the key stays stale, and no later element gets that slot.
    #[test]
    fn a_slot_about_to_wrap_is_retired() {
        let mut c: KeyedCollection<&str> = KeyedCollection::new();
        let first = c.push("first");
        let idx = first.data().idx;
        c.remove(first);
        let second = c.push("second");
        assert_eq!(second.data().idx, idx, "a vacant slot is reused");
        // Jump the slot to its last version (2^31 reuses, shortened).
        c.keys.slots.set_version(idx, u32::MAX);
        let last = c.key_at(0).expect("one element");
        assert_eq!(last.data().version.get(), u32::MAX);
        assert_eq!(c.get(last), Some(&"second"));
        c.remove(last);
        assert_eq!(c.get(last), None);
        assert_eq!(c.get(second), None);
        // The next elements get new slots: the retired one is never reused.
        let later: Vec<_> = (0..3).map(|_| c.push("later")).collect();
        assert!(later.iter().all(|k| k.data().idx != idx));
        assert_eq!(c.get(last), None);
        assert_eq!(c.len(), 3);
    }
}

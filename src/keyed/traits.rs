//! The standard traits of [`KeyedCollection`]: `Default`, `Clone`,
//! `Debug` (as a map), `PartialEq`/`Eq` (keys and elements, in order),
//! `Index`/`IndexMut` by key.

use core::fmt;
use core::marker::PhantomData;

use super::key::Key;
use super::KeyedCollection;

impl<T, K: Key> Default for KeyedCollection<T, K> {
    fn default() -> Self {
        Self::with_key()
    }
}

impl<T: Clone, K: Key, A: Clone> Clone for KeyedCollection<T, K, A> {
    /// A copy whose keys are the same as this one's.
    fn clone(&self) -> Self {
        KeyedCollection {
            store: self.store.clone(),
            keys: self.keys.clone(),
            policy: self.policy.clone(),
            _key: PhantomData,
        }
    }
}

/// Prints as a map from key to element, in order.
impl<T: fmt::Debug, K: Key, A> fmt::Debug for KeyedCollection<T, K, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// The element `key` names.
///
/// # Panics
///
/// If `key` is stale (its element was removed).
impl<T, K: Key, A> core::ops::Index<K> for KeyedCollection<T, K, A> {
    type Output = T;

    #[track_caller]
    fn index(&self, key: K) -> &T {
        self.get(key).expect("a stale key")
    }
}

/// The element `key` names, mutably.
///
/// # Panics
///
/// If `key` is stale (its element was removed).
impl<T, K: Key, A> core::ops::IndexMut<K> for KeyedCollection<T, K, A> {
    #[track_caller]
    fn index_mut(&mut self, key: K) -> &mut T {
        self.get_mut(key).expect("a stale key")
    }
}

/// Two collections are equal when they hold equal elements in the same
/// order under the same keys (the auto-remove policies are not compared).
///
/// # Examples
///
/// ```
/// use read_write_collection::KeyedCollection;
///
/// let mut a = KeyedCollection::new();
/// a.push(1);
/// let b = a.clone();
/// assert_eq!(a, b);
/// let mut c = KeyedCollection::new();
/// let k = c.push(0);
/// c.remove(k);
/// c.push(1); // the same element, under another key
/// assert_ne!(a, c);
/// ```
impl<T: PartialEq, K: Key, A, B> PartialEq<KeyedCollection<T, K, B>> for KeyedCollection<T, K, A> {
    fn eq(&self, other: &KeyedCollection<T, K, B>) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<T: Eq, K: Key, A> Eq for KeyedCollection<T, K, A> {}

/// Pushes every element in order (their keys are the ones a fresh
/// collection hands out: read them back with
/// [`keys`](KeyedCollection::keys)).
///
/// # Examples
///
/// ```
/// use read_write_collection::KeyedCollection;
///
/// let c: KeyedCollection<u8> = (1..=3).collect();
/// assert_eq!(c.as_slice(), [1, 2, 3]);
/// ```
impl<T, K: Key> FromIterator<T> for KeyedCollection<T, K> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut c = KeyedCollection::with_key();
        c.extend(iter);
        c
    }
}

/// Pushes every element in order; their keys are not returned (push them
/// one at a time to keep them).
///
/// # Panics
///
/// If the collection is bounded and becomes full, as [`push`](KeyedCollection::push).
///
/// # Examples
///
/// ```
/// use read_write_collection::KeyedCollection;
///
/// let mut c = KeyedCollection::new();
/// let first = c.push(0);
/// c.extend([1, 2]);
/// assert_eq!(c.as_slice(), [0, 1, 2]);
/// assert_eq!(c.index_of(first), Some(0));
/// ```
impl<T, K: Key, A> Extend<T> for KeyedCollection<T, K, A> {
    #[track_caller]
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        let iter = iter.into_iter();
        // A lower bound only: never trusted past the bound.
        let (lower, _) = iter.size_hint();
        self.reserve(lower.min(self.max_len().unwrap_or(usize::MAX) - self.len()));
        for value in iter {
            self.push(value);
        }
    }
}

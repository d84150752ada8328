//! The iterators of a [`KeyedCollection`]: [`Keys`], [`Iter`], [`IterMut`]
//! and [`IntoIter`], in the elements' order.

use alloc::vec;
use core::fmt;
use core::iter::FusedIterator;
use core::marker::PhantomData;
use core::slice;

use super::key::Key;
use super::slots::Slots;
use super::KeyedCollection;

/// The keys of a [`KeyedCollection`], in the elements' order: made by
/// [`KeyedCollection::keys`].
pub struct Keys<'a, K> {
    dense: slice::Iter<'a, u32>,
    slots: &'a Slots,
    _key: PhantomData<fn() -> K>,
}

impl<'a, K> Keys<'a, K> {
    pub(super) fn new(dense: &'a [u32], slots: &'a Slots) -> Self {
        Keys {
            dense: dense.iter(),
            slots,
            _key: PhantomData,
        }
    }
}

impl<K: Key> Iterator for Keys<'_, K> {
    type Item = K;

    #[inline]
    fn next(&mut self) -> Option<K> {
        self.dense.next().map(|&idx| self.slots.key(idx))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.dense.size_hint()
    }
}

impl<K: Key> DoubleEndedIterator for Keys<'_, K> {
    #[inline]
    fn next_back(&mut self) -> Option<K> {
        self.dense.next_back().map(|&idx| self.slots.key(idx))
    }
}

impl<K: Key> ExactSizeIterator for Keys<'_, K> {}
impl<K: Key> FusedIterator for Keys<'_, K> {}

impl<K> Clone for Keys<'_, K> {
    fn clone(&self) -> Self {
        Keys {
            dense: self.dense.clone(),
            slots: self.slots,
            _key: PhantomData,
        }
    }
}

impl<K: Key> fmt::Debug for Keys<'_, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.clone()).finish()
    }
}

/// The elements of a [`KeyedCollection`] with their keys, in order: made by
/// [`KeyedCollection::iter`] and `&collection`'s `IntoIterator`.
pub struct Iter<'a, T, K> {
    keys: Keys<'a, K>,
    values: slice::Iter<'a, T>,
}

impl<'a, T, K> Iter<'a, T, K> {
    pub(super) fn new(keys: Keys<'a, K>, values: &'a [T]) -> Self {
        Iter {
            keys,
            values: values.iter(),
        }
    }
}

impl<'a, T, K: Key> Iterator for Iter<'a, T, K> {
    type Item = (K, &'a T);

    #[inline]
    fn next(&mut self) -> Option<(K, &'a T)> {
        Some((self.keys.next()?, self.values.next()?))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.values.size_hint()
    }
}

impl<T, K: Key> DoubleEndedIterator for Iter<'_, T, K> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        Some((self.keys.next_back()?, self.values.next_back()?))
    }
}

impl<T, K: Key> ExactSizeIterator for Iter<'_, T, K> {}
impl<T, K: Key> FusedIterator for Iter<'_, T, K> {}

impl<T, K> Clone for Iter<'_, T, K> {
    fn clone(&self) -> Self {
        Iter {
            keys: self.keys.clone(),
            values: self.values.clone(),
        }
    }
}

impl<T: fmt::Debug, K: Key> fmt::Debug for Iter<'_, T, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.clone()).finish()
    }
}

/// The elements of a [`KeyedCollection`], mutable, with their keys, in
/// order: made by [`KeyedCollection::iter_mut`] and `&mut collection`'s
/// `IntoIterator`.
pub struct IterMut<'a, T, K> {
    keys: Keys<'a, K>,
    values: slice::IterMut<'a, T>,
}

impl<'a, T, K> IterMut<'a, T, K> {
    pub(super) fn new(keys: Keys<'a, K>, values: &'a mut [T]) -> Self {
        IterMut {
            keys,
            values: values.iter_mut(),
        }
    }
}

impl<'a, T, K: Key> Iterator for IterMut<'a, T, K> {
    type Item = (K, &'a mut T);

    #[inline]
    fn next(&mut self) -> Option<(K, &'a mut T)> {
        Some((self.keys.next()?, self.values.next()?))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.values.size_hint()
    }
}

impl<T, K: Key> DoubleEndedIterator for IterMut<'_, T, K> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        Some((self.keys.next_back()?, self.values.next_back()?))
    }
}

impl<T, K: Key> ExactSizeIterator for IterMut<'_, T, K> {}
impl<T, K: Key> FusedIterator for IterMut<'_, T, K> {}

impl<T: fmt::Debug, K: Key> fmt::Debug for IterMut<'_, T, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IterMut")
            .field("remaining", &self.values.len())
            .finish_non_exhaustive()
    }
}

/// The elements of a [`KeyedCollection`] by value, with their keys, in
/// order: the collection's `IntoIterator`.
pub struct IntoIter<T, K> {
    dense: vec::IntoIter<u32>,
    slots: Slots,
    values: vec::IntoIter<T>,
    _key: PhantomData<fn() -> K>,
}

impl<T, K: Key> Iterator for IntoIter<T, K> {
    type Item = (K, T);

    #[inline]
    fn next(&mut self) -> Option<(K, T)> {
        let value = self.values.next()?;
        let idx = self.dense.next().expect("one slot per element");
        Some((self.slots.key(idx), value))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.values.size_hint()
    }
}

impl<T, K: Key> DoubleEndedIterator for IntoIter<T, K> {
    #[inline]
    fn next_back(&mut self) -> Option<(K, T)> {
        let value = self.values.next_back()?;
        let idx = self.dense.next_back().expect("one slot per element");
        Some((self.slots.key(idx), value))
    }
}

impl<T, K: Key> ExactSizeIterator for IntoIter<T, K> {}
impl<T, K: Key> FusedIterator for IntoIter<T, K> {}

impl<T: fmt::Debug, K: Key> fmt::Debug for IntoIter<T, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IntoIter")
            .field("remaining", &self.values.len())
            .finish_non_exhaustive()
    }
}

/// The elements with their keys, in order, by value.
///
/// # Examples
///
/// ```
/// use read_write_collection::KeyedCollection;
///
/// let mut c = KeyedCollection::new();
/// let a = c.push('a');
/// let b = c.push('b');
/// let all: Vec<_> = c.into_iter().collect();
/// assert_eq!(all, [(a, 'a'), (b, 'b')]);
/// ```
impl<T, K: Key, A> IntoIterator for KeyedCollection<T, K, A> {
    type Item = (K, T);
    type IntoIter = IntoIter<T, K>;

    fn into_iter(mut self) -> IntoIter<T, K> {
        self.settled();
        let keys = core::mem::replace(&mut self.keys, super::book::Ledger::new());
        let (dense, slots) = keys.into_parts();
        IntoIter {
            dense: dense.into_iter(),
            slots,
            values: core::mem::take(&mut self.store.vec).into_iter(),
            _key: PhantomData,
        }
    }
}

/// The elements with their keys, in order.
///
/// # Examples
///
/// ```
/// use read_write_collection::KeyedCollection;
///
/// let mut c = KeyedCollection::new();
/// c.push(1);
/// c.push(2);
/// let mut sum = 0;
/// for (_key, v) in &c {
///     sum += v;
/// }
/// assert_eq!(sum, 3);
/// ```
impl<'a, T, K: Key, A> IntoIterator for &'a KeyedCollection<T, K, A> {
    type Item = (K, &'a T);
    type IntoIter = Iter<'a, T, K>;

    fn into_iter(self) -> Iter<'a, T, K> {
        self.iter()
    }
}

/// The elements, mutable, with their keys, in order.
///
/// # Examples
///
/// ```
/// use read_write_collection::KeyedCollection;
///
/// let mut c = KeyedCollection::new();
/// c.push(1);
/// for (_key, v) in &mut c {
///     *v += 1;
/// }
/// assert_eq!(c.as_slice(), [2]);
/// ```
impl<'a, T, K: Key, A> IntoIterator for &'a mut KeyedCollection<T, K, A> {
    type Item = (K, &'a mut T);
    type IntoIter = IterMut<'a, T, K>;

    fn into_iter(self) -> IterMut<'a, T, K> {
        self.iter_mut()
    }
}

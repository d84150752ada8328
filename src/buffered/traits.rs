//! The std traits of [`BufferedCollection`].

use alloc::vec::Vec;
use core::fmt;
use core::ops::Deref;
#[cfg(feature = "std")]
use core::sync::atomic::AtomicBool;

use super::BufferedCollection;
use crate::auto_remove::AutoRemove;
#[cfg(feature = "std")]
use crate::producer::ProducerLink;

impl<T: Clone, A: Clone> Clone for BufferedCollection<T, A> {
    /// Clones the visible and local pending elements and the policy. The
    /// clone has its own producers (none yet); elements queued by this
    /// collection's producers are not cloned.
    fn clone(&self) -> Self {
        BufferedCollection {
            store: self.store.clone(),
            pending: self.pending.clone(),
            policy: self.policy.clone(),
            max: self.max,
            #[cfg(feature = "std")]
            link: ProducerLink::new(self.max, self.link.order()),
            #[cfg(feature = "std")]
            producers_made: AtomicBool::new(false),
        }
    }
}

impl<T: fmt::Debug, A> fmt::Debug for BufferedCollection<T, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("BufferedCollection");
        d.field("visible", &self.store.vec)
            .field("local_pending", &self.pending);
        #[cfg(feature = "std")]
        d.field("producer_pending", &self.link.len());
        d.finish()
    }
}

impl<T, A: Default + AutoRemove<T>> Default for BufferedCollection<T, A> {
    fn default() -> Self {
        BufferedCollection::with_policy(A::default())
    }
}

/// Equal when the visible elements and the local pending elements are equal
/// (policies and producers' queues are not compared).
impl<T: PartialEq, A> PartialEq for BufferedCollection<T, A> {
    fn eq(&self, other: &Self) -> bool {
        self.store.vec == other.store.vec && self.pending == other.pending
    }
}

impl<T: Eq, A> Eq for BufferedCollection<T, A> {}

/// Hashes the visible, then the local pending elements (consistent with `Eq`).
impl<T: core::hash::Hash, A> core::hash::Hash for BufferedCollection<T, A> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.store.vec.hash(state);
        self.pending.hash(state);
    }
}

impl<T, A> Deref for BufferedCollection<T, A> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        &self.store.vec
    }
}

/// Pushes every element to the pending buffer.
///
/// # Panics
///
/// As [`push`](BufferedCollection::push): on a bounded collection that
/// becomes full (the elements pushed so far stay pending).
impl<T, A> Extend<T> for BufferedCollection<T, A> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        if self.max == usize::MAX {
            self.pending.extend(iter);
        } else {
            for value in iter {
                self.push(value);
            }
        }
    }
}

/// Collects into the **visible** elements (nothing pending).
impl<T> FromIterator<T> for BufferedCollection<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Vec::from_iter(iter).into()
    }
}

/// The `Vec`'s elements become the visible elements.
impl<T> From<Vec<T>> for BufferedCollection<T> {
    fn from(vec: Vec<T>) -> Self {
        let mut c = BufferedCollection::new();
        c.store.vec = vec;
        c
    }
}

impl<'a, T, A> IntoIterator for &'a BufferedCollection<T, A> {
    type Item = &'a T;
    type IntoIter = core::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T, A> IntoIterator for &'a mut BufferedCollection<T, A> {
    type Item = &'a mut T;
    type IntoIter = core::slice::IterMut<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

/// Every element, visible then pending, as [`into_vec`](BufferedCollection::into_vec).
///
/// # Examples
///
/// ```
/// use read_write_collection::BufferedCollection;
///
/// let mut c: BufferedCollection<char> = vec!['a'].into();
/// c.push('b');
/// assert_eq!(c.into_iter().collect::<String>(), "ab");
/// ```
impl<T, A> IntoIterator for BufferedCollection<T, A> {
    type Item = T;
    type IntoIter = alloc::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

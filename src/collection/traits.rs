//! The std traits of [`ReadWriteCollection`]: those of a `Vec` (`Clone`,
//! `Debug`, comparisons, `Hash`, slice access, `Extend`, conversions,
//! `IntoIterator`).

use alloc::vec::Vec;
use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::ops::{Deref, DerefMut, Index, IndexMut};
use core::slice::SliceIndex;

use super::ReadWriteCollection;
use crate::auto_remove::NoAutoRemove;
use crate::raw::Store;
use crate::settings::Mode;

impl<T: Clone, A: Clone> Clone for ReadWriteCollection<T, A> {
    fn clone(&self) -> Self {
        ReadWriteCollection {
            store: self.store.clone(),
            policy: self.policy.clone(),
        }
    }
}

/// Prints like a `Vec` (`[1, 2]`) when the collection has the default
/// settings (unbounded, [`Mode::Ordered`], no [`ShrinkPolicy`](crate::ShrinkPolicy)). Otherwise
/// the settings that differ follow the elements, so that a failure report
/// (proptest and quickcheck print the failing input's `Debug`) is enough
/// to rebuild the input: `ReadWriteCollection { items: [1, 2], max_len: 16,
/// mode: Unordered, shrink_policy: … }`, each setting present only when it
/// is not the default. The auto-remove policy is not printed.
///
/// # Examples
///
/// ```
/// use read_write_collection::{Builder, ReadWriteCollection};
///
/// let plain: ReadWriteCollection<&str> = ["a", "b"].into();
/// assert_eq!(format!("{plain:?}"), r#"["a", "b"]"#);
///
/// let mut capped: ReadWriteCollection<u8> = Builder::new().bounded(16).unordered().build();
/// capped.extend([1, 2]);
/// assert_eq!(
///     format!("{capped:?}"),
///     "ReadWriteCollection { items: [1, 2], max_len: 16, mode: Unordered }"
/// );
/// ```
impl<T: fmt::Debug, A> fmt::Debug for ReadWriteCollection<T, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (max, mode, shrink) = (self.max_len(), self.mode(), self.shrink_policy());
        if max.is_none() && mode == Mode::Ordered && shrink.is_none() {
            return f.debug_list().entries(self.iter()).finish();
        }
        let mut d = f.debug_struct("ReadWriteCollection");
        d.field("items", &self.as_slice());
        if let Some(max) = max {
            d.field("max_len", &max);
        }
        if mode != Mode::Ordered {
            d.field("mode", &mode);
        }
        if let Some(shrink) = shrink {
            d.field("shrink_policy", &shrink);
        }
        d.finish()
    }
}

impl<T, A: Default> Default for ReadWriteCollection<T, A> {
    #[inline]
    fn default() -> Self {
        ReadWriteCollection {
            store: Store::new(Vec::new()),
            policy: A::default(),
        }
    }
}

impl<T, A> Deref for ReadWriteCollection<T, A> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        &self.store.vec
    }
}

impl<T, A> DerefMut for ReadWriteCollection<T, A> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.store.vec
    }
}

impl<T, A> AsRef<[T]> for ReadWriteCollection<T, A> {
    #[inline]
    fn as_ref(&self) -> &[T] {
        &self.store.vec
    }
}

impl<T, A> AsMut<[T]> for ReadWriteCollection<T, A> {
    #[inline]
    fn as_mut(&mut self) -> &mut [T] {
        &mut self.store.vec
    }
}

impl<T, A> core::borrow::Borrow<[T]> for ReadWriteCollection<T, A> {
    #[inline]
    fn borrow(&self) -> &[T] {
        &self.store.vec
    }
}

impl<T, A> core::borrow::BorrowMut<[T]> for ReadWriteCollection<T, A> {
    #[inline]
    fn borrow_mut(&mut self) -> &mut [T] {
        &mut self.store.vec
    }
}

impl<T, A, I: SliceIndex<[T]>> Index<I> for ReadWriteCollection<T, A> {
    type Output = I::Output;

    #[inline]
    #[track_caller]
    fn index(&self, index: I) -> &I::Output {
        &self.store.vec[index]
    }
}

impl<T, A, I: SliceIndex<[T]>> IndexMut<I> for ReadWriteCollection<T, A> {
    #[inline]
    #[track_caller]
    fn index_mut(&mut self, index: I) -> &mut I::Output {
        &mut self.store.vec[index]
    }
}

impl<T, U, A, B> PartialEq<ReadWriteCollection<U, B>> for ReadWriteCollection<T, A>
where
    T: PartialEq<U>,
{
    #[inline]
    fn eq(&self, other: &ReadWriteCollection<U, B>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Eq, A> Eq for ReadWriteCollection<T, A> {}

impl<T, U: PartialEq<U>, A> PartialEq<Vec<U>> for ReadWriteCollection<T, A>
where
    T: PartialEq<U>,
{
    #[inline]
    fn eq(&self, other: &Vec<U>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T, U, A> PartialEq<[U]> for ReadWriteCollection<T, A>
where
    T: PartialEq<U>,
{
    #[inline]
    fn eq(&self, other: &[U]) -> bool {
        self.as_slice() == other
    }
}

impl<T, U, A> PartialEq<&[U]> for ReadWriteCollection<T, A>
where
    T: PartialEq<U>,
{
    #[inline]
    fn eq(&self, other: &&[U]) -> bool {
        self.as_slice() == *other
    }
}

impl<T, U, A, const N: usize> PartialEq<[U; N]> for ReadWriteCollection<T, A>
where
    T: PartialEq<U>,
{
    #[inline]
    fn eq(&self, other: &[U; N]) -> bool {
        self.as_slice() == other
    }
}

impl<T, U, A> PartialEq<&mut [U]> for ReadWriteCollection<T, A>
where
    T: PartialEq<U>,
{
    #[inline]
    fn eq(&self, other: &&mut [U]) -> bool {
        self.as_slice() == &**other
    }
}

impl<T, U, A, const N: usize> PartialEq<&[U; N]> for ReadWriteCollection<T, A>
where
    T: PartialEq<U>,
{
    #[inline]
    fn eq(&self, other: &&[U; N]) -> bool {
        self.as_slice() == *other
    }
}

/// The comparisons the other way round, so that an oracle can be written
/// `model == collection` as well as `collection == model`.
macro_rules! eq_reversed {
    ($([$($gen:tt)*] $lhs:ty),* $(,)?) => {$(
        impl<T, U, A, $($gen)*> PartialEq<ReadWriteCollection<U, A>> for $lhs
        where
            T: PartialEq<U>,
        {
            #[inline]
            fn eq(&self, other: &ReadWriteCollection<U, A>) -> bool {
                self[..] == other.as_slice()[..]
            }
        }
    )*};
}

eq_reversed! {
    [] Vec<T>,
    [] [T],
    [] &[T],
    [] &mut [T],
    [const N: usize] [T; N],
    [const N: usize] &[T; N],
}

impl<T: PartialOrd, A> PartialOrd for ReadWriteCollection<T, A> {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.as_slice().partial_cmp(other.as_slice())
    }
}

impl<T: Ord, A> Ord for ReadWriteCollection<T, A> {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_slice().cmp(other.as_slice())
    }
}

impl<T: Hash, A> Hash for ReadWriteCollection<T, A> {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

/// Pushes every element.
///
/// # Panics
///
/// If a [bounded](ReadWriteCollection::bounded) collection fills up; the
/// elements pushed before that stay.
impl<T, A> Extend<T> for ReadWriteCollection<T, A> {
    #[track_caller]
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        if self.store.max == usize::MAX {
            self.store.vec.extend(iter);
        } else {
            for value in iter {
                self.push(value);
            }
        }
    }
}

/// Pushes a copy of every element.
///
/// # Panics
///
/// If a [bounded](ReadWriteCollection::bounded) collection fills up.
impl<'a, T: Copy + 'a, A> Extend<&'a T> for ReadWriteCollection<T, A> {
    #[track_caller]
    fn extend<I: IntoIterator<Item = &'a T>>(&mut self, iter: I) {
        self.extend(iter.into_iter().copied());
    }
}

impl<T> FromIterator<T> for ReadWriteCollection<T> {
    #[inline]
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Vec::from_iter(iter).into()
    }
}

impl<T> From<Vec<T>> for ReadWriteCollection<T> {
    /// Takes the `Vec`'s buffer without copying.
    #[inline]
    fn from(vec: Vec<T>) -> Self {
        ReadWriteCollection {
            store: Store::new(vec),
            policy: NoAutoRemove,
        }
    }
}

impl<T, const N: usize> From<[T; N]> for ReadWriteCollection<T> {
    #[inline]
    fn from(array: [T; N]) -> Self {
        Vec::from(array).into()
    }
}

impl<T: Clone> From<&[T]> for ReadWriteCollection<T> {
    #[inline]
    fn from(slice: &[T]) -> Self {
        slice.to_vec().into()
    }
}

impl<T, A> From<ReadWriteCollection<T, A>> for Vec<T> {
    /// Gives the buffer back without copying.
    #[inline]
    fn from(c: ReadWriteCollection<T, A>) -> Self {
        c.store.vec
    }
}

impl<T, A> IntoIterator for ReadWriteCollection<T, A> {
    type Item = T;
    type IntoIter = alloc::vec::IntoIter<T>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.store.vec.into_iter()
    }
}

impl<'a, T, A> IntoIterator for &'a ReadWriteCollection<T, A> {
    type Item = &'a T;
    type IntoIter = core::slice::Iter<'a, T>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T, A> IntoIterator for &'a mut ReadWriteCollection<T, A> {
    type Item = &'a mut T;
    type IntoIter = core::slice::IterMut<'a, T>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

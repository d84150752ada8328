//! [`arbitrary::Arbitrary`] for the collections (feature `arbitrary`), so
//! downstream fuzz targets can take them as input or derive `Arbitrary` for
//! types that contain them.

use alloc::vec::Vec;

use arbitrary::{Arbitrary, Result, Unstructured};

use crate::{BufferedCollection, ReadWriteCollection};

/// Generates the elements exactly as `Vec<T>` does (the same bytes give the
/// same elements, in the same order). The collection is unbounded, in
/// [`Mode::Ordered`](crate::Mode::Ordered), with no shrink policy and no
/// auto-remove policy.
///
/// # Examples
///
/// ```
/// use arbitrary::{Arbitrary, Unstructured};
/// use read_write_collection::ReadWriteCollection;
///
/// let bytes = [1, 10, 1, 20, 0];
/// let c = ReadWriteCollection::<u8>::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
/// let v = Vec::<u8>::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
/// assert_eq!(c, v);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a, T: Arbitrary<'a>> Arbitrary<'a> for ReadWriteCollection<T> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        u.arbitrary_iter()?.collect()
    }

    fn arbitrary_take_rest(u: Unstructured<'a>) -> Result<Self> {
        u.arbitrary_take_rest_iter()?.collect()
    }

    #[inline]
    fn size_hint(depth: usize) -> (usize, Option<usize>) {
        <Vec<T> as Arbitrary<'a>>::size_hint(depth)
    }
}

/// Generates the visible elements, then the pending ones, each as a
/// `Vec<T>` would be generated. Nothing is committed: the pending elements
/// stay pending until [`commit`](BufferedCollection::commit).
///
/// # Examples
///
/// ```
/// use arbitrary::{Arbitrary, Unstructured};
/// use read_write_collection::BufferedCollection;
///
/// // Visible: [7]; pending: [8, 9].
/// let bytes = [1, 7, 0, 1, 8, 1, 9, 0];
/// let c = BufferedCollection::<u8>::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
/// assert_eq!(c.as_slice(), [7]);
/// assert_eq!(c.pending(), [8, 9]);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a, T: Arbitrary<'a>> Arbitrary<'a> for BufferedCollection<T> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let visible: Vec<T> = u.arbitrary()?;
        let pending: Vec<T> = u.arbitrary()?;
        Ok(buffered(visible, pending))
    }

    fn arbitrary_take_rest(mut u: Unstructured<'a>) -> Result<Self> {
        let visible: Vec<T> = u.arbitrary()?;
        let pending: Vec<T> = u.arbitrary_take_rest_iter()?.collect::<Result<_>>()?;
        Ok(buffered(visible, pending))
    }

    #[inline]
    fn size_hint(depth: usize) -> (usize, Option<usize>) {
        arbitrary::size_hint::and(
            <Vec<T> as Arbitrary<'a>>::size_hint(depth),
            <Vec<T> as Arbitrary<'a>>::size_hint(depth),
        )
    }
}

fn buffered<T>(visible: Vec<T>, pending: Vec<T>) -> BufferedCollection<T> {
    let mut c = BufferedCollection::from(visible);
    c.extend(pending);
    c
}

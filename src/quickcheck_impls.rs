//! [`quickcheck::Arbitrary`] for the collections (feature `quickcheck`), so
//! downstream property tests can take them as arguments.

use alloc::boxed::Box;
use alloc::vec::Vec;

use quickcheck::{Arbitrary, Gen};

use crate::{BufferedCollection, ReadWriteCollection};

/// Generates and shrinks the elements exactly as `Vec<T>` does. The
/// collection is unbounded, in [`Mode::Ordered`](crate::Mode::Ordered),
/// with no shrink policy and no auto-remove policy.
///
/// # Examples
///
/// ```
/// use quickcheck::{quickcheck, TestResult};
/// use read_write_collection::ReadWriteCollection;
///
/// fn removing_evens_keeps_odds(mut c: ReadWriteCollection<u8>) -> bool {
///     let odds: Vec<u8> = c.iter().copied().filter(|n| n % 2 == 1).collect();
///     c.traverse(|e| if *e % 2 == 0 { e.remove(); });
///     c == odds
/// }
/// quickcheck(removing_evens_keeps_odds as fn(_) -> bool);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "quickcheck")))]
impl<T: Arbitrary> Arbitrary for ReadWriteCollection<T> {
    fn arbitrary(g: &mut Gen) -> Self {
        Vec::<T>::arbitrary(g).into()
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(self.to_vec().shrink().map(Self::from))
    }
}

/// Generates visible and pending elements, each as a `Vec<T>`, and shrinks
/// them as the pair `(visible, pending)`. Nothing is committed.
///
/// # Examples
///
/// ```
/// use quickcheck::quickcheck;
/// use read_write_collection::BufferedCollection;
///
/// fn commit_appends_pending(mut c: BufferedCollection<u8>) -> bool {
///     let mut expected = c.to_vec();
///     expected.extend_from_slice(c.pending());
///     c.commit();
///     c.as_slice() == expected.as_slice() && c.pending().is_empty()
/// }
/// quickcheck(commit_appends_pending as fn(_) -> bool);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "quickcheck")))]
impl<T: Arbitrary> Arbitrary for BufferedCollection<T> {
    fn arbitrary(g: &mut Gen) -> Self {
        buffered(Vec::arbitrary(g), Vec::arbitrary(g))
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let parts = (self.to_vec(), self.pending().to_vec());
        Box::new(
            parts
                .shrink()
                .map(|(visible, pending)| buffered(visible, pending)),
        )
    }
}

fn buffered<T>(visible: Vec<T>, pending: Vec<T>) -> BufferedCollection<T> {
    let mut c = BufferedCollection::from(visible);
    c.extend(pending);
    c
}

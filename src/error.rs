//! Error types.

use core::fmt;

/// The error of a push into a bounded collection that is full: the value
/// comes back, nothing is lost.
///
/// As in `arrayvec`, the parameter defaults to `()` for operations that
/// have no single value to give back
/// ([`try_extend_from_slice`](crate::ReadWriteCollection::try_extend_from_slice)).
///
/// # Examples
///
/// ```
/// use read_write_collection::ReadWriteCollection;
///
/// let mut particles = ReadWriteCollection::bounded(1);
/// particles.try_push("spark").unwrap();
/// let err = particles.try_push("smoke").unwrap_err();
/// assert_eq!(err.element(), "smoke");
/// assert_eq!(particles.as_slice(), ["spark"]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CapacityError<T = ()> {
    value: T,
}

impl<T> CapacityError<T> {
    /// An error holding `element` (for code that wraps a collection and
    /// reports the same error, as `arrayvec` allows).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::CapacityError;
    ///
    /// assert_eq!(CapacityError::new(3).element(), 3);
    /// ```
    #[inline]
    pub const fn new(element: T) -> Self {
        CapacityError { value: element }
    }

    /// Returns the value that could not be added, by value (as
    /// `arrayvec`'s `element`).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut full = ReadWriteCollection::bounded(0);
    /// assert_eq!(full.try_push(String::from("x")).unwrap_err().element(), "x");
    /// ```
    #[inline]
    pub fn element(self) -> T {
        self.value
    }

    /// Returns the value that could not be added (the same as
    /// [`element`](Self::element)).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut full = ReadWriteCollection::bounded(0);
    /// assert_eq!(full.try_push(7).unwrap_err().into_inner(), 7);
    /// ```
    #[inline]
    pub fn into_inner(self) -> T {
        self.value
    }

    /// A reference to the value that could not be added.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut full = ReadWriteCollection::bounded(0);
    /// let err = full.try_push(7).unwrap_err();
    /// assert_eq!(*err.element_ref(), 7);
    /// ```
    #[inline]
    pub fn element_ref(&self) -> &T {
        &self.value
    }

    /// Drops the value and keeps only the fact of the error (as
    /// `arrayvec`'s `simplify`), e.g. to return it as `Box<dyn Error>`
    /// without `T: 'static`.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{CapacityError, ReadWriteCollection};
    ///
    /// let mut full = ReadWriteCollection::bounded(0);
    /// let err: CapacityError = full.try_push(7).unwrap_err().simplify();
    /// assert_eq!(err, CapacityError::new(()));
    /// ```
    #[inline]
    pub fn simplify(self) -> CapacityError {
        CapacityError { value: () }
    }
}

impl<T> fmt::Debug for CapacityError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CapacityError { .. }")
    }
}

impl<T> fmt::Display for CapacityError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the collection is at its maximum length")
    }
}

impl<T> core::error::Error for CapacityError<T> {}

//! Error types.

use core::fmt;

/// The error of a push into a bounded collection that is full: the value
/// comes back, nothing is lost.
///
/// # Examples
///
/// ```
/// use read_write_collection::ReadWriteCollection;
///
/// let mut particles = ReadWriteCollection::bounded(1);
/// particles.try_push("spark").unwrap();
/// let err = particles.try_push("smoke").unwrap_err();
/// assert_eq!(err.into_inner(), "smoke");
/// assert_eq!(particles.as_slice(), ["spark"]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CapacityError<T> {
    value: T,
}

impl<T> CapacityError<T> {
    #[inline]
    pub(crate) const fn new(value: T) -> Self {
        CapacityError { value }
    }

    /// Returns the value that could not be pushed.
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

    /// Returns a reference to the value that could not be pushed.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut full = ReadWriteCollection::bounded(0);
    /// assert_eq!(*full.try_push(7).unwrap_err().element(), 7);
    /// ```
    #[inline]
    pub fn element(&self) -> &T {
        &self.value
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

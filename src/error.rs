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

/// The error of a non-blocking push through a producer
/// ([`Producer::try_push`](crate::Producer::try_push)): the value comes
/// back in either case.
///
/// # Examples
///
/// ```
/// use read_write_collection::{BufferedCollection, TryPushError};
///
/// let mut events = BufferedCollection::bounded(1);
/// let producer = events.producer();
/// producer.try_push("first").unwrap();
/// assert_eq!(producer.try_push("second"), Err(TryPushError::Full("second")));
/// events.close();
/// let err = producer.try_push("third").unwrap_err();
/// assert!(err.is_closed());
/// assert_eq!(err.into_inner(), "third");
/// ```
#[cfg(feature = "std")]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub enum TryPushError<T> {
    /// The collection is [bounded](crate::BufferedCollection::bounded) and
    /// full; room may come later.
    Full(T),
    /// The collection was closed or dropped; no push will succeed again.
    Closed(T),
}

#[cfg(feature = "std")]
impl<T> TryPushError<T> {
    /// Returns the value that could not be pushed.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::TryPushError;
    ///
    /// assert_eq!(TryPushError::Full(3).into_inner(), 3);
    /// assert_eq!(TryPushError::Closed(4).into_inner(), 4);
    /// ```
    #[inline]
    pub fn into_inner(self) -> T {
        match self {
            TryPushError::Full(value) | TryPushError::Closed(value) => value,
        }
    }

    /// Whether the push failed because the collection was full.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::TryPushError;
    ///
    /// assert!(TryPushError::Full(()).is_full());
    /// assert!(!TryPushError::Closed(()).is_full());
    /// ```
    #[inline]
    pub fn is_full(&self) -> bool {
        matches!(self, TryPushError::Full(_))
    }

    /// Whether the push failed because the collection was closed or
    /// dropped.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::TryPushError;
    ///
    /// assert!(TryPushError::Closed(()).is_closed());
    /// assert!(!TryPushError::Full(()).is_closed());
    /// ```
    #[inline]
    pub fn is_closed(&self) -> bool {
        matches!(self, TryPushError::Closed(_))
    }
}

#[cfg(feature = "std")]
impl<T> fmt::Debug for TryPushError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TryPushError::Full(_) => f.write_str("Full(..)"),
            TryPushError::Closed(_) => f.write_str("Closed(..)"),
        }
    }
}

#[cfg(feature = "std")]
impl<T> fmt::Display for TryPushError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TryPushError::Full(_) => f.write_str("the bounded collection is full"),
            TryPushError::Closed(_) => f.write_str("the collection was closed or dropped"),
        }
    }
}

#[cfg(feature = "std")]
impl<T> core::error::Error for TryPushError<T> {}

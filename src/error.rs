//! Error types.

use core::fmt;

/// The error of a push into a bounded collection that is full (no room
/// under its bound): the value comes back, nothing is lost. Despite the
/// name, it is about the bound, not the allocation (see
/// [Terms](crate#terms)).
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
///
/// Its `Debug` shows the value (`CapacityError { element: "smoke" }`) and
/// needs `T: Debug`, as do `Error` and `unwrap`: for an element type
/// without `Debug`, [`simplify`](Self::simplify) first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CapacityError<T = ()> {
    value: T,
}

/// Getting the value back.
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
    /// without `T: 'static`, or to `unwrap` a push of an element type that
    /// is not `Debug`.
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

/// Shows the value that did not fit (`CapacityError { element: 3 }`), so
/// an `unwrap` or a failed test names it.
///
/// Needs `T: Debug`, as `Result<(), T>`'s `unwrap` does; for an element
/// type without `Debug`, [`simplify`](CapacityError::simplify) drops the
/// value and leaves a `CapacityError<()>`, which is `Debug` and an error.
///
/// # Examples
///
/// ```
/// use read_write_collection::{CapacityError, ReadWriteCollection};
///
/// let mut full = ReadWriteCollection::bounded(0);
/// let err = full.try_push("smoke").unwrap_err();
/// assert_eq!(format!("{err:?}"), r#"CapacityError { element: "smoke" }"#);
///
/// struct Opaque; // no `Debug`
/// let mut opaque = ReadWriteCollection::bounded(0);
/// let err: CapacityError = opaque.try_push(Opaque).unwrap_err().simplify();
/// assert_eq!(format!("{err:?}"), "CapacityError { element: () }");
/// ```
impl<T: fmt::Debug> fmt::Debug for CapacityError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CapacityError")
            .field("element", &self.value)
            .finish()
    }
}

impl<T> fmt::Display for CapacityError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the collection is at its maximum length")
    }
}

/// An error for every `T: Debug` (`Debug` is `Error`'s supertrait); see
/// [`simplify`](CapacityError::simplify) for other element types.
impl<T: fmt::Debug> core::error::Error for CapacityError<T> {}

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

/// Why [`BufferedCollection::wait_pending_timeout`](crate::BufferedCollection::wait_pending_timeout)
/// returned without anything to commit, as std's `RecvTimeoutError` tells
/// an idle channel from a disconnected one.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use read_write_collection::{BufferedCollection, WaitTimeoutError};
///
/// let events: BufferedCollection<u32> = BufferedCollection::new();
/// let producer = events.producer();
/// let idle = events.wait_pending_timeout(Duration::from_millis(1));
/// assert_eq!(idle, Err(WaitTimeoutError::Timeout)); // a producer could still push
/// drop(producer);
/// let gone = events.wait_pending_timeout(Duration::from_millis(1));
/// assert_eq!(gone, Err(WaitTimeoutError::Disconnected)); // nothing can arrive any more
///
/// // Full: the kept events fill the bound and a producer waits for room
/// // that only the owner can free, so waiting would never end.
/// let mut events = BufferedCollection::bounded(1);
/// events.push(0);
/// events.commit();
/// let producer = events.producer();
/// let blocked = std::thread::spawn(move || producer.push(1));
/// // Returns as soon as the producer is blocked, not after 60 s.
/// let stuck = events.wait_pending_timeout(Duration::from_secs(60));
/// assert_eq!(stuck, Err(WaitTimeoutError::Full));
/// events.clear(); // frees the room: the producer's push goes through
/// blocked.join().unwrap().unwrap();
/// assert_eq!(events.wait_pending_timeout(Duration::from_secs(60)), Ok(()));
/// ```
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WaitTimeoutError {
    /// The time ran out; producers are alive and may still push.
    Timeout,
    /// Nothing is pending and nothing can arrive any more: the collection
    /// was [closed](crate::BufferedCollection::close) (and no permit taken
    /// before the close is outstanding) or every
    /// [`Producer`](crate::Producer) is gone.
    Disconnected,
    /// Nothing is pending and nothing can arrive until the caller frees
    /// room: the collection is [bounded](crate::BufferedCollection::bounded)
    /// and full, and a producer is blocked waiting for room that only the
    /// collection's owner can free (by removing elements, a clear, or a
    /// higher bound). Waiting would never end, so the wait returns at once.
    Full,
}

#[cfg(feature = "std")]
impl fmt::Display for WaitTimeoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WaitTimeoutError::Timeout => f.write_str("timed out waiting for pending elements"),
            WaitTimeoutError::Disconnected => {
                f.write_str("nothing is pending and the collection is closed or has no producer")
            }
            WaitTimeoutError::Full => f.write_str(
                "the collection is full and its producers wait for room only its owner can free",
            ),
        }
    }
}

#[cfg(feature = "std")]
impl core::error::Error for WaitTimeoutError {}

/// Why [`BufferedCollection::wait_pending`](crate::BufferedCollection::wait_pending)
/// (or `wait_pending_async`) returned without anything to commit. Either
/// way, waiting again at once would not help.
///
/// # Examples
///
/// ```
/// use read_write_collection::{BufferedCollection, WaitError};
///
/// let events: BufferedCollection<u32> = BufferedCollection::new();
/// let producer = events.producer();
/// drop(producer);
/// // Nothing pending, and no producer left to push anything.
/// assert_eq!(events.wait_pending(), Err(WaitError::Disconnected));
///
/// // Full: the kept events fill the bound and a producer waits for room
/// // that only the owner can free, so waiting would never end.
/// let mut events = BufferedCollection::bounded(1);
/// events.push(0);
/// events.commit();
/// let producer = events.producer();
/// let blocked = std::thread::spawn(move || producer.push(1));
/// assert_eq!(events.wait_pending(), Err(WaitError::Full));
/// events.clear(); // frees the room: the producer's push goes through
/// blocked.join().unwrap().unwrap();
/// assert_eq!(events.wait_pending(), Ok(()));
/// ```
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WaitError {
    /// Nothing is pending and nothing can arrive any more: the collection
    /// was [closed](crate::BufferedCollection::close) (and no permit taken
    /// before the close is outstanding) or every
    /// [`Producer`](crate::Producer) is gone. The service loop ends here.
    Disconnected,
    /// Nothing is pending and nothing can arrive until the caller frees
    /// room: the collection is [bounded](crate::BufferedCollection::bounded)
    /// and full, and a producer is blocked waiting for room that only the
    /// collection's owner can free (by removing elements, a clear, or a
    /// higher bound). The producers are still there.
    Full,
}

#[cfg(feature = "std")]
impl fmt::Display for WaitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WaitError::Disconnected => {
                f.write_str("nothing is pending and the collection is closed or has no producer")
            }
            WaitError::Full => f.write_str(
                "the collection is full and its producers wait for room only its owner can free",
            ),
        }
    }
}

#[cfg(feature = "std")]
impl core::error::Error for WaitError {}

#[cfg(feature = "std")]
impl From<WaitError> for WaitTimeoutError {
    /// The same reason, as a timed wait reports it.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{WaitError, WaitTimeoutError};
    ///
    /// assert_eq!(WaitTimeoutError::from(WaitError::Full), WaitTimeoutError::Full);
    /// ```
    fn from(err: WaitError) -> Self {
        match err {
            WaitError::Disconnected => WaitTimeoutError::Disconnected,
            WaitError::Full => WaitTimeoutError::Full,
        }
    }
}

/// The error of [`Producer::push_timeout`](crate::Producer::push_timeout),
/// as crossbeam-channel's `SendTimeoutError`: the value comes back in
/// either case.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use read_write_collection::{BufferedCollection, PushTimeoutError};
///
/// let mut events = BufferedCollection::bounded(1);
/// let producer = events.producer();
/// producer.push("first").unwrap();
/// let err = producer.push_timeout("second", Duration::from_millis(1)).unwrap_err();
/// assert_eq!(err, PushTimeoutError::Timeout("second"));
/// events.close();
/// let err = producer.push_timeout("third", Duration::from_millis(1)).unwrap_err();
/// assert!(err.is_closed());
/// assert_eq!(err.into_inner(), "third");
/// ```
#[cfg(feature = "std")]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub enum PushTimeoutError<T> {
    /// The collection stayed [bounded](crate::BufferedCollection::bounded)
    /// and full until the time ran out; room may come later.
    Timeout(T),
    /// The collection was closed or dropped; no push will succeed again.
    Closed(T),
}

#[cfg(feature = "std")]
impl<T> PushTimeoutError<T> {
    /// Returns the value that could not be pushed.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::PushTimeoutError;
    ///
    /// assert_eq!(PushTimeoutError::Timeout(3).into_inner(), 3);
    /// assert_eq!(PushTimeoutError::Closed(4).into_inner(), 4);
    /// ```
    #[inline]
    pub fn into_inner(self) -> T {
        match self {
            PushTimeoutError::Timeout(value) | PushTimeoutError::Closed(value) => value,
        }
    }

    /// Whether the time ran out while the collection was full.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::PushTimeoutError;
    ///
    /// assert!(PushTimeoutError::Timeout(()).is_timeout());
    /// assert!(!PushTimeoutError::Closed(()).is_timeout());
    /// ```
    #[inline]
    pub fn is_timeout(&self) -> bool {
        matches!(self, PushTimeoutError::Timeout(_))
    }

    /// Whether the collection was closed or dropped.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::PushTimeoutError;
    ///
    /// assert!(PushTimeoutError::Closed(()).is_closed());
    /// assert!(!PushTimeoutError::Timeout(()).is_closed());
    /// ```
    #[inline]
    pub fn is_closed(&self) -> bool {
        matches!(self, PushTimeoutError::Closed(_))
    }
}

#[cfg(feature = "std")]
impl<T> fmt::Debug for PushTimeoutError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PushTimeoutError::Timeout(_) => f.write_str("Timeout(..)"),
            PushTimeoutError::Closed(_) => f.write_str("Closed(..)"),
        }
    }
}

#[cfg(feature = "std")]
impl<T> fmt::Display for PushTimeoutError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PushTimeoutError::Timeout(_) => {
                f.write_str("timed out waiting for room in the bounded collection")
            }
            PushTimeoutError::Closed(_) => f.write_str("the collection was closed or dropped"),
        }
    }
}

#[cfg(feature = "std")]
impl<T> core::error::Error for PushTimeoutError<T> {}

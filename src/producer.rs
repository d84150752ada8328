//! Cross-thread producers for [`BufferedCollection`](crate::BufferedCollection).

use alloc::vec::Vec;
use core::fmt;

use crate::sync::{lock, Arc, Mutex};

/// The queue producers push into; the collection takes it whole at
/// `commit` and closes it when dropped.
pub(crate) struct Shared<T> {
    queue: Mutex<Queue<T>>,
}

struct Queue<T> {
    items: Vec<T>,
    closed: bool,
}

impl<T> Shared<T> {
    pub(crate) fn new() -> Arc<Self> {
        Arc::new(Shared {
            queue: Mutex::new(Queue {
                items: Vec::new(),
                closed: false,
            }),
        })
    }

    /// Swaps the queued items with `spare` (empty, capacity kept), so the
    /// lock is held for a pointer swap only and no buffer is reallocated in
    /// a steady loop.
    pub(crate) fn take_into(&self, spare: &mut Vec<T>) {
        debug_assert!(spare.is_empty());
        let mut queue = lock(&self.queue);
        core::mem::swap(&mut queue.items, spare);
    }

    pub(crate) fn len(&self) -> usize {
        lock(&self.queue).items.len()
    }

    pub(crate) fn clear(&self) {
        let items = core::mem::take(&mut lock(&self.queue).items);
        drop(items); // element destructors run outside the lock
    }

    /// Refuses all later pushes and drops what is queued (outside the lock).
    pub(crate) fn close(&self) {
        let items = {
            let mut queue = lock(&self.queue);
            queue.closed = true;
            core::mem::take(&mut queue.items)
        };
        drop(items);
    }
}

/// The collection's end of the producers' queue. Dropping it closes the
/// queue: later pushes fail and queued elements are dropped exactly once.
pub(crate) struct ProducerLink<T> {
    pub(crate) shared: Arc<Shared<T>>,
    /// Empty buffer swapped with the queue at each commit.
    spare: Vec<T>,
}

impl<T> ProducerLink<T> {
    pub(crate) fn new() -> Self {
        ProducerLink {
            shared: Shared::new(),
            spare: Vec::new(),
        }
    }

    /// Appends everything queued so far to `dest`, in queue order.
    pub(crate) fn take_into(&mut self, dest: &mut Vec<T>) {
        self.shared.take_into(&mut self.spare);
        // `append` empties `spare` but keeps its capacity for the next swap.
        dest.append(&mut self.spare);
    }
}

impl<T> Drop for ProducerLink<T> {
    fn drop(&mut self) {
        self.shared.close();
    }
}

/// A handle that pushes into a [`BufferedCollection`](crate::BufferedCollection)'s
/// pending side from any thread.
///
/// Cheap to clone (`Arc`), `Send + Sync` when `T: Send`. Elements pushed
/// through producers become visible at the next
/// [`commit`](crate::BufferedCollection::commit), after the collection's own
/// pending pushes, each producer's pushes in the order it made them. After
/// the collection is dropped, [`push`](Producer::push) hands the value back.
///
/// # Examples
///
/// ```
/// use read_write_collection::BufferedCollection;
///
/// let mut events = BufferedCollection::new();
/// let producer = events.producer();
/// let thread = std::thread::spawn(move || {
///     for i in 0..3 {
///         producer.push(i).unwrap();
///     }
/// });
/// thread.join().unwrap();
/// events.commit();
/// assert_eq!(events.as_slice(), [0, 1, 2]);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub struct Producer<T> {
    pub(crate) shared: Arc<Shared<T>>,
}

impl<T> Producer<T> {
    /// Adds `value` to the collection's pending side.
    ///
    /// # Errors
    ///
    /// [`ProducerClosed`] holding `value` if the collection has been
    /// dropped.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::new();
    /// let p = c.producer();
    /// p.push("hello").unwrap();
    /// assert_eq!(c.pending_len(), 1);
    /// drop(c);
    /// assert_eq!(p.push("late").unwrap_err().into_inner(), "late");
    /// ```
    pub fn push(&self, value: T) -> Result<(), ProducerClosed<T>> {
        let mut queue = lock(&self.shared.queue);
        if queue.closed {
            return Err(ProducerClosed { value });
        }
        queue.items.push(value);
        Ok(())
    }

    /// Whether the collection has been dropped (pushes will fail).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let c: BufferedCollection<u8> = BufferedCollection::new();
    /// let p = c.producer();
    /// assert!(!p.is_closed());
    /// drop(c);
    /// assert!(p.is_closed());
    /// ```
    pub fn is_closed(&self) -> bool {
        lock(&self.shared.queue).closed
    }
}

impl<T> Clone for Producer<T> {
    fn clone(&self) -> Self {
        Producer {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl<T> fmt::Debug for Producer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Producer")
            .field("closed", &self.is_closed())
            .finish_non_exhaustive()
    }
}

/// The error of [`Producer::push`] after the collection was dropped: the
/// value comes back.
///
/// # Examples
///
/// ```
/// use read_write_collection::BufferedCollection;
///
/// let c = BufferedCollection::new();
/// let p = c.producer();
/// drop(c);
/// let err = p.push(5).unwrap_err();
/// assert_eq!(err.to_string(), "the collection behind this producer was dropped");
/// assert_eq!(err.into_inner(), 5);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub struct ProducerClosed<T> {
    value: T,
}

impl<T> ProducerClosed<T> {
    /// Returns the value that could not be pushed.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let c = BufferedCollection::new();
    /// let p = c.producer();
    /// drop(c);
    /// assert_eq!(p.push('x').unwrap_err().into_inner(), 'x');
    /// ```
    pub fn into_inner(self) -> T {
        self.value
    }
}

impl<T> fmt::Debug for ProducerClosed<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProducerClosed { .. }")
    }
}

impl<T> fmt::Display for ProducerClosed<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the collection behind this producer was dropped")
    }
}

impl<T> std::error::Error for ProducerClosed<T> {}

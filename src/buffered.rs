//! The committed-buffer variant, [`BufferedCollection`].

use alloc::vec::Vec;
use core::fmt;
use core::ops::Deref;

use crate::auto_remove::{AutoRemove, NoAutoRemove, WithHook};
use crate::cursor::{Cursor, Entry};
use crate::raw::{Pass, Store};

#[cfg(feature = "std")]
use crate::producer::{Producer, ProducerLink};
#[cfg(feature = "std")]
use crate::sync::Arc;

/// A collection whose pushes wait in a **pending** buffer until
/// [`commit`](BufferedCollection::commit): the event queue where handling
/// an event may emit more events, for the next frame and never in a
/// cascade within this one.
///
/// Traversals use the same [`Cursor`] as [`ReadWriteCollection`](crate::ReadWriteCollection):
/// [`Entry::remove`] removes, and [`Entry::push`] / [`Cursor::push`] go to
/// the pending buffer (not visited by this traversal). With the `std`
/// feature, [`producer`](BufferedCollection::producer) hands out
/// [`Producer`] handles that push from other threads.
///
/// # Order at commit
///
/// `commit` appends, behind the visible elements: first everything pushed
/// locally (`push`, `Extend`, `Entry::push`, `Cursor::push`) in push order,
/// then everything producers pushed before the commit took their queue, in
/// the order the pushes reached the queue (so each producer's own order is
/// kept).
///
/// # Examples
///
/// ```
/// use read_write_collection::BufferedCollection;
///
/// let mut queue = BufferedCollection::new();
/// queue.push(3u32);
/// assert!(queue.is_empty()); // pending, not visible
/// let mut frames = Vec::new();
/// while queue.commit() > 0 {
///     let mut handled = Vec::new();
///     let mut cursor = queue.cursor();
///     while let Some(e) = cursor.next() {
///         let n = e.remove();
///         handled.push(n);
///         if n > 0 {
///             cursor.push(n - 1); // next frame
///         }
///     }
///     drop(cursor);
///     frames.push(handled);
/// }
/// assert_eq!(frames, [[3], [2], [1], [0]]);
/// ```
pub struct BufferedCollection<T, A = NoAutoRemove> {
    store: Store<T>,
    pending: Vec<T>,
    policy: A,
    /// The producers' queue; closes it when the collection is dropped.
    #[cfg(feature = "std")]
    link: ProducerLink<T>,
}

impl<T> BufferedCollection<T> {
    /// An empty collection.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let c: BufferedCollection<i32> = BufferedCollection::new();
    /// assert_eq!((c.len(), c.pending_len()), (0, 0));
    /// ```
    #[must_use]
    pub fn new() -> Self {
        Self::with_policy(NoAutoRemove)
    }

    /// An empty collection with room for `capacity` visible and `capacity`
    /// pending elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let c: BufferedCollection<i32> = BufferedCollection::with_capacity(64);
    /// assert!(c.capacity() >= 64);
    /// ```
    #[must_use]
    pub fn with_capacity(capacity: usize) -> Self {
        let mut c = Self::new();
        c.store.vec.reserve(capacity);
        c.pending.reserve(capacity);
        c
    }

    /// An empty collection whose traversals remove elements for which
    /// `pred` holds, as [`ReadWriteCollection::with_auto_remove`](crate::ReadWriteCollection::with_auto_remove).
    /// Pending elements are subject to it once committed.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::with_auto_remove(|n: &i32| *n < 0);
    /// c.extend([1, -1, 2]);
    /// c.commit();
    /// c.prune();
    /// assert_eq!(c.as_slice(), [1, 2]);
    /// ```
    #[must_use]
    pub fn with_auto_remove<F>(pred: F) -> BufferedCollection<T, F>
    where
        F: FnMut(&T) -> bool,
    {
        BufferedCollection::with_policy(pred)
    }

    /// An empty collection with a hand-written [`AutoRemove`] policy.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{BufferedCollection, NoAutoRemove};
    ///
    /// let c: BufferedCollection<u8> = BufferedCollection::with_policy(NoAutoRemove);
    /// assert!(c.is_empty());
    /// ```
    #[must_use]
    pub fn with_policy<A: AutoRemove<T>>(policy: A) -> BufferedCollection<T, A> {
        BufferedCollection {
            store: Store::new(Vec::new()),
            pending: Vec::new(),
            policy,
            #[cfg(feature = "std")]
            link: ProducerLink::new(),
        }
    }
}

impl<T, A> BufferedCollection<T, A> {
    /// Adds a removal hook; see [`ReadWriteCollection::with_removal_hook`](crate::ReadWriteCollection::with_removal_hook).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut expired = Vec::new();
    /// let mut c = BufferedCollection::with_auto_remove(|n: &u8| *n == 0)
    ///     .with_removal_hook(|n| expired.push(n));
    /// c.extend([0, 1]);
    /// c.commit();
    /// c.prune();
    /// drop(c);
    /// assert_eq!(expired, [0]);
    /// ```
    #[must_use]
    pub fn with_removal_hook<H: FnMut(T)>(self, hook: H) -> BufferedCollection<T, WithHook<A, H>> {
        BufferedCollection {
            store: self.store,
            pending: self.pending,
            policy: WithHook {
                policy: self.policy,
                hook,
            },
            #[cfg(feature = "std")]
            link: self.link,
        }
    }

    /// The number of visible elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::new();
    /// c.push(1);
    /// assert_eq!(c.len(), 0);
    /// c.commit();
    /// assert_eq!(c.len(), 1);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.store.vec.len()
    }

    /// Whether there are no visible elements (pending ones do not count).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::new();
    /// c.push(1);
    /// assert!(c.is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.store.vec.is_empty()
    }

    /// The capacity of the visible buffer.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let c: BufferedCollection<u8> = BufferedCollection::with_capacity(4);
    /// assert!(c.capacity() >= 4);
    /// ```
    #[inline]
    pub fn capacity(&self) -> usize {
        self.store.vec.capacity()
    }

    /// The number of elements the next [`commit`](Self::commit) would
    /// append: local pending pushes plus producers' pushes so far.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::new();
    /// c.push('a');
    /// c.producer().push('b').unwrap();
    /// assert_eq!(c.pending_len(), 2);
    /// ```
    pub fn pending_len(&self) -> usize {
        #[cfg(feature = "std")]
        {
            self.pending.len() + self.link.shared.len()
        }
        #[cfg(not(feature = "std"))]
        {
            self.pending.len()
        }
    }

    /// The elements pushed locally and not yet committed, in push order
    /// (producers' pushes are not included until `commit`).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::new();
    /// c.push(1);
    /// c.push(2);
    /// assert_eq!(c.pending(), [1, 2]);
    /// ```
    #[inline]
    pub fn pending(&self) -> &[T] {
        &self.pending
    }

    /// Adds `value` to the pending buffer; it becomes visible at the next
    /// [`commit`](Self::commit).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::new();
    /// c.push("later");
    /// assert_eq!(c.pending_len(), 1);
    /// ```
    #[inline]
    pub fn push(&mut self, value: T) {
        self.pending.push(value);
    }

    /// Appends everything pending (see [the order](BufferedCollection#order-at-commit))
    /// to the visible elements and returns how many it appended.
    ///
    /// O(pending). Buffers are reused: a steady loop allocates nothing
    /// once the buffers have grown to their working size.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::new();
    /// c.push(1);
    /// c.push(2);
    /// assert_eq!(c.commit(), 2);
    /// assert_eq!(c.as_slice(), [1, 2]);
    /// assert_eq!(c.pending_len(), 0);
    /// ```
    pub fn commit(&mut self) -> usize {
        let before = self.store.vec.len();
        self.store.vec.append(&mut self.pending);
        #[cfg(feature = "std")]
        self.take_producer_queue();
        self.store.vec.len() - before
    }

    #[cfg(feature = "std")]
    fn take_producer_queue(&mut self) {
        self.link.take_into(&mut self.store.vec);
    }

    /// A handle that pushes into this collection's pending side from any
    /// thread; see [`Producer`].
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::new();
    /// let p = c.producer();
    /// std::thread::scope(|s| {
    ///     s.spawn(|| p.push(1).unwrap());
    ///     s.spawn(|| p.push(2).unwrap());
    /// });
    /// c.commit();
    /// let mut seen = c.as_slice().to_vec();
    /// seen.sort();
    /// assert_eq!(seen, [1, 2]);
    /// ```
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn producer(&self) -> Producer<T> {
        Producer {
            shared: Arc::clone(&self.link.shared),
        }
    }

    /// Removes every visible element. Pending ones stay.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::new();
    /// c.push(1);
    /// c.commit();
    /// c.push(2);
    /// c.clear_visible();
    /// assert_eq!((c.len(), c.pending_len()), (0, 1));
    /// ```
    pub fn clear_visible(&mut self) {
        self.store.vec.clear();
    }

    /// Removes every pending element, producers' pushes so far included.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::new();
    /// c.push(1);
    /// c.commit();
    /// c.push(2);
    /// c.clear_pending();
    /// assert_eq!((c.len(), c.pending_len()), (1, 0));
    /// ```
    pub fn clear_pending(&mut self) {
        self.pending.clear();
        #[cfg(feature = "std")]
        self.link.shared.clear();
    }

    /// Removes every visible and pending element.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::new();
    /// c.push(1);
    /// c.commit();
    /// c.push(2);
    /// c.clear();
    /// assert_eq!((c.len(), c.pending_len()), (0, 0));
    /// ```
    pub fn clear(&mut self) {
        self.clear_visible();
        self.clear_pending();
    }

    /// The visible elements as a slice.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c: BufferedCollection<i32> = vec![1, 2].into();
    /// assert_eq!(c.as_slice(), [1, 2]);
    /// ```
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        &self.store.vec
    }

    /// The visible elements as a mutable slice.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c: BufferedCollection<i32> = vec![1, 2].into();
    /// c.as_mut_slice()[0] = 5;
    /// assert_eq!(c.as_slice(), [5, 2]);
    /// ```
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.store.vec
    }

    /// An iterator over the visible elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let c: BufferedCollection<i32> = vec![1, 2].into();
    /// assert_eq!(c.iter().sum::<i32>(), 3);
    /// ```
    #[inline]
    pub fn iter(&self) -> core::slice::Iter<'_, T> {
        self.store.vec.iter()
    }

    /// An iterator over mutable references to the visible elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c: BufferedCollection<i32> = vec![1, 2].into();
    /// c.iter_mut().for_each(|n| *n += 1);
    /// assert_eq!(c.as_slice(), [2, 3]);
    /// ```
    #[inline]
    pub fn iter_mut(&mut self) -> core::slice::IterMut<'_, T> {
        self.store.vec.iter_mut()
    }

    /// The auto-remove policy.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{BufferedCollection, NoAutoRemove};
    ///
    /// let c: BufferedCollection<u8> = BufferedCollection::new();
    /// assert_eq!(*c.policy(), NoAutoRemove);
    /// ```
    #[inline]
    pub fn policy(&self) -> &A {
        &self.policy
    }

    /// The auto-remove policy, mutably.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{AutoRemove, BufferedCollection};
    ///
    /// struct Above(i32);
    /// impl AutoRemove<i32> for Above {
    ///     fn should_remove(&mut self, n: &i32) -> bool { *n > self.0 }
    /// }
    ///
    /// let mut c = BufferedCollection::with_policy(Above(10));
    /// c.extend([5, 15]);
    /// c.commit();
    /// c.policy_mut().0 = 1;
    /// c.prune();
    /// assert!(c.is_empty());
    /// ```
    #[inline]
    pub fn policy_mut(&mut self) -> &mut A {
        &mut self.policy
    }
}

impl<T, A: AutoRemove<T>> BufferedCollection<T, A> {
    /// Starts a traversal of the visible elements; pushes made through it
    /// go to the pending buffer. See [`Cursor`].
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c: BufferedCollection<i32> = vec![1, 2].into();
    /// let mut cursor = c.cursor();
    /// while let Some(mut e) = cursor.next() {
    ///     e.push(*e * 10); // pending: not visited now
    /// }
    /// drop(cursor);
    /// assert_eq!(c.as_slice(), [1, 2]);
    /// assert_eq!(c.pending(), [10, 20]);
    /// ```
    #[inline]
    pub fn cursor(&mut self) -> Cursor<'_, T, A> {
        Cursor::new(
            Pass::begin(&mut self.store, Some(&mut self.pending)),
            &mut self.policy,
        )
    }

    /// The closure form of a traversal; see [`ReadWriteCollection::traverse`](crate::ReadWriteCollection::traverse).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c: BufferedCollection<i32> = vec![1, 2, 3].into();
    /// c.traverse(|e| if *e == 2 { e.remove(); });
    /// assert_eq!(c.as_slice(), [1, 3]);
    /// ```
    pub fn traverse<F>(&mut self, f: F)
    where
        F: FnMut(Entry<'_, T>),
    {
        self.cursor().for_each(f);
    }

    /// Applies the auto-remove policy to the visible elements; returns how
    /// many it removed.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::with_auto_remove(|n: &i32| *n > 1);
    /// c.extend([1, 2, 3]);
    /// c.commit();
    /// assert_eq!(c.prune(), 2);
    /// ```
    pub fn prune(&mut self) -> usize {
        self.cursor().run_policy()
    }
}

impl<T: Clone, A: Clone> Clone for BufferedCollection<T, A> {
    /// Clones the visible and local pending elements and the policy. The
    /// clone has its own producers (none yet); elements queued by this
    /// collection's producers are not cloned.
    fn clone(&self) -> Self {
        BufferedCollection {
            store: self.store.clone(),
            pending: self.pending.clone(),
            policy: self.policy.clone(),
            #[cfg(feature = "std")]
            link: ProducerLink::new(),
        }
    }
}

impl<T: fmt::Debug, A> fmt::Debug for BufferedCollection<T, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("BufferedCollection");
        d.field("visible", &self.store.vec)
            .field("pending", &self.pending);
        #[cfg(feature = "std")]
        d.field("producer_pending", &self.link.shared.len());
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
impl<T, A> Extend<T> for BufferedCollection<T, A> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        self.pending.extend(iter);
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

/// Removal sinks: passes that hand every removed element to a closure.
impl<T, A: AutoRemove<T>> BufferedCollection<T, A> {
    /// Starts a traversal of the visible elements whose removed elements
    /// go to `sink`, in removal order; see [`SinkCursor`](crate::SinkCursor).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut events: BufferedCollection<u32> = vec![1, 2, 3].into();
    /// let mut handled = Vec::new();
    /// let mut cursor = events.cursor_with_sink(|e| handled.push(e));
    /// while let Some(mut e) = cursor.next() {
    ///     if *e == 2 {
    ///         e.push(20); // pending: the next commit
    ///     }
    ///     e.remove();
    /// }
    /// drop(cursor);
    /// assert_eq!(handled, [1, 2, 3]);
    /// assert_eq!(events.pending(), [20]);
    /// ```
    #[inline]
    pub fn cursor_with_sink<S: FnMut(T)>(&mut self, sink: S) -> crate::SinkCursor<'_, T, S, A> {
        crate::SinkCursor::new(self.cursor(), sink)
    }

    /// The closure form of [`cursor_with_sink`](Self::cursor_with_sink).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut q = BufferedCollection::with_auto_remove(|n: &i32| *n < 0);
    /// q.extend([-1, 2, -3]);
    /// q.commit();
    /// let mut dropped = 0;
    /// q.traverse_with_sink(|_| dropped += 1, |_| {});
    /// assert_eq!(dropped, 2);
    /// assert_eq!(q.as_slice(), [2]);
    /// ```
    #[inline]
    pub fn traverse_with_sink<S, F>(&mut self, sink: S, f: F)
    where
        S: FnMut(T),
        F: FnMut(crate::SinkEntry<'_, T, S>),
    {
        self.cursor_with_sink(sink).for_each(f);
    }
}

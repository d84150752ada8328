//! [`BufferedCollection`]'s `Vec` surface of the visible side.

use super::BufferedCollection;
#[cfg(any(feature = "arbitrary", feature = "quickcheck", feature = "proptest"))]
use crate::auto_remove::AutoRemove;
use alloc::vec::Vec;

/// The `Vec` surface of the visible side: clearing, taking the elements
/// out and reserving; then the `Vec` methods that never add elements.
impl<T, A> BufferedCollection<T, A> {
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
        // The elements leave the collection, and the freed room is handed to
        // producers, before their drops run (user code that may panic: the
        // collection is then empty and the room handed over all the same).
        let mut visible = core::mem::take(&mut self.store.vec);
        self.release();
        visible.clear();
        // Keeps the allocation.
        self.store.vec = visible;
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
        // As in `clear_visible`: out first, the room published, the drops
        // last (the producers' queued elements are dropped by the link,
        // after it has published and woken).
        let mut pending = core::mem::take(&mut self.pending);
        #[cfg(feature = "std")]
        self.link.clear(self.owned());
        pending.clear();
        self.pending = pending;
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
        // One hand-over of the room, after everything is out: a producer
        // woken by it pushes into the cleared collection (two clears in a
        // row would let it push between them, into what the second clear
        // then drops).
        let mut visible = core::mem::take(&mut self.store.vec);
        let mut pending = core::mem::take(&mut self.pending);
        #[cfg(feature = "std")]
        self.link.clear(self.owned());
        visible.clear();
        pending.clear();
        self.store.vec = visible;
        self.pending = pending;
    }

    /// Takes the collection apart: the visible elements, and everything
    /// pending in the order [`commit`](Self::commit) would append it (local
    /// pushes, then the producers' queue). Nothing is lost: the producers'
    /// queue is closed first, so their later pushes hand the value back.
    /// (A `PushPermit` (feature `async`) reserved before and used after
    /// drops its value, as after the collection's drop: close and drain
    /// with `wait_pending` first to wait for outstanding permits.)
    ///
    /// # Panics
    ///
    /// If the pending `Vec` cannot grow (capacity overflow); every element
    /// is then dropped exactly once.
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
    /// let p = c.producer();
    /// p.push(3).unwrap();
    /// assert_eq!(c.into_parts(), (vec![1], vec![2, 3]));
    /// assert!(p.is_closed());
    /// ```
    pub fn into_parts(self) -> (Vec<T>, Vec<T>) {
        let BufferedCollection {
            store,
            pending,
            #[cfg(feature = "std")]
            mut link,
            ..
        } = self;
        #[cfg(feature = "std")]
        let pending = {
            let mut pending = pending;
            let mut queued = link.close_and_take();
            pending.append(&mut queued);
            pending
        };
        (store.vec, pending)
    }

    /// Every element, visible then pending, in the order a
    /// [`commit`](Self::commit) would leave them: `into_parts` joined.
    /// Nothing is lost (see [`into_parts`](Self::into_parts)).
    ///
    /// # Panics
    ///
    /// If the result cannot grow (capacity overflow); every element is then
    /// dropped exactly once.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c: BufferedCollection<i32> = vec![1, 2].into();
    /// c.push(3);
    /// assert_eq!(c.into_vec(), [1, 2, 3]);
    /// ```
    pub fn into_vec(self) -> Vec<T> {
        let (mut visible, mut pending) = self.into_parts();
        visible.append(&mut pending);
        visible
    }

    /// Reserves capacity (allocation, as `Vec::reserve`) for at least
    /// `additional` more visible elements (never past the bound). It does
    /// not reserve room under the bound (see [Terms](crate#terms)).
    ///
    /// # Panics
    ///
    /// If the capacity would exceed `isize::MAX` bytes, as `Vec::reserve`.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut q: BufferedCollection<u8> = BufferedCollection::new();
    /// q.reserve(100);
    /// assert!(q.capacity() >= 100);
    /// ```
    #[inline]
    #[track_caller]
    pub fn reserve(&mut self, additional: usize) {
        if self.max == usize::MAX {
            self.store.vec.reserve(additional);
        } else {
            let room = self
                .max
                .saturating_sub(self.store.vec.len() + self.pending.len());
            self.store.vec.reserve_exact(additional.min(room));
        }
    }
}

// The visible side's `Vec` methods: the one implementation shared with
// `ReadWriteCollection`. Only methods that never add visible elements: a
// value reaches the visible side through the pending buffer and `commit`.
crate::vec_api::vec_mirror!(BufferedCollection, "visible elements");

/// What the generators (`arbitrary`, `quickcheck`, `proptest`) build on.
#[cfg(any(feature = "arbitrary", feature = "quickcheck", feature = "proptest"))]
impl<T, A: AutoRemove<T>> BufferedCollection<T, A> {
    /// An empty queue with this one's settings (bound, mode,
    /// shrink policy) and a clone of its policy.
    pub(crate) fn empty_like(&self) -> Self
    where
        A: Clone,
    {
        let mut c = BufferedCollection::with_policy(self.policy.clone());
        c.set_max_len(self.max_len());
        c.set_mode(self.mode());
        c.set_shrink_policy(self.shrink_policy());
        c
    }

    /// This (new, empty) queue holding `visible` as its visible elements
    /// and `pending` as its local pending ones; the caller keeps them
    /// within the bound.
    pub(crate) fn with_parts(mut self, visible: Vec<T>, pending: Vec<T>) -> Self {
        debug_assert!(self.is_empty() && self.pending_len() == 0);
        // Nothing pending and no producer: `commit` moves exactly
        // `visible` into the visible part.
        self.extend(visible);
        self.commit();
        self.extend(pending);
        self
    }
}

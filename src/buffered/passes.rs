//! [`BufferedCollection`]'s passes and removal sinks.

use super::BufferedCollection;
use crate::auto_remove::AutoRemove;
use crate::cursor::{Cursor, Entry};
use crate::raw::Pass;

/// Passes over the visible elements: [`cursor`](Self::cursor) walks them,
/// removing the element in hand; its pushes wait for the next
/// [`commit`](Self::commit). [`traverse`](Self::traverse) is the closure form,
/// [`prune`](Self::prune) runs only the auto-remove policy.
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
    /// assert_eq!(c.local_pending(), [10, 20]);
    /// ```
    #[inline]
    pub fn cursor(&mut self) -> Cursor<'_, T, A> {
        self.prepare_pass();
        // A bounded queue's pass took the room for its pushes: it goes
        // back, with what the pass freed, when the cursor is dropped.
        #[cfg(feature = "std")]
        let pass = Pass::begin_buffered(
            &mut self.store,
            &mut self.pending,
            (self.max != usize::MAX).then(|| self.link.shared()),
        );
        #[cfg(not(feature = "std"))]
        let pass = Pass::begin(&mut self.store, Some(&mut self.pending));
        Cursor::new(pass, &mut self.policy)
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
        // The cursor's drop hands the room back, also when `f` panics.
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
    ///     e.remove_to_sink();
    /// }
    /// drop(cursor);
    /// assert_eq!(handled, [1, 2, 3]);
    /// assert_eq!(events.local_pending(), [20]);
    /// ```
    #[inline]
    pub fn cursor_with_sink<S: FnMut(T)>(
        &mut self,
        sink: S,
    ) -> crate::cursor::SinkCursor<'_, T, S, A> {
        crate::cursor::SinkCursor::new(self.cursor(), sink)
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
        F: FnMut(crate::cursor::SinkEntry<'_, T, S>),
    {
        self.cursor_with_sink(sink).for_each(f);
    }
}

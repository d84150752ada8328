//! [`ReadWriteCollection`]'s passes and removal sinks.

use super::ReadWriteCollection;

use crate::auto_remove::AutoRemove;
use crate::cursor::{Cursor, Entry};
use crate::raw::Pass;

/// Passes: [`cursor`](Self::cursor) walks the elements in order, removing
/// the element in hand and pushing elements the same pass visits;
/// [`traverse`](Self::traverse) is the closure form, [`prune`](Self::prune)
/// runs only the auto-remove policy. (With the `rayon` feature,
/// `par_traverse` runs a pass on all cores.)
impl<T, A: AutoRemove<T>> ReadWriteCollection<T, A> {
    /// Starts a traversal; see [`Cursor`].
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = (1..=5).collect();
    /// let mut cursor = c.cursor();
    /// while let Some(mut e) = cursor.next() {
    ///     if *e == 3 {
    ///         break; // the rest is kept, in order
    ///     }
    ///     *e *= 10;
    /// }
    /// drop(cursor);
    /// assert_eq!(c, [10, 20, 3, 4, 5]);
    /// ```
    #[inline]
    pub fn cursor(&mut self) -> Cursor<'_, T, A> {
        Cursor::new(Pass::begin(&mut self.store, None), &mut self.policy)
    }

    /// The closure form of a traversal: calls `f` on every entry, pushed
    /// ones included, then completes.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<u32> = [1, 2, 3].into_iter().collect();
    /// c.traverse(|mut e| {
    ///     if *e == 2 {
    ///         e.remove();
    ///     } else if *e == 3 {
    ///         e.push(4);
    ///     }
    /// });
    /// assert_eq!(c, [1, 3, 4]);
    /// ```
    #[inline]
    pub fn traverse<F>(&mut self, f: F)
    where
        F: FnMut(Entry<'_, T>),
    {
        self.cursor().for_each(f);
    }

    /// Applies the auto-remove policy to every element, without a user
    /// loop, and returns how many it removed. Survivors keep their order
    /// (in [`Mode::Ordered`](crate::Mode::Ordered)).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::with_auto_remove(|n: &i32| n % 2 == 0);
    /// c.extend(1..=6);
    /// assert_eq!(c.prune(), 3);
    /// assert_eq!(c, [1, 3, 5]);
    /// ```
    pub fn prune(&mut self) -> usize {
        self.cursor().run_policy()
    }
}

/// Removal sinks: passes that hand every removed element to a closure.
impl<T, A: AutoRemove<T>> ReadWriteCollection<T, A> {
    /// Starts a traversal whose removed elements (auto-removed and
    /// [removed](crate::SinkEntry::remove_to_sink) by the loop) go to `sink`, in
    /// removal order; see [`SinkCursor`](crate::SinkCursor).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut enemies = ReadWriteCollection::with_auto_remove(|hp: &i32| *hp <= 0);
    /// enemies.extend([0, 5, -1]);
    /// let mut loot = ReadWriteCollection::new(); // another collection, borrowed for the pass
    /// let mut cursor = enemies.cursor_with_sink(|dead: i32| loot.push(dead * 10));
    /// while let Some(mut hp) = cursor.next() {
    ///     *hp -= 1;
    /// }
    /// drop(cursor);
    /// assert_eq!(loot, [0, -10]);
    /// assert_eq!(enemies, [4]);
    /// ```
    #[inline]
    pub fn cursor_with_sink<S: FnMut(T)>(
        &mut self,
        sink: S,
    ) -> crate::cursor::SinkCursor<'_, T, S, A> {
        crate::cursor::SinkCursor::new(self.cursor(), sink)
    }

    /// The closure form of [`cursor_with_sink`](Self::cursor_with_sink):
    /// calls `f` on every entry, pushed ones included; every removed
    /// element goes to `sink`.
    ///
    /// `sink` and `f` cannot both borrow one variable mutably; give them
    /// different fields of a struct, or share a `Cell` or `RefCell` (no
    /// `Rc` needed): see [`SinkCursor`](crate::SinkCursor), "State the
    /// body uses too".
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut bullets = ReadWriteCollection::with_auto_remove(|ttl: &u32| *ttl == 0);
    /// bullets.extend([1, 3, 9]);
    /// let mut sparks = Vec::new();
    /// bullets.traverse_with_sink(
    ///     |spent| sparks.push(spent),
    ///     |mut b| {
    ///         *b -= 1;
    ///         if *b == 8 {
    ///             b.remove_to_sink(); // hit something
    ///         }
    ///     },
    /// );
    /// assert_eq!(sparks, [0, 8]);
    /// assert_eq!(bullets, [2]);
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

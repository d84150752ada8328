//! A cursor whose pass hands every element it removes to a sink closure:
//! [`SinkCursor`] and [`SinkEntry`].

use core::fmt;

use super::delegate::{
    deref_to_element, entry_others_methods, entry_push_methods, sink_entry_methods,
};
use super::{removed_by_policy, Cursor, Entry};
use crate::auto_remove::{AutoRemove, NoAutoRemove};
use crate::error::CapacityError;

impl<T, A: AutoRemove<T>> Cursor<'_, T, A> {
    /// `settle`, with an auto-removed element going to `sink` instead of
    /// the policy's hook. The element is out of the pass before `sink`
    /// runs, so a panicking sink leaves the pass complete.
    #[inline]
    pub(crate) fn settle_into<S: FnMut(T)>(&mut self, sink: &mut S) {
        if !A::ACTIVE {
            return;
        }
        let core = self.pass.core();
        if core.held() && !removed_by_policy(core, &mut *self.policy, &mut &mut *sink) {
            core.keep_current();
        }
    }

    /// `step`, with auto-removed elements going to `sink`.
    #[inline]
    pub(crate) fn step_into<S: FnMut(T)>(&mut self, sink: &mut S) -> bool {
        self.settle_into(sink);
        loop {
            let core = self.pass.core();
            if !core.advance(!A::ACTIVE) {
                return false;
            }
            if removed_by_policy(core, &mut *self.policy, &mut &mut *sink) {
                continue;
            }
            return true;
        }
    }
}

/// A [`Cursor`] whose pass hands every element it removes to a sink
/// closure: the ones the auto-remove predicate removes and the ones removed
/// with [`SinkEntry::remove_to_sink`], as owned values, in removal order.
///
/// The sink lives only as long as the pass, so it can borrow the caller's
/// local state mutably (push loot into another collection, count kills),
/// with no `Rc<RefCell<_>>` and no second pass. While a sink is set, the
/// collection's own removal hook is not called: the sink receives what it
/// would have received.
///
/// That borrow lasts the whole pass, so the loop body cannot borrow what
/// the sink borrows mutably (error E0499 or E0502; see "State the body
/// uses too" below for the ways that work).
///
/// Created by [`ReadWriteCollection::cursor_with_sink`](crate::ReadWriteCollection::cursor_with_sink)
/// and [`BufferedCollection::cursor_with_sink`](crate::BufferedCollection::cursor_with_sink);
/// the closure form is `traverse_with_sink`. Completes on drop like a
/// [`Cursor`], and so do its guarantees: if the sink panics, the element
/// it was given is dropped by the unwinding (it is already out of the
/// collection) and the pass completes with everything else kept.
///
/// # Examples
///
/// ```
/// use read_write_collection::ReadWriteCollection;
///
/// struct Enemy { hp: i32, gold: u32 }
///
/// let mut enemies = ReadWriteCollection::with_auto_remove(|e: &Enemy| e.hp <= 0);
/// enemies.extend([Enemy { hp: 1, gold: 5 }, Enemy { hp: 9, gold: 7 }, Enemy { hp: 3, gold: 1 }]);
/// let mut loot: Vec<u32> = Vec::new(); // the frame's local state
///
/// let mut cursor = enemies.cursor_with_sink(|dead: Enemy| loot.push(dead.gold));
/// while let Some(mut e) = cursor.next() {
///     e.hp -= 2; // the first expires: auto-removed into the sink
///     if e.gold == 1 {
///         e.remove_to_sink(); // explicit: into the sink as well
///     }
/// }
/// drop(cursor);
/// assert_eq!(loot, [5, 1]);
/// assert_eq!(enemies.len(), 1);
/// ```
///
/// The sink is borrowed by the cursor until the pass ends:
///
/// ```compile_fail
/// use read_write_collection::ReadWriteCollection;
///
/// let mut c: ReadWriteCollection<i32> = (1..=3).collect();
/// let mut removed = Vec::new();
/// let mut cursor = c.cursor_with_sink(|v| removed.push(v));
/// cursor.next().unwrap().remove_to_sink();
/// assert_eq!(removed, [1]); // error: `removed` is borrowed by the sink
/// drop(cursor);
/// ```
///
/// # State the body uses too
///
/// The sink and the loop body are two closures (or a closure and a loop)
/// alive for the same pass, so they cannot both borrow one variable
/// mutably:
///
/// ```compile_fail,E0499
/// use read_write_collection::ReadWriteCollection;
///
/// let mut c: ReadWriteCollection<i32> = (1..=3).collect();
/// let mut score = 0;
/// c.traverse_with_sink(|_dead| score += 10, |e| {
///     score += 1; // error[E0499]: `score` is already borrowed by the sink
///     if *e == 2 {
///         e.remove_to_sink();
///     }
/// });
/// ```
///
/// Two ways work without `Rc`:
///
/// * **Different fields.** Closures borrow only the fields they use, so a
///   sink that writes `frame.loot` and a body that writes `frame.moves`
///   compile, even with `frame` one struct.
/// * **The same data.** Put what both write in a `Cell` (for `Copy`
///   values) or a `RefCell` on the stack: both closures borrow it shared.
///   The sink runs inside [`SinkEntry::remove_to_sink`] and inside `next`
///   (the predicate's removals), so a `RefCell` borrow the body still
///   holds at those calls panics: end it first (a `borrow_mut()` used in
///   one statement ends with it).
///
/// ```
/// use std::cell::{Cell, RefCell};
/// use read_write_collection::ReadWriteCollection;
///
/// struct Frame { loot: Vec<i32>, moves: u32 }
///
/// let mut enemies = ReadWriteCollection::with_auto_remove(|hp: &i32| *hp <= 0);
/// enemies.extend([1, 5, 2]);
///
/// // Different fields of one struct.
/// let mut frame = Frame { loot: Vec::new(), moves: 0 };
/// enemies.traverse_with_sink(|dead| frame.loot.push(dead), |mut hp| {
///     *hp -= 1; // 1 reaches 0: into the sink when the pass moves on
///     frame.moves += 1;
/// });
/// assert_eq!((frame.loot, frame.moves), (vec![0], 3));
///
/// // The same counter and the same log, written by both.
/// let score = Cell::new(0);
/// let log = RefCell::new(Vec::new());
/// enemies.traverse_with_sink(
///     |dead| {
///         score.set(score.get() + 10);
///         log.borrow_mut().push(format!("{dead} died"));
///     },
///     |e| {
///         score.set(score.get() + 1);
///         log.borrow_mut().push(format!("saw {}", *e)); // borrow ends here
///         if *e == 1 {
///             e.remove_to_sink(); // the sink borrows `log` again: fine
///         }
///     },
/// );
/// assert_eq!(score.get(), 12);
/// assert_eq!(log.into_inner(), ["saw 4", "saw 1", "1 died"]);
/// assert_eq!(enemies, [4]);
/// ```
pub struct SinkCursor<'a, T, S: FnMut(T), A: AutoRemove<T> = NoAutoRemove> {
    cursor: Cursor<'a, T, A>,
    sink: S,
}

impl<'a, T, S: FnMut(T), A: AutoRemove<T>> SinkCursor<'a, T, S, A> {
    #[inline]
    pub(crate) fn new(cursor: Cursor<'a, T, A>, sink: S) -> Self {
        SinkCursor { cursor, sink }
    }

    /// Moves to the next element and lends it out, or returns `None` when
    /// every element has been visited; as [`Cursor::next`], with the
    /// elements the predicate removes handed to the sink.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::with_auto_remove(|n: &i32| *n < 0);
    /// c.extend([-1, 2]);
    /// let mut gone = Vec::new();
    /// let mut cursor = c.cursor_with_sink(|n| gone.push(n));
    /// assert_eq!(cursor.next().as_deref(), Some(&2));
    /// assert!(cursor.next().is_none());
    /// drop(cursor);
    /// assert_eq!(gone, [-1]);
    /// ```
    #[allow(clippy::should_implement_trait)] // lending: cannot be `Iterator::next`
    #[inline]
    pub fn next(&mut self) -> Option<SinkEntry<'_, T, S>> {
        if self.cursor.step_into(&mut self.sink) {
            Some(SinkEntry {
                entry: self.cursor.held_entry(),
                sink: &mut self.sink,
            })
        } else {
            None
        }
    }

    /// Appends `value`; as [`Cursor::push`].
    ///
    /// # Panics
    ///
    /// If the collection is bounded and full; see [`try_push`](Self::try_push).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<u8> = [1].into_iter().collect();
    /// let mut gone = Vec::new();
    /// let mut cursor = c.cursor_with_sink(|n| gone.push(n));
    /// while let Some(e) = cursor.next() {
    ///     if *e == 1 {
    ///         e.remove_to_sink();
    ///         cursor.push(2); // visited later in this pass
    ///     }
    /// }
    /// drop(cursor);
    /// assert_eq!(gone, [1]);
    /// assert_eq!(c, [2]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn push(&mut self, value: T) {
        self.cursor.push(value);
    }

    /// Like [`push`](Self::push), but a full bounded collection hands the
    /// value back.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] holding `value` if the collection is at its
    /// maximum length.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::bounded(1);
    /// c.push(1);
    /// let mut cursor = c.cursor_with_sink(drop);
    /// assert_eq!(cursor.try_push(2).unwrap_err().into_inner(), 2);
    /// ```
    #[inline]
    pub fn try_push(&mut self, value: T) -> Result<(), CapacityError<T>> {
        self.cursor.try_push(value)
    }

    /// The number of elements not yet visited, pushed ones included.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = (0..3).collect();
    /// let mut cursor = c.cursor_with_sink(drop);
    /// cursor.next();
    /// assert_eq!(cursor.remaining(), 2);
    /// ```
    #[inline]
    pub fn remaining(&self) -> usize {
        self.cursor.remaining()
    }

    /// The length the collection would have if the traversal completed
    /// now.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = (0..3).collect();
    /// let mut cursor = c.cursor_with_sink(drop);
    /// cursor.next().unwrap().remove_to_sink();
    /// assert_eq!(cursor.len(), 2);
    /// ```
    #[inline]
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.cursor.len()
    }

    /// Completes the traversal now, checking the held element with the
    /// predicate (into the sink if it expired); see [`Cursor::finish`].
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::with_auto_remove(|n: &i32| *n < 0);
    /// c.extend([1, 2]);
    /// let mut gone = Vec::new();
    /// let mut cursor = c.cursor_with_sink(|n| gone.push(n));
    /// *cursor.next().unwrap() = -1;
    /// cursor.finish();
    /// assert_eq!(gone, [-1]);
    /// assert_eq!(c, [2]);
    /// ```
    pub fn finish(mut self) {
        self.cursor.settle_into(&mut self.sink);
        // Dropping `self` now finds nothing held and only completes.
    }

    /// Calls `f` on every remaining entry, then completes.
    #[inline]
    pub(crate) fn for_each<F: FnMut(SinkEntry<'_, T, S>)>(mut self, mut f: F) {
        while let Some(entry) = self.next() {
            f(entry);
        }
    }
}

impl<T, S: FnMut(T), A: AutoRemove<T>> Drop for SinkCursor<'_, T, S, A> {
    /// Checks the held element with the predicate (into the sink if it
    /// expired), as [`Cursor`]'s drop does, then the `cursor` field's drop
    /// completes the pass (also when the predicate or the sink panics
    /// here).
    #[inline]
    fn drop(&mut self) {
        #[cfg(feature = "std")]
        if A::ACTIVE && !std::thread::panicking() {
            self.cursor.settle_into(&mut self.sink);
        }
    }
}

impl<T, S: FnMut(T), A: AutoRemove<T>> fmt::Debug for SinkCursor<'_, T, S, A>
where
    T: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SinkCursor")
            .field("remaining", &self.remaining())
            .field("len", &self.len())
            .finish_non_exhaustive()
    }
}

/// The element a [`SinkCursor`] is on: an [`Entry`] that can also hand
/// its element to the pass's sink ([`remove_to_sink`](Self::remove_to_sink)).
///
/// Its removals say where the element goes: [`remove_to_sink`](Self::remove_to_sink)
/// sends it to the sink and returns nothing, [`take`](Self::take) returns
/// it as [`Entry::remove`] does (the sink does not see it). There is no
/// `remove` that could mean either: the old name is deprecated and still
/// sends to the sink.
///
/// # Examples
///
/// ```
/// use read_write_collection::ReadWriteCollection;
///
/// let mut c: ReadWriteCollection<i32> = (1..=4).collect();
/// let mut odd = Vec::new();
/// c.traverse_with_sink(|n| odd.push(n), |e| if *e % 2 == 1 { e.remove_to_sink() });
/// assert_eq!(odd, [1, 3]);
/// assert_eq!(c, [2, 4]);
/// ```
pub struct SinkEntry<'c, T, S> {
    entry: Entry<'c, T>,
    sink: &'c mut S,
}

impl<'c, T, S: FnMut(T)> SinkEntry<'c, T, S> {
    sink_entry_methods! {
        field: entry,
        sink: sink,
        inner: "Entry",
        deprecated: "renamed `remove_to_sink` (the element goes to the sink); \
                     `take` returns the element, as `Entry::remove` does";
        /// # Examples
        ///
        /// ```
        /// use read_write_collection::ReadWriteCollection;
        ///
        /// let mut c: ReadWriteCollection<&str> = ["keep", "drop"].into_iter().collect();
        /// let mut removed = Vec::new();
        /// c.traverse_with_sink(|s| removed.push(s), |e| if *e == "drop" { e.remove_to_sink() });
        /// assert_eq!(removed, ["drop"]);
        /// assert_eq!(c, ["keep"]);
        /// ```
        fn remove_to_sink;
        /// # Examples
        ///
        /// ```
        /// # #![allow(deprecated)]
        /// use read_write_collection::ReadWriteCollection;
        ///
        /// let mut c: ReadWriteCollection<u8> = [1].into_iter().collect();
        /// let mut sunk = Vec::new();
        /// c.traverse_with_sink(|n| sunk.push(n), |e| e.remove());
        /// assert_eq!(sunk, [1]); // to the sink, as `remove_to_sink`
        /// ```
        fn remove;
        /// # Examples
        ///
        /// ```
        /// use read_write_collection::ReadWriteCollection;
        ///
        /// let mut c: ReadWriteCollection<u32> = [4].into_iter().collect();
        /// let mut sunk = Vec::new();
        /// let mut cursor = c.cursor_with_sink(|n| sunk.push(n));
        /// while let Some(e) = cursor.next() {
        ///     if *e > 1 {
        ///         let n = e.take();
        ///         cursor.push(n / 2);
        ///         cursor.push(n / 2);
        ///     }
        /// }
        /// drop(cursor);
        /// assert!(sunk.is_empty());
        /// assert_eq!(c, [1, 1, 1, 1]);
        /// ```
        fn take;
    }

    entry_push_methods! {
        field: entry,
        summary: "Appends `value`, as [`Entry::push`] does: this pass visits it after \
                  everything already queued (in a \
                  [`BufferedCollection`](crate::buffered::BufferedCollection) it goes to \
                  the pending buffer instead).",
        bound: "collection";
        /// # Examples
        ///
        /// ```
        /// use read_write_collection::ReadWriteCollection;
        ///
        /// let mut c: ReadWriteCollection<u8> = [1].into_iter().collect();
        /// c.traverse_with_sink(drop, |mut e| if *e == 1 { e.push(2) });
        /// assert_eq!(c, [1, 2]);
        /// ```
        fn push;
        /// # Examples
        ///
        /// ```
        /// use read_write_collection::ReadWriteCollection;
        ///
        /// let mut c = ReadWriteCollection::bounded(1);
        /// c.push(1);
        /// let mut cursor = c.cursor_with_sink(drop);
        /// let mut e = cursor.next().unwrap();
        /// assert_eq!(e.try_push(2).unwrap_err().into_inner(), 2);
        /// ```
        fn try_push;
    }

    entry_others_methods! {
        field: entry,
        whose: "collection",
        inner: "Entry";
        /// # Examples
        ///
        /// ```
        /// use read_write_collection::ReadWriteCollection;
        ///
        /// let mut c: ReadWriteCollection<u8> = [1, 2, 3].into_iter().collect();
        /// let mut cursor = c.cursor_with_sink(drop);
        /// cursor.next();
        /// let e = cursor.next().unwrap();
        /// assert_eq!(e.others(), (&[1][..], &[3][..]));
        /// ```
        fn others;
        /// # Examples
        ///
        /// ```
        /// use read_write_collection::ReadWriteCollection;
        ///
        /// // An element that meets an equal one ahead absorbs it.
        /// let mut c: ReadWriteCollection<u8> = [2, 1, 2].into_iter().collect();
        /// c.traverse_with_sink(drop, |mut e| {
        ///     let (me, _, after) = e.split_others();
        ///     if let Some(twin) = after.iter_mut().find(|x| **x == *me) {
        ///         *me += *twin;
        ///         *twin = 0;
        ///     }
        /// });
        /// assert_eq!(c, [4, 1, 0]);
        /// ```
        fn split_others;
    }

    /// The plain [`Entry`], whose `remove` returns the element instead of
    /// sinking it.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<u8> = [1].into_iter().collect();
    /// let mut cursor = c.cursor_with_sink(drop);
    /// let e = cursor.next().unwrap().into_entry();
    /// assert_eq!(e.remove(), 1);
    /// ```
    #[inline]
    pub fn into_entry(self) -> Entry<'c, T> {
        self.entry
    }
}

deref_to_element!([T, S] SinkEntry<'_, T, S>, entry);

impl<T: fmt::Debug, S> fmt::Debug for SinkEntry<'_, T, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("SinkEntry").field(&*self.entry).finish()
    }
}

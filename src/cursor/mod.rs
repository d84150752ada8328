//! The lending cursor and its entries.

use core::fmt;
use core::ops::{Deref, DerefMut};

use crate::auto_remove::{AutoRemove, NoAutoRemove};
use crate::error::CapacityError;
use crate::raw::{Core, HeldRef, Pass};

pub(crate) mod delegate;
mod sink;
pub use self::sink::{SinkCursor, SinkEntry};

/// The body of `Cursor::step` and `Cursor::step_with_policy`: one text,
/// two functions with different inlining (see `step_with_policy`).
macro_rules! step_body {
    ($cursor:ident) => {{
        $cursor.settle();
        loop {
            let core = $cursor.pass.core();
            if !core.advance(!A::ACTIVE) {
                return false;
            }
            if removed_by_policy(core, &mut *$cursor.policy, &mut ToHook) {
                continue;
            }
            return true;
        }
    }};
}

/// One traversal of a collection: a lending iterator whose entries can be
/// removed and can push new elements that this same traversal visits later.
///
/// A `Cursor` is not an [`Iterator`]: each entry borrows the cursor (that
/// is what lets an entry remove itself and push), so a `for` loop cannot
/// drive it. Write `while let Some(entry) = cursor.next() { … }`, or use the
/// closure form [`traverse`](crate::ReadWriteCollection::traverse).
///
/// Created by [`ReadWriteCollection::cursor`](crate::ReadWriteCollection::cursor)
/// (and by [`BufferedCollection::cursor`](crate::BufferedCollection::cursor)). The traversal completes
/// when the cursor is dropped: unvisited elements are kept behind the kept
/// ones (in order, in [ordered mode](crate::Mode::Ordered); in unordered
/// mode in some order), and the collection's length is fixed. That is true
/// for every way a loop can end: running out, `break`, `return`, `?`, or a
/// panic.
///
/// # Examples
///
/// ```
/// use read_write_collection::ReadWriteCollection;
///
/// let mut c: ReadWriteCollection<i32> = (1..=5).collect();
/// let mut cursor = c.cursor();
/// while let Some(mut e) = cursor.next() {
///     if *e % 2 == 0 {
///         e.remove();
///     } else if *e == 5 {
///         e.push(7); // visited later in this pass
///     } else {
///         *e *= 10;
///     }
/// }
/// drop(cursor);
/// assert_eq!(c.as_slice(), [10, 30, 5, 70]);
/// ```
///
/// An entry borrows the cursor, so it cannot be kept past the next call to
/// [`next`](Cursor::next):
///
/// ```compile_fail
/// use read_write_collection::ReadWriteCollection;
///
/// let mut c: ReadWriteCollection<i32> = (1..=3).collect();
/// let mut cursor = c.cursor();
/// let first = cursor.next().unwrap();
/// let second = cursor.next().unwrap(); // error: `cursor` is still borrowed by `first`
/// assert_eq!(*first + *second, 3);
/// ```
///
/// ```compile_fail
/// use read_write_collection::ReadWriteCollection;
///
/// let mut c: ReadWriteCollection<i32> = (1..=3).collect();
/// let escaped;
/// {
///     let mut cursor = c.cursor();
///     escaped = cursor.next().unwrap(); // error: `cursor` does not live long enough
/// }
/// assert_eq!(*escaped, 1);
/// ```
///
/// The collection cannot be touched while a cursor is alive:
///
/// ```compile_fail
/// use read_write_collection::ReadWriteCollection;
///
/// let mut c: ReadWriteCollection<i32> = (1..=3).collect();
/// let mut cursor = c.cursor();
/// c.push(4); // error: `c` is mutably borrowed by `cursor`
/// cursor.next();
/// ```
///
/// Removing an entry consumes it, so removing twice cannot compile:
///
/// ```compile_fail
/// use read_write_collection::ReadWriteCollection;
///
/// let mut c: ReadWriteCollection<i32> = (1..=3).collect();
/// let mut cursor = c.cursor();
/// let e = cursor.next().unwrap();
/// e.remove();
/// e.remove(); // error: use of moved value `e`
/// ```
pub struct Cursor<'a, T, A: AutoRemove<T> = NoAutoRemove> {
    pass: Pass<'a, T>,
    policy: &'a mut A,
}

/// Stepping: [`next`](Self::next) lends the next element; pushing into the
/// pass, what is left of it, and [`finish`](Self::finish).
impl<'a, T, A: AutoRemove<T>> Cursor<'a, T, A> {
    #[inline]
    pub(crate) fn new(pass: Pass<'a, T>, policy: &'a mut A) -> Self {
        Cursor { pass, policy }
    }

    /// Settles the held element (if any) and hands the pass over, to be
    /// resumed by a new cursor (see `raw::Pass::suspend`); this cursor's
    /// drop then does nothing.
    #[cfg(feature = "rayon")]
    #[inline]
    pub(crate) fn suspend(mut self) -> crate::raw::Suspended<T> {
        self.settled_parts();
        self.pass.suspend()
    }

    /// Settles the held element: kept, or removed if the policy says so.
    /// The element stays held (and so kept) while the predicate runs.
    #[inline]
    fn settle(&mut self) {
        if !A::ACTIVE {
            // Nothing to decide: the held element is already counted as
            // kept, and `advance` does not need `held` cleared.
            return;
        }
        let core = self.pass.core();
        if core.held() && !removed_by_policy(core, &mut *self.policy, &mut ToHook) {
            core.keep_current();
        }
    }

    /// Moves to the next element and lends it out, or returns `None` when
    /// every element (pushed ones included) has been visited.
    ///
    /// The previous entry, if it was not removed, is kept at this point
    /// (or auto-removed, if the collection's predicate now holds for it).
    /// Elements the predicate holds for are removed here without being
    /// yielded.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<&str> = ["a", "b"].into_iter().collect();
    /// let mut cursor = c.cursor();
    /// assert_eq!(cursor.next().as_deref(), Some(&"a"));
    /// assert_eq!(cursor.next().as_deref(), Some(&"b"));
    /// assert!(cursor.next().is_none());
    /// ```
    #[allow(clippy::should_implement_trait)] // lending: cannot be `Iterator::next`
    #[inline]
    pub fn next(&mut self) -> Option<Entry<'_, T>> {
        let held = if A::ACTIVE {
            self.step_with_policy()
        } else {
            self.step()
        };
        if held {
            Some(self.held_entry())
        } else {
            None
        }
    }

    /// Does what `next` does without lending the entry: returns whether an
    /// element is now held.
    #[inline]
    pub(crate) fn step(&mut self) -> bool {
        step_body!(self)
    }

    /// `step` for an active policy (the same body), always inlined. It
    /// checks the predicate twice and is large: once a program walked one
    /// policy type from two places (a cursor here, `traverse` there), the
    /// compiler stopped inlining `step`, and the pass state went to memory
    /// (benches/dying.rs, closure predicate: 67.5 instructions and 5.1 ns
    /// per element at 10k; inlined, 38.7 and 2.1). A `fn` pointer policy
    /// pays about 4% for it (the loop around the two indirect calls gains
    /// three instructions). Plain passes keep `step` and the compiler's
    /// choice: forcing it there added register moves to the cursor's loop
    /// (21.6 -> 23.8 instructions per element).
    #[inline(always)]
    fn step_with_policy(&mut self) -> bool {
        step_body!(self)
    }

    /// The entry for the held element (after `step` returned `true`).
    #[inline]
    pub(crate) fn held_entry(&mut self) -> Entry<'_, T> {
        Entry {
            held: self.pass.core().held_ref(),
        }
    }

    /// Appends `value` to the collection; this traversal visits it after
    /// everything already queued. (In a
    /// [`BufferedCollection`](crate::BufferedCollection) it goes to the
    /// pending buffer instead.)
    ///
    /// Usable in a loop body once the current entry is no longer used.
    ///
    /// # Panics
    ///
    /// If the collection is bounded and full; see [`try_push`](Cursor::try_push).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<u32> = [3].into_iter().collect();
    /// let mut cursor = c.cursor();
    /// let mut seen = Vec::new();
    /// while let Some(e) = cursor.next() {
    ///     let n = e.remove();
    ///     seen.push(n);
    ///     if n > 0 {
    ///         cursor.push(n - 1);
    ///     }
    /// }
    /// drop(cursor);
    /// assert_eq!(seen, [3, 2, 1, 0]);
    /// assert!(c.is_empty());
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn push(&mut self, value: T) {
        if self.pass.core().push(value).is_err() {
            full_panic();
        }
    }

    /// Like [`push`](Cursor::push), but a full bounded collection hands the
    /// value back instead of panicking.
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
    /// let mut c = ReadWriteCollection::bounded(2);
    /// c.push(1);
    /// let mut cursor = c.cursor();
    /// assert!(cursor.try_push(2).is_ok());
    /// assert_eq!(cursor.try_push(3).unwrap_err().into_inner(), 3);
    /// drop(cursor);
    /// assert_eq!(c.as_slice(), [1, 2]);
    /// ```
    #[inline(always)]
    pub fn try_push(&mut self, value: T) -> Result<(), CapacityError<T>> {
        self.pass.core().push(value).map_err(CapacityError::new)
    }

    /// The number of elements not yet visited, pushed ones included.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = (0..3).collect();
    /// let mut cursor = c.cursor();
    /// cursor.next();
    /// assert_eq!(cursor.remaining(), 2);
    /// ```
    #[inline]
    pub fn remaining(&self) -> usize {
        self.pass.core_ref().remaining()
    }

    /// The length the collection would have if the traversal completed
    /// now (kept, held, unvisited and pushed elements).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = (0..3).collect();
    /// let mut cursor = c.cursor();
    /// cursor.next().unwrap().remove();
    /// cursor.push(9);
    /// assert_eq!(cursor.len(), 3);
    /// ```
    #[inline]
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.pass.core_ref().len()
    }

    /// Completes the traversal now: settles the held element (running the
    /// auto-remove predicate on it) and compacts. Dropping the cursor does
    /// the same; `finish` is for code that wants the predicate checked even
    /// without the `std` feature (see [Panics and leaks](crate#panics-and-leaks)).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::with_auto_remove(|n: &i32| *n < 0);
    /// c.extend([1, 2, 3]);
    /// let mut cursor = c.cursor();
    /// *cursor.next().unwrap() = -1; // expires while held
    /// cursor.finish();              // early exit: 2 and 3 stay unvisited
    /// assert_eq!(c.as_slice(), [2, 3]);
    /// ```
    pub fn finish(mut self) {
        self.settle();
        self.pass.core().finish();
    }
}

/// The crate's own walks (`traverse`, `prune`, the layered and parallel
/// passes) on top of stepping.
impl<T, A: AutoRemove<T>> Cursor<'_, T, A> {
    /// The address of the store this cursor's pass runs on (only
    /// compared: see `layers::raw::Layered::release`).
    #[inline(always)]
    pub(crate) fn store_addr(&self) -> *const crate::raw::Store<T> {
        self.pass.core_ref().store_addr()
    }

    /// `step`, moving past no more than `left` more elements (yielded or
    /// removed on arrival by the policy), counted down: `false` when it
    /// would. A copy of `step` rather than `step` with an unlimited count:
    /// the count would cost `traverse`'s loop a register and a branch per
    /// element.
    #[cfg(feature = "rayon")]
    #[inline]
    pub(crate) fn step_counting(&mut self, left: &mut usize) -> bool {
        self.settle();
        loop {
            let core = self.pass.core();
            if *left == 0 {
                // Settled above: kept. Not holding it any more lets the
                // caller's loop drop `held` from its registers.
                core.keep_current();
                return false;
            }
            if !core.advance(!A::ACTIVE) {
                return false;
            }
            *left -= 1;
            if removed_by_policy(core, &mut *self.policy, &mut ToHook) {
                continue;
            }
            return true;
        }
    }

    /// See `Core::passed`.
    #[cfg(feature = "rayon")]
    #[inline]
    pub(crate) fn passed(&self) -> usize {
        self.pass.core_ref().passed()
    }

    /// Settles the held element (as moving on would) and lends out the
    /// pass and the policy, for a parallel round over what is unvisited.
    #[cfg(feature = "rayon")]
    #[inline]
    pub(crate) fn settled_parts(&mut self) -> (&mut crate::raw::Core<T>, &mut A) {
        self.settle();
        let core = self.pass.core();
        if core.held() {
            core.keep_current();
        }
        (core, &mut *self.policy)
    }

    /// Calls `f` on every remaining entry, then completes: the closure
    /// forms (`traverse`). Always inlined, so that the loop is the one a
    /// user writes, in the caller's function: only `#[inline]`, it kept
    /// two more registers in play (dying frame: 22.6 against the cursor's
    /// 20.5 instructions per element).
    #[inline(always)]
    pub(crate) fn for_each<F: FnMut(Entry<'_, T>)>(mut self, mut f: F) {
        while let Some(entry) = self.next() {
            f(entry);
        }
    }

    /// Visits every remaining element without yielding it, applying the
    /// policy (`prune`). Returns how many elements the policy removed.
    pub(crate) fn run_policy(mut self) -> usize {
        let before = self.pass.core_ref().len();
        self.settle();
        loop {
            let core = self.pass.core();
            if !core.advance(!A::ACTIVE) {
                break;
            }
            if !removed_by_policy(core, &mut *self.policy, &mut ToHook) {
                core.keep_current();
            }
        }
        before - self.pass.core_ref().len()
    }
}

/// Where the elements a pass's policy removes go: to the policy's own
/// removal hook ([`ToHook`]), or to a sink closure (`&mut S`).
trait Removed<T, A> {
    fn removed(&mut self, policy: &mut A, value: T);
}

/// The policy's removal hook.
struct ToHook;

impl<T, A: AutoRemove<T>> Removed<T, A> for ToHook {
    #[inline(always)]
    fn removed(&mut self, policy: &mut A, value: T) {
        policy.removed(value);
    }
}

impl<T, A, S: FnMut(T)> Removed<T, A> for &mut S {
    #[inline(always)]
    fn removed(&mut self, _: &mut A, value: T) {
        self(value);
    }
}

/// The one step every walk takes on an element it reached or held: asks
/// the policy, and if it says remove, takes the element out of the pass
/// (before any user code runs: the hook or the sink, which may panic, gets
/// an element the pass no longer has) and hands it on. Returns whether it
/// was removed; the caller keeps it otherwise.
#[inline(always)]
fn removed_by_policy<T, A: AutoRemove<T>>(
    core: &mut Core<T>,
    policy: &mut A,
    to: &mut impl Removed<T, A>,
) -> bool {
    if policy.should_remove(core.current()) {
        // Keep this a branch: as a branch-free select, the next write
        // position would depend on the predicate's load, which chains
        // every element's work to the previous one's (measured 2x slower
        // than a predicted branch).
        core::hint::black_box(());
        let value = core.take_current();
        to.removed(policy, value);
        true
    } else {
        false
    }
}

impl<T, A: AutoRemove<T>> Drop for Cursor<'_, T, A> {
    /// Completes the traversal. Kept tiny on purpose (the policy check is
    /// out of line): this is what runs on every unwind path of a loop, and
    /// a small drop lets the compiler keep the pass state in registers.
    #[inline(always)]
    fn drop(&mut self) {
        let core = self.pass.core();
        // The predicate and hook are user code: never run them while
        // unwinding (and never from `Drop` without `std`, which cannot
        // tell).
        #[cfg(feature = "std")]
        if A::ACTIVE && core.held() && !std::thread::panicking() {
            settle_detached(&mut *self.policy, core.detach());
            return;
        }
        core.finish();
    }
}

/// Applies the policy to the held element of a pass handed over by a
/// dropping cursor, then finishes the pass (`pass` finishes on drop, also
/// when the predicate or the hook panics: the element is then kept, or
/// already handed to the hook).
#[cfg(feature = "std")]
#[inline(never)]
fn settle_detached<T, A: AutoRemove<T>>(policy: &mut A, mut pass: crate::raw::Detached<T>) {
    let core = pass.core();
    if !removed_by_policy(core, policy, &mut ToHook) {
        core.keep_current();
    }
}

impl<T: fmt::Debug, A: AutoRemove<T>> fmt::Debug for Cursor<'_, T, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let core = self.pass.core_ref();
        f.debug_struct("Cursor")
            .field("remaining", &core.remaining())
            .field("len", &core.len())
            .finish_non_exhaustive()
    }
}

#[cold]
#[inline(never)]
#[track_caller]
pub(crate) fn full_panic() -> ! {
    panic!("push into a full bounded collection (use `try_push` to get the value back)")
}

/// The element a [`Cursor`] is on, lent out by [`Cursor::next`].
///
/// Dereferences to the element. Dropping the entry (or just not using it
/// any more) keeps the element; [`remove`](Entry::remove) takes it out.
/// `Entry` has no `Drop` impl, so its borrow of the cursor ends at its last
/// use, and `cursor.push(x)` compiles right after `entry.remove()`.
///
/// # Examples
///
/// ```
/// use read_write_collection::ReadWriteCollection;
///
/// let mut c: ReadWriteCollection<String> = ["a", "b"].into_iter().map(String::from).collect();
/// c.traverse(|mut e| e.push_str("!"));
/// assert_eq!(c.as_slice(), ["a!", "b!"]);
/// ```
pub struct Entry<'c, T> {
    held: HeldRef<'c, T>,
}

/// The element in hand: take it out, or push elements this pass visits.
impl<T> Entry<'_, T> {
    /// Removes the element from the collection and returns it.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = (1..=4).collect();
    /// let mut removed = Vec::new();
    /// let mut cursor = c.cursor();
    /// while let Some(e) = cursor.next() {
    ///     if *e > 2 {
    ///         removed.push(e.remove());
    ///     }
    /// }
    /// drop(cursor);
    /// assert_eq!(removed, [3, 4]);
    /// assert_eq!(c.as_slice(), [1, 2]);
    /// ```
    #[inline]
    pub fn remove(self) -> T {
        self.held.take()
    }

    /// Appends `value`; the traversal visits it after everything already
    /// queued. (In a [`BufferedCollection`](crate::BufferedCollection) it
    /// goes to the pending buffer instead.)
    ///
    /// # Panics
    ///
    /// If the collection is bounded and full; see [`try_push`](Entry::try_push).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<u8> = [1].into_iter().collect();
    /// let mut cursor = c.cursor();
    /// let mut visited = Vec::new();
    /// while let Some(mut e) = cursor.next() {
    ///     visited.push(*e);
    ///     if *e < 3 {
    ///         let next = *e + 1;
    ///         e.push(next);
    ///     }
    /// }
    /// drop(cursor);
    /// assert_eq!(visited, [1, 2, 3]);
    /// assert_eq!(c.as_slice(), [1, 2, 3]);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn push(&mut self, value: T) {
        if self.held.push(value).is_err() {
            full_panic();
        }
    }

    /// Like [`push`](Entry::push), but a full bounded collection hands the
    /// value back instead of panicking.
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
    /// c.push('a');
    /// let mut cursor = c.cursor();
    /// let mut e = cursor.next().unwrap();
    /// assert_eq!(e.try_push('b').unwrap_err().into_inner(), 'b');
    /// ```
    #[inline(always)]
    pub fn try_push(&mut self, value: T) -> Result<(), CapacityError<T>> {
        self.held.push(value).map_err(CapacityError::new)
    }
}

/// Removing the element and keeping a handle that pushes.
impl<'c, T> Entry<'c, T> {
    /// Removes the element and returns it together with a [`Spawner`] that
    /// keeps pushing into this traversal: a split ("this bullet dies and
    /// becomes two") in one step, also where only the entry is at hand
    /// (the closure of [`traverse`](crate::ReadWriteCollection::traverse)),
    /// which `remove` followed by `push` cannot do (`remove` consumes the
    /// entry).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut sizes: ReadWriteCollection<u32> = [4, 1].into_iter().collect();
    /// sizes.traverse(|e| {
    ///     if *e > 1 {
    ///         let (size, mut spawn) = e.remove_and_spawn();
    ///         spawn.push(size / 2); // visited later in this pass, split again
    ///         spawn.push(size / 2);
    ///     }
    /// });
    /// assert_eq!(sizes, [1, 1, 1, 1, 1]);
    /// ```
    #[inline]
    pub fn remove_and_spawn(self) -> (T, Spawner<'c, T>) {
        let (value, core) = self.held.take_and_release();
        (value, Spawner { core })
    }
}

/// The other elements, in reach while this one is held.
impl<T> Entry<'_, T> {
    /// The collection's other elements while this one is held: those the
    /// pass has already kept, in order, and those after this one (the
    /// ones not yet visited, then the ones pushed during this pass), in
    /// the order the pass visits them. Collision checks and reads of a
    /// neighbour need no second loop.
    ///
    /// Neither slice holds this element or one removed so far. Elements
    /// an auto-remove predicate will remove are still in the second slice
    /// until the pass reaches them. In a
    /// [`BufferedCollection`](crate::BufferedCollection) what the pass
    /// pushes waits in the pending buffer: the second slice holds only the
    /// unvisited elements. In [unordered](crate::Mode::Unordered) mode
    /// the slices hold the same elements, in the order the pass has left
    /// them in.
    ///
    /// The first slice, this element and the second slice are the
    /// collection's elements as the pass holds them now.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = (1..=4).collect();
    /// let mut cursor = c.cursor();
    /// cursor.next(); // 1, kept
    /// let e = cursor.next().unwrap(); // 2
    /// assert_eq!(e.others(), (&[1][..], &[3, 4][..]));
    /// e.remove();
    /// let mut e = cursor.next().unwrap(); // 3
    /// e.push(5);
    /// assert_eq!(e.others(), (&[1][..], &[4, 5][..]));
    /// ```
    #[inline]
    pub fn others(&self) -> (&[T], &[T]) {
        self.held.others()
    }

    /// This element and the collection's other elements, all mutable: the
    /// element, those the pass has already kept and those after it, as
    /// [`others`](Self::others) describes them. A collision response that
    /// changes both sides, or a transfer between neighbours, in one pass.
    ///
    /// The slices borrow the entry: the compiler ends them before the next
    /// [`push`](Self::push), which may move the buffer.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// // Each element gives 1 to every element after it.
    /// let mut c: ReadWriteCollection<u32> = [10, 20, 30].into_iter().collect();
    /// c.traverse(|mut e| {
    ///     let (me, _before, after) = e.split_others();
    ///     for other in after {
    ///         *other += 1;
    ///         *me -= 1;
    ///     }
    /// });
    /// assert_eq!(c, [8, 20, 32]);
    /// ```
    ///
    /// A slice cannot be used after a push:
    ///
    /// ```compile_fail
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<u32> = [1, 2].into_iter().collect();
    /// let mut cursor = c.cursor();
    /// let mut e = cursor.next().unwrap();
    /// let (_, _, after) = e.split_others();
    /// e.push(3); // may move the buffer
    /// after[0] += 1;
    /// ```
    #[inline]
    pub fn split_others(&mut self) -> (&mut T, &mut [T], &mut [T]) {
        self.held.split_others()
    }
}

/// Pushes into a traversal after the element it came from was removed;
/// made by [`Entry::remove_and_spawn`]. Borrows the cursor as the entry
/// did, so it cannot outlive the loop iteration.
///
/// # Examples
///
/// ```
/// use read_write_collection::ReadWriteCollection;
///
/// let mut c: ReadWriteCollection<&str> = ["seed"].into_iter().collect();
/// let mut cursor = c.cursor();
/// let (seed, mut spawn) = cursor.next().unwrap().remove_and_spawn();
/// assert_eq!(seed, "seed");
/// spawn.push("sprout");
/// assert!(spawn.try_push("leaf").is_ok());
/// drop(cursor);
/// assert_eq!(c, ["sprout", "leaf"]);
/// ```
pub struct Spawner<'c, T> {
    core: &'c mut crate::raw::Core<T>,
}

/// Pushing into the pass after the entry is gone.
impl<T> Spawner<'_, T> {
    /// Appends `value`; the traversal visits it after everything already
    /// queued (in a [`BufferedCollection`](crate::BufferedCollection) it goes
    /// to the pending buffer).
    ///
    /// # Panics
    ///
    /// If the collection is bounded and full; see [`try_push`](Spawner::try_push).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = [2].into_iter().collect();
    /// c.traverse(|e| {
    ///     if *e == 2 {
    ///         let (_, mut spawn) = e.remove_and_spawn();
    ///         spawn.push(3);
    ///     }
    /// });
    /// assert_eq!(c, [3]);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn push(&mut self, value: T) {
        if self.core.push(value).is_err() {
            full_panic();
        }
    }

    /// Like [`push`](Spawner::push), but a full bounded collection hands the
    /// value back instead of panicking.
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
    /// let mut c = ReadWriteCollection::bounded(2);
    /// c.extend([1, 2]);
    /// let mut cursor = c.cursor();
    /// let (_, mut spawn) = cursor.next().unwrap().remove_and_spawn();
    /// assert!(spawn.try_push(10).is_ok()); // the removal made room
    /// assert_eq!(spawn.try_push(11).unwrap_err().into_inner(), 11);
    /// drop(cursor);
    /// assert_eq!(c, [2, 10]);
    /// ```
    #[inline(always)]
    pub fn try_push(&mut self, value: T) -> Result<(), CapacityError<T>> {
        self.core.push(value).map_err(CapacityError::new)
    }
}

impl<T: fmt::Debug> fmt::Debug for Spawner<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Spawner").finish_non_exhaustive()
    }
}

impl<T> Deref for Entry<'_, T> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        self.held.get()
    }
}

impl<T> DerefMut for Entry<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        self.held.get_mut()
    }
}

impl<T: fmt::Debug> fmt::Debug for Entry<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Entry").field(self.held.get()).finish()
    }
}

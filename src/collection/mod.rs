//! The core type, [`ReadWriteCollection`].

use alloc::vec::Vec;
use core::ops::RangeBounds;

use crate::auto_remove::{AutoRemove, NoAutoRemove, WithHook};
use crate::cursor::{full_panic, Cursor, Entry};
use crate::error::CapacityError;
use crate::raw::{capacity_overflow, Pass, Store};
use crate::settings::{Mode, ShrinkPolicy};
use crate::vec_api::range_bounds;

mod traits;

/// A growable, `Vec`-backed, insertion-ordered collection that a lending
/// [`Cursor`] walks while removing the element in hand and pushing new
/// elements that the same pass visits.
///
/// `A` is the [auto-remove policy](crate::auto_remove); the default,
/// [`NoAutoRemove`], costs nothing.
///
/// # Examples
///
/// ```
/// use read_write_collection::ReadWriteCollection;
///
/// let mut c = ReadWriteCollection::new();
/// c.push(1);
/// c.push(2);
/// let mut cursor = c.cursor();
/// while let Some(e) = cursor.next() {
///     if *e == 1 {
///         e.remove();
///         cursor.push(3); // the entry is no longer used: the cursor is free
///     }
/// }
/// drop(cursor);
/// assert_eq!(c, [2, 3]);
/// ```
pub struct ReadWriteCollection<T, A = NoAutoRemove> {
    pub(crate) store: Store<T>,
    pub(crate) policy: A,
}

/// Constructors. [`builder`](Self::builder) sets several settings in one
/// expression.
impl<T> ReadWriteCollection<T> {
    /// An empty collection. Does not allocate.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let c: ReadWriteCollection<i32> = ReadWriteCollection::new();
    /// assert_eq!(c.capacity(), 0);
    /// ```
    #[inline]
    #[must_use]
    pub const fn new() -> Self {
        ReadWriteCollection {
            store: Store::new(Vec::new()),
            policy: NoAutoRemove,
        }
    }

    /// An empty collection with capacity (allocation) for at least
    /// `capacity` elements.
    ///
    /// # Panics
    ///
    /// If the capacity exceeds `isize::MAX` bytes, as `Vec::with_capacity`.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let c: ReadWriteCollection<i32> = ReadWriteCollection::with_capacity(10);
    /// assert!(c.capacity() >= 10);
    /// ```
    #[inline]
    #[must_use]
    pub fn with_capacity(capacity: usize) -> Self {
        Vec::with_capacity(capacity).into()
    }

    /// An empty collection bounded to `max` elements: it never holds more
    /// and never allocates capacity for more. Pushes when it is full fail
    /// ([`try_push`](Self::try_push) hands the value back; `push` panics).
    ///
    /// To bound a collection made another way (with a predicate, say), use
    /// [`set_max_len`](Self::set_max_len). For zero-sized `T`, `capacity()`
    /// reports `usize::MAX` (as `Vec` does) but nothing is allocated.
    ///
    /// Allocation is lazy and grows by doubling up to `max`. Pushing during a
    /// traversal of a collection whose allocation is at the bound may shift the
    /// unvisited elements to close the hole removals left (no allocation).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut particles = ReadWriteCollection::bounded(2);
    /// assert!(particles.try_push(1).is_ok());
    /// assert!(particles.try_push(2).is_ok());
    /// assert_eq!(particles.try_push(3).unwrap_err().into_inner(), 3);
    /// assert_eq!(particles.max_len(), Some(2));
    /// assert!(particles.capacity() <= 2);
    ///
    /// let mut capped = ReadWriteCollection::with_auto_remove(|ttl: &u8| *ttl == 0);
    /// capped.set_max_len(Some(100));
    /// assert_eq!(capped.max_len(), Some(100));
    /// ```
    #[inline]
    #[must_use]
    pub const fn bounded(max: usize) -> Self {
        let mut c = Self::new();
        c.store.max = max;
        c
    }

    /// A [bounded](Self::bounded) collection of the elements of `iter`, as
    /// `FromIterator` would build it, if they fit under `max`: the
    /// constructor that reports overflow instead of panicking.
    ///
    /// # Errors
    ///
    /// If `iter` yields more than `max` elements: a [`CapacityError`]
    /// holding the full collection (the first `max` elements) and the first
    /// element that did not fit. The iterator is not advanced further: pass
    /// `iter.by_ref()` to keep the rest.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let c = ReadWriteCollection::bounded_from_iter(4, 1..=3).unwrap();
    /// assert_eq!(c, [1, 2, 3]);
    /// assert_eq!(c.max_len(), Some(4));
    ///
    /// let (full, first_rejected) = ReadWriteCollection::bounded_from_iter(2, 1..=3)
    ///     .unwrap_err()
    ///     .element();
    /// assert_eq!(full, [1, 2]);
    /// assert_eq!(first_rejected, 3);
    /// ```
    pub fn bounded_from_iter<I>(max: usize, iter: I) -> Result<Self, CapacityError<(Self, T)>>
    where
        I: IntoIterator<Item = T>,
    {
        let mut c = Self::bounded(max);
        match c.try_extend(iter) {
            Ok(()) => Ok(c),
            Err(err) => Err(CapacityError::new((c, err.element()))),
        }
    }

    /// An empty collection in [`Mode::Unordered`] (swap-remove).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{Mode, ReadWriteCollection};
    ///
    /// let c: ReadWriteCollection<u8> = ReadWriteCollection::unordered();
    /// assert_eq!(c.mode(), Mode::Unordered);
    /// ```
    #[inline]
    #[must_use]
    pub const fn unordered() -> Self {
        let mut c = Self::new();
        c.store.unordered = true;
        c
    }

    /// An empty collection whose traversals remove, without user code,
    /// every element for which `pred` returns `true`: when the cursor
    /// reaches it (it is never yielded), and when the cursor moves on from
    /// an element that started to satisfy `pred` while it was held.
    ///
    /// `pred` is any `FnMut(&T) -> bool` closure or function (every such
    /// type is an [`AutoRemove`] policy). Give a closure's parameter its
    /// type (`|e: &Event| …`): the bound names no closure signature, so the
    /// closure's kind comes from its body, and one that only reads is
    /// `Fn + Sync`, as `par_traverse` (feature `rayon`) needs (a bound
    /// of `FnMut` would make every closure passed here `FnMut` only).
    ///
    /// See [the `auto_remove` module](crate::auto_remove) for the details,
    /// [`with_removal_hook`](Self::with_removal_hook) to receive the removed
    /// elements, and [`prune`](Self::prune) to apply `pred` without a loop.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// struct Event { ttl: u32 }
    ///
    /// let mut events = ReadWriteCollection::with_auto_remove(|e: &Event| e.ttl == 0);
    /// events.extend([Event { ttl: 1 }, Event { ttl: 2 }]);
    /// let mut cursor = events.cursor();
    /// while let Some(mut e) = cursor.next() {
    ///     e.ttl -= 1; // the first one expires now and leaves at `next()`
    /// }
    /// drop(cursor);
    /// assert_eq!(events.len(), 1);
    /// assert_eq!(events[0].ttl, 1);
    /// ```
    #[inline]
    #[must_use]
    pub fn with_auto_remove<F>(pred: F) -> ReadWriteCollection<T, F>
    where
        F: AutoRemove<T>,
    {
        ReadWriteCollection::with_policy(pred)
    }

    /// An empty collection with a hand-written [`AutoRemove`] policy.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{NoAutoRemove, ReadWriteCollection};
    ///
    /// let c: ReadWriteCollection<u8> = ReadWriteCollection::with_policy(NoAutoRemove);
    /// assert!(c.is_empty());
    /// ```
    #[inline]
    #[must_use]
    pub fn with_policy<A: AutoRemove<T>>(policy: A) -> ReadWriteCollection<T, A> {
        ReadWriteCollection {
            store: Store::new(Vec::new()),
            policy,
        }
    }
}

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
    /// (in [`Mode::Ordered`]).
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

/// Settings: the bound (maximum length), the traversal [`Mode`], the
/// [`ShrinkPolicy`] and the auto-remove policy (see
/// [`builder`](Self::builder) to set them in one expression).
impl<T, A> ReadWriteCollection<T, A> {
    /// The bound (maximum length) of a [bounded](ReadWriteCollection::bounded)
    /// collection, `None` if unbounded.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// assert_eq!(ReadWriteCollection::<u8>::bounded(4).max_len(), Some(4));
    /// assert_eq!(ReadWriteCollection::<u8>::new().max_len(), None);
    /// ```
    #[inline]
    pub fn max_len(&self) -> Option<usize> {
        (self.store.max != usize::MAX).then_some(self.store.max)
    }

    /// Sets (or with `None` lifts) the bound (maximum length), and shrinks
    /// the allocation to it if it is larger.
    ///
    /// # Panics
    ///
    /// If the collection already holds more than `max` elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::with_auto_remove(|n: &u8| *n == 0);
    /// c.set_max_len(Some(1));
    /// c.push(5);
    /// assert!(c.try_push(6).is_err());
    /// ```
    #[track_caller]
    pub fn set_max_len(&mut self, max: Option<usize>) {
        let max = max.unwrap_or(usize::MAX);
        assert!(
            self.len() <= max,
            "the collection holds more than the new maximum length"
        );
        self.store.max = max;
        if self.capacity() > max {
            self.store.vec.shrink_to(max);
        }
    }

    /// How traversals fill removed slots.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{Mode, ReadWriteCollection};
    ///
    /// assert_eq!(ReadWriteCollection::<u8>::new().mode(), Mode::Ordered);
    /// ```
    #[inline]
    pub fn mode(&self) -> Mode {
        if self.store.unordered {
            Mode::Unordered
        } else {
            Mode::Ordered
        }
    }

    /// Sets how traversals fill removed slots.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{Mode, ReadWriteCollection};
    ///
    /// let mut c: ReadWriteCollection<u8> = ReadWriteCollection::new();
    /// c.set_mode(Mode::Unordered);
    /// assert_eq!(c.mode(), Mode::Unordered);
    /// ```
    #[inline]
    pub fn set_mode(&mut self, mode: Mode) {
        self.store.unordered = mode == Mode::Unordered;
    }

    /// The shrink policy, if any.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// assert_eq!(ReadWriteCollection::<u8>::new().shrink_policy(), None);
    /// ```
    #[inline]
    pub fn shrink_policy(&self) -> Option<ShrinkPolicy> {
        self.store.shrink
    }

    /// Sets (or with `None` turns off) the shrink policy; see [`ShrinkPolicy`].
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{ReadWriteCollection, ShrinkPolicy};
    ///
    /// let mut c: ReadWriteCollection<u8> = ReadWriteCollection::new();
    /// c.set_shrink_policy(Some(ShrinkPolicy::new(10, 30)));
    /// assert_eq!(c.shrink_policy(), Some(ShrinkPolicy::new(10, 30)));
    /// ```
    #[inline]
    pub fn set_shrink_policy(&mut self, policy: Option<ShrinkPolicy>) {
        self.store.shrink = policy;
        self.store.low_passes = 0;
    }

    /// The auto-remove policy.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{NoAutoRemove, ReadWriteCollection};
    ///
    /// let c: ReadWriteCollection<u8> = ReadWriteCollection::new();
    /// assert_eq!(*c.policy(), NoAutoRemove);
    /// ```
    #[inline]
    pub fn policy(&self) -> &A {
        &self.policy
    }

    /// The auto-remove policy, mutably (for example to change a threshold
    /// the predicate reads).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{AutoRemove, ReadWriteCollection};
    ///
    /// struct Older { than: u32 }
    /// impl AutoRemove<u32> for Older {
    ///     fn should_remove(&mut self, age: &u32) -> bool { *age > self.than }
    /// }
    ///
    /// let mut c = ReadWriteCollection::with_policy(Older { than: 10 });
    /// c.extend([5, 15, 25]);
    /// c.policy_mut().than = 20;
    /// c.prune();
    /// assert_eq!(c, [5, 15]);
    /// ```
    #[inline]
    pub fn policy_mut(&mut self) -> &mut A {
        &mut self.policy
    }

    /// A collection of `vec`'s elements in `vec`'s buffer, with `policy`
    /// and otherwise the default settings.
    #[inline]
    pub(crate) fn from_vec_with_policy(vec: Vec<T>, policy: A) -> Self {
        ReadWriteCollection {
            store: Store::new(vec),
            policy,
        }
    }

    /// An empty collection with this one's bound, mode and shrink
    /// policy, and `policy` as its auto-remove policy: what the generators
    /// and `deserialize_in_place` use to keep a target's settings.
    #[allow(dead_code)] // not every feature combination uses it
    pub(crate) fn empty_like<B>(&self, policy: B) -> ReadWriteCollection<T, B> {
        let mut store = Store::new(Vec::new());
        store.max = self.store.max;
        store.unordered = self.store.unordered;
        store.shrink = self.store.shrink;
        ReadWriteCollection { store, policy }
    }

    /// Adds a removal hook: `hook` receives, by value, every element the
    /// policy removes (not the ones user code removes with
    /// [`Entry::remove`], which returns them itself).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut explosions = 0;
    /// let mut ships = ReadWriteCollection::with_auto_remove(|hp: &i32| *hp <= 0)
    ///     .with_removal_hook(|_dead: i32| explosions += 1);
    /// ships.extend([3, 0, -1, 5]);
    /// ships.prune();
    /// assert_eq!(ships, [3, 5]);
    /// drop(ships);
    /// assert_eq!(explosions, 2);
    /// ```
    #[inline]
    #[must_use]
    pub fn with_removal_hook<H: FnMut(T)>(self, hook: H) -> ReadWriteCollection<T, WithHook<A, H>> {
        ReadWriteCollection {
            store: self.store,
            policy: WithHook {
                policy: self.policy,
                hook,
            },
        }
    }
}

/// The `Vec` surface: appending, inserting, clearing, reserving and taking
/// the `Vec` back; then the `Vec` methods that never add elements, and
/// those that add elements or change the allocation.
impl<T, A> ReadWriteCollection<T, A> {
    /// Appends an element.
    ///
    /// # Panics
    ///
    /// If the collection is [bounded](ReadWriteCollection::bounded) and
    /// full ([`try_push`](Self::try_push) hands the value back instead), or
    /// if the capacity would exceed `isize::MAX` bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::new();
    /// c.push("a");
    /// assert_eq!(c, ["a"]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn push(&mut self, value: T) {
        if self.store.max == usize::MAX {
            self.store.vec.push(value);
        } else if self.try_push(value).is_err() {
            full_panic();
        }
    }

    /// Appends an element unless the collection is full (no room under its
    /// bound).
    ///
    /// # Errors
    ///
    /// [`CapacityError`] holding `value` if the collection is
    /// [bounded](ReadWriteCollection::bounded) and full.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::bounded(1);
    /// assert_eq!(c.try_push('x'), Ok(()));
    /// assert_eq!(c.try_push('y').unwrap_err().into_inner(), 'y');
    /// ```
    #[inline]
    pub fn try_push(&mut self, value: T) -> Result<(), CapacityError<T>> {
        let len = self.len();
        if len >= self.store.max {
            if self.store.max == usize::MAX {
                // Not a bound: zero-sized elements at `usize::MAX`.
                capacity_overflow();
            }
            return Err(CapacityError::new(value));
        }
        if len == self.capacity() {
            self.store.grow();
        }
        self.store.vec.push(value);
        Ok(())
    }

    /// Inserts `value` at `index`, shifting the later elements up.
    ///
    /// # Panics
    ///
    /// If `index > len`, or the collection is bounded and full.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<char> = ['a', 'c'].into();
    /// c.insert(1, 'b');
    /// assert_eq!(c, ['a', 'b', 'c']);
    /// ```
    #[inline]
    #[track_caller]
    pub fn insert(&mut self, index: usize, value: T) {
        let len = self.len();
        if len >= self.store.max {
            if self.store.max == usize::MAX {
                capacity_overflow();
            }
            full_panic();
        }
        if self.store.max != usize::MAX && len == self.capacity() {
            self.store.grow();
        }
        self.store.vec.insert(index, value);
    }

    /// Removes every element (the policy's hook is not called). Keeps the
    /// capacity.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = (1..=2).collect();
    /// c.clear();
    /// assert!(c.is_empty());
    /// ```
    #[inline]
    pub fn clear(&mut self) {
        self.store.vec.clear();
    }

    /// Reserves capacity (allocation, as [`Vec::reserve`]) for at least
    /// `additional` more elements. A bounded collection never reserves past
    /// its bound.
    ///
    /// # Panics
    ///
    /// If the capacity would exceed `isize::MAX` bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = ReadWriteCollection::new();
    /// c.reserve(100);
    /// assert!(c.capacity() >= 100);
    /// let mut b: ReadWriteCollection<i32> = ReadWriteCollection::bounded(5);
    /// b.reserve(100);
    /// assert!(b.capacity() <= 5);
    /// ```
    #[inline]
    #[track_caller]
    pub fn reserve(&mut self, additional: usize) {
        if self.store.max == usize::MAX {
            self.store.vec.reserve(additional);
        } else {
            let room = self.store.max.saturating_sub(self.len());
            self.store.vec.reserve_exact(additional.min(room));
        }
    }

    /// Converts into a `Vec` without copying.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let c: ReadWriteCollection<i32> = (1..=3).collect();
    /// assert_eq!(c.into_vec(), vec![1, 2, 3]);
    /// ```
    #[inline]
    pub fn into_vec(self) -> Vec<T> {
        self.store.vec
    }
}

crate::vec_api::vec_mirror!(ReadWriteCollection, "elements");

/// The `Vec` and `arrayvec` methods that add elements or change the
/// allocation. A bounded collection never grows past its bound
/// through any of them: the `try_` forms give the values back in a
/// [`CapacityError`], the others panic before changing anything.
impl<T, A> ReadWriteCollection<T, A> {
    /// The room: how many more elements fit under the bound
    /// (`max_len - len`), as `arrayvec`'s `remaining_capacity`. For an
    /// unbounded collection, `usize::MAX - len`.
    ///
    /// Despite the name, this is room under the bound, not
    /// [`capacity`](Self::capacity) (the allocation, which grows on
    /// demand): what a bounded collection can still take (see
    /// [Terms](crate#terms)).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::bounded(3);
    /// c.push(1);
    /// assert_eq!(c.remaining_capacity(), 2);
    /// assert_eq!(c.capacity(), 3); // the allocation: no more than the bound
    /// ```
    #[inline]
    pub fn remaining_capacity(&self) -> usize {
        self.store.room()
    }

    /// Whether the collection is full: no room under its bound (always
    /// `false` for an unbounded collection of non-zero-sized elements). It
    /// says nothing about the allocation (see [Terms](crate#terms)).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::bounded(1);
    /// assert!(!c.is_full());
    /// c.push('x');
    /// assert!(c.is_full());
    /// ```
    #[inline]
    pub fn is_full(&self) -> bool {
        self.store.room() == 0
    }

    /// Inserts `element` at `index` unless the collection is full (at its
    /// bound), as `arrayvec`'s `try_insert`.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] holding `element` if the collection is full.
    ///
    /// # Panics
    ///
    /// If `index > len`.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::bounded(2);
    /// c.push('c');
    /// assert_eq!(c.try_insert(0, 'a'), Ok(()));
    /// assert_eq!(c.try_insert(1, 'b').unwrap_err().element(), 'b');
    /// assert_eq!(c, ['a', 'c']);
    /// ```
    #[track_caller]
    pub fn try_insert(&mut self, index: usize, element: T) -> Result<(), CapacityError<T>> {
        let len = self.len();
        assert!(
            index <= len,
            "insertion index (is {index}) should be <= len (is {len})"
        );
        if self.store.room() == 0 {
            return Err(CapacityError::new(element));
        }
        self.store.reserve_within_bound(1);
        self.store.vec.insert(index, element);
        Ok(())
    }

    /// Moves every element of `other` to the end of this collection,
    /// leaving `other` empty, as [`Vec::append`].
    ///
    /// # Panics
    ///
    /// If this collection is bounded and the elements do not all fit;
    /// then nothing is moved (both collections are unchanged).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = vec![1, 2, 3].into();
    /// let mut other: ReadWriteCollection<i32> = vec![4, 5, 6].into();
    /// c.append(&mut other);
    /// assert_eq!(c, [1, 2, 3, 4, 5, 6]);
    /// assert_eq!(other, []);
    /// ```
    #[track_caller]
    pub fn append<B>(&mut self, other: &mut ReadWriteCollection<T, B>) {
        let n = other.len();
        self.store.check_room(n);
        self.store.reserve_within_bound(n);
        self.store.vec.append(&mut other.store.vec);
    }

    /// Clones and appends every element of `other`, as
    /// [`Vec::extend_from_slice`].
    ///
    /// If a `clone` panics, the elements cloned before it stay and the
    /// collection is valid.
    ///
    /// # Panics
    ///
    /// If this collection is bounded and the elements do not all fit;
    /// then nothing is added ([`try_extend_from_slice`](Self::try_extend_from_slice)
    /// returns an error instead).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = vec![1].into();
    /// c.extend_from_slice(&[2, 3, 4]);
    /// assert_eq!(c, [1, 2, 3, 4]);
    /// ```
    #[track_caller]
    pub fn extend_from_slice(&mut self, other: &[T])
    where
        T: Clone,
    {
        self.store.check_room(other.len());
        self.store.reserve_within_bound(other.len());
        self.store.vec.extend_from_slice(other);
    }

    /// Clones and appends every element of `other` if they all fit, as
    /// `arrayvec`'s `try_extend_from_slice` (which needs `T: Copy`; this
    /// takes any `T: Clone`).
    ///
    /// # Errors
    ///
    /// [`CapacityError`] if the collection is bounded and `other` does not
    /// fit; nothing is added.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::bounded(3);
    /// assert!(c.try_extend_from_slice(&[1, 2]).is_ok());
    /// assert!(c.try_extend_from_slice(&[3, 4]).is_err());
    /// assert_eq!(c, [1, 2]);
    /// ```
    pub fn try_extend_from_slice(&mut self, other: &[T]) -> Result<(), CapacityError>
    where
        T: Clone,
    {
        if other.len() > self.store.room() {
            return Err(CapacityError::new(()));
        }
        self.store.reserve_within_bound(other.len());
        self.store.vec.extend_from_slice(other);
        Ok(())
    }

    /// Pushes the elements of `iter` until the collection is full.
    ///
    /// Takes only what it pushes, plus the one element that did not fit:
    /// pass `iter.by_ref()` to keep the rest.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] holding the first element that did not fit. The
    /// elements before it stay pushed.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::bounded(2);
    /// let mut source = 1..=5;
    /// let err = c.try_extend(source.by_ref()).unwrap_err();
    /// assert_eq!(c, [1, 2]);
    /// assert_eq!(err.element(), 3);
    /// assert_eq!(source.collect::<Vec<_>>(), [4, 5]);
    /// ```
    pub fn try_extend<I: IntoIterator<Item = T>>(
        &mut self,
        iter: I,
    ) -> Result<(), CapacityError<T>> {
        for value in iter {
            self.try_push(value)?;
        }
        Ok(())
    }

    /// Resizes in place so that the length is `new_len`, filling new slots
    /// with clones of `value`, as [`Vec::resize`].
    ///
    /// If a `clone` panics, the clones made before it stay.
    ///
    /// # Panics
    ///
    /// If the collection is bounded and `new_len` is over its bound; then
    /// nothing changes.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<&str> = vec!["hello"].into();
    /// c.resize(3, "world");
    /// assert_eq!(c, ["hello", "world", "world"]);
    ///
    /// let mut c: ReadWriteCollection<i32> = vec![1, 2, 3, 4].into();
    /// c.resize(2, 0);
    /// assert_eq!(c, [1, 2]);
    /// ```
    #[track_caller]
    pub fn resize(&mut self, new_len: usize, value: T)
    where
        T: Clone,
    {
        let len = self.len();
        if new_len > len {
            self.store.check_room(new_len - len);
            self.store.reserve_within_bound(new_len - len);
        }
        self.store.vec.resize(new_len, value);
    }

    /// Resizes in place so that the length is `new_len`, filling new slots
    /// with the values `f` returns, as [`Vec::resize_with`].
    ///
    /// If `f` panics, the values it made before stay.
    ///
    /// # Panics
    ///
    /// If the collection is bounded and `new_len` is over its bound; then
    /// nothing changes and `f` is not called.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = vec![1, 2, 3].into();
    /// c.resize_with(5, Default::default);
    /// assert_eq!(c, [1, 2, 3, 0, 0]);
    ///
    /// let mut c: ReadWriteCollection<i32> = ReadWriteCollection::new();
    /// let mut p = 1;
    /// c.resize_with(4, || { p *= 2; p });
    /// assert_eq!(c, [2, 4, 8, 16]);
    /// ```
    #[track_caller]
    pub fn resize_with<F: FnMut() -> T>(&mut self, new_len: usize, f: F) {
        let len = self.len();
        if new_len > len {
            self.store.check_room(new_len - len);
            self.store.reserve_within_bound(new_len - len);
        }
        self.store.vec.resize_with(new_len, f);
    }

    /// Replaces the elements in `range` with those of `replace_with` and
    /// returns the removed ones, as [`Vec::splice`].
    ///
    /// Unlike `Vec::splice`, `replace_with` is collected first (one
    /// temporary `Vec`), so that a bounded collection can check the final
    /// length before it changes anything; the returned iterator's type
    /// says so.
    ///
    /// # Panics
    ///
    /// If the range is out of bounds (before `replace_with` is iterated),
    /// or the collection is bounded and the result would be longer than
    /// its bound (then nothing changes; the replacement values
    /// are dropped).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = vec![1, 2, 3, 4].into();
    /// let new = [7, 8, 9];
    /// let removed: Vec<i32> = c.splice(1..3, new).collect();
    /// assert_eq!(c, [1, 7, 8, 9, 4]);
    /// assert_eq!(removed, [2, 3]);
    ///
    /// // Insert at an index:
    /// let mut c: ReadWriteCollection<i32> = vec![1, 5].into();
    /// c.splice(1..1, [2, 3, 4]);
    /// assert_eq!(c, [1, 2, 3, 4, 5]);
    /// ```
    #[track_caller]
    pub fn splice<R, I>(
        &mut self,
        range: R,
        replace_with: I,
    ) -> alloc::vec::Splice<'_, alloc::vec::IntoIter<T>>
    where
        R: RangeBounds<usize>,
        I: IntoIterator<Item = T>,
    {
        let (start, end) = range_bounds(range, self.len());
        let replace: Vec<T> = replace_with.into_iter().collect();
        let removed = end - start;
        if replace.len() > removed {
            let added = replace.len() - removed;
            self.store.check_room(added);
            self.store.reserve_within_bound(added);
        }
        self.store.vec.splice(start..end, replace)
    }

    /// Reserves capacity (allocation) for exactly `additional` more
    /// elements (as [`Vec::reserve_exact`]); a bounded collection never
    /// reserves past its bound.
    ///
    /// # Panics
    ///
    /// If the capacity would exceed `isize::MAX` bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = vec![1].into();
    /// c.reserve_exact(10);
    /// assert!(c.capacity() >= 11);
    /// let mut b: ReadWriteCollection<i32> = ReadWriteCollection::bounded(4);
    /// b.reserve_exact(10);
    /// assert_eq!(b.capacity(), 4);
    /// ```
    #[track_caller]
    pub fn reserve_exact(&mut self, additional: usize) {
        let additional = additional.min(self.store.room());
        self.store.vec.reserve_exact(additional);
    }

    /// Tries to reserve capacity (allocation) for at least `additional`
    /// more elements, as [`Vec::try_reserve`]: `Ok` means the capacity is
    /// there. A bounded collection never reserves past its bound, so asking
    /// for more than its room is an error (where
    /// [`reserve`](Self::reserve) reserves what the bound allows).
    ///
    /// # Errors
    ///
    /// If the capacity would overflow or the allocator fails, as `Vec`;
    /// and if the collection is bounded and `additional` is more than its
    /// room ([`remaining_capacity`](Self::remaining_capacity)). Nothing is
    /// reserved then. The error is the standard library's
    /// [`TryReserveError`](alloc::collections::TryReserveError), of the
    /// kind `Vec` reports when the computed capacity exceeds its maximum
    /// (a capacity overflow), also for a request past the bound.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<u64> = ReadWriteCollection::new();
    /// assert!(c.try_reserve(8).is_ok());
    /// assert!(c.capacity() >= 8);
    /// assert!(c.try_reserve(usize::MAX).is_err());
    ///
    /// let mut b: ReadWriteCollection<u64> = ReadWriteCollection::bounded(100);
    /// assert!(b.try_reserve(10_000).is_err()); // past the bound: no room reserved
    /// assert_eq!(b.capacity(), 0);
    /// assert!(b.try_reserve(100).is_ok());
    /// assert_eq!(b.capacity(), 100);
    /// ```
    pub fn try_reserve(
        &mut self,
        additional: usize,
    ) -> Result<(), alloc::collections::TryReserveError> {
        if self.store.max == usize::MAX {
            self.store.vec.try_reserve(additional)
        } else if additional > self.store.room() {
            Err(past_the_bound())
        } else {
            self.store.vec.try_reserve_exact(additional)
        }
    }

    /// Tries to reserve capacity (allocation) for exactly `additional` more
    /// elements, as [`Vec::try_reserve_exact`]: `Ok` means the capacity is
    /// there. A bounded collection never reserves past its bound.
    ///
    /// # Errors
    ///
    /// As [`try_reserve`](Self::try_reserve): if the capacity would
    /// overflow, the allocator fails, or the collection is bounded and
    /// `additional` is more than its room
    /// ([`remaining_capacity`](Self::remaining_capacity)) (nothing is
    /// reserved then).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<u64> = ReadWriteCollection::new();
    /// assert!(c.try_reserve_exact(8).is_ok());
    /// assert!(c.capacity() >= 8);
    /// assert!(c.try_reserve_exact(usize::MAX).is_err());
    ///
    /// let mut b: ReadWriteCollection<u64> = ReadWriteCollection::bounded(4);
    /// assert!(b.try_reserve_exact(5).is_err());
    /// assert!(b.try_reserve_exact(4).is_ok());
    /// assert_eq!(b.capacity(), 4);
    /// ```
    pub fn try_reserve_exact(
        &mut self,
        additional: usize,
    ) -> Result<(), alloc::collections::TryReserveError> {
        if additional > self.store.room() {
            return Err(past_the_bound());
        }
        self.store.vec.try_reserve_exact(additional)
    }

    /// The allocated but unused slots, as [`Vec::spare_capacity_mut`],
    /// limited to the room ([`remaining_capacity`](Self::remaining_capacity))
    /// for a bounded collection.
    ///
    /// This crate offers no `set_len` (it would be `unsafe`): values
    /// written here do not become elements. Useful as scratch space in
    /// the allocation, and to check the room under a bound.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<u8> = ReadWriteCollection::with_capacity(10);
    /// c.push(1);
    /// assert!(c.spare_capacity_mut().len() >= 9);
    /// let mut b: ReadWriteCollection<u8> = ReadWriteCollection::bounded(4);
    /// b.reserve(4);
    /// b.push(1);
    /// assert_eq!(b.spare_capacity_mut().len(), 3);
    /// ```
    pub fn spare_capacity_mut(&mut self) -> &mut [core::mem::MaybeUninit<T>] {
        let room = self.store.room();
        let spare = self.store.vec.spare_capacity_mut();
        let n = spare.len().min(room);
        &mut spare[..n]
    }
}

/// The error of a `try_reserve` past a bounded collection's bound:
/// the capacity-overflow `TryReserveError` (its public API has no
/// constructor), made by asking a `Vec` for more than `isize::MAX` bytes,
/// which fails before allocating.
#[cold]
#[inline(never)]
fn past_the_bound() -> alloc::collections::TryReserveError {
    match Vec::<u8>::new().try_reserve_exact(usize::MAX) {
        Err(err) => err,
        Ok(()) => unreachable!("a `Vec<u8>` of `usize::MAX` bytes cannot exist"),
    }
}

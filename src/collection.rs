//! The core type, [`ReadWriteCollection`].

use alloc::vec::Vec;
use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::ops::{Deref, DerefMut, Index, IndexMut, RangeBounds};
use core::slice::SliceIndex;

use crate::auto_remove::{AutoRemove, NoAutoRemove, WithHook};
use crate::cursor::{full_panic, Cursor, Entry};
use crate::error::CapacityError;
use crate::raw::{Pass, Shrink, Store};

/// How a traversal fills the place of a removed element.
///
/// # Examples
///
/// ```
/// use read_write_collection::{Mode, ReadWriteCollection};
///
/// let mut c: ReadWriteCollection<i32> = (0..5).collect();
/// c.set_mode(Mode::Unordered);
/// c.traverse(|e| if *e == 1 { e.remove(); });
/// assert_eq!(c.as_slice(), [0, 4, 2, 3]); // the last element filled the hole
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Survivors keep their order; each moves at most once per traversal
    /// (back-copying). The default.
    #[default]
    Ordered,
    /// A removed element's slot is filled with the last unvisited element
    /// (swap-remove), which is then visited next. Fewer moves; order is not
    /// kept. Every element present at the start and every pushed element is
    /// still visited exactly once.
    Unordered,
}

/// When a collection gives memory back: after `passes` traversals in a row
/// that end with fewer than `below_percent` % of the capacity in use, the
/// capacity is shrunk to twice the length.
///
/// Off by default. Shrinking happens when a traversal completes (when the
/// cursor is dropped), and never below what the elements need.
///
/// # Examples
///
/// ```
/// use read_write_collection::{ReadWriteCollection, ShrinkPolicy};
///
/// let mut c: ReadWriteCollection<u32> = (0..1000).collect();
/// c.set_shrink_policy(Some(ShrinkPolicy::new(25, 2)));
/// c.traverse(|e| if *e >= 10 { e.remove(); });
/// assert!(c.capacity() >= 1000); // one low pass is not enough
/// c.traverse(|_| {});
/// assert!(c.capacity() < 1000);
/// assert_eq!(c.len(), 10);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShrinkPolicy {
    below_percent: u8,
    passes: u32,
}

impl ShrinkPolicy {
    /// Shrink after `passes` consecutive traversals ending below
    /// `below_percent` % occupancy.
    ///
    /// # Panics
    ///
    /// If `below_percent` is over 100 or `passes` is 0.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ShrinkPolicy;
    ///
    /// let p = ShrinkPolicy::new(25, 60); // a second at 60 fps under a quarter full
    /// assert_eq!(p.passes(), 60);
    /// ```
    #[track_caller]
    pub const fn new(below_percent: u8, passes: u32) -> Self {
        assert!(below_percent <= 100, "below_percent is a percentage");
        assert!(passes > 0, "passes must be at least 1");
        ShrinkPolicy {
            below_percent,
            passes,
        }
    }

    /// The occupancy threshold, in percent.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ShrinkPolicy;
    /// assert_eq!(ShrinkPolicy::new(25, 60).below_percent(), 25);
    /// ```
    pub const fn below_percent(&self) -> u8 {
        self.below_percent
    }

    /// How many low traversals in a row trigger a shrink.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ShrinkPolicy;
    /// assert_eq!(ShrinkPolicy::new(25, 60).passes(), 60);
    /// ```
    pub const fn passes(&self) -> u32 {
        self.passes
    }

    pub(crate) fn to_raw(self) -> Shrink {
        Shrink {
            percent: self.below_percent,
            passes: self.passes,
        }
    }

    pub(crate) fn from_raw(s: Shrink) -> Self {
        ShrinkPolicy {
            below_percent: s.percent,
            passes: s.passes,
        }
    }
}

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
    store: Store<T>,
    policy: A,
}

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

    /// An empty collection with room for at least `capacity` elements.
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

    /// An empty collection that never holds more than `max` elements and
    /// never allocates room for more. Pushes beyond it fail
    /// ([`try_push`](Self::try_push) hands the value back; `push` panics).
    ///
    /// To bound a collection made another way (with a predicate, say), use
    /// [`set_max_len`](Self::set_max_len). For zero-sized `T`, `capacity()`
    /// reports `usize::MAX` (as `Vec` does) but nothing is allocated.
    ///
    /// Allocation is lazy and grows by doubling up to `max`. Pushing during a
    /// traversal of a collection at its maximum capacity may shift the
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
        F: FnMut(&T) -> bool,
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

impl<T, A> ReadWriteCollection<T, A> {
    /// The number of elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let c: ReadWriteCollection<i32> = (0..3).collect();
    /// assert_eq!(c.len(), 3);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.store.vec.len()
    }

    /// Whether there are no elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::new();
    /// assert!(c.is_empty());
    /// c.push(1);
    /// assert!(!c.is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.store.vec.is_empty()
    }

    /// The number of elements the buffer holds without reallocating.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let c: ReadWriteCollection<i32> = ReadWriteCollection::with_capacity(8);
    /// assert!(c.capacity() >= 8);
    /// ```
    #[inline]
    pub fn capacity(&self) -> usize {
        self.store.vec.capacity()
    }

    /// The maximum length of a [bounded](ReadWriteCollection::bounded)
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

    /// Sets (or with `None` lifts) the maximum length, and shrinks the
    /// allocation to it if it is larger.
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
        self.store.shrink.map(ShrinkPolicy::from_raw)
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
        self.store.shrink = policy.map(ShrinkPolicy::to_raw);
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

    /// The elements as a slice.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let c: ReadWriteCollection<i32> = (1..=3).collect();
    /// assert_eq!(c.as_slice(), [1, 2, 3]);
    /// ```
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        &self.store.vec
    }

    /// The elements as a mutable slice.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = (1..=3).collect();
    /// c.as_mut_slice().reverse();
    /// assert_eq!(c, [3, 2, 1]);
    /// ```
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.store.vec
    }

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

    /// Appends an element unless the collection is at its maximum length.
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
            return Err(CapacityError::new(value));
        }
        if len == self.capacity() {
            self.store.grow();
        }
        self.store.vec.push(value);
        Ok(())
    }

    /// Keeps only the elements for which `f` returns `true`, in order, as
    /// [`Vec::retain`]. Does not run the auto-remove policy; a traversal
    /// ([`traverse`](Self::traverse)) can also push.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = (1..=6).collect();
    /// c.retain(|n| n % 3 != 0);
    /// assert_eq!(c, [1, 2, 4, 5]);
    /// ```
    #[inline]
    pub fn retain<F: FnMut(&T) -> bool>(&mut self, f: F) {
        self.store.vec.retain(f);
    }

    /// Like [`retain`](Self::retain), with mutable access to each element.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = (1..=4).collect();
    /// c.retain_mut(|n| { *n *= 10; *n > 20 });
    /// assert_eq!(c, [30, 40]);
    /// ```
    #[inline]
    pub fn retain_mut<F: FnMut(&mut T) -> bool>(&mut self, f: F) {
        self.store.vec.retain_mut(f);
    }

    /// Removes and returns the element at `index`, shifting the later ones
    /// down (O(n), as [`Vec::remove`]; in a loop, use a [`Cursor`]).
    ///
    /// # Panics
    ///
    /// If `index >= len`.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<char> = ['a', 'b', 'c'].into();
    /// assert_eq!(c.remove(1), 'b');
    /// assert_eq!(c, ['a', 'c']);
    /// ```
    #[inline]
    #[track_caller]
    pub fn remove(&mut self, index: usize) -> T {
        self.store.vec.remove(index)
    }

    /// Removes and returns the element at `index`, moving the last element
    /// into its place (O(1), as [`Vec::swap_remove`]).
    ///
    /// # Panics
    ///
    /// If `index >= len`.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<char> = ['a', 'b', 'c'].into();
    /// assert_eq!(c.swap_remove(0), 'a');
    /// assert_eq!(c, ['c', 'b']);
    /// ```
    #[inline]
    #[track_caller]
    pub fn swap_remove(&mut self, index: usize) -> T {
        self.store.vec.swap_remove(index)
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
            full_panic();
        }
        if self.store.max != usize::MAX && len == self.capacity() {
            self.store.grow();
        }
        self.store.vec.insert(index, value);
    }

    /// Removes the last element and returns it.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = (1..=2).collect();
    /// assert_eq!(c.pop(), Some(2));
    /// assert_eq!(c, [1]);
    /// ```
    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        self.store.vec.pop()
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

    /// Keeps the first `len` elements and drops the rest.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = (1..=4).collect();
    /// c.truncate(2);
    /// assert_eq!(c, [1, 2]);
    /// ```
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.store.vec.truncate(len);
    }

    /// Removes the elements in `range` and returns them as an iterator, as
    /// [`Vec::drain`].
    ///
    /// # Panics
    ///
    /// If the range is out of bounds.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = (1..=4).collect();
    /// let firsts: Vec<i32> = c.drain(..2).collect();
    /// assert_eq!(firsts, [1, 2]);
    /// assert_eq!(c, [3, 4]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn drain<R: RangeBounds<usize>>(&mut self, range: R) -> alloc::vec::Drain<'_, T> {
        self.store.vec.drain(range)
    }

    /// Reserves room for at least `additional` more elements. A bounded
    /// collection never reserves past its maximum length.
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

    /// Shrinks the capacity as close to the length as the allocator allows.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = ReadWriteCollection::with_capacity(100);
    /// c.push(1);
    /// c.shrink_to_fit();
    /// assert!(c.capacity() < 100);
    /// ```
    #[inline]
    pub fn shrink_to_fit(&mut self) {
        self.store.vec.shrink_to_fit();
    }

    /// A reference to the element at `index`, if there is one.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let c: ReadWriteCollection<i32> = (1..=2).collect();
    /// assert_eq!(c.get(1), Some(&2));
    /// assert_eq!(c.get(2), None);
    /// ```
    #[inline]
    pub fn get(&self, index: usize) -> Option<&T> {
        self.store.vec.get(index)
    }

    /// A mutable reference to the element at `index`, if there is one.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = (1..=2).collect();
    /// *c.get_mut(0).unwrap() = 7;
    /// assert_eq!(c, [7, 2]);
    /// ```
    #[inline]
    pub fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        self.store.vec.get_mut(index)
    }

    /// An iterator over the elements, in order.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let c: ReadWriteCollection<i32> = (1..=3).collect();
    /// assert_eq!(c.iter().sum::<i32>(), 6);
    /// ```
    #[inline]
    pub fn iter(&self) -> core::slice::Iter<'_, T> {
        self.store.vec.iter()
    }

    /// An iterator over mutable references to the elements, in order.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = (1..=3).collect();
    /// c.iter_mut().for_each(|n| *n *= 2);
    /// assert_eq!(c, [2, 4, 6]);
    /// ```
    #[inline]
    pub fn iter_mut(&mut self) -> core::slice::IterMut<'_, T> {
        self.store.vec.iter_mut()
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

impl<T: Clone, A: Clone> Clone for ReadWriteCollection<T, A> {
    fn clone(&self) -> Self {
        ReadWriteCollection {
            store: self.store.clone(),
            policy: self.policy.clone(),
        }
    }
}

impl<T: fmt::Debug, A> fmt::Debug for ReadWriteCollection<T, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T, A: Default> Default for ReadWriteCollection<T, A> {
    #[inline]
    fn default() -> Self {
        ReadWriteCollection {
            store: Store::new(Vec::new()),
            policy: A::default(),
        }
    }
}

impl<T, A> Deref for ReadWriteCollection<T, A> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        &self.store.vec
    }
}

impl<T, A> DerefMut for ReadWriteCollection<T, A> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.store.vec
    }
}

impl<T, A> AsRef<[T]> for ReadWriteCollection<T, A> {
    #[inline]
    fn as_ref(&self) -> &[T] {
        &self.store.vec
    }
}

impl<T, A> AsMut<[T]> for ReadWriteCollection<T, A> {
    #[inline]
    fn as_mut(&mut self) -> &mut [T] {
        &mut self.store.vec
    }
}

impl<T, A> core::borrow::Borrow<[T]> for ReadWriteCollection<T, A> {
    #[inline]
    fn borrow(&self) -> &[T] {
        &self.store.vec
    }
}

impl<T, A> core::borrow::BorrowMut<[T]> for ReadWriteCollection<T, A> {
    #[inline]
    fn borrow_mut(&mut self) -> &mut [T] {
        &mut self.store.vec
    }
}

impl<T, A, I: SliceIndex<[T]>> Index<I> for ReadWriteCollection<T, A> {
    type Output = I::Output;

    #[inline]
    #[track_caller]
    fn index(&self, index: I) -> &I::Output {
        &self.store.vec[index]
    }
}

impl<T, A, I: SliceIndex<[T]>> IndexMut<I> for ReadWriteCollection<T, A> {
    #[inline]
    #[track_caller]
    fn index_mut(&mut self, index: I) -> &mut I::Output {
        &mut self.store.vec[index]
    }
}

impl<T, U, A, B> PartialEq<ReadWriteCollection<U, B>> for ReadWriteCollection<T, A>
where
    T: PartialEq<U>,
{
    #[inline]
    fn eq(&self, other: &ReadWriteCollection<U, B>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Eq, A> Eq for ReadWriteCollection<T, A> {}

impl<T, U: PartialEq<U>, A> PartialEq<Vec<U>> for ReadWriteCollection<T, A>
where
    T: PartialEq<U>,
{
    #[inline]
    fn eq(&self, other: &Vec<U>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T, U, A> PartialEq<[U]> for ReadWriteCollection<T, A>
where
    T: PartialEq<U>,
{
    #[inline]
    fn eq(&self, other: &[U]) -> bool {
        self.as_slice() == other
    }
}

impl<T, U, A> PartialEq<&[U]> for ReadWriteCollection<T, A>
where
    T: PartialEq<U>,
{
    #[inline]
    fn eq(&self, other: &&[U]) -> bool {
        self.as_slice() == *other
    }
}

impl<T, U, A, const N: usize> PartialEq<[U; N]> for ReadWriteCollection<T, A>
where
    T: PartialEq<U>,
{
    #[inline]
    fn eq(&self, other: &[U; N]) -> bool {
        self.as_slice() == other
    }
}

impl<T: PartialOrd, A> PartialOrd for ReadWriteCollection<T, A> {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.as_slice().partial_cmp(other.as_slice())
    }
}

impl<T: Ord, A> Ord for ReadWriteCollection<T, A> {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_slice().cmp(other.as_slice())
    }
}

impl<T: Hash, A> Hash for ReadWriteCollection<T, A> {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

/// Pushes every element.
///
/// # Panics
///
/// If a [bounded](ReadWriteCollection::bounded) collection fills up; the
/// elements pushed before that stay.
impl<T, A> Extend<T> for ReadWriteCollection<T, A> {
    #[track_caller]
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        if self.store.max == usize::MAX {
            self.store.vec.extend(iter);
        } else {
            for value in iter {
                self.push(value);
            }
        }
    }
}

/// Pushes a copy of every element.
///
/// # Panics
///
/// If a [bounded](ReadWriteCollection::bounded) collection fills up.
impl<'a, T: Copy + 'a, A> Extend<&'a T> for ReadWriteCollection<T, A> {
    #[track_caller]
    fn extend<I: IntoIterator<Item = &'a T>>(&mut self, iter: I) {
        self.extend(iter.into_iter().copied());
    }
}

impl<T> FromIterator<T> for ReadWriteCollection<T> {
    #[inline]
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Vec::from_iter(iter).into()
    }
}

impl<T> From<Vec<T>> for ReadWriteCollection<T> {
    /// Takes the `Vec`'s buffer without copying.
    #[inline]
    fn from(vec: Vec<T>) -> Self {
        ReadWriteCollection {
            store: Store::new(vec),
            policy: NoAutoRemove,
        }
    }
}

impl<T, const N: usize> From<[T; N]> for ReadWriteCollection<T> {
    #[inline]
    fn from(array: [T; N]) -> Self {
        Vec::from(array).into()
    }
}

impl<T: Clone> From<&[T]> for ReadWriteCollection<T> {
    #[inline]
    fn from(slice: &[T]) -> Self {
        slice.to_vec().into()
    }
}

impl<T, A> From<ReadWriteCollection<T, A>> for Vec<T> {
    /// Gives the buffer back without copying.
    #[inline]
    fn from(c: ReadWriteCollection<T, A>) -> Self {
        c.store.vec
    }
}

impl<T, A> IntoIterator for ReadWriteCollection<T, A> {
    type Item = T;
    type IntoIter = alloc::vec::IntoIter<T>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.store.vec.into_iter()
    }
}

impl<'a, T, A> IntoIterator for &'a ReadWriteCollection<T, A> {
    type Item = &'a T;
    type IntoIter = core::slice::Iter<'a, T>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T, A> IntoIterator for &'a mut ReadWriteCollection<T, A> {
    type Item = &'a mut T;
    type IntoIter = core::slice::IterMut<'a, T>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

/// One-expression configuration; see [`Builder`](crate::Builder).
impl<T> ReadWriteCollection<T> {
    /// A [`Builder`](crate::Builder): capacity, bound, mode, shrink policy,
    /// predicate and hook in one expression.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let c = ReadWriteCollection::builder()
    ///     .bounded(8)
    ///     .unordered()
    ///     .auto_remove(|n: &u8| *n == 0)
    ///     .build();
    /// assert_eq!(c.max_len(), Some(8));
    /// ```
    pub const fn builder() -> crate::Builder<T> {
        crate::Builder::new()
    }
}

/// Removal sinks: passes that hand every removed element to a closure.
impl<T, A: AutoRemove<T>> ReadWriteCollection<T, A> {
    /// Starts a traversal whose removed elements (auto-removed and
    /// [removed](crate::SinkEntry::remove) by the loop) go to `sink`, in
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
    pub fn cursor_with_sink<S: FnMut(T)>(&mut self, sink: S) -> crate::SinkCursor<'_, T, S, A> {
        crate::SinkCursor::new(self.cursor(), sink)
    }

    /// The closure form of [`cursor_with_sink`](Self::cursor_with_sink):
    /// calls `f` on every entry, pushed ones included; every removed
    /// element goes to `sink`.
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
    ///             b.remove(); // hit something
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
        F: FnMut(crate::SinkEntry<'_, T, S>),
    {
        self.cursor_with_sink(sink).for_each(f);
    }
}

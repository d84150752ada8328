//! [`ReadWriteCollection`]'s settings: bound, mode, shrink policy, auto-remove policy.

use super::ReadWriteCollection;
use alloc::vec::Vec;

use crate::auto_remove::WithHook;
use crate::raw::Store;
use crate::settings::{Mode, ShrinkPolicy};

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
        self.store.max_len()
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
        self.store.set_max_len(max);
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
        self.store.mode()
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
        self.store.set_mode(mode);
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
    /// [`Entry::remove`](crate::Entry::remove), which returns them itself).
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

//! [`BufferedCollection`]'s settings: bound, mode, shrink policy, auto-remove policy.

use super::BufferedCollection;
use crate::auto_remove::WithHook;

/// Settings: the bound (maximum length, of the visible and pending elements
/// together), the traversal mode, the shrink policy and the auto-remove
/// policy, as on [`ReadWriteCollection`](crate::ReadWriteCollection).
impl<T, A> BufferedCollection<T, A> {
    /// The bound: the maximum number of visible and pending elements
    /// together, or `None` if the collection is unbounded.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// assert_eq!(BufferedCollection::<u8>::bounded(8).max_len(), Some(8));
    /// assert_eq!(BufferedCollection::<u8>::new().max_len(), None);
    /// ```
    #[inline]
    pub fn max_len(&self) -> Option<usize> {
        (self.max != usize::MAX).then_some(self.max)
    }

    /// Sets (or with `None` lifts) the bound of [`bounded`](Self::bounded).
    /// Producers blocked on a full collection re-check at once.
    ///
    /// # Panics
    ///
    /// If the collection already holds more than `max` elements (visible
    /// and pending, producers' included).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// let mut c = BufferedCollection::with_auto_remove(|n: &u8| *n == 0);
    /// c.set_max_len(Some(1));
    /// c.push(5);
    /// assert!(c.try_push(6).is_err());
    /// c.set_max_len(None);
    /// assert!(c.try_push(6).is_ok());
    /// ```
    #[track_caller]
    pub fn set_max_len(&mut self, max: Option<usize>) {
        let max = max.unwrap_or(usize::MAX);
        // With producers, the check and the new bound are one locked step:
        // no push can slip in between.
        #[cfg(feature = "std")]
        let fits = self.link.set_max(max, self.owned());
        #[cfg(not(feature = "std"))]
        let fits = self.owned() <= max;
        assert!(
            fits,
            "the collection holds more than the new maximum length"
        );
        self.max = max;
        self.store.max = max;
    }

    /// How traversals fill removed slots.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{BufferedCollection, Mode};
    ///
    /// let q: BufferedCollection<u8> = BufferedCollection::new();
    /// assert_eq!(q.mode(), Mode::Ordered);
    /// ```
    #[inline]
    pub fn mode(&self) -> crate::settings::Mode {
        self.store.mode()
    }

    /// Sets how traversals fill removed slots: [`Mode::Unordered`](crate::Mode::Unordered)
    /// moves the last visible element into a removed one's slot (fewer
    /// moves, order not kept). Pending elements are appended in order by
    /// `commit` either way.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{BufferedCollection, Mode};
    ///
    /// let mut q: BufferedCollection<u8> = vec![1, 2, 3].into();
    /// q.set_mode(Mode::Unordered);
    /// q.traverse(|e| if *e == 1 { e.remove(); });
    /// assert_eq!(q.as_slice(), [3, 2]);
    /// ```
    #[inline]
    pub fn set_mode(&mut self, mode: crate::settings::Mode) {
        self.store.set_mode(mode);
    }

    /// The shrink policy, if any.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::BufferedCollection;
    ///
    /// assert_eq!(BufferedCollection::<u8>::new().shrink_policy(), None);
    /// ```
    #[inline]
    pub fn shrink_policy(&self) -> Option<crate::settings::ShrinkPolicy> {
        self.store.shrink
    }

    /// Sets (or with `None` turns off) the shrink policy of the visible
    /// elements' buffer, applied when a traversal ends; see
    /// [`ShrinkPolicy`](crate::ShrinkPolicy).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{BufferedCollection, ShrinkPolicy};
    ///
    /// let mut q: BufferedCollection<u8> = BufferedCollection::new();
    /// q.set_shrink_policy(Some(ShrinkPolicy::new(10, 30)));
    /// assert_eq!(q.shrink_policy(), Some(ShrinkPolicy::new(10, 30)));
    /// ```
    #[inline]
    pub fn set_shrink_policy(&mut self, policy: Option<crate::settings::ShrinkPolicy>) {
        self.store.shrink = policy;
        self.store.low_passes = 0;
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
            max: self.max,
            #[cfg(feature = "std")]
            link: self.link,
            #[cfg(feature = "std")]
            producers_made: self.producers_made,
        }
    }
}

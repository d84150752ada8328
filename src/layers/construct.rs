//! [`Layers`]' constructors.

use alloc::vec::Vec;

use super::key::check_count;
use super::{LayerKey, Layers, Slot};
use crate::collection::ReadWriteCollection;

/// Constructors.
impl<T, K: LayerKey> Layers<T, K> {
    /// `count` empty, enabled, visible (drawn) layers without auto-remove policy
    /// or bound; use [`from_collections`](Layers::from_collections) for
    /// layers with a policy, a bound or unordered mode. For a key type
    /// with a fixed number of layers, [`Layers::default`] needs no count.
    ///
    /// # Panics
    ///
    /// If `K` fixes another number of layers ([`LayerKey::COUNT`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let layers: Layers<u8> = Layers::new(3);
    /// assert_eq!(layers.layer_count(), 3);
    /// assert!(layers.is_empty());
    /// ```
    #[must_use]
    #[track_caller]
    pub fn new(count: usize) -> Self {
        Self::from_collections((0..count).map(|_| ReadWriteCollection::new()))
    }
}

/// Constructors from collections: each layer its own bound, mode, shrink
/// policy and (same-typed) auto-remove policy.
impl<T, K: LayerKey, A> Layers<T, K, A> {
    /// Layers made of the given collections, in order, all enabled and
    /// visible. Lets each layer have its own bound, mode, shrink policy
    /// and (same-typed) auto-remove policy.
    ///
    /// # Panics
    ///
    /// If `K` fixes another number of layers ([`LayerKey::COUNT`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{Layers, ReadWriteCollection};
    ///
    /// let expired = |ttl: &u32| *ttl == 0;
    /// let mut particles = ReadWriteCollection::with_auto_remove(expired);
    /// particles.set_max_len(Some(1000));
    /// let actors = ReadWriteCollection::with_auto_remove(expired);
    /// let layers: Layers<u32, usize, _> = Layers::from_collections([actors, particles]);
    /// assert_eq!(layers.layer(1).max_len(), Some(1000));
    /// ```
    #[must_use]
    #[track_caller]
    pub fn from_collections<I>(collections: I) -> Self
    where
        I: IntoIterator<Item = ReadWriteCollection<T, A>>,
    {
        let slots: Vec<_> = collections
            .into_iter()
            .map(|items| Slot {
                items,
                enabled: true,
                visible: true,
            })
            .collect();
        check_count::<K>(slots.len());
        Self::from_slots(slots)
    }
}

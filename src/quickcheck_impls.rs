//! [`quickcheck::Arbitrary`] for the collections (feature `quickcheck`), so
//! downstream property tests can take them as arguments.

use alloc::boxed::Box;
use alloc::vec::Vec;

use quickcheck::{Arbitrary, Gen};

use crate::auto_remove::AutoRemove;
use crate::buffered::BufferedCollection;
use crate::collection::ReadWriteCollection;
use crate::keyed::{Key, KeyedCollection};
use crate::layers::{LayerKey, Layers, Slot};

/// Generates and shrinks the elements exactly as `Vec<T>` does. A
/// generated collection is unbounded, in
/// [`Mode::Ordered`](crate::Mode::Ordered), with no shrink policy and
/// `A::default()` as its auto-remove policy; use
/// [`quickcheck_like`](ReadWriteCollection::quickcheck_like) for other
/// settings.
///
/// Shrinking keeps the settings of the collection being shrunk (maximum
/// length, mode, shrink policy, a clone of its auto-remove policy), so a
/// failing bounded input shrinks to smaller bounded inputs.
///
/// This impl needs `A: Default` to generate. For a policy without one (a
/// `fn` pointer, a closure's type), wrap the collection in your own type,
/// generate with [`quickcheck_like`](ReadWriteCollection::quickcheck_like)
/// and shrink with
/// [`quickcheck_shrink`](ReadWriteCollection::quickcheck_shrink), which
/// needs no `Default` (see its example).
///
/// # Examples
///
/// ```
/// use quickcheck::{quickcheck, TestResult};
/// use read_write_collection::ReadWriteCollection;
///
/// fn removing_evens_keeps_odds(mut c: ReadWriteCollection<u8>) -> bool {
///     let odds: Vec<u8> = c.iter().copied().filter(|n| n % 2 == 1).collect();
///     c.traverse(|e| if *e % 2 == 0 { e.remove(); });
///     c == odds
/// }
/// quickcheck(removing_evens_keeps_odds as fn(_) -> bool);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "quickcheck")))]
impl<T, A> Arbitrary for ReadWriteCollection<T, A>
where
    T: Arbitrary,
    A: AutoRemove<T> + Default + Clone + 'static,
{
    fn arbitrary(g: &mut Gen) -> Self {
        let mut c = ReadWriteCollection::with_policy(A::default());
        c.extend(Vec::<T>::arbitrary(g));
        c
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        self.quickcheck_shrink()
    }
}

/// Test helpers (`quickcheck`): generating and shrinking with this
/// collection's settings.
#[cfg_attr(docsrs, doc(cfg(feature = "quickcheck")))]
impl<T: Arbitrary, A: Clone> ReadWriteCollection<T, A> {
    /// Generates a collection with this one's settings (maximum length,
    /// [`Mode`](crate::Mode), shrink policy, a clone of its auto-remove
    /// policy), with elements generated as `Vec<T>` generates them and cut
    /// to the maximum length. This collection's elements are not used.
    /// [`shrink`](Arbitrary::shrink) keeps the settings too.
    ///
    /// # Examples
    ///
    /// ```
    /// use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// #[derive(Clone, Debug)]
    /// struct Particles(ReadWriteCollection<u8>);
    ///
    /// impl Arbitrary for Particles {
    ///     fn arbitrary(g: &mut Gen) -> Self {
    ///         Particles(ReadWriteCollection::bounded(8).quickcheck_like(g))
    ///     }
    ///     fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
    ///         Box::new(self.0.shrink().map(Particles))
    ///     }
    /// }
    ///
    /// fn never_over_the_cap(Particles(mut c): Particles) -> bool {
    ///     while c.try_push(0).is_ok() {}
    ///     c.len() == 8 && c.max_len() == Some(8)
    /// }
    /// QuickCheck::new().quickcheck(never_over_the_cap as fn(_) -> bool);
    /// ```
    pub fn quickcheck_like(&self, g: &mut Gen) -> Self {
        let mut items = Vec::<T>::arbitrary(g);
        items.truncate(self.max_len().unwrap_or(usize::MAX));
        let mut c = self.empty_like(self.policy().clone());
        c.extend(items);
        c
    }

    /// Smaller collections to try after this one failed a property, as
    /// [`Arbitrary::shrink`] gives them (the elements shrink as a `Vec<T>`
    /// shrinks), each with this collection's settings and a clone of its
    /// policy. Unlike the `Arbitrary` impl, this needs no `A: Default`: it
    /// is the `shrink` to call for a collection whose policy has no
    /// default (a closure's type or a `fn` pointer), which can only be
    /// generated through a wrapper type and
    /// [`quickcheck_like`](Self::quickcheck_like).
    ///
    /// # Examples
    ///
    /// ```
    /// use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// type Expiry = fn(&u8) -> bool; // no `Default`
    /// fn expired(ttl: &u8) -> bool { *ttl == 0 }
    ///
    /// #[derive(Clone, Debug)]
    /// struct Sparks(ReadWriteCollection<u8, Expiry>);
    ///
    /// impl Arbitrary for Sparks {
    ///     fn arbitrary(g: &mut Gen) -> Self {
    ///         let template = ReadWriteCollection::with_auto_remove(expired as Expiry);
    ///         Sparks(template.quickcheck_like(g))
    ///     }
    ///     fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
    ///         Box::new(self.0.quickcheck_shrink().map(Sparks))
    ///     }
    /// }
    ///
    /// fn prune_leaves_no_spent_sparks(Sparks(mut c): Sparks) -> bool {
    ///     c.prune();
    ///     c.iter().all(|ttl| *ttl > 0)
    /// }
    /// QuickCheck::new().quickcheck(prune_leaves_no_spent_sparks as fn(_) -> bool);
    ///
    /// // What a failing property would be handed: smaller, same policy.
    /// let mut c = ReadWriteCollection::with_auto_remove(expired as Expiry);
    /// c.extend([3, 0, 7]);
    /// let mut smaller = c.quickcheck_shrink().next().unwrap();
    /// assert!(smaller.len() < 3);
    /// smaller.push(0);
    /// smaller.prune(); // the cloned predicate
    /// assert!(!smaller.contains(&0));
    /// ```
    pub fn quickcheck_shrink(&self) -> Box<dyn Iterator<Item = Self>>
    where
        T: 'static,
        A: 'static,
    {
        let template = self.empty_like(self.policy().clone());
        Box::new(self.to_vec().shrink().map(move |items| {
            let mut c = template.empty_like(template.policy().clone());
            // A shrunk `Vec` is never longer than the original.
            c.extend(items);
            c
        }))
    }
}

/// Generates visible and pending elements, each as a `Vec<T>`, and shrinks
/// them as the pair `(visible, pending)`. Nothing is committed. A
/// generated collection is unbounded, in
/// [`Mode::Ordered`](crate::Mode::Ordered), with no shrink policy and
/// `A::default()` as its policy; use
/// [`quickcheck_like`](BufferedCollection::quickcheck_like) for other
/// settings.
///
/// Shrinking keeps the settings of the collection being shrunk (maximum
/// length, mode, shrink policy, a clone of its auto-remove policy), so a
/// failing bounded queue shrinks to smaller bounded queues; see
/// [`quickcheck_shrink`](BufferedCollection::quickcheck_shrink).
///
/// # Examples
///
/// ```
/// use quickcheck::quickcheck;
/// use read_write_collection::BufferedCollection;
///
/// fn commit_appends_pending(mut c: BufferedCollection<u8>) -> bool {
///     let mut expected = c.to_vec();
///     expected.extend_from_slice(c.local_pending());
///     c.commit();
///     c.as_slice() == expected.as_slice() && c.local_pending().is_empty()
/// }
/// quickcheck(commit_appends_pending as fn(_) -> bool);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "quickcheck")))]
impl<T, A> Arbitrary for BufferedCollection<T, A>
where
    T: Arbitrary,
    A: AutoRemove<T> + Default + Clone + 'static,
{
    fn arbitrary(g: &mut Gen) -> Self {
        let empty = BufferedCollection::with_policy(A::default());
        empty.with_parts(Vec::arbitrary(g), Vec::arbitrary(g))
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        self.quickcheck_shrink()
    }
}

/// Test helpers (`quickcheck`): generating and shrinking with this
/// queue's settings.
#[cfg_attr(docsrs, doc(cfg(feature = "quickcheck")))]
impl<T: Arbitrary, A: AutoRemove<T> + Clone> BufferedCollection<T, A> {
    /// Generates a queue with this one's settings (maximum length,
    /// [`Mode`](crate::Mode), shrink policy, a clone of its auto-remove
    /// policy). The visible and the pending elements are generated as two
    /// `Vec<T>`s are; when together they are over the maximum length, both
    /// are cut in proportion, so a full queue still has elements on both
    /// sides. Nothing is committed. This queue's elements are not used.
    ///
    /// [`quickcheck_shrink`](Self::quickcheck_shrink) (and
    /// [`shrink`](Arbitrary::shrink)) keep the settings too.
    ///
    /// # Examples
    ///
    /// ```
    /// use quickcheck::{Arbitrary, Gen, QuickCheck};
    /// use read_write_collection::{BufferedCollection, Builder, Mode};
    ///
    /// #[derive(Clone, Debug)]
    /// struct Events(BufferedCollection<u8>);
    ///
    /// impl Arbitrary for Events {
    ///     fn arbitrary(g: &mut Gen) -> Self {
    ///         let template = Builder::new().bounded(8).unordered().build_buffered();
    ///         Events(template.quickcheck_like(g))
    ///     }
    ///     fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
    ///         Box::new(self.0.quickcheck_shrink().map(Events))
    ///     }
    /// }
    ///
    /// fn commit_stays_under_the_cap(Events(mut q): Events) -> bool {
    ///     while q.try_push(0).is_ok() {}
    ///     q.commit();
    ///     q.len() == 8 && q.max_len() == Some(8) && q.mode() == Mode::Unordered
    /// }
    /// QuickCheck::new().quickcheck(commit_stays_under_the_cap as fn(_) -> bool);
    /// ```
    pub fn quickcheck_like(&self, g: &mut Gen) -> Self {
        let mut visible = Vec::<T>::arbitrary(g);
        let mut pending = Vec::<T>::arbitrary(g);
        if let Some(max) = self.max_len() {
            let total = visible.len() + pending.len();
            if total > max {
                // `visible.len() * max < total * total`: no overflow in `u128`.
                let keep = (visible.len() as u128 * max as u128 / total as u128) as usize;
                visible.truncate(keep);
                pending.truncate(max - keep);
            }
        }
        self.empty_like().with_parts(visible, pending)
    }

    /// Smaller queues to try after this one failed a property: the pair
    /// `(visible, pending)` shrinks as a pair of `Vec<T>`s does, and every
    /// candidate has this queue's settings (maximum length,
    /// [`Mode`](crate::Mode), shrink policy) and a clone of its policy.
    /// Nothing is committed. Unlike the `Arbitrary` impl, this needs no
    /// `A: Default`, so it also shrinks a queue whose policy has no default
    /// (a closure's type, a `fn` pointer), generated through a wrapper type
    /// and [`quickcheck_like`](Self::quickcheck_like).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{BufferedCollection, Builder};
    ///
    /// type Expiry = fn(&u8) -> bool; // no `Default`
    /// fn expired(ttl: &u8) -> bool { *ttl == 0 }
    ///
    /// let mut q = Builder::new().bounded(4).policy(expired as Expiry).build_buffered();
    /// q.extend([3, 0]);
    /// q.commit();
    /// q.push(7);
    /// for smaller in q.quickcheck_shrink() {
    ///     assert_eq!(smaller.max_len(), Some(4));
    ///     assert!(smaller.len() + smaller.local_pending().len() <= 3);
    /// }
    /// let mut smaller = q.quickcheck_shrink().next().unwrap();
    /// smaller.clear();
    /// smaller.extend([0, 5]);
    /// smaller.commit();
    /// smaller.prune(); // the cloned predicate
    /// assert_eq!(smaller.as_slice(), [5]);
    /// ```
    pub fn quickcheck_shrink(&self) -> Box<dyn Iterator<Item = Self>>
    where
        T: 'static,
        A: 'static,
    {
        let template = self.empty_like();
        let parts = (self.to_vec(), self.local_pending().to_vec());
        Box::new(
            parts
                .shrink()
                // A shrunk `Vec` is never longer than the original: the
                // pair stays within the bound.
                .map(move |(visible, pending)| template.empty_like().with_parts(visible, pending)),
        )
    }
}

/// Generates exactly [`K::COUNT`](crate::LayerKey::COUNT) layers when the
/// key fixes the number (one per variant of a
/// [`layer_keys!`](crate::layer_keys!) enum), one to four otherwise
/// (`usize` keys). Each layer's elements are generated as a `Vec<T>`, with
/// `A::default()` as its policy, and each layer is enabled and visible or
/// not, so properties reach disabled and hidden layers. Use
/// [`quickcheck_like`](Layers::quickcheck_like) for layers with other
/// settings.
///
/// Shrinking keeps the number of layers when the key fixes it (and drops
/// the last layer otherwise), then shrinks as
/// [`quickcheck_shrink`](Layers::quickcheck_shrink) does: every layer
/// keeps its settings and a clone of its policy.
///
/// # Examples
///
/// ```
/// use quickcheck::quickcheck;
/// use read_write_collection::{layer_keys, Layers};
///
/// layer_keys!(enum Layer { Ground, Ships, Hud });
///
/// fn every_key_has_its_layer(layers: Layers<u8, Layer>) -> bool {
///     layers.layer_count() == 3 && Layer::ALL.iter().all(|&k| layers.layer(k).len() < 1000)
/// }
/// quickcheck(every_key_has_its_layer as fn(_) -> bool);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "quickcheck")))]
impl<T, K, A> Arbitrary for Layers<T, K, A>
where
    T: Arbitrary,
    K: LayerKey + 'static,
    A: AutoRemove<T> + Default + Clone + 'static,
{
    fn arbitrary(g: &mut Gen) -> Self {
        let count = K::COUNT.unwrap_or_else(|| usize::arbitrary(g) % 4 + 1);
        let slots = (0..count)
            .map(|_| Slot {
                items: ReadWriteCollection::arbitrary(g),
                enabled: bool::arbitrary(g),
                visible: bool::arbitrary(g),
            })
            .collect();
        Layers::from_slots(slots)
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        // Fewer layers, if the key allows any number.
        let fewer = (K::COUNT.is_none() && self.layer_count() > 1).then(|| {
            let mut fewer = self.clone();
            fewer.slots.pop();
            fewer
        });
        Box::new(fewer.into_iter().chain(self.quickcheck_shrink()))
    }
}

/// Test helpers (`quickcheck`): generating and shrinking with these
/// layers' settings.
#[cfg_attr(docsrs, doc(cfg(feature = "quickcheck")))]
impl<T: Arbitrary, K: LayerKey, A: Clone> Layers<T, K, A> {
    /// Generates layers with these layers' settings: as many layers, each
    /// generated as its template layer's
    /// [`quickcheck_like`](ReadWriteCollection::quickcheck_like) generates
    /// (the same maximum length, [`Mode`](crate::Mode), shrink policy and a
    /// clone of its auto-remove policy), and enabled and visible or not, as
    /// the `Arbitrary` impl makes them. These layers' elements and flags
    /// are not used.
    ///
    /// [`quickcheck_shrink`](Self::quickcheck_shrink) keeps the settings
    /// and the number of layers too.
    ///
    /// # Examples
    ///
    /// ```
    /// use quickcheck::{Arbitrary, Gen, QuickCheck};
    /// use read_write_collection::{layer_keys, Builder, Layers, Mode};
    ///
    /// layer_keys!(enum Layer { Ships, Sparks });
    ///
    /// #[derive(Clone, Debug)]
    /// struct World(Layers<u8, Layer>);
    ///
    /// impl Arbitrary for World {
    ///     fn arbitrary(g: &mut Gen) -> Self {
    ///         let ships = Builder::new().bounded(4).build();
    ///         let sparks = Builder::new().bounded(16).unordered().build();
    ///         World(Layers::from_collections([ships, sparks]).quickcheck_like(g))
    ///     }
    ///     fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
    ///         Box::new(self.0.quickcheck_shrink().map(World))
    ///     }
    /// }
    ///
    /// fn layers_keep_their_caps(World(mut w): World) -> bool {
    ///     while w.try_push(Layer::Sparks, 0).is_ok() {}
    ///     w.layer(Layer::Sparks).len() == 16
    ///         && w.layer(Layer::Sparks).mode() == Mode::Unordered
    ///         && w.layer(Layer::Ships).len() <= 4
    /// }
    /// QuickCheck::new().quickcheck(layers_keep_their_caps as fn(_) -> bool);
    /// ```
    pub fn quickcheck_like(&self, g: &mut Gen) -> Self {
        let slots = self
            .slots
            .iter()
            .map(|slot| Slot {
                items: slot.items.quickcheck_like(g),
                enabled: bool::arbitrary(g),
                visible: bool::arbitrary(g),
            })
            .collect();
        // As many layers as `self`, whose key accepts that number.
        Layers::from_slots(slots)
    }

    /// Smaller layers to try after these failed a property: all layers
    /// switched back on (enabled and visible), then each layer's elements
    /// shrunk as a `Vec<T>` shrinks, one layer at a time. Every candidate
    /// has as many layers as these, and every layer keeps its settings
    /// (maximum length, [`Mode`](crate::Mode), shrink policy) and a clone
    /// of its policy. Unlike the `Arbitrary` impl, this needs no
    /// `A: Default` (see [`quickcheck_like`](Self::quickcheck_like) for
    /// the wrapper type that uses it).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{Builder, Layers};
    ///
    /// let mut layers: Layers<u8> = Builder::new().bounded(3).build_layers(2);
    /// layers.layer_mut(1).extend([9, 200]);
    /// layers.set_enabled(0, false);
    /// for smaller in layers.quickcheck_shrink() {
    ///     assert_eq!(smaller.layer_count(), 2);
    ///     assert_eq!(smaller.layer(1).max_len(), Some(3));
    ///     assert!(smaller.layer(1).len() <= 2);
    /// }
    /// // The first candidate turns every layer back on.
    /// assert!(layers.quickcheck_shrink().next().unwrap().is_enabled(0));
    /// ```
    pub fn quickcheck_shrink(&self) -> Box<dyn Iterator<Item = Self>>
    where
        T: 'static,
        K: 'static,
        A: 'static,
    {
        let original = self.clone();
        // Every layer switched back on.
        let flags = self
            .slots
            .iter()
            .any(|s| !s.enabled || !s.visible)
            .then(|| {
                let mut on = self.clone();
                on.slots.iter_mut().for_each(|s| {
                    s.enabled = true;
                    s.visible = true;
                });
                on
            });
        let layers = (0..self.layer_count()).flat_map(move |i| {
            let original = original.clone();
            original.slots[i]
                .items
                .quickcheck_shrink()
                .map(move |items| {
                    let mut smaller = original.clone();
                    smaller.slots[i].items = items;
                    smaller
                })
        });
        Box::new(flags.into_iter().chain(layers))
    }
}

/// Generates the elements as a `Vec<T>` and pushes them in order (the
/// keys a fresh collection hands out); shrinks as the `Vec` of its
/// elements, into collections with the settings of the one being shrunk.
/// A generated collection is unbounded and ordered, with `A::default()`
/// as its policy; use [`quickcheck_like`](KeyedCollection::quickcheck_like)
/// for other settings.
///
/// # Examples
///
/// ```
/// use quickcheck::quickcheck;
/// use read_write_collection::KeyedCollection;
///
/// fn keys_name_their_elements(c: KeyedCollection<u8>) -> bool {
///     c.iter().enumerate().all(|(i, (k, v))| c.index_of(k) == Some(i) && c[k] == *v)
/// }
/// quickcheck(keys_name_their_elements as fn(_) -> bool);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "quickcheck")))]
impl<T, K, A> Arbitrary for KeyedCollection<T, K, A>
where
    T: Arbitrary,
    K: Key + 'static,
    A: AutoRemove<T> + Default + Clone + 'static,
{
    fn arbitrary(g: &mut Gen) -> Self {
        KeyedCollection::<T, K>::with_policy(A::default()).quickcheck_like(g)
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let template = self.empty_like(self.policy().clone());
        Box::new(self.as_slice().to_vec().shrink().map(move |items| {
            let mut c = template.empty_like(template.policy().clone());
            for item in items {
                // A shrunk `Vec` is never longer than the original.
                let _ = c.try_push(item);
            }
            c
        }))
    }
}

/// Test helpers (`quickcheck`): generating with this collection's
/// settings.
#[cfg_attr(docsrs, doc(cfg(feature = "quickcheck")))]
impl<T: Arbitrary, K: Key, A: Clone> KeyedCollection<T, K, A> {
    /// Generates a collection with this one's settings (bound, mode, a
    /// clone of its policy), its elements generated as `Vec<T>` and cut
    /// to the bound. This collection's elements are not used.
    ///
    /// # Examples
    ///
    /// ```
    /// use quickcheck::Gen;
    /// use read_write_collection::KeyedCollection;
    ///
    /// let template: KeyedCollection<u8> = KeyedCollection::bounded(3);
    /// let c = template.quickcheck_like(&mut Gen::new(50));
    /// assert!(c.len() <= 3);
    /// assert_eq!(c.max_len(), Some(3));
    /// ```
    pub fn quickcheck_like(&self, g: &mut Gen) -> Self {
        let mut c = self.empty_like(self.policy().clone());
        for item in Vec::<T>::arbitrary(g) {
            if c.try_push(item).is_err() {
                break;
            }
        }
        c
    }
}

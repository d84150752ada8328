//! [`quickcheck::Arbitrary`] for the collections (feature `quickcheck`), so
//! downstream property tests can take them as arguments.

use alloc::boxed::Box;
use alloc::vec::Vec;

use quickcheck::{Arbitrary, Gen};

use crate::layers::{LayerKey, Layers, Slot};
use crate::{AutoRemove, BufferedCollection, ReadWriteCollection};

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
/// generated collection has `A::default()` as its policy; a shrunk one a
/// clone of the policy of the collection being shrunk.
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
        buffered(A::default(), Vec::arbitrary(g), Vec::arbitrary(g))
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let parts = (self.to_vec(), self.local_pending().to_vec());
        let policy = self.policy().clone();
        Box::new(
            parts
                .shrink()
                .map(move |(visible, pending)| buffered(policy.clone(), visible, pending)),
        )
    }
}

fn buffered<T, A: AutoRemove<T>>(
    policy: A,
    visible: Vec<T>,
    pending: Vec<T>,
) -> BufferedCollection<T, A> {
    let mut c = BufferedCollection::with_policy(policy);
    // A fresh collection has nothing pending and no producer: `commit`
    // moves exactly `visible` into the visible part.
    c.extend(visible);
    c.commit();
    c.extend(pending);
    c
}

/// Generates exactly [`K::COUNT`](crate::LayerKey::COUNT) layers when the
/// key fixes the number (one per variant of a
/// [`layer_keys!`](crate::layer_keys!) enum), one to four otherwise
/// (`usize` keys). Each layer's elements are generated as a `Vec<T>`, with
/// `A::default()` as its policy, and each layer is enabled and visible or
/// not, so properties reach disabled and hidden layers.
///
/// Shrinking keeps the number of layers when the key fixes it (and drops
/// the last layer otherwise), shrinks one layer's elements at a time
/// (keeping each layer's settings and a clone of its policy), and turns
/// disabled or hidden layers back on.
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
        let original = self.clone();
        // Fewer layers, if the key allows any number.
        let fewer = (K::COUNT.is_none() && self.layer_count() > 1).then(|| {
            let mut fewer = self.clone();
            fewer.slots.pop();
            fewer
        });
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
        Box::new(fewer.into_iter().chain(flags).chain(layers))
    }
}

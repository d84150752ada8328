//! [`arbitrary::Arbitrary`] for the collections (feature `arbitrary`), so
//! downstream fuzz targets can take them as input or derive `Arbitrary` for
//! types that contain them.

use alloc::vec::Vec;

use arbitrary::{Arbitrary, Result, Unstructured};

use crate::auto_remove::AutoRemove;
use crate::buffered::BufferedCollection;
use crate::collection::ReadWriteCollection;
use crate::keyed::{Key, KeyedCollection};
use crate::layers::{LayerKey, Layers, Slot};

/// Generates the elements exactly as `Vec<T>` does (the same bytes give the
/// same elements, in the same order). The collection is unbounded, in
/// [`Mode::Ordered`](crate::Mode::Ordered), with no shrink policy and
/// `A::default()` as its auto-remove policy.
///
/// For a field that must keep a bound or a mode, use
/// [`arbitrary_like`](ReadWriteCollection::arbitrary_like) through
/// `#[arbitrary(with = …)]`.
///
/// # Examples
///
/// ```
/// use arbitrary::{Arbitrary, Unstructured};
/// use read_write_collection::ReadWriteCollection;
///
/// let bytes = [1, 10, 1, 20, 0];
/// let c = ReadWriteCollection::<u8>::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
/// let v = Vec::<u8>::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
/// assert_eq!(c, v);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a, T, A> Arbitrary<'a> for ReadWriteCollection<T, A>
where
    T: Arbitrary<'a>,
    A: AutoRemove<T> + Default,
{
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let mut c = ReadWriteCollection::with_policy(A::default());
        for value in u.arbitrary_iter()? {
            c.push(value?);
        }
        Ok(c)
    }

    fn arbitrary_take_rest(u: Unstructured<'a>) -> Result<Self> {
        let mut c = ReadWriteCollection::with_policy(A::default());
        for value in u.arbitrary_take_rest_iter()? {
            c.push(value?);
        }
        Ok(c)
    }

    #[inline]
    fn size_hint(depth: usize) -> (usize, Option<usize>) {
        <Vec<T> as Arbitrary<'a>>::size_hint(depth)
    }
}

/// Generates the visible elements, then the pending ones, each as a
/// `Vec<T>` would be generated. Nothing is committed: the pending elements
/// stay pending until [`commit`](BufferedCollection::commit). The queue is
/// unbounded, in [`Mode::Ordered`](crate::Mode::Ordered), with no shrink
/// policy and `A::default()` as its policy; for other settings, use
/// [`arbitrary_like`](BufferedCollection::arbitrary_like).
///
/// # Examples
///
/// ```
/// use arbitrary::{Arbitrary, Unstructured};
/// use read_write_collection::BufferedCollection;
///
/// // Visible: [7]; pending: [8, 9].
/// let bytes = [1, 7, 0, 1, 8, 1, 9, 0];
/// let c = BufferedCollection::<u8>::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
/// assert_eq!(c.as_slice(), [7]);
/// assert_eq!(c.local_pending(), [8, 9]);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a, T, A> Arbitrary<'a> for BufferedCollection<T, A>
where
    T: Arbitrary<'a>,
    A: AutoRemove<T> + Default,
{
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let visible: Vec<T> = u.arbitrary()?;
        let pending: Vec<T> = u.arbitrary()?;
        Ok(buffered(visible, pending))
    }

    fn arbitrary_take_rest(mut u: Unstructured<'a>) -> Result<Self> {
        let visible: Vec<T> = u.arbitrary()?;
        let pending: Vec<T> = u.arbitrary_take_rest_iter()?.collect::<Result<_>>()?;
        Ok(buffered(visible, pending))
    }

    #[inline]
    fn size_hint(depth: usize) -> (usize, Option<usize>) {
        arbitrary::size_hint::and(
            <Vec<T> as Arbitrary<'a>>::size_hint(depth),
            <Vec<T> as Arbitrary<'a>>::size_hint(depth),
        )
    }
}

fn buffered<T, A: AutoRemove<T> + Default>(
    visible: Vec<T>,
    pending: Vec<T>,
) -> BufferedCollection<T, A> {
    BufferedCollection::with_policy(A::default()).with_parts(visible, pending)
}

/// Test helpers (`arbitrary`): generating a collection with this one's
/// settings.
#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<T, A: Clone> ReadWriteCollection<T, A> {
    /// Generates a collection with this one's settings: its maximum length
    /// (generation stops there), [`Mode`](crate::Mode), shrink policy and a
    /// clone of its auto-remove policy. This collection's elements are not
    /// used. Within the bound, the elements are generated as `Vec<T>`
    /// generates them.
    ///
    /// This is the way to keep a bound or a mode in a
    /// `#[derive(Arbitrary)]` type: `#[arbitrary(with = …)]` takes a
    /// closure. The template must have the field's type: for a field with
    /// a policy (`ReadWriteCollection<T, Spent>`),
    /// `ReadWriteCollection::bounded(16)` is a `ReadWriteCollection<T>`,
    /// so build the template with [`Builder`](crate::Builder), which sets
    /// the bound, the mode and the policy together (second example).
    ///
    /// # Errors
    ///
    /// As [`Arbitrary::arbitrary`] (the data ran out where an element
    /// needed more).
    ///
    /// # Examples
    ///
    /// ```
    /// use arbitrary::{Arbitrary, Unstructured};
    /// use read_write_collection::{Mode, ReadWriteCollection};
    ///
    /// #[derive(Arbitrary, Debug)]
    /// struct World {
    ///     #[arbitrary(with = |u: &mut Unstructured| ReadWriteCollection::bounded(4).arbitrary_like(u))]
    ///     particles: ReadWriteCollection<u8>,
    ///     #[arbitrary(with = |u: &mut Unstructured| ReadWriteCollection::unordered().arbitrary_like(u))]
    ///     bullets: ReadWriteCollection<u16>,
    /// }
    ///
    /// let world = World::arbitrary(&mut Unstructured::new(&[1; 64])).unwrap();
    /// assert_eq!(world.particles.max_len(), Some(4));
    /// assert!(world.particles.len() <= 4);
    /// assert_eq!(world.bullets.mode(), Mode::Unordered);
    /// ```
    ///
    /// A field whose type has a policy:
    ///
    /// ```
    /// use arbitrary::{Arbitrary, Unstructured};
    /// use read_write_collection::{remove_when, Builder, Mode, ReadWriteCollection};
    ///
    /// remove_when!(struct Spent for u32: |ttl| *ttl == 0);
    ///
    /// #[derive(Arbitrary, Debug)]
    /// struct World {
    ///     #[arbitrary(with = |u: &mut Unstructured| {
    ///         Builder::new().bounded(16).unordered().policy(Spent).build().arbitrary_like(u)
    ///     })]
    ///     sparks: ReadWriteCollection<u32, Spent>,
    /// }
    ///
    /// let mut world = World::arbitrary(&mut Unstructured::new(&[1; 256])).unwrap();
    /// assert_eq!(world.sparks.max_len(), Some(16));
    /// assert_eq!(world.sparks.mode(), Mode::Unordered);
    /// world.sparks.clear();
    /// world.sparks.extend([0, 3]);
    /// world.sparks.prune(); // the policy came with the template
    /// assert_eq!(world.sparks, [3]);
    /// ```
    pub fn arbitrary_like<'a>(&self, u: &mut Unstructured<'a>) -> Result<Self>
    where
        T: Arbitrary<'a>,
    {
        let mut c = self.empty_like(self.policy().clone());
        if c.is_full() {
            return Ok(c);
        }
        for value in u.arbitrary_iter()? {
            c.push(value?);
            if c.is_full() {
                break;
            }
        }
        Ok(c)
    }
}

/// Test helpers (`arbitrary`): generating a queue with this one's
/// settings.
#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<T, A: AutoRemove<T> + Clone> BufferedCollection<T, A> {
    /// Generates a queue with this one's settings: its maximum length
    /// (generation stops there), [`Mode`](crate::Mode), shrink policy and
    /// a clone of its auto-remove policy. This queue's elements are not
    /// used. Within the bound, the visible elements, then the pending ones
    /// are generated as the `Arbitrary` impl generates them (each as a
    /// `Vec<T>`); nothing is committed.
    ///
    /// This is the way to keep a bound or a mode in a
    /// `#[derive(Arbitrary)]` type, through `#[arbitrary(with = …)]`; build
    /// a template with a policy with [`Builder`](crate::Builder).
    ///
    /// # Errors
    ///
    /// As [`Arbitrary::arbitrary`] (the data ran out where an element
    /// needed more).
    ///
    /// # Examples
    ///
    /// ```
    /// use arbitrary::{Arbitrary, Unstructured};
    /// use read_write_collection::{remove_when, BufferedCollection, Builder, Mode};
    ///
    /// remove_when!(struct Spent for u8: |ttl| *ttl == 0);
    ///
    /// #[derive(Arbitrary, Debug)]
    /// struct Frame {
    ///     #[arbitrary(with = |u: &mut Unstructured| BufferedCollection::bounded(4).arbitrary_like(u))]
    ///     events: BufferedCollection<u8>,
    ///     #[arbitrary(with = |u: &mut Unstructured| {
    ///         Builder::new().bounded(8).unordered().policy(Spent).build_buffered().arbitrary_like(u)
    ///     })]
    ///     timers: BufferedCollection<u8, Spent>,
    /// }
    ///
    /// let frame = Frame::arbitrary(&mut Unstructured::new(&[1; 64])).unwrap();
    /// assert_eq!(frame.events.max_len(), Some(4));
    /// assert_eq!(frame.events.len() + frame.events.pending_len(), 4); // full
    /// assert_eq!(frame.timers.max_len(), Some(8));
    /// assert_eq!(frame.timers.mode(), Mode::Unordered);
    ///
    /// // Visible, then pending: [7] and [8, 9] (a 1 byte: one more element).
    /// let q = BufferedCollection::<u8>::bounded(4);
    /// let q = q.arbitrary_like(&mut Unstructured::new(&[1, 7, 0, 1, 8, 1, 9, 0])).unwrap();
    /// assert_eq!((q.as_slice(), q.local_pending()), (&[7][..], &[8, 9][..]));
    /// ```
    pub fn arbitrary_like<'a>(&self, u: &mut Unstructured<'a>) -> Result<Self>
    where
        T: Arbitrary<'a>,
    {
        let mut room = self.max_len().unwrap_or(usize::MAX);
        let visible = take_up_to(u, &mut room)?;
        let pending = take_up_to(u, &mut room)?;
        Ok(self.empty_like().with_parts(visible, pending))
    }
}

/// Elements generated as `Vec<T>` generates them, stopping after `room`
/// of them; `room` is left with the rest.
fn take_up_to<'a, T: Arbitrary<'a>>(u: &mut Unstructured<'a>, room: &mut usize) -> Result<Vec<T>> {
    let mut items = Vec::new();
    if *room == 0 {
        return Ok(items);
    }
    for value in u.arbitrary_iter()? {
        items.push(value?);
        if items.len() == *room {
            break;
        }
    }
    *room -= items.len();
    Ok(items)
}

/// Generates exactly [`K::COUNT`](crate::LayerKey::COUNT) layers when the
/// key fixes the number (one per variant of a
/// [`layer_keys!`](crate::layer_keys!) enum), one to four otherwise
/// (`usize` keys). For each layer, in order: whether it is enabled, whether
/// it is visible, then its elements as a [`ReadWriteCollection`] generates
/// them (with `A::default()` as its policy). For layers with a bound, a
/// mode or a policy, use [`arbitrary_like`](Layers::arbitrary_like).
///
/// # Examples
///
/// ```
/// use arbitrary::{Arbitrary, Unstructured};
/// use read_write_collection::{layer_keys, Layers};
///
/// layer_keys!(enum Layer { Ground, Ships, Hud });
///
/// let layers = Layers::<u8, Layer>::arbitrary(&mut Unstructured::new(&[0; 8])).unwrap();
/// assert_eq!(layers.layer_count(), 3);
/// assert!(layers.layer(Layer::Hud).is_empty());
///
/// // Flags come from the data: here every layer is disabled and hidden.
/// assert!(!layers.is_enabled(Layer::Ships) && !layers.is_visible(Layer::Ships));
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a, T, K, A> Arbitrary<'a> for Layers<T, K, A>
where
    T: Arbitrary<'a>,
    K: LayerKey,
    A: AutoRemove<T> + Default,
{
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let count = match K::COUNT {
            Some(n) => n,
            None => u.int_in_range(1..=4)?,
        };
        let mut slots = Vec::with_capacity(count);
        for _ in 0..count {
            let enabled = u.arbitrary()?;
            let visible = u.arbitrary()?;
            slots.push(Slot {
                items: ReadWriteCollection::arbitrary(u)?,
                enabled,
                visible,
            });
        }
        Ok(Layers::from_slots(slots))
    }

    #[inline]
    fn size_hint(_depth: usize) -> (usize, Option<usize>) {
        // Data that runs out gives empty, disabled, hidden layers.
        (0, None)
    }
}

/// Test helpers (`arbitrary`): generating layers with these layers'
/// settings.
#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<T, K: LayerKey, A: Clone> Layers<T, K, A> {
    /// Generates layers with these layers' settings: as many layers, each
    /// generated as its template layer's
    /// [`arbitrary_like`](ReadWriteCollection::arbitrary_like) generates
    /// (the same maximum length, [`Mode`](crate::Mode), shrink policy and a
    /// clone of its auto-remove policy). These layers' elements and flags
    /// are not used. As in the `Arbitrary` impl, each layer reads, in
    /// order: whether it is enabled, whether it is visible, then its
    /// elements.
    ///
    /// # Errors
    ///
    /// As [`Arbitrary::arbitrary`] (the data ran out where an element
    /// needed more).
    ///
    /// # Examples
    ///
    /// ```
    /// use arbitrary::{Arbitrary, Unstructured};
    /// use read_write_collection::{layer_keys, Builder, Layers, Mode};
    ///
    /// layer_keys!(enum Layer { Ships, Sparks });
    ///
    /// fn template() -> Layers<u8, Layer> {
    ///     let ships = Builder::new().bounded(2).build();
    ///     let sparks = Builder::new().bounded(8).unordered().build();
    ///     Layers::from_collections([ships, sparks])
    /// }
    ///
    /// #[derive(Arbitrary, Debug)]
    /// struct World {
    ///     #[arbitrary(with = |u: &mut Unstructured| template().arbitrary_like(u))]
    ///     layers: Layers<u8, Layer>,
    /// }
    ///
    /// let world = World::arbitrary(&mut Unstructured::new(&[1; 64])).unwrap();
    /// let sparks = world.layers.layer(Layer::Sparks);
    /// assert_eq!((sparks.max_len(), sparks.mode()), (Some(8), Mode::Unordered));
    /// assert_eq!(world.layers.layer(Layer::Ships).len(), 2); // full: generation stopped there
    /// assert!(world.layers.is_enabled(Layer::Ships) && world.layers.is_visible(Layer::Ships));
    /// ```
    pub fn arbitrary_like<'a>(&self, u: &mut Unstructured<'a>) -> Result<Self>
    where
        T: Arbitrary<'a>,
    {
        let mut slots = Vec::with_capacity(self.slots.len());
        for slot in &self.slots {
            let enabled = u.arbitrary()?;
            let visible = u.arbitrary()?;
            slots.push(Slot {
                items: slot.items.arbitrary_like(u)?,
                enabled,
                visible,
            });
        }
        // As many layers as `self`, whose key accepts that number.
        Ok(Layers::from_slots(slots))
    }
}

/// Generates the elements exactly as `Vec<T>` does and pushes them in
/// order (their keys are the ones a fresh collection hands out). The
/// collection is unbounded, ordered, with `A::default()` as its policy;
/// for a bound or a mode, use
/// [`arbitrary_like`](KeyedCollection::arbitrary_like).
///
/// # Examples
///
/// ```
/// use arbitrary::{Arbitrary, Unstructured};
/// use read_write_collection::KeyedCollection;
///
/// let bytes = [1, 10, 1, 20, 0];
/// let c = KeyedCollection::<u8>::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
/// assert_eq!(c.as_slice(), [10, 20]);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a, T, K, A> Arbitrary<'a> for KeyedCollection<T, K, A>
where
    T: Arbitrary<'a>,
    K: Key,
    A: AutoRemove<T> + Default,
{
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        fill(
            KeyedCollection::with_policy(A::default()),
            u.arbitrary_iter()?,
        )
    }

    fn arbitrary_take_rest(u: Unstructured<'a>) -> Result<Self> {
        fill(
            KeyedCollection::with_policy(A::default()),
            u.arbitrary_take_rest_iter()?,
        )
    }

    #[inline]
    fn size_hint(depth: usize) -> (usize, Option<usize>) {
        <Vec<T> as Arbitrary<'a>>::size_hint(depth)
    }
}

/// Fuzzing helpers (`arbitrary`): generating with this collection's
/// settings.
#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<T, K: Key, A: Clone> KeyedCollection<T, K, A> {
    /// Generates a collection with this one's settings (bound, mode, a
    /// clone of its policy), its elements generated as `Vec<T>` and cut
    /// to the bound. This collection's elements are not used.
    ///
    /// # Errors
    ///
    /// When `u` runs out of bytes mid-element, as `Vec<T>`'s generation.
    ///
    /// # Examples
    ///
    /// ```
    /// use arbitrary::Unstructured;
    /// use read_write_collection::KeyedCollection;
    ///
    /// let template: KeyedCollection<u8> = KeyedCollection::bounded(1);
    /// let c = template.arbitrary_like(&mut Unstructured::new(&[1, 7, 1, 8, 0])).unwrap();
    /// assert_eq!((c.as_slice(), c.max_len()), (&[7][..], Some(1)));
    /// ```
    pub fn arbitrary_like<'a>(&self, u: &mut Unstructured<'a>) -> Result<Self>
    where
        T: Arbitrary<'a>,
    {
        fill(self.empty_like(self.policy().clone()), u.arbitrary_iter()?)
    }
}

/// Pushes `values` until the bound refuses one.
fn fill<T, K: Key, A>(
    mut c: KeyedCollection<T, K, A>,
    values: impl Iterator<Item = Result<T>>,
) -> Result<KeyedCollection<T, K, A>> {
    for value in values {
        if c.try_push(value?).is_err() {
            break;
        }
    }
    Ok(c)
}

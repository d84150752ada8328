//! Support for the `proptest` crate (feature `proptest`): strategies that
//! generate [`ReadWriteCollection`]s with a given bound and mode
//! ([`collection`], [`bounded`], [`like`]), queues and layers with the
//! settings of a template ([`buffered_like`], [`layers_like`]), and
//! `proptest::arbitrary::Arbitrary` for the collection types (so
//! `any::<ReadWriteCollection<u8>>()` works).
//!
//! Every value a strategy here produces, and every value it shrinks to,
//! has the strategy's settings: the same maximum length (and never more
//! elements than it), [`Mode`](crate::Mode), shrink policy and a clone of
//! the template's auto-remove policy. Shrinking removes elements and
//! shrinks the remaining ones, as `proptest::collection::vec` does.
//!
//! # Examples
//!
//! ```
//! use proptest::prelude::*;
//! use read_write_collection::proptest::bounded;
//!
//! proptest!(|(mut c in bounded(any::<u8>(), 8, 0..=8))| {
//!     prop_assert_eq!(c.max_len(), Some(8));
//!     while c.try_push(0).is_ok() {}
//!     prop_assert_eq!(c.len(), 8);
//! });
//! ```
//!
//! # Failure reports
//!
//! proptest reports the minimal failing input with its `Debug` form. A
//! collection with non-default settings prints them after its elements
//! (see [`ReadWriteCollection`]'s `Debug`), so the report alone is enough
//! to rebuild the input (`Builder::new().bounded(16).unordered()`, then
//! the items):
//!
//! ```
//! use proptest::prelude::*;
//! use proptest::test_runner::{Config, TestRunner};
//! use read_write_collection::proptest::like;
//! use read_write_collection::{Builder, ReadWriteCollection};
//!
//! let template: ReadWriteCollection<u8> = Builder::new().bounded(16).unordered().build();
//! let config = Config { cases: 64, failure_persistence: None, ..Config::default() };
//! let mut runner = TestRunner::new(config);
//! let report = runner
//!     .run(&like(&template, any::<u8>(), 0..=16), |c| {
//!         prop_assert!(c.iter().all(|&n| n < 200));
//!         Ok(())
//!     })
//!     .unwrap_err()
//!     .to_string();
//! // The minimal failing input: one element of 200 or more, and the settings.
//! assert!(report.contains("minimal failing input: ReadWriteCollection {"), "{report}");
//! assert!(report.contains("max_len: 16,"), "{report}");
//! assert!(report.contains("mode: Unordered,"), "{report}");
//! ```

use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use ::proptest::arbitrary::{any, Arbitrary};
use ::proptest::bool::BoolValueTree;
use ::proptest::collection::{vec, SizeRange, VecStrategy, VecValueTree};
use ::proptest::sample::{Index, IndexStrategy, IndexValueTree};
use ::proptest::strategy::{Map, NewTree, Strategy, ValueTree};
use ::proptest::test_runner::TestRunner;
use ::proptest::tuple::TupleValueTree;

use crate::auto_remove::{AutoRemove, NoAutoRemove};
use crate::buffered::BufferedCollection;
use crate::collection::ReadWriteCollection;
use crate::keyed::{Key, KeyedCollection};
use crate::layers::Layers;
use crate::layers::{LayerKey, Slot};

/// The strategy of [`collection`], [`bounded`] and [`like`]: collections of
/// elements drawn from `S`, with the settings of a template.
#[must_use = "strategies do nothing unless used"]
pub struct CollectionStrategy<S: Strategy, A = NoAutoRemove> {
    elements: VecStrategy<S>,
    template: Template<S::Value, A>,
}

/// An empty collection whose settings every value copies, and how to make
/// each value's policy from the template's.
struct Template<T, A> {
    empty: ReadWriteCollection<T, A>,
    policy: fn(&A) -> A,
}

impl<T, A> Template<T, A> {
    fn copy(&self) -> Self {
        Template {
            empty: self.empty.empty_like((self.policy)(self.empty.policy())),
            policy: self.policy,
        }
    }

    fn build(&self, items: Vec<T>) -> ReadWriteCollection<T, A> {
        let mut c = self.empty.empty_like((self.policy)(self.empty.policy()));
        // The size range was clamped to the bound, so every element fits.
        if c.try_extend(items).is_err() {
            unreachable!("the size range is clamped to the maximum length");
        }
        c
    }
}

/// The value tree of a [`CollectionStrategy`]: shrinks as
/// `proptest::collection::vec` does, and builds every value with the
/// strategy's settings.
pub struct CollectionValueTree<V: ValueTree, A = NoAutoRemove> {
    elements: VecValueTree<V>,
    template: Template<V::Value, A>,
}

impl<S: Strategy, A> fmt::Debug for CollectionStrategy<S, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CollectionStrategy")
            .field("elements", &self.elements)
            .field("max_len", &self.template.empty.max_len())
            .field("mode", &self.template.empty.mode())
            .finish_non_exhaustive()
    }
}

impl<V: ValueTree, A> fmt::Debug for CollectionValueTree<V, A>
where
    V: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CollectionValueTree")
            .field("elements", &self.elements)
            .field("max_len", &self.template.empty.max_len())
            .finish_non_exhaustive()
    }
}

impl<S: Strategy, A> Strategy for CollectionStrategy<S, A> {
    type Tree = CollectionValueTree<S::Tree, A>;
    type Value = ReadWriteCollection<S::Value, A>;

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        Ok(CollectionValueTree {
            elements: self.elements.new_tree(runner)?,
            template: self.template.copy(),
        })
    }
}

impl<V: ValueTree, A> ValueTree for CollectionValueTree<V, A> {
    type Value = ReadWriteCollection<V::Value, A>;

    fn current(&self) -> Self::Value {
        self.template.build(self.elements.current())
    }

    fn simplify(&mut self) -> bool {
        self.elements.simplify()
    }

    fn complicate(&mut self) -> bool {
        self.elements.complicate()
    }
}

/// `size` limited to at most `max` elements.
///
/// # Panics
/// If the range's smallest size is over `max`.
#[track_caller]
fn clamp(size: SizeRange, max: Option<usize>) -> SizeRange {
    let Some(max) = max else { return size };
    let (start, end) = size.start_end_incl();
    assert!(
        start <= max,
        "the size range starts at {start}, over the maximum length {max}"
    );
    (start..=end.min(max)).into()
}

/// Unbounded, [ordered](crate::Mode::Ordered) collections whose length is
/// in `size` and whose elements come from `element`.
///
/// # Examples
///
/// ```
/// use proptest::prelude::*;
/// use read_write_collection::proptest::collection;
///
/// proptest!(|(c in collection(0..10u8, 1..5))| {
///     prop_assert!((1..5).contains(&c.len()));
///     prop_assert_eq!(c.max_len(), None);
/// });
/// ```
pub fn collection<S: Strategy>(element: S, size: impl Into<SizeRange>) -> CollectionStrategy<S> {
    like(&ReadWriteCollection::new(), element, size)
}

/// [Bounded](ReadWriteCollection::bounded) collections: `max_len() ==
/// Some(max)`, length in `size` (limited to `max`), elements from
/// `element`. Shrunk values keep the bound.
///
/// # Panics
///
/// If `size` starts above `max` (no value could be generated).
///
/// # Examples
///
/// ```
/// use proptest::prelude::*;
/// use read_write_collection::proptest::bounded;
///
/// proptest!(|(c in bounded(any::<u32>(), 4, 0..100))| {
///     prop_assert!(c.len() <= 4);
///     prop_assert_eq!(c.max_len(), Some(4));
/// });
/// ```
#[track_caller]
pub fn bounded<S: Strategy>(
    element: S,
    max: usize,
    size: impl Into<SizeRange>,
) -> CollectionStrategy<S> {
    like(&ReadWriteCollection::bounded(max), element, size)
}

/// Collections with the settings of `template` (maximum length,
/// [`Mode`](crate::Mode), shrink policy) and a clone of its auto-remove
/// policy, length in `size` (limited to the template's maximum length),
/// elements from `element`. The template's elements are not used.
///
/// # Panics
///
/// If `size` starts above the template's maximum length.
///
/// # Examples
///
/// ```
/// use proptest::prelude::*;
/// use read_write_collection::{Mode, ReadWriteCollection};
/// use read_write_collection::proptest::like;
///
/// let mut template: ReadWriteCollection<u8> = ReadWriteCollection::unordered();
/// template.set_max_len(Some(16));
/// proptest!(|(c in like(&template, any::<u8>(), 0..32))| {
///     prop_assert_eq!(c.mode(), Mode::Unordered);
///     prop_assert_eq!(c.max_len(), Some(16));
/// });
/// ```
#[track_caller]
pub fn like<S, A>(
    template: &ReadWriteCollection<S::Value, A>,
    element: S,
    size: impl Into<SizeRange>,
) -> CollectionStrategy<S, A>
where
    S: Strategy,
    A: Clone,
{
    let size = clamp(size.into(), template.max_len());
    CollectionStrategy {
        elements: vec(element, size),
        template: Template {
            empty: template.empty_like(template.policy().clone()),
            policy: A::clone,
        },
    }
}

/// Generates the elements as `Vec<T>` does (the parameters are `Vec`'s:
/// a size range and the element's parameters). The collection is
/// unbounded and ordered, with `A::default()` as its policy; use
/// [`bounded`] or [`like`] for other settings.
///
/// # Examples
///
/// ```
/// use proptest::prelude::*;
/// use read_write_collection::ReadWriteCollection;
///
/// proptest!(|(c in any::<ReadWriteCollection<u8>>())| {
///     prop_assert_eq!(c.max_len(), None);
/// });
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "proptest")))]
impl<T, A> Arbitrary for ReadWriteCollection<T, A>
where
    T: Arbitrary,
    A: AutoRemove<T> + Default,
{
    type Parameters = (SizeRange, T::Parameters);
    type Strategy = CollectionStrategy<T::Strategy, A>;

    fn arbitrary_with((size, element): Self::Parameters) -> Self::Strategy {
        CollectionStrategy {
            elements: vec(T::arbitrary_with(element), size),
            template: Template {
                empty: ReadWriteCollection::with_policy(A::default()),
                policy: |_| A::default(),
            },
        }
    }
}

type Parts<T> = (Vec<T>, Vec<T>);

/// Generates the visible elements, then the pending ones, each as a
/// `Vec<T>` (the parameters apply to both); nothing is committed. The
/// queue is unbounded and ordered, with `A::default()` as its policy; use
/// [`buffered_like`] for other settings.
///
/// # Examples
///
/// ```
/// use proptest::prelude::*;
/// use read_write_collection::BufferedCollection;
///
/// proptest!(|(mut c in any::<BufferedCollection<u8>>())| {
///     let expected = [c.as_slice(), c.local_pending()].concat();
///     c.commit();
///     prop_assert_eq!(c.as_slice(), expected.as_slice());
/// });
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "proptest")))]
impl<T, A> Arbitrary for BufferedCollection<T, A>
where
    T: Arbitrary,
    T::Parameters: Clone,
    A: AutoRemove<T> + Default,
{
    type Parameters = (SizeRange, T::Parameters);
    #[allow(clippy::type_complexity)]
    type Strategy = Map<(VecStrategy<T::Strategy>, VecStrategy<T::Strategy>), fn(Parts<T>) -> Self>;

    fn arbitrary_with((size, element): Self::Parameters) -> Self::Strategy {
        let parts = (
            vec(T::arbitrary_with(element.clone()), size.clone()),
            vec(T::arbitrary_with(element), size),
        );
        parts.prop_map(build_buffered::<T, A> as fn(Parts<T>) -> Self)
    }
}

fn build_buffered<T, A: AutoRemove<T> + Default>(
    (visible, pending): Parts<T>,
) -> BufferedCollection<T, A> {
    BufferedCollection::with_policy(A::default()).with_parts(visible, pending)
}

/// One generated layer: its elements, and whether it is *disabled* and
/// *hidden* (so that shrinking, which turns `true` into `false`, moves
/// toward enabled, visible layers).
type LayerParts<T, A> = (ReadWriteCollection<T, A>, bool, bool);

/// The strategy of `any::<Layers<T, K, A>>()`.
#[allow(clippy::type_complexity)]
type AnyLayersStrategy<T, K, A> = Map<
    VecStrategy<(
        CollectionStrategy<<T as Arbitrary>::Strategy, A>,
        ::proptest::bool::Any,
        ::proptest::bool::Any,
    )>,
    fn(Vec<LayerParts<T, A>>) -> Layers<T, K, A>,
>;

/// Generates exactly [`K::COUNT`](LayerKey::COUNT) layers when the key
/// fixes the number (one per variant of a
/// [`layer_keys!`](crate::layer_keys!) enum), one to four otherwise
/// (`usize` keys). Each layer is an arbitrary [`ReadWriteCollection`]
/// (the parameters are its parameters) and is enabled and visible or not,
/// so properties reach disabled and hidden layers. Shrinks each layer's
/// elements, the flags toward enabled and visible, and (when the key does
/// not fix it) the number of layers. For layers with a bound, a mode or a
/// policy, use [`layers_like`].
///
/// # Examples
///
/// ```
/// use proptest::prelude::*;
/// use read_write_collection::{layer_keys, Layers};
///
/// layer_keys!(enum Layer { Background, Actors, Hud });
///
/// proptest!(|(layers in any::<Layers<u8, Layer>>())| {
///     prop_assert_eq!(layers.layer_count(), 3);
///     let _ = layers.layer(Layer::Hud); // always there
/// });
/// proptest!(|(layers in any::<Layers<u8>>())| {
///     prop_assert!((1..=4).contains(&layers.layer_count()));
/// });
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "proptest")))]
impl<T, K, A> Arbitrary for Layers<T, K, A>
where
    T: Arbitrary,
    K: LayerKey,
    A: AutoRemove<T> + Default,
{
    type Parameters = (SizeRange, T::Parameters);
    type Strategy = AnyLayersStrategy<T, K, A>;

    fn arbitrary_with(args: Self::Parameters) -> Self::Strategy {
        let count: SizeRange = match K::COUNT {
            Some(n) => (n..=n).into(),
            None => (1..=4).into(),
        };
        let layer = (
            ReadWriteCollection::<T, A>::arbitrary_with(args),
            ::proptest::bool::ANY,
            ::proptest::bool::ANY,
        );
        vec(layer, count).prop_map(build_layers::<T, K, A> as fn(Vec<LayerParts<T, A>>) -> Self)
    }
}

fn build_layers<T, K: LayerKey, A>(parts: Vec<LayerParts<T, A>>) -> Layers<T, K, A> {
    let slots = parts
        .into_iter()
        .map(|(items, disabled, hidden)| Slot {
            items,
            enabled: !disabled,
            visible: !hidden,
        })
        .collect();
    // The size range is `K::COUNT` when the key fixes one.
    Layers::from_slots(slots)
}

/// The strategy of [`buffered_like`]: queues of elements drawn from `S`,
/// with the settings of a template.
#[must_use = "strategies do nothing unless used"]
pub struct BufferedStrategy<S: Strategy, A = NoAutoRemove> {
    /// All the elements, and how many of the last ones are pending.
    parts: (VecStrategy<S>, IndexStrategy),
    template: BufferedCollection<S::Value, A>,
}

/// The value tree of a [`BufferedStrategy`]: shrinks the elements as
/// `proptest::collection::vec` does, then moves pending elements to the
/// visible side, and builds every value with the strategy's settings.
pub struct BufferedValueTree<V: ValueTree, A = NoAutoRemove> {
    parts: TupleValueTree<(VecValueTree<V>, IndexValueTree)>,
    template: BufferedCollection<V::Value, A>,
}

impl<S: Strategy, A> fmt::Debug for BufferedStrategy<S, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BufferedStrategy")
            .field("elements", &self.parts.0)
            .field("max_len", &self.template.max_len())
            .field("mode", &self.template.mode())
            .finish_non_exhaustive()
    }
}

impl<V: ValueTree, A> fmt::Debug for BufferedValueTree<V, A>
where
    V: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BufferedValueTree")
            .field("parts", &self.parts)
            .field("max_len", &self.template.max_len())
            .finish_non_exhaustive()
    }
}

impl<S, A> Strategy for BufferedStrategy<S, A>
where
    S: Strategy,
    A: AutoRemove<S::Value> + Clone,
{
    type Tree = BufferedValueTree<S::Tree, A>;
    type Value = BufferedCollection<S::Value, A>;

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        Ok(BufferedValueTree {
            parts: self.parts.new_tree(runner)?,
            template: self.template.empty_like(),
        })
    }
}

impl<V, A> ValueTree for BufferedValueTree<V, A>
where
    V: ValueTree,
    A: AutoRemove<V::Value> + Clone,
{
    type Value = BufferedCollection<V::Value, A>;

    fn current(&self) -> Self::Value {
        let (mut visible, pending) = self.parts.current();
        let pending = visible.split_off(visible.len() - pending.index(visible.len() + 1));
        // The size range was clamped to the bound, so every element fits.
        self.template.empty_like().with_parts(visible, pending)
    }

    fn simplify(&mut self) -> bool {
        self.parts.simplify()
    }

    fn complicate(&mut self) -> bool {
        self.parts.complicate()
    }
}

/// Queues with the settings of `template` (maximum length,
/// [`Mode`](crate::Mode), shrink policy) and a clone of its auto-remove
/// policy, elements from `element`. `size` is the number of elements in
/// all, visible and pending (what the bound counts), limited to the
/// template's maximum length; how many of them are pending (the last ones)
/// is drawn too. Nothing is committed. The template's elements are not
/// used.
///
/// Values shrink by losing elements, then by shrinking the remaining ones,
/// then toward fewer pending elements; every value tried keeps the
/// settings.
///
/// # Panics
///
/// If `size` starts above the template's maximum length.
///
/// # Examples
///
/// ```
/// use proptest::prelude::*;
/// use read_write_collection::proptest::buffered_like;
/// use read_write_collection::{BufferedCollection, Builder, Mode};
///
/// let template: BufferedCollection<u8> = Builder::new().bounded(8).unordered().build_buffered();
/// proptest!(|(mut q in buffered_like(&template, any::<u8>(), 0..=8))| {
///     prop_assert_eq!(q.max_len(), Some(8));
///     prop_assert_eq!(q.mode(), Mode::Unordered);
///     prop_assert!(q.len() + q.pending_len() <= 8);
///     let expected = [q.as_slice(), q.local_pending()].concat();
///     q.commit(); // a queue that keeps its order when nothing is removed
///     prop_assert_eq!(q.as_slice(), expected.as_slice());
/// });
/// ```
///
/// The element strategy need not be `any::<T>()`, so a type without
/// `proptest::arbitrary::Arbitrary` works:
///
/// ```
/// use proptest::prelude::*;
/// use read_write_collection::proptest::buffered_like;
/// use read_write_collection::{BufferedCollection, Builder};
///
/// #[derive(Clone, Debug)]
/// struct Event { ttl: u8 }
///
/// let template = Builder::new()
///     .bounded(4)
///     .auto_remove(|e: &Event| e.ttl == 0)
///     .build_buffered();
/// let events = (0..3u8).prop_map(|ttl| Event { ttl });
/// proptest!(|(mut q in buffered_like(&template, events, 0..=4))| {
///     q.commit();
///     q.prune(); // the template's predicate
///     prop_assert!(q.iter().all(|e| e.ttl > 0));
/// });
/// ```
#[track_caller]
pub fn buffered_like<S, A>(
    template: &BufferedCollection<S::Value, A>,
    element: S,
    size: impl Into<SizeRange>,
) -> BufferedStrategy<S, A>
where
    S: Strategy,
    A: AutoRemove<S::Value> + Clone,
{
    let size = clamp(size.into(), template.max_len());
    BufferedStrategy {
        parts: (vec(element, size), any::<Index>()),
        template: template.empty_like(),
    }
}

/// One layer of a [`LayersStrategy`]: its elements, whether it is
/// disabled, whether it is hidden (so that shrinking, which turns `true`
/// into `false`, moves toward enabled, visible layers).
type LayerStrategy<S, A> = (
    CollectionStrategy<Arc<S>, A>,
    ::proptest::bool::Any,
    ::proptest::bool::Any,
);

/// The strategy of [`layers_like`]: layers of elements drawn from `S`,
/// each with the settings of its template layer.
#[must_use = "strategies do nothing unless used"]
pub struct LayersStrategy<S: Strategy, K = usize, A = NoAutoRemove> {
    layers: Vec<LayerStrategy<S, A>>,
    _key: PhantomData<fn(K)>,
}

/// The value tree of a [`LayersStrategy`]: keeps the number of layers,
/// shrinks each layer's elements as `proptest::collection::vec` does and
/// its flags toward enabled and visible, and builds every layer with its
/// template layer's settings.
#[allow(clippy::type_complexity)]
pub struct LayersValueTree<V: ValueTree, K = usize, A = NoAutoRemove> {
    layers: VecValueTree<TupleValueTree<(CollectionValueTree<V, A>, BoolValueTree, BoolValueTree)>>,
    _key: PhantomData<fn(K)>,
}

impl<S: Strategy, K, A> fmt::Debug for LayersStrategy<S, K, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LayersStrategy")
            .field("layers", &self.layers)
            .finish()
    }
}

impl<V: ValueTree, K, A> fmt::Debug for LayersValueTree<V, K, A>
where
    V: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LayersValueTree")
            .field("layers", &self.layers)
            .finish()
    }
}

impl<S: Strategy, K: LayerKey, A> Strategy for LayersStrategy<S, K, A> {
    type Tree = LayersValueTree<S::Tree, K, A>;
    type Value = Layers<S::Value, K, A>;

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        Ok(LayersValueTree {
            layers: self.layers.new_tree(runner)?,
            _key: PhantomData,
        })
    }
}

impl<V: ValueTree, K: LayerKey, A> ValueTree for LayersValueTree<V, K, A> {
    type Value = Layers<V::Value, K, A>;

    fn current(&self) -> Self::Value {
        // As many layers as the template, whose key accepts that number.
        build_layers(self.layers.current())
    }

    fn simplify(&mut self) -> bool {
        self.layers.simplify()
    }

    fn complicate(&mut self) -> bool {
        self.layers.complicate()
    }
}

/// Layers with the settings of `template`: as many layers, each with its
/// template layer's settings (maximum length, [`Mode`](crate::Mode),
/// shrink policy) and a clone of its auto-remove policy, each layer's
/// length in `size` (limited to that layer's maximum length), elements
/// from `element`. Each layer is enabled and visible or not, as in
/// `any::<Layers<T, K, A>>()`. The template's elements and flags are not
/// used.
///
/// Values shrink each layer's elements (as [`like`] does) and flags
/// (toward enabled and visible), never the number of layers; every value
/// tried keeps the settings.
///
/// # Panics
///
/// If `size` starts above the maximum length of one of the template's
/// layers.
///
/// # Examples
///
/// ```
/// use proptest::prelude::*;
/// use read_write_collection::proptest::layers_like;
/// use read_write_collection::{layer_keys, Builder, Layers, Mode};
///
/// layer_keys!(enum Layer { Ships, Sparks });
///
/// let ships = Builder::new().bounded(4).build();
/// let sparks = Builder::new().bounded(16).unordered().build();
/// let template: Layers<u8, Layer> = Layers::from_collections([ships, sparks]);
/// proptest!(|(mut world in layers_like(&template, any::<u8>(), 0..32))| {
///     prop_assert!(world.layer(Layer::Ships).len() <= 4);
///     prop_assert_eq!(world.layer(Layer::Sparks).mode(), Mode::Unordered);
///     while world.try_push(Layer::Sparks, 0).is_ok() {}
///     prop_assert_eq!(world.layer(Layer::Sparks).len(), 16);
/// });
/// ```
#[track_caller]
pub fn layers_like<S, K, A>(
    template: &Layers<S::Value, K, A>,
    element: S,
    size: impl Into<SizeRange>,
) -> LayersStrategy<S, K, A>
where
    S: Strategy,
    K: LayerKey,
    A: Clone,
{
    let size = size.into();
    let element = Arc::new(element);
    let mut layers = Vec::with_capacity(template.layer_count());
    // A loop, not a closure, so a panic points at the caller.
    for slot in &template.slots {
        let items = like(&slot.items, Arc::clone(&element), size.clone());
        layers.push((items, ::proptest::bool::ANY, ::proptest::bool::ANY));
    }
    LayersStrategy {
        layers,
        _key: PhantomData,
    }
}

/// A strategy for [`KeyedCollection`]s with the settings of `template`
/// (bound, mode, a clone of its policy): elements drawn from `element`
/// (as many as `size` says, clamped to the bound), pushed in order.
/// Shrinking removes and shrinks elements, as `proptest::collection::vec`
/// does, and keeps the settings.
///
/// # Examples
///
/// ```
/// use proptest::prelude::*;
/// use read_write_collection::proptest::keyed_like;
/// use read_write_collection::KeyedCollection;
///
/// let template: KeyedCollection<u8> = KeyedCollection::bounded(4);
/// proptest!(|(mut c in keyed_like(&template, any::<u8>(), 0..=8))| {
///     prop_assert!(c.len() <= 4);
///     while c.try_push(0).is_ok() {}
///     prop_assert_eq!(c.len(), 4);
/// });
/// ```
#[track_caller]
pub fn keyed_like<S, K, A>(
    template: &KeyedCollection<S::Value, K, A>,
    element: S,
    size: impl Into<SizeRange>,
) -> impl Strategy<Value = KeyedCollection<S::Value, K, A>>
where
    S: Strategy,
    K: Key,
    A: Clone,
{
    let size = clamp(size.into(), template.max_len());
    let template = Arc::new(template.empty_like(template.policy().clone()));
    vec(element, size).prop_map(move |items| {
        let mut c = template.empty_like(template.policy().clone());
        for item in items {
            // The size range is clamped to the bound: every element fits.
            let _ = c.try_push(item);
        }
        c
    })
}

/// Generates elements as a `Vec<T>` and pushes them in order, into an
/// unbounded, ordered collection with `A::default()` as its policy; use
/// [`keyed_like`] for other settings.
///
/// # Examples
///
/// ```
/// use proptest::prelude::*;
/// use read_write_collection::KeyedCollection;
///
/// proptest!(|(c in any::<KeyedCollection<u8>>())| {
///     prop_assert!(c.keys().all(|k| c.contains_key(k)));
/// });
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "proptest")))]
impl<T, K, A> Arbitrary for KeyedCollection<T, K, A>
where
    T: Arbitrary,
    T::Strategy: 'static,
    K: Key + 'static,
    A: AutoRemove<T> + Default + Clone + 'static,
{
    type Parameters = (SizeRange, T::Parameters);
    type Strategy = ::proptest::strategy::BoxedStrategy<Self>;

    fn arbitrary_with((size, element): Self::Parameters) -> Self::Strategy {
        let template: KeyedCollection<T, K, A> = KeyedCollection::<T, K>::with_policy(A::default());
        keyed_like(&template, T::arbitrary_with(element), size).boxed()
    }
}

//! One-expression configuration: [`Builder`], and [`remove_when!`](crate::remove_when!) for
//! predicates with a name.
//!
//! # Examples
//!
//! The recommended form: a predicate defined with [`remove_when!`](crate::remove_when!) is a
//! zero-sized unit struct, so the collection's type can be written in a
//! struct field, and a traversal calls the predicate directly (inlined,
//! no function pointer, nothing stored).
//!
//! ```
//! use read_write_collection::{remove_when, Builder, ReadWriteCollection, ShrinkPolicy};
//!
//! pub struct Particle { ttl: u32 }
//!
//! remove_when!(pub struct Expired for Particle: |p| p.ttl == 0);
//!
//! struct World {
//!     particles: ReadWriteCollection<Particle, Expired>,
//! }
//!
//! let mut world = World {
//!     particles: Builder::new()
//!         .capacity(256)
//!         .bounded(1024)
//!         .unordered()
//!         .shrink_policy(ShrinkPolicy::new(25, 60))
//!         .policy(Expired)
//!         .build(),
//! };
//! world.particles.extend([Particle { ttl: 1 }, Particle { ttl: 0 }]);
//! world.particles.traverse(|mut p| p.ttl = p.ttl.saturating_sub(1));
//! assert!(world.particles.is_empty());
//! assert_eq!(world.particles.max_len(), Some(1024));
//! ```
//!
//! A closure works too (`auto_remove`), and so does a removal hook; the
//! type then names the closure and cannot be written down, which is fine
//! for a local:
//!
//! ```
//! use read_write_collection::{Mode, ReadWriteCollection};
//!
//! let mut expired = 0;
//! let mut c = ReadWriteCollection::builder()
//!     .mode(Mode::Unordered)
//!     .auto_remove(|n: &i32| *n < 0)
//!     .removal_hook(|_| expired += 1)
//!     .build();
//! c.extend([1, -2, 3]);
//! c.prune();
//! drop(c);
//! assert_eq!(expired, 1);
//! ```

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use crate::auto_remove::{AutoRemove, NoAutoRemove, WithHook};
use crate::collection::ReadWriteCollection;
use crate::layers::{check_count, LayerKey, Layers};
use crate::settings::{Mode, ShrinkPolicy};

/// Defines a zero-sized unit struct that is an [`AutoRemove`] policy with
/// the given predicate: the nameable, no-cost way to give a collection a
/// predicate.
///
/// `remove_when!(VIS struct NAME for TYPE: |ARG| EXPR);` defines
/// `VIS struct NAME;` (`Clone`, `Copy`, `Debug`, `Default`, `PartialEq`,
/// `Eq`, `Hash`) and implements `AutoRemove<TYPE>` for it, with `EXPR` (of
/// type `bool`, `ARG: &TYPE`) as `should_remove`. With the `rayon` feature
/// it also implements `ParAutoRemove<TYPE>` with the same `EXPR` (the
/// predicate only reads `&TYPE`), so the collection can
/// `par_traverse` too.
/// Attributes and doc comments before `struct` are kept.
///
/// Compared with the other ways to give a predicate:
///
/// | predicate | nameable type | call per element |
/// | --- | --- | --- |
/// | `remove_when!` unit struct | yes | direct, inlined |
/// | closure or `fn` item | no | direct, inlined |
/// | `fn(&T) -> bool` pointer | yes | indirect |
/// | `Box<dyn FnMut(&T) -> bool>` | yes | indirect, and a heap allocation |
///
/// # Examples
///
/// ```
/// use read_write_collection::{remove_when, ReadWriteCollection};
///
/// pub struct Enemy { hp: i32 }
///
/// remove_when! {
///     /// An enemy with no hit points left.
///     pub struct Dead for Enemy: |e| e.hp <= 0
/// }
///
/// let mut enemies: ReadWriteCollection<Enemy, Dead> = ReadWriteCollection::with_policy(Dead);
/// enemies.extend([Enemy { hp: 0 }, Enemy { hp: 3 }]);
/// assert_eq!(enemies.prune(), 1);
/// assert_eq!(core::mem::size_of::<Dead>(), 0);
/// ```
///
/// The same predicate in a parallel pass (feature `rayon`):
///
#[cfg_attr(feature = "rayon", doc = "```")]
#[cfg_attr(not(feature = "rayon"), doc = "```ignore")]
/// use read_write_collection::{remove_when, Builder, ReadWriteCollection};
///
/// remove_when!(struct Spent for u32: |ttl| *ttl == 0);
///
/// let mut sparks: ReadWriteCollection<u32, Spent> = Builder::new().policy(Spent).build();
/// sparks.extend([0, 1, 2, 0, 3]);
/// sparks.par_traverse(|mut ttl| *ttl -= 1); // reached 0: removed when the pass moves on
/// assert_eq!(sparks, [1, 2]);
/// ```
#[macro_export]
macro_rules! remove_when {
    ($(#[$meta:meta])* $vis:vis struct $name:ident for $t:ty : |$arg:ident| $body:expr $(;)?) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        $vis struct $name;

        impl $crate::auto_remove::AutoRemove<$t> for $name {
            #[inline]
            fn should_remove(&mut self, $arg: &$t) -> bool {
                $body
            }
        }

        $crate::__remove_when_par! { $name, $t, |$arg| $body }
    };
}

/// `remove_when!`'s `ParAutoRemove` impl: chosen by this crate's `rayon`
/// feature (a `cfg` inside `remove_when!` would test the user's crate).
#[cfg(feature = "rayon")]
#[doc(hidden)]
#[macro_export]
macro_rules! __remove_when_par {
    ($name:ident, $t:ty, |$arg:ident| $body:expr) => {
        impl $crate::parallel::ParAutoRemove<$t> for $name {
            #[inline]
            fn should_remove_shared(&self, $arg: &$t) -> bool {
                $body
            }
        }
    };
}

/// Without the `rayon` feature there is no `ParAutoRemove` to implement.
#[cfg(not(feature = "rayon"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __remove_when_par {
    ($($ignored:tt)*) => {};
}

/// Configures a [`ReadWriteCollection`] (or every layer of a [`Layers`])
/// in one expression, in the style of `std::thread::Builder`: capacity,
/// bound, mode, shrink policy, auto-remove predicate and removal hook, in
/// any combination and order, then [`build`](Builder::build).
///
/// The result's type is `ReadWriteCollection<T, A>`, where `A` is the
/// policy: [`NoAutoRemove`] by default, the unit struct of a
/// [`remove_when!`](crate::remove_when!) predicate, `WithHook<P, H>` with a hook. See [the module
/// docs](self) for the recommended form.
///
/// The builder keeps the predicate (`A`) and the removal hook (`H`,
/// [`NoHook`] until one is set) apart and puts them together in `build`,
/// so `.removal_hook(h).policy(p)` builds what `.policy(p).removal_hook(h)`
/// builds. A later [`policy`](Builder::policy) replaces the predicate and
/// keeps the hook; a later [`removal_hook`](Builder::removal_hook)
/// replaces the hook. [`build_from_vec`](Builder::build_from_vec) applies
/// the configuration to an existing `Vec` without copying it.
///
/// # Examples
///
/// ```
/// use read_write_collection::{Builder, Mode, ReadWriteCollection};
///
/// let c: ReadWriteCollection<u32> = Builder::new().capacity(10).bounded(4).build();
/// assert_eq!(c.max_len(), Some(4));
/// assert!(c.capacity() <= 4); // never capacity for more than the bound
/// assert_eq!(c.mode(), Mode::Ordered);
/// ```
#[must_use = "a builder does nothing until `build` is called"]
pub struct Builder<T, A = NoAutoRemove, H = NoHook> {
    capacity: usize,
    max: Option<usize>,
    mode: Mode,
    shrink: Option<ShrinkPolicy>,
    policy: A,
    hook: H,
    _elements: PhantomData<fn() -> T>,
}

/// The removal hook of a [`Builder`] that has none (its third type
/// parameter until [`removal_hook`](Builder::removal_hook) sets one).
///
/// # Examples
///
/// ```
/// use read_write_collection::builder::{Builder, NoHook};
/// use read_write_collection::ReadWriteCollection;
///
/// let plain: Builder<u8, _, NoHook> = Builder::new().bounded(4);
/// let c: ReadWriteCollection<u8> = plain.build(); // no hook: the policy as set
/// assert_eq!(c.max_len(), Some(4));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NoHook;

/// How a [`Builder`] puts its predicate and its removal hook together: the
/// collection's policy is the predicate `A` as it is when no hook was set
/// ([`NoHook`]), and [`WithHook<A, H>`](WithHook) when a hook `H` was, in
/// whichever order the two were set.
///
/// Implemented by [`NoHook`] and by every `FnMut(T)` closure; there is
/// nothing to implement yourself.
///
/// # Examples
///
/// Code that finishes builders generically names the policy through it:
///
/// ```
/// use read_write_collection::builder::BuilderHook;
/// use read_write_collection::{remove_when, Builder, ReadWriteCollection, WithHook};
///
/// remove_when!(struct Zero for u8: |n| *n == 0);
///
/// fn capped<H>(b: Builder<u8, Zero, H>) -> ReadWriteCollection<u8, H::Policy>
/// where
///     H: BuilderHook<u8, Zero>,
/// {
///     b.bounded(8).build()
/// }
///
/// let plain: ReadWriteCollection<u8, Zero> = capped(Builder::new().policy(Zero));
/// let hooked: ReadWriteCollection<u8, WithHook<Zero, fn(u8)>> =
///     capped(Builder::new().removal_hook(drop as fn(u8)).policy(Zero));
/// assert_eq!((plain.max_len(), hooked.max_len()), (Some(8), Some(8)));
/// ```
pub trait BuilderHook<T, A> {
    /// The collection's policy.
    type Policy: AutoRemove<T>;

    /// Puts `policy` and this hook together (what `build` does).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::builder::{BuilderHook, NoHook};
    /// use read_write_collection::{AutoRemove, NoAutoRemove, WithHook};
    ///
    /// let bare: NoAutoRemove = BuilderHook::<u8, _>::attach(NoHook, NoAutoRemove);
    /// assert_eq!(bare, NoAutoRemove);
    /// let mut hooked: WithHook<fn(&u8) -> bool, fn(u8)> =
    ///     BuilderHook::<u8, _>::attach(drop as fn(u8), (|n: &u8| *n == 0) as fn(&u8) -> bool);
    /// assert!(hooked.should_remove(&0));
    /// ```
    fn attach(self, policy: A) -> Self::Policy;
}

impl<T, A: AutoRemove<T>> BuilderHook<T, A> for NoHook {
    type Policy = A;

    #[inline]
    fn attach(self, policy: A) -> A {
        policy
    }
}

impl<T, A: AutoRemove<T>, H: FnMut(T)> BuilderHook<T, A> for H {
    type Policy = WithHook<A, H>;

    #[inline]
    fn attach(self, policy: A) -> WithHook<A, H> {
        WithHook { policy, hook: self }
    }
}

/// Starting a builder.
impl<T> Builder<T> {
    /// A builder for an empty, unbounded, ordered collection with no
    /// policy (what [`ReadWriteCollection::new`] makes).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{Builder, ReadWriteCollection};
    ///
    /// let c: ReadWriteCollection<u8> = Builder::new().build();
    /// assert_eq!(c.capacity(), 0);
    /// assert_eq!(c.max_len(), None);
    /// ```
    pub const fn new() -> Self {
        Builder {
            capacity: 0,
            max: None,
            mode: Mode::Ordered,
            shrink: None,
            policy: NoAutoRemove,
            hook: NoHook,
            _elements: PhantomData,
        }
    }
}

impl<T> Default for Builder<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Settings, then building.
impl<T, A, H> Builder<T, A, H> {
    /// Capacity (allocation) for at least `capacity` elements (at most
    /// the bound, if one is set).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{Builder, ReadWriteCollection};
    ///
    /// let c: ReadWriteCollection<u8> = Builder::new().capacity(32).build();
    /// assert!(c.capacity() >= 32);
    /// ```
    pub fn capacity(mut self, capacity: usize) -> Self {
        self.capacity = capacity;
        self
    }

    /// A bound: a hard maximum length (see [`ReadWriteCollection::bounded`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{Builder, ReadWriteCollection};
    ///
    /// let mut c: ReadWriteCollection<u8> = Builder::new().bounded(1).build();
    /// c.push(1);
    /// assert_eq!(c.try_push(2).unwrap_err().into_inner(), 2);
    /// ```
    pub fn bounded(mut self, max: usize) -> Self {
        self.max = Some(max);
        self
    }

    /// How traversals fill removed slots (see [`Mode`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{Builder, Mode, ReadWriteCollection};
    ///
    /// let c: ReadWriteCollection<u8> = Builder::new().mode(Mode::Unordered).build();
    /// assert_eq!(c.mode(), Mode::Unordered);
    /// ```
    pub fn mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }

    /// Short for `.mode(Mode::Unordered)`.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{Builder, Mode, ReadWriteCollection};
    ///
    /// let c: ReadWriteCollection<u8> = Builder::new().unordered().build();
    /// assert_eq!(c.mode(), Mode::Unordered);
    /// ```
    pub fn unordered(self) -> Self {
        self.mode(Mode::Unordered)
    }

    /// When to give memory back (see [`ShrinkPolicy`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{Builder, ReadWriteCollection, ShrinkPolicy};
    ///
    /// let c: ReadWriteCollection<u8> = Builder::new().shrink_policy(ShrinkPolicy::new(25, 60)).build();
    /// assert_eq!(c.shrink_policy(), Some(ShrinkPolicy::new(25, 60)));
    /// ```
    pub fn shrink_policy(mut self, policy: ShrinkPolicy) -> Self {
        self.shrink = Some(policy);
        self
    }

    /// The auto-remove policy: a [`remove_when!`](crate::remove_when!) unit struct (the
    /// recommended, nameable form) or any other [`AutoRemove`] type.
    /// Replaces any policy set before; a [removal hook](Self::removal_hook)
    /// set before stays (the hook and the policy can be set in either
    /// order).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{remove_when, Builder, ReadWriteCollection};
    ///
    /// remove_when!(struct Negative for i32: |n| *n < 0);
    ///
    /// let mut c: ReadWriteCollection<i32, Negative> = Builder::new().policy(Negative).build();
    /// c.extend([-1, 1]);
    /// c.prune();
    /// assert_eq!(c, [1]);
    ///
    /// // A hook set first is kept.
    /// let mut removed = Vec::new();
    /// let mut c = Builder::new().removal_hook(|n| removed.push(n)).policy(Negative).build();
    /// c.extend([-1, 1]);
    /// c.prune();
    /// drop(c);
    /// assert_eq!(removed, [-1]);
    /// ```
    pub fn policy<P: AutoRemove<T>>(self, policy: P) -> Builder<T, P, H> {
        Builder {
            capacity: self.capacity,
            max: self.max,
            mode: self.mode,
            shrink: self.shrink,
            policy,
            hook: self.hook,
            _elements: PhantomData,
        }
    }

    /// An auto-remove predicate given as a closure (see
    /// [`ReadWriteCollection::with_auto_remove`]). Replaces any policy
    /// set before; a [removal hook](Self::removal_hook) set before stays.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::builder().auto_remove(|n: &u8| *n == 0).build();
    /// c.extend([0, 1]);
    /// c.prune();
    /// assert_eq!(c, [1]);
    /// ```
    pub fn auto_remove<F: FnMut(&T) -> bool>(self, pred: F) -> Builder<T, F, H> {
        self.policy(pred)
    }

    /// A hook that receives each auto-removed element (see
    /// [`ReadWriteCollection::with_removal_hook`]). Replaces any hook set
    /// before; the policy, set before or after it, is kept. The built
    /// collection's policy is then [`WithHook<P, G>`](WithHook) for the
    /// policy `P`.
    ///
    /// The hook receives what the policy removes, so without a
    /// [`policy`](Self::policy) or [`auto_remove`](Self::auto_remove)
    /// predicate it is never called.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{remove_when, Builder, ReadWriteCollection, WithHook};
    ///
    /// remove_when!(struct Zero for u8: |n| *n == 0);
    /// fn recycle(_: u8) {}
    ///
    /// // Nameable: a unit struct and a function pointer.
    /// let mut c: ReadWriteCollection<u8, WithHook<Zero, fn(u8)>> =
    ///     Builder::new().policy(Zero).removal_hook(recycle as fn(u8)).build();
    /// c.extend([0, 1]);
    /// c.prune();
    /// assert_eq!(c, [1]);
    ///
    /// // The same collection, the hook set first.
    /// let c: ReadWriteCollection<u8, WithHook<Zero, fn(u8)>> =
    ///     Builder::new().removal_hook(recycle as fn(u8)).policy(Zero).build();
    /// assert!(c.is_empty());
    /// ```
    pub fn removal_hook<G: FnMut(T)>(self, hook: G) -> Builder<T, A, G> {
        Builder {
            capacity: self.capacity,
            max: self.max,
            mode: self.mode,
            shrink: self.shrink,
            policy: self.policy,
            hook,
            _elements: PhantomData,
        }
    }
}

impl<T, A: AutoRemove<T>, H: BuilderHook<T, A>> Builder<T, A, H> {
    /// The configured, empty collection. Its policy is the one set with
    /// [`policy`](Self::policy) or [`auto_remove`](Self::auto_remove)
    /// ([`NoAutoRemove`] if none was), in a [`WithHook`] if a
    /// [`removal_hook`](Self::removal_hook) was set.
    ///
    /// # Panics
    ///
    /// If the capacity exceeds `isize::MAX` bytes, as `Vec::with_capacity`.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{Builder, Mode, ReadWriteCollection, ShrinkPolicy};
    ///
    /// let c = Builder::new()
    ///     .bounded(100)
    ///     .capacity(16)
    ///     .unordered()
    ///     .shrink_policy(ShrinkPolicy::new(10, 5))
    ///     .auto_remove(|ttl: &u8| *ttl == 0)
    ///     .removal_hook(drop)
    ///     .build();
    /// assert_eq!(c.max_len(), Some(100));
    /// assert!(c.capacity() >= 16);
    /// assert_eq!(c.mode(), Mode::Unordered);
    /// assert_eq!(c.shrink_policy(), Some(ShrinkPolicy::new(10, 5)));
    /// ```
    #[track_caller]
    pub fn build(self) -> ReadWriteCollection<T, H::Policy> {
        let mut c = ReadWriteCollection::with_policy(self.hook.attach(self.policy));
        // The bound first, so the reservation never exceeds it.
        c.set_max_len(self.max);
        c.set_mode(self.mode);
        c.set_shrink_policy(self.shrink);
        c.reserve(self.capacity);
        c
    }

    /// The configured collection holding the elements of `vec`, in `vec`'s
    /// own buffer: the way to give an existing `Vec` a bound, a mode or a
    /// policy without copying it (`From<Vec<T>>` keeps the buffer too, but
    /// gives the default settings).
    ///
    /// The allocation is kept as it is, unless its capacity is more than
    /// the bound (then it is shrunk to the bound, as
    /// [`set_max_len`](ReadWriteCollection::set_max_len) does) or less
    /// than the builder's [`capacity`](Self::capacity) (then it grows).
    ///
    /// # Panics
    ///
    /// If `vec` holds more elements than the bound; if the capacity
    /// exceeds `isize::MAX` bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{remove_when, Builder, Mode};
    ///
    /// remove_when!(struct Spent for u32: |ttl| *ttl == 0);
    ///
    /// let mut loaded: Vec<u32> = Vec::with_capacity(64);
    /// loaded.extend([3, 0, 1]);
    /// let buffer = loaded.as_ptr();
    ///
    /// let mut sparks = Builder::new().bounded(64).unordered().policy(Spent).build_from_vec(loaded);
    /// assert_eq!(sparks.as_ptr(), buffer); // no copy
    /// assert_eq!((sparks.max_len(), sparks.mode()), (Some(64), Mode::Unordered));
    /// sparks.prune();
    /// assert_eq!(sparks, [3, 1]);
    /// ```
    #[track_caller]
    pub fn build_from_vec(self, vec: Vec<T>) -> ReadWriteCollection<T, H::Policy> {
        if let Some(max) = self.max {
            if vec.len() > max {
                too_long(vec.len(), max);
            }
        }
        let mut c = ReadWriteCollection::from_vec_with_policy(vec, self.hook.attach(self.policy));
        c.set_max_len(self.max);
        c.set_mode(self.mode);
        c.set_shrink_policy(self.shrink);
        c.reserve(self.capacity.saturating_sub(c.len()));
        c
    }

    /// The configured, empty [`BufferedCollection`](crate::BufferedCollection):
    /// the bound covers visible and pending elements (producers' included),
    /// the mode and shrink policy apply to its traversals.
    ///
    /// # Panics
    ///
    /// As [`build`](Self::build).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{Builder, Mode};
    ///
    /// let mut events = Builder::new()
    ///     .bounded(2)
    ///     .unordered()
    ///     .auto_remove(|ttl: &u8| *ttl == 0)
    ///     .build_buffered();
    /// assert!(events.try_push(1).is_ok());
    /// assert!(events.try_push(0).is_ok());
    /// assert_eq!(events.try_push(5).unwrap_err().into_inner(), 5);
    /// events.commit();
    /// events.prune(); // the expired event leaves
    /// assert_eq!((events.as_slice(), events.mode()), (&[1][..], Mode::Unordered));
    /// ```
    #[track_caller]
    pub fn build_buffered(self) -> crate::buffered::BufferedCollection<T, H::Policy> {
        let mut q = crate::buffered::BufferedCollection::with_policy(self.hook.attach(self.policy));
        // The bound first, so the reservation never exceeds it.
        q.set_max_len(self.max);
        q.set_mode(self.mode);
        q.set_shrink_policy(self.shrink);
        q.reserve(self.capacity);
        q
    }

    /// `count` layers configured alike (each with a clone of the policy
    /// and hook), enabled and visible (drawn): for `usize` keys. For keys that fix
    /// the number of layers (a [`layer_keys!`](crate::layer_keys!) enum),
    /// [`build_keyed_layers`](Self::build_keyed_layers) takes it from the
    /// key.
    ///
    /// # Panics
    ///
    /// Before building anything, if `K` fixes another number of layers
    /// ([`LayerKey::COUNT`]); as [`build`](Self::build) for the capacity.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{remove_when, Builder, Layers};
    ///
    /// remove_when!(struct Spent for u32: |ttl| *ttl == 0);
    ///
    /// let mut world: Layers<u32, usize, Spent> = Builder::new().bounded(64).policy(Spent).build_layers(3);
    /// world.push(2, 0);
    /// world.push(2, 5);
    /// world.traverse(|_, _| {});
    /// assert_eq!(world.layer(2), &[5]);
    /// assert_eq!(world.layer(0).max_len(), Some(64));
    /// ```
    #[track_caller]
    pub fn build_layers<K: LayerKey>(self, count: usize) -> Layers<T, K, H::Policy>
    where
        A: Clone,
        H: Clone,
    {
        check_count::<K>(count);
        Layers::from_collections((0..count).map(|_| self.clone().build()))
    }

    /// One layer per key of `K` ([`LayerKey::COUNT`], set by
    /// [`layer_keys!`](crate::layer_keys!)), configured alike (each with a
    /// clone of the policy and hook), enabled and visible (drawn): the number
    /// comes from the key, so it cannot be wrong.
    ///
    /// # Panics
    ///
    /// If `K` fixes no number of layers (`usize`: use
    /// [`build_layers`](Self::build_layers) with a count); as
    /// [`build`](Self::build) for the capacity.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{layer_keys, remove_when, Builder, Layers};
    ///
    /// layer_keys!(enum Layer { Ships, Bullets, Sparks });
    /// remove_when!(struct Spent for u32: |ttl| *ttl == 0);
    ///
    /// let mut sky: Layers<u32, Layer, Spent> = Builder::new().bounded(64).policy(Spent).build_keyed_layers();
    /// assert_eq!(sky.layer_count(), 3);
    /// assert_eq!(sky.layer(Layer::Sparks).max_len(), Some(64));
    /// sky.push(Layer::Bullets, 0);
    /// sky.push(Layer::Bullets, 2);
    /// sky.traverse(|_, _| {});
    /// assert_eq!(sky.layer(Layer::Bullets), &[2]);
    /// ```
    ///
    /// Index keys name any number of layers:
    ///
    /// ```should_panic
    /// use read_write_collection::{Builder, Layers};
    ///
    /// let _: Layers<u32> = Builder::new().build_keyed_layers(); // panics: how many?
    /// ```
    #[track_caller]
    pub fn build_keyed_layers<K: LayerKey>(self) -> Layers<T, K, H::Policy>
    where
        A: Clone,
        H: Clone,
    {
        match K::COUNT {
            Some(count) => self.build_layers(count),
            None => no_fixed_count::<K>(),
        }
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn too_long(len: usize, max: usize) -> ! {
    panic!("`build_from_vec`: the `Vec` holds {len} elements, more than the bound {max}")
}

#[cold]
#[inline(never)]
#[track_caller]
fn no_fixed_count<K>() -> ! {
    panic!(
        "`build_keyed_layers`: the key type `{}` fixes no number of layers \
         (`LayerKey::COUNT` is `None`); use `build_layers(count)`",
        core::any::type_name::<K>()
    )
}

impl<T, A: Clone, H: Clone> Clone for Builder<T, A, H> {
    fn clone(&self) -> Self {
        Builder {
            capacity: self.capacity,
            max: self.max,
            mode: self.mode,
            shrink: self.shrink,
            policy: self.policy.clone(),
            hook: self.hook.clone(),
            _elements: PhantomData,
        }
    }
}

impl<T, A, H> fmt::Debug for Builder<T, A, H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Builder")
            .field("capacity", &self.capacity)
            .field("max_len", &self.max)
            .field("mode", &self.mode)
            .field("shrink_policy", &self.shrink)
            .finish_non_exhaustive()
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
    pub const fn builder() -> Builder<T> {
        Builder::new()
    }
}

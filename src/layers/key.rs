//! Layer keys: what names a layer, and [`layer_keys!`](crate::layer_keys!)
//! to define an enum of them.

/// A key that names a layer: `usize` (the index itself) or a user enum,
/// most simply one defined with [`layer_keys!`](crate::layer_keys!).
///
/// A [`Layers`](crate::Layers) takes keys ([`index`](Self::index)) and
/// hands them back wherever it names a layer: the first argument of
/// [`traverse`](crate::Layers::traverse)'s closure, the items of
/// [`iter_visible`](crate::Layers::iter_visible), `layer()` on cursors and
/// entries ([`from_index`](Self::from_index)).
///
/// # Examples
///
/// The macro writes this impl; by hand it is:
///
/// ```
/// use read_write_collection::layers::{LayerKey, Layers};
///
/// #[derive(Clone, Copy, Debug, PartialEq)]
/// enum Draw { Background, Sprites }
///
/// impl LayerKey for Draw {
///     const COUNT: Option<usize> = Some(2);
///     fn index(self) -> usize { self as usize }
///     fn from_index(index: usize) -> Option<Self> {
///         [Draw::Background, Draw::Sprites].get(index).copied()
///     }
/// }
///
/// assert_eq!(Draw::Sprites.index(), 1);
/// assert_eq!(Draw::from_index(0), Some(Draw::Background));
///
/// let mut screen: Layers<char, Draw> = Layers::default(); // one layer per key
/// screen.push(Draw::Sprites, 's');
/// assert_eq!(screen.iter_visible().collect::<Vec<_>>(), [(Draw::Sprites, &'s')]);
/// ```
pub trait LayerKey: Copy {
    /// How many layers this key type names, if it fixes the number (an
    /// enum: one layer per variant); `None` (the default, and `usize`'s)
    /// if any number of layers can be addressed.
    ///
    /// When it is `Some(n)`, every [`Layers`](crate::Layers) keyed by this
    /// type has exactly `n` layers: [`Layers::default`](crate::Layers)
    /// builds them, the constructors that take a count or collections
    /// panic on any other number, and generated and deserialized layers
    /// have `n`.
    const COUNT: Option<usize> = None;

    /// The layer's position, from 0.
    fn index(self) -> usize;

    /// The key of the layer at `index`: `Some(k)` with `k.index() == index`
    /// for every layer the key is used with, `None` past the last key.
    fn from_index(index: usize) -> Option<Self>;
}

impl LayerKey for usize {
    #[inline]
    fn index(self) -> usize {
        self
    }

    #[inline]
    fn from_index(index: usize) -> Option<Self> {
        Some(index)
    }
}

/// The key of layer `index`.
///
/// # Panics
///
/// If `K::from_index` has no key for it (a hand-written key type used
/// with more layers than it names).
#[inline]
#[track_caller]
pub(super) fn key_at<K: LayerKey>(index: usize) -> K {
    match K::from_index(index) {
        Some(key) => key,
        None => no_key(index),
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn no_key(index: usize) -> ! {
    panic!("layer {index} has no key: `LayerKey::from_index({index})` returned `None`")
}

/// Checks a layer count against `K::COUNT`.
///
/// # Panics
///
/// If the key type fixes another number of layers.
#[inline]
#[track_caller]
pub(crate) fn check_count<K: LayerKey>(count: usize) {
    if let Some(fixed) = K::COUNT {
        if count != fixed {
            wrong_count(count, fixed);
        }
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn wrong_count(count: usize, fixed: usize) -> ! {
    panic!("{count} layers for a key type that names {fixed} (`LayerKey::COUNT`)")
}

/// Defines an enum whose variants are layer keys, in layer order: the way
/// to name the layers of a [`Layers`](crate::Layers).
///
/// `layer_keys!(VIS enum NAME { VARIANT, ... });` defines `VIS enum NAME`
/// with those unit variants (`Clone`, `Copy`, `Debug`, `PartialEq`, `Eq`,
/// `Hash`), implements [`LayerKey`] for it (the first variant is layer 0;
/// [`COUNT`](LayerKey::COUNT) is the number of variants), and adds
/// `NAME::ALL`, every key in layer order. `Layers<T, NAME>` then has
/// exactly one layer per variant ([`Default`] builds them) and hands the
/// keys back where it names a layer. Attributes and doc comments before
/// `enum` and before each variant are kept (add `PartialOrd`, `Ord` there
/// if you want keys compared in layer order).
///
/// # Examples
///
/// ```
/// use read_write_collection::{layer_keys, LayerKey, Layers};
///
/// layer_keys! {
///     /// Draw order, back to front.
///     pub enum Layer { Background, Enemies, Bullets }
/// }
///
/// let mut world: Layers<&str, Layer> = Layers::default();
/// assert_eq!(world.layer_count(), 3);
/// assert_eq!(Layer::ALL, [Layer::Background, Layer::Enemies, Layer::Bullets]);
/// assert_eq!(Layer::COUNT, Some(3));
///
/// world.push(Layer::Bullets, "bullet");
/// world.push(Layer::Enemies, "enemy");
/// let mut seen = Vec::new();
/// world.traverse(|layer, e| seen.push((layer, *e))); // keys, not indices
/// assert_eq!(seen, [(Layer::Enemies, "enemy"), (Layer::Bullets, "bullet")]);
/// ```
#[macro_export]
macro_rules! layer_keys {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $($(#[$vmeta:meta])* $variant:ident),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $($(#[$vmeta])* $variant),+
        }

        impl $name {
            /// Every key, in layer order.
            #[allow(dead_code)]
            $vis const ALL: [Self; [$(stringify!($variant)),+].len()] = [$(Self::$variant),+];
        }

        impl $crate::layers::LayerKey for $name {
            const COUNT: ::core::option::Option<usize> =
                ::core::option::Option::Some([$(stringify!($variant)),+].len());

            #[inline]
            fn index(self) -> usize {
                self as usize
            }

            #[inline]
            fn from_index(index: usize) -> ::core::option::Option<Self> {
                Self::ALL.get(index).copied()
            }
        }
    };
}

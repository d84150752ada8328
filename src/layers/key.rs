//! Layer keys: what names a layer.

/// A key that names a layer: `usize` (the index itself) or a user enum.
///
/// # Examples
///
/// ```
/// use read_write_collection::layers::LayerKey;
///
/// #[derive(Clone, Copy)]
/// enum Draw { Background, Sprites }
/// impl LayerKey for Draw {
///     fn index(self) -> usize { self as usize }
/// }
/// assert_eq!(Draw::Sprites.index(), 1);
/// assert_eq!(Draw::Background.index(), 0);
/// ```
pub trait LayerKey: Copy {
    /// The layer's position, from 0.
    fn index(self) -> usize;
}

impl LayerKey for usize {
    #[inline]
    fn index(self) -> usize {
        self
    }
}

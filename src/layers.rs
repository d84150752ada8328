//! Layers: a fixed, ordered set of collections that one cursor walks in
//! layer order — update order and draw order for games.
//!
//! Each layer is a [`ReadWriteCollection`] with an *enabled* flag (does the
//! update cursor walk it?) and a *visible* flag (does
//! [`Layers::iter_visible`] include it, for draw passes?). Layers are
//! addressed by index, or by a user enum implementing [`LayerKey`].
//!
//! A traversal pushes into the layer it is walking ([`Entry::push`],
//! [`LayersCursor::push`]). The other layers are borrowed by the cursor, so
//! to spawn into a different layer (a ship firing into the bullet layer),
//! collect the new elements in a side `Vec` and push them with
//! [`Layers::push`] after the pass; the next pass visits them. Layer indices
//! come back as `usize` (`LayerKey::index` of your key).
//!
//! # Examples
//!
//! ```
//! use read_write_collection::layers::{LayerKey, Layers};
//!
//! #[derive(Clone, Copy, Debug, PartialEq)]
//! enum Layer { Actors, Bullets }
//!
//! impl LayerKey for Layer {
//!     fn index(self) -> usize { self as usize }
//! }
//!
//! let mut world: Layers<u32, Layer> = Layers::new(2);
//! world.push(Layer::Actors, 1);
//! world.push(Layer::Bullets, 100);
//! world.push(Layer::Actors, 2);
//!
//! let mut order = Vec::new();
//! let mut cursor = world.cursor();
//! while let Some(mut e) = cursor.next() {
//!     order.push(*e);
//!     if *e == 2 {
//!         e.push(3); // into the layer being walked: visited in this pass
//!     }
//! }
//! drop(cursor);
//! assert_eq!(order, [1, 2, 3, 100]);
//!
//! world.set_enabled(Layer::Bullets, false); // paused: not updated
//! let mut updated = 0;
//! world.traverse(|_, _entry| updated += 1);
//! assert_eq!(updated, 3);
//! ```

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use crate::auto_remove::{AutoRemove, NoAutoRemove};
use crate::collection::ReadWriteCollection;
use crate::cursor::{Cursor, Entry};
use crate::error::CapacityError;

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

/// One layer: its collection and its flags.
#[derive(Clone)]
struct Slot<T, A> {
    items: ReadWriteCollection<T, A>,
    enabled: bool,
    visible: bool,
}

/// A fixed, ordered set of [`ReadWriteCollection`]s; see [the module docs](self).
///
/// `K` is the key type (`usize` by default), `A` the auto-remove policy
/// every layer shares the type of.
pub struct Layers<T, K = usize, A = NoAutoRemove> {
    slots: Vec<Slot<T, A>>,
    _key: PhantomData<fn(K)>,
}

impl<T, K: LayerKey> Layers<T, K> {
    /// `count` empty, enabled, visible layers without auto-remove policy
    /// or bound; use [`from_collections`](Layers::from_collections) for
    /// layers with a policy, a bound or unordered mode.
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
    pub fn new(count: usize) -> Self {
        Self::from_collections((0..count).map(|_| ReadWriteCollection::new()))
    }
}

impl<T, K: LayerKey, A> Layers<T, K, A> {
    /// Layers made of the given collections, in order, all enabled and
    /// visible. Lets each layer have its own bound, mode, shrink policy
    /// and (same-typed) auto-remove policy.
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
    pub fn from_collections<I>(collections: I) -> Self
    where
        I: IntoIterator<Item = ReadWriteCollection<T, A>>,
    {
        Layers {
            slots: collections
                .into_iter()
                .map(|items| Slot {
                    items,
                    enabled: true,
                    visible: true,
                })
                .collect(),
            _key: PhantomData,
        }
    }

    #[track_caller]
    fn slot(&self, key: K) -> &Slot<T, A> {
        let i = key.index();
        match self.slots.get(i) {
            Some(slot) => slot,
            None => out_of_range(i, self.slots.len()),
        }
    }

    #[track_caller]
    fn slot_mut(&mut self, key: K) -> &mut Slot<T, A> {
        let i = key.index();
        let n = self.slots.len();
        match self.slots.get_mut(i) {
            Some(slot) => slot,
            None => out_of_range(i, n),
        }
    }

    /// The number of layers.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// assert_eq!(Layers::<u8>::new(4).layer_count(), 4);
    /// ```
    #[inline]
    pub fn layer_count(&self) -> usize {
        self.slots.len()
    }

    /// The number of elements in all layers.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(2);
    /// l.push(0, 1);
    /// l.push(1, 2);
    /// assert_eq!(l.len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.slots.iter().map(|s| s.items.len()).sum()
    }

    /// Whether every layer is empty.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// assert!(Layers::<u8>::new(2).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.slots.iter().all(|s| s.items.is_empty())
    }

    /// The collection of layer `key`.
    ///
    /// # Panics
    ///
    /// If `key` names no layer.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(2);
    /// l.push(1, 7);
    /// assert_eq!(l.layer(1), &[7]);
    /// ```
    #[track_caller]
    pub fn layer(&self, key: K) -> &ReadWriteCollection<T, A> {
        &self.slot(key).items
    }

    /// The collection of layer `key`, mutably (to push, clear, or walk that
    /// layer alone with its own cursor).
    ///
    /// # Panics
    ///
    /// If `key` names no layer.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(2);
    /// l.layer_mut(0).extend([1, 2, 3]);
    /// assert_eq!(l.layer(0).len(), 3);
    /// ```
    #[track_caller]
    pub fn layer_mut(&mut self, key: K) -> &mut ReadWriteCollection<T, A> {
        &mut self.slot_mut(key).items
    }

    /// Appends `value` to layer `key`.
    ///
    /// # Panics
    ///
    /// If `key` names no layer, or that layer is bounded and full.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<&str> = Layers::new(1);
    /// l.push(0, "hero");
    /// assert_eq!(l.layer(0), &["hero"]);
    /// ```
    #[track_caller]
    pub fn push(&mut self, key: K, value: T) {
        self.slot_mut(key).items.push(value);
    }

    /// Appends `value` to layer `key` unless that layer is full.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] with the value if the layer is bounded and full.
    ///
    /// # Panics
    ///
    /// If `key` names no layer.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{Layers, ReadWriteCollection};
    ///
    /// let mut l: Layers<u8> = Layers::from_collections([ReadWriteCollection::bounded(1)]);
    /// assert!(l.try_push(0, 1).is_ok());
    /// assert_eq!(l.try_push(0, 2).unwrap_err().into_inner(), 2);
    /// ```
    #[track_caller]
    pub fn try_push(&mut self, key: K, value: T) -> Result<(), CapacityError<T>> {
        self.slot_mut(key).items.try_push(value)
    }

    /// Whether cursors walk layer `key`.
    ///
    /// # Panics
    ///
    /// If `key` names no layer.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(1);
    /// assert!(l.is_enabled(0));
    /// l.set_enabled(0, false);
    /// assert!(!l.is_enabled(0));
    /// ```
    #[track_caller]
    pub fn is_enabled(&self, key: K) -> bool {
        self.slot(key).enabled
    }

    /// Sets whether cursors walk layer `key` (a disabled layer is paused,
    /// not cleared).
    ///
    /// # Panics
    ///
    /// If `key` names no layer.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(2);
    /// l.push(0, 1);
    /// l.push(1, 2);
    /// l.set_enabled(0, false);
    /// let mut seen = Vec::new();
    /// l.traverse(|_, e| seen.push(*e));
    /// assert_eq!(seen, [2]);
    /// ```
    #[track_caller]
    pub fn set_enabled(&mut self, key: K, enabled: bool) {
        self.slot_mut(key).enabled = enabled;
    }

    /// Whether [`iter_visible`](Self::iter_visible) includes layer `key`.
    ///
    /// # Panics
    ///
    /// If `key` names no layer.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let l: Layers<u8> = Layers::new(1);
    /// assert!(l.is_visible(0));
    /// ```
    #[track_caller]
    pub fn is_visible(&self, key: K) -> bool {
        self.slot(key).visible
    }

    /// Sets whether [`iter_visible`](Self::iter_visible) includes layer `key`.
    ///
    /// # Panics
    ///
    /// If `key` names no layer.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(2);
    /// l.push(0, 1);
    /// l.push(1, 2);
    /// l.set_visible(1, false);
    /// assert_eq!(l.iter_visible().map(|(_, v)| *v).collect::<Vec<_>>(), [1]);
    /// ```
    #[track_caller]
    pub fn set_visible(&mut self, key: K, visible: bool) {
        self.slot_mut(key).visible = visible;
    }

    /// Every element of the visible layers with its layer index, in layer
    /// order then element order: a draw pass.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<char> = Layers::new(2);
    /// l.push(1, 'b');
    /// l.push(0, 'a');
    /// let drawn: Vec<(usize, char)> = l.iter_visible().map(|(i, c)| (i, *c)).collect();
    /// assert_eq!(drawn, [(0, 'a'), (1, 'b')]);
    /// ```
    pub fn iter_visible(&self) -> impl Iterator<Item = (usize, &T)> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.visible)
            .flat_map(|(i, s)| s.items.iter().map(move |v| (i, v)))
    }

    /// Empties every layer (flags unchanged).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(2);
    /// l.push(1, 1);
    /// l.clear();
    /// assert!(l.is_empty());
    /// ```
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| s.items.clear());
    }
}

impl<T, K: LayerKey, A: AutoRemove<T>> Layers<T, K, A> {
    /// Starts one traversal of every enabled layer, in layer order; see
    /// [`LayersCursor`].
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<i32> = Layers::new(2);
    /// l.push(0, 1);
    /// l.push(1, -1);
    /// let mut cursor = l.cursor();
    /// while let Some(e) = cursor.next() {
    ///     if *e < 0 {
    ///         e.remove();
    ///     }
    /// }
    /// drop(cursor);
    /// assert_eq!(l.len(), 1);
    /// ```
    pub fn cursor(&mut self) -> LayersCursor<'_, T, A> {
        LayersCursor {
            rest: self.slots.iter_mut().enumerate(),
            current: None,
        }
    }

    /// The closure form: calls `f(layer_index, entry)` for every element of
    /// every enabled layer, pushed ones included.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u32> = Layers::new(2);
    /// l.push(0, 10);
    /// l.push(1, 20);
    /// l.traverse(|layer, mut e| *e += layer as u32);
    /// assert_eq!(l.layer(1), &[21]);
    /// ```
    pub fn traverse<F>(&mut self, mut f: F)
    where
        F: FnMut(usize, Entry<'_, T>),
    {
        let mut cursor = self.cursor();
        while cursor.step() {
            let (layer, entry) = cursor.held();
            f(layer, entry);
        }
    }
}

impl<T: Clone, K, A: Clone> Clone for Layers<T, K, A> {
    fn clone(&self) -> Self {
        Layers {
            slots: self.slots.clone(),
            _key: PhantomData,
        }
    }
}

impl<T: fmt::Debug, K, A> fmt::Debug for Layers<T, K, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_list();
        for slot in &self.slots {
            list.entry(&LayerDebug(slot));
        }
        list.finish()
    }
}

struct LayerDebug<'s, T, A>(&'s Slot<T, A>);

impl<T: fmt::Debug, A> fmt::Debug for LayerDebug<'_, T, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Layer")
            .field("enabled", &self.0.enabled)
            .field("visible", &self.0.visible)
            .field("items", &self.0.items)
            .finish()
    }
}

#[cold]
#[track_caller]
fn out_of_range(index: usize, count: usize) -> ! {
    panic!("layer index {index} out of range for {count} layers")
}

/// One traversal over the enabled layers of a [`Layers`], in layer order.
///
/// A lending cursor like [`Cursor`]: [`Entry::remove`] removes, and
/// [`Entry::push`] / [`LayersCursor::push`] append to the layer being
/// walked (visited later in this pass). Each layer's traversal completes
/// when the cursor moves past it, or when the cursor is dropped.
///
/// # Examples
///
/// ```
/// use read_write_collection::Layers;
///
/// let mut l: Layers<u8> = Layers::new(2);
/// l.push(0, 1);
/// l.push(1, 2);
/// let mut cursor = l.cursor();
/// let mut seen = Vec::new();
/// while let Some(e) = cursor.next() {
///     let value = *e;
///     seen.push(value);
///     if cursor.layer() == Some(0) && value == 1 {
///         cursor.push(9); // into layer 0, visited next
///     }
/// }
/// drop(cursor);
/// assert_eq!(seen, [1, 9, 2]);
/// ```
pub struct LayersCursor<'a, T, A: AutoRemove<T> = NoAutoRemove> {
    rest: core::iter::Enumerate<core::slice::IterMut<'a, Slot<T, A>>>,
    current: Option<(usize, Cursor<'a, T, A>)>,
}

impl<'a, T, A: AutoRemove<T>> LayersCursor<'a, T, A> {
    /// Advances; returns whether an element is held.
    fn step(&mut self) -> bool {
        loop {
            if let Some((_, cursor)) = &mut self.current {
                if cursor.step() {
                    return true;
                }
            }
            // This layer is done: dropping its cursor completes it.
            self.current = None;
            match self.rest.by_ref().find(|(_, s)| s.enabled) {
                Some((i, slot)) => self.current = Some((i, slot.items.cursor())),
                None => return false,
            }
        }
    }

    fn held(&mut self) -> (usize, Entry<'_, T>) {
        let (layer, cursor) = self
            .current
            .as_mut()
            .expect("step returned true, so a layer is being walked");
        (*layer, cursor.held_entry())
    }

    /// Moves to the next element of this or a later enabled layer and
    /// lends it out; `None` when all enabled layers are done.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(3);
    /// l.push(2, 5);
    /// let mut cursor = l.cursor();
    /// assert_eq!(cursor.next().as_deref(), Some(&5));
    /// assert!(cursor.next().is_none());
    /// ```
    #[allow(clippy::should_implement_trait)] // lending: cannot be `Iterator::next`
    pub fn next(&mut self) -> Option<Entry<'_, T>> {
        self.next_with_layer().map(|(_, entry)| entry)
    }

    /// Like [`next`](Self::next), and also tells which layer the entry is
    /// in (handy because [`layer`](Self::layer) cannot be called while the
    /// entry is in use).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(2);
    /// l.push(0, 1);
    /// l.push(1, 2);
    /// let mut cursor = l.cursor();
    /// let mut seen = Vec::new();
    /// while let Some((layer, mut e)) = cursor.next_with_layer() {
    ///     *e += 10 * layer as u8;
    ///     seen.push((layer, *e));
    /// }
    /// assert_eq!(seen, [(0, 1), (1, 12)]);
    /// ```
    pub fn next_with_layer(&mut self) -> Option<(usize, Entry<'_, T>)> {
        if self.step() {
            Some(self.held())
        } else {
            None
        }
    }

    /// The index of the layer being walked (`None` before the first
    /// `next` and after the last).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(2);
    /// l.push(1, 5);
    /// let mut cursor = l.cursor();
    /// assert_eq!(cursor.layer(), None);
    /// cursor.next();
    /// assert_eq!(cursor.layer(), Some(1));
    /// ```
    pub fn layer(&self) -> Option<usize> {
        self.current.as_ref().map(|(i, _)| *i)
    }

    /// Appends `value` to the layer being walked; it is visited later in
    /// this pass.
    ///
    /// # Panics
    ///
    /// If no layer is being walked (before the first `next` or after the
    /// last), or the layer is bounded and full.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(1);
    /// l.push(0, 1);
    /// let mut cursor = l.cursor();
    /// while let Some(e) = cursor.next() {
    ///     if *e == 1 {
    ///         e.remove();
    ///         cursor.push(2);
    ///     }
    /// }
    /// drop(cursor);
    /// assert_eq!(l.layer(0), &[2]);
    /// ```
    #[track_caller]
    pub fn push(&mut self, value: T) {
        match &mut self.current {
            Some((_, cursor)) => cursor.push(value),
            None => panic!("LayersCursor::push outside a layer (call `next` first)"),
        }
    }

    /// Like [`push`](Self::push), but a full bounded layer hands the value
    /// back.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] with the value if the layer is full.
    ///
    /// # Panics
    ///
    /// If no layer is being walked.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{Layers, ReadWriteCollection};
    ///
    /// let mut l: Layers<u8> = Layers::from_collections([ReadWriteCollection::bounded(1)]);
    /// l.push(0, 1);
    /// let mut cursor = l.cursor();
    /// cursor.next();
    /// assert_eq!(cursor.try_push(2).unwrap_err().into_inner(), 2);
    /// ```
    #[track_caller]
    pub fn try_push(&mut self, value: T) -> Result<(), CapacityError<T>> {
        match &mut self.current {
            Some((_, cursor)) => cursor.try_push(value),
            None => panic!("LayersCursor::try_push outside a layer (call `next` first)"),
        }
    }
}

impl<T, A: AutoRemove<T>> fmt::Debug for LayersCursor<'_, T, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LayersCursor")
            .field("layer", &self.layer())
            .finish_non_exhaustive()
    }
}

//! Layers: a fixed, ordered set of collections that one cursor walks in
//! layer order — update order and draw order for games.
//!
//! Each layer is a [`ReadWriteCollection`] with an *enabled* flag (does the
//! update cursor walk it?) and a *visible* flag (does
//! [`Layers::iter_visible`] include it, for draw passes?). Layers are
//! addressed by index, or by a user enum implementing [`LayerKey`].
//!
//! A traversal pushes into the layer it is walking ([`LayerEntry::push`],
//! [`LayersCursor::push`]) and, with [`push_to`](LayerEntry::push_to) /
//! [`try_push_to`](LayerEntry::try_push_to), into any other layer (a ship
//! firing into the bullet layer, an enemy dying into the effects layer):
//! pushes into the layer being walked or a later one are visited in the
//! same pass, pushes into an earlier layer by the next pass. Layer indices
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
//!         e.push_to(Layer::Bullets, 200); // a later layer: visited in this pass
//!     } else if *e == 200 {
//!         e.push_to(Layer::Actors, 4); // an earlier layer: the next pass
//!     }
//! }
//! drop(cursor);
//! assert_eq!(order, [1, 2, 3, 100, 200]);
//! assert_eq!(world.layer(Layer::Actors), &[1, 2, 3, 4]);
//!
//! world.set_enabled(Layer::Bullets, false); // paused: not updated
//! let mut updated = 0;
//! world.traverse(|_, _entry| updated += 1);
//! assert_eq!(updated, 4);
//! ```

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;
use core::mem;
use core::ops::{Deref, DerefMut};

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

    /// Mutable access to several layers at once (outside a pass), say to
    /// move elements from one layer to another: the collections of the
    /// layers `keys` names, in that order. `None` if a key names no layer
    /// or two keys name the same layer.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(3);
    /// l.push(0, 1);
    /// l.push(0, 2);
    /// let [from, to] = l.disjoint_layers_mut([0, 2]).unwrap();
    /// to.extend(from.drain(..));
    /// assert_eq!(l.layer(2), &[1, 2]);
    /// assert!(l.disjoint_layers_mut([1, 1]).is_none());
    /// assert!(l.disjoint_layers_mut([0, 3]).is_none());
    /// ```
    pub fn disjoint_layers_mut<const N: usize>(
        &mut self,
        keys: [K; N],
    ) -> Option<[&mut ReadWriteCollection<T, A>; N]> {
        let indices = keys.map(LayerKey::index);
        for (n, &i) in indices.iter().enumerate() {
            if i >= self.slots.len() || indices[..n].contains(&i) {
                return None;
            }
        }
        let mut found: [Option<&mut ReadWriteCollection<T, A>>; N] = [(); N].map(|()| None);
        for (i, slot) in self.slots.iter_mut().enumerate() {
            if let Some(n) = indices.iter().position(|&j| j == i) {
                found[n] = Some(&mut slot.items);
            }
        }
        Some(found.map(|layer| layer.expect("every key names a distinct layer")))
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
    pub fn cursor(&mut self) -> LayersCursor<'_, T, A, K> {
        let layers = self
            .slots
            .iter_mut()
            .map(|slot| LayerState::Waiting {
                items: &mut slot.items,
                enabled: slot.enabled,
            })
            .collect();
        LayersCursor {
            current: None,
            others: Box::new(Others { layers, next: 0 }),
            _key: PhantomData,
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
        F: FnMut(usize, LayerEntry<'_, T, K>),
    {
        // One tight loop per layer, over a cursor in a local: the pass
        // state stays in registers, and only moves into `others` when the
        // layer is done. If `f` panics, the local cursor completes its
        // layer and `cursor` the walked ones.
        let mut cursor = self.cursor();
        while let Some((layer, mut walk)) = cursor.others.start_next() {
            while walk.step() {
                let entry = LayerEntry {
                    entry: walk.held_entry(),
                    others: &mut *cursor.others,
                    layer,
                    _key: PhantomData,
                };
                f(layer, entry);
            }
            cursor.others.layers[layer] = LayerState::Walked(walk);
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
/// A lending cursor like [`Cursor`]: [`LayerEntry::remove`] removes, and
/// [`LayerEntry::push`] / [`LayersCursor::push`] append to the layer being
/// walked (visited later in this pass).
///
/// [`push_to`](LayersCursor::push_to) and
/// [`try_push_to`](LayersCursor::try_push_to) (also on [`LayerEntry`])
/// append to any layer, named by its key:
///
/// | target layer | the new element is |
/// | --- | --- |
/// | the layer being walked | visited later in this pass (like `push`) |
/// | a later enabled layer | visited in this pass, when the cursor gets there |
/// | an earlier layer (already walked) | kept behind that layer's elements, visited by the next pass |
/// | a disabled layer | kept, not visited while the layer stays disabled |
///
/// A walked layer's traversal completes when the cursor is dropped (so
/// that pushes into it keep working until then); dropping the cursor also
/// completes the layer being walked and leaves the unvisited layers as
/// they are. `mem::forget` on the cursor leaks the elements of every layer
/// it has walked and the cursor's bookkeeping (never unsound: those layers
/// are left empty and usable).
///
/// A cursor allocates a little bookkeeping (one slot per layer) when it
/// is created; walking allocates nothing more unless a layer must grow.
///
/// # Examples
///
/// ```
/// use read_write_collection::layers::{LayerKey, Layers};
///
/// #[derive(Clone, Copy)]
/// enum Layer { Ships, Bullets }
/// impl LayerKey for Layer {
///     fn index(self) -> usize { self as usize }
/// }
///
/// let mut world: Layers<&str, Layer> = Layers::new(2);
/// world.push(Layer::Ships, "ship");
/// let mut cursor = world.cursor();
/// let mut seen = Vec::new();
/// while let Some(mut e) = cursor.next() {
///     seen.push(*e);
///     if *e == "ship" {
///         e.push_to(Layer::Bullets, "bullet"); // later layer: visited in this pass
///     } else if *e == "bullet" {
///         e.push_to(Layer::Ships, "wreck"); // earlier layer: next pass
///     }
/// }
/// drop(cursor);
/// assert_eq!(seen, ["ship", "bullet"]);
/// assert_eq!(world.layer(Layer::Ships), &["ship", "wreck"]);
/// ```
///
/// An entry borrows the cursor, so two entries cannot be held at once:
///
/// ```compile_fail
/// use read_write_collection::Layers;
///
/// let mut l: Layers<u8> = Layers::new(2);
/// l.push(0, 1);
/// l.push(1, 2);
/// let mut cursor = l.cursor();
/// let first = cursor.next().unwrap();
/// let second = cursor.next().unwrap(); // error: `cursor` is still borrowed by `first`
/// assert_eq!(*first + *second, 3);
/// ```
///
/// and the cursor cannot push while an entry is in use (push through the
/// entry instead):
///
/// ```compile_fail
/// use read_write_collection::Layers;
///
/// let mut l: Layers<u8> = Layers::new(2);
/// l.push(0, 1);
/// let mut cursor = l.cursor();
/// let mut e = cursor.next().unwrap();
/// cursor.push_to(1, 5); // error: `cursor` is borrowed by `e`
/// *e += 1;
/// ```
pub struct LayersCursor<'a, T, A: AutoRemove<T> = NoAutoRemove, K = usize> {
    /// The layer being walked and its cursor.
    current: Option<(usize, Cursor<'a, T, A>)>,
    /// Every other layer. Boxed so that an entry's pointer to it is not a
    /// pointer into the cursor: the cursor's per-element state can then
    /// stay in registers across the loop body.
    others: Box<Others<'a, T, A>>,
    _key: PhantomData<fn(K)>,
}

/// A layer during a [`LayersCursor`] pass.
enum LayerState<'a, T, A: AutoRemove<T>> {
    /// Not walked (yet): a later layer, or a disabled one. Pushes go
    /// straight into its collection; an enabled one is walked, pushed
    /// elements included, when the cursor gets there.
    Waiting {
        items: &'a mut ReadWriteCollection<T, A>,
        enabled: bool,
    },
    /// Walked to its end. Its pass stays open until the `LayersCursor` is
    /// dropped, so pushes are appended behind its elements (kept, for the
    /// next pass to visit).
    Walked(Cursor<'a, T, A>),
    /// The layer being walked: its cursor is in `LayersCursor::current`.
    Current,
}

/// Every layer of a pass but the one being walked.
struct Others<'a, T, A: AutoRemove<T>> {
    layers: Vec<LayerState<'a, T, A>>,
    /// The next layer to consider walking.
    next: usize,
}

impl<'a, T, A: AutoRemove<T>> Others<'a, T, A> {
    /// Puts the layer that is done (if any) back, its pass still open for
    /// `push_to`, and starts walking the next enabled layer.
    #[inline]
    fn switch(
        &mut self,
        done: Option<(usize, Cursor<'a, T, A>)>,
    ) -> Option<(usize, Cursor<'a, T, A>)> {
        if let Some((i, cursor)) = done {
            self.layers[i] = LayerState::Walked(cursor);
        }
        self.start_next()
    }

    /// Starts walking the next enabled layer, if any.
    fn start_next(&mut self) -> Option<(usize, Cursor<'a, T, A>)> {
        while let Some(state) = self.layers.get_mut(self.next) {
            let i = self.next;
            self.next += 1;
            if let LayerState::Waiting { enabled: true, .. } = state {
                if let LayerState::Waiting { items, .. } = mem::replace(state, LayerState::Current)
                {
                    return Some((i, items.cursor()));
                }
            }
        }
        None
    }
}

/// Pushes into the layers a [`LayerEntry`] is not on, with the policy
/// type erased so that `LayerEntry` does not have to name it.
trait PushTarget<T> {
    fn layer_count(&self) -> usize;

    /// Appends to layer `index` (in range, and not the layer being walked).
    fn push_at(&mut self, index: usize, value: T) -> Result<(), T>;
}

impl<T, A: AutoRemove<T>> PushTarget<T> for Others<'_, T, A> {
    #[inline]
    fn layer_count(&self) -> usize {
        self.layers.len()
    }

    fn push_at(&mut self, index: usize, value: T) -> Result<(), T> {
        match &mut self.layers[index] {
            LayerState::Waiting { items, .. } => {
                items.try_push(value).map_err(CapacityError::into_inner)
            }
            LayerState::Walked(cursor) => cursor.try_push(value).map_err(CapacityError::into_inner),
            LayerState::Current => {
                unreachable!("the layer being walked is pushed to through its cursor")
            }
        }
    }
}

impl<'a, T, A: AutoRemove<T>, K: LayerKey> LayersCursor<'a, T, A, K> {
    /// Advances; returns whether an element is held.
    #[inline]
    fn step(&mut self) -> bool {
        loop {
            if let Some((_, cursor)) = &mut self.current {
                if cursor.step() {
                    return true;
                }
            }
            match self.others.switch(self.current.take()) {
                Some(walk) => self.current = Some(walk),
                None => return false,
            }
        }
    }

    fn held(&mut self) -> (usize, LayerEntry<'_, T, K>) {
        let (layer, cursor) = self
            .current
            .as_mut()
            .expect("step returned true, so a layer is being walked");
        let entry = LayerEntry {
            entry: cursor.held_entry(),
            others: &mut *self.others,
            layer: *layer,
            _key: PhantomData,
        };
        (*layer, entry)
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
    #[inline]
    pub fn next(&mut self) -> Option<LayerEntry<'_, T, K>> {
        if self.step() {
            Some(self.held().1)
        } else {
            None
        }
    }

    /// Like [`next`](Self::next), and also tells which layer the entry is
    /// in (as [`LayerEntry::layer`] does).
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
    #[inline]
    pub fn next_with_layer(&mut self) -> Option<(usize, LayerEntry<'_, T, K>)> {
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
    /// last; [`push_to`](Self::push_to) works then), or the layer is
    /// bounded and full.
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

    /// Appends `value` to layer `key`. It is visited in this pass if that
    /// layer is the one being walked or a later enabled one, and by the
    /// next pass if the layer was already walked (see the table on
    /// [`LayersCursor`]). Works before the first `next` and after
    /// the last, too.
    ///
    /// # Panics
    ///
    /// If `key` names no layer, or the layer is bounded and full (see
    /// [`try_push_to`](Self::try_push_to)).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(2);
    /// l.push(0, 1);
    /// let mut cursor = l.cursor();
    /// let mut seen = Vec::new();
    /// while let Some(e) = cursor.next() {
    ///     let v = e.remove();
    ///     seen.push(v);
    ///     if v == 1 {
    ///         cursor.push_to(1, 2); // later layer: visited in this pass
    ///         cursor.push_to(0, 3); // this layer: visited in this pass
    ///     } else if v == 2 {
    ///         cursor.push_to(0, 4); // earlier layer: left for the next pass
    ///     }
    /// }
    /// drop(cursor);
    /// assert_eq!(seen, [1, 3, 2]);
    /// assert_eq!(l.layer(0), &[4]);
    /// assert!(l.layer(1).is_empty());
    /// ```
    #[track_caller]
    pub fn push_to(&mut self, key: K, value: T) {
        if self.push_to_inner(key, value).is_err() {
            full_layer_panic();
        }
    }

    /// Like [`push_to`](Self::push_to), but a full bounded layer hands the
    /// value back.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] with the value if layer `key` is bounded and
    /// full.
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
    /// let mut l: Layers<char> =
    ///     Layers::from_collections([ReadWriteCollection::new(), ReadWriteCollection::bounded(1)]);
    /// l.push(0, 'a');
    /// let mut cursor = l.cursor();
    /// cursor.next();
    /// assert!(cursor.try_push_to(1, 'b').is_ok());
    /// assert_eq!(cursor.try_push_to(1, 'c').unwrap_err().into_inner(), 'c');
    /// drop(cursor);
    /// assert_eq!(l.layer(1), &['b']);
    /// ```
    #[track_caller]
    pub fn try_push_to(&mut self, key: K, value: T) -> Result<(), CapacityError<T>> {
        self.push_to_inner(key, value).map_err(CapacityError::new)
    }

    #[track_caller]
    fn push_to_inner(&mut self, key: K, value: T) -> Result<(), T> {
        let i = key.index();
        if let Some((layer, cursor)) = &mut self.current {
            if *layer == i {
                return cursor.try_push(value).map_err(CapacityError::into_inner);
            }
        }
        let n = self.others.layers.len();
        if i >= n {
            out_of_range(i, n);
        }
        self.others.push_at(i, value)
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn full_layer_panic() -> ! {
    panic!("push_to into a full bounded layer (use `try_push_to` to get the value back)")
}

/// The element a [`LayersCursor`] is on, lent out by
/// [`LayersCursor::next`] (and given to the closure of
/// [`Layers::traverse`]).
///
/// Like [`Entry`]: dereferences to the element, [`remove`](Self::remove)
/// takes it out, [`push`](Self::push) appends to its layer; and
/// [`push_to`](Self::push_to) appends to any layer (see
/// [`LayersCursor`] for when those elements are visited).
///
/// # Examples
///
/// ```
/// use read_write_collection::Layers;
///
/// let mut l: Layers<i32> = Layers::new(2);
/// l.push(0, 5);
/// l.traverse(|layer, mut e| {
///     if layer == 0 {
///         let echo = -*e;
///         e.push_to(1, echo);
///     }
///     assert_eq!(e.layer(), layer);
/// });
/// assert_eq!(l.layer(1), &[-5]);
/// ```
pub struct LayerEntry<'c, T, K = usize> {
    entry: Entry<'c, T>,
    others: &'c mut (dyn PushTarget<T> + 'c),
    layer: usize,
    _key: PhantomData<fn(K)>,
}

impl<'c, T, K: LayerKey> LayerEntry<'c, T, K> {
    /// The index of the layer this element is in.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(3);
    /// l.push(2, 1);
    /// let mut cursor = l.cursor();
    /// assert_eq!(cursor.next().unwrap().layer(), 2);
    /// ```
    #[inline]
    pub fn layer(&self) -> usize {
        self.layer
    }

    /// Removes the element from its layer and returns it.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(1);
    /// l.push(0, 1);
    /// l.push(0, 2);
    /// let mut cursor = l.cursor();
    /// assert_eq!(cursor.next().unwrap().remove(), 1);
    /// drop(cursor);
    /// assert_eq!(l.layer(0), &[2]);
    /// ```
    #[inline]
    pub fn remove(self) -> T {
        self.entry.remove()
    }

    /// Appends `value` to this element's layer; this pass visits it after
    /// everything already queued there.
    ///
    /// # Panics
    ///
    /// If the layer is bounded and full; see [`try_push`](Self::try_push).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(1);
    /// l.push(0, 1);
    /// l.traverse(|_, mut e| if *e == 1 { e.push(2) });
    /// assert_eq!(l.layer(0), &[1, 2]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn push(&mut self, value: T) {
        self.entry.push(value);
    }

    /// Like [`push`](Self::push), but a full bounded layer hands the value
    /// back.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] with the value if the layer is full.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{Layers, ReadWriteCollection};
    ///
    /// let mut l: Layers<u8> = Layers::from_collections([ReadWriteCollection::bounded(1)]);
    /// l.push(0, 1);
    /// let mut cursor = l.cursor();
    /// let mut e = cursor.next().unwrap();
    /// assert_eq!(e.try_push(2).unwrap_err().into_inner(), 2);
    /// ```
    #[inline]
    pub fn try_push(&mut self, value: T) -> Result<(), CapacityError<T>> {
        self.entry.try_push(value)
    }

    /// Appends `value` to layer `key`: visited in this pass if that is
    /// this element's layer or a later enabled one, by the next pass if
    /// it is an earlier one (see [`LayersCursor`]).
    ///
    /// # Panics
    ///
    /// If `key` names no layer, or the layer is bounded and full (see
    /// [`try_push_to`](Self::try_push_to)).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::layers::{LayerKey, Layers};
    ///
    /// #[derive(Clone, Copy)]
    /// enum Layer { Enemies, Effects }
    /// impl LayerKey for Layer {
    ///     fn index(self) -> usize { self as usize }
    /// }
    ///
    /// let mut world: Layers<i32, Layer> = Layers::new(2);
    /// world.push(Layer::Enemies, 0); // hp 0: dies into an explosion
    /// world.push(Layer::Enemies, 3);
    /// let mut effects_seen = 0;
    /// world.traverse(|layer, mut e| {
    ///     if layer == Layer::Effects.index() {
    ///         effects_seen += 1; // the explosion, in this same pass
    ///     } else if *e == 0 {
    ///         e.push_to(Layer::Effects, 100);
    ///         e.remove();
    ///     }
    /// });
    /// assert_eq!(effects_seen, 1);
    /// assert_eq!(world.layer(Layer::Enemies), &[3]);
    /// assert_eq!(world.layer(Layer::Effects), &[100]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn push_to(&mut self, key: K, value: T) {
        if self.push_to_inner(key, value).is_err() {
            full_layer_panic();
        }
    }

    /// Like [`push_to`](Self::push_to), but a full bounded layer hands the
    /// value back.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] with the value if layer `key` is bounded and
    /// full.
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
    /// let mut l: Layers<u8> =
    ///     Layers::from_collections([ReadWriteCollection::new(), ReadWriteCollection::bounded(0)]);
    /// l.push(0, 1);
    /// let mut cursor = l.cursor();
    /// let mut e = cursor.next().unwrap();
    /// assert_eq!(e.try_push_to(1, 2).unwrap_err().into_inner(), 2);
    /// ```
    #[inline]
    #[track_caller]
    pub fn try_push_to(&mut self, key: K, value: T) -> Result<(), CapacityError<T>> {
        self.push_to_inner(key, value).map_err(CapacityError::new)
    }

    #[inline]
    #[track_caller]
    fn push_to_inner(&mut self, key: K, value: T) -> Result<(), T> {
        let i = key.index();
        if i == self.layer {
            return self
                .entry
                .try_push(value)
                .map_err(CapacityError::into_inner);
        }
        let n = self.others.layer_count();
        if i >= n {
            out_of_range(i, n);
        }
        self.others.push_at(i, value)
    }

    /// The plain [`Entry`] (for code written against `Entry`); it can
    /// no longer push into other layers.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{Entry, Layers};
    ///
    /// fn bump(mut e: Entry<'_, u8>) { *e += 1; }
    ///
    /// let mut l: Layers<u8> = Layers::new(1);
    /// l.push(0, 1);
    /// l.traverse(|_, e| bump(e.into_entry()));
    /// assert_eq!(l.layer(0), &[2]);
    /// ```
    #[inline]
    pub fn into_entry(self) -> Entry<'c, T> {
        self.entry
    }
}

impl<T, K> Deref for LayerEntry<'_, T, K> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        &self.entry
    }
}

impl<T, K> DerefMut for LayerEntry<'_, T, K> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        &mut self.entry
    }
}

impl<T: fmt::Debug, K> fmt::Debug for LayerEntry<'_, T, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LayerEntry")
            .field("layer", &self.layer)
            .field("value", &*self.entry)
            .finish()
    }
}

impl<T, A: AutoRemove<T>, K: LayerKey> fmt::Debug for LayersCursor<'_, T, A, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LayersCursor")
            .field("layer", &self.layer())
            .finish_non_exhaustive()
    }
}

// ------------------------------------------------------------ removal sink

impl<T, K: LayerKey, A: AutoRemove<T>> Layers<T, K, A> {
    /// Starts a traversal of every enabled layer whose removed elements
    /// (auto-removed, and [removed](LayerSinkEntry::remove) by the loop),
    /// from every layer, go to `sink` in removal order; see
    /// [`SinkCursor`](crate::SinkCursor) for what a sink is.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{Layers, ReadWriteCollection};
    ///
    /// let dead = |hp: &i32| *hp <= 0;
    /// let mut l: Layers<i32, usize, _> =
    ///     Layers::from_collections([ReadWriteCollection::with_auto_remove(dead),
    ///                               ReadWriteCollection::with_auto_remove(dead)]);
    /// l.push(0, 1);
    /// l.push(1, 2);
    /// let mut loot = Vec::new();
    /// let mut cursor = l.cursor_with_sink(|d| loot.push(d));
    /// while let Some(mut e) = cursor.next() {
    ///     *e -= 1; // the first one dies
    ///     if e.layer() == 1 {
    ///         e.remove();
    ///     }
    /// }
    /// drop(cursor);
    /// assert_eq!(loot, [0, 1]);
    /// assert!(l.is_empty());
    /// ```
    pub fn cursor_with_sink<S: FnMut(T)>(&mut self, sink: S) -> LayersSinkCursor<'_, T, S, A, K> {
        LayersSinkCursor {
            cursor: self.cursor(),
            sink,
        }
    }

    /// The closure form of [`cursor_with_sink`](Self::cursor_with_sink):
    /// calls `f(layer_index, entry)` for every element of every enabled
    /// layer; every removed element goes to `sink`.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{Layers, ReadWriteCollection};
    ///
    /// let mut l: Layers<u32> = Layers::new(2);
    /// l.push(0, 1);
    /// l.push(1, 2);
    /// let mut items = ReadWriteCollection::new();
    /// l.traverse_with_sink(|gone| items.push(gone * 100), |layer, e| {
    ///     if layer == 1 {
    ///         e.remove();
    ///     }
    /// });
    /// assert_eq!(items, [200]);
    /// ```
    pub fn traverse_with_sink<S, F>(&mut self, sink: S, mut f: F)
    where
        S: FnMut(T),
        F: FnMut(usize, LayerSinkEntry<'_, T, S, K>),
    {
        // One tight loop per layer, as in `traverse`. If `f` or the sink
        // panics, the local cursor completes its layer (running no user
        // code while unwinding) and `cursor` the walked ones.
        let mut sink = sink;
        let mut cursor = self.cursor();
        while let Some((layer, mut walk)) = cursor.others.start_next() {
            while walk.step_into(&mut sink) {
                let entry = LayerEntry {
                    entry: walk.held_entry(),
                    others: &mut *cursor.others,
                    layer,
                    _key: PhantomData,
                };
                f(
                    layer,
                    LayerSinkEntry {
                        entry,
                        sink: &mut sink,
                    },
                );
            }
            cursor.others.layers[layer] = LayerState::Walked(walk);
        }
    }
}

impl<T, A: AutoRemove<T>, K: LayerKey> LayersCursor<'_, T, A, K> {
    /// `step`, with auto-removed elements going to `sink`.
    #[inline]
    fn step_into<S: FnMut(T)>(&mut self, sink: &mut S) -> bool {
        loop {
            if let Some((_, cursor)) = &mut self.current {
                if cursor.step_into(sink) {
                    return true;
                }
            }
            match self.others.switch(self.current.take()) {
                Some(walk) => self.current = Some(walk),
                None => return false,
            }
        }
    }
}

/// A [`LayersCursor`] whose pass hands every element it removes, from
/// every layer, to a sink closure (auto-removed and
/// [removed](LayerSinkEntry::remove) ones, owned, in removal order). See
/// [`SinkCursor`](crate::SinkCursor) for sinks, [`LayersCursor`] for
/// layers. Created by [`Layers::cursor_with_sink`].
///
/// # Examples
///
/// ```
/// use read_write_collection::Layers;
///
/// let mut l: Layers<u8> = Layers::new(2);
/// l.push(0, 1);
/// l.push(1, 2);
/// let mut gone = Vec::new();
/// let mut cursor = l.cursor_with_sink(|v| gone.push(v));
/// while let Some(mut e) = cursor.next() {
///     if *e == 1 {
///         e.push_to(1, 3);
///         e.remove();
///     }
/// }
/// drop(cursor);
/// assert_eq!(gone, [1]);
/// assert_eq!(l.layer(1), &[2, 3]);
/// ```
pub struct LayersSinkCursor<'a, T, S: FnMut(T), A: AutoRemove<T> = NoAutoRemove, K = usize> {
    cursor: LayersCursor<'a, T, A, K>,
    sink: S,
}

impl<'a, T, S: FnMut(T), A: AutoRemove<T>, K: LayerKey> LayersSinkCursor<'a, T, S, A, K> {
    /// Moves to the next element and lends it out; as
    /// [`LayersCursor::next`], with the elements the predicates remove
    /// handed to the sink.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(2);
    /// l.push(1, 4);
    /// let mut cursor = l.cursor_with_sink(drop);
    /// assert_eq!(cursor.next().as_deref(), Some(&4));
    /// assert!(cursor.next().is_none());
    /// ```
    #[allow(clippy::should_implement_trait)] // lending: cannot be `Iterator::next`
    #[inline]
    pub fn next(&mut self) -> Option<LayerSinkEntry<'_, T, S, K>> {
        self.next_with_layer().map(|(_, entry)| entry)
    }

    /// Like [`next`](Self::next), with the entry's layer index.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(2);
    /// l.push(1, 4);
    /// let mut cursor = l.cursor_with_sink(drop);
    /// assert_eq!(cursor.next_with_layer().map(|(i, e)| (i, *e)), Some((1, 4)));
    /// ```
    #[inline]
    pub fn next_with_layer(&mut self) -> Option<(usize, LayerSinkEntry<'_, T, S, K>)> {
        if self.cursor.step_into(&mut self.sink) {
            let (layer, entry) = self.cursor.held();
            Some((
                layer,
                LayerSinkEntry {
                    entry,
                    sink: &mut self.sink,
                },
            ))
        } else {
            None
        }
    }

    /// The index of the layer being walked; see [`LayersCursor::layer`].
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(2);
    /// l.push(1, 4);
    /// let mut cursor = l.cursor_with_sink(drop);
    /// cursor.next();
    /// assert_eq!(cursor.layer(), Some(1));
    /// ```
    pub fn layer(&self) -> Option<usize> {
        self.cursor.layer()
    }

    /// Appends to the layer being walked; see [`LayersCursor::push`].
    ///
    /// # Panics
    ///
    /// If no layer is being walked, or the layer is bounded and full.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(1);
    /// l.push(0, 1);
    /// let mut cursor = l.cursor_with_sink(drop);
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
        self.cursor.push(value);
    }

    /// Like [`push`](Self::push), but a full layer hands the value back.
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
    /// let mut cursor = l.cursor_with_sink(drop);
    /// cursor.next();
    /// assert_eq!(cursor.try_push(2).unwrap_err().into_inner(), 2);
    /// ```
    #[track_caller]
    pub fn try_push(&mut self, value: T) -> Result<(), CapacityError<T>> {
        self.cursor.try_push(value)
    }

    /// Appends to layer `key`; see [`LayersCursor::push_to`].
    ///
    /// # Panics
    ///
    /// If `key` names no layer, or the layer is bounded and full.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(2);
    /// let mut cursor = l.cursor_with_sink(drop);
    /// cursor.push_to(1, 9);
    /// assert_eq!(cursor.next().as_deref(), Some(&9));
    /// ```
    #[track_caller]
    pub fn push_to(&mut self, key: K, value: T) {
        self.cursor.push_to(key, value);
    }

    /// Like [`push_to`](Self::push_to), but a full layer hands the value
    /// back.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] with the value if layer `key` is full.
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
    /// let mut l: Layers<u8> = Layers::from_collections([ReadWriteCollection::bounded(0)]);
    /// let mut cursor = l.cursor_with_sink(drop);
    /// assert_eq!(cursor.try_push_to(0, 9).unwrap_err().into_inner(), 9);
    /// ```
    #[track_caller]
    pub fn try_push_to(&mut self, key: K, value: T) -> Result<(), CapacityError<T>> {
        self.cursor.try_push_to(key, value)
    }
}

impl<T, S: FnMut(T), A: AutoRemove<T>, K> Drop for LayersSinkCursor<'_, T, S, A, K> {
    /// Checks the held element with its layer's predicate (into the sink
    /// if it expired); the `cursor` field's drop then completes the layers
    /// (also when the predicate or the sink panics here).
    fn drop(&mut self) {
        #[cfg(feature = "std")]
        if A::ACTIVE && !std::thread::panicking() {
            if let Some((_, cursor)) = &mut self.cursor.current {
                cursor.settle_into(&mut self.sink);
            }
        }
    }
}

impl<T, S: FnMut(T), A: AutoRemove<T>, K: LayerKey> fmt::Debug
    for LayersSinkCursor<'_, T, S, A, K>
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LayersSinkCursor")
            .field("layer", &self.layer())
            .finish_non_exhaustive()
    }
}

/// The element a [`LayersSinkCursor`] is on: a [`LayerEntry`] whose
/// [`remove`](Self::remove) hands the element to the pass's sink.
///
/// # Examples
///
/// ```
/// use read_write_collection::Layers;
///
/// let mut l: Layers<i32> = Layers::new(2);
/// l.push(0, -1);
/// l.push(0, 1);
/// let mut gone = Vec::new();
/// l.traverse_with_sink(|v| gone.push(v), |_, mut e| {
///     if *e < 0 {
///         e.push_to(1, 0);
///         e.remove();
///     }
/// });
/// assert_eq!(gone, [-1]);
/// assert_eq!(l.layer(1), &[0]);
/// ```
pub struct LayerSinkEntry<'c, T, S, K = usize> {
    entry: LayerEntry<'c, T, K>,
    sink: &'c mut S,
}

impl<'c, T, S: FnMut(T), K: LayerKey> LayerSinkEntry<'c, T, S, K> {
    /// The index of the layer this element is in.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(2);
    /// l.push(1, 0);
    /// l.traverse_with_sink(drop, |i, e| assert_eq!(e.layer(), i));
    /// ```
    #[inline]
    pub fn layer(&self) -> usize {
        self.entry.layer()
    }

    /// Removes the element and hands it to the sink.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(1);
    /// l.push(0, 1);
    /// let mut gone = Vec::new();
    /// l.traverse_with_sink(|v| gone.push(v), |_, e| e.remove());
    /// assert_eq!(gone, [1]);
    /// ```
    #[inline]
    pub fn remove(self) {
        let value = self.entry.remove();
        (self.sink)(value);
    }

    /// Removes the element and returns it, bypassing the sink.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(1);
    /// l.push(0, 1);
    /// let mut cursor = l.cursor_with_sink(|_| unreachable!());
    /// assert_eq!(cursor.next().unwrap().take(), 1);
    /// ```
    #[inline]
    pub fn take(self) -> T {
        self.entry.remove()
    }

    /// Appends to this element's layer; see [`LayerEntry::push`].
    ///
    /// # Panics
    ///
    /// If the layer is bounded and full.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(1);
    /// l.push(0, 1);
    /// l.traverse_with_sink(drop, |_, mut e| if *e == 1 { e.push(2) });
    /// assert_eq!(l.layer(0), &[1, 2]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn push(&mut self, value: T) {
        self.entry.push(value);
    }

    /// Like [`push`](Self::push), but a full layer hands the value back.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] with the value if the layer is full.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{Layers, ReadWriteCollection};
    ///
    /// let mut l: Layers<u8> = Layers::from_collections([ReadWriteCollection::bounded(1)]);
    /// l.push(0, 1);
    /// let mut cursor = l.cursor_with_sink(drop);
    /// let mut e = cursor.next().unwrap();
    /// assert_eq!(e.try_push(2).unwrap_err().into_inner(), 2);
    /// ```
    #[inline]
    pub fn try_push(&mut self, value: T) -> Result<(), CapacityError<T>> {
        self.entry.try_push(value)
    }

    /// Appends to layer `key`; see [`LayerEntry::push_to`].
    ///
    /// # Panics
    ///
    /// If `key` names no layer, or the layer is bounded and full.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(2);
    /// l.push(0, 1);
    /// l.traverse_with_sink(drop, |_, mut e| if *e == 1 { e.push_to(1, 2) });
    /// assert_eq!(l.layer(1), &[2]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn push_to(&mut self, key: K, value: T) {
        self.entry.push_to(key, value);
    }

    /// Like [`push_to`](Self::push_to), but a full layer hands the value
    /// back.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] with the value if layer `key` is full.
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
    /// let mut l: Layers<u8> =
    ///     Layers::from_collections([ReadWriteCollection::new(), ReadWriteCollection::bounded(0)]);
    /// l.push(0, 1);
    /// let mut cursor = l.cursor_with_sink(drop);
    /// let mut e = cursor.next().unwrap();
    /// assert_eq!(e.try_push_to(1, 2).unwrap_err().into_inner(), 2);
    /// ```
    #[inline]
    #[track_caller]
    pub fn try_push_to(&mut self, key: K, value: T) -> Result<(), CapacityError<T>> {
        self.entry.try_push_to(key, value)
    }

    /// The [`LayerEntry`], whose `remove` returns the element instead of
    /// sinking it.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::Layers;
    ///
    /// let mut l: Layers<u8> = Layers::new(1);
    /// l.push(0, 1);
    /// let mut cursor = l.cursor_with_sink(drop);
    /// let e = cursor.next().unwrap().into_layer_entry();
    /// assert_eq!(e.remove(), 1);
    /// ```
    #[inline]
    pub fn into_layer_entry(self) -> LayerEntry<'c, T, K> {
        self.entry
    }
}

impl<T, S, K> Deref for LayerSinkEntry<'_, T, S, K> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        &self.entry
    }
}

impl<T, S, K> DerefMut for LayerSinkEntry<'_, T, S, K> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        &mut self.entry
    }
}

impl<T: fmt::Debug, S, K> fmt::Debug for LayerSinkEntry<'_, T, S, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LayerSinkEntry")
            .field("layer", &self.entry.layer)
            .field("value", &*self.entry)
            .finish()
    }
}

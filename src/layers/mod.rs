//! Layers: a fixed, ordered set of collections that one cursor walks in
//! layer order — update order and draw order for games.
//!
//! Each layer is a [`ReadWriteCollection`] with an *enabled* flag (does the
//! update cursor walk it?) and a *visible* flag, its draw flag (does
//! [`Layers::iter_visible`] include it, for drawing?);
//! [`Layers::iter`] reads every layer, whatever its flags. Layers are
//! addressed by index (`usize`), or by an enum of keys defined with
//! [`layer_keys!`](crate::layer_keys!): `Layers<T, Layer>` then has exactly
//! one layer per variant, and [`Default`] builds them.
//!
//! A traversal pushes into the layer it is walking ([`LayerEntry::push`],
//! [`LayersCursor::push`]) and, with [`push_to`](LayerEntry::push_to) /
//! [`try_push_to`](LayerEntry::try_push_to), into any other layer (a ship
//! firing into the bullet layer, an enemy dying into the effects layer):
//! pushes into the layer being walked or a later one are visited in the
//! same pass, pushes into an earlier layer by the next pass. Wherever a
//! layer is handed back (the first argument of [`traverse`](Layers::traverse)'s
//! closure, [`iter_visible`](Layers::iter_visible)'s items, `layer()` on
//! cursors and entries) it comes back as a key: `usize` keys get the
//! index, enum keys their variant.
//!
//! # Examples
//!
//! ```
//! use read_write_collection::{layer_keys, Layers};
//!
//! layer_keys!(enum Layer { Actors, Bullets });
//!
//! let mut world: Layers<u32, Layer> = Layers::default(); // one layer per key
//! assert_eq!(world.layer_count(), 2);
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
//! let mut updated = Vec::new();
//! world.traverse(|layer, entry| updated.push((layer, *entry)));
//! assert_eq!(updated, [(Layer::Actors, 1), (Layer::Actors, 2), (Layer::Actors, 3), (Layer::Actors, 4)]);
//! ```

// `construct` first: rustdoc lists a module's submodules first, in
// declaration order, so Layers' page opens with its constructors.
mod construct;

mod cursor;
mod key;
#[allow(unsafe_code)]
mod raw;
mod sink;

pub use self::cursor::{LayerEntry, LayersCursor};
pub use self::key::LayerKey;

pub(crate) use self::key::check_count;
use self::key::key_at;
pub use self::sink::{LayerSinkEntry, LayersSinkCursor};

use alloc::vec::Vec;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::iter::{Enumerate, FusedIterator};
use core::marker::PhantomData;
use core::slice;

use crate::auto_remove::NoAutoRemove;
use crate::collection::ReadWriteCollection;
use crate::error::CapacityError;

/// One layer: its collection and its flags.
#[derive(Clone)]
pub(super) struct Slot<T, A> {
    pub(super) items: ReadWriteCollection<T, A>,
    pub(super) enabled: bool,
    pub(super) visible: bool,
}

/// A fixed, ordered set of [`ReadWriteCollection`]s; see [the module docs](self).
///
/// `K` is the key type (`usize` by default), `A` the auto-remove policy
/// every layer shares the type of.
///
/// # What `==` covers
///
/// A `Layers`' value is, for each layer in order, its elements and its
/// enabled and visible flags: what serde writes. `==` and `Hash` compare
/// that, so two `Layers` with different numbers of layers differ. They do not compare the layers' settings (bound,
/// mode, shrink policy) or their auto-remove policies, as
/// [`ReadWriteCollection`]'s `==` compares only its elements; `Clone`
/// copies those too.
///
/// ```
/// use read_write_collection::{Layers, ReadWriteCollection};
///
/// let mut a: Layers<u8> = Layers::new(2);
/// let mut b: Layers<u8> = Layers::from_collections([ReadWriteCollection::bounded(4), ReadWriteCollection::new()]);
/// a.push(1, 7);
/// b.push(1, 7);
/// assert_eq!(a, b); // the bound is a setting, not part of the value
/// b.set_visible(0, false);
/// assert_ne!(a, b); // a flag is
/// ```
pub struct Layers<T, K = usize, A = NoAutoRemove> {
    pub(super) slots: Vec<Slot<T, A>>,
    _key: PhantomData<fn(K)>,
}

/// The layers and their elements, and each layer's enabled and visible
/// (draw) flags.
impl<T, K: LayerKey, A> Layers<T, K, A> {
    /// Layers made of `slots`, whose number the caller has checked.
    pub(crate) fn from_slots(slots: Vec<Slot<T, A>>) -> Self {
        Layers {
            slots,
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

    /// Whether [`iter_visible`](Self::iter_visible) includes layer `key`:
    /// the layer's draw flag (not a queue's visible elements; see
    /// [Terms](crate#terms)).
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

    /// Sets whether [`iter_visible`](Self::iter_visible) includes layer `key`
    /// (the layer's draw flag; passes walk hidden layers too, as long as they
    /// are enabled).
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

    /// Every element of every layer with its layer's key, in layer order
    /// then element order, whatever the layers' enabled and visible flags
    /// (as `Vec::iter` for one collection; [`iter_visible`](Self::iter_visible)
    /// skips hidden layers). `&layers` iterates the same way.
    ///
    /// The iterator knows its length and runs from both ends.
    ///
    /// # Panics
    ///
    /// When it reaches an element of a layer that `K` has no key for (see
    /// [`LayerKey::from_index`]; never for `usize` or
    /// [`layer_keys!`](crate::layer_keys!) keys).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{layer_keys, Layers};
    ///
    /// layer_keys!(enum Layer { Ships, Bullets, Hud });
    ///
    /// let mut l: Layers<char, Layer> = Layers::default();
    /// l.push(Layer::Bullets, 'b');
    /// l.push(Layer::Ships, 's');
    /// l.push(Layer::Hud, 'h');
    /// l.set_enabled(Layer::Ships, false);
    /// l.set_visible(Layer::Hud, false);
    /// let all: Vec<(Layer, char)> = l.iter().map(|(k, c)| (k, *c)).collect();
    /// assert_eq!(all, [(Layer::Ships, 's'), (Layer::Bullets, 'b'), (Layer::Hud, 'h')]);
    /// assert_eq!(l.iter().len(), l.len());
    /// assert_eq!(l.iter().next_back(), Some((Layer::Hud, &'h')));
    ///
    /// // With `usize` keys, the key is the index.
    /// let mut by_index: Layers<char> = Layers::new(2);
    /// by_index.push(1, 'z');
    /// assert_eq!(by_index.iter().collect::<Vec<_>>(), [(1, &'z')]);
    /// ```
    pub fn iter(&self) -> Iter<'_, T, K, A> {
        Iter {
            inner: Flat::new(&self.slots, false),
        }
    }

    /// Every element of the visible (drawn) layers with its layer's key, in
    /// layer order then element order: what to draw. Enabled flags do not matter
    /// here; [`iter`](Self::iter) includes hidden layers too.
    ///
    /// The iterator knows its length and runs from both ends.
    ///
    /// # Panics
    ///
    /// When it reaches an element of a visible layer that `K` has no key
    /// for (see [`LayerKey::from_index`]; never for `usize` or
    /// [`layer_keys!`](crate::layer_keys!) keys).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{layer_keys, Layers};
    ///
    /// layer_keys!(enum Draw { Ground, Sprites, Hud });
    ///
    /// let mut l: Layers<char, Draw> = Layers::default();
    /// l.push(Draw::Sprites, 'b');
    /// l.push(Draw::Ground, 'a');
    /// l.push(Draw::Hud, 'h');
    /// l.set_visible(Draw::Hud, false);
    /// let drawn: Vec<(Draw, char)> = l.iter_visible().map(|(k, c)| (k, *c)).collect();
    /// assert_eq!(drawn, [(Draw::Ground, 'a'), (Draw::Sprites, 'b')]);
    /// assert_eq!(l.iter_visible().len(), 2);
    /// assert_eq!(l.iter_visible().rev().next(), Some((Draw::Sprites, &'b')));
    ///
    /// // With `usize` keys, the key is the index.
    /// let mut by_index: Layers<char> = Layers::new(2);
    /// by_index.push(1, 'z');
    /// assert_eq!(by_index.iter_visible().collect::<Vec<_>>(), [(1, &'z')]);
    /// ```
    pub fn iter_visible(&self) -> IterVisible<'_, T, K, A> {
        IterVisible {
            inner: Flat::new(&self.slots, true),
        }
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

/// As many empty, enabled, visible layers as `K` names
/// ([`LayerKey::COUNT`]), each with `A::default()` as its policy: one per
/// variant of a [`layer_keys!`](crate::layer_keys!) enum. For key types
/// that fix no number (`usize`), no layers, as `Vec::default` is empty.
///
/// # Examples
///
/// ```
/// use read_write_collection::{layer_keys, remove_when, Layers};
///
/// layer_keys!(enum Layer { Actors, Bullets, Effects });
/// remove_when!(struct Spent for u32: |ttl| *ttl == 0);
///
/// let world: Layers<u32, Layer, Spent> = Layers::default();
/// assert_eq!(world.layer_count(), 3);
/// assert!(world.is_enabled(Layer::Effects) && world.is_visible(Layer::Effects));
///
/// assert_eq!(Layers::<u32>::default().layer_count(), 0);
/// ```
impl<T, K: LayerKey, A: Default> Default for Layers<T, K, A> {
    fn default() -> Self {
        let count = K::COUNT.unwrap_or(0);
        Self::from_slots(
            (0..count)
                .map(|_| Slot {
                    items: ReadWriteCollection::default(),
                    enabled: true,
                    visible: true,
                })
                .collect(),
        )
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

/// Equal when both have as many layers and each pair of layers has equal
/// elements and the same enabled and visible flags; see "What `==`
/// covers" on [`Layers`]. The policies may differ in type.
///
/// # Examples
///
/// ```
/// use read_write_collection::Layers;
///
/// let mut a: Layers<u8> = Layers::new(2);
/// a.push(0, 1);
/// let mut b = a.clone();
/// assert_eq!(a, b);
/// b.set_enabled(1, false);
/// assert_ne!(a, b);
/// assert_ne!(a, Layers::new(3));
/// ```
impl<T, U, K, A, B> PartialEq<Layers<U, K, B>> for Layers<T, K, A>
where
    T: PartialEq<U>,
{
    fn eq(&self, other: &Layers<U, K, B>) -> bool {
        self.slots.len() == other.slots.len()
            && self.slots.iter().zip(&other.slots).all(|(a, b)| {
                a.enabled == b.enabled && a.visible == b.visible && a.items == b.items
            })
    }
}

impl<T: Eq, K, A> Eq for Layers<T, K, A> {}

/// Hashes the number of layers, then each layer's flags and elements, in
/// order (consistent with `Eq`).
///
/// # Examples
///
/// ```
/// use std::collections::HashSet;
/// use read_write_collection::Layers;
///
/// let mut a: Layers<u8> = Layers::new(2);
/// a.push(1, 9);
/// let mut seen = HashSet::new();
/// seen.insert(a.clone());
/// assert!(seen.contains(&a));
/// a.set_visible(1, false);
/// assert!(!seen.contains(&a));
/// ```
impl<T: Hash, K, A> Hash for Layers<T, K, A> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.slots.len());
        for slot in &self.slots {
            slot.enabled.hash(state);
            slot.visible.hash(state);
            slot.items.hash(state);
        }
    }
}

/// Iterates as [`Layers::iter`]: every element of every layer with its key.
///
/// # Examples
///
/// ```
/// use read_write_collection::Layers;
///
/// let mut l: Layers<u8> = Layers::new(2);
/// l.push(1, 4);
/// l.push(0, 3);
/// let mut seen = Vec::new();
/// for (layer, value) in &l {
///     seen.push((layer, *value));
/// }
/// assert_eq!(seen, [(0, 3), (1, 4)]);
/// ```
impl<'a, T, K: LayerKey, A> IntoIterator for &'a Layers<T, K, A> {
    type Item = (K, &'a T);
    type IntoIter = Iter<'a, T, K, A>;

    /// [`Layers::iter`].
    #[inline]
    fn into_iter(self) -> Iter<'a, T, K, A> {
        self.iter()
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
pub(super) fn out_of_range(index: usize, count: usize) -> ! {
    panic!("layer index {index} out of range for {count} layers")
}

/// What [`Iter`] and [`IterVisible`] share: the layers not entered yet, the
/// one being walked from each end, and the number of elements left.
struct Flat<'a, T, K, A> {
    layers: Enumerate<slice::Iter<'a, Slot<T, A>>>,
    front: Option<(K, slice::Iter<'a, T>)>,
    back: Option<(K, slice::Iter<'a, T>)>,
    len: usize,
    visible_only: bool,
}

impl<'a, T, K: LayerKey, A> Flat<'a, T, K, A> {
    fn new(slots: &'a [Slot<T, A>], visible_only: bool) -> Self {
        let len = slots
            .iter()
            .filter(|s| s.visible || !visible_only)
            .map(|s| s.items.len())
            .sum();
        Flat {
            layers: slots.iter().enumerate(),
            front: None,
            back: None,
            len,
            visible_only,
        }
    }

    #[track_caller]
    fn next(&mut self) -> Option<(K, &'a T)> {
        loop {
            if let Some((key, items)) = &mut self.front {
                if let Some(value) = items.next() {
                    self.len -= 1;
                    return Some((*key, value));
                }
                self.front = None;
            }
            let visible_only = self.visible_only;
            let entered = self.layers.find(|(_, s)| enters(s, visible_only));
            match entered {
                Some((i, slot)) => self.front = Some((key_at::<K>(i), slot.items.iter())),
                None => {
                    // Only the layer walked from the back is left.
                    let (key, items) = self.back.as_mut()?;
                    let value = items.next()?;
                    self.len -= 1;
                    return Some((*key, value));
                }
            }
        }
    }

    #[track_caller]
    fn next_back(&mut self) -> Option<(K, &'a T)> {
        loop {
            if let Some((key, items)) = &mut self.back {
                if let Some(value) = items.next_back() {
                    self.len -= 1;
                    return Some((*key, value));
                }
                self.back = None;
            }
            let visible_only = self.visible_only;
            let entered = self.layers.rfind(|(_, s)| enters(s, visible_only));
            match entered {
                Some((i, slot)) => self.back = Some((key_at::<K>(i), slot.items.iter())),
                None => {
                    let (key, items) = self.front.as_mut()?;
                    let value = items.next_back()?;
                    self.len -= 1;
                    return Some((*key, value));
                }
            }
        }
    }
}

/// Whether an iteration enters layer `slot`: empty layers are skipped, so
/// they need no key.
fn enters<T, A>(slot: &Slot<T, A>, visible_only: bool) -> bool {
    (slot.visible || !visible_only) && !slot.items.is_empty()
}

impl<T, K: Copy, A> Clone for Flat<'_, T, K, A> {
    fn clone(&self) -> Self {
        Flat {
            layers: self.layers.clone(),
            front: self.front.clone(),
            back: self.back.clone(),
            len: self.len,
            visible_only: self.visible_only,
        }
    }
}

macro_rules! layers_iter {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        pub struct $name<'a, T, K, A = NoAutoRemove> {
            inner: Flat<'a, T, K, A>,
        }

        impl<'a, T, K: LayerKey, A> Iterator for $name<'a, T, K, A> {
            type Item = (K, &'a T);

            #[inline]
            #[track_caller]
            fn next(&mut self) -> Option<(K, &'a T)> {
                self.inner.next()
            }

            #[inline]
            fn size_hint(&self) -> (usize, Option<usize>) {
                (self.inner.len, Some(self.inner.len))
            }
        }

        impl<T, K: LayerKey, A> DoubleEndedIterator for $name<'_, T, K, A> {
            #[inline]
            #[track_caller]
            fn next_back(&mut self) -> Option<Self::Item> {
                self.inner.next_back()
            }
        }

        impl<T, K: LayerKey, A> ExactSizeIterator for $name<'_, T, K, A> {}

        impl<T, K: LayerKey, A> FusedIterator for $name<'_, T, K, A> {}

        impl<T, K: Copy, A> Clone for $name<'_, T, K, A> {
            fn clone(&self) -> Self {
                $name {
                    inner: self.inner.clone(),
                }
            }
        }

        impl<T, K, A> fmt::Debug for $name<'_, T, K, A> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("len", &self.inner.len)
                    .finish_non_exhaustive()
            }
        }
    };
}

layers_iter! {
    /// The iterator of [`Layers::iter`] (and of `&Layers`): every element
    /// of every layer with its layer's key, in layer order. Exact-size and
    /// double-ended; a clone iterates on independently.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::layers::{Iter, Layers};
    ///
    /// let mut l: Layers<u8> = Layers::new(3);
    /// l.push(0, 1);
    /// l.push(2, 3);
    /// l.set_visible(2, false);
    /// let mut it: Iter<'_, u8, usize> = l.iter();
    /// assert_eq!(it.len(), 2);
    /// assert_eq!(it.next(), Some((0, &1)));
    /// assert_eq!(it.next_back(), Some((2, &3)));
    /// assert_eq!(it.next(), None);
    /// ```
    Iter
}

layers_iter! {
    /// The iterator of [`Layers::iter_visible`]: every element of the
    /// visible layers with its layer's key, in layer order. Exact-size and
    /// double-ended; a clone iterates on independently.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::layers::{IterVisible, Layers};
    ///
    /// let mut l: Layers<u8> = Layers::new(3);
    /// l.push(0, 1);
    /// l.push(2, 3);
    /// l.set_visible(2, false);
    /// let mut it: IterVisible<'_, u8, usize> = l.iter_visible();
    /// assert_eq!(it.len(), 1);
    /// assert_eq!(it.next_back(), Some((0, &1)));
    /// assert_eq!(it.next(), None);
    /// ```
    IterVisible
}

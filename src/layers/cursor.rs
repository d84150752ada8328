//! The layered cursor: [`LayersCursor`] and the [`LayerEntry`] it lends.

use core::fmt;
use core::marker::PhantomData;

use super::key::{key_at, LayerKey};
use super::raw::{Layered, OtherLayers};
use super::{out_of_range, Layers};
use crate::auto_remove::{AutoRemove, NoAutoRemove};
use crate::cursor::delegate::{deref_to_element, entry_others_methods, entry_push_methods};
use crate::cursor::{Cursor, Entry};
use crate::error::CapacityError;

/// Passes: one cursor walks every enabled layer, in layer order.
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
    #[inline]
    pub fn cursor(&mut self) -> LayersCursor<'_, T, K, A> {
        LayersCursor {
            current: None,
            others: Layered::new(&mut self.slots),
            _key: PhantomData,
        }
    }

    /// The closure form: calls `f(key, entry)` for every element of every
    /// enabled layer, pushed ones included, with the key of the element's
    /// layer (the index, for `usize` keys).
    ///
    /// # Panics
    ///
    /// When it reaches an enabled layer that `K` has no key for (see
    /// [`LayerKey::from_index`]; never for `usize` or
    /// [`layer_keys!`](crate::layer_keys!) keys).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{layer_keys, Layers};
    ///
    /// layer_keys!(enum Layer { Ships, Bullets });
    ///
    /// let mut l: Layers<u32, Layer> = Layers::default();
    /// l.push(Layer::Ships, 10);
    /// l.push(Layer::Bullets, 20);
    /// l.traverse(|layer, mut e| {
    ///     if layer == Layer::Bullets {
    ///         *e += 1;
    ///     }
    /// });
    /// assert_eq!(l.layer(Layer::Bullets), &[21]);
    ///
    /// let mut by_index: Layers<u32> = Layers::new(2);
    /// by_index.push(1, 20);
    /// by_index.traverse(|layer, mut e| *e += layer as u32);
    /// assert_eq!(by_index.layer(1), &[21]);
    /// ```
    pub fn traverse<F>(&mut self, mut f: F)
    where
        F: FnMut(K, LayerEntry<'_, T, K>),
    {
        // One tight loop per layer, over a cursor in a local: the pass
        // state stays in registers. If `f` panics, the local cursor
        // completes its layer (the walked ones are complete already).
        let mut layers = Layered::new(&mut self.slots);
        while let Some((layer, items)) = layers.start_next() {
            let key = key_at::<K>(layer);
            let mut walk = items.cursor();
            while walk.step() {
                let entry = LayerEntry {
                    entry: walk.held_entry(),
                    others: layers.handle(),
                    layer,
                    _key: PhantomData,
                };
                f(key, entry);
            }
            layers.release(walk);
        }
    }
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
/// Each layer's traversal completes when the cursor moves on to the next
/// enabled layer: a push into it after that is appended behind its
/// elements, as the table says. Dropping the cursor completes the layer
/// being walked and leaves the unvisited layers as they are.
/// `mem::forget` on the cursor leaks the elements of the layer being
/// walked (never unsound: that layer is left empty and usable); the
/// layers walked before it are complete.
///
/// A cursor allocates nothing: it borrows the layers, and walking
/// allocates only if a layer must grow.
///
/// # Examples
///
/// ```
/// use read_write_collection::{layer_keys, Layers};
///
/// layer_keys!(enum Layer { Ships, Bullets });
///
/// let mut world: Layers<&str, Layer> = Layers::default();
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
pub struct LayersCursor<'a, T, K = usize, A: AutoRemove<T> = NoAutoRemove> {
    /// The layer being walked and its cursor.
    pub(super) current: Option<(usize, Cursor<'a, T, A>)>,
    /// Every layer: the one being walked is lent to `current`, the others
    /// are reachable for pushes. Kept as a pointer to the layers (see
    /// `layers::raw::Layered`): an entry's handle on them is not a pointer into
    /// the cursor, so the cursor's per-element state can stay in registers
    /// across the loop body.
    pub(super) others: Layered<'a, T, A>,
    pub(super) _key: PhantomData<fn(K)>,
}

/// Walking the layers and pushing.
impl<'a, T, K: LayerKey, A: AutoRemove<T>> LayersCursor<'a, T, K, A> {
    /// Advances; returns whether an element is held.
    #[inline(always)]
    fn step(&mut self) -> bool {
        loop {
            if let Some((_, cursor)) = &mut self.current {
                if cursor.step() {
                    return true;
                }
            }
            if !self.next_layer() {
                return false;
            }
        }
    }

    /// Completes the layer being walked (if any) and starts the next
    /// enabled one; `false` when none is left.
    #[inline(always)]
    pub(super) fn next_layer(&mut self) -> bool {
        if let Some((_, done)) = self.current.take() {
            self.others.release(done);
        }
        match self.others.start_next() {
            Some((i, items)) => {
                self.current = Some((i, items.cursor()));
                true
            }
            None => false,
        }
    }

    #[inline(always)]
    pub(super) fn held(&mut self) -> (usize, LayerEntry<'_, T, K>) {
        let (layer, cursor) = self
            .current
            .as_mut()
            .expect("step returned true, so a layer is being walked");
        let entry = LayerEntry {
            entry: cursor.held_entry(),
            others: self.others.handle(),
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
    #[inline(always)]
    pub fn next(&mut self) -> Option<LayerEntry<'_, T, K>> {
        if self.step() {
            Some(self.held().1)
        } else {
            None
        }
    }

    /// Like [`next`](Self::next), and also tells which layer the entry is
    /// in, by its key (as [`LayerEntry::layer`] does).
    ///
    /// # Panics
    ///
    /// If `K` has no key for the entry's layer (see
    /// [`LayerKey::from_index`]; never for `usize` or
    /// [`layer_keys!`](crate::layer_keys!) keys).
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
    #[inline(always)]
    #[track_caller]
    pub fn next_with_layer(&mut self) -> Option<(K, LayerEntry<'_, T, K>)> {
        if self.step() {
            let (layer, entry) = self.held();
            Some((key_at(layer), entry))
        } else {
            None
        }
    }

    /// The key of the layer being walked (`None` before the first `next`
    /// and after the last).
    ///
    /// # Panics
    ///
    /// If `K` has no key for that layer (see [`LayerKey::from_index`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{layer_keys, Layers};
    ///
    /// layer_keys!(enum Layer { Ships, Bullets });
    ///
    /// let mut l: Layers<u8, Layer> = Layers::default();
    /// l.push(Layer::Bullets, 5);
    /// let mut cursor = l.cursor();
    /// assert_eq!(cursor.layer(), None);
    /// cursor.next();
    /// assert_eq!(cursor.layer(), Some(Layer::Bullets));
    /// ```
    #[track_caller]
    pub fn layer(&self) -> Option<K> {
        self.current.as_ref().map(|(i, _)| key_at(*i))
    }

    /// The index of the layer being walked, for [`Debug`](fmt::Debug).
    pub(super) fn layer_index(&self) -> Option<usize> {
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
        let n = self.others.len();
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
    pub(super) entry: Entry<'c, T>,
    pub(super) others: OtherLayers<'c, T>,
    pub(super) layer: usize,
    pub(super) _key: PhantomData<fn(K)>,
}

/// The layer the element is in, removing it and pushing (to this layer or another).
impl<'c, T, K: LayerKey> LayerEntry<'c, T, K> {
    /// The key of the layer this element is in (the index, for `usize`
    /// keys).
    ///
    /// # Panics
    ///
    /// If `K` has no key for that layer (see [`LayerKey::from_index`];
    /// never for `usize` or [`layer_keys!`](crate::layer_keys!) keys).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::{layer_keys, Layers};
    ///
    /// layer_keys!(enum Layer { Ground, Ships, Bullets });
    ///
    /// let mut l: Layers<u8, Layer> = Layers::default();
    /// l.push(Layer::Bullets, 1);
    /// let mut cursor = l.cursor();
    /// assert_eq!(cursor.next().unwrap().layer(), Layer::Bullets);
    ///
    /// let mut by_index: Layers<u8> = Layers::new(3);
    /// by_index.push(2, 1);
    /// assert_eq!(by_index.cursor().next().unwrap().layer(), 2);
    /// ```
    #[inline]
    #[track_caller]
    pub fn layer(&self) -> K {
        key_at(self.layer)
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

    entry_push_methods! {
        field: entry,
        summary: "Appends `value` to this element's layer; this pass visits it after \
                  everything already queued there.",
        bound: "layer";
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
        fn push;
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
        fn try_push;
    }

    entry_others_methods! {
        field: entry,
        whose: "layer",
        inner: "Entry";
        /// Only this element's layer: the other layers are not in reach.
        ///
        /// # Examples
        ///
        /// ```
        /// use read_write_collection::Layers;
        ///
        /// let mut l: Layers<u8> = Layers::new(2);
        /// l.layer_mut(0).extend([1, 2, 3]);
        /// l.push(1, 9);
        /// let mut cursor = l.cursor();
        /// cursor.next();
        /// let e = cursor.next().unwrap();
        /// assert_eq!(e.others(), (&[1][..], &[3][..]));
        /// ```
        fn others;
        /// Only this element's layer: the other layers are not in reach.
        ///
        /// # Examples
        ///
        /// ```
        /// use read_write_collection::Layers;
        ///
        /// // Every spark takes 1 from each spark still ahead of it in its layer.
        /// let mut l: Layers<u8> = Layers::new(2);
        /// l.layer_mut(0).extend([5, 5, 5]);
        /// l.push(1, 7);
        /// l.traverse(|_, mut e| {
        ///     let (me, _, after) = e.split_others();
        ///     for other in after {
        ///         *other -= 1;
        ///         *me += 1;
        ///     }
        /// });
        /// assert_eq!(l.layer(0), &[7, 5, 3]);
        /// assert_eq!(l.layer(1), &[7]);
        /// ```
        fn split_others;
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
    /// use read_write_collection::{layer_keys, Layers};
    ///
    /// layer_keys!(enum Layer { Enemies, Effects });
    ///
    /// let mut world: Layers<i32, Layer> = Layers::default();
    /// world.push(Layer::Enemies, 0); // hp 0: dies into an explosion
    /// world.push(Layer::Enemies, 3);
    /// let mut effects_seen = 0;
    /// world.traverse(|layer, mut e| {
    ///     if layer == Layer::Effects {
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
        let n = self.others.len();
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

deref_to_element!([T, K] LayerEntry<'_, T, K>, entry);

impl<T: fmt::Debug, K: LayerKey + fmt::Debug> fmt::Debug for LayerEntry<'_, T, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LayerEntry")
            .field("layer", &DebugKey::<K>::new(self.layer))
            .field("value", &*self.entry)
            .finish()
    }
}

impl<T, K: LayerKey + fmt::Debug, A: AutoRemove<T>> fmt::Debug for LayersCursor<'_, T, K, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LayersCursor")
            .field("layer", &self.layer_index().map(DebugKey::<K>::new))
            .finish_non_exhaustive()
    }
}

/// Shows a layer by its key, or by its index if the key type has no key
/// for it (`Debug` must not panic).
pub(super) struct DebugKey<K> {
    index: usize,
    _key: PhantomData<fn(K)>,
}

impl<K> DebugKey<K> {
    pub(super) fn new(index: usize) -> Self {
        DebugKey {
            index,
            _key: PhantomData,
        }
    }
}

impl<K: LayerKey + fmt::Debug> fmt::Debug for DebugKey<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match K::from_index(self.index) {
            Some(key) => key.fmt(f),
            None => self.index.fmt(f),
        }
    }
}

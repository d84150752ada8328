//! The layered pass with a removal sink: [`LayersSinkCursor`] and
//! [`LayerSinkEntry`].

use core::fmt;
use core::marker::PhantomData;

use super::cursor::{DebugKey, LayerEntry, LayersCursor};
use super::key::{key_at, LayerKey};
use super::raw::Layered;
use super::Layers;
use crate::auto_remove::{AutoRemove, NoAutoRemove};
use crate::cursor::delegate::{
    deref_to_element, entry_others_methods, entry_push_methods, sink_entry_methods,
};
use crate::error::CapacityError;

/// Removal sinks: passes that hand every removed element to a closure.
impl<T, K: LayerKey, A: AutoRemove<T>> Layers<T, K, A> {
    /// Starts a traversal of every enabled layer whose removed elements
    /// (auto-removed, and [removed](LayerSinkEntry::remove_to_sink) by the loop),
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
    ///         e.remove_to_sink();
    ///     }
    /// }
    /// drop(cursor);
    /// assert_eq!(loot, [0, 1]);
    /// assert!(l.is_empty());
    /// ```
    pub fn cursor_with_sink<S: FnMut(T)>(&mut self, sink: S) -> LayersSinkCursor<'_, T, K, S, A> {
        LayersSinkCursor {
            cursor: self.cursor(),
            sink,
        }
    }

    /// The closure form of [`cursor_with_sink`](Self::cursor_with_sink):
    /// calls `f(key, entry)` for every element of every enabled layer, with
    /// the key of its layer, as [`traverse`](Self::traverse) does; every
    /// removed element goes to `sink`.
    ///
    /// `sink` and `f` cannot both borrow one variable mutably; give them
    /// different fields of a struct, or share a `Cell` or `RefCell` (no
    /// `Rc` needed): see [`SinkCursor`](crate::SinkCursor), "State the
    /// body uses too".
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
    /// use read_write_collection::{Layers, ReadWriteCollection};
    ///
    /// let mut l: Layers<u32> = Layers::new(2);
    /// l.push(0, 1);
    /// l.push(1, 2);
    /// let mut items = ReadWriteCollection::new();
    /// l.traverse_with_sink(|gone| items.push(gone * 100), |layer, e| {
    ///     if layer == 1 {
    ///         e.remove_to_sink();
    ///     }
    /// });
    /// assert_eq!(items, [200]);
    /// ```
    pub fn traverse_with_sink<S, F>(&mut self, sink: S, mut f: F)
    where
        S: FnMut(T),
        F: FnMut(K, LayerSinkEntry<'_, T, K, S>),
    {
        // One tight loop per layer, as in `traverse`. If `f` or the sink
        // panics, the local cursor completes its layer (running no user
        // code while unwinding); the walked ones are complete already.
        let mut sink = sink;
        let mut layers = Layered::new(&mut self.slots);
        while let Some((layer, items)) = layers.start_next() {
            let key = key_at::<K>(layer);
            let mut walk = items.cursor();
            while walk.step_into(&mut sink) {
                let entry = LayerEntry {
                    entry: walk.held_entry(),
                    others: layers.handle(),
                    layer,
                    _key: PhantomData,
                };
                f(
                    key,
                    LayerSinkEntry {
                        entry,
                        sink: &mut sink,
                    },
                );
            }
            layers.release(walk);
        }
    }
}

/// Walking on with a removal sink.
impl<T, K: LayerKey, A: AutoRemove<T>> LayersCursor<'_, T, K, A> {
    /// `step`, with auto-removed elements going to `sink`.
    #[inline]
    fn step_into<S: FnMut(T)>(&mut self, sink: &mut S) -> bool {
        loop {
            if let Some((_, cursor)) = &mut self.current {
                if cursor.step_into(sink) {
                    return true;
                }
            }
            if !self.next_layer() {
                return false;
            }
        }
    }
}

/// A [`LayersCursor`] whose pass hands every element it removes, from
/// every layer, to a sink closure (auto-removed and
/// [removed](LayerSinkEntry::remove_to_sink) ones, owned, in removal order). See
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
///         e.remove_to_sink();
///     }
/// }
/// drop(cursor);
/// assert_eq!(gone, [1]);
/// assert_eq!(l.layer(1), &[2, 3]);
/// ```
pub struct LayersSinkCursor<'a, T, K, S: FnMut(T), A: AutoRemove<T> = NoAutoRemove> {
    cursor: LayersCursor<'a, T, K, A>,
    sink: S,
}

/// Walking the layers and pushing.
impl<'a, T, K: LayerKey, S: FnMut(T), A: AutoRemove<T>> LayersSinkCursor<'a, T, K, S, A> {
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
    pub fn next(&mut self) -> Option<LayerSinkEntry<'_, T, K, S>> {
        self.next_at().map(|(_, entry)| entry)
    }

    /// Like [`next`](Self::next), with the key of the entry's layer.
    ///
    /// # Panics
    ///
    /// If `K` has no key for that layer (see [`LayerKey::from_index`]).
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
    #[track_caller]
    pub fn next_with_layer(&mut self) -> Option<(K, LayerSinkEntry<'_, T, K, S>)> {
        self.next_at().map(|(layer, entry)| (key_at(layer), entry))
    }

    /// `next`, with the entry's layer index.
    #[inline]
    fn next_at(&mut self) -> Option<(usize, LayerSinkEntry<'_, T, K, S>)> {
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

    /// The key of the layer being walked; see [`LayersCursor::layer`].
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
    /// l.push(Layer::Bullets, 4);
    /// let mut cursor = l.cursor_with_sink(drop);
    /// cursor.next();
    /// assert_eq!(cursor.layer(), Some(Layer::Bullets));
    /// ```
    #[track_caller]
    pub fn layer(&self) -> Option<K> {
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
    ///         e.remove_to_sink();
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

impl<T, K, S: FnMut(T), A: AutoRemove<T>> Drop for LayersSinkCursor<'_, T, K, S, A> {
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

impl<T, K: LayerKey + fmt::Debug, S: FnMut(T), A: AutoRemove<T>> fmt::Debug
    for LayersSinkCursor<'_, T, K, S, A>
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LayersSinkCursor")
            .field("layer", &self.cursor.layer_index().map(DebugKey::<K>::new))
            .finish_non_exhaustive()
    }
}

/// The element a [`LayersSinkCursor`] is on: a [`LayerEntry`] that can
/// also hand its element to the pass's sink
/// ([`remove_to_sink`](Self::remove_to_sink)).
///
/// As on [`SinkEntry`](crate::SinkEntry), [`remove_to_sink`](Self::remove_to_sink)
/// sends the element to the sink and [`take`](Self::take) returns it (as
/// [`LayerEntry::remove`] does); the old `remove` is deprecated and still
/// sends to the sink.
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
///         e.remove_to_sink();
///     }
/// });
/// assert_eq!(gone, [-1]);
/// assert_eq!(l.layer(1), &[0]);
/// ```
pub struct LayerSinkEntry<'c, T, K, S> {
    entry: LayerEntry<'c, T, K>,
    sink: &'c mut S,
}

/// The layer the element is in, removing it (to the sink) and pushing.
impl<'c, T, K: LayerKey, S: FnMut(T)> LayerSinkEntry<'c, T, K, S> {
    /// The key of the layer this element is in (the index, for `usize`
    /// keys).
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
    /// l.push(Layer::Bullets, 0);
    /// l.traverse_with_sink(drop, |layer, e| {
    ///     assert_eq!(layer, Layer::Bullets);
    ///     assert_eq!(e.layer(), Layer::Bullets);
    /// });
    /// ```
    #[inline]
    #[track_caller]
    pub fn layer(&self) -> K {
        self.entry.layer()
    }

    sink_entry_methods! {
        field: entry,
        sink: sink,
        inner: "LayerEntry",
        deprecated: "renamed `remove_to_sink` (the element goes to the sink); \
                     `take` returns the element, as `LayerEntry::remove` does";
        /// # Examples
        ///
        /// ```
        /// use read_write_collection::Layers;
        ///
        /// let mut l: Layers<u8> = Layers::new(1);
        /// l.push(0, 1);
        /// let mut gone = Vec::new();
        /// l.traverse_with_sink(|v| gone.push(v), |_, e| e.remove_to_sink());
        /// assert_eq!(gone, [1]);
        /// assert!(l.is_empty());
        /// ```
        fn remove_to_sink;
        /// # Examples
        ///
        /// ```
        /// # #![allow(deprecated)]
        /// use read_write_collection::Layers;
        ///
        /// let mut l: Layers<u8> = Layers::new(1);
        /// l.push(0, 1);
        /// let mut gone = Vec::new();
        /// l.traverse_with_sink(|v| gone.push(v), |_, e| e.remove());
        /// assert_eq!(gone, [1]); // to the sink, as `remove_to_sink`
        /// ```
        fn remove;
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
        fn take;
    }

    entry_push_methods! {
        field: entry,
        summary: "Appends `value` to this element's layer, as [`LayerEntry::push`] \
                  does: this pass visits it after everything already queued there.",
        bound: "layer";
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
        fn push;
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
        fn try_push;
    }

    entry_others_methods! {
        field: entry,
        whose: "layer",
        inner: "LayerEntry";
        /// # Examples
        ///
        /// ```
        /// use read_write_collection::Layers;
        ///
        /// let mut l: Layers<u8> = Layers::new(1);
        /// l.layer_mut(0).extend([1, 2, 3]);
        /// let mut cursor = l.cursor_with_sink(drop);
        /// cursor.next();
        /// let e = cursor.next().unwrap();
        /// assert_eq!(e.others(), (&[1][..], &[3][..]));
        /// ```
        fn others;
        /// # Examples
        ///
        /// ```
        /// use read_write_collection::Layers;
        ///
        /// // An element with an equal one ahead of it sends that one to the sink.
        /// let mut gone = Vec::new();
        /// let mut l: Layers<u8> = Layers::new(1);
        /// l.layer_mut(0).extend([2, 1, 2]);
        /// l.traverse_with_sink(|x| gone.push(x), |_, mut e| {
        ///     let (me, before, _) = e.split_others();
        ///     if before.contains(me) {
        ///         e.remove_to_sink();
        ///     }
        /// });
        /// assert_eq!(l.layer(0), &[2, 1]);
        /// assert_eq!(gone, [2]);
        /// ```
        fn split_others;
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

deref_to_element!([T, K, S] LayerSinkEntry<'_, T, K, S>, entry);

impl<T: fmt::Debug, K: LayerKey + fmt::Debug, S> fmt::Debug for LayerSinkEntry<'_, T, K, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LayerSinkEntry")
            .field("layer", &DebugKey::<K>::new(self.entry.layer))
            .field("value", &*self.entry)
            .finish()
    }
}

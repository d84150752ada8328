//! `serde` support for [`Layers`] (feature `serde`): a sequence of layers,
//! each a struct `Layer { enabled, visible, items }`.

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeSeq, SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};

use super::{field_of, BoundedSeq, FieldNames};
use crate::collection::ReadWriteCollection;
use crate::layers::{LayerKey, Layers, Slot};

/// Serializes as a sequence with one struct per layer, in layer order:
/// `Layer { enabled, visible, items }`, where `items` is the layer's
/// elements as a sequence (as a [`ReadWriteCollection`] serializes). A
/// saved game is exactly this: what each layer holds and whether it is
/// paused or hidden.
///
/// As for a single collection, settings (maximum length, mode, shrink
/// policy, auto-remove policy) are behaviour, not contents, and are not
/// written; keys are not written either (a layer's position is its key).
///
/// # Examples
///
/// ```
/// use read_write_collection::{layer_keys, Layers};
///
/// layer_keys!(enum Layer { Ground, Ships });
///
/// let mut world: Layers<u8, Layer> = Layers::default();
/// world.push(Layer::Ships, 7);
/// world.set_visible(Layer::Ground, false);
/// assert_eq!(
///     serde_json::to_string(&world).unwrap(),
///     r#"[{"enabled":true,"visible":false,"items":[]},{"enabled":true,"visible":true,"items":[7]}]"#
/// );
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<T: Serialize, K, A> Serialize for Layers<T, K, A> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.slots.len()))?;
        for slot in &self.slots {
            seq.serialize_element(&LayerRef(slot))?;
        }
        seq.end()
    }
}

struct LayerRef<'s, T, A>(&'s Slot<T, A>);

impl<T: Serialize, A> Serialize for LayerRef<'_, T, A> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Layer", 3)?;
        s.serialize_field("enabled", &self.0.enabled)?;
        s.serialize_field("visible", &self.0.visible)?;
        s.serialize_field("items", &self.0.items)?;
        s.end()
    }
}

/// Deserializes the form `Serialize` writes: a sequence of layers, each a
/// map with the fields `enabled`, `visible` and `items` (or a
/// three-element sequence in formats that write structs as sequences).
///
/// A plain `deserialize` gives each layer the default settings and
/// `A::default()` as its policy, as a deserialized [`ReadWriteCollection`]
/// gets: it keeps the elements and flags and drops every bound, mode and
/// shrink policy. A key type that fixes the number of layers
/// ([`LayerKey::COUNT`], as every [`layer_keys!`](crate::layer_keys!) enum
/// does) needs exactly that many.
///
/// `deserialize_in_place` keeps the target's layers and each layer's
/// settings (bound, mode, shrink policy, auto-remove policy) and loads
/// each layer's flags and elements: the way to load a saved game into a
/// world built with bounded or unordered layers. Every layer is read into
/// new storage first, and the target changes only once the whole input
/// has been read and fits: a load that fails leaves every layer exactly as
/// it was. (For a `Layers` field of a derived struct, see
/// [`ReadWriteCollection`]'s `Deserialize` impl: serde_derive's
/// `deserialize_in_place` feature.)
///
/// # Errors
///
/// Malformed input is an error, never a panic. An error inside a layer
/// names the layer by its index: `layer 2: invalid type: ...`. Errors:
///
/// * whatever the deserializer reports (wrong types, a missing or
///   duplicate field, truncated or corrupt input);
/// * another number of layers than `K::COUNT` (`deserialize`) or than the
///   target has (`deserialize_in_place`): `invalid_length`;
/// * in place, a layer with more elements than its maximum length
///   (`layer 1: invalid length 5, expected a sequence of at most 4
///   elements`).
///
/// In every error case `deserialize_in_place` leaves the target
/// unchanged.
///
/// # Examples
///
/// ```
/// use read_write_collection::{layer_keys, Builder, Layers};
/// use serde::Deserialize;
///
/// layer_keys!(enum Layer { Ground, Ships });
///
/// let saved = r#"[{"enabled":false,"visible":true,"items":[1]},
///                 {"enabled":true,"visible":true,"items":[2,3]}]"#;
/// let world: Layers<u8, Layer> = serde_json::from_str(saved).unwrap();
/// assert!(!world.is_enabled(Layer::Ground));
/// assert_eq!(world.layer(Layer::Ships), &[2, 3]);
///
/// // A key with two layers does not load three.
/// let three = r#"[{"enabled":true,"visible":true,"items":[]},
///                 {"enabled":true,"visible":true,"items":[]},
///                 {"enabled":true,"visible":true,"items":[]}]"#;
/// assert!(serde_json::from_str::<Layers<u8, Layer>>(three).is_err());
///
/// // In place: each layer keeps its bound.
/// let mut bounded: Layers<u8, Layer> = Builder::new().bounded(2).build_layers(2);
/// let mut de = serde_json::Deserializer::from_str(saved);
/// Deserialize::deserialize_in_place(&mut de, &mut bounded).unwrap();
/// assert_eq!(bounded.layer(Layer::Ships), &[2, 3]);
/// assert_eq!(bounded.layer(Layer::Ships).max_len(), Some(2));
///
/// // Layer 1 over its bound: an error naming it, and nothing changes.
/// let over = r#"[{"enabled":true,"visible":true,"items":[]},
///                {"enabled":true,"visible":true,"items":[4,5,6]}]"#;
/// let mut de = serde_json::Deserializer::from_str(over);
/// let err = Deserialize::deserialize_in_place(&mut de, &mut bounded).unwrap_err();
/// assert!(err.to_string().starts_with("layer 1: "));
/// assert!(!bounded.is_enabled(Layer::Ground));
/// assert_eq!(bounded.layer(Layer::Ground), &[1]);
/// assert_eq!(bounded.layer(Layer::Ships), &[2, 3]);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de, T, K, A> Deserialize<'de> for Layers<T, K, A>
where
    T: Deserialize<'de>,
    K: LayerKey,
    A: Default,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(LayersVisitor::<T, K, A>(PhantomData))
    }

    fn deserialize_in_place<D: Deserializer<'de>>(
        deserializer: D,
        place: &mut Self,
    ) -> Result<(), D::Error> {
        deserializer.deserialize_seq(InPlaceVisitor { place })
    }
}

/// What a sequence of layers is expected to be, for error messages.
fn expect_layers(f: &mut fmt::Formatter<'_>, count: Option<usize>) -> fmt::Result {
    match count {
        Some(1) => f.write_str("a sequence of 1 layer"),
        Some(n) => write!(f, "a sequence of {n} layers"),
        None => f.write_str("a sequence of layers"),
    }
}

/// Reads layer `index`, naming it in any error.
fn next_layer<'de, S: SeqAccess<'de>, T: Deserialize<'de>>(
    seq: &mut S,
    index: usize,
    limit: usize,
) -> Result<Option<Loaded<T>>, S::Error> {
    let seed = LayerSeed {
        limit,
        element: PhantomData,
    };
    seq.next_element_seed(seed)
        .map_err(|e| de::Error::custom(format_args!("layer {index}: {e}")))
}

/// The fresh-value visitor; `fn() -> _` keeps it `Send` and `Sync`.
#[allow(clippy::type_complexity)]
struct LayersVisitor<T, K, A>(PhantomData<fn() -> (T, K, A)>);

impl<'de, T, K, A> Visitor<'de> for LayersVisitor<T, K, A>
where
    T: Deserialize<'de>,
    K: LayerKey,
    A: Default,
{
    type Value = Layers<T, K, A>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        expect_layers(f, K::COUNT)
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Self::Value, S::Error> {
        // A hostile length hint must not allocate much up front.
        let mut slots = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(layer) = next_layer(&mut seq, slots.len(), usize::MAX)? {
            if K::COUNT.is_some_and(|n| slots.len() == n) {
                return Err(de::Error::invalid_length(slots.len() + 1, &self));
            }
            let mut items = ReadWriteCollection::default();
            items.store.vec = layer.items;
            slots.push(Slot {
                items,
                enabled: layer.enabled,
                visible: layer.visible,
            });
        }
        if K::COUNT.is_some_and(|n| slots.len() != n) {
            return Err(de::Error::invalid_length(slots.len(), &self));
        }
        Ok(Layers::from_slots(slots))
    }
}

struct InPlaceVisitor<'p, T, K, A> {
    place: &'p mut Layers<T, K, A>,
}

impl<'de, T: Deserialize<'de>, K, A> Visitor<'de> for InPlaceVisitor<'_, T, K, A> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        expect_layers(f, Some(self.place.slots.len()))
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<(), S::Error> {
        let count = self.place.slots.len();
        // Everything is read before the target changes.
        let mut loaded = Vec::with_capacity(count);
        for (index, slot) in self.place.slots.iter().enumerate() {
            match next_layer(&mut seq, index, slot.items.store.max)? {
                Some(layer) => loaded.push(layer),
                None => return Err(de::Error::invalid_length(index, &self)),
            }
        }
        if seq.next_element::<IgnoredAny>()?.is_some() {
            return Err(de::Error::invalid_length(count + 1, &self));
        }
        for (slot, layer) in self.place.slots.iter_mut().zip(&mut loaded) {
            slot.enabled = layer.enabled;
            slot.visible = layer.visible;
            core::mem::swap(&mut slot.items.store.vec, &mut layer.items);
            // A new buffer: the shrink policy starts counting afresh.
            slot.items.store.low_passes = 0;
        }
        // The old elements, dropped once every layer is in place.
        drop(loaded);
        Ok(())
    }
}

/// One layer as read, before it is installed.
struct Loaded<T> {
    enabled: bool,
    visible: bool,
    items: Vec<T>,
}

/// Reads one layer; its elements within the layer's bound `limit`.
struct LayerSeed<T> {
    limit: usize,
    element: PhantomData<fn() -> T>,
}

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for LayerSeed<T> {
    type Value = Loaded<T>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Loaded<T>, D::Error> {
        deserializer.deserialize_struct("Layer", FIELDS, self)
    }
}

const FIELDS: &[&str] = &["enabled", "visible", "items"];

impl<'de, T: Deserialize<'de>> Visitor<'de> for LayerSeed<T> {
    type Value = Loaded<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct Layer { enabled, visible, items }")
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Loaded<T>, S::Error> {
        let enabled = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let visible = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        let Some(items) = seq.next_element_seed(BoundedSeq::new(self.limit))? else {
            return Err(de::Error::invalid_length(2, &self));
        };
        Ok(Loaded {
            enabled,
            visible,
            items,
        })
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Loaded<T>, M::Error> {
        let (mut enabled, mut visible, mut items) = (None, None, None);
        while let Some(field) = map.next_key()? {
            match field {
                Field::Enabled if enabled.is_some() => {
                    return Err(de::Error::duplicate_field("enabled"))
                }
                Field::Visible if visible.is_some() => {
                    return Err(de::Error::duplicate_field("visible"))
                }
                Field::Items if items.is_some() => return Err(de::Error::duplicate_field("items")),
                Field::Enabled => enabled = Some(map.next_value()?),
                Field::Visible => visible = Some(map.next_value()?),
                Field::Items => {
                    items = Some(map.next_value_seed(BoundedSeq::new(self.limit))?);
                }
                Field::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Loaded {
            enabled: enabled.ok_or_else(|| de::Error::missing_field("enabled"))?,
            visible: visible.ok_or_else(|| de::Error::missing_field("visible"))?,
            items: items.ok_or_else(|| de::Error::missing_field("items"))?,
        })
    }
}

enum Field {
    Enabled,
    Visible,
    Items,
    Other,
}

impl FieldNames for Field {
    const NAMES: &'static [&'static str] = FIELDS;

    fn at(index: Option<usize>) -> Self {
        match index {
            Some(0) => Field::Enabled,
            Some(1) => Field::Visible,
            Some(2) => Field::Items,
            _ => Field::Other,
        }
    }
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        field_of(deserializer)
    }
}

//! `serde` for [`KeyedCollection`] and its keys.
//!
//! A key is its [`KeyData`], a pair (slot index, version). A collection is
//! a struct of two fields: `slots`, the version of every slot (occupied,
//! vacant or retired), and `elements`, each element with its slot index,
//! in order. That is what keeps the keys: every key saved elsewhere (in
//! the elements themselves, say) names the same element after a load,
//! stale keys stay stale, and no later element reuses a key. A load that
//! would make a key point wrong (an element in a missing or vacant slot,
//! two in one slot, an occupied slot without an element) is an error.

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;
use core::num::NonZeroU32;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeSeq, SerializeStruct, Serializer};

use super::{field_of, FieldNames};
use crate::auto_remove::AutoRemove;
use crate::key_data::KeyData;
use crate::keyed::{DefaultKey, Key, KeyedCollection};

/// A key as `(slot index, version)`.
///
/// # Examples
///
/// ```
/// use read_write_collection::KeyedCollection;
///
/// let mut c = KeyedCollection::new();
/// let k = c.push('a');
/// assert_eq!(serde_json::to_string(&k).unwrap(), "[0,1]");
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl Serialize for KeyData {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (self.idx, self.version.get()).serialize(serializer)
    }
}

/// Reads `(slot index, version)`; a version of 0 is an error (no key has
/// it).
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de> Deserialize<'de> for KeyData {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (idx, version) = <(u32, u32)>::deserialize(deserializer)?;
        let version =
            NonZeroU32::new(version).ok_or_else(|| de::Error::custom("a key's version is 0"))?;
        Ok(KeyData { idx, version })
    }
}

/// As its [`KeyData`].
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl Serialize for DefaultKey {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.data().serialize(serializer)
    }
}

/// As its [`KeyData`].
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de> Deserialize<'de> for DefaultKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        KeyData::deserialize(deserializer).map(DefaultKey::from_data)
    }
}

/// The slot table and the elements with their slot indices (see the
/// module docs); the settings (bound, mode, policy) are not saved.
///
/// # Examples
///
/// ```
/// use read_write_collection::KeyedCollection;
///
/// let mut c = KeyedCollection::new();
/// let a = c.push('a');
/// c.push('b');
/// c.remove(a);
/// assert_eq!(
///     serde_json::to_string(&c).unwrap(),
///     r#"{"slots":[2,1],"elements":[[1,"b"]]}"#
/// );
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<T: Serialize, K: Key, A> Serialize for KeyedCollection<T, K, A> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Versions<'a, T, K, A>(&'a KeyedCollection<T, K, A>);
        impl<T, K: Key, A> Serialize for Versions<'_, T, K, A> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let versions = self.0.slot_versions();
                let mut seq = serializer.serialize_seq(Some(versions.len()))?;
                for v in versions {
                    seq.serialize_element(&v)?;
                }
                seq.end()
            }
        }
        struct Elements<'a, T, K, A>(&'a KeyedCollection<T, K, A>);
        impl<T: Serialize, K: Key, A> Serialize for Elements<'_, T, K, A> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let c = self.0;
                let mut seq = serializer.serialize_seq(Some(c.len()))?;
                for (idx, value) in c.element_slots().iter().zip(c.as_slice()) {
                    seq.serialize_element(&(idx, value))?;
                }
                seq.end()
            }
        }
        let mut s = serializer.serialize_struct("KeyedCollection", 2)?;
        s.serialize_field("slots", &Versions(self))?;
        s.serialize_field("elements", &Elements(self))?;
        s.end()
    }
}

/// Reads the form `Serialize` writes into a new, unbounded, ordered
/// collection with `A::default()` as its policy: every saved key names
/// the same element as before. A table whose keys would point wrong is an
/// error, never a collection. `Deserialize::deserialize_in_place` loads
/// into an existing collection and keeps its bound, mode and policy.
///
/// # Examples
///
/// ```
/// use read_write_collection::keyed::DefaultKey;
/// use read_write_collection::KeyedCollection;
///
/// // A world whose ships follow each other by key.
/// let mut world: KeyedCollection<(&str, Option<DefaultKey>)> = KeyedCollection::new();
/// let lead = world.push(("lead", None));
/// let wing = world.push(("wing", Some(lead)));
/// let saved = serde_json::to_string(&world).unwrap();
///
/// let loaded: KeyedCollection<(&str, Option<DefaultKey>)> =
///     serde_json::from_str(&saved).unwrap();
/// let follows = loaded[wing].1.unwrap();
/// assert_eq!(loaded[follows].0, "lead");
///
/// // An element in a vacant slot (version 2) is refused.
/// let bad = r#"{"slots":[2],"elements":[[0,["x",null]]]}"#;
/// assert!(serde_json::from_str::<KeyedCollection<(&str, Option<DefaultKey>)>>(bad).is_err());
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de, T, K, A> Deserialize<'de> for KeyedCollection<T, K, A>
where
    T: Deserialize<'de>,
    K: Key,
    A: AutoRemove<T> + Default,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (versions, elements) = deserializer.deserialize_struct(
            "KeyedCollection",
            FIELDS,
            PartsVisitor(PhantomData),
        )?;
        let mut c = KeyedCollection::with_policy(A::default());
        c.restore(versions, elements).map_err(de::Error::custom)?;
        Ok(c)
    }

    /// Loads into `place`, keeping its settings (bound, mode, policy); a
    /// save with more elements than the bound, or whose keys would point
    /// wrong, is an error and leaves `place` unchanged.
    fn deserialize_in_place<D: Deserializer<'de>>(
        deserializer: D,
        place: &mut Self,
    ) -> Result<(), D::Error> {
        let (versions, elements) = deserializer.deserialize_struct(
            "KeyedCollection",
            FIELDS,
            PartsVisitor(PhantomData),
        )?;
        place.restore(versions, elements).map_err(de::Error::custom)
    }
}

const FIELDS: &[&str] = &["slots", "elements"];

enum Field {
    Slots,
    Elements,
    Other,
}

impl FieldNames for Field {
    const NAMES: &'static [&'static str] = FIELDS;

    fn at(index: Option<usize>) -> Self {
        match index {
            Some(0) => Field::Slots,
            Some(1) => Field::Elements,
            _ => Field::Other,
        }
    }
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        field_of(deserializer)
    }
}

type Parts<T> = (Vec<u32>, Vec<(u32, T)>);

/// Reads the two fields, as a map or a sequence.
struct PartsVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for PartsVisitor<T> {
    type Value = Parts<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a keyed collection: `slots` and `elements`")
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Parts<T>, S::Error> {
        let slots = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let elements = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        Ok((slots, elements))
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Parts<T>, M::Error> {
        let (mut slots, mut elements) = (None, None);
        while let Some(field) = map.next_key()? {
            match field {
                Field::Slots if slots.is_some() => return Err(de::Error::duplicate_field("slots")),
                Field::Slots => slots = Some(map.next_value()?),
                Field::Elements if elements.is_some() => {
                    return Err(de::Error::duplicate_field("elements"))
                }
                Field::Elements => elements = Some(map.next_value()?),
                Field::Other => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        Ok((
            slots.ok_or_else(|| de::Error::missing_field("slots"))?,
            elements.ok_or_else(|| de::Error::missing_field("elements"))?,
        ))
    }
}

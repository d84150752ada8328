//! `serde` support (feature `serde`).
//!
//! * [`ReadWriteCollection`] is a sequence of its elements, like `Vec<T>`.
//! * [`BufferedCollection`] is a struct with two sequences, `visible` and
//!   `pending`, so that a round trip keeps uncommitted elements uncommitted.
//!
//! Settings are not part of the serialized form: the maximum length, the
//! [`Mode`](crate::Mode), the shrink policy and the auto-remove policy are
//! behaviour, not contents. Deserializing builds a collection with the
//! defaults and `A::default()` as its policy.

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::{AutoRemove, BufferedCollection, ReadWriteCollection};

/// Serializes the elements as a sequence, in order, like `Vec<T>`.
///
/// # Examples
///
/// ```
/// use read_write_collection::ReadWriteCollection;
///
/// let c: ReadWriteCollection<u8> = [1, 2, 3].into();
/// assert_eq!(serde_json::to_string(&c).unwrap(), "[1,2,3]");
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<T: Serialize, A> Serialize for ReadWriteCollection<T, A> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// Deserializes from any sequence, as `Vec<T>` does.
///
/// The collection gets the default settings (unbounded,
/// [`Mode::Ordered`](crate::Mode::Ordered), no shrink policy) and
/// `A::default()` as its auto-remove policy, the way `HashMap<K, V, S>`
/// deserializes with `S::default()`. For a policy that is a closure (not
/// `Default`), deserialize a `Vec<T>` and [`extend`](Extend::extend) a
/// collection built with
/// [`with_auto_remove`](ReadWriteCollection::with_auto_remove). Elements
/// are not checked against the policy until the first traversal or
/// [`prune`](ReadWriteCollection::prune).
///
/// `deserialize_in_place` (which serde's derive calls for a field with
/// `#[serde(deserialize_in_place)]`, and `Deserialize::deserialize_in_place`
/// directly) keeps the target's settings instead: its maximum length, mode,
/// shrink policy and auto-remove policy, and its allocation. The old
/// elements are dropped first. A sequence longer than the maximum length
/// is an error (`invalid_length`); then the target holds the elements read
/// before it, up to the bound.
///
/// # Examples
///
/// ```
/// use read_write_collection::ReadWriteCollection;
/// use serde::Deserialize;
///
/// let c: ReadWriteCollection<String> = serde_json::from_str(r#"["a", "b"]"#).unwrap();
/// assert_eq!(c, ["a", "b"]);
///
/// // In place: the bound stays.
/// let mut bounded: ReadWriteCollection<u8> = ReadWriteCollection::bounded(3);
/// let mut de = serde_json::Deserializer::from_str("[1, 2]");
/// Deserialize::deserialize_in_place(&mut de, &mut bounded).unwrap();
/// assert_eq!(bounded, [1, 2]);
/// assert_eq!(bounded.max_len(), Some(3));
///
/// let mut de = serde_json::Deserializer::from_str("[1, 2, 3, 4]");
/// assert!(Deserialize::deserialize_in_place(&mut de, &mut bounded).is_err());
/// assert_eq!(bounded.max_len(), Some(3));
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de, T: Deserialize<'de>, A: Default> Deserialize<'de> for ReadWriteCollection<T, A> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut c = ReadWriteCollection::default();
        deserializer.deserialize_seq(SeqVisitor { place: &mut c })?;
        Ok(c)
    }

    fn deserialize_in_place<D: Deserializer<'de>>(
        deserializer: D,
        place: &mut Self,
    ) -> Result<(), D::Error> {
        deserializer.deserialize_seq(SeqVisitor { place })
    }
}

/// Reads a sequence into a collection, keeping its settings.
struct SeqVisitor<'p, T, A> {
    place: &'p mut ReadWriteCollection<T, A>,
}

impl<'de, T: Deserialize<'de>, A> Visitor<'de> for SeqVisitor<'_, T, A> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.place.max_len() {
            Some(max) => write!(f, "a sequence of at most {max} elements"),
            None => f.write_str("a sequence"),
        }
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<(), S::Error> {
        self.place.clear();
        self.place.reserve(cautious::<T>(seq.size_hint()));
        while let Some(value) = seq.next_element()? {
            if self.place.try_push(value).is_err() {
                let len = self.place.len() + 1;
                return Err(de::Error::invalid_length(len, &self));
            }
        }
        Ok(())
    }
}

/// Serializes as a struct `BufferedCollection { visible, pending }` of two
/// sequences: the visible elements, then the ones waiting for
/// [`commit`](BufferedCollection::commit), each in order.
///
/// A plain sequence could not say which elements are pending, and a round
/// trip that committed them would let the next traversal visit elements
/// that must wait for a commit. Like [`Clone`], this covers the
/// collection's own pending buffer, not elements pushed through a
/// `Producer` (feature `std`) and not yet committed: call `commit` first to
/// include those.
///
/// # Examples
///
/// ```
/// use read_write_collection::BufferedCollection;
///
/// let mut c: BufferedCollection<u8> = [1, 2].into_iter().collect();
/// c.push(3);
/// assert_eq!(serde_json::to_string(&c).unwrap(), r#"{"visible":[1,2],"pending":[3]}"#);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<T: Serialize, A> Serialize for BufferedCollection<T, A> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("BufferedCollection", 2)?;
        s.serialize_field("visible", self.as_slice())?;
        s.serialize_field("pending", self.local_pending())?;
        s.end()
    }
}

/// Deserializes the struct form written by `Serialize` (a map with the
/// fields `visible` and `pending`, or a two-element sequence in formats
/// that write structs as sequences). Pending elements stay pending.
///
/// The collection gets `A::default()` as its auto-remove policy; see the
/// note on [`ReadWriteCollection`]'s `Deserialize` impl.
///
/// # Examples
///
/// ```
/// use read_write_collection::BufferedCollection;
///
/// let mut c: BufferedCollection<u8> =
///     serde_json::from_str(r#"{"visible":[1],"pending":[2,3]}"#).unwrap();
/// assert_eq!(c.as_slice(), [1]);
/// assert_eq!(c.local_pending(), [2, 3]);
/// c.commit();
/// assert_eq!(c.as_slice(), [1, 2, 3]);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de, T, A> Deserialize<'de> for BufferedCollection<T, A>
where
    T: Deserialize<'de>,
    A: AutoRemove<T> + Default,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_struct("BufferedCollection", FIELDS, BufferedVisitor(PhantomData))
    }
}

const FIELDS: &[&str] = &["visible", "pending"];

enum Field {
    Visible,
    Pending,
    Other,
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FieldVisitor;

        impl Visitor<'_> for FieldVisitor {
            type Value = Field;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("`visible` or `pending`")
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Field, E> {
                Ok(match v {
                    0 => Field::Visible,
                    1 => Field::Pending,
                    _ => Field::Other,
                })
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Field, E> {
                self.visit_bytes(v.as_bytes())
            }

            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Field, E> {
                Ok(match v {
                    b"visible" => Field::Visible,
                    b"pending" => Field::Pending,
                    _ => Field::Other,
                })
            }
        }

        deserializer.deserialize_identifier(FieldVisitor)
    }
}

struct BufferedVisitor<T, A>(PhantomData<(T, A)>);

impl<'de, T, A> Visitor<'de> for BufferedVisitor<T, A>
where
    T: Deserialize<'de>,
    A: AutoRemove<T> + Default,
{
    type Value = BufferedCollection<T, A>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct BufferedCollection")
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Self::Value, S::Error> {
        let visible: Vec<T> = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let pending: Vec<T> = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        Ok(build(visible, pending))
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
        let mut visible: Option<Vec<T>> = None;
        let mut pending: Option<Vec<T>> = None;
        while let Some(key) = map.next_key()? {
            match key {
                Field::Visible if visible.is_some() => {
                    return Err(de::Error::duplicate_field("visible"))
                }
                Field::Pending if pending.is_some() => {
                    return Err(de::Error::duplicate_field("pending"))
                }
                Field::Visible => visible = Some(map.next_value()?),
                Field::Pending => pending = Some(map.next_value()?),
                Field::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let visible = visible.ok_or_else(|| de::Error::missing_field("visible"))?;
        let pending = pending.ok_or_else(|| de::Error::missing_field("pending"))?;
        Ok(build(visible, pending))
    }
}

fn build<T, A: AutoRemove<T> + Default>(
    visible: Vec<T>,
    pending: Vec<T>,
) -> BufferedCollection<T, A> {
    let mut c = BufferedCollection::with_policy(A::default());
    // A fresh collection has nothing pending and no producer: `commit`
    // moves exactly `visible` into the visible part.
    c.extend(visible);
    c.commit();
    c.extend(pending);
    c
}

/// A preallocation that a hostile length hint cannot turn into a huge
/// allocation (at most 1 MiB up front; `push` grows past it as needed).
fn cautious<T>(hint: Option<usize>) -> usize {
    const MAX_PREALLOC_BYTES: usize = 1024 * 1024;
    let size = core::mem::size_of::<T>().max(1);
    hint.unwrap_or(0).min(MAX_PREALLOC_BYTES / size)
}

//! `serde` support (feature `serde`).
//!
//! * [`ReadWriteCollection`] is a sequence of its elements, like `Vec<T>`.
//! * [`BufferedCollection`] is a struct with two sequences, `visible` and
//!   `pending`, so that a round trip keeps uncommitted elements uncommitted.
//! * `Layers` is a sequence of layers (`layers.rs`).
//!
//! Settings are not part of the serialized form: the maximum length, the
//! [`Mode`](crate::Mode), the shrink policy and the auto-remove policy are
//! behaviour, not contents. `deserialize` builds a collection with the
//! defaults and `A::default()` as its policy; `deserialize_in_place` keeps
//! the target's settings (and a queue's producers), and changes nothing
//! when it fails: the input is read into new storage first.

mod keyed;
mod layers;

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{
    self, Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::auto_remove::AutoRemove;
use crate::buffered::BufferedCollection;
use crate::collection::ReadWriteCollection;
use crate::raw::Store;

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
/// # What a plain `deserialize` keeps and drops
///
/// `deserialize` (what `serde_json::from_str` calls, and what a derived
/// `Deserialize` calls for a field of this type) builds a new collection:
/// it keeps the elements and drops every setting. The result is unbounded,
/// [`Mode::Ordered`](crate::Mode::Ordered), without shrink policy, and has
/// `A::default()` as its auto-remove policy, the way `HashMap<K, V, S>`
/// deserializes with `S::default()`. For a policy that is a closure (not
/// `Default`), deserialize a `Vec<T>` and [`extend`](Extend::extend) a
/// collection built with
/// [`with_auto_remove`](ReadWriteCollection::with_auto_remove). Elements
/// are not checked against the policy until the first traversal or
/// [`prune`](ReadWriteCollection::prune).
///
/// # Loading into an existing collection
///
/// `Deserialize::deserialize_in_place(deserializer, &mut target)` keeps the
/// target's settings: its maximum length, mode, shrink policy and
/// auto-remove policy. It reads the whole sequence into new storage
/// (never allocating past the bound) and only then replaces the target's
/// elements, so a load that fails leaves the target exactly as it was.
/// The old elements are dropped after the new ones are in place. (A
/// format's own check after the value, such as serde_json's
/// `Deserializer::end` for trailing characters, runs after the load.)
///
/// A struct that holds collections keeps their settings only if its own
/// `deserialize_in_place` calls theirs. serde has no field attribute for
/// that; `#[derive(Deserialize)]` does it when serde_derive's
/// `deserialize_in_place` cargo feature is on. Add, next to
/// `serde = { version = "1", features = ["derive"] }`:
///
/// ```toml
/// serde_derive = { version = "1", features = ["deserialize_in_place"] }
/// ```
///
/// Without that feature, a derived `deserialize_in_place` replaces the
/// whole struct with a plain `deserialize`, and every field loses its
/// settings. With it, the fields are loaded one after the other: each
/// collection is all or nothing, but when a later field fails, the fields
/// before it hold the loaded values. serde_derive does not generate it for
/// every shape (not for a struct with a `#[serde(flatten)]` field, nor
/// for enums); those are still replaced whole.
///
/// # Errors
///
/// Whatever the deserializer reports (wrong types, truncated or corrupt
/// input). In place, also a sequence longer than the target's maximum
/// length (`invalid_length`, "expected a sequence of at most N
/// elements"). In every error case `deserialize_in_place` leaves the
/// target unchanged.
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
/// // Too long, or corrupt: an error, and the collection is as it was.
/// let mut de = serde_json::Deserializer::from_str("[1, 2, 3, 4]");
/// let err = Deserialize::deserialize_in_place(&mut de, &mut bounded).unwrap_err();
/// assert!(err.to_string().contains("at most 3 elements"));
/// let mut de = serde_json::Deserializer::from_str("[7, 8, \"x\"]");
/// assert!(Deserialize::deserialize_in_place(&mut de, &mut bounded).is_err());
/// assert_eq!(bounded, [1, 2]);
/// assert_eq!(bounded.max_len(), Some(3));
/// ```
///
/// A saved game whose fields keep their settings on load (with
/// serde_derive's `deserialize_in_place` feature, as above; this crate's
/// doc tests do not enable that feature, so the example is not run here:
/// the repository runs it as `benches/tests/serde_save_game.rs`):
///
/// ```ignore
/// use read_write_collection::{BufferedCollection, ReadWriteCollection};
/// use serde::Deserialize;
///
/// #[derive(Deserialize)]
/// struct Save {
///     particles: ReadWriteCollection<u32>,
///     events: BufferedCollection<u32>,
/// }
///
/// let mut game = Save {
///     particles: ReadWriteCollection::bounded(64),
///     events: BufferedCollection::bounded(16),
/// };
/// let saved = r#"{"particles":[1,2],"events":{"visible":[3],"pending":[4]}}"#;
/// let mut de = serde_json::Deserializer::from_str(saved);
/// Save::deserialize_in_place(&mut de, &mut game).unwrap();
/// assert_eq!(game.particles, [1, 2]);
/// assert_eq!(game.particles.max_len(), Some(64));
/// assert_eq!(game.events.max_len(), Some(16));
///
/// // A plain load builds new collections: no bounds.
/// let fresh: Save = serde_json::from_str(saved).unwrap();
/// assert_eq!(fresh.particles.max_len(), None);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de, T: Deserialize<'de>, A: Default> Deserialize<'de> for ReadWriteCollection<T, A> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut c = ReadWriteCollection::default();
        c.store.vec = BoundedSeq::new(usize::MAX).deserialize(deserializer)?;
        Ok(c)
    }

    fn deserialize_in_place<D: Deserializer<'de>>(
        deserializer: D,
        place: &mut Self,
    ) -> Result<(), D::Error> {
        let vec = BoundedSeq::new(place.store.max).deserialize(deserializer)?;
        replace_elements(&mut place.store, vec);
        Ok(())
    }
}

/// Installs `vec` (read within `store`'s bound) as `store`'s elements; the
/// old ones are dropped last, so a `Drop` that panics finds the store
/// already consistent.
pub(crate) fn replace_elements<T>(store: &mut Store<T>, vec: Vec<T>) {
    let old = core::mem::replace(&mut store.vec, vec);
    // A new buffer: the shrink policy starts counting afresh.
    store.low_passes = 0;
    drop(old);
}

/// Reads a sequence into a new `Vec` of at most `limit` elements, whose
/// allocation never grows past `limit` either (`usize::MAX`: no limit).
pub(crate) struct BoundedSeq<T> {
    limit: usize,
    /// For a part of a queue: the queue's bound, and how many elements
    /// the other part (named) holds.
    queue: Option<(usize, usize, &'static str)>,
    element: PhantomData<fn() -> T>,
}

impl<T> BoundedSeq<T> {
    pub(crate) fn new(limit: usize) -> Self {
        BoundedSeq {
            limit,
            queue: None,
            element: PhantomData,
        }
    }
}

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for BoundedSeq<T> {
    type Value = Vec<T>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<T>, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for BoundedSeq<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.limit == usize::MAX {
            return f.write_str("a sequence");
        }
        let s = if self.limit == 1 { "" } else { "s" };
        write!(f, "a sequence of at most {} element{s}", self.limit)?;
        match self.queue {
            Some((max, 0, _)) => write!(f, " (maximum length {max})"),
            Some((max, used, other)) => write!(f, " (maximum length {max}, {used} {other})"),
            None => Ok(()),
        }
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Vec<T>, S::Error> {
        let mut store = Store::new(Vec::new());
        store.max = self.limit;
        let hint = cautious::<T>(seq.size_hint());
        if self.limit == usize::MAX {
            store.vec.reserve(hint);
        } else {
            store.vec.reserve_exact(hint.min(self.limit));
        }
        while let Some(value) = seq.next_element()? {
            if store.vec.len() == self.limit {
                return Err(de::Error::invalid_length(
                    self.limit.saturating_add(1),
                    &self,
                ));
            }
            if store.vec.len() == store.vec.capacity() {
                store.grow();
            }
            store.vec.push(value);
        }
        Ok(store.vec)
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
/// A plain `deserialize` builds a new queue: unbounded, ordered, without
/// shrink policy or producers, with `A::default()` as its auto-remove
/// policy (see [`ReadWriteCollection`]'s `Deserialize` impl for what a
/// plain load keeps and drops, and how a derived struct keeps settings).
///
/// # Loading into a running queue
///
/// `Deserialize::deserialize_in_place(deserializer, &mut queue)` replaces
/// the visible and local pending elements and keeps everything else: the
/// maximum length, mode, shrink policy and auto-remove policy, and the
/// producers. Live `Producer` handles (feature `std`) stay connected and
/// counted (`producer_count`), the queue stays open (or closed), and what
/// they pushed before the load is neither dropped nor duplicated: it stays
/// in their queue, and the next [`commit`](BufferedCollection::commit)
/// appends it after the loaded pending elements. On a bounded queue the
/// producers see the loaded count at once (room the load freed goes to
/// them; room it took is no longer theirs).
///
/// The input is read into new storage first and installed only if all of
/// it is valid and fits: a load that fails leaves the queue exactly as it
/// was.
///
/// # Errors
///
/// Whatever the deserializer reports (wrong types, a missing or duplicate
/// field, truncated or corrupt input). In place, also a saved state that
/// does not fit the queue's maximum length: visible and pending elements
/// together, plus what producers have queued and not yet committed, may
/// not exceed it (never a silent truncation). In every error case
/// `deserialize_in_place` leaves the queue unchanged.
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
///
/// In place, with a producer that pushed before the load:
///
/// ```
/// use read_write_collection::BufferedCollection;
/// use serde::Deserialize;
///
/// let mut queue = BufferedCollection::bounded(4);
/// let producer = queue.producer();
/// producer.push(99).unwrap();
///
/// let mut de = serde_json::Deserializer::from_str(r#"{"visible":[1],"pending":[2]}"#);
/// Deserialize::deserialize_in_place(&mut de, &mut queue).unwrap();
/// assert_eq!(queue.max_len(), Some(4));
/// assert_eq!(queue.producer_count(), 1);
/// producer.push(100).unwrap(); // 1 visible, 1 pending, 99 and 100 queued: full
/// assert!(producer.try_push(101).is_err());
/// queue.commit();
/// assert_eq!(queue.as_slice(), [1, 2, 99, 100]);
///
/// // Handle the remote events: room for two again.
/// queue.traverse(|e| if *e > 2 { e.remove(); });
/// producer.push(5).unwrap();
/// // Four saved elements do not fit beside the queued one.
/// let mut de = serde_json::Deserializer::from_str(r#"{"visible":[1,2],"pending":[3,4]}"#);
/// let err = Deserialize::deserialize_in_place(&mut de, &mut queue).unwrap_err();
/// assert!(err.to_string().contains("exceed the maximum length 4"));
/// assert_eq!(queue.as_slice(), [1, 2]); // unchanged
/// queue.commit();
/// assert_eq!(queue.as_slice(), [1, 2, 5]);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de, T, A> Deserialize<'de> for BufferedCollection<T, A>
where
    T: Deserialize<'de>,
    A: AutoRemove<T> + Default,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (visible, pending) = deserializer.deserialize_struct(
            "BufferedCollection",
            FIELDS,
            PartsVisitor::new(usize::MAX),
        )?;
        Ok(build(visible, pending))
    }

    fn deserialize_in_place<D: Deserializer<'de>>(
        deserializer: D,
        place: &mut Self,
    ) -> Result<(), D::Error> {
        let max = place.max_len().unwrap_or(usize::MAX);
        // Each part is read within what the bound leaves it: the two
        // together fit the bound, and nothing is allocated past it.
        let (visible, pending) = deserializer.deserialize_struct(
            "BufferedCollection",
            FIELDS,
            PartsVisitor::new(max),
        )?;
        #[cfg(feature = "std")]
        if max != usize::MAX {
            // The producers' queue counts too. The check and the new count
            // are one locked step (`set_max` with the same bound): a
            // producer cannot push into room the loaded elements take, and
            // producers blocked on room the load freed are woken.
            let owned = visible.len() + pending.len();
            if !place.link.set_max(max, owned) {
                let queued = place.link.len();
                return Err(de::Error::custom(format_args!(
                    "{} visible and {} pending elements, with {queued} queued by producers, \
                     exceed the maximum length {max}",
                    visible.len(),
                    pending.len(),
                )));
            }
        }
        let old_pending = core::mem::replace(&mut place.pending, pending);
        replace_elements(&mut place.store, visible);
        drop(old_pending);
        Ok(())
    }
}

const FIELDS: &[&str] = &["visible", "pending"];

enum Field {
    Visible,
    Pending,
    Other,
}

impl FieldNames for Field {
    const NAMES: &'static [&'static str] = FIELDS;

    fn at(index: Option<usize>) -> Self {
        match index {
            Some(0) => Field::Visible,
            Some(1) => Field::Pending,
            _ => Field::Other,
        }
    }
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        field_of(deserializer)
    }
}

/// A struct's field identifiers, for [`field_of`].
trait FieldNames: Sized {
    /// The field names, in order (a compact format writes the index).
    const NAMES: &'static [&'static str];

    /// The field at `index` in [`NAMES`](Self::NAMES), or the one that
    /// stands for a field the struct does not have (`None`: ignored).
    fn at(index: Option<usize>) -> Self;
}

/// Deserializes a struct's field identifier, by name or by index (the
/// visitor of every struct this module reads).
fn field_of<'de, F: FieldNames, D: Deserializer<'de>>(deserializer: D) -> Result<F, D::Error> {
    struct FieldVisitor<F>(PhantomData<F>);

    impl<F: FieldNames> Visitor<'_> for FieldVisitor<F> {
        type Value = F;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            // "`a`, `b` or `c`"
            let last = F::NAMES.len().saturating_sub(1);
            for (i, name) in F::NAMES.iter().enumerate() {
                let sep = match i {
                    0 => "",
                    i if i == last => " or ",
                    _ => ", ",
                };
                write!(f, "{sep}`{name}`")?;
            }
            Ok(())
        }

        fn visit_u64<E: de::Error>(self, v: u64) -> Result<F, E> {
            let index = usize::try_from(v).ok().filter(|&i| i < F::NAMES.len());
            Ok(F::at(index))
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<F, E> {
            self.visit_bytes(v.as_bytes())
        }

        fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<F, E> {
            Ok(F::at(F::NAMES.iter().position(|n| n.as_bytes() == v)))
        }
    }

    deserializer.deserialize_identifier(FieldVisitor(PhantomData))
}

/// Reads a queue's two parts, each within what `max` leaves it after the
/// other (`usize::MAX`: unbounded).
struct PartsVisitor<T> {
    max: usize,
    element: PhantomData<fn() -> T>,
}

impl<T> PartsVisitor<T> {
    fn new(max: usize) -> Self {
        PartsVisitor {
            max,
            element: PhantomData,
        }
    }

    /// The reader of one part, when the other (`other_name`) holds `used`.
    fn part(&self, used: usize, other_name: &'static str) -> BoundedSeq<T> {
        let mut seq = BoundedSeq::new(if self.max == usize::MAX {
            usize::MAX
        } else {
            // `used` was read within `max`.
            self.max - used
        });
        seq.queue = Some((self.max, used, other_name));
        seq
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for PartsVisitor<T> {
    type Value = (Vec<T>, Vec<T>);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct BufferedCollection")
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Self::Value, S::Error> {
        let visible = seq
            .next_element_seed(self.part(0, "pending"))?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let pending = seq
            .next_element_seed(self.part(visible.len(), "visible"))?
            .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        Ok((visible, pending))
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
                Field::Visible => {
                    let used = pending.as_ref().map_or(0, Vec::len);
                    visible = Some(map.next_value_seed(self.part(used, "pending"))?);
                }
                Field::Pending => {
                    let used = visible.as_ref().map_or(0, Vec::len);
                    pending = Some(map.next_value_seed(self.part(used, "visible"))?);
                }
                Field::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let visible = visible.ok_or_else(|| de::Error::missing_field("visible"))?;
        let pending = pending.ok_or_else(|| de::Error::missing_field("pending"))?;
        Ok((visible, pending))
    }
}

fn build<T, A: AutoRemove<T> + Default>(
    visible: Vec<T>,
    pending: Vec<T>,
) -> BufferedCollection<T, A> {
    let mut c = BufferedCollection::with_policy(A::default());
    // Unbounded, and no producer yet: nothing else to account for.
    c.store.vec = visible;
    c.pending = pending;
    c
}

/// A preallocation that a hostile length hint cannot turn into a huge
/// allocation (at most 1 MiB up front; `push` grows past it as needed).
fn cautious<T>(hint: Option<usize>) -> usize {
    const MAX_PREALLOC_BYTES: usize = 1024 * 1024;
    let size = core::mem::size_of::<T>().max(1);
    hint.unwrap_or(0).min(MAX_PREALLOC_BYTES / size)
}

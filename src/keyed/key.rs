//! Keys: [`Key`], [`DefaultKey`] and [`new_key_type!`](crate::new_key_type)
//! (what they hold, [`KeyData`], is defined below every collection, for
//! the auto-remove hooks).

use core::fmt;
use core::hash::Hash;

use crate::key_data::KeyData;

/// A key of a [`KeyedCollection`](crate::KeyedCollection): [`DefaultKey`],
/// or a type of your own from [`new_key_type!`](crate::new_key_type), so
/// that the keys of two collections cannot be mixed up.
///
/// # Examples
///
/// ```
/// use read_write_collection::keyed::Key;
/// use read_write_collection::{new_key_type, KeyedCollection};
///
/// new_key_type! { struct ShipKey; }
///
/// let mut ships: KeyedCollection<&str, ShipKey> = KeyedCollection::with_key();
/// let k: ShipKey = ships.push("corvette");
/// assert_eq!(ShipKey::from_data(k.data()), k);
/// ```
pub trait Key: Copy + Eq + Ord + Hash + fmt::Debug {
    /// The slot and version this key names.
    fn data(&self) -> KeyData;

    /// The key of this type for `data` (what a collection hands out).
    fn from_data(data: KeyData) -> Self;
}

/// The key type of a [`KeyedCollection`](crate::KeyedCollection) that
/// names none.
///
/// # Examples
///
/// ```
/// use read_write_collection::keyed::DefaultKey;
/// use read_write_collection::KeyedCollection;
///
/// let mut c = KeyedCollection::new();
/// let k: DefaultKey = c.push(1);
/// assert_eq!(c.get(k), Some(&1));
/// assert_eq!(std::mem::size_of::<Option<DefaultKey>>(), 8);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(transparent)]
pub struct DefaultKey(KeyData);

impl Key for DefaultKey {
    #[inline]
    fn data(&self) -> KeyData {
        self.0
    }

    #[inline]
    fn from_data(data: KeyData) -> Self {
        DefaultKey(data)
    }
}

/// Defines key types for [`KeyedCollection`](crate::KeyedCollection)s:
/// `new_key_type! { pub struct EnemyKey; struct BulletKey; }`. Each is a
/// distinct [`Key`] type of 8 bytes (`Option` of it too), so a bullet's
/// key cannot look up an enemy.
///
/// # Examples
///
/// ```
/// use read_write_collection::{new_key_type, KeyedCollection};
///
/// new_key_type! {
///     /// An enemy's key.
///     pub struct EnemyKey;
///     struct BulletKey;
/// }
///
/// let mut enemies: KeyedCollection<&str, EnemyKey> = KeyedCollection::with_key();
/// let mut bullets: KeyedCollection<u8, BulletKey> = KeyedCollection::with_key();
/// let e = enemies.push("ogre");
/// bullets.push(1);
/// assert_eq!(enemies.get(e), Some(&"ogre"));
/// ```
///
/// A bullet collection does not take an enemy's key:
///
/// ```compile_fail
/// use read_write_collection::{new_key_type, KeyedCollection};
///
/// new_key_type! { struct EnemyKey; struct BulletKey; }
///
/// let mut enemies: KeyedCollection<&str, EnemyKey> = KeyedCollection::with_key();
/// let bullets: KeyedCollection<u8, BulletKey> = KeyedCollection::with_key();
/// let e = enemies.push("ogre");
/// bullets.get(e);
/// ```
#[macro_export]
macro_rules! new_key_type {
    ($($(#[$meta:meta])* $vis:vis struct $name:ident;)*) => {$(
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        #[repr(transparent)]
        $vis struct $name($crate::keyed::KeyData);

        impl $crate::keyed::Key for $name {
            #[inline]
            fn data(&self) -> $crate::keyed::KeyData {
                self.0
            }

            #[inline]
            fn from_data(data: $crate::keyed::KeyData) -> Self {
                $name(data)
            }
        }

        $crate::__key_serde!($name);
    )*};
}

/// `Serialize` and `Deserialize` for a key type of `new_key_type!`, as its
/// [`KeyData`] (feature `serde`; without it, nothing).
#[cfg(feature = "serde")]
#[doc(hidden)]
#[macro_export]
macro_rules! __key_serde {
    ($name:ident) => {
        impl $crate::__private::serde::Serialize for $name {
            fn serialize<S>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error>
            where
                S: $crate::__private::serde::Serializer,
            {
                $crate::__private::serde::Serialize::serialize(&self.0, serializer)
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<D>(deserializer: D) -> ::core::result::Result<Self, D::Error>
            where
                D: $crate::__private::serde::Deserializer<'de>,
            {
                <$crate::keyed::KeyData as $crate::__private::serde::Deserialize<'de>>::deserialize(
                    deserializer,
                )
                .map($name)
            }
        }
    };
}

/// Without the `serde` feature, key types have no serde impls.
#[cfg(not(feature = "serde"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __key_serde {
    ($name:ident) => {};
}

//! [`KeyData`]: what a key of a keyed collection holds. Defined on the
//! bottom floor, beside `auto_remove`, whose hooks receive it; the keyed
//! collection (`keyed`) hands it out as `keyed::KeyData`.

use core::fmt;
use core::num::NonZeroU32;

/// What a key holds: the index of its slot and the version the slot had
/// when the key was made. 8 bytes, and an `Option` of it too.
///
/// A key stays valid until its element is removed; then it is stale for
/// good: the slot's version moves on, and a slot whose version would wrap
/// is retired instead of reused, so no later element ever answers to it.
///
/// # Examples
///
/// ```
/// use read_write_collection::keyed::{Key, KeyData};
/// use read_write_collection::KeyedCollection;
///
/// let mut c = KeyedCollection::new();
/// let k = c.push("a");
/// let data: KeyData = k.data();
/// assert_eq!(format!("{data:?}"), "0v1"); // slot 0, version 1
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KeyData {
    pub(crate) idx: u32,
    pub(crate) version: NonZeroU32,
}

impl fmt::Debug for KeyData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}", self.idx, self.version)
    }
}

//! The core type, [`ReadWriteCollection`].

use crate::auto_remove::NoAutoRemove;
use crate::raw::Store;

// One file per section of the type's rustdoc page, declared in the order
// the page shows them (rustdoc lists a module's submodules first, in
// declaration order).
mod construct;
mod passes;
mod settings;
mod traits;
mod vec_surface;

/// A growable, `Vec`-backed, insertion-ordered collection that a lending
/// [`Cursor`](crate::Cursor) walks while removing the element in hand and pushing new
/// elements that the same pass visits.
///
/// `A` is the [auto-remove policy](crate::auto_remove); the default,
/// [`NoAutoRemove`], costs nothing.
///
/// # Examples
///
/// ```
/// use read_write_collection::ReadWriteCollection;
///
/// let mut c = ReadWriteCollection::new();
/// c.push(1);
/// c.push(2);
/// let mut cursor = c.cursor();
/// while let Some(e) = cursor.next() {
///     if *e == 1 {
///         e.remove();
///         cursor.push(3); // the entry is no longer used: the cursor is free
///     }
/// }
/// drop(cursor);
/// assert_eq!(c, [2, 3]);
/// ```
pub struct ReadWriteCollection<T, A = NoAutoRemove> {
    pub(crate) store: Store<T>,
    pub(crate) policy: A,
}

//! Auto-remove policies: predicates that take expired elements out during a
//! traversal, and hooks that receive them.
//!
//! A collection's second type parameter is its policy. The default,
//! [`NoAutoRemove`], never removes anything and compiles to nothing, so a
//! collection without a predicate pays nothing for the feature. Any
//! `FnMut(&T) -> bool` closure is a policy, and [`WithHook`] adds a removal
//! hook to one.
//!
//! # When the predicate runs
//!
//! During a traversal, the predicate runs on every element the cursor
//! reaches (a `true` element is removed and never yielded) and again on the
//! element the user held, when the cursor moves on from it (`next`) or
//! completes. Pushed elements are reached like any other. So an element
//! that is yielded costs two predicate calls, and one removed on arrival
//! costs one: the second call cannot be skipped, because the user may have
//! changed the element (or whatever the predicate reads) while holding it.
//! Outside traversals, [`prune`](crate::ReadWriteCollection::prune)
//! applies it once to every element.
//!
//! The second call reads the element back from memory right after the
//! loop body wrote it, where a loop that tests the value it just computed
//! tests a register: in the crate's benchmark of a frame where a tenth of
//! 32-byte entities die, a closure predicate took 1.2-1.3x the time of
//! the same loop written by hand with the two checks. When the loop body
//! already knows that an element dies (it computed its life), an explicit
//! [`Entry::remove`](crate::Entry::remove) there is the faster form.
//!
//! # Naming the type
//!
//! Every closure has its own type, so a collection with a predicate is
//! `ReadWriteCollection<T, F>` where `F` cannot be written down. To store
//! one in a struct field, or to give several collections (say, the layers
//! of [`Layers`](crate::Layers)) the same type, write the predicate as a
//! zero-sized type that implements [`AutoRemove`]. It costs exactly what a
//! closure costs (the call is inlined), which a function pointer does not:
//!
//! ```
//! use read_write_collection::{AutoRemove, ReadWriteCollection};
//!
//! struct Mob { hp: i32 }
//!
//! /// Removes dead mobs.
//! struct Dead;
//!
//! impl AutoRemove<Mob> for Dead {
//!     fn should_remove(&mut self, m: &Mob) -> bool { m.hp <= 0 }
//! }
//!
//! struct World {
//!     mobs: ReadWriteCollection<Mob, Dead>,
//! }
//!
//! let mut world = World { mobs: ReadWriteCollection::with_policy(Dead) };
//! world.mobs.extend([Mob { hp: 1 }, Mob { hp: 0 }]);
//! world.mobs.prune();
//! assert_eq!(world.mobs.len(), 1);
//! ```
//!
//! A function pointer (`fn(&Mob) -> bool`) also names the type, but every
//! check is an indirect call that cannot be inlined: in the crate's entity
//! benchmark (elements of 32 B, 10% expiring) a pass with a
//! function-pointer predicate ran about 1.8x the time of the same pass
//! with a closure or a unit struct at 10k elements and 1.45x at 100k,
//! executing 1.1x the instructions.
//!
//! ```
//! use read_write_collection::ReadWriteCollection;
//!
//! struct Mob { hp: i32 }
//! fn dead(m: &Mob) -> bool { m.hp <= 0 }
//!
//! let mut mobs: ReadWriteCollection<Mob, fn(&Mob) -> bool> =
//!     ReadWriteCollection::with_auto_remove(dead as fn(&Mob) -> bool);
//! mobs.extend([Mob { hp: 1 }, Mob { hp: 0 }]);
//! assert_eq!(mobs.prune(), 1);
//! ```
//!
//! With a hook the type is `WithHook<P, H>`; a boxed hook
//! (`Box<dyn FnMut(Mob)>`) makes it nameable too. A hook that captures
//! `&mut` state keeps the collection borrowing it: to read what the hook
//! collected while the collection lives, share it through `Rc<RefCell<_>>`
//! (or a channel), or write an [`AutoRemove`] type that keeps the state and
//! read it with [`policy`](crate::ReadWriteCollection::policy).
//!
//! ```
//! use std::{cell::RefCell, rc::Rc};
//! use read_write_collection::ReadWriteCollection;
//!
//! let expired = Rc::new(RefCell::new(Vec::new()));
//! let sink = Rc::clone(&expired);
//! let mut c = ReadWriteCollection::with_auto_remove(|n: &u32| *n == 0)
//!     .with_removal_hook(move |n| sink.borrow_mut().push(n));
//! c.extend([0, 1, 0]);
//! c.prune();
//! assert_eq!(*expired.borrow(), [0, 0]); // while `c` is alive
//! assert_eq!(c, [1]);
//! ```
//!
//! # Panics in the predicate or the hook
//!
//! A predicate that panics leaves the element it was looking at in the
//! collection (kept, in its place). A hook that panics has already received
//! the element, which is then dropped by the unwinding; it is no longer in
//! the collection. Either way the collection stays valid, and every element
//! is either still in it or dropped exactly once. When a cursor is dropped
//! while the thread is panicking, or without the `std` feature, the drop
//! never calls the predicate or the hook: a held element is kept and checked
//! when a later traversal reaches it (call
//! [`Cursor::finish`](crate::Cursor::finish) to check it now).

use crate::key_data::KeyData;

/// A policy deciding which elements a traversal removes on its own, and
/// what happens to them.
///
/// Implemented by [`NoAutoRemove`], by every `FnMut(&T) -> bool` closure and
/// by [`WithHook`].
///
/// # Examples
///
/// A hand-written policy that counts what it removes:
///
/// ```
/// use read_write_collection::{AutoRemove, ReadWriteCollection};
///
/// #[derive(Default)]
/// struct DropNegatives { removed: usize }
///
/// impl AutoRemove<i32> for DropNegatives {
///     fn should_remove(&mut self, item: &i32) -> bool { *item < 0 }
///     fn removed(&mut self, _item: i32) { self.removed += 1; }
/// }
///
/// let mut c = ReadWriteCollection::with_policy(DropNegatives::default());
/// c.extend([1, -2, 3, -4]);
/// c.prune();
/// assert_eq!(c.as_slice(), [1, 3]);
/// assert_eq!(c.policy().removed, 2);
/// ```
pub trait AutoRemove<T> {
    /// `false` promises that [`should_remove`](AutoRemove::should_remove)
    /// always returns `false`, so a cursor skips the per-element
    /// bookkeeping the policy needs. Only [`NoAutoRemove`] sets it; a
    /// policy that sets it and still returns `true` is not unsafe, but its
    /// held elements are then only checked when reached.
    const ACTIVE: bool = true;

    /// Whether `item` is to be removed.
    fn should_remove(&mut self, item: &T) -> bool;

    /// Receives each element removed because [`should_remove`] said so.
    /// The default drops it.
    ///
    /// [`should_remove`]: AutoRemove::should_remove
    #[inline]
    fn removed(&mut self, item: T) {
        drop(item);
    }

    /// Receives each element removed because [`should_remove`] said so
    /// from a [`KeyedCollection`](crate::KeyedCollection), with the data
    /// of the key it had (stale from here on; `K::from_data` makes the
    /// key). The default calls [`removed`](AutoRemove::removed).
    ///
    /// [`should_remove`]: AutoRemove::should_remove
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::keyed::{DefaultKey, KeyData};
    /// use read_write_collection::{AutoRemove, KeyedCollection};
    ///
    /// #[derive(Default)]
    /// struct Obituaries { keys: Vec<KeyData> }
    ///
    /// impl AutoRemove<i32> for Obituaries {
    ///     fn should_remove(&mut self, hp: &i32) -> bool { *hp <= 0 }
    ///     fn removed_with_key(&mut self, key: KeyData, _hp: i32) { self.keys.push(key); }
    /// }
    ///
    /// let mut c: KeyedCollection<i32, DefaultKey, _> =
    ///     KeyedCollection::with_policy(Obituaries::default());
    /// c.push(3);
    /// c.push(0);
    /// c.traverse(|_| {});
    /// assert_eq!(format!("{:?}", c.policy().keys), "[1v1]");
    /// ```
    #[inline]
    fn removed_with_key(&mut self, key: KeyData, item: T) {
        let _ = key;
        self.removed(item);
    }
}

/// The default policy: removes nothing, costs nothing.
///
/// # Examples
///
/// ```
/// use read_write_collection::{NoAutoRemove, ReadWriteCollection};
///
/// let c: ReadWriteCollection<u8, NoAutoRemove> = ReadWriteCollection::new();
/// assert!(c.is_empty());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NoAutoRemove;

impl<T> AutoRemove<T> for NoAutoRemove {
    const ACTIVE: bool = false;

    #[inline(always)]
    fn should_remove(&mut self, _item: &T) -> bool {
        false
    }
}

impl<T, F: FnMut(&T) -> bool> AutoRemove<T> for F {
    #[inline]
    fn should_remove(&mut self, item: &T) -> bool {
        self(item)
    }
}

/// A predicate plus a removal hook that receives every auto-removed element
/// by value (to recycle it, or to emit an event).
///
/// Built by [`ReadWriteCollection::with_removal_hook`](crate::ReadWriteCollection::with_removal_hook).
///
/// # Examples
///
/// ```
/// use read_write_collection::ReadWriteCollection;
///
/// let mut expired = Vec::new();
/// let mut c = ReadWriteCollection::with_auto_remove(|t: &u32| *t == 0)
///     .with_removal_hook(|t: u32| expired.push(t));
/// c.extend([0, 1, 0, 2]);
/// c.prune();
/// assert_eq!(c.as_slice(), [1, 2]);
/// drop(c);
/// assert_eq!(expired, [0, 0]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct WithHook<P, H> {
    /// The predicate (or any other policy).
    pub policy: P,
    /// Receives each removed element.
    pub hook: H,
}

impl<T, P: AutoRemove<T>, H: FnMut(T)> AutoRemove<T> for WithHook<P, H> {
    #[inline]
    fn should_remove(&mut self, item: &T) -> bool {
        self.policy.should_remove(item)
    }

    #[inline]
    fn removed(&mut self, item: T) {
        (self.hook)(item);
    }
}

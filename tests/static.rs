//! Compile-time properties: auto traits follow `T`, which types must not be
//! `Clone`/`Copy`, sizes, and error types.

use std::cell::Cell;
use std::mem::size_of;
use std::rc::Rc;

use read_write_collection::keyed::DefaultKey;
use read_write_collection::layers::{LayerEntry, LayersCursor};
use read_write_collection::{
    BufferedCollection, CapacityError, Cursor, Entry, KeyedCollection, Layers, Mode, NoAutoRemove,
    Producer, ProducerClosed, ReadWriteCollection, ShrinkPolicy,
};
use static_assertions::{assert_impl_all, assert_not_impl_any, const_assert};

// `Send`/`Sync` follow `T`: i32 is both, Rc neither, Cell is Send only.

assert_impl_all!(ReadWriteCollection<i32>: Send, Sync);
assert_impl_all!(ReadWriteCollection<Cell<i32>>: Send);
assert_not_impl_any!(ReadWriteCollection<Cell<i32>>: Sync);
assert_not_impl_any!(ReadWriteCollection<Rc<i32>>: Send, Sync);

assert_impl_all!(Cursor<'static, i32>: Send, Sync);
assert_impl_all!(Cursor<'static, Cell<i32>>: Send);
assert_not_impl_any!(Cursor<'static, Cell<i32>>: Sync);
assert_not_impl_any!(Cursor<'static, Rc<i32>>: Send, Sync);
// `Sync` but not `Send`: the cursor is `Sync` as its elements are.
assert_impl_all!(Cursor<'static, std::sync::MutexGuard<'static, i32>>: Sync);
assert_not_impl_any!(Cursor<'static, std::sync::MutexGuard<'static, i32>>: Send);

assert_impl_all!(Entry<'static, i32>: Send, Sync);
assert_impl_all!(Entry<'static, Cell<i32>>: Send);
assert_not_impl_any!(Entry<'static, Cell<i32>>: Sync);
assert_not_impl_any!(Entry<'static, Rc<i32>>: Send, Sync);

assert_impl_all!(KeyedCollection<i32>: Send, Sync);
assert_impl_all!(KeyedCollection<Cell<i32>>: Send);
assert_not_impl_any!(KeyedCollection<Cell<i32>>: Sync);
assert_not_impl_any!(KeyedCollection<Rc<i32>>: Send, Sync);
// A key is 8 bytes, and so is an `Option` of one (the version is never 0).
assert_impl_all!(read_write_collection::keyed::KeyedCursor<'static, i32>: Send, Sync);
assert_impl_all!(read_write_collection::keyed::KeyedCursor<'static, Cell<i32>>: Send);
assert_not_impl_any!(read_write_collection::keyed::KeyedCursor<'static, Cell<i32>>: Sync);
assert_not_impl_any!(read_write_collection::keyed::KeyedCursor<'static, Rc<i32>>: Send, Sync);
assert_impl_all!(read_write_collection::keyed::KeyedEntry<'static, i32>: Send, Sync);
assert_impl_all!(read_write_collection::keyed::KeyedEntry<'static, Cell<i32>>: Send);
assert_not_impl_any!(read_write_collection::keyed::KeyedEntry<'static, Cell<i32>>: Sync);
assert_not_impl_any!(read_write_collection::keyed::KeyedEntry<'static, Rc<i32>>: Send, Sync);
assert_impl_all!(DefaultKey: Send, Sync, Copy, Ord, std::hash::Hash);

const_assert!(size_of::<DefaultKey>() == 8);
const_assert!(size_of::<Option<DefaultKey>>() == 8);
assert_impl_all!(DefaultKey: Copy, Send, Sync, Eq, Ord, std::hash::Hash);

assert_impl_all!(BufferedCollection<i32>: Send, Sync);
assert_impl_all!(BufferedCollection<Cell<i32>>: Send);
assert_not_impl_any!(BufferedCollection<Cell<i32>>: Sync);
assert_not_impl_any!(BufferedCollection<Rc<i32>>: Send, Sync);

/// A policy that is neither `Send` nor `Sync`.
struct RcPolicy(#[allow(dead_code)] Rc<()>);

impl read_write_collection::AutoRemove<i32> for RcPolicy {
    fn should_remove(&mut self, _: &i32) -> bool {
        false
    }
}

// The layers' cursor borrows every layer: it follows `T` and the policy,
// as `&mut [ReadWriteCollection<T, A>]` would. Its entry reaches the other
// layers without naming their policy, so it is neither `Send` nor `Sync`.
assert_impl_all!(Layers<i32>: Send, Sync);
assert_impl_all!(LayersCursor<'static, i32>: Send, Sync);
assert_impl_all!(LayersCursor<'static, Cell<i32>>: Send);
assert_not_impl_any!(LayersCursor<'static, Cell<i32>>: Sync);
assert_not_impl_any!(LayersCursor<'static, Rc<i32>>: Send, Sync);
assert_not_impl_any!(LayersCursor<'static, i32, usize, RcPolicy>: Send, Sync);
assert_not_impl_any!(LayerEntry<'static, i32>: Send, Sync);

// A policy that is not `Send` makes the collection not `Send` either.
assert_not_impl_any!(ReadWriteCollection<i32, Rc<dyn Fn(&i32) -> bool>>: Send, Sync);

// Producers cross threads whenever the elements can.
assert_impl_all!(Producer<i32>: Send, Sync, Clone);
assert_impl_all!(Producer<Cell<i32>>: Send, Sync, Clone);
assert_not_impl_any!(Producer<Rc<i32>>: Send, Sync);

// Not duplicable: a cursor or an entry is a unique borrow of a pass.
assert_not_impl_any!(Cursor<'static, i32>: Clone, Copy);
assert_not_impl_any!(Entry<'static, i32>: Clone, Copy);
assert_not_impl_any!(ReadWriteCollection<i32>: Copy);
assert_not_impl_any!(BufferedCollection<i32>: Copy);

// The common traits are there.
assert_impl_all!(ReadWriteCollection<i32>: Clone, Default, std::fmt::Debug, PartialEq, Eq, std::hash::Hash, Ord, Extend<i32>, FromIterator<i32>, From<Vec<i32>>, Into<Vec<i32>>, IntoIterator);
assert_impl_all!(Mode: Copy, Default, std::fmt::Debug, Eq, std::hash::Hash);
assert_impl_all!(ShrinkPolicy: Copy, std::fmt::Debug, Eq);
assert_impl_all!(NoAutoRemove: Copy, Default, Send, Sync);

// Errors.
assert_impl_all!(CapacityError<i32>: std::error::Error, Send, Sync);
assert_impl_all!(CapacityError<Rc<i32>>: std::error::Error);
assert_impl_all!(ProducerClosed<i32>: std::error::Error, Send, Sync);
assert_impl_all!(ProducerClosed<Rc<i32>>: std::error::Error);
assert_impl_all!(read_write_collection::WaitTimeoutError: std::error::Error, Copy, Eq, std::hash::Hash, Send, Sync);

// Sizes.
const_assert!(size_of::<ReadWriteCollection<u64>>() <= 64);
const_assert!(size_of::<ReadWriteCollection<u8>>() <= 64);
// An entry is the pass plus a pointer to its element (so deref costs no
// bookkeeping loads); `Option` uses the niche.
const_assert!(size_of::<Entry<'static, u64>>() == 2 * size_of::<usize>());
const_assert!(size_of::<Option<Entry<'static, u64>>>() == 2 * size_of::<usize>());
// No predicate costs no space.
const_assert!(
    size_of::<ReadWriteCollection<u64, NoAutoRemove>>() == size_of::<ReadWriteCollection<u64>>()
);

#[test]
fn a_cursor_is_driven_from_another_thread() {
    // What `Cursor: Send` buys: a pass handed to a worker thread.
    let mut c: ReadWriteCollection<i32> = (0..6).collect();
    std::thread::scope(|s| {
        let mut cursor = c.cursor();
        s.spawn(move || {
            while let Some(mut e) = cursor.next() {
                if *e % 2 == 0 {
                    e.remove();
                } else {
                    *e *= 10;
                }
            }
        });
    });
    assert_eq!(c, [10, 30, 50]);
    // And `Sync`: shared reads from two threads.
    let total = std::thread::scope(|s| {
        let a = s.spawn(|| c.iter().sum::<i32>());
        let b = s.spawn(|| c.len());
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_eq!(total, (90, 3));
}

// Added with the split, the queue errors and the builder.
mod later {
    use super::*;
    use read_write_collection::{Builder, Spawner, TryPushError};

    assert_impl_all!(Spawner<'static, i32>: Send, Sync);
    assert_impl_all!(Spawner<'static, Cell<i32>>: Send);
    assert_not_impl_any!(Spawner<'static, Cell<i32>>: Sync);
    assert_not_impl_any!(Spawner<'static, Rc<i32>>: Send, Sync);
    assert_not_impl_any!(Spawner<'static, i32>: Clone, Copy);
    const_assert!(size_of::<Spawner<'static, u64>>() == size_of::<usize>());

    assert_impl_all!(TryPushError<i32>: std::error::Error, Send, Sync);
    assert_impl_all!(Builder<i32>: Send, Sync, Clone, Default);
}

// Layers are a collection like the others; `Builder` keeps its hook in a
// parameter of its own; `CapacityError` shows its value.
mod seams {
    use super::*;
    use read_write_collection::builder::{BuilderHook, NoHook};
    use read_write_collection::layers::{Iter, IterVisible};
    use read_write_collection::{Builder, Layers, WithHook};
    use std::fmt::{Debug, Display};
    use std::hash::Hash;
    use std::iter::FusedIterator;

    assert_impl_all!(Layers<i32>: Clone, Default, Debug, PartialEq, Eq, Hash, Send, Sync);
    assert_impl_all!(Layers<i32, usize, NoAutoRemove>: PartialEq<Layers<i32, usize, fn(&i32) -> bool>>);
    assert_not_impl_any!(Layers<f32>: Eq, Hash);
    assert_impl_all!(&'static Layers<i32>: IntoIterator<Item = (usize, &'static i32)>);
    assert_impl_all!(Iter<'static, i32, usize>: Iterator<Item = (usize, &'static i32)>, ExactSizeIterator, DoubleEndedIterator, FusedIterator, Clone, Debug, Send, Sync);
    assert_impl_all!(IterVisible<'static, i32, usize>: Iterator<Item = (usize, &'static i32)>, ExactSizeIterator, DoubleEndedIterator, FusedIterator, Clone, Debug, Send, Sync);
    assert_not_impl_any!(Iter<'static, Cell<i32>, usize>: Send, Sync);

    assert_impl_all!(NoHook: Copy, Default, Debug, Eq, Hash, Send, Sync);
    assert_impl_all!(Builder<i32, NoAutoRemove, NoHook>: Send, Sync, Clone, Default, Debug);
    assert_impl_all!(NoHook: BuilderHook<i32, NoAutoRemove>);
    type HookFn = fn(i32);
    assert_impl_all!(HookFn: BuilderHook<i32, NoAutoRemove>);
    const_assert!(size_of::<Builder<u64>>() == size_of::<Builder<u64, NoAutoRemove, NoHook>>());
    #[allow(dead_code)]
    fn hook_policy_is_with_hook(
        p: <HookFn as BuilderHook<i32, NoAutoRemove>>::Policy,
    ) -> WithHook<NoAutoRemove, HookFn> {
        p
    }

    /// An element type without `Debug`: its `CapacityError` is not `Debug`
    /// (the value cannot be shown) and so not an `Error`;
    /// `simplify()` gives a `CapacityError<()>`, which is both.
    #[allow(dead_code)]
    struct Opaque;
    assert_impl_all!(CapacityError<i32>: Debug, Display, std::error::Error);
    assert_impl_all!(CapacityError<Opaque>: Display, Send, Sync);
    assert_not_impl_any!(CapacityError<Opaque>: Debug, std::error::Error);
    assert_impl_all!(CapacityError: Debug, std::error::Error, Copy);
}

// The parallel entry is a unique borrow of one element and of its walk,
// as `Entry` is: it follows `T` across threads (a scoped thread may use
// it; the borrow ends before the closure returns), and is never copied.
#[cfg(feature = "rayon")]
mod parallel {
    use read_write_collection::{ParEntry, ParSpawner};
    use static_assertions::{assert_impl_all, assert_not_impl_any};
    use std::rc::Rc;

    assert_impl_all!(ParEntry<'static, i32>: Send, Sync);
    assert_not_impl_any!(ParEntry<'static, Rc<i32>>: Send, Sync);
    assert_not_impl_any!(ParEntry<'static, i32>: Clone, Copy);
    assert_not_impl_any!(ParSpawner<'static, i32>: Clone, Copy);
}

/// The async queue's futures are `Send` when `T` is (so tokio can move a
/// task that awaits them between threads), and not otherwise.
#[cfg(feature = "async")]
mod async_futures {
    use read_write_collection::{PushFuture, PushPermit, ReserveFuture, WaitPendingFuture};
    use static_assertions::{assert_impl_all, assert_not_impl_any};
    use std::rc::Rc;

    assert_impl_all!(WaitPendingFuture<'static, u32>: Send, Unpin);
    assert_impl_all!(PushFuture<'static, u32>: Send, Unpin);
    assert_impl_all!(PushFuture<'static, std::cell::Cell<u32>>: Send);
    assert_not_impl_any!(PushFuture<'static, Rc<u32>>: Send);
    assert_not_impl_any!(WaitPendingFuture<'static, Rc<u32>>: Send);
    assert_impl_all!(ReserveFuture<'static, u32>: Send, Unpin);
    assert_impl_all!(PushPermit<'static, u32>: Send, Sync);
    assert_not_impl_any!(ReserveFuture<'static, Rc<u32>>: Send);
    assert_not_impl_any!(PushPermit<'static, Rc<u32>>: Send);
    // A permit is a promise of room: it is used or dropped, never copied.
    assert_not_impl_any!(PushPermit<'static, u32>: Clone, Copy);
}

// A producer handle is four words: the queue, its own buffer once it
// needs one (a pointer and a once-flag) and its number. It allocates nothing
// until it needs that buffer (`tests/alloc.rs`), so an idle handle costs
// its queue these 32 bytes (16 on 32-bit targets).
#[cfg(feature = "std")]
const_assert!(size_of::<Producer<u64>>() == 4 * size_of::<usize>());

//! The committed-buffer variant, [`BufferedCollection`].

use crate::auto_remove::NoAutoRemove;
#[cfg(feature = "std")]
use crate::producer::ProducerLink;
use crate::raw::Store;
use alloc::vec::Vec;
#[cfg(feature = "std")]
use core::sync::atomic::AtomicBool;

// One file per section of the type's rustdoc page, declared in the order
// the page shows them (rustdoc lists a module's submodules first, in
// declaration order; blank lines keep rustfmt from sorting them).
mod construct;

mod queue;

mod passes;

#[cfg(feature = "std")]
mod producers;

mod settings;

mod traits;
mod vec_surface;

/// A collection whose pushes wait in a **pending** buffer until
/// [`commit`](BufferedCollection::commit): the event queue where handling
/// an event may emit more events, for the next frame and never in a
/// cascade within this one.
///
/// Traversals use the same [`Cursor`](crate::Cursor) as [`ReadWriteCollection`](crate::ReadWriteCollection):
/// [`Entry::remove`](crate::Entry::remove) removes, and [`Entry::push`](crate::Entry::push) / [`Cursor::push`](crate::Cursor::push) go to
/// the pending buffer (not visited by this traversal). With the `std`
#[cfg_attr(
    feature = "std",
    doc = "feature, [`producer`](BufferedCollection::producer) hands out
[`Producer`](crate::Producer) handles that push from other threads."
)]
#[cfg_attr(
    not(feature = "std"),
    doc = "feature, `producer` hands out `Producer` handles that push from other threads."
)]
///
/// # Order at commit
///
/// `commit` appends, behind the visible elements, everything pushed
/// locally (`push`, `Extend`, `Entry::push`, `Cursor::push`) in push order,
#[cfg_attr(
    feature = "std",
    doc = "then everything producers pushed before the commit started, by default
in the order it arrived ([`ProducerOrder::Arrival`](crate::ProducerOrder::Arrival), as a channel keeps it):
a push that returned before another push started, through whichever handle
on whichever thread, comes first.
[`set_producer_order`](BufferedCollection::set_producer_order) can ask for
[`ProducerOrder::PerProducer`](crate::ProducerOrder::PerProducer) instead: each handle's pushes together,
handles in the order they were made. Either way each handle's own pushes
keep their order, and nothing is lost or duplicated. The collection's own
pushes are not stamped: to order them by arrival with the producers', push
through a [`Producer`](crate::Producer) of its own.
"
)]
#[cfg_attr(
    not(feature = "std"),
    doc = "then (feature `std`) what producers pushed."
)]
///
/// # What "pending" covers
///
/// [`pending_len`](BufferedCollection::pending_len) counts everything the
/// next `commit` will append: the local pending buffer and what producers
/// queued (a bound applies to the sum). The collection's own value (what
/// [`local_pending`](BufferedCollection::local_pending) shows, and what
/// `Clone`, `==`, `Hash`, `Debug` and serde see) is its visible elements
/// and its local pending buffer: producers' pushes belong to the
/// producers' queue until `commit` takes them, and a clone starts with no
/// producers and an empty queue of its own.
///
#[cfg_attr(
    feature = "std",
    doc = "# Shutting down without losing events

[`close`](BufferedCollection::close) stops producers (their pushes hand
the value back from then on) and keeps everything they pushed before it
pending; [`wait_pending`](BufferedCollection::wait_pending) sleeps until
something arrives and says when nothing can arrive any more, and
[`into_parts`](BufferedCollection::into_parts) /
[`into_vec`](BufferedCollection::into_vec) move every element out. See
the `event_queue` example for the whole loop.
"
)]
///
/// # Examples
///
/// ```
/// use read_write_collection::BufferedCollection;
///
/// let mut queue = BufferedCollection::new();
/// queue.push(3u32);
/// assert!(queue.is_empty()); // pending, not visible
/// let mut frames = Vec::new();
/// while queue.commit() > 0 {
///     let mut handled = Vec::new();
///     let mut cursor = queue.cursor();
///     while let Some(e) = cursor.next() {
///         let n = e.remove();
///         handled.push(n);
///         if n > 0 {
///             cursor.push(n - 1); // next frame
///         }
///     }
///     drop(cursor);
///     frames.push(handled);
/// }
/// assert_eq!(frames, [[3], [2], [1], [0]]);
/// ```
///
/// A [`Producer`](crate::Producer) pushes from another thread; its pushes
/// wait, like the collection's own, for the next `commit` (feature `std`):
///
#[cfg_attr(feature = "std", doc = "```")]
#[cfg_attr(not(feature = "std"), doc = "```ignore")]
/// use read_write_collection::BufferedCollection;
///
/// let mut events = BufferedCollection::new();
/// let producer = events.producer(); // `Send` and `Clone`: one per thread
/// let network = std::thread::spawn(move || {
///     for id in 1..=3 {
///         producer.push(id).unwrap(); // `Err` only once `events` is closed
///     }
/// });
/// events.push(0); // the collection's own pushes go first at commit
/// network.join().unwrap();
/// assert!(events.is_empty()); // everything is still pending
/// assert_eq!(events.pending_len(), 4);
/// assert_eq!(events.commit(), 4);
/// assert_eq!(events.as_slice(), [0, 1, 2, 3]);
/// ```
pub struct BufferedCollection<T, A = NoAutoRemove> {
    pub(crate) store: Store<T>,
    pub(crate) pending: Vec<T>,
    policy: A,
    /// The bound on visible + pending elements; `usize::MAX`: unbounded.
    /// (`store.max` is only the bound of the current or last pass.)
    max: usize,
    /// The producers' queue; closes it when the collection is dropped.
    #[cfg(feature = "std")]
    pub(crate) link: ProducerLink<T>,
    /// Whether `producer` was ever called: until then the queue is empty and
    /// stays so, and a bounded collection's own pushes need no lock.
    #[cfg(feature = "std")]
    producers_made: AtomicBool,
}

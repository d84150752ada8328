//! A `Vec`-backed collection walked by a **lending cursor** that can remove
//! the element in hand and push new elements that the same pass visits —
//! in one pass, where every element moves at most once.
//!
//! Game loops, simulations and event queues walk a list every frame and,
//! while walking, drop the element in hand and append new ones.
//! `Vec::remove` in a loop is quadratic, `retain_mut` cannot push, two
//! swapped lists double memory and copying, a `swap_remove` loop loses
//! order. [`ReadWriteCollection`] does it in place: a read index walks the
//! elements, survivors are copied back to a write index, removal is "don't
//! copy back", pushes go to the end and are reached later in the same pass,
//! and when the cursor is dropped the tail is closed and the length fixed.
//!
//! # Examples
//!
//! ```
//! use read_write_collection::ReadWriteCollection;
//!
//! #[derive(Debug, PartialEq)]
//! struct Ship { hp: i32, shooting: bool }
//!
//! let mut ships: ReadWriteCollection<Ship> = ReadWriteCollection::new();
//! ships.push(Ship { hp: 0, shooting: false });
//! ships.push(Ship { hp: 5, shooting: true });
//!
//! let mut cursor = ships.cursor();
//! while let Some(mut ship) = cursor.next() {
//!     if ship.hp <= 0 {
//!         ship.remove();                                     // gone, order kept
//!     } else if ship.shooting {
//!         ship.shooting = false;
//!         ship.push(Ship { hp: 1, shooting: false });        // visited in this pass
//!     }
//! }
//! drop(cursor); // completes the pass (so would the end of the scope)
//! assert_eq!(ships, [Ship { hp: 5, shooting: false }, Ship { hp: 1, shooting: false }]);
//! ```
//!
//! # Which type do I want?
//!
//! | you have | use |
//! | --- | --- |
//! | a list walked every frame; elements die and spawn, spawns are handled this frame | [`ReadWriteCollection`] and its [`Cursor`] |
//! | the same, but order does not matter and you want fewer moves | [`ReadWriteCollection`] with [`Mode::Unordered`] |
//! | a hard cap (particles, bullets) | [`ReadWriteCollection::bounded`] with `try_push` |
//! | elements that expire on their own (a TTL, a dead flag) | [`ReadWriteCollection::with_auto_remove`] (+ [`with_removal_hook`](ReadWriteCollection::with_removal_hook)) |
//! | an event queue: handling an event emits events for the *next* frame, other threads push too | [`BufferedCollection`] with [`commit`](BufferedCollection::commit) and [`Producer`]s |
//! | several lists updated and drawn in a fixed order, some paused or hidden | [`Layers`] |
//!
//! # Ordering guarantees
//!
//! For one traversal over `[x0 .. xn)` that pushes `p0, p1, …`:
//!
//! 1. every `xi` is yielded exactly once, in index order, before any pushed
//!    element;
//! 2. every pushed element is yielded exactly once, in push order, after
//!    all `xi` (a push made while visiting a pushed element comes after it);
//! 3. after completion the collection holds the yielded-and-not-removed
//!    elements plus the never-yielded ones (early exit), in yield order;
//! 4. every element is dropped exactly once, whatever happens.
//!
//! In [`Mode::Unordered`], 1 and 2 hold as multisets (each element is
//! yielded exactly once, in some order) and 3 holds as a multiset.
//! A [`BufferedCollection`]'s pushes are never yielded by the traversal that
//! made them; they are appended by the next `commit`.
//!
//! # Capacity
//!
//! A pass allocates only when a push finds the buffer full: then it closes
//! the hole left by removals (moving the unvisited elements down) and, if
//! that freed too little room, grows the buffer by doubling. A steady
//! workload with enough capacity allocates nothing.
//! [Bounded](ReadWriteCollection::bounded) collections never allocate room
//! for more than their maximum; pushes past it fail with [`CapacityError`]
//! (which gives the value back) or panic (`push`). A [`ShrinkPolicy`] gives
//! memory back when occupancy stays low.
//!
//! # Panics and leaks
//!
//! * A panic in user code during a traversal (loop body, auto-remove
//!   predicate, removal hook) unwinds through the cursor's `Drop`, which
//!   completes the pass: the held element and all unvisited ones are kept
//!   in order; removed elements were already handed out; nothing is dropped
//!   twice and the collection is valid.
//! * The cursor's `Drop` never calls the predicate or hook while the thread
//!   is panicking. Without the `std` feature it cannot tell, so it never
//!   calls them: an element that expired while held is then removed when a
//!   later traversal reaches it ([`Cursor::finish`] checks it at once).
//! * `mem::forget` on a cursor leaks: the collection's length is set to 0
//!   when the pass starts and only restored when it completes, so a
//!   forgotten pass leaves an empty, usable collection and leaks the
//!   elements (never a double drop or a read of a moved-out slot).
//! * [`Producer::push`] after the collection is dropped returns the value in
//!   [`ProducerClosed`]; elements still queued when the collection drops are
//!   dropped exactly once.
//!
//! # Implementation
//!
//! All `unsafe` code is in one private module (`raw`, about 100 lines of
//! it, each block with a `SAFETY` comment); the rest of the crate is
//! `#![deny(unsafe_code)]`. During an ordered pass the buffer looks like:
//!
//! ```text
//!  0            write  write+held      read              end        cap
//!  |   kept       | held |    hole       |  unvisited+pushed |  spare   |
//! ```
//!
//! `next()` first settles the held element (kept: `write += 1`; removed:
//! it was already read out), then moves the element at `read` to `write`
//! and lends it. Pushes write at `end`. Completion moves `[read, end)` down
//! to `write` with one `memmove` and sets the length. Unordered mode has no
//! hole: a removal moves the element at `end - 1` into the freed slot.
//!
//! The crate is tested against a plain-`Vec` model with quickcheck and
//! cargo-fuzz, under Miri, and (producers) with loom.
//!
//! # Feature flags
//!
//! * `std` (default): [`Producer`] handles for [`BufferedCollection`], the
//!   cursor's predicate check on drop, `std::error::Error` for
//!   [`ProducerClosed`]. Without it the crate is `#![no_std]` + `alloc`.
//! * `serde`: `Serialize`/`Deserialize` for the collections, as sequences.
//! * `arbitrary`: `arbitrary::Arbitrary` for the collections (fuzzing).
//! * `quickcheck`: `quickcheck::Arbitrary` for the collections (implies `std`).
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs, unreachable_pub)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[cfg(feature = "arbitrary")]
mod arbitrary_impls;
pub mod auto_remove;
mod buffered;
pub mod builder;
mod collection;
mod cursor;
mod error;
pub mod layers;
#[cfg(feature = "std")]
mod producer;
#[cfg(feature = "quickcheck")]
mod quickcheck_impls;
#[allow(unsafe_code)]
mod raw;
#[cfg(feature = "serde")]
mod serde_impls;
#[cfg(feature = "std")]
mod sync;

pub use auto_remove::{AutoRemove, NoAutoRemove, WithHook};
pub use buffered::BufferedCollection;
pub use builder::Builder;
pub use collection::{Mode, ReadWriteCollection, ShrinkPolicy};
pub use cursor::{Cursor, Entry, SinkCursor, SinkEntry};
pub use error::CapacityError;
pub use layers::{LayerEntry, LayerKey, LayerSinkEntry, Layers, LayersCursor, LayersSinkCursor};
#[cfg(feature = "std")]
pub use producer::{Producer, ProducerClosed};

/// The README's examples, compiled and run as doc tests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

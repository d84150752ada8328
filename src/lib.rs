//! A `Vec`-backed collection walked by a **lending cursor** that can remove
//! the element in hand and push new elements that the same pass visits —
//! in one pass, where every element moves at most once while the buffer
//! has room (see [Capacity](#capacity) for the move a full buffer costs).
//!
//! Game loops, simulations and event queues walk a list every frame and,
//! while walking, drop the element in hand and append new ones.
//! `Vec::remove` in a loop is quadratic, `retain_mut` cannot push, two
//! swapped lists double memory and copying, a `swap_remove` loop loses
//! order. [`ReadWriteCollection`] does it in place: a read index walks the
//! elements, survivors are copied back to a write index, removal is "don't
//! copy back", pushes go to the end and are reached later in the same pass,
//! and when the cursor is dropped the unvisited elements move down behind
//! the kept ones and the length is set.
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
//! # The prelude
//!
//! [`prelude`] holds the everyday names (the collection types, [`Builder`],
//! the traits a user implements or calls, [`remove_when!`] and
//! [`layer_keys!`]) and nothing that shares a name with the standard
//! library's, rayon's or proptest's preludes, so all of them can be
//! glob-imported together:
//!
//! ```
//! use read_write_collection::prelude::*;
//!
//! layer_keys!(enum Layer { Ships, Bullets });
//! remove_when!(struct Spent for i32: |ttl| *ttl == 0);
//!
//! let mut world: Layers<i32, Layer, Spent> = Layers::default(); // one layer per key
//! world.push(Layer::Ships, 3);
//! world.traverse(|layer, mut e| {
//!     *e -= 1;
//!     if layer == Layer::Ships {
//!         e.push_to(Layer::Bullets, 1); // a later layer: visited in this pass
//!     }
//! });
//! assert_eq!(world.layer(Layer::Ships), &[2]);
//! assert!(world.layer(Layer::Bullets).is_empty()); // ttl 0 in the same pass: removed
//! ```
//!
//! # Which type do I want?
//!
//! | you have | use |
//! | --- | --- |
//! | a list walked every frame; elements die and spawn, spawns are handled this frame | [`ReadWriteCollection`] and its [`Cursor`] |
//! | the same, but order does not matter and you want fewer moves | [`ReadWriteCollection`] with [`Mode::Unordered`] |
//! | a hard cap (particles, bullets) | [`ReadWriteCollection::bounded`] with `try_push` |
//! | elements that expire on their own (a TTL, a dead flag) | [`ReadWriteCollection::with_auto_remove`] (+ [`with_removal_hook`](ReadWriteCollection::with_removal_hook)); the predicate is checked on arrival and again on moving on, which costs time against a loop body that tests and removes itself (see [`auto_remove`]) |
//! | an event queue: handling an event emits events for the *next* frame, other threads push too | [`BufferedCollection`] with [`commit`](BufferedCollection::commit) and [`Producer`]s |
//! | several lists updated and drawn in a fixed order, some paused or hidden | [`Layers`], keyed by an enum from [`layer_keys!`] |
//! | entities that refer to each other (a missile's target, a turret's owner) | [`KeyedCollection`]: stable keys, order kept; a pass reaches other elements by key ([`KeyedEntry::get`](keyed::KeyedEntry::get), [`pair_mut`](keyed::KeyedEntry::pair_mut)) |
//! | collision checks or neighbour reads while walking | [`Entry::others`] and [`Entry::split_others`]: the elements already kept and those still ahead, beside the one in hand, in the same pass |
//!
//! # Terms
//!
//! The docs use these words in one sense each:
//!
//! * **pass** (or traversal): one walk over a collection, from
//!   [`cursor`](ReadWriteCollection::cursor) (or a closure form such as
//!   [`traverse`](ReadWriteCollection::traverse)) to the cursor's drop, which
//!   completes it. Elements pushed during a pass are visited by the same
//!   pass (not in a [`BufferedCollection`]).
//! * **visible** and **pending** (queues): a [`BufferedCollection`]'s
//!   visible elements are the committed ones, which its passes walk;
//!   pending elements wait for the next [`commit`](BufferedCollection::commit).
//!   [`pending_len`](BufferedCollection::pending_len) counts every pending
//!   element, [`local_pending`](BufferedCollection::local_pending) lists
//!   only the collection's own pushes (producers' pushes wait in the
//!   producers' queue). A layer's *visible flag* ([`Layers::set_visible`])
//!   is something else: whether the layer is drawn.
//! * **bound**: the maximum length of a [bounded](ReadWriteCollection::bounded)
//!   collection ([`max_len`](ReadWriteCollection::max_len); for a queue,
//!   visible and pending elements together). **capacity** is the
//!   allocation, as for `Vec`; **room** is what still fits under the bound
//!   ([`remaining_capacity`](ReadWriteCollection::remaining_capacity));
//!   **full** means no room. `reserve` reserves allocation, as `Vec`'s
//!   does; `Producer::reserve_async` (feature `async`) reserves room: a
//!   **permit**, one push that cannot fail.
//! * **handle**: a [`Producer`], a cheap clonable sender into a queue's
//!   pending side. A queue is **closed** by
//!   [`close`](BufferedCollection::close) or by being dropped (pushes then
//!   give the value back); a wait reports **disconnected** when nothing is
//!   pending and nothing more can arrive (the queue is closed, or every
//!   handle is gone).
//!
//! # Ordering guarantees
//!
//! For one traversal over `[x0 .. xn)` that pushes `p0, p1, …` and runs
//! to its end (an early exit leaves elements never yielded, see 3; an
//! element the auto-remove predicate removes on arrival is visited but never
//! yielded):
//!
//! 1. every `xi` is yielded exactly once, in index order, before any pushed
//!    element;
//! 2. every pushed element is yielded exactly once, in push order, after
//!    all `xi` (a push made while visiting a pushed element comes after it);
//! 3. after completion the collection holds the yielded-and-not-removed
//!    elements plus the never-yielded ones (early exit), in yield order;
//! 4. every element is dropped exactly once, whatever happens, unless a
//!    cursor is leaked with `mem::forget` (then its elements are leaked,
//!    see [Panics and leaks](#panics-and-leaks)).
//!
//! In [`Mode::Unordered`], 1 and 2 hold as multisets (each element is
//! yielded exactly once, in some order) and 3 holds as a multiset.
//! A [`BufferedCollection`]'s pushes are never yielded by the traversal that
//! made them; they are appended by the next `commit`.
//!
//! # Capacity
//!
//! A pass allocates only when a push finds the buffer full: then it closes
//! the hole left by removals in place if that hole is big (at least a
//! quarter of the unvisited elements; the unvisited elements then move a
//! second time in that pass), and otherwise grows the buffer by
//! doubling, with one reallocation that moves nothing inside the old
//! buffer. A steady workload with enough capacity allocates nothing.
//! [Bounded](ReadWriteCollection::bounded) collections never allocate
//! capacity for more than their bound; pushes past it fail with [`CapacityError`]
//! (which gives the value back) or panic (`push`). A [`ShrinkPolicy`] gives
//! memory back when occupancy stays low.
//!
//! ## Coming from a fixed pool
//!
//! Games often keep their bullets or particles in a preallocated pool: a
//! fixed array plus a count (a *bullet pool*), or a fixed array whose dead
//! slots are chained into a *free list* for reuse. A bounded collection
//! keeps their capacity behaviour (one allocation of at most `max` slots,
//! never more; a full pool refuses a spawn and says so) without the slot
//! bookkeeping:
//!
//! ```
//! use read_write_collection::{Builder, ReadWriteCollection};
//!
//! #[derive(Clone, Copy)]
//! struct Bullet { x: f32, ttl: u8 }
//!
//! // The bullet pool: at most 4 live bullets, allocated once.
//! let mut pool: ReadWriteCollection<Bullet> = Builder::new().bounded(4).capacity(4).build();
//! let mut refused = 0;
//! for x in 0..6 {
//!     if pool.try_push(Bullet { x: x as f32, ttl: 2 }).is_err() {
//!         refused += 1; // the pool is full: the spawn is refused, as before
//!     }
//! }
//! assert_eq!((pool.len(), refused, pool.capacity()), (4, 2, 4));
//!
//! // A frame: dead bullets free their slot at once, in the same pass, so a
//! // spawn later in the pass can take it (no free list to maintain).
//! let mut cursor = pool.cursor();
//! while let Some(mut b) = cursor.next() {
//!     b.ttl -= 1;
//!     b.x += 1.0;
//!     if b.x == 1.0 {
//!         b.remove(); // dies this frame
//!         let _ = cursor.try_push(Bullet { x: 100.0, ttl: 1 });
//!     }
//! }
//! drop(cursor);
//! assert_eq!(pool.len(), 4);
//! assert_eq!(pool.capacity(), 4); // never grew
//! ```
//!
//! The free-list array reused slots in any order; that is
//! [`Mode::Unordered`]: a removal moves the last element into the freed
//! slot, so nothing shifts and no slot is left empty:
//!
//! ```
//! use read_write_collection::{Builder, Mode};
//!
//! let mut sparks = Builder::new().bounded(8).unordered().build();
//! sparks.extend([3u8, 0, 2, 0, 1]);
//! sparks.traverse(|s| if *s == 0 { s.remove(); });
//! let mut left = sparks.as_slice().to_vec();
//! left.sort();
//! assert_eq!(left, [1, 2, 3]);
//! assert_eq!(sparks.mode(), Mode::Unordered);
//! assert!(sparks.capacity() <= 8);
//! ```
//!
//! # Panics and leaks
//!
//! * A panic in user code during a traversal (loop body, auto-remove
//!   predicate, removal hook) unwinds through the cursor's `Drop`, which
//!   completes the pass: the held element and all unvisited ones are kept
//!   (in order, in ordered mode); removed elements were already handed out;
//!   nothing is dropped twice and the collection is valid.
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
//! All `unsafe` code is in private modules named `raw` (the pass engine;
//! `layers::raw`, which lends one layer at a time; `producer::raw`, the
//! hook through which a bounded queue's pass hands its room back), each
//! block with a `SAFETY` comment; the rest of the crate denies
//! `unsafe_code`. During an
//! ordered pass the buffer looks like:
//!
//! ```text
//!  0             write-1 write        read               end        cap
//!  |   kept        | held |    hole    |  unvisited+pushed |  spare   |
//! ```
//!
//! `next()` settles the held element (kept: nothing to do, it is already
//! in the kept prefix; removed: it was read out and `write` stepped back),
//! then moves the element at `read` to `write` and lends it, so each kept
//! element moves once, before the user touches it. Pushes write at `end`.
//! When `end` reaches the capacity, a big hole is closed in place; a small
//! one stays open and the buffer grows (one `realloc`, nothing shifted in
//! the old buffer). Completion moves `[read, end)` down to `write` with one
//! `memmove` and sets the length. Unordered mode has no hole: a removal
//! moves the element at `end - 1` into the freed slot.
//!
//! While a pass runs, the `Vec` claims a length of 0, so a leaked cursor
//! leaks elements instead of exposing moved-out slots. The pass state is
//! a handful of pointers that the compiler keeps in registers: the drop
//! that completes a pass cannot unwind and is small enough to inline into
//! the unwind paths of the user's loop. How a pass compares with the loops
//! users write by hand, `retain_mut`, slotmap and hecs is measured in the
//! README's performance table.
//!
//! The crate is tested against a plain-`Vec` model with quickcheck and
//! cargo-fuzz, under Miri, and (producers) with loom.
//!
//! Inside the crate, every module imports only modules on floors below
//! its own (checked by `tests/architecture.rs`, which holds the same
//! table), so the unsafe core never names a type built on it:
//!
//! | floor | modules |
//! | --- | --- |
//! | 6 | `prelude` (re-exports) |
//! | 5 | `builder`, `serde_impls`, `arbitrary_impls`, `quickcheck_impls`, `proptest` |
//! | 4 | `layers`, `parallel` |
//! | 3 | `collection`, `buffered`, `keyed` |
//! | 2 | `cursor`, `vec_api`, `producer` (the queue's shared state) |
//! | 1 | `raw` (the unsafe core), `auto_remove` |
//! | 0 | `error`, `key_data`, `settings`, `sync` |
//!
//! # Testing code that uses this crate
//!
//! Property tests and fuzz targets hold these collections in their own
//! types and check them against a `Vec`. For that:
//!
//! * A [`ReadWriteCollection`] compares equal, both ways round, with
//!   `Vec<T>`, `[T; N]`, `&[T; N]`, `[T]`, `&[T]` and `&mut [T]`, and
//!   mirrors `Vec`'s methods with the same names and signatures (`dedup*`,
//!   `splice`, `append`, `split_off`, `extend_from_slice`, `resize*`,
//!   `extract_if`, `pop_if`, `reserve*`, `try_reserve*`, `shrink_to`, …)
//!   and `arrayvec`'s bounded ones (`try_insert`, `try_extend_from_slice`,
//!   `remaining_capacity`, `is_full`, [`CapacityError`]), so an oracle
//!   applies the same call to both. A bounded collection never grows past
//!   [`max_len`](ReadWriteCollection::max_len) through any of them: the
//!   `try_` forms give the values back, the others panic before changing
//!   anything. ([`capacity`](ReadWriteCollection::capacity) is the
//!   allocation; [`remaining_capacity`](ReadWriteCollection::remaining_capacity)
//!   is what still fits under the bound.)
//! * A generated collection should have the settings the program gives it:
//!   a test of a bounded collection that generates unbounded ones explores
//!   states the program never reaches. Every generator keeps a given
//!   maximum length, [`Mode`], [`ShrinkPolicy`] and auto-remove policy,
//!   and so does shrinking:
//!
//! | framework (feature) | default settings, `A::default()` policy | given settings |
//! | --- | --- | --- |
//! | `arbitrary` | `Arbitrary` impls | `template.arbitrary_like(u)`, through `#[arbitrary(with = …)]` |
//! | `quickcheck` | `Arbitrary` impls (`shrink` keeps the settings of the value shrunk) | `template.quickcheck_like(g)`; shrink with `c.quickcheck_shrink()`, which needs no `A: Default` |
//! | `proptest` | `any::<ReadWriteCollection<T, A>>()` (and the other types) | `proptest::bounded(element, max, size)`, `proptest::like(&template, element, size)` |
//! | `serde` | `Deserialize::deserialize` | `Deserialize::deserialize_in_place` keeps the target's (and changes nothing when the load fails); a derived struct's fields need serde_derive's `deserialize_in_place` feature |
//!
//! The examples below need their features (they are compiled and run by
//! `cargo test --all-features`).
//!
//! ## Deriving `Arbitrary`
//!
#![cfg_attr(feature = "arbitrary", doc = "```")]
#![cfg_attr(not(feature = "arbitrary"), doc = "```ignore")]
//! use arbitrary::{Arbitrary, Unstructured};
//! use read_write_collection::{remove_when, Builder, Mode, ReadWriteCollection};
//!
//! remove_when!(struct Spent for u8: |ttl| *ttl == 0);
//!
//! #[derive(Arbitrary, Debug)]
//! struct World {
//!     // The game caps particles at 64: so does every generated world.
//!     #[arbitrary(with = |u: &mut Unstructured| ReadWriteCollection::bounded(64).arbitrary_like(u))]
//!     particles: ReadWriteCollection<u8>,
//!     #[arbitrary(with = |u: &mut Unstructured| ReadWriteCollection::unordered().arbitrary_like(u))]
//!     bullets: ReadWriteCollection<u16>,
//!     names: ReadWriteCollection<String>, // defaults: unbounded, ordered
//!     // A field with a policy needs a template of its type: the `Builder`
//!     // sets bound, mode and policy together.
//!     #[arbitrary(with = |u: &mut Unstructured| Builder::new().bounded(32).policy(Spent).build().arbitrary_like(u))]
//!     sparks: ReadWriteCollection<u8, Spent>,
//! }
//!
//! let world = World::arbitrary(&mut Unstructured::new(&[7; 1000])).unwrap();
//! assert_eq!(world.particles.max_len(), Some(64));
//! assert!(world.particles.len() <= 64);
//! assert_eq!(world.bullets.mode(), Mode::Unordered);
//! assert_eq!(world.sparks.max_len(), Some(32));
//! ```
//!
//! ## A proptest strategy
//!
#![cfg_attr(feature = "proptest", doc = "```")]
#![cfg_attr(not(feature = "proptest"), doc = "```ignore")]
//! use proptest::prelude::*;
//! use read_write_collection::proptest::bounded;
//!
//! // Removing during a traversal keeps what `Vec::retain` keeps, and a
//! // bounded collection's failing inputs shrink to bounded inputs.
//! proptest!(|(mut c in bounded(any::<u8>(), 16, 0..=16))| {
//!     let mut oracle = c.to_vec();
//!     oracle.retain(|n| n % 3 != 0);
//!     c.traverse(|e| if *e % 3 == 0 { e.remove(); });
//!     prop_assert_eq!(&c, &oracle);
//!     prop_assert_eq!(c.max_len(), Some(16));
//! });
//! ```
//!
//! When a property fails, proptest prints the minimal input's `Debug`: a
//! collection with default settings prints like a `Vec`, one with a bound,
//! [`Mode::Unordered`] or a [`ShrinkPolicy`] prints them too
//! (`ReadWriteCollection { items: [200], max_len: 16, mode: Unordered }`),
//! so the report is enough to rebuild the input (see the `proptest`
//! module).
//!
//! ## A quickcheck property
//!
#![cfg_attr(feature = "quickcheck", doc = "```")]
#![cfg_attr(not(feature = "quickcheck"), doc = "```ignore")]
//! use quickcheck::{quickcheck, TestResult};
//! use read_write_collection::ReadWriteCollection;
//!
//! fn dedup_like_vec(mut c: ReadWriteCollection<u8>, at: usize) -> TestResult {
//!     if at > c.len() {
//!         return TestResult::discard();
//!     }
//!     let mut v = c.to_vec();
//!     let (tail, vtail) = (c.split_off(at), v.split_off(at));
//!     c.dedup();
//!     v.dedup();
//!     TestResult::from_bool(c == v && tail == vtail)
//! }
//! quickcheck(dedup_like_vec as fn(_, _) -> TestResult);
//! ```
//!
//! ## A cargo-fuzz target: a work list
//!
//! A fuzz target that drives a bounded [`ReadWriteCollection`] as a work
//! list: each item may spawn more work, which the same pass handles, and
//! the cap must never lose an item silently. The crate's own fuzz target
//! `work_list` (`fuzz/fuzz_targets/work_list.rs` in the repository) is this
//! body wrapped in `libfuzzer_sys::fuzz_target!(|input: Input| check(input));`.
//!
#![cfg_attr(feature = "arbitrary", doc = "```")]
#![cfg_attr(not(feature = "arbitrary"), doc = "```ignore")]
//! use arbitrary::{Arbitrary, Unstructured};
//! use read_write_collection::ReadWriteCollection;
//!
//! #[derive(Arbitrary, Debug)]
//! struct Input {
//!     cap: u8,
//!     /// Each job spawns `job % 4` jobs of `job / 4`.
//!     jobs: Vec<u8>,
//! }
//!
//! fn check(input: Input) {
//!     let cap = usize::from(input.cap % 32);
//!     let mut work = ReadWriteCollection::bounded(cap);
//!     let mut rejected = Vec::new();
//!     for job in input.jobs {
//!         if let Err(e) = work.try_push(job) {
//!             rejected.push(e.element());
//!         }
//!     }
//!     let queued = work.len();
//!     let (mut done, mut spawned) = (0, 0);
//!     let mut cursor = work.cursor();
//!     while let Some(entry) = cursor.next() {
//!         let job = entry.remove(); // frees a slot for its children
//!         done += 1;
//!         for _ in 0..job % 4 {
//!             match cursor.try_push(job / 4) {
//!                 Ok(()) => spawned += 1,
//!                 Err(e) => rejected.push(e.element()), // never lost
//!             }
//!         }
//!     }
//!     drop(cursor);
//!     assert!(work.is_empty());
//!     assert_eq!(done, queued + spawned, "every queued and spawned job ran once");
//!     assert!(work.capacity() <= cap);
//! }
//!
//! // What libFuzzer would do with one input:
//! check(Input::arbitrary(&mut Unstructured::new(b"\x03\x01\x0f\x01\x0e\x01\x07\x00")).unwrap());
//! ```
//!
//! # Feature flags
//!
//! * `std` (default): [`Producer`] handles for [`BufferedCollection`], the
//!   cursor's predicate check on drop, `std::error::Error` for
//!   [`ProducerClosed`]. Without it the crate is `#![no_std]` + `alloc`.
//! * `serde`: `Serialize`/`Deserialize` for the collections, as sequences
//!   ([`BufferedCollection`]: `{ visible, pending }`; [`Layers`]: one
//!   `{ enabled, visible, items }` per layer). Settings are not serialized:
//!   `deserialize` gives the defaults, `deserialize_in_place` keeps the
//!   target's (and a queue's producers) and leaves the target unchanged
//!   when the load fails. A `#[derive(Deserialize)]` struct loads its
//!   fields in place only with serde_derive's `deserialize_in_place`
//!   feature; see [`ReadWriteCollection`]'s `Deserialize` impl.
//! * `arbitrary`: `arbitrary::Arbitrary` for the collections and [`Layers`]
//!   (fuzzing).
//! * `quickcheck`: `quickcheck::Arbitrary` for the collections (implies `std`).
//! * `rayon`: `ReadWriteCollection::par_traverse`, a pass that removes and
//!   pushes on all cores when the work per element is heavy enough to gain
//!   (it measures; cheaper passes run on one thread), with the serial pass's
//!   result when the closure's effect depends only on its element (implies
//!   `std`; see the `parallel` module).
//! * `proptest`: `proptest::arbitrary::Arbitrary` for the collections and
//!   strategies in the `proptest` module (implies `std`).
//! * `async`: `BufferedCollection::wait_pending_async`,
//!   `Producer::push_async`, `Producer::reserve_async` and
//!   `Producer::reserve_owned_async`, futures any
//!   executor can poll (no runtime dependency; implies `std`). Cancel
//!   safety: dropping a pending `wait_pending_async` loses nothing;
//!   dropping a pending `push_async` drops its value, which was not pushed;
//!   dropping a pending `reserve_async` gives up nothing (it holds no value
//!   and no room), and its `PushPermit`'s `push` cannot fail; dropping a
//!   pending `reserve_owned_async` also drops the producer it owns. Each
//!   takes its waker out of the queue when dropped.
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
// Without `std` the docs still name `Producer` and `ProducerClosed` (as plain
// text, since those items do not exist there); the `std` build checks every link.
#![cfg_attr(not(feature = "std"), allow(rustdoc::broken_intra_doc_links))]
#![warn(missing_docs, unreachable_pub)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

// The declaration order is the order of the inherent `impl` blocks on a
// type's rustdoc page: rustdoc lists a module's submodules first, in
// declaration order, then its own items in source order. So the modules
// that give the collections their methods come first (`builder` before
// `collection`: `ReadWriteCollection::builder` is a constructor; `parallel`
// after it), and the test generators last. (rustfmt sorts each group.)
mod buffered;
pub mod builder;
mod collection;
pub mod keyed;
pub mod layers;
#[cfg(feature = "rayon")]
#[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
pub mod parallel;

pub mod auto_remove;
mod cursor;
mod error;
mod key_data;
#[cfg(all(test, loom, feature = "std"))]
mod loom_tests;
pub mod prelude;
#[cfg(feature = "std")]
mod producer;
#[allow(unsafe_code)]
mod raw;
#[cfg(feature = "serde")]
mod serde_impls;

/// What the crate's macros name from other crates (not a public API).
#[cfg(feature = "serde")]
#[doc(hidden)]
pub mod __private {
    pub use serde;
}
mod settings;
#[cfg(feature = "std")]
mod sync;
mod vec_api;

// The test generators' methods (`arbitrary_like`, `quickcheck_like`, ...).
#[cfg(feature = "arbitrary")]
mod arbitrary_impls;
#[cfg(feature = "proptest")]
#[cfg_attr(docsrs, doc(cfg(feature = "proptest")))]
pub mod proptest;
#[cfg(feature = "quickcheck")]
mod quickcheck_impls;

#[doc(inline)]
pub use auto_remove::{AutoRemove, NoAutoRemove, WithHook};
pub use buffered::BufferedCollection;
#[doc(inline)]
pub use builder::Builder;
pub use collection::ReadWriteCollection;
pub use cursor::{Cursor, Entry, SinkCursor, SinkEntry, Spawner};
pub use error::CapacityError;
#[cfg(feature = "std")]
pub use error::{PushTimeoutError, TryPushError, WaitError, WaitTimeoutError};
#[doc(inline)]
pub use keyed::KeyedCollection;
#[doc(inline)]
pub use layers::{LayerEntry, LayerKey, LayerSinkEntry, Layers, LayersCursor, LayersSinkCursor};
#[cfg(feature = "rayon")]
#[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
#[doc(inline)]
pub use parallel::{ParAutoRemove, ParEntry, ParSpawner};
#[cfg(feature = "async")]
pub use producer::{
    OwnedPushPermit, PushFuture, PushPermit, ReserveFuture, ReserveOwnedFuture, WaitPendingFuture,
};
#[cfg(feature = "std")]
pub use producer::{Producer, ProducerClosed, ProducerOrder};
pub use settings::{Mode, ShrinkPolicy};
pub use vec_api::ExtractIf;

/// The README's examples, compiled and run as doc tests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

//! The traversal engine: the crate's `unsafe` code (with `layers::raw`,
//! which lends one layer at a time over it).
//!
//! It is the bottom floor: it imports only `sync` and `settings` from the
//! crate, and
//! names no type built on it (no collection, cursor, layer or parallel
//! type); what a caller needs back comes as plain data (the counts of a
//! parallel round).
//! One file per concept:
//!
//! * `store`: the collection's `Vec`, its maximum length, the shrink
//!   policy's state;
//! * `positions`: positions in the buffer (pointers, or counters for
//!   zero-sized `T`) and a pass's `Counters`, with their invariant;
//! * `pass`: a pass (`Core`, `Pass`, `Detached`, `Suspended`), its pushes
//!   and growth, finishing it, and `HeldRef`;
//! * `par_round`: a parallel round (feature `rayon`).
//!
//! One pass over a [`Store`] is driven by a [`Core`]. The safe modules
//! (`cursor`, `collection`, `buffered`, `layers`, `parallel`) only call the
//! safe methods below; every invariant the `unsafe` blocks rely on is
//! established and kept here, with one requirement on those callers: a
//! `Core` (from [`Pass::core`] or `Detached::core`) and the jobs of a
//! parallel round are advanced in place, never swapped or replaced with
//! another pass's.
//!
//! # Buffer state during a pass (ordered mode)
//!
//! ```text
//!  buf            write-1  write         read               end          limit   cap
//!  |   kept         | held? |    hole      |  unvisited+pushed |   spare     |      |
//!  +----------------+-------+--------------+-------------------+-------------+------+
//!   initialised                moved out/     initialised        uninit
//!                              removed
//! ```
//!
//! * `[buf, write)`: elements visited and kept, in order. When `held`, the
//!   last of them (`write - 1`) is the element the user holds through an
//!   `Entry`: it was moved there from `read - 1` when it was yielded (so every
//!   kept element moves at most once per pass, and the move reads bytes the
//!   user has not just written) and counts as kept until it is removed.
//!   Removing it is `write -= 1` and a read out of the slot.
//! * `[write, read)`: the hole, logically uninitialised (its bytes are stale
//!   copies of moved or removed elements).
//! * `[read, end)`: not yet visited: the rest of the original elements, then
//!   everything pushed during the pass, in push order.
//! * `[end, limit)`: room for pushes without a slow path. `limit` is
//!   `buf + max(min(capacity, max), len)` (the public API keeps
//!   `len <= max`, so in practice `buf + min(capacity, max)`), so a push
//!   that finds `end < limit` never needs the bound check: the length
//!   (`≤ end - buf`) is below the bound.
//!
//! The positions are element pointers, not indices, so the per-element work
//! has no address arithmetic. For zero-sized `T` they are counters dressed as
//! pointers (advanced by one byte, never dereferenced: see [`real`]).
//!
//! Unordered mode keeps `read == write` (no hole): removing the held element
//! moves the last unvisited element (`end - 1`) into its slot, and that slot
//! is visited next.
//!
//! # Leak amplification
//!
//! [`Pass::begin`] sets the `Vec`'s length to 0 before anything else happens.
//! Until [`Core::finish`] writes the final length, the `Vec` claims to own
//! nothing, so a pass that never finishes (the cursor was passed to
//! `mem::forget`) leaks its elements instead of exposing moved-out slots. The
//! collection stays usable (and empty).
//!
//! # Unwinding
//!
//! No user code runs inside this module (but see "Layers" below for a
//! cursor's drop). The callers run user code (entry
//! bodies, predicates, hooks) only between calls, when the state above is
//! complete: a panic there unwinds into the cursor's drop, which finishes
//! the pass with the held element kept.
//!
//! The one call in here that can unwind is the growth of the buffer
//! ([`make_room`]): the allocator may fail (and an alloc error hook may
//! panic) or the capacity may overflow. Growth moves nothing in the old
//! buffer and changes no counter until the new buffer exists, so if it
//! unwinds, the caller's counters still describe the (untouched) buffer and
//! the cursor's drop finishes the pass from them. The state is never held in
//! a copy that a panic could make stale.
//!
//! Finishing a pass ([`finish_pass`]) cannot unwind at all (it only moves
//! bytes, and the shrink policy uses a fallible allocation): it is declared
//! `extern "C"`, which tells the compiler so. That keeps the drop glue of a
//! cursor small enough to be inlined into the unwind paths of the user's
//! loop, which lets the pass state live in registers instead of memory.
//!
//! # Layers
//!
//! Lending one layer at a time to a `LayersCursor` is unsafe code of its
//! own, kept with the layers (`layers::raw`, the other module allowed
//! `unsafe`): it names their slot type, which this module, under every
//! collection, must not.

#[cfg(feature = "rayon")]
mod par_round;
mod pass;
#[cfg(feature = "std")]
mod pass_end;
mod positions;
mod store;

#[cfg(feature = "rayon")]
pub(crate) use self::par_round::{par_round, par_settle_rest, ParScratch};
#[cfg(feature = "std")]
pub(crate) use self::pass::Detached;
#[cfg(feature = "rayon")]
pub(crate) use self::pass::Suspended;
pub(crate) use self::pass::{capacity_overflow, AtPassEnd, Core, HeldRef, Pass};
#[cfg(feature = "std")]
pub(crate) use self::pass_end::{PassEnd, PassEndSlot};
pub(crate) use self::store::Store;

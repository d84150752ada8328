//! Keeping the keys in step with a pass: which element sits at each index
//! (the dense list) and where each slot's element is (the slot table),
//! while the pass moves elements.
//!
//! The pass (`raw`) reports no per-element moves (the unkeyed collections
//! would pay for the reports), and the keyed pass does no per-element
//! work either: its survivors move exactly as the unkeyed ones. The dense
//! list catches up a run at a time, when the hole grows (a removal), when
//! it closes (a push that found no room) and when the pass ends. Between
//! two of those, the hole has one size (`gap = read - write`), so the
//! survivors visited since the last catch-up are exactly the ones whose
//! dense entries still sit `gap` places later, at their old positions:
//!
//! ```text
//!  values:  0        flushed       write-1  write     read          end
//!           |  kept,   |  kept, not   | held? |  hole    | unvisited |
//!           |  caught  |  caught up   |       |          |  +pushed  |
//!           |  up      |              |       |          |           |
//!  dense:   0        flushed   flushed+gap        read-1 read        end
//!           | in step  |  (stale)  | the run's entries |  | in step   |
//!                                    (held's last)
//! ```
//!
//! * `[0, flushed)`: dense entries in place, their slots' `at` exact;
//! * the run, values `[flushed, write)`: their dense entries are at
//!   `[flushed + gap, read)`, and their slots' `at` are those old
//!   positions (the held element's, when one is held, is `read - 1`);
//! * `[read, end)`: in place (`dense.len() == end`).
//!
//! A lookup by key maps an `at` in the run back by `gap`. Unordered mode
//! keeps `read == write` (no gap): its removals move the last element
//! into the held one's place, slot and all, at once.

use alloc::vec::Vec;

use super::key::KeyData;
use super::slots::Slots;
use crate::raw::AtPassEnd;

/// The keys' side of a keyed collection: the slot of each element by
/// position (the dense list), the slot table, and during a pass how far
/// the dense list has caught up with it.
#[derive(Clone, Debug)]
pub(super) struct Ledger {
    pub(super) dense: Vec<u32>,
    pub(super) slots: Slots,
    /// A pass has begun and not finished. Outside a pass this is only
    /// ever set after a cursor was leaked (`mem::forget`), which leaves
    /// the elements leaked and the slots stale (the collection recovers
    /// before its next change).
    pub(super) open: bool,
    /// During a pass: the dense list and the slots are exact below this
    /// index (see the module docs).
    flushed: usize,
    /// During a pass: removals fill from the end.
    unordered: bool,
}

/// Where an element named by key is during a pass.
pub(super) enum Place {
    /// The `i`th kept element, before the held one.
    Kept(usize),
    /// The held element itself.
    Held,
    /// The `i`th element after the held one (unvisited, then pushed).
    After(usize),
}

impl Ledger {
    pub(super) const fn new() -> Self {
        Ledger {
            dense: Vec::new(),
            slots: Slots::new(),
            open: false,
            flushed: 0,
            unordered: false,
        }
    }

    /// A pass begins.
    #[inline(always)]
    pub(super) fn begin(&mut self, unordered: bool) {
        self.open = true;
        self.flushed = 0;
        self.unordered = unordered;
    }

    /// The values `[flushed, upto)` catch up: their dense entries move
    /// `gap` places down and their slots learn their positions.
    #[inline(always)]
    fn flush(&mut self, upto: usize, gap: usize) {
        if gap != 0 && self.flushed < upto {
            flush_run(&mut self.dense, &mut self.slots, self.flushed, upto, gap);
        }
        self.flushed = upto;
    }

    /// The held element is about to be removed from a pass at indices
    /// `(write, read, end)`: the run behind it catches up, and its slot
    /// goes stale. (Unordered: the last element takes its place.)
    #[inline(always)]
    pub(super) fn removing_held(&mut self, (write, read, end): (usize, usize, usize)) {
        let held = write - 1;
        if self.unordered {
            debug_assert_eq!(write, read, "unordered passes have no hole");
            self.slots.vacate(self.dense[held]);
            let last = self.dense.pop().expect("the held element is in the list");
            if held != end - 1 {
                self.dense[held] = last;
                self.slots.moved(last, held);
            }
            self.flushed = held;
            return;
        }
        self.flush(held, read - write);
        self.slots.vacate(self.dense[read - 1]);
        self.flushed = held;
    }

    /// Makes sure [`pushed`](Self::pushed) will not allocate or fail, before
    /// the pass takes the element (so a failure here changes nothing).
    ///
    /// # Panics
    /// If the positions would pass `u32::MAX - 2` (keys and positions are
    /// 32-bit), or an allocation fails.
    #[inline(always)]
    pub(super) fn reserve_push(&mut self) {
        if self.dense.len() == self.dense.capacity() || !self.slots.has_room() {
            reserve_push(&mut self.dense, &mut self.slots);
        }
    }

    /// The pass took a pushed element; `before` and `after` are its
    /// indices before and after (a push that finds no room may close the
    /// hole: `[read, end)` moves to `write`). Returns the new element's
    /// key.
    #[inline(always)]
    pub(super) fn pushed(
        &mut self,
        before: (usize, usize, usize),
        after: (usize, usize, usize),
    ) -> KeyData {
        let (write, read, _) = before;
        if after.1 != read {
            debug_assert_eq!(after.1, write, "a push closes the hole or nothing");
            self.closing(write, read);
            self.open = true;
        }
        let at = self.dense.len();
        debug_assert_eq!(at + 1, after.2, "the dense list follows the pass");
        let data = self.slots.occupy(at as u32);
        self.dense.push(data.idx);
        data
    }

    /// The slot of the held element of a pass at `(write, read, end)`.
    #[inline(always)]
    pub(super) fn held_slot(&self, (_, read, _): (usize, usize, usize)) -> u32 {
        self.dense[read - 1]
    }

    /// Where the element at dense position `at` (its slot's) is now, in a
    /// pass at `(write, read, end)` with an element held.
    #[inline(always)]
    pub(super) fn place(&self, at: usize, (write, read, _): (usize, usize, usize)) -> Place {
        if at >= read {
            return Place::After(at - read);
        }
        let gap = read - write;
        let now = if at < self.flushed { at } else { at - gap };
        debug_assert!(
            at < self.flushed || at >= self.flushed + gap,
            "a live slot in the hole"
        );
        if now + 1 == write {
            Place::Held
        } else {
            Place::Kept(now)
        }
    }
}

/// The end of a pass (or a push that closed the hole): the run catches
/// up, then `[read, end)` moves down to `write` with the buffer; the pass
/// is no longer open.
impl AtPassEnd for Ledger {
    #[inline]
    fn closing(&mut self, write: usize, read: usize) {
        if read != write {
            self.flush(write, read - write);
            close_hole(&mut self.dense, &mut self.slots, write, read);
        }
        self.open = false;
    }
}

/// The slow part of [`Ledger::reserve_push`], out of line.
#[cold]
#[inline(never)]
fn reserve_push(dense: &mut Vec<u32>, slots: &mut Slots) {
    if dense.len() >= u32::MAX as usize - 1 {
        crate::raw::capacity_overflow();
    }
    dense.reserve(1);
    slots.reserve_one();
}

/// Values `[from, upto)` catch up: dense entries `[from + gap, upto +
/// gap)` move to `[from, upto)`, and each slot learns its position.
/// (One loop, not a `copy_within` and a loop: runs are short, a few
/// elements between two removals, and a `memmove` call costs more than
/// moving them.)
#[inline(never)]
fn flush_run(dense: &mut [u32], slots: &mut Slots, from: usize, upto: usize, gap: usize) {
    for at in from..upto {
        let idx = dense[at + gap];
        dense[at] = idx;
        slots.moved(idx, at);
    }
}

/// `[read, end)` of the dense list moves to `write`; each moved slot learns
/// its new index.
#[cold]
#[inline(never)]
fn close_hole(dense: &mut Vec<u32>, slots: &mut Slots, write: usize, read: usize) {
    let end = dense.len();
    dense.copy_within(read..end, write);
    dense.truncate(write + (end - read));
    for (at, &idx) in (write..).zip(&dense[write..]) {
        slots.moved(idx, at);
    }
}

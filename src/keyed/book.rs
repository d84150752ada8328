//! Keeping the keys in step with a pass: which element sits at each index
//! (the dense list) and where each slot's element is (the slot table),
//! while the pass moves elements.
//!
//! The pass (`raw`) reports no per-element moves (the unkeyed collections
//! would pay for the reports), and an ordered keyed pass does no
//! per-survivor work either: its survivors move exactly as the unkeyed
//! ones. The dense list keeps the positions the elements had when the
//! pass began (and the pushes' positions); a removal marks its entry dead
//! and notes the position. When the pass ends (or a push closes the
//! hole), one branch-free loop drops the dead entries and gives every
//! moved slot its new position: one store per survivor that moved, as the
//! buffer's own move.
//!
//! ```text
//!  values:  0               write-1  write        read            end
//!           |  kept, in order  | held? |    hole    | unvisited+pushed |
//!  dense:   0                                        read            end
//!           |  kept and dead entries, at the positions  | unvisited+pushed |
//!           |  the pass began with (`Removals` marks    |  (in place)      |
//!           |  the dead ones)                           |                  |
//! ```
//!
//! During the pass a slot's `at` is still such a position: a lookup maps
//! it to the element's index now by counting the removals before it, in
//! O(1): a bit per position, and a count per 64 positions (see
//! [`Removals`]). The held element's entry is `read - 1`.
//! Unordered mode keeps `read == write` (no hole): its removals move the
//! last element into the held one's place, slot and all, at once.

use alloc::vec::Vec;

use super::slots::Slots;
use crate::key_data::KeyData;
use crate::raw::AtPassEnd;

/// A dense entry whose element was removed during the pass (no slot has
/// this index: the table holds fewer than `u32::MAX - 1` slots).
const DEAD: u32 = u32::MAX;

/// The keys' side of a keyed collection: the slot of each element by
/// position (the dense list), the slot table, and during a pass the
/// removals it made so far.
#[derive(Clone, Debug)]
pub(super) struct Ledger {
    pub(super) dense: Vec<u32>,
    pub(super) slots: Slots,
    /// A pass has begun and not finished. Outside a pass this is only
    /// ever set after a cursor was leaked (`mem::forget`), which leaves
    /// the elements leaked and the slots stale (the collection recovers
    /// before its next change).
    pub(super) open: bool,
    /// During an ordered pass: the dense positions of the elements it
    /// removed (their entries are `DEAD`). Empty outside a pass; its
    /// allocations are kept for the next one.
    removed: Removals,
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
            removed: Removals::new(),
            unordered: false,
        }
    }

    /// The dense list and the slot table, outside a pass.
    pub(super) fn into_parts(self) -> (Vec<u32>, Slots) {
        (self.dense, self.slots)
    }

    /// A pass begins.
    #[inline(always)]
    pub(super) fn begin(&mut self, unordered: bool) {
        debug_assert!(self.removed.is_empty());
        self.open = true;
        self.unordered = unordered;
    }

    /// After a leaked pass (its elements are gone): every slot goes stale.
    pub(super) fn forget_all(&mut self) {
        self.slots.vacate_all();
        self.dense.clear();
        self.removed.clear();
        self.open = false;
    }

    /// The held element is about to be removed from a pass at indices
    /// `(write, read, end)`: its slot goes stale and its entry dead.
    /// (Unordered: the last element takes its place.)
    ///
    /// # Panics
    /// If the list of removals cannot grow (nothing changed then).
    #[inline(always)]
    pub(super) fn removing_held(&mut self, (write, read, end): (usize, usize, usize)) {
        if self.unordered {
            debug_assert_eq!(write, read, "unordered passes have no hole");
            let held = write - 1;
            self.slots.vacate(self.dense[held]);
            let last = self.dense.pop().expect("the held element is in the list");
            if held != end - 1 {
                self.dense[held] = last;
                self.slots.moved(last, held);
            }
            return;
        }
        let at = read - 1;
        // The only step that can fail, first.
        self.removed.add(at);
        let idx = core::mem::replace(&mut self.dense[at], DEAD);
        self.slots.vacate(idx);
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
        debug_assert_eq!(
            self.dense.len() + 1,
            after.2,
            "the dense list follows the pass"
        );
        self.append()
    }

    /// A slot for a new element at the end of the dense list; its key
    /// data. Does not allocate after [`reserve_push`](Self::reserve_push).
    #[inline(always)]
    pub(super) fn append(&mut self) -> KeyData {
        let data = self.slots.occupy(self.dense.len() as u32);
        self.dense.push(data.idx);
        data
    }

    /// The slot of the held element of a pass at `(write, read, end)`.
    #[inline(always)]
    pub(super) fn held_slot(&self, (_, read, _): (usize, usize, usize)) -> u32 {
        self.dense[read - 1]
    }

    /// Where the element whose slot says `at` is now, in a pass at
    /// `(write, read, end)` with an element held.
    #[inline]
    pub(super) fn place(&self, at: usize, (write, read, _): (usize, usize, usize)) -> Place {
        if at >= read {
            return Place::After(at - read);
        }
        // Moved down by the removals before it.
        let now = at - self.removed.before(at);
        if now + 1 == write {
            Place::Held
        } else {
            Place::Kept(now)
        }
    }
}

/// The end of a pass (or a push that closed the hole): the dead entries
/// leave the dense list and `[read, end)` closes up, as in the buffer;
/// the pass is no longer open.
impl AtPassEnd for Ledger {
    #[inline]
    fn closing(&mut self, write: usize, read: usize) {
        if let Some(first) = self.removed.first() {
            debug_assert_eq!(
                self.removed.count,
                read - write,
                "one dead entry per removal"
            );
            let kept = compact(&mut self.dense, &mut self.slots, first);
            debug_assert_eq!(kept, write + (self.dense.len() - read));
            self.dense.truncate(kept);
            self.removed.clear();
        }
        self.open = false;
    }
}

/// The positions a pass removed, added in increasing order, with the
/// number of them before any position in O(1): a bit per position, and
/// for each block of 64 positions the count before the block. A block's
/// count is written when the first removal in or after it comes, and
/// never changes: every later removal is at a later position.
#[derive(Clone, Debug)]
struct Removals {
    bits: Vec<u64>,
    /// `before_block[b]`: removals before position `64 * b`. Blocks past
    /// its end have none of their own: every removal is before them.
    before_block: Vec<u32>,
    count: usize,
    first: usize,
}

impl Removals {
    const fn new() -> Self {
        Removals {
            bits: Vec::new(),
            before_block: Vec::new(),
            count: 0,
            first: 0,
        }
    }

    fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The first removed position, if any.
    fn first(&self) -> Option<usize> {
        (self.count != 0).then_some(self.first)
    }

    /// Notes a removal at `at`, after every earlier one.
    ///
    /// # Panics
    /// If the lists cannot grow; nothing changed then.
    #[inline(always)]
    fn add(&mut self, at: usize) {
        let block = at / 64;
        if block >= self.before_block.len() || block >= self.bits.len() {
            self.grow(block);
        }
        debug_assert!(self.count == 0 || at > self.first);
        if self.count == 0 {
            self.first = at;
        }
        self.bits[block] |= 1 << (at % 64);
        self.count += 1;
    }

    /// Makes room for block `block`; the blocks it adds have every
    /// removal so far before them.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, block: usize) {
        if self.bits.len() <= block {
            self.bits.resize(block + 1, 0);
        }
        let count = self.count as u32;
        self.before_block
            .reserve(block + 1 - self.before_block.len().min(block + 1));
        while self.before_block.len() <= block {
            self.before_block.push(count);
        }
    }

    /// How many removals are before position `at`.
    #[inline(always)]
    fn before(&self, at: usize) -> usize {
        let block = at / 64;
        match (self.before_block.get(block), self.bits.get(block)) {
            (Some(&before), Some(&bits)) => {
                let below = bits & ((1u64 << (at % 64)) - 1);
                before as usize + below.count_ones() as usize
            }
            _ => self.count,
        }
    }

    /// Forgets every removal (keeps the allocations).
    fn clear(&mut self) {
        if self.count != 0 {
            let from = self.first / 64;
            let to = self.before_block.len().min(self.bits.len());
            self.bits[from..to].fill(0);
        }
        self.before_block.clear();
        self.count = 0;
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

/// Drops the `DEAD` entries of the dense list from `first` on, keeping
/// the order, and gives every slot whose entry moved its new position.
/// Returns the new length. One loop without branches on the data (the
/// removals fall where they fall): each entry is written at the next
/// position, and that position moves on only for a live entry; a dead
/// entry's position store goes to a scratch value instead of a slot.
#[inline(never)]
fn compact(dense: &mut [u32], slots: &mut Slots, first: usize) -> usize {
    let mut to = first;
    let mut scratch = 0;
    for from in first..dense.len() {
        let idx = dense[from];
        dense[to] = idx;
        *slots.at_mut_or(idx, &mut scratch) = to as u32;
        to += usize::from(idx != DEAD);
    }
    to
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::Removals;

    /// `before` against a count, over many blocks, twice (the second pass
    /// reuses the bits the first one cleared).
    #[test]
    fn removals_count_what_is_before_a_position() {
        let mut r = Removals::new();
        for round in 0..2u64 {
            let positions: Vec<usize> = (0..700)
                .filter(|&p: &usize| (p as u64 * 2654435761 + round) % 7 < 2 || p == 63 || p == 64)
                .collect();
            let end = if cfg!(miri) { 130 } else { 700 };
            // prefix[at]: the removals before `at`.
            let mut prefix = alloc::vec![0; end + 1];
            for at in 1..=end {
                prefix[at] = prefix[at - 1] + usize::from(positions.contains(&(at - 1)));
            }
            for &p in positions.iter().filter(|&&p| p < end) {
                r.add(p);
                // Only positions up to the last removal are asked about.
                for (at, &want) in prefix.iter().enumerate().take(p + 1) {
                    assert_eq!(r.before(at), want, "round {round}, before {at}");
                }
                assert_eq!(r.before(p + 500), r.count);
            }
            assert_eq!(r.first(), positions.first().copied());
            r.clear();
            assert!(r.is_empty());
            assert_eq!(r.before(5), 0);
        }
    }
}

//! The slot table: where each key's element sits, and which keys are stale.

use alloc::vec::Vec;
use core::num::NonZeroU32;

use super::key::Key;
use crate::key_data::KeyData;

/// "No slot": the end of the free list.
const NONE: u32 = u32::MAX;

/// One slot. An odd `version` means occupied, and `at` is its element's
/// index; an even one means vacant, and `at` is the next vacant slot (the
/// free list). Version 0 is a retired slot: it was occupied at version
/// `u32::MAX`, so one more use would wrap; it is on no list and never
/// occupied again.
#[derive(Clone, Copy, Debug)]
struct Slot {
    version: u32,
    at: u32,
}

/// The slots of a keyed collection's elements.
///
/// Invariant: every occupied slot's `at` is the index of an element whose
/// slot (in the collection's dense list) is this one, and the vacant
/// slots other than retired ones form the free list from `free`.
#[derive(Clone, Debug)]
pub(super) struct Slots {
    slots: Vec<Slot>,
    free: u32,
}

impl Slots {
    pub(super) const fn new() -> Self {
        Slots {
            slots: Vec::new(),
            free: NONE,
        }
    }

    /// Makes sure [`occupy`](Self::occupy) will not allocate.
    ///
    /// # Panics
    /// If there would be more than `u32::MAX - 1` slots (capacity
    /// overflow), or the allocation fails.
    pub(super) fn reserve_one(&mut self) {
        if self.free == NONE {
            if self.slots.len() >= (NONE - 1) as usize {
                crate::raw::capacity_overflow();
            }
            self.slots.reserve(1);
        }
    }

    /// Whether [`occupy`](Self::occupy) will not allocate.
    #[inline(always)]
    pub(super) fn has_room(&self) -> bool {
        self.free != NONE || self.slots.len() < self.slots.capacity()
    }

    /// Makes room for `additional` more slots than exist (more than
    /// enough when vacant ones can be reused).
    pub(super) fn reserve(&mut self, additional: usize) {
        self.slots.reserve(additional);
    }

    /// Takes a slot for the element at index `at` and returns its key
    /// data. Does not allocate after [`reserve_one`](Self::reserve_one).
    #[inline(always)]
    pub(super) fn occupy(&mut self, at: u32) -> KeyData {
        let idx = if self.free == NONE {
            self.slots.push(Slot { version: 1, at });
            (self.slots.len() - 1) as u32
        } else {
            let idx = self.free;
            let slot = &mut self.slots[idx as usize];
            self.free = slot.at;
            // Vacant versions are even and below `u32::MAX`: one more is odd.
            slot.version += 1;
            slot.at = at;
            idx
        };
        self.data(idx)
    }

    /// Frees slot `idx` (occupied): its keys are stale from here on. A
    /// slot at the last version is retired instead of reused.
    #[inline(always)]
    pub(super) fn vacate(&mut self, idx: u32) {
        let slot = &mut self.slots[idx as usize];
        debug_assert!(slot.version % 2 == 1, "vacating a vacant slot");
        if slot.version == u32::MAX {
            slot.version = 0;
        } else {
            slot.version += 1;
            slot.at = self.free;
            self.free = idx;
        }
    }

    /// Frees every occupied slot (after a leaked pass, whose elements are
    /// gone).
    pub(super) fn vacate_all(&mut self) {
        for idx in 0..self.slots.len() as u32 {
            if self.slots[idx as usize].version % 2 == 1 {
                self.vacate(idx);
            }
        }
    }

    /// Each slot's version, by index (what a save keeps).
    #[cfg(feature = "serde")]
    pub(super) fn versions(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        self.slots.iter().map(|s| s.version)
    }

    /// The table a save describes: each slot's version, and the slot of
    /// each element in order (`dense`). Refuses a description whose keys
    /// would point wrong: an element in a vacant or missing slot, two
    /// elements in one slot, an occupied slot without an element.
    #[cfg(feature = "serde")]
    pub(super) fn from_saved(versions: Vec<u32>, dense: &[u32]) -> Result<Slots, &'static str> {
        if versions.len() >= (NONE - 1) as usize {
            return Err("too many slots");
        }
        let mut slots: Vec<Slot> = versions
            .into_iter()
            .map(|version| Slot { version, at: NONE })
            .collect();
        for (at, &idx) in dense.iter().enumerate() {
            let slot = slots
                .get_mut(idx as usize)
                .ok_or("an element's slot is not in the table")?;
            if slot.version % 2 == 0 {
                return Err("an element's slot is vacant");
            }
            if slot.at != NONE {
                return Err("two elements share a slot");
            }
            slot.at = at as u32;
        }
        let mut free = NONE;
        for (idx, slot) in slots.iter_mut().enumerate().rev() {
            if slot.version % 2 == 1 {
                if slot.at == NONE {
                    return Err("an occupied slot has no element");
                }
            } else if slot.version != 0 {
                // Vacant (0: retired, on no list).
                slot.at = free;
                free = idx as u32;
            }
        }
        Ok(Slots { slots, free })
    }

    /// The index of the element `key` names, if it is still there.
    #[inline]
    pub(super) fn find(&self, key: KeyData) -> Option<usize> {
        let slot = self.slots.get(key.idx as usize)?;
        (slot.version == key.version.get()).then_some(slot.at as usize)
    }

    /// Records that slot `idx`'s element is now at index `at`.
    #[inline(always)]
    pub(super) fn moved(&mut self, idx: u32, at: usize) {
        self.slots[idx as usize].at = at as u32;
    }

    /// Where slot `idx` keeps its element's index, or `scratch` if there
    /// is no slot `idx` (a selection, not a branch: see `book::compact`).
    #[inline(always)]
    pub(super) fn at_mut_or<'a>(&'a mut self, idx: u32, scratch: &'a mut u32) -> &'a mut u32 {
        match self.slots.get_mut(idx as usize) {
            Some(slot) => &mut slot.at,
            None => scratch,
        }
    }

    /// The key data of occupied slot `idx`.
    #[inline]
    pub(super) fn data(&self, idx: u32) -> KeyData {
        let version = self.slots[idx as usize].version;
        KeyData {
            idx,
            version: NonZeroU32::new(version).expect("an occupied slot's version is odd"),
        }
    }

    /// The key of occupied slot `idx`.
    #[inline]
    pub(super) fn key<K: Key>(&self, idx: u32) -> K {
        K::from_data(self.data(idx))
    }

    /// Gives slot `idx` version `version` (odd, occupied): the tests'
    /// shortcut to a slot about to wrap.
    #[cfg(test)]
    pub(super) fn set_version(&mut self, idx: u32, version: u32) {
        assert!(version % 2 == 1);
        self.slots[idx as usize].version = version;
    }
}

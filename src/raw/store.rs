//! The collection's storage: its `Vec`, its maximum length and the shrink
//! policy's state.

use alloc::vec::Vec;
use core::mem;
use core::ptr;

#[cfg(feature = "rayon")]
use super::par_round::KeptScratch;
use super::pass::grown_capacity;
use crate::settings::{Mode, ShrinkPolicy};

/// The storage of a collection: its `Vec` plus the settings a pass reads.
#[derive(Clone)]
pub(crate) struct Store<T> {
    pub(crate) vec: Vec<T>,
    /// Hard maximum length; `usize::MAX` when unbounded.
    pub(crate) max: usize,
    pub(crate) unordered: bool,
    /// Evaluated when a pass finishes.
    pub(crate) shrink: Option<ShrinkPolicy>,
    /// Consecutive passes that ended below the shrink threshold.
    pub(crate) low_passes: u32,
    /// The lists a parallel pass reuses (allocated by the first one).
    #[cfg(feature = "rayon")]
    pub(crate) par: KeptScratch<T>,
}

impl<T> Store<T> {
    pub(crate) const fn new(vec: Vec<T>) -> Self {
        Store {
            vec,
            max: usize::MAX,
            unordered: false,
            shrink: None,
            low_passes: 0,
            #[cfg(feature = "rayon")]
            par: KeptScratch(None),
        }
    }

    /// Grows the allocation past its current capacity (amortised doubling),
    /// never past `max`. Used outside passes.
    ///
    /// The caller has checked that the buffer is full and `capacity < max`.
    pub(crate) fn grow(&mut self) {
        let len = self.vec.len();
        let cap = self.vec.capacity();
        debug_assert!(cap < self.max);
        debug_assert_eq!(len, cap, "only a full buffer grows");
        if self.max == usize::MAX {
            // `reserve` doubles: the new capacity is at least `2 * cap`.
            self.vec.reserve(1);
        } else {
            self.vec.reserve_exact(grown_capacity(self.max, cap) - len);
        }
    }

    /// The bound, `None` if unbounded (what `max_len` shows).
    #[inline]
    pub(crate) fn max_len(&self) -> Option<usize> {
        (self.max != usize::MAX).then_some(self.max)
    }

    /// Sets (or with `None` lifts) the bound, and shrinks the allocation
    /// to it if it is larger (what `set_max_len` does).
    ///
    /// # Panics
    /// If the `Vec` holds more than `max` elements.
    #[track_caller]
    pub(crate) fn set_max_len(&mut self, max: Option<usize>) {
        let max = max.unwrap_or(usize::MAX);
        assert!(
            self.vec.len() <= max,
            "the collection holds more than the new maximum length"
        );
        self.max = max;
        if self.vec.capacity() > max {
            self.vec.shrink_to(max);
        }
    }

    /// How passes fill removed slots.
    #[inline]
    pub(crate) fn mode(&self) -> Mode {
        if self.unordered {
            Mode::Unordered
        } else {
            Mode::Ordered
        }
    }

    #[inline]
    pub(crate) fn set_mode(&mut self, mode: Mode) {
        self.unordered = mode == Mode::Unordered;
    }

    /// Applies the shrink policy after a pass. Never unwinds: if the
    /// smaller buffer cannot be allocated, it keeps the current one.
    pub(crate) fn after_pass(&mut self) {
        let Some(policy) = self.shrink else { return };
        let len = self.vec.len();
        let cap = self.vec.capacity();
        if (len as u128) * 100 < (cap as u128) * u128::from(policy.below_percent()) {
            self.low_passes = self.low_passes.saturating_add(1);
            if self.low_passes >= policy.passes() {
                self.low_passes = 0;
                // Keep room to double before the next reallocation.
                try_shrink_to(&mut self.vec, len.saturating_mul(2));
            }
        } else {
            self.low_passes = 0;
        }
    }
}

/// `Vec::shrink_to` that skips the shrink instead of failing when the
/// allocator cannot provide the smaller buffer (`shrink_to` would call the
/// alloc error handler, which may panic or abort).
fn try_shrink_to<T>(vec: &mut Vec<T>, min_capacity: usize) {
    let target = min_capacity.max(vec.len());
    if mem::size_of::<T>() == 0 || vec.capacity() <= target {
        return;
    }
    let mut smaller: Vec<T> = Vec::new();
    if smaller.try_reserve_exact(target).is_err() {
        return;
    }
    let len = vec.len();
    // SAFETY: `smaller` has room for `target >= len` elements and does not
    // overlap `vec`. After the copy the elements are owned by `smaller`
    // (its length is set to `len`) and `vec` claims none of them (length
    // 0), so each is owned exactly once; dropping `vec` then only frees
    // its buffer. Nothing here can unwind between the two `set_len`s.
    unsafe {
        ptr::copy_nonoverlapping(vec.as_ptr(), smaller.as_mut_ptr(), len);
        vec.set_len(0);
        smaller.set_len(len);
    }
    *vec = smaller;
}

//! Positions in a buffer (raw pointers, or counters for zero-sized `T`)
//! and the `Counters` of a pass.

use core::mem;
use core::ptr::NonNull;

/// The pointer to dereference for the slot at position `p`: `p` itself, or a
/// well-aligned dangling pointer for zero-sized `T` (whose positions are
/// counters, not addresses).
#[inline(always)]
pub(super) fn real<T>(p: *mut T) -> *mut T {
    if mem::size_of::<T>() == 0 {
        NonNull::dangling().as_ptr()
    } else {
        p
    }
}

/// The position after `p`.
///
/// # Safety
/// For sized `T`, `p + 1` must be within (or one past) the allocation.
#[inline(always)]
pub(super) unsafe fn next<T>(p: *mut T) -> *mut T {
    if mem::size_of::<T>() == 0 {
        p.wrapping_byte_add(1)
    } else {
        // SAFETY: the caller keeps `p + 1` in bounds.
        unsafe { p.add(1) }
    }
}

/// The position before `p`.
///
/// # Safety
/// For sized `T`, `p - 1` must be within the allocation.
#[inline(always)]
pub(super) unsafe fn prev<T>(p: *mut T) -> *mut T {
    if mem::size_of::<T>() == 0 {
        p.wrapping_byte_sub(1)
    } else {
        // SAFETY: the caller keeps `p - 1` in bounds.
        unsafe { p.sub(1) }
    }
}

/// The position `n` slots after `p`.
///
/// # Safety
/// For sized `T`, `p + n` must be within (or one past) the allocation.
#[inline(always)]
pub(super) unsafe fn add<T>(p: *mut T, n: usize) -> *mut T {
    if mem::size_of::<T>() == 0 {
        p.wrapping_byte_add(n)
    } else {
        // SAFETY: the caller keeps `p + n` in bounds.
        unsafe { p.add(n) }
    }
}

/// The number of slots from `from` to `to` (`from <= to`).
///
/// # Safety
/// For sized `T`, both in (or one past) the same allocation, `from <= to`.
#[inline(always)]
pub(super) unsafe fn distance<T>(from: *mut T, to: *mut T) -> usize {
    if mem::size_of::<T>() == 0 {
        (to as usize).wrapping_sub(from as usize)
    } else {
        // SAFETY: same allocation and `from <= to`, by the caller.
        unsafe { to.offset_from(from) as usize }
    }
}

/// A pass's buffer and positions (see the module docs for what they mean).
/// `*mut T` also makes `Core` invariant in `T`, as `&mut Vec<T>` is.
///
/// Invariant: `buf <= write <= read <= end <= limit <= buf + capacity`, all
/// in the current allocation of the store's `Vec`, regions as drawn in the
/// module docs. (For zero-sized `T` the positions are counters that may
/// wrap past `usize::MAX`: they are only compared for equality and measured
/// with wrapping `distance`, for which the order above still holds.)
pub(super) struct Counters<T> {
    pub(super) buf: *mut T,
    pub(super) write: *mut T,
    pub(super) read: *mut T,
    pub(super) end: *mut T,
    pub(super) limit: *mut T,
    /// `write != read`: the hole is not empty, so moving on moves an
    /// element. Kept beside the positions (set where a removal opens the
    /// hole, cleared where it is closed) so that in a walk that never
    /// removes it is a loop-invariant value, and the compiler can split
    /// the walk into a loop that never moves (as it does for a pass that
    /// starts with `write == read` and never removes).
    pub(super) gap: bool,
}

// Not derived: a derive would require `T: Copy`.
impl<T> Clone for Counters<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Counters<T> {}

impl<T> Counters<T> {
    /// Kept elements plus unvisited ones: the length if the pass ended now.
    #[inline(always)]
    pub(super) fn len(&self) -> usize {
        // SAFETY: the struct invariant orders the positions in one
        // allocation.
        unsafe { distance(self.buf, self.write) + distance(self.read, self.end) }
    }
}

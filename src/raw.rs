//! The traversal engine: the only module with `unsafe` code.
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
//! own, kept with the layers (`layers::raw`): it names their slot type,
//! which this module, under every collection, must not.

use alloc::vec::Vec;
use core::marker::PhantomData;
use core::mem;
use core::ptr::{self, NonNull};

/// Shrink configuration, evaluated when a pass finishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Shrink {
    /// Shrink once `len * 100 < capacity * percent` ...
    pub(crate) percent: u8,
    /// ... for this many passes in a row.
    pub(crate) passes: u32,
}

/// The storage of a collection: its `Vec` plus the settings a pass reads.
#[derive(Clone)]
pub(crate) struct Store<T> {
    pub(crate) vec: Vec<T>,
    /// Hard maximum length; `usize::MAX` when unbounded.
    pub(crate) max: usize,
    pub(crate) unordered: bool,
    pub(crate) shrink: Option<Shrink>,
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

    /// Applies the shrink policy after a pass. Never unwinds: if the
    /// smaller buffer cannot be allocated, it keeps the current one.
    pub(crate) fn after_pass(&mut self) {
        let Some(policy) = self.shrink else { return };
        let len = self.vec.len();
        let cap = self.vec.capacity();
        if (len as u128) * 100 < (cap as u128) * u128::from(policy.percent) {
            self.low_passes = self.low_passes.saturating_add(1);
            if self.low_passes >= policy.passes {
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

/// The pointer to dereference for the slot at position `p`: `p` itself, or a
/// well-aligned dangling pointer for zero-sized `T` (whose positions are
/// counters, not addresses).
#[inline(always)]
fn real<T>(p: *mut T) -> *mut T {
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
unsafe fn next<T>(p: *mut T) -> *mut T {
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
unsafe fn prev<T>(p: *mut T) -> *mut T {
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
unsafe fn add<T>(p: *mut T, n: usize) -> *mut T {
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
unsafe fn distance<T>(from: *mut T, to: *mut T) -> usize {
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
struct Counters<T> {
    buf: *mut T,
    write: *mut T,
    read: *mut T,
    end: *mut T,
    limit: *mut T,
    /// `write != read`: the hole is not empty, so moving on moves an
    /// element. Kept beside the positions (set where a removal opens the
    /// hole, cleared where it is closed) so that in a walk that never
    /// removes it is a loop-invariant value, and the compiler can split
    /// the walk into a loop that never moves (as it does for a pass that
    /// starts with `write == read` and never removes).
    gap: bool,
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
    fn len(&self) -> usize {
        // SAFETY: the struct invariant orders the positions in one
        // allocation.
        unsafe { distance(self.buf, self.write) + distance(self.read, self.end) }
    }
}

/// The state of one pass. It has no lifetime so that `Entry<'c, T>` can
/// borrow it without naming the collection's borrow; [`Pass`] carries that
/// lifetime and finishes the pass on drop.
///
/// Invariant: `c` satisfies the `Counters` invariant for the allocation of
/// `store.vec` (whose length is 0 until `finish`), `held` implies
/// `write > buf`.
pub(crate) struct Core<T> {
    store: NonNull<Store<T>>,
    /// Where pushes go in a buffered pass; `None`: appended to this pass.
    pending: Option<NonNull<Vec<T>>>,
    c: Counters<T>,
    held: bool,
    unordered: bool,
    done: bool,
    /// A part of a parallel round (see `par_round`): removing the held
    /// element leaves it a hole, listed here (as an offset from `buf`),
    /// instead of moving the kept prefix, so `write == read` throughout.
    #[cfg(feature = "rayon")]
    holes: Option<NonNull<Vec<usize>>>,
}

// SAFETY: a `Core<T>` is a unique borrow of a `Store<T>` (and possibly of a
// pending `Vec<T>`), like `&mut Vec<T>`, which is `Send` iff `T: Send` and
// `Sync` iff `T: Sync`. Its raw pointers are never shared with anything else.
unsafe impl<T: Send> Send for Core<T> {}
// SAFETY: see the `Send` impl; `&Core<T>` only hands out `&T`.
unsafe impl<T: Sync> Sync for Core<T> {}

/// A pass over a store exclusively borrowed for `'a`; finishes on drop.
pub(crate) struct Pass<'a, T> {
    core: Core<T>,
    _borrow: PhantomData<&'a mut Store<T>>,
}

impl<'a, T> Pass<'a, T> {
    /// Starts a pass. Pushes go to `pending` if given, else into the pass.
    #[inline(always)]
    pub(crate) fn begin(store: &'a mut Store<T>, pending: Option<&'a mut Vec<T>>) -> Self {
        let len = store.vec.len();
        // Leak amplification: from here until `finish`, the `Vec` owns nothing.
        // SAFETY: 0 <= capacity, and a length of 0 asserts nothing about the
        // elements, which the `Core` now tracks.
        unsafe { store.vec.set_len(0) };
        let buf = store.vec.as_mut_ptr();
        let room = store.vec.capacity().min(store.max).max(len);
        // SAFETY: `len <= room <= capacity` (a collection never holds more
        // than its capacity, so `max(len)` stays within it): both positions
        // are in (or one past) the allocation.
        let (end, limit) = unsafe { (add(buf, len), add(buf, room)) };
        let core = Core {
            c: Counters {
                buf,
                write: buf,
                read: buf,
                end,
                limit,
                gap: false,
            },
            unordered: store.unordered,
            store: NonNull::from(store),
            pending: pending.map(NonNull::from),
            held: false,
            done: false,
            #[cfg(feature = "rayon")]
            holes: None,
        };
        Pass {
            core,
            _borrow: PhantomData,
        }
    }

    #[inline(always)]
    pub(crate) fn core(&mut self) -> &mut Core<T> {
        &mut self.core
    }

    #[inline(always)]
    pub(crate) fn core_ref(&self) -> &Core<T> {
        &self.core
    }
}

#[cfg(feature = "rayon")]
impl<'a, T> Pass<'a, T> {
    /// A pass over one part of a parallel round: the `len` slots from
    /// `start`, with pushes going to `pushed` and removals listed in
    /// `holes` (nothing in the part moves). It has nothing to finish: the
    /// round settles the part from its lists.
    ///
    /// # Safety
    /// `[start, start + len)` are initialised slots of `store`'s buffer
    /// that only this pass touches while it lives (the round owns them),
    /// and `store` stays valid for reads (its `max`) meanwhile.
    #[inline]
    unsafe fn part(
        store: NonNull<Store<T>>,
        start: *mut T,
        len: usize,
        pushed: &'a mut Vec<T>,
        holes: &'a mut Vec<usize>,
    ) -> Self {
        // SAFETY: the part's end is in (or one past) the buffer (caller).
        let end = unsafe { add(start, len) };
        Pass {
            core: Core {
                store,
                pending: Some(NonNull::from(pushed)),
                c: Counters {
                    buf: start,
                    write: start,
                    read: start,
                    end,
                    limit: end,
                    gap: false,
                },
                held: false,
                unordered: false,
                done: true,
                holes: Some(NonNull::from(holes)),
            },
            _borrow: PhantomData,
        }
    }
}

#[cfg(feature = "rayon")]
impl<'a, T> Pass<'a, T> {
    /// Hands the pass, between two elements (none held), to a
    /// [`Suspended`] that [`resume`](Pass::resume) gives to a new pass
    /// over the same store; `self` is done from here on (its `finish` does
    /// nothing). Until then no element moves and the store's `Vec` still
    /// owns nothing (leak amplification: a suspended pass that is never
    /// resumed leaks its elements).
    ///
    /// # Panics
    /// If an element is held (a bug in the caller).
    #[inline]
    pub(crate) fn suspend(&mut self) -> Suspended<T> {
        assert!(!self.core.held, "a pass is suspended between elements");
        Suspended {
            core: self.core.hand_over(),
        }
    }

    /// The pass `suspended` from `store`, where it stopped: a fresh
    /// `Pass`, whose state the caller's loop keeps in registers (a cursor
    /// handed back from a function lives in memory).
    ///
    /// # Panics
    /// If `suspended` is not a pass over `store`'s buffer as it is now.
    #[inline(always)]
    pub(crate) fn resume(store: &'a mut Store<T>, suspended: Suspended<T>) -> Self {
        let mut core = suspended.core;
        let buf = store.vec.as_mut_ptr();
        assert!(
            core.store.as_ptr() == ptr::addr_of_mut!(*store)
                && core.c.buf == buf
                && store.vec.is_empty()
                && core.pending.is_none()
                && !core.held
                && !core.done
                && core.holes.is_none(),
            "a suspended pass is resumed on its own store, untouched"
        );
        // Written, not only checked, so that the compiler knows them in the
        // caller's loop as it knows them after `begin` (measured: read from
        // the suspended state, `holes` above all, they took registers the
        // loop needed, and an inline closure's walk ran 52.5 instructions
        // per element against `traverse`'s 49.0; written, 45.9).
        core.pending = None;
        core.held = false;
        core.done = false;
        core.holes = None;
        // The pointers the suspended pass kept came from the borrow it was
        // made under, which this new borrow of the store has ended (under
        // Tree Borrows a write through them would be undefined): the pass
        // goes on through pointers taken from this one, at the same
        // positions.
        let c = core.c;
        // SAFETY (the `distance`s and `add`s): the positions are ordered
        // in the buffer, which has not moved (checked above).
        unsafe {
            core.c.write = add(buf, distance(c.buf, c.write));
            core.c.read = add(buf, distance(c.buf, c.read));
            core.c.end = add(buf, distance(c.buf, c.end));
            core.c.limit = add(buf, distance(c.buf, c.limit));
        }
        core.c.buf = buf;
        core.store = NonNull::from(store);
        Pass {
            core,
            _borrow: PhantomData,
        }
    }
}

/// A pass between two cursors (see [`Pass::suspend`]). Only
/// [`Pass::resume`] gives it back to a pass; dropped, it leaks the
/// collection's elements (the store's `Vec` owns nothing meanwhile).
#[cfg(feature = "rayon")]
pub(crate) struct Suspended<T> {
    core: Core<T>,
}

// `Pass` has no `Drop` impl: its owner (the cursor) finishes it in its own
// `Drop`, so that a cursor's drop glue is one small function with no
// fields left to drop after it (which keeps it cheap to inline into the
// unwind paths of a user's loop). A pass that is never finished (the
// cursor was leaked) leaks its elements: see "Leak amplification".

/// The state of a pass handed over from its [`Pass`] (which is then
/// done), so that out-of-line code can run user code on it and still
/// finish the pass if that code panics: finishes on drop.
#[cfg(feature = "std")]
pub(crate) struct Detached<T> {
    core: Core<T>,
}

#[cfg(feature = "std")]
impl<T> Detached<T> {
    #[inline(always)]
    pub(crate) fn core(&mut self) -> &mut Core<T> {
        &mut self.core
    }
}

#[cfg(feature = "std")]
impl<T> Drop for Detached<T> {
    #[inline]
    fn drop(&mut self) {
        // Runs no user code and cannot unwind.
        self.core.finish();
    }
}

impl<T> Core<T> {
    /// Whether an element is held (yielded and not removed, not yet moved on
    /// from).
    #[inline(always)]
    pub(crate) fn held(&self) -> bool {
        self.held
    }

    /// The address of the store this pass runs on (only compared).
    #[inline(always)]
    pub(crate) fn store_addr(&self) -> *const Store<T> {
        self.store.as_ptr()
    }

    /// Elements the pass has moved past (visited, or removed unyielded):
    /// at its end, the elements it started with plus its pushes.
    #[cfg(feature = "rayon")]
    #[inline]
    pub(crate) fn passed(&self) -> usize {
        // SAFETY: `buf <= read` in one allocation (invariant).
        unsafe { distance(self.c.buf, self.c.read) }
    }

    /// Elements not yet visited, pushed ones included.
    #[inline]
    pub(crate) fn remaining(&self) -> usize {
        // SAFETY: `read <= end` in one allocation (invariant).
        unsafe { distance(self.c.read, self.c.end) }
    }

    /// Elements the collection would hold if the pass finished now.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.c.len()
    }

    /// The held element.
    ///
    /// # Panics
    /// If no element is held (a bug in the caller).
    #[inline(always)]
    pub(crate) fn current(&self) -> &T {
        assert!(self.held, "no element is held");
        // SAFETY: while `held`, `write > buf` and slot `write - 1` is
        // initialised (module docs); the shared borrow of `self` keeps it from
        // moving or being removed.
        unsafe { &*real(prev(self.c.write)) }
    }

    /// Settles the held element as kept (it already is; this just ends
    /// holding it).
    #[inline(always)]
    pub(crate) fn keep_current(&mut self) {
        self.held = false;
    }

    /// Removes the held element and returns it.
    ///
    /// # Panics
    /// If no element is held (a bug in the caller).
    #[inline(always)]
    pub(crate) fn take_current(&mut self) -> T {
        assert!(self.held, "no element is held");
        #[cfg(feature = "rayon")]
        if let Some(mut holes) = self.holes {
            // SAFETY: `held` implies `write > buf`: the offset is that of
            // the held element.
            let at = unsafe { distance(self.c.buf, self.c.write) } - 1;
            // SAFETY: the list is uniquely borrowed for the part's pass
            // (`Pass::part`) and no other reference to it is alive.
            // Recorded first: if this unwinds, the element stays held.
            unsafe { holes.as_mut() }.push(at);
            self.held = false;
            // SAFETY: slot `write - 1` was the held, initialised element;
            // it is listed as a hole from here on, so it is read once.
            return unsafe { ptr::read(real(prev(self.c.write))) };
        }
        // Bookkeeping first: from here slot `write` is part of the hole.
        self.held = false;
        // SAFETY: `held` implies `write > buf`.
        self.c.write = unsafe { prev(self.c.write) };
        // Ordered: `read` is past the slot, so the hole is open from here.
        // Unordered: `read` comes back to `write` below.
        self.c.gap = !self.unordered;
        // SAFETY: slot `write` (the old `write - 1`) was initialised (it was
        // held); the decrement above made it logically uninitialised, so it
        // is read exactly once.
        let value = unsafe { ptr::read(real(self.c.write)) };
        if self.unordered {
            // Fill the slot from the end; that element is visited next. In
            // unordered mode `read == write + 1` here, and `end >= read`.
            // SAFETY: `end > write`, so `end - 1` is in the allocation.
            self.c.end = unsafe { prev(self.c.end) };
            if self.c.end != self.c.write {
                // SAFETY: `end` (the old `end - 1`) `>= read`: an
                // initialised unvisited slot, distinct from `write`; moving
                // it makes `end` spare and fills the hole at `write`.
                unsafe { ptr::copy_nonoverlapping(real(self.c.end), real(self.c.write), 1) };
            }
            self.c.read = self.c.write;
        }
        value
    }

    /// Moves the next unvisited element to the end of the kept prefix and
    /// holds it. Returns `false` when the pass has nothing left to visit.
    ///
    /// The caller has settled the previously held element, or (a policy
    /// that never removes) left it held: it is already counted as kept, so
    /// holding the next one simply replaces it.
    ///
    /// `by_gap` (a constant at every call site) picks how the hole is
    /// tested: by the `gap` flag (loop-invariant in a walk that never
    /// removes, see [`Counters::gap`]) or by comparing the positions (no
    /// flag kept alive across the loop, for walks whose policy may remove
    /// any element anyway).
    #[inline(always)]
    pub(crate) fn advance(&mut self, by_gap: bool) -> bool {
        let c = &mut self.c;
        if c.read == c.end {
            self.held = false;
            return false;
        }
        debug_assert_eq!(c.gap, c.read != c.write, "`gap` out of step");
        let hole = if by_gap { c.gap } else { c.read != c.write };
        if hole {
            // SAFETY: `write < read < end` (the hole is open: `gap`, which
            // equals `read != write`, or the comparison itself, and
            // `read < end` above): `read` is initialised and
            // unvisited, `write` is the first hole slot; one element, so no
            // overlap. After the copy `read` belongs to the hole.
            unsafe { ptr::copy_nonoverlapping(real(c.read), real(c.write), 1) };
        }
        // SAFETY: `write <= read < end <= limit`: both stay in bounds.
        unsafe {
            c.read = next(c.read);
            c.write = next(c.write);
        }
        self.held = true;
        true
    }

    /// A handle on the held element for an `Entry`.
    ///
    /// # Panics
    /// If no element is held (a bug in the caller).
    #[inline(always)]
    pub(crate) fn held_ref(&mut self) -> HeldRef<'_, T> {
        assert!(self.held, "no element is held");
        // SAFETY: `write > buf` while held, so `write - 1` is a slot of the
        // allocation; `real` never returns null.
        let ptr = unsafe { NonNull::new_unchecked(real(prev(self.c.write))) };
        HeldRef { core: self, ptr }
    }

    /// Appends `value` (visited later in this pass), or puts it in the
    /// pending buffer of a buffered pass. Gives it back when the collection
    /// is at its maximum length.
    ///
    /// # Panics
    /// If the buffer cannot grow: capacity overflow (an unbounded
    /// collection at `usize::MAX` elements, or more than `isize::MAX`
    /// bytes), or an allocation failure whose handler unwinds. The pass
    /// state is unchanged then (see the module docs).
    #[inline(always)]
    pub(crate) fn push(&mut self, value: T) -> Result<(), T> {
        if let Some(pending) = self.pending {
            return push_pending(pending, value, self.store, self.c.len());
        }
        if self.c.end == self.c.limit {
            match make_room(self.store, self.c) {
                Some(c) => self.c = c,
                None => return Err(value),
            }
        }
        debug_assert!(self.c.end != self.c.limit);
        // SAFETY: `end < limit <= buf + capacity`, and slot `end` is spare
        // (uninitialised); `end + 1 <= limit` stays in bounds.
        unsafe {
            ptr::write(real(self.c.end), value);
            self.c.end = next(self.c.end);
        }
        Ok(())
    }

    /// Hands the pass over to a [`Detached`], which finishes it when
    /// dropped; `self` is done from here on (its `finish` does nothing).
    #[cfg(feature = "std")]
    #[inline(always)]
    pub(crate) fn detach(&mut self) -> Detached<T> {
        Detached {
            core: self.hand_over(),
        }
    }

    /// A copy of the pass's state for a new owner; `self` is done from
    /// here on (its `finish` does nothing) and holds nothing.
    #[cfg(feature = "std")]
    #[inline(always)]
    fn hand_over(&mut self) -> Core<T> {
        let core = Core {
            store: self.store,
            pending: self.pending,
            c: self.c,
            held: self.held,
            unordered: self.unordered,
            done: self.done,
            #[cfg(feature = "rayon")]
            holes: self.holes,
        };
        self.done = true;
        self.held = false;
        core
    }

    /// Ends the pass: closes the hole behind the unvisited elements and
    /// sets the final length (a held element is kept: it is already in the
    /// kept prefix). Idempotent. Cannot unwind.
    #[inline(always)]
    pub(crate) fn finish(&mut self) {
        if self.done {
            return;
        }
        self.done = true;
        self.held = false;
        // Scalars, not the `Counters` struct: an aggregate passed to an
        // `extern "C"` function goes through memory, which would keep the
        // whole pass state in memory in the caller's loop.
        let c = self.c;
        finish_pass(self.store, c.buf, c.write, c.read, c.end);
    }
}

/// Pushes into a buffered pass's pending `Vec`, unless the visible `len`
/// plus the pending elements would exceed the store's maximum length.
#[inline(always)]
fn push_pending<T>(
    mut pending: NonNull<Vec<T>>,
    value: T,
    store: NonNull<Store<T>>,
    len: usize,
) -> Result<(), T> {
    // SAFETY: `store` is uniquely borrowed for the pass; reading `max` makes
    // no reference that outlives this line.
    let max = unsafe { store.as_ref().max };
    // SAFETY: `pending` is a unique borrow for the whole pass (`Pass::begin`
    // took `&'a mut Vec<T>`), and no other reference to it is alive.
    let pending = unsafe { pending.as_mut() };
    if pending.len() >= max.saturating_sub(len) {
        if max == usize::MAX {
            capacity_overflow();
        }
        return Err(value);
    }
    pending.push(value);
    Ok(())
}

#[cold]
#[inline(never)]
#[track_caller]
pub(crate) fn capacity_overflow() -> ! {
    panic!("capacity overflow")
}

/// Makes `end < limit` for a pass in state `c`: closes the hole in place,
/// or grows the buffer. Returns the new counters, or `None` if the
/// collection is at its maximum length.
///
/// # Panics
/// On capacity overflow or an unwinding allocation failure, with the
/// buffer and the caller's counters untouched.
#[cold]
#[inline(never)]
fn make_room<T>(mut store: NonNull<Store<T>>, mut c: Counters<T>) -> Option<Counters<T>> {
    // SAFETY: `store` is uniquely borrowed for the pass, and no other
    // reference to it is alive during this call (an `Entry` only holds a
    // pointer to the held element, which it re-derives afterwards).
    let store = unsafe { store.as_mut() };
    let len = c.len();
    if len >= store.max {
        if store.max == usize::MAX {
            capacity_overflow();
        }
        return None;
    }
    // SAFETY (the `distance`s): positions ordered in one allocation.
    let hole = unsafe { distance(c.write, c.read) };
    let tail = unsafe { distance(c.read, c.end) };
    let cap = store.vec.capacity();
    // Close the hole when growing is not allowed, or when the hole is big
    // next to the tail (else "remove one, push one" would shift the tail on
    // every push; growing instead moves each element at most once more).
    let can_grow = cap < store.max && mem::size_of::<T>() != 0;
    if hole > 0 && (!can_grow || hole.saturating_mul(4) >= tail) {
        // SAFETY: `[read, end)` is initialised and `[write, read)` is the
        // hole; `ptr::copy` allows the overlap. Afterwards
        // `[write, write + tail)` holds the unvisited elements in order and
        // there is no hole. The held element (`write - 1`) does not move.
        unsafe {
            ptr::copy(real(c.read), real(c.write), tail);
            c.read = c.write;
            c.end = add(c.write, tail);
        }
        c.gap = false;
        if c.end != c.limit {
            return Some(c);
        }
    }
    if !can_grow {
        // `len < max` and no hole: only the capacity limits, and it cannot
        // grow (zero-sized `T`, whose capacity is `usize::MAX`).
        capacity_overflow();
    }
    // Grow without closing the hole first: `realloc` carries the whole
    // buffer (stale hole bytes included) over, so no element moves in the
    // old buffer and nothing changes until the new buffer exists.
    // SAFETY (the `distance`s): positions ordered in one allocation.
    let (write, read, end) = unsafe {
        (
            distance(c.buf, c.write),
            distance(c.buf, c.read),
            distance(c.buf, c.end),
        )
    };
    // `can_grow` means `cap < max`, and a full buffer (`end == limit`) with
    // `cap < max` has `end == cap`: the new capacity exceeds `end`.
    assert_eq!(end, cap, "the buffer is full when it grows");
    let target = grown_capacity(store.max, cap);
    {
        // The `Vec` briefly claims `[0, end)`, hole included: `Vec` does
        // not promise to keep bytes beyond its length across a
        // reallocation, so the length must cover everything that has to
        // move. The hole's slots hold stale bytes of moved or removed
        // elements (possibly already dropped by the user): nothing may read
        // or drop them as values, and nothing does: `reserve_exact` only
        // copies bytes, no user code runs while the claim stands, and the
        // guard takes the claim back on every exit, unwinding included.
        let guard = OwnNothing(&mut store.vec);
        // SAFETY: `end <= capacity`; see above for why the stale slots are
        // never read or dropped as values.
        unsafe { guard.0.set_len(end) };
        guard.0.reserve_exact(target - end);
    }
    let buf = store.vec.as_mut_ptr();
    let room = store.vec.capacity().min(store.max);
    // SAFETY: the new allocation holds at least `target > end` slots, and
    // the old offsets are all `<= end`.
    unsafe {
        c.buf = buf;
        c.write = add(buf, write);
        c.read = add(buf, read);
        c.end = add(buf, end);
        c.limit = add(buf, room);
    }
    debug_assert!(c.end != c.limit);
    Some(c)
}

/// The capacity a full buffer of `cap` slots grows to: amortised
/// doubling, never past `max`.
#[inline]
fn grown_capacity(max: usize, cap: usize) -> usize {
    cap.saturating_mul(2).max(4).min(max)
}

/// Resets the `Vec`'s length to 0 when dropped (see [`make_room`]).
struct OwnNothing<'a, T>(&'a mut Vec<T>);

impl<T> Drop for OwnNothing<'_, T> {
    fn drop(&mut self) {
        // SAFETY: a length of 0 is always valid; it asserts nothing.
        unsafe { self.0.set_len(0) };
    }
}

/// Closes the hole of a pass and writes the final length, then applies
/// the shrink policy. `extern "C"`: it cannot unwind, and the compiler
/// knows it (see the module docs).
#[inline(never)]
#[allow(improper_ctypes_definitions)] // never called from C: `extern "C"` only for `nounwind`
extern "C" fn finish_pass<T>(
    mut store: NonNull<Store<T>>,
    buf: *mut T,
    write: *mut T,
    read: *mut T,
    end: *mut T,
) {
    let c = Counters {
        buf,
        write,
        read,
        end,
        limit: end, // unused here
        gap: write != read,
    };
    // SAFETY (the `distance`s): positions ordered in one allocation.
    let (kept, tail) = unsafe { (distance(c.buf, c.write), distance(c.read, c.end)) };
    if c.read != c.write {
        // SAFETY: `[read, end)` is initialised, `[write, read)` is the hole;
        // `ptr::copy` allows overlap.
        unsafe { ptr::copy(real(c.read), real(c.write), tail) };
    }
    // SAFETY: `store` is uniquely borrowed for the pass and nothing else
    // refers to it now.
    let store = unsafe { store.as_mut() };
    // SAFETY: `[0, kept + tail)` is initialised after the move above, and
    // `kept + tail <= end <= capacity`.
    unsafe { store.vec.set_len(kept + tail) };
    store.after_pass();
}

/// The held element of a pass, as an `Entry` sees it: the pass plus a
/// pointer to the element, so that reading and writing the element costs
/// no bookkeeping loads.
///
/// Invariant: `core.held`, and `ptr == real(core.write - 1)`. Only `push`
/// can move the buffer, and it re-derives `ptr`.
pub(crate) struct HeldRef<'c, T> {
    core: &'c mut Core<T>,
    ptr: NonNull<T>,
}

// SAFETY: a `HeldRef<T>` is a unique borrow of a pass and of one of its
// elements, like `&mut T`: `Send` iff `T: Send`, `Sync` iff `T: Sync`.
unsafe impl<T: Send> Send for HeldRef<'_, T> {}
// SAFETY: see the `Send` impl; `&HeldRef<T>` only hands out `&T`.
unsafe impl<T: Sync> Sync for HeldRef<'_, T> {}

impl<'c, T> HeldRef<'c, T> {
    /// Removes the held element and hands back the pass it was held in,
    /// so that the caller can push after the removal (a split).
    #[inline(always)]
    pub(crate) fn take_and_release(self) -> (T, &'c mut Core<T>) {
        let value = self.core.take_current();
        (value, self.core)
    }
}

impl<T> HeldRef<'_, T> {
    #[inline(always)]
    pub(crate) fn get(&self) -> &T {
        // SAFETY: by the invariant, `ptr` is the held, initialised element;
        // it stays in place while `self` borrows the pass.
        unsafe { self.ptr.as_ref() }
    }

    #[inline(always)]
    pub(crate) fn get_mut(&mut self) -> &mut T {
        // SAFETY: as in `get`; `&mut self` makes this the only reference.
        unsafe { self.ptr.as_mut() }
    }

    #[inline(always)]
    pub(crate) fn take(self) -> T {
        self.core.take_current()
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, value: T) -> Result<(), T> {
        let result = self.core.push(value);
        // Growth may have moved the buffer (closing the hole does not move
        // `[buf, write)`): re-derive the pointer.
        // SAFETY: still held, so `write > buf` and `write - 1` is a slot.
        self.ptr = unsafe { NonNull::new_unchecked(real(prev(self.core.c.write))) };
        result
    }
}

// ------------------------------------------------------------- parallel
//
// A parallel round visits every unvisited element of a pass at once and
// leaves the pass as the serial cursor would after visiting them (see
// `par_round`). The workers claim parts in order; each walks its part in
// place (a removal leaves a hole, whose offset the part lists), then moves
// the compaction frontier on as far as it can: part by part, in order, the
// kept elements of every walked part whose predecessors are all compacted
// go to their final slots, right after the kept elements before them.
//
// ```text
//  buf     write(D)    read
//  | kept  |  free     | part 0  o o x o | part 1  o x o o | part 2 ...
//                        (x: hole, offset recorded in the part's list)
//
//  part 0 walked, compacted: its kept elements at [D, D + kept_0)
//  | kept  | p0 kept | free              | part 1  o x o o | part 2 ...
//
//  after:  | kept                      | pushes of the round, in part order |
//          buf                         write = read                         end
// ```
//
// Compacting part i writes only slots below its own last slot: the free
// ones before it (the pass's hole, and what the parts before it vacated,
// all compacted already) and its own, in increasing order (a kept element
// moves down or stays). Later parts, which other workers may still be
// walking, lie above. So every kept element moves at most once, while its
// part is still in the caches, and no element is parked.

#[cfg(feature = "rayon")]
/// The element lists one part of a parallel round fills; kept (empty,
/// with their capacity) between passes, so that a steady pass allocates
/// nothing.
pub(crate) struct PartLists<T> {
    /// Elements pushed while walking the part, in push order.
    pushed: Vec<T>,
    /// Elements the auto-remove policy took out, in removal order.
    removed: Vec<T>,
}

#[cfg(feature = "rayon")]
/// What the parallel rounds of a collection keep between passes, all of
/// it empty between rounds: per part its hole list, its element lists and
/// whether it was walked.
pub(crate) struct ParScratch<T> {
    /// Per part: offsets from the part's first slot, increasing, of the
    /// slots whose element was removed (moved out: the slot is a hole).
    holes: Vec<Vec<usize>>,
    lists: Vec<PartLists<T>>,
    walked: Vec<bool>,
    /// The time per element, in nanoseconds, the collection's last pass
    /// measured, as one thread's time (its serial walks, and the walks of
    /// its parallel rounds' parts added up; see `parallel::Control`);
    /// infinite before the first.
    pub(crate) last_rate_ns: f64,
}

#[cfg(feature = "rayon")]
impl<T> Default for ParScratch<T> {
    fn default() -> Self {
        ParScratch {
            holes: Vec::new(),
            lists: Vec::new(),
            walked: Vec::new(),
            last_rate_ns: f64::INFINITY,
        }
    }
}

#[cfg(feature = "rayon")]
/// A collection's [`ParScratch`], if a parallel pass made one.
pub(crate) struct KeptScratch<T>(pub(crate) Option<alloc::boxed::Box<ParScratch<T>>>);

#[cfg(feature = "rayon")]
impl<T> Clone for KeptScratch<T> {
    /// None: the lists hold nothing between passes, only capacity, which a
    /// clone does not need (its first parallel pass makes its own); the
    /// clone's first pass also measures its closure afresh.
    fn clone(&self) -> Self {
        KeptScratch(None)
    }
}

#[cfg(feature = "rayon")]
impl<T> ParScratch<T> {
    /// The auto-removed elements of the last round, per part, in part
    /// order: the caller hands them to the removal hook.
    pub(crate) fn removed_lists(&mut self) -> impl Iterator<Item = &mut Vec<T>> {
        self.lists.iter_mut().map(|l| &mut l.removed)
    }

    /// Drops the pushes left in the lists (see `par_settle_rest`); a drop
    /// that panics leaves the lists consistent (the values not yet
    /// dropped are still listed), so calling again finishes the job.
    pub(crate) fn drop_pushes(&mut self) {
        for l in &mut self.lists {
            while let Some(value) = l.pushed.pop() {
                drop(value);
            }
        }
    }
}

#[cfg(feature = "rayon")]
/// A pointer that a round's jobs share: the buffer (a job walks only the
/// slots of the parts it claimed, and the frontier's lock holder compacts
/// walked parts, see `par_round`), the store (only read while the parts
/// run: its `max`, when a part pushes), or the per-part hole and element
/// lists (each borrowed by the job that claimed its part, then read by the
/// lock holder).
struct Shared<P>(NonNull<P>);

#[cfg(feature = "rayon")]
// Not derived: a derive would require `P: Copy`.
impl<P> Clone for Shared<P> {
    fn clone(&self) -> Self {
        *self
    }
}

#[cfg(feature = "rayon")]
impl<P> Copy for Shared<P> {}

#[cfg(feature = "rayon")]
// SAFETY: the jobs that share it move elements between slots on several
// threads (the buffer), build passes that do (the store), or hand lists of
// elements and offsets from one thread to another (the part lists): that
// needs the pointee to be `Send`. The pointer itself is only an address;
// what may be done through it is argued where it is used.
unsafe impl<P: Send> Send for Shared<P> {}
#[cfg(feature = "rayon")]
// SAFETY: see `Send`: `&Shared` only hands out the address.
unsafe impl<P: Send> Sync for Shared<P> {}

#[cfg(feature = "rayon")]
impl<P> Shared<P> {
    /// The pointer (a method, so that closures capture the whole
    /// `Shared`, not its pointer field).
    #[inline(always)]
    fn get(self) -> NonNull<P> {
        self.0
    }
}

#[cfg(feature = "rayon")]
/// How a round's `n` elements from slot `read` split into parts: `bulk`
/// parts of `per` (the last of them possibly shorter) cover the first
/// `n - taper_len` elements, then parts of `taper_per` cover the last
/// `taper_len`, so the parts claimed last are small and the workers finish
/// close together (measured with parts of a uniform size: one worker idle
/// for 0.5-1.7 ms at the end of a 30 ms round).
#[derive(Clone, Copy)]
struct Split {
    read: usize,
    per: usize,
    bulk: usize,
    taper_per: usize,
    taper_len: usize,
    n: usize,
}

#[cfg(feature = "rayon")]
impl Split {
    /// How many pieces a tapering worker's last part is cut into.
    const TAPER: usize = 4;

    /// The split of `n` elements from `read` into about `parts` parts for
    /// `threads` workers: the last `threads` parts' worth is cut into
    /// parts a `TAPER`th their size. Sizes are clamped so that nothing
    /// overflows even near `usize::MAX` (zero-sized `T`).
    fn new(read: usize, n: usize, parts: usize, threads: usize) -> Self {
        let per = n.div_ceil(parts.max(1)).max(1);
        let taper_len = per.saturating_mul(threads).min(n);
        let taper_per = per.div_ceil(Self::TAPER).max(1);
        Split {
            read,
            per,
            bulk: (n - taper_len).div_ceil(per),
            taper_per,
            taper_len,
            n,
        }
    }

    /// How many parts there are (one, empty, for an empty round).
    fn parts(self) -> usize {
        (self.bulk + self.taper_len.div_ceil(self.taper_per)).max(1)
    }

    /// Part `i`'s first slot and length (`i < parts()`).
    #[inline]
    fn part(self, i: usize) -> (usize, usize) {
        let bulk_len = self.n - self.taper_len;
        let (s, e) = if i < self.bulk {
            (i * self.per, (i + 1).saturating_mul(self.per).min(bulk_len))
        } else {
            let j = i - self.bulk;
            (
                bulk_len + j * self.taper_per,
                bulk_len
                    .saturating_add((j + 1).saturating_mul(self.taper_per))
                    .min(self.n),
            )
        };
        (self.read + s, e - s)
    }
}

#[cfg(feature = "rayon")]
/// Compacts part `i` of a round: moves its kept elements (its slots that
/// are not `holes`, in order) to `[dest, dest + kept)`. Returns how many
/// moved (an element already in its place does not) and `dest + kept`,
/// where the next part's go.
///
/// # Safety
/// `buf` and `split` are the round's (see `par_round`), part `i` was
/// walked and `holes` is its hole list; `dest` is at most the part's first
/// slot and the slots `[dest, start)` are free; no other job touches the
/// part's slots or those.
unsafe fn compact_part<T>(
    buf: *mut T,
    split: Split,
    i: usize,
    holes: &[usize],
    dest: usize,
) -> (usize, usize) {
    let (start, len) = split.part(i);
    let mut moves = 0;
    let mut to = dest;
    let mut run = |from: usize, n: usize| {
        if n > 0 && from != to {
            // SAFETY: `[from, from + n)` are initialised kept elements of
            // the part; `to < from` (kept elements only move down), and
            // the slots of `[to, to + n)` below `from` are free: the slots
            // before the part (caller), or the part's own holes and slots
            // already moved from; the rest is the run itself, which
            // `ptr::copy` allows (an overlapping move).
            unsafe { ptr::copy(real(add(buf, from)), real(add(buf, to)), n) };
            moves += n;
        }
        to += n;
    };
    let mut at = start;
    for &h in holes {
        run(at, start + h - at);
        at = start + h + 1;
    }
    run(at, start + len - at);
    (moves, to)
}

#[cfg(feature = "rayon")]
/// Aborts the process if dropped: held across code that must not unwind,
/// then forgotten.
struct AbortOnUnwind;

#[cfg(feature = "rayon")]
impl Drop for AbortOnUnwind {
    fn drop(&mut self) {
        std::process::abort();
    }
}

#[cfg(feature = "rayon")]
/// Where the compaction of a round stands (see the section comment).
struct Frontier<'a> {
    /// The first part not yet compacted.
    next: usize,
    /// Where its first kept element goes.
    dest: usize,
    /// Which parts were walked.
    walked: &'a mut [bool],
    /// Elements moved so far.
    moves: usize,
}

#[cfg(feature = "rayon")]
/// Runs one round of a parallel pass over the next `n` unvisited elements
/// of `core` (`[read, read + n)`): splits them into `parts` parts, which
/// `threads` jobs on rayon's workers claim in order, walk with `walk` and
/// compact (see the section comment). Afterwards the pass is as the serial
/// cursor leaves it
/// after visiting those elements: kept ones in order at `[buf, write)`,
/// then unvisited: the elements that followed the `n` (the pushes of the
/// round's serial start), then the parts' pushes (in part order, each in
/// push order); no hole. The auto-removed elements are in
/// [`ParScratch::removed_lists`], for the caller's removal hook.
///
/// If `walk` panics, the part's held element and its unvisited ones are
/// kept (as visited, in order), every other part is walked to its end,
/// and the first panic (in part order) is returned, with the round settled
/// as above.
///
/// Returns that; how many of the round's pushes are left in the lists
/// (the buffer could not grow for all of them, an allocation that failed,
/// so only the first ones that fit follow the unvisited elements, as the
/// serial pass keeps the pushes made before the one that cannot grow the
/// buffer: the caller hands the removed elements to the hook, then
/// [`par_settle_rest`] tries once more for the rest); and what the round
/// kept and moved, for the caller to count.
///
/// # Panics
/// On capacity overflow (zero-sized `T` only): the pass is then
/// consistent (kept elements in place, the tail unvisited) and the round's
/// pushes are left in `scratch`, which drops them. Also if an element is
/// held or the pass is buffered (a bug in the caller).
pub(crate) fn par_round<T: Send>(
    core: &mut Core<T>,
    scratch: &mut ParScratch<T>,
    n: usize,
    parts: usize,
    threads: usize,
    walk: impl Fn(Pass<'_, T>, &mut Vec<T>) + Sync,
) -> (
    Result<(), alloc::boxed::Box<dyn core::any::Any + Send + 'static>>,
    usize,
    RoundCounts,
) {
    use core::sync::atomic::{AtomicUsize, Ordering};
    use rayon::prelude::*;
    use std::panic::{catch_unwind, AssertUnwindSafe};
    use std::sync::{Mutex, PoisonError};

    assert!(!core.held && core.pending.is_none() && parts > 0);
    let c = core.c;
    // SAFETY (the `distance`s): positions ordered in one allocation.
    let (write, read, end) = unsafe {
        (
            distance(c.buf, c.write),
            distance(c.buf, c.read),
            distance(c.buf, c.end),
        )
    };
    assert!(
        n <= end - read,
        "the round is longer than what is unvisited"
    );
    let tail = end - read - n;
    let split = Split::new(read, n, parts.min(n).max(1), threads);
    let parts = split.parts();
    let ParScratch {
        holes,
        lists,
        walked,
        last_rate_ns: _,
    } = scratch;
    if holes.len() < parts {
        holes.resize_with(parts, Vec::new);
        lists.resize_with(parts, || PartLists {
            pushed: Vec::new(),
            removed: Vec::new(),
        });
        walked.resize(parts, false);
    }
    for ((h, l), w) in holes
        .iter_mut()
        .zip(lists.iter_mut())
        .zip(walked.iter_mut())
    {
        h.clear();
        // Empty unless the caller's hook loop was abandoned by a panic.
        l.removed.clear();
        debug_assert!(l.pushed.is_empty());
        *w = false;
    }
    let buf = Shared(NonNull::new(c.buf).expect("a `Vec`'s pointer is not null"));
    let part_holes = Shared(NonNull::new(holes.as_mut_ptr()).expect("not null"));
    let part_lists = Shared(NonNull::new(lists.as_mut_ptr()).expect("not null"));

    // --- The workers claim the parts in order and walk them in place;
    // after each part, the worker moves the compaction frontier on. Until
    // the frontier is past the last part, the slots `[write, end)` belong
    // to the round (the `Vec` claims nothing: leak amplification of the
    // pass). No user code runs under the frontier's lock, and nothing
    // there allocates (or unwinds).
    // A part that panics stops there (its held and unvisited elements are
    // kept, in order); the others run to their ends. The first panic (in
    // part order) is returned.
    let store = Shared(core.store);
    let claim = AtomicUsize::new(0);
    let frontier = Mutex::new(Frontier {
        next: 0,
        dest: write,
        walked: &mut walked[..parts],
        moves: 0,
    });
    let first_panic: Mutex<Option<(usize, alloc::boxed::Box<dyn core::any::Any + Send>)>> =
        Mutex::new(None);
    let work = || loop {
        let i = claim.fetch_add(1, Ordering::Relaxed);
        if i >= parts {
            return;
        }
        let (start, len) = split.part(i);
        let walk_result = {
            // SAFETY: part `i` is claimed by this job alone (the counter
            // hands every index out once), so its hole list and element
            // lists are borrowed by nothing else until it is marked walked
            // (the borrows end with this block); other parts' are other
            // elements of the same arrays.
            let (holes_i, lists_i) = unsafe {
                (
                    &mut *part_holes.get().as_ptr().add(i),
                    &mut *part_lists.get().as_ptr().add(i),
                )
            };
            // SAFETY: part `i`'s slots are initialised (unvisited elements of
            // the pass), disjoint from every other part's, and no compaction
            // touches them before the part is marked walked (below); the store
            // is only read meanwhile.
            let pass = unsafe {
                Pass::part(
                    store.get(),
                    add(buf.get().as_ptr(), start),
                    len,
                    &mut lists_i.pushed,
                    holes_i,
                )
            };
            catch_unwind(AssertUnwindSafe(|| walk(pass, &mut lists_i.removed)))
        };
        if let Err(payload) = walk_result {
            // The payload that loses is dropped after the lock is released:
            // its `Drop` is user code.
            let loser = {
                let mut first = first_panic.lock().unwrap_or_else(PoisonError::into_inner);
                match &*first {
                    Some((j, _)) if *j < i => Some(payload),
                    _ => first.replace((i, payload)).map(|(_, later)| later),
                }
            };
            if let Some(loser) = loser {
                crate::sync::discard_panic(loser);
            }
        }
        let mut f = frontier.lock().unwrap_or_else(PoisonError::into_inner);
        f.walked[i] = true;
        while f.next < parts && f.walked[f.next] {
            let k = f.next;
            // SAFETY: part `k` was walked (its walker is done with its
            // hole list: the lock orders that before this); parts before
            // it are compacted, so `[dest, start_k)` is free; parts after
            // it lie above its slots; only the lock holder compacts.
            let holes_k = unsafe { &*part_holes.get().as_ptr().add(k) };
            // SAFETY: as above (`compact_part`'s contract).
            let (moved, next_dest) =
                unsafe { compact_part(buf.get().as_ptr(), split, k, holes_k, f.dest) };
            f.moves += moved;
            f.dest = next_dest;
            f.next += 1;
        }
    };
    // From here until the counters are rewritten the buffer holds holes
    // the pass does not know about: an unwind (only a bug, or an
    // allocation failure in rayon whose handler unwinds) would let the
    // pass drop uninitialised slots. Abort instead.
    let no_unwind = AbortOnUnwind;
    if parts == 1 || threads < 2 {
        work();
    } else {
        (0..threads).into_par_iter().for_each(|_| work());
    }
    let f = frontier
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    if f.next != parts {
        // Cannot happen: every part is claimed and walked (a panic in
        // `walk` is caught), and its walker moves the frontier on after
        // it. Were it a bug, the parts past the frontier would hold holes:
        // abort rather than unwind over them.
        std::process::abort();
    }
    let (new_write, moves) = (f.dest, f.moves);
    let ran = first_panic
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .map_or(Ok(()), |(_, payload)| Err(payload));
    for h in holes.iter_mut() {
        h.clear();
    }

    // --- the elements after the round (`tail` of them), then the pushes,
    // right after the kept elements (no hole). The counters first, so that
    // a growth failure below leaves a consistent pass: kept
    // `[0, new_write)`, the tail unvisited.
    let tail_from = read + n;
    // SAFETY: `[tail_from, end)` is initialised and untouched by the
    // round; `new_write <= tail_from`, and `[new_write, tail_from)` is free
    // after the compaction; `ptr::copy` allows the overlap.
    unsafe {
        if tail > 0 && tail_from != new_write {
            ptr::copy(
                real(add(c.buf, tail_from)),
                real(add(c.buf, new_write)),
                tail,
            );
        }
        core.c.write = add(c.buf, new_write);
        core.c.read = core.c.write;
        core.c.gap = false;
        core.c.end = add(c.buf, new_write + tail);
    }
    mem::forget(no_unwind);
    let counts = RoundCounts {
        kept: new_write - write,
        moves,
    };
    // The round's pushes follow, as many as the buffer can be grown for:
    // a growth that fails leaves the rest in the lists, in order, for
    // `par_settle_rest` once the removal hook has run.
    let left = settle_pushes(core, &mut lists[..parts], true);
    (ran, left, counts)
}

#[cfg(feature = "rayon")]
/// What a parallel round did (see [`par_round`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RoundCounts {
    /// The round's elements it kept.
    pub(crate) kept: usize,
    /// Kept elements it moved (one already in its place does not move).
    pub(crate) moves: usize,
}

#[cfg(feature = "rayon")]
/// After a round whose growth failed (`par_round` left `left > 0` pushes
/// in the lists) and whose removed elements went to the hook: grows the
/// buffer for the rest of the round's pushes and appends them, or panics
/// as `Vec::reserve` does (capacity overflow, or the allocation error
/// handler) leaving them in the lists, which the caller drops.
pub(crate) fn par_settle_rest<T>(core: &mut Core<T>, scratch: &mut ParScratch<T>) {
    let left = settle_pushes(core, &mut scratch.lists, false);
    debug_assert_eq!(left, 0, "a growth that cannot fail left pushes behind");
}

#[cfg(feature = "rayon")]
/// Moves the pushes queued in `lists` (list after list, each in push
/// order) to the end of the pass's elements, `[0, end)` of `core`'s
/// buffer (the kept elements of the round, then the unvisited ones after
/// it: its tail), and points the counters past them; a round has just
/// ended, so the next element to visit is at `write`. Returns how many
/// pushes it left in the lists.
///
/// Grows the buffer first. With `fallible`, a growth that fails moves
/// only the pushes that fit (the first ones) and leaves the rest at the
/// front of the lists, in order; without, a growth that fails panics as
/// `Vec::reserve` does, before anything moved. Nothing else can fail: the
/// counters are consistent before and after.
fn settle_pushes<T>(core: &mut Core<T>, lists: &mut [PartLists<T>], fallible: bool) -> usize {
    let c = core.c;
    // SAFETY (the `distance`s): positions ordered in one allocation.
    let (write, unvisited) = unsafe { (distance(c.buf, c.write), distance(c.buf, c.end)) };
    let pushed = lists
        .iter()
        .try_fold(0usize, |sum, l| sum.checked_add(l.pushed.len()));
    let Some(pushed) = pushed.filter(|&p| unvisited.checked_add(p).is_some()) else {
        // Zero-sized `T` only (elements that take memory would have
        // overflowed their allocation first), as a serial push would.
        capacity_overflow();
    };
    if pushed == 0 {
        return 0;
    }
    // SAFETY: `store` is uniquely borrowed for the pass, and nothing else
    // refers to it during this call.
    let store = unsafe { core.store.as_mut() };
    let mut room = pushed;
    if mem::size_of::<T>() != 0 && store.vec.capacity() - unvisited < pushed {
        // The `Vec` briefly claims the kept and tail elements, so that
        // growing carries them over; the guard takes the claim back on
        // every exit (see `make_room`).
        let guard = OwnNothing(&mut store.vec);
        // SAFETY: `[0, unvisited)` is initialised.
        unsafe { guard.0.set_len(unvisited) };
        if !fallible {
            guard.0.reserve(pushed);
        } else if guard.0.try_reserve(pushed).is_err() {
            room = guard.0.capacity() - unvisited;
        }
    }
    let buf = store.vec.as_mut_ptr();
    let mut at = unvisited;
    for l in lists.iter_mut() {
        let len = l.pushed.len();
        let k = len.min(room);
        if k == 0 {
            continue;
        }
        let src = l.pushed.as_mut_ptr();
        // SAFETY: `at + k <= unvisited + room <= capacity` (for zero-sized
        // `T` the capacity is unlimited), the slots past `unvisited` are
        // free; the list's first `k` values move out, the rest (if any)
        // move to its front (`ptr::copy` allows the overlap), and its
        // length forgets the slots they left.
        unsafe {
            ptr::copy_nonoverlapping(real(src), real(add(buf, at)), k);
            if k < len {
                ptr::copy(real(add(src, k)), real(src), len - k);
            }
            l.pushed.set_len(len - k);
        }
        at += k;
        room -= k;
    }
    let limit = store.vec.capacity().min(store.max).max(at);
    // SAFETY: all within the (possibly new) allocation.
    unsafe {
        core.c.buf = buf;
        core.c.write = add(buf, write);
        core.c.read = core.c.write;
        core.c.gap = false;
        core.c.end = add(buf, at);
        core.c.limit = add(buf, limit);
    }
    pushed - (at - unvisited)
}

#[cfg(all(test, feature = "rayon"))]
mod split_tests {
    use super::Split;
    use alloc::vec::Vec;

    /// Every part of `split`, in order.
    fn parts_of(split: Split) -> Vec<(usize, usize)> {
        (0..split.parts()).map(|i| split.part(i)).collect()
    }

    #[test]
    fn a_rounds_parts_cover_it_in_order_and_taper_at_the_end() {
        for n in [0, 1, 2, 7, 100, 1000, 4096, 10_007, 1_000_000] {
            for parts in [1, 2, 3, 8, 37, 5000] {
                for threads in [1, 2, 3, 8] {
                    let split = Split::new(5, n, parts.min(n).max(1), threads);
                    let got = parts_of(split);
                    // Contiguous, in order, from `read` to `read + n`.
                    let mut at = 5;
                    for &(start, len) in &got {
                        assert_eq!(start, at, "n {n} parts {parts} threads {threads}");
                        assert!(len > 0 || n == 0);
                        at += len;
                    }
                    assert_eq!(at, 5 + n);
                    if n == 0 {
                        assert_eq!(got, [(5, 0)]);
                        continue;
                    }
                    // The parts claimed last are a quarter of the others
                    // (rounded up), and no part is longer than the first.
                    let per = n.div_ceil(parts.min(n));
                    let last = got.last().unwrap().1;
                    assert!(last <= per.div_ceil(Split::TAPER));
                    assert!(got.iter().all(|&(_, len)| len <= got[0].1));
                }
            }
        }
        // A round of 1M elements in 37 parts on 2 threads: 35 parts of
        // 27,028 (the last one shorter), then 8 of 6,757.
        let split = Split::new(0, 1_000_000, 37, 2);
        let got = parts_of(split);
        assert_eq!(got.len(), 35 + 8);
        assert_eq!(got[0], (0, 27_028));
        assert_eq!(got[35].1, 6_757);
    }

    /// No overflow near `usize::MAX` (zero-sized elements).
    #[test]
    fn a_split_of_nearly_usize_max_elements_does_not_overflow() {
        let n = usize::MAX - 10;
        let split = Split::new(3, n, 4, 2);
        let got = parts_of(split);
        let total = got
            .iter()
            .fold(0usize, |t, &(_, len)| t.checked_add(len).unwrap());
        assert_eq!(total, n);
        assert_eq!(
            got.last().map(|&(s, l)| s.checked_add(l)),
            Some(Some(3 + n))
        );
    }
}

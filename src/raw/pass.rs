//! One pass over a store: its state (`Core`), the borrow that finishes it
//! (`Pass`), its pushes and growth, and the handle an entry holds.

use alloc::vec::Vec;
use core::marker::PhantomData;
use core::mem;
use core::ptr::{self, NonNull};
use core::slice;

#[cfg(feature = "std")]
use super::pass_end::{EndHook, PassEnd};
use super::positions::{add, distance, next, prev, real, Counters};
use super::store::Store;

/// The state of one pass. It has no lifetime so that `Entry<'c, T>` can
/// borrow it without naming the collection's borrow; [`Pass`] carries that
/// lifetime and finishes the pass on drop.
///
/// Invariant: `c` satisfies the `Counters` invariant for the allocation of
/// `store.vec` (whose length is 0 until `finish`), `held` implies
/// `write > buf`.
pub(crate) struct Core<T> {
    pub(super) store: NonNull<Store<T>>,
    /// Where pushes go in a buffered pass; `None`: appended to this pass.
    pub(super) pending: Option<NonNull<Vec<T>>>,
    pub(super) c: Counters<T>,
    pub(super) held: bool,
    unordered: bool,
    done: bool,
    /// A part of a parallel round (see `par_round`): removing the held
    /// element leaves it a hole, listed here (as an offset from `buf`),
    /// instead of moving the kept prefix, so `write == read` throughout.
    #[cfg(feature = "rayon")]
    holes: Option<NonNull<Vec<usize>>>,
    /// A bounded queue's pass: where it hands its room back when it
    /// finishes (see `Pass::begin_buffered`).
    #[cfg(feature = "std")]
    room: Option<EndHook>,
}

// SAFETY: a `Core<T>` is a unique borrow of a `Store<T>` (and possibly of a
// pending `Vec<T>`), like `&mut Vec<T>`, which is `Send` iff `T: Send` and
// `Sync` iff `T: Sync`. Its raw pointers are never shared with anything else.
// It may also hold a `PassEnd<T>` (`room`), called when the pass finishes,
// on whichever thread finishes it: `PassEnd`'s contract makes that sound
// when `T: Send`.
unsafe impl<T: Send> Send for Core<T> {}
// SAFETY: see the `Send` impl; `&Core<T>` only hands out `&T` (and never
// reaches `room`, which only `finish`, through `&mut`, uses).
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
            #[cfg(feature = "std")]
            room: None,
        };
        Pass {
            core,
            _borrow: PhantomData,
        }
    }

    /// Starts a buffered pass (pushes go to `pending`); with `room`, a
    /// bounded queue's: when the pass ends ([`Core::finish`], which runs
    /// on every way a pass ends, panics in the policy included), the
    /// collection's count is published through it.
    #[cfg(feature = "std")]
    #[inline(always)]
    pub(crate) fn begin_buffered<H: PassEnd<T>>(
        store: &'a mut Store<T>,
        pending: &'a mut Vec<T>,
        room: Option<&'a H>,
    ) -> Self {
        let mut pass = Self::begin(store, Some(pending));
        // Valid while the pass lives: `room` is borrowed for as long.
        pass.core.room = room.map(EndHook::new::<T, H>);
        pass
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
    pub(super) unsafe fn part(
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
                #[cfg(feature = "std")]
                room: None,
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

    /// The pass's positions as indices: (`write`, `read`, `end`). A caller
    /// that keeps something in step with the buffer (the keyed
    /// collection's slot list) reads from them which elements moved;
    /// nothing in here reports moves, so the other collections pay nothing.
    #[inline(always)]
    pub(crate) fn indices(&self) -> (usize, usize, usize) {
        let c = &self.c;
        // SAFETY: `buf <= write <= read <= end` in one allocation
        // (invariant).
        unsafe {
            (
                distance(c.buf, c.write),
                distance(c.buf, c.read),
                distance(c.buf, c.end),
            )
        }
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
            #[cfg(feature = "std")]
            room: self.room,
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
        finish_pass(
            self.store,
            c.buf,
            c.write,
            c.read,
            c.end,
            #[cfg(feature = "std")]
            self.room,
            #[cfg(feature = "std")]
            self.pending,
        );
    }

    /// [`finish`](Self::finish), telling `x` first how the hole closes
    /// (for a collection that keeps something in step with the buffer).
    /// One out-of-line call, as `finish` is: a cursor's drop glue stays
    /// small enough to be inlined into the unwind paths of the caller's
    /// loop, which keeps the pass state in registers.
    #[inline(always)]
    pub(crate) fn finish_and<X: AtPassEnd>(&mut self, x: &mut X) {
        if self.done {
            return;
        }
        #[cfg(feature = "std")]
        debug_assert!(
            self.room.is_none() && self.pending.is_none(),
            "a buffered pass keeps nothing in step"
        );
        self.done = true;
        self.held = false;
        let c = self.c;
        finish_pass_and(self.store, c.buf, c.write, c.read, c.end, NonNull::from(x));
    }
}

/// Something kept in step with a pass's buffer by its caller (the keyed
/// collection's list of slots by position), told when the pass ends how
/// its hole closes. `raw` names nothing above it: the caller implements
/// this, and only its passes pay for it ([`Core::finish_and`]).
pub(crate) trait AtPassEnd {
    /// The pass ends: the elements from index `read` to the end move down
    /// to index `write` (nothing moves when the two are equal). Must not
    /// unwind: it runs where unwinding aborts.
    fn closing(&mut self, write: usize, read: usize);
}

/// At the end of a bounded queue's pass (see `finish_pass`): tells its
/// `PassEnd` the collection's count, `visible` plus pending.
#[cfg(feature = "std")]
#[cold]
#[inline(never)]
fn release_room<T>(room: EndHook, visible: usize, pending: Option<NonNull<Vec<T>>>) {
    // SAFETY: the pass's borrow of the pending buffer (`Pass::begin`)
    // still lives, and nothing else refers to it; the reference ends on
    // this line.
    let owned = visible + pending.map_or(0, |p| unsafe { p.as_ref().len() });
    // SAFETY: made by `Pass::begin_buffered` from a reference that lives
    // as long as the pass, which is finishing here, on its thread.
    unsafe { room.call(owned) };
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
pub(super) fn grown_capacity(max: usize, cap: usize) -> usize {
    cap.saturating_mul(2).max(4).min(max)
}

/// Resets the `Vec`'s length to 0 when dropped (see [`make_room`]).
pub(super) struct OwnNothing<'a, T>(pub(super) &'a mut Vec<T>);

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
    #[cfg(feature = "std")] room: Option<EndHook>,
    #[cfg(feature = "std")] pending: Option<NonNull<Vec<T>>>,
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
    // A bounded queue's pass (see `Pass::begin_buffered`): the room it kept
    // for its pushes and the room its removals freed go back to the
    // producers. (Here, out of line, and not in `Core::finish`: there,
    // even a branch that a collection's pass never takes cost `traverse`'s
    // loop 21.6 -> 24.0 instructions per element.)
    #[cfg(feature = "std")]
    if let Some(room) = room {
        release_room(room, kept + tail, pending);
    }
}

/// [`finish_pass`] for [`Core::finish_and`]: tells `x` how the hole
/// closes, then closes it. `extern "C"` for the same reason as
/// `finish_pass` (an `AtPassEnd` must not unwind; if it does, the process
/// aborts).
#[inline(never)]
#[allow(improper_ctypes_definitions)] // never called from C: `extern "C"` only for `nounwind`
extern "C" fn finish_pass_and<T, X: AtPassEnd>(
    store: NonNull<Store<T>>,
    buf: *mut T,
    write: *mut T,
    read: *mut T,
    end: *mut T,
    mut x: NonNull<X>,
) {
    // SAFETY: the positions are ordered in one allocation (the `Counters`
    // invariant of the pass being finished).
    let (w, r) = unsafe { (distance(buf, write), distance(buf, read)) };
    // SAFETY: `x` comes from a `&mut X` that `Core::finish_and` holds for
    // the length of this call; nothing else refers to it.
    unsafe { x.as_mut() }.closing(w, r);
    finish_pass(
        store,
        buf,
        write,
        read,
        end,
        #[cfg(feature = "std")]
        None,
        #[cfg(feature = "std")]
        None,
    );
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

    /// The other elements of the pass while this one is held: the kept
    /// ones before it, `[buf, write - 1)`, and the unvisited ones after
    /// it, `[read, end)` (the rest of the elements the pass started with,
    /// then its pushes). The hole between is not in either.
    ///
    /// # Panics
    /// In a part of a parallel round, whose kept prefix may have holes in
    /// it (a bug in the caller: its entries do not offer this).
    #[inline]
    pub(crate) fn others(&self) -> (&[T], &[T]) {
        let ((before, kept), (after, unvisited)) = self.other_regions();
        // SAFETY: `other_regions` gives two runs of initialised elements,
        // disjoint from each other and from the held one, which stay in
        // place while `&self` borrows the pass (only `push` moves the
        // buffer, and it takes `&mut self`).
        unsafe {
            (
                slice::from_raw_parts(before, kept),
                slice::from_raw_parts(after, unvisited),
            )
        }
    }

    /// [`others`](Self::others), mutably, with the held element.
    ///
    /// # Panics
    /// In a part of a parallel round, as `others`.
    #[inline]
    pub(crate) fn split_others(&mut self) -> (&mut T, &mut [T], &mut [T]) {
        let ((before, kept), (after, unvisited)) = self.other_regions();
        // SAFETY: as in `others`; the three are disjoint (`ptr` is slot
        // `write - 1`, between the two runs), and `&mut self` makes these
        // the only references to them until they are dropped.
        unsafe {
            (
                self.ptr.as_mut(),
                slice::from_raw_parts_mut(before, kept),
                slice::from_raw_parts_mut(after, unvisited),
            )
        }
    }

    /// The start and length of the kept elements before the held one and
    /// of the unvisited ones after it. Both runs are initialised, and
    /// neither contains slot `write - 1` (the held element) or the hole.
    #[inline(always)]
    fn other_regions(&self) -> ((*mut T, usize), (*mut T, usize)) {
        #[cfg(feature = "rayon")]
        assert!(
            self.core.holes.is_none(),
            "the other elements of a parallel round's part are not in reach"
        );
        let c = &self.core.c;
        // SAFETY: held, so `buf < write` and `write - 1` is a slot; by the
        // `Counters` invariant `buf <= write - 1` and `read <= end` in one
        // allocation. Outside a parallel part (checked above), every slot
        // of `[buf, write)` is initialised (kept, the last one held), and
        // so is every slot of `[read, end)` (module docs).
        let (kept, unvisited) =
            unsafe { (distance(c.buf, prev(c.write)), distance(c.read, c.end)) };
        ((real(c.buf), kept), (real(c.read), unvisited))
    }

    /// The pass's positions as indices (see [`Core::indices`]).
    #[inline(always)]
    pub(crate) fn indices(&self) -> (usize, usize, usize) {
        self.core.indices()
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

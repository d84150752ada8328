//! The traversal engine: the only module with `unsafe` code.
//!
//! One pass over a [`Store`] is driven by a [`Core`]. The safe modules
//! (`cursor`, `collection`, `buffered`, `layers`) only call the safe methods
//! below; every invariant the `unsafe` blocks rely on is established and kept
//! here.
//!
//! # Buffer state during a pass (ordered mode)
//!
//! ```text
//!  0                write-1   write         read              end        cap
//!  |   kept          | held?  |    hole       |  unvisited+pushed |  spare   |
//!  +-----------------+--------+---------------+-------------------+----------+
//!   initialised                 moved out/      initialised         uninit
//!                               removed
//! ```
//!
//! * `[0, write)`: elements visited and kept, in order. When `held`, the
//!   last of them (`write - 1`) is the element the user holds through an
//!   `Entry`: it was moved there from `read - 1` when it was yielded (so every
//!   kept element moves at most once per pass) and counts as kept until it is
//!   removed. Removing it is `write -= 1` and a read out of the slot.
//! * `[write, read)`: the hole, logically uninitialised.
//! * `[read, end)`: not yet visited: the rest of the original elements, then
//!   everything pushed during the pass, in push order.
//!
//! Counting the held element as kept from the moment it is yielded keeps the
//! per-element work of the common case (keep) to a copy and two increments,
//! and makes every exit (`finish`) treat it as kept without a flag.
//!
//! Unordered mode keeps `read == write` (no hole): removing the held element
//! moves the last unvisited element (`end - 1`) into its slot, and that slot
//! is visited next.
//!
//! # Leak amplification
//!
//! [`Core::begin`] sets the `Vec`'s length to 0 before anything else happens.
//! Until [`Core::finish`] writes the final length, the `Vec` claims to own
//! nothing, so a pass that never finishes (the cursor was passed to
//! `mem::forget`) leaks its elements instead of exposing moved-out slots. The
//! collection stays usable (and empty).
//!
//! # Calling out
//!
//! No user code runs inside this module. The callers run user code (entry
//! bodies, predicates, hooks) only between calls, when the state above is
//! complete: a panic there unwinds into `Pass::drop`, which finishes the
//! pass with the held element kept.

use alloc::vec::Vec;
use core::marker::PhantomData;
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
}

impl<T> Store<T> {
    pub(crate) const fn new(vec: Vec<T>) -> Self {
        Store {
            vec,
            max: usize::MAX,
            unordered: false,
            shrink: None,
            low_passes: 0,
        }
    }

    /// Grows the allocation past its current capacity (amortised doubling),
    /// never past `max`. Only moves `[0, len)`.
    ///
    /// The caller has checked `capacity < max`.
    pub(crate) fn grow(&mut self) {
        let len = self.vec.len();
        let cap = self.vec.capacity();
        debug_assert!(cap < self.max);
        if self.max == usize::MAX {
            // `reserve` doubles: the new capacity is at least `2 * cap`.
            self.vec.reserve(cap - len + 1);
        } else {
            let target = cap.saturating_mul(2).max(4).min(self.max);
            self.vec.reserve_exact(target - len);
        }
    }

    fn after_pass(&mut self) {
        let Some(policy) = self.shrink else { return };
        let len = self.vec.len();
        let cap = self.vec.capacity();
        if (len as u128) * 100 < (cap as u128) * u128::from(policy.percent) {
            self.low_passes = self.low_passes.saturating_add(1);
            if self.low_passes >= policy.passes {
                self.low_passes = 0;
                // Keep room to double before the next reallocation.
                self.vec.shrink_to(len.saturating_mul(2));
            }
        } else {
            self.low_passes = 0;
        }
    }
}

/// The state of one pass. It has no lifetime so that `Entry<'c, T>` can
/// borrow it without naming the collection's borrow; [`Pass`] carries that
/// lifetime and finishes the pass on drop.
///
/// Invariant: `write <= read <= end <= cap`, `held` implies `write > 0`,
/// and the buffer regions
/// are as drawn in the module docs. `buf` and `cap` always describe the
/// current allocation of `store.vec`.
pub(crate) struct Core<T> {
    store: NonNull<Store<T>>,
    /// Where pushes go in a buffered pass; `None`: appended to this pass.
    pending: Option<NonNull<Vec<T>>>,
    /// The buffer and the indices; a separate `Copy` struct so the slow
    /// paths can take and return them by value.
    c: Counters<T>,
    held: bool,
    unordered: bool,
    done: bool,
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
    pub(crate) fn begin(store: &'a mut Store<T>, pending: Option<&'a mut Vec<T>>) -> Self {
        let end = store.vec.len();
        // Leak amplification: from here until `finish`, the `Vec` owns nothing.
        // SAFETY: 0 <= capacity, and a length of 0 asserts nothing about the
        // elements, which the `Core` now tracks.
        unsafe { store.vec.set_len(0) };
        let buf = store.vec.as_mut_ptr();
        let cap = store.vec.capacity();
        let core = Core {
            c: Counters {
                buf,
                cap,
                write: 0,
                read: 0,
                end,
                max: store.max,
            },
            unordered: store.unordered,
            store: NonNull::from(store),
            pending: pending.map(NonNull::from),
            held: false,
            done: false,
        };
        Pass {
            core,
            _borrow: PhantomData,
        }
    }

    #[inline]
    pub(crate) fn core(&mut self) -> &mut Core<T> {
        &mut self.core
    }

    #[inline]
    pub(crate) fn core_ref(&self) -> &Core<T> {
        &self.core
    }
}

impl<T> Drop for Pass<'_, T> {
    #[inline]
    fn drop(&mut self) {
        // Runs no user code: it only moves bytes and sets the length.
        self.core.finish();
    }
}

impl<T> Core<T> {
    /// Whether an element is held (yielded and not removed, not yet moved on
    /// from).
    #[inline]
    pub(crate) fn held(&self) -> bool {
        self.held
    }

    /// Elements not yet visited, pushed ones included.
    #[inline]
    pub(crate) fn remaining(&self) -> usize {
        self.c.end - self.c.read
    }

    /// Elements the collection would hold if the pass finished now.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.c.write + (self.c.end - self.c.read)
    }

    /// The held element.
    ///
    /// # Panics
    /// If no element is held (a bug in the caller).
    #[inline]
    pub(crate) fn current(&self) -> &T {
        assert!(self.held, "no element is held");
        // SAFETY: while `held`, `write >= 1` and slot `write - 1` is
        // initialised (module docs); the shared borrow of `self` keeps it from
        // moving or being removed.
        unsafe { &*self.c.buf.add(self.c.write - 1) }
    }

    /// Settles the held element as kept (it already is; this just ends
    /// holding it).
    #[inline]
    pub(crate) fn keep_current(&mut self) {
        self.held = false;
    }

    /// Removes the held element and returns it.
    ///
    /// # Panics
    /// If no element is held (a bug in the caller).
    #[inline]
    pub(crate) fn take_current(&mut self) -> T {
        assert!(self.held, "no element is held");
        // Bookkeeping first: from here slot `write` is part of the hole.
        self.held = false;
        self.c.write -= 1;
        // SAFETY: slot `write` (the old `write - 1`) was initialised (it was
        // held); the decrement above made it logically uninitialised, so it
        // is read exactly once.
        let value = unsafe { ptr::read(self.c.buf.add(self.c.write)) };
        if self.unordered {
            // Fill the slot from the end; that element is visited next.
            self.c.end -= 1;
            if self.c.end != self.c.write {
                // SAFETY: in unordered mode `read == write + 1` here, so the
                // old `end - 1 >= read` is an initialised unvisited slot
                // distinct from `write`; moving it makes `end` spare.
                unsafe {
                    ptr::copy_nonoverlapping(
                        self.c.buf.add(self.c.end),
                        self.c.buf.add(self.c.write),
                        1,
                    )
                };
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
    #[inline]
    pub(crate) fn advance(&mut self) -> bool {
        if self.c.read == self.c.end {
            self.held = false;
            return false;
        }
        if self.c.read != self.c.write {
            // SAFETY: `write < read < end`: `read` is initialised and
            // unvisited, `write` is the first hole slot; one element, so no
            // overlap. After the copy `read` belongs to the hole.
            unsafe {
                ptr::copy_nonoverlapping(
                    self.c.buf.add(self.c.read),
                    self.c.buf.add(self.c.write),
                    1,
                )
            };
        }
        self.c.read += 1;
        self.c.write += 1;
        self.held = true;
        true
    }

    /// A handle on the held element for an `Entry`.
    ///
    /// # Panics
    /// If no element is held (a bug in the caller).
    #[inline]
    pub(crate) fn held_ref(&mut self) -> HeldRef<'_, T> {
        assert!(self.held, "no element is held");
        // SAFETY: `write >= 1` while held, and `write - 1 < cap`.
        let ptr = unsafe { NonNull::new_unchecked(self.c.buf.add(self.c.write - 1)) };
        HeldRef { core: self, ptr }
    }

    /// Appends `value` (visited later in this pass), or puts it in the
    /// pending buffer of a buffered pass. Gives it back when the collection
    /// is at its maximum length.
    ///
    /// The slow paths are out-of-line functions that take the counters by
    /// value, never `&mut self`, so they do not make a `Core`'s address
    /// escape. (The unwind path of a caller that can panic still keeps the
    /// counters in memory; see the benchmark notes in the README.)
    #[inline(always)]
    pub(crate) fn push(&mut self, value: T) -> Result<(), T> {
        if let Some(pending) = self.pending {
            return push_pending(pending, value, self.c.max.saturating_sub(self.len()));
        }
        if self.len() >= self.c.max {
            return Err(value);
        }
        if self.c.end == self.c.cap {
            self.c = make_room(self.store, self.c);
        }
        debug_assert!(self.c.end < self.c.cap);
        // SAFETY: `end < cap`, and slot `end` is spare (uninitialised).
        unsafe { ptr::write(self.c.buf.add(self.c.end), value) };
        self.c.end += 1;
        Ok(())
    }

    /// Ends the pass: closes the hole behind the unvisited elements and
    /// sets the final length (a held element is kept: it is already in the
    /// kept prefix). Idempotent.
    #[inline]
    pub(crate) fn finish(&mut self) {
        if self.done {
            return;
        }
        self.done = true;
        self.held = false;
        finish_pass(
            self.store,
            self.c.buf,
            self.c.write,
            self.c.read,
            self.c.end,
        );
    }
}

/// A pass's buffer and indices (see the module docs for what they mean).
/// `*mut T` also makes `Core` invariant in `T`, as `&mut Vec<T>` is.
struct Counters<T> {
    buf: *mut T,
    cap: usize,
    write: usize,
    read: usize,
    end: usize,
    max: usize,
}

// Not derived: a derive would require `T: Copy`.
impl<T> Clone for Counters<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Counters<T> {}

/// Pushes into a buffered pass's pending `Vec` if fewer than `room` more
/// elements would exceed the maximum length.
#[inline]
fn push_pending<T>(mut pending: NonNull<Vec<T>>, value: T, room: usize) -> Result<(), T> {
    // SAFETY: `pending` is a unique borrow for the whole pass (`Pass::begin`
    // took `&'a mut Vec<T>`), and no other reference to it is alive.
    let pending = unsafe { pending.as_mut() };
    if pending.len() >= room {
        return Err(value);
    }
    pending.push(value);
    Ok(())
}

/// Makes `end < cap` for a pass in state `c`, by closing the hole and/or
/// growing the buffer. Returns the new counters (`write` is unchanged).
#[cold]
#[inline(never)]
fn make_room<T>(mut store: NonNull<Store<T>>, mut c: Counters<T>) -> Counters<T> {
    let hole = c.read - c.write;
    let tail = c.end - c.read;
    if hole > 0 {
        // SAFETY: `[read, end)` is initialised and `[write, read)` is the
        // hole; `ptr::copy` allows the overlap. Afterwards
        // `[write, write + tail)` holds the unvisited elements in order and
        // there is no hole. The held element (`write - 1`) does not move.
        unsafe { ptr::copy(c.buf.add(c.read), c.buf.add(c.write), tail) };
        c.read = c.write;
        c.end = c.write + tail;
    }
    // Grow when full, and also when the hole was small next to the tail
    // (else "remove one, push one" would shift the tail on every push).
    let freed_little = hole.saturating_mul(4) < tail;
    if c.end == c.cap || (freed_little && c.cap < c.max) {
        // SAFETY: `store` is uniquely borrowed for the pass; no reference to
        // it is alive across this call. References into the buffer are:
        // `HeldRef::push` re-derives its pointer after this returns.
        let store = unsafe { store.as_mut() };
        // SAFETY: there is no hole now, so `[0, end)` is initialised and
        // `end <= cap`. Growing with this length keeps every live element.
        unsafe { store.vec.set_len(c.end) };
        // If this panics (capacity overflow), the `Vec` claims `[0, end)`,
        // which is all initialised, and the caller's counters are unchanged
        // and still describe the buffer; `finish` later rewrites the length.
        store.grow();
        // SAFETY: leak amplification again, as in `begin`.
        unsafe { store.vec.set_len(0) };
        c.buf = store.vec.as_mut_ptr();
        c.cap = store.vec.capacity();
    }
    c
}

/// Closes the hole of a pass and writes the final length.
#[inline(never)]
fn finish_pass<T>(
    mut store: NonNull<Store<T>>,
    buf: *mut T,
    write: usize,
    read: usize,
    end: usize,
) {
    let tail = end - read;
    if read != write && tail > 0 {
        // SAFETY: `[read, end)` is initialised, `[write, read)` is the hole;
        // `ptr::copy` allows overlap.
        unsafe { ptr::copy(buf.add(read), buf.add(write), tail) };
    }
    let len = write + tail;
    // SAFETY: `store` is uniquely borrowed for the pass and nothing else
    // refers to it now.
    let store = unsafe { store.as_mut() };
    // SAFETY: `[0, len)` is initialised after the move above, and
    // `len <= end <= cap`.
    unsafe { store.vec.set_len(len) };
    store.after_pass();
}

/// The held element of a pass, as an `Entry` sees it: the pass plus a
/// pointer to the element, so that reading and writing the element costs
/// no bookkeeping loads.
///
/// Invariant: `core.held`, and `ptr == core.buf + core.write - 1`. Only
/// `push` can move the buffer, and it re-derives `ptr`.
pub(crate) struct HeldRef<'c, T> {
    core: &'c mut Core<T>,
    ptr: NonNull<T>,
}

// SAFETY: a `HeldRef<T>` is a unique borrow of a pass and of one of its
// elements, like `&mut T`: `Send` iff `T: Send`, `Sync` iff `T: Sync`.
unsafe impl<T: Send> Send for HeldRef<'_, T> {}
// SAFETY: see the `Send` impl; `&HeldRef<T>` only hands out `&T`.
unsafe impl<T: Sync> Sync for HeldRef<'_, T> {}

impl<T> HeldRef<'_, T> {
    #[inline]
    pub(crate) fn get(&self) -> &T {
        // SAFETY: by the invariant, `ptr` is the held, initialised element;
        // it stays in place while `self` borrows the pass.
        unsafe { self.ptr.as_ref() }
    }

    #[inline]
    pub(crate) fn get_mut(&mut self) -> &mut T {
        // SAFETY: as in `get`; `&mut self` makes this the only reference.
        unsafe { self.ptr.as_mut() }
    }

    #[inline]
    pub(crate) fn take(self) -> T {
        self.core.take_current()
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, value: T) -> Result<(), T> {
        let result = self.core.push(value);
        // The buffer may have moved (growth) or the held element may have
        // been shifted (closing the hole does not move `[0, write)`, but
        // growth reallocates): re-derive the pointer.
        // SAFETY: still held, so `write >= 1` and `write - 1 < cap`.
        self.ptr = unsafe { NonNull::new_unchecked(self.core.c.buf.add(self.core.c.write - 1)) };
        result
    }
}

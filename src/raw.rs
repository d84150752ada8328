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
//!  0            write  write+held      read              end        cap
//!  |   kept       | held |    hole       |  unvisited+pushed |  spare   |
//!  +--------------+------+---------------+-------------------+----------+
//!   initialised    init    moved out/      initialised         uninit
//!                 (if held) removed
//! ```
//!
//! * `[0, write)`: elements already visited and kept, in order.
//! * `write` (only when `held`): the element the user holds through an
//!   `Entry`. It was moved there from `read - 1` when it was yielded, so every
//!   kept element moves at most once per pass.
//! * `[write + held, read)`: the hole, logically uninitialised.
//! * `[read, end)`: not yet visited: the rest of the original elements, then
//!   everything pushed during the pass, in push order.
//!
//! Unordered mode keeps `read == write + held` (no hole): removing the held
//! element moves the last unvisited element (`end - 1`) into its slot and
//! that slot is visited next.
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
/// Invariant: `write + held <= read <= end <= cap`, and the buffer regions
/// are as drawn in the module docs. `buf` and `cap` always describe the
/// current allocation of `store.vec`.
pub(crate) struct Core<T> {
    store: NonNull<Store<T>>,
    /// Where pushes go in a buffered pass; `None`: appended to this pass.
    pending: Option<NonNull<Vec<T>>>,
    /// `*mut T` also makes `Core` invariant in `T`, as `&mut Vec<T>` is.
    buf: *mut T,
    cap: usize,
    write: usize,
    read: usize,
    end: usize,
    max: usize,
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
            max: store.max,
            unordered: store.unordered,
            store: NonNull::from(store),
            pending: pending.map(NonNull::from),
            buf,
            cap,
            write: 0,
            read: 0,
            end,
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
    fn drop(&mut self) {
        // Runs no user code: it only moves bytes and sets the length.
        self.core.finish();
    }
}

impl<T> Core<T> {
    /// Whether an element is held (yielded and not yet settled).
    #[inline]
    pub(crate) fn held(&self) -> bool {
        self.held
    }

    /// Elements not yet visited, pushed ones included.
    #[inline]
    pub(crate) fn remaining(&self) -> usize {
        self.end - self.read
    }

    /// Elements the collection would hold if the pass finished now.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.write + usize::from(self.held) + (self.end - self.read)
    }

    /// The held element.
    ///
    /// # Panics
    /// If no element is held (a bug in the caller).
    #[inline]
    pub(crate) fn current(&self) -> &T {
        assert!(self.held, "no element is held");
        // SAFETY: while `held`, slot `write` is initialised (module docs) and
        // `write < cap`; the shared borrow of `self` keeps it from moving.
        unsafe { &*self.buf.add(self.write) }
    }

    /// The held element, mutably.
    ///
    /// # Panics
    /// If no element is held (a bug in the caller).
    #[inline]
    pub(crate) fn current_mut(&mut self) -> &mut T {
        assert!(self.held, "no element is held");
        // SAFETY: as in `current`; the unique borrow of `self` makes this the
        // only reference to the slot.
        unsafe { &mut *self.buf.add(self.write) }
    }

    /// Settles the held element as kept.
    #[inline]
    pub(crate) fn keep_current(&mut self) {
        debug_assert!(self.held);
        if self.held {
            self.held = false;
            self.write += 1;
        }
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
        // SAFETY: slot `write` was initialised (it was held); `held = false`
        // above makes it logically uninitialised, so it is read exactly once.
        let value = unsafe { ptr::read(self.buf.add(self.write)) };
        if self.unordered {
            // Fill the slot from the end; that element is visited next.
            self.end -= 1;
            if self.end != self.write {
                // SAFETY: `write < read <= end` before the decrement, so the
                // old `end - 1` is an initialised unvisited slot distinct from
                // `write`; moving it makes `end` logically uninitialised.
                unsafe {
                    ptr::copy_nonoverlapping(self.buf.add(self.end), self.buf.add(self.write), 1)
                };
            }
            self.read = self.write;
        }
        value
    }

    /// Moves the next unvisited element into the held position. Returns
    /// `false` when the pass has nothing left to visit.
    ///
    /// Must not be called while an element is held.
    #[inline]
    pub(crate) fn advance(&mut self) -> bool {
        debug_assert!(!self.held);
        if self.held || self.read == self.end {
            return false;
        }
        let src = self.read;
        self.read += 1;
        if src != self.write {
            // SAFETY: `write < src < end`: `src` is initialised and unvisited,
            // `write` is the first hole slot; one element, so no overlap.
            // After the copy `src` belongs to the hole (`read` moved past it).
            unsafe { ptr::copy_nonoverlapping(self.buf.add(src), self.buf.add(self.write), 1) };
        }
        self.held = true;
        true
    }

    /// Appends `value` (visited later in this pass), or puts it in the
    /// pending buffer of a buffered pass. Gives it back when the collection
    /// is at its maximum length.
    #[inline]
    pub(crate) fn push(&mut self, value: T) -> Result<(), T> {
        if let Some(mut pending) = self.pending {
            // SAFETY: `pending` is a unique borrow for the whole pass
            // (`Pass::begin` took `&'a mut Vec<T>`), not aliased elsewhere.
            let pending = unsafe { pending.as_mut() };
            if self.len().saturating_add(pending.len()) >= self.max {
                return Err(value);
            }
            pending.push(value);
            return Ok(());
        }
        if self.len() >= self.max {
            return Err(value);
        }
        if self.end == self.cap {
            self.make_room();
        }
        debug_assert!(self.end < self.cap);
        // SAFETY: `end < cap`, and slot `end` is spare (uninitialised).
        unsafe { ptr::write(self.buf.add(self.end), value) };
        self.end += 1;
        Ok(())
    }

    /// Makes `end < cap`, by closing the hole and/or growing the buffer.
    #[cold]
    #[inline(never)]
    fn make_room(&mut self) {
        let hole_start = self.write + usize::from(self.held);
        let hole = self.read - hole_start;
        let tail = self.end - self.read;
        if hole > 0 {
            // SAFETY: `[read, end)` is initialised and `[hole_start, read)` is
            // the hole; `ptr::copy` allows the overlap. Afterwards
            // `[hole_start, hole_start + tail)` holds the unvisited elements in
            // order and there is no hole.
            unsafe { ptr::copy(self.buf.add(self.read), self.buf.add(hole_start), tail) };
            self.read = hole_start;
            self.end = hole_start + tail;
        }
        // Grow when full, and also when the hole was small next to the tail
        // (else "remove one, push one" would shift the tail every push).
        let freed_little = hole.saturating_mul(4) < tail;
        if self.end == self.cap || (freed_little && self.cap < self.max) {
            // SAFETY: `store` is uniquely borrowed for the pass; no reference
            // to it or into the buffer is alive across this call (entries
            // re-derive from `buf` on every access).
            let store = unsafe { self.store.as_mut() };
            // SAFETY: there is no hole now, so `[0, end)` is initialised and
            // `end <= cap`. Growing with this length keeps every live element.
            unsafe { store.vec.set_len(self.end) };
            // If this panics (capacity overflow), the `Vec` claims `[0, end)`,
            // which is all initialised; `finish` later rewrites the length.
            store.grow();
            // SAFETY: leak amplification again, as in `begin`.
            unsafe { store.vec.set_len(0) };
            self.buf = store.vec.as_mut_ptr();
            self.cap = store.vec.capacity();
        }
    }

    /// Ends the pass: keeps a held element, closes the hole behind the
    /// unvisited elements and sets the final length. Idempotent.
    pub(crate) fn finish(&mut self) {
        if self.done {
            return;
        }
        self.done = true;
        if self.held {
            self.held = false;
            self.write += 1;
        }
        let tail = self.end - self.read;
        if self.read != self.write && tail > 0 {
            // SAFETY: `[read, end)` is initialised, `[write, read)` is the
            // hole; `ptr::copy` allows overlap.
            unsafe { ptr::copy(self.buf.add(self.read), self.buf.add(self.write), tail) };
        }
        let len = self.write + tail;
        // SAFETY: `store` is uniquely borrowed for the pass and nothing else
        // refers to it now.
        let store = unsafe { self.store.as_mut() };
        // SAFETY: `[0, len)` is initialised after the move above, and
        // `len <= end <= cap`.
        unsafe { store.vec.set_len(len) };
        store.after_pass();
    }
}

//! [`PassEnd`]: what a buffered pass tells the queue it fills when it
//! finishes, without `raw` naming the queue.

use core::ptr::NonNull;

/// Told the collection's count (visible plus pending) when a buffered
/// pass finishes: a bounded queue publishes it, so the room the pass kept
/// for its pushes and the room its removals freed go to its producers.
///
/// # Safety
///
/// * An implementor is `#[repr(C)]` and its first field is a
///   [`PassEndSlot<T>`] made by [`PassEndSlot::new::<Self>`](PassEndSlot::new):
///   a pass holds one pointer to the implementor and finds the function to
///   call there.
/// * `pass_ended` is called through a shared reference on the thread that
///   finishes the pass, which may not be the one that began it: a pass
///   over `T` moves to another thread when `T: Send` (a `Cursor` is `Send`
///   then). An implementor must be sound to use from another thread
///   whenever `T: Send` (as if `Self: Sync` whenever `T: Send`).
/// * `pass_ended` does not unwind (it runs where a pass finishes, which
///   cannot unwind).
pub(crate) unsafe trait PassEnd<T> {
    fn pass_ended(&self, owned: usize);
}

/// The first field of a [`PassEnd`] implementor (`T` is only the
/// trait's): the function that calls
/// it, so that a pass holds one pointer (a pass's state is kept small: a
/// hook of two words in it cost `traverse`'s loop 21.6 -> 24.0
/// instructions per element, one word nothing).
#[repr(C)]
pub(crate) struct PassEndSlot {
    call: unsafe fn(NonNull<PassEndSlot>, usize),
}

impl PassEndSlot {
    /// The slot of a `H`, which must hold it as its first field (see
    /// [`PassEnd`]).
    pub(crate) const fn new<T, H: PassEnd<T>>() -> Self {
        PassEndSlot {
            call: call_pass_end::<T, H>,
        }
    }
}

/// A pointer to a [`PassEnd`], through its [`PassEndSlot`].
#[derive(Clone, Copy)]
pub(super) struct EndHook(NonNull<PassEndSlot>);

impl EndHook {
    /// A hook on `end`, which the caller keeps borrowed for as long as the
    /// pass that holds the hook lives. The pointer is made from `end`
    /// itself, so it may reach the whole of it.
    #[inline]
    pub(super) fn new<T, H: PassEnd<T>>(end: &H) -> Self {
        EndHook(NonNull::from(end).cast())
    }

    /// Calls the hook.
    ///
    /// # Safety
    /// The reference it was made from is still alive, and the pass that
    /// holds it is finishing, on its thread (see [`PassEnd`]).
    #[inline]
    pub(super) unsafe fn call(self, owned: usize) {
        // SAFETY: the pointer is to a live `H: PassEnd<T>` (the caller),
        // whose first field is its `PassEndSlot` (`PassEnd`'s contract):
        // reading it reads that field.
        let call = unsafe { self.0.as_ref() }.call;
        // SAFETY: `call` is `call_pass_end::<T, H>` for this `H`.
        unsafe { call(self.0, owned) }
    }
}

/// # Safety
/// `slot` points to a live `H` (made from a `&H`, see [`EndHook::new`]).
unsafe fn call_pass_end<T, H: PassEnd<T>>(slot: NonNull<PassEndSlot>, owned: usize) {
    // SAFETY: see the function's contract; `PassEnd`'s says why the thread
    // is right.
    unsafe { slot.cast::<H>().as_ref() }.pass_ended(owned);
}

//! Lending the layers of a pass one at a time (the unsafe code of the
//! layers; see the crate's `raw` module for the rules every `unsafe` block
//! follows).
//!
//! [`Layered`] holds a `LayersCursor`'s borrow of every layer as a raw
//! pointer, lends one layer's collection at a time to the cursor walking it
//! and reaches the others for pushes ([`OtherLayers`]), so that a layered
//! pass needs no allocation and no pointer into the cursor. It drops the
//! cursors handed back to it, which runs the policy on an element still
//! held (user code; the callers hand cursors back with nothing held).

use core::marker::PhantomData;
use core::ptr::{self, NonNull};

use super::Slot;
use crate::auto_remove::AutoRemove;
use crate::collection::ReadWriteCollection;
use crate::cursor::Cursor;
use crate::error::CapacityError;

/// The layers of a `LayersCursor` pass: one layer's collection at a time is
/// lent out (for `'a`) to the cursor walking it, and the others stay
/// reachable for pushes, with no allocation.
///
/// The pass's exclusive borrow of the slots is kept as a raw pointer, so
/// that lending one slot does not borrow the whole slice. Invariant: at
/// most one slot (`current`) is lent out; nothing here touches that slot
/// until the cursor built from the lent borrow is handed back to
/// [`release`](Layered::release), which checks that it is that cursor
/// (same store) and drops it, ending the borrow. Every other slot is
/// only reached through short borrows of `self`.
pub(crate) struct Layered<'a, T, A> {
    slots: NonNull<Slot<T, A>>,
    len: usize,
    /// The slot lent out, if any.
    current: Option<usize>,
    /// The next slot to consider lending.
    next: usize,
    _borrow: PhantomData<&'a mut [Slot<T, A>]>,
}

// SAFETY: a `Layered` is a unique borrow of a slice of slots (like
// `&mut [Slot<T, A>]`): `Send` iff the slots are `Send`, `Sync` iff they
// are `Sync`.
unsafe impl<T: Send, A: Send> Send for Layered<'_, T, A> {}
// SAFETY: see the `Send` impl; `&Layered` hands out nothing mutable.
unsafe impl<T: Sync, A: Sync> Sync for Layered<'_, T, A> {}

impl<'a, T, A: AutoRemove<T>> Layered<'a, T, A> {
    #[inline]
    pub(crate) fn new(slots: &'a mut [Slot<T, A>]) -> Self {
        Layered {
            len: slots.len(),
            slots: NonNull::from(slots).cast(),
            current: None,
            next: 0,
            _borrow: PhantomData,
        }
    }

    /// The number of layers.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The slot at `i < len`, as a raw pointer (no reference is made).
    #[inline(always)]
    fn slot(&self, i: usize) -> *mut Slot<T, A> {
        debug_assert!(i < self.len);
        // SAFETY: `i < len`: in bounds of the borrowed slice.
        unsafe { self.slots.as_ptr().add(i) }
    }

    /// Lends the next enabled layer after the ones already lent: its index
    /// and its collection, borrowed for the rest of the pass. `None` when
    /// no enabled layer is left.
    ///
    /// # Panics
    /// If a layer is lent out and was not handed back with `release`.
    ///
    /// Inline: a call taking `&mut self` would take the address of the
    /// `LayersCursor` this is a field of, which keeps the walked layer's
    /// pass state in memory for the whole pass.
    #[inline]
    pub(crate) fn start_next(&mut self) -> Option<(usize, &'a mut ReadWriteCollection<T, A>)> {
        assert!(
            self.current.is_none(),
            "the layer being walked was not released"
        );
        while self.next < self.len {
            let i = self.next;
            self.next += 1;
            // SAFETY: slot `i` is not lent out (nothing is), so reading its
            // flag through the pass's pointer conflicts with no borrow.
            if unsafe { (*self.slot(i)).enabled } {
                self.current = Some(i);
                // SAFETY: slot `i` is in bounds and not lent out; from here
                // it is, for `'a`, and nothing in `self` touches it until
                // `release` gets back the cursor built from this borrow
                // (checked there) and drops it.
                return Some((i, unsafe { &mut (*self.slot(i)).items }));
            }
        }
        None
    }

    /// Takes back the layer lent out by `start_next`: `cursor` must be the
    /// cursor over its collection (checked: same store); it is dropped
    /// here, completing the layer's pass and ending the borrow.
    ///
    /// # Panics
    /// If no layer is lent out, or `cursor` walks another collection.
    #[inline(always)]
    pub(crate) fn release(&mut self, cursor: Cursor<'a, T, A>) {
        let i = self.current.expect("no layer is lent out");
        // No reference to the lent slot is made: only its address.
        // SAFETY: `i < len`; `addr_of!` reads nothing.
        let store = unsafe { ptr::addr_of!((*self.slot(i)).items.store) };
        assert!(
            ptr::eq(cursor.store_addr(), store),
            "a cursor over another collection was handed back"
        );
        drop(cursor);
        self.current = None;
    }

    /// A handle that pushes into the layers other than the lent one, for
    /// an entry of the layer being walked.
    #[inline(always)]
    pub(crate) fn handle(&mut self) -> OtherLayers<'_, T> {
        OtherLayers {
            slots: self.slots.cast(),
            len: self.len,
            current: self.current.unwrap_or(usize::MAX),
            push: push_to_slot::<T, A>,
            _borrow: PhantomData,
        }
    }

    /// Appends `value` to layer `i`, which is not the one lent out (see
    /// [`OtherLayers::push_at`]).
    #[inline]
    pub(crate) fn push_at(&mut self, i: usize, value: T) -> Result<(), T> {
        self.handle().push_at(i, value)
    }
}

/// Appends `value` to the collection of slot `i` of the slots at `slots`
/// (`Slot<T, A>`s, type-erased so that `OtherLayers` does not name `A`).
///
/// # Safety
/// `slots` points to at least `i + 1` slots of type `Slot<T, A>`, and slot
/// `i` is not borrowed by anything else for the duration of the call.
unsafe fn push_to_slot<T, A: AutoRemove<T>>(
    slots: NonNull<()>,
    i: usize,
    value: T,
) -> Result<(), T> {
    // SAFETY: by the caller, slot `i` exists and is ours for this call.
    let slot = unsafe { &mut *slots.cast::<Slot<T, A>>().as_ptr().add(i) };
    slot.items
        .try_push(value)
        .map_err(CapacityError::into_inner)
}

/// Pushes into the layers of a pass other than the one being walked: what
/// a `LayerEntry` holds, by value (a pointer to the slots, not into the
/// cursor), with the policy type erased.
pub(crate) struct OtherLayers<'c, T> {
    slots: NonNull<()>,
    len: usize,
    /// The layer lent out (`usize::MAX`: none).
    current: usize,
    /// `push_to_slot::<T, A>` for the slots' `A`.
    push: unsafe fn(NonNull<()>, usize, T) -> Result<(), T>,
    _borrow: PhantomData<&'c mut ()>,
}

// Neither `Send` nor `Sync` (its raw pointer sees to that): it reaches
// slots whose policy type it does not name, as the `dyn` push target it
// replaces did not either.

impl<T> OtherLayers<'_, T> {
    /// The number of layers.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Appends `value` to layer `i`; gives it back if that layer is at
    /// its maximum length.
    ///
    /// # Panics
    /// If `i` is out of range (the callers check first, to panic with the
    /// key) or is the layer being walked (pushed to through its cursor).
    #[inline]
    pub(crate) fn push_at(&mut self, i: usize, value: T) -> Result<(), T> {
        assert!(i < self.len, "layer index out of range");
        assert!(
            i != self.current,
            "the layer being walked is pushed to through its cursor"
        );
        // SAFETY: `i` is in bounds and not the lent slot, so nothing else
        // borrows it (the `Layered` this handle came from is borrowed by
        // it); `push` is `push_to_slot` for the slots' type.
        unsafe { (self.push)(self.slots, i, value) }
    }
}

//! [`Exclusive`]: a value reachable only through ownership or `&mut`,
//! which is therefore `Sync` whatever it holds.

/// Holds a value that is reached only by `&mut self` or by value, never
/// through `&self` (as `core::sync::Exclusive`, unstable, does). A
/// shared reference to it gives access to nothing, so sharing one between
/// threads cannot race: it is `Sync` whatever `X` is, and `Send` when `X`
/// is.
///
/// What a type holds only for its own `Drop` (a [`Cursor`](crate::Cursor)'s
/// way to hand a bounded queue's room back) goes in one, so that it does
/// not take `Sync` away from the type.
pub(crate) struct Exclusive<X>(X);

impl<X> Exclusive<X> {
    #[inline]
    pub(crate) fn new(value: X) -> Self {
        Exclusive(value)
    }

    #[inline]
    pub(crate) fn get_mut(&mut self) -> &mut X {
        &mut self.0
    }
}

// SAFETY: `Exclusive` has no method taking `&self` and its field is
// private, so a `&Exclusive<X>` reaches nothing of `X`: no thread can use
// the value through a shared reference, and sharing one races on nothing.
unsafe impl<X> Sync for Exclusive<X> {}

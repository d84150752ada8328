//! The wakers of tasks waiting on a queue (feature `async`) and of
//! blocked threads.

#[cfg(feature = "async")]
use alloc::vec::Vec;
#[cfg(feature = "async")]
use core::task::Waker;

/// Where a future's waker sits in a [`Wakers`] set: valid while the set
/// has not been woken since (`epoch`).
#[cfg(feature = "async")]
#[derive(Clone, Copy)]
pub(crate) struct Registration {
    pub(super) slot: usize,
    pub(super) epoch: u64,
}

/// The wakers of the tasks waiting for one kind of event. Each waiting
/// future owns a slot; waking the set takes every slot at once and starts
/// a new epoch, which invalidates the futures' registrations.
#[cfg(feature = "async")]
#[derive(Default)]
pub(crate) struct Wakers {
    pub(super) slots: Vec<Option<Waker>>,
    /// Empty slots of `slots`, reused before it grows.
    pub(super) free: Vec<usize>,
    /// Registered wakers (the `Some` slots).
    pub(super) live: usize,
    pub(super) epoch: u64,
}

#[cfg(feature = "async")]
impl Wakers {
    /// Whether no task is registered.
    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// The waker `registration` holds, if it is still registered.
    pub(super) fn get(&self, registration: Option<Registration>) -> Option<&Waker> {
        let r = registration?;
        if r.epoch != self.epoch {
            return None;
        }
        self.slots.get(r.slot)?.as_ref()
    }

    /// Installs `waker` for the future that holds `registration`, in its
    /// slot if that is still registered, else in a new one. Returns the
    /// waker it replaced, for the caller to drop after unlocking.
    pub(super) fn register(
        &mut self,
        registration: &mut Option<Registration>,
        waker: Waker,
    ) -> Option<Waker> {
        if let Some(r) = *registration {
            if r.epoch == self.epoch {
                if let Some(Some(current)) = self.slots.get_mut(r.slot) {
                    return Some(core::mem::replace(current, waker));
                }
            }
        }
        self.live += 1;
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slots[slot] = Some(waker);
                slot
            }
            None => {
                self.slots.push(Some(waker));
                self.slots.len() - 1
            }
        };
        *registration = Some(Registration {
            slot,
            epoch: self.epoch,
        });
        None
    }

    /// Removes the waker of `registration` if it is still registered (a
    /// future that resolved or was dropped); returns it, for the caller to
    /// drop after unlocking.
    pub(super) fn deregister(&mut self, registration: Registration) -> Option<Waker> {
        if registration.epoch != self.epoch {
            return None;
        }
        let waker = self.slots.get_mut(registration.slot)?.take();
        if waker.is_some() {
            self.live -= 1;
            self.free.push(registration.slot);
        }
        waker
    }

    /// Moves every registered waker to `out` (to be woken after unlocking)
    /// and starts a new epoch; returns whether there were any. No waker
    /// code runs here.
    #[inline]
    pub(super) fn take_into(&mut self, out: &mut Vec<Option<Waker>>) -> bool {
        if self.slots.is_empty() {
            return false;
        }
        self.epoch += 1;
        self.live = 0;
        self.free.clear();
        if out.is_empty() {
            core::mem::swap(out, &mut self.slots);
        } else {
            out.append(&mut self.slots);
        }
        true
    }
}

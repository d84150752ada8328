//! The queue's one piece of unsafe code: [`Shared`] is a
//! [`PassEnd`](crate::raw::PassEnd), the hook through which the owner's
//! passes over a bounded queue hand its room back when they end.

use super::queue::Shared;
use crate::raw::PassEnd;

// SAFETY: `Shared<T>` is `#[repr(C)]` with its `PassEndSlot`, made by
// `PassEndSlot::new::<T, Shared<T>>()`, as its first field. It is `Sync`
// when `T: Send` (all of it is behind mutexes or atomics), so a pass that
// moved to another thread may call it. The publication cannot unwind: it
// locks the control mutex ignoring poison, moves counters and delivers
// wake-ups (a waker's panic is caught there), and its one assertion (a
// count above `held`) cannot fail, since a pass never holds more than
// the bound `reserve_for_pass` gave it.
unsafe impl<T> PassEnd<T> for Shared<T> {
    fn pass_ended(&self, owned: usize) {
        self.lock().publish(owned);
    }
}

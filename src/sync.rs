//! The synchronisation primitives producers use: std's, or loom's when the
//! crate is built with `--cfg loom` for model checking.

#[cfg(loom)]
pub(crate) use loom::sync::{Arc, Mutex, MutexGuard};
#[cfg(not(loom))]
pub(crate) use std::sync::{Arc, Mutex, MutexGuard};

/// Locks `mutex`, ignoring poisoning: nothing user-supplied runs under
/// these locks, so a poisoned queue is still consistent (a panic there
/// could only come from an allocation failure in `Vec::push`, after which
/// the queue holds every element it held before).
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    match mutex.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}

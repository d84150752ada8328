//! The synchronisation primitives producers use: std's, or loom's when the
//! crate's own tests are built with `--cfg loom` for model checking (loom
//! is a dev-dependency only, so the library proper always uses std's).

#[cfg(all(test, loom))]
pub(crate) use loom::sync::atomic::{AtomicBool, AtomicUsize};
#[cfg(all(test, loom))]
pub(crate) use loom::sync::{Arc, Condvar, Mutex, MutexGuard};
#[cfg(not(all(test, loom)))]
pub(crate) use std::sync::atomic::{AtomicBool, AtomicUsize};
#[cfg(not(all(test, loom)))]
pub(crate) use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// The producers' arrival clock (see the `producer` module): 64 bits
/// wherever the target has 64-bit atomics, so that it never wraps in
/// practice; elsewhere a `usize`, compared with wrapping arithmetic.
#[cfg(all(test, loom))]
pub(crate) use loom::sync::atomic::AtomicU64 as AtomicStamp;
#[cfg(all(not(all(test, loom)), target_has_atomic = "64"))]
pub(crate) use std::sync::atomic::AtomicU64 as AtomicStamp;
#[cfg(all(not(all(test, loom)), not(target_has_atomic = "64")))]
pub(crate) use std::sync::atomic::AtomicUsize as AtomicStamp;
/// The integer an [`AtomicStamp`] holds.
#[cfg(any(all(test, loom), target_has_atomic = "64"))]
pub(crate) type Stamp = u64;
/// The integer an [`AtomicStamp`] holds.
#[cfg(not(any(all(test, loom), target_has_atomic = "64")))]
pub(crate) type Stamp = usize;

use std::time::Duration;

/// Drops the payload of a caught panic that will not be resumed (a
/// waker's, or a later one when the first is the one reported). A payload
/// whose own `Drop` panics yields another payload, which is dropped the
/// same way, a few levels deep; one that keeps doing so is leaked. The
/// caller's remaining work (other wake-ups, other hook calls) is never cut
/// short by it.
#[cfg(any(feature = "async", feature = "rayon"))]
pub(crate) fn discard_panic(payload: std::boxed::Box<dyn std::any::Any + Send>) {
    use std::panic::{catch_unwind, AssertUnwindSafe};
    let mut payload = payload;
    for _ in 0..8 {
        match catch_unwind(AssertUnwindSafe(move || drop(payload))) {
            Ok(()) => return,
            Err(nested) => payload = nested,
        }
    }
    core::mem::forget(payload);
}

/// Locks `mutex`, ignoring poisoning: nothing user-supplied runs under
/// these locks (elements are dropped, and executors' wakers cloned, woken
/// and dropped, after the lock is released; see the `producer` module), so
/// a poisoned queue is still consistent (a panic there could only come
/// from an allocation failure or a capacity overflow in `Vec::reserve`,
/// made before any value moves, after which the queue holds every element
/// it held before).
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    match mutex.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}

/// `Condvar::wait`, ignoring poisoning (see [`lock`]).
pub(crate) fn wait<'a, T>(condvar: &Condvar, guard: MutexGuard<'a, T>) -> MutexGuard<'a, T> {
    match condvar.wait(guard) {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}

/// `Condvar::wait_timeout`, ignoring poisoning (see [`lock`]). Under loom
/// this never times out (loom does not model time).
pub(crate) fn wait_timeout<'a, T>(
    condvar: &Condvar,
    guard: MutexGuard<'a, T>,
    timeout: Duration,
) -> MutexGuard<'a, T> {
    match condvar.wait_timeout(guard, timeout) {
        Ok((guard, _)) => guard,
        Err(poisoned) => poisoned.into_inner().0,
    }
}

/// A small number for the calling thread, the same on every call: threads
/// are numbered in the order they first ask, so that threads started
/// together get consecutive numbers (a queue's shards, see `producer`).
#[cfg(all(feature = "std", not(all(test, loom))))]
#[inline]
pub(crate) fn thread_index() -> usize {
    use core::cell::Cell;
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    std::thread_local! {
        static INDEX: Cell<usize> = const { Cell::new(usize::MAX) };
    }
    INDEX.with(|index| {
        let mut i = index.get();
        if i == usize::MAX {
            i = NEXT.fetch_add(1, Relaxed) & (usize::MAX >> 1);
            index.set(i);
        }
        i
    })
}

/// Under loom: numbered in the order the model's threads first ask, with
/// a counter of the execution (loom's thread ids differ between the
/// executions it explores, and a model must run the same way in each).
#[cfg(all(test, loom))]
pub(crate) fn thread_index() -> usize {
    use core::sync::atomic::Ordering::Relaxed;
    loom::lazy_static! {
        static ref NEXT: AtomicUsize = AtomicUsize::new(0);
    }
    loom::thread_local! {
        static INDEX: usize = NEXT.fetch_add(1, Relaxed);
    }
    INDEX.with(|index| *index)
}

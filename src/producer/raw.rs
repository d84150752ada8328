//! The queue's unsafe code: [`Shared`] is a
//! [`PassEnd`](crate::raw::PassEnd), the hook through which the owner's
//! passes over a bounded queue hand its room back when they end; and
//! [`SlotLock`], the spin lock of a slot's pending values.

use super::queue::{Shared, SNOOZE_STEPS, SPIN_STEPS};
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

#[cfg(not(all(test, loom)))]
use core::cell::UnsafeCell;
use core::marker::PhantomData;
use core::ops::{Deref, DerefMut};
use core::sync::atomic::Ordering::{Acquire, Relaxed, Release};
#[cfg(all(test, loom))]
use loom::cell::{MutPtr, UnsafeCell};

use crate::sync::AtomicBool;

/// How long a waiter for a [`SpinLock`] sleeps once it has spun and
/// yielded: a holder that was preempted may be queued behind a busy thread
/// on another core, and only a core that goes idle pulls it over.
const LOCK_NAP: std::time::Duration = std::time::Duration::from_micros(20);

/// The lock of a slot's pending values: every push takes it, and a commit
/// takes it for as long as a swap of buffers (or a prefix's copy). A
/// [`SpinLock`]; under loom a loom mutex, since loom cannot explore two
/// threads that spin at once to an end (the spin lock has a model of its
/// own below, with one waiter).
#[cfg(not(all(test, loom)))]
pub(super) type SlotLock<T> = SpinLock<T>;
/// A [`SlotLock`]'s guard.
#[cfg(not(all(test, loom)))]
pub(super) type SlotGuard<'a, T> = SpinGuard<'a, T>;
#[cfg(all(test, loom))]
pub(super) use model_lock::{SlotGuard, SlotLock};

/// A lock for values that are held for moments only (a slot's pending
/// values).
///
/// A spin lock, because its release is a plain store: a mutex's unlock is
/// an atomic exchange (it must see whether a thread sleeps on it), which
/// waits for the push's stores to leave the core before the push can
/// return. Its holders wait for nothing while they hold it but the same
/// locks of other slots (taken in a fixed order), so a waiter spins a
/// little, then yields, then naps [`LOCK_NAP`] at a time until the holder
/// is done ([`backoff`]): only a holder that was preempted keeps it
/// long, and a napping waiter leaves its core to it (a waiter that only
/// yielded would keep a core busy while the holder waits for one).
///
/// Locks are not poisoned: a panic under one (only an allocation failure
/// or a capacity overflow can happen there, before any value moves)
/// leaves the slot consistent, and the guard's drop releases it.
pub(super) struct SpinLock<T> {
    /// Whether a [`SpinGuard`] exists.
    locked: AtomicBool,
    value: UnsafeCell<T>,
}

// SAFETY: a `SpinLock` hands out access to its value only through a
// `SpinGuard`, and at most one guard exists at a time: a guard is made
// only by the thread whose acquiring compare-and-swap set `locked` from
// `false`, and `locked` is cleared only by the guard's releasing store
// when it is dropped. So sharing the lock between threads only ever moves
// the value between them, one holder at a time, which `T: Send` allows.
// The acquire/release pair makes each holder's writes visible to the
// next.
unsafe impl<T: Send> Sync for SpinLock<T> {}

impl<T> SpinLock<T> {
    pub(super) fn new(value: T) -> Self {
        SpinLock {
            locked: AtomicBool::new(false),
            value: UnsafeCell::new(value),
        }
    }

    /// Locks, waiting while another thread holds the lock.
    #[inline]
    pub(super) fn lock(&self) -> SpinGuard<'_, T> {
        if !self.try_acquire() {
            self.lock_contended();
        }
        // SAFETY: `try_acquire` returned `true`, here or in
        // `lock_contended`: this thread holds the lock.
        unsafe { SpinGuard::new(self) }
    }

    /// Locks if no other thread holds the lock.
    #[inline]
    pub(super) fn try_lock(&self) -> Option<SpinGuard<'_, T>> {
        // SAFETY: `try_acquire` returned `true`: this thread holds the
        // lock.
        self.try_acquire().then(|| unsafe { SpinGuard::new(self) })
    }

    /// Locks for a thread that would otherwise wait on a lock its
    /// producer takes for a moment at a time, over and over: if the lock
    /// is held, this thread yields once before it waits, so that the
    /// holder finishes its push without losing the lock's line to a
    /// waiter in the middle of it.
    pub(super) fn lock_politely(&self) -> SpinGuard<'_, T> {
        match self.try_lock() {
            Some(guard) => guard,
            None => {
                yield_now();
                self.lock()
            }
        }
    }

    /// Sets `locked` if it was clear; returns whether it did (then this
    /// thread holds the lock).
    #[inline]
    fn try_acquire(&self) -> bool {
        self.locked
            .compare_exchange(false, true, Acquire, Relaxed)
            .is_ok()
    }

    /// Until this thread's compare-and-swap sets `locked`: waits while it
    /// is set, reading only (so as not to take the line from the holder),
    /// then tries.
    #[cold]
    fn lock_contended(&self) {
        let mut step = 0;
        loop {
            while self.locked.load(Relaxed) {
                backoff(&mut step);
            }
            if self.try_acquire() {
                return;
            }
        }
    }
}

/// One wait of a thread that waits for another, the `step`th: the first
/// [`SPIN_STEPS`] spin (1, 2, 4, … `spin_loop` hints), the next ones up to
/// [`SNOOZE_STEPS`] yield the thread, and later ones sleep [`LOCK_NAP`]
/// (only a [`SpinLock`]'s waiter goes that far; a push waiting for room
/// sleeps on the queue's condition variable instead). Under loom always
/// a yield, which tells the model that this thread waits for another.
pub(super) fn backoff(step: &mut u32) {
    if cfg!(all(test, loom)) {
        yield_now();
    } else if *step < SPIN_STEPS {
        for _ in 0..1u32 << *step {
            core::hint::spin_loop();
        }
    } else if *step < SNOOZE_STEPS {
        yield_now();
    } else {
        std::thread::sleep(LOCK_NAP);
    }
    *step = step.saturating_add(1);
}

/// Lets other threads run (under loom, lets the model schedule another
/// thread).
fn yield_now() {
    #[cfg(all(test, loom))]
    loom::thread::yield_now();
    #[cfg(not(all(test, loom)))]
    std::thread::yield_now();
}

/// Access to a [`SpinLock`]'s value while it is held; dropping it releases
/// the lock.
pub(super) struct SpinGuard<'a, T> {
    lock: &'a SpinLock<T>,
    /// Loom's record of this access, ended before the release.
    #[cfg(all(test, loom))]
    access: Option<MutPtr<T>>,
    /// Shared between threads only if `T` is `Sync`, as `&mut T` is.
    _value: PhantomData<&'a mut T>,
}

impl<'a, T> SpinGuard<'a, T> {
    /// # Safety
    ///
    /// The calling thread set `lock.locked` (it holds the lock), and no
    /// guard of `lock` exists.
    #[inline]
    unsafe fn new(lock: &'a SpinLock<T>) -> Self {
        SpinGuard {
            lock,
            #[cfg(all(test, loom))]
            access: Some(lock.value.get_mut()),
            _value: PhantomData,
        }
    }
}

impl<T> Deref for SpinGuard<'_, T> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        #[cfg(all(test, loom))]
        // SAFETY: this guard holds the lock, so its record of access is
        // the only one, and it lives until the guard is dropped.
        return unsafe { &*MutPtr::deref(self.access.as_ref().expect("held until drop")) };
        #[cfg(not(all(test, loom)))]
        // SAFETY: this guard holds the lock: no other access to the value
        // exists until it is dropped, and `&self` keeps it alive.
        unsafe {
            &*self.lock.value.get()
        }
    }
}

impl<T> DerefMut for SpinGuard<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        #[cfg(all(test, loom))]
        // SAFETY: as in `deref`; `&mut self` makes this the only reference.
        return unsafe { MutPtr::deref(self.access.as_ref().expect("held until drop")) };
        #[cfg(not(all(test, loom)))]
        // SAFETY: this guard holds the lock and `&mut self` is the only
        // reference to it: this is the only access to the value until it
        // is dropped.
        unsafe {
            &mut *self.lock.value.get()
        }
    }
}

impl<T> Drop for SpinGuard<'_, T> {
    #[inline]
    fn drop(&mut self) {
        // Loom's record of the access ends before another thread can lock.
        #[cfg(all(test, loom))]
        drop(self.access.take());
        // Release: this holder's writes happen before the next holder's
        // acquiring compare-and-swap.
        self.lock.locked.store(false, Release);
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::SpinLock;
    use core::sync::atomic::Ordering::Relaxed;
    use std::sync::Arc;
    use std::vec::Vec;

    /// Threads that add under the lock lose no addition (Miri also checks
    /// that no two of them touch the value at once).
    #[test]
    fn holders_exclude_each_other() {
        let (threads, adds) = if cfg!(miri) { (3, 20) } else { (4, 20_000) };
        let lock = Arc::new(SpinLock::new(0u64));
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let lock = Arc::clone(&lock);
                std::thread::spawn(move || {
                    for i in 0..adds {
                        // Both ways in, as pushes and commits take it.
                        let mut value = if i % 3 == 0 {
                            lock.lock_politely()
                        } else {
                            lock.lock()
                        };
                        // A read and a write apart: a second holder would
                        // lose an addition.
                        let seen = *value;
                        std::hint::black_box(&mut *value);
                        *value = seen + 1;
                    }
                })
            })
            .collect();
        for handle in handles {
            handle.join().expect("no panic");
        }
        assert_eq!(*lock.lock(), threads * adds);
        assert!(!lock.locked.load(Relaxed), "released");
    }

    /// A held lock refuses `try_lock`, and a thread waiting in `lock`
    /// (past its spins and yields, napping) gets it once the holder lets
    /// go.
    #[test]
    fn a_waiter_gets_the_lock_when_its_holder_lets_go() {
        let lock = Arc::new(SpinLock::new(Vec::new()));
        let mut holder = lock.lock();
        assert!(lock.try_lock().is_none(), "held");
        let waiter = {
            let lock = Arc::clone(&lock);
            std::thread::spawn(move || lock.lock().push("waiter"))
        };
        // Long enough for the waiter to nap, most runs.
        std::thread::sleep(std::time::Duration::from_millis(2));
        holder.push("holder");
        drop(holder);
        waiter.join().expect("no panic");
        assert_eq!(*lock.try_lock().expect("released"), ["holder", "waiter"]);
    }

    /// A panic while the lock is held releases it (the guard's drop).
    #[test]
    fn a_panic_under_the_lock_releases_it() {
        let lock = SpinLock::new(Vec::<u8>::new());
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut guard = lock.lock();
            guard.push(1);
            panic!("under the lock");
        }));
        assert!(caught.is_err());
        assert_eq!(*lock.try_lock().expect("released"), [1]);
    }
}

/// The slot lock of the loom models: loom's mutex, with the spin lock's
/// methods.
#[cfg(all(test, loom))]
mod model_lock {
    use loom::sync::{Mutex, MutexGuard};

    pub(in crate::producer) struct SlotLock<T>(Mutex<T>);

    pub(in crate::producer) type SlotGuard<'a, T> = MutexGuard<'a, T>;

    impl<T> SlotLock<T> {
        pub(in crate::producer) fn new(value: T) -> Self {
            SlotLock(Mutex::new(value))
        }

        pub(in crate::producer) fn lock(&self) -> SlotGuard<'_, T> {
            self.0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        }

        pub(in crate::producer) fn lock_politely(&self) -> SlotGuard<'_, T> {
            match self.0.try_lock() {
                Ok(guard) => guard,
                Err(std::sync::TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
                Err(std::sync::TryLockError::WouldBlock) => {
                    loom::thread::yield_now();
                    self.lock()
                }
            }
        }
    }
}

/// A loom model of [`SpinLock`] alone (loom's cell checks that no two
/// holders touch the value at once). One waiter at a time: loom cannot
/// bring two spinning threads to an end.
#[cfg(all(test, loom))]
mod loom_spin_lock {
    use super::SpinLock;
    use loom::sync::Arc;

    fn model(f: impl Fn() + Send + Sync + 'static) {
        let mut builder = loom::model::Builder::new();
        if builder.preemption_bound.is_none() {
            builder.preemption_bound = Some(3);
        }
        builder.check(f);
    }

    /// Two threads add under the lock, one by `lock`, one by
    /// `lock_politely`: no addition is lost and no access overlaps.
    #[test]
    fn loom_spin_lock_excludes() {
        model(|| {
            let lock = Arc::new(SpinLock::new(0u32));
            let other = {
                let lock = Arc::clone(&lock);
                loom::thread::spawn(move || {
                    for _ in 0..2 {
                        *lock.lock() += 1;
                    }
                })
            };
            *lock.lock_politely() += 1;
            other.join().expect("no panic");
            assert_eq!(*lock.try_lock().expect("released"), 3);
        });
    }
}

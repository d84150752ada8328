//! The parallel pass (feature `rayon`): [`ReadWriteCollection::par_traverse`].
//!
//! # How the result stays the serial pass's result
//!
//! A serial pass visits the original elements in order, then what they
//! pushed, in push order, then what *those* pushed, and so on: a
//! breadth-first order. The parallel pass runs it as rounds:
//!
//! 1. The elements of the round are split into contiguous chunks, one job
//!    per chunk. A worker walks its chunk exactly as the serial cursor
//!    does (same predicate checks on arrival and on moving on), compacting
//!    survivors inside the chunk; pushes go to the chunk's own list.
//! 2. When every job is done, the kept runs are moved together in chunk
//!    order (one `memmove` per chunk), so survivors keep their order.
//! 3. The removal hook receives the auto-removed elements serially, on
//!    the calling thread, chunk by chunk: the serial pass's order.
//! 4. The chunks' push lists are appended in chunk order: exactly the
//!    serial pass's push order. They are the next round's elements.
//!
//! So for a closure whose effect depends only on the element it is given,
//! the collection ends up exactly as [`traverse`] leaves it. Effects on
//! the outside world happen in a different order, and concurrently.
//!
//! # When it runs serially
//!
//! A round with fewer than [`PAR_MIN_LEN`] elements runs on the calling
//! thread, in one chunk: below that, splitting costs more than it saves
//! (a job needs a few microseconds of scheduling; the serial pass handles
//! a few thousand small elements in that time). A bounded collection also
//! runs in one chunk, because whether a push fits depends on every removal
//! before it, which only a serial walk knows; the result is then still the
//! serial one. Unordered mode compacts in order: its result is the serial
//! one as a multiset, and the hook receives the same values (in another
//! order). A bounded collection in unordered mode is walked by the serial
//! cursor itself, on the calling thread: which pushes it refuses depends on
//! the swap-remove visiting order, which only the serial cursor has.
//!
//! # Panics
//!
//! A panic in the closure, in the `Drop` of an element the closure
//! drops, or in the removal hook loses nothing, as in the serial pass:
//! every element ends either in the collection or in the hook (unless the
//! closure removed it itself), and every push made before the panic is
//! kept, unvisited.
//!
//! 1. A worker whose closure panics stops walking its chunk. The element
//!    it held and the rest of its chunk stay in the collection, in order;
//!    the auto-remove predicate is not applied to the held element (the
//!    serial cursor does not apply it while unwinding either). Each of the
//!    round's other chunks is walked to its end or not at all (rayon runs
//!    some chunks one after another on one thread, and stops such a run at
//!    the panic); a chunk not walked stays in the collection, unvisited, in
//!    order.
//! 2. The round is then settled as usual: its auto-removed elements reach
//!    the hook, in the serial pass's order, and its pushes are appended. A
//!    hook call that panics costs no other element its hook call: the
//!    round's other removed elements still reach the hook.
//! 3. Then the first panic (a worker's, else the first panicking hook
//!    call's) reaches the caller; later ones are dropped. No further round
//!    runs, so the round's pushes stay at the end of the collection,
//!    unvisited. The shrink policy is applied, as when a serial pass ends.
//!
//! The serial pass stops at the element that panicked, whereas here the
//! round's other chunks (and, when only the hook panicked, the whole round)
//! have run. So after a panic the collection is the serial pass's only when
//! the panic came from the closure in the last chunk of a round, or in a
//! round that ran in one chunk.
//!
//! [`traverse`]: ReadWriteCollection::traverse

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::any::Any;
use core::fmt;
use core::ops::{Deref, DerefMut};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

use rayon::prelude::*;

use crate::auto_remove::{AutoRemove, NoAutoRemove, WithHook};
use crate::collection::ReadWriteCollection;
use crate::cursor::{full_panic, Entry, Spawner};
use crate::error::CapacityError;
use crate::raw::{par_round, ChunkJob, ChunkPass};

/// Rounds with fewer elements than this run serially; bigger ones are
/// split into chunks of at least `PAR_MIN_LEN / 2` elements.
pub const PAR_MIN_LEN: usize = if cfg!(miri) { 16 } else { 8192 };

/// An auto-remove policy whose predicate can run on several threads at
/// once, as [`par_traverse`](ReadWriteCollection::par_traverse) needs.
/// The removal hook ([`AutoRemove::removed`]) still runs on one thread,
/// after the workers.
///
/// Implemented by [`NoAutoRemove`], by `Fn(&T) -> bool + Sync` closures,
/// by every [`remove_when!`](crate::remove_when!) predicate and by
/// [`WithHook`] over any of these.
///
/// # Examples
///
/// ```
/// use read_write_collection::{AutoRemove, ParAutoRemove, ReadWriteCollection};
///
/// struct Negative;
/// impl AutoRemove<i32> for Negative {
///     fn should_remove(&mut self, n: &i32) -> bool { *n < 0 }
/// }
/// impl ParAutoRemove<i32> for Negative {
///     fn should_remove_shared(&self, n: &i32) -> bool { *n < 0 }
/// }
///
/// let mut c = ReadWriteCollection::with_policy(Negative);
/// c.extend([1, -2, 3]);
/// c.par_traverse(|mut e| *e -= 1);
/// assert_eq!(c, [0, 2]);
/// ```
pub trait ParAutoRemove<T>: AutoRemove<T> + Sync {
    /// Whether `item` is to be removed; must agree with
    /// [`should_remove`](AutoRemove::should_remove).
    fn should_remove_shared(&self, item: &T) -> bool;
}

impl<T> ParAutoRemove<T> for NoAutoRemove {
    #[inline(always)]
    fn should_remove_shared(&self, _item: &T) -> bool {
        false
    }
}

impl<T, F: Fn(&T) -> bool + Sync> ParAutoRemove<T> for F {
    #[inline]
    fn should_remove_shared(&self, item: &T) -> bool {
        self(item)
    }
}

impl<T, P: ParAutoRemove<T>, H: FnMut(T) + Sync> ParAutoRemove<T> for WithHook<P, H> {
    #[inline]
    fn should_remove_shared(&self, item: &T) -> bool {
        self.policy.should_remove_shared(item)
    }
}

/// The element a parallel pass's closure is given: like
/// [`Entry`], it dereferences to the element, can
/// [`remove`](ParEntry::remove) it and can [`push`](ParEntry::push) new
/// elements, which this same pass visits later (in the serial pass's
/// order).
///
/// # Examples
///
/// ```
/// use read_write_collection::ReadWriteCollection;
///
/// let mut c: ReadWriteCollection<u32> = (0..10).collect();
/// c.par_traverse(|mut e| {
///     if *e % 3 == 0 {
///         e.remove();
///     } else if *e == 4 {
///         e.push(40);
///     } else {
///         *e += 100;
///     }
/// });
/// assert_eq!(c, [101, 102, 4, 105, 107, 108, 140]); // 40 was visited too
/// ```
pub struct ParEntry<'a, T> {
    inner: Inner<'a, T>,
}

enum Inner<'a, T> {
    /// An element of a chunk of a parallel round.
    Chunk(InChunk<'a, T>),
    /// The serial cursor's entry (bounded collections in unordered mode).
    Serial(Entry<'a, T>),
}

/// A worker's place in its chunk: what an entry of the chunk, and the
/// spawner it leaves behind, reach.
struct InChunk<'a, T> {
    pass: &'a mut ChunkPass<T>,
    pushed: &'a mut Vec<T>,
    /// Elements of the collection outside this chunk (a bounded pass
    /// runs in one chunk, so this plus the chunk is the whole length).
    outside: usize,
    max: usize,
}

impl<T> InChunk<'_, T> {
    /// Appends `value` to the chunk's pushes, unless a bounded collection
    /// is full: its kept and unvisited elements plus the pushes plus
    /// `outside` are the whole length.
    #[inline]
    fn try_push(&mut self, value: T) -> Result<(), CapacityError<T>> {
        if self.max != usize::MAX && self.outside + self.pass.len() + self.pushed.len() >= self.max
        {
            return Err(CapacityError::new(value));
        }
        self.pushed.push(value);
        Ok(())
    }
}

impl<'a, T> ParEntry<'a, T> {
    /// Removes the element and returns it.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = (1..=4).collect();
    /// c.par_traverse(|e| {
    ///     if *e > 2 {
    ///         assert!(e.remove() > 2);
    ///     }
    /// });
    /// assert_eq!(c, [1, 2]);
    /// ```
    #[inline]
    pub fn remove(self) -> T {
        match self.inner {
            Inner::Chunk(chunk) => chunk.pass.take_current(),
            Inner::Serial(e) => e.remove(),
        }
    }

    /// Appends `value`; the pass visits it after everything already
    /// queued, as the serial pass would.
    ///
    /// # Panics
    ///
    /// If the collection is bounded and full; see [`try_push`](ParEntry::try_push).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<u8> = [1].into_iter().collect();
    /// c.par_traverse(|mut e| {
    ///     if *e < 3 {
    ///         let next = *e + 1;
    ///         e.push(next);
    ///     }
    /// });
    /// assert_eq!(c, [1, 2, 3]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn push(&mut self, value: T) {
        if self.try_push(value).is_err() {
            full_panic();
        }
    }

    /// Like [`push`](ParEntry::push), but a full bounded collection hands
    /// the value back instead of panicking.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] holding `value` if the collection is at its
    /// maximum length.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::bounded(2);
    /// c.push(1);
    /// c.par_traverse(|mut e| {
    ///     if *e == 1 {
    ///         assert!(e.try_push(2).is_ok());
    ///         assert_eq!(e.try_push(3).unwrap_err().into_inner(), 3);
    ///     }
    /// });
    /// assert_eq!(c, [1, 2]);
    /// ```
    #[inline]
    pub fn try_push(&mut self, value: T) -> Result<(), CapacityError<T>> {
        match &mut self.inner {
            Inner::Chunk(chunk) => chunk.try_push(value),
            Inner::Serial(e) => e.try_push(value),
        }
    }

    /// Removes the element and returns it with a [`ParSpawner`] that goes
    /// on pushing for it, as [`Entry::remove_and_spawn`] does in the
    /// serial pass ("one becomes two" in one step, where `remove` would
    /// consume the entry).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut sizes: ReadWriteCollection<u32> = [4, 1].into_iter().collect();
    /// sizes.par_traverse(|e| {
    ///     if *e > 1 {
    ///         let (size, mut spawn) = e.remove_and_spawn();
    ///         spawn.push(size / 2); // visited later in this pass, split again
    ///         spawn.push(size / 2);
    ///     }
    /// });
    /// assert_eq!(sizes, [1, 1, 1, 1, 1]);
    /// ```
    #[inline]
    pub fn remove_and_spawn(self) -> (T, ParSpawner<'a, T>) {
        match self.inner {
            Inner::Chunk(chunk) => {
                let value = chunk.pass.take_current();
                let inner = SpawnInner::Chunk(chunk);
                (value, ParSpawner { inner })
            }
            Inner::Serial(e) => {
                let (value, spawner) = e.remove_and_spawn();
                let inner = SpawnInner::Serial(spawner);
                (value, ParSpawner { inner })
            }
        }
    }
}

/// Pushes into a parallel pass after the element it came from was
/// removed; made by [`ParEntry::remove_and_spawn`]. Like
/// [`Spawner`], it borrows what the entry borrowed, so it
/// cannot outlive the closure call.
///
/// # Examples
///
/// ```
/// use read_write_collection::ReadWriteCollection;
///
/// let mut c = ReadWriteCollection::bounded(2);
/// c.extend([1, 2]);
/// c.par_traverse(|e| {
///     if *e == 1 {
///         let (_, mut spawn) = e.remove_and_spawn();
///         assert!(spawn.try_push(10).is_ok()); // the removal made room
///         assert_eq!(spawn.try_push(11).unwrap_err().into_inner(), 11);
///     }
/// });
/// assert_eq!(c, [2, 10]);
/// ```
pub struct ParSpawner<'a, T> {
    inner: SpawnInner<'a, T>,
}

enum SpawnInner<'a, T> {
    Chunk(InChunk<'a, T>),
    Serial(Spawner<'a, T>),
}

impl<T> ParSpawner<'_, T> {
    /// Appends `value`; the pass visits it after everything already
    /// queued, as the serial pass would.
    ///
    /// # Panics
    ///
    /// If the collection is bounded and full; see [`try_push`](ParSpawner::try_push).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c: ReadWriteCollection<i32> = [2].into_iter().collect();
    /// c.par_traverse(|e| {
    ///     if *e == 2 {
    ///         let (_, mut spawn) = e.remove_and_spawn();
    ///         spawn.push(3);
    ///     }
    /// });
    /// assert_eq!(c, [3]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn push(&mut self, value: T) {
        if self.try_push(value).is_err() {
            full_panic();
        }
    }

    /// Like [`push`](ParSpawner::push), but a full bounded collection hands
    /// the value back instead of panicking.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] holding `value` if the collection is at its
    /// maximum length.
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut c = ReadWriteCollection::bounded(1);
    /// c.push(1);
    /// c.par_traverse(|e| {
    ///     if *e == 1 {
    ///         let (_, mut spawn) = e.remove_and_spawn();
    ///         assert!(spawn.try_push(2).is_ok());
    ///         assert_eq!(spawn.try_push(3).unwrap_err().into_inner(), 3);
    ///     }
    /// });
    /// assert_eq!(c, [2]);
    /// ```
    #[inline]
    pub fn try_push(&mut self, value: T) -> Result<(), CapacityError<T>> {
        match &mut self.inner {
            SpawnInner::Chunk(chunk) => chunk.try_push(value),
            SpawnInner::Serial(s) => s.try_push(value),
        }
    }
}

impl<T> fmt::Debug for ParSpawner<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ParSpawner").finish_non_exhaustive()
    }
}

impl<T> Deref for ParEntry<'_, T> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        match &self.inner {
            Inner::Chunk(chunk) => chunk.pass.current(),
            Inner::Serial(e) => e,
        }
    }
}

impl<T> DerefMut for ParEntry<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        match &mut self.inner {
            Inner::Chunk(chunk) => chunk.pass.current_mut(),
            Inner::Serial(e) => e,
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for ParEntry<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ParEntry").field(&**self).finish()
    }
}

/// How many chunks a round of `n` elements is split into on `threads`
/// threads: one (the calling thread) below [`PAR_MIN_LEN`]; else four per
/// thread, so that uneven work balances, but none smaller than
/// `PAR_MIN_LEN / 2` elements, and at least two.
fn chunk_count(n: usize, threads: usize) -> usize {
    if n < PAR_MIN_LEN {
        1
    } else {
        threads.saturating_mul(4).min(n / (PAR_MIN_LEN / 2)).max(2)
    }
}

/// Walks one chunk: what the serial cursor does, with pushes going to the
/// job's list and auto-removed elements to its `removed` list.
fn work<T, A, F>(job: &mut ChunkJob<T>, policy: &A, f: &F, outside: usize, max: usize)
where
    A: ParAutoRemove<T>,
    F: Fn(ParEntry<'_, T>),
{
    let ChunkJob {
        pass,
        pushed,
        removed,
    } = job;
    while pass.advance() {
        if A::ACTIVE && policy.should_remove_shared(pass.current()) {
            removed.push(pass.take_current());
            continue;
        }
        f(ParEntry {
            inner: Inner::Chunk(InChunk {
                pass: &mut *pass,
                pushed: &mut *pushed,
                outside,
                max,
            }),
        });
        if A::ACTIVE && pass.held() && policy.should_remove_shared(pass.current()) {
            removed.push(pass.take_current());
        }
    }
}

impl<T: Send, A: ParAutoRemove<T>> ReadWriteCollection<T, A> {
    /// A traversal that runs the closure on several threads (rayon's
    /// current pool) and leaves the collection exactly as
    /// [`traverse`](Self::traverse) with the same closure would, when the
    /// closure's effect depends only on the element it is given: the same
    /// elements removed, the same pushed elements visited (and able to
    /// push again), the same order. See [the module docs](crate::parallel)
    /// for how, and for when it runs on one thread.
    ///
    /// The auto-remove predicate runs on the workers
    /// ([`ParAutoRemove`]); the removal hook runs on the calling thread,
    /// in the serial pass's order.
    ///
    /// # Panics
    ///
    /// A panic in the closure (on any thread), in the `Drop` of an element
    /// the closure drops, or in the removal hook reaches the caller once the
    /// round it happened in is settled; no further round runs. Nothing is
    /// lost: every element is either still in the collection or was handed
    /// to the hook (unless the closure removed it itself), and every push
    /// made before the panic is in the collection, unvisited. The element
    /// the panicking closure held stays in the collection. A hook call that
    /// panics costs no other element its hook call; if several panic, the
    /// first panic reaches the caller. See [the module
    /// docs](crate::parallel#panics).
    ///
    /// # Examples
    ///
    /// ```
    /// use read_write_collection::ReadWriteCollection;
    ///
    /// let mut particles: ReadWriteCollection<(f32, u32)> =
    ///     (0..1000).map(|i| (i as f32, i % 7)).collect();
    /// particles.par_traverse(|mut p| {
    ///     p.0 *= 0.5;
    ///     if p.1 == 0 {
    ///         p.remove();
    ///     } else if p.1 == 6 {
    ///         p.1 = 1;
    ///         let spark = (p.0, 0);
    ///         p.push(spark); // removed when visited, later in this pass
    ///     }
    /// });
    /// assert_eq!(particles.len(), 1000 - 143);
    /// assert!(particles.iter().all(|p| p.1 != 0));
    /// ```
    pub fn par_traverse<F>(&mut self, f: F)
    where
        F: Fn(ParEntry<'_, T>) + Sync + Send,
    {
        let max = self.store.max;
        if max != usize::MAX && self.store.unordered {
            // Which pushes a bounded collection refuses depends on every
            // removal before them, and in unordered mode the visiting
            // order is the serial cursor's own: only it reproduces both.
            self.traverse(|e| {
                f(ParEntry {
                    inner: Inner::Serial(e),
                })
            });
            return;
        }
        // The first panic of the pass (a worker's or the hook's), held
        // until the round it happened in is settled.
        let mut panic: Option<Box<dyn Any + Send>> = None;
        let mut start = 0;
        while start < self.store.vec.len() {
            let n = self.store.vec.len() - start;
            let chunks = if max != usize::MAX {
                1
            } else {
                chunk_count(n, rayon::current_num_threads())
            };
            let policy = &self.policy;
            let f = &f;
            let caught = &mut panic;
            let out = par_round(&mut self.store, start, chunks, |jobs| {
                // rayon lets the other jobs finish before it hands a
                // worker's panic on; catching it here lets the round's
                // removals and pushes be settled like any other round's.
                let ran = catch_unwind(AssertUnwindSafe(|| {
                    if let [job] = jobs {
                        work(job, policy, f, start, max);
                    } else {
                        jobs.par_iter_mut()
                            .for_each(|job| work(job, policy, f, start, max));
                    }
                }));
                if let Err(payload) = ran {
                    *caught = Some(payload);
                }
            });
            start = self.store.vec.len();
            for removed in out.removed {
                let mut values = removed.into_iter();
                // A panicking hook call costs no other element its hook
                // call: after a panic the walk resumes with the next value
                // (one `catch_unwind` per panic, not per element). The
                // first panic is the one reported; later ones are dropped.
                while let Err(payload) = catch_unwind(AssertUnwindSafe(|| {
                    values.by_ref().for_each(|value| self.policy.removed(value));
                })) {
                    if panic.is_none() {
                        panic = Some(payload);
                    } else {
                        crate::sync::discard_panic(payload);
                    }
                }
            }
            let pushed: usize = out.pushed.iter().map(Vec::len).sum();
            if max != usize::MAX {
                // Never allocate past the bound (`append` would double).
                self.store.vec.reserve_exact(pushed);
            }
            for mut list in out.pushed {
                self.store.vec.append(&mut list);
            }
            if let Some(payload) = panic {
                // As the serial pass: what was pushed stays, unvisited, and
                // the shrink policy runs as the cursor's drop runs it.
                self.store.after_pass();
                resume_unwind(payload);
            }
        }
        self.store.after_pass();
    }
}

#[cfg(test)]
mod tests {
    use super::{chunk_count, PAR_MIN_LEN};

    #[test]
    fn chunks_are_four_per_thread_and_never_smaller_than_half_the_minimum() {
        let half = PAR_MIN_LEN / 2;
        assert_eq!(chunk_count(PAR_MIN_LEN - 1, 8), 1);
        assert_eq!(chunk_count(PAR_MIN_LEN, 8), 2);
        assert_eq!(chunk_count(PAR_MIN_LEN, 1), 2);
        assert_eq!(chunk_count(5 * half, 8), 5);
        assert_eq!(chunk_count(5 * half + half - 1, 8), 5);
        assert_eq!(chunk_count(100 * half, 2), 8);
        assert_eq!(chunk_count(100 * half, 3), 12);
        assert_eq!(chunk_count(100 * half, 1), 4);
        assert_eq!(chunk_count(usize::MAX, usize::MAX), usize::MAX / half);
    }
}

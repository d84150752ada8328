//! The parallel round (feature `rayon`): parts walked in place on rayon's
//! workers, compacted in order, settled as the serial pass would be.

use alloc::vec::Vec;
use core::mem;
use core::ptr::{self, NonNull};

use super::pass::{capacity_overflow, Core, OwnNothing, Pass};
use super::positions::{add, distance, real};

// ------------------------------------------------------------- parallel
//
// A parallel round visits every unvisited element of a pass at once and
// leaves the pass as the serial cursor would after visiting them (see
// `par_round`). The workers claim parts in order; each walks its part in
// place (a removal leaves a hole, whose offset the part lists), then moves
// the compaction frontier on as far as it can: part by part, in order, the
// kept elements of every walked part whose predecessors are all compacted
// go to their final slots, right after the kept elements before them.
//
// ```text
//  buf     write(D)    read
//  | kept  |  free     | part 0  o o x o | part 1  o x o o | part 2 ...
//                        (x: hole, offset recorded in the part's list)
//
//  part 0 walked, compacted: its kept elements at [D, D + kept_0)
//  | kept  | p0 kept | free              | part 1  o x o o | part 2 ...
//
//  after:  | kept                      | pushes of the round, in part order |
//          buf                         write = read                         end
// ```
//
// Compacting part i writes only slots below its own last slot: the free
// ones before it (the pass's hole, and what the parts before it vacated,
// all compacted already) and its own, in increasing order (a kept element
// moves down or stays). Later parts, which other workers may still be
// walking, lie above. So every kept element moves at most once, while its
// part is still in the caches, and no element is parked.

#[cfg(feature = "rayon")]
/// The element lists one part of a parallel round fills; kept (empty,
/// with their capacity) between passes, so that a steady pass allocates
/// nothing.
pub(crate) struct PartLists<T> {
    /// Elements pushed while walking the part, in push order.
    pushed: Vec<T>,
    /// Elements the auto-remove policy took out, in removal order.
    removed: Vec<T>,
}

#[cfg(feature = "rayon")]
/// What the parallel rounds of a collection keep between passes, all of
/// it empty between rounds: per part its hole list, its element lists and
/// whether it was walked.
pub(crate) struct ParScratch<T> {
    /// Per part: offsets from the part's first slot, increasing, of the
    /// slots whose element was removed (moved out: the slot is a hole).
    holes: Vec<Vec<usize>>,
    lists: Vec<PartLists<T>>,
    walked: Vec<bool>,
    /// The time per element, in nanoseconds, the collection's last pass
    /// measured, as one thread's time (its serial walks, and the walks of
    /// its parallel rounds' parts added up; see `parallel::Control`);
    /// infinite before the first.
    pub(crate) last_rate_ns: f64,
}

#[cfg(feature = "rayon")]
impl<T> Default for ParScratch<T> {
    fn default() -> Self {
        ParScratch {
            holes: Vec::new(),
            lists: Vec::new(),
            walked: Vec::new(),
            last_rate_ns: f64::INFINITY,
        }
    }
}

#[cfg(feature = "rayon")]
/// A collection's [`ParScratch`], if a parallel pass made one.
pub(crate) struct KeptScratch<T>(pub(crate) Option<alloc::boxed::Box<ParScratch<T>>>);

#[cfg(feature = "rayon")]
impl<T> Clone for KeptScratch<T> {
    /// None: the lists hold nothing between passes, only capacity, which a
    /// clone does not need (its first parallel pass makes its own); the
    /// clone's first pass also measures its closure afresh.
    fn clone(&self) -> Self {
        KeptScratch(None)
    }
}

#[cfg(feature = "rayon")]
impl<T> ParScratch<T> {
    /// The auto-removed elements of the last round, per part, in part
    /// order: the caller hands them to the removal hook.
    pub(crate) fn removed_lists(&mut self) -> impl Iterator<Item = &mut Vec<T>> {
        self.lists.iter_mut().map(|l| &mut l.removed)
    }

    /// Drops the pushes left in the lists (see `par_settle_rest`); a drop
    /// that panics leaves the lists consistent (the values not yet
    /// dropped are still listed), so calling again finishes the job.
    pub(crate) fn drop_pushes(&mut self) {
        for l in &mut self.lists {
            while let Some(value) = l.pushed.pop() {
                drop(value);
            }
        }
    }
}

#[cfg(feature = "rayon")]
/// A pointer that a round's jobs share: the buffer (a job walks only the
/// slots of the parts it claimed, and the frontier's lock holder compacts
/// walked parts, see `par_round`), the store (only read while the parts
/// run: its `max`, when a part pushes), or the per-part hole and element
/// lists (each borrowed by the job that claimed its part, then read by the
/// lock holder).
struct Shared<P>(NonNull<P>);

#[cfg(feature = "rayon")]
// Not derived: a derive would require `P: Copy`.
impl<P> Clone for Shared<P> {
    fn clone(&self) -> Self {
        *self
    }
}

#[cfg(feature = "rayon")]
impl<P> Copy for Shared<P> {}

#[cfg(feature = "rayon")]
// SAFETY: the jobs that share it move elements between slots on several
// threads (the buffer), build passes that do (the store), or hand lists of
// elements and offsets from one thread to another (the part lists): that
// needs the pointee to be `Send`. The pointer itself is only an address;
// what may be done through it is argued where it is used.
unsafe impl<P: Send> Send for Shared<P> {}
#[cfg(feature = "rayon")]
// SAFETY: see `Send`: `&Shared` only hands out the address.
unsafe impl<P: Send> Sync for Shared<P> {}

#[cfg(feature = "rayon")]
impl<P> Shared<P> {
    /// The pointer (a method, so that closures capture the whole
    /// `Shared`, not its pointer field).
    #[inline(always)]
    fn get(self) -> NonNull<P> {
        self.0
    }
}

#[cfg(feature = "rayon")]
/// How a round's `n` elements from slot `read` split into parts: `bulk`
/// parts of `per` (the last of them possibly shorter) cover the first
/// `n - taper_len` elements, then parts of `taper_per` cover the last
/// `taper_len`, so the parts claimed last are small and the workers finish
/// close together (measured with parts of a uniform size: one worker idle
/// for 0.5-1.7 ms at the end of a 30 ms round).
#[derive(Clone, Copy)]
struct Split {
    read: usize,
    per: usize,
    bulk: usize,
    taper_per: usize,
    taper_len: usize,
    n: usize,
}

#[cfg(feature = "rayon")]
impl Split {
    /// How many pieces a tapering worker's last part is cut into.
    const TAPER: usize = 4;

    /// The split of `n` elements from `read` into about `parts` parts for
    /// `threads` workers: the last `threads` parts' worth is cut into
    /// parts a `TAPER`th their size. Sizes are clamped so that nothing
    /// overflows even near `usize::MAX` (zero-sized `T`).
    fn new(read: usize, n: usize, parts: usize, threads: usize) -> Self {
        let per = n.div_ceil(parts.max(1)).max(1);
        let taper_len = per.saturating_mul(threads).min(n);
        let taper_per = per.div_ceil(Self::TAPER).max(1);
        Split {
            read,
            per,
            bulk: (n - taper_len).div_ceil(per),
            taper_per,
            taper_len,
            n,
        }
    }

    /// How many parts there are (one, empty, for an empty round).
    fn parts(self) -> usize {
        (self.bulk + self.taper_len.div_ceil(self.taper_per)).max(1)
    }

    /// Part `i`'s first slot and length (`i < parts()`).
    #[inline]
    fn part(self, i: usize) -> (usize, usize) {
        let bulk_len = self.n - self.taper_len;
        let (s, e) = if i < self.bulk {
            (i * self.per, (i + 1).saturating_mul(self.per).min(bulk_len))
        } else {
            let j = i - self.bulk;
            (
                bulk_len + j * self.taper_per,
                bulk_len
                    .saturating_add((j + 1).saturating_mul(self.taper_per))
                    .min(self.n),
            )
        };
        (self.read + s, e - s)
    }
}

#[cfg(feature = "rayon")]
/// Compacts part `i` of a round: moves its kept elements (its slots that
/// are not `holes`, in order) to `[dest, dest + kept)`. Returns how many
/// moved (an element already in its place does not) and `dest + kept`,
/// where the next part's go.
///
/// # Safety
/// `buf` and `split` are the round's (see `par_round`), part `i` was
/// walked and `holes` is its hole list; `dest` is at most the part's first
/// slot and the slots `[dest, start)` are free; no other job touches the
/// part's slots or those.
unsafe fn compact_part<T>(
    buf: *mut T,
    split: Split,
    i: usize,
    holes: &[usize],
    dest: usize,
) -> (usize, usize) {
    let (start, len) = split.part(i);
    let mut moves = 0;
    let mut to = dest;
    let mut run = |from: usize, n: usize| {
        if n > 0 && from != to {
            // SAFETY: `[from, from + n)` are initialised kept elements of
            // the part; `to < from` (kept elements only move down), and
            // the slots of `[to, to + n)` below `from` are free: the slots
            // before the part (caller), or the part's own holes and slots
            // already moved from; the rest is the run itself, which
            // `ptr::copy` allows (an overlapping move).
            unsafe { ptr::copy(real(add(buf, from)), real(add(buf, to)), n) };
            moves += n;
        }
        to += n;
    };
    let mut at = start;
    for &h in holes {
        run(at, start + h - at);
        at = start + h + 1;
    }
    run(at, start + len - at);
    (moves, to)
}

#[cfg(feature = "rayon")]
/// Aborts the process if dropped: held across code that must not unwind,
/// then forgotten.
struct AbortOnUnwind;

#[cfg(feature = "rayon")]
impl Drop for AbortOnUnwind {
    fn drop(&mut self) {
        std::process::abort();
    }
}

#[cfg(feature = "rayon")]
/// Where the compaction of a round stands (see the section comment).
struct Frontier<'a> {
    /// The first part not yet compacted.
    next: usize,
    /// Where its first kept element goes.
    dest: usize,
    /// Which parts were walked.
    walked: &'a mut [bool],
    /// Elements moved so far.
    moves: usize,
}

#[cfg(feature = "rayon")]
/// Runs one round of a parallel pass over the next `n` unvisited elements
/// of `core` (`[read, read + n)`): splits them into `parts` parts, which
/// `threads` jobs on rayon's workers claim in order, walk with `walk` and
/// compact (see the section comment). Afterwards the pass is as the serial
/// cursor leaves it
/// after visiting those elements: kept ones in order at `[buf, write)`,
/// then unvisited: the elements that followed the `n` (the pushes of the
/// round's serial start), then the parts' pushes (in part order, each in
/// push order); no hole. The auto-removed elements are in
/// [`ParScratch::removed_lists`], for the caller's removal hook.
///
/// If `walk` panics, the part's held element and its unvisited ones are
/// kept (as visited, in order), every other part is walked to its end,
/// and the first panic (in part order) is returned, with the round settled
/// as above.
///
/// Returns that; how many of the round's pushes are left in the lists
/// (the buffer could not grow for all of them, an allocation that failed,
/// so only the first ones that fit follow the unvisited elements, as the
/// serial pass keeps the pushes made before the one that cannot grow the
/// buffer: the caller hands the removed elements to the hook, then
/// [`par_settle_rest`] tries once more for the rest); and what the round
/// kept and moved, for the caller to count.
///
/// # Panics
/// On capacity overflow (zero-sized `T` only): the pass is then
/// consistent (kept elements in place, the tail unvisited) and the round's
/// pushes are left in `scratch`, which drops them. Also if an element is
/// held or the pass is buffered (a bug in the caller).
pub(crate) fn par_round<T: Send>(
    core: &mut Core<T>,
    scratch: &mut ParScratch<T>,
    n: usize,
    parts: usize,
    threads: usize,
    walk: impl Fn(Pass<'_, T>, &mut Vec<T>) + Sync,
) -> (
    Result<(), alloc::boxed::Box<dyn core::any::Any + Send + 'static>>,
    usize,
    RoundCounts,
) {
    use core::sync::atomic::{AtomicUsize, Ordering};
    use rayon::prelude::*;
    use std::panic::{catch_unwind, AssertUnwindSafe};
    use std::sync::{Mutex, PoisonError};

    assert!(!core.held && core.pending.is_none() && parts > 0);
    let c = core.c;
    // SAFETY (the `distance`s): positions ordered in one allocation.
    let (write, read, end) = unsafe {
        (
            distance(c.buf, c.write),
            distance(c.buf, c.read),
            distance(c.buf, c.end),
        )
    };
    assert!(
        n <= end - read,
        "the round is longer than what is unvisited"
    );
    let tail = end - read - n;
    let split = Split::new(read, n, parts.min(n).max(1), threads);
    let parts = split.parts();
    let ParScratch {
        holes,
        lists,
        walked,
        last_rate_ns: _,
    } = scratch;
    if holes.len() < parts {
        holes.resize_with(parts, Vec::new);
        lists.resize_with(parts, || PartLists {
            pushed: Vec::new(),
            removed: Vec::new(),
        });
        walked.resize(parts, false);
    }
    for ((h, l), w) in holes
        .iter_mut()
        .zip(lists.iter_mut())
        .zip(walked.iter_mut())
    {
        h.clear();
        // Empty unless the caller's hook loop was abandoned by a panic.
        l.removed.clear();
        debug_assert!(l.pushed.is_empty());
        *w = false;
    }
    let buf = Shared(NonNull::new(c.buf).expect("a `Vec`'s pointer is not null"));
    let part_holes = Shared(NonNull::new(holes.as_mut_ptr()).expect("not null"));
    let part_lists = Shared(NonNull::new(lists.as_mut_ptr()).expect("not null"));

    // --- The workers claim the parts in order and walk them in place;
    // after each part, the worker moves the compaction frontier on. Until
    // the frontier is past the last part, the slots `[write, end)` belong
    // to the round (the `Vec` claims nothing: leak amplification of the
    // pass). No user code runs under the frontier's lock, and nothing
    // there allocates (or unwinds).
    // A part that panics stops there (its held and unvisited elements are
    // kept, in order); the others run to their ends. The first panic (in
    // part order) is returned.
    let store = Shared(core.store);
    let claim = AtomicUsize::new(0);
    let frontier = Mutex::new(Frontier {
        next: 0,
        dest: write,
        walked: &mut walked[..parts],
        moves: 0,
    });
    let first_panic: Mutex<Option<(usize, alloc::boxed::Box<dyn core::any::Any + Send>)>> =
        Mutex::new(None);
    let work = || loop {
        let i = claim.fetch_add(1, Ordering::Relaxed);
        if i >= parts {
            return;
        }
        let (start, len) = split.part(i);
        let walk_result = {
            // SAFETY: part `i` is claimed by this job alone (the counter
            // hands every index out once), so its hole list and element
            // lists are borrowed by nothing else until it is marked walked
            // (the borrows end with this block); other parts' are other
            // elements of the same arrays.
            let (holes_i, lists_i) = unsafe {
                (
                    &mut *part_holes.get().as_ptr().add(i),
                    &mut *part_lists.get().as_ptr().add(i),
                )
            };
            // SAFETY: part `i`'s slots are initialised (unvisited elements of
            // the pass), disjoint from every other part's, and no compaction
            // touches them before the part is marked walked (below); the store
            // is only read meanwhile.
            let pass = unsafe {
                Pass::part(
                    store.get(),
                    add(buf.get().as_ptr(), start),
                    len,
                    &mut lists_i.pushed,
                    holes_i,
                )
            };
            catch_unwind(AssertUnwindSafe(|| walk(pass, &mut lists_i.removed)))
        };
        if let Err(payload) = walk_result {
            // The payload that loses is dropped after the lock is released:
            // its `Drop` is user code.
            let loser = {
                let mut first = first_panic.lock().unwrap_or_else(PoisonError::into_inner);
                match &*first {
                    Some((j, _)) if *j < i => Some(payload),
                    _ => first.replace((i, payload)).map(|(_, later)| later),
                }
            };
            if let Some(loser) = loser {
                crate::sync::discard_panic(loser);
            }
        }
        let mut f = frontier.lock().unwrap_or_else(PoisonError::into_inner);
        f.walked[i] = true;
        while f.next < parts && f.walked[f.next] {
            let k = f.next;
            // SAFETY: part `k` was walked (its walker is done with its
            // hole list: the lock orders that before this); parts before
            // it are compacted, so `[dest, start_k)` is free; parts after
            // it lie above its slots; only the lock holder compacts.
            let holes_k = unsafe { &*part_holes.get().as_ptr().add(k) };
            // SAFETY: as above (`compact_part`'s contract).
            let (moved, next_dest) =
                unsafe { compact_part(buf.get().as_ptr(), split, k, holes_k, f.dest) };
            f.moves += moved;
            f.dest = next_dest;
            f.next += 1;
        }
    };
    // From here until the counters are rewritten the buffer holds holes
    // the pass does not know about: an unwind (only a bug, or an
    // allocation failure in rayon whose handler unwinds) would let the
    // pass drop uninitialised slots. Abort instead.
    let no_unwind = AbortOnUnwind;
    if parts == 1 || threads < 2 {
        work();
    } else {
        (0..threads).into_par_iter().for_each(|_| work());
    }
    let f = frontier
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    if f.next != parts {
        // Cannot happen: every part is claimed and walked (a panic in
        // `walk` is caught), and its walker moves the frontier on after
        // it. Were it a bug, the parts past the frontier would hold holes:
        // abort rather than unwind over them.
        std::process::abort();
    }
    let (new_write, moves) = (f.dest, f.moves);
    let ran = first_panic
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .map_or(Ok(()), |(_, payload)| Err(payload));
    for h in holes.iter_mut() {
        h.clear();
    }

    // --- the elements after the round (`tail` of them), then the pushes,
    // right after the kept elements (no hole). The counters first, so that
    // a growth failure below leaves a consistent pass: kept
    // `[0, new_write)`, the tail unvisited.
    let tail_from = read + n;
    // SAFETY: `[tail_from, end)` is initialised and untouched by the
    // round; `new_write <= tail_from`, and `[new_write, tail_from)` is free
    // after the compaction; `ptr::copy` allows the overlap.
    unsafe {
        if tail > 0 && tail_from != new_write {
            ptr::copy(
                real(add(c.buf, tail_from)),
                real(add(c.buf, new_write)),
                tail,
            );
        }
        core.c.write = add(c.buf, new_write);
        core.c.read = core.c.write;
        core.c.gap = false;
        core.c.end = add(c.buf, new_write + tail);
    }
    mem::forget(no_unwind);
    let counts = RoundCounts {
        kept: new_write - write,
        moves,
    };
    // The round's pushes follow, as many as the buffer can be grown for:
    // a growth that fails leaves the rest in the lists, in order, for
    // `par_settle_rest` once the removal hook has run.
    let left = settle_pushes(core, &mut lists[..parts], true);
    (ran, left, counts)
}

#[cfg(feature = "rayon")]
/// What a parallel round did (see [`par_round`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RoundCounts {
    /// The round's elements it kept.
    pub(crate) kept: usize,
    /// Kept elements it moved (one already in its place does not move).
    pub(crate) moves: usize,
}

#[cfg(feature = "rayon")]
/// After a round whose growth failed (`par_round` left `left > 0` pushes
/// in the lists) and whose removed elements went to the hook: grows the
/// buffer for the rest of the round's pushes and appends them, or panics
/// as `Vec::reserve` does (capacity overflow, or the allocation error
/// handler) leaving them in the lists, which the caller drops.
pub(crate) fn par_settle_rest<T>(core: &mut Core<T>, scratch: &mut ParScratch<T>) {
    let left = settle_pushes(core, &mut scratch.lists, false);
    debug_assert_eq!(left, 0, "a growth that cannot fail left pushes behind");
}

#[cfg(feature = "rayon")]
/// Moves the pushes queued in `lists` (list after list, each in push
/// order) to the end of the pass's elements, `[0, end)` of `core`'s
/// buffer (the kept elements of the round, then the unvisited ones after
/// it: its tail), and points the counters past them; a round has just
/// ended, so the next element to visit is at `write`. Returns how many
/// pushes it left in the lists.
///
/// Grows the buffer first. With `fallible`, a growth that fails moves
/// only the pushes that fit (the first ones) and leaves the rest at the
/// front of the lists, in order; without, a growth that fails panics as
/// `Vec::reserve` does, before anything moved. Nothing else can fail: the
/// counters are consistent before and after.
fn settle_pushes<T>(core: &mut Core<T>, lists: &mut [PartLists<T>], fallible: bool) -> usize {
    let c = core.c;
    // SAFETY (the `distance`s): positions ordered in one allocation.
    let (write, unvisited) = unsafe { (distance(c.buf, c.write), distance(c.buf, c.end)) };
    let pushed = lists
        .iter()
        .try_fold(0usize, |sum, l| sum.checked_add(l.pushed.len()));
    let Some(pushed) = pushed.filter(|&p| unvisited.checked_add(p).is_some()) else {
        // Zero-sized `T` only (elements that take memory would have
        // overflowed their allocation first), as a serial push would.
        capacity_overflow();
    };
    if pushed == 0 {
        return 0;
    }
    // SAFETY: `store` is uniquely borrowed for the pass, and nothing else
    // refers to it during this call.
    let store = unsafe { core.store.as_mut() };
    let mut room = pushed;
    if mem::size_of::<T>() != 0 && store.vec.capacity() - unvisited < pushed {
        // The `Vec` briefly claims the kept and tail elements, so that
        // growing carries them over; the guard takes the claim back on
        // every exit (see `make_room`).
        let guard = OwnNothing(&mut store.vec);
        // SAFETY: `[0, unvisited)` is initialised.
        unsafe { guard.0.set_len(unvisited) };
        if !fallible {
            guard.0.reserve(pushed);
        } else if guard.0.try_reserve(pushed).is_err() {
            room = guard.0.capacity() - unvisited;
        }
    }
    let buf = store.vec.as_mut_ptr();
    let mut at = unvisited;
    for l in lists.iter_mut() {
        let len = l.pushed.len();
        let k = len.min(room);
        if k == 0 {
            continue;
        }
        let src = l.pushed.as_mut_ptr();
        // SAFETY: `at + k <= unvisited + room <= capacity` (for zero-sized
        // `T` the capacity is unlimited), the slots past `unvisited` are
        // free; the list's first `k` values move out, the rest (if any)
        // move to its front (`ptr::copy` allows the overlap), and its
        // length forgets the slots they left.
        unsafe {
            ptr::copy_nonoverlapping(real(src), real(add(buf, at)), k);
            if k < len {
                ptr::copy(real(add(src, k)), real(src), len - k);
            }
            l.pushed.set_len(len - k);
        }
        at += k;
        room -= k;
    }
    let limit = store.vec.capacity().min(store.max).max(at);
    // SAFETY: all within the (possibly new) allocation.
    unsafe {
        core.c.buf = buf;
        core.c.write = add(buf, write);
        core.c.read = core.c.write;
        core.c.gap = false;
        core.c.end = add(buf, at);
        core.c.limit = add(buf, limit);
    }
    pushed - (at - unvisited)
}

#[cfg(all(test, feature = "rayon"))]
mod split_tests {
    use super::Split;
    use alloc::vec::Vec;

    /// Every part of `split`, in order.
    fn parts_of(split: Split) -> Vec<(usize, usize)> {
        (0..split.parts()).map(|i| split.part(i)).collect()
    }

    #[test]
    fn a_rounds_parts_cover_it_in_order_and_taper_at_the_end() {
        for n in [0, 1, 2, 7, 100, 1000, 4096, 10_007, 1_000_000] {
            for parts in [1, 2, 3, 8, 37, 5000] {
                for threads in [1, 2, 3, 8] {
                    let split = Split::new(5, n, parts.min(n).max(1), threads);
                    let got = parts_of(split);
                    // Contiguous, in order, from `read` to `read + n`.
                    let mut at = 5;
                    for &(start, len) in &got {
                        assert_eq!(start, at, "n {n} parts {parts} threads {threads}");
                        assert!(len > 0 || n == 0);
                        at += len;
                    }
                    assert_eq!(at, 5 + n);
                    if n == 0 {
                        assert_eq!(got, [(5, 0)]);
                        continue;
                    }
                    // The parts claimed last are a quarter of the others
                    // (rounded up), and no part is longer than the first.
                    let per = n.div_ceil(parts.min(n));
                    let last = got.last().unwrap().1;
                    assert!(last <= per.div_ceil(Split::TAPER));
                    assert!(got.iter().all(|&(_, len)| len <= got[0].1));
                }
            }
        }
        // A round of 1M elements in 37 parts on 2 threads: 35 parts of
        // 27,028 (the last one shorter), then 8 of 6,757.
        let split = Split::new(0, 1_000_000, 37, 2);
        let got = parts_of(split);
        assert_eq!(got.len(), 35 + 8);
        assert_eq!(got[0], (0, 27_028));
        assert_eq!(got[35].1, 6_757);
    }

    /// No overflow near `usize::MAX` (zero-sized elements).
    #[test]
    fn a_split_of_nearly_usize_max_elements_does_not_overflow() {
        let n = usize::MAX - 10;
        let split = Split::new(3, n, 4, 2);
        let got = parts_of(split);
        let total = got
            .iter()
            .fold(0usize, |t, &(_, len)| t.checked_add(len).unwrap());
        assert_eq!(total, n);
        assert_eq!(
            got.last().map(|&(s, l)| s.checked_add(l)),
            Some(Some(3 + n))
        );
    }
}

//! `par_traverse` leaves a collection exactly as `traverse` does, for
//! closures whose effect depends only on the element; it survives panics
//! on any worker with every element in the collection or dropped once.
#![cfg(feature = "rayon")]

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use quickcheck::{Arbitrary, Gen, QuickCheck};
use read_write_collection::parallel::{ParMode, PAR_MIN_LEN};
use read_write_collection::{Mode, ParEntry, ReadWriteCollection};

mod common;
use common::splitmix;

/// Depth of a generated element lives in the low 2 bits: elements of
/// depth 3 push nothing, so every pass ends.
const DEPTH: u64 = 3;

/// The per-element program: what happens depends only on the value.
/// About 15% removed, 10% push 1-3 children (which may remove or push
/// again), 5% are replaced by two children (`remove_and_spawn`), the rest
/// updated in place.
fn program(mut e: ParEntryLike<'_>) {
    let v = e.get();
    let h = splitmix(v);
    match h % 20 {
        0..=2 => e.remove(),
        5 if v & DEPTH < DEPTH => {
            let child = |k: u64| (splitmix(v ^ (k << 20)) & !DEPTH) | ((v & DEPTH) + 1);
            e.split([child(1), child(2)]);
        }
        3 | 4 if v & DEPTH < DEPTH => {
            let children = 1 + (h >> 8) % 3;
            for k in 0..children {
                let child = (splitmix(v ^ k) & !DEPTH) | ((v & DEPTH) + 1);
                e.push(child);
            }
            e.set(v.wrapping_add(1 << 40));
        }
        _ => e.set(v.wrapping_add(1 << 40)),
    }
}

/// The same program over either kind of entry.
enum ParEntryLike<'a> {
    Serial(read_write_collection::Entry<'a, u64>),
    Par(ParEntry<'a, u64>),
}

impl ParEntryLike<'_> {
    fn get(&self) -> u64 {
        match self {
            ParEntryLike::Serial(e) => **e,
            ParEntryLike::Par(e) => **e,
        }
    }
    fn set(&mut self, v: u64) {
        match self {
            ParEntryLike::Serial(e) => **e = v,
            ParEntryLike::Par(e) => **e = v,
        }
    }
    fn remove(self) {
        match self {
            ParEntryLike::Serial(e) => drop(e.remove()),
            ParEntryLike::Par(e) => drop(e.remove()),
        }
    }
    /// Removes the element and pushes `children` in its place (unless
    /// the collection is full, as `push`).
    fn split(self, children: [u64; 2]) {
        match self {
            ParEntryLike::Serial(e) => {
                let (_, mut spawn) = e.remove_and_spawn();
                for c in children {
                    let _ = spawn.try_push(c);
                }
            }
            ParEntryLike::Par(e) => {
                let (_, mut spawn) = e.remove_and_spawn();
                for c in children {
                    let _ = spawn.try_push(c);
                }
            }
        }
    }
    /// Pushes unless the collection is full (the refused value is dropped
    /// in both passes alike).
    fn push(&mut self, v: u64) {
        let _ = match self {
            ParEntryLike::Serial(e) => e.try_push(v).map_err(|_| ()),
            ParEntryLike::Par(e) => e.try_push(v).map_err(|_| ()),
        };
    }
}

/// A random starting population: small or large (past the parallel
/// threshold), values with depth 0.
#[derive(Clone, Debug)]
struct Population(Vec<u64>);

impl Arbitrary for Population {
    fn arbitrary(g: &mut Gen) -> Self {
        let big = PAR_MIN_LEN * 4;
        let n = match u8::arbitrary(g) % 4 {
            0 => usize::arbitrary(g) % 64,
            1 => usize::arbitrary(g) % PAR_MIN_LEN,
            _ => PAR_MIN_LEN + usize::arbitrary(g) % big,
        };
        let seed = u64::arbitrary(g);
        Population((0..n as u64).map(|i| splitmix(seed ^ i) & !DEPTH).collect())
    }

    /// Halves (each half keeps its elements' values), then, once small,
    /// quickcheck's element-wise shrinking.
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let v = &self.0;
        if v.len() > 64 {
            let (a, b) = v.split_at(v.len() / 2);
            return Box::new([Population(a.to_vec()), Population(b.to_vec())].into_iter());
        }
        Box::new(
            v.shrink()
                .map(|v| Population(v.into_iter().map(|x| x & !DEPTH).collect())),
        )
    }
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

fn tests() -> u64 {
    if cfg!(miri) {
        2
    } else {
        30
    }
}

/// The pass under test: `par_traverse` itself (which decides per round
/// whether to split), or with every round past its start forced parallel
/// (however small), so that the parallel machinery runs on every input.
fn par_pass(c: &mut ReadWriteCollection<u64>, mode: ParMode) {
    c.par_traverse_with(mode, |e| program(ParEntryLike::Par(e)));
}

/// `par_traverse` against `traverse` on a clone, in pools of 1, 2 and 4
/// threads, in both modes, for the collection `make` builds from the
/// population: two passes each (the second is planned from the first).
fn same_as_serial(make: fn(Vec<u64>) -> ReadWriteCollection<u64>, p: Population) -> bool {
    let base = make(p.0);
    let mut serial = base.clone();
    for _ in 0..2 {
        serial.traverse(|e| program(ParEntryLike::Serial(e)));
    }
    let threads: &[usize] = if cfg!(miri) { &[2] } else { &[1, 2, 4] };
    for (&t, mode) in threads
        .iter()
        .flat_map(|t| [(t, ParMode::Auto), (t, ParMode::Parallel)])
    {
        let mut par = base.clone();
        pool(t).install(|| {
            par_pass(&mut par, mode);
            par_pass(&mut par, mode);
        });
        if base.mode() == Mode::Unordered {
            let (mut a, mut b) = (serial.as_slice().to_vec(), par.as_slice().to_vec());
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "{t} threads, {mode:?}: multiset differs");
        } else {
            assert_eq!(serial.as_slice(), par.as_slice(), "{t} threads, {mode:?}");
        }
        assert_eq!(serial.max_len(), par.max_len());
        if let Some(max) = par.max_len() {
            assert!(par.len() <= max && par.capacity() <= max.max(par.len()));
        }
    }
    true
}

#[test]
fn par_traverse_leaves_what_traverse_leaves() {
    QuickCheck::new()
        .tests(tests())
        .quickcheck(same_as_serial as fn(Population) -> bool);
    fn same_as_serial(p: Population) -> bool {
        super_same(ReadWriteCollection::from, p)
    }
    fn super_same(make: fn(Vec<u64>) -> ReadWriteCollection<u64>, p: Population) -> bool {
        crate::same_as_serial(make, p)
    }
}

#[test]
fn par_traverse_on_a_bounded_collection_refuses_the_same_pushes() {
    fn check(p: Population) -> bool {
        same_as_serial(
            |v| {
                let mut c = ReadWriteCollection::bounded(v.len() + v.len() / 20 + 3);
                c.extend(v);
                c
            },
            p,
        )
    }
    QuickCheck::new()
        .tests(tests())
        .quickcheck(check as fn(Population) -> bool);
}

#[test]
fn par_traverse_in_unordered_mode_leaves_the_same_multiset() {
    fn check(p: Population) -> bool {
        same_as_serial(
            |v| {
                let mut c = ReadWriteCollection::from(v);
                c.set_mode(Mode::Unordered);
                c
            },
            p,
        )
    }
    QuickCheck::new()
        .tests(tests())
        .quickcheck(check as fn(Population) -> bool);
}

#[test]
fn par_traverse_applies_the_predicate_and_calls_the_hook_in_serial_order() {
    fn check(p: Population) -> bool {
        let expired = |v: &u64| v % 13 == 5;
        let mut serial_hooked = Vec::new();
        let mut par_hooked = Vec::new();
        let mut serial = ReadWriteCollection::with_auto_remove(expired)
            .with_removal_hook(|v| serial_hooked.push(v));
        serial.extend(p.0.iter().copied());
        let mut par = ReadWriteCollection::with_auto_remove(expired)
            .with_removal_hook(|v| par_hooked.push(v));
        par.extend(p.0.iter().copied());
        serial.traverse(|e| program(ParEntryLike::Serial(e)));
        pool(2).install(|| {
            par.par_traverse_with(ParMode::Parallel, |e| program(ParEntryLike::Par(e)))
        });
        assert_eq!(serial.as_slice(), par.as_slice());
        drop((serial, par));
        assert_eq!(serial_hooked, par_hooked, "hook values and order");
        true
    }
    QuickCheck::new()
        .tests(tests())
        .quickcheck(check as fn(Population) -> bool);
}

/// A closure predicate written inline in `with_auto_remove` is `Fn +
/// Sync` (its kind comes from its body), so the collection can run
/// `par_traverse`, in parallel rounds and serially, with the serial
/// pass's result; a predicate that keeps state (`FnMut`) still works with
/// the serial traversals.
#[test]
fn an_inline_closure_predicate_works_with_par_traverse() {
    let n = 3 * PAR_MIN_LEN as u64;
    let mut par = ReadWriteCollection::with_auto_remove(|v: &u64| *v % 97 == 0);
    par.extend(0..n);
    let mut serial = ReadWriteCollection::with_auto_remove(|v: &u64| *v % 97 == 0);
    serial.extend(0..n);
    let bump = |mut e: ParEntry<'_, u64>| {
        if *e % 5 == 0 {
            *e += 1;
        }
    };
    let stats = pool(2).install(|| par.par_traverse_with(ParMode::Parallel, bump));
    assert!(stats.rounds > 0, "the pass ran in parallel rounds");
    serial.traverse(|mut e| {
        if *e % 5 == 0 {
            *e += 1;
        }
    });
    assert_eq!(par.as_slice(), serial.as_slice());
    assert!(par.iter().all(|v| v % 97 != 0));
    par.par_traverse(bump);
    serial.traverse(|mut e| {
        if *e % 5 == 0 {
            *e += 1;
        }
    });
    assert_eq!(par.as_slice(), serial.as_slice());

    let mut asked = 0;
    let mut stateful = ReadWriteCollection::with_auto_remove(|v: &u64| {
        asked += 1;
        *v > 2
    });
    stateful.extend([1, 5, 2, 7]);
    stateful.prune();
    assert_eq!(stateful.as_slice(), [1, 2]);
    drop(stateful);
    assert_eq!(asked, 4);
}

/// A drop-counted element that is `Send + Sync` (drops can happen on any
/// worker thread).
struct Counted {
    id: usize,
    val: u64,
    drops: Arc<Vec<AtomicU32>>,
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.drops[self.id].fetch_add(1, Ordering::Relaxed);
    }
}

struct Counter {
    drops: Arc<Vec<AtomicU32>>,
    next: usize,
}

impl Counter {
    fn new(capacity: usize) -> Self {
        Counter {
            drops: Arc::new((0..capacity).map(|_| AtomicU32::new(0)).collect()),
            next: 0,
        }
    }
    fn make(&mut self, val: u64) -> Counted {
        let id = self.next;
        self.next += 1;
        Counted {
            id,
            val,
            drops: Arc::clone(&self.drops),
        }
    }
    fn counts(&self) -> Vec<u32> {
        self.drops[..self.next]
            .iter()
            .map(|d| d.load(Ordering::Relaxed))
            .collect()
    }
}

#[test]
fn a_panic_on_a_worker_leaves_every_element_in_place_or_dropped_once() {
    let n = PAR_MIN_LEN * 6;
    for (threads, bad) in [(2, n / 2), (4, 7), (2, n - 1), (1, n / 3)] {
        let mut counter = Counter::new(n + n / 4);
        let mut c: ReadWriteCollection<Counted> = (0..n as u64).map(|v| counter.make(v)).collect();
        // Children are made up front: ids must be unique across threads.
        let children: Vec<std::sync::Mutex<Option<Counted>>> = (0..n / 8)
            .map(|i| std::sync::Mutex::new(Some(counter.make(1_000_000 + i as u64))))
            .collect();
        let result = catch_unwind(AssertUnwindSafe(|| {
            pool(threads).install(|| {
                c.par_traverse_with(ParMode::Parallel, |mut e| {
                    let v = e.val;
                    if v == bad as u64 {
                        panic!("element {v}");
                    }
                    if v % 5 == 0 {
                        drop(e.remove());
                    } else if v % 8 == 1 && v < 1_000_000 {
                        if let Some(child) = children[v as usize / 8].lock().unwrap().take() {
                            e.push(child);
                        }
                    } else {
                        e.val += 0;
                    }
                })
            })
        }));
        assert!(result.is_err(), "the panic reaches the caller");
        let in_collection: Vec<usize> = c.iter().map(|e| e.id).collect();
        let mut seen = vec![false; counter.next];
        for &id in &in_collection {
            assert!(!seen[id], "element {id} is in the collection twice");
            seen[id] = true;
        }
        drop(c);
        drop(children);
        let counts = counter.counts();
        assert!(
            counts.iter().all(|&d| d == 1),
            "{threads} threads, panic at {bad}: every element dropped exactly once"
        );
    }
}

#[test]
fn small_collections_run_on_one_thread() {
    let mut c: ReadWriteCollection<u32> = (0..(PAR_MIN_LEN as u32 - 1)).collect();
    let threads = std::sync::Mutex::new(std::collections::HashSet::new());
    pool(4).install(|| {
        c.par_traverse(|_| {
            threads.lock().unwrap().insert(std::thread::current().id());
        })
    });
    assert_eq!(
        threads.into_inner().unwrap().len(),
        1,
        "below PAR_MIN_LEN one thread walks it all"
    );
}

#[test]
fn large_collections_use_several_threads() {
    if cfg!(miri) {
        return; // thread scheduling under Miri is not representative
    }
    let mut c: ReadWriteCollection<u64> = (0..(PAR_MIN_LEN as u64 * 32)).collect();
    let threads = std::sync::Mutex::new(std::collections::HashSet::new());
    pool(2).install(|| {
        c.par_traverse(|mut e| {
            // Enough work per element that both workers get to steal.
            let mut x = *e;
            for _ in 0..200 {
                x = splitmix(x);
            }
            *e = x;
            threads.lock().unwrap().insert(std::thread::current().id());
        })
    });
    assert_eq!(threads.into_inner().unwrap().len(), 2);
}

/// A zero-sized collection within the chunk count of `usize::MAX`: chunk
/// bounds must not overflow (found in review: the last chunk used to
/// claim elements that did not exist, in release builds).
#[test]
#[allow(unsafe_code, clippy::uninit_vec)] // `()` is zero-sized: nothing to initialise
fn zero_sized_collection_at_usize_max_splits_into_exact_chunks() {
    let mut v: Vec<()> = Vec::new();
    // SAFETY: a `Vec<()>` has capacity `usize::MAX` and nothing to initialise.
    unsafe { v.set_len(usize::MAX) };
    let mut c = ReadWriteCollection::from(v);
    let removed = std::sync::atomic::AtomicUsize::new(0);
    let result = catch_unwind(AssertUnwindSafe(|| {
        pool(2).install(|| {
            c.par_traverse_with(ParMode::Parallel, |e| {
                e.remove();
                // The round's start (a few thousand elements) runs
                // serially; the panics come from the parallel parts.
                if removed.fetch_add(1, Ordering::Relaxed) >= 4096 {
                    panic!("stop after one element per part");
                }
            })
        })
    }));
    assert!(result.is_err());
    let removed = removed.into_inner();
    assert!(removed >= 1);
    assert_eq!(c.len(), usize::MAX - removed, "every element accounted for");
}

/// The parallel rounds move each kept element at most once: on two
/// threads, with 10% of the elements removed and 5% pushing a child, the
/// compaction makes no more moves than it keeps elements (and most kept
/// elements do move: those after the first removal).
#[test]
fn parallel_rounds_move_kept_elements_at_most_once() {
    let n: u64 = if cfg!(miri) { 400 } else { 200_000 };
    let mut c: ReadWriteCollection<u64> = (0..n).map(|i| splitmix(i) & !DEPTH).collect();
    let mut serial = c.clone();
    let step = |v: u64| splitmix(v) % 20;
    let stats = pool(2).install(|| {
        c.par_traverse_with(ParMode::Parallel, |mut e| match step(*e) {
            0 | 1 if *e & DEPTH == 0 => {
                e.remove();
            }
            2 if *e & DEPTH == 0 => e.push(*e | 1),
            _ => *e = e.wrapping_add(1 << 40),
        })
    });
    serial.traverse(|mut e| match step(*e) {
        0 | 1 if *e & DEPTH == 0 => {
            e.remove();
        }
        2 if *e & DEPTH == 0 => e.push(*e | 1),
        _ => *e = e.wrapping_add(1 << 40),
    });
    assert_eq!(c, serial);
    assert!(stats.rounds >= 1, "{stats:?}");
    assert!(stats.moves <= stats.kept, "{stats:?}");
    assert!(stats.moves > stats.kept / 2, "{stats:?}");
}

//! A panic during `par_traverse` (in the closure on any worker, in the
//! `Drop` of an element the closure removed, in the removal hook) loses
//! nothing: every element ends in the collection, in the hook or with the
//! closure that removed it, and every push made before the panic stays in
//! the collection, unvisited, as the serial `traverse` leaves them.
//!
//! Where the parallel outcome is deterministic and the serial pass reaches
//! the same point (the panic in the last chunk of a round, or in a round
//! that runs in one chunk), the two are compared element by element;
//! otherwise the conservation law is checked exactly, by element id, and
//! every element made is dropped exactly once.
#![cfg(feature = "rayon")]

use std::ops::DerefMut;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use read_write_collection::parallel::{ParAutoRemove, ParMode, PAR_MIN_LEN};
use read_write_collection::{Entry, ParEntry, ReadWriteCollection, ShrinkPolicy};

/// Original elements: several chunks per round (4 chunks of 5,000 on two
/// threads natively, 8 chunks of 10 under Miri). The pushed elements
/// (one in eight) make a second round below `PAR_MIN_LEN`, which runs in
/// one chunk.
fn n() -> usize {
    if cfg!(miri) {
        5 * PAR_MIN_LEN
    } else {
        20_000
    }
}

/// Passes left: 0 (removed on arrival by the predicate), 1 (expires in
/// this pass, removed when the cursor moves on) or 3.
fn ttl_of(id: usize) -> u32 {
    match id % 5 {
        0 => 0,
        1 => 1,
        _ => 3,
    }
}

/// Originals (`0..n`) and their children (`n..2n`) push one element each
/// when `id % 8 == 3`; the pushed element's id is `id + n`, so ids stay
/// unique across threads without any coordination.
fn pushes(id: usize) -> bool {
    id < 2 * n() && (id % n()) % 8 == 3
}

/// Removed by the closure itself.
fn closure_removes(id: usize) -> bool {
    id % 7 == 4
}

/// Which element makes the pass panic, and how.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Fault {
    None,
    /// The closure sets the element's ttl to 0 (the predicate would remove
    /// it) and panics while holding it.
    Closure(usize),
    /// The closure removes the element and drops it; its `Drop` panics.
    Drop(usize),
}

/// Records which ids were made and how often each was dropped.
struct Track {
    made: Vec<AtomicU32>,
    drops: Vec<AtomicU32>,
}

impl Track {
    fn new() -> Arc<Self> {
        let ids = 3 * n();
        Arc::new(Track {
            made: (0..ids).map(|_| AtomicU32::new(0)).collect(),
            drops: (0..ids).map(|_| AtomicU32::new(0)).collect(),
        })
    }

    fn item(self: &Arc<Self>, id: usize, ttl: u32) -> Item {
        let before = self.made[id].fetch_add(1, Ordering::Relaxed);
        assert_eq!(before, 0, "element {id} made twice");
        Item {
            id,
            ttl,
            bomb: false,
            track: Arc::clone(self),
        }
    }

    fn originals(self: &Arc<Self>) -> impl Iterator<Item = Item> + '_ {
        (0..n()).map(|id| self.item(id, ttl_of(id)))
    }

    fn made(&self, id: usize) -> u32 {
        self.made[id].load(Ordering::Relaxed)
    }

    /// Every element made is found exactly once, in exactly one of the
    /// places.
    fn assert_conserved(
        &self,
        pass: &str,
        collection: &[usize],
        hooked: &[usize],
        by_closure: &[usize],
    ) {
        let mut found = vec![0u32; self.made.len()];
        for &id in collection.iter().chain(hooked).chain(by_closure) {
            found[id] += 1;
        }
        let made: u32 = (0..found.len()).map(|id| self.made(id)).sum();
        for (id, &f) in found.iter().enumerate() {
            assert_eq!(
                f,
                self.made(id),
                "{pass} pass, element {id}: made {} times, found {f} times; {} made, {} in \
                 the collection, {} handed to the hook, {} removed by the closure",
                self.made(id),
                made,
                collection.len(),
                hooked.len(),
                by_closure.len()
            );
        }
    }

    fn assert_each_dropped_once(&self, pass: &str) {
        for id in 0..self.made.len() {
            assert_eq!(
                self.drops[id].load(Ordering::Relaxed),
                self.made(id),
                "{pass} pass, element {id}: drops"
            );
        }
    }
}

/// An element with a unique id and a ttl whose drops are counted; its
/// `Drop` panics when `bomb` is set.
struct Item {
    id: usize,
    ttl: u32,
    bomb: bool,
    track: Arc<Track>,
}

impl Drop for Item {
    fn drop(&mut self) {
        self.track.drops[self.id].fetch_add(1, Ordering::Relaxed);
        if self.bomb {
            panic!("drop {}", self.id);
        }
    }
}

fn expired(item: &Item) -> bool {
    item.ttl == 0
}

/// The removal hook's record: the ids it received, in order (the one it
/// panicked on included).
struct Hooked {
    ids: Mutex<Vec<usize>>,
    panic_on: Vec<usize>,
}

impl Hooked {
    fn new(panic_on: &[usize]) -> Self {
        Hooked {
            ids: Mutex::new(Vec::new()),
            panic_on: panic_on.to_vec(),
        }
    }

    fn hook(&self) -> impl FnMut(Item) + Sync + '_ {
        move |item: Item| {
            self.ids.lock().unwrap().push(item.id);
            if self.panic_on.contains(&item.id) {
                panic!("hook {}", item.id);
            }
        }
    }

    fn ids(&self) -> Vec<usize> {
        self.ids.lock().unwrap().clone()
    }
}

/// The same program over either kind of entry.
trait Visit: DerefMut<Target = Item> + Sized {
    fn try_push(&mut self, item: Item) -> Result<(), Item>;
    fn remove(self) -> Item;
}

impl Visit for Entry<'_, Item> {
    fn try_push(&mut self, item: Item) -> Result<(), Item> {
        Entry::try_push(self, item).map_err(|e| e.into_inner())
    }
    fn remove(self) -> Item {
        Entry::remove(self)
    }
}

impl Visit for ParEntry<'_, Item> {
    fn try_push(&mut self, item: Item) -> Result<(), Item> {
        ParEntry::try_push(self, item).map_err(|e| e.into_inner())
    }
    fn remove(self) -> Item {
        ParEntry::remove(self)
    }
}

/// What the pass does to one element: depends on the element alone.
/// `by_closure` records what the closure removed, or had refused by a full
/// bounded collection, before dropping it.
fn step<E: Visit>(
    mut e: E,
    track: &Arc<Track>,
    fault: Fault,
    push: bool,
    by_closure: &Mutex<Vec<usize>>,
) {
    let id = e.id;
    if fault == Fault::Closure(id) {
        e.ttl = 0;
        panic!("closure {id}");
    }
    e.ttl = e.ttl.saturating_sub(1);
    if push && pushes(id) {
        let child = track.item(id + n(), ttl_of(id + n()));
        if let Err(refused) = e.try_push(child) {
            by_closure.lock().unwrap().push(refused.id);
        }
    }
    if fault == Fault::Drop(id) || closure_removes(id) {
        let mut item = e.remove();
        item.bomb = fault == Fault::Drop(id);
        by_closure.lock().unwrap().push(item.id);
        drop(item);
    }
}

fn pool() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap()
}

/// How a pass runs: `traverse`, or `par_traverse_with` in a mode.
#[derive(Clone, Copy, Debug, PartialEq)]
enum How {
    Serial,
    Parallel(ParMode),
}

/// `true`: parallel rounds forced (deterministic parts); `false`: serial.
impl From<bool> for How {
    fn from(parallel: bool) -> Self {
        if parallel {
            How::Parallel(ParMode::Parallel)
        } else {
            How::Serial
        }
    }
}

/// Runs one pass (parallel in a pool of two threads, or serial) and returns
/// the panic's message, if it panicked.
fn pass<A: ParAutoRemove<Item> + Send>(
    c: &mut ReadWriteCollection<Item, A>,
    how: impl Into<How>,
    track: &Arc<Track>,
    fault: Fault,
    push: bool,
    by_closure: &Mutex<Vec<usize>>,
) -> Option<String> {
    let result = catch_unwind(AssertUnwindSafe(|| match how.into() {
        How::Parallel(mode) => {
            pool()
                .install(|| c.par_traverse_with(mode, |e| step(e, track, fault, push, by_closure)));
        }
        How::Serial => c.traverse(|e| step(e, track, fault, push, by_closure)),
    }));
    result
        .err()
        .map(|payload| match payload.downcast::<String>() {
            Ok(message) => *message,
            Err(_) => "a payload that is not a String".to_owned(),
        })
}

/// What a pass over the originals with a removal hook left.
#[derive(Debug, PartialEq)]
struct Outcome {
    /// (id, ttl) of the elements in the collection, in order.
    items: Vec<(usize, u32)>,
    hooked: Vec<usize>,
    /// Sorted: workers record them concurrently.
    by_closure: Vec<usize>,
    panic: Option<String>,
    capacity: usize,
    /// How many elements the pass pushed.
    pushed: usize,
}

/// One pass over the originals, with `expired` as the predicate and a hook
/// that panics on the ids in `hook_panics`. Checks the conservation law
/// and that every element is dropped exactly once.
fn run(how: impl Into<How>, fault: Fault, hook_panics: &[usize], shrink: bool) -> Outcome {
    let how = how.into();
    let track = Track::new();
    let hooked = Hooked::new(hook_panics);
    let by_closure = Mutex::new(Vec::new());
    let mut c = ReadWriteCollection::<Item>::with_auto_remove(expired as fn(&Item) -> bool)
        .with_removal_hook(hooked.hook());
    c.extend(track.originals());
    if shrink {
        c.reserve(8 * n());
        c.set_shrink_policy(Some(ShrinkPolicy::new(50, 1)));
    }
    let panic = pass(&mut c, how, &track, fault, true, &by_closure);
    let mut by_closure = by_closure.into_inner().unwrap();
    by_closure.sort_unstable();
    let outcome = Outcome {
        items: c.iter().map(|i| (i.id, i.ttl)).collect(),
        hooked: hooked.ids(),
        by_closure,
        panic,
        capacity: c.capacity(),
        pushed: (n()..3 * n()).filter(|&id| track.made(id) > 0).count(),
    };
    drop(c);
    let ids: Vec<usize> = outcome.items.iter().map(|&(id, _)| id).collect();
    let what = if how == How::Serial {
        "serial"
    } else {
        "parallel"
    };
    track.assert_conserved(what, &ids, &outcome.hooked, &outcome.by_closure);
    track.assert_each_dropped_once(what);
    outcome
}

/// The pass over the originals run to the end of the first round, with the
/// round's pushes appended unvisited: what a panic in the hook leaves.
fn first_round_model() -> (Vec<(usize, u32)>, Vec<usize>, Vec<usize>) {
    let (mut kept, mut pushed, mut hooked, mut by_closure) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for id in 0..n() {
        let mut ttl = ttl_of(id);
        if ttl == 0 {
            hooked.push(id);
            continue;
        }
        ttl -= 1;
        if pushes(id) {
            pushed.push((id + n(), ttl_of(id + n())));
        }
        if closure_removes(id) {
            by_closure.push(id);
        } else if ttl == 0 {
            hooked.push(id);
        } else {
            kept.push((id, ttl));
        }
    }
    kept.extend(pushed);
    (kept, hooked, by_closure)
}

/// An element in the last chunk of the first round that reaches the
/// closure and neither pushes nor is removed by it.
fn late_original() -> usize {
    (0..n())
        .rev()
        .find(|&id| ttl_of(id) > 0 && !pushes(id) && !closure_removes(id))
        .unwrap()
}

/// Such an element in the middle of the first round: chunks before and
/// after its own.
fn middle_original() -> usize {
    (n() / 2 + 1..n())
        .find(|&id| ttl_of(id) > 0 && !pushes(id) && !closure_removes(id))
        .unwrap()
}

/// A parallel outcome equal to the serial one, with the panic's message.
fn assert_same_as_serial(fault: Fault, hook_panics: &[usize], message: &str) {
    assert_same_as_serial_in(ParMode::Parallel, fault, hook_panics, message);
}

/// [`assert_same_as_serial`] for a pass in `mode`.
fn assert_same_as_serial_in(mode: ParMode, fault: Fault, hook_panics: &[usize], message: &str) {
    let serial = run(false, fault, hook_panics, false);
    let parallel = run(How::Parallel(mode), fault, hook_panics, false);
    assert_eq!(serial.panic.as_deref(), Some(message));
    assert_eq!(parallel.panic.as_deref(), Some(message));
    assert_eq!(
        (
            parallel.items.len(),
            parallel.hooked.len(),
            parallel.by_closure.len()
        ),
        (
            serial.items.len(),
            serial.hooked.len(),
            serial.by_closure.len()
        ),
        "{fault:?}: (in the collection, handed to the hook, removed by the closure)"
    );
    assert_eq!(parallel.items, serial.items, "{fault:?}: the collection");
    assert_eq!(parallel.hooked, serial.hooked, "{fault:?}: hook calls");
    assert_eq!(parallel.by_closure, serial.by_closure, "{fault:?}");
}

#[test]
fn a_panicking_hook_still_receives_the_rounds_other_removals_and_the_pushes_are_kept() {
    let (items, hooked, by_closure) = first_round_model();
    let first = n() / 2; // expires on arrival (ttl 0)
    let second = n() - 5; // also, in the last chunk
    assert_eq!((ttl_of(first), ttl_of(second)), (0, 0));
    for hook_panics in [&[first][..], &[second, first]] {
        let par = run(true, Fault::None, hook_panics, false);
        assert_eq!(
            par.panic.as_deref(),
            Some(&*format!("hook {first}")),
            "the first panic (in the serial order) reaches the caller"
        );
        assert_eq!(
            (par.items.len(), par.hooked.len(), par.by_closure.len()),
            (items.len(), hooked.len(), by_closure.len()),
            "hook panics on {hook_panics:?}: (in the collection, handed to the hook, \
             removed by the closure)"
        );
        assert_eq!(
            par.hooked, hooked,
            "every removed element reaches the hook, in order"
        );
        assert_eq!(par.items, items, "survivors, then every push, unvisited");
        assert_eq!(par.by_closure, by_closure);
    }
}

#[test]
fn a_closure_panic_late_in_the_last_chunk_leaves_what_traverse_leaves() {
    let bad = late_original();
    assert_same_as_serial(Fault::Closure(bad), &[], &format!("closure {bad}"));
    // The held element stays, although the predicate would remove it now.
    let par = run(true, Fault::Closure(bad), &[], false);
    assert!(par.items.contains(&(bad, 0)));
}

#[test]
fn a_closure_panic_on_one_worker_keeps_the_other_chunks_removals_and_every_push() {
    let bad = middle_original();
    let par = run(true, Fault::Closure(bad), &[], false);
    assert_eq!(par.panic.as_deref(), Some(&*format!("closure {bad}")));
    // The held element stays, although the predicate would remove it now.
    assert!(par.items.contains(&(bad, 0)));
    // Other chunks' auto-removed elements reached the hook, before and
    // after the panicking chunk (a chunk has fewer than `PAR_MIN_LEN`
    // elements here).
    assert!(par.hooked.iter().any(|&id| id < bad));
    assert!(par.hooked.iter().any(|&id| id > bad + PAR_MIN_LEN));
    // Every push made (by the pushers before `bad` in its chunk and by
    // every pusher in the other chunks) is in the collection, unvisited
    // (its ttl untouched), in push order.
    let children: Vec<(usize, u32)> = par
        .items
        .iter()
        .copied()
        .filter(|&(id, _)| id >= n())
        .collect();
    assert!(par.pushed > 0);
    assert_eq!(children.len(), par.pushed, "every push kept");
    assert!(children.iter().all(|&(id, ttl)| ttl == ttl_of(id)));
    assert!(
        children.windows(2).all(|w| w[0].0 < w[1].0),
        "in push order"
    );
    // `run` checked that nothing else exists: conservation by id.
}

#[test]
fn a_closure_panic_in_a_later_round_leaves_what_traverse_leaves() {
    // A late child: the second round (the children, below `PAR_MIN_LEN`)
    // runs in one chunk and pushes grandchildren before the panic.
    let bad = (0..n())
        .rev()
        .filter(|&id| pushes(id))
        .map(|id| id + n())
        .find(|&id| ttl_of(id) > 0 && !closure_removes(id))
        .unwrap();
    assert!(n() / 8 < PAR_MIN_LEN, "the second round runs in one chunk");
    assert_same_as_serial(Fault::Closure(bad), &[], &format!("closure {bad}"));
}

/// The first original at or after `from` that reaches the closure (is not
/// removed on arrival).
fn reaching_from(from: usize) -> usize {
    (from..n()).find(|&id| ttl_of(id) > 0).unwrap()
}

#[test]
fn a_closure_panic_in_the_timed_start_of_a_round_leaves_what_traverse_leaves() {
    // `par_traverse` walks a round's first elements serially: untimed,
    // then two timed halves (natively 1024 each, under Miri 2 each).
    let (warm, half) = if cfg!(miri) { (2, 2) } else { (1024, 1024) };
    assert!(
        n() >= PAR_MIN_LEN + warm + 2 * half,
        "the first round is timed"
    );
    for from in [0, warm, warm + half] {
        let bad = reaching_from(from);
        assert!(bad < warm + 2 * half, "{bad}: in the timed start");
        let fault = Fault::Closure(bad);
        assert_same_as_serial_in(ParMode::Auto, fault, &[], &format!("closure {bad}"));
    }
    // Late in the first round: the rest ran in parallel (its last part) or
    // serially, as the timing decided; either way the serial result.
    let bad = late_original();
    assert_same_as_serial_in(
        ParMode::Auto,
        Fault::Closure(bad),
        &[],
        &format!("closure {bad}"),
    );
}

#[test]
fn a_panicking_drop_inside_the_closure_leaves_what_traverse_leaves() {
    let bad = late_original();
    assert_same_as_serial(Fault::Drop(bad), &[], &format!("drop {bad}"));
}

#[test]
fn a_panicking_drop_on_one_worker_loses_nothing() {
    let bad = middle_original();
    let par = run(true, Fault::Drop(bad), &[], false);
    assert_eq!(par.panic.as_deref(), Some(&*format!("drop {bad}")));
    assert!(par.by_closure.contains(&bad));
    assert!(par.hooked.iter().any(|&id| id > bad + PAR_MIN_LEN));
    assert!(par.items.iter().any(|&(id, _)| id >= n()), "pushes kept");
    // `run` checked conservation by id and that every element was
    // dropped exactly once (the bomb too).
}

#[test]
fn a_worker_panic_comes_before_a_hook_panic() {
    let bad = middle_original();
    let hook_bad = n() - 5; // after the panicking chunk, in the last one
    assert_eq!(ttl_of(hook_bad), 0);
    let par = run(true, Fault::Closure(bad), &[hook_bad], false);
    assert_eq!(par.panic.as_deref(), Some(&*format!("closure {bad}")));
    assert!(par.hooked.contains(&hook_bad));
    assert!(par.items.iter().any(|&(id, _)| id >= n()), "pushes kept");
}

#[test]
fn the_shrink_policy_runs_after_a_panic_as_in_the_serial_pass() {
    let fault = Fault::Closure(late_original());
    let serial = run(false, fault, &[], true);
    let parallel = run(true, fault, &[], true);
    assert!(serial.capacity < 8 * n(), "the serial pass shrank");
    assert_eq!(parallel.items, serial.items);
    assert_eq!(parallel.capacity, serial.capacity);
}

#[test]
fn a_bounded_collection_keeps_its_bound_and_the_serial_result_after_a_panic() {
    let bad = late_original();
    // Full from the start: pushes are refused until the closure's
    // removals make room.
    let max = n();
    let outcome = |parallel: bool| {
        let track = Track::new();
        let by_closure = Mutex::new(Vec::new());
        let mut c = ReadWriteCollection::bounded(max);
        c.extend(track.originals());
        let panic = pass(
            &mut c,
            parallel,
            &track,
            Fault::Closure(bad),
            true,
            &by_closure,
        );
        assert_eq!(panic, Some(format!("closure {bad}")));
        assert!(c.len() <= max, "{} elements, bound {max}", c.len());
        assert!(
            c.capacity() <= max,
            "capacity {}, bound {max}",
            c.capacity()
        );
        let items: Vec<(usize, u32)> = c.iter().map(|i| (i.id, i.ttl)).collect();
        let mut by_closure = by_closure.into_inner().unwrap();
        by_closure.sort_unstable();
        drop(c);
        let ids: Vec<usize> = items.iter().map(|&(id, _)| id).collect();
        let what = if parallel { "parallel" } else { "serial" };
        track.assert_conserved(what, &ids, &[], &by_closure);
        track.assert_each_dropped_once(what);
        (items, by_closure)
    };
    let (serial, serial_by_closure) = outcome(false);
    let (parallel, parallel_by_closure) = outcome(true);
    assert!(serial.iter().any(|&(id, _)| id >= n()), "some pushes fit");
    assert!(
        serial_by_closure.iter().any(|&id| id >= n()),
        "some were refused"
    );
    assert_eq!(parallel.len(), serial.len());
    assert_eq!(parallel, serial);
    assert_eq!(parallel_by_closure, serial_by_closure);
}

#[test]
fn a_second_pass_after_a_panic_completes_like_the_serial_pass() {
    let track = Track::new();
    let hooked = Hooked::new(&[]);
    let by_closure = Mutex::new(Vec::new());
    let mut c = ReadWriteCollection::<Item>::with_auto_remove(expired as fn(&Item) -> bool)
        .with_removal_hook(hooked.hook());
    c.extend(track.originals());
    let bad = middle_original();
    let panic = pass(&mut c, true, &track, Fault::Closure(bad), true, &by_closure);
    assert_eq!(panic, Some(format!("closure {bad}")));
    let after_panic: Vec<(usize, u32)> = c.iter().map(|i| (i.id, i.ttl)).collect();
    let hooked_by_panic = hooked.ids().len();

    // The second pass pushes nothing (the ids of its pushes would repeat
    // the first pass's).
    assert_eq!(
        pass(&mut c, true, &track, Fault::None, false, &by_closure),
        None
    );
    let after: Vec<(usize, u32)> = c.iter().map(|i| (i.id, i.ttl)).collect();
    let hooked_in_second = hooked.ids()[hooked_by_panic..].to_vec();

    // The serial pass from the same state.
    let reference = {
        let track = Track::new();
        let hooked = Hooked::new(&[]);
        let by_closure = Mutex::new(Vec::new());
        let mut s = ReadWriteCollection::<Item>::with_auto_remove(expired as fn(&Item) -> bool)
            .with_removal_hook(hooked.hook());
        s.extend(after_panic.iter().map(|&(id, ttl)| track.item(id, ttl)));
        assert_eq!(
            pass(&mut s, false, &track, Fault::None, false, &by_closure),
            None
        );
        let items: Vec<(usize, u32)> = s.iter().map(|i| (i.id, i.ttl)).collect();
        drop(s);
        (items, hooked.ids())
    };
    assert_eq!(after, reference.0);
    assert_eq!(hooked_in_second, reference.1);
    assert!(after.iter().all(|&(_, ttl)| ttl > 0), "the predicate ran");

    let by_closure = by_closure.into_inner().unwrap();
    drop(c);
    let ids: Vec<usize> = after.iter().map(|&(id, _)| id).collect();
    track.assert_conserved("parallel", &ids, &hooked.ids(), &by_closure);
    track.assert_each_dropped_once("parallel");
}

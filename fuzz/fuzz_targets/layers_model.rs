//! The checker of the `layers` fuzz target, shared with
//! `tests/layers_fuzz_replay.rs` (which replays the corpus on stable).
//!
//! A [`LayersInput`] describes up to four layers (bounded or not, enabled or
//! not, with starting elements) and a sequence of [`Step`]s: pushes and flag
//! changes between passes, and passes driven by a per-visit program through
//! one of four front ends: `Layers::cursor`, `Layers::cursor_with_sink`,
//! `Layers::traverse`/`traverse_with_sink`, and
//! `ReadWriteCollection::cursor_with_sink` on one layer. A plain model
//! (`Vec`s of `(id, value)` per layer, split into the part a pass has walked
//! and a queue of the part it has not, plus the list the sink received) runs
//! in lock step. Checked at every `next`, every push and after every step:
//!
//! * visit order and layer: each yielded element is the model's next one;
//!   pushes into the layer being walked or a later enabled layer are visited
//!   in this pass (after what is already queued there), pushes into an
//!   earlier layer or a disabled one are kept and not visited;
//! * bounded layers: exactly the pushes the model refuses are refused, and a
//!   refused value comes back (`CapacityError::into_inner`); `push`/`push_to`
//!   into a full layer panics, dropping the value once;
//! * the removal sink receives exactly the model's removals, in order;
//! * early exit (`break`), a panic in the loop body and a sink that panics
//!   at a chosen call leave every layer as the model says (unvisited
//!   elements kept in order), and every element ever made is either in a
//!   layer, in the sink's list, or dropped exactly once (drop counts per
//!   element id).
//!
//! Every byte string decodes to a valid program: layer numbers are reduced
//! modulo the layer count, counts are capped, and pushes stop once
//! [`MAX_LIVE`] elements are alive.
#![allow(dead_code, unreachable_pub)]

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::ops::DerefMut;
use std::panic::{self, AssertUnwindSafe};

use arbitrary::{Arbitrary, Unstructured};
use read_write_collection::{
    CapacityError, LayerEntry, LayerSinkEntry, Layers, LayersCursor, LayersSinkCursor,
    ReadWriteCollection, SinkCursor, SinkEntry,
};

/// Pushes are skipped once the model holds this many elements.
pub const MAX_LIVE: usize = 200;
/// Pushes stop after this many visits in a pass (else a program that
/// removes one element and pushes one into the layer being walked would
/// never end), and cursor passes break there.
pub const MAX_VISITS: usize = 400;

#[path = "common/panics.rs"]
mod panics;
pub use self::panics::InjectedPanic;
use self::panics::{expect_panic, inject_panic, install_panic_hook};

// ---------------------------------------------------------------------------
// Input

#[derive(Arbitrary, Debug, Clone)]
pub struct LayerSpec {
    /// Values of the starting elements (capped at 8).
    pub start: Vec<u8>,
    /// `Some(b)`: bounded at `b % 8` elements.
    pub bound: Option<u8>,
    pub disabled: bool,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Target {
    /// `push` / `try_push`: the layer being walked.
    Here,
    /// `push_to` / `try_push_to` into layer `n % layer_count`.
    Layer(u8),
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct PushOp {
    pub target: Target,
    /// `try_push*` (a refusal hands the value back) or `push*` (a full
    /// layer panics).
    pub try_: bool,
    pub val: u8,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum End {
    Keep,
    /// `remove`: to the sink if there is one, else returned.
    Remove,
    /// `take` on a sink entry (not sent to the sink); `remove` otherwise.
    Take,
    /// Panic in the loop body while holding the entry.
    Panic,
}

/// What the program does with one visited element.
#[derive(Arbitrary, Debug, Clone)]
pub struct Visit {
    pub update: Option<u8>,
    /// Pushes through the entry (capped at 3).
    pub entry_pushes: Vec<PushOp>,
    pub end: End,
    /// Pushes through the cursor once the entry is gone (capped at 3;
    /// the closure forms have no cursor and skip them).
    pub cursor_pushes: Vec<PushOp>,
}

#[derive(Arbitrary, Debug, Clone)]
pub struct PassSpec {
    pub sink: bool,
    /// Visit `i` runs `program[i % len]` (keep everything when empty).
    pub program: Vec<Visit>,
    /// Cursor pushes before the first `next` (capped at 4; `Here` is a
    /// misuse there and must panic).
    pub pre: Vec<PushOp>,
    /// Cursor pushes after `next` returned `None`, or after the break
    /// (capped at 4).
    pub post: Vec<PushOp>,
    /// Break out of the loop after `n % 16` visits (cursor forms).
    pub stop_after: Option<u8>,
    /// The sink panics on its `n % 8`-th call (counting from 0).
    pub sink_panic_at: Option<u8>,
}

#[derive(Arbitrary, Debug, Clone)]
pub enum Step {
    /// `Layers::push` / `try_push` between passes.
    Push {
        layer: u8,
        try_: bool,
        val: u8,
    },
    SetEnabled {
        layer: u8,
        on: bool,
    },
    SetVisible {
        layer: u8,
        on: bool,
    },
    /// Drop what the sink received so far.
    DrainSink,
    /// `Layers::cursor`, or `cursor_with_sink` if `spec.sink`.
    Cursor(PassSpec),
    /// `Layers::traverse`, or `traverse_with_sink` if `spec.sink`.
    Traverse(PassSpec),
    /// `ReadWriteCollection::cursor_with_sink` on one layer (walked whether
    /// enabled or not; every push goes into that layer).
    Single {
        layer: u8,
        spec: PassSpec,
    },
}

#[derive(Arbitrary, Debug, Clone)]
pub struct LayersInput {
    /// One to four layers (an empty list means one unbounded layer).
    pub layers: Vec<LayerSpec>,
    pub steps: Vec<Step>,
}

pub fn decode(bytes: &[u8]) -> Option<LayersInput> {
    LayersInput::arbitrary_take_rest(Unstructured::new(bytes)).ok()
}

// ---------------------------------------------------------------------------
// Drop-tracked elements

thread_local! {
    /// Drops per element id, for the current run.
    static DROPS: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

/// An element: `id` is unique in a run, `val` is what the program updates.
#[derive(Debug)]
pub struct Elem {
    id: u32,
    val: u32,
}

impl Drop for Elem {
    fn drop(&mut self) {
        DROPS.with(|d| {
            if let Some(n) = d.borrow_mut().get_mut(self.id as usize) {
                *n += 1;
            }
        });
    }
}

fn drops_of(id: u32) -> u32 {
    DROPS.with(|d| d.borrow()[id as usize])
}

/// How often a run reached each feature (per thread, summed over runs), so
/// that the replay test can show the random inputs get everywhere.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Accepted pushes into the layer being walked.
    pub same: usize,
    /// Accepted pushes into a later enabled layer (visited this pass).
    pub later: usize,
    /// Accepted pushes into an already walked layer (next pass).
    pub earlier: usize,
    /// Accepted pushes into a layer the pass does not walk.
    pub unwalked: usize,
    /// `try_push*` refusals (value handed back).
    pub refused: usize,
    /// `push*` into a full layer or outside a layer (a library panic).
    pub library_panics: usize,
    pub sink_panics: usize,
    pub body_panics: usize,
    /// Elements the sink received.
    pub sunk: usize,
    /// Cursor passes left early by `break`.
    pub breaks: usize,
}

thread_local! {
    static STATS: Cell<Stats> = const { Cell::new(Stats {
        same: 0, later: 0, earlier: 0, unwalked: 0, refused: 0,
        library_panics: 0, sink_panics: 0, body_panics: 0, sunk: 0, breaks: 0,
    }) };
}

/// The feature counts so far on this thread.
pub fn stats() -> Stats {
    STATS.with(Cell::get)
}

fn count(f: impl FnOnce(&mut Stats)) {
    STATS.with(|s| {
        let mut v = s.get();
        f(&mut v);
        s.set(v);
    });
}

// ---------------------------------------------------------------------------
// The model

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct M {
    id: u32,
    val: u32,
}

#[derive(Debug)]
struct MLayer {
    /// Walked in this pass (the held element last), or everything between
    /// passes.
    kept: Vec<M>,
    /// Not walked in this pass: unvisited and pushed elements, in order.
    /// A layer's contents are always `kept ++ queue`.
    queue: VecDeque<M>,
    bound: Option<usize>,
    enabled: bool,
    visible: bool,
}

impl MLayer {
    fn len(&self) -> usize {
        self.kept.len() + self.queue.len()
    }

    fn contents(&self) -> Vec<M> {
        self.kept.iter().chain(self.queue.iter()).copied().collect()
    }
}

/// Why the pass is expected to panic at the call being made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    Nothing,
    /// Injected in the loop body or the sink.
    Injected,
    /// A library panic: `push*` into a full layer or `push` outside a layer.
    Library,
}

#[derive(Debug)]
struct Model {
    layers: Vec<MLayer>,
    /// What the sink received, in order.
    sink: Vec<M>,
    next_id: u32,
    // Pass state.
    /// The layer being walked.
    cur: Option<usize>,
    /// The next layer to consider walking.
    next_layer: usize,
    /// Walk only this layer, whatever its flag (a single-collection pass).
    only: Option<usize>,
    held: bool,
    sink_calls: u32,
    sink_panic_at: Option<u32>,
    expect: Expect,
    /// Elements yielded in this pass.
    visits: usize,
}

impl Model {
    fn live(&self) -> usize {
        self.layers.iter().map(MLayer::len).sum()
    }

    fn fresh(&mut self, val: u8) -> (Elem, M) {
        let id = self.next_id;
        self.next_id += 1;
        DROPS.with(|d| d.borrow_mut().push(0));
        let val = u32::from(val);
        (Elem { id, val }, M { id, val })
    }

    fn begin_pass(&mut self, only: Option<usize>, sink_panic_at: Option<u8>) {
        for l in &mut self.layers {
            let kept = std::mem::take(&mut l.kept);
            l.queue = kept.into_iter().chain(l.queue.drain(..)).collect();
        }
        self.cur = None;
        self.next_layer = 0;
        self.only = only;
        self.held = false;
        self.sink_calls = 0;
        self.visits = 0;
        self.sink_panic_at = sink_panic_at.map(|n| u32::from(n % 8));
        self.expect = Expect::Nothing;
    }

    fn end_pass(&mut self) {
        for l in &mut self.layers {
            let queue: Vec<M> = l.queue.drain(..).collect();
            l.kept.extend(queue);
        }
        self.cur = None;
        self.held = false;
    }

    /// The element the cursor yields next, and its layer.
    fn next(&mut self) -> Option<(usize, M)> {
        self.held = false;
        loop {
            if let Some(c) = self.cur {
                if let Some(m) = self.layers[c].queue.pop_front() {
                    self.layers[c].kept.push(m);
                    self.held = true;
                    self.visits += 1;
                    return Some((c, m));
                }
            }
            self.cur = None;
            while self.next_layer < self.layers.len() {
                let j = self.next_layer;
                self.next_layer += 1;
                if self.walks(j) {
                    self.cur = Some(j);
                    break;
                }
            }
            self.cur?;
        }
    }

    fn held_mut(&mut self) -> &mut M {
        assert!(self.held);
        let c = self.cur.expect("an element is held");
        self.layers[c].kept.last_mut().expect("the held element")
    }

    fn remove_held(&mut self) -> M {
        assert!(self.held);
        self.held = false;
        let c = self.cur.expect("an element is held");
        self.layers[c].kept.pop().expect("the held element")
    }

    /// Whether the pass has elements left to visit.
    fn has_more(&self) -> bool {
        self.cur.is_some_and(|c| !self.layers[c].queue.is_empty())
            || (self.next_layer..self.layers.len())
                .any(|j| self.walks(j) && !self.layers[j].queue.is_empty())
    }

    /// Whether this pass walks `layer` (now or later, or did already).
    fn walks(&self, layer: usize) -> bool {
        match self.only {
            Some(only) => layer == only,
            None => self.layers[layer].enabled,
        }
    }

    /// Counts an accepted push by where it went.
    fn count_push(&self, layer: usize) {
        if Some(layer) == self.cur {
            count(|s| s.same += 1);
        } else if !self.walks(layer) {
            count(|s| s.unwalked += 1);
        } else if layer < self.next_layer {
            count(|s| s.earlier += 1);
        } else {
            count(|s| s.later += 1);
        }
    }

    /// Whether a push into `layer` is accepted; appends it if so.
    fn push(&mut self, layer: usize, m: M) -> bool {
        let l = &mut self.layers[layer];
        if l.bound.is_some_and(|b| l.len() >= b) {
            return false;
        }
        l.queue.push_back(m);
        true
    }
}

// ---------------------------------------------------------------------------
// The front ends, behind two small traits

type PushResult = Result<(), CapacityError<Elem>>;

trait EntryOps: DerefMut<Target = Elem> {
    fn layer_index(&self) -> usize;
    fn push_here(&mut self, v: Elem);
    fn try_push_here(&mut self, v: Elem) -> PushResult;
    fn push_to(&mut self, k: usize, v: Elem);
    fn try_push_to(&mut self, k: usize, v: Elem) -> PushResult;
    /// `remove`: `None` if a sink took the value.
    fn remove(self) -> Option<Elem>;
    /// `take` where there is a sink, else `remove`.
    fn take(self) -> Elem;
    /// `others`, as the model's elements.
    fn others(&self) -> (Vec<M>, Vec<M>);
}

/// Elements as the model sees them.
fn ms(elems: &[Elem]) -> Vec<M> {
    elems
        .iter()
        .map(|e| M {
            id: e.id,
            val: e.val,
        })
        .collect()
}

/// The held entry's other elements are its layer's walked ones (the held
/// one, last, left out) and its queue (unvisited, then pushed).
fn check_others<En: EntryOps>(e: &En, model: &Model, layer: usize) {
    let l = &model.layers[layer];
    let (before, after) = e.others();
    assert_eq!(
        before,
        l.kept[..l.kept.len() - 1],
        "others: the kept elements"
    );
    assert_eq!(
        after,
        Vec::from(l.queue.clone()),
        "others: the elements after the held one"
    );
}

impl EntryOps for LayerEntry<'_, Elem> {
    fn layer_index(&self) -> usize {
        self.layer()
    }
    fn push_here(&mut self, v: Elem) {
        self.push(v);
    }
    fn try_push_here(&mut self, v: Elem) -> PushResult {
        self.try_push(v)
    }
    fn push_to(&mut self, k: usize, v: Elem) {
        LayerEntry::push_to(self, k, v);
    }
    fn try_push_to(&mut self, k: usize, v: Elem) -> PushResult {
        LayerEntry::try_push_to(self, k, v)
    }
    fn remove(self) -> Option<Elem> {
        Some(LayerEntry::remove(self))
    }
    fn others(&self) -> (Vec<M>, Vec<M>) {
        let (before, after) = LayerEntry::others(self);
        (ms(before), ms(after))
    }
    fn take(self) -> Elem {
        LayerEntry::remove(self)
    }
}

impl<S: FnMut(Elem)> EntryOps for LayerSinkEntry<'_, Elem, usize, S> {
    fn layer_index(&self) -> usize {
        self.layer()
    }
    fn push_here(&mut self, v: Elem) {
        self.push(v);
    }
    fn try_push_here(&mut self, v: Elem) -> PushResult {
        self.try_push(v)
    }
    fn push_to(&mut self, k: usize, v: Elem) {
        LayerSinkEntry::push_to(self, k, v);
    }
    fn try_push_to(&mut self, k: usize, v: Elem) -> PushResult {
        LayerSinkEntry::try_push_to(self, k, v)
    }
    fn remove(self) -> Option<Elem> {
        LayerSinkEntry::remove_to_sink(self);
        None
    }
    fn take(self) -> Elem {
        LayerSinkEntry::take(self)
    }
    fn others(&self) -> (Vec<M>, Vec<M>) {
        let (before, after) = LayerSinkEntry::others(self);
        (ms(before), ms(after))
    }
}

/// A `SinkEntry` of a single layer, with that layer's index.
struct SingleEntry<'c, S> {
    entry: SinkEntry<'c, Elem, S>,
    layer: usize,
}

impl<S> std::ops::Deref for SingleEntry<'_, S> {
    type Target = Elem;
    fn deref(&self) -> &Elem {
        &self.entry
    }
}

impl<S> DerefMut for SingleEntry<'_, S> {
    fn deref_mut(&mut self) -> &mut Elem {
        &mut self.entry
    }
}

impl<S: FnMut(Elem)> EntryOps for SingleEntry<'_, S> {
    fn layer_index(&self) -> usize {
        self.layer
    }
    fn push_here(&mut self, v: Elem) {
        self.entry.push(v);
    }
    fn try_push_here(&mut self, v: Elem) -> PushResult {
        self.entry.try_push(v)
    }
    fn push_to(&mut self, k: usize, v: Elem) {
        assert_eq!(k, self.layer);
        self.entry.push(v);
    }
    fn try_push_to(&mut self, k: usize, v: Elem) -> PushResult {
        assert_eq!(k, self.layer);
        self.entry.try_push(v)
    }
    fn remove(self) -> Option<Elem> {
        self.entry.remove_to_sink();
        None
    }
    fn take(self) -> Elem {
        self.entry.take()
    }
    fn others(&self) -> (Vec<M>, Vec<M>) {
        let (before, after) = self.entry.others();
        (ms(before), ms(after))
    }
}

trait CursorOps {
    type Entry<'e>: EntryOps
    where
        Self: 'e;
    /// `alt`: use `next` and `Entry::layer` instead of `next_with_layer`.
    fn next_entry(&mut self, alt: bool) -> Option<(usize, Self::Entry<'_>)>;
    fn current_layer(&self) -> Option<usize>;
    fn push_here(&mut self, v: Elem);
    fn try_push_here(&mut self, v: Elem) -> PushResult;
    fn push_to(&mut self, k: usize, v: Elem);
    fn try_push_to(&mut self, k: usize, v: Elem) -> PushResult;
    /// Checks `len` / `remaining` where the cursor has them.
    fn check_counts(&self, _model: &Model) {}
}

impl CursorOps for LayersCursor<'_, Elem> {
    type Entry<'e>
        = LayerEntry<'e, Elem>
    where
        Self: 'e;
    fn next_entry(&mut self, alt: bool) -> Option<(usize, LayerEntry<'_, Elem>)> {
        if alt {
            self.next().map(|e| (e.layer(), e))
        } else {
            self.next_with_layer()
        }
    }
    fn current_layer(&self) -> Option<usize> {
        self.layer()
    }
    fn push_here(&mut self, v: Elem) {
        self.push(v);
    }
    fn try_push_here(&mut self, v: Elem) -> PushResult {
        self.try_push(v)
    }
    fn push_to(&mut self, k: usize, v: Elem) {
        LayersCursor::push_to(self, k, v);
    }
    fn try_push_to(&mut self, k: usize, v: Elem) -> PushResult {
        LayersCursor::try_push_to(self, k, v)
    }
}

impl<S: FnMut(Elem)> CursorOps for LayersSinkCursor<'_, Elem, usize, S> {
    type Entry<'e>
        = LayerSinkEntry<'e, Elem, usize, S>
    where
        Self: 'e;
    fn next_entry(&mut self, alt: bool) -> Option<(usize, LayerSinkEntry<'_, Elem, usize, S>)> {
        if alt {
            self.next().map(|e| (e.layer(), e))
        } else {
            self.next_with_layer()
        }
    }
    fn current_layer(&self) -> Option<usize> {
        self.layer()
    }
    fn push_here(&mut self, v: Elem) {
        self.push(v);
    }
    fn try_push_here(&mut self, v: Elem) -> PushResult {
        self.try_push(v)
    }
    fn push_to(&mut self, k: usize, v: Elem) {
        LayersSinkCursor::push_to(self, k, v);
    }
    fn try_push_to(&mut self, k: usize, v: Elem) -> PushResult {
        LayersSinkCursor::try_push_to(self, k, v)
    }
}

/// `ReadWriteCollection::cursor_with_sink` on layer `layer`.
struct Single<'a, S: FnMut(Elem)> {
    cursor: SinkCursor<'a, Elem, S>,
    layer: usize,
    done: bool,
}

impl<S: FnMut(Elem)> CursorOps for Single<'_, S> {
    type Entry<'e>
        = SingleEntry<'e, S>
    where
        Self: 'e;
    fn next_entry(&mut self, _alt: bool) -> Option<(usize, SingleEntry<'_, S>)> {
        let layer = self.layer;
        match self.cursor.next() {
            Some(entry) => Some((layer, SingleEntry { entry, layer })),
            None => {
                self.done = true;
                None
            }
        }
    }
    fn current_layer(&self) -> Option<usize> {
        // A collection cursor has no notion of layers; report what a
        // layers cursor would, so the common checks apply.
        (!self.done).then_some(self.layer)
    }
    fn push_here(&mut self, v: Elem) {
        self.cursor.push(v);
    }
    fn try_push_here(&mut self, v: Elem) -> PushResult {
        self.cursor.try_push(v)
    }
    fn push_to(&mut self, k: usize, v: Elem) {
        assert_eq!(k, self.layer);
        self.cursor.push(v);
    }
    fn try_push_to(&mut self, k: usize, v: Elem) -> PushResult {
        assert_eq!(k, self.layer);
        self.cursor.try_push(v)
    }
    fn check_counts(&self, model: &Model) {
        let l = &model.layers[self.layer];
        assert_eq!(self.cursor.len(), l.len(), "SinkCursor::len");
        assert_eq!(
            self.cursor.remaining(),
            l.queue.len(),
            "SinkCursor::remaining"
        );
    }
}

// ---------------------------------------------------------------------------
// Driving a pass

/// Where a push goes, as a layer index (`None`: the layer being walked, which
/// the model must know). A single-layer pass sends everything to its layer.
fn resolve(target: Target, n: usize, single: Option<usize>) -> Option<usize> {
    match (single, target) {
        (Some(l), _) => Some(l),
        (None, Target::Here) => None,
        (None, Target::Layer(k)) => Some(usize::from(k) % n),
    }
}

/// One push through an entry or a cursor, checked against the model.
/// `do_push(layer_or_here, try_, value)` makes the call.
fn checked_push(
    model: &mut Model,
    op: PushOp,
    single: Option<usize>,
    do_push: &mut dyn FnMut(Option<usize>, bool, Elem) -> Option<PushResult>,
) {
    // Capping visits too ends passes that remove one element and push
    // one into the layer being walked, forever.
    if model.live() >= MAX_LIVE || model.visits >= MAX_VISITS {
        return;
    }
    let n = model.layers.len();
    let target = resolve(op.target, n, single);
    let (elem, m) = model.fresh(op.val);
    let layer = match target.or(model.cur) {
        Some(l) => l,
        None => {
            // `push` outside a layer: a documented panic; the value is
            // dropped.
            model.expect = Expect::Library;
            count(|s| s.library_panics += 1);
            expect_panic(true);
            do_push(target, op.try_, elem);
            panic!("push outside a layer did not panic");
        }
    };
    let accepted = model.push(layer, m);
    if accepted {
        model.count_push(layer);
    } else if op.try_ {
        count(|s| s.refused += 1);
    } else {
        model.expect = Expect::Library;
        count(|s| s.library_panics += 1);
        expect_panic(true);
        do_push(target, false, elem);
        panic!("push into full layer {layer} did not panic");
    }
    match do_push(target, op.try_, elem) {
        None => assert!(accepted, "push into layer {layer} accepted, model refuses"),
        Some(Ok(())) => assert!(
            accepted,
            "try_push into layer {layer} accepted, model refuses"
        ),
        Some(Err(err)) => {
            assert!(
                !accepted,
                "try_push into layer {layer} refused, model accepts"
            );
            let back = err.into_inner();
            assert_eq!(back.id, m.id, "a refused push hands back its own value");
            drop(back);
            assert_eq!(drops_of(m.id), 1);
        }
    }
}

fn entry_push<En: EntryOps>(
    e: &mut En,
    target: Option<usize>,
    try_: bool,
    v: Elem,
) -> Option<PushResult> {
    match (target, try_) {
        (None, false) => {
            e.push_here(v);
            None
        }
        (None, true) => Some(e.try_push_here(v)),
        (Some(k), false) => {
            e.push_to(k, v);
            None
        }
        (Some(k), true) => Some(e.try_push_to(k, v)),
    }
}

fn cursor_push<C: CursorOps>(
    c: &mut C,
    target: Option<usize>,
    try_: bool,
    v: Elem,
) -> Option<PushResult> {
    match (target, try_) {
        (None, false) => {
            c.push_here(v);
            None
        }
        (None, true) => Some(c.try_push_here(v)),
        (Some(k), false) => {
            c.push_to(k, v);
            None
        }
        (Some(k), true) => Some(c.try_push_to(k, v)),
    }
}

/// The model's side of a sink call: the element goes to the sink's list,
/// or, at the chosen call, the sink panics and drops it.
fn model_sink(model: &mut Model, m: M) {
    let call = model.sink_calls;
    model.sink_calls += 1;
    if model.sink_panic_at == Some(call) {
        model.expect = Expect::Injected;
        count(|s| s.sink_panics += 1);
    } else {
        model.sink.push(m);
        count(|s| s.sunk += 1);
    }
}

/// Runs the program on one visited entry (everything but cursor pushes).
fn visit_entry<En: EntryOps>(
    model: &mut Model,
    visit: &Visit,
    layer: usize,
    mut e: En,
    has_sink: bool,
    single: Option<usize>,
) {
    let (ml, mm) = model.next().expect("the cursor yields, so must the model");
    assert_eq!((layer, e.id, e.val), (ml, mm.id, mm.val), "visit order");
    assert_eq!(e.layer_index(), layer);
    check_others(&e, model, layer);
    if let Some(u) = visit.update {
        e.val = e.val.wrapping_add(u32::from(u));
        model.held_mut().val = e.val;
    }
    for op in visit.entry_pushes.iter().take(3) {
        checked_push(model, *op, single, &mut |t, try_, v| {
            entry_push(&mut e, t, try_, v)
        });
    }
    match visit.end {
        End::Keep => {}
        End::Remove => {
            let m = model.remove_held();
            if has_sink {
                model_sink(model, m);
                assert!(e.remove().is_none());
            } else {
                let v = e.remove().expect("no sink: remove returns the value");
                assert_eq!(v.id, m.id);
                drop(v);
                assert_eq!(drops_of(m.id), 1);
            }
        }
        End::Take => {
            let m = model.remove_held();
            let v = e.take();
            assert_eq!(v.id, m.id);
            drop(v);
            assert_eq!(drops_of(m.id), 1);
        }
        End::Panic => {
            model.expect = Expect::Injected;
            count(|s| s.body_panics += 1);
            inject_panic();
        }
    }
}

fn drive_cursor<C: CursorOps>(
    c: &mut C,
    model: &mut Model,
    spec: &PassSpec,
    has_sink: bool,
    single: Option<usize>,
) {
    for op in spec.pre.iter().take(4) {
        checked_push(model, *op, single, &mut |t, try_, v| {
            cursor_push(c, t, try_, v)
        });
        assert_eq!(c.current_layer(), model.cur);
    }
    let stop = spec.stop_after.map(|n| usize::from(n % 16));
    let mut visits = 0;
    loop {
        if stop == Some(visits) || visits >= MAX_VISITS {
            if model.has_more() {
                count(|s| s.breaks += 1);
            }
            break;
        }
        c.check_counts(model);
        let Some((layer, e)) = c.next_entry(visits % 2 == 1) else {
            assert_eq!(model.next(), None, "the model has more to visit");
            break;
        };
        let visit = if spec.program.is_empty() {
            None
        } else {
            Some(&spec.program[visits % spec.program.len()])
        };
        visits += 1;
        match visit {
            None => {
                let (ml, mm) = model.next().expect("the cursor yields, so must the model");
                assert_eq!((layer, e.id, e.val), (ml, mm.id, mm.val), "visit order");
                drop(e);
            }
            Some(visit) => {
                visit_entry(model, visit, layer, e, has_sink, single);
                for op in visit.cursor_pushes.iter().take(3) {
                    checked_push(model, *op, single, &mut |t, try_, v| {
                        cursor_push(c, t, try_, v)
                    });
                }
            }
        }
        assert_eq!(c.current_layer(), model.cur);
        c.check_counts(model);
    }
    assert_eq!(c.current_layer(), model.cur);
    for op in spec.post.iter().take(4) {
        checked_push(model, *op, single, &mut |t, try_, v| {
            cursor_push(c, t, try_, v)
        });
    }
}

// ---------------------------------------------------------------------------
// Running an input

fn check_state(layers: &Layers<Elem>, model: &Model, received: &[Elem]) {
    assert_eq!(layers.layer_count(), model.layers.len());
    assert_eq!(layers.len(), model.live());
    assert_eq!(layers.is_empty(), model.live() == 0);
    for (i, ml) in model.layers.iter().enumerate() {
        assert_eq!(ms(layers.layer(i)), ml.contents(), "layer {i}");
        assert_eq!(layers.is_enabled(i), ml.enabled);
        assert_eq!(layers.is_visible(i), ml.visible);
        assert_eq!(layers.layer(i).max_len(), ml.bound);
    }
    let drawn: Vec<(usize, u32)> = layers.iter_visible().map(|(i, e)| (i, e.id)).collect();
    let expected: Vec<(usize, u32)> = model
        .layers
        .iter()
        .enumerate()
        .filter(|(_, l)| l.visible)
        .flat_map(|(i, l)| l.contents().into_iter().map(move |m| (i, m.id)))
        .collect();
    assert_eq!(drawn, expected, "iter_visible");
    assert_eq!(ms(received), model.sink, "what the sink received");
    // Every element ever made: alive (in a layer or the sink's list) and
    // never dropped, or dropped exactly once.
    let mut live = vec![false; model.next_id as usize];
    for m in model
        .layers
        .iter()
        .flat_map(|l| l.kept.iter().chain(l.queue.iter()))
    {
        live[m.id as usize] = true;
    }
    for m in &model.sink {
        live[m.id as usize] = true;
    }
    DROPS.with(|d| {
        let d = d.borrow();
        for (id, &alive) in live.iter().enumerate() {
            assert_eq!(
                d[id],
                u32::from(!alive),
                "drops of element {id} (alive: {alive})"
            );
        }
    });
}

/// Runs a pass body under `catch_unwind` and checks that it panicked
/// exactly when the model expected it to.
fn guarded(model: &mut Model, body: impl FnOnce(&mut Model)) {
    let result = panic::catch_unwind(AssertUnwindSafe(|| body(model)));
    expect_panic(false);
    match result {
        Ok(()) => assert_eq!(
            model.expect,
            Expect::Nothing,
            "an expected panic did not happen"
        ),
        Err(payload) => {
            if model.expect == Expect::Nothing {
                panic::resume_unwind(payload);
            }
            if model.expect == Expect::Injected {
                assert!(payload.downcast_ref::<InjectedPanic>().is_some());
            } else if payload.downcast_ref::<InjectedPanic>().is_some() {
                panic!("injected panic where the library should have panicked");
            }
        }
    }
    model.expect = Expect::Nothing;
}

fn layer_index(layer: u8, n: usize) -> usize {
    usize::from(layer) % n
}

pub fn run(input: &LayersInput) {
    install_panic_hook();
    DROPS.with(|d| d.borrow_mut().clear());
    let specs: Vec<LayerSpec> = if input.layers.is_empty() {
        vec![LayerSpec {
            start: Vec::new(),
            bound: None,
            disabled: false,
        }]
    } else {
        input.layers.iter().take(4).cloned().collect()
    };
    let n = specs.len();
    let mut model = Model {
        layers: Vec::new(),
        sink: Vec::new(),
        next_id: 0,
        cur: None,
        next_layer: 0,
        only: None,
        held: false,
        sink_calls: 0,
        sink_panic_at: None,
        expect: Expect::Nothing,
        visits: 0,
    };
    let mut layers: Layers<Elem> = Layers::from_collections(specs.iter().map(|s| match s.bound {
        Some(b) => ReadWriteCollection::bounded(usize::from(b % 8)),
        None => ReadWriteCollection::new(),
    }));
    for (i, s) in specs.iter().enumerate() {
        model.layers.push(MLayer {
            kept: Vec::new(),
            queue: VecDeque::new(),
            bound: s.bound.map(|b| usize::from(b % 8)),
            enabled: true,
            visible: true,
        });
        for &v in s.start.iter().take(8) {
            let (elem, m) = model.fresh(v);
            let accepted = model.push(i, m);
            match layers.try_push(i, elem) {
                Ok(()) => assert!(accepted),
                Err(err) => {
                    assert!(!accepted);
                    drop(err.into_inner());
                }
            }
        }
        model.end_pass();
        if s.disabled {
            layers.set_enabled(i, false);
            model.layers[i].enabled = false;
        }
    }
    let received: RefCell<Vec<Elem>> = RefCell::new(Vec::new());
    check_state(&layers, &model, &received.borrow());

    for step in input.steps.iter().take(64) {
        match step {
            Step::Push { layer, try_, val } => {
                if model.live() < MAX_LIVE {
                    let i = layer_index(*layer, n);
                    model.begin_pass(None, None);
                    let (elem, m) = model.fresh(*val);
                    let accepted = model.push(i, m);
                    if *try_ {
                        match layers.try_push(i, elem) {
                            Ok(()) => assert!(accepted),
                            Err(err) => {
                                assert!(!accepted);
                                assert_eq!(err.into_inner().id, m.id);
                            }
                        }
                    } else {
                        if !accepted {
                            model.expect = Expect::Library;
                            count(|s| s.library_panics += 1);
                        }
                        guarded(&mut model, |_| {
                            expect_panic(!accepted);
                            layers.push(i, elem);
                        });
                    }
                    model.end_pass();
                }
            }
            Step::SetEnabled { layer, on } => {
                let i = layer_index(*layer, n);
                layers.set_enabled(i, *on);
                model.layers[i].enabled = *on;
            }
            Step::SetVisible { layer, on } => {
                let i = layer_index(*layer, n);
                layers.set_visible(i, *on);
                model.layers[i].visible = *on;
            }
            Step::DrainSink => {
                received.borrow_mut().clear();
                model.sink.clear();
            }
            Step::Cursor(spec) => {
                model.begin_pass(None, spec.sink_panic_at.filter(|_| spec.sink));
                let sink_panic_at = model.sink_panic_at;
                guarded(&mut model, |model| {
                    if spec.sink {
                        let calls = Cell::new(0u32);
                        let sink = sink_fn(&received, &calls, sink_panic_at);
                        let mut c = layers.cursor_with_sink(sink);
                        drive_cursor(&mut c, model, spec, true, None);
                    } else {
                        let mut c = layers.cursor();
                        drive_cursor(&mut c, model, spec, false, None);
                    }
                });
                model.end_pass();
            }
            Step::Traverse(spec) => {
                model.begin_pass(None, spec.sink_panic_at.filter(|_| spec.sink));
                let sink_panic_at = model.sink_panic_at;
                guarded(&mut model, |model| {
                    let mut visits = 0usize;
                    if spec.sink {
                        let calls = Cell::new(0u32);
                        let sink = sink_fn(&received, &calls, sink_panic_at);
                        layers.traverse_with_sink(sink, |layer, e| {
                            traverse_visit(model, spec, &mut visits, layer, e, true);
                        });
                    } else {
                        layers.traverse(|layer, e| {
                            traverse_visit(model, spec, &mut visits, layer, e, false);
                        });
                    }
                    assert_eq!(model.next(), None, "traverse stopped before the model");
                });
                model.end_pass();
            }
            Step::Single { layer, spec } => {
                let i = layer_index(*layer, n);
                model.begin_pass(Some(i), spec.sink_panic_at);
                let sink_panic_at = model.sink_panic_at;
                guarded(&mut model, |model| {
                    let calls = Cell::new(0u32);
                    let sink = sink_fn(&received, &calls, sink_panic_at);
                    let mut c = Single {
                        cursor: layers.layer_mut(i).cursor_with_sink(sink),
                        layer: i,
                        done: false,
                    };
                    // Before the first `next` a collection cursor already
                    // pushes into its collection (visited in this pass).
                    model.cur = Some(i);
                    model.next_layer = i + 1;
                    drive_cursor(&mut c, model, spec, true, Some(i));
                });
                model.end_pass();
            }
        }
        check_state(&layers, &model, &received.borrow());
    }
    drop(layers);
    drop(received);
    model.layers.clear();
    model.sink.clear();
    DROPS.with(|d| {
        for (id, &n) in d.borrow().iter().enumerate() {
            assert_eq!(n, 1, "element {id} dropped {n} times by the end");
        }
    });
}

fn sink_fn<'r>(
    received: &'r RefCell<Vec<Elem>>,
    calls: &'r Cell<u32>,
    panic_at: Option<u32>,
) -> impl FnMut(Elem) + 'r {
    move |v: Elem| {
        let call = calls.get();
        calls.set(call + 1);
        if panic_at == Some(call) {
            // `v` is dropped while unwinding.
            inject_panic();
        }
        received.borrow_mut().push(v);
    }
}

fn traverse_visit<En: EntryOps>(
    model: &mut Model,
    spec: &PassSpec,
    visits: &mut usize,
    layer: usize,
    e: En,
    has_sink: bool,
) {
    if spec.program.is_empty() {
        let (ml, mm) = model.next().expect("traverse yields, so must the model");
        assert_eq!((layer, e.id, e.val), (ml, mm.id, mm.val), "visit order");
        return;
    }
    let visit = &spec.program[*visits % spec.program.len()];
    *visits += 1;
    visit_entry(model, visit, layer, e, has_sink, None);
}

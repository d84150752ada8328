//! `KeyedCollection` against what game developers pick when entities refer
//! to each other: slotmap's `DenseSlotMap` and hecs.
//!
//! Groups (`RWC_GROUPS` prefixes):
//!
//! * `homing/40B/N`: the frame where the dying spawn (`benches/dying.rs`),
//!   and every tenth entity follows another one by key: it reads its
//!   target's velocity and steers toward it. Targets die (their keys go
//!   stale) and children spawn. `keyed_traverse` is one pass that reads
//!   the target through the entry (`KeyedEntry::get`); `dense_slotmap`
//!   is written as its users write it (the targets read in a first loop,
//!   then the update loop, then the removals and insertions); `hecs`
//!   queries the targets through `World::get` in a first loop, then
//!   updates in `query_mut`. Targets are never followers, so the order in
//!   which a frame reads them does not change the result, and every
//!   method is checked against one model (hecs and the slot map lose the
//!   order: checked as a multiset). 5 consecutive frames per sample up to
//!   10k entities, 10 above.
//! * `keyed_get/32B/N`: `get` with every live key once, in a shuffled
//!   order (the keys a game holds point anywhere), against
//!   `DenseSlotMap::get`.
//! * `keyed_push/32B/N`: `push` of N elements into a collection that was
//!   cleared (untimed) and has the room, against `DenseSlotMap::insert`.
//!
//! `RWC_ALTERNATE=11 RWC_BENCH_SIZES=10k,100k RWC_GROUPS=homing,keyed_
//! cargo bench --bench entities` prints the medians and ratios of the same
//! run.

use std::cell::OnceCell;
use std::collections::HashMap;

use criterion::Criterion;
use hecs::World;
use read_write_collection::keyed::DefaultKey;
use read_write_collection::KeyedCollection;
use slotmap::DenseSlotMap;

use crate::dying::{population, spawn_from, step};
use crate::imp::{configure, group_selected, passes_per_round, size_label, Check, Ctx, Entity};
use crate::support::splitmix;

type E = Entity<1>;

/// The index of the entity that entity `i` (a follower: `i % 10 == 0`)
/// follows: never a follower itself, never `i`.
fn target_of(i: usize, n: usize) -> Option<usize> {
    if i % 10 != 0 || n < 3 {
        return None;
    }
    let mut j = (i.wrapping_mul(7919) + 13) % n;
    if j % 10 == 0 {
        j = (j + 1) % n;
    }
    (j != i && j % 10 != 0).then_some(j)
}

/// Steers toward the target's velocity, then the frame's update (move,
/// age); `true` when the entity dies.
#[inline(always)]
fn follow_and_step(e: &mut E, target_vel: Option<[f32; 2]>) -> bool {
    if let Some(v) = target_vel {
        e.vel = [(e.vel[0] + v[0]) * 0.5, (e.vel[1] + v[1]) * 0.5];
    }
    step(e)
}

/// The obviously correct frames: survivors in order, then the children
/// (updated once, no target), followers reading their targets by id.
///
/// `in_pass`: a follower reads its target when the pass reaches the
/// follower, so a target that died earlier in the same frame is gone (one
/// pass, `keyed_traverse`). Otherwise every target is read before the
/// frame's updates (the first loop of `dense_slotmap` and `hecs`). A
/// target's velocity never changes (targets are not followers), so its
/// death is the only difference.
fn model(base: &[E], frames: u32, in_pass: bool) -> Vec<E> {
    let n = base.len();
    let mut v: Vec<(E, Option<u32>)> = base
        .iter()
        .enumerate()
        .map(|(i, e)| (*e, target_of(i, n).map(|j| base[j].id)))
        .collect();
    for _ in 0..frames {
        let vel: HashMap<u32, [f32; 2]> = v.iter().map(|(e, _)| (e.id, e.vel)).collect();
        let mut died = std::collections::HashSet::new();
        let mut out = Vec::with_capacity(v.len());
        let mut children = Vec::new();
        for (mut e, t) in v {
            let gone = |id: &u32| in_pass && died.contains(id);
            let tv = t
                .filter(|id| !gone(id))
                .and_then(|id| vel.get(&id).copied());
            if follow_and_step(&mut e, tv) {
                died.insert(e.id);
                children.extend(spawn_from(&e));
            } else {
                out.push((e, t));
            }
        }
        for mut c in children {
            assert!(!step(&mut c));
            out.push((c, None));
        }
        v = out;
    }
    v.into_iter().map(|(e, _)| e).collect()
}

// ------------------------------------------------------------ this crate

#[derive(Clone, Copy)]
struct Follower {
    e: E,
    target: Option<DefaultKey>,
}

struct Keyed {
    c: KeyedCollection<Follower>,
    snapshot: OnceCell<Vec<E>>,
}

impl Keyed {
    fn new(cap: usize) -> Self {
        Keyed {
            c: KeyedCollection::with_capacity(cap),
            snapshot: OnceCell::new(),
        }
    }

    fn reset(&mut self, base: &[E]) {
        self.snapshot = OnceCell::new();
        self.c.clear();
        let keys: Vec<DefaultKey> = base
            .iter()
            .map(|e| {
                self.c.push(Follower {
                    e: *e,
                    target: None,
                })
            })
            .collect();
        for (i, &k) in keys.iter().enumerate() {
            self.c[k].target = target_of(i, base.len()).map(|j| keys[j]);
        }
    }

    fn out(&self) -> &[E] {
        self.snapshot
            .get_or_init(|| self.c.values().map(|f| f.e).collect())
    }
}

/// One pass: the follower reads its target through the entry.
#[inline(never)]
fn homing_keyed_traverse_pass(s: &mut Keyed) {
    s.c.traverse(|mut f| {
        let tv = f.target.and_then(|t| f.get(t)).map(|t| t.e.vel);
        if follow_and_step(&mut f.e, tv) {
            if let Some(child) = spawn_from(&f.e) {
                f.push(Follower {
                    e: child,
                    target: None,
                });
            }
            f.remove();
        }
    });
}

// ------------------------------------------------------------ what else

#[derive(Clone, Copy)]
struct SlotFollower {
    e: E,
    target: Option<slotmap::DefaultKey>,
}

struct Slots {
    map: DenseSlotMap<slotmap::DefaultKey, SlotFollower>,
    reads: Vec<Option<[f32; 2]>>,
    dead: Vec<slotmap::DefaultKey>,
    children: Vec<E>,
    snapshot: OnceCell<Vec<E>>,
}

impl Slots {
    fn new(cap: usize) -> Self {
        Slots {
            map: DenseSlotMap::with_capacity(cap),
            reads: Vec::new(),
            dead: Vec::new(),
            children: Vec::new(),
            snapshot: OnceCell::new(),
        }
    }

    fn reset(&mut self, base: &[E]) {
        self.snapshot = OnceCell::new();
        self.map.clear();
        let keys: Vec<_> = base
            .iter()
            .map(|e| {
                self.map.insert(SlotFollower {
                    e: *e,
                    target: None,
                })
            })
            .collect();
        for (i, &k) in keys.iter().enumerate() {
            self.map[k].target = target_of(i, base.len()).map(|j| keys[j]);
        }
    }

    fn out(&self) -> &[E] {
        self.snapshot
            .get_or_init(|| self.map.values().map(|f| f.e).collect())
    }
}

/// As `DenseSlotMap` users write it: the targets read in a first loop,
/// then the update loop, then the removals and insertions.
#[inline(never)]
fn homing_dense_slotmap_pass(s: &mut Slots) {
    s.reads.clear();
    for f in s.map.values() {
        if let Some(t) = f.target {
            s.reads.push(s.map.get(t).map(|t| t.e.vel));
        }
    }
    let mut reads = s.reads.iter();
    for (key, f) in s.map.iter_mut() {
        let tv = if f.target.is_some() {
            *reads.next().expect("one read per follower")
        } else {
            None
        };
        if follow_and_step(&mut f.e, tv) {
            s.dead.push(key);
            s.children.extend(spawn_from(&f.e));
        }
    }
    for key in s.dead.drain(..) {
        s.map.remove(key);
    }
    for mut c in s.children.drain(..) {
        let _ = step(&mut c);
        s.map.insert(SlotFollower { e: c, target: None });
    }
}

/// A follower's target, as a hecs component.
struct Target(hecs::Entity);

struct Hecs {
    world: World,
    reads: Vec<Option<[f32; 2]>>,
    dead: Vec<hecs::Entity>,
    children: Vec<E>,
    snapshot: OnceCell<Vec<E>>,
}

impl Hecs {
    fn new() -> Self {
        Hecs {
            world: World::new(),
            reads: Vec::new(),
            dead: Vec::new(),
            children: Vec::new(),
            snapshot: OnceCell::new(),
        }
    }

    fn reset(&mut self, base: &[E]) {
        self.snapshot = OnceCell::new();
        self.world.clear();
        let ids: Vec<hecs::Entity> = base.iter().map(|e| self.world.spawn((*e,))).collect();
        for (i, &id) in ids.iter().enumerate() {
            if let Some(j) = target_of(i, base.len()) {
                self.world.insert_one(id, Target(ids[j])).expect("alive");
            }
        }
    }

    fn out(&self) -> &[E] {
        self.snapshot.get_or_init(|| {
            let mut query = self.world.query::<&E>();
            query.iter().map(|(_, e)| *e).collect()
        })
    }
}

/// hecs: the targets read with `World::get` while querying the
/// followers, then the update in `query_mut` (followers in the same
/// order), then despawns and a batch of children.
#[inline(never)]
fn homing_hecs_pass(s: &mut Hecs) {
    s.reads.clear();
    for (_, t) in s.world.query::<&Target>().iter() {
        s.reads.push(s.world.get::<&E>(t.0).ok().map(|e| e.vel));
    }
    let mut reads = s.reads.iter();
    for (id, (e, t)) in s.world.query_mut::<(&mut E, Option<&Target>)>() {
        let tv = t.and_then(|_| *reads.next().expect("one read per follower"));
        if follow_and_step(e, tv) {
            s.dead.push(id);
            s.children.extend(spawn_from(e));
        }
    }
    for id in s.dead.drain(..) {
        s.world.despawn(id).expect("alive");
    }
    for c in s.children.iter_mut() {
        let _ = step(c);
    }
    s.world.spawn_batch(s.children.drain(..).map(|c| (c,)));
}

// ------------------------------------------------------------ lookups and pushes

/// A collection of the base population and its live keys, shuffled.
struct Lookup<C, K> {
    c: C,
    keys: Vec<K>,
    sum: f32,
    base: Vec<E>,
    snapshot: OnceCell<Vec<E>>,
}

fn shuffled<K: Copy>(keys: &[K]) -> Vec<K> {
    let mut keys = keys.to_vec();
    for i in (1..keys.len()).rev() {
        let j = (splitmix(i as u64 ^ 0x6E7) % (i as u64 + 1)) as usize;
        keys.swap(i, j);
    }
    keys
}

#[inline(never)]
fn get_keyed_pass(s: &mut KeyedLookup) {
    let mut sum = 0.0;
    for &k in &s.keys {
        sum += s.c.get(k).map_or(0.0, |e| e.pos[0]);
    }
    s.sum = sum;
}

#[inline(never)]
fn get_dense_slotmap_pass(
    s: &mut Lookup<DenseSlotMap<slotmap::DefaultKey, E>, slotmap::DefaultKey>,
) {
    let mut sum = 0.0;
    for &k in &s.keys {
        sum += s.c.get(k).map_or(0.0, |e| e.pos[0]);
    }
    s.sum = sum;
}

#[inline(never)]
fn push_keyed_pass(s: &mut KeyedLookup) {
    for e in &s.base {
        s.c.push(*e);
    }
}

#[inline(never)]
fn push_dense_slotmap_pass(
    s: &mut Lookup<DenseSlotMap<slotmap::DefaultKey, E>, slotmap::DefaultKey>,
) {
    for e in &s.base {
        s.c.insert(*e);
    }
}

type KeyedLookup = Lookup<KeyedCollection<E>, DefaultKey>;
type SlotLookup = Lookup<DenseSlotMap<slotmap::DefaultKey, E>, slotmap::DefaultKey>;

fn keyed_out(s: &KeyedLookup) -> &[E] {
    s.c.as_slice()
}

fn slot_out(s: &SlotLookup) -> &[E] {
    s.snapshot.get_or_init(|| s.c.values().copied().collect())
}

fn no_reset<S>(_: &mut S, _: &[E]) {}

fn keyed_clear(s: &mut KeyedLookup, _: &[E]) {
    s.c.clear();
}

fn slot_clear(s: &mut SlotLookup, _: &[E]) {
    s.c.clear();
    s.snapshot = OnceCell::new();
}

// ------------------------------------------------------------ groups

fn homing_group(c: &mut Criterion, n: usize) {
    let name = format!("homing/40B/{}", size_label(n));
    if !group_selected(&name) {
        return;
    }
    let base = population::<1>(n, (1, 10));
    let frames = passes_per_round(n);
    let expect = model(&base, frames, true);
    let expect_before = model(&base, frames, false);
    let mut expect_sorted = expect_before.clone();
    expect_sorted.sort_by_key(|e| e.id);
    eprintln!(
        "# {name}: {n} entities, {frames} consecutive passes -> {}",
        expect.len()
    );
    let cap = n + n / 10 + 16;
    let mut group = c.benchmark_group(name.clone());
    configure(&mut group, n);
    let mut ctx = Ctx {
        group: &mut group,
        base: &base,
        expect: &expect,
        expect_sorted: &expect_sorted,
        queued: Vec::new(),
        consecutive: true,
    };
    ctx.method(
        "keyed_traverse",
        move || Keyed::new(cap),
        Keyed::reset,
        homing_keyed_traverse_pass,
        Keyed::out,
        Check::Ordered,
    );
    // The others read every target before the frame's updates.
    ctx.expect = &expect_before;
    ctx.method(
        "dense_slotmap",
        move || Slots::new(cap),
        Slots::reset,
        homing_dense_slotmap_pass,
        Slots::out,
        Check::Multiset,
    );
    ctx.method(
        "hecs",
        Hecs::new,
        Hecs::reset,
        homing_hecs_pass,
        Hecs::out,
        Check::Multiset,
    );
    ctx.alternate(&name);
    drop(ctx);
    group.finish();
}

/// `get` and `push`: the population is unchanged by `get`, and `push`
/// rebuilds it from a cleared collection.
fn lookup_groups(c: &mut Criterion, n: usize) {
    let base = population::<1>(n, (1, 10));
    let mut sorted = base.clone();
    sorted.sort_by_key(|e| e.id);
    let keyed_lookup = |base: &[E]| {
        let mut c = KeyedCollection::with_capacity(base.len());
        let keys: Vec<_> = base.iter().map(|e| c.push(*e)).collect();
        Lookup {
            c,
            keys: shuffled(&keys),
            sum: 0.0,
            base: base.to_vec(),
            snapshot: OnceCell::new(),
        }
    };
    let slot_lookup = |base: &[E]| {
        let mut c = DenseSlotMap::with_capacity(base.len());
        let keys: Vec<_> = base.iter().map(|e| c.insert(*e)).collect();
        Lookup {
            c,
            keys: shuffled(&keys),
            sum: 0.0,
            base: base.to_vec(),
            snapshot: OnceCell::new(),
        }
    };
    for (what, consecutive) in [("keyed_get", true), ("keyed_push", false)] {
        let name = format!("{what}/32B/{}", size_label(n));
        if !group_selected(&name) {
            continue;
        }
        let mut group = c.benchmark_group(name.clone());
        configure(&mut group, n);
        let mut ctx = Ctx {
            group: &mut group,
            base: &base,
            expect: &base,
            expect_sorted: &sorted,
            queued: Vec::new(),
            consecutive,
        };
        let b = &base;
        if what == "keyed_get" {
            ctx.method(
                "keyed",
                move || keyed_lookup(b),
                no_reset,
                get_keyed_pass,
                keyed_out,
                Check::Ordered,
            );
            ctx.method(
                "dense_slotmap",
                move || slot_lookup(b),
                no_reset,
                get_dense_slotmap_pass,
                slot_out,
                Check::Multiset,
            );
        } else {
            ctx.method(
                "keyed",
                move || keyed_lookup(b),
                keyed_clear,
                push_keyed_pass,
                keyed_out,
                Check::Ordered,
            );
            ctx.method(
                "dense_slotmap",
                move || slot_lookup(b),
                slot_clear,
                push_dense_slotmap_pass,
                slot_out,
                Check::Multiset,
            );
        }
        ctx.alternate(&name);
        drop(ctx);
        group.finish();
    }
}

pub(crate) fn groups(c: &mut Criterion, n: usize) {
    homing_group(c, n);
    lookup_groups(c, n);
}

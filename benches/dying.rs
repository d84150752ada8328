//! The frame where the dying spawn: the element that dies is the one that
//! spawns (an explosion, a bullet that splits, a cell that divides), so one
//! visit removes the element and pushes its child, which the same pass
//! updates.
//!
//! 32-byte entities move and age: each starts with a life drawn at random
//! in 1..=10, the update moves it and takes one from its life, it dies at
//! 0, and a dying entity with an even id spawns one child (odd id, life
//! 10), which the same pass updates. About a tenth die per pass.
//!
//! **Consecutive frames.** Every sample resets the population once
//! (untimed) and then times consecutive passes over it, 5 up to 10k
//! entities and 10 above (`RWC_PASSES` overrides), as a game runs its
//! frames: each pass meets the deaths the previous one left, a pattern no
//! branch predictor has seen. A bench that replays one pass's input
//! sample after sample can let the predictor learn where the deaths are,
//! and then its ratios say more about the predictor than about the pass
//! (benches/README.md, "Why the old figures flattered the pass";
//! `RWC_REPLAY=1` times the first frame replayed).
//!
//! Groups (`RWC_GROUPS` prefixes):
//!
//! * `dying/32B/N`: the lending cursor, `traverse`, unordered mode, and
//!   the auto-remove predicates (closure, unit struct, `fn` pointer; in
//!   the cursor and in `traverse`), against the careful hand-written loop
//!   on a `Vec` (`hand_loop`: copy the element to a local, update it,
//!   build the child only for the dead, write survivors back), the seed's
//!   loop (`seed_loop`: the entity list's update, expiry checked before
//!   the update and after it, which is what the predicate promises),
//!   `retain_mut` with the spawns collected aside, a `swap_remove` loop,
//!   and what game developers pick instead: hecs (`World` queried, the
//!   dead despawned, the children spawned in a batch; and with its
//!   `CommandBuffer`) and slotmap's `DenseSlotMap` (iterate, remove by
//!   key, insert). Those two give stable handles and lose the order; their
//!   results are checked as a multiset.
//! * `dying_exact/32B/N`: the same frames from a buffer with no spare
//!   capacity (the first spawn grows the buffer inside the first pass).
//! * `dying_none/32B/N`: nothing dies (lives of 100 and more); the cursor
//!   and `traverse` against `iter_mut` running the same body (its test for
//!   a death never fires).
//!
//! Every method's population after the passes is checked against a model
//! before anything is timed.
//! `RWC_ALTERNATE=rounds RWC_BENCH_SIZES=10k,100k RWC_GROUPS=dying cargo
//! bench --bench entities` prints the medians and the ratios of the same
//! run; `scripts/dying-table.sh` runs it in several processes.

use std::cell::OnceCell;
use std::mem;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion};
use hecs::{CommandBuffer, World};
use read_write_collection::{AutoRemove, Builder, KeyedCollection, Mode, ReadWriteCollection};
use slotmap::{DefaultKey, DenseSlotMap};

use crate::imp::{
    configure, expired, group_selected, not_in_this_scenario, passes_per_round, refill,
    refill_collection, size_label, warm_collection, warm_vec, Check, Ctx, Entity, Expired,
};
use crate::support::splitmix;

/// `RWC_REPLAY=1`: time every pass from the same population (the first
/// frame, replayed), as this bench did before it ran consecutive frames,
/// to show what a replayed input does to the figures (benches/README.md).
fn replaying() -> bool {
    std::env::var_os("RWC_REPLAY").is_some()
}

/// A newborn's life: it survives the pass that spawns it.
const CHILD_LIFE: u32 = 10;

/// The update: move, age; `true` when the entity dies (its life ran out).
#[inline(always)]
pub(crate) fn step<const PAD: usize>(e: &mut Entity<PAD>) -> bool {
    e.pos[0] += e.vel[0];
    e.pos[1] += e.vel[1];
    e.life -= 1;
    e.life == 0
}

/// The child a dying entity leaves, if it is one that spawns (an even
/// id). Children have odd ids, so they never spawn.
#[inline(always)]
pub(crate) fn spawn_from<const PAD: usize>(e: &Entity<PAD>) -> Option<Entity<PAD>> {
    if e.id % 2 == 0 {
        Some(Entity {
            pos: e.pos,
            vel: [e.vel[1], e.vel[0]],
            id: e.id | 1,
            life: CHILD_LIFE,
            pad: e.pad,
        })
    } else {
        None
    }
}

/// `n` entities with lives drawn in `lives` from a hash of the index
/// (scattered, not periodic); ids are unique, even for half of them.
pub(crate) fn population<const PAD: usize>(n: usize, lives: (u32, u32)) -> Vec<Entity<PAD>> {
    let (low, high) = lives;
    (0..n as u32)
        .map(|i| {
            let h = splitmix(u64::from(i) ^ 0xD1E5);
            let mut pad = [0; PAD];
            pad[0] = h;
            Entity {
                pos: [i as f32, (h % 1000) as f32],
                vel: [((h >> 8) % 7) as f32 - 3.0, ((h >> 16) % 5) as f32 - 2.0],
                id: 2 * i + (h >> 32) as u32 % 2,
                life: low + (h >> 40) as u32 % (high - low + 1),
                pad,
            }
        })
        .collect()
}

/// The obviously correct frame: survivors in order, then the children in
/// spawn order, each updated once (children die in a later pass, never in
/// the one that spawns them). Returns how many died and spawned.
fn model_pass<const PAD: usize>(v: &mut Vec<Entity<PAD>>) -> (usize, usize) {
    let mut out = Vec::with_capacity(v.len());
    let mut children = Vec::new();
    let mut died = 0;
    for e in v.iter() {
        let mut e = *e;
        if step(&mut e) {
            died += 1;
            children.extend(spawn_from(&e));
        } else {
            out.push(e);
        }
    }
    let spawned = children.len();
    for mut c in children {
        assert!(!step(&mut c), "a child dies in the pass that spawns it");
        out.push(c);
    }
    *v = out;
    (died, spawned)
}

// ------------------------------------------------------------ this crate

/// The body every form of the crate runs: update; if dead, push the child
/// (if any) and leave.
#[inline(never)]
fn dying_cursor_pass<const PAD: usize>(c: &mut ReadWriteCollection<Entity<PAD>>) {
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        if step(&mut *e) {
            if let Some(child) = spawn_from(&*e) {
                e.push(child);
            }
            e.remove();
        }
    }
}

#[inline(never)]
fn dying_traverse_pass<const PAD: usize>(c: &mut ReadWriteCollection<Entity<PAD>>) {
    c.traverse(|mut e| {
        if step(&mut *e) {
            if let Some(child) = spawn_from(&*e) {
                e.push(child);
            }
            e.remove();
        }
    });
}

/// The body of a collection whose predicate does the removing.
#[inline(never)]
fn dying_predicate_cursor_pass<const PAD: usize, A: AutoRemove<Entity<PAD>>>(
    c: &mut ReadWriteCollection<Entity<PAD>, A>,
) {
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        if step(&mut *e) {
            if let Some(child) = spawn_from(&*e) {
                e.push(child);
            }
        }
    }
}

#[inline(never)]
fn dying_predicate_traverse_pass<const PAD: usize, A: AutoRemove<Entity<PAD>>>(
    c: &mut ReadWriteCollection<Entity<PAD>, A>,
) {
    c.traverse(|mut e| {
        if step(&mut *e) {
            if let Some(child) = spawn_from(&*e) {
                e.push(child);
            }
        }
    });
}

// ------------------------------------------------------------ by hand

/// The single-array loop a careful user writes for `Copy` data: copy the
/// element at the read index to a local, update it there (a `bool` says
/// whether it died), build the child only for the dead, write a survivor
/// back at the write index.
#[inline(never)]
fn dying_hand_loop_pass<const PAD: usize>(v: &mut Vec<Entity<PAD>>) {
    let mut write = 0;
    let mut read = 0;
    while read < v.len() {
        let mut e = v[read];
        read += 1;
        if step(&mut e) {
            if let Some(child) = spawn_from(&e) {
                v.push(child);
            }
        } else {
            v[write] = e;
            write += 1;
        }
    }
    v.truncate(write);
}

/// The seed's loop (the entity list's `update`): an expired entity is not
/// updated, and one that expires in its update leaves; pushes are visited
/// in the same pass.
#[inline(never)]
fn dying_seed_loop_pass<const PAD: usize>(v: &mut Vec<Entity<PAD>>) {
    let mut write = 0;
    let mut read = 0;
    while read < v.len() {
        let mut e = v[read];
        read += 1;
        if !expired(&e) && step(&mut e) {
            if let Some(child) = spawn_from(&e) {
                v.push(child);
            }
        }
        if !expired(&e) {
            v[write] = e;
            write += 1;
        }
    }
    v.truncate(write);
}

pub(crate) struct Aside<const PAD: usize> {
    v: Vec<Entity<PAD>>,
    side: Vec<Entity<PAD>>,
}

/// `retain_mut`, which cannot push: the children are collected aside,
/// updated in a second loop and appended.
#[inline(never)]
fn dying_retain_mut_pass<const PAD: usize>(s: &mut Aside<PAD>) {
    let side = &mut s.side;
    s.v.retain_mut(|e| {
        if step(e) {
            side.extend(spawn_from(e));
            false
        } else {
            true
        }
    });
    // Children never die in the pass that spawns them (the model checks it).
    for c in side.iter_mut() {
        let _ = step(c);
    }
    s.v.append(side);
}

/// Index loop with `swap_remove` (unordered): the element moved into the
/// hole is visited next.
#[inline(never)]
fn dying_swap_remove_pass<const PAD: usize>(v: &mut Vec<Entity<PAD>>) {
    let mut i = 0;
    while i < v.len() {
        if step(&mut v[i]) {
            let dead = v.swap_remove(i);
            if let Some(child) = spawn_from(&dead) {
                v.push(child);
            }
        } else {
            i += 1;
        }
    }
}

/// The plain update loop running the same body; nothing dies in its
/// scenario, and the test for it never fires.
#[inline(never)]
fn dying_iter_mut_pass<const PAD: usize>(v: &mut [Entity<PAD>]) {
    for e in v.iter_mut() {
        if step(e) {
            not_in_this_scenario();
        }
    }
}
// ------------------------------------------------------------ what else

/// An ECS world, the frame's lists kept across frames, and the snapshot
/// the check reads.
pub(crate) struct Hecs<const PAD: usize> {
    world: World,
    dead: Vec<hecs::Entity>,
    children: Vec<Entity<PAD>>,
    commands: CommandBuffer,
    snapshot: OnceCell<Vec<Entity<PAD>>>,
}

impl<const PAD: usize> Hecs<PAD> {
    fn new() -> Self {
        Hecs {
            world: World::new(),
            dead: Vec::new(),
            children: Vec::new(),
            commands: CommandBuffer::new(),
            snapshot: OnceCell::new(),
        }
    }

    fn reset(&mut self, base: &[Entity<PAD>]) {
        self.world.clear();
        self.world.spawn_batch(base.iter().map(|e| (*e,)));
    }

    fn out(&self) -> &[Entity<PAD>] {
        self.snapshot.get_or_init(|| {
            let mut query = self.world.query::<&Entity<PAD>>();
            query.iter().map(|(_, e)| *e).collect()
        })
    }
}

/// hecs as its docs show it: query the world, despawn the dead afterwards,
/// spawn the children in a batch (updated first: this frame handles them).
#[inline(never)]
fn dying_hecs_pass<const PAD: usize>(s: &mut Hecs<PAD>) {
    for (id, e) in s.world.query_mut::<&mut Entity<PAD>>() {
        if step(e) {
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

/// hecs with its `CommandBuffer`: despawns and spawns recorded during the
/// query, applied after it.
#[inline(never)]
fn dying_hecs_command_buffer_pass<const PAD: usize>(s: &mut Hecs<PAD>) {
    for (id, e) in s.world.query_mut::<&mut Entity<PAD>>() {
        if step(e) {
            s.commands.despawn(id);
            if let Some(mut child) = spawn_from(e) {
                let _ = step(&mut child);
                s.commands.spawn((child,));
            }
        }
    }
    s.commands.run_on(&mut s.world);
}

pub(crate) struct Slots<const PAD: usize> {
    map: DenseSlotMap<DefaultKey, Entity<PAD>>,
    dead: Vec<DefaultKey>,
    children: Vec<Entity<PAD>>,
    snapshot: OnceCell<Vec<Entity<PAD>>>,
}

impl<const PAD: usize> Slots<PAD> {
    fn new(cap: usize) -> Self {
        Slots {
            map: DenseSlotMap::with_capacity(cap),
            dead: Vec::new(),
            children: Vec::new(),
            snapshot: OnceCell::new(),
        }
    }

    fn reset(&mut self, base: &[Entity<PAD>]) {
        self.map.clear();
        for e in base {
            self.map.insert(*e);
        }
    }

    fn out(&self) -> &[Entity<PAD>] {
        self.snapshot
            .get_or_init(|| self.map.values().copied().collect())
    }
}

/// slotmap's `DenseSlotMap`: iterate the values, remove the dead by key,
/// insert the children (updated first: this frame handles them).
#[inline(never)]
fn dying_dense_slotmap_pass<const PAD: usize>(s: &mut Slots<PAD>) {
    for (key, e) in s.map.iter_mut() {
        if step(e) {
            s.dead.push(key);
            s.children.extend(spawn_from(e));
        }
    }
    for key in s.dead.drain(..) {
        s.map.remove(key);
    }
    for mut c in s.children.drain(..) {
        let _ = step(&mut c);
        s.map.insert(c);
    }
}

// ------------------------------------------------------ keyed collection

/// The frame on a `KeyedCollection`: the same body as `traverse`; every
/// survivor that moves takes its slot along.
#[inline(never)]
fn dying_keyed_traverse_pass<const PAD: usize>(c: &mut KeyedCollection<Entity<PAD>>) {
    c.traverse(|mut e| {
        if step(&mut *e) {
            if let Some(child) = spawn_from(&*e) {
                e.push(child);
            }
            e.remove();
        }
    });
}

#[inline(never)]
fn dying_keyed_cursor_pass<const PAD: usize>(c: &mut KeyedCollection<Entity<PAD>>) {
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        if step(&mut *e) {
            if let Some(child) = spawn_from(&*e) {
                e.push(child);
            }
            e.remove();
        }
    }
}

/// A keyed collection with room for `cap` elements, touched once.
fn warm_keyed<const PAD: usize>(cap: usize) -> KeyedCollection<Entity<PAD>> {
    let mut c = KeyedCollection::with_capacity(cap);
    for _ in 0..cap {
        c.push(Entity::ZERO);
    }
    c.clear();
    c
}

fn refill_keyed<const PAD: usize>(c: &mut KeyedCollection<Entity<PAD>>, base: &[Entity<PAD>]) {
    c.clear();
    for e in base {
        c.push(*e);
    }
}

/// A floor for any keyed pass that keeps exact positions: the unkeyed
/// `traverse`, then one position store per element into a slot table
/// (`slot_of[i]` names element `i`'s slot: in order for `keyed_floor_seq`,
/// shuffled for `keyed_floor_rand`, as after slots are reused). Not a
/// collection: it keeps no keys right (`Check::Floor`).
pub(crate) struct KeyedFloor<const PAD: usize> {
    c: ReadWriteCollection<Entity<PAD>>,
    slot_of: Vec<u32>,
    at: Vec<u32>,
}

fn keyed_floor<const PAD: usize>(cap: usize, shuffled: bool) -> KeyedFloor<PAD> {
    let mut slot_of: Vec<u32> = (0..cap as u32).collect();
    if shuffled {
        for i in (1..cap).rev() {
            let j = (splitmix(i as u64 ^ 0x5107) % (i as u64 + 1)) as usize;
            slot_of.swap(i, j);
        }
    }
    KeyedFloor {
        c: warm_collection(ReadWriteCollection::new(), cap),
        slot_of,
        at: vec![0; cap],
    }
}

#[inline(never)]
fn keyed_floor_pass<const PAD: usize>(s: &mut KeyedFloor<PAD>) {
    dying_traverse_pass(&mut s.c);
    let n = s.c.len().min(s.slot_of.len());
    for (i, &slot) in s.slot_of[..n].iter().enumerate() {
        s.at[slot as usize] = i as u32;
    }
}

/// The keyed rows: `traverse` and the cursor.
fn keyed_methods<const PAD: usize>(ctx: &mut Ctx<'_, '_, PAD>, cap: usize) {
    ctx.method(
        "keyed_traverse",
        move || warm_keyed(cap),
        refill_keyed,
        dying_keyed_traverse_pass,
        |c| c.as_slice(),
        Check::Ordered,
    );
    for (name, shuffled) in [("keyed_floor_seq", false), ("keyed_floor_rand", true)] {
        ctx.method(
            name,
            move || keyed_floor(cap, shuffled),
            |s, base| refill_collection(&mut s.c, base),
            keyed_floor_pass,
            |s| s.c.as_slice(),
            Check::Floor,
        );
    }
    ctx.method(
        "keyed_cursor",
        move || warm_keyed(cap),
        refill_keyed,
        dying_keyed_cursor_pass,
        |c| c.as_slice(),
        Check::Ordered,
    );
}

// ------------------------------------------------------------ groups

struct Group<const PAD: usize> {
    name: String,
    base: Vec<Entity<PAD>>,
    expect: Vec<Entity<PAD>>,
    expect_sorted: Vec<Entity<PAD>>,
}

impl<const PAD: usize> Group<PAD> {
    /// `None` when `RWC_GROUPS` leaves the group out. `lives`: the range
    /// the entities' lives are drawn in.
    fn new(prefix: &str, n: usize, lives: (u32, u32)) -> Option<Self> {
        let bytes = mem::size_of::<Entity<PAD>>();
        let name = format!("{prefix}/{bytes}B/{}", size_label(n));
        if !group_selected(&name) {
            return None;
        }
        let base = population::<PAD>(n, lives);
        let passes = if replaying() { 1 } else { passes_per_round(n) };
        let mut expect = base.clone();
        let (mut died, mut spawned) = (0, 0);
        for _ in 0..passes {
            let (d, s) = model_pass(&mut expect);
            died += d;
            spawned += s;
        }
        let mut expect_sorted = expect.clone();
        expect_sorted.sort_by_key(|e| e.id);
        eprintln!(
            "# {name}: {n} entities, {passes} consecutive passes -> {} ({died} die, {spawned} of them spawn)",
            expect.len()
        );
        Some(Group {
            name,
            base,
            expect,
            expect_sorted,
        })
    }
}

impl<const PAD: usize> Group<PAD> {
    fn ctx<'g, 'c>(&'g self, group: &'g mut BenchmarkGroup<'c, WallTime>) -> Ctx<'g, 'c, PAD> {
        Ctx {
            group,
            base: &self.base,
            expect: &self.expect,
            expect_sorted: &self.expect_sorted,
            queued: Vec::new(),
            consecutive: !replaying(),
        }
    }
}

/// The cursor and `traverse` on collections with `cap` slots (spare room).
fn cursor_and_traverse<const PAD: usize>(ctx: &mut Ctx<'_, '_, PAD>, cap: usize) {
    let plain = move || warm_collection(ReadWriteCollection::new(), cap);
    ctx.method(
        "cursor",
        plain,
        refill_collection,
        dying_cursor_pass,
        |c| c.as_slice(),
        Check::Ordered,
    );
    ctx.method(
        "traverse",
        plain,
        refill_collection,
        dying_traverse_pass,
        |c| c.as_slice(),
        Check::Ordered,
    );
}

fn dying_group<const PAD: usize>(c: &mut Criterion, n: usize) {
    let Some(g) = Group::<PAD>::new("dying", n, (1, 10)) else {
        return;
    };
    let cap = n + n / 10 + 16;
    let mut group = c.benchmark_group(g.name.clone());
    configure(&mut group, n);
    let mut ctx = g.ctx(&mut group);
    cursor_and_traverse(&mut ctx, cap);
    keyed_methods(&mut ctx, cap);
    ctx.method(
        "hand_loop",
        || warm_vec(cap),
        refill,
        dying_hand_loop_pass,
        |v| v,
        Check::Ordered,
    );
    ctx.method(
        "seed_loop",
        || warm_vec(cap),
        refill,
        dying_seed_loop_pass,
        |v| v,
        Check::Ordered,
    );
    let closure = || {
        warm_collection(
            ReadWriteCollection::with_auto_remove(|e: &Entity<PAD>| e.life == 0),
            cap,
        )
    };
    ctx.method(
        "closure_cursor",
        closure,
        refill_collection,
        dying_predicate_cursor_pass,
        |c| c.as_slice(),
        Check::Ordered,
    );
    ctx.method(
        "closure_traverse",
        closure,
        refill_collection,
        dying_predicate_traverse_pass,
        |c| c.as_slice(),
        Check::Ordered,
    );
    let unit = || warm_collection(ReadWriteCollection::with_policy(Expired), cap);
    ctx.method(
        "unit_struct_cursor",
        unit,
        refill_collection,
        dying_predicate_cursor_pass,
        |c| c.as_slice(),
        Check::Ordered,
    );
    ctx.method(
        "unit_struct_traverse",
        unit,
        refill_collection,
        dying_predicate_traverse_pass,
        |c| c.as_slice(),
        Check::Ordered,
    );
    let fn_pointer = || {
        warm_collection(
            ReadWriteCollection::with_auto_remove(expired::<PAD> as fn(&Entity<PAD>) -> bool),
            cap,
        )
    };
    ctx.method(
        "fn_pointer",
        fn_pointer,
        refill_collection,
        dying_predicate_cursor_pass,
        |c| c.as_slice(),
        Check::Ordered,
    );
    ctx.method(
        "retain_mut",
        || Aside {
            v: warm_vec(cap),
            side: warm_vec(n / 10 + 16),
        },
        |s, base| refill(&mut s.v, base),
        dying_retain_mut_pass,
        |s| &s.v,
        Check::Ordered,
    );
    let unordered = || {
        let c = warm_collection(Builder::new().unordered().build(), cap);
        assert_eq!(c.mode(), Mode::Unordered);
        c
    };
    ctx.method(
        "unordered",
        unordered,
        refill_collection,
        dying_cursor_pass,
        |c| c.as_slice(),
        Check::Multiset,
    );
    ctx.method(
        "swap_remove",
        || warm_vec(cap),
        refill,
        dying_swap_remove_pass,
        |v| v,
        Check::Multiset,
    );
    ctx.method(
        "hecs",
        Hecs::new,
        |s, base| {
            s.reset(base);
            s.snapshot = OnceCell::new();
        },
        dying_hecs_pass,
        Hecs::out,
        Check::Multiset,
    );
    ctx.method(
        "hecs_command_buffer",
        Hecs::new,
        |s, base| {
            s.reset(base);
            s.snapshot = OnceCell::new();
        },
        dying_hecs_command_buffer_pass,
        Hecs::out,
        Check::Multiset,
    );
    ctx.method(
        "dense_slotmap",
        || Slots::new(cap),
        |s, base| {
            s.reset(base);
            s.snapshot = OnceCell::new();
        },
        dying_dense_slotmap_pass,
        Slots::out,
        Check::Multiset,
    );
    ctx.alternate(&g.name);
    drop(ctx);
    group.finish();
}

/// The frames from exact-capacity buffers: the first spawn grows the
/// buffer inside the first pass. Each sample starts from a fresh exact
/// copy (untimed).
fn dying_exact_group<const PAD: usize>(c: &mut Criterion, n: usize) {
    let Some(g) = Group::<PAD>::new("dying_exact", n, (1, 10)) else {
        return;
    };
    let mut group = c.benchmark_group(g.name.clone());
    configure(&mut group, n);
    let mut ctx = g.ctx(&mut group);
    let exact_collection = |c: &mut ReadWriteCollection<Entity<PAD>>, base: &[Entity<PAD>]| {
        *c = ReadWriteCollection::from(base.to_vec());
        assert_eq!(c.capacity(), c.len());
    };
    let exact_vec = |v: &mut Vec<Entity<PAD>>, base: &[Entity<PAD>]| {
        *v = base.to_vec();
        assert_eq!(v.capacity(), v.len());
    };
    ctx.method(
        "cursor",
        ReadWriteCollection::new,
        exact_collection,
        dying_cursor_pass,
        |c| c.as_slice(),
        Check::Ordered,
    );
    ctx.method(
        "traverse",
        ReadWriteCollection::new,
        exact_collection,
        dying_traverse_pass,
        |c| c.as_slice(),
        Check::Ordered,
    );
    ctx.method(
        "hand_loop",
        Vec::new,
        exact_vec,
        dying_hand_loop_pass,
        |v| v,
        Check::Ordered,
    );
    ctx.alternate(&g.name);
    drop(ctx);
    group.finish();
}

/// Nothing dies: the cursor and `traverse` against `iter_mut` with the
/// same body.
fn dying_none_group<const PAD: usize>(c: &mut Criterion, n: usize) {
    let Some(g) = Group::<PAD>::new("dying_none", n, (100, 109)) else {
        return;
    };
    let cap = n + n / 10 + 16;
    let mut group = c.benchmark_group(g.name.clone());
    configure(&mut group, n);
    let mut ctx = g.ctx(&mut group);
    cursor_and_traverse(&mut ctx, cap);
    ctx.method(
        "iter_mut",
        || warm_vec(cap),
        refill,
        |v| dying_iter_mut_pass(v),
        |v| v,
        Check::Ordered,
    );
    ctx.alternate(&g.name);
    drop(ctx);
    group.finish();
}

/// Every group of the frame at size `n`, 32-byte entities.
pub(crate) fn groups(c: &mut Criterion, n: usize) {
    dying_group::<1>(c, n);
    dying_exact_group::<1>(c, n);
    dying_none_group::<1>(c, n);
}

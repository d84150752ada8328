//! The frame where the dying spawn: the element that dies is the one that
//! spawns (an explosion, a bullet that splits, a cell that divides), so one
//! visit removes the element and pushes its child, which the same pass
//! updates.
//!
//! 32-byte entities move and age; about a tenth expire each pass and half
//! of those spawn one child. Groups (`RWC_GROUPS` prefixes):
//!
//! * `dying/32B/N`: the lending cursor, `traverse`, unordered mode, and
//!   the auto-remove predicates (closure, unit struct, `fn` pointer; in
//!   the cursor and in `traverse`), against the hand-written loop on a
//!   `Vec` (`hand_loop`: read a copy, update it, write survivors back), the
//!   seed's loop (`seed_loop`: the entity list's update, expiry checked
//!   before the update and after it, which is what the predicate
//!   promises), `retain_mut` with the spawns collected aside, a
//!   `swap_remove` loop, and what game developers pick instead: hecs
//!   (`World` queried, the dead despawned, the children spawned in a
//!   batch; and with its `CommandBuffer`) and slotmap's `DenseSlotMap`
//!   (iterate, remove by key, insert). Those two give stable handles and
//!   lose the order; their results are checked as a multiset.
//! * `dying_exact/32B/N`: the same frame on buffers with no spare capacity
//!   (the first spawn grows the buffer inside the pass).
//! * `dying_none/32B/N`: nothing dies; the cursor and `traverse` against
//!   `iter_mut` running the same body (its test for a death never fires).
//!
//! `RWC_ALTERNATE=rounds RWC_BENCH_SIZES=10k,100k cargo bench --bench
//! entities -- dying` prints the medians and the ratios of the same run.

use std::cell::OnceCell;
use std::mem;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion};
use hecs::{CommandBuffer, World};
use read_write_collection::{AutoRemove, Builder, Mode, ReadWriteCollection};
use slotmap::{DefaultKey, DenseSlotMap};

use crate::imp::{
    configure, expired, group_selected, not_in_this_scenario, refill, refill_collection,
    size_label, warm_collection, warm_vec, Check, Ctx, Entity, Expired, SPAWNS,
};
use crate::support::splitmix;

/// What an update decided.
pub(crate) enum Fate<const PAD: usize> {
    Live,
    Die,
    /// Dies, and leaves this child behind.
    DieSpawn(Entity<PAD>),
}

/// The update: move, age, and die (spawning, if the entity is one that
/// does) when the life runs out.
#[inline(always)]
fn fate<const PAD: usize>(e: &mut Entity<PAD>) -> Fate<PAD> {
    e.pos[0] += e.vel[0];
    e.pos[1] += e.vel[1];
    e.life -= 1;
    if e.life == 0 {
        if e.id & SPAWNS != 0 {
            Fate::DieSpawn(e.child())
        } else {
            Fate::Die
        }
    } else {
        Fate::Live
    }
}

/// `die_pct` of the entities die on this pass, half of those spawning;
/// which ones comes from a hash of the id (scattered, not periodic).
fn population<const PAD: usize>(n: usize, die_pct: u64) -> Vec<Entity<PAD>> {
    (0..n as u32)
        .map(|id| {
            let h = splitmix(u64::from(id) ^ 0xD1E5);
            let dies = h % 1000 < die_pct * 10;
            let spawns = dies && (h >> 32) % 2 == 0;
            Entity::from_hash(id, h, spawns, dies)
        })
        .collect()
}

/// The obviously correct frame: survivors in order, then the children in
/// spawn order, each updated once.
fn model<const PAD: usize>(base: &[Entity<PAD>]) -> (Vec<Entity<PAD>>, usize, usize) {
    let mut out = Vec::new();
    let mut children = Vec::new();
    let mut died = 0;
    for e in base {
        let mut e = *e;
        match fate(&mut e) {
            Fate::Live => out.push(e),
            Fate::Die => died += 1,
            Fate::DieSpawn(c) => {
                died += 1;
                children.push(c);
            }
        }
    }
    let spawned = children.len();
    for mut c in children {
        assert!(
            matches!(fate(&mut c), Fate::Live),
            "children neither die nor spawn"
        );
        out.push(c);
    }
    (out, died, spawned)
}

// ------------------------------------------------------------ this crate

#[inline(never)]
fn dying_cursor_pass<const PAD: usize>(c: &mut ReadWriteCollection<Entity<PAD>>) {
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        match fate(&mut *e) {
            Fate::Live => {}
            Fate::Die => {
                e.remove();
            }
            Fate::DieSpawn(child) => {
                e.push(child);
                e.remove();
            }
        }
    }
}

#[inline(never)]
fn dying_traverse_pass<const PAD: usize>(c: &mut ReadWriteCollection<Entity<PAD>>) {
    c.traverse(|mut e| match fate(&mut *e) {
        Fate::Live => {}
        Fate::Die => {
            e.remove();
        }
        Fate::DieSpawn(child) => {
            e.push(child);
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
        if let Fate::DieSpawn(child) = fate(&mut *e) {
            e.push(child);
        }
    }
}

#[inline(never)]
fn dying_predicate_traverse_pass<const PAD: usize, A: AutoRemove<Entity<PAD>>>(
    c: &mut ReadWriteCollection<Entity<PAD>, A>,
) {
    c.traverse(|mut e| {
        if let Fate::DieSpawn(child) = fate(&mut *e) {
            e.push(child);
        }
    });
}

// ------------------------------------------------------------ by hand

/// The single-array loop for `Copy` data: read a copy at the read index,
/// update it, write a survivor back at the write index.
#[inline(never)]
fn dying_hand_loop_pass<const PAD: usize>(v: &mut Vec<Entity<PAD>>) {
    let mut write = 0;
    let mut read = 0;
    while read < v.len() {
        let mut e = v[read];
        read += 1;
        match fate(&mut e) {
            Fate::Live => {
                v[write] = e;
                write += 1;
            }
            Fate::Die => {}
            Fate::DieSpawn(child) => v.push(child),
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
        if !expired(&e) {
            if let Fate::DieSpawn(child) = fate(&mut e) {
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
    s.v.retain_mut(|e| match fate(e) {
        Fate::Live => true,
        Fate::Die => false,
        Fate::DieSpawn(child) => {
            side.push(child);
            false
        }
    });
    // Children neither die nor spawn (the model checks it).
    for c in side.iter_mut() {
        let _ = fate(c);
    }
    s.v.append(side);
}

/// Index loop with `swap_remove` (unordered): the element moved into the
/// hole is visited next.
#[inline(never)]
fn dying_swap_remove_pass<const PAD: usize>(v: &mut Vec<Entity<PAD>>) {
    let mut i = 0;
    while i < v.len() {
        match fate(&mut v[i]) {
            Fate::Live => i += 1,
            Fate::Die => {
                v.swap_remove(i);
            }
            Fate::DieSpawn(child) => {
                v.swap_remove(i);
                v.push(child);
            }
        }
    }
}

/// The plain update loop running the same body; nothing dies in its
/// scenario, and the test for it never fires.
#[inline(never)]
fn dying_iter_mut_pass<const PAD: usize>(v: &mut [Entity<PAD>]) {
    for e in v.iter_mut() {
        if !matches!(fate(e), Fate::Live) {
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
        match fate(e) {
            Fate::Live => {}
            Fate::Die => s.dead.push(id),
            Fate::DieSpawn(child) => {
                s.dead.push(id);
                s.children.push(child);
            }
        }
    }
    for id in s.dead.drain(..) {
        s.world.despawn(id).expect("alive");
    }
    for c in s.children.iter_mut() {
        let _ = fate(c);
    }
    s.world.spawn_batch(s.children.drain(..).map(|c| (c,)));
}

/// hecs with its `CommandBuffer`: despawns and spawns recorded during the
/// query, applied after it.
#[inline(never)]
fn dying_hecs_command_buffer_pass<const PAD: usize>(s: &mut Hecs<PAD>) {
    for (id, e) in s.world.query_mut::<&mut Entity<PAD>>() {
        match fate(e) {
            Fate::Live => {}
            Fate::Die => s.commands.despawn(id),
            Fate::DieSpawn(mut child) => {
                s.commands.despawn(id);
                let _ = fate(&mut child);
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
        match fate(e) {
            Fate::Live => {}
            Fate::Die => s.dead.push(key),
            Fate::DieSpawn(child) => {
                s.dead.push(key);
                s.children.push(child);
            }
        }
    }
    for key in s.dead.drain(..) {
        s.map.remove(key);
    }
    for mut c in s.children.drain(..) {
        let _ = fate(&mut c);
        s.map.insert(c);
    }
}

// ------------------------------------------------------------ groups

struct Group<const PAD: usize> {
    name: String,
    base: Vec<Entity<PAD>>,
    expect: Vec<Entity<PAD>>,
    expect_sorted: Vec<Entity<PAD>>,
}

impl<const PAD: usize> Group<PAD> {
    /// `None` when `RWC_GROUPS` leaves the group out.
    fn new(prefix: &str, n: usize, die_pct: u64) -> Option<Self> {
        let bytes = mem::size_of::<Entity<PAD>>();
        let name = format!("{prefix}/{bytes}B/{}", size_label(n));
        if !group_selected(&name) {
            return None;
        }
        let base = population::<PAD>(n, die_pct);
        let (expect, died, spawned) = model(&base);
        let mut expect_sorted = expect.clone();
        expect_sorted.sort_by_key(|e| e.id);
        eprintln!(
            "# {name}: {n} entities -> {} ({died} die, {spawned} of them spawn)",
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
    let Some(g) = Group::<PAD>::new("dying", n, 10) else {
        return;
    };
    let cap = n + n / 10 + 16;
    let mut group = c.benchmark_group(g.name.clone());
    configure(&mut group, n);
    let mut ctx = g.ctx(&mut group);
    cursor_and_traverse(&mut ctx, cap);
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

/// The frame on exact-capacity buffers: the first spawn grows the buffer
/// inside the pass. Each pass starts from a fresh exact copy (untimed).
fn dying_exact_group<const PAD: usize>(c: &mut Criterion, n: usize) {
    let Some(g) = Group::<PAD>::new("dying_exact", n, 10) else {
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
    let Some(g) = Group::<PAD>::new("dying_none", n, 0) else {
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

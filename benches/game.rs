//! Game-loop features against their hand-written equivalents, same work,
//! same input (checked before timing):
//!
//! | group | id | pass |
//! | --- | --- | --- |
//! | `sink` | `explicit_side_vec` | `traverse`, the body removes expired entities with `remove` and pushes their loot into a side `Vec` |
//! | `sink` | `auto_remove_sink` | `traverse_with_sink` with a `remove_when!` predicate; the sink pushes the loot into the same `Vec` |
//! | `sink` | `explicit_sink` | `traverse_with_sink`, the body removes with `SinkEntry::remove_to_sink` |
//! | `sink` | `auto_remove_policy` | control: the same predicate in a hand-written `AutoRemove` policy that keeps the loot itself (no sink) |
//! | `push_to` | `side_vec` | `Layers::traverse` over layer 1; spawns for layer 0 collected in a side `Vec` and appended after the pass |
//! | `push_to` | `push_to` | the same, spawns pushed into layer 0 with `LayerEntry::push_to` during the pass |
//! | `layers_cursor` | `layers_cursor` | a `while let` pass over `Layers` (the entities in layer 1 of 2): update, remove the expired |
//! | `layers_cursor` | `plain_cursor` | the same pass over a `ReadWriteCollection` |
//! | `layers_cursor` | `layers_touch`, `plain_touch` | the smallest `while let` pass (one field incremented) over each |
//!
//! Layer 0 is earlier than the walked layer, so in both `push_to` methods
//! the spawns are not visited by the pass: the same work and the same
//! result.
//!
//! N = 10 000 entities of 32 bytes; 10% expire (sink) or spawn (push_to).
//! Each timed iteration starts from a copy of the same population, made
//! untimed (`iter_batched_ref`), and reuses warm output buffers.
//!
//! `cargo bench --bench game -- --warm-up-time 0.5 --measurement-time 2`

#[cfg(not(any(loom, miri)))]
fn main() {
    imp::main();
}

#[cfg(any(loom, miri))]
fn main() {}

#[cfg(not(any(loom, miri)))]
mod imp {
    use std::hint::black_box;

    use criterion::{BatchSize, Criterion};
    use read_write_collection::{remove_when, Builder, Layers, ReadWriteCollection};

    const N: u32 = 10_000;

    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Ent {
        id: u32,
        life: u32,
        pos: [f32; 2],
        vel: [f32; 2],
        gold: u32,
        _pad: u32,
    }

    remove_when!(struct Expired for Ent: |e| e.life == 0);

    fn ent(id: u32) -> Ent {
        Ent {
            id,
            // Every tenth entity expires in this pass.
            life: if id % 10 == 3 { 1 } else { 100 },
            pos: [id as f32, 0.0],
            vel: [1.0, 0.5],
            gold: id % 7,
            _pad: 0,
        }
    }

    fn update(e: &mut Ent) {
        e.life -= 1;
        e.pos[0] += e.vel[0];
        e.pos[1] += e.vel[1];
    }

    fn plain() -> ReadWriteCollection<Ent> {
        (0..N).map(ent).collect()
    }

    fn policed() -> ReadWriteCollection<Ent, Expired> {
        let mut c = Builder::new().capacity(N as usize).policy(Expired).build();
        c.extend((0..N).map(ent));
        c
    }

    #[inline(never)]
    fn explicit_side_vec(c: &mut ReadWriteCollection<Ent>, loot: &mut Vec<u32>) {
        c.traverse(|mut e| {
            update(&mut e);
            if e.life == 0 {
                loot.push(e.remove().gold);
            }
        });
    }

    #[inline(never)]
    fn auto_remove_sink(c: &mut ReadWriteCollection<Ent, Expired>, loot: &mut Vec<u32>) {
        c.traverse_with_sink(|dead| loot.push(dead.gold), |mut e| update(&mut e));
    }

    #[inline(never)]
    fn explicit_sink(c: &mut ReadWriteCollection<Ent>, loot: &mut Vec<u32>) {
        c.traverse_with_sink(
            |dead| loot.push(dead.gold),
            |mut e| {
                update(&mut e);
                if e.life == 0 {
                    e.remove_to_sink();
                }
            },
        );
    }

    fn layers() -> Layers<Ent> {
        let mut l = Layers::from_collections([
            Builder::new().capacity(N as usize).build(),
            Builder::new().capacity(N as usize).build(),
        ]);
        l.layer_mut(1).extend((0..N).map(ent));
        l
    }

    /// The control: a policy that keeps what it removes.
    #[derive(Default)]
    struct LootPolicy {
        loot: Vec<u32>,
    }

    impl read_write_collection::AutoRemove<Ent> for LootPolicy {
        #[inline]
        fn should_remove(&mut self, e: &Ent) -> bool {
            e.life == 0
        }

        #[inline]
        fn removed(&mut self, e: Ent) {
            self.loot.push(e.gold);
        }
    }

    #[inline(never)]
    fn auto_remove_policy(c: &mut ReadWriteCollection<Ent, LootPolicy>) {
        c.traverse(|mut e| update(&mut e));
    }

    fn with_loot_policy() -> ReadWriteCollection<Ent, LootPolicy> {
        let mut c = Builder::new()
            .capacity(N as usize)
            .policy(LootPolicy {
                loot: Vec::with_capacity(N as usize),
            })
            .build();
        c.extend((0..N).map(ent));
        c
    }

    fn spawn(e: &Ent) -> Option<Ent> {
        (e.id % 10 == 3).then(|| Ent { id: e.id + N, ..*e })
    }

    #[inline(never)]
    fn side_vec(l: &mut Layers<Ent>, side: &mut Vec<Ent>) {
        l.traverse(|layer, mut e| {
            update(&mut e);
            if layer == 1 {
                if let Some(s) = spawn(&e) {
                    side.push(s);
                }
            }
        });
        l.layer_mut(0).extend(side.drain(..));
    }

    #[inline(never)]
    fn push_to(l: &mut Layers<Ent>) {
        l.traverse(|layer, mut e| {
            update(&mut e);
            if layer == 1 {
                if let Some(s) = spawn(&e) {
                    e.push_to(0, s);
                }
            }
        });
    }

    /// A `while let` pass over a layered collection (all elements in
    /// layer 1 of 2): update, remove the expired.
    #[inline(never)]
    fn layers_cursor(l: &mut Layers<Ent>) {
        let mut cursor = l.cursor();
        while let Some(mut e) = cursor.next() {
            update(&mut e);
            if e.life == 0 {
                e.remove();
            }
        }
    }

    /// The same pass over a plain collection: the baseline for
    /// `layers_cursor`.
    #[inline(never)]
    fn plain_cursor(c: &mut ReadWriteCollection<Ent>) {
        let mut cursor = c.cursor();
        while let Some(mut e) = cursor.next() {
            update(&mut e);
            if e.life == 0 {
                e.remove();
            }
        }
    }

    /// The smallest `while let` pass over layers: one field incremented.
    #[inline(never)]
    fn layers_touch(l: &mut Layers<Ent>) {
        let mut cursor = l.cursor();
        while let Some(mut e) = cursor.next() {
            e.gold += 1;
        }
    }

    /// `layers_touch` over a plain collection.
    #[inline(never)]
    fn plain_touch(c: &mut ReadWriteCollection<Ent>) {
        let mut cursor = c.cursor();
        while let Some(mut e) = cursor.next() {
            e.gold += 1;
        }
    }

    pub(crate) fn main() {
        // Same results, checked before timing.
        {
            let (mut a, mut b, mut c) = (plain(), policed(), plain());
            let (mut la, mut lb, mut lc) = (Vec::new(), Vec::new(), Vec::new());
            explicit_side_vec(&mut a, &mut la);
            auto_remove_sink(&mut b, &mut lb);
            explicit_sink(&mut c, &mut lc);
            assert_eq!(la.len(), (N / 10) as usize);
            assert_eq!(la, lb);
            assert_eq!(la, lc);
            assert_eq!(a.as_slice(), b.as_slice());
            assert_eq!(a, c);
            let (mut x, mut y) = (layers(), layers());
            let mut side = Vec::new();
            side_vec(&mut x, &mut side);
            push_to(&mut y);
            assert_eq!(x.layer(0).len(), (N / 10) as usize);
            assert_eq!(x.layer(0).as_slice(), y.layer(0).as_slice());
            assert_eq!(x.layer(1).as_slice(), y.layer(1).as_slice());
            let (mut l, mut p) = (layers(), plain());
            layers_cursor(&mut l);
            plain_cursor(&mut p);
            assert_eq!(l.layer(1).as_slice(), p.as_slice());
            layers_touch(&mut l);
            plain_touch(&mut p);
            assert_eq!(l.layer(1).as_slice(), p.as_slice());
            let mut d = with_loot_policy();
            auto_remove_policy(&mut d);
            assert_eq!(d.policy().loot, la);
            assert_eq!(d.as_slice(), a.as_slice());
        }

        // For instruction counts: `RWC_GAME_ONCE=1 valgrind --tool=callgrind
        // --toggle-collect='*game*imp*NAME*' target/release/deps/game-*`
        // runs every pass 10 times on fresh inputs and nothing else.
        if std::env::var_os("RWC_GAME_ONCE").is_some() {
            let mut loot = Vec::with_capacity(N as usize);
            let mut side = Vec::with_capacity(N as usize);
            for _ in 0..10 {
                loot.clear();
                explicit_side_vec(&mut plain(), &mut loot);
                loot.clear();
                auto_remove_sink(&mut policed(), &mut loot);
                loot.clear();
                explicit_sink(&mut plain(), &mut loot);
                auto_remove_policy(&mut with_loot_policy());
                side_vec(&mut layers(), &mut side);
                push_to(&mut layers());
                layers_cursor(&mut layers());
                plain_cursor(&mut plain());
                layers_touch(&mut layers());
                plain_touch(&mut plain());
            }
            return;
        }

        let mut crit = Criterion::default().configure_from_args();
        let mut g = crit.benchmark_group("sink");
        let mut loot = Vec::with_capacity(N as usize);
        g.bench_function("explicit_side_vec", |b| {
            b.iter_batched_ref(
                plain,
                |c| {
                    loot.clear();
                    explicit_side_vec(c, &mut loot);
                    black_box(loot.len())
                },
                BatchSize::LargeInput,
            )
        });
        g.bench_function("auto_remove_sink", |b| {
            b.iter_batched_ref(
                policed,
                |c| {
                    loot.clear();
                    auto_remove_sink(c, &mut loot);
                    black_box(loot.len())
                },
                BatchSize::LargeInput,
            )
        });
        g.bench_function("explicit_sink", |b| {
            b.iter_batched_ref(
                plain,
                |c| {
                    loot.clear();
                    explicit_sink(c, &mut loot);
                    black_box(loot.len())
                },
                BatchSize::LargeInput,
            )
        });
        g.bench_function("auto_remove_policy", |b| {
            b.iter_batched_ref(
                with_loot_policy,
                |c| {
                    auto_remove_policy(c);
                    black_box(c.policy().loot.len())
                },
                BatchSize::LargeInput,
            )
        });
        g.finish();

        let mut g = crit.benchmark_group("push_to");
        let mut side = Vec::with_capacity(N as usize);
        g.bench_function("side_vec", |b| {
            b.iter_batched_ref(
                layers,
                |l| {
                    side_vec(l, &mut side);
                    black_box(l.layer(0).len())
                },
                BatchSize::LargeInput,
            )
        });
        g.bench_function("push_to", |b| {
            b.iter_batched_ref(
                layers,
                |l| {
                    push_to(l);
                    black_box(l.layer(0).len())
                },
                BatchSize::LargeInput,
            )
        });
        g.finish();

        let mut g = crit.benchmark_group("layers_cursor");
        g.bench_function("layers_cursor", |b| {
            b.iter_batched_ref(layers, layers_cursor, BatchSize::LargeInput)
        });
        g.bench_function("plain_cursor", |b| {
            b.iter_batched_ref(plain, plain_cursor, BatchSize::LargeInput)
        });
        g.bench_function("layers_touch", |b| {
            b.iter_batched_ref(layers, layers_touch, BatchSize::LargeInput)
        });
        g.bench_function("plain_touch", |b| {
            b.iter_batched_ref(plain, plain_touch, BatchSize::LargeInput)
        });
        g.finish();
        crit.final_summary();
    }
}

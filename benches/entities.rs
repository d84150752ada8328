//! The steady-state entity pass, done every way there is.
//!
//! One criterion group per (scenario, entity size, N); inside it every
//! method does the same work on the same input and must end with the same
//! population (checked once per group, before anything is timed):
//!
//! | id | method |
//! | --- | --- |
//! | `cursor` | this crate's ordered cursor (`while let Some(e) = cursor.next()`) |
//! | `traverse` | the closure form, `ReadWriteCollection::traverse` |
//! | `unordered` | the cursor in `Mode::Unordered` (swap-remove) |
//! | `retain_mut` | `Vec::retain_mut`, spawns in a side `Vec`, second pass over them, appended |
//! | `two_vecs` | copy survivors into a second `Vec`, swap, clear |
//! | `swap_remove` | index loop with `Vec::swap_remove` (unordered) |
//! | `hand_loop` | hand-written single-array loop with a write index (`Copy` data) |
//! | `vec_grow_scan` | `vec_mut_scan::VecGrowScan`, spawns as for `retain_mut` |
//! | `vec_remove` | index loop with `Vec::remove` (N = 1k only: quadratic) |
//! | `copy_floor` | `copy_from_slice` of the N entities into another buffer |
//! | `iter_mut` | `for e in v.iter_mut()` update, verdict ignored (nothing-removed scenario only) |
//! | `iter_mut_checked` | the same, but testing the verdict as the other methods do |
//! | `cursor_twin` | `cursor` again, on its own buffers: the gap between the two is noise |
//!
//! Scenarios: `steady` (10% expire, 5% spawn a child that the same pass
//! updates where the method allows; `retain_mut` and `vec_grow_scan` need a
//! second pass over the side list), `none` (nothing expires or spawns),
//! `half` (50% expire, no spawns). Expiry is deterministic: a per-entity
//! countdown (`life`) whose start value comes from a hash of the id.
//!
//! Steady state: every method keeps its buffers (and their capacity, with
//! 10% spare, pre-faulted) across iterations, and before each timed
//! iteration the same initial population is copied back in, untimed
//! (`iter_custom`). So every timed pass starts from identical contents, in
//! warm buffers, with the data as fresh in cache as the copy left it.
//!
//! The `outlined` groups run the steady scenario with an update method that
//! is not inlined (`#[inline(never)]`), for the cursor, `traverse` and the
//! hand loop: the element in hand must then live in memory for the call.
//!
//! With `RWC_ALTERNATE=rounds` every round times `RWC_PASSES` passes per
//! method (default 5 up to 10k elements, 10 above) and reports the mean
//! pass; the table shows the median over rounds. Each round starts with a
//! different method (none always follows the same one), and each method
//! rotates through `RWC_PLACEMENTS` (default 4) copies of its state in
//! different allocations: the same code on the same input measured up to
//! 10% apart depending on where its buffers sat, the same way in every
//! process.
//!
//! Code placement matters as much: the same machine code of a pass, moved
//! by 32 bytes because something else in the binary changed, measured
//! 12-21% slower. To compare two versions of the engine, build both with
//! aligned loops and alternate the processes: `scripts/ab-entities.sh`.
//!
//! The `auto_remove` groups compare `ReadWriteCollection::with_auto_remove`
//! with the same removal written in the loop body (ordered and unordered),
//! and the default policy (`NoAutoRemove`) with a trivially false predicate
//! and the hand loop.
//!
//! Run everything with `cargo bench --bench entities` (about 20 minutes on
//! 2 cores); `python3 scripts/bench_table.py` turns the results into the
//! tables of `benches/README.md`. Quick smoke for CI (about a minute):
//! `RWC_BENCH_SIZES=1k,100k cargo bench --bench entities -- --warm-up-time 0.1 --measurement-time 0.3 --nresamples 1000`.
//! `RWC_BENCH_SIZES` (comma-separated, `1k`, `100k`, `1M` or plain numbers)
//! picks the sizes; without it, `cargo bench` runs 1k, 100k and 1M and
//! `cargo test` (no `--bench` flag) only 1k, so the checks run there but
//! nothing large is built in a debug binary.

#[cfg(not(any(loom, miri)))]
fn main() {
    imp::main();
}

#[cfg(any(loom, miri))]
fn main() {}

#[cfg(not(any(loom, miri)))]
mod dying;
#[cfg(not(any(loom, miri)))]
mod keyed_frames;
#[cfg(not(any(loom, miri)))]
mod support;

#[cfg(not(any(loom, miri)))]
mod imp {
    use std::hint::black_box;
    use std::mem;
    use std::time::{Duration, Instant};

    use criterion::measurement::WallTime;
    use criterion::{BenchmarkGroup, Criterion, SamplingMode, Throughput};
    use read_write_collection::{AutoRemove, Builder, Mode, ReadWriteCollection};
    use vec_mut_scan::VecGrowScan;

    use crate::support::{alternate_rounds, parse_count, positive_var, splitmix};

    /// Set on parents that spawn a child when updated.
    pub(crate) const SPAWNS: u32 = 1 << 30;
    /// Set on children (so ids stay unique and children never spawn).
    pub(crate) const CHILD: u32 = 1 << 31;
    /// A child's starting life: it survives its first update.
    pub(crate) const CHILD_LIFE: u32 = 100;

    /// A game entity of `24 + 8 * PAD` bytes: `Entity<1>` is 32 B,
    /// `Entity<13>` is 128 B. The update touches the first 24 bytes.
    #[derive(Clone, Copy, Debug, PartialEq)]
    #[repr(C)]
    pub(crate) struct Entity<const PAD: usize> {
        pub(crate) pos: [f32; 2],
        pub(crate) vel: [f32; 2],
        pub(crate) id: u32,
        pub(crate) life: u32,
        pub(crate) pad: [u64; PAD],
    }

    const _: () = assert!(mem::size_of::<Entity<1>>() == 32);
    const _: () = assert!(mem::size_of::<Entity<13>>() == 128);

    impl<const PAD: usize> Entity<PAD> {
        pub(crate) const ZERO: Self = Entity {
            pos: [0.0; 2],
            vel: [0.0; 2],
            id: 0,
            life: 0,
            pad: [0; PAD],
        };

        /// Entity `id` of a population, drawn from its hash `h`: flagged
        /// to spawn when updated if `spawns`, at the end of its life
        /// (expires in this pass's update) if `last`.
        pub(crate) fn from_hash(id: u32, h: u64, spawns: bool, last: bool) -> Self {
            let mut pad = [0; PAD];
            pad[0] = h;
            Entity {
                pos: [id as f32, (h % 1000) as f32],
                vel: [((h >> 8) % 7) as f32 - 3.0, ((h >> 16) % 5) as f32 - 2.0],
                id: if spawns { id | SPAWNS } else { id },
                life: if last {
                    1
                } else {
                    2 + ((h >> 40) % 1000) as u32
                },
                pad,
            }
        }

        pub(crate) fn child(&self) -> Self {
            Entity {
                pos: self.pos,
                vel: [-self.vel[0], -self.vel[1]],
                id: (self.id & !SPAWNS) | CHILD,
                life: CHILD_LIFE,
                pad: self.pad,
            }
        }
    }

    pub(crate) enum Step<const PAD: usize> {
        Keep,
        Expire,
        Spawn(Entity<PAD>),
    }

    /// The per-entity update every method runs: move, age, and say whether
    /// the entity expired or spawned a child.
    #[inline(always)]
    fn step<const PAD: usize>(e: &mut Entity<PAD>) -> Step<PAD> {
        e.pos[0] += e.vel[0];
        e.pos[1] += e.vel[1];
        e.life -= 1;
        if e.life == 0 {
            Step::Expire
        } else if e.id & SPAWNS != 0 {
            Step::Spawn(e.child())
        } else {
            Step::Keep
        }
    }

    /// `step` as a call the optimiser cannot see into: an update method
    /// that is not inlined (defined in another crate, or too big), where
    /// the element in hand must be in memory for the call.
    #[inline(never)]
    fn step_outlined<const PAD: usize>(e: &mut Entity<PAD>) -> Step<PAD> {
        step(e)
    }

    /// The auto-remove predicate equivalent to `Step::Expire`.
    pub(crate) fn expired<const PAD: usize>(e: &Entity<PAD>) -> bool {
        e.life == 0
    }

    /// The same predicate as a nameable zero-sized policy type.
    pub(crate) struct Expired;

    impl<const PAD: usize> AutoRemove<Entity<PAD>> for Expired {
        #[inline]
        fn should_remove(&mut self, e: &Entity<PAD>) -> bool {
            e.life == 0
        }
    }

    #[derive(Clone, Copy, Debug)]
    struct Scenario {
        name: &'static str,
        expire_pct: u64,
        spawn_pct: u64,
    }

    const SCENARIOS: [Scenario; 3] = [
        Scenario {
            name: "steady",
            expire_pct: 10,
            spawn_pct: 5,
        },
        Scenario {
            name: "none",
            expire_pct: 0,
            spawn_pct: 0,
        },
        Scenario {
            name: "half",
            expire_pct: 50,
            spawn_pct: 0,
        },
    ];

    /// The initial population: which entities expire or spawn on this pass
    /// is decided by a hash of the id (scattered, not periodic).
    fn population<const PAD: usize>(n: usize, s: Scenario) -> Vec<Entity<PAD>> {
        (0..n as u32)
            .map(|id| {
                let h = splitmix(u64::from(id));
                let expire = h % 100 < s.expire_pct;
                let spawn = !expire && (h >> 32) % 100 < s.spawn_pct;
                Entity::from_hash(id, h, spawn, expire)
            })
            .collect()
    }

    /// The obviously correct result: survivors in order, then the
    /// children in spawn order, each updated once.
    fn model<const PAD: usize>(base: &[Entity<PAD>]) -> (Vec<Entity<PAD>>, usize, usize) {
        let mut out = Vec::new();
        let mut children = Vec::new();
        let mut expired = 0;
        for e in base {
            let mut e = *e;
            match step(&mut e) {
                Step::Keep => out.push(e),
                Step::Expire => expired += 1,
                Step::Spawn(c) => {
                    out.push(e);
                    children.push(c);
                }
            }
        }
        let spawned = children.len();
        for mut c in children {
            assert!(
                matches!(step(&mut c), Step::Keep),
                "children neither expire nor spawn"
            );
            out.push(c);
        }
        (out, expired, spawned)
    }

    // ---------------------------------------------------------------- methods

    /// `step`, inlined or not (`OUTLINED`: `step_outlined`).
    #[inline(always)]
    fn update<const OUTLINED: bool, const PAD: usize>(e: &mut Entity<PAD>) -> Step<PAD> {
        if OUTLINED {
            step_outlined(e)
        } else {
            step(e)
        }
    }

    #[inline(never)]
    fn cursor_pass<const PAD: usize, A: AutoRemove<Entity<PAD>>>(
        c: &mut ReadWriteCollection<Entity<PAD>, A>,
    ) {
        cursor_pass_with::<false, PAD, A>(c);
    }

    #[inline(never)]
    fn cursor_outlined_pass<const PAD: usize>(c: &mut ReadWriteCollection<Entity<PAD>>) {
        cursor_pass_with::<true, PAD, _>(c);
    }

    #[inline(always)]
    fn cursor_pass_with<const OUTLINED: bool, const PAD: usize, A: AutoRemove<Entity<PAD>>>(
        c: &mut ReadWriteCollection<Entity<PAD>, A>,
    ) {
        let mut cursor = c.cursor();
        while let Some(mut e) = cursor.next() {
            match update::<OUTLINED, PAD>(&mut *e) {
                Step::Keep => {}
                Step::Expire => {
                    e.remove();
                }
                Step::Spawn(child) => e.push(child),
            }
        }
    }

    #[inline(never)]
    fn traverse_pass<const PAD: usize>(c: &mut ReadWriteCollection<Entity<PAD>>) {
        traverse_pass_with::<false, PAD>(c);
    }

    #[inline(never)]
    fn traverse_outlined_pass<const PAD: usize>(c: &mut ReadWriteCollection<Entity<PAD>>) {
        traverse_pass_with::<true, PAD>(c);
    }

    #[inline(always)]
    fn traverse_pass_with<const OUTLINED: bool, const PAD: usize>(
        c: &mut ReadWriteCollection<Entity<PAD>>,
    ) {
        c.traverse(|mut e| match update::<OUTLINED, PAD>(&mut *e) {
            Step::Keep => {}
            Step::Expire => {
                e.remove();
            }
            Step::Spawn(child) => e.push(child),
        });
    }

    /// The loop body for a collection whose predicate does the removing.
    #[inline(never)]
    fn auto_remove_pass<const PAD: usize, A: AutoRemove<Entity<PAD>>>(
        c: &mut ReadWriteCollection<Entity<PAD>, A>,
    ) {
        let mut cursor = c.cursor();
        while let Some(mut e) = cursor.next() {
            if let Step::Spawn(child) = step(&mut *e) {
                e.push(child);
            }
        }
    }

    /// `auto_remove_pass` in the closure form.
    #[inline(never)]
    fn auto_remove_traverse_pass<const PAD: usize, A: AutoRemove<Entity<PAD>>>(
        c: &mut ReadWriteCollection<Entity<PAD>, A>,
    ) {
        c.traverse(|mut e| {
            if let Step::Spawn(child) = step(&mut *e) {
                e.push(child);
            }
        });
    }

    /// The second pass that methods without in-pass spawning need: update
    /// the spawned entities (and theirs, if any), then append them.
    fn second_pass<const PAD: usize>(
        v: &mut Vec<Entity<PAD>>,
        side: &mut Vec<Entity<PAD>>,
        side2: &mut Vec<Entity<PAD>>,
    ) {
        while !side.is_empty() {
            side.retain_mut(|e| match step(e) {
                Step::Keep => true,
                Step::Expire => false,
                Step::Spawn(child) => {
                    side2.push(child);
                    true
                }
            });
            v.append(side);
            mem::swap(side, side2);
        }
    }

    #[inline(never)]
    fn retain_mut_pass<const PAD: usize>(s: &mut SideState<PAD>) {
        let side = &mut s.side;
        s.v.retain_mut(|e| match step(e) {
            Step::Keep => true,
            Step::Expire => false,
            Step::Spawn(child) => {
                side.push(child);
                true
            }
        });
        second_pass(&mut s.v, &mut s.side, &mut s.side2);
    }

    #[inline(never)]
    fn vec_grow_scan_pass<const PAD: usize>(s: &mut SideState<PAD>) {
        let mut scan = VecGrowScan::new(&mut s.v);
        while let Some(mut e) = scan.next() {
            match step(&mut *e) {
                Step::Keep => {}
                Step::Expire => {
                    e.remove();
                }
                Step::Spawn(child) => s.side.push(child),
            }
        }
        drop(scan);
        second_pass(&mut s.v, &mut s.side, &mut s.side2);
    }

    #[inline(never)]
    fn two_vecs_pass<const PAD: usize>(s: &mut TwoVecs<PAD>) {
        let (a, b) = (&mut s.a, &mut s.b);
        let mut i = 0;
        while i < a.len() {
            let mut e = a[i];
            i += 1;
            match step(&mut e) {
                Step::Keep => b.push(e),
                Step::Expire => {}
                Step::Spawn(child) => {
                    b.push(e);
                    a.push(child); // visited later in this pass
                }
            }
        }
        mem::swap(a, b);
        b.clear();
    }

    #[inline(never)]
    fn swap_remove_pass<const PAD: usize>(v: &mut Vec<Entity<PAD>>) {
        let mut i = 0;
        while i < v.len() {
            match step(&mut v[i]) {
                Step::Keep => i += 1,
                Step::Expire => {
                    v.swap_remove(i); // the last element is visited next
                }
                Step::Spawn(child) => {
                    v.push(child);
                    i += 1;
                }
            }
        }
    }

    /// The "simple algorithm" for `Copy` data: read the entity at the read
    /// index, update the copy, write survivors back at the write index.
    /// (Updating in place at the read index and then copying down is
    /// slower: the 32-byte copy reads bytes just written by the update,
    /// which defeats store-to-load forwarding.)
    #[inline(never)]
    fn hand_loop_pass<const PAD: usize>(v: &mut Vec<Entity<PAD>>) {
        hand_loop_pass_with::<false, PAD>(v);
    }

    #[inline(never)]
    fn hand_loop_outlined_pass<const PAD: usize>(v: &mut Vec<Entity<PAD>>) {
        hand_loop_pass_with::<true, PAD>(v);
    }

    #[inline(always)]
    fn hand_loop_pass_with<const OUTLINED: bool, const PAD: usize>(v: &mut Vec<Entity<PAD>>) {
        let mut write = 0;
        let mut read = 0;
        while read < v.len() {
            let mut e = v[read];
            read += 1;
            match update::<OUTLINED, PAD>(&mut e) {
                Step::Expire => {}
                Step::Keep => {
                    v[write] = e;
                    write += 1;
                }
                Step::Spawn(child) => {
                    v[write] = e;
                    write += 1;
                    v.push(child);
                }
            }
        }
        v.truncate(write);
    }

    #[inline(never)]
    fn vec_remove_pass<const PAD: usize>(v: &mut Vec<Entity<PAD>>) {
        let mut i = 0;
        while i < v.len() {
            match step(&mut v[i]) {
                Step::Keep => i += 1,
                Step::Expire => {
                    v.remove(i);
                }
                Step::Spawn(child) => {
                    v.push(child);
                    i += 1;
                }
            }
        }
    }

    /// The plain update loop: nothing can be removed, the verdict is
    /// ignored.
    #[inline(never)]
    fn iter_mut_pass<const PAD: usize>(v: &mut [Entity<PAD>]) {
        for e in v.iter_mut() {
            let _ = step(e);
        }
    }

    /// The plain update loop that still looks at the verdict (and would
    /// panic on a removal): the same decisions as the cursor makes.
    #[inline(never)]
    fn iter_mut_checked_pass<const PAD: usize>(v: &mut [Entity<PAD>]) {
        for e in v.iter_mut() {
            if !matches!(step(e), Step::Keep) {
                not_in_this_scenario();
            }
        }
    }

    #[cold]
    #[inline(never)]
    pub(crate) fn not_in_this_scenario() -> ! {
        panic!("iter_mut cannot remove or spawn")
    }

    // ------------------------------------------------------------ state

    pub(crate) struct SideState<const PAD: usize> {
        v: Vec<Entity<PAD>>,
        side: Vec<Entity<PAD>>,
        side2: Vec<Entity<PAD>>,
    }

    pub(crate) struct TwoVecs<const PAD: usize> {
        a: Vec<Entity<PAD>>,
        b: Vec<Entity<PAD>>,
    }

    pub(crate) struct CopyFloor<const PAD: usize> {
        src: Vec<Entity<PAD>>,
        dst: Vec<Entity<PAD>>,
    }

    /// A `Vec` with `cap` slots, all written once (so no page is faulted in
    /// during a timed pass), then emptied.
    pub(crate) fn warm_vec<const PAD: usize>(cap: usize) -> Vec<Entity<PAD>> {
        let mut v = vec![Entity::ZERO; cap];
        v.clear();
        v
    }

    pub(crate) fn warm_collection<const PAD: usize, A: AutoRemove<Entity<PAD>>>(
        mut c: ReadWriteCollection<Entity<PAD>, A>,
        cap: usize,
    ) -> ReadWriteCollection<Entity<PAD>, A> {
        c.extend(std::iter::repeat(Entity::ZERO).take(cap));
        c.clear();
        c
    }

    pub(crate) fn refill<const PAD: usize>(v: &mut Vec<Entity<PAD>>, base: &[Entity<PAD>]) {
        v.clear();
        v.extend_from_slice(base);
    }

    pub(crate) fn refill_collection<const PAD: usize, A>(
        c: &mut ReadWriteCollection<Entity<PAD>, A>,
        base: &[Entity<PAD>],
    ) {
        c.clear();
        c.extend(base);
    }

    #[derive(Clone, Copy, PartialEq, Eq)]
    pub(crate) enum Check {
        /// Same elements, same order as the model.
        Ordered,
        /// Same elements as the model, any order.
        Multiset,
        /// Not a method (the copy floor): only the population is checked.
        Floor,
    }

    /// Whether a timed pass over `n` entities starts from memory: the
    /// caches are evicted (untimed) after the reset. From 1M entities of
    /// 32 B the working set is as large as a server L3 (32 MB here), and
    /// without eviction what stays cached after the reset depends on where
    /// each method's buffers happen to sit (the same method on the same
    /// input measured 2.7x apart in two groups). `RWC_WARM=1` turns it off.
    fn evicting(bytes: usize) -> bool {
        bytes >= 16 << 20 && std::env::var_os("RWC_WARM").is_none()
    }

    /// Touches 96 MB of unrelated memory, one write per cache line, so
    /// that nothing of a method's buffers is left in any cache level.
    fn evict_caches() {
        use std::sync::Mutex;
        static SCRATCH: Mutex<Vec<u8>> = Mutex::new(Vec::new());
        let mut scratch = SCRATCH.lock().unwrap();
        if scratch.is_empty() {
            scratch.resize(96 << 20, 0);
        }
        for line in scratch.chunks_mut(64) {
            line[0] = line[0].wrapping_add(1);
        }
        black_box(&mut scratch[..]);
    }

    /// One timed pass of a method (reset untimed), for alternating rounds.
    pub(crate) type TimedPass<'g> = Box<dyn FnMut() -> Duration + 'g>;

    pub(crate) struct Ctx<'g, 'c, const PAD: usize> {
        pub(crate) group: &'g mut BenchmarkGroup<'c, WallTime>,
        pub(crate) base: &'g [Entity<PAD>],
        pub(crate) expect: &'g [Entity<PAD>],
        pub(crate) expect_sorted: &'g [Entity<PAD>],
        /// Methods waiting for `alternate` (with `RWC_ALTERNATE` set).
        pub(crate) queued: Vec<(String, TimedPass<'g>)>,
        /// How a sample meets its input: `false` replays `base` before
        /// every pass (the instruction-count scenarios of this file);
        /// `true` runs [`passes_per_round`] consecutive passes from one
        /// reset ([`timed_frames`]; the frames of `benches/dying.rs`, whose
        /// `expect` is then the population after those passes).
        pub(crate) consecutive: bool,
    }

    /// Runs `samples` samples, each an untimed `reset` to `base` (and a
    /// cache eviction when `evict`) followed by `passes` consecutive
    /// passes timed together, and returns the time per pass: with
    /// `passes > 1` every pass after the first meets the population the
    /// previous pass left, as a game's frames do, so no pass replays an
    /// input the branch predictor has already seen. (With `passes == 1`
    /// every pass starts from `base`, and the result is the samples' total
    /// time.)
    fn timed_frames<S, E>(
        samples: u64,
        passes: u32,
        state: &mut S,
        base: &[E],
        reset: &impl Fn(&mut S, &[E]),
        run: &impl Fn(&mut S),
        evict: bool,
    ) -> Duration {
        let mut total = Duration::ZERO;
        for _ in 0..samples {
            reset(state, base);
            if evict {
                evict_caches();
            }
            let start = Instant::now();
            for _ in 0..passes {
                run(black_box(&mut *state));
            }
            total += start.elapsed();
        }
        total / passes
    }

    /// Instances of each method's state that alternating rounds rotate
    /// through: `RWC_PLACEMENTS`, default 4.
    fn placements() -> usize {
        positive_var("RWC_PLACEMENTS").unwrap_or(4)
    }

    /// Timed passes per alternating round: `RWC_PASSES`, else 5 up to 10k
    /// elements and 10 above (the shapes the engine's targets are stated
    /// in: 10k × 5 and 100k × 10).
    pub(crate) fn passes_per_round(n: usize) -> u32 {
        match positive_var("RWC_PASSES") {
            Some(p) => u32::try_from(p).expect("RWC_PASSES: too many passes"),
            None if n <= 10_000 => 5,
            None => 10,
        }
    }

    /// The methods other methods are compared with, in the printed ratios.
    const ANCHORS: &[&str] = &[
        "hand_loop",
        "traverse",
        "seed_loop",
        "iter_mut",
        "swap_remove",
        "retain_mut",
        "body_remove",
        "unordered_body",
        "dense_slotmap",
        "hecs",
    ];

    impl<'g, const PAD: usize> Ctx<'g, '_, PAD> {
        /// Runs the queued methods in alternating rounds and prints the
        /// medians and ratios (see [`alternate_rounds`]).
        pub(crate) fn alternate(&mut self, group: &str) {
            let Some(rounds) = alternate_rounds() else {
                return;
            };
            let n = self.base.len() as f64;
            let mut times: Vec<Vec<f64>> = vec![Vec::new(); self.queued.len()];
            let m = self.queued.len();
            for r in 0..rounds {
                // Each round starts one method later, so that no method
                // always runs right after the same other one (what the
                // previous pass left in the caches differs by method).
                for k in 0..m {
                    let i = (r + k) % m;
                    times[i].push((self.queued[i].1)().as_secs_f64() * 1e9 / n);
                }
            }
            let medians: Vec<f64> = times
                .iter_mut()
                .map(|t| {
                    t.sort_by(f64::total_cmp);
                    t[t.len() / 2]
                })
                .collect();
            let anchors: Vec<(usize, &str)> = ANCHORS
                .iter()
                .filter_map(|a| {
                    self.queued
                        .iter()
                        .position(|(m, _)| m == a)
                        .map(|i| (i, *a))
                })
                .collect();
            println!("## {group} ({rounds} alternating rounds, median ns/element)");
            for (i, (name, _)) in self.queued.iter().enumerate() {
                let ratios: Vec<String> = anchors
                    .iter()
                    .map(|&(a, an)| format!("{:.3}x {an}", medians[i] / medians[a]))
                    .collect();
                println!("{group}\t{name}\t{:.3}\t{}", medians[i], ratios.join("\t"));
            }
            self.queued.clear();
        }

        /// Checks the method once against the model, then times `run`
        /// with an untimed `reset` from the same base before each pass.
        pub(crate) fn method<S: 'g>(
            &mut self,
            name: &str,
            make: impl Fn() -> S + 'g,
            reset: impl Fn(&mut S, &[Entity<PAD>]) + 'g,
            run: impl Fn(&mut S) + 'g,
            out: impl Fn(&S) -> &[Entity<PAD>],
            check: Check,
        ) {
            if !selected("RWC_METHODS", name) {
                return;
            }
            let mut state = make();
            let base = self.base;
            let passes = passes_per_round(base.len());
            // Passes per sample: a frame sequence from one reset, or one
            // pass from a reset.
            let frames = if self.consecutive { passes } else { 1 };
            reset(&mut state, base);
            for _ in 0..frames {
                run(&mut state);
            }
            let got = out(&state);
            assert_eq!(got.len(), self.expect.len(), "{name}: population differs");
            match check {
                Check::Ordered => assert!(got == self.expect, "{name}: contents differ"),
                Check::Multiset => {
                    let mut sorted = got.to_vec();
                    sorted.sort_by_key(|e| e.id);
                    assert!(sorted == self.expect_sorted, "{name}: contents differ");
                }
                Check::Floor => {}
            }
            let evict = evicting(std::mem::size_of_val(base));
            if alternate_rounds().is_some() {
                // Each round uses the next of a few instances of the
                // method's state, in different allocations: the same code
                // on the same input measured up to 10% apart depending on
                // where its buffers sit (and the same way in every
                // process: buffers made early did better), so one
                // allocation per method would rank methods by luck. The
                // instances are made in the first rounds, so every
                // method's k-th instance is made at about the same time.
                drop(state);
                let placements = placements();
                let mut states: Vec<S> = Vec::with_capacity(placements);
                let mut round = 0;
                self.queued.push((
                    name.to_owned(),
                    Box::new(move || {
                        if states.len() < placements {
                            states.push(make());
                        }
                        let state = &mut states[round % placements];
                        round += 1;
                        // Several passes per round (one frame sequence,
                        // or each pass from the same base, reset untimed):
                        // one pass of 10k elements is a few microseconds,
                        // too short to time alone.
                        let samples = passes / frames;
                        timed_frames(u64::from(samples), frames, state, base, &reset, &run, evict)
                            / samples
                    }),
                ));
                return;
            }
            if let Some(passes_counted) = untimed_passes() {
                // Instruction-count mode (callgrind): no timing, no criterion.
                for _ in 0..passes_counted {
                    reset(&mut state, base);
                    for _ in 0..frames {
                        run(black_box(&mut state));
                    }
                }
                return;
            }
            self.group.bench_function(name, |b| {
                b.iter_custom(|iters| {
                    timed_frames(iters, frames, &mut state, base, &reset, &run, evict)
                })
            });
        }
    }

    /// `RWC_COUNT_PASSES=k`: run every method `k` times untimed instead of
    /// benchmarking it, for `valgrind --tool=callgrind` (see
    /// `scripts/instructions.sh`), which counts the instructions spent
    /// inside each `#[inline(never)]` pass function.
    fn untimed_passes() -> Option<usize> {
        std::env::var("RWC_COUNT_PASSES").ok().map(|k| {
            k.parse()
                .unwrap_or_else(|_| panic!("RWC_COUNT_PASSES: not a number: {k:?}"))
        })
    }

    /// Whether `name` is in the comma-separated list in the environment
    /// variable `var` (everything is, when it is unset).
    fn selected(var: &str, name: &str) -> bool {
        match std::env::var(var) {
            Ok(list) => list.split(',').any(|m| m.trim() == name),
            Err(_) => true,
        }
    }

    /// Whether the group `name` (`steady/32B/100k`) starts with one of the
    /// comma-separated prefixes in `RWC_GROUPS` (all groups run when it is
    /// unset).
    pub(crate) fn group_selected(name: &str) -> bool {
        match std::env::var("RWC_GROUPS") {
            Ok(list) => list.split(',').any(|g| name.starts_with(g.trim())),
            Err(_) => true,
        }
    }

    pub(crate) fn size_label(n: usize) -> String {
        match n {
            n if n >= 1_000_000 && n % 1_000_000 == 0 => format!("{}M", n / 1_000_000),
            n if n >= 1_000 && n % 1_000 == 0 => format!("{}k", n / 1_000),
            n => n.to_string(),
        }
    }

    /// Sample sizes that keep the full run practical: a 1M x 128 B pass
    /// plus its reset is tens of milliseconds.
    pub(crate) fn configure(group: &mut BenchmarkGroup<'_, WallTime>, n: usize) {
        group.throughput(Throughput::Elements(n as u64));
        if n >= 100_000 {
            group.sampling_mode(SamplingMode::Flat);
        }
        if n >= 1_000_000 {
            group.sample_size(20);
        } else if n >= 100_000 {
            group.sample_size(40);
        }
    }

    fn scenario_group<const PAD: usize>(c: &mut Criterion, s: Scenario, n: usize) {
        let bytes = mem::size_of::<Entity<PAD>>();
        let name = format!("{}/{bytes}B/{}", s.name, size_label(n));
        if !group_selected(&name) {
            return;
        }
        let base = population::<PAD>(n, s);
        let (expect, expired, spawned) = model(&base);
        let mut expect_sorted = expect.clone();
        expect_sorted.sort_by_key(|e| e.id);
        eprintln!(
            "# {}/{bytes}B/{}: {n} entities -> {} ({expired} expire, {spawned} spawn)",
            s.name,
            size_label(n),
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
            consecutive: false,
        };

        ctx.method(
            "cursor",
            || warm_collection(ReadWriteCollection::new(), cap),
            refill_collection,
            cursor_pass,
            |c| c.as_slice(),
            Check::Ordered,
        );
        ctx.method(
            "traverse",
            || warm_collection(ReadWriteCollection::new(), cap),
            refill_collection,
            traverse_pass,
            |c| c.as_slice(),
            Check::Ordered,
        );
        let unordered = || {
            let c = warm_collection(ReadWriteCollection::unordered(), cap);
            assert_eq!(c.mode(), Mode::Unordered);
            c
        };
        ctx.method(
            "unordered",
            unordered,
            refill_collection,
            cursor_pass,
            |c| c.as_slice(),
            Check::Multiset,
        );
        ctx.method(
            "retain_mut",
            || SideState {
                v: warm_vec(cap),
                side: warm_vec(n / 10 + 16),
                side2: warm_vec(n / 10 + 16),
            },
            |s, base| refill(&mut s.v, base),
            retain_mut_pass,
            |s| &s.v,
            Check::Ordered,
        );
        ctx.method(
            "two_vecs",
            || TwoVecs {
                a: warm_vec(cap),
                b: warm_vec(cap),
            },
            |s, base| {
                refill(&mut s.a, base);
                s.b.clear();
            },
            two_vecs_pass,
            |s| &s.a,
            Check::Ordered,
        );
        ctx.method(
            "swap_remove",
            || warm_vec(cap),
            refill,
            swap_remove_pass,
            |v| v,
            Check::Multiset,
        );
        ctx.method(
            "hand_loop",
            || warm_vec(cap),
            refill,
            hand_loop_pass,
            |v| v,
            Check::Ordered,
        );
        ctx.method(
            "vec_grow_scan",
            || SideState {
                v: warm_vec(cap),
                side: warm_vec(n / 10 + 16),
                side2: warm_vec(n / 10 + 16),
            },
            |s, base| refill(&mut s.v, base),
            vec_grow_scan_pass,
            |s| &s.v,
            Check::Ordered,
        );
        if n <= 1_000 {
            ctx.method(
                "vec_remove",
                || warm_vec(cap),
                refill,
                vec_remove_pass,
                |v| v,
                Check::Ordered,
            );
        }
        if s.expire_pct == 0 && s.spawn_pct == 0 {
            ctx.method(
                "iter_mut",
                || warm_vec(cap),
                refill,
                |v| iter_mut_pass(v),
                |v| v,
                Check::Ordered,
            );
            ctx.method(
                "iter_mut_checked",
                || warm_vec(cap),
                refill,
                |v| iter_mut_checked_pass(v),
                |v| v,
                Check::Ordered,
            );
        }
        ctx.method(
            "cursor_twin",
            || warm_collection(ReadWriteCollection::new(), cap),
            refill_collection,
            cursor_pass,
            |c| c.as_slice(),
            Check::Ordered,
        );
        // The floor: the same bytes copied once. Its output is the input.
        let floor_dst = || {
            let mut v = warm_vec(cap);
            v.resize(n, Entity::ZERO);
            v
        };
        ctx.expect = &base;
        ctx.method(
            "copy_floor",
            || CopyFloor {
                src: warm_vec(cap),
                dst: floor_dst(),
            },
            |s, base| refill(&mut s.src, base),
            |s| s.dst.copy_from_slice(&s.src),
            |s| &s.dst,
            Check::Floor,
        );
        ctx.alternate(&name);
        drop(ctx);
        group.finish();
    }

    /// `with_auto_remove(pred)` against the same removal written in the
    /// loop body, and the default `NoAutoRemove` against a trivially false
    /// predicate and the hand loop (the "costs nothing" claim).
    fn auto_remove_group<const PAD: usize>(c: &mut Criterion, n: usize) {
        let bytes = mem::size_of::<Entity<PAD>>();
        let name = format!("auto_remove/{bytes}B/{}", size_label(n));
        if !group_selected(&name) {
            return;
        }
        let s = SCENARIOS[0];
        let base = population::<PAD>(n, s);
        let (expect, _, _) = model(&base);
        let mut expect_sorted = expect.clone();
        expect_sorted.sort_by_key(|e| e.id);
        let cap = n + n / 10 + 16;
        let mut group = c.benchmark_group(name.clone());
        configure(&mut group, n);
        let mut ctx = Ctx {
            group: &mut group,
            base: &base,
            expect: &expect,
            expect_sorted: &expect_sorted,
            queued: Vec::new(),
            consecutive: false,
        };
        ctx.method(
            "body_remove",
            || warm_collection(ReadWriteCollection::new(), cap),
            refill_collection,
            cursor_pass,
            |c| c.as_slice(),
            Check::Ordered,
        );
        ctx.method(
            "closure",
            || {
                warm_collection(
                    ReadWriteCollection::with_auto_remove(|e: &Entity<PAD>| e.life == 0),
                    cap,
                )
            },
            refill_collection,
            auto_remove_pass,
            |c| c.as_slice(),
            Check::Ordered,
        );
        ctx.method(
            "traverse_closure",
            || {
                warm_collection(
                    ReadWriteCollection::with_auto_remove(|e: &Entity<PAD>| e.life == 0),
                    cap,
                )
            },
            refill_collection,
            auto_remove_traverse_pass,
            |c| c.as_slice(),
            Check::Ordered,
        );
        ctx.method(
            "unit_struct",
            || warm_collection(ReadWriteCollection::with_policy(Expired), cap),
            refill_collection,
            auto_remove_pass,
            |c| c.as_slice(),
            Check::Ordered,
        );
        ctx.method(
            "fn_pointer",
            || {
                warm_collection(
                    ReadWriteCollection::with_auto_remove(
                        expired::<PAD> as fn(&Entity<PAD>) -> bool,
                    ),
                    cap,
                )
            },
            refill_collection,
            auto_remove_pass,
            |c| c.as_slice(),
            Check::Ordered,
        );
        let hook = || -> Box<dyn FnMut(Entity<PAD>)> {
            Box::new(|e| {
                black_box(e);
            })
        };
        ctx.method(
            "boxed_hook",
            || {
                warm_collection(
                    ReadWriteCollection::with_auto_remove(expired::<PAD>).with_removal_hook(hook()),
                    cap,
                )
            },
            refill_collection,
            auto_remove_pass,
            |c| c.as_slice(),
            Check::Ordered,
        );
        ctx.method(
            "retain_mut",
            || SideState {
                v: warm_vec(cap),
                side: warm_vec(n / 10 + 16),
                side2: warm_vec(n / 10 + 16),
            },
            |s, base| refill(&mut s.v, base),
            retain_mut_pass,
            |s| &s.v,
            Check::Ordered,
        );
        // Unordered mode: the same removals by the predicate and in the
        // body.
        ctx.method(
            "unordered_body",
            || warm_collection(ReadWriteCollection::unordered(), cap),
            refill_collection,
            cursor_pass,
            |c| c.as_slice(),
            Check::Multiset,
        );
        ctx.method(
            "unordered_closure",
            || {
                warm_collection(
                    Builder::new()
                        .unordered()
                        .auto_remove(|e: &Entity<PAD>| e.life == 0)
                        .build(),
                    cap,
                )
            },
            refill_collection,
            auto_remove_pass,
            |c| c.as_slice(),
            Check::Multiset,
        );
        ctx.method(
            "false_predicate",
            || {
                warm_collection(
                    ReadWriteCollection::with_auto_remove(|_: &Entity<PAD>| false),
                    cap,
                )
            },
            refill_collection,
            cursor_pass,
            |c| c.as_slice(),
            Check::Ordered,
        );
        ctx.method(
            "hand_loop",
            || warm_vec(cap),
            refill,
            hand_loop_pass,
            |v| v,
            Check::Ordered,
        );
        ctx.alternate(&name);
        drop(ctx);
        group.finish();
    }

    /// The steady scenario on buffers with no spare capacity: the first
    /// spawn of the pass grows the buffer. Every pass starts from a fresh
    /// exact-capacity copy of the population (made untimed).
    fn growth_group<const PAD: usize>(c: &mut Criterion, n: usize) {
        let bytes = mem::size_of::<Entity<PAD>>();
        let name = format!("growth/{bytes}B/{}", size_label(n));
        if !group_selected(&name) {
            return;
        }
        let s = SCENARIOS[0];
        let base = population::<PAD>(n, s);
        let (expect, _, _) = model(&base);
        let mut group = c.benchmark_group(name.clone());
        configure(&mut group, n);
        let mut ctx = Ctx {
            group: &mut group,
            base: &base,
            expect: &expect,
            expect_sorted: &[],
            queued: Vec::new(),
            consecutive: false,
        };
        ctx.method(
            "cursor",
            ReadWriteCollection::new,
            |c, base| {
                *c = ReadWriteCollection::from(base.to_vec());
                assert_eq!(c.capacity(), c.len());
            },
            cursor_pass,
            |c| c.as_slice(),
            Check::Ordered,
        );
        ctx.method(
            "hand_loop",
            Vec::new,
            |v, base| {
                *v = base.to_vec();
                assert_eq!(v.capacity(), v.len());
            },
            hand_loop_pass,
            |v| v,
            Check::Ordered,
        );
        ctx.alternate(&name);
        drop(ctx);
        group.finish();
    }

    /// The steady scenario with an update method that is not inlined
    /// (`step_outlined`): the cursor, `traverse` and the hand loop.
    fn outlined_group<const PAD: usize>(c: &mut Criterion, n: usize) {
        let bytes = mem::size_of::<Entity<PAD>>();
        let name = format!("outlined/{bytes}B/{}", size_label(n));
        if !group_selected(&name) {
            return;
        }
        let base = population::<PAD>(n, SCENARIOS[0]);
        let (expect, _, _) = model(&base);
        let mut group = c.benchmark_group(name.clone());
        configure(&mut group, n);
        let mut ctx = Ctx {
            group: &mut group,
            base: &base,
            expect: &expect,
            expect_sorted: &[],
            queued: Vec::new(),
            consecutive: false,
        };
        let room = n + n / 10;
        let reset_collection = |c: &mut ReadWriteCollection<Entity<PAD>>, base: &[Entity<PAD>]| {
            c.clear();
            c.extend(base.iter().copied());
        };
        type Pass<const PAD: usize> = fn(&mut ReadWriteCollection<Entity<PAD>>);
        let passes: [(&str, Pass<PAD>); 2] = [
            ("cursor", cursor_outlined_pass),
            ("traverse", traverse_outlined_pass),
        ];
        for (method, pass) in passes {
            ctx.method(
                method,
                || ReadWriteCollection::with_capacity(room),
                reset_collection,
                pass,
                |c| c.as_slice(),
                Check::Ordered,
            );
        }
        ctx.method(
            "hand_loop",
            || Vec::with_capacity(room),
            |v: &mut Vec<Entity<PAD>>, base| {
                v.clear();
                v.extend_from_slice(base);
            },
            hand_loop_outlined_pass,
            |v| v,
            Check::Ordered,
        );
        ctx.alternate(&name);
        drop(ctx);
        group.finish();
    }

    /// A size of `RWC_BENCH_SIZES`: `1k`, `100k`, `1M` or a plain number.
    fn parse_size(s: &str) -> usize {
        usize::try_from(parse_count("RWC_BENCH_SIZES", s)).expect("RWC_BENCH_SIZES: too large")
    }

    pub(crate) fn main() {
        // `cargo bench` passes `--bench`; `cargo test` does not, and then
        // every routine runs once: keep that to the small size.
        let benching = std::env::args().any(|a| a == "--bench");
        let sizes: Vec<usize> = match std::env::var("RWC_BENCH_SIZES") {
            Ok(list) => list.split(',').map(parse_size).collect(),
            Err(_) if benching => vec![1_000, 100_000, 1_000_000],
            Err(_) => vec![1_000],
        };
        // Shorter than criterion's defaults (3 s + 5 s) so the full run
        // takes about 20 minutes; the command line still overrides them.
        let mut c = Criterion::default()
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(3))
            .configure_from_args();
        for n in sizes {
            for s in SCENARIOS {
                scenario_group::<1>(&mut c, s, n);
                scenario_group::<13>(&mut c, s, n);
            }
            growth_group::<1>(&mut c, n);
            outlined_group::<1>(&mut c, n);
            auto_remove_group::<1>(&mut c, n);
            crate::dying::groups(&mut c, n);
            crate::keyed_frames::groups(&mut c, n);
        }
        c.final_summary();
    }
}

//! `par_traverse` against `traverse`, rayon's `par_iter_mut`, and the
//! three-pass workaround (a parallel map into a keep-mask, a serial
//! `retain`, a serial pass over a side list of spawns).
//!
//! Entities of 32 bytes; `RWC_PAR_SIZE` sets how many (default 10M with
//! `cargo bench`, 20k under `cargo test`). Scenarios:
//!
//! * `heavy`: about 100 ns of arithmetic per element, ~10% removed, ~5%
//!   push a child;
//! * `cheap`: a few instructions per element, same removals and pushes;
//! * `update`: cheap update, nothing removed or pushed (against
//!   `par_iter_mut().for_each` on a `Vec`);
//! * `cheap_move`: `cheap` with `move` closures (the scenario captured by
//!   value rather than by reference).
//!
//! Every method is checked against `traverse` (same contents, same order)
//! before it is timed. `RWC_ALTERNATE=rounds` prints medians of
//! alternating rounds and ratios instead of running criterion (steadier on
//! a shared machine). The reset before each timed pass is untimed.
//! `RWC_PAR_DECISIONS=1` prints what `par_traverse` decided on 12 fresh
//! passes; `RWC_PAR_AUTO=serial` makes the `par_traverse` method run
//! `ParMode::Serial`, the loop `Auto` runs when it plans a serial pass
//! (for instruction counts under callgrind, where every closure looks
//! heavy).

#[cfg(any(loom, miri))]
fn main() {}

#[cfg(not(any(loom, miri)))]
fn main() {
    imp::main();
}

#[cfg(not(any(loom, miri)))]
mod support;

#[cfg(not(any(loom, miri)))]
mod imp {
    use std::hint::black_box;
    use std::time::{Duration, Instant};

    use criterion::{Criterion, SamplingMode, Throughput};
    use rayon::prelude::*;
    use read_write_collection::parallel::{ParMode, ParStats};
    use read_write_collection::ReadWriteCollection;

    use crate::support::{alternate_rounds, median, splitmix};

    #[derive(Clone, Copy, Debug, PartialEq)]
    #[repr(C)]
    pub(crate) struct Entity {
        pos: [f32; 2],
        vel: [f32; 2],
        id: u32,
        life: u32,
        seed: u64,
    }

    const _: () = assert!(std::mem::size_of::<Entity>() == 32);

    const SPAWNS: u32 = 1 << 30;
    const CHILD: u32 = 1 << 31;

    /// What the update does, fixed at compile time as a user's closure
    /// is: `M` mixes of the seed (a dependent chain of about 2.3 ns each
    /// here), and whether elements expire and spawn (`C`) or are only
    /// updated. The closures capture the scenario (its `dt`) by reference,
    /// as a game's closure captures its frame time.
    #[derive(Clone, Copy, PartialEq, Debug)]
    struct Scenario<const M: u32, const C: bool, const MV: bool = false> {
        dt: f32,
    }

    type Heavy = Scenario<24, true>;
    type Cheap = Scenario<0, true>;
    type Update = Scenario<0, false>;
    /// `Cheap` with `move` closures: the scenario captured by value.
    type CheapMove = Scenario<0, true, true>;

    impl<const M: u32, const C: bool, const MV: bool> Scenario<M, C, MV> {
        fn new() -> Self {
            Scenario { dt: 1.0 }
        }

        fn name(self) -> String {
            match (M, C, MV) {
                (24, true, false) => "Heavy".into(),
                (0, true, false) => "Cheap".into(),
                (0, false, false) => "Update".into(),
                (0, true, true) => "CheapMove".into(),
                _ => format!("Mix{M}"),
            }
        }
    }

    enum Step {
        Keep,
        Expire,
        Spawn(Entity),
    }

    /// The update: move, age, mix the seed `s.rounds` times (24: a
    /// dependent chain of about 55 ns).
    #[inline(always)]
    fn step<const M: u32, const C: bool, const MV: bool>(
        e: &mut Entity,
        s: &Scenario<M, C, MV>,
    ) -> Step {
        e.pos[0] += e.vel[0] * s.dt;
        e.pos[1] += e.vel[1] * s.dt;
        if M > 0 {
            let mut x = e.seed;
            for _ in 0..M {
                x = splitmix(x);
            }
            e.seed = x;
        }
        if !C {
            return Step::Keep;
        }
        e.life -= 1;
        if e.life == 0 {
            Step::Expire
        } else if e.id & SPAWNS != 0 {
            let mut c = *e;
            c.id = (e.id & !SPAWNS) | CHILD;
            c.life = 100;
            c.vel = [-e.vel[0], -e.vel[1]];
            Step::Spawn(c)
        } else {
            Step::Keep
        }
    }

    fn population(n: usize) -> Vec<Entity> {
        (0..n as u32)
            .map(|id| {
                let h = splitmix(u64::from(id));
                let expire = h % 100 < 10;
                let spawn = !expire && (h >> 32) % 100 < 5;
                Entity {
                    pos: [id as f32, (h % 1000) as f32],
                    vel: [((h >> 8) % 7) as f32 - 3.0, ((h >> 16) % 5) as f32 - 2.0],
                    id: if spawn { id | SPAWNS } else { id },
                    life: if expire {
                        1
                    } else {
                        2 + ((h >> 40) % 1000) as u32
                    },
                    seed: h,
                }
            })
            .collect()
    }

    /// The scenario's closure, the same for every pass method: `move`
    /// (the scenario captured by value) or not (by reference), as
    /// `$($move)?` says.
    macro_rules! update {
        ($s:ident $(, $move:ident)?) => {
            $($move)? |mut e| match step(&mut e, &$s) {
                Step::Keep => {}
                Step::Expire => {
                    e.remove();
                }
                Step::Spawn(child) => e.push(child),
            }
        };
    }

    #[inline(never)]
    fn traverse_pass<const M: u32, const C: bool, const MV: bool>(
        c: &mut ReadWriteCollection<Entity>,
        s: Scenario<M, C, MV>,
    ) {
        if MV {
            c.traverse(update!(s, move));
        } else {
            c.traverse(update!(s));
        }
    }

    fn par_traverse_pass<const M: u32, const C: bool, const MV: bool>(
        c: &mut ReadWriteCollection<Entity>,
        s: Scenario<M, C, MV>,
    ) {
        par_pass_with(c, s, auto_mode());
    }

    /// `Auto`, or with `RWC_PAR_AUTO=serial` the loop `Auto` runs when it
    /// plans a serial pass (for instruction counts: under callgrind every
    /// closure looks heavy).
    fn auto_mode() -> ParMode {
        static MODE: std::sync::OnceLock<ParMode> = std::sync::OnceLock::new();
        *MODE.get_or_init(|| match std::env::var("RWC_PAR_AUTO").as_deref() {
            Ok("serial") => ParMode::Serial,
            Ok(other) => panic!("RWC_PAR_AUTO: serial, not {other}"),
            Err(_) => ParMode::Auto,
        })
    }

    #[inline(never)]
    fn par_pass_with<const M: u32, const C: bool, const MV: bool>(
        c: &mut ReadWriteCollection<Entity>,
        s: Scenario<M, C, MV>,
        mode: ParMode,
    ) -> ParStats {
        if MV {
            c.par_traverse_with(mode, update!(s, move))
        } else {
            c.par_traverse_with(mode, update!(s))
        }
    }

    fn par_iter_mut_pass<const M: u32, const C: bool, const MV: bool>(
        v: &mut Vec<Entity>,
        s: Scenario<M, C, MV>,
    ) {
        v.par_iter_mut().for_each(|e| {
            let _ = step(e, &s);
        });
    }

    /// The workaround: parallel update into a mask, serial retain (which
    /// also collects the spawns), serial pass over the spawns.
    fn three_pass<const M: u32, const C: bool, const MV: bool>(
        st: &mut ThreePass,
        s: Scenario<M, C, MV>,
    ) {
        let ThreePass { v, mask, side } = st;
        mask.clear();
        v.par_iter_mut()
            .map(|e| match step(e, &s) {
                Step::Keep => 0u8,
                Step::Expire => 1,
                Step::Spawn(_) => 2,
            })
            .collect_into_vec(mask);
        let mut i = 0;
        v.retain(|e| {
            let m = mask[i];
            i += 1;
            if m == 2 {
                let mut c = *e;
                c.id = (e.id & !SPAWNS) | CHILD;
                c.life = 100;
                c.vel = [-e.vel[0], -e.vel[1]];
                side.push(c);
            }
            m != 1
        });
        for c in side.iter_mut() {
            let _ = step(c, &s);
        }
        v.append(side);
    }

    pub(crate) struct ThreePass {
        v: Vec<Entity>,
        mask: Vec<u8>,
        side: Vec<Entity>,
    }

    type Pass<'a> = Box<dyn FnMut() -> Duration + 'a>;

    fn timed<'a, S: 'a>(
        mut state: S,
        base: &'a [Entity],
        reset: impl Fn(&mut S, &[Entity]) + 'a,
        run: impl Fn(&mut S) + 'a,
    ) -> Pass<'a> {
        Box::new(move || {
            reset(&mut state, base);
            let t = Instant::now();
            run(black_box(&mut state));
            t.elapsed()
        })
    }

    /// The median of each method's samples.
    fn medians(times: &mut [Vec<f64>]) -> Vec<f64> {
        times.iter_mut().map(|t| median(t)).collect()
    }

    fn refill(c: &mut ReadWriteCollection<Entity>, base: &[Entity]) {
        c.clear();
        c.extend(base);
    }

    /// `RWC_PAR_SWEEP=1`: `par_traverse` (which decides per round) and the
    /// parallel rounds forced, against `traverse`, over update costs (0 to
    /// 24 seed mixes, churn as in `Cheap`) and sizes (`RWC_PAR_SWEEP_SIZES`,
    /// default 10k,100k,1M,10M). Medians of alternating rounds; each
    /// sample repeats a pass until it covers 2M elements.
    fn sweep() {
        let sizes: Vec<usize> = std::env::var("RWC_PAR_SWEEP_SIZES")
            .unwrap_or_else(|_| "10k,100k,1M,10M".into())
            .split(',')
            .map(|s| crate::support::parse_count("RWC_PAR_SWEEP_SIZES", s) as usize)
            .collect();
        let rounds = alternate_rounds().unwrap_or(5);
        let skip_forced = std::env::var_os("RWC_PAR_SWEEP_AUTO_ONLY").is_some();
        println!(
            "## sweep ({} rayon threads, {rounds} alternating rounds, median ns/element)",
            rayon::current_num_threads()
        );
        println!("size\tmixes\ttraverse ns\tpar_traverse/traverse\tforced parallel/traverse\tpasses split");
        for &n in &sizes {
            let base = population(n);
            let cap = n + n / 10 + 16;
            let reps = (2_000_000 / n).max(1);
            macro_rules! points {
                ($($m:literal),*) => {
                    $(sweep_point::<$m>(n, &base, cap, reps, rounds, skip_forced);)*
                };
            }
            points!(0, 1, 2, 3, 4, 6, 8, 12, 16, 24);
        }
    }

    /// One point of the sweep: `M` mixes per element, `n` elements.
    fn sweep_point<const M: u32>(
        n: usize,
        base: &[Entity],
        cap: usize,
        reps: usize,
        rounds: usize,
        skip_forced: bool,
    ) {
        let s = Scenario::<M, true>::new();
        let mut expect = ReadWriteCollection::from(base.to_vec());
        traverse_pass(&mut expect, s);
        let make = || {
            let mut c = ReadWriteCollection::with_capacity(cap);
            c.extend(base);
            c
        };
        for mode in [ParMode::Auto, ParMode::Parallel] {
            let mut c = make();
            par_pass_with(&mut c, s, mode);
            assert!(c.as_slice() == expect.as_slice(), "sweep: {mode:?} differs");
        }
        let mut cs = [make(), make(), make()];
        let mut times = [Vec::new(), Vec::new(), Vec::new()];
        let (mut split, mut auto_passes) = (0, 0);
        for r in 0..rounds {
            // Each round in another order: which method follows which (a
            // parallel pass wakes the workers; a serial one lets them
            // sleep) changes from round to round.
            for k in 0..3 {
                let m = (k + r) % 3;
                let c = &mut cs[m];
                let mut total = Duration::ZERO;
                for _ in 0..reps {
                    refill(c, base);
                    let t = Instant::now();
                    match m {
                        0 => traverse_pass(black_box(c), s),
                        1 => {
                            let stats = par_pass_with(black_box(c), s, ParMode::Auto);
                            auto_passes += 1;
                            split += usize::from(stats.rounds > 0);
                        }
                        _ if skip_forced => {}
                        _ => {
                            par_pass_with(black_box(c), s, ParMode::Parallel);
                        }
                    }
                    total += t.elapsed();
                }
                times[m].push(total.as_secs_f64() * 1e9 / (reps * n) as f64);
            }
        }
        let med = medians(&mut times);
        println!(
            "{n}\t{M}\t{:.3}\t{:.3}\t{:.3}\t{split}/{auto_passes}",
            med[0],
            med[1] / med[0],
            med[2] / med[0]
        );
    }

    /// Every method on one scenario, checked against `traverse`, then
    /// timed (criterion, or alternating rounds).
    fn scenario<const M: u32, const C: bool, const MV: bool>(
        s: Scenario<M, C, MV>,
        n: usize,
        base: &[Entity],
        cap: usize,
        criterion: &mut Criterion,
        only: &Option<String>,
    ) {
        if only.as_ref().is_some_and(|o| *o != s.name()) {
            return;
        }
        // The serial result every method must reproduce.
        let mut expect = ReadWriteCollection::from(base.to_vec());
        traverse_pass(&mut expect, s);
        let mut methods: Vec<(&str, Pass<'_>)> = Vec::new();
        let collection = || {
            let mut c = ReadWriteCollection::with_capacity(cap);
            c.extend(base);
            c
        };
        if std::env::var_os("RWC_PAR_DECISIONS").is_some() {
            let mut par = collection();
            for _ in 0..12 {
                refill(&mut par, base);
                let st = par_pass_with(&mut par, s, ParMode::Auto);
                eprintln!(
                    "# {} Auto: {} parallel rounds, probe {:.2} ns/element",
                    s.name(),
                    st.rounds,
                    st.probe_time.as_secs_f64() * 1e9 / st.probed.max(1) as f64
                );
            }
        }
        for mode in [ParMode::Auto, ParMode::Parallel] {
            let mut par = collection();
            let stats = par_pass_with(&mut par, s, mode);
            assert!(
                par.as_slice() == expect.as_slice(),
                "{}: par_traverse ({mode:?}) differs",
                s.name()
            );
            eprintln!(
            "# {} {mode:?}: {} parallel rounds, moves per kept element {:.3}, probe {:.2} ns/element over {}",
            s.name(),
            stats.rounds,
            stats.moves as f64 / stats.kept.max(1) as f64,
            stats.probe_time.as_secs_f64() * 1e9 / stats.probed.max(1) as f64,
            stats.probed
        );
        }
        methods.push((
            "traverse",
            timed(collection(), base, refill, move |c| traverse_pass(c, s)),
        ));
        methods.push((
            "par_traverse",
            timed(collection(), base, refill, move |c| par_traverse_pass(c, s)),
        ));
        if std::env::var_os("RWC_PAR_MODES").is_some() {
            for (label, mode) in [
                ("forced_parallel", ParMode::Parallel),
                ("forced_serial", ParMode::Serial),
            ] {
                methods.push((
                    label,
                    timed(collection(), base, refill, move |c| {
                        par_pass_with(c, s, mode);
                    }),
                ));
            }
        }
        if !C {
            let mut v = base.to_vec();
            par_iter_mut_pass(&mut v, s);
            assert!(v == expect.as_slice(), "par_iter_mut differs");
            let mut v = Vec::with_capacity(cap);
            v.extend_from_slice(base);
            methods.push((
                "par_iter_mut",
                timed(
                    v,
                    base,
                    |v, b| {
                        v.clear();
                        v.extend_from_slice(b)
                    },
                    move |v| par_iter_mut_pass(v, s),
                ),
            ));
        } else {
            let mut st = ThreePass {
                v: base.to_vec(),
                mask: Vec::with_capacity(cap),
                side: Vec::with_capacity(n / 10),
            };
            three_pass(&mut st, s);
            assert!(
                st.v == expect.as_slice(),
                "{}: three-pass workaround differs",
                s.name()
            );
            methods.push((
                "three_pass",
                timed(
                    st,
                    base,
                    |st, b| {
                        st.v.clear();
                        st.v.extend_from_slice(b);
                    },
                    move |st| three_pass(st, s),
                ),
            ));
        }
        let name = format!("parallel/{}/{n}", s.name());
        if let Some(rounds) = alternate_rounds() {
            let mut times = vec![Vec::new(); methods.len()];
            for _ in 0..rounds {
                for (i, (_, pass)) in methods.iter_mut().enumerate() {
                    times[i].push(pass().as_secs_f64() * 1e9 / n as f64);
                }
            }
            let med = medians(&mut times);
            println!("## {name} ({rounds} alternating rounds, median ns/element)");
            for (i, (m, _)) in methods.iter().enumerate() {
                println!(
                    "{name}\t{m}\t{:.3}\t{:.3}x traverse\t{:.3}x par_traverse",
                    med[i],
                    med[i] / med[0],
                    med[i] / med[1]
                );
            }
            return;
        }
        let mut group = criterion.benchmark_group(name);
        group.throughput(Throughput::Elements(n as u64));
        group.sampling_mode(SamplingMode::Flat);
        group.sample_size(10);
        for (m, pass) in &mut methods {
            group.bench_function(*m, |b| {
                b.iter_custom(|iters| (0..iters).map(|_| pass()).sum())
            });
        }
        group.finish();
    }

    pub(crate) fn main() {
        if std::env::var_os("RWC_PAR_SWEEP").is_some() {
            sweep();
            return;
        }
        let benching = std::env::args().any(|a| a == "--bench");
        let n = match std::env::var("RWC_PAR_SIZE") {
            Ok(s) => s.parse().expect("RWC_PAR_SIZE: a number"),
            Err(_) if benching => 10_000_000,
            Err(_) => 20_000,
        };
        let base = population(n);
        let cap = n + n / 10 + 16;
        let mut criterion = Criterion::default()
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(5))
            .configure_from_args();
        eprintln!(
            "# {n} entities of 32 B, {} rayon threads",
            rayon::current_num_threads()
        );
        let only = std::env::var("RWC_PAR_ONLY").ok();
        scenario(Heavy::new(), n, &base, cap, &mut criterion, &only);
        scenario(Cheap::new(), n, &base, cap, &mut criterion, &only);
        scenario(Update::new(), n, &base, cap, &mut criterion, &only);
        scenario(CheapMove::new(), n, &base, cap, &mut criterion, &only);
        criterion.final_summary();
    }
}

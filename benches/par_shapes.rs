//! `par_traverse` against `traverse` on work that is not even: where the
//! heavy elements sit in the pass, frames whose cost changes, a closure
//! that is not inlined, a collection's first pass.
//!
//! Entities of 40 bytes; each frame about a tenth expire (removed by the
//! closure) and about a tenth of the survivors push a child, which the
//! same pass updates. Two equal collections, one walked by `traverse`,
//! the other by `par_traverse`, frame after frame; the sample is the sum
//! of a shape's frames, and the methods alternate, `RWC_ALTERNATE` rounds
//! (default 5). Every sample checks that both collections are equal. The
//! work per element is a chain of seed mixes (about 2.3 ns each here):
//!
//! * `cheap`: none, and the update is a function that is not inlined,
//!   taking the entry (`Entry` / `ParEntry`) and removing or pushing
//!   through it;
//! * `dying_spawn`: as `cheap`, but every other element that expires
//!   leaves a child, pushed in the same step (`remove_and_spawn`);
//! * `heavy`: 17 mixes (about 40 ns) for every element;
//! * `heavy_head`: 100 mixes for the elements with the first 4,096 ids
//!   (the head of the pass), none for the rest;
//! * `heavy_tail`: none for the first 4,096 ids, 17 for every other;
//! * `alternating`: frames alternate between `heavy` and none;
//! * `every_third`: every third frame `heavy`, the others none;
//! * `medium_100k`: 100k elements, 3 mixes each;
//! * `huge_head_rebuilt`: 4M elements, 430 mixes (about 1 µs) for the
//!   first 4,096 ids, none for the rest, the collection rebuilt (untimed)
//!   before every frame, so every pass is a collection's first;
//! * `first_pass`: 1M elements, none, the collection rebuilt before
//!   every frame.
//!
//! `RWC_PAR_SHAPES_SIZE` (default 1M) sets the size of the 1M shapes;
//! `RWC_PAR_SHAPES_FRAMES` the frames per sample (default 12);
//! `RWC_PAR_SHAPES_ONLY=name,name` runs only those shapes;
//! `RWC_PAR_SHAPES_MODE=serial` runs `par_traverse_with(ParMode::Serial)`
//! instead of `Auto` (for instruction counts: `scripts/par-instructions.sh`),
//! `=parallel` runs `ParMode::Parallel` (what splitting costs or gains
//! without a decision). Printed per
//! shape: the medians of both methods' sums (ns per element per frame),
//! the median of the rounds' own ratios (each round times both methods
//! back to back, so a change of the machine's speed between rounds, which
//! moved `traverse` alone by 40 % here, cancels in that round's ratio),
//! and `ParStats::rounds` of each frame of the last sample (how many
//! rounds ran in parallel: 0 is a serial pass).

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

    use read_write_collection::parallel::{ParMode, ParStats};
    use read_write_collection::{Entry, ParEntry, ReadWriteCollection};

    use crate::support::{alternate_rounds, median, parse_count, positive_var, splitmix};

    #[derive(Clone, Copy, Debug, PartialEq)]
    #[repr(C)]
    pub(crate) struct Entity {
        pos: [f32; 2],
        vel: [f32; 2],
        id: u32,
        life: u32,
        seed: u64,
        tag: u64,
    }

    const _: () = assert!(std::mem::size_of::<Entity>() == 40);

    /// Ids of children: above every id of a population.
    const CHILD_IDS: u32 = 1 << 31;

    fn population(n: usize) -> Vec<Entity> {
        (0..n as u32)
            .map(|id| {
                let h = splitmix(u64::from(id));
                Entity {
                    pos: [id as f32, (h % 1000) as f32],
                    vel: [((h >> 8) % 7) as f32 - 3.0, ((h >> 16) % 5) as f32 - 2.0],
                    id,
                    life: 1 + ((h >> 40) % 10) as u32,
                    seed: h,
                    tag: u64::MAX,
                }
            })
            .collect()
    }

    /// Which elements of which frame are heavy, and how heavy.
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Work {
        Even(u32),
        /// `mixes` for ids below `below`, none above.
        Head {
            below: u32,
            mixes: u32,
        },
        /// None for ids below `below`, `mixes` above.
        Tail {
            below: u32,
            mixes: u32,
        },
        /// `mixes` on frames where `frame % every == 0`, none on the others.
        Frames {
            every: u32,
            mixes: u32,
        },
    }

    impl Work {
        #[inline(always)]
        fn mixes(self, id: u32, frame: u32) -> u32 {
            match self {
                Work::Even(m) => m,
                Work::Head { below, mixes } => {
                    if id < below {
                        mixes
                    } else {
                        0
                    }
                }
                Work::Tail { below, mixes } => {
                    if id < below {
                        0
                    } else {
                        mixes
                    }
                }
                Work::Frames { every, mixes } => {
                    if frame % every == 0 {
                        mixes
                    } else {
                        0
                    }
                }
            }
        }
    }

    /// What a frame's closure captures (by reference, as a game's closure
    /// captures its frame state).
    #[derive(Clone, Copy)]
    struct Frame {
        work: Work,
        number: u32,
        dt: f32,
    }

    enum Step {
        Keep,
        Expire,
        Spawn(Entity),
    }

    #[inline(always)]
    fn step(e: &mut Entity, f: &Frame) -> Step {
        let m = f.work.mixes(e.id, f.number);
        if m > 0 {
            let mut x = e.seed;
            for _ in 0..m {
                x = splitmix(x);
            }
            e.seed = x;
        }
        e.pos[0] += e.vel[0] * f.dt;
        e.pos[1] += e.vel[1] * f.dt;
        e.life -= 1;
        if e.life == 0 {
            Step::Expire
        } else if e.tag != u64::from(f.number) && (e.seed ^ u64::from(f.number)) % 10 == 0 {
            // (A child spawns from its next frame on: `tag` is the frame
            // it was born in.)
            let mut c = *e;
            c.tag = u64::from(f.number);
            c.id = CHILD_IDS | (e.id & 0xFFFF);
            c.life = 1 + (e.seed >> 40) as u32 % 10;
            c.vel = [-e.vel[0], -e.vel[1]];
            Step::Spawn(c)
        } else {
            Step::Keep
        }
    }

    /// The update through an entry `$e` (`Entry` or `ParEntry`): remove
    /// what expires, push what spawns; with `spawn`, an element that
    /// expires may leave a child in the same step (`remove_and_spawn`).
    macro_rules! update {
        ($e:ident, $f:ident) => {
            match step(&mut $e, $f) {
                Step::Keep => {}
                Step::Expire => {
                    $e.remove();
                }
                Step::Spawn(child) => $e.push(child),
            }
        };
        ($e:ident, $f:ident, spawn) => {
            match step(&mut $e, $f) {
                Step::Keep => {}
                Step::Expire => {
                    let (dead, mut spawn) = $e.remove_and_spawn();
                    if let Some(child) = remains(&dead, $f) {
                        spawn.push(child);
                    }
                }
                Step::Spawn(child) => $e.push(child),
            }
        };
    }

    /// The child an expiring element leaves behind, every other one (the
    /// `dying_spawn` shape: an explosion, a cell that divides).
    #[inline(always)]
    fn remains(dead: &Entity, f: &Frame) -> Option<Entity> {
        // (A child born this frame leaves nothing: no chain in one pass.)
        (dead.seed % 2 == 0 && dead.tag != u64::from(f.number)).then(|| {
            let mut c = *dead;
            c.id = CHILD_IDS | (dead.id & 0xFFFF);
            c.life = 1 + (dead.seed >> 40) as u32 % 10;
            c.tag = u64::from(f.number);
            c
        })
    }

    /// The `cheap` shape's update, not inlined, through the serial entry.
    #[inline(never)]
    fn update_entry(mut e: Entry<'_, Entity>, f: &Frame) {
        update!(e, f)
    }

    /// The same through the parallel entry.
    #[inline(never)]
    fn update_par_entry(mut e: ParEntry<'_, Entity>, f: &Frame) {
        update!(e, f)
    }

    /// The `dying_spawn` shape's update, not inlined.
    #[inline(never)]
    fn update_entry_spawn(mut e: Entry<'_, Entity>, f: &Frame) {
        update!(e, f, spawn)
    }

    /// The same through the parallel entry.
    #[inline(never)]
    fn update_par_entry_spawn(mut e: ParEntry<'_, Entity>, f: &Frame) {
        update!(e, f, spawn)
    }

    /// How the shape's closure updates: inline, or through a function
    /// that is not inlined (with `remove_and_spawn` or not).
    #[derive(Clone, Copy, PartialEq)]
    enum Update {
        Inline,
        OutOfLine,
        OutOfLineSpawn,
    }

    #[inline(never)]
    fn traverse_frame(c: &mut ReadWriteCollection<Entity>, f: &Frame, update: Update) {
        if update == Update::OutOfLine {
            c.traverse(|e| update_entry(e, f));
        } else if update == Update::OutOfLineSpawn {
            c.traverse(|e| update_entry_spawn(e, f));
        } else {
            c.traverse(|mut e| update!(e, f));
        }
    }

    /// `ParMode::Auto`, or `ParMode::Serial` with `RWC_PAR_SHAPES_MODE=serial`
    /// (the loop `Auto` runs serially, for instruction counts under
    /// callgrind, where every closure looks heavy), or `ParMode::Parallel`
    /// with `=parallel`.
    fn mode() -> ParMode {
        static MODE: std::sync::OnceLock<ParMode> = std::sync::OnceLock::new();
        *MODE.get_or_init(|| match std::env::var("RWC_PAR_SHAPES_MODE").as_deref() {
            Ok("serial") => ParMode::Serial,
            Ok("parallel") => ParMode::Parallel,
            Ok(other) => panic!("RWC_PAR_SHAPES_MODE: serial or parallel, not {other}"),
            Err(_) => ParMode::Auto,
        })
    }

    #[inline(never)]
    fn par_frame(c: &mut ReadWriteCollection<Entity>, f: &Frame, update: Update) -> ParStats {
        if update == Update::OutOfLine {
            c.par_traverse_with(mode(), |e| update_par_entry(e, f))
        } else if update == Update::OutOfLineSpawn {
            c.par_traverse_with(mode(), |e| update_par_entry_spawn(e, f))
        } else {
            c.par_traverse_with(mode(), |mut e| update!(e, f))
        }
    }

    struct Shape {
        name: &'static str,
        size: usize,
        work: Work,
        update: Update,
        /// The collection is rebuilt before every frame.
        rebuilt: bool,
    }

    fn shapes(n: usize) -> Vec<Shape> {
        let shape = |name, size, work| Shape {
            name,
            size,
            work,
            update: Update::Inline,
            rebuilt: false,
        };
        vec![
            Shape {
                update: Update::OutOfLine,
                ..shape("cheap", n, Work::Even(0))
            },
            Shape {
                update: Update::OutOfLineSpawn,
                ..shape("dying_spawn", n, Work::Even(0))
            },
            shape("heavy", n, Work::Even(17)),
            shape(
                "heavy_head",
                n,
                Work::Head {
                    below: 4096,
                    mixes: 100,
                },
            ),
            shape(
                "heavy_tail",
                n,
                Work::Tail {
                    below: 4096,
                    mixes: 17,
                },
            ),
            shape(
                "alternating",
                n,
                Work::Frames {
                    every: 2,
                    mixes: 17,
                },
            ),
            shape(
                "every_third",
                n,
                Work::Frames {
                    every: 3,
                    mixes: 17,
                },
            ),
            shape("medium_100k", 100_000, Work::Even(3)),
            Shape {
                rebuilt: true,
                ..shape(
                    "huge_head_rebuilt",
                    4 * n,
                    Work::Head {
                        below: 4096,
                        mixes: 430,
                    },
                )
            },
            Shape {
                rebuilt: true,
                ..shape("first_pass", n, Work::Even(0))
            },
        ]
    }

    /// One sample of one method: the shape's frames from `base`, summed.
    /// Returns the time and, for `par_traverse`, each frame's rounds.
    fn sample(
        shape: &Shape,
        base: &[Entity],
        c: &mut ReadWriteCollection<Entity>,
        frames: u32,
        par: bool,
    ) -> (Duration, Vec<usize>) {
        let mut total = Duration::ZERO;
        let mut rounds = Vec::new();
        c.clear();
        c.extend_from_slice(base);
        for number in 0..frames {
            if shape.rebuilt && number > 0 {
                // A new collection (no history), as a game that rebuilds
                // its list every frame has.
                *c = ReadWriteCollection::with_capacity(base.len() + base.len() / 4);
                c.extend_from_slice(base);
            }
            let f = Frame {
                work: shape.work,
                number,
                dt: 0.5,
            };
            let t = Instant::now();
            if par {
                let st = par_frame(black_box(c), &f, shape.update);
                rounds.push(st.rounds);
            } else {
                traverse_frame(black_box(c), &f, shape.update);
            }
            total += t.elapsed();
        }
        (total, rounds)
    }

    pub(crate) fn main() {
        let n = std::env::var("RWC_PAR_SHAPES_SIZE")
            .map(|s| parse_count("RWC_PAR_SHAPES_SIZE", &s) as usize)
            .unwrap_or(1_000_000);
        let frames = positive_var("RWC_PAR_SHAPES_FRAMES").unwrap_or(12) as u32;
        let rounds = alternate_rounds().unwrap_or(5);
        let only: Option<Vec<String>> = std::env::var("RWC_PAR_SHAPES_ONLY")
            .ok()
            .map(|s| s.split(',').map(str::to_owned).collect());
        println!(
            "## par_traverse / traverse on uneven work ({} rayon threads, {rounds} alternating rounds of {frames} frames, medians)",
            rayon::current_num_threads()
        );
        println!();
        println!("| shape | elements | traverse ns/element/frame | par_traverse ns/element/frame | par / traverse (median of the rounds' ratios) | rounds per frame (last sample) |");
        println!("| --- | ---: | ---: | ---: | ---: | --- |");
        for shape in shapes(n) {
            if only
                .as_ref()
                .is_some_and(|o| !o.iter().any(|s| s == shape.name))
            {
                continue;
            }
            let base = population(shape.size);
            let cap = shape.size + shape.size / 4;
            let mut serial = ReadWriteCollection::with_capacity(cap);
            let mut par = ReadWriteCollection::with_capacity(cap);
            let (mut ts, mut tp) = (Vec::new(), Vec::new());
            let mut paired = Vec::new();
            let mut last_rounds = Vec::new();
            for r in 0..rounds {
                // Each round in the other order.
                for k in 0..2 {
                    let is_par = (k + r) % 2 == 1;
                    let c = if is_par { &mut par } else { &mut serial };
                    let (t, rs) = sample(&shape, &base, c, frames, is_par);
                    let per = t.as_secs_f64() * 1e9 / (shape.size as f64 * f64::from(frames));
                    if is_par {
                        tp.push(per);
                        last_rounds = rs;
                    } else {
                        ts.push(per);
                    }
                }
                paired.push(tp[r] / ts[r]);
                assert!(
                    serial.as_slice() == par.as_slice(),
                    "{}: par_traverse's result differs from traverse's",
                    shape.name
                );
            }
            let (ms, mp) = (median(&mut ts), median(&mut tp));
            let ratio = median(&mut paired);
            let rounds: Vec<String> = last_rounds.iter().map(usize::to_string).collect();
            println!(
                "| {} | {} | {ms:.2} | {mp:.2} | {ratio:.3} | {} |",
                shape.name,
                shape.size,
                rounds.join(" ")
            );
        }
    }
}

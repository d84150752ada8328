//! A headless particle and bullet simulation: the crate's main job.
//!
//! About a million particles. Every frame, guns fire new bullets, each
//! bullet may leave a trail spark, bullets that run out of life or leave
//! the arena explode into sparks, and sparks burn out. Spawned particles
//! move in the frame they are born in.
//!
//! The same simulation runs twice, frame by frame, in the same process:
//!
//! * with [`ReadWriteCollection`]: one pass per frame; the cursor removes
//!   the dead particle in hand and pushes the new ones, which the same pass
//!   reaches later;
//! * with `Vec::retain_mut`: it cannot push while it runs, so spawns go to
//!   a side `Vec`, need a second pass (and a third for what *they* spawn),
//!   and are appended at the end.
//!
//! Both produce the same particles in the same order (checked every frame
//! by count and at the end in full). Run it in release:
//!
//! ```text
//! cargo run --release --example particles            # 1M particles, 60 frames
//! cargo run --release --example particles -- 200000 30
//! ```

use std::time::{Duration, Instant};

use read_write_collection::ReadWriteCollection;

const ARENA: f32 = 1000.0;
const TRAIL_SPARKS_PER_32: u32 = 16; // a bullet leaves a spark in half of its frames
const EXPLOSION_SPARKS: u32 = 3;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Bullet,
    Spark,
}

/// 24 bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Particle {
    pos: [f32; 2],
    vel: [f32; 2],
    seed: u32,
    life: u16,
    kind: Kind,
}

/// What a frame does to one particle.
enum Fate {
    Live,
    /// Lives, and leaves this spark behind.
    Trail(Particle),
    /// Burnt out.
    Die,
    /// Gone, leaving `EXPLOSION_SPARKS` sparks (see [`explosion`]).
    Explode,
}

fn xorshift(mut x: u32) -> u32 {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    x
}

/// A number in `[0, 1)` from a random `u32`.
fn unit(r: u32) -> f32 {
    (r >> 8) as f32 / (1u32 << 24) as f32
}

fn spark(at: [f32; 2], seed: u32) -> Particle {
    let a = xorshift(seed | 1);
    let b = xorshift(a);
    Particle {
        pos: at,
        vel: [unit(a) * 2.0 - 1.0, unit(b) * 2.0 - 1.0],
        seed: b,
        life: 9 + (b % 20) as u16, // 9..=28 frames, 18.5 on average
        kind: Kind::Spark,
    }
}

fn bullet(seed: u32) -> Particle {
    let a = xorshift(seed | 1);
    let b = xorshift(a);
    Particle {
        pos: [unit(a) * ARENA, 0.0],
        vel: [unit(b) * 4.0 - 2.0, 8.0 + unit(a ^ b) * 8.0],
        seed: b,
        life: 30 + (a % 61) as u16, // 30..=90 frames, 60 on average
        kind: Kind::Bullet,
    }
}

/// The `k`-th spark of an exploding particle.
fn explosion(p: &Particle, k: u32) -> Particle {
    spark(p.pos, p.seed.wrapping_mul(0x9E37_79B9).wrapping_add(k))
}

/// One frame of one particle: the whole simulation rule.
#[inline]
fn update(p: &mut Particle) -> Fate {
    p.pos[0] += p.vel[0];
    p.pos[1] += p.vel[1];
    p.life -= 1;
    match p.kind {
        Kind::Spark => {
            p.vel[1] -= 0.05;
            if p.life == 0 {
                Fate::Die
            } else {
                Fate::Live
            }
        }
        Kind::Bullet => {
            p.seed = xorshift(p.seed);
            let outside = !(0.0..ARENA).contains(&p.pos[0]) || p.pos[1] >= ARENA;
            if p.life == 0 || outside {
                Fate::Explode
            } else if p.seed % 32 < TRAIL_SPARKS_PER_32 {
                Fate::Trail(spark(p.pos, p.seed))
            } else {
                Fate::Live
            }
        }
    }
}

/// The bullets the guns fire at the start of `frame` (the same for both
/// versions): enough to keep the population about stationary.
fn fired(frame: u32, n: usize) -> impl Iterator<Item = Particle> {
    (0..(n / 600) as u32).map(move |i| bullet(xorshift(frame.wrapping_mul(0x0100_0193) ^ i)))
}

/// A starting population of `n`: 10% bullets, 90% sparks, lives spread out.
fn initial(n: usize) -> Vec<Particle> {
    (0..n as u32)
        .map(|i| {
            let seed = xorshift(i.wrapping_mul(0x2545_F491) | 1);
            let mut p = if i % 10 == 0 {
                bullet(seed)
            } else {
                spark([unit(seed) * ARENA, unit(xorshift(seed)) * ARENA], seed)
            };
            p.life = 1 + (xorshift(seed ^ 0x55) % u32::from(p.life)) as u16;
            p
        })
        .collect()
}

/// One frame with the crate: one pass, pushes reached by the same pass.
fn frame_rwc(particles: &mut ReadWriteCollection<Particle>, frame: u32, n: usize) {
    let mut cursor = particles.cursor();
    for b in fired(frame, n) {
        cursor.push(b);
    }
    while let Some(mut p) = cursor.next() {
        match update(&mut p) {
            Fate::Live => {}
            Fate::Trail(s) => p.push(s),
            Fate::Die => {
                p.remove();
            }
            Fate::Explode => {
                let dead = p.remove();
                for k in 0..EXPLOSION_SPARKS {
                    cursor.push(explosion(&dead, k));
                }
            }
        }
    }
}

/// `retain_mut` over `v`, spawns collected in `spawned`.
fn retain_pass(v: &mut Vec<Particle>, spawned: &mut Vec<Particle>) {
    v.retain_mut(|p| match update(p) {
        Fate::Live => true,
        Fate::Trail(s) => {
            spawned.push(s);
            true
        }
        Fate::Die => false,
        Fate::Explode => {
            for k in 0..EXPLOSION_SPARKS {
                spawned.push(explosion(p, k));
            }
            false
        }
    });
}

/// The same frame the usual way: `retain_mut` plus side lists, one more
/// pass per generation of spawns, each appended at the end.
fn frame_retain(
    particles: &mut Vec<Particle>,
    side: &mut Vec<Particle>,
    next_side: &mut Vec<Particle>,
    frame: u32,
    n: usize,
) {
    side.extend(fired(frame, n));
    retain_pass(particles, side);
    while !side.is_empty() {
        retain_pass(side, next_side);
        particles.append(side);
        std::mem::swap(side, next_side);
    }
}

fn arg(i: usize, default: usize) -> usize {
    match std::env::args().nth(i) {
        Some(s) => s.parse().unwrap_or_else(|_| {
            eprintln!("usage: particles [PARTICLES (default 1000000)] [FRAMES (default 60)]");
            std::process::exit(2)
        }),
        None => default,
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let n = arg(1, 1_000_000);
    let frames = arg(2, 60) as u32;
    let start = initial(n);
    let room = n + n / 4;

    let mut rwc = ReadWriteCollection::with_capacity(room);
    rwc.extend(start.iter().copied());
    let mut vec = Vec::with_capacity(room);
    vec.extend(start.iter().copied());
    let (mut side, mut next_side) = (Vec::with_capacity(n / 8), Vec::with_capacity(n / 8));
    drop(start);

    println!("{n} particles, {frames} frames; times per frame:");
    println!("frame  particles  bullets  read-write-collection  retain_mut + side Vec");
    let (mut total_rwc, mut total_vec) = (Duration::ZERO, Duration::ZERO);
    for frame in 0..frames {
        let t = Instant::now();
        frame_rwc(&mut rwc, frame, n);
        let d_rwc = t.elapsed();

        let t = Instant::now();
        frame_retain(&mut vec, &mut side, &mut next_side, frame, n);
        let d_vec = t.elapsed();

        assert_eq!(rwc.len(), vec.len(), "the two versions diverged");
        total_rwc += d_rwc;
        total_vec += d_vec;
        let bullets = rwc.iter().filter(|p| p.kind == Kind::Bullet).count();
        println!(
            "{frame:5}  {:9}  {bullets:7}  {:18.2} ms  {:18.2} ms",
            rwc.len(),
            ms(d_rwc),
            ms(d_vec)
        );
    }
    assert!(
        rwc.as_slice() == vec.as_slice(),
        "the two versions diverged"
    );

    let mean_rwc = ms(total_rwc) / f64::from(frames.max(1));
    let mean_vec = ms(total_vec) / f64::from(frames.max(1));
    println!(
        "mean frame time over {frames} frames, {} particles at the end (same contents both ways): \
         read-write-collection {mean_rwc:.2} ms, retain_mut + side Vec {mean_vec:.2} ms, ratio {:.2}x",
        rwc.len(),
        mean_rwc / mean_vec
    );
}

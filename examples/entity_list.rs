//! An entity list in layers: stars, ships, bullets and particles, with
//! lifetimes, explosions and a particle cap.
//!
//! * Four [`Layers`], keyed by the `Layer` enum: the background (never
//!   updated: the layer is disabled, but visible), actors (ships and the
//!   drones they launch), bullets, and particles (bounded: at most
//!   `PARTICLE_CAP` sparks).
//! * Every entity counts its `life` down; the layers' auto-remove predicate
//!   (`Expired`, a zero-sized type from `remove_when!`, so the layers'
//!   type can be written down) takes expired entities out during the update
//!   pass, without the loop body calling `remove`.
//! * All spawning happens during the one update pass, with
//!   `push_to`: ships fire into the bullet layer (a later layer, so the
//!   bullet already moves this frame), and a ship, drone or bullet whose
//!   life runs out leaves an explosion, a burst of sparks pushed into the
//!   particle layer, which moves them this frame too. No side list, no
//!   `Rc<RefCell<_>>`.
//! * The particle layer refuses sparks when full (`try_push_to` hands them
//!   back); the refusals are counted.
//!
//! One line per frame: how many entities each layer holds after the frame,
//! how many explosions went off, how many sparks the cap refused, and how
//! many entities the draw pass drew. The run is deterministic (a fixed
//! seed), so the output is the same every time.
//!
//! ```text
//! cargo run --release --example entity_list          # 30 frames
//! cargo run --release --example entity_list -- 200   # 200 frames
//! ```

use read_write_collection::{layer_keys, remove_when, Builder, Layers};

const DEFAULT_FRAMES: u32 = 30;
const STARS: u32 = 64;
const FIRST_SHIPS: u32 = 24;
const PARTICLE_CAP: usize = 160;
const ARENA: i32 = 1000;

layer_keys! {
    /// The layers, in update and draw order.
    enum Layer { Background, Actors, Bullets, Particles }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Star,
    Ship,
    Drone,
    Bullet,
    Spark,
}

#[derive(Clone, Debug)]
struct Entity {
    id: u32,
    kind: Kind,
    pos: [i32; 2],
    vel: [i32; 2],
    /// Frames left to live; the entity expires at 0.
    life: u32,
}

remove_when! {
    /// The auto-remove predicate every layer shares: out of life.
    struct Expired for Entity: |e| e.life == 0
}

/// A small deterministic generator (xorshift32), so every run prints the
/// same numbers.
struct Rng(u32);

impl Rng {
    fn below(&mut self, n: u32) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0 % n
    }

    fn between(&mut self, lo: i32, hi: i32) -> i32 {
        lo + self.below((hi - lo) as u32) as i32
    }
}

/// Makes entities with fresh ids.
struct Spawner {
    next_id: u32,
    rng: Rng,
}

impl Spawner {
    fn entity(&mut self, kind: Kind, pos: [i32; 2], vel: [i32; 2], life: u32) -> Entity {
        self.next_id += 1;
        Entity {
            id: self.next_id,
            kind,
            pos,
            vel,
            life,
        }
    }

    fn star(&mut self) -> Entity {
        let pos = [self.rng.between(0, ARENA), self.rng.between(0, ARENA)];
        // Stars live forever: their layer is never updated.
        self.entity(Kind::Star, pos, [0, 0], u32::MAX)
    }

    fn ship(&mut self) -> Entity {
        let pos = [0, self.rng.between(0, ARENA)];
        let vel = [self.rng.between(5, 20), self.rng.between(-5, 5)];
        let life = 10 + self.rng.below(30);
        self.entity(Kind::Ship, pos, vel, life)
    }

    fn drone(&mut self, from: &Entity) -> Entity {
        let vel = [from.vel[0], from.vel[1] + self.rng.between(-10, 10)];
        let life = 4 + self.rng.below(6);
        self.entity(Kind::Drone, from.pos, vel, life)
    }

    fn bullet(&mut self, from: &Entity) -> Entity {
        let vel = [from.vel[0] + 60, self.rng.between(-8, 8)];
        let life = 8 + self.rng.below(5);
        self.entity(Kind::Bullet, from.pos, vel, life)
    }

    /// The sparks an expired entity leaves (none for sparks and stars).
    fn explosion(&mut self, dead: &Entity) -> Vec<Entity> {
        let sparks = match dead.kind {
            Kind::Ship => 12,
            Kind::Drone => 6,
            Kind::Bullet => 3,
            Kind::Spark | Kind::Star => 0,
        };
        (0..sparks)
            .map(|_| {
                let vel = [self.rng.between(-15, 15), self.rng.between(-15, 15)];
                let life = 3 + self.rng.below(4);
                self.entity(Kind::Spark, dead.pos, vel, life)
            })
            .collect()
    }
}

#[derive(Default)]
struct Totals {
    explosions: usize,
    sparks: usize,
    refused: usize,
}

fn main() {
    let frames: u32 = match std::env::args().nth(1) {
        None => DEFAULT_FRAMES,
        Some(arg) => arg.parse().unwrap_or_else(|_| {
            eprintln!(
                "usage: entity_list [FRAMES]   (FRAMES: a whole number, default {DEFAULT_FRAMES})"
            );
            std::process::exit(2)
        }),
    };

    // One collection per `Layer`, in `Layer` order, all with the `Expired`
    // predicate; the particle layer is bounded.
    let layer = Builder::new().policy(Expired);
    let mut layers: Layers<Entity, Layer, Expired> = Layers::from_collections([
        layer.clone().build(),
        layer.clone().build(),
        layer.clone().build(),
        layer.bounded(PARTICLE_CAP).build(),
    ]);

    let mut spawn = Spawner {
        next_id: 0,
        rng: Rng(0x2545_f491),
    };
    for _ in 0..STARS {
        let star = spawn.star();
        layers.push(Layer::Background, star);
    }
    for _ in 0..FIRST_SHIPS {
        let ship = spawn.ship();
        layers.push(Layer::Actors, ship);
    }
    // The background is drawn, never updated.
    layers.set_enabled(Layer::Background, false);

    println!(
        "frame  background  actors  bullets  particles  explosions  refused  drawn   (particle cap {PARTICLE_CAP})"
    );
    let mut totals = Totals::default();
    for frame in 1..=frames {
        let mut explosions = 0;
        let mut refused = 0;
        // The update pass: one cursor walks the enabled layers in order
        // (actors, bullets, particles).
        let mut cursor = layers.cursor();
        while let Some(mut e) = cursor.next() {
            // Expired entities are never yielded, so `life` is at least 1.
            e.life -= 1;
            e.pos[0] += e.vel[0];
            e.pos[1] += e.vel[1];
            match e.kind {
                Kind::Ship => {
                    if spawn.rng.below(4) == 0 {
                        // A later layer: this pass reaches the bullet and
                        // moves it already.
                        let bullet = spawn.bullet(&e);
                        e.push_to(Layer::Bullets, bullet);
                    }
                    if spawn.rng.below(16) == 0 {
                        // The layer being walked: also reached later in
                        // this pass.
                        let drone = spawn.drone(&e);
                        e.push(drone);
                    }
                }
                Kind::Bullet => {
                    if !(0..ARENA).contains(&e.pos[0]) || !(0..ARENA).contains(&e.pos[1]) {
                        e.life = 0;
                    }
                }
                Kind::Drone | Kind::Spark | Kind::Star => {}
            }
            if e.life == 0 {
                // Dies: the predicate removes it when the cursor moves on.
                // Its explosion goes to the (later, bounded) particle layer.
                let sparks = spawn.explosion(&e);
                if !sparks.is_empty() {
                    explosions += 1;
                }
                for spark in sparks {
                    match e.try_push_to(Layer::Particles, spark) {
                        Ok(()) => totals.sparks += 1,
                        // The cap is reached; the spark comes back and is dropped.
                        Err(_full) => refused += 1,
                    }
                }
            }
        }
        // Dropping the cursor completes the pass.
        drop(cursor);

        if frame % 2 == 0 {
            let ship = spawn.ship();
            layers.push(Layer::Actors, ship);
        }
        totals.explosions += explosions;
        totals.refused += refused;

        // From half-way on, a "low detail" setting: particles still live
        // and die, but the draw pass skips them.
        layers.set_visible(Layer::Particles, frame <= frames / 2);
        let drawn = layers.iter_visible().count();

        let particles = layers.layer(Layer::Particles);
        assert!(particles.len() <= PARTICLE_CAP);
        assert!(particles.capacity() <= PARTICLE_CAP);
        let [bg, actors, bullets, sparks] = Layer::ALL.map(|l| layers.layer(l).len());
        println!(
            "{frame:5}  {bg:10}  {actors:6}  {bullets:7}  {sparks:9}  {explosions:10}  {refused:7}  {drawn:5}"
        );
    }

    // A checksum of what is left, so runs can be compared.
    let checksum = Layer::ALL
        .iter()
        .flat_map(|&l| layers.layer(l).iter())
        .fold(0u64, |acc, e| {
            acc.wrapping_mul(31).wrapping_add(
                u64::from(e.id) ^ ((e.pos[0] as u64) << 20) ^ ((e.pos[1] as u64) << 40),
            )
        });
    println!(
        "{frames} frames: {} explosions, {} sparks spawned, {} refused by the cap; {} entities left, checksum {checksum:016x}",
        totals.explosions,
        totals.sparks,
        totals.refused,
        layers.len()
    );
}

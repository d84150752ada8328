//! A bullet-hell frame loop on one [`Layers`] and one pass per frame:
//! no `Rc`, no `RefCell`, no second list.
//!
//! * Four layers keyed by `Layer`: the player's guns, enemies, bullets, and
//!   sparks. Sparks are a **bounded** layer (`SPARK_CAP`): a full layer
//!   hands the spark back (`try_push_to`), which is counted as refused.
//! * Every layer is built in one expression by the [`Builder`], with the
//!   zero-sized `Expired` predicate from [`remove_when!`], so the world's
//!   type is written in a struct field.
//! * **Cross-layer pushes** during the pass: guns fire into the (later)
//!   bullet layer, and those bullets move in the same frame; an enemy that
//!   dies explodes into the (later) spark layer; a spark "portal" sends a new
//!   enemy into the (earlier) enemy layer, which the next frame updates.
//! * **Splitting bullets**: a bullet that reaches its split age is taken
//!   out and replaced by two children, pushed into its own layer and moved
//!   later in this same pass.
//! * **Loot via the removal sink**: the pass hands every removed entity
//!   (expired, or removed by the loop) to a closure that borrows the frame's
//!   local state: a second collection of loot (`ReadWriteCollection<Loot>`,
//!   itself auto-expiring) and the frame's counters.
//!
//! One line per frame: what each layer holds after the frame, the loot on
//! the ground, and the frame's splits, kills, explosions and refused
//! sparks. The run is deterministic.
//!
//! ```text
//! cargo run --release --example bullet_hell          # 20 frames
//! cargo run --release --example bullet_hell -- 200   # 200 frames
//! ```

use read_write_collection::{layer_keys, remove_when, Builder, Layers, ReadWriteCollection};

const DEFAULT_FRAMES: u32 = 20;
const SPARK_CAP: usize = 24;
const ARENA: i32 = 400;

layer_keys! {
    /// The layers, in update and draw order.
    enum Layer { Guns, Enemies, Bullets, Sparks }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Gun,
    Enemy { hp: i32 },
    Bullet { generation: u8, age: u8 },
    Spark { portal: bool },
}

#[derive(Clone, Debug)]
struct Entity {
    kind: Kind,
    pos: [i32; 2],
    vel: [i32; 2],
    /// Frames left; 0 means expired (removed by the predicate).
    life: u32,
}

remove_when! {
    /// The predicate every layer shares: out of life.
    struct Expired for Entity: |e| e.life == 0
}

/// Loot dropped by a dead enemy; it lies on the ground for a while.
#[derive(Debug)]
struct Loot {
    value: u32,
    ttl: u32,
}

remove_when! {
    /// Loot nobody picked up.
    struct Gone for Loot: |l| l.ttl == 0
}

/// The game state, with its types written out: no boxing, no closures.
struct World {
    layers: Layers<Entity, Layer, Expired>,
    loot: ReadWriteCollection<Loot, Gone>,
}

/// A small deterministic generator (xorshift32).
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

fn entity(kind: Kind, pos: [i32; 2], vel: [i32; 2], life: u32) -> Entity {
    Entity {
        kind,
        pos,
        vel,
        life,
    }
}

/// What one frame did.
#[derive(Default)]
struct Frame {
    splits: u32,
    kills: u32,
    explosions: u32,
    refused_sparks: u32,
    portals: u32,
}

fn main() {
    let frames: u32 = match std::env::args().nth(1) {
        None => DEFAULT_FRAMES,
        Some(arg) => arg.parse().unwrap_or_else(|_| {
            eprintln!("usage: bullet_hell [FRAMES]   (default {DEFAULT_FRAMES})");
            std::process::exit(2)
        }),
    };

    let layer = Builder::new().capacity(64).policy(Expired);
    let mut world = World {
        layers: Layers::from_collections([
            layer.clone().build(),
            layer.clone().build(),
            layer.clone().unordered().build(), // bullets: order does not matter
            Builder::new().bounded(SPARK_CAP).policy(Expired).build(),
        ]),
        loot: Builder::new().capacity(32).policy(Gone).build(),
    };
    let mut rng = Rng(0x9e37_79b9);
    for x in [100, 200, 300] {
        world
            .layers
            .push(Layer::Guns, entity(Kind::Gun, [x, 0], [0, 0], u32::MAX));
    }
    for _ in 0..10 {
        let pos = [rng.between(0, ARENA), ARENA];
        let e = entity(Kind::Enemy { hp: 3 }, pos, [0, -4], 200);
        world.layers.push(Layer::Enemies, e);
    }

    println!(
        "frame  guns  enemies  bullets  sparks  loot | splits  kills  explosions  refused  portals"
    );
    let mut picked_up = 0u32;
    for frame in 1..=frames {
        let mut stats = Frame::default();
        let mut dropped_loot = 0u32;
        {
            // The sink borrows the loot collection and the counters for
            // this one pass.
            let loot = &mut world.loot;
            let sink = |dead: Entity| {
                // Expired bullets and sparks, escaped enemies: gone. Killed
                // enemies: loot.
                if let Kind::Enemy { hp } = dead.kind {
                    if hp > 0 {
                        return;
                    }
                    loot.push(Loot {
                        value: 10 + (dead.pos[0] as u32 % 7),
                        ttl: 5,
                    });
                    dropped_loot += 1;
                }
            };
            let mut cursor = world.layers.cursor_with_sink(sink);
            while let Some(mut e) = cursor.next() {
                e.life -= 1;
                e.pos[0] += e.vel[0];
                e.pos[1] += e.vel[1];
                match e.kind {
                    Kind::Gun => {
                        if frame % 3 == 0 {
                            // A later layer: this bullet moves in this frame.
                            let vel = [rng.between(-3, 4), 12];
                            let bullet = Kind::Bullet {
                                generation: 0,
                                age: 0,
                            };
                            let at = e.pos;
                            e.push_to(Layer::Bullets, entity(bullet, at, vel, 16));
                        }
                    }
                    Kind::Enemy { ref mut hp } => {
                        // Hit by something this frame (a stand-in for
                        // collision against the bullet layer).
                        if rng.below(3) == 0 {
                            *hp -= 1;
                        }
                        if *hp <= 0 {
                            stats.kills += 1;
                            stats.explosions += 1;
                            let at = e.pos;
                            for _ in 0..16 {
                                let vel = [rng.between(-9, 10), rng.between(-9, 10)];
                                let portal = rng.below(20) == 0;
                                let spark = entity(Kind::Spark { portal }, at, vel, 4);
                                // The spark layer is bounded: a full layer
                                // hands the spark back.
                                if e.try_push_to(Layer::Sparks, spark).is_err() {
                                    stats.refused_sparks += 1;
                                }
                            }
                            e.remove_to_sink(); // into the sink: loot
                        } else if !(0..=ARENA).contains(&e.pos[1]) {
                            e.life = 0; // escaped: expires (the sink sees it, no loot)
                        }
                    }
                    Kind::Bullet { generation, age } => {
                        let age = age + 1;
                        if age == 4 && generation < 2 {
                            // Split: the bullet leaves, two children take
                            // its place in this layer and move this frame.
                            let parent = e.take();
                            stats.splits += 1;
                            for dx in [-3, 3] {
                                let child = Kind::Bullet {
                                    generation: generation + 1,
                                    age: 0,
                                };
                                let vel = [parent.vel[0] + dx, parent.vel[1]];
                                cursor.push(entity(child, parent.pos, vel, parent.life));
                            }
                        } else {
                            e.kind = Kind::Bullet { generation, age };
                            if !(0..=ARENA).contains(&e.pos[1]) {
                                e.life = 0;
                            }
                        }
                    }
                    Kind::Spark { portal } => {
                        if portal && e.life == 1 {
                            // An earlier layer: the enemy arrives next frame.
                            stats.portals += 1;
                            let at = e.pos;
                            let enemy = entity(Kind::Enemy { hp: 2 }, at, [0, -4], 200);
                            e.push_to(Layer::Enemies, enemy);
                        }
                    }
                }
            }
        }

        // Loot is an ordinary collection again: it ages and is picked up.
        world.loot.traverse(|mut l| {
            l.ttl -= 1;
            if l.value % 3 == 0 {
                picked_up += l.remove().value;
            }
        });

        let sparks = world.layers.layer(Layer::Sparks);
        assert!(sparks.len() <= SPARK_CAP && sparks.capacity() <= SPARK_CAP);
        let [guns, enemies, bullets, sparks] = Layer::ALL.map(|l| world.layers.layer(l).len());
        let loot = world.loot.len();
        println!(
            "{frame:5}  {guns:4}  {enemies:7}  {bullets:7}  {sparks:6}  {loot:4} | {:6}  {:5}  {:10}  {:7}  {:7}",
            stats.splits, stats.kills, stats.explosions, stats.refused_sparks, stats.portals
        );
        assert_eq!(
            dropped_loot, stats.kills,
            "every kill dropped loot through the sink"
        );
    }
    println!(
        "{frames} frames: {picked_up} gold picked up, {} entities left",
        world.layers.len()
    );
}

//! Homing missiles that follow their targets by key while the targets
//! die and split in the same pass.
//!
//! One `KeyedCollection` holds enemies and missiles, in spawn order. Each
//! frame is one pass: a missile looks its target up by key
//! (`KeyedEntry::get`), steers toward it, and on contact damages it
//! (`pair_mut`) and leaves; an enemy whose health runs out splits into two
//! smaller ones, pushed into the same pass, or dies. A target that died
//! makes its key stale, so `get` answers `None` and the missile flies on
//! until its fuel runs out. Every key stays valid while elements around it
//! come and go.
//!
//! `cargo run --example homing`

use read_write_collection::keyed::DefaultKey;
use read_write_collection::KeyedCollection;

#[derive(Debug, Clone, Copy)]
enum Kind {
    Enemy {
        hp: i32,
        size: u32,
    },
    /// `target` is `None` once the target is gone.
    Missile {
        target: Option<DefaultKey>,
        fuel: u32,
    },
}

#[derive(Debug, Clone, Copy)]
struct Thing {
    pos: [f32; 2],
    vel: [f32; 2],
    kind: Kind,
}

/// A small deterministic generator (no dependency).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }

    fn coord(&mut self) -> f32 {
        (self.next() % 200) as f32 - 100.0
    }
}

fn enemy(pos: [f32; 2], vel: [f32; 2], size: u32) -> Thing {
    Thing {
        pos,
        vel,
        kind: Kind::Enemy {
            hp: 2 * size as i32,
            size,
        },
    }
}

#[derive(Default, Debug)]
struct Tally {
    hits: u32,
    splits: u32,
    kills: u32,
    lost_targets: u32,
    out_of_fuel: u32,
}

fn main() {
    let mut rng = Lcg(7);
    let mut world: KeyedCollection<Thing> = KeyedCollection::new();
    for _ in 0..12 {
        let (pos, vel) = ([rng.coord(), rng.coord()], [0.5, -0.25]);
        world.push(enemy(pos, vel, 3));
    }
    let mut tally = Tally::default();
    for frame in 0..400 {
        // A launcher at the origin fires at an enemy every fourth frame.
        if frame % 4 == 0 {
            let enemies: Vec<DefaultKey> = world
                .iter()
                .filter(|(_, t)| matches!(t.kind, Kind::Enemy { .. }))
                .map(|(k, _)| k)
                .collect();
            if let Some(&target) = enemies.get(rng.next() as usize % enemies.len().max(1)) {
                world.push(Thing {
                    pos: [0.0, 0.0],
                    vel: [0.0, 0.0],
                    kind: Kind::Missile {
                        target: Some(target),
                        fuel: 120,
                    },
                });
            }
        }
        world.traverse(|mut e| {
            let Thing { pos, kind, .. } = *e;
            match kind {
                Kind::Missile { target, fuel } => {
                    if fuel == 0 {
                        tally.out_of_fuel += 1;
                        e.remove();
                        return;
                    }
                    let goal = target.and_then(|k| e.get(k)).map(|t| t.pos);
                    let (Some(target), Some(goal)) = (target, goal) else {
                        // The target died: its key is stale. Fly on.
                        if target.is_some() {
                            tally.lost_targets += 1;
                        }
                        let v = e.vel;
                        e.pos = [pos[0] + v[0], pos[1] + v[1]];
                        e.kind = Kind::Missile {
                            target: None,
                            fuel: fuel - 1,
                        };
                        return;
                    };
                    let d = [goal[0] - pos[0], goal[1] - pos[1]];
                    let dist = (d[0] * d[0] + d[1] * d[1]).sqrt();
                    if dist < 2.0 {
                        // Contact: damage the target, and leave.
                        let (_, target) = e.pair_mut(target).expect("looked up above");
                        if let Kind::Enemy { hp, .. } = &mut target.kind {
                            *hp -= 2;
                        }
                        tally.hits += 1;
                        e.remove();
                        return;
                    }
                    let speed = 3.0;
                    e.vel = [d[0] / dist * speed, d[1] / dist * speed];
                    e.pos = [pos[0] + e.vel[0], pos[1] + e.vel[1]];
                    e.kind = Kind::Missile {
                        target: Some(target),
                        fuel: fuel - 1,
                    };
                }
                Kind::Enemy { hp, size } => {
                    if hp <= 0 {
                        if size > 1 {
                            // Two smaller ones, handled later in this pass.
                            let v = e.vel;
                            e.push(enemy(pos, [v[1], -v[0]], size - 1));
                            e.push(enemy(pos, [-v[1], v[0]], size - 1));
                            tally.splits += 1;
                        } else {
                            tally.kills += 1;
                        }
                        e.remove();
                        return;
                    }
                    let v = e.vel;
                    e.pos = [pos[0] + v[0], pos[1] + v[1]];
                }
            }
        });
    }
    let enemies = world
        .values()
        .filter(|t| matches!(t.kind, Kind::Enemy { .. }))
        .count();
    println!("{tally:?}");
    println!(
        "after 400 frames: {} things, {enemies} enemies, {} missiles in flight",
        world.len(),
        world.len() - enemies
    );
    // Every key in the collection still names its own element.
    for (i, (key, thing)) in world.iter().enumerate() {
        assert_eq!(world.index_of(key), Some(i));
        assert!(std::ptr::eq(&world[key], thing));
    }
    assert!(tally.hits > 0 && tally.splits > 0 && tally.kills > 0);
}

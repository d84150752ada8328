use read_write_collection::parallel::ParMode;
use read_write_collection::ReadWriteCollection;
use std::hint::black_box;

#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
struct Entity { pos: [f32; 2], vel: [f32; 2], id: u32, life: u32, seed: u64 }
const SPAWNS: u32 = 1 << 30;
const CHILD: u32 = 1 << 31;
fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}
#[derive(Clone, Copy)]
struct Scenario { rounds: u32, churn: bool, dt: f32 }
enum Step { Keep, Expire, Spawn(Entity) }
#[inline(always)]
fn step<const R: u32>(e: &mut Entity, s: &Scenario) -> Step {
    e.pos[0] += e.vel[0] * s.dt;
    e.pos[1] += e.vel[1] * s.dt;
    if R > 0 { let mut x = e.seed; for _ in 0..R { x = splitmix(x); } e.seed = x; let _ = s.rounds; }

    e.life -= 1;
    if e.life == 0 { Step::Expire } else if e.id & SPAWNS != 0 {
        let mut c = *e; c.id = (e.id & !SPAWNS) | CHILD; c.life = 100; c.vel = [-e.vel[0], -e.vel[1]]; Step::Spawn(c)
    } else { Step::Keep }
}
fn population(n: usize) -> Vec<Entity> {
    (0..n as u32).map(|id| {
        let h = splitmix(u64::from(id));
        let expire = h % 100 < 10;
        let spawn = !expire && (h >> 32) % 100 < 5;
        Entity { pos: [id as f32, (h % 1000) as f32], vel: [((h >> 8) % 7) as f32 - 3.0, ((h >> 16) % 5) as f32 - 2.0],
            id: if spawn { id | SPAWNS } else { id }, life: if expire { 1 } else { 2 + ((h >> 40) % 1000) as u32 }, seed: h }
    }).collect()
}
#[inline(never)]
fn traverse_pass(c: &mut ReadWriteCollection<Entity>, s: Scenario) {
    c.traverse(|mut e| match step::<4>(&mut e, &s) { Step::Keep => {} Step::Expire => { e.remove(); } Step::Spawn(child) => e.push(child) });
}
#[inline(never)]
fn par_pass_with(c: &mut ReadWriteCollection<Entity>, s: Scenario, mode: ParMode) {
    let st = c.par_traverse_with(mode, |mut e| match step::<4>(&mut e, &s) { Step::Keep => {} Step::Expire => { e.remove(); } Step::Spawn(child) => e.push(child) });
    if std::env::var_os("V").is_some() { eprintln!("{st:?}"); }
}

fn main() {
    let which = std::env::args().nth(1).unwrap();
    let n: usize = std::env::args().nth(2).map_or(10_000, |s| s.parse().unwrap());
    let s = Scenario { rounds: 0, churn: true, dt: std::env::args().count() as f32 - 2.0 };
    let base = population(n);
    let mut c: ReadWriteCollection<Entity> = ReadWriteCollection::with_capacity(n + n / 10 + 16);
    let reps = 20_000_000 / n;
    let mut total = std::time::Duration::ZERO;
    for _ in 0..reps {
        c.clear();
        c.extend(base.iter().copied());
        let t = std::time::Instant::now();
        match which.as_str() {
            "t" => traverse_pass(black_box(&mut c), s),
            "a" => par_pass_with(black_box(&mut c), s, ParMode::Auto),
            "p" => par_pass_with(black_box(&mut c), s, ParMode::Parallel),
            _ => par_pass_with(black_box(&mut c), s, ParMode::Serial),
        }
        total += t.elapsed();
        black_box(&c);
    }
    eprintln!("{which} {n}: {:.3} ns/el", total.as_secs_f64() * 1e9 / (reps * n) as f64);
}

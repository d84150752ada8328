//! A crowd simulation on every core: each agent walks, ages, thinks (a
//! chunk of arithmetic standing in for path finding), dies when its time
//! is up, and sometimes splits into two. The same frames run with
//! `traverse` (one core) and `par_traverse` (rayon's pool), and the two
//! crowds are compared after every frame: they must be identical.
//!
//! `cargo run --release --features rayon --example par_crowd -- [agents] [frames]`

use std::time::{Duration, Instant};

use read_write_collection::ReadWriteCollection;

#[derive(Clone, Copy, Debug, PartialEq)]
struct Agent {
    pos: [f32; 2],
    heading: f32,
    life: u32,
    mind: u64,
}

fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// One agent's frame. Returns `None` to keep it, `Some(None)` when it
/// dies, `Some(Some(child))` when it splits.
fn think(a: &mut Agent) -> Option<Option<Agent>> {
    let mut m = a.mind;
    for _ in 0..16 {
        m = mix(m); // "path finding"
    }
    a.mind = m;
    a.heading += ((m % 64) as f32 - 31.5) * 0.001;
    a.pos[0] += a.heading.cos();
    a.pos[1] += a.heading.sin();
    a.life -= 1;
    if a.life == 0 {
        Some(None)
    } else if m % 50 == 0 {
        let mut child = *a;
        child.life = 30 + (m >> 8) as u32 % 60;
        child.mind = mix(m ^ 1);
        Some(Some(child))
    } else {
        None
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let agents: usize = args
        .next()
        .map_or(1_000_000, |s| s.parse().expect("agents"));
    let frames: usize = args.next().map_or(20, |s| s.parse().expect("frames"));
    let crowd: ReadWriteCollection<Agent> = (0..agents as u64)
        .map(|i| Agent {
            pos: [0.0; 2],
            heading: (i % 628) as f32 * 0.01,
            life: 1 + (mix(i) % 90) as u32,
            mind: mix(i),
        })
        .collect();
    let mut serial = crowd.clone();
    let mut parallel = crowd;
    let (mut t_serial, mut t_parallel) = (Duration::ZERO, Duration::ZERO);
    for frame in 0..frames {
        let t = Instant::now();
        serial.traverse(|mut a| match think(&mut a) {
            None => {}
            Some(None) => drop(a.remove()),
            Some(Some(child)) => a.push(child),
        });
        t_serial += t.elapsed();
        let t = Instant::now();
        parallel.par_traverse(|mut a| match think(&mut a) {
            None => {}
            Some(None) => drop(a.remove()),
            Some(Some(child)) => a.push(child),
        });
        t_parallel += t.elapsed();
        assert_eq!(serial, parallel, "frame {frame}: the crowds differ");
        if frame % 5 == 0 || frame + 1 == frames {
            println!("frame {frame:3}: {} agents", parallel.len());
        }
    }
    let per = |d: Duration| d.as_secs_f64() * 1e3 / frames as f64;
    println!(
        "{} threads: traverse {:.2} ms/frame, par_traverse {:.2} ms/frame ({:.2}x faster); crowds identical every frame",
        rayon::current_num_threads(),
        per(t_serial),
        per(t_parallel),
        per(t_serial) / per(t_parallel)
    );
}

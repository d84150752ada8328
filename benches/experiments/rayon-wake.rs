use rayon::prelude::*;
use std::time::{Duration, Instant};
fn spin(d: Duration) { let s = Instant::now(); while s.elapsed() < d { std::hint::spin_loop(); } }
fn main() {
    let work = Duration::from_micros(200);
    for idle_us in [0u64, 20, 100, 1000, 10000] {
        let mut over = Vec::new();
        let mut over_scope = Vec::new();
        for _ in 0..41 {
            // idle: the main thread spins (as a serial pass would), pool idle
            spin(Duration::from_micros(idle_us));
            let t = Instant::now();
            (0..2usize).into_par_iter().for_each(|_| spin(work));
            over.push(t.elapsed().as_secs_f64() * 1e6 - 200.0);
            spin(Duration::from_micros(idle_us));
            let t = Instant::now();
            rayon::in_place_scope(|s| { s.spawn(|_| spin(work)); spin(work); });
            over_scope.push(t.elapsed().as_secs_f64() * 1e6 - 200.0);
        }
        over.sort_by(f64::total_cmp); over_scope.sort_by(f64::total_cmp);
        println!("idle {idle_us:>6} us: for_each overhead median {:.1} us p90 {:.1} | in_place_scope median {:.1} p90 {:.1}",
            over[20], over[36], over_scope[20], over_scope[36]);
    }
}

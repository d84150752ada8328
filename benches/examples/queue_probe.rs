//! A standalone look at one producer shape, outside the bench's
//! alternating rounds: `threads` threads push 1M `u64` each through a
//! handle of their own while the owner commits, reads and clears in a
//! loop (yielding when a commit found nothing); then the same with
//! crossbeam-channel (a sender per thread, `try_iter` to drain). Five
//! rounds, each printing ns per push, the owner's commits (or drains) and
//! the values each took on average, and the ratio.
//!
//! ```text
//! cargo run --release -p read-write-collection-benches --example queue_probe [threads] [bound]
//! ```
//!
//! `bound` 0 (the default) is unbounded; otherwise both queues are
//! bounded to it. Set `REUSE=1` to keep one collection across the rounds.
//! Timings mean something only while nothing else runs on the machine.

use std::time::Instant;

use read_write_collection::BufferedCollection;

/// Values each producer thread pushes per round.
const PUSHES: u64 = 1_000_000;

fn main() {
    let mut args = std::env::args().skip(1);
    let threads: u64 = args.next().map_or(2, |s| s.parse().expect("threads"));
    let bound: usize = args.next().map_or(0, |s| s.parse().expect("bound"));
    let new = || {
        if bound == 0 {
            BufferedCollection::new()
        } else {
            BufferedCollection::bounded(bound)
        }
    };
    let reuse = std::env::var_os("REUSE").is_some();
    let total = threads * PUSHES;
    let expected = total * (total - 1) / 2;
    let mut kept = new();
    for round in 0..5 {
        let mut fresh = new();
        let c = if reuse { &mut kept } else { &mut fresh };
        let (rwc, commits, sum) = rwc_round(c, threads);
        assert_eq!(sum, expected, "every value once");
        let (cb, drains, sum) = crossbeam_round(threads, bound);
        assert_eq!(sum, expected, "every value once");
        let per_push = |ns: u128| ns as f64 / total as f64;
        println!(
            "round {round}: read_write_collection {:.1} ns/push ({commits} commits, {:.0} values each) | \
             crossbeam {:.1} ns/push ({drains} drains, {:.0} values each) | ratio {:.2}",
            per_push(rwc),
            total as f64 / commits as f64,
            per_push(cb),
            total as f64 / drains as f64,
            rwc as f64 / cb as f64,
        );
    }
}

/// One round on `c`: wall time in ns, commits that took something, sum.
fn rwc_round(c: &mut BufferedCollection<u64>, threads: u64) -> (u128, u64, u64) {
    let total = threads * PUSHES;
    let start = Instant::now();
    let (mut commits, mut got, mut sum) = (0u64, 0u64, 0u64);
    std::thread::scope(|s| {
        for t in 0..threads {
            let p = c.producer();
            s.spawn(move || {
                for i in 0..PUSHES {
                    p.push(t * PUSHES + i).expect("collection alive");
                }
            });
        }
        while got < total {
            let n = c.commit();
            if n == 0 {
                std::thread::yield_now();
                continue;
            }
            commits += 1;
            got += n as u64;
            sum = c.iter().fold(sum, |a, &v| a.wrapping_add(v));
            c.clear_visible();
        }
    });
    (start.elapsed().as_nanos(), commits, sum)
}

/// The same round on a crossbeam channel (bounded when `bound` > 0).
fn crossbeam_round(threads: u64, bound: usize) -> (u128, u64, u64) {
    let total = threads * PUSHES;
    let (tx, rx) = if bound == 0 {
        crossbeam_channel::unbounded()
    } else {
        crossbeam_channel::bounded(bound)
    };
    let start = Instant::now();
    let (mut drains, mut got, mut sum) = (0u64, 0u64, 0u64);
    std::thread::scope(|s| {
        for t in 0..threads {
            let tx = tx.clone();
            s.spawn(move || {
                for i in 0..PUSHES {
                    tx.send(t * PUSHES + i).expect("receiver alive");
                }
            });
        }
        while got < total {
            let mut n = 0;
            for v in rx.try_iter() {
                sum = sum.wrapping_add(v);
                n += 1;
            }
            if n == 0 {
                std::thread::yield_now();
                continue;
            }
            drains += 1;
            got += n;
        }
    });
    (start.elapsed().as_nanos(), drains, sum)
}

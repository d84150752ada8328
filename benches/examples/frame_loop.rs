//! A service's frame loop on a bounded queue: a producer thread pushes
//! events with `push_timeout` as fast as the queue takes them; every frame
//! the owner commits, handles and removes every visible event, then does
//! 0.5 ms of other work. How many events a run of frames handles shows
//! whether the room a pass frees reaches the producer during that other
//! work (it should, with a cursor as with `traverse`).
//!
//! ```text
//! cargo run --release -p read-write-collection-benches --example frame_loop [frames] [rounds]
//! ```
//!
//! It alternates the two forms of the pass (`cursor()` and `traverse`) for
//! `rounds` rounds of `frames` frames each and prints the events handled
//! per round, the medians, and the cursor's median over `traverse`'s.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use read_write_collection::{BufferedCollection, PushTimeoutError};

/// The queue's bound.
const BOUND: usize = 64;
/// The owner's other work per frame.
const OTHER_WORK: Duration = Duration::from_micros(500);

#[derive(Clone, Copy, PartialEq)]
enum Pass {
    Cursor,
    Traverse,
}

/// Runs `frames` frames with the pass in the given form; returns the
/// events handled.
fn run(frames: usize, pass: Pass) -> u64 {
    let mut queue: BufferedCollection<u64> = BufferedCollection::bounded(BOUND);
    let producer = queue.producer();
    let stop = Arc::new(AtomicBool::new(false));
    let stopping = Arc::clone(&stop);
    let thread = std::thread::spawn(move || {
        let mut next = 0u64;
        while !stopping.load(Ordering::Relaxed) {
            match producer.push_timeout(next, Duration::from_millis(1)) {
                Ok(()) => next += 1,
                Err(PushTimeoutError::Timeout(_)) => {}
                Err(PushTimeoutError::Closed(_)) => break,
            }
        }
    });
    // Handles one event: they arrive in push order, 0, 1, 2, ...
    let mut handled = 0u64;
    let mut handle = |event: u64| {
        assert_eq!(event, handled, "events in push order");
        handled += 1;
    };
    for _ in 0..frames {
        queue.commit();
        match pass {
            Pass::Cursor => {
                let mut cursor = queue.cursor();
                while let Some(e) = cursor.next() {
                    handle(e.remove());
                }
            }
            Pass::Traverse => queue.traverse(|e| handle(e.remove())),
        }
        let start = Instant::now();
        while start.elapsed() < OTHER_WORK {
            std::hint::spin_loop();
        }
    }
    stop.store(true, Ordering::Relaxed);
    queue.close();
    thread.join().expect("the producer thread");
    handled
}

fn median(mut v: Vec<u64>) -> u64 {
    v.sort_unstable();
    v[v.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let frames: usize = args.next().map_or(200, |s| s.parse().expect("frames"));
    let rounds: usize = args.next().map_or(5, |s| s.parse().expect("rounds"));
    let (mut cursor, mut traverse) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        // Alternating which goes first, so load changes hit both alike.
        let order = if round % 2 == 0 {
            [Pass::Cursor, Pass::Traverse]
        } else {
            [Pass::Traverse, Pass::Cursor]
        };
        for pass in order {
            let n = run(frames, pass);
            match pass {
                Pass::Cursor => cursor.push(n),
                Pass::Traverse => traverse.push(n),
            }
        }
    }
    println!("bounded({BOUND}), {frames} frames, 0.5 ms of other work per frame");
    println!("cursor():   {cursor:?}");
    println!("traverse(): {traverse:?}");
    let (c, t) = (median(cursor), median(traverse));
    println!(
        "medians: cursor {c}, traverse {t}; cursor / traverse {:.3}",
        c as f64 / t as f64
    );
}

//! A service-style event pipeline on tokio: several tasks push requests,
//! the owner commits once per tick and handles the batch, and handling a
//! request may emit a follow-up that waits for the next tick. The queue is
//! bounded, so fast producers wait (asynchronously) instead of growing it,
//! and the shutdown loses nothing: the owner stops when every producer is
//! gone and everything they pushed, follow-ups included, is handled.
//!
//! ```text
//! cargo run --release -p read-write-collection-benches --example service [events_per_task]
//! ```
//!
//! It prints the events per second it reached and checks that every
//! request was handled exactly once, each task's in the order it sent them.

use std::time::Instant;

use read_write_collection::BufferedCollection;

const TASKS: u32 = 4;
/// Every this many requests, handling one emits a follow-up.
const FOLLOW_UP_EVERY: u32 = 64;

#[derive(Debug)]
enum Event {
    Request { task: u32, seq: u32 },
    FollowUp { task: u32, seq: u32 },
}

fn main() {
    let per_task: u32 = std::env::args()
        .nth(1)
        .map(|s| s.parse().expect("events per task: a number"))
        .unwrap_or(250_000);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .expect("a tokio runtime");

    let mut events: BufferedCollection<Event> = BufferedCollection::bounded(4096);
    let producers: Vec<_> = (0..TASKS).map(|_| events.producer()).collect();
    let start = Instant::now();
    let (handled, follow_ups, ticks, next_seq) = runtime.block_on(async move {
        let tasks: Vec<_> = producers
            .into_iter()
            .enumerate()
            .map(|(task, producer)| {
                tokio::spawn(async move {
                    for seq in 0..per_task {
                        let event = Event::Request {
                            task: task as u32,
                            seq,
                        };
                        producer
                            .push_async(event)
                            .await
                            .expect("the queue stays open");
                    }
                    // The producer is dropped here; when the last one is
                    // gone and everything is handled, the owner's loop ends.
                })
            })
            .collect();
        let mut next_seq = vec![0u32; TASKS as usize];
        let (mut handled, mut follow_ups, mut ticks) = (0u64, 0u64, 0u64);
        // One tick: commit what arrived, handle it all.
        while events.wait_pending_async().await.is_ok() {
            events.commit();
            ticks += 1;
            events.traverse(|e| match *e {
                Event::Request { task, seq } => {
                    assert_eq!(next_seq[task as usize], seq, "each task's order");
                    next_seq[task as usize] += 1;
                    handled += 1;
                    if seq % FOLLOW_UP_EVERY == 0 {
                        // The removal frees the room the follow-up takes
                        // in the bounded queue; it waits in the pending
                        // buffer for the next tick.
                        let (_, mut spawn) = e.remove_and_spawn();
                        spawn.push(Event::FollowUp { task, seq });
                    } else {
                        e.remove();
                    }
                }
                Event::FollowUp { task, seq } => {
                    // A follow-up comes after the request it answers.
                    assert!(seq < next_seq[task as usize]);
                    follow_ups += 1;
                    e.remove();
                }
            });
        }
        for task in tasks {
            task.await.expect("producer task");
        }
        (handled, follow_ups, ticks, next_seq)
    });
    let elapsed = start.elapsed();

    let expected_follow_ups = u64::from(TASKS) * u64::from(per_task.div_ceil(FOLLOW_UP_EVERY));
    assert_eq!(
        handled,
        u64::from(TASKS) * u64::from(per_task),
        "every request once"
    );
    assert_eq!(follow_ups, expected_follow_ups, "every follow-up once");
    assert!(next_seq.iter().all(|&n| n == per_task));
    println!(
        "{TASKS} tasks x {per_task} requests: {handled} handled and {follow_ups} follow-ups \
         in {ticks} ticks, {:.1} ms: {:.2} M events/s",
        elapsed.as_secs_f64() * 1e3,
        (handled + follow_ups) as f64 / elapsed.as_secs_f64() / 1e6
    );
}

//! An event queue with cascading events, fed by an input thread.
//!
//! Events handled in a frame may emit follow-up events; with a
//! [`BufferedCollection`] those wait in the pending buffer until the next
//! frame's `commit()`, so a cascade spreads over frames instead of running
//! away inside one. A second thread plays the input device: it pushes input
//! events through a [`Producer`](read_write_collection::Producer) while the
//! frames run.
//!
//! * a key press emits a `Score`; every fifth is a bomb that emits an
//!   `Explosion`, every seventh a `Timer`;
//! * an explosion of radius r scores r and emits two explosions of radius
//!   r - 1 for the next frame (1, 2, 4, 8 explosions over four frames);
//! * a timer stays in the queue, unremoved, until its frame comes, then
//!   scores;
//! * a score is counted and removed.
//!
//! ```text
//! cargo run --example event_queue
//! ```

use std::thread;
use std::time::Duration;

use read_write_collection::BufferedCollection;

const INPUTS: u32 = 60;

#[derive(Debug)]
enum Event {
    Key(u32),
    Explosion { radius: u32 },
    Timer { due: u64 },
    Score(u32),
}

#[derive(Default)]
struct Counts {
    handled: usize,
    kept: usize,
    emitted: usize,
    inputs: usize,
}

fn main() {
    let mut queue: BufferedCollection<Event> = BufferedCollection::new();
    let input = queue.producer();
    let device = thread::spawn(move || {
        for key in 0..INPUTS {
            input
                .push(Event::Key(key))
                .expect("the queue outlives the input thread");
            if key % 6 == 5 {
                thread::sleep(Duration::from_millis(3)); // bursts of input
            }
        }
    });

    let mut score = 0u64;
    let mut total = Counts::default();
    let mut committed_total = 0;
    let mut frame = 0u64;
    println!("frame  committed  inputs  handled  kept  emitted  pending  score");
    loop {
        let device_done = device.is_finished();
        let committed = queue.commit();
        committed_total += committed;
        if device_done && queue.is_empty() && queue.pending_len() == 0 {
            break;
        }

        let mut counts = Counts::default();
        let mut cursor = queue.cursor();
        while let Some(event) = cursor.next() {
            counts.handled += 1;
            if matches!(*event, Event::Timer { due } if due > frame) {
                counts.kept += 1; // not removed: stays visible until its frame
                continue;
            }
            match event.remove() {
                Event::Key(key) => {
                    counts.inputs += 1;
                    let follow = match key {
                        k if k % 5 == 4 => Event::Explosion { radius: 3 },
                        k if k % 7 == 6 => Event::Timer { due: frame + 5 },
                        _ => Event::Score(1),
                    };
                    cursor.push(follow); // pending: handled next frame
                    counts.emitted += 1;
                }
                Event::Explosion { radius } => {
                    score += u64::from(radius);
                    if radius > 0 {
                        for _ in 0..2 {
                            cursor.push(Event::Explosion { radius: radius - 1 });
                        }
                        counts.emitted += 2;
                    }
                }
                Event::Timer { .. } => {
                    cursor.push(Event::Score(10));
                    counts.emitted += 1;
                }
                Event::Score(points) => score += u64::from(points),
            }
        }
        drop(cursor);

        println!(
            "{frame:5}  {committed:9}  {:6}  {:7}  {:4}  {:7}  {:7}  {score:5}",
            counts.inputs,
            counts.handled,
            counts.kept,
            counts.emitted,
            queue.pending_len()
        );
        total.handled += counts.handled - counts.kept;
        total.emitted += counts.emitted;
        total.inputs += counts.inputs;
        frame += 1;
        thread::sleep(Duration::from_millis(1)); // the rest of the frame
        assert!(frame < 10_000, "the event loop did not settle");
    }
    device.join().expect("input thread");

    // Nothing lost, nothing handled twice: every input and every emitted
    // event was committed once and removed once.
    let bombs = (0..INPUTS).filter(|k| k % 5 == 4).count();
    let timers = (0..INPUTS).filter(|k| k % 5 != 4 && k % 7 == 6).count();
    assert_eq!(total.inputs, INPUTS as usize);
    assert_eq!(committed_total, total.inputs + total.emitted);
    assert_eq!(total.handled, committed_total);
    // Explosions score 3 + 2*2 + 4*1 + 8*0 = 11 each, timers 10, keys 1.
    let expected = 11 * bombs + 10 * timers + (INPUTS as usize - bombs - timers);
    assert_eq!(score, expected as u64);
    println!(
        "{frame} frames: {} inputs and {} follow-ups committed and handled exactly once, score {score}",
        total.inputs, total.emitted
    );
}

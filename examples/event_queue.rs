//! An event loop fed by input threads, with cascading events, backpressure
//! and a shutdown that loses nothing.
//!
//! * Three input devices (threads) push key events through
//!   [`Producer`](read_write_collection::Producer)s; one of them sends its
//!   keys in bursts with one `push_batch` per burst.
//! * The queue is [bounded](BufferedCollection::bounded): when the consumer
//!   falls behind, the devices' pushes wait for room instead of growing the
//!   queue without limit.
//! * The consumer sleeps in [`wait_pending`](BufferedCollection::wait_pending)
//!   until something arrives. Each frame it commits and handles what is
//!   visible. Handling an event may emit follow-ups (a bomb key explodes;
//!   an explosion of radius r scores r and emits two of radius r - 1);
//!   they wait in the pending buffer for the next frame, so a cascade
//!   spreads over frames instead of running away inside one.
//! * After enough inputs the consumer [`close`](BufferedCollection::close)s
//!   the queue: from then on the devices' pushes hand the event back, while
//!   everything pushed before the close, and every cascade, is still
//!   handled. `wait_pending` returns `Err(WaitError::Disconnected)` once
//!   nothing can arrive any more, which ends the loop (`WaitError::Full`
//!   would say that the bound is filled with kept events and a device
//!   waits for room only the consumer can free).
//!
//! The counts printed at the end prove it: every key a device created was
//! either handled once or handed back to it once.
//!
//! ```text
//! cargo run --example event_queue
//! ```

use std::thread;
use std::time::Duration;

use read_write_collection::{BufferedCollection, WaitError};

/// The consumer closes the queue after handling this many keys.
const QUIT_AFTER: usize = 150;
/// At most this many events queued at once (visible + pending).
const QUEUE_BOUND: usize = 32;

#[derive(Debug)]
enum Event {
    Key { device: usize, n: u32 },
    Explosion { radius: u32 },
    Score(u32),
}

/// What one device did.
#[derive(Debug, Default)]
struct Sent {
    accepted: u32,
    handed_back: u32,
}

fn device(id: usize, producer: read_write_collection::Producer<Event>) -> Sent {
    let mut sent = Sent::default();
    let mut n = 0;
    let mut burst = Vec::new();
    loop {
        if id == 2 {
            // Bursts of five keys, one lock per burst.
            burst.extend((n..n + 5).map(|n| Event::Key { device: id, n }));
            n += 5;
            let result = producer.push_batch(&mut burst);
            sent.accepted += 5 - burst.len() as u32;
            if result.is_err() {
                sent.handed_back += burst.len() as u32; // the rest came back
                burst.clear();
                return sent;
            }
        } else {
            match producer.push(Event::Key { device: id, n }) {
                Ok(()) => sent.accepted += 1,
                Err(closed) => {
                    let _event = closed.into_inner(); // ours again: not lost
                    sent.handed_back += 1;
                    return sent;
                }
            }
            n += 1;
        }
        thread::sleep(Duration::from_micros(200 * (id as u64 + 1)));
    }
}

fn main() {
    let mut queue: BufferedCollection<Event> = BufferedCollection::bounded(QUEUE_BOUND);
    let devices: Vec<_> = (0..3)
        .map(|id| {
            let producer = queue.producer();
            thread::spawn(move || device(id, producer))
        })
        .collect();

    let mut handled_keys = [0u32; 3];
    let (mut committed, mut handled, mut emitted, mut score) = (0usize, 0usize, 0usize, 0u64);
    let mut frame = 0u32;
    let mut closed_at = None;
    let mut peak = 0;
    println!("frame  committed  keys  follow-ups  pending  score");
    loop {
        match queue.wait_pending() {
            Ok(()) => {}
            // Every pass removes what it handles: the queue cannot stay full.
            Err(WaitError::Full) => unreachable!("every event is removed"),
            // Closed (or every device gone) and drained: shut down.
            Err(WaitError::Disconnected) => break,
        }
        let appended = queue.commit();
        committed += appended;
        peak = peak.max(queue.len() + queue.pending_len());
        assert!(peak <= QUEUE_BOUND);

        let (mut keys, mut follow_ups) = (0, 0);
        let mut cursor = queue.cursor();
        while let Some(event) = cursor.next() {
            match event.remove() {
                Event::Key { device, n } => {
                    keys += 1;
                    handled_keys[device] += 1;
                    // A bomb every seventh key; any other key scores.
                    let follow = if n % 7 == 6 {
                        Event::Explosion { radius: 3 }
                    } else {
                        Event::Score(1)
                    };
                    if cursor.try_push(follow).is_ok() {
                        follow_ups += 1;
                    } else {
                        score += 1; // queue full: score at once instead
                    }
                }
                Event::Explosion { radius } => {
                    score += u64::from(radius);
                    for _ in 0..2 * u32::from(radius > 0) {
                        match cursor.try_push(Event::Explosion { radius: radius - 1 }) {
                            Ok(()) => follow_ups += 1,
                            // Full: the blast fizzles, its score is kept.
                            Err(full) => {
                                if let Event::Explosion { radius } = full.into_inner() {
                                    score += u64::from(radius);
                                }
                            }
                        }
                    }
                }
                Event::Score(points) => score += u64::from(points),
            }
            handled += 1;
        }
        drop(cursor);
        emitted += follow_ups;

        let total_keys: u32 = handled_keys.iter().sum();
        if closed_at.is_none() && total_keys as usize >= QUIT_AFTER {
            queue.close(); // shutdown: nothing already pushed is lost
            closed_at = Some(frame);
        }
        if frame % 10 == 0 || closed_at == Some(frame) {
            println!(
                "{frame:5}  {appended:9}  {keys:4}  {follow_ups:10}  {:7}  {score:5}{}",
                queue.pending_len(),
                if closed_at == Some(frame) {
                    "  <- closed"
                } else {
                    ""
                }
            );
        }
        frame += 1;
        // The rest of the frame (rendering, say): the devices fill the
        // queue meanwhile, up to its bound, then wait.
        thread::sleep(Duration::from_millis(2));
    }

    let sent: Vec<Sent> = devices
        .into_iter()
        .map(|d| d.join().expect("device thread"))
        .collect();
    println!(
        "{frame} frames, closed after frame {}; at most {peak} events queued (bound {QUEUE_BOUND})",
        closed_at.unwrap_or(frame)
    );
    for (id, s) in sent.iter().enumerate() {
        println!(
            "device {id}: {} keys accepted, {} handled, {} handed back at shutdown",
            s.accepted, handled_keys[id], s.handed_back
        );
        assert_eq!(
            s.accepted, handled_keys[id],
            "every accepted key handled once"
        );
        assert!(
            s.handed_back > 0,
            "the close refused this device's next push"
        );
    }
    assert_eq!(committed, handled, "every committed event handled once");
    let keys: u32 = handled_keys.iter().sum();
    assert_eq!(committed, keys as usize + emitted);
    assert_eq!((queue.len(), queue.pending_len()), (0, 0));
    println!(
        "{committed} events committed and handled ({keys} keys, {emitted} follow-ups), 0 lost, score {score}"
    );
}

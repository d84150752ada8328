//! Real-thread stress tests for `BufferedCollection` producers: bounded
//! iteration counts (seconds natively, tiny under Miri), checking that
//! nothing is lost or duplicated and that each producer's order is kept.
#![cfg(not(loom))]

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering::SeqCst};
use std::thread;

use read_write_collection::BufferedCollection;

const PRODUCERS: usize = 4;
const PUSHES: u32 = if cfg!(miri) { 25 } else { 100_000 };

#[derive(Debug, PartialEq, Eq)]
enum Event {
    /// A producer's push: `seq` counts up from 0 per producer.
    Input { producer: usize, seq: u32 },
    /// Emitted by the owner while handling an input, for the next frame.
    Echo {
        producer: usize,
        seq: u32,
        frame: u32,
    },
    /// Stays visible for the whole run, updated every frame.
    Tick(u32),
}

/// Four producer threads push while the owner loops over frames: commit,
/// drain with a cursor, re-emit. Checks, in every frame: the kept element is first and was
/// updated once per frame; each producer's inputs arrive in order, exactly
/// once; the echoes emitted in a frame are handled in the next frame, in
/// emit order, before any producer input (local pending comes first).
#[test]
fn producers_against_a_frame_loop() {
    let mut queue = BufferedCollection::new();
    queue.push(Event::Tick(0));
    let finished = AtomicUsize::new(0);
    let mut next_seq = [0u32; PRODUCERS];
    let mut frames = 0u32;
    let mut inputs = 0usize;
    let mut echoes = 0usize;

    thread::scope(|s| {
        for producer in 0..PRODUCERS {
            let p = queue.producer();
            let finished = &finished;
            s.spawn(move || {
                for seq in 0..PUSHES {
                    p.push(Event::Input { producer, seq }).unwrap();
                    if seq % 256 == 0 {
                        thread::yield_now();
                    }
                }
                finished.fetch_add(1, SeqCst);
            });
        }

        let mut emitted: Vec<(usize, u32)> = Vec::new();
        loop {
            // Read before the commit: when every producer had finished by
            // then, this commit takes all their pushes.
            let all_done = finished.load(SeqCst) == PRODUCERS;
            let appended = queue.commit();
            let frame = frames;
            frames += 1;

            let expected_echoes = std::mem::take(&mut emitted);
            let mut handled_echoes = Vec::new();
            let mut seen_input = false;
            let mut first = true;
            let mut cursor = queue.cursor();
            while let Some(mut e) = cursor.next() {
                match *e {
                    Event::Tick(ref mut n) => {
                        assert!(first, "the kept element stays in front");
                        assert_eq!(*n, frame, "updated once per frame");
                        *n += 1;
                    }
                    Event::Input { producer, seq } => {
                        seen_input = true;
                        assert_eq!(seq, next_seq[producer], "producer {producer} order");
                        next_seq[producer] += 1;
                        inputs += 1;
                        e.remove();
                        if seq % 3 == 0 {
                            cursor.push(Event::Echo {
                                producer,
                                seq,
                                frame,
                            });
                            emitted.push((producer, seq));
                        }
                    }
                    Event::Echo {
                        producer,
                        seq,
                        frame: from,
                    } => {
                        assert!(!seen_input, "local pushes are committed first");
                        assert_eq!(from + 1, frame, "an echo waits exactly one frame");
                        handled_echoes.push((producer, seq));
                        echoes += 1;
                        e.remove();
                    }
                }
                first = false;
            }
            drop(cursor);
            assert_eq!(handled_echoes, expected_echoes, "frame {frame}");
            assert_eq!(queue.as_slice(), [Event::Tick(frame + 1)]);
            assert_eq!(queue.local_pending(), emitted_events(&emitted, frame));

            if all_done && emitted.is_empty() && queue.pending_len() == 0 {
                break;
            }
            if appended == 0 {
                thread::yield_now();
            }
        }
    });

    assert_eq!(next_seq, [PUSHES; PRODUCERS], "every input, exactly once");
    assert_eq!(inputs, PRODUCERS * PUSHES as usize);
    assert_eq!(echoes, PRODUCERS * PUSHES.div_ceil(3) as usize);
    assert_eq!(queue.as_slice(), [Event::Tick(frames)]);
    assert_eq!(queue.pending_len(), 0);
    println!("{inputs} inputs and {echoes} echoes in {frames} frames");
}

/// The echoes `emitted` in `frame`, as the pending buffer holds them.
fn emitted_events(emitted: &[(usize, u32)], frame: u32) -> Vec<Event> {
    emitted
        .iter()
        .map(|&(producer, seq)| Event::Echo {
            producer,
            seq,
            frame,
        })
        .collect()
}

/// An element that marks its own slot when dropped.
struct Marked<'a> {
    slot: &'a AtomicU8,
}

impl Drop for Marked<'_> {
    fn drop(&mut self) {
        self.slot.fetch_add(1, SeqCst);
    }
}

/// Producers push while the owner drains a few frames and then drops the
/// collection under them. Every element a producer created is dropped
/// exactly once: taken by the owner, dropped with the collection (visible
/// or still queued), or handed back to its producer; after the first
/// refused push every later push is refused too. (Each producer holds its
/// second half back until the drop, so every outcome occurs in every run.)
#[test]
fn producers_racing_with_the_collection_drop() {
    let total = PRODUCERS * PUSHES as usize;
    let slots: Vec<AtomicU8> = (0..total).map(|_| AtomicU8::new(0)).collect();
    let accepted = AtomicUsize::new(0);
    let start = AtomicBool::new(false);
    let mut created = [0usize; PRODUCERS];
    let mut handed_back = [0usize; PRODUCERS];
    let mut taken = 0usize;

    thread::scope(|s| {
        let mut queue = BufferedCollection::new();
        let handles: Vec<_> = (0..PRODUCERS)
            .map(|producer| {
                let p = queue.producer();
                let slots = &slots;
                let accepted = &accepted;
                let start = &start;
                s.spawn(move || {
                    while !start.load(SeqCst) {
                        thread::yield_now();
                    }
                    let mut made = 0;
                    let mut refused = 0;
                    for seq in 0..PUSHES as usize {
                        if seq == PUSHES as usize / 2 {
                            while !p.is_closed() {
                                thread::yield_now();
                            }
                        } else if seq % 64 == 0 {
                            thread::yield_now();
                        }
                        let slot = &slots[producer * PUSHES as usize + seq];
                        made += 1;
                        match p.push(Marked { slot }) {
                            Ok(()) => {
                                assert_eq!(refused, 0, "no push succeeds after a refusal");
                                accepted.fetch_add(1, SeqCst);
                            }
                            Err(closed) => {
                                assert!(p.is_closed());
                                let back = closed.into_inner();
                                assert_eq!(back.slot.load(SeqCst), 0);
                                drop(back);
                                refused += 1;
                            }
                        }
                    }
                    (made, refused)
                })
            })
            .collect();

        start.store(true, SeqCst);
        // Drain a few frames, then drop the collection mid-stream.
        while taken < total / 8 {
            queue.commit();
            let mut cursor = queue.cursor();
            while let Some(e) = cursor.next() {
                drop(e.remove());
                taken += 1;
            }
            drop(cursor);
            thread::yield_now();
        }
        queue.commit(); // some stay visible, some queued, at the drop
        drop(queue);

        for (producer, handle) in handles.into_iter().enumerate() {
            (created[producer], handed_back[producer]) = handle.join().unwrap();
        }
    });

    assert_eq!(created, [PUSHES as usize; PRODUCERS]);
    let refused: usize = handed_back.iter().sum();
    assert_eq!(accepted.load(SeqCst) + refused, total);
    assert!(taken >= total / 8 && taken <= accepted.load(SeqCst));
    assert!(refused >= total / 2, "every second half was refused");
    for (i, slot) in slots.iter().enumerate() {
        assert_eq!(slot.load(SeqCst), 1, "element {i} dropped exactly once");
    }
    println!(
        "taken {taken}, accepted {}, handed back {refused}",
        accepted.load(SeqCst)
    );
}

/// A small deterministic generator for the close points.
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// The lossless shutdown, many times over: four producers push numbered
/// events (one of them in batches) while the consumer handles frames and
/// closes the queue at a random point, then drains with `wait_pending`
/// until nothing can arrive. Every event ends up committed exactly once or
/// handed back to its producer exactly once, never both, never neither.
/// Odd iterations use a bounded queue, so producers also block on a full
/// queue and must be woken by the close.
#[test]
fn shutdown_with_close_loses_nothing() {
    const ITERATIONS: u64 = if cfg!(miri) { 3 } else { 500 };
    const EVENTS: u32 = if cfg!(miri) { 20 } else { 2_000 };
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let (mut committed_total, mut handed_back_total) = (0usize, 0usize);

    for iteration in 0..ITERATIONS {
        let bounded = iteration % 2 == 1;
        let mut queue = if bounded {
            BufferedCollection::bounded(64)
        } else {
            BufferedCollection::new()
        };
        let close_after = (xorshift(&mut rng) % (u64::from(EVENTS) * 2)) as usize;
        let mut committed: Vec<Vec<u32>> = vec![Vec::new(); PRODUCERS];

        let handed_back: Vec<Vec<u32>> = thread::scope(|s| {
            let handles: Vec<_> = (0..PRODUCERS)
                .map(|producer| {
                    let p = queue.producer();
                    s.spawn(move || {
                        let mut back = Vec::new();
                        if producer == PRODUCERS - 1 {
                            // Batches of 7 events.
                            let mut batch = Vec::with_capacity(7);
                            for start in (0..EVENTS).step_by(7) {
                                batch.extend(
                                    (start..EVENTS.min(start + 7)).map(|seq| (producer, seq)),
                                );
                                if p.push_batch(&mut batch).is_err() {
                                    back.extend(batch.drain(..).map(|(_, seq)| seq));
                                }
                                assert!(batch.is_empty());
                            }
                        } else {
                            for seq in 0..EVENTS {
                                if let Err(closed) = p.push((producer, seq)) {
                                    let (who, back_seq) = closed.into_inner();
                                    assert_eq!((who, back_seq), (producer, seq));
                                    back.push(seq);
                                }
                            }
                        }
                        back
                    })
                })
                .collect();

            let mut seen = 0usize;
            let mut closed = false;
            loop {
                if !closed && seen >= close_after {
                    queue.close();
                    closed = true;
                }
                // Before the close this returns `true` until every producer
                // is gone; after it, until the queue is drained.
                if queue.wait_pending().is_err() {
                    break;
                }
                queue.commit();
                queue.traverse(|e| {
                    let (producer, seq) = e.remove();
                    committed[producer].push(seq);
                    seen += 1;
                });
            }
            assert!(queue.is_empty() && queue.pending_len() == 0);
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });

        for producer in 0..PRODUCERS {
            let mine = &committed[producer];
            assert!(
                mine.windows(2).all(|w| w[0] < w[1]),
                "iteration {iteration}: producer {producer}'s order"
            );
            let mut all = mine.clone();
            all.extend(&handed_back[producer]);
            all.sort_unstable();
            assert_eq!(
                all,
                (0..EVENTS).collect::<Vec<_>>(),
                "iteration {iteration}: producer {producer}: every event once"
            );
            committed_total += mine.len();
            handed_back_total += handed_back[producer].len();
        }
    }
    println!(
        "{ITERATIONS} runs: {committed_total} events committed, {handed_back_total} handed back, 0 lost"
    );
    assert!(
        committed_total > 0 && handed_back_total > 0,
        "both outcomes occurred"
    );
}

/// Arrival order across handles on real threads: a token goes round four
/// threads, each with its own clone of the producer; the thread holding
/// the token pushes the token's number and then passes it on, so every
/// push happens before the next one, each through another handle. The
/// owner commits and drains meanwhile, at whatever moments: the drained
/// sequence is exactly the token order, over many rounds, unbounded and
/// bounded (where a push may wait for the room the owner frees).
#[test]
fn a_token_passed_round_four_threads_arrives_in_token_order() {
    const THREADS: usize = 4;
    let tokens: u32 = if cfg!(miri) { 40 } else { 40_000 };
    for bound in [None, Some(8)] {
        let mut queue = match bound {
            Some(max) => BufferedCollection::bounded(max),
            None => BufferedCollection::new(),
        };
        // Whose turn it is: the next token, held by thread `token % 4`.
        let turn = std::sync::atomic::AtomicU32::new(0);
        let mut drained: Vec<u32> = Vec::with_capacity(tokens as usize);
        thread::scope(|s| {
            for t in 0..THREADS {
                let producer = queue.producer();
                let turn = &turn;
                s.spawn(move || loop {
                    let token = turn.load(SeqCst);
                    if token >= tokens {
                        break;
                    }
                    if token as usize % THREADS != t {
                        // Not ours: let the holder run (two cores, five
                        // threads).
                        thread::yield_now();
                        continue;
                    }
                    producer.push(token).unwrap();
                    // The push returned before the next one starts.
                    turn.store(token + 1, SeqCst);
                });
            }
            while drained.len() < tokens as usize {
                if queue.commit() == 0 {
                    thread::yield_now();
                    continue;
                }
                // Through a pass, as an owner handles events (and, when
                // bounded, frees the room).
                queue.traverse(|e| drained.push(e.remove()));
            }
        });
        let expected: Vec<u32> = (0..tokens).collect();
        if drained != expected {
            let at = drained.iter().zip(&expected).position(|(a, b)| a != b);
            panic!("bound {bound:?}: token order broken at {at:?}");
        }
    }
}

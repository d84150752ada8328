//! Issue 3: the committed-buffer variant against the usual event queues.
//!
//! * `frame/{1k,100k}`: one frame of an event loop whose K events are all
//!   handled and removed, each emitting one follow-up for the next frame
//!   (so the load is stationary and no reset is needed between
//!   iterations). `buffered` = `commit()` + cursor that removes each event
//!   and pushes its follow-up to pending; `vec_deque` = pop the frame's K
//!   events from the front, push follow-ups at the back; `two_vecs` = drain
//!   the current `Vec`, push follow-ups into the next, swap. All three are
//!   checked once to hold the same events afterwards.
//! * `producers/2x100k`: two threads push 100k `u64` each, then the owner
//!   takes everything (`commit` / draining the receiver). `Producer` vs
//!   `std::sync::mpsc` vs `crossbeam-channel` (unbounded), same run; the
//!   time includes spawning the two scoped threads.
//!
//! `cargo bench --bench buffered`; quick: add `-- --warm-up-time 0.2 --measurement-time 0.5`.

#[cfg(not(any(loom, miri)))]
fn main() {
    imp::main();
}

#[cfg(any(loom, miri))]
fn main() {}

#[cfg(not(any(loom, miri)))]
mod imp {
    use std::collections::VecDeque;
    use std::hint::black_box;
    use std::mem;
    use std::sync::mpsc;
    use std::thread;

    use criterion::{Criterion, Throughput};
    use read_write_collection::BufferedCollection;

    /// A 24-byte event.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub(crate) struct Event {
        kind: u32,
        hops: u32,
        payload: [u64; 2],
    }

    /// Handles an event: returns a value folded into a checksum, and the
    /// follow-up event it emits.
    #[inline(always)]
    fn handle(e: &Event) -> (u64, Event) {
        let value = e.payload[0] ^ u64::from(e.kind);
        let next = Event {
            kind: (e.kind + 1) % 8,
            hops: e.hops + 1,
            payload: [e.payload[1], e.payload[0].wrapping_add(1)],
        };
        (value, next)
    }

    fn events(k: usize) -> Vec<Event> {
        (0..k as u64)
            .map(|i| Event {
                kind: (i % 8) as u32,
                hops: 0,
                payload: [i, i * 3],
            })
            .collect()
    }

    /// Commit, then handle and remove every visible event; follow-ups go
    /// to pending (the next frame).
    fn buffered_frame(c: &mut BufferedCollection<Event>) -> u64 {
        c.commit();
        let mut sum = 0u64;
        let mut cursor = c.cursor();
        while let Some(e) = cursor.next() {
            let event = e.remove();
            let (value, next) = handle(&event);
            sum = sum.wrapping_add(value);
            cursor.push(next);
        }
        sum
    }

    fn deque_frame(q: &mut VecDeque<Event>) -> u64 {
        let mut sum = 0u64;
        for _ in 0..q.len() {
            let event = q.pop_front().expect("counted");
            let (value, next) = handle(&event);
            sum = sum.wrapping_add(value);
            q.push_back(next);
        }
        sum
    }

    fn two_vecs_frame(current: &mut Vec<Event>, next: &mut Vec<Event>) -> u64 {
        let mut sum = 0u64;
        for event in current.drain(..) {
            let (value, follow) = handle(&event);
            sum = sum.wrapping_add(value);
            next.push(follow);
        }
        mem::swap(current, next);
        sum
    }

    fn frame_group(c: &mut Criterion, k: usize, label: &str) {
        let start = events(k);

        let mut buffered = BufferedCollection::with_capacity(k);
        buffered.extend(start.iter().copied()); // pending: the first commit shows them
        let mut deque: VecDeque<Event> = VecDeque::with_capacity(k);
        deque.extend(start.iter().copied());
        let mut current = start.clone();
        let mut next = Vec::with_capacity(k);

        // Same work, same result: one frame each, then compare the queues.
        let sums = [
            buffered_frame(&mut buffered),
            deque_frame(&mut deque),
            two_vecs_frame(&mut current, &mut next),
        ];
        assert!(
            sums.iter().all(|&s| s == sums[0]),
            "checksums differ: {sums:?}"
        );
        assert_eq!(buffered.len(), 0);
        assert_eq!(buffered.pending(), current.as_slice());
        assert!(deque.iter().eq(current.iter()));
        assert_eq!(current.len(), k);

        let mut group = c.benchmark_group(format!("frame/{label}"));
        group.throughput(Throughput::Elements(k as u64));
        group.bench_function("buffered", |b| {
            b.iter(|| black_box(buffered_frame(&mut buffered)))
        });
        group.bench_function("vec_deque", |b| {
            b.iter(|| black_box(deque_frame(&mut deque)))
        });
        group.bench_function("two_vecs", |b| {
            b.iter(|| black_box(two_vecs_frame(&mut current, &mut next)))
        });
        group.finish();
        assert_eq!(buffered.pending_len(), k);
        assert_eq!(deque.len(), k);
        assert_eq!(current.len(), k);
    }

    const PER_THREAD: u64 = 100_000;

    fn with_producer(c: &mut BufferedCollection<u64>) -> usize {
        let p = c.producer();
        thread::scope(|s| {
            for t in 0..2u64 {
                let p = p.clone();
                s.spawn(move || {
                    for i in 0..PER_THREAD {
                        p.push(t * PER_THREAD + i).expect("collection alive");
                    }
                });
            }
        });
        let n = c.commit();
        c.clear_visible();
        n
    }

    fn with_mpsc() -> usize {
        let (tx, rx) = mpsc::channel();
        thread::scope(|s| {
            for t in 0..2u64 {
                let tx = tx.clone();
                s.spawn(move || {
                    for i in 0..PER_THREAD {
                        tx.send(t * PER_THREAD + i).expect("receiver alive");
                    }
                });
            }
        });
        rx.try_iter().count()
    }

    fn with_crossbeam() -> usize {
        let (tx, rx) = crossbeam_channel::unbounded();
        thread::scope(|s| {
            for t in 0..2u64 {
                let tx = tx.clone();
                s.spawn(move || {
                    for i in 0..PER_THREAD {
                        tx.send(t * PER_THREAD + i).expect("receiver alive");
                    }
                });
            }
        });
        rx.try_iter().count()
    }

    fn producer_group(c: &mut Criterion) {
        let total = 2 * PER_THREAD as usize;
        let mut collection = BufferedCollection::new();
        assert_eq!(with_producer(&mut collection), total);
        assert_eq!(with_mpsc(), total);
        assert_eq!(with_crossbeam(), total);

        let mut group = c.benchmark_group("producers/2x100k");
        group.throughput(Throughput::Elements(total as u64));
        group.sample_size(30);
        group.bench_function("producer", |b| {
            b.iter(|| black_box(with_producer(&mut collection)))
        });
        group.bench_function("std_mpsc", |b| b.iter(|| black_box(with_mpsc())));
        group.bench_function("crossbeam", |b| b.iter(|| black_box(with_crossbeam())));
        group.finish();
    }

    pub(crate) fn main() {
        let benching = std::env::args().any(|a| a == "--bench");
        let mut c = Criterion::default().configure_from_args();
        frame_group(&mut c, 1_000, "1k");
        if benching {
            frame_group(&mut c, 100_000, "100k");
        }
        producer_group(&mut c);
        c.final_summary();
    }
}

//! The committed-buffer variant against the usual event queues.
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
//! * `frame10k`: push 10k events, commit, consume all (`BufferedCollection`
//!   unbounded and bounded) against `VecDeque` `push_back` / `pop_front`.
//!   `buffered` consumes with a removing traversal, `buffered_read_clear`
//!   reads by reference and clears. The unbounded frame allocates nothing
//!   once warm (`tests/alloc.rs`).
//! * `contended/2x100k`: two producer threads push while the owner keeps
//!   committing and consuming (`wait_pending` + `commit` + `clear_visible`)
//!   against crossbeam's unbounded channel (`send`; `recv` + `try_iter`).
//! * `batch/2x100k`: the same, pushes in batches of 64 (`push_batch`)
//!   against single pushes.
//! * `bounded/2x100k`: the same with a bound of 1024 (producers block when
//!   full) against crossbeam's bounded channel of 1024.
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
    use read_write_collection::{BufferedCollection, Producer};

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
        assert_eq!(buffered.local_pending(), current.as_slice());
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

    const FRAME: u64 = 10_000;

    /// Push `FRAME` events locally, commit, consume them all.
    fn push_commit_consume(c: &mut BufferedCollection<u64>) -> u64 {
        for i in 0..FRAME {
            c.push(i);
        }
        c.commit();
        let mut sum = 0u64;
        c.traverse(|e| sum = sum.wrapping_add(e.remove()));
        sum
    }

    /// The same frame, consumed by reference and then cleared.
    fn push_commit_read_clear(c: &mut BufferedCollection<u64>) -> u64 {
        for i in 0..FRAME {
            c.push(i);
        }
        c.commit();
        let sum = c.iter().fold(0u64, |a, &v| a.wrapping_add(v));
        c.clear_visible();
        sum
    }

    fn deque_push_pop(q: &mut VecDeque<u64>) -> u64 {
        for i in 0..FRAME {
            q.push_back(i);
        }
        let mut sum = 0u64;
        while let Some(v) = q.pop_front() {
            sum = sum.wrapping_add(v);
        }
        sum
    }

    fn frame10k_group(c: &mut Criterion) {
        let mut unbounded = BufferedCollection::new();
        let mut bounded = BufferedCollection::bounded(FRAME as usize);
        let mut deque = VecDeque::new();
        let expected = FRAME * (FRAME - 1) / 2;
        assert_eq!(push_commit_consume(&mut unbounded), expected);
        assert_eq!(push_commit_consume(&mut bounded), expected);
        assert_eq!(push_commit_read_clear(&mut unbounded), expected);
        assert_eq!(deque_push_pop(&mut deque), expected);

        let mut group = c.benchmark_group("frame10k");
        group.throughput(Throughput::Elements(FRAME));
        group.bench_function("buffered", |b| {
            b.iter(|| black_box(push_commit_consume(&mut unbounded)))
        });
        group.bench_function("buffered_read_clear", |b| {
            b.iter(|| black_box(push_commit_read_clear(&mut unbounded)))
        });
        group.bench_function("buffered_bounded", |b| {
            b.iter(|| black_box(push_commit_consume(&mut bounded)))
        });
        group.bench_function("vec_deque", |b| {
            b.iter(|| black_box(deque_push_pop(&mut deque)))
        });
        group.finish();
    }

    /// How the producer threads push their share.
    #[derive(Clone, Copy)]
    enum Pushes {
        Single,
        Batches(usize),
    }

    fn produce(p: &Producer<u64>, t: u64, how: Pushes) {
        match how {
            Pushes::Single => {
                for i in 0..PER_THREAD {
                    p.push(t * PER_THREAD + i).expect("collection alive");
                }
            }
            Pushes::Batches(n) => {
                let mut batch = Vec::with_capacity(n);
                for start in (0..PER_THREAD).step_by(n) {
                    batch.extend(
                        (start..PER_THREAD.min(start + n as u64)).map(|i| t * PER_THREAD + i),
                    );
                    p.push_batch(&mut batch).expect("collection alive");
                }
            }
        }
    }

    /// Two producer threads push while this thread commits and consumes
    /// until it has everything; returns the sum of what it consumed.
    fn contended(c: &mut BufferedCollection<u64>, how: Pushes) -> u64 {
        let total = 2 * PER_THREAD as usize;
        let mut got = 0;
        let mut sum = 0u64;
        thread::scope(|s| {
            for t in 0..2u64 {
                let p = c.producer();
                s.spawn(move || produce(&p, t, how));
            }
            while got < total {
                assert!(c.wait_pending(), "producers alive or values pending");
                got += c.commit();
                sum = c.iter().fold(sum, |a, &v| a.wrapping_add(v));
                c.clear_visible();
            }
        });
        sum
    }

    fn contended_crossbeam(
        tx: &crossbeam_channel::Sender<u64>,
        rx: &crossbeam_channel::Receiver<u64>,
    ) -> u64 {
        let total = 2 * PER_THREAD as usize;
        let mut got = 0;
        let mut sum = 0u64;
        thread::scope(|s| {
            for t in 0..2u64 {
                let tx = tx.clone();
                s.spawn(move || {
                    for i in 0..PER_THREAD {
                        tx.send(t * PER_THREAD + i).expect("receiver alive");
                    }
                });
            }
            while got < total {
                let v = rx.recv().expect("senders alive");
                sum = sum.wrapping_add(v);
                got += 1;
                for v in rx.try_iter() {
                    sum = sum.wrapping_add(v);
                    got += 1;
                }
            }
        });
        sum
    }

    fn contended_groups(c: &mut Criterion) {
        let total = 2 * PER_THREAD;
        let expected = total * (total - 1) / 2;
        let mut unbounded = BufferedCollection::new();
        let mut bounded = BufferedCollection::bounded(1024);
        let (tx, rx) = crossbeam_channel::unbounded();
        let (btx, brx) = crossbeam_channel::bounded(1024);
        assert_eq!(contended(&mut unbounded, Pushes::Single), expected);
        assert_eq!(contended(&mut unbounded, Pushes::Batches(64)), expected);
        assert_eq!(contended(&mut bounded, Pushes::Single), expected);
        assert_eq!(contended_crossbeam(&tx, &rx), expected);
        assert_eq!(contended_crossbeam(&btx, &brx), expected);

        let mut group = c.benchmark_group("contended/2x100k");
        group.throughput(Throughput::Elements(total));
        group.sample_size(20);
        group.bench_function("producer", |b| {
            b.iter(|| black_box(contended(&mut unbounded, Pushes::Single)))
        });
        group.bench_function("crossbeam", |b| {
            b.iter(|| black_box(contended_crossbeam(&tx, &rx)))
        });
        group.finish();

        let mut group = c.benchmark_group("batch/2x100k");
        group.throughput(Throughput::Elements(total));
        group.sample_size(20);
        group.bench_function("push_batch_64", |b| {
            b.iter(|| black_box(contended(&mut unbounded, Pushes::Batches(64))))
        });
        group.bench_function("push", |b| {
            b.iter(|| black_box(contended(&mut unbounded, Pushes::Single)))
        });
        group.finish();

        let mut group = c.benchmark_group("bounded/2x100k");
        group.throughput(Throughput::Elements(total));
        group.sample_size(20);
        group.bench_function("producer", |b| {
            b.iter(|| black_box(contended(&mut bounded, Pushes::Single)))
        });
        group.bench_function("crossbeam", |b| {
            b.iter(|| black_box(contended_crossbeam(&btx, &brx)))
        });
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
        frame10k_group(&mut c);
        contended_groups(&mut c);
        c.final_summary();
    }
}

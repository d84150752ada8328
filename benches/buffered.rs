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
//!
//! # Producer shapes
//!
//! What the producer redesign's targets are written against. Groups
//! `producers/{shape}/{N}t`; values are `u64`, pushed one at a time;
//! `Throughput::Elements` is a pass's pushes, all producers together
//! (N × M). A pass is timed from spawning the producers until the owner
//! holds every value (spawning and joining included: tens of microseconds
//! against millions of pushes). After every pass, untimed, the sum of what
//! the owner received must be `0 + 1 + … + (N·M − 1)`, and one such checked
//! pass of each method runs before anything of it is timed.
//!
//! * `producers/unbounded/{1,2,4}t`, contended with the owner spinning: N
//!   threads, each with its own `Producer` (`c.producer()` per thread),
//!   `push` M values each, while the owner thread loops `commit()` + read
//!   every value (a sum) + `clear_visible()`, never calling `wait_pending`.
//!   `read_write_collection` (`BufferedCollection::new()`) against
//!   `crossbeam` (`crossbeam_channel::unbounded`, a sender clone per
//!   thread, `send`; the owner drains with `try_iter`), `flume`
//!   (`flume::unbounded`, the same) and `std_mpsc`
//!   (`std::sync::mpsc::channel`, the same).
//! * `producers/bounded/{1,2,4}t`: the same shape with a bound of 1024,
//!   producers blocking while it is full: `read_write_collection`
//!   (`BufferedCollection::bounded(1024)`, `Producer::push`) against
//!   `crossbeam` (`crossbeam_channel::bounded(1024)`). This is where
//!   crossbeam's bounded(1024) channel is measured; the table puts it next
//!   to crossbeam's unbounded one.
//! * `producers/async/4t`: a tokio multi-thread runtime (one worker thread
//!   per core), 4 tasks pushing M values each; the owner is the `block_on`
//!   future (as the body of `#[tokio::main]`). `read_write_collection` and
//!   `read_write_collection_bounded` (bound 1024): `Producer::push_async`,
//!   the owner loops `wait_pending_async().await` + `commit()` + read +
//!   `clear_visible()`; `tokio` (`mpsc::unbounded_channel`, `send`; the
//!   owner `recv().await`s one value and drains the rest with `try_recv`),
//!   `tokio_bounded` (`mpsc::channel(1024)`, `send(v).await`, the same
//!   owner), `flume` (`flume::unbounded`, `send_async`; the owner
//!   `recv_async().await` + `try_iter`).
//! * `producers/async_tasks/1000t`: the same with 1,000 tasks, each with
//!   a handle (or sender) of its own, as a service's connection tasks,
//!   pushing `4 × M / 1000` values each (the same pushes in all as
//!   `producers/async/4t`).
//! * `producers/uncontended/1t`, the single-thread anchor: one thread
//!   pushes M values through a `Producer` and commits + drains every 1000
//!   pushes (`read_write_collection`); `local_push` is the same with the
//!   collection's own `push` (no producer), `crossbeam` with `send` and a
//!   `try_iter` drain every 1000. (`frame10k` above is the other anchor.)
//!
//! **Owner idle policy.** When a drain found nothing (`commit()` returned
//! 0, `try_iter` yielded nothing), every synchronous owner calls
//! `std::thread::yield_now()`: it never sleeps on a futex as
//! `wait_pending` or `recv` would, and with more threads than cores
//! (4 producers and the owner on 2 cores) it hands the core to a producer
//! instead of burning its time slice as `std::hint::spin_loop()` would.
//! `owner_idle()` is the one place that decides it, for every method.
//!
//! **Environment.** `RWC_PRODUCER_PUSHES`: M, the values each producer
//! pushes per pass (`10k`, `1M` or a number); by default 1M under
//! `cargo bench`, and 10k under `cargo test` (CI's smoke run sets
//! `RWC_PRODUCER_PUSHES=10k`).
//! `RWC_PRODUCER_THREADS`: the N of the sync shapes (default `1,2,4`).
//! `RWC_GROUPS`: comma-separated prefixes of the producer groups to build
//! and run (default all), e.g. `producers/unbounded,producers/async`.
//! `RWC_METHODS`: comma-separated method names to keep in those groups
//! (default all), e.g. `read_write_collection,crossbeam`; a group whose
//! reference is left out prints no ratio to it.
//! `RWC_ALTERNATE=rounds`: the alternating table below instead of
//! criterion.
//!
//! **The measurement** (the table the targets are read from):
//!
//! ```text
//! RWC_ALTERNATE=15 cargo bench --bench buffered
//! ```
//!
//! runs the producer shapes only (the other groups have no alternating
//! form), without criterion: one untimed checked pass of every method,
//! then 15 rounds in which every method of every selected group runs once
//! (each round starting one method later than the one before), so load
//! changes on a shared machine hit every method alike. It prints a
//! markdown table: shape, threads, method, median ns per push (a pass's
//! wall time divided by N × M), the quartiles, the ratio to
//! `producers/unbounded/{N}t/crossbeam` of the same rounds (same N; 4 for
//! the async group), and the ratio to the group's own reference
//! (`crossbeam`, or `tokio` in the async group). Ratios are of medians.
//! With M = 1M a round is about 65M pushes. Smoke form, to see that it
//! runs (its numbers mean nothing):
//! `RWC_PRODUCER_PUSHES=10k RWC_ALTERNATE=3 cargo bench --bench buffered`.
//! Criterion's own form: `cargo bench --bench buffered -- 'producers/(unbounded|bounded|async|uncontended)/'`
//! (flat sampling, 10 samples; the plain filter `producers` also runs
//! `producers/2x100k`).

#[cfg(not(any(loom, miri)))]
fn main() {
    imp::main();
}

#[cfg(any(loom, miri))]
fn main() {}

#[cfg(not(any(loom, miri)))]
mod service_shapes;
#[cfg(not(any(loom, miri)))]
mod support;

#[cfg(not(any(loom, miri)))]
pub(crate) mod imp {
    use std::collections::VecDeque;
    use std::hint::black_box;
    use std::mem;
    use std::sync::mpsc;
    use std::thread;
    use std::time::{Duration, Instant};

    use criterion::{Criterion, SamplingMode, Throughput};
    use read_write_collection::{BufferedCollection, Producer, ProducerOrder};
    use tokio::runtime::Runtime;

    use crate::support::{alternate_rounds, parse_count};

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
                assert_eq!(
                    c.wait_pending(),
                    Ok(()),
                    "producers alive or values pending"
                );
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

    // ------------------------------------------------------ producer shapes

    /// The bound of every bounded queue in the producer shapes.
    pub(crate) const BOUND: usize = 1024;

    /// Producer tasks in the async shape.
    const ASYNC_TASKS: u64 = 4;

    /// The tasks of `producers/async_tasks`: a service's connections, each
    /// task pushing through a handle of its own.
    const ASYNC_SERVICE_TASKS: u64 = 1000;

    /// The single-thread anchor commits (and drains) once per this many
    /// pushes.
    const UNCONTENDED_BATCH: u64 = 1_000;

    /// What a spinning owner does when a drain found nothing: hand the core
    /// over without sleeping (see "Owner idle policy" in the module docs).
    /// Every method of the producer shapes goes through here.
    #[inline]
    fn owner_idle() {
        thread::yield_now();
    }

    /// `0 + 1 + ... + (n - 1)`: the producers of a pass push every value
    /// below `n` exactly once.
    fn expected_sum(n: u64) -> u64 {
        n * n.saturating_sub(1) / 2
    }

    fn fold_count(values: impl Iterator<Item = u64>, sum: &mut u64) -> u64 {
        let mut n = 0;
        for v in values {
            *sum = sum.wrapping_add(v);
            n += 1;
        }
        n
    }

    /// `threads` producer threads, each with its own `Producer`, push `m`
    /// values one at a time (`Producer::push`: blocks while a bounded
    /// collection is full); this thread loops `commit` + read every value +
    /// `clear_visible` until it has them all, never waiting. Returns the sum.
    pub(crate) fn spin_rwc(c: &mut BufferedCollection<u64>, threads: u64, m: u64) -> u64 {
        let producers: Vec<Producer<u64>> = (0..threads).map(|_| c.producer()).collect();
        thread::scope(|s| {
            for (t, p) in (0..threads).zip(producers) {
                s.spawn(move || {
                    for i in 0..m {
                        p.push(t * m + i).expect("collection alive");
                    }
                });
            }
            drain_rwc(c, threads * m)
        })
    }

    /// The spinning owner of a collection: commits, reads every value (a
    /// sum) and clears, until `total` values arrived; never waits. Returns
    /// the sum.
    pub(crate) fn drain_rwc(c: &mut BufferedCollection<u64>, total: u64) -> u64 {
        let (mut got, mut sum) = (0u64, 0u64);
        while got < total {
            let n = c.commit();
            if n == 0 {
                owner_idle();
                continue;
            }
            got += n as u64;
            sum = c.iter().fold(sum, |a, &v| a.wrapping_add(v));
            c.clear_visible();
        }
        sum
    }

    /// The spinning owner of a channel: drains whatever arrived until
    /// `total` values did. Returns the sum.
    pub(crate) fn drain_channel<C: SpinChannel>(ch: &C, total: u64) -> u64 {
        let (mut got, mut sum) = (0u64, 0u64);
        while got < total {
            let n = ch.drain(&mut sum);
            if n == 0 {
                owner_idle();
            }
            got += n;
        }
        sum
    }

    /// A channel as the spinning owner uses it: a sender to clone for each
    /// producer thread, and a drain of whatever has arrived, without
    /// blocking.
    pub(crate) trait SpinChannel {
        type Tx: Clone + Send;
        fn tx(&self) -> &Self::Tx;
        fn send(tx: &Self::Tx, v: u64);
        /// Receives everything there is now, folding it into `sum`;
        /// returns how many values that was.
        fn drain(&self, sum: &mut u64) -> u64;
    }

    pub(crate) struct Crossbeam(
        pub(crate) crossbeam_channel::Sender<u64>,
        pub(crate) crossbeam_channel::Receiver<u64>,
    );

    impl SpinChannel for Crossbeam {
        type Tx = crossbeam_channel::Sender<u64>;
        fn tx(&self) -> &Self::Tx {
            &self.0
        }
        fn send(tx: &Self::Tx, v: u64) {
            tx.send(v).expect("receiver alive");
        }
        fn drain(&self, sum: &mut u64) -> u64 {
            fold_count(self.1.try_iter(), sum)
        }
    }

    pub(crate) struct Flume(
        pub(crate) flume::Sender<u64>,
        pub(crate) flume::Receiver<u64>,
    );

    impl SpinChannel for Flume {
        type Tx = flume::Sender<u64>;
        fn tx(&self) -> &Self::Tx {
            &self.0
        }
        fn send(tx: &Self::Tx, v: u64) {
            tx.send(v).expect("receiver alive");
        }
        fn drain(&self, sum: &mut u64) -> u64 {
            fold_count(self.1.try_iter(), sum)
        }
    }

    struct StdMpsc(mpsc::Sender<u64>, mpsc::Receiver<u64>);

    impl SpinChannel for StdMpsc {
        type Tx = mpsc::Sender<u64>;
        fn tx(&self) -> &Self::Tx {
            &self.0
        }
        fn send(tx: &Self::Tx, v: u64) {
            tx.send(v).expect("receiver alive");
        }
        fn drain(&self, sum: &mut u64) -> u64 {
            fold_count(self.1.try_iter(), sum)
        }
    }

    /// [`spin_rwc`] with a channel: each producer thread sends on its own
    /// clone of the sender, this thread drains with `try_iter`.
    fn spin_channel<C: SpinChannel>(ch: &C, threads: u64, m: u64) -> u64 {
        thread::scope(|s| {
            for t in 0..threads {
                let tx = ch.tx().clone();
                s.spawn(move || {
                    for i in 0..m {
                        C::send(&tx, t * m + i);
                    }
                });
            }
            drain_channel(ch, threads * m)
        })
    }

    /// The single-thread anchor: this thread pushes `m` values through a
    /// `Producer` and commits + drains every [`UNCONTENDED_BATCH`] pushes.
    fn uncontended_rwc(c: &mut BufferedCollection<u64>, m: u64) -> u64 {
        let p = c.producer();
        let mut sum = 0u64;
        for start in (0..m).step_by(UNCONTENDED_BATCH as usize) {
            for v in start..m.min(start + UNCONTENDED_BATCH) {
                p.push(v).expect("collection alive");
            }
            c.commit();
            sum = c.iter().fold(sum, |a, &v| a.wrapping_add(v));
            c.clear_visible();
        }
        sum
    }

    /// The same with the collection's own `push` (no producer, no lock).
    fn uncontended_local(c: &mut BufferedCollection<u64>, m: u64) -> u64 {
        let mut sum = 0u64;
        for start in (0..m).step_by(UNCONTENDED_BATCH as usize) {
            for v in start..m.min(start + UNCONTENDED_BATCH) {
                c.push(v);
            }
            c.commit();
            sum = c.iter().fold(sum, |a, &v| a.wrapping_add(v));
            c.clear_visible();
        }
        sum
    }

    /// The same with a channel: `send`, then `try_iter` every
    /// [`UNCONTENDED_BATCH`] sends.
    fn uncontended_channel<C: SpinChannel>(ch: &C, m: u64) -> u64 {
        let mut sum = 0u64;
        for start in (0..m).step_by(UNCONTENDED_BATCH as usize) {
            for v in start..m.min(start + UNCONTENDED_BATCH) {
                C::send(ch.tx(), v);
            }
            ch.drain(&mut sum);
        }
        sum
    }

    /// The async shape: `n` tasks on the runtime, each with a handle of
    /// its own, push `m` values each with `Producer::push_async`; the owner
    /// (the `block_on` future, as `#[tokio::main]`'s body) loops
    /// `wait_pending_async` + `commit` + read every value + `clear_visible`.
    fn async_rwc(rt: &Runtime, c: &mut BufferedCollection<u64>, n: u64, m: u64) -> u64 {
        let total = (n * m) as usize;
        let producers: Vec<Producer<u64>> = (0..n).map(|_| c.producer()).collect();
        rt.block_on(async {
            let tasks: Vec<_> = (0..n)
                .zip(producers)
                .map(|(t, p)| {
                    tokio::spawn(async move {
                        for i in 0..m {
                            p.push_async(t * m + i).await.expect("collection alive");
                        }
                    })
                })
                .collect();
            let (mut got, mut sum) = (0, 0u64);
            while got < total {
                assert_eq!(
                    c.wait_pending_async().await,
                    Ok(()),
                    "producers alive or values pending"
                );
                got += c.commit();
                sum = c.iter().fold(sum, |a, &v| a.wrapping_add(v));
                c.clear_visible();
            }
            for task in tasks {
                task.await.expect("producer task");
            }
            sum
        })
    }

    /// The async shape on tokio's unbounded channel: the tasks `send`
    /// (never waits), the owner `recv().await`s one value and drains the
    /// rest with `try_recv`.
    fn async_tokio_unbounded(
        rt: &Runtime,
        tx: &tokio::sync::mpsc::UnboundedSender<u64>,
        rx: &mut tokio::sync::mpsc::UnboundedReceiver<u64>,
        n: u64,
        m: u64,
    ) -> u64 {
        let total = n * m;
        rt.block_on(async {
            let tasks: Vec<_> = (0..n)
                .map(|t| {
                    let tx = tx.clone();
                    tokio::spawn(async move {
                        for i in 0..m {
                            tx.send(t * m + i).expect("receiver alive");
                        }
                    })
                })
                .collect();
            let (mut got, mut sum) = (0, 0u64);
            while got < total {
                let v = rx.recv().await.expect("senders alive");
                sum = sum.wrapping_add(v);
                got += 1;
                while let Ok(v) = rx.try_recv() {
                    sum = sum.wrapping_add(v);
                    got += 1;
                }
            }
            for task in tasks {
                task.await.expect("producer task");
            }
            sum
        })
    }

    /// The same on tokio's bounded channel: `send(v).await`.
    fn async_tokio_bounded(
        rt: &Runtime,
        tx: &tokio::sync::mpsc::Sender<u64>,
        rx: &mut tokio::sync::mpsc::Receiver<u64>,
        n: u64,
        m: u64,
    ) -> u64 {
        let total = n * m;
        rt.block_on(async {
            let tasks: Vec<_> = (0..n)
                .map(|t| {
                    let tx = tx.clone();
                    tokio::spawn(async move {
                        for i in 0..m {
                            tx.send(t * m + i).await.expect("receiver alive");
                        }
                    })
                })
                .collect();
            let (mut got, mut sum) = (0, 0u64);
            while got < total {
                let v = rx.recv().await.expect("senders alive");
                sum = sum.wrapping_add(v);
                got += 1;
                while let Ok(v) = rx.try_recv() {
                    sum = sum.wrapping_add(v);
                    got += 1;
                }
            }
            for task in tasks {
                task.await.expect("producer task");
            }
            sum
        })
    }

    /// The same on flume's unbounded channel, async side: `send_async`,
    /// `recv_async` + `try_iter`.
    fn async_flume(rt: &Runtime, ch: &Flume, n: u64, m: u64) -> u64 {
        let total = n * m;
        rt.block_on(async {
            let tasks: Vec<_> = (0..n)
                .map(|t| {
                    let tx = ch.0.clone();
                    tokio::spawn(async move {
                        for i in 0..m {
                            tx.send_async(t * m + i).await.expect("receiver alive");
                        }
                    })
                })
                .collect();
            let (mut got, mut sum) = (0, 0u64);
            while got < total {
                let v = ch.1.recv_async().await.expect("senders alive");
                sum = sum.wrapping_add(v);
                got += 1 + fold_count(ch.1.try_iter(), &mut sum);
            }
            for task in tasks {
                task.await.expect("producer task");
            }
            sum
        })
    }

    /// One method of a producer shape: a run returns the sum of everything
    /// the owner received.
    pub(crate) struct Method<'a> {
        name: &'static str,
        run: Box<dyn FnMut() -> u64 + 'a>,
        /// Whether one untimed pass has checked the result (criterion mode).
        checked: bool,
    }

    pub(crate) fn method<'a>(name: &'static str, run: impl FnMut() -> u64 + 'a) -> Method<'a> {
        Method {
            name,
            run: Box::new(run),
            checked: false,
        }
    }

    /// One criterion group of the producer shapes:
    /// `producers/{kind}/{threads}t`.
    pub(crate) struct Shape<'a> {
        /// `unbounded`, `bounded`, `async` or `uncontended`.
        pub(crate) kind: String,
        /// Producer threads (tasks in the async shape).
        pub(crate) threads: u64,
        /// Values pushed in one pass, all producers together.
        pub(crate) pushes: u64,
        /// The method the group's own ratio column divides by.
        pub(crate) reference: &'static str,
        pub(crate) methods: Vec<Method<'a>>,
    }

    impl Shape<'_> {
        fn name(&self) -> String {
            format!("producers/{}/{}t", self.kind, self.threads)
        }

        /// One timed pass of method `i`, its result checked afterwards
        /// (untimed). The time includes spawning and joining the producer
        /// threads (or tasks): tens of microseconds, against a pass of
        /// millions of pushes.
        fn pass(&mut self, i: usize) -> Duration {
            let expected = expected_sum(self.pushes);
            let m = &mut self.methods[i];
            let start = Instant::now();
            let sum = black_box((m.run)());
            let elapsed = start.elapsed();
            assert_eq!(
                sum, expected,
                "producers/{}/{}t/{}: the sum of what the owner received",
                self.kind, self.threads, m.name
            );
            elapsed
        }
    }

    /// `c` set to commit each handle's values together.
    pub(crate) fn per_producer<T>(mut c: BufferedCollection<T>) -> BufferedCollection<T> {
        c.set_producer_order(ProducerOrder::PerProducer);
        c
    }

    fn unbounded_shape(n: u64, m: u64) -> Shape<'static> {
        let mut c = BufferedCollection::new();
        let mut pp = per_producer(BufferedCollection::new());
        let (tx, rx) = crossbeam_channel::unbounded();
        let cb = Crossbeam(tx, rx);
        let (tx, rx) = flume::unbounded();
        let fl = Flume(tx, rx);
        let (tx, rx) = mpsc::channel();
        let sm = StdMpsc(tx, rx);
        Shape {
            kind: "unbounded".to_string(),
            threads: n,
            pushes: n * m,
            reference: "crossbeam",
            methods: vec![
                method("read_write_collection", move || spin_rwc(&mut c, n, m)),
                method("rwc_per_producer", move || spin_rwc(&mut pp, n, m)),
                method("crossbeam", move || spin_channel(&cb, n, m)),
                method("flume", move || spin_channel(&fl, n, m)),
                method("std_mpsc", move || spin_channel(&sm, n, m)),
            ],
        }
    }

    fn bounded_shape(n: u64, m: u64) -> Shape<'static> {
        let mut c = BufferedCollection::bounded(BOUND);
        let mut pp = per_producer(BufferedCollection::bounded(BOUND));
        let (tx, rx) = crossbeam_channel::bounded(BOUND);
        let cb = Crossbeam(tx, rx);
        Shape {
            kind: "bounded".to_string(),
            threads: n,
            pushes: n * m,
            reference: "crossbeam",
            methods: vec![
                method("read_write_collection", move || spin_rwc(&mut c, n, m)),
                method("rwc_per_producer", move || spin_rwc(&mut pp, n, m)),
                method("crossbeam", move || spin_channel(&cb, n, m)),
            ],
        }
    }

    /// `n` tasks pushing `m` values each; `kind` names the group.
    fn async_shape<'r>(rt: &'r Runtime, kind: &str, n: u64, m: u64) -> Shape<'r> {
        let mut unbounded = BufferedCollection::new();
        let mut bounded = BufferedCollection::bounded(BOUND);
        let (utx, mut urx) = tokio::sync::mpsc::unbounded_channel();
        let (btx, mut brx) = tokio::sync::mpsc::channel(BOUND);
        let (tx, rx) = flume::unbounded();
        let fl = Flume(tx, rx);
        Shape {
            kind: kind.to_string(),
            threads: n,
            pushes: n * m,
            reference: "tokio",
            methods: vec![
                method("read_write_collection", move || {
                    async_rwc(rt, &mut unbounded, n, m)
                }),
                method("read_write_collection_bounded", move || {
                    async_rwc(rt, &mut bounded, n, m)
                }),
                method("tokio", move || {
                    async_tokio_unbounded(rt, &utx, &mut urx, n, m)
                }),
                method("tokio_bounded", move || {
                    async_tokio_bounded(rt, &btx, &mut brx, n, m)
                }),
                method("flume", move || async_flume(rt, &fl, n, m)),
            ],
        }
    }

    fn uncontended_shape(m: u64) -> Shape<'static> {
        let mut c = BufferedCollection::new();
        let mut local = BufferedCollection::new();
        let (tx, rx) = crossbeam_channel::unbounded();
        let cb = Crossbeam(tx, rx);
        Shape {
            kind: "uncontended".to_string(),
            threads: 1,
            pushes: m,
            reference: "crossbeam",
            methods: vec![
                method("read_write_collection", move || uncontended_rwc(&mut c, m)),
                method("local_push", move || uncontended_local(&mut local, m)),
                method("crossbeam", move || uncontended_channel(&cb, m)),
            ],
        }
    }

    /// The values each producer pushes in one pass (`M`):
    /// `RWC_PRODUCER_PUSHES`, else 1M under `cargo bench` and 10k under
    /// `cargo test`.
    fn producer_pushes(benching: bool) -> u64 {
        match std::env::var("RWC_PRODUCER_PUSHES") {
            Ok(s) => parse_count("RWC_PRODUCER_PUSHES", &s),
            Err(_) if benching => 1_000_000,
            Err(_) => 10_000,
        }
    }

    /// The producer thread counts of the sync shapes:
    /// `RWC_PRODUCER_THREADS` (comma-separated), else 1, 2 and 4.
    fn producer_threads() -> Vec<u64> {
        match std::env::var("RWC_PRODUCER_THREADS") {
            Ok(list) => list
                .split(',')
                .map(|t| parse_count("RWC_PRODUCER_THREADS", t))
                .collect(),
            Err(_) => vec![1, 2, 4],
        }
    }

    /// Whether the group `name` starts with one of the comma-separated
    /// prefixes in `RWC_GROUPS` (every producer group when it is unset).
    fn group_selected(name: &str) -> bool {
        match std::env::var("RWC_GROUPS") {
            Ok(list) => list.split(',').any(|g| name.starts_with(g.trim())),
            Err(_) => true,
        }
    }

    /// The selected producer shapes, in the order they run.
    fn producer_shapes(rt: Option<&Runtime>, m: u64, benching: bool) -> Vec<Shape<'_>> {
        let threads = producer_threads();
        let mut shapes: Vec<Shape<'_>> = threads.iter().map(|&n| unbounded_shape(n, m)).collect();
        shapes.extend(threads.iter().map(|&n| bounded_shape(n, m)));
        if let Some(rt) = rt {
            shapes.push(async_shape(rt, "async", ASYNC_TASKS, m));
            // A service's tasks: a handle each, the same pushes in all.
            let per_task = (ASYNC_TASKS * m / ASYNC_SERVICE_TASKS).max(1);
            shapes.push(async_shape(
                rt,
                "async_tasks",
                ASYNC_SERVICE_TASKS,
                per_task,
            ));
        }
        shapes.push(uncontended_shape(m));
        shapes.extend(crate::service_shapes::shapes(&threads, m, benching));
        shapes.retain(|s| group_selected(&s.name()));
        if let Ok(list) = std::env::var("RWC_METHODS") {
            let keep: Vec<&str> = list.split(',').map(str::trim).collect();
            for s in &mut shapes {
                s.methods.retain(|m| keep.contains(&m.name));
            }
            shapes.retain(|s| !s.methods.is_empty());
        }
        shapes
    }

    fn bench_shapes(c: &mut Criterion, shapes: &mut [Shape<'_>]) {
        for shape in shapes {
            let mut group = c.benchmark_group(shape.name());
            group.throughput(Throughput::Elements(shape.pushes));
            // A pass is milliseconds (tens under `cargo bench`): ten
            // samples of whole passes, not criterion's linear ramp.
            group.sampling_mode(SamplingMode::Flat);
            group.sample_size(10);
            for i in 0..shape.methods.len() {
                group.bench_function(shape.methods[i].name, |b| {
                    // Criterion calls this only for a selected benchmark:
                    // the untimed check pass runs for those alone.
                    if !shape.methods[i].checked {
                        shape.pass(i);
                        shape.methods[i].checked = true;
                    }
                    b.iter_custom(|iters| (0..iters).map(|_| shape.pass(i)).sum())
                });
            }
            group.finish();
        }
    }

    fn median_and_quartiles(t: &mut [f64]) -> (f64, f64, f64) {
        t.sort_by(f64::total_cmp);
        let at = |q: usize| t[(t.len() - 1) * q / 4];
        (at(2), at(1), at(3))
    }

    /// Every method of every selected shape once per round, `rounds`
    /// rounds, each round starting one method later than the one before;
    /// prints the medians and ratios as a markdown table.
    fn alternate_shapes(shapes: &mut [Shape<'_>], rounds: usize, m: u64, workers: Option<usize>) {
        // One untimed pass each: checks the result and warms the buffers.
        for s in shapes.iter_mut() {
            for i in 0..s.methods.len() {
                s.pass(i);
            }
        }
        let index: Vec<(usize, usize)> = shapes
            .iter()
            .enumerate()
            .flat_map(|(s, shape)| (0..shape.methods.len()).map(move |i| (s, i)))
            .collect();
        let mut times: Vec<Vec<f64>> = vec![Vec::with_capacity(rounds); index.len()];
        for round in 0..rounds {
            for k in 0..index.len() {
                let j = (k + round) % index.len();
                let (s, i) = index[j];
                let elapsed = shapes[s].pass(i);
                times[j].push(elapsed.as_secs_f64() * 1e9 / shapes[s].pushes as f64);
            }
        }
        if std::env::var_os("RWC_SAMPLES").is_some() {
            for (j, &(s, i)) in index.iter().enumerate() {
                let shape = &shapes[s];
                let samples: Vec<String> = times[j].iter().map(|t| format!("{t:.1}")).collect();
                eprintln!(
                    "# {}/{}t/{}: {}",
                    shape.kind,
                    shape.threads,
                    shape.methods[i].name,
                    samples.join(" ")
                );
            }
        }
        let stats: Vec<(f64, f64, f64)> =
            times.iter_mut().map(|t| median_and_quartiles(t)).collect();
        let median_of = |kind: &str, threads: u64, name: &str| {
            index
                .iter()
                .position(|&(s, i)| {
                    shapes[s].kind == kind
                        && shapes[s].threads == threads
                        && shapes[s].methods[i].name == name
                })
                .map(|j| stats[j].0)
        };
        let ratio =
            |x: f64, to: Option<f64>| to.map_or(String::new(), |r| format!("{:.2}x", x / r));
        let workers = workers.map_or(String::new(), |w| format!("; tokio: {w} worker threads"));
        println!(
            "## producers: {rounds} alternating rounds, M = {m} pushes per producer; \
             median ns per push (pass wall time / all pushes); owner idles with \
             thread::yield_now{workers}"
        );
        println!();
        println!(
            "| shape | threads | method | ns/push | quartiles | vs crossbeam unbounded (same threads) | vs group reference |"
        );
        println!("| --- | ---: | --- | ---: | --- | ---: | --- |");
        for (j, &(s, i)) in index.iter().enumerate() {
            let shape = &shapes[s];
            let name = shape.methods[i].name;
            let (median, q1, q3) = stats[j];
            let cb = ratio(median, median_of("unbounded", shape.threads, "crossbeam"));
            let own = ratio(
                median,
                median_of(&shape.kind, shape.threads, shape.reference),
            );
            println!(
                "| {} | {} | {name} | {median:.1} | {q1:.1}–{q3:.1} | {cb} | {own} {}/{} |",
                shape.kind, shape.threads, shape.kind, shape.reference
            );
        }
    }

    /// The producer shapes: criterion groups, or the alternating table.
    fn producer_shape_groups(c: &mut Criterion, benching: bool) {
        let m = producer_pushes(benching);
        let async_selected = group_selected(&format!("producers/async/{ASYNC_TASKS}t"))
            || group_selected(&format!("producers/async_tasks/{ASYNC_SERVICE_TASKS}t"));
        let workers = thread::available_parallelism().map_or(2, |n| n.get());
        let rt = async_selected.then(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(workers)
                .build()
                .expect("tokio runtime")
        });
        let mut shapes = producer_shapes(rt.as_ref(), m, benching);
        eprintln!(
            "# producer shapes: M = {m} pushes per producer (RWC_PRODUCER_PUSHES), \
             threads {:?} (RWC_PRODUCER_THREADS), owner idle: thread::yield_now, \
             tokio workers: {workers}",
            producer_threads()
        );
        match alternate_rounds() {
            Some(rounds) => {
                alternate_shapes(&mut shapes, rounds, m, rt.as_ref().map(|_| workers));
            }
            None => bench_shapes(c, &mut shapes),
        }
    }

    pub(crate) fn main() {
        let benching = std::env::args().any(|a| a == "--bench");
        let mut c = Criterion::default().configure_from_args();
        if alternate_rounds().is_some() {
            // Only the producer shapes have an alternating form.
            producer_shape_groups(&mut c, benching);
            return;
        }
        frame_group(&mut c, 1_000, "1k");
        if benching {
            frame_group(&mut c, 100_000, "100k");
        }
        producer_group(&mut c);
        frame10k_group(&mut c);
        contended_groups(&mut c);
        producer_shape_groups(&mut c, benching);
        c.final_summary();
    }
}

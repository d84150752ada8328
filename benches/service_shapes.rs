//! The producer shapes of a service (part of `benches/buffered.rs`'s
//! alternating table; see its "Producer shapes").
//!
//! A server's network threads read connections and send every event
//! through a handle of that connection; channel users clone a sender per
//! connection because clones are free. These shapes give the queue that
//! habit:
//!
//! * `producers/service_{H}h/{N}t` and `producers/service_bounded_{H}h/{N}t`:
//!   `H` handles (`RWC_SERVICE_HANDLES`, default `2,100,1000`) shared out
//!   among `N` producer threads (each thread gets `H / N` of them, at least
//!   one); a thread pushes its `M` values one at a time, each through the
//!   next of its handles in turn (value `i` through handle `i % k`), as a
//!   thread serving `k` connections does. The owner loops `commit`, a
//!   read of every value and `clear_visible`, as in `producers/unbounded`. `read_write_collection`
//!   is a `BufferedCollection` in arrival order (the default) with one
//!   `Producer` per handle; `rwc_per_producer` the same in
//!   `ProducerOrder::PerProducer`; `crossbeam` and `flume` clone one
//!   sender per handle. The bounded shapes use a bound (capacity) of 1024
//!   for all of them.
//! * `producers/idle_10000h/{N}t`: `N` threads with one handle each, as
//!   `producers/unbounded`, while 10,000 more handles exist that never
//!   push (`read_write_collection_idle`), against the same without them
//!   (`read_write_collection`, the group's reference): what idle
//!   connections cost the busy ones.
//! * `producers/churn_{C}c/{N}t`: connections that come and go: the `N`
//!   threads open `C` connections between them (`RWC_SERVICE_CHURN`,
//!   default 100,000), each a new handle cloned from the thread's own,
//!   which pushes [`CHURN_PUSHES`] values and is dropped;
//!   `read_write_collection` (`Producer::clone`) against `crossbeam` and
//!   `flume` (`Sender::clone`). `M` does not apply: a pass pushes
//!   `C × CHURN_PUSHES` values.
//!
//! Every pass checks the sum of what the owner received, as the other
//! shapes do.

use std::thread;

use read_write_collection::{BufferedCollection, Producer};

use crate::imp::{
    drain_channel, drain_rwc, method, per_producer, spin_rwc, Crossbeam, Flume, Shape, SpinChannel,
    BOUND,
};
use crate::support::parse_count;

/// Values each connection of the churn shape pushes before it closes.
pub(crate) const CHURN_PUSHES: u64 = 4;

/// The idle handles of `producers/idle_10000h`.
const IDLE_HANDLES: usize = 10_000;

/// How many of `handles` thread `t` of `threads` gets: an even share,
/// the remainder to the first threads, at least one.
fn share(handles: u64, threads: u64, t: u64) -> u64 {
    (handles / threads + u64::from(t < handles % threads)).max(1)
}

/// `threads` threads push `m` values each, thread `t` through its share
/// of `handles` producers in turn.
fn service_rwc(c: &mut BufferedCollection<u64>, threads: u64, m: u64, handles: u64) -> u64 {
    let per_thread: Vec<Vec<Producer<u64>>> = (0..threads)
        .map(|t| {
            (0..share(handles, threads, t))
                .map(|_| c.producer())
                .collect()
        })
        .collect();
    thread::scope(|s| {
        for (t, ps) in (0..threads).zip(per_thread) {
            s.spawn(move || {
                let k = ps.len();
                for i in 0..m {
                    ps[i as usize % k]
                        .push(t * m + i)
                        .expect("collection alive");
                }
            });
        }
        drain_rwc(c, threads * m)
    })
}

/// [`service_rwc`] with a channel: one sender clone per handle.
fn service_channel<C: SpinChannel>(ch: &C, threads: u64, m: u64, handles: u64) -> u64 {
    let per_thread: Vec<Vec<C::Tx>> = (0..threads)
        .map(|t| {
            (0..share(handles, threads, t))
                .map(|_| ch.tx().clone())
                .collect()
        })
        .collect();
    thread::scope(|s| {
        for (t, txs) in (0..threads).zip(per_thread) {
            s.spawn(move || {
                let k = txs.len();
                for i in 0..m {
                    C::send(&txs[i as usize % k], t * m + i);
                }
            });
        }
        drain_channel(ch, threads * m)
    })
}

/// `threads` threads with one handle each push `m` values each
/// ([`spin_rwc`]), while `idle` holds handles that never push.
fn idle_rwc(c: &mut BufferedCollection<u64>, threads: u64, m: u64, idle: &[Producer<u64>]) -> u64 {
    let sum = spin_rwc(c, threads, m);
    assert!(idle.iter().all(|p| !p.is_closed()));
    sum
}

/// The churn shape: `threads` threads open `conns` connections between
/// them, each a handle cloned from the thread's own that pushes
/// [`CHURN_PUSHES`] values and is dropped.
fn churn_rwc(c: &mut BufferedCollection<u64>, threads: u64, conns: u64) -> u64 {
    let bases: Vec<Producer<u64>> = (0..threads).map(|_| c.producer()).collect();
    thread::scope(|s| {
        for (t, base) in (0..threads).zip(bases) {
            s.spawn(move || {
                let first = (0..t).map(|u| share(conns, threads, u)).sum::<u64>();
                for conn in first..first + share(conns, threads, t) {
                    let p = base.clone();
                    for j in 0..CHURN_PUSHES {
                        p.push(conn * CHURN_PUSHES + j).expect("collection alive");
                    }
                }
            });
        }
        drain_rwc(c, conns * CHURN_PUSHES)
    })
}

/// [`churn_rwc`] with a channel: a sender clone per connection.
fn churn_channel<C: SpinChannel>(ch: &C, threads: u64, conns: u64) -> u64 {
    thread::scope(|s| {
        for t in 0..threads {
            let base = ch.tx().clone();
            s.spawn(move || {
                let first = (0..t).map(|u| share(conns, threads, u)).sum::<u64>();
                for conn in first..first + share(conns, threads, t) {
                    let tx = base.clone();
                    for j in 0..CHURN_PUSHES {
                        C::send(&tx, conn * CHURN_PUSHES + j);
                    }
                }
            });
        }
        drain_channel(ch, conns * CHURN_PUSHES)
    })
}

/// The handle counts of the service shapes: `RWC_SERVICE_HANDLES`
/// (comma-separated), else 2, 100 and 1000.
fn service_handles() -> Vec<u64> {
    match std::env::var("RWC_SERVICE_HANDLES") {
        Ok(list) => list
            .split(',')
            .map(|h| parse_count("RWC_SERVICE_HANDLES", h))
            .collect(),
        Err(_) => vec![2, 100, 1000],
    }
}

/// The connections of the churn shape: `RWC_SERVICE_CHURN`, else 100,000
/// (10,000 under `cargo test`).
fn churn_connections(benching: bool) -> u64 {
    match std::env::var("RWC_SERVICE_CHURN") {
        Ok(s) => parse_count("RWC_SERVICE_CHURN", &s),
        Err(_) if benching => 100_000,
        Err(_) => 10_000,
    }
}

fn unbounded_service(n: u64, m: u64, h: u64) -> Shape<'static> {
    let mut c = BufferedCollection::new();
    let mut pp = per_producer(BufferedCollection::new());
    let (tx, rx) = crossbeam_channel::unbounded();
    let cb = Crossbeam(tx, rx);
    let (tx, rx) = flume::unbounded();
    let fl = Flume(tx, rx);
    Shape {
        kind: format!("service_{h}h"),
        threads: n,
        pushes: n * m,
        reference: "crossbeam",
        methods: vec![
            method("read_write_collection", move || {
                service_rwc(&mut c, n, m, h)
            }),
            method("rwc_per_producer", move || service_rwc(&mut pp, n, m, h)),
            method("crossbeam", move || service_channel(&cb, n, m, h)),
            method("flume", move || service_channel(&fl, n, m, h)),
        ],
    }
}

fn bounded_service(n: u64, m: u64, h: u64) -> Shape<'static> {
    let mut c = BufferedCollection::bounded(BOUND);
    let (tx, rx) = crossbeam_channel::bounded(BOUND);
    let cb = Crossbeam(tx, rx);
    let (tx, rx) = flume::bounded(BOUND);
    let fl = Flume(tx, rx);
    Shape {
        kind: format!("service_bounded_{h}h"),
        threads: n,
        pushes: n * m,
        reference: "crossbeam",
        methods: vec![
            method("read_write_collection", move || {
                service_rwc(&mut c, n, m, h)
            }),
            method("crossbeam", move || service_channel(&cb, n, m, h)),
            method("flume", move || service_channel(&fl, n, m, h)),
        ],
    }
}

fn idle_shape(n: u64, m: u64) -> Shape<'static> {
    let mut with_idle = BufferedCollection::new();
    let idle: Vec<Producer<u64>> = (0..IDLE_HANDLES).map(|_| with_idle.producer()).collect();
    let mut alone = BufferedCollection::new();
    Shape {
        kind: format!("idle_{IDLE_HANDLES}h"),
        threads: n,
        pushes: n * m,
        reference: "read_write_collection",
        methods: vec![
            method("read_write_collection_idle", move || {
                idle_rwc(&mut with_idle, n, m, &idle)
            }),
            method("read_write_collection", move || {
                idle_rwc(&mut alone, n, m, &[])
            }),
        ],
    }
}

fn churn_shape(n: u64, conns: u64) -> Shape<'static> {
    let mut c = BufferedCollection::new();
    let (tx, rx) = crossbeam_channel::unbounded();
    let cb = Crossbeam(tx, rx);
    let (tx, rx) = flume::unbounded();
    let fl = Flume(tx, rx);
    Shape {
        kind: format!("churn_{conns}c"),
        threads: n,
        pushes: conns * CHURN_PUSHES,
        reference: "crossbeam",
        methods: vec![
            method("read_write_collection", move || churn_rwc(&mut c, n, conns)),
            method("crossbeam", move || churn_channel(&cb, n, conns)),
            method("flume", move || churn_channel(&fl, n, conns)),
        ],
    }
}

/// The service shapes for producer thread counts `threads`, `m` pushes per
/// producer thread.
pub(crate) fn shapes(threads: &[u64], m: u64, benching: bool) -> Vec<Shape<'static>> {
    let handles = service_handles();
    let conns = churn_connections(benching);
    let mut shapes = Vec::new();
    for &n in threads {
        shapes.extend(handles.iter().map(|&h| unbounded_service(n, m, h)));
        shapes.extend(handles.iter().map(|&h| bounded_service(n, m, h)));
        shapes.push(idle_shape(n, m));
        shapes.push(churn_shape(n, conns));
    }
    shapes
}

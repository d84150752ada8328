//! A predicate defined with `remove_when!` (the recommended form) works in
//! a parallel pass: its collection has `par_traverse`, the result is the
//! serial `traverse`'s, and a removal hook over it receives the same values
//! in the same order.
#![cfg(feature = "rayon")]

use read_write_collection::parallel::PAR_MIN_LEN;
use read_write_collection::{remove_when, Builder, Mode, ParAutoRemove, ReadWriteCollection};

mod common;
use common::splitmix;

/// A particle that lives `ttl` more passes.
#[derive(Clone, Debug, PartialEq)]
pub struct Spark {
    id: u64,
    ttl: u32,
}

remove_when! {
    /// A spark that burned out.
    pub struct Spent for Spark: |s| s.ttl == 0
}

/// What a pass does to one spark: depends on the spark alone.
fn step(s: &mut Spark) -> Option<Spark> {
    s.ttl = s.ttl.saturating_sub(1);
    // One in eight splits once into a short-lived child (ids over 1 << 40
    // push nothing, so every pass ends).
    (s.id < 1 << 40 && splitmix(s.id) % 8 == 0).then(|| Spark {
        id: s.id + (1 << 40),
        ttl: (splitmix(s.id + 1) % 3) as u32,
    })
}

fn sparks(n: u64) -> Vec<Spark> {
    (0..n)
        .map(|id| Spark {
            id,
            ttl: (splitmix(id) % 4) as u32,
        })
        .collect()
}

fn assert_par_auto_remove<P: ParAutoRemove<Spark>>(_: &P) {}

#[test]
fn remove_when_predicate_is_a_par_auto_remove() {
    assert_par_auto_remove(&Spent);
}

/// Several parallel rounds (over `PAR_MIN_LEN`) and a small one.
fn sizes() -> [u64; 2] {
    [
        if cfg!(miri) {
            40
        } else {
            3 * PAR_MIN_LEN as u64
        },
        7,
    ]
}

#[test]
fn par_traverse_with_remove_when_matches_traverse() {
    for n in sizes() {
        for mode in [Mode::Ordered, Mode::Unordered] {
            let mut serial: ReadWriteCollection<Spark, Spent> =
                Builder::new().mode(mode).policy(Spent).build();
            serial.extend(sparks(n));
            let mut parallel = serial.clone();

            serial.traverse(|mut e| {
                if let Some(child) = step(&mut e) {
                    e.push(child);
                }
            });
            parallel.par_traverse(|mut e| {
                if let Some(child) = step(&mut e) {
                    e.push(child);
                }
            });

            assert!(serial.iter().all(|s| s.ttl > 0), "the predicate ran");
            assert!(serial.len() < n as usize, "some sparks burned out");
            let (mut s, mut p) = (serial.to_vec(), parallel.to_vec());
            if mode == Mode::Unordered {
                s.sort_by_key(|x| x.id);
                p.sort_by_key(|x| x.id);
            }
            assert_eq!(s, p, "n = {n}, {mode:?}");
        }
    }
}

#[test]
fn par_traverse_with_remove_when_and_a_hook_hands_the_serial_removals() {
    let n = sizes()[0];
    let mut serial_gone = Vec::new();
    let mut parallel_gone = Vec::new();
    {
        let mut serial = Builder::new()
            .policy(Spent)
            .removal_hook(|s: Spark| serial_gone.push(s.id))
            .build();
        serial.extend(sparks(n));
        serial.traverse(|mut e| e.ttl = e.ttl.saturating_sub(1));
        let mut parallel = Builder::new()
            .policy(Spent)
            .removal_hook(|s: Spark| parallel_gone.push(s.id))
            .build();
        parallel.extend(sparks(n));
        parallel.par_traverse(|mut e| e.ttl = e.ttl.saturating_sub(1));
        assert_eq!(serial.to_vec(), parallel.to_vec());
    }
    assert!(!serial_gone.is_empty());
    assert_eq!(serial_gone, parallel_gone);
}

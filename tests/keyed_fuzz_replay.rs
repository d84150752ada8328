//! The `keyed` fuzz target's checker (`fuzz/fuzz_targets/keyed_model.rs`:
//! `KeyedCollection` outside and during passes against an ordered model
//! plus every key ever handed out), driven by quickcheck's bytes and by the
//! checked-in corpus, on stable. Not published (it reads `fuzz/`).

mod common;

#[path = "../fuzz/fuzz_targets/keyed_model.rs"]
mod keyed_model;

use quickcheck::{Gen, QuickCheck};

/// The fuzz target's checker, driven by quickcheck's bytes.
#[test]
fn keys_and_order_match_the_model() {
    fn prop(bytes: Vec<u8>) -> bool {
        if let Some(input) = keyed_model::decode(&bytes) {
            keyed_model::run(&input);
        }
        true
    }
    let tests = if cfg!(miri) { 4 } else { 500 };
    QuickCheck::new()
        .tests(tests)
        .rng(Gen::new(if cfg!(miri) { 300 } else { 2000 }))
        .quickcheck(prop as fn(Vec<u8>) -> bool);
}

/// The fuzz target's checked-in corpus and regressions.
#[test]
fn keyed_corpus_replays() {
    if cfg!(miri) {
        return; // file reads need isolation off; the quickcheck inputs run
    }
    common::replay_fuzz_inputs("keyed", keyed_model::decode, keyed_model::run);
}

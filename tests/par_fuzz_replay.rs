//! Replays the `parallel` fuzz target's checked-in corpus and a few
//! pseudo-random inputs through its checker (`fuzz/fuzz_targets/par_model.rs`:
//! `par_traverse` against `traverse`), on stable. Not published (it reads
//! `fuzz/`).
#![cfg(feature = "rayon")]

mod common;
use common::splitmix;

#[path = "../fuzz/fuzz_targets/par_model.rs"]
mod par_model;

#[test]
fn parallel_fuzz_inputs_replay() {
    if !cfg!(miri) {
        common::replay_fuzz_inputs("parallel", par_model::decode, par_model::run);
    }
    let runs = if cfg!(miri) { 3 } else { 200 };
    for seed in 0..runs {
        let bytes: Vec<u8> = (0..256u64)
            .map(|i| splitmix(seed * 1000 + i) as u8)
            .collect();
        if let Some(input) = par_model::decode(&bytes) {
            par_model::run(&input);
        }
    }
}

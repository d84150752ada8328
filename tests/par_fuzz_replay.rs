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
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/parallel");
        let mut seeds = 0;
        for entry in std::fs::read_dir(&dir).expect("fuzz/corpus/parallel exists") {
            let path = entry.unwrap().path();
            if let Some(input) = par_model::decode(&std::fs::read(&path).unwrap()) {
                par_model::run(&input);
                seeds += 1;
            }
        }
        assert!(seeds > 0, "no decodable seed in {}", dir.display());
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

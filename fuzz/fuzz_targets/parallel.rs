//! Fuzz target `parallel`: `par_traverse` against `traverse` on random
//! collections and per-element programs (see `par_model.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "par_model.rs"]
mod par_model;

fuzz_target!(|input: par_model::ParInput| {
    par_model::run(&input);
});

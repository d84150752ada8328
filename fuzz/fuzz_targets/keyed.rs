//! Fuzz target `keyed`: `KeyedCollection` outside and during passes, with
//! lookups by key mid-pass, against a plain model (see `keyed_model.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "keyed_model.rs"]
mod keyed_model;

fuzz_target!(|input: keyed_model::KeyedInput| {
    keyed_model::run(&input);
});

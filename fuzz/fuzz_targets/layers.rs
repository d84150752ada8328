//! Fuzz target `layers`: `Layers` passes with cross-layer pushes, bounded
//! and disabled layers, early exit and a panicking removal sink, against a
//! plain model (see `layers_model.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "layers_model.rs"]
mod layers_model;

fuzz_target!(|input: layers_model::LayersInput| {
    layers_model::run(&input);
});

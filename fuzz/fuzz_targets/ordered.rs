//! Fuzz target `ordered`: random operation sequences on `Kind::Ordered`, checked
//! against the `Vec` model in `model.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "model/mod.rs"]
mod model;

fuzz_target!(|input: model::Input| {
    model::run(model::Kind::Ordered, &input);
});

//! Loads arbitrary bytes as JSON or postcard into a `ReadWriteCollection`,
//! a `BufferedCollection` or `Layers` (fresh, or in place into a target
//! with settings) and checks the result against the plain std/derived
//! form of the same data. Checker: `serde_model.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "serde_model.rs"]
mod serde_model;

fuzz_target!(|data: &[u8]| {
    serde_model::run(&serde_model::decode(data));
});

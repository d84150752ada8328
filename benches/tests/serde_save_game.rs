//! A save-game struct with `#[derive(Deserialize)]` whose collection fields
//! keep their settings when the game loads a save in place.
//!
//! serde has no field attribute for this. What works is serde_derive's
//! `deserialize_in_place` cargo feature (this package enables it for its
//! tests, as a dev-dependency; a game adds
//! `serde_derive = { version = "1", features = ["deserialize_in_place"] }`
//! next to `serde = { version = "1", features = ["derive"] }`): the derived
//! `deserialize_in_place` then calls each field's `deserialize_in_place`.
//! Without it, the derived `deserialize_in_place` replaces the whole struct
//! with a fresh `deserialize`, and every field loses its bound.
//! It lives in the benchmarks package so that the library's examples do not
//! build serde's derive. Run with
//! `cargo test -p read-write-collection-benches --test serde_save_game`.

use read_write_collection::{
    layer_keys, BufferedCollection, Builder, Layers, Mode, ReadWriteCollection,
};
use serde::Deserialize;

layer_keys!(
    enum Layer {
        Ground,
        Ships,
    }
);

#[derive(Deserialize)]
struct Save {
    particles: ReadWriteCollection<u32>,
    events: BufferedCollection<u32>,
    world: Layers<u32, Layer>,
    score: u64,
}

/// The running game: every collection with the settings the game gives it.
fn game() -> Save {
    Save {
        particles: ReadWriteCollection::bounded(4),
        events: BufferedCollection::bounded(3),
        world: Layers::from_collections([
            Builder::new().bounded(2).build(),
            Builder::new().unordered().build(),
        ]),
        score: 0,
    }
}

const SAVED: &str = r#"{
    "particles": [1, 2],
    "events": {"visible": [3], "pending": [4]},
    "world": [
        {"enabled": true, "visible": false, "items": [5]},
        {"enabled": false, "visible": true, "items": [6, 7, 8]}
    ],
    "score": 42
}"#;

fn load(json: &str, save: &mut Save) -> Result<(), serde_json::Error> {
    Save::deserialize_in_place(&mut serde_json::Deserializer::from_str(json), save)
}

#[test]
fn loading_in_place_keeps_every_fields_settings() {
    let mut save = game();
    load(SAVED, &mut save).unwrap();

    assert_eq!(save.particles, [1, 2]);
    assert_eq!(save.particles.max_len(), Some(4));
    assert_eq!(save.events.as_slice(), [3]);
    assert_eq!(save.events.local_pending(), [4]);
    assert_eq!(save.events.max_len(), Some(3));
    assert_eq!(save.world.layer(Layer::Ground), &[5]);
    assert!(!save.world.is_visible(Layer::Ground));
    assert_eq!(save.world.layer(Layer::Ground).max_len(), Some(2));
    assert_eq!(save.world.layer(Layer::Ships), &[6, 7, 8]);
    assert_eq!(save.world.layer(Layer::Ships).mode(), Mode::Unordered);
    assert_eq!(save.score, 42);

    // The bounds hold after the load.
    save.particles.extend([9, 10]);
    assert!(save.particles.try_push(11).is_err());
    save.events.push(12);
    assert!(save.events.try_push(13).is_err());
}

#[test]
fn a_live_producer_keeps_feeding_the_loaded_game() {
    let mut save = game();
    let producer = save.events.producer();
    producer.push(99).unwrap();
    load(SAVED, &mut save).unwrap();
    assert_eq!(save.events.producer_count(), 1);
    assert!(!producer.is_closed());
    save.events.commit();
    assert_eq!(save.events.as_slice(), [3, 4, 99]);
}

#[test]
fn a_plain_load_drops_the_settings() {
    let save: Save = serde_json::from_str(SAVED).unwrap();
    assert_eq!(save.particles, [1, 2]);
    assert_eq!(save.particles.max_len(), None);
    assert_eq!(save.events.max_len(), None);
    assert_eq!(save.world.layer(Layer::Ground).max_len(), None);
    assert_eq!(save.world.layer(Layer::Ships).mode(), Mode::Ordered);
}

#[test]
fn a_field_over_its_bound_is_an_error_and_that_field_is_unchanged() {
    let mut save = game();
    save.events.push(70);
    // The particles load; the events do not fit their bound of 3.
    let json = r#"{"particles": [1], "events": {"visible": [1, 2], "pending": [3, 4]},
                   "world": [], "score": 1}"#;
    let err = load(json, &mut save).unwrap_err();
    assert!(err.to_string().contains("maximum length 3"), "{err}");
    // Fields load one after the other: the one before the error is loaded,
    // the failing one and the ones after it are unchanged.
    assert_eq!(save.particles, [1]);
    assert_eq!(save.events.local_pending(), [70]);
    assert_eq!(save.events.max_len(), Some(3));
    assert_eq!(save.score, 0);
}

//! `Layers` under serde: each layer's elements and its enabled and visible
//! flags round-trip; malformed input, and a wrong number of layers for a
//! key with a fixed count, are serde errors, never panics; deserializing
//! in place keeps each layer's settings.
#![cfg(feature = "serde")]

use read_write_collection::{layer_keys, remove_when, Builder, Layers, Mode, ReadWriteCollection};
use serde::Deserialize;

layer_keys!(
    enum Layer {
        Ground,
        Ships,
        Hud,
    }
);

remove_when!(struct Spent for u32: |ttl| *ttl == 0);

fn world() -> Layers<u32, Layer> {
    let mut w: Layers<u32, Layer> = Layers::default();
    w.push(Layer::Ground, 1);
    w.push(Layer::Ships, 2);
    w.push(Layer::Ships, 3);
    w.set_enabled(Layer::Ships, false);
    w.set_visible(Layer::Hud, false);
    w
}

/// Contents and flags of every layer.
fn state<K: read_write_collection::LayerKey, A>(
    l: &Layers<u32, K, A>,
) -> Vec<(bool, bool, Vec<u32>)> {
    (0..l.layer_count())
        .map(|i| {
            let k = K::from_index(i).unwrap();
            (l.is_enabled(k), l.is_visible(k), l.layer(k).to_vec())
        })
        .collect()
}

#[test]
fn keyed_layers_round_trip_elements_and_flags() {
    let w = world();
    let json = serde_json::to_string(&w).unwrap();
    assert_eq!(
        json,
        r#"[{"enabled":true,"visible":true,"items":[1]},{"enabled":false,"visible":true,"items":[2,3]},{"enabled":true,"visible":false,"items":[]}]"#
    );
    let back: Layers<u32, Layer> = serde_json::from_str(&json).unwrap();
    assert_eq!(state(&back), state(&w));
    assert_eq!(
        state(&back),
        [
            (true, true, vec![1]),
            (false, true, vec![2, 3]),
            (true, false, vec![])
        ]
    );
}

#[test]
fn index_layers_round_trip_any_number_of_layers() {
    for n in [0, 1, 5] {
        let mut l: Layers<u32> = Layers::new(n);
        for i in 0..n {
            l.push(i, i as u32 * 10);
            l.set_enabled(i, i % 2 == 0);
            l.set_visible(i, i % 3 == 0);
        }
        let back: Layers<u32> = serde_json::from_str(&serde_json::to_string(&l).unwrap()).unwrap();
        assert_eq!(state(&back), state(&l));
    }
}

#[test]
fn a_policy_with_a_default_round_trips_and_applies_after_loading() {
    let mut l: Layers<u32, Layer, Spent> = Layers::default();
    l.push(Layer::Ships, 0);
    l.push(Layer::Ships, 4);
    let mut back: Layers<u32, Layer, Spent> =
        serde_json::from_str(&serde_json::to_string(&l).unwrap()).unwrap();
    assert_eq!(back.layer(Layer::Ships), &[0, 4]);
    back.traverse(|_, _| {});
    assert_eq!(back.layer(Layer::Ships), &[4]);
}

#[test]
fn a_wrong_number_of_layers_for_a_fixed_key_is_an_error() {
    let layer = r#"{"enabled":true,"visible":true,"items":[]}"#;
    for n in [0, 1, 2, 4, 7] {
        let json = format!("[{}]", vec![layer; n].join(","));
        let err = serde_json::from_str::<Layers<u32, Layer>>(&json).unwrap_err();
        assert!(
            err.to_string().contains("a sequence of 3 layers"),
            "{n} layers: {err}"
        );
    }
    let json = format!("[{}]", [layer; 3].join(","));
    assert!(serde_json::from_str::<Layers<u32, Layer>>(&json).is_ok());
}

#[test]
fn malformed_input_is_an_error() {
    let bad = [
        "",
        "{}",
        "3",
        "[3]",
        r#"[{"enabled":true,"visible":true}]"#,
        r#"[{"enabled":true,"items":[]}]"#,
        r#"[{"visible":true,"items":[]}]"#,
        r#"[{"enabled":1,"visible":true,"items":[]}]"#,
        r#"[{"enabled":true,"visible":true,"items":["x"]}]"#,
        r#"[{"enabled":true,"visible":true,"items":{}}]"#,
        r#"[{"enabled":true,"enabled":true,"visible":true,"items":[]}]"#,
        r#"[{"enabled":true,"visible":true,"items":[],"items":[]}]"#,
        r#"[[true,true]]"#,
        r#"[[true]]"#,
        r#"[{"enabled":true,"visible":true,"items":[-1]}]"#,
    ];
    for json in bad {
        assert!(
            serde_json::from_str::<Layers<u32>>(json).is_err(),
            "{json:?} was accepted"
        );
    }
    // Unknown fields are ignored, and the sequence form of a struct works.
    let ok: Layers<u32> = serde_json::from_str(
        r#"[{"enabled":false,"note":"x","visible":true,"items":[1]},[true,false,[2]]]"#,
    )
    .unwrap();
    assert_eq!(state(&ok), [(false, true, vec![1]), (true, false, vec![2])]);
}

#[test]
fn every_truncation_and_corruption_of_valid_input_is_an_error_not_a_panic() {
    let json = serde_json::to_string(&world()).unwrap();
    for end in 0..json.len() {
        assert!(serde_json::from_str::<Layers<u32, Layer>>(&json[..end]).is_err());
    }
    // Replace each byte with a few others: any result but a panic.
    let bytes = json.as_bytes();
    let mut accepted = 0;
    for i in 0..bytes.len() {
        for b in [b'0', b'[', b']', b'{', b'}', b',', b'"', b'x'] {
            let mut m = bytes.to_vec();
            m[i] = b;
            if let Ok(s) = std::str::from_utf8(&m) {
                if let Ok(l) = serde_json::from_str::<Layers<u32, Layer>>(s) {
                    assert_eq!(l.layer_count(), 3);
                    accepted += 1;
                }
            }
        }
    }
    assert!(accepted > 0, "digit replacements still parse");
}

#[test]
fn deserialize_in_place_keeps_each_layers_settings() {
    let json = serde_json::to_string(&world()).unwrap();
    let mut target: Layers<u32, Layer, Spent> = Layers::from_collections([
        Builder::new().bounded(4).policy(Spent).build(),
        Builder::new().unordered().policy(Spent).build(),
        ReadWriteCollection::default(),
    ]);
    target.push(Layer::Hud, 99);
    let mut de = serde_json::Deserializer::from_str(&json);
    Deserialize::deserialize_in_place(&mut de, &mut target).unwrap();
    assert_eq!(state(&target), state(&world()));
    assert_eq!(target.layer(Layer::Ground).max_len(), Some(4));
    assert_eq!(target.layer(Layer::Ships).mode(), Mode::Unordered);

    // Over a layer's bound: an error, and the bound holds.
    let mut small: Layers<u32, Layer> = Builder::new().bounded(1).build_layers(3);
    let mut de = serde_json::Deserializer::from_str(&json);
    assert!(Deserialize::deserialize_in_place(&mut de, &mut small).is_err());
    assert!(small.layer(Layer::Ships).len() <= 1);

    // Another number of layers than the target has: an error.
    let mut two: Layers<u32> = Layers::new(2);
    let mut de = serde_json::Deserializer::from_str(&json);
    let err = Deserialize::deserialize_in_place(&mut de, &mut two).unwrap_err();
    assert!(err.to_string().contains("a sequence of 2 layers"), "{err}");
    let mut four: Layers<u32> = Layers::new(4);
    let mut de = serde_json::Deserializer::from_str(&json);
    assert!(Deserialize::deserialize_in_place(&mut de, &mut four).is_err());
}

/// The errors say what went wrong: how many layers there were, what a
/// layer should look like, which field came twice.
#[test]
fn errors_name_the_length_the_shape_and_the_field() {
    let layer = r#"{"enabled":true,"visible":true,"items":[]}"#;
    let four = format!("[{}]", [layer; 4].join(","));
    let err = serde_json::from_str::<Layers<u32, Layer>>(&four).unwrap_err();
    assert!(err.to_string().contains("invalid length 4"), "{err}");
    let mut three: Layers<u32> = Layers::new(3);
    let mut de = serde_json::Deserializer::from_str(&four);
    let err = Deserialize::deserialize_in_place(&mut de, &mut three).unwrap_err();
    assert!(err.to_string().contains("invalid length 4"), "{err}");

    let err = serde_json::from_str::<Layers<u32>>("[3]").unwrap_err();
    assert!(
        err.to_string()
            .contains("expected struct Layer { enabled, visible, items }"),
        "{err}"
    );
    let err = serde_json::from_str::<Layers<u32>>(
        r#"[{"enabled":true,"visible":true,"visible":false,"items":[]}]"#,
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("duplicate field `visible`"),
        "{err}"
    );
}

/// Formats that name a struct's fields by index (0, 1, 2) load a layer as
/// those that name them by string do; a key of another type is an error
/// that names the fields.
#[test]
fn a_layer_with_fields_named_by_index_loads() {
    use serde::de::value::{MapDeserializer, SeqDeserializer};
    use serde_json::{json, Error, Value};

    let layer = |fields: Vec<(u64, Value)>| MapDeserializer::<_, Error>::new(fields.into_iter());
    let layers = vec![
        layer(vec![
            (0, json!(false)),
            (1, json!(true)),
            (2, json!([1, 2])),
        ]),
        layer(vec![
            (2, json!([3])),
            (1, json!(false)),
            (0, json!(true)),
            (9, json!("x")),
        ]),
    ];
    let loaded =
        Layers::<u32>::deserialize(SeqDeserializer::<_, Error>::new(layers.into_iter())).unwrap();
    assert_eq!(
        state(&loaded),
        [(false, true, vec![1, 2]), (true, false, vec![3])]
    );

    let bad = vec![MapDeserializer::<_, Error>::new(
        vec![(true, json!(true))].into_iter(),
    )];
    let err =
        Layers::<u32>::deserialize(SeqDeserializer::<_, Error>::new(bad.into_iter())).unwrap_err();
    assert!(
        err.to_string().contains("`enabled`, `visible` or `items`"),
        "{err}"
    );
}

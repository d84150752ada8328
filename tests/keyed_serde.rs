//! `KeyedCollection` and its keys through serde: a save keeps every key
//! (live ones name the same elements, stale ones stay stale, retired slots
//! stay retired, later pushes reuse no saved key), and a save whose keys
//! would point wrong is an error.
#![cfg(feature = "serde")]

mod common;

use common::splitmix;
use read_write_collection::keyed::{DefaultKey, Key};
use read_write_collection::{new_key_type, KeyedCollection};

new_key_type! {
    /// A ship's key, saved inside other ships.
    struct ShipKey;
}

/// A ship: its name and the ship it follows. (A tuple: the crate's tests
/// build without serde's derive.)
type Ship = (String, Option<ShipKey>);

/// A collection after churn: removals, reuse, a pass that removes and
/// pushes. Returns it with every key it ever handed out.
fn churned(seed: u64) -> (KeyedCollection<Ship, ShipKey>, Vec<ShipKey>) {
    let mut c: KeyedCollection<Ship, ShipKey> = KeyedCollection::with_key();
    let mut issued = Vec::new();
    for i in 0..40u64 {
        let r = splitmix(seed ^ i);
        let follows = (!issued.is_empty()).then(|| issued[(r as usize >> 8) % issued.len()]);
        let k = c.push((format!("s{i}"), follows));
        issued.push(k);
        if r % 3 == 0 {
            let victim = issued[(r as usize >> 16) % issued.len()];
            c.remove(victim);
        }
    }
    let mut spawned = Vec::new();
    c.traverse(|mut e| {
        if e.0.ends_with('7') {
            e.remove();
        } else if e.0.ends_with('5') {
            let name = format!("{}+", e.0);
            spawned.push(e.push((name, None)));
        }
    });
    issued.extend(spawned);
    (c, issued)
}

fn assert_same_keys(
    a: &KeyedCollection<Ship, ShipKey>,
    b: &KeyedCollection<Ship, ShipKey>,
    keys: &[ShipKey],
) {
    assert!(a.iter().eq(b.iter()), "keys and elements, in order");
    for &k in keys {
        assert_eq!(a.get(k), b.get(k), "{k:?}");
        assert_eq!(a.index_of(k), b.index_of(k), "{k:?}");
    }
}

#[test]
fn a_save_keeps_every_key() {
    for seed in 0..if cfg!(miri) { 2 } else { 50 } {
        let (c, issued) = churned(seed);
        let json = serde_json::to_string(&c).expect("serializes");
        let mut back: KeyedCollection<Ship, ShipKey> = serde_json::from_str(&json).expect("loads");
        assert_same_keys(&c, &back, &issued);
        assert_eq!(c, back);
        // The links saved inside the elements still resolve.
        for (_, ship) in back.iter() {
            if let Some(leader) = ship.1 {
                assert_eq!(back.get(leader), c.get(leader));
            }
        }
        // Later pushes reuse no key handed out before the save (vacant
        // slots may come back in another order than without the save).
        for i in 0..30 {
            let k = back.push((format!("n{i}"), None));
            assert!(!issued.contains(&k), "{k:?} was handed out before the save");
        }
        for &k in &issued {
            assert_eq!(back.get(k), c.get(k), "{k:?}");
        }
    }
}

#[test]
fn keys_serialize_as_index_and_version() {
    let mut c: KeyedCollection<u8> = KeyedCollection::new();
    let a = c.push(1);
    c.remove(a);
    let b = c.push(2);
    assert_eq!(serde_json::to_string(&b).unwrap(), "[0,3]");
    let back: DefaultKey = serde_json::from_str("[0,3]").unwrap();
    assert_eq!(back, b);
    assert_eq!(back.data(), b.data());
    assert!(
        serde_json::from_str::<DefaultKey>("[0,0]").is_err(),
        "version 0"
    );
    let ship: ShipKey = serde_json::from_str("[4,1]").unwrap();
    assert_eq!(format!("{ship:?}"), "ShipKey(4v1)");
}

#[test]
fn a_save_whose_keys_would_point_wrong_is_an_error() {
    type C = KeyedCollection<u8>;
    let load = |s: &str| serde_json::from_str::<C>(s);
    // The well-formed ones first.
    assert_eq!(load(r#"{"slots":[],"elements":[]}"#).unwrap().len(), 0);
    let c = load(r#"{"slots":[1,4,0,3],"elements":[[3,30],[0,10]]}"#).unwrap();
    assert_eq!(c.as_slice(), [30, 10]);
    assert_eq!(load(r#"[[1],[[0,7]]]"#).unwrap().as_slice(), [7]);
    for (bad, why) in [
        (r#"{"slots":[1],"elements":[[1,5]]}"#, "not in the table"),
        (r#"{"slots":[2],"elements":[[0,5]]}"#, "vacant"),
        (r#"{"slots":[0],"elements":[[0,5]]}"#, "vacant"),
        (r#"{"slots":[1],"elements":[[0,5],[0,6]]}"#, "share a slot"),
        (r#"{"slots":[1,1],"elements":[[0,5]]}"#, "has no element"),
        (r#"{"slots":[1]}"#, "missing field"),
        (r#"{"elements":[]}"#, "missing field"),
        (
            r#"{"slots":[1],"slots":[1],"elements":[[0,1]]}"#,
            "duplicate field",
        ),
    ] {
        let err = load(bad).expect_err(bad).to_string();
        assert!(err.contains(why), "{bad}: {err}");
    }
}

/// A retired slot (its version would wrap) stays retired through a save.
#[test]
fn a_retired_slot_stays_retired() {
    let c: KeyedCollection<u8> =
        serde_json::from_str(r#"{"slots":[0,1],"elements":[[1,9]]}"#).unwrap();
    let mut c = c;
    let k = c.push(5);
    assert_eq!(format!("{:?}", k.data()), "2v1", "slot 0 is never reused");
    let json = serde_json::to_string(&c).unwrap();
    assert_eq!(json, r#"{"slots":[0,1,1],"elements":[[1,9],[2,5]]}"#);
}

/// Loading in place keeps the target's bound, mode and policy; a save
/// over the bound, or a malformed one, leaves the target unchanged.
#[test]
fn loading_in_place_keeps_the_settings() {
    use read_write_collection::Mode;
    use serde::Deserialize;

    let mut saved: KeyedCollection<u8> = KeyedCollection::new();
    let keys: Vec<_> = (1..=3).map(|v| saved.push(v)).collect();
    saved.remove(keys[0]);
    let json = serde_json::to_string(&saved).unwrap();

    read_write_collection::remove_when!(struct Three for u8: |v| *v == 3);
    let mut place = KeyedCollection::with_auto_remove(Three);
    place.set_max_len(Some(2));
    place.set_mode(Mode::Unordered);
    let before = place.push(9);
    KeyedCollection::deserialize_in_place(
        &mut serde_json::Deserializer::from_str(&json),
        &mut place,
    )
    .expect("fits the bound");
    assert_eq!(place.as_slice(), [2, 3]);
    assert_eq!(
        (place.get(keys[1]), place.get(keys[2])),
        (Some(&2), Some(&3))
    );
    assert_eq!((place.max_len(), place.mode()), (Some(2), Mode::Unordered));
    assert!(!place.contains_key(before) || place.get(before) != Some(&9));
    place.traverse(|_| {}); // the kept predicate
    assert_eq!(place.as_slice(), [2]);

    // Over the bound, then malformed: refused, nothing changed.
    let snapshot: Vec<_> = place.iter().map(|(k, v)| (k, *v)).collect();
    let three = r#"{"slots":[1,1,1],"elements":[[0,1],[1,2],[2,4]]}"#;
    let bad = r#"{"slots":[2],"elements":[[0,1]]}"#;
    for input in [three, bad] {
        let err = KeyedCollection::deserialize_in_place(
            &mut serde_json::Deserializer::from_str(input),
            &mut place,
        );
        assert!(err.is_err(), "{input}");
        assert!(place
            .iter()
            .map(|(k, v)| (k, *v))
            .eq(snapshot.iter().copied()));
    }
}

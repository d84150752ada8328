//! `Deserialize::deserialize_in_place` for every collection type: a load
//! keeps the target's settings (bound, mode, shrink policy, auto-remove
//! policy), a queue's live producers stay connected and keep their queued
//! pushes, and a load that fails leaves the target exactly as it was.
//! Run with `cargo test --all-features --test serde_in_place`.
#![cfg(feature = "serde")]

use read_write_collection::{
    layer_keys, remove_when, BufferedCollection, Builder, Layers, Mode, ReadWriteCollection,
    ShrinkPolicy,
};
use serde::Deserialize;

remove_when!(struct Spent for u32: |ttl| *ttl == 0);

layer_keys!(
    enum Layer {
        Ground,
        Ships,
        Hud,
    }
);

/// Loads `json` into `place`. (Trailing characters are left alone: serde
/// sees them only in `Deserializer::end`, after the load.)
fn load<'de, T: Deserialize<'de>>(json: &'de str, place: &mut T) -> Result<(), serde_json::Error> {
    T::deserialize_in_place(&mut serde_json::Deserializer::from_str(json), place)
}

/// Every prefix of `json` and a few one-byte corruptions of it that do not
/// start with a `T` (a corruption that still parses, such as one digit for
/// another or a `]` that ends the value early, is left out).
fn broken<T: for<'de> Deserialize<'de>>(json: &str) -> Vec<String> {
    // Miri: a sample of the positions (every one takes seconds there).
    let step = if cfg!(miri) { 7 } else { 1 };
    let mut out: Vec<String> = (0..json.len())
        .step_by(step)
        .map(|end| json[..end].to_owned())
        .collect();
    let bytes = json.as_bytes();
    for i in (0..bytes.len()).step_by(step) {
        for b in [b'[', b']', b'{', b'}', b',', b'"', b'x', b'-'] {
            let mut m = bytes.to_vec();
            m[i] = b;
            if let Ok(s) = String::from_utf8(m) {
                if T::deserialize(&mut serde_json::Deserializer::from_str(&s)).is_err() {
                    out.push(s);
                }
            }
        }
    }
    out
}

// ---------------------------------------------------------------- ReadWriteCollection

fn bounded_collection() -> ReadWriteCollection<u32, Spent> {
    let mut c: ReadWriteCollection<u32, Spent> =
        Builder::new().bounded(4).unordered().policy(Spent).build();
    c.set_shrink_policy(Some(ShrinkPolicy::new(25, 3)));
    c.extend([5, 6, 7]);
    c
}

fn same_collection(a: &ReadWriteCollection<u32, Spent>, b: &ReadWriteCollection<u32, Spent>) {
    assert_eq!(a, b);
    assert_eq!(a.max_len(), b.max_len());
    assert_eq!(a.mode(), b.mode());
    assert_eq!(a.shrink_policy(), b.shrink_policy());
}

#[test]
fn collection_failed_loads_leave_the_target_unchanged() {
    let valid = "[1,2,0,3]";
    let mut target = bounded_collection();
    let before = target.clone();
    for json in broken::<Vec<u32>>(valid) {
        assert!(load(&json, &mut target).is_err(), "{json:?} loaded");
        same_collection(&target, &before);
    }
    // Corrupt elements after good ones, and one element too many.
    for json in [
        "[1,2,\"x\"]",
        "[1,2,3,-4]",
        "[1,2,3,4,5]",
        "[1,2,3,4,5,6,7,8]",
    ] {
        assert!(load(json, &mut target).is_err(), "{json:?} loaded");
        same_collection(&target, &before);
        assert!(target.capacity() <= 4);
    }
    // The valid one loads and keeps every setting.
    load(valid, &mut target).unwrap();
    assert_eq!(target, [1, 2, 0, 3]);
    assert_eq!(target.max_len(), Some(4));
    assert_eq!(target.mode(), Mode::Unordered);
    assert_eq!(target.shrink_policy(), Some(ShrinkPolicy::new(25, 3)));
    assert!(target.capacity() <= 4, "never allocates past the bound");
    assert_eq!(target.prune(), 1, "the target's policy");
}

#[test]
fn collection_over_the_bound_is_an_error_naming_the_bound() {
    let mut target = bounded_collection();
    let before = target.clone();
    let err = load("[1,2,3,4,5]", &mut target).unwrap_err();
    assert!(err.to_string().contains("at most 4 elements"), "{err}");
    same_collection(&target, &before);
}

// ---------------------------------------------------------------- BufferedCollection

fn queue() -> BufferedCollection<u32, Spent> {
    let mut q = BufferedCollection::with_policy(Spent);
    q.set_max_len(Some(6));
    q.set_mode(Mode::Unordered);
    q.set_shrink_policy(Some(ShrinkPolicy::new(10, 2)));
    q.extend([1, 2]);
    q.commit();
    q.push(3);
    q
}

fn same_queue(a: &BufferedCollection<u32, Spent>, b: &BufferedCollection<u32, Spent>) {
    assert_eq!(a, b);
    assert_eq!(a.max_len(), b.max_len());
    assert_eq!(a.mode(), b.mode());
    assert_eq!(a.shrink_policy(), b.shrink_policy());
}

#[test]
fn queue_load_keeps_the_settings() {
    let mut q = queue();
    load(r#"{"visible":[0,8],"pending":[9]}"#, &mut q).unwrap();
    assert_eq!(q.as_slice(), [0, 8]);
    assert_eq!(q.local_pending(), [9]);
    assert_eq!(q.max_len(), Some(6));
    assert_eq!(q.mode(), Mode::Unordered);
    assert_eq!(q.shrink_policy(), Some(ShrinkPolicy::new(10, 2)));
    assert_eq!(q.prune(), 1, "the target's policy");
    // The sequence form loads too.
    load("[[4],[5,6]]", &mut q).unwrap();
    assert_eq!((q.as_slice(), q.local_pending()), (&[4][..], &[5, 6][..]));
}

#[test]
fn queue_failed_loads_leave_the_target_unchanged() {
    let valid = r#"{"visible":[1,0],"pending":[2,3]}"#;
    let mut q = queue();
    let before = q.clone();
    for json in broken::<BufferedCollection<u32>>(valid) {
        assert!(load(&json, &mut q).is_err(), "{json:?} loaded");
        same_queue(&q, &before);
    }
    load(valid, &mut q).unwrap();
    assert_eq!(
        (q.as_slice(), q.local_pending()),
        (&[1, 0][..], &[2, 3][..])
    );
}

#[test]
fn queue_over_the_bound_is_an_error_and_changes_nothing() {
    let mut q = queue();
    let before = q.clone();
    for json in [
        r#"{"visible":[1,2,3,4,5,6,7],"pending":[]}"#,
        r#"{"visible":[],"pending":[1,2,3,4,5,6,7]}"#,
        r#"{"visible":[1,2,3,4],"pending":[5,6,7]}"#,
        r#"{"pending":[1,2,3,4],"visible":[5,6,7]}"#,
        "[[1,2,3],[4,5,6,7]]",
    ] {
        let err = load(json, &mut q).unwrap_err();
        assert!(
            err.to_string().contains("maximum length 6"),
            "{json}: {err}"
        );
        same_queue(&q, &before);
    }
    // Exactly at the bound is fine.
    load(r#"{"visible":[1,2,3],"pending":[4,5,6]}"#, &mut q).unwrap();
    assert_eq!(q.len() + q.pending_len(), 6);
}

#[cfg(feature = "std")]
mod producers {
    use super::*;
    use read_write_collection::TryPushError;

    #[test]
    fn live_producer_stays_connected_and_its_push_arrives_once() {
        let mut q: BufferedCollection<u32> = BufferedCollection::bounded(4);
        q.set_mode(Mode::Unordered);
        q.push(7);
        let p = q.producer();
        p.push(99).unwrap();
        let count = q.producer_count();

        load(r#"{"visible":[1],"pending":[2]}"#, &mut q).unwrap();
        assert_eq!(q.max_len(), Some(4));
        assert_eq!(q.mode(), Mode::Unordered);
        assert_eq!(q.producer_count(), count);
        assert!(!q.is_closed() && !p.is_closed());
        assert_eq!(q.as_slice(), [1]);
        assert_eq!(q.local_pending(), [2]);
        assert_eq!(q.pending_len(), 2, "the loaded pending element and 99");

        // 1 visible + 1 pending + 99 queued: room for one more.
        assert_eq!(p.try_push(100), Ok(()));
        assert_eq!(p.try_push(101), Err(TryPushError::Full(101)));
        assert_eq!(q.commit(), 3);
        assert_eq!(
            q.as_slice(),
            [1, 2, 99, 100],
            "loaded pending first, each once"
        );
        assert_eq!(q.commit(), 0);
    }

    #[test]
    fn producers_see_a_smaller_count_after_the_load() {
        let mut q: BufferedCollection<u32> = BufferedCollection::bounded(4);
        q.extend([7, 8]);
        q.commit();
        q.push(9);
        let p = q.producer();
        p.push(99).unwrap();
        assert_eq!(p.try_push(100), Err(TryPushError::Full(100)));

        load(r#"{"visible":[],"pending":[1]}"#, &mut q).unwrap();
        // 1 pending + 99 queued: room for two.
        assert_eq!(p.try_push(100), Ok(()));
        assert_eq!(p.try_push(101), Ok(()));
        assert_eq!(p.try_push(102), Err(TryPushError::Full(102)));
        q.commit();
        assert_eq!(q.as_slice(), [1, 99, 100, 101]);
    }

    #[test]
    fn producers_see_a_larger_count_after_the_load() {
        let mut q: BufferedCollection<u32> = BufferedCollection::bounded(4);
        let p = q.producer();
        p.push(99).unwrap();

        load(r#"{"visible":[1,2],"pending":[3]}"#, &mut q).unwrap();
        // 3 loaded + 99 queued: full.
        assert_eq!(p.try_push(100), Err(TryPushError::Full(100)));
        assert!(q.try_push(100).is_err());
        q.commit();
        assert_eq!(q.as_slice(), [1, 2, 3, 99]);
    }

    #[test]
    fn over_the_bound_with_the_producers_queue_is_an_error() {
        let mut q: BufferedCollection<u32> = BufferedCollection::bounded(3);
        q.push(5);
        let p = q.producer();
        p.push(99).unwrap();
        let before = q.clone();

        let err = load(r#"{"visible":[1,2],"pending":[3]}"#, &mut q).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("maximum length 3"), "{msg}");
        assert!(msg.contains("1 queued by producers"), "{msg}");
        assert_eq!(q, before);
        assert_eq!(q.max_len(), Some(3));
        assert_eq!(q.producer_count(), 1);
        assert!(!p.is_closed());

        // Nothing was lost: the old contents, then 99.
        q.commit();
        assert_eq!(q.as_slice(), [5, 99]);
        assert_eq!(p.try_push(1), Ok(()));
        assert_eq!(p.try_push(2), Err(TryPushError::Full(2)));
    }

    #[test]
    fn failed_loads_keep_the_producers_queue() {
        let mut q: BufferedCollection<u32> = BufferedCollection::bounded(5);
        q.push(5);
        let p = q.producer();
        p.push(99).unwrap();
        let before = q.clone();
        for json in broken::<BufferedCollection<u32>>(r#"{"visible":[1],"pending":[2]}"#) {
            assert!(load(&json, &mut q).is_err(), "{json:?} loaded");
            assert_eq!(q, before);
            assert_eq!(q.pending_len(), 2);
        }
        assert_eq!(q.producer_count(), 1);
        q.commit();
        assert_eq!(q.as_slice(), [5, 99]);
    }

    #[test]
    fn an_unbounded_queue_keeps_its_producers_too() {
        let mut q: BufferedCollection<u32> = BufferedCollection::new();
        let p = q.producer();
        p.push(99).unwrap();
        load(r#"{"visible":[1],"pending":[2]}"#, &mut q).unwrap();
        assert_eq!(q.max_len(), None);
        p.push(100).unwrap();
        q.commit();
        assert_eq!(q.as_slice(), [1, 2, 99, 100]);
    }

    /// A producer pushing while the queue loads: the bound holds at every
    /// commit, and every accepted push arrives exactly once.
    #[test]
    fn a_load_racing_a_producer_keeps_the_bound() {
        let max = 8;
        let mut q: BufferedCollection<u32> = BufferedCollection::bounded(max);
        let p = q.producer();
        let rounds = if cfg!(miri) { 3 } else { 200 };
        std::thread::scope(|s| {
            let pusher = s.spawn(move || {
                let mut accepted = Vec::new();
                for v in 1000..1000 + 4 * rounds {
                    if p.try_push(v).is_ok() {
                        accepted.push(v);
                    }
                    std::thread::yield_now();
                }
                accepted
            });
            let mut seen = Vec::new();
            for _ in 0..rounds {
                // Loading may fail when the producer's queue is too long;
                // either way the bound must hold.
                let _ = load(r#"{"visible":[1,2,3],"pending":[4]}"#, &mut q);
                assert!(q.len() + q.pending_len() <= max);
                q.commit();
                assert!(q.len() <= max);
                q.traverse(|e| {
                    let v = e.remove();
                    if v >= 1000 {
                        seen.push(v);
                    }
                });
            }
            let accepted = pusher.join().unwrap();
            q.commit();
            seen.extend(q.iter().copied().filter(|v| *v >= 1000));
            seen.sort_unstable();
            assert_eq!(seen, accepted, "every accepted push arrives once");
        });
    }
}

// ---------------------------------------------------------------- Layers

fn world() -> Layers<u32, Layer, Spent> {
    let mut w: Layers<u32, Layer, Spent> = Layers::from_collections([
        Builder::new().bounded(3).policy(Spent).build(),
        Builder::new().unordered().policy(Spent).build(),
        Builder::new().bounded(2).policy(Spent).build(),
    ]);
    w.push(Layer::Ground, 1);
    w.push(Layer::Ships, 2);
    w.set_enabled(Layer::Ships, false);
    w.set_visible(Layer::Hud, false);
    w
}

/// Each layer's flags, elements, bound and mode.
type LayerState = (bool, bool, Vec<u32>, Option<usize>, Mode);

fn state(w: &Layers<u32, Layer, Spent>) -> Vec<LayerState> {
    Layer::ALL
        .into_iter()
        .map(|k| {
            let l = w.layer(k);
            (
                w.is_enabled(k),
                w.is_visible(k),
                l.to_vec(),
                l.max_len(),
                l.mode(),
            )
        })
        .collect()
}

fn same_world(a: &Layers<u32, Layer, Spent>, b: &Layers<u32, Layer, Spent>) {
    assert_eq!(state(a), state(b));
}

const SAVE: &str = r#"[{"enabled":false,"visible":true,"items":[7,0]},{"enabled":true,"visible":false,"items":[8,9,10]},{"enabled":true,"visible":true,"items":[11]}]"#;

#[test]
fn layers_failed_loads_leave_the_target_unchanged() {
    let mut w = world();
    let before = w.clone();
    for json in broken::<Layers<u32, Layer>>(SAVE) {
        assert!(load(&json, &mut w).is_err(), "{json:?} loaded");
        same_world(&w, &before);
    }
    load(SAVE, &mut w).unwrap();
    assert_eq!(w.layer(Layer::Ground), &[7, 0]);
    assert_eq!(w.layer(Layer::Ships), &[8, 9, 10]);
    assert_eq!(w.layer(Layer::Hud), &[11]);
    assert!(!w.is_enabled(Layer::Ground) && !w.is_visible(Layer::Ships));
    assert_eq!(w.layer(Layer::Ground).max_len(), Some(3));
    assert_eq!(w.layer(Layer::Ships).mode(), Mode::Unordered);
    assert_eq!(w.layer(Layer::Hud).max_len(), Some(2));
}

#[test]
fn a_bad_later_layer_keeps_the_earlier_ones_too() {
    let mut w = world();
    let before = w.clone();
    // Layers 0 and 1 are fine; layer 2 is over its bound of 2.
    let json = r#"[{"enabled":true,"visible":true,"items":[5]},{"enabled":true,"visible":true,"items":[6]},{"enabled":true,"visible":true,"items":[1,2,3]}]"#;
    let err = load(json, &mut w).unwrap_err();
    assert!(err.to_string().starts_with("layer 2: "), "{err}");
    assert!(err.to_string().contains("at most 2 elements"), "{err}");
    same_world(&w, &before);
}

#[test]
fn a_layer_error_names_the_layer() {
    let cases = [
        (r#"[{"enabled":true,"visible":true,"items":["x"]}]"#, 0),
        (
            r#"[{"enabled":true,"visible":true,"items":[]},{"enabled":1,"visible":true,"items":[]}]"#,
            1,
        ),
        (
            r#"[{"enabled":true,"visible":true,"items":[]},{"enabled":true,"visible":true,"items":[]},{"visible":true,"items":[]}]"#,
            2,
        ),
    ];
    for (json, layer) in cases {
        let prefix = format!("layer {layer}: ");
        let mut w = world();
        let err = load(json, &mut w).unwrap_err();
        assert!(err.to_string().starts_with(&prefix), "{json}: {err}");
        let err = serde_json::from_str::<Layers<u32, Layer>>(json).unwrap_err();
        assert!(err.to_string().starts_with(&prefix), "{json}: {err}");
    }
}

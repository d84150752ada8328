//! Layer keys that know their layers: `layer_keys!` defines the enum,
//! `Layers<T, Key>: Default` has one layer per variant, keys (not indices)
//! come back wherever a layer is named, and generated layers (proptest,
//! quickcheck, arbitrary) have exactly one layer per variant with flags
//! that vary.

use std::collections::HashSet;
use std::fmt::Debug;
use std::hash::Hash;

use read_write_collection::{layer_keys, remove_when, Builder, LayerKey, Layers};

layer_keys! {
    /// Draw order, back to front.
    enum Layer {
        Background,
        /// Ships and enemies.
        Enemies,
        Bullets,
        Hud,
    }
}

remove_when!(struct Spent for u32: |ttl| *ttl == 0);

fn assert_key_traits<K: LayerKey + Clone + Copy + Debug + PartialEq + Eq + Hash>() {}

#[test]
fn the_macro_derives_the_traits_and_numbers_the_variants_in_order() {
    assert_key_traits::<Layer>();
    assert_eq!(Layer::COUNT, Some(4));
    assert_eq!(
        Layer::ALL,
        [
            Layer::Background,
            Layer::Enemies,
            Layer::Bullets,
            Layer::Hud
        ]
    );
    for (i, key) in Layer::ALL.into_iter().enumerate() {
        assert_eq!(key.index(), i);
        assert_eq!(Layer::from_index(i), Some(key));
    }
    assert_eq!(Layer::from_index(4), None);
    assert_eq!(format!("{:?}", Layer::Bullets), "Bullets");
    let set: HashSet<Layer> = Layer::ALL.into_iter().collect();
    assert_eq!(set.len(), 4);
    // `usize` keys name any number of layers.
    assert_eq!(<usize as LayerKey>::COUNT, None);
    assert_eq!(usize::from_index(7), Some(7));
}

#[test]
fn default_has_one_enabled_visible_layer_per_variant() {
    let world: Layers<u32, Layer> = Layers::default();
    assert_eq!(world.layer_count(), 4);
    for key in Layer::ALL {
        assert!(world.layer(key).is_empty());
        assert!(world.is_enabled(key) && world.is_visible(key));
    }
    // With a policy that has a default, too.
    let mut spent: Layers<u32, Layer, Spent> = Layers::default();
    spent.push(Layer::Hud, 0);
    spent.push(Layer::Hud, 1);
    spent.traverse(|_, _| {});
    assert_eq!(spent.layer(Layer::Hud), &[1]);
    // Index keys fix no number: no layers, as an empty `Vec`.
    assert_eq!(Layers::<u32>::default().layer_count(), 0);
}

#[test]
fn traverse_iter_visible_and_layer_hand_back_keys() {
    let mut world: Layers<u32, Layer> = Layers::default();
    world.push(Layer::Background, 1);
    world.push(Layer::Bullets, 3);
    world.push(Layer::Hud, 4);
    world.set_visible(Layer::Hud, false);

    let mut traversed = Vec::new();
    world.traverse(|layer, e| {
        assert_eq!(e.layer(), layer);
        traversed.push((layer, *e));
    });
    assert_eq!(
        traversed,
        [(Layer::Background, 1), (Layer::Bullets, 3), (Layer::Hud, 4)]
    );

    let drawn: Vec<(Layer, u32)> = world.iter_visible().map(|(k, v)| (k, *v)).collect();
    assert_eq!(drawn, [(Layer::Background, 1), (Layer::Bullets, 3)]);

    let mut cursor = world.cursor();
    assert_eq!(cursor.layer(), None);
    let (layer, e) = cursor.next_with_layer().unwrap();
    assert_eq!((layer, *e), (Layer::Background, 1));
    assert_eq!(cursor.layer(), Some(Layer::Background));
    let e = cursor.next().unwrap();
    assert_eq!(e.layer(), Layer::Bullets);
    assert_eq!(format!("{e:?}"), "LayerEntry { layer: Bullets, value: 3 }");
    assert_eq!(
        format!("{cursor:?}"),
        "LayersCursor { layer: Some(Bullets), .. }"
    );
    drop(cursor);

    let mut sunk = Vec::new();
    let mut cursor = world.cursor_with_sink(|v| sunk.push(v));
    let (layer, e) = cursor.next_with_layer().unwrap();
    assert_eq!((layer, e.layer()), (Layer::Background, Layer::Background));
    e.remove_to_sink();
    assert_eq!(cursor.layer(), Some(Layer::Background));
    drop(cursor);
    let mut seen = Vec::new();
    world.traverse_with_sink(drop, |layer, e| seen.push((layer, e.layer())));
    assert_eq!(
        seen,
        [(Layer::Bullets, Layer::Bullets), (Layer::Hud, Layer::Hud)]
    );
    assert_eq!(sunk, [1]);
}

#[test]
fn usize_keys_keep_getting_indices() {
    let mut l: Layers<u8> = Layers::new(3);
    l.push(2, 9);
    let mut seen = Vec::new();
    l.traverse(|layer, e| seen.push((layer, e.layer(), *e)));
    assert_eq!(seen, [(2usize, 2usize, 9)]);
    assert_eq!(l.iter_visible().collect::<Vec<_>>(), [(2usize, &9)]);
    assert_eq!(l.cursor().next_with_layer().map(|(k, _)| k), Some(2usize));
}

#[test]
#[should_panic(expected = "3 layers for a key type that names 4")]
fn a_fixed_key_refuses_another_layer_count() {
    let _: Layers<u8, Layer> = Layers::new(3);
}

#[test]
#[should_panic(expected = "5 layers for a key type that names 4")]
fn a_fixed_key_refuses_another_number_of_collections() {
    let _: Layers<u32, Layer, Spent> = Builder::new().policy(Spent).build_layers(5);
}

#[test]
fn builder_builds_one_layer_per_key() {
    let l: Layers<u32, Layer, Spent> = Builder::new()
        .bounded(8)
        .policy(Spent)
        .build_layers(Layer::ALL.len());
    assert_eq!(l.layer(Layer::Hud).max_len(), Some(8));
}

/// Generated values per check (Miri runs about a thousand times slower).
#[cfg(any(feature = "proptest", feature = "quickcheck", feature = "arbitrary"))]
const ROUNDS: usize = if cfg!(miri) { 8 } else { 64 };

#[cfg(any(feature = "proptest", feature = "quickcheck", feature = "arbitrary"))]
/// Whether a set of generated layers reached a disabled and a hidden layer,
/// and never another number of layers.
#[derive(Default)]
struct Reach {
    disabled: bool,
    hidden: bool,
    enabled: bool,
    visible: bool,
    nonempty: bool,
}

#[cfg(any(feature = "proptest", feature = "quickcheck", feature = "arbitrary"))]
impl Reach {
    fn see(&mut self, l: &Layers<u8, Layer>) {
        assert_eq!(l.layer_count(), 4, "one layer per variant");
        for key in Layer::ALL {
            let _ = l.layer(key); // never panics
            self.disabled |= !l.is_enabled(key);
            self.enabled |= l.is_enabled(key);
            self.hidden |= !l.is_visible(key);
            self.visible |= l.is_visible(key);
            self.nonempty |= !l.layer(key).is_empty();
        }
    }

    fn assert_all(&self) {
        assert!(self.disabled && self.enabled, "enabled flags vary");
        assert!(self.hidden && self.visible, "visible flags vary");
        assert!(self.nonempty, "some layer has elements");
    }
}

#[cfg(feature = "proptest")]
#[test]
fn proptest_generates_one_layer_per_variant_with_varying_flags() {
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    let mut runner = TestRunner::deterministic();
    let mut reach = Reach::default();
    for _ in 0..ROUNDS {
        let small = any_with::<Layers<u8, Layer>>(((0..8usize).into(), ()));
        let mut tree = small.new_tree(&mut runner).unwrap();
        reach.see(&tree.current());
        // Shrinking keeps one layer per variant.
        for _ in 0..16 {
            if !tree.simplify() {
                break;
            }
            assert_eq!(tree.current().layer_count(), 4);
        }
    }
    reach.assert_all();

    // And in a user's property: `layer(Layer::Hud)` never panics.
    proptest!(|(layers in any::<Layers<u8, Layer>>())| {
        prop_assert!(layers.layer(Layer::Hud).len() <= 100);
    });
}

#[cfg(feature = "quickcheck")]
#[test]
fn quickcheck_generates_one_layer_per_variant_with_varying_flags_and_shrinks_keeping_it() {
    use quickcheck::{Arbitrary, Gen};

    let mut g = Gen::new(8);
    let mut reach = Reach::default();
    for _ in 0..ROUNDS {
        let l = Layers::<u8, Layer>::arbitrary(&mut g);
        reach.see(&l);
        for smaller in l.shrink().take(ROUNDS / 2) {
            assert_eq!(smaller.layer_count(), 4);
        }
    }
    reach.assert_all();

    // Index keys: one to four layers; shrinking may drop layers.
    let mut counts = HashSet::new();
    for _ in 0..64 {
        counts.insert(Layers::<u8>::arbitrary(&mut g).layer_count());
    }
    assert_eq!(counts, (1..=4).collect());
}

#[cfg(feature = "quickcheck")]
#[test]
fn quickcheck_shrinking_moves_toward_enabled_visible_and_smaller_layers() {
    use quickcheck::Arbitrary;

    let mut l: Layers<u8, Layer> = Layers::default();
    l.push(Layer::Bullets, 5);
    l.set_enabled(Layer::Hud, false);
    let shrunk: Vec<_> = l.shrink().collect();
    assert!(shrunk.iter().any(|s| s.is_enabled(Layer::Hud)));
    assert!(shrunk.iter().any(|s| s.layer(Layer::Bullets).is_empty()));
    assert!(shrunk.iter().all(|s| s.layer_count() == 4));
}

#[cfg(feature = "arbitrary")]
#[test]
fn arbitrary_generates_one_layer_per_variant_with_varying_flags() {
    use arbitrary::{Arbitrary, Unstructured};

    let mut reach = Reach::default();
    for seed in 0..ROUNDS as u64 {
        let bytes: Vec<u8> = (0..256)
            .map(|i| (seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (i % 57)) as u8 ^ i as u8)
            .collect();
        let l = Layers::<u8, Layer>::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
        reach.see(&l);
    }
    reach.assert_all();
    // Out of data: still one layer per variant.
    let l = Layers::<u8, Layer>::arbitrary(&mut Unstructured::new(&[])).unwrap();
    assert_eq!(l.layer_count(), 4);
}

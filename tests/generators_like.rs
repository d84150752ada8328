//! Generators that keep a template's settings, for the queue and the
//! layers: `arbitrary_like`, `quickcheck_like` and the proptest strategies
//! `buffered_like` and `layers_like`, and the shrinks of what they make.
//! Run with `cargo test --all-features --test generators_like`; each module
//! only exists when its feature is on.

#![cfg(any(feature = "arbitrary", feature = "quickcheck", feature = "proptest"))]
// Each module uses part of the shared helpers.
#![allow(dead_code, unused_imports)]

use read_write_collection::{
    AutoRemove, BufferedCollection, Builder, KeyedCollection, Layers, Mode, ReadWriteCollection,
    ShrinkPolicy,
};

/// A keyed template: bounded, unordered, a policy without `Default`.
fn keyed_template() -> KeyedCollection<u8, read_write_collection::keyed::DefaultKey, Above> {
    let mut c = KeyedCollection::with_policy(Above(100));
    c.set_max_len(Some(5));
    c.set_mode(Mode::Unordered);
    c
}

/// The template's settings, and every key naming its element.
fn check_keyed(c: &KeyedCollection<u8, read_write_collection::keyed::DefaultKey, Above>) {
    assert_eq!(c.max_len(), Some(5), "{c:?}");
    assert!(c.len() <= 5, "{c:?}");
    assert_eq!(c.mode(), Mode::Unordered, "{c:?}");
    assert_eq!(c.policy(), &Above(100), "{c:?}");
    for (i, (k, v)) in c.iter().enumerate() {
        assert_eq!((c.index_of(k), c.get(k)), (Some(i), Some(v)));
    }
}

/// A policy with no `Default` (the generators must clone the template's),
/// comparable so the tests can see which one a value has.
#[derive(Clone, Debug, PartialEq)]
struct Above(u8);

impl AutoRemove<u8> for Above {
    fn should_remove(&mut self, n: &u8) -> bool {
        *n > self.0
    }
}

/// A policy with a `Default`, for the `Arbitrary` impls' shrinks.
#[derive(Clone, Default, Debug, PartialEq)]
struct Odd;

impl AutoRemove<u8> for Odd {
    fn should_remove(&mut self, n: &u8) -> bool {
        n % 2 == 1
    }
}

const SHRINK: ShrinkPolicy = ShrinkPolicy::new(10, 2);

/// A queue template with every setting away from its default.
fn queue_template() -> BufferedCollection<u8, Above> {
    let mut q = Builder::new()
        .bounded(5)
        .unordered()
        .shrink_policy(SHRINK)
        .policy(Above(200))
        .build_buffered();
    q.extend([1, 2]); // not used by the generators
    q.commit();
    q.push(3);
    q
}

/// Asserts that `q` has `queue_template()`'s settings and keeps its bound.
#[track_caller]
fn check_queue(q: &BufferedCollection<u8, Above>) {
    assert_eq!(q.max_len(), Some(5), "{q:?}");
    assert!(q.len() + q.pending_len() <= 5, "{q:?}");
    assert_eq!(q.mode(), Mode::Unordered);
    assert_eq!(q.shrink_policy(), Some(SHRINK));
    assert_eq!(*q.policy(), Above(200));
}

/// Bounds of the layers of `layers_template()`.
const LAYER_MAX: [usize; 3] = [2, 6, 4];

/// Three layers, each with its own bound and its own non-default settings.
fn layers_template() -> Layers<u8, usize, Above> {
    let layer = |max, unordered: bool, threshold| {
        let b = Builder::new().bounded(max).shrink_policy(SHRINK);
        let b = if unordered { b.unordered() } else { b };
        let mut c = b.policy(Above(threshold)).build();
        c.push(1); // not used by the generators
        c
    };
    let mut layers = Layers::from_collections([
        layer(LAYER_MAX[0], true, 100),
        layer(LAYER_MAX[1], false, 150),
        layer(LAYER_MAX[2], true, 200),
    ]);
    layers.set_enabled(1, false);
    layers
}

/// Asserts that `layers` has `layers_template()`'s number of layers and
/// every layer its template layer's settings, within its bound.
#[track_caller]
fn check_layers(layers: &Layers<u8, usize, Above>) {
    assert_eq!(layers.layer_count(), 3, "{layers:?}");
    for (i, (unordered, threshold)) in [(true, 100), (false, 150), (true, 200)]
        .into_iter()
        .enumerate()
    {
        let c = layers.layer(i);
        assert_eq!(c.max_len(), Some(LAYER_MAX[i]), "{layers:?}");
        assert!(c.len() <= LAYER_MAX[i], "{layers:?}");
        let mode = if unordered {
            Mode::Unordered
        } else {
            Mode::Ordered
        };
        assert_eq!(c.mode(), mode);
        assert_eq!(c.shrink_policy(), Some(SHRINK));
        assert_eq!(*c.policy(), Above(threshold));
    }
}

/// What a layers value shows of its flags: enabled and visible per layer.
fn flags<K: read_write_collection::LayerKey, A>(layers: &Layers<u8, K, A>) -> Vec<(bool, bool)> {
    (0..layers.layer_count())
        .map(|i| {
            let k = K::from_index(i).unwrap();
            (layers.is_enabled(k), layers.is_visible(k))
        })
        .collect()
}

/// Every layer's elements, in layer order.
fn contents<T: Clone, K: read_write_collection::LayerKey, A>(
    layers: &Layers<T, K, A>,
) -> Vec<Vec<T>> {
    (0..layers.layer_count())
        .map(|i| layers.layer(K::from_index(i).unwrap()).to_vec())
        .collect()
}

read_write_collection::layer_keys!(
    enum Layer {
        Ground,
        Ships,
        Hud,
    }
);

#[cfg(feature = "arbitrary")]
mod arbitrary_like {
    use super::*;
    use arbitrary::{Arbitrary, Unstructured};

    /// Inputs of several shapes, including empty and odd lengths and
    /// runs of 1 bytes (which keep the element lists going).
    fn inputs() -> Vec<Vec<u8>> {
        // With the random ones, these give every pair of layer flags.
        let mut inputs = vec![
            Vec::new(),
            vec![0, 1, 0],
            vec![1],
            vec![1; 64],
            vec![1, 5, 0, 1, 6],
        ];
        let mut x = 0x2545_F491u32;
        let count = if cfg!(miri) { 6 } else { 60 };
        for i in 0..count {
            let len = [3, 16, 64, 255][i % 4];
            inputs.push(
                (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 17;
                        x ^= x << 5;
                        // Mostly odd: long element lists.
                        (x as u8) | u8::from(x % 5 != 0)
                    })
                    .collect(),
            );
        }
        inputs
    }

    #[test]
    fn buffered_keeps_every_setting_and_the_bound() {
        let template = queue_template();
        let (mut saw_full, mut saw_pending_when_full) = (false, false);
        for bytes in inputs() {
            let q = template
                .arbitrary_like(&mut Unstructured::new(&bytes))
                .unwrap();
            check_queue(&q);
            let full = q.len() + q.pending_len() == 5;
            saw_full |= full;
            saw_pending_when_full |= full && q.pending_len() > 0;
        }
        assert!(saw_full && saw_pending_when_full);
    }

    #[test]
    fn buffered_generates_visible_then_pending_up_to_the_bound() {
        // Visible [7], pending [8, 9]; the bound of 2 cuts the pending side.
        let bytes = [1, 7, 0, 1, 8, 1, 9, 0];
        let q = BufferedCollection::<u8>::bounded(2)
            .arbitrary_like(&mut Unstructured::new(&bytes))
            .unwrap();
        assert_eq!((q.as_slice(), q.local_pending()), (&[7][..], &[8][..]));
        // A full visible side leaves nothing for the pending one.
        let q = BufferedCollection::<u8>::bounded(1)
            .arbitrary_like(&mut Unstructured::new(&bytes))
            .unwrap();
        assert_eq!((q.as_slice(), q.local_pending()), (&[7][..], &[][..]));
        let q = BufferedCollection::<u8>::bounded(0)
            .arbitrary_like(&mut Unstructured::new(&bytes))
            .unwrap();
        assert!(q.is_empty() && q.pending_len() == 0);
    }

    #[test]
    fn unbounded_buffered_decodes_as_the_arbitrary_impl() {
        for bytes in inputs() {
            let mut u1 = Unstructured::new(&bytes);
            let mut u2 = Unstructured::new(&bytes);
            let like = BufferedCollection::<u8>::new()
                .arbitrary_like(&mut u1)
                .unwrap();
            let any = BufferedCollection::<u8>::arbitrary(&mut u2).unwrap();
            assert_eq!(like, any);
            assert_eq!(u1.len(), u2.len(), "the same bytes consumed");
        }
    }

    #[test]
    fn layers_keep_every_setting_and_their_number() {
        let template = layers_template();
        let mut seen_flags = std::collections::BTreeSet::new();
        let mut saw_full = [false; 3];
        for bytes in inputs() {
            let layers = template
                .arbitrary_like(&mut Unstructured::new(&bytes))
                .unwrap();
            check_layers(&layers);
            seen_flags.extend(flags(&layers));
            for (i, full) in saw_full.iter_mut().enumerate() {
                *full |= layers.layer(i).is_full();
            }
        }
        assert_eq!(seen_flags.len(), 4, "every flag pair: {seen_flags:?}");
        assert_eq!(saw_full, [true; 3]);
    }

    #[test]
    fn layers_decode_as_the_arbitrary_impl_within_the_bounds() {
        // Unbounded layers: the same as `Arbitrary`, byte for byte.
        for bytes in inputs() {
            let mut u1 = Unstructured::new(&bytes);
            let mut u2 = Unstructured::new(&bytes);
            let template: Layers<u8, Layer> = Layers::default();
            let like = template.arbitrary_like(&mut u1).unwrap();
            let any = Layers::<u8, Layer>::arbitrary(&mut u2).unwrap();
            assert_eq!(contents(&like), contents(&any));
            assert_eq!(flags(&like), flags(&any));
            assert_eq!(u1.len(), u2.len());
        }
        // Per layer: enabled, visible, then the elements, stopping at the
        // bound (without reading the byte that would end the list).
        let template: Layers<u8> =
            Layers::from_collections([ReadWriteCollection::bounded(1), ReadWriteCollection::new()]);
        let bytes = [1, 0, 1, 7, 0, 1, 1, 9, 0];
        let layers = template
            .arbitrary_like(&mut Unstructured::new(&bytes))
            .unwrap();
        assert_eq!(flags(&layers), [(true, false), (false, true)]);
        assert_eq!(layers.layer(0), &[7]);
        assert_eq!(layers.layer(1), &[9]);
    }
}

#[cfg(feature = "quickcheck")]
mod quickcheck_like {
    use super::*;
    use quickcheck::{Arbitrary, Gen};

    /// Shrinks `value` greedily with `shrink`, always taking the first
    /// candidate that still fails `fails`, as quickcheck does; `check`
    /// sees every candidate.
    fn minimize<T>(
        mut value: T,
        shrink: impl Fn(&T) -> Box<dyn Iterator<Item = T>>,
        fails: impl Fn(&T) -> bool,
        check: impl Fn(&T),
    ) -> T {
        assert!(fails(&value));
        while let Some(smaller) = shrink(&value).find(|c| {
            check(c);
            fails(c)
        }) {
            value = smaller;
        }
        value
    }

    fn rounds() -> usize {
        if cfg!(miri) {
            12
        } else {
            200
        }
    }

    #[test]
    fn buffered_shrinks_keep_the_bound() {
        let mut q = BufferedCollection::<u8>::bounded(6);
        q.extend([7, 200, 3]);
        q.commit();
        q.extend([150, 9]);
        let mut shrinks = 0;
        for smaller in q.shrink() {
            assert_eq!(smaller.max_len(), Some(6), "{smaller:?}");
            shrinks += 1;
        }
        assert!(shrinks > 0);
    }

    #[test]
    fn buffered_shrinks_keep_every_setting() {
        let mut q = Builder::new()
            .bounded(6)
            .unordered()
            .shrink_policy(SHRINK)
            .policy(Odd)
            .build_buffered();
        q.extend([7, 200, 3]);
        q.commit();
        q.extend([150, 9]);
        let min = minimize(
            q,
            |q| q.shrink(),
            |q| q.iter().chain(q.local_pending()).any(|&x| x > 100),
            |q| {
                assert_eq!(q.max_len(), Some(6));
                assert_eq!(q.mode(), Mode::Unordered);
                assert_eq!(q.shrink_policy(), Some(SHRINK));
                assert_eq!(*q.policy(), Odd);
            },
        );
        assert!(min.is_empty(), "{min:?}");
        assert_eq!(min.local_pending(), [101]);
        assert_eq!(min.max_len(), Some(6));
    }

    #[test]
    fn buffered_quickcheck_like_and_shrink_keep_every_setting() {
        let template = queue_template();
        let mut g = Gen::new(12);
        let (mut saw_full, mut saw_pending_when_full) = (false, false);
        for i in 0..rounds() {
            let q = template.quickcheck_like(&mut g);
            check_queue(&q);
            let full = q.len() + q.pending_len() == 5;
            saw_full |= full;
            saw_pending_when_full |= full && q.pending_len() > 0;
            if i % 8 == 0 {
                q.quickcheck_shrink().for_each(|q| check_queue(&q));
            }
        }
        assert!(saw_full && saw_pending_when_full);

        let mut q = template.quickcheck_like(&mut g);
        q.clear();
        q.extend([250, 1]);
        let min = minimize(
            q,
            |q| q.quickcheck_shrink(),
            |q| q.local_pending().iter().any(|&x| x > 100),
            check_queue,
        );
        assert_eq!(min.local_pending(), [101]);
    }

    #[test]
    fn layers_quickcheck_like_and_shrink_keep_every_setting() {
        let template = layers_template();
        let mut g = Gen::new(12);
        let mut seen_flags = std::collections::BTreeSet::new();
        let mut saw_full = [false; 3];
        for i in 0..rounds() {
            let layers = template.quickcheck_like(&mut g);
            check_layers(&layers);
            seen_flags.extend(flags(&layers));
            for (i, full) in saw_full.iter_mut().enumerate() {
                *full |= layers.layer(i).is_full();
            }
            if i % 8 == 0 {
                layers.quickcheck_shrink().for_each(|l| check_layers(&l));
            }
        }
        assert_eq!(seen_flags.len(), 4, "every flag pair: {seen_flags:?}");
        assert_eq!(saw_full, [true; 3]);

        let mut layers = template.quickcheck_like(&mut g);
        layers.clear();
        layers.push(2, 250);
        layers.push(1, 3);
        layers.set_visible(0, false);
        let min = minimize(
            layers,
            |l| l.quickcheck_shrink(),
            |l| l.layer(2).iter().any(|&x| x > 100),
            check_layers,
        );
        assert_eq!(min.layer(2), &[101]);
        assert!(min.layer(1).is_empty());
        assert_eq!(flags(&min), [(true, true); 3], "switched back on");
    }

    #[test]
    fn layers_with_a_fixed_key_keep_their_number() {
        let template: Layers<u8, Layer> = Builder::new().bounded(3).build_layers(Layer::ALL.len());
        let mut g = Gen::new(10);
        for _ in 0..rounds() / 4 {
            let layers = template.quickcheck_like(&mut g);
            assert_eq!(layers.layer_count(), 3);
            for smaller in layers.shrink().chain(layers.quickcheck_shrink()) {
                assert_eq!(smaller.layer_count(), 3);
                assert!(Layer::ALL
                    .iter()
                    .all(|&k| smaller.layer(k).max_len() == Some(3)));
            }
        }
    }

    #[test]
    fn layers_arbitrary_shrink_keeps_every_setting() {
        // `Arbitrary::shrink` may drop a `usize`-keyed layer; the others
        // keep their settings.
        let mut layers: Layers<u8, usize, Odd> = Builder::new()
            .bounded(4)
            .unordered()
            .policy(Odd)
            .build_layers(2);
        layers.push(0, 200);
        layers.push(1, 9);
        layers.set_enabled(0, false);
        let shrunk: Vec<_> = layers.shrink().collect();
        assert!(shrunk.iter().any(|l| l.layer_count() == 1));
        for l in &shrunk {
            for i in 0..l.layer_count() {
                assert_eq!(l.layer(i).max_len(), Some(4));
                assert_eq!(l.layer(i).mode(), Mode::Unordered);
            }
        }
    }
}

#[cfg(feature = "proptest")]
mod proptest_like {
    use super::*;
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    use read_write_collection::proptest::{buffered_like, layers_like};

    /// Shrinks `tree` the way proptest's runner does (simplify after a
    /// failure, complicate after a pass) and returns the last failing value;
    /// `check` sees every value tried.
    fn minimize<T: ValueTree>(
        mut tree: T,
        fails: impl Fn(&T::Value) -> bool,
        check: impl Fn(&T::Value),
    ) -> T::Value {
        let mut last_failure = tree.current();
        assert!(fails(&last_failure));
        if !tree.simplify() {
            return last_failure;
        }
        loop {
            let v = tree.current();
            check(&v);
            if fails(&v) {
                last_failure = v;
                if !tree.simplify() {
                    break;
                }
            } else if !tree.complicate() {
                break;
            }
        }
        last_failure
    }

    fn rounds() -> usize {
        if cfg!(miri) {
            6
        } else {
            100
        }
    }

    #[test]
    fn buffered_like_values_and_shrinks_keep_every_setting() {
        let template = queue_template();
        let strategy = buffered_like(&template, any::<u8>(), 0..50);
        let mut runner = TestRunner::deterministic();
        let (mut saw_full, mut saw_both_sides, mut shrunk) = (false, false, 0);
        for _ in 0..rounds() * 2 {
            let tree = strategy.new_tree(&mut runner).unwrap();
            let q = tree.current();
            check_queue(&q);
            saw_full |= q.len() + q.pending_len() == 5;
            saw_both_sides |= !q.is_empty() && q.pending_len() > 0;
            let fails = |q: &BufferedCollection<u8, Above>| {
                q.iter().chain(q.local_pending()).any(|&x| x > 100)
            };
            if fails(&q) && shrunk < rounds() / 2 {
                shrunk += 1;
                let min = minimize(tree, fails, check_queue);
                // The minimal value: one element, visible.
                assert_eq!(min.as_slice(), [101], "{min:?}");
                assert_eq!(min.pending_len(), 0);
            }
        }
        assert!(saw_full && saw_both_sides && shrunk > 0);
    }

    #[test]
    fn buffered_like_sizes_count_both_sides() {
        let template = BufferedCollection::<u8>::new();
        let strategy = buffered_like(&template, any::<u8>(), 3..=4);
        let mut runner = TestRunner::deterministic();
        for _ in 0..rounds() {
            let q = strategy.new_tree(&mut runner).unwrap().current();
            assert!((3..=4).contains(&(q.len() + q.pending_len())), "{q:?}");
            assert_eq!(q.max_len(), None);
        }
    }

    #[test]
    #[should_panic(expected = "over the maximum length")]
    fn buffered_like_rejects_an_impossible_size() {
        let _ = buffered_like(&BufferedCollection::<u8>::bounded(2), any::<u8>(), 3..5);
    }

    #[test]
    fn layers_like_values_and_shrinks_keep_every_setting() {
        let template = layers_template();
        let strategy = layers_like(&template, any::<u8>(), 0..10);
        let mut runner = TestRunner::deterministic();
        let mut seen_flags = std::collections::BTreeSet::new();
        let mut shrunk = 0;
        for _ in 0..rounds() * 2 {
            let tree = strategy.new_tree(&mut runner).unwrap();
            let layers = tree.current();
            check_layers(&layers);
            seen_flags.extend(flags(&layers));
            let fails =
                |l: &Layers<u8, usize, Above>| contents(l).concat().iter().any(|&x| x > 100);
            if fails(&layers) && shrunk < rounds() / 2 {
                shrunk += 1;
                let min = minimize(tree, fails, check_layers);
                // The minimal value: one element of 101, every layer on.
                assert_eq!(contents(&min).concat(), [101], "{min:?}");
                assert_eq!(flags(&min), [(true, true); 3]);
            }
        }
        assert_eq!(seen_flags.len(), 4, "every flag pair: {seen_flags:?}");
        assert!(shrunk > 0);
    }

    #[test]
    fn layers_like_with_a_fixed_key() {
        let template: Layers<u8, Layer> = Layers::from_collections([
            ReadWriteCollection::bounded(1),
            ReadWriteCollection::unordered(),
            ReadWriteCollection::new(),
        ]);
        let strategy = layers_like(&template, 0..10u8, 1..3);
        let mut runner = TestRunner::deterministic();
        for _ in 0..rounds() {
            let layers = strategy.new_tree(&mut runner).unwrap().current();
            assert_eq!(layers.layer(Layer::Ground).len(), 1);
            assert_eq!(layers.layer(Layer::Ground).max_len(), Some(1));
            assert_eq!(layers.layer(Layer::Ships).mode(), Mode::Unordered);
            assert!((1..3).contains(&layers.layer(Layer::Hud).len()));
            assert!(contents(&layers).concat().iter().all(|&x| x < 10));
        }
    }

    #[test]
    #[should_panic(expected = "over the maximum length")]
    fn layers_like_rejects_an_impossible_size() {
        let template: Layers<u8> =
            Layers::from_collections([ReadWriteCollection::new(), ReadWriteCollection::bounded(2)]);
        let _ = layers_like(&template, any::<u8>(), 3..5);
    }

    /// An element type without `proptest::arbitrary::Arbitrary`.
    #[derive(Clone, Debug, PartialEq)]
    struct Event {
        ttl: u8,
    }

    fn events() -> impl Strategy<Value = Event> {
        (0..4u8).prop_map(|ttl| Event { ttl })
    }

    proptest! {
        // No failure file (Miri runs isolated); fewer cases under Miri.
        #![proptest_config(ProptestConfig {
            cases: if cfg!(miri) { 4 } else { 128 },
            failure_persistence: None,
            ..ProptestConfig::default()
        })]
        #[test]
        fn buffered_like_takes_any_element_strategy(
            mut q in buffered_like(
                &Builder::new().bounded(3).auto_remove(|e: &Event| e.ttl == 0).build_buffered(),
                events(),
                0..=3,
            )
        ) {
            prop_assert_eq!(q.max_len(), Some(3));
            q.commit();
            q.prune();
            prop_assert!(q.iter().all(|e| e.ttl > 0));
        }

        #[test]
        fn layers_like_takes_any_element_strategy(
            world in layers_like(
                &Layers::<Event>::from_collections([ReadWriteCollection::bounded(2)]),
                events(),
                0..5,
            )
        ) {
            prop_assert_eq!(world.layer_count(), 1);
            prop_assert!(world.layer(0).len() <= 2);
        }
    }
}

#[cfg(feature = "arbitrary")]
mod keyed_arbitrary_like {
    use super::*;
    use arbitrary::{Arbitrary, Unstructured};

    #[test]
    fn keyed_keeps_every_setting_and_the_bound() {
        for seed in 0..if cfg!(miri) { 8 } else { 200 } {
            let bytes: Vec<u8> = (0..64u64).map(|i| (i * 37 + seed * 101) as u8).collect();
            let c = keyed_template()
                .arbitrary_like(&mut Unstructured::new(&bytes))
                .expect("decodes");
            check_keyed(&c);
            let plain =
                KeyedCollection::<u8>::arbitrary(&mut Unstructured::new(&bytes)).expect("decodes");
            let n = c.len();
            assert_eq!(
                c.as_slice(),
                &plain.as_slice()[..n],
                "the same elements, cut at the bound"
            );
        }
    }
}

#[cfg(feature = "quickcheck")]
mod keyed_quickcheck_like {
    use super::*;
    use quickcheck::{Arbitrary, Gen};

    #[test]
    fn keyed_quickcheck_like_keeps_every_setting() {
        let mut g = Gen::new(20);
        for _ in 0..if cfg!(miri) { 8 } else { 200 } {
            check_keyed(&keyed_template().quickcheck_like(&mut g));
        }
    }

    #[test]
    fn keyed_shrinks_keep_every_setting() {
        let mut c: KeyedCollection<u8, read_write_collection::keyed::DefaultKey, Odd> =
            KeyedCollection::with_policy(Odd);
        c.set_max_len(Some(4));
        c.push(9);
        c.push(200);
        c.push(3);
        let mut shrinks = 0;
        for smaller in c.shrink() {
            assert_eq!(smaller.max_len(), Some(4), "{smaller:?}");
            assert!(smaller.len() <= 3);
            shrinks += 1;
        }
        assert!(shrinks > 0);
    }
}

#[cfg(feature = "proptest")]
mod keyed_proptest_like {
    use super::*;
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    use read_write_collection::proptest::keyed_like;

    #[test]
    fn keyed_like_values_and_shrinks_keep_every_setting() {
        let mut runner = TestRunner::deterministic();
        let strategy = keyed_like(&keyed_template(), any::<u8>(), 0..=9);
        for _ in 0..if cfg!(miri) { 4 } else { 100 } {
            let mut tree = strategy.new_tree(&mut runner).expect("a value");
            check_keyed(&tree.current());
            while tree.simplify() {
                check_keyed(&tree.current());
            }
        }
    }
}

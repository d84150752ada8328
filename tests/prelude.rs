//! `read_write_collection::prelude` glob-imports beside the standard
//! library's, proptest's and rayon's preludes: every name of each is used
//! below, so a clash would be an ambiguity error (E0659) and fail to
//! compile.

/// The everyday names work with the prelude alone.
mod alone {
    use read_write_collection::prelude::*;

    remove_when!(struct Spent for u32: |ttl| *ttl == 0);
    layer_keys!(
        enum Layer {
            Ships,
            Sparks,
        }
    );

    /// A user-written policy, through the prelude's `AutoRemove`.
    struct Negative;
    impl AutoRemove<i32> for Negative {
        fn should_remove(&mut self, n: &i32) -> bool {
            *n < 0
        }
    }

    #[test]
    fn every_name_is_usable() {
        let mut sparks: ReadWriteCollection<u32, Spent> = Builder::new().policy(Spent).build();
        sparks.extend([0, 1]);
        assert_eq!(sparks.prune(), 1);

        let mut signed = ReadWriteCollection::with_policy(Negative);
        signed.extend([-1, 1]);
        assert_eq!(signed.prune(), 1);

        let mut events: BufferedCollection<u8> = BufferedCollection::new();
        events.push(1);
        events.commit();
        assert_eq!(events.len(), 1);

        let mut ships = KeyedCollection::new();
        let lead = ships.push("lead");
        assert_eq!(ships[lead], "lead");

        let mut world: Layers<u32, Layer> = Layers::default();
        world.push(Layer::Sparks, 3);
        assert_eq!(Layer::Sparks.index(), 1);
        assert_eq!(Layer::from_index(0), Some(Layer::Ships));
        assert_eq!(world.iter_visible().next(), Some((Layer::Sparks, &3)));
    }
}

/// The header: proptest's prelude and this one, side by side.
#[cfg(feature = "proptest")]
mod with_proptest {
    use proptest::prelude::*;
    use read_write_collection::prelude::*;

    layer_keys!(
        enum Layer {
            Ground,
            Hud,
        }
    );
    remove_when!(struct Zero for u8: |n| *n == 0);

    proptest! {
        #[test]
        fn generated_collections_and_layers(
            c in any::<ReadWriteCollection<u8>>(),
            layers in any::<Layers<u8, Layer>>(),
            n in prop::num::u8::ANY,
            just in Just(7u8),
        ) {
            prop_assert_eq!(c.max_len(), None);
            prop_assert_eq!(layers.layer_count(), 2);
            prop_assert!(layers.layer(Layer::Hud).len() <= 100);
            let mut b: ReadWriteCollection<u8, Zero> = Builder::new().policy(Zero).build();
            b.extend([n, just]);
            b.prune();
            prop_assert!(!b.contains(&0));
        }
    }

    #[test]
    fn strategy_trait_and_any_resolve() {
        let s = any::<u8>().prop_map(|n| n / 2);
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let v = proptest::strategy::ValueTree::current(&s.new_tree(&mut runner).unwrap());
        assert!(v <= 127);
        // `Arbitrary` here is proptest's: the prelude brings no other.
        fn arbitrary_is_proptests<A: Arbitrary>() {}
        arbitrary_is_proptests::<ReadWriteCollection<u8>>();
    }
}

/// rayon's prelude and this one, side by side.
#[cfg(feature = "rayon")]
mod with_rayon {
    use rayon::prelude::*;
    use read_write_collection::prelude::*;

    remove_when!(struct Spent for u32: |ttl| *ttl == 0);

    fn par_policy<P: ParAutoRemove<u32>>(_: &P) {}

    #[test]
    fn parallel_names_resolve() {
        par_policy(&Spent);
        let mut c: ReadWriteCollection<u32, Spent> = Builder::new().policy(Spent).build();
        c.extend(
            (0..100u32)
                .into_par_iter()
                .map(|n| n % 3)
                .collect::<Vec<_>>(),
        );
        c.par_traverse(|mut e| *e += 1);
        let sum: u32 = c.as_slice().par_iter().sum();
        assert_eq!(
            sum,
            (0..100u32).filter(|n| n % 3 != 0).map(|n| n % 3 + 1).sum()
        );
    }
}

/// All three, and std's, at once.
#[cfg(all(feature = "proptest", feature = "rayon"))]
mod all_preludes {
    #[allow(unused_imports)]
    use std::prelude::rust_2021::*;

    use proptest::prelude::*;
    use rayon::prelude::*;
    use read_write_collection::prelude::*;

    layer_keys!(
        enum Layer {
            A,
            B,
        }
    );
    remove_when!(struct Odd for u8: |n| *n % 2 == 1);

    proptest! {
        #[test]
        fn everything_together(v in prop::collection::vec(any::<u8>(), 0..50)) {
            let mut c: ReadWriteCollection<u8, Odd> = Builder::new().policy(Odd).build();
            c.extend(v.par_iter().copied().collect::<Vec<_>>());
            c.par_traverse(|_| {});
            prop_assert!(c.iter().all(|n| n % 2 == 0));
            let mut l: Layers<u8, Layer> = Layers::default();
            l.push(Layer::B, 1);
            prop_assert_eq!(l.iter_visible().map(|(k, _)| k.index()).collect::<Vec<_>>(), vec![1]);
            let q: BufferedCollection<u8> = v.iter().copied().collect();
            prop_assert_eq!(q.len(), v.len());
            fn policy<P: AutoRemove<u8>>(_: P) {}
            policy(Odd);
        }
    }
}

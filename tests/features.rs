//! Tests of the optional-feature impls: `arbitrary`, `quickcheck`, `serde`,
//! `proptest`, and that each can generate a collection that keeps a bound,
//! a mode, a shrink policy and a policy.
//! Run with `cargo test --all-features --test features`; each module only
//! exists when its feature is on.

#[cfg(feature = "arbitrary")]
mod arbitrary_impls {
    use arbitrary::{Arbitrary, Unstructured};
    use read_write_collection::{BufferedCollection, ReadWriteCollection};

    /// Inputs of several shapes, including empty and odd lengths.
    fn inputs() -> Vec<Vec<u8>> {
        let mut inputs = vec![Vec::new(), vec![0], vec![1], vec![1, 5, 1, 6, 0, 9, 9]];
        let mut x = 0x2545_F491u32;
        for len in [3, 16, 64, 255] {
            inputs.push(
                (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 17;
                        x ^= x << 5;
                        x as u8
                    })
                    .collect(),
            );
        }
        inputs
    }

    #[test]
    fn collection_decodes_like_a_vec() {
        for bytes in inputs() {
            let mut u1 = Unstructured::new(&bytes);
            let mut u2 = Unstructured::new(&bytes);
            let c = ReadWriteCollection::<u16>::arbitrary(&mut u1).unwrap();
            let v = Vec::<u16>::arbitrary(&mut u2).unwrap();
            assert_eq!(c, v);
            // Both consumed the same bytes.
            assert_eq!(u1.len(), u2.len());

            let c = ReadWriteCollection::<u16>::arbitrary_take_rest(Unstructured::new(&bytes));
            let v = Vec::<u16>::arbitrary_take_rest(Unstructured::new(&bytes));
            assert_eq!(c.unwrap(), v.unwrap());
        }
        assert_eq!(
            <ReadWriteCollection<u16> as Arbitrary>::size_hint(0),
            <Vec<u16> as Arbitrary>::size_hint(0)
        );
    }

    #[test]
    fn collection_has_default_settings() {
        let bytes = [1, 1, 1, 2, 1, 3, 0];
        let c = ReadWriteCollection::<u8>::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
        assert_eq!(c, [1, 2, 3]);
        assert_eq!(c.mode(), read_write_collection::Mode::Ordered);
        assert_eq!(c.max_len(), None);
        assert_eq!(c.shrink_policy(), None);
    }

    #[test]
    fn buffered_decodes_visible_then_pending() {
        for bytes in inputs() {
            let mut u1 = Unstructured::new(&bytes);
            let mut u2 = Unstructured::new(&bytes);
            let c = BufferedCollection::<u8>::arbitrary(&mut u1).unwrap();
            let (visible, pending) = <(Vec<u8>, Vec<u8>)>::arbitrary(&mut u2).unwrap();
            assert_eq!(c.as_slice(), visible.as_slice());
            assert_eq!(c.local_pending(), pending.as_slice());
            assert_eq!(c.pending_len(), pending.len());
            assert_eq!(u1.len(), u2.len());

            let c =
                BufferedCollection::<u8>::arbitrary_take_rest(Unstructured::new(&bytes)).unwrap();
            let (visible, pending) =
                <(Vec<u8>, Vec<u8>)>::arbitrary_take_rest(Unstructured::new(&bytes)).unwrap();
            assert_eq!(c.as_slice(), visible.as_slice());
            assert_eq!(c.local_pending(), pending.as_slice());
        }
        assert_eq!(
            <BufferedCollection<u8> as Arbitrary>::size_hint(0),
            (0, None)
        );
    }

    #[test]
    fn derives_compose() {
        #[derive(Arbitrary, Debug)]
        struct World {
            id: u8,
            entities: ReadWriteCollection<u8>,
            events: BufferedCollection<u8>,
        }

        let bytes = [42, 1, 10, 0, 1, 20, 0, 1, 30, 0];
        let w = World::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
        assert_eq!(w.id, 42);
        assert_eq!(w.entities, [10]);
        assert_eq!(w.events.as_slice(), [20]);
        assert_eq!(w.events.local_pending(), [30]);
    }

    /// A named, `Default` policy: every `A: AutoRemove<T> + Default` works.
    #[derive(Clone, Default, Debug, PartialEq)]
    struct Odd;

    impl read_write_collection::AutoRemove<u8> for Odd {
        fn should_remove(&mut self, n: &u8) -> bool {
            n % 2 == 1
        }
    }

    #[test]
    fn any_default_policy() {
        let bytes = [1, 1, 1, 2, 1, 3, 0, 1, 5, 0, 1, 6, 0];
        let mut u = Unstructured::new(&bytes);
        let mut c = ReadWriteCollection::<u8, Odd>::arbitrary(&mut u).unwrap();
        assert_eq!(c, [1, 2, 3]);
        assert_eq!(c.prune(), 2);
        let mut b = BufferedCollection::<u8, Odd>::arbitrary(&mut u).unwrap();
        assert_eq!((b.as_slice(), b.local_pending()), (&[5][..], &[6][..]));
        assert_eq!(b.prune(), 1);
    }

    #[test]
    fn arbitrary_like_keeps_every_setting() {
        use read_write_collection::{Mode, ShrinkPolicy};
        let mut template = ReadWriteCollection::with_policy(Odd);
        template.set_max_len(Some(3));
        template.set_mode(Mode::Unordered);
        template.set_shrink_policy(Some(ShrinkPolicy::new(10, 2)));
        template.push(99); // not used
        for bytes in inputs() {
            let c = template
                .arbitrary_like(&mut Unstructured::new(&bytes))
                .unwrap();
            assert!(c.len() <= 3, "{c:?}");
            assert!(c.capacity() <= 3);
            assert_eq!(c.max_len(), Some(3));
            assert_eq!(c.mode(), Mode::Unordered);
            assert_eq!(c.shrink_policy(), Some(ShrinkPolicy::new(10, 2)));
            assert_eq!(*c.policy(), Odd);
        }
        // Generation stops at the bound; up to it, the elements are Vec's.
        let bytes = [1, 10, 1, 20, 1, 30, 1, 40, 0];
        let c = template
            .arbitrary_like(&mut Unstructured::new(&bytes))
            .unwrap();
        assert_eq!(c, [10, 20, 30]);
        let full = ReadWriteCollection::<u8>::bounded(0);
        assert!(full
            .arbitrary_like(&mut Unstructured::new(&bytes))
            .unwrap()
            .is_empty());
    }

    #[test]
    fn derive_with_keeps_the_bound() {
        use read_write_collection::Mode;
        #[derive(Arbitrary, Debug)]
        struct World {
            #[arbitrary(with = |u: &mut Unstructured| ReadWriteCollection::bounded(2).arbitrary_like(u))]
            particles: ReadWriteCollection<u8>,
            #[arbitrary(with = |u: &mut Unstructured| ReadWriteCollection::unordered().arbitrary_like(u))]
            bullets: ReadWriteCollection<u8>,
        }
        let mut saw_full = false;
        for bytes in inputs() {
            let w = World::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
            assert_eq!(w.particles.max_len(), Some(2));
            assert!(w.particles.len() <= 2);
            saw_full |= w.particles.is_full();
            assert_eq!(w.bullets.mode(), Mode::Unordered);
            assert_eq!(w.bullets.max_len(), None);
        }
        assert!(saw_full, "some input should fill the bound");
    }
}

#[cfg(feature = "quickcheck")]
mod quickcheck_impls {
    use quickcheck::{Arbitrary, Gen, QuickCheck};
    use read_write_collection::{BufferedCollection, ReadWriteCollection};

    /// Shrinks `value` greedily, always taking the first candidate that
    /// still fails `fails`, as quickcheck does.
    fn minimize<T: Arbitrary>(mut value: T, fails: impl Fn(&T) -> bool) -> T {
        assert!(fails(&value));
        while let Some(smaller) = value.shrink().find(|c| fails(c)) {
            value = smaller;
        }
        value
    }

    #[test]
    fn generates_varied_collections() {
        let mut g = Gen::new(20);
        // Fewer rounds under Miri: this is safe code, and Miri is slow.
        let rounds = if cfg!(miri) { 40 } else { 200 };
        let mut lens = std::collections::BTreeSet::new();
        for _ in 0..rounds {
            let c = ReadWriteCollection::<u8>::arbitrary(&mut g);
            assert!(c.len() < 20, "Gen size bounds the length, as for Vec");
            lens.insert(c.len());
        }
        assert!(lens.len() > 5, "lengths should vary: {lens:?}");

        let mut pending_lens = std::collections::BTreeSet::new();
        for _ in 0..rounds {
            let b = BufferedCollection::<u8>::arbitrary(&mut g);
            assert!(b.len() < 20 && b.local_pending().len() < 20);
            pending_lens.insert(b.local_pending().len());
        }
        assert!(
            pending_lens.len() > 5,
            "pending lengths should vary: {pending_lens:?}"
        );
    }

    #[test]
    fn shrinks_to_a_minimal_counterexample() {
        let start: ReadWriteCollection<u8> = [7, 200, 3, 150, 9].into();
        let min = minimize(start, |c| c.iter().any(|&x| x > 100));
        assert_eq!(min, [101]);

        let mut b = BufferedCollection::from(vec![5u8, 250, 6]);
        b.extend([1u8, 2, 130]);
        let min = minimize(b, |b| b.local_pending().iter().any(|&x| x > 100));
        assert!(min.is_empty(), "visible part shrinks away: {min:?}");
        assert_eq!(min.local_pending(), [101]);
    }

    #[test]
    fn shrink_candidates_match_vec() {
        let c: ReadWriteCollection<u8> = [4, 0, 9].into();
        let ours: Vec<Vec<u8>> = c.shrink().map(|c| c.to_vec()).collect();
        let vecs: Vec<Vec<u8>> = vec![4u8, 0, 9].shrink().collect();
        assert_eq!(ours, vecs);
        assert!(ReadWriteCollection::<u8>::new().shrink().next().is_none());
        assert!(BufferedCollection::<u8>::new().shrink().next().is_none());
    }

    #[test]
    fn usable_as_property_arguments() {
        fn traversal_keeps_all(mut c: ReadWriteCollection<u16>) -> bool {
            let before = c.to_vec();
            c.traverse(|_| {});
            c == before
        }
        fn commit_appends(mut b: BufferedCollection<u16>) -> bool {
            let mut expected = b.to_vec();
            expected.extend_from_slice(b.local_pending());
            b.commit();
            b.as_slice() == expected.as_slice()
        }
        let tests = if cfg!(miri) { 5 } else { 100 };
        QuickCheck::new()
            .tests(tests)
            .quickcheck(traversal_keeps_all as fn(_) -> bool);
        QuickCheck::new()
            .tests(tests)
            .quickcheck(commit_appends as fn(_) -> bool);
    }

    #[derive(Clone, Default, Debug, PartialEq)]
    struct Odd;

    impl read_write_collection::AutoRemove<u8> for Odd {
        fn should_remove(&mut self, n: &u8) -> bool {
            n % 2 == 1
        }
    }

    #[test]
    fn any_default_clone_policy() {
        let mut g = Gen::new(10);
        let mut c = ReadWriteCollection::<u8, Odd>::arbitrary(&mut g);
        let odds = c.iter().filter(|n| *n % 2 == 1).count();
        assert_eq!(c.prune(), odds);
        let b = BufferedCollection::<u8, Odd>::arbitrary(&mut g);
        for smaller in b.shrink().take(10) {
            assert_eq!(*smaller.policy(), Odd);
        }
    }

    #[test]
    fn quickcheck_like_and_shrink_keep_the_settings() {
        use read_write_collection::{Mode, ShrinkPolicy};
        let mut template = ReadWriteCollection::with_policy(Odd);
        template.set_max_len(Some(5));
        template.set_mode(Mode::Unordered);
        template.set_shrink_policy(Some(ShrinkPolicy::new(20, 3)));
        let mut g = Gen::new(30);
        let check = |c: &ReadWriteCollection<u8, Odd>| {
            assert!(c.len() <= 5);
            assert_eq!(c.max_len(), Some(5));
            assert_eq!(c.mode(), Mode::Unordered);
            assert_eq!(c.shrink_policy(), Some(ShrinkPolicy::new(20, 3)));
        };
        let mut saw_full = false;
        for _ in 0..if cfg!(miri) { 15 } else { 100 } {
            let c = template.quickcheck_like(&mut g);
            check(&c);
            saw_full |= c.is_full();
            for smaller in c.shrink() {
                check(&smaller);
            }
        }
        assert!(saw_full);

        // A minimal counterexample found by shrinking is still bounded.
        let mut big = ReadWriteCollection::<u8>::bounded(6);
        big.extend([7, 200, 3, 150, 9]);
        let min = minimize(big, |c| c.iter().any(|&x| x > 100));
        assert_eq!(min, [101]);
        assert_eq!(min.max_len(), Some(6));
    }
}

#[cfg(feature = "serde")]
mod serde_impls {
    use read_write_collection::{BufferedCollection, NoAutoRemove, ReadWriteCollection};

    #[test]
    fn collection_is_a_sequence() {
        let c: ReadWriteCollection<u32> = [3, 1, 2].into();
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(json, "[3,1,2]");
        assert_eq!(json, serde_json::to_string(&c.to_vec()).unwrap());
        let back: ReadWriteCollection<u32> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, c);

        let empty: ReadWriteCollection<String> = serde_json::from_str("[]").unwrap();
        assert!(empty.is_empty());
        let strings: ReadWriteCollection<String> = serde_json::from_str(r#"["x","yz"]"#).unwrap();
        assert_eq!(strings, ["x", "yz"]);
    }

    #[test]
    fn collection_rejects_non_sequences() {
        assert!(serde_json::from_str::<ReadWriteCollection<u8>>("3").is_err());
        assert!(serde_json::from_str::<ReadWriteCollection<u8>>(r#"{"a":1}"#).is_err());
        assert!(serde_json::from_str::<ReadWriteCollection<u8>>("[1,300]").is_err());
    }

    #[test]
    fn collection_settings_are_not_serialized() {
        let mut c = ReadWriteCollection::bounded(4);
        c.set_mode(read_write_collection::Mode::Unordered);
        c.extend([1u8, 2]);
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(json, "[1,2]");
        let back: ReadWriteCollection<u8> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, [1, 2]);
        assert_eq!(back.max_len(), None);
        assert_eq!(back.mode(), read_write_collection::Mode::Ordered);
    }

    /// A `Default` policy: deserializing uses `A::default()`.
    #[derive(Default)]
    struct Negative;

    impl read_write_collection::AutoRemove<i32> for Negative {
        fn should_remove(&mut self, item: &i32) -> bool {
            *item < 0
        }
    }

    #[test]
    fn collection_with_a_default_policy() {
        let mut c: ReadWriteCollection<i32, Negative> = serde_json::from_str("[1,-2,3]").unwrap();
        assert_eq!(c, [1, -2, 3], "elements are not checked on the way in");
        assert_eq!(c.prune(), 1);
        assert_eq!(c, [1, 3]);
        assert_eq!(serde_json::to_string(&c).unwrap(), "[1,3]");

        let d: ReadWriteCollection<i32, NoAutoRemove> = serde_json::from_str("[5]").unwrap();
        assert_eq!(d, [5]);
    }

    #[test]
    fn buffered_keeps_pending_pending() {
        let mut b: BufferedCollection<u8> = [1, 2].into_iter().collect();
        b.push(3);
        b.push(4);
        let json = serde_json::to_string(&b).unwrap();
        assert_eq!(json, r#"{"visible":[1,2],"pending":[3,4]}"#);

        let mut back: BufferedCollection<u8> = serde_json::from_str(&json).unwrap();
        assert_eq!(back.as_slice(), [1, 2]);
        assert_eq!(back.local_pending(), [3, 4]);
        let mut visited = Vec::new();
        back.traverse(|e| visited.push(*e));
        assert_eq!(visited, [1, 2], "pending elements wait for a commit");
        assert_eq!(back.commit(), 2);
        assert_eq!(back.as_slice(), [1, 2, 3, 4]);
    }

    #[test]
    fn buffered_accepts_the_sequence_form_and_any_field_order() {
        let b: BufferedCollection<u8> = serde_json::from_str("[[1],[2,3]]").unwrap();
        assert_eq!(b.as_slice(), [1]);
        assert_eq!(b.local_pending(), [2, 3]);

        let b: BufferedCollection<u8> =
            serde_json::from_str(r#"{"pending":[9],"extra":{"x":1},"visible":[]}"#).unwrap();
        assert!(b.is_empty());
        assert_eq!(b.local_pending(), [9]);
    }

    #[test]
    fn buffered_rejects_bad_input() {
        let err = |s: &str| {
            serde_json::from_str::<BufferedCollection<u8>>(s)
                .unwrap_err()
                .to_string()
        };
        assert!(err(r#"{"visible":[1]}"#).contains("missing field `pending`"));
        assert!(err(r#"{"pending":[1]}"#).contains("missing field `visible`"));
        assert!(err(r#"{"visible":[],"visible":[],"pending":[]}"#)
            .contains("duplicate field `visible`"));
        assert!(err("[[1]]").contains("invalid length 1"));
        assert!(err("[1,2]").contains("invalid type"));
        assert!(err("7").contains("invalid type"));
    }

    #[test]
    fn buffered_with_a_default_policy() {
        let mut b: BufferedCollection<i32, Negative> =
            serde_json::from_str(r#"{"visible":[-1,2],"pending":[-3]}"#).unwrap();
        assert_eq!(b.prune(), 1);
        assert_eq!(b.as_slice(), [2]);
        b.commit();
        assert_eq!(b.prune(), 1);
        assert_eq!(b.as_slice(), [2]);
    }

    #[test]
    fn deserialize_in_place_keeps_the_settings() {
        use read_write_collection::{Mode, ShrinkPolicy};
        use serde::Deserialize;

        let mut c = ReadWriteCollection::with_policy(Negative);
        c.set_max_len(Some(3));
        c.set_mode(Mode::Unordered);
        c.set_shrink_policy(Some(ShrinkPolicy::new(30, 4)));
        c.extend([7, 8]);
        let mut de = serde_json::Deserializer::from_str("[1,-2,3]");
        ReadWriteCollection::deserialize_in_place(&mut de, &mut c).unwrap();
        assert_eq!(c, [1, -2, 3], "old elements replaced");
        assert_eq!(c.max_len(), Some(3));
        assert_eq!(c.mode(), Mode::Unordered);
        assert_eq!(c.shrink_policy(), Some(ShrinkPolicy::new(30, 4)));
        assert_eq!(c.prune(), 1, "the policy is the target's");

        let mut de = serde_json::Deserializer::from_str("[1,2,3,4]");
        let err = ReadWriteCollection::deserialize_in_place(&mut de, &mut c).unwrap_err();
        assert!(err.to_string().contains("at most 3 elements"), "{err}");
        assert!(c.len() <= 3 && c.capacity() <= 3);
        assert_eq!(c.max_len(), Some(3));
    }
}

#[cfg(feature = "proptest")]
mod proptest_impls {
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    use read_write_collection::proptest::{bounded, collection, like};
    use read_write_collection::{
        AutoRemove, BufferedCollection, Layers, Mode, ReadWriteCollection, ShrinkPolicy,
    };

    #[derive(Clone, Default, Debug, PartialEq)]
    struct Odd;

    impl AutoRemove<u8> for Odd {
        fn should_remove(&mut self, n: &u8) -> bool {
            n % 2 == 1
        }
    }

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

    #[test]
    fn bounded_values_and_shrinks_keep_the_bound() {
        let mut runner = TestRunner::deterministic();
        let strategy = bounded(any::<u8>(), 5, 0..50);
        let mut saw_full = false;
        for _ in 0..if cfg!(miri) { 25 } else { 100 } {
            let tree = strategy.new_tree(&mut runner).unwrap();
            let c = tree.current();
            assert!(c.len() <= 5);
            assert_eq!(c.max_len(), Some(5));
            saw_full |= c.is_full();
            if c.iter().any(|&x| x > 100) {
                let min = minimize(
                    tree,
                    |c| c.iter().any(|&x| x > 100),
                    |c| {
                        assert_eq!(c.max_len(), Some(5));
                        assert!(c.len() <= 5);
                    },
                );
                assert_eq!(min, [101], "the minimal failing case");
            }
        }
        assert!(saw_full);
    }

    #[test]
    #[should_panic(expected = "over the maximum length")]
    fn bounded_rejects_an_impossible_size() {
        let _ = bounded(any::<u8>(), 2, 3..5);
    }

    #[test]
    fn like_keeps_mode_shrink_policy_and_policy() {
        let mut template = ReadWriteCollection::with_policy(Odd);
        template.set_mode(Mode::Unordered);
        template.set_max_len(Some(4));
        template.set_shrink_policy(Some(ShrinkPolicy::new(5, 5)));
        let check = |c: &ReadWriteCollection<u8, Odd>| {
            assert_eq!(c.mode(), Mode::Unordered);
            assert_eq!(c.max_len(), Some(4));
            assert!(c.len() <= 4);
            assert_eq!(c.shrink_policy(), Some(ShrinkPolicy::new(5, 5)));
        };
        let mut runner = TestRunner::deterministic();
        let strategy = like(&template, any::<u8>(), 1..10);
        for _ in 0..50 {
            let tree = strategy.new_tree(&mut runner).unwrap();
            check(&tree.current());
            let min = minimize(tree, |c| !c.is_empty(), check);
            assert_eq!(min, [0], "shrinks to the smallest allowed value");
        }
    }

    #[test]
    fn collection_and_any() {
        let mut runner = TestRunner::deterministic();
        for _ in 0..if cfg!(miri) { 5 } else { 20 } {
            let c = collection(0..5u8, 2..4)
                .new_tree(&mut runner)
                .unwrap()
                .current();
            assert!((2..4).contains(&c.len()) && c.iter().all(|x| *x < 5));
            assert_eq!(c.max_len(), None);
            let mut p = any::<ReadWriteCollection<u8, Odd>>()
                .new_tree(&mut runner)
                .unwrap()
                .current();
            let odds = p.iter().filter(|n| *n % 2 == 1).count();
            assert_eq!(p.prune(), odds);
            let b = any::<BufferedCollection<u8>>()
                .new_tree(&mut runner)
                .unwrap()
                .current();
            assert!(b.len() < 100 && b.local_pending().len() < 100);
            let l = any::<Layers<u8>>().new_tree(&mut runner).unwrap().current();
            assert!((1..=4).contains(&l.layer_count()));
        }
    }

    proptest! {
        // No failure file (Miri runs isolated); fewer cases under Miri.
        #![proptest_config(ProptestConfig {
            cases: if cfg!(miri) { 4 } else { 256 },
            failure_persistence: None,
            ..ProptestConfig::default()
        })]
        #[test]
        fn usable_in_the_proptest_macro(mut c in bounded(any::<u8>(), 3, 0..=3)) {
            while c.try_push(1).is_ok() {}
            prop_assert_eq!(c.len(), 3);
        }
    }
}

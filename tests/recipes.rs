//! The testing recipes the docs give, from a user's side: `arbitrary_like`
//! for a field whose type has a policy, quickcheck shrinking for a policy
//! without `Default`, and failure reports that show a collection's bound
//! and mode.

use read_write_collection::{remove_when, Builder, ReadWriteCollection, ShrinkPolicy};

remove_when!(struct Spent for u32: |ttl| *ttl == 0);

#[test]
fn debug_is_vec_like_with_default_settings_and_shows_the_settings_that_differ() {
    let plain: ReadWriteCollection<&str> = ["a", "b"].into();
    assert_eq!(format!("{plain:?}"), format!("{:?}", vec!["a", "b"]));
    assert_eq!(format!("{plain:#?}"), format!("{:#?}", vec!["a", "b"]));

    let bounded: ReadWriteCollection<u8> = {
        let mut c = ReadWriteCollection::bounded(16);
        c.extend([1, 2]);
        c
    };
    assert_eq!(
        format!("{bounded:?}"),
        "ReadWriteCollection { items: [1, 2], max_len: 16 }"
    );

    let mut unordered: ReadWriteCollection<u8> = ReadWriteCollection::unordered();
    unordered.push(3);
    assert_eq!(
        format!("{unordered:?}"),
        "ReadWriteCollection { items: [3], mode: Unordered }"
    );

    let all: ReadWriteCollection<u32, Spent> = Builder::new()
        .bounded(4)
        .unordered()
        .shrink_policy(ShrinkPolicy::new(25, 60))
        .policy(Spent)
        .build();
    let text = format!("{all:?}");
    assert!(
        text.starts_with(
            "ReadWriteCollection { items: [], max_len: 4, mode: Unordered, shrink_policy: "
        ),
        "{text}"
    );
    assert_eq!(
        format!("{:#?}", ReadWriteCollection::<u8>::bounded(2)),
        "ReadWriteCollection {\n    items: [],\n    max_len: 2,\n}"
    );
}

#[cfg(feature = "arbitrary")]
#[test]
fn arbitrary_like_fills_a_field_whose_type_has_a_policy() {
    use arbitrary::{Arbitrary, Unstructured};
    use read_write_collection::Mode;

    #[derive(Arbitrary, Debug)]
    struct World {
        #[arbitrary(with = |u: &mut Unstructured| {
            Builder::new().bounded(8).unordered().policy(Spent).build().arbitrary_like(u)
        })]
        sparks: ReadWriteCollection<u32, Spent>,
    }

    // Plenty of data: generation stops at the bound.
    let mut full = World::arbitrary(&mut Unstructured::new(&[1; 512])).unwrap();
    assert_eq!(full.sparks.len(), 8);
    assert_eq!(full.sparks.max_len(), Some(8));
    assert_eq!(full.sparks.mode(), Mode::Unordered);
    assert_eq!(full.sparks.prune(), 0);

    // Two sparks, one spent: the template's policy removes it.
    let bytes = [1, 0, 0, 0, 0, 1, 5, 0, 0, 0, 0];
    let mut two = World::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
    assert_eq!(two.sparks.len(), 2);
    assert_eq!(two.sparks.max_len(), Some(8));
    assert_eq!(two.sparks.prune(), 1);
    assert_eq!(two.sparks, [5]);
}

#[cfg(feature = "quickcheck")]
mod quickcheck_without_default {
    use std::panic::{catch_unwind, AssertUnwindSafe};

    use quickcheck::{Arbitrary, Gen, QuickCheck};
    use read_write_collection::{Mode, ReadWriteCollection};

    /// A policy type with no `Default`.
    type Expiry = fn(&u8) -> bool;

    fn expired(ttl: &u8) -> bool {
        *ttl == 0
    }

    fn template() -> ReadWriteCollection<u8, Expiry> {
        let mut t = ReadWriteCollection::with_auto_remove(expired as Expiry);
        t.set_max_len(Some(8));
        t.set_mode(Mode::Unordered);
        t
    }

    #[derive(Clone, Debug)]
    struct Sparks(ReadWriteCollection<u8, Expiry>);

    impl Arbitrary for Sparks {
        fn arbitrary(g: &mut Gen) -> Self {
            Sparks(template().quickcheck_like(g))
        }
        fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
            Box::new(self.0.quickcheck_shrink().map(Sparks))
        }
    }

    #[test]
    fn quickcheck_shrink_keeps_settings_and_the_policy() {
        let mut c = template();
        c.extend([9, 0, 7, 3]);
        let mut n = 0;
        for mut smaller in c.quickcheck_shrink() {
            n += 1;
            assert!(smaller.len() <= 4);
            assert!(smaller.len() < 4 || smaller.as_slice() < c.as_slice());
            assert_eq!(smaller.max_len(), Some(8));
            assert_eq!(smaller.mode(), Mode::Unordered);
            smaller.clear();
            smaller.extend([0, 1]);
            assert_eq!(smaller.prune(), 1, "the cloned fn-pointer policy");
        }
        assert!(n > 0);
        assert_eq!(template().quickcheck_shrink().count(), 0);
    }

    /// A failing property shrinks to a minimal input, and quickcheck's
    /// report shows it with its bound and mode.
    #[test]
    fn a_failing_property_reports_a_shrunk_input_with_its_settings() {
        fn no_big_sparks(Sparks(c): Sparks) -> bool {
            c.iter().all(|&t| t <= 5)
        }
        let mut some_fail = false;
        for _ in 0..20 {
            let result = catch_unwind(AssertUnwindSafe(|| {
                QuickCheck::new()
                    .tests(200)
                    .quickcheck(no_big_sparks as fn(Sparks) -> bool)
            }));
            let Err(payload) = result else { continue };
            some_fail = true;
            let msg = payload
                .downcast_ref::<String>()
                .cloned()
                .unwrap_or_default();
            // Shrunk to one spark over 5, with the template's settings.
            assert!(
                msg.contains(
                    "Sparks(ReadWriteCollection { items: [6], max_len: 8, mode: Unordered })"
                ),
                "{msg}"
            );
            break;
        }
        assert!(
            some_fail,
            "200 cases of up to 8 random u8 found no spark over 5"
        );
    }
}

#[cfg(feature = "proptest")]
#[test]
fn a_proptest_failure_report_shows_the_bound_and_mode() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    use read_write_collection::proptest::like;

    let template: ReadWriteCollection<u8> = Builder::new().bounded(16).unordered().build();
    let mut runner = TestRunner::new(Config {
        cases: 64,
        failure_persistence: None,
        ..Config::default()
    });
    let err = runner
        .run(&like(&template, any::<u8>(), 0..=16), |c| {
            prop_assert!(c.iter().all(|&n| n < 200));
            Ok(())
        })
        .unwrap_err();
    let report = err.to_string();
    // `{:#?}` of a one-element bounded, unordered collection (the value is
    // 200 when shrinking runs to the end; fewer shrink steps may stop
    // above it).
    let (head, input) = report.split_once("minimal failing input: ").unwrap();
    assert!(
        head.starts_with("Test failed: assertion failed"),
        "{report}"
    );
    let lines: Vec<&str> = input.lines().collect();
    assert_eq!(lines.len(), 7, "{report}");
    assert_eq!(
        lines[..2],
        ["ReadWriteCollection {", "    items: ["],
        "{report}"
    );
    let value: u8 = lines[2].trim().trim_end_matches(',').parse().unwrap();
    assert!(value >= 200, "{report}");
    assert_eq!(
        lines[3..],
        ["    ],", "    max_len: 16,", "    mode: Unordered,", "}"],
        "{report}"
    );
}

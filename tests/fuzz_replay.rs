//! Replays the fuzz corpora through the fuzz targets' own checker
//! (`fuzz/fuzz_targets/model.rs`), so a stable `cargo test` exercises every
//! checked-in seed and every minimized crash without nightly or libFuzzer.
//!
//! * `corpus_and_regressions` reads every file in `fuzz/corpus/<target>/`
//!   and `fuzz/regressions/<target>/` at run time: the checked-in inputs
//!   named in `fuzz/checked-in.txt` (each must be present and decode), plus
//!   whatever a local fuzz run added (replayed when it decodes, never
//!   counted).
//! * Miri runs isolated (no file system), so `fuzz/regressions/` is also
//!   embedded below with `include_bytes!` and replayed by
//!   `embedded_regressions`, which is the test that runs under Miri.
//!   `embedded_list_is_complete` fails when a checked-in regression file is
//!   not in [`REGRESSIONS`].
//! * `random_programs` runs pseudo-random byte strings (fixed seeds)
//!   through every target: a little fuzzing without libFuzzer, also under
//!   Miri, where it checks the engine's `unsafe` code on model-driven
//!   operation sequences.
#![cfg(feature = "std")]

mod common;

#[path = "../fuzz/fuzz_targets/model/mod.rs"]
mod model;

/// `(target, file name, contents)` of every file in `fuzz/regressions/`.
const REGRESSIONS: &[(&str, &str, &[u8])] = &[
    (
        "auto_remove",
        "try-reserve-past-the-bound",
        include_bytes!("../fuzz/regressions/auto_remove/try-reserve-past-the-bound"),
    ),
    (
        "buffered",
        "empty-batch-on-a-closed-queue",
        include_bytes!("../fuzz/regressions/buffered/empty-batch-on-a-closed-queue"),
    ),
];

fn kind_of(target: &str) -> model::Kind {
    model::TARGETS
        .iter()
        .find(|(name, _)| *name == target)
        .unwrap_or_else(|| panic!("unknown fuzz target directory {target:?}"))
        .1
}

/// Replays one input; returns whether it decoded (libFuzzer skips inputs
/// that do not, and so does the replay).
fn replay(target: &str, name: &str, bytes: &[u8]) -> bool {
    let Some(input) = model::decode(bytes) else {
        return false;
    };
    let kind = kind_of(target);
    let result = std::panic::catch_unwind(|| model::run(kind, &input));
    if let Err(payload) = result {
        eprintln!("fuzz input {target}/{name} failed; decoded input:\n{input:#?}");
        std::panic::resume_unwind(payload);
    }
    true
}

#[test]
#[cfg_attr(
    miri,
    ignore = "reads the file system; Miri replays `embedded_regressions`"
)]
fn corpus_and_regressions() {
    for (target, _) in model::TARGETS {
        let mut seeds = 0;
        for file in common::fuzz_inputs(target) {
            let decoded = replay(target, &file.name, &file.bytes);
            if file.checked_in {
                assert!(
                    decoded,
                    "checked-in input fuzz/{} does not decode",
                    file.name
                );
                seeds += 1;
            }
        }
        assert!(seeds > 0, "fuzz/corpus/{target}/ has no checked-in seed");
    }
}

#[test]
fn embedded_regressions() {
    for &(target, name, bytes) in REGRESSIONS {
        assert!(
            replay(target, name, bytes),
            "regression {target}/{name} no longer decodes to an input"
        );
    }
}

#[test]
#[cfg_attr(miri, ignore = "reads the file system")]
fn embedded_list_is_complete() {
    let mut checked_in: Vec<(String, Vec<u8>)> = common::checked_in_fuzz_inputs()
        .into_iter()
        .filter(|name| name.starts_with("regressions/"))
        .map(|name| {
            let bytes = std::fs::read(common::fuzz_dir().join(&name)).expect("readable regression");
            (name, bytes)
        })
        .collect();
    let mut embedded: Vec<(String, Vec<u8>)> = REGRESSIONS
        .iter()
        .map(|&(t, n, b)| (format!("regressions/{t}/{n}"), b.to_vec()))
        .collect();
    checked_in.sort();
    embedded.sort();
    let names =
        |v: &[(String, Vec<u8>)]| -> Vec<String> { v.iter().map(|(n, _)| n.clone()).collect() };
    assert_eq!(
        names(&embedded),
        names(&checked_in),
        "REGRESSIONS in tests/fuzz_replay.rs must list every checked-in file in fuzz/regressions/"
    );
    assert!(
        embedded == checked_in,
        "an embedded regression differs from its file"
    );
}

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn byte(&mut self) -> u8 {
        self.next() as u8
    }

    /// A value, often one the policies react to.
    fn val(&mut self) -> u8 {
        match self.below(8) {
            0 => model::HOOK_PANIC,
            1 => model::PRED_PANIC,
            2..=4 => self.below(16) as u8,
            _ => self.byte(),
        }
    }

    fn mutate(&mut self) -> Option<u8> {
        (self.below(2) == 0).then(|| self.val())
    }

    /// Picks an index with the given weights.
    fn weighted(&mut self, weights: &[u64]) -> usize {
        let mut r = self.below(weights.iter().sum());
        weights
            .iter()
            .position(|&w| {
                let hit = r < w;
                r = r.saturating_sub(w);
                hit
            })
            .unwrap()
    }
}

fn random_action(rng: &mut Rng) -> model::Action {
    use model::Action;
    match rng.weighted(&[25, 20, 10, 12, 6, 6, 4, 4, 3, 3, 2]) {
        0 => Action::Keep,
        1 => Action::Remove,
        2 => Action::Mutate(rng.val()),
        3 => Action::Push {
            count: rng.byte(),
            val: rng.val(),
        },
        4 => Action::CursorPush(rng.val()),
        5 => Action::RemoveThenPush(rng.val()),
        6 => Action::ProducerPush(rng.val()),
        7 => Action::Break(rng.mutate()),
        8 => Action::Finish(rng.mutate()),
        9 => Action::Panic(rng.mutate()),
        _ => Action::Forget,
    }
}

fn random_op(rng: &mut Rng) -> model::Op {
    use model::Op;
    let actions = |rng: &mut Rng| (0..rng.below(16)).map(|_| random_action(rng)).collect();
    match rng.weighted(&[20, 10, 25, 8, 5, 3, 4, 8, 5, 2, 2, 4, 3, 1]) {
        0 => Op::Push(rng.val()),
        1 => Op::Extend {
            count: rng.byte(),
            val: rng.val(),
        },
        2 => Op::Traverse(actions(rng)),
        3 => Op::Closure(actions(rng)),
        4 => Op::Prune,
        5 => Op::Clear,
        6 => Op::Pop,
        7 => Op::Commit,
        8 => Op::ProducerPush(rng.val()),
        9 => Op::ClearPending,
        10 => Op::ClearVisible,
        11 => Op::SetThreshold(rng.below(20) as u8),
        12 => Op::SetMode(rng.below(2) == 0),
        _ => Op::ShrinkToFit,
    }
}

fn random_input(rng: &mut Rng, max_ops: u64) -> model::Input {
    let config = model::Config {
        capacity: if rng.below(2) == 0 { 0 } else { rng.byte() },
        max_len: (rng.below(3) == 0).then(|| rng.below(24) as u8),
        shrink: (rng.below(3) == 0).then(|| (rng.byte(), rng.below(3) as u8)),
        threshold: rng.below(20) as u8,
        panicky: rng.below(3) == 0,
        flag: rng.below(2) == 0,
    };
    let ops = (0..rng.below(max_ops)).map(|_| random_op(rng)).collect();
    model::Input { config, ops }
}

/// Structured random programs (random bytes would decode to very short
/// ones: `arbitrary` reads a continuation flag before each element).
#[test]
fn random_programs() {
    let (runs, max_ops) = if cfg!(miri) { (6, 20) } else { (400, 60) };
    for (target, kind) in model::TARGETS {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ target.len() as u64);
        for run in 0..runs {
            let input = random_input(&mut rng, max_ops);
            let result = std::panic::catch_unwind(|| model::run(kind, &input));
            if let Err(payload) = result {
                eprintln!("{target}: random program #{run} failed:\n{input:#?}");
                std::panic::resume_unwind(payload);
            }
        }
    }
}

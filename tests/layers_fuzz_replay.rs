//! Replays the `layers` fuzz target's checked-in corpus and regressions and
//! a few hundred pseudo-random inputs through its checker
//! (`fuzz/fuzz_targets/layers_model.rs`: `Layers` cross-layer pushes and the
//! removal sink against a plain model), on stable. Not published (it reads
//! `fuzz/`).

mod common;
use common::splitmix;

#[path = "../fuzz/fuzz_targets/layers_model.rs"]
mod layers_model;

#[test]
fn layers_corpus_replays() {
    if cfg!(miri) {
        return; // file reads need isolation off; the random inputs below run
    }
    common::replay_fuzz_inputs("layers", layers_model::decode, layers_model::run);
}

#[test]
fn layers_random_inputs_replay() {
    let runs = if cfg!(miri) { 4 } else { 400 };
    let mut decoded = 0;
    for seed in 0..runs {
        let len = 64 + (splitmix(seed) % 448) as usize;
        let bytes: Vec<u8> = (0..len as u64)
            .map(|i| splitmix(seed * 10_000 + i) as u8)
            .collect();
        if let Some(input) = layers_model::decode(&bytes) {
            layers_model::run(&input);
            decoded += 1;
        }
    }
    assert!(
        decoded * 2 >= runs,
        "only {decoded} of {runs} inputs decode"
    );
    if !cfg!(miri) {
        // The inputs reach every feature the checker models.
        let s = layers_model::stats();
        eprintln!("{s:?}");
        let reached = [
            ("pushes into the layer being walked", s.same),
            ("pushes into a later layer", s.later),
            ("pushes into a walked layer", s.earlier),
            ("pushes into an unwalked layer", s.unwalked),
            ("refused try_push", s.refused),
            ("push panics", s.library_panics),
            ("sink panics", s.sink_panics),
            ("loop body panics", s.body_panics),
            ("elements sunk", s.sunk),
            ("early exits", s.breaks),
        ];
        for (what, n) in reached {
            assert!(n > 0, "no {what} in {runs} random inputs");
        }
    }
}

/// A small deterministic generator for structured programs.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = splitmix(self.0);
        self.0 % n
    }
    fn byte(&mut self) -> u8 {
        self.below(256) as u8
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

fn push_op(rng: &mut Rng) -> layers_model::PushOp {
    layers_model::PushOp {
        target: if rng.chance(30) {
            layers_model::Target::Here
        } else {
            layers_model::Target::Layer(rng.byte())
        },
        try_: rng.chance(80),
        val: rng.byte(),
    }
}

fn pass_spec(rng: &mut Rng) -> layers_model::PassSpec {
    use layers_model::End;
    let program = (0..rng.below(5))
        .map(|_| layers_model::Visit {
            update: rng.chance(50).then(|| rng.byte()),
            entry_pushes: (0..rng.below(3)).map(|_| push_op(rng)).collect(),
            end: match rng.below(20) {
                0..=11 => End::Keep,
                12..=15 => End::Remove,
                16..=18 => End::Take,
                _ => End::Panic,
            },
            cursor_pushes: (0..rng.below(2)).map(|_| push_op(rng)).collect(),
        })
        .collect();
    layers_model::PassSpec {
        sink: rng.chance(50),
        program,
        pre: Vec::new(),
        post: (0..rng.below(2)).map(|_| push_op(rng)).collect(),
        // Mostly passes that run to their end, so that what a push does to
        // the rest of the pass is seen.
        stop_after: rng.chance(15).then(|| rng.byte()),
        sink_panic_at: rng.chance(10).then(|| rng.byte()),
    }
}

/// Structured programs (two to four layers, passes that mostly run to the
/// end, pushes into every layer from every layer): byte-decoded inputs
/// rarely push into an earlier layer and then finish the pass, so these
/// check that such pushes wait for the next pass.
#[test]
fn layers_structured_programs() {
    use layers_model::{LayerSpec, LayersInput, Step};
    let runs = if cfg!(miri) { 3 } else { 300 };
    for seed in 0..runs {
        let mut rng = Rng(seed);
        let layers = (0..2 + rng.below(3))
            .map(|_| LayerSpec {
                start: (0..rng.below(6)).map(|_| rng.byte()).collect(),
                bound: rng.chance(20).then(|| 3 + rng.byte() % 5),
                disabled: rng.chance(15),
            })
            .collect();
        let steps = (0..1 + rng.below(6))
            .map(|_| match rng.below(10) {
                0 => Step::Push {
                    layer: rng.byte(),
                    try_: true,
                    val: rng.byte(),
                },
                1 => Step::SetEnabled {
                    layer: rng.byte(),
                    on: rng.chance(70),
                },
                2..=5 => Step::Cursor(pass_spec(&mut rng)),
                6..=8 => Step::Traverse(pass_spec(&mut rng)),
                _ => Step::Single {
                    layer: rng.byte(),
                    spec: pass_spec(&mut rng),
                },
            })
            .collect();
        layers_model::run(&LayersInput { layers, steps });
    }
}

//! Replays the `serde` fuzz target's inputs through its checker
//! (`fuzz/fuzz_targets/serde_model.rs`), so a stable `cargo test` runs
//! every checked-in seed and regression without nightly or libFuzzer. It
//! lives in this package because the checker needs serde's derive, JSON
//! and postcard, which the library's own tests do not depend on.
//!
//! * `seeds_are_checked_in`: the seeds the checker builds from real
//!   serialized values are the files in `fuzz/corpus/serde/` (after a
//!   format change: `RWC_WRITE_SEEDS=1 cargo test -p
//!   read-write-collection-benches --test serde_fuzz_replay`, then
//!   `scripts/fuzz-manifest.sh`).
//! * `corpus_and_regressions`: every file in `fuzz/corpus/serde/` and
//!   `fuzz/regressions/serde/`, checked-in or added by a local fuzz run.
//! * `mutated_seeds`: the seeds with bytes flipped, cut and repeated
//!   (fixed seeds): a little fuzzing without libFuzzer.

#[path = "../../fuzz/fuzz_targets/serde_model.rs"]
mod serde_model;

use std::path::PathBuf;

fn fuzz_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

/// Runs one input; returns whether the crate loaded its value.
fn replay(name: &str, bytes: &[u8]) -> bool {
    let input = serde_model::decode(bytes);
    match std::panic::catch_unwind(|| serde_model::run(&input)) {
        Ok(loaded) => loaded,
        Err(payload) => {
            eprintln!("serde fuzz input {name} failed; decoded input:\n{input:#?}");
            eprintln!(
                "payload as text: {:?}",
                String::from_utf8_lossy(input.payload)
            );
            std::panic::resume_unwind(payload)
        }
    }
}

#[test]
fn seeds_are_checked_in() {
    let dir = fuzz_dir().join("corpus/serde");
    let write = std::env::var_os("RWC_WRITE_SEEDS").is_some();
    let seeds = serde_model::seeds();
    assert!(seeds.len() >= 26, "a seed per kind, format and case");
    for (name, bytes) in seeds {
        let path = dir.join(&name);
        if write {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &bytes).unwrap();
        }
        let on_disk = std::fs::read(&path).unwrap_or_else(|e| {
            panic!("fuzz/corpus/serde/{name}: {e} (RWC_WRITE_SEEDS=1 writes it)")
        });
        assert!(
            on_disk == bytes,
            "fuzz/corpus/serde/{name} is stale (RWC_WRITE_SEEDS=1 rewrites it)"
        );
        // Each seed loads, or is refused, as its name says.
        let refused = name.contains("over-bound") || name.contains("wrong-count");
        assert_eq!(replay(&name, &bytes), !refused, "{name}");
    }
}

#[test]
fn corpus_and_regressions() {
    let listed = std::fs::read_to_string(fuzz_dir().join("checked-in.txt")).unwrap();
    let mut checked_in = 0;
    for sub in ["corpus/serde", "regressions/serde"] {
        let Ok(entries) = std::fs::read_dir(fuzz_dir().join(sub)) else {
            continue;
        };
        let mut files: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
        files.sort();
        for path in files {
            let name = format!("{sub}/{}", path.file_name().unwrap().to_string_lossy());
            if listed.lines().any(|l| l == name) {
                checked_in += 1;
            }
            let _ = replay(&name, &std::fs::read(&path).unwrap());
        }
    }
    assert!(
        checked_in > 0,
        "no checked-in input for the serde target (scripts/fuzz-manifest.sh)"
    );
}

#[test]
fn mutated_seeds() {
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let seeds = serde_model::seeds();
    let rounds = if cfg!(miri) { 20 } else { 3000 };
    for round in 0..rounds {
        let (name, seed) = &seeds[next(seeds.len())];
        let mut bytes = seed.clone();
        for _ in 0..1 + next(4) {
            let len = bytes.len();
            match next(5) {
                0 if len > 0 => bytes[next(len)] = next(256) as u8,
                1 if len > 0 => bytes[next(len)] ^= 1 << next(8),
                2 if len > serde_model::HEADER => {
                    bytes.truncate(serde_model::HEADER + next(len - serde_model::HEADER))
                }
                3 if len > serde_model::HEADER => {
                    let at = serde_model::HEADER + next(len - serde_model::HEADER);
                    let piece: Vec<u8> = bytes[at..].iter().take(8).copied().collect();
                    bytes.splice(at..at, piece);
                }
                _ => {
                    bytes[next(serde_model::HEADER.min(len.max(1))).min(len.saturating_sub(1))] =
                        next(256) as u8
                }
            }
        }
        let _ = replay(&format!("{name} (mutation round {round})"), &bytes);
    }
}

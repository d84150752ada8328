//! Fuzz target `work_list`: a bounded `ReadWriteCollection` as a work list.
//! Each job may spawn more jobs, which the same pass handles; the cap must
//! never lose a job silently. The body of `check` is the crate docs'
//! example ("A cargo-fuzz target: a work list"): keep the two alike.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use read_write_collection::ReadWriteCollection;

#[derive(Arbitrary, Debug)]
struct Input {
    cap: u8,
    /// Each job spawns `job % 4` jobs of `job / 4`.
    jobs: Vec<u8>,
}

fn check(input: Input) {
    let cap = usize::from(input.cap % 32);
    let mut work = ReadWriteCollection::bounded(cap);
    let mut rejected = Vec::new();
    for job in input.jobs {
        if let Err(e) = work.try_push(job) {
            rejected.push(e.element());
        }
    }
    let queued = work.len();
    let (mut done, mut spawned) = (0, 0);
    let mut cursor = work.cursor();
    while let Some(entry) = cursor.next() {
        let job = entry.remove(); // frees a slot for its children
        done += 1;
        for _ in 0..job % 4 {
            match cursor.try_push(job / 4) {
                Ok(()) => spawned += 1,
                Err(e) => rejected.push(e.element()), // never lost
            }
        }
    }
    drop(cursor);
    assert!(work.is_empty());
    assert_eq!(
        done,
        queued + spawned,
        "every queued and spawned job ran once"
    );
    assert!(work.capacity() <= cap);
}

fuzz_target!(|input: Input| check(input));

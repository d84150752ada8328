//! The checker of the `parallel` fuzz target, shared with
//! `tests/parallel.rs` (which replays the corpus on stable): a random
//! collection and a random per-element program, run by `par_traverse` in a
//! pool of 1 to 4 threads and by `traverse` on a clone; the results must
//! be the same (as a multiset in unordered mode), and so must the values
//! the removal hook receives, in order.
#![allow(dead_code)]

use std::sync::OnceLock;

use arbitrary::{Arbitrary, Unstructured};
use read_write_collection::parallel::{ParMode, PAR_MIN_LEN};
use read_write_collection::{Mode, ReadWriteCollection};

/// What an element does when visited; chosen by `value % rules.len()`.
#[derive(Arbitrary, Clone, Copy, Debug)]
pub(crate) struct Rule {
    remove: bool,
    /// How many children to push (capped at 3; none past depth 3).
    children: u8,
    /// Added to the element when it is kept.
    update: u16,
}

#[derive(Arbitrary, Clone, Debug)]
pub(crate) struct ParInput {
    /// Low 16 bits of the starting elements (depth 0).
    elems: Vec<u16>,
    /// The elements are repeated `1 + repeat` times, so that inputs reach
    /// past the parallel threshold.
    repeat: u8,
    rules: Vec<Rule>,
    /// `Some(extra)`: bounded at the starting length plus `extra`.
    bound: Option<u8>,
    unordered: bool,
    /// Auto-remove elements whose value is `0 mod (predicate + 2)`.
    predicate: Option<u8>,
    threads: u8,
}

pub(crate) fn decode(bytes: &[u8]) -> Option<ParInput> {
    ParInput::arbitrary_take_rest(Unstructured::new(bytes)).ok()
}

/// The depth of an element lives in bits 16 and 17.
const DEPTH_SHIFT: u32 = 16;

fn visit(rules: &[Rule], v: u32) -> (bool, u32, Vec<u32>) {
    if rules.is_empty() {
        return (false, v, Vec::new());
    }
    let rule = rules[v as usize % rules.len()];
    let depth = v >> DEPTH_SHIFT & 3;
    let children = if depth < 3 {
        (rule.children % 4) as u32
    } else {
        0
    };
    let kids = (0..children)
        .map(|k| ((v.wrapping_mul(31).wrapping_add(k + 1)) & 0xFFFF) | (depth + 1) << DEPTH_SHIFT)
        .collect();
    let updated = (v & !0xFFFF) | ((v as u16).wrapping_add(rule.update) as u32);
    (rule.remove, updated, kids)
}

fn pool(threads: u8) -> &'static rayon::ThreadPool {
    static POOLS: [OnceLock<rayon::ThreadPool>; 4] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    let i = threads as usize % 4;
    POOLS[i].get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(i + 1)
            .build()
            .expect("a thread pool")
    })
}

pub(crate) fn run(input: &ParInput) {
    let repeat = if cfg!(miri) {
        1
    } else {
        1 + input.repeat as usize
    };
    let start: Vec<u32> = input
        .elems
        .iter()
        .map(|&v| v as u32)
        .cycle()
        .take(input.elems.len() * repeat)
        .collect();
    let _ = PAR_MIN_LEN;
    let rules = &input.rules[..input.rules.len().min(16)];
    let modulus = input.predicate.map(|p| p as u32 + 2);
    let expired = move |v: &u32| modulus.is_some_and(|m| *v % m == 0);
    let mut serial_hooked = Vec::new();
    let mut par_hooked = Vec::new();
    let mut serial =
        ReadWriteCollection::with_auto_remove(expired).with_removal_hook(|v| serial_hooked.push(v));
    let mut par =
        ReadWriteCollection::with_auto_remove(expired).with_removal_hook(|v| par_hooked.push(v));
    if let Some(extra) = input.bound {
        serial.set_max_len(Some(start.len() + extra as usize));
        par.set_max_len(Some(start.len() + extra as usize));
    }
    if input.unordered {
        serial.set_mode(Mode::Unordered);
        par.set_mode(Mode::Unordered);
    }
    serial.extend(start.iter().copied());
    par.extend(start.iter().copied());
    serial.traverse(|mut e| {
        let (remove, updated, kids) = visit(rules, *e);
        if remove {
            e.remove();
            return;
        }
        *e = updated;
        for k in kids {
            let _ = e.try_push(k);
        }
    });
    pool(input.threads).install(|| {
        // Every round past its serial start in parallel, however small, so
        // that the parallel machinery runs on every input.
        par.par_traverse_with(ParMode::Parallel, |mut e| {
            let (remove, updated, kids) = visit(rules, *e);
            if remove {
                e.remove();
                return;
            }
            *e = updated;
            for k in kids {
                let _ = e.try_push(k);
            }
        })
    });
    if input.unordered {
        let (mut a, mut b) = (serial.as_slice().to_vec(), par.as_slice().to_vec());
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "unordered: the multisets differ");
    } else {
        assert_eq!(serial.as_slice(), par.as_slice(), "the collections differ");
    }
    if let Some(max) = par.max_len() {
        assert!(par.len() <= max, "past the bound");
    }
    drop((serial, par));
    if !input.unordered {
        assert_eq!(
            serial_hooked, par_hooked,
            "the hook's values or order differ"
        );
    } else {
        serial_hooked.sort_unstable();
        par_hooked.sort_unstable();
        assert_eq!(serial_hooked, par_hooked, "the hook's values differ");
    }
}

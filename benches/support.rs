//! What every benchmark binary reads from its environment, in one place
//! (each bench is its own crate and includes this file as a module, and
//! uses what it needs of it).
#![allow(dead_code)]

/// `1k`, `100k`, `1M` or a plain number, from the variable `var` (named in
/// the panic message when `s` does not parse).
pub(crate) fn parse_count(var: &str, s: &str) -> u64 {
    let s = s.trim();
    let (digits, scale) = match s.as_bytes().last() {
        Some(b'k') => (&s[..s.len() - 1], 1_000),
        Some(b'M') => (&s[..s.len() - 1], 1_000_000),
        _ => (s, 1),
    };
    digits
        .parse::<u64>()
        .map(|d| d * scale)
        .unwrap_or_else(|_| panic!("{var}: cannot parse {s:?} (use e.g. 10k, 1M, 4)"))
}

/// `RWC_ALTERNATE=rounds`: instead of criterion's one-method-at-a-time
/// sampling, run every method of a group once per round, for `rounds`
/// rounds, and report medians and same-run ratios. On a shared, noisy
/// machine, load changes then hit every method alike, so the ratios stay
/// meaningful. `None` when the variable is unset.
pub(crate) fn alternate_rounds() -> Option<usize> {
    positive_var("RWC_ALTERNATE")
}

/// The positive number in the variable `var`, `None` when it is unset.
///
/// # Panics
/// If it is set to something else than a positive number.
pub(crate) fn positive_var(var: &str) -> Option<usize> {
    std::env::var(var).ok().map(|k| {
        k.parse()
            .ok()
            .filter(|&r| r > 0)
            .unwrap_or_else(|| panic!("{var}: not a positive number: {k:?}"))
    })
}

/// SplitMix64's output function: the benches' deterministic per-element
/// hash and the unit of their synthetic work (a dependent chain of these
/// is how a bench makes an update heavy).
pub(crate) fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The median of `samples` (the upper one of an even count), sorting them.
pub(crate) fn median(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

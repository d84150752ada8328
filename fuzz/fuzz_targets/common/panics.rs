//! The panics a checker makes on purpose, and the panic hook that keeps
//! them quiet: libFuzzer's own hook aborts the run on every panic it sees,
//! and a checker that catches a panic it planted, or a library panic it
//! predicted, must go on. Any other panic reaches the previous hook.
//!
//! Shared by the `model` checker (`model/mod.rs`) and the layers checker
//! (`layers_model.rs`), on libFuzzer and in the replay tests.
#![allow(dead_code)]

use std::cell::Cell;
use std::panic;
use std::sync::Once;

/// The payload of every panic a checker injects on purpose.
pub struct InjectedPanic;

thread_local! {
    /// Set while a library panic is expected (the hook stays silent).
    static EXPECTING: Cell<bool> = const { Cell::new(false) };
}

/// Panics with [`InjectedPanic`] (a panicking user callback).
pub fn inject_panic() -> ! {
    panic::panic_any(InjectedPanic)
}

/// Says whether the next panic of the library is one the checker
/// predicted (a push into a full layer): the hook stays silent for it.
/// Reset to `false` once the panic is caught.
pub fn expect_panic(expected: bool) {
    EXPECTING.with(|e| e.set(expected));
}

/// Installs (once per process) a hook that silences [`InjectedPanic`]s and
/// expected library panics and hands every other panic to the hook it
/// replaces.
pub fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let expected = EXPECTING.with(Cell::get);
            if !expected && info.payload().downcast_ref::<InjectedPanic>().is_none() {
                previous(info);
            }
        }));
    });
}

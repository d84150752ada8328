//! Drop-tracked elements.

use super::*;

// ---------------------------------------------------------------------------
// Drop-tracked elements

/// An element whose drops are recorded in a thread-local tracker.
pub struct Elem {
    pub(crate) generation: u32,
    pub(crate) id: u32,
    pub val: u8,
}

/// What the model knows about an element: identity and value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct M {
    pub id: u32,
    pub val: u8,
}

impl M {
    pub(crate) fn of(e: &Elem) -> M {
        M {
            id: e.id,
            val: e.val,
        }
    }
}

#[derive(Default)]
pub(crate) struct Tracker {
    pub(crate) generation: u32,
    pub(crate) live: Vec<bool>,
    pub(crate) live_count: usize,
    pub(crate) errors: Vec<String>,
}

thread_local! {
    static TRACKER: RefCell<Tracker> = RefCell::new(Tracker::default());
}

impl Drop for Elem {
    fn drop(&mut self) {
        let (generation, id) = (self.generation, self.id);
        let _ = TRACKER.try_with(|t| {
            let mut t = t.borrow_mut();
            if generation != t.generation {
                t.errors
                    .push(format!("drop of element {id} of an earlier run"));
            } else if !t.live.get(id as usize).copied().unwrap_or(false) {
                t.errors.push(format!("double drop of element {id}"));
            } else {
                t.live[id as usize] = false;
                t.live_count -= 1;
            }
        });
    }
}

pub(crate) fn tracker_reset() {
    TRACKER.with(|t| {
        let mut t = t.borrow_mut();
        t.generation = t.generation.wrapping_add(1);
        t.live.clear();
        t.live_count = 0;
        t.errors.clear();
    });
}

pub(crate) fn new_elem(id: u32, val: u8) -> Elem {
    TRACKER.with(|t| {
        let mut t = t.borrow_mut();
        assert_eq!(t.live.len(), id as usize);
        t.live.push(true);
        t.live_count += 1;
        Elem {
            generation: t.generation,
            id,
            val,
        }
    })
}

/// Panics unless the live elements are exactly `expected` (distinct ids).
pub(crate) fn check_live(expected: &[u32], context: &str) {
    TRACKER.with(|t| {
        let t = t.borrow();
        assert!(t.errors.is_empty(), "{context}: {:?}", t.errors);
        for &id in expected {
            assert!(
                t.live[id as usize],
                "{context}: element {id} should be alive but was dropped"
            );
        }
        assert_eq!(
            t.live_count,
            expected.len(),
            "{context}: live element count (a leak or a lost element)"
        );
    });
}

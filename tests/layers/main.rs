//! Tests for `Layers`: behaviour (construction, keys, flags, the layered
//! cursor and every way a pass can end) and a quickcheck model that runs
//! random operation sequences against a plain
//! `Vec<(enabled, visible, Vec<element>)>` and checks, after every step,
//! the visiting order (layer order, then element order, pushes after the
//! layer's originals), each layer's contents, `iter_visible` and which
//! drop-tracked elements are alive.

#[path = "../common/mod.rs"]
mod common;

use std::collections::VecDeque;
use std::mem;
use std::panic::{catch_unwind, AssertUnwindSafe};

use common::{expect_panic, ids, vals, Elem, Tracker};
use quickcheck::{Arbitrary, Gen, QuickCheck};
use read_write_collection::{
    AutoRemove, Entry, LayerEntry, LayerKey, Layers, LayersCursor, Mode, NoAutoRemove,
    ReadWriteCollection,
};

/// The policy type layers built with `from_collections` share.
type Policy = fn(&Elem) -> bool;

fn expired(e: &Elem) -> bool {
    e.flag
}

fn never(_: &Elem) -> bool {
    false
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layer {
    Background,
    Actors,
    Bullets,
}

/// Written by hand (not `layer_keys!`): names no fixed number of layers,
/// so a test can give it fewer layers than keys.
impl LayerKey for Layer {
    fn index(self) -> usize {
        self as usize
    }

    fn from_index(index: usize) -> Option<Self> {
        [Layer::Background, Layer::Actors, Layer::Bullets]
            .get(index)
            .copied()
    }
}

/// `Layers::new(n)` with layer `i` holding new elements `per_layer[i]`.
fn filled(t: &Tracker, per_layer: &[&[i64]]) -> Layers<Elem> {
    let mut l = Layers::new(per_layer.len());
    for (i, values) in per_layer.iter().enumerate() {
        for &v in *values {
            l.push(i, t.elem(v));
        }
    }
    l
}

/// Every element id, layer by layer.
fn all_ids<A>(l: &Layers<Elem, usize, A>) -> Vec<u32> {
    (0..l.layer_count()).flat_map(|i| ids(l.layer(i))).collect()
}

/// The values of each layer.
fn all_vals<A>(l: &Layers<Elem, usize, A>) -> Vec<Vec<i64>> {
    (0..l.layer_count()).map(|i| vals(l.layer(i))).collect()
}

fn visible_vals<K: LayerKey, A>(l: &Layers<Elem, K, A>) -> Vec<(usize, i64)> {
    l.iter_visible().map(|(k, e)| (k.index(), e.val)).collect()
}

/// The quickcheck runner of the models (fewer, smaller cases under Miri).
fn qc() -> QuickCheck {
    let size = if cfg!(miri) { 6 } else { 30 };
    let mut q = QuickCheck::new().rng(Gen::new(size));
    if cfg!(miri) && std::env::var_os("QUICKCHECK_TESTS").is_none() {
        q = q.tests(5);
    }
    q
}

mod behaviour;
mod cross_layer;
mod model;

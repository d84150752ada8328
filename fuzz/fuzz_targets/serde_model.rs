#![allow(dead_code)] // each user (fuzz target, replay test) uses part of it
//! The `serde` fuzz target's checker, shared with the replay test
//! (`benches/tests/serde_fuzz_replay.rs`), so a stable `cargo test` runs
//! every checked-in input through the same checks.
//!
//! An input is a four-byte header and a payload. The header picks what is
//! loaded (a `ReadWriteCollection`, a `BufferedCollection` or `Layers`,
//! fresh or in place into a target with settings), the format (JSON or
//! postcard) and the target's settings; the payload is handed to the
//! format's deserializer as it is. Every byte string is a valid input.
//!
//! The oracle is the plain std/derived form of the same data: `Vec<String>`
//! for a collection, `Parts { visible, pending }` for a queue,
//! `Vec<LayerParts>` for layers, read from the same bytes the same way.
//! Checked:
//!
//! * the crate's load succeeds exactly when the oracle's does and the
//!   value fits the target (its maximum length, with what producers
//!   queued; its number of layers), and then holds the oracle's elements
//!   and flags;
//! * a load in place keeps every setting (bound, mode, shrink policy,
//!   auto-remove policy, the producers) and, when it fails, leaves the
//!   target exactly as it was;
//! * a loaded value serializes and reads back to an equal value;
//! * no panic anywhere (libFuzzer also fails an input that allocates more
//!   than its `-malloc_limit_mb`: a length prefix must not become an
//!   allocation).

use read_write_collection::{
    layer_keys, AutoRemove, BufferedCollection, Builder, Layers, Mode, ReadWriteCollection,
    ShrinkPolicy,
};
use serde::{Deserialize, Serialize};

/// Removes empty strings when switched on. `Default` (off) is what a
/// plain load installs; a load in place must keep the target's.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Blank {
    on: bool,
}

impl AutoRemove<String> for Blank {
    fn should_remove(&mut self, s: &String) -> bool {
        self.on && s.is_empty()
    }
}

layer_keys!(
    enum Three {
        A,
        B,
        C,
    }
);

/// The oracle for a queue: the derived form of the same fields.
#[derive(Debug, Deserialize)]
struct Parts {
    visible: Vec<String>,
    pending: Vec<String>,
}

/// The oracle for one layer.
#[derive(Debug, Deserialize)]
struct LayerParts {
    enabled: bool,
    visible: bool,
    items: Vec<String>,
}

/// What is loaded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    Collection,
    CollectionInPlace,
    Queue,
    QueueInPlace,
    Layers,
    LayersFixed,
    LayersInPlace,
}

const KINDS: [Kind; 7] = [
    Kind::Collection,
    Kind::CollectionInPlace,
    Kind::Queue,
    Kind::QueueInPlace,
    Kind::Layers,
    Kind::LayersFixed,
    Kind::LayersInPlace,
];

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Format {
    Json,
    Postcard,
}

/// A decoded input.
#[derive(Debug)]
pub struct Input<'a> {
    pub kind: Kind,
    pub format: Format,
    /// The target's maximum length (each layer's, for layers), if bounded.
    pub bound: Option<usize>,
    pub unordered: bool,
    pub shrink: bool,
    pub policy: bool,
    /// Elements the target holds before the load (and, for a queue, how
    /// many a producer pushes); for layers in place, the layer count is
    /// `1 + preload % 4`.
    pub preload: usize,
    pub payload: &'a [u8],
}

/// Header length; shorter inputs are padded with zeros.
pub const HEADER: usize = 4;

pub fn decode(data: &[u8]) -> Input<'_> {
    let byte = |i: usize| data.get(i).copied().unwrap_or(0);
    let flags = byte(1);
    Input {
        kind: KINDS[usize::from(byte(0)) % KINDS.len()],
        format: if flags & 1 == 0 {
            Format::Json
        } else {
            Format::Postcard
        },
        bound: (flags & 2 != 0).then(|| usize::from(byte(2) % 16)),
        unordered: flags & 4 != 0,
        shrink: flags & 8 != 0,
        policy: flags & 16 != 0,
        preload: usize::from(byte(3) % 8),
        payload: data.get(HEADER..).unwrap_or(&[]),
    }
}

/// The header `decode` reads back as these settings (for seeds).
pub fn header(kind: Kind, format: Format, bound: Option<u8>, flags: u8, preload: u8) -> Vec<u8> {
    let k = KINDS.iter().position(|&k| k == kind).unwrap() as u8;
    let mut f = flags & !3;
    if format == Format::Postcard {
        f |= 1;
    }
    if bound.is_some() {
        f |= 2;
    }
    vec![k, f, bound.unwrap_or(0), preload]
}

/// Flag bits for `header`.
pub const UNORDERED: u8 = 4;
pub const SHRINK: u8 = 8;
pub const POLICY: u8 = 16;

/// Deserializes `T` from `bytes` as a whole (for JSON, also the check for
/// trailing characters; postcard ignores bytes after the value).
fn load<T: for<'de> Deserialize<'de>>(format: Format, bytes: &[u8]) -> Result<T, String> {
    match format {
        Format::Json => serde_json::from_slice(bytes).map_err(|e| e.to_string()),
        Format::Postcard => postcard::from_bytes(bytes).map_err(|e| e.to_string()),
    }
}

/// Loads `bytes` into `place` with `deserialize_in_place`. Returns the
/// load's result and, for JSON, whether the rest of the input was only
/// whitespace (checked after the load, as `from_slice` does).
fn load_in_place<T: for<'de> Deserialize<'de>>(
    format: Format,
    bytes: &[u8],
    place: &mut T,
) -> (Result<(), String>, bool) {
    match format {
        Format::Json => {
            let mut de = serde_json::Deserializer::from_slice(bytes);
            let r = T::deserialize_in_place(&mut de, place).map_err(|e| e.to_string());
            let end = r.is_ok() && de.end().is_ok();
            (r, end)
        }
        Format::Postcard => {
            let mut de = postcard::Deserializer::from_bytes(bytes);
            let r = T::deserialize_in_place(&mut de, place).map_err(|e| e.to_string());
            (r, true)
        }
    }
}

/// The oracle read the way `load_in_place` reads: the value, and whether
/// the input ended after it.
fn oracle_in_place<T: for<'de> Deserialize<'de>>(
    format: Format,
    bytes: &[u8],
) -> (Option<T>, bool) {
    match format {
        Format::Json => {
            let mut de = serde_json::Deserializer::from_slice(bytes);
            match T::deserialize(&mut de) {
                Ok(v) => {
                    let end = de.end().is_ok();
                    (Some(v), end)
                }
                Err(_) => (None, false),
            }
        }
        Format::Postcard => (postcard::from_bytes(bytes).ok(), true),
    }
}

fn save<T: Serialize>(format: Format, value: &T) -> Vec<u8> {
    match format {
        Format::Json => serde_json::to_vec(value).expect("serializing to JSON"),
        Format::Postcard => postcard::to_allocvec(value).expect("serializing to postcard"),
    }
}

/// `n` distinct strings, one of them empty when `n > 1` (for the policy).
fn strings(tag: &str, n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            if i == 1 {
                String::new()
            } else {
                format!("{tag}{i}")
            }
        })
        .collect()
}

fn builder(input: &Input<'_>) -> Builder<String, Blank> {
    let mut b = Builder::new().policy(Blank { on: input.policy });
    if let Some(max) = input.bound {
        b = b.bounded(max);
    }
    if input.unordered {
        b = b.unordered();
    }
    if input.shrink {
        b = b.shrink_policy(ShrinkPolicy::new(25, 2));
    }
    b
}

fn mode(input: &Input<'_>) -> Mode {
    if input.unordered {
        Mode::Unordered
    } else {
        Mode::Ordered
    }
}

fn shrink(input: &Input<'_>) -> Option<ShrinkPolicy> {
    input.shrink.then(|| ShrinkPolicy::new(25, 2))
}

/// Runs one input through its checks; panics on a failed check. Returns
/// whether the crate loaded the value.
pub fn run(input: &Input<'_>) -> bool {
    match input.kind {
        Kind::Collection => collection(input),
        Kind::CollectionInPlace => collection_in_place(input),
        Kind::Queue => queue(input),
        Kind::QueueInPlace => queue_in_place(input),
        Kind::Layers => layers::<usize>(input, None),
        Kind::LayersFixed => layers::<Three>(input, Some(3)),
        Kind::LayersInPlace => layers_in_place(input),
    }
}

fn collection(input: &Input<'_>) -> bool {
    let got = load::<ReadWriteCollection<String, Blank>>(input.format, input.payload);
    let want = load::<Vec<String>>(input.format, input.payload);
    let loaded = got.is_ok();
    match (got, want) {
        (Ok(c), Ok(v)) => {
            assert_eq!(c.as_slice(), &v[..]);
            assert_eq!(c.max_len(), None, "a plain load is unbounded");
            assert_eq!(c.mode(), Mode::Ordered);
            assert_eq!(c.shrink_policy(), None);
            assert_eq!(*c.policy(), Blank::default());
            let back =
                load::<ReadWriteCollection<String, Blank>>(input.format, &save(input.format, &c));
            assert_eq!(back.expect("round trip"), c);
        }
        (Err(_), Err(_)) => {}
        (got, want) => panic!("collection: crate {got:?}, Vec {want:?}"),
    }
    loaded
}

fn collection_in_place(input: &Input<'_>) -> bool {
    let preload = input.preload.min(input.bound.unwrap_or(usize::MAX));
    let mut c: ReadWriteCollection<String, Blank> =
        builder(input).build_from_vec(strings("old", preload));
    let before = c.as_slice().to_vec();
    let (r, end) = load_in_place(input.format, input.payload, &mut c);
    let loaded = r.is_ok();
    let (want, want_end) = oracle_in_place::<Vec<String>>(input.format, input.payload);
    assert_eq!(c.max_len(), input.bound, "the bound stays");
    assert_eq!(c.mode(), mode(input), "the mode stays");
    assert_eq!(c.shrink_policy(), shrink(input), "the shrink policy stays");
    assert_eq!(*c.policy(), Blank { on: input.policy }, "the policy stays");
    if let Some(max) = c.max_len() {
        assert!(c.capacity() <= max.max(preload), "allocated past the bound");
    }
    match want {
        Some(v) if v.len() <= input.bound.unwrap_or(usize::MAX) => {
            assert!(r.is_ok(), "in place: {r:?} where Vec read {v:?}");
            assert_eq!(c.as_slice(), &v[..]);
            assert_eq!(end, want_end);
            let back = load::<Vec<String>>(input.format, &save(input.format, &c));
            assert_eq!(back.expect("round trip"), v);
            // The policy still applies.
            // The policy still applies (unordered: removal reorders).
            c.prune();
            let mut kept: Vec<String> = v
                .into_iter()
                .filter(|s| !(input.policy && s.is_empty()))
                .collect();
            let mut got = c.as_slice().to_vec();
            if input.unordered {
                kept.sort();
                got.sort();
            }
            assert_eq!(got, kept);
        }
        _ => {
            assert!(
                r.is_err(),
                "in place: loaded {:?} where Vec did not fit or failed",
                c
            );
            assert_eq!(
                c.as_slice(),
                &before[..],
                "a failed load changed the target"
            );
        }
    }
    loaded
}

fn queue(input: &Input<'_>) -> bool {
    let got = load::<BufferedCollection<String, Blank>>(input.format, input.payload);
    let want = load::<Parts>(input.format, input.payload);
    let loaded = got.is_ok();
    match (got, want) {
        (Ok(q), Ok(p)) => {
            assert_eq!(q.as_slice(), &p.visible[..]);
            assert_eq!(q.local_pending(), &p.pending[..]);
            assert_eq!(q.max_len(), None);
            assert_eq!(q.mode(), Mode::Ordered);
            assert_eq!(q.producer_count(), 0);
            let back =
                load::<BufferedCollection<String, Blank>>(input.format, &save(input.format, &q))
                    .expect("round trip");
            assert_eq!(back.as_slice(), q.as_slice());
            assert_eq!(back.local_pending(), q.local_pending());
        }
        (Err(_), Err(_)) => {}
        (got, want) => panic!("queue: crate {got:?}, derived {want:?}"),
    }
    loaded
}

fn queue_in_place(input: &Input<'_>) -> bool {
    let max = input.bound.unwrap_or(usize::MAX);
    let mut q: BufferedCollection<String, Blank> = builder(input).build_buffered();
    // Visible, local pending, then a producer's queue, within the bound.
    let mut room = max;
    for s in strings("vis", input.preload / 2) {
        if room > 0 && q.try_push(s).is_ok() {
            room -= 1;
        }
    }
    q.commit();
    for s in strings("pend", input.preload - input.preload / 2) {
        if room > 0 && q.try_push(s).is_ok() {
            room -= 1;
        }
    }
    let producer = q.producer();
    let mut queued = Vec::new();
    for s in strings("prod", input.preload % 3) {
        if producer.try_push(s.clone()).is_ok() {
            queued.push(s);
        }
    }
    let (visible, pending) = (q.as_slice().to_vec(), q.local_pending().to_vec());
    let (r, end) = load_in_place(input.format, input.payload, &mut q);
    let loaded = r.is_ok();
    let (want, want_end) = oracle_in_place::<Parts>(input.format, input.payload);
    assert_eq!(q.max_len(), input.bound, "the bound stays");
    assert_eq!(q.mode(), mode(input), "the mode stays");
    assert_eq!(q.shrink_policy(), shrink(input), "the shrink policy stays");
    assert_eq!(*q.policy(), Blank { on: input.policy }, "the policy stays");
    assert_eq!(q.producer_count(), 1, "the producer stays connected");
    let expect_visible;
    let expect_pending;
    match want {
        Some(p) if p.visible.len() + p.pending.len() + queued.len() <= max => {
            assert!(
                r.is_ok(),
                "in place: {r:?} where the derived form read {p:?}"
            );
            assert_eq!(end, want_end);
            assert_eq!(q.as_slice(), &p.visible[..]);
            assert_eq!(q.local_pending(), &p.pending[..]);
            let back = load::<Parts>(input.format, &save(input.format, &q)).expect("round trip");
            assert_eq!((&back.visible, &back.pending), (&p.visible, &p.pending));
            (expect_visible, expect_pending) = (p.visible, p.pending);
        }
        _ => {
            assert!(
                r.is_err(),
                "in place: a load that should not fit or failed succeeded"
            );
            assert_eq!(
                q.as_slice(),
                &visible[..],
                "a failed load changed the target"
            );
            assert_eq!(
                q.local_pending(),
                &pending[..],
                "a failed load changed the target"
            );
            (expect_visible, expect_pending) = (visible, pending);
        }
    }
    // What the producer queued comes after the loaded pending elements.
    q.commit();
    let all: Vec<String> = expect_visible
        .into_iter()
        .chain(expect_pending)
        .chain(queued)
        .collect();
    assert_eq!(q.as_slice(), &all[..], "commit after the load");
    // The bound holds for the producer too.
    if let Some(max) = input.bound {
        let pushed = (0..max + 1)
            .take_while(|_| producer.try_push("x".into()).is_ok())
            .count();
        assert_eq!(
            q.len() + pushed,
            max.max(q.len()),
            "the producer's room after the load"
        );
    }
    loaded
}

fn same_layers<K: read_write_collection::LayerKey>(
    l: &Layers<String, K, Blank>,
    want: &[LayerParts],
) {
    assert_eq!(l.layer_count(), want.len());
    for (i, w) in want.iter().enumerate() {
        let k = K::from_index(i).expect("a key for every layer");
        assert_eq!(l.is_enabled(k), w.enabled, "layer {i} enabled");
        assert_eq!(l.is_visible(k), w.visible, "layer {i} visible");
        assert_eq!(l.layer(k).as_slice(), &w.items[..], "layer {i} items");
    }
}

fn layers<K: read_write_collection::LayerKey>(input: &Input<'_>, count: Option<usize>) -> bool {
    let got = load::<Layers<String, K, Blank>>(input.format, input.payload);
    let want = load::<Vec<LayerParts>>(input.format, input.payload);
    let loaded = got.is_ok();
    match (got, want) {
        (Ok(l), Ok(w)) => {
            same_layers(&l, &w);
            if let Some(n) = count {
                assert_eq!(w.len(), n, "a fixed key loads its own number of layers");
            }
            for i in 0..l.layer_count() {
                let layer = l.layer(K::from_index(i).unwrap());
                assert_eq!(layer.max_len(), None);
                assert_eq!(layer.mode(), Mode::Ordered);
            }
            let back = load::<Layers<String, K, Blank>>(input.format, &save(input.format, &l));
            assert!(back.expect("round trip") == l, "round trip");
        }
        (Err(_), Ok(w)) if count.is_some_and(|n| w.len() != n) => {}
        (Err(_), Err(_)) => {}
        (got, want) => panic!(
            "layers: crate {:?}, derived {want:?}",
            got.map(|l| l.layer_count())
        ),
    }
    loaded
}

/// Every layer's flags and elements.
fn snapshot(l: &Layers<String, usize, Blank>) -> Vec<(bool, bool, Vec<String>)> {
    (0..l.layer_count())
        .map(|i| {
            (
                l.is_enabled(i),
                l.is_visible(i),
                l.layer(i).as_slice().to_vec(),
            )
        })
        .collect()
}

fn layers_in_place(input: &Input<'_>) -> bool {
    let count = 1 + input.preload % 4;
    let max = input.bound.unwrap_or(usize::MAX);
    let mut l: Layers<String, usize, Blank> = builder(input).build_layers(count);
    for i in 0..count {
        for s in strings(&format!("l{i}-"), (input.preload + i) % 3) {
            let _ = l.try_push(i, s);
        }
        l.set_enabled(i, i % 2 == 0);
    }
    let before = snapshot(&l);
    let (r, end) = load_in_place(input.format, input.payload, &mut l);
    let loaded = r.is_ok();
    let (want, want_end) = oracle_in_place::<Vec<LayerParts>>(input.format, input.payload);
    assert_eq!(l.layer_count(), count, "the layers stay");
    for i in 0..count {
        let layer = l.layer(i);
        assert_eq!(layer.max_len(), input.bound, "layer {i}: the bound stays");
        assert_eq!(layer.mode(), mode(input), "layer {i}: the mode stays");
        assert_eq!(
            layer.shrink_policy(),
            shrink(input),
            "layer {i}: the shrink policy stays"
        );
        assert_eq!(
            *layer.policy(),
            Blank { on: input.policy },
            "layer {i}: the policy stays"
        );
    }
    match want {
        Some(w) if w.len() == count && w.iter().all(|p| p.items.len() <= max) => {
            assert!(
                r.is_ok(),
                "in place: {r:?} where the derived form read {w:?}"
            );
            assert_eq!(end, want_end);
            same_layers(&l, &w);
        }
        _ => {
            assert!(
                r.is_err(),
                "in place: a load that should not fit or failed succeeded"
            );
            let after = snapshot(&l);
            assert_eq!(after, before, "a failed load changed the target");
        }
    }
    loaded
}

/// Real serialized values of every kind in both formats, each with
/// settings that load them and with settings that refuse them (too many
/// elements for the bound, another number of layers). Named
/// `seed-<kind>-<format>-<case>`.
pub fn seeds() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let elements = strings("e", 3);
    let mut queue: BufferedCollection<String> = BufferedCollection::new();
    for s in strings("v", 2) {
        queue.push(s);
    }
    queue.commit();
    for s in strings("p", 2) {
        queue.push(s);
    }
    let mut three: Layers<String> = Builder::new().build_layers(3);
    for i in 0..3 {
        for s in strings(&format!("l{i}-"), i + 1) {
            three.push(i, s);
        }
    }
    three.set_enabled(1, false);
    let mut two: Layers<String> = Builder::new().build_layers(2);
    two.push(0, "x".to_string());
    for format in [Format::Json, Format::Postcard] {
        let f = match format {
            Format::Json => "json",
            Format::Postcard => "postcard",
        };
        let mut add = |name: &str, head: Vec<u8>, body: &[u8]| {
            let mut bytes = head;
            bytes.extend_from_slice(body);
            out.push((format!("seed-{name}-{f}"), bytes));
        };
        let c = save(format, &elements);
        add(
            "collection",
            header(Kind::Collection, format, None, 0, 0),
            &c,
        );
        let all = UNORDERED | SHRINK | POLICY;
        add(
            "in-place-fits",
            header(Kind::CollectionInPlace, format, Some(5), all, 4),
            &c,
        );
        add(
            "in-place-over-bound",
            header(Kind::CollectionInPlace, format, Some(2), POLICY, 1),
            &c,
        );
        let q = save(format, &queue);
        add("queue", header(Kind::Queue, format, None, 0, 0), &q);
        add(
            "queue-in-place-fits",
            header(Kind::QueueInPlace, format, Some(8), POLICY, 5),
            &q,
        );
        add(
            "queue-in-place-over-bound",
            header(Kind::QueueInPlace, format, Some(5), 0, 2),
            &q,
        );
        add(
            "queue-in-place-unbounded",
            header(Kind::QueueInPlace, format, None, UNORDERED, 7),
            &q,
        );
        let l3 = save(format, &three);
        let l2 = save(format, &two);
        add("layers", header(Kind::Layers, format, None, 0, 0), &l3);
        add(
            "layers-fixed",
            header(Kind::LayersFixed, format, None, 0, 0),
            &l3,
        );
        add(
            "layers-fixed-wrong-count",
            header(Kind::LayersFixed, format, None, 0, 0),
            &l2,
        );
        add(
            "layers-in-place-fits",
            header(Kind::LayersInPlace, format, Some(3), all, 2),
            &l3,
        );
        add(
            "layers-in-place-over-bound",
            header(Kind::LayersInPlace, format, Some(2), 0, 2),
            &l3,
        );
        add(
            "layers-in-place-wrong-count",
            header(Kind::LayersInPlace, format, None, 0, 3),
            &l3,
        );
    }
    out
}

//! Every layers type names its key right after the element type and its
//! policy last, as `Layers<T, K, A>` does: a user names a cursor, an entry
//! or a sink pass the way they named the layers.

use read_write_collection::layers::{LayerEntry, LayerSinkEntry, LayersCursor, LayersSinkCursor};
use read_write_collection::{layer_keys, remove_when, Builder, Layers};

layer_keys!(
    enum Layer {
        Ships,
        Bullets,
    }
);

remove_when!(struct Spent for u32: |ttl| *ttl == 0);

/// The shape the issue reported as a type error: the cursor named with the
/// layers' key and no policy.
fn update(cursor: &mut LayersCursor<'_, u32, Layer>) -> Vec<u32> {
    let mut seen = Vec::new();
    while let Some(mut e) = cursor.next() {
        seen.push(*e);
        if *e == 1 {
            e.push_to(Layer::Bullets, 10);
        }
    }
    seen
}

/// Key, then policy.
fn update_spent(cursor: &mut LayersCursor<'_, u32, Layer, Spent>) -> usize {
    let mut n = 0;
    while let Some(mut e) = cursor.next() {
        *e -= 1;
        n += 1;
    }
    n
}

/// Key, then sink, then policy.
fn drain_with_sink<S: FnMut(u32)>(cursor: &mut LayersSinkCursor<'_, u32, Layer, S, Spent>) {
    while let Some(e) = cursor.next() {
        sink_entry(e);
    }
}

fn sink_entry<S: FnMut(u32)>(e: LayerSinkEntry<'_, u32, Layer, S>) {
    e.remove_to_sink();
}

fn entry_value(e: &LayerEntry<'_, u32, Layer>) -> u32 {
    **e
}

#[test]
fn a_cursor_is_named_with_the_layers_key_and_no_policy() {
    let mut world: Layers<u32, Layer> = Layers::new(2);
    world.push(Layer::Ships, 1);
    let seen = update(&mut world.cursor());
    assert_eq!(seen, [1, 10]);
    assert_eq!(world.layer(Layer::Bullets), &[10]);
}

#[test]
fn a_cursor_is_named_with_key_then_policy() {
    let mut world: Layers<u32, Layer, Spent> = Builder::new().policy(Spent).build_layers(2);
    world.push(Layer::Ships, 1);
    world.push(Layer::Bullets, 2);
    assert_eq!(update_spent(&mut world.cursor()), 2);
    // The ship reached 0 and was removed when the cursor moved on.
    assert!(world.layer(Layer::Ships).is_empty());
    assert_eq!(world.layer(Layer::Bullets), &[1]);
}

#[test]
fn a_sink_cursor_is_named_with_key_sink_then_policy() {
    let mut world: Layers<u32, Layer, Spent> = Builder::new().policy(Spent).build_layers(2);
    world.push(Layer::Ships, 0); // spent: auto-removed into the sink
    world.push(Layer::Bullets, 3); // removed by the loop, into the sink
    let mut gone = Vec::new();
    drain_with_sink(&mut world.cursor_with_sink(|v| gone.push(v)));
    assert_eq!(gone, [0, 3]);
    assert!(world.is_empty());
}

#[test]
fn an_entry_is_named_with_the_key() {
    let mut world: Layers<u32, Layer> = Layers::new(2);
    world.push(Layer::Bullets, 7);
    let mut cursor = world.cursor();
    let e = cursor.next().unwrap();
    assert_eq!(entry_value(&e), 7);
}

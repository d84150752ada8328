//! The other elements in reach while one is held (`Entry::others`,
//! `Entry::split_others` and the same on the wrapping entries): what the
//! slices hold in every kind of pass, that writes through them stay, that
//! a panic with them out leaves the collection whole, and a collision frame
//! ported from two loops and a side list to one pass.

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};

use common::{ids, splitmix, vals, Tracker, Zst};
use read_write_collection::{BufferedCollection, Layers, Mode, ReadWriteCollection};

/// An ordered pass that removes every third element and pushes after
/// every fourth: at each element the slices are the kept ones so far and
/// the rest of the queue (unvisited originals, then pushes), checked
/// against a plain model.
#[test]
fn the_slices_are_the_kept_and_the_queue_in_an_ordered_pass() {
    let mut c: ReadWriteCollection<u32> = (0..20).collect();
    let mut kept: Vec<u32> = Vec::new();
    let mut queue: std::collections::VecDeque<u32> = (0..20).collect();
    let mut next_push = 100;
    let mut cursor = c.cursor();
    let mut i = 0;
    while let Some(mut e) = cursor.next() {
        let me = queue.pop_front().expect("the model has it");
        assert_eq!(*e, me);
        let (before, after) = e.others();
        assert_eq!(before, kept.as_slice(), "kept, at {me}");
        assert_eq!(
            after,
            queue.iter().copied().collect::<Vec<_>>(),
            "queue, at {me}"
        );
        if i % 4 == 0 {
            e.push(next_push);
            queue.push_back(next_push);
            next_push += 1;
            let (_, after) = e.others();
            assert_eq!(after.last(), Some(&(next_push - 1)), "a push joins the end");
        }
        if i % 3 == 0 {
            e.remove();
        } else {
            kept.push(me);
        }
        i += 1;
    }
    drop(cursor);
    assert_eq!(c.as_slice(), kept.as_slice());
    assert!(queue.is_empty());
}

/// Unordered mode: the slices hold the kept and the unvisited elements
/// (compared as multisets), whatever order the swap-removals left them
/// in.
#[test]
fn unordered_mode_gives_the_same_elements() {
    let mut c: ReadWriteCollection<u32> = (0..12).collect();
    c.set_mode(Mode::Unordered);
    // Every element the collection holds, the held one included.
    let mut present: Vec<u32> = (0..12).collect();
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        let me = *e;
        let (before, after) = e.others();
        let mut all: Vec<u32> = before.iter().chain(after).copied().collect();
        all.push(me);
        all.sort_unstable();
        present.sort_unstable();
        assert_eq!(all, present, "at {me}");
        if me < 12 && me % 3 == 0 {
            e.push(100 + me);
            present.push(100 + me);
        }
        if me % 2 == 1 {
            e.remove();
            present.retain(|&x| x != me);
        }
    }
    drop(cursor);
    let mut left = c.to_vec();
    left.sort_unstable();
    present.sort_unstable();
    assert_eq!(left, present);
}

/// In a queue's pass the pushes go to the pending side: the second slice
/// holds the unvisited elements only.
#[test]
fn a_queue_pass_leaves_its_pushes_out() {
    let mut q: BufferedCollection<u8> = BufferedCollection::new();
    q.extend([1, 2, 3]);
    q.commit();
    let mut cursor = q.cursor();
    let mut e = cursor.next().expect("1");
    e.push(9);
    assert_eq!(e.others(), (&[][..], &[2, 3][..]));
    drop(cursor);
    assert_eq!(q.pending_len(), 1);
}

/// Elements the predicate will remove are in the second slice until the
/// pass reaches them; the ones it removed are in neither.
#[test]
fn expired_elements_ahead_are_in_reach_until_reached() {
    let mut c = ReadWriteCollection::with_auto_remove(|x: &i32| *x < 0);
    c.extend([1, -2, 3, -4, 5]);
    let mut cursor = c.cursor();
    let e = cursor.next().expect("1");
    assert_eq!(e.others(), (&[][..], &[-2, 3, -4, 5][..]));
    let e = cursor.next().expect("3");
    assert_eq!(e.others(), (&[1][..], &[-4, 5][..]));
    let e = cursor.next().expect("5");
    assert_eq!(e.others(), (&[1, 3][..], &[][..]));
    assert!(cursor.next().is_none());
    drop(cursor);
    assert_eq!(c, [1, 3, 5]);
}

/// Writes through `split_others` stay: to kept elements (already in
/// place), to unvisited ones (the pass later yields the new value), to
/// the held one.
#[test]
fn writes_through_the_slices_stay() {
    let mut c: ReadWriteCollection<i32> = (1..=5).collect();
    let mut yielded = Vec::new();
    c.traverse(|mut e| {
        yielded.push(*e);
        let (me, before, after) = e.split_others();
        for x in before.iter_mut() {
            *x += 100;
        }
        if let Some(next) = after.first_mut() {
            *next *= 10;
        }
        *me -= 1;
    });
    // Each element is yielded ten times its original value (the one
    // before made it so), leaves one less, and adds 100 to every one
    // kept before it.
    assert_eq!(yielded, [1, 20, 30, 40, 50]);
    assert_eq!(c, [400, 319, 229, 139, 49]);
}

/// Zero-sized elements: the lengths count them.
#[test]
fn zero_sized_elements_are_counted() {
    let mut c: ReadWriteCollection<Zst> = (0..4).map(|_| Zst::new()).collect();
    let mut cursor = c.cursor();
    cursor.next();
    let e = cursor.next().expect("second");
    drop(e.remove());
    let mut e = cursor.next().expect("third");
    e.push(Zst::new());
    let (me, before, after) = e.split_others();
    let _: &mut Zst = me;
    assert_eq!((before.len(), after.len()), (1, 2));
    drop(cursor);
    assert_eq!(c.len(), 4);
    drop(c);
    assert_eq!(Zst::live(), 0);
}

/// A panic while the slices are out (and after writes through them)
/// leaves the collection whole: every element kept once, dropped once.
#[test]
fn a_panic_with_the_slices_out_keeps_every_element() {
    let t = Tracker::new();
    let mut c: ReadWriteCollection<_> = t.elems(0..6).into_iter().collect();
    let caught = catch_unwind(AssertUnwindSafe(|| {
        c.traverse(|mut e| {
            if e.val == 1 {
                drop(e.remove());
                return;
            }
            let (me, before, after) = e.split_others();
            me.val += 10;
            if let Some(x) = before.last_mut() {
                x.val += 100;
            }
            if me.val == 13 {
                assert!(!after.is_empty());
                panic!("mid-pass");
            }
        });
    }));
    assert!(caught.is_err());
    assert_eq!(ids(&c), [0, 2, 3, 4, 5]);
    // 0 and 2 got +10 when held, +100 from the next one; 3 got +10 and
    // panicked; 4 and 5 were not visited.
    assert_eq!(vals(&c), [110, 112, 13, 4, 5]);
    drop(c);
    t.assert_all_dropped_once();
}

/// The entries that wrap an `Entry` give the same slices: a sink pass,
/// and a layer (only its own layer).
#[test]
fn sink_and_layer_entries_give_the_same_slices() {
    let mut c: ReadWriteCollection<u8> = (1..=4).collect();
    let mut sunk = Vec::new();
    let mut gone = 0;
    c.traverse_with_sink(
        |x| sunk.push(x),
        |mut e| {
            let (me, before, after) = e.split_others();
            assert_eq!(before.len() + 1 + after.len(), 4 - gone);
            if *me == 2 {
                e.remove_to_sink();
                gone += 1;
            }
        },
    );
    assert_eq!(sunk, [2]);
    assert_eq!(c, [1, 3, 4]);

    let mut l: Layers<u8> = Layers::new(3);
    l.layer_mut(0).extend([1, 2]);
    l.layer_mut(1).extend([10, 20, 30]);
    l.layer_mut(2).extend([7]);
    let mut seen = Vec::new();
    l.traverse(|key, e| {
        let (before, after) = e.others();
        seen.push((key, before.to_vec(), after.to_vec()));
    });
    assert_eq!(
        seen,
        [
            (0, vec![], vec![2]),
            (0, vec![1], vec![]),
            (1, vec![], vec![20, 30]),
            (1, vec![10], vec![30]),
            (1, vec![10, 20], vec![]),
            (2, vec![], vec![]),
        ]
    );
}

// ------------------------------------------------ the collision frame

/// A rock of an asteroids game: position and velocity on a line, size
/// (a rock of size 1 is destroyed when hit, a bigger one splits in two),
/// and the frame it was born in (children wait for the next frame).
#[derive(Clone, Debug, PartialEq)]
struct Rock {
    x: i32,
    v: i32,
    size: u8,
    hit: bool,
    born: u32,
}

fn close(a: &Rock, b: &Rock) -> bool {
    (a.x - b.x).abs() <= i32::from(a.size + b.size)
}

fn children(r: &Rock, frame: u32) -> [Rock; 2] {
    [-1, 1].map(|dir| Rock {
        x: r.x + dir * 3,
        v: dir * (r.v.abs() % 5 + 1),
        size: r.size - 1,
        hit: false,
        born: frame,
    })
}

/// The frame as the game wrote it: a collision loop over every pair,
/// then an update loop that moves rocks and removes the hit ones, whose
/// children wait in a side list until the frame ends.
fn frame_with_loops(rocks: &mut Vec<Rock>, frame: u32) {
    let n = rocks.len();
    for i in 0..n {
        for j in i + 1..n {
            if rocks[i].born != frame && rocks[j].born != frame && close(&rocks[i], &rocks[j]) {
                rocks[i].hit = true;
                rocks[j].hit = true;
            }
        }
    }
    let mut side = Vec::new();
    rocks.retain_mut(|r| {
        r.x += r.v;
        if !r.hit {
            return true;
        }
        if r.size > 1 {
            side.extend(children(r, frame));
        }
        false
    });
    rocks.extend(side);
}

/// The same frame in one pass: the rock in hand checks the rocks after
/// it (not yet moved this frame, as in the pair loop) and marks both; a
/// hit rock is removed and its children pushed into the pass, which
/// passes over them this frame.
fn frame_in_one_pass(rocks: &mut ReadWriteCollection<Rock>, frame: u32) {
    rocks.traverse(|mut e| {
        if e.born == frame {
            return;
        }
        let (me, _kept, after) = e.split_others();
        for other in after.iter_mut().filter(|o| o.born != frame) {
            if close(me, other) {
                me.hit = true;
                other.hit = true;
            }
        }
        e.x += e.v;
        if e.hit {
            let (rock, mut spawn) = e.remove_and_spawn();
            if rock.size > 1 {
                for child in children(&rock, frame) {
                    spawn.push(child);
                }
            }
        }
    });
}

/// Rocks thrown in from both edges, frame after frame, for 300 frames:
/// the loops and the one pass agree on every frame.
#[test]
fn a_collision_frame_in_one_pass_matches_the_two_loops_and_a_side_list() {
    let mut state = 0x2545_f491_u64;
    let mut rand = move |n: u32| {
        state = splitmix(state);
        (state % u64::from(n)) as u32
    };
    let frames = if cfg!(miri) { 20 } else { 300 };
    let mut loops: Vec<Rock> = Vec::new();
    let mut pass: ReadWriteCollection<Rock> = ReadWriteCollection::new();
    let (mut splits, mut most) = (0, 0);
    for frame in 1..=frames {
        for _ in 0..rand(3) {
            let left = rand(2) == 0;
            let rock = Rock {
                x: if left { -200 } else { 200 } + rand(20) as i32,
                v: if left { 1 } else { -1 } * (1 + rand(4) as i32),
                size: 1 + rand(3) as u8,
                hit: false,
                born: 0,
            };
            loops.push(rock.clone());
            pass.push(rock);
        }
        frame_with_loops(&mut loops, frame);
        frame_in_one_pass(&mut pass, frame);
        assert_eq!(pass.as_slice(), loops.as_slice(), "frame {frame}");
        splits += loops.iter().filter(|r| r.born == frame).count();
        most = most.max(loops.len());
    }
    // The frames did collide and split.
    assert!(splits > frames as usize / 10, "{splits} children");
    assert!(most > 10, "at most {most} rocks");
}

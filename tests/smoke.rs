use read_write_collection::*;

#[test]
fn smoke() {
    let mut c: ReadWriteCollection<i32> = (0..10).collect();
    let mut visited = Vec::new();
    let mut cursor = c.cursor();
    while let Some(mut e) = cursor.next() {
        visited.push(*e);
        if *e % 3 == 0 {
            e.remove();
            cursor.push(100);
        } else if *e == 100 {
            *e = 101;
        }
    }
    drop(cursor);
    assert_eq!(visited.len(), 14);
    assert_eq!(c, [1, 2, 4, 5, 7, 8, 101, 101, 101, 101]);

    let mut u: ReadWriteCollection<i32> = ReadWriteCollection::unordered();
    u.extend(0..6);
    let mut seen = Vec::new();
    u.traverse(|mut e| {
        seen.push(*e);
        if *e % 2 == 0 {
            e.remove();
        } else if *e < 10 {
            let v = *e + 10;
            e.push(v);
        }
    });
    seen.sort();
    assert_eq!(seen, [0, 1, 2, 3, 4, 5, 11, 13, 15]);
    let mut rest = u.to_vec();
    rest.sort();
    assert_eq!(rest, [1, 3, 5, 11, 13, 15]);

    let mut b = BufferedCollection::new();
    b.push(1);
    let p = b.producer();
    p.push(2).unwrap();
    b.commit();
    assert_eq!(b.as_slice(), [1, 2]);
    let mut a = ReadWriteCollection::with_auto_remove(|x: &i32| *x < 0);
    a.extend([1, -1, 2]);
    let mut cur = a.cursor();
    while let Some(mut e) = cur.next() {
        if *e == 2 { *e = -2; }
    }
    drop(cur);
    assert_eq!(a, [1]);
}

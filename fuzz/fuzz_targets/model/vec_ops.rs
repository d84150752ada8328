//! The `Vec`/`arrayvec` methods, checked against the model.

use super::*;

// ---------------------------------------------------------------------------
// The `Vec`/`arrayvec` methods

/// `i` reduced to `0..n` (0 when `n == 0`).
pub(crate) fn modulo(i: u8, n: usize) -> usize {
    if n == 0 {
        0
    } else {
        usize::from(i) % n
    }
}

/// A range in `0..=len` from two bytes.
pub(crate) fn range_of(a: u8, b: u8, len: usize) -> std::ops::Range<usize> {
    let (a, b) = (modulo(a, len + 1), modulo(b, len + 1));
    a.min(b)..a.max(b)
}

/// Runs `f`; `Err` if it panicked with an injected panic (any other panic
/// is re-raised: a bug).
pub(crate) fn catch_injected<R>(f: impl FnOnce() -> R) -> Result<R, ()> {
    match panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => Ok(r),
        Err(payload) if payload.downcast_ref::<InjectedPanic>().is_some() => Err(()),
        Err(payload) => panic::resume_unwind(payload),
    }
}

// `%` rather than `is_multiple_of`: the file is also built by the main
// crate's tests, whose minimum Rust version predates it.
#[allow(clippy::manual_is_multiple_of)]
impl Checker {
    /// Elements that still fit under the bound.
    pub(crate) fn room(&self) -> usize {
        self.max.unwrap_or(usize::MAX) - self.items.len()
    }

    /// Up to `count` new elements of value `val`, within [`MAX_LIVE`].
    pub(crate) fn make_many(&mut self, count: usize, val: u8) -> (Vec<Elem>, Vec<M>) {
        let mut es = Vec::new();
        let mut ms = Vec::new();
        for _ in 0..count {
            let live = self.items.len() + self.live_elsewhere() + es.len();
            let Some((e, m)) = self.make(live, val) else {
                break;
            };
            es.push(e);
            ms.push(m);
        }
        (es, ms)
    }

    pub(crate) fn vec_op<A: AutoRemove<Elem>>(
        &mut self,
        c: &mut ReadWriteCollection<Elem, A>,
        op: VecOp,
    ) {
        let len = self.items.len();
        match op {
            VecOp::DedupByVal => {
                c.dedup_by(|a, b| a.val == b.val);
                self.items.dedup_by(|a, b| a.val == b.val);
            }
            VecOp::DedupByKey(m) => {
                let m = m % 4 + 1;
                c.dedup_by_key(|e| e.val % m);
                self.items.dedup_by_key(|x| x.val % m);
            }
            VecOp::DedupByPanic(n) => {
                let n = usize::from(n % 8) + 1;
                let mut calls = 0;
                let r = catch_injected(|| {
                    c.dedup_by(|a, b| {
                        calls += 1;
                        if calls == n {
                            inject_panic();
                        }
                        a.val % 2 == b.val % 2
                    })
                });
                // Model: the kept prefix, then everything not yet compared.
                let mut kept: Vec<M> = Vec::new();
                let mut model_calls = 0;
                let mut panicked = false;
                for (i, x) in self.items.iter().enumerate() {
                    if let Some(last) = kept.last() {
                        model_calls += 1;
                        if model_calls == n {
                            kept.extend_from_slice(&self.items[i..]);
                            panicked = true;
                            break;
                        }
                        if x.val % 2 == last.val % 2 {
                            continue;
                        }
                    }
                    kept.push(*x);
                }
                assert_eq!(r.is_err(), panicked, "dedup_by panicked as modelled");
                self.items = kept;
            }
            VecOp::PopIf(m) => {
                let m = m % 3 + 1;
                let got = c.pop_if(|e| e.val % m == 0).map(|e| M::of(&e));
                let want = match self.items.last() {
                    Some(x) if x.val % m == 0 => self.items.pop(),
                    _ => None,
                };
                assert_eq!(got, want, "pop_if");
            }
            VecOp::TryInsert { index, val } => {
                let i = modulo(index, len + 1);
                let live = len + self.live_elsewhere();
                if let Some((e, m)) = self.make(live, val) {
                    match c.try_insert(i, e) {
                        Ok(()) => {
                            assert!(self.room() > 0, "try_insert accepted past the bound");
                            self.items.insert(i, m);
                        }
                        Err(err) => {
                            assert_eq!(self.room(), 0, "try_insert rejected below the bound");
                            assert_eq!(M::of(&err.element()), m, "the value comes back");
                        }
                    }
                }
            }
            VecOp::Remove(i) if len > 0 => {
                let i = modulo(i, len);
                assert_eq!(M::of(&c.remove(i)), self.items.remove(i), "remove");
            }
            VecOp::SwapRemove(i) if len > 0 => {
                let i = modulo(i, len);
                assert_eq!(
                    M::of(&c.swap_remove(i)),
                    self.items.swap_remove(i),
                    "swap_remove"
                );
            }
            VecOp::Remove(_) | VecOp::SwapRemove(_) => {}
            VecOp::Truncate(n) => {
                let n = modulo(n, len + 2);
                c.truncate(n);
                self.items.truncate(n);
            }
            VecOp::Drain(a, b) => {
                let r = range_of(a, b, len);
                let got: Vec<M> = c.drain(r.clone()).map(|e| M::of(&e)).collect();
                let want: Vec<M> = self.items.drain(r).collect();
                assert_eq!(got, want, "drain");
            }
            VecOp::RetainMut { m, add } => {
                let m = m % 4 + 2;
                c.retain_mut(|e| {
                    e.val = e.val.wrapping_add(add);
                    e.val % m != 0
                });
                self.items.retain_mut(|x| {
                    x.val = x.val.wrapping_add(add);
                    x.val % m != 0
                });
            }
            VecOp::SplitOff(at) => {
                let at = modulo(at, len + 1);
                let got: Vec<M> = c.split_off(at).iter().map(M::of).collect();
                assert_eq!(got, self.items.split_off(at), "split_off");
            }
            VecOp::Splice {
                start,
                end,
                count,
                val,
            } => {
                let r = range_of(start, end, len);
                // Limited to what fits: a splice past the bound panics.
                let count = usize::from(count % 8).min(r.len().saturating_add(self.room()));
                let (es, ms) = self.make_many(count, val);
                let got: Vec<M> = c.splice(r.clone(), es).map(|e| M::of(&e)).collect();
                let want: Vec<M> = self.items.splice(r, ms).collect();
                assert_eq!(got, want, "splice");
            }
            VecOp::Append { count, val } => {
                let count = usize::from(count % 8).min(self.room());
                let (es, ms) = self.make_many(count, val);
                let mut other: ReadWriteCollection<Elem> = es.into();
                c.append(&mut other);
                assert!(other.is_empty(), "append leaves the other empty");
                self.items.extend(ms);
            }
            VecOp::TryExtend { count, val } => {
                let (es, ms) = self.make_many(usize::from(count % 8), val);
                let room = self.room();
                let mut rest = es.into_iter();
                match c.try_extend(rest.by_ref()) {
                    Ok(()) => {
                        assert!(ms.len() <= room, "try_extend accepted past the bound");
                        self.items.extend(ms);
                    }
                    Err(err) => {
                        assert!(ms.len() > room, "try_extend rejected below the bound");
                        assert_eq!(M::of(&err.element()), ms[room], "first rejected value");
                        let left: Vec<M> = rest.map(|e| M::of(&e)).collect();
                        assert_eq!(left, ms[room + 1..], "the rest is not consumed");
                        self.items.extend_from_slice(&ms[..room]);
                    }
                }
            }
            VecOp::ResizeWith {
                len: new_len,
                val,
                panic_at,
            } => {
                let new_len = usize::from(new_len % 24).min(len.saturating_add(self.room()));
                let grows = new_len.saturating_sub(len);
                let (es, ms) = self.make_many(grows, val);
                if es.len() < grows {
                    return; // at the live-element limit
                }
                let panic_at = panic_at.map(|p| usize::from(p % 8) + 1);
                let mut source = es.into_iter();
                let mut calls = 0;
                let r = catch_injected(|| {
                    c.resize_with(new_len, || {
                        calls += 1;
                        if Some(calls) == panic_at {
                            inject_panic();
                        }
                        source.next().expect("called once per new slot")
                    })
                });
                drop(source); // unused elements (after a panic)
                let made = match panic_at {
                    Some(p) if p <= grows => {
                        assert!(r.is_err(), "resize_with should have panicked");
                        p - 1
                    }
                    _ => {
                        assert!(r.is_ok(), "resize_with panicked");
                        grows
                    }
                };
                self.items.truncate(new_len);
                self.items.extend_from_slice(&ms[..made]);
            }
            VecOp::ExtractIf {
                start,
                end,
                m,
                take,
            } => {
                let r = range_of(start, end, len);
                let m = m % 3 + 1;
                let take = usize::from(take % 8);
                let got: Vec<M> = c
                    .extract_if(r.clone(), |e| e.val % m == 0)
                    .take(take)
                    .map(|e| M::of(&e))
                    .collect();
                let mut want = Vec::new();
                let mut kept = self.items[..r.start].to_vec();
                let mut i = r.start;
                while i < r.end && want.len() < take {
                    let x = self.items[i];
                    if x.val % m == 0 {
                        want.push(x);
                    } else {
                        kept.push(x);
                    }
                    i += 1;
                }
                kept.extend_from_slice(&self.items[i..]);
                assert_eq!(got, want, "extract_if's yield");
                self.items = kept;
            }
            VecOp::ExtractIfPanic { start, end, n } => {
                let r = range_of(start, end, len);
                let n = usize::from(n % 6) + 1;
                let mut calls = 0;
                let mut got = Vec::new();
                let res = catch_injected(|| {
                    for e in c.extract_if(r.clone(), |e| {
                        calls += 1;
                        if calls == n {
                            inject_panic();
                        }
                        e.val % 2 == 0
                    }) {
                        got.push(M::of(&e));
                    }
                });
                assert_eq!(
                    res.is_err(),
                    r.len() >= n,
                    "extract_if panicked as modelled"
                );
                let tested = r.len().min(n - 1);
                let mut kept = self.items[..r.start].to_vec();
                let mut want = Vec::new();
                for x in &self.items[r.start..r.start + tested] {
                    if x.val % 2 == 0 {
                        want.push(*x);
                    } else {
                        kept.push(*x);
                    }
                }
                kept.extend_from_slice(&self.items[r.start + tested..]);
                assert_eq!(got, want, "extract_if's yield before the panic");
                self.items = kept;
            }
            VecOp::ShrinkTo(n) => {
                c.shrink_to(usize::from(n));
                assert!(c.capacity() >= c.len(), "shrink_to below the length");
            }
            VecOp::ReserveExact(n) => {
                let n = usize::from(n % 64);
                c.reserve_exact(n);
                assert!(c.capacity() >= len + n.min(self.room()), "reserve_exact");
            }
            VecOp::TryReserve(n) => {
                let n = usize::from(n % 64);
                let capacity = c.capacity();
                if n <= self.room() {
                    assert!(c.try_reserve(n).is_ok(), "try_reserve within the bound");
                    assert!(c.capacity() >= len + n, "try_reserve");
                } else {
                    // Past a bounded collection's room: an error, and
                    // nothing reserved.
                    assert!(c.try_reserve(n).is_err(), "try_reserve past the bound");
                    assert_eq!(c.capacity(), capacity, "a refused try_reserve reserved");
                }
                assert!(
                    c.spare_capacity_mut().len() <= self.room(),
                    "spare past the bound"
                );
            }
        }
        assert_eq!(c.remaining_capacity(), self.room(), "remaining_capacity");
        assert_eq!(c.is_full(), self.room() == 0, "is_full");
    }
}

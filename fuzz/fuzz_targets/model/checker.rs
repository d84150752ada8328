//! The model of a pass and the checker that runs a program against it.

use super::*;

// ---------------------------------------------------------------------------
// The model

/// The model of one pass.
#[derive(Default)]
pub(crate) struct PassModel {
    pub(crate) kept: Vec<M>,
    pub(crate) held: Option<M>,
    /// Not yet visited, pushed ones included. In unordered passes the order
    /// means nothing.
    pub(crate) unvisited: VecDeque<M>,
}

impl PassModel {
    pub(crate) fn len(&self) -> usize {
        self.kept.len() + usize::from(self.held.is_some()) + self.unvisited.len()
    }

    pub(crate) fn into_items(self) -> Vec<M> {
        let mut v = self.kept;
        v.extend(self.held);
        v.extend(self.unvisited);
        v
    }

    /// Removes `m` (same id and value) from the unvisited elements.
    pub(crate) fn take_unvisited(&mut self, m: M, what: &str) {
        let pos = self.unvisited.iter().position(|x| *x == m);
        let pos = pos.unwrap_or_else(|| {
            panic!(
                "{what}: {m:?} is not an unvisited element of this pass (unvisited: {:?})",
                self.unvisited
            )
        });
        self.unvisited.remove(pos);
    }
}

/// What a call into the crate during a pass ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    Yield(M),
    End,
    Panicked,
}

/// Which crate call was running (to interpret an injected panic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// `Cursor::next` (settle the previous element, reach the next one).
    Next,
    /// Cursor drop or `finish` (settle the held element).
    Settle,
    /// User code panicking on purpose.
    User,
    /// Anything else: an injected panic here is a bug.
    Other,
}

pub(crate) struct Checker {
    pub(crate) kind: Kind,
    pub(crate) cfg: Config,
    pub(crate) max: Option<usize>,
    pub(crate) unordered: bool,
    pub(crate) auto: bool,
    pub(crate) threshold: Rc<Cell<u8>>,
    /// Everything the removal hook received; `seen` entries are explained.
    pub(crate) log: Rc<RefCell<Vec<M>>>,
    pub(crate) seen: usize,
    pub(crate) items: Vec<M>,
    pub(crate) pending: Vec<M>,
    pub(crate) producer_queue: Vec<M>,
    pub(crate) leaked: Vec<u32>,
    pub(crate) next_id: u32,
    pub(crate) producer: Option<Producer<Elem>>,
    pub(crate) step: usize,
    /// Buffered: `close()` was called.
    pub(crate) closed: bool,
    /// Buffered and bounded: a pass may still hold room it reserved from
    /// the producers (until the collection next synchronises with them).
    pub(crate) maybe_reserved: bool,
}

impl Checker {
    pub(crate) fn new(
        kind: Kind,
        cfg: Config,
        max: Option<usize>,
        unordered: bool,
        auto: bool,
        threshold: Rc<Cell<u8>>,
        log: Rc<RefCell<Vec<M>>>,
    ) -> Self {
        Checker {
            kind,
            cfg,
            max,
            unordered,
            auto,
            threshold,
            log,
            seen: 0,
            items: Vec::new(),
            pending: Vec::new(),
            producer_queue: Vec::new(),
            leaked: Vec::new(),
            next_id: 0,
            producer: None,
            step: 0,
            closed: false,
            maybe_reserved: false,
        }
    }

    pub(crate) fn pred_panics(&self, m: M) -> bool {
        self.auto && self.cfg.panicky && m.val == PRED_PANIC
    }

    pub(crate) fn pred(&self, m: M) -> bool {
        self.auto && m.val < self.threshold.get()
    }

    pub(crate) fn hook_panics(&self, m: M) -> bool {
        self.cfg.panicky && m.val == HOOK_PANIC
    }

    /// The next hook log entry the model has not explained yet.
    pub(crate) fn next_logged(&mut self) -> Option<M> {
        let m = self.log.borrow().get(self.seen).copied();
        if m.is_some() {
            self.seen += 1;
        }
        m
    }

    pub(crate) fn log_exhausted(&self) -> bool {
        self.log.borrow().len() == self.seen
    }

    pub(crate) fn live_elsewhere(&self) -> usize {
        self.pending.len() + self.producer_queue.len()
    }

    /// A new element, or `None` when the run is at its size limit.
    pub(crate) fn make(&mut self, live: usize, val: u8) -> Option<(Elem, M)> {
        if live >= MAX_LIVE {
            return None;
        }
        let id = self.next_id;
        self.next_id += 1;
        Some((new_elem(id, val), M { id, val }))
    }

    pub(crate) fn run<S: Subject>(mut self, mut s: S, ops: &[Op]) {
        self.producer = s.producer();
        self.check(&s, "initial state");
        for op in ops {
            self.step += 1;
            if let Op::IntoOwned(how) = *op {
                match s.into_owned(how) {
                    Ok(parts) => return self.end_owned(parts, how),
                    Err(back) => s = back,
                }
                continue;
            }
            self.apply(&mut s, op);
            self.check(&s, &format!("after op #{} {op:?}", self.step));
        }
        drop(s);
        self.items.clear();
        self.pending.clear();
        self.producer_queue.clear();
        assert!(
            self.log_exhausted(),
            "dropping the collection called the hook"
        );
        check_live(&self.leaked, "after dropping the collection");
        if let Some(p) = self.producer.take() {
            assert!(
                p.is_closed(),
                "producer still open after the collection was dropped"
            );
            if let Some((e, m)) = self.make(0, 1) {
                let back = p
                    .push(e)
                    .expect_err("push into a dropped collection succeeded");
                assert_eq!(M::of(&back.into_inner()), m);
            }
            check_live(&self.leaked, "after pushing into a closed producer");
        }
    }

    /// Compares the whole state.
    pub(crate) fn check<S: Subject>(&mut self, s: &S, context: &str) {
        let actual: Vec<M> = s.items().iter().map(M::of).collect();
        if self.unordered {
            // Unordered passes only promise a multiset: compare sorted, then
            // adopt the crate's order (the multisets are equal).
            let (mut a, mut b) = (actual.clone(), self.items.clone());
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "{context}: contents (as a multiset)");
            self.items = actual;
        } else {
            assert_eq!(actual, self.items, "{context}: contents");
        }
        if let Some((pending, pending_len)) = s.local_pending() {
            let pending: Vec<M> = pending.iter().map(M::of).collect();
            assert_eq!(pending, self.pending, "{context}: pending");
            assert_eq!(
                pending_len,
                self.pending.len() + self.producer_queue.len(),
                "{context}: pending_len"
            );
        }
        self.check_buffered_bound(context);
        if let Some(max) = self.max.filter(|_| self.kind != Kind::Buffered) {
            assert!(
                s.capacity() <= max,
                "{context}: capacity {} exceeds the bound {max}",
                s.capacity()
            );
        }
        assert!(
            self.log_exhausted(),
            "{context}: unexplained hook calls {:?}",
            &self.log.borrow()[self.seen..]
        );
        let mut live: Vec<u32> = self.leaked.clone();
        live.extend(self.items.iter().map(|m| m.id));
        live.extend(self.pending.iter().map(|m| m.id));
        live.extend(self.producer_queue.iter().map(|m| m.id));
        check_live(&live, context);
    }

    pub(crate) fn bounded(&self) -> bool {
        self.max.is_some()
    }

    pub(crate) fn apply<S: Subject>(&mut self, s: &mut S, op: &Op) {
        match *op {
            Op::Push(val) => {
                let live = self.items.len() + self.live_elsewhere();
                if let Some((e, m)) = self.make(live, val) {
                    let full = self.push_full();
                    self.synced();
                    match s.push(e, self.bounded()) {
                        Ok(()) => {
                            assert!(!full, "push into a full bounded collection succeeded");
                            if self.kind == Kind::Buffered {
                                self.pending.push(m);
                            } else {
                                self.items.push(m);
                            }
                        }
                        Err(back) => {
                            assert!(full, "try_push failed below the bound");
                            assert_eq!(M::of(&back), m, "try_push gave back another value");
                        }
                    }
                }
            }
            Op::Extend { count, val } => {
                let mut room = usize::from(count % 8);
                if let Some(max) = self.max {
                    room = room.min(max.saturating_sub(self.bound_count()));
                }
                let mut v = Vec::new();
                for _ in 0..room {
                    let live = self.items.len() + self.live_elsewhere() + v.len();
                    if let Some((e, m)) = self.make(live, val) {
                        v.push(e);
                        if self.kind == Kind::Buffered {
                            self.pending.push(m);
                        } else {
                            self.items.push(m);
                        }
                    }
                }
                s.extend(v);
            }
            Op::Traverse(ref actions) => {
                self.pass_starts();
                self.traverse(s, actions)
            }
            Op::Closure(ref actions) => {
                self.pass_starts();
                self.closure(s, actions)
            }
            Op::Prune => {
                self.pass_starts();
                self.prune(s)
            }
            Op::Clear => {
                self.synced();
                s.clear();
                self.items.clear();
                if self.kind == Kind::Buffered {
                    self.pending.clear();
                    self.producer_queue.clear();
                }
            }
            Op::Pop => {
                if let Some(got) = s.pop() {
                    assert_eq!(got.as_ref().map(M::of), self.items.pop(), "pop");
                }
            }
            Op::Commit => {
                self.synced();
                if let Some(n) = s.commit() {
                    let expected = self.pending.len() + self.producer_queue.len();
                    assert_eq!(n, expected, "commit's return value");
                    self.items.append(&mut self.pending);
                    self.items.append(&mut self.producer_queue);
                }
            }
            Op::ProducerPush(val) => self.producer_push(self.items.len(), val),
            Op::ClearPending => {
                self.synced();
                s.clear_pending();
                self.pending.clear();
                self.producer_queue.clear();
            }
            Op::ClearVisible => {
                if self.kind == Kind::Buffered {
                    self.synced();
                    s.clear_visible();
                    self.items.clear();
                }
            }
            Op::SetThreshold(t) => {
                if self.auto {
                    self.threshold.set(t);
                }
            }
            Op::SetMode(on) => {
                if matches!(self.kind, Kind::Unordered | Kind::AutoRemove) {
                    s.set_unordered(on);
                    self.unordered = on;
                }
            }
            Op::ShrinkToFit => s.shrink_to_fit(),
            Op::Vec(op) => {
                if let Some(c) = s.vec_api() {
                    self.vec_op(c, op);
                }
            }
            Op::Close => {
                if self.kind == Kind::Buffered {
                    s.close();
                    self.closed = true;
                }
            }
            Op::ProducerBatch { count, val } => self.producer_batch(self.items.len(), count, val),
            Op::IntoOwned(_) => unreachable!("handled by `run`"),
        }
    }

    pub(crate) fn producer_push(&mut self, visible: usize, val: u8) {
        let Some(producer) = self.producer.clone() else {
            return;
        };
        let live = visible + self.live_elsewhere();
        if let Some((e, m)) = self.make(live, val) {
            let total = visible + self.live_elsewhere();
            match producer.try_push(e) {
                Ok(()) => {
                    assert!(!self.closed, "a producer pushed into a closed collection");
                    assert!(
                        !matches!(self.max, Some(max) if total >= max),
                        "a producer pushed past the bound ({total} elements)"
                    );
                    self.producer_queue.push(m);
                }
                Err(TryPushError::Closed(back)) => {
                    assert!(self.closed, "Closed while the collection is open");
                    assert_eq!(M::of(&back), m, "try_push gave back another value");
                }
                Err(TryPushError::Full(back)) => {
                    assert!(!self.closed, "Full from a closed collection");
                    self.assert_may_be_full(total, "Producer::try_push");
                    assert_eq!(M::of(&back), m, "try_push gave back another value");
                }
            }
        }
    }

    // --- queues (buffered only) -------------------------------------------

    /// The elements a buffered bound counts now (outside a pass).
    pub(crate) fn bound_count(&self) -> usize {
        if self.kind == Kind::Buffered {
            self.items.len() + self.live_elsewhere()
        } else {
            self.items.len()
        }
    }

    /// Whether a push outside a pass must find the collection full.
    pub(crate) fn push_full(&self) -> bool {
        self.max.is_some_and(|max| self.bound_count() >= max)
    }

    /// Whether a push during a pass (`pm`) must find the collection full.
    /// A buffered pass may use the room free at its start: the bound minus
    /// the producers' queue (which cannot grow during it).
    pub(crate) fn pass_full(&self, pm: &PassModel) -> bool {
        match self.max {
            None => false,
            Some(max) if self.kind == Kind::Buffered => {
                pm.len() + self.pending.len() >= max - self.producer_queue.len()
            }
            Some(max) => pm.len() >= max,
        }
    }

    /// A pass starts: a bounded buffered one reserves the free room.
    pub(crate) fn pass_starts(&mut self) {
        if self.kind == Kind::Buffered && self.bounded() {
            self.maybe_reserved = true;
        }
    }

    /// The collection synchronises with its producers (its exact count is
    /// published): reserved room is handed back.
    pub(crate) fn synced(&mut self) {
        self.maybe_reserved = false;
    }

    /// A producer was refused as full with `total` elements counted: right
    /// at the bound, or while a pass may hold reserved room.
    pub(crate) fn assert_may_be_full(&self, total: usize, what: &str) {
        let Some(max) = self.max else {
            panic!("{what}: Full from an unbounded collection");
        };
        assert!(
            total >= max || self.maybe_reserved,
            "{what}: Full with {total} of {max} elements and no reservation"
        );
    }

    /// The buffered bound holds at every check.
    pub(crate) fn check_buffered_bound(&self, context: &str) {
        if self.kind != Kind::Buffered {
            return;
        }
        if let Some(max) = self.max {
            let total = self.bound_count();
            assert!(
                total <= max,
                "{context}: {total} elements past the bound {max}"
            );
        }
    }

    /// `Producer::try_push_batch` of `count % 5` elements.
    pub(crate) fn producer_batch(&mut self, visible: usize, count: u8, val: u8) {
        let Some(producer) = self.producer.clone() else {
            return;
        };
        let mut batch = Vec::new();
        let mut models = Vec::new();
        for _ in 0..count % 5 {
            let live = visible + self.live_elsewhere() + batch.len();
            if let Some((e, m)) = self.make(live, val) {
                batch.push(e);
                models.push(m);
            }
        }
        let total = visible + self.live_elsewhere();
        let result = producer.try_push_batch(&mut batch);
        let left: Vec<M> = batch.iter().map(M::of).collect();
        let pushed = models.len() - left.len();
        assert_eq!(
            left,
            models[pushed..],
            "the batch keeps what was not pushed, in order"
        );
        match result {
            Ok(()) => assert!(left.is_empty() && !self.closed),
            Err(TryPushError::Closed(())) => {
                assert!(self.closed, "Closed while the collection is open");
                assert_eq!(pushed, 0, "a closed collection took part of a batch");
            }
            Err(TryPushError::Full(())) => {
                assert!(!self.closed && !left.is_empty());
                self.assert_may_be_full(total + pushed, "Producer::try_push_batch");
            }
        }
        if let Some(max) = self.max {
            assert!(total + pushed <= max, "a batch pushed past the bound");
        }
        self.producer_queue.extend_from_slice(&models[..pushed]);
        drop(batch); // the elements handed back
    }

    /// Ends the run with the collection taken apart into `parts`.
    pub(crate) fn end_owned(mut self, parts: (Vec<Elem>, Vec<Elem>), how: u8) {
        let (visible_elems, pending_elems) = parts;
        let mut expected_pending = std::mem::take(&mut self.pending);
        expected_pending.append(&mut self.producer_queue);
        let mut expected_visible = std::mem::take(&mut self.items);
        let visible: Vec<M> = visible_elems.iter().map(M::of).collect();
        let pending_m: Vec<M> = pending_elems.iter().map(M::of).collect();
        match how % 3 {
            0 => {
                assert_eq!(visible, expected_visible, "into_parts: visible");
                assert_eq!(pending_m, expected_pending, "into_parts: pending");
            }
            _ => {
                expected_visible.append(&mut expected_pending);
                assert_eq!(visible, expected_visible, "into_vec / into_iter");
                assert!(pending_m.is_empty());
            }
        }
        let mut live = self.leaked.clone();
        live.extend(visible.iter().map(|m| m.id));
        live.extend(pending_m.iter().map(|m| m.id));
        check_live(&live, "after taking the collection apart");
        assert!(
            self.log_exhausted(),
            "taking the collection apart called the hook"
        );
        let producer = self.producer.take().expect("buffered runs hold a producer");
        assert!(producer.is_closed(), "producer open after into_parts");
        drop((visible_elems, pending_elems));
        if let Some((e, m)) = self.make(0, 1) {
            let back = producer
                .try_push(e)
                .expect_err("push after into_parts succeeded");
            assert!(back.is_closed());
            assert_eq!(M::of(&back.into_inner()), m);
        }
        check_live(&self.leaked, "after dropping the parts");
    }

    // --- passes -----------------------------------------------------------

    /// Explains the settling of the held element (at `next`, drop or
    /// `finish`). Returns `false` if the pass ended there (panic).
    pub(crate) fn settle(&mut self, pm: &mut PassModel, outcome: Outcome) -> bool {
        let Some(h) = pm.held.take() else {
            return true;
        };
        if self.pred_panics(h) {
            assert_eq!(
                outcome,
                Outcome::Panicked,
                "predicate panic on held {h:?} expected"
            );
            pm.kept.push(h); // kept by the unwinding
            return false;
        }
        if self.pred(h) {
            let logged = self.next_logged();
            assert_eq!(logged, Some(h), "held element {h:?} should go to the hook");
            if self.hook_panics(h) {
                assert_eq!(outcome, Outcome::Panicked, "hook panic on {h:?} expected");
                return false;
            }
        } else {
            pm.kept.push(h);
        }
        true
    }

    /// Explains one `Cursor::next` call that ended with `outcome`.
    pub(crate) fn explain_next(&mut self, pm: &mut PassModel, outcome: Outcome) {
        if !self.settle(pm, outcome) {
            return;
        }
        if self.unordered {
            return self.explain_reach_unordered(pm, outcome);
        }
        loop {
            let Some(&x) = pm.unvisited.front() else {
                assert_eq!(outcome, Outcome::End, "the pass should have ended");
                assert!(self.log_exhausted(), "hook called after the last element");
                return;
            };
            if self.pred_panics(x) {
                // Kept in place by the unwinding.
                assert_eq!(
                    outcome,
                    Outcome::Panicked,
                    "predicate panic on {x:?} expected"
                );
                return;
            }
            if self.pred(x) {
                pm.unvisited.pop_front();
                let logged = self.next_logged();
                assert_eq!(logged, Some(x), "{x:?} should have been auto-removed");
                if self.hook_panics(x) {
                    assert_eq!(outcome, Outcome::Panicked, "hook panic on {x:?} expected");
                    return;
                }
                continue;
            }
            assert_eq!(outcome, Outcome::Yield(x), "visit order");
            assert!(self.log_exhausted(), "hook called on a yielded element");
            pm.unvisited.pop_front();
            pm.held = Some(x);
            return;
        }
    }

    /// Unordered: any unvisited element may come next; check the ones the
    /// hook received and the one yielded.
    pub(crate) fn explain_reach_unordered(&mut self, pm: &mut PassModel, outcome: Outcome) {
        let mut hook_panicked = false;
        while let Some(r) = self.next_logged() {
            assert!(!hook_panicked, "hook called after it panicked");
            pm.take_unvisited(r, "auto-removed");
            assert!(
                self.pred(r) && !self.pred_panics(r),
                "{r:?} auto-removed though the predicate is false"
            );
            hook_panicked = self.hook_panics(r);
        }
        if hook_panicked {
            assert_eq!(outcome, Outcome::Panicked, "the hook should have panicked");
            return;
        }
        match outcome {
            Outcome::Yield(y) => {
                pm.take_unvisited(y, "yielded");
                assert!(
                    !self.pred(y) && !self.pred_panics(y),
                    "{y:?} yielded though the predicate holds"
                );
                pm.held = Some(y);
            }
            Outcome::End => assert!(
                pm.unvisited.is_empty(),
                "the pass ended without visiting {:?}",
                pm.unvisited
            ),
            Outcome::Panicked => assert!(
                pm.unvisited.iter().any(|&x| self.pred_panics(x)),
                "a panic with no panicking element left"
            ),
        }
    }

    /// The model side of `Entry::push` / `Cursor::push` during a pass.
    /// Returns the element to push, if any.
    pub(crate) fn pass_push(&mut self, pm: &PassModel, val: u8) -> Option<(Elem, M, bool)> {
        let live = pm.len() + self.live_elsewhere();
        let (e, m) = self.make(live, val)?;
        let full = self.pass_full(pm);
        Some((e, m, full))
    }

    pub(crate) fn pushed(
        &mut self,
        pm: &mut PassModel,
        m: M,
        full: bool,
        result: Result<(), Elem>,
    ) {
        match result {
            Ok(()) => {
                assert!(
                    !full,
                    "push into a full bounded collection succeeded during a pass"
                );
                if self.kind == Kind::Buffered {
                    self.pending.push(m);
                } else {
                    pm.unvisited.push_back(m);
                }
            }
            Err(back) => {
                assert!(full, "try_push failed below the bound during a pass");
                assert_eq!(M::of(&back), m);
            }
        }
    }

    /// The held entry's other elements are the model's kept ones and its
    /// unvisited ones (pushes included): in order, or as multisets in an
    /// unordered pass.
    pub(crate) fn check_others(&self, e: &Entry<'_, Elem>, pm: &PassModel) {
        let (before, after) = e.others();
        let mut before: Vec<M> = before.iter().map(M::of).collect();
        let mut after: Vec<M> = after.iter().map(M::of).collect();
        let mut kept = pm.kept.clone();
        let mut unvisited: Vec<M> = pm.unvisited.iter().copied().collect();
        if self.unordered {
            before.append(&mut after);
            kept.append(&mut unvisited);
            before.sort_unstable();
            kept.sort_unstable();
        }
        assert_eq!(before, kept, "Entry::others: the kept elements");
        assert_eq!(
            after, unvisited,
            "Entry::others: the elements after the held one"
        );
    }

    pub(crate) fn check_cursor<P: AutoRemove<Elem>>(
        &self,
        cursor: &Cursor<'_, Elem, P>,
        pm: &PassModel,
    ) {
        assert_eq!(cursor.remaining(), pm.unvisited.len(), "Cursor::remaining");
        assert_eq!(cursor.len(), pm.len(), "Cursor::len");
    }

    pub(crate) fn traverse<S: Subject>(&mut self, s: &mut S, actions: &[Action]) {
        let mut pm = PassModel {
            unvisited: self.items.drain(..).collect(),
            ..PassModel::default()
        };
        let mut phase = Phase::Other;
        let mut forgot = false;
        let bounded = self.bounded();
        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            let mut cursor = s.cursor();
            self.check_cursor(&cursor, &pm);
            let mut i = 0;
            loop {
                phase = Phase::Next;
                let got = cursor.next();
                phase = Phase::Other;
                let Some(mut e) = got else {
                    self.explain_next(&mut pm, Outcome::End);
                    self.check_cursor(&cursor, &pm);
                    break;
                };
                self.explain_next(&mut pm, Outcome::Yield(M::of(&e)));
                self.check_others(&e, &pm);
                let action = actions.get(i).copied().unwrap_or(Action::Keep);
                i += 1;
                match action {
                    Action::Keep => {}
                    Action::Remove => {
                        let v = e.remove();
                        assert_eq!(Some(M::of(&v)), pm.held.take(), "Entry::remove value");
                    }
                    Action::Mutate(v) => {
                        e.val = v;
                        pm.held.as_mut().unwrap().val = v;
                    }
                    Action::Push { count, val } => {
                        for _ in 0..count % 3 + 1 {
                            if let Some((el, m, full)) = self.pass_push(&pm, val) {
                                let r = if bounded {
                                    e.try_push(el).map_err(|err| err.into_inner())
                                } else {
                                    e.push(el);
                                    Ok(())
                                };
                                self.pushed(&mut pm, m, full, r);
                            }
                        }
                    }
                    Action::CursorPush(val) | Action::RemoveThenPush(val) => {
                        if matches!(action, Action::RemoveThenPush(_)) {
                            let v = e.remove();
                            assert_eq!(Some(M::of(&v)), pm.held.take(), "Entry::remove value");
                        }
                        if let Some((el, m, full)) = self.pass_push(&pm, val) {
                            let r = if bounded {
                                cursor.try_push(el).map_err(|err| err.into_inner())
                            } else {
                                cursor.push(el);
                                Ok(())
                            };
                            self.pushed(&mut pm, m, full, r);
                        }
                    }
                    Action::ProducerPush(val) => {
                        let n = pm.len();
                        self.producer_push(n, val);
                    }
                    Action::Break(mutate) | Action::Finish(mutate) => {
                        if let Some(v) = mutate {
                            e.val = v;
                            pm.held.as_mut().unwrap().val = v;
                        }
                        phase = Phase::Settle;
                        if matches!(action, Action::Finish(_)) {
                            cursor.finish();
                        } else {
                            drop(cursor);
                        }
                        phase = Phase::Other;
                        return;
                    }
                    Action::Panic(mutate) => {
                        if let Some(v) = mutate {
                            e.val = v;
                            pm.held.as_mut().unwrap().val = v;
                        }
                        phase = Phase::User;
                        inject_panic();
                    }
                    Action::Forget => {
                        forgot = true;
                        std::mem::forget(cursor);
                        return;
                    }
                }
                self.check_cursor(&cursor, &pm);
            }
            phase = Phase::Settle;
            drop(cursor);
            phase = Phase::Other;
        }));
        match result {
            Ok(()) if forgot => {
                // Every element of the pass is leaked; the collection is empty.
                self.leaked.extend(pm.into_items().iter().map(|m| m.id));
                return;
            }
            Ok(()) => {
                // Normal completion (end, break or finish) settled the held
                // element without a panic.
                let completed = self.settle(&mut pm, Outcome::End);
                assert!(completed);
            }
            Err(payload) => {
                if payload.downcast_ref::<InjectedPanic>().is_none() {
                    panic::resume_unwind(payload);
                }
                match phase {
                    Phase::Next => self.explain_next(&mut pm, Outcome::Panicked),
                    Phase::Settle => {
                        let ended = !self.settle(&mut pm, Outcome::Panicked);
                        assert!(ended, "unexpected panic while settling");
                    }
                    // Unwinding never settles: the held element is kept.
                    Phase::User => {}
                    Phase::Other => panic!("injected panic outside a crate call"),
                }
            }
        }
        self.items = pm.into_items();
    }

    pub(crate) fn closure<S: Subject>(&mut self, s: &mut S, actions: &[Action]) {
        let mut pm = PassModel {
            unvisited: self.items.drain(..).collect(),
            ..PassModel::default()
        };
        let mut phase = Phase::Next;
        let bounded = self.bounded();
        let mut i = 0;
        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            s.traverse(&mut |mut e: Entry<'_, Elem>| {
                phase = Phase::Other;
                self.explain_next(&mut pm, Outcome::Yield(M::of(&e)));
                self.check_others(&e, &pm);
                let action = actions.get(i).copied().unwrap_or(Action::Keep);
                i += 1;
                match action {
                    Action::Remove | Action::RemoveThenPush(_) => {
                        let v = e.remove();
                        assert_eq!(Some(M::of(&v)), pm.held.take(), "Entry::remove value");
                    }
                    Action::Mutate(v) => {
                        e.val = v;
                        pm.held.as_mut().unwrap().val = v;
                    }
                    Action::Push { val, .. } | Action::CursorPush(val) => {
                        if let Some((el, m, full)) = self.pass_push(&pm, val) {
                            let r = if bounded {
                                e.try_push(el).map_err(|err| err.into_inner())
                            } else {
                                e.push(el);
                                Ok(())
                            };
                            self.pushed(&mut pm, m, full, r);
                        }
                    }
                    Action::ProducerPush(val) => {
                        let n = pm.len();
                        self.producer_push(n, val);
                    }
                    Action::Panic(mutate) => {
                        if let Some(v) = mutate {
                            e.val = v;
                            pm.held.as_mut().unwrap().val = v;
                        }
                        phase = Phase::User;
                        inject_panic();
                    }
                    Action::Keep | Action::Break(_) | Action::Finish(_) | Action::Forget => {}
                }
                phase = Phase::Next;
            });
        }));
        match result {
            Ok(()) => self.explain_next(&mut pm, Outcome::End),
            Err(payload) => {
                if payload.downcast_ref::<InjectedPanic>().is_none() {
                    panic::resume_unwind(payload);
                }
                match phase {
                    Phase::Next => self.explain_next(&mut pm, Outcome::Panicked),
                    Phase::User => {}
                    Phase::Settle | Phase::Other => panic!("injected panic outside a crate call"),
                }
            }
        }
        self.items = pm.into_items();
    }

    pub(crate) fn prune<S: Subject>(&mut self, s: &mut S) {
        let mut pm = PassModel {
            unvisited: self.items.drain(..).collect(),
            ..PassModel::default()
        };
        let result = panic::catch_unwind(AssertUnwindSafe(|| s.prune()));
        let returned = match result {
            Ok(n) => Some(n),
            Err(payload) => {
                if payload.downcast_ref::<InjectedPanic>().is_none() {
                    panic::resume_unwind(payload);
                }
                None
            }
        };
        let panicked = returned.is_none();
        // `prune` is a pass in which every reached element is kept unless
        // the policy removes it.
        let mut removed = 0;
        if self.unordered {
            let mut hook_panicked = false;
            while let Some(r) = self.next_logged() {
                assert!(!hook_panicked, "hook called after it panicked");
                pm.take_unvisited(r, "pruned");
                assert!(
                    self.pred(r) && !self.pred_panics(r),
                    "{r:?} pruned though the predicate is false"
                );
                hook_panicked = self.hook_panics(r);
                removed += 1;
            }
            if panicked {
                assert!(
                    hook_panicked || pm.unvisited.iter().any(|&x| self.pred_panics(x)),
                    "prune panicked with nothing to panic on"
                );
            } else {
                assert!(!hook_panicked, "prune's hook should have panicked");
                assert!(
                    pm.unvisited
                        .iter()
                        .all(|&x| !self.pred(x) && !self.pred_panics(x)),
                    "prune left elements the predicate holds for: {:?}",
                    pm.unvisited
                );
            }
        } else {
            let mut stopped = false;
            while let Some(&x) = pm.unvisited.front() {
                if self.pred_panics(x) {
                    stopped = true; // kept in place by the unwinding
                    break;
                }
                pm.unvisited.pop_front();
                if self.pred(x) {
                    assert_eq!(self.next_logged(), Some(x), "prune order");
                    removed += 1;
                    if self.hook_panics(x) {
                        stopped = true;
                        break;
                    }
                } else {
                    pm.kept.push(x);
                }
            }
            assert_eq!(panicked, stopped, "prune panicked (or not) unexpectedly");
        }
        if let Some(n) = returned {
            assert_eq!(n, removed, "prune's return value");
        }
        self.items = pm.into_items();
    }
}

/// Decodes fuzz input bytes exactly as `libfuzzer_sys::fuzz_target!` does
/// for a typed input: too-short inputs and decoding errors are skipped.
pub fn decode(bytes: &[u8]) -> Option<Input> {
    if bytes.len() < <Input as Arbitrary>::size_hint(0).0 {
        return None;
    }
    Input::arbitrary_take_rest(arbitrary::Unstructured::new(bytes)).ok()
}

/// The target name (a directory under `fuzz/corpus/` and
/// `fuzz/regressions/`) of each kind.
pub const TARGETS: [(&str, Kind); 4] = [
    ("ordered", Kind::Ordered),
    ("unordered", Kind::Unordered),
    ("buffered", Kind::Buffered),
    ("auto_remove", Kind::AutoRemove),
];

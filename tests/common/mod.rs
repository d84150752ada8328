//! Shared helpers for the integration tests: drop-tracked element types,
//! and [`splitmix`] for deterministic pseudo-random inputs.
//!
//! Counters live in thread-locals, so tests running in parallel (cargo test)
//! or one after another on one thread (Miri) never see each other's counts.
//! The tracked types own no heap memory, so a test that leaks them on
//! purpose (`mem::forget` of a cursor) does not make Miri report a leak.
#![allow(dead_code, unreachable_pub)]

use std::cell::{Cell, RefCell};
use std::fmt;

thread_local! {
    /// Per tracker: how many times each element id has been dropped.
    static DROPS: RefCell<Vec<Vec<u32>>> = const { RefCell::new(Vec::new()) };
    static ZST_LIVE: Cell<isize> = const { Cell::new(0) };
}

/// Hands out [`Elem`]s and records every drop of each of them.
#[derive(Debug)]
pub struct Tracker {
    index: usize,
}

impl Default for Tracker {
    fn default() -> Self {
        Self::new()
    }
}

impl Tracker {
    pub fn new() -> Self {
        let index = DROPS.with(|d| {
            let mut d = d.borrow_mut();
            d.push(Vec::new());
            d.len() - 1
        });
        Tracker { index }
    }

    fn make(&self, val: i64, bomb: bool) -> Elem {
        let id = DROPS.with(|d| {
            let mut d = d.borrow_mut();
            let drops = &mut d[self.index];
            drops.push(0);
            drops.len() - 1
        });
        Elem {
            tracker: self.index as u32,
            id: id as u32,
            val,
            flag: false,
            bomb,
        }
    }

    /// A new element holding `val`.
    pub fn elem(&self, val: i64) -> Elem {
        self.make(val, false)
    }

    /// A new element whose `Drop` panics (unless the thread is already
    /// panicking, which would abort).
    pub fn bomb(&self, val: i64) -> Elem {
        self.make(val, true)
    }

    /// `n` new elements with values `0..n`.
    pub fn elems(&self, vals: impl IntoIterator<Item = i64>) -> Vec<Elem> {
        vals.into_iter().map(|v| self.elem(v)).collect()
    }

    /// How many elements this tracker created.
    pub fn created(&self) -> usize {
        DROPS.with(|d| d.borrow()[self.index].len())
    }

    /// How many times element `id` was dropped.
    pub fn drops(&self, id: u32) -> u32 {
        DROPS.with(|d| d.borrow()[self.index][id as usize])
    }

    /// Every drop count, indexed by id.
    pub fn drop_counts(&self) -> Vec<u32> {
        DROPS.with(|d| d.borrow()[self.index].clone())
    }

    /// Created elements not dropped yet (panics if any was dropped twice).
    pub fn live(&self) -> usize {
        let counts = self.drop_counts();
        assert!(
            counts.iter().all(|&c| c <= 1),
            "an element was dropped more than once: {counts:?}"
        );
        counts.iter().filter(|&&c| c == 0).count()
    }

    /// The ids of the elements not dropped yet.
    pub fn live_ids(&self) -> Vec<u32> {
        let counts = self.drop_counts();
        assert!(
            counts.iter().all(|&c| c <= 1),
            "an element was dropped more than once: {counts:?}"
        );
        (0..counts.len() as u32)
            .filter(|&i| counts[i as usize] == 0)
            .collect()
    }

    /// Asserts that every element this tracker created was dropped exactly once.
    pub fn assert_all_dropped_once(&self) {
        let counts = self.drop_counts();
        assert!(
            counts.iter().all(|&c| c == 1),
            "drop counts (index = id) should all be 1: {counts:?}"
        );
    }

    /// Asserts that exactly the elements in `ids` are alive (each other one
    /// was dropped exactly once, these never).
    pub fn assert_live_exactly(&self, ids: &[u32]) {
        let mut want: Vec<u32> = ids.to_vec();
        want.sort_unstable();
        assert_eq!(self.live_ids(), want, "live element ids");
    }
}

/// A drop-tracked element: identity `id`, a value, a flag the auto-remove
/// tests use as "expired".
pub struct Elem {
    tracker: u32,
    id: u32,
    pub val: i64,
    pub flag: bool,
    bomb: bool,
}

impl Elem {
    pub fn id(&self) -> u32 {
        self.id
    }

    /// The element's state, for comparing against a model.
    pub fn key(&self) -> (u32, i64, bool) {
        (self.id, self.val, self.flag)
    }

    /// A flagged element (expired, for the auto-remove predicate).
    pub fn flagged(mut self) -> Self {
        self.flag = true;
        self
    }
}

impl Drop for Elem {
    fn drop(&mut self) {
        DROPS.with(|d| d.borrow_mut()[self.tracker as usize][self.id as usize] += 1);
        if self.bomb && !std::thread::panicking() {
            panic!("bomb {} went off", self.id);
        }
    }
}

impl Clone for Elem {
    /// A clone is a new element (new id) with the same value and flag.
    fn clone(&self) -> Self {
        let t = Tracker {
            index: self.tracker as usize,
        };
        let mut e = t.elem(self.val);
        e.flag = self.flag;
        e
    }
}

impl fmt::Debug for Elem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}={}", self.id, self.val)?;
        if self.flag {
            f.write_str("!")?;
        }
        Ok(())
    }
}

/// The ids of a sequence of elements, in order.
pub fn ids<'a>(elems: impl IntoIterator<Item = &'a Elem>) -> Vec<u32> {
    elems.into_iter().map(Elem::id).collect()
}

/// The values of a sequence of elements, in order.
pub fn vals<'a>(elems: impl IntoIterator<Item = &'a Elem>) -> Vec<i64> {
    elems.into_iter().map(|e| e.val).collect()
}

/// A zero-sized element that counts live instances (per thread).
#[derive(Debug, PartialEq, Eq)]
pub struct Zst(());

impl Default for Zst {
    fn default() -> Self {
        Self::new()
    }
}

impl Zst {
    pub fn new() -> Self {
        ZST_LIVE.with(|c| c.set(c.get() + 1));
        Zst(())
    }

    /// Live `Zst`s on this thread.
    pub fn live() -> isize {
        ZST_LIVE.with(Cell::get)
    }
}

impl Drop for Zst {
    fn drop(&mut self) {
        ZST_LIVE.with(|c| c.set(c.get() - 1));
    }
}

/// Runs `f`, expecting it to panic; returns the panic message.
pub fn expect_panic<R>(f: impl FnOnce() -> R) -> String {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(_) => panic!("expected a panic"),
        Err(payload) => {
            if let Some(s) = payload.downcast_ref::<&str>() {
                (*s).to_string()
            } else if let Some(s) = payload.downcast_ref::<String>() {
                s.clone()
            } else {
                String::from("<non-string panic>")
            }
        }
    }
}

/// The message of a panic caught by `catch_unwind`.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        String::from("<non-string panic>")
    }
}

/// SplitMix64's output function: a well-mixed `u64` from any `u64`, for
/// deterministic pseudo-random test inputs (`splitmix(seed + i)`).
pub fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// One fuzz input file of a target (`fuzz/corpus/TARGET/` or
/// `fuzz/regressions/TARGET/`).
pub struct FuzzFile {
    /// `corpus/TARGET/NAME` or `regressions/TARGET/NAME`, relative to `fuzz/`.
    pub name: String,
    pub bytes: Vec<u8>,
    /// Listed in `fuzz/checked-in.txt`, i.e. tracked by git; the other files
    /// are what a local fuzz run added.
    pub checked_in: bool,
}

/// The `fuzz/` directory of this package.
pub fn fuzz_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

/// The checked-in inputs named by `fuzz/checked-in.txt` (written by
/// `scripts/fuzz-manifest.sh`; CI checks it against `git ls-files`), as
/// paths relative to `fuzz/`.
pub fn checked_in_fuzz_inputs() -> Vec<String> {
    let text = std::fs::read_to_string(fuzz_dir().join("checked-in.txt"))
        .expect("fuzz/checked-in.txt exists");
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// Every input of `target` on disk, sorted by name: the checked-in ones
/// (each must be present: a missing one panics) and whatever a local fuzz
/// run added beside them. Tests replay all of them but count only the
/// checked-in ones, so a contributor's `cargo fuzz run` never changes what
/// a replay test asserts.
pub fn fuzz_inputs(target: &str) -> Vec<FuzzFile> {
    let listed = checked_in_fuzz_inputs();
    let mut files = Vec::new();
    for sub in ["corpus", "regressions"] {
        let dir = fuzz_dir().join(sub).join(target);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("readable directory entry").path();
            let file = path.file_name().unwrap().to_string_lossy().into_owned();
            if !path.is_file() || file == ".gitkeep" {
                continue;
            }
            let name = format!("{sub}/{target}/{file}");
            files.push(FuzzFile {
                checked_in: listed.contains(&name),
                bytes: std::fs::read(&path).expect("readable fuzz input"),
                name,
            });
        }
    }
    files.sort_by(|a, b| a.name.cmp(&b.name));
    for name in &listed {
        let of_target = name.split('/').nth(1) == Some(target);
        assert!(
            !of_target || files.iter().any(|f| &f.name == name),
            "checked-in fuzz input fuzz/{name} is missing"
        );
    }
    files
}

/// Replays every input of `target` on disk (see [`fuzz_inputs`]) that
/// `decode` accepts through `run`. Each checked-in input must decode, and
/// the target must have at least one; what a local fuzz run added is
/// replayed too, but never counted.
pub fn replay_fuzz_inputs<I>(target: &str, decode: impl Fn(&[u8]) -> Option<I>, run: impl Fn(&I)) {
    let mut checked_in = 0;
    for file in fuzz_inputs(target) {
        let input = decode(&file.bytes);
        if file.checked_in {
            assert!(
                input.is_some(),
                "checked-in input fuzz/{} does not decode",
                file.name
            );
            checked_in += 1;
        }
        if let Some(input) = input {
            run(&input);
        }
    }
    assert!(checked_in > 0, "no checked-in seed for the {target} target");
}

/// Polls `f` on this thread, parking it until a wake-up: a minimal
/// executor for the async queue's futures (which also runs under Miri).
pub fn block_on<F: std::future::Future>(f: F) -> F::Output {
    use std::sync::Arc;
    use std::task::{Context, Poll, Wake, Waker};
    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    let mut f = std::pin::pin!(f);
    loop {
        match f.as_mut().poll(&mut cx) {
            Poll::Ready(v) => return v,
            Poll::Pending => std::thread::park(),
        }
    }
}

/// Runs `f` on its own thread and returns its result, or fails the test
/// if it has not finished within `deadline` (a deadlock or a lost
/// wake-up: the hung thread is left behind, holding what it owns, so the
/// test fails instead of hanging in a destructor that needs the same
/// lock). A panic in `f` is the test's panic.
pub fn within<R: Send + 'static>(
    deadline: std::time::Duration,
    f: impl FnOnce() -> R + Send + 'static,
) -> R {
    use std::sync::mpsc;
    let (tx, rx) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(deadline) {
        Ok(r) => r,
        Err(mpsc::RecvTimeoutError::Disconnected) => match worker.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            Ok(()) => unreachable!("the worker sends before it ends"),
        },
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("hung: a deadlock or a lost wake-up"),
    }
}

//! Cross-thread producers for [`BufferedCollection`](crate::BufferedCollection).
//!
//! # Where a push goes
//!
//! Pushes go into *slots*: a `Vec` behind its own lock, which only the
//! pushes that pick it and the collection's owner ever take. There are
//! two kinds:
//!
//! * **Shards**, for arrival order (the default): one per producer
//!   thread, two per core (a power of two, 2 to 64), made with the
//!   collection's first handle and first in the registry. A push locks
//!   the shard of its thread (threads are numbered as they first push;
//!   `thread_index`), whichever handle it uses: a thread that serves many
//!   connections through a handle each keeps filling one slot, owns the
//!   clock's epoch from one push to the next and opens no new run; and
//!   threads numbered apart never wait for each other. Any slot keeps
//!   arrival order (the proof below never asks which slot a push picks),
//!   so more threads than shards only share a lock.
//! * **A handle's own slot**, for [`ProducerOrder::PerProducer`] (each
//!   handle's values together) and for the values of its permits: made
//!   and registered the first time the handle needs it, in its place (the
//!   registry keeps the handles' slots in the order the handles were
//!   made). A handle that never needs one is four words and allocates
//!   nothing, so idle handles cost a commit nothing.
//!
//! ```text
//!   Shared ── control: Mutex<Queue> ─ registry ─┬─ shard 0 ───────────── [a0 b0 a1]
//!   │           producers, held, waiters,       ├─ shard 1 ───────────── [c0]
//!   │           wake-ups to deliver, wakers      ├─ Slot (handle B, live) ── [] (per producer)
//!   │                                            └─ Slot (B's clone, dropped) ── [d0]
//!   ├── closed, arrival: AtomicBool  (set under control; pushes read them)
//!   ├── max:    AtomicUsize   (the bound; changed under control + every slot)
//!   ├── consumers_waiting: AtomicBool (a push must wake a wait)
//!   ├── room:   AtomicUsize   (bounded only: pushes may still take this many,
//!   │                          besides what the shards prepaid)
//!   └── clock:  AtomicU64     (arrival order; on room's cache line)
//! ```
//!
//! * A push reads the `arrival` hint and locks its thread's shard, where
//!   the shard's own flag (changed under its lock) says whether arrival
//!   order holds; else it locks its handle's own slot. Then it reads
//!   `closed` (and, when bounded, takes one unit of room: see *prepaid
//!   room* below), appends, unlocks, and then reads
//!   `consumers_waiting`: only a set flag makes it lock the control mutex
//!   to wake a waiting consumer. An uncontended push touches no condition
//!   variable, no waker list and no lock but its slot's.
//! * `commit` walks the registry under the control lock and, slot by slot,
//!   swaps the slot's `Vec` with an empty spare under the slot's lock (the
//!   only time it holds a producer up), then appends the values outside
//!   that lock, merged as below. Emptied buffers become the spares of the
//!   next commit, so a steady state allocates nothing. In arrival order
//!   it walks them twice (see *the cut*).
//! * A handle that is dropped marks its own slot dead, if it has one (no
//!   search: a drop is O(1)); the next commit takes its values, which are
//!   never lost, and removes it. Dead slots also leave, when empty, once
//!   there are more of them than a sweep found last time (amortised O(1)
//!   per handle), so handles that come and go without commits do not pile
//!   up. The walk sees the shards, the live slots and the dead ones since
//!   the last commit.
//!
//! # Arrival order
//!
//! With [`ProducerOrder::Arrival`] (the default) a push that returned
//! before another push started is committed before it, whichever slots
//! they went to. A shared *clock* (a counter alone on its cache line)
//! orders the slots' values:
//!
//! ```text
//!   clock: 7              slot A: items [a0 a1 | a2 a3 a4]   head 3, runs [(7, 2)]
//!   (owned by slot A)     slot B: items [b0 b1 b2]           head 5, runs []
//!   committed order:  a0 a1 (3) · b0 b1 b2 (5) · a2 a3 a4 (7)
//! ```
//!
//! * A slot *owns* a clock value (its *epoch*) when it moved the clock to
//!   it; every value is written once, by one slot's increment (or
//!   by a change of order, for one slot). A push, under its slot's lock,
//!   reads the clock: if it still shows the slot's epoch, nobody pushed
//!   elsewhere since, and the value joins the slot's open *run* (no
//!   write: the common case costs one read of a line that rarely
//!   changes). Otherwise it moves the clock on by one and opens a run
//!   stamped with the new value. A slot's runs are in stamp order, and
//!   no two slots share a stamp. The first run's stamp (`head`) is held
//!   inline, so a slot that pushes alone between commits never allocates
//!   for runs.
//! * **Causality.** If push A happened before push B, B's read of the
//!   clock comes after A's in the clock's modification order (coherence:
//!   no ordering stronger than `Relaxed` is needed), so B's stamp is A's
//!   or later; equal only in the same slot (a value owned by A's slot
//!   makes another slot move the clock on), where the slot's lock orders
//!   them.
//! * **The cut.** A commit reads the clock first (the value it reads is
//!   the cut; it writes nothing, so the producers' line stays theirs and
//!   a slot that owns the clock keeps its epoch across commits), then
//!   locks the slots one by one and takes only the values stamped at or
//!   before the cut, leaving later ones for the next commit. Suppose B is
//!   taken from slot j and A happened before B, A through slot i. If A
//!   was in slot i when the commit locked it, A is taken too (a slot's
//!   stamps only grow, so the values at or before the cut are a prefix).
//!   Otherwise A was pushed after the commit unlocked slot i, so A's read
//!   of the clock comes after the cut's (the slot's lock orders them;
//!   coherence again): A's stamp is the cut only if slot i owns the cut,
//!   else later. Then B's stamp, at least A's and at most the cut, is
//!   the cut, owned by slot i, so j = i and the slot's lock put A before
//!   B in the slot, which B had reached before the commit locked it while
//!   A had not: impossible. So if B is taken, A is taken, by this commit
//!   or an earlier one, and (stamped earlier, or earlier in the same
//!   slot) comes first. A registry of one slot needs no cut (nothing to
//!   order against; a new slot registers under the control lock the
//!   commit holds): the commit takes everything. (With the shards, a
//!   queue in arrival order always has two or more.)
//! * **Nothing taken until everything can be.** A commit at a cut first
//!   looks at every slot and counts the values it has due, grows the
//!   collection's buffer (and an empty part per slot) for all of them, and
//!   only then looks again and takes, from each slot, everything it
//!   holds (a swap) if all of it is due and the buffer has room for what
//!   was added since the first look, else what the first look counted (a
//!   prefix, which may end inside a run). The proof above needs only
//!   that each slot gives what was due in it at some look after the cut
//!   was read. If the buffer cannot grow, nothing was taken: a commit
//!   that took some slots' values and then failed could have committed B
//!   while A stayed queued.
//! * **A stamp is claimed last.** A push grows its slot, takes room and
//!   checks the close first; only then does it read the clock and open
//!   or extend its run, so a push that fails or waits leaves the slot's
//!   epoch as it was (a new epoch with the old run still open would let
//!   the next push join that old run, ahead of pushes made through other
//!   handles in between). The clock skips 0 when it wraps: 0 is the epoch
//!   of a slot that never pushed.
//! * **The merge** appends the taken runs in stamp order: a swap or an
//!   append when one slot has values or the slots' runs do not interleave;
//!   otherwise runs are moved newest first from the ends of the parts
//!   (the part to take from is found by a scan of the parts' newest
//!   stamps, kept on the stack, for up to eight parts, and by a heap
//!   beyond: O(n log k) for n values in k parts) and one reversal puts
//!   them in order.
//! * [`ProducerOrder::PerProducer`] skips all of it: no stamps, no cut,
//!   slots appended in registry order (handles in the order they were
//!   made).
//!
//! Memory per producer handle: the handle (an `Arc`, its number and its
//! own slot once it needs one: 32 bytes), and then that slot (one 256-byte
//! allocation: the `Arc` counts, then the lock, `Vec`, permit count and
//! "handle dropped" flag alone on 128 bytes of cache lines, so that two
//! slots never share a line) plus the capacity its buffer grew to, and 8
//! bytes in the registry. The shards are made once per collection, with
//! its first handle.
//!
//! # Counters
//!
//! * `closed`: set by `BufferedCollection::close` and by the collection's
//!   drop; pushes then hand the value back. Read under the slot's lock, so
//!   a push either lands before the owner next looks at that slot, or sees
//!   the close.
//! * `producers` (an atomic on its own line, with the handles' numbers):
//!   live `Producer` handles, so `wait_pending` can tell that nothing can
//!   arrive any more. A handle is counted in and out without the control
//!   lock (making and dropping one that never needed a slot of its own is
//!   one atomic operation each); the drop that takes the count to 0 then
//!   takes the control lock to wake the waits, and a wait reads the count
//!   under that lock before it looks at the slots.
//! * For a bounded collection, `room`, `held` and `max`: `held` (under
//!   control) counts the elements the collection holds outside the slots
//!   (visible + local pending), as last published by the collection, plus
//!   the room a pass keeps for its pushes; and at every instant
//!
//!   ```text
//!   room + (prepaid room) + held + (values in slots) + (outstanding permits) == max
//!   ```
//!
//!   except that a commit moving values from the slots to `held` adds the
//!   room it frees only at its end (`room` is then smaller, never larger).
//!   A push takes room with a compare-and-swap that never takes `room`
//!   below zero, so the bound holds at every instant. The collection
//!   publishes every increase of its own count before it happens and
//!   decreases lazily (at its next `commit`, `wait_pending`, `traverse`,
//!   …). Free room grows only under the control lock; a bound change holds
//!   the control lock and every slot's, so no push slips in between its
//!   check and the new count.
//! * *Prepaid room.* Every bounded push writing `room` would make its
//!   line the one all producers fight over. So a shard whose pushes need
//!   room takes more than one unit when `room` has plenty (a share of it,
//!   at most 32) and keeps the rest in the shard (`prepaid`, under the
//!   shard's lock), for its next pushes. Prepaid room is free room: the
//!   equation above counts it with `room`. Whoever finds `room` empty
//!   and is about to answer "full" (a push, a batch, a permit, the
//!   owner's push, a wait deciding `Full`, a producer about to sleep)
//!   first locks every shard at once, in order, and moves their prepaid
//!   room back to `room`; with those locks held, `room` is all the free
//!   room there is, so the answer is exact. A pass takes the prepaid room
//!   with the rest. This moves room between its two places outside the
//!   control lock, but never makes more of it: prepaid room comes only
//!   from `room`, so once both are empty they stay so until the owner
//!   frees room (under the control lock, waking the producers).
//!   That look at every shard is skipped while `maybe_prepaid` is clear: a
//!   shard sets it before it takes more than one unit, and the look clears
//!   it (every shard locked, none holding prepaid room). So the pushes of
//!   a full queue lock the shards once per refill, not once each.
//!
//! # The slots' lock
//!
//! A slot's lock is a spin lock (`raw::SpinLock`), not a mutex: every push
//! takes it, and a mutex's unlock is an atomic exchange (it must see
//! whether a thread sleeps on the lock), which waits for the push's stores
//! to leave the core; the spin lock's unlock is a releasing store. Its
//! holders (a push, the swap of a commit, a bound change) wait for
//! nothing while they hold it but other slots' locks, in the lock order
//! below, so a waiter spins a little, yields a few times, then
//! sleeps 20 µs at a time: only a holder that was preempted keeps it long,
//! and a sleeping waiter leaves its core to it. Its acquire and release
//! give the same orderings as a mutex's, which the arguments here use.
//!
//! # Who wakes whom
//!
//! Two condition variables and, with feature `async`, two sets of task
//! wakers, all under the control lock:
//!
//! * *Consumers* (`wait_pending`, `wait_pending_async`) wait for a slot to
//!   hold values or for nothing more to be able to arrive. A consumer sets
//!   `consumers_waiting` and then locks each slot to look: a push either
//!   finishes before the consumer locks its slot (the consumer sees the
//!   value) or locks it after (the slot's lock orders the flag before the
//!   push's read of it, and the push wakes the consumer through the
//!   control lock, which the consumer holds until it sleeps). Waking the
//!   consumers clears the flag: the *first* push after a wait starts wakes
//!   it, later ones pay nothing. The last producer leaving and a close
//!   wake consumers too.
//! * *Producers* blocked for room (`push`, `push_batch`, `push_async`,
//!   `reserve_async` on a full bounded queue) register under the control
//!   lock after seeing no room there. Free room grows only under that lock (a
//!   commit, the end of a traversal, a wait, the clears, a bound change, a
//!   permit given back), which wakes them, and so does a close.
//!
//! **No foreign code runs under a lock.** What a critical section decides
//! to wake is recorded in the queue and delivered by the guard
//! ([`Locked`]) after it releases the control lock: condition variables
//! first, then the wakers, each wake isolated so that one waker that panics
//! costs no one else's wake-up (its panic is reported by the panic hook
//! and then dropped: the operation that woke it has completed and returns
//! its own result). Wakers are cloned before the lock is taken and dropped
//! after it is released; queued elements are dropped outside every lock.
//! A waker may therefore look at the queue (`Producer::is_closed`, a push)
//! from `wake` or `clone` without deadlocking. Lock order: control, then
//! slots (in registry order); a push never holds its slot's lock while it
//! takes the control lock. Every shard at once: in shard order, after the
//! control lock if held and before a handle's own slot.
//!
//! A future that is dropped while registered removes its waker (each
//! registration is a slot the future remembers, valid until the set is
//! woken), so cancelled futures leave nothing behind.

#[cfg(feature = "async")]
mod futures;
mod handle;
mod link;
mod queue;
#[allow(unsafe_code)]
mod raw;
mod wakers;

#[cfg(feature = "async")]
pub use self::futures::*;
pub use self::handle::*;
pub(crate) use self::link::*;

#[cfg(test)]
mod tests;

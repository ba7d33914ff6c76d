//! The engine's event queue: events in (time, insertion sequence) order, some of which the
//! engine has since superseded (a stopped job's completion, a replaced tick). Those are stale:
//! the engine asks the queue's caller whether an event is live, and the answer never turns back
//! from stale to live (epochs only grow).
//!
//! The loop's semantics, which every stored result follows:
//! 1. [`EventQueue::next_live_time`] discards the stale events at the front; the first live
//!    event (with the next arrival) sets the next instant.
//! 2. [`EventQueue::pop_at`] hands over every event at that instant, live or stale; a stale one
//!    still counts as something happening, so an instant whose live events are only work limits'
//!    pauses calls the policy when a stale event shares it.
//!
//! A binary heap that kept every stale event until it reached the front grew to hundreds of
//! thousands of entries under time slicing: each preemption leaves a completion far in the
//! future. The queue therefore takes the stale events out in bulk once the heap has doubled
//! since the last time ([`EventQueue::push`]), and keeps only their keys, in sorted runs, each
//! with the greatest first-live key seen at a step 1 since it was taken out (its floor). A key
//! below its floor is one that step 1 would have discarded; a key above it at the current
//! instant is one that step 2 would have handed over ([`EventQueue::stale_taken_out_at`]). The
//! loop sees exactly what it saw with every stale event left in the heap (the tests compare the
//! two event by event).

use schedlab_core::Time;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// An event's place in the order: its time, then when it was pushed.
type Key = (Time, u64);

/// The heap is not compacted below this many entries (by default).
const MIN_COMPACT: usize = 1024;

/// A heap entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Event<K> {
    time: Time,
    sequence: u64,
    pub(super) kind: K,
}

impl<K> Event<K> {
    fn key(&self) -> Key {
        (self.time, self.sequence)
    }
}

/// Keys of stale events taken out of the heap together, sorted.
#[derive(Debug)]
struct TakenOut {
    keys: Vec<Key>,
    /// Keys before this one are below the floor (step 1 would have discarded them).
    next: usize,
    /// The greatest first-live key at a step 1 since these were taken out (`None`: none yet).
    floor: Option<Key>,
}

impl TakenOut {
    fn remaining(&self) -> usize {
        self.keys.len() - self.next
    }

    /// Raises the floor to `first_live` and skips the keys below it.
    fn raise_floor(&mut self, first_live: Key) {
        self.floor = Some(first_live);
        while self.keys.get(self.next).is_some_and(|&key| key < first_live) {
            self.next += 1;
        }
    }
}

/// The event queue (see the module's documentation).
#[derive(Debug)]
pub(super) struct EventQueue<K> {
    heap: BinaryHeap<Reverse<Event<K>>>,
    sequence: u64,
    compact_at: usize,
    /// The heap is not compacted below this many entries.
    min_compact: usize,
    /// Oldest first; the floors never increase along it (an older group has seen every step 1
    /// a newer one has).
    taken_out: Vec<TakenOut>,
}

impl<K: Copy + Ord> EventQueue<K> {
    /// An empty queue.
    pub(super) fn new() -> Self {
        EventQueue::with_compaction_at(MIN_COMPACT)
    }

    fn with_compaction_at(min_compact: usize) -> Self {
        EventQueue { heap: BinaryHeap::new(), sequence: 0, compact_at: min_compact, min_compact, taken_out: Vec::new() }
    }

    /// Adds an event after every event pushed before it at the same time. When the heap has
    /// doubled since it was last compacted, its stale events are taken out first.
    pub(super) fn push(&mut self, time: Time, kind: K, is_live: impl Fn(&K) -> bool) {
        if self.heap.len() >= self.compact_at {
            self.compact(is_live);
        }
        self.sequence += 1;
        self.heap.push(Reverse(Event { time, sequence: self.sequence, kind }));
    }

    /// Step 1: discards the stale events at the front and returns the time of the first live
    /// one, if any.
    pub(super) fn next_live_time(&mut self, is_live: impl Fn(&K) -> bool) -> Option<Time> {
        while let Some(Reverse(event)) = self.heap.peek() {
            if is_live(&event.kind) {
                let first_live = event.key();
                // Raise the floors below it: a suffix, since they never increase along the list.
                for group in self.taken_out.iter_mut().rev() {
                    if group.floor.is_some_and(|floor| floor >= first_live) {
                        break;
                    }
                    group.raise_floor(first_live);
                }
                self.taken_out.retain(|group| group.remaining() > 0);
                return Some(first_live.0);
            }
            self.heap.pop();
        }
        // No live event: step 1 would have discarded every stale one.
        self.taken_out.clear();
        None
    }

    /// Step 2: the next event at `now`, live or stale.
    pub(super) fn pop_at(&mut self, now: Time) -> Option<Event<K>> {
        match self.heap.peek() {
            Some(Reverse(event)) if event.time == now => self.heap.pop().map(|Reverse(event)| event),
            _ => None,
        }
    }

    /// Whether a stale event taken out of the heap would have been handed over at `now` by the
    /// step 2 that just ended.
    pub(super) fn stale_taken_out_at(&self, now: Time) -> bool {
        self.taken_out.iter().any(|group| group.keys.get(group.next).is_some_and(|key| key.0 == now))
    }

    /// Takes the stale events out of the heap, keeping their keys.
    fn compact(&mut self, is_live: impl Fn(&K) -> bool) {
        let mut keys = Vec::new();
        self.heap.retain(|Reverse(event)| {
            let live = is_live(&event.kind);
            if !live {
                keys.push(event.key());
            }
            live
        });
        self.compact_at = (2 * self.heap.len()).max(self.min_compact);
        if keys.is_empty() {
            return;
        }
        keys.sort_unstable();
        self.taken_out.push(TakenOut { keys, next: 0, floor: None });
        // Merge the newest groups while the newer is at least half the older, so that there
        // are about log2(n) of them. The merged group takes the newer (lower) floor: every key
        // the older one kept is above its own floor, so the lower floor drops none of them.
        while let [.., older, newer] = self.taken_out.as_slice()
            && 2 * newer.remaining() >= older.remaining()
        {
            let newer = self.taken_out.pop().expect("two groups");
            let older = self.taken_out.pop().expect("two groups");
            let mut keys = Vec::with_capacity(older.remaining() + newer.remaining());
            let (mut a, mut b) =
                (older.keys[older.next..].iter().peekable(), newer.keys[newer.next..].iter().peekable());
            while let (Some(&&x), Some(&&y)) = (a.peek(), b.peek()) {
                if x < y {
                    keys.push(x);
                    a.next();
                } else {
                    keys.push(y);
                    b.next();
                }
            }
            keys.extend(a);
            keys.extend(b);
            self.taken_out.push(TakenOut { keys, next: 0, floor: newer.floor });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The queue as it was: every stale event stays in the heap until it reaches the front.
    struct Reference {
        heap: BinaryHeap<Reverse<Event<u32>>>,
        sequence: u64,
    }

    impl Reference {
        fn push(&mut self, time: Time, kind: u32) {
            self.sequence += 1;
            self.heap.push(Reverse(Event { time, sequence: self.sequence, kind }));
        }

        fn next_live_time(&mut self, is_live: impl Fn(&u32) -> bool) -> Option<Time> {
            while let Some(Reverse(event)) = self.heap.peek() {
                if is_live(&event.kind) {
                    return Some(event.time);
                }
                self.heap.pop();
            }
            None
        }

        fn pop_at(&mut self, now: Time) -> Option<Event<u32>> {
            match self.heap.peek() {
                Some(Reverse(event)) if event.time == now => self.heap.pop().map(|Reverse(event)| event),
                _ => None,
            }
        }
    }

    /// A small deterministic generator (xorshift), so the test needs no dependency.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }

        /// Marks one of the events pushed so far stale, if there is one.
        fn make_stale(&mut self, stale: &mut [bool]) {
            if !stale.is_empty() {
                let id = self.below(stale.len() as u64) as usize;
                stale[id] = true;
            }
        }
    }

    /// What a loop like the engine's saw.
    #[derive(Default)]
    struct Seen {
        instants: usize,
        /// Instants where a stale event was handed over.
        with_stale: usize,
        /// Of those, instants where only the keys taken out said so.
        only_taken_out: usize,
        compactions: usize,
    }

    /// Pushes a new live event on both; returns 1 when the queue compacted its heap.
    fn push_both(time: Time, stale: &mut Vec<bool>, queue: &mut EventQueue<u32>, reference: &mut Reference) -> usize {
        let id = stale.len() as u32;
        stale.push(false);
        let (groups, heap) = (queue.taken_out.len(), queue.heap.len());
        queue.push(time, id, |&id| !stale[id as usize]);
        reference.push(time, id);
        usize::from(queue.heap.len() <= heap || queue.taken_out.len() != groups)
    }

    /// Runs a loop shaped like the engine's on the queue and on the reference, in lockstep:
    /// events are ids, an id goes stale for good, times sit on a coarse grid so that many events
    /// share an instant, and events are pushed at the current instant and later, while step 2
    /// hands events over and after it. At every instant both must hand over the same live events
    /// in the same order, and agree on whether a stale event was there.
    fn agree(seed: u64, min_compact: usize, steps: usize) -> Seen {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let mut stale: Vec<bool> = Vec::new();
        let mut queue = EventQueue::with_compaction_at(min_compact);
        let mut reference = Reference { heap: BinaryHeap::new(), sequence: 0 };
        let mut now = Time::ZERO;
        let mut seen = Seen::default();
        for _ in 0..steps {
            for _ in 0..rng.below(3) {
                let time = now + rng.below(40) as f64;
                seen.compactions += push_both(time, &mut stale, &mut queue, &mut reference);
            }
            for _ in 0..rng.below(5) {
                rng.make_stale(&mut stale);
            }
            let next = queue.next_live_time(|id| !stale[*id as usize]);
            assert_eq!(next, reference.next_live_time(|id| !stale[*id as usize]));
            // An arrival may set the instant before the first live event.
            let arrival = (rng.below(4) == 0).then(|| now + rng.below(20) as f64);
            now = match (next, arrival) {
                (None, None) => continue,
                (Some(a), Some(b)) => a.min(b),
                (Some(a), None) | (None, Some(a)) => a,
            };
            seen.instants += 1;
            let (mut reference_stale, mut queue_stale) = (false, false);
            loop {
                let expected = loop {
                    match reference.pop_at(now) {
                        Some(event) if stale[event.kind as usize] => reference_stale = true,
                        other => break other,
                    }
                };
                let got = loop {
                    match queue.pop_at(now) {
                        Some(event) if stale[event.kind as usize] => queue_stale = true,
                        other => break other,
                    }
                };
                assert_eq!(got.map(|event| event.key()), expected.map(|event| event.key()), "seed {seed} at {now}");
                if expected.is_none() {
                    break;
                }
                // Handling an event: another may go stale, events may follow at now or later.
                if rng.below(3) == 0 {
                    rng.make_stale(&mut stale);
                }
                if rng.below(2) == 0 {
                    let time = now + rng.below(3) as f64;
                    seen.compactions += push_both(time, &mut stale, &mut queue, &mut reference);
                }
            }
            let taken_out = queue.stale_taken_out_at(now);
            assert_eq!(queue_stale || taken_out, reference_stale, "seed {seed} at {now}");
            seen.with_stale += usize::from(reference_stale);
            seen.only_taken_out += usize::from(reference_stale && !queue_stale);
            // The decision: ticks and completions, some at now; others go stale.
            for _ in 0..rng.below(4) {
                let time = now + rng.below(30) as f64;
                seen.compactions += push_both(time, &mut stale, &mut queue, &mut reference);
            }
            for _ in 0..rng.below(3) {
                rng.make_stale(&mut stale);
            }
        }
        seen
    }

    #[test]
    fn taking_stale_events_out_changes_nothing_the_loop_sees() {
        let mut total = Seen::default();
        for seed in 0..200 {
            for min_compact in [1, 4, 32] {
                let seen = agree(seed, min_compact, 400);
                total.instants += seen.instants;
                total.with_stale += seen.with_stale;
                total.only_taken_out += seen.only_taken_out;
                total.compactions += seen.compactions;
            }
        }
        // The comparison has teeth: stale events share instants, and often only the keys
        // taken out know it.
        assert!(total.instants > 100_000, "{}", total.instants);
        assert!(total.only_taken_out > 500, "{} of {}", total.only_taken_out, total.with_stale);
        assert!(total.compactions > 1_000, "{}", total.compactions);
    }

    #[test]
    fn the_heap_stays_near_the_live_events() {
        // One live event, and a stale one pushed at every step: the heap stays bounded.
        let mut queue = EventQueue::new();
        let mut live_id = 0;
        for id in 1..100_000u32 {
            queue.push(Time::from_secs(f64::from(id) * 1e3), id, |&kind| kind == live_id);
            live_id = id;
        }
        assert!(queue.heap.len() <= 2 * MIN_COMPACT, "{}", queue.heap.len());
        assert!(queue.taken_out.len() <= 20, "{}", queue.taken_out.len());
    }
}

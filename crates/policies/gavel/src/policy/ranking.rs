//! The order in which a round serves combinations (a job alone, or two sharing GPUs): each
//! (combination, GPU type) ranked by its priority, and the selection that walks that order.

use super::*;

/// What the round mechanism schedules: one job alone, or two jobs sharing GPUs (packing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Combo {
    /// A job alone.
    Single(JobId),
    /// Two jobs sharing the same GPUs, lower id first.
    Pair(JobId, JobId),
}

impl Combo {
    /// `job` alone, or in a pair with the partner it shares its GPUs with.
    pub(super) fn of(job: JobId, partner: Option<JobId>) -> Combo {
        match partner {
            Some(partner) => Combo::Pair(job.min(partner), job.max(partner)),
            None => Combo::Single(job),
        }
    }

    pub(super) fn jobs(self) -> impl Iterator<Item = JobId> {
        let (first, second) = match self {
            Combo::Single(job) => (job, None),
            Combo::Pair(a, b) => (a, Some(b)),
        };
        std::iter::once(first).chain(second)
    }
}

/// One (combination, type) entry of a round's priority order, with its tie-breaks.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ranked {
    pub(super) priority: f64,
    /// Gavel's deficit and the allocation (`tie_break=deficit`), else zeros.
    pub(super) tie: (f64, f64),
    pub(super) combo: Combo,
    pub(super) gpu_type: usize,
    /// GPUs the combination needs at once ([`JobAccount::gang`]).
    pub(super) gang: u32,
}

impl Ranked {
    /// The round's order: highest priority first, then the ties, then combination and type
    /// (unique, so the order is total).
    pub(super) fn order(a: &Ranked, b: &Ranked) -> Ordering {
        b.priority
            .total_cmp(&a.priority)
            .then(b.tie.0.total_cmp(&a.tie.0))
            .then(b.tie.1.total_cmp(&a.tie.1))
            .then(a.combo.cmp(&b.combo))
            .then(a.gpu_type.cmp(&b.gpu_type))
    }
}

/// What a round's selection chose, and what the next round's floors start from.
pub(super) struct Selection {
    /// (combination, type) in the order chosen.
    pub(super) chosen: Vec<(Combo, usize)>,
    /// Per list, the priority of the last entry popped from it (0 where none was).
    pub(super) lowest: Vec<f64>,
    /// A list ran out of entries while it left some out: only a full ranking decides.
    pub(super) ran_dry: bool,
}

impl Gavel {
    /// (priority, combination, type) for every combination whose jobs all pass `eligible` and
    /// every type it has time on, highest priority first.
    pub(super) fn ranked(&self, eligible: impl Fn(JobId) -> bool) -> Vec<(f64, Combo, usize)> {
        let mut entries = vec![Vec::new()];
        self.rank_entries(eligible, false, &[], &mut entries);
        let mut entries = entries.pop().expect("one list");
        entries.sort_by(Ranked::order);
        entries.into_iter().map(|entry| (entry.priority, entry.combo, entry.gpu_type)).collect()
    }

    /// The entries of [`Gavel::ranked`], unsorted, into `lists` (cleared first): all in
    /// `lists[0]`, or with `by_type` each in its type's list (`lists` grows to one per type).
    /// An entry whose priority is below its list's floor in `floors` (where positive) is left
    /// out; returns how many each list left out.
    pub(super) fn rank_entries(
        &self,
        eligible: impl Fn(JobId) -> bool,
        by_type: bool,
        floors: &[f64],
        lists: &mut Vec<Vec<Ranked>>,
    ) -> Vec<usize> {
        let fill_unallocated = self.fill_unallocated;
        let wanted = if by_type { self.given.len().max(1) } else { 1 };
        lists.resize_with(wanted.max(lists.len()), Vec::new);
        lists.iter_mut().for_each(Vec::clear);
        let mut left_out = vec![0; lists.len()];
        for (&combo, account) in &self.accounts {
            if !combo.jobs().all(&eligible) {
                continue;
            }
            for (gpu_type, &fraction) in account.allocation.iter().enumerate() {
                let allocated = fraction > 1e-9;
                if !(allocated || fill_unallocated && account.usable[gpu_type]) {
                    continue;
                }
                let share =
                    if self.given[gpu_type] > 0.0 { account.received[gpu_type] / self.given[gpu_type] } else { 0.0 };
                // As Gavel: a combination that received nothing on this type gets a large finite
                // priority scaled by its allocation, so that new jobs run in proportion to it.
                // An unallocated (job, type) ranks at 0 (Gavel's `_update_priorities`).
                let priority = if !allocated {
                    0.0
                } else if share > 0.0 {
                    fraction / share
                } else {
                    fraction * 1e9
                };
                // Ties: by Gavel's deficit and then the allocation (`tie_break=deficit`), else
                // straight to job ids and type order.
                let list = if by_type { gpu_type } else { 0 };
                if floors.get(list).is_some_and(|&floor| floor > 0.0 && priority < floor) {
                    left_out[list] += 1;
                    continue;
                }
                let tie = if self.deficit_ties { (account.deficit[gpu_type], fraction) } else { (0.0, 0.0) };
                lists[list].push(Ranked { priority, tie, combo, gpu_type, gang: account.gang });
            }
        }
        left_out
    }

    /// A round's choice of (combination, type) by per-type GPU budget in priority order, each
    /// job at most once: `passes` go over the lists `rank_entries` fills (one list, or one per
    /// type), each until its budget is spent. With `floors`, a list that ran dry while it left
    /// entries out makes the result `ran_dry`, and only a full ranking decides.
    pub(super) fn select(
        &self,
        context: &Context<'_>,
        passes: &[Option<usize>],
        by_type: bool,
        floors: &[f64],
        lists: &mut Vec<Vec<Ranked>>,
    ) -> Selection {
        let mut budget: Vec<u32> = context.cluster.gpus_per_type().to_vec();
        let mut chosen: Vec<(Combo, usize)> = Vec::new();
        let left_out = self.rank_entries(|id| context.jobs.get(id).is_some(), by_type, floors, lists);
        // Jobs chosen so far, one bit per job id (grown as ids come).
        let mut scheduled: Vec<u64> = Vec::new();
        let is_scheduled = |scheduled: &[u64], id: JobId| {
            scheduled.get(id.index() / 64).is_some_and(|word| word & (1 << (id.index() % 64)) != 0)
        };
        let mut lowest: Vec<f64> = vec![0.0; lists.len()];
        let mut ran_dry = false;
        // One reading per list, kept across passes (a type listed twice in `type_order` goes on
        // where its first pass stopped).
        let mut queues: Vec<InOrder> = lists.iter_mut().map(|list| InOrder::new(list)).collect();
        for &pass in passes {
            let list = pass.unwrap_or(0);
            let queue = &mut queues[list];
            // A pass over one type also stops once no entry left in its list fits the GPUs
            // left: reading on would choose nothing (as when the list runs out).
            let mut fits = pass.map(|only| Fits::new(queue.rest(), budget[only]));
            let mut stopped = false;
            while let Some(Ranked { priority, combo, gpu_type, gang, .. }) = queue.next() {
                lowest[list] = priority;
                let spent = match pass {
                    Some(only) => budget[only] == 0,
                    None => budget.iter().all(|&left| left == 0),
                };
                if spent {
                    break;
                }
                if let Some(fits) = fits.as_mut() {
                    fits.read(gang);
                }
                if !combo.jobs().any(|id| is_scheduled(&scheduled, id)) && budget[gpu_type] >= gang {
                    budget[gpu_type] -= gang;
                    for id in combo.jobs() {
                        let word = id.index() / 64;
                        if scheduled.len() <= word {
                            scheduled.resize(word + 1, 0);
                        }
                        scheduled[word] |= 1 << (id.index() % 64);
                    }
                    chosen.push((combo, gpu_type));
                    if let Some(fits) = fits.as_mut() {
                        fits.shrink_budget(budget[gpu_type]);
                    }
                }
                if let (Some(only), Some(fits)) = (pass, fits.as_ref())
                    && fits.none_left()
                {
                    // Spent, or nothing left fits what is left (which reading on to the end of
                    // the list would also have found).
                    stopped = budget[only] > 0;
                    debug_assert!(queue.rest().iter().all(|entry| entry.gang > budget[only]));
                    break;
                }
            }
            ran_dry |= (queue.is_empty() || stopped) && left_out[list] > 0;
        }
        Selection { chosen, lowest, ran_dry }
    }
}

/// How many unread entries of a pass's list need no more GPUs than the pass has left.
struct Fits {
    /// Unread entries by gang size, for gangs up to the budget the pass started with.
    by_gang: Vec<usize>,
    budget: u32,
    /// Unread entries whose gang is at most `budget`.
    fitting: usize,
}

impl Fits {
    fn new(unread: &[Ranked], budget: u32) -> Fits {
        let mut by_gang = vec![0; budget as usize + 1];
        for entry in unread {
            if entry.gang <= budget {
                by_gang[entry.gang as usize] += 1;
            }
        }
        let fitting = by_gang.iter().sum();
        Fits { by_gang, budget, fitting }
    }

    /// An entry of gang `gang` was read.
    fn read(&mut self, gang: u32) {
        if gang <= self.budget {
            self.by_gang[gang as usize] -= 1;
            self.fitting -= 1;
        } else if let Some(count) = self.by_gang.get_mut(gang as usize) {
            *count -= 1;
        }
    }

    /// The pass has `budget` GPUs left.
    fn shrink_budget(&mut self, budget: u32) {
        while self.budget > budget {
            self.fitting -= self.by_gang[self.budget as usize];
            self.budget -= 1;
        }
    }

    fn none_left(&self) -> bool {
        self.fitting == 0
    }
}

/// A list's entries in [`Ranked::order`], sorted only as far as they are read: a pass reads
/// about half of its list (118 of 230 entries on average on Gavel's multi-GPU stream). The list
/// is sorted in chunks (the next `chunk` entries picked out of the rest by
/// `select_nth_unstable`, then sorted), the first of 64 entries and each twice the one before;
/// the order is total, so this yields what a full sort would.
pub(super) struct InOrder<'a> {
    entries: &'a mut [Ranked],
    /// `entries[..sorted]` are the first entries of the order, sorted.
    sorted: usize,
    /// The next entry to yield.
    next: usize,
    /// How many entries the next chunk sorts.
    chunk: usize,
}

impl<'a> InOrder<'a> {
    /// Reads `entries` from the first of the order (it reorders them as it goes).
    pub(super) fn new(entries: &'a mut [Ranked]) -> Self {
        InOrder { entries, sorted: 0, next: 0, chunk: 64 }
    }

    /// The entries not yet yielded (in no particular order past the sorted part).
    fn rest(&self) -> &[Ranked] {
        &self.entries[self.next..]
    }

    /// Whether every entry has been yielded.
    pub(super) fn is_empty(&self) -> bool {
        self.next == self.entries.len()
    }
}

impl Iterator for InOrder<'_> {
    type Item = Ranked;

    fn next(&mut self) -> Option<Ranked> {
        if self.next == self.sorted {
            let rest = &mut self.entries[self.sorted..];
            if rest.is_empty() {
                return None;
            }
            let take = self.chunk.min(rest.len());
            if take < rest.len() {
                rest.select_nth_unstable_by(take - 1, Ranked::order);
            }
            rest[..take].sort_unstable_by(Ranked::order);
            self.sorted += take;
            self.chunk *= 2;
        }
        self.next += 1;
        Some(self.entries[self.next - 1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn fits_counts_the_unread_entries_that_fit_what_is_left() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for _ in 0..200 {
            let gangs: Vec<u32> =
                (0..rng.random_range(0..40)).map(|_| [1, 2, 4, 8, 16][rng.random_range(0..5)]).collect();
            let entries: Vec<Ranked> = gangs
                .iter()
                .enumerate()
                .map(|(id, &gang)| Ranked {
                    priority: 0.0,
                    tie: (0.0, 0.0),
                    combo: Combo::Single(JobId(id as u32)),
                    gpu_type: 0,
                    gang,
                })
                .collect();
            let mut budget = rng.random_range(0..12);
            let mut fits = Fits::new(&entries, budget);
            for (read, entry) in entries.iter().enumerate() {
                let brute = entries[read..].iter().all(|unread| unread.gang > budget);
                assert_eq!(fits.none_left(), brute);
                fits.read(entry.gang);
                if entry.gang <= budget && rng.random_bool(0.5) {
                    budget -= entry.gang;
                    fits.shrink_budget(budget);
                }
            }
            assert!(fits.none_left());
        }
    }
}

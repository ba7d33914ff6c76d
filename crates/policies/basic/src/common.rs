//! Shared building blocks: start jobs in an order (non-preemptive), or run the jobs at the
//! top of a priority order (preemptive).

use schedlab_cluster::Placer;
use schedlab_core::{Allocation, ClusterView, Context, Decision, JobId, JobView, Time};

/// Non-preemptive: walks `order` and starts each job that fits on the free resources.
///
/// With `backfill` false the walk stops at the first job that does not fit (strict order);
/// with `backfill` true it goes on and starts later jobs that fit.
pub fn start_in_order<'a>(
    context: &Context<'_>,
    placer: &Placer,
    order: impl IntoIterator<Item = &'a JobView>,
    backfill: bool,
) -> Vec<(JobId, Allocation)> {
    let mut plan: Option<ClusterView> = None;
    let mut starts = Vec::new();
    let mut order = order.into_iter().peekable();
    while let Some(job) = order.next() {
        let cluster = plan.as_ref().unwrap_or(context.cluster);
        if cluster.total_free() == 0 {
            break;
        }
        let placed = if job.gpus <= cluster.total_free() { placer.place_job(cluster, job) } else { None };
        match placed {
            Some(allocation) => {
                // Copy the cluster only when another job may follow: most decisions start one.
                if order.peek().is_some() {
                    let plan = plan.get_or_insert_with(|| context.cluster.clone());
                    plan.take(&allocation, job.cpu_demand()).expect("the placer only returns free resources");
                }
                starts.push((job.id, allocation));
            }
            None if backfill => continue,
            None => break,
        }
    }
    starts
}

/// Returns true if and only if every waiting job fits in the free GPU count, so that a
/// preemptive policy selecting by GPU count (see [`run_top_of_order`]) selects every job and
/// preempts none: it then only has to place the waiting jobs, in its priority order.
pub fn all_waiting_fit(context: &Context<'_>) -> bool {
    let mut waiting = 0u32;
    for job in context.jobs.queued() {
        waiting += job.gpus;
        if waiting > context.cluster.total_free() {
            return false;
        }
    }
    true
}

/// Preemptive: runs the jobs at the top of `order` (highest priority first; each active job at
/// most once).
///
/// As in Tiresias' simulator, jobs are first selected by GPU count alone: walking the order,
/// a job is selected if its GPUs fit in what the selected jobs above it left of the cluster's
/// total. Running jobs that are not selected are preempted; selected running jobs stay where
/// they are; selected waiting jobs are placed in order on what is then free. A selected job
/// that cannot be placed because free GPUs are fragmented waits for the next decision.
pub fn run_top_of_order(
    context: &Context<'_>,
    placer: &Placer,
    order: &[&JobView],
    next_tick: Option<Time>,
) -> Decision {
    let mut budget = context.cluster.spec().total_gpus();
    let mut selected = vec![false; order.len()];
    // One past the last selected job: the walks below stop there or earlier.
    let mut selected_end = 0;
    for (index, job) in order.iter().enumerate() {
        if job.gpus <= budget {
            selected[index] = true;
            selected_end = index + 1;
            budget -= job.gpus;
            if budget == 0 {
                break;
            }
        }
    }
    let candidates = order[..selected_end].iter().zip(&selected[..selected_end]);
    let mut preempted: Vec<&JobView> = Vec::new();
    // `order` holds each active job at most once, so the walk may stop at its last running job.
    let mut running_left = context.jobs.n_running();
    for (job, selected) in order.iter().zip(&selected) {
        if running_left == 0 {
            break;
        }
        if !job.is_running() {
            continue;
        }
        running_left -= 1;
        if !selected {
            preempted.push(job);
        }
    }
    let preempt: Vec<JobId> = preempted.iter().map(|job| job.id).collect();
    // Nothing to start: no plan of the cluster is needed (most of a slicing policy's ticks).
    if !candidates.clone().any(|(job, selected)| !job.is_running() && *selected) {
        return Decision { preempt, next_tick, ..Decision::none() };
    }
    let mut plan = context.cluster.clone();
    for job in &preempted {
        let allocation = job.allocation.as_ref().expect("a running job has an allocation");
        plan.release(allocation, job.cpu_demand());
    }
    let mut start = Vec::new();
    for (job, _) in candidates.filter(|(job, selected)| !job.is_running() && **selected) {
        if let Some(allocation) = placer.place_job(&plan, job) {
            plan.take(&allocation, job.cpu_demand()).expect("the placer only returns free resources");
            start.push((job.id, allocation));
        }
    }
    Decision { preempt, start, next_tick, ..Decision::none() }
}

/// The active jobs sorted by `(key, id)`, kept from one decision to the next.
///
/// A preemptive policy orders every active job at every decision, and with thousands of jobs
/// waiting a full sort at each one dominates a run. Between two decisions, though, only the
/// jobs that arrived, started or stopped usually change their key: [`KeptOrder::update`]
/// reads every job's key (linear), keeps the unchanged ones in their previous relative order,
/// sorts only the changed ones and merges them in. As `(key, id)` is unique, the result is
/// the order a full sort gives (debug builds check it at every decision); when the previous
/// order does not cover the active jobs, it falls back to a full sort.
#[derive(Clone, Debug)]
pub struct KeptOrder<K> {
    /// The order at the previous decision, then at this one.
    sorted: Vec<(K, JobId)>,
    /// Entries that changed or are new since the previous decision.
    changed: Vec<(K, JobId)>,
    /// Scratch space for the merge.
    merged: Vec<(K, JobId)>,
    /// Scratch space for [`KeptOrder::update_touched`]: which jobs it re-keys, by id.
    marked: Vec<bool>,
}

impl<K> Default for KeptOrder<K> {
    fn default() -> Self {
        KeptOrder { sorted: Vec::new(), changed: Vec::new(), merged: Vec::new(), marked: Vec::new() }
    }
}

impl<K: Ord + Copy> KeptOrder<K> {
    /// Brings the order up to date with the active jobs of `context` and returns it.
    pub fn update(&mut self, context: &Context<'_>, key: impl Fn(&JobView) -> K) -> &[(K, JobId)] {
        let KeptOrder { sorted, changed, .. } = self;
        changed.clear();
        sorted.retain(|&old| match context.jobs.get(old.1) {
            None => false,
            Some(job) => {
                let entry = (key(job), job.id);
                if entry != old {
                    changed.push(entry);
                }
                entry == old
            }
        });
        changed.extend(context.arrived.iter().filter_map(|&id| context.jobs.get(id)).map(|job| (key(job), job.id)));
        self.merge_changed(context, key)
    }

    /// [`KeptOrder::update`] for a policy that knows which jobs can have a new key: the jobs in
    /// `touched` (which it empties) are re-keyed, and every other job keeps its entry without
    /// its view being read. `touched` must hold every job that arrived, finished, started or
    /// stopped since the previous update (a policy whose keys change only then: Gandiva's). A
    /// missed one is caught when the count differs (a full sort follows) and, in debug builds,
    /// by the check against a full sort.
    pub fn update_touched(
        &mut self,
        context: &Context<'_>,
        key: impl Fn(&JobView) -> K,
        touched: &mut Vec<JobId>,
    ) -> &[(K, JobId)] {
        let KeptOrder { sorted, changed, marked, .. } = self;
        touched.sort_unstable();
        touched.dedup();
        if let Some(last) = touched.last() {
            if marked.len() <= last.index() {
                marked.resize(last.index() + 1, false);
            }
            for id in touched.iter() {
                marked[id.index()] = true;
            }
            sorted.retain(|entry| !marked.get(entry.1.index()).copied().unwrap_or(false));
            for id in touched.iter() {
                marked[id.index()] = false;
            }
        }
        changed.clear();
        changed.extend(touched.drain(..).filter_map(|id| context.jobs.get(id)).map(|job| (key(job), job.id)));
        self.merge_changed(context, key)
    }

    /// Sorts the changed entries and brings them into the kept order (or sorts every active job
    /// when the two lists do not cover the active jobs exactly once).
    fn merge_changed(&mut self, context: &Context<'_>, key: impl Fn(&JobView) -> K) -> &[(K, JobId)] {
        let KeptOrder { sorted, changed, merged, .. } = self;
        changed.sort_unstable();
        // Every active job must be in exactly one of the two lists; otherwise (decisions were
        // skipped while jobs arrived, or one arrival was seen twice) sort them all.
        // A few changed entries are inserted where they belong (a binary search each); many are
        // merged in one pass. Both give the sorted union.
        let few = changed.len() * FEW_CHANGED_PER_ENTRY <= sorted.len();
        let covered = sorted.len() + changed.len() == context.jobs.n_active()
            && changed.windows(2).all(|pair| pair[0] != pair[1])
            && if few { insert_sorted(sorted, changed) } else { merge_sorted(sorted, changed, merged) };
        if covered {
            if !few {
                std::mem::swap(sorted, merged);
            }
        } else {
            sorted.clear();
            sorted.extend(context.jobs.queued().chain(context.jobs.running()).map(|job| (key(job), job.id)));
            sorted.sort_unstable();
        }
        debug_assert!(
            {
                let mut full: Vec<(K, JobId)> = context.jobs.active().map(|job| (key(job), job.id)).collect();
                full.sort_unstable();
                full == *sorted
            },
            "the kept order differs from a full sort"
        );
        sorted
    }
}

/// [`KeptOrder::update`] inserts the changed entries one by one when there are at most one per
/// this many unchanged ones, and merges the two lists otherwise.
const FEW_CHANGED_PER_ENTRY: usize = 16;

/// Inserts the sorted entries `new` into the sorted list `sorted`; returns false (leaving
/// `sorted` partly updated) if an entry is in both.
fn insert_sorted<T: Ord + Copy>(sorted: &mut Vec<T>, new: &[T]) -> bool {
    let mut from = 0;
    for &entry in new {
        match sorted[from..].binary_search(&entry) {
            Ok(_) => return false,
            Err(offset) => {
                sorted.insert(from + offset, entry);
                from += offset + 1;
            }
        }
    }
    true
}

/// Merges two sorted lists into `merged`; returns false if an entry is in both.
fn merge_sorted<T: Ord + Copy>(old: &[T], new: &[T], merged: &mut Vec<T>) -> bool {
    merged.clear();
    merged.reserve(old.len() + new.len());
    let (mut i, mut j) = (0, 0);
    while i < old.len() && j < new.len() {
        match old[i].cmp(&new[j]) {
            std::cmp::Ordering::Less => {
                merged.push(old[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                merged.push(new[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => return false,
        }
    }
    merged.extend_from_slice(&old[i..]);
    merged.extend_from_slice(&new[j..]);
    true
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use schedlab_core::{ClusterSpec, GpuTypeId, GpuTypeSet, JobSpec, JobsView, Node, NodeId, Time};
    use std::sync::Arc;

    /// A decision's context at `now` with these arrivals and nothing finished.
    pub(crate) fn context_at<'a>(
        now: Time,
        cluster: &'a ClusterView,
        jobs: &'a JobsView,
        arrived: &'a [JobId],
    ) -> Context<'a> {
        Context { now, cluster, jobs, arrived, finished: &[], rate_changed: &[], tick: false }
    }

    /// Random arrivals, starts, stops and finishes, with decisions sometimes skipped (as a
    /// policy's fast path does): the kept order is always the full sort's, whether many entries
    /// change between decisions (merged) or few (inserted).
    #[test]
    fn kept_order_is_always_the_full_sort() {
        for touched in [false, true] {
            let (_, merged) = kept_order_matches_the_full_sort(10, touched);
            assert!(merged > 1_000, "{merged} decisions merged");
            let (inserted, _) = kept_order_matches_the_full_sort(300, touched);
            assert!(inserted > 1_000, "{inserted} decisions inserted");
        }
    }

    /// Each active job finishes, stops or starts with probability `1 / churn` per decision.
    /// Returns how many decisions inserted their changes and how many merged them.
    /// With `touched`, the order is updated by [`KeptOrder::update_touched`] with every job
    /// that arrived, finished, started or stopped since the last update.
    fn kept_order_matches_the_full_sort(churn: u64, touched: bool) -> (usize, usize) {
        let (mut inserted, mut merged) = (0, 0);
        let node = Node { name: "n".into(), gpu_type: GpuTypeId(0), gpus: 8, cpus: None, mem_gib: None, group: None };
        let cluster = ClusterView::new(Arc::new(ClusterSpec::new(vec!["gpu".into()], vec![node]).unwrap()));
        let mut jobs = JobsView::with_capacity(0);
        let mut order = KeptOrder::default();
        let mut state = 2026u64;
        let mut draw = |below: u64| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) % below
        };
        let mut next_id = 0u32;
        let mut changed_since: Vec<JobId> = Vec::new();
        for step in 1..2_000u32 {
            let now = Time::from_secs(f64::from(step));
            let mut arrived = Vec::new();
            for _ in 0..draw(3) {
                let spec = JobSpec::new(JobId(next_id), now, 1, "t", 100.0);
                jobs.insert(JobView::arrived(&spec, GpuTypeSet::ALL, None));
                arrived.push(JobId(next_id));
                changed_since.push(JobId(next_id));
                next_id += 1;
            }
            let active: Vec<JobId> = jobs.active().map(|job| job.id).collect();
            for id in active {
                let running = jobs.get(id).unwrap().is_running();
                let fate = draw(churn);
                if fate == 0 || (fate == 1 && running) || (fate == 2 && !running) {
                    changed_since.push(id);
                }
                match fate {
                    0 => {
                        jobs.remove(id);
                    }
                    1 if running => {
                        jobs.get_mut(id).unwrap().record_stop(now);
                        jobs.sync_state(id);
                    }
                    2 if !running => {
                        jobs.get_mut(id).unwrap().record_start(now, Allocation::on_node(NodeId(0), 1), 1.0, now);
                        jobs.sync_state(id);
                    }
                    _ => {}
                }
            }
            if draw(5) == 0 {
                continue; // a skipped decision: its arrivals are never reported
            }
            let context = context_at(now, &cluster, &jobs, &arrived);
            let key = |job: &JobView| (job.last_change.unwrap_or(job.arrival), job.is_running());
            let kept: Vec<((Time, bool), JobId)> = if touched {
                order.update_touched(&context, key, &mut changed_since).to_vec()
            } else {
                order.update(&context, key).to_vec()
            };
            assert!(changed_since.is_empty() || !touched);
            changed_since.clear();
            if order.changed.len() * FEW_CHANGED_PER_ENTRY <= kept.len() - order.changed.len() {
                inserted += 1;
            } else {
                merged += 1;
            }
            let mut full: Vec<((Time, bool), JobId)> = jobs.active().map(|job| (key(job), job.id)).collect();
            full.sort_unstable();
            assert_eq!(kept, full, "step {step}");
        }
        assert!(next_id > 1_000, "the test made {next_id} jobs");
        (inserted, merged)
    }
}

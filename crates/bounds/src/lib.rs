//! Proof-backed bounds on what any scheduler can reach on a workload: relaxations of the
//! cluster scheduling problem that no schedule of a stated class can beat.
//!
//! The class: rigid jobs, each on exactly the GPUs it requests, of one type its pool offers,
//! running at that type's rate (schedlab's `rigid` and `trace_duration` perf models), holding
//! its GPUs for its restart overhead before it progresses when the run charges one at a first
//! start. Preemption, migration, any order and any placement are allowed for the JCT and
//! makespan bounds; the queueing-delay and utilisation bounds hold for non-preemptive schedules
//! (each job started once and run to completion), which include RLTune's job orders. Every
//! measured job is assumed to finish.
//!
//! With `n` jobs, `r_j` arrival, `g_j` GPUs, `o_j` overhead, `p_j` fastest and `P_j` slowest
//! run time over the types it may use, and `C` the cluster's GPUs:
//! - **Per job**: `C_j >= r_j + o_j + p_j`.
//! - **Squashed machine** (for the whole cluster and for each pool that confines its jobs):
//!   every schedule gives a fractional schedule of one machine of capacity `C` that works on
//!   job `j` at `g_j / C` of its speed whenever `j` holds GPUs, so `j`'s squashed work
//!   `s_j = g_j (o_j + p_j)` is done by `C_j`; SRPT minimises the sum of completion times of
//!   that machine over every preemptive (even processor-sharing) schedule with release dates,
//!   so `sum C_j >= sum C_j(SRPT)`. Pools with disjoint nodes add up.
//! - **Makespan**: the squashed machine cannot finish before its work released in arrival
//!   order is done, nor any job before `r_j + o_j + p_j`.
//! - **Queueing delay** (non-preemptive): `C_j = S_j + o_j + p_{j,type}`, so
//!   `sum (S_j - r_j) >= sum C_j - sum (r_j + o_j + P_j)`.
//! - **Utilisation** (non-preemptive): busy GPU-seconds are at most `sum g_j (o_j + P_j)`
//!   over a span of at least the makespan bound.
//!
//! `tests/exhaustive.rs` checks every bound against every job order of small instances run
//! through the engine, and prints how tight each is.

use schedlab_cluster::{PerfError, PerfModel};
use schedlab_core::{ClusterSpec, JobSpec};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// One job as the relaxations see it (times in seconds).
#[derive(Clone, Debug, PartialEq)]
pub struct RelaxedJob {
    /// Arrival.
    pub arrival: f64,
    /// GPUs it holds while it runs.
    pub gpus: u32,
    /// Overhead paid, holding its GPUs, before it progresses at its first start.
    pub overhead: f64,
    /// Run time on the fastest GPU type it may use.
    pub fastest: f64,
    /// Run time on the slowest GPU type it may use.
    pub slowest: f64,
    /// The capacity group (index into [`Instance::groups`]) whose GPUs alone it may use.
    pub group: usize,
}

/// A workload on a cluster, as the relaxations see it.
#[derive(Clone, Debug, PartialEq)]
pub struct Instance {
    /// The jobs.
    pub jobs: Vec<RelaxedJob>,
    /// GPUs of each capacity group. Groups are disjoint sets of GPUs when `disjoint`.
    pub groups: Vec<u32>,
    /// Whether the groups' GPU sets are pairwise disjoint (pools); otherwise they may overlap
    /// and only the whole cluster's machine is used.
    pub disjoint: bool,
    /// The cluster's GPUs (every type), the denominator of utilisation.
    pub total_gpus: u32,
}

/// What no schedule of the class can beat, as averages over the jobs (seconds, or a share).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// Lower bound on the mean JCT (any rigid schedule, preemptive or not).
    pub avg_jct: f64,
    /// Lower bound on the mean queueing delay (first start minus arrival) of non-preemptive
    /// schedules.
    pub avg_queueing_delay: f64,
    /// Lower bound on the makespan, last finish minus first arrival (any rigid schedule).
    pub makespan: f64,
    /// Upper bound on utilisation over that span (non-preemptive schedules).
    pub utilization: f64,
}

/// Builds the relaxed instance of `jobs` on `cluster` under `perf`, each job's first start
/// charged `first_start_overhead` seconds (0 when the run charges none) or its own restart
/// overhead. A job's usable GPUs are the nodes of its pool whose type it may run on (its
/// required type, and a rate above 0 at its requested size).
///
/// # Errors
/// Names the job when it has no usable type, and passes on the perf model's errors other than
/// "cannot run there".
pub fn instance(
    jobs: &[JobSpec],
    cluster: &ClusterSpec,
    perf: &dyn PerfModel,
    first_start_overhead: Option<f64>,
) -> Result<Instance, String> {
    let types = cluster.gpu_types();
    let mut sets: Vec<Vec<bool>> = Vec::new();
    let mut relaxed = Vec::with_capacity(jobs.len());
    for job in jobs {
        // Every type the job may run on, whatever its GPUs there: an allocation over several
        // types runs at its slowest part's rate, so the fastest and slowest single types bound
        // every allocation's run time.
        let mut usable = vec![false; cluster.nodes().len()];
        let (mut fastest, mut slowest) = (f64::INFINITY, 0.0f64);
        for (type_index, type_name) in types.iter().enumerate() {
            if job.gpu_type.as_ref().is_some_and(|required| required != type_name) {
                continue;
            }
            let rate = match perf.rate(job, type_name, job.gpus) {
                Ok(rate) if rate > 0.0 => rate,
                Ok(_) | Err(PerfError::Unsupported { .. }) => continue,
                Err(error) => return Err(format!("job {}: {error}", job.id.0)),
            };
            let mut any = false;
            for (index, node) in cluster.nodes().iter().enumerate() {
                if usize::from(node.gpu_type.0) == type_index
                    && node.gpus > 0
                    && job.pool.as_deref().is_none_or(|pool| node.in_group(pool))
                {
                    usable[index] = true;
                    any = true;
                }
            }
            if any {
                fastest = fastest.min(job.work / rate);
                slowest = slowest.max(job.work / rate);
            }
        }
        let usable_gpus: u32 =
            usable.iter().zip(cluster.nodes()).filter(|(used, _)| **used).map(|(_, node)| node.gpus).sum();
        if usable_gpus < job.gpus {
            fastest = f64::INFINITY;
        }
        if !fastest.is_finite() {
            return Err(format!(
                "job {} ({} GPUs{}{}): no GPU type of the cluster can run it",
                job.id.0,
                job.gpus,
                job.pool.as_ref().map_or(String::new(), |pool| format!(", pool {pool}")),
                job.gpu_type.as_ref().map_or(String::new(), |kind| format!(", type {kind}")),
            ));
        }
        let group = match sets.iter().position(|set| *set == usable) {
            Some(group) => group,
            None => {
                sets.push(usable);
                sets.len() - 1
            }
        };
        let overhead = first_start_overhead.map_or(0.0, |default| job.restart_overhead.unwrap_or(default));
        relaxed.push(RelaxedJob { arrival: job.arrival.secs(), gpus: job.gpus, overhead, fastest, slowest, group });
    }
    let gpus_of =
        |set: &[bool]| set.iter().zip(cluster.nodes()).filter(|(used, _)| **used).map(|(_, node)| node.gpus).sum();
    let disjoint =
        (0..sets.len()).all(|a| (a + 1..sets.len()).all(|b| sets[a].iter().zip(&sets[b]).all(|(x, y)| !(*x && *y))));
    Ok(Instance {
        jobs: relaxed,
        groups: sets.iter().map(|set| gpus_of(set)).collect(),
        disjoint,
        total_gpus: cluster.total_gpus(),
    })
}

/// A job on the squashed machine: release and remaining work in GPU-seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Remaining(f64);

impl Eq for Remaining {}
impl PartialOrd for Remaining {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Remaining {
    // Smallest remaining work first out of a max-heap.
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.total_cmp(&self.0)
    }
}

/// The sum of completion times of SRPT on one machine that does `capacity` units of work per
/// second, for jobs given as `(release, work)`.
pub fn srpt_completion_sum(jobs: &[(f64, f64)], capacity: f64) -> f64 {
    let mut order: Vec<(f64, f64)> = jobs.to_vec();
    order.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut heap: BinaryHeap<Remaining> = BinaryHeap::new();
    let (mut time, mut next, mut sum) = (f64::NEG_INFINITY, 0, 0.0);
    while next < order.len() || !heap.is_empty() {
        if heap.is_empty() {
            time = time.max(order[next].0);
        }
        while next < order.len() && order[next].0 <= time {
            heap.push(Remaining(order[next].1));
            next += 1;
        }
        let Remaining(work) = heap.pop().expect("a released job");
        let finish = time + work / capacity;
        match order.get(next) {
            Some(&(release, _)) if release < finish => {
                heap.push(Remaining(work - (release - time) * capacity));
                time = release;
            }
            _ => {
                sum += finish;
                time = finish;
            }
        }
    }
    sum
}

/// When one machine of `capacity` finishes work released as `(release, work)`, taken in
/// release order without idling while any is released.
fn squashed_finish(jobs: &[(f64, f64)], capacity: f64) -> f64 {
    let mut order: Vec<(f64, f64)> = jobs.to_vec();
    order.sort_by(|a, b| a.0.total_cmp(&b.0));
    order.iter().fold(f64::NEG_INFINITY, |time, &(release, work)| time.max(release) + work / capacity)
}

/// The bounds of an instance (see the crate documentation for the proofs).
pub fn bounds(instance: &Instance) -> Bounds {
    let jobs = &instance.jobs;
    let n = jobs.len() as f64;
    if jobs.is_empty() {
        return Bounds { avg_jct: f64::NAN, avg_queueing_delay: f64::NAN, makespan: f64::NAN, utilization: f64::NAN };
    }
    let squashed = |job: &RelaxedJob| (job.arrival, f64::from(job.gpus) * (job.overhead + job.fastest));
    let arrivals: f64 = jobs.iter().map(|job| job.arrival).sum();
    let per_job: f64 = jobs.iter().map(|job| job.arrival + job.overhead + job.fastest).sum();
    // The whole cluster's machine: the GPUs any job may use.
    let usable = if instance.disjoint { instance.groups.iter().sum() } else { instance.total_gpus };
    let all: Vec<(f64, f64)> = jobs.iter().map(squashed).collect();
    let mut completion_sum = per_job.max(srpt_completion_sum(&all, f64::from(usable)));
    let mut finish = jobs
        .iter()
        .map(|job| job.arrival + job.overhead + job.fastest)
        .fold(squashed_finish(&all, f64::from(usable)), f64::max);
    if instance.disjoint && instance.groups.len() > 1 {
        let mut pooled = 0.0;
        for (group, &gpus) in instance.groups.iter().enumerate() {
            let members: Vec<(f64, f64)> = jobs.iter().filter(|job| job.group == group).map(squashed).collect();
            pooled += srpt_completion_sum(&members, f64::from(gpus));
            finish = finish.max(squashed_finish(&members, f64::from(gpus)));
        }
        completion_sum = completion_sum.max(pooled);
    }
    let first = jobs.iter().map(|job| job.arrival).fold(f64::INFINITY, f64::min);
    let slowest_sum: f64 = jobs.iter().map(|job| job.overhead + job.slowest).sum();
    let busy: f64 = jobs.iter().map(|job| f64::from(job.gpus) * (job.overhead + job.slowest)).sum();
    let span = finish - first;
    Bounds {
        avg_jct: (completion_sum - arrivals) / n,
        avg_queueing_delay: ((completion_sum - arrivals - slowest_sum) / n).max(0.0),
        makespan: span,
        utilization: if span > 0.0 { (busy / (f64::from(instance.total_gpus) * span)).min(1.0) } else { 1.0 },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn srpt_by_hand() {
        // One unit per second. Job A (0, 4), B (1, 1): B preempts A at 1 and ends at 2, A ends
        // at 5: sum 7 (FIFO would give 4 + 5 = 9).
        assert_eq!(srpt_completion_sum(&[(0.0, 4.0), (1.0, 1.0)], 1.0), 7.0);
        // Twice the capacity halves the times: B at 1.5, A at 2.5.
        assert_eq!(srpt_completion_sum(&[(0.0, 4.0), (1.0, 1.0)], 2.0), 4.0);
        // An idle gap: A (0, 1) ends at 1, B (5, 2) at 7.
        assert_eq!(srpt_completion_sum(&[(5.0, 2.0), (0.0, 1.0)], 1.0), 8.0);
        assert_eq!(squashed_finish(&[(0.0, 4.0), (1.0, 1.0)], 1.0), 5.0);
    }

    fn job(arrival: f64, gpus: u32, time: f64, group: usize) -> RelaxedJob {
        RelaxedJob { arrival, gpus, overhead: 0.0, fastest: time, slowest: time, group }
    }

    #[test]
    fn bounds_by_hand() {
        // Two 4-GPU jobs of 10 s at 0 on 4 GPUs: one waits for the other. Squashed: 40 GPU-s
        // each at 4 GPU/s: SRPT ends them at 10 and 20, sum 30, mean JCT 15; queueing
        // (30 - 0 - 20) / 2 = 5; makespan 20; utilisation 80 / (4 x 20) = 1.
        let instance = Instance {
            jobs: vec![job(0.0, 4, 10.0, 0), job(0.0, 4, 10.0, 0)],
            groups: vec![4],
            disjoint: true,
            total_gpus: 4,
        };
        let bounds = bounds(&instance);
        assert_eq!(
            (bounds.avg_jct, bounds.avg_queueing_delay, bounds.makespan, bounds.utilization),
            (15.0, 5.0, 20.0, 1.0)
        );
        // The same jobs in two pools of 4 GPUs each (8 in all): both run at once.
        let pools = Instance {
            jobs: vec![job(0.0, 4, 10.0, 0), job(0.0, 4, 10.0, 1)],
            groups: vec![4, 4],
            disjoint: true,
            total_gpus: 8,
        };
        let bounds = super::bounds(&pools);
        assert_eq!(
            (bounds.avg_jct, bounds.avg_queueing_delay, bounds.makespan, bounds.utilization),
            (10.0, 0.0, 10.0, 1.0)
        );
        // Both jobs in one pool of 4 of the 8 GPUs: the pool's machine makes them queue.
        let crowded = Instance {
            jobs: vec![job(0.0, 4, 10.0, 0), job(0.0, 4, 10.0, 0)],
            groups: vec![4],
            disjoint: true,
            total_gpus: 8,
        };
        let bounds = super::bounds(&crowded);
        assert_eq!((bounds.avg_jct, bounds.makespan, bounds.utilization), (15.0, 20.0, 0.5));
    }
}

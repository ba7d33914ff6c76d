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

/// Preemptive: runs the jobs at the top of `order` (highest priority first).
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
    for (index, job) in order.iter().enumerate() {
        if job.gpus <= budget {
            selected[index] = true;
            budget -= job.gpus;
            if budget == 0 {
                break;
            }
        }
    }
    let mut plan = context.cluster.clone();
    let mut preempt = Vec::new();
    for (job, _) in order.iter().zip(&selected).filter(|(job, selected)| job.is_running() && !**selected) {
        let allocation = job.allocation.as_ref().expect("a running job has an allocation");
        plan.release(allocation, job.cpu_demand());
        preempt.push(job.id);
    }
    let mut start = Vec::new();
    for (job, _) in order.iter().zip(&selected).filter(|(job, selected)| !job.is_running() && **selected) {
        if let Some(allocation) = placer.place_job(&plan, job) {
            plan.take(&allocation, job.cpu_demand()).expect("the placer only returns free resources");
            start.push((job.id, allocation));
        }
    }
    Decision { preempt, start, next_tick, ..Decision::none() }
}

//! The checks of a decision, run before anything changes: duplicates, jobs that are not where
//! the decision says, allocations the engine cannot honour (shape, pool, GPU types, sizes,
//! space-sharing partners, and capacity once the decision's preemptions are released), work
//! limits and the next tick. A decision that fails any of them leaves the run's state exactly
//! as it was. What only the application can find (a perf model that fails, a livelock of
//! restarts) is checked as the decision is applied.

use super::Engine;
use crate::SimError;
use schedlab_core::{Allocation, BatchConfig, Decision, JobId};

impl Engine<'_> {
    /// Checks `decision` against the state before it, in the order [`Engine::apply`] applies it,
    /// so that a decision with one fault fails with the same error as it would while applied.
    /// Returns the jobs it preempts and starts again on their identical allocations (which
    /// changes nothing), sorted.
    pub(super) fn guard(&self, decision: &Decision) -> Result<Vec<JobId>, SimError> {
        let Decision { preempt, start, next_tick, reconfigure, work_limits } = decision;
        if preempt.is_empty() && start.is_empty() && reconfigure.is_empty() && work_limits.is_empty() {
            return self.check_next_tick(*next_tick).map(|()| Vec::new());
        }
        let mut preempt_sorted = preempt.clone();
        preempt_sorted.sort_unstable();
        if let Some(pair) = preempt_sorted.windows(2).find(|pair| pair[0] == pair[1]) {
            return Err(self.invalid(pair[0], None, "preempted twice in one decision".to_string()));
        }
        let mut reconfigured: Vec<JobId> = reconfigure.iter().map(|entry| entry.0).collect();
        reconfigured.sort_unstable();
        if let Some(pair) = reconfigured.windows(2).find(|pair| pair[0] == pair[1]) {
            return Err(self.invalid(pair[0], None, "reconfigured twice in one decision".to_string()));
        }
        for &(job, batch) in reconfigure {
            if preempt_sorted.binary_search(&job).is_ok() {
                return Err(self.invalid(
                    job,
                    None,
                    "reconfigured and preempted in one decision (start it with the new batch instead)".to_string(),
                ));
            }
            self.check_reconfigure(job, batch)?;
        }
        let mut start_ids: Vec<JobId> = start.iter().map(|entry| entry.0).collect();
        start_ids.sort_unstable();
        if let Some(pair) = start_ids.windows(2).find(|pair| pair[0] == pair[1]) {
            return Err(self.invalid(pair[0], None, "started twice in one decision".to_string()));
        }
        // A preempt-and-restart on the identical allocation changes nothing.
        let unchanged = |job: JobId, allocation: &Allocation| {
            preempt_sorted.binary_search(&job).is_ok()
                && self.jobs.get(job).and_then(|view| view.allocation.as_ref()) == Some(allocation)
        };
        // Sorted, as every list looked up by job below: a round of Gavel's restarts and limits
        // a hundred jobs at once.
        let mut kept: Vec<JobId> =
            start.iter().filter(|(job, allocation)| unchanged(*job, allocation)).map(|entry| entry.0).collect();
        kept.sort_unstable();
        let is_kept = |job: JobId| kept.binary_search(&job).is_ok();
        for &job in preempt {
            match self.jobs.get(job) {
                None => return Err(self.invalid(job, None, "preempted, but it is not an active job".to_string())),
                Some(view) if !view.is_running() => {
                    return Err(self.invalid(job, None, "preempted, but it is not running".to_string()));
                }
                Some(_) => {}
            }
        }
        let stopped = |job: JobId| preempt_sorted.binary_search(&job).is_ok() && !is_kept(job);
        let mut limited: Vec<JobId> = work_limits.iter().map(|entry| entry.0).collect();
        limited.sort_unstable();
        if let Some(pair) = limited.windows(2).find(|pair| pair[0] == pair[1]) {
            return Err(self.invalid(pair[0], None, "given two work limits in one decision".to_string()));
        }
        if let Some(&(job, steps)) = work_limits.iter().find(|(_, steps)| !(steps.is_finite() && *steps >= 0.0)) {
            return Err(self.invalid(
                job,
                None,
                format!("given a work limit of {steps} steps; expected a finite number >= 0"),
            ));
        }
        // The allocations after the decision so far: each start in turn sees those before it.
        let mut started: Vec<(JobId, &Allocation)> = Vec::with_capacity(start.len());
        // The cluster once the preemptions are released, then each start taken in turn; copied
        // only when something starts.
        let mut plan = None;
        // Most decisions stop nothing and start jobs on distinct nodes: each start is then
        // checked against the cluster as it is, without a copy.
        let independent = !preempt.iter().any(|&job| stopped(job)) && {
            let mut nodes: Vec<u32> = start
                .iter()
                .flat_map(|(_, allocation)| allocation.parts.iter().chain(&allocation.ps).map(|part| part.0.0))
                .collect();
            let count = nodes.len();
            nodes.sort_unstable();
            nodes.dedup();
            nodes.len() == count
        };
        for (job, allocation) in start {
            let job = *job;
            if is_kept(job) {
                continue;
            }
            if allocation.forked && work_limits.iter().any(|entry| entry.0 == job) {
                return Err(self.invalid(job, None, "given a work limit on a forked allocation".to_string()));
            }
            let running = self.jobs.get(job).is_some_and(|view| view.is_running()) && !stopped(job);
            let after = |partner: JobId| {
                let view = self.jobs.get(partner)?;
                Some(match started.iter().find(|entry| entry.0 == partner) {
                    Some(&(_, allocation)) => Some(allocation),
                    None if stopped(partner) => None,
                    None => view.allocation.as_ref(),
                })
            };
            let joins_partner = self.check_start(job, allocation, running, &after)?;
            if !joins_partner {
                let cpus = self.states[job.index()].cpus;
                let fits = if independent {
                    // Nothing released, no node shared with another start: the cluster as it is.
                    self.cluster.check_fits(allocation, cpus)
                } else {
                    plan.get_or_insert_with(|| self.released(preempt, &stopped)).take(allocation, cpus)
                };
                if let Err(error) = fits {
                    return Err(self.invalid(job, Some(error.node()), error.to_string()));
                }
            }
            started.push((job, allocation));
        }
        let mut started_ids: Vec<JobId> = started.iter().map(|entry| entry.0).collect();
        started_ids.sort_unstable();
        for &(job, _) in work_limits {
            if started_ids.binary_search(&job).is_ok() {
                continue;
            }
            let Some(view) = self.jobs.get(job).filter(|view| view.is_running() && !stopped(job)) else {
                return Err(self.invalid(
                    job,
                    None,
                    "given a work limit, but it is neither running nor started".to_string(),
                ));
            };
            if view.allocation.as_ref().is_some_and(|allocation| allocation.forked) {
                return Err(self.invalid(job, None, "given a work limit on a forked allocation".to_string()));
            }
        }
        for (job, allocation) in start {
            let (job, Some(partner)) = (*job, allocation.colocated_with) else { continue };
            if is_kept(job) {
                continue;
            }
            let partner_after = match started.iter().find(|entry| entry.0 == partner) {
                Some(&(_, held)) => Some(held),
                None if stopped(partner) => None,
                None => self.jobs.get(partner).and_then(|view| view.allocation.as_ref()),
            };
            let paired =
                partner_after.is_some_and(|other| other.colocated_with == Some(job) && other.parts == allocation.parts);
            if !paired {
                return Err(self.invalid(
                    job,
                    None,
                    format!("shares its GPUs with {partner}, which is not running on the same GPUs sharing them back"),
                ));
            }
        }
        self.check_next_tick(*next_tick)?;
        Ok(kept)
    }

    /// A next tick must be finite and after now.
    fn check_next_tick(&self, next_tick: Option<schedlab_core::Time>) -> Result<(), SimError> {
        if let Some(time) = next_tick
            && (time <= self.now || !time.is_finite())
        {
            return Err(SimError::InvalidDecision {
                policy: self.policy_name.clone(),
                time: self.now,
                job: None,
                node: None,
                reason: format!("next tick {time} must be finite and after the current time {}", self.now),
            });
        }
        Ok(())
    }

    /// The cluster with the GPUs and CPUs of the jobs `stopped` among `preempt` released, as
    /// stopping them releases them: a job whose space-sharing partner keeps running leaves the
    /// GPUs to it.
    fn released(&self, preempt: &[JobId], stopped: &dyn Fn(JobId) -> bool) -> schedlab_core::ClusterView {
        let mut plan = self.cluster.clone();
        let mut gone: Vec<JobId> = Vec::new();
        for &job in preempt.iter().filter(|&&job| stopped(job)) {
            let view = self.jobs.get(job).expect("checked: a preempted job runs");
            let allocation = view.allocation.as_ref().expect("checked: a preempted job runs");
            let partner_keeps = allocation.colocated_with.is_some_and(|partner| {
                !gone.contains(&partner)
                    && self.jobs.get(partner).is_some_and(|other| {
                        other.allocation.as_ref().is_some_and(|shared| shared.colocated_with == Some(job))
                    })
            });
            if !partner_keeps {
                plan.release(allocation, self.states[job.index()].cpus);
            }
            gone.push(job);
        }
        plan
    }

    /// The checks of reconfiguring `job` to `batch` that change nothing.
    pub(super) fn check_reconfigure(&self, job: JobId, batch: Option<BatchConfig>) -> Result<(), SimError> {
        let Some(view) = self.jobs.get(job).filter(|view| view.is_running()) else {
            return Err(self.invalid(job, None, "reconfigured, but it is not running".to_string()));
        };
        let allocation = view.allocation.as_ref().expect("running");
        if allocation.forked || allocation.colocated_with.is_some() {
            return Err(self.invalid(
                job,
                None,
                "reconfigured, but it is forked or shares its GPUs; only a plain allocation takes a batch change"
                    .to_string(),
            ));
        }
        if batch.is_some_and(|batch| batch.local_batch == 0 || batch.accumulation_steps == 0) {
            return Err(self.invalid(job, None, format!("reconfigured to {batch:?}; both numbers must be positive")));
        }
        Ok(())
    }

    /// The checks of starting `job` on `allocation` that change nothing, given whether the job
    /// runs (`running`) and what a partner holds (`partner_allocation`: `None` for a job that
    /// is not active, else its allocation if it runs). Returns whether the job joins GPUs its
    /// partner already holds (space sharing), so takes none.
    pub(super) fn check_start<'a>(
        &self,
        job: JobId,
        allocation: &Allocation,
        running: bool,
        partner_allocation: &dyn Fn(JobId) -> Option<Option<&'a Allocation>>,
    ) -> Result<bool, SimError> {
        let Some(view) = self.jobs.get(job) else {
            let reason = if self.states.get(job.index()).is_some_and(|state| state.finish.is_some()) {
                "started, but it has already finished"
            } else {
                "started, but it has not arrived (or does not exist)"
            };
            return Err(self.invalid(job, None, reason.to_string()));
        };
        if running {
            return Err(self.invalid(job, None, "started, but it is already running (preempt it first)".to_string()));
        }
        let gpus = allocation.gpus();
        if allocation.parts.is_empty() {
            return Err(self.invalid(job, None, "started on an empty allocation".to_string()));
        }
        if allocation.parts.windows(2).any(|pair| pair[0].0 >= pair[1].0) {
            return Err(self.invalid(
                job,
                None,
                "allocation parts must be sorted by node, each node once (use Allocation::new)".to_string(),
            ));
        }
        if !allocation.ps.is_empty() {
            if allocation.forked || allocation.colocated_with.is_some() {
                return Err(self.invalid(
                    job,
                    None,
                    "parameter servers need a plain allocation (not forked, not shared)".to_string(),
                ));
            }
            if allocation.ps.windows(2).any(|pair| pair[0].0 >= pair[1].0) {
                return Err(self.invalid(
                    job,
                    None,
                    "parameter servers must be sorted by node, each node once (use Allocation::with_ps)".to_string(),
                ));
            }
            let nodes = self.cluster.spec().nodes();
            if let Some(&(node, _)) =
                allocation.ps.iter().find(|(node, _)| nodes.get(node.index()).is_some_and(|n| !view.in_pool(n)))
            {
                return Err(self.invalid(
                    job,
                    Some(node),
                    format!("a parameter server is outside the job's pool '{}'", view.pool.as_deref().unwrap_or("")),
                ));
            }
        }
        if allocation.forked {
            if allocation.colocated_with.is_some() {
                return Err(self.invalid(job, None, "a forked job cannot also share GPUs".to_string()));
            }
            if let Some(&(node, copy)) = allocation.parts.iter().find(|part| part.1 != view.gpus) {
                return Err(self.invalid(
                    job,
                    Some(node),
                    format!("a forked copy has {copy} GPUs; each copy must have the job's {} GPUs", view.gpus),
                ));
            }
        } else if gpus != view.gpus && !(self.elastic && gpus > 0) {
            return Err(self.invalid(
                job,
                None,
                format!(
                    "allocated {gpus} GPU{} but requested {}; only elastic policies may change a job's size",
                    if gpus == 1 { "" } else { "s" },
                    view.gpus
                ),
            ));
        }
        let spec = self.cluster.spec_arc().clone();
        let mut typed: Vec<(&str, u32)> = Vec::with_capacity(allocation.parts.len());
        for &(node, node_gpus) in &allocation.parts {
            if node.index() >= spec.nodes().len() {
                return Err(self.invalid(
                    job,
                    Some(node),
                    format!("the cluster has only {} nodes", spec.nodes().len()),
                ));
            }
            let gpu_type = spec.node(node).gpu_type;
            if spec.node(node).gpus == 0 {
                return Err(self.invalid(job, Some(node), "the node has no GPUs".to_string()));
            }
            if !view.in_pool(spec.node(node)) {
                return Err(self.invalid(
                    job,
                    Some(node),
                    format!(
                        "the job may only use nodes of its pool '{}' (JobView::pool), but the node is in {}",
                        view.pool.as_deref().unwrap_or(""),
                        spec.node(node).group.as_deref().map_or("no group".to_string(), |group| format!("'{group}'"))
                    ),
                ));
            }
            if (gpus == view.gpus || allocation.forked) && !view.feasible_types.contains(gpu_type) {
                return Err(self.invalid(
                    job,
                    Some(node),
                    format!(
                        "the job cannot run on GPU type '{}' (see JobView::feasible_types)",
                        spec.gpu_type_name(gpu_type)
                    ),
                ));
            }
            typed.push((spec.gpu_type_name(gpu_type), node_gpus));
        }
        // Space sharing: the second job of a pair joins GPUs its partner already holds.
        let mut joins_partner = false;
        if let Some(partner) = allocation.colocated_with {
            let Some(held) = partner_allocation(partner).filter(|_| partner != job) else {
                return Err(self.invalid(
                    job,
                    None,
                    format!("shares its GPUs with {partner}, which is not an active job"),
                ));
            };
            if typed.iter().any(|(gpu_type, _)| *gpu_type != typed[0].0) {
                return Err(self.invalid(job, None, "a shared allocation must use one GPU type".to_string()));
            }
            if let Some(held) = held {
                if held.colocated_with != Some(job) || held.parts != allocation.parts {
                    return Err(self.invalid(
                        job,
                        None,
                        format!("shares its GPUs with {partner}, which runs elsewhere or alone"),
                    ));
                }
                joins_partner = true;
            }
        }
        Ok(joins_partner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use schedlab_cluster::{CompactCluster, TraceDuration};
    use schedlab_core::{Context, JobSpec, NodeId, Policy, PolicyError, Time};
    use std::sync::Arc;

    struct Idle;

    impl Policy for Idle {
        fn name(&self) -> &str {
            "idle"
        }

        fn schedule(&mut self, _: &Context<'_>) -> Result<Decision, PolicyError> {
            Ok(Decision::none())
        }
    }

    /// Each job's allocation, epoch and restarts.
    type Jobs = Vec<(Option<Allocation>, u32, u32)>;

    /// What a decision could change: free GPUs per node, the jobs, the pending tick.
    fn state(engine: &Engine<'_>) -> (Vec<u32>, Jobs, Option<Time>) {
        let jobs = (0..2)
            .map(|index| {
                let view = engine.jobs.get(JobId(index)).expect("active");
                (view.allocation.clone(), engine.states[index as usize].epoch, view.restarts)
            })
            .collect();
        (engine.cluster.free_gpus_per_node().to_vec(), jobs, engine.pending_tick)
    }

    #[test]
    fn a_refused_decision_leaves_the_state_untouched() {
        let cluster = Arc::new(CompactCluster::parse("v100=4", 2).unwrap().build().unwrap());
        let workload: Vec<JobSpec> = (0..2).map(|id| JobSpec::new(JobId(id), Time::ZERO, 2, "rigid", 100.0)).collect();
        let perf = TraceDuration::uniform();
        let config = crate::SimConfig::default();
        let mut policy = Idle;
        let mut engine = Engine::new(cluster, &workload, &perf, &mut policy, &config).unwrap();
        for spec in &workload {
            engine.admit(spec).unwrap();
        }
        let first = Decision { start: vec![(JobId(0), Allocation::on_node(NodeId(0), 2))], ..Decision::none() };
        engine.apply(first).unwrap();
        let before = state(&engine);
        // Each refused only after a valid part that, applied first, would have changed the
        // state: the preemption of job 0, then a start that cannot be honoured.
        let refused = [
            // Node 7 does not exist.
            Decision {
                preempt: vec![JobId(0)],
                start: vec![(JobId(1), Allocation::on_node(NodeId(7), 2))],
                ..Decision::none()
            },
            // Both jobs on node 1, which has 2 GPUs.
            Decision {
                preempt: vec![JobId(0)],
                start: vec![
                    (JobId(0), Allocation::on_node(NodeId(1), 2)),
                    (JobId(1), Allocation::on_node(NodeId(1), 2)),
                ],
                ..Decision::none()
            },
            // A valid start, then a tick in the past.
            Decision {
                start: vec![(JobId(1), Allocation::on_node(NodeId(1), 2))],
                next_tick: Some(Time::ZERO),
                ..Decision::none()
            },
        ];
        for decision in refused {
            let error = engine.apply(decision.clone()).unwrap_err();
            assert!(matches!(error, SimError::InvalidDecision { .. }), "{decision:?}: {error}");
            assert_eq!(state(&engine), before, "{decision:?} was refused ({error}) but changed the state");
        }
        // The same jobs, validly: job 0 moves to node 1 and job 1 takes node 0.
        let valid = Decision {
            preempt: vec![JobId(0)],
            start: vec![(JobId(0), Allocation::on_node(NodeId(1), 2)), (JobId(1), Allocation::on_node(NodeId(0), 2))],
            ..Decision::none()
        };
        engine.apply(valid).unwrap();
        assert_eq!(engine.cluster.free_gpus_per_node(), [0, 0]);
    }
}

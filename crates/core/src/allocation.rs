//! Where a job runs, and what a policy decides.

use crate::{JobId, NodeId, Time};
use serde::{Deserialize, Serialize};

/// How a data-parallel job trains on its GPUs: the batch each GPU computes per step and how
/// many such micro-batches it accumulates before an update (Pollux chooses both per job).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BatchConfig {
    /// Examples per GPU per micro-batch.
    pub local_batch: u32,
    /// Micro-batches accumulated per update (1: none).
    pub accumulation_steps: u32,
}

/// The GPUs a job runs on: a number of GPUs on each of one or more nodes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Allocation {
    /// `(node, gpus)` pairs, sorted by node with each node at most once (see [`Allocation::new`]).
    pub parts: Vec<(NodeId, u32)>,
    /// The batch configuration chosen by an adaptive policy (Pollux); `None` keeps the job's
    /// own. A running job's batch changes without a restart through [`Decision::reconfigure`].
    pub batch: Option<BatchConfig>,
    /// Parameter servers placed by the policy (DL2) as `(node, servers)` pairs, sorted by node
    /// with each node at most once (see [`Allocation::with_ps`]); empty for jobs without them.
    /// Each server uses the job's CPUs per server ([`crate::JobView::cpu_demand`]) on its
    /// node, which may have no GPUs; the perf model sees their number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ps: Vec<(NodeId, u32)>,
    /// Space sharing (Gavel's packing): the job shares exactly these GPUs with this partner,
    /// whose allocation has the same parts and names this job back. The pair holds the GPUs
    /// once, each job runs at its co-located rate, and when one stops the other keeps the GPUs
    /// and runs alone at its isolated rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colocated_with: Option<JobId>,
    /// Job forking (HadarE): each part is an independent copy of the whole job (its requested
    /// GPUs on that node), all copies train at once, and the job progresses at the sum of its
    /// copies' rates less the engine's aggregation overhead. No two copies share a node.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub forked: bool,
}

impl Allocation {
    /// Returns an allocation of the given parts, sorted by node and with repeated nodes merged.
    pub fn new(mut parts: Vec<(NodeId, u32)>) -> Allocation {
        parts.sort_unstable_by_key(|part| part.0);
        parts.dedup_by(|later, earlier| {
            if later.0 == earlier.0 {
                earlier.1 += later.1;
                true
            } else {
                false
            }
        });
        Allocation { parts, batch: None, ps: Vec::new(), colocated_with: None, forked: false }
    }

    /// Returns an allocation of `gpus` GPUs on a single node.
    pub fn on_node(node: NodeId, gpus: u32) -> Allocation {
        Allocation { parts: vec![(node, gpus)], batch: None, ps: Vec::new(), colocated_with: None, forked: false }
    }

    /// Returns the same GPUs shared with `partner` (see [`Allocation::colocated_with`]).
    pub fn shared_with(mut self, partner: JobId) -> Allocation {
        self.colocated_with = Some(partner);
        self
    }

    /// Returns copies of a job, one per node, each on `gpus` GPUs of that node (see
    /// [`Allocation::forked`]); `nodes` are sorted and de-duplicated.
    pub fn copies(mut nodes: Vec<NodeId>, gpus: u32) -> Allocation {
        nodes.sort_unstable();
        nodes.dedup();
        let parts = nodes.into_iter().map(|node| (node, gpus)).collect();
        Allocation { parts, batch: None, ps: Vec::new(), colocated_with: None, forked: true }
    }

    /// Returns the total number of GPUs.
    pub fn gpus(&self) -> u32 {
        self.parts.iter().map(|part| part.1).sum()
    }

    /// Returns the number of distinct nodes.
    pub fn nodes(&self) -> usize {
        self.parts.len()
    }

    /// Returns the total number of parameter servers.
    pub fn ps_count(&self) -> u32 {
        self.ps.iter().map(|part| part.1).sum()
    }

    /// Returns the same allocation with parameter servers on these nodes (sorted by node,
    /// repeated nodes merged, as [`Allocation::new`] does for GPUs).
    pub fn with_ps(mut self, ps: Vec<(NodeId, u32)>) -> Allocation {
        self.ps = Allocation::new(ps).parts;
        self
    }

    /// Returns the same allocation with another batch configuration.
    pub fn with_batch(mut self, batch: Option<BatchConfig>) -> Allocation {
        self.batch = batch;
        self
    }
}

/// What a policy wants changed, returned from [`crate::Policy::schedule`].
///
/// A decision is a change, not a full snapshot: jobs it does not name keep running where they
/// are (or keep waiting). The engine first changes the batch configuration of every job in
/// `reconfigure` (no restart), then stops every job in `preempt`, then starts every job in
/// `start`. Preempting and restarting a job on the identical allocation is a no-op, so a policy
/// may also describe the full desired state with [`Decision::reconcile`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Decision {
    /// Running jobs to stop; they return to the queue and keep their progress.
    pub preempt: Vec<JobId>,
    /// Waiting (or just preempted) jobs to start, and where.
    pub start: Vec<(JobId, Allocation)>,
    /// Running jobs that keep their GPUs but train with another batch configuration from now
    /// on: no restart and no restart overhead; their progress is kept and their rate recomputed.
    pub reconfigure: Vec<(JobId, Option<BatchConfig>)>,
    /// When to call the policy again even if no job arrives or finishes; the latest decision's
    /// request replaces earlier ones, and `None` cancels them.
    pub next_tick: Option<Time>,
    /// Jobs, running or started by this decision, that make at most this much more progress
    /// (steps) and then hold their GPUs at rate 0 until a later decision gives them another
    /// limit or stops them; a stop clears a job's limit. Gavel's simulator leases each job
    /// `int(rate x round)` whole steps per round: the Gavel policies' `whole_steps`.
    pub work_limits: Vec<(JobId, f64)>,
}

impl Decision {
    /// Returns a decision that changes nothing and asks for no tick.
    pub fn none() -> Decision {
        Decision::default()
    }

    /// Returns the decision that turns the current set of running jobs into `desired`.
    ///
    /// `running` lists every running job with its current allocation; `desired` lists every job
    /// that should run afterwards. Jobs running in `desired` on their current allocation are left
    /// alone; jobs whose desired allocation differs only in its batch configuration are
    /// reconfigured (no restart); others are preempted and/or started.
    pub fn reconcile<'a>(
        running: impl IntoIterator<Item = (JobId, &'a Allocation)>,
        mut desired: Vec<(JobId, Allocation)>,
        next_tick: Option<Time>,
    ) -> Decision {
        desired.sort_unstable_by_key(|entry| entry.0);
        let mut preempt = Vec::new();
        let mut unchanged = Vec::new();
        let mut reconfigure = Vec::new();
        for (job, allocation) in running {
            match desired.binary_search_by_key(&job, |entry| entry.0) {
                Ok(index) if desired[index].1 == *allocation => unchanged.push(index),
                Ok(index) if desired[index].1.clone().with_batch(allocation.batch) == *allocation => {
                    reconfigure.push((job, desired[index].1.batch));
                    unchanged.push(index);
                }
                _ => preempt.push(job),
            }
        }
        unchanged.sort_unstable();
        let mut start = Vec::with_capacity(desired.len() - unchanged.len());
        let mut skip = unchanged.into_iter().peekable();
        for (index, entry) in desired.into_iter().enumerate() {
            if skip.peek() == Some(&index) {
                skip.next();
            } else {
                start.push(entry);
            }
        }
        Decision { preempt, start, next_tick, reconfigure, work_limits: Vec::new() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_merges_and_sorts_parts() {
        let allocation = Allocation::new(vec![(NodeId(3), 2), (NodeId(1), 1), (NodeId(3), 1)]);
        assert_eq!(allocation.parts, vec![(NodeId(1), 1), (NodeId(3), 3)]);
        assert_eq!(allocation.gpus(), 4);
        assert_eq!(allocation.nodes(), 2);
    }

    #[test]
    fn parameter_servers_merge_by_node_and_a_change_restarts() {
        let a = Allocation::on_node(NodeId(0), 2).with_ps(vec![(NodeId(2), 1), (NodeId(1), 1), (NodeId(2), 2)]);
        assert_eq!((a.ps.clone(), a.ps_count()), (vec![(NodeId(1), 1), (NodeId(2), 3)], 4));
        let moved = a.clone().with_ps(vec![(NodeId(1), 4)]);
        let decision = Decision::reconcile(vec![(JobId(0), &a)], vec![(JobId(0), moved.clone())], None);
        assert_eq!((decision.preempt, decision.start), (vec![JobId(0)], vec![(JobId(0), moved)]));
    }

    #[test]
    fn reconcile_keeps_unchanged_jobs_and_moves_the_rest() {
        let a = Allocation::on_node(NodeId(0), 1);
        let b = Allocation::on_node(NodeId(1), 1);
        let running = vec![(JobId(0), &a), (JobId(1), &a), (JobId(2), &b)];
        let desired = vec![(JobId(3), b.clone()), (JobId(0), a.clone()), (JobId(2), a.clone())];
        let decision = Decision::reconcile(running, desired, None);
        assert_eq!(decision.preempt, vec![JobId(1), JobId(2)]);
        assert_eq!(decision.start, vec![(JobId(2), a), (JobId(3), b)]);
        assert!(decision.reconfigure.is_empty());
    }

    #[test]
    fn reconcile_reconfigures_a_batch_change_instead_of_restarting() {
        let a = Allocation::on_node(NodeId(0), 2);
        let batch = BatchConfig { local_batch: 64, accumulation_steps: 2 };
        let running = vec![(JobId(0), &a)];
        let decision = Decision::reconcile(running, vec![(JobId(0), a.clone().with_batch(Some(batch)))], None);
        assert_eq!(decision, Decision { reconfigure: vec![(JobId(0), Some(batch))], ..Decision::none() });
        // Moving and changing the batch at once is a restart.
        let b = Allocation::on_node(NodeId(1), 2).with_batch(Some(batch));
        let decision = Decision::reconcile(vec![(JobId(0), &a)], vec![(JobId(0), b.clone())], None);
        assert_eq!((decision.preempt, decision.start), (vec![JobId(0)], vec![(JobId(0), b)]));
    }
}

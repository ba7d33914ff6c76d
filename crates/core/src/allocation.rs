//! Where a job runs, and what a policy decides.

use crate::{JobId, NodeId, Time};
use serde::{Deserialize, Serialize};

/// The GPUs a job runs on: a number of GPUs on each of one or more nodes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Allocation {
    /// `(node, gpus)` pairs, sorted by node with each node at most once (see [`Allocation::new`]).
    pub parts: Vec<(NodeId, u32)>,
    /// Batch size chosen by an adaptive policy (Pollux); `None` keeps the job's own.
    pub batch_size: Option<u32>,
    /// Number of parameter servers chosen by a policy (DL2); `None` if not applicable.
    pub ps: Option<u32>,
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
        Allocation { parts, batch_size: None, ps: None, colocated_with: None, forked: false }
    }

    /// Returns an allocation of `gpus` GPUs on a single node.
    pub fn on_node(node: NodeId, gpus: u32) -> Allocation {
        Allocation { parts: vec![(node, gpus)], batch_size: None, ps: None, colocated_with: None, forked: false }
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
        Allocation { parts, batch_size: None, ps: None, colocated_with: None, forked: true }
    }

    /// Returns the total number of GPUs.
    pub fn gpus(&self) -> u32 {
        self.parts.iter().map(|part| part.1).sum()
    }

    /// Returns the number of distinct nodes.
    pub fn nodes(&self) -> usize {
        self.parts.len()
    }
}

/// What a policy wants changed, returned from [`crate::Policy::schedule`].
///
/// A decision is a change, not a full snapshot: jobs it does not name keep running where they
/// are (or keep waiting). The engine first stops every job in `preempt`, then starts every job
/// in `start`. Preempting and restarting a job on the identical allocation is a no-op, so a
/// policy may also describe the full desired state with [`Decision::reconcile`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Decision {
    /// Running jobs to stop; they return to the queue and keep their progress.
    pub preempt: Vec<JobId>,
    /// Waiting (or just preempted) jobs to start, and where.
    pub start: Vec<(JobId, Allocation)>,
    /// When to call the policy again even if no job arrives or finishes; the latest decision's
    /// request replaces earlier ones, and `None` cancels them.
    pub next_tick: Option<Time>,
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
    /// alone; others are preempted and/or started.
    pub fn reconcile<'a>(
        running: impl IntoIterator<Item = (JobId, &'a Allocation)>,
        mut desired: Vec<(JobId, Allocation)>,
        next_tick: Option<Time>,
    ) -> Decision {
        desired.sort_unstable_by_key(|entry| entry.0);
        let mut preempt = Vec::new();
        let mut unchanged = Vec::new();
        for (job, allocation) in running {
            match desired.binary_search_by_key(&job, |entry| entry.0) {
                Ok(index) if desired[index].1 == *allocation => unchanged.push(index),
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
        Decision { preempt, start, next_tick }
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
    fn reconcile_keeps_unchanged_jobs_and_moves_the_rest() {
        let a = Allocation::on_node(NodeId(0), 1);
        let b = Allocation::on_node(NodeId(1), 1);
        let running = vec![(JobId(0), &a), (JobId(1), &a), (JobId(2), &b)];
        let desired = vec![(JobId(3), b.clone()), (JobId(0), a.clone()), (JobId(2), a.clone())];
        let decision = Decision::reconcile(running, desired, None);
        assert_eq!(decision.preempt, vec![JobId(1), JobId(2)]);
        assert_eq!(decision.start, vec![(JobId(2), a), (JobId(3), b)]);
    }
}

//! Apache YARN's capacity scheduler (YARN-CS), the production baseline of Hadar's evaluation.

use schedlab_cluster::Placer;
use schedlab_core::{Context, Decision, JobView, ParamError, ParamReader, Policy, PolicyError};
use std::collections::BTreeMap;
use std::sync::Arc;

/// YARN's capacity scheduler on GPUs: jobs go to queues (the job's virtual cluster, else its
/// user, else one `default` queue); each queue is guaranteed an equal share of the cluster's
/// GPUs among the queues seen so far and may grow past it up to `max_share` of the cluster
/// while others leave GPUs idle. Jobs are first-in first-out within a queue (the head blocks
/// the queue), queues are served least relatively used first (used over guaranteed GPUs, ties
/// by name), and nothing is preempted. Placement is heterogeneity-agnostic (any GPU type).
#[derive(Clone, Debug)]
pub struct YarnCapacity {
    name: String,
    placer: Placer,
    max_share: f64,
    /// Every queue seen so far; a queue's guarantee is `total GPUs / queues seen`.
    queues: BTreeMap<Arc<str>, ()>,
}

impl YarnCapacity {
    /// Reads the policy from its parameters, `yarn-cs[max_share=1,placement=consolidated,same_type=true]`.
    pub fn read(reader: &mut ParamReader<'_>) -> Result<YarnCapacity, ParamError> {
        let max_share = reader.positive_f64("max_share", 1.0)?;
        let placer = Placer::from_params(reader)?;
        let name = reader.name();
        if max_share > 1.0 {
            return Err(ParamError {
                policy: name,
                message: format!(
                    "parameter 'max_share': {max_share} is more than the whole cluster (expected 0 < x <= 1)"
                ),
            });
        }
        Ok(YarnCapacity { name, placer, max_share, queues: BTreeMap::new() })
    }
}

/// The queue a job is submitted to.
fn queue_of(job: &JobView) -> Arc<str> {
    job.vc.clone().or_else(|| job.user.clone()).unwrap_or_else(|| Arc::from("default"))
}

impl Policy for YarnCapacity {
    fn name(&self) -> &str {
        &self.name
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        for &job in context.arrived {
            if let Some(view) = context.jobs.get(job) {
                self.queues.insert(queue_of(view), ());
            }
        }
        if context.cluster.total_free() == 0 || context.jobs.n_queued() == 0 {
            return Ok(Decision::none());
        }
        let total = f64::from(context.cluster.spec().total_gpus());
        let guaranteed = total / self.queues.len().max(1) as f64;
        let limit = (self.max_share * total).floor().max(1.0);
        // Per queue: GPUs in use and the waiting jobs in arrival order.
        let mut used: BTreeMap<Arc<str>, f64> = self.queues.keys().map(|queue| (queue.clone(), 0.0)).collect();
        for job in context.jobs.running() {
            *used.entry(queue_of(job)).or_default() += f64::from(job.gpus);
        }
        let mut waiting: BTreeMap<Arc<str>, std::collections::VecDeque<&JobView>> = BTreeMap::new();
        for job in context.jobs.queued() {
            waiting.entry(queue_of(job)).or_default().push_back(job);
        }
        let mut plan = context.cluster.clone();
        let mut start = Vec::new();
        loop {
            // The least relatively used queue whose head fits starts it; a head that does not
            // fit (no room, or over the queue's limit) blocks its queue.
            let next = waiting
                .iter()
                .filter_map(|(queue, jobs)| jobs.front().map(|head| (queue, *head)))
                .filter(|(queue, head)| used[*queue] + f64::from(head.gpus) <= limit && head.gpus <= plan.total_free())
                .map(|(queue, head)| (used[queue] / guaranteed, queue.clone(), head))
                .min_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
            let Some((_, queue, head)) = next else { break };
            match self.placer.place_job(&plan, head) {
                Some(allocation) => {
                    plan.take(&allocation, head.cpu_demand()).expect("the placer only returns free resources");
                    *used.get_mut(&queue).expect("queue listed") += f64::from(head.gpus);
                    start.push((head.id, allocation));
                    waiting.get_mut(&queue).expect("queue listed").pop_front();
                }
                // Fragmented: the head waits, and so does its queue.
                None => {
                    waiting.remove(&queue);
                }
            }
        }
        Ok(Decision { start, ..Decision::none() })
    }
}

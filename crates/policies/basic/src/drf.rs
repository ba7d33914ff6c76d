//! Dominant resource fairness across users.

use schedlab_cluster::Placer;
use schedlab_core::{Context, Decision, JobView, ParamError, ParamReader, Policy, PolicyError};
use std::collections::{BTreeMap, VecDeque};

/// Dominant resource fairness (Ghodsi et al., NSDI'11) over GPUs and, where both jobs and
/// nodes declare them, CPUs. Non-preemptive progressive filling: repeatedly the user with the
/// smallest dominant share starts their earliest waiting job; a user whose next job does not
/// fit is skipped for the rest of the decision. Jobs without a user form one user `""`.
#[derive(Clone, Debug)]
pub struct Drf {
    name: String,
    placer: Placer,
}

impl Drf {
    /// Reads the policy from its parameters, `drf[placement=...,same_type=...]`.
    pub fn read(reader: &mut ParamReader<'_>) -> Result<Drf, ParamError> {
        let placer = Placer::from_params(reader)?;
        Ok(Drf { name: reader.name(), placer })
    }
}

#[derive(Default)]
struct Usage {
    gpus: f64,
    cpus: f64,
}

impl Policy for Drf {
    fn name(&self) -> &str {
        &self.name
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        if context.cluster.total_free() == 0 || context.jobs.n_queued() == 0 {
            return Ok(Decision::none());
        }
        let spec = context.cluster.spec();
        let total_gpus = f64::from(spec.total_gpus());
        let total_cpus: Option<f64> = spec.nodes().iter().map(|node| node.cpus).sum();
        let user_of = |job: &JobView| job.user.as_deref().unwrap_or("").to_string();
        let mut usage: BTreeMap<String, Usage> = BTreeMap::new();
        for job in context.jobs.running() {
            let entry = usage.entry(user_of(job)).or_default();
            entry.gpus += f64::from(job.gpus);
            entry.cpus += job.cpus.unwrap_or(0.0);
        }
        let mut waiting: BTreeMap<String, VecDeque<&JobView>> = BTreeMap::new();
        for job in context.jobs.queued() {
            waiting.entry(user_of(job)).or_default().push_back(job);
        }
        let share = |usage: &Usage| {
            let gpu_share = usage.gpus / total_gpus;
            match total_cpus {
                Some(cpus) if cpus > 0.0 => gpu_share.max(usage.cpus / cpus),
                _ => gpu_share,
            }
        };
        let mut plan = context.cluster.clone();
        let mut start = Vec::new();
        while plan.total_free() > 0 {
            // BTreeMap order breaks share ties by user name, deterministically.
            let Some(user) = waiting
                .keys()
                .min_by(|a, b| {
                    let share_a = usage.get(*a).map_or(0.0, share);
                    let share_b = usage.get(*b).map_or(0.0, share);
                    share_a.total_cmp(&share_b)
                })
                .cloned()
            else {
                break;
            };
            let queue = waiting.get_mut(&user).expect("user has waiting jobs");
            let job = queue.pop_front().expect("queues are never left empty");
            let placed = self.placer.place_job(&plan, job);
            match placed {
                Some(allocation) => {
                    plan.take(&allocation, job.cpu_demand()).expect("the placer only returns free resources");
                    let entry = usage.entry(user.clone()).or_default();
                    entry.gpus += f64::from(job.gpus);
                    entry.cpus += job.cpus.unwrap_or(0.0);
                    start.push((job.id, allocation));
                    if queue.is_empty() {
                        waiting.remove(&user);
                    }
                }
                None => {
                    waiting.remove(&user);
                }
            }
        }
        Ok(Decision { start, ..Decision::none() })
    }
}
